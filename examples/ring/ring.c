/*
 * ring.c - a token ring of many tasks (Pangaea example, the scale run).
 *
 * Usage: ring [-r ROUNDS] [-p MS] [-s MS] NTASKS
 *
 * The task started by hand (task 0, the master) spawns NTASKS-1 copies of
 * itself, which PVM places over the hosts of the virtual machine, and sends
 * each its index and the tids of the ring.  A token then goes round the
 * ring ROUNDS times (default 10): every task takes it from its left
 * neighbour, adds its index and passes it to its right neighbour.  Right
 * after passing it on, every worker sends the master a report (its index,
 * the round and, in the first round, its host name); the master takes the
 * reports with a wildcard-source receive, pvm_recv(-1, TAG), so their
 * arrival order changes from run to run, and prints it as a digest.  The
 * workers take the token with a wildcard-source receive too.
 *
 * -p makes the master pause MS milliseconds before the last round (a run
 * that lasts, with few events); -s, before it spawns the ring.
 *
 * The master prints one line a round, "ring: round R token=V order=X" (V is
 * the same in every run, X the digest of the arrival order, which a replay
 * must print again), the number of tasks on each host (by name) and "ring: done".
 */
#define _DEFAULT_SOURCE /* usleep */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pangaea.h>

#define MAX_TASKS 1024
#define HOST_LEN 64

enum {
	TAG_SETUP = 20,  /* master -> worker: index, ntasks, rounds, tids */
	TAG_TOKEN = 21,  /* left neighbour -> right neighbour */
	TAG_REPORT = 22  /* worker -> master: index, round (, host) */
};

/* What every task knows about the run. */
struct ring {
	int ntasks;
	int rounds;
	int index;               /* 0 = the master */
	int tids[MAX_TASKS];
};

/* Prints "ring: WHAT failed (CODE)" to stderr, leaves PVM and exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "ring: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* Prints the usage line to stderr and exits 1. */
static void usage(void)
{
	fprintf(stderr, "usage: ring [-r ROUNDS] [-p MS] [-s MS] NTASKS\n");
	exit(1);
}

/* Parses an int from S between 1 and MAX, or exits with usage. */
static int number(const char *s, int max)
{
	char *end;
	long v = s ? strtol(s, &end, 10) : 0;

	if (!s || *end || v < 1 || v > max)
		usage();
	return (int)v;
}

/* Takes the token from the left neighbour (a wildcard-source receive),
 * adds this task's index and passes it to the right.  Returns the token
 * as received. */
static int pass_token(const struct ring *r)
{
	int token, rc = pvm_recv(-1, TAG_TOKEN);

	if (rc < 0)
		die("pvm_recv token", rc);
	pvm_upkint(&token, 1, 1);
	int next = token + r->index;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&next, 1, 1);
	rc = pvm_send(r->tids[(r->index + 1) % r->ntasks], TAG_TOKEN);
	if (rc < 0)
		die("pvm_send token", rc);
	return token;
}

/* Worker: takes its setup, then every round passes the token on and
 * reports to the master (with its host name in the first round). */
static int worker(int parent)
{
	struct ring r;
	char host[HOST_LEN] = "";

	int rc = pvm_recv(parent, TAG_SETUP);
	if (rc < 0)
		die("pvm_recv setup", rc);
	pvm_upkint(&r.index, 1, 1);
	pvm_upkint(&r.ntasks, 1, 1);
	pvm_upkint(&r.rounds, 1, 1);
	if (r.ntasks < 2 || r.ntasks > MAX_TASKS)
		die("setup", r.ntasks);
	pvm_upkint(r.tids, r.ntasks, 1);
	gethostname(host, sizeof host - 1);
	for (int k = 1; k <= r.rounds; k++) {
		pass_token(&r);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&r.index, 1, 1);
		pvm_pkint(&k, 1, 1);
		if (k == 1)
			pvm_pkstr(host);
		rc = pvm_send(parent, TAG_REPORT);
		if (rc < 0)
			die("pvm_send report", rc);
	}
	return 0;
}

/* Master: how many tasks ran on each host. */
struct hosts {
	int n;
	char name[MAX_TASKS][HOST_LEN];
	int count[MAX_TASKS];
};

/* Counts one more task on host NAME (the names are kept sorted). */
static void count_host(struct hosts *h, const char *name)
{
	int i = 0;

	while (i < h->n && strcmp(h->name[i], name) < 0)
		i++;
	if (i == h->n || strcmp(h->name[i], name) != 0) {
		memmove(h->name[i + 1], h->name[i], (size_t)(h->n - i) * HOST_LEN);
		memmove(&h->count[i + 1], &h->count[i],
			(size_t)(h->n - i) * sizeof h->count[0]);
		snprintf(h->name[i], HOST_LEN, "%s", name);
		h->count[i] = 0;
		h->n++;
	}
	h->count[i]++;
}

/* Master: one round: starts the token, takes the reports as they come,
 * takes the token back.  Prints the round's line. */
static void master_round(const struct ring *r, int k, struct hosts *h)
{
	unsigned digest = 2166136261u;
	int token = 0;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&token, 1, 1);
	int rc = pvm_send(r->tids[1], TAG_TOKEN);
	if (rc < 0)
		die("pvm_send token", rc);
	for (int got = 0; got < r->ntasks - 1; got++) {
		int w, round;
		char host[HOST_LEN];

		rc = pvm_recv(-1, TAG_REPORT);
		if (rc < 0)
			die("pvm_recv report", rc);
		pvm_upkint(&w, 1, 1);
		pvm_upkint(&round, 1, 1);
		if (round != k || w < 1 || w >= r->ntasks) {
			fprintf(stderr, "ring: report of task %d for round %d in round %d\n",
				w, round, k);
			pvm_exit();
			exit(1);
		}
		if (k == 1) {
			pvm_upkstr(host);
			count_host(h, host);
		}
		digest = (digest ^ (unsigned)w) * 16777619u;
	}
	rc = pvm_recv(r->tids[r->ntasks - 1], TAG_TOKEN);
	if (rc < 0)
		die("pvm_recv token", rc);
	pvm_upkint(&token, 1, 1);
	printf("ring: round %d token=%d order=%08x\n", k, token, digest);
	fflush(stdout);
}

/* Master: after WAIT_MS ms spawns the ring, sets it up, runs the rounds
 * (pausing PAUSE ms before the last one), prints. */
static int master(const char *self, int ntasks, int rounds, int pause,
		  int wait_ms)
{
	static struct ring r;
	static struct hosts h;
	char myhost[HOST_LEN] = "";

	r = (struct ring){ .ntasks = ntasks, .rounds = rounds, .index = 0 };
	r.tids[0] = pvm_mytid();
	if (wait_ms > 0)
		usleep((useconds_t)wait_ms * 1000);
	int n = pvm_spawn((char *)self, NULL, PvmTaskDefault, "", ntasks - 1,
			  r.tids + 1);
	if (n < ntasks - 1)
		die("pvm_spawn", n < 0 ? n : r.tids[1 + n]);
	for (int i = 1; i < ntasks; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_pkint(&r.ntasks, 1, 1);
		pvm_pkint(&r.rounds, 1, 1);
		pvm_pkint(r.tids, ntasks, 1);
		int rc = pvm_send(r.tids[i], TAG_SETUP);
		if (rc < 0)
			die("pvm_send setup", rc);
	}
	gethostname(myhost, sizeof myhost - 1);
	count_host(&h, myhost);
	for (int k = 1; k <= rounds; k++) {
		if (k == rounds && pause > 0)
			usleep((useconds_t)pause * 1000);
		master_round(&r, k, &h);
	}
	for (int i = 0; i < h.n; i++)
		printf("ring: host %s tasks=%d\n", h.name[i], h.count[i]);
	printf("ring: done\n");
	return 0;
}

int main(int argc, char **argv)
{
	int rc;

	pangaea_init(&argc, &argv);
	int me = pvm_mytid();
	if (me < 0)
		die("pvm_mytid", me);
	int parent = pvm_parent();
	if (parent == PvmNoParent) {
		char self[PATH_MAX];
		int rounds = 10, ntasks = 0, pause = 0, wait_ms = 0;

		for (int i = 1; i < argc; i++) {
			if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
				rounds = number(argv[++i], 1000000);
			else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
				pause = number(argv[++i], 3600000);
			else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
				wait_ms = number(argv[++i], 3600000);
			else if (ntasks == 0)
				ntasks = number(argv[i], MAX_TASKS);
			else
				usage();
		}
		if (ntasks < 2)
			usage();
		if (realpath(argv[0], self) == NULL) {
			perror("ring: realpath");
			pvm_exit();
			return 1;
		}
		rc = master(self, ntasks, rounds, pause, wait_ms);
	} else if (parent < 0) {
		die("pvm_parent", parent);
	} else {
		rc = worker(parent);
	}
	pangaea_exit();
	pvm_exit();
	return rc;
}
