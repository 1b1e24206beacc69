/*
 * racy.c - a master/worker program with a message race (Pangaea example).
 *
 * Usage: racy [-w WORKERS] [-m MESSAGES] [-t TAG] [-crash] [-poll] [-seed S]
 *
 * The task started by hand (the master) spawns WORKERS copies of itself
 * (default 3) and sends each a setup message: its worker number, how many
 * messages to send (default 4), the tag to send them with (default 1) and a
 * seed.  Each worker then sends the master MESSAGES messages, numbered
 * 1..MESSAGES, pausing a random 0..999 us before each, so that the workers
 * race.  The master takes them with a wildcard receive, pvm_recv(-1, TAG),
 * prints every arrival as "racy: recv worker=W seq=S" and at the end an
 * order digest (a hash of the arrival order) and "racy: done".
 *
 * -crash plants a bug that strikes only in some orders: when the first
 * message comes from the highest-numbered worker, the master dies of
 * SIGSEGV.  -poll makes the master poll with pvm_nrecv instead of blocking
 * and print how many polls came back empty, a count that varies from run
 * to run.  -seed fixes the workers' pauses (default: from the clock).
 *
 * Worker W is spawned W-th, so under Pangaea it is logical task 1000+W.
 */
#define _DEFAULT_SOURCE /* usleep */

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pangaea.h>

#define MAX_WORKERS 64
#define TAG_SETUP 99

/* The run's parameters, as the master parsed them. */
struct params {
	int workers;
	int messages;
	int tag;
	int crash;
	int poll;
	unsigned seed;
};

/* Prints "racy: WHAT failed (CODE)" to stderr, leaves PVM and exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "racy: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* Prints the usage line to stderr and exits 1. */
static void usage(void)
{
	fprintf(stderr, "usage: racy [-w WORKERS] [-m MESSAGES] [-t TAG] "
			"[-crash] [-poll] [-seed S]\n");
	exit(1);
}

/* Parses a positive int from S, between 1 and MAX, or exits with usage. */
static int positive(const char *s, int max)
{
	char *end;
	long v = s ? strtol(s, &end, 10) : 0;

	if (!s || *end || v < 1 || v > max)
		usage();
	return (int)v;
}

/* Fills P from the command line. */
static void parse(int argc, char **argv, struct params *p)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	*p = (struct params){ 3, 4, 1, 0, 0,
			      (unsigned)ts.tv_nsec ^ (unsigned)getpid() };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = argv[i + 1];

		if (strcmp(a, "-w") == 0)
			p->workers = positive(v, MAX_WORKERS), i++;
		else if (strcmp(a, "-m") == 0)
			p->messages = positive(v, 1000000), i++;
		else if (strcmp(a, "-t") == 0)
			p->tag = positive(v, 98), i++;
		else if (strcmp(a, "-seed") == 0)
			p->seed = (unsigned)positive(v, 1 << 30), i++;
		else if (strcmp(a, "-crash") == 0)
			p->crash = 1;
		else if (strcmp(a, "-poll") == 0)
			p->poll = 1;
		else
			usage();
	}
}

/* Worker: takes the setup message, sends its messages, exits. */
static int worker(int parent)
{
	int w, m, tag, seed;

	if (pvm_recv(parent, TAG_SETUP) < 0)
		die("pvm_recv setup", 0);
	pvm_upkint(&w, 1, 1);
	pvm_upkint(&m, 1, 1);
	pvm_upkint(&tag, 1, 1);
	pvm_upkint(&seed, 1, 1);
	unsigned rng = (unsigned)seed * 2654435761u + (unsigned)w;
	for (int s = 1; s <= m; s++) {
		rng = rng * 1103515245u + 12345u;
		usleep((rng >> 8) % 1000);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&w, 1, 1);
		pvm_pkint(&s, 1, 1);
		int rc = pvm_send(parent, tag);
		if (rc < 0)
			die("pvm_send", rc);
	}
	return 0;
}

/* Master: receives one message with a wildcard source; with -poll by
 * polling, counting the empty polls in *EMPTY.  Returns the buffer id. */
static int receive(const struct params *p, long *empty)
{
	int bufid;

	if (!p->poll)
		return pvm_recv(-1, p->tag);
	while ((bufid = pvm_nrecv(-1, p->tag)) == 0) {
		(*empty)++;
		usleep(50);
	}
	return bufid;
}

/* Master: spawns the workers, sets them up, receives and prints. */
static int master(const char *self, const struct params *p)
{
	int tids[MAX_WORKERS];
	unsigned digest = 2166136261u;
	long empty = 0;

	int n = pvm_spawn((char *)self, NULL, PvmTaskDefault, "", p->workers,
			  tids);
	if (n < p->workers)
		die("pvm_spawn", n < 0 ? n : tids[n]);
	for (int w = 1; w <= p->workers; w++) {
		int seed = (int)(p->seed & 0x3fffffff);

		pvm_initsend(PvmDataDefault);
		pvm_pkint(&w, 1, 1);
		pvm_pkint((int *)&p->messages, 1, 1);
		pvm_pkint((int *)&p->tag, 1, 1);
		pvm_pkint(&seed, 1, 1);
		if (pvm_send(tids[w - 1], TAG_SETUP) < 0)
			die("pvm_send setup", 0);
	}
	for (int k = 0; k < p->workers * p->messages; k++) {
		int w, s, bufid = receive(p, &empty);

		if (bufid < 0)
			die("pvm_recv", bufid);
		pvm_upkint(&w, 1, 1);
		pvm_upkint(&s, 1, 1);
		printf("racy: recv worker=%d seq=%d\n", w, s);
		fflush(stdout);
		if (p->crash && k == 0 && w == p->workers) {
			fprintf(stderr, "racy: bad order, about to crash\n");
			raise(SIGSEGV);
		}
		digest = (digest ^ (unsigned)(w * 1000003 + s)) * 16777619u;
	}
	printf("racy: order digest=%08x\n", digest);
	if (p->poll)
		printf("racy: empty polls=%ld\n", empty);
	printf("racy: done\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct params p;
	int rc;

	pangaea_init(&argc, &argv);
	if (pvm_mytid() < 0)
		die("pvm_mytid", pvm_mytid());
	int parent = pvm_parent();
	if (parent == PvmNoParent) {
		char self[PATH_MAX];

		parse(argc, argv, &p);
		if (realpath(argv[0], self) == NULL) {
			perror("racy: realpath");
			pvm_exit();
			return 1;
		}
		rc = master(self, &p);
	} else if (parent < 0) {
		die("pvm_parent", parent);
	} else {
		rc = worker(parent);
	}
	pangaea_exit();
	pvm_exit();
	return rc;
}
