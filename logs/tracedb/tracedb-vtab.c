/*
 * tracedb-vtab.c: SQL over a run's logs themselves, without importing
 * them (docs/TRACEDB.md "Without importing").  tdb_open_logs opens an
 * in-memory database whose events, messages and tasks tables are SQLite
 * virtual tables that read the communication logs as a query steps
 * through them, and whose meta table holds what the headers and run.info
 * say.  The rows are those the importer would write (tracedb.c, with the
 * same ids: tasks by ascending ltid, each log in order; the messages in
 * the order the matcher completes them, the ends left alone last), with
 * the "offset" times (t0 = t0_raw): no clock is run, so a run whose
 * import puts the times through the controlled logical clock shows its
 * raw times here.  A scan reads the logs again (mapped, so the page
 * cache serves it); but a lookup by key (events.id; messages.id,
 * send_event, recv_event: a join's inner loop, a correlated subquery)
 * reads the rows tracedb-keys.c keeps in memory, built by the first
 * lookup of the database (one pass over the logs), and so does a whole
 * scan of events or messages once they are kept or a plan looks rows
 * up by key.
 */
#include "tracedb-internal.h"
#include "pangaea-logs.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tables. */
enum lv_kind { LV_EVENTS, LV_MESSAGES, LV_TASKS, LV_CLOCKS, LV_NKIND };

static const char *const lv_names[] = { "events", "messages", "tasks",
					"clocks" };

/* Their columns, as tracedb-schema.c makes them. */
static const char *const lv_decl[] = {
	"CREATE TABLE x(id INTEGER, ltid INTEGER, seq INTEGER, kind TEXT,"
	" peer INTEGER, tag INTEGER, msgid INTEGER, len INTEGER, t0 INTEGER,"
	" t1 INTEGER, count INTEGER, grp TEXT, op TEXT, arg INTEGER,"
	" result INTEGER, dests TEXT, t0_raw INTEGER, t1_raw INTEGER)",
	"CREATE TABLE x(id INTEGER, src INTEGER, dst INTEGER, tag INTEGER,"
	" msgid INTEGER, len INTEGER, kind TEXT, send_event INTEGER,"
	" recv_event INTEGER, t_send INTEGER, t_recv INTEGER, unmatched TEXT)",
	"CREATE TABLE x(ltid INTEGER, parent_ltid INTEGER, tid INTEGER,"
	" program TEXT, host TEXT, start_wall_ns INTEGER, end_how TEXT,"
	" end_value INTEGER, t_first INTEGER, t_last INTEGER,"
	" nevents INTEGER)",
	"CREATE TABLE x(ltid INTEGER, seq INTEGER, clock TEXT)",
};

/* What the tables of one database share (the module's aux data): the
 * log folder, the times the clock made (none: the raw times), and the
 * rows by key once a statement looked one up (tracedb-keys.c). */
struct lv_ctx {
	char *dir;
	struct tdb_sync_out times;
	struct tdb_keys keys;
	int keyed;              /* KEYS is built */
	int want_keys;          /* a plan looks rows up by key: a scan of
				   messages builds KEYS and reads them */
};

/* One of the tables. */
struct lv_tab {
	sqlite3_vtab base;
	enum lv_kind kind;
	const char *dir;
	const struct tdb_sync_out *times;
	struct lv_ctx *ctx;
};

/* A walk through the run's events in the importer's order. */
struct lv_walk {
	struct pg_run run;
	int i;              /* index of the task being read (-1: none yet) */
	int only;           /* ltid whose events are wanted (-1: all) */
	int selective;      /* a header has a selection */
	uint64_t base;      /* the wall-clock time of t = 0 of task i */
	int64_t id, seq;    /* events.id and seq of EV */
	int64_t t0, t1;     /* its times */
	struct pg_event ev;
};

/* A message row waiting to be given. */
struct lv_msg {
	struct pg_match_end s, r;
	int has_s, has_r;
	const char *why;
};

/* The idxNum bits of a scan of events: "ltid = X" is given; the rows
 * are only grouped (GROUP BY, DISTINCT) on kind and ltid, the only
 * columns used: counted in one pass, then given kind by kind (task by
 * task with LV_LTID_OUTER), no SQLite sorter. */
enum { LV_BY_LTID = 1, LV_GROUPED = 2, LV_LTID_OUTER = 4,
	/* a lookup by key (the rows kept in memory, tracedb-keys.c):
	 * events.id; messages.id, send_event, recv_event */
	LV_BY_ID = 8, LV_BY_SEND = 16, LV_BY_RECV = 32 };
#define LV_KEYED (LV_BY_ID | LV_BY_SEND | LV_BY_RECV)

/* A cursor of any of the tables. */
struct lv_cur {
	sqlite3_vtab_cursor base;
	struct lv_walk w;
	int eof;
	int64_t rowid;
	/* a lookup by key, or messages given from the rows kept: the row
	 * at (ROWID), the next (0: none; -1: ROWID + 1 up to the last) */
	int keyed;
	int64_t knext;
	/* grouped events: per task index and kind its events; the group
	 * at (gi, gk) and the rows of it left */
	int64_t *cnt;
	int grouped, outer_ltid, gi, gk;
	int64_t left;
	int korder[PG_REC_LAST + 1]; /* the kinds by name (as SQLite sorts
					the column: NULL first, then memcmp) */
	struct tdb_row row;     /* the current row (events: made when asked) */
	int row_made;           /* events: ROW made; tasks: its summary */
	struct pg_strbuf tmp;   /* events: its destinations */
	/* messages: the matcher, and the rows it completed not given yet */
	struct pg_match m;
	struct lv_msg *q;
	size_t nq, hq, capq;
	int drained;            /* the ends left alone are queued */
	size_t mi;              /* messages: the next of times->msg */
	/* clocks: the run's vector clocks, the task and event at */
	struct pg_hb hb;
	int ci;
	uint32_t cn;
	/* tasks: every task's row, by ltid */
	struct lv_task { int ltid, comm; const struct pg_runinfo_task *ri; }
		*tasks;
	int ntask, k;
	struct pg_runinfo *ri;  /* malloc'd (large: a cursor is opened for
				   each pass of a correlated subquery) */
	int ri_found;
	int used;               /* a scan began: lv_reset has work */
	char host0[PG_HOST_MAX];
};

/* Sets the error of table T to ERR; SQLITE_ERROR. */
static int lv_fail(sqlite3_vtab *t, const char *err)
{
	sqlite3_free(t->zErrMsg);
	t->zErrMsg = sqlite3_mprintf("%s", err);
	return SQLITE_ERROR;
}

/* Opens every communication log of DIR into W, ONLY the ltid wanted
 * (-1: all); 0, or -1 with ERR (W then holds nothing). */
static int walk_open(struct lv_walk *w, const char *dir, int only, char *err,
		     size_t errlen)
{
	memset(w, 0, sizeof(*w));
	w->i = -1;
	w->only = only;
	if (pg_run_open(&w->run, dir, err, errlen) < 0)
		return -1;
	if (pg_run_open_all(&w->run, err, errlen) < 0) {
		pg_run_close(&w->run);
		return -1;
	}
	for (int i = 0; i < w->run.n; i++)
		w->selective |= w->run.rd[i].hdr.select[0] != '\0';
	return 0;
}

/* The next event of W into W->ev: 1, 0 at the end, -1 with ERR (a
 * damaged log). */
static int walk_next(struct lv_walk *w, char *err, size_t errlen)
{
	for (;;) {
		if (w->i >= 0 && w->i < w->run.n) {
			struct pg_comm_reader *r = &w->run.rd[w->i];
			int rc = pg_comm_next(r, &w->ev, err, errlen);

			if (rc < 0)
				return -1;
			if (rc > 0) {
				w->id++;
				w->seq++;
				if (w->only >= 0 && w->run.ltids[w->i] != w->only)
					continue; /* counted, not given */
				w->t0 = (int64_t)(w->base + w->ev.t);
				w->t1 = w->t0 + (int64_t)w->ev.dur;
				return 1;
			}
			pg_comm_free(r); /* (the header stays) */
			if (w->only >= 0 && w->run.ltids[w->i] == w->only)
				return 0;
		}
		if (++w->i >= w->run.n)
			return 0;
		w->seq = 0;
		w->base = pg_run_base(&w->run, w->i);
	}
}

/* xCreate, xConnect: ARGV[3] names the table. */
static int lv_connect(sqlite3 *db, void *aux, int argc,
		      const char *const *argv, sqlite3_vtab **out, char **msg)
{
	struct lv_tab *t;
	int k = 0;

	while (argc > 3 && k < LV_NKIND && strcmp(argv[3], lv_names[k]) != 0)
		k++;
	if (argc <= 3 || k == LV_NKIND) {
		*msg = sqlite3_mprintf("pangaea_logs: which table?");
		return SQLITE_ERROR;
	}
	if (sqlite3_declare_vtab(db, lv_decl[k]) != SQLITE_OK)
		return SQLITE_ERROR;
	if (!(t = sqlite3_malloc(sizeof(*t))))
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->kind = (enum lv_kind)k;
	t->dir = ((struct lv_ctx *)aux)->dir;
	t->times = &((struct lv_ctx *)aux)->times;
	t->ctx = aux;
	*out = &t->base;
	return SQLITE_OK;
}

/* xDisconnect, xDestroy. */
static int lv_disconnect(sqlite3_vtab *t)
{
	sqlite3_free(t);
	return SQLITE_OK;
}

/* Whether the scan of events IX asks for may give its rows grouped on
 * kind or ltid alone (LV_GROUPED, with LV_LTID_OUTER when ltid comes
 * first): GROUP BY or DISTINCT on them and no other column used. */
static int lv_groupable(sqlite3_index_info *ix)
{
	const sqlite3_uint64 cols = (1u << 1) | (1u << 3); /* ltid, kind */
	int d = sqlite3_vtab_distinct(ix);

	if (ix->nOrderBy < 1 || (d != 1 && d != 2) || (ix->colUsed & ~cols))
		return 0;
	for (int i = 0; i < ix->nOrderBy; i++)
		if (ix->aOrderBy[i].iColumn != 1 && ix->aOrderBy[i].iColumn != 3)
			return 0;
	return LV_GROUPED | (ix->aOrderBy[0].iColumn == 1 ? LV_LTID_OUTER : 0);
}

/* The lookup by key (LV_BY_*) an equality on column COL of a table of
 * KIND is (-1 or the rowid: its id), or 0. */
static int lv_key_of(enum lv_kind kind, int col)
{
	if (kind == LV_EVENTS && (col == -1 || col == 0))
		return LV_BY_ID;
	if (kind != LV_MESSAGES)
		return 0;
	return col == -1 || col == 0 ? LV_BY_ID : col == 7 ? LV_BY_SEND
		: col == 8 ? LV_BY_RECV : 0;
}

/* xBestIndex: events take "id = X" and messages "id = X", "send_event
 * = X", "recv_event = X": looked up in the rows kept in memory (built
 * by the first such lookup: one pass over the logs; its plan says
 * "INDEX n:key"); events take "ltid = X" (the logs of other tasks are
 * not given) and may be given grouped (lv_groupable); every table gives
 * its rows in rowid order. */
static int lv_best(sqlite3_vtab *vt, sqlite3_index_info *ix)
{
	struct lv_tab *t = (struct lv_tab *)vt;
	int g = t->kind == LV_EVENTS ? lv_groupable(ix) : 0, key = -1;

	ix->idxNum = 0;
	ix->estimatedCost = 1e7;
	/* a key: the id first (one row), then a receive, then a send */
	for (int i = 0; i < ix->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &ix->aConstraint[i];
		int k = lv_key_of(t->kind, c->iColumn);

		if (c->usable && c->op == SQLITE_INDEX_CONSTRAINT_EQ && k &&
		    (key < 0 || k < ix->idxNum))
			key = i, ix->idxNum = k;
	}
	if (key >= 0) {
		ix->aConstraintUsage[key].argvIndex = 1;
		ix->aConstraintUsage[key].omit = 1;
		ix->estimatedCost = 10;
		ix->estimatedRows = 1;
		if (ix->idxNum != LV_BY_SEND)
			ix->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
		ix->idxStr = "key";
		t->ctx->want_keys = 1;
		if (ix->nOrderBy == 1 && !ix->aOrderBy[0].desc &&
		    (ix->aOrderBy[0].iColumn == -1 ||
		     ix->aOrderBy[0].iColumn == 0))
			ix->orderByConsumed = 1;
		return SQLITE_OK;
	}
	for (int i = 0; i < ix->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &ix->aConstraint[i];

		if (t->kind == LV_EVENTS && c->usable && c->iColumn == 1 &&
		    c->op == SQLITE_INDEX_CONSTRAINT_EQ) {
			ix->aConstraintUsage[i].argvIndex = 1;
			ix->aConstraintUsage[i].omit = 1;
			ix->idxNum = LV_BY_LTID;
			ix->estimatedCost = 1e6;
			break;
		}
	}
	if (g) {
		ix->idxNum |= g;
		ix->orderByConsumed = 1;
	} else if (ix->nOrderBy == 1 && !ix->aOrderBy[0].desc &&
		   (ix->aOrderBy[0].iColumn == -1 ||
		    ix->aOrderBy[0].iColumn == 0))
		ix->orderByConsumed = 1;
	return SQLITE_OK;
}

/* xOpen. */
static int lv_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct lv_cur *c = sqlite3_malloc(sizeof(*c));

	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	c->w.i = -1;
	*out = &c->base;
	return SQLITE_OK;
}

/* Frees what cursor C holds, leaving it as lv_open made it (but the
 * buffer of a lookup's row, kept for the next: lv_close frees it). */
static void lv_reset(struct lv_cur *c)
{
	if (c->keyed || !c->used) { /* it holds nothing but its row's
				       buffer (kept) */
		c->keyed = c->eof = c->row_made = 0;
		c->rowid = c->knext = 0;
		return;
	}
	pg_run_close(&c->w.run);
	pg_match_free(&c->m);
	free(c->q);
	free(c->tasks);
	if (c->ri_found)
		pg_runinfo_free(c->ri);
	free(c->ri);
	pg_strbuf_free(&c->tmp);
	pg_hb_free(&c->hb);
	free(c->cnt);
	/* (base, the first member, is SQLite's) */
	memset((char *)c + sizeof(c->base), 0, sizeof(*c) - sizeof(c->base));
	c->w.i = -1;
}

/* xClose. */
static int lv_close(sqlite3_vtab_cursor *cur)
{
	lv_reset((struct lv_cur *)cur);
	pg_strbuf_free(&((struct lv_cur *)cur)->tmp);
	sqlite3_free(cur);
	return SQLITE_OK;
}

/* Queues a message row of the matcher's (S, R either NULL, WHY); 0 or -1
 * when memory runs out. */
static int msg_queue(struct lv_cur *c, const struct pg_match_end *s,
		     const struct pg_match_end *r, const char *why)
{
	struct lv_msg *v;

	if (c->hq == c->nq)
		c->hq = c->nq = 0;
	if (!(v = pg_grow(c->q, &c->capq, c->nq + 1, sizeof(*v), 64)))
		return -1;
	c->q = v;
	v = &c->q[c->nq++];
	memset(v, 0, sizeof(*v));
	if ((v->has_s = s != NULL))
		v->s = *s;
	if ((v->has_r = r != NULL))
		v->r = *r;
	v->why = why;
	return 0;
}

/* The matcher's answer (pg_match_fn, ARG the cursor): as the importer's
 * (tracedb-match.c): a row for a completed message and a foreign
 * receive; 0, or 1 when memory runs out. */
static int msg_told(void *arg, enum pg_match_what what,
		    const struct pg_match_end *e,
		    const struct pg_match_end *other)
{
	struct lv_cur *c = arg;
	struct pg_match_run run = { c->w.run.ltids, c->w.run.n,
				    c->w.selective };

	if (what == PG_MATCH_PAIRED)
		return (pg_match_is_send(e) ? msg_queue(c, e, other, NULL)
					    : msg_queue(c, other, e, NULL)) ? 1 : 0;
	if (what == PG_MATCH_FOREIGN)
		return msg_queue(c, NULL, e, pg_match_why(&c->m, e, &run)) ? 1
									   : 0;
	return 0;
}

/* Queues the ends the matcher left alone, with their reasons; 0 or -1. */
static int msg_drain(struct lv_cur *c)
{
	struct pg_match_run run = { c->w.run.ltids, c->w.run.n,
				    c->w.selective };
	struct pg_match_end *left;
	long n = pg_match_left(&c->m, &left);
	int rc = n < 0 ? -1 : 0;

	for (long i = 0; i < n && rc == 0; i++) {
		const char *why = pg_match_why(&c->m, &left[i], &run);

		rc = pg_match_is_send(&left[i])
		     ? msg_queue(c, &left[i], NULL, why)
		     : msg_queue(c, NULL, &left[i], why);
	}
	free(left);
	c->drained = 1;
	return rc;
}

/* Moves messages cursor C to its next row; SQLite's code. */
static int msg_next(struct lv_cur *c)
{
	char err[1024];

	while (c->hq == c->nq && !c->drained) {
		int rc = walk_next(&c->w, err, sizeof(err));

		if (rc < 0)
			return lv_fail(c->base.pVtab, err);
		if (rc == 0 ? msg_drain(c) < 0
			    : pg_match_event(&c->m, c->w.run.ltids[c->w.i],
					     c->w.id, &c->w.ev, c->w.t0, c->w.t1,
					     msg_told, c) != 0)
			return SQLITE_NOMEM;
	}
	if (c->hq == c->nq) {
		c->eof = 1;
		return SQLITE_OK;
	}
	{
		const struct lv_msg *m = &c->q[c->hq++];
		const struct tdb_sync_out *x =
			((struct lv_tab *)c->base.pVtab)->times;

		tdb_message_row(&c->row, ++c->rowid, m->has_s ? &m->s : NULL,
				m->has_r ? &m->r : NULL, m->why);
		/* the clock's times (of the messages with both ends) */
		while (c->mi < x->nmsg && x->msg[3 * c->mi] < c->rowid)
			c->mi++;
		if (c->mi < x->nmsg && x->msg[3 * c->mi] == c->rowid) {
			tdb_row_int(&c->row, 9, x->msg[3 * c->mi + 1]);
			tdb_row_int(&c->row, 10, x->msg[3 * c->mi + 2]);
		}
	}
	return SQLITE_OK;
}

/* Orders tasks by ltid. */
static int task_cmp(const void *a, const void *b)
{
	const struct lv_task *x = a, *y = b;

	return (x->ltid > y->ltid) - (x->ltid < y->ltid);
}

/* Whether LTID is among the N tasks V; 1 or 0. */
static int task_has(const struct lv_task *v, int n, int ltid)
{
	for (int i = 0; i < n; i++)
		if (v[i].ltid == ltid)
			return 1;
	return 0;
}

/* Lists the tasks of C's run, as the importer makes their rows: those
 * with a communication log, the launcher (task 0, with an execution
 * log), the others run.info names; 0, or -1 with ERR. */
static int task_list(struct lv_cur *c, const char *dir, char *err,
		     size_t errlen)
{
	int *x = NULL, nx = pg_run_ltids(dir, "exec", &x);
	size_t cap = (size_t)c->w.run.n + 1;
	int n = 0;

	if (!(c->ri = malloc(sizeof(*c->ri)))) {
		free(x);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if ((c->ri_found = pg_runinfo_read(dir, c->ri, err, errlen)) < 0) {
		c->ri_found = 0;
		free(x);
		return -1;
	}
	cap += c->ri_found ? c->ri->ntasks : 0;
	if (!(c->tasks = calloc(cap, sizeof(*c->tasks)))) {
		free(x);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < c->w.run.n; i++)
		c->tasks[n++] = (struct lv_task){ c->w.run.ltids[i], i, NULL };
	if (nx > 0 && pg_run_has(x, nx, 0) && !task_has(c->tasks, n, 0))
		c->tasks[n++] = (struct lv_task){ 0, -1, NULL };
	for (size_t i = 0; c->ri_found && i < c->ri->ntasks; i++)
		if (!task_has(c->tasks, n, c->ri->tasks[i].ltid))
			c->tasks[n++] = (struct lv_task){ c->ri->tasks[i].ltid,
							  -1, &c->ri->tasks[i] };
	free(x);
	qsort(c->tasks, (size_t)n, sizeof(*c->tasks), task_cmp);
	c->ntask = n;
	c->k = -1;
	return 0;
}

/* Makes the columns of task C->tasks[C->k]'s row that its header or
 * run.info give (the summary waits for task_sum). */
static void task_row(struct lv_cur *c)
{
	const struct lv_task *t = &c->tasks[c->k];
	struct tdb_row *r = &c->row;

	memset(r, 0, sizeof(*r));
	r->n = 11;
	r->null = (1u << 11) - 1;
	c->row_made = 0;
	tdb_row_int(r, 0, t->ltid);
	if (t->comm >= 0) {
		const struct pg_comm_header *h = &c->w.run.rd[t->comm].hdr;

		tdb_row_int(r, 1, h->parent_ltid);
		tdb_row_int(r, 2, h->tid);
		tdb_row_text(r, 3, h->program);
		tdb_row_text(r, 4, h->host);
		tdb_row_int(r, 5, (int64_t)pg_run_base(&c->w.run, t->comm));
	} else if (t->ri) {
		tdb_row_int(r, 2, t->ri->tid);
		tdb_row_text(r, 3, t->ri->program);
		tdb_row_text(r, 4, t->ri->host);
	} else if (t->ltid == 0) {
		tdb_row_text(r, 3, "pangaea");
		tdb_row_text(r, 4, c->ri_found && c->ri->launcher_host[0]
				? c->ri->launcher_host : NULL);
	}
	c->rowid = t->ltid;
}

/* Adds the summary of task C->tasks[C->k]'s events to its row (end_how,
 * end_value, t_first, t_last, nevents: its log read whole); SQLite's
 * code. */
static int task_sum(struct lv_cur *c)
{
	const struct lv_task *t = &c->tasks[c->k];
	const struct tdb_sync_out *times =
		((struct lv_tab *)c->base.pVtab)->times;
	struct tdb_row *r = &c->row;
	int64_t n = 0, first = 0, last = 0;
	int how = 0, value = 0;

	if (t->comm >= 0) {
		struct pg_comm_reader *rd = &c->w.run.rd[t->comm];
		uint64_t base = pg_run_base(&c->w.run, t->comm);
		char err[1024];
		int rc;

		while ((rc = pg_comm_next(rd, &c->w.ev, err, sizeof(err))) > 0) {
			int64_t t0 = (int64_t)(base + c->w.ev.t);

			if (++n == 1)
				first = t0;
			if (t0 + (int64_t)c->w.ev.dur > last)
				last = t0 + (int64_t)c->w.ev.dur;
			if (c->w.ev.kind == PG_REC_END) {
				how = c->w.ev.how;
				value = c->w.ev.value;
			}
		}
		if (rc < 0)
			return lv_fail(c->base.pVtab, err);
		pg_comm_free(rd); /* (the header stays) */
	}
	tdb_row_text(r, 6, pg_end_how_name(how));
	if (pg_end_how_name(how))
		tdb_row_int(r, 7, value);
	for (int i = 0; i < times->ntask; i++)
		if (times->task[3 * i] == t->ltid) {
			first = times->task[3 * i + 1];
			last = times->task[3 * i + 2];
		}
	if (n > 0) {
		tdb_row_int(r, 8, first);
		tdb_row_int(r, 9, last);
	}
	tdb_row_int(r, 10, n);
	c->row_made = 1;
	return SQLITE_OK;
}

/* Moves clocks cursor C to the next event that learnt of another
 * task's (a row, its text in C->tmp); SQLite's code. */
static int clock_next(struct lv_cur *c)
{
	const struct pg_hb *hb = &c->hb;

	for (; c->ci < hb->ntask; c->ci++, c->cn = 0)
		while (c->cn < hb->nev[c->ci]) {
			int rc = tdb_clock_text(hb, c->ci, ++c->cn, &c->tmp);

			if (rc < 0)
				return SQLITE_NOMEM;
			if (rc == 0)
				continue;
			memset(&c->row, 0, sizeof(c->row));
			c->row.n = 3;
			tdb_row_int(&c->row, 0, hb->ltids[c->ci]);
			tdb_row_int(&c->row, 1, c->cn);
			tdb_row_text(&c->row, 2, c->tmp.p);
			c->rowid++;
			return SQLITE_OK;
		}
	c->eof = 1;
	return SQLITE_OK;
}

/* Orders kinds by name, NULL first (qsort on ints). */
static int kind_cmp(const void *a, const void *b)
{
	const char *x = pg_rec_kind_name(*(const int *)a),
		   *y = pg_rec_kind_name(*(const int *)b);

	if (!x || !y)
		return (x != NULL) - (y != NULL);
	return strcmp(x, y);
}

/* Counts the events of C's walk per task and kind (LV_GROUPED); 0,
 * or -1 with ERR. */
static int group_count(struct lv_cur *c, char *err, size_t errlen)
{
	int rc;

	if (!(c->cnt = calloc((size_t)c->w.run.n * (PG_REC_LAST + 1) + 1,
			      sizeof(*c->cnt)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while ((rc = walk_next(&c->w, err, errlen)) > 0)
		if (c->w.ev.kind <= PG_REC_LAST)
			c->cnt[(size_t)c->w.i * (PG_REC_LAST + 1) +
			       c->w.ev.kind]++;
	for (int k = 0; k <= PG_REC_LAST; k++)
		c->korder[k] = k;
	qsort(c->korder, PG_REC_LAST + 1, sizeof(c->korder[0]), kind_cmp);
	c->gi = c->gk = 0;
	c->left = 0;
	return rc;
}

/* Moves grouped cursor C to its next row: the next event of the group
 * (task gi, kind korder[gk]), or the first of the next group that has
 * one (kinds in the outer loop, unless outer_ltid): the groups in the
 * order SQLite's sorter would give them; SQLite's code. */
static int group_next(struct lv_cur *c)
{
	int n = c->w.run.n, nk = PG_REC_LAST + 1;

	while (c->left == 0) {
		if (c->outer_ltid ? ++c->gk >= nk && (c->gk = 0, ++c->gi >= n)
				  : ++c->gi >= n && (c->gi = 0, ++c->gk >= nk)) {
			c->eof = 1;
			return SQLITE_OK;
		}
		c->left = c->cnt[(size_t)c->gi * (size_t)nk +
				 (size_t)c->korder[c->gk]];
	}
	c->left--;
	c->rowid++;
	memset(&c->row, 0, sizeof(c->row));
	c->row.n = TDB_EVENT_COLS;
	c->row.null = (1u << TDB_EVENT_COLS) - 1;
	tdb_row_int(&c->row, 1, c->w.run.ltids[c->gi]);
	tdb_row_text(&c->row, 3, pg_rec_kind_name(c->korder[c->gk]));
	c->row_made = 1;
	return SQLITE_OK;
}

/* The whole number V as *OUT: 1, or 0 when V is none (no key or ltid
 * equals anything else). */
static int lv_whole(sqlite3_value *v, int64_t *out)
{
	int type = sqlite3_value_numeric_type(v);
	double d = sqlite3_value_double(v);

	if (type == SQLITE_INTEGER) {
		*out = sqlite3_value_int64(v);
		return 1;
	}
	if (type != SQLITE_FLOAT || d < -9e18 || d > 9e18 ||
	    d != (double)(int64_t)d)
		return 0;
	*out = (int64_t)d;
	return 1;
}

/* Starts lookup IDXNUM (LV_BY_*) of key V on cursor C of table T,
 * building the rows by key first if they are not yet; SQLite's code. */
static int key_filter(struct lv_cur *c, struct lv_tab *t, int idxnum,
		      sqlite3_value *v)
{
	const struct tdb_keys *k = &t->ctx->keys;
	char err[1024];
	int64_t id, r = 0;

	if (!t->ctx->keyed) {
		if (tdb_keys_build(&t->ctx->keys, t->dir, err, sizeof(err)) < 0)
			return lv_fail(&t->base, err);
		t->ctx->keyed = 1;
	}
	c->keyed = 1;
	c->knext = 0;
	if (lv_whole(v, &id)) {
		if (idxnum == LV_BY_ID)
			r = id >= 1 && id <= (t->kind == LV_EVENTS ? k->nev
								 : k->nmsg)
			    ? id : 0;
		else if (id >= 1 && id <= k->nev && k->ev_msg[id]) {
			const struct tdb_kmsg *m = &k->msg[k->ev_msg[id] - 1];

			r = k->ev_msg[id];
			if (idxnum == LV_BY_RECV && m->r_ev != id)
				r = 0;
			if (idxnum == LV_BY_SEND)
				c->knext = m->s_ev == id ? k->next[r] : 0,
				r = m->s_ev == id ? r : 0;
		}
	}
	c->rowid = r;
	c->eof = r == 0;
	return SQLITE_OK;
}

/* Moves cursor C over the rows kept (C->keyed) to its next row. */
static void key_next(struct lv_cur *c)
{
	const struct lv_tab *t = (struct lv_tab *)c->base.pVtab;
	const struct tdb_keys *k = &t->ctx->keys;

	c->row_made = 0;
	if (c->knext < 0 &&
	    c->rowid < (t->kind == LV_EVENTS ? k->nev : k->nmsg))
		c->rowid++;
	else if (c->knext > 0) {
		c->rowid = c->knext;
		c->knext = k->next[c->rowid];
	} else
		c->eof = 1;
}

/* Makes the row of cursor C over the rows kept (events or messages),
 * with the clock's times when it made some; 0 or -1 (out of memory). */
static int key_row(struct lv_cur *c)
{
	struct lv_tab *t = (struct lv_tab *)c->base.pVtab;
	const struct tdb_keys *k = &t->ctx->keys;
	const struct tdb_sync_out *x = t->times;

	if (t->kind == LV_EVENTS) {
		struct pg_event ev;
		int64_t seq, t4[4];
		int ltid;

		if (tdb_keys_event(k, c->rowid, &ev, &ltid, &seq, t4 + 2) < 0)
			return -1;
		t4[0] = t4[2];
		t4[1] = t4[3];
		if (x->ev && c->rowid <= x->nev) { /* the clock's times */
			t4[0] = x->ev[2 * (c->rowid - 1)];
			t4[1] = x->ev[2 * (c->rowid - 1) + 1];
		}
		return tdb_event_row(&c->row, &ev, c->rowid, ltid, seq, t4,
				     &c->tmp);
	} else {
		struct pg_match_end s, r;
		const char *why;
		int hs, hr;
		size_t lo = 0, hi = x->nmsg;

		tdb_keys_message(k, c->rowid, &s, &r, &hs, &hr, &why);
		tdb_message_row(&c->row, c->rowid, hs ? &s : NULL,
				hr ? &r : NULL, why);
		/* the clock's times (of the messages with both ends, by
		   id) */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (x->msg[3 * mid] < c->rowid)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < x->nmsg && x->msg[3 * lo] == c->rowid) {
			tdb_row_int(&c->row, 9, x->msg[3 * lo + 1]);
			tdb_row_int(&c->row, 10, x->msg[3 * lo + 2]);
		}
	}
	return 0;
}

/* xNext. */
static int lv_next(sqlite3_vtab_cursor *cur)
{
	struct lv_cur *c = (struct lv_cur *)cur;
	char err[1024];
	int rc;

	if (c->keyed) {
		key_next(c);
		return SQLITE_OK;
	}
	switch (((struct lv_tab *)cur->pVtab)->kind) {
	case LV_EVENTS:
		if (c->grouped)
			return group_next(c);
		c->row_made = 0;
		if ((rc = walk_next(&c->w, err, sizeof(err))) < 0)
			return lv_fail(cur->pVtab, err);
		c->eof = rc == 0;
		c->rowid = c->w.id;
		return SQLITE_OK;
	case LV_MESSAGES:
		return msg_next(c);
	case LV_TASKS:
		if (++c->k >= c->ntask)
			c->eof = 1;
		else
			task_row(c);
		return SQLITE_OK;
	case LV_CLOCKS:
		return clock_next(c);
	case LV_NKIND:
		break;
	}
	return SQLITE_ERROR;
}

/* xFilter: starts a scan (IDXNUM LV_BY_LTID: ARGV[0] is the ltid
 * wanted; LV_KEYED: a lookup of the key ARGV[0]). */
static int lv_filter(sqlite3_vtab_cursor *cur, int idxnum, const char *idxstr,
		     int argc, sqlite3_value **argv)
{
	struct lv_cur *c = (struct lv_cur *)cur;
	struct lv_tab *t = (struct lv_tab *)cur->pVtab;
	char err[1024];
	int only = -1;
	int64_t v;

	lv_reset(c);
	if ((idxnum & LV_KEYED) && argc == 1)
		return key_filter(c, t, idxnum, argv[0]);
	c->used = 1;
	/* a whole scan of messages kept, or of events or messages to be
	   kept for a lookup: given from memory */
	if ((t->kind == LV_MESSAGES || (t->kind == LV_EVENTS && !idxnum)) &&
	    !t->ctx->keyed && t->ctx->want_keys) {
		if (tdb_keys_build(&t->ctx->keys, t->dir, err, sizeof(err)) < 0)
			return lv_fail(cur->pVtab, err);
		t->ctx->keyed = 1;
	}
	if ((t->kind == LV_MESSAGES || (t->kind == LV_EVENTS && !idxnum)) &&
	    t->ctx->keyed) {
		c->keyed = 1;
		c->knext = -1;
		c->rowid = 1;
		c->eof = (t->kind == LV_EVENTS ? t->ctx->keys.nev
					       : t->ctx->keys.nmsg) == 0;
		return SQLITE_OK;
	}
	if ((idxnum & LV_BY_LTID) && argc == 1) {
		/* no ltid equals anything else than a whole number >= 0 */
		if (!lv_whole(argv[0], &v) || v < 0 || v > INT32_MAX) {
			c->eof = 1;
			return SQLITE_OK;
		}
		only = (int)v;
	}
	if (t->kind == LV_CLOCKS) {
		/* (as the import's: the happens-before of the logs) */
		if (pg_hb_load(&c->hb, t->dir, err, sizeof(err)) < 0)
			return lv_fail(cur->pVtab, err);
		return lv_next(cur);
	}
	if (walk_open(&c->w, t->dir, only, err, sizeof(err)) < 0 ||
	    (t->kind == LV_TASKS && task_list(c, t->dir, err, sizeof(err)) < 0))
		return lv_fail(cur->pVtab, err);
	if (t->kind == LV_EVENTS && (idxnum & LV_GROUPED)) {
		c->grouped = 1;
		c->outer_ltid = (idxnum & LV_LTID_OUTER) != 0;
		if (group_count(c, err, sizeof(err)) < 0)
			return lv_fail(cur->pVtab, err);
		/* (the first group: one step before task 0, kind 0) */
		if (c->outer_ltid)
			c->gk = -1;
		else
			c->gi = -1;
	}
	return lv_next(cur);
}

/* xEof. */
static int lv_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct lv_cur *)cur)->eof;
}

/* xColumn. */
static int lv_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
	struct lv_cur *c = (struct lv_cur *)cur;
	enum lv_kind kind = ((struct lv_tab *)cur->pVtab)->kind;
	int rc;

	if (c->keyed) {
		if (!c->row_made && key_row(c) < 0)
			return SQLITE_NOMEM;
		c->row_made = 1;
		tdb_row_result(ctx, &c->row, i);
		return SQLITE_OK;
	}
	if (kind == LV_TASKS && i >= 6 && !c->row_made &&
	    (rc = task_sum(c)) != SQLITE_OK)
		return rc;
	if (kind == LV_EVENTS && !c->row_made) {
		const struct tdb_sync_out *x = ((struct lv_tab *)cur->pVtab)->times;
		int64_t t[4] = { c->w.t0, c->w.t1, c->w.t0, c->w.t1 };

		if (x->ev && c->w.id <= x->nev) { /* the clock's times */
			t[0] = x->ev[2 * (c->w.id - 1)];
			t[1] = x->ev[2 * (c->w.id - 1) + 1];
		}
		if (tdb_event_row(&c->row, &c->w.ev, c->w.id,
				  c->w.run.ltids[c->w.i], c->w.seq, t,
				  &c->tmp) < 0)
			return SQLITE_NOMEM;
		c->row_made = 1;
	}
	tdb_row_result(ctx, &c->row, i);
	return SQLITE_OK;
}

/* xRowid. */
static int lv_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *id)
{
	*id = ((struct lv_cur *)cur)->rowid;
	return SQLITE_OK;
}

static const sqlite3_module lv_module = {
	.iVersion = 1,
	.xCreate = lv_connect,
	.xConnect = lv_connect,
	.xBestIndex = lv_best,
	.xDisconnect = lv_disconnect,
	.xDestroy = lv_disconnect,
	.xOpen = lv_open,
	.xClose = lv_close,
	.xFilter = lv_filter,
	.xNext = lv_next,
	.xEof = lv_eof,
	.xColumn = lv_column,
	.xRowid = lv_rowid,
};

/* Adds meta KEY = VALUE to DB through the insert S (NULL values left
 * out); 0 or -1. */
static int lv_meta(sqlite3_stmt *s, const char *key, const char *value)
{
	int rc;

	if (!value)
		return 0;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, value, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Whether the host of log I of R is named and no log before it has it;
 * 1 or 0. */
static int lv_host_new(const struct pg_comm_reader *r, int i)
{
	for (int j = 0; j < i; j++)
		if (strcmp(r[j].hdr.host, r[i].hdr.host) == 0)
			return 0;
	return r[i].hdr.host[0] != '\0';
}

/* Fills the meta table of DB from the headers of the logs of DIR and its
 * run.info; 0, or -1 with ERR. */
static int lv_meta_fill(sqlite3 *db, const char *dir, char *err,
			size_t errlen)
{
	struct lv_walk w;
	struct pg_runinfo ri;
	struct pg_strbuf hosts = { 0 }, ltids = { 0 };
	char ver[16], wall[32], status[16], path[PG_PATH_MAX];
	const char *mode = "record", *sel = NULL;
	uint64_t start = 0;
	int found, loose = 0, rc = -1;
	sqlite3_stmt *s = NULL;

	if (walk_open(&w, dir, -1, err, errlen) < 0)
		return -1;
	if ((found = pg_runinfo_read(dir, &ri, err, errlen)) < 0) {
		pg_run_close(&w.run);
		return -1;
	}
	for (int i = 0; i < w.run.n; i++) {
		const struct pg_comm_header *h = &w.run.rd[i].hdr;

		if (i == 0 && h->mode == 2)
			mode = "replay";
		loose |= (h->flags & PG_COMM_LOOSE_POLLS) != 0;
		if (h->select[0])
			sel = h->select;
		if (!start || h->start_wall_ns < start)
			start = h->start_wall_ns;
		if (lv_host_new(w.run.rd, i))
			pg_strbuf_printf(&hosts, "%s%s", hosts.len ? " " : "",
					 h->host);
	}
	if (found && ri.mode[0])
		mode = ri.mode;
	snprintf(ver, sizeof(ver), "%d", TDB_SCHEMA_VERSION);
	snprintf(wall, sizeof(wall), "%llu", (unsigned long long)start);
	snprintf(status, sizeof(status), "%d", found ? ri.status : 0);
	if (!realpath(dir, path))
		snprintf(path, sizeof(path), "%s", dir);
	if (sqlite3_prepare_v2(db, "INSERT INTO meta VALUES(?,?)", -1, &s,
			       NULL) == SQLITE_OK &&
	    lv_meta(s, "schema_version", ver) == 0 &&
	    lv_meta(s, "logdir", path) == 0 && lv_meta(s, "mode", mode) == 0 &&
	    lv_meta(s, "command", found ? ri.command : NULL) == 0 &&
	    lv_meta(s, "start_wall_ns", wall) == 0 &&
	    lv_meta(s, "hosts", hosts.p ? hosts.p : "") == 0 &&
	    lv_meta(s, "selection", sel ? sel : "") == 0 &&
	    lv_meta(s, "polls", loose ? "loose" : "exact") == 0 &&
	    lv_meta(s, "status", found ? status : NULL) == 0 &&
	    lv_meta(s, "replay_of", found && ri.replay_of[0] ? ri.replay_of
							    : NULL) == 0 &&
	    lv_meta(s, "sync", "offset") == 0 &&
	    lv_meta(s, "source", "logs") == 0 &&
	    tdb_clock_tasks(w.run.ltids, w.run.n, &ltids) == 0 &&
	    lv_meta(s, "clock_tasks", ltids.p ? ltids.p : "") == 0)
		rc = 0;
	/* hosts of several architectures: each host's, as the import */
	for (size_t i = 0; rc == 0 && found && i < ri.narchs; i++) {
		char key[PG_HOST_MAX + 8];

		snprintf(key, sizeof(key), "arch:%s", ri.archs[i].host);
		rc = lv_meta(s, key, ri.archs[i].arch);
	}
	if (rc < 0)
		snprintf(err, errlen, "cannot fill the meta table: %s",
			 sqlite3_errmsg(db));
	sqlite3_finalize(s);
	pg_strbuf_free(&hosts);
	pg_strbuf_free(&ltids);
	if (found)
		pg_runinfo_free(&ri);
	pg_run_close(&w.run);
	return rc;
}

/* Makes the spawns table of DB and fills it from the execution logs of
 * DIR, as the import does; 0, or -1 with ERR (a damaged log names file
 * and offset). */
static int lv_spawns(sqlite3 *db, const char *dir, char *err, size_t errlen)
{
	struct pg_strbuf argv = { 0 }, kids = { 0 };
	sqlite3_stmt *ins = NULL;
	int *x = NULL, nx = pg_run_ltids(dir, "exec", &x), rc = 0;

	if (sqlite3_exec(db, TDB_SPAWNS_SQL, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO spawns VALUES(?,?,?,?,?,?,?,"
			       "?,?)", -1, &ins, NULL) != SQLITE_OK)
		rc = -2;
	for (int i = 0; i < nx && rc == 0; i++) {
		char path[PG_PATH_MAX];
		struct pg_exec_log xl = { 0 };

		if (pg_log_path(path, sizeof(path), dir, x[i], "exec") < 0 ||
		    pg_exec_read(path, &xl, err, errlen) < 0) {
			rc = -1;
			break;
		}
		for (int k = 0; k < xl.nspawn && rc == 0; k++)
			if (tdb_spawn_bind(ins, x[i], &xl.spawns[k], &argv,
					   &kids) < 0 ||
			    sqlite3_step(ins) != SQLITE_DONE ||
			    sqlite3_reset(ins) != SQLITE_OK)
				rc = -2;
		pg_exec_free(&xl);
	}
	if (rc == -2)
		snprintf(err, errlen, "cannot fill the spawns table: %s",
			 sqlite3_errmsg(db));
	sqlite3_finalize(ins);
	pg_strbuf_free(&argv);
	pg_strbuf_free(&kids);
	free(x);
	return rc < 0 ? -1 : 0;
}

/* Frees the context ARG of a database's tables (the module's
 * destructor). */
static void lv_ctx_free(void *arg)
{
	struct lv_ctx *x = arg;

	tdb_keys_free(&x->keys);
	tdb_sync_out_free(&x->times);
	free(x->dir);
	free(x);
}

/* Makes the times of DB (tdb_open_logs, its tables' context X) those
 * the import's auto mode would make from the logs of DIR: the raw ones
 * on one host when no message's receive ends before its send
 * (tdb_logs_raw), else the raw ones mapped by the clock samples and put
 * through the controlled logical clock (across hosts always, on one
 * host when they violate the clock condition), kept in X; the meta rows
 * sync and sync_* as the import writes them.  0, or -1 with ERR. */
static int lv_sync(sqlite3 *db, struct lv_ctx *x, char *err, size_t errlen)
{
	struct pg_clocksync cs = { 0 };
	struct tdb_sync_report rep;
	int one = tdb_logs_one_host(db), rc;
	char v[3][32];
	sqlite3_stmt *s = NULL;

	if (one && tdb_logs_raw(db))
		return 0;
	if (pg_clocksync_load(&cs, x->dir, err, errlen) < 0) {
		pg_clocksync_free(&cs);
		return -1;
	}
	pg_clocksync_fit(&cs);
	rc = tdb_sync_times_keep(db, &cs, 1, one ? TDB_SYNC_IF_VIOLATED
						 : TDB_SYNC_WRITE, &rep,
				 &x->times, err, errlen);
	if (rc == 0) {
		snprintf(v[0], sizeof(v[0]), "%zu", rep.violations_before);
		snprintf(v[1], sizeof(v[1]), "%zu", rep.written
			 ? rep.violations_after : rep.violations_before);
		snprintf(v[2], sizeof(v[2]), "%lld", rep.written
			 ? (long long)rep.max_corr : 0LL);
		if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO meta "
				       "VALUES(?,?)", -1, &s, NULL) != SQLITE_OK ||
		    lv_meta(s, "sync_violations_before", v[0]) < 0 ||
		    lv_meta(s, "sync_violations_after", v[1]) < 0 ||
		    lv_meta(s, "sync_max_correction_ns", v[2]) < 0 ||
		    lv_meta(s, "sync", rep.written ? "clc" : "offset") < 0 ||
		    lv_meta(s, "sync_base", !rep.written ? NULL : cs.nhosts
			    ? "linear" : "offset") < 0) {
			snprintf(err, errlen, "cannot fill the meta table: %s",
				 sqlite3_errmsg(db));
			rc = -1;
		}
		sqlite3_finalize(s);
	}
	tdb_sync_report_free(&rep);
	pg_clocksync_free(&cs);
	return rc;
}

int tdb_open_logs_sync(const char *logdir, int sync, sqlite3 **db, char *err,
		       size_t errlen)
{
	struct pg_run run;
	struct lv_ctx *x;
	int *xl = NULL, nx;
	char *msg = NULL;

	*db = NULL;
	if (pg_run_open(&run, logdir, err, errlen) < 0)
		return -1;
	nx = pg_run_ltids(logdir, "exec", &xl);
	free(xl);
	if (run.n == 0 && nx <= 0) {
		pg_run_close(&run);
		snprintf(err, errlen, "%s is not a Pangaea log folder (no "
			 "task-*.comm or task-*.exec files)", logdir);
		return -1;
	}
	pg_run_close(&run);
	if (!(x = calloc(1, sizeof(*x))) || !(x->dir = strdup(logdir))) {
		free(x);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (sqlite3_open_v2(":memory:", db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		lv_ctx_free(x);
	/* (a module that cannot be made frees its context) */
	if (!*db || sqlite3_errcode(*db) != SQLITE_OK ||
	    sqlite3_create_module_v2(*db, "pangaea_logs", &lv_module, x,
				     lv_ctx_free) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open an in-memory database: %s",
			 *db ? sqlite3_errmsg(*db) : "out of memory");
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	if (sqlite3_exec(*db,
			 "CREATE VIRTUAL TABLE events USING pangaea_logs(events);"
			 "CREATE VIRTUAL TABLE messages USING "
			 "pangaea_logs(messages);"
			 "CREATE VIRTUAL TABLE tasks USING pangaea_logs(tasks);"
			 "CREATE VIRTUAL TABLE clocks USING pangaea_logs(clocks);"
			 "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
			 TDB_OUTPUT_SQL TDB_OUTPUT_INDEX_SQL,
			 NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "cannot make the tables over the logs: %s",
			 msg ? msg : "?");
		sqlite3_free(msg);
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	if (lv_meta_fill(*db, logdir, err, errlen) < 0 ||
	    lv_spawns(*db, logdir, err, errlen) < 0 ||
	    tdb_output_import(*db, logdir, 0, err, errlen) < 0 ||
	    (sync && lv_sync(*db, x, err, errlen) < 0)) {
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	return 0;
}

int tdb_open_logs(const char *logdir, sqlite3 **db, char *err, size_t errlen)
{
	return tdb_open_logs_sync(logdir, 0, db, err, errlen);
}

int tdb_logs_one_host(sqlite3 *db)
{
	sqlite3_stmt *s;
	int one = 0;

	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'hosts'",
			       -1, &s, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		one = !strchr((const char *)sqlite3_column_text(s, 0), ' ');
	sqlite3_finalize(s);
	return one;
}

int tdb_logs_raw(sqlite3 *db)
{
	sqlite3_stmt *s;
	int raw;

	if (!tdb_logs_one_host(db) ||
	    sqlite3_prepare_v2(db, "SELECT 1 FROM messages WHERE "
			       "t_recv < t_send LIMIT 1", -1, &s,
			       NULL) != SQLITE_OK)
		return 0;
	raw = sqlite3_step(s) == SQLITE_DONE;
	sqlite3_finalize(s);
	return raw;
}

int tdb_logs_copy(sqlite3 *db, const char *table, char *err, size_t errlen)
{
	const char *schema = tdb_schema_sql(), *p, *e;
	char head[64], *sql, *msg = NULL;
	int rc;

	/* its columns and key as the import makes them (tdb_schema_sql) */
	snprintf(head, sizeof(head), "CREATE TABLE %s(", table);
	if (!(p = strstr(schema, head)) || !(e = strchr(p, ';'))) {
		snprintf(err, errlen, "no table %s to copy", table);
		return -1;
	}
	p += strlen("CREATE TABLE ");
	if (!(sql = sqlite3_mprintf("CREATE TEMP TABLE %.*s; INSERT INTO "
				    "temp.%s SELECT * FROM main.%s",
				    (int)(e - p), p, table, table))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK)
		snprintf(err, errlen, "cannot copy %s: %s", table,
			 msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	sqlite3_free(sql);
	return rc == SQLITE_OK ? 0 : -1;
}

int tdb_open_read(const char *logdir, sqlite3 **db, char *err, size_t errlen)
{
	if (tdb_stale(logdir) &&
	    tdb_open_logs_sync(logdir, 1, db, err, errlen) == 0)
		return 1;
	return tdb_open(logdir, db, err, errlen);
}
