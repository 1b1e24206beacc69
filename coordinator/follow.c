/*
 * follow.c: the live view's events of the tasks of one host, read from
 * their communication logs as they are written.
 *
 * With a live view every host of the run has one follower, which reads
 * the logs of that host's tasks from its own disk: the coordinator on
 * its host (-follow DIR), a beacon on each other host (beacon.c), and the
 * live view's relay on the launcher's host when the coordinator runs
 * elsewhere; an MPI run's follower (logsview.c) on the launcher's host.
 * So no task sends event batches (pangaea_lib/engine/live.c; the
 * launcher says which hosts are followed in PANGAEA_LIVE_FOLLOW).  A
 * task's log, written through a shared mapping with each record's kind
 * byte stored last, is read here on every coord_follow_read (every
 * COORD_FOLLOW_MS) from where the last reading stopped
 * (pg_comm_follow_next), and its events go to the sink (the viewers,
 * the relay, or from a beacon the coordinator) as a batch of that task
 * would.  Which logs: those of every task named (the coordinator hears
 * of each by its registration or spawn) or, with scan, every
 * task-LTID.comm of the folder (a beacon, the relay and an MPI run's
 * follower hear of no task), whose header names this follower's host
 * (an MPI run's follower: any host, in a folder the hosts share); a log
 * of another host, in a folder the hosts share, is left to that host's
 * follower.  At the end of the run every log is read to its end,
 * so the viewer gets every logged event, those of a task killed mid-run
 * included.
 */
#include "coord.h"

#include <dirent.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COORD_FOLLOW_BATCH 1024 /* events at most in one batch */
#define COORD_FOLLOW_SCAN 4     /* readings between two looks for new logs
				   (with scan) */

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
	int on;
	struct event *timer; /* with an event base: reads on by itself */
	coord_follow_sink sink;
	int scan;            /* follows every log of the folder */
	unsigned reads;
	char dir[PG_PATH_MAX];
	char host[PG_HOST_MAX];
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

	if (!cf.on || ltid < 0)
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

/* Names every task log of the folder (LTID >= 1; coord_follow_task
 * ignores those it knows). */
static void follow_scan(void)
{
	DIR *d = opendir(cf.dir);
	struct dirent *e;
	int ltid, at;

	while (d && (e = readdir(d)))
		if (sscanf(e->d_name, "task-%d%n", &ltid, &at) == 1 &&
		    ltid >= 1 && strcmp(e->d_name + at, ".comm") == 0)
			coord_follow_task(ltid);
	if (d)
		closedir(d);
}

/* Sends the batch made of T's events, if any. */
static void follow_flush(struct coord_followed *t)
{
	if (cf.nev)
		cf.sink(&t->h, cf.ints, (int)cf.nints);
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
	if (cf.host[0] && strcmp(t->r.hdr.host, cf.host) != 0) {
		/* another host's: its follower reads it */
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

/* Reads what T's log holds now, in batches to the sink. */
static void follow_log(struct coord_followed *t)
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
	if (cf.scan && (all || cf.reads++ % COORD_FOLLOW_SCAN == 0))
		follow_scan();
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
			follow_log(t);
	}
}

void coord_follow_read(void)
{
	if (cf.on)
		follow_all(0);
}

/* The timer. */
static void follow_tick(evutil_socket_t fd, short what, void *arg)
{
	(void)fd; (void)what; (void)arg;
	follow_all(0);
}

int coord_follow_init(struct event_base *base, const char *logdir,
		      const char *host, int scan, coord_follow_sink sink)
{
	struct timeval every = { 0, COORD_FOLLOW_MS * 1000 };

	if (!logdir || !*logdir || (host && !*host) || cf.on)
		return 0;
	snprintf(cf.dir, sizeof(cf.dir), "%s", logdir);
	snprintf(cf.host, sizeof(cf.host), "%s", host ? host : "");
	cf.sink = sink;
	cf.scan = scan;
	if (base && (!(cf.timer = event_new(base, -1, EV_PERSIST, follow_tick,
					    NULL)) ||
		     event_add(cf.timer, &every) < 0)) {
		fprintf(stderr, "pangaea-coord: live view: cannot follow the "
			"logs\n");
		if (cf.timer)
			event_free(cf.timer);
		cf.timer = NULL;
		return -1;
	}
	cf.on = 1;
	return 0;
}

int coord_follow_on(void)
{
	return cf.on;
}

int coord_follow_every(void)
{
	if (!cf.on)
		return 0;
	follow_all(1);
	for (size_t i = 0; i < cf.n; i++)
		if (!cf.t[i].followed)
			return 0;
	return 1;
}

void coord_follow_finish(void)
{
	if (!cf.on)
		return;
	follow_all(1);
	for (size_t i = 0; i < cf.n; i++)
		pg_comm_free(&cf.t[i].r);
	free(cf.t);
	free(cf.ints);
	if (cf.timer)
		event_free(cf.timer);
	cf.t = NULL;
	cf.ints = NULL;
	cf.timer = NULL;
	cf.n = cf.cap = cf.nints = cf.icap = 0;
	cf.on = 0;
}

long coord_follow_events(void)
{
	return cf.events;
}
