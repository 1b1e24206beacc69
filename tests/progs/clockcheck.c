/*
 * clockcheck.c: checks the clock fit of a run against the truth its
 * tasks printed (tests/progs/clockpp.c, tests/scenario/clocksync.sh).
 *
 *   clockcheck LOGDIR TRUTHFILE [MESSAGES [EVENTS]]
 *   clockcheck -samples LOGDIR
 *
 * -samples: prints "task LTID samples N" for each task's comm log, its
 * clock samples as logged (before any fit), for tests/scenario/startup.sh.
 *
 * Prints per host the fitted offset (reference - local) at its first kept
 * sample, the drift, the kept samples and the bound: half the largest
 * round trip of the kept samples (each is true within half its own, and
 * between two of them the true offset, linear under libfaketime, is
 * within the larger half) plus the drift's error over the distance to
 * the nearest sample for a time outside them.  Then, per truth line
 * "truth LTID MONO REAL [SPAN]", the error of the mapped time (MONO +
 * the host's base, mapped) against REAL, whose bound is the host's plus
 * SPAN / 2 (the truth's own: REAL was read within SPAN of MONO's two
 * reads, MONO their middle).  Exit 0 when every error is within its
 * bound, 1 otherwise, 2 on a usage or read error.
 *
 * MESSAGES, lines "SRC,DST,T_SEND,T_RECV" (`pangaea-trace sql --csv` of
 * the trace db's matched messages): prints the clock-condition
 * violations (a receive that completed before its send began) with the
 * importer's times and with the times mapped by the fit.
 *
 * EVENTS, lines "LTID,T0_RAW,T0" (the trace db's events after a --sync):
 * each event's true time from its task's truth points (the faked clock
 * is linear in the true one: a least-squares line through them), and
 * whether the synchronised T0 is within the bound of it.
 */
#include "pangaea-analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The host of task LTID in DIR (its comm log header) into HOST; 0 or -1. */
static int host_of(const char *dir, int ltid, char *host, size_t n)
{
	struct pg_comm_reader r;
	char path[PG_PATH_MAX], err[512];

	if (pg_log_path(path, sizeof(path), dir, ltid, "comm") < 0 ||
	    pg_comm_open(&r, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "clockcheck: %s\n", err);
		return -1;
	}
	snprintf(host, n, "%s", r.hdr.host);
	pg_comm_free(&r);
	return 0;
}

/* clockcheck -samples DIR: each task's clock samples; 0, or 2 on a read
 * error. */
static int count_samples(const char *dir)
{
	struct pg_comm_reader r;
	struct pg_event ev;
	char err[512];
	int *ltids, n, rc = 0, got;

	if ((n = pg_run_ltids(dir, "comm", &ltids)) < 0) {
		fprintf(stderr, "clockcheck: cannot read %s\n", dir);
		return 2;
	}
	for (int i = 0; i < n && rc == 0; i++) {
		if (pg_run_comm(&r, dir, ltids[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "clockcheck: %s\n", err);
			rc = 2;
			break;
		}
		while ((got = pg_comm_next(&r, &ev, err, sizeof(err))) > 0)
			;
		if (got < 0) {
			fprintf(stderr, "clockcheck: %s\n", err);
			rc = 2;
		} else {
			printf("task %d samples %d\n", ltids[i], r.nclock);
		}
		pg_comm_free(&r);
	}
	free(ltids);
	return rc;
}

/* The bound of the error at LOCAL on H, ns. */
static double bound_at(const struct pg_clock_host *h, uint64_t local)
{
	uint64_t max_rtt = 0, out = 0;
	double span;

	for (int i = 0; i < h->n; i++)
		if (h->pt[i].rtt > max_rtt)
			max_rtt = h->pt[i].rtt;
	if (local < h->pt[0].local)
		out = h->pt[0].local - local;
	else if (local > h->pt[h->n - 1].local)
		out = local - h->pt[h->n - 1].local;
	span = (double)(h->pt[h->n - 1].local - h->pt[0].local);
	/* the drift is off by at most max_rtt / span */
	return (double)max_rtt / 2 +
	       (span > 0 ? (double)max_rtt / span * (double)out : 0) + 1000;
}

/* The fitted host of task LTID of DIR in CS (NULL: none). */
static const struct pg_clock_host *task_host(const struct pg_clocksync *cs,
					     const char *dir, int ltid)
{
	char host[PG_HOST_MAX];

	if (host_of(dir, ltid, host, sizeof(host)) < 0)
		return NULL;
	return pg_clocksync_host(cs, host);
}

/* Counts the violations of the messages in PATH, raw and mapped. */
static int violations(const struct pg_clocksync *cs, const char *dir,
		      const char *path)
{
	unsigned long long ts, tr;
	int src, dst, raw = 0, synced = 0, n = 0;
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d,%d,%llu,%llu", &src, &dst, &ts, &tr) == 4) {
			n++;
			raw += tr < ts;
			synced += pg_clocksync_map(task_host(cs, dir, dst), tr) <
				  pg_clocksync_map(task_host(cs, dir, src), ts);
		}
	fclose(f);
	printf("messages %d violations raw %d linear %d\n", n, raw, synced);
	return 0;
}

/* The truth points of task LTID in the file PATH: a least-squares line
 * true = *A + *B * (local - *L0), local = MONO + BASE; 0, or -1 with
 * fewer than two points. */
static int truth_line(const char *path, int ltid, int64_t base, double *a,
		      double *b, double *l0)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, y0 = 0;
	unsigned long long mono, real;
	char line[512];
	int id, n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "truth ");
		double x, y;

		if (!p || sscanf(p, "truth %d %llu %llu", &id, &mono, &real) != 3 ||
		    id != ltid)
			continue;
		if (n == 0) {
			*l0 = (double)(int64_t)(mono + (uint64_t)base);
			y0 = (double)real;
		}
		x = (double)(int64_t)(mono + (uint64_t)base) - *l0;
		y = (double)real - y0;
		sx += x, sy += y, sxx += x * x, sxy += x * y;
		n++;
	}
	fclose(f);
	if (n < 2 || n * sxx - sx * sx == 0)
		return -1;
	*b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	*a = y0 + (sy - *b * sx) / n;
	return 0;
}

/* Checks the synchronised times of the events in EVENTS against their
 * truth (TRUTH's lines); the number out of bound, or -1. */
static int check_events(const struct pg_clocksync *cs, const char *dir,
			const char *truth, const char *events)
{
	unsigned long long raw, syn;
	double a = 0, b = 1, l0 = 0, worst = 0;
	int ltid, cur = -1, ok = 0, out = 0, n = 0;
	const struct pg_clock_host *h = NULL;
	char line[256];
	FILE *f = fopen(events, "r");

	if (!f) {
		perror(events);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		double e, bd;

		if (sscanf(line, "%d,%llu,%llu", &ltid, &raw, &syn) != 3)
			continue;
		if (ltid != cur) {
			cur = ltid;
			h = task_host(cs, dir, ltid);
			ok = h && truth_line(truth, ltid, h->base, &a, &b,
					     &l0) == 0;
		}
		if (!ok)
			continue;
		e = (double)syn - (a + b * ((double)(int64_t)raw - l0));
		bd = bound_at(h, raw);
		n++;
		worst = fabs(e) > worst ? fabs(e) : worst;
		if (fabs(e) > bd) {
			if (out++ < 5)
				printf("event of task %d at %llu: error %.0f ns, "
				       "bound %.0f\n", ltid, raw, e, bd);
		}
	}
	fclose(f);
	printf("events %d checked, largest error %.0f ns, %d out of bound\n",
	       n, worst, out);
	return n == 0 ? 1 : out;
}

int main(int argc, char **argv)
{
	struct pg_clocksync cs = { 0 };
	char err[512], line[512], host[PG_HOST_MAX];
	unsigned long long mono, real, tspan;
	int ltid, bad = 0, lines = 0;
	FILE *f;

	if (argc == 3 && strcmp(argv[1], "-samples") == 0)
		return count_samples(argv[2]);
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: clockcheck LOGDIR TRUTHFILE [MESSAGES "
			"[EVENTS]] | clockcheck -samples LOGDIR\n");
		return 2;
	}
	if (pg_clocksync_load(&cs, argv[1], err, sizeof(err)) < 0) {
		fprintf(stderr, "clockcheck: %s\n", err);
		return 2;
	}
	pg_clocksync_fit(&cs);
	for (int i = 0; i < cs.nhosts; i++) {
		const struct pg_clock_host *h = &cs.hosts[i];
		double span = (double)(h->pt[h->n - 1].local - h->pt[0].local);
		uint64_t max_rtt = 0;

		for (int j = 0; j < h->n; j++)
			max_rtt = h->pt[j].rtt > max_rtt ? h->pt[j].rtt : max_rtt;
		printf("host %s offset %lld drift %.3g samples %d min_rtt %llu "
		       "max_rtt %llu span %.3f drift_bound %.3g\n", h->host,
		       (long long)h->pt[0].offset, h->drift, h->n,
		       (unsigned long long)h->min_rtt,
		       (unsigned long long)max_rtt, span / 1e9,
		       span > 0 ? (double)max_rtt / span : 0);
	}
	if (!(f = fopen(argv[2], "r"))) {
		perror(argv[2]);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		const struct pg_clock_host *h;
		const char *p = strstr(line, "truth ");
		uint64_t local;
		double e, b;

		tspan = 0;
		if (!p || sscanf(p, "truth %d %llu %llu %llu", &ltid, &mono,
				 &real, &tspan) < 3)
			continue;
		if (host_of(argv[1], ltid, host, sizeof(host)) < 0)
			return 2;
		if (!(h = pg_clocksync_host(&cs, host))) {
			printf("task %d: no clock samples of host %s\n", ltid, host);
			bad = 1;
			continue;
		}
		local = mono + (uint64_t)h->base;
		e = (double)(int64_t)(pg_clocksync_map(h, local) - real);
		b = bound_at(h, local) + (double)tspan / 2;
		lines++;
		printf("task %d host %s raw_error %.0f error %.0f bound %.0f%s\n",
		       ltid, host, (double)(int64_t)(local - real), e, b,
		       e > b || e < -b ? " OUT" : "");
		if (e > b || e < -b)
			bad = 1;
	}
	fclose(f);
	if (argc >= 4 && violations(&cs, argv[1], argv[3]) < 0)
		return 2;
	if (argc == 5) {
		int k = check_events(&cs, argv[1], argv[2], argv[4]);

		if (k < 0)
			return 2;
		bad |= k > 0;
	}
	pg_clocksync_free(&cs);
	printf("clockcheck: %d truth points, %s\n", lines,
	       bad ? "some out of bound" : "all within bound");
	return bad || lines == 0;
}
