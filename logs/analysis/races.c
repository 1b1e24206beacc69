/*
 * races.c: the racing events of a recording (declarations and what an
 * alternative is in pangaea-analysis.h), found over its happens-before
 * relation (happens-before.c).
 *
 * Task by task, the messages sent to the task are queues, one per sender
 * and tag, in the order sent (PVM keeps each sender's order).  Walking
 * the task's events in order, a queue's head is its first message not
 * received before the event; the heads of the other senders' queues of
 * the tag an event took are its alternatives, unless sent causally after
 * it.  A receive thus costs one look per sender of its tag.  The
 * receive's filter (version 6 logs) narrows or widens that: a fixed
 * source leaves no other sender; an any-tag receive looks at every
 * queue, a sender's alternative being the first sent of its heads.
 */
#include "pangaea-analysis.h"

#include <stdlib.h>
#include <string.h>

/* The messages of one sender and tag to the task being walked (a
 * pvmd's notices: one queue per task they are about, ABOUT its msgid). */
struct race_queue {
	int tag, src;
	uint32_t about;
	size_t head, end; /* hb->msgs[head..end) */
};

/* A queue of the task being walked, in sender order. */
struct race_ref {
	int src;
	uint32_t about;
	size_t k; /* its index in race_walk.q */
};

/* The walk's state. */
struct race_walk {
	const struct pg_hb *hb;
	struct pg_races *r;
	struct race_queue *q;   /* the task's queues, by tag then sender */
	size_t nq, capq;
	struct race_ref *by_src; /* the nq queues by sender, then tag */
	size_t capref;
	struct race_join *joins; /* every pvm_joingroup, by group */
	size_t njoin;
};

/* One pvm_joingroup that got an instance. */
struct race_join {
	int group, task, inst;
	uint32_t ev;
};

/* Compares queues by tag, then sender. */
static int race_queue_cmp(const void *a, const void *b)
{
	const struct race_queue *x = a, *y = b;

	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	return x->src < y->src ? -1 : x->src > y->src;
}

/* Compares queue references by sender, then what a notice is about,
 * then tag order. */
static int race_ref_cmp(const void *a, const void *b)
{
	const struct race_ref *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->about != y->about)
		return x->about < y->about ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* Makes W's queues of the messages to task T (hb->msgs[lo..hi)); 0 or
 * -1. */
static int race_queues(struct race_walk *w, size_t lo, size_t hi)
{
	const struct pg_hb_msg *m = w->hb->msgs;

	w->nq = 0;
	for (size_t k = lo; k < hi; k++) {
		struct race_queue *v;

		uint32_t about = m[k].src < 0 ? m[k].msgid : 0;

		if (w->nq && w->q[w->nq - 1].src == m[k].src &&
		    w->q[w->nq - 1].tag == m[k].tag &&
		    w->q[w->nq - 1].about == about) {
			w->q[w->nq - 1].end = k + 1;
			continue;
		}
		if (!(v = pg_grow(w->q, &w->capq, w->nq + 1, sizeof(*v), 16)))
			return -1;
		w->q = v;
		v[w->nq++] = (struct race_queue){ m[k].tag, m[k].src, about, k,
						  k + 1 };
	}
	if (w->nq > 1) /* (qsort of NULL, 0 is undefined) */
		qsort(w->q, w->nq, sizeof(*w->q), race_queue_cmp);
	if (w->nq && !(w->by_src = pg_grow(w->by_src, &w->capref, w->nq,
					   sizeof(*w->by_src), 16)))
		return -1;
	for (size_t k = 0; k < w->nq; k++)
		w->by_src[k] = (struct race_ref){ w->q[k].src, w->q[k].about,
						  k };
	if (w->nq > 1)
		qsort(w->by_src, w->nq, sizeof(*w->by_src), race_ref_cmp);
	return 0;
}

/* Adds an alternative to the race being made (the last of R); 0 or -1. */
static int race_alt(struct pg_races *r, int sender, uint32_t msgid, int tag,
		    long send_event)
{
	struct pg_race_alt *v = pg_grow(r->alts, &r->capalt, r->nalt + 1,
					sizeof(*v), 64);

	if (!v)
		return -1;
	r->alts = v;
	v[r->nalt++] = (struct pg_race_alt){ sender, msgid, tag, send_event };
	r->v[r->n - 1].nalt++;
	return 0;
}

/* Starts a race of event N (1-based) of task T in R; 0 or -1. */
static int race_new(struct race_walk *w, int t, uint32_t n, int what)
{
	const struct pg_hb_ev *e = &w->hb->ev[t][n - 1];
	struct pg_races *r = w->r;
	struct pg_race *v = pg_grow(r->v, &r->cap, r->n + 1, sizeof(*v), 64);

	if (!v)
		return -1;
	r->v = v;
	v[r->n++] = (struct pg_race){ w->hb->ltids[t], n, what, e->kind,
				      e->peer, e->msgid, e->tag, 0, NULL };
	if (what == PG_RACE_JOIN)
		v[r->n - 1].peer = -1;
	return 0;
}

/*
 * The head of queue Q at event N of task T if it is an alternative: not
 * received before N, not from N's own sender (SKIP: an ltid, or a class
 * of message without an id and, for a pvmd's notice, SKIP_ABOUT the
 * msgid naming whom it is about), not sent causally after N; else NULL.
 */
static const struct pg_hb_msg *race_cand(struct race_walk *w, int t,
					 uint32_t n, struct race_queue *q,
					 int skip, uint32_t skip_about)
{
	const struct pg_hb *hb = w->hb;
	const struct pg_hb_msg *m;

	while (q->head < q->end && hb->msgs[q->head].recv_ev &&
	       hb->msgs[q->head].recv_ev < n)
		q->head++;
	if (q->head == q->end ||
	    (q->src == skip && (skip >= 0 || q->about == skip_about)))
		return NULL;
	m = &hb->msgs[q->head];
	if (m->recv_ev == n)
		return NULL;
	if (m->src_task >= 0 && m->send_ev &&
	    pg_hb_clock(hb, m->src_task, m->send_ev)[t] >= n)
		return NULL; /* sent after event N knew of it */
	return m;
}

/* Adds the message M, if any, as an alternative to the race of event N
 * of task T (started when *STARTED is set; started here otherwise, as
 * WHAT).  0 or -1. */
static int race_add(struct race_walk *w, int t, uint32_t n,
		    const struct pg_hb_msg *m, int what, int *started)
{
	if (!m)
		return 0;
	if (!*started && race_new(w, t, n, what) < 0)
		return -1;
	*started = 1;
	return race_alt(w->r, m->src, m->msgid, m->tag, (long)m->send_ev);
}

/* Adds the head of queue Q, if an alternative (race_cand), to the race
 * of event N of task T as race_add.  0 or -1. */
static int race_head(struct race_walk *w, int t, uint32_t n,
		     struct race_queue *q, int skip, uint32_t skip_about,
		     int what, int *started)
{
	return race_add(w, t, n, race_cand(w, t, n, q, skip, skip_about),
			what, started);
}

/* Where message M is in its sender's order (a message without a logged
 * send: its receive's). */
static uint32_t race_order(const struct pg_hb_msg *m)
{
	return m->src >= 0 && m->send_ev ? m->send_ev : m->recv_ev;
}

/* An any-tag filter at event N of task T: adds, for each sender (ONLY:
 * that one alone, unless PG_RACE_NOTHING), the first sent of its
 * queues' alternative heads (race_cand with SKIP, SKIP_ABOUT) as
 * race_add.  0 or -1. */
static int race_any_tag(struct race_walk *w, int t, uint32_t n, int skip,
			uint32_t skip_about, int only, int what, int *started)
{
	for (size_t i = 0, j; i < w->nq; i = j) {
		const struct pg_hb_msg *best = NULL;

		for (j = i; j < w->nq && w->by_src[j].src == w->by_src[i].src &&
			    w->by_src[j].about == w->by_src[i].about;
		     j++) {
			const struct pg_hb_msg *m;

			if (only != PG_RACE_NOTHING && w->by_src[j].src != only)
				continue;
			m = race_cand(w, t, n, &w->q[w->by_src[j].k], skip,
				      skip_about);
			if (m && (!best || race_order(m) < race_order(best)))
				best = m;
		}
		if (race_add(w, t, n, best, what, started) < 0)
			return -1;
	}
	return 0;
}

/* The first of W's queues with tag TAG (W->nq if none). */
static size_t race_tag(const struct race_walk *w, int tag)
{
	size_t lo = 0, hi = w->nq;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->q[mid].tag < tag)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether event N of task T takes a message its previous event, a
 * probe, has already seen (then a poll cannot fail). */
static int race_probed(const struct pg_hb *hb, int t, uint32_t n)
{
	const struct pg_hb_ev *e = &hb->ev[t][n - 1], *p;

	if (n < 2)
		return 0;
	p = &hb->ev[t][n - 2];
	return p->kind == PG_REC_PROBE && p->peer == e->peer &&
	       p->msgid == e->msgid;
}

/* The race, if any, of event N of task T that took a message: other
 * senders' messages only if its source was any (or not logged), of any
 * tag only if its tag was any. */
static int race_recv(struct race_walk *w, int t, uint32_t n)
{
	const struct pg_hb_ev *e = &w->hb->ev[t][n - 1];
	int poll = e->kind == PG_REC_NRECV || e->kind == PG_REC_TRECV ||
		   e->kind == PG_REC_PROBE;
	int what = poll ? PG_RACE_POLL : PG_RACE_RECV, started = 0;
	int any_src = e->filter & (PG_FILTER_ANYSRC | PG_FILTER_UNKNOWN);
	uint32_t about = e->peer < 0 ? e->msgid : 0;

	if (any_src && (e->filter & PG_FILTER_ANYTAG)) {
		if (race_any_tag(w, t, n, e->peer, about, PG_RACE_NOTHING,
				 what, &started) < 0)
			return -1;
	} else if (any_src) {
		for (size_t k = race_tag(w, e->tag);
		     k < w->nq && w->q[k].tag == e->tag; k++)
			if (race_head(w, t, n, &w->q[k], e->peer, about, what,
				      &started) < 0)
				return -1;
	}
	if (!poll || race_probed(w->hb, t, n))
		return 0;
	if (!started && race_new(w, t, n, what) < 0)
		return -1;
	return race_alt(w->r, PG_RACE_NOTHING, 0, 0, 0);
}

/* The race, if any, of failed polls at event N of task T.  Their
 * source and tag are not logged, their filter is: an any-tag filter
 * takes every tag (each sender's first message), else the tag is the
 * next successful poll's when one follows (else any); a fixed source is
 * the next successful poll's sender when one follows (else any). */
static int race_pollfail(struct race_walk *w, int t, uint32_t n)
{
	const struct pg_hb *hb = w->hb;
	const struct pg_hb_ev *e = &hb->ev[t][n - 1], *nx = NULL;
	int started = 0, only = PG_RACE_NOTHING;
	size_t k = 0, end = w->nq;

	if (n < hb->nev[t] &&
	    (hb->ev[t][n].kind == PG_REC_NRECV ||
	     hb->ev[t][n].kind == PG_REC_TRECV ||
	     hb->ev[t][n].kind == PG_REC_PROBE))
		nx = &hb->ev[t][n];
	if (nx && !(e->filter & (PG_FILTER_ANYSRC | PG_FILTER_UNKNOWN)))
		only = nx->peer;
	if (e->filter & PG_FILTER_ANYTAG)
		return race_any_tag(w, t, n, PG_RACE_NOTHING, 0, only,
				    PG_RACE_POLLFAIL, &started);
	if (nx) {
		k = race_tag(w, nx->tag);
		for (end = k; end < w->nq && w->q[end].tag == nx->tag; end++)
			;
	}
	for (; k < end; k++)
		if ((only == PG_RACE_NOTHING || w->q[k].src == only) &&
		    race_head(w, t, n, &w->q[k], PG_RACE_NOTHING, 0,
			      PG_RACE_POLLFAIL, &started) < 0)
			return -1;
	return 0;
}

/* The race, if any, of the pvm_joingroup at event N of task T: the joins
 * of its group by other tasks concurrent with it. */
static int race_join(struct race_walk *w, int t, uint32_t n)
{
	const struct pg_hb *hb = w->hb;
	const struct pg_hb_ev *e = &hb->ev[t][n - 1];
	int started = 0;

	for (size_t k = 0; k < w->njoin; k++) {
		const struct race_join *j = &w->joins[k];

		if (j->group != e->group || j->task == t ||
		    pg_hb_before(hb, t, n, j->task, j->ev) ||
		    pg_hb_before(hb, j->task, j->ev, t, n))
			continue;
		if (!started && race_new(w, t, n, PG_RACE_JOIN) < 0)
			return -1;
		started = 1;
		if (race_alt(w->r, hb->ltids[j->task], 0, j->inst,
			     (long)j->ev) < 0)
			return -1;
	}
	return 0;
}

/* Lists every pvm_joingroup that got an instance into W; 0 or -1. */
static int race_joins(struct race_walk *w)
{
	const struct pg_hb *hb = w->hb;
	size_t cap = 0;

	for (int t = 0; t < hb->ntask; t++)
		for (uint32_t n = 1; n <= hb->nev[t]; n++) {
			const struct pg_hb_ev *e = &hb->ev[t][n - 1];
			struct race_join *v;

			if (e->kind != PG_REC_GROUP ||
			    e->msgid != PG_GROUP_JOIN || e->tag < 0)
				continue;
			if (!(v = pg_grow(w->joins, &cap, w->njoin + 1,
					  sizeof(*v), 16)))
				return -1;
			w->joins = v;
			v[w->njoin++] = (struct race_join){ e->group, t,
							    e->tag, n };
		}
	return 0;
}

/* Walks the events of task T (its messages hb->msgs[lo..hi)); 0 or -1. */
static int race_task(struct race_walk *w, int t, size_t lo, size_t hi)
{
	const struct pg_hb *hb = w->hb;
	size_t before = w->r->n;
	int rc = race_queues(w, lo, hi);

	for (uint32_t n = 1; rc == 0 && n <= hb->nev[t]; n++) {
		const struct pg_hb_ev *e = &hb->ev[t][n - 1];
		enum pg_kind_class c = pg_rec_kind_class(e->kind);

		if (c == PG_CLASS_RECV || c == PG_CLASS_PROBE)
			rc = race_recv(w, t, n);
		else if (e->kind == PG_REC_POLLFAIL)
			rc = race_pollfail(w, t, n);
		else if (e->kind == PG_REC_GROUP && e->msgid == PG_GROUP_JOIN &&
			 e->tag >= 0)
			rc = race_join(w, t, n);
	}
	if (rc == 0 && w->r->n > before)
		w->r->ntasks++;
	return rc;
}

int pg_races_find(const struct pg_hb *hb, struct pg_races *r)
{
	struct race_walk w = { .hb = hb, .r = r };
	size_t lo = 0, off = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	rc = race_joins(&w);
	for (int t = 0; rc == 0 && t < hb->ntask; t++) {
		size_t hi = lo;

		while (hi < hb->nmsg && hb->msgs[hi].dst_task == t)
			hi++;
		rc = race_task(&w, t, lo, hi);
		lo = hi;
	}
	free(w.q);
	free(w.by_src);
	free(w.joins);
	/* the pool is complete: point each race at its alternatives */
	for (size_t k = 0; rc == 0 && k < r->n; k++) {
		r->v[k].alts = r->alts + off;
		off += (size_t)r->v[k].nalt;
	}
	return rc;
}

const struct pg_race *pg_races_at(const struct pg_races *r, int ltid,
				  long event)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pg_race *x = &r->v[mid];

		if (x->ltid < ltid || (x->ltid == ltid && x->event < event))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->n && r->v[lo].ltid == ltid && r->v[lo].event == event)
		return &r->v[lo];
	return NULL;
}

void pg_races_free(struct pg_races *r)
{
	free(r->v);
	free(r->alts);
	memset(r, 0, sizeof(*r));
}

const char *pg_race_what_name(int what)
{
	static const char *const names[] = { "?", "recv", "poll", "pollfail",
					     "join" };

	return what >= 1 && what <= PG_RACE_JOIN ? names[what] : "?";
}
