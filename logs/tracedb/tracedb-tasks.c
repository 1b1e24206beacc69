/*
 * tracedb-tasks.c: the tasks of a run as the analysis commands (stats,
 * export) read them from its trace database: those that logged events,
 * in ltid order, found by ltid.
 */
#include "tracedb.h"
#include "pangaea-logs.h"

#include <stdlib.h>
#include <string.h>

/* Copies the text column I of S, "?" when NULL; NULL when out of memory. */
static char *tasks_text(sqlite3_stmt *s, int i)
{
	const char *v = (const char *)sqlite3_column_text(s, i);

	return strdup(v ? v : "?");
}

int tdb_tasks_load(sqlite3 *db, struct tdb_task **out)
{
	struct tdb_task *v = NULL, *nv;
	size_t n = 0, cap = 0;
	sqlite3_stmt *s;
	int rc = SQLITE_ERROR;

	*out = NULL;
	if (sqlite3_prepare_v2(db, "SELECT ltid, start_wall_ns, program, host "
			       "FROM tasks WHERE nevents > 0 ORDER BY ltid",
			       -1, &s, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct tdb_task *t;

		if (!(nv = pg_grow(v, &cap, n + 1, sizeof(*v), 16)))
			break;
		v = nv;
		t = &v[n++];
		t->ltid = sqlite3_column_int(s, 0);
		t->start_wall_ns = sqlite3_column_int64(s, 1);
		t->program = tasks_text(s, 2);
		t->host = tasks_text(s, 3);
		if (!t->program || !t->host)
			break;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		tdb_tasks_free(v, (int)n);
		return -1;
	}
	*out = v;
	return (int)n;
}

/* Orders tasks by ltid (for bsearch with a key task). */
static int tasks_cmp(const void *pa, const void *pb)
{
	const struct tdb_task *a = pa, *b = pb;

	return (a->ltid > b->ltid) - (a->ltid < b->ltid);
}

int tdb_tasks_find(const struct tdb_task *t, int n, int ltid)
{
	struct tdb_task key = { .ltid = ltid };
	const struct tdb_task *hit = n > 0 ? bsearch(&key, t, (size_t)n,
						     sizeof(*t), tasks_cmp)
					   : NULL;

	return hit ? (int)(hit - t) : -1;
}

void tdb_tasks_free(struct tdb_task *t, int n)
{
	for (int i = 0; i < n; i++) {
		free(t[i].program);
		free(t[i].host);
	}
	free(t);
}
