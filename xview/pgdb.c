/*
 * pgdb.c: the `pgdb` Tcl command, the viewer's window onto a run's trace
 * database: a table of subcommands (name, how many arguments, what they
 * are, the function), checked and dispatched here, done by viewdb.c (a
 * database open) and viewlive.c (a live run's).
 *
 *   pgdb open PATH ?RAW?      open PATH read-only; loads each task's event
 *                             times into memory for fast counting; RAW
 *                             true: the raw times (t0_raw...) instead of
 *                             the synchronised ones
 *   pgdb open-logs LOGDIR     read LOGDIR's communication logs into memory
 *                             (viewlogs.c): the window is drawn without a
 *                             trace database; what needs SQL fails until
 *   pgdb clock-logs           a log folder read whose import would put
 *                             its times through the controlled logical
 *                             clock: the clock run on its logs in memory,
 *                             the model given its times and what needs
 *                             SQL answered from the tables over the logs
 *                             with them: 1; else 0 (nothing changed)
 *   pgdb attach PATH          adds the imported trace database: 1, or 0
 *                             when its times differ (then `open` it)
 *   pgdb close
 *   pgdb meta                 flat list key value ... of the meta table
 *   pgdb tasks                list of dicts, one per task, by ltid
 *   pgdb range                {tmin tmax}: first entry, last exit (wall ns)
 *   pgdb count T0 T1 ?LTIDS?  events whose entry lies in [T0, T1]
 *   pgdb events T0 T1 ?LIMIT? flat list, 10 fields an event:
 *                             id ltid kind t0 t1 peer tag msgid len matched
 *   pgdb messages T0 T1 ?LIMIT?  flat list of matched messages crossing
 *                             the window, 9 fields: id src dst send_event
 *                             recv_event t_send t_recv kind tag
 *   pgdb event ID             dict of the event and its messages
 *   pgdb message ID           list of the dict of one message
 *   pgdb find MSGID           flat list of events carrying MSGID:
 *                             id ltid kind t0
 *   pgdb states T0 T1 ?LTIDS? ltid {computing in-PVM waiting} ...: ns
 *                             each task spent in each state (viewstate.c)
 *   pgdb hists ?LTID?         dict of the histograms of task LTID (or the
 *                             run's) as pangaea-trace stats computes them
 *                             (viewhist.c, logs/tracedb/runstats.c)
 *   pgdb paint-states IMG T0 T1 LTID  paints the photo IMG with the task's
 *                             states, a pixel column per time bin
 *   pgdb paint-util IMG T0 T1 NTASKS ?LTIDS?  paints IMG with how many
 *                             tasks (of NTASKS, its height) are in each
 *   pgdb kinds                flat list kind class ...: every kind of
 *                             event and what it does with a message
 *                             (send, recv, probe, other)
 *   pgdb calls ?LOGDIR?       flat list kind call ... call:OP call ...:
 *                             the call(s) each kind of event and each op
 *                             of a call record comes from, as the run in
 *                             LOGDIR names them (MPI_Recv, pvm_recv:
 *                             logs/format/names.c); `hists` names its
 *                             calls so from then on
 *   pgdb stale LOGDIR         1 if LOGDIR/trace.db must be imported again
 *                             (logs/tracedb/tracedb-stale.c), else 0
 *   pgdb races-load LOGDIR    finds the racing events of LOGDIR's logs
 *                             (viewraces.c); their number
 *   pgdb races T0 T1 ?LIMIT?  flat list id what alternatives of the
 *                             racing events whose entry is in the window
 *   pgdb race ID              {what alternatives} of event ID, {} if it
 *                             does not race
 *   pgdb late-start LOGDIR CMD  the races and (when clock-logs would
 *                             run) the clock of the folder read, in a
 *                             thread (viewlate.c); CMD once done; 1 if
 *                             the clock runs, else 0
 *   pgdb late-finish          takes them: races N race_err MSG clocked
 *                             0|1 clock_err MSG
 *   pgdb late-cancel          waits for the thread, drops its work
 *
 * Live runs (viewlive.c): pgdb live-open makes an empty database in
 * memory, pgdb live-connect PATH CMD reads the coordinator's socket
 * into it in the background (CMD is told "events N", "refused MSG",
 * "end"; pgdb live-close stops it), pgdb live-add TEXT adds lines,
 * pgdb live-output DIR reads DIR/output.log (as far as it is written)
 * into the output table again;
 * every query above then works on what has arrived so far.
 */
#include "viewdb.h"
#include "pangaea-logs.h"
#include "tracedb.h"

#include <stddef.h>
#include <stdio.h>

/* pgdb kinds */
static int pgdb_kinds(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	static const char *const classes[] = {
		[PG_CLASS_OTHER] = "other", [PG_CLASS_SEND] = "send",
		[PG_CLASS_RECV] = "recv", [PG_CLASS_PROBE] = "probe",
	};
	Tcl_Obj *res = Tcl_NewListObj(0, NULL);

	for (int k = 1; k <= PG_REC_LAST; k++) {
		Tcl_ListObjAppendElement(NULL, res,
			Tcl_NewStringObj(pg_rec_kind_name(k), -1));
		Tcl_ListObjAppendElement(NULL, res,
			Tcl_NewStringObj(classes[pg_rec_kind_class(k)], -1));
	}
	Tcl_SetObjResult(ip, res);
	return TCL_OK;
}

/* pgdb calls ?LOGDIR? */
static int pgdb_calls(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	const struct pg_names *nm =
		pg_names_of_run(objc > 2 ? Tcl_GetString(objv[2]) : NULL);
	Tcl_Obj *res = Tcl_NewListObj(0, NULL);
	char name[64], key[64];

	vdb.names = nm;
	for (int k = 1; k <= PG_REC_LAST; k++) {
		Tcl_ListObjAppendElement(NULL, res,
			Tcl_NewStringObj(pg_rec_kind_name(k), -1));
		Tcl_ListObjAppendElement(NULL, res, Tcl_NewStringObj(
			pg_kind_call_name(nm, k, name, sizeof(name)), -1));
	}
	for (int op = 1; op <= PG_Q_LAST; op++) {
		if (!pg_call_name(nm, pg_call_of(PG_REC_CALL, op), name,
				  sizeof(name)))
			continue;
		snprintf(key, sizeof(key), "call:%s", pg_call_op_name(op));
		Tcl_ListObjAppendElement(NULL, res, Tcl_NewStringObj(key, -1));
		Tcl_ListObjAppendElement(NULL, res, Tcl_NewStringObj(name, -1));
	}
	Tcl_SetObjResult(ip, res);
	return TCL_OK;
}

/* pgdb stale LOGDIR */
static int pgdb_stale(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	Tcl_SetObjResult(ip, Tcl_NewBooleanObj(tdb_stale(Tcl_GetString(objv[2]))));
	return TCL_OK;
}

/* A subcommand: its name (first, for Tcl_GetIndexFromObjStruct), the
 * bounds of its number of arguments, their names, what does it. */
struct pgdb_cmd {
	const char *name;
	int min, max;
	const char *args;
	vdb_cmd_fn *run;
};

static const struct pgdb_cmd pgdb_cmds[] = {
	{ "open", 1, 2, "PATH ?RAW?", vdb_cmd_open },
	{ "close", 0, 0, NULL, vdb_cmd_close },
	{ "open-logs", 1, 1, "LOGDIR", vdb_logs_open },
	{ "clock-logs", 0, 0, NULL, vdb_logs_clock },
	{ "attach", 1, 1, "PATH", vdb_logs_attach },
	{ "meta", 0, 0, NULL, vdb_logs_meta },
	{ "tasks", 0, 0, NULL, vdb_logs_tasks },
	{ "range", 0, 0, NULL, vdb_cmd_range },
	{ "count", 2, 3, "T0 T1 ?LTIDS?", vdb_cmd_count },
	{ "events", 2, 3, "T0 T1 ?LIMIT?", vdb_logs_events },
	{ "messages", 2, 3, "T0 T1 ?LIMIT?", vdb_logs_messages },
	{ "event", 1, 1, "ID", vdb_cmd_event },
	{ "message", 1, 1, "ID", vdb_cmd_message },
	{ "find", 1, 1, "MSGID", vdb_cmd_find },
	{ "output", 0, 0, NULL, vdb_cmd_output },
	{ "races-load", 1, 1, "LOGDIR", vdb_races_load },
	{ "late-start", 2, 2, "LOGDIR CMD", vdb_late_start },
	{ "late-finish", 0, 0, NULL, vdb_late_finish },
	{ "late-cancel", 0, 0, NULL, vdb_late_cancel },
	{ "races", 2, 3, "T0 T1 ?LIMIT?", vdb_cmd_races },
	{ "race", 1, 1, "ID", vdb_cmd_race },
	{ "states", 2, 3, "T0 T1 ?LTIDS?", vdb_cmd_states },
	{ "hists", 0, 1, "?LTID?", vdb_cmd_hists },
	{ "paint-states", 4, 4, "IMG T0 T1 LTID", vdb_cmd_paint_states },
	{ "paint-util", 4, 5, "IMG T0 T1 NTASKS ?LTIDS?", vdb_cmd_paint_util },
	{ "kinds", 0, 0, NULL, pgdb_kinds },
	{ "calls", 0, 1, "?LOGDIR?", pgdb_calls },
	{ "stale", 1, 1, "LOGDIR", pgdb_stale },
	{ "live-open", 0, 0, NULL, vdb_live_open },
	{ "live-connect", 2, 2, "PATH CMD", vdb_live_connect },
	{ "live-close", 0, 0, NULL, vdb_live_close },
	{ "live-add", 1, 1, "TEXT", vdb_live_add },
	{ "live-output", 1, 1, "DIR", vdb_live_output },
	{ NULL, 0, 0, NULL, NULL }
};

/* The `pgdb` command: finds the subcommand, checks its arguments, runs it. */
static int pgdb_cmd(ClientData cd, Tcl_Interp *ip, int objc,
		    Tcl_Obj *const objv[])
{
	const struct pgdb_cmd *c;
	int i;

	(void)cd;
	if (objc < 2) {
		Tcl_WrongNumArgs(ip, 1, objv, "subcommand ?arg ...?");
		return TCL_ERROR;
	}
	if (Tcl_GetIndexFromObjStruct(ip, objv[1], pgdb_cmds, sizeof(*c),
				      "subcommand", 0, &i) != TCL_OK)
		return TCL_ERROR;
	c = &pgdb_cmds[i];
	if (objc - 2 < c->min || objc - 2 > c->max) {
		Tcl_WrongNumArgs(ip, 2, objv, c->args);
		return TCL_ERROR;
	}
	return c->run(ip, objc, objv);
}

/* Frees the database when the interpreter goes. */
static void pgdb_delete(ClientData cd)
{
	(void)cd;
	vdb_close();
}

int pgdb_init(Tcl_Interp *interp)
{
	vdb_init();
	Tcl_CreateObjCommand(interp, "pgdb", pgdb_cmd, NULL, pgdb_delete);
	return TCL_OK;
}
