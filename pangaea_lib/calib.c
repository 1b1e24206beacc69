/*
 * calib.c: what Pangaea's own work costs this task per logged call,
 * measured once when it opens its log (the monitor-overhead correction of
 * logs/overhead.c, after MAD).
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
#include "pangaea-internal.h"

#include <unistd.h>

#define PG_CALIB_WARM 64
#define PG_CALIB_BATCHES 9
#define PG_CALIB_ROUNDS 128

/* One logged call's work on EV into the writer W with the PVM buffer B
 * (none if not positive). */
static void calib_call(struct pg_comm_writer *w, struct pg_event *ev, int b)
{
	struct pvmminfo mi;

	pg_live_tick(); /* (pg_delay's work but its draw) */
	ev->t = pg_now();
	if (pg_logged(ev->tag))
		ev->msgid++;
	(void)pg_now(); /* the state file's clock read */
	if (b > 0 && pvm_getminfo(b, &mi) == 0)
		pvm_setminfo(b, &mi);
	ev->dur = pg_now() - ev->t;
	if (w->fd >= 0)
		pg_comm_append(w, ev);
	(void)pg_clocksample_due(ev->t);
}

uint64_t pg_calib_measure(void)
{
	struct pg_event ev = { .kind = PG_REC_RECV, .peer = 1001, .tag = 7,
			       .msgid = 123456, .len = 4096 };
	struct pg_comm_header h = { .ltid = pg_me->ltid };
	struct pg_comm_writer w = { .fd = -1 };
	char path[PG_PATH_MAX], err[256];
	int b = pg_me->mytid > 0 ? pvm_mkbuf(PvmDataDefault) : -1;
	uint64_t mean[PG_CALIB_BATCHES], t, m;

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
		pvm_freebuf(b);
	pg_timeline(NULL, "calibrated its logging cost");
	return mean[PG_CALIB_BATCHES / 2];
}
