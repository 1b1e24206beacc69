/*
 * trace-sql.c: "pangaea-trace sql [--header] [--csv] LOGDIR 'SELECT ...'"
 * runs SQL statements on a run's trace database and prints the rows,
 * columns separated by '|' as the sqlite3 shell does, or as CSV.  An up
 * to date LOGDIR/trace.db is used (read-only); else the statements run
 * on the logs themselves (tdb_open_logs: no import to wait for; a
 * join's inner loop or a correlated subquery that looks rows up by key,
 * events.id or messages.id, send_event, recv_event, reads the rows kept
 * in memory), unless one would read a table over the logs again and
 * again by anything else (the database has indexes for those) or
 * --import is given: then the logs are imported first, as before.  For
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

/* Runs every statement of SQL on DB, printing rows; 0 or -1. */
static int sql_exec(sqlite3 *db, const char *sql, int header, int csv)
{
	sqlite3_stmt *s;
	const char *tail = sql;
	int rc = 0;

	while (rc == 0 && tail && *tail) {
		if (sqlite3_prepare_v2(db, tail, -1, &s, &tail) != SQLITE_OK) {
			trace_error("%s", sqlite3_errmsg(db));
			return -1;
		}
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

/* The query plan of statement S (EXPLAIN QUERY PLAN, prepared on DB):
 * 1 when it reads a table over the logs once, 0 when it would read one
 * again and again (an inner loop of a join, a correlated subquery: the
 * logs are read whole each time, where the trace database has its
 * indexes), -1 when the plan cannot be had. */
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

/* Whether every statement of SQL compiles on DB (the tables it names are
 * there) and reads the tables over the logs once (sql_plan_once); 1 or
 * 0. */
static int sql_fits(sqlite3 *db, const char *sql)
{
	const char *tail = sql;
	sqlite3_stmt *s;
	int ok = 1;

	while (ok && tail && *tail) {
		if (sqlite3_prepare_v2(db, tail, -1, &s, &tail) != SQLITE_OK)
			return 0;
		if (!s)
			break;
		ok = sqlite3_stmt_isexplain(s) || sql_plan_once(db, s) == 1;
		sqlite3_finalize(s);
	}
	return ok;
}

/* Opens what the statements SQL run on for LOGDIR (IMPORT set: the
 * trace database, imported if stale) into *DB: the trace database when
 * it is up to date, else the logs when SQL fits them, with the times
 * the import makes of a run across hosts (the clock run as they open);
 * on one host the raw times, as docs/TRACEDB.md says: the stricter
 * tdb_open_logs_sync would scan the messages first and make a made-up
 * run wait for its clock; 0, or -1 with ERR. */
static int sql_open(const char *logdir, const char *sql, int import,
		    sqlite3 **db, char *err, size_t errlen)
{
	if (!import && tdb_stale(logdir) &&
	    tdb_open_logs(logdir, db, err, errlen) == 0) {
		if (sql_fits(*db, sql)) {
			if (tdb_logs_one_host(*db))
				return 0;
			sqlite3_close(*db);
			if (tdb_open_logs_sync(logdir, 1, db, err, errlen) == 0)
				return 0;
		} else
			sqlite3_close(*db);
	}
	return tdb_open(logdir, db, err, errlen);
}

/* Entry point of "sql": 0 done, 1 error. */
static int sql_run(int argc, char **argv)
{
	char err[PG_PATH_MAX + 512];
	int header = 0, csv = 0, import = 0, i = 1, rc;
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
	if (sql_open(argv[i], argv[i + 1], import, &db, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		return 1;
	}
	rc = sql_exec(db, argv[i + 1], header, csv);
	sqlite3_close(db);
	return rc < 0;
}

const struct trace_cmd trace_cmd_sql = {
	"sql", "sql [--header] [--csv] [--import] LOGDIR 'SQL'", sql_run
};
