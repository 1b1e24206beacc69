/*
 * inter.c: the intercommunicators of a rank's run (MPI_Comm_spawn's, on
 * both sides, and MPI_Intercomm_create's between two groups of ranks,
 * spawn.c): for each, the ltids of its remote group by remote rank,
 * exchanged once when it is made (an MPI_Allgather over it, before the
 * program uses it), so that a message's peer on it is an ltid as on any
 * other communicator, and replay can turn a recorded peer back into a
 * remote rank.  The exchange is Pangaea's, not the program's: the clock
 * reads MPI makes in it are real, unrecorded (pg_clk_depth), whichever
 * of MPI's libraries makes them.
 */
#include "pgmpi.h"
#include "pangaea-clock.h"

#include <stdlib.h>

struct inter {
	MPI_Comm comm;
	int n;      /* the remote group's size */
	int *ltids; /* by remote rank */
};
static struct inter *inters;
static size_t ninter, capinter;

/* The entry of COMM, or NULL. */
static struct inter *find(MPI_Comm comm)
{
	for (size_t i = 0; i < ninter; i++)
		if (inters[i].comm == comm)
			return &inters[i];
	return NULL;
}

int pgm_inter_connect(MPI_Comm comm, int ltid)
{
	struct inter e = { comm, 0, NULL }, *v;
	int rc;

	if (PMPI_Comm_remote_size(comm, &e.n) != MPI_SUCCESS || e.n <= 0 ||
	    !(e.ltids = calloc((size_t)e.n, sizeof(int))))
		return -1;
	pg_clk_depth++;
	rc = PMPI_Allgather(&ltid, 1, MPI_INT, e.ltids, 1, MPI_INT, comm);
	pg_clk_depth--;
	if (rc != MPI_SUCCESS ||
	    !(v = pg_grow(inters, &capinter, ninter + 1, sizeof(*inters), 4))) {
		free(e.ltids);
		return -1;
	}
	inters = v;
	inters[ninter++] = e;
	return 0;
}

void pgm_inter_forget(MPI_Comm comm)
{
	struct inter *e = find(comm);

	if (!e)
		return;
	free(e->ltids);
	*e = inters[--ninter];
}

int pgm_inter_known(MPI_Comm comm)
{
	return find(comm) != NULL;
}

int pgm_inter_addr(MPI_Comm comm, int r, int *addr)
{
	struct inter *e = find(comm);

	if (!e)
		return 0;
	*addr = r >= 0 && r < e->n ? e->ltids[r] - 1 : r;
	return 1;
}

int pgm_inter_rank(MPI_Comm comm, int addr, int *r)
{
	struct inter *e = find(comm);

	if (!e)
		return 0;
	*r = MPI_PROC_NULL;
	for (int i = 0; i < e->n; i++)
		if (e->ltids[i] == addr + 1)
			*r = i;
	return 1;
}

int pgm_inter_size(MPI_Comm comm)
{
	struct inter *e = find(comm);

	return e ? e->n : 0;
}
