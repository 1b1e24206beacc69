/*
 * proto.c: the protocol layer.  Every message between the library, the
 * launcher and the coordinator is packed and unpacked here, in the
 * layouts of pangaea-protocol.h: the version first (checked in one place,
 * check_version), strings bounded by the receiver's buffer, counts
 * checked.  Messages travel in Pangaea's context and in buffers of their
 * own, so the app's context, send buffer and receive buffer are exactly
 * as the app left them.
 */
#include "pangaea-internal.h"

#include <stdlib.h>
#include <string.h>

static int proto_ctx; /* Pangaea's context */

/* What a message of Pangaea's sets aside of the app's. */
struct proto_saved {
	int ctx, sbuf, rbuf;
};

/* Ints of each fixed-int message, by tag (-1: not a fixed-int message). */
static int tag_ints(int tag)
{
	switch (tag) {
	case PG_TAG_HELLO: return 0;
	case PG_TAG_REGISTER: return 2;
	case PG_TAG_ACK: case PG_TAG_TID2LTID: case PG_TAG_LTID2TID:
	case PG_TAG_ANSWER: case PG_TAG_QUIT: case PG_TAG_EXITED: return 1;
	case PG_TAG_DONE: return 3;
	default: return -1;
	}
}

/* Whether messages of TAG start with the version (PVM writes the others). */
static int versioned(int tag)
{
	return tag != PG_TAG_QUIT && tag != PG_TAG_EXITED;
}

void pg_proto_open(int ctx)
{
	proto_ctx = ctx;
}

int pg_proto_context(void)
{
	return proto_ctx;
}

/* Switches to Pangaea's context, setting the app's buffers aside. */
static void enter(struct proto_saved *s)
{
	s->ctx = pvm_setcontext(proto_ctx);
	s->sbuf = pvm_setsbuf(0);
	s->rbuf = pvm_setrbuf(0);
}

/* Frees Pangaea's buffers and gives the app back its context and buffers. */
static void leave(struct proto_saved *s)
{
	int b = pvm_getrbuf();

	if (b > 0)
		pvm_freebuf(b);
	b = pvm_getsbuf();
	if (b > 0)
		pvm_freebuf(b);
	pvm_setrbuf(s->rbuf);
	pvm_setsbuf(s->sbuf);
	pvm_setcontext(s->ctx);
}

/* Starts a message of TAG in a new send buffer; >= 0 or a PVM error. */
static int begin(int tag)
{
	int v = PG_PROTOCOL_VERSION, b = pvm_initsend(PvmDataDefault);

	if (b < 0 || !versioned(tag))
		return b;
	return pvm_pkint(&v, 1, 1);
}

/* Sends the message built since begin() to TID with TAG; 0 or < 0. */
static int finish(int tid, int tag)
{
	int rc = pvm_send(tid, tag);

	return rc < 0 ? rc : 0;
}

/* The one version check of a message of TAG just made the active
 * receive buffer: 0, or PvmBadVersion (the version seen in *VERSION). */
static int check_version(int tag, int *version)
{
	int v = -1;

	if (!versioned(tag))
		return 0;
	if (pvm_upkint(&v, 1, 1) < 0 || v != PG_PROTOCOL_VERSION) {
		if (version)
			*version = v;
		return PvmBadVersion;
	}
	return 0;
}

/* Packs N ints of V (none: nothing). */
static int pk_ints(const int *v, int n)
{
	return n > 0 ? pvm_pkint((int *)v, n, 1) : 0;
}

/* Unpacks N ints into V; 0 or PvmBadMsg (the message is too short). */
static int upk_ints(int *v, int n)
{
	return n > 0 && pvm_upkint(v, n, 1) < 0 ? PvmBadMsg : 0;
}

/* Packs the C string S. */
static int pk_str(const char *s)
{
	return pvm_pkstr((char *)s);
}

/*
 * Unpacks a string into BUF of N bytes, cutting a longer one: pvm_upkstr
 * cannot bound its copy, so the string is read as PVM packs it (an int
 * length counting the NUL, then the bytes) and the rest skipped.
 */
static int upk_str(char *buf, size_t n)
{
	char skip[256];
	size_t take;
	int len, rc;

	if (pvm_upkint(&len, 1, 1) < 0 || len < 1)
		return PvmBadMsg;
	take = (size_t)len < n ? (size_t)len : n;
	rc = pvm_upkbyte(buf, (int)take, 1);
	for (size_t left = (size_t)len - take; rc >= 0 && left > 0;) {
		size_t k = left < sizeof(skip) ? left : sizeof(skip);

		rc = pvm_upkbyte(skip, (int)k, 1);
		left -= k;
	}
	if (rc < 0)
		return PvmBadMsg;
	buf[take - 1] = '\0';
	return 0;
}

/* Receives TAG from TID within SECONDS (< 0: no limit) as the active
 * buffer, version checked: the bufid, 0 on timeout, or < 0. */
static int recv_checked(int tid, int tag, int seconds)
{
	struct timeval tv = { seconds, 0 };
	int b = seconds < 0 ? pvm_recv(tid, tag) : pvm_trecv(tid, tag, &tv);
	int rc;

	if (b <= 0)
		return b;
	rc = check_version(tag, NULL);
	return rc < 0 ? rc : b;
}

int pg_proto_send(int tid, int tag, const int *v)
{
	struct proto_saved s;
	int n = tag_ints(tag), rc;

	if (n < 0)
		return PvmBadParam;
	enter(&s);
	rc = begin(tag);
	if (rc >= 0)
		rc = pk_ints(v, n);
	if (rc >= 0)
		rc = finish(tid, tag);
	leave(&s);
	return rc < 0 ? rc : 0;
}

int pg_proto_recv(int tid, int tag, int seconds, int *v)
{
	struct proto_saved s;
	int n = tag_ints(tag), b;

	if (n < 0)
		return PvmBadParam;
	enter(&s);
	b = recv_checked(tid, tag, seconds);
	if (b > 0)
		b = upk_ints(v, n) < 0 ? PvmBadMsg : 1;
	leave(&s);
	return b;
}

int pg_proto_ask(int tid, int tag, const int *v, int reply_tag, int *answer)
{
	struct proto_saved s;
	int n = tag_ints(tag), rc;

	if (n < 0 || tag_ints(reply_tag) != 1)
		return PvmBadParam;
	enter(&s);
	rc = begin(tag);
	if (rc >= 0)
		rc = pk_ints(v, n);
	if (rc >= 0)
		rc = finish(tid, tag);
	if (rc >= 0)
		rc = recv_checked(tid, reply_tag, -1);
	if (rc > 0)
		rc = upk_ints(answer, 1);
	leave(&s);
	return rc < 0 ? rc : 0;
}

int pg_proto_send_handover(int tid, const struct pg_handover *h)
{
	int v[7] = { h->ltid, h->mode, h->coord_tid, h->launcher_tid,
		     h->flags, h->delay_us, (int)h->seed };
	struct proto_saved s;
	int rc;

	enter(&s);
	rc = begin(PG_TAG_HANDOVER);
	if (rc >= 0)
		rc = pk_ints(v, 7);
	if (rc >= 0)
		rc = pk_str(h->logdir);
	if (rc >= 0)
		rc = pk_str(h->replaydir);
	if (rc >= 0)
		rc = pk_str(h->select);
	if (rc >= 0)
		rc = finish(tid, PG_TAG_HANDOVER);
	leave(&s);
	return rc < 0 ? rc : 0;
}

int pg_proto_recv_handover(int tid, int seconds, struct pg_handover *h)
{
	struct proto_saved s;
	int v[7], b;

	enter(&s);
	b = recv_checked(tid, PG_TAG_HANDOVER, seconds);
	if (b > 0 && (upk_ints(v, 7) < 0 ||
		      upk_str(h->logdir, sizeof(h->logdir)) < 0 ||
		      upk_str(h->replaydir, sizeof(h->replaydir)) < 0 ||
		      upk_str(h->select, sizeof(h->select)) < 0))
		b = PvmBadMsg;
	leave(&s);
	if (b <= 0)
		return b;
	h->ltid = v[0];
	h->mode = v[1];
	h->coord_tid = v[2];
	h->launcher_tid = v[3];
	h->flags = v[4];
	h->delay_us = v[5];
	h->seed = (unsigned)v[6];
	return 1;
}

/* Packs one task of SPAWNED. */
static int pk_spawned_task(const struct pg_spawned_task *t)
{
	int v[2] = { t->ltid, t->tid }, rc = pk_ints(v, 2);

	if (rc >= 0)
		rc = pk_str(t->host);
	return rc < 0 ? rc : pk_str(t->program);
}

int pg_proto_tell_spawned(int coord, int parent_ltid,
			  const struct pg_spawned_task *t, int n)
{
	int head[2] = { parent_ltid, n }, status = PvmSysErr, rc;
	struct proto_saved s;

	enter(&s);
	rc = begin(PG_TAG_SPAWNED);
	if (rc >= 0)
		rc = pk_ints(head, 2);
	for (int i = 0; i < n && rc >= 0; i++)
		rc = pk_spawned_task(&t[i]);
	if (rc >= 0)
		rc = finish(coord, PG_TAG_SPAWNED);
	if (rc >= 0 && recv_checked(coord, PG_TAG_ACK, -1) > 0 &&
	    upk_ints(&status, 1) < 0)
		status = PvmBadMsg;
	leave(&s);
	return rc < 0 ? rc : status;
}

int pg_proto_send_diverged(int tid, int ltid, const char *report)
{
	struct proto_saved s;
	int rc;

	enter(&s);
	rc = begin(PG_TAG_DIVERGED);
	if (rc >= 0)
		rc = pk_ints(&ltid, 1);
	if (rc >= 0)
		rc = pk_str(report);
	if (rc >= 0)
		rc = finish(tid, PG_TAG_DIVERGED);
	leave(&s);
	return rc < 0 ? rc : 0;
}

int pg_proto_send_events(int tid, const struct pg_live_head *h,
			 const int *ints, int n)
{
	int head[2] = { h->ltid, h->parent_ltid };
	struct proto_saved s;
	int rc;

	enter(&s);
	rc = begin(PG_TAG_EVENTS);
	if (rc >= 0)
		rc = pk_ints(head, 2);
	if (rc >= 0)
		rc = pk_str(h->host);
	if (rc >= 0)
		rc = pk_str(h->program);
	if (rc >= 0)
		rc = pk_ints(&n, 1);
	if (rc >= 0)
		rc = pk_ints(ints, n);
	if (rc >= 0)
		rc = finish(tid, PG_TAG_EVENTS);
	leave(&s);
	return rc < 0 ? rc : 0;
}

int pg_proto_send_collect(int tid, const struct pg_collect *c,
			  const void *data)
{
	int head[4] = { c->op, c->msgtag, c->count, c->datatype };
	struct proto_saved s;
	int rc;

	enter(&s);
	rc = begin(PG_TAG_COLLECT);
	if (rc >= 0)
		rc = pk_ints(head, 4);
	if (rc >= 0)
		rc = pg_pvm_pack(1, (void *)data, c->count, c->datatype);
	if (rc >= 0)
		rc = finish(tid, PG_TAG_COLLECT);
	leave(&s);
	return rc < 0 ? rc : 0;
}

int pg_proto_recv_collect(int tid, const struct pg_collect *c, void *data)
{
	struct proto_saved s;
	int head[4], rc;

	enter(&s);
	rc = recv_checked(tid, PG_TAG_COLLECT, -1);
	if (rc >= 0)
		rc = upk_ints(head, 4);
	if (rc >= 0 && (head[0] != c->op || head[1] != c->msgtag ||
			head[2] != c->count || head[3] != c->datatype))
		rc = PvmMismatch;
	if (rc >= 0)
		rc = pg_pvm_pack(0, data, c->count, c->datatype);
	leave(&s);
	return rc < 0 ? rc : 0;
}

int pg_proto_check(int bufid, int *tag, int *src, int *version)
{
	int len;

	if (pvm_bufinfo(bufid, &len, tag, src) < 0)
		return PvmNoSuchBuf;
	*version = PG_PROTOCOL_VERSION;
	return check_version(*tag, version);
}

int pg_proto_upk(int tag, int *v)
{
	int n = tag_ints(tag);

	return n < 0 ? PvmBadParam : upk_ints(v, n);
}

int pg_proto_upk_spawned(int *parent_ltid, int *n)
{
	int head[2];

	if (upk_ints(head, 2) < 0 || head[1] < 0 || head[1] >= PG_LTID_FANOUT)
		return PvmBadMsg;
	*parent_ltid = head[0];
	*n = head[1];
	return 0;
}

int pg_proto_upk_spawned_task(struct pg_spawned_task *t)
{
	int v[2];

	if (upk_ints(v, 2) < 0 || upk_str(t->host, sizeof(t->host)) < 0 ||
	    upk_str(t->program, sizeof(t->program)) < 0)
		return PvmBadMsg;
	t->ltid = v[0];
	t->tid = v[1];
	return 0;
}

int pg_proto_upk_diverged(int *ltid, char *report, size_t n)
{
	return upk_ints(ltid, 1) < 0 || upk_str(report, n) < 0 ? PvmBadMsg : 0;
}

int pg_proto_upk_events(struct pg_live_head *h, int **ints, int *n)
{
	int head[2];

	*ints = NULL;
	if (upk_ints(head, 2) < 0 || upk_str(h->host, sizeof(h->host)) < 0 ||
	    upk_str(h->program, sizeof(h->program)) < 0 ||
	    upk_ints(n, 1) < 0 || *n < 0 || *n > (1 << 24))
		return PvmBadMsg;
	h->ltid = head[0];
	h->parent_ltid = head[1];
	if (!(*ints = malloc((size_t)(*n ? *n : 1) * sizeof(int))))
		return PvmNoMem;
	if (upk_ints(*ints, *n) < 0) {
		free(*ints);
		*ints = NULL;
		return PvmBadMsg;
	}
	return 0;
}

int pg_proto_forward(int bufid, int tid, int tag)
{
	int ctx = pvm_setcontext(proto_ctx), old = pvm_setsbuf(bufid);
	int rc = pvm_send(tid, tag);

	pvm_setsbuf(old);
	pvm_setcontext(ctx);
	return rc < 0 ? rc : 0;
}
