/*
 * match.c: pairs the two ends of every message of a run, one end at a
 * time, in any order (see match.h).
 *
 * An end whose other end has not come yet waits in a hash table keyed by
 * its message (src, msgid, dst), open addressing with linear probing, at
 * most half full.  Several ends of one side may wait for one message
 * (damaged logs, an mcast naming a task twice): they wait in the order
 * fed, and the first is paired first.  A message once paired keeps its
 * slot, marked, so that a later receive of it is told apart from one
 * whose send was never logged.
 */
#include "match.h"

#include <stdlib.h>
#include <string.h>

#define MATCH_PAIRED 0x80000000u /* slot head: the message was paired */
#define MATCH_WAITER 0x7fffffffu /* slot head: first waiting end + 1 */

/* A message: its key, whether it was paired, who waits for it. */
struct pg_match_slot {
	int32_t src;
	uint32_t msgid;
	int32_t dst;
	uint32_t head; /* 0: an empty slot */
};

/* A waiting end, chained to the next end waiting for its message (or,
 * unused, to the next unused entry): entry number + 1, 0 for none. */
struct pg_match_wait {
	struct pg_match_end end;
	uint32_t next;
};

int pg_match_is_send(const struct pg_match_end *e)
{
	return pg_rec_kind_class(e->kind) == PG_CLASS_SEND;
}

/* The home slot of the message of E, before the mask: a well-mixed hash
 * of the sender, the receiver and the message id but its low 4 bits,
 * which pick the slot in a run of 16.  A sender numbers its messages
 * 1, 2, ..., so the messages between two tasks come close together in
 * the table, and the import, fed one log after the other, finds most of
 * them in a cache line it has just used. */
static size_t match_hash(const struct pg_match_end *e)
{
	uint64_t h = ((uint64_t)(uint32_t)e->src << 32 | (uint32_t)e->dst) *
		     0x9e3779b97f4a7c15ull;

	h ^= (uint64_t)(e->msgid >> 4) * 0xc2b2ae3d27d4eb4full;
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 29;
	return (size_t)(h << 4 | (e->msgid & 15));
}

/* The slot of E's message in SLOTS (2^k of them), or the empty slot where
 * it would go. */
static struct pg_match_slot *match_slot(struct pg_match_slot *slots,
					size_t nslots,
					const struct pg_match_end *e)
{
	size_t mask = nslots - 1, i = match_hash(e) & mask;

	while (slots[i].head && (slots[i].src != e->src ||
				 slots[i].msgid != e->msgid ||
				 slots[i].dst != e->dst))
		i = (i + 1) & mask;
	return &slots[i];
}

/* Makes room in M's table for one more message; 0 or -1. */
static int match_room(struct pg_match *m)
{
	size_t n = m->nslots ? m->nslots * 2 : 1024;
	struct pg_match_slot *v;

	if ((m->nkeys + 1) * 2 <= m->nslots)
		return 0;
	if (n > SIZE_MAX / sizeof(*v) || !(v = calloc(n, sizeof(*v))))
		return -1;
	for (size_t i = 0; i < m->nslots; i++) {
		const struct pg_match_slot *s = &m->slots[i];
		struct pg_match_end key = { .src = s->src, .msgid = s->msgid,
					    .dst = s->dst };

		if (s->head)
			*match_slot(v, n, &key) = *s;
	}
	free(m->slots);
	m->slots = v;
	m->nslots = n;
	return 0;
}

/* Keeps a copy of E in an entry of M's waiting ends; its number + 1, or
 * 0 when memory runs out. */
static uint32_t match_keep(struct pg_match *m, const struct pg_match_end *e)
{
	struct pg_match_wait *v;
	uint32_t w = m->free;

	if (w) {
		m->free = m->wait[w - 1].next;
	} else {
		if (m->nwait >= MATCH_WAITER ||
		    !(v = pg_grow(m->wait, &m->capwait, m->nwait + 1,
				  sizeof(*v), 1024)))
			return 0;
		m->wait = v;
		w = (uint32_t)++m->nwait;
	}
	m->wait[w - 1].end = *e;
	m->wait[w - 1].next = 0;
	return w;
}

/* Puts end W (entry number + 1) last among those waiting in slot S. */
static void match_queue(struct pg_match *m, struct pg_match_slot *s,
			uint32_t w)
{
	uint32_t i = s->head & MATCH_WAITER;

	if (!i) {
		s->head |= w;
		return;
	}
	while (m->wait[i - 1].next)
		i = m->wait[i - 1].next;
	m->wait[i - 1].next = w;
}

int pg_match_add(struct pg_match *m, struct pg_match_end *e,
		 struct pg_match_end *other)
{
	int send = pg_match_is_send(e);
	struct pg_match_slot *s;
	uint32_t first, w;

	e->seq = ++m->seq;
	if (!send && e->src < 0)
		return PG_MATCH_FOREIGN;
	if (match_room(m) < 0)
		return -1;
	s = match_slot(m->slots, m->nslots, e);
	first = s->head & MATCH_WAITER;
	if (first && pg_match_is_send(&m->wait[first - 1].end) != send) {
		*other = m->wait[first - 1].end;
		s->head = MATCH_PAIRED | m->wait[first - 1].next;
		m->wait[first - 1].next = m->free;
		m->free = first;
		return PG_MATCH_PAIRED;
	}
	if (!(w = match_keep(m, e)))
		return -1;
	if (!s->head) {
		*s = (struct pg_match_slot){ e->src, e->msgid, e->dst, 0 };
		m->nkeys++;
	}
	match_queue(m, s, w);
	return PG_MATCH_WAITS;
}

/* Feeds E to M and tells FN; 0, -1 out of memory, or FN's value. */
static int match_feed(struct pg_match *m, struct pg_match_end *e,
		      pg_match_fn fn, void *arg)
{
	struct pg_match_end other;
	int what = pg_match_add(m, e, &other);

	if (what < 0)
		return -1;
	return fn(arg, what, e, what == PG_MATCH_PAIRED ? &other : NULL);
}

int pg_match_event(struct pg_match *m, int ltid, int64_t id,
		   const struct pg_event *ev, int64_t t0, int64_t t1,
		   pg_match_fn fn, void *arg)
{
	struct pg_match_end e = { ltid, ev->peer, ev->msgid, ev->tag, ev->len,
				  ev->kind, id, t0, 0 };
	int rc = 0;

	switch (pg_rec_kind_class(ev->kind)) {
	case PG_CLASS_SEND:
		/* an mcast or bcast names its destinations in a list */
		if (ev->kind != PG_REC_MCAST && ev->kind != PG_REC_BCAST)
			return match_feed(m, &e, fn, arg);
		for (int i = 0; i < ev->ndest && rc == 0; i++) {
			e.dst = ev->dests[i];
			rc = match_feed(m, &e, fn, arg);
		}
		return rc;
	case PG_CLASS_RECV:
		e.src = ev->peer;
		e.dst = ltid;
		e.t = t1;
		return match_feed(m, &e, fn, arg);
	default:
		return 0;
	}
}

/* Orders ends by the order they were fed. */
static int match_seq_cmp(const void *pa, const void *pb)
{
	const struct pg_match_end *a = pa, *b = pb;

	return (a->seq > b->seq) - (a->seq < b->seq);
}

long pg_match_left(const struct pg_match *m, struct pg_match_end **out)
{
	struct pg_match_end *v = NULL, *nv;
	size_t n = 0, cap = 0;

	*out = NULL;
	for (size_t i = 0; i < m->nslots; i++)
		for (uint32_t w = m->slots[i].head & MATCH_WAITER; w;
		     w = m->wait[w - 1].next) {
			if (!(nv = pg_grow(v, &cap, n + 1, sizeof(*v), 64))) {
				free(v);
				return -1;
			}
			v = nv;
			v[n++] = m->wait[w - 1].end;
		}
	if (n > 1)
		qsort(v, n, sizeof(*v), match_seq_cmp);
	*out = v;
	return (long)n;
}

/* Whether the message of E was paired already; 1 or 0. */
static int match_was_paired(const struct pg_match *m,
			    const struct pg_match_end *e)
{
	return m->nslots &&
	       (match_slot(m->slots, m->nslots, e)->head & MATCH_PAIRED) != 0;
}

const char *pg_match_why(const struct pg_match *m,
			 const struct pg_match_end *e,
			 const struct pg_match_run *run)
{
	if (pg_match_is_send(e))
		return run->selective ||
		       !pg_run_has(run->ltids, run->nltid, e->dst)
		       ? "selection" : "not received";
	if (e->src < 0)
		return "foreign";
	if (match_was_paired(m, e))
		return "duplicate receive";
	return run->selective || !pg_run_has(run->ltids, run->nltid, e->src)
	       ? "selection" : "send not logged";
}

void pg_match_free(struct pg_match *m)
{
	free(m->slots);
	free(m->wait);
	memset(m, 0, sizeof(*m));
}
