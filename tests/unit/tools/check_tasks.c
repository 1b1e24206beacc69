/*
 * check_tasks.c: unit tests of the launcher's table of tasks
 * (toplevel/tasks.c): how a task killed by another task of the run
 * (pvm_kill, KILLING) is told from one that died, and a divergence
 * whose report was lost (the task killed before it could send it) that
 * must still make the run's divergence (exit 3, not 2).  No PVM daemon:
 * the run is marked as having lost it, so that the table asks PVM
 * nothing; or, for the tasks of several hosts (which pids the table asks
 * PVM for, which tasks' missing logs it names), PVM's answers come from
 * the stand-ins below: the launcher on h1 (tid 0x40001), h2 (0x80000).
 */
#include "../../../toplevel/launcher.h"
#include "checkutil.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Stand-ins for libpvm (the program's own definitions win over the
 * shared library's): two hosts, and pvm_tasks counting its calls. */
static int ntasks_calls;

int pvm_mytid(void)
{
	return 0x40001;
}

int pvm_tidtohost(int tid)
{
	return tid & 0x3ffc0000;
}

int pvm_config(int *nhost, int *narch, struct pvmhostinfo **hostp)
{
	static struct pvmhostinfo h[2];

	h[0] = (struct pvmhostinfo){ .hi_tid = 0x40000, .hi_name = "h1" };
	h[1] = (struct pvmhostinfo){ .hi_tid = 0x80000, .hi_name = "h2" };
	*nhost = 2;
	*narch = 1;
	*hostp = h;
	return 0;
}

int pvm_tasks(int where, int *ntask, struct pvmtaskinfo **taskp)
{
	static struct pvmtaskinfo ti;

	ntasks_calls++;
	ti = (struct pvmtaskinfo){ .ti_tid = where, .ti_pid = 4242 };
	*ntask = 1;
	*taskp = &ti;
	return 0;
}

/* A run with task 1 and task 1002 (PROGRAM on HOST), tid 0x40005. */
static struct la_task *two_tasks(struct la_run *r)
{
	memset(r, 0, sizeof(*r));
	r->lost_pvmd = 1; /* (no pvm_tasks for the pids) */
	ck_assert_ptr_nonnull(la_task_add(r, 1, 0x40004, "vm", "/x/killer"));
	return la_task_add(r, 1002, 0x40005, "vm", "/x/killer");
}

/* A SIGTERM end after a KILLING is the killer's; any other end is not. */
START_TEST(test_killed_by_pvm_kill)
{
	struct la_run r;
	struct la_task *t = two_tasks(&r);
	char text[256];

	r.tasks[0].done_how = PG_END_EXIT;
	t->killed_by = 1;
	t->done_how = PG_END_SIGNAL;
	t->done_value = SIGTERM;
	ck_assert_int_eq(la_task_killed(t), 1);
	la_task_end_text(t, text, sizeof(text));
	ck_assert_str_eq(text, "was killed by task 1 (pvm_kill)");
	ck_assert_int_eq(la_tasks_report(&r), 0); /* no failure of the run */
	t->done_value = SIGSEGV; /* it crashed before the kill came */
	ck_assert_int_eq(la_task_killed(t), 0);
	ck_assert_int_eq(la_tasks_report(&r), 1);
	t->done_how = 0; /* no end record: PVM's wait status says */
	t->have_wstatus = 1;
	t->wstatus = SIGTERM; /* (a wait status of a SIGTERM death) */
	ck_assert_int_eq(la_task_killed(t), 1);
	t->wstatus = SIGKILL;
	ck_assert_int_eq(la_task_killed(t), 0);
	t->have_wstatus = 0;
	ck_assert_int_eq(la_task_killed(t), 1);
	t->killed_by = 0; /* nobody said it would kill it */
	ck_assert_int_eq(la_task_killed(t), 0);
	la_tasks_free(&r);
}
END_TEST

/* KILLING may come before the victim's SPAWNED: the table picks it up. */
START_TEST(test_killing_before_spawned)
{
	struct la_run r;
	struct la_task *t;

	memset(&r, 0, sizeof(r));
	r.lost_pvmd = 1;
	ck_assert_int_eq(pg_imap_put(&r.kills.by_victim, 0x40007, 1), 0);
	t = la_task_add(&r, 1003, 0x40007, "vm", "/x/killer");
	ck_assert_int_eq(t->killed_by, 1);
	t = la_task_add(&r, 1004, 0x40008, "vm", "/x/killer");
	ck_assert_int_eq(t->killed_by, 0);
	la_tasks_free(&r);
	pg_imap_free(&r.kills.by_victim);
}
END_TEST

/* A log that ends in a divergence without its report makes the run's
 * divergence; a report that came stays the one said. */
START_TEST(test_lost_divergence)
{
	struct la_run r;
	struct la_task *t = two_tasks(&r);

	r.tasks[0].done_how = PG_END_EXIT;
	ck_assert_int_eq(la_tasks_lost_divergence(&r), 0);
	ck_assert_str_eq(r.diverged, "");
	t->done_how = PG_END_DIVERGED;
	t->done_value = 7;
	ck_assert_int_eq(la_tasks_lost_divergence(&r), 1);
	ck_assert_str_eq(r.diverged, "replay diverged: task 1002 (/x/killer on "
			 "vm), event 7 (its report was lost: the task was "
			 "killed before it could send it)");
	ck_assert_int_eq(t->said, 1);
	snprintf(r.diverged, sizeof(r.diverged), "the report that came");
	ck_assert_int_eq(la_tasks_lost_divergence(&r), 0);
	ck_assert_str_eq(r.diverged, "the report that came");
	la_tasks_free(&r);
}
END_TEST

/* The pid is asked of PVM for the launcher's own host's tasks only: a
 * remote task's pvmd may take seconds to answer (a large run's start),
 * and the pid of a process of another host is of no use here. */
START_TEST(test_pid_of_own_host_only)
{
	struct la_run r;
	struct la_task *t;

	memset(&r, 0, sizeof(r));
	t = la_task_add(&r, 1, 0x40004, "h1", "/x/ring");
	ck_assert_int_eq(ntasks_calls, 1);
	ck_assert_int_eq(t->pid, 4242);
	t = la_task_add(&r, 1001, 0x80004, "h2", "/x/ring");
	ck_assert_int_eq(ntasks_calls, 1);
	ck_assert_int_eq(t->pid, 0);
	la_tasks_free(&r);
}
END_TEST

/* Monotonic seconds (tasks.c's clock). */
static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Writes an empty comm log of LTID in cku_dir. */
static void touch_comm(int ltid)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/task-%d.comm", cku_dir, ltid);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fclose(f);
}

/* A task without a log after LA_JOIN_WAIT_S is named as not joined when
 * the launcher would see its log: on its own host, or on a host whose
 * other tasks' logs it sees (a shared folder); the tasks of a host that
 * logs on its own disk are not. */
START_TEST(test_join_check_remote_logs)
{
	struct la_run r;

	memset(&r, 0, sizeof(r));
	r.logdir = cku_dir;
	la_task_add(&r, 1, 0x40004, "h1", "/x/ring");    /* no log, here */
	la_task_add(&r, 1001, 0x80004, "h2", "/x/ring"); /* no log there */
	la_task_add(&r, 1002, 0x80005, "h2", "/x/ring"); /* no log there */
	for (int i = 0; i < r.ntasks; i++)
		r.tasks[i].added_at = mono_s() - LA_JOIN_WAIT_S - 1;
	la_tasks_check_joined(&r);
	ck_assert_int_eq(r.tasks[0].join_checked, 2);
	ck_assert_int_eq(r.tasks[1].join_checked, 0);
	ck_assert_int_eq(r.tasks[2].join_checked, 0);
	touch_comm(1002); /* h2's logs show up here: the folder is shared */
	usleep(600 * 1000); /* (it looks every 0.5 s) */
	la_tasks_check_joined(&r);
	ck_assert_int_eq(r.tasks[2].join_checked, 1);
	ck_assert_int_eq(r.tasks[1].join_checked, 2);
	la_tasks_free(&r);
}
END_TEST

static Suite *tasks_suite(void)
{
	Suite *s = suite_create("tasks");
	TCase *tc = tcase_create("ends"), *hosts = tcase_create("hosts");

	tcase_add_test(tc, test_killed_by_pvm_kill);
	tcase_add_test(tc, test_killing_before_spawned);
	tcase_add_test(tc, test_lost_divergence);
	suite_add_tcase(s, tc);
	cku_add_tmp_fixtures(hosts);
	tcase_add_test(hosts, test_pid_of_own_host_only);
	tcase_add_test(hosts, test_join_check_remote_logs);
	suite_add_tcase(s, hosts);
	return s;
}

int main(void)
{
	return cku_run(tasks_suite());
}
