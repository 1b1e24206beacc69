/*
 * commlog.c: the binary communication log (writer and reader).
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
#include "pangaea-logs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define COMM_FIXED 48        /* bytes before the host string */
#define COMM_GROW (1 << 20)  /* the mapping grows by this much */
#define REC_FIXED 64         /* longest record without strings and lists */
#define PG_COMM_SPARE (2 * REC_FIXED) /* kept for pg_comm_append_reserved */

/* Zigzag-encodes a signed value so small negatives stay short. */
static uint64_t zz_enc(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* Reverses zz_enc. */
static int64_t zz_dec(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

size_t pg_varint_put(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

size_t pg_varint_get(const unsigned char *p, size_t n, uint64_t *v)
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
static void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Loads a little-endian integer of N bytes. */
static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Reserves the disk blocks of bytes FROM..TO of W's file (growing the
 * file to TO): 0, or -1 with errno (ENOSPC on a full disk). */
static int comm_allocate(struct pg_comm_writer *w, size_t from, size_t to)
{
	int rc = posix_fallocate(w->fd, (off_t)from, (off_t)(to - from));

	if (rc == 0)
		return 0;
	errno = rc;
	return -1;
}

/*
 * Makes the file and mapping at least NEED + PG_COMM_SPARE bytes larger
 * than used, the spare kept for pg_comm_append_reserved.  Every byte of
 * the mapping has its disk block allocated first (posix_fallocate), so a
 * full disk is an error here, never a SIGBUS at a store into the map.
 * The file grows by COMM_GROW, or, when the disk has no room for that,
 * by just what is needed.  0, or -1 with errno; W is unchanged on error.
 */
static int comm_reserve(struct pg_comm_writer *w, size_t need)
{
	size_t cap = w->cap, page;
	unsigned char *old = w->map;
	void *m;

	need += PG_COMM_SPARE;
	if (w->used + need <= w->cap) /* every record but one in thousands */
		return 0;
	page = (size_t)sysconf(_SC_PAGESIZE);
	while (cap < w->used + need)
		cap += COMM_GROW;
	if (comm_allocate(w, w->cap, cap) < 0) {
		if (errno != ENOSPC && errno != EFBIG)
			return -1;
		cap = (w->used + need + page - 1) / page * page;
		if (comm_allocate(w, w->cap, cap) < 0)
			return -1;
	}
	/* a signal handler must not touch a mapping being moved
	   (pg_comm_append_reserved sees NULL meanwhile) */
	w->map = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	m = old ? mremap(old, w->cap, cap, MREMAP_MAYMOVE)
		: mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_SHARED, w->fd, 0);
	if (m == MAP_FAILED) {
		w->map = old;
		return -1;
	}
	w->cap = cap;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	w->map = m;
	return 0;
}

/* The version H asks for: its version if one of 3 to PG_COMM_VERSION
 * (older layouts, for tests and fuzz seeds), else the current. */
static uint32_t comm_version(const struct pg_comm_header *h)
{
	return h->version >= 3 && h->version <= PG_COMM_VERSION
		       ? h->version : PG_COMM_VERSION;
}

/* Encodes the header H into BUF; returns its length. */
static size_t comm_encode_header(unsigned char *buf,
				 const struct pg_comm_header *h)
{
	size_t hl = strlen(h->host), pl = strlen(h->program), sl, n;

	memcpy(buf, PG_COMM_MAGIC, 8);
	put_le(buf + 8, comm_version(h), 4);
	put_le(buf + 16, (uint32_t)h->ltid, 4);
	put_le(buf + 20, (uint32_t)h->tid, 4);
	put_le(buf + 24, (uint32_t)h->parent_ltid, 4);
	put_le(buf + 28, h->mode, 4);
	put_le(buf + 32, h->start_wall_ns, 8);
	put_le(buf + 40, h->start_mono_ns, 8);
	n = COMM_FIXED;
	put_le(buf + n, hl, 2);
	memcpy(buf + n + 2, h->host, hl);
	n += 2 + hl;
	put_le(buf + n, pl, 2);
	memcpy(buf + n + 2, h->program, pl);
	n += 2 + pl;
	put_le(buf + n, h->flags, 4);
	n += 4;
	sl = strlen(h->select);
	put_le(buf + n, sl, 2);
	memcpy(buf + n + 2, h->select, sl);
	n += 2 + sl;
	if (comm_version(h) >= 7) {
		put_le(buf + n, h->time_unit ? h->time_unit : 1, 4);
		n += 4;
	}
	put_le(buf + 12, n, 4);
	return n;
}

/* W's coding state, its tables pointed at W's own arrays (W may have
 * been copied since pg_comm_create). */
static struct pg_comm_state *comm_wstate(struct pg_comm_writer *w)
{
	w->st.peer = w->peers;
	return &w->st;
}

/* Starts W's coding state for a log of VERSION, its times in units of
 * UNIT ns (0: 1; always 1 before version 7). */
static void comm_wstate_init(struct pg_comm_writer *w, uint32_t version,
			     uint32_t unit)
{
	memset(&w->st, 0, sizeof(w->st));
	memset(w->slot, 0, sizeof(w->slot));
	w->st.version = version;
	w->st.unit = unit && version >= 7 ? unit : 1;
	w->st.nlast_dests = -1;
	comm_wstate(w);
}

int pg_comm_create(struct pg_comm_writer *w, const char *path,
		   const struct pg_comm_header *h, char *err, size_t errlen)
{
	unsigned char buf[COMM_FIXED + 10 + PG_HOST_MAX + PG_PATH_MAX +
			  PG_SELECT_MAX];
	size_t n;

	memset(w, 0, sizeof(*w));
	/* a new file, never one found there (a planted link): the launcher
	 * emptied the folder; 0600 as it holds arguments (-logmode later) */
	w->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		     0600);
	if (w->fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path,
			 strerror(errno));
		return -1;
	}
	n = comm_encode_header(buf, h);
	if (comm_reserve(w, n) < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot map %s: %s", path, strerror(e));
		close(w->fd);
		w->fd = -1;
		errno = e;
		return -1;
	}
	/* the magic last: a reader following the log (pg_comm_follow) takes
	   a header without it as not written yet */
	memcpy(w->map + 8, buf + 8, n - 8);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(w->map, buf, 8);
	w->used = n;
	comm_wstate_init(w, comm_version(h), h->time_unit);
	return 0;
}

/* Bytes EV may take encoded, at most. */
static size_t comm_bound(const struct pg_event *ev)
{
	size_t n = REC_FIXED;

	if (ev->kind == PG_REC_MCAST || ev->kind == PG_REC_BCAST)
		n += 6 * (size_t)(ev->ndest > 0 ? ev->ndest : 0);
	if (ev->kind == PG_REC_BCAST || ev->kind == PG_REC_GROUP ||
	    ev->kind == PG_REC_CALL)
		n += strnlen(ev->group, PG_GROUP_MAX);
	if (ev->kind == PG_REC_CALL)
		n += 10 + (size_t)ev->nblob;
	return n;
}

/* Encodes the string S as a varint length and its bytes into P. */
static size_t put_str(unsigned char *p, const char *s)
{
	size_t l = strnlen(s, PG_GROUP_MAX - 1), n = pg_varint_put(p, l);

	memcpy(p + n, s, l);
	return n + l;
}

/* Whether KIND is a record that carries a receive's filter. */
static int comm_has_filter(int kind)
{
	return kind == PG_REC_RECV || kind == PG_REC_NRECV ||
	       kind == PG_REC_TRECV || kind == PG_REC_PROBE ||
	       kind == PG_REC_PRECV || kind == PG_REC_POLLFAIL;
}

/* The kind byte's filter bits of EV (version 6): none but for a
 * receive-like record. */
static unsigned comm_filter_bits(const struct pg_event *ev)
{
	if (!comm_has_filter(ev->kind))
		return 0;
	return (ev->filter & PG_FILTER_ANYSRC ? PG_KIND_ANYSRC : 0u) |
	       (ev->filter & PG_FILTER_ANYTAG ? PG_KIND_ANYTAG : 0u);
}

/* Whether KIND is a record of a message sent (its id from the sender's
 * counter). */
static int comm_sendlike(int kind)
{
	return kind == PG_REC_SEND || kind == PG_REC_PSEND ||
	       kind == PG_REC_MCAST || kind == PG_REC_BCAST;
}

/* Whether KIND is a record of a message received (or seen: probe). */
static int comm_recvlike(int kind)
{
	return kind == PG_REC_RECV || kind == PG_REC_NRECV ||
	       kind == PG_REC_TRECV || kind == PG_REC_PRECV ||
	       kind == PG_REC_PROBE;
}

/* The message id ST expects for a record of KIND with the peer of index
 * IDX (-1: none) into *WANT; 1, or 0 when it expects none. */
static inline int comm_expected(const struct pg_comm_state *st, int kind, int idx,
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
static inline void comm_saw_id(struct pg_comm_state *st, int kind, int idx,
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
static int comm_add_peer(struct pg_comm_state *st, int peer)
{
	if (st->npeers >= PG_COMM_PEERS)
		return -1;
	st->peer[st->npeers] = (struct pg_comm_peer){ .ltid = peer, .step = 1 };
	return st->npeers++;
}

/* The hash slot of PEER in W's table: where it is, or the free slot
 * where it would go. */
static size_t comm_slot(const struct pg_comm_writer *w, int peer)
{
	size_t n = sizeof(w->slot) / sizeof(w->slot[0]);
	size_t i = ((uint32_t)peer * 2654435761u) % n;

	while (w->slot[i] && w->st.peer[w->slot[i] - 1].ltid != peer)
		i = (i + 1) % n;
	return i;
}

/* Encodes the peer PEER of W's table into P (version 7: its index + 1,
 * or 0 and the peer itself, which then gets the next index if the table
 * has room); the bytes.  *IDX: its index, or -1. */
static inline size_t comm_put_peer(struct pg_comm_writer *w, unsigned char *p,
			    int peer, int *idx)
{
	size_t i, n;

	*idx = -1;
	if (w->st.version < 7)
		return pg_varint_put(p, zz_enc(peer));
	i = comm_slot(w, peer);
	if (w->slot[i]) {
		*idx = w->slot[i] - 1;
		return pg_varint_put(p, (uint64_t)*idx + 1);
	}
	p[0] = 0;
	n = 1 + pg_varint_put(p + 1, zz_enc(peer));
	*idx = comm_add_peer(&w->st, peer);
	if (*idx >= 0)
		w->slot[i] = (uint16_t)(*idx + 1);
	return n;
}

/* NS in ST's time units: a shift for the unit every writer uses (a
 * division costs tens of cycles, three per record). */
static uint64_t comm_units(const struct pg_comm_state *st, uint64_t ns)
{
	return st->unit == PG_COMM_TIME_UNIT ? ns / PG_COMM_TIME_UNIT
					     : ns / st->unit;
}

/* Encodes the times of EV (start as a delta after ST's last_t, and
 * duration, in ST's units) into P and moves ST's last_t; the bytes.
 * Both are rounded down to the unit, the end too, so a reader's t + dur
 * is the end rounded down. */
static inline size_t comm_put_times(struct pg_comm_state *st, unsigned char *p,
			     const struct pg_event *ev, int with_dur)
{
	uint64_t tu = comm_units(st, ev->t), lu = comm_units(st, st->last_t);
	size_t n = pg_varint_put(p, tu > lu ? tu - lu : 0);

	if (with_dur)
		n += pg_varint_put(p + n, comm_units(st, ev->t + ev->dur) - tu);
	if (tu > lu)
		st->last_t = tu * st->unit;
	return n;
}

/* Encodes the message id of a record of KIND to the peer of index IDX
 * into P: nothing but bit 7 of *KB if it is the one expected, its
 * distance from it (zz) if one is, else itself; the bytes. */
static inline size_t comm_put_id(struct pg_comm_state *st, unsigned char *p,
			  unsigned char *kb, int kind, int idx, uint32_t msgid)
{
	uint32_t want;
	int has = comm_expected(st, kind, idx, &want);

	comm_saw_id(st, kind, idx, msgid);
	if (!has)
		return pg_varint_put(p, msgid);
	if (msgid == want) {
		*kb |= PG_KIND_NEXTID;
		return 0;
	}
	return pg_varint_put(p, zz_enc((int64_t)msgid - (int64_t)want));
}

/* Encodes the length LEN of a message to or from the peer of index IDX
 * into P: its distance (zz) from the last one of that peer's (version 7),
 * else itself; the bytes. */
static size_t comm_put_len(struct pg_comm_state *st, unsigned char *p,
			   int idx, uint32_t len)
{
	int64_t last;

	if (st->version < 7 || idx < 0)
		return pg_varint_put(p, len);
	last = st->peer[idx].len;
	st->peer[idx].len = len;
	return pg_varint_put(p, zz_enc((int64_t)len - last));
}

/* Encodes the rest of the mcast or bcast record EV (kind byte at KB)
 * into P with W's coding state, which it moves past it; the bytes.  In
 * version 7 a group or destination list the same as the last one's is
 * a bit of *KB instead. */
static size_t comm_put_cast(struct pg_comm_writer *w, unsigned char *kb,
			    unsigned char *p, const struct pg_event *ev)
{
	struct pg_comm_state *st = &w->st;
	int v7 = st->version >= 7, idx, nd = ev->ndest > 0 ? ev->ndest : 0;
	size_t n = 0;

	if (ev->kind == PG_REC_BCAST) {
		if (v7 && st->have_group &&
		    strncmp(st->last_group, ev->group, PG_GROUP_MAX - 1) == 0) {
			*kb |= PG_KIND_SAMEGROUP;
		} else {
			n += put_str(p + n, ev->group);
			snprintf(st->last_group, sizeof(st->last_group), "%.*s",
				 PG_GROUP_MAX - 1, ev->group);
			st->have_group = 1;
		}
	}
	n += pg_varint_put(p + n, zz_enc(ev->tag));
	n += comm_put_id(st, p + n, kb, ev->kind, -1, ev->msgid);
	n += pg_varint_put(p + n, ev->len);
	n += comm_put_times(st, p + n, ev, 1);
	if (v7 && nd == st->nlast_dests &&
	    memcmp(w->last_dests, ev->dests, (size_t)nd * sizeof(int)) == 0) {
		*kb |= PG_KIND_SAMEDEST;
		return n;
	}
	n += pg_varint_put(p + n, (uint64_t)nd);
	for (int i = 0; i < nd; i++)
		n += comm_put_peer(w, p + n, ev->dests[i], &idx);
	st->nlast_dests = nd <= PG_COMM_LASTDESTS ? nd : -1;
	if (st->nlast_dests > 0)
		memcpy(w->last_dests, ev->dests, (size_t)nd * sizeof(int));
	return n;
}

/* Encodes the record EV into P with W's coding state, which it moves
 * past it; its length. */
static size_t comm_encode(struct pg_comm_writer *w, unsigned char *p,
			  const struct pg_event *ev)
{
	struct pg_comm_state *st = comm_wstate(w);
	size_t n = 0;
	int idx = -1;

	p[n++] = (unsigned char)(ev->kind |
				 (st->version >= 6 ? comm_filter_bits(ev) : 0));
	if (ev->kind == PG_REC_CALL) {
		n += pg_varint_put(p + n, (uint64_t)ev->op);
		n += pg_varint_put(p + n, zz_enc(ev->peer));
		n += pg_varint_put(p + n, zz_enc(ev->arg));
		n += pg_varint_put(p + n, zz_enc(ev->arg2));
		n += pg_varint_put(p + n, zz_enc(ev->result));
		n += put_str(p + n, ev->group);
		n += pg_varint_put(p + n, ev->nblob);
		if (ev->nblob)
			memcpy(p + n, ev->blob, ev->nblob);
		n += ev->nblob;
		return n + comm_put_times(st, p + n, ev, 1);
	}
	if (ev->kind == PG_REC_GROUP) {
		n += pg_varint_put(p + n, (uint64_t)ev->op);
		n += put_str(p + n, ev->group);
		n += pg_varint_put(p + n, zz_enc(ev->arg));
		n += pg_varint_put(p + n, zz_enc(ev->result));
		return n + comm_put_times(st, p + n, ev, 1);
	}
	if (ev->kind == PG_REC_MCAST || ev->kind == PG_REC_BCAST)
		return n + comm_put_cast(w, p, p + n, ev);
	if (ev->kind == PG_REC_END) {
		n += pg_varint_put(p + n, (uint64_t)ev->how);
		n += pg_varint_put(p + n, zz_enc(ev->value));
		return n + comm_put_times(st, p + n, ev, 0);
	}
	if (ev->kind == PG_REC_POLLFAIL) {
		n += pg_varint_put(p + n, ev->count);
		return n + comm_put_times(st, p + n, ev, 0);
	}
	n += comm_put_peer(w, p + n, ev->peer, &idx);
	n += pg_varint_put(p + n, zz_enc(ev->tag));
	n += comm_put_id(st, p + n, p, ev->kind, idx, ev->msgid);
	n += comm_put_len(st, p + n, idx, ev->len);
	return n + comm_put_times(st, p + n, ev, 1);
}

/*
 * Stores the record of N bytes at REC at the end of W's mapping MAP: its
 * body first, its kind byte last (a release store), so that a reader
 * following the log through the shared mapping (pg_comm_follow_next)
 * never sees a kind byte before the bytes it announces.  The bytes are
 * those an in-place encoding writes; only their order differs.
 * Async-signal-safe.
 */
static void comm_publish(struct pg_comm_writer *w, unsigned char *map,
			 const unsigned char *rec, size_t n)
{
	memcpy(map + w->used + 1, rec + 1, n - 1);
	__atomic_store_n(map + w->used, rec[0], __ATOMIC_RELEASE);
	w->used += n;
}

int pg_comm_append(struct pg_comm_writer *w, const struct pg_event *ev)
{
	unsigned char small[2048], *rec = small;
	size_t n, bound = comm_bound(ev);

	if (w->fd < 0)
		return errno = EBADF, -1;
	if (comm_reserve(w, bound) < 0)
		return -1;
	if (bound > sizeof(small) && !(rec = malloc(bound)))
		return errno = ENOMEM, -1;
	n = comm_encode(w, rec, ev);
	comm_publish(w, w->map, rec, n);
	if (rec != small)
		free(rec);
	return 0;
}

int pg_comm_append_clock(struct pg_comm_writer *w,
			 const struct pg_clock_sample *s)
{
	unsigned char p[REC_FIXED];
	size_t n = 0;

	if (w->fd < 0)
		return errno = EBADF, -1;
	if (comm_reserve(w, REC_FIXED) < 0)
		return -1;
	p[n++] = PG_REC_CLOCK;
	n += pg_varint_put(p + n, s->t);
	n += pg_varint_put(p + n, zz_enc(s->offset));
	n += pg_varint_put(p + n, s->rtt);
	comm_publish(w, w->map, p, n);
	return 0;
}

int pg_comm_append_calib(struct pg_comm_writer *w, uint64_t ns)
{
	unsigned char p[REC_FIXED];

	if (w->fd < 0)
		return errno = EBADF, -1;
	if (comm_reserve(w, REC_FIXED) < 0)
		return -1;
	p[0] = PG_REC_CALIB;
	comm_publish(w, w->map, p, 1 + pg_varint_put(p + 1, ns));
	return 0;
}

size_t pg_comm_encode(unsigned char *p, const struct pg_event *ev)
{
	struct pg_comm_writer w;

	comm_wstate_init(&w, PG_COMM_VERSION, 1);
	return comm_encode(&w, p, ev);
}

/*
 * Async-signal-safe: no allocation, no growth, no stdio; only stores into
 * the mapped space comm_reserve keeps spare (PG_COMM_SPARE) and plain
 * system calls.
 */
int pg_comm_append_reserved(struct pg_comm_writer *w, const struct pg_event *ev)
{
	unsigned char *map = w->map, rec[REC_FIXED];

	if (w->fd < 0 || !map || ev->kind == PG_REC_MCAST ||
	    ev->kind == PG_REC_BCAST || ev->kind == PG_REC_GROUP ||
	    ev->kind == PG_REC_CALL || w->used + REC_FIXED > w->cap)
		return -1;
	comm_publish(w, map, rec, comm_encode(w, rec, ev));
	return 0;
}

int pg_comm_trim_reserved(struct pg_comm_writer *w)
{
	if (w->fd < 0)
		return -1;
	return ftruncate(w->fd, (off_t)w->used);
}

int pg_comm_close(struct pg_comm_writer *w)
{
	unsigned char *map = w->map;
	int rc = 0, e = 0;

	if (w->fd < 0)
		return 0;
	w->map = NULL; /* (pg_comm_append_reserved leaves it alone now) */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (map)
		munmap(map, w->cap);
	/* shrinking needs no space; a failure leaves a zero tail, which
	   readers take as the end, but it is still a failed write */
	if (ftruncate(w->fd, (off_t)w->used) < 0) {
		e = errno;
		rc = -1;
	}
	if (close(w->fd) < 0 && rc == 0) {
		e = errno;
		rc = -1;
	}
	w->fd = -1;
	if (rc < 0)
		errno = e;
	return rc;
}

/* Reads the whole file PATH into R->data (a regular file only: a FIFO
 * or a folder is refused, never waited on); 0 or -1. */
static int comm_load(struct pg_comm_reader *r, const char *path, char *err,
		     size_t errlen)
{
	int fd = pg_open_log(path, err, errlen), rc = -1;
	struct stat st;
	size_t got = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 strerror(errno));
		goto out;
	}
	r->size = (size_t)st.st_size;
	if (!(r->data = malloc(r->size ? r->size : 1))) {
		snprintf(err, errlen, "cannot read %s: out of memory", path);
		goto out;
	}
	while (got < r->size) {
		ssize_t k = read(fd, r->data + got, r->size - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			snprintf(err, errlen, "cannot read %s at offset %zu: %s",
				 path, got, strerror(errno));
			goto out;
		}
		if (k == 0) /* trimmed meanwhile: its writer closed it */
			break;
		got += (size_t)k;
	}
	r->size = got;
	rc = 0;
out:
	close(fd);
	return rc;
}

/* Whether the log R was found under the name of another task than its
 * header's ltid (task-7.comm holding task 8); 1 or 0.  A file whose name
 * is not task-*.comm is not judged. */
static int comm_misnamed(const struct pg_comm_reader *r)
{
	const char *base = strrchr(r->path, '/');
	char want[32];
	size_t n;

	base = base ? base + 1 : r->path;
	n = strlen(base);
	if (strncmp(base, "task-", 5) != 0 || n < 10 ||
	    strcmp(base + n - 5, ".comm") != 0)
		return 0;
	snprintf(want, sizeof(want), "task-%d.comm", r->hdr.ltid);
	return strcmp(base, want) != 0;
}

/* Checks the values of the decoded header of R; 0, or -1 with ERR
 * naming the file and the field's offset. */
static int comm_check_header(struct pg_comm_reader *r, size_t flags_at,
			     char *err, size_t errlen)
{
	const struct pg_comm_header *h = &r->hdr;

	if (comm_misnamed(r))
		snprintf(err, errlen, "%s: header (offset 16) says task %d, "
			 "not the task its name says", r->path, h->ltid);
	else if (h->mode != 1 && h->mode != 2)
		snprintf(err, errlen, "%s: corrupt header: unknown mode %u at "
			 "offset 28", r->path, h->mode);
	else if (h->start_wall_ns >= PG_WALL_MAX ||
		 h->start_mono_ns >= PG_WALL_MAX)
		snprintf(err, errlen, "%s: corrupt header: a start time at "
			 "offset %d is beyond 2^62 ns", r->path,
			 h->start_wall_ns >= PG_WALL_MAX ? 32 : 40);
	else if (h->flags & ~PG_COMM_LOOSE_POLLS)
		snprintf(err, errlen, "%s: corrupt header: unknown flags 0x%x "
			 "at offset %zu", r->path, h->flags, flags_at);
	else
		return 0;
	return -1;
}

/* Decodes the header of R->data; 0, or -1 with ERR filled. */
static int comm_decode_header(struct pg_comm_reader *r, char *err,
			      size_t errlen)
{
	struct pg_comm_header *h = &r->hdr;
	const unsigned char *d = r->data;
	const char *what;
	size_t n, hl, pl, sl, total, at;

	if (r->size < COMM_FIXED + 4 || memcmp(d, PG_COMM_MAGIC, 8) != 0) {
		snprintf(err, errlen, "%s: not a Pangaea communication log "
			 "(%s at offset 0)", r->path, r->size < COMM_FIXED + 4 ?
			 "too short for a header" : "no magic");
		return -1;
	}
	h->version = (uint32_t)get_le(d + 8, 4);
	/* version 3 is version 4 without call records, 4 is 5 without
	   clock samples, 5 is 6 without receive filters, 6 is 7 with exact
	   times, peers and ids written out */
	if (h->version < 3 || h->version > PG_COMM_VERSION) {
		snprintf(err, errlen,
			 "%s: log format version %u, this Pangaea reads version "
			 "%d (and 3 to 6) (offset 8)", r->path, h->version,
			 PG_COMM_VERSION);
		return -1;
	}
	total = get_le(d + 12, 4);
	h->ltid = (int32_t)get_le(d + 16, 4);
	h->tid = (int32_t)get_le(d + 20, 4);
	h->parent_ltid = (int32_t)get_le(d + 24, 4);
	h->mode = (uint32_t)get_le(d + 28, 4);
	h->start_wall_ns = get_le(d + 32, 8);
	h->start_mono_ns = get_le(d + 40, 8);
	n = at = COMM_FIXED;
	what = "header length past the end of the file";
	if (total > r->size)
		goto bad_len;
	hl = get_le(d + n, 2);
	what = "host name too long";
	if (hl >= PG_HOST_MAX || n + 4 + hl > total)
		goto bad;
	memcpy(h->host, d + n + 2, hl);
	h->host[hl] = '\0';
	n += 2 + hl;
	pl = get_le(d + n, 2);
	at = n;
	what = "program name too long";
	if (pl >= PG_PATH_MAX || n + 2 + pl + 6 > total)
		goto bad;
	memcpy(h->program, d + n + 2, pl);
	h->program[pl] = '\0';
	n += 2 + pl;
	h->flags = (uint32_t)get_le(d + n, 4);
	sl = get_le(d + n + 4, 2);
	at = n + 4;
	what = "selection does not end where the header length says";
	if (sl >= PG_SELECT_MAX ||
	    n + 6 + sl + (h->version >= 7 ? 4 : 0) != total)
		goto bad;
	memcpy(h->select, d + n + 6, sl);
	h->select[sl] = '\0';
	h->time_unit = h->version >= 7 ? (uint32_t)get_le(d + n + 6 + sl, 4)
				       : 1;
	at = n + 6 + sl;
	what = "a time unit of 0 ns or over 1 s";
	if (h->time_unit < 1 || h->time_unit > 1000000000)
		goto bad;
	r->st.unit = h->time_unit;
	r->st.version = h->version;
	r->st.nlast_dests = -1;
	r->pos = total;
	return comm_check_header(r, n, err, errlen);
bad_len:
	at = 12;
bad:
	snprintf(err, errlen, "%s: corrupt header: %s (offset %zu)", r->path,
		 what, at);
	return -1;
}

int pg_comm_open(struct pg_comm_reader *r, const char *path, char *err,
		 size_t errlen)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", path);
	if (comm_load(r, path, err, errlen) < 0 ||
	    comm_decode_header(r, err, errlen) < 0) {
		pg_comm_free(r);
		return -1;
	}
	return 0;
}

/* Reads N varints at R->pos into V; 0, or -1 if the log is cut off. */
static int comm_get(struct pg_comm_reader *r, uint64_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		size_t k = pg_varint_get(r->data + r->pos, r->size - r->pos,
					 &v[i]);
		if (k == 0)
			return -1;
		r->pos += k;
	}
	return 0;
}

/* Reads a string (varint length, bytes) into OUT; 0, -1 cut off, or -2
 * a length no group name has (PG_GROUP_MAX or more) that is not cut. */
static int comm_get_str(struct pg_comm_reader *r, char *out)
{
	uint64_t l;

	if (comm_get(r, &l, 1) < 0 || l > r->size - r->pos)
		return -1;
	if (l >= PG_GROUP_MAX)
		return -2;
	memcpy(out, r->data + r->pos, l);
	out[l] = '\0';
	r->pos += l;
	return 0;
}

/* Gives the zigzag-coded V as an int in *OUT; 0, or -1 when it is past
 * 32 bits. */
static int fit_int(uint64_t v, int *out)
{
	int64_t x = zz_dec(v);

	if (x < INT32_MIN || x > INT32_MAX)
		return -1;
	*out = (int)x;
	return 0;
}

/* Gives V as a uint32_t in *OUT; 0, or -1 when it is past 32 bits. */
static int fit_u32(uint64_t v, uint32_t *out)
{
	if (v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* Sets the time of EV from its delta DT after the previous record and
 * its duration DUR, both in the log's time units; 0, or -1 when the time
 * since the task's start plus the duration would pass PG_TIME_MAX (a
 * time that cannot be real). */
static int comm_time(struct pg_comm_reader *r, struct pg_event *ev,
		     uint64_t dt, uint64_t dur)
{
	uint64_t u = r->st.unit, lim = PG_TIME_MAX / u;

	/* r->st.last_t <= PG_TIME_MAX: the sum cannot wrap */
	if (dt > lim || dur > lim ||
	    r->st.last_t + (dt + dur) * u > PG_TIME_MAX)
		return -1;
	ev->t = r->st.last_t + dt * u;
	ev->dur = dur * u;
	r->st.last_t = ev->t;
	return 0;
}

/* Reads a peer of a version 7 record (an index + 1, or 0 and the peer,
 * which then gets the next index if the table has room) into *PEER, its
 * index into *IDX (-1: none); 0, -1 cut off, -2 a peer past 32 bits, -3
 * an index past the table. */
static int comm_get_peer(struct pg_comm_reader *r, int *peer, int *idx)
{
	struct pg_comm_state *st = &r->st;
	uint64_t v;

	if (comm_get(r, &v, 1) < 0)
		return -1;
	if (v > (uint64_t)st->npeers)
		return -3;
	if (v > 0) {
		*idx = (int)v - 1;
		*peer = st->peer[*idx].ltid;
		return 0;
	}
	if (comm_get(r, &v, 1) < 0)
		return -1;
	if (fit_int(v, peer) < 0)
		return -2;
	*idx = -1;
	if (st->npeers < PG_COMM_PEERS) {
		struct pg_comm_peer *t = pg_grow(st->peer, &r->peer_cap,
						 (size_t)st->npeers + 1,
						 sizeof(*t), 16);

		if (!t)
			return -2;
		st->peer = t;
	}
	*idx = comm_add_peer(st, *peer);
	return 0;
}

/* Reads the message id of a record of KIND (kind byte KB) to or from
 * the peer of index IDX: in a version 7 log with bit 7 set the one
 * expected, else a varint; 0, -1 cut off, -2 past 32 bits or a bit 7
 * where no id is expected. */
static int comm_get_id(struct pg_comm_reader *r, int kb, int kind, int idx,
		       uint32_t *msgid)
{
	uint32_t want;
	int has = comm_expected(&r->st, kind, idx, &want);
	uint64_t v;
	int64_t x;

	if (kb & PG_KIND_NEXTID) {
		if (!has)
			return -2;
		*msgid = want;
	} else {
		if (comm_get(r, &v, 1) < 0)
			return -1;
		x = has ? (int64_t)want + zz_dec(v) : (int64_t)v;
		if (v > UINT32_MAX * 2ull + 1 || x < 0 || x > UINT32_MAX)
			return -2;
		*msgid = (uint32_t)x;
	}
	comm_saw_id(&r->st, kind, idx, *msgid);
	return 0;
}

/* Reads the destinations of an mcast or bcast into R->dests; 0, -1 cut
 * off, -2 an impossible count or destination. */
static int comm_get_dests(struct pg_comm_reader *r, struct pg_event *ev)
{
	uint64_t n, v;

	if (comm_get(r, &n, 1) < 0)
		return -1;
	if (n > r->size - r->pos) /* each takes a byte at least */
		return n > 1000000 ? -2 : -1;
	if ((int)n > r->dests_cap) {
		int *d = realloc(r->dests, (size_t)n * sizeof(int));

		if (!d)
			return -2;
		r->dests = d;
		r->dests_cap = (int)n;
	}
	for (uint64_t i = 0; i < n; i++) {
		int idx, rc;

		if (r->hdr.version >= 7) {
			if ((rc = comm_get_peer(r, &r->dests[i], &idx)) < 0)
				return rc;
			continue;
		}
		if (comm_get(r, &v, 1) < 0)
			return -1;
		if (fit_int(v, &r->dests[i]) < 0)
			return -2;
	}
	ev->ndest = (int)n;
	ev->dests = r->dests;
	return 0;
}

/* Fills ERR with a corrupt record of R (at offset R->at) and WHAT is
 * wrong with it; returns -1. */
static int comm_corrupt(const struct pg_comm_reader *r, const char *what,
			char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: corrupt: %s in the %s record at offset %zu",
		 r->path, what, pg_rec_kind_name(r->data[r->at]),
		 r->base + r->at);
	return -1;
}

/* Reads the rest of a group record; 1, or -1 with ERR. */
static int comm_next_group(struct pg_comm_reader *r, struct pg_event *ev,
			   char *err, size_t errlen)
{
	uint64_t v[5];
	int rc;

	if (comm_get(r, v, 1) < 0 || (rc = comm_get_str(r, ev->group)) == -1 ||
	    (rc == 0 && comm_get(r, v + 1, 4) < 0))
		return 0;
	if (rc < 0)
		return comm_corrupt(r, "a group name too long", err, errlen);
	if (v[0] < 1 || v[0] > PG_GROUP_LAST)
		return comm_corrupt(r, "unknown group call", err, errlen);
	ev->op = (int)v[0];
	if (fit_int(v[1], &ev->arg) < 0 || fit_int(v[2], &ev->result) < 0)
		return comm_corrupt(r, "a value past 32 bits", err, errlen);
	if (comm_time(r, ev, v[3], v[4]) < 0)
		return comm_corrupt(r, "a time beyond 2^61 ns", err, errlen);
	return 1;
}

/* Reads the rest of a call record (version 4 only); 1, 0 cut off, or
 * -1 with ERR.  Its data stays in R's buffer (ev->blob). */
static int comm_next_call(struct pg_comm_reader *r, struct pg_event *ev,
			  char *err, size_t errlen)
{
	uint64_t v[5], t[2], nb;
	int rc;

	if (r->hdr.version < 4)
		return comm_corrupt(r, "a call record in a version 3 log", err,
				    errlen);
	if (comm_get(r, v, 5) < 0 || (rc = comm_get_str(r, ev->group)) == -1)
		return 0;
	if (rc < 0)
		return comm_corrupt(r, "a name too long", err, errlen);
	if (comm_get(r, &nb, 1) < 0 || nb > r->size - r->pos)
		return 0;
	ev->blob = r->data + r->pos;
	r->pos += nb;
	if (comm_get(r, t, 2) < 0)
		return 0;
	if (v[0] < 1 || v[0] > PG_Q_LAST)
		return comm_corrupt(r, "unknown call", err, errlen);
	ev->op = (int)v[0];
	if (fit_int(v[1], &ev->peer) < 0 || fit_int(v[2], &ev->arg) < 0 ||
	    fit_int(v[3], &ev->arg2) < 0 || fit_int(v[4], &ev->result) < 0 ||
	    fit_u32(nb, &ev->nblob) < 0)
		return comm_corrupt(r, "a value past 32 bits", err, errlen);
	if (comm_time(r, ev, t[0], t[1]) < 0)
		return comm_corrupt(r, "a time beyond 2^61 ns", err, errlen);
	return 1;
}

/* Reads the fields FIRST (the peer or the tag) to the end times of a
 * message or a multicast record of KIND (kind byte KB) into V (tag,
 * msgid, len, dt, dur) and EV's peer (*IDX its index, -1 none, when
 * FIRST is the peer; its length then a distance from the last one of
 * that peer's, version 7); 0, -1 cut off, -2 a bad value, -3 a peer
 * index past the table. */
static int comm_get_msg(struct pg_comm_reader *r, struct pg_event *ev, int kb,
			int kind, int first, int *idx, uint64_t *v)
{
	uint64_t p = 0;
	int rc;

	*idx = -1;
	if (r->hdr.version < 7) { /* all written out */
		if (first && (comm_get(r, &p, 1) < 0 || comm_get(r, v, 5) < 0))
			return -1;
		if (!first && comm_get(r, v, 5) < 0)
			return -1;
		return first && fit_int(p, &ev->peer) < 0 ? -2 : 0;
	}
	if (first && (rc = comm_get_peer(r, &ev->peer, idx)) < 0)
		return rc;
	if (comm_get(r, v, 1) < 0)
		return -1;
	if ((rc = comm_get_id(r, kb, kind, *idx, &ev->msgid)) < 0)
		return rc;
	v[1] = ev->msgid;
	if (comm_get(r, v + 2, 3) < 0)
		return -1;
	if (*idx >= 0) { /* the length as a distance from the peer's last */
		struct pg_comm_peer *pp = &r->st.peer[*idx];
		int64_t x = (int64_t)pp->len + zz_dec(v[2]);

		if (v[2] > UINT32_MAX * 2ull + 1 || x < 0 || x > UINT32_MAX)
			return -2;
		pp->len = (uint32_t)x;
		v[2] = pp->len;
	}
	return 0;
}

/* Reads the rest of an mcast or bcast record (kind byte KB); 1, 0 cut
 * off, or -1 with ERR. */
static int comm_next_cast(struct pg_comm_reader *r, struct pg_event *ev,
			  int kb, int kind, char *err, size_t errlen)
{
	uint64_t v[5];
	int rc, idx;

	if (kb & PG_KIND_SAMEGROUP) {
		if (!r->st.have_group)
			return comm_corrupt(r, "the same group as no bcast before",
					    err, errlen);
		memcpy(ev->group, r->st.last_group, sizeof(ev->group));
	} else if (kind == PG_REC_BCAST) {
		if ((rc = comm_get_str(r, ev->group)) < 0)
			return rc == -1 ? 0 : comm_corrupt(r, "a group name too "
							   "long", err, errlen);
		memcpy(r->st.last_group, ev->group, sizeof(ev->group));
		r->st.have_group = 1;
	}
	if ((rc = comm_get_msg(r, ev, kb, kind, 0, &idx, v)) == -1)
		return 0;
	if (rc < 0 || fit_int(v[0], &ev->tag) < 0 ||
	    fit_u32(v[1], &ev->msgid) < 0 || fit_u32(v[2], &ev->len) < 0)
		return comm_corrupt(r, "a value past 32 bits", err, errlen);
	if (comm_time(r, ev, v[3], v[4]) < 0)
		return comm_corrupt(r, "a time beyond 2^61 ns", err, errlen);
	if (kb & PG_KIND_SAMEDEST) {
		if (r->st.nlast_dests < 0)
			return comm_corrupt(r, "the same destinations as no "
					    "multicast before", err, errlen);
		ev->ndest = r->st.nlast_dests;
		ev->dests = r->dests;
		return 1;
	}
	rc = comm_get_dests(r, ev);
	r->st.nlast_dests = rc == 0 ? ev->ndest : -1;
	if (rc == -1)
		return 0;
	if (rc < 0)
		return comm_corrupt(r, "a bad destination count or destination",
				    err, errlen);
	return 1;
}

/* Reads the rest of an end record; 1, 0 cut off, or -1 with ERR. */
static int comm_next_end(struct pg_comm_reader *r, struct pg_event *ev,
			 char *err, size_t errlen)
{
	uint64_t v[3];

	if (comm_get(r, v, 3) < 0)
		return 0;
	if (v[0] < 1 || v[0] > PG_END_LAST)
		return comm_corrupt(r, "unknown end (how)", err, errlen);
	ev->how = (int)v[0];
	if (fit_int(v[1], &ev->value) < 0)
		return comm_corrupt(r, "a value past 32 bits", err, errlen);
	if (comm_time(r, ev, v[2], 0) < 0)
		return comm_corrupt(r, "a time beyond 2^61 ns", err, errlen);
	r->ended = 1;
	return 1;
}

/* Reads the rest of a record of KIND (a known one, kind byte KB); 1, 0
 * cut off, or -1 with ERR. */
static int comm_next_body(struct pg_comm_reader *r, struct pg_event *ev,
			  int kb, int kind, char *err, size_t errlen)
{
	uint64_t v[6];
	int idx, rc;

	if (kind == PG_REC_END)
		return comm_next_end(r, ev, err, errlen);
	if (kind == PG_REC_GROUP)
		return comm_next_group(r, ev, err, errlen);
	if (kind == PG_REC_CALL)
		return comm_next_call(r, ev, err, errlen);
	if (kind == PG_REC_MCAST || kind == PG_REC_BCAST)
		return comm_next_cast(r, ev, kb, kind, err, errlen);
	if (kind == PG_REC_POLLFAIL) {
		if (comm_get(r, v, 2) < 0)
			return 0;
		if (fit_u32(v[0], &ev->count) < 0)
			return comm_corrupt(r, "a count past 32 bits", err,
					    errlen);
		if (comm_time(r, ev, v[1], 0) < 0)
			return comm_corrupt(r, "a time beyond 2^61 ns", err,
					    errlen);
		return 1;
	}
	if ((rc = comm_get_msg(r, ev, kb, kind, 1, &idx, v)) == -1)
		return 0;
	if (rc == -3)
		return comm_corrupt(r, "a peer index past the peer table", err,
				    errlen);
	if (rc < 0 || fit_int(v[0], &ev->tag) < 0 ||
	    fit_u32(v[1], &ev->msgid) < 0 || fit_u32(v[2], &ev->len) < 0)
		return comm_corrupt(r, "a value past 32 bits", err,
				    errlen);
	if (comm_time(r, ev, v[3], v[4]) < 0)
		return comm_corrupt(r, "a time beyond 2^61 ns", err, errlen);
	return 1;
}

/* Reads the rest of a clock record into R->clock; 1, 0 cut off, or -1
 * with ERR. */
static int comm_next_clock(struct pg_comm_reader *r, char *err, size_t errlen)
{
	struct pg_clock_sample *s;
	uint64_t v[3];

	if (r->hdr.version < 5)
		return comm_corrupt(r, "a clock record in a version 3 or 4 log",
				    err, errlen);
	if (comm_get(r, v, 3) < 0)
		return 0;
	if (v[0] > PG_TIME_MAX || v[2] > PG_TIME_MAX ||
	    zz_dec(v[1]) > (int64_t)PG_WALL_MAX ||
	    zz_dec(v[1]) < -(int64_t)PG_WALL_MAX)
		return comm_corrupt(r, "a time beyond its bound", err, errlen);
	if (!(s = pg_grow(r->clock, &r->clock_cap, (size_t)r->nclock + 1,
			  sizeof(*s), 8)))
		return comm_corrupt(r, "out of memory", err, errlen);
	r->clock = s;
	s = &r->clock[r->nclock++];
	s->t = v[0];
	s->offset = zz_dec(v[1]);
	s->rtt = v[2];
	return 1;
}

/* Reads the rest of a calibration record into R->calib_ns; 1, 0 cut
 * off, or -1 with ERR. */
static int comm_next_calib(struct pg_comm_reader *r, char *err, size_t errlen)
{
	uint64_t v;

	if (r->hdr.version < 5)
		return comm_corrupt(r, "a calibration record in a version 3 or "
				    "4 log", err, errlen);
	if (comm_get(r, &v, 1) < 0)
		return 0;
	if (v > PG_TIME_MAX)
		return comm_corrupt(r, "a time beyond its bound", err, errlen);
	r->calib_ns = v;
	return 1;
}

int pg_comm_next(struct pg_comm_reader *r, struct pg_event *ev, char *err,
		 size_t errlen)
{
	int kind, kb, rc;
	unsigned extra;

	/* clock samples and calibrations are no events: kept in R, skipped
	   here */
	while (!r->ended && r->pos < r->size &&
	       (r->data[r->pos] == PG_REC_CLOCK ||
		r->data[r->pos] == PG_REC_CALIB)) {
		r->at = r->pos++;
		rc = r->data[r->at] == PG_REC_CLOCK
			     ? comm_next_clock(r, err, errlen)
			     : comm_next_calib(r, err, errlen);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			r->cut = 1;
			snprintf(err, errlen, "%s: truncated: record at offset "
				 "%zu is cut off", r->path, r->base + r->at);
			return -1;
		}
	}
	if (r->ended || r->pos >= r->size || r->data[r->pos] == 0) {
		r->ended = 1;
		return 0;
	}
	memset(ev, 0, sizeof(*ev));
	r->at = r->pos;
	kb = kind = r->data[r->pos++];
	/* the bits a kind may carry above its number: none before 6 */
	extra = r->hdr.version < 6 ? 0u
		: comm_has_filter(kind & PG_KIND_MASK)
			? PG_KIND_ANYSRC | PG_KIND_ANYTAG : 0u;
	if (r->hdr.version >= 7 && (comm_sendlike(kind & PG_KIND_MASK) ||
				    comm_recvlike(kind & PG_KIND_MASK)))
		extra |= PG_KIND_NEXTID;
	if (r->hdr.version >= 7 && ((kind & PG_KIND_MASK) == PG_REC_MCAST ||
				    (kind & PG_KIND_MASK) == PG_REC_BCAST))
		extra |= PG_KIND_SAMEDEST;
	if (r->hdr.version >= 7 && (kind & PG_KIND_MASK) == PG_REC_BCAST)
		extra |= PG_KIND_SAMEGROUP;
	if (extra && !(kind & ~(PG_KIND_MASK | extra))) {
		kind &= PG_KIND_MASK;
		if (comm_has_filter(kind))
			ev->filter =
				(kb & PG_KIND_ANYSRC ? PG_FILTER_ANYSRC : 0) |
				(kb & PG_KIND_ANYTAG ? PG_FILTER_ANYTAG : 0);
	}
	if (r->hdr.version < 6 && comm_has_filter(kind)) {
		ev->filter = PG_FILTER_UNKNOWN; /* versions 3-5 */
	}
	ev->kind = kind;
	if (kind < PG_REC_SEND || kind > PG_REC_LAST) {
		snprintf(err, errlen, "%s: corrupt: unknown record kind %d at offset %zu",
			 r->path, kind, r->base + r->at);
		return -1;
	}
	if ((rc = comm_next_body(r, ev, kb, kind, err, errlen)) != 0)
		return rc;
	r->cut = 1;
	snprintf(err, errlen, "%s: truncated: record at offset %zu is cut off",
		 r->path, r->base + r->at);
	return -1;
}

uint64_t pg_comm_base(const struct pg_comm_reader *r,
		      const unsigned char *ok, int n, int i)
{
	const struct pg_comm_header *h = &r[i].hdr;
	int64_t off = (int64_t)(h->start_wall_ns - h->start_mono_ns);

	for (int j = 0; j < n; j++) {
		int64_t o = (int64_t)(r[j].hdr.start_wall_ns -
				      r[j].hdr.start_mono_ns);

		if (ok[j] && o < off && strcmp(r[j].hdr.host, h->host) == 0)
			off = o;
	}
	return h->start_mono_ns + (uint64_t)off;
}

void pg_comm_free(struct pg_comm_reader *r)
{
	free(r->clock);
	r->clock = NULL;
	r->nclock = r->clock_cap = 0;
	free(r->dests);
	r->dests = NULL;
	r->dests_cap = 0;
	free(r->st.peer);
	r->st.peer = NULL;
	r->st.npeers = 0;
	r->peer_cap = 0;
	free(r->data);
	r->data = NULL;
	r->size = 0;
	free(r->saved_peer);
	r->saved_peer = NULL;
	r->saved_cap = 0;
	if (r->cap && r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	r->cap = 0;
}

#define COMM_FOLLOW_READ 4096u       /* bytes a follower reads at first */
#define COMM_FOLLOW_MAX (1u << 20)   /* and at most, but a longer record */

/* Reads R's file again from its first record not decoded yet (offset
 * base + pos) on, as much as R->cap holds (doubled when GROW: a record
 * longer than that, or a log that filled the last read; halved when
 * less than a quarter of the last read was used); 0, or -1 with ERR.
 * (An idle log soon costs one read of COMM_FOLLOW_READ bytes.) */
static int comm_refill(struct pg_comm_reader *r, int grow, char *err,
		       size_t errlen)
{
	size_t want = r->cap ? r->cap : COMM_FOLLOW_READ;
	ssize_t k;

	if (grow)
		want *= 2;
	else if (r->pos < want / 4 && want > COMM_FOLLOW_READ)
		want /= 2; /* the log grows slower again */
	if (want != r->cap) {
		unsigned char *d = realloc(r->data, want);

		if (!d) {
			snprintf(err, errlen, "%s: out of memory", r->path);
			return -1;
		}
		r->data = d;
		r->cap = want;
	}
	r->base += r->pos;
	r->pos = r->at = r->size = 0;
	while (r->size < r->cap) {
		k = pread(r->fd, r->data + r->size, r->cap - r->size,
			  (off_t)(r->base + r->size));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			snprintf(err, errlen, "cannot read %s at offset %zu: %s",
				 r->path, r->base + r->size, strerror(errno));
			return -1;
		}
		if (k == 0)
			break;
		r->size += (size_t)k;
	}
	return 0;
}

int pg_comm_follow(struct pg_comm_reader *r, const char *path, char *err,
		   size_t errlen)
{
	int fd;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	snprintf(r->path, sizeof(r->path), "%s", path);
	if (access(path, F_OK) < 0)
		return 0;
	if ((fd = pg_open_log(path, err, errlen)) < 0)
		return -1;
	r->fd = fd;
	do { /* (a header longer than a first read: a long program path) */
		if (comm_refill(r, r->size == r->cap && r->cap, err, errlen) < 0)
			goto failed;
		/* the writer stores the magic last; then the header is whole */
		if (r->size < 16 || memcmp(r->data, PG_COMM_MAGIC, 8) != 0) {
			pg_comm_free(r);
			return 0;
		}
	} while (get_le(r->data + 12, 4) > r->size && r->size == r->cap &&
		 r->cap < COMM_FOLLOW_MAX);
	if (get_le(r->data + 12, 4) > r->size) {
		pg_comm_free(r);
		return 0;
	}
	if (comm_decode_header(r, err, errlen) < 0)
		goto failed;
	return 1;
failed:
	pg_comm_free(r);
	return -1;
}

/* Keeps R's decoding state, to undo a record found cut off. */
static int comm_save(struct pg_comm_reader *r)
{
	size_t n = (size_t)r->st.npeers;

	if (n) {
		struct pg_comm_peer *p = pg_grow(r->saved_peer, &r->saved_cap, n,
						 sizeof(*p), 16);
		if (!p)
			return -1;
		r->saved_peer = p;
		memcpy(p, r->st.peer, n * sizeof(*p));
	}
	r->saved = r->st;
	r->saved_nclock = r->nclock;
	r->saved_calib = r->calib_ns;
	r->cut = 0;
	return 0;
}

/* Undoes what decoding a record cut off did to R, and goes back to it. */
static void comm_restore(struct pg_comm_reader *r, size_t pos)
{
	struct pg_comm_peer *peer = r->st.peer; /* may have moved */

	r->st = r->saved;
	r->st.peer = peer;
	if (r->st.npeers)
		memcpy(peer, r->saved_peer,
		       (size_t)r->st.npeers * sizeof(*peer));
	r->nclock = r->saved_nclock;
	r->calib_ns = r->saved_calib;
	r->ended = 0;
	r->pos = pos;
}

int pg_comm_follow_next(struct pg_comm_reader *r, struct pg_event *ev,
			char *err, size_t errlen)
{
	int grow = 0, rc;

	for (int tries = 0; !r->done; tries++) {
		if (r->pos < r->size && r->data[r->pos] != 0) {
			size_t pos = r->pos;

			if (comm_save(r) < 0) {
				snprintf(err, errlen, "%s: out of memory", r->path);
				return -1;
			}
			rc = pg_comm_next(r, ev, err, errlen);
			if (rc > 0) {
				r->done = ev->kind == PG_REC_END;
				return 1;
			}
			if (rc < 0 && !r->cut)
				return -1;
			if (rc < 0) { /* read it again */
				comm_restore(r, pos);
				grow = r->pos == 0 && r->size == r->cap;
			}
			r->ended = 0; /* the zero tail: not written yet */
		}
		if (tries == 1)
			return 0;
		/* a full read used up: the log grows fast, read more at once */
		if (r->pos >= r->size && r->size == r->cap &&
		    r->cap < COMM_FOLLOW_MAX)
			grow = 1;
		if (comm_refill(r, grow, err, errlen) < 0)
			return -1;
	}
	return 0;
}

int pg_log_path(char *buf, size_t n, const char *dir, int ltid,
		const char *suffix)
{
	int k = snprintf(buf, n, "%s/task-%d.%s", dir, ltid, suffix);

	return k < 0 || (size_t)k >= n ? -1 : 0;
}
