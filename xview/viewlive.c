/*
 * viewlive.c: a live run in memory.  The coordinator relays the run's
 * events as text lines (coordinator/viewers.c; docs/VIEWER.md), which
 * livestream.c writes there and parses here.
 *
 * `pgdb live-add` refuses a stream that does not begin with its version
 * line or has another version than PG_LIVE_VERSION, and puts the events
 * in the in-memory model the window is drawn from (viewdb.h: per task
 * the times and fields of its events, the matched messages in t_send
 * order), as viewlogs.c does for a log folder.  Each event's message
 * ends go to the importer's matcher (logs/analysis/match.c) in the order they come
 * (batches of different tasks arrive in any order): a pair makes a
 * message (its id: the number of the end that waited).  So a message has
 * the same kind and times live as after the import.
 *
 * What needs SQL (the details of an event or message, Find, the
 * histograms) reads an in-memory database of the trace schema, which
 * gets the lines kept since the last such query only then (vdb.flush):
 * the same rows, ids and message rows as the model, since they are fed
 * in the same order to a matcher of their own; an end that waits gets
 * its messages row at once, the other end completes it.  Inserting
 * every event as it came cost the viewer most of its CPU time.
 *
 * `pgdb live-connect PATH CMD` reads the coordinator's socket here, not
 * in Tcl: a Tcl file handler reads what has come into a buffer of its
 * own and adds its whole lines at once, with no Tcl string, encoding or
 * copy per read, and calls CMD only to say how many events came ("events
 * N"), that the stream was refused ("refused MSG") or that it ended
 * ("end").  Reading it in Tcl (read, append, string range, live-add)
 * was about a quarter of the viewer's CPU.
 */
#include "viewdb.h"
#include "livestream.h"
#include "match.h"
#include "tracedb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* What the live database adds to the trace schema (tracedb-schema.c):
 * its meta rows. */
_Static_assert(TDB_SCHEMA_VERSION == 4, "update live_sql's schema_version");
static const char live_sql[] =
	"INSERT INTO meta VALUES('schema_version','4'),('mode','live');";

/* The statements the live database runs for every event, prepared once
 * when it opens: a live run can add tens of thousands of events a second,
 * and preparing each one anew (SQL parsing) cost more than the rest. */
enum live_q {
	Q_EVENT,     /* an event row */
	Q_TASK,      /* a task row, once */
	Q_MSG_NEW,   /* a message row for an end that waits (or never pairs) */
	Q_MSG_SEND,  /* a send end completes the row its receive made */
	Q_MSG_RECV,  /* a receive end completes the row its send made */
	Q_COUNT
};

static const char *const live_q_sql[Q_COUNT] = {
	[Q_EVENT] = "INSERT INTO events(ltid, seq, kind, peer, tag, msgid, len, "
		    "t0, t1, count, dests, op) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
		    "?7, ?8, ?9, ?10, ?11, ?12)",
	[Q_TASK] = "INSERT OR IGNORE INTO tasks(ltid, parent_ltid, host, "
		   "program) VALUES (?1, ?2, ?3, ?4)",
	[Q_MSG_NEW] = "INSERT INTO messages(id, src, dst, tag, msgid, len, "
		      "kind, send_event, recv_event, t_send, t_recv, unmatched) "
		      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	[Q_MSG_SEND] = "UPDATE messages SET kind = ?2, send_event = ?3, "
		       "t_send = ?4 WHERE id = ?1",
	[Q_MSG_RECV] = "UPDATE messages SET recv_event = ?2, t_recv = ?3 "
		       "WHERE id = ?1",
};

/* The live view's state besides the database (struct vdb). */
static struct {
	sqlite3_stmt *q[Q_COUNT];
	struct pg_match match;   /* the SQL rows' */
	struct pg_match mmatch;  /* the model's */
	char *pending;           /* the event lines not yet in SQL */
	size_t npending, cappending;
	int version;     /* the stream's, once its first line is read */
	int *dests;      /* the destinations of the event being added */
	size_t dests_cap;
} live;

#define LIVE_READ (1 << 20) /* bytes read from the socket at most at once */

/* The coordinator's socket, read by live_readable. */
static struct live_sock {
	int fd;          /* -1: not connected */
	Tcl_Interp *ip;
	Tcl_Obj *cmd;    /* what it tells of events, refusal, end */
	char *buf;       /* what came and was not added yet (a cut line) */
	size_t len, cap;
} sock = { .fd = -1 };

static void live_sock_close(void);

/* Statement Q, ready to bind (reset, bindings cleared). */
static sqlite3_stmt *live_stmt(enum live_q q)
{
	sqlite3_reset(live.q[q]);
	sqlite3_clear_bindings(live.q[q]);
	return live.q[q];
}

/* Runs statement ST (bound); 0, or 1 if it failed. */
static int live_run(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : 1;
}

/* Prepares every statement of live_q_sql; 0 or -1. */
static int live_prepare(void)
{
	for (int q = 0; q < Q_COUNT; q++)
		if (sqlite3_prepare_v2(vdb.db, live_q_sql[q], -1, &live.q[q],
				       NULL) != SQLITE_OK)
			return -1;
	return 0;
}

/* Lets go of the statements and the matcher (vdb.forget: the database
 * is closing). */
static void live_forget(void)
{
	live_sock_close();
	for (int q = 0; q < Q_COUNT; q++) {
		sqlite3_finalize(live.q[q]);
		live.q[q] = NULL;
	}
	pg_match_free(&live.match);
	pg_match_free(&live.mmatch);
	free(live.pending);
	live.pending = NULL;
	live.npending = live.cappending = 0;
	free(live.dests);
	live.dests = NULL;
	live.dests_cap = 0;
	live.version = 0;
}

static int live_flush(void);

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
	vdb.mem = 1;
	vdb.flush = live_flush;
	snprintf(vdb.mode, sizeof(vdb.mode), "live");
	vdb.tmin = INT64_MAX;
	vdb.tmax = 0;
	vdb.maxlat = 0;
	return TCL_OK;
}

/* Adds the messages row of end E, alone so far (WHY: the reason it will
 * stay alone, or NULL); its id is the end's number.  0 or 1. */
static int live_msg_new(const struct pg_match_end *e, const char *why)
{
	sqlite3_stmt *st = live_stmt(Q_MSG_NEW);
	int send = pg_match_is_send(e);

	tdb_message_bind(st, e->seq, send ? e : NULL, send ? NULL : e, why);
	return live_run(st);
}

/* End E completes the row of the end OTHER that waited for it; the
 * message's latency may be the longest.  0 or 1. */
static int live_msg_pair(const struct pg_match_end *e,
			 const struct pg_match_end *other)
{
	int send = pg_match_is_send(e);
	sqlite3_stmt *st = live_stmt(send ? Q_MSG_SEND : Q_MSG_RECV);
	int64_t lat = llabs(e->t - other->t);

	sqlite3_bind_int64(st, 1, other->seq);
	if (send) {
		sqlite3_bind_text(st, 2, pg_rec_kind_name(e->kind), -1,
				  SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, e->ev);
		sqlite3_bind_int64(st, 4, e->t);
	} else {
		sqlite3_bind_int64(st, 2, e->ev);
		sqlite3_bind_int64(st, 3, e->t);
	}
	if (lat > vdb.maxlat)
		vdb.maxlat = lat;
	return live_run(st);
}

/* The matcher's answer for end E (pg_match_fn): a row for an end alone,
 * the row completed for a pair; 0, or 1 when the database failed. */
static int live_msg(void *arg, enum pg_match_what what,
		    const struct pg_match_end *e, const struct pg_match_end *other)
{
	static const struct pg_match_run no_logs = { NULL, 0, 0 };

	(void)arg;
	if (what == PG_MATCH_PAIRED)
		return live_msg_pair(e, other);
	return live_msg_new(e, what == PG_MATCH_FOREIGN
			    ? pg_match_why(&live.match, e, &no_logs) : NULL);
}

/* Inserts the event row of task T for E (as parsed); its id, or -1. */
static int64_t live_event_row(struct vdb_task *t, const struct pg_live_ev *e)
{
	sqlite3_stmt *st = live_stmt(Q_EVENT);

	sqlite3_bind_int64(st, 1, e->ltid);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)++t->nsql);
	sqlite3_bind_text(st, 3, pg_rec_kind_name(e->kind), -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, e->peer);
	sqlite3_bind_int64(st, 5, e->tag);
	sqlite3_bind_int64(st, 6, e->msgid);
	sqlite3_bind_int64(st, 7, e->len);
	sqlite3_bind_int64(st, 8, (int64_t)e->t0);
	sqlite3_bind_int64(st, 9, (int64_t)e->t1);
	if (e->kind == PG_REC_GROUP) /* COUNT is its op */
		sqlite3_bind_text(st, 12, pg_group_op_name((int)e->count), -1,
				  SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 10, e->count);
	if (e->dests_text)
		sqlite3_bind_text(st, 11, e->dests_text, -1, SQLITE_TRANSIENT);
	if (live_run(st))
		return -1;
	return sqlite3_last_insert_rowid(vdb.db);
}

/* The model's matcher's answer (pg_match_fn): a pair makes the message
 * the SQL rows will have (its id: the waiting end's number, its tag
 * theirs); 0, or -1 when memory runs out. */
static int live_mem_msg(void *arg, enum pg_match_what what,
			const struct pg_match_end *e,
			const struct pg_match_end *other)
{
	const struct pg_match_end *s, *r;

	(void)arg;
	if (what != PG_MATCH_PAIRED)
		return 0;
	s = pg_match_is_send(e) ? e : other;
	r = s == e ? other : e;
	return vdb_msg_add(&(struct vdb_msg){ other->seq, s->t, r->t, s->ev,
		r->ev, other->src, other->dst, other->tag, s->kind });
}

/* Parses event line L into E and EV (the matcher's view of it, its
 * destinations in live.dests); 0 or -1 if malformed. */
static int live_parse(const char *l, struct pg_live_ev *e,
		      struct pg_event *ev)
{
	if (pg_livestream_event(l, e, &live.dests, &live.dests_cap) < 0)
		return -1;
	*ev = (struct pg_event){ .kind = e->kind, .peer = e->peer,
		.tag = e->tag, .msgid = e->msgid, .len = e->len,
		.ndest = e->ndest, .dests = live.dests };
	return 0;
}

/* Adds event line L to the model, and keeps it for the SQL rows; 0, or
 * -1 if it is malformed or memory runs out. */
static int live_event(const char *l)
{
	struct pg_live_ev e;
	struct pg_event ev;
	struct vdb_task *t;
	struct vdb_ev f;
	int64_t id = vdb.nevents + 1;
	size_t len = strlen(l);
	int cls;
	int *it;
	char *p;

	if (live_parse(l, &e, &ev) < 0 || !(t = vdb_task_slot(e.ltid)))
		return -1;
	cls = pg_rec_kind_class(ev.kind);
	f = (struct vdb_ev){ ev.peer, ev.tag, ev.msgid, ev.len,
		(unsigned char)ev.kind,
		cls != PG_CLASS_SEND && cls != PG_CLASS_RECV,
		VDB_HAS_PEER | VDB_HAS_TAG | VDB_HAS_MSGID | VDB_HAS_LEN };
	if (!(it = pg_grow(vdb.idtask, &vdb.capidtask, (size_t)id,
			   sizeof(*it), 1024)) ||
	    !(p = pg_grow(live.pending, &live.cappending,
			  live.npending + len + 2, 1, 4096)))
		return -1;
	vdb.idtask = it;
	live.pending = p;
	if (vdb_task_time(t, (int64_t)e.t0, (int64_t)e.t1,
			  pg_ev_state(ev.kind, (int)e.count), &f, id) < 0)
		return -1;
	it[id - 1] = (int)(t - vdb.tasks);
	vdb.nidtask = (size_t)id;
	vdb.nevents = id;
	memcpy(p + live.npending, l, len);
	p[live.npending + len] = '\n';
	live.npending += len + 1;
	if ((int64_t)e.t0 < vdb.tmin)
		vdb.tmin = (int64_t)e.t0;
	if ((int64_t)e.t1 > vdb.tmax)
		vdb.tmax = (int64_t)e.t1;
	return pg_match_event(&live.mmatch, e.ltid, id, &ev, (int64_t)e.t0,
			      (int64_t)e.t1, live_mem_msg, NULL) ? -1 : 0;
}

/* Inserts the row of kept event line L and its message rows; 0, or -1
 * if the database failed. */
static int live_event_sql(const char *l)
{
	struct pg_live_ev e;
	struct pg_event ev;
	struct vdb_task *t;
	int64_t id;

	if (live_parse(l, &e, &ev) < 0 || !(t = vdb_task_slot(e.ltid)) ||
	    (id = live_event_row(t, &e)) < 0)
		return -1;
	return pg_match_event(&live.match, e.ltid, id, &ev, (int64_t)e.t0,
			      (int64_t)e.t1, live_msg, NULL) ? -1 : 0;
}

/* vdb.flush: inserts the event lines kept since the last time; 0 or -1. */
static int live_flush(void)
{
	char *line, *save = NULL;
	int rc = 0;

	if (!live.npending)
		return 0;
	live.pending[live.npending - 1] = '\0';
	sqlite3_exec(vdb.db, "BEGIN", NULL, NULL, NULL);
	for (line = strtok_r(live.pending, "\n", &save); line && rc == 0;
	     line = strtok_r(NULL, "\n", &save))
		rc = live_event_sql(line);
	sqlite3_exec(vdb.db, "COMMIT", NULL, NULL, NULL);
	live.npending = 0;
	return rc;
}

/* Adds task line L, once per task. */
static void live_task(const char *l)
{
	struct pg_live_task lt;
	struct vdb_task *t;
	sqlite3_stmt *st;

	if (pg_livestream_task(l, &lt) < 0)
		return;
	/* the model's, once (the line comes again with each batch) */
	if ((t = vdb_task_slot(lt.ltid)) && !t->host) {
		t->parent = lt.parent;
		t->host = strdup(lt.host);
		t->program = strdup(lt.program);
	}
	st = live_stmt(Q_TASK);
	sqlite3_bind_int(st, 1, lt.ltid);
	sqlite3_bind_int(st, 2, lt.parent);
	sqlite3_bind_text(st, 3, lt.host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, lt.program, -1, SQLITE_TRANSIENT);
	live_run(st);
}

/* Reads the version line L, the stream's first; TCL_OK if it is
 * PG_LIVE_VERSION's, else TCL_ERROR with the reason. */
static int live_version(Tcl_Interp *ip, const char *l)
{
	char err[256];

	if (pg_livestream_version(l, err, sizeof(err)) < 0) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: %s", err));
		return TCL_ERROR;
	}
	live.version = PG_LIVE_VERSION;
	return TCL_OK;
}

/* Adds the lines of TEXT (the version line first, once); the number of
 * events added, or -1 with the reason in IP. */
static int live_lines(Tcl_Interp *ip, char *text)
{
	char *line, *save = NULL;
	int added = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!live.version && live_version(ip, line) != TCL_OK)
			return -1;
		if (pg_livestream_line(line) == PG_LIVE_EVENT)
			added += live_event(line) == 0;
		else if (pg_livestream_line(line) == PG_LIVE_TASK)
			live_task(line);
	}
	return added;
}

int vdb_live_output(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	char err[PG_PATH_MAX + 256];

	if (!vdb.live)
		return vdb_fail(ip, "live-output: no live run open");
	if (sqlite3_exec(vdb.db, "DELETE FROM output", NULL, NULL, NULL) != SQLITE_OK)
		return vdb_fail(ip, "live-output: cannot empty the output table");
	/* salvage: the launcher may be writing the file's last line */
	if (tdb_output_import(vdb.db, Tcl_GetString(objv[2]), 1, err,
			      sizeof(err)) < 0) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: %s", err));
		return TCL_ERROR;
	}
	return TCL_OK;
}

int vdb_live_add(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	char *text;
	int added;

	if (!vdb.live)
		return vdb_fail(ip, "no live database (pgdb live-open)");
	text = strdup(Tcl_GetString(objv[2]));
	if (!text)
		return vdb_fail(ip, "out of memory");
	sqlite3_exec(vdb.db, "BEGIN", NULL, NULL, NULL);
	added = live_lines(ip, text);
	sqlite3_exec(vdb.db, "COMMIT", NULL, NULL, NULL);
	free(text);
	if (added < 0)
		return TCL_ERROR;
	Tcl_SetObjResult(ip, Tcl_NewIntObj(added));
	return TCL_OK;
}

/* Stops reading the socket, if it is read (no word to its command). */
static void live_sock_close(void)
{
	if (sock.fd < 0)
		return;
	Tcl_DeleteFileHandler(sock.fd);
	close(sock.fd);
	Tcl_DecrRefCount(sock.cmd);
	free(sock.buf);
	sock = (struct live_sock){ .fd = -1 };
}

/* Tells the socket's command WHAT, with ARG unless NULL; an error in it
 * is the interpreter's background error. */
static void live_sock_tell(Tcl_Interp *ip, Tcl_Obj *cmd, const char *what,
			   Tcl_Obj *arg)
{
	Tcl_Obj *call = Tcl_DuplicateObj(cmd);
	int rc;

	Tcl_IncrRefCount(call);
	Tcl_ListObjAppendElement(ip, call, Tcl_NewStringObj(what, -1));
	if (arg)
		Tcl_ListObjAppendElement(ip, call, arg);
	rc = Tcl_EvalObjEx(ip, call, TCL_EVAL_GLOBAL);
	if (rc != TCL_OK)
		Tcl_BackgroundException(ip, rc);
	Tcl_DecrRefCount(call);
}

/* The socket is readable: adds the whole lines that came (a cut last
 * line waits for its end), tells the command how many events they
 * held; at the end of the stream, or when it is refused, stops reading
 * and says so. */
static void live_readable(ClientData cd, int mask)
{
	Tcl_Interp *ip = sock.ip;
	Tcl_Obj *cmd = sock.cmd;
	char *cut, *b;
	ssize_t n;
	int added;

	(void)cd; (void)mask;
	if (!(b = pg_grow(sock.buf, &sock.cap, sock.len + LIVE_READ + 1, 1,
			  LIVE_READ + 1)))
		n = -1;
	else {
		sock.buf = b;
		n = read(sock.fd, b + sock.len, LIVE_READ);
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	Tcl_IncrRefCount(cmd); /* (live_sock_close lets go of its own) */
	if (n <= 0) {
		live_sock_close();
		live_sock_tell(ip, cmd, "end", NULL);
		goto out;
	}
	sock.len += (size_t)n;
	b[sock.len] = '\0';
	if (!(cut = strrchr(b, '\n')))
		goto out;
	*cut = '\0';
	sqlite3_exec(vdb.db, "BEGIN", NULL, NULL, NULL);
	added = live_lines(ip, b);
	sqlite3_exec(vdb.db, "COMMIT", NULL, NULL, NULL);
	if (added < 0) {
		Tcl_Obj *why = Tcl_GetObjResult(ip);

		Tcl_IncrRefCount(why);
		live_sock_close();
		live_sock_tell(ip, cmd, "refused", why);
		Tcl_DecrRefCount(why);
		goto out;
	}
	sock.len -= (size_t)(cut + 1 - b);
	memmove(b, cut + 1, sock.len);
	if (added > 0)
		live_sock_tell(ip, cmd, "events", Tcl_NewIntObj(added));
out:
	Tcl_DecrRefCount(cmd);
}

int vdb_live_connect(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *path = Tcl_GetString(objv[2]);
	int fd;

	if (!vdb.live)
		return vdb_fail(ip, "no live database (pgdb live-open)");
	if (strlen(path) >= sizeof(sa.sun_path)) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: socket path too long: %s", path));
		return TCL_ERROR;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    fcntl(fd, F_SETFL, O_NONBLOCK) < 0) {
		Tcl_SetObjResult(ip, Tcl_ObjPrintf("pgdb: cannot connect to %s: %s",
						   path, strerror(errno)));
		if (fd >= 0)
			close(fd);
		return TCL_ERROR;
	}
	live_sock_close();
	sock.fd = fd;
	sock.ip = ip;
	sock.cmd = objv[3];
	Tcl_IncrRefCount(sock.cmd);
	Tcl_CreateFileHandler(fd, TCL_READABLE, live_readable, NULL);
	Tcl_SetObjResult(ip, Tcl_ObjPrintf("live-socket%d", fd));
	return TCL_OK;
}

int vdb_live_close(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
	live_sock_close();
	return TCL_OK;
}
