/*
 * annai.c: the receive and iprobe benchmarks of the Annai paper (000,
 * Fig. 1 and Fig. 3) on PVM.
 *
 * Usage: annai [-p TASKS] [-n ROUNDS] [-iprobe]
 *
 * TASKS tasks (default 4; the one started by hand spawns the others) run
 * ROUNDS rounds (default 500).  In each round every task in turn is the
 * receiver: the other TASKS-1 send it one int, racing, and it takes the
 * TASKS-1 messages with a wildcard receive, pvm_recv(-1, TAG).  -iprobe
 * receives as Fig. 3 does instead: poll pvm_probe(-1, TAG) until a message
 * is there, then pvm_recv from its sender (the number of failed polls
 * differs from run to run, and replay must reproduce it).  Each task times
 * its loop; the result line gives the mean over the tasks (wall and CPU),
 * with n = the receives per task.
 */
#include "bench.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "annai"
#define MAX_TASKS 64
#define TAG_RACE 1
#define TAG_SETUP 10
#define TAG_RESULT 11

/* Receives one racing message the way the benchmark says; returns the
 * number of failed polls it took. */
static long receive_racing(int iprobe)
{
	long fails = 0;
	int b, src, x;

	if (!iprobe) {
		bench_ok(PROG, pvm_recv(-1, TAG_RACE), "pvm_recv");
	} else {
		while ((b = bench_ok(PROG, pvm_probe(-1, TAG_RACE),
				     "pvm_probe")) == 0)
			fails++;
		bench_ok(PROG, pvm_bufinfo(b, NULL, NULL, &src), "pvm_bufinfo");
		bench_ok(PROG, pvm_recv(src, TAG_RACE), "pvm_recv");
	}
	bench_ok(PROG, pvm_upkint(&x, 1, 1), "pvm_upkint");
	return fails;
}

/* The benchmark loop of task ME among the P tasks TIDS; failed polls out. */
static long receive_benchmark(const int *tids, int p, int me, int rounds,
			      int iprobe)
{
	long fails = 0;

	for (int i = 0; i < rounds; i++) {
		for (int j = 0; j < p; j++) {
			if (j == me) {
				for (int k = 1; k < p; k++)
					fails += receive_racing(iprobe);
				continue;
			}
			bench_ok(PROG, pvm_initsend(PvmDataDefault),
				 "pvm_initsend");
			bench_ok(PROG, pvm_pkint(&me, 1, 1), "pvm_pkint");
			bench_ok(PROG, pvm_send(tids[j], TAG_RACE), "pvm_send");
		}
	}
	return fails;
}

/* Runs and times the loop; fills V with wall ns, CPU ns, failed polls. */
static void timed_run(const int *tids, int p, int me, int rounds, int iprobe,
		      long v[3])
{
	struct bench_clock t0, t1;

	bench_clock_now(&t0);
	v[2] = receive_benchmark(tids, p, me, rounds, iprobe);
	bench_clock_now(&t1);
	v[0] = (long)(t1.wall_ns - t0.wall_ns);
	v[1] = (long)(t1.cpu_ns - t0.cpu_ns);
}

/* A spawned task: gets the tids and parameters, runs, reports. */
static void member(int parent)
{
	int setup[3 + MAX_TASKS], me = -1, mytid = pvm_mytid();
	long v[3];

	bench_ok(PROG, pvm_recv(parent, TAG_SETUP), "pvm_recv");
	bench_ok(PROG, pvm_upkint(setup, 3, 1), "pvm_upkint");
	bench_ok(PROG, pvm_upkint(setup + 3, setup[0], 1), "pvm_upkint");
	for (int i = 0; i < setup[0]; i++)
		if (setup[3 + i] == mytid)
			me = i;
	if (me < 0)
		bench_die(PROG, "finding my rank", PvmSysErr);
	timed_run(setup + 3, setup[0], me, setup[1], setup[2], v);
	bench_ok(PROG, pvm_initsend(PvmDataDefault), "pvm_initsend");
	bench_ok(PROG, pvm_pklong(v, 3, 1), "pvm_pklong");
	bench_ok(PROG, pvm_send(parent, TAG_RESULT), "pvm_send");
}

/* The task started by hand: spawns, runs as rank 0, gathers, reports. */
static void leader(const char *self, int p, int rounds, int iprobe)
{
	int setup[3 + MAX_TASKS] = { p, rounds, iprobe };
	long v[3], sum[3] = { 0, 0, 0 }, max_wall = 0;
	struct bench_clock t0 = { 0, 0 }, t1;
	char *args[] = { "-member", NULL };
	char extra[128];

	setup[3] = pvm_mytid();
	if (pvm_spawn((char *)self, args, PvmTaskDefault, "", p - 1,
		      setup + 4) != p - 1)
		bench_die(PROG, "pvm_spawn", setup[4] < 0 ? setup[4] : PvmSysErr);
	for (int i = 1; i < p; i++) {
		bench_ok(PROG, pvm_initsend(PvmDataDefault), "pvm_initsend");
		bench_ok(PROG, pvm_pkint(setup, 3 + p, 1), "pvm_pkint");
		bench_ok(PROG, pvm_send(setup[3 + i], TAG_SETUP), "pvm_send");
	}
	timed_run(setup + 3, p, 0, rounds, iprobe, v);
	for (int i = 0; i < p; i++) {
		if (i > 0) {
			bench_ok(PROG, pvm_recv(-1, TAG_RESULT), "pvm_recv");
			bench_ok(PROG, pvm_upklong(v, 3, 1), "pvm_upklong");
		}
		for (int k = 0; k < 3; k++)
			sum[k] += v[k];
		if (v[0] > max_wall)
			max_wall = v[0];
	}
	t1.wall_ns = (uint64_t)(sum[0] / p);
	t1.cpu_ns = (uint64_t)(sum[1] / p);
	snprintf(extra, sizeof(extra), "tasks=%d failed_polls=%ld max_wall_ns=%ld",
		 p, sum[2], max_wall);
	bench_result(PROG, iprobe ? "iprobe" : "recv",
		     (long)rounds * (p - 1), &t0, &t1, extra);
}

/* Runs the leader (started by hand) or a member (spawned with -member). */
int main(int argc, char **argv)
{
	char self[PATH_MAX];
	int p = 4, rounds = 500, iprobe = 0;

	pangaea_init(&argc, &argv);
	pvm_setopt(PvmAutoErr, 0);
	bench_ok(PROG, pvm_mytid(), "pvm_mytid");
	if (argc == 2 && strcmp(argv[1], "-member") == 0) {
		member(bench_ok(PROG, pvm_parent(), "pvm_parent"));
	} else {
		for (int i = 1; i < argc; i++) {
			if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
				p = atoi(argv[++i]);
			else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
				rounds = atoi(argv[++i]);
			else if (strcmp(argv[i], "-iprobe") == 0)
				iprobe = 1;
			else
				p = 0;
		}
		if (p < 2 || p > MAX_TASKS || rounds < 1) {
			fprintf(stderr, "usage: annai [-p TASKS (2..%d)] "
					"[-n ROUNDS] [-iprobe]\n", MAX_TASKS);
			pvm_exit();
			return 1;
		}
		bench_self(PROG, argv[0], self, sizeof(self));
		leader(self, p, rounds, iprobe);
	}
	pangaea_exit();
	pvm_exit();
	return 0;
}
