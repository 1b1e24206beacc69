/*
 * taskstate.h: what a task was doing between and inside its logged calls
 * (computing, in PVM, waiting), the one rule the viewer's state colours
 * and utilization (xview/viewstate.c) and `pangaea-trace stats` use.
 */
#ifndef PANGAEA_TASKSTATE_H
#define PANGAEA_TASKSTATE_H

#include <stdint.h>

/* The states, in the order the viewer stacks them. */
enum pg_task_state { PG_ST_COMPUTE, PG_ST_PVM, PG_ST_WAIT, PG_ST_N };

/* What one event says of its task's time. */
enum pg_ev_state {
	PG_EVS_PVM,   /* its call's time is spent in PVM */
	PG_EVS_WAIT,  /* its call's time is spent waiting (blocking receive,
			 barrier) */
	PG_EVS_POLLS, /* failed polls came before the next event */
	PG_EVS_END    /* the task ended */
};

/* The enum pg_ev_state of an event of record kind KIND (enum
 * pg_rec_kind) whose group call is OP (enum pg_group_op, 0 if none). */
int pg_ev_state(int kind, int op);

/* A task's states being followed, event after event. */
struct pg_states {
	int64_t prev_end; /* exit of the previous call */
	int polled;       /* failed polls came since */
	int ended;
};

/* Receives the span [A, B) of a task in STATE (enum pg_task_state). */
typedef void pg_state_fn(void *arg, int64_t a, int64_t b, int state);

/* Starts following a task at time START (its pangaea_init, or the exit
 * of the event before those to come); POLLED: that event was failed
 * polls. */
void pg_states_begin(struct pg_states *s, int64_t start, int polled);
/* The task's next event, of state EVS (enum pg_ev_state), entered at T0,
 * left at T1: gives ADD(ARG, ...) the stretch since the previous call
 * and the call's own time, each with its state. */
void pg_states_event(struct pg_states *s, int evs, int64_t t0, int64_t t1,
		     pg_state_fn *add, void *arg);

#endif /* PANGAEA_TASKSTATE_H */
