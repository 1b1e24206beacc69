/*
 * viewdb.h: inside the `pgdb` command (viewdb.c: reading a trace database;
 * viewlive.c: building one in memory from a live run).
 */
#ifndef PANGAEA_VIEWDB_H
#define PANGAEA_VIEWDB_H

#include "view.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* One task's event entry times, sorted. */
struct vdb_task {
	int ltid;
	int64_t *t;
	size_t n, cap;
};

/* The open database and what we keep of it in memory. */
struct vdb {
	sqlite3 *db;
	struct vdb_task *tasks;
	int ntasks;
	int64_t tmin, tmax;
	int64_t maxlat; /* largest |t_recv - t_send| of a matched message */
	int live;       /* an in-memory database fed by pgdb live-add */
};

extern struct vdb vdb;

/* Sets the interpreter result to "pgdb: MSG" (plus SQLite's error). */
int vdb_fail(Tcl_Interp *ip, const char *msg);
/* Frees everything and forgets the database. */
void vdb_close(void);
/* The time array of LTID, added if new. */
struct vdb_task *vdb_task_slot(int ltid);
/* Adds entry time V to T's sorted array. */
void vdb_task_time(struct vdb_task *t, int64_t v);

/* viewlive.c: pgdb live-open, live-connect PATH, live-add TEXT. */
int vdb_live_open(Tcl_Interp *ip);
int vdb_live_connect(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[]);
int vdb_live_add(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[]);
/* Finalizes the live database's prepared statements (before closing it). */
void vdb_live_forget(void);

#endif /* PANGAEA_VIEWDB_H */
