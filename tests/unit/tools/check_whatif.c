/*
 * check_whatif.c: unit tests of the what-if rules
 * (logs/analysis/whatif.c): which racing alternatives a swap may name
 * (a probe's, a "no message" outcome's, a join's are refused), the cut
 * with the swapped receive included, the key of a what-if's prefix (the
 * events before the cut and the new message count, nothing after), and
 * the swaps a run's races offer after a base run's cut; and the plan of
 * an exploration (logs/analysis/explore-plan.c: level by level, each
 * prefix once, the chain of swaps that leads to a run).  On hand-made
 * races and relations, and on a small run written with the real log
 * writers.
 */
#include "explore-plan.h"
#include "whatif.h"
#include "checkutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

#define SPAWN { .kind = PG_REC_SPAWN, .msgid = 1, .len = 2 }
#define SEND(to, tg, id) { .kind = PG_REC_SEND, .peer = (to), .tag = (tg), \
			   .msgid = (id) }
#define RECV(from, tg, id) { .kind = PG_REC_RECV, .peer = (from), \
			     .tag = (tg), .msgid = (id), \
			     .filter = PG_FILTER_ANYSRC }
#define END { .kind = PG_REC_END, .how = PG_END_EXIT }

/* A racing receive of task LTID at EVENT, of kind KIND (WHAT). */
static struct pg_race race(int ltid, long event, int what, int kind,
			   struct pg_race_alt *alts, int nalt)
{
	return (struct pg_race){ .ltid = ltid, .event = event, .what = what,
				 .kind = kind, .peer = 2, .msgid = 1,
				 .nalt = nalt, .alts = alts };
}

START_TEST(swappable_alternatives)
{
	struct pg_race_alt a[] = {
		{ 3, 4, 1, 7 },                  /* a message: swappable */
		{ PG_RACE_NOTHING, 0, 0, 0 },    /* no message */
		{ 4, 0, 1, 2 },                  /* a message without an id */
		{ 5, 2, 1, 0 },                  /* its send not logged */
	};
	struct pg_race r = race(1, 3, PG_RACE_RECV, PG_REC_RECV, a, N(a));

	ck_assert_int_eq(pg_whatif_swappable(&r, &a[0]), 1);
	ck_assert_int_eq(pg_whatif_swappable(&r, &a[1]), 0);
	ck_assert_int_eq(pg_whatif_swappable(&r, &a[2]), 0);
	ck_assert_int_eq(pg_whatif_swappable(&r, &a[3]), 0);
	/* a successful poll that took a message: swappable too */
	r = race(1, 3, PG_RACE_POLL, PG_REC_NRECV, a, N(a));
	ck_assert_int_eq(pg_whatif_swappable(&r, &a[0]), 1);
	/* a probe takes nothing; failed polls and joins are no receives */
	r = race(1, 3, PG_RACE_POLL, PG_REC_PROBE, a, N(a));
	ck_assert_int_eq(pg_whatif_swappable(&r, &a[0]), 0);
	r = race(1, 3, PG_RACE_POLLFAIL, PG_REC_POLLFAIL, a, N(a));
	ck_assert_int_eq(pg_whatif_swappable(&r, &a[0]), 0);
	r = race(1, 3, PG_RACE_JOIN, PG_REC_GROUP, a, N(a));
	ck_assert_int_eq(pg_whatif_swappable(&r, &a[0]), 0);
}
END_TEST

START_TEST(pick_refuses_what_is_not_swappable)
{
	struct pg_race_alt a[] = {
		{ 3, 4, 1, 7 }, { PG_RACE_NOTHING, 0, 0, 0 }, { 6, 9, 2, 5 },
	};
	struct pg_race r = race(1, 3, PG_RACE_POLL, PG_REC_TRECV, a, N(a));
	struct pg_hb_swap sw = { 1, 3, 6, 9 };
	struct pg_strbuf valid = { 0 };

	ck_assert_ptr_eq(pg_whatif_pick(&r, &sw, &valid), &a[2]);
	ck_assert_str_eq(valid.p, " 3:4 6:9");
	pg_strbuf_free(&valid);
	/* "no message" is an alternative of the poll, not a swap */
	sw = (struct pg_hb_swap){ 1, 3, PG_RACE_NOTHING, 0 };
	ck_assert_ptr_null(pg_whatif_pick(&r, &sw, NULL));
	/* a message that is no alternative */
	sw = (struct pg_hb_swap){ 1, 3, 3, 5 };
	ck_assert_ptr_null(pg_whatif_pick(&r, &sw, NULL));
	/* no race there: nothing valid */
	ck_assert_ptr_null(pg_whatif_pick(NULL, &sw, &valid));
	ck_assert_uint_eq(valid.len, 0);
	pg_strbuf_free(&valid);
}
END_TEST

/* The master (1) sends each worker (1001, 1002) a job; both answer with
 * tag 1; the master takes 1002's answer first (event 4), 1001's then. */
static void put_two_senders(void)
{
	static const int kids[] = { 1001, 1002 };
	static const struct pg_event m[] = {
		SPAWN, SEND(1001, 99, 1), SEND(1002, 99, 2), RECV(1002, 1, 1),
		RECV(1001, 1, 1), END
	};
	static const struct pg_event w1[] = { RECV(1, 99, 1), SEND(1, 1, 1),
					      END };
	static const struct pg_event w2[] = { RECV(1, 99, 2), SEND(1, 1, 1),
					      END };

	cku_write_comm(1, 1, m, N(m));
	cku_write_exec(1, kids, 2);
	cku_write_comm(1001, 1001, w1, N(w1));
	cku_write_exec(1001, NULL, 0);
	cku_write_comm(1002, 1002, w2, N(w2));
	cku_write_exec(1002, NULL, 0);
}

START_TEST(cut_and_swaps_of_a_run)
{
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	struct pg_hb_swap sw = { 1, 4, 1001, 1 }, *v = NULL;
	static const int base_ltid[] = { 1, 1001 };
	uint64_t base_cut[] = { 4, 0 };
	long cut[3];
	char err[256] = "";

	put_two_senders();
	ck_assert_int_eq(pg_hb_load(&hb, cku_dir, err, sizeof(err)), 0);
	ck_assert_int_eq(pg_races_find(&hb, &r), 0);
	/* the swapped receive is in the cut (pg_hb_cut's ends before it) */
	ck_assert_int_eq(pg_whatif_cut(&hb, &sw, 1, cut, err, sizeof(err)), 0);
	ck_assert_int_eq(cut[0], 4);
	ck_assert_int_eq(cut[1], 2);
	ck_assert_int_eq(cut[2], 0);
	sw.msgid = 7;
	ck_assert_int_eq(pg_whatif_cut(&hb, &sw, 1, cut, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "sent no message 7"));
	/* the run offers one swap: 1:4=1001:1 */
	ck_assert_int_eq(pg_whatif_swaps(&r, NULL, NULL, 0, NULL, &v), 1);
	ck_assert_int_eq(v[0].ltid, 1);
	ck_assert_int_eq(v[0].event, 4);
	ck_assert_int_eq(v[0].sender, 1001);
	ck_assert_uint_eq(v[0].msgid, 1);
	free(v);
	/* ... not after a base whose cut holds that receive */
	ck_assert_int_eq(pg_whatif_swaps(&r, base_ltid, base_cut, 2, NULL, &v),
			 0);
	ck_assert_ptr_null(v);
	base_cut[0] = 3;
	ck_assert_int_eq(pg_whatif_swaps(&r, base_ltid, base_cut, 2, NULL, &v),
			 1);
	free(v);
	/* ... only at the receive asked for */
	sw = (struct pg_hb_swap){ 1, 5, 0, 0 };
	ck_assert_int_eq(pg_whatif_swaps(&r, NULL, NULL, 0, &sw, &v), 0);
	sw.event = 4;
	ck_assert_int_eq(pg_whatif_swaps(&r, NULL, NULL, 0, &sw, &v), 1);
	free(v);
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

START_TEST(swaps_in_races_order)
{
	struct pg_race_alt a1[] = { { 3, 4, 1, 7 }, { PG_RACE_NOTHING, 0, 0, 0 },
				    { 5, 1, 1, 2 } };
	struct pg_race_alt a2[] = { { 2, 8, 1, 9 } };
	struct pg_race v[] = {
		race(1, 3, PG_RACE_POLL, PG_REC_NRECV, a1, N(a1)),
		race(1, 6, PG_RACE_POLL, PG_REC_PROBE, a2, N(a2)),
		race(4, 2, PG_RACE_RECV, PG_REC_RECV, a2, N(a2)),
	};
	struct pg_races r = { .v = v, .n = N(v) };
	static const int ltid[] = { 4 };
	static const uint64_t cut[] = { 2 };
	struct pg_hb_swap *s;

	ck_assert_int_eq(pg_whatif_swaps(&r, NULL, NULL, 0, NULL, &s), 3);
	ck_assert(s[0].ltid == 1 && s[0].event == 3 && s[0].sender == 3 &&
		  s[0].msgid == 4);
	ck_assert(s[1].ltid == 1 && s[1].event == 3 && s[1].sender == 5);
	ck_assert(s[2].ltid == 4 && s[2].event == 2 && s[2].sender == 2 &&
		  s[2].msgid == 8);
	free(s);
	/* task 4 replayed its 2 events: its race is in the past; task 1,
	 * not named, offers all of its */
	ck_assert_int_eq(pg_whatif_swaps(&r, ltid, cut, 1, NULL, &s), 2);
	ck_assert_int_eq(s[1].ltid, 1);
	free(s);
}
END_TEST

START_TEST(prefix_key)
{
	struct pg_hb_ev e1[] = { { .kind = PG_REC_SEND, .peer = 2, .msgid = 1 },
				 { .kind = PG_REC_RECV, .peer = 2, .msgid = 1 },
				 { .kind = PG_REC_RECV, .peer = 3, .msgid = 1 } };
	struct pg_hb_ev e2[] = { { .kind = PG_REC_RECV, .peer = 1, .msgid = 1 },
				 { .kind = PG_REC_SEND, .peer = 1, .msgid = 1 } };
	struct pg_hb_ev *ev[] = { e1, e2 };
	int ltids[] = { 1, 2 };
	struct pg_hb hb = { .ntask = 2, .ltids = ltids, .ev = ev };
	struct pg_hb_swap sw = { 1, 2, 3, 1 };
	long cut[] = { 2, 1 };
	uint64_t k = pg_whatif_key(&hb, &sw, cut);

	ck_assert_uint_eq(pg_whatif_key(&hb, &sw, cut), k);
	/* after the cut nothing counts */
	e1[2].peer = 9;
	e2[1].msgid = 5;
	ck_assert_uint_eq(pg_whatif_key(&hb, &sw, cut), k);
	/* the swapped receive counts with its new message, not the one
	 * recorded */
	e1[1].peer = 3;
	ck_assert_uint_eq(pg_whatif_key(&hb, &sw, cut), k);
	sw.msgid = 2;
	ck_assert_uint_ne(pg_whatif_key(&hb, &sw, cut), k);
	sw.msgid = 1;
	/* an event before the cut, or the cut itself, does */
	e2[0].msgid = 4;
	ck_assert_uint_ne(pg_whatif_key(&hb, &sw, cut), k);
	e2[0].msgid = 1;
	cut[1] = 2;
	ck_assert_uint_ne(pg_whatif_key(&hb, &sw, cut), k);
}
END_TEST

START_TEST(explore_plan)
{
	struct pg_explore_plan p = { 0 };
	const struct pg_hb_swap rec[] = { { 1, 4, 1001, 1 }, { 1, 5, 1002, 2 } };
	const struct pg_hb_swap run1[] = { { 1, 7, 1003, 1 } };
	const struct pg_hb_swap run3[] = { { 2, 3, 1, 9 } };
	char buf[256];

	/* the recording's swaps, then those of run 1 (item 0 made it) */
	ck_assert_int_eq(pg_explore_add(&p, 0, -1, rec, 2), 0);
	ck_assert_int_eq(pg_explore_add(&p, 1, 0, run1, 1), 0);
	ck_assert_int_eq(pg_explore_add(&p, 3, 2, run3, 1), 0);
	ck_assert_int_eq(p.n, 4);
	ck_assert(p.items[1].base == 0 && p.items[1].sw.event == 5);
	ck_assert(p.items[2].base == 1 && p.items[2].parent == 0);
	pg_explore_chain(&p, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1:4=1001:1");
	pg_explore_chain(&p, 3, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1:4=1001:1 then 1:7=1003:1 then 2:3=1:9");
	/* a prefix is run once */
	ck_assert_int_eq(pg_explore_seen(&p, 42), 0);
	ck_assert_int_eq(pg_explore_seen(&p, 43), 0);
	ck_assert_int_eq(pg_explore_seen(&p, 42), 1);
	ck_assert_int_eq(p.nkeys, 2);
	/* nothing to add is no error */
	ck_assert_int_eq(pg_explore_add(&p, 2, 1, NULL, 0), 0);
	ck_assert_int_eq(p.n, 4);
	pg_explore_free(&p);
	ck_assert_ptr_null(p.items);
	ck_assert_int_eq(p.n, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("whatif");
	TCase *tc = tcase_create("whatif");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, swappable_alternatives);
	tcase_add_test(tc, pick_refuses_what_is_not_swappable);
	tcase_add_test(tc, cut_and_swaps_of_a_run);
	tcase_add_test(tc, swaps_in_races_order);
	tcase_add_test(tc, prefix_key);
	tcase_add_test(tc, explore_plan);
	suite_add_tcase(s, tc);
	return cku_run(s);
}
