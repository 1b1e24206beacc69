/*
 * event.c: the events of an MPI rank, in the engine's terms.  Recording
 * logs them; replay first asks the engine (pg_replay_expect) whether the
 * program does what the recording did, and stops the rank with the
 * engine's divergence report when not.  Ltids are world ranks + 1.
 */
#include "pgmpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The call of KIND, cleared. */
static void call_init(struct pg_call *c, int kind, uint64_t t)
{
	pg_event_clear(&c->ev);
	c->spawn = NULL;
	c->ev.kind = kind;
	c->ev.t = t;
}

/* Replay: the recorded event for CALL into *WANT (may be NULL); stops
 * the rank at a divergence. */
static void expect(struct pg_call *c, struct pg_event *want)
{
	if (pg_me->mode == PANGAEA_MODE_REPLAY &&
	    pg_replay_expect(c, want, NULL) == PG_REPLAY_DIVERGED)
		pg_task_diverged();
}

void pgm_ev_send(int dest, int tag, uint32_t cid, uint32_t bytes,
		 uint64_t t)
{
	struct pg_call c;

	call_init(&c, PG_REC_SEND, t);
	c.ev.peer = dest + 1;
	c.ev.tag = tag;
	c.ev.msgid = pgm_channel_id(1, dest, tag, cid, 0);
	c.ev.len = bytes;
	expect(&c, NULL);
	/* logged before MPI sends it: a receive is never logged without
	   its send; its duration 0 (the time MPI takes is not in it, and
	   Pangaea's own is not worth a clock read a send) */
	pg_log(&c.ev);
}

void pgm_ev_recv_expect(int kind, int src, int tag, int *wsrc, int *wtag)
{
	struct pg_call c;
	struct pg_event want;

	call_init(&c, kind, 0); /* (replay compares no time) */
	c.ev.peer = src == MPI_ANY_SOURCE ? PG_PEER_ANY : src + 1;
	c.ev.tag = tag == MPI_ANY_TAG ? -1 : tag;
	switch (pg_replay_expect(&c, &want, NULL)) {
	case PG_REPLAY_DIVERGED:
		pg_task_diverged();
		break;
	case PG_REPLAY_BLOCK:
		/* the recording ends blocked in this receive: no message, WANT
		   is not filled; it blocks the same, with its own filter */
		*wsrc = src;
		*wtag = tag;
		return;
	default:
		break;
	}
	*wsrc = want.peer - 1;
	*wtag = want.tag;
}

void pgm_ev_recv_log(int kind, MPI_Comm comm, int src, int tag,
		     const MPI_Status *st, uint64_t t)
{
	struct pg_event ev;
	int bytes = 0, w = pgm_world_rank(comm, st->MPI_SOURCE);

	pg_event_clear(&ev);
	PMPI_Get_count(st, MPI_BYTE, &bytes);
	ev.kind = kind;
	ev.t = t;
	ev.peer = w + 1;
	ev.tag = st->MPI_TAG;
	ev.msgid = pgm_channel_id(0, w, st->MPI_TAG, pgm_comm_cid(comm),
				   kind == PG_REC_PROBE);
	ev.len = bytes > 0 ? (uint32_t)bytes : 0;
	ev.filter = (src == MPI_ANY_SOURCE ? PG_FILTER_ANYSRC : 0) |
		    (tag == MPI_ANY_TAG ? PG_FILTER_ANYTAG : 0);
	ev.dur = pg_now() - t;
	pg_log(&ev);
}

void pgm_ev_pollfail(void)
{
	pg_log_pollfail(PG_FILTER_ANYSRC | PG_FILTER_ANYTAG);
}

int pgm_ev_poll_failed(void)
{
	if (!pg_replay_poll_failed())
		return 0;
	pgm_ev_pollfail();
	return 1;
}

/* Writes V as 32-bit little-endian at P. */
static void put32(unsigned char *p, int v)
{
	uint32_t u = (uint32_t)v;

	p[0] = (unsigned char)u;
	p[1] = (unsigned char)(u >> 8);
	p[2] = (unsigned char)(u >> 16);
	p[3] = (unsigned char)(u >> 24);
}

int pgm_ev_done(int call, int n, int *pairs, int k, uint64_t t)
{
	unsigned char small[256], *blob = small;
	struct pg_event want;
	struct pg_call c;

	call_init(&c, PG_REC_CALL, t);
	c.ev.op = PG_Q_MPI_DONE;
	c.ev.arg = call;
	c.ev.arg2 = n;
	if (pg_me->mode == PANGAEA_MODE_REPLAY) {
		expect(&c, &want);
		k = (int)(want.nblob / 8);
		if (k > n)
			k = n;
		for (int i = 0; i < 2 * k; i++) {
			const unsigned char *p = want.blob + 4 * i;

			pairs[i] = (int)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
					 (uint32_t)p[2] << 16 |
					 (uint32_t)p[3] << 24);
		}
	}
	if ((size_t)k * 8 > sizeof(small) && !(blob = malloc((size_t)k * 8)))
		return k;
	for (int i = 0; i < 2 * k; i++)
		put32(blob + 4 * i, pairs[i]);
	c.ev.result = k;
	c.ev.nblob = (uint32_t)k * 8;
	c.ev.blob = blob;
	c.ev.dur = pg_now() - t;
	pg_log(&c.ev);
	if (blob != small)
		free(blob);
	return k;
}

void pgm_ev_coll(const char *name, int root, int bytes, uint64_t t)
{
	struct pg_call c;

	call_init(&c, PG_REC_CALL, t);
	c.ev.op = PG_Q_MPI_COLL;
	c.ev.arg = root;
	c.ev.arg2 = bytes;
	snprintf(c.ev.group, sizeof(c.ev.group), "%s", name);
	expect(&c, NULL);
	c.ev.dur = pg_now() - t;
	pg_log(&c.ev);
}
