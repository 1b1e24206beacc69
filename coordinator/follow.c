/*
 * follow.c: the live view's events of the tasks on the coordinator's
 * host, read from their communication logs as they are written.
 *
 * With a live view the launcher names the coordinator's host in
 * PANGAEA_LIVE_FOLLOW and gives the coordinator the run's log folder
 * (-follow DIR).  A task on that host sends no event batches
 * (pangaea_lib/engine/live.c); its log, written through a shared mapping with
 * each record's kind byte stored last, is read here every
 * COORD_FOLLOW_MS from where the last reading stopped
 * (pg_comm_follow_next), and its events go to the viewers (or the relay)
 * as a batch of that task would (viewers.c).  Which logs: those of
 * every task the coordinator hears of (registration, spawn) whose log
 * header names this host (task 0, the launcher, logs no events); a log
 * on another host's disk is never seen here, and its task sends batches.
 * At the end of the run every log is read to its end before the stream
 * closes, so the viewer gets every logged event, those of a task killed
 * mid-run included.
 */
#include "coord.h"

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COORD_FOLLOW_MS 25    /* between two readings of the logs */
#define COORD_FOLLOW_BATCH 1024 /* events at most in one batch */

/* One task's log. */
struct coord_followed {
	int ltid;
	int state;     /* 0 not opened yet, 1 followed, -1 no more */
	int followed;  /* its log was followed here (to its end if state
			  is -1 but for an error) */
	unsigned misses; /* times its log was looked for, not found */
	struct pg_comm_reader r;
	struct pg_live_head h;
};

static struct {
	struct event *timer;
	char dir[PG_PATH_MAX];
	struct coord_followed *t;
	size_t n, cap;
	int *ints;     /* the batch being made */
	size_t nints, icap;
	int nev;
	long events;
} cf;

void coord_follow_task(int ltid)
{
	struct coord_followed *t;

	if (!cf.timer || ltid < 0)
		return;
	for (size_t i = 0; i < cf.n; i++)
		if (cf.t[i].ltid == ltid)
			return;
	if (!(t = pg_grow(cf.t, &cf.cap, cf.n + 1, sizeof(*t), 16)))
		return;
	cf.t = t;
	memset(&cf.t[cf.n], 0, sizeof(*t));
	cf.t[cf.n].ltid = ltid;
	cf.t[cf.n++].r.fd = -1;
}

/* Sends the batch made of T's events, if any. */
static void follow_flush(struct coord_followed *t)
{
	if (cf.nev)
		coord_viewers_events(&t->h, cf.ints, (int)cf.nints);
	cf.nints = 0;
	cf.nev = 0;
}

/* Opens T's log if it is there, and keeps it if its task runs on this
 * host; 1 followed, 0 not yet or not. */
static int follow_open(struct coord_followed *t)
{
	char path[PG_PATH_MAX], err[PG_PATH_MAX + 100];
	int rc;

	if (pg_log_path(path, sizeof(path), cf.dir, t->ltid, "comm") < 0 ||
	    (rc = pg_comm_follow(&t->r, path, err, sizeof(err))) < 0) {
		fprintf(stderr, "pangaea-coord: live view: %s\n", err);
		t->state = -1;
		return 0;
	}
	if (rc == 0)
		return 0;
	if (!pg_live_followed(t->r.hdr.host)) { /* it sends batches */
		pg_comm_free(&t->r);
		t->state = -1;
		return 0;
	}
	t->h.ltid = t->r.hdr.ltid;
	t->h.parent_ltid = t->r.hdr.parent_ltid;
	snprintf(t->h.host, sizeof(t->h.host), "%s", t->r.hdr.host);
	snprintf(t->h.program, sizeof(t->h.program), "%s", t->r.hdr.program);
	t->state = 1;
	t->followed = 1;
	return 1;
}

/* Reads what T's log holds now, in batches to the viewers. */
static void follow_read(struct coord_followed *t)
{
	char err[PG_PATH_MAX + 100];
	struct pg_event ev;
	int rc, *v;

	while ((rc = pg_comm_follow_next(&t->r, &ev, err, sizeof(err))) > 0) {
		v = pg_grow(cf.ints, &cf.icap, cf.nints + PG_LIVE_FIELDS +
			    (size_t)(ev.ndest > 0 ? ev.ndest : 0), sizeof(*v),
			    4096);
		if (!v)
			break;
		cf.ints = v;
		cf.nints += (size_t)pg_livestream_pack(&ev,
				t->r.hdr.start_wall_ns + ev.t, v + cf.nints);
		cf.events++;
		if (++cf.nev >= COORD_FOLLOW_BATCH)
			follow_flush(t);
	}
	follow_flush(t);
	if (rc < 0) {
		fprintf(stderr, "pangaea-coord: live view: %s\n", err);
		t->followed = 0;
	}
	if (rc < 0 || t->r.done) {
		pg_comm_free(&t->r);
		t->state = -1;
	}
}

/* Reads every log that is there, from where it was left.  A log not
 * found 8 times (a task on another host, whose log is on its disk) is
 * looked for every 20th time only, but with ALL. */
static void follow_all(int all)
{
	for (size_t i = 0; i < cf.n; i++) {
		struct coord_followed *t = &cf.t[i];

		if (t->state == 0 && !all && t->misses >= 8 &&
		    ++t->misses % 20 != 0)
			continue;
		if (t->state == 0 && !follow_open(t)) {
			t->misses += t->misses < 8;
			continue;
		}
		if (t->state == 1)
			follow_read(t);
	}
}

/* The timer. */
static void follow_tick(evutil_socket_t fd, short what, void *arg)
{
	(void)fd; (void)what; (void)arg;
	follow_all(0);
}

int coord_follow_init(struct event_base *base, const char *logdir)
{
	struct timeval every = { 0, COORD_FOLLOW_MS * 1000 };
	const char *host = getenv(PG_ENV_LIVE_FOLLOW);

	if (!logdir || !*logdir || !host || !*host)
		return 0;
	snprintf(cf.dir, sizeof(cf.dir), "%s", logdir);
	cf.timer = event_new(base, -1, EV_PERSIST, follow_tick, NULL);
	if (!cf.timer || event_add(cf.timer, &every) < 0) {
		fprintf(stderr, "pangaea-coord: live view: cannot follow the "
			"logs\n");
		return -1;
	}
	return 0;
}

int coord_follow_every(void)
{
	if (!cf.timer)
		return 0;
	follow_all(1);
	for (size_t i = 0; i < cf.n; i++)
		if (!cf.t[i].followed)
			return 0;
	return 1;
}

void coord_follow_finish(void)
{
	if (!cf.timer)
		return;
	follow_all(1);
	for (size_t i = 0; i < cf.n; i++)
		pg_comm_free(&cf.t[i].r);
	free(cf.t);
	free(cf.ints);
	event_free(cf.timer);
	cf.t = NULL;
	cf.ints = NULL;
	cf.timer = NULL;
	cf.n = cf.cap = cf.nints = cf.icap = 0;
}

long coord_follow_events(void)
{
	return cf.events;
}
