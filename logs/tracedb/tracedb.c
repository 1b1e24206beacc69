/*
 * tracedb.c: imports a run's logs into its trace database LOGDIR/trace.db
 * (schema in docs/TRACEDB.md), and opens it for the analysis commands.
 *
 * The import reads every task's logs once, inserts tasks, spawns and
 * events as it goes (one transaction, prepared statements, no journal:
 * the file is a temporary one renamed over trace.db at the end, so a
 * failed import leaves the previous database as it was), hands every
 * event's message ends to the matcher (tracedb-match.c), which writes the
 * messages table, and builds the indexes last.
 */
#include "tracedb-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The state of one import. */
struct tdb_imp {
	const char *dir;
	sqlite3 *db;
	sqlite3_stmt *ev, *task, *spawn, *msg, *meta;
	int salvage;
	int sync;             /* the --sync mode asked (enum tdb_sync_mode) */
	const char *sync_made; /* the mode that made the times */
	struct tdb_sync_report rep; /* the clock's, when it ran */
	struct pg_clocksync cs; /* the clock samples of the logs */
	struct tdb_sync_feed feed; /* the clock's input (when it runs) */
	int feeding;          /* the clock will run: fill feed */
	struct tdb_clocks_job *clocks; /* the vector clocks being made */
	int64_t next_ev;
	struct tdb_match tm;  /* the messages table */
	struct pg_runinfo ri;
	int ri_found;         /* run.info was there */
	struct pg_run run;    /* tasks with a .comm log, their logs */
	int *ltids, nltid;    /* run.ltids (sorted), run.n */
	int *xltids, nx;      /* tasks with a .exec log, sorted */
	int *kids;            /* the tasks the spawns started */
	size_t nkids, kids_cap;
	int mode, loose, selective;
	char select[PG_SELECT_MAX];
	uint64_t start_wall;  /* earliest task start */
	struct pg_strbuf hosts, salvaged, tmp;
	struct tdb_import_stats *st;
};

/* Prepares the insert statements of IM; 0 or -1. */
static int imp_prepare(struct tdb_imp *im)
{
	static const char *const sql[] = {
		"INSERT INTO events VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		"INSERT INTO tasks VALUES(?,?,?,?,?,?,?,?,?,?,?)",
		"INSERT INTO spawns VALUES(?,?,?,?,?,?,?,?,?)",
		"INSERT INTO messages VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
		"INSERT OR REPLACE INTO meta VALUES(?,?)",
	};
	sqlite3_stmt **out[] = { &im->ev, &im->task, &im->spawn, &im->msg,
				 &im->meta };

	for (size_t i = 0; i < sizeof(sql) / sizeof(sql[0]); i++)
		if (sqlite3_prepare_v2(im->db, sql[i], -1, out[i], NULL) !=
		    SQLITE_OK)
			return -1;
	return 0;
}

/* Runs statement S (bound already) and resets it; 0 or -1. */
static int step(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Binds the text S (copied) to column I, or NULL when S is NULL. */
static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* Notes a damaged log (salvage mode) in meta 'salvaged'. */
static void imp_note(struct tdb_imp *im, const char *what)
{
	pg_strbuf_printf(&im->salvaged, "%s%s", im->salvaged.len ? "\n" : "",
			 what);
	if (im->st)
		im->st->nsalvaged++;
}

/* Inserts event number SEQ of task LTID (started at WALL by its host's
 * clock, at OWN by its own header) and feeds its message ends to the
 * matcher; 0 or -1 with ERR. */
static int put_event(struct tdb_imp *im, int ltid, long seq, uint64_t wall,
		     uint64_t own, const struct pg_event *ev, char *err,
		     size_t errlen)
{
	int64_t id = ++im->next_ev, t0 = (int64_t)(wall + ev->t),
		t1 = t0 + (int64_t)ev->dur, d = (int64_t)(own - wall);
	int64_t t[4] = { t0, t1, t0, t1 };
	struct tdb_row row;

	if (im->sync == TDB_SYNC_NONE) {
		t[0] = t0 += d;
		t[1] = t1 += d;
	}
	if (im->feeding &&
	    tdb_sync_feed_event(&im->feed, ltid, ev, t0, t1) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (tdb_event_row(&row, ev, id, ltid, seq, t, &im->tmp) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	tdb_row_bind(im->ev, &row);
	if (sqlite3_step(im->ev) != SQLITE_DONE) {
		sqlite3_reset(im->ev);
		snprintf(err, errlen, "cannot insert an event: %s",
			 sqlite3_errmsg(im->db));
		return -1;
	}
	sqlite3_reset(im->ev);
	return tdb_match_event(&im->tm, ltid, id, ev, t0, t1, err, errlen);
}

/* Adds HOST to the run's host list unless it is there already. */
static void imp_host(struct tdb_imp *im, const char *host)
{
	const char *p = im->hosts.p;
	size_t l = strlen(host);

	if (!host[0])
		return;
	while (p && (p = strstr(p, host))) {
		if ((p == im->hosts.p || p[-1] == ' ') && (!p[l] || p[l] == ' '))
			return;
		p += l;
	}
	pg_strbuf_printf(&im->hosts, "%s%s", im->hosts.len ? " " : "", host);
}

/* The summary of one task's events, for its tasks row. */
struct tdb_task_sum {
	long n;
	int64_t first, last;
	int how, value;
};

/* Inserts the tasks row of LTID from the header H (NULL: from run.info
 * or nothing) and the summary S; 0 or -1. */
static int put_task(struct tdb_imp *im, int ltid,
		    const struct pg_comm_header *h, uint64_t base,
		    const struct tdb_task_sum *s)
{
	const struct pg_runinfo_task *r = pg_runinfo_task(&im->ri, ltid);
	sqlite3_stmt *q = im->task;

	sqlite3_bind_int(q, 1, ltid);
	if (h) {
		sqlite3_bind_int(q, 2, h->parent_ltid);
		sqlite3_bind_int(q, 3, h->tid);
		bind_text(q, 4, h->program);
		bind_text(q, 5, h->host);
		sqlite3_bind_int64(q, 6, (int64_t)base);
	} else if (r) {
		sqlite3_bind_int(q, 3, r->tid);
		bind_text(q, 4, r->program);
		bind_text(q, 5, r->host);
	} else if (ltid == 0) {
		bind_text(q, 4, "pangaea");
		bind_text(q, 5, im->ri.launcher_host[0] ? im->ri.launcher_host
							: NULL);
	}
	bind_text(q, 7, pg_end_how_name(s->how));
	if (pg_end_how_name(s->how))
		sqlite3_bind_int(q, 8, s->value);
	if (s->n > 0) {
		sqlite3_bind_int64(q, 9, s->first);
		sqlite3_bind_int64(q, 10, s->last);
	}
	sqlite3_bind_int64(q, 11, s->n);
	if (im->st)
		im->st->ntasks++;
	return step(q);
}

/* Takes the run-wide facts (mode, polls, selection, hosts) from H. */
static void imp_header(struct tdb_imp *im, const struct pg_comm_header *h)
{
	if (!im->mode)
		im->mode = (int)h->mode;
	im->loose |= (h->flags & PG_COMM_LOOSE_POLLS) != 0;
	if (h->select[0]) {
		im->selective = 1;
		snprintf(im->select, sizeof(im->select), "%s", h->select);
	}
	if (!im->start_wall || h->start_wall_ns < im->start_wall)
		im->start_wall = h->start_wall_ns;
	imp_host(im, h->host);
}

/* Reads the events of the open log R of task LTID into the database;
 * fills S.  0; -1 with ERR when the log is damaged (and not salvaged)
 * or the database fails. */
static int imp_events(struct tdb_imp *im, struct pg_comm_reader *r, int ltid,
		      uint64_t base, struct tdb_task_sum *s, char *err,
		      size_t errlen)
{
	struct pg_event ev;
	int rc, ended = 0;

	while ((rc = pg_comm_next(r, &ev, err, errlen)) > 0) {
		/* pg_comm_next bounds t + dur below 2^61 and the header times
		 * below 2^62 (imp_base too): no sum here overflows */
		int64_t t0 = (int64_t)(im->sync == TDB_SYNC_NONE
				       ? r->hdr.start_wall_ns + ev.t
				       : base + ev.t);
		char why[512];

		if (put_event(im, ltid, ++s->n, base, r->hdr.start_wall_ns,
			      &ev, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s: record at offset %zu: %s",
				 r->path, r->at, why);
			return -2;
		}
		if (s->n == 1)
			s->first = t0;
		if (t0 + (int64_t)ev.dur > s->last)
			s->last = t0 + (int64_t)ev.dur;
		if ((ended = ev.kind == PG_REC_END)) {
			s->how = ev.how;
			s->value = ev.value;
		}
	}
	if (rc == 0)
		rc = pg_runinfo_check_end(&im->ri, ltid, r, ended, err, errlen);
	return rc;
}

/* The wall-clock time of t = 0 in the log R (one of IM's): pg_comm_base. */
static uint64_t imp_base(const struct tdb_imp *im,
			 const struct pg_comm_reader *r)
{
	return pg_run_base(&im->run, (int)(r - im->run.rd));
}

/* Opens every communication log of the run (headers read); 0 or -1. */
static int imp_open_logs(struct tdb_imp *im, char *err, size_t errlen)
{
	int rc;

	while ((rc = pg_run_open_all(&im->run, err, errlen)) == -1) {
		if (!im->salvage)
			return -1;
		imp_note(im, err);
	}
	for (int i = 0; rc == 0 && i < im->nltid; i++)
		if (im->run.ok[i])
			imp_header(im, &im->run.rd[i].hdr);
	return rc < 0 ? -1 : 0;
}

/* Imports the I-th communication log of the run; 0 or -1 with ERR. */
static int imp_task(struct tdb_imp *im, int i, char *err, size_t errlen)
{
	struct pg_comm_reader *r = &im->run.rd[i];
	struct tdb_task_sum s = { 0 };
	uint64_t base;
	int rc, ltid = im->ltids[i];

	if (!im->run.ok[i])
		return put_task(im, ltid, NULL, 0, &s);
	base = imp_base(im, r);
	rc = imp_events(im, r, ltid, base, &s, err, errlen);
	if (rc == -1 && im->salvage) {
		imp_note(im, err);
		rc = 0;
	}
	/* a sample's offset is against start_wall + t; the host's local
	 * time of t is base + t */
	for (int j = 0; j < r->nclock && rc == 0; j++)
		if (pg_clocksync_add(&im->cs, r->hdr.host, base + r->clock[j].t,
				     r->clock[j].offset +
				     (int64_t)(r->hdr.start_wall_ns - base),
				     r->clock[j].rtt) < 0) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
	if (rc == 0 && put_task(im, ltid, &r->hdr, base, &s) < 0) {
		snprintf(err, errlen, "%s: cannot insert its task %d: %s",
			 r->path, ltid, sqlite3_errmsg(im->db));
		rc = -1;
	}
	pg_comm_free(r); /* the header stays for imp_base */
	return rc < 0 ? -1 : 0;
}

/* Notes the tasks the spawn REC started (for imp_other_tasks); 0 or
 * -1 when memory runs out. */
static int imp_kids(struct tdb_imp *im, const struct pg_spawn_rec *rec)
{
	for (int k = 0; k < rec->ntask; k++) {
		int *v;

		if (rec->slots[k].ltid <= 0)
			continue;
		if (!(v = pg_grow(im->kids, &im->kids_cap, im->nkids + 1,
				  sizeof(*v), 64)))
			return -1;
		im->kids = v;
		im->kids[im->nkids++] = rec->slots[k].ltid;
	}
	return 0;
}

/* Whether a spawn of the run started task LTID; 1 or 0. */
static int imp_is_kid(const struct tdb_imp *im, int ltid)
{
	for (size_t i = 0; i < im->nkids; i++)
		if (im->kids[i] == ltid)
			return 1;
	return 0;
}

/* Inserts the spawns of task LTID's execution log; 0 or -1 with ERR. */
static int imp_spawns(struct tdb_imp *im, int ltid, char *err, size_t errlen)
{
	char path[PG_PATH_MAX];
	struct pg_exec_log x = { 0 };
	struct pg_strbuf kids = { 0 };
	sqlite3_stmt *q = im->spawn;
	int rc = 0, seq = 0;

	if (pg_log_path(path, sizeof(path), im->dir, ltid, "exec") < 0 ||
	    pg_exec_read(path, &x, err, errlen) < 0) {
		if (!im->salvage)
			return -1;
		imp_note(im, err);
		return 0;
	}
	for (int i = 0; i < x.nspawn && rc == 0; i++) {
		const struct pg_spawn_rec *s = &x.spawns[i];

		seq = s->seq;
		if ((rc = tdb_spawn_bind(q, ltid, s, &im->tmp, &kids)) < 0 ||
		    (rc = imp_kids(im, s)) < 0)
			break;
		rc = step(q);
	}
	if (rc < 0)
		snprintf(err, errlen, "%s: cannot insert spawn %d: %s", path,
			 seq, sqlite3_errmsg(im->db));
	pg_strbuf_free(&kids);
	pg_exec_free(&x);
	return rc;
}

/* Inserts tasks rows for tasks without a communication log: the
 * launcher (task 0) and what run.info lists.  A run.info task with no
 * log must be one a spawn started (killed before it joined the run);
 * any other is refused (salvage: left out).  0, or -1 with ERR. */
static int imp_other_tasks(struct tdb_imp *im, char *err, size_t errlen)
{
	struct tdb_task_sum none = { 0 };

	if (pg_run_has(im->xltids, im->nx, 0) &&
	    !pg_run_has(im->ltids, im->nltid, 0) &&
	    put_task(im, 0, NULL, 0, &none) < 0)
		goto db;
	for (size_t i = 0; i < im->ri.ntasks; i++) {
		const struct pg_runinfo_task *t = &im->ri.tasks[i];

		if (t->ltid == 0 || pg_run_has(im->ltids, im->nltid, t->ltid))
			continue;
		if (!imp_is_kid(im, t->ltid)) {
			snprintf(err, errlen, "%s/run.info:%d: task %d has no "
				 "communication log and no spawn of the run "
				 "started it", im->dir, t->line, t->ltid);
			if (!im->salvage)
				return -1;
			imp_note(im, err);
			continue;
		}
		if (put_task(im, t->ltid, NULL, 0, &none) < 0)
			goto db;
	}
	return 0;
db:
	snprintf(err, errlen, "%s/trace.db: cannot insert a task: %s",
		 im->dir, sqlite3_errmsg(im->db));
	return -1;
}

/* Inserts the meta row KEY = VALUE (NULL values are left out). */
static int put_meta(struct tdb_imp *im, const char *key, const char *value)
{
	if (!value)
		return 0;
	bind_text(im->meta, 1, key);
	bind_text(im->meta, 2, value);
	return step(im->meta);
}

/* Inserts the meta rows; 0 or -1. */
static int imp_meta(struct tdb_imp *im)
{
	char ver[16], wall[32], stamp[64], status[16], dir[PG_PATH_MAX];
	time_t now = time(NULL);
	const char *mode = im->ri.mode[0] ? im->ri.mode :
			   im->mode == 2 ? "replay" : "record";
	int rc = 0;

	snprintf(ver, sizeof(ver), "%d", TDB_SCHEMA_VERSION);
	snprintf(wall, sizeof(wall), "%llu", (unsigned long long)im->start_wall);
	snprintf(status, sizeof(status), "%d", im->ri.status);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (!realpath(im->dir, dir))
		snprintf(dir, sizeof(dir), "%s", im->dir);
	rc |= put_meta(im, "schema_version", ver);
	rc |= put_meta(im, "logdir", dir);
	rc |= put_meta(im, "mode", mode);
	rc |= put_meta(im, "command", im->ri_found ? im->ri.command : NULL);
	rc |= put_meta(im, "start_wall_ns", wall);
	rc |= put_meta(im, "hosts", im->hosts.p ? im->hosts.p : "");
	rc |= put_meta(im, "selection", im->select);
	rc |= put_meta(im, "polls", im->loose ? "loose" : "exact");
	rc |= put_meta(im, "imported_at", stamp);
	rc |= put_meta(im, "status", im->ri_found ? status : NULL);
	rc |= put_meta(im, "replay_of", im->ri.replay_of[0] ? im->ri.replay_of
							    : NULL);
	rc |= put_meta(im, "salvaged", im->salvaged.p);
	/* hosts of several architectures: each host's (run.info's) */
	for (size_t i = 0; i < im->ri.narchs; i++) {
		char key[PG_HOST_MAX + 8];
		snprintf(key, sizeof(key), "arch:%s", im->ri.archs[i].host);
		rc |= put_meta(im, key, im->ri.archs[i].arch);
	}
	return rc ? -1 : 0;
}

/* Makes the times of the mode asked: the raw times mapped by the clock
 * samples for linear; those (or the raw times, without samples) put
 * through the controlled logical clock for clc, and for auto when the
 * run spans hosts or the clock finds violations (else auto is offset);
 * notes the mode in meta 'sync' and what the clock did.  0, or -1 with
 * ERR. */
static int imp_sync(struct tdb_imp *im, char *err, size_t errlen)
{
	char v[3][32];
	int spans = im->hosts.p && strchr(im->hosts.p, ' '), rc = 0;
	int linear = im->sync == TDB_SYNC_LINEAR;

	im->sync_made = tdb_sync_name(im->sync);
	pg_clocksync_fit(&im->cs);
	if (linear && im->cs.nhosts == 0) {
		snprintf(err, errlen, "%s: --sync linear needs the clock samples "
			 "of the logs, and these have none", im->dir);
		return -1;
	}
	if (linear || im->sync == TDB_SYNC_AUTO || im->sync == TDB_SYNC_CLC) {
		int how = im->sync != TDB_SYNC_AUTO || spans
			  ? TDB_SYNC_WRITE : TDB_SYNC_IF_VIOLATED;

		if (tdb_sync_times_fed(im->db, &im->feed, &im->cs, !linear, how,
				       &im->rep, err, errlen) < 0)
			return -1;
		im->sync_made = linear ? "linear" : im->rep.written ? "clc"
								    : "offset";
		snprintf(v[0], sizeof(v[0]), "%zu", im->rep.violations_before);
		snprintf(v[1], sizeof(v[1]), "%zu", im->rep.violations_after);
		snprintf(v[2], sizeof(v[2]), "%lld",
			 (long long)im->rep.max_corr);
		rc |= put_meta(im, "sync_violations_before", v[0]);
		rc |= put_meta(im, "sync_violations_after",
			       im->rep.written ? v[1] : v[0]);
		rc |= put_meta(im, "sync_max_correction_ns",
			       im->rep.written ? v[2] : "0");
	}
	rc |= put_meta(im, "sync", im->sync_made);
	if (im->rep.written && !linear)
		rc |= put_meta(im, "sync_base", im->cs.nhosts ? "linear"
							     : "offset");
	if (rc) {
		snprintf(err, errlen, "%s/trace.db: cannot insert its meta "
			 "rows: %s", im->dir, sqlite3_errmsg(im->db));
		return -1;
	}
	return 0;
}

/* Makes TMP a new empty file (never a link found there), as private as
 * the logs of LOGDIR (their run.info's or task-0.exec's mode, 0600 at
 * least; 0600 without them), and gives in *BORN the time the file system
 * stamped it with: when the import began, on the clock of the logs'
 * own modification times.  0, or -1 with ERR. */
static int imp_begin(const char *logdir, const char *tmp,
		     struct timespec *born, char *err, size_t errlen)
{
	char path[PG_PATH_MAX + 16];
	mode_t mode = 0600;
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/run.info", logdir);
	if (stat(path, &st) == 0 ||
	    (snprintf(path, sizeof(path), "%s/task-0.exec", logdir),
	     stat(path, &st) == 0))
		mode |= st.st_mode & 0666;
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd >= 0 && fchmod(fd, mode) < 0) {
		close(fd);
		fd = -1;
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", tmp,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	*born = st.st_mtim;
	return 0;
}

/* Dates the finished database TMP with BORN (so that tdb_stale counts a
 * log written during the import as newer) and renames it to DBPATH;
 * 0, or -1 with ERR. */
static int imp_install(const char *tmp, const char *dbpath,
		       const struct timespec *born, char *err, size_t errlen)
{
	struct timespec times[2] = { { 0, UTIME_OMIT }, *born };

	if (utimensat(AT_FDCWD, tmp, times, 0) < 0) {
		snprintf(err, errlen, "cannot date %s: %s", tmp, strerror(errno));
		return -1;
	}
	if (rename(tmp, dbpath) < 0) {
		snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, dbpath,
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* Makes the empty file TMP the database, with the schema, fast settings. */
static int imp_create(struct tdb_imp *im, const char *tmp, char *err,
		      size_t errlen)
{
	char *msg = NULL;

	/* no allocation statistics (a mutex per malloc); fails harmlessly
	 * once SQLite is initialised */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (sqlite3_open_v2(tmp, &im->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		goto fail;
	if (sqlite3_exec(im->db,
			 "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
			 "PRAGMA locking_mode=EXCLUSIVE; PRAGMA page_size=4096;"
			 "PRAGMA cache_size=-16384; PRAGMA temp_store=MEMORY;"
			 "PRAGMA threads=2;",
			 NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(im->db, tdb_schema_sql(), NULL, NULL, &msg) !=
		    SQLITE_OK ||
	    sqlite3_exec(im->db, "BEGIN", NULL, NULL, &msg) != SQLITE_OK ||
	    imp_prepare(im) < 0)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "cannot create %s: %s", tmp,
		 msg ? msg : im->db ? sqlite3_errmsg(im->db) : "out of memory");
	sqlite3_free(msg);
	return -1;
}

/* Imports every log of IM->dir into the open database; 0 or -1. */
static int imp_all(struct tdb_imp *im, char *err, size_t errlen)
{
	char *msg = NULL, why[512];
	int rc, listed = pg_run_open(&im->run, im->dir, err, errlen);

	im->ltids = im->run.ltids;
	im->nltid = im->run.n;
	im->nx = pg_run_ltids(im->dir, "exec", &im->xltids);
	if (listed < 0 || (im->nltid == 0 && im->nx <= 0)) {
		snprintf(err, errlen, "%s is not a Pangaea log folder (no "
			 "task-*.comm or task-*.exec files)", im->dir);
		return -1;
	}
	if ((im->ri_found = pg_runinfo_read(im->dir, &im->ri, err, errlen)) < 0)
		return -1;
	if (imp_open_logs(im, err, errlen) < 0)
		return -1;
	if (!(im->clocks = tdb_clocks_start(im->dir))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	im->feeding = im->sync == TDB_SYNC_LINEAR || im->sync == TDB_SYNC_AUTO ||
		      im->sync == TDB_SYNC_CLC;
	im->tm = (struct tdb_match){ .db = im->db, .ins = im->msg, .st = im->st,
		.run = { im->ltids, im->nltid, im->selective },
		.feed = im->feeding ? &im->feed : NULL };
	for (int i = 0; i < im->nltid; i++)
		if (imp_task(im, i, err, errlen) < 0)
			return -1;
	for (int i = 0; i < im->nx; i++)
		if (imp_spawns(im, im->xltids[i], err, errlen) < 0)
			return -1;
	if (imp_other_tasks(im, err, errlen) < 0)
		return -1;
	switch (tdb_output_import(im->db, im->dir, im->salvage, err, errlen)) {
	case -1:
		return -1;
	case 1:
		imp_note(im, err); /* salvaged */
	}
	rc = tdb_clocks_finish(im->clocks, im->db, err, errlen);
	im->clocks = NULL;
	switch (rc) {
	case -1:
		return -1;
	case 1: /* no clocks: damaged logs, or logs without an order */
		if (put_meta(im, "clocks_missing", err) < 0)
			return -1;
	}
	if (imp_meta(im) < 0) {
		snprintf(err, errlen, "%s/trace.db: cannot insert its meta "
			 "rows: %s", im->dir, sqlite3_errmsg(im->db));
		return -1;
	}
	if (tdb_match_finish(&im->tm, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s/trace.db: %s", im->dir, why);
		return -1;
	}
	if (imp_sync(im, err, errlen) < 0)
		return -1;
	if (sqlite3_exec(im->db, tdb_index_sql(), NULL, NULL, &msg) !=
		    SQLITE_OK ||
	    sqlite3_exec(im->db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "%s/trace.db: cannot finish the "
			 "database: %s", im->dir, msg ? msg : "?");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* Frees what IM holds and closes its database. */
static void imp_free(struct tdb_imp *im)
{
	sqlite3_finalize(im->ev);
	sqlite3_finalize(im->task);
	sqlite3_finalize(im->spawn);
	sqlite3_finalize(im->msg);
	sqlite3_finalize(im->meta);
	sqlite3_close(im->db);
	tdb_clocks_finish(im->clocks, NULL, NULL, 0);
	pg_run_close(&im->run);
	tdb_match_free(&im->tm);
	pg_runinfo_free(&im->ri);
	free(im->xltids);
	free(im->kids);
	pg_strbuf_free(&im->hosts);
	pg_strbuf_free(&im->salvaged);
	pg_strbuf_free(&im->tmp);
	tdb_sync_report_free(&im->rep);
	pg_clocksync_free(&im->cs);
	tdb_sync_feed_free(&im->feed);
}

/* Seconds of CLOCK_MONOTONIC. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int tdb_import(const char *logdir, const char *dbpath, int salvage,
	       struct tdb_import_stats *st, char *err, size_t errlen)
{
	return tdb_import_sync(logdir, dbpath, salvage, TDB_SYNC_AUTO, st, err,
			       errlen);
}

int tdb_import_sync(const char *logdir, const char *dbpath, int salvage,
		    int sync, struct tdb_import_stats *st, char *err,
		    size_t errlen)
{
	char path[PG_PATH_MAX], tmp[PG_PATH_MAX + 32];
	struct tdb_import_stats dummy;
	struct tdb_imp im = { 0 };
	struct timespec born = { 0, 0 };
	double t = now_s();
	int rc;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	if (!dbpath && tdb_path(path, sizeof(path), logdir) < 0) {
		snprintf(err, errlen, "log folder path too long: %s", logdir);
		return -1;
	}
	dbpath = dbpath ? dbpath : path;
	snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", dbpath, (long)getpid());
	im.dir = logdir;
	im.salvage = salvage;
	im.sync = sync;
	im.st = st;
	rc = imp_begin(logdir, tmp, &born, err, errlen);
	if (rc == 0)
		rc = imp_create(&im, tmp, err, errlen);
	if (rc == 0)
		rc = imp_all(&im, err, errlen);
	st->nevents = im.next_ev;
	st->sync = im.sync_made;
	st->violations_before = im.rep.violations_before;
	st->violations_after = im.rep.written ? im.rep.violations_after
					      : im.rep.violations_before;
	st->max_corr = im.rep.written ? im.rep.max_corr : 0;
	imp_free(&im);
	if (rc == 0)
		rc = imp_install(tmp, dbpath, &born, err, errlen);
	if (rc < 0)
		unlink(tmp);
	st->seconds = now_s() - t;
	return rc;
}

/* Makes a private folder (mkdtemp, mode 0700) in $TMPDIR or /tmp into
 * DIR, and the path of a database there into PATH; 0, or -1 with ERR. */
static int scratch_path(char *dir, size_t dn, char *path, size_t pn,
			char *err, size_t errlen)
{
	const char *tmpdir = getenv("TMPDIR");

	snprintf(dir, dn, "%s/pangaea-trace.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "cannot create a temporary folder %s: %s",
			 dir, strerror(errno));
		return -1;
	}
	snprintf(path, pn, "%s/trace.db", dir);
	return 0;
}

int tdb_open(const char *logdir, sqlite3 **db, char *err, size_t errlen)
{
	char path[PG_PATH_MAX], dir[PG_PATH_MAX - 16] = "";
	int scratch = 0;

	*db = NULL;
	if (tdb_path(path, sizeof(path), logdir) < 0) {
		snprintf(err, errlen, "log folder path too long: %s", logdir);
		return -1;
	}
	if (tdb_stale(logdir)) {
		/* a folder we may not write to gets a private database that
		 * lives as long as the connection (unlinked once open) */
		if (access(logdir, W_OK) < 0) {
			if (scratch_path(dir, sizeof(dir), path, sizeof(path),
					 err, errlen) < 0)
				return -1;
			scratch = 1;
		}
		if (tdb_import(logdir, scratch ? path : NULL, 0, NULL, err,
			       errlen) < 0) {
			if (scratch)
				rmdir(dir);
			return -1;
		}
	}
	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY |
			    SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK ||
	    sqlite3_exec(*db, "SELECT count(*) FROM meta", NULL, NULL,
			 NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open %s: %s", path,
			 *db ? sqlite3_errmsg(*db) : "out of memory");
		sqlite3_close(*db);
		*db = NULL;
	}
	if (scratch) {
		unlink(path);
		rmdir(dir);
	}
	return *db ? 0 : -1;
}
