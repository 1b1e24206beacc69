/*
 * deadlock.c: telling a deadlocked run.  Every task publishes the
 * blocking call it is in, in its state file LOGDIR/task-LTID.state
 * (pangaea_lib/engine/state.c; struct pg_state): no message is sent for it.
 * While the launcher waits for the run, it reads those files now and
 * then, and the rules of logs/analysis/deadlock.c judge them: which tasks
 * are stuck, whether every live one is, or (in replay) stuck tasks wait
 * round a circle for messages no live task will send.  The run's traffic
 * they ask to be quiet is here the I/O counters of this host's pvmd and
 * of the run's tasks here (a long message in transit moves them; so does
 * any other task talking: a circle of replay waits is then told once the
 * rest of the run is quiet).
 *
 * A stopped process (SIGSTOP: /proc/PID/stat says 'T') is not blocked: a
 * stopped task of this host is never stuck, and a stopped pvmd here
 * counts as traffic.  Before a deadlock is called, the comm logs are
 * read: a stuck task that a message sent to it and not yet received
 * would wake will get it (pg_deadlock_pending), and the run is then
 * counted as busy, looked at again after another quiet period.
 *
 * Then it prints the report (each task, its call, since when, its last
 * event, read from its comm log) and ends the run with exit 3, unless
 * -no-deadlock-stop.  A task whose file cannot be read here (not started
 * yet, another host without a shared log folder) is never called stuck.
 */
#include "launcher.h"
#include "deadlock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

_Static_assert(PG_CALL_MAX <= PG_STATE_COLLECT,
	       "the state's collective calls overlap pg_call_of's");

#define DL_EVERY_NS 250000000ull  /* between two looks */

static struct {
	struct pg_deadlock_task *t; /* one per task of the run's table */
	size_t cap;
	int n;                    /* of them filled in */
	uint64_t last_look;
	uint64_t io, io_changed_ns; /* the I/O counters' sum, when it moved */
	char here[PG_HOST_MAX];   /* this host, as PVM names it */
	int reported;
} dl;

/* CLOCK_MONOTONIC now, in ns (the tasks' states use the same clock). */
static uint64_t dl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Bytes process PID has read and written so far (/proc/PID/io), or 0. */
static uint64_t dl_io_of(pid_t pid)
{
	char path[64], line[128];
	unsigned long long v, sum = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	if (pid <= 0 || !(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "rchar: %llu", &v) == 1 ||
		    sscanf(line, "wchar: %llu", &v) == 1)
			sum += v;
	fclose(f);
	return sum;
}

/* Whether process PID is stopped (state T, or t: traced and stopped). */
static int dl_stopped(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t k;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (pid <= 0 || !(f = fopen(path, "re")))
		return 0;
	k = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[k] = '\0';
	/* (the state follows the command's closing bracket) */
	if (!(p = strrchr(buf, ')')) || p[1] != ' ')
		return 0;
	return p[2] == 'T' || p[2] == 't';
}

/* Whether task T of the run is still live (not exited, no DONE). */
static int dl_live(const struct la_task *t)
{
	return !t->exited && !t->done_how;
}

/* Notes when the I/O counters of this host's pvmd and of the run's live
 * tasks on this host last moved: a message still in transit (a long one,
 * through the daemon or straight) moves them, a deadlock does not. */
static void dl_io_look(struct la_run *r, uint64_t now)
{
	uint64_t io;

	if (!dl.here[0])
		pg_pvm_host_of(pvm_mytid(), dl.here, sizeof(dl.here));
	io = dl_io_of(r->pvmd_pid);
	for (int i = 0; i < r->ntasks; i++)
		if (dl_live(&r->tasks[i]) &&
		    strcmp(r->tasks[i].host, dl.here) == 0)
			io += dl_io_of(r->tasks[i].pid);
	/* (a stopped pvmd holds the messages it has: as if they moved) */
	if (io != dl.io || !dl.io_changed_ns || dl_stopped(r->pvmd_pid))
		dl.io_changed_ns = now;
	dl.io = io;
}

/* Looks at every live task's state; the verdict of the rules
 * (pg_deadlock_judge). */
static int dl_look(struct la_run *r, uint64_t now)
{
	struct pg_deadlock_task *v;
	int verdict;

	if (!(v = pg_grow(dl.t, &dl.cap, (size_t)r->ntasks + 1, sizeof(*v), 16)))
		return PG_DEADLOCK_NONE;
	dl.t = v;
	if (dl.n < r->ntasks) /* tasks new since the last look */
		memset(&dl.t[dl.n], 0, (size_t)(r->ntasks - dl.n) * sizeof(*v));
	dl.n = r->ntasks;
	dl_io_look(r, now);
	for (int i = 0; i < r->ntasks; i++) {
		struct pg_deadlock_task *d = &dl.t[i];
		struct pg_state st;
		int have;

		const struct la_task *x;

		d->ltid = r->tasks[i].ltid;
		d->ended = !dl_live(&r->tasks[i]);
		if (d->ended)
			continue;
		d->stopped = strcmp(r->tasks[i].host, dl.here) == 0 &&
			     dl_stopped(r->tasks[i].pid);
		/* the run's log folder: task 0's, as every task's of the run */
		have = pg_state_read(pg_me->logdir, r->tasks[i].ltid, &st);
		pg_deadlock_note(d, have, &st, now);
		d->src = !have || st.src == -1 ? -1
			 : (x = la_task_by_tid(r, st.src)) ? x->ltid : -2;
	}
	verdict = pg_deadlock_judge(dl.t, r->ntasks, now, dl.io_changed_ns);
	/* messages sent to a stuck task, not yet received: in flight */
	if (verdict != PG_DEADLOCK_NONE &&
	    pg_deadlock_pending(dl.t, r->ntasks, pg_me->logdir) > 0) {
		dl.io_changed_ns = now;
		verdict = PG_DEADLOCK_NONE;
	}
	return verdict;
}

/* The last event of task LTID's comm log, in words, into BUF. */
static void dl_last_event(int ltid, char *buf, size_t n)
{
	char err[PG_PATH_MAX + 100], d[256];
	struct pg_comm_reader rd;
	struct pg_event ev, last = { 0 };
	int *dests = NULL;
	size_t cap = 0;
	long k = 0;

	snprintf(buf, n, "no event yet");
	if (pg_run_comm(&rd, pg_me->logdir, ltid, err, sizeof(err)) < 0)
		return;
	while (pg_comm_next(&rd, &ev, err, sizeof(err)) > 0) {
		/* (a multicast's destinations are the reader's only until
		   the next event: the last one's are kept in DESTS) */
		int *v = ev.ndest > 0 ? pg_grow(dests, &cap, (size_t)ev.ndest,
						 sizeof(int), 16) : NULL;

		last = ev;
		last.dests = NULL;
		if (v) {
			dests = v;
			memcpy(dests, ev.dests, (size_t)ev.ndest * sizeof(int));
			last.dests = dests;
		} else {
			last.ndest = 0; /* none, or no memory: said without */
		}
		k++;
	}
	if (k) {
		pg_event_describe(&pg_names_pvm, &last, d, sizeof(d));
		snprintf(buf, n, "last event #%ld %s", k, d);
	}
	free(dests);
	pg_comm_free(&rd);
}

/* Task T's blocking call, from its state ST, in words into BUF. */
static void dl_call(struct la_run *r, const struct pg_state *st, char *buf,
		    size_t n)
{
	char name[64], src[64], tag[32];
	struct la_task *x;

	static const char *const collect[] = { "pvm_reduce", "pvm_gather",
					       "pvm_scatter" };

	if (st->call > PG_STATE_COLLECT && st->call <= PG_STATE_COLLECT + 3)
		snprintf(name, sizeof(name), "%s",
			 collect[st->call - PG_STATE_COLLECT - 1]);
	else if (!pg_call_name(&pg_names_pvm, st->call, name, sizeof(name)))
		snprintf(name, sizeof(name), "call %d", st->call);
	if (st->call == PG_CALL_GROUP + PG_GROUP_BARRIER) {
		snprintf(buf, n, "%s(\"%.63s\", %d)", name, st->group, st->tag);
		return;
	}
	if (st->src == -1)
		snprintf(src, sizeof(src), "any");
	else if ((x = la_task_by_tid(r, st->src)))
		snprintf(src, sizeof(src), "task %d", x->ltid);
	else
		snprintf(src, sizeof(src), "t%x", (unsigned)st->src);
	if (st->tag == -1)
		snprintf(tag, sizeof(tag), "any");
	else
		snprintf(tag, sizeof(tag), "%d", st->tag);
	snprintf(buf, n, "%s(from %s, tag %s)", name, src, tag);
}

/* Prints the report line of stuck task I. */
static void dl_report_task(struct la_run *r, int i)
{
	const struct la_task *t = &r->tasks[i];
	const struct pg_deadlock_task *d = &dl.t[i];
	const struct pg_state *st = &d->st;
	char call[400], last[400], want[200] = "";

	dl_call(r, st, call, sizeof(call));
	dl_last_event(t->ltid, last, sizeof(last));
	if (st->want)
		snprintf(want, sizeof(want), ", waiting for message %u of task "
			 "%d (%s)", st->want_msgid, st->want_src,
			 d->want_at < 0 ? "unknown" : dl.t[d->want_at].ended ?
			 "ended" : dl.t[d->want_at].stuck ? "blocked" : "running");
	fprintf(stderr, "  task %d (%s on %s) in %s since %.2f s%s, %s\n",
		t->ltid, t->program, t->host, call, (double)st->since_t / 1e9,
		want, last);
}

void la_deadlock_check(struct la_run *r)
{
	uint64_t now = dl_now();
	int verdict, all;

	if (dl.reported || r->diverged[0] || r->died || r->lost_host ||
	    now - dl.last_look < DL_EVERY_NS)
		return;
	dl.last_look = now;
	if ((verdict = dl_look(r, now)) == PG_DEADLOCK_NONE)
		return;
	all = verdict == PG_DEADLOCK_ALL;
	dl.reported = 1;
	la_error(all ? "deadlock: every task is blocked:" :
		 "deadlock: tasks wait for messages that no live task will send:");
	for (int i = 0; i < r->ntasks; i++)
		if (dl.t[i].stuck && (all || dl.t[i].forever))
			dl_report_task(r, i);
	if (r->o->no_deadlock_stop) {
		la_say(r->o, "-no-deadlock-stop: the run waits on (^C ends it)");
		return;
	}
	snprintf(r->diverged, sizeof(r->diverged), "deadlock: %s",
		 all ? "every task of the run was blocked"
		     : "tasks waited for messages no live task would send");
	la_tasks_kill(r);
}
