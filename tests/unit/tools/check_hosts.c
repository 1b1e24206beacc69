/*
 * check_hosts.c: unit tests of the lines the launcher says about a lost
 * host (toplevel/hosts.c): the tasks that went with it, and the logs that
 * stayed on a host with the scp that fetches them, named in full however
 * many tasks the host carried (the list was cut at 1024 bytes, some 80
 * tasks, mid-word).  No PVM daemon: the run is marked as having lost it,
 * so that the table of tasks asks PVM nothing.
 */
#include "../../../toplevel/launcher.h"
#include "checkutil.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* N tasks on h3 (ltids 1001..1000+N, tids 0xc0000+i), and one task on h2
 * between each ten, all of /x/ring; task 1 on h1. */
static void tasks_on_h3(struct la_run *r, int n)
{
	memset(r, 0, sizeof(*r));
	r->lost_pvmd = 1; /* (no pvm_tasks for the pids) */
	ck_assert_ptr_nonnull(la_task_add(r, 1, 0x40004, "h1", "/x/ring"));
	for (int i = 1; i <= n; i++) {
		ck_assert_ptr_nonnull(la_task_add(r, 1000 + i, 0xc0000 + i, "h3",
						  "/x/ring"));
		if (i % 10 == 0)
			ck_assert_ptr_nonnull(la_task_add(r, 2000 + i, 0x80000 + i,
							  "h2", "/x/ring"));
	}
}

/* 600 tasks on the lost host: all named, in order, whole; those of the
 * other hosts neither named nor taken as gone. */
START_TEST(test_lost_line_whole)
{
	struct la_run r;
	struct pg_strbuf list = { 0 }, want = { 0 };

	tasks_on_h3(&r, 600);
	for (int i = 1; i <= 600; i++)
		pg_strbuf_printf(&want, "%s%d (ring)", i > 1 ? ", " : "", 1000 + i);
	ck_assert_int_eq(la_hosts_lose_tasks(&r, "h3", &list), 600);
	ck_assert_ptr_nonnull(list.p);
	ck_assert_uint_gt(list.len, 1024); /* (where it was cut) */
	ck_assert_str_eq(list.p, want.p);
	for (int i = 0; i < r.ntasks; i++)
		ck_assert_int_eq(r.tasks[i].exited,
				 strcmp(r.tasks[i].host, "h3") == 0);
	/* taken as gone: a second loss of the host names nobody */
	pg_strbuf_reset(&list);
	ck_assert_int_eq(la_hosts_lose_tasks(&r, "h3", &list), 0);
	ck_assert_uint_eq(list.len, 0);
	pg_strbuf_free(&list);
	pg_strbuf_free(&want);
	la_tasks_free(&r);
}
END_TEST

/* The logs that stayed on h3: every task whose log the launcher's folder
 * lacks, each with its scp source; the ones it has are not named. */
START_TEST(test_left_logs_whole)
{
	struct la_run r;
	struct pg_strbuf ltids = { 0 }, files = { 0 }, want = { 0 },
			 wantf = { 0 };
	char path[PATH_MAX + 32];
	int fd;

	tasks_on_h3(&r, 300);
	snprintf(path, sizeof(path), "%s/task-1007.comm", cku_dir);
	unlink(path);
	ck_assert_int_ge(fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644), 0);
	close(fd);
	for (int i = 1; i <= 300; i++) {
		if (i == 7)
			continue;
		pg_strbuf_printf(&want, "%s%d", want.len ? " " : "", 1000 + i);
		pg_strbuf_printf(&wantf, "'h3:%s/task-%d.*' ", cku_dir, 1000 + i);
	}
	ck_assert_int_eq(la_hosts_left(&r, "h3", cku_dir, &ltids, &files), 299);
	ck_assert_str_eq(ltids.p, want.p);
	ck_assert_uint_gt(files.len, 4096); /* (where it was cut) */
	ck_assert_str_eq(files.p, wantf.p);
	pg_strbuf_free(&ltids);
	pg_strbuf_free(&files);
	ck_assert_int_eq(la_hosts_left(&r, "h4", cku_dir, &ltids, &files), 0);
	ck_assert_ptr_null(ltids.p);
	pg_strbuf_free(&want);
	pg_strbuf_free(&wantf);
	la_tasks_free(&r);
}
END_TEST

static Suite *hosts_suite(void)
{
	Suite *s = suite_create("hosts");
	TCase *tc = tcase_create("lost");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_lost_line_whole);
	tcase_add_test(tc, test_left_logs_whole);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(hosts_suite());
}
