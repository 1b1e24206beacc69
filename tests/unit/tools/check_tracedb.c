/*
 * check_tracedb.c: unit tests of the trace database importer
 * (logs/tracedb/tracedb.c, logs/tracedb/tracedb-match.c) on synthetic runs written with
 * the real log writers: tables, message matching and its explanations,
 * receives imported before their sends, times, re-import, staleness, and
 * refusal or salvage of damaged logs.
 */
#include "pangaea-logs.h"
#include "tracedb.h"
#include "checkutil.h"

#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WALL 1700000000000000000LL /* start_wall_ns of the synthetic tasks */

/* An event of KIND with PEER, TAG, MSGID at T us (dur D us). */
static struct pg_event ev(int kind, int peer, int tag, unsigned msgid,
			  unsigned t_us, unsigned d_us)
{
	return cku_event(kind, peer, tag, msgid, t_us, d_us);
}

/* The end record at T us. */
static struct pg_event ev_end(unsigned t_us)
{
	struct pg_event e = ev(PG_REC_END, 0, 0, 0, t_us, 0);

	e.how = 1;
	return e;
}

/* Writes DIR/task-LTID.comm: header (wall start WALL + SKEW ns, mono
 * start MONO) and the N events of E; returns the file size. */
static off_t write_task(int ltid, int parent, long long skew, uint64_t mono,
			const char *select, const struct pg_event *e, int n)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char path[PATH_MAX + 32], err[512];
	struct stat st;

	memset(&h, 0, sizeof(h));
	h.version = PG_COMM_VERSION;
	h.ltid = ltid;
	h.tid = 0x40000 + ltid;
	h.parent_ltid = parent;
	h.mode = 1;
	h.start_wall_ns = (uint64_t)(WALL + skew);
	h.start_mono_ns = mono;
	snprintf(h.host, sizeof(h.host), "vm");
	snprintf(h.program, sizeof(h.program), "/bin/prog");
	snprintf(h.select, sizeof(h.select), "%s", select);
	snprintf(path, sizeof(path), "%s/task-%d.comm", cku_dir, ltid);
	unlink(path); /* pg_comm_create makes only new files */
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), 0);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(pg_comm_append(&w, &e[i]), 0);
	pg_comm_close(&w);
	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_size;
}

/* Writes DIR/task-LTID.exec with one spawn of the tasks KIDS (N). */
static void write_exec(int ltid, const int *kids, int n)
{
	struct pg_spawn_rec r;
	struct pg_spawn_slot slots[8];
	char path[PATH_MAX + 32], err[512], *argv[] = { "-x", "a b", NULL };
	int fd;

	memset(&r, 0, sizeof(r));
	snprintf(path, sizeof(path), "%s/task-%d.exec", cku_dir, ltid);
	fd = pg_exec_create(path, ltid, err, sizeof(err));
	ck_assert_int_ge(fd, 0);
	r.seq = 1;
	snprintf(r.file, sizeof(r.file), "/bin/prog");
	r.ntask = r.started = n;
	r.argc = 2;
	r.argv = argv;
	r.slots = slots;
	for (int i = 0; i < n; i++) {
		slots[i].ltid = kids[i];
		slots[i].err = 0;
		snprintf(slots[i].host, sizeof(slots[i].host), "vm");
	}
	ck_assert_int_eq(pg_exec_append(fd, &r), 0);
	close(fd);
}

/*
 * The standard run: task 1 spawns 1001 and 1002, sends each a message,
 * mcasts one message to both; 1001 probes then receives its two, sends
 * 1002 a message that 1002 never receives; 1002 receives its two and one
 * from a task outside the run.  Task 1 then joins a group.
 */
static void write_run(void)
{
	struct pg_event t1[] = {
		ev(PG_REC_SPAWN, 0, 0, 1, 10, 100),
		ev(PG_REC_SEND, 1001, 5, 1, 200, 3),
		ev(PG_REC_SEND, 1002, 5, 2, 210, 3),
		ev(PG_REC_MCAST, 0, 6, 3, 220, 4),
		ev(PG_REC_GROUP, 0, 0, 0, 230, 5),
		ev(PG_REC_POLLFAIL, 0, 0, 0, 240, 0),
		ev_end(300),
	};
	struct pg_event a[] = {
		ev(PG_REC_PROBE, 1, 5, 1, 50, 1),
		ev(PG_REC_RECV, 1, 5, 1, 60, 200),
		ev(PG_REC_NRECV, 1, 6, 3, 270, 2),
		ev(PG_REC_SEND, 1002, 7, 1, 280, 2),
		ev_end(290),
	};
	struct pg_event b[] = {
		ev(PG_REC_TRECV, 1, 5, 2, 70, 200),
		ev(PG_REC_RECV, 1, 6, 3, 275, 1),
		ev(PG_REC_RECV, PG_PEER_FOREIGN, 9, 0, 285, 1),
		ev_end(295),
	};
	int dests[] = { 1001, 1002 }, one[] = { 1 };

	t1[3].ndest = 2;
	t1[3].dests = dests;
	t1[4].op = PG_GROUP_JOIN;
	snprintf(t1[4].group, sizeof(t1[4].group), "workers");
	t1[4].result = 0;
	t1[5].count = 7;
	/* t = 0 of every task at WALL + 1 ms * i on one host (clocks agree) */
	write_task(1, 0, 0, 5000000000ULL, "", t1, 7);
	write_task(1001, 1, 1000000, 5001000000ULL, "", a, 5);
	write_task(1002, 1, 2000000, 5002000000ULL, "", b, 4);
	write_exec(0, one, 1);
	write_exec(1, dests, 2);
}

/* Runs SQL on the database of DIR and returns its first column as an int
 * (-999 when there is no row). */
static long long q(const char *sql)
{
	char path[PATH_MAX + 32];
	sqlite3 *db;
	sqlite3_stmt *s;
	long long v = -999;

	snprintf(path, sizeof(path), "%s/trace.db", cku_dir);
	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK,
		      "%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

/* Like q, for a text result copied into BUF. */
static const char *qs(const char *sql, char *buf, size_t n)
{
	char path[PATH_MAX + 32];
	sqlite3 *db;
	sqlite3_stmt *s;

	snprintf(path, sizeof(path), "%s/trace.db", cku_dir);
	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	buf[0] = '\0';
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		snprintf(buf, n, "%s", sqlite3_column_text(s, 0));
	else
		snprintf(buf, n, "(null)");
	sqlite3_finalize(s);
	sqlite3_close(db);
	return buf;
}

/* Imports DIR, asserting success; returns the stats. */
static struct tdb_import_stats import_ok(int salvage)
{
	struct tdb_import_stats st;
	char err[1024];

	ck_assert_msg(tdb_import(cku_dir, NULL, salvage, &st, err,
			         sizeof(err)) == 0,
		      "import failed: %s", err);
	return st;
}

START_TEST(test_tables)
{
	char buf[256];
	struct tdb_import_stats st;

	write_run();
	st = import_ok(0);
	ck_assert_int_eq(st.nevents, 16);
	ck_assert_int_eq(q("SELECT count(*) FROM events"), 16);
	/* the launcher (exec log only) and three tasks */
	ck_assert_int_eq(q("SELECT count(*) FROM tasks"), 4);
	ck_assert_int_eq(st.ntasks, 4);
	ck_assert_str_eq(qs("SELECT program FROM tasks WHERE ltid=0", buf, 256),
			 "pangaea");
	ck_assert_int_eq(q("SELECT parent_ltid FROM tasks WHERE ltid=1002"), 1);
	ck_assert_int_eq(q("SELECT tid FROM tasks WHERE ltid=1002"), 0x40000 + 1002);
	ck_assert_str_eq(qs("SELECT end_how FROM tasks WHERE ltid=1001", buf, 256),
			 "pangaea_exit");
	ck_assert_int_eq(q("SELECT nevents FROM tasks WHERE ltid=1"), 7);
	/* events keep the task's order and numbers */
	ck_assert_int_eq(q("SELECT seq FROM events WHERE ltid=1001 AND kind='nrecv'"), 3);
	ck_assert_str_eq(qs("SELECT dests FROM events WHERE kind='mcast'", buf, 256),
			 "1001 1002");
	ck_assert_str_eq(qs("SELECT grp || ' ' || op FROM events WHERE kind='group'",
			    buf, 256), "workers joingroup");
	ck_assert_int_eq(q("SELECT count FROM events WHERE kind='pollfail'"), 7);
	ck_assert_int_eq(q("SELECT peer FROM events WHERE kind='recv' AND ltid=1002 "
			   "AND tag=9"), -1);
	/* spawns, from the exec logs */
	ck_assert_str_eq(qs("SELECT children FROM spawns WHERE ltid=1", buf, 256),
			 "1001@vm 1002@vm");
	ck_assert_str_eq(qs("SELECT argv FROM spawns WHERE ltid=0", buf, 256),
			 "[\"-x\",\"a b\"]");
	ck_assert_int_eq(atoi(qs("SELECT value FROM meta WHERE "
				 "key='schema_version'", buf, 256)),
			 TDB_SCHEMA_VERSION);
	/* the vector clocks (logs/analysis/happens-before.c) of the events that
	 * took in other tasks' (entries in clock_tasks order): a child's first
	 * event, receives of logged sends; not the master's own events.  1001's
	 * first event, a probe, saw the master's second, its send */
	ck_assert_int_eq(q("SELECT count(*) FROM clocks WHERE ltid=1"), 0);
	ck_assert_str_eq(qs("SELECT clock FROM clocks WHERE ltid=1001 AND "
			    "seq=1", buf, 256), "2,1,0");
	ck_assert_str_eq(qs("SELECT value FROM meta WHERE key='clock_tasks'",
			    buf, 256), "1,1001,1002");
	ck_assert_str_eq(qs("SELECT value FROM meta WHERE key='polls'", buf, 256),
			 "exact");
	ck_assert_str_eq(qs("SELECT value FROM meta WHERE key='hosts'", buf, 256),
			 "vm");
}
END_TEST

START_TEST(test_matching)
{
	char buf[256];
	struct tdb_import_stats st;

	write_run();
	st = import_ok(0);
	/* 2 sends + 2 mcast destinations + 1 unreceived send + 1 foreign */
	ck_assert_int_eq(q("SELECT count(*) FROM messages"), 6);
	ck_assert_int_eq(st.nmessages, 6);
	ck_assert_int_eq(st.nmatched, 4);
	ck_assert_int_eq(q("SELECT count(*) FROM messages WHERE unmatched IS NULL"), 4);
	/* every receive from a task of the run has exactly one send */
	ck_assert_int_eq(q("SELECT count(*) FROM events e WHERE kind IN "
			   "('recv','nrecv','trecv','precv') AND peer >= 0 AND "
			   "(SELECT count(*) FROM messages m WHERE m.recv_event = "
			   "e.id AND m.send_event IS NOT NULL) <> 1"), 0);
	/* the mcast is one send event with one message per destination */
	ck_assert_int_eq(q("SELECT count(DISTINCT send_event) FROM messages "
			   "WHERE kind='mcast'"), 1);
	ck_assert_int_eq(q("SELECT count(*) FROM messages WHERE kind='mcast' "
			   "AND recv_event IS NOT NULL"), 2);
	/* the receive of 1001's mcast copy is its nrecv, not the probe */
	ck_assert_str_eq(qs("SELECT e.kind FROM messages m JOIN events e ON "
			    "e.id = m.recv_event WHERE m.kind='mcast' AND m.dst=1001",
			    buf, 256), "nrecv");
	ck_assert_str_eq(qs("SELECT unmatched FROM messages WHERE src=1001",
			    buf, 256), "not received");
	ck_assert_int_eq(q("SELECT count(*) FROM messages WHERE src=1001 AND "
			   "recv_event IS NULL AND send_event IS NOT NULL"), 1);
	ck_assert_str_eq(qs("SELECT unmatched FROM messages WHERE src=-1",
			    buf, 256), "foreign");
	/* times: sender and receiver share a clock; t_recv is the exit */
	ck_assert_int_eq(q("SELECT t_send FROM messages WHERE src=1 AND dst=1001 "
			   "AND kind='send'"), WALL + 200000);
	ck_assert_int_eq(q("SELECT t_recv FROM messages WHERE src=1 AND dst=1001 "
			   "AND kind='send'"), WALL + 1000000 + 260000);
}
END_TEST

START_TEST(test_received_first)
{
	/* task 1's log (imported first) has the receives of task 2's bcast
	 * and of a send of task 3 that comes after; task 3 sends one more
	 * that nobody receives */
	struct pg_event r[] = { ev(PG_REC_RECV, 2, 22, 4, 100, 10),
				ev(PG_REC_RECV, 3, 5, 1, 120, 10), ev_end(300) };
	struct pg_event b[] = { ev(PG_REC_BCAST, 0, 22, 4, 50, 5), ev_end(300) };
	struct pg_event c[] = { ev(PG_REC_RECV, 2, 22, 4, 60, 10),
				ev(PG_REC_SEND, 1, 5, 1, 70, 5),
				ev(PG_REC_SEND, 1, 5, 2, 80, 5), ev_end(300) };
	int dests[] = { 1, 3 };
	char buf[64];

	b[0].ndest = 2;
	b[0].dests = dests;
	snprintf(b[0].group, sizeof(b[0].group), "ring");
	write_task(1, 0, 0, 1000000000ULL, "", r, 3);
	write_task(2, 0, 0, 1000000000ULL, "", b, 2);
	write_task(3, 0, 0, 1000000000ULL, "", c, 4);
	import_ok(0);
	/* the message's kind is its send's, whichever end came first */
	ck_assert_int_eq(q("SELECT count(*) FROM messages WHERE kind='bcast' "
			   "AND recv_event IS NOT NULL"), 2);
	ck_assert_int_eq(q("SELECT count(*) FROM messages WHERE kind='send' "
			   "AND recv_event IS NOT NULL"), 1);
	/* sent at the send's entry, in hand at the receive's exit */
	ck_assert_int_eq(q("SELECT t_send FROM messages WHERE dst=1 AND src=2"),
			 WALL + 50000);
	ck_assert_int_eq(q("SELECT t_recv FROM messages WHERE dst=1 AND src=2"),
			 WALL + 110000);
	/* rows in the order messages were completed, the one left alone last */
	ck_assert_str_eq(qs("SELECT unmatched FROM messages ORDER BY id DESC "
			    "LIMIT 1", buf, 64), "not received");
	ck_assert_int_eq(q("SELECT count(*) FROM messages"), 4);
}
END_TEST

START_TEST(test_times_and_clock_offset)
{
	struct pg_event e[] = { ev(PG_REC_SEND, 2, 1, 1, 100, 5), ev_end(200) };
	struct pg_event f[] = { ev(PG_REC_RECV, 1, 1, 1, 50, 10), ev_end(300) };

	/* task 2 read its wall clock 40 us after its monotonic one: its own
	 * header would put it 40 us late; the host's best offset is task 1's */
	write_task(1, 0, 0, 1000000000ULL, "", e, 2);
	write_task(2, 1, 500000 + 40000, 1000500000ULL, "", f, 2);
	import_ok(0);
	ck_assert_int_eq(q("SELECT t0 FROM events WHERE ltid=1 AND seq=1"),
			 WALL + 100000);
	ck_assert_int_eq(q("SELECT t1 FROM events WHERE ltid=1 AND seq=1"),
			 WALL + 105000);
	ck_assert_int_eq(q("SELECT t0 FROM events WHERE ltid=2 AND seq=1"),
			 WALL + 500000 + 50000);
	ck_assert_int_eq(q("SELECT start_wall_ns FROM tasks WHERE ltid=2"),
			 WALL + 500000);
	ck_assert_int_eq(q("SELECT t_last FROM tasks WHERE ltid=2"),
			 WALL + 500000 + 300000);
}
END_TEST

START_TEST(test_selection_explains)
{
	struct pg_event e[] = { ev(PG_REC_SEND, 2, 1, 1, 100, 5),
				ev(PG_REC_RECV, 3, 1, 4, 150, 5), ev_end(200) };
	char buf[64];

	write_task(1, 0, 0, 1000000000ULL, "ltid=1", e, 3);
	import_ok(0);
	ck_assert_int_eq(q("SELECT count(*) FROM messages WHERE unmatched="
			   "'selection'"), 2);
	ck_assert_str_eq(qs("SELECT value FROM meta WHERE key='selection'", buf,
			    64), "ltid=1");
}
END_TEST

START_TEST(test_reimport_replaces)
{
	struct pg_event e[] = { ev(PG_REC_SEND, 2, 1, 1, 100, 5), ev_end(200) };
	struct pg_event more[] = { ev(PG_REC_SEND, 2, 1, 1, 100, 5),
				   ev(PG_REC_SEND, 2, 1, 2, 150, 5), ev_end(200) };
	char path[PATH_MAX + 32];

	write_task(1, 0, 0, 1000000000ULL, "", e, 2);
	import_ok(0);
	ck_assert_int_eq(q("SELECT count(*) FROM events"), 2);
	ck_assert_int_eq(tdb_stale(cku_dir), 0);
	write_task(1, 0, 0, 1000000000ULL, "", more, 3);
	import_ok(0);
	ck_assert_int_eq(q("SELECT count(*) FROM events"), 3);
	ck_assert_int_eq(q("SELECT count(*) FROM messages"), 2);
	/* no temporary file is left behind */
	snprintf(path, sizeof(path), "%s/trace.db.tmp-%ld", cku_dir,
		 (long)getpid());
	ck_assert_int_ne(access(path, F_OK), 0);
}
END_TEST

START_TEST(test_stale_and_open)
{
	struct pg_event e[] = { ev(PG_REC_SEND, 2, 1, 1, 100, 5), ev_end(200) };
	char path[PATH_MAX + 32], err[512];
	struct timespec later[2];
	sqlite3 *db;

	write_task(1, 0, 0, 1000000000ULL, "", e, 2);
	ck_assert_int_eq(tdb_stale(cku_dir), 1);
	/* opening imports on first use */
	ck_assert_int_eq(tdb_open(cku_dir, &db, err, sizeof(err)), 0);
	sqlite3_close(db);
	ck_assert_int_eq(tdb_stale(cku_dir), 0);
	ck_assert_int_eq(q("SELECT count(*) FROM events"), 2);
	/* a log newer than the database makes it stale */
	snprintf(path, sizeof(path), "%s/task-1.comm", cku_dir);
	clock_gettime(CLOCK_REALTIME, &later[0]);
	later[0].tv_sec += 10;
	later[1] = later[0];
	ck_assert_int_eq(utimensat(AT_FDCWD, path, later, 0), 0);
	ck_assert_int_eq(tdb_stale(cku_dir), 1);
}
END_TEST

START_TEST(test_refuse_truncated_keeps_old)
{
	struct pg_event e[] = { ev(PG_REC_SEND, 2, 1, 1, 100, 5),
				ev(PG_REC_SEND, 2, 1, 2, 150, 5), ev_end(200) };
	char path[PATH_MAX + 32], err[1024], buf[1024];
	off_t size = write_task(1, 0, 0, 1000000000ULL, "", e, 3);

	import_ok(0);
	/* cut the log in the middle of its second record */
	snprintf(path, sizeof(path), "%s/task-1.comm", cku_dir);
	ck_assert_int_eq(truncate(path, size - 10), 0);
	ck_assert_int_eq(tdb_import(cku_dir, NULL, 0, NULL, err, sizeof(err)),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "task-1.comm"));
	ck_assert_ptr_nonnull(strstr(err, "offset"));
	/* the old database is still there, whole */
	ck_assert_int_eq(q("SELECT count(*) FROM events"), 3);
	/* salvage keeps the records before the damage and says so */
	import_ok(1);
	ck_assert_int_eq(q("SELECT count(*) FROM events"), 1);
	qs("SELECT value FROM meta WHERE key='salvaged'", buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "task-1.comm"));
	ck_assert_ptr_nonnull(strstr(buf, "offset"));
	ck_assert_str_eq(qs("SELECT coalesce(end_how, 'none') FROM tasks WHERE "
			    "ltid=1", buf, 64), "none");
}
END_TEST

START_TEST(test_missing_end_vs_runinfo)
{
	struct pg_event e[] = { ev(PG_REC_SEND, 2, 1, 1, 100, 5) };
	char path[PATH_MAX + 32], err[1024], buf[64];
	FILE *f;

	/* no end record, no run.info: a killed task, imported */
	write_task(1, 0, 0, 1000000000ULL, "", e, 1);
	import_ok(0);
	ck_assert_str_eq(qs("SELECT coalesce(end_how, 'none') FROM tasks WHERE "
			    "ltid=1", buf, 64), "none");
	/* run.info says it ended normally: the log was cut, refused */
	snprintf(path, sizeof(path), "%s/run.info", cku_dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "pangaea-run 1\nmode record\ncommand pangaea -log prog\n"
		"task 1 tid=t40001 host=vm program=/bin/prog end=1/0 (ended normally)\n"
		"status 0\n");
	fclose(f);
	ck_assert_int_eq(tdb_import(cku_dir, NULL, 0, NULL, err, sizeof(err)),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "truncated"));
	ck_assert_ptr_nonnull(strstr(err, "task-1.comm"));
}
END_TEST

START_TEST(test_refuse_not_a_logdir)
{
	char err[1024];

	ck_assert_int_eq(tdb_import(cku_dir, NULL, 0, NULL, err, sizeof(err)),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "not a Pangaea log folder"));
}
END_TEST

/* Writes DIR/run.info with TASKS (its task lines). */
static void write_runinfo(const char *tasks)
{
	char path[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.info", cku_dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "pangaea-run 1\nmode record\ncommand pangaea -log prog\n"
		"%sstatus 0\n", tasks);
	ck_assert_int_eq(fclose(f), 0);
}

/* Asserts that importing DIR is refused with a message holding WANT1
 * and WANT2. */
static void import_refused(const char *want1, const char *want2)
{
	char err[1024] = "";

	alarm(10); /* a blocking open fails the test instead of hanging it */
	ck_assert_int_eq(tdb_import(cku_dir, NULL, 0, NULL, err, sizeof(err)),
			 -1);
	alarm(0);
	ck_assert_msg(strstr(err, want1) && strstr(err, want2),
		      "want '%s' and '%s': %s", want1, want2, err);
}

/* A run.info task line without logs: one that says it ended (its end
 * record would be in its comm log) or that no spawn started is refused
 * with its line; one a spawn started that never joined is a task. */
START_TEST(test_refuse_phantom_task)
{
	char where[PATH_MAX + 64], buf[64];

	write_run();
	snprintf(where, sizeof(where), "%s/run.info:5:", cku_dir);
	write_runinfo("task 1 tid=t40001 host=vm program=/bin/prog end=1/0 (ok)\n"
		      "task 1005 tid=t40005 host=vm program=/bin/prog end=1/0 "
		      "(ended normally)\n");
	import_refused(where, "task 1005 ended");
	write_runinfo("task 1 tid=t40001 host=vm program=/bin/prog end=1/0 (ok)\n"
		      "task 1005 tid=t40005 host=vm program=/bin/prog end=0/0 "
		      "(was killed)\n");
	import_refused(where, "task 1005 has no communication log and no spawn");
	/* salvage leaves it out and says so */
	import_ok(1);
	ck_assert_int_eq(q("SELECT count(*) FROM tasks WHERE ltid=1005"), 0);
	qs("SELECT value FROM meta WHERE key='salvaged'", buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "run.info:5:"));
	/* task 1002 was spawned: without its log it is a task killed early */
	snprintf(where, sizeof(where), "%s/task-1002.comm", cku_dir);
	ck_assert_int_eq(unlink(where), 0);
	write_runinfo("task 1002 tid=t40002 host=vm program=/bin/prog end=0/0 "
		      "(was killed)\n");
	import_ok(0);
	ck_assert_int_eq(q("SELECT count(*) FROM tasks WHERE ltid=1002"), 1);
	/* a malformed task line is refused with its line */
	snprintf(where, sizeof(where), "%s/run.info:4:", cku_dir);
	write_runinfo("task 99999999999 tid=t40002\n");
	import_refused(where, "task line");
	write_runinfo("task 1002 tid=t40002 end=7/0\n");
	import_refused(where, "task line");
	/* and so is a status that is not an exit status */
	snprintf(where, sizeof(where), "%s/run.info:5:", cku_dir);
	write_runinfo("task 1002 tid=t40002 end=0/0\nstatus 4294967296\n");
	import_refused(where, "status line");
}
END_TEST

/* A FIFO or a folder in place of a log or run.info is refused at once,
 * naming it. */
START_TEST(test_refuse_not_regular)
{
	char path[PATH_MAX + 32];

	write_run();
	snprintf(path, sizeof(path), "%s/run.info", cku_dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	import_refused(path, "not a regular file (a FIFO)");
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/task-1001.comm", cku_dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	import_refused(path, "not a regular file (a FIFO)");
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/task-1.exec", cku_dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	import_refused(path, "is a directory");
}
END_TEST

static Suite *tracedb_suite(void)
{
	Suite *s = suite_create("tracedb");
	TCase *tc = tcase_create("import");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_tables);
	tcase_add_test(tc, test_matching);
	tcase_add_test(tc, test_received_first);
	tcase_add_test(tc, test_times_and_clock_offset);
	tcase_add_test(tc, test_selection_explains);
	tcase_add_test(tc, test_reimport_replaces);
	tcase_add_test(tc, test_stale_and_open);
	tcase_add_test(tc, test_refuse_truncated_keeps_old);
	tcase_add_test(tc, test_missing_end_vs_runinfo);
	tcase_add_test(tc, test_refuse_not_a_logdir);
	tcase_add_test(tc, test_refuse_phantom_task);
	tcase_add_test(tc, test_refuse_not_regular);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(tracedb_suite());
}
