/*
 * tracedb.h: the trace database of a run, LOGDIR/trace.db (SQLite), made
 * from the run's per-task logs.  Schema and example queries in
 * docs/TRACEDB.md; bump TDB_SCHEMA_VERSION on any change that readers
 * would notice (a renamed or dropped column, a new meaning).
 */
#ifndef PANGAEA_TRACEDB_H
#define PANGAEA_TRACEDB_H

#include "pangaea-formats.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#define TDB_FILE "trace.db"

/* What an import did (for the import command's summary). */
struct tdb_import_stats {
	int ntasks;        /* rows of tasks */
	long nevents;      /* rows of events */
	long nmessages;    /* rows of messages */
	long nmatched;     /* messages with both a send and a receive */
	long nunmatched;   /* messages with unmatched set */
	int nsalvaged;     /* logs that were cut or corrupt (salvage mode) */
	const char *sync;  /* the mode that made the times (static) */
	size_t violations_before, violations_after; /* clock condition */
	int64_t max_corr;  /* largest correction the clock made, ns */
	double seconds;    /* wall time of the import */
};

/* tracedb.c: the importer. */
/*
 * Imports the logs of LOGDIR into DBPATH (NULL: LOGDIR/trace.db),
 * replacing it atomically (a temporary file renamed over it).  A corrupt
 * or truncated log makes it fail with ERR naming the file and offset,
 * unless SALVAGE is set: then what is readable is kept and the damage is
 * listed in meta 'salvaged'.  0, or -1 with ERR filled.  ST may be NULL.
 */
int tdb_import(const char *logdir, const char *dbpath, int salvage,
	       struct tdb_import_stats *st, char *err, size_t errlen);
/* The same with the times made by SYNC (enum tdb_sync_mode; tdb_import
 * uses TDB_SYNC_AUTO). */
int tdb_import_sync(const char *logdir, const char *dbpath, int salvage,
		    int sync, struct tdb_import_stats *st, char *err,
		    size_t errlen);

/*
 * Opens LOGDIR's database read-only, importing the logs first when
 * tdb_stale says so (into a private temporary database when LOGDIR is
 * not writable); *DB on success.  0, or -1 with ERR filled.
 */
int tdb_open(const char *logdir, sqlite3 **db, char *err, size_t errlen);

/* tracedb-vtab.c: SQL over the logs without an import. */
/*
 * Opens an in-memory database whose events, messages, tasks and clocks
 * tables read the logs of LOGDIR as a query runs (the rows the import
 * would make, with the "offset" times: docs/TRACEDB.md "Without
 * importing"), whose meta table says what the headers and run.info say
 * (with source = logs), and whose spawns and output tables are filled
 * from the execution logs and output.log (the import's rows).  *DB on
 * success (sqlite3_close it), for one thread at a time (it has no
 * mutex of its own).  0, or -1 with ERR.
 */
int tdb_open_logs(const char *logdir, sqlite3 **db, char *err, size_t errlen);
/* tdb_open_logs, and with SYNC set the times are those the import
 * would make: put through the controlled logical clock (run once, as
 * the database opens) when the run spans hosts or, on one host, when
 * some receive ends before its send (tdb_logs_raw), with meta sync and
 * sync_* as the import's. */
int tdb_open_logs_sync(const char *logdir, int sync, sqlite3 **db, char *err,
		       size_t errlen);
/* Whether the run of DB (tdb_open_logs) ran on one host (its import
 * runs no clock unless the times violate the clock condition); 1 or 0. */
int tdb_logs_one_host(sqlite3 *db);
/* Whether the import of the run of DB (tdb_open_logs) would keep its
 * raw times, so that the tables over the logs give what the trace
 * database would: the run is on one host (one clock: the import's auto
 * sync runs no clock there) and no message's receive ends before its
 * send begins (a clock condition violation: the import would run the
 * clock).  One scan of messages; 1 or 0 (also when it cannot tell). */
int tdb_logs_raw(sqlite3 *db);
/* Copies TABLE (events, messages, tasks or clocks) of DB (tdb_open_logs)
 * into a temporary table of the same name, with the import's columns
 * and key, which SQL that does not name main.TABLE reads from then on:
 * for a statement that would read the table over the logs again and
 * again on columns that are no key of it (SQLite's automatic indexes
 * serve it there).  0, or -1 with ERR. */
int tdb_logs_copy(sqlite3 *db, const char *table, char *err, size_t errlen);
/*
 * Opens what a command that reads only the tables (scans in id order)
 * reads LOGDIR from, into *DB: an up to date trace database; else the
 * tables over the logs with the import's times (tdb_open_logs_sync: no
 * import to wait for); else (the logs cannot be read so) the trace
 * database imported first (tdb_open).  0 (the trace database), 1 (the
 * logs), or -1 with ERR.
 */
int tdb_open_read(const char *logdir, sqlite3 **db, char *err, size_t errlen);

/* tracedb-stale.c: whether the database must be made again (the viewer
 * links this too, not the importer). */
/* Whether LOGDIR/trace.db is missing, of another schema version, or
 * older than a log file of LOGDIR (then it must be imported again);
 * 1 or 0. */
int tdb_stale(const char *logdir);
/* The schema_version stored in the database at PATH, or -1 (none, or
 * not a database). */
int tdb_schema_version(const char *path);
/* Path of LOGDIR's database into BUF; 0, or -1 if it does not fit. */
int tdb_path(char *buf, size_t n, const char *logdir);

/* tracedb-tasks.c: the tasks of a run, as the analysis commands read
 * them. */
/* A task that logged events. */
struct tdb_task {
	int ltid;
	int64_t start_wall_ns;   /* wall-clock ns of its t = 0 */
	char *program, *host;    /* "?" when not known */
};
/* Loads the tasks of DB that logged events, by ltid, into *OUT (free it
 * with tdb_tasks_free); their number, or -1 (sqlite3_errmsg(DB) says
 * why, or memory ran out). */
int tdb_tasks_load(sqlite3 *db, struct tdb_task **out);
/* Index of task LTID among the N tasks T (by ltid), or -1. */
int tdb_tasks_find(const struct tdb_task *t, int n, int ltid);
/* Frees the N tasks T. */
void tdb_tasks_free(struct tdb_task *t, int n);

/* tracedb-sync.c: the times of the database (docs/TRACEDB.md "Times"). */
/* How the importer makes the times (--sync MODE). */
enum tdb_sync_mode {
	TDB_SYNC_AUTO,    /* clc when the run spans hosts or has violations,
			     else offset */
	TDB_SYNC_NONE,    /* each task's own header: start_wall_ns + t */
	TDB_SYNC_OFFSET,  /* one offset per host (the raw times) */
	TDB_SYNC_LINEAR,  /* offset and drift per host from clock samples */
	TDB_SYNC_CLC      /* offset, then the controlled logical clock */
};
/* The name of MODE ("auto", "none", ...). */
const char *tdb_sync_name(int mode);
/* The mode named S, or -1. */
int tdb_sync_parse(const char *s);
/* What the clock found about one host. */
struct tdb_sync_host {
	char host[256];
	int has_offset;      /* messages went both ways with the first host,
				or it has clock samples */
	int from_samples;    /* offset and drift from its clock samples */
	int64_t offset_ns;   /* its clock minus the reference (the
				coordinator's, from samples) or minus the
				first host's (from the smallest one-way
				message times each way) */
	int64_t mu_ns;       /* minimum latency between its own tasks */
	double drift_ppm;    /* how fast its clock runs (samples), or the
				slope of the clock's corrections over time */
};
/* When tdb_sync_clc writes the new times. */
enum { TDB_SYNC_DRY, TDB_SYNC_WRITE, TDB_SYNC_IF_VIOLATED };
/* What a run of the controlled logical clock did to a database. */
struct tdb_sync_report {
	int written;         /* the new times were stored */
	int clc;             /* the controlled logical clock ran */
	int samples;         /* clock samples mapped the raw times first */
	size_t violations_raw; /* clock condition of the raw times */
	size_t npoints;      /* call entries and exits */
	size_t violations_before, violations_after; /* of the times before
				and after the clock (before: the raw ones
				mapped by the samples) */
	size_t njumps, ncorrected, ncycles;
	int64_t max_corr;    /* ns */
	double mean_corr;    /* ns, over all points */
	int nhost;
	struct tdb_sync_host *hosts; /* in the order of first appearance */
};
struct pg_clocksync;
/*
 * Makes new times from the raw times of DB (t0_raw, t1_raw; t0, t1 where
 * those are NULL): each host's mapped to the reference clock by its
 * clock samples in CS (NULL, or a host without samples: as they are),
 * then with CLC put through the controlled logical clock.  Fills REP;
 * HOW TDB_SYNC_WRITE (or TDB_SYNC_IF_VIOLATED and the mapped times
 * violate the clock condition) stores them into events.t0/t1,
 * messages.t_send/t_recv and tasks.t_first/t_last.  0, or -1 with ERR
 * (REP then empty).
 */
int tdb_sync_times(sqlite3 *db, const struct pg_clocksync *cs, int clc,
		   int how, struct tdb_sync_report *rep, char *err,
		   size_t errlen);
/* Frees what REP holds. */
void tdb_sync_report_free(struct tdb_sync_report *rep);

/* tracedb-schema.c (the viewer's live database uses it too): */
/* SQL making the empty tables of the database. */
const char *tdb_schema_sql(void);
/* SQL making its indexes (the importer runs it after the inserts). */
const char *tdb_index_sql(void);
struct pg_match_end;
struct pg_event;
struct pg_strbuf;
/* One row of the events or messages table as values (the importer binds
 * it to its insert, the tables over the logs give it as their result). */
enum { TDB_EVENT_COLS = 18, TDB_MESSAGE_COLS = 12 };
struct tdb_row {
	int n;                 /* its columns, in the table's order */
	uint32_t null, text;   /* bit C: column C is NULL; is the text S[C]
				  (else the integer V[C]) */
	int64_t v[TDB_EVENT_COLS];
	const char *s[TDB_EVENT_COLS]; /* valid as long as what they came
					  from (the event, TMP) */
};
/* Makes R the events row ID of event EV, number SEQ of task LTID, its
 * times T (t0, t1, t0_raw, t1_raw); texts point into EV and TMP (the
 * destinations).  0, or -1 when TMP cannot grow. */
int tdb_event_row(struct tdb_row *r, const struct pg_event *ev, int64_t id,
		  int ltid, int64_t seq, const int64_t t[4],
		  struct pg_strbuf *tmp);
/* Makes R the messages row ID of the message whose send end is S and
 * receive end X (either may be NULL; its kind is the send's), left
 * unmatched for WHY (NULL: both ends are there). */
void tdb_message_row(struct tdb_row *r, int64_t id,
		     const struct pg_match_end *s, const struct pg_match_end *x,
		     const char *why);
/* Sets column C of R to the integer V. */
void tdb_row_int(struct tdb_row *r, int c, int64_t v);
/* Sets column C of R to the text V (NULL: left as it is, SQL NULL in a
 * row just made). */
void tdb_row_text(struct tdb_row *r, int c, const char *v);
/* Binds R's columns to the parameters 1..R->n of ST (texts static:
 * step before they change). */
void tdb_row_bind(sqlite3_stmt *st, const struct tdb_row *r);
/* Sets column C of R as the result of CTX (a virtual table's column). */
void tdb_row_result(sqlite3_context *ctx, const struct tdb_row *r, int c);
/* Binds the messages row ID of the message whose send end is S and
 * receive end R (either may be NULL; its kind is the send's) and left
 * unmatched for WHY (NULL: both ends are there) to the 12 parameters of
 * ST, in the table's column order. */
void tdb_message_bind(sqlite3_stmt *st, int64_t id,
		      const struct pg_match_end *s, const struct pg_match_end *r,
		      const char *why);

/* tracedb-output.c: fills the output table from DIR/output.log (none:
 * no rows); 0, or -1 with ERR (a damaged log names file and offset); 1
 * when SALVAGE kept the lines before the damage (ERR says where).  (The
 * import's, and the live viewer's as the run's output.log grows.) */
int tdb_output_import(sqlite3 *db, const char *dir, int salvage, char *err,
		      size_t errlen);

#endif /* PANGAEA_TRACEDB_H */
