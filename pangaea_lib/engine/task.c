/*
 * task.c: how a task of the run ends, as the launcher must hear it: DONE
 * when it ends on its own (pg_task_end: pangaea_exit, and the wrapper of
 * the layer's own exit call), DIVERGED when its replay stops at a call
 * the recording does not have.
 */
#include "engine.h"

#include <stdio.h>
#include <unistd.h>

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
