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
	case PG_TAG_ANSWER: case PG_TAG_QUIT: case PG_TAG_EXITED:
	case PG_TAG_BEACON: return 1;
	case PG_TAG_DONE: return 3;
	case PG_TAG_LOGFAIL: return 2;
	case PG_TAG_KILLING: return 2;
	case PG_TAG_KILLWAIT: return 1;
	case PG_TAG_CLOCK: return 3;
	case PG_TAG_DEBUG: return 3;
	default: return -1;
	}
}

/* Whether messages of TAG start with the version (PVM writes the others). */
static int versioned(int tag)
{
	return tag != PG_TAG_QUIT && tag != PG_TAG_EXITED &&
	       tag != PG_TAG_ENDTASK && tag != PG_TAG_OUTPUT &&
	       tag != PG_TAG_HOSTADD;
}

void pg_proto_open(int ctx)
{
	proto_ctx = ctx;
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

/* A message's layout: a packer writes MSG into the active send buffer,
 * an unpacker reads the active receive buffer into MSG; >= 0 or a PVM
 * error. */
typedef int (*proto_pack)(const void *msg);
typedef int (*proto_unpack)(void *msg);

/* Builds the message TAG, laid out by PACK from MSG, and sends it to
 * TID (between enter and leave); 0 or < 0. */
static int put_msg(int tid, int tag, proto_pack pack, const void *msg)
{
	int rc = begin(tag);

	if (rc >= 0)
		rc = pack(msg);
	return rc < 0 ? rc : finish(tid, tag);
}

/* Sends the message TAG, laid out by PACK from MSG, to TID; 0 or < 0. */
static int send_msg(int tid, int tag, proto_pack pack, const void *msg)
{
	struct proto_saved s;
	int rc;

	enter(&s);
	rc = put_msg(tid, tag, pack, msg);
	leave(&s);
	return rc;
}

/* Waits up to SECONDS (< 0: no limit) for TAG from TID and reads it with
 * UNPACK into MSG; 1, 0 on timeout, or < 0. */
static int recv_msg(int tid, int tag, int seconds, proto_unpack unpack,
		    void *msg)
{
	struct proto_saved s;
	int b, rc;

	enter(&s);
	b = recv_checked(tid, tag, seconds);
	if (b > 0 && (rc = unpack(msg)) < 0)
		b = rc;
	leave(&s);
	return b > 0 ? 1 : b;
}

/* Sends the question TAG (PACK, MSG) to TID and waits for its one-int
 * answer REPLY_TAG into *ANSWER; 0 or < 0. */
static int ask_msg(int tid, int tag, proto_pack pack, const void *msg,
		   int reply_tag, int *answer)
{
	struct proto_saved s;
	int rc;

	enter(&s);
	rc = put_msg(tid, tag, pack, msg);
	if (rc >= 0)
		rc = recv_checked(tid, reply_tag, -1);
	if (rc > 0)
		rc = upk_ints(answer, 1);
	leave(&s);
	return rc < 0 ? rc : 0;
}

/* The fixed-int messages: TAG's ints at V. */
struct proto_ints {
	int tag;
	int *v;
};

/* Packs a fixed-int message (struct proto_ints). */
static int pack_ints(const void *msg)
{
	const struct proto_ints *m = msg;

	return pk_ints(m->v, tag_ints(m->tag));
}

/* Unpacks a fixed-int message (struct proto_ints). */
static int unpack_ints(void *msg)
{
	struct proto_ints *m = msg;

	return upk_ints(m->v, tag_ints(m->tag));
}

int pg_proto_send(int tid, int tag, const int *v)
{
	struct proto_ints m = { tag, (int *)v };

	if (tag_ints(tag) < 0)
		return PvmBadParam;
	return send_msg(tid, tag, pack_ints, &m);
}

int pg_proto_recv(int tid, int tag, int seconds, int *v)
{
	struct proto_ints m = { tag, v };

	if (tag_ints(tag) < 0)
		return PvmBadParam;
	return recv_msg(tid, tag, seconds, unpack_ints, &m);
}

int pg_proto_ask(int tid, int tag, const int *v, int reply_tag, int *answer)
{
	struct proto_ints m = { tag, (int *)v };

	if (tag_ints(tag) < 0 || tag_ints(reply_tag) != 1)
		return PvmBadParam;
	return ask_msg(tid, tag, pack_ints, &m, reply_tag, answer);
}

int pg_proto_upk(int tag, int *v)
{
	struct proto_ints m = { tag, v };

	return tag_ints(tag) < 0 ? PvmBadParam : unpack_ints(&m);
}

/* HANDOVER (struct pg_handover). */
static int pack_handover(const void *msg)
{
	const struct pg_handover *h = msg;
	int v[7] = { h->ltid, h->mode, h->coord_tid, h->launcher_tid,
		     h->flags, h->delay_us, (int)h->seed };
	int rc = pk_ints(v, 7);

	if (rc >= 0)
		rc = pk_str(h->logdir);
	if (rc >= 0)
		rc = pk_str(h->replaydir);
	if (rc >= 0)
		rc = pk_str(h->select);
	return rc < 0 ? rc : pk_str(h->calib);
}

/* HANDOVER (struct pg_handover). */
static int unpack_handover(void *msg)
{
	struct pg_handover *h = msg;
	int v[7];

	if (upk_ints(v, 7) < 0 || upk_str(h->logdir, sizeof(h->logdir)) < 0 ||
	    upk_str(h->replaydir, sizeof(h->replaydir)) < 0 ||
	    upk_str(h->select, sizeof(h->select)) < 0 ||
	    upk_str(h->calib, sizeof(h->calib)) < 0)
		return PvmBadMsg;
	h->ltid = v[0];
	h->mode = v[1];
	h->coord_tid = v[2];
	h->launcher_tid = v[3];
	h->flags = v[4];
	h->delay_us = v[5];
	h->seed = (unsigned)v[6];
	return 0;
}

int pg_proto_send_handover(int tid, const struct pg_handover *h)
{
	return send_msg(tid, PG_TAG_HANDOVER, pack_handover, h);
}

int pg_proto_recv_handover(int tid, int seconds, struct pg_handover *h)
{
	return recv_msg(tid, PG_TAG_HANDOVER, seconds, unpack_handover, h);
}

/* SPAWNED: the parent and its N new tasks T. */
struct proto_spawned {
	int parent_ltid, n;
	const struct pg_spawned_task *t;
};

/* Packs SPAWNED (struct proto_spawned). */
static int pack_spawned(const void *msg)
{
	const struct proto_spawned *m = msg;
	int head[2] = { m->parent_ltid, m->n }, rc = pk_ints(head, 2);

	for (int i = 0; i < m->n && rc >= 0; i++) {
		int v[2] = { m->t[i].ltid, m->t[i].tid };

		rc = pk_ints(v, 2);
		if (rc >= 0)
			rc = pk_str(m->t[i].host);
		if (rc >= 0)
			rc = pk_str(m->t[i].program);
	}
	return rc;
}

int pg_proto_tell_spawned(int coord, int parent_ltid,
			  const struct pg_spawned_task *t, int n, int wait)
{
	struct proto_spawned m = { parent_ltid, n, t };
	int status = PvmSysErr, rc;

	if (!wait)
		return send_msg(coord, PG_TAG_SPAWNED, pack_spawned, &m);
	rc = ask_msg(coord, PG_TAG_SPAWNED, pack_spawned, &m, PG_TAG_ACK,
		     &status);
	return rc < 0 ? rc : status;
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

/* DIVERGED: task LTID's REPORT. */
struct proto_diverged {
	int ltid;
	const char *report;
};

/* Packs DIVERGED (struct proto_diverged). */
static int pack_diverged(const void *msg)
{
	const struct proto_diverged *m = msg;
	int rc = pk_ints(&m->ltid, 1);

	return rc < 0 ? rc : pk_str(m->report);
}

int pg_proto_send_diverged(int tid, int ltid, const char *report)
{
	struct proto_diverged m = { ltid, report };

	return send_msg(tid, PG_TAG_DIVERGED, pack_diverged, &m);
}

int pg_proto_upk_diverged(int *ltid, char *report, size_t n)
{
	return upk_ints(ltid, 1) < 0 || upk_str(report, n) < 0 ? PvmBadMsg : 0;
}

/* WATCH: task LTID asked PVM to tell it (with MSGTAG) of the exit of
 * the N tasks TIDS, or CANCEL: no longer. */
struct proto_watch {
	int ltid, msgtag, cancel, n;
	const int *tids;
};

/* Packs WATCH (struct proto_watch). */
static int pack_watch(const void *msg)
{
	const struct proto_watch *m = msg;
	int head[4] = { m->ltid, m->msgtag, m->cancel, m->n },
	    rc = pk_ints(head, 4);

	return rc < 0 ? rc : pk_ints(m->tids, m->n);
}

int pg_proto_send_watch(int tid, int ltid, int msgtag, int cancel,
			const int *tids, int n)
{
	struct proto_watch m = { ltid, msgtag, cancel != 0, n, tids };

	return send_msg(tid, PG_TAG_WATCH, pack_watch, &m);
}

int pg_proto_upk_watch(int *ltid, int *msgtag, int *cancel, int **tids,
		       int *n)
{
	int head[4];

	*tids = NULL;
	if (upk_ints(head, 4) < 0 || head[3] < 0 || head[3] > (1 << 20))
		return PvmBadMsg;
	*ltid = head[0];
	*msgtag = head[1];
	*cancel = head[2] != 0;
	*n = head[3];
	if (!(*tids = malloc((size_t)(*n ? *n : 1) * sizeof(int))))
		return PvmNoMem;
	if (upk_ints(*tids, *n) < 0) {
		free(*tids);
		*tids = NULL;
		return PvmBadMsg;
	}
	return 0;
}

/* EVENTS: the head H and N ints. */
struct proto_events {
	const struct pg_live_head *h;
	const int *ints;
	int n;
};

/* Packs EVENTS (struct proto_events). */
static int pack_events(const void *msg)
{
	const struct proto_events *m = msg;
	int head[2] = { m->h->ltid, m->h->parent_ltid }, rc = pk_ints(head, 2);

	if (rc >= 0)
		rc = pk_str(m->h->host);
	if (rc >= 0)
		rc = pk_str(m->h->program);
	if (rc >= 0)
		rc = pk_ints(&m->n, 1);
	return rc < 0 ? rc : pk_ints(m->ints, m->n);
}

int pg_proto_send_events(int tid, const struct pg_live_head *h,
			 const int *ints, int n)
{
	struct proto_events m = { h, ints, n };

	return send_msg(tid, PG_TAG_EVENTS, pack_events, &m);
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

/* COLLECT: the head C and C->count items at DATA. */
struct proto_collect {
	const struct pg_collect *c;
	void *data;
};

/* Packs COLLECT (struct proto_collect). */
static int pack_collect(const void *msg)
{
	const struct proto_collect *m = msg;
	int head[4] = { m->c->op, m->c->msgtag, m->c->count, m->c->datatype };
	int rc = pk_ints(head, 4);

	return rc < 0 ? rc : pg_pvm_pack(1, m->data, m->c->count,
					 m->c->datatype);
}

/* Unpacks COLLECT (struct proto_collect): PvmMismatch unless its head is
 * the expected one. */
static int unpack_collect(void *msg)
{
	struct proto_collect *m = msg;
	int head[4];

	if (upk_ints(head, 4) < 0)
		return PvmBadMsg;
	if (head[0] != m->c->op || head[1] != m->c->msgtag ||
	    head[2] != m->c->count || head[3] != m->c->datatype)
		return PvmMismatch;
	return pg_pvm_pack(0, m->data, m->c->count, m->c->datatype);
}

int pg_proto_send_collect(int tid, const struct pg_collect *c,
			  const void *data)
{
	struct proto_collect m = { c, (void *)data };

	return send_msg(tid, PG_TAG_COLLECT, pack_collect, &m);
}

int pg_proto_recv_collect(int tid, const struct pg_collect *c, void *data)
{
	struct proto_collect m = { c, data };
	int rc = recv_msg(tid, PG_TAG_COLLECT, -1, unpack_collect, &m);

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

int pg_proto_forward(int bufid, int tid, int tag)
{
	int ctx = pvm_setcontext(proto_ctx), old = pvm_setsbuf(bufid);
	int rc = pvm_send(tid, tag);

	pvm_setsbuf(old);
	pvm_setcontext(ctx);
	return rc < 0 ? rc : 0;
}

/* Packs LOGS_ASK (the folder, a string). */
static int pack_logs_ask(const void *msg)
{
	return pk_str(msg);
}

int pg_proto_send_logs_ask(int tid, const char *dir)
{
	return send_msg(tid, PG_TAG_LOGS_ASK, pack_logs_ask, dir);
}

int pg_proto_upk_logs_ask(char *dir, size_t n)
{
	return upk_str(dir, n) < 0 ? PvmBadMsg : 0;
}

/* Packs LOGFILE (struct pg_logpiece). */
static int pack_logpiece(const void *msg)
{
	const struct pg_logpiece *p = msg;
	int v[3] = { p->size, p->offset, p->n }, rc = pk_str(p->dir);

	if (rc >= 0)
		rc = pk_str(p->name);
	if (rc >= 0)
		rc = pk_ints(v, 3);
	if (rc >= 0 && p->n > 0)
		rc = pvm_pkbyte((char *)p->data, p->n, 1);
	return rc;
}

int pg_proto_send_logpiece(int tid, const struct pg_logpiece *p)
{
	return send_msg(tid, PG_TAG_LOGFILE, pack_logpiece, p);
}

int pg_proto_upk_logpiece(struct pg_logpiece *p, void *buf)
{
	int v[3];

	if (upk_str(p->dir, sizeof(p->dir)) < 0 ||
	    upk_str(p->name, sizeof(p->name)) < 0 || upk_ints(v, 3) < 0 ||
	    v[0] < 0 || v[1] < 0 || v[2] < 0 || v[2] > PG_LOGPIECE_MAX)
		return PvmBadMsg;
	p->size = v[0];
	p->offset = v[1];
	p->n = v[2];
	p->data = buf;
	return p->n > 0 && pvm_upkbyte(buf, p->n, 1) < 0 ? PvmBadMsg : 0;
}
