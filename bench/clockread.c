/*
 * clockread.c: what a clock read of the program costs (pangaea_lib/clock):
 * N calls of clock_gettime(CLOCK_MONOTONIC), of gettimeofday and of time
 * in a row each, one RESULT row each.  Plain, each is libc's; under -log
 * each is recorded; under -replay each is returned from the log.  Built
 * twice: with pangaea.h (the source path) and as an unmodified program
 * (clockread-preload, BENCH_PLAIN: libpangaea.so's entry points).
 *
 *   clockread [-n N]     (N reads a row, default 200000)
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#ifdef BENCH_PLAIN
#define PROG "clockread-preload"
#else
#define PROG "clockread"
#endif

int main(int argc, char **argv)
{
	struct bench_clock t0, t1;
	long n = 200000;
	long long sum = 0;
	char extra[64];

	if (argc == 3 && strcmp(argv[1], "-n") == 0)
		n = atol(argv[2]);
	if (n < 1) {
		fprintf(stderr, PROG ": usage: " PROG " [-n N]\n");
		return 1;
	}
	pangaea_init(&argc, &argv);
	bench_ok(PROG, pvm_mytid(), "pvm_mytid");

	bench_clock_now(&t0);
	for (long i = 0; i < n; i++) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		sum += ts.tv_nsec;
	}
	bench_clock_now(&t1);
	bench_result(PROG, "clock_gettime", n, &t0, &t1, NULL);

	bench_clock_now(&t0);
	for (long i = 0; i < n; i++) {
		struct timeval tv;

		gettimeofday(&tv, NULL);
		sum += tv.tv_usec;
	}
	bench_clock_now(&t1);
	bench_result(PROG, "gettimeofday", n, &t0, &t1, NULL);

	bench_clock_now(&t0);
	for (long i = 0; i < n; i++)
		sum += time(NULL);
	bench_clock_now(&t1);
	/* (the sum keeps the reads; it differs from run to run: masked) */
	snprintf(extra, sizeof(extra), "sum_ns=%lld", sum & 0xffff);
	bench_result(PROG, "time", n, &t0, &t1, extra);

	pangaea_exit();
	pvm_exit();
	return 0;
}
