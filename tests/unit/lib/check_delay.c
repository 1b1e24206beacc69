/*
 * check_delay.c: unit tests of the random delays (pangaea_lib/engine/delay.c):
 * the same seed gives every task the same delays again, tasks and seeds
 * differ, delays stay within the maximum.
 */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>

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

static Suite *delay_suite(void)
{
	Suite *s = suite_create("delay");
	TCase *tc = tcase_create("delay");

	tcase_add_test(tc, test_same_seed_same_delays);
	tcase_add_test(tc, test_tasks_and_seeds_differ);
	tcase_add_test(tc, test_within_max);
	tcase_add_test(tc, test_off);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(delay_suite());
}
