/*
 * trace-import.c: "pangaea-trace import [--salvage] LOGDIR" builds the
 * run's trace database LOGDIR/trace.db (docs/TRACEDB.md).  The other
 * subcommands import on first use; this one does it on demand, and is
 * the only way to keep what is readable of damaged logs (--salvage).
 */
#include "trace.h"
#include "tracedb.h"
#include "overhead.h"

#include <stdio.h>
#include <string.h>

/* Entry point of "import": 0 imported, 1 refused or failed. */
static int import_run(int argc, char **argv)
{
	struct tdb_import_stats st;
	struct tdb_overhead_stats ov;
	char err[PG_PATH_MAX + 512], path[PG_PATH_MAX];
	int salvage = 0, overhead = 0, bad = 0;
	const char *dir = argv[argc - 1];

	for (int i = 1; i < argc - 1; i++) {
		salvage |= strcmp(argv[i], "--salvage") == 0;
		overhead |= strcmp(argv[i], "--correct-overhead") == 0;
	}
	bad = argc - 2 != salvage + overhead;
	if (argc < 2 || bad) {
		trace_error("usage: pangaea-trace %s", trace_cmd_import.usage);
		return 1;
	}
	if (tdb_import(dir, NULL, salvage, &st, err, sizeof(err)) < 0) {
		trace_error("refusing to import %s: %s%s", dir, err,
			    salvage ? "" : " (--salvage keeps what is readable)");
		return 1;
	}
	tdb_path(path, sizeof(path), dir);
	printf("imported %d tasks, %ld events, %ld messages (%ld matched, "
	       "%ld unmatched) into %s in %.3f s\n", st.ntasks, st.nevents,
	       st.nmessages, st.nmatched, st.nunmatched, path, st.seconds);
	if (overhead && tdb_correct_overhead(dir, &ov, err, sizeof(err)) < 0) {
		trace_error("cannot correct the overhead of %s: %s", dir, err);
		return 1;
	}
	if (overhead)
		printf("overhead corrected: %ld events, up to %lld ns an event, "
		       "smallest latency %lld ns; the run ends %.6f s earlier\n",
		       ov.nevents, (long long)ov.cost, (long long)ov.latency,
		       (double)(ov.raw_end - ov.end) / 1e9);
	if (st.nsalvaged)
		printf("salvaged: %d damaged log%s; see: pangaea-trace sql %s "
		       "\"SELECT value FROM meta WHERE key='salvaged'\"\n",
		       st.nsalvaged, st.nsalvaged > 1 ? "s" : "", dir);
	return 0;
}

const struct trace_cmd trace_cmd_import = {
	"import", "import [--salvage] [--correct-overhead] LOGDIR", import_run
};
