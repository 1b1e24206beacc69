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
 * gather and scatter are done in collect.c, over these calls.
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
	return pg_me->mode && pg_select_task_logged();
}

/* Replay: the recorded answer of the group call OP on GROUP with ARG,
 * which must come now; stops the task if another call does. */
static int replay_group(int op, const char *group, int arg)
{
	struct pg_call call = { .ev = { .kind = PG_REC_GROUP, .op = op,
					.arg = arg } };
	struct pg_event want;

	snprintf(call.ev.group, sizeof(call.ev.group), "%s", group ? group : "");
	if (pg_replay_expect(&call, &want, NULL) == PG_REPLAY_DIVERGED)
		return pg_task_diverged();
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

	if (pg_me->mode == PANGAEA_MODE_REPLAY)
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
	int real;

	if (!pg_me->mode)
		return pvm_barrier(group, count);
	pg_state_block(PG_CALL_GROUP + PG_GROUP_BARRIER, -1, count, group,
		       NULL);
	if (!group_logged()) {
		real = pvm_barrier(group, count);
		pg_state_unblock();
		return real;
	}
	pg_delay();
	t0 = pg_now();
	real = pvm_barrier(group, count);
	pg_state_unblock();
	return group_call(PG_GROUP_BARRIER, group, count, real, t0);
}

int pangaea_pvm_gsize(char *group)
{
	uint64_t t0;

	if (!group_logged())
		return pvm_gsize(group);
	pg_delay();
	t0 = pg_now();
	if (pg_me->mode == PANGAEA_MODE_REPLAY)
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
	if (pg_me->mode == PANGAEA_MODE_REPLAY) {
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
	if (pg_me->mode == PANGAEA_MODE_REPLAY)
		return group_call(PG_GROUP_GETINST, group, pg_ltid_of(tid), 0, t0);
	return group_call(PG_GROUP_GETINST, group, pg_ltid_of(tid),
			  pvm_getinst(group, tid), t0);
}

/* Record: the members of GROUP as PVM's pvm_bcast finds them (libgpvm3:
 * the group server's list, this task's tid taken out once) into a
 * malloc'ed *TIDS; their number, or PVM's error: PvmNoInst when this task
 * is the only member, the group server's answer for no such group. */
static int bcast_members(char *group, int tag, int **tids)
{
	int n = 0, rc = gs_get_tidlist(group, tag, &n, tids, 0);

	if (rc < 0)
		return rc;
	for (int i = 0; i < n; i++)
		if ((*tids)[i] == pg_me->mytid) {
			(*tids)[i] = (*tids)[--n];
			break;
		}
	if (n == 0) {
		free(*tids);
		*tids = NULL;
		return PvmNoInst;
	}
	return n;
}

/* Replay of a logged pvm_bcast(GROUP, TAG): the recorded failure's
 * answer, or a send to this run's tids of the tasks the recorded bcast
 * reached (whoever is in the group now); stops the task if the log has
 * neither here.  PVM's return. */
static int bcast_replay(char *group, int tag)
{
	struct pg_call call = { .ev = { .kind = PG_REC_BCAST, .tag = tag } };
	struct pg_event want;
	int *tids, rc;

	if (pg_replay_peek(&want) && want.kind == PG_REC_GROUP &&
	    want.op == PG_GROUP_BCAST) {
		pg_delay();
		return group_call(PG_GROUP_BCAST, group, tag, 0, pg_now());
	}
	if (!pg_replay_peek(&want) || want.kind != PG_REC_BCAST) {
		/* another call or the end: a bcast never matches it, and the
		 * check reports the difference */
		snprintf(call.ev.group, sizeof(call.ev.group), "%s",
			 group ? group : "");
		if (pg_replay_expect(&call, NULL, NULL) == PG_REPLAY_DIVERGED)
			return pg_task_diverged();
		return PvmSysErr;
	}
	tids = malloc((size_t)(want.ndest > 0 ? want.ndest : 1) * sizeof(int));
	if (!tids)
		return PvmNoMem;
	for (int i = 0; i < want.ndest; i++)
		tids[i] = pg_tid_of(want.dests[i]);
	rc = pg_send_logged(PG_REC_BCAST, tids, want.ndest, tag, group);
	free(tids);
	return rc > 0 ? 0 : rc;
}

int pangaea_pvm_bcast(char *group, int tag)
{
	int *tids = NULL, n, rc;
	uint64_t t0;

	if (!pg_me->mode)
		return pvm_bcast(group, tag);
	if (pg_me->mode == PANGAEA_MODE_REPLAY && pg_logged(tag))
		return bcast_replay(group, tag);
	/* recording, or not logged (selection, suspension): today's
	 * members, the message still with an id for its receivers */
	t0 = pg_now();
	n = bcast_members(group, tag, &tids);
	rc = n < 0 ? n : pg_send_logged(PG_REC_BCAST, tids, n, tag, group);
	free(tids);
	if (rc < 0 && pg_me->mode == PANGAEA_MODE_RECORD && pg_logged(tag))
		log_group(PG_GROUP_BCAST, group, tag, rc, t0);
	return rc > 0 ? 0 : rc;
}
