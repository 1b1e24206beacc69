/*
 * trace-import.c: "pangaea-trace import [--salvage] [--sync MODE]
 * [--correct-overhead] LOGDIR"
 * builds the run's trace database LOGDIR/trace.db (docs/TRACEDB.md).
 * The other subcommands import on first use (with the default --sync
 * auto); this one does it on demand, is the only way to keep what is
 * readable of damaged logs (--salvage), and chooses how the times of
 * the hosts are put together (--sync none|offset|linear|clc), and
 * whether Pangaea's own cost is taken out of them (--correct-overhead,
 * overhead.c).
 */
#include "trace.h"
#include "tracedb.h"
#include "overhead.h"

#include <stdio.h>
#include <string.h>

/* Prints what the import ST of DIR did. */
static void import_print(const char *dir, const struct tdb_import_stats *st)
{
	char path[PG_PATH_MAX];

	tdb_path(path, sizeof(path), dir);
	printf("imported %d tasks, %ld events, %ld messages (%ld matched, "
	       "%ld unmatched) into %s in %.3f s\n", st->ntasks, st->nevents,
	       st->nmessages, st->nmatched, st->nunmatched, path, st->seconds);
	printf("times: %s (clock condition violations: %zu before, %zu after;"
	       " largest correction %.3f us)\n", st->sync ? st->sync : "?",
	       st->violations_before, st->violations_after,
	       (double)st->max_corr / 1e3);
	if (st->nsalvaged)
		printf("salvaged: %d damaged log%s; see: pangaea-trace sql %s "
		       "\"SELECT value FROM meta WHERE key='salvaged'\"\n",
		       st->nsalvaged, st->nsalvaged > 1 ? "s" : "", dir);
}

/* Entry point of "import": 0 imported, 1 refused or failed. */
static int import_run(int argc, char **argv)
{
	struct tdb_import_stats st;
	struct tdb_overhead_stats ov;
	char err[PG_PATH_MAX + 512];
	int salvage = 0, sync = TDB_SYNC_AUTO, overhead = 0, i;

	for (i = 1; i < argc - 1; i++) {
		if (strcmp(argv[i], "--salvage") == 0)
			salvage = 1;
		else if (strcmp(argv[i], "--correct-overhead") == 0)
			overhead = 1;
		else if (strcmp(argv[i], "--sync") == 0 && i + 2 < argc &&
			 (sync = tdb_sync_parse(argv[i + 1])) >= 0)
			i++;
		else
			break;
	}
	if (i + 2 < argc && strcmp(argv[i], "--sync") == 0) {
		trace_error("unknown --sync mode %s (none, offset, linear, clc "
			    "or auto)", argv[i + 1]);
		return 1;
	}
	if (argc < 2 || i != argc - 1) {
		trace_error("usage: pangaea-trace %s", trace_cmd_import.usage);
		return 1;
	}
	if (tdb_import_sync(argv[i], NULL, salvage, sync, &st, err,
			    sizeof(err)) < 0) {
		trace_error("refusing to import %s: %s%s", argv[i], err,
			    salvage ? "" : " (--salvage keeps what is readable)");
		return 1;
	}
	import_print(argv[i], &st);
	if (overhead && tdb_correct_overhead(argv[i], &ov, err,
					     sizeof(err)) < 0) {
		trace_error("cannot correct the overhead of %s: %s", argv[i], err);
		return 1;
	}
	if (overhead)
		printf("overhead corrected: %ld events, up to %lld ns an event, "
		       "smallest latency %lld ns; the run ends %.6f s earlier\n",
		       ov.nevents, (long long)ov.cost, (long long)ov.latency,
		       (double)(ov.raw_end - ov.end) / 1e9);
	return 0;
}

const struct trace_cmd trace_cmd_import = {
	"import", "import [--salvage] [--sync none|offset|linear|clc] "
	"[--correct-overhead] LOGDIR",
	import_run
};
