/*
 * tracedb-keys.c: the rows of the tables over the logs by their keys
 * (docs/TRACEDB.md "Without importing"), for a statement that looks
 * them up again and again (a join's inner loop, a correlated subquery)
 * where the trace database has its indexes.  tdb_keys_build reads the
 * logs once, in the importer's order, and keeps every event (the
 * columns of its events row, 40 bytes; the rare kinds with more go to a
 * side table) and every messages row (the matcher's, 48 bytes), with a
 * map from an event to the messages it is an end of: events by id,
 * messages by id, send_event and recv_event are then array lookups.
 */
#include "tracedb-internal.h"
#include "pangaea-logs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether an event of KIND has columns beyond those of struct tdb_kev
 * (kept in the side table); 1 or 0. */
static int keys_extra(int kind)
{
	return kind == PG_REC_END || kind == PG_REC_POLLFAIL ||
	       kind == PG_REC_CALL || kind == PG_REC_GROUP ||
	       kind == PG_REC_MCAST || kind == PG_REC_BCAST;
}

/* Adds event EV (raw times T0, T1) to K; 0 or -1 (out of memory). */
static int keys_event(struct tdb_keys *k, const struct pg_event *ev,
		      int64_t t0, int64_t t1)
{
	struct tdb_kev *v;

	if (!(v = pg_grow(k->ev, &k->capev, (size_t)k->nev + 1, sizeof(*v),
			  1 << 16)))
		return -1;
	k->ev = v;
	v = &k->ev[k->nev++];
	*v = (struct tdb_kev){ t0, t1, ev->peer, ev->tag, ev->msgid, ev->len,
			       -1, (unsigned char)ev->kind };
	if (keys_extra(ev->kind)) {
		struct tdb_kx *x = pg_grow(k->x, &k->capx, k->nx + 1,
					   sizeof(*x), 64);
		int *d;

		if (!x)
			return -1;
		k->x = x;
		x = &k->x[k->nx];
		memset(x, 0, sizeof(*x));
		x->how = ev->how;
		x->value = ev->value;
		x->count = ev->count;
		x->op = ev->op;
		x->arg = ev->arg;
		x->result = ev->result;
		x->arg2 = ev->arg2;
		x->nblob = ev->nblob;
		x->ndest = ev->ndest;
		x->dests = k->ndests;
		memcpy(x->group, ev->group, sizeof(x->group));
		if (ev->ndest > 0) {
			if (!(d = pg_grow(k->dests, &k->capdests,
					  k->ndests + (size_t)ev->ndest,
					  sizeof(*d), 256)))
				return -1;
			k->dests = d;
			memcpy(d + k->ndests, ev->dests,
			       (size_t)ev->ndest * sizeof(*d));
			k->ndests += (size_t)ev->ndest;
		}
		v->x = (int32_t)k->nx++;
	}
	return 0;
}

/* Adds the messages row of ends S, R (either NULL) and WHY to K; 0 or
 * -1 (out of memory, or more messages than the map can name). */
static int keys_msg(struct tdb_keys *k, const struct pg_match_end *s,
		    const struct pg_match_end *r, const char *why)
{
	const struct pg_match_end *e = s ? s : r;
	struct tdb_kmsg *m;

	if (k->nmsg >= UINT32_MAX - 1 ||
	    !(m = pg_grow(k->msg, &k->capmsg, (size_t)k->nmsg + 1, sizeof(*m),
			  1 << 16)))
		return -1;
	k->msg = m;
	k->msg[k->nmsg++] = (struct tdb_kmsg){
		s ? s->ev : 0, r ? r->ev : 0, why, e->src, e->dst, e->tag,
		e->msgid, e->len, s ? s->kind : -1 };
	return 0;
}

/* The matcher's answer (pg_match_fn, ARG the keys): as the importer's,
 * a row for a completed message and a foreign receive; 0, or 1 when
 * memory runs out. */
static int keys_told(void *arg, enum pg_match_what what,
		     const struct pg_match_end *e,
		     const struct pg_match_end *other)
{
	struct tdb_keys *k = arg;

	if (what == PG_MATCH_PAIRED)
		return (pg_match_is_send(e) ? keys_msg(k, e, other, NULL)
					    : keys_msg(k, other, e, NULL)) ? 1 : 0;
	if (what == PG_MATCH_FOREIGN)
		return keys_msg(k, NULL, e, pg_match_why(k->m, e, k->run)) ? 1
									  : 0;
	return 0;
}

/* Adds the ends the matcher M left alone to K, with their reasons (RUN
 * the run); 0 or -1. */
static int keys_drain(struct tdb_keys *k, struct pg_match *m,
		      const struct pg_match_run *run)
{
	struct pg_match_end *left;
	long n = pg_match_left(m, &left);
	int rc = n < 0 ? -1 : 0;

	for (long i = 0; i < n && rc == 0; i++) {
		const char *why = pg_match_why(m, &left[i], run);

		rc = pg_match_is_send(&left[i]) ? keys_msg(k, &left[i], NULL, why)
						: keys_msg(k, NULL, &left[i], why);
	}
	free(left);
	return rc;
}

/* Makes K's map from an event to its messages: EV_MSG[e] the first
 * (lowest id) messages row whose send or receive end event e is, NEXT
 * of a row the next with the same send event (an mcast's); 0 or -1. */
static int keys_map(struct tdb_keys *k)
{
	if (!(k->ev_msg = calloc((size_t)k->nev + 1, sizeof(*k->ev_msg))) ||
	    !(k->next = calloc((size_t)k->nmsg + 1, sizeof(*k->next))))
		return -1;
	/* from the last row down, each put in front: ascending chains */
	for (int64_t i = k->nmsg; i >= 1; i--) {
		const struct tdb_kmsg *m = &k->msg[i - 1];

		if (m->s_ev > 0 && m->s_ev <= k->nev) {
			k->next[i] = k->ev_msg[m->s_ev];
			k->ev_msg[m->s_ev] = (uint32_t)i;
		}
		if (m->r_ev > 0 && m->r_ev <= k->nev)
			k->ev_msg[m->r_ev] = (uint32_t)i;
	}
	return 0;
}

int tdb_keys_build(struct tdb_keys *k, const char *dir, char *err,
		   size_t errlen)
{
	struct pg_run run;
	struct pg_match m = { 0 };
	struct pg_match_run mr;
	struct pg_event ev;
	int rc = 0, sel = 0;

	memset(k, 0, sizeof(*k));
	if (pg_run_open(&run, dir, err, errlen) < 0)
		return -1;
	if (pg_run_open_all(&run, err, errlen) < 0) {
		pg_run_close(&run);
		return -1;
	}
	for (int i = 0; i < run.n; i++)
		sel |= run.rd[i].hdr.select[0] != '\0';
	mr = (struct pg_match_run){ run.ltids, run.n, sel };
	k->m = &m;
	k->run = &mr;
	k->ntask = run.n;
	if (!(k->ltid = calloc((size_t)run.n + 1, sizeof(*k->ltid))) ||
	    !(k->id0 = calloc((size_t)run.n + 1, sizeof(*k->id0))))
		rc = -2;
	for (int i = 0; i < run.n && rc == 0; i++) {
		uint64_t base = pg_run_base(&run, i);
		int got;

		k->ltid[i] = run.ltids[i];
		k->id0[i] = k->nev;
		while (rc == 0 &&
		       (got = pg_comm_next(&run.rd[i], &ev, err, errlen)) > 0) {
			int64_t t0 = (int64_t)(base + ev.t);

			if (keys_event(k, &ev, t0, t0 + (int64_t)ev.dur) < 0 ||
			    pg_match_event(&m, run.ltids[i], k->nev, &ev, t0,
					   t0 + (int64_t)ev.dur, keys_told,
					   k) != 0)
				rc = -2;
		}
		if (rc == 0 && got < 0)
			rc = -1;
		pg_comm_free(&run.rd[i]);
	}
	if (k->id0)
		k->id0[run.n] = k->nev;
	if (rc == 0 && (keys_drain(k, &m, &mr) < 0 || keys_map(k) < 0))
		rc = -2;
	if (rc == -2)
		snprintf(err, errlen, "out of memory keeping the run's rows");
	k->m = NULL;
	k->run = NULL;
	pg_match_free(&m);
	pg_run_close(&run);
	if (rc < 0)
		tdb_keys_free(k);
	return rc < 0 ? -1 : 0;
}

void tdb_keys_free(struct tdb_keys *k)
{
	free(k->ltid);
	free(k->id0);
	free(k->ev);
	free(k->x);
	free(k->dests);
	free(k->msg);
	free(k->ev_msg);
	free(k->next);
	memset(k, 0, sizeof(*k));
}

int tdb_keys_task(const struct tdb_keys *k, int64_t id)
{
	int lo = 0, hi = k->ntask;

	if (id < 1 || id > k->nev)
		return -1;
	/* the last task whose first id is below ID */
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;

		if (k->id0[mid] < id)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

int tdb_keys_event(const struct tdb_keys *k, int64_t id, struct pg_event *ev,
		   int *ltid, int64_t *seq, int64_t t[2])
{
	int i = tdb_keys_task(k, id);
	const struct tdb_kev *v;

	if (i < 0)
		return -1;
	v = &k->ev[id - 1];
	memset(ev, 0, sizeof(*ev));
	ev->kind = v->kind;
	ev->peer = v->peer;
	ev->tag = v->tag;
	ev->msgid = v->msgid;
	ev->len = v->len;
	if (v->x >= 0) {
		const struct tdb_kx *x = &k->x[v->x];

		ev->how = x->how;
		ev->value = x->value;
		ev->count = x->count;
		ev->op = x->op;
		ev->arg = x->arg;
		ev->result = x->result;
		ev->arg2 = x->arg2;
		ev->nblob = x->nblob;
		ev->ndest = x->ndest;
		ev->dests = x->ndest > 0 ? k->dests + x->dests : NULL;
		memcpy(ev->group, x->group, sizeof(ev->group));
	}
	*ltid = k->ltid[i];
	*seq = id - k->id0[i];
	t[0] = v->t0;
	t[1] = v->t1;
	return 0;
}

void tdb_keys_message(const struct tdb_keys *k, int64_t id,
		      struct pg_match_end *s, struct pg_match_end *r,
		      int *has_s, int *has_r, const char **why)
{
	const struct tdb_kmsg *m = &k->msg[id - 1];
	struct pg_match_end e = { m->src, m->dst, m->msgid, m->tag, m->len,
				  0, 0, 0, 0 };

	*s = *r = e;
	s->kind = m->s_kind;
	s->ev = m->s_ev;
	r->ev = m->r_ev;
	/* a send end's time is its event's entry, a receive's its exit */
	if ((*has_s = m->s_ev > 0))
		s->t = k->ev[m->s_ev - 1].t0;
	if ((*has_r = m->r_ev > 0)) {
		r->t = k->ev[m->r_ev - 1].t1;
		r->kind = k->ev[m->r_ev - 1].kind;
	}
	*why = m->why;
}
