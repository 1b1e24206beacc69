/*
 * tracedb-schema.c: the SQL that makes the tables and indexes of the
 * trace database (docs/TRACEDB.md), shared by the importer (tracedb.c)
 * and the viewer's in-memory live database (xview/viewlive.c).  Kept
 * apart so the viewer links this text and nothing else of the importer.
 */
#include "tracedb.h"

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
	" dests TEXT);"
	"CREATE TABLE messages(id INTEGER PRIMARY KEY, src INTEGER,"
	" dst INTEGER, tag INTEGER, msgid INTEGER, len INTEGER, kind TEXT,"
	" send_event INTEGER, recv_event INTEGER, t_send INTEGER,"
	" t_recv INTEGER, unmatched TEXT);";

static const char index_sql[] =
	"CREATE INDEX events_t0 ON events(t0);"
	"CREATE INDEX messages_t_send ON messages(t_send);"
	"CREATE INDEX messages_send_event ON messages(send_event);"
	"CREATE INDEX messages_recv_event ON messages(recv_event);";

const char *tdb_schema_sql(void)
{
	return schema_sql;
}

const char *tdb_index_sql(void)
{
	return index_sql;
}
