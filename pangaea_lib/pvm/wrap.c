/*
 * wrap.c: the message-passing wrappers.  In plain mode each calls PVM
 * straight through; recording adds the message id (in the PVM header's
 * wait-id field, so the app's data is untouched) and logs the event;
 * replay asks the replay engine (pg_replay_expect) whether the call is
 * the recorded one, and a receive then gets the recorded message.
 *
 * Every message a task sends gets the next id, whether or not it is
 * logged (selection, suspension): ids then agree between a recording and
 * its replays.  Sending the same buffer twice is fine: the id is set on
 * the buffer right before each send.  A multicast (pvm_mcast, pvm_bcast)
 * is one real pvm_mcast, one message with one id that every receiver
 * sees, with PVM's meaning: the caller and repeated tids are left out of
 * the list, a list with a tid that is no task's sends nothing.  A send is
 * logged before PVM sends it (a send that PVM then refuses has used its
 * id and its record all the same).
 */
#include "pangaea-internal.h"

#include <stdlib.h>
#include <string.h>

static uint32_t last_msgid; /* id of the last message this task sent */

/* Sends the active buffer as KIND to the N TIDS: pvm_send to the first
 * (send, psend) or one pvm_mcast to all (mcast, bcast); PVM's return. */
static int send_real(int kind, const int *tids, int n, int tag)
{
	if (kind == PG_REC_MCAST || kind == PG_REC_BCAST)
		return pvm_mcast((int *)tids, n, tag);
	return pvm_send(tids[0], tag);
}

/* Whether pvm_send or pvm_mcast to the N TIDS with TAG passes PVM's
 * checks (lpvm.c): N not negative, TAG not negative, every tid a task's
 * (not a pvmd's, a multicast address or the tracer's); 1 or 0. */
static int send_args_valid(const int *tids, int n, int tag)
{
	if (n < 0 || tag < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		unsigned t = (unsigned)tids[i];

		if ((t & (PG_TID_GID | PG_TID_PVMD)) || !(t & PG_TID_LOCAL))
			return 0;
	}
	return 1;
}

/* The receivers of a multicast to the N TIDS as PVM's pvmmcast finds
 * them (the caller and repeats left out), in the caller's order (the
 * first of repeats), into OUT; their number.  Quadratic: a list is short
 * next to the message per receiver PVM sends. */
static int mcast_receivers(const int *tids, int n, int *out)
{
	int k = 0, j;

	for (int i = 0; i < n; i++) {
		if (tids[i] == pg_me->mytid)
			continue;
		for (j = 0; j < k && out[j] != tids[i]; j++)
			;
		if (j == k)
			out[k++] = tids[i];
	}
	return k;
}

/* Fills the receivers of the send CALL (KIND to the N TIDS, of GROUP)
 * into its event, with LTIDS as room for a multicast's list. */
static void send_receivers(struct pg_call *call, const int *tids, int n,
			   int *ltids, const char *group)
{
	struct pg_event *ev = &call->ev;

	for (int i = 0; i < n; i++)
		ltids[i] = pg_ltid_of(tids[i]);
	if (ev->kind == PG_REC_MCAST || ev->kind == PG_REC_BCAST) {
		/* (no snprintf: its 500 instructions were a third of what
		   Pangaea added to a pvm_mcast) */
		size_t l = group ? strnlen(group, sizeof(ev->group) - 1) : 0;

		ev->ndest = n;
		ev->dests = ltids;
		memcpy(ev->group, group ? group : "", l);
		ev->group[l] = '\0';
	} else {
		ev->peer = ltids[0];
	}
}

/* The send of the active buffer BUFID as KIND to the N TIDS (for a
 * multicast, its receivers RECV, NR of them) with the id and the record
 * of CALL (its length set): checked against the log in replay, logged if
 * LOGGED, then sent; PVM's return. */
static int send_checked(struct pg_call *call, int bufid, const int *tids,
			int n, const int *recv, int nr, int logged,
			const char *group)
{
	struct pg_event *ev = &call->ev;
	int small[16], *ltids = small, rc = 0;

	ev->msgid = last_msgid + 1;
	if (logged) {
		if (nr > 16 && !(ltids = malloc((size_t)nr * sizeof(int))))
			return PvmNoMem;
		send_receivers(call, recv, nr, ltids, group);
		if (pg_me->mode == PANGAEA_MODE_REPLAY &&
		    pg_replay_expect(call, NULL, NULL) == PG_REPLAY_DIVERGED)
			rc = pg_task_diverged();
	}
	if (rc == 0) {
		/* logged before it leaves: once sent, it may be received and
		   this task killed (pvm_kill) before a record written after
		   the send; a receive must never be logged without its send */
		last_msgid++;
		ev->dur = pg_now() - ev->t;
		if (logged)
			pg_log(ev);
		pg_mhead_set_id(bufid, ev->msgid);
		rc = send_real(ev->kind, tids, n, ev->tag);
	}
	if (ltids != small)
		free(ltids);
	return rc;
}

int pg_send_logged(int kind, const int *tids, int n, int tag,
		   const char *group)
{
	/* (static, as PVM's calls are not reentrant: the fields a send does
	   not set stay 0, and a multicast's are cleared after it, so that
	   no call clears its event) */
	static struct pg_call call;
	int multi = kind == PG_REC_MCAST || kind == PG_REC_BCAST;
	int small[16], *recv = small, nr = 1, bufid, rc;

	call.ev.kind = kind;
	call.ev.tag = tag;
	pg_delay();
	pg_chaos_send();
	call.ev.t = pg_now();
	/* what PVM refuses, or a multicast that reaches nobody (to itself
	 * only, or to none), sends nothing: passed to PVM, not logged, no
	 * message id, alike in every run */
	if ((bufid = pg_mhead_sbuf(&call.ev.len)) <= 0 ||
	    !send_args_valid(tids, n, tag))
		return send_real(kind, tids, n, tag);
	if (multi) {
		if (n > 16 && !(recv = malloc((size_t)n * sizeof(int))))
			return PvmNoMem;
		nr = mcast_receivers(tids, n, recv);
		call.ev.peer = 0;
	} else {
		recv = (int *)tids;
	}
	if (nr == 0)
		rc = send_real(kind, tids, n, tag);
	else
		rc = send_checked(&call, bufid, tids, n, recv, nr,
				  pg_logged(tag), group);
	if (multi) {
		call.ev.ndest = 0;
		call.ev.dests = NULL;
		call.ev.group[0] = '\0';
	}
	if (recv != small && recv != tids)
		free(recv);
	return rc;
}

int pangaea_pvm_send(int tid, int tag)
{
	if (!pg_me->mode)
		return pvm_send(tid, tag);
	return pg_send_logged(PG_REC_SEND, &tid, 1, tag, NULL);
}

int pangaea_pvm_mcast(int *tids, int ntask, int tag)
{
	int rc;

	if (!pg_me->mode)
		return pvm_mcast(tids, ntask, tag);
	rc = pg_send_logged(PG_REC_MCAST, tids, ntask, tag, NULL);
	return rc > 0 ? 0 : rc;
}

int pangaea_pvm_psend(int tid, int tag, void *buf, int len, int datatype)
{
	int size = pg_pvm_item_size(datatype), sbf, rc;

	if (!pg_me->mode || size < 0)
		return pvm_psend(tid, tag, buf, len, datatype);
	/* what pvm_psend does, with the message id set before sending */
	sbf = pvm_setsbuf(pvm_mkbuf(PvmDataInPlace));
	pvm_pkbyte((char *)buf, len * size, 1);
	rc = pg_send_logged(PG_REC_PSEND, &tid, 1, tag, NULL);
	pvm_freebuf(pvm_setsbuf(sbf));
	return rc > 0 ? 0 : rc;
}

/* PVM's receive of KIND entered at T0 (pg_now) (outside replay control:
 * FREE, PVM's then the replay queue's), the state file telling that it
 * blocks (and the task's first clock sample taken then, pg_log_idle); a
 * receive whose message is there already (pg_mhead_arrived) does not
 * block and leaves the state file alone. */
static inline __attribute__((always_inline)) int
recv_blocking(uint64_t t0, int kind, int tid, int tag,
			 struct timeval *tmout, int free)
{
	int blocks = kind != PG_REC_NRECV && kind != PG_REC_PROBE &&
		     !pg_mhead_arrived(tid, tag, 0), b;

	if (blocks) {
		pg_log_idle();
		pg_state_block_at(t0, pg_call_of(kind, 0), tid, tag, NULL,
				  tmout);
	}
	b = free ? pg_replay_free_recv(kind, tid, tag, tmout)
	    : pg_chaos_on() ? pg_chaos_recv(kind, tid, tag, tmout)
			    : pg_pvm_recv(kind, tid, tag, tmout);
	if (blocks)
		pg_state_unblock();
	return b;
}

/* A replayed receive call of KIND with the filter (TID, TAG): what the
 * recording says it got, taken from PVM and the queue. */
static inline __attribute__((always_inline)) int
recv_replay(int kind, int tid, int tag)
{
	struct pg_call call; /* a receive: only kind, peer and tag are read */
	uint64_t t0 = pg_now();
	struct pg_event want;
	int b, blocks, src;

	call.ev.kind = kind;
	call.ev.tag = tag;
	call.ev.peer = tid == -1 ? PG_PEER_ANY : pg_ltid_of(tid);
	switch (pg_replay_expect(&call, &want, NULL)) {
	case PG_REPLAY_DIVERGED:
		return pg_task_diverged();
	case PG_REPLAY_BLOCK: /* as the recording did, till killed */
		return recv_blocking(pg_now(), kind, tid, tag, NULL, 1);
	case PG_REPLAY_POLLFAIL:
		pg_log_pollfail(pg_recv_filter(tid, tag));
		if (kind != PG_REC_PROBE && (b = pvm_getrbuf()) > 0)
			pvm_freebuf(b); /* nrecv and trecv clear the buffer */
		return 0;
	default:
		break;
	}
	/* (blocked from now: pg_replay_expect may have waited for a kill);
	   not when the recorded message has arrived already (from a task
	   of the run whose tid is known: asking for it may wait; with
	   nothing in the replay queue: fetch then takes it, and those
	   before it, without waiting) */
	blocks = pg_replay_queued() || want.peer < 0 ||
		 !(src = pg_tid_known(want.peer)) ||
		 !pg_mhead_arrived(src, want.tag, want.msgid);
	if (blocks) {
		pg_log_idle();
		pg_state_block(pg_call_of(kind, 0), tid, tag, NULL, NULL);
		pg_state_want(want.peer, want.msgid);
	}
	b = pg_replay_take_message(kind, &want);
	if (blocks)
		pg_state_unblock();
	if (b < 0)
		return b;
	want.t = t0;
	want.dur = pg_now() - t0;
	want.filter = pg_recv_filter(tid, tag);
	pg_log(&want);
	return b;
}

/* A receive call of KIND, in record or replay mode. */
static int recv_call(int kind, int tid, int tag, struct timeval *tmout)
{
	struct pg_msginfo mi;
	uint64_t t0;
	int b;

	/* (a replayed poll that failed then fails now, at once: no -delay,
	   whose thousands of waits in a poll loop would stall the replay) */
	if (pg_me->mode != PANGAEA_MODE_REPLAY || kind == PG_REC_RECV ||
	    !pg_replay_pollfail_next())
		pg_delay();
	if (!pg_logged(tag))
		return recv_blocking(pg_now(), kind, tid, tag, tmout,
				     pg_me->mode == PANGAEA_MODE_REPLAY);
	if (pg_me->mode == PANGAEA_MODE_REPLAY)
		return recv_replay(kind, tid, tag);
	t0 = pg_now();
	/* (a what-if's free task: the replay queue's messages first) */
	b = recv_blocking(t0, kind, tid, tag, tmout, pg_replay_queued());
	if (b > 0 && pg_mhead_msginfo(b, &mi) == 0)
		pg_log_recv(kind, pg_recv_filter(tid, tag), &mi, t0);
	else if (b == 0)
		pg_log_pollfail(pg_recv_filter(tid, tag));
	return b;
}

int pangaea_pvm_recv(int tid, int tag)
{
	if (!pg_me->mode)
		return pvm_recv(tid, tag);
	return recv_call(PG_REC_RECV, tid, tag, NULL);
}

int pangaea_pvm_nrecv(int tid, int tag)
{
	if (!pg_me->mode)
		return pvm_nrecv(tid, tag);
	return recv_call(PG_REC_NRECV, tid, tag, NULL);
}

int pangaea_pvm_trecv(int tid, int tag, struct timeval *tmout)
{
	if (!pg_me->mode)
		return pvm_trecv(tid, tag, tmout);
	return recv_call(PG_REC_TRECV, tid, tag, tmout);
}

int pangaea_pvm_probe(int tid, int tag)
{
	if (!pg_me->mode)
		return pvm_probe(tid, tag);
	return recv_call(PG_REC_PROBE, tid, tag, NULL);
}

int pangaea_pvm_precv(int tid, int tag, void *buf, int len, int datatype,
		      int *rtid, int *rtag, int *rlen)
{
	int size = pg_pvm_item_size(datatype), rbf, b, nb, mc, src;

	if (!pg_me->mode || size < 0)
		return pvm_precv(tid, tag, buf, len, datatype, rtid, rtag, rlen);
	/* what pvm_precv does, through the receive wrapper */
	len *= size;
	rbf = pvm_setrbuf(0);
	b = recv_call(PG_REC_PRECV, tid, tag, NULL);
	if (b > 0) {
		pvm_bufinfo(b, &nb, &mc, &src);
		if (rlen)
			*rlen = nb;
		if (rtag)
			*rtag = mc;
		if (rtid)
			*rtid = src;
		pvm_upkbyte((char *)buf, nb < len ? nb : len, 1);
		pvm_freebuf(b);
		b = 0;
	}
	pvm_setrbuf(rbf);
	return b;
}

int pangaea_pvm_parent(void)
{
	if (pg_me->mode && (pg_me->flags & PG_FLAG_TOPLEVEL))
		return PvmNoParent;
	return pvm_parent();
}
