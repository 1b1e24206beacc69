/*
 * coord.h: the task coordinator's registry of the run's tasks and of the
 * translation requests waiting for a task that is not known yet.
 */
#ifndef PANGAEA_COORD_H
#define PANGAEA_COORD_H

#include "pangaea-internal.h"

/* beacon.c: pangaea-coord -beacon [-follow DIR -events-to TID] (the
 * launcher's watch on another host, ARGC/ARGV its arguments after
 * -beacon): sends BEACON to its parent, the launcher, until QUIT, and
 * with -follow the events of its host's logs in DIR to the coordinator
 * TID; an exit status. */
int coord_beacon_main(int argc, char **argv);
/* Reads /proc/PID/NAME into BUF (SIZE bytes, NUL-ended); the bytes
 * read, or -1. */
ssize_t coord_proc_read(pid_t pid, const char *name, char *buf, size_t size);

/* logsview.c: pangaea-coord -follow-logs DIR (the live view of a run
 * without a coordinator: serves PANGAEA_LIVE's socket with the events of
 * the logs in DIR until standard input ends); an exit status. */
int coord_logs_main(const char *dir);

/* A ltid -> tid request waiting for its task to be spawned. */
struct coord_waiter {
	int requester; /* tid to answer */
	int ltid;      /* ltid asked for */
};

/* All the coordinator knows. */
struct coord_registry {
	struct pg_ids ids;     /* the run's tasks, tid <-> ltid */
	struct coord_waiter *waiters;
	size_t nwaiters, wcap;
};

/* Empties R (no allocation needed before first use). */
void coord_registry_init(struct coord_registry *r);
/* Frees what R holds. */
void coord_registry_free(struct coord_registry *r);
/* Adds task LTID = TID (a spawn, or the task's own registration); 0, or
 * -1 if LTID or TID is already someone else's or memory runs out. */
int coord_registry_add(struct coord_registry *r, int ltid, int tid);
/* The ltid of TID, or -1 if TID is not a task of the run. */
int coord_registry_ltid(const struct coord_registry *r, int tid);
/* The tid of LTID, or 0 if it is not known yet. */
int coord_registry_tid(const struct coord_registry *r, int ltid);
/* Queues REQUESTER's question for LTID; 0 or -1. */
int coord_registry_wait(struct coord_registry *r, int requester, int ltid);
/*
 * Removes the requests waiting for LTID, storing up to MAX requesters in
 * OUT; returns how many were removed (call again while it returns MAX).
 */
int coord_registry_take_waiters(struct coord_registry *r, int ltid, int *out,
				int max);

/* viewers.c: live viewers (only when PANGAEA_LIVE names a socket). */
struct event_base;
/* Listens on PANGAEA_LIVE's socket if it is set, or with RELAY (the tid
 * of a relay on the viewer's host, -live-to) only passes the batches on
 * to it; 0, or -1 (said why). */
int coord_viewers_init(struct event_base *base, int relay);
/* Relays the PG_TAG_EVENTS batch BUFID from SRC (the receive buffer), a
 * task, or with BEACON a beacon (or to a relay the coordinator). */
void coord_viewers_batch(int bufid, int src, int beacon);
/* Relays the batch of N ints INTS of task H made here (follow.c) as a
 * task's batch is. */
struct pg_live_head;
void coord_viewers_events(const struct pg_live_head *h, const int *ints,
			  int n);
/* How many PG_TAG_EVENTS batches came from tasks, or with BEACONS from
 * beacons (to a relay: from the coordinator). */
long coord_viewers_batches(int beacons);
/* At the end: waits a little for a first viewer, flushes, closes; or
 * tells the relay that the batches have ended (QUIT). */
void coord_viewers_finish(void);

/* Whether the run is shown live (the socket is listening or the batches
 * go to a relay); 1 or 0. */
int coord_viewers_on(void);

/* follow.c: the live view's events of the tasks of one host, read from
 * their logs as they are written (the coordinator, a beacon, the relay,
 * an MPI run's follower). */
#define COORD_FOLLOW_MS 25 /* between two readings of the logs */
/* Where a follower's batches go: task H's N ints INTS (as a batch). */
typedef void (*coord_follow_sink)(const struct pg_live_head *h,
				  const int *ints, int n);
/* Follows, in LOGDIR, the logs of the tasks coord_follow_task names
 * (with SCAN: of every task whose log is there) that ran on HOST (NULL:
 * on any host), their events going to SINK; with BASE, reads on by
 * itself every COORD_FOLLOW_MS on its timer, else on coord_follow_read.
 * 0 (also when LOGDIR or HOST is empty: nothing followed), or -1 (said
 * why). */
int coord_follow_init(struct event_base *base, const char *logdir,
		      const char *host, int scan, coord_follow_sink sink);
/* Whether logs are followed (coord_follow_init did, until
 * coord_follow_finish); 1 or 0. */
int coord_follow_on(void);
/* Task LTID is in the run: its log is looked for from now on. */
void coord_follow_task(int ltid);
/* Reads on in every log (what the timer does). */
void coord_follow_read(void);
/* Whether the log of every task the coordinator knows is followed here
 * (after reading on in them): then no task sent batches, and none can
 * come late; 1 or 0. */
int coord_follow_every(void);
/* At the end: reads every log to its end (what its task wrote), stops. */
void coord_follow_finish(void);
/* Events read from logs so far. */
long coord_follow_events(void);

#endif /* PANGAEA_COORD_H */
