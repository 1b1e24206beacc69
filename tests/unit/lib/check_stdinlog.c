/*
 * check_stdinlog.c: unit tests of stdin.log (logs/format/stdinlog.c): round
 * trips of any bytes, with and without the end of input; refusals.
 */
#include "pangaea-logs.h"
#include "checkutil.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Chunks with newlines, NULs and a whole 64 KB one come back as written,
 * with their boundaries and the end of input. */
START_TEST(test_round_trip)
{
	static char big[PG_STDIN_CHUNK_MAX];
	const char a[] = "abc\ndata 3\neof\n", b[] = { 'x', '\0', '\n', 'y' };
	struct pg_stdin_log log;
	char path[PATH_MAX], err[512] = "";
	struct stat st;
	int fd;

	memset(big, 'z', sizeof(big));
	cku_in_dir(path, sizeof(path), "stdin.log");
	fd = pg_stdin_create(path, 1, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	ck_assert_int_eq(pg_stdin_append(fd, a, sizeof(a) - 1), 0);
	ck_assert_int_eq(pg_stdin_append(fd, b, sizeof(b)), 0);
	ck_assert_int_eq(pg_stdin_append(fd, big, sizeof(big)), 0);
	ck_assert_int_eq(pg_stdin_append(fd, big, 0), -1);
	ck_assert_int_eq(pg_stdin_append(fd, big, sizeof(big) + 1), -1);
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	ck_assert_int_eq(pg_stdin_read(path, &log, err, sizeof(err)), 0);
	ck_assert_int_eq(log.eof, 0); /* cut while the input was open */
	ck_assert_uint_eq(log.nchunks, 3);
	ck_assert_uint_eq(log.chunks[0], sizeof(a) - 1);
	ck_assert_uint_eq(log.chunks[1], sizeof(b));
	ck_assert_uint_eq(log.len, sizeof(a) - 1 + sizeof(b) + sizeof(big));
	ck_assert(memcmp(log.data, a, sizeof(a) - 1) == 0);
	ck_assert(memcmp(log.data + sizeof(a) - 1, b, sizeof(b)) == 0);
	pg_stdin_free(&log);

	fd = open(path, O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pg_stdin_append_eof(fd), 0);
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(pg_stdin_read(path, &log, err, sizeof(err)), 0);
	ck_assert_int_eq(log.eof, 1);
	pg_stdin_free(&log);
	/* created new only */
	ck_assert_int_eq(pg_stdin_create(path, 1, err, sizeof(err)), -1);
}
END_TEST

/* The task that read the input: written and read back (-stdin 3); a
 * version 1 file, which has none, was task 1's. */
START_TEST(test_ltid)
{
	static const char v1[] = "pangaea-stdin 1\ndata 2\nab\neof\n";
	struct pg_stdin_log log;
	char path[PATH_MAX], err[512] = "";
	int fd;

	cku_in_dir(path, sizeof(path), "stdin.log");
	unlink(path);
	fd = pg_stdin_create(path, 3, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	ck_assert_int_eq(pg_stdin_append(fd, "x\n", 2), 0);
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(pg_stdin_read(path, &log, err, sizeof(err)), 0);
	ck_assert_int_eq(log.ltid, 3);
	ck_assert_uint_eq(log.len, 2);
	pg_stdin_free(&log);
	cku_spit(path, v1, sizeof(v1) - 1);
	ck_assert_msg(pg_stdin_read(path, &log, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(log.ltid, 1);
	ck_assert_int_eq(log.eof, 1);
	ck_assert(log.len == 2 && memcmp(log.data, "ab", 2) == 0);
	pg_stdin_free(&log);
}
END_TEST

/* Bad files are refused, naming the file and what is wrong. */
START_TEST(test_refusals)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "", "not a Pangaea standard input log" },
		{ "pangaea-stdin 3 ltid=1\n", "version 3" },
		{ "pangaea-stdin 2\n", "must be 'pangaea-stdin 2 ltid=L'" },
		{ "pangaea-stdin 2 ltid=0\n", "(L >= 1)" },
		{ "pangaea-stdin 2 ltid=2x\n", "must be" },
		{ "pangaea-stdin 1\ndata 5\nab\n", "truncated: the chunk at offset 16" },
		{ "pangaea-stdin 1\ndata 0\n\n", "offset 16: not a 'data LEN'" },
		{ "pangaea-stdin 1\ndata 65537\n", "offset 16: not a 'data LEN'" },
		{ "pangaea-stdin 1\ndata 2\nabX", "truncated" },
		{ "pangaea-stdin 1\neof\ndata 1\na\n", "data after 'eof'" },
		{ "pangaea-stdin 1\nnonsense\n", "not a 'data LEN'" },
	};
	struct pg_stdin_log log;
	char path[PATH_MAX], err[512];

	cku_in_dir(path, sizeof(path), "stdin.log");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		cku_spit(path, bad[i].text, strlen(bad[i].text));
		ck_assert_int_eq(pg_stdin_read(path, &log, err, sizeof(err)), -1);
		ck_assert_msg(strstr(err, bad[i].want) && strstr(err, path),
			      "case %zu: %s", i, err);
		ck_assert_ptr_null(log.data);
	}
	unlink(path);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(pg_stdin_read(path, &log, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "FIFO"), "%s", err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stdinlog");
	TCase *tc = tcase_create("stdinlog");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_ltid);
	suite_add_tcase(s, tc);
	return cku_run(s);
}
