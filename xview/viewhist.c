/*
 * viewhist.c: pgdb hists ?LTID?, the histograms of the stats window:
 * per PVM call the time per call, the message sizes, the computation
 * granularity and the communication overhead, of one task or of the
 * run, with the time in each state.  The numbers are those of
 * "pangaea-trace stats" (logs/tracedb/runstats.c computes both), from the open
 * database (or, before a log folder's import, the tables over its logs);
 * computed once per database and number of events (a live
 * run's grow: then at most once a second), kept until then.
 */
#include "viewdb.h"
#include "runstats.h"

#include <string.h>

/* The statistics computed last, and of what. */
static struct {
	struct st_run r;
	int have;
	unsigned long gen;  /* vdb.gen they were computed from */
	size_t nevents;     /* events in memory then */
	double when;        /* and when (s), for a live run's */
} vh;

/* A live run's histograms are made again at most this often (s): each
   time is a pass over all its events. */
#define VH_LIVE_EVERY 1.0

/* Now, in seconds. */
static double vh_now(void)
{
	Tcl_Time t;

	Tcl_GetTime(&t);
	return (double)t.sec + t.usec / 1e6;
}

/* Events the viewer holds in memory. */
static size_t vh_nevents(void)
{
	size_t n = 0;

	for (int i = 0; i < vdb.ntasks; i++)
		n += vdb.tasks[i].n;
	return n;
}

/* Makes vh hold the statistics of the open database; TCL_OK or an
   error in IP. */
static int vh_load(Tcl_Interp *ip)
{
	char err[512];
	size_t n = vh_nevents();
	sqlite3 *db;

	if (vh.have && vh.gen == vdb.gen &&
	    (vh.nevents == n || (vdb.live && vh_now() - vh.when < VH_LIVE_EVERY)))
		return TCL_OK;
	if (vh.have)
		st_run_free(&vh.r);
	vh.have = 0;
	/* a log folder not yet imported: the tables over its logs, when
	   the import keeps their times (vdb_sql) */
	if (!(db = vdb.live ? vdb.db : vdb_sql()))
		return vdb_fail(ip, vdb.mem ? "the trace database is not "
				"imported yet" : "no database open");
	if (vdb_rows() < 0)
		return vdb_fail(ip, "cannot insert the live events");
	/* a live run's tasks rows have no counts nor starts yet: its events
	   say them (the start: the first event's, as the live states') */
	if (vdb.live &&
	    sqlite3_exec(vdb.db, "UPDATE tasks SET nevents = (SELECT count(*) "
			 "FROM events e WHERE e.ltid = tasks.ltid), "
			 "start_wall_ns = coalesce(start_wall_ns, (SELECT "
			 "min(t0) FROM events e WHERE e.ltid = tasks.ltid))",
			 NULL, NULL, NULL) != SQLITE_OK)
		return vdb_fail(ip, "cannot count the live run's events");
	if (st_run_load(db, "trace.db", -1, &vh.r, err, sizeof(err)) < 0) {
		st_run_free(&vh.r);
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: %s", err));
		return TCL_ERROR;
	}
	vh.have = 1;
	vh.gen = vdb.gen;
	vh.nevents = n;
	vh.when = vh_now();
	return TCL_OK;
}

/* A Tcl list of the N counts V. */
static Tcl_Obj *vh_counts(const long *v, int n)
{
	Tcl_Obj *l = Tcl_NewListObj(0, NULL);

	for (int i = 0; i < n; i++)
		Tcl_ListObjAppendElement(NULL, l, Tcl_NewLongObj(v[i]));
	return l;
}

/* A Tcl list of the N strings S. */
static Tcl_Obj *vh_names(const char *const *s, int n)
{
	Tcl_Obj *l = Tcl_NewListObj(0, NULL);

	for (int i = 0; i < n; i++)
		Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(s[i], -1));
	return l;
}

/* Appends KEY and VALUE to the dict-shaped list D. */
static void vh_put(Tcl_Obj *d, const char *key, Tcl_Obj *value)
{
	Tcl_ListObjAppendElement(NULL, d, Tcl_NewStringObj(key, -1));
	Tcl_ListObjAppendElement(NULL, d, value);
}

/* pgdb hists ?LTID?: a dict of task LTID's histograms (the run's when
 * LTID is missing or "all"): tasks {LTID ...} (those with events),
 * task, buckets and sizebuckets (the names), calls {FUNCTION {COUNTS}
 * ...}, sizes, granularity, overhead (8 counts each) and states
 * {computing in-PVM waiting} (ns). */
int vdb_cmd_hists(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	const struct st_task *t;
	Tcl_Obj *d, *l;
	int ltid = -1;
	char name[64];

	if (objc == 3 && strcmp(Tcl_GetString(objv[2]), "all") != 0 &&
	    Tcl_GetIntFromObj(ip, objv[2], &ltid) != TCL_OK)
		return TCL_ERROR;
	if (vh_load(ip) != TCL_OK)
		return TCL_ERROR;
	t = &vh.r.all;
	for (int i = 0; ltid >= 0 && i < vh.r.n; i++)
		if (vh.r.t[i].ltid == ltid)
			t = &vh.r.t[i];
	if (ltid >= 0 && t->ltid != ltid) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: task %d has no events",
						   ltid));
		return TCL_ERROR;
	}
	d = Tcl_NewListObj(0, NULL);
	l = Tcl_NewListObj(0, NULL);
	for (int i = 0; i < vh.r.n; i++)
		Tcl_ListObjAppendElement(NULL, l, Tcl_NewIntObj(vh.r.t[i].ltid));
	vh_put(d, "tasks", l);
	vh_put(d, "task", ltid < 0 ? Tcl_NewStringObj("all", -1) :
	       Tcl_NewIntObj(ltid));
	vh_put(d, "buckets", vh_names(st_bucket_names, ST_NBUCKET));
	vh_put(d, "sizebuckets", vh_names(st_size_names, ST_NBUCKET));
	l = Tcl_NewListObj(0, NULL);
	for (int f = 1; f < ST_NFUNC; f++) {
		long h[ST_NBUCKET];

		if (!t->f[f].n)
			continue;
		st_call_hist(t, f, h);
		if (!pg_call_name(vdb.names ? vdb.names : &pg_names_pvm, f,
				  name, sizeof(name)))
			snprintf(name, sizeof(name), "call %d", f);
		Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(name, -1));
		Tcl_ListObjAppendElement(NULL, l, vh_counts(h, ST_NBUCKET));
	}
	vh_put(d, "calls", l);
	vh_put(d, "sizes", vh_counts(t->sizes, ST_NBUCKET));
	vh_put(d, "granularity", vh_counts(t->comp.n, ST_NBUCKET));
	vh_put(d, "overhead", vh_counts(t->comm.n, ST_NBUCKET));
	l = Tcl_NewListObj(0, NULL);
	for (int s = 0; s < PG_ST_N; s++)
		Tcl_ListObjAppendElement(NULL, l,
					 Tcl_NewWideIntObj((Tcl_WideInt)t->state_ns[s]));
	vh_put(d, "states", l);
	Tcl_SetObjResult(ip, d);
	return TCL_OK;
}
