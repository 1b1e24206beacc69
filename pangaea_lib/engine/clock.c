/*
 * clock.c: the time base of a task.  Events carry CLOCK_MONOTONIC times
 * relative to the task's start; the wall time read with it gives them a
 * place on the run's common time line (docs/FORMATS.md, "Times").
 *
 * pg_now is read two or three times by every wrapped call, so it is
 * made cheap where it can be: on x86-64 with an invariant TSC (CPUID
 * says so) it is the time stamp counter scaled to CLOCK_MONOTONIC (a
 * rdtsc, a multiply and a shift: 9 ns here against clock_gettime's 21,
 * bench/clockread.c).  Each thread anchors the counter to
 * CLOCK_MONOTONIC at its first read, measures the counter's rate over
 * its first millisecond (reading clock_gettime meanwhile), and anchors
 * again every millisecond after: a time is off CLOCK_MONOTONIC by the
 * rate's error over at most a millisecond (under a microsecond; the logs
 * keep times in units of 256 ns), and never goes back.  A rate that
 * changes by more than 1/64 (a counter that jumped) is measured again.
 * Without an invariant TSC, pg_now is clock_gettime.
 */
#include "engine.h"

#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

uint64_t pg_clock_mono0; /* CLOCK_MONOTONIC at the start (engine.h) */
static uint64_t start_wall, start_span;

/* CLOCK_ID now, in ns. */
static uint64_t clock_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int pg_clock_tsc; /* the time stamp counter is invariant: pg_now scales it */

#if defined(__x86_64__)

#define ANCHOR_NS 1000000u /* re-anchored to CLOCK_MONOTONIC this often */

/* A thread's scaling of the counter (engine.h): NEXT, the counter at
 * which it is anchored again, is written last, so that a signal handler
 * reading the clock meanwhile anchors for itself rather than taking half
 * an update. */
__thread struct pg_tsc_scale pg_tsc __attribute__((tls_model("initial-exec")));

/* Whether this CPU's time stamp counter runs at a constant rate in every
 * state (CPUID 0x80000007, EDX bit 8): then it may stand for the clock. */
static int tsc_invariant(void)
{
	unsigned a, b, c, d;

	/* (GCC's cpuid.h returns it unsigned, clang's int) */
	if ((unsigned)__get_cpuid_max(0x80000000u, NULL) < 0x80000007u)
		return 0;
	__cpuid(0x80000007u, a, b, c, d);
	return (d >> 8) & 1u;
}

/* Anchors this thread's scaling at the counter TSC to CLOCK_MONOTONIC
 * (and, once a millisecond has gone by since the first anchor, sets its
 * rate); CLOCK_MONOTONIC now, in ns. */
static uint64_t tsc_anchor(uint64_t tsc)
{
	uint64_t ns = clock_ns(CLOCK_MONOTONIC), mult = pg_tsc.mult;

	pg_tsc.next = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (!pg_tsc.cal_tsc || tsc < pg_tsc.cal_tsc) {
		pg_tsc.cal_tsc = tsc;
		pg_tsc.cal_ns = ns;
	} else if (ns - pg_tsc.cal_ns >= ANCHOR_NS) {
		/* ns per tick, 32.32 fixed point, over the time since the
		   first anchor (its error shrinks as that grows) */
		mult = (uint64_t)(((unsigned __int128)(ns - pg_tsc.cal_ns)
				   << 32) / (tsc - pg_tsc.cal_tsc));
		/* a rate off the last by more than 1/64: the counter jumped
		   (a virtual machine moved): measured again from here,
		   clock_gettime meanwhile */
		if (pg_tsc.mult &&
		    (mult > pg_tsc.mult + (pg_tsc.mult >> 6) ||
		     mult < pg_tsc.mult - (pg_tsc.mult >> 6))) {
			pg_tsc.cal_tsc = tsc;
			pg_tsc.cal_ns = ns;
			mult = 0;
		}
	}
	if (ns < pg_tsc.last)
		ns = pg_tsc.last;
	pg_tsc.tsc0 = tsc;
	pg_tsc.ns0 = ns;
	pg_tsc.mult = mult;
	pg_tsc.last = ns;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	/* without a rate yet: anchored again at the next read */
	pg_tsc.next = mult >> 16 ? tsc + ((uint64_t)ANCHOR_NS << 16) /
					 (mult >> 16) : 0;
	return ns;
}
#endif

/* CLOCK_REALTIME between two reads of CLOCK_MONOTONIC: their middle
 * into *MID and distance into *SPAN; the wall time. */
static uint64_t wall_between(uint64_t *mid, uint64_t *span)
{
	uint64_t a = clock_ns(CLOCK_MONOTONIC), w = clock_ns(CLOCK_REALTIME),
		 b = clock_ns(CLOCK_MONOTONIC);

	*mid = a + (b - a) / 2;
	*span = b - a;
	return w;
}

void pg_clock_start(void)
{
	/* (the wall time of the middle of two monotonic reads: off by at
	   most half their distance, not by a whole read as one after the
	   other would be) */
	start_wall = wall_between(&pg_clock_mono0, &start_span);
#if defined(__x86_64__)
	pg_clock_tsc = tsc_invariant();
#endif
}

uint64_t pg_now_slow(void)
{
#if defined(__x86_64__)
	if (pg_clock_tsc)
		return tsc_anchor(__rdtsc()) - pg_clock_mono0;
#endif
	return clock_ns(CLOCK_MONOTONIC) - pg_clock_mono0;
}

uint64_t pg_clock_start_mono(void)
{
	return pg_clock_mono0;
}

uint64_t pg_clock_start_wall(void)
{
	return start_wall;
}

uint64_t pg_clock_start_span(void)
{
	return start_span;
}

uint64_t pg_clock_read_wall(uint64_t *t, uint64_t *span)
{
	uint64_t mid, w = wall_between(&mid, span);

	*t = mid - pg_clock_mono0;
	return w;
}
