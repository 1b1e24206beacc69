/*
 * whatif.c: what-if replay (-swap LTID:EVENT=SENDER:MSGID) and the
 * what-ifs -explore runs.  Over the recording's happens-before relation
 * and racing receives (logs/analysis/happens-before.c, logs/analysis/races.c)
 * the rules of logs/analysis/whatif.c check each swap against the
 * receive's racing alternatives and take the consistent cut (per task, how
 * many leading recorded events it replays: the causal past of the swapped
 * receives and of their new messages' sends); here the launcher loads the
 * recording, says what is refused and where tasks leave the recording, and
 * hands cut and swaps to the tasks in PG_ENV_WHATIF
 * (pangaea_lib/engine/replay.c reads it).
 */
#include "launcher.h"
#include "pangaea-analysis.h"
#include "whatif.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A recording's relation and races. */
struct wf_run {
	struct pg_hb hb;
	struct pg_races races;
};

/* Frees what run_load read into W. */
static void run_free(struct wf_run *w)
{
	pg_races_free(&w->races);
	pg_hb_free(&w->hb);
}

/* Loads the recording DIR; 0 or -1 (said). */
static int run_load(const char *dir, struct wf_run *w)
{
	char err[PG_PATH_MAX + 200];

	memset(w, 0, sizeof(*w));
	if (pg_hb_load(&w->hb, dir, err, sizeof(err)) < 0) {
		la_error("cannot analyse %s: %s", dir, err);
		return -1;
	}
	if (pg_races_find(&w->hb, &w->races) < 0) {
		la_error("cannot list the races of %s: out of memory", dir);
		return -1;
	}
	return 0;
}

/* The length of the message sent at event EVENT of task LTID of DIR, or
 * 0 when unknown (it is only logged). */
static uint32_t send_len(const char *dir, int ltid, long event)
{
	char err[PG_PATH_MAX + 100];
	struct pg_comm_reader r;
	struct pg_event e;
	uint32_t len = 0;

	if (pg_run_comm(&r, dir, ltid, err, sizeof(err)) < 0)
		return 0;
	for (long k = 1; pg_comm_next(&r, &e, err, sizeof(err)) > 0; k++)
		if (k == event) {
			len = e.len;
			break;
		}
	pg_comm_free(&r);
	return len;
}

/* Checks swap SW against the races of W (its recording DIR): a racing
 * alternative of a receive, else refused with the valid ones.  Appends
 * its word to ENV; 0 or -1 (said). */
static int swap_check(const char *dir, const struct wf_run *w,
		      const struct pg_hb_swap *sw, struct pg_strbuf *env)
{
	const struct pg_race *r = pg_races_at(&w->races, sw->ltid, sw->event);
	struct pg_strbuf list = { 0 };
	const struct pg_race_alt *pick = pg_whatif_pick(r, sw, &list);

	if (!pick) {
		la_error("-swap %d:%llu=%d:%u: not a racing alternative of that "
			 "event%s; valid:%s", sw->ltid,
			 (unsigned long long)sw->event, sw->sender, sw->msgid,
			 r ? "" : " (no racing receive there)",
			 list.len ? list.p : " none");
		pg_strbuf_free(&list);
		return -1;
	}
	pg_strbuf_printf(env, "swap:%d:%llu:%d:%u:%d:%u ", sw->ltid,
			 (unsigned long long)sw->event, sw->sender, sw->msgid,
			 pick->tag, send_len(dir, pick->sender, pick->send_event));
	pg_strbuf_free(&list);
	return 0;
}

/*
 * The cut of the swaps SW (N) of W into CUT (hb.ntask, malloc'd): what
 * each task replays, a swapped receive included (the library hands it
 * the new message, then the task goes free).  0 or -1 (said).
 */
static int swaps_cut(const struct wf_run *w, const struct pg_hb_swap *sw,
		     int n, long **cut)
{
	char err[512];
	int rc = -1;

	*cut = calloc((size_t)w->hb.ntask + 1, sizeof(long));
	if (*cut) {
		rc = pg_whatif_cut(&w->hb, sw, n, *cut, err, sizeof(err));
		if (rc < 0)
			la_error("-swap: %s", err);
	}
	if (rc < 0) {
		free(*cut);
		*cut = NULL;
	}
	return rc;
}

/* Says where each task leaves the recording (CUT) and builds ENV's cut
 * words. */
static void cut_say(const struct la_opts *o, const struct pg_hb *hb,
		    const long *cut, struct pg_strbuf *env)
{
	for (int i = 0; i < hb->ntask; i++) {
		pg_strbuf_printf(env, "cut:%d:%ld ", hb->ltids[i], cut[i]);
		if (cut[i] < (long)hb->nev[i])
			la_say(o, "what-if: task %d leaves the recording after "
			       "event %ld of %u", hb->ltids[i], cut[i],
			       hb->nev[i]);
	}
}

/* The swaps of -swap (O) as the analysis names them (malloc'd), or NULL
 * (said). */
static struct pg_hb_swap *opt_swaps(const struct la_opts *o)
{
	struct pg_hb_swap *v = calloc((size_t)o->nswap + 1, sizeof(*v));

	if (!v) {
		la_error("-swap: out of memory");
		return NULL;
	}
	for (int s = 0; s < o->nswap; s++)
		v[s] = (struct pg_hb_swap){ o->swaps[s].ltid,
					    (long)o->swaps[s].event,
					    o->swaps[s].sender,
					    o->swaps[s].msgid };
	return v;
}

int la_whatif_prepare(struct la_opts *o)
{
	struct pg_strbuf env = { 0 };
	struct pg_hb_swap *sw = NULL;
	struct wf_run w;
	long *cut = NULL;
	int rc = -1;

	unsetenv(PG_ENV_WHATIF); /* not inherited from an outer run */
	if (!o->nswap)
		return 0;
	if (run_load(o->logdir, &w) < 0 || !(sw = opt_swaps(o)))
		goto out;
	for (int s = 0; s < o->nswap; s++)
		if (swap_check(o->logdir, &w, &sw[s], &env) < 0)
			goto out;
	if (swaps_cut(&w, sw, o->nswap, &cut) < 0)
		goto out;
	cut_say(o, &w.hb, cut, &env);
	la_vm_export(PG_ENV_WHATIF, env.p ? env.p : "");
	if (!(o->cut_ltid = malloc((size_t)w.hb.ntask * sizeof(int) + 1)))
		goto out;
	memcpy(o->cut_ltid, w.hb.ltids, (size_t)w.hb.ntask * sizeof(int));
	o->cut = cut;
	o->ncut = w.hb.ntask;
	cut = NULL;
	rc = 0;
out:
	free(sw);
	free(cut);
	pg_strbuf_free(&env);
	run_free(&w);
	return rc;
}

int la_whatif_is_free(const struct la_opts *o, const char *logdir, int ltid)
{
	char err[PG_PATH_MAX + 100];
	struct pg_comm_reader r;
	struct pg_event e;
	long cut = 0, n = 0;

	if (!o->nswap)
		return 0;
	for (int i = 0; i < o->ncut; i++)
		if (o->cut_ltid[i] == ltid)
			cut = o->cut[i];
	if (cut == 0)
		return 1;
	/* its log as written so far (a reserved tail reads as its end) */
	if (pg_run_comm(&r, logdir, ltid, err, sizeof(err)) < 0)
		return 0;
	while (n < cut && pg_comm_next(&r, &e, err, sizeof(err)) > 0)
		n++;
	pg_comm_free(&r);
	return n >= cut;
}

int la_whatif_cut(const char *base, const struct pg_hb_swap *sw,
		  struct la_cut *c)
{
	struct pg_strbuf env = { 0 };
	struct wf_run w;
	long *cut = NULL;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	if (run_load(base, &w) < 0 || swap_check(base, &w, sw, &env) < 0 ||
	    swaps_cut(&w, sw, 1, &cut) < 0 ||
	    !(c->ltid = calloc((size_t)w.hb.ntask + 1, sizeof(int))) ||
	    !(c->cut = calloc((size_t)w.hb.ntask + 1, sizeof(uint64_t))))
		goto out;
	c->n = w.hb.ntask;
	for (int k = 0; k < c->n; k++) {
		c->ltid[k] = w.hb.ltids[k];
		c->cut[k] = (uint64_t)cut[k];
	}
	c->key = pg_whatif_key(&w.hb, sw, cut);
	rc = 0;
out:
	if (rc < 0)
		la_whatif_cut_free(c);
	free(cut);
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

int la_whatif_races(const char *dir, const struct la_cut *from,
		    const struct pg_hb_swap *only, struct pg_hb_swap **out)
{
	struct wf_run w;
	int n = -1;

	*out = NULL;
	if (run_load(dir, &w) == 0 &&
	    (n = pg_whatif_swaps(&w.races, from ? from->ltid : NULL,
				 from ? from->cut : NULL, from ? from->n : 0,
				 only, out)) < 0)
		la_error("out of memory listing the races of %s", dir);
	run_free(&w);
	return n;
}
