/*
 * trace-export.c: "pangaea-trace export --otf2 OUTDIR LOGDIR" writes the
 * run as an OTF2 archive (OUTDIR/traces.otf2, for Vampir, otf2-print and
 * the like), and "export --chrome FILE.json LOGDIR" as Chrome trace-event
 * JSON (Perfetto, chrome://tracing).
 *
 * OTF2: one process (location group) and one location per task; every
 * call is a region entered at t0 and left at t1, named as the run's
 * binding names it (pvm_send, MPI_Send: pg_names_of_run); sends and
 * receives carry MpiSend/MpiRecv records (the paradigm OTF2 tools
 * understand for messages) on one communicator whose ranks are the tasks
 * in ltid order ("PVM (all tasks)", MPI_COMM_WORLD).
 * Chrome: one track per task with a slice per call; each message is an
 * async slice from its send to its receive on a "messages" process, so it
 * shows without flow arrows (which viewers draw unreliably).
 */
#include "trace.h"
#include "tracedb.h"

#include <otf2/otf2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The run as exported: its tasks with events (sorted by ltid; the rank
 * of a task is its index) and their OTF2 writers and record counts. */
struct ex_run {
	const struct pg_names *nm; /* the names of its calls */
	struct tdb_task *t;
	int n;
	OTF2_EvtWriter **w;
	uint64_t *nevents;
	int64_t tmin, tmax;
};

/* Loads the tasks with events and the time span of DB into R; 0 or -1. */
static int ex_load(sqlite3 *db, struct ex_run *r)
{
	sqlite3_stmt *s;
	int rc;

	if ((r->n = tdb_tasks_load(db, &r->t)) < 0)
		return -1;
	r->w = calloc((size_t)r->n + 1, sizeof(*r->w));
	r->nevents = calloc((size_t)r->n + 1, sizeof(*r->nevents));
	if (!r->w || !r->nevents ||
	    sqlite3_prepare_v2(db, "SELECT min(t0), max(t1) FROM events", -1,
			       &s, NULL) != SQLITE_OK)
		return -1;
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		r->tmin = sqlite3_column_int64(s, 0);
		r->tmax = sqlite3_column_int64(s, 1);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Frees the tasks of R. */
static void ex_free(struct ex_run *r)
{
	tdb_tasks_free(r->t, r->n > 0 ? r->n : 0);
	free(r->w);
	free(r->nevents);
}

/* The call (pg_call_of) of an event of KIND with OP (names), or 0. */
static int ex_call(const char *kind, const char *op)
{
	int k = pg_rec_kind_of(kind);

	return pg_call_of(k, pg_op_of(k, op));
}

/* The OTF2 region of call F: the calls NM names numbered densely from 0
 * (OTF2 wants definitions in order), or -1. */
static int ex_region_ref(const struct pg_names *nm, int f)
{
	char name[64];
	int n = 0;

	if (!pg_call_name(nm, f, name, sizeof(name)))
		return -1;
	for (int i = 1; i < f; i++)
		n += pg_call_name(nm, i, name, sizeof(name)) != NULL;
	return n;
}

/* OTF2 asks before flushing a buffer: always flush. */
static OTF2_FlushType otf2_pre_flush(void *user, OTF2_FileType type,
				     OTF2_LocationRef loc, void *caller,
				     bool final)
{
	return OTF2_FLUSH;
}

/* OTF2 asks for a time stamp after a flush: none (0). */
static OTF2_TimeStamp otf2_post_flush(void *user, OTF2_FileType type,
				      OTF2_LocationRef loc)
{
	return 0;
}

/* Writes the OTF2 event records of one event row S of the task of rank
 * K: enter, a send per destination or a receive, leave. */
static void otf2_event(const struct ex_run *r, int k, sqlite3_stmt *s)
{
	const char *kind = (const char *)sqlite3_column_text(s, 1);
	int f = ex_call(kind, (const char *)sqlite3_column_text(s, 2));
	enum pg_kind_class cls = pg_rec_kind_class(pg_rec_kind_of(kind));
	uint64_t t0 = (uint64_t)sqlite3_column_int64(s, 3);
	uint64_t t1 = (uint64_t)sqlite3_column_int64(s, 4);
	int peer = tdb_tasks_find(r->t, r->n, sqlite3_column_int(s, 5));
	uint32_t tag = (uint32_t)sqlite3_column_int(s, 6);
	uint64_t len = (uint64_t)sqlite3_column_int64(s, 7);
	const char *d = (const char *)sqlite3_column_text(s, 8);
	OTF2_EvtWriter *w = r->w[k];

	if (ex_region_ref(r->nm, f) < 0)
		return;
	OTF2_EvtWriter_Enter(w, NULL, t0,
			     (OTF2_RegionRef)ex_region_ref(r->nm, f));
	r->nevents[k] += 2;
	if (cls == PG_CLASS_SEND && d) { /* mcast, bcast: a destination list */
		for (char *e; *d; d = e) {
			int rk = tdb_tasks_find(r->t, r->n, (int)strtol(d, &e, 10));

			if (e == d)
				break;
			if (rk >= 0) {
				OTF2_EvtWriter_MpiSend(w, NULL, t0, (uint32_t)rk,
						       0, tag, len);
				r->nevents[k]++;
			}
		}
	} else if (cls == PG_CLASS_SEND && peer >= 0) {
		OTF2_EvtWriter_MpiSend(w, NULL, t0, (uint32_t)peer, 0, tag, len);
		r->nevents[k]++;
	} else if (cls == PG_CLASS_RECV && peer >= 0) {
		OTF2_EvtWriter_MpiRecv(w, NULL, t1, (uint32_t)peer, 0, tag, len);
		r->nevents[k]++;
	}
	OTF2_EvtWriter_Leave(w, NULL, t1,
			     (OTF2_RegionRef)ex_region_ref(r->nm, f));
}

/* Writes the event files of the archive A; 0 or -1. */
static int otf2_events(sqlite3 *db, OTF2_Archive *a, struct ex_run *r)
{
	sqlite3_stmt *s;
	int rc, k = -1;

	for (int i = 0; i < r->n; i++)
		if (!(r->w[i] = OTF2_Archive_GetEvtWriter(a, (uint64_t)r->t[i].ltid)))
			return -1;
	if (sqlite3_prepare_v2(db, "SELECT ltid, kind, op, t0, t1, peer, tag, "
			       "len, dests FROM events ORDER BY id", -1, &s,
			       NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int ltid = sqlite3_column_int(s, 0);

		if ((k < 0 || r->t[k].ltid != ltid) &&
		    (k = tdb_tasks_find(r->t, r->n, ltid)) < 0)
			continue;
		otf2_event(r, k, s);
	}
	sqlite3_finalize(s);
	for (int i = 0; i < r->n; i++)
		OTF2_Archive_CloseEvtWriter(a, r->w[i]);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Writes the global definitions of the archive A for R. */
static void otf2_defs(OTF2_Archive *a, const struct ex_run *r)
{
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	uint64_t *members = calloc((size_t)r->n + 1, sizeof(uint64_t));
	uint64_t *ranks = calloc((size_t)r->n + 1, sizeof(uint64_t));
	char name[PG_PATH_MAX + PG_HOST_MAX + 32];
	uint32_t str = 0;

	OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000,
		(uint64_t)r->tmin, (uint64_t)(r->tmax - r->tmin),
		(uint64_t)r->tmin);
	OTF2_GlobalDefWriter_WriteString(g, str++, "");
	OTF2_GlobalDefWriter_WriteString(g, str++, r->nm->machine);
	OTF2_GlobalDefWriter_WriteString(g, str++, "machine");
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 2,
		OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	for (int f = 1; f < PG_CALL_MAX; f++) {
		if (!pg_call_name(r->nm, f, name, sizeof(name)))
			continue;
		OTF2_GlobalDefWriter_WriteString(g, str, name);
		OTF2_GlobalDefWriter_WriteRegion(g,
			(OTF2_RegionRef)ex_region_ref(r->nm, f),
			str, str,
			0, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
			OTF2_REGION_FLAG_NONE, 0, 0, 0);
		str++;
	}
	for (int i = 0; r->n && members && ranks && i < r->n; i++) {
		const struct tdb_task *t = &r->t[i];

		snprintf(name, sizeof(name), "task %d %s@%s", t->ltid,
			 t->program, t->host);
		OTF2_GlobalDefWriter_WriteString(g, str, name);
		OTF2_GlobalDefWriter_WriteLocationGroup(g, (uint64_t)i, str,
			OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
			OTF2_UNDEFINED_LOCATION_GROUP);
		OTF2_GlobalDefWriter_WriteLocation(g, (uint64_t)t->ltid, str,
			OTF2_LOCATION_TYPE_CPU_THREAD, r->nevents[i], (uint64_t)i);
		str++;
		members[i] = (uint64_t)t->ltid;
		ranks[i] = (uint64_t)i;
	}
	OTF2_GlobalDefWriter_WriteString(g, str, "tasks");
	OTF2_GlobalDefWriter_WriteGroup(g, 0, str, OTF2_GROUP_TYPE_COMM_LOCATIONS,
		OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)r->n, members);
	OTF2_GlobalDefWriter_WriteGroup(g, 1, str, OTF2_GROUP_TYPE_COMM_GROUP,
		OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)r->n, ranks);
	OTF2_GlobalDefWriter_WriteString(g, str + 1, r->nm->world);
	OTF2_GlobalDefWriter_WriteComm(g, 0, str + 1, 1, OTF2_UNDEFINED_COMM,
				       OTF2_COMM_FLAG_NONE);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	free(members);
	free(ranks);
}

/* Writes the run of DB, its calls named as NM names them, as an OTF2
 * archive in OUT; 0 or -1. */
static int export_otf2(sqlite3 *db, const struct pg_names *nm,
		       const char *out)
{
	static const OTF2_FlushCallbacks flush = { otf2_pre_flush,
						   otf2_post_flush };
	struct ex_run r = { .nm = nm };
	OTF2_Archive *a;
	int rc = -1;

	if (ex_load(db, &r) < 0 || r.n == 0) {
		trace_error("the run has no events to export");
		ex_free(&r);
		return -1;
	}
	a = OTF2_Archive_Open(out, "traces", OTF2_FILEMODE_WRITE, 1 << 20,
			      4 << 20, OTF2_SUBSTRATE_POSIX,
			      OTF2_COMPRESSION_NONE);
	if (!a) {
		trace_error("cannot create the OTF2 archive %s/traces.otf2", out);
		ex_free(&r);
		return -1;
	}
	OTF2_Archive_SetFlushCallbacks(a, &flush, NULL);
	OTF2_Archive_SetSerialCollectiveCallbacks(a);
	OTF2_Archive_OpenEvtFiles(a);
	if (otf2_events(db, a, &r) == 0)
		rc = 0;
	else
		trace_error("cannot write the OTF2 events: %s", sqlite3_errmsg(db));
	OTF2_Archive_CloseEvtFiles(a);
	OTF2_Archive_OpenDefFiles(a);
	for (int i = 0; i < r.n; i++) {
		OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(a,
							      (uint64_t)r.t[i].ltid);
		OTF2_Archive_CloseDefWriter(a, w);
	}
	OTF2_Archive_CloseDefFiles(a);
	otf2_defs(a, &r);
	if (OTF2_Archive_Close(a) != OTF2_SUCCESS)
		rc = -1;
	ex_free(&r);
	return rc;
}

/* Writes the metadata events naming the processes and tracks. */
static void chrome_names(FILE *f, const struct ex_run *r)
{
	fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,"
		"\"args\":{\"name\":\"tasks\"}},\n"
		"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2,"
		"\"args\":{\"name\":\"messages\"}}");
	for (int i = 0; i < r->n; i++) {
		char name[PG_PATH_MAX + PG_HOST_MAX + 32];

		snprintf(name, sizeof(name), "task %d %s@%s", r->t[i].ltid,
			 r->t[i].program, r->t[i].host);
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
			"\"tid\":%d,\"args\":{\"name\":", r->t[i].ltid);
		trace_json_str(f, name);
		fprintf(f, "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\","
			"\"pid\":1,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
			r->t[i].ltid, i);
	}
}

/* Writes one slice per call of DB to F (times in us from T0), named as
 * NM names the calls. */
static int chrome_calls(FILE *f, sqlite3 *db, const struct pg_names *nm,
			int64_t t0)
{
	char name[64];
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT ltid, seq, kind, op, t0, t1, peer, "
			       "tag, msgid, len FROM events ORDER BY id", -1, &s,
			       NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *kind = (const char *)sqlite3_column_text(s, 2);
		int fn = ex_call(kind, (const char *)sqlite3_column_text(s, 3));

		if (!pg_call_name(nm, fn, name, sizeof(name)))
			snprintf(name, sizeof(name), "%s", kind);
		fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\","
			"\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"args\":"
			"{\"seq\":%lld", name, nm->binding,
			sqlite3_column_int(s, 0),
			(double)(sqlite3_column_int64(s, 4) - t0) / 1e3,
			(double)(sqlite3_column_int64(s, 5) -
				 sqlite3_column_int64(s, 4)) / 1e3,
			(long long)sqlite3_column_int64(s, 1));
		for (int c = 6; c <= 9; c++)
			if (sqlite3_column_type(s, c) != SQLITE_NULL)
				fprintf(f, ",\"%s\":%lld", sqlite3_column_name(s, c),
					(long long)sqlite3_column_int64(s, c));
		fprintf(f, "}}");
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Writes each matched message of DB as an async slice to F. */
static int chrome_messages(FILE *f, sqlite3 *db, int64_t t0)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT id, src, dst, tag, msgid, len, "
			       "t_send, t_recv FROM messages WHERE unmatched "
			       "IS NULL ORDER BY t_send", -1, &s, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(s, 0);
		int src = sqlite3_column_int(s, 1), dst = sqlite3_column_int(s, 2);
		char name[96];

		snprintf(name, sizeof(name), "%d->%d tag %d", src, dst,
			 sqlite3_column_int(s, 3));
		fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"message\",\"ph\":\"b\","
			"\"id\":%lld,\"pid\":2,\"tid\":%d,\"ts\":%.3f,\"args\":"
			"{\"src\":%d,\"dst\":%d,\"msgid\":%lld,\"len\":%lld}}",
			name, id, dst,
			(double)(sqlite3_column_int64(s, 6) - t0) / 1e3, src, dst,
			(long long)sqlite3_column_int64(s, 4),
			(long long)sqlite3_column_int64(s, 5));
		fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"message\",\"ph\":\"e\","
			"\"id\":%lld,\"pid\":2,\"tid\":%d,\"ts\":%.3f}", name, id,
			dst, (double)(sqlite3_column_int64(s, 7) - t0) / 1e3);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Writes the run of DB, its calls named as NM names them, as Chrome
 * trace-event JSON to OUT ("-": stdout). */
static int export_chrome(sqlite3 *db, const struct pg_names *nm,
			 const char *out)
{
	struct ex_run r = { .nm = nm };
	FILE *f = strcmp(out, "-") == 0 ? stdout : fopen(out, "w");
	int rc = -1;

	if (!f) {
		trace_error("cannot create %s", out);
		return -1;
	}
	if (ex_load(db, &r) == 0) {
		fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
		chrome_names(f, &r);
		if (chrome_calls(f, db, nm, r.tmin) == 0 &&
		    chrome_messages(f, db, r.tmin) == 0)
			rc = 0;
		fprintf(f, "\n]}\n");
	}
	if (rc < 0)
		trace_error("cannot read the trace database: %s",
			    sqlite3_errmsg(db));
	if ((f != stdout && fclose(f) != 0) || (f == stdout && fflush(f) != 0)) {
		trace_error("cannot write %s", out);
		rc = -1;
	}
	ex_free(&r);
	return rc;
}

/* Entry point of "export": 0 written, 1 error. */
static int export_run(int argc, char **argv)
{
	char err[PG_PATH_MAX + 512];
	sqlite3 *db;
	int rc, otf2;

	if (argc != 4 || (strcmp(argv[1], "--otf2") != 0 &&
			  strcmp(argv[1], "--chrome") != 0)) {
		trace_error("usage: pangaea-trace %s", trace_cmd_export.usage);
		return 1;
	}
	otf2 = strcmp(argv[1], "--otf2") == 0;
	if (tdb_open_read(argv[3], &db, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		return 1;
	}
	rc = otf2 ? export_otf2(db, pg_names_of_run(argv[3]), argv[2])
		  : export_chrome(db, pg_names_of_run(argv[3]), argv[2]);
	sqlite3_close(db);
	return rc < 0;
}

const struct trace_cmd trace_cmd_export = {
	"export", "export --otf2 OUTDIR | --chrome FILE.json LOGDIR", export_run
};
