/*
 * trace-check.c: "pangaea-trace check LOGDIR" checks that a recording's
 * logs agree with each other (logs/analysis/crosscheck.c), as a replay does first.
 */
#include "trace.h"

#include <stdio.h>

/* Entry point of "check": 0 they agree, 1 a contradiction, 2 unreadable. */
static int check_run(int argc, char **argv)
{
	char err[PG_PATH_MAX + 512];
	int rc;

	if (argc != 2) {
		trace_error("usage: pangaea-trace %s", trace_cmd_check.usage);
		return 2;
	}
	rc = pg_crosscheck(argv[1], err, sizeof(err));
	if (rc == 0)
		printf("the logs of %s agree\n", argv[1]);
	else if (rc > 0)
		printf("contradiction: %s\n", err);
	else
		trace_error("%s", err);
	return rc == 0 ? 0 : rc > 0 ? 1 : 2;
}

const struct trace_cmd trace_cmd_check = {
	"check", "check LOGDIR", check_run
};
