/*
 * viewdb.h: inside the `pgdb` command, in layers: pgdb.c (the command:
 * its subcommand table) calls viewlive.c (a live run's database, built in
 * memory), viewraces.c (the racing events, from the logs), viewhist.c
 * (the histograms, logs/tracedb/runstats.c) and viewdb.c (the open database and
 * the queries on it); viewlive.c, viewraces.c and viewhist.c call
 * viewdb.c; viewdb.c calls none of them.
 */
#ifndef PANGAEA_VIEWDB_H
#define PANGAEA_VIEWDB_H

#include "view.h"
#include "taskstate.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* What the window draws of an event besides its times, kept in memory
 * when the run is read from its logs (viewlogs.c). */
struct vdb_ev {
	int32_t peer, tag;
	uint32_t msgid, len;
	unsigned char kind;     /* enum pg_rec_kind */
	unsigned char matched;  /* 0: drawn unmatched (as events.matched) */
	unsigned char has;      /* VDB_HAS_* of the four above: those the
				   events table has (not NULL) for its kind */
};
enum { VDB_HAS_PEER = 1, VDB_HAS_TAG = 2, VDB_HAS_MSGID = 4, VDB_HAS_LEN = 8 };

/* One task's events, sorted by entry time: entry T, exit T1 and what the
 * event says of the time (ST, an enum pg_ev_state, logs/analysis/taskstate.h); START is when the
 * task began (its pangaea_init, else its first event). */
struct vdb_task {
	int ltid;
	int64_t *t, *t1;
	unsigned char *st;
	size_t n, cap, cap1, capst;
	int64_t start;
	void *ck;    /* viewstate.c's checkpoints of the states (freed with
			the task), made when N was CK_N */
	size_t ck_n;
	/* read from the logs or the live stream (vdb.mem) only: */
	struct vdb_ev *ev;      /* N of them, beside T */
	size_t capev;
	int64_t id0;            /* events.id of event i is id0 + i + 1, */
	int64_t *ids;           /* or ids[i] when set (live) */
	size_t capids;
	size_t nsql;            /* live: events in the SQL database so far */
	int parent, tid;
	char *host, *program;   /* malloc'd */
	char *arch;             /* malloc'd: its host's architecture, when
				   run.info names the hosts' (or NULL) */
};

/* A matched message, as the messages table has it (viewlogs.c). */
struct vdb_msg {
	int64_t id, t_send, t_recv, send_event, recv_event;
	int32_t src, dst, tag, kind;
};

/* The open database and what we keep of it in memory. */
struct vdb {
	sqlite3 *db;
	struct vdb_task *tasks;
	int ntasks;
	size_t tasks_cap;
	int64_t tmin, tmax;
	int64_t maxlat; /* largest |t_recv - t_send| of a matched message */
	int live;       /* an in-memory database fed by pgdb live-add */
	void (*forget)(void); /* called before the database closes, to let
				 go of what a layer above keeps of it */
	int (*flush)(void);   /* when set, called before a query that reads
				 events or messages rows (a layer above
				 keeps some not yet inserted); 0 or -1 */
	unsigned long gen;    /* how many databases were closed: what is
				 computed from one is stale when it changes */
	/* a log folder read into memory (viewlogs.c): the window is drawn
	 * from the arrays; DB, when set, is its trace database, used for
	 * what needs SQL (details, output, histograms, find; LOGSDB below
	 * answers the details and Find until it is set) */
	int mem;
	struct vdb_msg *msgs; /* by t_send, the first msgs_sorted of them
				 (vdb_msgs_sort sorts the others in) */
	size_t nmsgs, capmsgs, msgs_sorted;
	int64_t nevents;
	int *idtask;          /* live: the task (index) of event id i + 1 */
	size_t nidtask, capidtask;
	int msgs_later;       /* the logs' messages are not matched yet
				 (viewlogs.c: done when first needed) */
	char mode[16];        /* meta 'mode' */
	char *logdir;         /* malloc'd */
	/* the names of the run's calls (pgdb calls; NULL: PVM's) */
	const struct pg_names *names;
	/* while the log folder read has no trace database (DB): the tables
	 * over its logs (tdb_open_logs), opened when a query first needs
	 * SQL: the output pane's always; the details, Find, message
	 * queries and histograms only when the import's times are the
	 * logs' (LOGS_TIMES, tdb_logs_raw), else they wait for it */
	sqlite3 *logsdb;
	int logs_tried;       /* LOGSDB was tried */
	int logs_times;       /* 1 the import keeps the logs' times (or
				 LOGSDB has the clock's: CLOCKED), -1 it
				 would not, 0 not known yet */
	int clocked;          /* the model's times are the clock's, run on
				 the logs in memory (pgdb clock-logs) */
};

extern struct vdb vdb;

/* A pgdb subcommand: OBJV[2..OBJC) are its arguments, as many as its
 * entry in the table (pgdb.c) allows; a Tcl result code. */
typedef int vdb_cmd_fn(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[]);

/* viewdb.c: the open database. */
/* Makes the SQL of the queries that name kinds of events, from the kind
 * classes (logs/format/event.c); once, before any query. */
void vdb_init(void);
/* Sets the interpreter result to "pgdb: MSG" (plus SQLite's error). */
int vdb_fail(Tcl_Interp *ip, const char *msg);
/* Frees everything and forgets the database. */
void vdb_close(void);
/* The time array of LTID, added if new; NULL when memory runs out. */
struct vdb_task *vdb_task_slot(int ltid);
/* Adds the event of entry V, exit V1 and state ST (an enum pg_ev_state)
 * to T's sorted arrays, with its fields E (unless NULL) and its id ID
 * (unless 0: T->ids); its index there, or -1 when memory runs out. */
long vdb_task_time(struct vdb_task *t, int64_t v, int64_t v1, int st,
		   const struct vdb_ev *e, int64_t id);
/* Read from the logs: the task (index) of event ID, the last whose id0
 * < ID; 0 when there is none (then ID is not one of its events). */
int vdb_task_of(int64_t id);
/* The fields of event ID in memory (vdb.mem), or NULL. */
struct vdb_ev *vdb_ev_of(int64_t id);
/* Message M was matched: marks its two events so, and it may be the
 * longest latency. */
void vdb_msg_note(const struct vdb_msg *m);
/* Adds message M to vdb.msgs, to be sorted in by vdb_msgs_sort
 * (vdb_msg_note too); 0, or -1 when memory runs out. */
int vdb_msg_add(const struct vdb_msg *m);
/* Puts every message of vdb.msgs in t_send order (stably: those of one
 * t_send in the order they were added), before they are read in that
 * order; 0, or -1 when memory runs out (then still only the first
 * vdb.msgs_sorted are in order). */
int vdb_msgs_sort(void);
/* The database the queries run on: DB, else (a log folder read, not
 * yet imported) LOGSDB, opened on first use, when the import would keep
 * the logs' times (the first call finds out: a scan of the messages);
 * NULL when there is none. */
sqlite3 *vdb_sql(void);
/* DB, else LOGSDB (opened on first use) whatever the import's times:
 * for what the clock does not change (the output table, races); NULL
 * when there is none. */
sqlite3 *vdb_sql_logs(void);
/* Before a query that reads events or messages rows: vdb.flush; 0 or -1. */
int vdb_rows(void);
/* Index of the first entry time >= V in T's sorted array. */
size_t vdb_lower(const struct vdb_task *t, int64_t v);
/* Reads T0 T1 ?LIMIT? of OBJV[2..OBJC) into A (LIMIT default 1000000);
 * TCL_OK or an error. */
int vdb_window(Tcl_Interp *ip, int objc, Tcl_Obj *const objv[], int64_t a[3]);
/* 1 if task LTID passes the filter list LTIDS (NULL = every task). */
int vdb_task_wanted(Tcl_Interp *ip, Tcl_Obj *ltids, int ltid);
/* Reads N wide integers of OBJV into OUT; TCL_OK or an error. */
int vdb_ints(Tcl_Interp *ip, Tcl_Obj *const objv[], int n, int64_t *out);
/* pgdb open PATH, close, meta, tasks, range, count T0 T1 ?LTIDS?,
 * events T0 T1 ?LIMIT?,
 * messages T0 T1 ?LIMIT?, event ID, message ID, find MSGID, output. */
vdb_cmd_fn vdb_cmd_open, vdb_cmd_close, vdb_cmd_meta, vdb_cmd_tasks,
	vdb_cmd_range, vdb_cmd_count, vdb_cmd_events,
	vdb_cmd_messages, vdb_cmd_event, vdb_cmd_message, vdb_cmd_find,
	vdb_cmd_output;

/* viewraces.c: pgdb races-load LOGDIR, races T0 T1 ?LIMIT?, race ID. */
vdb_cmd_fn vdb_races_load, vdb_cmd_races, vdb_cmd_race;
struct pg_races;
/* Finds the racing events of LOGDIR's logs into R (empty); 0, or -1
 * with ERR naming the log that cannot be read, R empty.  Touches
 * nothing of the viewer: a thread may call it (viewlate.c). */
int vdb_races_find(const char *logdir, struct pg_races *r, char *err,
		   size_t errlen);
/* Makes R (pg_races_find's, of the open run's folder; or empty) the
 * races of the open run, those before freed; R is left empty.  Their
 * number. */
size_t vdb_races_take(struct pg_races *r);

/* viewstate.c: pgdb states T0 T1 ?LTIDS?, paint-states IMG T0 T1 LTID,
 * paint-util IMG T0 T1 NTASKS ?LTIDS?. */
vdb_cmd_fn vdb_cmd_states, vdb_cmd_paint_states, vdb_cmd_paint_util;

/* viewhist.c: pgdb hists ?LTID?. */
vdb_cmd_fn vdb_cmd_hists;

/* viewlogs.c: pgdb open-logs LOGDIR (the logs read into memory),
 * clock-logs (their times put through the clock, in memory), attach
 * PATH (its trace database, once imported), and the subcommands
 * that draw the window, from memory when the logs were read, else
 * viewdb.c's: events, messages, tasks, meta. */
vdb_cmd_fn vdb_logs_open, vdb_logs_attach, vdb_logs_events,
	vdb_logs_messages, vdb_logs_tasks, vdb_logs_meta, vdb_logs_clock;
/* pgdb clock-logs in two halves: whether it has anything to do, and
 * what it does with the tables over the logs tdb_open_logs_sync made
 * (DB, taken: the model's times, the details' database; closed on an
 * error), its result set. */
int vdb_logs_clock_wanted(void);
int vdb_logs_clock_take(Tcl_Interp *ip, sqlite3 *db);

/* viewlate.c: pgdb late-start LOGDIR CMD (the races of the folder read
 * and, when wanted, the clock on its logs, worked out in a thread of
 * their own; CMD is evaluated once they are), late-finish (takes them:
 * "races N race_err MSG clocked 0|1 clock_err MSG"), late-cancel
 * (waits for the thread, its work dropped). */
vdb_cmd_fn vdb_late_start, vdb_late_finish, vdb_late_cancel;

/* viewlive.c: pgdb live-open, live-connect PATH CMD (reads the socket
 * PATH in the background, telling CMD "events N", "refused MSG", "end"),
 * live-close (stops reading it), live-add TEXT, live-output DIR (the
 * output table, again, from DIR/output.log as far as it is written). */
vdb_cmd_fn vdb_live_open, vdb_live_connect, vdb_live_close, vdb_live_add,
	vdb_live_output;

#endif /* PANGAEA_VIEWDB_H */
