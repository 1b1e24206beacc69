/*
 * trace-sql.c: "pangaea-trace sql [--header] [--csv] LOGDIR 'SELECT ...'"
 * runs SQL statements on a run's trace database and prints the rows,
 * columns separated by '|' as the sqlite3 shell does, or as CSV.  An up
 * to date LOGDIR/trace.db is used (read-only); else the statements run
 * on the logs themselves (tdb_open_logs: no import to wait for; a
 * join's inner loop or a correlated subquery that looks rows up by key,
 * events.id or messages.id, send_event, recv_event, reads the rows kept
 * in memory; one that would read a table over the logs again and again
 * by anything else has the tables it reads copied into temporary ones
 * first, tdb_logs_copy), unless --import is given: then the logs are
 * imported first, as before.  For
 * anything else, open the database itself: sqlite3 LOGDIR/trace.db.
 */
#include "trace.h"
#include "tracedb.h"

#include <stdio.h>
#include <string.h>

/* Prints V as a CSV field (quoted when it needs to be). */
static void csv_field(const char *v)
{
	if (!strpbrk(v, ",\"\n\r")) {
		fputs(v, stdout);
		return;
	}
	putchar('"');
	for (; *v; v++) {
		if (*v == '"')
			putchar('"');
		putchar(*v);
	}
	putchar('"');
}

/* Prints row of S (or its column names when NAMES is set). */
static void sql_row(sqlite3_stmt *s, int csv, int names)
{
	int n = sqlite3_column_count(s);

	for (int i = 0; i < n; i++) {
		const char *v = names ? sqlite3_column_name(s, i)
				      : (const char *)sqlite3_column_text(s, i);

		if (i)
			putchar(csv ? ',' : '|');
		if (csv)
			csv_field(v ? v : "");
		else
			fputs(v ? v : "", stdout);
	}
	putchar('\n');
}

/* The query plan of statement S (EXPLAIN QUERY PLAN, prepared on DB):
 * 1 when it reads a table over the logs once (or again and again only
 * by key: the rows kept in memory), 0 when it would read one again and
 * again otherwise (an inner loop of a join, a correlated subquery: the
 * logs would be read whole each time), -1 when the plan cannot be had. */
static int sql_plan_once(sqlite3 *db, sqlite3_stmt *s)
{
	/* per plan row: its id, its parent, whether it is a loop (SCAN,
	 * SEARCH) and whether something runs it more than once: it is a
	 * loop with a loop before it under its parent (an inner loop of a
	 * join), or such a row or a correlated subquery is above it */
	struct { int id, parent, loop, again; } row[256];
	char *q = sqlite3_mprintf("EXPLAIN QUERY PLAN %s", sqlite3_sql(s));
	sqlite3_stmt *p = NULL;
	int n = 0, ok = 1;

	if (!q || sqlite3_prepare_v2(db, q, -1, &p, NULL) != SQLITE_OK) {
		sqlite3_free(q);
		return -1;
	}
	sqlite3_free(q);
	while (ok && n < 256 && sqlite3_step(p) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_text(p, 3);

		d = d ? d : "";
		row[n].id = sqlite3_column_int(p, 0);
		row[n].parent = sqlite3_column_int(p, 1);
		row[n].loop = (!strncmp(d, "SCAN ", 5) ||
				!strncmp(d, "SEARCH ", 7)) &&
			      strcmp(d, "SCAN CONSTANT ROW") != 0;
		row[n].again = strstr(d, "CORRELATED") != NULL;
		for (int i = 0; i < n; i++)
			if ((row[i].id == row[n].parent && row[i].again) ||
			    (row[n].loop && row[i].loop &&
			     row[i].parent == row[n].parent))
				row[n].again = 1;
		/* (a lookup by key, "INDEX n:key", reads the rows kept
		   in memory: no log again) */
		if (row[n].again && strstr(d, "VIRTUAL TABLE") &&
		    !strstr(d, ":key"))
			ok = 0;
		n++;
	}
	sqlite3_finalize(p);
	return n < 256 ? ok : -1;
}

/* The tables over the logs, in the order a rescanning statement has
 * them copied (tdb_logs_copy: the cheapest first). */
static const char *const sql_logs_tables[] = { "tasks", "messages", "events",
					       "clocks" };
#define SQL_NTABLES 4

/* The authorizer that notes (ARG: a bit per sql_logs_tables) the tables
 * over the logs a statement being prepared reads. */
static int sql_note_read(void *arg, int action, const char *a1,
			 const char *a2, const char *dbname, const char *trig)
{
	unsigned *seen = arg;

	if (action == SQLITE_READ && a1 && dbname && !strcmp(dbname, "main"))
		for (int i = 0; i < SQL_NTABLES; i++)
			if (!strcmp(a1, sql_logs_tables[i]))
				*seen |= 1u << i;
	return SQLITE_OK;
}

/* Prepares the statement at SQL on DB into *S (its end into *TAIL);
 * with ON_LOGS, when its plan would read a table over the logs again
 * and again (sql_plan_once), the tables over the logs it reads are
 * copied into temporary ones (tdb_logs_copy: *COPIED a bit each), the
 * cheapest first, until it would not; 0, or -1 with the error told. */
static int sql_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **s,
		       const char **tail, int on_logs, unsigned *copied)
{
	char err[512];

	for (;;) {
		unsigned seen = 0;
		int i = 0;

		sqlite3_set_authorizer(db, sql_note_read, &seen);
		if (sqlite3_prepare_v2(db, sql, -1, s, tail) != SQLITE_OK) {
			sqlite3_set_authorizer(db, NULL, NULL);
			trace_error("%s", sqlite3_errmsg(db));
			return -1;
		}
		sqlite3_set_authorizer(db, NULL, NULL);
		if (!*s || !on_logs || sqlite3_stmt_isexplain(*s) ||
		    sql_plan_once(db, *s) == 1)
			return 0;
		while (i < SQL_NTABLES && (!(seen & 1u << i) ||
					   (*copied & 1u << i)))
			i++;
		if (i == SQL_NTABLES) /* (nothing left to copy) */
			return 0;
		sqlite3_finalize(*s);
		*s = NULL;
		if (tdb_logs_copy(db, sql_logs_tables[i], err,
				  sizeof(err)) < 0) {
			trace_error("%s", err);
			return -1;
		}
		*copied |= 1u << i;
	}
}

/* Runs every statement of SQL on DB (ON_LOGS: the tables over the logs,
 * sql_prepare), printing rows; 0 or -1. */
static int sql_exec(sqlite3 *db, const char *sql, int header, int csv,
		    int on_logs)
{
	sqlite3_stmt *s;
	const char *tail = sql;
	unsigned copied = 0;
	int rc = 0;

	while (rc == 0 && tail && *tail) {
		if (sql_prepare(db, tail, &s, &tail, on_logs, &copied) < 0)
			return -1;
		if (!s) /* only blanks or a comment were left */
			break;
		for (int r = 0; (rc = sqlite3_step(s)) == SQLITE_ROW; r++) {
			if (r == 0 && header)
				sql_row(s, csv, 1);
			sql_row(s, csv, 0);
		}
		if (rc != SQLITE_DONE)
			trace_error("%s", sqlite3_errmsg(db));
		rc = rc == SQLITE_DONE ? 0 : -1;
		sqlite3_finalize(s);
	}
	return rc;
}

/* Opens what the statements run on for LOGDIR (IMPORT set: the trace
 * database, imported if stale) into *DB: the trace database when it is
 * up to date (*ON_LOGS 0), else the tables over the logs (*ON_LOGS 1),
 * with the times the import makes of a run across hosts (the clock run
 * as they open); on one host the raw times, as docs/TRACEDB.md says:
 * the stricter tdb_open_logs_sync would scan the messages first and
 * make a made-up run wait for its clock; 0, or -1 with ERR. */
static int sql_open(const char *logdir, int import, sqlite3 **db,
		    int *on_logs, char *err, size_t errlen)
{
	*on_logs = 0;
	if (!import && tdb_stale(logdir) &&
	    tdb_open_logs(logdir, db, err, errlen) == 0) {
		*on_logs = 1;
		if (tdb_logs_one_host(*db))
			return 0;
		sqlite3_close(*db);
		if (tdb_open_logs_sync(logdir, 1, db, err, errlen) == 0)
			return 0;
		*on_logs = 0;
	}
	return tdb_open(logdir, db, err, errlen);
}

/* Entry point of "sql": 0 done, 1 error. */
static int sql_run(int argc, char **argv)
{
	char err[PG_PATH_MAX + 512];
	int header = 0, csv = 0, import = 0, i = 1, rc, on_logs;
	sqlite3 *db;

	for (; i < argc && argv[i][0] == '-'; i++)
		if (strcmp(argv[i], "--header") == 0)
			header = 1;
		else if (strcmp(argv[i], "--csv") == 0)
			csv = 1;
		else if (strcmp(argv[i], "--import") == 0)
			import = 1;
		else
			break;
	if (argc - i != 2) {
		trace_error("usage: pangaea-trace %s", trace_cmd_sql.usage);
		return 1;
	}
	if (sql_open(argv[i], import, &db, &on_logs, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		return 1;
	}
	rc = sql_exec(db, argv[i + 1], header, csv, on_logs);
	sqlite3_close(db);
	return rc < 0;
}

const struct trace_cmd trace_cmd_sql = {
	"sql", "sql [--header] [--csv] [--import] LOGDIR 'SQL'", sql_run
};
