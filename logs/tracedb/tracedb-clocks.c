/*
 * tracedb-clocks.c: the vector clocks of a run's events in its trace
 * database (table clocks, docs/TRACEDB.md), from the happens-before
 * relation of its logs (logs/analysis/happens-before.c), for reuse by queries
 * and tools.  Only the events whose clock took in other tasks' events get a row
 * (a receive, a child's first event, a barrier): the clock of any other event
 * is its task's last row before it with the task's own entry set to the event's
 * number, and storing every event's made the import half as slow again.
 */
#include "tracedb-internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Whether event N of task index I learnt of other tasks' events: its
 * clock is not its previous event's with its own entry raised. */
static int clocks_joined(const struct pg_hb *hb, int i, uint32_t n)
{
	const uint32_t *c = pg_hb_clock(hb, i, n), *p = c - hb->ntask;

	for (int k = 0; k < hb->ntask; k++)
		if (k != i && c[k] != p[k])
			return 1;
	return 0;
}

/* Appends SEP (unless 0) and V in decimal to B, without printf's cost
 * (the table has a row per received message); 0 or -1. */
static int clocks_num(struct pg_strbuf *b, int64_t v, char sep)
{
	char buf[24], *p = buf + sizeof(buf);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10));
	if (v < 0)
		*--p = '-';
	if (sep)
		*--p = sep;
	return pg_strbuf_add(b, p, (size_t)(buf + sizeof(buf) - p));
}

int tdb_clock_tasks(const int *ltids, int n, struct pg_strbuf *b)
{
	int rc = 0;

	pg_strbuf_reset(b);
	for (int i = 0; rc == 0 && i < n; i++)
		rc = clocks_num(b, ltids[i], i ? ',' : 0);
	return rc;
}

int tdb_clock_text(const struct pg_hb *hb, int i, uint32_t n,
		   struct pg_strbuf *b)
{
	const uint32_t *c = pg_hb_clock(hb, i, n);

	if (!clocks_joined(hb, i, n))
		return 0;
	pg_strbuf_reset(b);
	for (int k = 0; k < hb->ntask; k++)
		if (clocks_num(b, c[k], k ? ',' : 0) < 0)
			return -1;
	return 1;
}

/* Inserts one clocks row per event of HB that learnt of others'
 * events and the meta row 'clock_tasks'
 * (the ltids a clock's entries stand for); 0 or -1. */
static int clocks_put(sqlite3 *db, const struct pg_hb *hb)
{
	struct pg_strbuf b = { 0 };
	sqlite3_stmt *st = NULL, *meta = NULL;
	int rc = 0, j;

	if (sqlite3_prepare_v2(db, "INSERT INTO clocks VALUES(?,?,?)", -1, &st,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO meta "
			       "VALUES('clock_tasks',?)", -1, &meta,
			       NULL) != SQLITE_OK)
		rc = -1;
	if (rc == 0)
		rc = tdb_clock_tasks(hb->ltids, hb->ntask, &b);
	if (rc == 0) {
		sqlite3_bind_text(meta, 1, b.p ? b.p : "", -1, SQLITE_STATIC);
		rc = sqlite3_step(meta) == SQLITE_DONE ? 0 : -1;
	}
	for (int i = 0; rc == 0 && i < hb->ntask; i++)
		for (uint32_t n = 1; rc == 0 && n <= hb->nev[i]; n++) {
			if ((j = tdb_clock_text(hb, i, n, &b)) <= 0) {
				rc = j;
				continue;
			}
			sqlite3_bind_int(st, 1, hb->ltids[i]);
			sqlite3_bind_int64(st, 2, n);
			sqlite3_bind_text(st, 3, b.p, (int)b.len, SQLITE_STATIC);
			if (rc == 0 && sqlite3_step(st) != SQLITE_DONE)
				rc = -1;
			sqlite3_reset(st);
		}
	sqlite3_finalize(st);
	sqlite3_finalize(meta);
	pg_strbuf_free(&b);
	return rc;
}

/* The vector clocks being made in a thread of their own. */
struct tdb_clocks_job {
	char dir[PG_PATH_MAX];
	struct pg_hb hb;
	int rc;                 /* pg_hb_load's */
	char err[512];
	int threaded;           /* thread runs (else made by finish) */
	pthread_t thread;
};

/* The thread of a job ARG: loads its happens-before relation. */
static void *clocks_thread(void *arg)
{
	struct tdb_clocks_job *j = arg;

	j->rc = pg_hb_load(&j->hb, j->dir, j->err, sizeof(j->err));
	return NULL;
}

struct tdb_clocks_job *tdb_clocks_start(const char *dir)
{
	struct tdb_clocks_job *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	snprintf(j->dir, sizeof(j->dir), "%s", dir);
	j->threaded = pthread_create(&j->thread, NULL, clocks_thread, j) == 0;
	return j;
}

int tdb_clocks_finish(struct tdb_clocks_job *j, sqlite3 *db, char *err,
		      size_t errlen)
{
	int rc = 0;

	if (!j)
		return 0;
	if (j->threaded)
		pthread_join(j->thread, NULL);
	else if (db)
		clocks_thread(j);
	if (!db) {
		/* only stop it */
	} else if (j->rc < 0) {
		snprintf(err, errlen, "%s", j->err);
		rc = 1; /* logs without a consistent order: no clocks */
	} else if (clocks_put(db, &j->hb) < 0) {
		snprintf(err, errlen, "%s/trace.db: cannot insert the clocks: %s",
			 j->dir, sqlite3_errmsg(db));
		rc = -1;
	}
	pg_hb_free(&j->hb);
	free(j);
	return rc;
}
