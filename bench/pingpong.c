/*
 * pingpong.c: two-task ping-pong, the yardstick of Pangaea's overhead
 * (issue 3).
 *
 * Usage: pingpong [-n ROUNDTRIPS] [-direct] [-size INTS]
 *
 * The task started by hand spawns one copy of itself and bounces a message
 * of SIZE ints (default 11, 44 bytes as in the paper's Table 2) to it and
 * back ROUNDTRIPS times (default 20000) after 200 unmeasured warm-up round
 * trips.  Each leg is pvm_initsend + pvm_pkint + pvm_send, then pvm_recv +
 * pvm_upkint.  -direct sets PvmRouteDirect in both tasks (task-to-task
 * sockets instead of the route through the pvmds).  The result line gives
 * the wall time of the measured round trips and the CPU time (user+sys)
 * both tasks spent in them.
 */
#include "bench.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef BENCH_PLAIN
#define PROG "pingpong-preload" /* the same program, unmodified */
#else
#define PROG "pingpong"
#endif
#define TAG_PING 1
#define TAG_STOP 2
#define TAG_CPU 3
#define WARMUP 200

/* One exchange with TID of a SIZE-int message: send then receive
 * (SEND_FIRST), or receive then send the answer. */
static void leg(int tid, int size, int send_first)
{
	if (!send_first) {
		bench_ok(PROG, pvm_recv(tid, TAG_PING), "pvm_recv");
		bench_unpack_body(PROG, size);
	}
	bench_ok(PROG, pvm_initsend(PvmDataDefault), "pvm_initsend");
	bench_pack_body(PROG, size);
	bench_ok(PROG, pvm_send(tid, TAG_PING), "pvm_send");
	if (send_first) {
		bench_ok(PROG, pvm_recv(tid, TAG_PING), "pvm_recv");
		bench_unpack_body(PROG, size);
	}
}

/* The spawned task: answers WARMUP + N pings, then reports the CPU time
 * it spent on the last N. */
static void pong(int parent, long n, int size)
{
	struct bench_clock t0, t1;
	long cpu;

	for (long i = 0; i < WARMUP; i++)
		leg(parent, size, 0);
	bench_clock_now(&t0);
	for (long i = 0; i < n; i++)
		leg(parent, size, 0);
	bench_clock_now(&t1);
	cpu = (long)(t1.cpu_ns - t0.cpu_ns);
	bench_ok(PROG, pvm_initsend(PvmDataDefault), "pvm_initsend");
	bench_ok(PROG, pvm_pklong(&cpu, 1, 1), "pvm_pklong");
	bench_ok(PROG, pvm_send(parent, TAG_CPU), "pvm_send");
}

/* The task started by hand: spawns the partner, measures N round trips. */
static void ping(const char *self, long n, int size, int direct)
{
	char nbuf[32], sbuf[32], extra[64];
	char *args[] = { "-pong", nbuf, sbuf, direct ? "-direct" : NULL, NULL };
	struct bench_clock t0, t1;
	long peer_cpu = 0;
	int tid;

	snprintf(nbuf, sizeof(nbuf), "%ld", n);
	snprintf(sbuf, sizeof(sbuf), "%d", size);
	if (pvm_spawn((char *)self, args, PvmTaskDefault, "", 1, &tid) != 1)
		bench_die(PROG, "pvm_spawn", tid < 0 ? tid : PvmSysErr);
	for (long i = 0; i < WARMUP; i++)
		leg(tid, size, 1);
	bench_clock_now(&t0);
	for (long i = 0; i < n; i++)
		leg(tid, size, 1);
	bench_clock_now(&t1);
	bench_ok(PROG, pvm_recv(tid, TAG_CPU), "pvm_recv");
	bench_ok(PROG, pvm_upklong(&peer_cpu, 1, 1), "pvm_upklong");
	snprintf(extra, sizeof(extra), "peer_cpu_ns=%ld", peer_cpu);
	t1.cpu_ns += (uint64_t)peer_cpu; /* CPU of both tasks */
	bench_result(PROG, direct ? "roundtrip-direct" : "roundtrip", n, &t0,
		     &t1, extra);
}

/* Runs the measuring side (started by hand) or the partner (-pong). */
int main(int argc, char **argv)
{
	char self[PATH_MAX];
	long n = 20000;
	int size = 11, direct = 0, parent;

	pangaea_init(&argc, &argv);
	pvm_setopt(PvmAutoErr, 0);
	bench_ok(PROG, pvm_mytid(), "pvm_mytid");
	parent = pvm_parent();
	if (argc >= 4 && strcmp(argv[1], "-pong") == 0) {
		if (argc > 4 && strcmp(argv[4], "-direct") == 0)
			pvm_setopt(PvmRoute, PvmRouteDirect);
		pong(bench_ok(PROG, parent, "pvm_parent"), atol(argv[2]),
		     atoi(argv[3]));
	} else {
		for (int i = 1; i < argc; i++) {
			if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
				n = atol(argv[++i]);
			else if (strcmp(argv[i], "-size") == 0 && i + 1 < argc)
				size = atoi(argv[++i]);
			else if (strcmp(argv[i], "-direct") == 0)
				direct = 1;
			else {
				fprintf(stderr, "usage: pingpong [-n ROUNDTRIPS] "
						"[-direct] [-size INTS]\n");
				pvm_exit();
				return 1;
			}
		}
		if (n < 1 || size < 1) {
			fprintf(stderr, "pingpong: -n and -size must be > 0\n");
			pvm_exit();
			return 1;
		}
		if (direct)
			pvm_setopt(PvmRoute, PvmRouteDirect);
		bench_self(PROG, argv[0], self, sizeof(self));
		ping(self, n, size, direct);
	}
	pangaea_exit();
	pvm_exit();
	return 0;
}
