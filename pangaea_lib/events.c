/*
 * events.c: the time base, delay injection, and writing events to the
 * task's communication log.
 */
#include "pangaea-internal.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t pg_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec -
	       pg.start_mono;
}

void pg_delay(void)
{
	unsigned us;

	pg_live_tick();
	if (pg.delay_us <= 0)
		return;
	pg.rng = pg.rng * 1103515245u + 12345u;
	us = (pg.rng >> 8) % (unsigned)(pg.delay_us + 1);
	if (us)
		usleep(us);
}

void pg_log(struct pg_event *ev)
{
	if (pg.comm.fd < 0 || pg.comm.map == NULL)
		return;
	if (pg.poll_fails && ev->kind != PG_REC_POLLFAIL) {
		struct pg_event f = { .kind = PG_REC_POLLFAIL,
				      .count = pg.poll_fails, .t = ev->t };

		pg.poll_fails = 0;
		pg_log(&f);
	}
	if (pg_comm_append(&pg.comm, ev) == 0)
		pg.nevents++;
	pg_live_event(ev);
}

void pg_log_recv(int kind, int bufid, uint64_t t0)
{
	struct pvmminfo mi;
	struct pg_event ev = { .kind = kind, .t = t0 };

	if (pvm_getminfo(bufid, &mi) < 0)
		return;
	ev.peer = pg_peer_of(&mi);
	ev.msgid = ev.peer == PG_PEER_SYSTEM ? pg_system_ident(bufid)
					     : (uint32_t)mi.wid;
	ev.tag = mi.tag;
	ev.len = (uint32_t)mi.len;
	ev.dur = pg_now() - t0;
	pg_log(&ev);
}

void pg_log_end(int how, int value)
{
	struct pg_event ev = { .kind = PG_REC_END, .how = how, .value = value };

	if (pg.ended)
		return;
	pg.ended = 1;
	ev.t = pg_now();
	pg_log(&ev);
	if (how == PG_END_EXIT)
		pg_live_flush();
	pg_comm_close(&pg.comm);
	if (pg.exec_fd >= 0) {
		close(pg.exec_fd);
		pg.exec_fd = -1;
	}
}
