/*
 * waiter.c - a run whose tasks compute, wait and sit at a barrier at
 * known moments (Pangaea example for the viewer's task states).
 *
 * Usage: waiter [MS]
 *
 * The task started by hand (the master, ltid 1) spawns one copy of
 * itself (the worker, ltid 1001), then:
 *   1. the worker computes for MS ms (default 300; a busy loop, no PVM
 *      call) and sends the master a message: the master waits in
 *      pvm_recv all that time;
 *   2. the master computes for MS ms and sends the worker 4 MB: the
 *      worker waits in pvm_recv;
 *   3. both join the group "waiter"; the master computes for MS ms more
 *      while the worker waits at pvm_barrier for the two of them, then
 *      the master joins the barrier too.
 * The master prints "waiter: done" at the end.
 */
#define _DEFAULT_SOURCE

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pangaea.h>

#define TAG_GO 1
#define TAG_DATA 2
#define GROUP "waiter"
#define DATA_INTS (1024 * 1024)

/* Prints "waiter: WHAT failed (CODE)" to stderr, leaves PVM, exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "waiter: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* Keeps the CPU busy for MS milliseconds without calling PVM. */
static void compute(int ms)
{
	struct timespec a, b;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

/* Joins GROUP and waits at its barrier for two tasks. */
static void barrier(void)
{
	int rc;

	if ((rc = pvm_joingroup(GROUP)) < 0)
		die("pvm_joingroup", rc);
	if ((rc = pvm_barrier(GROUP, 2)) < 0)
		die("pvm_barrier", rc);
	pvm_lvgroup(GROUP);
}

int main(int argc, char **argv)
{
	int ms = argc > 1 ? atoi(argv[1]) : 300;
	int parent, other, rc;
	static int data[DATA_INTS];

	pangaea_init(&argc, &argv);
	if (pvm_mytid() < 0) {
		fprintf(stderr, "waiter: cannot enroll in PVM\n");
		return 1;
	}
	if (ms < 1)
		ms = 300;
	parent = pvm_parent();
	if (parent < 0) {
		char *args[] = { argc > 1 ? argv[1] : "300", NULL };
		char self[PATH_MAX];

		if (!realpath(argv[0], self)) {
			perror("waiter: cannot find its own program");
			pvm_exit();
			return 1;
		}
		if (pvm_spawn(self, args, PvmTaskDefault, "", 1, &other) != 1)
			die("pvm_spawn", other);
		if ((rc = pvm_recv(other, TAG_GO)) < 0)
			die("pvm_recv", rc);
		compute(ms);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(data, DATA_INTS, 1);
		if ((rc = pvm_send(other, TAG_DATA)) < 0)
			die("pvm_send", rc);
		pvm_joingroup(GROUP);
		compute(ms);
		if ((rc = pvm_barrier(GROUP, 2)) < 0)
			die("pvm_barrier", rc);
		pvm_lvgroup(GROUP);
		printf("waiter: done\n");
	} else {
		compute(ms);
		pvm_initsend(PvmDataDefault);
		if ((rc = pvm_send(parent, TAG_GO)) < 0)
			die("pvm_send", rc);
		if ((rc = pvm_recv(parent, TAG_DATA)) < 0)
			die("pvm_recv", rc);
		barrier();
	}
	pangaea_exit();
	pvm_exit();
	return 0;
}
