/*
 * tracedb-internal.h: what the parts of the trace database importer
 * (tracedb.c, tracedb-match.c) share.  Not for other modules.
 */
#ifndef PANGAEA_TRACEDB_INTERNAL_H
#define PANGAEA_TRACEDB_INTERNAL_H

#include "hb-edges.h"
#include "match.h"
#include "pangaea-analysis.h"
#include "tracedb.h"

#include <stdint.h>

/* What the controlled logical clock needs of a run's events and
 * messages (tracedb-sync.c), gathered by the import as it writes them,
 * so that it need not read them back.  Start from { 0 }. */
struct tdb_sync_feed {
	int64_t nev;                /* events, ids 1..nev */
	size_t cap;
	int *ltid;                  /* event id i+1's task */
	int64_t *raw;               /* its raw entry and exit: 2 a row */
	struct pg_hbe edges;        /* their barriers and spawns, each event
				       named by its id (hb-edges.h) */
	struct tdb_sync_msg { int64_t send, recv, id; } *msg;
	size_t nmsg, msg_cap;       /* the messages with both ends */
};

/* Adds the next event (task LTID, EV, raw times T0, T1) to F; 0, -1
 * out of memory. */
int tdb_sync_feed_event(struct tdb_sync_feed *f, int ltid,
			const struct pg_event *ev, int64_t t0, int64_t t1);
/* Adds the messages row ID sent by event SEND, taken by RECV; 0 or -1. */
int tdb_sync_feed_msg(struct tdb_sync_feed *f, int64_t send, int64_t recv,
		      int64_t id);
/* Frees what F holds. */
void tdb_sync_feed_free(struct tdb_sync_feed *f);
/* tdb_sync_times (tracedb.h) of the events and messages of F, which are
 * those of DB (its tasks, spawns and barriers are read from DB). */
int tdb_sync_times_fed(sqlite3 *db, struct tdb_sync_feed *f,
		       const struct pg_clocksync *cs, int clc, int how,
		       struct tdb_sync_report *rep, char *err, size_t errlen);
/* New times the clock made, kept instead of written (the tables over
 * the logs give them: tracedb-vtab.c).  Start from { 0 }. */
struct tdb_sync_out {
	int64_t nev;
	int64_t *ev;       /* event id i+1's t0, t1: ev[2i], ev[2i + 1] */
	size_t nmsg;
	int64_t *msg;      /* the messages with both ends, by id: id,
			      t_send, t_recv a row */
	int ntask;
	int64_t *task;     /* the tasks with events, by ltid: ltid, t_first,
			      t_last a row */
};
/* tdb_sync_times (tracedb.h), but when the times are to be stored
 * (REP->written) they are put into OUT (NULL: written into DB) and DB
 * is left as it is; OUT is freed with tdb_sync_out_free. */
int tdb_sync_times_keep(sqlite3 *db, const struct pg_clocksync *cs, int clc,
			int how, struct tdb_sync_report *rep,
			struct tdb_sync_out *out, char *err, size_t errlen);
/* Frees what OUT holds. */
void tdb_sync_out_free(struct tdb_sync_out *out);
/* The barrier and spawn edges the clock of DB is run on, into E (free it
 * with pg_hbe_free), each event named by its events.id; 0 or -1. */
int tdb_sync_edges(sqlite3 *db, struct pg_hbe *e);

/* The messages table as the import fills it: the matcher's answers for
 * the events so far, written as rows.  Start from { 0 }. */
struct tdb_match {
	sqlite3 *db;
	sqlite3_stmt *ins;          /* the messages insert statement */
	struct pg_match match;
	struct pg_match_run run;    /* explains what is left at the end */
	int64_t nrows;              /* rows inserted (their ids 1, 2, ...) */
	struct tdb_import_stats *st; /* counts matched and unmatched */
	struct tdb_sync_feed *feed; /* gets the matched messages (or NULL) */
};

/*
 * Feeds the message ends of event EV of task LTID (events.id ID, entry
 * T0, exit T1) to the matcher and inserts the row of every message it
 * completes or that cannot be completed (a foreign receive).  0, or -1
 * with ERR.
 */
int tdb_match_event(struct tdb_match *tm, int ltid, int64_t id,
		    const struct pg_event *ev, int64_t t0, int64_t t1,
		    char *err, size_t errlen);

/* Inserts a row for each end left alone, with its reason, in the order
 * the ends came; sets the message count.  0, or -1 with ERR. */
int tdb_match_finish(struct tdb_match *tm, char *err, size_t errlen);

/* Frees what TM holds (not its database or statement). */
void tdb_match_free(struct tdb_match *tm);

/* tracedb-clocks.c: the vector clock of every event of the logs of DIR
 * that took in other tasks' events (docs/TRACEDB.md), made in a thread
 * of its own while the import goes on (at finish without one); NULL out
 * of memory. */
struct tdb_clocks_job *tdb_clocks_start(const char *dir);
/* Waits for J and fills the clocks table (and meta 'clock_tasks') of
 * DB with it: 0; 1 when the logs have no consistent order (ERR says
 * why; no rows); -1 with ERR.  DB NULL: only stops J (0).  Frees J. */
int tdb_clocks_finish(struct tdb_clocks_job *j, sqlite3 *db, char *err,
		      size_t errlen);

/* The clocks text of event N of task index I of HB into B ("3,0,12":
 * an entry per task of HB): 1; 0 when the event learnt of no other
 * task's (no row: B untouched); -1 out of memory. */
int tdb_clock_text(const struct pg_hb *hb, int i, uint32_t n,
		   struct pg_strbuf *b);
/* The N ltids LTIDS as meta 'clock_tasks' says them ("1,2,5") into B;
 * 0 or -1. */
int tdb_clock_tasks(const int *ltids, int n, struct pg_strbuf *b);

/* tracedb-spawns.c: */
/* The statement that makes the spawns table (tracedb-schema.c's). */
#define TDB_SPAWNS_SQL \
	"CREATE TABLE spawns(ltid INTEGER, seq INTEGER, file TEXT," \
	" flags INTEGER, where_ TEXT, ntask INTEGER, started INTEGER," \
	" argv TEXT, children TEXT, PRIMARY KEY(ltid, seq));"
/* The statements that make the output table and its index
 * (tracedb-schema.c's; the tables over the logs make them too). */
#define TDB_OUTPUT_SQL \
	"CREATE TABLE output(id INTEGER PRIMARY KEY, ltid INTEGER NOT NULL," \
	" t INTEGER NOT NULL, nl INTEGER NOT NULL, text TEXT NOT NULL);"
#define TDB_OUTPUT_INDEX_SQL "CREATE INDEX output_t ON output(t);"
struct pg_spawn_rec;
/* Binds the spawns row of REC, a spawn of task LTID's execution log, to
 * the 9 parameters of INS: its argv as a JSON array (made in ARGV), its
 * children as "LTID@HOST ..." (a failed slot as !ERR, made in KIDS).
 * 0, or -1 out of memory. */
int tdb_spawn_bind(sqlite3_stmt *ins, int ltid, const struct pg_spawn_rec *rec,
		   struct pg_strbuf *argv, struct pg_strbuf *kids);

/* tracedb-keys.c: the rows of the tables over the logs kept in memory,
 * by key (docs/TRACEDB.md "Without importing"). */
/* An event: the columns of its events row but the rare kinds' others
 * (X: its entry in the side table, -1 none); raw times. */
struct tdb_kev {
	int64_t t0, t1;
	int32_t peer, tag;
	uint32_t msgid, len;
	int32_t x;
	unsigned char kind;
};
/* The side table's entry: an end, pollfail, call, group, mcast or
 * bcast event's other fields (its destinations at DESTS in the pool). */
struct tdb_kx {
	int how, value, op, arg, result, arg2, ndest;
	uint32_t count, nblob;
	size_t dests;
	char group[PG_GROUP_MAX];
};
/* A messages row: its ends' events (0: none), the columns the ends
 * share, the send end's kind (-1: none). */
struct tdb_kmsg {
	int64_t s_ev, r_ev;
	const char *why;
	int32_t src, dst, tag;
	uint32_t msgid, len;
	int32_t s_kind;
};
/* Every row of the events and messages tables over a run's logs. */
struct tdb_keys {
	int ntask;
	int *ltid;            /* task i's ltid, ascending */
	int64_t *id0;         /* task i's events: ids id0[i]+1..id0[i+1] */
	int64_t nev, nmsg;
	struct tdb_kev *ev;   /* event id i+1 at ev[i] */
	struct tdb_kx *x;
	int *dests;
	struct tdb_kmsg *msg; /* messages row id i+1 at msg[i] */
	uint32_t *ev_msg;     /* by event id: the first row it is an end of
				 (0: none) */
	uint32_t *next;       /* by row id: the next row of its send event
				 (0: none) */
	size_t capev, nx, capx, ndests, capdests, capmsg;
	struct pg_match *m;   /* (while building) */
	const struct pg_match_run *run;
};
/* Reads the logs of DIR once into K (the import's ids and rows); 0, or
 * -1 with ERR (K then holds nothing).  Free K with tdb_keys_free. */
int tdb_keys_build(struct tdb_keys *k, const char *dir, char *err,
		   size_t errlen);
/* Frees what K holds and leaves it { 0 }. */
void tdb_keys_free(struct tdb_keys *k);
/* The index of the task of event ID in K, or -1 (no such event). */
int tdb_keys_task(const struct tdb_keys *k, int64_t id);
/* Event ID of K into EV (its destinations K's), its task's ltid *LTID,
 * its seq *SEQ and raw times T; 0, or -1 (no such event). */
int tdb_keys_event(const struct tdb_keys *k, int64_t id, struct pg_event *ev,
		   int *ltid, int64_t *seq, int64_t t[2]);
/* The ends S and R of messages row ID (1..K->nmsg) of K, whether it has
 * them (*HAS_S, *HAS_R) and its unmatched reason *WHY (or NULL), as
 * tdb_message_row takes them. */
void tdb_keys_message(const struct tdb_keys *k, int64_t id,
		      struct pg_match_end *s, struct pg_match_end *r,
		      int *has_s, int *has_r, const char **why);

#endif /* PANGAEA_TRACEDB_INTERNAL_H */
