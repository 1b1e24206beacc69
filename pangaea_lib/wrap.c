/*
 * wrap.c: the message-passing wrappers.  In plain mode each calls PVM
 * straight through; recording adds the message id (in the PVM header's
 * wait-id field, so the app's data is untouched) and logs the event;
 * replay hands the call to replay.c.
 */
#include "pangaea-internal.h"

/* Checks a send against the recording; diverges on a difference. */
static void replay_send(const struct pg_event *ev)
{
	struct pg_event want;
	char w[256], got[256];

	pg_event_describe(ev, got, sizeof(got));
	if (!pg_replay_peek(&want))
		pg_diverge("the recording ends here; the program did %s", got);
	if (want.kind != PG_REC_SEND || want.peer != ev->peer ||
	    want.tag != ev->tag || want.msgid != ev->msgid) {
		pg_event_describe(&want, w, sizeof(w));
		pg_diverge("the log expects %s; the program did %s", w, got);
	}
	pg_replay_take();
}

int pangaea_pvm_send(int tid, int tag)
{
	struct pg_event ev = { .kind = PG_REC_SEND, .tag = tag };
	struct pvmminfo mi;
	int bufid, rc;

	if (!pg.mode)
		return pvm_send(tid, tag);
	pg_delay();
	ev.t = pg_now();
	bufid = pvm_getsbuf();
	if (bufid <= 0 || pvm_getminfo(bufid, &mi) < 0)
		return pvm_send(tid, tag); /* PVM reports the error */
	ev.peer = pg_ltid_of(tid);
	ev.msgid = pg.next_msgid + 1;
	ev.len = (uint32_t)mi.len;
	if (pg.mode == PANGAEA_MODE_REPLAY)
		replay_send(&ev);
	mi.wid = (int)ev.msgid;
	pvm_setminfo(bufid, &mi);
	rc = pvm_send(tid, tag);
	if (rc < 0)
		return rc;
	pg.next_msgid++;
	ev.dur = pg_now() - ev.t;
	pg_log(&ev);
	return rc;
}

/* Logs the outcome B of a receive call of KIND started at T0; returns B. */
static int recv_outcome(int kind, int b, uint64_t t0)
{
	if (b > 0)
		pg_log_recv(kind, b, t0);
	else if (b == 0)
		pg.poll_fails++;
	return b;
}

int pangaea_pvm_recv(int tid, int tag)
{
	uint64_t t0;

	if (!pg.mode)
		return pvm_recv(tid, tag);
	pg_delay();
	if (pg.mode == PANGAEA_MODE_REPLAY)
		return pg_replay_recv(PG_REC_RECV, tid, tag);
	t0 = pg_now();
	return recv_outcome(PG_REC_RECV, pvm_recv(tid, tag), t0);
}

int pangaea_pvm_nrecv(int tid, int tag)
{
	uint64_t t0;

	if (!pg.mode)
		return pvm_nrecv(tid, tag);
	pg_delay();
	if (pg.mode == PANGAEA_MODE_REPLAY)
		return pg_replay_recv(PG_REC_NRECV, tid, tag);
	t0 = pg_now();
	return recv_outcome(PG_REC_NRECV, pvm_nrecv(tid, tag), t0);
}

int pangaea_pvm_trecv(int tid, int tag, struct timeval *tmout)
{
	uint64_t t0;

	if (!pg.mode)
		return pvm_trecv(tid, tag, tmout);
	pg_delay();
	if (pg.mode == PANGAEA_MODE_REPLAY)
		return pg_replay_recv(PG_REC_TRECV, tid, tag);
	t0 = pg_now();
	return recv_outcome(PG_REC_TRECV, pvm_trecv(tid, tag, tmout), t0);
}

int pangaea_pvm_probe(int tid, int tag)
{
	uint64_t t0;

	if (!pg.mode)
		return pvm_probe(tid, tag);
	pg_delay();
	if (pg.mode == PANGAEA_MODE_REPLAY)
		return pg_replay_recv(PG_REC_PROBE, tid, tag);
	t0 = pg_now();
	return recv_outcome(PG_REC_PROBE, pvm_probe(tid, tag), t0);
}

int pangaea_pvm_parent(void)
{
	if (pg.mode && (pg.flags & PG_FLAG_TOPLEVEL))
		return PvmNoParent;
	return pvm_parent();
}
