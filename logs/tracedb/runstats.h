/*
 * runstats.h: the statistics of a run (runstats.c), shared by
 * "pangaea-trace stats" and the viewer's histograms.
 */
#ifndef PANGAEA_RUNSTATS_H
#define PANGAEA_RUNSTATS_H

#include "pangaea-logs.h"
#include "taskstate.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#define ST_NFUNC PG_CALL_MAX /* the PVM calls, by pg_call_of */
#define ST_NBUCKET 8  /* decades from 1 us to 1 s */

/* Durations (ns) of one function in one task, and its bytes. */
struct st_func {
	int64_t *v;
	size_t n, cap;
	int64_t bytes;
};

/* One histogram: count and total ns per bucket. */
struct st_hist {
	long n[ST_NBUCKET];
	int64_t ns[ST_NBUCKET];
};

/* What is known about one task (ltid -1: the whole run). */
struct st_task {
	int ltid;
	struct st_func f[ST_NFUNC];
	long polls;               /* failed polls */
	int64_t sent, received;   /* bytes */
	struct st_hist comp, comm;
	int64_t start, runtime, comp_ns, comm_ns;
	int64_t prev_end;         /* t1 of the previous call */
	int ended;
	struct pg_states states;  /* the task-state rule, followed */
	int64_t state_ns[PG_ST_N];
	long sizes[ST_NBUCKET];   /* messages sent, by size (st_size_names) */
};

/* The statistics of a run. */
struct st_run {
	struct tdb_task *tasks; /* the tasks with events, by ltid */
	int ntasks;
	struct st_task *t;      /* those counted: t[i] is tasks[i] */
	int n;
	struct st_task all;
	long nevents;
};

/* The bucket names: decades of ns (st_bucket) and of bytes. */
extern const char *const st_bucket_names[ST_NBUCKET];
extern const char *const st_size_names[ST_NBUCKET];

/* A + B, or INT64_MAX (INT64_MIN) when the sum passes it. */
int64_t st_add(int64_t a, int64_t b);
/* A - B - C as st_add does it (B and C are not negative). */
int64_t st_diff(int64_t a, int64_t b, int64_t c);
/* The histogram bucket (st_bucket_names) of D ns. */
int st_bucket(int64_t d);

/* Computes the statistics of DB (the file DBPATH, for messages) into R:
 * every task with events, or only task ONLY when it is not -1 (R->n is 0
 * when it has none), and their totals R->all; each task's durations
 * sorted.  0, or -1 with ERR saying why.  Free R with st_run_free in
 * either case. */
int st_run_load(sqlite3 *db, const char *dbpath, int only, struct st_run *r,
		char *err, size_t errlen);
/* Frees what R holds. */
void st_run_free(struct st_run *r);
/* The histogram of task T's calls of PVM function F (pg_call_of):
 * OUT[b] calls whose time inside falls in bucket b. */
void st_call_hist(const struct st_task *t, int f, long out[ST_NBUCKET]);

#endif /* PANGAEA_RUNSTATS_H */
