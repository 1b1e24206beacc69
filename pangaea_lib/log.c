/*
 * log.c: writing this task's two logs (logs/commlog.c, logs/execlog.c):
 * every event into the communication log, with the failed polls counted
 * and written as one record before the next event, every spawn into the
 * execution log, and the end record once.  A live viewer gets each event
 * as it is logged (live.c).
 */
#include "pangaea-internal.h"

#include <stdio.h>
#include <unistd.h>

static struct pg_comm_writer comm = { .fd = -1 };
static int exec_fd = -1;
static uint32_t poll_fails; /* failed polls not yet written */
static int ended;           /* the end record is written */

int pg_log_open(int exec_only, char *err, size_t errlen)
{
	struct pg_comm_header h = { 0 };
	char path[PG_PATH_MAX];

	if (!exec_only) {
		h.ltid = pg_me->ltid;
		h.tid = pg_me->mytid;
		h.parent_ltid = pg_me->parent_ltid;
		h.mode = (uint32_t)pg_me->mode;
		h.start_wall_ns = pg_clock_start_wall(); /* one time base */
		h.start_mono_ns = pg_clock_start_mono();
		snprintf(h.host, sizeof(h.host), "%s", pg_me->host);
		snprintf(h.program, sizeof(h.program), "%s", pg_me->program);
		snprintf(h.select, sizeof(h.select), "%s", pg_me->select);
		if (pg_log_path(path, sizeof(path), pg_me->logdir, pg_me->ltid,
				"comm") < 0 ||
		    pg_comm_create(&comm, path, &h, err, errlen) < 0)
			return -1;
	}
	if (pg_log_path(path, sizeof(path), pg_me->logdir, pg_me->ltid,
			"exec") < 0) {
		snprintf(err, errlen, "log folder path too long: %s",
			 pg_me->logdir);
		return -1;
	}
	exec_fd = pg_exec_create(path, pg_me->ltid, err, errlen);
	return exec_fd < 0 ? -1 : 0;
}

void pg_log(struct pg_event *ev)
{
	if (comm.fd < 0 || comm.map == NULL)
		return;
	if (poll_fails && ev->kind != PG_REC_POLLFAIL) {
		struct pg_event f = { .kind = PG_REC_POLLFAIL,
				      .count = poll_fails, .t = ev->t };

		poll_fails = 0;
		pg_log(&f);
	}
	pg_comm_append(&comm, ev);
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

void pg_log_pollfail(void)
{
	poll_fails++;
}

void pg_log_spawn(const struct pg_spawn_rec *rec)
{
	if (exec_fd >= 0)
		pg_exec_append(exec_fd, rec);
}

void pg_log_end(int how, int value)
{
	struct pg_event ev = { .kind = PG_REC_END, .how = how, .value = value };

	if (ended)
		return;
	ended = 1;
	ev.t = pg_now();
	pg_log(&ev);
	if (how == PG_END_EXIT)
		pg_live_flush();
	pg_comm_close(&comm);
	if (exec_fd >= 0) {
		close(exec_fd);
		exec_fd = -1;
	}
}

int pg_log_ended(void)
{
	return ended;
}
