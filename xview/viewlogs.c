/*
 * viewlogs.c: a run drawn from its logs, without waiting for its trace
 * database.  `pgdb open-logs LOGDIR` reads every communication log once
 * (logs/format/commlog-read.c) into the in-memory model of viewdb.h: per
 * task its event times and what the window draws of each event.  The
 * matched messages, paired by the importer's matcher
 * (logs/analysis/match.c), come when first asked for (pgdb events,
 * messages: the logs read a second time): the first picture of a large
 * run is a summary that needs neither, and the matcher was about half
 * the time of reading 10 M events (and most of the memory).  The logs are read in the importer's order (tasks by ascending ltid, each log in
 * order) and numbered as it numbers them, so an event or message has the
 * id it gets in LOGDIR/trace.db; its times are the import's "offset"
 * times (docs/TRACEDB.md "Times").  The viewer imports in the background
 * meanwhile, and `pgdb attach PATH` then adds the database for what
 * needs SQL, keeping the arrays, when its times are those (else the
 * viewer opens it whole, viewdb.c).
 *
 * events, messages, tasks and meta are answered here from memory when
 * the logs were read or the run is live (viewlive.c fills the same
 * model), else by viewdb.c's SQL.
 */
#include "viewdb.h"
#include "match.h"
#include "pangaea-logs.h"
#include "tracedb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The state of one read of a log folder. */
struct logs_read {
	int64_t next_msg;  /* the last message id given */
	size_t npaired;    /* vdb_msg entries */
};

/* Records the message E paired with OTHER (one send end, one receive
 * end) under the next id; 0 or -1 when memory runs out. */
static int logs_pair(struct logs_read *lr, const struct pg_match_end *e,
		     const struct pg_match_end *other)
{
	const struct pg_match_end *s = pg_match_is_send(e) ? e : other;
	const struct pg_match_end *r = s == e ? other : e;
	struct vdb_msg *m;

	/* appended: sorted once all are read (vdb_msgs_sort) */
	if (!(m = pg_grow(vdb.msgs, &vdb.capmsgs, lr->npaired + 1, sizeof(*m),
			  1024)))
		return -1;
	vdb.msgs = m;
	m[lr->npaired] = (struct vdb_msg){ ++lr->next_msg, s->t, r->t, s->ev,
		r->ev, s->src, s->dst, s->tag, s->kind };
	vdb_msg_note(&m[lr->npaired++]);
	return 0;
}

/* The matcher's answer (pg_match_fn, ARG the logs_read): a completed
 * message is recorded; a foreign receive takes an id, as the importer
 * gives it a messages row.  0, or -1 when memory runs out. */
static int logs_told(void *arg, enum pg_match_what what,
		     const struct pg_match_end *e,
		     const struct pg_match_end *other)
{
	struct logs_read *lr = arg;

	if (what == PG_MATCH_FOREIGN)
		lr->next_msg++;
	return what == PG_MATCH_PAIRED ? logs_pair(lr, e, other) : 0;
}

/* What the events table has of event E (the importer's columns,
 * tracedb.c bind_event_fields), as a vdb_ev. */
static struct vdb_ev logs_fields(const struct pg_event *e)
{
	int cls = pg_rec_kind_class(e->kind);
	struct vdb_ev v = { e->peer, e->tag, e->msgid, e->len,
		(unsigned char)e->kind,
		cls != PG_CLASS_SEND && cls != PG_CLASS_RECV,
		VDB_HAS_PEER | VDB_HAS_TAG | VDB_HAS_MSGID | VDB_HAS_LEN };

	switch (e->kind) {
	case PG_REC_SPAWN:
		v.has = VDB_HAS_MSGID | VDB_HAS_LEN;
		break;
	case PG_REC_END:
	case PG_REC_POLLFAIL:
	case PG_REC_GROUP:
		v.has = 0;
		break;
	case PG_REC_KILL:
		v.has = VDB_HAS_PEER;
		break;
	case PG_REC_CALL:
		v.tag = e->arg2;
		v.len = e->nblob;
		v.has = VDB_HAS_PEER | VDB_HAS_TAG | VDB_HAS_LEN;
		break;
	case PG_REC_MCAST:
	case PG_REC_BCAST:
		v.has &= ~VDB_HAS_PEER;
	}
	return v;
}

/* Reads the open log R of task LTID (its t = 0 at BASE) into the arrays
 * (its messages: logs_match); 0, or -1 with ERR. */
static int logs_task(struct pg_comm_reader *r, int ltid, uint64_t base,
		     char *err, size_t errlen)
{
	struct vdb_task *t = vdb_task_slot(ltid);
	struct pg_event e;
	int rc;

	if (!t)
		goto oom;
	t->id0 = vdb.nevents;
	t->parent = r->hdr.parent_ltid;
	t->tid = r->hdr.tid;
	if (!(t->host = strdup(r->hdr.host)) ||
	    !(t->program = strdup(r->hdr.program)))
		goto oom;
	while ((rc = pg_comm_next(r, &e, err, errlen)) > 0) {
		int64_t t0 = (int64_t)(base + e.t), t1 = t0 + (int64_t)e.dur;
		struct vdb_ev v = logs_fields(&e);

		if (vdb_task_time(t, t0, t1, pg_ev_state(e.kind, e.op), &v, 0) < 0)
			goto oom;
		if (t1 > vdb.tmax)
			vdb.tmax = t1;
		vdb.nevents++;
	}
	if ((int64_t)base < t->start || !t->n)
		t->start = (int64_t)base;
	return rc < 0 ? -1 : 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* Reads every communication log of DIR into memory (vdb.mem), the
 * messages left for logs_match; 0, or -1 with ERR. */
static int logs_read(const char *dir, char *err, size_t errlen)
{
	struct pg_runinfo ri;
	struct pg_run run;
	int rc = -1;

	if (pg_run_open(&run, dir, err, errlen) < 0 || run.n == 0) {
		snprintf(err, errlen, "%s has no communication logs "
			 "(task-*.comm)", dir);
		pg_run_close(&run);
		return -1;
	}
	vdb.mem = 1;
	vdb.maxlat = 0;
	if (!(vdb.logdir = strdup(dir))) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (pg_run_open_all(&run, err, errlen) < 0)
		goto out;
	snprintf(vdb.mode, sizeof(vdb.mode), "%s",
		 run.rd[0].hdr.mode == 2 ? "replay" : "record");
	memset(&ri, 0, sizeof(ri));
	if (pg_runinfo_read(dir, &ri, err, errlen) > 0 && ri.mode[0])
		snprintf(vdb.mode, sizeof(vdb.mode), "%s", ri.mode);
	for (int i = 0; i < run.n; i++)
		if (logs_task(&run.rd[i], run.ltids[i], pg_run_base(&run, i),
			      err, errlen) < 0) {
			pg_runinfo_free(&ri);
			goto out;
		}
	/* each host's architecture, when run.info names them */
	for (int i = 0; i < vdb.ntasks; i++) {
		const char *a = vdb.tasks[i].host ?
				pg_runinfo_arch(&ri, vdb.tasks[i].host) : NULL;
		if (a && !(vdb.tasks[i].arch = strdup(a))) {
			snprintf(err, errlen, "out of memory");
			pg_runinfo_free(&ri);
			goto out;
		}
	}
	pg_runinfo_free(&ri);
	vdb.msgs_later = 1;
	vdb.tmin = INT64_MAX;
	for (int i = 0; i < vdb.ntasks; i++)
		if (vdb.tasks[i].n && vdb.tasks[i].t[0] < vdb.tmin)
			vdb.tmin = vdb.tasks[i].t[0];
	if (vdb.tmin == INT64_MAX)
		vdb.tmin = vdb.tmax = 0;
	rc = 0;
out:
	pg_run_close(&run);
	return rc;
}

/* Feeds the events of the log R of task T (its t = 0 at BASE), as many
 * as were read into T (a log that grew since is read no further), to
 * the matcher M; 0, or -1 with ERR. */
static int logs_match_task(struct logs_read *lr, struct pg_match *m,
			   struct pg_comm_reader *r, const struct vdb_task *t,
			   uint64_t base, char *err, size_t errlen)
{
	struct pg_event e;
	int rc = 1;

	for (size_t i = 0; i < t->n &&
	     (rc = pg_comm_next(r, &e, err, errlen)) > 0; i++) {
		int64_t t0 = (int64_t)(base + e.t), t1 = t0 + (int64_t)e.dur;

		if (pg_match_event(m, t->ltid, t->id0 + (int64_t)i + 1, &e, t0,
				   t1, logs_told, lr) != 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return rc < 0 ? -1 : 0;
}

/* Gives the matched messages (vdb.msgs) their events' times in the
 * model (a send's entry, a receive's exit, as the import's messages
 * rows have them once the clock ran), sorted by t_send again, and the
 * longest latency; 0, or -1 when memory runs out. */
static int logs_msgs_retime(void)
{
	vdb.maxlat = 0;
	for (size_t i = 0; i < vdb.nmsgs; i++) {
		struct vdb_msg *m = &vdb.msgs[i];
		const struct vdb_task *s = &vdb.tasks[vdb_task_of(m->send_event)];
		const struct vdb_task *r = &vdb.tasks[vdb_task_of(m->recv_event)];
		int64_t lat;

		m->t_send = s->t[m->send_event - s->id0 - 1];
		m->t_recv = r->t1[m->recv_event - r->id0 - 1];
		lat = m->t_recv > m->t_send ? m->t_recv - m->t_send
					    : m->t_send - m->t_recv;
		if (lat > vdb.maxlat)
			vdb.maxlat = lat;
	}
	vdb.msgs_sorted = 0; /* (their times moved: sorted again, whole) */
	return vdb_msgs_sort();
}

/* Matches the messages of the logs read (vdb.msgs, the events' matched
 * flags), once: the logs read again, in the same order, the events
 * numbered as before; 0, or -1 with ERR. */
static int logs_match(char *err, size_t errlen)
{
	struct logs_read lr = { 0 };
	struct pg_match m = { 0 };
	struct pg_run run;
	int rc = -1;

	if (!vdb.msgs_later)
		return 0;
	if (pg_run_open(&run, vdb.logdir, err, errlen) < 0 ||
	    pg_run_open_all(&run, err, errlen) < 0)
		goto out;
	for (int i = 0; i < run.n; i++) {
		const struct vdb_task *t = NULL;

		for (int k = 0; k < vdb.ntasks && !t; k++)
			if (vdb.tasks[k].ltid == run.ltids[i])
				t = &vdb.tasks[k];
		if (t && logs_match_task(&lr, &m, &run.rd[i], t,
					 pg_run_base(&run, i), err, errlen) < 0)
			goto out;
	}
	vdb.nmsgs = lr.npaired;
	vdb.msgs_sorted = 0;
	if (vdb_msgs_sort() < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	vdb.msgs_later = 0;
	if (vdb.clocked && logs_msgs_retime() < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	pg_run_close(&run);
	pg_match_free(&m);
	return rc;
}

/* Matches the messages of the logs read if that is still to do; TCL_OK,
 * or TCL_ERROR with the result set. */
static int logs_need_msgs(Tcl_Interp *ip)
{
	char err[1024];

	if (!vdb.mem || !vdb.msgs_later || logs_match(err, sizeof(err)) == 0)
		return TCL_OK;
	Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: %s", err));
	return TCL_ERROR;
}

/* pgdb open-logs LOGDIR */
int vdb_logs_open(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	char err[1024];

	(void)objc;
	vdb_close();
	if (logs_read(Tcl_GetString(objv[2]), err, sizeof(err)) < 0) {
		vdb_close();
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: %s", err));
		return TCL_ERROR;
	}
	return TCL_OK;
}

/* The first value of SQL on DB as text into BUF ("" when none); 0 or -1. */
static int logs_sql_text(sqlite3 *db, const char *sql, char *buf, size_t n)
{
	sqlite3_stmt *st;
	int rc = -1;

	buf[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_text(st, 0))
			snprintf(buf, n, "%s", sqlite3_column_text(st, 0));
		rc = 0;
	} else {
		rc = rc == SQLITE_DONE ? 0 : -1;
	}
	sqlite3_finalize(st);
	return rc;
}

/* pgdb attach PATH: 1 when the trace database PATH (of our schema) holds
 * the events read from the logs with the same times (its 'sync' is
 * offset, or the model has the clock's times: pgdb clock-logs) and is
 * now used beside them; 0 when it does not (open it with
 * `pgdb open`); an error when no logs are read or it cannot be opened. */
int vdb_logs_attach(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	const char *path = Tcl_GetString(objv[2]);
	char sync[32], count[32], want[32];
	sqlite3 *db;

	(void)objc;
	if (!vdb.mem || vdb.db)
		return vdb_fail(ip, "no log folder read, or a database attached");
	if (tdb_schema_version(path) != TDB_SCHEMA_VERSION) {
		Tcl_SetObjResult(ip, Tcl_NewIntObj(0));
		return TCL_OK;
	}
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return vdb_fail(ip, "cannot open the trace database");
	}
	snprintf(want, sizeof(want), "%lld", (long long)vdb.nevents);
	if (logs_sql_text(db, "SELECT value FROM meta WHERE key = 'sync'",
			  sync, sizeof(sync)) < 0 ||
	    logs_sql_text(db, "SELECT max(id) FROM events", count,
			  sizeof(count)) < 0 ||
	    (strcmp(sync, "offset") != 0 && !vdb.clocked) ||
	    strcmp(count, want) != 0) {
		sqlite3_close(db);
		Tcl_SetObjResult(ip, Tcl_NewIntObj(0));
		return TCL_OK;
	}
	vdb.db = db;
	if (vdb.logsdb) { /* its queries go to DB now */
		sqlite3_close(vdb.logsdb);
		vdb.logsdb = NULL;
	}
	Tcl_SetObjResult(ip, Tcl_NewIntObj(1));
	return TCL_OK;
}

/* Gives the model's events the times of the events table of DB (the
 * tables over the logs with the clock's times; its rows in id order,
 * task by task as the model): per task new arrays, swapped in when all
 * are made; the time range, the tasks' starts and the messages' times
 * follow.  0, or -1 with ERR when the query fails, memory runs out, or
 * a task's entries would leave their order (the model is then left as
 * it was). */
static int logs_retime(sqlite3 *db, char *err, size_t errlen)
{
	size_t nt = (size_t)vdb.ntasks + 1;
	int64_t **t0 = calloc(nt, sizeof(*t0)), **t1 = calloc(nt, sizeof(*t1));
	int64_t tmin = INT64_MAX, tmax = 0, got = 0;
	sqlite3_stmt *st = NULL;
	int k = 0, rc = -1, sq = SQLITE_ERROR;

	snprintf(err, errlen, "out of memory");
	for (int i = 0; t0 && t1 && i < vdb.ntasks; i++)
		if (!(t0[i] = malloc((vdb.tasks[i].n + 1) * sizeof(**t0))) ||
		    !(t1[i] = malloc((vdb.tasks[i].n + 1) * sizeof(**t1))))
			goto out;
	if (!t0 || !t1)
		goto out;
	if (sqlite3_prepare_v2(db, "SELECT id, t0, t1 FROM events", -1, &st,
			       NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		goto out;
	}
	while ((sq = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0), i;
		int64_t a = sqlite3_column_int64(st, 1), b = sqlite3_column_int64(st, 2);

		while (k < vdb.ntasks &&
		       id > vdb.tasks[k].id0 + (int64_t)vdb.tasks[k].n)
			k++;
		if (k == vdb.ntasks || id <= vdb.tasks[k].id0)
			continue; /* (an event logged since the model was read) */
		i = id - vdb.tasks[k].id0 - 1;
		if (i > 0 && a < t0[k][i - 1]) {
			snprintf(err, errlen, "the clock's times of task %d "
				 "are out of order", vdb.tasks[k].ltid);
			goto out;
		}
		t0[k][i] = a;
		t1[k][i] = b;
		tmax = b > tmax ? b : tmax;
		got++;
	}
	if (sq != SQLITE_DONE || got != vdb.nevents) {
		snprintf(err, errlen, "cannot read the clock's times: %s",
			 sq != SQLITE_DONE ? sqlite3_errmsg(db) : "events missing");
		goto out;
	}
	for (int i = 0; i < vdb.ntasks; i++) {
		struct vdb_task *t = &vdb.tasks[i];

		free(t->t);
		free(t->t1);
		t->t = t0[i];
		t->t1 = t1[i];
		t0[i] = t1[i] = NULL;
		t->cap = t->cap1 = t->n + 1;
		free(t->ck); /* (the states' checkpoints hold times) */
		t->ck = NULL;
		t->ck_n = 0;
		if (t->n && t->t[0] < t->start)
			t->start = t->t[0];
		if (t->n && t->t[0] < tmin)
			tmin = t->t[0];
	}
	vdb.tmin = tmin == INT64_MAX ? 0 : tmin;
	vdb.tmax = tmax;
	vdb.clocked = 1;
	if (!vdb.msgs_later && logs_msgs_retime() < 0)
		goto out;
	rc = 0;
out:
	sqlite3_finalize(st);
	for (int i = 0; t0 && t1 && i < vdb.ntasks; i++) {
		free(t0[i]);
		free(t1[i]);
	}
	free(t0);
	free(t1);
	return rc;
}

/* Whether the clock is to run on the logs of the folder read (pgdb
 * clock-logs): the model was read from them, no database or live run,
 * not clocked yet, and the import's keeping the logs' times is not
 * known (LOGSDB would answer as it is); 1 or 0. */
int vdb_logs_clock_wanted(void)
{
	return vdb.mem && !vdb.live && !vdb.idtask && !vdb.db && vdb.logdir &&
	       !vdb.clocked && vdb.logs_times <= 0;
}

/* The second half of pgdb clock-logs, on DB, the folder's tables over
 * its logs as tdb_open_logs_sync opened them (possibly in another
 * thread: viewlate.c): when the clock ran on them (meta sync not
 * offset) the model takes their times; DB then answers the details,
 * Find and histograms (closed on an error).  The result is 1 when the
 * times changed, else 0. */
int vdb_logs_clock_take(Tcl_Interp *ip, sqlite3 *db)
{
	char err[1024], sync[32];
	int clc;

	if (logs_sql_text(db, "SELECT value FROM meta WHERE key = 'sync'",
			  sync, sizeof(sync)) < 0) {
		sqlite3_close(db);
		return vdb_fail(ip, "cannot read the meta table");
	}
	clc = strcmp(sync, "offset") != 0;
	if (clc && logs_retime(db, err, sizeof(err)) < 0) {
		sqlite3_close(db);
		return vdb_fail(ip, err);
	}
	if (vdb.logsdb)
		sqlite3_close(vdb.logsdb);
	vdb.logsdb = db;
	vdb.logs_tried = 1;
	vdb.logs_times = 1;
	vdb.gen++; /* (what was computed from the old times) */
	Tcl_SetObjResult(ip, Tcl_NewIntObj(clc));
	return TCL_OK;
}

/* pgdb clock-logs: when the import of the log folder read would put its
 * times through the controlled logical clock (tdb_open_logs_sync: a run
 * across hosts, or a receive that ends before its send), the clock is
 * run on the logs in memory (nothing written), the model takes its
 * times (logs_retime: the window is drawn with the times the import
 * will give) and the details, Find and histograms are answered from
 * the tables over the logs with them, before the import is over: 1.
 * 0 when the import keeps the logs' times (the model's: LOGSDB answers
 * as it is), or nothing is to do (a database, a live run). */
int vdb_logs_clock(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	char err[1024];
	sqlite3 *db;

	(void)objc;
	(void)objv;
	if (!vdb_logs_clock_wanted()) {
		Tcl_SetObjResult(ip, Tcl_NewIntObj(0));
		return TCL_OK;
	}
	if (tdb_open_logs_sync(vdb.logdir, 1, &db, err, sizeof(err)) < 0)
		return vdb_fail(ip, err);
	return vdb_logs_clock_take(ip, db);
}

/* One event of the window: its task and index. */
struct logs_hit {
	int64_t t0;
	int task;
	size_t i;
};

/* Orders hits by entry time, then id (the order of ORDER BY t0). */
static int logs_hit_cmp(const void *a, const void *b)
{
	const struct logs_hit *x = a, *y = b;

	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	return x->task != y->task ? (x->task < y->task ? -1 : 1)
				  : (x->i > y->i) - (x->i < y->i);
}

/* pgdb events T0 T1 ?LIMIT?: as viewdb.c's, from memory: id ltid kind t0
 * t1 peer tag msgid len matched of each event entered in the window. */
int vdb_logs_events(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	struct logs_hit *h = NULL;
	size_t n = 0, cap = 0;
	int64_t a[3];
	Tcl_Obj *res;

	if (!vdb.mem)
		return vdb_cmd_events(ip, objc, objv);
	if (vdb_window(ip, objc, objv, a) != TCL_OK ||
	    logs_need_msgs(ip) != TCL_OK)
		return TCL_ERROR;
	for (int k = 0; k < vdb.ntasks; k++) {
		const struct vdb_task *t = &vdb.tasks[k];

		for (size_t i = vdb_lower(t, a[0]); i < t->n && t->t[i] <= a[1];
		     i++) {
			struct logs_hit *x = pg_grow(h, &cap, n + 1, sizeof(*h), 256);

			if (!x) {
				free(h);
				return vdb_fail(ip, "out of memory");
			}
			h = x;
			h[n++] = (struct logs_hit){ t->t[i], k, i };
		}
	}
	if (n) /* (h is NULL when no event is in the window) */
		qsort(h, n, sizeof(*h), logs_hit_cmp);
	res = Tcl_NewListObj(0, NULL);
	for (size_t j = 0; j < n && (int64_t)j < a[2]; j++) {
		const struct vdb_task *t = &vdb.tasks[h[j].task];
		const struct vdb_ev *e = &t->ev[h[j].i];
		Tcl_Obj *v[10] = {
			Tcl_NewWideIntObj(t->ids ? t->ids[h[j].i]
					  : t->id0 + (int64_t)h[j].i + 1),
			Tcl_NewIntObj(t->ltid),
			Tcl_NewStringObj(pg_rec_kind_name(e->kind), -1),
			Tcl_NewWideIntObj(t->t[h[j].i]),
			Tcl_NewWideIntObj(t->t1[h[j].i]),
			e->has & VDB_HAS_PEER ? Tcl_NewIntObj(e->peer) : Tcl_NewObj(),
			e->has & VDB_HAS_TAG ? Tcl_NewIntObj(e->tag) : Tcl_NewObj(),
			e->has & VDB_HAS_MSGID ? Tcl_NewWideIntObj(e->msgid) : Tcl_NewObj(),
			e->has & VDB_HAS_LEN ? Tcl_NewWideIntObj(e->len) : Tcl_NewObj(),
			Tcl_NewIntObj(e->matched) };

		for (int c = 0; c < 10; c++)
			Tcl_ListObjAppendElement(NULL, res, v[c]);
	}
	free(h);
	Tcl_SetObjResult(ip, res);
	return TCL_OK;
}

/* pgdb messages T0 T1 ?LIMIT?: as viewdb.c's, from memory: id src dst
 * send_event recv_event t_send t_recv kind tag of each matched message
 * crossing the window. */
int vdb_logs_messages(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	size_t lo = 0, hi = vdb.nmsgs;
	int64_t a[3], got = 0;
	Tcl_Obj *res;

	if (!vdb.mem)
		return vdb_cmd_messages(ip, objc, objv);
	if (vdb_window(ip, objc, objv, a) != TCL_OK ||
	    logs_need_msgs(ip) != TCL_OK)
		return TCL_ERROR;
	if (vdb_msgs_sort() < 0) {
		Tcl_SetObjResult(ip, Tcl_NewStringObj("pgdb: out of memory", -1));
		return TCL_ERROR;
	}
	/* its send lies within maxlat of the window */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (vdb.msgs[mid].t_send < a[0] - vdb.maxlat)
			lo = mid + 1;
		else
			hi = mid;
	}
	res = Tcl_NewListObj(0, NULL);
	for (size_t i = lo; i < vdb.nmsgs && got < a[2] &&
	     vdb.msgs[i].t_send <= a[1] + vdb.maxlat; i++) {
		const struct vdb_msg *m = &vdb.msgs[i];
		Tcl_Obj *v[9];

		if ((m->t_send < m->t_recv ? m->t_send : m->t_recv) > a[1] ||
		    (m->t_send > m->t_recv ? m->t_send : m->t_recv) < a[0])
			continue;
		v[0] = Tcl_NewWideIntObj(m->id);
		v[1] = Tcl_NewIntObj(m->src);
		v[2] = Tcl_NewIntObj(m->dst);
		v[3] = Tcl_NewWideIntObj(m->send_event);
		v[4] = Tcl_NewWideIntObj(m->recv_event);
		v[5] = Tcl_NewWideIntObj(m->t_send);
		v[6] = Tcl_NewWideIntObj(m->t_recv);
		v[7] = Tcl_NewStringObj(pg_rec_kind_name(m->kind), -1);
		v[8] = Tcl_NewIntObj(m->tag);
		for (int c = 0; c < 9; c++)
			Tcl_ListObjAppendElement(NULL, res, v[c]);
		got++;
	}
	Tcl_SetObjResult(ip, res);
	return TCL_OK;
}

/* pgdb tasks: as viewdb.c's (a dict per task, by ltid); from memory the
 * columns the logs or the live stream give: ltid parent_ltid tid program
 * host start_wall_ns t_first t_last nevents; arch too, the host's
 * architecture, when run.info names the hosts' (several). */
int vdb_logs_tasks(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	Tcl_Obj *res;
	int *order;

	if (!vdb.mem || (vdb.db && !vdb.live))
		return vdb_cmd_tasks(ip, objc, objv);
	/* by ltid (a live run's tasks come in any order) */
	if (!(order = malloc(((size_t)vdb.ntasks + 1) * sizeof(*order))))
		return vdb_fail(ip, "out of memory");
	for (int i = 0; i < vdb.ntasks; i++) {
		int k = i;

		for (; k > 0 && vdb.tasks[order[k - 1]].ltid > vdb.tasks[i].ltid; k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
	res = Tcl_NewListObj(0, NULL);
	for (int i = 0; i < vdb.ntasks; i++) {
		const struct vdb_task *t = &vdb.tasks[order[i]];
		Tcl_Obj *d = Tcl_NewDictObj();

#define PUT(k, v) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), v)
		PUT("ltid", Tcl_NewIntObj(t->ltid));
		PUT("parent_ltid", Tcl_NewIntObj(t->parent));
		PUT("tid", vdb.live ? Tcl_NewObj() : Tcl_NewIntObj(t->tid));
		PUT("program", Tcl_NewStringObj(t->program ? t->program : "", -1));
		PUT("host", Tcl_NewStringObj(t->host ? t->host : "", -1));
		if (t->arch)
			PUT("arch", Tcl_NewStringObj(t->arch, -1));
		PUT("start_wall_ns", t->n ? Tcl_NewWideIntObj(t->start) : Tcl_NewObj());
		PUT("t_first", t->n ? Tcl_NewWideIntObj(t->t[0]) : Tcl_NewObj());
		PUT("t_last", t->n ? Tcl_NewWideIntObj(t->t1[t->n - 1]) : Tcl_NewObj());
		PUT("nevents", Tcl_NewWideIntObj((Tcl_WideInt)t->n));
#undef PUT
		Tcl_ListObjAppendElement(NULL, res, d);
	}
	free(order);
	Tcl_SetObjResult(ip, res);
	return TCL_OK;
}

/* pgdb meta: as viewdb.c's; from memory: mode, logdir (a live run:
 * mode live). */
int vdb_logs_meta(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	Tcl_Obj *v[4];

	if (!vdb.mem || (vdb.db && !vdb.live))
		return vdb_cmd_meta(ip, objc, objv);
	v[0] = Tcl_NewStringObj("mode", -1);
	v[1] = Tcl_NewStringObj(vdb.mode, -1);
	v[2] = Tcl_NewStringObj("logdir", -1);
	v[3] = Tcl_NewStringObj(vdb.logdir ? vdb.logdir : "", -1);
	Tcl_SetObjResult(ip, Tcl_NewListObj(vdb.logdir ? 4 : 2, v));
	return TCL_OK;
}
