/*
 * check_overhead.c: the monitor-overhead correction (logs/tracedb/overhead.c) on
 * hand-made traces: the accumulated cost taken off a task's times, a
 * receive kept after its corrected send, the tasks taken in an order
 * where sends come first, damaged traces still ending.
 */
#include "overhead.h"
#include "checkutil.h"

#include <check.h>

/* Fills EV[I] as an event of task LTID from T0 to T1, cost COST. */
static void ev_set(struct ovh_event *ev, int i, int ltid, int64_t t0,
		   int64_t t1, int64_t cost)
{
	ev[i] = (struct ovh_event){ .id = i + 1, .ltid = ltid, .t0 = t0,
				    .t1 = t1, .cost = cost, .send = -1 };
}

/* One task: each event earlier by the cost of those before it, its end
 * by its own too; durations shrink by one cost. */
START_TEST(test_one_task)
{
	struct ovh_event ev[3];

	ev_set(ev, 0, 1, 1000, 1500, 100);
	ev_set(ev, 1, 1, 2000, 2500, 100);
	ev_set(ev, 2, 1, 3000, 3050, 100);
	ck_assert_int_eq(pg_overhead_correct(ev, 3, 0), 0);
	ck_assert_int_eq(ev[0].t0, 1000);
	ck_assert_int_eq(ev[0].t1, 1400);
	ck_assert_int_eq(ev[1].t0, 1900);
	ck_assert_int_eq(ev[1].t1, 2300);
	ck_assert_int_eq(ev[2].t0, 2800);
	ck_assert_int_eq(ev[2].t1, 2800); /* never before its start */
}
END_TEST

/* Task 1 (events 0-2) receives in event 1, from RECV_T0 to RECV_T1,
 * what task 2 (events 3-5, a costly task: 1000 ns an event) sends in
 * event 4. */
static void two_tasks(struct ovh_event *ev, int64_t recv_t0,
		      int64_t recv_t1)
{
	ev_set(ev, 0, 1, 0, 10, 100);
	ev_set(ev, 1, 1, recv_t0, recv_t1, 100);
	ev_set(ev, 2, 1, 6000, 6010, 100);
	ev_set(ev, 3, 2, 0, 1000, 1000);
	ev_set(ev, 4, 2, 4000, 4100, 1000); /* the send */
	ev_set(ev, 5, 2, 4200, 4300, 1000);
	ev[1].send = 4;
}

/* A receive that waited (as long as the latency or more) ends as much
 * after its corrected send as it did raw, less the send's and its own
 * cost: the sender's overhead is taken off the receiver too (MAD), and
 * the receiver's later events move with it; one that did not wait keeps
 * its own task's correction; neither before the send plus the latency.
 * (Listed first, the receiver waits for the sender's task.) */
START_TEST(test_message)
{
	struct ovh_event ev[6];

	two_tasks(ev, 20, 6000); /* waited */
	ck_assert_int_eq(pg_overhead_correct(ev, 6, 500), 0);
	ck_assert_int_eq(ev[4].t0, 3000); /* one cost before it */
	/* 3000 + (6000 - 4000) - 1000 - 100, before 6000 - 200 */
	ck_assert_int_eq(ev[1].t1, 3900);
	ck_assert_int_eq(ev[1].shift, 100);
	ck_assert_int_eq(ev[2].t0, 6000 - 2100);
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(ev[i].done, 1);
	two_tasks(ev, 4300, 4400); /* did not wait (100 < 500) */
	ck_assert_int_eq(pg_overhead_correct(ev, 6, 500), 0);
	ck_assert_int_eq(ev[1].t0, 4200);
	ck_assert_int_eq(ev[1].t1, 4200); /* 4400 - 200 */
	ck_assert_int_eq(ev[2].t0, 5800);
	two_tasks(ev, 20, 4600); /* waited: 2500 < 3000 + 500, moved */
	ck_assert_int_eq(pg_overhead_correct(ev, 6, 500), 0);
	ck_assert_int_eq(ev[1].t1, 3500);
	ck_assert_int_eq(ev[2].t0, 6000 - 1100); /* the task shifted by that */
	/* a sender without cost: the message's 3000 + 300 - 100 is later
	   than the receiver's own 3300 - 200, which is kept */
	two_tasks(ev, 20, 3300);
	for (int i = 3; i < 6; i++)
		ev[i].cost = 0;
	ev[4].t0 = 3000;
	ck_assert_int_eq(pg_overhead_correct(ev, 6, 100), 0);
	ck_assert_int_eq(ev[1].t1, 3100);
}
END_TEST

/* Damaged: two receives each of the other's later send; it ends, every
 * event corrected once. */
START_TEST(test_cycle)
{
	struct ovh_event ev[4];

	ev_set(ev, 0, 1, 0, 100, 10);
	ev_set(ev, 1, 1, 200, 300, 10);
	ev_set(ev, 2, 2, 0, 100, 10);
	ev_set(ev, 3, 2, 200, 300, 10);
	ev[0].send = 3;
	ev[2].send = 1;
	ck_assert_int_eq(pg_overhead_correct(ev, 4, 0), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(ev[i].done, 1);
	/* task 1 goes first (its receive's send forgotten); task 2's
	   receive then ends after task 1's send (190), 90 ns later than raw,
	   and its next event with it */
	ck_assert_int_eq(ev[1].t0, 190);
	ck_assert_int_eq(ev[2].t1, 190);
	ck_assert_int_eq(ev[3].t0, 290);
}
END_TEST

static Suite *overhead_suite(void)
{
	Suite *s = suite_create("overhead");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_one_task);
	tcase_add_test(tc, test_message);
	tcase_add_test(tc, test_cycle);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(overhead_suite());
}
