/*
 * pangaea-internal.h: libpangaea with its PVM binding (pangaea_lib/pvm),
 * for the binding's own files and for the programs that link the library
 * without being an app (the launcher, which is the run's task 0, and the
 * coordinator).  The engine below it has its own header, engine.h.
 *
 * The binding's layers, top to bottom (a file calls only rows below its
 * own, and any of the engine's; docs/INTERNALS.md, "Layers"):
 *
 *   init.c task0.c            joining and leaving a run (app, launcher)
 *   wrap.c spawn.c            the wrappers of the PVM calls
 *     group.c answers.c mbox.c
 *     collect.c notify.c kill.c
 *   binding.c stdin.c         the engine's table of PVM functions;
 *                             task 1's standard input
 *   ids.c proto.c ship.c      tid <-> ltid; the protocol layer; task
 *     pvm.c pvmtmp.c mhead.c  logs between hosts; PVM helpers and files;
 *                             a message's header in libpvm
 *   --- the engine (engine.h): no PVM below this line ---
 */
#ifndef PANGAEA_INTERNAL_H
#define PANGAEA_INTERNAL_H

#define PANGAEA_NO_WRAP /* the library calls the real PVM functions */
#include "pangaea.h"
#include "engine.h"

#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>

/* PVM's tid layout (pvm3 src/global.h): a task's tid has neither of the
 * top bits and a nonzero local part. */
#define PG_TID_PVMD 0x80000000u  /* set in the tid of a pvmd */
#define PG_TID_GID 0x40000000u   /* a multicast address */
#define PG_TID_LOCAL 0x0003ffffu /* the task's part on its host */

/* ------------------------------------------------------------------ */
/* pvm.c: small helpers around PVM's own calls. */

/* "PVM error CODE, TEXT" (PVM's own text of CODE) in a static buffer. */
const char *pg_pvm_errtext(int code);
/* In a process that is not a task of the run (the launcher, the
 * coordinator) into which a user preloaded libpangaea.so by hand
 * (LD_PRELOAD with PVM_EXPORT=LD_PRELOAD): tells the library to let
 * every PVM call of this process pass through.  Call it first in main. */
void pg_pvm_stand_aside(void);
/* Host name of the host TID runs on, into BUF ("?" if unknown). */
void pg_pvm_host_of(int tid, char *buf, size_t n);
/* The same from the NHOST HOSTS of one pvm_config (for several tids). */
void pg_pvm_host_in(const struct pvmhostinfo *hosts, int nhost, int tid,
		    char *buf, size_t n);
/* Bytes of one item of the PVM data type DT, or a negative PVM error. */
int pg_pvm_item_size(int dt);
/* Packs (PACK) or unpacks COUNT items of type DT at BUF with PVM's
 * typed (XDR) packing; >= 0, or a PVM error. */
int pg_pvm_pack(int pack, void *buf, int count, int dt);
/* Calls PVM's own receive function of KIND (recv, nrecv, trecv, probe;
 * precv receives as recv); what it returns.  Inline: every receive
 * passes here, most of them a recv. */
static inline int pg_pvm_recv(int kind, int tid, int tag,
			      struct timeval *tmout)
{
	switch (kind) {
	case PG_REC_NRECV: return pvm_nrecv(tid, tag);
	case PG_REC_TRECV: return pvm_trecv(tid, tag, tmout);
	case PG_REC_PROBE: return pvm_probe(tid, tag);
	default: return pvm_recv(tid, tag);
	}
}

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
/* Tells the coordinator COORD about the N children T of PARENT_LTID
 * and, if WAIT, waits for its ACK; the coordinator's status (0, or < 0),
 * or without WAIT 0 once sent (the ACK comes later, to be taken by the
 * caller's message loop). */
int pg_proto_tell_spawned(int coord, int parent_ltid,
			  const struct pg_spawned_task *t, int n, int wait);
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

/* ------------------------------------------------------------------ */
/* ids.c: what this task knows of tid <-> ltid, and what it asks the
 * coordinator. */

/* Remembers that TID is LTID. */
void pg_ids_learn(int tid, int ltid);
/* LTID of TID, asking the coordinator if needed; -1 not a Pangaea task. */
int pg_ltid_of(int tid);
/* TID of LTID, asking the coordinator (waits until it is spawned); <0 error. */
int pg_tid_of(int ltid);
/* TID of LTID if this task knows it already (asks nobody), else 0. */
int pg_tid_known(int ltid);
/* Peer of a received message from SRC with the wait-id field WID: the
 * sender's ltid, or PG_PEER_FOREIGN / PG_PEER_SYSTEM for messages
 * without a Pangaea id (WID 0). */
static inline int pg_peer_of(int src, int wid)
{
	if (wid)
		return pg_ltid_of(src);
	return ((unsigned)src & PG_TID_PVMD) ? PG_PEER_SYSTEM : PG_PEER_FOREIGN;
}
/* Identifies a pvmd's message BUFID (a pvm_notify notice names a task in
 * its first int): that task's ltid + 1, or 0.  Leaves BUFID rewound. */
uint32_t pg_system_ident(int bufid);

/* mhead.c: a message's header in libpvm, read and written in place once
 * it has agreed with pvm_getminfo (else through the public calls). */

/* pvm_getsbuf: the active send buffer's id, <= 0 if none; then its
 * length (pvm_getminfo's len) into *LEN. */
int pg_mhead_sbuf(uint32_t *len);
/* pvm_getminfo of BUFID into MI; 0, or PVM's error. */
int pg_mhead_info(int bufid, struct pvmminfo *mi);
/* Sets the wait-id field of BUFID's header (the message id) to ID. */
void pg_mhead_set_id(int bufid, uint32_t id);
/* Whether a message that libpvm's own matcher gives a receive from TID
 * with TAG (-1 any), and with the message id ID (0 any), has arrived
 * already (in libpvm's queue): then pvm_recv returns at once.  0 when
 * not known (before the header has agreed with pvm_getminfo).  A
 * program's own matcher (pvm_recvf) is not asked. */
int pg_mhead_arrived(int tid, int tag, uint32_t id);
/* The binding's info() (binding.h) of the received message BUFID: its
 * sender, id, tag and length, the sender as an ltid (read in place when
 * it is the active receive buffer); 0, or -1. */
int pg_mhead_msginfo(int bufid, struct pg_msginfo *m);

/* binding.c: registers PVM's table of the engine's binding interface
 * (binding.h) when a task joins (init.c, task0.c). */
void pg_pvm_bind(void);

/* init.c: at the join, when the task's tracer is the launcher
 * LAUNCHER_TID (its pvmd's TEV_ENDTASK only), turns libpvm's own trace
 * tests off (pvmtoplvl), as nobody traces the task's calls; a program
 * that gives itself another tracer turns them back on (pvm_setopt). */
void pg_tracer_quiet(int launcher_tid);

/* ------------------------------------------------------------------ */
/* stdin.c: task 1's standard input. */
/* At join, in task 1 only: puts the launcher's standard input (the
 * socket PANGAEA_STDIN names) on fd 0; without it, or if it cannot be
 * reached (said on stderr), fd 0 stays what PVM gave (/dev/null). */
void pg_stdin_attach(void);

/* ------------------------------------------------------------------ */
/* answers.c: calls recorded with their answers (PG_REC_CALL), for answers.c
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
/* Has task 0's first spawn call START once the programs' tids are
 * given (a coordinator the launcher starts itself then enrolls after
 * them: their tids are those of every run), then measure task 0's
 * logging cost, then call WAIT, which returns the coordinator's tid,
 * made task 0's coordinator (< 0: none came; the launcher says so and
 * ends the run), before the children are told of and handed over.
 * NULL, NULL: nothing awaited. */
void pg_task0_await_coordinator(int (*start)(void), int (*wait)(void));
/* In task 0's spawn (spawn.c): START's coordinator, if one is awaited,
 * with CALIBRATE (task 0's measure) run while it starts. */
void pg_task0_coordinator_ready(void (*calibrate)(void));
/* Has task 0's spawns on its own host start their tasks with STARTER
 * instead of pvm_spawn (NULL: pvm_spawn again): it is given the spawn's
 * FILE, ARGV and NTASK and fills TIDS as pvm_spawn does (its return). */
typedef int pg_task0_starter(const char *file, char **argv, int ntask,
			     int *tids);
void pg_task0_set_starter(pg_task0_starter *starter);
/* A spawn of this task (pvm_spawn's arguments and return): through the
 * starter when one is set (only the launcher sets one), NTASK is 1
 * (pvm_siblings would tell copies started one by one apart) and WHERE
 * names no host (NULL, "" or ours), else pvm_spawn. */
int pg_task0_spawn(char *file, char **argv, int flags, char *where,
		   int ntask, int *tids);
/* The report when replaying the launcher's own spawns diverged, or NULL. */
const char *pg_task0_diverged(void);
/* Closes task 0's logs and recording. */
void pg_task0_close(void);

#endif /* PANGAEA_INTERNAL_H */
