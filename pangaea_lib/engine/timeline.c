/*
 * timeline.c: PANGAEA_TIMELINE=1 stamps the start-up and shut-down steps
 * of the launcher, the coordinator and the tasks on stderr (issue 16;
 * docs/INTERNALS.md §10.1, bench/timeline.sh).  Below every other file
 * of the library: it needs only who this task is.
 */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void pg_timeline(const char *who, const char *step)
{
	static int on = -1;
	const char *e;
	struct timespec ts;
	char me[32];

	if (on < 0) {
		e = getenv(PG_ENV_TIMELINE);
		on = e && *e && strcmp(e, "0") != 0;
	}
	if (!on)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (!who) { /* (no ltid before the handover) */
		if (pg_me->mode)
			snprintf(me, sizeof(me), "task %d", pg_me->ltid);
		else
			snprintf(me, sizeof(me), "pid %d", (int)getpid());
		who = me;
	}
	fprintf(stderr, "pangaea-timeline %lld.%06ld %s: %s\n",
		(long long)ts.tv_sec, ts.tv_nsec / 1000, who, step);
}
