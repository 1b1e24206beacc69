/*
 * coll.c: the collectives as events (PG_Q_MPI_COLL: the call's name, its
 * root as a world rank, this rank's bytes).  Their outcome is MPI's and
 * the same in every run, but for a reduction's floating-point order,
 * which is MPI's algorithm's; replay checks that the program makes the
 * recorded collectives with the recorded roots.  The non-blocking ones
 * (MPI_Ibarrier ...) are events when they are started, under their own
 * names; their requests complete as any other, through MPI_Test* and
 * MPI_Wait* (complete.c), whose outcomes are recorded and replayed.
 */
#include "pgmpi.h"

/* The event of collective NAME of COUNT items of TYPE with ROOT (a rank
 * of COMM, -1 none). */
static void coll_event(const char *name, int count, MPI_Datatype type,
		       int root, MPI_Comm comm)
{
	int size = 0;
	uint64_t t;

	pg_delay();
	t = pg_now();
	if (type != MPI_DATATYPE_NULL)
		PMPI_Type_size(type, &size);
	pgm_ev_coll(name, root < 0 ? -1 : pgm_world_rank(comm, root),
		    count * size, t);
}

/* The event of blocking collective NAME (coll_event's arguments), the
 * rank then blocked in it. */
static void coll(const char *name, int count, MPI_Datatype type, int root,
		 MPI_Comm comm)
{
	coll_event(name, count, type, root, comm);
	/* (the launcher's deadlock check; the wrapper unblocks) */
	pg_state_block(pg_call_of(PG_REC_CALL, PG_Q_MPI_COLL), -1, -1, name,
		       NULL);
}

/* MPI's return RC of a collective, the rank no longer blocked in it. */
static int done(int rc)
{
	pg_state_unblock();
	return rc;
}

int MPI_Barrier(MPI_Comm comm)
{
	if (pgm_active_in(comm))
		coll("MPI_Barrier", 0, MPI_DATATYPE_NULL, -1, comm);
	return done(PMPI_Barrier(comm));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
	      MPI_Comm comm)
{
	if (pgm_active_in(comm))
		coll("MPI_Bcast", count, type, root, comm);
	return done(PMPI_Bcast(buf, count, type, root, comm));
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
	       MPI_Op op, int root, MPI_Comm comm)
{
	if (pgm_active_in(comm))
		coll("MPI_Reduce", count, type, root, comm);
	return done(PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm));
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	if (pgm_active_in(comm))
		coll("MPI_Allreduce", count, type, -1, comm);
	return done(PMPI_Allreduce(sbuf, rbuf, count, type, op, comm));
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
	       int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
	if (pgm_active_in(comm))
		coll("MPI_Gather", sbuf == MPI_IN_PLACE ? rcount : scount,
		     sbuf == MPI_IN_PLACE ? rtype : stype, root, comm);
	return done(PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root,
			   comm));
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype,
		void *rbuf, int rcount, MPI_Datatype rtype, int root,
		MPI_Comm comm)
{
	if (pgm_active_in(comm))
		coll("MPI_Scatter", rbuf == MPI_IN_PLACE ? scount : rcount,
		     rbuf == MPI_IN_PLACE ? stype : rtype, root, comm);
	return done(PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root,
			    comm));
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype,
		  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
	if (pgm_active_in(comm))
		coll("MPI_Allgather", sbuf == MPI_IN_PLACE ? rcount : scount,
		     sbuf == MPI_IN_PLACE ? rtype : stype, -1, comm);
	return done(PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype,
		 void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
	if (pgm_active_in(comm))
		coll("MPI_Alltoall", scount, stype, -1, comm);
	return done(PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}

/* ---- the non-blocking collectives: an event when started ---- */

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
	if (pgm_active_in(comm))
		coll_event("MPI_Ibarrier", 0, MPI_DATATYPE_NULL, -1, comm);
	return PMPI_Ibarrier(comm, req);
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root,
	       MPI_Comm comm, MPI_Request *req)
{
	if (pgm_active_in(comm))
		coll_event("MPI_Ibcast", count, type, root, comm);
	return PMPI_Ibcast(buf, count, type, root, comm, req);
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
		MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
	if (pgm_active_in(comm))
		coll_event("MPI_Ireduce", count, type, root, comm);
	return PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req);
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count,
		   MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		   MPI_Request *req)
{
	if (pgm_active_in(comm))
		coll_event("MPI_Iallreduce", count, type, -1, comm);
	return PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req);
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype,
		void *rbuf, int rcount, MPI_Datatype rtype, int root,
		MPI_Comm comm, MPI_Request *req)
{
	if (pgm_active_in(comm))
		coll_event("MPI_Igather", sbuf == MPI_IN_PLACE ? rcount : scount,
			   sbuf == MPI_IN_PLACE ? rtype : stype, root, comm);
	return PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root,
			    comm, req);
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype,
		 void *rbuf, int rcount, MPI_Datatype rtype, int root,
		 MPI_Comm comm, MPI_Request *req)
{
	if (pgm_active_in(comm))
		coll_event("MPI_Iscatter", rbuf == MPI_IN_PLACE ? scount : rcount,
			   rbuf == MPI_IN_PLACE ? stype : rtype, root, comm);
	return PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root,
			     comm, req);
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype,
		   void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
		   MPI_Request *req)
{
	if (pgm_active_in(comm))
		coll_event("MPI_Iallgather", sbuf == MPI_IN_PLACE ? rcount : scount,
			   sbuf == MPI_IN_PLACE ? rtype : stype, -1, comm);
	return PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm,
			       req);
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype,
		  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
		  MPI_Request *req)
{
	if (pgm_active_in(comm))
		coll_event("MPI_Ialltoall", scount, stype, -1, comm);
	return PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm,
			      req);
}
