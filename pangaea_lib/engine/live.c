/*
 * live.c: events for a live viewer.  When the launcher runs with -view it
 * sets PANGAEA_LIVE.  A task on a host PANGAEA_LIVE_FOLLOW says is
 * followed (every host has a follower: the coordinator, a beacon or the
 * relay) does nothing more: its host's follower reads its log as it is
 * written (coordinator/follow.c).  On a host without one (the
 * launcher's, when neither the coordinator nor the relay runs there; a
 * host whose beacon could not start) every event the
 * task logs is also copied into a batch that goes to the coordinator
 * (PG_TAG_EVENTS, in Pangaea's context) when it holds PG_LIVE_BATCH
 * events, at the start of a wrapped call when the last batch went
 * PG_LIVE_GAP_NS ago or more, and at pangaea_exit.
 * So a busy task sends about one batch per 20 ms (a batch per 64 events
 * or 5 ms cost a quarter more on a run that keeps the cores busy), and a
 * task blocked in a receive has sent what it did before, give or take
 * that gap: the viewer redraws every 150 ms anyway.  Without
 * PANGAEA_LIVE nothing here does more than test one int.  Nothing here
 * is async-signal-safe (it allocates and sends): the fatal signal
 * handler never comes here (pg_log_end_signal), so the end record of a
 * task killed by a signal reaches a viewer through its log only.
 */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PG_LIVE_BATCH 1024               /* events a batch */
#define PG_LIVE_GAP_NS (20u * 1000000u)  /* least time between two batches,
					    unless one is full */

/* The batch being filled. */
int pg_live_state; /* 0 not decided yet, 1 live, -1 off */

static struct {
	int *ints;
	size_t n, cap;
	int nevents;
	uint64_t last_flush; /* pg_now() when the last batch went */
} live;

int pg_live_followed(const char *host)
{
	const char *f = getenv(PG_ENV_LIVE_FOLLOW);
	size_t n = host ? strlen(host) : 0;
	int every = 0;

	/* words: "*" (every host) and "!HOST" (but HOST) */
	for (const char *w = f; w && *w; w += strcspn(w, " ")) {
		size_t len;

		w += strspn(w, " ");
		len = strcspn(w, " ");
		if (len == 1 && *w == '*')
			every = 1;
		else if (len == n + 1 && *w == '!' && n &&
			 strncmp(w + 1, host, n) == 0)
			return 0;
	}
	return every && n;
}

/* Decides once whether events go live (PANGAEA_LIVE and a coordinator
 * that does not follow this task's log). */
static int live_on(void)
{
	if (!pg_live_state)
		pg_live_state = getenv(PG_ENV_LIVE) && pg_me->coord_tid > 0 &&
				     !pg_live_followed(pg_me->host) ? 1 : -1;
	return pg_live_state > 0;
}

void pg_live_flush(void)
{
	struct pg_live_head h = { pg_me->ltid, pg_me->parent_ltid, "", "" };

	if (pg_live_state <= 0 || live.nevents == 0)
		return;
	snprintf(h.host, sizeof(h.host), "%s", pg_me->host);
	snprintf(h.program, sizeof(h.program), "%s", pg_me->program);
	pg_bind->send_events(pg_me->coord_tid, &h, live.ints, (int)live.n);
	live.last_flush = pg_now();
	live.n = 0;
	live.nevents = 0;
}

void pg_live_add(const struct pg_event *ev)
{
	int *v, n;

	if (!live_on())
		return;
	/* room for the event: its ints go straight into the batch */
	v = pg_grow(live.ints, &live.cap, live.n + PG_LIVE_FIELDS +
		    (size_t)(ev->ndest > 0 ? ev->ndest : 0), sizeof(*v), 1024);
	if (!v) {
		pg_live_state = -1;
		return;
	}
	live.ints = v;
	/* the task's log's time base */
	n = pg_livestream_pack(ev, pg_clock_start_wall() + ev->t, v + live.n);
	live.n += (size_t)n;
	if (++live.nevents >= PG_LIVE_BATCH)
		pg_live_flush();
}

void pg_live_tick_due(void)
{
	if (pg_live_state > 0 && live.nevents &&
	    pg_now() - live.last_flush >= PG_LIVE_GAP_NS)
		pg_live_flush();
}
