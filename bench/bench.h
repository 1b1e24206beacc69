/*
 * bench.h: what the benchmark programs of bench/ share.
 *
 * Each program is an ordinary PVM program built against libpangaea, so the
 * same binary runs as plain PVM (started from a shell) or under the
 * `pangaea` launcher (-log, -replay).  The task that measures prints one
 * line per measured row:
 *
 *   RESULT bench=NAME row=ROW n=CALLS wall_ns=NS cpu_ns=NS [key=value...]
 *
 * which bench/run.sh collects and bench/report.c summarises.
 */
#ifndef BENCH_H
#define BENCH_H

#ifdef BENCH_PLAIN
/* An unmodified PVM program (bench/pingpong-preload): plain <pvm3.h>, no
 * Pangaea call; under the launcher it records through libpangaea.so
 * (LD_PRELOAD), the preload path. */
#include <stdio.h>
#include <pvm3.h>
#define pangaea_init(argc, argv) ((void)0)
#define pangaea_exit() ((void)0)
#else
#include <pangaea.h>
#endif

#include <stddef.h>
#include <stdint.h>

/* A point in time: wall (monotonic) and this process's CPU (user+sys). */
struct bench_clock {
	uint64_t wall_ns;
	uint64_t cpu_ns;
};

/* Reads both clocks into C. */
void bench_clock_now(struct bench_clock *c);

/* Instruction counts (bench/run.sh's "instructions per call" rows): when
 * the program runs under valgrind --tool=callgrind, bench_count_start
 * zeroes callgrind's counts and bench_count_stop dumps them under the name
 * ROW (one dump per measured loop); outside valgrind both cost a few
 * instructions and do nothing. */
void bench_count_start(void);
void bench_count_stop(const char *row);

/* Prints a RESULT line for N calls measured between T0 and T1; EXTRA
 * (may be NULL) is appended as is ("key=value ..."). */
void bench_result(const char *bench, const char *row, long n,
		  const struct bench_clock *t0, const struct bench_clock *t1,
		  const char *extra);

/* Prints "PROG: WHAT failed (PVM error RC)", leaves PVM and exits 1. */
void bench_die(const char *prog, const char *what, int rc)
	__attribute__((noreturn));

/* Returns RC, or dies naming WHAT if RC is a PVM error (< 0). */
int bench_ok(const char *prog, int rc, const char *what);

/* Absolute path of this program (from ARGV0) into BUF; dies on failure. */
void bench_self(const char *prog, const char *argv0, char *buf, size_t n);

/* Packs COUNT ints of filler (a 4*COUNT-byte message body); dies on error. */
void bench_pack_body(const char *prog, int count);

/* Unpacks COUNT ints from the active receive buffer; dies on error. */
void bench_unpack_body(const char *prog, int count);

#endif /* BENCH_H */
