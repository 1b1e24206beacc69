/*
 * check_delay.c: unit tests of the random delays (pangaea_lib/engine/delay.c):
 * the same seed gives every task the same delays again, tasks and seeds
 * differ, delays stay within the maximum; and of the time base the
 * delays and every event read (pangaea_lib/engine/clock.c): pg_now, the
 * time stamp counter scaled where the CPU's is invariant, stays within a
 * few microseconds of CLOCK_MONOTONIC over its anchoring and
 * re-anchoring, never goes back, and is right in a second thread (each
 * anchors its own).
 */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#define DRAWS 200

/* Fills OUT with the first DRAWS delays of task LTID under SEED, MAX_US. */
static void draw(unsigned seed, int ltid, int max_us, unsigned *out)
{
	pg_delay_open(max_us, seed, ltid);
	for (int i = 0; i < DRAWS; i++)
		out[i] = pg_delay_draw();
}

/* How many of the DRAWS delays of A and B are equal. */
static int same(const unsigned *a, const unsigned *b)
{
	int n = 0;

	for (int i = 0; i < DRAWS; i++)
		n += a[i] == b[i];
	return n;
}

START_TEST(test_same_seed_same_delays)
{
	unsigned a[DRAWS], b[DRAWS];

	draw(12345, 1001, 1000, a);
	draw(12345, 1001, 1000, b);
	ck_assert_int_eq(same(a, b), DRAWS);
	ck_assert_uint_eq(pg_delay_seed(), 12345);
	ck_assert_int_eq(pg_delay_max(), 1000);
}
END_TEST

START_TEST(test_tasks_and_seeds_differ)
{
	unsigned a[DRAWS], b[DRAWS], c[DRAWS];

	draw(12345, 1001, 1000, a);
	draw(12345, 1002, 1000, b);
	draw(12346, 1001, 1000, c);
	/* equal draws happen by chance, about 1 in 1001 */
	ck_assert_int_lt(same(a, b), DRAWS / 10);
	ck_assert_int_lt(same(a, c), DRAWS / 10);
}
END_TEST

START_TEST(test_within_max)
{
	unsigned a[DRAWS];
	int seen_max = 0, seen_zero = 0;

	for (unsigned seed = 0; seed < 50; seed++) {
		draw(seed, 1, 3, a);
		for (int i = 0; i < DRAWS; i++) {
			ck_assert_uint_le(a[i], 3);
			seen_max |= a[i] == 3;
			seen_zero |= a[i] == 0;
		}
	}
	ck_assert(seen_max && seen_zero);
}
END_TEST

START_TEST(test_off)
{
	unsigned a[DRAWS];

	draw(99, 1, 0, a);
	for (int i = 0; i < DRAWS; i++)
		ck_assert_uint_eq(a[i], 0);
}
END_TEST

#define SLACK_NS 5000 /* what the bound allows: the reads are not at once */

/* CLOCK_MONOTONIC now, ns since pg_clock_start. */
static int64_t mono_since_start(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec -
	       (int64_t)pg_clock_start_mono();
}

/* Reads pg_now for about MS milliseconds (a read every few
 * microseconds, some pauses between): checks each read lies between
 * CLOCK_MONOTONIC before and after it (within SLACK_NS), and that none
 * goes back; the number of reads. */
static long follow(int ms)
{
	uint64_t last = 0;
	long n = 0;
	int64_t end = mono_since_start() + (int64_t)ms * 1000000;

	while (mono_since_start() < end) {
		int64_t before = mono_since_start();
		uint64_t t = pg_now();
		int64_t after = mono_since_start();

		ck_assert_uint_ge(t, last);
		ck_assert_int_ge((int64_t)t, before - SLACK_NS);
		ck_assert_int_le((int64_t)t, after + SLACK_NS);
		last = t;
		if (++n % 5000 == 0)
			usleep(300); /* across an anchor, and off the CPU */
	}
	return n;
}

START_TEST(test_follows_monotonic)
{
	pg_clock_start();
	ck_assert_int_gt(follow(30), 1000);
}
END_TEST

/* A thread's reads (follow's checks). */
static void *thread_reads(void *arg)
{
	*(long *)arg = follow(10);
	return NULL;
}

START_TEST(test_other_thread)
{
	pthread_t th;
	long n = 0;

	pg_clock_start();
	ck_assert_int_gt(follow(3), 0);
	ck_assert_int_eq(pthread_create(&th, NULL, thread_reads, &n), 0);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_int_gt(n, 100);
}
END_TEST

START_TEST(test_start_again)
{
	uint64_t t;

	pg_clock_start();
	follow(2);
	usleep(2000);
	pg_clock_start(); /* t = 0 is now again */
	t = pg_now();
	ck_assert_uint_lt(t, 1000000);
	follow(2);
}
END_TEST

static Suite *delay_suite(void)
{
	Suite *s = suite_create("delay");
	TCase *tc = tcase_create("delay");

	tcase_add_test(tc, test_same_seed_same_delays);
	tcase_add_test(tc, test_tasks_and_seeds_differ);
	tcase_add_test(tc, test_within_max);
	tcase_add_test(tc, test_off);
	suite_add_tcase(s, tc);
	tc = tcase_create("clock");
	tcase_add_test(tc, test_follows_monotonic);
	tcase_add_test(tc, test_other_thread);
	tcase_add_test(tc, test_start_again);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(delay_suite());
}
