/*
 * reqs.c: what the MPI binding keeps of a rank's traffic: its pending
 * requests (an MPI_Request is the program's; we keep what it was posted
 * for, to log its completion), the number of each receive post, the
 * message counts of its channels, and in replay the recorded matches of
 * its wildcard Irecvs by post number (read from its log at the start:
 * an Irecv's source is known only when it completes, but replay must
 * post it with that source).
 */
#include "pgmpi.h"

#include <stdlib.h>
#include <string.h>

static struct pgm_req *reqs;
static size_t nreq, capreq;
static int posts;

int pgm_req_add(const struct pgm_req *r)
{
	struct pgm_req *v = pg_grow(reqs, &capreq, nreq + 1, sizeof(*reqs), 16);

	if (!v)
		return -1;
	reqs = v;
	reqs[nreq++] = *r;
	return 0;
}

struct pgm_req *pgm_req_find(MPI_Request h)
{
	for (size_t i = nreq; i-- > 0;)
		if (reqs[i].req == h)
			return &reqs[i];
	return NULL;
}

int pgm_req_take(MPI_Request h, struct pgm_req *r)
{
	const struct pgm_req *f = pgm_req_find(h);

	if (!f)
		return 0;
	*r = *f;
	reqs[f - reqs] = reqs[--nreq];
	return 1;
}

int pgm_req_done(MPI_Request h, struct pgm_req *r)
{
	struct pgm_req *f = pgm_req_find(h);

	if (!f || !f->persist)
		return pgm_req_take(h, r);
	f->started = 0;
	*r = *f;
	return 1;
}

int pgm_req_active(MPI_Request h)
{
	const struct pgm_req *f;

	if (h == MPI_REQUEST_NULL)
		return 0;
	f = pgm_req_find(h);
	return !f || !f->persist || f->started;
}

int pgm_post_next(void)
{
	return ++posts;
}

/* ---- channels: (peer, tag, context) -> messages so far, each way ---- */

struct chan {
	int peer, tag;
	uint32_t cid;
	uint32_t sent, received;
};
static struct chan *chans;
static size_t nchan, capchan;

/* The channel (PEER, TAG, CID), made if new; NULL when memory ran out.
 * A linear search from the last one used: a program talks over few. */
static struct chan *chan_of(int peer, int tag, uint32_t cid)
{
	static size_t last;
	struct chan *v;

	if (last < nchan && chans[last].peer == peer &&
	    chans[last].tag == tag && chans[last].cid == cid)
		return &chans[last];
	for (size_t i = 0; i < nchan; i++)
		if (chans[i].peer == peer && chans[i].tag == tag &&
		    chans[i].cid == cid)
			return &chans[last = i];
	if (!(v = pg_grow(chans, &capchan, nchan + 1, sizeof(*chans), 16)))
		return NULL;
	chans = v;
	chans[nchan] = (struct chan){ peer, tag, cid, 0, 0 };
	return &chans[last = nchan++];
}

uint32_t pgm_channel_id(int send, int peer, int tag, uint32_t cid, int peek)
{
	struct chan *c = chan_of(peer, tag, cid);
	uint32_t *n, seq;

	if (!c)
		return 0;
	n = send ? &c->sent : &c->received;
	seq = *n + 1;
	if (!peek)
		*n = seq;
	/* the tag's low 12 bits (mixed with the context's, 0 for the
	   world's) above the number in the channel: ids are distinct per
	   (sender, receiver) while tags differ there, and nearly always
	   between the channels of one tag in two communicators */
	return (((uint32_t)tag ^ cid) & 0xfffu) << 20 | (seq & 0xfffffu);
}

/* ---- replay: post number -> recorded (source, tag) ---- */

struct match {
	int post, src, tag;
};
static struct match *matches;
static size_t nmatch, capmatch;

/* Orders matches by post number, for qsort and bsearch. */
static int match_cmp(const void *a, const void *b)
{
	int x = ((const struct match *)a)->post;
	int y = ((const struct match *)b)->post;

	return (x > y) - (x < y);
}

/* Reads a 32-bit little-endian int at P. */
static int get32(const unsigned char *p)
{
	return (int)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
		     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

int pgm_matches_load(const char *dir, int ltid, char *err, size_t n)
{
	char path[PG_PATH_MAX];
	struct pg_comm_reader r;
	struct pg_event ev;
	int *pending = NULL, npend = 0, at = 0, rc;

	if (pg_log_path(path, sizeof(path), dir, ltid, "comm") < 0 ||
	    pg_comm_open(&r, path, err, n) < 0)
		return -1;
	while ((rc = pg_comm_next(&r, &ev, err, n)) > 0) {
		if (ev.kind == PG_REC_CALL && ev.op == PG_Q_MPI_DONE) {
			/* the receives that follow are these posts' */
			free(pending);
			npend = (int)(ev.nblob / 8);
			at = 0;
			if (!(pending = malloc((size_t)(npend + 1) * sizeof(int))))
				break;
			for (int i = 0; i < npend; i++)
				pending[i] = get32(ev.blob + 8 * i + 4);
			continue;
		}
		if (pg_rec_kind_class(ev.kind) != PG_CLASS_RECV || !pending)
			continue;
		while (at < npend && pending[at] == 0)
			at++; /* a send's completion: no receive */
		if (at < npend) {
			struct match *v = pg_grow(matches, &capmatch, nmatch + 1,
						  sizeof(*matches), 64);
			if (!v)
				break;
			matches = v;
			matches[nmatch++] = (struct match){ pending[at++],
							    ev.peer - 1, ev.tag };
		}
	}
	free(pending);
	pg_comm_free(&r);
	/* (logged in completion order: by post number for the lookups) */
	if (nmatch)
		qsort(matches, nmatch, sizeof(*matches), match_cmp);
	return rc < 0 ? -1 : 0;
}

int pgm_match_of(int post, int *src, int *tag)
{
	struct match key = { post, 0, 0 }, *m;

	if (!nmatch || !(m = bsearch(&key, matches, nmatch, sizeof(*matches),
				     match_cmp)))
		return 0;
	*src = m->src;
	*tag = m->tag;
	return 1;
}
