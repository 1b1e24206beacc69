/*
 * tracedb-sync.c: synchronises the times of a trace database
 * (docs/TRACEDB.md "Times"): loads its events' raw times (t0_raw,
 * t1_raw), its messages, barriers and spawns as a happened-before graph,
 * runs the controlled logical clock on it (logical-clock.c) and, when asked,
 * writes the new times into events, messages and tasks.  The importer
 * calls it for --sync clc (and by default) with the events and messages
 * it gathered while writing them (struct tdb_sync_feed: reading 2 M
 * events back took 0.6 s); "pangaea-trace sync" calls it without
 * writing, for its report, and the feed is read from the database; the
 * tables over the logs (tracedb-vtab.c) keep the new times in memory
 * instead of writing them (tdb_sync_times_keep).
 *
 * Points: event id I (1..N) has its entry at 2(I-1) and its exit at
 * 2(I-1)+1; a barrier instance has a virtual point after those.  A
 * message is an edge from its send's entry to its receive's exit; the
 * k-th successful barrier call of each member of a group is one instance
 * (exits after the last entry); a spawn's entry comes before its
 * children's first events (the barriers and spawns: hb-edges.c, as for
 * happens-before).  The minimum latency mu of a host pair is estimated
 * from the messages: half the smallest round trip (smallest one-way
 * time each way, added), but never more than the smallest one-way time
 * seen that way (so clocks that agree leave every message alone); on
 * one host, the smallest one-way time.
 */
#include "tracedb-internal.h"
#include "logical-clock.h"
#include "pangaea-logs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mode_names[] = {
	[TDB_SYNC_AUTO] = "auto", [TDB_SYNC_NONE] = "none",
	[TDB_SYNC_OFFSET] = "offset", [TDB_SYNC_LINEAR] = "linear",
	[TDB_SYNC_CLC] = "clc",
};

const char *tdb_sync_name(int mode)
{
	return mode >= 0 && mode <= TDB_SYNC_CLC ? mode_names[mode] : "?";
}

int tdb_sync_parse(const char *s)
{
	for (int m = 0; m <= TDB_SYNC_CLC; m++)
		if (strcmp(s, mode_names[m]) == 0)
			return m;
	return -1;
}

/* The graph being loaded, and what the report needs. */
struct sync_load {
	sqlite3 *db;
	int64_t nev;               /* events, ids 1..nev */
	struct clc_graph g;
	int64_t *t;                /* the points' times */
	uint8_t *start;
	struct clc_edge *edge;
	size_t nedge, edge_cap;
	int64_t *msg_id;           /* messages.id of the first nmsg edges */
	size_t nmsg, msg_cap;
	int *ev_host;              /* host index of each event */
	const int *ev_ltid;        /* the feed's */
	struct tdb_sync_feed *f;   /* the events and messages */
	struct tdb_task *tasks;
	int ntask;
	char **host;               /* host names */
	int nhost;
	int *task_host;            /* host index of each of tasks */
	int64_t *task_first;       /* its first event's id (0: none) */
	int64_t *task_last;        /* its latest exit (write_times) */
	const struct pg_clocksync *cs; /* clock samples (NULL: none) */
	const struct pg_clock_host **hcs; /* each host's fit, or NULL */
	const int64_t *raw;        /* the events' raw times (the feed's) */
	int64_t *dmin;             /* nhost x nhost smallest one-way time */
	int64_t *mu;               /* nhost x nhost minimum latency */
};

/* Adds the edge FROM -> TO (MU) to L; 0 or -1. */
static int add_edge(struct sync_load *l, size_t from, size_t to, int64_t mu)
{
	struct clc_edge *v = pg_grow(l->edge, &l->edge_cap, l->nedge + 1,
				     sizeof(*v), 1024);

	if (!v)
		return -1;
	l->edge = v;
	l->edge[l->nedge++] = (struct clc_edge){ (uint32_t)from, (uint32_t)to,
						  mu };
	return 0;
}

/* Index of HOST among L's hosts, added when new; -1 out of memory. */
static int host_index(struct sync_load *l, const char *host)
{
	char **v;

	for (int i = 0; i < l->nhost; i++)
		if (strcmp(l->host[i], host) == 0)
			return i;
	if (!(v = realloc(l->host, (size_t)(l->nhost + 1) * sizeof(*v))) ||
	    !(v[l->nhost] = strdup(host))) {
		if (v)
			l->host = v;
		return -1;
	}
	l->host = v;
	return l->nhost++;
}

/* Loads the tasks and their hosts of L; 0 or -1. */
static int load_hosts(struct sync_load *l)
{
	if ((l->ntask = tdb_tasks_load(l->db, &l->tasks)) < 0)
		return -1;
	l->task_host = calloc((size_t)l->ntask + 1, sizeof(int));
	l->task_first = calloc((size_t)l->ntask + 1, sizeof(int64_t));
	if (!l->task_host || !l->task_first)
		return -1;
	for (int i = 0; i < l->ntask; i++)
		if ((l->task_host[i] = host_index(l, l->tasks[i].host)) < 0)
			return -1;
	l->hcs = calloc((size_t)l->nhost + 1, sizeof(*l->hcs));
	if (!l->hcs)
		return -1;
	for (int i = 0; l->cs && i < l->nhost; i++)
		l->hcs[i] = pg_clocksync_host(l->cs, l->host[i]);
	return 0;
}

/* The time of the raw time T on host H of L: mapped to the reference
 * clock when H has clock samples, else T. */
static int64_t map_time(const struct sync_load *l, int h, int64_t t)
{
	return l->hcs[h] ? (int64_t)pg_clocksync_map(l->hcs[h], (uint64_t)t)
			 : t;
}

/* Prepares SQL on L's database into *S; 0 or -1. */
static int prep(struct sync_load *l, const char *sql, sqlite3_stmt **s)
{
	return sqlite3_prepare_v2(l->db, sql, -1, s, NULL) == SQLITE_OK ? 0
									: -1;
}

/* Adds the next row of the events query S (id, ltid, raw t0, raw t1,
 * kind, op, msgid, grp, result) to F; 0, or -1 (out of memory, or ids
 * not 1..N: not a database we made). */
static int feed_row(struct tdb_sync_feed *f, sqlite3_stmt *s)
{
	const char *kind = (const char *)sqlite3_column_text(s, 4),
		   *op = (const char *)sqlite3_column_text(s, 5),
		   *grp = (const char *)sqlite3_column_text(s, 7);
	struct pg_event ev = { 0 };

	if (sqlite3_column_int64(s, 0) != f->nev + 1 || f->nev >= INT32_MAX)
		return -1;
	if (kind && strcmp(kind, pg_rec_kind_name(PG_REC_SPAWN)) == 0)
		ev.kind = PG_REC_SPAWN;
	else if (kind && op &&
		 strcmp(kind, pg_rec_kind_name(PG_REC_GROUP)) == 0 &&
		 strcmp(op, pg_group_op_name(PG_GROUP_BARRIER)) == 0) {
		ev.kind = PG_REC_GROUP;
		ev.op = PG_GROUP_BARRIER;
		ev.result = sqlite3_column_int(s, 8);
		snprintf(ev.group, sizeof(ev.group), "%s", grp ? grp : "");
	}
	ev.msgid = (uint32_t)sqlite3_column_int64(s, 6);
	return tdb_sync_feed_event(f, sqlite3_column_int(s, 1), &ev,
				   sqlite3_column_int64(s, 2),
				   sqlite3_column_int64(s, 3));
}

/* Fills F from the events and messages tables of DB; 0 or -1. */
static int feed_load(struct tdb_sync_feed *f, sqlite3 *db)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT id, ltid, coalesce(t0_raw, t0), "
			       "coalesce(t1_raw, t1), kind, op, msgid, grp, "
			       "result FROM "
			       "events ORDER BY id", -1, &s, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && feed_row(f, s) == 0)
		;
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE ||
	    sqlite3_prepare_v2(db, "SELECT send_event, recv_event, id FROM "
			       "messages WHERE send_event IS NOT NULL AND "
			       "recv_event IS NOT NULL", -1, &s, NULL) !=
		    SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW &&
	       tdb_sync_feed_msg(f, sqlite3_column_int64(s, 0),
				 sqlite3_column_int64(s, 1),
				 sqlite3_column_int64(s, 2)) == 0)
		;
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

int tdb_sync_feed_event(struct tdb_sync_feed *f, int ltid,
			const struct pg_event *ev, int64_t t0, int64_t t1)
{
	if ((size_t)f->nev >= f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 4096;
		int *l = realloc(f->ltid, cap * sizeof(*l));
		int64_t *r;

		if (l)
			f->ltid = l;
		if (!l || !(r = realloc(f->raw, cap * 2 * sizeof(*r))))
			return -1;
		f->raw = r;
		f->cap = cap;
	}
	if (pg_hbe_event(&f->edges, ltid, (uint32_t)(f->nev + 1), ev) < 0)
		return -1;
	f->ltid[f->nev] = ltid;
	f->raw[2 * f->nev] = t0;
	f->raw[2 * f->nev + 1] = t1;
	f->nev++;
	return 0;
}

int tdb_sync_feed_msg(struct tdb_sync_feed *f, int64_t send, int64_t recv,
		      int64_t id)
{
	struct tdb_sync_msg *v = pg_grow(f->msg, &f->msg_cap, f->nmsg + 1,
					 sizeof(*v), 1024);

	if (!v)
		return -1;
	f->msg = v;
	f->msg[f->nmsg++] = (struct tdb_sync_msg){ send, recv, id };
	return 0;
}

void tdb_sync_feed_free(struct tdb_sync_feed *f)
{
	free(f->ltid);
	free(f->raw);
	pg_hbe_free(&f->edges);
	free(f->msg);
	memset(f, 0, sizeof(*f));
}

/* Makes the points of L's events (each its entry and exit) from its
 * feed's raw times, leaving room for NBAR barrier points; 0 or -1. */
static int load_events(struct sync_load *l, size_t nbar)
{
	const struct tdb_sync_feed *f = l->f;
	size_t n = (size_t)l->nev * 2 + nbar + 1;
	int prev = -1, k = -1;

	l->t = malloc(n * sizeof(*l->t));
	l->raw = f->raw;
	l->start = calloc(n, 1);
	l->ev_host = malloc(((size_t)l->nev + 1) * sizeof(int));
	l->ev_ltid = f->ltid;
	if (!l->t || !l->start || !l->ev_host)
		return -1;
	for (int64_t i = 0; i < l->nev; i++) {
		int ltid = f->ltid[i];

		if (ltid != prev) {
			k = tdb_tasks_find(l->tasks, l->ntask, ltid);
			if (k >= 0)
				l->task_first[k] = i + 1;
		}
		l->ev_host[i] = k < 0 ? 0 : l->task_host[k];
		l->start[2 * i] = ltid != prev;
		l->t[2 * i] = map_time(l, l->ev_host[i], l->raw[2 * i]);
		l->t[2 * i + 1] = map_time(l, l->ev_host[i], l->raw[2 * i + 1]);
		prev = ltid;
	}
	return 0;
}

/* Fills L's mu from the smallest one-way times of its messages
 * (header); 0 or -1. */
static int load_latencies(struct sync_load *l)
{
	size_t h = (size_t)(l->nhost ? l->nhost : 1);
	int64_t cross = INT64_MAX;

	l->dmin = malloc(h * h * sizeof(int64_t));
	l->mu = malloc(h * h * sizeof(int64_t));
	if (!l->dmin || !l->mu)
		return -1;
	for (size_t i = 0; i < h * h; i++)
		l->dmin[i] = INT64_MAX;
	for (size_t k = 0; k < l->nedge; k++) {
		const struct clc_edge *e = &l->edge[k];
		size_t a = (size_t)l->ev_host[e->from / 2],
		       b = (size_t)l->ev_host[e->to / 2];
		int64_t d = l->t[e->to] - l->t[e->from];

		if (d < l->dmin[a * h + b])
			l->dmin[a * h + b] = d;
	}
	for (size_t a = 0; a < h; a++)
		for (size_t b = 0; b < h; b++) {
			int64_t ab = l->dmin[a * h + b], ba = l->dmin[b * h + a],
				m = 0;

			if (a == b && ab != INT64_MAX)
				m = ab > 0 ? ab : 0;
			else if (ab != INT64_MAX && ba != INT64_MAX)
				m = ab / 2 + ba / 2 > 0 ? ab / 2 + ba / 2 : 0;
			else
				m = -1;   /* one way or none: see below */
			l->mu[a * h + b] = m;
			if (a != b && m >= 0 && m < cross)
				cross = m;
		}
	for (size_t i = 0; i < h * h; i++) {
		if (l->mu[i] < 0)
			l->mu[i] = cross == INT64_MAX ? 0 : cross;
		/* never above a one-way time seen that way: a trace whose
		 * clocks agree is left as it is */
		if (l->dmin[i] != INT64_MAX && l->mu[i] > l->dmin[i])
			l->mu[i] = l->dmin[i] > 0 ? l->dmin[i] : 0;
	}
	return 0;
}

/* Makes the feed's messages edges (mu 0 until load_latencies);
 * 0 or -1. */
static int load_messages(struct sync_load *l)
{
	const struct tdb_sync_feed *f = l->f;

	if (f->nmsg && !(l->msg_id = malloc(f->nmsg * sizeof(*l->msg_id))))
		return -1;
	for (size_t i = 0; i < f->nmsg; i++) {
		int64_t se = f->msg[i].send, re = f->msg[i].recv;

		if (se < 1 || se > l->nev || re < 1 || re > l->nev)
			continue;
		if (add_edge(l, (size_t)(se - 1) * 2, (size_t)(re - 1) * 2 + 1,
			     0) < 0)
			return -1;
		l->msg_id[l->nmsg++] = f->msg[i].id;
	}
	return 0;
}

/* Sets each message edge's mu from its hosts. */
static void set_mu(struct sync_load *l)
{
	size_t h = (size_t)(l->nhost ? l->nhost : 1);

	for (size_t k = 0; k < l->nedge; k++) {
		struct clc_edge *e = &l->edge[k];

		e->mu = l->mu[(size_t)l->ev_host[e->from / 2] * h +
			      (size_t)l->ev_host[e->to / 2]];
	}
}

/* The smallest mu of L (for collectives). */
static int64_t mu_min(const struct sync_load *l)
{
	size_t h = (size_t)(l->nhost ? l->nhost : 1);
	int64_t m = INT64_MAX;

	for (size_t i = 0; i < h * h; i++)
		m = l->mu[i] < m ? l->mu[i] : m;
	return m == INT64_MAX ? 0 : m;
}

/* Adds a virtual point per barrier instance (hb-edges.h), with edges
 * from its calls' entries and to their exits; 0 or -1. */
static int load_barriers(struct sync_load *l, size_t *n)
{
	const struct pg_hbe *x = &l->f->edges;
	int64_t mu = mu_min(l);
	size_t join = 0;

	for (size_t k = 0; k < x->ncall; k++) {
		size_t id = x->calls[k].seq; /* the event's id */

		if (k == 0 || x->calls[k].inst != x->calls[k - 1].inst) {
			join = (*n)++;
			l->start[join] = 1;
			l->t[join] = CLC_NONE;
		}
		if (add_edge(l, (id - 1) * 2, join, mu) < 0 ||
		    add_edge(l, join, (id - 1) * 2 + 1, 0) < 0)
			return -1;
	}
	return 0;
}

/* Adds an edge from each spawn's entry to the first event of each task
 * it started; 0 or -1. */
static int load_spawns(struct sync_load *l)
{
	sqlite3_stmt *s;
	int rc = SQLITE_DONE;

	if (prep(l, "SELECT children FROM spawns WHERE ltid = ? AND seq = ?",
		 &s) < 0)
		return -1;
	for (size_t i = 0; i < l->f->edges.nspawn && rc == SQLITE_DONE; i++) {
		const struct pg_hbe_spawn *sp = &l->f->edges.spawns[i];
		const char *p;
		int ltid, k, used;

		sqlite3_reset(s);
		sqlite3_bind_int(s, 1, sp->ltid);
		sqlite3_bind_int64(s, 2, sp->spawn);
		if ((rc = sqlite3_step(s)) != SQLITE_ROW)
			continue;   /* no exec log row: no children known */
		rc = SQLITE_DONE;
		p = (const char *)sqlite3_column_text(s, 0);
		while (p && sscanf(p, "%d%n", &ltid, &used) == 1) {
			p += used;
			k = tdb_tasks_find(l->tasks, l->ntask, ltid);
			if (k >= 0 && l->task_first[k] &&
			    add_edge(l, (size_t)(sp->seq - 1) * 2,
				     (size_t)(l->task_first[k] - 1) * 2, 0) < 0) {
				rc = SQLITE_NOMEM;
				break;
			}
			p = strchr(p, ' ');  /* past "@HOST" */
		}
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Loads the whole graph of L's database; 0 or -1. */
static int sync_load(struct sync_load *l)
{
	size_t n;

	l->nev = l->f->nev;
	if (pg_hbe_done(&l->f->edges) < 0 || load_hosts(l) < 0 ||
	    load_events(l, l->f->edges.ninst) < 0 ||
	    load_messages(l) < 0 ||
	    load_latencies(l) < 0)
		return -1;
	set_mu(l);
	n = (size_t)l->nev * 2;
	if (load_barriers(l, &n) < 0 || load_spawns(l) < 0)
		return -1;
	l->g = (struct clc_graph){ n, l->t, l->start, l->nedge, l->edge };
	return 0;
}

/* Frees what L holds. */
static void sync_free(struct sync_load *l)
{
	free(l->t);
	free(l->hcs);
	free(l->start);
	free(l->edge);
	free(l->msg_id);
	free(l->ev_host);
	tdb_tasks_free(l->tasks, l->ntask > 0 ? l->ntask : 0);
	for (int i = 0; i < l->nhost; i++)
		free(l->host[i]);
	free(l->host);
	free(l->task_host);
	free(l->task_first);
	free(l->task_last);
	free(l->dmin);
	free(l->mu);
}

/* Fills host I of REP from its clock samples: its clock minus the
 * reference at its first event, and its drift. */
static void report_samples(const struct sync_load *l, int i,
			   struct tdb_sync_host *o)
{
	for (int64_t p = 0; p < 2 * l->nev; p++)
		if (l->ev_host[p / 2] == i) {
			o->offset_ns = -pg_clocksync_offset(l->hcs[i],
							    (uint64_t)l->raw[p]);
			break;
		}
	o->has_offset = o->from_samples = 1;
	o->drift_ppm = -l->hcs[i]->drift * 1e6 + 0.0;  /* no "-0" */
}

/* Fills REP's hosts: the offset of each host to the first one found
 * from the messages each way, mu to it, and the drift of the
 * corrections (least squares of new - raw over raw) from RAW and L's
 * new times; from the clock samples of the hosts that have some
 * instead.  0 or -1. */
static int report_hosts(const struct sync_load *l, const int64_t *raw,
			struct tdb_sync_report *rep)
{
	size_t h = (size_t)(l->nhost ? l->nhost : 1);

	rep->hosts = calloc(h, sizeof(*rep->hosts));
	if (!rep->hosts)
		return -1;
	rep->nhost = l->nhost;
	for (int i = 0; i < l->nhost; i++) {
		struct tdb_sync_host *o = &rep->hosts[i];
		int64_t ab = l->dmin[i], ba = l->dmin[(size_t)i * h];
		double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;

		snprintf(o->host, sizeof(o->host), "%s", l->host[i]);
		o->has_offset = i == 0 || (ab != INT64_MAX && ba != INT64_MAX);
		o->offset_ns = i == 0 || !o->has_offset ? 0 : (ab - ba) / 2;
		o->mu_ns = l->mu[(size_t)i * h + (size_t)i];
		for (int64_t p = 0; p < 2 * l->nev; p++) {
			double x, y;

			if (l->ev_host[p / 2] != i)
				continue;
			x = (double)(raw[p] - raw[0]) / 1e9;
			y = (double)(l->t[p] - raw[p]);
			sx += x; sy += y; sxx += x * x; sxy += x * y; n++;
		}
		if (n > 1 && n * sxx - sx * sx > 0)
			o->drift_ppm = (n * sxy - sx * sy) / (n * sxx - sx * sx)
				       / 1e3;
		if (l->hcs[i])
			report_samples(l, i, o);
	}
	return 0;
}

/* Runs the prepared SQL on L's database with the three values A, B, C
 * for each row I (of N) where CHANGED(L, RAW, I) says so; 0 or -1. */
static int write_rows(struct sync_load *l, const char *sql, size_t n,
		      const int64_t *raw,
		      int (*row)(const struct sync_load *, const int64_t *,
				 size_t, int64_t v[3]))
{
	sqlite3_stmt *s;
	int64_t v[3];
	int rc = 0;

	if (prep(l, sql, &s) < 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (!row(l, raw, i, v))
			continue;
		for (int k = 0; k < 3; k++)
			sqlite3_bind_int64(s, k + 1, v[k]);
		rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return rc;
}

/* Event I's id and new times into V when they changed from RAW; 1 or 0. */
static int event_row(const struct sync_load *l, const int64_t *raw, size_t i,
		     int64_t v[3])
{
	v[0] = (int64_t)i + 1;
	v[1] = l->t[2 * i];
	v[2] = l->t[2 * i + 1];
	return v[1] != raw[2 * i] || v[2] != raw[2 * i + 1];
}

/* Message I's id and new send and receive times into V when one
 * changed from RAW; 1 or 0. */
static int message_row(const struct sync_load *l, const int64_t *raw,
		       size_t i, int64_t v[3])
{
	const struct clc_edge *e = &l->edge[i];

	v[0] = l->msg_id[i];
	v[1] = l->t[e->from];
	v[2] = l->t[e->to];
	return v[1] != raw[e->from] || v[2] != raw[e->to];
}

/* Task I's ltid, first entry and last exit into V; 1, or 0 when it
 * has no events. */
static int task_row(const struct sync_load *l, const int64_t *raw, size_t i,
		    int64_t v[3])
{
	v[0] = l->tasks[i].ltid;
	v[1] = l->task_first[i] ? l->t[2 * (l->task_first[i] - 1)] : 0;
	v[2] = l->task_last[i];
	return l->task_first[i] != 0;
}

/* Fills L->task_last: each task's latest exit; 0 or -1. */
static int task_lasts(struct sync_load *l)
{
	int k = -1;

	if (!(l->task_last = calloc((size_t)l->ntask + 1, sizeof(int64_t))))
		return -1;
	for (int64_t i = 0; i < l->nev; i++) {
		if (k < 0 || l->tasks[k].ltid != l->ev_ltid[i])
			k = tdb_tasks_find(l->tasks, l->ntask, l->ev_ltid[i]);
		if (k >= 0 && (l->task_last[k] == 0 ||
			       l->t[2 * i + 1] > l->task_last[k]))
			l->task_last[k] = l->t[2 * i + 1];
	}
	return 0;
}

/* Keeps L's new times in OUT, as write_times would write them (every
 * event's, the messages' with both ends by id, the tasks' with events);
 * 0 or -1 out of memory. */
static int keep_times(struct sync_load *l, const int64_t *raw,
		      struct tdb_sync_out *out)
{
	int64_t v[3];

	if (task_lasts(l) < 0 ||
	    !(out->msg = malloc((l->nmsg * 3 + 1) * sizeof(*out->msg))) ||
	    !(out->task = malloc(((size_t)l->ntask * 3 + 1) *
				 sizeof(*out->task))))
		return -1;
	for (size_t i = 0; i < l->nmsg; i++, out->nmsg++) {
		message_row(l, raw, i, v);
		memcpy(out->msg + 3 * i, v, sizeof(v));
	}
	for (size_t i = 0; i < (size_t)l->ntask; i++)
		if (task_row(l, raw, i, v))
			memcpy(out->task + 3 * out->ntask++, v, sizeof(v));
	/* the events' times are the points' first 2 nev: taken, not
	 * copied (160 MB for 10 M events) */
	out->ev = l->t;
	out->nev = l->nev;
	l->t = NULL;
	return 0;
}

void tdb_sync_out_free(struct tdb_sync_out *out)
{
	free(out->ev);
	free(out->msg);
	free(out->task);
	memset(out, 0, sizeof(*out));
}

/* Writes L's new times into events (rows that changed from RAW), and
 * the times of messages and tasks made from them; 0 or -1. */
static int write_times(struct sync_load *l, const int64_t *raw)
{
	if (write_rows(l, "UPDATE events SET t0 = ?2, t1 = ?3 WHERE id = ?1",
		       (size_t)l->nev, raw, event_row) < 0 ||
	    write_rows(l, "UPDATE messages SET t_send = ?2, t_recv = ?3 WHERE "
		       "id = ?1", l->nmsg, raw, message_row) < 0 ||
	    task_lasts(l) < 0 ||
	    write_rows(l, "UPDATE tasks SET t_first = ?2, t_last = ?3 WHERE "
		       "ltid = ?1", (size_t)l->ntask, raw, task_row) < 0)
		return -1;
	return 0;
}

static int sync_fed(sqlite3 *db, struct tdb_sync_feed *f,
		    const struct pg_clocksync *cs, int clc, int how,
		    struct tdb_sync_report *rep, struct tdb_sync_out *out,
		    char *err, size_t errlen);

void tdb_sync_report_free(struct tdb_sync_report *rep)
{
	free(rep->hosts);
	rep->hosts = NULL;
	rep->nhost = 0;
}

int tdb_sync_times(sqlite3 *db, const struct pg_clocksync *cs, int clc,
		   int how, struct tdb_sync_report *rep, char *err,
		   size_t errlen)
{
	return tdb_sync_times_keep(db, cs, clc, how, rep, NULL, err, errlen);
}

int tdb_sync_times_keep(sqlite3 *db, const struct pg_clocksync *cs, int clc,
			int how, struct tdb_sync_report *rep,
			struct tdb_sync_out *out, char *err, size_t errlen)
{
	struct tdb_sync_feed f = { 0 };
	int rc;

	memset(rep, 0, sizeof(*rep));
	if (feed_load(&f, db) < 0) {
		snprintf(err, errlen, "cannot load the trace for the clock: %s",
			 sqlite3_errmsg(db));
		tdb_sync_feed_free(&f);
		return -1;
	}
	rc = sync_fed(db, &f, cs, clc, how, rep, out, err, errlen);
	tdb_sync_feed_free(&f);
	return rc;
}

int tdb_sync_edges(sqlite3 *db, struct pg_hbe *e)
{
	struct tdb_sync_feed f = { 0 };
	int rc = feed_load(&f, db) < 0 || pg_hbe_done(&f.edges) < 0 ? -1 : 0;

	*e = f.edges;
	f.edges = (struct pg_hbe){ 0 };
	tdb_sync_feed_free(&f);
	return rc;
}

int tdb_sync_times_fed(sqlite3 *db, struct tdb_sync_feed *f,
		       const struct pg_clocksync *cs, int clc, int how,
		       struct tdb_sync_report *rep, char *err, size_t errlen)
{
	return sync_fed(db, f, cs, clc, how, rep, NULL, err, errlen);
}

/* tdb_sync_times_fed, the new times (when made) kept in OUT instead of
 * written when OUT is not NULL. */
static int sync_fed(sqlite3 *db, struct tdb_sync_feed *f,
		    const struct pg_clocksync *cs, int clc, int how,
		    struct tdb_sync_report *rep, struct tdb_sync_out *out,
		    char *err, size_t errlen)
{
	struct sync_load l = { .db = db, .cs = cs, .f = f };
	struct clc_stats st = { 0 };
	int64_t *raw = NULL;
	int rc = -1;

	memset(rep, 0, sizeof(*rep));
	if (sync_load(&l) < 0) {
		snprintf(err, errlen, "cannot load the trace for the clock: %s",
			 sqlite3_errmsg(db));
		goto out;
	}
	if (!(raw = malloc((l.g.n + 1) * sizeof(*raw))))
		goto oom;
	memcpy(raw, l.raw, (size_t)l.nev * 2 * sizeof(*raw));
	memcpy(raw + l.nev * 2, l.t + l.nev * 2,
	       (l.g.n - (size_t)l.nev * 2) * sizeof(*raw));
	rep->violations_raw = clc_violations(&l.g, raw);
	if (clc && clc_run(&l.g, NULL, &st) < 0)
		goto oom;
	if (!clc)
		st.violations_before = st.violations_after =
			clc_violations(&l.g, l.t);
	if (report_hosts(&l, raw, rep) < 0 || rep->violations_raw == SIZE_MAX ||
	    st.violations_before == SIZE_MAX)
		goto oom;
	rep->violations_before = st.violations_before;
	rep->violations_after = st.violations_after;
	rep->njumps = st.njumps;
	rep->ncorrected = st.ncorrected;
	rep->ncycles = st.ncycles;
	rep->max_corr = st.max_corr;
	rep->mean_corr = st.mean_corr;
	rep->npoints = (size_t)l.nev * 2;
	rep->written = how == TDB_SYNC_WRITE ||
		       (how == TDB_SYNC_IF_VIOLATED && st.violations_before);
	rep->clc = clc;
	rep->samples = cs && cs->nhosts > 0;
	if (rep->written && out) {
		if (keep_times(&l, raw, out) < 0) {
			tdb_sync_out_free(out);
			goto oom;
		}
	} else if (rep->written && write_times(&l, raw) < 0) {
		snprintf(err, errlen, "cannot write the synchronised times: %s",
			 sqlite3_errmsg(db));
		goto out;
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	if (rc < 0)
		tdb_sync_report_free(rep);
	free(raw);
	sync_free(&l);
	return rc;
}
