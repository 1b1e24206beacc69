/*
 * persist.c: persistent requests.  MPI_Send_init and MPI_Recv_init (and
 * the other send modes' _init) make a request that each MPI_Start (or
 * MPI_Startall) starts again and a Test/Wait completes, leaving it
 * inactive rather than null.  The binding keeps it (reqs.c) for its
 * life: a start of a send is a send event; a start of a receive gets a
 * new receive post number, as an Irecv does, so its completions are
 * recorded and replayed by complete.c as an Irecv's.  In replay a
 * started receive is not MPI's persistent request (whose filter was
 * fixed at its _init) but an Irecv posted in its stead with the source
 * and tag the recording's completion of that post got (its shadow,
 * which complete.c waits for); the program's handle stays inactive in
 * MPI, as the recording's was after completing.
 */
#include "pgmpi.h"

/* Remembers the persistent request R of COMM: a receive (RECV) with the
 * filter (PEER, TAG), or a send to PEER with TAG, of COUNT items of
 * TYPE at BUF. */
static void keep(MPI_Request r, int recv, void *buf, int count,
		 MPI_Datatype type, int peer, int tag, MPI_Comm comm)
{
	struct pgm_req q = {
		.req = r, .recv = recv, .tag = tag, .comm = comm,
		.persist = 1, .peer = peer, .buf = buf, .count = count,
		.type = type, .shadow = MPI_REQUEST_NULL,
		.src = recv && peer >= 0 ? pgm_world_rank(comm, peer) : peer,
	};

	pgm_req_add(&q);
}

#define SEND_INIT_WRAPPER(NAME)                                             \
	int NAME(const void *buf, int count, MPI_Datatype type, int dest,   \
		 int tag, MPI_Comm comm, MPI_Request *req)                  \
	{                                                                   \
		int rc = P##NAME(buf, count, type, dest, tag, comm, req);   \
		if (rc == MPI_SUCCESS && pgm_active_in(comm))               \
			keep(*req, 0, (void *)buf, count, type, dest, tag,  \
			     comm);                                         \
		return rc;                                                  \
	}
SEND_INIT_WRAPPER(MPI_Send_init)
SEND_INIT_WRAPPER(MPI_Ssend_init)
SEND_INIT_WRAPPER(MPI_Bsend_init)
SEND_INIT_WRAPPER(MPI_Rsend_init)

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int src, int tag,
		  MPI_Comm comm, MPI_Request *req)
{
	int rc = PMPI_Recv_init(buf, count, type, src, tag, comm, req);

	if (rc == MPI_SUCCESS && pgm_active_in(comm) && src != MPI_PROC_NULL)
		keep(*req, 1, buf, count, type, src, tag, comm);
	return rc;
}

/* Starts the persistent receive R: a new post; in replay its shadow
 * Irecv, with the recorded source and tag when the filter is a
 * wildcard; MPI's return. */
static int start_recv(MPI_Request *req, struct pgm_req *r)
{
	int s = r->src < 0 ? r->src : pgm_comm_rank(r->comm, r->src);
	int g = r->tag, ws, wt;

	pg_delay();
	r->post = pgm_post_next();
	if (pg_me->mode != PANGAEA_MODE_REPLAY)
		return PMPI_Start(req);
	if ((r->src == MPI_ANY_SOURCE || r->tag == MPI_ANY_TAG) &&
	    pgm_match_of(r->post, &ws, &wt)) {
		s = pgm_comm_rank(r->comm, ws);
		g = wt;
	}
	return PMPI_Irecv(r->buf, r->count, r->type, s, g, r->comm, &r->shadow);
}

int MPI_Start(MPI_Request *req)
{
	struct pgm_req *r;
	int rc;

	if (!pgm_active() || !(r = pgm_req_find(*req)) || !r->persist)
		return PMPI_Start(req);
	if (r->recv) {
		rc = start_recv(req, r);
	} else {
		pgm_send_event(r->count, r->type, r->peer, r->tag, r->comm);
		rc = PMPI_Start(req);
	}
	if (rc == MPI_SUCCESS)
		r->started = 1;
	return rc;
}

int MPI_Startall(int n, MPI_Request reqs[])
{
	int rc = MPI_SUCCESS;

	if (!pgm_active())
		return PMPI_Startall(n, reqs);
	/* (one at a time, in order: what Startall means) */
	for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
		rc = MPI_Start(&reqs[i]);
	return rc;
}

int MPI_Request_free(MPI_Request *req)
{
	struct pgm_req r;

	if (pgm_active() && *req != MPI_REQUEST_NULL)
		pgm_req_take(*req, &r);
	return PMPI_Request_free(req);
}
