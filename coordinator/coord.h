/*
 * coord.h: the task coordinator's registry of the run's tasks and of the
 * translation requests waiting for a task that is not known yet.
 */
#ifndef PANGAEA_COORD_H
#define PANGAEA_COORD_H

/* One task of the run. */
struct coord_task {
	int ltid;
	int tid;
	int registered; /* the task itself has called pangaea_init */
};

/* A ltid -> tid request waiting for its task to be spawned. */
struct coord_waiter {
	int requester; /* tid to answer */
	int ltid;      /* ltid asked for */
};

/* All the coordinator knows. */
struct coord_registry {
	struct coord_task *tasks;
	int ntasks, cap;
	struct coord_waiter *waiters;
	int nwaiters, wcap;
};

/* Empties R (no allocation needed before first use). */
void coord_registry_init(struct coord_registry *r);
/* Frees what R holds. */
void coord_registry_free(struct coord_registry *r);
/* Adds task LTID = TID; 0, or -1 if LTID or TID is already someone else's. */
int coord_registry_add(struct coord_registry *r, int ltid, int tid);
/* Marks LTID (with TID) as registered, adding it if unknown; 0 or -1. */
int coord_registry_register(struct coord_registry *r, int ltid, int tid);
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
/* Listens on PANGAEA_LIVE's socket if it is set; 0, or -1 (said why). */
int coord_viewers_init(struct event_base *base);
/* Relays the PG_TAG_EVENTS batch from SRC in the receive buffer. */
void coord_viewers_batch(int src);
/* At the end: waits a little for a first viewer, flushes, closes. */
void coord_viewers_finish(void);

#endif /* PANGAEA_COORD_H */
