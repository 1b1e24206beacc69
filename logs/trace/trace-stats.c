/*
 * trace-stats.c: "pangaea-trace stats [--csv|--json] [-task LTID] LOGDIR"
 * prints, per task and for the whole run, every wrapped PVM call's count,
 * min, max, mean, median, p95 and total time inside the call, and the
 * bytes it moved; then the computation-granularity (time between calls)
 * and communication-overhead (time inside calls) histograms of paper 002
 * §3.1, and its check: computation + communication adds up to the task's
 * run time (the difference is printed).
 *
 * The numbers are computed by runstats.c (shared with the viewer).
 *
 * With --plot DIR it writes the numbers as SVG pictures into DIR instead
 * (svgplot.c): time per call, message sizes, granularity and overhead
 * histograms, and each task's time computing, in PVM and waiting (the
 * viewer's rule, taskstate.c).
 */
#include "runstats.h"
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

/* Where a task ran: its host ("?" if not known) and the host's
 * architecture (run.info's, kept by import as meta arch:HOST; "" when
 * the hosts had one). */
struct st_where {
	const char *host;
	char arch[64];
};

/* Fills W[i] for the R->n tasks of R (R->t[i] is R->tasks[i]) from DB;
 * a host without an arch row keeps "". */
static void where_load(sqlite3 *db, const struct st_run *r,
		       struct st_where *w)
{
	sqlite3_stmt *st = NULL;

	(void)sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = "
				 "'arch:' || ?", -1, &st, NULL);
	for (int i = 0; i < r->n; i++) {
		w[i].host = r->tasks[i].host ? r->tasks[i].host : "?";
		w[i].arch[0] = '\0';
		if (!st)
			continue;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, w[i].host, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			snprintf(w[i].arch, sizeof(w[i].arch), "%s",
				 (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
}

/* The task label: its ltid, or "all". */
static const char *label(const struct st_task *t, char *buf, size_t n)
{
	if (t->ltid < 0)
		return "all";
	snprintf(buf, n, "%d", t->ltid);
	return buf;
}

/* Prints the counts N of the buckets NAMES as a JSON array. */
static void print_counts(const long *n, const char *const *names)
{
	printf("[");
	for (int b = 0; b < ST_NBUCKET; b++)
		printf("%s{\"bucket\": \"%s\", \"count\": %ld}", b ? ", " : "",
		       names[b], n[b]);
	printf("]");
}

/* Prints the call rows of task T in FMT (JSON: FIRST = no comma yet),
 * the calls named as NM names them. */
static void print_calls(const struct pg_names *nm, const struct st_task *t,
			enum st_fmt fmt)
{
	char name[64], lb[16];
	int first = 1;
	struct st_sum s;

	for (int f = 1; f < ST_NFUNC; f++) {
		if (!t->f[f].n)
			continue;
		summarise(&t->f[f], &s);
		if (!pg_call_name(nm, f, name, sizeof(name)))
			snprintf(name, sizeof(name), "call %d", f);
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
			       "\"total_ns\": %lld, \"bytes\": %lld, "
			       "\"histogram\": ",
			       first ? "" : ",", name, t->f[f].n, (long long)s.min,
			       (long long)s.max, s.mean, (long long)s.median,
			       (long long)s.p95, (long long)s.total,
			       (long long)t->f[f].bytes);
		if (fmt == ST_JSON) {
			long h[ST_NBUCKET];

			st_call_hist(t, f, h);
			print_counts(h, st_bucket_names);
			printf("}");
		}
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
			       label(t, lb, sizeof(lb)), st_bucket_names[b], h->n[b],
			       (long long)h->ns[b]);
		else
			printf("%s{\"bucket\": \"%s\", \"count\": %ld, "
			       "\"total_ns\": %lld}", b ? ", " : "",
			       st_bucket_names[b], h->n[b], (long long)h->ns[b]);
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

/* Prints the text tables of R (W: where each task ran; NM: the names
 * of its calls). */
static void print_text(const struct pg_names *nm, const struct st_run *r,
		       const struct st_where *w)
{
	printf("Tasks\n%5s %-16s %-12s %s\n", "task", "host", "architecture",
	       "program");
	for (int i = 0; i < r->n; i++)
		printf("%5d %-16s %-12s %s\n", r->t[i].ltid, w[i].host,
		       w[i].arch[0] ? w[i].arch : "-",
		       r->tasks[i].program ? r->tasks[i].program : "?");
	printf("\n%s calls (times inside the call, us)\n"
	       "%-14s %5s %8s %10s %10s %10s %10s %10s %12s %10s\n", nm->layer,
	       "function", "task", "count", "min", "max", "mean", "median",
	       "p95", "total", "bytes");
	for (int i = 0; i < r->n; i++)
		print_calls(nm, &r->t[i], ST_TEXT);
	print_calls(nm, &r->all, ST_TEXT);
	printf("\nHistograms (all tasks): computation granularity = time "
	       "between calls, communication overhead = time inside calls\n"
	       "%-11s %12s %14s %12s %14s\n", "bucket", "comp count",
	       "comp total ms", "comm count", "comm total ms");
	for (int b = 0; b < ST_NBUCKET; b++)
		printf("%-11s %12ld %14.3f %12ld %14.3f\n", st_bucket_names[b],
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

/* Prints task T (W: where it ran, NULL for the whole run; NM: the
 * names of its calls) as a JSON object. */
static void print_json_task(const struct pg_names *nm, const struct st_task *t,
			    const struct st_where *w)
{
	char lb[16];

	printf("  {\"task\": \"%s\", ", label(t, lb, sizeof(lb)));
	if (w) {
		printf("\"host\": ");
		trace_json_str(stdout, w->host);
		if (w->arch[0]) {
			printf(", \"arch\": ");
			trace_json_str(stdout, w->arch);
		}
		printf(", ");
	}
	print_check(t, ST_JSON);
	printf(",\n   \"calls\": [");
	print_calls(nm, t, ST_JSON);
	printf("],\n   \"computation_granularity\": ");
	print_hist(t, &t->comp, "granularity", ST_JSON);
	printf(",\n   \"communication_overhead\": ");
	print_hist(t, &t->comm, "overhead", ST_JSON);
	printf(",\n   \"message_sizes\": ");
	print_counts(t->sizes, st_size_names);
	printf("}");
}

/* Prints R in FMT (W: where each task ran). */
static void print_run(const struct pg_names *nm, const struct st_run *r,
		      const struct st_where *w, enum st_fmt fmt)
{
	if (fmt == ST_TEXT) {
		print_text(nm, r, w);
		return;
	}
	if (fmt == ST_JSON) {
		printf("{\"events\": %ld, \"tasks\": [\n", r->nevents);
		for (int i = 0; i < r->n; i++) {
			print_json_task(nm, &r->t[i], &w[i]);
			printf(",\n");
		}
		print_json_task(nm, &r->all, NULL);
		printf("]}\n");
		return;
	}
	printf("section,task,name,count,min_ns,max_ns,mean_ns,median_ns,p95_ns,"
	       "total_ns,bytes\n");
	for (int i = 0; i <= r->n; i++) {
		const struct st_task *t = i < r->n ? &r->t[i] : &r->all;

		if (i < r->n)
			printf("host,%d,%s,,,,,,,,\n", t->ltid, w[i].host);
		if (i < r->n && w[i].arch[0])
			printf("arch,%d,%s,,,,,,,,\n", t->ltid, w[i].arch);
		print_calls(nm, t, ST_CSV);
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
	  st_bucket_names, row_comp, 0 },
	{ "overhead.svg", "Communication overhead",
	  "number of PVM calls, by the time inside the call", ST_NBUCKET,
	  st_bucket_names, row_comm, 0 },
	{ "sizes.svg", "Message sizes", "number of messages sent, by size "
	  "(bytes, a broadcast or multicast once)", ST_NBUCKET, st_size_names,
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

/* Writes the time per call of task T (the run's when its ltid is -1) to
   DIR/FILE, in NAMES, ROWS and V (room for ST_NFUNC rows); 0 or -1. */
static int plot_calls(const struct pg_names *nm, const struct st_task *t,
		      const char *dir, const char *file, char (*names)[32],
		      const char **rows, double *v)
{
	char note[160], lb[16];
	int ncalls = 0;
	long h[ST_NBUCKET];
	struct svg_table tab;

	for (int f = 1; f < ST_NFUNC; f++) {
		if (!t->f[f].n)
			continue;
		if (!pg_call_name(nm, f, names[ncalls], sizeof(names[ncalls])))
			snprintf(names[ncalls], sizeof(names[ncalls]), "call %d",
				 f);
		rows[ncalls] = names[ncalls];
		st_call_hist(t, f, h);
		for (int b = 0; b < ST_NBUCKET; b++)
			v[ncalls * ST_NBUCKET + b] = (double)h[b];
		ncalls++;
	}
	snprintf(note, sizeof(note), "number of calls of each %s function "
		 "(%s%s), by the time inside it (decades: a log scale)",
		 nm->layer, t->ltid < 0 ? "all tasks" : "ltid ", t->ltid < 0 ? "" :
		 label(t, lb, sizeof(lb)));
	tab = (struct svg_table){ "Time per call", note, ncalls, ST_NBUCKET,
				  rows, st_bucket_names, v, NULL };
	return plot_write(dir, file, &tab, 0);
}

/* Writes R's pictures into DIR (made if missing): a row per task and,
 * unless R counts ONLY one task (-1: all), one for the run; calls.svg
 * of what R counts and, for each task of a whole run, calls-LTID.svg;
 * 0 or -1. */
static int plot_run(const struct pg_names *nm, const struct st_run *r,
		    const char *dir, int only)
{
	int nrows = r->n + (only < 0), rc = -1;
	size_t room = (size_t)(r->n + 1 > ST_NFUNC ? r->n + 1 : ST_NFUNC);
	char (*names)[32] = calloc(room, sizeof(*names));
	const char **rows = calloc(room, sizeof(*rows));
	double *v = calloc(room * ST_NBUCKET, sizeof(*v));
	char file[64];

	if (!names || !rows || !v) {
		trace_error("out of memory");
		goto out;
	}
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		trace_error("cannot make %s: %s", dir, strerror(errno));
		goto out;
	}
	for (size_t p = 0; p < sizeof(st_pictures) / sizeof(st_pictures[0]); p++) {
		const struct st_picture *pic = &st_pictures[p];
		struct svg_table t;

		for (int i = 0; i < nrows; i++) {
			const struct st_task *task = i < r->n ? &r->t[i] : &r->all;

			if (task->ltid < 0)
				snprintf(names[i], sizeof(names[i]), "all tasks");
			else
				snprintf(names[i], sizeof(names[i]), "ltid %d",
					 task->ltid);
			rows[i] = names[i];
			pic->row(task, v + i * pic->ncols);
		}
		t = (struct svg_table){ pic->title, pic->note, nrows, pic->ncols,
					rows, pic->cols, v, state_colours };
		if (plot_write(dir, pic->file, &t, pic->shares) < 0)
			goto out;
	}
	if (plot_calls(nm, only < 0 ? &r->all : &r->t[0], dir, "calls.svg",
		       names, rows, v) < 0)
		goto out;
	for (int i = 0; only < 0 && i < r->n; i++) {
		snprintf(file, sizeof(file), "calls-%d.svg", r->t[i].ltid);
		if (plot_calls(nm, &r->t[i], dir, file, names, rows, v) < 0)
			goto out;
	}
	rc = 0;
out:
	free(names);
	free(rows);
	free(v);
	return rc;
}

/* Computes and prints the statistics of DB, the trace database of
 * LOGDIR; 0 or -1. */
static int stats_db(sqlite3 *db, const char *logdir, int only,
		    enum st_fmt fmt, const char *plot)
{
	char err[PG_PATH_MAX + 512], dbpath[PG_PATH_MAX];
	const struct pg_names *nm = pg_names_of_run(logdir);
	struct st_run r;
	struct st_where *w;
	int rc = -1;

	if (tdb_path(dbpath, sizeof(dbpath), logdir) < 0)
		snprintf(dbpath, sizeof(dbpath), "%s", logdir);
	if (st_run_load(db, dbpath, only, &r, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		goto out;
	}
	if (r.n == 0) {
		trace_error(only >= 0 ? "task %d has no events" :
			    "the run has no events", only);
		goto out;
	}
	if (plot)
		rc = plot_run(nm, &r, plot, only);
	else if (!(w = calloc((size_t)r.n, sizeof(*w))))
		trace_error("out of memory");
	else {
		where_load(db, &r, w);
		print_run(nm, &r, w, fmt);
		free(w);
		rc = 0;
	}
out:
	st_run_free(&r);
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
	if (tdb_open_read(argv[i], &db, err, sizeof(err)) < 0) {
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
