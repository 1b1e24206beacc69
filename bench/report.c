/*
 * report.c: the summary of a `make bench` run.
 *
 * Usage: report RAW.csv LOGSIZE.csv PENDING.txt OUT.csv [INSTR.csv]
 *
 * RAW.csv has one line per measurement, "round,mode,bench,row,n,wall_ns,
 * cpu_ns" (mode: plain, record or replay); LOGSIZE.csv "bench,kind,events,
 * bytes"; PENDING.txt "bench row reason..." for rows whose record/replay
 * figures do not count yet.  Prints the tables (medians over the rounds,
 * min-max spread, ratios to plain PVM of the same round) and the targets,
 * and writes the summary to OUT.csv.  INSTR.csv (bench/instr.sh), when
 * given, has "mode,row,n,instructions" lines: instructions per call of
 * perfunc's rows counted by callgrind, a figure the machine's load does
 * not change; an empty file means valgrind was missing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 64
#define MAX_ROUNDS 64
#define MAX_KINDS 256
#define NMODES 3

static const char *const mode_name[NMODES] = { "plain", "record", "replay" };

/* One measured row: per mode and round, time per call (us) and CPU. */
struct row {
	char bench[32], name[32];
	long n;
	int have[NMODES][MAX_ROUNDS];
	double wall[NMODES][MAX_ROUNDS], cpu[NMODES][MAX_ROUNDS];
	char pending[128];
};

/* A median with its spread. */
struct stat3 {
	double med, min, max;
	int n;
};

static struct row rows[MAX_ROWS];
static int nrows;
/* Bytes per clock read in clockread's recording (print_logsize). */
static double clock_bytes = -1;

/* The row BENCH/NAME, created if new; NULL when the table is full. */
static struct row *row_get(const char *bench, const char *name)
{
	for (int i = 0; i < nrows; i++)
		if (!strcmp(rows[i].bench, bench) && !strcmp(rows[i].name, name))
			return &rows[i];
	if (nrows == MAX_ROWS)
		return NULL;
	snprintf(rows[nrows].bench, sizeof(rows[0].bench), "%s", bench);
	snprintf(rows[nrows].name, sizeof(rows[0].name), "%s", name);
	return &rows[nrows++];
}

/* Orders doubles for qsort. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median, min and max of the N values V (N may be 0). */
static struct stat3 stat_of(double *v, int n)
{
	struct stat3 s = { 0, 0, 0, n };

	if (n == 0)
		return s;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

/* Statistics of mode M of R: wall (WHAT 0), CPU (1), or the per-round
 * ratio to plain of wall (2). */
static struct stat3 row_stat(const struct row *r, int m, int what)
{
	double v[MAX_ROUNDS];
	int n = 0;

	for (int k = 0; k < MAX_ROUNDS; k++) {
		if (!r->have[m][k])
			continue;
		if (what == 2 && (!r->have[0][k] || r->wall[0][k] <= 0))
			continue;
		v[n++] = what == 0 ? r->wall[m][k] :
			 what == 1 ? r->cpu[m][k] : r->wall[m][k] / r->wall[0][k];
	}
	return stat_of(v, n);
}

/* Reads RAW; 0 or -1. */
static int read_raw(const char *path)
{
	char line[512], mode[16], bench[32], name[32];
	long n, round;
	double wall, cpu;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct row *r;
		int m;

		if (sscanf(line, "%ld,%15[^,],%31[^,],%31[^,],%ld,%lf,%lf", &round,
			   mode, bench, name, &n, &wall, &cpu) != 7 || n <= 0 ||
		    round < 0 || round >= MAX_ROUNDS)
			continue;
		for (m = 0; m < NMODES && strcmp(mode, mode_name[m]); m++)
			;
		if (m == NMODES || !(r = row_get(bench, name)))
			continue;
		r->n = n;
		r->have[m][round] = 1;
		r->wall[m][round] = wall / 1e3 / (double)n;
		r->cpu[m][round] = cpu / 1e3 / (double)n;
	}
	fclose(f);
	return 0;
}

/* Reads PENDING: marks the rows named there. */
static void read_pending(const char *path)
{
	char line[512], bench[32], name[32];
	int off;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct row *r;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%31s %31s %n", bench, name, &off) == 2 &&
		    (r = row_get(bench, name)))
			snprintf(r->pending, sizeof(r->pending), "%s", line + off);
	}
	fclose(f);
}

/* Whether R is timed per run (end to end) rather than per call. */
static int per_run(const struct row *r)
{
	return r->n == 1;
}

/* Formats V with as many decimals as its size deserves into BUF. */
static const char *num(char *buf, size_t n, double v)
{
	double a = v < 0 ? -v : v;

	snprintf(buf, n, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f", v);
	return buf;
}

/* Writes "MED (MIN-MAX)" of S divided by UNIT into BUF. */
static void spread(char *buf, size_t n, const struct stat3 *s, double unit)
{
	char a[24], b[24], c[24];

	snprintf(buf, n, "%s (%s-%s)", num(a, sizeof(a), s->med / unit),
		 num(b, sizeof(b), s->min / unit), num(c, sizeof(c), s->max / unit));
}

/* Whether R has a CPU figure (end-to-end rows have none). */
static int has_cpu(const struct row *r)
{
	for (int k = 0; k < MAX_ROUNDS; k++)
		if (r->have[0][k] && r->cpu[0][k] > 0)
			return 1;
	return 0;
}

/* Prints the time table (WHAT 0 wall, 1 CPU) and writes CSV lines. */
static void print_table(int what, FILE *csv)
{
	printf("\n%s per call in us (end-to-end rows: ms per run); median "
	       "(min-max) over the rounds;\nratio = median of the per-round "
	       "ratios to plain PVM%s\n", what ? "CPU time (user+sys)" :
	       "Wall time", what ? "'s CPU" : "");
	printf("%-26s %19s %19s %7s %16s %19s %7s %16s\n", "benchmark row",
	       "plain", "record", "+", "ratio", "replay", "+", "ratio");
	for (int i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		double unit = per_run(r) ? 1e3 : 1;
		struct stat3 s[NMODES], q[NMODES];
		char label[64], cell[NMODES][80], add[NMODES][24],
			rat[NMODES][80];

		if (what && !has_cpu(r))
			continue;
		for (int m = 0; m < NMODES; m++) {
			double v[MAX_ROUNDS];
			int n = 0;

			s[m] = row_stat(r, m, what);
			for (int k = 0; k < MAX_ROUNDS && what; k++)
				if (r->have[m][k] && r->have[0][k] && r->cpu[0][k] > 0)
					v[n++] = r->cpu[m][k] / r->cpu[0][k];
			q[m] = what ? stat_of(v, n) : row_stat(r, m, 2);
			spread(cell[m], sizeof(cell[m]), &s[m], unit);
			num(add[m] + 1, sizeof(add[m]) - 1,
			    (s[m].med - s[0].med) / unit);
			add[m][0] = add[m][1] == '-' ? ' ' : '+';
			snprintf(rat[m], sizeof(rat[m]), "%.2f (%.2f-%.2f)",
				 q[m].med, q[m].min, q[m].max);
			if (!s[m].n || (m && r->pending[0]))
				snprintf(cell[m], sizeof(cell[m]), "%s",
					 m && r->pending[0] ? "pending" : "-");
			if (!s[m].n || !s[0].n || (m && r->pending[0])) {
				add[m][0] = '\0';
				snprintf(rat[m], sizeof(rat[m]), "-");
			}
			if (csv && s[m].n)
				fprintf(csv, "%s,%s,%s,%s,%ld,%.3f,%.3f,%.3f,%.3f,"
					"%.4f,%.4f,%.4f,%s\n", r->bench, r->name,
					what ? "cpu" : "wall", mode_name[m], r->n,
					s[m].med, s[m].min, s[m].max,
					s[m].med - s[0].med, q[m].med, q[m].min,
					q[m].max, m && r->pending[0] ? "pending" : "ok");
		}
		snprintf(label, sizeof(label), "%s %s", r->bench, r->name);
		printf("%-26s %19s %19s %7s %16s %19s %7s %16s\n", label, cell[0],
		       cell[1], add[1], rat[1], cell[2], add[2], rat[2]);
	}
	for (int i = 0; i < nrows; i++)
		if (rows[i].pending[0])
			printf("  pending: %s %s: %s\n", rows[i].bench,
			       rows[i].name, rows[i].pending);
}

/* Whether KIND is a point-to-point record. */
static int is_p2p(const char *kind)
{
	return !strcmp(kind, "send") || !strcmp(kind, "recv") ||
	       !strcmp(kind, "nrecv") || !strcmp(kind, "trecv") ||
	       !strcmp(kind, "probe");
}

/* One line of LOGSIZE. */
struct logline {
	char bench[32], kind[32];
	long events, bytes;
};

/* Whether KIND is a record of the communication log (not header/exec). */
static int is_record(const char *kind)
{
	return strcmp(kind, "header") && strcmp(kind, "exec");
}

/* Prints the log size tables from LOGSIZE (per benchmark, then per kind
 * over all benchmarks); the worst point-to-point bytes per event of a
 * benchmark into *WORST. */
static void print_logsize(const char *path, FILE *csv, double *worst)
{
	static struct logline l[MAX_KINDS];
	char line[256], kinds[MAX_KINDS][32];
	int n = 0, nk = 0;
	FILE *f = fopen(path, "r");

	*worst = 0;
	if (!f)
		return;
	while (n < MAX_KINDS && fgets(line, sizeof(line), f))
		if (sscanf(line, "%31[^,],%31[^,],%ld,%ld", l[n].bench, l[n].kind,
			   &l[n].events, &l[n].bytes) == 4 && l[n].events > 0)
			n++;
	for (int i = 0; i < n; i++)
		if (!strcmp(l[i].bench, "clockread") &&
		    !strcmp(l[i].kind, "time"))
			clock_bytes = (double)l[i].bytes / (double)l[i].events;
	fclose(f);
	printf("\nLog size of one recording per benchmark (communication logs)\n");
	printf("%-16s %9s %10s %9s %12s %14s\n", "benchmark", "events",
	       "bytes", "B/event", "p2p B/event", "+headers B/ev");
	for (int i = 0; i < n; i++) {
		long ev = 0, by = 0, pev = 0, pby = 0, hby = 0;
		int first = 1;

		for (int k = 0; k < i; k++)
			first &= strcmp(l[k].bench, l[i].bench) != 0;
		if (!first)
			continue;
		for (int k = i; k < n; k++) {
			if (strcmp(l[k].bench, l[i].bench))
				continue;
			if (is_record(l[k].kind)) {
				ev += l[k].events;
				by += l[k].bytes;
			} else if (!strcmp(l[k].kind, "header")) {
				hby += l[k].bytes;
			}
			if (is_p2p(l[k].kind)) {
				pev += l[k].events;
				pby += l[k].bytes;
			}
		}
		if (ev == 0)
			continue;
		printf("%-16s %9ld %10ld %9.2f %12.2f %14.2f\n", l[i].bench, ev,
		       by, (double)by / ev, pev ? (double)pby / pev : 0,
		       (double)(by + hby) / ev);
		if (pev >= 100 && (double)pby / pev > *worst)
			*worst = (double)pby / pev;
	}
	for (int i = 0; i < n; i++) {
		int known = 0;

		for (int k = 0; k < nk; k++)
			known |= !strcmp(kinds[k], l[i].kind);
		if (!known)
			snprintf(kinds[nk++], sizeof(kinds[0]), "%s", l[i].kind);
	}
	printf("\nBy record kind, all benchmarks together (header: one per "
	       "task; exec: spawn lines of the text logs)\n");
	printf("%-10s %9s %10s %9s\n", "kind", "events", "bytes", "B/event");
	for (int k = 0; k < nk; k++) {
		long ev = 0, by = 0;

		for (int i = 0; i < n; i++)
			if (!strcmp(l[i].kind, kinds[k])) {
				ev += l[i].events;
				by += l[i].bytes;
			}
		printf("%-10s %9ld %10ld %9.2f\n", kinds[k], ev, by,
		       (double)by / ev);
		if (csv)
			fprintf(csv, "all,%s,logsize,record,%ld,%ld,,,,,,,"
				"bytes/event=%.2f\n", kinds[k], ev, by,
				(double)by / ev);
	}
}

/* The median ratio (wall) of BENCH/NAME in mode M, or -1 if unknown. */
static double ratio_of(const char *bench, const char *name, int m)
{
	for (int i = 0; i < nrows; i++)
		if (!strcmp(rows[i].bench, bench) && !strcmp(rows[i].name, name) &&
		    !rows[i].pending[0]) {
			struct stat3 s = row_stat(&rows[i], m, 2);

			return s.n ? s.med : -1;
		}
	return -1;
}

/* What a call of BENCH/NAME adds in mode M (1 record, 2 replay) to plain
 * PVM, in ns of wall time (CPU 0) or CPU time (1): the median over the
 * rounds of its difference to the plain run of the same round; NAN if
 * unknown. */
static double added_ns(const char *bench, const char *name, int m, int cpu)
{
	for (int i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		double v[MAX_ROUNDS];
		int n = 0;

		if (strcmp(r->bench, bench) || strcmp(r->name, name) ||
		    r->pending[0])
			continue;
		for (int k = 0; k < MAX_ROUNDS; k++)
			if (r->have[0][k] && r->have[m][k])
				v[n++] = cpu ? (r->cpu[m][k] - r->cpu[0][k]) * 1e3
					     : (r->wall[m][k] - r->wall[0][k]) * 1e3;
		return n ? stat_of(v, n).med : NAN;
	}
	return NAN;
}

/* Prints the target line of a clock read's added time (WHAT): BENCH/ROW
 * in mode M, wall and CPU, the target on the wall time. */
static void clock_target(const char *what, const char *bench,
			 const char *row, int m)
{
	double w = added_ns(bench, row, m, 0), c = added_ns(bench, row, m, 1);

	if (isnan(w))
		printf("  %-44s not measured\n", what);
	else
		printf("  %-44s %+8.1f ns (CPU %+.1f ns; target <= 50 ns)  "
		       "%s\n", what, w, c, w <= 50 ? "met" : "MISSED");
}

/* Prints one target line: WHAT, the figure GOT, the LIMIT. */
static void target(const char *what, double got, double limit, const char *unit)
{
	if (got < 0)
		printf("  %-44s not measured\n", what);
	else
		printf("  %-44s %8.3f%s (target <= %.2f%s)  %s\n", what, got,
		       unit, limit, unit, got <= limit ? "met" : "MISSED");
}

/* Prints the target of issue 12: the preload path (an unmodified program
 * under LD_PRELOAD) costs no more than the source path (built with
 * pangaea.h) in mode M (1 record, 2 replay), both as ratios to plain PVM
 * of the same rounds; "within noise" is taken as 3 %. */
static void preload_vs_source(const char *mode, int m)
{
	double pre = ratio_of("pingpong-preload", "roundtrip", m),
	       src = ratio_of("pingpong", "roundtrip", m);
	char what[64];

	snprintf(what, sizeof what, "ping-pong %s: preload / source path", mode);
	target(what, pre > 0 && src > 0 ? pre / src : -1, 1.03, "x");
}

/* Prints the targets of issues 3, 7, 12 and 16. */
static void print_targets(double worst_bytes)
{
	double spawn_add = -1;

	for (int i = 0; i < nrows; i++)
		if (!strcmp(rows[i].bench, "perfunc") &&
		    !strcmp(rows[i].name, "spawn")) {
			struct stat3 p = row_stat(&rows[i], 0, 0),
				     r = row_stat(&rows[i], 1, 0);

			if (p.n && r.n)
				spawn_add = (r.med - p.med) / 1e3;
		}
	printf("\nTargets\n");
	/* issue 16: 1.02 and 1.05 (issues 3, 7 asked 1.05 and 1.10) */
	target("ping-pong record / plain", ratio_of("pingpong", "roundtrip", 1),
	       1.02, "x");
	target("ping-pong replay / plain", ratio_of("pingpong", "roundtrip", 2),
	       1.05, "x");
	target("ping-pong preload record / plain",
	       ratio_of("pingpong-preload", "roundtrip", 1), 1.05, "x");
	target("ping-pong preload replay / plain",
	       ratio_of("pingpong-preload", "roundtrip", 2), 1.10, "x");
	preload_vs_source("record", 1);
	preload_vs_source("replay", 2);
	/* issue 16: 1.02 (issue 7 asked 1.05) */
	target("pvm_send row record / plain", ratio_of("perfunc", "send", 1),
	       1.02, "x");
	target("pvm_send row replay / plain", ratio_of("perfunc", "send", 2),
	       1.10, "x");
	target("pvm_recv row record / plain", ratio_of("perfunc", "recv", 1),
	       1.05, "x");
	target("pvm_recv row replay / plain", ratio_of("perfunc", "recv", 2),
	       1.10, "x");
	target("pvm_mcast to 3 record / plain", ratio_of("perfunc", "mcast", 1),
	       1.05, "x");
	/* issue 16 (comm log version 7): 8 B; issue 3 asked 16 */
	target("bytes per point-to-point event (worst)",
	       worst_bytes > 0 ? worst_bytes : -1, 8, " B");
	target("pvm_spawn added time under record", spawn_add, 5, " ms");
	/* issue 27: a recorded clock read adds <= 50 ns, <= 4 bytes */
	clock_target("clock_gettime recorded: added time", "clockread",
		     "clock_gettime", 1);
	clock_target("gettimeofday recorded: added time", "clockread",
		     "gettimeofday", 1);
	clock_target("time recorded: added time", "clockread", "time", 1);
	clock_target("clock_gettime recorded, preload: added", 
		     "clockread-preload", "clock_gettime", 1);
	clock_target("clock_gettime replayed: added time", "clockread",
		     "clock_gettime", 2);
	target("bytes per recorded clock read (clockread)", clock_bytes, 4,
	       " B");
	target("end to end sor 4 100 record / plain",
	       ratio_of("e2e", "sor", 1), 1.10, "x");
	target("end to end racy -w 3 -m 100 record / plain",
	       ratio_of("e2e", "racy", 1), 1.10, "x");
}

/* Instructions per call of one perfunc row in each mode (-1: none). */
struct instr_row {
	char name[32];
	double per_call[NMODES];
};

static struct instr_row irows[MAX_ROWS];
static int nirows;

/* Reads INSTR.csv (bench/instr.sh) into irows; the rows read, or -1 if
 * the file cannot be read. */
static int read_instr(const char *path)
{
	char line[256], mode[16], name[32];
	long n;
	double ins;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		int m, i;

		if (sscanf(line, "%15[^,],%31[^,],%ld,%lf", mode, name, &n,
			   &ins) != 4 || n <= 0)
			continue;
		for (m = 0; m < NMODES && strcmp(mode, mode_name[m]); m++)
			;
		for (i = 0; i < nirows && strcmp(irows[i].name, name); i++)
			;
		if (m == NMODES || (i == nirows && nirows == MAX_ROWS))
			continue;
		if (i == nirows) {
			snprintf(irows[i].name, sizeof(irows[i].name), "%s",
				 name);
			for (int k = 0; k < NMODES; k++)
				irows[i].per_call[k] = -1;
			nirows++;
		}
		irows[i].per_call[m] = ins / (double)n;
	}
	fclose(f);
	return nirows;
}

/* Prints the instructions per call of each row read by read_instr, and
 * its lines in CSV; or why there are none (NREAD < 1). */
static void print_instr(int nread, FILE *csv)
{
	printf("\nInstructions per call (perfunc rows under valgrind "
	       "--tool=callgrind, user space:\nthe task, libpvm, libpangaea; "
	       "not the kernel's part of the system calls; one run)\n");
	if (nread < 1) {
		printf("  not measured (valgrind is not installed, or "
		       "bench/instr.sh failed)\n");
		return;
	}
	printf("%-12s %9s %9s %7s %8s %9s %7s %8s\n", "row", "plain",
	       "record", "+", "ratio", "replay", "+", "ratio");
	for (int i = 0; i < nirows; i++) {
		const double *v = irows[i].per_call;

		printf("%-12s %9.0f", irows[i].name, v[0]);
		for (int m = 1; m < NMODES; m++) {
			if (v[0] > 0 && v[m] > 0)
				printf(" %9.0f %+7.0f %7.3fx", v[m], v[m] - v[0],
				       v[m] / v[0]);
			else
				printf(" %9s %7s %8s", "-", "", "");
			if (csv && v[0] > 0 && v[m] > 0)
				fprintf(csv, "perfunc,%s,instructions,%s,,%.1f,,,"
					"%.1f,%.4f,,,\n", irows[i].name,
					mode_name[m], v[m], v[m] - v[0],
					v[m] / v[0]);
		}
		printf("\n");
	}
}

/* The instructions per call of perfunc row NAME in mode M over plain,
 * or -1. */
static double instr_ratio(const char *name, int m)
{
	for (int i = 0; i < nirows; i++)
		if (!strcmp(irows[i].name, name) && irows[i].per_call[0] > 0 &&
		    irows[i].per_call[m] > 0)
			return irows[i].per_call[m] / irows[i].per_call[0];
	return -1;
}

/* Prints the instruction-count lines of the targets (issue 16's rows
 * counted in instructions: no limit of their own, the wall ratio is the
 * target; the count says how much of it the wrappers' code can be). */
static void print_instr_targets(void)
{
	static const struct { const char *row, *what; } r[] = {
		{ "send", "pvm_send row" }, { "recv", "pvm_recv row" },
		{ "mcast", "pvm_mcast to 3" },
	};
	char what[96];

	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		for (int m = 1; m < NMODES; m++) {
			double x = instr_ratio(r[i].row, m), add = 0;

			for (int k = 0; k < nirows; k++)
				if (!strcmp(irows[k].name, r[i].row))
					add = irows[k].per_call[m] -
					      irows[k].per_call[0];

			snprintf(what, sizeof(what),
				 "instructions per %s call, %s / plain",
				 r[i].what, mode_name[m]);
			if (x < 0)
				printf("  %-52s not measured\n", what);
			else
				printf("  %-52s %8.3fx (%+.0f a call; a figure, "
				       "no target)\n", what, x, add);
		}
}

/* Reads the run's files, prints the summary, writes OUT.csv; 0 or 1. */
int main(int argc, char **argv)
{
	FILE *csv;
	double worst;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: report RAW.csv LOGSIZE.csv PENDING.txt "
				"OUT.csv [INSTR.csv]\n");
		return 1;
	}
	if (read_raw(argv[1]) < 0) {
		fprintf(stderr, "report: cannot read %s\n", argv[1]);
		return 1;
	}
	read_pending(argv[3]);
	csv = fopen(argv[4], "w");
	if (csv)
		fprintf(csv, "bench,row,measure,mode,n,median,min,max,added,"
			"ratio_median,ratio_min,ratio_max,status\n");
	print_table(0, csv);
	print_table(1, csv);
	print_logsize(argv[2], csv, &worst);
	if (argc == 6)
		print_instr(read_instr(argv[5]), csv);
	print_targets(worst);
	if (argc == 6)
		print_instr_targets();
	if (csv)
		fclose(csv);
	return 0;
}
