/*
 * check_ids.c: unit tests of the tid <-> ltid maps of pangaea_lib/pvm/ids.c
 * (the part that needs no PVM daemon): both directions, growth,
 * colliding keys, overwrites, emptying, and pg_ltid_of/pg_tid_of
 * answering from what the task already knows.
 */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>
#include <stdlib.h>

static struct pg_ids ids;

static void setup(void)
{
	ids = (struct pg_ids){ 0 };
}

static void teardown(void)
{
	pg_ids_free(&ids);
}

/* The slot ids.c's hash gives KEY in a table of CAP (a power of two). */
static int home_slot(int key, int cap)
{
	return (int)(((unsigned)key * 2654435761u) & (unsigned)(cap - 1));
}

/* A tid as PVM 3.4 makes them: host part << 18 | task number. */
static int tid_of(int host, int n)
{
	return (host << 18) | n;
}

START_TEST(test_empty)
{
	ck_assert_int_eq(pg_ids_lookup(&ids, 0x40001), -2);
	ck_assert_int_eq(pg_ids_lookup_ltid(&ids, 0), 0);
	ck_assert_int_eq(pg_ids_lookup_ltid(&ids, 1), 0);
}
END_TEST

START_TEST(test_both_ways)
{
	pg_ids_add(&ids, 0x40001, 0);
	pg_ids_add(&ids, 0x40002, 1);
	pg_ids_add(&ids, 0x80003, 1001);
	ck_assert_int_eq(pg_ids_lookup(&ids, 0x40001), 0);
	ck_assert_int_eq(pg_ids_lookup(&ids, 0x40002), 1);
	ck_assert_int_eq(pg_ids_lookup(&ids, 0x80003), 1001);
	ck_assert_int_eq(pg_ids_lookup_ltid(&ids, 0), 0x40001);
	ck_assert_int_eq(pg_ids_lookup_ltid(&ids, 1), 0x40002);
	ck_assert_int_eq(pg_ids_lookup_ltid(&ids, 1001), 0x80003);
	ck_assert_int_eq(pg_ids_lookup(&ids, 0x40003), -2);
	ck_assert_int_eq(pg_ids_lookup_ltid(&ids, 2), 0);
	ck_assert_int_eq(ids.by_tid.n, 3);
	ck_assert_int_eq(ids.by_ltid.n, 3);
}
END_TEST

/* A tid known not to be a Pangaea task (-1) is cached one way only. */
START_TEST(test_foreign_tid)
{
	pg_ids_add(&ids, 0x40009, -1);
	ck_assert_int_eq(pg_ids_lookup(&ids, 0x40009), -1);
	ck_assert_int_eq(pg_ids_lookup_ltid(&ids, -1), 0);
	ck_assert_int_eq(ids.by_tid.n, 1);
	ck_assert_int_eq(ids.by_ltid.n, 0);
}
END_TEST

/* Adding a tid again replaces its ltid without a second entry. */
START_TEST(test_overwrite)
{
	pg_ids_add(&ids, 0x40005, 3);
	pg_ids_add(&ids, 0x40005, 4);
	ck_assert_int_eq(pg_ids_lookup(&ids, 0x40005), 4);
	ck_assert_int_eq(pg_ids_lookup_ltid(&ids, 4), 0x40005);
	ck_assert_int_eq(ids.by_tid.n, 1);
	/* the ltid side is keyed by ltid: a new tid for ltid 4 replaces it */
	pg_ids_add(&ids, 0x40006, 4);
	ck_assert_int_eq(pg_ids_lookup_ltid(&ids, 4), 0x40006);
	ck_assert_int_eq(ids.by_ltid.n, 2); /* ltids 3 and 4 */
}
END_TEST

/*
 * Keys with the same home slot (in the first table of 64) sit next to
 * each other, the last wrapping around the end of the table; each
 * still finds its own value.
 */
START_TEST(test_collisions_and_wrap)
{
	int keys[8], n = 0, cap = 64;

	/* eight tids whose home is the table's last slot */
	for (int k = 1; n < 8 && k < 1000000; k++)
		if (home_slot(tid_of(1, k), cap) == cap - 1)
			keys[n++] = tid_of(1, k);
	ck_assert_int_eq(n, 8);
	for (int i = 0; i < n; i++)
		pg_ids_add(&ids, keys[i], 100 + i);
	ck_assert_int_eq(ids.by_tid.cap, cap); /* no growth: the probe wrapped */
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(pg_ids_lookup(&ids, keys[i]), 100 + i);
		ck_assert_int_eq(pg_ids_lookup_ltid(&ids, 100 + i), keys[i]);
	}
	/* a key that collides but was never added is not found */
	for (int k = 1000000;; k++)
		if (home_slot(tid_of(1, k), cap) == cap - 1) {
			ck_assert_int_eq(pg_ids_lookup(&ids, tid_of(1, k)), -2);
			break;
		}
	/* the wrapped probe really used slot 0 */
	ck_assert(ids.by_tid.used[0]);
}
END_TEST

/* Many pairs: the tables grow (load kept at most one half); all found. */
START_TEST(test_growth)
{
	enum { N = 5000 };

	for (int i = 0; i < N; i++) {
		int ltid = (i % 50) * 1000 + i / 50 + 1;

		pg_ids_add(&ids, tid_of(1 + i % 4, 1 + i), ltid);
		if (i == 31)
			ck_assert_int_eq(ids.by_tid.cap, 64);
		if (i == 32) /* the 33rd pair doubles the table */
			ck_assert_int_eq(ids.by_tid.cap, 128);
	}
	ck_assert_int_eq(ids.by_tid.n, N);
	ck_assert_int_eq(ids.by_ltid.n, N);
	ck_assert_int_ge(ids.by_tid.cap, 2 * N);
	ck_assert_int_ge(ids.by_ltid.cap, 2 * N);
	for (int i = 0; i < N; i++) {
		int ltid = (i % 50) * 1000 + i / 50 + 1, tid = tid_of(1 + i % 4, 1 + i);

		if (pg_ids_lookup(&ids, tid) != ltid ||
		    pg_ids_lookup_ltid(&ids, ltid) != tid)
			ck_abort_msg("pair %d (t%x <-> %d) lost after growth", i, tid,
				     ltid);
	}
	ck_assert_int_eq(pg_ids_lookup(&ids, tid_of(9, 1)), -2);
}
END_TEST

/* Freeing empties both tables (there is no single removal); reuse works. */
START_TEST(test_free_reuse)
{
	for (int i = 1; i <= 100; i++)
		pg_ids_add(&ids, tid_of(1, i), i);
	pg_ids_free(&ids);
	ck_assert_int_eq(ids.by_tid.n, 0);
	ck_assert_int_eq(ids.by_tid.cap, 0);
	ck_assert_int_eq(pg_ids_lookup(&ids, tid_of(1, 5)), -2);
	ck_assert_int_eq(pg_ids_lookup_ltid(&ids, 5), 0);
	pg_ids_add(&ids, tid_of(2, 5), 5);
	ck_assert_int_eq(pg_ids_lookup(&ids, tid_of(2, 5)), 5);
	ck_assert_int_eq(pg_ids_lookup_ltid(&ids, 5), tid_of(2, 5));
}
END_TEST

/*
 * pg_ltid_of and pg_tid_of answer from the task's own table without a
 * word to the coordinator (there is none here: coord_tid is 0 and no
 * pvmd runs, so a question would come back as an error, not a value).
 */
START_TEST(test_translate_known)
{
	pg_ids_learn(0x40001, 0);
	pg_ids_learn(0x40002, 1);
	pg_ids_learn(0x40003, 1001);
	pg_ids_learn(0x40007, -1);
	ck_assert_int_eq(pg_ltid_of(0x40002), 1);
	ck_assert_int_eq(pg_ltid_of(0x40003), 1001);
	ck_assert_int_eq(pg_ltid_of(0x40001), 0);
	ck_assert_int_eq(pg_ltid_of(0x40007), -1);
	ck_assert_int_eq(pg_tid_of(1001), 0x40003);
	ck_assert_int_eq(pg_tid_of(1), 0x40002);
}
END_TEST

static Suite *ids_suite(void)
{
	Suite *s = suite_create("ids");
	TCase *tc = tcase_create("maps");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_both_ways);
	tcase_add_test(tc, test_foreign_tid);
	tcase_add_test(tc, test_overwrite);
	tcase_add_test(tc, test_collisions_and_wrap);
	tcase_add_test(tc, test_growth);
	tcase_add_test(tc, test_free_reuse);
	tcase_add_test(tc, test_translate_known);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(ids_suite());
}
