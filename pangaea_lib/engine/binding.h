/*
 * binding.h: the interface between the engine (pangaea_lib/engine: events,
 * logs, the replay decision point, queues, chaos, live) and a binding, the
 * folder that wraps one message-passing layer's calls (pangaea_lib/pvm
 * today; an MPI one would be pangaea_lib/mpi).  The engine names tasks by
 * ltid and, where it must hand the binding a sender or destination back,
 * by the binding's own address of it (PVM: a tid) as the binding gave it;
 * it names a received message by an opaque handle (PVM: a bufid).  It
 * reaches the message layer only through the table below, which the
 * binding fills and registers when its task joins a run (pg_binding_set):
 * the binding calls the engine, never the other way round.
 * docs/INTERNALS.md, "Bindings", says what each side guarantees.
 */
#ifndef PANGAEA_BINDING_H
#define PANGAEA_BINDING_H

#include <stdint.h>
#include <sys/time.h>

struct pg_live_head;
struct pg_names;

/* What the binding tells of a received message. */
struct pg_msginfo {
	int src;        /* the sender's address in the binding (PVM: tid) */
	int peer;       /* its ltid, or PG_PEER_FOREIGN / PG_PEER_SYSTEM */
	uint32_t msgid; /* its Pangaea id; a system notice's identity
			   (the ltid + 1 of the task it names, or 0) */
	int tag;
	uint32_t len;   /* bytes of app data */
};

/* senders(): the program matches messages itself (PVM's pvm_recvf). */
#define PG_SENDERS_OWN (-1)

/* The functions a binding implements.  Every one is called with the
 * task in a run (pg_me->mode set); "message" is a handle > 0. */
struct pg_binding {
	const char *name; /* "pvm", "mpi": for reports */
	/* The names of its calls in reports ("called pvm_recv(from=-1,
	 * tag=5)", "called MPI_Recv(...)": logs/format/names.c). */
	const struct pg_names *names;
	/* The layer's own error codes the engine returns to a wrapper:
	 * Pangaea could not do the call (a diverged replay, a failed log),
	 * and memory ran out. */
	int err_sys, err_nomem;
	/* The layer's own receive of KIND (PG_REC_RECV, _NRECV, _TRECV with
	 * TMOUT, _PROBE; PRECV as RECV) of a message from SRC (an address,
	 * -1 any) with TAG (-1 any) in the app's context, never Pangaea's;
	 * the message received (made current, as the layer's receive does),
	 * 0 when a poll found none, or < 0 the layer's error. */
	int (*recv)(int kind, int src, int tag, struct timeval *tmout);
	/* Who sent MESSAGE, its id, tag and length into *MI (the sender's
	 * ltid possibly asked of the coordinator); 0, or < 0. */
	int (*info)(int msg, struct pg_msginfo *mi);
	/* Makes MESSAGE (0: none) the program's current message, the one
	 * its unpack calls read; the one that was current (0 none). */
	int (*make_current)(int msg);
	/* Frees MESSAGE, received and no longer wanted. */
	void (*release)(int msg);
	/* Chaos's hold-back: takes in what has arrived, without receiving
	 * it, and writes the distinct senders (addresses, in arrival order,
	 * at most MAX) of the messages a receive of (any sender, TAG) would
	 * take into SRCS; their number, < 0 an error, or PG_SENDERS_OWN. */
	int (*senders)(int tag, int *srcs, int max);
	/* The ltid of the task at address SRC (asking the coordinator if
	 * needed); -1 when it is no task of the run. */
	int (*ltid_of)(int src);
	/* The address of task LTID (waits until it is spawned); < 0 error. */
	int (*addr_of)(int ltid);
	/* Sends Pangaea's fixed-int control message TAG (DONE, LOGFAIL,
	 * DEBUG, CLOCK, KILLWAIT ...: pangaea-protocol.h) with its ints V to
	 * the address TO (the launcher, the coordinator), apart from the
	 * app's traffic; >= 0, or < 0. */
	int (*send_ints)(int to, int tag, const int *v);
	/* Waits up to SECONDS (< 0 for ever, 0 a poll) for the control
	 * message TAG from FROM and unpacks its ints into V; 1, 0 none, < 0. */
	int (*recv_ints)(int from, int tag, int seconds, int *v);
	/* Sends the question TAG with V to TO and waits for its one-int
	 * REPLY_TAG answer into *ANSWER; 0 or < 0. */
	int (*ask)(int to, int tag, const int *v, int reply_tag, int *answer);
	/* Sends task LTID's divergence REPORT to the launcher TO. */
	int (*send_diverged)(int to, int ltid, const char *report);
	/* Sends a live batch of N ints of events of task H to the
	 * coordinator TO. */
	int (*send_events)(int to, const struct pg_live_head *h,
			   const int *ints, int n);
	/* Leaves the message layer, the task stopping (a diverged replay). */
	void (*leave)(void);
	/* Calibration (calib.c): a scratch message to stamp, > 0, or <= 0
	 * when there is none (then stamp is not called); free it with
	 * release. */
	int (*scratch)(void);
	/* Does to MESSAGE what stamping a sent message's id costs (its
	 * header read and written back), changing nothing. */
	void (*stamp)(int msg);
};

/* The binding in use: set through pg_binding_set only.  Until one is
 * set, every function fails (-1, 0 messages) or does nothing. */
extern const struct pg_binding *pg_bind;
/* Makes B (kept, not copied) the binding the engine calls. */
void pg_binding_set(const struct pg_binding *b);

#endif /* PANGAEA_BINDING_H */
