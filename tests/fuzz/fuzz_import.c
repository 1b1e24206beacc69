/*
 * fuzz_import.c: libFuzzer harness of "pangaea-trace stats" on a fresh
 * recording: the input is the one comm log of a log folder
 * (task-LTID.comm, LTID the one its header names, as fuzz_comm.c), and
 * the stats subcommand (trace_cmd_stats) finds no trace.db, so it reads
 * the log through the tables over the logs (tdb_open_read,
 * logs/tracedb/tracedb-vtab.c, the matcher); then the folder is imported
 * (trace_cmd_import: logs/tracedb/tracedb.c) and stats run again on what
 * it imported.  What fuzz_comm.c finds in the reader this finds too; this
 * adds the virtual tables', the importer's and the statistics' use of the
 * values the reader passes on (times, counts, peers).
 * The output goes to stdout: run with -close_fd_mask=3 (tests/fuzz/run.sh
 * does).
 */
#include "fuzzutil.h"
#include "trace.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[] = { "stats", (char *)fz_dir(), NULL };
	char *imp[] = { "import", (char *)fz_dir(), NULL };
	char name[32];
	int ltid = 1;

	if (size >= 20) /* the header's ltid: a little-endian int32 at 16 */
		ltid = (int32_t)((uint32_t)data[16] | (uint32_t)data[17] << 8 |
				 (uint32_t)data[18] << 16 |
				 (uint32_t)data[19] << 24);
	snprintf(name, sizeof(name), "task-%d.comm", ltid);
	fz_clear();
	fz_write(name, data, size);
	trace_cmd_stats.run(2, argv);   /* on the log itself */
	trace_cmd_import.run(2, imp);
	trace_cmd_stats.run(2, argv);   /* on what was imported */
	fflush(stdout);
	return 0;
}
