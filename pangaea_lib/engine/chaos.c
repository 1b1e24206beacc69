/*
 * chaos.c: chaos recording (-chaos), a recording made to surface rare
 * message orders (rr's chaos mode, NINJA's noise; docs/INTERNALS.md,
 * "Chaos recording").  From the run's seed every task gets a priority
 * (the same for that ltid in every run with that seed; see below), and:
 *
 * - before each send, a task sleeps a random time that grows as its
 *   priority falls (the top task hardly waits, the last up to
 *   PG_CHAOS_SEND_MAX_US);
 * - a blocking wildcard receive (pvm_recv, pvm_precv, a pvm_trecv that
 *   may wait, with source -1) holds back, within its timeout if any: once a message matches, it waits a random quiet gap (up
 *   to PG_CHAOS_QUIET_MAX_US with no new sender, PG_CHAOS_WINDOW_MAX_US
 *   at most) for other senders' messages, then takes the first message
 *   of the sender of highest priority among those that have arrived.
 *
 * The priorities: for half the seeds (pg_chaos_reversed) the tasks rank
 * by reverse age, the last spawned (highest ltid) first, with no send
 * delays: the order a plain run makes least often, since the youngest
 * task starts last and so tends to lose its races; for the other half
 * they are random (a hash of seed and ltid), with the send delays.
 *
 * Only messages already in the task's queue are chosen from, and always a
 * sender's first matching one, so PVM's order per sender is kept: every
 * order chaos makes is one PVM could deliver.  Replay never uses it (the
 * order comes from the log).  The decisions draw from the run's seed and
 * the task's ltid only, so PANGAEA_SEED=S repeats them wherever the set
 * of arrived messages is the same.
 */
#include "engine.h"

#include <time.h>
#include <unistd.h>

#define CHAOS_MAX_SENDERS 256 /* distinct senders one hold-back weighs */

int pg_chaos_state;   /* 1: this task records with chaos */
static unsigned seed; /* the run's */
static unsigned rng;  /* this task's decisions */
/* The distinct senders (addresses) the last scan found, in queue order. */
static int senders[CHAOS_MAX_SENDERS];

void pg_chaos_open(int enabled, unsigned run_seed, int ltid)
{
	pg_chaos_state = enabled;
	seed = run_seed;
	rng = (run_seed ^ 0x9e3779b9u) ^ ((unsigned)ltid * 2246822519u);
}

/* H mixed (a finaliser, murmur3's): nearby inputs, unrelated outputs. */
static unsigned mix(unsigned h)
{
	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	h ^= h >> 16;
	return h;
}

int pg_chaos_reversed(unsigned run_seed)
{
	return (int)(mix(run_seed ^ 0x5bd1e995u) & 1);
}

unsigned pg_chaos_priority(unsigned run_seed, int ltid)
{
	if (pg_chaos_reversed(run_seed))
		return (unsigned)ltid; /* the last spawned first */
	return mix(run_seed ^ ((unsigned)ltid * 0x85ebca6bu)) & 0xffff;
}

int pg_chaos_pick(unsigned run_seed, const int *ltids, int n)
{
	int best = -1;
	unsigned bp = 0;

	for (int i = 0; i < n; i++) {
		unsigned p = pg_chaos_priority(run_seed, ltids[i]);

		if (best < 0 || p > bp)
			best = i, bp = p;
	}
	return best;
}

unsigned pg_chaos_draw(unsigned max)
{
	return pg_draw(&rng, max);
}

unsigned pg_chaos_send_max(unsigned run_seed, int ltid)
{
	unsigned p = pg_chaos_priority(run_seed, ltid);

	if (pg_chaos_reversed(run_seed))
		return 0;
	return (unsigned)(((unsigned long)PG_CHAOS_SEND_MAX_US *
			   (0xffffu - p)) >> 16);
}

void pg_chaos_send_wait(void)
{
	unsigned us;

	if (pg_chaos_state &&
	    (us = pg_chaos_draw(pg_chaos_send_max(seed, pg_me->ltid))))
		usleep(us);
}

/* Looks at the messages that have arrived for those with TAG (the
 * binding's senders()): the number of distinct senders (in senders[]),
 * or < 0: the binding's error, or PG_SENDERS_OWN when the program
 * matches messages itself, which chaos leaves alone. */
static int scan(int tag)
{
	return pg_bind->senders(tag, senders, CHAOS_MAX_SENDERS);
}

/* Microseconds on the monotonic clock. */
static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Waits until a message with TAG is there, then for more senders for a
 * random quiet gap, neither beyond END (µs, now_us's clock; 0: none);
 * the number of senders in senders[] (0: none came by END), or as scan(). */
static int hold_back(int tag, uint64_t end)
{
	unsigned nap = 50, quiet = pg_chaos_draw(PG_CHAOS_QUIET_MAX_US);
	uint64_t start, last;
	int n;

	while ((n = scan(tag)) == 0) {
		if (end && now_us() >= end)
			return 0;
		usleep(nap);
		nap = nap < 1000 ? nap * 2 : 1000;
	}
	if (n < 0)
		return n;
	start = last = now_us();
	while (now_us() - last < quiet &&
	       now_us() - start < PG_CHAOS_WINDOW_MAX_US &&
	       (!end || now_us() < end)) {
		int k;

		usleep(100);
		if ((k = scan(tag)) < 0)
			return k;
		if (k > n)
			n = k, last = now_us();
	}
	return n;
}

/* Whether a wildcard receive of KIND with TMOUT is held back: pvm_recv,
 * pvm_precv, and a pvm_trecv that may wait (no timeout, or one > 0). */
static int held_back(int kind, const struct timeval *tmout)
{
	if (kind == PG_REC_TRECV)
		return !tmout || tmout->tv_sec > 0 || tmout->tv_usec > 0;
	return kind == PG_REC_RECV || kind == PG_REC_PRECV;
}

/* pg_chaos_recv's held-back receive (chaos on, from any sender, a
 * receive it holds back): apart, so that a receive it lets through sets
 * up none of its arrays. */
static int chaos_recv_held(int kind, int tid, int tag, struct timeval *tmout)
{
	int tids[CHAOS_MAX_SENDERS], ltids[CHAOS_MAX_SENDERS], n, best;
	struct timeval zero = { 0, 0 };
	uint64_t end = 0;

	if (kind == PG_REC_TRECV && tmout)
		end = now_us() + (uint64_t)tmout->tv_sec * 1000000u +
		      (uint64_t)tmout->tv_usec;
	if ((n = hold_back(tag, end)) < 0)
		return n == PG_SENDERS_OWN ?
			pg_bind->recv(kind, tid, tag, tmout) : n;
	if (n == 0) /* the time is up: PVM's last look */
		return pg_bind->recv(kind, tid, tag, &zero);
	/* the senders' ltids, asked after the scans (ltid_of may wait for
	   the coordinator's answer, a receive of its own) */
	for (int i = 0; i < n; i++) {
		tids[i] = senders[i];
		ltids[i] = pg_bind->ltid_of(tids[i]);
		if (ltids[i] < 0) /* not a task of the run: by its tid */
			ltids[i] = tids[i];
	}
	best = pg_chaos_pick(seed, ltids, n);
	return pg_bind->recv(kind, tids[best], tag, tmout);
}

int pg_chaos_recv(int kind, int tid, int tag, struct timeval *tmout)
{
	if (!pg_chaos_state || tid != -1 || !held_back(kind, tmout))
		return pg_bind->recv(kind, tid, tag, tmout);
	return chaos_recv_held(kind, tid, tag, tmout);
}
