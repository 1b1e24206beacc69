/*
 * check_run_compare.c: unit tests of run comparison and counting
 * (logs/analysis/run-compare.c: pg_verify_runs, pg_run_count) on synthetic runs
 * written with the real log writer into temporary folders.
 */
#include "pangaea-analysis.h"
#include "pangaea-protocol.h" /* enum pg_end_how */
#include "checkutil.h"

#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char run_a[PATH_MAX], run_b[PATH_MAX];

/* Checked (each test): a folder of its own holding runs A and B. */
static void setup(void)
{
	cku_setup();
	snprintf(run_a, sizeof(run_a), "%s/a", cku_dir);
	snprintf(run_b, sizeof(run_b), "%s/b", cku_dir);
	ck_assert_int_eq(mkdir(run_a, 0755), 0);
	ck_assert_int_eq(mkdir(run_b, 0755), 0);
}

/* Event constructors (times are filled in by write_task). */
static struct pg_event ev_send(int to, int tag, uint32_t id, uint32_t len)
{
	return (struct pg_event){ .kind = PG_REC_SEND, .peer = to, .tag = tag,
				  .msgid = id, .len = len };
}

static struct pg_event ev_recv(int from, int tag, uint32_t id, uint32_t len)
{
	return (struct pg_event){ .kind = PG_REC_RECV, .peer = from, .tag = tag,
				  .msgid = id, .len = len };
}

static struct pg_event ev_fails(uint32_t n)
{
	return (struct pg_event){ .kind = PG_REC_POLLFAIL, .count = n };
}

static struct pg_event ev_end(void)
{
	return (struct pg_event){ .kind = PG_REC_END, .how = PG_END_EXIT };
}

/*
 * Writes RUN/task-LTID.comm holding the N events of EV, event i at time
 * (i + 1) * TSTEP ns, each TSTEP / 3 long.  Returns the file's size.
 */
static off_t write_task(const char *run, int ltid, const struct pg_event *ev,
			int n, uint64_t tstep)
{
	return cku_comm_in(run, ltid, ltid, ev, n, tstep, tstep / 3);
}

/* The master (1) and two workers (1001, 1002) of a small run. */
static const struct pg_event master[] = {
	{ .kind = PG_REC_SPAWN, .msgid = 1, .len = 2 },
	{ .kind = PG_REC_SEND, .peer = 1001, .tag = 99, .msgid = 1, .len = 16 },
	{ .kind = PG_REC_SEND, .peer = 1002, .tag = 99, .msgid = 2, .len = 16 },
	{ .kind = PG_REC_RECV, .peer = 1002, .tag = 1, .msgid = 1, .len = 8 },
	{ .kind = PG_REC_POLLFAIL, .count = 3 },
	{ .kind = PG_REC_NRECV, .peer = 1001, .tag = 1, .msgid = 1, .len = 8 },
	{ .kind = PG_REC_END, .how = PG_END_EXIT },
};
static const struct pg_event worker1[] = {
	{ .kind = PG_REC_RECV, .peer = 1, .tag = 99, .msgid = 1, .len = 16 },
	{ .kind = PG_REC_SEND, .peer = 1, .tag = 1, .msgid = 1, .len = 8 },
	{ .kind = PG_REC_END, .how = PG_END_EXIT },
};
static const struct pg_event worker2[] = {
	{ .kind = PG_REC_RECV, .peer = 1, .tag = 99, .msgid = 2, .len = 16 },
	{ .kind = PG_REC_SEND, .peer = 1, .tag = 1, .msgid = 1, .len = 8 },
	{ .kind = PG_REC_END, .how = PG_END_EXIT },
};
#define NEV(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define RUN_EVENTS (NEV(master) + NEV(worker1) + NEV(worker2))

/* Writes the small run into RUN, times stepping by TSTEP. */
static void write_run(const char *run, uint64_t tstep)
{
	write_task(run, 1, master, NEV(master), tstep);
	write_task(run, 1001, worker1, NEV(worker1), tstep);
	write_task(run, 1002, worker2, NEV(worker2), tstep);
}

/* Compares A and B, returning pg_verify_runs's code; DIFF filled. */
static int verify(char *diff, size_t n, long *nev, int *nt)
{
	*nev = -1;
	*nt = -1;
	diff[0] = '\0';
	return pg_verify_runs(run_a, run_b, nev, nt, diff, n);
}

/* Asserts that the text S contains PART. */
#define assert_has(s, part) \
	ck_assert_msg(strstr((s), (part)) != NULL, "'%s' not in '%s'", (part), (s))

START_TEST(test_identical)
{
	char diff[1024];
	long nev;
	int nt;

	write_run(run_a, 1000);
	write_run(run_b, 1000);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 0);
	ck_assert_int_eq(nev, RUN_EVENTS);
	ck_assert_int_eq(nt, 3);
}
END_TEST

/* Times and durations are not compared: a slower replay is the same run. */
START_TEST(test_times_ignored)
{
	char diff[1024];
	long nev;
	int nt;

	write_run(run_a, 1000);
	write_run(run_b, 77777777);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 0);
	ck_assert_int_eq(nev, RUN_EVENTS);
}
END_TEST

/* B's master received the workers' replies the other way round. */
START_TEST(test_differing_receive)
{
	struct pg_event other[NEV(master)];
	char diff[1024];
	long nev;
	int nt;

	memcpy(other, master, sizeof(master));
	other[3].peer = 1001; /* event 4: the reply of worker 1 came first */
	other[5].peer = 1002;
	write_run(run_a, 1000);
	write_task(run_b, 1, other, NEV(other), 1000);
	write_task(run_b, 1001, worker1, NEV(worker1), 1000);
	write_task(run_b, 1002, worker2, NEV(worker2), 1000);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 1);
	assert_has(diff, "task 1, event 4:");
	assert_has(diff, run_a);
	assert_has(diff, run_b);
	assert_has(diff, "pvm_recv from=1002 msg=1 tag=1");
	assert_has(diff, "pvm_recv from=1001 msg=1 tag=1");
	/* A's description comes first */
	ck_assert(strstr(diff, "from=1002") < strstr(diff, "from=1001"));
}
END_TEST

/* Each compared field counts: tag, message id, length, poll count, end. */
START_TEST(test_each_field_counts)
{
	struct { int field; const char *want; } cases[] = {
		{ 0, "event 2:" }, { 1, "event 2:" }, { 2, "event 2:" },
		{ 3, "event 5:" }, { 4, "event 7:" }, { 5, "event 6:" },
	};

	write_run(run_a, 1000);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct pg_event other[NEV(master)];
		char diff[1024];
		long nev;
		int nt;

		memcpy(other, master, sizeof(master));
		switch (cases[c].field) {
		case 0: other[1].tag = 98; break;
		case 1: other[1].msgid = 5; break;
		case 2: other[1].len = 17; break;
		case 3: other[4].count = 4; break;
		case 4: other[6].how = PG_END_SIGNAL; other[6].value = 11; break;
		case 5: other[5].kind = PG_REC_TRECV; break;
		}
		write_task(run_b, 1, other, NEV(other), 1000);
		write_task(run_b, 1001, worker1, NEV(worker1), 1000);
		write_task(run_b, 1002, worker2, NEV(worker2), 1000);
		if (verify(diff, sizeof(diff), &nev, &nt) != 1)
			ck_abort_msg("case %zu: change not seen (%s)", c, diff);
		assert_has(diff, "task 1, ");
		assert_has(diff, cases[c].want);
	}
}
END_TEST

/* A call record's answer counts: its result, its second argument and
 * every byte of its data (what pvm_tasks or pvm_recvinfo gave back). */
START_TEST(test_call_answers_count)
{
	static const unsigned char data_a[] = { 1, 2, 3 }, data_b[] = { 1, 2, 4 };
	struct pg_event a[2] = {
		{ .kind = PG_REC_CALL, .op = PG_Q_RECVINFO, .arg = 0, .arg2 = 0,
		  .result = 5, .group = "box", .nblob = 3, .blob = data_a },
		{ .kind = PG_REC_END, .how = PG_END_EXIT },
	};
	struct pg_event b[2];
	char diff[1024];
	long nev;
	int nt;

	for (int c = 0; c < 4; c++) {
		memcpy(b, a, sizeof(a));
		if (c == 1)
			b[0].blob = data_b;
		else if (c == 2)
			b[0].result = -32;
		else if (c == 3)
			b[0].arg2 = 8; /* PvmMboxFirstAvail */
		write_task(run_a, 1, a, 2, 1000);
		write_task(run_b, 1, b, 2, 1000);
		if (verify(diff, sizeof(diff), &nev, &nt) != (c ? 1 : 0))
			ck_abort_msg("case %d: %s", c, diff);
		if (c)
			assert_has(diff, "task 1, event 1: ");
	}
	assert_has(diff, "pvm_recvinfo(\"box\", 0, flags=8)");
}
END_TEST

/* B's master log stops early: the difference names the end of the log. */
START_TEST(test_shorter_log)
{
	char diff[1024];
	long nev;
	int nt;

	write_run(run_a, 1000);
	write_task(run_b, 1, master, 5, 1000);
	write_task(run_b, 1001, worker1, NEV(worker1), 1000);
	write_task(run_b, 1002, worker2, NEV(worker2), 1000);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 1);
	assert_has(diff, "task 1, event 6:");
	assert_has(diff, "has the end of the log");
}
END_TEST

/* A task only one run has. */
START_TEST(test_missing_task)
{
	char diff[1024], path[PATH_MAX];
	long nev;
	int nt;

	/* B lacks the last task: the counts differ */
	write_run(run_a, 1000);
	write_task(run_b, 1, master, NEV(master), 1000);
	write_task(run_b, 1001, worker1, NEV(worker1), 1000);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 1);
	assert_has(diff, "has 3 tasks");
	assert_has(diff, "has 2: task 1002 is in ");
	assert_has(diff, "/a only");

	/* B lacks a middle task: that task is named */
	pg_log_path(path, sizeof(path), run_b, 1001, "comm");
	ck_assert_int_eq(unlink(path), 0);
	write_task(run_b, 1002, worker2, NEV(worker2), 1000);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 1);
	assert_has(diff, "task 1001 is in ");
	assert_has(diff, "/a only");

	/* A lacks it instead */
	write_task(run_b, 1001, worker1, NEV(worker1), 1000);
	pg_log_path(path, sizeof(path), run_a, 1001, "comm");
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 1);
	assert_has(diff, "task 1001 is in ");
	assert_has(diff, "/b only");
}
END_TEST

/* A replay that diverged: its master stopped early and one worker was
 * never started.  The difference named is the master's first differing
 * event (not the count of tasks), with the replay's own report. */
START_TEST(test_diverged_replay)
{
	struct pg_runinfo ri = { .status = 4 };
	struct pg_event other[3];
	char diff[2048];
	long nev;
	int nt;

	memcpy(other, master, sizeof(other));
	other[2].peer = 1001; /* event 3: sent to the wrong worker */
	write_run(run_a, 1000);
	write_task(run_b, 1, other, NEV(other), 1000);
	write_task(run_b, 1001, worker1, NEV(worker1), 1000);
	snprintf(ri.mode, sizeof(ri.mode), "replay");
	snprintf(ri.diverged, sizeof(ri.diverged),
		 "replay diverged: task 1, event 3: the log expects send to=1002");
	ck_assert_int_eq(pg_runinfo_write(run_b, &ri, diff, sizeof(diff)), 0);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 1);
	assert_has(diff, "task 1, event 3: ");
	assert_has(diff, "/b says: replay diverged: task 1, event 3: the log "
		   "expects send to=1002)");
	ck_assert_msg(strstr(diff, "tasks") == NULL, "'%s' counts tasks", diff);
}
END_TEST

/* A task with no log is named with how it ended, in balanced brackets
 * (the end text has brackets of its own). */
START_TEST(test_no_log_brackets)
{
	char diff[1024], info[PATH_MAX + 16];
	long nev;
	int nt;
	static const char text[] =
		"pangaea-run 1\nmode record\nended x\nlauncher-host vm\n"
		"command p\nselect all\n"
		"task 1 tid=t40001 host=vm program=/bin/prog end=1/0 (ended normally)\n"
		"task 1001 tid=t40002 host=vm program=/bin/prog end=1/0 (ended normally)\n"
		"task 1002 tid=t40003 host=vm program=/bin/prog end=1/0 (ended normally)\n"
		"task 1003 tid=t40004 host=vm program=/bin/prog end=0/0 "
		"(was killed by signal 15 (Terminated))\nstatus 2\n";

	write_run(run_a, 1000);
	write_run(run_b, 1000);
	snprintf(info, sizeof(info), "%s/run.info", run_a);
	cku_spit(info, text, sizeof(text) - 1);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 1);
	assert_has(diff, "task 1003 of ");
	assert_has(diff, " has no log (was killed by signal 15 (Terminated)): "
		   "the run cannot be compared");
}
END_TEST

/* Writes RUN/output.log holding LINE (and a newline) printed by task 1. */
static void write_output(const char *run, const char *line)
{
	char path[PATH_MAX], err[512] = "";
	int fd;

	snprintf(path, sizeof(path), "%s/output.log", run);
	unlink(path); /* (made anew: it is created exclusively) */
	fd = pg_outlog_create(path, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	ck_assert_int_eq(pg_outlog_append(fd, 1, 1000, 1, line, strlen(line)), 0);
	ck_assert_int_eq(close(fd), 0);
}

/* An output line that differs far from its start: the difference is
 * quoted, not a start of line cut short before it; a short line is
 * quoted whole, its tab and trailing blank shown. */
START_TEST(test_output_long_line)
{
	char diff[2048], a[400], b[400];
	long nev;
	int nt;

	/* "result:" padded with 300 blanks to the value (a mask over the
	   value would not cover the padding) */
	snprintf(a, sizeof(a), "result:%300s", "42");
	snprintf(b, sizeof(b), "result:%299s\t42", "");
	write_run(run_a, 1000);
	write_run(run_b, 1000);
	write_output(run_a, a);
	write_output(run_b, b);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 1);
	assert_has(diff, "task 1 printed \"...");
	assert_has(diff, "     42\" as its output line 1 in the first run");
	assert_has(diff, "     \\t42\" in the second");
	assert_has(diff, "(they differ from byte 306)");

	write_output(run_a, "x\ty ");
	write_output(run_b, "x\ty");
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 1);
	assert_has(diff, "printed \"x\\ty \" as its output line 1 in the first "
		   "run, \"x\\ty\" in the second");
}
END_TEST

/* A log cut inside a record cannot be compared (nor counted). */
START_TEST(test_truncated)
{
	char diff[1024], path[PATH_MAX];
	off_t size;
	long nev;
	int nt;

	write_run(run_a, 1000);
	write_task(run_b, 1, master, NEV(master), 1000);
	write_task(run_b, 1001, worker1, NEV(worker1), 1000);
	size = write_task(run_b, 1002, worker2, NEV(worker2), 1000);
	pg_log_path(path, sizeof(path), run_b, 1002, "comm");
	/* the end record is kind, how, value, time delta: drop its last byte */
	ck_assert_int_eq(truncate(path, size - 1), 0);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), -1);
	assert_has(diff, "task-1002.comm");
	assert_has(diff, "truncated");
	ck_assert_int_eq(pg_run_count(run_b, &nev, &nt, diff, sizeof(diff)), -1);
	assert_has(diff, "truncated");
}
END_TEST

/* A log of another format version is refused with both versions named. */
START_TEST(test_wrong_version)
{
	char diff[1024], path[PATH_MAX], want[64];
	unsigned char v[4];
	uint32_t other = PG_COMM_VERSION + 1;
	long nev;
	int nt, fd;

	write_run(run_a, 1000);
	write_run(run_b, 1000);
	pg_log_path(path, sizeof(path), run_b, 1001, "comm");
	for (int i = 0; i < 4; i++)
		v[i] = (unsigned char)(other >> (8 * i));
	fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, v, 4, 8), 4); /* u32 version after the magic */
	close(fd);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), -1);
	assert_has(diff, "task-1001.comm");
	snprintf(want, sizeof(want), "version %u", other);
	assert_has(diff, want);
	snprintf(want, sizeof(want), "reads version %d", PG_COMM_VERSION);
	assert_has(diff, want);
}
END_TEST

/* A folder that does not exist is an error, not a difference. */
START_TEST(test_missing_folder)
{
	char diff[1024];
	long nev;
	int nt;

	write_run(run_a, 1000);
	cku_rm_rf(run_b);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), -1);
	assert_has(diff, run_b);
	ck_assert_int_eq(pg_run_count(run_b, &nev, &nt, diff, sizeof(diff)), -1);
	assert_has(diff, run_b);
}
END_TEST

START_TEST(test_run_count)
{
	char err[1024], path[PATH_MAX];
	long nev = -1;
	int nt = -1;

	ck_assert_int_eq(pg_run_count(run_a, &nev, &nt, err, sizeof(err)), 0);
	ck_assert_int_eq(nev, 0);
	ck_assert_int_eq(nt, 0);
	write_run(run_a, 1000);
	/* files that are not comm logs are not counted */
	snprintf(path, sizeof(path), "%s/task-1.exec", run_a);
	close(open(path, O_WRONLY | O_CREAT, 0644));
	snprintf(path, sizeof(path), "%s/task-7.comm.bak", run_a);
	close(open(path, O_WRONLY | O_CREAT, 0644));
	ck_assert_int_eq(pg_run_count(run_a, &nev, &nt, err, sizeof(err)), 0);
	ck_assert_int_eq(nev, RUN_EVENTS);
	ck_assert_int_eq(nt, 3);
	/* a task that logged nothing but its header counts, with no events */
	write_task(run_a, 2, NULL, 0, 1000);
	ck_assert_int_eq(pg_run_count(run_a, &nev, &nt, err, sizeof(err)), 0);
	ck_assert_int_eq(nev, RUN_EVENTS);
	ck_assert_int_eq(nt, 4);
}
END_TEST

/* Many tasks, listed out of order on disk: compared in ltid order. */
START_TEST(test_many_tasks)
{
	struct pg_event ev[3] = { ev_send(1, 5, 1, 4), ev_fails(2), ev_end() };
	char diff[1024];
	long nev;
	int nt;

	for (int k = 60; k >= 1; k--) {
		ev[0].msgid = (uint32_t)k;
		write_task(run_a, 1000 + k, ev, 3, 1000);
		write_task(run_b, 1000 + k, ev, 3, 500);
	}
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 0);
	ck_assert_int_eq(nt, 60);
	ck_assert_int_eq(nev, 180);
	ev[0] = ev_recv(1, 5, 40, 4); /* task 1040 received instead of sent */
	write_task(run_b, 1040, ev, 3, 1000);
	ck_assert_int_eq(verify(diff, sizeof(diff), &nev, &nt), 1);
	assert_has(diff, "task 1040, event 1:");
	assert_has(diff, "send to=1 tag=5 msg=40");
	assert_has(diff, "pvm_recv from=1 msg=40 tag=5");
	/* tasks before 1040 were compared and counted */
	ck_assert_int_eq(nev, 39 * 3);
}
END_TEST

/* Only names pg_log_path would make count as logs: not task-01.comm,
 * nor task-4294967297.comm (once read as task 1). */
START_TEST(test_run_ltids_names)
{
	static const char *const names[] = {
		"task-1.comm", "task-1001.comm", "task--5.comm", "task-01.comm",
		"task-4294967297.comm", "task-+7.comm", "task-x.comm",
		"task-2.comm.bak", "task-3.exec", "task- 4.comm",
	};
	char path[PATH_MAX + 64];
	int *l = NULL, n;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", run_a, names[i]);
		close(open(path, O_WRONLY | O_CREAT, 0600));
	}
	n = pg_run_ltids(run_a, "comm", &l);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(l[0], -5);
	ck_assert_int_eq(l[1], 1);
	ck_assert_int_eq(l[2], 1001);
	free(l);
}
END_TEST

static Suite *verify_suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("verify");

	tcase_add_unchecked_fixture(tc, cku_base_setup, cku_base_teardown);
	tcase_add_checked_fixture(tc, setup, cku_teardown);
	tcase_add_test(tc, test_identical);
	tcase_add_test(tc, test_times_ignored);
	tcase_add_test(tc, test_differing_receive);
	tcase_add_test(tc, test_each_field_counts);
	tcase_add_test(tc, test_call_answers_count);
	tcase_add_test(tc, test_shorter_log);
	tcase_add_test(tc, test_missing_task);
	tcase_add_test(tc, test_diverged_replay);
	tcase_add_test(tc, test_no_log_brackets);
	tcase_add_test(tc, test_output_long_line);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_wrong_version);
	tcase_add_test(tc, test_missing_folder);
	tcase_add_test(tc, test_run_count);
	tcase_add_test(tc, test_many_tasks);
	tcase_add_test(tc, test_run_ltids_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(verify_suite());
}
