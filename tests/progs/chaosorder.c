/*
 * chaosorder.c: a scenario-test program whose receive order is left to
 * chaos recording (tests/scenario/chaos.sh), not to its own timing.
 *
 *   chaosorder [N]   spawns N workers (default 4) and sends each its
 *                    number (tag 3); each sends the master its number
 *                    (tag 1), then a note (tag 2).  The master
 *                    first takes every worker's note by its source, so
 *                    that all the numbers are in its queue (PVM keeps a
 *                    sender's order), then takes the numbers with a
 *                    wildcard receive and prints the order:
 *                    "chaosorder: order W W W W".  Plain PVM gives them
 *                    in arrival order; -chaos in its priorities' order.
 *   chaosorder N -trecv   the same with pvm_trecv (5 s) for the numbers,
 *                    after a pvm_trecv of 0.2 s for a tag nobody sends
 *                    ("chaosorder: trecv timed out" when it returns 0).
 */
#include <pangaea.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORKERS 16

/* A worker: takes its number from the parent, sends it back, then the
 * note; 0 or 1. */
static int worker(void)
{
	int w = 0;

	if (pvm_recv(pvm_parent(), 3) < 0)
		return 1;
	pvm_upkint(&w, 1, 1);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&w, 1, 1);
	if (pvm_send(pvm_parent(), 1) < 0)
		return 1;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&w, 1, 1);
	return pvm_send(pvm_parent(), 2) < 0;
}

/* The master's wildcard receive of TAG: pvm_recv, or with TRECV
 * pvm_trecv for up to SECONDS.MICROSECONDS; PVM's return. */
static int receive(int trecv, int tag, long seconds, long micro)
{
	struct timeval tv = { seconds, micro };

	return trecv ? pvm_trecv(-1, tag, &tv) : pvm_recv(-1, tag);
}

/* The master: spawns N workers, waits for their notes, prints the order
 * of their numbers at the wildcard receive (pvm_trecv with TRECV); 0 or
 * 1. */
static int master(const char *self, int n, int trecv)
{
	int tids[MAX_WORKERS];
	char *wargv[] = { "-worker", NULL };

	if (pvm_spawn((char *)self, wargv, 0, NULL, n, tids) != n)
		return 1;
	for (int i = 0; i < n; i++) {
		int w = i + 1;

		pvm_initsend(PvmDataDefault);
		pvm_pkint(&w, 1, 1);
		if (pvm_send(tids[i], 3) < 0)
			return 1;
	}
	for (int i = 0; i < n; i++)
		if (pvm_recv(-1, 2) < 0)
			return 1;
	if (trecv && receive(1, 9, 0, 200000) == 0)
		printf("chaosorder: trecv timed out\n");
	printf("chaosorder: order");
	for (int i = 0; i < n; i++) {
		int w = 0;

		if (receive(trecv, 1, 5, 0) <= 0)
			return 1;
		pvm_upkint(&w, 1, 1);
		printf(" %d", w);
	}
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	int rc, n = argc >= 2 ? atoi(argv[1]) : 4;
	int trecv = argc == 3 && strcmp(argv[2], "-trecv") == 0;

	pangaea_init(&argc, &argv);
	if (argc == 2 && strcmp(argv[1], "-worker") == 0)
		rc = worker();
	else if ((argc <= 2 || trecv) && n >= 1 && n <= MAX_WORKERS)
		rc = master(argv[0], n, trecv);
	else {
		fprintf(stderr, "usage: chaosorder [N [-trecv]]\n");
		rc = 1;
	}
	pangaea_exit();
	pvm_exit(); /* a worker's last messages leave before it does */
	return rc;
}
