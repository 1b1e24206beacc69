/*
 * nested.c - a grandchild racing a child (Pangaea example, for what-if
 * replay across a spawn tree).
 *
 * Usage: nested
 *
 * The master (task 1) spawns A (1001) and B (1002).  A spawns C
 * (1001001, given the master's tid), then waits for the master's goodbye.  B and C each send the
 * master one message (tag 1; C after 50 ms, so B's nearly always comes
 * first); the master takes both with pvm_recv(-1, 1), prints their order
 * ("nested: first=B" or "first=C") and says goodbye to A.  Swapping C's
 * message in first makes A's spawn of C the last event A replays.
 */
#include <pangaea.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG_HELLO 1
#define TAG_BYE 2

static void die(const char *what, int code)
{
	fprintf(stderr, "nested: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* Sends the master (task 1, TID) this task's name as a hello. */
static void hello(int tid, const char *name)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkstr((char *)name);
	if (pvm_send(tid, TAG_HELLO) < 0)
		die("pvm_send", 0);
}

int main(int argc, char **argv)
{
	char self[PATH_MAX], name[8], master[16], *a[] = { "C", master, NULL };
	int tids[2], n, b;

	pangaea_init(&argc, &argv);
	if (pvm_mytid() < 0 || !realpath("/proc/self/exe", self))
		die("pvm_mytid", pvm_mytid());
	if (pvm_parent() == PvmNoParent) {
		char *ab[] = { "A", NULL }, *bb[] = { "B", NULL };

		if ((n = pvm_spawn(self, ab, PvmTaskDefault, "", 1, &tids[0])) < 1 ||
		    (n = pvm_spawn(self, bb, PvmTaskDefault, "", 1, &tids[1])) < 1)
			die("pvm_spawn", n);
		for (int k = 0; k < 2; k++) {
			if ((b = pvm_recv(-1, TAG_HELLO)) < 0)
				die("pvm_recv", b);
			pvm_upkstr(name);
			if (k == 0)
				printf("nested: first=%s\n", name);
		}
		pvm_initsend(PvmDataDefault);
		if (pvm_send(tids[0], TAG_BYE) < 0)
			die("pvm_send", 0);
		printf("nested: done\n");
	} else if (argc > 1 && strcmp(argv[1], "A") == 0) {
		snprintf(master, sizeof(master), "%d", pvm_parent());
		if ((n = pvm_spawn(self, a, PvmTaskDefault, "", 1, &tids[0])) < 1)
			die("pvm_spawn", n);
		if ((b = pvm_recv(pvm_parent(), TAG_BYE)) < 0)
			die("pvm_recv", b);
	} else if (argc > 1 && strcmp(argv[1], "B") == 0) {
		hello(pvm_parent(), "B");
	} else if (argc > 2) { /* C: the master's tid from A */
		usleep(50000);
		hello(atoi(argv[2]), "C");
	}
	pangaea_exit();
	pvm_exit();
	return 0;
}
