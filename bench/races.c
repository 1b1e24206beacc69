/*
 * races.c: the speed of the racing-receive analysis
 * (logs/analysis/happens-before.c, logs/analysis/races.c) on a large synthetic
 * run.
 *
 * Usage: races DIR [WORKERS [MESSAGES]]   (defaults 4 x 250000)
 *
 * Writes into DIR (which must not hold logs) a master/worker run with
 * the real log writer, as racy -w WORKERS -m MESSAGES logs it: the master
 * spawns, sends each worker a setup message and takes every worker's
 * messages round-robin with a wildcard receive (pvm_recv(-1, tag);
 * RACES_FILTER=3: pvm_recv(-1, -1), RACES_FILTER=0: pvm_recv(tid, tag),
 * comm log version 6's filters); then, on one core, loads
 * its happens-before relation (reading and decoding the logs, matching,
 * vector clocks) and finds the races.  Prints the figures and the target
 * line (analysis >= 1 M events/s: "met" or "MISSED"), and removes the
 * logs it wrote.  Exit 1 if something fails.
 */
#include "bench.h"
#include "pangaea-analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Opens task LTID's comm log in DIR (and writes its exec log: the
 * master's names its one spawn of the W workers). */
static int open_task(struct pg_comm_writer *w, const char *dir, int ltid,
		     int W)
{
	struct pg_comm_header h = { .ltid = ltid, .tid = 0x40000 + ltid,
				    .mode = 1 };
	char path[PG_PATH_MAX], err[512], *argv[] = { NULL };
	struct pg_spawn_slot *slots = calloc((size_t)W, sizeof(*slots));
	struct pg_spawn_rec r = { .seq = 1, .ntask = W, .started = W,
				  .argv = argv, .slots = slots };
	int fd;

	if (!slots || pg_log_path(path, sizeof(path), dir, ltid, "exec") < 0 ||
	    (fd = pg_exec_create(path, ltid, err, sizeof(err))) < 0) {
		free(slots);
		return -1;
	}
	for (int i = 0; i < W; i++) {
		slots[i].ltid = 1001 + i;
		snprintf(slots[i].host, sizeof(slots[i].host), "vm");
	}
	if (ltid == 1 && pg_exec_append(fd, &r) < 0) {
		close(fd);
		free(slots);
		return -1;
	}
	close(fd);
	free(slots);
	if (pg_log_path(path, sizeof(path), dir, ltid, "comm") < 0 ||
	    pg_comm_create(w, path, &h, err, sizeof(err)) < 0) {
		fprintf(stderr, "races: %s\n", err);
		return -1;
	}
	return 0;
}

/* The master's receive filter (PG_FILTER_*): racy's pvm_recv(-1, tag),
 * or with RACES_FILTER=3 in the environment pvm_recv(-1, -1). */
static int master_filter(void)
{
	const char *f = getenv("RACES_FILTER");

	return f ? atoi(f) : PG_FILTER_ANYSRC;
}

/* Appends an event of KIND to W (a receive with the filter FILTER); 0 or
 * -1. */
static int put(struct pg_comm_writer *w, int kind, int peer, int tag,
	       unsigned msgid, int filter)
{
	struct pg_event e = { .kind = kind, .peer = peer, .tag = tag,
			      .msgid = msgid, .len = 8, .how = PG_END_EXIT,
			      .filter = filter };

	return pg_comm_append(w, &e);
}

/* Writes the run into DIR; 0 or -1. */
static int write_run(const char *dir, int W, int M)
{
	struct pg_comm_writer w;
	int rc = open_task(&w, dir, 1, W), f = master_filter();

	rc = rc < 0 ? -1 : put(&w, PG_REC_SPAWN, 0, 0, 1, 0);
	for (int i = 1; rc == 0 && i <= W; i++)
		rc = put(&w, PG_REC_SEND, 1000 + i, 99, (unsigned)i, 0);
	for (int m = 1; rc == 0 && m <= M; m++)
		for (int i = 1; rc == 0 && i <= W; i++)
			rc = put(&w, PG_REC_RECV, 1000 + i, 1, (unsigned)m, f);
	if (rc == 0)
		rc = put(&w, PG_REC_END, 0, 0, 0, 0);
	if (pg_comm_close(&w) < 0)
		rc = -1;
	for (int i = 1; rc == 0 && i <= W; i++) {
		if (open_task(&w, dir, 1000 + i, W) < 0)
			return -1;
		rc = put(&w, PG_REC_RECV, 1, 99, (unsigned)i, 0);
		for (int m = 1; rc == 0 && m <= M; m++)
			rc = put(&w, PG_REC_SEND, 1, 1, (unsigned)m, 0);
		if (rc == 0)
			rc = put(&w, PG_REC_END, 0, 0, 0, 0);
		if (pg_comm_close(&w) < 0)
			rc = -1;
	}
	return rc;
}

/* Removes the logs write_run made in DIR. */
static void remove_run(const char *dir, int W)
{
	char path[PG_PATH_MAX];

	for (int i = 0; i <= W; i++) {
		int ltid = i ? 1000 + i : 1;

		if (pg_log_path(path, sizeof(path), dir, ltid, "comm") == 0)
			unlink(path);
		if (pg_log_path(path, sizeof(path), dir, ltid, "exec") == 0)
			unlink(path);
	}
}

/* Seconds between two clocks' wall times. */
static double secs(const struct bench_clock *a, const struct bench_clock *b)
{
	return (double)(b->wall_ns - a->wall_ns) / 1e9;
}

int main(int argc, char **argv)
{
	int W = argc > 2 ? atoi(argv[2]) : 4, M = argc > 3 ? atoi(argv[3]) :
							      250000;
	struct bench_clock t0, t1, t2;
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	char err[1024];
	double load, find;
	int rc = 0;

	if (argc < 2 || W < 1 || M < 1) {
		fprintf(stderr, "usage: races DIR [WORKERS [MESSAGES]]\n");
		return 1;
	}
	if (write_run(argv[1], W, M) < 0) {
		fprintf(stderr, "races: cannot write the run into %s\n", argv[1]);
		remove_run(argv[1], W);
		return 1;
	}
	bench_clock_now(&t0);
	if (pg_hb_load(&hb, argv[1], err, sizeof(err)) < 0) {
		fprintf(stderr, "races: %s\n", err);
		rc = 1;
	}
	bench_clock_now(&t1);
	if (rc == 0 && pg_races_find(&hb, &r) < 0) {
		fprintf(stderr, "races: out of memory\n");
		rc = 1;
	}
	bench_clock_now(&t2);
	load = secs(&t0, &t1);
	find = secs(&t1, &t2);
	if (rc == 0) {
		printf("races: %ld events in %d tasks, %zu racing receives, "
		       "%zu alternatives\n", hb.events, hb.ntask, r.n, r.nalt);
		printf("races: load (logs, matching, clocks) %.3f s = %.0f "
		       "events/s\n", load, (double)hb.events / load);
		printf("races: analysis %.3f s = %.0f events/s (target >= "
		       "1000000)  %s\n", find, (double)hb.events / find,
		       (double)hb.events / find >= 1e6 ? "met" : "MISSED");
		printf("races: load + analysis %.0f events/s\n",
		       (double)hb.events / (load + find));
	}
	pg_races_free(&r);
	pg_hb_free(&hb);
	remove_run(argv[1], W);
	return rc;
}
