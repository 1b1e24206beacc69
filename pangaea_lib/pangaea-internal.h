/*
 * pangaea-internal.h: state and helpers shared by the files of libpangaea
 * and by the launcher, which runs as the run's task 0.
 */
#ifndef PANGAEA_INTERNAL_H
#define PANGAEA_INTERNAL_H

#define PANGAEA_NO_WRAP /* the library calls the real PVM functions */
#include "pangaea.h"
#include "pangaea-protocol.h"
#include "pangaea-logs.h"

#include <stdint.h>
#include <sys/types.h>

#define PG_LTID_FANOUT 1000 /* child ltid = parent * 1000 + k, k < 1000 */

/* A received message kept aside until replay hands it out. */
struct pg_qmsg {
	int bufid;
	int src_tid;
	int src_ltid;
	uint32_t msgid;
	int tag;
};

/* The out-of-order queue of replay (arrival order). */
struct pg_queue {
	struct pg_qmsg *v;
	int n, cap;
};

/* An int -> int hash map (open addressing). */
struct pg_imap {
	int *keys;
	int *vals;
	unsigned char *used;
	int cap, n;
};

/* tid <-> ltid pairs this task has learnt. */
struct pg_ids {
	struct pg_imap by_tid;
	struct pg_imap by_ltid;
};

/* A run-time selection of what is logged (select.c). */
#define PG_SELECT_INTS 64
#define PG_SELECT_NAMES 8
struct pg_select {
	int active;               /* anything selected at all */
	int ntags, tags[PG_SELECT_INTS];
	int nltids, ltids[PG_SELECT_INTS];
	int nprogs;
	char progs[PG_SELECT_NAMES][64];
};

/* Everything one task knows about its run. */
struct pg_state {
	int mode;                 /* enum pangaea_mode */
	int ltid, parent_ltid;
	int mytid, parent_tid;
	int ctx;                  /* Pangaea's message context */
	int coord_tid, launcher_tid;
	int flags;                /* PG_FLAG_* from the handover */
	int delay_us;             /* random delay before each call, 0 = off */
	unsigned rng;             /* state of the delay generator */
	uint32_t next_msgid;      /* id of the last message sent */
	int nchildren;            /* children spawned so far (ltid suffix) */
	int spawn_seq;            /* spawn calls so far */
	uint32_t poll_fails;      /* failed polls not yet written */
	uint64_t start_mono;      /* CLOCK_MONOTONIC at init, ns */
	uint64_t start_wall;      /* CLOCK_REALTIME read with it, ns */
	uint64_t nevents;         /* events logged */
	int ended;
	/* Task 0 (the launcher) handles its own divergence: pg_diverge calls
	 * this with the report instead of ending the process; it must not
	 * return (the launcher jumps back and stops the run). */
	void (*diverge_hook)(const char *report);
	int suspended;            /* PANGAEA_RECORD | PANGAEA_REPLAY bits */
	int task_selected;        /* this task's events are logged at all */
	struct pg_select sel;     /* the run's -select */
	char select[PG_SELECT_MAX]; /* ... as text ("" = everything) */
	char logdir[PG_PATH_MAX];
	char replaydir[PG_PATH_MAX];
	char program[PG_PATH_MAX];
	char host[PG_HOST_MAX];
	struct pg_comm_writer comm;
	int exec_fd;
	struct pg_ids ids;
	/* replay */
	struct pg_comm_reader rlog;
	struct pg_event next;     /* next recorded event (valid if have_next) */
	int have_next;
	uint64_t rindex;          /* number of recorded events consumed */
	uint32_t fails_left;      /* failures left in the current poll-fail record */
	struct pg_exec_log rexec;
	int rexec_pos;
	struct pg_queue queue;
};

extern struct pg_state pg;

/* channel.c: Pangaea's own messages, kept apart from the app's. */
struct pg_chan_saved {
	int ctx, sbuf, rbuf;
};
/* Switches to Pangaea's context, setting the app's buffers aside. */
void pg_chan_enter(struct pg_chan_saved *s);
/* Frees Pangaea's buffers and gives the app back its context and buffers. */
void pg_chan_leave(struct pg_chan_saved *s);
/* Starts a message (version packed); bufid or negative PVM error. */
int pg_chan_initsend(void);
/* Sends the current message to TID with TAG; 0 or negative PVM error. */
int pg_chan_send(int tid, int tag);
/* Receives TAG from TID (-1 any), checking the version; bufid or < 0. */
int pg_chan_recv(int tid, int tag);
/* Like pg_chan_recv with a timeout in seconds; 0 on timeout. */
int pg_chan_trecv(int tid, int tag, int seconds);
/* Packs a C string. */
int pg_pkstr(const char *s);
/* Unpacks a string into BUF of N bytes. */
int pg_upkstr(char *buf, size_t n);

/* ids.c: tid <-> ltid translation. */
/* Remembers that TID is LTID. */
void pg_ids_add(struct pg_ids *ids, int tid, int ltid);
/* LTID of TID if known here, else -2. */
int pg_ids_lookup(const struct pg_ids *ids, int tid);
/* TID of LTID if known here, else 0. */
int pg_ids_lookup_ltid(const struct pg_ids *ids, int ltid);
/* Frees the tables. */
void pg_ids_free(struct pg_ids *ids);
/* LTID of TID, asking the coordinator if needed; -1 not a Pangaea task. */
int pg_ltid_of(int tid);
/* TID of LTID, asking the coordinator (waits until it is spawned); <0 error. */
int pg_tid_of(int ltid);

/* events.c: logging. */
/* Monotonic time in ns since the task's start. */
uint64_t pg_now(void);
/* Sleeps a random 0..delay_us microseconds when delay injection is on. */
void pg_delay(void);
/* Appends EV to the communication log, writing pending poll failures first. */
void pg_log(struct pg_event *ev);
/* Logs a successful receive of BUFID by the call KIND started at T0. */
void pg_log_recv(int kind, int bufid, uint64_t t0);
/* Writes the end record (once) and closes the logs. */
void pg_log_end(int how, int value);

/* live.c: events for a live viewer (only when PANGAEA_LIVE is set). */
/* Copies EV, just logged, into the batch for the coordinator. */
void pg_live_event(const struct pg_event *ev);
/* Sends the batch if the last one went long enough ago (wrapped calls). */
void pg_live_tick(void);
/* Sends the batch now (pangaea_exit; not from a signal handler). */
void pg_live_flush(void);

/* select.c */
/* Parses a selection ("tag=5,7 ltid=1 program=racy"); 0, or -1 with ERR. */
int pg_select_parse(const char *spec, struct pg_select *sel, char *err,
		    size_t errlen);
/* Writes SEL in its canonical text form into BUF. */
void pg_select_format(const struct pg_select *sel, char *buf, size_t n);
/* Whether the task LTID running PROGRAM is selected. */
int pg_select_task(const struct pg_select *sel, int ltid, const char *program);
/* Whether messages with TAG (a receive's filter, -1 = any) are selected. */
int pg_select_tag(const struct pg_select *sel, int tag);
/* Whether a send or receive with TAG is logged (record) or followed
 * (replay) now: task selected, tag selected, not suspended. */
int pg_logged(int tag);

/* wrap.c */
/* Bytes of one item of the PVM data type DT, or a negative PVM error. */
int pg_item_size(int dt);
/* Peer of a received message: the sender's ltid, or PG_PEER_FOREIGN /
 * PG_PEER_SYSTEM for messages without a Pangaea id. */
int pg_peer_of(const struct pvmminfo *mi);
/* Identifies a pvmd's message BUFID (a pvm_notify notice names a task in
 * its first int): that task's ltid + 1, or 0.  Leaves BUFID rewound. */
uint32_t pg_system_ident(int bufid);
/* Calls PVM's own receive function of KIND (recv, nrecv, trecv, probe;
 * precv receives as recv). */
int pg_real_recv(int kind, int tid, int tag, struct timeval *tmout);
/* Sends the active buffer as one message (one id) to the N tids, logging
 * it as KIND (send, psend, mcast or bcast to GROUP); PVM's return. */
int pg_send_logged(int kind, const int *tids, int n, int tag,
		   const char *group);

/* replay.c */
/* Peeks at the next recorded event; 1, or 0 at the end of the log. */
int pg_replay_peek(struct pg_event *ev);
/* Consumes the event returned by pg_replay_peek. */
void pg_replay_take(void);
/* Stops a diverged replay: reports, logs, and exits the task. */
void pg_diverge(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Replays a receive call of KIND (PG_REC_*, or 0 for pvm_probe). */
int pg_replay_recv(int kind, int tid, int tag);
/* Opens the recorded logs of this task; 0 or -1 with a message. */
int pg_replay_open(char *err, size_t errlen);
/* A receive call of KIND outside replay control (suspended or not
 * selected): messages already queued come first, then PVM's. */
int pg_replay_free_recv(int kind, int tid, int tag, struct timeval *tmout);

/* queue.c */
/* Appends M; 0 or -1. */
int pg_queue_push(struct pg_queue *q, const struct pg_qmsg *m);
/* Index of the message from SRC_LTID with MSGID, or -1. */
int pg_queue_find(const struct pg_queue *q, int src_ltid, uint32_t msgid);
/* Removes entry I, returning it. */
struct pg_qmsg pg_queue_remove(struct pg_queue *q, int i);
/* Frees the queue (not the PVM buffers). */
void pg_queue_free(struct pg_queue *q);

/* spawn.c */
/* Host name of the host TID runs on, into BUF. */
void pg_host_of(int tid, char *buf, size_t n);
/* Sends the handover to a child; 0 or < 0. */
int pg_handover(int tid, int ltid, int flags);
/* Records and reports a finished spawn call. */
int pg_spawn_finish(struct pg_spawn_rec *rec, int *tids, uint64_t t0);

/* pvmerr.c */
/* "PVM error CODE, TEXT" (PVM's own text of CODE) in a static buffer. */
const char *pg_pvm_errtext(int code);

/* pvmtmp.c */
/* The folder of PVM's temporary files: $PVM_TMP, or /tmp. */
const char *pg_pvmtmp_dir(void);
/* Removes the pvmtmpPPPPPP.N files (and sockets) of process PID that
 * belong to our uid, by a scan of the folder: for a pvmd known dead.
 * Returns how many it removed. */
int pg_pvmtmp_clear(pid_t pid);
/* Removes pvmtmp<our pid>.0 .. .(PG_PVMTMP_OWN - 1), the names libpvm
 * tries first, without a scan; call it before the first PVM call (nothing
 * of ours can be there yet).  Returns how many it removed. */
#define PG_PVMTMP_OWN 8
int pg_pvmtmp_clear_own(void);

/* init.c */
/* Sets up a task's state from the handover; 0 or < 0. */
int pg_state_open(char *err, size_t errlen);
/* Sends DONE (how, value) to the launcher. */
void pg_tell_done(int how, int value);

#endif /* PANGAEA_INTERNAL_H */
