/*
 * perfunc.c: the cost of each wrapped PVM call with its dependent calls,
 * as in Table 2 of the Pangaea paper (001).
 *
 * Usage: perfunc -set p2p|spawn|mcast|bcast [-n CALLS]
 *
 * The task started by hand measures; the tasks it spawns serve it.  Every
 * message is 11 ints (44 bytes, the paper's typical size).  Rows:
 *
 *   p2p   send        pvm_initsend + pvm_pkint + pvm_send to the worker
 *         recv        pvm_recv + pvm_upkint of a message already here
 *         nrecv       pvm_nrecv + pvm_upkint, likewise (every call succeeds)
 *         trecv       pvm_trecv (1 s timeout) + pvm_upkint, likewise
 *         probe       pvm_probe + pvm_recv + pvm_upkint, likewise
 *         nrecv-miss  pvm_nrecv that finds nothing (a failed poll)
 *   spawn spawn       pvm_spawn of one task (that joins the run and ends)
 *   mcast mcast       pvm_initsend + pvm_pkint + pvm_mcast to 3 workers
 *   bcast bcast       pvm_initsend + pvm_pkint + pvm_bcast to a group of 3
 *
 * For the receive rows the worker sends CALLS messages and then a "done"
 * message; the master first receives "done" (not measured), which brings
 * every earlier message into its queue, so the measured calls never wait
 * for the network: they show the cost of the call itself.
 */
#include "bench.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "perfunc"
#define BODY 11
#define NWORKERS_COLL 3
#define GROUP "pangaea-bench"
#define TAG_DATA 1
#define TAG_DONE 2
#define TAG_GO 3
#define TAG_NONE 4
#define TAG_BYE 5

/* The receive phases the worker feeds (the GO message names one). */
enum phase { PH_QUIT = 0, PH_SEND, PH_RECV, PH_NRECV, PH_TRECV, PH_PROBE };

static const char *const phase_row[] = { "", "send", "recv", "nrecv",
					 "trecv", "probe" };

/* Sends an empty message with TAG to TID; dies on error. */
static void send_empty(int tid, int tag, int value)
{
	bench_ok(PROG, pvm_initsend(PvmDataDefault), "pvm_initsend");
	bench_ok(PROG, pvm_pkint(&value, 1, 1), "pvm_pkint");
	bench_ok(PROG, pvm_send(tid, tag), "pvm_send");
}

/* Sends N data messages to TID, then DONE. */
static void feed(int tid, long n)
{
	for (long i = 0; i < n; i++) {
		bench_ok(PROG, pvm_initsend(PvmDataDefault), "pvm_initsend");
		bench_pack_body(PROG, BODY);
		bench_ok(PROG, pvm_send(tid, TAG_DATA), "pvm_send");
	}
	send_empty(tid, TAG_DONE, 0);
}

/* Receives N data messages from TID, then acknowledges with DONE. */
static void drain(int tid, long n)
{
	for (long i = 0; i < n; i++) {
		bench_ok(PROG, pvm_recv(tid, TAG_DATA), "pvm_recv");
		bench_unpack_body(PROG, BODY);
	}
	send_empty(tid, TAG_DONE, 0);
}

/* One measured receive of phase PH from TID. */
static void receive_one(int ph, int tid)
{
	struct timeval tv = { 1, 0 };
	int b = 0;

	switch (ph) {
	case PH_RECV:
		b = pvm_recv(tid, TAG_DATA);
		break;
	case PH_NRECV:
		b = pvm_nrecv(tid, TAG_DATA);
		break;
	case PH_TRECV:
		b = pvm_trecv(tid, TAG_DATA, &tv);
		break;
	case PH_PROBE:
		if (bench_ok(PROG, pvm_probe(tid, TAG_DATA), "pvm_probe") > 0)
			b = pvm_recv(tid, TAG_DATA);
		break;
	}
	if (b <= 0)
		bench_die(PROG, phase_row[ph], b < 0 ? b : PvmNoData);
	bench_unpack_body(PROG, BODY);
}

/* Master side of phase PH with worker TID: N measured calls. */
static void p2p_phase(int ph, int tid, long n)
{
	struct bench_clock t0, t1;

	send_empty(tid, TAG_GO, ph);
	if (ph == PH_SEND) {
		bench_count_start();
		bench_clock_now(&t0);
		for (long i = 0; i < n; i++) {
			bench_ok(PROG, pvm_initsend(PvmDataDefault),
				 "pvm_initsend");
			bench_pack_body(PROG, BODY);
			bench_ok(PROG, pvm_send(tid, TAG_DATA), "pvm_send");
		}
		bench_clock_now(&t1);
		bench_count_stop(phase_row[ph]);
		bench_ok(PROG, pvm_recv(tid, TAG_DONE), "pvm_recv");
	} else {
		bench_ok(PROG, pvm_recv(tid, TAG_DONE), "pvm_recv");
		bench_count_start();
		bench_clock_now(&t0);
		for (long i = 0; i < n; i++)
			receive_one(ph, tid);
		bench_clock_now(&t1);
		bench_count_stop(phase_row[ph]);
	}
	bench_result(PROG, phase_row[ph], n, &t0, &t1, NULL);
}

/* Master: the point-to-point rows with one worker. */
static void set_p2p(const char *self, long n)
{
	struct bench_clock t0, t1;
	char nbuf[32];
	char *args[] = { "-worker", "p2p", nbuf, NULL };
	int tid;

	snprintf(nbuf, sizeof(nbuf), "%ld", n);
	if (pvm_spawn((char *)self, args, PvmTaskDefault, "", 1, &tid) != 1)
		bench_die(PROG, "pvm_spawn", tid < 0 ? tid : PvmSysErr);
	for (int ph = PH_SEND; ph <= PH_PROBE; ph++)
		p2p_phase(ph, tid, n);
	bench_count_start();
	bench_clock_now(&t0);
	for (long i = 0; i < n; i++)
		if (bench_ok(PROG, pvm_nrecv(tid, TAG_NONE), "pvm_nrecv") != 0)
			bench_die(PROG, "nrecv-miss", PvmSysErr);
	bench_clock_now(&t1);
	bench_count_stop("nrecv-miss");
	bench_result(PROG, "nrecv-miss", n, &t0, &t1, NULL);
	send_empty(tid, TAG_GO, PH_QUIT);
}

/* Worker of the p2p set: serves phases until QUIT. */
static void worker_p2p(int parent, long n)
{
	int ph;

	for (;;) {
		bench_ok(PROG, pvm_recv(parent, TAG_GO), "pvm_recv");
		bench_ok(PROG, pvm_upkint(&ph, 1, 1), "pvm_upkint");
		if (ph == PH_QUIT)
			return;
		if (ph == PH_SEND)
			drain(parent, n);
		else
			feed(parent, n);
	}
}

/* Master: N spawns of one task each, timed one by one. */
static void set_spawn(const char *self, long n)
{
	struct bench_clock t0, t1, sum = { 0, 0 };
	char *args[] = { "-worker", "exit", NULL };
	uint64_t min = UINT64_MAX, max = 0;
	char extra[64];
	int tid;

	for (long i = 0; i < n; i++) {
		bench_clock_now(&t0);
		if (pvm_spawn((char *)self, args, PvmTaskDefault, "", 1, &tid) != 1)
			bench_die(PROG, "pvm_spawn", tid < 0 ? tid : PvmSysErr);
		bench_clock_now(&t1);
		sum.wall_ns += t1.wall_ns - t0.wall_ns;
		sum.cpu_ns += t1.cpu_ns - t0.cpu_ns;
		if (t1.wall_ns - t0.wall_ns < min)
			min = t1.wall_ns - t0.wall_ns;
		if (t1.wall_ns - t0.wall_ns > max)
			max = t1.wall_ns - t0.wall_ns;
	}
	for (long i = 0; i < n; i++)
		bench_ok(PROG, pvm_recv(-1, TAG_BYE), "pvm_recv");
	t0.wall_ns = t0.cpu_ns = 0;
	snprintf(extra, sizeof(extra), "min_ns=%llu max_ns=%llu",
		 (unsigned long long)min, (unsigned long long)max);
	bench_result(PROG, "spawn", n, &t0, &sum, extra);
}

/* Master: N multicasts or broadcasts (BCAST) to NWORKERS_COLL workers. */
static void set_coll(const char *self, long n, int bcast)
{
	struct bench_clock t0, t1;
	char nbuf[32];
	char *args[] = { "-worker", bcast ? "bcast" : "mcast", nbuf, NULL };
	int tids[NWORKERS_COLL];

	snprintf(nbuf, sizeof(nbuf), "%ld", n);
	if (pvm_spawn((char *)self, args, PvmTaskDefault, "", NWORKERS_COLL,
		      tids) != NWORKERS_COLL)
		bench_die(PROG, "pvm_spawn", tids[0] < 0 ? tids[0] : PvmSysErr);
	if (bcast) {
		bench_ok(PROG, pvm_joingroup(GROUP), "pvm_joingroup");
		bench_ok(PROG, pvm_barrier(GROUP, NWORKERS_COLL + 1),
			 "pvm_barrier");
	}
	bench_count_start();
	bench_clock_now(&t0);
	for (long i = 0; i < n; i++) {
		bench_ok(PROG, pvm_initsend(PvmDataDefault), "pvm_initsend");
		bench_pack_body(PROG, BODY);
		if (bcast)
			bench_ok(PROG, pvm_bcast(GROUP, TAG_DATA), "pvm_bcast");
		else
			bench_ok(PROG, pvm_mcast(tids, NWORKERS_COLL, TAG_DATA),
				 "pvm_mcast");
	}
	bench_clock_now(&t1);
	bench_count_stop(bcast ? "bcast" : "mcast");
	for (int i = 0; i < NWORKERS_COLL; i++)
		bench_ok(PROG, pvm_recv(-1, TAG_DONE), "pvm_recv");
	if (bcast)
		bench_ok(PROG, pvm_lvgroup(GROUP), "pvm_lvgroup");
	bench_result(PROG, bcast ? "bcast" : "mcast", n, &t0, &t1, NULL);
}

/* A spawned task: serves the set named in ARGV. */
static void worker(int parent, int argc, char **argv)
{
	long n = argc > 3 ? atol(argv[3]) : 0;

	if (strcmp(argv[2], "p2p") == 0) {
		worker_p2p(parent, n);
	} else if (strcmp(argv[2], "exit") == 0) {
		send_empty(parent, TAG_BYE, 0);
	} else if (strcmp(argv[2], "bcast") == 0) {
		bench_ok(PROG, pvm_joingroup(GROUP), "pvm_joingroup");
		bench_ok(PROG, pvm_barrier(GROUP, NWORKERS_COLL + 1),
			 "pvm_barrier");
		drain(parent, n);
		bench_ok(PROG, pvm_lvgroup(GROUP), "pvm_lvgroup");
	} else {
		drain(parent, n);
	}
}

/* Prints the usage line and leaves. */
static int usage(void)
{
	fprintf(stderr, "usage: perfunc -set p2p|spawn|mcast|bcast "
			"[-n CALLS]\n");
	pvm_exit();
	return 1;
}

/* Runs the measuring master (started by hand) or a spawned worker. */
int main(int argc, char **argv)
{
	char self[PATH_MAX];
	const char *set = NULL;
	long n = 0;

	pangaea_init(&argc, &argv);
	pvm_setopt(PvmAutoErr, 0);
	bench_ok(PROG, pvm_mytid(), "pvm_mytid");
	if (argc >= 3 && strcmp(argv[1], "-worker") == 0) {
		worker(bench_ok(PROG, pvm_parent(), "pvm_parent"), argc, argv);
		pangaea_exit();
		pvm_exit();
		return 0;
	}
	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "-set") == 0)
			set = argv[i + 1];
		else if (strcmp(argv[i], "-n") == 0)
			n = atol(argv[i + 1]);
		else
			return usage();
	}
	if (!set || argc % 2 == 0)
		return usage();
	bench_self(PROG, argv[0], self, sizeof(self));
	if (strcmp(set, "p2p") == 0)
		set_p2p(self, n > 0 ? n : 5000);
	else if (strcmp(set, "spawn") == 0)
		set_spawn(self, n > 0 ? n : 20);
	else if (strcmp(set, "mcast") == 0 || strcmp(set, "bcast") == 0)
		set_coll(self, n > 0 ? n : 2000, strcmp(set, "bcast") == 0);
	else
		return usage();
	pangaea_exit();
	pvm_exit();
	return 0;
}
