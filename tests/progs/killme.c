/*
 * killme.c: a scenario-test program for tasks that end badly.
 *
 *   killme N       the master spawns a worker that sends it N messages;
 *                  both then block forever (the test SIGKILLs them and
 *                  checks that every logged event survived).
 *   killme N spin  the same, but the worker then computes forever without
 *                  a PVM call (only a kill ends it, not a lost pvmd).
 *   killme noexit  the master exits with status 3 without pangaea_exit().
 */
#include <pangaea.h>

#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Worker: N messages to the parent, then wait for a message never sent
 * (SPIN: sleep forever, deaf to a broken PVM connection). */
static void worker(int n, int spin)
{
	int parent = pvm_parent();

	for (int i = 0; i < n; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		if (pvm_send(parent, 1) < 0)
			exit(1);
	}
	if (spin) {
		signal(SIGPIPE, SIG_IGN);
		for (;;)
			sleep(1);
	}
	pvm_recv(parent, 99);
}

/* Master: receive N messages, say so, and wait for a message never sent. */
static void master(int n, const char *spin, char *self)
{
	int tid;
	char *args[] = { "worker", NULL, NULL, NULL }, num[16];

	snprintf(num, sizeof(num), "%d", n);
	args[1] = num;
	args[2] = (char *)spin;
	if (pvm_spawn(self, args, 0, "", 1, &tid) != 1)
		exit(1);
	for (int i = 0; i < n; i++)
		if (pvm_recv(tid, 1) < 0)
			exit(1);
	printf("killme: ready %d\n", n);
	fflush(stdout);
	pvm_recv(-1, 99);
}

int main(int argc, char **argv)
{
	if (pangaea_init(&argc, &argv) < 0)
		return 2;
	if (argc > 1 && strcmp(argv[1], "noexit") == 0) {
		printf("killme: leaving without pangaea_exit\n");
		fflush(stdout);
		exit(3);
	}
	if (argc > 2 && strcmp(argv[1], "worker") == 0)
		worker(atoi(argv[2]), argc > 3 && strcmp(argv[3], "spin") == 0);
	else
		master(argc > 1 ? atoi(argv[1]) : 10, argc > 2 ? argv[2] : NULL,
		       argv[0]);
	pangaea_exit();
	pvm_exit();
	return 0;
}
