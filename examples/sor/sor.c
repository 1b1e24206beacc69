/*
 * sor.c - red-black SOR Laplace solver on PVM3 (Pangaea example, paper §4).
 *
 * Usage: sor [-time] [-ep] NTASKS N [ITERS]
 *
 * Solves Laplace's equation on an N x N interior grid whose top edge is held
 * at 100.0 and whose other edges are held at 0.0.  The grid is cut into
 * NTASKS horizontal strips of rows; the task started by hand (the master,
 * strip 0) spawns NTASKS-1 copies of itself for the other strips.  Every
 * iteration does a red half-sweep, a halo exchange with the neighbouring
 * strips, a black half-sweep, another halo exchange, and then every task
 * multicasts its local residual to every other task and takes the maximum of the
 * NTASKS-1 residuals it receives with a wildcard-source receive.  Arrival
 * order varies from run to run, but the maximum does not, so the output is
 * deterministic (and independent of NTASKS, since red-black updates within
 * one colour do not depend on each other).
 *
 * With -ep the master spawns its copies by bare name ("sor"), which each
 * host's pvmd looks up in its ep= folder: on a virtual machine of several
 * architectures, each host runs the sor built for it (scripts/cross-cc.sh);
 * without, by the master's own path.  The strips' values travel XDR-packed
 * (PvmDataDefault), so the result is the same whatever the hosts.
 *
 * The master prints the iteration count, the final residual and a checksum
 * of the whole grid; the other tasks print nothing.  With -time the master
 * also prints "elapsed NS": its CLOCK_MONOTONIC time from the return of its
 * first receive (a halo row: every task is up by then) to the return of its
 * last one (the strips), the truth the monitor-overhead benchmark
 * (bench/overhead.sh) compares a trace with.
 */
#define _XOPEN_SOURCE 700

#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pangaea.h>

#define MAX_TASKS 64
#define DEFAULT_ITERS 100
#define OMEGA 1.5
#define TOLERANCE 1e-6
#define TOP_EDGE 100.0

/* Message tags.  Residuals alternate between two tags by iteration parity:
 * a fast task can be one iteration ahead of a slow one, and the wildcard
 * receive must not take the fast task's next residual for the current one. */
enum {
	TAG_SETUP = 10,     /* master -> child: run parameters and tid list */
	TAG_HALO_UP = 11,   /* first interior row, sent to the strip above */
	TAG_HALO_DOWN = 12, /* last interior row, sent to the strip below */
	TAG_RESIDUAL = 13,  /* 13 on even iterations, 14 on odd ones */
	TAG_STRIP = 15      /* child -> master: the finished strip */
};

/* What every task knows about the run. */
struct run {
	int ntasks;           /* number of strips = number of tasks */
	int n;                /* interior grid size */
	int iters;            /* iteration limit */
	int index;            /* this task's strip, 0 = master */
	int tids[MAX_TASKS];  /* tid of the task owning each strip */
	int timed;            /* -time: the master prints its elapsed ns */
	int byname;           /* -ep: copies spawned by bare name */
};

/* One task's strip: rows 0 and rows+1 are halo (or fixed boundary) rows. */
struct strip {
	int lo;     /* global row number of local row 1 (interior rows are 1..n) */
	int rows;   /* number of interior rows owned */
	int width;  /* n + 2: interior columns plus the two boundary columns */
	double *u;  /* (rows + 2) * width values, row-major */
};

static long long first_recv_ns; /* -time: when the first receive returned */

/* CLOCK_MONOTONIC now, in ns. */
static long long mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Returns the larger of A and B (avoids needing libm's fmax). */
static double max2(double a, double b)
{
	return a > b ? a : b;
}

/* Prints "sor: WHAT failed (CODE)" to stderr, leaves PVM and exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "sor: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* Returns rc unchanged if it is not negative; otherwise dies naming WHAT. */
static int ok(int rc, const char *what)
{
	if (rc < 0)
		die(what, rc);
	return rc;
}

/* Prints the usage line to stderr and exits 2. */
static void usage(void)
{
	fprintf(stderr, "usage: sor [-time] [-ep] NTASKS N [ITERS]   (1 <= NTASKS <= %d, "
		"NTASKS <= N)\n", MAX_TASKS);
	exit(2);
}

/* Parses S as a decimal int in [MIN, MAX]; exits through usage() if not. */
static int parse_int(const char *s, int min, int max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min || v > max)
		usage();
	return (int)v;
}

/* Fills RUN from the master's command line (tids are filled in later). */
static void parse_args(int argc, char **argv, struct run *run)
{
	run->timed = run->byname = 0;
	while (argc > 1 && argv[1][0] == '-') {
		if (strcmp(argv[1], "-time") == 0)
			run->timed = 1;
		else if (strcmp(argv[1], "-ep") == 0)
			run->byname = 1;
		else
			usage();
		argc--;
		argv++;
	}
	if (argc < 3 || argc > 4)
		usage();
	run->ntasks = parse_int(argv[1], 1, MAX_TASKS);
	run->n = parse_int(argv[2], 1, 4096);
	run->iters = argc == 4 ? parse_int(argv[3], 1, INT_MAX) : DEFAULT_ITERS;
	run->index = 0;
	if (run->n < run->ntasks)
		usage();
}

/* Spawns the NTASKS-1 children running PROG and records their tids;
 * if not all of them start, kills those that did and dies. */
static void spawn_children(const char *prog, struct run *run)
{
	int want = run->ntasks - 1;
	int got;

	if (want == 0)
		return;
	got = pvm_spawn((char *)prog, NULL, PvmTaskDefault, "", want,
			&run->tids[1]);
	if (got >= want)
		return;
	for (int k = 0; k < got; k++)
		pvm_kill(run->tids[1 + k]);
	die("pvm_spawn", got < 0 ? got : run->tids[1 + got]);
}

/* Sends every child its strip index together with the run parameters. */
static void send_setup(const struct run *run)
{
	for (int k = 1; k < run->ntasks; k++) {
		int head[4] = { run->ntasks, run->n, run->iters, k };

		ok(pvm_initsend(PvmDataDefault), "pvm_initsend");
		ok(pvm_pkint(head, 4, 1), "pvm_pkint");
		ok(pvm_pkint((int *)run->tids, run->ntasks, 1), "pvm_pkint");
		ok(pvm_send(run->tids[k], TAG_SETUP), "pvm_send(setup)");
	}
}

/* Child side of send_setup(): fills RUN from the parent's message. */
static void recv_setup(int parent, struct run *run)
{
	int head[4];

	ok(pvm_recv(parent, TAG_SETUP), "pvm_recv(setup)");
	ok(pvm_upkint(head, 4, 1), "pvm_upkint");
	run->ntasks = head[0];
	run->n = head[1];
	run->iters = head[2];
	run->index = head[3];
	if (run->ntasks < 2 || run->ntasks > MAX_TASKS || run->index < 1 ||
	    run->index >= run->ntasks || run->n < run->ntasks || run->iters < 1)
		die("setup message check", PvmBadMsg);
	ok(pvm_upkint(run->tids, run->ntasks, 1), "pvm_upkint");
}

/* Gives strip K's first global interior row and its number of rows. */
static void strip_bounds(const struct run *run, int k, int *lo, int *rows)
{
	int base = run->n / run->ntasks;
	int extra = run->n % run->ntasks;

	*rows = base + (k < extra);
	*lo = 1 + k * base + (k < extra ? k : extra);
}

/* Allocates this task's strip with boundary values set and interior 0. */
static void strip_init(const struct run *run, struct strip *s)
{
	strip_bounds(run, run->index, &s->lo, &s->rows);
	s->width = run->n + 2;
	s->u = calloc((size_t)(s->rows + 2) * (size_t)s->width, sizeof *s->u);
	if (s->u == NULL) {
		fprintf(stderr, "sor: out of memory\n");
		pvm_exit();
		exit(1);
	}
	if (s->lo == 1)  /* this strip holds the top edge as its row 0 */
		for (int j = 0; j < s->width; j++)
			s->u[j] = TOP_EDGE;
}

/* Relaxes the points of COLOUR (0 red, 1 black); returns the max |residual|. */
static double sweep(struct strip *s, int colour)
{
	int w = s->width;
	double maxr = 0.0;

	for (int r = 1; r <= s->rows; r++) {
		int i = s->lo + r - 1;
		int j0 = 1 + ((i + 1 + colour) & 1);  /* first j with (i+j)%2 == colour */
		double *row = s->u + (size_t)r * w;

		for (int j = j0; j < w - 1; j += 2) {
			double res = 0.25 * (row[j - w] + row[j + w] + row[j - 1] +
					     row[j + 1]) - row[j];

			row[j] += OMEGA * res;
			maxr = max2(maxr, res < 0 ? -res : res);
		}
	}
	return maxr;
}

/* Packs local row R of the strip and sends it to TID with TAG. */
static void send_row(const struct strip *s, int r, int tid, int tag)
{
	ok(pvm_initsend(PvmDataDefault), "pvm_initsend");
	ok(pvm_pkdouble(s->u + (size_t)r * s->width, s->width, 1), "pvm_pkdouble");
	ok(pvm_send(tid, tag), "pvm_send(halo)");
}

/* Receives a row from TID with TAG into local row R of the strip. */
static void recv_row(struct strip *s, int r, int tid, int tag)
{
	ok(pvm_recv(tid, tag), "pvm_recv(halo)");
	if (first_recv_ns == 0)
		first_recv_ns = mono_ns();
	ok(pvm_upkdouble(s->u + (size_t)r * s->width, s->width, 1),
	   "pvm_upkdouble");
}

/* Swaps boundary rows with the strips above and below this one. */
static void exchange(const struct run *run, struct strip *s)
{
	int up = run->index - 1, down = run->index + 1;

	if (up >= 0)
		send_row(s, 1, run->tids[up], TAG_HALO_UP);
	if (down < run->ntasks)
		send_row(s, s->rows, run->tids[down], TAG_HALO_DOWN);
	if (up >= 0)
		recv_row(s, 0, run->tids[up], TAG_HALO_DOWN);
	if (down < run->ntasks)
		recv_row(s, s->rows + 1, run->tids[down], TAG_HALO_UP);
}

/* Multicasts LOCAL to every other task and returns the max over all. */
static double share_residual(const struct run *run, int iter, double local)
{
	int tag = TAG_RESIDUAL + (iter & 1), others[MAX_TASKS], n = 0;
	double global = local;

	for (int k = 0; k < run->ntasks; k++)
		if (k != run->index)
			others[n++] = run->tids[k];
	ok(pvm_initsend(PvmDataDefault), "pvm_initsend");
	ok(pvm_pkint(&iter, 1, 1), "pvm_pkint");
	ok(pvm_pkdouble(&local, 1, 1), "pvm_pkdouble");
	ok(pvm_mcast(others, n, tag), "pvm_mcast(residual)");
	for (int k = 1; k < run->ntasks; k++) {
		int their_iter;
		double theirs;

		ok(pvm_recv(-1, tag), "pvm_recv(residual)");
		ok(pvm_upkint(&their_iter, 1, 1), "pvm_upkint");
		ok(pvm_upkdouble(&theirs, 1, 1), "pvm_upkdouble");
		if (their_iter != iter)
			die("residual iteration check", PvmBadMsg);
		global = max2(global, theirs);
	}
	return global;
}

/* Iterates until the limit or convergence; returns the iterations done. */
static int solve(const struct run *run, struct strip *s, double *residual)
{
	int iter;

	*residual = DBL_MAX;
	for (iter = 0; iter < run->iters && *residual >= TOLERANCE; iter++) {
		double red, black;

		red = sweep(s, 0);
		exchange(run, s);
		black = sweep(s, 1);
		exchange(run, s);
		*residual = share_residual(run, iter, max2(red, black));
	}
	return iter;
}

/* Child: sends the interior rows of its strip to the master. */
static void send_strip(const struct run *run, const struct strip *s)
{
	int head[2] = { s->lo, s->rows };

	ok(pvm_initsend(PvmDataDefault), "pvm_initsend");
	ok(pvm_pkint(head, 2, 1), "pvm_pkint");
	ok(pvm_pkdouble(s->u + s->width, s->rows * s->width, 1), "pvm_pkdouble");
	ok(pvm_send(run->tids[0], TAG_STRIP), "pvm_send(strip)");
}

/* Master: sums its own strip, every child's strip and the fixed edges. */
static double gather_checksum(const struct run *run, const struct strip *s)
{
	int w = s->width;
	size_t cells = (size_t)(run->n + 2) * (size_t)w;
	double *grid = calloc(cells, sizeof *grid);
	double sum = 0.0;

	if (grid == NULL)
		die("calloc", PvmNoMem);
	memcpy(grid, s->u, (size_t)(s->rows + 1) * w * sizeof *grid);
	for (int k = 1; k < run->ntasks; k++) {
		int head[2], lo, rows;

		strip_bounds(run, k, &lo, &rows);
		ok(pvm_recv(run->tids[k], TAG_STRIP), "pvm_recv(strip)");
		ok(pvm_upkint(head, 2, 1), "pvm_upkint");
		if (head[0] != lo || head[1] != rows)
			die("strip message check", PvmBadMsg);
		ok(pvm_upkdouble(grid + (size_t)lo * w, rows * w, 1),
		   "pvm_upkdouble");
	}
	for (size_t c = 0; c < cells; c++)
		sum += grid[c];
	free(grid);
	return sum;
}

/* Runs one task of the solver; the master also spawns and reports. */
int main(int argc, char **argv)
{
	struct run run;
	struct strip s;
	char self[PATH_MAX];
	double residual;
	int iters, parent, mytid;

	pangaea_init(&argc, &argv);
	pvm_setopt(PvmAutoErr, 0);  /* we print our own one-line errors */
	mytid = ok(pvm_mytid(), "pvm_mytid");
	parent = pvm_parent();
	if (parent == PvmNoParent) {
		parse_args(argc, argv, &run);
		if (getenv("EXAMPLE_CATCHOUT"))  /* testing aid only */
			ok(pvm_catchout(stdout), "pvm_catchout");
		if (realpath(argv[0], self) == NULL) {
			perror("sor: realpath");
			pvm_exit();
			return 1;
		}
		run.tids[0] = mytid;
		spawn_children(run.byname ? "sor" : self, &run);
		send_setup(&run);
	} else {
		ok(parent, "pvm_parent");
		recv_setup(parent, &run);
	}
	strip_init(&run, &s);
	iters = solve(&run, &s, &residual);
	if (parent == PvmNoParent) {
		double sum = gather_checksum(&run, &s);
		long long t_end = mono_ns();

		printf("sor: tasks=%d n=%d iterations=%d residual=%.9g\n",
		       run.ntasks, run.n, iters, residual);
		printf("sor: checksum=%.9g\n", sum);
		if (run.timed && first_recv_ns != 0) /* (2 tasks or more) */
			printf("elapsed %lld\n", t_end - first_recv_ns);
		fflush(stdout);
	} else {
		send_strip(&run, &s);
	}
	free(s.u);
	pangaea_exit();
	pvm_exit();
	return 0;
}
