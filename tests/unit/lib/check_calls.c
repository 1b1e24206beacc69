/*
 * check_calls.c: unit tests of the table of wrapped calls
 * (pangaea_lib/pangaea-pvm-calls.def) against the public header: a
 * program built with pangaea.h has every call of the table routed to its
 * wrapper, and only those.  The preprocessor cannot write pangaea.h's
 * `#define pvm_send pangaea_pvm_send` lines from the table, so they are
 * a second list, held equal here.  That every wrapper exists is shown by
 * this program linking: the table below takes each one's address.
 *
 * Also libpvm's trace tests turned off while the launcher is the task's
 * tracer (pg_tracer_quiet and the pvm_setopt wrapper, pangaea_lib/pvm/
 * init.c): the join turns them off only for that tracer and at libpvm's
 * top level; the task's trace settings stay as libpvm was given them,
 * so what libgpvm3 does around its group server's spawn (the children's
 * tracer to 0 and back) is accepted; another tracer of the task's own
 * turns the tests back on.  No PVM daemon runs here: these options need
 * none.  Each test runs in a process of its own (Check's fork mode).
 */
#include <pangaea.h> /* as a program includes it: the calls routed */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>
#include <pvmtev.h>
#include <string.h>

#define CALLS_STR(x) #x
/* X after macro expansion, as a string */
#define CALLS_XSTR(x) CALLS_STR(x)

struct calls_row {
	const char *name;     /* pvm_send */
	const char *expanded; /* what a program's pvm_send becomes */
	const char *wrapper;  /* pangaea_pvm_send */
	void (*address)(void); /* the wrapper itself (it links) */
};

static const struct calls_row calls_wrapped[] = {
#define PANGAEA_CALL(type, name, params, args, route)                    \
	{#name, CALLS_XSTR(name), "pangaea_" #name,                      \
	 (void (*)(void))pangaea_##name},
#include "pangaea-pvm-calls.def"
};

static const struct calls_row calls_unwrapped[] = {
#define PANGAEA_CALL_JOIN(type, name, params, args)                      \
	{#name, CALLS_XSTR(name), NULL, NULL},
#include "pangaea-pvm-calls.def"
};

#define CALLS_N(a) (sizeof(a) / sizeof((a)[0]))

START_TEST(test_every_call_routed)
{
	ck_assert_uint_ge(CALLS_N(calls_wrapped), 30);
	for (size_t i = 0; i < CALLS_N(calls_wrapped); i++) {
		const struct calls_row *c = &calls_wrapped[i];

		ck_assert_msg(strcmp(c->expanded, c->wrapper) == 0,
			      "pangaea.h routes %s to %s, not to %s", c->name,
			      c->expanded, c->wrapper);
		ck_assert_ptr_nonnull(c->address);
	}
}
END_TEST

START_TEST(test_unwrapped_not_routed)
{
	ck_assert_uint_eq(CALLS_N(calls_unwrapped), 1); /* pvm_mytid */
	for (size_t i = 0; i < CALLS_N(calls_unwrapped); i++)
		ck_assert_str_eq(calls_unwrapped[i].expanded,
				 calls_unwrapped[i].name);
}
END_TEST

/* libpvm's own pvm_setopt below, as libgpvm3 calls it (pangaea.h routes
 * a program's to the wrapper, called by its name here) */
#undef pvm_setopt

extern int pvmtoplvl;
extern struct Pvmtracer pvmtrc, pvmctrc;

#define TRACER_LAUNCHER 0x40001
#define TRACER_OTHER 0x40002

/* This process as a task the launcher spawned: its tracer, and its
 * children's, the launcher. */
static void tracer_spawned(void)
{
	pvm_setopt(PvmAutoErr, 0);
	pvmtrc.trctid = TRACER_LAUNCHER;
	pvmctrc.trctid = TRACER_LAUNCHER;
	pvmctrc.trctag = pvmtrc.trctag;
	ck_assert_int_eq(pvmtoplvl, 1);
}

START_TEST(test_quiet_for_the_launcher)
{
	tracer_spawned();
	pg_tracer_quiet(TRACER_LAUNCHER);
	ck_assert_int_eq(pvmtoplvl, 0);
	/* what a program reads is what it was given */
	ck_assert_int_eq(pvm_getopt(PvmTraceTid), TRACER_LAUNCHER);
	ck_assert_int_eq(pvm_getopt(PvmSelfTraceTid), TRACER_LAUNCHER);
}
END_TEST

START_TEST(test_not_for_another_tracer)
{
	tracer_spawned();
	pg_tracer_quiet(TRACER_OTHER); /* someone else traces the task */
	ck_assert_int_eq(pvmtoplvl, 1);
	pg_tracer_quiet(0);
	ck_assert_int_eq(pvmtoplvl, 1);
}
END_TEST

START_TEST(test_not_inside_a_libpvm_call)
{
	tracer_spawned();
	pvmtoplvl = 0; /* as inside a call of libpvm's: its end sets it */
	pg_tracer_quiet(TRACER_LAUNCHER);
	pvmtoplvl = 1;
	ck_assert_int_eq(pangaea_pvm_setopt(PvmShowTids, 1), 1);
	ck_assert_int_eq(pvmtoplvl, 1);
}
END_TEST

START_TEST(test_group_server_spawn_accepted)
{
	int old;

	tracer_spawned();
	pg_tracer_quiet(TRACER_LAUNCHER);
	/* libgpvm3's gs_getgstid around the spawn of pvmgs, through the
	   wrapper and straight to libpvm (libgpvm3 calls either) */
	old = pangaea_pvm_setopt(PvmTraceTid, 0);
	ck_assert_int_eq(old, TRACER_LAUNCHER);
	ck_assert_int_eq(pangaea_pvm_setopt(PvmTraceTid, old), 0);
	ck_assert_int_eq(pvm_setopt(PvmTraceTid, 0), TRACER_LAUNCHER);
	ck_assert_int_eq(pvm_setopt(PvmTraceTid, old), 0);
	ck_assert_int_eq(pvmctrc.trctid, TRACER_LAUNCHER);
	ck_assert_int_eq(pvmtoplvl, 0);
}
END_TEST

START_TEST(test_own_tracer_turns_tests_back_on)
{
	tracer_spawned();
	pg_tracer_quiet(TRACER_LAUNCHER);
	ck_assert_int_eq(pangaea_pvm_setopt(PvmShowTids, 1), 1);
	ck_assert_int_eq(pvmtoplvl, 0); /* another option: still off */
	/* what pvm_setopt(PvmSelfTraceTid, T) leaves once its pvmd agreed */
	pvmtrc.trctid = TRACER_OTHER;
	ck_assert_int_eq(pangaea_pvm_setopt(PvmShowTids, 1), 1);
	ck_assert_int_eq(pvmtoplvl, 1);
	pvmtrc.trctid = TRACER_LAUNCHER; /* for good: not off again */
	pangaea_pvm_setopt(PvmShowTids, 1);
	ck_assert_int_eq(pvmtoplvl, 1);
}
END_TEST

static Suite *calls_suite(void)
{
	Suite *s = suite_create("calls");
	TCase *tc = tcase_create("table"), *tq = tcase_create("tracer");

	tcase_add_test(tc, test_every_call_routed);
	tcase_add_test(tc, test_unwrapped_not_routed);
	suite_add_tcase(s, tc);
	tcase_add_test(tq, test_quiet_for_the_launcher);
	tcase_add_test(tq, test_not_for_another_tracer);
	tcase_add_test(tq, test_not_inside_a_libpvm_call);
	tcase_add_test(tq, test_group_server_spawn_accepted);
	tcase_add_test(tq, test_own_tracer_turns_tests_back_on);
	suite_add_tcase(s, tq);
	return s;
}

int main(void)
{
	return cku_run(calls_suite());
}
