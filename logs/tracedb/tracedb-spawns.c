/*
 * tracedb-spawns.c: the rows of the spawns table, from the execution
 * logs (task-LTID.exec): the importer's (tracedb.c) and those of the
 * tables over the logs (tracedb-vtab.c), made by the same code.
 */
#include "tracedb-internal.h"
#include "pangaea-logs.h"

#include <stdio.h>

/* Appends S to B as a JSON string; 0 or -1. */
static int buf_json(struct pg_strbuf *b, const char *s)
{
	int rc = pg_strbuf_add(b, "\"", 1);

	for (; *s && rc == 0; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			rc = pg_strbuf_printf(b, "\\%c", c);
		else if (c < 0x20)
			rc = pg_strbuf_printf(b, "\\u%04x", c);
		else
			rc = pg_strbuf_add(b, (const char *)&c, 1);
	}
	return rc ? rc : pg_strbuf_add(b, "\"", 1);
}

/* Binds V (NULL: SQL NULL) to parameter I of S, copied. */
static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

int tdb_spawn_bind(sqlite3_stmt *ins, int ltid, const struct pg_spawn_rec *rec,
		   struct pg_strbuf *argv, struct pg_strbuf *kids)
{
	int rc = 0;

	pg_strbuf_reset(argv);
	pg_strbuf_reset(kids);
	rc |= pg_strbuf_add(argv, "[", 1);
	for (int i = 0; i < rec->argc && rc == 0; i++)
		rc |= (i ? pg_strbuf_add(argv, ",", 1) : 0) |
		      buf_json(argv, rec->argv[i]);
	rc |= pg_strbuf_add(argv, "]", 1);
	rc |= pg_strbuf_add(kids, "", 0);
	for (int k = 0; k < rec->ntask && rc == 0; k++)
		if (rec->slots[k].ltid > 0)
			rc |= pg_strbuf_printf(kids, "%s%d@%s", k ? " " : "",
					       rec->slots[k].ltid,
					       rec->slots[k].host);
		else
			rc |= pg_strbuf_printf(kids, "%s!%d", k ? " " : "",
					       rec->slots[k].err);
	if (rc)
		return -1;
	sqlite3_bind_int(ins, 1, ltid);
	sqlite3_bind_int(ins, 2, rec->seq);
	bind_text(ins, 3, rec->file);
	sqlite3_bind_int(ins, 4, rec->flags);
	bind_text(ins, 5, rec->where);
	sqlite3_bind_int(ins, 6, rec->ntask);
	sqlite3_bind_int(ins, 7, rec->started);
	bind_text(ins, 8, argv->p);
	bind_text(ins, 9, kids->p);
	return 0;
}
