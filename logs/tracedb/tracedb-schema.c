/*
 * tracedb-schema.c: the SQL that makes the tables and indexes of the
 * trace database (docs/TRACEDB.md), and how a messages row is made from
 * the ends of its message, shared by the importer (tracedb.c,
 * tracedb-match.c) and the viewer's in-memory live database
 * (xview/viewlive.c).  Kept apart so the viewer links this and nothing
 * else of the importer.
 */
#include "tracedb.h"
#include "match.h"

static const char schema_sql[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
	"CREATE TABLE tasks(ltid INTEGER PRIMARY KEY, parent_ltid INTEGER,"
	" tid INTEGER, program TEXT, host TEXT, start_wall_ns INTEGER,"
	" end_how TEXT, end_value INTEGER, t_first INTEGER, t_last INTEGER,"
	" nevents INTEGER);"
	"CREATE TABLE spawns(ltid INTEGER, seq INTEGER, file TEXT,"
	" flags INTEGER, where_ TEXT, ntask INTEGER, started INTEGER,"
	" argv TEXT, children TEXT, PRIMARY KEY(ltid, seq));"
	"CREATE TABLE events(id INTEGER PRIMARY KEY, ltid INTEGER NOT NULL,"
	" seq INTEGER NOT NULL, kind TEXT NOT NULL, peer INTEGER, tag INTEGER,"
	" msgid INTEGER, len INTEGER, t0 INTEGER NOT NULL, t1 INTEGER NOT NULL,"
	" count INTEGER, grp TEXT, op TEXT, arg INTEGER, result INTEGER,"
	" dests TEXT, t0_raw INTEGER, t1_raw INTEGER);"
	"CREATE TABLE messages(id INTEGER PRIMARY KEY, src INTEGER,"
	" dst INTEGER, tag INTEGER, msgid INTEGER, len INTEGER, kind TEXT,"
	" send_event INTEGER, recv_event INTEGER, t_send INTEGER,"
	" t_recv INTEGER, unmatched TEXT);"
	"CREATE TABLE output(id INTEGER PRIMARY KEY, ltid INTEGER NOT NULL,"
	" t INTEGER NOT NULL, nl INTEGER NOT NULL, text TEXT NOT NULL);"
	"CREATE TABLE clocks(ltid INTEGER NOT NULL, seq INTEGER NOT NULL,"
	" clock TEXT NOT NULL, PRIMARY KEY(ltid, seq)) WITHOUT ROWID;";

static const char index_sql[] =
	"CREATE INDEX events_t0 ON events(t0);"
	"CREATE INDEX messages_t_send ON messages(t_send);"
	"CREATE INDEX messages_send_event ON messages(send_event);"
	"CREATE INDEX messages_recv_event ON messages(recv_event);"
	"CREATE INDEX output_t ON output(t);";

const char *tdb_schema_sql(void)
{
	return schema_sql;
}

const char *tdb_index_sql(void)
{
	return index_sql;
}

/* Binds V to parameter I of ST when there is an END, else NULL. */
static void bind_end(sqlite3_stmt *st, int i, const struct pg_match_end *end,
		     int64_t v)
{
	if (end)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

void tdb_message_bind(sqlite3_stmt *st, int64_t id,
		      const struct pg_match_end *s, const struct pg_match_end *r,
		      const char *why)
{
	const struct pg_match_end *e = s ? s : r;

	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, e->src);
	sqlite3_bind_int(st, 3, e->dst);
	sqlite3_bind_int(st, 4, e->tag);
	sqlite3_bind_int64(st, 5, e->msgid);
	sqlite3_bind_int64(st, 6, e->len);
	if (s)
		sqlite3_bind_text(st, 7, pg_rec_kind_name(s->kind), -1,
				  SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 7);
	bind_end(st, 8, s, s ? s->ev : 0);
	bind_end(st, 9, r, r ? r->ev : 0);
	bind_end(st, 10, s, s ? s->t : 0);
	bind_end(st, 11, r, r ? r->t : 0);
	if (why)
		sqlite3_bind_text(st, 12, why, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 12);
}
