/*
 * tracedb-stale.c: where a run's trace database is and whether it must
 * be made again, the one rule for the analysis commands (tdb_open) and
 * the viewer (`pgdb stale`).  Kept apart from the importer so that the
 * viewer links this and not the importer.
 *
 * The rule: LOGDIR/trace.db is stale when it is missing or not a regular
 * file, when its schema version is not TDB_SCHEMA_VERSION, or when a
 * task log or run.info of LOGDIR was modified after it.  The importer dates the database with
 * the moment it began to read the logs (tdb_import), so a log that grew
 * while it was being imported (a run still going) counts as newer.
 */
#include "tracedb.h"
#include "pangaea-logs.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int tdb_path(char *buf, size_t n, const char *logdir)
{
	int k = snprintf(buf, n, "%s/%s", logdir, TDB_FILE);

	return k < 0 || (size_t)k >= n ? -1 : 0;
}

int tdb_schema_version(const char *path)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	int v = -1;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE "
			       "key='schema_version'", -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

/* Whether the timespec A is later than B. */
static int ts_after(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec != b->tv_sec ? a->tv_sec > b->tv_sec
				      : a->tv_nsec > b->tv_nsec;
}

/* Whether NAME, a file of LOGDIR, is one the database is made from. */
static int stale_source(const char *name)
{
	return strncmp(name, "task-", 5) == 0 || strcmp(name, "run.info") == 0 ||
	       strcmp(name, "output.log") == 0;
}

int tdb_stale(const char *logdir)
{
	char path[PG_PATH_MAX], f[PG_PATH_MAX + 300];
	struct stat db, st;
	struct dirent *e;
	DIR *d;
	int stale = 0;

	/* a trace.db that is not a regular file (a FIFO would block the
	 * open below) is stale: the import renames a new one over it */
	if (tdb_path(path, sizeof(path), logdir) < 0 || lstat(path, &db) < 0 ||
	    !S_ISREG(db.st_mode) ||
	    tdb_schema_version(path) != TDB_SCHEMA_VERSION)
		return 1;
	if (!(d = opendir(logdir)))
		return 1;
	while (!stale && (e = readdir(d))) {
		if (!stale_source(e->d_name))
			continue;
		snprintf(f, sizeof(f), "%s/%s", logdir, e->d_name);
		stale = stat(f, &st) == 0 && ts_after(&st.st_mtim, &db.st_mtim);
	}
	closedir(d);
	return stale;
}
