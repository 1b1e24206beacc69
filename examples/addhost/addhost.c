/*
 * addhost.c - a run that grows its virtual machine in mid-run (Pangaea
 * example for hosts added during a run, docs/INTERNALS.md §18).
 *
 * Usage: addhost HOST [ROUNDS [MS]]
 *
 * The task started by hand (the master, ltid 1) adds HOST to the
 * virtual machine with pvm_addhosts (a host already in it is fine),
 * spawns one copy of itself there (the worker, ltid 1001) and plays
 * ROUNDS (default 20) rounds of ping-pong with it, the worker holding
 * each ball MS ms (default 100).  The master prints "addhost: HOST is in
 * the virtual machine", then "addhost: ROUNDS rounds with a task on
 * HOST, sum S" at the end; the output is the same in every run.
 */
#define _DEFAULT_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pangaea.h>

#define TAG_BALL 1

/* Prints "addhost: WHAT failed (CODE)" to stderr, leaves PVM, exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "addhost: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* The worker: returns each ball plus one, holding it MS ms, until the
 * ball -1. */
static int worker(int ms)
{
	int parent = pvm_parent(), v, rc;

	for (;;) {
		if ((rc = pvm_recv(parent, TAG_BALL)) < 0)
			die("pvm_recv", rc);
		pvm_upkint(&v, 1, 1);
		if (v < 0)
			break;
		usleep((useconds_t)ms * 1000);
		v++;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&v, 1, 1);
		if ((rc = pvm_send(parent, TAG_BALL)) < 0)
			die("pvm_send", rc);
	}
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int rounds, ms, info, tid, rc, v = 0, sum = 0;
	char *host, *args[3], mbuf[16];

	pangaea_init(&argc, &argv);
	if (argc >= 2 && strcmp(argv[1], "-worker") == 0)
		return worker(argc > 2 ? atoi(argv[2]) : 100);
	if (argc < 2) {
		fprintf(stderr, "usage: addhost HOST [ROUNDS [MS]]\n");
		return 2;
	}
	host = argv[1];
	rounds = argc > 2 ? atoi(argv[2]) : 20;
	ms = argc > 3 ? atoi(argv[3]) : 100;
	if (pvm_mytid() < 0) {
		fprintf(stderr, "addhost: cannot enroll in PVM\n");
		return 1;
	}
	rc = pvm_addhosts(&host, 1, &info);
	if (rc < 0 || (info < 0 && info != PvmDupHost))
		die("pvm_addhosts", rc < 0 ? rc : info);
	printf("addhost: %s is in the virtual machine\n", host);
	fflush(stdout);
	snprintf(mbuf, sizeof(mbuf), "%d", ms);
	args[0] = "-worker";
	args[1] = mbuf;
	args[2] = NULL;
	if ((rc = pvm_spawn(argv[0], args, PvmTaskHost, host, 1, &tid)) != 1)
		die("pvm_spawn", rc == 0 ? tid : rc);
	for (int i = 0; i < rounds; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&v, 1, 1);
		if ((rc = pvm_send(tid, TAG_BALL)) < 0)
			die("pvm_send", rc);
		if ((rc = pvm_recv(tid, TAG_BALL)) < 0)
			die("pvm_recv", rc);
		pvm_upkint(&v, 1, 1);
		sum += v;
	}
	v = -1;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(tid, TAG_BALL);
	printf("addhost: %d rounds with a task on %s, sum %d\n", rounds, host, sum);
	pvm_exit();
	return 0;
}
