/*
 * deadlock.c - two workers that each wait for the other first (Pangaea
 * example of a real deadlock).
 *
 * Usage: deadlock [-ok | -barrier | -reduce] [-busy] [-mcast]
 *                 [-trecv SECONDS]
 *
 * The task started by hand (the master) spawns two copies of itself and
 * tells each the other's tid.  Each worker then waits for a message from
 * the other (tag 2) before it sends its own, and would then send the
 * master its number (tag 5); the master waits for both with
 * pvm_recv(-1, 5).  Nobody ever sends: every task is blocked in a
 * receive that no task can satisfy.  Under Pangaea the launcher reports
 * it and ends the run (exit 3).
 *
 * -ok: worker 1 first works for 3 s (no PVM call: the others wait for it
 * all that time, which is no deadlock), then sends before it waits, which
 * breaks the circle: the run ends normally and the master prints
 * "deadlock: done".
 *
 * -barrier: the three tasks join the group "deadlock" and wait at a
 * barrier for 4 of them: a barrier that can never be passed.
 *
 * -reduce: the three tasks join the group "deadlock", the workers tell
 * the master so and then wait for each other as above, while the master
 * sums their numbers with pvm_reduce: it waits for parts never sent.
 *
 * -busy: the master works for 5 s (no PVM call) after it introduced the
 * workers, before it waits for their answers: without -ok, the workers
 * are deadlocked while the master still runs.
 *
 * -mcast: the master also multicasts a note to both workers (tag 4,
 * which they never get to read) after it introduced them: its last
 * event before it waits is a pvm_mcast.
 *
 * -trecv SECONDS: the master waits for the answers with pvm_trecv and
 * that timeout (a wait that ends is no deadlock), then says "deadlock: no
 * answer in SECONDS s" and ends (exit 1), leaving the workers deadlocked.
 *
 * Worker W is spawned W-th, so under Pangaea it is logical task 1000+W.
 */
#define _DEFAULT_SOURCE

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pangaea.h>

#define TAG_SETUP 1
#define TAG_PEER 2
#define TAG_RESULT 5
#define TAG_JOINED 3
#define TAG_NOTE 4
#define TAG_REDUCE 7
#define GROUP "deadlock"

/* What the run does (the master tells the workers). */
enum { RUN_DEADLOCK, RUN_OK, RUN_BARRIER, RUN_REDUCE };

/* Prints "deadlock: WHAT failed (CODE)" to stderr, leaves PVM, exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "deadlock: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* Sends the int V to TID with TAG; dies on failure. */
static void send_int(int tid, int tag, int v)
{
	int rc;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	if ((rc = pvm_send(tid, tag)) < 0)
		die("pvm_send", rc);
}

/* Receives an int from TID with TAG; dies on failure. */
static int recv_int(int tid, int tag)
{
	int b = pvm_recv(tid, tag), v = 0;

	if (b < 0)
		die("pvm_recv", b);
	pvm_upkint(&v, 1, 1);
	return v;
}

/* Joins the group and waits at a barrier for one task more than there
 * are: never returns but on an error. */
static void barrier(void)
{
	int rc = pvm_joingroup(GROUP);

	if (rc < 0)
		die("pvm_joingroup", rc);
	if ((rc = pvm_barrier(GROUP, 4)) < 0)
		die("pvm_barrier", rc);
}

/* The master's part of -reduce: joins, waits until both workers have,
 * and sums 1 from each member into its own (never returns but on an
 * error: the workers never take part). */
static void reduce(void)
{
	int inst = pvm_joingroup(GROUP), v = 1, rc;

	if (inst < 0)
		die("pvm_joingroup", inst);
	recv_int(-1, TAG_JOINED);
	recv_int(-1, TAG_JOINED);
	rc = pvm_reduce(PvmSum, &v, 1, PVM_INT, TAG_REDUCE, GROUP, inst);
	if (rc < 0)
		die("pvm_reduce", rc);
}

/* A worker: learns its number, its peer and the kind of run from the
 * master, then waits for the peer before answering it (worker 1 of an
 * ok run: after). */
static int worker(int parent)
{
	int b = pvm_recv(parent, TAG_SETUP), w = 0, peer = 0, run = 0;

	if (b < 0)
		die("pvm_recv setup", b);
	pvm_upkint(&w, 1, 1);
	pvm_upkint(&peer, 1, 1);
	pvm_upkint(&run, 1, 1);
	if (run == RUN_BARRIER)
		barrier();
	if (run == RUN_REDUCE) {
		if ((b = pvm_joingroup(GROUP)) < 0)
			die("pvm_joingroup", b);
		send_int(parent, TAG_JOINED, w);
	}
	if (run == RUN_OK && w == 1) {
		sleep(3); /* "work": every other task waits meanwhile */
		send_int(peer, TAG_PEER, w);
	}
	recv_int(peer, TAG_PEER); /* waits for the other first */
	if (!(run == RUN_OK && w == 1))
		send_int(peer, TAG_PEER, w);
	send_int(parent, TAG_RESULT, w);
	return 0;
}

/* The master: spawns the two workers, introduces them, multicasts them
 * a note if MCAST, works for 5 s if BUSY, waits for both (up to TMOUT s
 * each if TMOUT > 0); 0, or 1 if an answer did not come in time. */
static int master(const char *self, int run, int busy, int mcast,
		  int tmout)
{
	struct timeval tv = { tmout, 0 };
	int tids[2], n = pvm_spawn((char *)self, NULL, PvmTaskDefault, "", 2,
				   tids);

	if (n != 2)
		die("pvm_spawn", n < 0 ? n : tids[n > 0 ? n : 0]);
	for (int w = 1; w <= 2; w++) {
		int v[3] = { w, tids[2 - w], run }, rc;

		pvm_initsend(PvmDataDefault);
		pvm_pkint(v, 3, 1);
		if ((rc = pvm_send(tids[w - 1], TAG_SETUP)) < 0)
			die("pvm_send setup", rc);
	}
	if (mcast) {
		int rc;

		pvm_initsend(PvmDataDefault);
		pvm_pkint(&run, 1, 1);
		if ((rc = pvm_mcast(tids, 2, TAG_NOTE)) < 0)
			die("pvm_mcast", rc);
	}
	if (busy)
		sleep(5); /* "work" */
	if (run == RUN_BARRIER)
		barrier();
	if (run == RUN_REDUCE)
		reduce();
	for (int i = 0; i < 2; i++) {
		int b = tmout > 0 ? pvm_trecv(-1, TAG_RESULT, &tv) : 1, v = 0;

		if (b < 0)
			die("pvm_trecv", b);
		if (b == 0) {
			printf("deadlock: no answer in %d s\n", tmout);
			return 1;
		}
		v = tmout > 0 ? (pvm_upkint(&v, 1, 1), v)
			      : recv_int(-1, TAG_RESULT);
		printf("deadlock: worker %d answered\n", v);
	}
	printf("deadlock: done\n");
	return 0;
}

int main(int argc, char **argv)
{
	char self[PATH_MAX];
	int parent, rc, run = RUN_DEADLOCK, busy = 0, mcast = 0, bad = 0;
	int tmout = 0;

	pangaea_init(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-ok") == 0)
			run = RUN_OK;
		else if (strcmp(argv[i], "-barrier") == 0)
			run = RUN_BARRIER;
		else if (strcmp(argv[i], "-reduce") == 0)
			run = RUN_REDUCE;
		else if (strcmp(argv[i], "-busy") == 0)
			busy = 1;
		else if (strcmp(argv[i], "-mcast") == 0)
			mcast = 1;
		else if (strcmp(argv[i], "-trecv") == 0 && i + 1 < argc)
			bad |= (tmout = atoi(argv[++i])) <= 0;
		else
			bad = 1;
	}
	if (pvm_mytid() < 0)
		die("pvm_mytid", pvm_mytid());
	parent = pvm_parent();
	if (parent == PvmNoParent) {
		if (bad) {
			fprintf(stderr, "usage: deadlock [-ok | -barrier | -reduce] [-busy] "
					"[-mcast] [-trecv SECONDS]\n");
			pvm_exit();
			return 1;
		}
		if (!realpath(argv[0], self)) {
			perror("deadlock: realpath");
			pvm_exit();
			return 1;
		}
		setvbuf(stdout, NULL, _IOLBF, 0);
		rc = master(self, run, busy, mcast, tmout);
	} else if (parent < 0) {
		die("pvm_parent", parent);
	} else {
		rc = worker(parent);
	}
	pangaea_exit();
	pvm_exit();
	return rc;
}
