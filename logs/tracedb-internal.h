/*
 * tracedb-internal.h: what the parts of the trace database importer
 * (tracedb.c, tracedb-match.c) share.  Not for other modules.
 */
#ifndef PANGAEA_TRACEDB_INTERNAL_H
#define PANGAEA_TRACEDB_INTERNAL_H

#include "pangaea-logs.h"
#include "tracedb.h"

#include <stdint.h>

/* One end of a message: a send to one destination, or a receive. */
struct tdb_end {
	int32_t src;     /* sender ltid (negative: foreign or system) */
	int32_t dst;     /* receiver ltid */
	uint32_t msgid;  /* sender's message id */
	int32_t tag;
	uint32_t len;
	int32_t kind;    /* enum pg_rec_kind of the event */
	int64_t ev;      /* events.id */
	int64_t t;       /* send: its t0; receive: its t1 (message in hand) */
};

/* The message ends collected while the events are imported. */
struct tdb_ends {
	struct tdb_end *v;
	size_t n, cap;
};

/* Appends E to L; 0 or -1 when out of memory. */
int tdb_ends_add(struct tdb_ends *l, const struct tdb_end *e);
/* Frees L's array. */
void tdb_ends_free(struct tdb_ends *l);

/* How to explain messages that have only one end. */
struct tdb_match_ctx {
	const int *ltids; /* tasks with a communication log, sorted */
	int nltid;
	int selective;    /* the run logged a selection of tasks or tags */
};

/*
 * Matches SENDS to RECVS (both sorted here) and inserts one messages row
 * per send destination and per unmatched receive through INS (the
 * messages insert statement); counts into ST.  0, or -1 with ERR.
 */
int tdb_match(sqlite3 *db, sqlite3_stmt *ins, struct tdb_ends *sends,
	      struct tdb_ends *recvs, const struct tdb_match_ctx *ctx,
	      struct tdb_import_stats *st, char *err, size_t errlen);

#endif /* PANGAEA_TRACEDB_INTERNAL_H */
