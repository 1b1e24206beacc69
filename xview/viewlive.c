/*
 * viewlive.c: a live run in memory.  The coordinator relays the run's
 * events as text lines (coordinator/viewers.c):
 *
 *   T LTID PARENT HOST PROGRAM
 *   E LTID KIND T0 T1 PEER TAG MSGID LEN COUNT [DEST...]
 *
 * `pgdb live-add` puts them in an in-memory database of the trace schema,
 * matching each receive with its send (either may come first: batches of
 * different tasks arrive in any order), so the viewer draws a live run
 * with the same queries as a recorded one.
 */
#include "viewdb.h"
#include "tracedb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* What the live database adds to the trace schema (tracedb-schema.c):
 * its meta rows, and an index for matching the two ends of a message
 * as they arrive. */
_Static_assert(TDB_SCHEMA_VERSION == 1, "update live_sql's schema_version");
static const char live_sql[] =
	"INSERT INTO meta VALUES('schema_version','1'),('mode','live');"
	"CREATE INDEX messages_key ON messages(src, msgid, dst);";

/* The statements the live database runs for every event, prepared once
 * when it opens: a live run can add tens of thousands of events a second,
 * and preparing each one anew (SQL parsing) cost more than the rest. */
enum live_q {
	Q_EVENT,        /* an event row */
	Q_TASK,         /* a task row, once */
	Q_SEND_MATCH,   /* a send fills the row its receive made */
	Q_SEND_NEW,     /* or adds the row */
	Q_SEND_LAT,     /* the latency of the message a send completed */
	Q_RECV_MATCH,   /* a receive fills the row its send made */
	Q_RECV_NEW,     /* or adds the row */
	Q_RECV_LAT,     /* the latency of the message a receive completed */
	Q_COUNT
};

static const char *const live_q_sql[Q_COUNT] = {
	[Q_EVENT] = "INSERT INTO events(ltid, seq, kind, peer, tag, msgid, len, "
		    "t0, t1, count, dests) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
		    "?8, ?9, ?10, ?11)",
	[Q_TASK] = "INSERT OR IGNORE INTO tasks(ltid, parent_ltid, host, "
		   "program) VALUES (?1, ?2, ?3, ?4)",
	[Q_SEND_MATCH] = "UPDATE messages SET send_event = ?4, t_send = ?5 "
			 "WHERE src = ?1 AND msgid = ?2 AND dst = ?3 AND "
			 "send_event IS NULL",
	[Q_SEND_NEW] = "INSERT INTO messages(src, msgid, dst, send_event, "
		       "t_send, tag, len, kind) VALUES (?1, ?2, ?3, ?4, ?5, "
		       "?6, ?7, ?8)",
	[Q_SEND_LAT] = "SELECT abs(t_recv - t_send) FROM messages "
		       "WHERE send_event = ?1",
	[Q_RECV_MATCH] = "UPDATE messages SET recv_event = ?4, t_recv = ?5 "
			 "WHERE src = ?1 AND msgid = ?2 AND dst = ?3 AND "
			 "recv_event IS NULL",
	[Q_RECV_NEW] = "INSERT INTO messages(src, msgid, dst, recv_event, "
		       "t_recv, t_send, tag, len, kind) VALUES (?1, ?2, ?3, "
		       "?4, ?5, ?5, ?6, ?7, 'send')",
	[Q_RECV_LAT] = "SELECT abs(t_recv - t_send) FROM messages "
		       "WHERE recv_event = ?1 AND send_event IS NOT NULL",
};

static sqlite3_stmt *live_q[Q_COUNT];

/* Statement Q, ready to bind (reset, bindings cleared). */
static sqlite3_stmt *live_stmt(enum live_q q)
{
	sqlite3_reset(live_q[q]);
	sqlite3_clear_bindings(live_q[q]);
	return live_q[q];
}

/* Prepares every statement of live_q_sql; 0 or -1. */
static int live_prepare(void)
{
	for (int q = 0; q < Q_COUNT; q++)
		if (sqlite3_prepare_v2(vdb.db, live_q_sql[q], -1, &live_q[q],
				       NULL) != SQLITE_OK)
			return -1;
	return 0;
}

/* Finalizes the statements (vdb.forget: the database is closing). */
static void live_forget(void)
{
	for (int q = 0; q < Q_COUNT; q++) {
		sqlite3_finalize(live_q[q]);
		live_q[q] = NULL;
	}
}

int vdb_live_open(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	vdb_close();
	vdb.forget = live_forget;
	/* one thread uses it: no mutex around every call */
	if (sqlite3_open_v2(":memory:", &vdb.db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK ||
	    sqlite3_exec(vdb.db, tdb_schema_sql(), NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(vdb.db, tdb_index_sql(), NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(vdb.db, live_sql, NULL, NULL, NULL) != SQLITE_OK ||
	    live_prepare() < 0) {
		vdb_fail(ip, "cannot make the live database");
		vdb_close();
		return TCL_ERROR;
	}
	vdb.live = 1;
	vdb.tmin = INT64_MAX;
	vdb.tmax = 0;
	vdb.maxlat = 0;
	return TCL_OK;
}

int vdb_live_connect(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *path = Tcl_GetString(objv[2]);
	Tcl_Channel ch;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: socket path too long: %s", path));
		return TCL_ERROR;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: cannot connect to %s: %s",
						   path, strerror(errno)));
		if (fd >= 0)
			close(fd);
		return TCL_ERROR;
	}
	ch = Tcl_MakeFileChannel((ClientData)(intptr_t)fd, TCL_READABLE);
	Tcl_RegisterChannel(ip, ch);
	Tcl_SetObjResult(ip, Tcl_NewStringObj(Tcl_GetChannelName(ch), -1));
	return TCL_OK;
}

/* Runs Q with the int64 parameters A[0..n); the rows it changed, or -1. */
static int live_exec(enum live_q q, const int64_t *a, int n)
{
	sqlite3_stmt *st = live_stmt(q);
	int rc;

	for (int i = 0; i < n; i++)
		sqlite3_bind_int64(st, i + 1, a[i]);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? sqlite3_changes(vdb.db) : -1;
}

/* Widens the longest latency with the message Q finds for event ID. */
static void live_latency(enum live_q q, int64_t id)
{
	sqlite3_stmt *st = live_stmt(q);

	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) > vdb.maxlat)
		vdb.maxlat = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
}

/* The send side of message (SRC, MSGID, DST): fills the row a receive
   made, or adds one.  A = {src, msgid, dst, event, t0, tag, len}. */
static void live_send(int64_t *a, const char *kind)
{
	sqlite3_stmt *st;

	if (live_exec(Q_SEND_MATCH, a, 5) > 0) {
		live_latency(Q_SEND_LAT, a[3]);
		return;
	}
	st = live_stmt(Q_SEND_NEW);
	for (int i = 0; i < 7; i++)
		sqlite3_bind_int64(st, i + 1, a[i]);
	sqlite3_bind_text(st, 8, kind, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_reset(st);
}

/* The receive side: A = {src, msgid, dst, event, t0, tag, len}. */
static void live_recv(int64_t *a)
{
	if (live_exec(Q_RECV_MATCH, a, 5) > 0)
		live_latency(Q_RECV_LAT, a[3]);
	else
		live_exec(Q_RECV_NEW, a, 7);
}

/* Adds event line L ("E ..." without the E); 0 or -1 if malformed. */
static int live_event(char *l)
{
	char kind[16], *rest = NULL;
	long long v[9];
	int64_t a[7];
	sqlite3_stmt *st;
	struct vdb_task *t;
	int n = 0;

	if (sscanf(l, "%lld %15s %lld %lld %lld %lld %lld %lld %lld%n", &v[0],
		   kind, &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &n) != 9)
		return -1;
	rest = l + n;
	while (*rest == ' ')
		rest++;
	if (!(t = vdb_task_slot((int)v[0])))
		return -1;
	st = live_stmt(Q_EVENT);
	sqlite3_bind_int64(st, 1, v[0]);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)t->n + 1);
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, v[3]);
	sqlite3_bind_int64(st, 5, v[4]);
	sqlite3_bind_int64(st, 6, v[5]);
	sqlite3_bind_int64(st, 7, v[6]);
	sqlite3_bind_int64(st, 8, v[1]);
	sqlite3_bind_int64(st, 9, v[2]);
	sqlite3_bind_int64(st, 10, v[7]);
	if (*rest)
		sqlite3_bind_text(st, 11, rest, -1, SQLITE_TRANSIENT);
	n = sqlite3_step(st);
	sqlite3_reset(st);
	if (n != SQLITE_DONE || vdb_task_time(t, v[1]) < 0)
		return -1;
	if (v[1] < vdb.tmin)
		vdb.tmin = v[1];
	if (v[2] > vdb.tmax)
		vdb.tmax = v[2];
	a[3] = sqlite3_last_insert_rowid(vdb.db);
	a[1] = v[5];
	a[4] = v[1];
	a[5] = v[4];
	a[6] = v[6];
	if (!strcmp(kind, "send") || !strcmp(kind, "psend")) {
		a[0] = v[0];
		a[2] = v[3];
		live_send(a, kind);
	} else if (!strcmp(kind, "mcast") || !strcmp(kind, "bcast")) {
		char *p = rest, *end;

		a[0] = v[0];
		for (long d = strtol(p, &end, 10); end != p; d = strtol(p, &end, 10)) {
			a[2] = d;
			live_send(a, kind);
			p = end;
		}
	} else if ((!strcmp(kind, "recv") || !strcmp(kind, "nrecv") ||
		    !strcmp(kind, "trecv") || !strcmp(kind, "precv")) && v[3] >= 0) {
		a[0] = v[3];
		a[2] = v[0];
		live_recv(a);
	}
	return 0;
}

/* Adds task line L ("T ..." without the T), once per task. */
static void live_task(const char *l)
{
	sqlite3_stmt *st;
	char host[256];
	int ltid, parent, n = 0;

	if (sscanf(l, "%d %d %255s %n", &ltid, &parent, host, &n) != 3 || !n)
		return;
	st = live_stmt(Q_TASK);
	sqlite3_bind_int(st, 1, ltid);
	sqlite3_bind_int(st, 2, parent);
	sqlite3_bind_text(st, 3, host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, l + n, -1, SQLITE_TRANSIENT);
	sqlite3_step(st);
	sqlite3_reset(st);
}

int vdb_live_add(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	char *text, *line, *save = NULL;
	int added = 0;

	if (!vdb.live)
		return vdb_fail(ip, "no live database (pgdb live-open)");
	text = strdup(Tcl_GetString(objv[2]));
	if (!text)
		return vdb_fail(ip, "out of memory");
	sqlite3_exec(vdb.db, "BEGIN", NULL, NULL, NULL);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == 'E' && line[1] == ' ')
			added += live_event(line + 2) == 0;
		else if (line[0] == 'T' && line[1] == ' ')
			live_task(line + 2);
	}
	sqlite3_exec(vdb.db, "COMMIT", NULL, NULL, NULL);
	free(text);
	Tcl_SetObjResult(ip, Tcl_NewIntObj(added));
	return TCL_OK;
}
