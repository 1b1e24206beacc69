/*
 * overhead.h: the monitor-overhead correction of a trace database
 * (logs/tracedb/overhead.c, docs/TRACEDB.md "Overhead").
 */
#ifndef PANGAEA_OVERHEAD_H
#define PANGAEA_OVERHEAD_H

#include "pangaea-logs.h"
#include "tracedb.h"

/* One event as the correction sees it. */
struct ovh_event {
	int64_t id;       /* events.id */
	int ltid;
	int64_t t0, t1;   /* in: raw; out: corrected */
	int64_t cost;     /* the task's cost of logging one event, ns */
	int64_t send;     /* a receive: the index of its send event; -1 */
	int64_t shift;    /* out: how much earlier it starts (t0 raw - t0) */
	int done;
};

/*
 * Corrects the N events EV (ordered by task, then by the task's order;
 * SEND indexes into EV): each task's times less the cost of the events
 * it logged before (an event's end less its own too).  A receive that
 * waited for its message (it took LAT ns or more) ends when the message,
 * sent that much earlier, came: its corrected send's start plus the raw
 * time from the send's start to its end, less the send's and its own
 * cost; the task's later events move with it.  No receive completes
 * before its corrected send's start plus LAT ns, no event later than
 * raw.  0, or -1 out of memory.
 */
int pg_overhead_correct(struct ovh_event *ev, int n, int64_t lat);

/* What a correction did. */
struct tdb_overhead_stats {
	long nevents;
	int64_t latency;  /* the smallest message latency used, ns */
	int64_t cost;     /* the largest per-event cost of a task, ns */
	int64_t raw_end, end; /* the last event's end before and after */
};

/* Corrects the times of DIR's trace.db in place (events, messages,
 * tasks; meta 'overhead' = 'corrected'); 0, or -1 with ERR. */
int tdb_correct_overhead(const char *dir, struct tdb_overhead_stats *st,
			 char *err, size_t errlen);

#endif
