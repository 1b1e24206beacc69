/*
 * pollers.c - a master that takes its workers' messages in the ways PVM
 * programs poll (Pangaea example for non-blocking receives, pvm_psend /
 * pvm_precv, pvm_notify and selective logging).
 *
 * Usage: pollers [-mode MODE] [-w WORKERS] [-m MESSAGES] [-heartbeats]
 *
 * The master spawns WORKERS copies of itself (default 3); each sends
 * MESSAGES messages (default 5) after random pauses.  The master receives
 * them, with a wildcard source, in one of these MODEs:
 *   nrecv   pvm_nrecv with exponential back-off (10 us, doubling to 1 ms)
 *   probe   pvm_probe until a message is there, then pvm_recv
 *   trecv   pvm_trecv with a 200 us timeout, retried
 *   psend   the workers use pvm_psend, the master pvm_precv
 *   notify  pvm_recv(-1, -1), with pvm_notify(PvmTaskExit) asked for every
 *           worker: the exit notices (from the pvmd, not from a task) come
 *           in among the data messages
 * For every message it prints the worker, the sequence number and how
 * many polls failed before it; these counts change from run to run.
 *
 * -heartbeats: every worker also sends a heartbeat (tag 50) before each
 * message, and both sides handle heartbeats between pangaea_suspend() and
 * pangaea_resume(): they are neither logged nor replayed.  The master
 * prints only how many it got.
 */
#define _DEFAULT_SOURCE

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pangaea.h>

#define MAX_WORKERS 32
enum { TAG_SETUP = 40, TAG_DATA = 41, TAG_EXIT = 42, TAG_BEAT = 50 };
enum { M_NRECV, M_PROBE, M_TRECV, M_PSEND, M_NOTIFY };
static const char *const mode_names[] = { "nrecv", "probe", "trecv", "psend",
					  "notify" };

/* Prints "pollers: WHAT failed (CODE)" to stderr, leaves PVM and exits 1. */
static void die(const char *what, int code)
{
	fprintf(stderr, "pollers: %s failed (PVM error %d)\n", what, code);
	pvm_exit();
	exit(1);
}

/* Returns RC if it is not negative; otherwise dies naming WHAT. */
static int ok(int rc, const char *what)
{
	if (rc < 0)
		die(what, rc);
	return rc;
}

/* Worker W: sends M messages (and heartbeats) to PARENT as MODE says. */
static void worker(int parent)
{
	int v[5], w, m, mode, beats;
	unsigned rng;

	ok(pvm_recv(parent, TAG_SETUP), "pvm_recv setup");
	pvm_upkint(v, 5, 1);
	w = v[0], m = v[1], mode = v[2], beats = v[3];
	rng = (unsigned)v[4] * 2654435761u + (unsigned)w;
	for (int s = 1; s <= m; s++) {
		int msg[2] = { w, s };

		rng = rng * 1103515245u + 12345u;
		usleep((rng >> 8) % 2000);
		if (beats) {
			pangaea_suspend(PANGAEA_RECORD | PANGAEA_REPLAY);
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&w, 1, 1);
			ok(pvm_send(parent, TAG_BEAT), "pvm_send heartbeat");
			pangaea_resume(PANGAEA_RECORD | PANGAEA_REPLAY);
		}
		if (mode == M_PSEND) {
			ok(pvm_psend(parent, TAG_DATA, msg, 2, PVM_INT), "pvm_psend");
		} else {
			pvm_initsend(PvmDataDefault);
			pvm_pkint(msg, 2, 1);
			ok(pvm_send(parent, TAG_DATA), "pvm_send");
		}
	}
}

/* Master: receives one data message (or exit notice) as MODE says;
 * counts failed polls in *FAILS; returns the buffer (0 for psend). */
static int receive(int mode, long *fails, int *msg)
{
	struct timeval tmout = { 0, 200 };
	int b, delay = 10, rtid, rtag, rlen;

	switch (mode) {
	case M_NRECV:
		while ((b = ok(pvm_nrecv(-1, TAG_DATA), "pvm_nrecv")) == 0) {
			(*fails)++;
			usleep((unsigned)delay);
			delay = delay < 1000 ? delay * 2 : 1000;
		}
		break;
	case M_PROBE:
		while (ok(pvm_probe(-1, TAG_DATA), "pvm_probe") == 0) {
			(*fails)++;
			usleep(50);
		}
		b = ok(pvm_recv(-1, TAG_DATA), "pvm_recv");
		break;
	case M_TRECV:
		while ((b = ok(pvm_trecv(-1, TAG_DATA, &tmout), "pvm_trecv")) == 0)
			(*fails)++;
		break;
	case M_PSEND:
		ok(pvm_precv(-1, TAG_DATA, msg, 2, PVM_INT, &rtid, &rtag, &rlen),
		   "pvm_precv");
		return 0;
	default:
		b = ok(pvm_recv(-1, -1), "pvm_recv");
	}
	pvm_upkint(msg, 2, 1);
	return b;
}

/* Drains the heartbeats that are there, outside the log; their number. */
static int drain_heartbeats(void)
{
	int n = 0;

	pangaea_suspend(PANGAEA_RECORD | PANGAEA_REPLAY);
	while (pvm_nrecv(-1, TAG_BEAT) > 0)
		n++;
	pangaea_resume(PANGAEA_RECORD | PANGAEA_REPLAY);
	return n;
}

/* Master: spawns, sets up, receives and prints. */
static void master(const char *self, int nw, int m, int mode, int beats)
{
	int tids[MAX_WORKERS], expect = nw * m, beats_seen = 0;
	long fails = 0;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	int n = pvm_spawn((char *)self, NULL, PvmTaskDefault, "", nw, tids);
	if (n < nw)
		die("pvm_spawn", n < 0 ? n : tids[n]);
	if (mode == M_NOTIFY) {
		ok(pvm_notify(PvmTaskExit, TAG_EXIT, nw, tids), "pvm_notify");
		expect += nw;
	}
	for (int w = 1; w <= nw; w++) {
		int v[5] = { w, m, mode, beats, (int)(ts.tv_nsec & 0xffffff) };

		pvm_initsend(PvmDataDefault);
		pvm_pkint(v, 5, 1);
		ok(pvm_send(tids[w - 1], TAG_SETUP), "pvm_send setup");
	}
	for (int k = 0; k < expect; k++) {
		int msg[2], b = receive(mode, &fails, msg), tag = 0, who = 0;

		if (b > 0)
			pvm_bufinfo(b, NULL, &tag, NULL);
		if (tag == TAG_EXIT) {
			for (int i = 0; i < nw; i++)
				if (tids[i] == msg[0])
					who = i + 1;
			printf("pollers: worker %d exited\n", who);
		} else {
			printf("pollers: got worker=%d seq=%d after %ld failed polls\n",
			       msg[0], msg[1], fails);
		}
		fails = 0;
		if (beats)
			beats_seen += drain_heartbeats();
	}
	if (beats) {
		while (beats_seen < nw * m) {
			usleep(1000);
			beats_seen += drain_heartbeats();
		}
		printf("pollers: %d heartbeats (not logged)\n", beats_seen);
	}
	printf("pollers: done (%s)\n", mode_names[mode]);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int nw = 3, m = 5, mode = M_NRECV, beats = 0, parent;
	char self[PATH_MAX];

	pangaea_init(&argc, &argv);
	pvm_setopt(PvmAutoErr, 0);
	ok(pvm_mytid(), "pvm_mytid");
	parent = pvm_parent();
	if (parent != PvmNoParent) {
		worker(ok(parent, "pvm_parent"));
		pangaea_exit();
		pvm_exit();
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
			nw = atoi(argv[++i]);
		else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
			m = atoi(argv[++i]);
		else if (strcmp(argv[i], "-heartbeats") == 0)
			beats = 1;
		else if (strcmp(argv[i], "-mode") == 0 && i + 1 < argc) {
			for (mode = 0; mode < 5; mode++)
				if (strcmp(argv[i + 1], mode_names[mode]) == 0)
					break;
			i++;
		} else
			mode = 99;
		if (mode > 4 || nw < 1 || nw > MAX_WORKERS || m < 1) {
			fprintf(stderr, "usage: pollers [-mode nrecv|probe|trecv|"
				"psend|notify] [-w WORKERS] [-m MESSAGES] "
				"[-heartbeats]\n");
			pvm_exit();
			return 1;
		}
	}
	if (!realpath(argv[0], self))
		die("realpath", 0);
	master(self, nw, m, mode, beats);
	pangaea_exit();
	pvm_exit();
	return 0;
}
