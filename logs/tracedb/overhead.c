/*
 * overhead.c: the monitor-overhead correction of a run's trace database
 * (`pangaea-trace import --correct-overhead`), after MAD (the 004 paper).
 *
 * Each task measured, when it opened its log, what a logged call costs
 * it (pangaea_lib/engine/calib.c, the comm log's calibration record).  Every
 * event of the task then comes that much later than it would have
 * without Pangaea, for each event logged before it: the correction
 * subtracts that accumulated cost from the task's times (an event's own
 * cost from its end).  A receive that waited for its message (it took
 * at least the run's smallest message latency, from the raw times) ends
 * when the message came: as much after its corrected send as in the raw
 * run, less the send's and the receive's own cost, so the sender's
 * overhead is taken off the receiver too (MAD); one that did not wait
 * keeps the receiver's own correction (the earlier of the two when the
 * duration misleads).  No receive completes before its send began plus
 * that smallest latency, and the task's later events move with its
 * receive.  Events are taken in an order where each send comes before
 * its receives (a receive waits until the sender's task has reached its
 * send).
 */
#include "overhead.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per task: where its events start and how far they are done. */
struct ovh_task {
	int first, n, done;
	int64_t shift; /* ns subtracted from its next event */
};

/* Corrects event I (its task T): returns 0, or 1 when its send is not
 * done yet (the event waits). */
static int ovh_one(struct ovh_event *ev, struct ovh_task *t, int i,
		   int64_t lat)
{
	struct ovh_event *e = &ev[i], *s = e->send >= 0 ? &ev[e->send] : NULL;
	int64_t raw0 = e->t0, raw1 = e->t1, t1;

	if (s && !s->done)
		return 1;
	e->t0 -= t->shift;
	e->shift = t->shift;
	t1 = raw1 - t->shift - e->cost;
	if (s && raw1 - raw0 >= lat) { /* it waited: the message decides */
		int64_t came = s->t0 + (raw1 - (s->t0 + s->shift)) - s->cost -
			       e->cost;

		t1 = came < t1 ? came : t1;
	}
	if (s && t1 < s->t0 + lat)
		t1 = s->t0 + lat;
	t->shift = raw1 - t1; /* (a cost longer than the event: shift on) */
	e->t1 = t1 < e->t0 ? e->t0 : t1;
	e->done = 1;
	return 0;
}

int pg_overhead_correct(struct ovh_event *ev, int n, int64_t lat)
{
	struct ovh_task *t;
	int nt = 0, left = n, moved;

	/* the tasks: runs of one ltid */
	if (!(t = calloc((size_t)n + 1, sizeof(*t))))
		return -1;
	for (int i = 0; i < n; i++) {
		ev[i].done = 0;
		if (i == 0 || ev[i].ltid != ev[i - 1].ltid)
			t[nt++].first = i;
		t[nt - 1].n++;
	}
	while (left > 0) {
		moved = 0;
		for (int k = 0; k < nt; k++)
			while (t[k].done < t[k].n &&
			       ovh_one(ev, &t[k], t[k].first + t[k].done, lat) == 0) {
				t[k].done++;
				left--;
				moved = 1;
			}
		if (!moved) /* a receive before its send: damaged logs */
			for (int k = 0; k < nt && !moved; k++)
				if (t[k].done < t[k].n) {
					ev[t[k].first + t[k].done].send = -1;
					moved = 1;
				}
	}
	free(t);
	return 0;
}

/* Runs SQL on DB; 0, or -1 with ERR. */
static int ovh_exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	snprintf(err, errlen, "%s", sqlite3_errmsg(db));
	return -1;
}

/* The calibrated cost of task LTID of DIR (0: none in its log). */
static int64_t ovh_cost(const char *dir, int ltid)
{
	struct pg_comm_reader r;
	struct pg_event e;
	char err[512];
	int64_t c;

	if (pg_run_comm(&r, dir, ltid, err, sizeof(err)) < 0)
		return 0;
	while (r.calib_ns == 0 && pg_comm_next(&r, &e, err, sizeof(err)) > 0)
		;
	c = (int64_t)r.calib_ns;
	pg_comm_free(&r);
	return c;
}

/* Loads the events of DB (by task and order) into *EV with their costs
 * and sends; their count, or -1 with ERR. */
static int ovh_load(sqlite3 *db, const char *dir, struct ovh_event **ev,
		    char *err, size_t errlen)
{
	sqlite3_stmt *s = NULL;
	int n = 0, ltid = -1;
	size_t cap = 0;
	int64_t cost = 0, maxid = 0, *index;
	struct ovh_event *v = NULL, *p;

	if (sqlite3_prepare_v2(db, "SELECT e.id, e.ltid, e.t0, e.t1, "
			       "(SELECT m.send_event FROM messages m WHERE "
			       "m.recv_event = e.id) FROM events e "
			       "ORDER BY e.ltid, e.seq", -1, &s, NULL) != SQLITE_OK)
		goto fail;
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (!(p = pg_grow(v, &cap, (size_t)n + 1, sizeof(*v), 1024)))
			goto fail;
		v = p;
		p = &v[n++];
		p->id = sqlite3_column_int64(s, 0);
		p->ltid = sqlite3_column_int(s, 1);
		p->t0 = sqlite3_column_int64(s, 2);
		p->t1 = sqlite3_column_int64(s, 3);
		p->send = sqlite3_column_type(s, 4) == SQLITE_NULL
				  ? -1 : sqlite3_column_int64(s, 4);
		if (p->ltid != ltid)
			cost = ovh_cost(dir, ltid = p->ltid);
		p->cost = cost;
		maxid = p->id > maxid ? p->id : maxid;
	}
	sqlite3_finalize(s);
	/* send: an event id -> its index */
	if (!(index = calloc((size_t)maxid + 1, sizeof(*index))))
		goto fail;
	for (int i = 0; i < n; i++)
		index[v[i].id] = i + 1;
	for (int i = 0; i < n; i++)
		v[i].send = v[i].send > 0 && v[i].send <= maxid
				    ? index[v[i].send] - 1 : -1;
	free(index);
	*ev = v;
	return n;
fail:
	snprintf(err, errlen, "cannot read the events: %s",
		 s ? sqlite3_errmsg(db) : "out of memory");
	sqlite3_finalize(s);
	free(v);
	return -1;
}

/* Writes the corrected times of EV (N) back into DB; 0 or -1 with ERR. */
static int ovh_store(sqlite3 *db, const struct ovh_event *ev, int n,
		     char *err, size_t errlen)
{
	sqlite3_stmt *s = NULL;
	int rc = 0;

	if (ovh_exec(db, "BEGIN", err, errlen) < 0 ||
	    sqlite3_prepare_v2(db, "UPDATE events SET t0 = ?, t1 = ? WHERE "
			       "id = ?", -1, &s, NULL) != SQLITE_OK)
		rc = -1;
	for (int i = 0; i < n && rc == 0; i++) {
		sqlite3_bind_int64(s, 1, ev[i].t0);
		sqlite3_bind_int64(s, 2, ev[i].t1);
		sqlite3_bind_int64(s, 3, ev[i].id);
		rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	if (rc == 0)
		rc = ovh_exec(db, "UPDATE messages SET "
			"t_send = (SELECT t0 FROM events WHERE id = send_event), "
			"t_recv = (SELECT t1 FROM events WHERE id = recv_event);"
			"UPDATE tasks SET "
			"t_first = (SELECT MIN(t0) FROM events e WHERE e.ltid = tasks.ltid), "
			"t_last = (SELECT MAX(t1) FROM events e WHERE e.ltid = tasks.ltid);"
			"INSERT OR REPLACE INTO meta VALUES ('overhead', 'corrected');"
			"COMMIT", err, errlen);
	else
		snprintf(err, errlen, "cannot write the times: %s",
			 sqlite3_errmsg(db));
	return rc;
}

int tdb_correct_overhead(const char *dir, struct tdb_overhead_stats *st,
			 char *err, size_t errlen)
{
	struct ovh_event *ev = NULL;
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	char path[PG_PATH_MAX];
	int n, rc = -1;

	memset(st, 0, sizeof(*st));
	if (tdb_path(path, sizeof(path), dir) < 0 ||
	    sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s", path);
		goto out;
	}
	/* the smallest latency of a message, raw (0 if none is positive) */
	if (sqlite3_prepare_v2(db, "SELECT MIN(t_recv - t_send) FROM messages "
			       "WHERE unmatched IS NULL AND t_recv > t_send",
			       -1, &s, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		goto out;
	}
	if (sqlite3_step(s) == SQLITE_ROW)
		st->latency = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if ((n = ovh_load(db, dir, &ev, err, errlen)) < 0)
		goto out;
	for (int i = 0; i < n; i++)
		st->raw_end = ev[i].t1 > st->raw_end ? ev[i].t1 : st->raw_end;
	if (pg_overhead_correct(ev, n, st->latency) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int i = 0; i < n; i++) {
		st->end = ev[i].t1 > st->end ? ev[i].t1 : st->end;
		st->cost = ev[i].cost > st->cost ? ev[i].cost : st->cost;
	}
	st->nevents = n;
	rc = ovh_store(db, ev, n, err, errlen);
out:
	free(ev);
	sqlite3_close(db);
	return rc;
}
