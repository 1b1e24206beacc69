/*
 * check_registry.c: unit tests of the coordinator's task registry and
 * its queue of waiting ltid -> tid requests (coordinator/registry.c).
 */
#include "../../../coordinator/coord.h"
#include "checkutil.h"

#include <check.h>
#include <stdlib.h>

static struct coord_registry reg;

static void setup(void)
{
	coord_registry_init(&reg);
}

static void teardown(void)
{
	coord_registry_free(&reg);
}

/* How many tasks REG knows. */
static int ntasks(void)
{
	return reg.ids.by_ltid.n;
}

START_TEST(test_empty)
{
	ck_assert_int_eq(ntasks(), 0);
	ck_assert_int_eq(coord_registry_ltid(&reg, 0x40001), -1);
	ck_assert_int_eq(coord_registry_tid(&reg, 1), 0);
	ck_assert_int_eq(coord_registry_tid(&reg, 0), 0);
}
END_TEST

START_TEST(test_add_lookup_both_ways)
{
	ck_assert_int_eq(coord_registry_add(&reg, 0, 0x40001), 0);
	ck_assert_int_eq(coord_registry_add(&reg, 1, 0x40002), 0);
	ck_assert_int_eq(coord_registry_add(&reg, 1001, 0x80003), 0);
	ck_assert_int_eq(ntasks(), 3);
	ck_assert_int_eq(coord_registry_ltid(&reg, 0x40001), 0);
	ck_assert_int_eq(coord_registry_ltid(&reg, 0x40002), 1);
	ck_assert_int_eq(coord_registry_ltid(&reg, 0x80003), 1001);
	ck_assert_int_eq(coord_registry_tid(&reg, 0), 0x40001);
	ck_assert_int_eq(coord_registry_tid(&reg, 1), 0x40002);
	ck_assert_int_eq(coord_registry_tid(&reg, 1001), 0x80003);
	/* unknown ones */
	ck_assert_int_eq(coord_registry_ltid(&reg, 0x40004), -1);
	ck_assert_int_eq(coord_registry_tid(&reg, 2), 0);
}
END_TEST

/* Adding the same pair again is fine and adds nothing. */
START_TEST(test_add_twice_same)
{
	ck_assert_int_eq(coord_registry_add(&reg, 5, 0x40005), 0);
	ck_assert_int_eq(coord_registry_add(&reg, 5, 0x40005), 0);
	ck_assert_int_eq(ntasks(), 1);
	ck_assert_int_eq(coord_registry_tid(&reg, 5), 0x40005);
}
END_TEST

/* An ltid or a tid that is already someone else's is refused. */
START_TEST(test_add_conflicts)
{
	ck_assert_int_eq(coord_registry_add(&reg, 5, 0x40005), 0);
	ck_assert_int_eq(coord_registry_add(&reg, 6, 0x40006), 0);
	/* same ltid, other tid */
	ck_assert_int_eq(coord_registry_add(&reg, 5, 0x40099), -1);
	/* same tid, other ltid */
	ck_assert_int_eq(coord_registry_add(&reg, 7, 0x40005), -1);
	/* both taken, crossed */
	ck_assert_int_eq(coord_registry_add(&reg, 5, 0x40006), -1);
	/* nothing changed */
	ck_assert_int_eq(ntasks(), 2);
	ck_assert_int_eq(coord_registry_tid(&reg, 5), 0x40005);
	ck_assert_int_eq(coord_registry_tid(&reg, 6), 0x40006);
	ck_assert_int_eq(coord_registry_tid(&reg, 7), 0);
	ck_assert_int_eq(coord_registry_ltid(&reg, 0x40005), 5);
	ck_assert_int_eq(coord_registry_ltid(&reg, 0x40099), -1);
}
END_TEST

/* A task's own registration of an ltid its parent has not reported yet
 * adds it. */
START_TEST(test_register_unknown)
{
	ck_assert_int_eq(coord_registry_add(&reg, 1002, 0x40010), 0);
	ck_assert_int_eq(ntasks(), 1);
	ck_assert_int_eq(coord_registry_tid(&reg, 1002), 0x40010);
	ck_assert_int_eq(coord_registry_ltid(&reg, 0x40010), 1002);
}
END_TEST

/* Registering a task its parent already reported changes nothing; a
 * clash is refused. */
START_TEST(test_register_known)
{
	ck_assert_int_eq(coord_registry_add(&reg, 1001, 0x40011), 0);
	ck_assert_int_eq(coord_registry_add(&reg, 1002, 0x40012), 0);
	ck_assert_int_eq(coord_registry_add(&reg, 1001, 0x40011), 0);
	ck_assert_int_eq(ntasks(), 2);
	/* 1002 claims another tid; 1003 claims 1001's tid */
	ck_assert_int_eq(coord_registry_add(&reg, 1002, 0x40099), -1);
	ck_assert_int_eq(coord_registry_add(&reg, 1003, 0x40011), -1);
	ck_assert_int_eq(coord_registry_tid(&reg, 1003), 0);
	ck_assert_int_eq(ntasks(), 2);
}
END_TEST

/* Three requests for ltid 5 and one for 6: taking 5's gives the three in order. */
START_TEST(test_waiters_take)
{
	int out[8] = { 0 };

	ck_assert_int_eq(coord_registry_wait(&reg, 0x40001, 5), 0);
	ck_assert_int_eq(coord_registry_wait(&reg, 0x40002, 6), 0);
	ck_assert_int_eq(coord_registry_wait(&reg, 0x40003, 5), 0);
	ck_assert_int_eq(coord_registry_wait(&reg, 0x40004, 5), 0);
	ck_assert_int_eq(reg.nwaiters, 4);

	ck_assert_int_eq(coord_registry_take_waiters(&reg, 5, out, 8), 3);
	ck_assert_int_eq(out[0], 0x40001);
	ck_assert_int_eq(out[1], 0x40003);
	ck_assert_int_eq(out[2], 0x40004);
	ck_assert_int_eq(out[3], 0); /* nothing more written */
	/* the one for 6 stays */
	ck_assert_int_eq(reg.nwaiters, 1);
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 5, out, 8), 0);
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 6, out, 8), 1);
	ck_assert_int_eq(out[0], 0x40002);
	ck_assert_int_eq(reg.nwaiters, 0);
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 6, out, 8), 0);
}
END_TEST

/* A smaller MAX returns MAX and keeps the rest, still in order. */
START_TEST(test_waiters_take_max)
{
	int out[4] = { 0 };

	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(coord_registry_wait(&reg, 100 + i, 9), 0);
		ck_assert_int_eq(coord_registry_wait(&reg, 200 + i, 8), 0);
	}
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 9, out, 2), 2);
	ck_assert_int_eq(out[0], 100);
	ck_assert_int_eq(out[1], 101);
	ck_assert_int_eq(reg.nwaiters, 8);
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 9, out, 2), 2);
	ck_assert_int_eq(out[0], 102);
	ck_assert_int_eq(out[1], 103);
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 9, out, 2), 1);
	ck_assert_int_eq(out[0], 104);
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 9, out, 2), 0);
	/* max 0 takes nothing */
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 8, out, 0), 0);
	ck_assert_int_eq(reg.nwaiters, 5);
	/* the other ltid's requests kept their order */
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 8, out, 4), 4);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(out[i], 200 + i);
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 8, out, 4), 1);
	ck_assert_int_eq(out[0], 204);
	ck_assert_int_eq(reg.nwaiters, 0);
}
END_TEST

/* The coordinator's loop: take 32 at a time while it returns 32. */
START_TEST(test_waiters_many)
{
	int out[32], got = 0, n;

	for (int i = 0; i < 100; i++) {
		ck_assert_int_eq(coord_registry_wait(&reg, 1000 + i, 42), 0);
		if (i % 3 == 0)
			ck_assert_int_eq(coord_registry_wait(&reg, 5000 + i, 43), 0);
	}
	do {
		n = coord_registry_take_waiters(&reg, 42, out, 32);
		for (int i = 0; i < n; i++)
			ck_assert_int_eq(out[i], 1000 + got + i);
		got += n;
	} while (n == 32);
	ck_assert_int_eq(got, 100);
	ck_assert_int_eq(reg.nwaiters, 34);
	/* the same requester may wait twice */
	ck_assert_int_eq(coord_registry_wait(&reg, 7, 44), 0);
	ck_assert_int_eq(coord_registry_wait(&reg, 7, 44), 0);
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 44, out, 32), 2);
	ck_assert_int_eq(out[0], 7);
	ck_assert_int_eq(out[1], 7);
}
END_TEST

/* 1000 tasks: all found both ways, conflicts still detected. */
START_TEST(test_thousand_tasks)
{
	for (int i = 0; i < 1000; i++) {
		int ltid = 1000 + i * 7, tid = 0x40000 + i * 13;

		ck_assert_int_eq(coord_registry_add(&reg, ltid, tid), 0);
	}
	ck_assert_int_eq(ntasks(), 1000);
	for (int i = 0; i < 1000; i++) {
		int ltid = 1000 + i * 7, tid = 0x40000 + i * 13;

		ck_assert_int_eq(coord_registry_tid(&reg, ltid), tid);
		ck_assert_int_eq(coord_registry_ltid(&reg, tid), ltid);
	}
	ck_assert_int_eq(coord_registry_add(&reg, 1000 + 999 * 7, 1), -1);
	ck_assert_int_eq(coord_registry_add(&reg, 1, 0x40000 + 500 * 13), -1);
	ck_assert_int_eq(coord_registry_tid(&reg, 1001), 0);
	ck_assert_int_eq(ntasks(), 1000);
}
END_TEST

/* Free empties the registry, which can be used again. */
START_TEST(test_free_reuse)
{
	int out[2];

	ck_assert_int_eq(coord_registry_add(&reg, 1, 2), 0);
	ck_assert_int_eq(coord_registry_wait(&reg, 3, 4), 0);
	coord_registry_free(&reg);
	ck_assert_int_eq(ntasks(), 0);
	ck_assert_int_eq(reg.nwaiters, 0);
	ck_assert_ptr_null(reg.ids.by_ltid.keys);
	ck_assert_ptr_null(reg.waiters);
	ck_assert_int_eq(coord_registry_tid(&reg, 1), 0);
	ck_assert_int_eq(coord_registry_take_waiters(&reg, 4, out, 2), 0);
	ck_assert_int_eq(coord_registry_add(&reg, 1, 9), 0);
	ck_assert_int_eq(coord_registry_tid(&reg, 1), 9);
}
END_TEST

static Suite *registry_suite(void)
{
	Suite *s = suite_create("registry");
	TCase *tasks = tcase_create("tasks");
	TCase *waiters = tcase_create("waiters");

	tcase_add_checked_fixture(tasks, setup, teardown);
	tcase_add_test(tasks, test_empty);
	tcase_add_test(tasks, test_add_lookup_both_ways);
	tcase_add_test(tasks, test_add_twice_same);
	tcase_add_test(tasks, test_add_conflicts);
	tcase_add_test(tasks, test_register_unknown);
	tcase_add_test(tasks, test_register_known);
	tcase_add_test(tasks, test_thousand_tasks);
	tcase_add_test(tasks, test_free_reuse);
	suite_add_tcase(s, tasks);

	tcase_add_checked_fixture(waiters, setup, teardown);
	tcase_add_test(waiters, test_waiters_take);
	tcase_add_test(waiters, test_waiters_take_max);
	tcase_add_test(waiters, test_waiters_many);
	suite_add_tcase(s, waiters);
	return s;
}

int main(void)
{
	return cku_run(registry_suite());
}
