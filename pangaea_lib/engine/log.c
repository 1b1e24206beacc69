/*
 * log.c: writing this task's two logs (logs/format/commlog.c, logs/format/execlog.c):
 * every event into the communication log, with the failed polls counted
 * and written as one record before the next event, every spawn into the
 * execution log, and the end record once.  A live viewer gets each event
 * as it is logged (live.c).
 *
 * A failed write (disk full, ...) is never ignored: the first one stops
 * this task's logging for good (no record after a gap, not even the end
 * record, so the log does not pass for complete), closes the logs with
 * what they hold, and tells the launcher (PG_TAG_LOGFAIL), which ends the
 * run.  The crash path (pg_log_end_signal) writes only into mapped space
 * reserved beforehand.
 */
#include "engine.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct pg_comm_writer comm = { .fd = -1 };
static int exec_fd = -1;
static volatile uint32_t poll_fails;   /* failed polls not yet written */
static volatile int poll_filter;       /* their filters' PG_FILTER_* */
static volatile sig_atomic_t ended;    /* the end record is written */
static int log_errno;                  /* the first failed write's errno */
static int values_only;                /* the end record is written and the
					  comm log stays open for the clock
					  reads and seeds that follow it */

/* Closes the execution log; 0, or an errno. */
static int log_close_exec(void)
{
	int e = 0;

	if (exec_fd >= 0 && close(exec_fd) < 0)
		e = errno;
	exec_fd = -1;
	return e;
}

/* Closes both logs, keeping what they hold; 0, or an errno. */
static int log_close(void)
{
	int e = 0, x;

	if (comm.fd >= 0 && pg_comm_close(&comm) < 0)
		e = errno;
	x = log_close_exec();
	return e ? e : x;
}

/* At the process's exit: closes the comm log kept open after its end
 * record for the reads that follow (values_only).  A failed trim leaves
 * a zero tail, which every reader takes as the end: the log is whole, and
 * nobody is left to tell. */
static void log_close_at_exit(void)
{
	if (values_only && comm.fd >= 0)
		pg_comm_close(&comm);
}

/* After a failed write (errno E): stops logging and tells the launcher
 * (once). */
static void log_failed(int e)
{
	int v[2] = { pg_me->ltid, e ? e : EIO };

	if (log_errno)
		return;
	log_errno = v[1];
	log_close();
	if (pg_me->launcher_tid > 0)
		pg_bind->send_ints(pg_me->launcher_tid, PG_TAG_LOGFAIL, v);
}

/* Takes a clock sample and writes it into the comm log (clocksample.c). */
static void log_clock(void)
{
	struct pg_clock_sample s;

	if (comm.fd < 0 || comm.map == NULL || !pg_clocksample_take(&s))
		return;
	if (pg_comm_append_clock(&comm, &s) < 0)
		log_failed(errno);
}

int pg_log_open(int exec_only, char *err, size_t errlen)
{
	struct pg_comm_header h = { 0 };
	char path[PG_PATH_MAX];

	/* a task on another host than the launcher's makes its own folder */
	if (pg_log_dir_make(pg_me->logdir, err, errlen) < 0)
		goto failed;
	if (!exec_only) {
		h.ltid = pg_me->ltid;
		h.tid = pg_me->mytid;
		h.parent_ltid = pg_me->parent_ltid;
		h.mode = (uint32_t)pg_me->mode;
		h.start_wall_ns = pg_clock_start_wall(); /* one time base */
		h.start_mono_ns = pg_clock_start_mono();
		snprintf(h.host, sizeof(h.host), "%s", pg_me->host);
		snprintf(h.program, sizeof(h.program), "%s", pg_me->program);
		snprintf(h.select, sizeof(h.select), "%s", pg_me->select);
		h.time_unit = PG_COMM_TIME_UNIT;
		if (pg_log_path(path, sizeof(path), pg_me->logdir, pg_me->ltid,
				"comm") < 0 ||
		    pg_comm_create(&comm, path, &h, err, errlen) < 0)
			goto failed;
	}
	if (pg_log_path(path, sizeof(path), pg_me->logdir, pg_me->ltid,
			"exec") < 0) {
		snprintf(err, errlen, "log folder path too long: %s",
			 pg_me->logdir);
		errno = ENAMETOOLONG;
		goto failed;
	}
	exec_fd = pg_exec_create(path, pg_me->ltid, err, errlen);
	if (exec_fd >= 0) {
		atexit(log_close_at_exit);
		if (comm.fd >= 0 && pg_comm_append_calib(&comm,
							 pg_calib_measure()) < 0)
			goto failed;
		/* (the first clock sample: where the task first waits,
		   pg_log_idle) */
		return 0;
	}
	/* (its comm log goes too: no reader takes one without its exec
	   log, and a task whose logs could not be made has none) */
	if (!exec_only && pg_log_path(path, sizeof(path), pg_me->logdir,
				      pg_me->ltid, "comm") == 0)
		unlink(path);
failed:
	log_failed(errno);
	return -1;
}

/* Writes the failed polls counted so far as one record at T (the time
 * of the event that follows them); 0, or -1 if that failed.  Apart from
 * pg_log: its event's frame is not set up on pg_log's path. */
static __attribute__((noinline)) int log_poll_fails(uint64_t t)
{
	struct pg_event f = { .kind = PG_REC_POLLFAIL, .count = poll_fails,
			      .t = t, .filter = poll_filter };

	poll_fails = 0;
	poll_filter = 0;
	pg_log(&f);
	return log_errno ? -1 : 0;
}

void pg_log(struct pg_event *ev)
{
	if (comm.fd < 0 || comm.map == NULL || values_only)
		return;
	if (poll_fails && ev->kind != PG_REC_POLLFAIL &&
	    log_poll_fails(ev->t) < 0)
		return;
	if (pg_comm_append(&comm, ev) < 0) {
		log_failed(errno);
		return;
	}
	pg_live_event(ev);
	if (pg_clocksample_due(ev->t))
		log_clock();
}

void pg_log_idle(void)
{
	if (comm.fd >= 0 && comm.map != NULL && pg_clocksample_first_due())
		log_clock();
}

void pg_log_value(const struct pg_value *v)
{
	if (comm.fd < 0 || comm.map == NULL)
		return;
	if (pg_comm_append_value(&comm, v) < 0)
		log_failed(errno);
}

void pg_log_recv(int kind, int filter, const struct pg_msginfo *mi,
		 uint64_t t0)
{
	/* (its other fields stay 0: no clearing per call) */
	static struct pg_event ev;

	ev.kind = kind;
	ev.t = t0;
	ev.filter = filter;
	ev.peer = mi->peer;
	ev.msgid = mi->msgid;
	ev.tag = mi->tag;
	ev.len = mi->len;
	ev.dur = pg_now() - t0;
	pg_log(&ev);
}

void pg_log_pollfail(int filter)
{
	poll_fails++;
	poll_filter |= filter;
}

void pg_log_spawn(const struct pg_spawn_rec *rec)
{
	if (exec_fd >= 0 && pg_exec_append(exec_fd, rec) < 0)
		log_failed(errno);
}

int pg_log_end(int how, int value)
{
	struct pg_event ev = { .kind = PG_REC_END, .how = how, .value = value };
	int e;

	if (ended)
		return log_errno ? -1 : 0;
	ended = 1;
	if (pg_clocksample_end_due(pg_now()))
		log_clock(); /* the clock at the end */
	ev.t = pg_now();
	pg_log(&ev);
	if (how == PG_END_EXIT)
		pg_live_flush();
	/* a task that ends its part but runs on (a report printed after
	   pvm_exit) may still read the clock: those reads follow the end
	   record, the comm log closed at the exit (log_close_at_exit) */
	values_only = how == PG_END_EXIT || how == PG_END_NO_EXIT;
	if ((e = values_only ? log_close_exec() : log_close()))
		log_failed(e);
	return log_errno ? -1 : 0;
}

/*
 * Async-signal-safe (called from the fatal signal handler): no malloc,
 * no stdio, no PVM, no live forwarding; the pending poll count and the
 * end record go into the space pg_comm_append keeps spare in the
 * mapping, then the file is trimmed.  The mapping and the descriptor are
 * left to the process's death.
 */
void pg_log_end_signal(int sig)
{
	struct pg_event ev = { .kind = PG_REC_END, .how = PG_END_SIGNAL,
			       .value = sig };

	if (ended || log_errno)
		return;
	ended = 1;
	ev.t = pg_now();
	if (poll_fails) {
		struct pg_event f = { .kind = PG_REC_POLLFAIL,
				      .count = poll_fails, .t = ev.t,
				      .filter = poll_filter };

		pg_comm_append_reserved(&comm, &f);
	}
	pg_comm_append_reserved(&comm, &ev);
	pg_comm_trim_reserved(&comm);
}

int pg_log_ended(void)
{
	return ended;
}
