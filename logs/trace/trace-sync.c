/*
 * trace-sync.c: "pangaea-trace sync LOGDIR" tells how the clocks of a
 * run's hosts were put together: the mode that made the database's
 * times, per host the offset and drift found, and what the controlled
 * logical clock does to the raw times (violations of the clock
 * condition before and after, largest and mean correction).  It reads
 * an up-to-date database, else the logs themselves (tdb_open_logs: the
 * clock is run on their raw times as the import would, nothing is
 * imported), and changes nothing.
 */
#include "trace.h"
#include "tracedb.h"

#include <stdio.h>
#include <string.h>

/* The meta value KEY of DB into BUF (N bytes; "?" when absent). */
static void sync_meta(sqlite3 *db, const char *key, char *buf, size_t n)
{
	sqlite3_stmt *s;

	snprintf(buf, n, "?");
	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?1", -1,
			       &s, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		snprintf(buf, n, "%s", sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
}

/* Prints REP for the database whose times were made by MODE. */
static void sync_print(const char *mode, const struct tdb_sync_report *r)
{
	printf("times in trace.db: %s\n", mode);
	printf("clock samples: %s\n", r->samples ? "yes (offsets against the "
	       "coordinator's clock)" : "none (offsets from the messages, "
	       "against the first host)");
	printf("%-24s %16s %12s %12s %9s\n", "host", "offset_us", "drift_ppm",
	       "mu_us", "from");
	for (int i = 0; i < r->nhost; i++) {
		const struct tdb_sync_host *h = &r->hosts[i];
		char off[32];

		if (h->has_offset)
			snprintf(off, sizeof(off), "%.3f",
				 (double)h->offset_ns / 1e3);
		else
			snprintf(off, sizeof(off), "-");
		printf("%-24s %16s %12.3f %12.3f %9s\n", h->host, off,
		       h->drift_ppm, (double)h->mu_ns / 1e3,
		       h->from_samples ? "samples" : "messages");
	}
	if (r->samples)
		printf("clock condition violations: %zu raw, %zu linear, %zu "
		       "after clc\n", r->violations_raw, r->violations_before,
		       r->violations_after);
	else
		printf("clock condition violations: %zu before, %zu after clc\n",
		       r->violations_before, r->violations_after);
	printf("clc corrections: %zu of %zu points moved, %zu jumps, largest "
	       "%.3f us, mean %.3f us\n", r->ncorrected, r->npoints, r->njumps,
	       (double)r->max_corr / 1e3, r->mean_corr / 1e3);
	if (r->ncycles)
		printf("left out: %zu edges closing a cycle (damaged logs?)\n",
		       r->ncycles);
}

/* Entry point of "sync": 0, or 1 when the database cannot be read. */
static int sync_run(int argc, char **argv)
{
	struct tdb_sync_report rep;
	struct pg_clocksync cs = { 0 };
	char err[PG_PATH_MAX + 512], mode[32];
	sqlite3 *db;
	int rc, logs;

	if (argc != 2) {
		trace_error("usage: pangaea-trace %s", trace_cmd_sync.usage);
		return 1;
	}
	if (!(logs = tdb_stale(argv[1]) &&
		     tdb_open_logs(argv[1], &db, err, sizeof(err)) == 0) &&
	    tdb_open(argv[1], &db, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		return 1;
	}
	sync_meta(db, "sync", mode, sizeof(mode));
	rc = pg_clocksync_load(&cs, argv[1], err, sizeof(err));
	pg_clocksync_fit(&cs);
	if (rc == 0)
		rc = tdb_sync_times(db, &cs, 1, TDB_SYNC_DRY, &rep, err,
				    sizeof(err));
	/* the mode the import would choose (tracedb.c, imp_sync: auto) */
	if (rc == 0 && logs)
		snprintf(mode, sizeof(mode), "%s", !tdb_logs_one_host(db) ||
			 rep.violations_before ? "clc" : "offset");
	if (rc == 0)
		sync_print(mode, &rep);
	else
		trace_error("%s: %s", argv[1], err);
	tdb_sync_report_free(&rep);
	pg_clocksync_free(&cs);
	sqlite3_close(db);
	return rc < 0;
}

const struct trace_cmd trace_cmd_sync = {
	"sync", "sync LOGDIR", sync_run
};
