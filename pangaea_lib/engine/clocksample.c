/*
 * clocksample.c: this task's clock against the run's reference clock, the
 * coordinator's CLOCK_REALTIME (Cristian's method).  A sample is the best
 * of PG_CLOCK_PINGS ping-pongs (PG_TAG_CLOCK) over Pangaea's own context:
 * the one with the smallest round trip, whose middle is taken as the
 * moment the coordinator read its clock.  On a virtual machine of one
 * host, a task under the coordinator's pvmd shares its clock
 * (pg_me->coord_beside, pvm/init.c): it reads CLOCK_REALTIME itself
 * between two reads of CLOCK_MONOTONIC, a sample whose "round trip" is
 * those reads' distance and its start's (pg_clock_start: the offset is
 * off by at most half their sum), with no message.  Its 10 ping-pongs
 * through the pvmd, each a wake-up of the coordinator, were 20 messages
 * where a short task sends a few dozen.  log.c takes one where the task
 * first waits (PG_CLOCK_FIRST_NS), one at its end (unless the last was
 * taken less than PG_CLOCK_END_GAP_NS before), and one every
 * PANGAEA_CLOCK_PERIOD seconds (default 30, 0: none) at a logged event;
 * logs/analysis/clocksync.c fits them.
 */
#include "engine.h"

#include <stdlib.h>

#define PG_CLOCK_PINGS 10
#define PG_CLOCK_WAIT 2 /* s an answer may take before sampling stops */
/* The analysis keeps one sample per 0.5 s of a host (its smallest round
 * trip: PG_CLOCK_CLUSTER_NS, logs/analysis): an end sample closer than
 * that to the task's last one could at most replace it there, or measure
 * a drift over less than 0.5 s (100 ppm: 50 us, a round trip's order),
 * and its 10 round trips are 0.5-2 ms at the end of every short task. */
#define PG_CLOCK_END_GAP_NS 500000000ull
/* A task's first sample is taken where it first waits anyway (a receive
 * whose message has not come: pg_log_idle), off its way at its start
 * (10 round trips through the pvmd, 0.4-1 ms of every task's join), or
 * at the first event logged this long after its start, or at its end. */
#define PG_CLOCK_FIRST_NS 50000000ull

static int seq;          /* of the last ping */
static int broken;       /* the coordinator did not answer: no more pings */
static uint64_t last_t;  /* t of the last sample */
static uint64_t period_ns;
static int period_read;
/* t of the next sample (UINT64_MAX: none; 0: to compute), the one
   compare of every logged event (pg_clocksample_due, engine.h) */
uint64_t pg_clocksample_due_t;

/* One ping-pong; 0 with the round trip's ends T0, T1 (pg_now) and the
 * reference time REF, or -1. */
static int ping(uint64_t *t0, uint64_t *t1, uint64_t *ref)
{
	int v[3] = { ++seq, 0, 0 };

	*t0 = pg_now();
	if (pg_bind->send_ints(pg_me->coord_tid, PG_TAG_CLOCK, v) < 0)
		return -1;
	do {
		if (pg_bind->recv_ints(pg_me->coord_tid, PG_TAG_CLOCK,
				       PG_CLOCK_WAIT, v) <= 0)
			return -1;
	} while (v[0] != seq); /* an answer to an older ping */
	*t1 = pg_now();
	*ref = (uint64_t)(uint32_t)v[1] << 32 | (uint32_t)v[2];
	return 0;
}

/* A sample of the reference clock read here (on the coordinator's
 * host) into *S. */
static void read_here(struct pg_clock_sample *s)
{
	uint64_t span, ref = pg_clock_read_wall(&s->t, &span);

	s->rtt = span + pg_clock_start_span();
	s->offset = (int64_t)(ref - (pg_clock_start_wall() + s->t));
}

int pg_clocksample_take(struct pg_clock_sample *s)
{
	uint64_t t0, t1, ref;
	int got = 0;

	if (broken || pg_me->coord_tid <= 0 || pg_me->mytid <= 0)
		return 0; /* not in a run's virtual machine */
	if (pg_me->coord_beside) {
		read_here(s);
		last_t = s->t;
		pg_clocksample_due_t = 0;
		return 1;
	}
	for (int k = 0; k < PG_CLOCK_PINGS; k++) {
		if (ping(&t0, &t1, &ref) < 0) {
			broken = 1;
			break;
		}
		if (!got || t1 - t0 < s->rtt) {
			s->rtt = t1 - t0;
			s->t = t0 + (t1 - t0) / 2;
			s->offset = (int64_t)(ref - (pg_clock_start_wall() + s->t));
			got = 1;
		}
	}
	if (got)
		last_t = s->t;
	pg_clocksample_due_t = 0;
	return got;
}

/* The period of the samples in ns (0: none), read once. */
static uint64_t period(void)
{
	const char *e;

	if (!period_read) {
		e = getenv(PG_ENV_CLOCK_PERIOD);
		period_ns = (uint64_t)((e && *e ? atof(e) : 30.0) * 1e9);
		period_read = 1;
	}
	return period_ns;
}

int pg_clocksample_due_at(uint64_t t)
{
	if (pg_clocksample_due_t == 0) /* (none without a coordinator: an
					  MPI rank's) */
		pg_clocksample_due_t =
			broken || pg_me->coord_tid <= 0 ? UINT64_MAX :
			last_t == 0 ? PG_CLOCK_FIRST_NS :
			period() == 0 ? UINT64_MAX : last_t + period();
	return t >= pg_clocksample_due_t;
}

int pg_clocksample_first_due(void)
{
	return !broken && last_t == 0 && pg_me->coord_tid > 0;
}

int pg_clocksample_end_due(uint64_t t)
{
	return !broken && (last_t == 0 || t - last_t >= PG_CLOCK_END_GAP_NS);
}
