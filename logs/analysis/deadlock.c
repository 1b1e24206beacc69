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
 */
#include "deadlock.h"

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

	return !t->ended && t->have && st->call &&
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
