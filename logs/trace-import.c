/*
 * trace-import.c: "pangaea-trace import [--salvage] LOGDIR" builds the
 * run's trace database LOGDIR/trace.db (docs/TRACEDB.md).  The other
 * subcommands import on first use; this one does it on demand, and is
 * the only way to keep what is readable of damaged logs (--salvage).
 */
#include "trace.h"
#include "tracedb.h"

#include <stdio.h>
#include <string.h>

/* Entry point of "import": 0 imported, 1 refused or failed. */
static int import_run(int argc, char **argv)
{
	struct tdb_import_stats st;
	char err[PG_PATH_MAX + 512], path[PG_PATH_MAX];
	int salvage = argc == 3 && strcmp(argv[1], "--salvage") == 0;
	const char *dir = argv[argc - 1];

	if (argc != 2 && !salvage) {
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
	if (st.nsalvaged)
		printf("salvaged: %d damaged log%s; see: pangaea-trace sql %s "
		       "\"SELECT value FROM meta WHERE key='salvaged'\"\n",
		       st.nsalvaged, st.nsalvaged > 1 ? "s" : "", dir);
	return 0;
}

const struct trace_cmd trace_cmd_import = {
	"import", "import [--salvage] LOGDIR", import_run
};
