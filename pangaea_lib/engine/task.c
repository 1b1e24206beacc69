/*
 * task.c: how a task of the run ends, as the launcher must hear it: DONE
 * when it ends on its own (pg_task_end: pangaea_exit, and the wrapper of
 * the layer's own exit call), DIVERGED when its replay stops at a call
 * the recording does not have.
 */
#include "engine.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
				     SIGABRT, SIGTERM, SIGINT, SIGHUP,
				     SIGQUIT, SIGPIPE };

/* Writes the end record for a fatal signal, then dies of it.  Only
 * async-signal-safe work here: the end record goes into mapped space the
 * log reserved beforehand (pg_log_end_signal); no malloc, stdio or
 * message layer. */
static void on_signal(int sig)
{
	pg_log_end_signal(sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Notes a process exit that did not go through the task's end
 * (pg_task_end), with the status its parent sees (exit(-1) is 255). */
static void on_exit_hook(int status, void *arg)
{
	(void)arg;
	if (pg_me->mode && !pg_log_ended()) {
		pg_log_end(PG_END_NO_EXIT, status & 0377);
		pg_task_tell_done(PG_END_NO_EXIT, status & 0377);
	}
}

void pg_task_hooks(void)
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

void pg_task_tell_done(int how, int value)
{
	int v[3] = { pg_me->ltid, how, value };

	pg_bind->send_ints(pg_me->launcher_tid, PG_TAG_DONE, v);
}

int pg_task_diverged(void)
{
	const char *report = pg_replay_report();

	if (pg_me->ltid == 0)
		return pg_bind->err_sys; /* the launcher ends the run itself */
	pg_log_end(PG_END_DIVERGED, (int)pg_replay_position());
	if (pg_bind->send_diverged(pg_me->launcher_tid, pg_me->ltid,
				   report) < 0)
		fprintf(stderr, "pangaea: %s\n", report);
	pg_bind->leave();
	_exit(3);
}

int pg_task_end(void)
{
	struct pg_call call = { .ev = { .kind = PG_REC_END,
					.how = PG_END_EXIT } };
	int rc;

	if (!pg_me->mode || pg_log_ended())
		return 0;
	if (pg_me->mode == PANGAEA_MODE_REPLAY &&
	    pg_replay_expect(&call, NULL, NULL) == PG_REPLAY_DIVERGED)
		return pg_task_diverged();
	pg_timeline(NULL, "ends (pangaea_exit)");
	rc = pg_log_end(PG_END_EXIT, 0);
	pg_task_tell_done(PG_END_EXIT, 0);
	pg_replay_close();
	return rc < 0 ? pg_bind->err_sys : 0;
}
