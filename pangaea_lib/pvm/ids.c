/*
 * ids.c: what this task knows of tid <-> ltid, the questions it asks the
 * coordinator about the rest, and who sent a message it received.
 */
#include "pangaea-internal.h"

static struct pg_ids known; /* the pairs this task has learnt */
/* the last pair pg_ltid_of answered (a task sends to and receives from
 * the same few peers: most calls are answered here, without the hash;
 * pg_tid_of too, for an ltid of the run) */
static int last_tid, last_ltid = -2;

void pg_ids_learn(int tid, int ltid)
{
	if (tid == last_tid || ltid == last_ltid)
		last_ltid = -2;
	pg_ids_add(&known, tid, ltid); /* out of memory: asked again later */
}

/* pg_ltid_of past the last pair: the table, then the coordinator.  Out
 * of line, so that the last pair's test needs no frame. */
static __attribute__((noinline)) int ltid_lookup(int tid)
{
	int ltid = pg_ids_lookup(&known, tid);

	if (ltid != -2) {
		last_tid = tid;
		last_ltid = ltid;
		return ltid;
	}
	if (pg_proto_ask(pg_me->coord_tid, PG_TAG_TID2LTID, &tid,
			 PG_TAG_ANSWER, &ltid) < 0 || ltid < -1)
		return -1;
	pg_ids_learn(tid, ltid);
	return ltid;
}

int pg_ltid_of(int tid)
{
	if (tid == last_tid && last_ltid != -2)
		return last_ltid;
	return ltid_lookup(tid);
}

int pg_tid_known(int ltid)
{
	if (ltid == last_ltid && ltid >= 0)
		return last_tid;
	return pg_ids_lookup_ltid(&known, ltid);
}

/* pg_tid_of past the last pair: the table, then the coordinator (out of
 * line, as ltid_lookup). */
static __attribute__((noinline)) int tid_lookup(int ltid)
{
	int tid = pg_ids_lookup_ltid(&known, ltid), rc;

	if (tid)
		return tid;
	rc = pg_proto_ask(pg_me->coord_tid, PG_TAG_LTID2TID, &ltid,
			  PG_TAG_ANSWER, &tid);
	if (rc < 0)
		return rc;
	if (tid > 0)
		pg_ids_learn(tid, ltid);
	return tid;
}

int pg_tid_of(int ltid)
{
	if (ltid == last_ltid && ltid >= 0)
		return last_tid;
	return tid_lookup(ltid);
}

/* The first int of message BUFID into *X, read from a copy: libpvm's
 * pvm_setrbuf does not rewind a buffer already unpacked from, so reading
 * BUFID itself would take that int from the app.  0 or < 0. */
static int peek_first_int(int bufid, int *x)
{
	int s = pvm_mkbuf(PvmDataDefault), copy = -1, rc = -1, saved_s, saved_r;

	if (s < 0)
		return s;
	saved_s = pvm_setsbuf(s);
	if (pvm_pkmesg(bufid) >= 0) {
		pvm_setsbuf(saved_s);
		saved_r = pvm_setrbuf(s);
		copy = pvm_upkmesg();
		if (copy > 0 && pvm_setrbuf(copy) >= 0)
			rc = pvm_upkint(x, 1, 1);
		if (copy > 0)
			pvm_freebuf(copy);
		pvm_setrbuf(saved_r);
	} else {
		pvm_setsbuf(saved_s);
	}
	pvm_freebuf(s);
	return rc < 0 ? -1 : 0;
}

uint32_t pg_system_ident(int bufid)
{
	int saved = pvm_getrbuf(), autoerr = pvm_setopt(PvmAutoErr, 0);
	int x = 0, l = -1;

	if (peek_first_int(bufid, &x) == 0 && x > 0)
		l = pg_ltid_of(x);
	pvm_setopt(PvmAutoErr, autoerr);
	if (pvm_getrbuf() != saved)
		pvm_setrbuf(saved);
	return l >= 0 ? (uint32_t)l + 1 : 0;
}
