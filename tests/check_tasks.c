/*
 * check_tasks.c: unit tests of the launcher's table of tasks
 * (toplevel/tasks.c): how a task killed by another task of the run
 * (pvm_kill, KILLING) is told from one that died, and a divergence
 * whose report was lost (the task killed before it could send it) that
 * must still make the run's divergence (exit 3, not 2).  No PVM daemon:
 * the run is marked as having lost it, so that the table asks PVM
 * nothing.
 */
#include "../toplevel/launcher.h"
#include "checkutil.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

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

static Suite *tasks_suite(void)
{
	Suite *s = suite_create("tasks");
	TCase *tc = tcase_create("ends");

	tcase_add_test(tc, test_killed_by_pvm_kill);
	tcase_add_test(tc, test_killing_before_spawned);
	tcase_add_test(tc, test_lost_divergence);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(tasks_suite());
}
