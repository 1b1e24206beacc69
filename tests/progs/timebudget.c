/*
 * timebudget: a plain PVM program (pvm3.h, no Pangaea) whose workers
 * send until a time budget runs out, each message's tag drawn with
 * rand() seeded by time(NULL) ^ getpid(); the master counts what came,
 * by worker and by tag, and prints the time it all took.  What it prints
 * depends on the clock at every step: tests/scenario/clock.sh records it
 * through libpangaea.so and replays it to the same lines (it builds it
 * with cc -lpvm3, as a user would: not a TEST_PROGS of the Makefile).
 *
 *   timebudget [-w WORKERS] [-ms BUDGET] [-extra FILE]   the master
 *                            (-extra: if FILE exists at the end, it
 *                            reads the clock once more than otherwise)
 *   timebudget -worker BUDGET                  a worker (spawned)
 */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define TAGS 5
#define TAG_DONE 99

/* Microseconds now (gettimeofday). */
static long long now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

/* A worker: sends to its parent until BUDGET_MS have passed, then its
 * count; 0. */
static int worker(int budget_ms)
{
	int parent, n = 0;
	long long start;

	srand((unsigned)(time(NULL) ^ getpid()));
	pvm_mytid();
	parent = pvm_parent();
	start = now_us();
	while (now_us() - start < budget_ms * 1000LL) {
		int tag = 1 + rand() % TAGS;

		pvm_initsend(PvmDataDefault);
		pvm_pkint(&n, 1, 1);
		pvm_send(parent, tag);
		n++;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&n, 1, 1);
	pvm_send(parent, TAG_DONE);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int nw = 3, ms = 200, tids[16], done = 0, bytag[TAGS + 1] = { 0 };
	int count[16] = { 0 };
	const char *extra = NULL;
	char arg[16], *wargv[] = { "-worker", arg, NULL };
	long long t0;

	if (argc == 3 && strcmp(argv[1], "-worker") == 0)
		return worker(atoi(argv[2]));
	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "-w") == 0)
			nw = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "-ms") == 0)
			ms = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "-extra") == 0)
			extra = argv[i + 1];
	}
	if (nw < 1 || nw > 16 || ms < 1) {
		fprintf(stderr, "timebudget: bad arguments\n");
		return 1;
	}
	t0 = now_us();
	pvm_mytid();
	snprintf(arg, sizeof(arg), "%d", ms);
	if (pvm_spawn(argv[0], wargv, PvmTaskDefault, "", nw, tids) != nw) {
		fprintf(stderr, "timebudget: spawn failed\n");
		pvm_exit();
		return 1;
	}
	while (done < nw) {
		int bufid = pvm_recv(-1, -1), bytes, tag, src, n;

		pvm_bufinfo(bufid, &bytes, &tag, &src);
		pvm_upkint(&n, 1, 1);
		for (int i = 0; i < nw; i++)
			if (tids[i] == src && tag == TAG_DONE) {
				printf("worker %d: sent %d\n", i, n);
				done++;
			} else if (tids[i] == src) {
				count[i]++;
			}
		if (tag >= 1 && tag <= TAGS)
			bytag[tag]++;
	}
	if (extra && access(extra, F_OK) == 0)
		printf("extra read at %lld\n", now_us() - t0);
	for (int t = 1; t <= TAGS; t++)
		printf("tag %d: %d messages\n", t, bytag[t]);
	for (int i = 0; i < nw; i++)
		printf("worker %d: %d received\n", i, count[i]);
	/* the elapsed time read after pvm_exit: the task has left the
	   run (its end record written), its clock is still replayed */
	pvm_exit();
	printf("elapsed %.6f s\n", (now_us() - t0) / 1e6);
	return 0;
}
