/*
 * benchlib.c: clocks, result lines and error exits of the benchmarks.
 */
#include "bench.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else /* no valgrind: no counts (bench/instr.sh says so) */
#define CALLGRIND_ZERO_STATS ((void)0)
#define CALLGRIND_DUMP_STATS_AT(s) ((void)(s))
#endif

#define BODY_MAX 256

/* Nanoseconds of clock ID, read with a system call: the benchmark's own
 * timing is not a clock read of the program that Pangaea records (it
 * would under pangaea.h's macros and libpangaea.so's entry points, and
 * a replay would time itself with the recording's times). */
static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void bench_clock_now(struct bench_clock *c)
{
	c->wall_ns = clock_ns(CLOCK_MONOTONIC);
	c->cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

void bench_count_start(void)
{
	CALLGRIND_ZERO_STATS;
}

void bench_count_stop(const char *row)
{
	CALLGRIND_DUMP_STATS_AT(row);
}

void bench_result(const char *bench, const char *row, long n,
		  const struct bench_clock *t0, const struct bench_clock *t1,
		  const char *extra)
{
	printf("RESULT bench=%s row=%s n=%ld wall_ns=%llu cpu_ns=%llu%s%s\n",
	       bench, row, n,
	       (unsigned long long)(t1->wall_ns - t0->wall_ns),
	       (unsigned long long)(t1->cpu_ns - t0->cpu_ns),
	       extra ? " " : "", extra ? extra : "");
	fflush(stdout);
}

void bench_die(const char *prog, const char *what, int rc)
{
	fprintf(stderr, "%s: %s failed (PVM error %d)\n", prog, what, rc);
	pvm_exit();
	exit(1);
}

int bench_ok(const char *prog, int rc, const char *what)
{
	if (rc < 0)
		bench_die(prog, what, rc);
	return rc;
}

void bench_self(const char *prog, const char *argv0, char *buf, size_t n)
{
	char path[PATH_MAX];

	if (realpath(argv0, path) == NULL ||
	    (size_t)snprintf(buf, n, "%s", path) >= n) {
		fprintf(stderr, "%s: cannot resolve the path of %s\n", prog,
			argv0);
		pvm_exit();
		exit(1);
	}
}

void bench_pack_body(const char *prog, int count)
{
	int body[BODY_MAX] = { 0 };

	if (count > BODY_MAX)
		count = BODY_MAX;
	for (int i = 0; i < count; i++)
		body[i] = i;
	bench_ok(prog, pvm_pkint(body, count, 1), "pvm_pkint");
}

void bench_unpack_body(const char *prog, int count)
{
	int body[BODY_MAX];

	if (count > BODY_MAX)
		count = BODY_MAX;
	bench_ok(prog, pvm_upkint(body, count, 1), "pvm_upkint");
}
