/*
 * runstats.c: the statistics of a run's trace database, computed once for
 * "pangaea-trace stats" (trace-stats.c: text, CSV, JSON, SVG pictures)
 * and the viewer's histograms (xview/viewdb.c): per task and for the
 * run, every wrapped PVM call's durations and bytes, the
 * computation-granularity (time between calls) and communication-overhead
 * (time inside calls) histograms of paper 002 §3.1, the message sizes
 * and the time in each task state (taskstate.c's rule).
 *
 * Run time of a task: from its t = 0 (pangaea_init) to its end record, or
 * to the end of its last call when the log has no end record.  The time
 * between calls is never counted below 0: a difference other than 0 says
 * that calls overlapped in time (a clock that went back).  Failed
 * polls are counted but have no time of their own: the time they took is
 * computation here.
 */
#include "runstats.h"
#include "tracedb.h"

#include <stdlib.h>
#include <string.h>

const char *const st_bucket_names[ST_NBUCKET] = {
	"<1us", "1us-10us", "10us-100us", "100us-1ms", "1ms-10ms",
	"10ms-100ms", "100ms-1s", ">=1s"
};

const char *const st_size_names[ST_NBUCKET] = {
	"<10B", "10B-100B", "100B-1kB", "1kB-10kB", "10kB-100kB",
	"100kB-1MB", "1MB-10MB", ">=10MB"
};

/* The latest time an event of trace.db may have, in ns of the wall
 * clock: what the importer can make (a task's start, below 2^62, plus
 * an event's time and duration, below 2^61).  Later, or negative, times
 * cannot be real and are refused; so no difference of two overflows. */
#define ST_TIME_MAX ((int64_t)(PG_WALL_MAX + PG_TIME_MAX))

/* A + B, or INT64_MAX (INT64_MIN) when the sum passes it (the totals
 * of a trace.db with huge values). */
int64_t st_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* A - B - C as st_add does it (B and C are not negative). */
int64_t st_diff(int64_t a, int64_t b, int64_t c)
{
	int64_t r;

	if (__builtin_sub_overflow(a, b, &r) ||
	    __builtin_sub_overflow(r, c, &r))
		return INT64_MIN;
	return r;
}

/* Appends the duration D to F; 0 or -1. */
static int func_add(struct st_func *f, int64_t d)
{
	int64_t *v = pg_grow(f->v, &f->cap, f->n + 1, sizeof(*v), 64);

	if (!v)
		return -1;
	f->v = v;
	f->v[f->n++] = d;
	return 0;
}

/* The decade bucket of D whose first bucket ends at LIM (1000 for ns:
   st_bucket_names; 10 for bytes: st_size_names). */
static int bucket_at(int64_t d, int64_t lim)
{
	int b = 0;

	for (; b < ST_NBUCKET - 1 && d >= lim; lim *= 10)
		b++;
	return b;
}

/* The histogram bucket of D ns. */
int st_bucket(int64_t d)
{
	return bucket_at(d, 1000);
}

/* pg_state_fn of the tasks: adds the span to ARG, their state_ns. */
static void state_add(void *arg, int64_t a, int64_t b, int state)
{
	int64_t *ns = arg;

	ns[state] = st_add(ns[state], b - a);
}

/* Counts D ns into H. */
static void hist_add(struct st_hist *h, int64_t d)
{
	int b = st_bucket(d);

	h->n[b]++;
	h->ns[b] = st_add(h->ns[b], d);
}

/* Loads the tasks of DB (the file DBPATH) with events (only task ONLY
 * when it is not -1) into R; 0, or -1 with ERR naming DBPATH. */
static int load_tasks(sqlite3 *db, const char *dbpath, struct st_run *r,
		      int only, char *err, size_t errlen)
{
	int i;

	if ((r->ntasks = tdb_tasks_load(db, &r->tasks)) < 0) {
		snprintf(err, errlen, "%s: cannot read its tasks: %s", dbpath,
			 sqlite3_errmsg(db));
		return -1;
	}
	for (i = 0; i < r->ntasks; i++)
		if (r->tasks[i].start_wall_ns < 0 ||
		    r->tasks[i].start_wall_ns >= (int64_t)PG_WALL_MAX) {
			snprintf(err, errlen, "%s: task %d: start_wall_ns %lld "
				 "cannot be real (not in [0, 2^62))", dbpath,
				 r->tasks[i].ltid,
				 (long long)r->tasks[i].start_wall_ns);
			return -1;
		}
	r->n = r->ntasks;
	if (only >= 0) {
		struct tdb_task one;

		if ((i = tdb_tasks_find(r->tasks, r->ntasks, only)) < 0) {
			r->n = 0;
			return 0;
		}
		one = r->tasks[i];
		r->tasks[i] = r->tasks[0];
		r->tasks[0] = one;
		r->n = 1;
	}
	if (r->n && !(r->t = calloc((size_t)r->n, sizeof(*r->t)))) {
		snprintf(err, errlen, "out of memory");
		r->n = 0;
		return -1;
	}
	for (i = 0; i < r->n; i++) {
		r->t[i].ltid = r->tasks[i].ltid;
		r->t[i].start = r->tasks[i].start_wall_ns;
		r->t[i].prev_end = r->t[i].start;
		pg_states_begin(&r->t[i].states, r->t[i].start, 0);
	}
	return 0;
}

/* The task of R with LTID, or NULL. */
static struct st_task *find_task(struct st_run *r, int ltid)
{
	int i = tdb_tasks_find(r->tasks, r->n, ltid);

	return i < 0 ? NULL : &r->t[i];
}

/* Accounts one event of task T: record kind K, group op OP, times, LEN
 * and COUNT. */
static int add_event(struct st_task *t, int k, int op, int64_t t0,
		     int64_t t1, int64_t len, int64_t ndest, int64_t count)
{
	int64_t gap;
	int f;

	pg_states_event(&t->states, pg_ev_state(k, op), t0, t1, state_add,
			t->state_ns);
	if (k == PG_REC_END) {
		gap = t0 - t->prev_end > 0 ? t0 - t->prev_end : 0;
		t->ended = 1;
		t->runtime = t0 - t->start;
		hist_add(&t->comp, gap);
		t->comp_ns = st_add(t->comp_ns, gap);
		return 0;
	}
	if (k == PG_REC_POLLFAIL) {
		t->polls += count;
		return 0;
	}
	if (!(f = pg_call_of(k, op)))
		return 0;
	gap = t0 - t->prev_end > 0 ? t0 - t->prev_end : 0; /* < 0: overlap */
	hist_add(&t->comp, gap);
	hist_add(&t->comm, t1 - t0);
	t->comp_ns = st_add(t->comp_ns, gap);
	t->comm_ns = st_add(t->comm_ns, t1 - t0);
	t->prev_end = t1;
	if (pg_rec_kind_class(k) == PG_CLASS_SEND) {
		int64_t b = len * (ndest > 0 ? ndest : 1); /* < 2^32 * 2^30 */

		t->f[f].bytes = st_add(t->f[f].bytes, b);
		t->sent = st_add(t->sent, b);
		t->sizes[bucket_at(len, 10)]++;
	} else if (pg_rec_kind_class(k) == PG_CLASS_RECV) {
		t->f[f].bytes = st_add(t->f[f].bytes, len);
		t->received = st_add(t->received, len);
	}
	return func_add(&t->f[f], t1 - t0);
}

/* Number of space-separated destinations in DESTS. */
static int64_t count_dests(const unsigned char *d)
{
	int64_t n = 0;

	for (int word = 0; d && *d; d++) {
		if (*d != ' ' && !word)
			n++;
		word = *d != ' ';
	}
	return n;
}

/* Whether the times T0, T1, LEN and COUNT of an events row can be real
 * (see ST_TIME_MAX; len and count are 32-bit in the logs); 1 or 0. */
static int row_sane(int64_t t0, int64_t t1, int64_t len, int64_t count)
{
	return t0 >= 0 && t1 >= t0 && t1 <= ST_TIME_MAX && len >= 0 &&
	       len <= UINT32_MAX && count >= 0 && count <= UINT32_MAX;
}

/* Reads every event of DB (the file DBPATH) into the tasks of R; 0, or
 * -1 with ERR naming DBPATH and the event's id. */
static int load_events(sqlite3 *db, const char *dbpath, struct st_run *r,
		       char *err, size_t errlen)
{
	sqlite3_stmt *s;
	struct st_task *t = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT ltid, kind, op, t0, t1, len, dests,"
			       " count, id FROM events ORDER BY id", -1, &s,
			       NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: cannot read its events: %s", dbpath,
			 sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int ltid = sqlite3_column_int(s, 0), kind;
		const unsigned char *d = sqlite3_column_text(s, 6);
		int64_t t0 = sqlite3_column_int64(s, 3),
			t1 = sqlite3_column_int64(s, 4),
			len = sqlite3_column_int64(s, 5),
			count = sqlite3_column_int64(s, 7);

		if ((!t || t->ltid != ltid) && !(t = find_task(r, ltid)))
			continue;
		if (!row_sane(t0, t1, len, count)) {
			snprintf(err, errlen, "%s: event id %lld (task %d): times "
				 "t0=%lld t1=%lld, len %lld or count %lld cannot "
				 "be real", dbpath,
				 (long long)sqlite3_column_int64(s, 8), ltid,
				 (long long)t0, (long long)t1, (long long)len,
				 (long long)count);
			sqlite3_finalize(s);
			return -1;
		}
		r->nevents++;
		kind = pg_rec_kind_of((const char *)sqlite3_column_text(s, 1));
		if (add_event(t, kind,
			      pg_op_of(kind, (const char *)
				       sqlite3_column_text(s, 2)),
			      t0, t1, len, d ? count_dests(d) : 0, count) < 0) {
			snprintf(err, errlen, "out of memory");
			sqlite3_finalize(s);
			return -1;
		}
	}
	if (rc != SQLITE_DONE)
		snprintf(err, errlen, "%s: cannot read its events: %s", dbpath,
			 sqlite3_errmsg(db));
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Compares int64s for qsort. */
static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Ends task T's accounting (run time of a log without end record) and
 * adds it into the run's totals A. */
static int finish_task(struct st_task *t, struct st_task *a)
{
	if (!t->ended)
		t->runtime = t->prev_end - t->start;
	for (int f = 0; f < ST_NFUNC; f++) {
		for (size_t i = 0; i < t->f[f].n; i++)
			if (func_add(&a->f[f], t->f[f].v[i]) < 0)
				return -1;
		a->f[f].bytes = st_add(a->f[f].bytes, t->f[f].bytes);
		if (t->f[f].n > 1)
			qsort(t->f[f].v, t->f[f].n, sizeof(int64_t), cmp_i64);
	}
	for (int b = 0; b < ST_NBUCKET; b++) {
		a->comp.n[b] += t->comp.n[b];
		a->comp.ns[b] = st_add(a->comp.ns[b], t->comp.ns[b]);
		a->comm.n[b] += t->comm.n[b];
		a->comm.ns[b] = st_add(a->comm.ns[b], t->comm.ns[b]);
		a->sizes[b] += t->sizes[b];
	}
	for (int s = 0; s < PG_ST_N; s++)
		a->state_ns[s] = st_add(a->state_ns[s], t->state_ns[s]);
	a->polls += t->polls;
	a->sent = st_add(a->sent, t->sent);
	a->received = st_add(a->received, t->received);
	a->runtime = st_add(a->runtime, t->runtime);
	a->comp_ns = st_add(a->comp_ns, t->comp_ns);
	a->comm_ns = st_add(a->comm_ns, t->comm_ns);
	return 0;
}

/* st_run_load: see runstats.h. */
int st_run_load(sqlite3 *db, const char *dbpath, int only, struct st_run *r,
		char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->all.ltid = -1;
	if (load_tasks(db, dbpath, r, only, err, errlen) < 0 ||
	    load_events(db, dbpath, r, err, errlen) < 0)
		return -1;
	for (int i = 0; i < r->n; i++)
		if (finish_task(&r->t[i], &r->all) < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	for (int f = 0; f < ST_NFUNC; f++)
		if (r->all.f[f].n > 1)
			qsort(r->all.f[f].v, r->all.f[f].n, sizeof(int64_t),
			      cmp_i64);
	return 0;
}

/* st_run_free: see runstats.h. */
void st_run_free(struct st_run *r)
{
	for (int i = 0; i <= r->n; i++) {
		struct st_task *t = i < r->n ? &r->t[i] : &r->all;

		for (int f = 0; f < ST_NFUNC; f++)
			free(t->f[f].v);
	}
	free(r->t);
	tdb_tasks_free(r->tasks, r->ntasks);
	memset(r, 0, sizeof(*r));
}

/* st_call_hist: see runstats.h. */
void st_call_hist(const struct st_task *t, int f, long out[ST_NBUCKET])
{
	memset(out, 0, ST_NBUCKET * sizeof(*out));
	for (size_t i = 0; i < t->f[f].n; i++)
		out[st_bucket(t->f[f].v[i])]++;
}
