/*
 * whatif.c: what-if replay (-swap LTID:EVENT=SENDER:MSGID).  Before the
 * run it reads the recording's communication and execution logs, works
 * out the cut (per task, how many leading recorded events it replays:
 * those not causally after a swapped receive), checks each swap against
 * the receive's racing alternatives, and hands cut and swaps to the
 * tasks in PG_ENV_WHATIF (pangaea_lib/replay.c reads it).
 */
#include "launcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One task of the recording: its events and spawns. */
struct wf_task {
	int ltid;
	struct pg_event *ev;   /* dests copied (malloc'd) */
	size_t n;
	struct pg_exec_log exec;
};

/* The recording, as whatif.c needs it. */
struct wf_run {
	struct wf_task *t;
	int n;
};

static void run_free(struct wf_run *w)
{
	for (int i = 0; i < w->n; i++) {
		for (size_t k = 0; k < w->t[i].n; k++)
			free(w->t[i].ev[k].dests);
		free(w->t[i].ev);
		pg_exec_free(&w->t[i].exec);
	}
	free(w->t);
	memset(w, 0, sizeof(*w));
}

/* Reads task LTID's logs of DIR into T; 0 or -1 (said). */
static int task_load(const char *dir, int ltid, struct wf_task *t)
{
	char path[PG_PATH_MAX], err[PG_PATH_MAX + 100];
	struct pg_comm_reader r;
	struct pg_event e;
	size_t cap = 0;
	int rc;

	t->ltid = ltid;
	if (pg_log_path(path, sizeof(path), dir, ltid, "exec") < 0 ||
	    pg_exec_read(path, &t->exec, err, sizeof(err)) < 0 ||
	    pg_log_path(path, sizeof(path), dir, ltid, "comm") < 0 ||
	    pg_comm_open(&r, path, err, sizeof(err)) < 0) {
		la_error("-swap: %s", err);
		return -1;
	}
	while ((rc = pg_comm_next(&r, &e, err, sizeof(err))) > 0) {
		struct pg_event *v = pg_grow(t->ev, &cap, t->n + 1, sizeof(e), 64);
		int *d = NULL;

		if (v)
			t->ev = v;
		if (v && e.ndest > 0 &&
		    (d = malloc((size_t)e.ndest * sizeof(int))))
			memcpy(d, e.dests, (size_t)e.ndest * sizeof(int));
		if (!v || (e.ndest > 0 && !d)) {
			rc = -1;
			snprintf(err, sizeof(err), "out of memory");
			break;
		}
		e.dests = d;
		e.blob = NULL;
		e.nblob = 0;
		t->ev[t->n++] = e;
	}
	pg_comm_free(&r);
	if (rc < 0)
		la_error("-swap: %s", err);
	return rc;
}

/* Reads every task of the recording in DIR; 0 or -1 (said). */
static int run_load(const char *dir, struct wf_run *w)
{
	int *ltids = NULL, n = pg_run_ltids(dir, "comm", &ltids);

	if (n < 0 || !(w->t = calloc((size_t)(n > 0 ? n : 1), sizeof(*w->t)))) {
		free(ltids);
		la_error("-swap: cannot list the logs of %s", dir);
		return -1;
	}
	for (w->n = 0; w->n < n; w->n++)
		if (task_load(dir, ltids[w->n], &w->t[w->n]) < 0) {
			w->n++;
			free(ltids);
			return -1;
		}
	free(ltids);
	return 0;
}

/* The index of task LTID in W, or -1. */
static int task_index(const struct wf_run *w, int ltid)
{
	for (int i = 0; i < w->n; i++)
		if (w->t[i].ltid == ltid)
			return i;
	return -1;
}

/* Where task T receives (or probes) message MSGID of SRC first: its
 * event index, or -1 when it never does. */
static long recv_index(const struct wf_task *t, int src, uint32_t msgid)
{
	for (size_t k = 0; k < t->n; k++) {
		int c = pg_rec_kind_class(t->ev[k].kind);

		if ((c == PG_CLASS_RECV || c == PG_CLASS_PROBE) &&
		    t->ev[k].peer == src && t->ev[k].msgid == msgid)
			return (long)k;
	}
	return -1;
}

/* Lowers CUT[I] to V; 1 if it changed. */
static int lower(uint64_t *cut, int i, uint64_t v)
{
	if (i < 0 || cut[i] <= v)
		return 0;
	cut[i] = v;
	return 1;
}

/* What event K of task I (at or after its cut) makes not replayable in
 * others: the receives of its messages, its children; 1 if a cut fell. */
static int spread(const struct wf_run *w, uint64_t *cut, int i, size_t k)
{
	const struct wf_task *t = &w->t[i];
	const struct pg_event *e = &t->ev[k];
	int changed = 0;

	if (pg_rec_kind_class(e->kind) == PG_CLASS_SEND) {
		int nd = e->ndest > 0 ? e->ndest : 1;

		for (int d = 0; d < nd; d++) {
			int j = task_index(w, e->ndest > 0 ? e->dests[d] : e->peer);
			long r = j < 0 ? -1 : recv_index(&w->t[j], t->ltid, e->msgid);

			if (r >= 0)
				changed |= lower(cut, j, (uint64_t)r);
		}
	} else if (e->kind == PG_REC_SPAWN) {
		for (int s = 0; s < t->exec.nspawn; s++) {
			const struct pg_spawn_rec *sp = &t->exec.spawns[s];

			if (sp->seq != (int)e->msgid)
				continue;
			for (int c = 0; c < sp->ntask; c++)
				changed |= lower(cut, task_index(w, sp->slots[c].ltid), 0);
		}
	}
	return changed;
}

/* Fills CUT (W->n) for the swap of task index I at event number E:
 * every event causally after that receive is cut off. */
static void cut_of(const struct wf_run *w, int i, uint64_t e, uint64_t *cut)
{
	int changed = 1;

	for (int j = 0; j < w->n; j++)
		cut[j] = w->t[j].n;
	cut[i] = e;
	while (changed) {
		changed = 0;
		for (int j = 0; j < w->n; j++)
			for (size_t k = cut[j]; k < w->t[j].n; k++)
				changed |= spread(w, cut, j, k);
	}
}

/* Whether the recorded event E sends a message to LTID with TAG. */
static int sends_to(const struct pg_event *e, int ltid, int tag)
{
	if (pg_rec_kind_class(e->kind) != PG_CLASS_SEND || e->tag != tag)
		return 0;
	if (e->ndest <= 0)
		return e->peer == ltid;
	for (int d = 0; d < e->ndest; d++)
		if (e->dests[d] == ltid)
			return 1;
	return 0;
}

/*
 * The racing alternatives of the receive at event number E of task index
 * I, with CUT its cut: per sender, its first message to it of the same
 * tag that was sent before the sender's cut (not causally after the
 * receive) and not received before it (PVM does not let one sender's
 * messages overtake each other); not the one it got.  Calls FN for each;
 * their number.
 */
static int alternatives(const struct wf_run *w, int i, uint64_t e,
			const uint64_t *cut,
			void (*fn)(void *, int, const struct pg_event *),
			void *arg)
{
	const struct wf_task *t = &w->t[i];
	const struct pg_event *got = &t->ev[e - 1];
	int n = 0;

	for (int j = 0; j < w->n; j++)
		for (size_t k = 0; k < cut[j]; k++) {
			const struct pg_event *s = &w->t[j].ev[k];
			long r;

			if (!sends_to(s, t->ltid, got->tag))
				continue;
			r = recv_index(t, w->t[j].ltid, s->msgid);
			if (r >= 0 && (uint64_t)r < e - 1)
				continue;
			if (w->t[j].ltid == got->peer && s->msgid == got->msgid)
				break;
			n++;
			if (fn)
				fn(arg, w->t[j].ltid, s);
			break; /* PVM keeps one sender's messages in order */
		}
	return n;
}

/* A swap being checked: the one asked, and what was found. */
struct wf_pick {
	const struct la_swap *sw;
	struct pg_strbuf list;
	int found;
	uint32_t len;
};

static void pick_one(void *arg, int ltid, const struct pg_event *s)
{
	struct wf_pick *p = arg;

	pg_strbuf_printf(&p->list, " %d:%u", ltid, s->msgid);
	if (ltid == p->sw->sender && s->msgid == p->sw->msgid) {
		p->found = 1;
		p->len = s->len;
	}
}

/* Checks that swap SW names a receive of the recording W and fills in
 * its cut (CUT, W->n); the receive's task index, or -1 (said). */
static int swap_cut(const struct wf_run *w, const struct la_swap *sw,
		    uint64_t *cut)
{
	int i = task_index(w, sw->ltid);
	const struct pg_event *got;

	if (i < 0 || sw->event < 1 || sw->event > w->t[i].n) {
		la_error("-swap %d:%llu: the recording has no such event",
			 sw->ltid, (unsigned long long)sw->event);
		return -1;
	}
	got = &w->t[i].ev[sw->event - 1];
	if (pg_rec_kind_class(got->kind) != PG_CLASS_RECV) {
		la_error("-swap %d:%llu: that event is a %s, not a receive that "
			 "got a message", sw->ltid,
			 (unsigned long long)sw->event, pg_rec_kind_name(got->kind));
		return -1;
	}
	cut_of(w, i, sw->event, cut);
	return i;
}

/* Checks that swap SW (its receive task index I, its cut CUT) hands out
 * a racing alternative, and appends it to ENV; 0 or -1 (said, with the
 * valid ones). */
static int swap_check(const struct wf_run *w, int i, const struct la_swap *sw,
		      const uint64_t *cut, struct pg_strbuf *env)
{
	const struct pg_event *got = &w->t[i].ev[sw->event - 1];
	struct wf_pick p = { .sw = sw };
	int rc = 0;

	alternatives(w, i, sw->event, cut, pick_one, &p);
	if (!p.found) {
		la_error("-swap %d:%llu=%d:%u: not a racing alternative of that "
			 "pvm_%s (it got %d:%u); valid:%s", sw->ltid,
			 (unsigned long long)sw->event, sw->sender, sw->msgid,
			 pg_rec_kind_name(got->kind), got->peer, got->msgid,
			 p.list.len ? p.list.p : " none (it does not race)");
		rc = -1;
	} else {
		pg_strbuf_printf(env, "swap:%d:%llu:%d:%u:%d:%u ", sw->ltid,
				 (unsigned long long)sw->event, sw->sender,
				 sw->msgid, got->tag, p.len);
	}
	pg_strbuf_free(&p.list);
	return rc;
}

/* Checks that no swap is causally after another (CUTS: each swap's own
 * cut, W->n apiece); 0 or -1 (said). */
static int swaps_concurrent(const struct wf_run *w, const struct la_opts *o,
			    const uint64_t *cuts)
{
	for (int a = 0; a < o->nswap; a++)
		for (int b = 0; b < o->nswap; b++) {
			const struct la_swap *sb = &o->swaps[b];
			int j = task_index(w, sb->ltid);

			if (a != b && sb->event > cuts[(size_t)a * w->n + j] &&
			    !(sb->ltid == o->swaps[a].ltid &&
			      sb->event == o->swaps[a].event)) {
				la_error("-swap %d:%llu is causally after -swap "
					 "%d:%llu: give them in two runs",
					 sb->ltid, (unsigned long long)sb->event,
					 o->swaps[a].ltid,
					 (unsigned long long)o->swaps[a].event);
				return -1;
			}
		}
	return 0;
}

/* Says where each task leaves the recording (CUT) and builds ENV's cut
 * words. */
static void cut_say(const struct la_opts *o, const struct wf_run *w,
		    const uint64_t *cut, struct pg_strbuf *env)
{
	for (int i = 0; i < w->n; i++) {
		pg_strbuf_printf(env, "cut:%d:%llu ", w->t[i].ltid,
				 (unsigned long long)cut[i]);
		if (cut[i] < w->t[i].n)
			la_say(o, "what-if: task %d leaves the recording after "
			       "event %llu of %zu", w->t[i].ltid,
			       (unsigned long long)cut[i], w->t[i].n);
	}
}

int la_whatif_prepare(const struct la_opts *o)
{
	struct pg_strbuf env = { 0 };
	struct wf_run w = { 0 };
	uint64_t *cuts = NULL, *cut;
	int rc = -1;

	unsetenv(PG_ENV_WHATIF); /* not inherited from an outer run */
	if (!o->nswap)
		return 0;
	if (run_load(o->logdir, &w) < 0 ||
	    !(cuts = calloc((size_t)(o->nswap + 1) * (size_t)w.n + 1,
			    sizeof(*cuts))))
		goto out;
	cut = cuts + (size_t)o->nswap * w.n;
	for (int i = 0; i < w.n; i++)
		cut[i] = w.t[i].n;
	for (int s = 0; s < o->nswap; s++) {
		if (swap_cut(&w, &o->swaps[s], cuts + (size_t)s * w.n) < 0)
			goto out;
		for (int i = 0; i < w.n; i++)
			lower(cut, i, cuts[(size_t)s * w.n + i]);
	}
	if (swaps_concurrent(&w, o, cuts) < 0)
		goto out;
	for (int s = 0; s < o->nswap; s++)
		if (swap_check(&w, task_index(&w, o->swaps[s].ltid),
			       &o->swaps[s], cuts + (size_t)s * w.n, &env) < 0)
			goto out;
	cut_say(o, &w, cut, &env);
	la_vm_export(PG_ENV_WHATIF, env.p ? env.p : "");
	rc = 0;
out:
	free(cuts);
	pg_strbuf_free(&env);
	run_free(&w);
	return rc;
}

/* Mixes the 64-bit V into the FNV-1a hash H. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * 0x100000001b3ULL;
	return h;
}

/* The prefix of the what-if SW of W (CUT its cut): the events each task
 * replays, the swapped receive with its new message. */
static uint64_t prefix_key(const struct wf_run *w, const struct la_swap *sw,
			   const uint64_t *cut)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (int i = 0; i < w->n; i++) {
		h = mix(mix(h, (uint64_t)w->t[i].ltid), cut[i]);
		for (uint64_t k = 0; k < cut[i]; k++) {
			const struct pg_event *e = &w->t[i].ev[k];
			int swapped = w->t[i].ltid == sw->ltid && k + 1 == sw->event;

			h = mix(h, (uint64_t)e->kind);
			h = mix(h, (uint64_t)(uint32_t)(swapped ? sw->sender : e->peer));
			h = mix(h, swapped ? sw->msgid : e->msgid);
		}
	}
	return h;
}

int la_whatif_cut(const char *base, const struct la_swap *sw,
		  struct la_cut *c)
{
	struct pg_strbuf env = { 0 };
	struct wf_run w = { 0 };
	int rc = -1, i;

	memset(c, 0, sizeof(*c));
	if (run_load(base, &w) < 0 ||
	    !(c->ltid = calloc((size_t)w.n + 1, sizeof(int))) ||
	    !(c->cut = calloc((size_t)w.n + 1, sizeof(uint64_t))) ||
	    (i = swap_cut(&w, sw, c->cut)) < 0 ||
	    swap_check(&w, i, sw, c->cut, &env) < 0)
		goto out;
	c->n = w.n;
	for (int k = 0; k < w.n; k++)
		c->ltid[k] = w.t[k].ltid;
	c->key = prefix_key(&w, sw, c->cut);
	rc = 0;
out:
	if (rc < 0)
		la_whatif_cut_free(c);
	pg_strbuf_free(&env);
	run_free(&w);
	return rc;
}

void la_whatif_cut_free(struct la_cut *c)
{
	free(c->ltid);
	free(c->cut);
	memset(c, 0, sizeof(*c));
}

/* The racing receives being listed: where they go. */
struct wf_races {
	struct la_swap *v;
	int n, cap;
	int ltid;
	uint64_t event;
	int failed;
};

static void race_one(void *arg, int ltid, const struct pg_event *s)
{
	struct wf_races *r = arg;

	if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 16;
		struct la_swap *v = realloc(r->v, (size_t)cap * sizeof(*v));

		if (!v) {
			r->failed = 1;
			return;
		}
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = (struct la_swap){ .ltid = r->ltid, .event = r->event,
					 .sender = ltid, .msgid = s->msgid };
}

int la_whatif_races(const char *dir, const struct la_cut *from,
		    const struct la_swap *only, struct la_swap **out)
{
	struct wf_races r = { 0 };
	struct wf_run w = { 0 };
	uint64_t *cut = NULL;

	*out = NULL;
	if (run_load(dir, &w) < 0 ||
	    !(cut = calloc((size_t)w.n + 1, sizeof(*cut)))) {
		run_free(&w);
		return -1;
	}
	for (int i = 0; i < w.n && !r.failed; i++) {
		uint64_t first = 0; /* events before it were replayed */

		for (int j = 0; from && j < from->n; j++)
			if (from->ltid[j] == w.t[i].ltid)
				first = from->cut[j];
		for (uint64_t k = first; k < w.t[i].n && !r.failed; k++) {
			if (pg_rec_kind_class(w.t[i].ev[k].kind) != PG_CLASS_RECV ||
			    (only && (only->ltid != w.t[i].ltid ||
				      only->event != k + 1)))
				continue;
			r.ltid = w.t[i].ltid;
			r.event = k + 1;
			cut_of(&w, i, k + 1, cut);
			alternatives(&w, i, k + 1, cut, race_one, &r);
		}
	}
	free(cut);
	run_free(&w);
	if (r.failed) {
		free(r.v);
		la_error("out of memory listing the races of %s", dir);
		return -1;
	}
	*out = r.v;
	return r.n;
}
