/*
 * tracedb-match.c: pairs every send of a run with the receive that took
 * its message, for the messages table of the trace database.
 *
 * A message is named by (sender ltid, message id, receiver ltid): an
 * mcast or bcast is one send event with one message id and several
 * receivers, hence one message per receiver.  Both lists are sorted by
 * that key and merged; what has one end only is explained in 'unmatched'.
 */
#include "tracedb-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tdb_ends_add(struct tdb_ends *l, const struct tdb_end *e)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		struct tdb_end *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *e;
	return 0;
}

void tdb_ends_free(struct tdb_ends *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

/* Orders message ends by (src, msgid, dst), then by event id. */
static int end_cmp(const void *pa, const void *pb)
{
	const struct tdb_end *a = pa, *b = pb;

	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	if (a->msgid != b->msgid)
		return a->msgid < b->msgid ? -1 : 1;
	if (a->dst != b->dst)
		return a->dst < b->dst ? -1 : 1;
	return (a->ev > b->ev) - (a->ev < b->ev);
}

/* Whether LTID has a communication log in the run (binary search). */
static int logged(const struct tdb_match_ctx *ctx, int ltid)
{
	int lo = 0, hi = ctx->nltid - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (ctx->ltids[mid] == ltid)
			return 1;
		if (ctx->ltids[mid] < ltid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return 0;
}

/* Binds V to column I of S, or NULL when V is negative (no event). */
static void bind_opt(sqlite3_stmt *s, int i, int64_t v)
{
	if (v < 0)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
}

/* Inserts one messages row: S is the send (or NULL), R the receive (or
 * NULL), WHY the unmatched reason (NULL when matched). */
static int put_msg(sqlite3_stmt *ins, int64_t id, const struct tdb_end *s,
		   const struct tdb_end *r, const char *why)
{
	const struct tdb_end *e = s ? s : r;

	sqlite3_bind_int64(ins, 1, id);
	sqlite3_bind_int(ins, 2, e->src);
	sqlite3_bind_int(ins, 3, e->dst);
	sqlite3_bind_int(ins, 4, e->tag);
	sqlite3_bind_int64(ins, 5, e->msgid);
	sqlite3_bind_int64(ins, 6, e->len);
	if (s)
		sqlite3_bind_text(ins, 7, pg_rec_kind_name(s->kind), -1,
				  SQLITE_STATIC);
	else
		sqlite3_bind_null(ins, 7);
	bind_opt(ins, 8, s ? s->ev : -1);
	bind_opt(ins, 9, r ? r->ev : -1);
	bind_opt(ins, 10, s ? s->t : -1);
	bind_opt(ins, 11, r ? r->t : -1);
	if (why)
		sqlite3_bind_text(ins, 12, why, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(ins, 12);
	if (sqlite3_step(ins) != SQLITE_DONE)
		return -1;
	sqlite3_reset(ins);
	return 0;
}

/* Why the send S found no receive. */
static const char *why_send(const struct tdb_match_ctx *ctx,
			    const struct tdb_end *s)
{
	return ctx->selective || !logged(ctx, s->dst) ? "selection"
						       : "not received";
}

/* Why the receive R has no send; SAME: its key was matched already. */
static const char *why_recv(const struct tdb_match_ctx *ctx,
			    const struct tdb_end *r, int same)
{
	if (r->src < 0)
		return "foreign";
	if (same)
		return "duplicate receive";
	return ctx->selective || !logged(ctx, r->src) ? "selection"
						       : "send not logged";
}

int tdb_match(sqlite3 *db, sqlite3_stmt *ins, struct tdb_ends *sends,
	      struct tdb_ends *recvs, const struct tdb_match_ctx *ctx,
	      struct tdb_import_stats *st, char *err, size_t errlen)
{
	size_t i = 0, j = 0;
	int64_t id = 0;
	const struct tdb_end *last = NULL; /* the last matched key */
	int rc = 0;

	if (sends->n > 1)
		qsort(sends->v, sends->n, sizeof(struct tdb_end), end_cmp);
	if (recvs->n > 1)
		qsort(recvs->v, recvs->n, sizeof(struct tdb_end), end_cmp);
	while (rc == 0 && (i < sends->n || j < recvs->n)) {
		const struct tdb_end *s = i < sends->n ? &sends->v[i] : NULL;
		const struct tdb_end *r = j < recvs->n ? &recvs->v[j] : NULL;
		int c = !s ? 1 : !r ? -1 : end_cmp(s, r);

		if (s && r && s->src == r->src && s->msgid == r->msgid &&
		    s->dst == r->dst)
			c = 0;
		if (c == 0) {
			rc = put_msg(ins, ++id, s, r, NULL);
			last = s;
			st->nmatched++;
			i++, j++;
		} else if (c < 0) {
			rc = put_msg(ins, ++id, s, NULL, why_send(ctx, s));
			st->nunmatched++;
			i++;
		} else {
			int same = last && last->src == r->src &&
				   last->msgid == r->msgid && last->dst == r->dst;

			rc = put_msg(ins, ++id, NULL, r, why_recv(ctx, r, same));
			st->nunmatched++;
			j++;
		}
	}
	st->nmessages = id;
	if (rc < 0)
		snprintf(err, errlen, "cannot insert a message: %s",
			 sqlite3_errmsg(db));
	return rc;
}
