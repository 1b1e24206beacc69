/*
 * explore.c: pangaea -explore.  Explores the other orders of a recording
 * one what-if run at a time: the racing receives of the recording and of
 * each new run (only after that run's cut: its prefix was explored
 * already) become swaps, run as `pangaea -replay -swap` children of this
 * process, each classified against the recording (same outcome, other
 * output, other exit status, crash, deadlock, divergence, time out).
 * Runs are taken level by level (every swap of the recording before the
 * swaps of the runs they made, each level in the order of the
 * receives), so that a budget reaches every first alternative; prefixes
 * (la_cut's key) are run once: that plan is logs/analysis/explore-plan.c's.
 * Runs that differ are kept as recordings in REC.explore/NNN; a table of
 * the distinct outcomes ends it.
 */
#include "launcher.h"
#include "explore-plan.h"
#include "pangaea-analysis.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EX_TIMEOUT (-2)   /* run_child: the run took too long */
#define EX_TERM_GRACE_S 15 /* after SIGTERM, the launcher's time to stop */

/* A distinct outcome: how many runs had it, the first of them. */
struct ex_outcome {
	char what[256];
	int runs;
	int first_item;     /* its swaps */
	int first_run;      /* its folder */
};

/* The exploration's state. */
struct ex {
	char rec[PG_PATH_MAX], dir[PG_PATH_MAX + 16], self[PG_PATH_MAX];
	int budget, timeout_s, quiet, rec_status, runs, differ;
	char rec_end[128];      /* how REC failed (end_of), "" it did not */
	int first_no;           /* runs of an earlier exploration in DIR */
	struct pg_hb_swap from;
	int have_from;
	struct pg_explore_plan plan; /* the what-ifs to run, the prefixes run */
	struct ex_outcome *out;
	int nout;
	size_t capout;
	unsigned char *keep;    /* per run number: keep its folder */
};

/* The folder of run N (0: the recording) into BUF. */
static void run_dir(const struct ex *x, int n, char *buf, size_t len)
{
	if (n == 0)
		snprintf(buf, len, "%s", x->rec);
	else
		snprintf(buf, len, "%s/%03d", x->dir, n + x->first_no);
}

/*
 * Runs this program with ARGV (stdout and stderr into OUT and ERR), for
 * at most TIMEOUT_S seconds (0: no limit; then SIGTERM, which has the
 * launcher stop its run, and SIGKILL after a grace); its exit status,
 * EX_TIMEOUT, or -1 (said).
 */
static int run_child(const struct ex *x, char **argv, const char *out,
		     const char *err, int timeout_s)
{
	struct timespec t0, now, nap = { 0, 20 * 1000 * 1000 };
	int status, termed = 0;
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) < 0) {
		la_error("-explore: fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(LA_SETUP);
		execv(x->self, argv);
		_exit(LA_SETUP);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		double s;

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			la_error("-explore: waitpid: %s", strerror(errno));
			return -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		s = (double)(now.tv_sec - t0.tv_sec) +
		    (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
		if (timeout_s > 0 && !termed && s > timeout_s) {
			kill(pid, SIGTERM);
			termed = 1;
		} else if (termed == 1 && s > timeout_s + EX_TERM_GRACE_S) {
			kill(pid, SIGKILL);
			termed = 2;
		}
		nanosleep(&nap, NULL);
	}
	if (termed)
		return EX_TIMEOUT;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The first line of file PATH containing NEEDLE, into BUF ("" none). */
static void line_with(const char *path, const char *needle, char *buf,
		      size_t n)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, needle)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, n, "%s", line);
			break;
		}
	if (f)
		fclose(f);
}

/* How run DIR failed, from its run.info: the task of lowest ltid that a
 * signal killed ("task L, signal S"), else the one of lowest ltid that
 * exited with a status other than 0 ("task L, exit status S"), into
 * BUF; "" when none did (or run.info cannot be read). */
static void end_of(const char *dir, char *buf, size_t n)
{
	struct pg_runinfo ri;
	const struct pg_runinfo_task *sig = NULL, *ex = NULL;
	char err[PG_PATH_MAX + 100];

	buf[0] = '\0';
	if (pg_runinfo_read(dir, &ri, err, sizeof(err)) <= 0)
		return;
	for (size_t k = 0; k < ri.ntasks; k++) {
		const struct pg_runinfo_task *t = &ri.tasks[k];

		if (t->how == PG_END_SIGNAL && (!sig || t->ltid < sig->ltid))
			sig = t;
		if (t->how == PG_END_NO_EXIT && t->value != 0 &&
		    (!ex || t->ltid < ex->ltid))
			ex = t;
	}
	if (sig)
		snprintf(buf, n, "task %d, signal %d", sig->ltid, sig->value);
	else if (ex)
		snprintf(buf, n, "task %d, exit status %d", ex->ltid,
			 ex->value);
	pg_runinfo_free(&ri);
}

/* The outcome of run DIR (exit CODE, stderr ERR) against the recording,
 * into WHAT (the table's key); 1 the same as the recording (also when
 * both failed the same way: the same task, signal or exit status), 0
 * not. */
static int classify(const struct ex *x, const char *dir, int code,
		    const char *err, char *what, size_t n)
{
	char line[1024], diff[1024];
	const char *p;
	int ltid, sig, *ltids = NULL, nl, rc;

	if (code == EX_TIMEOUT) {
		snprintf(what, n, "time out (over %d s)", x->timeout_s);
		return 0;
	}
	if (x->rec_end[0] && code == x->rec_status) {
		end_of(dir, line, sizeof(line));
		if (strcmp(line, x->rec_end) == 0) {
			snprintf(what, n, "same outcome as the recording");
			return 1;
		}
	}
	line_with(err, "was killed by signal ", line, sizeof(line));
	p = strstr(line, "error: task ");
	if (p && sscanf(p, "error: task %d", &ltid) == 1 &&
	    (p = strstr(line, "killed by signal ")) &&
	    sscanf(p, "killed by signal %d", &sig) == 1 && code == LA_DIED) {
		snprintf(what, n, "crash: task %d, signal %d (%s)", ltid, sig,
			 strsignal(sig));
		return 0;
	}
	if (code == LA_DIVERGED) {
		line_with(err, "deadlock", line, sizeof(line));
		snprintf(what, n, "%s", line[0] ? "deadlock" : "divergence");
		return 0;
	}
	if (code != x->rec_status) {
		snprintf(what, n, "exit status %d (the recording's: %d)", code,
			 x->rec_status);
		return 0;
	}
	nl = pg_run_ltids(dir, "comm", &ltids);
	rc = nl < 0 ? -1 : pg_outverify(x->rec, dir, ltids, nl, diff,
					sizeof(diff));
	free(ltids);
	if (rc != 0) {
		p = strstr(diff, "task ");
		if (p && sscanf(p, "task %d", &ltid) == 1)
			snprintf(what, n, "different output (task %d)", ltid);
		else
			snprintf(what, n, "different output");
		return 0;
	}
	snprintf(what, n, "same outcome as the recording");
	return 1;
}

/* Counts run RUN (item I) under outcome WHAT. */
static void note_outcome(struct ex *x, const char *what, int i, int run)
{
	int k;

	for (k = 0; k < x->nout && strcmp(x->out[k].what, what); k++)
		;
	if (k == x->nout) {
		struct ex_outcome *p = pg_grow(x->out, &x->capout,
					       (size_t)x->nout + 1, sizeof(*p),
					       32);

		if (!p)
			return;
		x->out = p;
		memset(&x->out[k], 0, sizeof(x->out[k]));
		snprintf(x->out[k].what, sizeof(x->out[k].what), "%s", what);
		x->out[k].first_item = i;
		x->out[k].first_run = run;
		x->nout++;
	}
	x->out[k].runs++;
}

/* Runs item I; 0, or -1 to stop (said). */
static int run_item(struct ex *x, int i)
{
	struct pg_explore_item *it = &x->plan.items[i];
	char base[PG_PATH_MAX + 16], dir[PG_PATH_MAX + 16], swap[96];
	char out[PG_PATH_MAX + 32], err[PG_PATH_MAX + 32], what[256];
	char path[1024];
	char *argv[] = { x->self, "-replay", "-swap", swap, "-logdir", base,
			 "-out", dir, NULL };
	struct pg_hb_swap *next = NULL;
	struct la_cut cut;
	int run, code, same, n, s;

	run_dir(x, it->base, base, sizeof(base));
	if (la_whatif_cut(base, &it->sw, &cut) < 0)
		return 0; /* (said) */
	s = pg_explore_seen(&x->plan, cut.key);
	if (s != 0) {
		la_whatif_cut_free(&cut);
		return s < 0 ? -1 : 0;
	}
	run = ++x->runs;
	run_dir(x, run, dir, sizeof(dir));
	snprintf(swap, sizeof(swap), "%d:%llu=%d:%u", it->sw.ltid,
		 (unsigned long long)it->sw.event, it->sw.sender, it->sw.msgid);
	snprintf(out, sizeof(out), "%s.stdout", dir);
	snprintf(err, sizeof(err), "%s.stderr", dir);
	code = run_child(x, argv, out, err, x->timeout_s);
	if (code < 0 && code != EX_TIMEOUT) {
		la_whatif_cut_free(&cut);
		return -1;
	}
	same = classify(x, dir, code, err, what, sizeof(what));
	x->keep[run] = !same;
	x->differ += !same;
	note_outcome(x, what, i, run);
	pg_explore_chain(&x->plan, i, path, sizeof(path));
	if (!x->quiet)
		fprintf(stderr, "pangaea: explore: run %d/%d: %s: %s (%d "
			"outcome(s) so far, %d differ)\n", run, x->budget, path,
			what, x->nout, x->differ);
	/* a run that ended as the recording did goes on being explored */
	if (code == x->rec_status && code != EX_TIMEOUT &&
	    (n = la_whatif_races(dir, &cut, NULL, &next)) > 0)
		pg_explore_add(&x->plan, run, i, next, n);
	free(next);
	la_whatif_cut_free(&cut);
	return 0;
}

/* Removes the folder of run N and its output files. */
static void drop_run(const struct ex *x, int n)
{
	char dir[PG_PATH_MAX + 16], path[PG_PATH_MAX + 300];
	char *names[] = { "stdout", "stderr" };
	struct dirent *e;
	DIR *d;

	run_dir(x, n, dir, sizeof(dir));
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s.%s", dir, names[k]);
		unlink(path);
	}
	if (!(d = opendir(dir)))
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(dir);
}

/* Prints the table of outcomes on stdout. */
static void table(const struct ex *x)
{
	char path[1024], dir[PG_PATH_MAX + 16];

	printf("explored %d what-if run(s) of %s: %d outcome(s)\n", x->runs,
	       x->rec, x->nout);
	for (int k = 0; k < x->nout; k++) {
		const struct ex_outcome *o = &x->out[k];

		pg_explore_chain(&x->plan, o->first_item, path, sizeof(path));
		run_dir(x, o->first_run, dir, sizeof(dir));
		printf("  %-40s %d run(s)  swaps: %s", o->what, o->runs, path);
		if (x->keep[o->first_run])
			printf("  replay: pangaea -replay -logdir %s", dir);
		printf("\n");
	}
}

/* The recording's exit status, from its run.info; -1 (said) if none. */
static int rec_status(const char *rec)
{
	char err[PG_PATH_MAX + 100];
	struct pg_runinfo ri;
	int s;

	if (pg_runinfo_read(rec, &ri, err, sizeof(err)) < 0) {
		la_error("-explore: %s", err);
		return -1;
	}
	s = ri.status;
	pg_runinfo_free(&ri);
	return s;
}

/* Records PROGRAM ARGS (ARGV from I on) into REC; 0 or -1 (said). */
static int record_first(struct ex *x, int argc, char **argv, int i)
{
	char **a = calloc((size_t)(argc - i) + 5, sizeof(char *));
	char out[PG_PATH_MAX + 32], err[PG_PATH_MAX + 32];
	int k = 0, code;

	if (!a)
		return -1;
	a[k++] = x->self;
	a[k++] = "-log";
	a[k++] = "-logdir";
	a[k++] = x->rec;
	while (i < argc)
		a[k++] = argv[i++];
	snprintf(out, sizeof(out), "%s/000.stdout", x->dir);
	snprintf(err, sizeof(err), "%s/000.stderr", x->dir);
	code = run_child(x, a, out, err, 0);
	free(a);
	if (!x->quiet)
		fprintf(stderr, "pangaea: explore: recorded %s (exit %d; its "
			"output in %s)\n", x->rec, code, out);
	return code < 0 || code == LA_SETUP ? -1 : 0;
}

/* The highest run number NNN in DIR (an earlier exploration's), or 0. */
static int last_run(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int last = 0, n, k;

	while (d && (e = readdir(d)))
		if (sscanf(e->d_name, "%d%n", &n, &k) == 1 && !e->d_name[k] &&
		    n > last)
			last = n;
	if (d)
		closedir(d);
	return last;
}

/* Parses the options of -explore into X; the index of PROGRAM (argc if
 * none), or -1 (said). */
static int parse(struct ex *x, int argc, char **argv)
{
	int i;

	x->budget = 50;
	snprintf(x->rec, sizeof(x->rec), "pangaea-logs");
	for (i = 2; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		unsigned long long e;
		int k = 0;

		if (strcmp(a, "-q") == 0) {
			x->quiet = 1;
			continue;
		}
		if (!v) {
			la_error("-explore: %s: missing value or unknown option", a);
			return -1;
		}
		i++;
		if (strcmp(a, "-budget") == 0 && (x->budget = atoi(v)) > 0)
			continue;
		if (strcmp(a, "-timeout") == 0 && (x->timeout_s = atoi(v)) > 0)
			continue;
		if (strcmp(a, "-logdir") == 0) {
			snprintf(x->rec, sizeof(x->rec), "%s", v);
			continue;
		}
		if (strcmp(a, "-from") == 0 &&
		    sscanf(v, "%d:%llu%n", &x->from.ltid, &e, &k) == 2 && !v[k]) {
			x->from.event = (long)e;
			x->have_from = 1;
			continue;
		}
		la_error("-explore: bad option %s %s (-budget N, -timeout S, "
			 "-from LTID:EVENT, -logdir DIR)", a, v);
		return -1;
	}
	return i;
}

int la_explore(int argc, char **argv)
{
	struct ex x = { 0 };
	struct pg_hb_swap *first = NULL;
	char rec[PG_PATH_MAX];
	ssize_t k = readlink("/proc/self/exe", x.self, sizeof(x.self) - 1);
	int i, n, status = LA_SETUP;

	x.self[k > 0 ? k : 0] = '\0';
	if ((i = parse(&x, argc, argv)) < 0)
		return LA_SETUP;
	snprintf(x.dir, sizeof(x.dir), "%s.explore", x.rec);
	if (mkdir(x.dir, 0700) < 0 && errno != EEXIST) {
		la_error("-explore: cannot make %s: %s", x.dir, strerror(errno));
		return LA_SETUP;
	}
	x.first_no = last_run(x.dir); /* an earlier exploration's stay */
	if (i < argc && record_first(&x, argc, argv, i) < 0)
		goto out;
	if (!realpath(x.rec, rec) || (x.rec_status = rec_status(rec)) < 0)
		goto out;
	snprintf(x.rec, sizeof(x.rec), "%s", rec);
	snprintf(x.dir, sizeof(x.dir), "%s.explore", x.rec);
	end_of(x.rec, x.rec_end, sizeof(x.rec_end));
	if (!(x.keep = calloc((size_t)x.budget + 1, 1)))
		goto out;
	n = la_whatif_races(x.rec, NULL, x.have_from ? &x.from : NULL, &first);
	if (n < 0 || pg_explore_add(&x.plan, 0, -1, first, n) < 0)
		goto out;
	if (!x.quiet)
		fprintf(stderr, "pangaea: explore: %s: %d racing alternative(s) "
			"%s that can be swapped in (pangaea-trace races counts "
			"polls' and joins' outcomes too); budget %d run(s)\n",
			x.rec, n,
			x.have_from ? "at the receive of -from" : "in the recording",
			x.budget);
	for (int j = 0; j < x.plan.n && x.runs < x.budget; j++)
		if (run_item(&x, j) < 0)
			goto out;
	for (int r = 1; r <= x.runs; r++)
		if (!x.keep[r])
			drop_run(&x, r);
	table(&x);
	status = x.differ ? LA_DIFFERED : LA_OK;
out:
	if (status == LA_SETUP)
		rmdir(x.dir); /* (only if empty: nothing was run) */
	free(first);
	pg_explore_free(&x.plan);
	free(x.out);
	free(x.keep);
	return status;
}
