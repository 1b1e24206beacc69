/*
 * watcher.c - a master that survives the death of a worker (Pangaea
 * example).
 *
 * Usage: watcher [-nowatch | -cancel] [-exit] WORKERS [DYING]
 *
 * The master spawns WORKERS copies of itself (at most 64), asks PVM to
 * tell it of each one's exit (pvm_notify(PvmTaskExit)), and sends worker
 * W its number.  Worker W answers W*W and ends; worker DYING (default: none)
 * instead kills itself with SIGKILL before answering (-exit: calls
 * exit(4) without pangaea_exit).  The master takes answers and exit
 * notices as they come, says of each worker that died without answering
 * "watcher: worker W died without answering", and at the end prints how
 * many answered and the sum of their answers.
 *
 * Under Pangaea the launcher hears of the pvm_notify: it says the worker's
 * death, but lets the run go on to the master's own result.  -nowatch:
 * the master does not call pvm_notify and waits for every answer, so a
 * dead worker would hang it; the launcher ends such a run.  -cancel: the
 * master watches, then cancels the watch (PvmNotifyCancel) and behaves
 * as with -nowatch; the launcher must end that run too.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pangaea.h>

#define MAX_WORKERS 64
#define TAG_SETUP 1
#define TAG_ANSWER 2
#define TAG_EXIT 3

/* Prints "watcher: WHAT failed (CODE)" to stderr, leaves PVM, exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "watcher: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* Worker: takes its number and whether to die, answers or dies. */
static void worker(int parent)
{
	int w, dying, answer;

	if (pvm_recv(parent, TAG_SETUP) < 0)
		die("pvm_recv setup", 0);
	pvm_upkint(&w, 1, 1);
	pvm_upkint(&dying, 1, 1);
	if (dying == 2)
		exit(4);
	if (dying)
		raise(SIGKILL);
	answer = w * w;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&w, 1, 1);
	pvm_pkint(&answer, 1, 1);
	if (pvm_send(parent, TAG_ANSWER) < 0)
		die("pvm_send answer", 0);
}

/* The number (1..N) of the worker TID among TIDS, or 0. */
static int worker_of(const int *tids, int n, int tid)
{
	for (int i = 0; i < n; i++)
		if (tids[i] == tid)
			return i + 1;
	return 0;
}

/* Master: spawns and (WATCH 1) watches N workers, of which DYING dies
 * (HOW: 1 SIGKILL, 2 exit); WATCH 2: watches, then cancels it. */
static int master(const char *self, int n, int dying, int how, int watch)
{
	int tids[MAX_WORKERS], answered[MAX_WORKERS + 1] = { 0 };
	int gone = 0, nanswers = 0, sum = 0, w, v, tag, src, len;

	if (pvm_spawn((char *)self, NULL, PvmTaskDefault, "", n, tids) < n)
		die("pvm_spawn", 0);
	if (watch && pvm_notify(PvmTaskExit, TAG_EXIT, n, tids) < 0)
		die("pvm_notify", 0);
	if (watch == 2) {
		/* PVM then sends each notify at once: take them all */
		if (pvm_notify(PvmTaskExit | PvmNotifyCancel, TAG_EXIT, n,
			       tids) < 0)
			die("pvm_notify cancel", 0);
		for (w = 0; w < n; w++)
			if (pvm_recv(-1, TAG_EXIT) < 0)
				die("pvm_recv cancelled notify", 0);
		watch = 0;
	}
	for (w = 1; w <= n; w++) {
		int d = w == dying ? how : 0;

		pvm_initsend(PvmDataDefault);
		pvm_pkint(&w, 1, 1);
		pvm_pkint(&d, 1, 1);
		if (pvm_send(tids[w - 1], TAG_SETUP) < 0)
			die("pvm_send setup", 0);
	}
	while (watch ? gone < n : nanswers < n) {
		int b = pvm_recv(-1, -1);

		if (b < 0 || pvm_bufinfo(b, &len, &tag, &src) < 0)
			die("pvm_recv", b);
		if (tag == TAG_ANSWER) {
			pvm_upkint(&w, 1, 1);
			pvm_upkint(&v, 1, 1);
			answered[w] = 1;
			nanswers++;
			sum += v;
		} else if (tag == TAG_EXIT) {
			pvm_upkint(&v, 1, 1);
			w = worker_of(tids, n, v);
			gone++;
			if (w && !answered[w])
				printf("watcher: worker %d died without answering\n", w);
		}
	}
	printf("watcher: %d of %d workers answered, sum=%d\n", nanswers, n, sum);
	return 0;
}

int main(int argc, char **argv)
{
	int parent, rc = 0, how = 1, watch = 1, a = 1;

	pangaea_init(&argc, &argv);
	if (pvm_mytid() < 0)
		die("pvm_mytid", pvm_mytid());
	parent = pvm_parent();
	if (parent == PvmNoParent) {
		char self[PATH_MAX];
		int n;

		for (; a < argc && argv[a][0] == '-'; a++) {
			if (strcmp(argv[a], "-exit") == 0)
				how = 2;
			else if (strcmp(argv[a], "-nowatch") == 0)
				watch = 0;
			else if (strcmp(argv[a], "-cancel") == 0)
				watch = 2;
		}
		n = a < argc ? atoi(argv[a]) : 0;
		if (n < 1 || n > MAX_WORKERS || !realpath(argv[0], self)) {
			fprintf(stderr, "usage: watcher [-nowatch | -cancel] [-exit] "
				"WORKERS [DYING]\n");
			pvm_exit();
			return 1;
		}
		rc = master(self, n, a + 1 < argc ? atoi(argv[a + 1]) : 0, how,
			    watch);
	} else if (parent < 0) {
		die("pvm_parent", parent);
	} else {
		worker(parent);
	}
	pangaea_exit();
	pvm_exit();
	return rc;
}
