/*
 * killer.c - a master that kills its slaves with pvm_kill (Pangaea
 * example), as PVM's own `timing` example kills its slave.
 *
 * Usage: killer [-all] [-pause MS] [-spin] [-direct] [-foreign] [-early]
 *               SLAVES ROUNDS
 *
 * The master spawns SLAVES copies of itself (at most 32).  Each slave
 * loops on pvm_recv(-1, -1) and answers every token with its number and
 * the token times its number (tag 2); it ends at a quit message (tag 3).
 * In each of ROUNDS rounds the master sends a token to every living
 * slave and takes their answers with pvm_recv(-1, 2), in whatever order
 * they come.  The slave that answers first in round ROUNDS/2 + 1 (the
 * victim, chosen by message order) is killed with pvm_kill right after
 * the next round's tokens have gone out: it may or may not have taken
 * its last token and answered it before it dies, and the master counts
 * such a late answer if it comes while it waits for the others.  At the
 * end the master tells the others to quit (-all: kills them all too)
 * and prints what it saw.  -pause: the master waits MS milliseconds
 * between sending the tokens and the kill (the victim then surely has
 * taken and answered its last token when it dies).  -spin: the victim's
 * last token tells it to stop calling PVM once it has answered (it
 * sleeps until it is killed).  -direct: every task routes its messages
 * straight to their receivers (PvmRouteDirect, as PVM's `timing` does),
 * not through the pvmds.  -foreign: the master first kills a tid that is
 * no task (of the run or at all) and says whether PVM refused.  -early:
 * the master first spawns one more copy and kills it at once, before it
 * has joined PVM (or the run): that copy, given -late, sleeps 10 s
 * before its first call, so that the kill surely comes first however
 * slowly the master is scheduled.
 *
 * Under Pangaea the launcher says who killed whom and the run ends
 * normally (exit 0); a replay kills the same slave at the same point.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pangaea.h>

#define MAX_SLAVES 32
#define TAG_TOKEN 1
#define TAG_ANSWER 2
#define TAG_QUIT 3

/* Prints "killer: WHAT failed (CODE)" to stderr, leaves PVM, exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "killer: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* Sleeps MS milliseconds. */
static void pause_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (ms > 0 && nanosleep(&ts, &ts) < 0)
		;
}

/* Slave: answers tokens until told to quit (or killed). */
static void slave(int parent)
{
	int b, len, tag, src, me = -1, token, spin, answer[2];

	for (;;) {
		if ((b = pvm_recv(-1, -1)) < 0 ||
		    pvm_bufinfo(b, &len, &tag, &src) < 0)
			die("pvm_recv", b);
		if (tag == TAG_QUIT)
			return;
		pvm_upkint(&me, 1, 1);
		pvm_upkint(&token, 1, 1);
		pvm_upkint(&spin, 1, 1);
		answer[0] = me;
		answer[1] = token * me;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(answer, 2, 1);
		if (pvm_send(parent, TAG_ANSWER) < 0)
			die("pvm_send", 0);
		while (spin) /* no PVM call any more: only a kill ends it */
			pause_ms(1000);
	}
}

/* Sends token ROUND to every living slave (ALIVE[s] of the N); slave
 * SPIN is told to stop calling PVM after its answer. */
static void send_tokens(const int *tids, const int *alive, int n, int round,
			int spin)
{
	for (int s = 1; s <= n; s++) {
		int stop = s == spin;

		if (!alive[s])
			continue;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&s, 1, 1);
		pvm_pkint(&round, 1, 1);
		pvm_pkint(&stop, 1, 1);
		if (pvm_send(tids[s - 1], TAG_TOKEN) < 0)
			die("pvm_send token", 0);
	}
}

/* Takes one answer of round ROUND from each living slave; the number
 * of the first to answer.  Answers of killed slaves count in *LATE. */
static int take_answers(const int *alive, int n, int round, long *sum,
			int *late)
{
	int got[MAX_SLAVES + 1] = { 0 }, need = 0, first = 0, v[2];

	for (int s = 1; s <= n; s++)
		need += alive[s];
	while (need > 0) {
		int b = pvm_recv(-1, TAG_ANSWER);

		if (b < 0)
			die("pvm_recv answer", b);
		pvm_upkint(v, 2, 1);
		if (v[0] < 1 || v[0] > n)
			continue;
		if (!alive[v[0]]) {
			(*late)++;
			continue;
		}
		if (got[v[0]]++)
			continue; /* (cannot happen: one token a round) */
		first = first ? first : v[0];
		*sum += v[1] + round;
		need--;
	}
	return first;
}

/* Spawns one copy of SELF and kills it at once, before it joins. */
static void kill_early(const char *self)
{
	char late[] = "-late", *args[] = { late, NULL };
	int tid;

	if (pvm_spawn((char *)self, args, PvmTaskDefault, "", 1, &tid) < 1)
		die("pvm_spawn early", tid);
	if (pvm_kill(tid) < 0)
		die("pvm_kill early", 0);
	printf("killer: killed a slave at once\n");
}

/* Master: N slaves, ROUNDS rounds; ALL: kills every slave at the end;
 * PAUSE: milliseconds between the tokens and the kill; SPIN: the victim
 * stops calling PVM after its last answer; DIRECT: the slaves route
 * their messages straight. */
static int master(const char *self, int n, int rounds, int all, int pause,
		  int spin, int direct)
{
	int tids[MAX_SLAVES], alive[MAX_SLAVES + 1] = { 0 };
	int victim = 0, killed = 0, late = 0, first;
	char opt[] = "-direct", *args[] = { direct ? opt : NULL, NULL };
	long sum = 0;

	if (pvm_spawn((char *)self, args, PvmTaskDefault, "", n, tids) < n)
		die("pvm_spawn", 0);
	for (int s = 1; s <= n; s++)
		alive[s] = 1;
	for (int round = 1; round <= rounds; round++) {
		send_tokens(tids, alive, n, round,
			    spin && victim && !killed ? victim : 0);
		if (victim && !killed) {
			pause_ms(pause);
			if (pvm_kill(tids[victim - 1]) < 0)
				die("pvm_kill", 0);
			alive[victim] = 0;
			killed = victim;
			printf("killer: killed slave %d in round %d\n", victim,
			       round);
		}
		first = take_answers(alive, n, round, &sum, &late);
		if (round == rounds / 2 + 1 && n > 1)
			victim = first;
	}
	for (int s = 1; s <= n; s++) {
		if (!alive[s])
			continue;
		if (all) {
			if (pvm_kill(tids[s - 1]) < 0)
				die("pvm_kill", 0);
			continue;
		}
		pvm_initsend(PvmDataDefault);
		if (pvm_send(tids[s - 1], TAG_QUIT) < 0)
			die("pvm_send quit", 0);
	}
	printf("killer: %d rounds, victim %d, late answers %d, sum=%ld%s\n",
	       rounds, killed, late, sum, all ? ", all killed" : "");
	return 0;
}

int main(int argc, char **argv)
{
	int parent, rc = 0, all = 0, pause = 0, spin = 0, direct = 0;
	int foreign = 0, early = 0, a = 1;

	if (argc > 1 && strcmp(argv[1], "-late") == 0) /* (kill_early's) */
		nanosleep(&(struct timespec){ .tv_sec = 10 }, NULL);
	pangaea_init(&argc, &argv);
	if (pvm_mytid() < 0)
		die("pvm_mytid", pvm_mytid());
	for (; a < argc && argv[a][0] == '-'; a++) {
		if (strcmp(argv[a], "-all") == 0)
			all = 1;
		else if (strcmp(argv[a], "-pause") == 0 && a + 1 < argc)
			pause = atoi(argv[++a]);
		else if (strcmp(argv[a], "-spin") == 0)
			spin = 1;
		else if (strcmp(argv[a], "-direct") == 0)
			direct = 1;
		else if (strcmp(argv[a], "-foreign") == 0)
			foreign = 1;
		else if (strcmp(argv[a], "-early") == 0)
			early = 1;
		else
			break;
	}
	if (direct)
		pvm_setopt(PvmRoute, PvmRouteDirect);
	parent = pvm_parent();
	if (parent == PvmNoParent) {
		char self[PATH_MAX];
		int n, rounds;

		n = a < argc ? atoi(argv[a]) : 0;
		rounds = a + 1 < argc ? atoi(argv[a + 1]) : 0;
		if (n < 1 || n > MAX_SLAVES || rounds < 1 || pause < 0 ||
		    !realpath(argv[0], self)) {
			fprintf(stderr, "usage: killer [-all] [-pause MS] [-spin] "
				"[-direct] [-foreign] [-early] SLAVES ROUNDS\n");
			pvm_exit();
			return 1;
		}
		if (foreign) /* this host's last local task id: nobody */
			printf("killer: a kill of no task: %s\n",
			       pvm_kill((pvm_mytid() & ~0x3ffff) | 0x3fffe) < 0
			       ? "refused" : "done");
		if (early)
			kill_early(self);
		rc = master(self, n, rounds, all, pause, spin, direct);
	} else if (parent < 0) {
		die("pvm_parent", parent);
	} else {
		slave(parent);
	}
	pangaea_exit();
	pvm_exit();
	return rc;
}
