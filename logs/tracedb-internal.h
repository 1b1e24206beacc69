/*
 * tracedb-internal.h: what the parts of the trace database importer
 * (tracedb.c, tracedb-match.c) share.  Not for other modules.
 */
#ifndef PANGAEA_TRACEDB_INTERNAL_H
#define PANGAEA_TRACEDB_INTERNAL_H

#include "match.h"
#include "tracedb.h"

#include <stdint.h>

/* The messages table as the import fills it: the matcher's answers for
 * the events so far, written as rows.  Start from { 0 }. */
struct tdb_match {
	sqlite3 *db;
	sqlite3_stmt *ins;          /* the messages insert statement */
	struct pg_match match;
	struct pg_match_run run;    /* explains what is left at the end */
	int64_t nrows;              /* rows inserted (their ids 1, 2, ...) */
	struct tdb_import_stats *st; /* counts matched and unmatched */
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

/* tracedb-clocks.c: fills the clocks table (and meta 'clock_tasks')
 * with the vector clock of every event of the logs of DIR that took in
 * other tasks' events (docs/TRACEDB.md): 0; 1 when the
 * logs have no consistent order (ERR says why; no rows); -1 with ERR. */
int tdb_clocks_import(sqlite3 *db, const char *dir, char *err,
		      size_t errlen);

#endif /* PANGAEA_TRACEDB_INTERNAL_H */
