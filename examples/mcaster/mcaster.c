/*
 * mcaster.c - pvm_mcast and pvm_bcast at their edges (Pangaea example;
 * it also builds as a plain PVM program with -DMCASTER_PLAIN, to compare
 * what PVM itself delivers).
 *
 * Usage: mcaster [-direct] [ROUNDS [GROUP]]
 *
 * The task started by hand (the master) spawns two copies of itself, the
 * workers A and B, and joins the group "solo" alone.  Then it:
 *   - broadcasts to GROUP (default "solo": PVM gives PvmNoInst, nothing
 *     is sent) and to a group that does not exist (the group server's
 *     error);
 *   - multicasts "1" to [master, A, B, A, a tid of no task]: PVM drops the
 *     master and the repeated A, so A and B get one message each;
 *   - multicasts to [A, -5] (PvmBadParam: nothing sent), to no task
 *     (ntask 0) and to [master] (0, nothing sent), sends to -5
 *     (PvmBadParam);
 *   - multicasts "2" to [B, B] (B gets it once);
 *   - multicasts "10", "11", ... ROUNDS times (default 3) to [A, B, master];
 *   - multicasts the end to [A, B].
 * With -direct, the master first sends "0" to A and to B with
 * PvmRouteDirect, so that its multicasts then go over those task-to-task
 * routes rather than through the pvmd.
 * Each worker receives with pvm_recv(-1, -1) until the end and reports
 * the values it got (in order) and how many came from itself.  The master
 * prints every return code, both reports and how many messages it finds
 * addressed to itself (PVM: none), then "mcaster: done".
 */
#define _DEFAULT_SOURCE

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef MCASTER_PLAIN
#include <pvm3.h>
#define pangaea_init(argc, argv) ((void)0)
#define pangaea_exit() ((void)0)
#else
#include <pangaea.h>
#endif

#define MAX_GOT 64

enum { TAG_DATA = 40, TAG_END = 41, TAG_REPORT = 42, TAG_SOLO = 43 };

/* Prints "mcaster: WHAT failed (CODE)" to stderr, leaves PVM, exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "mcaster: %s failed (PVM error %d)\n", what, code);
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

/* Packs the int V into a new buffer. */
static void pack(int v)
{
	ok(pvm_initsend(PvmDataDefault), "pvm_initsend");
	ok(pvm_pkint(&v, 1, 1), "pvm_pkint");
}

/* A worker: receives until the end, then reports to PARENT the values
 * it got, in order, and how many messages came from itself. */
static void worker(int parent)
{
	int got[MAX_GOT], n = 0, self = 0, me = pvm_mytid(), b, len, tag, src;

	for (;;) {
		b = ok(pvm_recv(-1, -1), "pvm_recv");
		ok(pvm_bufinfo(b, &len, &tag, &src), "pvm_bufinfo");
		if (src == me)
			self++;
		if (tag == TAG_END)
			break;
		if (n < MAX_GOT)
			ok(pvm_upkint(&got[n++], 1, 1), "pvm_upkint");
	}
	pack(n);
	ok(pvm_pkint(got, n, 1), "pvm_pkint");
	ok(pvm_pkint(&self, 1, 1), "pvm_pkint");
	ok(pvm_send(parent, TAG_REPORT), "pvm_send report");
}

/* Prints the report of worker NAME (tid TID). */
static void print_report(const char *name, int tid)
{
	int got[MAX_GOT], n, self;

	ok(pvm_recv(tid, TAG_REPORT), "pvm_recv report");
	ok(pvm_upkint(&n, 1, 1), "pvm_upkint");
	if (n < 0 || n > MAX_GOT)
		die("report length", n);
	ok(pvm_upkint(got, n, 1), "pvm_upkint");
	ok(pvm_upkint(&self, 1, 1), "pvm_upkint");
	printf("mcaster: %s got %d:", name, n);
	for (int i = 0; i < n; i++)
		printf(" %d", got[i]);
	printf(" (%d from itself)\n", self);
}

/* Sends "0" to each worker of W over a direct route (PvmRouteDirect). */
static void open_routes(const int *w)
{
	ok(pvm_setopt(PvmRoute, PvmRouteDirect), "pvm_setopt");
	for (int i = 0; i < 2; i++) {
		pack(0);
		ok(pvm_send(w[i], TAG_DATA), "pvm_send");
	}
}

/* The master's multicasts to the workers W (and itself, ME). */
static void master(int me, const int *w, int rounds, char *group)
{
	int nobody = (me & 0x3ffc0000) | 0x3fff0; /* this host, no task */
	int first[5] = { me, w[0], w[1], w[0], nobody };
	int bad[2] = { w[0], -5 }, twice[2] = { w[1], w[1] };
	int all[3] = { w[0], w[1], me }, n = 0;

	printf("mcaster: joingroup solo = %d\n", pvm_joingroup("solo"));
	pack(0);
	printf("mcaster: bcast %s = %d\n", group, pvm_bcast(group, TAG_SOLO));
	printf("mcaster: bcast nosuch = %d\n", pvm_bcast("nosuch", TAG_SOLO));
	pack(1);
	printf("mcaster: mcast [me A B A nobody] = %d\n",
	       pvm_mcast(first, 5, TAG_DATA));
	printf("mcaster: mcast [A -5] = %d\n", pvm_mcast(bad, 2, TAG_DATA));
	printf("mcaster: mcast [] = %d\n", pvm_mcast(bad, 0, TAG_DATA));
	printf("mcaster: mcast [me] = %d\n", pvm_mcast(&me, 1, TAG_DATA));
	printf("mcaster: send -5 = %d\n", pvm_send(-5, TAG_DATA));
	pack(2);
	printf("mcaster: mcast [B B] = %d\n", pvm_mcast(twice, 2, TAG_DATA));
	for (int r = 0; r < rounds; r++) {
		pack(10 + r);
		ok(pvm_mcast(all, 3, TAG_DATA), "pvm_mcast");
	}
	pack(-1);
	ok(pvm_mcast((int *)w, 2, TAG_END), "pvm_mcast end");
	print_report("A", w[0]);
	print_report("B", w[1]);
	while (ok(pvm_nrecv(-1, -1), "pvm_nrecv") > 0)
		n++;
	printf("mcaster: %d messages to the master itself\n", n);
	printf("mcaster: lvgroup solo = %d\n", pvm_lvgroup("solo"));
}

int main(int argc, char **argv)
{
	int direct, rounds, me, parent, w[2];
	char self[PATH_MAX], *group;

	pangaea_init(&argc, &argv);
	direct = argc > 1 && strcmp(argv[1], "-direct") == 0;
	rounds = argc > 1 + direct ? atoi(argv[1 + direct]) : 3;
	group = argc > 2 + direct ? argv[2 + direct] : "solo";
	if (rounds < 0 || rounds > MAX_GOT - 8)
		rounds = 3;
	me = ok(pvm_mytid(), "pvm_mytid");
	parent = pvm_parent();
	if (parent > 0) {
		worker(parent);
	} else {
		if (!realpath(argv[0], self))
			die("realpath", -1);
		if (pvm_spawn(self, NULL, PvmTaskDefault, "", 2, w) != 2)
			die("pvm_spawn", w[0] < 0 ? w[0] : w[1]);
		if (direct)
			open_routes(w);
		master(me, w, rounds, group);
		printf("mcaster: done\n");
		fflush(stdout);
	}
	pangaea_exit();
	pvm_exit();
	return 0;
}
