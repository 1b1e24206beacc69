/*
 * fortran.c: the Fortran entry points of Open MPI (mpif.h and `use mpi`,
 * gfortran's names: mpi_send_ ...).  Open MPI's own, in libmpi_mpifh,
 * call PMPI_* straight past the C wrappers; these, preloaded before it,
 * convert the handles (MPI_Comm_f2c, MPI_Type_f2c, MPI_Request_f2c ...),
 * the statuses (MPI_Status_c2f), the indices (Fortran counts from 1) and
 * the sentinels (MPI_STATUS_IGNORE, MPI_BOTTOM, MPI_IN_PLACE are the
 * addresses of common blocks of libmpi) and call the C wrappers of this
 * binding, which record and replay as for a C program.  A call this file
 * does not have goes to Open MPI as it is.  `use mpi_f08` comes here
 * too, through the names of its library's calls (the end of this file);
 * its MPI_Wtime is C's.
 */
#include "pgmpi.h"

#include <stdlib.h>

typedef MPI_Fint F;

/* libmpi's common blocks: the addresses a Fortran program passes for
 * MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE, MPI_BOTTOM, MPI_IN_PLACE */
extern F mpi_fortran_status_ignore_[], mpi_fortran_statuses_ignore_[];
extern F mpi_fortran_bottom_, mpi_fortran_in_place_;

/* The C buffer of the Fortran buffer B (the sentinels made C's). */
static void *fbuf(void *b)
{
	if (b == (void *)&mpi_fortran_bottom_)
		return MPI_BOTTOM;
	if (b == (void *)&mpi_fortran_in_place_)
		return MPI_IN_PLACE;
	return b;
}

/* The C status to fill for the Fortran status FS: C's MPI_STATUS_IGNORE
 * for the Fortran sentinel, else CS. */
static MPI_Status *cstat(F *fs, MPI_Status *cs)
{
	return fs == mpi_fortran_status_ignore_ ? MPI_STATUS_IGNORE : cs;
}

/* The C status CS into the Fortran status FS (unless ignored) when RC
 * is MPI_SUCCESS; RC into *IERR. */
static void fdone(int rc, F *ierr, F *fs, MPI_Status *cs)
{
	if (rc == MPI_SUCCESS && fs && fs != mpi_fortran_status_ignore_)
		PMPI_Status_c2f(cs, fs);
	*ierr = rc;
}

/* ---- init, end, time ---- */

void mpi_init_(F *ierr)
{
	int argc = 0;
	char **argv = NULL;

	*ierr = MPI_Init(&argc, &argv);
}

void mpi_init_thread_(F *required, F *provided, F *ierr)
{
	int argc = 0, p = 0;
	char **argv = NULL;

	*ierr = MPI_Init_thread(&argc, &argv, *required, &p);
	*provided = p;
}

void mpi_finalize_(F *ierr)
{
	*ierr = MPI_Finalize();
}

double mpi_wtime_(void)
{
	return MPI_Wtime();
}

/* ---- point to point ---- */

/* The blocking sends: mpi_send_, mpi_ssend_, mpi_rsend_, mpi_bsend_ */
#define FSEND(fname, cname)                                              \
	void fname(void *buf, F *count, F *type, F *dest, F *tag,       \
		   F *comm, F *ierr)                                     \
	{                                                                \
		*ierr = cname(fbuf(buf), *count, PMPI_Type_f2c(*type),  \
			      *dest, *tag, PMPI_Comm_f2c(*comm));       \
	}
FSEND(mpi_send_, MPI_Send)
FSEND(mpi_ssend_, MPI_Ssend)
FSEND(mpi_rsend_, MPI_Rsend)
FSEND(mpi_bsend_, MPI_Bsend)

/* The non-blocking sends (mpi_isend_ ...) and the persistent ones' inits:
 * the same arguments */
#define FISEND(fname, cname)                                             \
	void fname(void *buf, F *count, F *type, F *dest, F *tag,       \
		   F *comm, F *req, F *ierr)                             \
	{                                                                \
		MPI_Request r = MPI_REQUEST_NULL;                        \
		*ierr = cname(fbuf(buf), *count, PMPI_Type_f2c(*type),  \
			      *dest, *tag, PMPI_Comm_f2c(*comm), &r);   \
		if (*ierr == MPI_SUCCESS)                                \
			*req = PMPI_Request_c2f(r);                      \
	}
FISEND(mpi_isend_, MPI_Isend)
FISEND(mpi_issend_, MPI_Issend)
FISEND(mpi_irsend_, MPI_Irsend)
FISEND(mpi_ibsend_, MPI_Ibsend)

void mpi_recv_(void *buf, F *count, F *type, F *src, F *tag, F *comm,
	       F *st, F *ierr)
{
	MPI_Status cs;

	fdone(MPI_Recv(fbuf(buf), *count, PMPI_Type_f2c(*type), *src, *tag,
		       PMPI_Comm_f2c(*comm), cstat(st, &cs)), ierr, st, &cs);
}

/* The receives that make a request: mpi_irecv_, mpi_recv_init_ (the
 * same arguments as the non-blocking sends', a source for the
 * destination) */
#define FIRECV(fname, cname) FISEND(fname, cname)
FIRECV(mpi_irecv_, MPI_Irecv)
FIRECV(mpi_recv_init_, MPI_Recv_init)

void mpi_sendrecv_(void *sbuf, F *scount, F *stype, F *dest, F *stag,
		   void *rbuf, F *rcount, F *rtype, F *src, F *rtag, F *comm,
		   F *st, F *ierr)
{
	MPI_Status cs;

	fdone(MPI_Sendrecv(fbuf(sbuf), *scount, PMPI_Type_f2c(*stype), *dest,
			   *stag, fbuf(rbuf), *rcount, PMPI_Type_f2c(*rtype),
			   *src, *rtag, PMPI_Comm_f2c(*comm), cstat(st, &cs)),
	      ierr, st, &cs);
}

void mpi_probe_(F *src, F *tag, F *comm, F *st, F *ierr)
{
	MPI_Status cs;

	fdone(MPI_Probe(*src, *tag, PMPI_Comm_f2c(*comm), cstat(st, &cs)),
	      ierr, st, &cs);
}

void mpi_iprobe_(F *src, F *tag, F *comm, F *flag, F *st, F *ierr)
{
	MPI_Status cs;
	int f = 0;

	fdone(MPI_Iprobe(*src, *tag, PMPI_Comm_f2c(*comm), &f,
			 cstat(st, &cs)), ierr, f ? st : NULL, &cs);
	*flag = f != 0;
}

/* ---- persistent requests ---- */

FISEND(mpi_send_init_, MPI_Send_init)
FISEND(mpi_ssend_init_, MPI_Ssend_init)
FISEND(mpi_rsend_init_, MPI_Rsend_init)
FISEND(mpi_bsend_init_, MPI_Bsend_init)

void mpi_start_(F *req, F *ierr)
{
	MPI_Request r = PMPI_Request_f2c(*req);

	*ierr = MPI_Start(&r);
}

void mpi_startall_(F *n, F *fr, F *ierr)
{
	/* (one at a time, as MPI_Startall's wrapper does) */
	*ierr = MPI_SUCCESS;
	for (int i = 0; i < *n && *ierr == MPI_SUCCESS; i++)
		mpi_start_(&fr[i], ierr);
}

void mpi_request_free_(F *req, F *ierr)
{
	MPI_Request r = PMPI_Request_f2c(*req);

	*ierr = MPI_Request_free(&r);
	if (*ierr == MPI_SUCCESS)
		*req = PMPI_Request_c2f(r);
}

/* ---- completion ---- */

void mpi_wait_(F *req, F *st, F *ierr)
{
	MPI_Request r = PMPI_Request_f2c(*req);
	MPI_Status cs;

	fdone(MPI_Wait(&r, cstat(st, &cs)), ierr, st, &cs);
	if (*ierr == MPI_SUCCESS)
		*req = PMPI_Request_c2f(r);
}

void mpi_test_(F *req, F *flag, F *st, F *ierr)
{
	MPI_Request r = PMPI_Request_f2c(*req);
	MPI_Status cs;
	int f = 0;

	fdone(MPI_Test(&r, &f, cstat(st, &cs)), ierr, f ? st : NULL, &cs);
	if (*ierr == MPI_SUCCESS)
		*req = PMPI_Request_c2f(r);
	*flag = f != 0;
}

/* The N Fortran requests FR as C ones (malloc'ed), and in *ST room for
 * N C statuses after them, or MPI_STATUSES_IGNORE when the Fortran
 * statuses FST are NULL or ignored; NULL when out of memory. */
static MPI_Request *creqs(int n, const F *fr, MPI_Status **st, F *fst)
{
	int ignore = !fst || fst == mpi_fortran_statuses_ignore_;
	MPI_Request *r = malloc(sizeof(*r) * (size_t)(n > 0 ? n : 1) +
				(ignore ? 0 : sizeof(MPI_Status) * (size_t)n));

	if (!r)
		return NULL;
	for (int i = 0; i < n; i++)
		r[i] = PMPI_Request_f2c(fr[i]);
	*st = ignore ? MPI_STATUSES_IGNORE : (MPI_Status *)(r + n);
	return r;
}

/* Back: the N C requests R into FR, the first K statuses ST into FST
 * (unless ignored), RC into *IERR; frees R. */
static void freqs(int rc, F *ierr, int n, MPI_Request *r, F *fr,
		  MPI_Status *st, F *fst, int k)
{
	size_t fsz = sizeof(MPI_Status) / sizeof(F);

	if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) {
		for (int i = 0; i < n; i++)
			fr[i] = PMPI_Request_c2f(r[i]);
		for (int i = 0; st != MPI_STATUSES_IGNORE && i < k; i++)
			PMPI_Status_c2f(&st[i], fst + fsz * (size_t)i);
	}
	*ierr = rc;
	free(r);
}

void mpi_waitall_(F *n, F *fr, F *fst, F *ierr)
{
	MPI_Status *st;
	MPI_Request *r = creqs(*n, fr, &st, fst);

	if (!r) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	freqs(MPI_Waitall(*n, r, st), ierr, *n, r, fr, st, fst, *n);
}

void mpi_testall_(F *n, F *fr, F *flag, F *fst, F *ierr)
{
	MPI_Status *st;
	MPI_Request *r = creqs(*n, fr, &st, fst);
	int f = 0;

	if (!r) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	freqs(MPI_Testall(*n, r, &f, st), ierr, *n, r, fr, st, fst,
	      f ? *n : 0);
	*flag = f != 0;
}

/* mpi_waitany_ (WAIT, FLAG NULL) and mpi_testany_. */
static void any(int wait, F *n, F *fr, F *idx, F *flag, F *fst, F *ierr)
{
	MPI_Status cs, *st = cstat(fst, &cs), *dummy;
	MPI_Request *r = creqs(*n, fr, &dummy, NULL);
	int i = MPI_UNDEFINED, f = 1, rc;

	if (!r) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	rc = wait ? MPI_Waitany(*n, r, &i, st) : MPI_Testany(*n, r, &i, &f, st);
	freqs(rc, ierr, *n, r, fr, MPI_STATUSES_IGNORE, NULL, 0);
	if (rc == MPI_SUCCESS && f && i != MPI_UNDEFINED)
		fdone(rc, ierr, fst, &cs);
	*idx = i == MPI_UNDEFINED ? MPI_UNDEFINED : i + 1;
	if (flag)
		*flag = f != 0;
}

void mpi_waitany_(F *n, F *fr, F *idx, F *fst, F *ierr)
{
	any(1, n, fr, idx, NULL, fst, ierr);
}

void mpi_testany_(F *n, F *fr, F *idx, F *flag, F *fst, F *ierr)
{
	any(0, n, fr, idx, flag, fst, ierr);
}

/* mpi_waitsome_ (WAIT) and mpi_testsome_. */
static void some(int wait, F *n, F *fr, F *outc, F *idx, F *fst, F *ierr)
{
	MPI_Status *st;
	MPI_Request *r = creqs(*n, fr, &st, fst);
	int *ci = malloc(sizeof(int) * (size_t)(*n > 0 ? *n : 1)), k = 0, rc;

	if (!r || !ci) {
		free(r);
		free(ci);
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	rc = wait ? MPI_Waitsome(*n, r, &k, ci, st)
		  : MPI_Testsome(*n, r, &k, ci, st);
	freqs(rc, ierr, *n, r, fr, st, fst,
	      k == MPI_UNDEFINED ? 0 : k);
	*outc = k;
	for (int i = 0; k != MPI_UNDEFINED && i < k; i++)
		idx[i] = ci[i] + 1;
	free(ci);
}

void mpi_waitsome_(F *n, F *fr, F *outc, F *idx, F *fst, F *ierr)
{
	some(1, n, fr, outc, idx, fst, ierr);
}

void mpi_testsome_(F *n, F *fr, F *outc, F *idx, F *fst, F *ierr)
{
	some(0, n, fr, outc, idx, fst, ierr);
}

/* ---- collectives ---- */

void mpi_barrier_(F *comm, F *ierr)
{
	*ierr = MPI_Barrier(PMPI_Comm_f2c(*comm));
}

void mpi_bcast_(void *buf, F *count, F *type, F *root, F *comm, F *ierr)
{
	*ierr = MPI_Bcast(fbuf(buf), *count, PMPI_Type_f2c(*type), *root,
			  PMPI_Comm_f2c(*comm));
}

void mpi_reduce_(void *sb, void *rb, F *count, F *type, F *op, F *root,
		 F *comm, F *ierr)
{
	*ierr = MPI_Reduce(fbuf(sb), fbuf(rb), *count, PMPI_Type_f2c(*type),
			   PMPI_Op_f2c(*op), *root, PMPI_Comm_f2c(*comm));
}

void mpi_allreduce_(void *sb, void *rb, F *count, F *type, F *op, F *comm,
		    F *ierr)
{
	*ierr = MPI_Allreduce(fbuf(sb), fbuf(rb), *count, PMPI_Type_f2c(*type),
			      PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm));
}

/* The collectives of two buffers: mpi_gather_, mpi_scatter_ (with a
 * root), mpi_allgather_, mpi_alltoall_ (without) */
#define FROOTED(fname, cname)                                            \
	void fname(void *sb, F *sc, F *st, void *rb, F *rc, F *rt,      \
		   F *root, F *comm, F *ierr)                            \
	{                                                                \
		*ierr = cname(fbuf(sb), *sc, PMPI_Type_f2c(*st),        \
			      fbuf(rb), *rc, PMPI_Type_f2c(*rt), *root, \
			      PMPI_Comm_f2c(*comm));                     \
	}
#define FALL(fname, cname)                                               \
	void fname(void *sb, F *sc, F *st, void *rb, F *rc, F *rt,      \
		   F *comm, F *ierr)                                     \
	{                                                                \
		*ierr = cname(fbuf(sb), *sc, PMPI_Type_f2c(*st),        \
			      fbuf(rb), *rc, PMPI_Type_f2c(*rt),        \
			      PMPI_Comm_f2c(*comm));                     \
	}
FROOTED(mpi_gather_, MPI_Gather)
FROOTED(mpi_scatter_, MPI_Scatter)
FALL(mpi_allgather_, MPI_Allgather)
FALL(mpi_alltoall_, MPI_Alltoall)

/* ---- communicators (comms.c: their contexts) ---- */

void mpi_comm_dup_(F *comm, F *newcomm, F *ierr)
{
	MPI_Comm c = MPI_COMM_NULL;

	*ierr = MPI_Comm_dup(PMPI_Comm_f2c(*comm), &c);
	if (*ierr == MPI_SUCCESS)
		*newcomm = PMPI_Comm_c2f(c);
}

void mpi_comm_split_(F *comm, F *color, F *key, F *newcomm, F *ierr)
{
	MPI_Comm c = MPI_COMM_NULL;

	*ierr = MPI_Comm_split(PMPI_Comm_f2c(*comm), *color, *key, &c);
	if (*ierr == MPI_SUCCESS)
		*newcomm = PMPI_Comm_c2f(c);
}

void mpi_comm_create_(F *comm, F *group, F *newcomm, F *ierr)
{
	MPI_Comm c = MPI_COMM_NULL;

	*ierr = MPI_Comm_create(PMPI_Comm_f2c(*comm), PMPI_Group_f2c(*group),
				&c);
	if (*ierr == MPI_SUCCESS)
		*newcomm = PMPI_Comm_c2f(c);
}

void mpi_comm_idup_(F *comm, F *newcomm, F *req, F *ierr)
{
	MPI_Comm c = MPI_COMM_NULL;
	MPI_Request r = MPI_REQUEST_NULL;

	*ierr = MPI_Comm_idup(PMPI_Comm_f2c(*comm), &c, &r);
	if (*ierr == MPI_SUCCESS) {
		*newcomm = PMPI_Comm_c2f(c);
		*req = PMPI_Request_c2f(r);
	}
}

void mpi_comm_create_group_(F *comm, F *group, F *tag, F *newcomm, F *ierr)
{
	MPI_Comm c = MPI_COMM_NULL;

	*ierr = MPI_Comm_create_group(PMPI_Comm_f2c(*comm),
				      PMPI_Group_f2c(*group), *tag, &c);
	if (*ierr == MPI_SUCCESS)
		*newcomm = PMPI_Comm_c2f(c);
}

/* ---- `use mpi_f08` ----
 * Open MPI's mpi_f08 module (libmpi_usempif08) passes the same Fortran
 * handles (an f08 handle's MPI_VAL), statuses and sentinels as mpif.h,
 * but not to mpi_NAME_: to libmpi_mpifh's ompi_NAME_f (of which its
 * mpi_NAME_ is an alias) and, for the tests and MPI_Iprobe, to its
 * pmpi_NAME_.  Those names are aliases of this file's entries here, so
 * an f08 program is recorded and replayed as an mpif.h one.  (A Fortran
 * profiling tool of the user's that wraps mpi_test_ and calls pmpi_test_
 * comes to mpi_test_ here: the call is recorded once.) */
#define F08(name, other) \
	extern __typeof__(name) other __attribute__((alias(#name)));
F08(mpi_allgather_, ompi_allgather_f)
F08(mpi_allreduce_, ompi_allreduce_f)
F08(mpi_alltoall_, ompi_alltoall_f)
F08(mpi_barrier_, ompi_barrier_f)
F08(mpi_bcast_, ompi_bcast_f)
F08(mpi_bsend_, ompi_bsend_f)
F08(mpi_bsend_init_, ompi_bsend_init_f)
F08(mpi_comm_create_, ompi_comm_create_f)
F08(mpi_comm_create_group_, ompi_comm_create_group_f)
F08(mpi_comm_dup_, ompi_comm_dup_f)
F08(mpi_comm_idup_, ompi_comm_idup_f)
F08(mpi_comm_split_, ompi_comm_split_f)
F08(mpi_finalize_, ompi_finalize_f)
F08(mpi_gather_, ompi_gather_f)
F08(mpi_ibsend_, ompi_ibsend_f)
F08(mpi_init_, ompi_init_f)
F08(mpi_init_thread_, ompi_init_thread_f)
F08(mpi_irecv_, ompi_irecv_f)
F08(mpi_irsend_, ompi_irsend_f)
F08(mpi_isend_, ompi_isend_f)
F08(mpi_issend_, ompi_issend_f)
F08(mpi_probe_, ompi_probe_f)
F08(mpi_recv_, ompi_recv_f)
F08(mpi_recv_init_, ompi_recv_init_f)
F08(mpi_reduce_, ompi_reduce_f)
F08(mpi_request_free_, ompi_request_free_f)
F08(mpi_rsend_, ompi_rsend_f)
F08(mpi_rsend_init_, ompi_rsend_init_f)
F08(mpi_scatter_, ompi_scatter_f)
F08(mpi_send_, ompi_send_f)
F08(mpi_send_init_, ompi_send_init_f)
F08(mpi_sendrecv_, ompi_sendrecv_f)
F08(mpi_ssend_, ompi_ssend_f)
F08(mpi_ssend_init_, ompi_ssend_init_f)
F08(mpi_start_, ompi_start_f)
F08(mpi_startall_, ompi_startall_f)
F08(mpi_wait_, ompi_wait_f)
F08(mpi_waitall_, ompi_waitall_f)
F08(mpi_waitany_, ompi_waitany_f)
F08(mpi_waitsome_, ompi_waitsome_f)
F08(mpi_iprobe_, pmpi_iprobe_)
F08(mpi_test_, pmpi_test_)
F08(mpi_testall_, pmpi_testall_)
F08(mpi_testany_, pmpi_testany_)
F08(mpi_testsome_, pmpi_testsome_)
