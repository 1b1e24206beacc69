/*
 * complete.c: MPI_Test, Testany, Testsome, Testall, Wait, Waitany,
 * Waitsome, Waitall.  Which requests completed, and in which order, is
 * one event (PG_Q_MPI_DONE: per request its index and receive post
 * number), followed by the receive event of each completed receive; a
 * test that completed nothing is a failed poll, counted.  Replay does
 * not ask MPI what is done: it fails the recorded failed tests again,
 * and waits (MPI_Wait) for exactly the requests the recording completed,
 * in the recorded order.  An array whose requests are all null is
 * MPI's business alone (its outcome is fixed), in every mode.
 */
#include "pgmpi.h"

#include <stdlib.h>
#include <string.h>

/* Whether CALL is a test (a poll) rather than a wait. */
static int is_test(int call)
{
	return call <= PGM_TESTALL;
}

/* What a call gives back: its completed requests in order. */
struct outcome {
	int k;             /* how many */
	int *idx;          /* their indices (room for n) */
	MPI_Status *st;    /* their statuses, in the same order */
};

/* MPI's own call CALL over the N requests REQS; its completed requests
 * into *O; MPI's return. */
static int call_mpi(int call, int n, MPI_Request *reqs, struct outcome *o)
{
	int rc, flag = 0, index = MPI_UNDEFINED, out = 0;
	MPI_Status *all = o->st;
	MPI_Request *before = NULL;

	o->k = 0;
	switch (call) {
	case PGM_TEST:
		rc = PMPI_Test(reqs, &flag, &o->st[0]);
		if (flag)
			o->idx[o->k++] = 0;
		return rc;
	case PGM_WAIT:
		rc = PMPI_Wait(reqs, &o->st[0]);
		o->idx[o->k++] = 0;
		return rc;
	case PGM_TESTANY:
	case PGM_WAITANY:
		rc = call == PGM_TESTANY
			? PMPI_Testany(n, reqs, &index, &flag, &o->st[0])
			: PMPI_Waitany(n, reqs, &index, &o->st[0]);
		if (index != MPI_UNDEFINED)
			o->idx[o->k++] = index;
		return rc;
	case PGM_TESTSOME:
	case PGM_WAITSOME:
		rc = call == PGM_TESTSOME
			? PMPI_Testsome(n, reqs, &out, o->idx, o->st)
			: PMPI_Waitsome(n, reqs, &out, o->idx, o->st);
		o->k = out == MPI_UNDEFINED ? 0 : out;
		return rc;
	default:
		break;
	}
	/* Testall, Waitall: statuses by index, then put in order */
	if (!(before = malloc((size_t)n * sizeof(*before))) ||
	    !(all = malloc((size_t)n * sizeof(*all)))) {
		free(before);
		return MPI_ERR_NO_MEM; /* (nothing completed: none lost) */
	}
	memcpy(before, reqs, (size_t)n * sizeof(*before));
	rc = call == PGM_TESTALL ? PMPI_Testall(n, reqs, &flag, all)
				 : PMPI_Waitall(n, reqs, all);
	if (call == PGM_WAITALL || flag)
		for (int i = 0; i < n; i++)
			if (pgm_req_active(before[i])) {
				o->idx[o->k] = i;
				o->st[o->k++] = all[i];
			}
	free(before);
	free(all);
	return rc;
}

/* Replay: waits for the K recorded requests of PAIRS among REQS, into
 * *O. */
static int call_recorded(const int *pairs, int k, MPI_Request *reqs,
			 struct outcome *o)
{
	int rc = MPI_SUCCESS;

	o->k = 0;
	for (int j = 0; j < k; j++) {
		int i = pairs[2 * j], r;
		struct pgm_req *q = pgm_req_find(reqs[i]);

		/* (a persistent receive started as an Irecv: persist.c) */
		if (q && q->persist && q->shadow != MPI_REQUEST_NULL)
			r = PMPI_Wait(&q->shadow, &o->st[j]);
		else
			r = PMPI_Wait(&reqs[i], &o->st[j]);
		if (r != MPI_SUCCESS)
			rc = r;
		o->idx[o->k++] = i;
	}
	return rc;
}

/* The receive events of the completed requests of O, whose handles were
 * SAVED (by index), completed by a test (TEST) or a wait, at T (after
 * the outcome's record: a task's events never go back in time). */
static void log_receives(const struct outcome *o, const MPI_Request *saved,
			 int test, uint64_t t)
{
	int kind = test ? PG_REC_NRECV : PG_REC_RECV;

	for (int j = 0; j < o->k; j++) {
		struct pgm_req r;
		int ws, wt;

		if (!pgm_req_done(saved[o->idx[j]], &r) || !r.recv)
			continue;
		if (pg_me->mode == PANGAEA_MODE_REPLAY)
			pgm_ev_recv_expect(kind, r.src, r.tag, &ws, &wt);
		pgm_ev_recv_log(kind, r.comm, r.src, r.tag, &o->st[j], t);
	}
}

/* The call CALL over the N requests REQS in a run, its completed
 * requests into *O; MPI's return. */
static int complete(int call, int n, MPI_Request *reqs, struct outcome *o)
{
	MPI_Request small[16], *saved = small;
	int spairs[32], *pairs = spairs, rc, active = 0;
	uint64_t t;

	for (int i = 0; i < n; i++)
		active += pgm_req_active(reqs[i]);
	if (!active)
		return call_mpi(call, n, reqs, o);
	/* a test that found nothing then finds nothing now, at once: no
	   MPI call, and no -delay either (nothing to perturb; a poll loop's
	   tens of thousands of waits would stall the replay for minutes) */
	if (pg_me->mode == PANGAEA_MODE_REPLAY && is_test(call) &&
	    pgm_ev_poll_failed()) {
		o->k = 0;
		return MPI_SUCCESS;
	}
	pg_delay();
	/* a test's time is read only when it completed something (in
	   record): most tests of a poll loop complete nothing, and a failed
	   poll's record takes the time of the event after it */
	t = is_test(call) && pg_me->mode != PANGAEA_MODE_REPLAY ? 0 : pg_now();
	if (n > 16 && (!(saved = malloc((size_t)n * sizeof(*saved))) ||
		       !(pairs = malloc((size_t)n * 2 * sizeof(int))))) {
		if (saved != small)
			free(saved);
		return call_mpi(call, n, reqs, o);
	}
	memcpy(saved, reqs, (size_t)n * sizeof(*saved));
	if (!is_test(call)) /* (the launcher's deadlock check; t is read) */
		pg_state_block_at(t, pg_call_of(PG_REC_CALL, PG_Q_MPI_DONE),
				  -1, -1, NULL, NULL);
	if (pg_me->mode == PANGAEA_MODE_REPLAY) {
		int k = pgm_ev_done(call, n, pairs, 0, t);

		rc = call_recorded(pairs, k, reqs, o);
		log_receives(o, saved, is_test(call), pg_now());
	} else {
		rc = call_mpi(call, n, reqs, o);
		if (o->k == 0 && is_test(call)) {
			pgm_ev_pollfail();
		} else {
			for (int j = 0; j < o->k; j++) {
				const struct pgm_req *r =
					pgm_req_find(saved[o->idx[j]]);

				pairs[2 * j] = o->idx[j];
				pairs[2 * j + 1] = r && r->recv ? r->post : 0;
			}
			pgm_ev_done(call, n, pairs, o->k, t ? t : pg_now());
			log_receives(o, saved, is_test(call), pg_now());
		}
	}
	pg_state_unblock();
	if (saved != small)
		free(saved);
	if (pairs != spairs)
		free(pairs);
	return rc;
}

/* Room for an outcome of N requests: IDX and ST, or the SMALL ones. */
#define OUTCOME_ROOM(n)                                                     \
	int idx_small[16];                                                  \
	MPI_Status st_small[16];                                            \
	struct outcome o = { 0, idx_small, st_small };                      \
	if ((n) > 16) {                                                     \
		o.idx = malloc((size_t)(n) * sizeof(int));                  \
		o.st = malloc((size_t)(n) * sizeof(MPI_Status));            \
		if (!o.idx || !o.st) {                                      \
			free(o.idx);                                        \
			free(o.st);                                         \
			return MPI_ERR_NO_MEM;                              \
		}                                                           \
	}
#define OUTCOME_FREE(n)                                                     \
	if ((n) > 16) {                                                     \
		free(o.idx);                                                \
		free(o.st);                                                 \
	}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	int rc;
	OUTCOME_ROOM(1)

	if (!pgm_active())
		return PMPI_Test(req, flag, status);
	rc = complete(PGM_TEST, 1, req, &o);
	*flag = o.k > 0 || !pgm_req_active(*req);
	if (o.k && status != MPI_STATUS_IGNORE)
		*status = o.st[0];
	return rc;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	int rc;
	OUTCOME_ROOM(1)

	if (!pgm_active())
		return PMPI_Wait(req, status);
	rc = complete(PGM_WAIT, 1, req, &o);
	if (o.k && status != MPI_STATUS_IGNORE)
		*status = o.st[0];
	return rc;
}

/* Testany and Waitany (CALL). */
static int any(int call, int n, MPI_Request *reqs, int *index, int *flag,
	       MPI_Status *status)
{
	int rc;
	OUTCOME_ROOM(1)

	(void)n;
	rc = complete(call, n, reqs, &o);
	*index = o.k ? o.idx[0] : MPI_UNDEFINED;
	if (flag) {
		int active = 0;

		for (int i = 0; i < n; i++)
			active += pgm_req_active(reqs[i]);
		*flag = o.k > 0 || !active;
	}
	if (o.k && status != MPI_STATUS_IGNORE)
		*status = o.st[0];
	return rc;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag,
		MPI_Status *status)
{
	if (!pgm_active())
		return PMPI_Testany(n, reqs, index, flag, status);
	return any(PGM_TESTANY, n, reqs, index, flag, status);
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
	if (!pgm_active())
		return PMPI_Waitany(n, reqs, index, status);
	return any(PGM_WAITANY, n, reqs, index, NULL, status);
}

/* Testsome and Waitsome (CALL). */
static int some(int call, int n, MPI_Request reqs[], int *outcount,
		int indices[], MPI_Status statuses[])
{
	int rc, active = 0;
	OUTCOME_ROOM(n)

	for (int i = 0; i < n; i++)
		active += pgm_req_active(reqs[i]);
	rc = complete(call, n, reqs, &o);
	*outcount = active ? o.k : MPI_UNDEFINED;
	for (int j = 0; j < o.k; j++) {
		indices[j] = o.idx[j];
		if (statuses != MPI_STATUSES_IGNORE)
			statuses[j] = o.st[j];
	}
	OUTCOME_FREE(n)
	return rc;
}

int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[],
		 MPI_Status statuses[])
{
	if (!pgm_active())
		return PMPI_Testsome(n, reqs, outcount, indices, statuses);
	return some(PGM_TESTSOME, n, reqs, outcount, indices, statuses);
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
		 MPI_Status statuses[])
{
	if (!pgm_active())
		return PMPI_Waitsome(n, reqs, outcount, indices, statuses);
	return some(PGM_WAITSOME, n, reqs, outcount, indices, statuses);
}

/* Testall and Waitall (CALL). */
static int all(int call, int n, MPI_Request reqs[], int *flag,
	       MPI_Status statuses[])
{
	int rc, active = 0;
	OUTCOME_ROOM(n)

	for (int i = 0; i < n; i++)
		active += pgm_req_active(reqs[i]);
	rc = complete(call, n, reqs, &o);
	if (flag)
		*flag = o.k > 0 || !active;
	if (statuses != MPI_STATUSES_IGNORE)
		for (int j = 0; j < o.k; j++)
			statuses[o.idx[j]] = o.st[j];
	OUTCOME_FREE(n)
	return rc;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
	if (!pgm_active())
		return PMPI_Testall(n, reqs, flag, statuses);
	return all(PGM_TESTALL, n, reqs, flag, statuses);
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
	if (!pgm_active())
		return PMPI_Waitall(n, reqs, statuses);
	return all(PGM_WAITALL, n, reqs, NULL, statuses);
}
