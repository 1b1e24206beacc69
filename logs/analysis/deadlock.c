/*
 * deadlock.c: the deadlock rules (deadlock.h).  A task is stuck when it
 * has been blocked (in a receive with no timeout, or one whose timeout is
 * past, or a barrier) and its state has not changed for the quiet
 * period, nor has the run's traffic.  The run is deadlocked when
 *
 *   - every live task is stuck: nothing can wake any of them, and no
 *     message was in flight (it would have woken its receiver); or
 *   - in replay, a stuck task waits for a recorded message of a task that
 *     has ended, or is stuck itself, and so on round a circle.
 *
 * A stopped process (SIGSTOP) is never stuck, and a stuck task that a
 * message the logs say was sent to it and not yet received would wake is
 * not stuck either (pg_deadlock_pending): the rules in full are in
 * docs/INTERNALS.md, "What counts as a deadlock".
 */
#include "deadlock.h"

#include <stdlib.h>
#include <string.h>

void pg_deadlock_note(struct pg_deadlock_task *t, int have,
		      const struct pg_state *st, uint64_t now)
{
	if (!have || !t->have || st->seq != t->st.seq || !t->changed_ns)
		t->changed_ns = now;
	t->have = have;
	if (have)
		t->st = *st;
}

int pg_deadlock_stuck(const struct pg_deadlock_task *t, uint64_t now,
		      uint64_t quiet_since)
{
	const struct pg_state *st = &t->st;
	/* (a difference of the task's clock: on another host sharing the
	   folder, its CLOCK_MONOTONIC is another) */
	uint64_t timeout = st->deadline_mono_ns ? st->deadline_mono_ns -
						  st->since_mono_ns : 0;

	return !t->ended && !t->stopped && t->have && st->call &&
	       now - t->changed_ns >= PG_DEADLOCK_QUIET_NS &&
	       now - t->changed_ns >= timeout &&
	       now - quiet_since >= PG_DEADLOCK_QUIET_NS;
}

int pg_deadlock_find(const struct pg_deadlock_task *v, int n, int ltid)
{
	for (int i = 0; i < n; i++)
		if (v[i].ltid == ltid)
			return i;
	return -1;
}

/* Whether stuck task I of V (N, want_at set) waits for a message that
 * will never come: its sender ended, or is stuck waiting in turn, round
 * to a circle. */
static int dl_forever(const struct pg_deadlock_task *v, int n, int i)
{
	for (int hops = 0; hops <= n; hops++) {
		const struct pg_deadlock_task *d = &v[i];

		if (!d->stuck || d->want_at < 0)
			return 0; /* (or not a task of the run we know) */
		if (v[d->want_at].ended)
			return 1;
		i = d->want_at;
	}
	return 1; /* every hop was a stuck task: a circle */
}

int pg_deadlock_judge(struct pg_deadlock_task *v, int n, uint64_t now,
		      uint64_t quiet_since)
{
	int live = 0, nstuck = 0, forever = 0;

	for (int i = 0; i < n; i++) {
		struct pg_deadlock_task *d = &v[i];

		d->stuck = pg_deadlock_stuck(d, now, quiet_since);
		d->want_at = !d->ended && d->have && d->st.want
			? pg_deadlock_find(v, n, d->st.want_src) : -1;
		live += !d->ended;
		nstuck += d->stuck;
	}
	for (int i = 0; i < n; i++)
		forever |= v[i].forever = dl_forever(v, n, i);
	if (!live || !nstuck)
		return PG_DEADLOCK_NONE;
	return nstuck == live ? PG_DEADLOCK_ALL
	       : forever     ? PG_DEADLOCK_WAITS : PG_DEADLOCK_NONE;
}

int pg_deadlock_wakes(const struct pg_deadlock_task *d, int src, int tag,
		      uint32_t msgid)
{
	int c = d->st.call;

	if (c != pg_call_of(PG_REC_RECV, 0) && c != pg_call_of(PG_REC_TRECV, 0) &&
	    c != pg_call_of(PG_REC_PRECV, 0))
		return 0;
	if (d->st.want)
		return d->st.want_src == src && d->st.want_msgid == msgid;
	return (d->src == -1 || d->src == src) &&
	       (d->st.tag == -1 || d->st.tag == tag);
}

/* A message the logs say was sent to a stuck task, or that it received. */
struct dl_msg {
	int to, from;   /* ltids */
	uint32_t msgid;
	int tag;        /* -1 for a receive (not compared) */
};

/* Orders dl_msg by receiver, sender, message id. */
static int dl_msg_cmp(const void *a, const void *b)
{
	const struct dl_msg *x = a, *y = b;

	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->msgid < y->msgid ? -1 : x->msgid > y->msgid;
}

/* Appends {TO, FROM, MSGID, TAG} to *V (*N of *CAP); 0, or -1 no memory. */
static int dl_msg_add(struct dl_msg **v, size_t *n, size_t *cap, int to,
		      int from, uint32_t msgid, int tag)
{
	struct dl_msg *g = pg_grow(*v, cap, *n + 1, sizeof(**v), 256);

	if (!g)
		return -1;
	*v = g;
	g[(*n)++] = (struct dl_msg){ to, from, msgid, tag };
	return 0;
}

/* Whether task LTID of V (N) is stuck (so its messages are looked at). */
static int dl_stuck_ltid(const struct pg_deadlock_task *v, int n, int ltid)
{
	int i = pg_deadlock_find(v, n, ltid);

	return i >= 0 && v[i].stuck;
}

/* Adds what task LTID's comm log in LOGDIR sent to a stuck task of V (N)
 * to *SENT and, if LTID is stuck, what it received to *GOT; 0 (an
 * unreadable log adds nothing), -1 no memory. */
static int dl_read_log(const struct pg_deadlock_task *v, int n,
		       const char *logdir, int ltid, struct dl_msg **sent,
		       size_t *nsent, size_t *csent, struct dl_msg **got,
		       size_t *ngot, size_t *cgot)
{
	char err[PG_PATH_MAX + 100];
	struct pg_comm_reader rd;
	struct pg_event ev;
	int me_stuck = dl_stuck_ltid(v, n, ltid), rc = 0;

	if (pg_run_comm(&rd, logdir, ltid, err, sizeof(err)) < 0)
		return 0;
	while (rc == 0 && pg_comm_next(&rd, &ev, err, sizeof(err)) > 0) {
		switch (ev.kind) {
		case PG_REC_SEND:
		case PG_REC_PSEND:
			if (dl_stuck_ltid(v, n, ev.peer))
				rc = dl_msg_add(sent, nsent, csent, ev.peer,
						ltid, ev.msgid, ev.tag);
			break;
		case PG_REC_MCAST:
		case PG_REC_BCAST:
			for (int k = 0; rc == 0 && k < ev.ndest; k++)
				if (dl_stuck_ltid(v, n, ev.dests[k]))
					rc = dl_msg_add(sent, nsent, csent,
							ev.dests[k], ltid,
							ev.msgid, ev.tag);
			break;
		case PG_REC_RECV:
		case PG_REC_NRECV:
		case PG_REC_TRECV:
		case PG_REC_PRECV:
			if (me_stuck && ev.peer >= 0)
				rc = dl_msg_add(got, ngot, cgot, ltid, ev.peer,
						ev.msgid, -1);
			break;
		default:
			break;
		}
	}
	pg_comm_free(&rd);
	return rc;
}

int pg_deadlock_pending(struct pg_deadlock_task *v, int n, const char *logdir)
{
	struct dl_msg *sent = NULL, *got = NULL;
	size_t nsent = 0, csent = 0, ngot = 0, cgot = 0;
	int cleared = 0, rc = 0;

	for (int i = 0; rc == 0 && i < n; i++)
		rc = dl_read_log(v, n, logdir, v[i].ltid, &sent, &nsent,
				 &csent, &got, &ngot, &cgot);
	if (rc == 0 && ngot)
		qsort(got, ngot, sizeof(*got), dl_msg_cmp);
	for (size_t k = 0; rc == 0 && k < nsent; k++) {
		const struct dl_msg *m = &sent[k];
		int i = pg_deadlock_find(v, n, m->to);

		if (i < 0 || !v[i].stuck ||
		    (ngot && bsearch(m, got, ngot, sizeof(*got), dl_msg_cmp)) ||
		    !pg_deadlock_wakes(&v[i], m->from, m->tag, m->msgid))
			continue;
		v[i].stuck = v[i].forever = 0;
		cleared++;
	}
	free(sent);
	free(got);
	return rc < 0 ? -1 : cleared;
}
