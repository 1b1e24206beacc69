/*
 * clockpp.c: a scenario-test program for the clock tests
 * (tests/scenario/clocksync.sh).  The master spawns itself once on HOST
 * and plays N ping-pongs with that worker, PAUSE_US apart.  Both print
 * "truth LTID MONO REAL SPAN" lines now and then: the kernel's true
 * CLOCK_REALTIME (a raw system call, which libfaketime does not see)
 * between two reads of their CLOCK_MONOTONIC (as Pangaea reads it, faked
 * by libfaketime on a skewed host), MONO their middle and SPAN their
 * distance, all in ns: the true time is that of MONO within SPAN / 2
 * (the system call alone takes a microsecond or more here).
 *
 * The master prints "elapsed NS": from its first message to the worker
 * to the last answer (bench/overhead.sh compares it with the trace).
 *
 *   clockpp HOST N PAUSE_US
 */
#include <pangaea.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TAG_PING 11
#define TRUTH_EVERY 10

/* Prints a truth line of this task. */
static void truth(void)
{
	struct timespec m0, r, m1;
	unsigned long long a, b;

	/* (the name in brackets: libc's own, not pangaea.h's recorded
	   read, which would log between the reads) */
	(clock_gettime)(CLOCK_MONOTONIC, &m0);
	syscall(SYS_clock_gettime, CLOCK_REALTIME, &r);
	(clock_gettime)(CLOCK_MONOTONIC, &m1);
	a = (unsigned long long)m0.tv_sec * 1000000000ull +
	    (unsigned long long)m0.tv_nsec;
	b = (unsigned long long)m1.tv_sec * 1000000000ull +
	    (unsigned long long)m1.tv_nsec;
	printf("truth %d %llu %llu %llu\n", pangaea_ltid(), a + (b - a) / 2,
	       (unsigned long long)r.tv_sec * 1000000000ull +
		       (unsigned long long)r.tv_nsec, b - a);
	fflush(stdout);
}

/* Sends the int I to TID. */
static void ping(int tid, int i)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&i, 1, 1);
	pvm_send(tid, TAG_PING);
}

/* N ping-pongs with PEER; FIRST: this side sends first. */
static void play(int peer, int n, int pause_us, int first)
{
	int v;

	for (int i = 0; i < n; i++) {
		if (i % TRUTH_EVERY == 0 || i == n - 1)
			truth();
		if (first)
			ping(peer, i);
		pvm_recv(peer, TAG_PING);
		pvm_upkint(&v, 1, 1);
		if (!first)
			ping(peer, v);
		usleep((useconds_t)pause_us);
	}
	truth();
}

int main(int argc, char **argv)
{
	int parent, tid, n, pause_us;
	struct timespec a, b;

	pangaea_init(&argc, &argv);
	if (pvm_mytid() < 0)
		return 1;
	parent = pvm_parent();
	if (parent >= 0) { /* the worker: N and PAUSE from the master */
		pvm_recv(parent, TAG_PING);
		pvm_upkint(&n, 1, 1);
		pvm_upkint(&pause_us, 1, 1);
		play(parent, n, pause_us, 0);
	} else {
		if (argc < 4) {
			fprintf(stderr, "usage: clockpp HOST N PAUSE_US\n");
			pvm_exit();
			return 2;
		}
		n = atoi(argv[2]);
		pause_us = atoi(argv[3]);
		if (pvm_spawn(argv[0], NULL, PvmTaskHost, argv[1], 1, &tid) != 1) {
			fprintf(stderr, "clockpp: cannot spawn on %s\n", argv[1]);
			pvm_exit();
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &a);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&n, 1, 1);
		pvm_pkint(&pause_us, 1, 1);
		pvm_send(tid, TAG_PING);
		play(tid, n, pause_us, 1);
		clock_gettime(CLOCK_MONOTONIC, &b);
		printf("elapsed %lld\n", (long long)(b.tv_sec - a.tv_sec) *
			1000000000LL + (b.tv_nsec - a.tv_nsec));
	}
	pangaea_exit();
	pvm_exit();
	return 0;
}
