/*
 * kill.c: the wrapper of pvm_kill.  A task of the run that another task
 * kills on purpose (PVM's `timing` example: the master kills its slave)
 * has not crashed: the launcher must know of the kill before the victim
 * dies of it, or it would take the death for an accident and end the
 * run (toplevel/death.c).  So the wrapper asks the launcher first
 * (KILLING, answered by ACK; pangaea-protocol.h says why a question),
 * logs the kill (PG_REC_KILL in the killer's log, written before the
 * kill as a send is written before it leaves), and kills.
 *
 * In replay the call is checked against the recording like any other,
 * and the launcher holds back its answer until the victim has come to
 * the end of its own recording (replay.c, await_kill), so that it dies
 * at the point where it died when recorded.
 */
#include "pangaea-internal.h"

#include <stdio.h>

/* Tells the launcher that this task kills TID and waits for its go. */
static void tell_launcher(int tid)
{
	int v[2] = { pg_me->ltid, tid }, ack = 0;

	if (pg_proto_ask(pg_me->launcher_tid, PG_TAG_KILLING, v, PG_TAG_ACK,
			 &ack) < 0)
		fprintf(stderr, "pangaea: task %d: cannot tell the launcher "
			"of its pvm_kill of t%x\n", pg_me->ltid, tid);
}

int pangaea_pvm_kill(int tid)
{
	struct pg_call call = { .ev = { .kind = PG_REC_KILL } };
	struct pg_event *ev = &call.ev;
	int logged;

	/* (the launcher, task 0, ends tasks with PVM's own pvm_kill) */
	if (!pg_me->mode || pg_me->ltid == 0)
		return pvm_kill(tid);
	logged = pg_select_task_logged();
	pg_delay();
	ev->t = pg_now();
	ev->peer = pg_ltid_of(tid);
	if (logged && pg_me->mode == PANGAEA_MODE_REPLAY &&
	    pg_replay_expect(&call, NULL, NULL) == PG_REPLAY_DIVERGED)
		return pg_task_diverged();
	if (ev->peer >= 0) /* (a task outside the run is none of its business) */
		tell_launcher(tid);
	ev->dur = pg_now() - ev->t;
	if (logged)
		pg_log(ev);
	return pvm_kill(tid);
}
