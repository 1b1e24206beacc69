/*
 * clockwrap.c: the wrappers of the program's clock reads and seeds, one
 * a call, each with the contract of the libc call it stands for: in
 * record the real call, its value logged; in replay the recorded value
 * (a seed: the real call with the recorded seed; getrandom: the recorded
 * bytes), logged again in the replay's own log; otherwise the real call.
 * A program built with pangaea.h calls them by its calls' names (the
 * macros of pangaea.h); libpangaea.so's entry points (clockpre.c) call
 * them for an unmodified program.  In libpangaea.so the calls of the
 * real functions below are renamed to them (clockreal.h).
 */
#include "pangaea-clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

/* A value of KIND from SRC, all else 0. */
#define VALUE(kind_, src_) { .kind = (kind_), .src = (src_) }
#define NS 1000000000LL

/* TS in ns. */
static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * NS + ts->tv_nsec;
}

/* NS into *TS. */
static void ns_ts(int64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / NS);
	ts->tv_nsec = (long)(ns % NS);
	if (ts->tv_nsec < 0) {
		ts->tv_nsec += NS;
		ts->tv_sec--;
	}
}

/* The value V after the read, in record and in replay (logged again). */
static void clk_done(enum pg_clk_how how, const struct pg_value *v)
{
	if (how != PG_CLK_REAL)
		pg_clk_record(v);
	pg_clk_leave(how);
}

int pangaea_gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct pg_value v = VALUE(PG_REC_TIME, PG_TIME_GETTIMEOFDAY);
	enum pg_clk_how how = tv ? pg_clk_enter() : PG_CLK_REAL;
	struct timeval scratch;
	int rc = 0;

	if (how == PG_CLK_REPLAY && pg_clk_replay(&v) == 0) {
		if (tz)
			gettimeofday(&scratch, tz);
		tv->tv_sec = (time_t)(v.v[0] / 1000000);
		tv->tv_usec = (suseconds_t)(v.v[0] % 1000000);
	} else {
		rc = gettimeofday(tv, tz);
		if (tv)
			v.v[0] = (int64_t)tv->tv_sec * 1000000 + tv->tv_usec;
	}
	clk_done(how, &v);
	return rc;
}

int pangaea_clock_gettime(clockid_t id, struct timespec *ts)
{
	struct pg_value v = VALUE(PG_REC_TIME, id == CLOCK_REALTIME
			? PG_TIME_REALTIME : id == CLOCK_MONOTONIC
			? PG_TIME_MONOTONIC : PG_TIME_CLOCKID);
	enum pg_clk_how how = pg_clk_enter();
	int rc = 0;

	v.arg = v.src == PG_TIME_CLOCKID ? (int)id : 0;
	if (how == PG_CLK_REPLAY && pg_clk_replay(&v) == 0) {
		if (v.status) {
			errno = v.status;
			rc = -1;
		} else {
			ns_ts(v.v[0], ts);
		}
	} else {
		rc = clock_gettime(id, ts);
		if (rc < 0)
			v.status = errno ? errno : EINVAL;
		else
			v.v[0] = ts_ns(ts);
		if (rc < 0 && v.src != PG_TIME_CLOCKID)
			how = (pg_clk_leave(how), PG_CLK_REAL);
	}
	clk_done(how, &v);
	return rc;
}

/* A read of SRC with one value, which the real call REAL gives (record,
 * real) or the log (replay). */
static int64_t read_one(int src, int64_t (*real)(void))
{
	struct pg_value v = VALUE(PG_REC_TIME, src);
	enum pg_clk_how how = pg_clk_enter();

	if (how != PG_CLK_REPLAY || pg_clk_replay(&v) < 0)
		v.v[0] = real();
	clk_done(how, &v);
	return v.v[0];
}

/* time(NULL), for read_one. */
static int64_t real_time(void)
{
	return time(NULL);
}

/* clock(), for read_one. */
static int64_t real_clock(void)
{
	return clock();
}

time_t pangaea_time(time_t *t)
{
	time_t now = (time_t)read_one(PG_TIME_TIME, real_time);

	if (t)
		*t = now;
	return now;
}

clock_t pangaea_clock(void)
{
	return (clock_t)read_one(PG_TIME_CLOCK, real_clock);
}

clock_t pangaea_times(struct tms *buf)
{
	struct pg_value v = VALUE(PG_REC_TIME, PG_TIME_TIMES);
	enum pg_clk_how how = pg_clk_enter();
	clock_t c;

	if (how == PG_CLK_REPLAY && pg_clk_replay(&v) == 0) {
		c = (clock_t)v.v[0];
		buf->tms_utime = (clock_t)v.v[1];
		buf->tms_stime = (clock_t)v.v[2];
		buf->tms_cutime = (clock_t)v.v[3];
		buf->tms_cstime = (clock_t)v.v[4];
	} else {
		c = times(buf);
		v.v[0] = c;
		v.v[1] = buf->tms_utime;
		v.v[2] = buf->tms_stime;
		v.v[3] = buf->tms_cutime;
		v.v[4] = buf->tms_cstime;
	}
	clk_done(how, &v);
	return c;
}

/* The 16 values of U (PG_TIME_RUSAGE's order) into V, or back (TO_RU). */
static void rusage_values(struct rusage *u, int64_t *v, int to_ru)
{
	long *l[] = { &u->ru_maxrss, &u->ru_ixrss, &u->ru_idrss,
		      &u->ru_isrss, &u->ru_minflt, &u->ru_majflt,
		      &u->ru_nswap, &u->ru_inblock, &u->ru_oublock,
		      &u->ru_msgsnd, &u->ru_msgrcv, &u->ru_nsignals,
		      &u->ru_nvcsw, &u->ru_nivcsw };

	if (to_ru) {
		memset(u, 0, sizeof(*u));
		u->ru_utime.tv_sec = (time_t)(v[0] / 1000000);
		u->ru_utime.tv_usec = (suseconds_t)(v[0] % 1000000);
		u->ru_stime.tv_sec = (time_t)(v[1] / 1000000);
		u->ru_stime.tv_usec = (suseconds_t)(v[1] % 1000000);
		for (int i = 0; i < 14; i++)
			*l[i] = (long)v[2 + i];
		return;
	}
	v[0] = (int64_t)u->ru_utime.tv_sec * 1000000 + u->ru_utime.tv_usec;
	v[1] = (int64_t)u->ru_stime.tv_sec * 1000000 + u->ru_stime.tv_usec;
	for (int i = 0; i < 14; i++)
		v[2 + i] = *l[i];
}

int pangaea_getrusage(int who, struct rusage *u)
{
	struct pg_value v = VALUE(PG_REC_TIME, PG_TIME_RUSAGE);
	enum pg_clk_how how = pg_clk_enter();
	int rc = 0;

	v.arg = who;
	if (how == PG_CLK_REPLAY && pg_clk_replay(&v) == 0) {
		if (v.status) {
			errno = v.status;
			rc = -1;
		} else {
			rusage_values(u, v.v, 1);
		}
	} else {
		rc = getrusage(who, u);
		if (rc < 0)
			v.status = errno ? errno : EINVAL;
		else
			rusage_values(u, v.v, 0);
	}
	clk_done(how, &v);
	return rc;
}

/* A seed of SRC: the program's SEED in record, the recorded one in
 * replay; the seed to give the real call. */
static int64_t seed_of(int src, int64_t seed)
{
	struct pg_value v = VALUE(PG_REC_SEED, src);
	enum pg_clk_how how = pg_clk_enter();

	if (how != PG_CLK_REPLAY || pg_clk_replay(&v) < 0)
		v.v[0] = seed;
	clk_done(how, &v);
	return v.v[0];
}

void pangaea_srand(unsigned int seed)
{
	srand((unsigned int)seed_of(PG_SEED_SRAND, seed));
}

void pangaea_srandom(unsigned int seed)
{
	srandom((unsigned int)seed_of(PG_SEED_SRANDOM, seed));
}

void pangaea_srand48(long seed)
{
	srand48((long)seed_of(PG_SEED_SRAND48, seed));
}

char *pangaea_initstate(unsigned int seed, char *state, size_t n)
{
	return initstate((unsigned int)seed_of(PG_SEED_INITSTATE, seed),
			 state, n);
}

unsigned short *pangaea_seed48(unsigned short seed[3])
{
	struct pg_value v = VALUE(PG_REC_SEED, PG_SEED_SEED48);
	enum pg_clk_how how = pg_clk_enter();
	unsigned short s[3];

	if (how != PG_CLK_REPLAY || pg_clk_replay(&v) < 0)
		for (int i = 0; i < 3; i++)
			v.v[i] = seed[i];
	clk_done(how, &v);
	for (int i = 0; i < 3; i++)
		s[i] = (unsigned short)v.v[i];
	return seed48(s);
}

/* The bytes of a getrandom/getentropy (SRC) into BUF (N), with the real
 * call REAL in record; the real call's return (bytes, or -1 with errno). */
static ssize_t random_bytes(int src, void *buf, size_t n,
			    ssize_t (*real)(void *, size_t, unsigned),
			    unsigned flags)
{
	struct pg_value v = VALUE(PG_REC_SEED, src);
	enum pg_clk_how how = pg_clk_enter();
	ssize_t rc;

	if (how == PG_CLK_REPLAY && pg_clk_replay(&v) == 0) {
		if (v.status || v.nblob > n) {
			errno = v.status ? v.status : EINVAL;
			rc = -1;
		} else {
			memcpy(buf, v.blob, v.nblob);
			rc = (ssize_t)v.nblob;
		}
	} else {
		rc = real(buf, n, flags);
		if (rc < 0) {
			v.status = errno ? errno : EIO;
		} else {
			v.nblob = (uint32_t)rc;
			v.blob = buf;
		}
	}
	clk_done(how, &v);
	return rc;
}

/* getrandom, for random_bytes. */
static ssize_t real_getrandom(void *buf, size_t n, unsigned flags)
{
	return getrandom(buf, n, flags);
}

/* getentropy, for random_bytes: N bytes or -1. */
static ssize_t real_getentropy(void *buf, size_t n, unsigned flags)
{
	(void)flags;
	return getentropy(buf, n) < 0 ? -1 : (ssize_t)n;
}

ssize_t pangaea_getrandom(void *buf, size_t n, unsigned int flags)
{
	return random_bytes(PG_SEED_GETRANDOM, buf, n, real_getrandom, flags);
}

int pangaea_getentropy(void *buf, size_t n)
{
	return random_bytes(PG_SEED_GETENTROPY, buf, n, real_getentropy, 0) < 0
		       ? -1 : 0;
}
