/*
 * engine.h: the engine of libpangaea (pangaea_lib/engine), for its own
 * files and for the bindings above it.  The engine knows tasks by ltid,
 * messages by their sender's ltid and id, and calls by the events they
 * log; it reaches a message-passing layer only through the binding's
 * table (binding.h), so it is built without any such layer's headers
 * (pangaea.h without its PVM part; tests/layers.py checks it).
 *
 * Its layers, top to bottom (a file calls only rows below its own;
 * docs/INTERNALS.md, "Layers"):
 *
 *   task.c                    the end of a task: DONE, a divergence
 *   replay.c                  the replay engine: the one decision point
 *   log.c delay.c chaos.c     the log writer; the call-entry delay;
 *                             chaos recording (priorities, hold-back)
 *   calib.c                   the cost of logging an event (it does a
 *                             logged call's work, a live tick included)
 *   live.c                    events for a live viewer
 *   state.c debug.c           the state file; replay -debug's stop
 *   clocksample.c             this task's clock against the reference
 *   select.c                  the run's selection
 *   binding.c                 the binding in use (pg_bind)
 *   self.c clock.c timeline.c who this task is; time; maps and the
 *     idmap.c queue.c         out-of-order queue
 *
 * Each layer keeps its state to itself; what this task is (its ltid,
 * mode, run) is written once, when it joins (the binding's init.c,
 * task0.c), and read through pg_me; a what-if's cut turns replay into
 * recording in self.c.
 */
#ifndef PANGAEA_ENGINE_H
#define PANGAEA_ENGINE_H

#define PANGAEA_NO_PVM /* the engine's part of pangaea.h only */
#include "pangaea.h"
#undef PANGAEA_NO_PVM
#include "pangaea-protocol.h"
#include "pangaea-logs.h"
#include "binding.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <sys/types.h>

#define PG_LTID_FANOUT 1000 /* child ltid = parent * 1000 + k, k < 1000 */

/* clock.c: the task's time base. */
/* Reads both clocks: t = 0 of this task's events is now. */
void pg_clock_start(void);
/* pg_now's state, clock.c's alone to write: whether it scales the time
 * stamp counter, CLOCK_MONOTONIC at pg_clock_start (t = 0), and each
 * thread's scaling of the counter (CLOCK_MONOTONIC's ns = ns0 + (tsc -
 * tsc0) * mult >> 32 until the counter reaches next, 0: anchor now;
 * last: the last time returned). */
struct pg_tsc_scale {
	uint64_t tsc0, ns0, mult, next;
	uint64_t cal_tsc, cal_ns; /* the first anchor, for the rate */
	uint64_t last;
};
extern int pg_clock_tsc;
extern uint64_t pg_clock_mono0;
extern __thread struct pg_tsc_scale pg_tsc
	__attribute__((tls_model("initial-exec")));
/* pg_now past its inline path: an anchor, or clock_gettime. */
uint64_t pg_now_slow(void);
/* Monotonic time in ns since pg_clock_start.  Inline: read two or three
 * times by every wrapped call (a call and a return were a fifth of it). */
static inline uint64_t pg_now(void)
{
#if defined(__x86_64__)
	if (pg_clock_tsc) {
		uint64_t tsc = __builtin_ia32_rdtsc(), ns;

		if (tsc < pg_tsc.next && tsc >= pg_tsc.tsc0) {
			ns = pg_tsc.ns0 + ((tsc - pg_tsc.tsc0) * pg_tsc.mult >> 32);
			if (ns < pg_tsc.last)
				ns = pg_tsc.last;
			pg_tsc.last = ns;
			return ns - pg_clock_mono0;
		}
	}
#endif
	return pg_now_slow();
}
/* CLOCK_MONOTONIC (ns) at pg_clock_start. */
uint64_t pg_clock_start_mono(void);
/* CLOCK_REALTIME (ns) read with it: the wall time of t = 0. */
uint64_t pg_clock_start_wall(void);
/* The ns between the two CLOCK_MONOTONIC reads around that wall read
 * (t = 0 is their middle): the start's share of a sample's error. */
uint64_t pg_clock_start_span(void);
/* A sample of the wall clock: CLOCK_REALTIME read between two reads of
 * CLOCK_MONOTONIC, their middle *T (ns since the start) and their
 * distance *SPAN; the wall time, ns. */
uint64_t pg_clock_read_wall(uint64_t *t, uint64_t *span);

/* clocksample.c: the task's clock against the coordinator's. */
/* Takes a clock sample into *S (the best of 10 ping-pongs with the
 * coordinator; beside it on a one-host machine, its clock read here); 1,
 * or 0 when the task is not in PVM (mytid) or has no coordinator, or the
 * coordinator did not answer (then no more samples are tried). */
int pg_clocksample_take(struct pg_clock_sample *s);
/* Whether a periodic sample (or the first, PG_CLOCK_FIRST_NS after the
 * task's start at the latest) is due at T (ns since the task's start).
 * Inline: one compare of every logged event, the call past it only when
 * the next sample's time is to be computed or has come. */
extern uint64_t pg_clocksample_due_t;
int pg_clocksample_due_at(uint64_t t);
static inline int pg_clocksample_due(uint64_t t)
{
	return t >= pg_clocksample_due_t && pg_clocksample_due_at(t);
}
/* Whether the task has no sample yet (its first is taken where it first
 * waits: pg_log_idle). */
int pg_clocksample_first_due(void);
/* Whether the task's end sample is worth taking at T: none yet, or the
 * last 0.5 s or more before T. */
int pg_clocksample_end_due(uint64_t t);

/* calib.c: the cost of logging one event in this task, in ns (a mean
 * over a few hundred rounds of the clock reads and the encoding). */
uint64_t pg_calib_measure(void);
/* Writes what the tasks of the run on this host take as their cost
 * instead of measuring it (PG_ENV_CALIB's value) into BUF (N); 0, or -1
 * when this task has measured nothing. */
int pg_calib_export(char *buf, size_t n);

/* timeline.c: with PANGAEA_TIMELINE=1 (PG_ENV_TIMELINE), prints
 * "pangaea-timeline SECONDS.MICROS WHO: STEP" (CLOCK_REALTIME, comparable
 * across the processes of one host) on stderr; nothing otherwise.  WHO is
 * the caller's name, NULL for "task LTID" of this task. */
void pg_timeline(const char *who, const char *step);

/* self.c: who this task is in its run. */
struct pg_self {
	int mode;                 /* enum pangaea_mode; 0 = plain PVM */
	int ltid, parent_ltid;
	int mytid, parent_tid;
	int coord_tid, launcher_tid;
	int coord_beside;         /* on the coordinator's host (its pvmd's)
				     of a one-host virtual machine: reads
				     the run's reference clock itself */
	int flags;                /* PG_FLAG_* from the handover */
	char select[PG_SELECT_MAX]; /* the run's -select ("" = everything) */
	char logdir[PG_PATH_MAX];   /* where this task logs */
	char replaydir[PG_PATH_MAX]; /* replay: the recording it follows */
	char program[PG_PATH_MAX];
	char host[PG_HOST_MAX];
};
/* Read-only for every layer; written only while a task joins its run. */
extern const struct pg_self *const pg_me;
/* The writable identity: for init.c and task0.c only. */
struct pg_self *pg_self_edit(void);
/* A what-if replay's task at its cut (replay.c): it stops following the
 * recording and records from now on (mode RECORD, if it was REPLAY). */
void pg_self_go_free(void);

/* idmap.c: int -> int hash maps, and tid <-> ltid pairs of them. */
struct pg_imap {
	int *keys;
	int *vals;
	unsigned char *used;
	int cap, n;
};
/* Sets KEY to VAL in M; 0 or -1 when memory runs out. */
int pg_imap_put(struct pg_imap *m, int key, int val);
/* The value of KEY in M into *VAL; 1 found, 0 not. */
int pg_imap_get(const struct pg_imap *m, int key, int *val);
/* Frees M's arrays and leaves it empty. */
void pg_imap_free(struct pg_imap *m);

/* tid <-> ltid pairs (a task's own, the coordinator's registry). */
struct pg_ids {
	struct pg_imap by_tid;
	struct pg_imap by_ltid;
};
/* Remembers that TID is LTID (LTID -1: not a task of the run); 0 or -1. */
int pg_ids_add(struct pg_ids *ids, int tid, int ltid);
/* LTID of TID if known here, else -2. */
int pg_ids_lookup(const struct pg_ids *ids, int tid);
/* TID of LTID if known here, else 0. */
int pg_ids_lookup_ltid(const struct pg_ids *ids, int ltid);
/* Frees the tables. */
void pg_ids_free(struct pg_ids *ids);

/* queue.c: messages that arrived during replay before their turn. */
struct pg_qmsg {
	int msg;                  /* the binding's handle */
	int src;                  /* the sender's address in the binding */
	int src_ltid;             /* or PG_PEER_FOREIGN / PG_PEER_SYSTEM */
	uint32_t msgid;           /* a pvmd's notice: pg_system_ident */
	int tag;
};
/* In arrival order. */
struct pg_queue {
	struct pg_qmsg *v;
	size_t n, cap;
};
/* Appends M; 0 or -1. */
int pg_queue_push(struct pg_queue *q, const struct pg_qmsg *m);
/* Whether M is the message from SRC_LTID with MSGID (one without a
 * Pangaea id, SRC_LTID < 0, must also have TAG).  Inline, as
 * pg_queue_find: a replayed receive asks both. */
static inline int pg_qmsg_is(const struct pg_qmsg *m, int src_ltid,
			     uint32_t msgid, int tag)
{
	/* no id: the first of its class with the tag and, for a pvmd's
	   notice, about the same task */
	return m->src_ltid == src_ltid && m->msgid == msgid &&
	       (src_ltid >= 0 || m->tag == tag);
}
/* Index of the first message pg_qmsg_is(SRC_LTID, MSGID, TAG), or -1. */
static inline int pg_queue_find(const struct pg_queue *q, int src_ltid,
				uint32_t msgid, int tag)
{
	for (size_t i = 0; i < q->n; i++)
		if (pg_qmsg_is(&q->v[i], src_ltid, msgid, tag))
			return (int)i;
	return -1;
}
/* Index of the first message a receive filter (SRC, an address, TAG;
 * -1 = any) takes, or -1. */
int pg_queue_find_filter(const struct pg_queue *q, int src, int tag);
/* Removes entry I, returning it. */
struct pg_qmsg pg_queue_remove(struct pg_queue *q, size_t i);
/* Frees the queue (not the messages). */
void pg_queue_free(struct pg_queue *q);

/* select.c: selective logging. */
/* A run-time selection of what is logged. */
#define PG_SELECT_INTS 64
#define PG_SELECT_NAMES 8
struct pg_select {
	int active;               /* anything selected at all */
	int ntags, tags[PG_SELECT_INTS];
	int nltids, ltids[PG_SELECT_INTS];
	int nprogs;
	char progs[PG_SELECT_NAMES][64];
	int clock_off;            /* clock=off: clock reads and seeds are
				     neither logged nor replayed */
};
/* Parses a selection ("tag=5,7 ltid=1 program=racy"); 0, or -1 with ERR. */
int pg_select_parse(const char *spec, struct pg_select *sel, char *err,
		    size_t errlen);
/* Writes SEL in its canonical text form into BUF; 0, or -1 if it did
 * not fit (BUF holds what did). */
int pg_select_format(const struct pg_select *sel, char *buf, size_t n);
/* Whether the task LTID running PROGRAM is selected. */
int pg_select_task(const struct pg_select *sel, int ltid, const char *program);
/* Whether messages with TAG (a receive's filter, -1 = any) are selected. */
int pg_select_tag(const struct pg_select *sel, int tag);
/* Sets this task's selection from pg_me (its -select, ltid, program);
 * 0, or -1 with ERR. */
int pg_select_open(char *err, size_t errlen);
/* Whether this task's events are logged at all. */
int pg_select_task_logged(void);
/* Whether this task's clock reads and seeds are logged (record) or
 * returned from the log (replay): task selected, no clock=off. */
int pg_select_clock(void);
/* Whether a send or receive with TAG is logged (record) or followed
 * (replay) now: task selected, tag selected, not suspended. */
int pg_logged_tag(int tag);
/* Every send and receive is logged now (task selected, no tag list,
 * nothing suspended): pg_logged's answer without a call, kept by
 * select.c. */
extern int pg_logged_all;
static inline int pg_logged(int tag)
{
	return pg_logged_all || pg_logged_tag(tag);
}

/* live.c: events for a live viewer (only when PANGAEA_LIVE is set). */
/* Whether events go live: 0 not decided yet (at the first event), 1
 * live, -1 off; the inline tests below read it without a call. */
extern int pg_live_state;
/* pg_live_event's work: decides, and adds EV if live. */
void pg_live_add(const struct pg_event *ev);
/* pg_live_tick's work. */
void pg_live_tick_due(void);
/* Copies EV, just logged, into the batch for the coordinator. */
static inline void pg_live_event(const struct pg_event *ev)
{
	if (pg_live_state >= 0)
		pg_live_add(ev);
}
/* Sends the batch if the last one went long enough ago (wrapped calls). */
static inline void pg_live_tick(void)
{
	if (pg_live_state > 0)
		pg_live_tick_due();
}
/* Sends the batch now (pangaea_exit; not from a signal handler). */
void pg_live_flush(void);
/* Whether the logs of tasks on HOST are followed by a follower of that
 * host (PANGAEA_LIVE_FOLLOW: words "*", every host, and "!H", but host
 * H): then they send no batches; 1 or 0. */
int pg_live_followed(const char *host);

/* debug.c: replay -debug's stop (PANGAEA_DEBUG).  The replay engine
 * calls pg_debug_reach before each recorded event EVENT (1-based): if it
 * is the one the run stops this task at, pg_debug_check tells the
 * launcher (PG_TAG_DEBUG) and waits there until a debugger (or the
 * launcher) lets it go on. */
void pg_debug_check(uint64_t event);
/* The event this task stops at (UINT64_MAX none; 0 not known yet),
 * kept by pg_debug_check: pg_debug_reach's test without a call. */
extern uint64_t pg_debug_event;
static inline void pg_debug_reach(uint64_t event)
{
	if (pg_debug_event == event || !pg_debug_event)
		pg_debug_check(event);
}
/* The stop itself (the debugger's frame to leave); waits while
 * pg_debug_hold is set. */
void pg_debug_stop(void);
extern volatile int pg_debug_hold;

/* state.c: this task's state file for the launcher's deadlock check
 * (struct pg_state in pangaea-logs.h).  Each call is cheap: a few stores
 * into a shared mapping, made at the first blocking call. */
/* This task enters the call CALL (pg_call_of numbering) that may block,
 * with the source filter SRC (a PVM tid, -1 any), TAG (-1 any; barrier:
 * its count), GROUP (or NULL) and TMOUT (pvm_trecv's, or NULL). */
void pg_state_block(int call, int src, int tag, const char *group,
		    const struct timeval *tmout);
/* pg_state_block entered at T (pg_now's clock), which the caller has
 * read already: a receive reads the clock once. */
void pg_state_block_at(uint64_t t, int call, int src, int tag,
		       const char *group, const struct timeval *tmout);
/* Replay: the blocked call waits for the recorded message MSGID of
 * SRC_LTID. */
void pg_state_want(int src_ltid, uint32_t msgid);
/* The blocking call returned. */
void pg_state_unblock(void);
/* Reads task LTID's state file in DIR into ST (the launcher; replay, the
 * recording's); 1, or 0 when there is none or it is not whole (being
 * written, another version: look again later). */
int pg_state_read(const char *dir, int ltid, struct pg_state *st);

/* ------------------------------------------------------------------ */
/* log.c: writing this task's logs. */

/* Creates this task's logs in pg_me->logdir: the communication log
 * unless EXEC_ONLY (the launcher), and the execution log; 0, or -1 with
 * ERR (and the launcher told: PG_TAG_LOGFAIL).  After any failed write
 * of a log the task logs nothing more and the launcher is told. */
int pg_log_open(int exec_only, char *err, size_t errlen);
/* Sets every field of EV to 0 and its group to "" as `= { 0 }` does,
 * but leaves the bytes of group after its first alone: the hot paths
 * (a send, a receive) clear their event without writing PG_GROUP_MAX
 * bytes per call. */
static inline void pg_event_clear(struct pg_event *ev)
{
	size_t g = offsetof(struct pg_event, group) + 1,
	       rest = offsetof(struct pg_event, group) + sizeof(ev->group);

	memset(ev, 0, g);
	memset((char *)ev + rest, 0, sizeof(*ev) - rest);
}
/* Appends EV to the communication log, writing pending poll failures
 * first, and passes it to a live viewer. */
void pg_log(struct pg_event *ev);
/* The task is about to wait (a receive whose message has not come):
 * takes its first clock sample now if it has none, off its way. */
void pg_log_idle(void);
/* Logs a successful receive of the message MI (the binding's info()
 * of it) by the call KIND with the filter FILTER (PG_FILTER_* of
 * pg_recv_filter) started at T0. */
void pg_log_recv(int kind, int filter, const struct pg_msginfo *mi,
		 uint64_t t0);
/* Counts a failed poll with the filter FILTER (written as one record
 * before the next event, its filter the bits of all it counts). */
void pg_log_pollfail(int filter);
/* The PG_FILTER_* bits of a receive call's source TID and tag TAG. */
static inline int pg_recv_filter(int tid, int tag)
{
	return (tid == -1 ? PG_FILTER_ANYSRC : 0) |
	       (tag == -1 ? PG_FILTER_ANYTAG : 0);
}
/* Appends the clock read or seed V to the communication log (not
 * ordered against the pending poll count: replay reads them apart,
 * pangaea_lib/clock), also after the end record of a task that ended
 * normally (the log is closed at the process's exit). */
void pg_log_value(const struct pg_value *v);
/* Writes the spawn REC to the execution log. */
void pg_log_spawn(const struct pg_spawn_rec *rec);
/* Writes the end record (once) and closes the logs (HOW PG_END_EXIT or
 * PG_END_NO_EXIT: the comm log only at the process's exit, for the clock
 * reads that may follow); 0, or -1 if a write of the logs failed (now or
 * before). */
int pg_log_end(int how, int value);
/* The end record for the fatal signal SIG, from its handler:
 * async-signal-safe (no allocation, no stdio, no PVM, no live event). */
void pg_log_end_signal(int sig);
/* Whether the end record was written (or the end begun). */
int pg_log_ended(void);

/* delay.c: random delay injection, at the entry of every wrapped call. */
/* Delays of up to MAX_US microseconds (0: none) from SEED, in this
 * task's own sequence (LTID). */
void pg_delay_open(int max_us, unsigned seed, int ltid);
/* The run's settings, for a child's handover. */
int pg_delay_max(void);
unsigned pg_delay_seed(void);
/* The next delay of this task's sequence, in microseconds (0 when
 * delays are off). */
unsigned pg_delay_draw(void);
/* Steps the generator *RNG (a linear congruential one, the delays' and
 * chaos's) and returns its next draw, 0..MAX. */
unsigned pg_draw(unsigned *rng, unsigned max);
/* -delay's bound in microseconds, 0 none (pg_delay_open). */
extern int pg_delay_us;
/* pg_delay's work. */
void pg_delay_wait(void);
/* Gives a live viewer its chance (pg_live_tick), then sleeps the next
 * delay: no call while neither is on. */
static inline void pg_delay(void)
{
	if (pg_live_state > 0 || pg_delay_us > 0)
		pg_delay_wait();
}

/* chaos.c: chaos recording (-chaos): per-task priorities from the run's
 * seed, delays before the sends of low-priority tasks, the hold-back at
 * a blocking wildcard receive.  Recording only. */
#define PG_CHAOS_SEND_MAX_US 2000    /* the lowest priority's send delay */
#define PG_CHAOS_QUIET_MAX_US 10000  /* hold-back: quiet gap, at most */
#define PG_CHAOS_WINDOW_MAX_US 50000 /* hold-back: whole wait, at most */
/* Chaos on (ENABLED) or off for task LTID of the run with SEED. */
void pg_chaos_open(int enabled, unsigned seed, int ltid);
/* Whether this task records with chaos (passed on to its children). */
extern int pg_chaos_state;
static inline int pg_chaos_on(void)
{
	return pg_chaos_state;
}
/* Whether the run with SEED ranks its tasks by reverse age (the last
 * spawned first, no send delays) rather than at random: half the seeds. */
int pg_chaos_reversed(unsigned seed);
/* The priority of task LTID in the run with SEED (higher goes first):
 * its ltid when reversed, else a hash, 0..65535.  Pure. */
unsigned pg_chaos_priority(unsigned seed, int ltid);
/* Which of the N senders LTIDS a hold-back takes under SEED: the index
 * of the highest priority (the first of equals); -1 when N is 0. */
int pg_chaos_pick(unsigned seed, const int *ltids, int n);
/* The longest send delay of task LTID under SEED, microseconds. */
unsigned pg_chaos_send_max(unsigned seed, int ltid);
/* The next draw, 0..MAX, of this task's chaos sequence. */
unsigned pg_chaos_draw(unsigned max);
/* pg_chaos_send's work, chaos on. */
void pg_chaos_send_wait(void);
/* Before a send: sleeps this task's chaos delay (nothing when off: no
 * call then). */
static inline void pg_chaos_send(void)
{
	if (pg_chaos_state)
		pg_chaos_send_wait();
}
/* The binding's receive of KIND with (SRC, TAG, TMOUT), held back first
 * when chaos is on and it is a wildcard recv/precv or a trecv that may
 * wait (within its timeout); the binding's return (a program's own
 * matcher, PVM's pvm_recvf, turns the hold-back off). */
int pg_chaos_recv(int kind, int tid, int tag, struct timeval *tmout);

/* ------------------------------------------------------------------ */
/* replay.c: the replay engine. */

/* A receive filter's "any sender" (tid -1) in a pg_call. */
#define PG_PEER_ANY (-1000)

/* A call of the program, as the engine compares it with the recording. */
struct pg_call {
	/* kind, and what the call fixes (only these fields are read): a
	 * send's peer (or dests), tag, msgid, group; a receive's filter as
	 * peer (an ltid, PG_PEER_ANY) and tag (-1 any); a group call's op,
	 * group, arg; an end's how */
	struct pg_event ev;
	/* spawn: file, argc/argv and ntask of the call */
	const struct pg_spawn_rec *spawn;
};

/* What the recording says of a call. */
enum pg_verdict {
	PG_REPLAY_DIVERGED = -1, /* not what was recorded: pg_replay_report */
	PG_REPLAY_FOLLOW = 0,    /* recorded: do what the recording did */
	PG_REPLAY_POLLFAIL = 1,  /* a poll that failed then: fail it again */
	PG_REPLAY_BLOCK = 2      /* the recording ends with the task killed
				    while blocked in this very receive (a
				    deadlock, state.c): block in it again,
				    outside replay control */
};

/* Opens the recording of task LTID in DIR (the launcher, ltid 0, has
 * only an execution log); 0, or -1 with ERR. */
int pg_replay_open(const char *dir, int ltid, char *err, size_t errlen);
/* Whether the recording in DIR has no comm log of task LTID (> 0) at
 * all: the task never joined the recorded run (killed by pvm_kill at
 * once, before its exec even); 1 or 0. */
int pg_replay_unjoined(const char *dir, int ltid);
/* Asks the launcher (KILLWAIT) whether a task of the recording killed
 * this task here, and if so waits in the question until the replayed
 * kill ends it.  Returns only when no such kill is coming (or there is
 * no launcher to ask). */
void pg_replay_await_kill(void);
/* Frees what replay holds. */
void pg_replay_close(void);
/*
 * The one place where replay decides: compares CALL with the next
 * recorded event and consumes it.  FOLLOW: *WANT (may be NULL) is the
 * recorded event and, for a spawn, *SPAWN the recorded spawn; POLLFAIL;
 * or DIVERGED, with pg_replay_report() saying how.  After any verdict
 * but FOLLOW, *WANT holds nothing of use (the next event may have been
 * read into it).
 */
enum pg_verdict pg_replay_expect(const struct pg_call *call,
				 struct pg_event *want,
				 struct pg_spawn_rec **spawn);
/* Records a divergence found by a wrapper itself (a recorded spawn that
 * cannot be made again); returns PG_REPLAY_DIVERGED. */
enum pg_verdict pg_replay_diverge(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* The format version of the communication log this task replays (its
 * own writing version when it does not replay). */
uint32_t pg_replay_log_version(void);
/* The report of the divergence: "replay diverged: task ..., event N: ...". */
const char *pg_replay_report(void);
/* The number of the recorded event the replay stopped at. */
uint64_t pg_replay_position(void);
/* Looks at the next recorded event without deciding anything; 1, or 0
 * at the end (or on a damaged log: pg_replay_expect will say so). */
int pg_replay_peek(struct pg_event *ev);
/* Whether the next recorded event is a poll that failed (a count of
 * them): a replayed poll then fails at once, with nothing to perturb
 * (no -delay before it); without copying the event. */
int pg_replay_pollfail_next(void);
/* For a poll call: if the next recorded event is a poll that failed,
 * counts one of its failures off, as pg_replay_expect's POLLFAIL does
 * (without building a call or copying the event); 1, else 0 and
 * nothing done. */
int pg_replay_poll_failed(void);
/* After a FOLLOW for the receive call KIND: receives until the recorded
 * message WANT is in hand and makes it the current message (a probe
 * leaves it queued for the receive that follows); its handle, or the
 * binding's error. */
int pg_replay_take_message(int kind, const struct pg_event *want);
/* A receive call of KIND outside replay control (suspended or not
 * selected): messages already queued come first, then the binding's. */
int pg_replay_free_recv(int kind, int tid, int tag, struct timeval *tmout);
/* Whether messages wait in the out-of-order queue (a what-if's task gone
 * free takes them first); 1 or 0. */
int pg_replay_queued(void);

/* ------------------------------------------------------------------ */
/* task.c: the end of a task. */

/* Sends DONE (how, value) to the launcher. */
void pg_task_tell_done(int how, int value);
/* Installs the hooks that leave an end record however the task ends: a
 * fatal signal's (SIGSEGV ... SIGPIPE, the record written from the
 * handler), an exit without pg_task_end's (PG_END_NO_EXIT, DONE told). */
void pg_task_hooks(void);
/* Ends this task's part in the run (pangaea_exit, and the wrapper of
 * the layer's exit): replay checks the end is the recorded one, the end
 * record is written, the launcher told, the recording closed; 0, or
 * PvmSysErr when a write of the logs failed. */
int pg_task_end(void);
/* Stops this task after pg_replay_expect said DIVERGED: logs the end,
 * sends the report to the launcher and exits (status 3).  The launcher
 * (task 0) is not stopped: it gets PvmSysErr back from its wrapper and
 * the report from pg_task0_diverged(). */
int pg_task_diverged(void);

#endif /* PANGAEA_ENGINE_H */
