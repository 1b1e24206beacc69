/*
 * tasks.c: the launcher's table of the run's tasks, and how each ended.
 */
#include "launcher.h"

#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Seconds on a monotonic clock. */
static double tasks_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The name of the launcher's host, as PVM knows it ("" if unknown). */
static const char *here_host(void)
{
	static char here[PG_HOST_MAX];

	if (!here[0])
		pg_pvm_host_of(pvm_mytid(), here, sizeof(here));
	return here;
}

struct la_task *la_task_add(struct la_run *r, int ltid, int tid,
			    const char *host, const char *program)
{
	struct pvmtaskinfo *ti;
	struct la_task *t;
	int n, killer;

	if ((t = la_task_by_ltid(r, ltid)))
		return t;
	t = pg_grow(r->tasks, &r->cap, (size_t)r->ntasks + 1, sizeof(*t), 16);
	if (!t)
		return NULL;
	r->tasks = t;
	if (pg_imap_put(&r->by_tid, tid, r->ntasks) < 0 ||
	    pg_imap_put(&r->by_ltid, ltid, r->ntasks) < 0)
		return NULL;
	t = &r->tasks[r->ntasks++];
	memset(t, 0, sizeof(*t));
	t->ltid = ltid;
	t->tid = tid;
	snprintf(t->host, sizeof(t->host), "%s", host);
	snprintf(t->program, sizeof(t->program), "%s", program);
	if (pg_imap_get(&r->kills.by_victim, tid, &killer)) /* (KILLING came */
		t->killed_by = killer;			    /* first) */
	t->added_at = tasks_now();
	/* The pid is of use on this host only (signals, /proc).  Asking a
	   remote task's pvmd would block the launcher until it answers: at
	   the start of a large run, seconds for hundreds of tasks, in which
	   the beacons went unheard.  (A dead daemon would not answer at
	   all: libpvm may wait long for it.) */
	if (!r->lost_pvmd && strcmp(host, here_host()) == 0 &&
	    pvm_tasks(tid, &n, &ti) >= 0 && n == 1)
		t->pid = ti[0].ti_pid;
	return t;
}

struct la_task *la_task_by_tid(struct la_run *r, int tid)
{
	int i;

	return pg_imap_get(&r->by_tid, tid, &i) && i < r->ntasks ? &r->tasks[i]
								 : NULL;
}

struct la_task *la_task_by_ltid(struct la_run *r, int ltid)
{
	int i;

	return pg_imap_get(&r->by_ltid, ltid, &i) && i < r->ntasks
		       ? &r->tasks[i] : NULL;
}

/* Whether the launcher sees the log folder of the tasks on HOST: its
 * own host, or one where a task's log showed up in its folder (shared
 * storage).  Elsewhere each task logs on its own host's disk, and the
 * launcher sees the logs only when they are collected after the run. */
static int sees_logs_of(const struct la_run *r, const char *host,
			const char *here)
{
	if (strcmp(host, here) == 0)
		return 1;
	for (int i = 0; i < r->ntasks; i++)
		if (r->tasks[i].join_checked == 1 &&
		    strcmp(r->tasks[i].host, host) == 0)
			return 1;
	return 0;
}

/* Whether the coordinator (if on this host) or a running task of R on
 * this host is stopped: a task that waits on it cannot join meanwhile. */
static int stopped_here(struct la_run *r)
{
	struct pvmtaskinfo *ti;
	int n;

	if (r->coord_pid == 0 && r->coord_tid && !r->coord_exited)
		r->coord_pid = strcmp(r->coord_host, here_host()) == 0 &&
				       pvm_tasks(r->coord_tid, &n, &ti) >= 0 &&
				       n == 1 ? ti[0].ti_pid : -1;
	if (!r->coord_exited && la_vm_process_stopped(r->coord_pid))
		return 1;
	for (int i = 0; i < r->ntasks; i++)
		if (!r->tasks[i].exited && la_vm_process_stopped(r->tasks[i].pid))
			return 1;
	return 0;
}

/* Whether a task of R is still to be looked at by la_tasks_check_joined. */
static int join_pending(const struct la_run *r)
{
	for (int i = 0; i < r->ntasks; i++)
		if (!r->tasks[i].exited && !r->tasks[i].join_checked &&
		    r->tasks[i].added_at != 0)
			return 1;
	return 0;
}

void la_tasks_check_joined(struct la_run *r)
{
	static double last;
	double now = tasks_now();
	char path[PG_PATH_MAX], prog[PG_PATH_MAX];
	int missing = 0;

	if (now - last < 0.5 || !r->logdir)
		return;
	last = now;
	if (join_pending(r) && stopped_here(r))
		r->stopped_seen = now;
	/* first every log there is (which hosts' logs are seen here), then
	   the tasks without one */
	for (int i = 0; i < r->ntasks; i++) {
		struct la_task *t = &r->tasks[i];

		if (t->exited || t->join_checked || t->added_at == 0 ||
		    now - t->added_at < LA_JOIN_WAIT_S ||
		    now - r->stopped_seen < LA_JOIN_WAIT_S ||
		    pg_log_path(path, sizeof(path), r->logdir, t->ltid,
				"comm") < 0)
			continue;
		if (access(path, F_OK) == 0 || errno != ENOENT)
			t->join_checked = 1;
		else
			t->join_checked = 3, missing++; /* (for the next loop) */
	}
	for (int i = 0; missing && i < r->ntasks; i++) {
		struct la_task *t = &r->tasks[i];

		if (t->join_checked != 3)
			continue;
		t->join_checked = 0;
		missing--;
		if (!sees_logs_of(r, t->host, here_host()))
			continue; /* (looked at again: a log may show up) */
		t->join_checked = 2;
		snprintf(prog, sizeof(prog), "%s", t->program);
		la_error("task %d (%s on %s) has not joined the run after %d s: "
			 "if it talks PVM, it is not instrumented and its "
			 "messages cannot be replayed", t->ltid, basename(prog),
			 t->host, LA_JOIN_WAIT_S);
	}
}

void la_tasks_free(struct la_run *r)
{
	free(r->tasks);
	r->tasks = NULL;
	free(r->watches);
	r->watches = NULL;
	r->nwatches = r->wcap = 0;
	r->ntasks = 0;
	r->cap = 0;
	pg_imap_free(&r->by_tid);
	pg_imap_free(&r->by_ltid);
	pg_imap_free(&r->early_ends);
}

int la_tasks_all_exited(const struct la_run *r, int min)
{
	if (r->ntasks < min)
		return 0;
	for (int i = 0; i < r->ntasks; i++)
		if (!r->tasks[i].exited)
			return 0;
	return 1;
}

void la_tasks_kill(struct la_run *r)
{
	/* PVM cannot kill anything now: end every process of the run on this
	   host, also the tasks whose SPAWNED had not arrived yet */
	if (r->lost_pvmd)
		la_vm_kill_run();
	for (int i = 0; i < r->ntasks; i++) {
		struct la_task *t = &r->tasks[i];

		if (t->exited)
			continue;
		if (r->lost_pvmd) { /* killed above if it was on this host */
			t->exited = 1;
		} else if (pvm_kill(t->tid) < 0) {
			/* (a pid is a process of this host only) */
			if (t->pid > 0 && strcmp(t->host, here_host()) == 0)
				kill(t->pid, SIGKILL);
			t->exited = 1;
		}
	}
}

void la_task_settle(struct la_task *t, const char *logdir)
{
	char path[PG_PATH_MAX], err[PG_PATH_MAX + 100];
	struct pg_comm_reader rd;
	struct pg_event ev;

	if (pg_log_path(path, sizeof(path), logdir, t->ltid, "comm") < 0)
		return;
	if (pg_comm_open(&rd, path, err, sizeof(err)) < 0) {
		t->no_log = access(path, F_OK) < 0 && errno == ENOENT;
		/* it ran to its exit without ever joining the run */
		t->uninstrumented = t->uninstrumented ||
				    (t->no_log && t->have_wstatus &&
				     WIFEXITED(t->wstatus) &&
				     WEXITSTATUS(t->wstatus) == 0);
		return;
	}
	while (pg_comm_next(&rd, &ev, err, sizeof(err)) > 0)
		if (ev.kind == PG_REC_END) {
			t->done_how = ev.how;
			t->done_value = ev.value;
		}
	pg_comm_free(&rd);
}

/* Adds the tasks with a communication log in LOGDIR that R does not
 * know (their SPAWNED was still on its way when the pvmd died). */
static void add_from_logs(struct la_run *r, const char *logdir)
{
	char err[PG_PATH_MAX + 100];
	struct pg_comm_reader rd;
	struct la_task *t;
	struct pg_run run;
	int k;

	if (pg_run_open(&run, logdir, err, sizeof(err)) < 0)
		return;
	while ((k = pg_run_next(&run, &rd, err, sizeof(err))) != 0) {
		if (k < 0)
			continue;
		if (!la_task_by_ltid(r, run.ltids[run.i]) &&
		    (t = la_task_add(r, run.ltids[run.i], rd.hdr.tid,
				     rd.hdr.host, rd.hdr.program)))
			t->exited = 1;
		pg_comm_free(&rd);
	}
	pg_run_close(&run);
}

void la_tasks_settle(struct la_run *r, const char *logdir)
{
	if (r->lost_pvmd)
		add_from_logs(r, logdir);
	for (int i = 0; i < r->ntasks; i++)
		if (r->tasks[i].done_how == 0)
			la_task_settle(&r->tasks[i], logdir);
}

int la_task_killed(const struct la_task *t)
{
	if (!t->killed_by)
		return 0;
	if (t->done_how)
		return t->done_how == PG_END_SIGNAL && t->done_value == SIGTERM;
	/* killed before it joined: perhaps before its exec even, in the
	   pvmd's child, whose SIGTERM handler exits with status 15 */
	return !t->have_wstatus || t->no_log || (WIFSIGNALED(t->wstatus) &&
				    WTERMSIG(t->wstatus) == SIGTERM);
}

void la_task_end_text(const struct la_task *t, char *buf, size_t n)
{
	if (la_task_killed(t)) {
		snprintf(buf, n, "was killed by task %d (pvm_kill)",
			 t->killed_by);
		return;
	}
	switch (t->done_how) {
	case PG_END_EXIT:
		snprintf(buf, n, "ended normally");
		break;
	case PG_END_NO_EXIT:
		snprintf(buf, n, "exited with status %d without calling "
			 "pangaea_exit()", t->done_value);
		break;
	case PG_END_SIGNAL:
		snprintf(buf, n, "was killed by signal %d (%s)", t->done_value,
			 strsignal(t->done_value));
		break;
	case PG_END_DIVERGED:
		snprintf(buf, n, "stopped: its replay diverged at event %d",
			 t->done_value);
		break;
	default:
		if (t->uninstrumented)
			snprintf(buf, n, "is not instrumented: its messages "
				 "cannot be replayed");
		else if (t->have_wstatus && WIFSIGNALED(t->wstatus))
			snprintf(buf, n, "was killed by signal %d (%s)",
				 WTERMSIG(t->wstatus), strsignal(WTERMSIG(t->wstatus)));
		else if (t->have_wstatus && WIFEXITED(t->wstatus))
			snprintf(buf, n, "exited with status %d without calling "
				 "pangaea_exit() (no end record: _exit?)",
				 WEXITSTATUS(t->wstatus));
		else
			snprintf(buf, n, "was killed (no end record in its log: "
				 "SIGKILL, pvm_kill or a lost daemon)");
	}
}

int la_tasks_report(const struct la_run *r)
{
	char end[256];
	int bad = 0;

	for (int i = 0; i < r->ntasks; i++) {
		const struct la_task *t = &r->tasks[i];

		if (t->done_how == PG_END_EXIT || t->handled ||
		    la_task_killed(t))
			continue;
		bad++;
		if (t->said)
			continue;
		la_task_end_text(t, end, sizeof(end));
		la_error("task %d (%s on %s) %s", t->ltid, t->program, t->host,
			 end);
	}
	return bad;
}

int la_tasks_failed(const struct la_run *r)
{
	int failed = 0;

	for (int i = 0; i < r->ntasks; i++) {
		const struct la_task *t = &r->tasks[i];
		int st = t->wstatus;

		if (t->done_how != PG_END_EXIT || !t->have_wstatus || st == 0)
			continue;
		failed++;
		if (WIFSIGNALED(st))
			la_note("task %d (%s on %s) left the run normally, then "
				"was killed by signal %d (%s)", t->ltid,
				t->program, t->host, WTERMSIG(st),
				strsignal(WTERMSIG(st)));
		else
			la_note("task %d (%s on %s) left the run normally, then "
				"exited with status %d", t->ltid, t->program,
				t->host, WEXITSTATUS(st));
	}
	return failed;
}

int la_tasks_lost_divergence(struct la_run *r)
{
	for (int i = 0; !r->diverged[0] && i < r->ntasks; i++) {
		struct la_task *t = &r->tasks[i];

		if (t->done_how != PG_END_DIVERGED)
			continue;
		snprintf(r->diverged, sizeof(r->diverged), "replay diverged: "
			 "task %d (%s on %s), event %d (its report was lost: "
			 "the task was killed before it could send it)",
			 t->ltid, t->program, t->host, t->done_value);
		la_error("%s", r->diverged);
		t->said = 1;
		return 1;
	}
	return 0;
}

void la_tasks_tidy(const struct la_run *r)
{
	for (int i = 0; i < r->ntasks; i++) {
		const struct la_task *t = &r->tasks[i];

		if (t->pid > 0 && strcmp(t->host, here_host()) == 0 &&
		    la_vm_process_gone(t->pid))
			pg_pvmtmp_clear_first(t->pid);
	}
}
