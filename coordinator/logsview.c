/*
 * logsview.c: pangaea-coord -follow-logs DIR, the live view of a run
 * that has no coordinator (an MPI run: pangaea_lib/mpi writes its ranks'
 * logs and talks to no one).  The launcher starts it as a plain child
 * process, not a PVM task, with the read end of a pipe as its standard
 * input, before it starts mpirun.  It serves the live socket PANGAEA_LIVE
 * names (viewers.c) and follows the logs of DIR (follow.c) as the
 * coordinator follows the logs of its host's tasks: every task whose
 * log task-LTID.comm appears in DIR (LTID >= 1: the ranks, and ranks a
 * rank spawns) is followed.  The run is over when the pipe closes (the
 * launcher closes it, or dies): then every log is read to its end, the
 * stream closes, and a viewer that has not connected yet is waited for
 * up to 5 s as the coordinator does.  Ranks on other hosts show live
 * too: their logs are in DIR, a folder their hosts share with the
 * launcher's (the binding refuses a folder that is not the launcher's).
 */
#include "coord.h"

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COORD_LOGS_WAKE_MS 100 /* the loop's timer, which wakes the wait
				  for a late viewer at the end */

/* The state of the follower. */
struct logsview {
	struct event_base *base;
	struct event *wake, *input;
};

/* The wake timer: nothing to do. */
static void logs_tick(evutil_socket_t fd, short what, void *arg)
{
	(void)fd; (void)what; (void)arg;
}

/* Standard input: its end (or an error) ends the run. */
static void logs_input(evutil_socket_t fd, short what, void *arg)
{
	struct logsview *lv = arg;
	char buf[64];

	(void)what;
	if (read(fd, buf, sizeof(buf)) <= 0)
		event_base_loopbreak(lv->base);
}

int coord_logs_main(const char *dir)
{
	struct timeval every = { 0, COORD_LOGS_WAKE_MS * 1000 };
	struct logsview lv = { NULL, NULL, NULL };
	int rc = 1;

	if (!(lv.base = event_base_new())) {
		fprintf(stderr, "pangaea-coord: live view: cannot start\n");
		return 1;
	}
	if (coord_viewers_init(lv.base, 0) < 0)
		goto out;
	if (!coord_viewers_on()) {
		fprintf(stderr, "pangaea-coord: -follow-logs: no live socket "
			"(%s)\n", PG_ENV_LIVE);
		goto out;
	}
	if (!(lv.wake = event_new(lv.base, -1, EV_PERSIST, logs_tick, &lv)) ||
	    !(lv.input = event_new(lv.base, STDIN_FILENO, EV_READ | EV_PERSIST,
				   logs_input, &lv)) ||
	    event_add(lv.wake, &every) < 0 || event_add(lv.input, NULL) < 0 ||
	    /* every log in DIR is followed, whichever host its rank runs
	       on: a rank on another host logs here only if its host shares
	       the folder (pangaea_lib/mpi refuses to run otherwise) */
	    coord_follow_init(lv.base, dir, NULL, 1, coord_viewers_events) < 0) {
		fprintf(stderr, "pangaea-coord: live view: cannot follow the "
			"logs (is standard input a pipe?)\n");
		coord_viewers_finish();
		goto out;
	}
	event_base_dispatch(lv.base);
	coord_follow_finish(); /* (looks for new logs first) */
	event_del(lv.input);
	coord_viewers_finish();
	rc = 0;
out:
	if (lv.input)
		event_free(lv.input);
	if (lv.wake)
		event_free(lv.wake);
	if (lv.base)
		event_base_free(lv.base);
	return rc;
}
