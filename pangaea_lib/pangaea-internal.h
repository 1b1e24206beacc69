/*
 * pangaea-internal.h: the layers of libpangaea, for its own files and for
 * the programs that link it without being an app (the launcher, which is
 * the run's task 0, and the coordinator).
 *
 * Two folders: the PVM binding (pangaea_lib/pvm) above the engine
 * (pangaea_lib/engine), which reaches PVM only through the binding's
 * table (binding.h; docs/INTERNALS.md, "Bindings").  The layers call
 * downward only (docs/INTERNALS.md, "Layers"):
 *
 *   pvm/ init.c task0.c       joining and leaving a run (app, launcher)
 *   pvm/ wrap.c spawn.c       the wrappers of the PVM calls
 *     group.c query.c mbox.c
 *     collect.c notify.c kill.c
 *   pvm/ binding.c stdin.c    the engine's table of PVM functions;
 *                             task 1's standard input
 *   pvm/ ids.c proto.c ship.c tid <-> ltid; the protocol layer; task
 *     pvm.c pvmtmp.c          logs between hosts; PVM helpers and files
 *   --- the engine: no PVM below this line ---
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
 * mode, run) is written once, when it joins (init.c, task0.c), and read
 * through pg_me; a what-if's cut turns replay into recording in self.c.
 * calib.c sits above live.c: it measures a logged call's work, which
 * includes pg_live_tick.
 */
#ifndef PANGAEA_INTERNAL_H
#define PANGAEA_INTERNAL_H

#define PANGAEA_NO_WRAP /* the library calls the real PVM functions */
#include "pangaea.h"
#include "pangaea-protocol.h"
#include "pangaea-logs.h"
#include "binding.h"

#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>

/* PVM's tid layout (pvm3 src/global.h): a task's tid has neither of the
 * top bits and a nonzero local part. */
#define PG_TID_PVMD 0x80000000u  /* set in the tid of a pvmd */
#define PG_TID_GID 0x40000000u   /* a multicast address */
#define PG_TID_LOCAL 0x0003ffffu /* the task's part on its host */

#define PG_LTID_FANOUT 1000 /* child ltid = parent * 1000 + k, k < 1000 */

/* ------------------------------------------------------------------ */
/* pvm.c: small helpers around PVM's own calls. */

/* "PVM error CODE, TEXT" (PVM's own text of CODE) in a static buffer. */
const char *pg_pvm_errtext(int code);
/* Host name of the host TID runs on, into BUF ("?" if unknown). */
void pg_pvm_host_of(int tid, char *buf, size_t n);
/* Bytes of one item of the PVM data type DT, or a negative PVM error. */
int pg_pvm_item_size(int dt);
/* Packs (PACK) or unpacks COUNT items of type DT at BUF with PVM's
 * typed (XDR) packing; >= 0, or a PVM error. */
int pg_pvm_pack(int pack, void *buf, int count, int dt);
/* Calls PVM's own receive function of KIND (recv, nrecv, trecv, probe;
 * precv receives as recv); what it returns. */
int pg_pvm_recv(int kind, int tid, int tag, struct timeval *tmout);

/* pvmtmp.c */
/* The folder of PVM's temporary files: $PVM_TMP, or /tmp. */
const char *pg_pvmtmp_dir(void);
/* Removes the pvmtmpPPPPPP.N files (and sockets) of process PID that
 * belong to our uid, by a scan of the folder: for a pvmd known dead.
 * Returns how many it removed. */
int pg_pvmtmp_clear(pid_t pid);
/* Removes pvmtmp<PID>.0 .. .(PG_PVMTMP_OWN - 1), the names libpvm tries
 * first, without a scan: for a process of ours known dead.  Returns how
 * many it removed. */
#define PG_PVMTMP_OWN 8
int pg_pvmtmp_clear_first(pid_t pid);
/* The same for our own pid; call it before the first PVM call (nothing of
 * ours can be there yet). */
int pg_pvmtmp_clear_own(void);

/* clock.c: the task's time base. */
/* Reads both clocks: t = 0 of this task's events is now. */
void pg_clock_start(void);
/* Monotonic time in ns since pg_clock_start. */
uint64_t pg_now(void);
/* CLOCK_MONOTONIC (ns) at pg_clock_start. */
uint64_t pg_clock_start_mono(void);
/* CLOCK_REALTIME (ns) read with it: the wall time of t = 0. */
uint64_t pg_clock_start_wall(void);

/* clocksample.c: the task's clock against the coordinator's. */
/* Takes a clock sample into *S (the best of 10 ping-pongs with the
 * coordinator); 1, or 0 when the task is not in PVM (mytid) or has no
 * coordinator, or the coordinator did not answer (then no more samples
 * are tried). */
int pg_clocksample_take(struct pg_clock_sample *s);
/* Whether a periodic sample is due at T (ns since the task's start). */
int pg_clocksample_due(uint64_t t);

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
 * Pangaea id, SRC_LTID < 0, must also have TAG). */
int pg_qmsg_is(const struct pg_qmsg *m, int src_ltid, uint32_t msgid,
	       int tag);
/* Index of the first message pg_qmsg_is(SRC_LTID, MSGID, TAG), or -1. */
int pg_queue_find(const struct pg_queue *q, int src_ltid, uint32_t msgid,
		  int tag);
/* Index of the first message a receive filter (SRC, an address, TAG;
 * -1 = any) takes, or -1. */
int pg_queue_find_filter(const struct pg_queue *q, int src, int tag);
/* Removes entry I, returning it. */
struct pg_qmsg pg_queue_remove(struct pg_queue *q, size_t i);
/* Frees the queue (not the messages). */
void pg_queue_free(struct pg_queue *q);

/* ------------------------------------------------------------------ */
/* proto.c: Pangaea's own messages (layouts in pangaea-protocol.h).  They
 * travel in Pangaea's context, in buffers of their own: the app's
 * context and active buffers are as it left them afterwards.  Every
 * function returns >= 0, or a negative PVM error (PvmBadVersion: a
 * message of another protocol version; PvmBadMsg: a malformed one). */

/* Sets the run's context for every message below. */
void pg_proto_open(int ctx);

/* Sends the fixed-int message TAG (HELLO, REGISTER, ACK, TID2LTID,
 * LTID2TID, ANSWER, DONE, QUIT, LOGFAIL, KILLING, KILLWAIT) with its
 * ints V to TID. */
int pg_proto_send(int tid, int tag, const int *v);
/* Waits (up to SECONDS, < 0 for ever) for the fixed-int message TAG
 * from TID (-1 any) and unpacks its ints into V; 1, or 0 on timeout. */
int pg_proto_recv(int tid, int tag, int seconds, int *v);
/* Sends the question TAG with V to TID and waits for its one-int
 * REPLY_TAG answer (ACK or ANSWER) into *ANSWER; 0 or < 0. */
int pg_proto_ask(int tid, int tag, const int *v, int reply_tag, int *answer);
/* Sends H to the new child TID. */
int pg_proto_send_handover(int tid, const struct pg_handover *h);
/* Waits up to SECONDS for the handover from the parent TID; 1 or 0. */
int pg_proto_recv_handover(int tid, int seconds, struct pg_handover *h);
/* Tells the coordinator COORD about the N children T of PARENT_LTID and
 * waits for its ACK; the coordinator's status (0, or < 0). */
int pg_proto_tell_spawned(int coord, int parent_ltid,
			  const struct pg_spawned_task *t, int n);
/* Sends the divergence REPORT of task LTID to the launcher TID. */
int pg_proto_send_diverged(int tid, int ltid, const char *report);
/* Sends a batch of N ints of live events of task H to the coordinator. */
int pg_proto_send_events(int tid, const struct pg_live_head *h,
			 const int *ints, int n);
/* Tells the launcher TID that task LTID watches the exit of the N tasks
 * TIDS with message tag MSGTAG (the app's pvm_notify(PvmTaskExit)), or,
 * if CANCEL, no longer does (PvmTaskExit | PvmNotifyCancel). */
int pg_proto_send_watch(int tid, int ltid, int msgtag, int cancel,
			const int *tids, int n);
/* Sends the collective operation's head C and its C->count items at
 * DATA to TID. */
int pg_proto_send_collect(int tid, const struct pg_collect *c,
			  const void *data);
/* Receives from TID the collective part that must have head C into
 * DATA; PvmMismatch if the head differs (the calls do not agree). */
int pg_proto_recv_collect(int tid, const struct pg_collect *c, void *data);

/* A dispatcher (launcher, coordinator) that received BUFID in Pangaea's
 * context: the one version check.  Sets *TAG and *SRC; 0, or
 * PvmBadVersion with the version it carries in *VERSION. */
int pg_proto_check(int bufid, int *tag, int *src, int *version);
/* Unpacks the ints of the fixed-int message TAG just checked into V. */
int pg_proto_upk(int tag, int *v);
/* SPAWNED just checked: its parent and number of tasks, then each task. */
int pg_proto_upk_spawned(int *parent_ltid, int *n);
int pg_proto_upk_spawned_task(struct pg_spawned_task *t);
/* DIVERGED just checked: the task and its report (cut to N bytes). */
int pg_proto_upk_diverged(int *ltid, char *report, size_t n);
/* EVENTS just checked: the head and *N ints in a malloc'ed *INTS. */
int pg_proto_upk_events(struct pg_live_head *h, int **ints, int *n);
/* WATCH just checked: the watcher, the notify's tag, whether it is a
 * cancel, and the *N watched tids in a malloc'ed *TIDS. */
int pg_proto_upk_watch(int *ltid, int *msgtag, int *cancel, int **tids,
		       int *n);
/* Sends the message BUFID, received and checked, on unchanged to TID. */
int pg_proto_forward(int bufid, int tid, int tag);
/* LOGS_ASK: the task logs of folder DIR, please. */
int pg_proto_send_logs_ask(int tid, const char *dir);
int pg_proto_upk_logs_ask(char *dir, size_t n);
/* LOGFILE: a piece of a log; unpacked, its bytes go to BUF (at least
 * PG_LOGPIECE_MAX bytes).  0 or < 0. */
int pg_proto_send_logpiece(int tid, const struct pg_logpiece *p);
int pg_proto_upk_logpiece(struct pg_logpiece *p, void *buf);

/* ship.c: task logs between hosts (LOGFILE pieces, in Pangaea's context). */
/* Sends the N files NAMES of folder DIR to TID in pieces, then the end
 * piece (sent also after a failure); 0, or -1 with ERR. */
int pg_ship_send(int tid, const char *dir, char *const *names, int n,
		 char *err, size_t errlen);
/* Writes the LOGFILE just received (the active buffer, its version read)
 * with W into DIR (NULL: the folder it names); *END is set by the end
 * piece.  0, or -1 with ERR. */
int pg_ship_take(struct pg_logship_writer *w, const char *dir, int *end,
		 char *err, size_t errlen);

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
/* Whether a send or receive with TAG is logged (record) or followed
 * (replay) now: task selected, tag selected, not suspended. */
int pg_logged(int tag);

/* ------------------------------------------------------------------ */
/* ids.c: what this task knows of tid <-> ltid, and what it asks the
 * coordinator. */

/* Remembers that TID is LTID. */
void pg_ids_learn(int tid, int ltid);
/* LTID of TID, asking the coordinator if needed; -1 not a Pangaea task. */
int pg_ltid_of(int tid);
/* TID of LTID, asking the coordinator (waits until it is spawned); <0 error. */
int pg_tid_of(int ltid);
/* Peer of a received message: the sender's ltid, or PG_PEER_FOREIGN /
 * PG_PEER_SYSTEM for messages without a Pangaea id. */
int pg_peer_of(const struct pvmminfo *mi);
/* Identifies a pvmd's message BUFID (a pvm_notify notice names a task in
 * its first int): that task's ltid + 1, or 0.  Leaves BUFID rewound. */
uint32_t pg_system_ident(int bufid);

/* binding.c: registers PVM's table of the engine's binding interface
 * (binding.h) when a task joins (init.c, task0.c). */
void pg_pvm_bind(void);

/* live.c: events for a live viewer (only when PANGAEA_LIVE is set). */
/* Copies EV, just logged, into the batch for the coordinator. */
void pg_live_event(const struct pg_event *ev);
/* Sends the batch if the last one went long enough ago (wrapped calls). */
void pg_live_tick(void);
/* Sends the batch now (pangaea_exit; not from a signal handler). */
void pg_live_flush(void);
/* Whether the logs of tasks on HOST are followed by the coordinator
 * (PANGAEA_LIVE_FOLLOW names HOST): then they send no batches; 1 or 0. */
int pg_live_followed(const char *host);

/* debug.c: replay -debug's stop (PANGAEA_DEBUG).  The replay engine
 * calls it before each recorded event EVENT (1-based): if it is the one
 * the run stops this task at, tells the launcher (PG_TAG_DEBUG) and waits
 * there until a debugger (or the launcher) lets it go on. */
void pg_debug_reach(uint64_t event);
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
/* stdin.c: task 1's standard input. */
/* At join, in task 1 only: puts the launcher's standard input (the
 * socket PANGAEA_STDIN names) on fd 0; without it, or if it cannot be
 * reached (said on stderr), fd 0 stays what PVM gave (/dev/null). */
void pg_stdin_attach(void);

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
void pg_event_clear(struct pg_event *ev);
/* Appends EV to the communication log, writing pending poll failures
 * first, and passes it to a live viewer. */
void pg_log(struct pg_event *ev);
/* Logs a successful receive of the message MSG (a binding's handle) by
 * the call KIND with the filter FILTER (PG_FILTER_* of pg_recv_filter)
 * started at T0. */
void pg_log_recv(int kind, int filter, int msg, uint64_t t0);
/* Counts a failed poll with the filter FILTER (written as one record
 * before the next event, its filter the bits of all it counts). */
void pg_log_pollfail(int filter);
/* The PG_FILTER_* bits of a receive call's source TID and tag TAG. */
int pg_recv_filter(int tid, int tag);
/* Writes the spawn REC to the execution log. */
void pg_log_spawn(const struct pg_spawn_rec *rec);
/* Writes the end record (once) and closes the logs; 0, or -1 if a
 * write of the logs failed (now or before). */
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
/* Gives a live viewer its chance (pg_live_tick), then sleeps the next
 * delay. */
void pg_delay(void);

/* chaos.c: chaos recording (-chaos): per-task priorities from the run's
 * seed, delays before the sends of low-priority tasks, the hold-back at
 * a blocking wildcard receive.  Recording only. */
#define PG_CHAOS_SEND_MAX_US 2000    /* the lowest priority's send delay */
#define PG_CHAOS_QUIET_MAX_US 10000  /* hold-back: quiet gap, at most */
#define PG_CHAOS_WINDOW_MAX_US 50000 /* hold-back: whole wait, at most */
/* Chaos on (ENABLED) or off for task LTID of the run with SEED. */
void pg_chaos_open(int enabled, unsigned seed, int ltid);
/* Whether this task records with chaos (passed on to its children). */
int pg_chaos_on(void);
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
/* Before a send: sleeps this task's chaos delay (nothing when off). */
void pg_chaos_send(void);
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
/* Frees what replay holds. */
void pg_replay_close(void);
/*
 * The one place where replay decides: compares CALL with the next
 * recorded event and consumes it.  FOLLOW: *WANT (may be NULL) is the
 * recorded event and, for a spawn, *SPAWN the recorded spawn; POLLFAIL;
 * or DIVERGED, with pg_replay_report() saying how.
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

/* ------------------------------------------------------------------ */
/* query.c: calls recorded with their answers (PG_REC_CALL), for query.c
 * and mbox.c.  A wrapper begins a call, then either records PVM's answer
 * (its data written with the put functions) or takes the recorded one,
 * reads the data back with the get functions (both modes: one path
 * gives the program its answer), and logs it. */
struct pg_qcall {
	struct pg_event ev;       /* the call: op, arguments, result, t */
	unsigned char *data;      /* recording: the data written so far */
	size_t len, cap;
	int nomem;                /* the data could not grow */
	const unsigned char *rd;  /* the data read back (recorded or ours) */
	size_t rdlen, rdpos;
	int bad;                  /* it could not be read */
};

/* Whether this task logs its calls (in a run and selected). */
int pg_qcall_logged(void);
/* Starts Q, a call of OP, now (after the delay injection). */
void pg_qcall_begin(struct pg_qcall *q, int op);
/* Replay: the recorded answer of Q's call (result, data to read); 0, or
 * -1 when the program diverged (the caller returns pg_task_diverged()). */
int pg_qcall_replay(struct pg_qcall *q);
/* Recording: PVM answered RESULT with the data written into Q (data
 * that could not be kept makes the answer PvmNoMem). */
void pg_qcall_record(struct pg_qcall *q, int result);
/* Logs Q with its answer and frees its data. */
void pg_qcall_log(struct pg_qcall *q);
/*
 * The one path of a recorded call Q: recording, REAL(Q, ARG) makes the
 * PVM call, writes its data into Q and returns PVM's answer; replay
 * takes the recorded answer.  Then, if the answer is not an error, GET
 * (may be NULL) reads the data back into OUT for the program (in both
 * modes), and the call is logged.  The answer the program gets.
 */
int pg_qcall_answer(struct pg_qcall *q, int (*real)(struct pg_qcall *, void *),
		    void *arg, int (*get)(struct pg_qcall *, void *), void *out);
/* Replay: the recorded data of Q could not be read back: the task
 * stops as diverged (what the wrapper returns, if ever). */
int pg_qcall_damaged(struct pg_qcall *q);
/* Memory of SIZE zeroed bytes given to the program by a call of OP, kept
 * until pg_qcall_forget(OP); NULL when out of memory. */
void *pg_qcall_keep(int op, size_t size);
/* Frees what calls of OP gave the program before. */
void pg_qcall_forget(int op);
/* Write V, the N bytes at P, the string S, or TID (as an ltid when it is
 * a task of the run) into Q's data. */
void pg_qcall_put_int(struct pg_qcall *q, int v);
void pg_qcall_put_bytes(struct pg_qcall *q, const void *p, size_t n);
void pg_qcall_put_str(struct pg_qcall *q, const char *s);
void pg_qcall_put_tid(struct pg_qcall *q, int tid);
/* Read back what the put functions wrote (a tid as this run's tid, a
 * string kept as pg_qcall_keep keeps it; Q->bad set when the data ends
 * or is damaged). */
int pg_qcall_get_int(struct pg_qcall *q);
const unsigned char *pg_qcall_get_bytes(struct pg_qcall *q, size_t *n);
char *pg_qcall_get_str(struct pg_qcall *q);
int pg_qcall_get_tid(struct pg_qcall *q);
/* Reads a count into *N and gives an array of that many zeroed elements
 * of SIZE bytes, kept as pg_qcall_keep keeps it; NULL (Q->bad set) when
 * the count is damaged or memory short. */
void *pg_qcall_get_array(struct pg_qcall *q, size_t size, int *n);

/* ------------------------------------------------------------------ */
/* The wrappers. */

/* wrap.c: sends the active buffer as one message (one id) to the N
 * tids (one pvm_mcast for mcast and bcast), logging it as KIND (send,
 * psend, mcast or bcast to GROUP) with PVM's receivers; a send PVM
 * refuses or a multicast that reaches nobody is PVM's alone, unlogged.
 * PVM's return. */
int pg_send_logged(int kind, const int *tids, int n, int tag,
		   const char *group);

/* spawn.c: how many children this task's spawns have started so far. */
int pg_spawn_children(void);

/* ------------------------------------------------------------------ */
/* task0.c: the launcher as task 0 of its run. */
struct pg_task0_config {
	int mode;                 /* PANGAEA_MODE_RECORD or _REPLAY */
	const char *logdir;       /* where this run logs (absolute) */
	const char *replaydir;    /* replay: the recording (absolute) */
	int delay_us;             /* -delay */
	unsigned seed;            /* the delays' and chaos' seed */
	int chaos;                /* -chaos: a chaos recording */
	const char *select;       /* -select, canonical ("" = everything) */
};
/* Makes this process task 0 of a new run: enrolls in PVM, creates the
 * run's context (returned), writes task-0.exec and, on replay, opens the
 * recording's; the context, or -1 with ERR. */
int pg_task0_open(const struct pg_task0_config *c, char *err, size_t errlen);
/* Tells the library the coordinator's tid once it runs. */
void pg_task0_set_coordinator(int tid);
/* The report when replaying the launcher's own spawns diverged, or NULL. */
const char *pg_task0_diverged(void);
/* Closes task 0's logs and recording. */
void pg_task0_close(void);

#endif /* PANGAEA_INTERNAL_H */
