/*
 * replay.c: following the recorded communication log.  Each receive call
 * gets the message recorded for it (sender ltid + message id); messages
 * that arrive before their turn wait in the queue.  Poll outcomes are
 * replayed exactly: a recorded run of N failed polls fails N times again,
 * and a recorded success waits for its message.
 */
#include "pangaea-internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pg_replay_open(char *err, size_t errlen)
{
	char path[PG_PATH_MAX];

	if (pg_log_path(path, sizeof(path), pg.replaydir, pg.ltid, "comm") < 0 ||
	    pg_comm_open(&pg.rlog, path, err, errlen) < 0)
		return -1;
	if (pg_log_path(path, sizeof(path), pg.replaydir, pg.ltid, "exec") < 0 ||
	    pg_exec_read(path, &pg.rexec, err, errlen) < 0)
		return -1;
	return 0;
}

int pg_replay_peek(struct pg_event *ev)
{
	char err[512];
	int r;

	if (!pg.have_next) {
		r = pg_comm_next(&pg.rlog, &pg.next, err, sizeof(err));
		if (r < 0)
			pg_diverge("the log cannot be read further: %s", err);
		if (r == 0)
			return 0;
		pg.have_next = 1;
	}
	*ev = pg.next;
	return 1;
}

void pg_replay_take(void)
{
	pg.have_next = 0;
	pg.rindex++;
}

void pg_diverge(const char *fmt, ...)
{
	struct pg_chan_saved saved;
	char what[1024], report[1400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(report, sizeof(report),
		 "replay diverged: task %d (%s on %s), event %llu: %s", pg.ltid,
		 pg.program, pg.host, (unsigned long long)pg.rindex + 1, what);
	if (pg.diverge_hook) {
		pg.diverge_hook(report);
		_exit(3); /* not reached: the hook does not return */
	}
	pg_log_end(PG_END_DIVERGED, (int)(pg.rindex + 1));
	pg_chan_enter(&saved);
	if (pg_chan_initsend() < 0 || pvm_pkint(&pg.ltid, 1, 1) < 0 ||
	    pg_pkstr(report) < 0 ||
	    pg_chan_send(pg.launcher_tid, PG_TAG_DIVERGED) < 0)
		fprintf(stderr, "pangaea: %s\n", report);
	pg_chan_leave(&saved);
	pvm_exit();
	_exit(3);
}

/* Describes the receive call KIND(TID, TAG) the program made into BUF. */
static void call_describe(int kind, int tid, int tag, char *buf, size_t n)
{
	int ltid = tid == -1 ? -1 : pg_ltid_of(tid);

	snprintf(buf, n, "pvm_%s(from=%d, tag=%d)", pg_rec_kind_name(kind),
		 ltid, tag);
}

/* Whether the filter (TID, TAG) of a receive can accept WANT. */
static int filter_accepts(const struct pg_event *want, int tid, int tag)
{
	if (tag != -1 && tag != want->tag)
		return 0;
	return tid == -1 || pg_ltid_of(tid) == want->peer;
}

/* Whether message M is the one WANT names. */
static int is_wanted(const struct pg_qmsg *m, const struct pg_event *want)
{
	if (want->peer < 0) /* no id: the first of its class with the tag and,
			       for a pvmd's notice, about the same task */
		return m->src_ltid == want->peer && m->tag == want->tag &&
		       m->msgid == want->msgid;
	return m->src_ltid == want->peer && m->msgid == want->msgid;
}

/* Receives messages into the queue until WANT is there; its index or < 0. */
static int fetch(const struct pg_event *want)
{
	int src = want->peer >= 0 ? pg_tid_of(want->peer) : -1;
	int saved = pvm_setrbuf(0);
	struct pvmminfo mi;
	struct pg_qmsg m;
	int b;

	if (src < 0 && want->peer >= 0)
		return src;
	for (;;) {
		b = pvm_recv(src, want->tag);
		if (b < 0 || pvm_getminfo(b, &mi) < 0)
			break;
		pvm_setrbuf(0);
		m.bufid = b;
		m.src_tid = mi.src;
		m.msgid = (uint32_t)mi.wid;
		m.tag = mi.tag;
		m.src_ltid = pg_peer_of(&mi);
		if (m.src_ltid == PG_PEER_SYSTEM)
			m.msgid = pg_system_ident(b);
		if (pg_queue_push(&pg.queue, &m) < 0) {
			b = PvmNoMem;
			break;
		}
		if (is_wanted(&m, want)) {
			pvm_setrbuf(saved);
			return pg.queue.n - 1;
		}
	}
	pvm_setrbuf(saved);
	return b < 0 ? b : PvmSysErr;
}

/* Index in the queue of the message WANT names, fetching it if needed. */
static int find_wanted(const struct pg_event *want)
{
	for (int i = 0; i < pg.queue.n; i++)
		if (is_wanted(&pg.queue.v[i], want))
			return i;
	return fetch(want);
}

/* Replays a failed poll of KIND; returns 0 as PVM would. */
static int replay_fail(int kind, const struct pg_event *want)
{
	int b;

	if (pg.fails_left == 0)
		pg.fails_left = want->count;
	if (--pg.fails_left == 0)
		pg_replay_take();
	pg.poll_fails++;
	if (kind != PG_REC_PROBE && (b = pvm_getrbuf()) > 0)
		pvm_freebuf(b); /* nrecv and trecv clear the active buffer */
	return 0;
}

int pg_replay_recv(int kind, int tid, int tag)
{
	struct pg_event want, ev;
	char w[256], got[256];
	uint64_t t0 = pg_now();
	int i, b, old;

	if (!pg_replay_peek(&want)) {
		call_describe(kind, tid, tag, got, sizeof(got));
		pg_diverge("the recording ends here; the program called %s", got);
	}
	if (kind != PG_REC_RECV && want.kind == PG_REC_POLLFAIL)
		return replay_fail(kind, &want);
	if (want.kind != kind || !filter_accepts(&want, tid, tag)) {
		call_describe(kind, tid, tag, got, sizeof(got));
		pg_event_describe(&want, w, sizeof(w));
		pg_diverge("the log expects %s; the program called %s", w, got);
	}
	i = find_wanted(&want);
	if (i < 0)
		return i;
	pg_replay_take();
	b = pg.queue.v[i].bufid;
	ev = want;
	ev.t = t0;
	ev.dur = pg_now() - t0;
	pg_log(&ev);
	if (kind == PG_REC_PROBE)
		return b; /* stays queued for the receive that follows */
	pg_queue_remove(&pg.queue, i);
	old = pvm_setrbuf(b);
	if (old > 0 && old != b)
		pvm_freebuf(old);
	return b;
}

/* Whether the queued message M passes the filter (TID, TAG). */
static int filter_takes(const struct pg_qmsg *m, int tid, int tag)
{
	return (tid == -1 || m->src_tid == tid) && (tag == -1 || m->tag == tag);
}

int pg_replay_free_recv(int kind, int tid, int tag, struct timeval *tmout)
{
	int b, old;

	for (int i = 0; i < pg.queue.n; i++) {
		if (!filter_takes(&pg.queue.v[i], tid, tag))
			continue;
		b = pg.queue.v[i].bufid;
		if (kind == PG_REC_PROBE)
			return b;
		pg_queue_remove(&pg.queue, i);
		old = pvm_setrbuf(b);
		if (old > 0 && old != b)
			pvm_freebuf(old);
		return b;
	}
	return pg_real_recv(kind, tid, tag, tmout);
}
