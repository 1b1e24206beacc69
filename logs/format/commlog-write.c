/*
 * commlog-write.c: the writer of the binary communication log: a task
 * appends its events through a MAP_SHARED mapping (what it logged is in
 * the file even if it is SIGKILLed), the kind byte of a record last.
 * The layout is in commlog-code.h and docs/FORMATS.md.
 */
#include "commlog-code.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define COMM_GROW (1 << 20)  /* the mapping grows by this much ... */
#define COMM_FIRST (16 << 10) /* ... once it has doubled from this: a short
				 task's whole log, whose reservation is cut
				 at its end (1 MiB's fallocate, mapping and
				 cut: 370 us on ext4 here, 64 KiB's: 95); a
				 run's first reservations all together
				 leave a small disk room for its other
				 files (diskfull.sh's 256 KiB: 4 x 64 KiB
				 filled it as the last task started) */
#define REC_FIXED 64         /* longest record without strings and lists */
#define PG_COMM_SPARE (2 * REC_FIXED) /* kept for pg_comm_append_reserved */

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
 * The file grows to COMM_FIRST, doubles up to COMM_GROW, then grows by
 * COMM_GROW; when the disk has no room for that, by just what is
 * needed.  0, or -1 with errno; W is unchanged on error.
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
		cap += cap >= COMM_GROW ? COMM_GROW : cap ? cap : COMM_FIRST;
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

/* Writes N bytes P at OFF of FD; 0, or -1 with errno. */
static int comm_pwrite(int fd, const void *p, size_t n, off_t off)
{
	ssize_t k = pwrite(fd, p, n, off);

	if (k == (ssize_t)n)
		return 0;
	if (k >= 0)
		errno = ENOSPC;
	return -1;
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
	/* the header at once, before the file is grown and mapped: a task
	   killed meanwhile (a pvm_kill as it starts) leaves a log with its
	   header, which reads as a log without events, not a file of zeros
	   that no reader takes; the magic last: a reader following the log
	   (pg_comm_follow) takes a header without it as not written yet */
	if (comm_pwrite(w->fd, buf + 8, n - 8, 8) < 0 ||
	    comm_pwrite(w->fd, buf, 8, 0) < 0 || comm_reserve(w, n) < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		/* (no log rather than a part of a header, on a full disk:
		   the task's failure is said, LOGFAIL) */
		unlink(path);
		close(w->fd);
		w->fd = -1;
		errno = e;
		return -1;
	}
	w->used = n;
	comm_wstate_init(w, comm_version(h), h->time_unit);
	return 0;
}

/* Bytes EV may take encoded, at most. */
static size_t comm_bound(const struct pg_event *ev)
{
	size_t n = REC_FIXED;

	/* (a message's record, the hot path: one test) */
	if (!comm_kind_in(ev->kind, COMM_BIT(PG_REC_MCAST) |
			  COMM_BIT(PG_REC_BCAST) | COMM_BIT(PG_REC_GROUP) |
			  COMM_BIT(PG_REC_CALL)))
		return n;
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
	size_t l = strnlen(s, PG_GROUP_MAX - 1), n = comm_varint_put(p, l);

	memcpy(p + n, s, l);
	return n + l;
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
static inline __attribute__((always_inline)) size_t comm_put_peer(struct pg_comm_writer *w, unsigned char *p,
			    int peer, int *idx)
{
	size_t i, n;

	*idx = -1;
	if (w->st.version < 7)
		return comm_varint_put(p, zz_enc(peer));
	i = comm_slot(w, peer);
	if (w->slot[i]) {
		*idx = w->slot[i] - 1;
		return comm_varint_put(p, (uint64_t)*idx + 1);
	}
	p[0] = 0;
	n = 1 + comm_varint_put(p + 1, zz_enc(peer));
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
static inline __attribute__((always_inline)) size_t comm_put_times(struct pg_comm_state *st, unsigned char *p,
			     const struct pg_event *ev, int with_dur)
{
	uint64_t tu = comm_units(st, ev->t), lu = comm_units(st, st->last_t);
	size_t n = comm_varint_put(p, tu > lu ? tu - lu : 0);

	if (with_dur)
		n += comm_varint_put(p + n, comm_units(st, ev->t + ev->dur) - tu);
	if (tu > lu)
		st->last_t = tu * st->unit;
	return n;
}

/* Encodes the message id of a record of KIND to the peer of index IDX
 * into P: nothing but bit 7 of *KB if it is the one expected, its
 * distance from it (zz) if one is, else itself; the bytes. */
static inline __attribute__((always_inline)) size_t comm_put_id(struct pg_comm_state *st, unsigned char *p,
			  unsigned char *kb, int kind, int idx, uint32_t msgid)
{
	uint32_t want;
	int has = comm_expected(st, kind, idx, &want);

	comm_saw_id(st, kind, idx, msgid);
	if (!has)
		return comm_varint_put(p, msgid);
	if (msgid == want) {
		*kb |= PG_KIND_NEXTID;
		return 0;
	}
	return comm_varint_put(p, zz_enc((int64_t)msgid - (int64_t)want));
}

/* Encodes the length LEN of a message to or from the peer of index IDX
 * into P: its distance (zz) from the last one of that peer's (version 7),
 * else itself; the bytes. */
static size_t comm_put_len(struct pg_comm_state *st, unsigned char *p,
			   int idx, uint32_t len)
{
	int64_t last;

	if (st->version < 7 || idx < 0)
		return comm_varint_put(p, len);
	last = st->peer[idx].len;
	st->peer[idx].len = len;
	return comm_varint_put(p, zz_enc((int64_t)len - last));
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
	n += comm_varint_put(p + n, zz_enc(ev->tag));
	n += comm_put_id(st, p + n, kb, ev->kind, -1, ev->msgid);
	n += comm_varint_put(p + n, ev->len);
	n += comm_put_times(st, p + n, ev, 1);
	if (v7 && nd == st->nlast_dests &&
	    memcmp(w->last_dests, ev->dests, (size_t)nd * sizeof(int)) == 0) {
		*kb |= PG_KIND_SAMEDEST;
		return n;
	}
	n += comm_varint_put(p + n, (uint64_t)nd);
	for (int i = 0; i < nd; i++)
		n += comm_put_peer(w, p + n, ev->dests[i], &idx);
	st->nlast_dests = nd <= PG_COMM_LASTDESTS ? nd : -1;
	if (st->nlast_dests > 0)
		memcpy(w->last_dests, ev->dests, (size_t)nd * sizeof(int));
	return n;
}

/* Encodes the message record EV (version 9) as a repeat record if it is
 * one (the same peer, tag and length as the last record of its kind):
 * its kind byte into *KB, the rest into P, W's coding state moved past
 * it; the length of the whole record, or 0 (nothing written, nothing
 * moved) when EV is none.  The hot path of a ping-pong's every record,
 * tried before anything else. */
static inline __attribute__((always_inline)) size_t
comm_encode_repeat(struct pg_comm_writer *w, unsigned char *kb,
		   unsigned char *p, const struct pg_event *ev)
{
	struct pg_comm_state *st = &w->st;
	int ri = comm_repeat_index(ev->kind), idx;
	const struct pg_comm_rep *q;
	uint32_t want;
	size_t n;

	if (ri < 0 || st->version < 9)
		return 0;
	q = &st->rep[ri];
	if (!q->idx1 || q->peer != ev->peer || q->tag != ev->tag ||
	    q->len != ev->len)
		return 0;
	idx = q->idx1 - 1;
	st->peer = w->peers; /* (comm_wstate) */
	*kb = (unsigned char)((PG_REC_REPEAT + ri) | comm_filter_bits(ev));
	want = comm_repeat_want(st, ri, idx);
	comm_repeat_saw(st, ri, idx, ev->msgid);
	if (ev->msgid == want) {
		*kb |= PG_KIND_NEXTID;
		n = 0;
	} else {
		n = comm_varint_put(p, zz_enc((int64_t)ev->msgid -
					      (int64_t)want));
	}
	st->peer[idx].len = ev->len;
	return 1 + n + comm_put_times(st, p + n, ev, 1);
}

/* Encodes the record EV with W's coding state, which it moves past it:
 * its kind byte into *KB, the rest into P (the mapping itself on the hot
 * path: the kind byte is stored last, comm_publish_kind); the length of
 * the whole record, the kind byte included. */
static size_t comm_encode(struct pg_comm_writer *w, unsigned char *kb,
			  unsigned char *p, const struct pg_event *ev)
{
	struct pg_comm_state *st = comm_wstate(w);
	size_t n = 0;
	int idx = -1;

	*kb = (unsigned char)(ev->kind |
			      (st->version >= 6 ? comm_filter_bits(ev) : 0));
	/* a message's record (send, receive, probe, kill, spawn) first:
	   the others are one test away */
	if (!comm_kind_in(ev->kind, COMM_BIT(PG_REC_CALL) |
			  COMM_BIT(PG_REC_GROUP) | COMM_BIT(PG_REC_MCAST) |
			  COMM_BIT(PG_REC_BCAST) | COMM_BIT(PG_REC_END) |
			  COMM_BIT(PG_REC_POLLFAIL))) {
		if ((n = comm_encode_repeat(w, kb, p, ev)))
			return n;
		n += comm_put_peer(w, p + n, ev->peer, &idx);
		n += comm_varint_put(p + n, zz_enc(ev->tag));
		n += comm_put_id(st, p + n, kb, ev->kind, idx, ev->msgid);
		n += comm_put_len(st, p + n, idx, ev->len);
		comm_saw_msg(st, ev->kind, ev->peer, idx, ev->tag, ev->len);
		return 1 + n + comm_put_times(st, p + n, ev, 1);
	}
	if (ev->kind == PG_REC_CALL) {
		n += comm_varint_put(p + n, (uint64_t)ev->op);
		n += comm_varint_put(p + n, zz_enc(ev->peer));
		n += comm_varint_put(p + n, zz_enc(ev->arg));
		n += comm_varint_put(p + n, zz_enc(ev->arg2));
		n += comm_varint_put(p + n, zz_enc(ev->result));
		n += put_str(p + n, ev->group);
		n += comm_varint_put(p + n, ev->nblob);
		if (ev->nblob)
			memcpy(p + n, ev->blob, ev->nblob);
		n += ev->nblob;
		return 1 + n + comm_put_times(st, p + n, ev, 1);
	}
	if (ev->kind == PG_REC_GROUP) {
		n += comm_varint_put(p + n, (uint64_t)ev->op);
		n += put_str(p + n, ev->group);
		n += comm_varint_put(p + n, zz_enc(ev->arg));
		n += comm_varint_put(p + n, zz_enc(ev->result));
		return 1 + n + comm_put_times(st, p + n, ev, 1);
	}
	if (ev->kind == PG_REC_MCAST || ev->kind == PG_REC_BCAST)
		return 1 + n + comm_put_cast(w, kb, p + n, ev);
	if (ev->kind == PG_REC_END) {
		n += comm_varint_put(p + n, (uint64_t)ev->how);
		n += comm_varint_put(p + n, zz_enc(ev->value));
		return 1 + n + comm_put_times(st, p + n, ev, 0);
	}
	/* PG_REC_POLLFAIL */
	n += comm_varint_put(p + n, ev->count);
	return 1 + n + comm_put_times(st, p + n, ev, 0);
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

/* Publishes the record of N bytes whose body is in place in W's mapping
 * already (after its kind byte's place): the kind byte KB last, a release
 * store, as comm_publish does.  Async-signal-safe. */
static void comm_publish_kind(struct pg_comm_writer *w, unsigned char kb,
			      size_t n)
{
	__atomic_store_n(w->map + w->used, kb, __ATOMIC_RELEASE);
	w->used += n;
}

/*
 * The hot path of every event: the record is encoded in place, into the
 * mapping past the last published byte (comm_reserve made room for the
 * longest it can be), and published by its kind byte, stored last; no
 * copy, no buffer.
 */
int pg_comm_append(struct pg_comm_writer *w, const struct pg_event *ev)
{
	unsigned char kb;
	size_t n, bound;

	if (w->fd < 0)
		return errno = EBADF, -1;
	/* a repeat first (REC_FIXED bytes at most): no bound, no dispatch */
	if (w->used + REC_FIXED + PG_COMM_SPARE <= w->cap &&
	    (n = comm_encode_repeat(w, &kb, w->map + w->used + 1, ev))) {
		comm_publish_kind(w, kb, n);
		return 0;
	}
	bound = comm_bound(ev);
	/* (comm_reserve's own first test, without the call) */
	if (w->used + bound + PG_COMM_SPARE > w->cap &&
	    comm_reserve(w, bound) < 0)
		return -1;
	n = comm_encode(w, &kb, w->map + w->used + 1, ev);
	comm_publish_kind(w, kb, n);
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
	n += comm_varint_put(p + n, s->t);
	n += comm_varint_put(p + n, zz_enc(s->offset));
	n += comm_varint_put(p + n, s->rtt);
	comm_publish(w, w->map, p, n);
	return 0;
}

/*
 * The hot path of a recorded clock read (bench/clockread.c measures it):
 * a reservation that is a compare while the mapping has room, one varint
 * for most sources.
 */
int pg_comm_append_value(struct pg_comm_writer *w, const struct pg_value *v)
{
	const struct comm_vshape *sh = comm_value_shape(v->kind, v->src);
	unsigned char small[REC_FIXED + 11 * PG_VALUES_MAX], *rec = small;
	size_t n = 0, bound = sizeof(small);
	int64_t *last;

	if (w->fd < 0)
		return errno = EBADF, -1;
	if (!sh || w->st.version < 8 || v->status < 0)
		return errno = EINVAL, -1;
	if (sh->blob)
		bound += v->nblob;
	if (comm_reserve(w, bound) < 0)
		return -1;
	if (bound > sizeof(small) && !(rec = malloc(bound)))
		return errno = ENOMEM, -1;
	last = w->st.vlast + sh->slot;
	rec[n++] = (unsigned char)(v->kind | v->src << PG_KIND_SRC_SHIFT);
	if (sh->arg)
		n += comm_varint_put(rec + n, zz_enc(v->arg));
	if (sh->status)
		n += comm_varint_put(rec + n, (uint64_t)v->status);
	if (!sh->status || v->status == 0) {
		for (int i = 0; i < sh->n; i++) {
			n += comm_varint_put(rec + n, zz_enc(sh->delta ?
					(int64_t)((uint64_t)v->v[i] -
						  (uint64_t)last[i]) :
					v->v[i]));
			if (sh->delta)
				last[i] = v->v[i];
		}
		if (sh->blob) {
			n += comm_varint_put(rec + n, v->nblob);
			memcpy(rec + n, v->blob, v->nblob);
			n += v->nblob;
		}
	}
	comm_publish(w, w->map, rec, n);
	if (rec != small)
		free(rec);
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
	comm_publish(w, w->map, p, 1 + comm_varint_put(p + 1, ns));
	return 0;
}

size_t pg_comm_encode(unsigned char *p, const struct pg_event *ev)
{
	struct pg_comm_writer w;

	comm_wstate_init(&w, PG_COMM_VERSION, 1);
	return comm_encode(&w, p, p + 1, ev);
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
	comm_publish(w, map, rec, comm_encode(w, rec, rec + 1, ev));
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
