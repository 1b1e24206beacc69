/*
 * trace-verify.c: "pangaea-trace verify RUN_A RUN_B" compares two runs of
 * a program (a recording and its replay) event by event.
 */
#include "trace.h"

#include <stdio.h>

/* Entry point of "verify": 0 identical, 1 different, 2 unreadable. */
static int verify_run(int argc, char **argv)
{
	char diff[2048];
	long nev;
	int nt, rc;

	if (argc != 3) {
		trace_error("usage: pangaea-trace %s", trace_cmd_verify.usage);
		return 2;
	}
	rc = pg_verify_runs(argv[1], argv[2], &nev, &nt, diff, sizeof(diff));
	if (rc == 0)
		printf("identical (%ld events, %d tasks)\n", nev, nt);
	else if (rc > 0)
		printf("different: %s\n", diff);
	else
		trace_error("%s", diff);
	return rc == 0 ? 0 : rc > 0 ? 1 : 2;
}

const struct trace_cmd trace_cmd_verify = {
	"verify", "verify RUN_A RUN_B", verify_run
};
