/*
 * trace.h: pangaea-trace, the command that reads a run's logs.  One
 * subcommand a file (trace-NAME.c), registered in the table of
 * pangaea-trace.c; what they share is in trace.c.
 */
#ifndef PANGAEA_TRACE_H
#define PANGAEA_TRACE_H

#include "pangaea-analysis.h"

/* A subcommand: its name, usage and entry point (argv[0] is the name). */
struct trace_cmd {
	const char *name;
	const char *usage;
	int (*run)(int argc, char **argv);
};

extern const struct trace_cmd trace_cmd_import;
extern const struct trace_cmd trace_cmd_dump;
extern const struct trace_cmd trace_cmd_stats;
extern const struct trace_cmd trace_cmd_verify;
extern const struct trace_cmd trace_cmd_export;
extern const struct trace_cmd trace_cmd_sql;
extern const struct trace_cmd trace_cmd_check;
extern const struct trace_cmd trace_cmd_sync;
extern const struct trace_cmd trace_cmd_races;

/* trace.c: prints "pangaea-trace: MESSAGE" on stderr. */
void trace_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints S (NULL: empty) to F as a JSON string. */
void trace_json_str(FILE *f, const char *s);

#endif /* PANGAEA_TRACE_H */
