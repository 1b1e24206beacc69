/*
 * check_state.c: unit tests of a task's state file (pangaea_lib/engine/state.c):
 * what pg_state_block, pg_state_want and pg_state_unblock publish is what
 * pg_state_read (the launcher's and replay's reader) gets back; files of
 * another version or not whole are refused; no file outside a run.
 * Each test runs in a process of its own (Check's fork mode), so the
 * library's one mapping per task starts afresh.
 */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Makes this process task LTID of a run recording into cku_dir. */
static void join(int ltid)
{
	struct pg_self *me = pg_self_edit();

	me->mode = PANGAEA_MODE_RECORD;
	me->ltid = ltid;
	snprintf(me->logdir, sizeof(me->logdir), "%s", cku_dir);
	pg_clock_start();
}

START_TEST(test_block_and_read)
{
	struct timeval tv = { 2, 500000 };
	struct pg_state s;
	struct stat sb;
	char path[PATH_MAX];

	join(1001);
	ck_assert_int_eq(pg_state_read(cku_dir, 1001, &s), 0); /* none yet */
	pg_state_block(pg_call_of(PG_REC_TRECV, 0), 0x40005, 7, NULL, &tv);
	ck_assert_int_eq(pg_state_read(cku_dir, 1001, &s), 1);
	ck_assert_int_eq(s.call, PG_REC_TRECV);
	ck_assert_int_eq(s.src, 0x40005);
	ck_assert_int_eq(s.tag, 7);
	ck_assert_int_eq(s.want, 0);
	ck_assert_uint_eq(s.deadline_mono_ns - s.since_mono_ns, 2500000000u);
	ck_assert_uint_eq(s.seq % 2, 0);
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 1001, "state"),
			 0);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_int_eq(sb.st_mode & 0777, 0600);
	ck_assert_int_eq(sb.st_size, PG_STATE_SIZE);
	pg_state_want(1002, 9);
	ck_assert_int_eq(pg_state_read(cku_dir, 1001, &s), 1);
	ck_assert_int_eq(s.want, 1);
	ck_assert_int_eq(s.want_src, 1002);
	ck_assert_uint_eq(s.want_msgid, 9);
	pg_state_unblock();
	ck_assert_int_eq(pg_state_read(cku_dir, 1001, &s), 1);
	ck_assert_int_eq(s.call, 0);
	ck_assert_int_eq(s.want, 0);
}
END_TEST

START_TEST(test_every_change_counts)
{
	struct pg_state s;
	uint32_t seq;

	join(1);
	pg_state_block(PG_CALL_GROUP + PG_GROUP_BARRIER, -1, 4, "ring", NULL);
	ck_assert_int_eq(pg_state_read(cku_dir, 1, &s), 1);
	ck_assert_str_eq(s.group, "ring");
	ck_assert_uint_eq(s.deadline_mono_ns, 0);
	seq = s.seq;
	pg_state_unblock();
	pg_state_block(PG_CALL_GROUP + PG_GROUP_BARRIER, -1, 4, "ring", NULL);
	ck_assert_int_eq(pg_state_read(cku_dir, 1, &s), 1);
	/* the same call again is a change: the launcher must see progress */
	ck_assert_uint_eq(s.seq, seq + 4);
	pg_state_unblock();
	pg_state_unblock(); /* not blocked: nothing changes */
	ck_assert_int_eq(pg_state_read(cku_dir, 1, &s), 1);
	ck_assert_uint_eq(s.seq, seq + 6);
}
END_TEST

/* Rewrites the 4 bytes at OFF of task LTID's state file with V. */
static void poke(int ltid, off_t off, uint32_t v)
{
	char path[PATH_MAX];
	int fd;

	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, ltid, "state"),
			 0);
	fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, &v, sizeof(v), off), (ssize_t)sizeof(v));
	close(fd);
}

START_TEST(test_refused)
{
	struct pg_state s;
	uint32_t seq;

	join(3);
	pg_state_block(PG_REC_RECV, -1, -1, NULL, NULL);
	ck_assert_int_eq(pg_state_read(cku_dir, 3, &s), 1);
	seq = s.seq;
	ck_assert_int_eq(pg_state_read(cku_dir, 4, &s), 0); /* another task */
	poke(3, offsetof(struct pg_state, seq), seq + 1); /* being written */
	ck_assert_int_eq(pg_state_read(cku_dir, 3, &s), 0);
	poke(3, offsetof(struct pg_state, seq), seq + 2);
	ck_assert_int_eq(pg_state_read(cku_dir, 3, &s), 1);
	poke(3, offsetof(struct pg_state, version), PG_STATE_VERSION + 1);
	ck_assert_int_eq(pg_state_read(cku_dir, 3, &s), 0);
}
END_TEST

START_TEST(test_no_file_for_the_launcher)
{
	struct pg_state s;

	join(0);
	pg_state_block(PG_REC_RECV, -1, -1, NULL, NULL);
	ck_assert_int_eq(pg_state_read(cku_dir, 0, &s), 0);
}
END_TEST

START_TEST(test_no_file_in_plain_pvm)
{
	struct pg_state s;

	join(5);
	pg_self_edit()->mode = PANGAEA_MODE_OFF;
	pg_state_block(PG_REC_RECV, -1, -1, NULL, NULL);
	ck_assert_int_eq(pg_state_read(cku_dir, 5, &s), 0);
}
END_TEST

START_TEST(test_file_exists)
{
	char path[PATH_MAX];
	struct pg_state s;
	int fd;

	/* a file left there (or planted) is not taken over */
	join(6);
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 6, "state"), 0);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
	pg_state_block(PG_REC_RECV, -1, -1, NULL, NULL);
	ck_assert_int_eq(pg_state_read(cku_dir, 6, &s), 0);
}
END_TEST

static Suite *state_suite(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("state");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_block_and_read);
	tcase_add_test(tc, test_every_change_counts);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_no_file_for_the_launcher);
	tcase_add_test(tc, test_no_file_in_plain_pvm);
	tcase_add_test(tc, test_file_exists);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	setenv("CK_FORK", "yes", 1); /* each test a fresh process (above) */
	return cku_run(state_suite());
}
