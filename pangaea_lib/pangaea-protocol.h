/*
 * pangaea-protocol.h: the messages between the library (in every app
 * task), the launcher and the coordinator.
 *
 * All of them travel in Pangaea's own PVM message context, which the
 * launcher creates with pvm_newcontext() and hands to every task in the
 * PANGAEA_CONTEXT environment variable (exported through PVM_EXPORT).  An
 * app receive, even pvm_recv(-1, -1), only sees messages of the app's
 * context, so it can never match one of these.
 *
 * Every message starts with PG_PROTOCOL_VERSION (packed int,
 * pangaea-formats.h), but for the three that PVM itself writes (EXITED and
 * QUIT: pvm_notify; ENDTASK: PVM tracing); a receiver that sees another version refuses the
 * message.  pangaea_lib/pvm/proto.c packs and unpacks every message; bump the
 * version on any change to the layouts below.
 */
#ifndef PANGAEA_PROTOCOL_H
#define PANGAEA_PROTOCOL_H

#include "pangaea-formats.h"
#include "pangaea-logs.h"
#include "livestream.h"  /* PG_LIVE_FIELDS: a batch's ints per event */

/* Environment variables of a run (the launcher exports CONTEXT and LIVE to
 * every task). */
#define PG_ENV_CONTEXT "PANGAEA_CONTEXT" /* decimal context number */
#define PG_ENV_DELAY "PANGAEA_DELAY"     /* max injected delay, microseconds
					    (read by the launcher; tasks get
					    it in the handover) */
#define PG_ENV_CHAOS "PANGAEA_CHAOS"     /* 1: a chaos recording, as -chaos
					    (read by the launcher; tasks get
					    it in the handover flags) */
#define PG_ENV_SEED "PANGAEA_SEED"       /* seed of the injected delays
					    (read by the launcher, which
					    picks and prints one if unset;
					    tasks get it in the handover) */
#define PG_ENV_STDIN "PANGAEA_STDIN"     /* "HOST PORT TOKEN LTID": task
					    LTID (1 without it) connects
					    there at join, sends TOKEN and a
					    newline, and reads its standard
					    input from that socket (the
					    launcher's, toplevel/stdin.c) */
#define PG_ENV_WHATIF "PANGAEA_WHATIF"   /* what-if replay (-swap): words
					    "cut:LTID:N" (task LTID replays
					    its first N recorded events,
					    then goes free; a task not named
					    is free from its start) and
					    "swap:LTID:E:SENDER:MSGID:TAG:LEN"
					    (its E-th event, a receive, gets
					    that message instead) */
#define PG_ENV_LIVE "PANGAEA_LIVE"       /* a viewer follows the run: the
					    coordinator's Unix socket path
					    (unset: no live events at all) */
#define PG_ENV_LIVE_FOLLOW "PANGAEA_LIVE_FOLLOW" /* with PANGAEA_LIVE: the
					    hosts whose logs are followed
					    there ("*" every host, "!H" but
					    H; space-separated); a task
					    there sends no event batches
					    (live.c) */
#define PG_ENV_CALIB "PANGAEA_CALIB" /* the launcher's logging cost,
					"NS:BUILD:HOST" (calib.c), set in
					each task from its handover */
#define PG_ENV_TIMELINE "PANGAEA_TIMELINE" /* 1: stamped start-up and
					     shut-down steps on stderr */
#define PG_ENV_CLOCK_PERIOD "PANGAEA_CLOCK_PERIOD" /* seconds between a
					    task's clock samples (default
					    30, 0: at its start and end
					    only; clocksample.c) */
#define PG_ENV_ONE_HOST "PANGAEA_ONE_HOST" /* 1: the run's virtual machine
					    had one host when it began: its
					    tasks read the coordinator's
					    clock themselves (clocksample.c);
					    0: they all ping it */
#define PG_ENV_DEBUG "PANGAEA_DEBUG"     /* replay -debug: "LTID:EVENT", the
					    task that stops for a debugger
					    before its EVENT-th event
					    (pangaea_lib/engine/debug.c) */
#define PG_ENV_DIRECT "PANGAEA_DIRECT"   /* "FD PTID OUTCTX OUTCODE TRCCTX
					    TRCCODE TRCBUF TRCOPT MASK": a
					    task the launcher PTID started
					    itself, not through its pvmd
					    (toplevel/direct.c): it writes
					    its tid on FD once enrolled, and
					    takes PTID's output and trace
					    settings for its children as its
					    own (pvm/init.c) */
#define PG_ENV_CWD "PANGAEA_CWD"         /* the user's working folder: the
					    launcher's own spawns (tasks
					    1..N) start there, and remove
					    it for their children
					    (pvm/init.c) */

/*
 * Message tags (in Pangaea's context).  Layouts after the version int:
 *
 * PG_TAG_HANDOVER   parent -> child, right after pvm_spawn.
 *                   int ltid, int mode, int coord_tid, int launcher_tid,
 *                   int flags, int delay_us, int seed, str logdir,
 *                   str replaydir, str selection (the run's -select,
 *                   "" = all), str calib (the launcher's logging cost,
 *                   PANGAEA_CALIB's form, "" if none) (replaydir is ""
 *                   when recording; when replaying, logdir is where the
 *                   replay writes, replaydir the recording it follows).
 * PG_TAG_HELLO      coordinator -> launcher, once its loop runs.  (empty)
 * PG_TAG_REGISTER   task -> coordinator at pangaea_init.
 *                   int ltid, int tid.  Answered by PG_TAG_ACK.
 * PG_TAG_SPAWNED    parent -> coordinator after each spawn call.
 *                   int parent_ltid, int n, then n x (int ltid, int tid,
 *                   str host, str program).  Answered by PG_TAG_ACK.  The
 *                   coordinator forwards it unchanged to the launcher.
 *                   The launcher's own (parent_ltid 0) is sent as soon as
 *                   its programs are spawned, perhaps before the
 *                   coordinator runs: PVM holds it; it takes the ACK
 *                   in its message loop, not waiting for it.
 * PG_TAG_ACK        coordinator -> task.  int status (0 ok, <0 error).
 * PG_TAG_TID2LTID   task -> coordinator.  int tid.
 *                   Answer PG_TAG_ANSWER: int ltid (-1: not a Pangaea task).
 * PG_TAG_LTID2TID   task -> coordinator.  int ltid.  Answered with
 *                   PG_TAG_ANSWER: int tid, once a task with that ltid has
 *                   been spawned (the request waits until then), or a
 *                   negative PVM error if the coordinator cannot keep the
 *                   request.
 * PG_TAG_ANSWER     coordinator -> task.  int value.
 * PG_TAG_DONE       task -> launcher when the task ends.
 *                   int ltid, int how (enum pg_end_how), int value.
 * PG_TAG_DIVERGED   task -> launcher when its replay diverges.
 *                   int ltid, str report.
 * PG_TAG_QUIT       launcher -> coordinator, beacon: exit now; also PVM ->
 *                   coordinator, beacon when the launcher exits
 *                   (pvm_notify).  int tid (the launcher's; to a beacon,
 *                   PG_QUIT_SWEEP when the run was stopped: the beacon
 *                   ends the run's processes left on its host first),
 *                   no version.
 * PG_TAG_EXITED     PVM -> launcher: a task exited (pvm_notify; int tid,
 *                   no version).
 * PG_TAG_EVENTS     task -> coordinator, only when PANGAEA_LIVE is set: a
 *                   batch of the task's logged events for live viewers
 *                   (also beacon -> coordinator: a batch of a task of
 *                   its host, read from its log; coordinator -> relay).
 *                   int ltid, int parent_ltid, str host, str program,
 *                   int nints, then nints ints: per event PG_LIVE_FIELDS
 *                   ints (kind, peer, tag, msgid, len, count (a group
 *                   event: its enum pg_group_op), ndest,
 *                   t0 wall ns high/low 32 bits, duration ns high/low)
 *                   followed by its ndest destination ltids.
 * PG_TAG_COLLECT    between a group's root and a member in pvm_reduce,
 *                   pvm_gather and pvm_scatter (collect.c).  int op (1
 *                   reduce, 2 gather, 3 scatter), int msgtag, int count,
 *                   int datatype, then the count values, packed with PVM's
 *                   typed packing of datatype.
 * PG_TAG_LOGFAIL    task -> launcher when a write of its logs failed
 *                   (disk full, ...): int ltid, int errno.  The task logs
 *                   nothing more; the launcher says so and ends the run.
 *                   (Task 0, the launcher, sends it to itself.)
 * PG_TAG_WATCH      task -> launcher after the app's pvm_notify(PvmTaskExit,
 *                   ...) (notify.c): the task handles those tasks' deaths
 *                   itself, so the launcher lets the run go on when one
 *                   of them dies while the watcher lives.
 *                   int ltid (the watcher), int msgtag (the notify's),
 *                   int cancel (1: PvmNotifyCancel, the watch ends),
 *                   int n, then n tids (watched).
 * PG_TAG_ENDTASK    a pvmd -> launcher: PVM's trace events (pvmtev.h) for
 *                   the tasks of the run, whose children's trace
 *                   destination the launcher set to itself in this
 *                   context: TEV_ENDTASK carries a task's wait status
 *                   (TEV_DID_TST), so a SIGKILL can be named.  PVM's own
 *                   layout, no version (toplevel/death.c reads it).
 * PG_TAG_KILLING    task -> launcher, before the app's pvm_kill of a task
 *                   of the run (kill.c):
 *                   int ltid (the killer), int tid (the victim).  A
 *                   question, answered by PG_TAG_ACK (int 0): the task
 *                   kills only after the answer.  The launcher hears of
 *                   the death through the victim's pvmd (EXITED, the
 *                   trace event) and, with PvmRouteDirect, the killer's
 *                   messages may come straight: no order holds between
 *                   the two paths, but the answer makes the launcher
 *                   know of the kill before the victim can die of it.
 *                   In replay the launcher answers once the victim has
 *                   reached the end of its recording (KILLWAIT) or ended,
 *                   so that it dies where it died when recorded.
 * PG_TAG_KILLWAIT   task -> launcher, in replay, when a call comes where
 *                   the task's recording ends with it killed by SIGTERM:
 *                   int ltid.  A question answered by PG_TAG_ANSWER, int
 *                   -1, only when no task of the recording killed it
 *                   with pvm_kill (or that task ended without doing it):
 *                   the call then diverges.  Otherwise no answer comes:
 *                   the task waits in the question until the replayed
 *                   pvm_kill ends it.
 * PG_TAG_OUTPUT     a pvmd -> launcher: the output of a task of the run
 *                   (PvmOutputTid/Context/Code, set by the launcher
 *                   before its spawns and inherited by every child).
 *                   PVM's own layout, no version: int tid, int n, then
 *                   n bytes if n > 0 (0: the task's output ended, -1 and
 *                   -2: it begins) (toplevel/output.c reads it).
 * PG_TAG_BEACON     beacon <-> launcher, every 250 ms each way: a
 *                   `pangaea-coord -beacon` on another host of the
 *                   virtual machine and the launcher are there
 *                   (toplevel/hosts.c, coordinator/beacon.c).  int ms:
 *                   the sender's clock when it sent it (the launcher's:
 *                   milliseconds since the run began), so that a beacon
 *                   can tell a late BEACON from a fresh one.
 * PG_TAG_HOSTADD    a pvmd -> launcher: hosts joined the virtual machine
 *                   in mid-run (pvm_notify(PvmHostAdd)).  PVM's layout,
 *                   no version: int n, then n pvmd tids.
 * PG_TAG_LOGS_ASK   launcher -> beacon after the run: send me the task
 *                   logs of this folder on your host.  str dir.  Answered
 *                   with LOGFILE messages, the last one's name "".
 * PG_TAG_LOGFILE    beacon <-> launcher: a piece of a task log (struct
 *                   pg_logpiece): str dir, str name, int size, int
 *                   offset, int n, then n bytes.  After the run, the
 *                   beacons send the logs their hosts hold (LOGS_ASK);
 *                   before a replay, the launcher sends a beacon the
 *                   recorded logs of the tasks that will run on its
 *                   host, and the beacon answers the final "" with one
 *                   of its own once they are written (pangaea_lib/pvm/ship.c).
 * PG_TAG_CLOCK      task -> coordinator: a clock ping (clocksample.c),
 *                   int seq, int 0, int 0; the coordinator answers at
 *                   once with PG_TAG_CLOCK: int seq, then its
 *                   CLOCK_REALTIME in ns, high and low 32 bits (the
 *                   run's reference clock).
 * PG_TAG_DEBUG      task -> launcher, in a replay with -debug, when the
 *                   task has come to the event it stops at: int ltid,
 *                   int pid, int event.  The task then waits for a
 *                   debugger (debug.c).  launcher -> task, the same
 *                   layout (pid 0, event -1), when the debugger the
 *                   launcher started has ended: a task still waiting
 *                   (the debugger could not attach) goes on.
 */
enum pg_tag {
	PG_TAG_HANDOVER = 0x50470001,
	PG_TAG_HELLO,
	PG_TAG_REGISTER,
	PG_TAG_SPAWNED,
	PG_TAG_ACK,
	PG_TAG_TID2LTID,
	PG_TAG_LTID2TID,
	PG_TAG_ANSWER,
	PG_TAG_DONE,
	PG_TAG_DIVERGED,
	PG_TAG_QUIT,
	PG_TAG_EXITED,
	PG_TAG_EVENTS,
	PG_TAG_COLLECT,
	PG_TAG_LOGFAIL,
	PG_TAG_WATCH,
	PG_TAG_ENDTASK,
	PG_TAG_KILLING,
	PG_TAG_KILLWAIT,
	PG_TAG_OUTPUT,
	PG_TAG_BEACON,
	PG_TAG_LOGS_ASK,
	PG_TAG_LOGFILE,
	PG_TAG_CLOCK,
	PG_TAG_DEBUG,
	PG_TAG_HOSTADD
};

/* QUIT's value to a beacon for "the run was stopped: sweep". */
#define PG_QUIT_SWEEP (-1)

/* The largest piece of a log in one LOGFILE message. */
#define PG_LOGPIECE_MAX (1 << 20)

/* PG_TAG_LOGFILE: a piece of a log carried between hosts. */
struct pg_logpiece {
	char dir[PG_PATH_MAX]; /* the log folder (the same path on each host) */
	char name[64];         /* task-LTID.comm or .exec; "" ends a transfer */
	int size;              /* of the whole file */
	int offset, n;         /* where the piece's N bytes go */
	const void *data;      /* sending: the bytes */
};

/* Bits of the handover flags. */
#define PG_FLAG_TOPLEVEL 0x1 /* spawned by the launcher: pvm_parent() hides it */
#define PG_FLAG_CHAOS 0x2    /* a chaos recording (-chaos; chaos.c) */

/* PG_TAG_HANDOVER: what a child learns of its run from its parent. */
struct pg_handover {
	int ltid, mode, coord_tid, launcher_tid, flags, delay_us;
	unsigned seed;
	char logdir[PG_PATH_MAX];
	char replaydir[PG_PATH_MAX];
	char select[PG_SELECT_MAX];
	char calib[PG_HOST_MAX + 48];
};

/* One task of PG_TAG_SPAWNED. */
struct pg_spawned_task {
	int ltid, tid;
	char host[PG_HOST_MAX];
	char program[PG_PATH_MAX];
};

/* The head of a PG_TAG_EVENTS batch: the task that sends it. */
struct pg_live_head {
	int ltid, parent_ltid;
	char host[PG_HOST_MAX];
	char program[PG_PATH_MAX];
};

/* The head of a PG_TAG_COLLECT message. */
struct pg_collect {
	int op;                   /* enum pg_collect_op */
	int msgtag, count, datatype;
};
enum pg_collect_op { PG_COLLECT_REDUCE = 1, PG_COLLECT_GATHER,
		     PG_COLLECT_SCATTER };

#endif /* PANGAEA_PROTOCOL_H */
