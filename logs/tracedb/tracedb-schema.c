/*
 * tracedb-schema.c: the SQL that makes the tables and indexes of the
 * trace database (docs/TRACEDB.md), and how a messages row is made from
 * the ends of its message, shared by the importer (tracedb.c,
 * tracedb-match.c) and the viewer's in-memory live database
 * (xview/viewlive.c).  Kept apart so the viewer links this and nothing
 * else of the importer.
 */
#include "tracedb-internal.h"
#include "match.h"
#include "pangaea-logs.h"

static const char schema_sql[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
	"CREATE TABLE tasks(ltid INTEGER PRIMARY KEY, parent_ltid INTEGER,"
	" tid INTEGER, program TEXT, host TEXT, start_wall_ns INTEGER,"
	" end_how TEXT, end_value INTEGER, t_first INTEGER, t_last INTEGER,"
	" nevents INTEGER);"
	TDB_SPAWNS_SQL
	"CREATE TABLE events(id INTEGER PRIMARY KEY, ltid INTEGER NOT NULL,"
	" seq INTEGER NOT NULL, kind TEXT NOT NULL, peer INTEGER, tag INTEGER,"
	" msgid INTEGER, len INTEGER, t0 INTEGER NOT NULL, t1 INTEGER NOT NULL,"
	" count INTEGER, grp TEXT, op TEXT, arg INTEGER, result INTEGER,"
	" dests TEXT, t0_raw INTEGER, t1_raw INTEGER);"
	"CREATE TABLE messages(id INTEGER PRIMARY KEY, src INTEGER,"
	" dst INTEGER, tag INTEGER, msgid INTEGER, len INTEGER, kind TEXT,"
	" send_event INTEGER, recv_event INTEGER, t_send INTEGER,"
	" t_recv INTEGER, unmatched TEXT);"
	TDB_OUTPUT_SQL
	"CREATE TABLE clocks(ltid INTEGER NOT NULL, seq INTEGER NOT NULL,"
	" clock TEXT NOT NULL, PRIMARY KEY(ltid, seq)) WITHOUT ROWID;";

static const char index_sql[] =
	"CREATE INDEX events_t0 ON events(t0);"
	"CREATE INDEX messages_t_send ON messages(t_send);"
	"CREATE INDEX messages_send_event ON messages(send_event);"
	"CREATE INDEX messages_recv_event ON messages(recv_event);"
	TDB_OUTPUT_INDEX_SQL;

const char *tdb_schema_sql(void)
{
	return schema_sql;
}

const char *tdb_index_sql(void)
{
	return index_sql;
}

void tdb_row_int(struct tdb_row *r, int c, int64_t v)
{
	r->null &= ~(1u << c);
	r->text &= ~(1u << c);
	r->v[c] = v;
}

void tdb_row_text(struct tdb_row *r, int c, const char *v)
{
	if (!v)
		return;
	r->null &= ~(1u << c);
	r->text |= 1u << c;
	r->s[c] = v;
}

/* Sets the kind-specific columns of event EV in R (as the import always
 * wrote them: peer 4, tag 5, msgid 6, len 7, count 10, grp 11, op 12,
 * arg 13, result 14, dests 15); 0, or -1 when TMP cannot grow. */
static int row_event_fields(struct tdb_row *r, const struct pg_event *ev,
			    struct pg_strbuf *tmp)
{
	switch (ev->kind) {
	case PG_REC_SPAWN:
		tdb_row_int(r, 6, ev->msgid);
		tdb_row_int(r, 7, ev->len);
		return 0;
	case PG_REC_END:
		tdb_row_text(r, 12, pg_end_how_name(ev->how));
		tdb_row_int(r, 14, ev->value);
		return 0;
	case PG_REC_POLLFAIL:
		tdb_row_int(r, 10, ev->count);
		return 0;
	case PG_REC_KILL: /* no message: the victim only */
		tdb_row_int(r, 4, ev->peer);
		return 0;
	case PG_REC_CALL: /* a query, mailbox call or pvm_exit: no message;
			     tag = its second argument, len = its data's */
		tdb_row_int(r, 4, ev->peer);
		tdb_row_int(r, 5, ev->arg2);
		tdb_row_int(r, 7, ev->nblob);
		/* the rest as a group call's */
		__attribute__((fallthrough));
	case PG_REC_GROUP:
		tdb_row_text(r, 11, ev->group);
		tdb_row_text(r, 12, ev->kind == PG_REC_CALL ? pg_call_op_name(ev->op)
						       : pg_group_op_name(ev->op));
		tdb_row_int(r, 13, ev->arg);
		tdb_row_int(r, 14, ev->result);
		return 0;
	case PG_REC_MCAST:
	case PG_REC_BCAST:
		pg_strbuf_reset(tmp);
		for (int i = 0; i < ev->ndest; i++)
			if (pg_strbuf_printf(tmp, "%s%d", i ? " " : "",
					     ev->dests[i]) < 0)
				return -1;
		tdb_row_text(r, 15, tmp->p ? tmp->p : "");
		if (ev->kind == PG_REC_BCAST)
			tdb_row_text(r, 11, ev->group);
		break;
	default:
		tdb_row_int(r, 4, ev->peer);
	}
	tdb_row_int(r, 5, ev->tag);
	tdb_row_int(r, 6, ev->msgid);
	tdb_row_int(r, 7, ev->len);
	return 0;
}

int tdb_event_row(struct tdb_row *r, const struct pg_event *ev, int64_t id,
		  int ltid, int64_t seq, const int64_t t[4],
		  struct pg_strbuf *tmp)
{
	r->n = TDB_EVENT_COLS;
	r->null = (1u << TDB_EVENT_COLS) - 1;
	r->text = 0;
	tdb_row_int(r, 0, id);
	tdb_row_int(r, 1, ltid);
	tdb_row_int(r, 2, seq);
	tdb_row_text(r, 3, pg_rec_kind_name(ev->kind));
	tdb_row_int(r, 8, t[0]);
	tdb_row_int(r, 9, t[1]);
	tdb_row_int(r, 16, t[2]);
	tdb_row_int(r, 17, t[3]);
	return row_event_fields(r, ev, tmp);
}

void tdb_message_row(struct tdb_row *r, int64_t id,
		     const struct pg_match_end *s, const struct pg_match_end *x,
		     const char *why)
{
	const struct pg_match_end *e = s ? s : x;

	r->n = TDB_MESSAGE_COLS;
	r->null = (1u << TDB_MESSAGE_COLS) - 1;
	r->text = 0;
	tdb_row_int(r, 0, id);
	tdb_row_int(r, 1, e->src);
	tdb_row_int(r, 2, e->dst);
	tdb_row_int(r, 3, e->tag);
	tdb_row_int(r, 4, e->msgid);
	tdb_row_int(r, 5, e->len);
	tdb_row_text(r, 6, s ? pg_rec_kind_name(s->kind) : NULL);
	if (s) {
		tdb_row_int(r, 7, s->ev);
		tdb_row_int(r, 9, s->t);
	}
	if (x) {
		tdb_row_int(r, 8, x->ev);
		tdb_row_int(r, 10, x->t);
	}
	tdb_row_text(r, 11, why);
}

void tdb_row_bind(sqlite3_stmt *st, const struct tdb_row *r)
{
	for (int c = 0; c < r->n; c++)
		if (r->null & (1u << c))
			sqlite3_bind_null(st, c + 1);
		else if (r->text & (1u << c))
			sqlite3_bind_text(st, c + 1, r->s[c], -1, SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, c + 1, r->v[c]);
}

void tdb_row_result(sqlite3_context *ctx, const struct tdb_row *r, int c)
{
	if (c < 0 || c >= r->n || (r->null & (1u << c)))
		sqlite3_result_null(ctx);
	else if (r->text & (1u << c))
		sqlite3_result_text(ctx, r->s[c], -1, SQLITE_TRANSIENT);
	else
		sqlite3_result_int64(ctx, r->v[c]);
}

void tdb_message_bind(sqlite3_stmt *st, int64_t id,
		      const struct pg_match_end *s, const struct pg_match_end *r,
		      const char *why)
{
	struct tdb_row row;

	tdb_message_row(&row, id, s, r, why);
	tdb_row_bind(st, &row);
}
