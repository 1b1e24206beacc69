/*
 * check_hbedges.c: the barrier and spawn edges of a run (hb-edges.c),
 * and that their two users — happens-before (happens-before.c: races, what-if) and
 * the trace database's clock (tracedb-sync.c) — build the same ones from
 * a run with a failed barrier: a pvm_barrier that returned an error
 * synchronises nothing and does not count as a call of any instance.
 */
#include "hb-edges.h"
#include "pangaea-logs.h"
#include "tracedb.h"
#include "tracedb-internal.h"

#include "checkutil.h"

#include <check.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

/* An event of KIND at T_US us. */
static struct pg_event ev(int kind, unsigned t_us)
{
	return cku_event(kind, 0, 0, 0, t_us, 1);
}

/* A pvm_barrier on GROUP at T_US us that returned RESULT. */
static struct pg_event barrier(const char *group, int result, unsigned t_us)
{
	struct pg_event e = ev(PG_REC_GROUP, t_us);

	e.op = PG_GROUP_BARRIER;
	e.result = result;
	snprintf(e.group, sizeof(e.group), "%s", group);
	return e;
}

/*
 * Task 1 spawns 1001 and 1002 (spawn 1), which meet at barriers of
 * group "g" twice and of group "a" once.  1001's first barrier on "g"
 * failed (PvmNoGroup, -19): its second is the first barrier "g" of the
 * two.  1002 also makes a failed barrier on "a" before its good one.
 */
static void write_run(void)
{
	struct pg_event t1[] = { ev(PG_REC_SPAWN, 10), ev(PG_REC_END, 500) };
	struct pg_event t1001[] = {
		barrier("g", -19, 100), barrier("g", 0, 150),
		barrier("g", 0, 200), barrier("a", 0, 250), ev(PG_REC_END, 300),
	};
	struct pg_event t1002[] = {
		barrier("g", 0, 140), barrier("a", -19, 180),
		barrier("g", 0, 190), barrier("a", 0, 240), ev(PG_REC_END, 310),
	};
	int kids[] = { 1001, 1002 };

	t1[0].msgid = 1;
	t1[0].len = 2;
	t1[1].how = t1001[4].how = t1002[4].how = 1;
	cku_write_comm(1, 1, t1, 2);
	cku_write_comm(1001, 1001, t1001, 5);
	cku_write_comm(1002, 1002, t1002, 5);
	cku_write_exec(1, kids, 2);
}

/* The edges the run of write_run must have, as edges_text writes them. */
static const char expected[] =
	"a#0 1001:4 1002:4\n"
	"g#0 1001:2 1002:1\n"
	"g#1 1001:3 1002:3\n"
	"spawn 1:1 #1\n";

/* Writes B's barrier instances and spawns into OUT (N bytes), one a
 * line, each event as LTID:SEQ (SEQS, if not NULL, maps an event id of
 * the trace database to its seq). */
static void edges_text(const struct pg_hbe *b, const long long *seqs,
		       char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t k = 0; k < b->ncall; k++) {
		const struct pg_hbe_call *c = &b->calls[k];
		long long seq = seqs ? seqs[c->seq] : c->seq;

		if (k == 0 || c->inst != b->calls[k - 1].inst)
			len += (size_t)snprintf(out + len, n - len, "%s%s#%u",
						k ? "\n" : "",
						b->groups[c->group], c->k);
		len += (size_t)snprintf(out + len, n - len, " %d:%lld",
					c->ltid, seq);
		ck_assert_uint_lt(len, n);
	}
	if (b->ncall)
		len += (size_t)snprintf(out + len, n - len, "\n");
	for (size_t k = 0; k < b->nspawn; k++) {
		const struct pg_hbe_spawn *s = &b->spawns[k];

		len += (size_t)snprintf(out + len, n - len, "spawn %d:%lld #%u\n",
					s->ltid,
					seqs ? seqs[s->seq] : (long long)s->seq,
					s->spawn);
		ck_assert_uint_lt(len, n);
	}
}

START_TEST(test_builder_failed_barrier)
{
	struct pg_event e[] = {
		barrier("g", -19, 1), barrier("g", 0, 2), barrier("g", 0, 3),
	};
	struct pg_event f = barrier("g", 0, 1), spawn = ev(PG_REC_SPAWN, 1);
	struct pg_hbe b = { 0 };

	ck_assert(!pg_hbe_is_barrier(&e[0]));
	ck_assert(pg_hbe_is_barrier(&e[1]));
	/* fed out of task order: 1002 first, then 1001 */
	ck_assert_int_eq(pg_hbe_event(&b, 1002, 1, &f), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(pg_hbe_event(&b, 1001, (uint32_t)i + 1, &e[i]),
				 0);
	spawn.msgid = 7;
	ck_assert_int_eq(pg_hbe_event(&b, 1, 4, &spawn), 0);
	ck_assert_int_eq(pg_hbe_done(&b), 0);
	ck_assert_uint_eq(b.ncall, 3);
	ck_assert_uint_eq(b.ninst, 2);
	/* instance 0: 1001's second call with 1002's first; 1: alone */
	ck_assert_int_eq(b.calls[0].ltid, 1001);
	ck_assert_uint_eq(b.calls[0].seq, 2);
	ck_assert_int_eq(b.calls[1].ltid, 1002);
	ck_assert_uint_eq(b.calls[1].inst, 0);
	ck_assert_uint_eq(b.calls[2].seq, 3);
	ck_assert_uint_eq(b.calls[2].inst, 1);
	ck_assert_uint_eq(pg_hbe_spawn_at(&b, 1, 7), 4);
	ck_assert_uint_eq(pg_hbe_spawn_at(&b, 1, 8), 0);
	pg_hbe_free(&b);
	ck_assert_uint_eq(b.ncall, 0);
}
END_TEST

/* The edges of happens-before and of the trace database's clock, for
 * the run of write_run: the same, and as expected. */
START_TEST(test_hb_and_tracedb_agree)
{
	struct tdb_import_stats st;
	struct pg_hbe h = { 0 }, d = { 0 };
	struct pg_hb hb;
	char err[1024], path[PATH_MAX], got_hb[1024], got_db[1024];
	long long seqs[64] = { 0 };
	sqlite3 *db;
	sqlite3_stmt *s;
	int a, b;

	write_run();
	ck_assert_msg(pg_hb_load_edges(&hb, cku_dir, &h, err, sizeof(err)) == 0,
		      "hb: %s", err);
	edges_text(&h, NULL, got_hb, sizeof(got_hb));
	ck_assert_str_eq(got_hb, expected);
	/* the clocks: 1002's first barrier is in the past of 1001's second
	 * (one instance), not of its first (it failed: no wait) */
	a = pg_hb_task(&hb, 1001);
	b = pg_hb_task(&hb, 1002);
	ck_assert(pg_hb_before(&hb, b, 1, a, 2));
	ck_assert(!pg_hb_before(&hb, b, 1, a, 1));
	ck_assert(pg_hb_before(&hb, a, 3, b, 3));
	ck_assert(!pg_hb_before(&hb, a, 3, b, 2));
	pg_hb_free(&hb);

	ck_assert_msg(tdb_import_sync(cku_dir, NULL, 0, TDB_SYNC_CLC, &st, err,
				      sizeof(err)) == 0, "import: %s", err);
	tdb_path(path, sizeof(path), cku_dir);
	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT id, seq FROM events",
					    -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(s, 0);

		ck_assert(id > 0 && id < 64);
		seqs[id] = sqlite3_column_int64(s, 1);
	}
	sqlite3_finalize(s);
	ck_assert_int_eq(tdb_sync_edges(db, &d), 0);
	edges_text(&d, seqs, got_db, sizeof(got_db));
	ck_assert_str_eq(got_db, got_hb);
	sqlite3_close(db);
	pg_hbe_free(&h);
	pg_hbe_free(&d);
}
END_TEST

/* The suite. */
static Suite *hbedges_suite(void)
{
	Suite *s = suite_create("hbedges");
	TCase *tc = tcase_create("hbedges");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_builder_failed_barrier);
	tcase_add_test(tc, test_hb_and_tracedb_agree);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(hbedges_suite());
}
