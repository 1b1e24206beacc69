/*
 * check_outlog.c: unit tests of output.log (logs/format/outlog.c): round trips
 * of any bytes, refusals of damaged files; and of the comparison of two
 * runs' output (logs/analysis/output-compare.c): per task, whatever the
 * interleaving and the pieces.
 */
#include "pangaea-analysis.h"
#include "checkutil.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Pieces with NULs, an empty line and a whole 1 MB one come back as
 * written, with their tasks, times and kinds; the file is new, 0600. */
START_TEST(test_round_trip)
{
	static char big[PG_OUTPUT_PIECE_MAX + 1];
	const char a[] = "line 1 2 3", b[] = { 'x', '\0', 'y' };
	struct pg_out_log log;
	char path[PATH_MAX], err[512] = "";
	struct stat st;
	int64_t t = pg_outlog_now();
	int fd;

	memset(big, 'z', sizeof(big));
	ck_assert(t > 1000000000LL * 1000000000LL); /* wall clock, after 2001 */
	cku_in_dir(path, sizeof(path), "output.log");
	unlink(path);
	fd = pg_outlog_create(path, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	ck_assert_int_eq(pg_outlog_append(fd, 1, t, 1, a, sizeof(a) - 1), 0);
	ck_assert_int_eq(pg_outlog_append(fd, 1001, t + 5, 0, b, sizeof(b)), 0);
	ck_assert_int_eq(pg_outlog_append(fd, -1, 7, 1, "", 0), 0);
	ck_assert_int_eq(pg_outlog_append(fd, 2, 8, 0, big,
					  PG_OUTPUT_PIECE_MAX), 0);
	ck_assert_int_eq(pg_outlog_append(fd, 2, 9, 0, big, sizeof(big)), -1);
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	ck_assert_int_eq(pg_outlog_read(path, &log, err, sizeof(err)), 0);
	ck_assert_uint_eq(log.n, 4);
	ck_assert_int_eq(log.pieces[0].ltid, 1);
	ck_assert(log.pieces[0].ns == t);
	ck_assert_int_eq(log.pieces[0].nl, 1);
	ck_assert_uint_eq(log.pieces[0].len, sizeof(a) - 1);
	ck_assert(memcmp(log.data + log.pieces[0].off, a, sizeof(a) - 1) == 0);
	ck_assert_int_eq(log.pieces[1].ltid, 1001);
	ck_assert(log.pieces[1].ns == t + 5);
	ck_assert_int_eq(log.pieces[1].nl, 0);
	ck_assert(memcmp(log.data + log.pieces[1].off, b, sizeof(b)) == 0);
	ck_assert_int_eq(log.pieces[2].ltid, -1);
	ck_assert_uint_eq(log.pieces[2].len, 0);
	ck_assert_uint_eq(log.pieces[3].len, PG_OUTPUT_PIECE_MAX);
	pg_outlog_free(&log);
	/* created new only */
	ck_assert_int_eq(pg_outlog_create(path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "cannot create") && strstr(err, path), "%s",
		      err);
}
END_TEST

/* Bad files are refused, naming the file and what is wrong. */
START_TEST(test_refusals)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "", "not a Pangaea output log" },
		{ "pangaea-output 2\n", "version 2" },
		{ "pangaea-output 1\nline 1 5 5\nab\n", "truncated: the record at offset 17" },
		{ "pangaea-output 1\nline 1 5 2\nabX", "truncated" },
		{ "pangaea-output 1\nword 1 5 1\na\n", "offset 17: not a 'line|part" },
		{ "pangaea-output 1\nline -2 5 1\na\n", "offset 17" },
		{ "pangaea-output 1\nline 1 -5 1\na\n", "offset 17" },
		{ "pangaea-output 1\nline 1 5 1048577\n", "offset 17" },
		{ "pangaea-output 1\nline 1 5 -1\n", "offset 17" },
		{ "pangaea-output 1\nline 1 5\na\n", "offset 17" },
		{ "pangaea-output 1\npart 1 5 1 \na\n", "offset 17" },
		{ "pangaea-output 1\nline 1 99999999999999999999 1\na\n", "offset 17" },
	};
	struct pg_out_log log;
	char path[PATH_MAX], err[512];

	cku_in_dir(path, sizeof(path), "output.log");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		cku_spit(path, bad[i].text, strlen(bad[i].text));
		ck_assert_int_eq(pg_outlog_read(path, &log, err, sizeof(err)), -1);
		ck_assert_msg(strstr(err, bad[i].want) && strstr(err, path),
			      "case %zu: %s", i, err);
		pg_outlog_free(&log);
	}
	/* what came before the damage is kept, for a salvage */
	cku_spit(path, "pangaea-output 1\nline 4 5 2\nab\npart 4 6 9\nab\n", 42);
	ck_assert_int_eq(pg_outlog_read(path, &log, err, sizeof(err)), -1);
	ck_assert_uint_eq(log.n, 1);
	ck_assert_int_eq(log.pieces[0].ltid, 4);
	ck_assert_str_eq(log.data, "ab");
	pg_outlog_free(&log);
	unlink(path);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(pg_outlog_read(path, &log, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "FIFO"), "%s", err);
}
END_TEST

/* Makes the folder cku_dir/NAME with an output.log of TEXT (after the
 * head line) unless TEXT is NULL; its path into DIR. */
static void run_dir(char *dir, size_t n, const char *name, const char *text)
{
	char path[PATH_MAX + 16], *all;

	cku_in_dir(dir, n, name);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	if (!text)
		return;
	snprintf(path, sizeof(path), "%s/output.log", dir);
	ck_assert_int_ge(asprintf(&all, "pangaea-output 1\n%s", text), 0);
	cku_spit(path, all, strlen(all));
	free(all);
}

/* Each task's lines are compared on their own: another interleaving of
 * the tasks, other times and other pieces of the same lines are the
 * same output; another line, a missing line or a missing task's output
 * is not, and the first differing line of the task is named. */
START_TEST(test_verify)
{
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX], d[PATH_MAX], e[PATH_MAX],
	     f[PATH_MAX], g[PATH_MAX], h[PATH_MAX], diff[512];

	run_dir(a, sizeof(a), "a", "line 1 10 5\nhello\nline 2 11 3\nfoo\n"
		"line 1 12 3\nbye\n");
	/* task 2 first, other times, task 1's first line in two pieces */
	run_dir(b, sizeof(b), "b", "line 2 1 3\nfoo\npart 1 2 3\nhel\n"
		"line 1 3 2\nlo\nline 1 4 3\nbye\n");
	run_dir(c, sizeof(c), "c", "line 1 10 5\nhello\nline 2 11 3\nfoo\n"
		"line 1 12 3\nBYE\n");
	run_dir(d, sizeof(d), "d", "line 1 10 5\nhello\nline 1 12 3\nbye\n");
	run_dir(e, sizeof(e), "e", NULL);
	run_dir(f, sizeof(f), "f", "line 1 10 5\nhello\n"
		"line 1 11 36\nlibpvm [t40003]: pvm_exit(): waiting\n");
	run_dir(g, sizeof(g), "g", "line 1 10 5\nhel");
	ck_assert_int_eq(pg_outverify(a, b, NULL, 0, diff, sizeof(diff)), 0);
	ck_assert_int_eq(pg_outverify(b, a, NULL, 0, diff, sizeof(diff)), 0);
	/* libpvm's own lines are left out */
	run_dir(h, sizeof(h), "h", "line 1 9 36\nlibpvm [t40003]: pvm_exit(): waiting\n"
		"line 1 10 5\nhello\nline 2 11 3\nfoo\nline 1 12 3\nbye\n");
	ck_assert_int_eq(pg_outverify(a, h, NULL, 0, diff, sizeof(diff)), 0);
	ck_assert_int_eq(pg_outverify(a, c, NULL, 0, diff, sizeof(diff)), 1);
	ck_assert_msg(strstr(diff, "task 1 printed \"bye\" as its output line 2"
			     " in the first run, \"BYE\" in the second"), "%s",
		      diff);
	ck_assert_int_eq(pg_outverify(a, d, NULL, 0, diff, sizeof(diff)), 1);
	ck_assert_msg(strstr(diff, "task 2 printed \"foo\" as its output line 1"
			     " in the first run, nothing in the second"), "%s",
		      diff);
	ck_assert_int_eq(pg_outverify(f, a, NULL, 0, diff, sizeof(diff)), 1);
	ck_assert_msg(strstr(diff, "task 1 printed nothing as its output line "
			     "2 in the first run, \"bye\""), "%s", diff);
	/* a run without output.log (made before it existed) is not compared */
	ck_assert_int_eq(pg_outverify(a, e, NULL, 0, diff, sizeof(diff)), 0);
	ck_assert_int_eq(pg_outverify(e, a, NULL, 0, diff, sizeof(diff)), 0);
	/* a damaged one is an error naming it */
	ck_assert_int_eq(pg_outverify(a, g, NULL, 0, diff, sizeof(diff)), -1);
	ck_assert_msg(strstr(diff, g) && strstr(diff, "truncated"), "%s", diff);
}
END_TEST

/* A line is quoted whole (up to 200 bytes), a tab escaped as \t; a
 * longer line around where it differs (check_run_compare's
 * test_output_long_line). */
START_TEST(test_verify_quote)
{
	char a[PATH_MAX], b[PATH_MAX], diff[512], text[400];

	snprintf(text, sizeof(text), "line 3 1 70\n%070d\nline 3 2 3\na\tb\n", 0);
	run_dir(a, sizeof(a), "a", text);
	snprintf(text, sizeof(text), "line 3 1 70\n%070d\nline 3 2 3\na b\n", 0);
	run_dir(b, sizeof(b), "b", text);
	ck_assert_int_eq(pg_outverify(a, b, NULL, 0, diff, sizeof(diff)), 1);
	ck_assert_msg(strstr(diff, "task 3 printed \"a\\tb\" as its output line 2"
			     " in the first run, \"a b\" in the second"), "%s",
		      diff);
	snprintf(text, sizeof(text), "line 3 1 70\n%070d\n", 1);
	run_dir(b, sizeof(b), "c", text);
	ck_assert_int_eq(pg_outverify(a, b, NULL, 0, diff, sizeof(diff)), 1);
	snprintf(text, sizeof(text), "\"%070d\" as its output line 1 in the "
		 "first run, \"%070d\" in the second", 0, 1);
	ck_assert_msg(strstr(diff, text), "%s", diff);
}
END_TEST

/* Writes DIR/task-LTID.comm, a header only, of PVM task id TID. */
static void comm_header(const char *dir, int ltid, int tid)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char path[PATH_MAX + 32], err[512];

	memset(&h, 0, sizeof(h));
	h.version = PG_COMM_VERSION;
	h.ltid = ltid;
	h.tid = tid;
	h.mode = 1;
	h.start_wall_ns = 1;
	snprintf(h.host, sizeof(h.host), "vm");
	snprintf(h.program, sizeof(h.program), "/bin/prog");
	snprintf(path, sizeof(path), "%s/task-%d.comm", dir, ltid);
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), 0);
	pg_comm_close(&w);
}

/* PVM task ids differ between runs: a "tHEX" that is the tid of a task
 * of its run compares as that task; one that is no task's, or that is
 * part of a longer word, as it is. */
START_TEST(test_verify_tids)
{
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX], d[PATH_MAX], e[PATH_MAX],
	     f[PATH_MAX], g[PATH_MAX], diff[512];
	const int l[] = { 1, 1001 };

	run_dir(a, sizeof(a), "a", "line 1 1 24\ni'm t40003, from t40004.\n"
		"line 1 2 12\nt4ff1 at0 t4\n");
	comm_header(a, 1, 0x40003);
	comm_header(a, 1001, 0x40004);
	run_dir(b, sizeof(b), "b", "line 1 1 24\ni'm t40007, from t40009.\n"
		"line 1 2 12\nt4ff1 at0 t4\n");
	comm_header(b, 1, 0x40007);
	comm_header(b, 1001, 0x40009);
	ck_assert_int_eq(pg_outverify(a, b, l, 2, diff, sizeof(diff)), 0);
	/* a child's relayed lines (pvm_catchout) in another place among the
	 * task's own: the same; in another order among themselves: not */
	run_dir(e, sizeof(e), "e", "line 1 1 12\n[t40004] one\nline 1 1 24\n"
		"i'm t40003, from t40004.\nline 1 1 12\n[t40004] two\n"
		"line 1 2 12\nt4ff1 at0 t4\n");
	comm_header(e, 1, 0x40003);
	comm_header(e, 1001, 0x40004);
	run_dir(f, sizeof(f), "f", "line 1 1 24\ni'm t40007, from t40009.\n"
		"line 1 1 12\n[t40009] one\nline 1 2 12\nt4ff1 at0 t4\n"
		"line 1 1 12\n[t40009] two\n");
	comm_header(f, 1, 0x40007);
	comm_header(f, 1001, 0x40009);
	ck_assert_int_eq(pg_outverify(e, f, l, 2, diff, sizeof(diff)), 0);
	run_dir(g, sizeof(g), "g", "line 1 1 24\ni'm t40007, from t40009.\n"
		"line 1 1 12\n[t40009] two\nline 1 2 12\nt4ff1 at0 t4\n"
		"line 1 1 12\n[t40009] one\n");
	comm_header(g, 1, 0x40007);
	comm_header(g, 1001, 0x40009);
	ck_assert_int_eq(pg_outverify(e, g, l, 2, diff, sizeof(diff)), 1);
	ck_assert_msg(strstr(diff, "\"[<task 1001>] one\" as its output line 3"),
		      "%s", diff);
	/* the tids swapped: another task named */
	run_dir(c, sizeof(c), "c", "line 1 1 24\ni'm t40009, from t40007.\n"
		"line 1 2 12\nt4ff1 at0 t4\n");
	comm_header(c, 1, 0x40007);
	comm_header(c, 1001, 0x40009);
	ck_assert_int_eq(pg_outverify(a, c, l, 2, diff, sizeof(diff)), 1);
	ck_assert_msg(strstr(diff, "\"i'm <task 1>, from <task 1001>.\" as its "
			     "output line 1 in the first run, \"i'm <task "
			     "1001>, from <task 1>.\""), "%s", diff);
	/* hex words that are no tid of the run stay as they are */
	run_dir(d, sizeof(d), "d", "line 1 1 24\ni'm t40007, from t40009.\n"
		"line 1 2 12\nt4ff2 at0 t4\n");
	comm_header(d, 1, 0x40007);
	comm_header(d, 1001, 0x40009);
	ck_assert_int_eq(pg_outverify(a, d, l, 2, diff, sizeof(diff)), 1);
	ck_assert_msg(strstr(diff, "\"t4ff1 at0 t4\" as its output line 2"),
		      "%s", diff);
}
END_TEST

/* PANGAEA_OUTPUT_MASK: what it matches in a line compares as "*", the
 * rest as it is; a bad expression is an error naming it. */
START_TEST(test_verify_mask)
{
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX], diff[512];

	run_dir(a, sizeof(a), "a", "line 1 1 12\nT = 131 (us)\nline 1 2 2\nab\n");
	run_dir(b, sizeof(b), "b", "line 1 1 11\nT = 86 (us)\nline 1 2 2\nab\n");
	run_dir(c, sizeof(c), "c", "line 1 1 11\nT = 86 (ms)\nline 1 2 2\nac\n");
	ck_assert_int_eq(unsetenv("PANGAEA_OUTPUT_MASK"), 0);
	ck_assert_int_eq(pg_outverify(a, b, NULL, 0, diff, sizeof(diff)), 1);
	ck_assert_int_eq(setenv("PANGAEA_OUTPUT_MASK", "[0-9]+ \\(us\\)", 1), 0);
	ck_assert_int_eq(pg_outverify(a, b, NULL, 0, diff, sizeof(diff)), 0);
	ck_assert_int_eq(pg_outverify(a, c, NULL, 0, diff, sizeof(diff)), 1);
	ck_assert_msg(strstr(diff, "\"T = 131 (us)\" as its output line 1"),
		      "%s", diff);
	/* an expression that matches the empty string masks nothing */
	ck_assert_int_eq(setenv("PANGAEA_OUTPUT_MASK", "z*", 1), 0);
	ck_assert_int_eq(pg_outverify(b, b, NULL, 0, diff, sizeof(diff)), 0);
	ck_assert_int_eq(pg_outverify(b, c, NULL, 0, diff, sizeof(diff)), 1);
	ck_assert_int_eq(setenv("PANGAEA_OUTPUT_MASK", "(", 1), 0);
	ck_assert_int_eq(pg_outverify(a, b, NULL, 0, diff, sizeof(diff)), -1);
	ck_assert_msg(strstr(diff, "PANGAEA_OUTPUT_MASK: not a POSIX"), "%s",
		      diff);
	ck_assert_int_eq(unsetenv("PANGAEA_OUTPUT_MASK"), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("outlog");
	TCase *tc = tcase_create("outlog");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_verify);
	tcase_add_test(tc, test_verify_quote);
	tcase_add_test(tc, test_verify_tids);
	tcase_add_test(tc, test_verify_mask);
	suite_add_tcase(s, tc);
	return cku_run(s);
}
