/*
 * check_send.c: unit tests of the send wrapper's order (pangaea_lib/
 * wrap.c, pg_send_logged): a send is in the log before PVM is asked to
 * send it, since a message received before its send's record is written
 * (the sender killed in between) breaks every replay of the recording.
 * No PVM daemon runs here: PVM refuses every send (it cannot reach one),
 * which shows what the wrapper wrote before it called PVM.  Each test
 * runs in a process of its own (Check's fork mode).
 */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes this process task LTID of a run recording into cku_dir, its
 * logs open; the launcher and coordinator are nowhere. */
static void join(int ltid)
{
	struct pg_self *me = pg_self_edit();
	char err[512] = "";

	/* no daemon: its address file would be in an empty folder */
	setenv("PVM_VMID", "pangaea-check-send-none", 1);
	setenv("PVM_TMP", cku_dir, 1);
	setenv("PVM_ALLOW_ROOT", "1", 1); /* (libpvm exits for root else) */
	setenv("PVM_ROOT", "/usr/lib/pvm3", 0);
	pvm_setopt(PvmAutoErr, 0);
	me->mode = PANGAEA_MODE_RECORD;
	me->ltid = ltid;
	snprintf(me->logdir, sizeof(me->logdir), "%s", cku_dir);
	snprintf(me->program, sizeof(me->program), "check_send");
	pg_pvm_bind(); /* as init.c does */
	pg_clock_start();
	ck_assert_msg(pg_select_open(err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(pg_log_open(0, err, sizeof(err)) == 0, "%s", err);
}

/* Reads task LTID's log in cku_dir into EVS (room for N); the count. */
static int read_log(int ltid, struct pg_event *evs, int n)
{
	char path[PATH_MAX], err[512] = "";
	struct pg_comm_reader r;
	int k = 0, rc;

	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, ltid, "comm"),
			 0);
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	while (k < n && (rc = pg_comm_next(&r, &evs[k], err, sizeof(err))) > 0)
		k++;
	pg_comm_free(&r);
	return k;
}

/* The record of a send is written before PVM sends it: with PVM
 * refusing the send, the record is there all the same, and the next
 * send has the next id. */
START_TEST(test_send_logged_before_pvm)
{
	struct pg_event evs[8];
	int x = 42;

	join(1);
	ck_assert_int_gt(pvm_initsend(PvmDataDefault), 0);
	ck_assert_int_ge(pvm_pkint(&x, 1, 1), 0);
	ck_assert_int_lt(pangaea_pvm_send(0x40005, 7), 0); /* no daemon */
	ck_assert_int_lt(pangaea_pvm_send(0x40006, 8), 0);
	pg_log_end(PG_END_EXIT, 0);
	ck_assert_int_eq(read_log(1, evs, 8), 3);
	ck_assert_int_eq(evs[0].kind, PG_REC_SEND);
	ck_assert_int_eq(evs[0].tag, 7);
	ck_assert_uint_eq(evs[0].msgid, 1);
	ck_assert_uint_eq(evs[0].len, 4);
	ck_assert_int_eq(evs[1].kind, PG_REC_SEND);
	ck_assert_int_eq(evs[1].tag, 8);
	ck_assert_uint_eq(evs[1].msgid, 2);
	ck_assert_int_eq(evs[2].kind, PG_REC_END);
}
END_TEST

/* The kill wrapper writes its record before it kills, too. */
START_TEST(test_kill_logged_before_pvm)
{
	struct pg_event evs[4];

	join(1);
	ck_assert_int_lt(pangaea_pvm_kill(0x40005), 0); /* no daemon */
	pg_log_end(PG_END_EXIT, 0);
	ck_assert_int_eq(read_log(1, evs, 4), 2);
	ck_assert_int_eq(evs[0].kind, PG_REC_KILL);
	ck_assert_int_eq(evs[0].peer, -1); /* no coordinator to name it */
	ck_assert_int_eq(evs[1].kind, PG_REC_END);
}
END_TEST

static Suite *send_suite(void)
{
	Suite *s = suite_create("send");
	TCase *tc = tcase_create("order");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_send_logged_before_pvm);
	tcase_add_test(tc, test_kill_logged_before_pvm);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(send_suite());
}
