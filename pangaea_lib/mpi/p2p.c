/*
 * p2p.c: the point-to-point wrappers.  A send is an event (logged before
 * MPI sends it).  A receive or probe is logged with the message it got;
 * in replay a wildcard (MPI_ANY_SOURCE, MPI_ANY_TAG) becomes the
 * recorded source and tag, and MPI's non-overtaking rule then delivers
 * the recorded message.  An Irecv is numbered when posted; in replay a
 * wildcard one is posted with the source and tag its completion got in
 * the recording (reqs.c).  A failed MPI_Iprobe is counted and fails
 * again in replay without asking MPI.  Without a run (pgm_active() 0),
 * each goes straight to MPI.
 */
#include "pgmpi.h"

/* The state file says this rank blocks, since T (pg_now's clock, read
 * by the caller already: one clock read a call), in KIND (PG_REC_RECV,
 * _PROBE, _SEND) with the filter or destination (SRC, a rank of COMM,
 * and TAG), for the launcher's deadlock check; pg_state_unblock when it
 * returns. */
static void blocks(uint64_t t, int kind, MPI_Comm comm, int src, int tag)
{
	pg_state_block_at(t, pg_call_of(kind, 0),
			  src < 0 ? -1 : pgm_world_rank(comm, src),
			  tag == MPI_ANY_TAG ? -1 : tag, NULL, NULL);
}

/* Bytes of COUNT items of TYPE: the byte types' size without asking MPI
 * (a call of MPI's a send otherwise). */
static uint32_t bytes_of(int count, MPI_Datatype type)
{
	int size = 1;

	if (type != MPI_BYTE && type != MPI_CHAR && type != MPI_PACKED)
		PMPI_Type_size(type, &size);
	return count > 0 && size > 0 ? (uint32_t)count * (uint32_t)size : 0;
}

uint64_t pgm_send_event(int count, MPI_Datatype type, int dest, int tag,
			MPI_Comm comm)
{
	uint64_t t;

	pg_delay();
	pg_chaos_send();
	t = pg_now();
	if (dest != MPI_PROC_NULL)
		pgm_ev_send(pgm_world_rank(comm, dest), tag, pgm_comm_cid(comm),
			    bytes_of(count, type), t);
	return t;
}

#define SEND_WRAPPER(NAME)                                                  \
	int NAME(const void *buf, int count, MPI_Datatype type, int dest,   \
		 int tag, MPI_Comm comm)                                    \
	{                                                                   \
		int rc;                                                     \
		uint64_t t;                                                 \
		if (!pgm_active_in(comm))                                   \
			return P##NAME(buf, count, type, dest, tag, comm);  \
		t = pgm_send_event(count, type, dest, tag, comm);           \
		blocks(t, PG_REC_SEND, comm, dest, tag);                    \
		rc = P##NAME(buf, count, type, dest, tag, comm);            \
		pg_state_unblock();                                         \
		return rc;                                                  \
	}
SEND_WRAPPER(MPI_Send)
SEND_WRAPPER(MPI_Ssend)
SEND_WRAPPER(MPI_Bsend)
SEND_WRAPPER(MPI_Rsend)

/* Remembers the request R of a send (RECV 0) or a receive posted as
 * number POST with the filter (SRC, TAG) in COMM. */
static void remember(MPI_Request r, int recv, int post, int src, int tag,
		     MPI_Comm comm)
{
	struct pgm_req q = {
		.req = r, .recv = recv, .post = post, .tag = tag, .comm = comm,
		.src = src < 0 ? src : pgm_world_rank(comm, src),
		.shadow = MPI_REQUEST_NULL,
	};

	pgm_req_add(&q);
}

#define ISEND_WRAPPER(NAME)                                                 \
	int NAME(const void *buf, int count, MPI_Datatype type, int dest,   \
		 int tag, MPI_Comm comm, MPI_Request *req)                  \
	{                                                                   \
		int rc;                                                     \
		if (!pgm_active_in(comm))                                   \
			return P##NAME(buf, count, type, dest, tag, comm,   \
				       req);                                \
		pgm_send_event(count, type, dest, tag, comm);               \
		rc = P##NAME(buf, count, type, dest, tag, comm, req);       \
		if (rc == MPI_SUCCESS)                                      \
			remember(*req, 0, 0, 0, 0, comm);                   \
		return rc;                                                  \
	}
ISEND_WRAPPER(MPI_Isend)
ISEND_WRAPPER(MPI_Issend)
ISEND_WRAPPER(MPI_Ibsend)
ISEND_WRAPPER(MPI_Irsend)

/* Replay: turns the filter (*SRC, *TAG) of a receive of KIND in COMM
 * into the recorded message's (a rank of COMM). */
static void pin(int kind, MPI_Comm comm, int *src, int *tag)
{
	int ws, wt, s = *src < 0 ? *src : pgm_world_rank(comm, *src);

	pgm_ev_recv_expect(kind, s, *tag, &ws, &wt);
	*src = pgm_comm_rank(comm, ws);
	*tag = wt;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag,
	     MPI_Comm comm, MPI_Status *status)
{
	int s = src, g = tag, rc;
	MPI_Status st;
	uint64_t t;

	if (!pgm_active_in(comm) || src == MPI_PROC_NULL)
		return PMPI_Recv(buf, count, type, src, tag, comm, status);
	pg_delay();
	t = pg_now();
	if (pg_me->mode == PANGAEA_MODE_REPLAY) {
		pin(PG_REC_RECV, comm, &s, &g);
	} else if (src == MPI_ANY_SOURCE && pg_chaos_on() &&
		   pgm_chaos_pick(comm, tag, &st)) {
		s = st.MPI_SOURCE; /* -chaos: the sender it held back for */
		g = st.MPI_TAG;
	}
	blocks(t, PG_REC_RECV, comm, s, g);
	rc = PMPI_Recv(buf, count, type, s, g, comm, &st);
	pg_state_unblock();
	if (rc == MPI_SUCCESS)
		pgm_ev_recv_log(PG_REC_RECV, comm, src, tag, &st, t);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag,
	      MPI_Comm comm, MPI_Request *req)
{
	int s = src, g = tag, rc, post, ws, wt;

	if (!pgm_active_in(comm) || src == MPI_PROC_NULL)
		return PMPI_Irecv(buf, count, type, src, tag, comm, req);
	pg_delay();
	post = pgm_post_next();
	if (pg_me->mode == PANGAEA_MODE_REPLAY &&
	    (src == MPI_ANY_SOURCE || tag == MPI_ANY_TAG) &&
	    pgm_match_of(post, &ws, &wt)) {
		s = pgm_comm_rank(comm, ws);
		g = wt;
	}
	rc = PMPI_Irecv(buf, count, type, s, g, comm, req);
	if (rc == MPI_SUCCESS)
		remember(*req, 1, post, src, tag, comm);
	return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype,
		 int dest, int stag, void *rbuf, int rcount,
		 MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
		 MPI_Status *status)
{
	int s = src, g = rtag, rc;
	MPI_Status st;
	uint64_t t;

	if (!pgm_active_in(comm))
		return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf,
				     rcount, rtype, src, rtag, comm, status);
	pgm_send_event(scount, stype, dest, stag, comm);
	t = pg_now();
	if (pg_me->mode == PANGAEA_MODE_REPLAY && src != MPI_PROC_NULL)
		pin(PG_REC_RECV, comm, &s, &g);
	blocks(t, PG_REC_RECV, comm, s, g);
	rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount,
			   rtype, s, g, comm, &st);
	pg_state_unblock();
	if (rc == MPI_SUCCESS && src != MPI_PROC_NULL)
		pgm_ev_recv_log(PG_REC_RECV, comm, src, rtag, &st, t);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

/* Matched probes (MPI_Mprobe, MPI_Improbe; mpi4py's recv uses them):
 * the probe is the event, as MPI_Probe's, and pins a wildcard in replay;
 * the message it matched is then received by MPI_Mrecv or MPI_Imrecv,
 * which cannot take another one: their receive is logged, never pinned
 * (MPI_Imrecv's when it is posted: the probe's status already says what
 * it gets).  A message handle does not say its communicator: the probe
 * notes it, and its status. */

#define MCOMMS 16
static struct {
	MPI_Message msg;
	MPI_Comm comm;
	MPI_Status st;
} mcomms[MCOMMS];
static unsigned nmcomm;

/* Notes that MSG (just probed, with status ST) is a message of COMM. */
static void mcomm_note(MPI_Message msg, MPI_Comm comm, const MPI_Status *st)
{
	mcomms[nmcomm % MCOMMS].msg = msg;
	mcomms[nmcomm % MCOMMS].comm = comm;
	mcomms[nmcomm % MCOMMS].st = *st;
	nmcomm++;
}

/* The communicator of the probed message MSG, its probe's status into
 * *ST if ST; MPI_COMM_NULL when no probe of ours matched it (an
 * intercommunicator's, or forgotten). */
static MPI_Comm mcomm_of(MPI_Message msg, MPI_Status *st)
{
	for (unsigned i = 0; i < MCOMMS && i < nmcomm; i++) {
		unsigned k = (nmcomm - 1 - i) % MCOMMS;

		if (mcomms[k].msg == msg) {
			if (st)
				*st = mcomms[k].st;
			return mcomms[k].comm;
		}
	}
	return MPI_COMM_NULL;
}

/* A probe in a run: blocking (FLAG NULL) or a poll, of a matched message
 * (MSG) or not; MPI's return.  A poll's failure is counted; replay fails
 * it again, and turns a success into the blocking probe of the recorded
 * source and tag. */
static int probe(int src, int tag, MPI_Comm comm, int *flag,
		 MPI_Message *msg, MPI_Status *status)
{
	int s = src, g = tag, rc, one = 1, poll = flag != NULL;
	MPI_Status st;
	uint64_t t;

	/* (a poll that failed then fails now, at once: no -delay, as for a
	   test, complete.c) */
	if (pg_me->mode == PANGAEA_MODE_REPLAY && poll &&
	    pgm_ev_poll_failed()) {
		*flag = 0;
		return MPI_SUCCESS;
	}
	pg_delay();
	/* a poll's time is read only when it finds a message (in record):
	   most polls of a loop find none */
	t = poll && pg_me->mode != PANGAEA_MODE_REPLAY ? 0 : pg_now();
	if (!poll)
		flag = &one;
	if (pg_me->mode == PANGAEA_MODE_REPLAY || !poll) {
		if (pg_me->mode == PANGAEA_MODE_REPLAY)
			pin(PG_REC_PROBE, comm, &s, &g);
		blocks(t, PG_REC_PROBE, comm, s, g);
		rc = msg ? PMPI_Mprobe(s, g, comm, msg, &st)
			 : PMPI_Probe(s, g, comm, &st);
		pg_state_unblock();
		*flag = rc == MPI_SUCCESS;
	} else {
		rc = msg ? PMPI_Improbe(src, tag, comm, flag, msg, &st)
			 : PMPI_Iprobe(src, tag, comm, flag, &st);
	}
	if (rc != MPI_SUCCESS)
		return rc;
	if (!*flag) {
		pgm_ev_pollfail();
		return rc;
	}
	pgm_ev_recv_log(PG_REC_PROBE, comm, src, tag, &st, t ? t : pg_now());
	if (msg)
		mcomm_note(*msg, comm, &st);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *status)
{
	if (!pgm_active_in(comm) || src == MPI_PROC_NULL)
		return PMPI_Probe(src, tag, comm, status);
	return probe(src, tag, comm, NULL, NULL, status);
}

int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag,
	       MPI_Status *status)
{
	if (!pgm_active_in(comm) || src == MPI_PROC_NULL)
		return PMPI_Iprobe(src, tag, comm, flag, status);
	return probe(src, tag, comm, flag, NULL, status);
}

int MPI_Mprobe(int src, int tag, MPI_Comm comm, MPI_Message *msg,
	       MPI_Status *status)
{
	if (!pgm_active_in(comm) || src == MPI_PROC_NULL)
		return PMPI_Mprobe(src, tag, comm, msg, status);
	return probe(src, tag, comm, NULL, msg, status);
}

int MPI_Improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *msg,
		MPI_Status *status)
{
	if (!pgm_active_in(comm) || src == MPI_PROC_NULL)
		return PMPI_Improbe(src, tag, comm, flag, msg, status);
	return probe(src, tag, comm, flag, msg, status);
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg,
	      MPI_Status *status)
{
	MPI_Comm comm;
	MPI_Status st;
	int ws, wt, rc;
	uint64_t t;

	if (!pgm_active() || *msg == MPI_MESSAGE_NO_PROC ||
	    (comm = mcomm_of(*msg, NULL)) == MPI_COMM_NULL)
		return PMPI_Mrecv(buf, count, type, msg, status);
	pg_delay();
	t = pg_now();
	/* (the probe fixed the message: the filter is the one it matched,
	   compared as "any" by the engine) */
	if (pg_me->mode == PANGAEA_MODE_REPLAY)
		pgm_ev_recv_expect(PG_REC_RECV, MPI_ANY_SOURCE, MPI_ANY_TAG,
				   &ws, &wt);
	rc = PMPI_Mrecv(buf, count, type, msg, &st);
	if (rc == MPI_SUCCESS)
		pgm_ev_recv_log(PG_REC_RECV, comm, st.MPI_SOURCE, st.MPI_TAG,
				&st, t);
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg,
	       MPI_Request *req)
{
	MPI_Comm comm;
	MPI_Status st;
	int ws, wt, rc;
	uint64_t t;

	if (!pgm_active() || *msg == MPI_MESSAGE_NO_PROC ||
	    (comm = mcomm_of(*msg, &st)) == MPI_COMM_NULL)
		return PMPI_Imrecv(buf, count, type, msg, req);
	pg_delay();
	t = pg_now();
	if (pg_me->mode == PANGAEA_MODE_REPLAY)
		pgm_ev_recv_expect(PG_REC_RECV, MPI_ANY_SOURCE, MPI_ANY_TAG,
				   &ws, &wt);
	rc = PMPI_Imrecv(buf, count, type, msg, req);
	if (rc == MPI_SUCCESS) /* (its request completes as any other) */
		pgm_ev_recv_log(PG_REC_RECV, comm, st.MPI_SOURCE, st.MPI_TAG,
				&st, t);
	return rc;
}
