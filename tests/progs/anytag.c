/*
 * anytag.c: a scenario-test program whose master takes its workers'
 * answers, each of another tag, with pvm_recv(-1, -1)
 * (tests/scenario/races.sh: such a receive races across tags).
 *
 *   anytag [N]   spawns N workers (default 2); worker W sends the master
 *                one message of tag 100 + W; the master takes N
 *                messages with pvm_recv(-1, -1) and prints their tags
 *                in the order it got them: "anytag: tags T T".
 *   anytag N -crash   the master then dies of SIGSEGV, whatever the
 *                order (tests/scenario/explore.sh: every order fails
 *                the same way).
 *   anytag N -exit S  the master then exits with status S.
 */
#include <pangaea.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORKERS 16

/* A worker: sends the parent its tag 100 + W (W its number in the
 * argument); 0 or 1. */
static int worker(const char *num)
{
	int w = atoi(num);

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&w, 1, 1);
	return pvm_send(pvm_parent(), 100 + w) < 0;
}

/* The master: spawns N workers (SELF), takes their messages with
 * pvm_recv(-1, -1) and prints the tags; 0 or 1. */
static int master(const char *self, int n)
{
	printf("anytag: tags");
	for (int i = 0; i < n; i++) {
		char num[16], *wargv[] = { "-worker", num, NULL };
		int tid;

		snprintf(num, sizeof(num), "%d", i + 1);
		if (pvm_spawn((char *)self, wargv, 0, NULL, 1, &tid) != 1)
			return 1;
	}
	for (int i = 0; i < n; i++) {
		int b = pvm_recv(-1, -1), len, tag, src;

		if (b < 0 || pvm_bufinfo(b, &len, &tag, &src) < 0)
			return 1;
		printf(" %d", tag);
	}
	printf("\n");
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	int rc, n = argc >= 2 ? atoi(argv[1]) : 2, crash, status = 0;

	pangaea_init(&argc, &argv);
	crash = argc == 3 && strcmp(argv[2], "-crash") == 0;
	if (argc == 4 && strcmp(argv[2], "-exit") == 0)
		status = atoi(argv[3]);
	if (argc == 3 && strcmp(argv[1], "-worker") == 0)
		rc = worker(argv[2]);
	else if ((argc <= 2 || crash || status) && n >= 1 && n <= MAX_WORKERS)
		rc = master(argv[0], n);
	else {
		fprintf(stderr, "usage: anytag [N [-crash|-exit S]]\n");
		rc = 1;
	}
	if (rc == 0 && crash)
		raise(SIGSEGV);
	if (rc == 0 && status)
		exit(status); /* without pangaea_exit: logged as such */
	pangaea_exit();
	pvm_exit(); /* a worker's message leaves before it does */
	return rc;
}
