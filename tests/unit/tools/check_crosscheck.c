/*
 * check_crosscheck.c: unit tests of the check of a recording's logs
 * against each other (logs/analysis/crosscheck.c: pg_crosscheck) on runs written
 * with the real log writers into temporary folders: a run that agrees,
 * then one contradiction at a time.
 */
#include "pangaea-analysis.h"
#include "checkutil.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fails unless S contains PART. */
static void assert_has(const char *s, const char *part)
{
	ck_assert_msg(strstr(s, part) != NULL, "'%s' not in '%s'", part, s);
}

/* The master (1) and two workers (1001, 1002): the master sends each a
 * job, the workers answer with tag 1, the master takes both answers. */
static struct pg_event master[] = {
	{ .kind = PG_REC_SPAWN, .msgid = 1, .len = 2 },
	{ .kind = PG_REC_SEND, .peer = 1001, .tag = 99, .msgid = 1 },
	{ .kind = PG_REC_SEND, .peer = 1002, .tag = 99, .msgid = 2 },
	{ .kind = PG_REC_RECV, .peer = 1002, .tag = 1, .msgid = 1 },
	{ .kind = PG_REC_RECV, .peer = 1001, .tag = 1, .msgid = 1 },
	{ .kind = PG_REC_END, .how = PG_END_EXIT },
};
static struct pg_event worker1[] = {
	{ .kind = PG_REC_RECV, .peer = 1, .tag = 99, .msgid = 1 },
	{ .kind = PG_REC_SEND, .peer = 1, .tag = 1, .msgid = 1 },
	{ .kind = PG_REC_END, .how = PG_END_EXIT },
};
static struct pg_event worker2[] = {
	{ .kind = PG_REC_RECV, .peer = 1, .tag = 99, .msgid = 2 },
	{ .kind = PG_REC_SEND, .peer = 1, .tag = 1, .msgid = 1 },
	{ .kind = PG_REC_END, .how = PG_END_EXIT },
};
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Writes the standard run (headers and files as they should be). */
static void write_run(void)
{
	static const int one[] = { 1 }, workers[] = { 1001, 1002 };

	cku_write_exec(0, one, 1);
	cku_write_exec(1, workers, 2);
	cku_write_exec(1001, NULL, 0);
	cku_write_exec(1002, NULL, 0);
	cku_write_comm(1, 1, master, N(master));
	cku_write_comm(1001, 1001, worker1, N(worker1));
	cku_write_comm(1002, 1002, worker2, N(worker2));
}

/* pg_crosscheck of the test's folder; ERR gets its text. */
static int check(char *err, size_t n)
{
	return pg_crosscheck(cku_dir, err, n);
}

START_TEST(test_agree)
{
	char err[1024];

	write_run();
	ck_assert_msg(check(err, sizeof(err)) == 0, "refused: %s", err);
}
END_TEST

START_TEST(test_swapped_logs)
{
	char err[1024];

	write_run();
	/* task-1001.comm holds task 1002's log and the other way round */
	cku_write_comm(1001, 1002, worker2, N(worker2));
	cku_write_comm(1002, 1001, worker1, N(worker1));
	/* the reader itself refuses a header that is not its file's task */
	ck_assert_int_ne(check(err, sizeof(err)), 0);
	assert_has(err, "task-1001.comm: header (offset 16) says task 1002");
}
END_TEST

START_TEST(test_changed_peer_duplicate)
{
	struct pg_event m[N(master)];
	char err[1024];

	write_run();
	memcpy(m, master, sizeof(m));
	m[4].peer = 1002; /* the answer of 1001 named as 1002's */
	cku_write_comm(1, 1, m, N(m));
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1.comm, record #5 (offset ");
	assert_has(err, "recv from task 1002, message 1, tag 1: that message "
		   "was received already");
}
END_TEST

START_TEST(test_no_such_message)
{
	struct pg_event m[N(master)];
	char err[1024];

	write_run();
	memcpy(m, master, sizeof(m));
	m[3].msgid = 7; /* 1002 sent only message 1 */
	cku_write_comm(1, 1, m, N(m));
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1.comm, record #4");
	assert_has(err, "task-1002.comm has no message 7");
}
END_TEST

START_TEST(test_message_to_another)
{
	struct pg_event w[N(worker1)];
	char err[1024];

	write_run();
	memcpy(w, worker1, sizeof(w));
	w[0].msgid = 2; /* the master's message 2 went to 1002 */
	cku_write_comm(1001, 1001, w, N(w));
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1001.comm, record #1");
	assert_has(err, "task-1.comm sent message 2 to another task");
}
END_TEST

START_TEST(test_tag_differs)
{
	struct pg_event w[N(worker2)];
	char err[1024];

	write_run();
	memcpy(w, worker2, sizeof(w));
	w[1].tag = 2; /* the master received it with tag 1 */
	cku_write_comm(1002, 1002, w, N(w));
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1.comm, record #4");
	assert_has(err, "tag 1: task-1002.comm sent it with tag 2");
}
END_TEST

START_TEST(test_sender_without_log)
{
	char path[PATH_MAX];
	char err[1024];
	static const int one[] = { 1 }, worker[] = { 1001 };

	write_run();
	/* 1002 is gone altogether: its log, its exec log, its spawn */
	cku_write_exec(0, one, 1);
	cku_write_exec(1, worker, 1);
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 1002, "comm"), 0);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 1002, "exec"), 0);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "recv from task 1002, message 1, tag 1: task 1002 has "
		   "no comm log");
}
END_TEST

/* Call records: one naming a task of the run and a pvm_exit just before
 * the end agree; one naming a task without a log, or a record after the
 * task's pvm_exit, is a contradiction. */
START_TEST(test_call_records)
{
	struct pg_event w1[N(worker1) + 2];
	char err[1024];

	write_run();
	memcpy(w1, worker1, sizeof(worker1));
	w1[2] = (struct pg_event){ .kind = PG_REC_CALL, .op = PG_Q_PSTAT,
				   .peer = 1002 };
	w1[3] = (struct pg_event){ .kind = PG_REC_CALL, .op = PG_Q_EXIT };
	w1[4] = worker1[2];
	cku_write_comm(1001, 1001, w1, N(w1));
	ck_assert_msg(check(err, sizeof(err)) == 0, "refused: %s", err);
	w1[2].peer = 1003;
	cku_write_comm(1001, 1001, w1, N(w1));
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1001.comm, record #3 (offset ");
	assert_has(err, "pvm_pstat(task 1003): task 1003 has no comm log");
	w1[2] = w1[3]; /* the pvm_exit, then a pvm_exit again */
	cku_write_comm(1001, 1001, w1, N(w1));
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1001.comm, record #4 (offset ");
	assert_has(err, "call after the task's pvm_exit");
}
END_TEST

START_TEST(test_spawned_without_log)
{
	char path[PATH_MAX];
	char err[1024];

	write_run();
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 1002, "comm"), 0);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1.exec, spawn #1 started task 1002, which has "
		   "no comm log");
}
END_TEST

START_TEST(test_child_of_another)
{
	static const int kids[] = { 1001, 2001 };
	char err[1024];

	write_run();
	cku_write_exec(1, kids, 2); /* task 1 cannot start task 2001 */
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1.exec, spawn #1 started task 2001, which is not "
		   "a child of task 1");
}
END_TEST

START_TEST(test_log_never_spawned)
{
	static const int worker[] = { 1001 };
	char err[1024];

	write_run();
	cku_write_exec(1, worker, 1); /* 1002 not among the master's children */
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1002.comm: task 1 never spawned task 1002");
}
END_TEST

START_TEST(test_runinfo_disagrees)
{
	struct pg_runinfo ri = { .status = 0 };
	struct pg_runinfo_task t = { .how = 1 };
	char err[1024];

	write_run();
	snprintf(ri.mode, sizeof(ri.mode), "record");
	for (int ltid = 1; ltid <= 3; ltid++) { /* 3 has no log */
		t.ltid = ltid == 1 ? 1 : ltid == 2 ? 1001 : 3;
		ck_assert_int_eq(pg_runinfo_add_task(&ri, &t), 0);
	}
	ck_assert_int_eq(pg_runinfo_write(cku_dir, &ri, err, sizeof(err)), 0);
	/* (the run.info reader itself refuses an ended task with no log) */
	ck_assert_int_ne(check(err, sizeof(err)), 0);
	assert_has(err, "run.info:9: task 3 ended (pangaea_exit) but has no log");
	ri.ntasks = 2; /* now 1002's log is missing from run.info */
	ck_assert_int_eq(pg_runinfo_write(cku_dir, &ri, err, sizeof(err)), 0);
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1002.comm: run.info does not list task 1002");
	pg_runinfo_free(&ri);
}
END_TEST

START_TEST(test_selective_run)
{
	struct pg_event m[N(master)];
	char err[1024];

	write_run();
	memcpy(m, master, sizeof(m));
	m[3].msgid = 7; /* its send could be one the selection left out */
	cku_write_comm(1, 1, m, N(m));
	/* a selective run's headers say so: rewrite 1002's with a selection */
	{
		struct pg_comm_header h = { 0 };
		struct pg_comm_writer w;
		char path[PATH_MAX];

		h.ltid = 1002;
		h.parent_ltid = 1;
		h.mode = 1;
		snprintf(h.select, sizeof(h.select), "tag=1");
		ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 1002,
					     "comm"), 0);
		unlink(path);
		ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), 0);
		for (int i = 0; i < N(worker2); i++)
			ck_assert_int_eq(pg_comm_append(&w, &worker2[i]), 0);
		pg_comm_close(&w);
	}
	ck_assert_msg(check(err, sizeof(err)) == 0, "refused: %s", err);
}
END_TEST

START_TEST(test_mcast_and_notices)
{
	static int dests[] = { 1001, 1002 };
	const struct pg_event mcast = { .kind = PG_REC_MCAST, .tag = 7,
					.msgid = 3, .ndest = 2, .dests = dests };
	const struct pg_event take = { .kind = PG_REC_RECV, .peer = 1,
				       .tag = 7, .msgid = 3 };
	const struct pg_event notice = { .kind = PG_REC_RECV,
					 .peer = PG_PEER_SYSTEM, .tag = 50,
					 .msgid = 2 };
	struct pg_event m[N(master) + 1], w1[N(worker1) + 2],
		w2[N(worker2) + 2];
	char err[1024];

	write_run();
	/* the master mcasts message 3 to both workers, who take it; worker
	 * 1 also takes a pvmd's notice (no Pangaea id) */
	memcpy(m, master, sizeof(master));
	m[N(master) - 1] = mcast;
	m[N(master)] = master[N(master) - 1];
	cku_write_comm(1, 1, m, N(m));
	memcpy(w1, worker1, sizeof(worker1));
	w1[2] = take;
	w1[3] = notice;
	w1[4] = worker1[2];
	cku_write_comm(1001, 1001, w1, N(w1));
	memcpy(w2, worker2, sizeof(worker2));
	w2[2] = take;
	w2[3] = worker2[2];
	cku_write_comm(1002, 1002, w2, N(w2) - 1);
	ck_assert_msg(check(err, sizeof(err)) == 0, "refused: %s", err);
	/* but a third receive of the mcast is one too many */
	w2[3] = take;
	w2[4] = worker2[2];
	cku_write_comm(1002, 1002, w2, N(w2));
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1002.comm, record #4");
	assert_has(err, "that message was received already");
}
END_TEST

START_TEST(test_sender_killed)
{
	struct pg_event m[N(master)], w[N(worker2)];
	char err[1024];

	write_run();
	/* the master took message 2 of 1002, which died (SIGKILL: no end
	 * record) before it logged that send: no contradiction */
	memcpy(m, master, sizeof(m));
	m[3].msgid = 2;
	cku_write_comm(1, 1, m, N(m));
	memcpy(w, worker2, sizeof(w));
	cku_write_comm(1002, 1002, w, N(w) - 1);
	ck_assert_msg(check(err, sizeof(err)) == 0, "refused: %s", err);
	/* nor when a signal's end record follows (a crash in the wrapper) */
	w[2] = (struct pg_event){ .kind = PG_REC_END, .how = PG_END_SIGNAL,
				  .value = 11 };
	cku_write_comm(1002, 1002, w, N(w));
	ck_assert_msg(check(err, sizeof(err)) == 0, "refused: %s", err);
	/* but a task that ended normally logged all it sent */
	w[2] = worker2[2];
	cku_write_comm(1002, 1002, w, N(w));
	ck_assert_int_eq(check(err, sizeof(err)), 1);
	assert_has(err, "task-1002.comm has no message 2 (it logged messages 1 "
		   "to 1)");
}
END_TEST

START_TEST(test_unreadable)
{
	char err[1024];

	write_run();
	ck_assert_int_eq(pg_crosscheck("/nonexistent/folder", err, sizeof(err)),
			 -1);
	assert_has(err, "/nonexistent/folder");
}
END_TEST

/* An empty folder is no recording: said so, not a contradiction about a
 * log it cannot read. */
START_TEST(test_not_a_recording)
{
	char err[1024];

	ck_assert_int_eq(check(err, sizeof(err)), -1);
	assert_has(err, "is not a recording (no task-0.exec, no "
		   "task-LTID.comm)");
}
END_TEST

static Suite *crosscheck_suite(void)
{
	Suite *s = suite_create("crosscheck");
	TCase *tc = tcase_create("crosscheck");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_agree);
	tcase_add_test(tc, test_swapped_logs);
	tcase_add_test(tc, test_changed_peer_duplicate);
	tcase_add_test(tc, test_no_such_message);
	tcase_add_test(tc, test_message_to_another);
	tcase_add_test(tc, test_tag_differs);
	tcase_add_test(tc, test_sender_without_log);
	tcase_add_test(tc, test_call_records);
	tcase_add_test(tc, test_spawned_without_log);
	tcase_add_test(tc, test_child_of_another);
	tcase_add_test(tc, test_log_never_spawned);
	tcase_add_test(tc, test_runinfo_disagrees);
	tcase_add_test(tc, test_selective_run);
	tcase_add_test(tc, test_mcast_and_notices);
	tcase_add_test(tc, test_sender_killed);
	tcase_add_test(tc, test_unreadable);
	tcase_add_test(tc, test_not_a_recording);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(crosscheck_suite());
}
