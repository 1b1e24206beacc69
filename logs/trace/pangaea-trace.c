/*
 * pangaea-trace.c: pangaea-trace's main: picks the subcommand from the
 * table (one subcommand a file, trace-NAME.c).
 */
#include "trace.h"

#include <stdio.h>
#include <string.h>

static const struct trace_cmd *const cmds[] = {
	&trace_cmd_import,
	&trace_cmd_dump,
	&trace_cmd_stats,
	&trace_cmd_verify,
	&trace_cmd_export,
	&trace_cmd_sql,
	&trace_cmd_check,
	&trace_cmd_sync,
	&trace_cmd_races,
};

/* Prints every subcommand's usage to F. */
static void usage(FILE *f)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "%s pangaea-trace %s\n", i ? "      " : "usage:",
			cmds[i]->usage);
}

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i]->name) == 0)
			return cmds[i]->run(argc - 1, argv + 1);
	trace_error("unknown subcommand: %s", argv[1]);
	usage(stderr);
	return 1;
}
