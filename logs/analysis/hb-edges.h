/*
 * hb-edges.h: the happens-before edges of a run that are not messages,
 * built once for both of their users (hb-edges.c): the vector clocks of
 * happens-before (happens-before.c: races, the what-if cut, exploration, the
 * viewer's races) and the trace database's synchronised times
 * (tracedb-sync.c: the controlled logical clock).  The messages are
 * the matcher's (match.h), which both already share.
 *
 * An event is named by its task's ltid and its number in the task (seq,
 * from 1).  The builder is fed a run's events (any order of tasks, each
 * task's in order) and keeps:
 *
 * - the barriers: each task's K-th *successful* pvm_barrier on a group
 *   (result >= 0) is a call of the group's barrier instance K, and the
 *   calls of one instance are in each other's past.  A barrier call that
 *   returned an error synchronised nothing: its task did not wait for
 *   the others, so it is no call of any instance and does not count
 *   (docs/TRACEDB.md "Times");
 * - the spawns: a spawn event (its sequence number, the exec log's) is
 *   before the first event of each task it started.
 */
#ifndef PANGAEA_HB_EDGES_H
#define PANGAEA_HB_EDGES_H

#include "pangaea-analysis.h"

#include <stddef.h>
#include <stdint.h>

/* A successful barrier call: event SEQ of task LTID. */
struct pg_hbe_call {
	int ltid;
	uint32_t seq;
	int32_t group;    /* index into the builder's groups */
	uint32_t k;       /* the task's K-th barrier on the group (from 0) */
	uint32_t inst;    /* its instance (pg_hbe_done) */
};

/* A spawn event: event SEQ of task LTID, the spawn numbered SPAWN. */
struct pg_hbe_spawn {
	int ltid;
	uint32_t seq;
	uint32_t spawn;
};

/* The builder; start from { 0 }, fields read-only. */
struct pg_hbe {
	struct pg_hbe_call *calls; /* after pg_hbe_done: by instance, then
				      ltid and seq */
	size_t ncall, callcap;
	uint32_t ninst;            /* barrier instances (pg_hbe_done) */
	struct pg_hbe_spawn *spawns; /* in the order fed */
	size_t nspawn, spawncap;
	char **groups;             /* after pg_hbe_done: by name */
	int ngroup;
};

/* The index of NAME among the N NAMES (added if new, the array grown);
 * -1 out of memory.  (A run's groups: few, searched from the last.) */
int pg_hbe_name(char ***names, int *n, const char *name);
/* Whether EV is a barrier call that synchronised (it returned no error). */
int pg_hbe_is_barrier(const struct pg_event *ev);
/* Feeds event SEQ of task LTID to B (kept if a successful barrier call
 * or a spawn); 0, or -1 out of memory. */
int pg_hbe_event(struct pg_hbe *b, int ltid, uint32_t seq,
		 const struct pg_event *ev);
/* Numbers B's barrier instances once every event is fed; 0, or -1 out
 * of memory. */
int pg_hbe_done(struct pg_hbe *b);
/* The seq of task LTID's spawn event numbered SPAWN in B, 0 if none. */
uint32_t pg_hbe_spawn_at(const struct pg_hbe *b, int ltid, uint32_t spawn);
/* Frees what B holds and empties it. */
void pg_hbe_free(struct pg_hbe *b);

/* pg_hb_load (pangaea-logs.h) that also hands back, in EDGES (NULL: not
 * wanted; free it with pg_hbe_free), the edges it built; happens-before.c. */
int pg_hb_load_edges(struct pg_hb *hb, const char *dir, struct pg_hbe *edges,
		     char *err, size_t errlen);

#endif /* PANGAEA_HB_EDGES_H */
