/*
 * commlog-read.c: the reader of the binary communication log: loads a
 * whole log, checks its magic, version and header, and gives its events
 * one after another (pg_comm_next; commlog-follow.c reads a log being
 * written with it).  The layout is in commlog-code.h and
 * docs/FORMATS.md.
 */
#include "commlog-code.h"

#include <errno.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int pg_comm_read_header(struct pg_comm_reader *r, char *err,
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
	   times, peers and ids written out, 7 is 8 without clock reads
	   and seeds, 8 is 9 without repeat records */
	if (h->version < 3 || h->version > PG_COMM_VERSION) {
		snprintf(err, errlen,
			 "%s: log format version %u, this Pangaea reads version "
			 "%d (and 3 to %d) (offset 8)", r->path, h->version,
			 PG_COMM_VERSION, PG_COMM_VERSION - 1);
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
	    pg_comm_read_header(r, err, errlen) < 0) {
		pg_comm_free(r);
		return -1;
	}
	return 0;
}

/* Reads N varints at R->pos into V; 0, or -1 if the log is cut off. */
static int comm_get(struct pg_comm_reader *r, uint64_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		size_t k = comm_varint_get(r->data + r->pos, r->size - r->pos,
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
static inline int comm_time(struct pg_comm_reader *r, struct pg_event *ev,
			    uint64_t dt, uint64_t dur)
{
	uint64_t u = r->st.unit;

	/* r->st.last_t <= PG_TIME_MAX: the sum cannot wrap; the division
	   (tens of cycles) only for values that could make it wrap:
	   (dt + dur) * u < 2^33 * 2^28 otherwise */
	if ((dt >> 32 || dur >> 32 || u >> 28) &&
	    (dt > PG_TIME_MAX / u || dur > PG_TIME_MAX / u))
		return -1;
	if (r->st.last_t + (dt + dur) * u > PG_TIME_MAX)
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
static inline __attribute__((always_inline)) int
comm_get_id(struct pg_comm_reader *r, int kb, int kind, int idx,
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
		/* (the range first: a huge distance would overflow the sum) */
		if (v > UINT32_MAX * 2ull + 1 ||
		    (x = has ? (int64_t)want + zz_dec(v) : (int64_t)v) < 0 ||
		    x > UINT32_MAX)
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
	int kb = r->data[r->at];

	snprintf(err, errlen, "%s: corrupt: %s in the %s record at offset %zu",
		 r->path, what, pg_rec_kind_name(comm_is_value(r->hdr.version, kb)
						 ? kb & PG_KIND_MASK : kb),
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
		int64_t x;

		/* (the range first: a huge distance would overflow the sum) */
		if (v[2] > UINT32_MAX * 2ull + 1 ||
		    (x = (int64_t)pp->len + zz_dec(v[2])) < 0 || x > UINT32_MAX)
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
	comm_saw_msg(&r->st, kind, ev->peer, idx, ev->tag, ev->len);
	return 1;
}

/* Reads the rest of the repeat record (version 9) of repeat index REP
 * (kind byte KB, as its message kind's): the peer, tag and length of the
 * last record of that kind, the id, the times; 1, 0 cut off, or -1 with
 * ERR. */
static inline __attribute__((always_inline)) int
comm_next_repeat(struct pg_comm_reader *r, struct pg_event *ev, int kb,
		 int rep, char *err, size_t errlen)
{
	const struct pg_comm_rep *q = &r->st.rep[rep];
	const unsigned char *d = r->data + r->pos;
	uint64_t v[2];
	int idx = q->idx1 - 1;
	uint32_t want;
	int64_t x;

	if (!q->idx1)
		return comm_corrupt(r, "a repeat of no record before", err,
				    errlen);
	ev->peer = q->peer;
	ev->tag = q->tag;
	ev->len = q->len;
	/* (comm_get_id for a repeat: its peer is known, its kind a send's
	   or a receive's) */
	want = comm_repeat_want(&r->st, rep, idx);
	if (kb & PG_KIND_NEXTID) {
		ev->msgid = want;
	} else {
		if (comm_get(r, v, 1) < 0)
			return 0;
		/* (the range first: a huge distance would overflow the sum) */
		if (v[0] > UINT32_MAX * 2ull + 1 ||
		    (x = (int64_t)want + zz_dec(v[0])) < 0 || x > UINT32_MAX)
			return comm_corrupt(r, "a value past 32 bits", err,
					    errlen);
		ev->msgid = (uint32_t)x;
		d = r->data + r->pos;
	}
	comm_repeat_saw(&r->st, rep, idx, ev->msgid);
	r->st.peer[idx].len = q->len;
	/* the times: two one-byte varints, most often */
	if (r->size - r->pos >= 2 && !((d[0] | d[1]) & 0x80)) {
		v[0] = d[0];
		v[1] = d[1];
		r->pos += 2;
	} else if (comm_get(r, v, 2) < 0) {
		return 0;
	}
	if (comm_time(r, ev, v[0], v[1]) < 0)
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

/* Reads the rest of a clock read's or seed's record (kind byte KB) into
 * EV (its vals R->vals, its blob in R's data); 1, 0 cut off, or -1 with
 * ERR. */
static int comm_next_value(struct pg_comm_reader *r, struct pg_event *ev,
			   int kb, char *err, size_t errlen)
{
	const struct comm_vshape *sh;
	int kind = kb & PG_KIND_MASK, src = kb >> PG_KIND_SRC_SHIFT;
	uint64_t v;

	if (!(sh = comm_value_shape(kind, src)))
		return comm_corrupt(r, "an unknown source", err, errlen);
	memset(ev, 0, sizeof(*ev));
	ev->kind = kind;
	ev->op = src;
	if (sh->arg) {
		if (comm_get(r, &v, 1) < 0)
			return 0;
		if (fit_int(v, &ev->arg) < 0)
			return comm_corrupt(r, "an argument past 32 bits", err,
					    errlen);
	}
	if (sh->status) {
		if (comm_get(r, &v, 1) < 0)
			return 0;
		if (v > 4095)
			return comm_corrupt(r, "an errno past 4095", err, errlen);
		ev->result = (int)v;
		if (v)
			return 1;
	}
	for (int i = 0; i < sh->n; i++) {
		int64_t *last = &r->st.vlast[sh->slot + i];

		if (comm_get(r, &v, 1) < 0)
			return 0;
		r->vals[i] = sh->delta ? (int64_t)((uint64_t)*last +
						    (uint64_t)zz_dec(v))
				       : zz_dec(v);
		if (sh->delta)
			*last = r->vals[i];
	}
	ev->nvals = sh->n;
	ev->vals = r->vals;
	if (sh->blob) {
		if (comm_get(r, &v, 1) < 0 || v > r->size - r->pos)
			return 0;
		if (v > 1u << 20)
			return comm_corrupt(r, "a blob past 1 MiB", err, errlen);
		ev->nblob = (uint32_t)v;
		ev->blob = r->data + r->pos;
		r->pos += v;
	}
	return 1;
}

/* The record at R->at is cut off: says so in ERR; -1. */
static int comm_truncated(struct pg_comm_reader *r, char *err, size_t errlen)
{
	r->cut = 1;
	snprintf(err, errlen, "%s: truncated: record at offset %zu is cut off",
		 r->path, r->base + r->at);
	return -1;
}

/* Clears EV but for the bytes of its group name after the first (a
 * quarter of a record's decoding was this store).  The fields before the
 * group are copied from an empty event: six wide moves, where a memset
 * of them is a rep stos of a dozen turns. */
static void comm_clear(struct pg_event *ev)
{
	static const struct pg_event empty;

	memcpy(ev, &empty, offsetof(struct pg_event, group));
	ev->group[0] = '\0';
	memset(ev->group + sizeof(ev->group), 0, sizeof(*ev) -
	       offsetof(struct pg_event, group) - sizeof(ev->group));
}

/* The repeat record (version 9) at R->pos, the common record of a
 * replay, read straight into EV if its kind byte KB is a valid one:
 * pg_comm_next's answer; else 2, nothing read (the general path then
 * reads it, or says what is wrong with it).  None of pg_comm_next's
 * other cases concerns such a byte: a clock, calibration, clock read or
 * seed record's, and the zero of the end, are none. */
static inline __attribute__((always_inline)) int
comm_next_repeat_fast(struct pg_comm_reader *r, struct pg_event *ev, int kb,
		      char *err, size_t errlen)
{
	int rep = (kb & PG_KIND_MASK) - PG_REC_REPEAT, kind, rc;
	unsigned extra = PG_KIND_NEXTID;

	if (rep < 0 || rep >= PG_COMM_REPEATS)
		return 2;
	kind = comm_repeat_kind(rep);
	if (comm_has_filter(kind))
		extra |= PG_KIND_ANYSRC | PG_KIND_ANYTAG;
	if (kb & ~(PG_KIND_MASK | extra))
		return 2;
	comm_clear(ev);
	r->at = r->pos++;
	if (comm_has_filter(kind))
		ev->filter = (kb & PG_KIND_ANYSRC ? PG_FILTER_ANYSRC : 0) |
			     (kb & PG_KIND_ANYTAG ? PG_FILTER_ANYTAG : 0);
	ev->kind = kind;
	rc = comm_next_repeat(r, ev, (kb & ~PG_KIND_MASK) | kind, rep, err,
			      errlen);
	return rc != 0 ? rc : comm_truncated(r, err, errlen);
}

int pg_comm_next(struct pg_comm_reader *r, struct pg_event *ev, char *err,
		 size_t errlen)
{
	int kind, kb, rc, rep;
	unsigned extra;

	if (r->hdr.version >= 9 && !r->ended && r->pos < r->size &&
	    (rc = comm_next_repeat_fast(r, ev, r->data[r->pos], err,
					errlen)) != 2)
		return rc;
again:
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
		if (rc == 0)
			return comm_truncated(r, err, errlen);
	}
	/* clock reads and seeds: events only for a reader that asks (they
	   may follow the end record: a task runs on after its end) */
	if ((!r->ended || r->values) && r->pos < r->size &&
	    comm_is_value(r->hdr.version, r->data[r->pos])) {
		r->at = r->pos;
		kb = r->data[r->pos++];
		rc = comm_next_value(r, ev, kb, err, errlen);
		if (rc == 0)
			return comm_truncated(r, err, errlen);
		if (rc < 0 || r->values)
			return rc;
		goto again;
	}
	if (r->ended || r->pos >= r->size || r->data[r->pos] == 0) {
		r->ended = 1;
		return 0;
	}
	comm_clear(ev);
	r->at = r->pos;
	kb = kind = r->data[r->pos++];
	/* version 9: a repeat record reads as its message kind's, the same
	   bits above it */
	rep = -1;
	if (r->hdr.version >= 9 && (kb & PG_KIND_MASK) >= PG_REC_REPEAT &&
	    (kb & PG_KIND_MASK) < PG_REC_REPEAT + PG_COMM_REPEATS) {
		rep = (kb & PG_KIND_MASK) - PG_REC_REPEAT;
		kb = kind = (kb & ~PG_KIND_MASK) | comm_repeat_kind(rep);
	}
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
	rc = rep >= 0 ? comm_next_repeat(r, ev, kb, rep, err, errlen)
		      : comm_next_body(r, ev, kb, kind, err, errlen);
	return rc != 0 ? rc : comm_truncated(r, err, errlen);
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
