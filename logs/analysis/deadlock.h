/*
 * deadlock.h: the deadlock rules (logs/analysis/deadlock.c), over the
 * states the tasks of a run publish (struct pg_state, pangaea-logs.h):
 * which tasks are stuck, whether the run is deadlocked, which tasks wait
 * round a circle.  They speak of ltids, calls and message ids only; who
 * reads the state files, how a task's end is known and how quiet the
 * run's traffic is are the caller's (the launcher, toplevel/deadlock.c).
 */
#ifndef PANGAEA_DEADLOCK_H
#define PANGAEA_DEADLOCK_H

#include "pangaea-logs.h"

#include <stdint.h>

/* How long a stuck task's state (and the run's traffic) stays unchanged. */
#define PG_DEADLOCK_QUIET_NS 1500000000ull

/* A task as the rules see it, one look after another (times in ns of one
 * monotonic clock; only differences of a task's own clock are used). */
struct pg_deadlock_task {
	int ltid;
	int ended;              /* set by the caller: the task has ended */
	int stopped;            /* set by the caller: its process is stopped
				   (SIGSTOP, a debugger): not blocked */
	int src;                /* set by the caller: its receive's source
				   filter as an ltid, -1 any, -2 not a task
				   of the table */
	int have;               /* its state was read at the last look */
	struct pg_state st;     /* the last state read */
	uint64_t changed_ns;    /* when its state was last seen to change */
	int stuck;              /* pg_deadlock_judge: stuck at the last look */
	int want_at;            /* ... index of the task whose recorded
				   message it waits for (replay), -1 none or
				   not a task of the table */
	int forever;            /* ... it waits for a message that will never
				   come: its sender ended, or waits in turn,
				   round to a circle */
};

/* The verdicts of pg_deadlock_judge. */
enum pg_deadlock_verdict {
	PG_DEADLOCK_NONE = 0,
	PG_DEADLOCK_ALL = 1,    /* every task not ended is stuck */
	PG_DEADLOCK_WAITS = 2   /* replay: stuck tasks wait forever */
};

/* Notes a look at task T at NOW: HAVE whether its state could be read,
 * ST that state (ignored unless HAVE).  Its state counts as changed
 * (changed_ns = NOW) at the first look, when it was or is unreadable, or
 * when its seq moved. */
void pg_deadlock_note(struct pg_deadlock_task *t, int have,
		      const struct pg_state *st, uint64_t now);

/* Whether task T is stuck at NOW: not ended nor stopped, its state read and in a
 * blocking call, unchanged for PG_DEADLOCK_QUIET_NS and for longer than
 * its call's timeout (a timed receive whose timeout is past is stuck
 * too), and the run's traffic quiet since QUIET_SINCE for
 * PG_DEADLOCK_QUIET_NS. */
int pg_deadlock_stuck(const struct pg_deadlock_task *t, uint64_t now,
		      uint64_t quiet_since);

/* The index of the task LTID in V (N), or -1. */
int pg_deadlock_find(const struct pg_deadlock_task *v, int n, int ltid);

/*
 * Judges the tasks V (N) at NOW (the run's traffic quiet since
 * QUIET_SINCE): sets each one's stuck, want_at and forever, and returns
 * PG_DEADLOCK_ALL when every task not ended is stuck (one at least),
 * else PG_DEADLOCK_WAITS when a stuck task waits forever, else
 * PG_DEADLOCK_NONE.  The tasks a report names: stuck, and (unless ALL)
 * waiting forever.
 */
int pg_deadlock_judge(struct pg_deadlock_task *v, int n, uint64_t now,
		      uint64_t quiet_since);

/* Whether a message of task SRC (an ltid) with TAG and the sender's
 * message id MSGID, sent to task D and not yet received, would end D's
 * blocking call: D is in a receive (pvm_recv, pvm_trecv, pvm_precv)
 * whose source (D->src) and tag filters it matches, and in replay
 * (D->st.want) it is the recorded message D waits for. */
int pg_deadlock_wakes(const struct pg_deadlock_task *d, int src, int tag,
		      uint32_t msgid);

/*
 * Reads the comm logs in folder LOGDIR of the tasks of V (N, judged by
 * pg_deadlock_judge) and clears `stuck` (and `forever`) of every stuck
 * task that a message sent to it and not yet received would wake
 * (pg_deadlock_wakes): such a message is in flight (held up by a stopped
 * pvmd, a stopped receiver, a slow link), and the task will get it.  A
 * log that cannot be read is skipped (a task on a host whose log folder
 * is not shared).  Returns how many it cleared, or -1 out of memory.
 */
int pg_deadlock_pending(struct pg_deadlock_task *v, int n, const char *logdir);

#endif /* PANGAEA_DEADLOCK_H */
