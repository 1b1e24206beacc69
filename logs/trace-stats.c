/*
 * trace-stats.c: "pangaea-trace stats [--csv|--json] [-task LTID] LOGDIR"
 * prints, per task and for the whole run, every wrapped PVM call's count,
 * min, max, mean, median, p95 and total time inside the call, and the
 * bytes it moved; then the computation-granularity (time between calls)
 * and communication-overhead (time inside calls) histograms of paper 002
 * §3.1, and its check: computation + communication adds up to the task's
 * run time (the difference is printed).
 *
 * Run time of a task: from its t = 0 (pangaea_init) to its end record, or
 * to the end of its last call when the log has no end record.  The time
 * between calls is never counted below 0: a difference other than 0 says
 * that calls overlapped in time (a clock that went back).  Failed
 * polls are counted but have no time of their own: the time they took is
 * computation here.
 *
 * With --plot DIR it writes the numbers as SVG pictures into DIR instead
 * (svgplot.c): time per call, message sizes, granularity and overhead
 * histograms, and each task's time computing, in PVM and waiting (the
 * viewer's rule, taskstate.c).
 */
#include "svgplot.h"
#include "taskstate.h"
#include "trace.h"
#include "tracedb.h"

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	long sizes[ST_NBUCKET];   /* messages sent, by size (size_names) */
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

static const char *const bucket_names[ST_NBUCKET] = {
	"<1us", "1us-10us", "10us-100us", "100us-1ms", "1ms-10ms",
	"10ms-100ms", "100ms-1s", ">=1s"
};

static const char *const size_names[ST_NBUCKET] = {
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
static int64_t st_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* A - B - C as st_add does it (B and C are not negative). */
static int64_t st_diff(int64_t a, int64_t b, int64_t c)
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
   bucket_names; 10 for bytes: size_names). */
static int bucket_at(int64_t d, int64_t lim)
{
	int b = 0;

	for (; b < ST_NBUCKET - 1 && d >= lim; lim *= 10)
		b++;
	return b;
}

/* The histogram bucket of D ns. */
static int bucket(int64_t d)
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
	int b = bucket(d);

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

/* Summary numbers of a sorted duration list. */
struct st_sum {
	int64_t min, max, median, p95, total;
	double mean;
};

/* Summarises the sorted F into S. */
static void summarise(const struct st_func *f, struct st_sum *s)
{
	size_t n = f->n;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return;
	s->min = f->v[0];
	s->max = f->v[n - 1];
	s->median = n % 2 ? f->v[n / 2] : f->v[n / 2 - 1] +
		    (f->v[n / 2] - f->v[n / 2 - 1]) / 2;
	s->p95 = f->v[(n * 95 + 99) / 100 - 1];
	for (size_t i = 0; i < n; i++)
		s->total = st_add(s->total, f->v[i]);
	s->mean = (double)s->total / (double)n;
}

/* Output format. */
enum st_fmt { ST_TEXT, ST_CSV, ST_JSON };

/* The task label: its ltid, or "all". */
static const char *label(const struct st_task *t, char *buf, size_t n)
{
	if (t->ltid < 0)
		return "all";
	snprintf(buf, n, "%d", t->ltid);
	return buf;
}

/* Prints the call rows of task T in FMT (JSON: FIRST = no comma yet). */
static void print_calls(const struct st_task *t, enum st_fmt fmt)
{
	char name[64], lb[16];
	int first = 1;
	struct st_sum s;

	for (int f = 1; f < ST_NFUNC; f++) {
		if (!t->f[f].n)
			continue;
		summarise(&t->f[f], &s);
		pg_call_name(f, name, sizeof(name));
		if (fmt == ST_TEXT)
			printf("%-14s %5s %8zu %10.1f %10.1f %10.1f %10.1f %10.1f %12.1f %10lld\n",
			       name, label(t, lb, sizeof(lb)), t->f[f].n,
			       s.min / 1e3, s.max / 1e3, s.mean / 1e3, s.median / 1e3,
			       s.p95 / 1e3, s.total / 1e3, (long long)t->f[f].bytes);
		else if (fmt == ST_CSV)
			printf("call,%s,%s,%zu,%lld,%lld,%.0f,%lld,%lld,%lld,%lld\n",
			       label(t, lb, sizeof(lb)), name, t->f[f].n,
			       (long long)s.min, (long long)s.max, s.mean,
			       (long long)s.median, (long long)s.p95,
			       (long long)s.total, (long long)t->f[f].bytes);
		else
			printf("%s\n     {\"function\": \"%s\", \"count\": %zu, "
			       "\"min_ns\": %lld, \"max_ns\": %lld, \"mean_ns\": %.0f, "
			       "\"median_ns\": %lld, \"p95_ns\": %lld, "
			       "\"total_ns\": %lld, \"bytes\": %lld}",
			       first ? "" : ",", name, t->f[f].n, (long long)s.min,
			       (long long)s.max, s.mean, (long long)s.median,
			       (long long)s.p95, (long long)s.total,
			       (long long)t->f[f].bytes);
		first = 0;
	}
}

/* Prints histogram H of task T named WHAT as CSV rows or a JSON array. */
static void print_hist(const struct st_task *t, const struct st_hist *h,
		       const char *what, enum st_fmt fmt)
{
	char lb[16];

	if (fmt == ST_JSON)
		printf("[");
	for (int b = 0; b < ST_NBUCKET; b++)
		if (fmt == ST_CSV)
			printf("%s,%s,%s,%ld,,,,,,%lld,\n", what,
			       label(t, lb, sizeof(lb)), bucket_names[b], h->n[b],
			       (long long)h->ns[b]);
		else
			printf("%s{\"bucket\": \"%s\", \"count\": %ld, "
			       "\"total_ns\": %lld}", b ? ", " : "",
			       bucket_names[b], h->n[b], (long long)h->ns[b]);
	if (fmt == ST_JSON)
		printf("]");
}

/* Prints the run-time check of task T in FMT. */
static void print_check(const struct st_task *t, enum st_fmt fmt)
{
	char lb[16];
	const char *l = label(t, lb, sizeof(lb));
	long long rt = t->runtime, c = t->comp_ns, m = t->comm_ns,
		  d = st_diff(rt, c, m);

	if (fmt == ST_TEXT)
		printf("%5s %12.3f %12.3f %12.3f %12.3f %9ld %12lld %12lld\n",
		       l, rt / 1e6, c / 1e6, m / 1e6,
		       d / 1e6, t->polls, (long long)t->sent,
		       (long long)t->received);
	else if (fmt == ST_CSV)
		printf("state,%s,computing,,,,,,,%lld,\n"
		       "state,%s,in_pvm,,,,,,,%lld,\n"
		       "state,%s,waiting,,,,,,,%lld,\n"
		       "check,%s,runtime,,,,,,,%lld,\n"
		       "check,%s,computation,,,,,,,%lld,\n"
		       "check,%s,communication,,,,,,,%lld,\n"
		       "check,%s,difference,,,,,,,%lld,\n"
		       "polls,%s,failed,%ld,,,,,,,\n"
		       "bytes,%s,sent,,,,,,,,%lld\nbytes,%s,received,,,,,,,,%lld\n",
		       l, (long long)t->state_ns[PG_ST_COMPUTE], l,
		       (long long)t->state_ns[PG_ST_PVM], l,
		       (long long)t->state_ns[PG_ST_WAIT],
		       l, rt, l, c, l, m, l, d, l, t->polls, l,
		       (long long)t->sent, l, (long long)t->received);
	else
		printf("\"runtime_ns\": %lld, \"computation_ns\": %lld, "
		       "\"communication_ns\": %lld, \"difference_ns\": %lld, "
		       "\"failed_polls\": %ld, \"bytes_sent\": %lld, "
		       "\"bytes_received\": %lld, \"computing_ns\": %lld, "
		       "\"in_pvm_ns\": %lld, \"waiting_ns\": %lld", rt, c, m, d,
		       t->polls, (long long)t->sent, (long long)t->received,
		       (long long)t->state_ns[PG_ST_COMPUTE],
		       (long long)t->state_ns[PG_ST_PVM],
		       (long long)t->state_ns[PG_ST_WAIT]);
}

/* Prints the text tables of R. */
static void print_text(const struct st_run *r)
{
	printf("PVM calls (times inside the call, us)\n"
	       "%-14s %5s %8s %10s %10s %10s %10s %10s %12s %10s\n", "function",
	       "task", "count", "min", "max", "mean", "median", "p95", "total",
	       "bytes");
	for (int i = 0; i < r->n; i++)
		print_calls(&r->t[i], ST_TEXT);
	print_calls(&r->all, ST_TEXT);
	printf("\nHistograms (all tasks): computation granularity = time "
	       "between calls, communication overhead = time inside calls\n"
	       "%-11s %12s %14s %12s %14s\n", "bucket", "comp count",
	       "comp total ms", "comm count", "comm total ms");
	for (int b = 0; b < ST_NBUCKET; b++)
		printf("%-11s %12ld %14.3f %12ld %14.3f\n", bucket_names[b],
		       r->all.comp.n[b], r->all.comp.ns[b] / 1e6,
		       r->all.comm.n[b], r->all.comm.ns[b] / 1e6);
	printf("\nCheck: run time = computation + communication (ms)\n"
	       "%5s %12s %12s %12s %12s %9s %12s %12s\n", "task", "run time",
	       "computation", "communic.", "difference", "fail.polls",
	       "bytes sent", "bytes recv");
	for (int i = 0; i < r->n; i++)
		print_check(&r->t[i], ST_TEXT);
	print_check(&r->all, ST_TEXT);
}

/* Prints task T as a JSON object. */
static void print_json_task(const struct st_task *t)
{
	char lb[16];

	printf("  {\"task\": \"%s\", ", label(t, lb, sizeof(lb)));
	print_check(t, ST_JSON);
	printf(",\n   \"calls\": [");
	print_calls(t, ST_JSON);
	printf("],\n   \"computation_granularity\": ");
	print_hist(t, &t->comp, "granularity", ST_JSON);
	printf(",\n   \"communication_overhead\": ");
	print_hist(t, &t->comm, "overhead", ST_JSON);
	printf("}");
}

/* Prints R in FMT. */
static void print_run(const struct st_run *r, enum st_fmt fmt)
{
	if (fmt == ST_TEXT) {
		print_text(r);
		return;
	}
	if (fmt == ST_JSON) {
		printf("{\"events\": %ld, \"tasks\": [\n", r->nevents);
		for (int i = 0; i < r->n; i++) {
			print_json_task(&r->t[i]);
			printf(",\n");
		}
		print_json_task(&r->all);
		printf("]}\n");
		return;
	}
	printf("section,task,name,count,min_ns,max_ns,mean_ns,median_ns,p95_ns,"
	       "total_ns,bytes\n");
	for (int i = 0; i <= r->n; i++) {
		const struct st_task *t = i < r->n ? &r->t[i] : &r->all;

		print_calls(t, ST_CSV);
		print_hist(t, &t->comp, "granularity", ST_CSV);
		print_hist(t, &t->comm, "overhead", ST_CSV);
		print_check(t, ST_CSV);
	}
}

/* What a picture of R shows per task (and for the run, the last row):
   COLS values of T in V. */
typedef void st_row_fn(const struct st_task *t, double *v);

/* The rows of the picture: granularity, overhead, sizes, states. */
static void row_comp(const struct st_task *t, double *v)
{
	for (int b = 0; b < ST_NBUCKET; b++)
		v[b] = (double)t->comp.n[b];
}

static void row_comm(const struct st_task *t, double *v)
{
	for (int b = 0; b < ST_NBUCKET; b++)
		v[b] = (double)t->comm.n[b];
}

static void row_sizes(const struct st_task *t, double *v)
{
	for (int b = 0; b < ST_NBUCKET; b++)
		v[b] = (double)t->sizes[b];
}

static void row_states(const struct st_task *t, double *v)
{
	for (int s = 0; s < PG_ST_N; s++)
		v[s] = (double)t->state_ns[s] / 1e6;
}

/* A picture to write: its file, title, note, columns, rows, and how. */
struct st_picture {
	const char *file, *title, *note;
	int ncols;
	const char *const *cols;
	st_row_fn *row;
	int shares; /* svg_shares, else svg_histograms */
};

static const char *const state_names[PG_ST_N] = {
	"computing", "in PVM", "waiting"
};
static const char *const state_colours[PG_ST_N] = {
	"#2eb82e", "#f2d01c", "#d83030"
};

static const struct st_picture st_pictures[] = {
	{ "granularity.svg", "Computation granularity",
	  "number of stretches between two PVM calls, by length", ST_NBUCKET,
	  bucket_names, row_comp, 0 },
	{ "overhead.svg", "Communication overhead",
	  "number of PVM calls, by the time inside the call", ST_NBUCKET,
	  bucket_names, row_comm, 0 },
	{ "sizes.svg", "Message sizes", "number of messages sent, by size "
	  "(bytes, a broadcast or multicast once)", ST_NBUCKET, size_names,
	  row_sizes, 0 },
	{ "states.svg", "Task states", "share of each task's run time "
	  "computing, in PVM and waiting (the viewer's rule)", PG_ST_N,
	  state_names, row_states, 1 },
};

/* Writes the table T as a picture (SHARES or histograms) to DIR/FILE and
   says so; 0 or -1. */
static int plot_write(const char *dir, const char *file,
		      const struct svg_table *t, int shares)
{
	char path[PG_PATH_MAX], err[PG_PATH_MAX + 128];

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path)) {
		trace_error("%s/%s: path too long", dir, file);
		return -1;
	}
	if ((shares ? svg_shares : svg_histograms)(path, t, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		return -1;
	}
	printf("wrote %s\n", path);
	return 0;
}

/* Writes R's pictures into DIR (made if missing); 0 or -1. */
static int plot_run(const struct st_run *r, const char *dir)
{
	int nrows = r->n + 1, rc = -1, ncalls = 0;
	char (*names)[32] = calloc((size_t)(nrows > ST_NFUNC ? nrows : ST_NFUNC),
				   sizeof(*names));
	const char **rows = calloc((size_t)(nrows > ST_NFUNC ? nrows : ST_NFUNC),
				   sizeof(*rows));
	double *v = calloc((size_t)(nrows > ST_NFUNC ? nrows : ST_NFUNC) *
			   ST_NBUCKET, sizeof(*v));
	struct svg_table t = { 0 };

	if (!names || !rows || !v) {
		trace_error("out of memory");
		goto out;
	}
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		trace_error("cannot make %s: %s", dir, strerror(errno));
		goto out;
	}
	for (int i = 0; i < nrows; i++) {
		const struct st_task *task = i < r->n ? &r->t[i] : &r->all;

		if (task->ltid < 0)
			snprintf(names[i], sizeof(names[i]), "all tasks");
		else
			snprintf(names[i], sizeof(names[i]), "ltid %d", task->ltid);
		rows[i] = names[i];
	}
	for (size_t p = 0; p < sizeof(st_pictures) / sizeof(st_pictures[0]); p++) {
		const struct st_picture *pic = &st_pictures[p];

		for (int i = 0; i < nrows; i++)
			pic->row(i < r->n ? &r->t[i] : &r->all, v + i * pic->ncols);
		t = (struct svg_table){ pic->title, pic->note, nrows, pic->ncols,
					rows, pic->cols, v, state_colours };
		if (plot_write(dir, pic->file, &t, pic->shares) < 0)
			goto out;
	}
	/* time per call: a row per PVM call of the run */
	for (int f = 1; f < ST_NFUNC; f++) {
		if (!r->all.f[f].n)
			continue;
		pg_call_name(f, names[ncalls], sizeof(names[ncalls]));
		rows[ncalls] = names[ncalls];
		memset(v + ncalls * ST_NBUCKET, 0, ST_NBUCKET * sizeof(*v));
		for (size_t i = 0; i < r->all.f[f].n; i++)
			v[ncalls * ST_NBUCKET + bucket(r->all.f[f].v[i])]++;
		ncalls++;
	}
	t = (struct svg_table){ "Time per call", "number of calls of each PVM "
				"function (all tasks), by the time inside it "
				"(decades: a log scale)", ncalls, ST_NBUCKET,
				rows, bucket_names, v, NULL };
	rc = plot_write(dir, "calls.svg", &t, 0);
out:
	free(names);
	free(rows);
	free(v);
	return rc;
}

/* Frees what R holds. */
static void free_run(struct st_run *r)
{
	for (int i = 0; i <= r->n; i++) {
		struct st_task *t = i < r->n ? &r->t[i] : &r->all;

		for (int f = 0; f < ST_NFUNC; f++)
			free(t->f[f].v);
	}
	free(r->t);
	tdb_tasks_free(r->tasks, r->ntasks);
}

/* Computes and prints the statistics of DB, the trace database of
 * LOGDIR; 0 or -1. */
static int stats_db(sqlite3 *db, const char *logdir, int only,
		    enum st_fmt fmt, const char *plot)
{
	char err[PG_PATH_MAX + 512], dbpath[PG_PATH_MAX];
	struct st_run r = { 0 };
	int rc = -1;

	r.all.ltid = -1;
	if (tdb_path(dbpath, sizeof(dbpath), logdir) < 0)
		snprintf(dbpath, sizeof(dbpath), "%s", logdir);
	if (load_tasks(db, dbpath, &r, only, err, sizeof(err)) < 0 ||
	    load_events(db, dbpath, &r, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		goto out;
	}
	if (r.n == 0) {
		trace_error(only >= 0 ? "task %d has no events" :
			    "the run has no events", only);
		goto out;
	}
	for (int i = 0; i < r.n; i++)
		if (finish_task(&r.t[i], &r.all) < 0)
			goto out;
	for (int f = 0; f < ST_NFUNC; f++)
		if (r.all.f[f].n > 1)
			qsort(r.all.f[f].v, r.all.f[f].n, sizeof(int64_t),
			      cmp_i64);
	if (plot)
		rc = plot_run(&r, plot);
	else {
		print_run(&r, fmt);
		rc = 0;
	}
out:
	free_run(&r);
	return rc;
}

/* Reads the ltid S (0 or more, an int) into *OUT; 0 or -1. */
static int stats_ltid(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < 0 || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

/* Entry point of "stats": 0 printed, 1 error. */
static int stats_run(int argc, char **argv)
{
	char err[PG_PATH_MAX + 512];
	enum st_fmt fmt = ST_TEXT;
	const char *plot = NULL;
	int only = -1, i = 1, rc;
	sqlite3 *db;

	for (; i < argc - 1; i++)
		if (strcmp(argv[i], "--csv") == 0)
			fmt = ST_CSV;
		else if (strcmp(argv[i], "--json") == 0)
			fmt = ST_JSON;
		else if (strcmp(argv[i], "--plot") == 0 && i + 1 < argc - 1 &&
			 argv[i + 1][0])
			plot = argv[++i];
		else if (strcmp(argv[i], "-task") == 0 && i + 1 < argc - 1 &&
			 stats_ltid(argv[i + 1], &only) == 0)
			i++;
		else
			break;
	if (i != argc - 1) {
		trace_error("usage: pangaea-trace %s", trace_cmd_stats.usage);
		return 1;
	}
	if (tdb_open(argv[i], &db, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		return 1;
	}
	rc = stats_db(db, argv[i], only, fmt, plot);
	sqlite3_close(db);
	return rc < 0;
}

const struct trace_cmd trace_cmd_stats = {
	"stats", "stats [--csv|--json|--plot DIR] [-task LTID] LOGDIR", stats_run
};
