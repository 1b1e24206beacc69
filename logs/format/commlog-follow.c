/*
 * commlog-follow.c: following a communication log its task is still
 * writing (the coordinator's live view): the file is read again from
 * the first record not decoded yet, and a record found cut off at the
 * end of what was read is undone and read again next time.
 */
#include "commlog-code.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	if (pg_comm_read_header(r, err, errlen) < 0)
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
