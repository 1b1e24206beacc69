/*
 * pangaea-clock.h: what a task reads from the clock and seeds its random
 * numbers with, recorded and replayed (pangaea_lib/clock, binding-neutral:
 * no message-passing layer's header).  A binding's program reaches it
 * two ways: built with pangaea.h, its calls are renamed to the wrappers
 * pangaea_gettimeofday and the like (clockwrap.c); unmodified, with
 * libpangaea.so preloaded, the entry points gettimeofday and the like
 * (clockpre.c) route the program's own calls to the same wrappers.
 *
 * Its layers, top to bottom (a file calls only rows below its own, and
 * the engine's; docs/INTERNALS.md, "Layers"):
 *
 *   (clockpre.c clockreal.c)  libpangaea.so only: the entry points; the
 *                             real libc functions
 *   clockwrap.c               the wrappers, one a call
 *   clockrec.c                the decision (real, record, replay), the
 *                             log, the replay's cursor, the divergence
 *
 * Only the program's own reads are its: a read made while Pangaea or the
 * layer below it works (pg_clk_depth > 0: inside a wrapper of a binding,
 * inside these wrappers) or from a library the binding names
 * (pg_clk_exclude_lib: libpvm3's own pvm_trecv timeouts) gets the real
 * clock, and so do Pangaea's own reads (its timestamps, clock samples:
 * in libpangaea.so they are renamed to the real functions, clockreal.h).
 */
#ifndef PANGAEA_CLOCK_H
#define PANGAEA_CLOCK_H

#include "engine.h"

#include <stdint.h>

/* Per thread: how deep this thread is inside Pangaea (a binding's
 * wrapper of a call of its layer, these wrappers): its reads are not the
 * program's.  Initial-exec: read without a call. */
extern __thread int pg_clk_depth __attribute__((tls_model("initial-exec")));

/* What a wrapper does with a read (pg_clk_enter). */
enum pg_clk_how {
	PG_CLK_REAL = 0,   /* the real call, nothing logged */
	PG_CLK_RECORD = 1, /* the real call, its value logged */
	PG_CLK_REPLAY = 2  /* the recorded value (pg_clk_replay) */
};

/* clockrec.c */
/* A binding's hook that joins the run now if this process is a task of
 * one that has not joined yet (a read before its first call of the
 * layer); called once, at the first read.  NULL: none. */
extern void (*pg_clk_join_hook)(void);
/* The calling thread is the one that joined the run (the binding calls
 * it as a task joins): the reads of the task's other threads read the
 * real clock, unrecorded (their order among the threads' is not the
 * program's to repeat, and the log has one writer). */
void pg_clk_task_thread(void);
/* Names a library (the start of its file's base name, "libpvm3.") whose
 * reads are its own, not the program's; 0, or -1 when the table is full
 * (16). */
int pg_clk_exclude_lib(const char *prefix);
/* Whether RET (a return address) lies in a library pg_clk_exclude_lib
 * named (their code found once, at the first call after a new name). */
int pg_clk_from_excluded(const void *ret);
/* Whether the main program itself needs a library whose file name starts
 * with PREFIX (a DT_NEEDED entry: "libpvm3."), not one it loads later or
 * gets through another library. */
int pg_clk_main_needs(const char *prefix);
/* What to do with the program's read now: REAL (inside Pangaea, not in
 * a run, clock=off), RECORD (also a what-if's task gone free, and after
 * the end record: the reads of a task that runs on) or REPLAY.
 * Unless REAL, the caller is inside Pangaea until pg_clk_leave. */
enum pg_clk_how pg_clk_enter(void);
/* Ends what pg_clk_enter began (HOW its answer). */
void pg_clk_leave(enum pg_clk_how how);
/* Logs V, a read made with the real call (RECORD). */
void pg_clk_record(const struct pg_value *v);
/* REPLAY: fills V (kind, src and arg set by the caller) with the next
 * recorded read; 0.  A read the log does not have (more reads than
 * recorded, another call) is a divergence: the task is stopped as at a
 * message's (pg_task_diverged).  -1 (the caller makes the real call)
 * after the task's end record when the recorded reads are used up, or
 * in the launcher, which pg_task_diverged does not stop. */
int pg_clk_replay(struct pg_value *v);
/* The reads and seeds this task has replayed so far. */
uint64_t pg_clk_replayed(void);

/* clockreal.c (libpangaea.so only): the next definition of NAME after
 * libpangaea.so (dlsym(RTLD_NEXT)), for the real functions of this
 * folder and of a binding; one that cannot be found is said and the
 * process aborted, as the dynamic linker does for a missing symbol. */
void *pg_clk_real_lookup(const char *name);
/* The body of pg_real_NAME, the real function of NAME: looked up at the
 * first call (two threads racing both look it up: harmless), then called
 * with ARGS; its value returned by RET (return, or nothing for void). */
#define PG_REAL_BODY(name, args, ret)                                    	static __typeof__(pg_real_##name) *real;                         	if (!real)                                                       		real = (__typeof__(real))pg_clk_real_lookup(#name);      	ret real args

#endif /* PANGAEA_CLOCK_H */
