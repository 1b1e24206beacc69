/**
 * @file pangaea.h
 * @brief Pangaea: record and replay for PVM3 programs.
 *
 * Include this header instead of <pvm3.h> and link with libpangaea
 * (`cc app.c $(pkg-config --cflags --libs pangaea)`).  The PVM calls keep
 * their names: the macros below route the ones Pangaea must see through
 * its wrappers.  Call pangaea_init() before any other PVM call and
 * pangaea_exit() just before pvm_exit().
 *
 * Started without the `pangaea` launcher, a program built this way runs as
 * plain PVM: pangaea_init() notices that no run is active and every
 * wrapper calls straight through to PVM.
 */
#ifndef PANGAEA_H
#define PANGAEA_H

#ifdef __cplusplus
extern "C" {
#endif

/** Version of the library, as "MAJOR.MINOR.PATCH". */
#define PANGAEA_VERSION "0.3.0"

/** What a task does with its events (see pangaea_mode()). */
enum pangaea_mode {
	PANGAEA_MODE_OFF = 0,    /**< plain PVM: not started by the launcher */
	PANGAEA_MODE_RECORD = 1, /**< events are written to the logs */
	PANGAEA_MODE_REPLAY = 2  /**< events follow the recorded logs */
};

/**
 * Joins the Pangaea run this task belongs to, if any.
 * Must precede every other PVM call of the task.  @p argc and @p argv are
 * left as the task was given them.  Returns 0 on success (also in plain
 * mode), or a negative PVM error code with a message on stderr.
 */
int pangaea_init(int *argc, char ***argv);

/**
 * Leaves the run: closes the logs and tells the launcher this task ended
 * normally.  Call it just before pvm_exit().  Returns 0, or a negative
 * code if the launcher could not be told or a write of the task's logs
 * failed (PvmSysErr; the launcher was told and ends the run).
 */
int pangaea_exit(void);

/** The task's logical task id (0 is the launcher), or -1 in plain mode. */
int pangaea_ltid(void);

/** The mode this task runs in (enum pangaea_mode). */
int pangaea_mode(void);

/** What pangaea_suspend() and pangaea_resume() act on (a bit mask). */
#define PANGAEA_RECORD 1 /**< writing events to the log */
#define PANGAEA_REPLAY 2 /**< making events follow the log */

/**
 * Selective logging: stops recording (PANGAEA_RECORD) and/or replay
 * control (PANGAEA_REPLAY) of this task's sends and receives until
 * pangaea_resume() with the same bits.  Messages keep their Pangaea ids;
 * spawns and group calls are always logged.  A program must suspend the
 * same stretches in the recorded run and in its replays.  Returns the mask
 * suspended before the call, or 0 in plain mode.
 */
int pangaea_suspend(int what);

/** Ends what pangaea_suspend() started for the bits in @p what; returns
 *  the mask suspended before the call. */
int pangaea_resume(int what);

#ifdef __cplusplus
}
#endif

#endif /* PANGAEA_H */

/* The clock part: the wrappers of the clock reads and seeds whose
 * results Pangaea records and replays (pangaea_lib/clock; the table
 * pangaea-clock-calls.def), each with the contract of the libc call it
 * stands for.  A program's calls go to them (the macros below) unless it
 * defines PANGAEA_NO_WRAP or is C++ (libpangaea.so's preload path
 * catches those: README, "Clock reads and seeds"). */
#ifndef PANGAEA_CLOCK_PART
#define PANGAEA_CLOCK_PART

#include <stdlib.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* (declared here too: a strict -std= leaves some out of the headers) */
struct timeval;
struct timespec;
struct tms;
struct rusage;

int pangaea_gettimeofday(struct timeval *__restrict tv, void *__restrict tz);
int pangaea_clock_gettime(clockid_t id, struct timespec *ts);
time_t pangaea_time(time_t *t);
clock_t pangaea_clock(void);
clock_t pangaea_times(struct tms *buf);
int pangaea_getrusage(int who, struct rusage *u);
void pangaea_srand(unsigned int seed);
void pangaea_srandom(unsigned int seed);
void pangaea_srand48(long seed);
unsigned short *pangaea_seed48(unsigned short seed[3]);
char *pangaea_initstate(unsigned int seed, char *state, size_t n);
ssize_t pangaea_getrandom(void *buf, size_t n, unsigned int flags);
int pangaea_getentropy(void *buf, size_t n);

#ifdef __cplusplus
}
#endif

#if !defined(PANGAEA_NO_PVM) && !defined(PANGAEA_NO_WRAP) && \
	!defined(__cplusplus)
#define gettimeofday(tv, tz) pangaea_gettimeofday(tv, tz)
#define clock_gettime(id, ts) pangaea_clock_gettime(id, ts)
#define time(t) pangaea_time(t)
#define clock() pangaea_clock()
#define times(buf) pangaea_times(buf)
#define getrusage(who, u) pangaea_getrusage(who, u)
#define srand(seed) pangaea_srand(seed)
#define srandom(seed) pangaea_srandom(seed)
#define srand48(seed) pangaea_srand48(seed)
#define seed48(seed) pangaea_seed48(seed)
#define initstate(seed, state, n) pangaea_initstate(seed, state, n)
#define getrandom(buf, n, flags) pangaea_getrandom(buf, n, flags)
#define getentropy(buf, n) pangaea_getentropy(buf, n)
#endif

#endif /* PANGAEA_CLOCK_PART */

/* The PVM part: the wrappers of the PVM calls.  (Pangaea's engine, which
 * is built without any message-passing layer's headers, leaves it out by
 * defining PANGAEA_NO_PVM; a program never does.) */
#if !defined(PANGAEA_NO_PVM) && !defined(PANGAEA_PVM_PART)
#define PANGAEA_PVM_PART

#include <stdio.h> /* before pvm3.h, which declares pvm_catchout(FILE *) only then */
#include <pvm3.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The wrappers: pangaea_pvm_send and the like, one for each call of
 * pangaea-pvm-calls.def (installed next to this header), with the contract
 * of the PVM call it stands for and what the table says it does more. */
#define PANGAEA_CALL(type, name, params, args, route) type pangaea_##name params;
#include "pangaea-pvm-calls.def"

/* A program's calls go to the wrappers: one line for each call of the
 * table (tests/check_calls.c checks that none is missing). */
#ifndef PANGAEA_NO_WRAP
#define pvm_spawn pangaea_pvm_spawn
#define pvm_send pangaea_pvm_send
#define pvm_recv pangaea_pvm_recv
#define pvm_nrecv pangaea_pvm_nrecv
#define pvm_trecv pangaea_pvm_trecv
#define pvm_probe pangaea_pvm_probe
#define pvm_parent pangaea_pvm_parent
#define pvm_notify pangaea_pvm_notify
#define pvm_kill pangaea_pvm_kill
#define pvm_mcast pangaea_pvm_mcast
#define pvm_psend pangaea_pvm_psend
#define pvm_precv pangaea_pvm_precv
#define pvm_joingroup pangaea_pvm_joingroup
#define pvm_lvgroup pangaea_pvm_lvgroup
#define pvm_gettid pangaea_pvm_gettid
#define pvm_getinst pangaea_pvm_getinst
#define pvm_gsize pangaea_pvm_gsize
#define pvm_barrier pangaea_pvm_barrier
#define pvm_bcast pangaea_pvm_bcast
#define pvm_reduce pangaea_pvm_reduce
#define pvm_gather pangaea_pvm_gather
#define pvm_scatter pangaea_pvm_scatter
#define pvm_setopt pangaea_pvm_setopt
#define pvm_pstat pangaea_pvm_pstat
#define pvm_mstat pangaea_pvm_mstat
#define pvm_tasks pangaea_pvm_tasks
#define pvm_config pangaea_pvm_config
#define pvm_putinfo pangaea_pvm_putinfo
#define pvm_recvinfo pangaea_pvm_recvinfo
#define pvm_getmboxinfo pangaea_pvm_getmboxinfo
#define pvm_delinfo pangaea_pvm_delinfo
#define pvm_exit pangaea_pvm_exit
#endif

#ifdef __cplusplus
}
#endif

#endif /* PANGAEA_PVM_PART */
