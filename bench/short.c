/*
 * short.c: a short master/worker run, the yardstick of Pangaea's fixed
 * start-up and shut-down cost (issue 28; bench/startup.sh).
 *
 * Usage: short [-w WORKERS] [-r ROUNDS] [-k THOUSANDS]
 *
 * The task started by hand spawns WORKERS copies of itself (default 3: a
 * 4-task run) and then, ROUNDS times (default 10), sends each worker a
 * job and takes the answers with a wildcard receive; a worker computes
 * THOUSANDS thousand steps of a random walk per job (default 3000: a few
 * ms).  With the
 * defaults: 60 job and answer messages plus the 3 stops, 100-200 ms on a
 * 2-core machine.  The master prints "short: done SUM", SUM the same in
 * every run.
 */
#include "bench.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "short"
#define TAG_JOB 1
#define TAG_ANSWER 2
#define TAG_STOP 3
#define MAX_WORKERS 32

/* A job: K thousand steps of a random walk (no clock read: a recorded
 * one would be logged); JOB's answer, the same whatever the machine. */
static volatile unsigned spin; /* (the work is not optimized away) */

static int work(int job, long k)
{
	spin = (unsigned)job;
	for (long j = 0; j < k; j++)
		for (int i = 0; i < 1000; i++)
			spin = spin * 1103515245u + 12345u;
	return job * 7 + 1;
}

/* A worker: answers jobs from PARENT until told to stop. */
static void worker(int parent, long k)
{
	int job, b, tag;

	for (;;) {
		b = bench_ok(PROG, pvm_recv(parent, -1), "pvm_recv");
		bench_ok(PROG, pvm_bufinfo(b, NULL, &tag, NULL), "pvm_bufinfo");
		if (tag == TAG_STOP)
			return;
		bench_ok(PROG, pvm_upkint(&job, 1, 1), "pvm_upkint");
		job = work(job, k);
		bench_ok(PROG, pvm_initsend(PvmDataDefault), "pvm_initsend");
		bench_ok(PROG, pvm_pkint(&job, 1, 1), "pvm_pkint");
		bench_ok(PROG, pvm_send(parent, TAG_ANSWER), "pvm_send");
	}
}

/* Sends JOB with TAG to TID. */
static void send_int(int tid, int tag, int job)
{
	bench_ok(PROG, pvm_initsend(PvmDataDefault), "pvm_initsend");
	bench_ok(PROG, pvm_pkint(&job, 1, 1), "pvm_pkint");
	bench_ok(PROG, pvm_send(tid, tag), "pvm_send");
}

/* The master: spawns NW workers, hands out NR rounds of jobs. */
static void master(const char *self, int nw, int nr, long k)
{
	char ubuf[32];
	char *args[] = { "-worker", ubuf, NULL };
	int tids[MAX_WORKERS], n, answer;
	long sum = 0;

	snprintf(ubuf, sizeof(ubuf), "%ld", k);
	n = pvm_spawn((char *)self, args, PvmTaskDefault, "", nw, tids);
	if (n != nw)
		bench_die(PROG, "pvm_spawn", n < 0 ? n : PvmSysErr);
	for (int r = 0; r < nr; r++) {
		for (int w = 0; w < nw; w++)
			send_int(tids[w], TAG_JOB, r * nw + w);
		for (int w = 0; w < nw; w++) {
			bench_ok(PROG, pvm_recv(-1, TAG_ANSWER), "pvm_recv");
			bench_ok(PROG, pvm_upkint(&answer, 1, 1), "pvm_upkint");
			sum += answer;
		}
	}
	for (int w = 0; w < nw; w++)
		send_int(tids[w], TAG_STOP, 0);
	printf("short: done %ld\n", sum);
}

/* Runs the master (started by hand) or a worker (-worker K). */
int main(int argc, char **argv)
{
	char self[PATH_MAX];
	int nw = 3, nr = 10, parent;
	long k = 3000;

	pangaea_init(&argc, &argv);
	pvm_setopt(PvmAutoErr, 0);
	bench_ok(PROG, pvm_mytid(), "pvm_mytid");
	parent = pvm_parent();
	if (argc == 3 && strcmp(argv[1], "-worker") == 0) {
		worker(bench_ok(PROG, parent, "pvm_parent"), atol(argv[2]));
	} else {
		for (int i = 1; i < argc; i++) {
			if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
				nw = atoi(argv[++i]);
			else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
				nr = atoi(argv[++i]);
			else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc)
				k = atol(argv[++i]);
			else {
				fprintf(stderr, "usage: short [-w WORKERS] [-r ROUNDS] "
						"[-k THOUSANDS]\n");
				pvm_exit();
				return 1;
			}
		}
		if (nw < 1 || nw > MAX_WORKERS || nr < 0 || k < 0) {
			fprintf(stderr, "short: -w must be 1..%d, -r and -k >= 0\n",
				MAX_WORKERS);
			pvm_exit();
			return 1;
		}
		bench_self(PROG, argv[0], self, sizeof(self));
		master(self, nw, nr, k);
	}
	pangaea_exit();
	pvm_exit();
	return 0;
}
