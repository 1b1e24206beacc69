/*
 * spawn.c: pvm_spawn under Pangaea.  Each child gets its ltid from its
 * parent (parent * 1000 + k for the parent's k-th child) in a handover
 * message; the coordinator learns the new tids before the call returns;
 * the spawn is written to the execution log.  Replay runs the recorded
 * programs on the recorded hosts.
 */
#include "pangaea-internal.h"

#include <stdio.h>
#include <string.h>

void pg_host_of(int tid, char *buf, size_t n)
{
	struct pvmhostinfo *hosts;
	int nhost, narch, dtid = pvm_tidtohost(tid);

	snprintf(buf, n, "?");
	if (dtid < 0 || pvm_config(&nhost, &narch, &hosts) < 0)
		return;
	for (int i = 0; i < nhost; i++)
		if (hosts[i].hi_tid == dtid)
			snprintf(buf, n, "%s", hosts[i].hi_name);
}

int pg_handover(int tid, int ltid, int flags)
{
	struct pg_chan_saved saved;
	int v[6] = { ltid, pg.mode, pg.coord_tid, pg.launcher_tid, flags,
		     pg.delay_us };
	int rc;

	pg_chan_enter(&saved);
	rc = pg_chan_initsend();
	if (rc >= 0) {
		pvm_pkint(v, 6, 1);
		pg_pkstr(pg.logdir);
		pg_pkstr(pg.replaydir);
		pg_pkstr(pg.select);
		rc = pg_chan_send(tid, PG_TAG_HANDOVER);
	}
	pg_chan_leave(&saved);
	return rc;
}

/* Tells the coordinator about the children of REC and waits for its ack. */
static int tell_spawned(const struct pg_spawn_rec *rec, const int *tids)
{
	struct pg_chan_saved saved;
	int rc, status = PvmSysErr;

	pg_chan_enter(&saved);
	rc = pg_chan_initsend();
	if (rc >= 0) {
		pvm_pkint(&pg.ltid, 1, 1);
		pvm_pkint((int *)&rec->started, 1, 1);
		for (int i = 0; i < rec->ntask; i++) {
			if (rec->slots[i].ltid <= 0)
				continue;
			pvm_pkint((int *)&rec->slots[i].ltid, 1, 1);
			pvm_pkint((int *)&tids[i], 1, 1);
			pg_pkstr(rec->slots[i].host);
			pg_pkstr(rec->file);
		}
		rc = pg_chan_send(pg.coord_tid, PG_TAG_SPAWNED);
	}
	if (rc >= 0 && pg_chan_recv(pg.coord_tid, PG_TAG_ACK) > 0)
		pvm_upkint(&status, 1, 1);
	pg_chan_leave(&saved);
	return status;
}

int pg_spawn_finish(struct pg_spawn_rec *rec, int *tids, uint64_t t0)
{
	struct pg_event ev = { .kind = PG_REC_SPAWN, .t = t0 };
	int flags = pg.ltid == 0 ? PG_FLAG_TOPLEVEL : 0;
	int rc = 0;

	for (int i = 0; i < rec->ntask; i++)
		if (rec->slots[i].ltid > 0)
			pg_ids_add(&pg.ids, tids[i], rec->slots[i].ltid);
	if (rec->started > 0)
		rc = tell_spawned(rec, tids);
	for (int i = 0; i < rec->ntask && rc >= 0; i++)
		if (rec->slots[i].ltid > 0)
			rc = pg_handover(tids[i], rec->slots[i].ltid, flags);
	if (pg.exec_fd >= 0)
		pg_exec_append(pg.exec_fd, rec);
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
	for (int i = 0; i < rec->ntask; i++) {
		struct pg_spawn_slot *s = &rec->slots[i];

		memset(s, 0, sizeof(*s));
		if (n >= 0 && tids[i] > 0) {
			s->ltid = pg.ltid * PG_LTID_FANOUT + ++pg.nchildren;
			pg_host_of(tids[i], s->host, sizeof(s->host));
		} else {
			s->err = n < 0 ? n : tids[i];
		}
	}
}

/* Whether NTASK more children still get ltids that fit in an int. */
static int ltids_left(int ntask)
{
	return pg.nchildren + ntask < PG_LTID_FANOUT &&
	       pg.ltid <= (0x7fffffff - (PG_LTID_FANOUT - 1)) / PG_LTID_FANOUT;
}

/* Checks a spawn call against the recorded REC; diverges on a difference. */
static void replay_check(const struct pg_spawn_rec *rec, const char *file,
			 char **argv, int ntask)
{
	struct pg_event want;
	int same_args = 1, i;

	/* The launcher (task 0) has an execution log but no comm log. */
	if (pg.ltid != 0 && (!pg_replay_peek(&want) || want.kind != PG_REC_SPAWN ||
			     want.msgid != (uint32_t)rec->seq)) {
		char w[256] = "the end of the recording";

		if (pg.have_next)
			pg_event_describe(&want, w, sizeof(w));
		pg_diverge("the log expects %s; the program called pvm_spawn(%s)",
			   w, file);
	}
	for (i = 0; argv && argv[i] && i < rec->argc; i++)
		same_args &= strcmp(argv[i], rec->argv[i]) == 0;
	same_args &= i == rec->argc && (!argv || !argv[i]);
	if (strcmp(file, rec->file) != 0 || ntask != rec->ntask ||
	    (!same_args && pg.ltid != 0))
		pg_diverge("the log expects spawn #%d of %d x \"%s\"; the program "
			   "spawned %d x \"%s\"%s", rec->seq, rec->ntask,
			   rec->file, ntask, file,
			   same_args ? "" : " with other arguments");
	if (pg.ltid != 0)
		pg_replay_take();
}

/* Starts the slots of REC on their recorded hosts, filling TIDS. */
static void replay_start(const struct pg_spawn_rec *rec, char **argv,
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
		n = pvm_spawn((char *)rec->file, argv, flags, (char *)s->host, k,
			      &tids[i]);
		if (n != k)
			pg_diverge("cannot start task %d (%s) on host %s again: "
				   "%s", s[n > 0 ? n : 0].ltid, rec->file, s->host,
				   pg_pvm_errtext(n < 0 ? n : tids[i + n]));
	}
}

/* Replays a spawn call; returns what the recorded call returned. */
static int spawn_replay(const char *file, char **argv, int flags, int ntask,
			int *tids, uint64_t t0)
{
	struct pg_spawn_rec *rec;

	if (pg.rexec_pos >= pg.rexec.nspawn)
		pg_diverge("the program spawns \"%s\" but the recording has no "
			   "more spawns for this task", file);
	rec = &pg.rexec.spawns[pg.rexec_pos];
	replay_check(rec, file, argv, ntask);
	pg.rexec_pos++;
	replay_start(rec, argv, flags, tids);
	pg.spawn_seq++;
	pg.nchildren += rec->started > 0 ? rec->started : 0;
	for (int i = 0; i < rec->ntask; i++)
		if (rec->slots[i].ltid > 0)
			pg_host_of(tids[i], rec->slots[i].host,
				   sizeof(rec->slots[i].host));
	pg_spawn_finish(rec, tids, t0);
	return rec->started;
}

int pangaea_pvm_spawn(char *file, char **argv, int flags, char *where,
		      int ntask, int *tids)
{
	struct pg_spawn_slot slots[ntask > 0 ? ntask : 1];
	struct pg_spawn_rec rec = { 0 };
	uint64_t t0;
	int n;

	if (!pg.mode)
		return pvm_spawn(file, argv, flags, where, ntask, tids);
	pg_delay();
	t0 = pg_now();
	if (pg.mode == PANGAEA_MODE_REPLAY)
		return spawn_replay(file, argv, flags, ntask, tids, t0);
	if (ntask > 0 && !ltids_left(ntask)) {
		fprintf(stderr, "pangaea: task %d cannot spawn %d more tasks: "
			"a task has at most 999 children, and its ltid times "
			"1000 must stay below 2^31\n",
			pg.ltid, ntask);
		return PvmBadParam;
	}
	n = pvm_spawn(file, argv, flags, where, ntask, tids);
	rec.seq = ++pg.spawn_seq;
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
	pg_spawn_finish(&rec, tids, t0);
	return n;
}
