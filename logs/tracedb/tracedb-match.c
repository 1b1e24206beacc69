/*
 * tracedb-match.c: the messages table of the trace database.  Every
 * message end of the run goes to the matcher (logs/analysis/match.c) as its event
 * is imported; a row is inserted when the matcher pairs a send with its
 * receive, at once for a receive from outside the run, and at the end
 * for every end left alone, with the matcher's reason.  So the rows come
 * in the order the messages were completed, the ends left alone last.
 */
#include "tracedb-internal.h"

#include <stdio.h>
#include <stdlib.h>

/* Inserts one messages row: S its send end (or NULL), R its receive end
 * (or NULL), WHY the unmatched reason (NULL when both are there); 0, or
 * 1 when the insert failed. */
static int put_msg(struct tdb_match *tm, const struct pg_match_end *s,
		   const struct pg_match_end *r, const char *why)
{
	int rc;

	tdb_message_bind(tm->ins, ++tm->nrows, s, r, why);
	if (tm->feed && s && r &&
	    tdb_sync_feed_msg(tm->feed, s->ev, r->ev, tm->nrows) < 0)
		return 1;
	rc = sqlite3_step(tm->ins);
	sqlite3_reset(tm->ins);
	if (why)
		tm->st->nunmatched++;
	else
		tm->st->nmatched++;
	return rc == SQLITE_DONE ? 0 : 1;
}

/* The matcher's answer for end E (pg_match_fn): a row for a completed
 * message and for a foreign receive; 0, or 1 when the insert failed. */
static int match_row(void *arg, enum pg_match_what what,
		     const struct pg_match_end *e,
		     const struct pg_match_end *other)
{
	struct tdb_match *tm = arg;

	if (what == PG_MATCH_PAIRED)
		return pg_match_is_send(e) ? put_msg(tm, e, other, NULL)
					   : put_msg(tm, other, e, NULL);
	if (what == PG_MATCH_FOREIGN)
		return put_msg(tm, NULL, e, pg_match_why(&tm->match, e,
							 &tm->run));
	return 0;
}

/* Says in ERR why feeding the matcher stopped with RC. */
static int match_fail(struct tdb_match *tm, int rc, char *err, size_t errlen)
{
	if (rc < 0)
		snprintf(err, errlen, "out of memory matching messages");
	else
		snprintf(err, errlen, "cannot insert a message: %s",
			 sqlite3_errmsg(tm->db));
	return -1;
}

int tdb_match_event(struct tdb_match *tm, int ltid, int64_t id,
		    const struct pg_event *ev, int64_t t0, int64_t t1,
		    char *err, size_t errlen)
{
	int rc = pg_match_event(&tm->match, ltid, id, ev, t0, t1, match_row,
				tm);

	return rc ? match_fail(tm, rc, err, errlen) : 0;
}

int tdb_match_finish(struct tdb_match *tm, char *err, size_t errlen)
{
	struct pg_match_end *left;
	long n = pg_match_left(&tm->match, &left);
	int rc = n < 0 ? -1 : 0;

	for (long i = 0; i < n && rc == 0; i++) {
		const struct pg_match_end *e = &left[i];
		const char *why = pg_match_why(&tm->match, e, &tm->run);

		rc = pg_match_is_send(e) ? put_msg(tm, e, NULL, why)
					 : put_msg(tm, NULL, e, why);
	}
	free(left);
	tm->st->nmessages = tm->nrows;
	return rc ? match_fail(tm, rc, err, errlen) : 0;
}

void tdb_match_free(struct tdb_match *tm)
{
	pg_match_free(&tm->match);
}
