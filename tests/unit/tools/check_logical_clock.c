/*
 * check_logical_clock.c: unit tests of the controlled logical clock
 * (logs/analysis/logical-clock.c) on hand-made traces: a known jump and its
 * forward and backward amortisation, a send limiting the backward window, a
 * broadcast and a barrier handled as collectives, timelines without violations
 * left alone, a cycle of bad data, and random skewed traces checked for the
 * paper's properties (clock condition, local order, no change where nothing
 * forced one); and the importer's --sync modes on a run of two hosts whose
 * clocks are 1 ms apart (logs/tracedb/tracedb-sync.c).
 */
#include "logical-clock.h"
#include "pangaea-logs.h"
#include "tracedb.h"
#include "checkutil.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXP 4096
#define MAXE 4096

/* A trace being built: timelines of points, and edges. */
struct tr {
	size_t n, ne;
	int64_t t[MAXP], orig[MAXP];
	uint8_t start[MAXP];
	struct clc_edge e[MAXE];
};

/* Adds a timeline of K points at T0, T0 + STEP, ...; its first index. */
static size_t line(struct tr *x, size_t k, int64_t t0, int64_t step)
{
	size_t first = x->n;

	ck_assert_uint_le(x->n + k, MAXP);
	for (size_t i = 0; i < k; i++) {
		x->start[x->n] = i == 0;
		x->t[x->n++] = t0 + (int64_t)i * step;
	}
	return first;
}

/* Adds a virtual (collective) point; its index. */
static size_t join(struct tr *x)
{
	x->start[x->n] = 1;
	x->t[x->n] = CLC_NONE;
	return x->n++;
}

/* Adds the edge FROM -> TO with MU. */
static void edge(struct tr *x, size_t from, size_t to, int64_t mu)
{
	ck_assert_uint_lt(x->ne, MAXE);
	x->e[x->ne++] = (struct clc_edge){ (uint32_t)from, (uint32_t)to, mu };
}

/* Runs the clock on X with P (NULL: defaults) and checks the paper's
 * properties: no violation left, local order kept, never moved back. */
static struct clc_stats run(struct tr *x, const struct clc_params *p)
{
	struct clc_graph g = { x->n, x->t, x->start, x->ne, x->e };
	struct clc_stats st;

	memcpy(x->orig, x->t, sizeof(x->t));
	ck_assert_int_eq(clc_run(&g, p, &st), 0);
	ck_assert_uint_eq(st.violations_after, 0);
	ck_assert_uint_eq(clc_violations(&g, x->t), 0);
	for (size_t i = 0; i < x->n; i++) {
		if (x->orig[i] == CLC_NONE) {
			ck_assert(x->t[i] == CLC_NONE);
			continue;
		}
		ck_assert_msg(x->t[i] >= x->orig[i], "point %zu moved back", i);
		if (!x->start[i])
			ck_assert_msg(x->t[i] >= x->t[i - 1],
				      "point %zu before its predecessor", i);
	}
	return st;
}

START_TEST(test_no_violation_no_change)
{
	static struct tr x;
	size_t a = line(&x, 10, 0, 100), b = line(&x, 10, 50, 100);
	struct clc_stats st;

	edge(&x, a + 2, b + 3, 10);  /* 200 -> 350 */
	edge(&x, b + 5, a + 8, 10);  /* 550 -> 800 */
	st = run(&x, NULL);
	ck_assert_uint_eq(st.violations_before, 0);
	ck_assert_uint_eq(st.njumps, 0);
	ck_assert_uint_eq(st.ncorrected, 0);
	ck_assert_int_eq(memcmp(x.t, x.orig, x.n * sizeof(x.t[0])), 0);
}
END_TEST

/* B's clock is 1000 ns behind: A's send at 5000 reaches B at 4300 by
 * B's clock.  With mu 100 the receive must move to 5100: a jump of 800;
 * after it B runs at 0.99 of its speed (+99 a step of 100); before it
 * the window of 2 * 800 ns is ramped up, from 0 at 2700 to 800 at 4300.
 * C has nothing to do with it and keeps its times. */
START_TEST(test_known_jump_amortised)
{
	static struct tr x;
	struct clc_params p = { 0.99, 2.0 };
	size_t a = line(&x, 20, 0, 1000), b = line(&x, 60, 300, 100),
	       c = line(&x, 30, 7, 333);
	struct clc_stats st;

	edge(&x, a + 5, b + 40, 100);
	st = run(&x, &p);
	ck_assert_uint_eq(st.violations_before, 1);
	ck_assert_uint_eq(st.njumps, 1);
	ck_assert_int_eq(x.t[b + 40], 5100);
	for (int i = 41; i < 60; i++)
		ck_assert_int_eq(x.t[b + i], 5100 + (i - 40) * 99);
	for (int i = 25; i < 40; i++) {
		int64_t want = x.orig[b + i] + (x.orig[b + i] - 2700) / 2;

		ck_assert_int_le(llabs(x.t[b + i] - want), 1);
	}
	for (int i = 0; i <= 24; i++)
		ck_assert_int_eq(x.t[b + i], x.orig[b + i]);
	for (size_t i = 0; i < 30; i++)
		ck_assert_int_eq(x.t[c + i], x.orig[c + i]);
	for (size_t i = 0; i < 20; i++)
		ck_assert_int_eq(x.t[a + i], x.orig[a + i]);
	ck_assert_int_eq(st.max_corr, 800);  /* at the receive */
}
END_TEST

/* As above, and B sends at 3800 to A's receive at 4000 (mu 100): in the
 * window that send may move 100 ns at most.  The correction is then the
 * line from the window's start to 100 at the send and from there to 800
 * at the jump. */
START_TEST(test_send_limits_backward_window)
{
	static struct tr x;
	struct clc_params p = { 0.99, 2.0 };
	size_t a = line(&x, 20, 0, 1000), b = line(&x, 60, 300, 100);

	edge(&x, a + 5, b + 40, 100);
	edge(&x, b + 35, a + 4, 100);
	run(&x, &p);
	ck_assert_int_eq(x.t[b + 35], 3900);  /* 4000 - 100 */
	for (int i = 25; i < 35; i++) {
		int64_t want = x.orig[b + i] + 100 * (x.orig[b + i] - 2700) / 1100;

		ck_assert_int_le(llabs(x.t[b + i] - want), 1);
	}
	for (int i = 36; i < 40; i++) {
		/* 800 - 1.4 (4300 - x) */
		int64_t want = x.orig[b + i] + 800 -
			       14 * (4300 - x.orig[b + i]) / 10;

		ck_assert_int_le(llabs(x.t[b + i] - want), 1);
	}
	ck_assert_int_eq(x.t[b + 24], x.orig[b + 24]);
	ck_assert_int_eq(x.t[a + 4], 4000);
}
END_TEST

/* One broadcast from A reaches B, C and D, whose clocks are 2000 ns
 * behind: each receive comes after the one send plus mu. */
START_TEST(test_broadcast_one_send)
{
	static struct tr x;
	size_t a = line(&x, 5, 1000, 500), r[3];
	struct clc_stats st;

	for (int k = 0; k < 3; k++) {
		r[k] = line(&x, 5, 100 + 10 * k, 300);
		edge(&x, a + 2, r[k] + 2, 40);   /* 2000 -> 700.. */
	}
	st = run(&x, NULL);
	ck_assert_uint_eq(st.violations_before, 3);
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(x.t[r[k] + 2], 2040);
	ck_assert_int_eq(x.t[a + 2], 2000);
}
END_TEST

/* A barrier of X, Y, Z (entry, exit points): Z's clock is behind, its
 * exit at 950 comes before Y's entry at 1100.  All exits must come after
 * the last entry (plus mu), through the collective's point. */
START_TEST(test_barrier_collective)
{
	static struct tr x;
	size_t m[3], j;
	int64_t enter[3] = { 1000, 1100, 900 }, leave[3] = { 1200, 1250, 950 };
	struct clc_stats st;

	for (int k = 0; k < 3; k++) {
		m[k] = line(&x, 3, 0, 1);
		x.t[m[k]] = enter[k];
		x.t[m[k] + 1] = leave[k];
		x.t[m[k] + 2] = leave[k] + 500;
	}
	j = join(&x);
	for (int k = 0; k < 3; k++) {
		edge(&x, m[k], j, 10);
		edge(&x, j, m[k] + 1, 0);
	}
	st = run(&x, NULL);
	ck_assert_uint_eq(st.violations_before, 1);
	ck_assert_int_eq(x.t[m[2] + 1], 1110);
	ck_assert_int_eq(x.t[m[0] + 1], 1200);
	ck_assert_int_eq(x.t[m[1] + 1], 1250);
	/* Z's entry came before the others' exits: no need to move it past
	 * them; its exit moved, so the entry may move by the ramp only */
	ck_assert_int_le(x.t[m[2]], 1110);
}
END_TEST

/* A and B each receive, then send what the other received: bad data
 * (a cycle).  The pass ends, keeps local order and says so. */
START_TEST(test_cycle_ends)
{
	static struct tr x;
	struct clc_graph g;
	struct clc_stats st;
	size_t a = line(&x, 4, 0, 100), b = line(&x, 4, 0, 100);

	edge(&x, b + 2, a + 1, 10);
	edge(&x, a + 2, b + 1, 10);
	g = (struct clc_graph){ x.n, x.t, x.start, x.ne, x.e };
	ck_assert_int_eq(clc_run(&g, NULL, &st), 0);
	ck_assert_uint_gt(st.ncycles, 0);
	for (size_t i = 1; i < x.n; i++)
		if (!x.start[i])
			ck_assert_int_ge(x.t[i], x.t[i - 1]);
}
END_TEST

/* Random runs: 5 tasks with true times, each task's clock off by up to
 * +-50 us, messages that really went forward in true time by >= 2 us.
 * After the pass: no violation, order kept (run checks), and a task
 * that receives nothing keeps its times. */
START_TEST(test_random_skewed_runs)
{
	static struct tr x;
	int64_t truth[MAXP];
	size_t first[6];

	srand(1234 + (unsigned)_i);
	memset(&x, 0, sizeof(x));
	for (int k = 0; k < 6; k++) {
		int64_t off = k == 5 ? 0 : rand() % 100001 - 50000, tt = 0;

		first[k] = line(&x, 500, 0, 1);
		for (size_t i = 0; i < 500; i++) {
			tt += 1 + rand() % 3000;
			truth[first[k] + i] = tt;
			x.t[first[k] + i] = tt + off;
		}
	}
	for (int m = 0; m < 800; m++) {
		int s = rand() % 4, d = rand() % 5;  /* task 5 only receives
							nothing, sends nothing */
		size_t from = first[s] + (size_t)(rand() % 500), to = first[d];

		if (d == s)
			continue;
		while (to < first[d] + 500 && truth[to] < truth[from] + 2000)
			to++;
		if (to < first[d] + 500)
			edge(&x, from, to, 2000);
	}
	run(&x, NULL);
	for (size_t i = 0; i < 500; i++)
		ck_assert_int_eq(x.t[first[5] + i], x.orig[first[5] + i]);
}
END_TEST

#define WALL 1700000000000000000LL /* start_wall_ns of the synthetic tasks */

/* An event of KIND with PEER, TAG, MSGID at T us (dur D us). */
static struct pg_event ev(int kind, int peer, int tag, unsigned msgid,
			  unsigned t_us, unsigned d_us)
{
	return cku_event(kind, peer, tag, msgid, t_us, d_us);
}

/* Writes cku_dir/task-LTID.comm of a task on HOST whose clock read
 * WALL + SKEW ns at its start, with the N events E; with SAMPLES, clock
 * samples at its start and end saying so. */
static void write_task(int ltid, const char *host, long long skew,
			       const struct pg_event *e, int n, int samples)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char path[PATH_MAX + 32], err[512];

	memset(&h, 0, sizeof(h));
	h.version = PG_COMM_VERSION;
	h.ltid = ltid;
	h.tid = 0x40000 + ltid;
	h.mode = 1;
	h.start_wall_ns = (uint64_t)(WALL + skew);
	h.start_mono_ns = 7000000000ULL;
	snprintf(h.host, sizeof(h.host), "%s", host);
	snprintf(h.program, sizeof(h.program), "/bin/prog");
	snprintf(path, sizeof(path), "%s/task-%d.comm", cku_dir, ltid);
	unlink(path); /* pg_comm_create makes only new files */
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), 0);
	for (int i = 0; i < n; i++) {
		/* reference - (start_wall + t) = -skew, measured in 4 us */
		struct pg_clock_sample cs = { i ? e[i].t : 0, -skew, 4000 };

		if (samples && (i == 0 || i == n - 1))
			ck_assert_int_eq(pg_comm_append_clock(&w, &cs), 0);
		ck_assert_int_eq(pg_comm_append(&w, &e[i]), 0);
	}
	pg_comm_close(&w);
}

/*
 * Task 1 on host a sends at 100 us (true time) to 1001 on host b, which
 * gets it at 160 us and answers at 200 us; 1 gets that at 300 us.  b's
 * clock is 1 ms behind: by the clocks the first message arrives 940 us
 * before it left (a violation), the second takes 1100 us.  One-way
 * minima: mu = (-940 + 1100) / 2 = 80 us, but not above what was seen
 * each way: 0 from a to b, 80 from b to a; b's offset (-940 - 1100) / 2
 * = -1020 us.
 */
static void write_two_hosts_samples(int samples)
{
	struct pg_event a[] = {
		ev(PG_REC_SEND, 1001, 5, 1, 100, 2),
		ev(PG_REC_RECV, 1001, 6, 1, 250, 50),
		ev(PG_REC_END, 0, 0, 0, 400, 0),
	};
	struct pg_event b[] = {
		ev(PG_REC_RECV, 1, 5, 1, 120, 40),
		ev(PG_REC_SEND, 1, 6, 1, 200, 2),
		ev(PG_REC_END, 0, 0, 0, 350, 0),
	};

	a[2].how = b[2].how = 1;
	write_task(1, "a", 0, a, 3, samples);
	write_task(1001, "b", -1000000, b, 3, samples);
}

/* write_two_hosts_samples without samples. */
static void write_two_hosts(void)
{
	write_two_hosts_samples(0);
}

/* Imports cku_dir with SYNC and opens the database into *DB. */
static void import_open(int sync, struct tdb_import_stats *st, sqlite3 **db)
{
	char err[1024], path[PATH_MAX];

	ck_assert_msg(tdb_import_sync(cku_dir, NULL, 0, sync, st, err,
				      sizeof(err)) == 0, "import: %s", err);
	tdb_path(path, sizeof(path), cku_dir);
	ck_assert_int_eq(sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
}

/* The integer answer of SQL on DB. */
static long long q(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	long long v;

	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

START_TEST(test_import_clc_two_hosts)
{
	struct tdb_import_stats st;
	sqlite3 *db;

	write_two_hosts();
	import_open(TDB_SYNC_CLC, &st, &db);
	ck_assert_str_eq(st.sync, "clc");
	ck_assert_uint_eq(st.violations_before, 1);
	ck_assert_uint_eq(st.violations_after, 0);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM meta WHERE key = 'sync' "
			   "AND value = 'clc'"), 1);
	ck_assert_int_eq(q(db, "SELECT value FROM meta WHERE key = "
			   "'schema_version'"), TDB_SCHEMA_VERSION);
	/* after: each receive after its send, b's answer 80 us after */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM messages WHERE t_recv < "
			   "t_send"), 0);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM messages WHERE t_recv < "
			   "t_send + 80000 AND src = 1001"), 0);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM messages"), 2);
	/* the raw times are kept: b's receive ended at 160 us - 1 ms */
	ck_assert_int_eq(q(db, "SELECT t1_raw FROM events WHERE ltid = 1001 "
			   "AND seq = 1"), WALL - 1000000 + 160000);
	ck_assert_int_eq(q(db, "SELECT t1 FROM events WHERE ltid = 1001 AND "
			   "seq = 1"), WALL + 100000);
	/* a's times needed no change */
	ck_assert_int_eq(q(db, "SELECT count(*) FROM events WHERE ltid = 1 "
			   "AND (t0 != t0_raw OR t1 != t1_raw)"), 0);
	ck_assert_int_eq(q(db, "SELECT t_first FROM tasks WHERE ltid = 1001"),
			 q(db, "SELECT min(t0) FROM events WHERE ltid = 1001"));
	sqlite3_close(db);
	/* the default is clc too: the run spans two hosts */
	import_open(TDB_SYNC_AUTO, &st, &db);
	ck_assert_str_eq(st.sync, "clc");
	sqlite3_close(db);
}
END_TEST

START_TEST(test_import_offset_none_linear)
{
	struct tdb_import_stats st;
	struct tdb_sync_report rep;
	char err[512];
	sqlite3 *db;

	write_two_hosts();
	import_open(TDB_SYNC_OFFSET, &st, &db);
	ck_assert_str_eq(st.sync, "offset");
	ck_assert_int_eq(q(db, "SELECT count(*) FROM events WHERE t0 != t0_raw"
			   " OR t1 != t1_raw"), 0);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM messages WHERE t_recv < "
			   "t_send"), 1);
	/* the sync report from the raw times, the database unchanged */
	ck_assert_int_eq(tdb_sync_times(db, NULL, 1, TDB_SYNC_DRY, &rep, err,
					sizeof(err)),
			 0);
	ck_assert_int_eq(rep.nhost, 2);
	ck_assert_str_eq(rep.hosts[1].host, "b");
	ck_assert(rep.hosts[1].has_offset);
	ck_assert_int_eq(rep.hosts[1].offset_ns, -1020000);
	ck_assert_uint_eq(rep.violations_before, 1);
	ck_assert_uint_eq(rep.violations_after, 0);
	ck_assert_int_gt(rep.max_corr, 0);
	tdb_sync_report_free(&rep);
	sqlite3_close(db);
	import_open(TDB_SYNC_NONE, &st, &db);
	ck_assert_str_eq(st.sync, "none");
	ck_assert_int_eq(q(db, "SELECT count(*) FROM meta WHERE key = 'sync' "
			   "AND value = 'none'"), 1);
	sqlite3_close(db);
	ck_assert_int_eq(tdb_import_sync(cku_dir, NULL, 0, TDB_SYNC_LINEAR, &st,
					 err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "clock samples"));
}
END_TEST

/* The same run with clock samples: linear maps b's times 1 ms forward,
 * to the truth; clc starts from there. */
START_TEST(test_import_linear_samples)
{
	struct tdb_import_stats st;
	sqlite3 *db;

	write_two_hosts_samples(1);
	import_open(TDB_SYNC_LINEAR, &st, &db);
	ck_assert_str_eq(st.sync, "linear");
	ck_assert_int_eq(q(db, "SELECT t1 FROM events WHERE ltid = 1001 AND "
			   "seq = 1"), WALL + 160000);
	ck_assert_int_eq(q(db, "SELECT t0 FROM events WHERE ltid = 1001 AND "
			   "seq = 2"), WALL + 200000);
	ck_assert_int_eq(q(db, "SELECT t1_raw FROM events WHERE ltid = 1001 "
			   "AND seq = 1"), WALL - 1000000 + 160000);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM messages WHERE t_recv < "
			   "t_send"), 0);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM meta WHERE key = 'sync' "
			   "AND value = 'linear'"), 1);
	sqlite3_close(db);
	/* clc on top: the samples got it right (mu 60 us one way, 80 the
	 * other, no violation): nothing moves */
	import_open(TDB_SYNC_CLC, &st, &db);
	ck_assert_str_eq(st.sync, "clc");
	ck_assert_uint_eq(st.violations_before, 0);
	ck_assert_uint_eq(st.violations_after, 0);
	ck_assert_int_eq(st.max_corr, 0);
	ck_assert_int_eq(q(db, "SELECT t1 FROM events WHERE ltid = 1001 AND "
			   "seq = 1"), WALL + 160000);
	ck_assert_int_eq(q(db, "SELECT count(*) FROM meta WHERE key = "
			   "'sync_base' AND value = 'linear'"), 1);
	sqlite3_close(db);
}
END_TEST

/*
 * The clock's input as the import gathers it (tracedb-sync.c's feed)
 * against the same read back from the database (pangaea-trace sync's
 * path): task 1 on host a spawns 1001 and 1002 on host b, whose clock is
 * 1 ms behind (and 1003, which only ends), and sends 1001 a message;
 * 1001 and 1002 then meet at a barrier.  The spawn's edge must move
 * 1003's end after the spawn (nothing else reaches it), the barrier's
 * must keep 1002 in the
 * barrier until 1001 (moved by its receive) entered it; and both paths
 * must make the same times.
 */
START_TEST(test_import_spawn_barrier_fed)
{
	struct pg_event a[] = {
		ev(PG_REC_SPAWN, 0, 0, 1, 10, 50),
		ev(PG_REC_SEND, 1001, 5, 1, 100, 2),
		ev(PG_REC_END, 0, 0, 0, 400, 0),
	};
	struct pg_event b1[] = {
		ev(PG_REC_RECV, 1, 5, 1, 120, 40),
		ev(PG_REC_GROUP, 0, 0, 0, 200, 30),
		ev(PG_REC_END, 0, 0, 0, 350, 0),
	};
	struct pg_event b2[] = {
		ev(PG_REC_GROUP, 0, 0, 0, 150, 100),
		ev(PG_REC_END, 0, 0, 0, 300, 0),
	};
	struct pg_event b3[] = { ev(PG_REC_END, 0, 0, 0, 300, 0) };
	int kids[] = { 1001, 1002, 1003 };
	struct tdb_import_stats st, st2;
	struct tdb_sync_report rep;
	char err[512];
	sqlite3 *db;

	a[0].len = 3;
	a[2].how = b1[2].how = b2[1].how = b3[0].how = 1;
	b1[1].op = b2[0].op = PG_GROUP_BARRIER;
	snprintf(b1[1].group, sizeof(b1[1].group), "g");
	snprintf(b2[0].group, sizeof(b2[0].group), "g");
	write_task(1, "a", 0, a, 3, 0);
	write_task(1001, "b", -1000000, b1, 3, 0);
	write_task(1002, "b", -1000000, b2, 2, 0);
	write_task(1003, "b", -1000000, b3, 1, 0);
	cku_write_exec(1, kids, 3);
	import_open(TDB_SYNC_CLC, &st, &db);
	ck_assert_str_eq(st.sync, "clc");
	ck_assert_uint_gt(st.violations_before, 0);
	ck_assert_uint_eq(st.violations_after, 0);
	ck_assert_int_ge(q(db, "SELECT t0 FROM events WHERE ltid = 1003 AND "
			   "seq = 1"),
			 q(db, "SELECT t0 FROM events WHERE ltid = 1 AND seq = 1"));
	ck_assert_int_ge(q(db, "SELECT t1 FROM events WHERE ltid = 1002 AND "
			   "seq = 1"),
			 q(db, "SELECT t0 FROM events WHERE ltid = 1001 AND "
			   "seq = 2"));
	sqlite3_close(db);
	import_open(TDB_SYNC_OFFSET, &st2, &db);
	ck_assert_int_eq(tdb_sync_times(db, NULL, 1, TDB_SYNC_DRY, &rep, err,
					sizeof(err)), 0);
	ck_assert_uint_eq(rep.violations_before, st.violations_before);
	ck_assert_uint_eq(rep.violations_after, st.violations_after);
	ck_assert_int_eq(rep.max_corr, st.max_corr);
	tdb_sync_report_free(&rep);
	sqlite3_close(db);
}
END_TEST

static Suite *clc_suite(void)
{
	Suite *s = suite_create("clc");
	TCase *tc = tcase_create("clc");

	tcase_add_test(tc, test_no_violation_no_change);
	tcase_add_test(tc, test_known_jump_amortised);
	tcase_add_test(tc, test_send_limits_backward_window);
	tcase_add_test(tc, test_broadcast_one_send);
	tcase_add_test(tc, test_barrier_collective);
	tcase_add_test(tc, test_cycle_ends);
	tcase_add_loop_test(tc, test_random_skewed_runs, 0, 20);
	suite_add_tcase(s, tc);
	tc = tcase_create("import");
	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_import_clc_two_hosts);
	tcase_add_test(tc, test_import_offset_none_linear);
	tcase_add_test(tc, test_import_linear_samples);
	tcase_add_test(tc, test_import_spawn_barrier_fed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(clc_suite());
}
