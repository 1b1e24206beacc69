/*
 * commlog.c: the binary communication log (writer and reader).
 *
 * Layout (little-endian): 8-byte magic, u32 version, u32 header length,
 * i32 ltid, i32 tid, i32 parent ltid, u32 mode, u64 start wall ns, u64
 * start mono ns, u16+bytes host, u16+bytes program, u32 flags, u16+bytes
 * selection; then records: one kind byte followed by varints (strings as a
 * varint length and the bytes).  A zero kind byte (the unwritten tail of
 * the mapping) ends the log.  docs/FORMATS.md has the fields of each kind.
 */
#include "pangaea-logs.h"

#include <errno.h>
#include <fcntl.h>
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
	size_t cap = w->cap, page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *old = w->map;
	void *m;

	need += PG_COMM_SPARE;
	if (w->used + need <= w->cap)
		return 0;
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

/* Encodes the header H into BUF; returns its length. */
static size_t comm_encode_header(unsigned char *buf,
				 const struct pg_comm_header *h)
{
	size_t hl = strlen(h->host), pl = strlen(h->program), sl, n;

	memcpy(buf, PG_COMM_MAGIC, 8);
	put_le(buf + 8, PG_COMM_VERSION, 4);
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
	put_le(buf + 12, n, 4);
	return n;
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
	memcpy(w->map, buf, n);
	w->used = n;
	return 0;
}

/* Bytes EV may take encoded, at most. */
static size_t comm_bound(const struct pg_event *ev)
{
	size_t n = REC_FIXED;

	if (ev->kind == PG_REC_MCAST || ev->kind == PG_REC_BCAST)
		n += 5 * (size_t)(ev->ndest > 0 ? ev->ndest : 0);
	if (ev->kind == PG_REC_BCAST || ev->kind == PG_REC_GROUP)
		n += strnlen(ev->group, PG_GROUP_MAX);
	return n;
}

/* Encodes the string S as a varint length and its bytes into P. */
static size_t put_str(unsigned char *p, const char *s)
{
	size_t l = strnlen(s, PG_GROUP_MAX - 1), n = pg_varint_put(p, l);

	memcpy(p + n, s, l);
	return n + l;
}

/* Encodes the record EV (times relative to LAST_T) into P; its length. */
static size_t comm_encode(unsigned char *p, const struct pg_event *ev,
			  uint64_t last_t)
{
	size_t n = 0;
	uint64_t dt = ev->t >= last_t ? ev->t - last_t : 0;

	p[n++] = (unsigned char)ev->kind;
	if (ev->kind == PG_REC_GROUP) {
		n += pg_varint_put(p + n, (uint64_t)ev->op);
		n += put_str(p + n, ev->group);
		n += pg_varint_put(p + n, zz_enc(ev->arg));
		n += pg_varint_put(p + n, zz_enc(ev->result));
		n += pg_varint_put(p + n, dt);
		n += pg_varint_put(p + n, ev->dur);
		return n;
	}
	if (ev->kind == PG_REC_MCAST || ev->kind == PG_REC_BCAST) {
		if (ev->kind == PG_REC_BCAST)
			n += put_str(p + n, ev->group);
		n += pg_varint_put(p + n, zz_enc(ev->tag));
		n += pg_varint_put(p + n, ev->msgid);
		n += pg_varint_put(p + n, ev->len);
		n += pg_varint_put(p + n, dt);
		n += pg_varint_put(p + n, ev->dur);
		n += pg_varint_put(p + n, (uint64_t)ev->ndest);
		for (int i = 0; i < ev->ndest; i++)
			n += pg_varint_put(p + n, zz_enc(ev->dests[i]));
		return n;
	}
	if (ev->kind == PG_REC_END) {
		n += pg_varint_put(p + n, (uint64_t)ev->how);
		n += pg_varint_put(p + n, zz_enc(ev->value));
		n += pg_varint_put(p + n, dt);
		return n;
	}
	if (ev->kind == PG_REC_POLLFAIL) {
		n += pg_varint_put(p + n, ev->count);
		n += pg_varint_put(p + n, dt);
		return n;
	}
	n += pg_varint_put(p + n, zz_enc(ev->peer));
	n += pg_varint_put(p + n, zz_enc(ev->tag));
	n += pg_varint_put(p + n, ev->msgid);
	n += pg_varint_put(p + n, ev->len);
	n += pg_varint_put(p + n, dt);
	n += pg_varint_put(p + n, ev->dur);
	return n;
}

int pg_comm_append(struct pg_comm_writer *w, const struct pg_event *ev)
{
	size_t n;

	if (w->fd < 0)
		return errno = EBADF, -1;
	if (comm_reserve(w, comm_bound(ev)) < 0)
		return -1;
	n = comm_encode(w->map + w->used, ev, w->last_t);
	w->used += n;
	if (ev->t > w->last_t)
		w->last_t = ev->t;
	return 0;
}

/*
 * Async-signal-safe: no allocation, no growth, no stdio; only stores into
 * the mapped space comm_reserve keeps spare (PG_COMM_SPARE) and plain
 * system calls.
 */
int pg_comm_append_reserved(struct pg_comm_writer *w, const struct pg_event *ev)
{
	unsigned char *map = w->map;
	size_t n;

	if (w->fd < 0 || !map || ev->kind == PG_REC_MCAST ||
	    ev->kind == PG_REC_BCAST || ev->kind == PG_REC_GROUP ||
	    w->used + REC_FIXED > w->cap)
		return -1;
	n = comm_encode(map + w->used, ev, w->last_t);
	w->used += n;
	if (ev->t > w->last_t)
		w->last_t = ev->t;
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

/* Reads the whole file PATH into R->data; 0 or -1. */
static int comm_load(struct pg_comm_reader *r, const char *path, char *err,
		     size_t errlen)
{
	FILE *f = fopen(path, "rb");
	struct stat st;

	if (!f || fstat(fileno(f), &st) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	r->size = (size_t)st.st_size;
	r->data = malloc(r->size ? r->size : 1);
	if (!r->data || fread(r->data, 1, r->size, f) != r->size) {
		snprintf(err, errlen, "cannot read %s", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* Decodes the header of R->data; 0, or -1 with ERR filled. */
static int comm_decode_header(struct pg_comm_reader *r, char *err,
			      size_t errlen)
{
	struct pg_comm_header *h = &r->hdr;
	const unsigned char *d = r->data;
	size_t n, hl, pl, sl, total;

	if (r->size < COMM_FIXED + 4 || memcmp(d, PG_COMM_MAGIC, 8) != 0) {
		snprintf(err, errlen, "%s: not a Pangaea communication log",
			 r->path);
		return -1;
	}
	h->version = (uint32_t)get_le(d + 8, 4);
	if (h->version != PG_COMM_VERSION) {
		snprintf(err, errlen,
			 "%s: log format version %u, this Pangaea reads version %d",
			 r->path, h->version, PG_COMM_VERSION);
		return -1;
	}
	total = get_le(d + 12, 4);
	h->ltid = (int32_t)get_le(d + 16, 4);
	h->tid = (int32_t)get_le(d + 20, 4);
	h->parent_ltid = (int32_t)get_le(d + 24, 4);
	h->mode = (uint32_t)get_le(d + 28, 4);
	h->start_wall_ns = get_le(d + 32, 8);
	h->start_mono_ns = get_le(d + 40, 8);
	n = COMM_FIXED;
	hl = get_le(d + n, 2);
	if (total > r->size || hl >= PG_HOST_MAX || n + 4 + hl > total)
		goto bad;
	memcpy(h->host, d + n + 2, hl);
	h->host[hl] = '\0';
	n += 2 + hl;
	pl = get_le(d + n, 2);
	if (pl >= PG_PATH_MAX || n + 2 + pl + 6 > total)
		goto bad;
	memcpy(h->program, d + n + 2, pl);
	h->program[pl] = '\0';
	n += 2 + pl;
	h->flags = (uint32_t)get_le(d + n, 4);
	sl = get_le(d + n + 4, 2);
	if (sl >= PG_SELECT_MAX || n + 6 + sl != total)
		goto bad;
	memcpy(h->select, d + n + 6, sl);
	h->select[sl] = '\0';
	r->pos = total;
	return 0;
bad:
	snprintf(err, errlen, "%s: corrupt header", r->path);
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

/* Reads a string (varint length, bytes) into OUT; 0 or -1 if cut off. */
static int comm_get_str(struct pg_comm_reader *r, char *out)
{
	uint64_t l;

	if (comm_get(r, &l, 1) < 0 || l >= PG_GROUP_MAX || l > r->size - r->pos)
		return -1;
	memcpy(out, r->data + r->pos, l);
	out[l] = '\0';
	r->pos += l;
	return 0;
}

/* Reads the destinations of an mcast or bcast into R->dests; 0, -1 cut
 * off, -2 an impossible count. */
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
		if (comm_get(r, &v, 1) < 0)
			return -1;
		r->dests[i] = (int)zz_dec(v);
	}
	ev->ndest = (int)n;
	ev->dests = r->dests;
	return 0;
}

/* Reads the rest of a group, mcast or bcast record that began at AT. */
static int comm_next_long(struct pg_comm_reader *r, struct pg_event *ev,
			  int kind, size_t at, char *err, size_t errlen)
{
	uint64_t v[5];
	int rc;

	if (kind == PG_REC_GROUP) {
		if (comm_get(r, v, 1) < 0 || comm_get_str(r, ev->group) < 0 ||
		    comm_get(r, v + 1, 4) < 0)
			goto cut;
		ev->op = (int)v[0];
		ev->arg = (int)zz_dec(v[1]);
		ev->result = (int)zz_dec(v[2]);
		ev->t = r->last_t + v[3];
		ev->dur = v[4];
		r->last_t = ev->t;
		return 1;
	}
	if ((kind == PG_REC_BCAST && comm_get_str(r, ev->group) < 0) ||
	    comm_get(r, v, 5) < 0)
		goto cut;
	ev->tag = (int)zz_dec(v[0]);
	ev->msgid = (uint32_t)v[1];
	ev->len = (uint32_t)v[2];
	ev->t = r->last_t + v[3];
	ev->dur = v[4];
	r->last_t = ev->t;
	rc = comm_get_dests(r, ev);
	if (rc == -1)
		goto cut;
	if (rc < 0) {
		snprintf(err, errlen, "%s: corrupt: bad destination count at offset %zu",
			 r->path, at);
		return -1;
	}
	return 1;
cut:
	snprintf(err, errlen, "%s: truncated: record at offset %zu is cut off",
		 r->path, at);
	return -1;
}

int pg_comm_next(struct pg_comm_reader *r, struct pg_event *ev, char *err,
		 size_t errlen)
{
	size_t at = r->pos;
	uint64_t v[6];
	int kind;

	if (r->ended || r->pos >= r->size || r->data[r->pos] == 0) {
		r->ended = 1;
		return 0;
	}
	memset(ev, 0, sizeof(*ev));
	kind = r->data[r->pos++];
	ev->kind = kind;
	if (kind == PG_REC_END) {
		if (comm_get(r, v, 3) < 0)
			goto cut;
		ev->how = (int)v[0];
		ev->value = (int)zz_dec(v[1]);
		ev->t = r->last_t + v[2];
		r->last_t = ev->t;
		r->ended = 1;
		return 1;
	}
	if (kind == PG_REC_POLLFAIL) {
		if (comm_get(r, v, 2) < 0)
			goto cut;
		ev->count = (uint32_t)v[0];
		ev->t = r->last_t + v[1];
		r->last_t = ev->t;
		return 1;
	}
	if (kind == PG_REC_GROUP || kind == PG_REC_MCAST || kind == PG_REC_BCAST)
		return comm_next_long(r, ev, kind, at, err, errlen);
	if (kind < PG_REC_SEND || kind > PG_REC_LAST) {
		snprintf(err, errlen, "%s: corrupt: unknown record kind %d at offset %zu",
			 r->path, kind, at);
		return -1;
	}
	if (comm_get(r, v, 6) < 0)
		goto cut;
	ev->peer = (int)zz_dec(v[0]);
	ev->tag = (int)zz_dec(v[1]);
	ev->msgid = (uint32_t)v[2];
	ev->len = (uint32_t)v[3];
	ev->t = r->last_t + v[4];
	ev->dur = v[5];
	r->last_t = ev->t;
	return 1;
cut:
	snprintf(err, errlen, "%s: truncated: record at offset %zu is cut off",
		 r->path, at);
	return -1;
}

void pg_comm_free(struct pg_comm_reader *r)
{
	free(r->dests);
	r->dests = NULL;
	r->dests_cap = 0;
	free(r->data);
	r->data = NULL;
	r->size = 0;
}

int pg_log_path(char *buf, size_t n, const char *dir, int ltid,
		const char *suffix)
{
	int k = snprintf(buf, n, "%s/task-%d.%s", dir, ltid, suffix);

	return k < 0 || (size_t)k >= n ? -1 : 0;
}
