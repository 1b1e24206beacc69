/*
 * viewdb.c: the `pgdb` Tcl command, the viewer's window onto a run's trace
 * database (schema in docs/VIEWER.md and logs/trace-import.c).
 *
 *   pgdb open PATH            open PATH read-only; loads each task's event
 *                             times into memory for fast counting
 *   pgdb close
 *   pgdb meta                 dict of the meta table
 *   pgdb tasks                list of dicts, one per task, by ltid
 *   pgdb range                {tmin tmax}: first entry, last exit (wall ns)
 *   pgdb count T0 T1 ?LTIDS?  events whose entry lies in [T0, T1]
 *   pgdb summary T0 T1 N ?LTIDS?  {ltid {c1 .. cN} ...}: events per bin
 *   pgdb events T0 T1 ?LIMIT? flat list, 10 fields an event:
 *                             id ltid kind t0 t1 peer tag msgid len matched
 *   pgdb messages T0 T1 ?LIMIT?  flat list of matched messages crossing
 *                             the window, 9 fields: id src dst send_event
 *                             recv_event t_send t_recv kind tag
 *   pgdb event ID             dict of the event and its messages
 *   pgdb message ID           dict of one message
 *   pgdb find MSGID           flat list of events carrying MSGID:
 *                             id ltid kind t0
 *
 * Live runs (viewlive.c): pgdb live-open makes an empty database in
 * memory, pgdb live-connect PATH returns a Tcl channel reading the
 * coordinator's socket, pgdb live-add TEXT adds the lines read from it;
 * every query above then works on what has arrived so far.
 *
 * Only `count` and `summary` touch every event of the window, and they use
 * the in-memory arrays (binary search), so a zoomed-out picture of a
 * million events costs the same as one of a thousand.
 */
#include "viewdb.h"

#include <sqlite3.h>
#include <stdint.h>
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

/* Frees everything and forgets the database. */
void vdb_close(void)
{
	for (int i = 0; i < vdb.ntasks; i++)
		free(vdb.tasks[i].t);
	free(vdb.tasks);
	vdb_live_forget();
	if (vdb.db)
		sqlite3_close(vdb.db);
	memset(&vdb, 0, sizeof(vdb));
}

struct vdb_task *vdb_task_slot(int ltid)
{
	if (vdb.ntasks && vdb.tasks[vdb.ntasks - 1].ltid == ltid)
		return &vdb.tasks[vdb.ntasks - 1];
	for (int i = 0; i < vdb.ntasks; i++)
		if (vdb.tasks[i].ltid == ltid)
			return &vdb.tasks[i];
	vdb.tasks = realloc(vdb.tasks, (size_t)(vdb.ntasks + 1) * sizeof(*vdb.tasks));
	if (!vdb.tasks)
		abort();
	memset(&vdb.tasks[vdb.ntasks], 0, sizeof(*vdb.tasks));
	vdb.tasks[vdb.ntasks].ltid = ltid;
	return &vdb.tasks[vdb.ntasks++];
}

void vdb_task_time(struct vdb_task *t, int64_t v)
{
	size_t i;

	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->t = realloc(t->t, t->cap * sizeof(*t->t));
		if (!t->t)
			abort();
	}
	/* in order nearly always; a late one is moved into place */
	for (i = t->n; i > 0 && t->t[i - 1] > v; i--)
		t->t[i] = t->t[i - 1];
	t->t[i] = v;
	t->n++;
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
	if (sqlite3_prepare_v2(vdb.db, "SELECT ltid, t0, t1 FROM events", -1,
			       &st, NULL) != SQLITE_OK)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		vdb_task_time(vdb_task_slot(sqlite3_column_int(st, 0)),
			      sqlite3_column_int64(st, 1));
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

/* pgdb open PATH */
static int vdb_cmd_open(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	if (objc != 3) {
		Tcl_WrongNumArgs(ip, 2, objv, "PATH");
		return TCL_ERROR;
	}
	vdb_close();
	if (sqlite3_open_v2(Tcl_GetString(objv[2]), &vdb.db,
			    SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
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

/* Runs SQL (with int64 parameters ARGS) and returns its rows as a list of
   dicts (DICTS) or one flat list of values. */
static int vdb_query(Tcl_Interp *ip, const char *sql, const int64_t *args,
		     int nargs, int dicts)
{
	sqlite3_stmt *st;
	Tcl_Obj *res = Tcl_NewListObj(0, NULL);
	int rc;

	if (!vdb.db)
		return vdb_fail(ip, "no database open");
	if (sqlite3_prepare_v2(vdb.db, sql, -1, &st, NULL) != SQLITE_OK)
		return vdb_fail(ip, "query failed");
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

/* Reads objv[first..first+n) as wide integers into OUT; TCL_OK or error. */
static int vdb_ints(Tcl_Interp *ip, Tcl_Obj *const objv[], int n, int64_t *out)
{
	for (int i = 0; i < n; i++) {
		Tcl_WideInt w;

		if (Tcl_GetWideIntFromObj(ip, objv[i], &w) != TCL_OK)
			return TCL_ERROR;
		out[i] = (int64_t)w;
	}
	return TCL_OK;
}

/* Index of the first time >= V in T's sorted array. */
static size_t vdb_lower(const struct vdb_task *t, int64_t v)
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

/* 1 if task LTID passes the filter list LTIDS (NULL = every task). */
static int vdb_task_wanted(Tcl_Interp *ip, Tcl_Obj *ltids, int ltid)
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
static int vdb_cmd_count(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int64_t w[2], total = 0;

	if (objc < 4 || objc > 5) {
		Tcl_WrongNumArgs(ip, 2, objv, "T0 T1 ?LTIDS?");
		return TCL_ERROR;
	}
	if (vdb_ints(ip, objv + 2, 2, w) != TCL_OK)
		return TCL_ERROR;
	for (int i = 0; i < vdb.ntasks; i++)
		if (vdb_task_wanted(ip, objc == 5 ? objv[4] : NULL, vdb.tasks[i].ltid))
			total += (int64_t)(vdb_lower(&vdb.tasks[i], w[1] + 1) -
					   vdb_lower(&vdb.tasks[i], w[0]));
	Tcl_SetObjResult(ip, Tcl_NewWideIntObj(total));
	return TCL_OK;
}

/* pgdb summary T0 T1 NBINS ?LTIDS? */
static int vdb_cmd_summary(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int64_t w[3];
	Tcl_Obj *res;

	if (objc < 5 || objc > 6) {
		Tcl_WrongNumArgs(ip, 2, objv, "T0 T1 NBINS ?LTIDS?");
		return TCL_ERROR;
	}
	if (vdb_ints(ip, objv + 2, 3, w) != TCL_OK)
		return TCL_ERROR;
	if (w[2] < 1 || w[2] > 100000 || w[1] < w[0]) {
		Tcl_SetObjResult(ip, Tcl_NewStringObj("pgdb: bad window", -1));
		return TCL_ERROR;
	}
	res = Tcl_NewListObj(0, NULL);
	for (int i = 0; i < vdb.ntasks; i++) {
		const struct vdb_task *t = &vdb.tasks[i];
		Tcl_Obj *bins = Tcl_NewListObj(0, NULL);
		double span = (double)(w[1] - w[0] + 1);
		size_t prev = vdb_lower(t, w[0]);

		if (!vdb_task_wanted(ip, objc == 6 ? objv[5] : NULL, t->ltid))
			continue;
		for (int64_t b = 1; b <= w[2]; b++) {
			int64_t edge = w[0] + (int64_t)(span * (double)b / (double)w[2]);
			size_t next = vdb_lower(t, b == w[2] ? w[1] + 1 : edge);

			Tcl_ListObjAppendElement(NULL, bins, Tcl_NewWideIntObj(
						 (Tcl_WideInt)(next - prev)));
			prev = next;
		}
		Tcl_ListObjAppendElement(NULL, res, Tcl_NewIntObj(t->ltid));
		Tcl_ListObjAppendElement(NULL, res, bins);
	}
	Tcl_SetObjResult(ip, res);
	return TCL_OK;
}

/* Whether an event was matched: a send whose message some receive took, a
   receive of a logged send; other kinds count as matched. */
#define VDB_MATCHED_SQL \
	"CASE WHEN e.kind IN ('send','psend','mcast','bcast') THEN EXISTS(" \
	"SELECT 1 FROM messages m WHERE m.send_event = e.id AND " \
	"m.recv_event IS NOT NULL) " \
	"WHEN e.kind IN ('recv','nrecv','trecv','precv') THEN EXISTS(" \
	"SELECT 1 FROM messages m WHERE m.recv_event = e.id AND " \
	"m.send_event IS NOT NULL) ELSE 1 END"

/* pgdb events T0 T1 ?LIMIT? and pgdb messages T0 T1 ?LIMIT? */
static int vdb_cmd_window(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[],
			  int messages)
{
	int64_t a[5] = { 0, 0, 1000000, 0, 0 };

	if (objc < 4 || objc > 5) {
		Tcl_WrongNumArgs(ip, 2, objv, "T0 T1 ?LIMIT?");
		return TCL_ERROR;
	}
	if (vdb_ints(ip, objv + 2, objc - 2, a) != TCL_OK)
		return TCL_ERROR;
	if (!messages)
		return vdb_query(ip, "SELECT e.id, e.ltid, e.kind, e.t0, e.t1, "
				 "e.peer, e.tag, e.msgid, e.len, " VDB_MATCHED_SQL
				 " FROM events e WHERE e.t0 BETWEEN ?1 AND ?2 "
				 "ORDER BY e.t0 LIMIT ?3", a, 3, 0);
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
static int vdb_cmd_event(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int64_t id;
	Tcl_Obj *rows, *ev, *msgs;
	int n;

	if (objc != 3) {
		Tcl_WrongNumArgs(ip, 2, objv, "ID");
		return TCL_ERROR;
	}
	if (vdb_ints(ip, objv + 2, 1, &id) != TCL_OK ||
	    vdb_query(ip, "SELECT * FROM events WHERE id = ?1", &id, 1, 1) != TCL_OK)
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

/* pgdb message ID, pgdb find MSGID: one-parameter queries. */
static int vdb_cmd_one(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[],
		       const char *sql, int dicts)
{
	int64_t v;

	if (objc != 3) {
		Tcl_WrongNumArgs(ip, 2, objv, "NUMBER");
		return TCL_ERROR;
	}
	if (vdb_ints(ip, objv + 2, 1, &v) != TCL_OK)
		return TCL_ERROR;
	return vdb_query(ip, sql, &v, 1, dicts);
}

/* pgdb range */
static int vdb_cmd_range(Tcl_Interp *ip)
{
	Tcl_Obj *r[2];

	if (!vdb.db)
		return vdb_fail(ip, "no database open");
	r[0] = Tcl_NewWideIntObj(vdb.tmin);
	r[1] = Tcl_NewWideIntObj(vdb.tmax);
	Tcl_SetObjResult(ip, Tcl_NewListObj(2, r));
	return TCL_OK;
}

/* The `pgdb` command: dispatches on the subcommand. */
static int vdb_cmd(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	static const char *const subs[] = { "open", "close", "meta", "tasks",
		"range", "count", "summary", "events", "messages", "event",
		"message", "find", "live-open", "live-connect", "live-add", NULL };
	int sub;

	(void)cd;
	if (objc < 2) {
		Tcl_WrongNumArgs(ip, 1, objv, "subcommand ?arg ...?");
		return TCL_ERROR;
	}
	if (Tcl_GetIndexFromObj(ip, objv[1], subs, "subcommand", 0, &sub) != TCL_OK)
		return TCL_ERROR;
	switch (sub) {
	case 0: return vdb_cmd_open(ip, objc, objv);
	case 1: vdb_close(); return TCL_OK;
	case 2: return vdb_query(ip, "SELECT key, value FROM meta", NULL, 0, 0);
	case 3: return vdb_query(ip, "SELECT * FROM tasks ORDER BY ltid", NULL, 0, 1);
	case 4: return vdb_cmd_range(ip);
	case 5: return vdb_cmd_count(ip, objc, objv);
	case 6: return vdb_cmd_summary(ip, objc, objv);
	case 7: return vdb_cmd_window(ip, objc, objv, 0);
	case 8: return vdb_cmd_window(ip, objc, objv, 1);
	case 9: return vdb_cmd_event(ip, objc, objv);
	case 10: return vdb_cmd_one(ip, objc, objv,
				    "SELECT * FROM messages WHERE id = ?1", 1);
	case 12: return vdb_live_open(ip);
	case 13: return vdb_live_connect(ip, objc, objv);
	case 14: return vdb_live_add(ip, objc, objv);
	case 11: return vdb_cmd_one(ip, objc, objv, "SELECT id, ltid, kind, t0 "
				    "FROM events WHERE msgid = ?1 AND kind IN ("
				    "'send','psend','mcast','bcast','recv','nrecv',"
				    "'trecv','precv','probe') ORDER BY t0", 0);
	default: return TCL_ERROR;
	}
}

/* Frees the database when the interpreter goes. */
static void vdb_cmd_delete(ClientData cd)
{
	(void)cd;
	vdb_close();
}

int view_db_init(Tcl_Interp *interp)
{
	Tcl_CreateObjCommand(interp, "pgdb", vdb_cmd, NULL, vdb_cmd_delete);
	return TCL_OK;
}
