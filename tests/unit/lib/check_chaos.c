/*
 * check_chaos.c: unit tests of chaos recording's decisions
 * (pangaea_lib/engine/chaos.c): priorities come from the seed and the ltid
 * alone; half the seeds rank the tasks by reverse age (the last spawned
 * first, no send delays), the others at random, where every sender is
 * the hold-back's choice about equally often; the send delay falls as
 * the priority rises, and the same seed draws the same sequence again.
 */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>

#define SEEDS 2000

START_TEST(test_priority_pure)
{
	for (unsigned seed = 0; seed < 100; seed++)
		for (int ltid = 1000; ltid < 1010; ltid++) {
			unsigned p = pg_chaos_priority(seed, ltid);

			ck_assert_uint_eq(p, pg_chaos_priority(seed, ltid));
			if (pg_chaos_reversed(seed))
				ck_assert_uint_eq(p, (unsigned)ltid);
			else
				ck_assert_uint_le(p, 0xffff);
		}
}
END_TEST

/* The racy example's case: among 5 workers, the reversed seeds (about
 * half) take the last spawned; the others take each one about as often. */
START_TEST(test_pick_fair)
{
	int ltids[5] = { 1001, 1002, 1003, 1004, 1005 }, count[5] = { 0 };
	int reversed = 0;

	for (unsigned seed = 0; seed < SEEDS; seed++) {
		int i = pg_chaos_pick(seed, ltids, 5);

		ck_assert_int_ge(i, 0);
		ck_assert_int_lt(i, 5);
		if (pg_chaos_reversed(seed)) {
			ck_assert_int_eq(i, 4);
			reversed++;
		} else {
			count[i]++;
		}
	}
	ck_assert_int_gt(reversed, SEEDS * 4 / 10);
	ck_assert_int_lt(reversed, SEEDS * 6 / 10);
	for (int i = 0; i < 5; i++) {
		ck_assert_int_gt(count[i], (SEEDS - reversed) / 5 * 3 / 4);
		ck_assert_int_lt(count[i], (SEEDS - reversed) / 5 * 5 / 4);
	}
}
END_TEST

START_TEST(test_pick_highest)
{
	int ltids[4] = { 1003, 1001, 1004, 1002 }, dup[2] = { 1002, 1002 };
	unsigned seed = 777;
	int i = pg_chaos_pick(seed, ltids, 4);

	for (int j = 0; j < 4; j++)
		ck_assert_uint_ge(pg_chaos_priority(seed, ltids[i]),
				  pg_chaos_priority(seed, ltids[j]));
	ck_assert_int_eq(pg_chaos_pick(seed, dup, 2), 0); /* first of equals */
	ck_assert_int_eq(pg_chaos_pick(seed, ltids, 0), -1);
}
END_TEST

START_TEST(test_send_delay_by_priority)
{
	for (unsigned seed = 0; seed < 200; seed++) {
		int a = 1001, b = 1002;
		unsigned pa = pg_chaos_priority(seed, a),
			 pb = pg_chaos_priority(seed, b);

		ck_assert_uint_le(pg_chaos_send_max(seed, a),
				  PG_CHAOS_SEND_MAX_US);
		if (pg_chaos_reversed(seed))
			ck_assert_uint_eq(pg_chaos_send_max(seed, a), 0);
		else if (pa > pb)
			ck_assert_uint_le(pg_chaos_send_max(seed, a),
					  pg_chaos_send_max(seed, b));
	}
}
END_TEST

START_TEST(test_draws_repeat)
{
	unsigned a[100], b[100], c[100];
	int same = 0;

	pg_chaos_open(0, 4242, 1001);
	for (int i = 0; i < 100; i++)
		a[i] = pg_chaos_draw(PG_CHAOS_QUIET_MAX_US);
	pg_chaos_open(0, 4242, 1001);
	for (int i = 0; i < 100; i++)
		b[i] = pg_chaos_draw(PG_CHAOS_QUIET_MAX_US);
	pg_chaos_open(0, 4242, 1002);
	for (int i = 0; i < 100; i++)
		c[i] = pg_chaos_draw(PG_CHAOS_QUIET_MAX_US);
	for (int i = 0; i < 100; i++) {
		ck_assert_uint_eq(a[i], b[i]);
		ck_assert_uint_le(a[i], PG_CHAOS_QUIET_MAX_US);
		same += a[i] == c[i];
	}
	ck_assert_int_lt(same, 10);
	ck_assert_int_eq(pg_chaos_on(), 0);
}
END_TEST

static Suite *chaos_suite(void)
{
	Suite *s = suite_create("chaos");
	TCase *tc = tcase_create("chaos");

	tcase_add_test(tc, test_priority_pure);
	tcase_add_test(tc, test_pick_fair);
	tcase_add_test(tc, test_pick_highest);
	tcase_add_test(tc, test_send_delay_by_priority);
	tcase_add_test(tc, test_draws_repeat);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(chaos_suite());
}
