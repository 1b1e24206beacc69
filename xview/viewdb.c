/*
 * viewdb.c: the viewer's window onto a run's trace database (schema in
 * docs/TRACEDB.md): the database open (a file read-only, or the live
 * view's in memory), each task's event times kept in memory, and the
 * queries behind the pgdb subcommands (pgdb.c lists them).
 *
 * Only `count` (and the states of viewstate.c) touch every event of the
 * window, and they use the in-memory arrays (binary search), so a
 * zoomed-out picture of a million events costs about the same as one of
 * a thousand.
 */
#include "viewdb.h"
#include "pangaea-logs.h"
#include "tracedb.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vdb vdb;

/* Sets the interpreter result to "pgdb: MSG" (plus SQLite's error). */
int vdb_fail(Tcl_Interp *ip, const char *msg)
{
	Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: %s%s%s", msg,
			 vdb.db ? ": " : "", vdb.db ? sqlite3_errmsg(vdb.db) : ""));
	return TCL_ERROR;
}

void vdb_close(void)
{
	unsigned long gen = vdb.gen + 1;

	if (vdb.forget)
		vdb.forget();
	for (int i = 0; i < vdb.ntasks; i++) {
		free(vdb.tasks[i].t);
		free(vdb.tasks[i].t1);
		free(vdb.tasks[i].st);
		free(vdb.tasks[i].ck);
		free(vdb.tasks[i].ev);
		free(vdb.tasks[i].ids);
		free(vdb.tasks[i].host);
		free(vdb.tasks[i].arch);
		free(vdb.tasks[i].program);
	}
	free(vdb.msgs);
	free(vdb.logdir);
	free(vdb.idtask);
	free(vdb.tasks);
	if (vdb.db)
		sqlite3_close(vdb.db);
	if (vdb.logsdb)
		sqlite3_close(vdb.logsdb);
	memset(&vdb, 0, sizeof(vdb));
	vdb.gen = gen;
}

struct vdb_task *vdb_task_slot(int ltid)
{
	struct vdb_task *v;

	if (vdb.ntasks && vdb.tasks[vdb.ntasks - 1].ltid == ltid)
		return &vdb.tasks[vdb.ntasks - 1];
	for (int i = 0; i < vdb.ntasks; i++)
		if (vdb.tasks[i].ltid == ltid)
			return &vdb.tasks[i];
	if (!(v = pg_grow(vdb.tasks, &vdb.tasks_cap, (size_t)vdb.ntasks + 1,
			  sizeof(*v), 16)))
		return NULL;
	vdb.tasks = v;
	v = &vdb.tasks[vdb.ntasks++];
	memset(v, 0, sizeof(*v));
	v->ltid = ltid;
	return v;
}

long vdb_task_time(struct vdb_task *t, int64_t v, int64_t v1, int st,
		   const struct vdb_ev *e, int64_t id)
{
	int64_t *a, *a1, *ids = NULL;
	struct vdb_ev *ev = NULL;
	unsigned char *s;
	size_t i;

	if (!(a = pg_grow(t->t, &t->cap, t->n + 1, sizeof(*a), 256)))
		return -1;
	t->t = a;
	if (!(a1 = pg_grow(t->t1, &t->cap1, t->n + 1, sizeof(*a1), 256)))
		return -1;
	t->t1 = a1;
	if (!(s = pg_grow(t->st, &t->capst, t->n + 1, sizeof(*s), 256)))
		return -1;
	t->st = s;
	if (e && !(ev = t->ev = pg_grow(t->ev, &t->capev, t->n + 1,
					sizeof(*ev), 256)))
		return -1;
	if (id && !(ids = t->ids = pg_grow(t->ids, &t->capids, t->n + 1,
					   sizeof(*ids), 256)))
		return -1;
	/* in order nearly always; a late one is moved into place */
	for (i = t->n; i > 0 && a[i - 1] > v; i--) {
		a[i] = a[i - 1];
		a1[i] = a1[i - 1];
		s[i] = s[i - 1];
		if (ev)
			ev[i] = ev[i - 1];
		if (ids)
			ids[i] = ids[i - 1];
	}
	a[i] = v;
	a1[i] = v1;
	s[i] = (unsigned char)st;
	if (ev)
		ev[i] = *e;
	if (ids)
		ids[i] = id;
	if (!t->n || v < t->start)
		t->start = v;
	t->n++;
	return (long)i;
}

int vdb_task_of(int64_t id)
{
	size_t lo = 0, hi;

	for (hi = (size_t)vdb.ntasks; hi - lo > 1;) {
		size_t mid = lo + (hi - lo) / 2;

		if (vdb.tasks[mid].id0 < id)
			lo = mid;
		else
			hi = mid;
	}
	return (int)lo;
}

struct vdb_ev *vdb_ev_of(int64_t id)
{
	const struct vdb_task *t;
	size_t lo = 0, hi;

	if (vdb.idtask) { /* live: ids in arrival order */
		if (id < 1 || (size_t)id > vdb.nidtask)
			return NULL;
		t = &vdb.tasks[vdb.idtask[id - 1]];
		/* ascending but for a late event moved into place */
		for (hi = t->n; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (t->ids[mid] < id)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < t->n && t->ids[lo] == id)
			return &t->ev[lo];
		for (size_t i = 0; i < t->n; i++)
			if (t->ids[i] == id)
				return &t->ev[i];
		return NULL;
	}
	/* read from the logs */
	t = &vdb.tasks[vdb_task_of(id)];
	if (!vdb.ntasks || !t->ev || id <= t->id0 ||
	    (uint64_t)(id - t->id0) > t->n)
		return NULL;
	return &t->ev[id - t->id0 - 1];
}

void vdb_msg_note(const struct vdb_msg *m)
{
	struct vdb_ev *e;
	int64_t lat = m->t_recv > m->t_send ? m->t_recv - m->t_send
					    : m->t_send - m->t_recv;

	if ((e = vdb_ev_of(m->send_event)))
		e->matched = 1;
	if ((e = vdb_ev_of(m->recv_event)))
		e->matched = 1;
	if (lat > vdb.maxlat)
		vdb.maxlat = lat;
}

/*
 * Sorts the N messages of M by t_send, stably: a natural merge sort.
 * They come in runs already in order (a task's sends, or its receives,
 * paired as its log is read), so it merges a few runs in a few passes
 * where qsort took most of the time of reading a log folder.  0, or -1
 * when memory runs out (M unchanged).
 */
static int msgs_sort(struct vdb_msg *m, size_t n)
{
	struct vdb_msg *tmp, *src = m, *dst;
	size_t runs;

	if (n < 2)
		return 0;
	if (!(tmp = malloc(n * sizeof(*tmp))))
		return -1;
	dst = tmp;
	do {
		runs = 0;
		for (size_t a = 0; a < n; runs++) {
			size_t b = a + 1, c, i, j, k = a;

			while (b < n && src[b - 1].t_send <= src[b].t_send)
				b++;
			c = b < n ? b + 1 : b;
			while (c < n && src[c - 1].t_send <= src[c].t_send)
				c++;
			for (i = a, j = b; i < b && j < c;)
				dst[k++] = src[j].t_send < src[i].t_send ? src[j++]
									 : src[i++];
			memcpy(dst + k, src + i, (b - i) * sizeof(*dst));
			k += b - i;
			memcpy(dst + k, src + j, (c - j) * sizeof(*dst));
			a = c;
		}
		tmp = src;
		src = dst;
		dst = tmp;
	} while (runs > 1);
	if (src != m)
		memcpy(m, src, n * sizeof(*m));
	free(src == m ? dst : src);
	return 0;
}

int vdb_msg_add(const struct vdb_msg *m)
{
	struct vdb_msg *v = pg_grow(vdb.msgs, &vdb.capmsgs, vdb.nmsgs + 1,
				    sizeof(*v), 1024);

	if (!v)
		return -1;
	vdb.msgs = v;
	/* appended: sorted in when read (vdb_msgs_sort); shifting the later
	   sends up for each message that came late, as the batches of
	   different tasks do, was the live view's costliest step */
	if (vdb.msgs_sorted == vdb.nmsgs &&
	    (!vdb.nmsgs || v[vdb.nmsgs - 1].t_send <= m->t_send))
		vdb.msgs_sorted++;
	v[vdb.nmsgs++] = *m;
	vdb_msg_note(m);
	return 0;
}

int vdb_msgs_sort(void)
{
	size_t n = vdb.nmsgs - vdb.msgs_sorted, i = vdb.msgs_sorted, k;
	struct vdb_msg *m = vdb.msgs, *tail;

	if (!n)
		return 0;
	if (msgs_sort(m + i, n) < 0)
		return -1;
	if (i && m[i - 1].t_send > m[i].t_send) {
		/* merged from the back: only the sorted messages later than
		   the first added one move */
		if (!(tail = malloc(n * sizeof(*tail))))
			return -1;
		memcpy(tail, m + i, n * sizeof(*tail));
		for (k = i + n; n > 0;)
			m[--k] = i > 0 && m[i - 1].t_send > tail[n - 1].t_send ?
				 m[--i] : tail[--n];
		free(tail);
	}
	vdb.msgs_sorted = vdb.nmsgs;
	return 0;
}

sqlite3 *vdb_sql_logs(void)
{
	char err[256];

	if (vdb.db || !vdb.mem || vdb.live || vdb.idtask || !vdb.logdir ||
	    vdb.logs_tried)
		return vdb.db ? vdb.db : vdb.logsdb;
	vdb.logs_tried = 1;
	if (tdb_open_logs(vdb.logdir, &vdb.logsdb, err, sizeof(err)) < 0)
		vdb.logsdb = NULL;
	return vdb.logsdb;
}

sqlite3 *vdb_sql(void)
{
	sqlite3 *db = vdb_sql_logs();

	if (vdb.db || !db)
		return db;
	/* the import would put the times through the clock: the details
	   would not show the times drawn, so the queries wait for it */
	if (!vdb.logs_times)
		vdb.logs_times = tdb_logs_raw(db) ? 1 : -1;
	return vdb.logs_times > 0 ? db : NULL;
}

int vdb_rows(void)
{
	return vdb.flush ? vdb.flush() : 0;
}

/* Each task's start (tasks.start_wall_ns), when it is before its first
   event; a database without it keeps the first event's time. */
static void vdb_load_starts(void)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(vdb.db, "SELECT ltid, start_wall_ns FROM tasks "
			       "WHERE start_wall_ns > 0", -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW)
		for (int i = 0; i < vdb.ntasks; i++)
			if (vdb.tasks[i].ltid == sqlite3_column_int(st, 0) &&
			    sqlite3_column_int64(st, 1) < vdb.tasks[i].start)
				vdb.tasks[i].start = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
}

/*
 * Loads every task's sorted entry times and the time range; 0 or -1.
 * One pass in storage order, no index: a task's events are stored in
 * its own order (the importer writes task by task, the live view as they
 * come), so each task's list stays sorted as it grows.
 */
static int vdb_load_times(void)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	vdb.tmax = 0;
	if (sqlite3_prepare_v2(vdb.db, "SELECT ltid, t0, t1, kind, op FROM "
			       "events", -1, &st, NULL) != SQLITE_OK)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct vdb_task *t = vdb_task_slot(sqlite3_column_int(st, 0));

		if (!t || vdb_task_time(t, sqlite3_column_int64(st, 1),
				sqlite3_column_int64(st, 2), pg_ev_state(
				pg_rec_kind_of((const char *)sqlite3_column_text(st, 3)),
				pg_group_op_of((const char *)sqlite3_column_text(st, 4))),
				NULL, 0) < 0)
			break;
		if (sqlite3_column_int64(st, 2) > vdb.tmax)
			vdb.tmax = sqlite3_column_int64(st, 2);
	}
	if (rc != SQLITE_DONE)
		goto out;
	vdb.tmin = INT64_MAX;
	for (int i = 0; i < vdb.ntasks; i++)
		if (vdb.tasks[i].t[0] < vdb.tmin)
			vdb.tmin = vdb.tasks[i].t[0];
	if (!vdb.ntasks)
		vdb.tmin = vdb.tmax = 0;
	vdb_load_starts();
	vdb.maxlat = -1; /* found when first needed (vdb_maxlat) */
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc == 0 ? 0 : -1;
}

/* The longest |t_recv - t_send| of a matched message (one scan, the first
   time a window of messages is asked for); 0 or -1. */
static int vdb_maxlat(void)
{
	sqlite3_stmt *st;
	int rc = -1;

	if (vdb.maxlat >= 0)
		return 0;
	if (sqlite3_prepare_v2(vdb.db, "SELECT max(abs(t_recv - t_send)) FROM "
			       "messages WHERE send_event IS NOT NULL AND "
			       "recv_event IS NOT NULL", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		vdb.maxlat = sqlite3_column_int64(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* pgdb open PATH: a trace database of our schema version, read-only. */
/* Views that show the raw times (events.t0_raw, t1_raw) under the names
 * of the synchronised ones, for `pgdb open PATH 1`: temporary objects
 * come before the database's own in SQLite's name lookup. */
static const char vdb_raw_sql[] =
	"CREATE TEMP VIEW events AS SELECT id, ltid, seq, kind, peer, tag,"
	" msgid, len, coalesce(t0_raw, t0) AS t0, coalesce(t1_raw, t1) AS t1,"
	" count, grp, op, arg, result, dests, t0_raw, t1_raw FROM main.events;"
	"CREATE TEMP VIEW messages AS SELECT id, src, dst, tag, msgid, len,"
	" kind, send_event, recv_event, coalesce((SELECT t0 FROM temp.events e"
	" WHERE e.id = send_event), t_send) AS t_send, coalesce((SELECT t1"
	" FROM temp.events e WHERE e.id = recv_event), t_recv) AS t_recv,"
	" unmatched FROM main.messages;";

int vdb_cmd_open(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	const char *path = Tcl_GetString(objv[2]);
	int version = tdb_schema_version(path), raw = 0;

	vdb_close();
	if (version >= 0 && version != TDB_SCHEMA_VERSION) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: %s has schema version "
				 "%d, this viewer reads version %d: import its "
				 "logs again (pangaea-trace import LOGDIR)",
				 path, version, TDB_SCHEMA_VERSION));
		return TCL_ERROR;
	}
	if (objc > 3 && Tcl_GetBooleanFromObj(ip, objv[3], &raw) != TCL_OK)
		return TCL_ERROR;
	if (sqlite3_open_v2(path, &vdb.db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK ||
	    (raw && sqlite3_exec(vdb.db, vdb_raw_sql, NULL, NULL, NULL) !=
		    SQLITE_OK)) {
		vdb_fail(ip, "cannot open the trace database");
		vdb_close();
		return TCL_ERROR;
	}
	if (vdb_load_times() < 0) {
		vdb_fail(ip, "not a Pangaea trace database");
		vdb_close();
		return TCL_ERROR;
	}
	return TCL_OK;
}

/* Runs SQL (with int64 parameters ARGS) on DB (NULL: an error saying
   there is none yet) and returns its rows as a list of dicts (DICTS) or
   one flat list of values. */
static int vdb_query_on(Tcl_Interp *ip, sqlite3 *db, const char *sql,
			const int64_t *args, int nargs, int dicts)
{
	sqlite3_stmt *st;
	Tcl_Obj *res;
	int rc;

	if (!db)
		return vdb_fail(ip, vdb.mem ? "the trace database is not "
				"imported yet" : "no database open");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: query failed: %s",
				 sqlite3_errmsg(db)));
		return TCL_ERROR;
	}
	res = Tcl_NewListObj(0, NULL);
	for (int i = 0; i < nargs; i++)
		sqlite3_bind_int64(st, i + 1, args[i]);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		Tcl_Obj *row = dicts ? Tcl_NewDictObj() : res;

		for (int c = 0; c < sqlite3_column_count(st); c++) {
			Tcl_Obj *v;

			switch (sqlite3_column_type(st, c)) {
			case SQLITE_INTEGER:
				v = Tcl_NewWideIntObj(sqlite3_column_int64(st, c));
				break;
			case SQLITE_NULL:
				v = Tcl_NewObj();
				break;
			default:
				v = Tcl_NewStringObj((const char *)sqlite3_column_text(st, c), -1);
			}
			if (dicts)
				Tcl_DictObjPut(NULL, row, Tcl_NewStringObj(
					       sqlite3_column_name(st, c), -1), v);
			else
				Tcl_ListObjAppendElement(NULL, res, v);
		}
		if (dicts)
			Tcl_ListObjAppendElement(NULL, res, row);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		Tcl_DecrRefCount(res);
		return vdb_fail(ip, "query failed");
	}
	Tcl_SetObjResult(ip, res);
	return TCL_OK;
}

/* vdb_query_on the database of vdb_sql. */
static int vdb_query(Tcl_Interp *ip, const char *sql, const int64_t *args,
		     int nargs, int dicts)
{
	return vdb_query_on(ip, vdb_sql(), sql, args, nargs, dicts);
}

int vdb_ints(Tcl_Interp *ip, Tcl_Obj *const objv[], int n, int64_t *out)
{
	for (int i = 0; i < n; i++) {
		Tcl_WideInt w;

		if (Tcl_GetWideIntFromObj(ip, objv[i], &w) != TCL_OK)
			return TCL_ERROR;
		out[i] = (int64_t)w;
	}
	return TCL_OK;
}

size_t vdb_lower(const struct vdb_task *t, int64_t v)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->t[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int vdb_task_wanted(Tcl_Interp *ip, Tcl_Obj *ltids, int ltid)
{
	Tcl_Obj **v;
	int n, x;

	if (!ltids || Tcl_ListObjGetElements(ip, ltids, &n, &v) != TCL_OK)
		return 1;
	for (int i = 0; i < n; i++)
		if (Tcl_GetIntFromObj(NULL, v[i], &x) == TCL_OK && x == ltid)
			return 1;
	return 0;
}

/* pgdb count T0 T1 ?LTIDS? */
int vdb_cmd_count(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int64_t w[2], total = 0;

	if (vdb_ints(ip, objv + 2, 2, w) != TCL_OK)
		return TCL_ERROR;
	for (int i = 0; i < vdb.ntasks; i++)
		if (vdb_task_wanted(ip, objc == 5 ? objv[4] : NULL, vdb.tasks[i].ltid))
			total += (int64_t)(vdb_lower(&vdb.tasks[i], w[1] + 1) -
					   vdb_lower(&vdb.tasks[i], w[0]));
	Tcl_SetObjResult(ip, Tcl_NewWideIntObj(total));
	return TCL_OK;
}

/* The queries that name kinds of events, made by vdb_init. */
static char vdb_events_sql[1024], vdb_find_sql[512];

/* Writes the names of the kinds whose class is in CLASSES (a bit per
 * enum pg_kind_class) as an SQL list, 'send','psend',..., into BUF. */
static void vdb_kind_list(char *buf, size_t n, unsigned classes)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int kind = 1; kind <= PG_REC_LAST && k < n; kind++)
		if (classes & 1u << pg_rec_kind_class(kind))
			k += (size_t)snprintf(buf + k, n - k, "%s'%s'",
					      k ? "," : "", pg_rec_kind_name(kind));
}

void vdb_init(void)
{
	char send[256], recv[256], any[512];

	vdb_kind_list(send, sizeof(send), 1u << PG_CLASS_SEND);
	vdb_kind_list(recv, sizeof(recv), 1u << PG_CLASS_RECV);
	vdb_kind_list(any, sizeof(any), 1u << PG_CLASS_SEND |
		      1u << PG_CLASS_RECV | 1u << PG_CLASS_PROBE);
	/* an event is matched if it is a send whose message some receive
	   took, or a receive of a logged send; other kinds count as matched */
	snprintf(vdb_events_sql, sizeof(vdb_events_sql),
		 "SELECT e.id, e.ltid, e.kind, e.t0, e.t1, e.peer, e.tag, "
		 "e.msgid, e.len, CASE WHEN e.kind IN (%s) THEN EXISTS("
		 "SELECT 1 FROM messages m WHERE m.send_event = e.id AND "
		 "m.recv_event IS NOT NULL) WHEN e.kind IN (%s) THEN EXISTS("
		 "SELECT 1 FROM messages m WHERE m.recv_event = e.id AND "
		 "m.send_event IS NOT NULL) ELSE 1 END FROM events e "
		 "WHERE e.t0 BETWEEN ?1 AND ?2 ORDER BY e.t0 LIMIT ?3",
		 send, recv);
	/* the events that carry a message: sends, receives, probes */
	snprintf(vdb_find_sql, sizeof(vdb_find_sql),
		 "SELECT id, ltid, kind, t0 FROM events WHERE msgid = ?1 AND "
		 "kind IN (%s) ORDER BY t0", any);
}

int vdb_window(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[],
		      int64_t a[3])
{
	a[2] = 1000000;
	return vdb_ints(ip, objv + 2, objc - 2, a);
}

/* pgdb events T0 T1 ?LIMIT?: the events whose entry is in the window. */
int vdb_cmd_events(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int64_t a[3];

	if (vdb_window(ip, objc, objv, a) != TCL_OK)
		return TCL_ERROR;
	if (vdb_rows() < 0)
		return vdb_fail(ip, "cannot insert the live events");
	return vdb_query(ip, vdb_events_sql, a, 3, 0);
}

/* pgdb messages T0 T1 ?LIMIT?: the matched messages crossing the window. */
int vdb_cmd_messages(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int64_t a[5];

	if (vdb_window(ip, objc, objv, a) != TCL_OK)
		return TCL_ERROR;
	if (vdb_rows() < 0)
		return vdb_fail(ip, "cannot insert the live events");
	/* a message crosses the window if one end is in it or it spans it;
	   its send lies within maxlat of the window */
	if (!vdb.db || vdb_maxlat() < 0)
		return vdb_fail(ip, "query failed");
	a[3] = a[0] - vdb.maxlat;
	a[4] = a[1] + vdb.maxlat;
	return vdb_query(ip, "SELECT id, src, dst, send_event, recv_event, "
			 "t_send, t_recv, kind, tag FROM messages "
			 "WHERE t_send BETWEEN ?4 AND ?5 AND send_event IS NOT NULL "
			 "AND recv_event IS NOT NULL AND "
			 "min(t_send, t_recv) <= ?2 AND max(t_send, t_recv) >= ?1 "
			 "LIMIT ?3", a, 5, 0);
}

/* pgdb event ID: the event's columns, plus `messages`, the list of dicts of
   the messages it sent or received. */
int vdb_cmd_event(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int64_t id;
	Tcl_Obj *rows, *ev, *msgs;
	int n;

	if (vdb_rows() < 0)
		return vdb_fail(ip, "cannot insert the live events");
	if (vdb_ints(ip, objv + 2, 1, &id) != TCL_OK)
		return TCL_ERROR;
	/* (over the logs: a lookup by key, in the rows they keep in memory
	   once the first lookup read them) */
	if (vdb_query(ip, "SELECT * FROM events WHERE id = ?1", &id, 1,
		      1) != TCL_OK)
		return TCL_ERROR;
	rows = Tcl_GetObjResult(ip);
	if (Tcl_ListObjLength(ip, rows, &n) != TCL_OK || n != 1) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: no event %lld", (long long)id));
		return TCL_ERROR;
	}
	Tcl_ListObjIndex(ip, rows, 0, &ev);
	ev = Tcl_DuplicateObj(ev);
	Tcl_IncrRefCount(ev);
	if (vdb_query(ip, "SELECT * FROM messages WHERE send_event = ?1 OR "
		      "recv_event = ?1 ORDER BY dst", &id, 1, 1) != TCL_OK) {
		Tcl_DecrRefCount(ev);
		return TCL_ERROR;
	}
	msgs = Tcl_GetObjResult(ip);
	Tcl_DictObjPut(NULL, ev, Tcl_NewStringObj("messages", -1), msgs);
	Tcl_SetObjResult(ip, ev);
	Tcl_DecrRefCount(ev);
	return TCL_OK;
}

/* Runs SQL with the one number OBJV[2] as ?1: rows as dicts (DICTS) or
   one flat list. */
static int vdb_by_number(Tcl_Interp *ip, Tcl_Obj *const objv[],
			 const char *sql, int dicts)
{
	int64_t v;

	if (vdb_rows() < 0)
		return vdb_fail(ip, "cannot insert the live events");
	if (vdb_ints(ip, objv + 2, 1, &v) != TCL_OK)
		return TCL_ERROR;
	return vdb_query(ip, sql, &v, 1, dicts);
}

/* pgdb message ID: a list of the one message's dict. */
int vdb_cmd_message(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	return vdb_by_number(ip, objv, "SELECT * FROM messages WHERE id = ?1", 1);
}

/* pgdb find MSGID: id ltid kind t0 of each event carrying MSGID. */
int vdb_cmd_find(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	return vdb_by_number(ip, objv, vdb_find_sql, 0);
}

/* pgdb meta: key value ... of the meta table. */
int vdb_cmd_meta(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	return vdb_query(ip, "SELECT key, value FROM meta", NULL, 0, 0);
}

/* pgdb tasks: a dict per task, by ltid; arch: its host's architecture
 * (meta arch:HOST; empty when the hosts had one). */
int vdb_cmd_tasks(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	return vdb_query(ip, "SELECT tasks.*, (SELECT value FROM meta WHERE "
			 "key = 'arch:' || tasks.host) AS arch FROM tasks "
			 "ORDER BY ltid", NULL, 0, 1);
}

/* pgdb output: what the tasks printed (the output table), one flat list
 * of ID LTID T NL TEXT in time order.  (Its times are output.log's,
 * which the clock does not change: from the logs for any run.) */
int vdb_cmd_output(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	return vdb_query_on(ip, vdb_sql_logs(), "SELECT id, ltid, t, nl, text "
			    "FROM output ORDER BY t, id", NULL, 0, 0);
}

/* pgdb close */
int vdb_cmd_close(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	vdb_close();
	return TCL_OK;
}

/* pgdb range: {tmin tmax}, the first entry and the last exit. */
int vdb_cmd_range(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	Tcl_Obj *r[2];

	if (!vdb.db && !vdb.mem)
		return vdb_fail(ip, "no database open");
	r[0] = Tcl_NewWideIntObj(vdb.tmin);
	r[1] = Tcl_NewWideIntObj(vdb.tmax);
	Tcl_SetObjResult(ip, Tcl_NewListObj(2, r));
	return TCL_OK;
}
