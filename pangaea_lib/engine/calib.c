/*
 * calib.c: what Pangaea's own work costs this task per logged call,
 * measured once when it opens its log (the monitor-overhead correction of
 * logs/tracedb/overhead.c, after MAD).
 *
 * A recorded send or receive does, around PVM's own call: the live
 * view's tick, the selection check, three clock reads (the event's start
 * and end, the state file's time), the message header read and written
 * back (the id), the record's append to the mapped comm log (its page
 * faults and the file's growth included) and the clock-sample check.
 * The calibration does that same work, with the same functions, for
 * PG_CALIB_BATCHES batches of PG_CALIB_ROUNDS events after PG_CALIB_WARM
 * unmeasured ones, appending to a scratch comm log beside the real one
 * (unlinked at once), and returns the median of the batches' means in
 * ns (a batch the scheduler interrupted does not count).  Left out: -delay's and -chaos's draws (their
 * sequence must stay the run's; their sleeps are no overhead to take
 * off), the first lookup of a peer's ltid
 * (a question to the coordinator, once per peer, not per call) and the
 * state file's few stores (its clock read is in).
 */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PG_CALIB_WARM 64
#define PG_CALIB_BATCHES 9
#define PG_CALIB_ROUNDS 128

/* One logged call's work on EV into the writer W with the binding's
 * scratch message B (none if not positive). */
static void calib_call(struct pg_comm_writer *w, struct pg_event *ev, int b)
{
	pg_live_tick(); /* (pg_delay's work but its draw) */
	ev->t = pg_now();
	if (pg_logged(ev->tag))
		ev->msgid++;
	(void)pg_now(); /* the state file's clock read */
	if (b > 0)
		pg_bind->stamp(b); /* the id's header read and written */
	ev->dur = pg_now() - ev->t;
	if (w->fd >= 0)
		pg_comm_append(w, ev);
	(void)pg_clocksample_due(ev->t);
}

/* How this copy of the library was built: the static and the preloaded
 * (position-independent) one may differ in cost. */
#ifdef __PIC__
#define PG_CALIB_BUILD "pic"
#else
#define PG_CALIB_BUILD "static"
#endif

static uint64_t measured; /* by this task, ns; 0: not (yet) */

/* The cost PG_ENV_CALIB gives ("NS:BUILD:HOST", the launcher's) if this
 * task runs on that host with the same build; 0 otherwise. */
static uint64_t inherited(void)
{
	const char *e = getenv(PG_ENV_CALIB), *b, *h;
	unsigned long long ns;
	char *end;

	if (!e || !*e)
		return 0;
	ns = strtoull(e, &end, 10);
	if (*end != ':' || ns == 0)
		return 0;
	b = end + 1;
	h = strchr(b, ':');
	if (!h || (size_t)(h - b) != strlen(PG_CALIB_BUILD) ||
	    strncmp(b, PG_CALIB_BUILD, (size_t)(h - b)) != 0 ||
	    strcmp(h + 1, pg_me->host) != 0 || !pg_me->host[0])
		return 0;
	return (uint64_t)ns;
}

int pg_calib_export(char *buf, size_t n)
{
	if (!measured || !pg_me->host[0])
		return -1;
	return snprintf(buf, n, "%llu:%s:%s", (unsigned long long)measured,
			PG_CALIB_BUILD, pg_me->host) < (int)n ? 0 : -1;
}

uint64_t pg_calib_measure(void)
{
	struct pg_event ev = { .kind = PG_REC_RECV, .peer = 1001, .tag = 7,
			       .msgid = 123456, .len = 4096 };
	struct pg_comm_header h = { .ltid = pg_me->ltid };
	struct pg_comm_writer w = { .fd = -1 };
	char path[PG_PATH_MAX], err[256], say[64];
	uint64_t mean[PG_CALIB_BATCHES], t, m = inherited();
	int b;

	if (m) { /* measured once per host and build (the launcher's) */
		snprintf(say, sizeof(say), "calibration: the launcher's, %llu ns",
			 (unsigned long long)m);
		pg_timeline(NULL, say);
		return m;
	}
	b = pg_bind->scratch();

	if (pg_log_path(path, sizeof(path), pg_me->logdir, pg_me->ltid,
			"calib") == 0 &&
	    pg_comm_create(&w, path, &h, err, sizeof(err)) == 0)
		unlink(path);
	else
		w.fd = -1;
	for (int i = 0; i < PG_CALIB_WARM; i++)
		calib_call(&w, &ev, b);
	for (int k = 0; k < PG_CALIB_BATCHES; k++) {
		t = pg_now();
		for (int i = 0; i < PG_CALIB_ROUNDS; i++)
			calib_call(&w, &ev, b);
		m = (pg_now() - t) / PG_CALIB_ROUNDS;
		/* sorted in as it comes */
		for (t = (uint64_t)k; t > 0 && mean[t - 1] > m; t--)
			mean[t] = mean[t - 1];
		mean[t] = m;
	}
	if (w.fd >= 0)
		pg_comm_close(&w);
	if (b > 0)
		pg_bind->release(b);
	snprintf(say, sizeof(say), "calibrated its logging cost: %llu ns",
		 (unsigned long long)mean[PG_CALIB_BATCHES / 2]);
	pg_timeline(NULL, say);
	measured = mean[PG_CALIB_BATCHES / 2];
	return measured;
}
