/*
 * pgmpi.h: the MPI binding of the engine (pangaea_lib/mpi), built into
 * libpangaea-mpi.so, which the launcher preloads into every rank of an
 * MPI program (`pangaea -log mpirun ...`).  Its files, top to bottom (a
 * file calls only rows below its own; docs/INTERNALS.md, "The MPI
 * binding"):
 *
 *   fortran.c           Open MPI's Fortran entry points (mpi_send_ ...)
 *                       converted and handed to the C wrappers below
 *   persist.c           persistent requests: MPI_Send_init, Recv_init,
 *                       Start, Startall, Request_free
 *   complete.c coll.c   MPI_Test*, MPI_Wait* (which requests completed);
 *                       the collectives as events
 *   wtime.c             MPI_Wtime through the clock replay
 *   p2p.c               sends, receives, probes, Sendrecv, Isend, Irecv
 *   event.c             the events of a rank: sends, receives, polls,
 *                       outcomes, logged or checked against the recording
 *   comms.c             communicators as contexts: their numbers
 *   reqs.c              the rank's pending requests; receive post numbers
 *                       and the recorded matches of wildcard Irecvs
 *   spawn.c             MPI_Comm_spawn, _spawn_multiple: the children's
 *                       ltids; MPI_Comm_disconnect, MPI_Comm_free
 *   init.c              MPI_Init, MPI_Finalize: joining and leaving a run;
 *                       the engine's table of MPI functions
 *   inter.c             the intercommunicators to spawned ranks: the
 *                       ltids of their remote groups
 *
 * A task is a rank of MPI_COMM_WORLD: ltid = rank + 1 (the launcher is
 * ltid 0, as for PVM); the ranks MPI_Comm_spawn makes are children of
 * their spawner (the root) as PVM spawns are: the k-th is its ltid *
 * 1000 + k.  An address (binding.h) is an ltid - 1 (for the launcher's
 * ranks, the world rank; "world rank" below means that address).  No
 * message id travels with a message: a message's id is its number in the
 * channel (sender, receiver, tag), which both ends count alike because
 * MPI never lets two messages of one channel overtake each other.
 */
#ifndef PANGAEA_MPI_H
#define PANGAEA_MPI_H

#include <mpi.h>

#include "engine.h"

/* The environment the launcher gives every rank (toplevel/mpirun.c). */
#define PGM_ENV_MODE "PANGAEA_MPI"         /* "record" or "replay" */
#define PGM_ENV_LOGDIR "PANGAEA_MPI_LOGDIR"   /* where the rank logs */
#define PGM_ENV_REPLAYDIR "PANGAEA_MPI_REPLAYDIR" /* the recording */
/* Given by MPI_Comm_spawn's wrapper to the ranks it starts (its info's
 * "env"): rank R of their world is ltid BASE + R + 1. */
#define PGM_ENV_BASE "PANGAEA_MPI_BASE"

/* MPI_Test*, MPI_Wait*: struct pg_event.arg of a PG_Q_MPI_DONE record. */
enum pgm_done_call {
	PGM_TEST = 1, PGM_TESTANY, PGM_TESTSOME, PGM_TESTALL,
	PGM_WAIT, PGM_WAITANY, PGM_WAITSOME, PGM_WAITALL
};

/* init.c */
/* The world rank of rank R of COMM (R < 0: R itself: MPI_ANY_SOURCE,
 * MPI_PROC_NULL). */
int pgm_world_rank(MPI_Comm comm, int r);
/* The rank in COMM of world rank W, or MPI_PROC_NULL. */
int pgm_comm_rank(MPI_Comm comm, int w);
/* Whether this rank is in a run: recording or replaying. */
int pgm_active(void);
/* comms.c: the context number of COMM (0 for MPI_COMM_WORLD and for
 * communicators not made by a wrapped collective), alike on every
 * member; a channel of messages is per context. */
uint32_t pgm_comm_cid(MPI_Comm comm);
/* Whether its calls on COMM are recorded or replayed: in a run, and COMM
 * an intracommunicator or an intercommunicator of inter.c (others, such
 * as MPI_Comm_connect's, go to MPI as they are). */
int pgm_active_in(MPI_Comm comm);
/* Chaos recording: holds back a wildcard receive of TAG in COMM and
 * picks the sender by the run's priorities (pg_chaos_recv); 1 with the
 * status of the picked message (still to receive) in *ST, 0 none. */
int pgm_chaos_pick(MPI_Comm comm, int tag, MPI_Status *st);

/* inter.c: the intercommunicators to and from spawned ranks. */
/* Learns the ltids of the remote group of the intercommunicator COMM
 * (new, not yet used: a collective over it), this rank being LTID; 0 or
 * -1. */
int pgm_inter_connect(MPI_Comm comm, int ltid);
/* Forgets COMM (freed or disconnected); nothing if not known. */
void pgm_inter_forget(MPI_Comm comm);
/* Whether COMM is an intercommunicator of inter.c. */
int pgm_inter_known(MPI_Comm comm);
/* The address (ltid - 1) of remote rank R of COMM (R < 0: R) into *ADDR;
 * 1, or 0 when COMM is not known. */
int pgm_inter_addr(MPI_Comm comm, int r, int *addr);
/* The remote rank of COMM with address ADDR (MPI_PROC_NULL none) into
 * *R; 1, or 0 when COMM is not known. */
int pgm_inter_rank(MPI_Comm comm, int addr, int *r);
/* The remote group's size of COMM; 0 when not known. */
int pgm_inter_size(MPI_Comm comm);

/* reqs.c: pending requests. */
struct pgm_req {
	MPI_Request req;   /* the handle the program holds */
	int recv;          /* 1 a receive, 0 a send */
	int post;          /* receive: its number among this rank's
			      receives (1, 2, ...) */
	int src, tag;      /* receive: the filter as posted (world rank or
			      MPI_ANY_SOURCE; tag or MPI_ANY_TAG); a
			      persistent send: its tag */
	MPI_Comm comm;
	/* persistent requests (MPI_Send_init, MPI_Recv_init: persist.c) */
	int persist;       /* 1: it stays after completing, inactive */
	int started;       /* started (MPI_Start), not yet completed */
	int peer;          /* a send's destination, a rank of COMM */
	void *buf;         /* the buffer, count and type as initialised */
	int count;
	MPI_Datatype type;
	MPI_Request shadow; /* replay, a started receive: the Irecv posted
			       in its stead with the recorded filter */
};
/* Remembers request R; 0 or -1. */
int pgm_req_add(const struct pgm_req *r);
/* Takes out the request with handle H into *R; 1, 0 none. */
int pgm_req_take(MPI_Request h, struct pgm_req *r);
/* Looks up the request with handle H; NULL when it is not ours. */
struct pgm_req *pgm_req_find(MPI_Request h);
/* The request with handle H has completed: its entry into *R, taken
 * out, or kept and made inactive when persistent; 1, 0 none. */
int pgm_req_done(MPI_Request h, struct pgm_req *r);
/* Whether H is an active request: not null, and not a persistent one
 * of ours that is not started (MPI ignores those, as null ones). */
int pgm_req_active(MPI_Request h);
/* The next receive post number. */
int pgm_post_next(void);
/* Replay: reads this rank's recording (DIR, LTID) for the sources and
 * tags its wildcard Irecvs got, by post number; 0, or -1 with ERR. */
int pgm_matches_load(const char *dir, int ltid, char *err, size_t n);
/* The recorded (world source, tag) of post POST; 1, 0 none recorded. */
int pgm_match_of(int post, int *src, int *tag);
/* Counts a message of the channel (PEER world rank, TAG, context CID:
 * pgm_comm_cid), sent (SEND 1) or received; its message id.  PEEK: the
 * id without counting. */
uint32_t pgm_channel_id(int send, int peer, int tag, uint32_t cid, int peek);

/* p2p.c */
/* The send event of COUNT items of TYPE to DEST of COMM with TAG (the
 * delay, chaos's too, before it); nothing for MPI_PROC_NULL.  Its time
 * (pg_now), which the caller's state file entry reuses. */
uint64_t pgm_send_event(int count, MPI_Datatype type, int dest, int tag,
			MPI_Comm comm);

/* event.c: the events of this rank. */
/* A send of BYTES to world rank DEST with TAG in context CID, entered at
 * T: checked against the recording in replay, then logged (stops the
 * rank at a divergence). */
void pgm_ev_send(int dest, int tag, uint32_t cid, uint32_t bytes,
		 uint64_t t);
/* Replay: the recorded receive (KIND: PG_REC_RECV, _NRECV, _PROBE) for
 * the filter (SRC world rank or MPI_ANY_SOURCE, TAG or MPI_ANY_TAG):
 * its world source and tag into *WSRC, *WTAG (stops at a divergence);
 * SRC and TAG themselves where the recording ends blocked in it. */
void pgm_ev_recv_expect(int kind, int src, int tag, int *wsrc, int *wtag);
/* Logs the receive (KIND) of the message of STATUS in COMM by the filter
 * (SRC, TAG) entered at T (a probe: the message stays). */
void pgm_ev_recv_log(int kind, MPI_Comm comm, int src, int tag,
		     const MPI_Status *st, uint64_t t);
/* A poll (test, iprobe) that found nothing: counted. */
void pgm_ev_pollfail(void);
/* Replay: whether the next recorded event is a failed poll (then it is
 * counted off, and logged again); 1 or 0. */
int pgm_ev_poll_failed(void);
/* The outcome of a Test / Wait call CALL (enum pgm_done_call) over N
 * requests: the K completed (index, post number) pairs PAIRS, entered
 * at T: logged; in replay checked, and the recorded pairs into PAIRS
 * (room for N), their number returned. */
int pgm_ev_done(int call, int n, int *pairs, int k, uint64_t t);
/* A collective NAME with ROOT (-1 none) and BYTES, entered at T. */
void pgm_ev_coll(const char *name, int root, int bytes, uint64_t t);

#endif /* PANGAEA_MPI_H */
