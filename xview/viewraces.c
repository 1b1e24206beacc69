/*
 * viewraces.c: the racing events of the open run for the viewer (pgdb
 * races-load, races, race), found from its log folder by the analysis
 * of pangaea-trace races (logs/analysis/happens-before.c,
 * logs/analysis/races.c) and kept in memory: the trace database holds the
 * clocks, not the races (a row per racing receive made the import half as slow
 * again).  Calls viewdb.c (the open database, to name events) and nothing else
 * of the viewer.
 */
#include "viewdb.h"
#include "pangaea-analysis.h"

#include <stdio.h>

/* The races of the folder loaded last (none: n = 0). */
static struct pg_races races;

/* pgdb races-load LOGDIR: finds the racing events of LOGDIR's logs; their
 * number, or an error naming the log that cannot be read. */
int vdb_races_load(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	struct pg_hb hb = { 0 };
	char err[PG_PATH_MAX + 512] = "";
	int rc;

	pg_races_free(&races);
	rc = pg_hb_load(&hb, Tcl_GetString(objv[2]), err, sizeof(err));
	if (rc == 0 && pg_races_find(&hb, &races) < 0) {
		snprintf(err, sizeof(err), "out of memory");
		rc = -1;
	}
	pg_hb_free(&hb);
	if (rc < 0) {
		pg_races_free(&races);
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: %s", err));
		return TCL_ERROR;
	}
	Tcl_SetObjResult(ip, Tcl_NewWideIntObj((Tcl_WideInt)races.n));
	return TCL_OK;
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

/* pgdb races T0 T1 ?LIMIT?: ID WHAT ALTERNATIVES of each racing event
 * whose entry is in the window (of at most LIMIT events), one flat list. */
int vdb_cmd_races(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	int64_t a[3] = { 0, 0, 1000000 };

	if (vdb_ints(ip, objv + 2, objc - 2, a) != TCL_OK)
		return TCL_ERROR;
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
	if (races_query(ip, "SELECT id, ltid, seq FROM events WHERE id = ?1",
			&id, 1) != TCL_OK ||
	    Tcl_ListObjGetElements(ip, Tcl_GetObjResult(ip), &n, &v) != TCL_OK)
		return TCL_ERROR;
	/* (v stays valid: the new list holds its own references first) */
	Tcl_SetObjResult(ip, Tcl_NewListObj(n == 3 ? 2 : 0, v + 1));
	return TCL_OK;
}
