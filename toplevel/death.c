/*
 * death.c: a task of the run that dies.  The launcher says at once which
 * task died and how, and ends the run unless a living task watches the
 * dead one (the app's pvm_notify(PvmTaskExit), told by WATCH): otherwise
 * the survivors would wait for it for ever.
 *
 * How a task died: its DONE (an exit without pangaea_exit), the end
 * record the library writes for the signals it catches, and, for what
 * no process can catch (SIGKILL) or a plain _exit, the wait status the
 * task's pvmd saw: PVM's trace event TEV_ENDTASK carries it
 * (TEV_DID_TST), and the launcher makes itself the trace destination of
 * the tasks it spawns (their children inherit it), in the run's context,
 * with only that event in the mask.  (PVM's own exit notify carries no
 * status, and its daemon logs none.)
 */
#include "launcher.h"

#include <libgen.h>
#include <pvmtev.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SETTLE_S 0.1  /* after PVM says a task is gone, wait this long for
			 its last messages (DONE, the trace event) ... */
#define GIVE_UP_S 1.0 /* ... and at most this long for the trace event */
#define TRACE_DIDS 16

/* The order of the values of TEV_ENDTASK, from its descriptor (each pvmd
 * sends the descriptor of an event kind once, then bare records). */
static int endtask_dids[TRACE_DIDS], endtask_types[TRACE_DIDS], endtask_n;

double la_death_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void la_death_trace_setup(const struct la_run *r)
{
	Pvmtmask mask;

	TEV_MASK_INIT(mask);
	TEV_MASK_SET(mask, TEV_ENDTASK);
	pvm_setopt(PvmTraceTid, pvm_mytid());
	pvm_setopt(PvmTraceCode, PG_TAG_ENDTASK);
	pvm_setopt(PvmTraceContext, r->ctx);
	pvm_setopt(PvmTraceBuffer, 0);
	pvm_setopt(PvmTraceOptions, PvmTraceFull); /* 0: libpvm complains */
	pvm_settmask(PvmTaskChild, mask);
}

void la_death_gone(struct la_run *r, struct la_task *t)
{
	int status;

	if (!t->have_wstatus && pg_imap_get(&r->early_ends, t->tid, &status)) {
		t->wstatus = status;
		t->have_wstatus = 1;
	}
	t->exited = 1;
	if (t->gone_at == 0)
		t->gone_at = la_death_now() - r->t0;
}

/* Skips a string of a trace message; 0 or -1. */
static int skip_str(void)
{
	char buf[256];
	int len;

	if (pvm_upkint(&len, 1, 1) < 0 || len < 0 || len > (int)sizeof(buf))
		return -1;
	return len > 0 && pvm_upkbyte(buf, len, 1) < 0 ? -1 : 0;
}

/* Reads one value of type TYPE into *V (ints; strings skipped); 0 or -1. */
static int upk_value(int type, int *v)
{
	*v = 0;
	if (type == TEV_DATA_INT)
		return pvm_upkint(v, 1, 1) < 0 ? -1 : 0;
	return type == TEV_DATA_STRING ? skip_str() : -1;
}

void la_death_ended(struct la_run *r, int tid, int status)
{
	struct la_task *t = la_task_by_tid(r, tid);

	if (!t) { /* its SPAWNED is still on its way: its EXITED will follow */
		pg_imap_put(&r->early_ends, tid, status);
		return;
	}
	t->wstatus = status;
	t->have_wstatus = 1;
	la_death_gone(r, t);
}

/* Reads a descriptor (TEV_MARK_EVENT_DESC) of event EID; 0 or -1. */
static int read_desc(struct la_run *r, int eid)
{
	int did, type, v, tid = 0, st = -1, n = 0;

	if (skip_str() < 0)
		return -1;
	while (pvm_upkint(&did, 1, 1) >= 0 && did != TEV_MARK_EVENT_DESC_END) {
		if (pvm_upkint(&type, 1, 1) < 0 || upk_value(type, &v) < 0)
			return -1;
		if (eid == TEV_ENDTASK && n < TRACE_DIDS) {
			endtask_dids[n] = did;
			endtask_types[n++] = type;
		}
		tid = did == TEV_DID_TID ? v : tid;
		st = did == TEV_DID_TST ? v : st;
	}
	if (eid != TEV_ENDTASK)
		return 0;
	endtask_n = n;
	if (tid && st >= 0)
		la_death_ended(r, tid, st);
	return 0;
}

/* Reads a record (TEV_MARK_EVENT_RECORD) of event EID; 0 or -1. */
static int read_record(struct la_run *r, int eid)
{
	int v, tid = 0, st = -1;

	if (eid != TEV_ENDTASK || endtask_n == 0)
		return -1; /* not ours, or its layout unknown */
	for (int i = 0; i < endtask_n; i++) {
		if (upk_value(endtask_types[i], &v) < 0)
			return -1;
		tid = endtask_dids[i] == TEV_DID_TID ? v : tid;
		st = endtask_dids[i] == TEV_DID_TST ? v : st;
	}
	if (tid && st >= 0)
		la_death_ended(r, tid, st);
	return 0;
}

void la_death_trace(struct la_run *r)
{
	int mark, eid;

	/* one event a message (the tasks' trace buffering is 0), after a
	   first message of data ids that is skipped */
	while (pvm_upkint(&mark, 1, 1) >= 0) {
		if (mark != TEV_MARK_EVENT_DESC && mark != TEV_MARK_EVENT_RECORD)
			return;
		if (pvm_upkint(&eid, 1, 1) < 0)
			return;
		if ((mark == TEV_MARK_EVENT_DESC ? read_desc(r, eid)
						 : read_record(r, eid)) < 0)
			return;
		if (mark == TEV_MARK_EVENT_RECORD &&
		    (pvm_upkint(&mark, 1, 1) < 0 ||
		     mark != TEV_MARK_EVENT_RECORD_END))
			return;
	}
}

void la_death_watch(struct la_run *r)
{
	int ltid, msgtag, cancel, n, *tids;
	struct la_watch *w;

	if (pg_proto_upk_watch(&ltid, &msgtag, &cancel, &tids, &n) < 0)
		return;
	for (int i = 0; cancel && i < n; i++)
		/* PVM cancels the watcher's notifies of that tid with that tag */
		for (size_t j = r->nwatches; j-- > 0;)
			if (r->watches[j].tid == tids[i] &&
			    r->watches[j].watcher == ltid &&
			    r->watches[j].msgtag == msgtag)
				r->watches[j] = r->watches[--r->nwatches];
	for (int i = 0; !cancel && i < n; i++) {
		w = pg_grow(r->watches, &r->wcap, r->nwatches + 1, sizeof(*w), 16);
		if (!w)
			break;
		r->watches = w;
		r->watches[r->nwatches++] = (struct la_watch){ tids[i], ltid,
								     msgtag };
	}
	free(tids);
}

/* The ltid of a task that watches T and outlived it, or -1. */
static int watcher_of(struct la_run *r, const struct la_task *t)
{
	for (size_t i = 0; i < r->nwatches; i++) {
		struct la_task *w = la_task_by_ltid(r, r->watches[i].watcher);

		if (r->watches[i].tid == t->tid && w &&
		    (!w->exited || w->gone_at > t->gone_at))
			return w->ltid;
	}
	return -1;
}

/* Fills in how T ended from its log, if the launcher has not heard it
 * (its wait status, when known, stays apart: run.info's end kinds say
 * what the log holds). */
static void settle(struct la_run *r, struct la_task *t)
{
	if (t->done_how == 0)
		la_task_settle(t, r->logdir);
}

/* Says how T died (la_task_end_text's words, as the final report would). */
static void say_death(struct la_task *t)
{
	char prog[PG_PATH_MAX], end[256];

	snprintf(prog, sizeof(prog), "%s", t->program);
	la_task_end_text(t, end, sizeof(end));
	la_error("task %d (%s on %s) %s at %.2f s", t->ltid, basename(prog),
		 t->host, end, t->gone_at);
	t->said = 1;
}

/* Says that T was killed by another task of the run (pvm_kill): no
 * failure of the run, which goes on. */
static void say_killed(struct la_run *r, struct la_task *t)
{
	char prog[PG_PATH_MAX], end[256];

	snprintf(prog, sizeof(prog), "%s", t->program);
	la_task_end_text(t, end, sizeof(end));
	la_say(r->o, "task %d (%s on %s) %s at %.2f s", t->ltid,
	       basename(prog), t->host, end, t->gone_at);
	t->said = 1;
	t->handled = 1;
}

/* Says that T ran without Pangaea (no log: a program built otherwise, or
 * one LD_PRELOAD did not reach).  The run goes on; the recording is
 * incomplete, which the exit status says (la_tasks_report). */
static void say_uninstrumented(struct la_task *t)
{
	char prog[PG_PATH_MAX], end[256];

	snprintf(prog, sizeof(prog), "%s", t->program);
	la_task_end_text(t, end, sizeof(end));
	la_error("task %d (%s on %s) %s", t->ltid, basename(prog), t->host, end);
	t->said = 1;
}

/* Whether T ended otherwise than through pangaea_exit or a divergence
 * (said by its DIVERGED), once its end is settled. */
static int died(struct la_run *r, struct la_task *t)
{
	settle(r, t);
	t->checked = 1;
	return t->done_how != PG_END_EXIT && t->done_how != PG_END_DIVERGED;
}

/* Stops the run for the death of T (saying so if tasks still run): also
 * says the deaths of the tasks already gone with it (killed together),
 * then kills the others. */
static void stop_run(struct la_run *r, const struct la_task *t)
{
	char prog[PG_PATH_MAX], end[256];

	snprintf(prog, sizeof(prog), "%s", t->program);
	la_task_end_text(t, end, sizeof(end));
	if (!r->stopped_by[0])
		snprintf(r->stopped_by, sizeof(r->stopped_by),
			 "task %d (%s on %s) %s", t->ltid, basename(prog),
			 t->host, end);
	if (!la_tasks_all_exited(r, 0))
		la_error("no task of the run watches task %d (pvm_notify): "
			 "stopping the run", t->ltid);
	for (int i = 0; i < r->ntasks; i++) {
		struct la_task *u = &r->tasks[i];

		if (!u->exited || u->checked || u->gone_at == 0 || !died(r, u))
			continue;
		if (la_task_killed(u))
			say_killed(r, u);
		else if (u->uninstrumented)
			say_uninstrumented(u);
		else
			say_death(u);
	}
	r->died = 1;
	la_tasks_kill(r);
}

/* la_death_check and la_death_finish: FINAL looks at every gone task
 * at once, without waiting for its last messages. */
static int check(struct la_run *r, int final)
{
	double now = la_death_now() - r->t0;
	int watcher;

	/* (a run the launcher stopped: its tasks' deaths are its doing) */
	if (r->died || r->diverged[0] || r->lost_pvmd || r->logfail)
		return 0;
	for (int i = 0; i < r->ntasks; i++) {
		struct la_task *t = &r->tasks[i];
		double waited = now - t->gone_at;

		if (!t->exited || t->checked || t->gone_at == 0)
			continue;
		if (!final && (waited < SETTLE_S ||
			       (!t->have_wstatus && waited < GIVE_UP_S)))
			continue;
		if (!died(r, t))
			continue;
		if (la_task_killed(t)) {
			say_killed(r, t);
			continue;
		}
		if (t->uninstrumented) {
			say_uninstrumented(t);
			continue;
		}
		say_death(t);
		if ((watcher = watcher_of(r, t)) < 0) {
			stop_run(r, t);
			return 1;
		}
		t->handled = 1;
		la_say(r->o, "task %d watches task %d (pvm_notify): the run goes on",
		       watcher, t->ltid);
	}
	return 0;
}

int la_death_check(struct la_run *r)
{
	return check(r, 0);
}

int la_death_awaited(const struct la_run *r)
{
	double now = la_death_now() - r->t0;

	for (int i = 0; i < r->ntasks; i++) {
		const struct la_task *t = &r->tasks[i];

		if (t->exited && !t->done_how && !t->have_wstatus &&
		    t->gone_at > 0 && now - t->gone_at < GIVE_UP_S)
			return 1;
	}
	return 0;
}

int la_death_lingering(struct la_run *r)
{
	double now = la_death_now() - r->t0;

	for (int i = 0; i < r->ntasks; i++) {
		struct la_task *t = &r->tasks[i];

		if (!t->exited || t->done_how != PG_END_EXIT ||
		    t->have_wstatus || t->gone_at == 0)
			continue;
		if (t->pid > 0 && t->proc_gone_at == 0) { /* (on this host) */
			if (!la_vm_process_gone(t->pid))
				return 1;
			t->proc_gone_at = now;
		}
		if (now - (t->proc_gone_at > 0 ? t->proc_gone_at : t->gone_at) <
		    GIVE_UP_S)
			return 1;
	}
	return 0;
}

void la_death_finish(struct la_run *r)
{
	check(r, 1);
}
