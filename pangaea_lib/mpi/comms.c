/*
 * comms.c: communicators as contexts.  MPI keeps the messages of one
 * sender to one receiver with one tag in order only within one
 * communicator, and a message's id is its number in its channel
 * (reqs.c): the channel must name the communicator, alike on both ends.
 * An intracommunicator made from another by a call collective over that
 * parent (MPI_Comm_dup, MPI_Comm_dup_with_info, MPI_Comm_idup,
 * MPI_Comm_split, MPI_Comm_split_type, MPI_Comm_create) gets a context
 * number: the parent's mixed with how many children the parent had
 * before.  Every member of the parent makes those calls in the same
 * order (MPI's rule for collectives, the non-blocking MPI_Comm_idup's
 * start included), so every member counts alike and computes the same
 * number; a member the call leaves out (MPI_UNDEFINED in a split) counts
 * the child too.  MPI_Comm_create_group is collective over its group
 * only: its number mixes the parent's, the tag and the group's members
 * (as ltids) with how many such (parent, tag, group) communicators this
 * rank made before, which every member of the group counts alike (MPI
 * orders such calls alike in every member).  MPI_COMM_WORLD's context
 * is 0, and so is that of a communicator made otherwise
 * (intercommunicators, the parent of spawned ranks): its messages share
 * the world's channels, as all did before.  The number is kept as an
 * attribute of the communicator (a keyval of ours, which MPI_Comm_dup
 * does not copy and MPI_Comm_free frees).
 */
#include "pgmpi.h"

#include <stdlib.h>

/* A communicator's context. */
struct pgm_ctx {
	uint32_t cid;      /* its number, 0 for the world's */
	uint32_t children; /* communicators made from it so far */
};

static int keyval = MPI_KEYVAL_INVALID;
static struct pgm_ctx world;    /* MPI_COMM_WORLD's */
static MPI_Comm last_comm = MPI_COMM_NULL; /* pgm_comm_cid's last answer */
static uint32_t last_cid;

/* MPI_Comm_free's: frees the context. */
static int ctx_free(MPI_Comm comm, int key, void *value, void *extra)
{
	(void)key, (void)extra;
	if (comm == last_comm)
		last_comm = MPI_COMM_NULL;
	if (value != &world)
		free(value);
	return MPI_SUCCESS;
}

/* The context of COMM, made for MPI_COMM_WORLD on first use; NULL when
 * COMM has none (or the keyval cannot be made). */
static struct pgm_ctx *ctx_of(MPI_Comm comm)
{
	struct pgm_ctx *c = NULL;
	int found = 0;

	if (keyval == MPI_KEYVAL_INVALID &&
	    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, ctx_free, &keyval,
				    NULL) != MPI_SUCCESS) {
		keyval = MPI_KEYVAL_INVALID;
		return NULL;
	}
	if (comm == MPI_COMM_WORLD)
		return &world;
	if (PMPI_Comm_get_attr(comm, keyval, &c, &found) != MPI_SUCCESS ||
	    !found)
		return NULL;
	return c;
}

/* The number of the K-th child of a context numbered CID (never 0, the
 * world's). */
static uint32_t cid_mix(uint32_t cid, uint32_t k)
{
	uint32_t v = (cid * 0x9e3779b1u + k) * 0x85ebca6bu;

	v ^= v >> 15;
	return v + (v == 0);
}

/* Gives NEW (not MPI_COMM_NULL) the context numbered CID. */
static void ctx_give(MPI_Comm new, uint32_t cid)
{
	struct pgm_ctx *c = malloc(sizeof(*c));

	if (!c)
		return;
	c->cid = cid;
	c->children = 0;
	if (PMPI_Comm_set_attr(new, keyval, c) != MPI_SUCCESS)
		free(c);
	/* (NEW may have the handle of a freed communicator pgm_comm_cid
	   answered for last, one without a context of ours) */
	if (new == last_comm)
		last_comm = MPI_COMM_NULL;
}

/* Gives NEW, just made from PARENT by a collective over PARENT (NEW may
 * be MPI_COMM_NULL: this member is not in it, but counts it), its
 * context. */
static void child_made(MPI_Comm parent, MPI_Comm new)
{
	struct pgm_ctx *p = ctx_of(parent);
	uint32_t k;

	if (!p)
		return;
	k = ++p->children;
	if (new != MPI_COMM_NULL)
		ctx_give(new, cid_mix(p->cid, k));
}

/* MPI_Comm_create_group's communicators so far, by their key (parent,
 * tag, members): how many of each this rank made. */
static struct {
	uint32_t key, n;
} *groups;
static size_t ngroups;

/* Gives NEW, just made from PARENT by MPI_Comm_create_group over GROUP
 * with TAG, its context. */
static void group_made(MPI_Comm parent, MPI_Group group, int tag,
		       MPI_Comm new)
{
	struct pgm_ctx *p = ctx_of(parent);
	MPI_Group pg;
	uint32_t key;
	int n = 0, *in, *out;
	size_t i;

	if (!p || new == MPI_COMM_NULL || PMPI_Group_size(group, &n) !=
	    MPI_SUCCESS || n <= 0 || !(in = malloc(2 * (size_t)n * sizeof(int))))
		return;
	out = in + n;
	for (int r = 0; r < n; r++)
		in[r] = r;
	key = cid_mix(p->cid, (uint32_t)tag);
	if (PMPI_Comm_group(parent, &pg) == MPI_SUCCESS) {
		if (PMPI_Group_translate_ranks(group, n, in, pg, out) ==
		    MPI_SUCCESS)
			for (int r = 0; r < n; r++) /* (members as ltids) */
				key = cid_mix(key, (uint32_t)pgm_world_rank(
						parent, out[r]) + 1);
		PMPI_Group_free(&pg);
	}
	free(in);
	for (i = 0; i < ngroups && groups[i].key != key; i++)
		;
	if (i == ngroups) {
		void *g = realloc(groups, (ngroups + 1) * sizeof(*groups));

		if (!g)
			return;
		groups = g;
		groups[ngroups].key = key;
		groups[ngroups++].n = 0;
	}
	ctx_give(new, cid_mix(key, ++groups[i].n));
}

uint32_t pgm_comm_cid(MPI_Comm comm)
{
	const struct pgm_ctx *c;

	if (comm == MPI_COMM_WORLD)
		return 0;
	if (comm == last_comm)
		return last_cid;
	c = ctx_of(comm);
	last_comm = comm;
	last_cid = c ? c->cid : 0;
	return last_cid;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	int rc = PMPI_Comm_dup(comm, newcomm);

	if (rc == MPI_SUCCESS && pgm_active())
		child_made(comm, *newcomm);
	return rc;
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	int rc = PMPI_Comm_dup_with_info(comm, info, newcomm);

	if (rc == MPI_SUCCESS && pgm_active())
		child_made(comm, *newcomm);
	return rc;
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req)
{
	/* (Open MPI gives the handle at once; it is usable, its attribute
	   ours, once the request completes) */
	int rc = PMPI_Comm_idup(comm, newcomm, req);

	if (rc == MPI_SUCCESS && pgm_active())
		child_made(comm, *newcomm);
	return rc;
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
			  MPI_Comm *newcomm)
{
	int rc = PMPI_Comm_create_group(comm, group, tag, newcomm);

	if (rc == MPI_SUCCESS && pgm_active())
		group_made(comm, group, tag, *newcomm);
	return rc;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	int rc = PMPI_Comm_split(comm, color, key, newcomm);

	if (rc == MPI_SUCCESS && pgm_active())
		child_made(comm, *newcomm);
	return rc;
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info,
			MPI_Comm *newcomm)
{
	int rc = PMPI_Comm_split_type(comm, type, key, info, newcomm);

	if (rc == MPI_SUCCESS && pgm_active())
		child_made(comm, *newcomm);
	return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	int rc = PMPI_Comm_create(comm, group, newcomm);

	if (rc == MPI_SUCCESS && pgm_active())
		child_made(comm, *newcomm);
	return rc;
}
