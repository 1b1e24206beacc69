/*
 * ctxcheck.c: a scenario-test program.  The master spawns workers; while
 * they start (and their Pangaea traffic flows: handover, registration,
 * translations), the master polls with pvm_nrecv(-1, -1) and
 * pvm_recv(-1, -1): every message it gets must be an app message (tag 7
 * with a known payload).  It also checks that under the launcher
 * pvm_parent() says PvmNoParent and that argv arrives unchanged.
 *
 *   ctxcheck [WORKERS] [MESSAGES] [EXPECTED-ARGV1]
 */
#include <pangaea.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_APP 7

/* Prints a failure and exits non-zero (after leaving PVM). */
static void fail(const char *what, int v)
{
	printf("ctxcheck: FAIL: %s (%d)\n", what, v);
	fflush(stdout);
	pangaea_exit();
	pvm_exit();
	exit(1);
}

/* Worker: sends N messages (its index, a sequence number) to the parent. */
static int worker(int n)
{
	int parent = pvm_parent(), me = pvm_mytid();

	for (int i = 0; i < n; i++) {
		int v[2] = { me, i };

		if (pvm_initsend(PvmDataDefault) < 0 || pvm_pkint(v, 2, 1) < 0 ||
		    pvm_send(parent, TAG_APP) < 0)
			return 1;
	}
	return 0;
}

/* Master: receives every worker message with wildcards, checking each. */
static int master(int nw, int n, char *self)
{
	int tids[64], got = 0, polls = 0;

	if (nw > 64 || pvm_spawn(self, (char *[]){ "worker", NULL }, 0, "", nw,
				 tids) != nw)
		fail("spawn", nw);
	while (got < nw * n) {
		int b = (polls++ % 2) ? pvm_nrecv(-1, -1) : pvm_recv(-1, -1);
		int len, tag, src, v[2];

		if (b < 0)
			fail("receive error", b);
		if (b == 0)
			continue;
		pvm_bufinfo(b, &len, &tag, &src);
		if (tag != TAG_APP || len != 8 || pvm_upkint(v, 2, 1) < 0 ||
		    v[0] != src)
			fail("a message that is not the app's reached the app", tag);
		got++;
	}
	printf("ctxcheck: ok: %d app messages, nothing else\n", got);
	return 0;
}

int main(int argc, char **argv)
{
	int rc;

	if (pangaea_init(&argc, &argv) < 0)
		return 2;
	if (argc > 1 && strcmp(argv[1], "worker") == 0) {
		rc = worker(5);
	} else {
		if (pangaea_mode() && pvm_parent() != PvmNoParent)
			fail("pvm_parent() of the top task is not PvmNoParent",
			     pvm_parent());
		if (argc > 3 && strcmp(argv[3], "a b\"c") != 0)
			fail("argv changed", argc);
		rc = master(argc > 1 ? atoi(argv[1]) : 3, 5, argv[0]);
	}
	pangaea_exit();
	pvm_exit();
	return rc;
}
