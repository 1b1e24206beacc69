/*
 * commlog-code.h: what the writer (commlog-write.c), the reader
 * (commlog-read.c) and the follower (commlog-follow.c) of the binary
 * communication log share: the coding of its values, and the state the
 * records of a version 7 log are coded against.  Inline: the writer runs
 * them in every wrapped call (bench/instr.sh counts its instructions).
 *
 * Layout (little-endian): 8-byte magic, u32 version, u32 header length,
 * i32 ltid, i32 tid, i32 parent ltid, u32 mode, u64 start wall ns, u64
 * start mono ns, u16+bytes host, u16+bytes program, u32 flags, u16+bytes
 * selection, u32 time unit (version 7); then records: one kind byte (a
 * receive's filter in its bits 5 and 6, version 6; bit 7 an id not
 * stored, version 7) followed by varints (strings as a varint length and
 * the bytes; peers as indices into a table the log builds as it goes,
 * version 7).  A zero kind byte (the unwritten tail of the mapping) ends
 * the log.  docs/FORMATS.md has the fields of each kind.
 */
#ifndef PANGAEA_COMMLOG_CODE_H
#define PANGAEA_COMMLOG_CODE_H

#include "pangaea-logs.h"

#include <stddef.h>
#include <stdint.h>

#define COMM_FIXED 48        /* bytes before the host string */

/* Zigzag-encodes a signed value so small negatives stay short. */
static inline uint64_t zz_enc(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* Reverses zz_enc. */
static inline int64_t zz_dec(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Encodes V as a LEB128 varint into P (10 bytes room); the bytes used. */
static inline size_t comm_varint_put(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

/* Decodes a varint from P[0..n); bytes used, or 0 if cut off or too
 * long. */
static inline size_t comm_varint_get(const unsigned char *p, size_t n,
				     uint64_t *v)
{
	uint64_t r = 0;
	size_t i;

	for (i = 0; i < n && i < 10; i++) {
		r |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			*v = r;
			return i + 1;
		}
	}
	return 0;
}

/* Stores a little-endian integer of N bytes. */
static inline void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Loads a little-endian integer of N bytes. */
static inline uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Whether KIND is one of the kinds of the set MASK (bit K: kind K): one
 * test instead of a chain of compares, on every record's hot path. */
static inline int comm_kind_in(int kind, uint32_t mask)
{
	return (unsigned)kind < 32 && (mask >> kind & 1u);
}

#define COMM_BIT(k) (1u << (k))
#define COMM_RECVLIKE                                                     \
	(COMM_BIT(PG_REC_RECV) | COMM_BIT(PG_REC_NRECV) |                 \
	 COMM_BIT(PG_REC_TRECV) | COMM_BIT(PG_REC_PRECV) |                \
	 COMM_BIT(PG_REC_PROBE))
#define COMM_SENDLIKE                                                     \
	(COMM_BIT(PG_REC_SEND) | COMM_BIT(PG_REC_PSEND) |                 \
	 COMM_BIT(PG_REC_MCAST) | COMM_BIT(PG_REC_BCAST))

/* Whether KIND is a record that carries a receive's filter. */
static inline int comm_has_filter(int kind)
{
	return comm_kind_in(kind, COMM_RECVLIKE | COMM_BIT(PG_REC_POLLFAIL));
}

/* Whether KIND is a record of a message sent (its id from the sender's
 * counter). */
static inline int comm_sendlike(int kind)
{
	return comm_kind_in(kind, COMM_SENDLIKE);
}

/* Whether KIND is a record of a message received (or seen: probe). */
static inline int comm_recvlike(int kind)
{
	return comm_kind_in(kind, COMM_RECVLIKE);
}

/* The index of KIND among the message kinds a repeat record may stand
 * for (version 9), or -1. */
static inline int comm_repeat_index(int kind)
{
	static const signed char index[PG_REC_LAST + 1] = {
		-1, 0, 1, 2, 3, -1, -1, 4, -1, -1, -1, 5, 6, -1, -1, -1
	};

	return (unsigned)kind <= PG_REC_LAST ? index[kind] : -1;
}

/* The message kind of the repeat index I (comm_repeat_index's inverse). */
static inline int comm_repeat_kind(int i)
{
	static const unsigned char kind[PG_COMM_REPEATS] = {
		PG_REC_SEND, PG_REC_RECV, PG_REC_NRECV, PG_REC_TRECV,
		PG_REC_PROBE, PG_REC_PSEND, PG_REC_PRECV
	};

	return kind[i];
}

/* A repeat record's (version 9) id, for its repeat index I and its peer
 * of index IDX (>= 0): what comm_expected and comm_saw_id do for its
 * kind, without their tests of the kind's class (every repeat kind is a
 * send's or a receive's; the indices are comm_repeat_kind's: 0 send, 4
 * probe, 5 psend).  The id ST expects. */
static inline uint32_t comm_repeat_want(const struct pg_comm_state *st,
					int i, int idx)
{
	return i == 0 || i == 5 ? st->last_sent + 1 /* send, psend */
				: st->peer[idx].last + st->peer[idx].step;
}

/* Moves ST past the repeat record of repeat index I with MSGID from/to
 * the peer of index IDX (a probe's, index 4, leaves the message to the
 * receive that takes it). */
static inline void comm_repeat_saw(struct pg_comm_state *st, int i, int idx,
				   uint32_t msgid)
{
	struct pg_comm_peer *p = &st->peer[idx];

	if (i == 0 || i == 5) {
		st->last_sent = msgid;
	} else if (i != 4) {
		p->step = msgid - p->last;
		p->last = msgid;
	}
}

/* Notes in ST a message record of KIND with PEER (of index IDX, -1 none),
 * TAG and LEN: what a repeat record of KIND repeats next. */
static inline void comm_saw_msg(struct pg_comm_state *st, int kind, int peer,
				int idx, int tag, uint32_t len)
{
	int i = comm_repeat_index(kind);

	if (i < 0)
		return;
	st->rep[i].peer = peer;
	st->rep[i].idx1 = idx + 1;
	st->rep[i].tag = tag;
	st->rep[i].len = len;
}

/* The message id ST expects for a record of KIND with the peer of index
 * IDX (-1: none) into *WANT; 1, or 0 when it expects none. */
static inline __attribute__((always_inline)) int comm_expected(const struct pg_comm_state *st, int kind, int idx,
			 uint32_t *want)
{
	if (st->version >= 7 && comm_sendlike(kind))
		*want = st->last_sent + 1;
	else if (st->version >= 7 && comm_recvlike(kind) && idx >= 0)
		*want = st->peer[idx].last + st->peer[idx].step;
	else
		return 0;
	return 1;
}

/* Moves ST past a record of KIND with MSGID from/to the peer of index
 * IDX (a probe leaves the message to the receive that takes it). */
static inline __attribute__((always_inline)) void comm_saw_id(struct pg_comm_state *st, int kind, int idx,
			uint32_t msgid)
{
	struct pg_comm_peer *p = idx >= 0 ? &st->peer[idx] : NULL;

	if (comm_sendlike(kind)) {
		st->last_sent = msgid;
	} else if (comm_recvlike(kind) && kind != PG_REC_PROBE && p) {
		p->step = msgid - p->last;
		p->last = msgid;
	}
}

/* Gives PEER the next index of ST's table if it has room; the index or
 * -1. */
static inline int comm_add_peer(struct pg_comm_state *st, int peer)
{
	if (st->npeers >= PG_COMM_PEERS)
		return -1;
	st->peer[st->npeers] = (struct pg_comm_peer){ .ltid = peer, .step = 1 };
	return st->npeers++;
}

/* How a clock read's or seed's record (version 8) is laid out: after the
 * kind byte (its source in bits 5-7), ARG a zz varint (the clock id,
 * getrusage's who), STATUS a varint (0, or the failed call's errno: no
 * values follow), then N values, zz varints, each the difference from
 * the same field's last value (slots SLOT.. of pg_comm_state.vlast) when
 * DELTA, else itself; BLOB a varint length and the bytes. */
struct comm_vshape {
	unsigned char n, arg, status, delta, blob, slot;
};

/* The shape of records of KIND (PG_REC_TIME, PG_REC_SEED) from SRC, or
 * NULL for a source that has none. */
static inline const struct comm_vshape *comm_value_shape(int kind, int src)
{
	static const struct comm_vshape time_shape[PG_TIME_LAST + 1] = {
		[PG_TIME_GETTIMEOFDAY] = { 1, 0, 0, 1, 0, 0 },
		[PG_TIME_TIME] = { 1, 0, 0, 1, 0, 1 },
		[PG_TIME_REALTIME] = { 1, 0, 0, 1, 0, 2 },
		[PG_TIME_MONOTONIC] = { 1, 0, 0, 1, 0, 3 },
		[PG_TIME_CLOCKID] = { 1, 1, 1, 1, 0, 4 },
		[PG_TIME_CLOCK] = { 1, 0, 0, 1, 0, 5 },
		[PG_TIME_TIMES] = { 5, 0, 0, 1, 0, 6 },
		[PG_TIME_RUSAGE] = { 16, 1, 1, 1, 0, 11 },
	};
	static const struct comm_vshape seed_shape[PG_SEED_LAST + 1] = {
		[PG_SEED_SRAND] = { 1, 0, 0, 0, 0, 0 },
		[PG_SEED_SRANDOM] = { 1, 0, 0, 0, 0, 0 },
		[PG_SEED_SRAND48] = { 1, 0, 0, 0, 0, 0 },
		[PG_SEED_SEED48] = { 3, 0, 0, 0, 0, 0 },
		[PG_SEED_INITSTATE] = { 1, 0, 0, 0, 0, 0 },
		[PG_SEED_GETRANDOM] = { 0, 0, 1, 0, 1, 0 },
		[PG_SEED_GETENTROPY] = { 0, 0, 1, 0, 1, 0 },
	};

	if (kind == PG_REC_TIME && src >= 0 && src <= PG_TIME_LAST)
		return &time_shape[src];
	if (kind == PG_REC_SEED && src >= 0 && src <= PG_SEED_LAST)
		return &seed_shape[src];
	return NULL;
}

/* Whether the kind byte KB of a version VERSION log is a clock read's
 * or a seed's record. */
static inline int comm_is_value(uint32_t version, int kb)
{
	return version >= 8 && ((kb & PG_KIND_MASK) == PG_REC_TIME ||
				(kb & PG_KIND_MASK) == PG_REC_SEED);
}

/* Decodes the header of R->data (commlog-read.c); 0, or -1 with ERR
 * filled. */
int pg_comm_read_header(struct pg_comm_reader *r, char *err, size_t errlen);

#endif /* PANGAEA_COMMLOG_CODE_H */
