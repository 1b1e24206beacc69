/*
 * trace-sql.c: "pangaea-trace sql [--header] [--csv] LOGDIR 'SELECT ...'"
 * runs SQL statements on a run's trace database (read-only; imported on
 * first use) and prints the rows, columns separated by '|' as the
 * sqlite3 shell does, or as CSV.  For anything else, open the database
 * itself: sqlite3 LOGDIR/trace.db.
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

/* Entry point of "sql": 0 done, 1 error. */
static int sql_run(int argc, char **argv)
{
	char err[PG_PATH_MAX + 512];
	int header = 0, csv = 0, i = 1, rc;
	sqlite3 *db;

	for (; i < argc && argv[i][0] == '-'; i++)
		if (strcmp(argv[i], "--header") == 0)
			header = 1;
		else if (strcmp(argv[i], "--csv") == 0)
			csv = 1;
		else
			break;
	if (argc - i != 2) {
		trace_error("usage: pangaea-trace %s", trace_cmd_sql.usage);
		return 1;
	}
	if (tdb_open(argv[i], &db, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		return 1;
	}
	rc = sql_exec(db, argv[i + 1], header, csv);
	sqlite3_close(db);
	return rc < 0;
}

const struct trace_cmd trace_cmd_sql = {
	"sql", "sql [--header] [--csv] LOGDIR 'SQL'", sql_run
};
