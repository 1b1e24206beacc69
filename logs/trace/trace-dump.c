/*
 * trace-dump.c: "pangaea-trace dump [-task LTID] LOGDIR" prints a run's
 * logs as text, task by task in ltid order, one event a line;
 * "dump --merged LOGDIR" prints every task's events in one list in time
 * order (call entry), from the trace database; "dump --output [-task
 * LTID] LOGDIR" what the tasks printed (output.log).
 */
#include "trace.h"
#include "tracedb.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Prints the spawn with sequence SEQ from the execution log X. */
static void dump_spawn(const struct pg_exec_log *x, unsigned seq)
{
	for (int i = 0; i < x->nspawn; i++) {
		const struct pg_spawn_rec *s = &x->spawns[i];

		if ((unsigned)s->seq != seq)
			continue;
		printf(" %d x %s ->", s->ntask, s->file);
		for (int k = 0; k < s->ntask; k++)
			if (s->slots[k].ltid > 0)
				printf(" %d@%s", s->slots[k].ltid, s->slots[k].host);
			else
				printf(" error %d", s->slots[k].err);
	}
}

/* Reads the data of a call record (FORMATS.md §2.4, kind 15). */
struct cd {
	const unsigned char *p;
	size_t n, pos;
	int bad;
};

/* The next zigzag varint of D (0, D->bad set, past the end). */
static int cd_int(struct cd *d)
{
	uint64_t v = 0;
	size_t k = d->pos < d->n ? pg_varint_get(d->p + d->pos, d->n - d->pos,
						 &v) : 0;

	if (k == 0) {
		d->bad = 1;
		return 0;
	}
	d->pos += k;
	return (int)((int64_t)(v >> 1) ^ -(int64_t)(v & 1));
}

/* Prints the next string of D; one of over 80 bytes as its first 30,
 * "..." and its last 47 (a long path keeps its program's name). */
static void cd_str(struct cd *d)
{
	int l = cd_int(d);
	const char *s;

	if (d->bad || l < 0 || (size_t)l > d->n - d->pos) {
		d->bad = 1;
		return;
	}
	s = (const char *)d->p + d->pos;
	if (l > 80)
		printf("%.30s...%.47s", s, s + l - 47);
	else
		printf("%.*s", l, s);
	d->pos += (size_t)l;
}

/* Prints the next tid of D: "task L" for a task of the run, else the
 * tid ("0" for none). */
static void cd_tid(struct cd *d)
{
	int in_run = cd_int(d), v = cd_int(d);

	if (in_run)
		printf("task %d", v);
	else if (v)
		printf("t%x", (unsigned)v);
	else
		printf("0");
}

/* The next count of D, at most the bytes left (each item takes one). */
static int cd_count(struct cd *d)
{
	int k = cd_int(d);

	if (k < 0 || (size_t)k > d->n - d->pos)
		d->bad = 1;
	return d->bad ? 0 : k;
}

/* Prints what the call record EV gave the program, on a line of its own
 * (pvm_tasks, pvm_config, pvm_getmboxinfo; a mailbox message by size). */
static void dump_call_data(const struct pg_event *ev)
{
	struct cd d = { ev->blob, ev->nblob, 0, 0 };
	int n;

	if (!ev->blob || !ev->nblob || ev->result < 0)
		return; /* (the merged dump has its size only) */
	printf("      ");
	if (ev->op == PG_Q_TASKS) {
		n = cd_count(&d);
		printf("%d task(s):", n);
		for (int i = 0; i < n && !d.bad; i++) {
			printf(" [");
			cd_tid(&d);
			printf(" parent ");
			cd_tid(&d);
			printf(" host t%x", (unsigned)cd_int(&d));
			printf(" flag %d ", cd_int(&d));
			cd_str(&d);
			printf(" pid %d]", cd_int(&d));
		}
	} else if (ev->op == PG_Q_CONFIG) {
		n = cd_count(&d);
		printf("%d host(s), %d arch(s):", n, cd_int(&d));
		for (int i = 0; i < n && !d.bad; i++) {
			printf(" [t%x ", (unsigned)cd_int(&d));
			cd_str(&d);
			printf(" ");
			cd_str(&d);
			printf(" speed %d", cd_int(&d));
			printf(" dsig 0x%x]", (unsigned)cd_int(&d));
		}
	} else if (ev->op == PG_Q_GETMBOXINFO) {
		n = cd_count(&d);
		printf("%d class(es):", n);
		for (int i = 0; i < n && !d.bad; i++) {
			int k;

			printf(" ");
			cd_str(&d);
			k = cd_count(&d);
			printf("{");
			for (int j = 0; j < k && !d.bad; j++) {
				printf("%s%d:", j ? " " : "", cd_int(&d));
				cd_tid(&d);
				printf(" flags %d", cd_int(&d));
			}
			printf("}");
		}
	} else if (ev->op == PG_Q_RECVINFO) {
		printf("the entry's message, %d bytes packed", cd_count(&d));
	} else if (ev->op == PG_Q_MPI_DONE) {
		/* (pairs of 32-bit little-endian ints: FORMATS.md op 10) */
		printf("completed, in order:");
		for (uint32_t i = 0; i + 8 <= ev->nblob; i += 8) {
			const unsigned char *p = ev->blob + i;
			int idx = (int)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
					(uint32_t)p[2] << 16 |
					(uint32_t)p[3] << 24);
			int post = (int)((uint32_t)p[4] | (uint32_t)p[5] << 8 |
					 (uint32_t)p[6] << 16 |
					 (uint32_t)p[7] << 24);

			printf("%s request %d (%s", i ? "," : "", idx,
			       post ? "receive post " : "not a receive");
			if (post)
				printf("%d", post);
			printf(")");
		}
	}
	printf("%s\n", d.bad ? " (damaged data)" : "");
}

/* Prints one event without its number, its calls named as NM names
 * them; T is its time in s, SPAWN says what a spawn started (from X, or
 * the text SPAWN when X is NULL). */
static void dump_body(const struct pg_names *nm, const struct pg_event *ev,
		      double t, const struct pg_exec_log *x, const char *spawn)
{
	char d[PG_GROUP_MAX + 128], via[64];

	switch (ev->kind) {
	case PG_REC_SEND:
	case PG_REC_PSEND:
		printf("%s to=%d tag=%d msg=%u len=%u t=%.6f\n",
		       pg_rec_kind_name(ev->kind), ev->peer, ev->tag, ev->msgid,
		       ev->len, t);
		break;
	case PG_REC_MCAST:
	case PG_REC_BCAST:
		printf("%s", pg_rec_kind_name(ev->kind));
		if (ev->kind == PG_REC_BCAST)
			printf(" group=\"%s\"", ev->group);
		printf(" to=[");
		for (int i = 0; i < ev->ndest; i++)
			printf("%s%d", i ? " " : "", ev->dests[i]);
		printf("] tag=%d msg=%u len=%u t=%.6f\n", ev->tag, ev->msgid,
		       ev->len, t);
		break;
	case PG_REC_GROUP:
		printf("group %s(\"%s\", %d) = %d t=%.6f\n",
		       pg_group_op_name(ev->op), ev->group, ev->arg, ev->result, t);
		break;
	case PG_REC_SPAWN:
		printf("spawn #%u started=%u", ev->msgid, ev->len);
		if (x)
			dump_spawn(x, ev->msgid);
		else if (spawn)
			printf("%s", spawn);
		printf(" t=%.6f\n", t);
		break;
	case PG_REC_POLLFAIL:
		printf("pollfail count=%u t=%.6f\n", ev->count, t);
		break;
	case PG_REC_KILL:
		printf("kill task=%d t=%.6f\n", ev->peer, t);
		break;
	case PG_REC_CALL:
		pg_call_describe(ev, 1, d, sizeof(d));
		printf("call %s t=%.6f\n", d, t);
		dump_call_data(ev);
		break;
	case PG_REC_END:
		if (ev->how == PG_END_EXIT)
			printf("end pangaea_exit t=%.6f\n", t);
		else if (ev->how == PG_END_NO_EXIT)
			printf("end exit status %d without pangaea_exit t=%.6f\n",
			       ev->value, t);
		else if (ev->how == PG_END_SIGNAL)
			printf("end signal %d (%s) t=%.6f\n", ev->value,
			       strsignal(ev->value), t);
		else
			printf("end replay diverged at event %d t=%.6f\n",
			       ev->value, t);
		break;
	default:
		pg_kind_call_name(nm, ev->kind, via, sizeof(via));
		if (ev->peer == PG_PEER_SYSTEM) {
			printf("recv from=pvmd about=%d tag=%d len=%u via=%s "
			       "t=%.6f\n", (int)ev->msgid - 1, ev->tag, ev->len,
			       via, t);
			break;
		}
		printf("recv from=%d msg=%u tag=%d len=%u via=%s t=%.6f\n",
		       ev->peer, ev->msgid, ev->tag, ev->len, via, t);
	}
}

/* Prints event number N of a task (the per-task dump's line). */
static void dump_event(const struct pg_names *nm, long n,
		       const struct pg_event *ev, const struct pg_exec_log *x)
{
	printf("  #%ld ", n);
	dump_body(nm, ev, (double)ev->t / 1e9, x, NULL);
}

/* Rebuilds the event of row S of the merged query into EV (DESTS: room
 * for the destinations); the task's ltid and number into *LTID, *SEQ. */
static void merged_event(sqlite3_stmt *s, struct pg_event *ev, int *dests,
			 int ndest_max)
{
	const char *op = (const char *)sqlite3_column_text(s, 11);
	const char *d = (const char *)sqlite3_column_text(s, 14);
	const char *g = (const char *)sqlite3_column_text(s, 10);

	memset(ev, 0, sizeof(*ev));
	ev->kind = pg_rec_kind_of((const char *)sqlite3_column_text(s, 2));
	ev->peer = sqlite3_column_int(s, 3);
	ev->tag = sqlite3_column_int(s, 4);
	ev->msgid = (uint32_t)sqlite3_column_int64(s, 5);
	ev->len = (uint32_t)sqlite3_column_int64(s, 6);
	ev->count = (uint32_t)sqlite3_column_int64(s, 9);
	ev->arg = sqlite3_column_int(s, 12);
	ev->result = ev->value = sqlite3_column_int(s, 13);
	ev->how = pg_end_how_of(op);
	ev->op = pg_op_of(ev->kind, op);
	if (ev->kind == PG_REC_CALL) {
		ev->nblob = ev->len;
		ev->arg2 = ev->tag;
	}
	snprintf(ev->group, sizeof(ev->group), "%s", g ? g : "");
	ev->dests = dests;
	for (char *e; d && *d && ev->ndest < ndest_max; d = e) {
		dests[ev->ndest++] = (int)strtol(d, &e, 10);
		if (e == d)
			break;
	}
}

/* The messages left unmatched of the tables over the logs of DB, as
 * the table um (temporary) with the trace database's indexes of
 * messages: the merged dump looks them up per event, where a table over
 * the logs would be read again for each.  SQLITE_OK or SQLite's code. */
static int merged_unmatched(sqlite3 *db)
{
	return sqlite3_exec(db,
		"CREATE TEMP TABLE um(id INTEGER PRIMARY KEY,"
		" send_event INTEGER, recv_event INTEGER, unmatched TEXT);"
		"INSERT INTO um SELECT id, send_event, recv_event, unmatched"
		" FROM messages WHERE unmatched IS NOT NULL;"
		"CREATE INDEX temp.um_send_event ON um(send_event);"
		"CREATE INDEX temp.um_recv_event ON um(recv_event);",
		NULL, NULL, NULL);
}

/* Prints every event of the run in DIR in time order (from its logs
 * when tdb_open_read can: the same lines); 0 or 1. */
static int dump_merged(const char *dir)
{
	char err[PG_PATH_MAX + 512], spawn[PG_PATH_MAX + 600], *q;
	const struct pg_names *nm = pg_names_of_run(dir);
	static int dests[4096];
	struct pg_event ev;
	sqlite3_stmt *s = NULL;
	sqlite3 *db;
	int rc, logs;

	if ((logs = tdb_open_read(dir, &db, err, sizeof(err))) < 0) {
		trace_error("%s", err);
		return 1;
	}
	q = sqlite3_mprintf(
		"SELECT e.ltid, e.seq, e.kind, e.peer, e.tag, e.msgid, e.len,"
		" e.t0 - (SELECT min(start_wall_ns) FROM tasks), e.t1, e.count,"
		" e.grp, e.op, e.arg, e.result, e.dests, s.ntask, s.file,"
		" s.children, (SELECT group_concat(DISTINCT m.unmatched)"
		" FROM %s m WHERE (m.send_event = e.id OR"
		" m.recv_event = e.id) AND m.unmatched IS NOT NULL)"
		" FROM events e LEFT JOIN spawns s ON e.kind = 'spawn'"
		" AND s.ltid = e.ltid AND s.seq = e.msgid ORDER BY e.t0, e.id",
		logs ? "um" : "messages");
	rc = !q ? SQLITE_NOMEM : logs ? merged_unmatched(db) : SQLITE_OK;
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, q, -1, &s, NULL);
	sqlite3_free(q);
	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		merged_event(s, &ev, dests, 4096);
		snprintf(spawn, sizeof(spawn), " %d x %s -> %s",
			 sqlite3_column_int(s, 15), sqlite3_column_text(s, 16),
			 sqlite3_column_text(s, 17));
		printf("task %d #%lld ", sqlite3_column_int(s, 0),
		       (long long)sqlite3_column_int64(s, 1));
		dump_body(nm, &ev, (double)sqlite3_column_int64(s, 7) / 1e9, NULL,
			  sqlite3_column_type(s, 16) == SQLITE_NULL ? "" : spawn);
		if (sqlite3_column_type(s, 18) != SQLITE_NULL) {
			const char *why = (const char *)sqlite3_column_text(s, 18);

			printf("    ^ unmatched: %s\n", strcmp(why, "selection") ?
			       why : "the other side was not selected for logging");
		}
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_DONE)
		trace_error("%s/%s: cannot read it: %s", dir,
			    logs ? "task-*.comm" : TDB_FILE, sqlite3_errmsg(db));
	sqlite3_finalize(s);
	sqlite3_close(db);
	return rc != SQLITE_DONE;
}

/* Dumps task LTID of DIR (RI: its run.info, for a log without its end
 * record); 0, or -1 if one of its logs is refused (the comm log is
 * dumped after a refused exec log, without its spawns). */
static int dump_task(const char *dir, int ltid, const struct pg_runinfo *ri)
{
	const struct pg_runinfo_task *rt = pg_runinfo_task(ri, ltid);
	const struct pg_names *nm = pg_names_of_run(dir);
	char path[PG_PATH_MAX], err[PG_PATH_MAX + 100];
	struct pg_comm_reader r;
	struct pg_exec_log x = { 0 };
	struct pg_event ev;
	long n = 0;
	int rc, ended = 0, bad_exec = 0;

	if (pg_log_path(path, sizeof(path), dir, ltid, "exec") == 0 &&
	    pg_exec_read(path, &x, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		bad_exec = 1;
	}
	if (pg_run_comm(&r, dir, ltid, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		pg_exec_free(&x);
		return -1;
	}
	/* (a host's architecture: run.info says it when they differ) */
	const char *arch = pg_runinfo_arch(ri, r.hdr.host);
	printf("task %d %s %s%s%s (tid t%x, parent %d, %s, %s polls%s%s)\n", ltid,
	       r.hdr.program, r.hdr.host, arch ? " " : "", arch ? arch : "",
	       (unsigned)r.hdr.tid,
	       r.hdr.parent_ltid, r.hdr.mode == 2 ? "replay" : "record",
	       r.hdr.flags & PG_COMM_LOOSE_POLLS ? "loose" : "exact",
	       r.hdr.select[0] ? ", selection " : "", r.hdr.select);
	r.values = 1; /* clock reads and seeds too, between the events */
	while ((rc = pg_comm_next(&r, &ev, err, sizeof(err))) > 0) {
		if (ev.kind == PG_REC_TIME || ev.kind == PG_REC_SEED) {
			char d[512];

			pg_value_describe(&ev, d, sizeof(d));
			printf("     %s %s\n", pg_rec_kind_name(ev.kind), d);
			continue;
		}
		dump_event(nm, ++n, &ev, &x);
		ended = ev.kind == PG_REC_END;
	}
	if (rc == 0 && !ended && rt && pg_end_how_name(rt->how))
		printf("  (log ends here: no end record, but run.info says "
		       "the task ended (%s): the log was cut)\n",
		       pg_end_how_name(rt->how));
	else if (rc == 0 && !ended)
		printf("  (log ends here: no end record)\n");
	if (rc < 0)
		trace_error("%s", err);
	pg_comm_free(&r);
	pg_exec_free(&x);
	return rc < 0 || bad_exec ? -1 : 0;
}

/* Dumps the launcher's spawns (task 0 has an exec log and no comm
 * log); 0, or -1 if its exec log is refused. */
static int dump_launcher(const char *dir)
{
	char path[PG_PATH_MAX], err[PG_PATH_MAX + 100];
	struct pg_exec_log x;

	if (pg_log_path(path, sizeof(path), dir, 0, "exec") < 0 ||
	    pg_exec_read(path, &x, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		return -1;
	}
	printf("launcher (task 0, no communication log): its spawns\n");
	for (int i = 0; i < x.nspawn; i++) {
		printf("  spawn #%d", x.spawns[i].seq);
		dump_spawn(&x, (unsigned)x.spawns[i].seq);
		printf("\n");
	}
	pg_exec_free(&x);
	return 0;
}

/* Prints what the tasks of DIR printed (output.log; only task LTID's
 * unless ALL), with their times in wall-clock s; 0, or -1 (said) when
 * it cannot be read or there is none. */
static int dump_output(const char *dir, int all, int ltid)
{
	char path[PG_PATH_MAX + 16], err[PG_PATH_MAX + 200];
	struct pg_out_log log;

	snprintf(path, sizeof(path), "%s/output.log", dir);
	if (pg_outlog_read(path, &log, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		pg_outlog_free(&log);
		return -1;
	}
	printf("output (output.log, wall-clock s)\n");
	for (size_t i = 0; i < log.n; i++) {
		const struct pg_out_piece *p = &log.pieces[i];

		if (!all && p->ltid != ltid)
			continue;
		printf("  task %d %lld.%09lld %s ", p->ltid,
		       (long long)(p->ns / 1000000000),
		       (long long)(p->ns % 1000000000), p->nl ? "line" : "part");
		for (size_t k = 0; k < p->len; k++) { /* a NUL as '?' */
			char c = log.data[p->off + k];

			putchar(c ? c : '?');
		}
		putchar('\n');
	}
	pg_outlog_free(&log);
	return 0;
}

/* Dumps every task of DIR in ltid order (the launcher first when it
 * left an exec log); 0 or 1. */
static int dump_all(const char *dir, const struct pg_runinfo *ri)
{
	int *ltids, *xl, n = pg_run_ltids(dir, "comm", &ltids),
	    nx = pg_run_ltids(dir, "exec", &xl), rc = 0;

	if (n < 0 || nx < 0) {
		trace_error("cannot open log folder %s: %s", dir,
			    strerror(errno));
		free(ltids);
		free(xl);
		return 1;
	}
	if (n == 0) {
		trace_error("%s holds no task logs", dir);
		free(xl);
		return 1;
	}
	if (pg_run_has(xl, nx, 0) && !pg_run_has(ltids, n, 0))
		rc |= dump_launcher(dir) < 0;
	for (int i = 0; i < n; i++)
		rc |= dump_task(dir, ltids[i], ri) < 0;
	free(ltids);
	free(xl);
	return rc;
}

/* Entry point of "dump": 0, or 1 when a log or run.info was refused
 * (what could be read is printed all the same). */
static int dump_run(int argc, char **argv)
{
	char err[PG_PATH_MAX + 200];
	struct pg_runinfo ri;
	const char *dir = argv[argc - 1];
	char *end = NULL;
	long ltid = 0;
	int rc, bad, out = 0;

	if (argc == 3 && strcmp(argv[1], "--merged") == 0)
		return dump_merged(argv[2]);
	if (argc >= 3 && strcmp(argv[1], "--output") == 0) { /* then as -task */
		argc--;
		argv++;
		out = 1;
	}
	if (argc == 4 && strcmp(argv[1], "-task") == 0) {
		errno = 0;
		ltid = strtol(argv[2], &end, 10);
	}
	if (!(argc == 2 || (end && end != argv[2] && !*end && !errno &&
			    ltid >= INT_MIN && ltid <= INT_MAX))) {
		trace_error("usage: pangaea-trace %s", trace_cmd_dump.usage);
		return 1;
	}
	if (out)
		return dump_output(dir, argc != 4, (int)ltid) < 0;
	if ((bad = pg_runinfo_read(dir, &ri, err, sizeof(err)) < 0))
		trace_error("%s", err);
	rc = argc == 4 ? dump_task(dir, (int)ltid, &ri) < 0
		       : dump_all(dir, &ri);
	pg_runinfo_free(&ri);
	return rc || bad;
}

const struct trace_cmd trace_cmd_dump = {
	"dump", "dump [--output] [-task LTID] LOGDIR | dump --merged LOGDIR",
	dump_run
};
