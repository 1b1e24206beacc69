/*
 * collect.c: pvm_reduce, pvm_gather and pvm_scatter under Pangaea.
 *
 * They are done here rather than in libgpvm3.  libgpvm3's reduce
 * combines the values in arrival order (a wildcard receive in the group
 * context, out of Pangaea's sight), so a floating-point sum could differ
 * between a recording and its replay; its gather and scatter place the
 * data by the group server's real instance numbers, which replay cannot
 * make the same when tasks joined in a race.  Here the root exchanges
 * with each member by tid, in instance order, with the tids from
 * pvm_gettid: logged, and on replay answered from the log (group.c).  So
 * the result depends only on the recorded members and instances.  The
 * messages (PG_TAG_COLLECT) travel in Pangaea's context; FIFO order
 * between two tasks keeps successive calls apart.
 */
#include "pangaea-internal.h"

#include <stdlib.h>
#include <string.h>

/* Sends the COUNT items of type DT at DATA to TID for the collective OP
 * with MSGTAG; 0 or a PVM error. */
static int coll_send(int op, int tid, const void *data, int count, int dt,
		     int msgtag)
{
	struct pg_collect c = { op, msgtag, count, dt };

	return pg_proto_send_collect(tid, &c, data);
}

/* Receives from TID the COUNT items of type DT of the collective OP with
 * MSGTAG into BUF; 0 or a PVM error (PvmMismatch: the calls differ). */
static int coll_take(int op, int tid, void *buf, int count, int dt,
		     int msgtag)
{
	struct pg_collect c = { op, msgtag, count, dt };
	int rc;

	pg_state_block(PG_STATE_COLLECT + op, tid, msgtag, NULL, NULL);
	rc = pg_proto_recv_collect(tid, &c, buf);
	pg_state_unblock();
	return rc;
}

/* Checks the arguments of a collective call and finds this task's
 * instance in GROUP; the instance, or a PVM error. */
static int coll_start(const void *data, int count, int dt, int msgtag,
		      char *group)
{
	if (!data || !group || count <= 0 || msgtag < 0 ||
	    pg_pvm_item_size(dt) < 0)
		return PvmBadParam;
	return pangaea_pvm_getinst(group, pg_me->mytid);
}

/* The root's part of a reduce: combines the other members' values into
 * DATA with FUNC in instance order; 0 or a PVM error. */
static int reduce_root(void (*func)(int *, void *, void *, int *, int *),
		       void *data, int count, int dt, int msgtag, char *group,
		       int me)
{
	int n = pangaea_pvm_gsize(group), got = 1, rc = 0, info = 0;
	void *y;

	if (n < 0)
		return n;
	y = malloc((size_t)count * (size_t)pg_pvm_item_size(dt));
	if (!y)
		return PvmNoMem;
	/* instances may have holes (a member left): look a little further */
	for (int inst = 0; rc == 0 && got < n && inst < 2 * n + 64; inst++) {
		int tid = inst == me ? -1 : pangaea_pvm_gettid(group, inst);

		if (tid < 0)
			continue;
		rc = coll_take(PG_COLLECT_REDUCE, tid, y, count, dt, msgtag);
		if (rc == 0) {
			func(&dt, data, y, &count, &info);
			rc = info < 0 ? info : 0;
			got++;
		}
	}
	free(y);
	return rc ? rc : got < n ? PvmNoInst : 0;
}

/* pvm_reduce in instance order (see the head of this file). */
int pangaea_pvm_reduce(void (*func)(int *, void *, void *, int *, int *),
		       void *data, int count, int datatype, int msgtag,
		       char *group, int rootginst)
{
	int me, root;

	if (!pg_me->mode)
		return pvm_reduce(func, data, count, datatype, msgtag, group,
				  rootginst);
	if (!func)
		return PvmBadParam;
	if ((me = coll_start(data, count, datatype, msgtag, group)) < 0)
		return me;
	if (me == rootginst)
		return reduce_root(func, data, count, datatype, msgtag, group,
				   me);
	if ((root = pangaea_pvm_gettid(group, rootginst)) < 0)
		return root;
	return coll_send(PG_COLLECT_REDUCE, root, data, count, datatype, msgtag);
}

/* The members of GROUP in instance order into a malloc'ed *TIDS, with
 * no holes (as PVM's gather and scatter want); their number or an error. */
static int coll_members(char *group, int **tids)
{
	int n = pangaea_pvm_gsize(group);

	if (n <= 0)
		return n < 0 ? n : PvmNoInst;
	*tids = malloc((size_t)n * sizeof(int));
	if (!*tids)
		return PvmNoMem;
	for (int i = 0; i < n; i++)
		if (((*tids)[i] = pangaea_pvm_gettid(group, i)) < 0) {
			int rc = (*tids)[i];

			free(*tids);
			*tids = NULL;
			return rc;
		}
	return n;
}

/* The common part of gather (OP PG_COLLECT_GATHER: every member's DATA into
 * its instance's slot of the root's RESULT) and scatter (PG_COLLECT_SCATTER:
 * the root's DATA, slot by slot, into every member's RESULT). */
static int gather_scatter(int op, void *result, void *data, int count,
			  int dt, int msgtag, char *group, int rootginst)
{
	size_t slot = (size_t)count * (size_t)pg_pvm_item_size(dt);
	int gather = op == PG_COLLECT_GATHER, me, n, rc = 0, *tids = NULL;
	char *slots = gather ? result : data;

	if ((me = coll_start(gather ? data : result, count, dt, msgtag,
			     group)) < 0)
		return me;
	if (me != rootginst) {
		int root = pangaea_pvm_gettid(group, rootginst);

		if (root < 0)
			return root;
		return gather ? coll_send(op, root, data, count, dt, msgtag)
			      : coll_take(op, root, result, count, dt, msgtag);
	}
	if (!slots)
		return PvmBadParam;
	if ((n = coll_members(group, &tids)) < 0)
		return n;
	for (int i = 0; i < n && rc == 0; i++) {
		char *at = slots + (size_t)i * slot;

		if (i == me)
			memcpy(gather ? at : result, gather ? data : at, slot);
		else if (gather)
			rc = coll_take(op, tids[i], at, count, dt, msgtag);
		else
			rc = coll_send(op, tids[i], at, count, dt, msgtag);
	}
	free(tids);
	return rc;
}

int pangaea_pvm_gather(void *result, void *data, int count, int datatype,
		       int msgtag, char *group, int rootginst)
{
	if (!pg_me->mode)
		return pvm_gather(result, data, count, datatype, msgtag, group,
				  rootginst);
	return gather_scatter(PG_COLLECT_GATHER, result, data, count, datatype,
			      msgtag, group, rootginst);
}

int pangaea_pvm_scatter(void *result, void *data, int count, int datatype,
			int msgtag, char *group, int rootginst)
{
	if (!pg_me->mode)
		return pvm_scatter(result, data, count, datatype, msgtag, group,
				   rootginst);
	return gather_scatter(PG_COLLECT_SCATTER, result, data, count, datatype,
			      msgtag, group, rootginst);
}
