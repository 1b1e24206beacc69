/*
 * fates.c - a master whose fate is the first message it gets (Pangaea
 * example, for what-if replay and -explore).
 *
 * Usage: fates
 *
 * The master spawns 4 workers; worker W waits (W-1)*30 ms, sends its
 * number (tag 1) and ends, so worker 1 nearly always comes first.  The
 * master takes the first message with pvm_recv(-1, 1), and then:
 *   worker 1 first: takes the other three and prints "fates: done";
 *   worker 2 first: waits for a message of tag 42 that nobody sends (a
 *                   deadlock: the launcher ends the run, exit 3);
 *   worker 3 first: hangs outside PVM (sleeps; only a time limit ends it);
 *   worker 4 first: prints "fates: unlucky" too (other output).
 * Worker W is logical task 1000+W.
 */
#include <pangaea.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define WORKERS 4
#define TAG_SETUP 9
#define TAG_ANSWER 1
#define TAG_NEVER 42

static void die(const char *what, int code)
{
	fprintf(stderr, "fates: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

static void worker(int parent)
{
	int w;

	if (pvm_recv(parent, TAG_SETUP) < 0)
		die("pvm_recv setup", 0);
	pvm_upkint(&w, 1, 1);
	usleep((useconds_t)(w - 1) * 30000);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&w, 1, 1);
	if (pvm_send(parent, TAG_ANSWER) < 0)
		die("pvm_send", 0);
}

static void master(const char *self)
{
	int tids[WORKERS], first, w, b;
	int n = pvm_spawn((char *)self, NULL, PvmTaskDefault, "", WORKERS, tids);

	if (n < WORKERS)
		die("pvm_spawn", n < 0 ? n : tids[n]);
	for (w = 1; w <= WORKERS; w++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&w, 1, 1);
		if (pvm_send(tids[w - 1], TAG_SETUP) < 0)
			die("pvm_send setup", 0);
	}
	if ((b = pvm_recv(-1, TAG_ANSWER)) < 0)
		die("pvm_recv", b);
	pvm_upkint(&first, 1, 1);
	if (first == 2 && (b = pvm_recv(-1, TAG_NEVER)) < 0)
		die("pvm_recv", b);
	while (first == 3)
		sleep(1);
	if (first == 4)
		printf("fates: unlucky\n");
	for (int k = 1; k < WORKERS; k++)
		if ((b = pvm_recv(-1, TAG_ANSWER)) < 0)
			die("pvm_recv", b);
	printf("fates: done\n");
}

int main(int argc, char **argv)
{
	char self[PATH_MAX];
	int parent;

	pangaea_init(&argc, &argv);
	if (pvm_mytid() < 0)
		die("pvm_mytid", pvm_mytid());
	parent = pvm_parent();
	if (parent == PvmNoParent) {
		if (!realpath(argv[0], self)) {
			perror("fates: realpath");
			pvm_exit();
			return 1;
		}
		master(self);
	} else if (parent < 0) {
		die("pvm_parent", parent);
	} else {
		worker(parent);
	}
	pangaea_exit();
	pvm_exit();
	return 0;
}
