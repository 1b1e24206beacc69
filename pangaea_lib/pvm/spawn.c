/*
 * spawn.c: pvm_spawn under Pangaea.  Each child gets its ltid from its
 * parent (parent * 1000 + k for the parent's k-th child) in a handover
 * message; the coordinator learns the new tids before the call returns
 * (the launcher's: before any child can be asked about);
 * the spawn is written to the execution log.  Replay runs the recorded
 * programs on the recorded hosts.
 */
#include "pangaea-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nchildren; /* children spawned so far (the ltid suffix) */
static int spawn_seq; /* spawn calls so far */

/* The logging cost this task's children take, PANGAEA_CALIB's form ("" if
 * none), into BUF (N bytes): the launcher measures it at its first
 * spawn, once the programs it spawned are starting (off their way: it
 * was measured before their spawn); a task passes on what its own
 * handover gave it (init.c). */
static void calib_for_children(char *buf, size_t n)
{
	static int measured;
	const char *e;

	if (pg_me->ltid == 0 && !measured) {
		measured = 1;
		pg_calib_measure();
		if (pg_calib_export(buf, n) == 0)
			setenv(PG_ENV_CALIB, buf, 1);
	}
	e = getenv(PG_ENV_CALIB);
	snprintf(buf, n, "%s", e ? e : "");
}

/* Task 0's measure of the logging cost, for its children (while its
 * coordinator starts: pg_task0_coordinator_ready). */
static void calibrate_task0(void)
{
	char buf[sizeof(((struct pg_handover *)0)->calib)];

	calib_for_children(buf, sizeof(buf));
}

/* Sends the handover to the child TID, task LTID of the run, in MODE. */
static int handover(int tid, int ltid, int flags, int mode)
{
	struct pg_handover h = {
		.ltid = ltid, .mode = mode,
		.coord_tid = pg_me->coord_tid,
		.launcher_tid = pg_me->launcher_tid, .flags = flags,
		.delay_us = pg_delay_max(), .seed = pg_delay_seed()
	};

	snprintf(h.logdir, sizeof(h.logdir), "%s", pg_me->logdir);
	snprintf(h.replaydir, sizeof(h.replaydir), "%s", pg_me->replaydir);
	snprintf(h.select, sizeof(h.select), "%s", pg_me->select);
	calib_for_children(h.calib, sizeof(h.calib));
	return pg_proto_send_handover(tid, &h);
}

/* Tells the coordinator about the children of REC (tids TIDS) and waits
 * for its ack; its status.  The launcher (task 0) does not wait: its
 * first spawn comes while the coordinator is still starting (PVM keeps
 * the message for it), and the launcher's message loop takes the ack
 * (toplevel/run.c).  Nothing is asked of the coordinator about these
 * children before it has the message: each child registers (and waits
 * for the ack) before its first message, and the launcher itself asks
 * nothing. */
static int tell_spawned(const struct pg_spawn_rec *rec, const int *tids)
{
	struct pg_spawned_task *t = calloc((size_t)rec->ntask + 1, sizeof(*t));
	int n = 0, rc;

	if (!t)
		return PvmNoMem;
	for (int i = 0; i < rec->ntask; i++) {
		if (rec->slots[i].ltid <= 0)
			continue;
		t[n].ltid = rec->slots[i].ltid;
		t[n].tid = tids[i];
		snprintf(t[n].host, sizeof(t[n].host), "%s", rec->slots[i].host);
		snprintf(t[n].program, sizeof(t[n].program), "%s", rec->file);
		n++;
	}
	rc = pg_proto_tell_spawned(pg_me->coord_tid, pg_me->ltid, t, n,
				   pg_me->ltid != 0);
	free(t);
	return rc;
}

/* Makes the children of the finished spawn REC (tids TIDS, started at
 * T0) known, hands them over in MODE and logs the call; 0 or < 0.  (A
 * replayed spawn hands over replay mode even when it was the last event
 * a what-if's task replayed: its children have cuts of their own.) */
static int spawn_finish(struct pg_spawn_rec *rec, int *tids, uint64_t t0,
			int mode)
{
	struct pg_event ev = { .kind = PG_REC_SPAWN, .t = t0 };
	int flags = (pg_me->ltid == 0 ? PG_FLAG_TOPLEVEL : 0) |
		    (pg_chaos_on() ? PG_FLAG_CHAOS : 0);
	int rc = 0;

	for (int i = 0; i < rec->ntask; i++)
		if (rec->slots[i].ltid > 0)
			pg_ids_learn(tids[i], rec->slots[i].ltid);
	if (pg_me->ltid == 0) /* (the launcher's own coordinator starts now) */
		pg_task0_coordinator_ready(calibrate_task0);
	if (rec->started > 0)
		rc = tell_spawned(rec, tids);
	for (int i = 0; i < rec->ntask && rc >= 0; i++)
		if (rec->slots[i].ltid > 0)
			rc = handover(tids[i], rec->slots[i].ltid, flags, mode);
	pg_log_spawn(rec);
	ev.msgid = (uint32_t)rec->seq;
	ev.len = (uint32_t)(rec->started > 0 ? rec->started : 0);
	ev.tag = rec->started < 0 ? rec->started : 0;
	ev.dur = pg_now() - t0;
	pg_log(&ev);
	return rc;
}

/* Fills the slots of REC from the result of a real spawn (N, TIDS). */
static void record_slots(struct pg_spawn_rec *rec, int n, const int *tids)
{
	struct pvmhostinfo *hosts = NULL;
	int nhost = 0, narch;

	/* (one look at the hosts for all the children) */
	if (n > 0 && pvm_config(&nhost, &narch, &hosts) < 0)
		nhost = 0;
	for (int i = 0; i < rec->ntask; i++) {
		struct pg_spawn_slot *s = &rec->slots[i];

		memset(s, 0, sizeof(*s));
		if (n >= 0 && tids[i] > 0) {
			s->ltid = pg_me->ltid * PG_LTID_FANOUT + ++nchildren;
			pg_pvm_host_in(hosts, nhost, tids[i], s->host,
				       sizeof(s->host));
		} else {
			s->err = n < 0 ? n : tids[i];
		}
	}
}

/* Whether NTASK more children still get ltids that fit in an int. */
static int ltids_left(int ntask)
{
	return nchildren + ntask < PG_LTID_FANOUT &&
	       pg_me->ltid <= (0x7fffffff - (PG_LTID_FANOUT - 1)) /
				      PG_LTID_FANOUT;
}

/* Starts the slots of REC on their recorded hosts, filling TIDS; 0, or
 * PG_REPLAY_DIVERGED when a recorded task cannot be started again. */
static int replay_start(const struct pg_spawn_rec *rec, char **argv,
			int flags, int *tids)
{
	flags = (flags & ~(PvmTaskHost | PvmTaskArch | PvmHostCompl)) |
		PvmTaskHost;
	for (int i = 0, k; i < rec->ntask; i += k) {
		const struct pg_spawn_slot *s = &rec->slots[i];
		int n;

		for (k = 1; s->ltid > 0 && i + k < rec->ntask &&
			    s[k].ltid > 0 && strcmp(s[k].host, s->host) == 0;
		     k++)
			;
		if (s->ltid <= 0) {
			tids[i] = s->err;
			continue;
		}
		n = pg_task0_spawn((char *)rec->file, argv, flags,
				   (char *)s->host, k, &tids[i]);
		if (n == k)
			continue;
		return pg_replay_diverge("cannot start task %d (%s) on host %s "
					 "again: %s", s[n > 0 ? n : 0].ltid,
					 rec->file, s->host,
					 pg_pvm_errtext(n < 0 ? n : tids[i + n]));
	}
	return 0;
}

/* Replays a spawn call; returns what the recorded call returned. */
static int spawn_replay(const char *file, char **argv, int flags, int ntask,
			int *tids, uint64_t t0)
{
	struct pg_spawn_rec call_rec = { .argv = argv, .ntask = ntask }, *rec;
	struct pg_call call = { .ev = { .kind = PG_REC_SPAWN },
				.spawn = &call_rec };

	snprintf(call_rec.file, sizeof(call_rec.file), "%s", file ? file : "");
	if (pg_replay_expect(&call, NULL, &rec) == PG_REPLAY_DIVERGED ||
	    replay_start(rec, argv, flags, tids) == PG_REPLAY_DIVERGED)
		return pg_task_diverged();
	spawn_seq++;
	nchildren += rec->started > 0 ? rec->started : 0;
	for (int i = 0; i < rec->ntask; i++)
		if (rec->slots[i].ltid > 0)
			pg_pvm_host_of(tids[i], rec->slots[i].host,
				       sizeof(rec->slots[i].host));
	spawn_finish(rec, tids, t0, PANGAEA_MODE_REPLAY);
	return rec->started;
}

int pg_spawn_children(void)
{
	return nchildren;
}

int pangaea_pvm_spawn(char *file, char **argv, int flags, char *where,
		      int ntask, int *tids)
{
	struct pg_spawn_slot slots[ntask > 0 ? ntask : 1];
	struct pg_spawn_rec rec = { 0 };
	uint64_t t0;
	int n;

	if (!pg_me->mode)
		return pvm_spawn(file, argv, flags, where, ntask, tids);
	pg_delay();
	t0 = pg_now();
	if (pg_me->mode == PANGAEA_MODE_REPLAY)
		return spawn_replay(file, argv, flags, ntask, tids, t0);
	if (ntask > 0 && !ltids_left(ntask)) {
		fprintf(stderr, "pangaea: task %d cannot spawn %d more tasks: "
			"a task has at most 999 children, and its ltid times "
			"1000 must stay below 2^31\n",
			pg_me->ltid, ntask);
		return PvmBadParam;
	}
	n = pg_task0_spawn(file, argv, flags, where, ntask, tids);
	rec.seq = ++spawn_seq;
	snprintf(rec.file, sizeof(rec.file), "%s", file ? file : "");
	snprintf(rec.where, sizeof(rec.where), "%s", where ? where : "");
	rec.flags = flags;
	rec.ntask = ntask > 0 ? ntask : 0;
	rec.started = n;
	rec.argv = argv;
	while (argv && argv[rec.argc])
		rec.argc++;
	rec.slots = slots;
	record_slots(&rec, n, tids);
	spawn_finish(&rec, tids, t0, pg_me->mode);
	return n;
}
