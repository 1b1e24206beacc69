/*
 * check_deadlock.c: unit tests of the deadlock rules
 * (logs/analysis/deadlock.c) on hand-made task states: every live task
 * stuck is a deadlock, one live task not stuck is none, a state that
 * changed, a quiet period not over or traffic still moving is not stuck,
 * a timed receive is stuck once its timeout is past, and in replay a
 * circle of waits among stuck tasks, or a wait for an ended task, is a
 * deadlock while a wait for a running task is not.  A stopped task is
 * never stuck, and a message in flight wakes only the receive it matches.
 */
#include "deadlock.h"
#include "checkutil.h"

#include <check.h>
#include <string.h>

#define S 1000000000ull          /* a second, in ns */
#define Q PG_DEADLOCK_QUIET_NS
#define T0 (100 * S)             /* the first look */

/* A live task LTID blocked in CALL (0: running) since T0, its state read
 * at T0 (seq 2). */
static struct pg_deadlock_task task(int ltid, int call)
{
	struct pg_deadlock_task t;
	struct pg_state st;

	memset(&t, 0, sizeof(t));
	memset(&st, 0, sizeof(st));
	t.ltid = ltid;
	st.ltid = ltid;
	st.seq = 2;
	st.call = call;
	st.since_mono_ns = T0;
	pg_deadlock_note(&t, 1, &st, T0);
	return t;
}

/* Makes task T wait (in replay) for message MSGID of task SRC. */
static void want(struct pg_deadlock_task *t, int src, unsigned msgid)
{
	t->st.want = 1;
	t->st.want_src = src;
	t->st.want_msgid = msgid;
}

START_TEST(all_stuck_is_deadlock)
{
	struct pg_deadlock_task v[3] = { task(1, 3), task(2, 3), task(3, 3) };

	/* not yet: the quiet period is not over */
	ck_assert_int_eq(pg_deadlock_judge(v, 3, T0 + Q - 1, T0),
			 PG_DEADLOCK_NONE);
	ck_assert_int_eq(v[0].stuck, 0);
	ck_assert_int_eq(pg_deadlock_judge(v, 3, T0 + Q, T0), PG_DEADLOCK_ALL);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(v[i].stuck, 1);
	/* an ended task does not count against "every live task" */
	v[1].ended = 1;
	ck_assert_int_eq(pg_deadlock_judge(v, 3, T0 + Q, T0), PG_DEADLOCK_ALL);
	ck_assert_int_eq(v[1].stuck, 0);
	/* every task ended: nothing to tell */
	v[0].ended = v[2].ended = 1;
	ck_assert_int_eq(pg_deadlock_judge(v, 3, T0 + Q, T0), PG_DEADLOCK_NONE);
}
END_TEST

START_TEST(one_live_not_stuck_is_none)
{
	struct pg_deadlock_task v[3] = { task(1, 3), task(2, 0), task(3, 3) };

	ck_assert_int_eq(pg_deadlock_judge(v, 3, T0 + 10 * S, T0),
			 PG_DEADLOCK_NONE);
	ck_assert_int_eq(v[0].stuck, 1);
	ck_assert_int_eq(v[1].stuck, 0);
	/* a task whose state cannot be read is never stuck */
	v[1] = task(2, 3);
	pg_deadlock_note(&v[1], 0, NULL, T0 + S);
	ck_assert_int_eq(pg_deadlock_judge(v, 3, T0 + 10 * S, T0),
			 PG_DEADLOCK_NONE);
	ck_assert_int_eq(v[1].stuck, 0);
}
END_TEST

START_TEST(traffic_or_change_is_not_stuck)
{
	struct pg_deadlock_task v[2] = { task(1, 3), task(2, 3) };
	struct pg_state st = v[1].st;

	/* the run's traffic moved a moment ago */
	ck_assert_int_eq(pg_deadlock_judge(v, 2, T0 + 10 * S, T0 + 9 * S),
			 PG_DEADLOCK_NONE);
	ck_assert_int_eq(v[0].stuck, 0);
	/* task 2's state changed (seq moved) at T0 + 5 s: the quiet period
	 * counts from there */
	st.seq += 2;
	pg_deadlock_note(&v[1], 1, &st, T0 + 5 * S);
	ck_assert_uint_eq(v[1].changed_ns, T0 + 5 * S);
	ck_assert_int_eq(pg_deadlock_judge(v, 2, T0 + 5 * S + Q - 1, T0),
			 PG_DEADLOCK_NONE);
	ck_assert_int_eq(v[0].stuck, 1);
	ck_assert_int_eq(v[1].stuck, 0);
	/* the same seq again is no change */
	pg_deadlock_note(&v[1], 1, &st, T0 + 6 * S);
	ck_assert_uint_eq(v[1].changed_ns, T0 + 5 * S);
	ck_assert_int_eq(pg_deadlock_judge(v, 2, T0 + 5 * S + Q, T0),
			 PG_DEADLOCK_ALL);
	/* a state unreadable once counts as changed when read again */
	pg_deadlock_note(&v[1], 0, NULL, T0 + 7 * S);
	pg_deadlock_note(&v[1], 1, &st, T0 + 8 * S);
	ck_assert_uint_eq(v[1].changed_ns, T0 + 8 * S);
}
END_TEST

START_TEST(timed_receive_stuck_once_past)
{
	struct pg_deadlock_task v[2] = { task(1, 3), task(2, 3) };

	/* task 2 waits with a 10 s timeout */
	v[1].st.deadline_mono_ns = v[1].st.since_mono_ns + 10 * S;
	ck_assert_int_eq(pg_deadlock_judge(v, 2, T0 + 9 * S, T0),
			 PG_DEADLOCK_NONE);
	ck_assert_int_eq(v[1].stuck, 0);
	/* its timeout is past and its state has not changed: stuck */
	ck_assert_int_eq(pg_deadlock_judge(v, 2, T0 + 10 * S, T0),
			 PG_DEADLOCK_ALL);
	ck_assert_int_eq(v[1].stuck, 1);
	/* a short timeout is held to the quiet period still */
	v[1].st.deadline_mono_ns = v[1].st.since_mono_ns + 1;
	ck_assert_int_eq(pg_deadlock_stuck(&v[1], T0 + Q - 1, T0), 0);
	ck_assert_int_eq(pg_deadlock_stuck(&v[1], T0 + Q, T0), 1);
}
END_TEST

START_TEST(replay_wait_circle)
{
	/* tasks 1 and 2 wait for each other; task 3 runs; task 4 is stuck
	 * waiting for task 3 */
	struct pg_deadlock_task v[4] = { task(1, 3), task(2, 3), task(3, 0),
					 task(4, 3) };

	want(&v[0], 2, 7);
	want(&v[1], 1, 5);
	want(&v[3], 3, 1);
	ck_assert_int_eq(pg_deadlock_judge(v, 4, T0 + Q, T0),
			 PG_DEADLOCK_WAITS);
	ck_assert_int_eq(v[0].want_at, 1);
	ck_assert_int_eq(v[1].want_at, 0);
	ck_assert_int_eq(v[3].want_at, 2);
	ck_assert_int_eq(v[0].forever, 1);
	ck_assert_int_eq(v[1].forever, 1);
	ck_assert_int_eq(v[2].forever, 0);
	ck_assert_int_eq(v[3].forever, 0);
	/* break the circle: task 2 waits for a running task */
	want(&v[1], 3, 5);
	ck_assert_int_eq(pg_deadlock_judge(v, 4, T0 + Q, T0),
			 PG_DEADLOCK_NONE);
	ck_assert_int_eq(v[0].forever, 0);
	/* ... which has ended: tasks 1, 2 and 4 wait forever */
	v[2].ended = 1;
	ck_assert_int_eq(pg_deadlock_judge(v, 4, T0 + Q, T0), PG_DEADLOCK_ALL);
	ck_assert_int_eq(v[0].forever, 1);
	ck_assert_int_eq(v[3].forever, 1);
	/* a stuck task that waits for a running one is no deadlock yet */
	v[2].ended = 0;
	v[2].st.call = 0;
	want(&v[1], 1, 5);
	v[1].st.call = 0; /* task 2 now runs: task 1 waits for it */
	ck_assert_int_eq(pg_deadlock_judge(v, 4, T0 + Q, T0),
			 PG_DEADLOCK_NONE);
}
END_TEST

START_TEST(wait_for_unknown_or_ended)
{
	struct pg_deadlock_task v[3] = { task(1, 3), task(2, 0), task(5, 3) };

	/* task 1 waits for a task not in the table: not told */
	want(&v[0], 9, 1);
	ck_assert_int_eq(pg_deadlock_judge(v, 3, T0 + Q, T0),
			 PG_DEADLOCK_NONE);
	ck_assert_int_eq(v[0].want_at, -1);
	ck_assert_int_eq(pg_deadlock_find(v, 3, 5), 2);
	ck_assert_int_eq(pg_deadlock_find(v, 3, 9), -1);
	/* task 5 waits for task 2, which ended (its file stays) */
	want(&v[2], 2, 4);
	v[1].ended = 1;
	v[0].st.want = 0;
	v[0].st.call = 0; /* task 1 runs */
	ck_assert_int_eq(pg_deadlock_judge(v, 3, T0 + Q, T0),
			 PG_DEADLOCK_WAITS);
	ck_assert_int_eq(v[2].forever, 1);
	ck_assert_int_eq(v[0].forever, 0);
}
END_TEST

START_TEST(stopped_is_not_stuck)
{
	struct pg_deadlock_task v[2] = { task(1, 3), task(2, 3) };

	v[1].stopped = 1;
	ck_assert_int_eq(pg_deadlock_judge(v, 2, T0 + 10 * Q, T0),
			 PG_DEADLOCK_NONE);
	ck_assert_int_eq(v[1].stuck, 0);
	v[1].stopped = 0; /* SIGCONT, and still blocked: a deadlock */
	ck_assert_int_eq(pg_deadlock_judge(v, 2, T0 + 10 * Q, T0),
			 PG_DEADLOCK_ALL);
}
END_TEST

START_TEST(in_flight_wakes_matching_receive)
{
	int recv = pg_call_of(PG_REC_RECV, 0);
	struct pg_deadlock_task t = task(1, recv);

	t.src = -1;
	t.st.tag = 5;
	ck_assert(pg_deadlock_wakes(&t, 2, 5, 7));
	ck_assert(!pg_deadlock_wakes(&t, 2, 4, 7)); /* another tag */
	t.src = 3;
	ck_assert(!pg_deadlock_wakes(&t, 2, 5, 7)); /* another source */
	ck_assert(pg_deadlock_wakes(&t, 3, 5, 7));
	t.st.tag = -1;
	ck_assert(pg_deadlock_wakes(&t, 3, 99, 7));
	want(&t, 3, 8); /* replay: only the recorded message */
	ck_assert(!pg_deadlock_wakes(&t, 3, 5, 7));
	ck_assert(pg_deadlock_wakes(&t, 3, 5, 8));
	/* a barrier is woken by no message */
	t = task(1, pg_call_of(PG_REC_GROUP, PG_GROUP_BARRIER));
	t.src = -1;
	t.st.tag = -1;
	ck_assert(!pg_deadlock_wakes(&t, 2, 5, 7));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("deadlock");
	TCase *tc = tcase_create("deadlock");

	tcase_add_test(tc, all_stuck_is_deadlock);
	tcase_add_test(tc, one_live_not_stuck_is_none);
	tcase_add_test(tc, traffic_or_change_is_not_stuck);
	tcase_add_test(tc, timed_receive_stuck_once_past);
	tcase_add_test(tc, replay_wait_circle);
	tcase_add_test(tc, wait_for_unknown_or_ended);
	tcase_add_test(tc, stopped_is_not_stuck);
	tcase_add_test(tc, in_flight_wakes_matching_receive);
	suite_add_tcase(s, tc);
	return cku_run(s);
}
