/*
 * tracedb-output.c: the output table of the trace database (what the
 * tasks printed, from the run's output.log; docs/TRACEDB.md).
 */
#include "tracedb-internal.h"
#include "pangaea-logs.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int tdb_output_import(sqlite3 *db, const char *dir, int salvage, char *err,
		      size_t errlen)
{
	char path[PG_PATH_MAX + 16];
	struct pg_out_log log;
	sqlite3_stmt *st = NULL;
	int rc = 0, damaged;

	snprintf(path, sizeof(path), "%s/output.log", dir);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0; /* a run made before output.log, or by hand */
	damaged = pg_outlog_read(path, &log, err, errlen) < 0;
	if (damaged && !salvage) {
		pg_outlog_free(&log);
		return -1;
	}
	if (sqlite3_prepare_v2(db, "INSERT INTO output(id, ltid, t, nl, text)"
			       " VALUES(?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < log.n; i++) {
		const struct pg_out_piece *p = &log.pieces[i];

		sqlite3_bind_int64(st, 1, (sqlite3_int64)i + 1);
		sqlite3_bind_int(st, 2, p->ltid);
		sqlite3_bind_int64(st, 3, p->ns);
		sqlite3_bind_int(st, 4, p->nl);
		sqlite3_bind_text(st, 5, log.data + p->off, (int)p->len,
				  SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = -1;
		sqlite3_reset(st);
	}
	if (rc < 0)
		snprintf(err, errlen, "%s/trace.db: cannot insert the output "
			 "rows: %s", dir, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	pg_outlog_free(&log);
	return rc < 0 ? -1 : damaged ? 1 : 0;
}
