/*
 * init.c: joining and leaving a run.  A task started by the launcher (or
 * by a task of its run) finds PANGAEA_CONTEXT in its environment, receives
 * its handover from its parent, registers with the coordinator and opens
 * its logs.  Without that variable the task runs as plain PVM.
 */
#include "pangaea-internal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct pg_state pg = { .exec_fd = -1, .comm = { .fd = -1 } };

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
				     SIGABRT, SIGTERM, SIGINT, SIGHUP,
				     SIGQUIT, SIGPIPE };

/* Writes the end record for a fatal signal, then dies of it. */
static void on_signal(int sig)
{
	pg_log_end(PG_END_SIGNAL, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Notes a process exit that did not go through pangaea_exit(). */
static void on_exit_hook(int status, void *arg)
{
	(void)arg;
	if (pg.mode && !pg.ended) {
		pg_log_end(PG_END_NO_EXIT, status);
		pg_tell_done(PG_END_NO_EXIT, status);
	}
}

/* Installs the hooks that leave an end record however the task ends. */
static void install_hooks(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(int); i++)
		sigaction(fatal_signals[i], &sa, NULL);
	on_exit(on_exit_hook, NULL);
}

/* Receives the handover from the parent; 0 or -1 with ERR filled. */
static int receive_handover(char *err, size_t errlen)
{
	struct pg_chan_saved saved;
	int v[6], rc = -1;

	pg_chan_enter(&saved);
	if (pg_chan_trecv(pg.parent_tid, PG_TAG_HANDOVER, 60) > 0 &&
	    pvm_upkint(v, 6, 1) >= 0 &&
	    pg_upkstr(pg.logdir, sizeof(pg.logdir)) >= 0 &&
	    pg_upkstr(pg.replaydir, sizeof(pg.replaydir)) >= 0 &&
	    pg_upkstr(pg.select, sizeof(pg.select)) >= 0)
		rc = 0;
	pg_chan_leave(&saved);
	if (rc < 0) {
		snprintf(err, errlen, "no handover from the parent task t%x",
			 pg.parent_tid);
		return -1;
	}
	pg.ltid = v[0];
	pg.mode = v[1];
	pg.coord_tid = v[2];
	pg.launcher_tid = v[3];
	pg.flags = v[4];
	pg.delay_us = v[5];
	pg.parent_ltid = pg.ltid / PG_LTID_FANOUT;
	if (pg_select_parse(pg.select, &pg.sel, err, errlen) < 0)
		return -1;
	return 0;
}

/* Registers with the coordinator and waits for its ack; 0 or -1. */
static int register_task(void)
{
	struct pg_chan_saved saved;
	int v[2] = { pg.ltid, pg.mytid }, status = -1;

	pg_chan_enter(&saved);
	if (pg_chan_initsend() >= 0 && pvm_pkint(v, 2, 1) >= 0 &&
	    pg_chan_send(pg.coord_tid, PG_TAG_REGISTER) >= 0 &&
	    pg_chan_recv(pg.coord_tid, PG_TAG_ACK) > 0)
		pvm_upkint(&status, 1, 1);
	pg_chan_leave(&saved);
	return status;
}

/* Creates this task's log files; 0 or -1 with ERR filled. */
static int open_logs(char *err, size_t errlen)
{
	struct pg_comm_header h = { 0 };
	char path[PG_PATH_MAX];

	h.ltid = pg.ltid;
	h.tid = pg.mytid;
	h.parent_ltid = pg.parent_ltid;
	h.mode = (uint32_t)pg.mode;
	h.start_wall_ns = pg.start_wall; /* read with start_mono: one time base */
	h.start_mono_ns = pg.start_mono;
	snprintf(h.host, sizeof(h.host), "%s", pg.host);
	snprintf(h.program, sizeof(h.program), "%s", pg.program);
	snprintf(h.select, sizeof(h.select), "%s", pg.select);
	if (pg_log_path(path, sizeof(path), pg.logdir, pg.ltid, "comm") < 0 ||
	    pg_comm_create(&pg.comm, path, &h, err, errlen) < 0)
		return -1;
	if (pg_log_path(path, sizeof(path), pg.logdir, pg.ltid, "exec") < 0)
		return -1;
	pg.exec_fd = pg_exec_create(path, pg.ltid, err, errlen);
	return pg.exec_fd < 0 ? -1 : 0;
}

int pg_state_open(char *err, size_t errlen)
{
	const char *ctx = getenv(PG_ENV_CONTEXT);
	struct timespec ts;
	ssize_t n;

	if (!ctx || !*ctx)
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	pg.start_wall = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	pg.start_mono = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	pg.ctx = atoi(ctx);
	pg_pvmtmp_clear_own(); /* before libpvm picks its file names */
	pg.mytid = pvm_mytid();
	if (pg.mytid < 0) {
		snprintf(err, errlen, "cannot reach the PVM daemon (%d)", pg.mytid);
		return -1;
	}
	pg.parent_tid = pvm_parent();
	n = readlink("/proc/self/exe", pg.program, sizeof(pg.program) - 1);
	pg.program[n > 0 ? n : 0] = '\0';
	pg_host_of(pg.mytid, pg.host, sizeof(pg.host));
	if (receive_handover(err, errlen) < 0)
		return -1;
	pg.task_selected = pg_select_task(&pg.sel, pg.ltid, pg.program);
	pg.rng = (unsigned)pg.mytid ^ (unsigned)ts.tv_nsec;
	pg_ids_add(&pg.ids, pg.mytid, pg.ltid);
	pg_ids_add(&pg.ids, pg.parent_tid, pg.parent_ltid);
	if (register_task() < 0) {
		snprintf(err, errlen, "the coordinator t%x did not answer",
			 pg.coord_tid);
		return -1;
	}
	if (open_logs(err, errlen) < 0)
		return -1;
	if (pg.mode == PANGAEA_MODE_REPLAY && pg_replay_open(err, errlen) < 0)
		pg_diverge("%s", err);
	install_hooks();
	return 0;
}

int pangaea_init(int *argc, char ***argv)
{
	char err[1024];

	(void)argc;
	(void)argv;
	if (pg.mode)
		return 0;
	if (pg_state_open(err, sizeof(err)) < 0) {
		pg.mode = PANGAEA_MODE_OFF;
		fprintf(stderr, "pangaea: task t%x: %s\n", pg.mytid, err);
		return PvmSysErr;
	}
	return 0;
}

void pg_tell_done(int how, int value)
{
	struct pg_chan_saved saved;
	int v[3] = { pg.ltid, how, value };

	pg_chan_enter(&saved);
	if (pg_chan_initsend() >= 0 && pvm_pkint(v, 3, 1) >= 0)
		pg_chan_send(pg.launcher_tid, PG_TAG_DONE);
	pg_chan_leave(&saved);
}

int pangaea_exit(void)
{
	struct pg_event want;

	if (!pg.mode || pg.ended)
		return 0;
	if (pg.mode == PANGAEA_MODE_REPLAY) {
		char w[256];

		if (!pg_replay_peek(&want))
			pg_diverge("the recording ends here without an end record "
				   "(the recorded task was killed); the program "
				   "called pangaea_exit()");
		if (!(want.kind == PG_REC_END && want.how == PG_END_EXIT)) {
			pg_event_describe(&want, w, sizeof(w));
			pg_diverge("the log expects %s; the program called "
				   "pangaea_exit()", w);
		}
		pg_replay_take();
	}
	pg_log_end(PG_END_EXIT, 0);
	pg_tell_done(PG_END_EXIT, 0);
	pg_comm_free(&pg.rlog);
	pg_exec_free(&pg.rexec);
	return 0;
}

int pangaea_ltid(void)
{
	return pg.mode ? pg.ltid : -1;
}

int pangaea_mode(void)
{
	return pg.mode;
}
