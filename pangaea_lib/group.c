/*
 * group.c: PVM's dynamic groups under record and replay.
 *
 * Group calls go to PVM's group server, whose answers depend on timing:
 * instance numbers follow the order in which tasks join, a group's size
 * and members change while tasks join and leave.  Recording logs each
 * call with its answer (a tid as the ltid of that task); replay makes the
 * same call where it has an effect (join, leave, barrier) and returns the
 * recorded answer, translating an ltid back into this run's tid.  A
 * broadcast is logged with the members it reached, and replayed as a send
 * to those same tasks, whoever is in the group at that moment.  Reduce,
 * gather and scatter are done here, in instance order (see
 * pangaea_pvm_reduce).
 *
 * Programs that use groups link with -lgpvm3, as they would without
 * Pangaea; this file is only pulled from libpangaea.a when they do.
 */
#include "pangaea-internal.h"

#include <stdlib.h>
#include <string.h>

/* libgpvm3's member list of GROUP (malloc'ed into *TIDS); not in pvm3.h. */
int gs_get_tidlist(char *group, int msgtag, int *ntids, int **tids,
		   int holes_not_allowed);

/* Whether group calls of this task are logged (always, if selected). */
static int group_logged(void)
{
	return pg.mode && pg.task_selected;
}

/* Replay: takes the recorded group call that must come now, which must be
 * OP on GROUP with ARG; diverges otherwise.  Returns the recorded result. */
static int replay_group(int op, const char *group, int arg)
{
	struct pg_event want, got = { .kind = PG_REC_GROUP, .op = op,
				      .arg = arg };
	char w[512], g[512];

	snprintf(got.group, sizeof(got.group), "%s", group ? group : "");
	pg_event_describe(&got, g, sizeof(g));
	if (!pg_replay_peek(&want))
		pg_diverge("the recording ends here; the program called %s", g);
	if (want.kind != PG_REC_GROUP || want.op != op || want.arg != arg ||
	    strcmp(want.group, got.group) != 0) {
		pg_event_describe(&want, w, sizeof(w));
		/* the answer part of the call we describe is not known yet */
		*strrchr(g, '=') = '\0';
		pg_diverge("the log expects %s; the program called %s", w, g);
	}
	pg_replay_take();
	return want.result;
}

/* Logs the group call OP(GROUP, ARG) = RESULT that started at T0. */
static void log_group(int op, const char *group, int arg, int result,
		      uint64_t t0)
{
	struct pg_event ev = { .kind = PG_REC_GROUP, .op = op, .arg = arg,
			       .result = result, .t = t0 };

	snprintf(ev.group, sizeof(ev.group), "%s", group ? group : "");
	ev.dur = pg_now() - t0;
	pg_log(&ev);
}

/*
 * The common path of OP(GROUP, ARG), begun at T0: records REAL, PVM's
 * answer, or in replay takes the recorded answer instead (the caller
 * makes the real call only where it has an effect).  Returns the answer
 * the program sees.
 */
static int group_call(int op, char *group, int arg, int real, uint64_t t0)
{
	int result = real;

	if (pg.mode == PANGAEA_MODE_REPLAY)
		result = replay_group(op, group, arg);
	log_group(op, group, arg, result, t0);
	return result;
}

int pangaea_pvm_joingroup(char *group)
{
	uint64_t t0;

	if (!group_logged())
		return pvm_joingroup(group);
	pg_delay();
	t0 = pg_now();
	return group_call(PG_GROUP_JOIN, group, 0, pvm_joingroup(group), t0);
}

int pangaea_pvm_lvgroup(char *group)
{
	uint64_t t0;

	if (!group_logged())
		return pvm_lvgroup(group);
	pg_delay();
	t0 = pg_now();
	return group_call(PG_GROUP_LEAVE, group, 0, pvm_lvgroup(group), t0);
}

int pangaea_pvm_barrier(char *group, int count)
{
	uint64_t t0;

	if (!group_logged())
		return pvm_barrier(group, count);
	pg_delay();
	t0 = pg_now();
	return group_call(PG_GROUP_BARRIER, group, count,
			  pvm_barrier(group, count), t0);
}

int pangaea_pvm_gsize(char *group)
{
	uint64_t t0;

	if (!group_logged())
		return pvm_gsize(group);
	pg_delay();
	t0 = pg_now();
	if (pg.mode == PANGAEA_MODE_REPLAY)
		return group_call(PG_GROUP_GSIZE, group, 0, 0, t0);
	return group_call(PG_GROUP_GSIZE, group, 0, pvm_gsize(group), t0);
}

int pangaea_pvm_gettid(char *group, int inst)
{
	uint64_t t0;
	int tid, ltid;

	if (!group_logged())
		return pvm_gettid(group, inst);
	pg_delay();
	t0 = pg_now();
	if (pg.mode == PANGAEA_MODE_REPLAY) {
		ltid = group_call(PG_GROUP_GETTID, group, inst, 0, t0);
		return ltid < 0 ? ltid : pg_tid_of(ltid);
	}
	tid = pvm_gettid(group, inst);
	ltid = tid < 0 ? tid : pg_ltid_of(tid);
	group_call(PG_GROUP_GETTID, group, inst, ltid, t0);
	return tid;
}

int pangaea_pvm_getinst(char *group, int tid)
{
	uint64_t t0;

	if (!group_logged())
		return pvm_getinst(group, tid);
	pg_delay();
	t0 = pg_now();
	if (pg.mode == PANGAEA_MODE_REPLAY)
		return group_call(PG_GROUP_GETINST, group, pg_ltid_of(tid), 0, t0);
	return group_call(PG_GROUP_GETINST, group, pg_ltid_of(tid),
			  pvm_getinst(group, tid), t0);
}

/* Record: the members of GROUP other than this task, as PVM's pvm_bcast
 * finds them, into a malloc'ed *TIDS; their number or a PVM error. */
static int bcast_members(char *group, int tag, int **tids)
{
	int n = 0, rc = gs_get_tidlist(group, tag, &n, tids, 0), k = 0;

	if (rc < 0)
		return rc;
	for (int i = 0; i < n; i++)
		if ((*tids)[i] != pg.mytid && (*tids)[i] > 0)
			(*tids)[k++] = (*tids)[i];
	if (k == 0) {
		free(*tids);
		*tids = NULL;
		return PvmNoInst;
	}
	return k;
}

/* Replay: this run's tids of the tasks the recorded bcast reached; their
 * number (the recorded event must be a bcast of GROUP). */
static int bcast_replay_members(char *group, int tag, int **tids)
{
	struct pg_event want;
	int n;

	if (!pg_replay_peek(&want) || want.kind != PG_REC_BCAST ||
	    want.ndest <= 0)
		return 0; /* the send check reports the difference */
	n = want.ndest;
	*tids = malloc((size_t)n * sizeof(int));
	if (!*tids)
		return PvmNoMem;
	for (int i = 0; i < n; i++)
		(*tids)[i] = pg_tid_of(want.dests[i]);
	(void)group;
	(void)tag;
	return n;
}

int pangaea_pvm_bcast(char *group, int tag)
{
	int *tids = NULL, n, rc;

	if (!pg.mode)
		return pvm_bcast(group, tag);
	/* not logged (selection, suspension): today's members, but still
	 * with a message id, so that receivers can match it */
	n = pg.mode == PANGAEA_MODE_REPLAY && pg_logged(tag)
		    ? bcast_replay_members(group, tag, &tids)
		    : bcast_members(group, tag, &tids);
	if (n < 0)
		return n;
	rc = pg_send_logged(PG_REC_BCAST, tids, n, tag, group);
	free(tids);
	return rc > 0 ? 0 : rc;
}

/* Packs (PACK) or unpacks the COUNT items of type DT at BUF with PVM's
 * function for that type; >= 0, or a PVM error. */
static int coll_pack(int pack, void *buf, int count, int dt)
{
	switch (dt) {
	case PVM_BYTE:
		return pack ? pvm_pkbyte(buf, count, 1) : pvm_upkbyte(buf, count, 1);
	case PVM_SHORT:
		return pack ? pvm_pkshort(buf, count, 1) : pvm_upkshort(buf, count, 1);
	case PVM_USHORT:
		return pack ? pvm_pkushort(buf, count, 1)
			    : pvm_upkushort(buf, count, 1);
	case PVM_INT:
		return pack ? pvm_pkint(buf, count, 1) : pvm_upkint(buf, count, 1);
	case PVM_UINT:
		return pack ? pvm_pkuint(buf, count, 1) : pvm_upkuint(buf, count, 1);
	case PVM_LONG:
		return pack ? pvm_pklong(buf, count, 1) : pvm_upklong(buf, count, 1);
	case PVM_ULONG:
		return pack ? pvm_pkulong(buf, count, 1)
			    : pvm_upkulong(buf, count, 1);
	case PVM_FLOAT:
		return pack ? pvm_pkfloat(buf, count, 1) : pvm_upkfloat(buf, count, 1);
	case PVM_CPLX:
		return pack ? pvm_pkcplx(buf, count, 1) : pvm_upkcplx(buf, count, 1);
	case PVM_DOUBLE:
		return pack ? pvm_pkdouble(buf, count, 1)
			    : pvm_upkdouble(buf, count, 1);
	case PVM_DCPLX:
		return pack ? pvm_pkdcplx(buf, count, 1)
			    : pvm_upkdcplx(buf, count, 1);
	default:
		return PvmBadParam;
	}
}

/* The collective operations Pangaea does itself (PG_TAG_COLLECT). */
enum { COLL_REDUCE = 1, COLL_GATHER, COLL_SCATTER };

/* Sends the COUNT items of type DT at DATA to TID for the collective OP
 * with MSGTAG, in Pangaea's context; 0 or a PVM error. */
static int coll_send(int op, int tid, const void *data, int count, int dt,
		     int msgtag)
{
	struct pg_chan_saved saved;
	int head[4] = { op, msgtag, count, dt }, rc;

	pg_chan_enter(&saved);
	rc = pg_chan_initsend();
	if (rc >= 0)
		rc = pvm_pkint(head, 4, 1);
	if (rc >= 0)
		rc = coll_pack(1, (void *)data, count, dt);
	if (rc >= 0)
		rc = pg_chan_send(tid, PG_TAG_COLLECT);
	pg_chan_leave(&saved);
	return rc < 0 ? rc : 0;
}

/* Receives from TID the COUNT items of type DT of the collective OP with
 * MSGTAG into BUF; 0 or a PVM error (PvmMismatch: the calls differ). */
static int coll_take(int op, int tid, void *buf, int count, int dt,
		     int msgtag)
{
	struct pg_chan_saved saved;
	int head[4], rc;

	pg_chan_enter(&saved);
	rc = pg_chan_recv(tid, PG_TAG_COLLECT);
	if (rc >= 0)
		rc = pvm_upkint(head, 4, 1);
	if (rc >= 0 && (head[0] != op || head[1] != msgtag ||
			head[2] != count || head[3] != dt))
		rc = PvmMismatch;
	if (rc >= 0)
		rc = coll_pack(0, buf, count, dt);
	pg_chan_leave(&saved);
	return rc < 0 ? rc : 0;
}

/* Checks the arguments of a collective call and finds this task's
 * instance in GROUP; the instance, or a PVM error. */
static int coll_start(const void *data, int count, int dt, int msgtag,
		      char *group)
{
	if (!data || !group || count <= 0 || msgtag < 0 ||
	    pg_item_size(dt) < 0)
		return PvmBadParam;
	return pangaea_pvm_getinst(group, pg.mytid);
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
	y = malloc((size_t)count * (size_t)pg_item_size(dt));
	if (!y)
		return PvmNoMem;
	/* instances may have holes (a member left): look a little further */
	for (int inst = 0; rc == 0 && got < n && inst < 2 * n + 64; inst++) {
		int tid = inst == me ? -1 : pangaea_pvm_gettid(group, inst);

		if (tid < 0)
			continue;
		rc = coll_take(COLL_REDUCE, tid, y, count, dt, msgtag);
		if (rc == 0) {
			func(&dt, data, y, &count, &info);
			rc = info < 0 ? info : 0;
			got++;
		}
	}
	free(y);
	return rc ? rc : got < n ? PvmNoInst : 0;
}

/*
 * Under Pangaea, pvm_reduce, pvm_gather and pvm_scatter are done here
 * rather than in libgpvm3.  libgpvm3's reduce combines the values in
 * arrival order (a wildcard receive in the group context, out of
 * Pangaea's sight), so a floating-point sum could differ between a
 * recording and its replay; its gather and scatter place the data by the
 * group server's real instance numbers, which replay cannot make the same
 * when tasks joined in a race.  Here the root exchanges with each member
 * by tid, in instance order, with the tids from pvm_gettid: logged, and
 * on replay answered from the log.  So the result depends only on the
 * recorded members and instances.  The messages travel in Pangaea's
 * context; FIFO order between two tasks keeps successive calls apart.
 */
int pangaea_pvm_reduce(void (*func)(int *, void *, void *, int *, int *),
		       void *data, int count, int datatype, int msgtag,
		       char *group, int rootginst)
{
	int me, root;

	if (!pg.mode)
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
	return coll_send(COLL_REDUCE, root, data, count, datatype, msgtag);
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

/* The common part of gather (OP COLL_GATHER: every member's DATA into
 * its instance's slot of the root's RESULT) and scatter (COLL_SCATTER:
 * the root's DATA, slot by slot, into every member's RESULT). */
static int gather_scatter(int op, void *result, void *data, int count,
			  int dt, int msgtag, char *group, int rootginst)
{
	size_t slot = (size_t)count * (size_t)pg_item_size(dt);
	int gather = op == COLL_GATHER, me, n, rc = 0, *tids = NULL;
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
	if (!pg.mode)
		return pvm_gather(result, data, count, datatype, msgtag, group,
				  rootginst);
	return gather_scatter(COLL_GATHER, result, data, count, datatype,
			      msgtag, group, rootginst);
}

int pangaea_pvm_scatter(void *result, void *data, int count, int datatype,
			int msgtag, char *group, int rootginst)
{
	if (!pg.mode)
		return pvm_scatter(result, data, count, datatype, msgtag, group,
				   rootginst);
	return gather_scatter(COLL_SCATTER, result, data, count, datatype,
			      msgtag, group, rootginst);
}
