/*
 * happens-before.c: the happens-before relation of a recording as vector
 * clocks (declarations and the edges in pangaea-analysis.h).
 *
 * Loading reads every comm log of the folder, pairs sends and receives
 * with the run's one matcher (match.h), ties each child's first event to
 * its parent's spawn (the exec logs), groups the barrier calls (the
 * spawns' and barriers' edges are hb-edges.c's, shared with the trace
 * database's clock), and then
 * gives every event its clock, task by task: a task runs on until its
 * next event needs an event of another task that has no clock yet, waits
 * for that task, and is taken up again when that task stops.
 */
#include "pangaea-analysis.h"
#include "hb-edges.h"
#include "match.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fills ERR; returns -1. */
static int hb_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int hb_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int pg_hb_task(const struct pg_hb *hb, int ltid)
{
	int lo = 0, hi = hb->ntask - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (hb->ltids[mid] == ltid)
			return mid;
		if (hb->ltids[mid] < ltid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

const uint32_t *pg_hb_clock(const struct pg_hb *hb, int i, uint32_t n)
{
	return hb->clock[i] + (size_t)n * (size_t)hb->ntask;
}

int pg_hb_before(const struct pg_hb *hb, int i, uint32_t a, int j,
		 uint32_t b)
{
	if (i == j)
		return a < b;
	return a >= 1 && pg_hb_clock(hb, j, b)[i] >= a;
}

/* Appends a message to HB; 0 or -1. */
static int hb_msg(struct pg_hb *hb, size_t *cap, const struct pg_hb_msg *x)
{
	struct pg_hb_msg *v = pg_grow(hb->msgs, cap, hb->nmsg + 1,
				      sizeof(*v), 1024);

	if (!v)
		return -1;
	hb->msgs = v;
	v[hb->nmsg++] = *x;
	return 0;
}

/* The load's state while the matcher reports. */
struct hb_load {
	struct pg_hb *hb;
	size_t msgcap;
	struct pg_hbe edges;  /* the barriers and spawns */
};

/* pg_match_fn of the load: a receive end learns its send; every message
 * (paired, or a foreign receive) is kept. */
static int hb_told(void *arg, enum pg_match_what what,
		   const struct pg_match_end *e,
		   const struct pg_match_end *other)
{
	struct hb_load *l = arg;
	struct pg_hb *hb = l->hb;
	const struct pg_match_end *s = e, *rv = other;
	struct pg_hb_msg x;

	if (what == PG_MATCH_WAITS)
		return 0;
	if (what == PG_MATCH_FOREIGN) {
		s = NULL;
		rv = e;
	} else if (!pg_match_is_send(e)) {
		s = other;
		rv = e;
	}
	/* the end's ltid field carries the task index, its ev the number */
	x = (struct pg_hb_msg){ hb->ev[rv->dst][rv->ev - 1].peer, -1,
				rv->msgid, rv->tag, 0, rv->dst,
				(uint32_t)rv->ev };
	if (s) {
		struct pg_hb_ev *r = &hb->ev[rv->dst][rv->ev - 1];

		x.src = hb->ltids[s->src];
		x.src_task = s->src;
		x.send_ev = (uint32_t)s->ev;
		r->src_task = s->src;
		r->src_ev = (uint32_t)s->ev;
	}
	return hb_msg(hb, &l->msgcap, &x) < 0 ? -1 : 0;
}

/* Compares messages by receiver, sender, tag (a pvmd's notices: the
 * task they are about), then send (or receive) order. */
static int hb_msg_cmp(const void *a, const void *b)
{
	const struct pg_hb_msg *x = a, *y = b;
	uint32_t ox = x->src >= 0 && x->send_ev ? x->send_ev : x->recv_ev;
	uint32_t oy = y->src >= 0 && y->send_ev ? y->send_ev : y->recv_ev;

	if (x->dst_task != y->dst_task)
		return x->dst_task < y->dst_task ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	if (x->src < 0 && x->msgid != y->msgid) /* a notice: about whom */
		return x->msgid < y->msgid ? -1 : 1;
	return ox < oy ? -1 : ox > oy;
}

/* The task index of LTID for the matcher (which is fed task indexes as
 * ltids), or -1 for a task without a log. */
static int hb_dest(const struct pg_hb *hb, int ltid)
{
	return ltid < 0 ? -1 : pg_hb_task(hb, ltid);
}

/* Feeds event N of task index I to M with every ltid as a task index (a
 * receive from a task without a log keeps its negative or foreign
 * peer). */
static int hb_feed(struct pg_hb *hb, struct pg_match *m, int i, uint32_t n,
		   const struct pg_event *e, int *dests, struct hb_load *l)
{
	struct pg_event x = *e;

	switch (pg_rec_kind_class(e->kind)) {
	case PG_CLASS_SEND:
		if (e->kind == PG_REC_MCAST || e->kind == PG_REC_BCAST) {
			for (int k = 0; k < e->ndest; k++)
				dests[k] = hb_dest(hb, e->dests[k]);
			x.dests = dests;
		} else {
			x.peer = hb_dest(hb, e->peer);
		}
		break;
	case PG_CLASS_RECV:
		if (e->peer >= 0 && (x.peer = hb_dest(hb, e->peer)) < 0)
			x.peer = PG_PEER_FOREIGN; /* its sender kept no log */
		break;
	default:
		return 0;
	}
	return pg_match_event(m, i, (int64_t)n, &x, 0, 0, hb_told, l);
}

/* Reads task index I's comm log R into HB and feeds its messages to M;
 * 0 or -1 with ERR. */
static int hb_read_task(struct pg_hb *hb, struct pg_comm_reader *r, int i,
			struct pg_match *m, struct hb_load *l, char *err,
			size_t errlen)
{
	struct pg_event e;
	size_t cap = 0, dcap = 0;
	int rc, *dests = NULL;

	if (r->hdr.version < 6 && !hb->old_version)
		hb->old_version = r->hdr.version; /* no receive filters */
	while ((rc = pg_comm_next(r, &e, err, errlen)) > 0) {
		uint32_t n = hb->nev[i] + 1;
		struct pg_hb_ev *v, *x;
		int *d;

		if (n == UINT32_MAX || !(v = pg_grow(hb->ev[i], &cap, n,
						      sizeof(*v), 256))) {
			rc = hb_fail(err, errlen, "%s: out of memory", r->path);
			break;
		}
		hb->ev[i] = v;
		x = &v[n - 1];
		*x = (struct pg_hb_ev){ e.kind, e.peer, e.tag, e.msgid, -1, 0,
					-1, e.filter };
		if (e.kind == PG_REC_POLLFAIL)
			x->msgid = e.count;
		if (e.kind == PG_REC_GROUP) {
			x->msgid = (uint32_t)e.op;
			x->tag = e.result;
			x->peer = e.arg;
			if ((x->group = pg_hbe_name(&hb->groups, &hb->ngroup,
						    e.group)) < 0) {
				rc = hb_fail(err, errlen, "out of memory");
				break;
			}
		}
		hb->nev[i] = n;
		if (pg_hbe_event(&l->edges, hb->ltids[i], n, &e) < 0) {
			rc = hb_fail(err, errlen, "out of memory");
			break;
		}
		if (e.ndest > 0 &&
		    !(d = pg_grow(dests, &dcap, (size_t)e.ndest, sizeof(int),
				  16))) {
			rc = hb_fail(err, errlen, "out of memory");
			break;
		} else if (e.ndest > 0) {
			dests = d;
		}
		if (hb_feed(hb, m, i, n, &e, dests, l) < 0) {
			rc = hb_fail(err, errlen, "out of memory");
			break;
		}
	}
	free(dests);
	return rc < 0 ? -1 : 0;
}

/* Sends never received: kept as messages without a receive. */
static int hb_unreceived(struct pg_hb *hb, struct pg_match *m,
			 struct hb_load *l)
{
	struct pg_match_end *left;
	long n = pg_match_left(m, &left);

	if (n < 0)
		return -1;
	for (long k = 0; k < n; k++) {
		const struct pg_match_end *e = &left[k];
		struct pg_hb_msg x = { hb->ltids[e->src], e->src, e->msgid,
				       e->tag, (uint32_t)e->ev, e->dst, 0 };

		if (!pg_match_is_send(e) || e->dst < 0)
			continue;
		if (hb_msg(hb, &l->msgcap, &x) < 0) {
			free(left);
			return -1;
		}
	}
	free(left);
	return 0;
}

/* Ties a probe to the send of the message it saw: the receive after it
 * in its task that takes that message (looked for among the next 4096
 * events). */
static void hb_probes(struct pg_hb *hb)
{
	for (int i = 0; i < hb->ntask; i++)
		for (uint32_t n = 0; n < hb->nev[i]; n++) {
			struct pg_hb_ev *p = &hb->ev[i][n];

			if (p->kind != PG_REC_PROBE)
				continue;
			for (uint32_t k = n + 1; k < hb->nev[i] &&
						 k <= n + 4096; k++) {
				const struct pg_hb_ev *r = &hb->ev[i][k];

				if (pg_rec_kind_class(r->kind) ==
					    PG_CLASS_RECV &&
				    r->peer == p->peer &&
				    r->msgid == p->msgid) {
					p->src_task = r->src_task;
					p->src_ev = r->src_ev;
					break;
				}
			}
		}
}

/*
 * Ties a pvmd's notice about a task of the run (a PvmTaskExit: its
 * receive logs the task's ltid + 1 as msgid, docs/INTERNALS.md §13) to
 * that task's last logged event: the pvmd sends it once the task is
 * gone.  The message keeps sender PG_PEER_SYSTEM; its src_task and
 * send_ev say what it comes after.
 */
static void hb_notices(struct pg_hb *hb)
{
	for (size_t k = 0; k < hb->nmsg; k++) {
		struct pg_hb_msg *m = &hb->msgs[k];
		struct pg_hb_ev *r;
		int t;

		if (m->src != PG_PEER_SYSTEM || !m->recv_ev || m->msgid < 1)
			continue;
		t = pg_hb_task(hb, (int)(m->msgid - 1));
		if (t < 0 || t == m->dst_task || !hb->nev[t])
			continue;
		r = &hb->ev[m->dst_task][m->recv_ev - 1];
		r->src_task = m->src_task = t;
		r->src_ev = m->send_ev = hb->nev[t];
	}
}

/* A barrier instance (hb-edges.h): its calls, and how many arrived. */
struct hb_barrier {
	int size, arrived;
};

/* What the clocks' computation keeps. */
struct hb_calc {
	struct pg_hb *hb;
	const struct pg_hbe *edges; /* the barriers and spawns */
	uint32_t *pos;        /* events with a clock, per task */
	uint32_t *woke;       /* pos when its waiters were last woken */
	int *parent;          /* spawning task index, -1 none */
	uint32_t *spawn_ev;   /* its spawn's event number */
	int *next_waiter;     /* tasks waiting on the same task, -1 ends */
	int *waiters;         /* first task waiting on each task, -1 none */
	uint32_t **bar_of;    /* per task per event: barrier index + 1 */
	struct hb_barrier *bars;
	size_t nbar;
	int *stack, nstack;
};

/* Ties each task to the spawn that started it (exec logs); 0 or -1. */
static int hb_spawns(struct hb_calc *c, const char *dir, char *err,
		     size_t errlen)
{
	struct pg_hb *hb = c->hb;

	for (int i = 0; i < hb->ntask; i++) {
		struct pg_exec_log x;
		char path[PG_PATH_MAX];

		if (pg_log_path(path, sizeof(path), dir, hb->ltids[i],
				"exec") < 0)
			return hb_fail(err, errlen, "%s: path too long", dir);
		if (access(path, F_OK) < 0)
			continue; /* no exec log: no spawn edges from it */
		if (pg_exec_read(path, &x, err, errlen) < 0)
			return -1;
		for (int s = 0; s < x.nspawn; s++) {
			const struct pg_spawn_rec *r = &x.spawns[s];
			uint32_t at = pg_hbe_spawn_at(c->edges, hb->ltids[i],
						      (uint32_t)r->seq);
			for (int k = 0; at && k < r->ntask; k++) {
				int t = r->slots[k].ltid > 0 ?
						pg_hb_task(hb, r->slots[k].ltid) :
						-1;

				if (t >= 0 && t != i) {
					c->parent[t] = i;
					c->spawn_ev[t] = at;
				}
			}
		}
		pg_exec_free(&x);
	}
	return 0;
}

/* Marks each task's barrier calls with their instance (hb-edges.h);
 * 0 or -1. */
static int hb_barriers(struct hb_calc *c)
{
	struct pg_hb *hb = c->hb;
	const struct pg_hbe *x = c->edges;

	for (int i = 0; i < hb->ntask; i++)
		if (!(c->bar_of[i] = calloc((size_t)hb->nev[i] + 1,
					    sizeof(uint32_t))))
			return -1;
	c->nbar = x->ninst;
	if (x->ninst && !(c->bars = calloc(x->ninst, sizeof(*c->bars))))
		return -1;
	for (size_t k = 0; k < x->ncall; k++) {
		const struct pg_hbe_call *b = &x->calls[k];
		int t = pg_hb_task(hb, b->ltid);

		if (t < 0 || b->seq < 1 || b->seq > hb->nev[t])
			continue; /* (fed by hb_read_task: never) */
		c->bars[b->inst].size++;
		c->bar_of[t][b->seq] = b->inst + 1;
	}
	return 0;
}

/* Raises clock DST to at least SRC, entry by entry. */
static void hb_join(uint32_t *dst, const uint32_t *src, int n)
{
	for (int k = 0; k < n; k++)
		if (src[k] > dst[k])
			dst[k] = src[k];
}

/* Completes barrier B: every task waiting in it gets the join of their
 * clocks as its barrier event's, moves past it and is put back to run. */
static void hb_barrier_done(struct hb_calc *c, uint32_t b)
{
	struct pg_hb *hb = c->hb;
	int nt = hb->ntask;
	uint32_t *first = NULL;

	for (int pass = 0; pass < 2; pass++)
		for (int t = 0; t < nt; t++) {
			uint32_t n = c->pos[t] + 1;
			uint32_t *row;

			if (n > hb->nev[t] || c->bar_of[t][n] != b)
				continue;
			row = hb->clock[t] + (size_t)n * (size_t)nt;
			if (pass == 0) {
				memcpy(row, row - nt, (size_t)nt * sizeof(*row));
				row[t] = n;
				if (!first)
					first = row;
				else
					hb_join(first, row, nt);
				continue;
			}
			if (row != first)
				memcpy(row, first, (size_t)nt * sizeof(*row));
			c->pos[t] = n;
			c->stack[c->nstack++] = t;
		}
}

/* Gives task T clocks until it ends or needs an event of another task
 * without one (it then waits on that task). */
static void hb_run(struct hb_calc *c, int t)
{
	struct pg_hb *hb = c->hb;
	int nt = hb->ntask;

	while (c->pos[t] < hb->nev[t]) {
		uint32_t n = c->pos[t] + 1;
		const struct pg_hb_ev *e = &hb->ev[t][n - 1];
		uint32_t *row = hb->clock[t] + (size_t)n * (size_t)nt;
		int dep[2] = { -1, -1 };
		uint32_t dep_ev[2] = { 0, 0 }, b = c->bar_of[t][n];

		if (b) {
			struct hb_barrier *x = &c->bars[b - 1];

			/* it waits there until the last one comes */
			if (++x->arrived == x->size)
				hb_barrier_done(c, b);
			return; /* the barrier put them back to run */
		}
		if (n == 1 && c->parent[t] >= 0) {
			dep[0] = c->parent[t];
			dep_ev[0] = c->spawn_ev[t];
		}
		if (e->src_task >= 0 && e->src_task != t) {
			dep[1] = e->src_task;
			dep_ev[1] = e->src_ev;
		}
		for (int d = 0; d < 2; d++)
			if (dep[d] >= 0 && c->pos[dep[d]] < dep_ev[d]) {
				c->next_waiter[t] = c->waiters[dep[d]];
				c->waiters[dep[d]] = t;
				return;
			}
		memcpy(row, row - nt, (size_t)nt * sizeof(*row));
		row[t] = n;
		for (int d = 0; d < 2; d++)
			if (dep[d] >= 0)
				hb_join(row, pg_hb_clock(hb, dep[d], dep_ev[d]),
					nt);
		c->pos[t] = n;
	}
}

/* Gives every event its clock; 0, -1 out of memory, -2 when some task
 * could not go on (the logs contradict each other), -3 when the clocks
 * would take more than PG_HB_MAX_BYTES. */
static int hb_clocks(struct hb_calc *c)
{
	struct pg_hb *hb = c->hb;
	int nt = hb->ntask;

	/* refused before allocating, not left to the OOM killer */
	if ((double)(hb->events + nt) * nt * sizeof(uint32_t) > PG_HB_MAX_BYTES)
		return -3;
	for (int t = 0; t < nt; t++) {
		size_t rows = (size_t)hb->nev[t] + 1;

		if (!(hb->clock[t] = calloc(rows * (size_t)nt, sizeof(uint32_t))))
			return -1;
		c->waiters[t] = -1;
		c->next_waiter[t] = -1;
		c->stack[c->nstack++] = nt - 1 - t;
	}
	while (c->nstack > 0) {
		int t = c->stack[--c->nstack];

		hb_run(c, t);
		if (c->pos[t] == c->woke[t])
			continue; /* no new clocks: who waits on T still waits */
		c->woke[t] = c->pos[t];
		/* those that waited on T try again */
		for (int w = c->waiters[t], nx; w >= 0; w = nx) {
			nx = c->next_waiter[w];
			c->next_waiter[w] = -1;
			c->stack[c->nstack++] = w;
		}
		c->waiters[t] = -1;
	}
	for (int t = 0; t < nt; t++)
		if (c->pos[t] < hb->nev[t])
			return -2;
	return 0;
}

/* Frees the computation's state. */
static void hb_calc_free(struct hb_calc *c)
{
	if (c->bar_of)
		for (int t = 0; t < c->hb->ntask; t++)
			free(c->bar_of[t]);
	free(c->bar_of);
	free(c->bars);
	free(c->pos);
	free(c->woke);
	free(c->parent);
	free(c->spawn_ev);
	free(c->next_waiter);
	free(c->waiters);
	free(c->stack);
}

/* pg_hb_load of L's hb, its edges built into L; 0 or -1 with ERR. */
static int hb_load(struct hb_load *l, const char *dir, char *err,
		   size_t errlen)
{
	struct pg_hb *hb = l->hb;
	struct pg_match m = { 0 };
	struct hb_calc c = { .hb = hb, .edges = &l->edges };
	struct pg_comm_reader r;
	struct pg_run run;
	int n, rc = 0;

	memset(hb, 0, sizeof(*hb));
	if (pg_run_open(&run, dir, err, errlen) < 0)
		return hb_fail(err, errlen, "%s: cannot read the folder", dir);
	hb->ltids = run.ltids; /* (HB's from now on: RUN holds nothing else) */
	n = run.n;
	if (n == 0)
		return hb_fail(err, errlen, "%s: no task-LTID.comm logs", dir);
	hb->ntask = n;
	if (!(hb->nev = calloc((size_t)n, sizeof(*hb->nev))) ||
	    !(hb->ev = calloc((size_t)n, sizeof(*hb->ev))) ||
	    !(hb->clock = calloc((size_t)n, sizeof(*hb->clock))))
		return hb_fail(err, errlen, "out of memory");
	while (rc == 0 && (rc = pg_run_next(&run, &r, err, errlen)) > 0) {
		rc = hb_read_task(hb, &r, run.i, &m, l, err, errlen);
		pg_comm_free(&r);
	}
	if (rc == 0 && (hb_unreceived(hb, &m, l) < 0 ||
			pg_hbe_done(&l->edges) < 0))
		rc = hb_fail(err, errlen, "out of memory");
	pg_match_free(&m);
	if (rc < 0)
		return -1;
	for (int i = 0; i < n; i++)
		hb->events += hb->nev[i];
	if (hb->nmsg > 1) /* (qsort of NULL, 0 is undefined) */
		qsort(hb->msgs, hb->nmsg, sizeof(*hb->msgs), hb_msg_cmp);
	hb_notices(hb);
	hb_probes(hb);
	if (!(c.pos = calloc((size_t)n, sizeof(*c.pos))) ||
	    !(c.woke = calloc((size_t)n, sizeof(*c.woke))) ||
	    !(c.parent = malloc((size_t)n * sizeof(int))) ||
	    !(c.spawn_ev = calloc((size_t)n, sizeof(uint32_t))) ||
	    !(c.next_waiter = malloc((size_t)n * sizeof(int))) ||
	    !(c.waiters = malloc((size_t)n * sizeof(int))) ||
	    !(c.stack = malloc((size_t)n * 2 * sizeof(int))) ||
	    !(c.bar_of = calloc((size_t)n, sizeof(*c.bar_of)))) {
		hb_calc_free(&c);
		return hb_fail(err, errlen, "out of memory");
	}
	for (int i = 0; i < n; i++)
		c.parent[i] = -1;
	if (hb_spawns(&c, dir, err, errlen) < 0 || hb_barriers(&c) < 0) {
		hb_calc_free(&c);
		return err[0] ? -1 : hb_fail(err, errlen, "out of memory");
	}
	rc = hb_clocks(&c);
	hb->parent = c.parent;
	hb->spawn_ev = c.spawn_ev;
	c.parent = NULL;
	c.spawn_ev = NULL;
	for (int i = 0; rc == -2 && i < n; i++)
		if (c.pos[i] < hb->nev[i]) {
			hb_fail(err, errlen,
				"%s: the logs contradict each other: task %d "
				"cannot get past its event %u",
				dir, hb->ltids[i], c.pos[i] + 1);
			break;
		}
	hb_calc_free(&c);
	if (rc == -1)
		return hb_fail(err, errlen, "out of memory");
	if (rc == -3)
		return hb_fail(err, errlen, "%s: %ld events of %d tasks: their "
			       "vector clocks would take more than %.0f GiB",
			       dir, hb->events, n, PG_HB_MAX_BYTES / 1073741824.0);
	return rc < 0 ? -1 : 0;
}

int pg_hb_load_edges(struct pg_hb *hb, const char *dir, struct pg_hbe *edges,
		     char *err, size_t errlen)
{
	struct hb_load l = { hb, 0, { 0 } };
	int rc = hb_load(&l, dir, err, errlen);

	if (edges && rc == 0)
		*edges = l.edges;
	else
		pg_hbe_free(&l.edges);
	return rc;
}

int pg_hb_load(struct pg_hb *hb, const char *dir, char *err, size_t errlen)
{
	return pg_hb_load_edges(hb, dir, NULL, err, errlen);
}

void pg_hb_free(struct pg_hb *hb)
{
	for (int i = 0; i < hb->ntask; i++) {
		if (hb->ev)
			free(hb->ev[i]);
		if (hb->clock)
			free(hb->clock[i]);
	}
	for (int g = 0; g < hb->ngroup; g++)
		free(hb->groups[g]);
	free(hb->groups);
	free(hb->ev);
	free(hb->clock);
	free(hb->nev);
	free(hb->ltids);
	free(hb->msgs);
	free(hb->parent);
	free(hb->spawn_ev);
	memset(hb, 0, sizeof(*hb));
}

int pg_hb_cut(const struct pg_hb *hb, const struct pg_hb_swap *swaps, int n,
	      long *cut, char *err, size_t errlen)
{
	int nt = hb->ntask;

	for (int k = 0; k < nt; k++)
		cut[k] = 0;
	for (int s = 0; s < n; s++) {
		const struct pg_hb_swap *w = &swaps[s];
		int t = pg_hb_task(hb, w->ltid), st = pg_hb_task(hb, w->sender);
		const struct pg_hb_msg *m = NULL;
		const uint32_t *c;

		if (t < 0 || w->event < 1 || w->event > (long)hb->nev[t] ||
		    pg_rec_kind_class(hb->ev[t][w->event - 1].kind) !=
			    PG_CLASS_RECV)
			return hb_fail(err, errlen,
				       "task %d has no receive at event %ld",
				       w->ltid, w->event);
		for (size_t k = 0; k < hb->nmsg && st >= 0; k++)
			if (hb->msgs[k].dst_task == t && hb->msgs[k].src >= 0 &&
			    hb->msgs[k].src_task == st &&
			    hb->msgs[k].msgid == w->msgid && hb->msgs[k].send_ev)
				m = &hb->msgs[k];
		if (!m)
			return hb_fail(err, errlen,
				       "task %d sent no message %u to task %d",
				       w->sender, w->msgid, w->ltid);
		if (pg_hb_before(hb, t, (uint32_t)w->event, st, m->send_ev))
			return hb_fail(err, errlen,
				       "message %d:%u is sent after task %d's "
				       "event %ld",
				       w->sender, w->msgid, w->ltid, w->event);
		if (m->recv_ev && (long)m->recv_ev < w->event)
			return hb_fail(err, errlen,
				       "message %d:%u was received at task %d's "
				       "event %u, before event %ld",
				       w->sender, w->msgid, w->ltid, m->recv_ev,
				       w->event);
		c = pg_hb_clock(hb, t, (uint32_t)w->event - 1);
		if (w->event == 1 && hb->parent[t] >= 0) /* its task's spawn */
			c = pg_hb_clock(hb, hb->parent[t], hb->spawn_ev[t]);
		for (int k = 0; k < nt; k++)
			if ((long)c[k] > cut[k])
				cut[k] = c[k];
		c = pg_hb_clock(hb, st, m->send_ev);
		for (int k = 0; k < nt; k++)
			if ((long)c[k] > cut[k])
				cut[k] = c[k];
	}
	for (int s = 0; s < n; s++) {
		int t = pg_hb_task(hb, swaps[s].ltid);

		if (cut[t] >= swaps[s].event)
			return hb_fail(err, errlen,
				       "the receive %d:%ld is in the causal past "
				       "of another swap",
				       swaps[s].ltid, swaps[s].event);
	}
	return 0;
}
