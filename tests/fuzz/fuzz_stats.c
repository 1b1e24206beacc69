/*
 * fuzz_stats.c: libFuzzer harness of "pangaea-trace stats": the input is
 * LOGDIR/trace.db of a folder with no logs, read by the stats subcommand
 * itself (trace_cmd_stats: tdb_open_read, then logs/trace/trace-stats.c) in its
 * three formats.  SQLite refuses what is no database; the harness finds
 * what a database with odd rows (times, kinds, counts) does to the
 * statistics.  A trace.db of another schema version is stale: with no
 * logs to read instead, tdb_open_read imports the (empty) folder in its
 * place, as pangaea-trace would.
 * The output goes to stdout: run with -close_fd_mask=3 (tests/fuzz/run.sh
 * does).
 */
#include "fuzzutil.h"
#include "trace.h"
#include "tracedb.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text[] = { "stats", (char *)fz_dir(), NULL };
	char *json[] = { "stats", "--json", (char *)fz_dir(), NULL };

	fz_clear();
	fz_write(TDB_FILE, data, size);
	/* text, then JSON (CSV prints what text does, in other words) */
	trace_cmd_stats.run(2, text);
	trace_cmd_stats.run(3, json);
	fflush(stdout);
	return 0;
}
