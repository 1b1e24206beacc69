/*
 * debug.c: a replayed task stopping for a debugger (pangaea -replay
 * -debug LTID[:EVENT]).  The launcher exports PANGAEA_DEBUG "LTID:EVENT"
 * to every task of the replay; the task LTID, when its replay comes to
 * its EVENT-th recorded event (1-based, the numbering of divergence
 * reports; the first event without EVENT), tells the launcher its pid
 * (PG_TAG_DEBUG) and waits in pg_debug_stop until a debugger clears
 * pg_debug_hold (the launcher's `gdb -p PID` does it when it attaches)
 * or the launcher says its debugger has ended (PG_TAG_DEBUG back).  The other
 * tasks are not stopped: they run on as far as the replayed order lets
 * them, and wait there; the order is the recording's whatever the
 * debugger does.  Nothing here runs unless PANGAEA_DEBUG names this task.
 */
#include "engine.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Set while the task waits for its debugger; the debugger clears it.
 * Not static, not optimised away: gdb finds it by name. */
volatile int pg_debug_hold;

/* The stop asked for, read from the environment once. */
static struct {
	int read;       /* PANGAEA_DEBUG was looked at */
	int ltid;       /* the task to stop, 0 none */
	uint64_t event; /* before which event (1: its first) */
	int done;       /* stopped once already */
} dbg;

/* Reads PANGAEA_DEBUG ("LTID" or "LTID:EVENT") once. */
static void debug_read(void)
{
	const char *s = getenv(PG_ENV_DEBUG);
	char *end;
	long l;
	unsigned long long e = 1;

	dbg.read = 1;
	if (!s || !*s)
		return;
	l = strtol(s, &end, 10);
	if (*end == ':')
		e = strtoull(end + 1, &end, 10);
	if (*end || l <= 0 || e == 0)
		return;
	dbg.ltid = (int)l;
	dbg.event = e;
}

/*
 * Where the task waits for its debugger: a loop of short sleeps that
 * ends when pg_debug_hold is cleared (by the debugger) or the launcher
 * says the debugger it started has ended (it could not attach).  noinline: the debugger finds the
 * program's own frame a few frames above this one.
 */
__attribute__((noinline)) void pg_debug_stop(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int v[3];

	while (pg_debug_hold) {
		nanosleep(&ts, NULL);
		if (pg_me->launcher_tid > 0 &&
		    pg_bind->recv_ints(pg_me->launcher_tid, PG_TAG_DEBUG, 0,
				       v) > 0)
			pg_debug_hold = 0;
	}
}

uint64_t pg_debug_event;

void pg_debug_check(uint64_t event)
{
	int v[3];

	if (!dbg.read)
		debug_read();
	/* (once this task is known: the event it stops at, or none) */
	if (pg_me->ltid > 0)
		pg_debug_event = dbg.done || dbg.ltid != pg_me->ltid ||
					 pg_me->mode != PANGAEA_MODE_REPLAY ||
					 pg_me->launcher_tid <= 0
				 ? UINT64_MAX : dbg.event;
	if (dbg.done || dbg.ltid != pg_me->ltid || event != dbg.event ||
	    pg_me->mode != PANGAEA_MODE_REPLAY || pg_me->launcher_tid <= 0)
		return;
	pg_debug_event = UINT64_MAX;
	dbg.done = 1;
	v[0] = pg_me->ltid;
	v[1] = (int)getpid();
	v[2] = (int)event;
	pg_debug_hold = 1;
	if (pg_bind->send_ints(pg_me->launcher_tid, PG_TAG_DEBUG, v) < 0)
		pg_debug_hold = 0;
	pg_debug_stop();
}
