/*
 * wrap.c: the message-passing wrappers.  In plain mode each calls PVM
 * straight through; recording adds the message id (in the PVM header's
 * wait-id field, so the app's data is untouched) and logs the event;
 * replay checks sends against the log and hands receives to replay.c.
 *
 * Every message a task sends gets the next id, whether or not it is
 * logged (selection, suspension): ids then agree between a recording and
 * its replays.  Sending the same buffer twice, or to several tasks, is
 * fine: the id is set on the buffer right before each send.
 */
#include "pangaea-internal.h"

#include <stdlib.h>
#include <string.h>

#define TIDPVMD_BIT 0x80000000u /* set in the tid of a pvmd */

int pg_peer_of(const struct pvmminfo *mi)
{
	if (mi->wid)
		return pg_ltid_of(mi->src);
	return ((unsigned)mi->src & TIDPVMD_BIT) ? PG_PEER_SYSTEM
						  : PG_PEER_FOREIGN;
}

uint32_t pg_system_ident(int bufid)
{
	int saved = pvm_setrbuf(bufid), autoerr = pvm_setopt(PvmAutoErr, 0);
	int x = 0, l = -1;

	if (pvm_upkint(&x, 1, 1) >= 0 && x > 0)
		l = pg_ltid_of(x);
	pvm_setopt(PvmAutoErr, autoerr);
	pvm_setrbuf(bufid); /* rewinds the unpacking */
	if (saved != bufid)
		pvm_setrbuf(saved);
	return l >= 0 ? (uint32_t)l + 1 : 0;
}

/* Checks a send against the recording; diverges on a difference. */
static void replay_send(const struct pg_event *ev)
{
	struct pg_event want;
	char w[256], got[256];

	if (!pg_replay_peek(&want)) {
		pg_event_describe(ev, got, sizeof(got));
		pg_diverge("the recording ends here; the program did %s", got);
	}
	if (want.kind != ev->kind || want.peer != ev->peer ||
	    want.tag != ev->tag || want.msgid != ev->msgid ||
	    !pg_event_same_dests(&want, ev) ||
	    strcmp(want.group, ev->group) != 0) {
		pg_event_describe(ev, got, sizeof(got));
		pg_event_describe(&want, w, sizeof(w));
		pg_diverge("the log expects %s; the program did %s", w, got);
	}
	pg_replay_take();
}

/* Sends the active buffer to the N tids (PVM's pvm_send each). */
static int send_all(const int *tids, int n, int tag)
{
	int rc = 0;

	for (int i = 0; i < n && rc >= 0; i++)
		rc = pvm_send(tids[i], tag);
	return rc;
}

int pg_send_logged(int kind, const int *tids, int n, int tag,
		   const char *group)
{
	struct pg_event ev = { .kind = kind, .tag = tag };
	int logged = pg_logged(tag), multi = kind == PG_REC_MCAST ||
					     kind == PG_REC_BCAST;
	int small[16], *ltids = small, bufid, rc;
	struct pvmminfo mi;

	pg_delay();
	ev.t = pg_now();
	bufid = pvm_getsbuf();
	if (bufid <= 0 || pvm_getminfo(bufid, &mi) < 0)
		return send_all(tids, n, tag); /* PVM reports the error */
	ev.msgid = pg.next_msgid + 1;
	ev.len = (uint32_t)mi.len;
	if (logged) {
		if (multi && n > 16 && !(ltids = malloc((size_t)n * sizeof(int))))
			return PvmNoMem;
		for (int i = 0; i < n; i++)
			ltids[i] = pg_ltid_of(tids[i]);
		if (multi) {
			ev.ndest = n;
			ev.dests = ltids;
			snprintf(ev.group, sizeof(ev.group), "%s", group ? group : "");
		} else {
			ev.peer = ltids[0];
		}
		if (pg.mode == PANGAEA_MODE_REPLAY)
			replay_send(&ev);
	}
	mi.wid = (int)ev.msgid;
	pvm_setminfo(bufid, &mi);
	rc = send_all(tids, n, tag);
	if (rc >= 0) {
		pg.next_msgid++;
		ev.dur = pg_now() - ev.t;
		if (logged)
			pg_log(&ev);
	}
	if (ltids != small)
		free(ltids);
	return rc;
}

int pangaea_pvm_send(int tid, int tag)
{
	if (!pg.mode)
		return pvm_send(tid, tag);
	return pg_send_logged(PG_REC_SEND, &tid, 1, tag, NULL);
}

int pangaea_pvm_mcast(int *tids, int ntask, int tag)
{
	int rc;

	if (!pg.mode || ntask <= 0)
		return pvm_mcast(tids, ntask, tag);
	rc = pg_send_logged(PG_REC_MCAST, tids, ntask, tag, NULL);
	return rc > 0 ? 0 : rc;
}

int pg_item_size(int dt)
{
	switch (dt) {
	case PVM_BYTE: return 1;
	case PVM_SHORT: case PVM_USHORT: return (int)sizeof(short);
	case PVM_INT: case PVM_UINT: return (int)sizeof(int);
	case PVM_LONG: case PVM_ULONG: return (int)sizeof(long);
	case PVM_FLOAT: return (int)sizeof(float);
	case PVM_CPLX: return 2 * (int)sizeof(float);
	case PVM_DOUBLE: return (int)sizeof(double);
	case PVM_DCPLX: return 2 * (int)sizeof(double);
	case PVM_STR: return PvmNotImpl;
	default: return PvmBadParam;
	}
}

int pangaea_pvm_psend(int tid, int tag, void *buf, int len, int datatype)
{
	int size = pg_item_size(datatype), sbf, rc;

	if (!pg.mode || size < 0)
		return pvm_psend(tid, tag, buf, len, datatype);
	/* what pvm_psend does, with the message id set before sending */
	sbf = pvm_setsbuf(pvm_mkbuf(PvmDataInPlace));
	pvm_pkbyte((char *)buf, len * size, 1);
	rc = pg_send_logged(PG_REC_PSEND, &tid, 1, tag, NULL);
	pvm_freebuf(pvm_setsbuf(sbf));
	return rc > 0 ? 0 : rc;
}

int pg_real_recv(int kind, int tid, int tag, struct timeval *tmout)
{
	switch (kind) {
	case PG_REC_NRECV: return pvm_nrecv(tid, tag);
	case PG_REC_TRECV: return pvm_trecv(tid, tag, tmout);
	case PG_REC_PROBE: return pvm_probe(tid, tag);
	default: return pvm_recv(tid, tag);
	}
}

/* A receive call of KIND, in record or replay mode. */
static int recv_call(int kind, int tid, int tag, struct timeval *tmout)
{
	uint64_t t0;
	int b;

	pg_delay();
	if (!pg_logged(tag))
		return pg.mode == PANGAEA_MODE_REPLAY
			       ? pg_replay_free_recv(kind, tid, tag, tmout)
			       : pg_real_recv(kind, tid, tag, tmout);
	if (pg.mode == PANGAEA_MODE_REPLAY)
		return pg_replay_recv(kind, tid, tag);
	t0 = pg_now();
	b = pg_real_recv(kind, tid, tag, tmout);
	if (b > 0)
		pg_log_recv(kind, b, t0);
	else if (b == 0)
		pg.poll_fails++;
	return b;
}

int pangaea_pvm_recv(int tid, int tag)
{
	if (!pg.mode)
		return pvm_recv(tid, tag);
	return recv_call(PG_REC_RECV, tid, tag, NULL);
}

int pangaea_pvm_nrecv(int tid, int tag)
{
	if (!pg.mode)
		return pvm_nrecv(tid, tag);
	return recv_call(PG_REC_NRECV, tid, tag, NULL);
}

int pangaea_pvm_trecv(int tid, int tag, struct timeval *tmout)
{
	if (!pg.mode)
		return pvm_trecv(tid, tag, tmout);
	return recv_call(PG_REC_TRECV, tid, tag, tmout);
}

int pangaea_pvm_probe(int tid, int tag)
{
	if (!pg.mode)
		return pvm_probe(tid, tag);
	return recv_call(PG_REC_PROBE, tid, tag, NULL);
}

int pangaea_pvm_precv(int tid, int tag, void *buf, int len, int datatype,
		      int *rtid, int *rtag, int *rlen)
{
	int size = pg_item_size(datatype), rbf, b, nb, mc, src;

	if (!pg.mode || size < 0)
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
	if (pg.mode && (pg.flags & PG_FLAG_TOPLEVEL))
		return PvmNoParent;
	return pvm_parent();
}
