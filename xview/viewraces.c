/*
 * viewraces.c: the racing events of the open run for the viewer (pgdb
 * races-load, races, race), found from its log folder by the analysis
 * of pangaea-trace races (logs/analysis/happens-before.c,
 * logs/analysis/races.c) and kept in memory: the trace database holds the
 * clocks, not the races (a row per racing receive made the import half as slow
 * again).  Calls viewdb.c (the open database, or the model read from the
 * logs before their import, to name events) and nothing else of the viewer.
 */
#include "viewdb.h"
#include "pangaea-analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The races of the folder loaded last (none: n = 0). */
static struct pg_races races;

int vdb_races_find(const char *logdir, struct pg_races *r, char *err,
		   size_t errlen)
{
	struct pg_hb hb = { 0 };
	int rc = pg_hb_load(&hb, logdir, err, errlen);

	if (rc == 0 && pg_races_find(&hb, r) < 0) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	pg_hb_free(&hb);
	if (rc < 0)
		pg_races_free(r);
	return rc;
}

/* pgdb races-load LOGDIR: finds the racing events of LOGDIR's logs; their
 * number, or an error naming the log that cannot be read. */
int vdb_races_load(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	struct pg_races r = { 0 };
	char err[PG_PATH_MAX + 512] = "";
	int rc = vdb_races_find(Tcl_GetString(objv[2]), &r, err, sizeof(err));
	size_t n = vdb_races_take(&r);

	if (rc < 0) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: %s", err));
		return TCL_ERROR;
	}
	Tcl_SetObjResult(ip, Tcl_NewWideIntObj((Tcl_WideInt)n));
	return TCL_OK;
}

size_t vdb_races_take(struct pg_races *r)
{
	pg_races_free(&races);
	races = *r;
	memset(r, 0, sizeof(*r));
	return races.n;
}

/* Appends to LIST the event ID, what its race X is and its alternatives
 * ("1002:1 1003:1 nothing"). */
static void races_append(Tcl_Obj *list, sqlite3_int64 id,
			 const struct pg_race *x)
{
	Tcl_Obj *alts = Tcl_NewObj();

	for (int k = 0; k < x->nalt; k++) {
		const struct pg_race_alt *a = &x->alts[k];

		if (a->sender == PG_RACE_NOTHING)
			Tcl_AppendPrintfToObj(alts, "%snothing", k ? " " : "");
		else
			Tcl_AppendPrintfToObj(alts, "%s%d:%u", k ? " " : "",
					      a->sender, a->msgid);
	}
	Tcl_ListObjAppendElement(NULL, list, Tcl_NewWideIntObj(id));
	Tcl_ListObjAppendElement(NULL, list, Tcl_NewStringObj(
					 pg_race_what_name(x->what), -1));
	Tcl_ListObjAppendElement(NULL, list, alts);
}

/* Runs SQL (ltid and seq of events: ?1.. bound to the N values A) and
 * sets the result to ID WHAT ALTERNATIVES of each that races. */
static int races_query(Tcl_Interp *ip, const char *sql, const int64_t *a,
		       int n)
{
	Tcl_Obj *res = Tcl_NewListObj(0, NULL);
	sqlite3_stmt *st;

	if (!vdb.db)
		return vdb_fail(ip, "no database open");
	if (sqlite3_prepare_v2(vdb.db, sql, -1, &st, NULL) != SQLITE_OK)
		return vdb_fail(ip, "query failed");
	for (int i = 0; i < n; i++)
		sqlite3_bind_int64(st, i + 1, a[i]);
	while (races.n && sqlite3_step(st) == SQLITE_ROW) {
		const struct pg_race *x = pg_races_at(&races,
			sqlite3_column_int(st, 1), sqlite3_column_int64(st, 2));

		if (x)
			races_append(res, sqlite3_column_int64(st, 0), x);
	}
	sqlite3_finalize(st);
	Tcl_SetObjResult(ip, res);
	return TCL_OK;
}

/* Whether the open run is the model read from its logs (no database
 * yet: viewlogs.c), whose event number N of a task is id id0 + N, its
 * entry t[N - 1]; 1 or 0. */
static int races_model(void)
{
	return !vdb.db && vdb.mem && !vdb.live && !vdb.idtask;
}

/* The model's task LTID (races_model), or NULL. */
static const struct vdb_task *races_task(int ltid)
{
	for (int i = 0; i < vdb.ntasks; i++)
		if (vdb.tasks[i].ltid == ltid)
			return &vdb.tasks[i];
	return NULL;
}

/* A racing event of the model: its entry, id and race. */
struct races_hit {
	int64_t t0, id;
	const struct pg_race *x;
};

/* Orders hits by entry, then id (the trace database's events_t0). */
static int races_hit_cmp(const void *a, const void *b)
{
	const struct races_hit *x = a, *y = b;

	if (x->t0 != y->t0)
		return (x->t0 > y->t0) - (x->t0 < y->t0);
	return (x->id > y->id) - (x->id < y->id);
}

/* races_query for the model (races_model): the racing events with ids
 * in [A[0], A[1]] (BY_ID) or entries in the window [A[0], A[1]], in
 * entry order as from the database, at most A[2] of them. */
static int races_of_model(Tcl_Interp *ip, const int64_t a[3], int by_id)
{
	Tcl_Obj *res = Tcl_NewListObj(0, NULL);
	struct races_hit *h = malloc((races.n + 1) * sizeof(*h));
	size_t n = 0;

	if (!h)
		return vdb_fail(ip, "out of memory");
	for (size_t i = 0; i < races.n; i++) {
		const struct pg_race *x = &races.v[i];
		const struct vdb_task *t = races_task(x->ltid);
		int64_t id, t0;

		if (!t || x->event < 1 || (uint64_t)x->event > t->n)
			continue;
		id = t->id0 + x->event;
		t0 = t->t[x->event - 1];
		if (by_id ? id < a[0] || id > a[1] : t0 < a[0] || t0 > a[1])
			continue;
		h[n++] = (struct races_hit){ t0, id, x };
	}
	qsort(h, n, sizeof(*h), races_hit_cmp);
	for (size_t i = 0; i < n && (int64_t)i < a[2]; i++)
		races_append(res, h[i].id, h[i].x);
	free(h);
	Tcl_SetObjResult(ip, res);
	return TCL_OK;
}

/* pgdb races T0 T1 ?LIMIT?: ID WHAT ALTERNATIVES of each racing event
 * whose entry is in the window (of at most LIMIT events), one flat list. */
int vdb_cmd_races(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int64_t a[3] = { 0, 0, 1000000 };

	if (vdb_ints(ip, objv + 2, objc - 2, a) != TCL_OK)
		return TCL_ERROR;
	if (races_model())
		return races_of_model(ip, a, 0);
	return races_query(ip, "SELECT id, ltid, seq FROM events WHERE t0 "
			   "BETWEEN ?1 AND ?2 LIMIT ?3", a, 3);
}

/* pgdb race ID: WHAT ALTERNATIVES of event ID if it races, else {}. */
int vdb_cmd_race(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int64_t id;
	Tcl_Obj **v;
	int n;

	if (vdb_ints(ip, objv + 2, 1, &id) != TCL_OK)
		return TCL_ERROR;
	if (!races.n) { /* none (or not loaded yet): no query to run */
		Tcl_ResetResult(ip);
		return TCL_OK;
	}
	if ((races_model() ? races_of_model(ip, (int64_t[3]){ id, id, 1 }, 1)
			   : races_query(ip, "SELECT id, ltid, seq FROM events "
					 "WHERE id = ?1", &id, 1)) != TCL_OK ||
	    Tcl_ListObjGetElements(ip, Tcl_GetObjResult(ip), &n, &v) != TCL_OK)
		return TCL_ERROR;
	/* (v stays valid: the new list holds its own references first) */
	Tcl_SetObjResult(ip, Tcl_NewListObj(n == 3 ? 2 : 0, v + 1));
	return TCL_OK;
}
