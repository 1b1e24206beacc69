/*
 * groups.c - a ring over PVM group instances, with a broadcast and a
 * multicast (Pangaea example for groups and collective sends).
 *
 * Usage: groups [NTASKS] [ROUNDS]
 *
 * The task started by hand spawns NTASKS-1 copies of itself (default 4
 * tasks in all).  Every task joins the group "ring"; instance numbers go
 * by the order in which the tasks reach the group server, so they change
 * from run to run.  After a barrier, instance 0 starts a token that goes
 * ROUNDS times (default 3) around the ring by instance number (pvm_gettid
 * finds the next task), every task adding its own worker number.  Then
 * the group sums one double per task with pvm_reduce at instance 0 (the
 * values are chosen so that the sum depends on the order in which they
 * are added), instance 0 gathers the worker numbers by instance
 * (pvm_gather) and scatters each task its instance times 100 plus 7
 * (pvm_scatter, checked), instance 0 broadcasts the token, the sum and
 * the gathered numbers to the group,
 * every task answers the master, and the master multicasts a final word
 * to all workers with one buffer, after sending the same buffer twice to
 * the first worker.
 *
 * The master prints its instance, the token (the ring's order, which
 * depends on the join order), the sum, the gathered worker numbers (the
 * ring's order again), the order in which the answers
 * arrived (a wildcard receive) and "groups: done".
 *
 * The join order can be set from outside the program: with
 * GROUPS_JOIN_ORDER=fwd worker W waits W * GROUPS_JOIN_STEP_MS ms (default
 * 250) before it joins, with "rev" (NTASKS-1-W) steps; unset, the joins
 * race.  With GROUPS_SERVER=FILE the master writes into FILE "server:
 * worker W is instance R" for each task, R being the instance the group
 * server itself gave it, asked for past Pangaea (neither logged nor
 * replayed; not printed, since a replay must print what its recording
 * did).  Under Pangaea, name them in PVM_EXPORT so that every task gets
 * them: a recording made with fwd and replayed with rev prints the
 * recording's lines although the server handed out the reverse order.
 */
#define _DEFAULT_SOURCE

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pangaea.h>

#define GROUP "ring"
#define MAX_TASKS 32
#define MAX_TOKEN 1024

enum { TAG_SETUP = 20, TAG_TOKEN = 21, TAG_BCAST = 22, TAG_ANSWER = 23,
       TAG_FINAL = 24, TAG_TWICE = 25, TAG_REDUCE = 26, TAG_GATHER = 27,
       TAG_SCATTER = 28 };

static int server_inst(void);

/* Prints "groups: WHAT failed (CODE)" to stderr, leaves PVM and exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "groups: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* Returns RC if it is not negative; otherwise dies naming WHAT. */
static int ok(int rc, const char *what)
{
	if (rc < 0)
		die(what, rc);
	return rc;
}

/* Passes the token on to the next instance; LEN ints in TOKEN. */
static void pass_token(int inst, int ntasks, const int *token, int len)
{
	int next = ok(pvm_gettid(GROUP, (inst + 1) % ntasks), "pvm_gettid");

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&len, 1, 1);
	pvm_pkint((int *)token, len, 1);
	ok(pvm_send(next, TAG_TOKEN), "pvm_send token");
}

/* Receives the token into TOKEN; returns its length. */
static int take_token(int *token)
{
	int len;

	ok(pvm_recv(-1, TAG_TOKEN), "pvm_recv token");
	pvm_upkint(&len, 1, 1);
	if (len < 0 || len >= MAX_TOKEN)
		die("token length", len);
	pvm_upkint(token, len, 1);
	return len;
}

/* Runs the ring: ROUNDS times around; instance 0 ends with the token. */
static int ring(int me, int inst, int ntasks, int rounds, int *token)
{
	int len = 0;

	if (inst == 0) {
		token[len++] = me;
		pass_token(inst, ntasks, token, len);
		for (int r = 0; r < rounds; r++) {
			len = take_token(token);
			if (r + 1 < rounds) {
				token[len++] = me;
				pass_token(inst, ntasks, token, len);
			}
		}
		return len;
	}
	for (int r = 0; r < rounds; r++) {
		len = take_token(token);
		token[len++] = me;
		pass_token(inst, ntasks, token, len);
	}
	return 0;
}

/* Sleeps before worker ME of NTASKS joins, as GROUPS_JOIN_ORDER says. */
static void wait_turn(int me, int ntasks)
{
	const char *order = getenv("GROUPS_JOIN_ORDER");
	const char *step = getenv("GROUPS_JOIN_STEP_MS");
	long pos;

	if (!order)
		return;
	if (strcmp(order, "fwd") == 0)
		pos = me;
	else if (strcmp(order, "rev") == 0)
		pos = ntasks - 1 - me;
	else
		die("GROUPS_JOIN_ORDER (fwd or rev)", 0);
	usleep((useconds_t)(pos * (step ? atol(step) : 250) * 1000));
}

/* Writes "server: worker W is instance REAL[W]" for the NTASKS tasks into
 * the file GROUPS_SERVER names, if it names one. */
static void write_server(const int *real, int ntasks)
{
	const char *path = getenv("GROUPS_SERVER");
	FILE *f;

	if (!path)
		return;
	if (!(f = fopen(path, "w")))
		die("fopen GROUPS_SERVER", 0);
	for (int w = 0; w < ntasks; w++)
		fprintf(f, "server: worker %d is instance %d\n", w, real[w]);
	if (fclose(f) != 0)
		die("writing GROUPS_SERVER", 0);
}

/* Worker ME's part of the sum: 1e16 and -1e16 swallow the small values
 * added between them, so the sum tells the order of the additions. */
static double sum_part(int me)
{
	return me == 1 ? 1e16 : me == 2 ? -1e16 : me == 0 ? 0.5 : 3.0;
}

/* Everyone: join, ring, broadcast, answer; the master gathers. */
static void run(int me, int ntasks, int rounds, int master_tid,
		const int *worker_tids)
{
	int token[MAX_TOKEN], len, inst, size, order[MAX_TASKS], mine;
	int deal[MAX_TASKS];
	double sum = sum_part(me);

	wait_turn(me, ntasks);
	inst = ok(pvm_joingroup(GROUP), "pvm_joingroup");
	ok(pvm_barrier(GROUP, ntasks), "pvm_barrier");
	size = ok(pvm_gsize(GROUP), "pvm_gsize");
	if (size != ntasks)
		die("group size", size);
	len = ring(me, inst, ntasks, rounds, token);
	ok(pvm_reduce(PvmSum, &sum, 1, PVM_DOUBLE, TAG_REDUCE, GROUP, 0),
	   "pvm_reduce");
	ok(pvm_gather(order, &me, 1, PVM_INT, TAG_GATHER, GROUP, 0), "pvm_gather");
	for (int i = 0; i < ntasks; i++)
		deal[i] = 100 * i + 7;
	ok(pvm_scatter(&mine, deal, 1, PVM_INT, TAG_SCATTER, GROUP, 0),
	   "pvm_scatter");
	if (mine != 100 * inst + 7)
		die("pvm_scatter's value", mine);
	if (inst == 0) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&len, 1, 1);
		pvm_pkint(token, len, 1);
		pvm_pkdouble(&sum, 1, 1);
		pvm_pkint(order, ntasks, 1);
		ok(pvm_bcast(GROUP, TAG_BCAST), "pvm_bcast");
	} else {
		ok(pvm_recv(-1, TAG_BCAST), "pvm_recv bcast");
		pvm_upkint(&len, 1, 1);
		pvm_upkint(token, len, 1);
		pvm_upkdouble(&sum, 1, 1);
		pvm_upkint(order, ntasks, 1);
	}
	if (me == 0) {
		printf("groups: master is instance %d of %d\n", inst, size);
		printf("groups: token");
		for (int i = 0; i < len; i++)
			printf(" %d", token[i]);
		printf("\n");
		printf("groups: sum %.17g\n", sum);
		printf("groups: gathered");
		for (int i = 0; i < ntasks; i++)
			printf(" %d", order[i]);
		printf("\n");
		int real[MAX_TASKS] = { server_inst() };

		printf("groups: answers from");
		for (int k = 1; k < ntasks; k++) {
			int who, their_inst, their_real;

			ok(pvm_recv(-1, TAG_ANSWER), "pvm_recv answer");
			pvm_upkint(&who, 1, 1);
			pvm_upkint(&their_inst, 1, 1);
			pvm_upkint(&their_real, 1, 1);
			printf(" %d(#%d)", who, their_inst);
			if (who > 0 && who < ntasks)
				real[who] = their_real;
		}
		printf("\n");
		write_server(real, ntasks);
		/* one buffer: sent twice to worker 1, then multicast to all */
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&len, 1, 1);
		ok(pvm_send(worker_tids[0], TAG_TWICE), "pvm_send twice");
		ok(pvm_send(worker_tids[0], TAG_TWICE), "pvm_send twice");
		ok(pvm_mcast((int *)worker_tids, ntasks - 1, TAG_FINAL),
		   "pvm_mcast");
		printf("groups: done\n");
		fflush(stdout);
	} else {
		int check = ok(pvm_getinst(GROUP, pvm_mytid()), "pvm_getinst");
		int real = server_inst();

		pvm_initsend(PvmDataDefault);
		pvm_pkint(&me, 1, 1);
		pvm_pkint(&check, 1, 1);
		pvm_pkint(&real, 1, 1);
		ok(pvm_send(master_tid, TAG_ANSWER), "pvm_send answer");
		if (me == 1) {
			ok(pvm_recv(master_tid, TAG_TWICE), "pvm_recv twice");
			ok(pvm_recv(master_tid, TAG_TWICE), "pvm_recv twice");
		}
		ok(pvm_recv(-1, TAG_FINAL), "pvm_recv final");
	}
	ok(pvm_barrier(GROUP, ntasks), "pvm_barrier");
	pvm_lvgroup(GROUP);
}

int main(int argc, char **argv)
{
	int ntasks = argc > 1 ? atoi(argv[1]) : 4;
	int rounds = argc > 2 ? atoi(argv[2]) : 3;
	int tids[MAX_TASKS], me = 0, parent;
	char self[PATH_MAX];

	pangaea_init(&argc, &argv);
	pvm_setopt(PvmAutoErr, 0);
	ok(pvm_mytid(), "pvm_mytid");
	parent = pvm_parent();
	if (parent == PvmNoParent) {
		if (ntasks < 2 || ntasks > MAX_TASKS || rounds < 1 ||
		    ntasks * rounds + 1 >= MAX_TOKEN) {
			fprintf(stderr, "usage: groups [NTASKS 2..%d] [ROUNDS]\n",
				MAX_TASKS);
			pvm_exit();
			return 1;
		}
		if (!realpath(argv[0], self))
			die("realpath", 0);
		int n = pvm_spawn(self, NULL, PvmTaskDefault, "", ntasks - 1,
				  tids);
		if (n < ntasks - 1)
			die("pvm_spawn", n < 0 ? n : tids[n]);
		for (int k = 0; k < ntasks - 1; k++) {
			int setup[3] = { k + 1, ntasks, rounds };

			pvm_initsend(PvmDataDefault);
			pvm_pkint(setup, 3, 1);
			pvm_pkint(tids, ntasks - 1, 1);
			ok(pvm_send(tids[k], TAG_SETUP), "pvm_send setup");
		}
		run(0, ntasks, rounds, pvm_mytid(), tids);
	} else {
		int setup[3];

		ok(parent, "pvm_parent");
		ok(pvm_recv(parent, TAG_SETUP), "pvm_recv setup");
		pvm_upkint(setup, 3, 1);
		me = setup[0];
		ntasks = setup[1];
		rounds = setup[2];
		pvm_upkint(tids, ntasks - 1, 1);
		run(me, ntasks, rounds, parent, tids);
	}
	pangaea_exit();
	pvm_exit();
	return 0;
}

/* With GROUPS_SERVER set, this run's instance of the caller from the
 * group server itself: libgpvm3's pvm_getinst, past Pangaea's wrapper of
 * it (pangaea.h renames the call; undone here, at the end of the file,
 * for this one use).  Otherwise -1, and no question asked. */
#undef pvm_getinst
static int server_inst(void)
{
	return getenv("GROUPS_SERVER") ? ok(pvm_getinst(GROUP, pvm_mytid()),
					    "the group server's pvm_getinst")
				       : -1;
}
