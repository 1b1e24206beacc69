/*
 * task0.c: the launcher as task 0 of its run.  It is no app task: it has
 * no handover and no communication log, only an execution log of the
 * programs it starts; but its spawns go through pangaea_pvm_spawn like
 * any task's, so that the programs get their ltids, handovers and, on
 * replay, their recorded hosts.
 */
#include "pangaea-internal.h"

#include <stdio.h>
#include <string.h>

int pg_task0_open(const struct pg_task0_config *c, char *err, size_t errlen)
{
	struct pg_self *me = pg_self_edit();
	int ctx;

	pg_clock_start();
	me->mode = c->mode;
	me->ltid = 0;
	me->mytid = me->launcher_tid = pvm_mytid();
	ctx = pvm_newcontext();
	if (me->mytid < 0 || ctx < 0) {
		snprintf(err, errlen, "cannot set up PVM (%s)",
			 pg_pvm_errtext(me->mytid < 0 ? me->mytid : ctx));
		me->mode = PANGAEA_MODE_OFF;
		return -1;
	}
	pg_proto_open(ctx);
	pg_pvm_bind();
	pg_delay_open(c->delay_us, c->seed, 0);
	pg_chaos_open(c->chaos && c->mode == PANGAEA_MODE_RECORD, c->seed, 0);
	snprintf(me->select, sizeof(me->select), "%s", c->select);
	snprintf(me->logdir, sizeof(me->logdir), "%s", c->logdir);
	snprintf(me->replaydir, sizeof(me->replaydir), "%s",
		 c->replaydir ? c->replaydir : "");
	snprintf(me->program, sizeof(me->program), "pangaea");
	pg_pvm_host_of(me->mytid, me->host, sizeof(me->host));
	if (pg_log_open(1, err, errlen) < 0 ||
	    (c->mode == PANGAEA_MODE_REPLAY &&
	     pg_replay_open(me->replaydir, 0, err, errlen) < 0)) {
		me->mode = PANGAEA_MODE_OFF;
		return -1;
	}
	return ctx;
}

void pg_task0_set_coordinator(int tid)
{
	pg_self_edit()->coord_tid = tid;
}

/* pg_task0_await_coordinator's */
static int (*coord_start)(void), (*coord_wait)(void);

void pg_task0_await_coordinator(int (*start)(void), int (*wait)(void))
{
	coord_start = start;
	coord_wait = wait;
}

void pg_task0_coordinator_ready(void (*calibrate)(void))
{
	int (*start)(void) = coord_start, (*wait)(void) = coord_wait, tid;

	if (!start || !wait)
		return;
	coord_start = NULL;
	coord_wait = NULL;
	if (start() < 0)
		return;
	calibrate();
	if ((tid = wait()) > 0)
		pg_task0_set_coordinator(tid);
}

static pg_task0_starter *starter;

void pg_task0_set_starter(pg_task0_starter *f)
{
	starter = f;
}

int pg_task0_spawn(char *file, char **argv, int flags, char *where,
		   int ntask, int *tids)
{
	if (starter && ntask == 1 &&
	    (!where || !*where || strcmp(where, pg_me->host) == 0))
		return starter(file, argv, ntask, tids);
	return pvm_spawn(file, argv, flags, where, ntask, tids);
}

const char *pg_task0_diverged(void)
{
	const char *report = pg_replay_report();

	return report[0] ? report : NULL;
}

void pg_task0_close(void)
{
	pg_log_end(PG_END_EXIT, 0);
	pg_replay_close();
}
