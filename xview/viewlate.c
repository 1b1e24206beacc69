/*
 * viewlate.c: what the viewer works out of a log folder read while it is
 * imported, after its first picture: its racing events (viewraces.c)
 * and, when the import would put its times through the controlled
 * logical clock, the clock run on its logs (viewlogs.c, pgdb
 * clock-logs).  On a large run they take seconds (about 1.6 s and 7 s
 * for 10 M events here), so a thread of their own does them and the
 * window answers meanwhile: `pgdb late-start LOGDIR CMD` starts it, CMD
 * is evaluated when it is done (a pipe's file handler), and `pgdb
 * late-finish` gives what it found to the model, on the main thread.
 * The thread reads the logs only (vdb_races_find, tdb_open_logs_sync: no
 * state of the viewer, nothing of logs/ is shared); the SQLite
 * connection it opens is used by the main thread once it has ended.
 * `pgdb late-cancel` (another run opened) waits for it and drops its
 * work.
 */
#include "viewdb.h"
#include "pangaea-analysis.h"
#include "tracedb.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The late work of one folder. */
static struct {
	int running;          /* the thread was started and not joined */
	pthread_t th;
	int fd[2];            /* it writes a byte to fd[1] when done */
	Tcl_Interp *ip;
	Tcl_Obj *cmd;         /* evaluated then (a reference held) */
	char *dir;            /* the log folder */
	int clock;            /* the clock runs too */
	/* what the thread made (read once it has been joined) */
	struct pg_races races;
	int races_rc;
	char races_err[PG_PATH_MAX + 512];
	sqlite3 *db;
	int clock_rc;
	char clock_err[1024];
} late = { .fd = { -1, -1 } };

/* The thread: the races, then the clock, of late.dir. */
static void *late_run(void *arg)
{
	char b = 1;

	(void)arg;
	late.races_rc = vdb_races_find(late.dir, &late.races, late.races_err,
				       sizeof(late.races_err));
	if (late.clock)
		late.clock_rc = tdb_open_logs_sync(late.dir, 1, &late.db,
						   late.clock_err,
						   sizeof(late.clock_err));
	while (write(late.fd[1], &b, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* Lets go of the pipe, CMD and the folder's name (those set). */
static void late_release(void)
{
	if (late.fd[0] >= 0) {
		close(late.fd[0]);
		close(late.fd[1]);
	}
	late.fd[0] = late.fd[1] = -1;
	if (late.cmd)
		Tcl_DecrRefCount(late.cmd);
	late.cmd = NULL;
	free(late.dir);
	late.dir = NULL;
}

/* Joins the thread and late_release's (what it made stays in late
 * until taken or dropped). */
static void late_join(void)
{
	if (!late.running)
		return;
	Tcl_DeleteFileHandler(late.fd[0]);
	pthread_join(late.th, NULL);
	late.running = 0;
	late_release();
}

/* Drops what the thread made. */
static void late_drop(void)
{
	pg_races_free(&late.races);
	if (late.db)
		sqlite3_close(late.db);
	late.db = NULL;
}

/* The pipe's file handler: the thread is done; CMD says so to the
 * script (an error in it is a background error). */
static void late_ready(ClientData cd, int mask)
{
	Tcl_Interp *ip = late.ip;
	Tcl_Obj *cmd = late.cmd;

	(void)cd;
	(void)mask;
	Tcl_DeleteFileHandler(late.fd[0]);
	Tcl_IncrRefCount(cmd);
	Tcl_Preserve(ip);
	if (Tcl_EvalObjEx(ip, cmd, TCL_EVAL_GLOBAL) != TCL_OK)
		Tcl_BackgroundException(ip, TCL_ERROR);
	Tcl_Release(ip);
	Tcl_DecrRefCount(cmd);
}

int vdb_late_start(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	(void)objc;
	late_join();
	late_drop();
	if (pipe2(late.fd, O_CLOEXEC) < 0) {
		late.fd[0] = late.fd[1] = -1;
		return vdb_fail(ip, "cannot make a pipe");
	}
	if (!(late.dir = strdup(Tcl_GetString(objv[2])))) {
		late_release();
		return vdb_fail(ip, "out of memory");
	}
	late.ip = ip;
	late.cmd = objv[3];
	Tcl_IncrRefCount(late.cmd);
	late.clock = vdb_logs_clock_wanted();
	late.races_rc = late.clock_rc = 0;
	late.races_err[0] = late.clock_err[0] = '\0';
	if (pthread_create(&late.th, NULL, late_run, NULL) != 0) {
		late_release();
		return vdb_fail(ip, "cannot start a thread");
	}
	late.running = 1;
	Tcl_CreateFileHandler(late.fd[0], TCL_READABLE, late_ready, NULL);
	Tcl_SetObjResult(ip, Tcl_NewIntObj(late.clock));
	return TCL_OK;
}

int vdb_late_finish(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	Tcl_Obj *res = Tcl_NewListObj(0, NULL);
	size_t nraces;
	int clocked = 0;
	char clock_err[sizeof(late.clock_err)] = "";

	(void)objc;
	(void)objv;
	if (!late.running)
		return vdb_fail(ip, "no late work started");
	late_join();
	nraces = vdb_races_take(&late.races);
	/* (the model may have its times already, or a database) */
	if (late.clock && late.clock_rc == 0 && vdb_logs_clock_wanted()) {
		sqlite3 *db = late.db;

		late.db = NULL;
		if (vdb_logs_clock_take(ip, db) != TCL_OK)
			snprintf(clock_err, sizeof(clock_err), "%s",
				 Tcl_GetStringResult(ip));
		else
			Tcl_GetIntFromObj(NULL, Tcl_GetObjResult(ip), &clocked);
	} else if (late.clock && late.clock_rc < 0) {
		snprintf(clock_err, sizeof(clock_err), "pgdb: %s",
			 late.clock_err);
	}
	Tcl_ListObjAppendElement(NULL, res, Tcl_NewStringObj("races", -1));
	Tcl_ListObjAppendElement(NULL, res, Tcl_NewWideIntObj((Tcl_WideInt)nraces));
	Tcl_ListObjAppendElement(NULL, res, Tcl_NewStringObj("race_err", -1));
	Tcl_ListObjAppendElement(NULL, res, late.races_rc == 0 ?
		Tcl_NewObj() : Tcl_ObjPrintf("pgdb: %s", late.races_err));
	Tcl_ListObjAppendElement(NULL, res, Tcl_NewStringObj("clocked", -1));
	Tcl_ListObjAppendElement(NULL, res, Tcl_NewIntObj(clocked));
	Tcl_ListObjAppendElement(NULL, res, Tcl_NewStringObj("clock_err", -1));
	Tcl_ListObjAppendElement(NULL, res, Tcl_NewStringObj(clock_err, -1));
	late_drop();
	Tcl_SetObjResult(ip, res);
	return TCL_OK;
}

int vdb_late_cancel(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	(void)ip;
	(void)objc;
	(void)objv;
	late_join();
	late_drop();
	return TCL_OK;
}
