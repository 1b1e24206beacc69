/*
 * taskstate.c: the task-state rule (docs/VIEWER.md, "Task states").
 * Between two events a task is computing; inside a call it is in PVM, or
 * waiting when the call is a blocking receive (pvm_recv, pvm_precv,
 * pvm_trecv) or a barrier.  Failed polls (a pollfail record, logged just
 * before the event that ended them, without a time of their own) make
 * the stretch since the previous call and the next call's own time
 * waiting: the task was looking for a message.  Nothing counts after the
 * end record.
 */
#include "taskstate.h"
#include "pangaea-logs.h"

int pg_ev_state(int kind, int op)
{
	switch (kind) {
	case PG_REC_RECV: case PG_REC_PRECV: case PG_REC_TRECV:
		return PG_EVS_WAIT;
	case PG_REC_GROUP:
		return op == PG_GROUP_BARRIER ? PG_EVS_WAIT : PG_EVS_PVM;
	case PG_REC_POLLFAIL:
		return PG_EVS_POLLS;
	case PG_REC_END:
		return PG_EVS_END;
	default:
		return PG_EVS_PVM;
	}
}

void pg_states_begin(struct pg_states *s, int64_t start, int polled)
{
	s->prev_end = start;
	s->polled = polled;
	s->ended = 0;
}

void pg_states_event(struct pg_states *s, int evs, int64_t t0, int64_t t1,
		     pg_state_fn *add, void *arg)
{
	if (s->ended)
		return;
	if (evs == PG_EVS_POLLS) {
		s->polled = 1;
		return;
	}
	if (t0 > s->prev_end)
		add(arg, s->prev_end, t0, s->polled ? PG_ST_WAIT : PG_ST_COMPUTE);
	if (evs == PG_EVS_END) {
		s->ended = 1;
		return;
	}
	if (t1 > t0)
		add(arg, t0, t1, s->polled || evs == PG_EVS_WAIT ? PG_ST_WAIT :
		    PG_ST_PVM);
	if (t1 > s->prev_end)
		s->prev_end = t1;
	s->polled = 0;
}
