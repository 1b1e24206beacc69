/*
 * check_races.c: unit tests of the happens-before relation
 * (logs/analysis/happens-before.c) and the racing receives
 * (logs/analysis/races.c) on small runs written with the real log writers, each
 * with a known answer: two concurrent senders race, a message sent causally
 * after the receive does not, failed and successful polls, concurrent joins of
 * a group, a barrier's edges, spawns, a pvmd's notices, the consistent cut of a
 * what-if, and logs that contradict each other or cannot be read.
 */
#include "pangaea-analysis.h"
#include "checkutil.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Writes task LTID's comm log (the N events EV) and its exec log, with
 * one spawn of the NKID tasks KIDS if NKID > 0. */
static void put_task(int ltid, const struct pg_event *ev, int n,
		     const int *kids, int nkid)
{
	cku_write_comm(ltid, ltid, ev, n);
	cku_write_exec(ltid, kids, nkid);
}

static const int workers[] = { 1001, 1002 };

/* Loads cku_dir into HB and its races into R. */
static void load(struct pg_hb *hb, struct pg_races *r)
{
	char err[512] = "";

	if (pg_hb_load(hb, cku_dir, err, sizeof(err)) < 0)
		ck_abort_msg("pg_hb_load: %s", err);
	ck_assert_int_eq(pg_races_find(hb, r), 0);
}

#define SPAWN { .kind = PG_REC_SPAWN, .msgid = 1, .len = 2 }
#define SEND(to, tg, id) { .kind = PG_REC_SEND, .peer = (to), .tag = (tg), \
			   .msgid = (id) }
/* a receive from any source for its tag (the filter the tests below
 * but the filter ones take) */
#define RECV(k, from, tg, id) { .kind = (k), .peer = (from), .tag = (tg), \
				.msgid = (id), .filter = PG_FILTER_ANYSRC }
#define RECVF(k, from, tg, id, f) { .kind = (k), .peer = (from), \
				    .tag = (tg), .msgid = (id), .filter = (f) }
#define END { .kind = PG_REC_END, .how = PG_END_EXIT }

/* Writes the two workers that take their job (tag JTAG, the master's
 * message 1 and ID2) and answer it: 1001 with tag TAG1, 1002 with
 * TAG2. */
static void put_answers(int jtag, int id2, int tag1, int tag2)
{
	const struct pg_event w1[] = {
		RECV(PG_REC_RECV, 1, jtag, 1), SEND(1, tag1, 1), END
	};
	const struct pg_event w2[] = {
		RECV(PG_REC_RECV, 1, jtag, id2), SEND(1, tag2, 1), END
	};

	put_task(1001, w1, N(w1), NULL, 0);
	put_task(1002, w2, N(w2), NULL, 0);
}

/* Writes the two workers that take their job (tag 99, the master's
 * message 1 and 2) and answer it with tag 1. */
static void put_workers(void)
{
	put_answers(99, 2, 1, 1);
}

/* The master sends each worker a job; both answer with tag 1; the
 * master takes 1002's answer first. */
static void put_two_senders(void)
{
	static const struct pg_event m[] = {
		SPAWN, SEND(1001, 99, 1), SEND(1002, 99, 2),
		RECV(PG_REC_RECV, 1002, 1, 1), RECV(PG_REC_RECV, 1001, 1, 1),
		END
	};

	put_task(1, m, N(m), workers, 2);
	put_workers();
}

START_TEST(two_concurrent_senders_race)
{
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	const struct pg_race *x;

	put_two_senders();
	load(&hb, &r);
	ck_assert_int_eq(hb.ntask, 3);
	ck_assert_int_eq(hb.events, 12);
	/* the spawn is before each worker's first event, the jobs before
	 * their receives, the answers before the master's receives */
	ck_assert(pg_hb_before(&hb, 0, 1, 1, 1));
	ck_assert(pg_hb_before(&hb, 0, 2, 1, 1));
	ck_assert(!pg_hb_before(&hb, 0, 3, 1, 1));
	ck_assert(pg_hb_before(&hb, 2, 2, 0, 4));
	ck_assert(!pg_hb_before(&hb, 1, 2, 0, 4));
	ck_assert(pg_hb_before(&hb, 1, 2, 0, 5));
	ck_assert(!pg_hb_before(&hb, 1, 1, 2, 3));
	ck_assert_uint_eq(pg_hb_clock(&hb, 0, 5)[1], 2);
	ck_assert_uint_eq(pg_hb_clock(&hb, 0, 5)[2], 2);
	ck_assert_uint_eq(pg_hb_clock(&hb, 2, 2)[0], 3);
	/* one race: the master's first receive could have got 1001's */
	ck_assert_uint_eq(r.n, 1);
	ck_assert_int_eq(r.ntasks, 1);
	x = pg_races_at(&r, 1, 4);
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(x->what, PG_RACE_RECV);
	ck_assert_int_eq(x->peer, 1002);
	ck_assert_uint_eq(x->msgid, 1);
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, 1001);
	ck_assert_uint_eq(x->alts[0].msgid, 1);
	ck_assert_int_eq(x->alts[0].tag, 1);
	ck_assert_int_eq(x->alts[0].send_event, 2);
	ck_assert_ptr_null(pg_races_at(&r, 1, 5));
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

START_TEST(cut_of_a_swap)
{
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	struct pg_hb_swap sw = { 1, 4, 1001, 1 };
	long cut[3];
	char err[256] = "";

	put_two_senders();
	load(&hb, &r);
	ck_assert_int_eq(pg_hb_cut(&hb, &sw, 1, cut, err, sizeof(err)), 0);
	/* the master's 3 events before the receive, 1001 up to its answer
	 * (which needed the master's event 2: inside already), none of
	 * 1002's */
	ck_assert_int_eq(cut[0], 3);
	ck_assert_int_eq(cut[1], 2);
	ck_assert_int_eq(cut[2], 0);
	/* what is no alternative is refused */
	sw.msgid = 7;
	ck_assert_int_eq(pg_hb_cut(&hb, &sw, 1, cut, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "sent no message 7"));
	sw = (struct pg_hb_swap){ 1, 5, 1002, 1 };
	ck_assert_int_eq(pg_hb_cut(&hb, &sw, 1, cut, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "before event 5"));
	sw = (struct pg_hb_swap){ 1, 3, 1002, 1 };
	ck_assert_int_eq(pg_hb_cut(&hb, &sw, 1, cut, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "no receive at event 3"));
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* 1002 answers only after 1001's answer reached the master and the
 * master told 1002 to go: no race. */
START_TEST(causally_after_is_no_race)
{
	static const struct pg_event m[] = {
		SPAWN, SEND(1001, 99, 1), RECV(PG_REC_RECV, 1001, 1, 1),
		SEND(1002, 99, 2), RECV(PG_REC_RECV, 1002, 1, 1), END
	};
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	struct pg_hb_swap sw = { 1, 3, 1002, 1 };
	long cut[3];
	char err[256] = "";

	put_task(1, m, N(m), workers, 2);
	put_workers();
	load(&hb, &r);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_int_eq(r.ntasks, 0);
	ck_assert(pg_hb_before(&hb, 0, 3, 2, 2));
	ck_assert_int_eq(pg_hb_cut(&hb, &sw, 1, cut, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "sent after"));
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* The master polls: 3 failed polls, a pvm_nrecv of 1001's answer, a
 * pvm_recv of 1002's; and a probe before a receive of the same message
 * (which then cannot fail). */
START_TEST(polls_race)
{
	static const struct pg_event m[] = {
		SPAWN, SEND(1001, 99, 1), SEND(1002, 99, 2),
		{ .kind = PG_REC_POLLFAIL, .count = 3,
		  .filter = PG_FILTER_ANYSRC },
		RECV(PG_REC_NRECV, 1001, 1, 1),
		RECV(PG_REC_PROBE, 1002, 1, 1), RECV(PG_REC_NRECV, 1002, 1, 1),
		END
	};
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	const struct pg_race *x;

	put_task(1, m, N(m), workers, 2);
	put_workers();
	load(&hb, &r);
	/* the failed polls could have got either answer */
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 4));
	ck_assert_int_eq(x->what, PG_RACE_POLLFAIL);
	ck_assert_uint_eq(x->msgid, 3);
	ck_assert_int_eq(x->nalt, 2);
	ck_assert_int_eq(x->alts[0].sender, 1001);
	ck_assert_int_eq(x->alts[1].sender, 1002);
	/* the nrecv could have got 1002's, or nothing */
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 5));
	ck_assert_int_eq(x->what, PG_RACE_POLL);
	ck_assert_int_eq(x->nalt, 2);
	ck_assert_int_eq(x->alts[0].sender, 1002);
	ck_assert_int_eq(x->alts[1].sender, PG_RACE_NOTHING);
	/* the probe could have seen nothing; the nrecv after it not */
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 6));
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, PG_RACE_NOTHING);
	ck_assert_ptr_null(pg_races_at(&r, 1, 7));
	ck_assert_uint_eq(r.n, 3);
	/* the probe is tied to the send of what it saw */
	ck_assert(pg_hb_before(&hb, 2, 2, 0, 6));
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* Writes the master that takes the two answers with the filter F
 * (PG_FILTER_*), 1002's first. */
static void put_filtered(int f)
{
	const struct pg_event m[] = {
		SPAWN, SEND(1001, 99, 1), SEND(1002, 99, 2),
		RECVF(PG_REC_RECV, 1002, 1, 1, f),
		RECVF(PG_REC_RECV, 1001, 1, 1, f), END
	};

	put_task(1, m, N(m), workers, 2);
	put_workers();
}

/* A receive from a fixed source has no alternative: sor's master taking
 * each worker's strip in turn. */
START_TEST(fixed_source_no_race)
{
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };

	put_filtered(0);
	load(&hb, &r);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_int_eq(r.ntasks, 0);
	ck_assert_uint_eq(hb.old_version, 0);
	pg_races_free(&r);
	pg_hb_free(&hb);
	/* a fixed source with any tag: none either (the sender's order) */
	put_filtered(PG_FILTER_ANYTAG);
	load(&hb, &r);
	ck_assert_uint_eq(r.n, 0);
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* The workers answer with different tags (1001: 1, 1002: 2); the
 * master takes 1002's first.  A pvm_recv(-1, -1) could have got 1001's
 * tag-1 answer; a pvm_recv(-1, 2) could not. */
static void put_cross_tag(int f, int f2)
{
	const struct pg_event m[] = {
		SPAWN, SEND(1001, 99, 1), SEND(1002, 99, 2),
		RECVF(PG_REC_RECV, 1002, 2, 1, f),
		RECVF(PG_REC_RECV, 1001, 1, 1, f2), END
	};
	static const struct pg_event w1[] = {
		RECV(PG_REC_RECV, 1, 99, 1), SEND(1, 1, 1), END
	};
	static const struct pg_event w2[] = {
		RECV(PG_REC_RECV, 1, 99, 2), SEND(1, 2, 1), SEND(1, 2, 2), END
	};

	put_task(1, m, N(m), workers, 2);
	put_task(1001, w1, N(w1), NULL, 0);
	put_task(1002, w2, N(w2), NULL, 0);
}

START_TEST(any_tag_cross_tag_race)
{
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	const struct pg_race *x;

	put_cross_tag(PG_FILTER_ANYSRC | PG_FILTER_ANYTAG,
		      PG_FILTER_ANYSRC | PG_FILTER_ANYTAG);
	load(&hb, &r);
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 4));
	ck_assert_int_eq(x->what, PG_RACE_RECV);
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, 1001);
	ck_assert_int_eq(x->alts[0].tag, 1);
	ck_assert_uint_eq(x->alts[0].msgid, 1);
	/* the second: 1002's next message (tag 2, id 2) is the one left */
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 5));
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, 1002);
	ck_assert_uint_eq(x->alts[0].msgid, 2);
	ck_assert_uint_eq(r.n, 2);
	pg_races_free(&r);
	pg_hb_free(&hb);
	/* any source, its own tag: no other sender sent tag 2 */
	put_cross_tag(PG_FILTER_ANYSRC, 0);
	load(&hb, &r);
	ck_assert_uint_eq(r.n, 0);
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* Failed polls keep their filter: from a fixed source (the next poll's)
 * only that sender's message competes; with any tag every tag does. */
START_TEST(pollfail_filter)
{
	const struct pg_event m[] = {
		SPAWN, SEND(1001, 99, 1), SEND(1002, 99, 2),
		{ .kind = PG_REC_POLLFAIL, .count = 2 },
		RECVF(PG_REC_NRECV, 1001, 1, 1, 0),
		{ .kind = PG_REC_POLLFAIL, .count = 1,
		  .filter = PG_FILTER_ANYSRC | PG_FILTER_ANYTAG },
		RECVF(PG_REC_RECV, 1002, 2, 1, 0), END
	};
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	const struct pg_race *x;

	put_task(1, m, N(m), workers, 2);
	put_answers(99, 2, 1, 2);
	load(&hb, &r);
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 4));
	ck_assert_int_eq(x->what, PG_RACE_POLLFAIL);
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, 1001);
	/* the fixed-source nrecv: only "nothing" */
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 5));
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, PG_RACE_NOTHING);
	/* the any-tag failed poll: 1002's tag-2 message */
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 6));
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, 1002);
	ck_assert_int_eq(x->alts[0].tag, 2);
	ck_assert_ptr_null(pg_races_at(&r, 1, 7));
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* A version 5 log has no filters: its fixed-source receives are taken
 * as wildcards, as before (a race), and the load says which version. */
START_TEST(old_version_every_receive_wildcard)
{
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	const struct pg_race *x;

	cku_comm_version = 5; /* the master's log */
	put_filtered(0);
	cku_comm_version = 0;
	load(&hb, &r);
	ck_assert_uint_eq(hb.old_version, 5);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 4));
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, 1001);
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

#define JOIN(inst) { .kind = PG_REC_GROUP, .op = PG_GROUP_JOIN, \
		     .result = (inst), .group = "g" }
#define BARRIER { .kind = PG_REC_GROUP, .op = PG_GROUP_BARRIER, \
		  .arg = 2, .result = 0, .group = "g" }

/* 1001 and 1002 join g concurrently; 1003 joins after 1001 told it to. */
START_TEST(concurrent_joins_race)
{
	static const int three[] = { 1001, 1002, 1003 };
	static const struct pg_event m[] = {
		{ .kind = PG_REC_SPAWN, .msgid = 1, .len = 3 }, END
	};
	static const struct pg_event w1[] = {
		JOIN(0), SEND(1003, 5, 1), END
	};
	static const struct pg_event w2[] = { JOIN(1), END };
	static const struct pg_event w3[] = {
		RECV(PG_REC_RECV, 1001, 5, 1), JOIN(2), END
	};
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	const struct pg_race *x;

	put_task(1, m, N(m), three, 3);
	put_task(1001, w1, N(w1), NULL, 0);
	put_task(1002, w2, N(w2), NULL, 0);
	put_task(1003, w3, N(w3), NULL, 0);
	load(&hb, &r);
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1001, 1));
	ck_assert_int_eq(x->what, PG_RACE_JOIN);
	ck_assert_int_eq(x->tag, 0);
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, 1002);
	ck_assert_int_eq(x->alts[0].tag, 1);
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1002, 1));
	ck_assert_int_eq(x->nalt, 2); /* 1001's and 1003's */
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1003, 2));
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, 1002);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_int_eq(r.ntasks, 3);
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* 1002 sends before a barrier, 1001 after it: 1002's send happens
 * before 1001's, so the master's receive of 1001's first races with
 * 1002's (sent earlier, not yet received) but a swap's cut holds 1002's
 * events up to the barrier. */
START_TEST(barrier_orders)
{
	static const struct pg_event m[] = {
		SPAWN, RECV(PG_REC_RECV, 1001, 1, 1),
		RECV(PG_REC_RECV, 1002, 1, 1), END
	};
	static const struct pg_event w1[] = { BARRIER, SEND(1, 1, 1), END };
	static const struct pg_event w2[] = { SEND(1, 1, 1), BARRIER, END };
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	struct pg_hb_swap sw = { 1, 2, 1002, 1 };
	long cut[3];
	char err[256] = "";

	put_task(1, m, N(m), workers, 2);
	put_task(1001, w1, N(w1), NULL, 0);
	put_task(1002, w2, N(w2), NULL, 0);
	load(&hb, &r);
	ck_assert(pg_hb_before(&hb, 2, 1, 1, 2));
	ck_assert(pg_hb_before(&hb, 1, 1, 2, 3));
	/* the calls of one barrier are in each other's past */
	ck_assert(pg_hb_before(&hb, 1, 1, 2, 2));
	ck_assert(pg_hb_before(&hb, 2, 2, 1, 1));
	ck_assert(!pg_hb_before(&hb, 1, 2, 2, 1));
	ck_assert_uint_eq(pg_hb_clock(&hb, 1, 1)[2], 2);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_ptr_nonnull(pg_races_at(&r, 1, 2));
	ck_assert_int_eq(pg_hb_cut(&hb, &sw, 1, cut, err, sizeof(err)), 0);
	ck_assert_int_eq(cut[0], 1);
	ck_assert_int_eq(cut[1], 0);
	ck_assert_int_eq(cut[2], 1);
	/* taking 1001's at event 3 needs 1001's send after the barrier,
	 * hence 1002's barrier too */
	sw = (struct pg_hb_swap){ 1, 3, 1001, 1 };
	ck_assert_int_eq(pg_hb_cut(&hb, &sw, 1, cut, err, sizeof(err)), -1);
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* An mcast is one send with several receivers; a foreign message races
 * with the run's. */
START_TEST(mcast_and_foreign)
{
	static const int d[] = { 1001, 1002 };
	struct pg_event m[] = {
		SPAWN, { .kind = PG_REC_MCAST, .tag = 3, .msgid = 1,
			 .ndest = 2, .dests = (int *)d },
		RECV(PG_REC_RECV, PG_PEER_FOREIGN, 1, 0),
		RECV(PG_REC_RECV, 1001, 1, 1), RECV(PG_REC_RECV, 1002, 1, 1),
		END
	};
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	const struct pg_race *x;

	put_task(1, m, N(m), workers, 2);
	put_answers(3, 1, 1, 1);
	load(&hb, &r);
	ck_assert(pg_hb_before(&hb, 0, 2, 1, 1));
	ck_assert(pg_hb_before(&hb, 0, 2, 2, 1));
	/* the foreign message's receive could have got either answer */
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 3));
	ck_assert_int_eq(x->nalt, 2);
	/* 1001's could have been 1002's */
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 4));
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, 1002);
	ck_assert_uint_eq(r.n, 2);
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* 1001 spawns 2001 (its second event), which answers the master at
 * once; the master took 1002's answer first: taking 2001's instead needs
 * 1001's spawn, and the master's own spawn of 1001 before it. */
START_TEST(cut_holds_the_spawns)
{
	static const int grandchild[] = { 2001 };
	static const struct pg_event m[] = {
		SPAWN, RECV(PG_REC_RECV, 1002, 1, 1),
		RECV(PG_REC_RECV, 2001, 1, 1), END
	};
	static const struct pg_event w1[] = {
		SEND(1, 7, 1), { .kind = PG_REC_SPAWN, .msgid = 1, .len = 1 },
		END
	};
	static const struct pg_event w2[] = { SEND(1, 1, 1), END };
	static const struct pg_event g[] = { SEND(1, 1, 1), END };
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	struct pg_hb_swap sw = { 1, 2, 2001, 1 };
	long cut[4];
	char err[256] = "";

	put_task(1, m, N(m), workers, 2);
	put_task(1001, w1, N(w1), grandchild, 1);
	put_task(1002, w2, N(w2), NULL, 0);
	put_task(2001, g, N(g), NULL, 0);
	load(&hb, &r);
	ck_assert_int_eq(hb.ntask, 4);
	ck_assert(pg_hb_before(&hb, 1, 2, 3, 1));
	ck_assert(pg_hb_before(&hb, 0, 1, 3, 1));
	ck_assert_ptr_nonnull(pg_races_at(&r, 1, 2));
	ck_assert_int_eq(pg_hb_cut(&hb, &sw, 1, cut, err, sizeof(err)), 0);
	ck_assert_int_eq(cut[0], 1); /* the master's spawn */
	ck_assert_int_eq(cut[1], 2); /* 1001's send and spawn */
	ck_assert_int_eq(cut[2], 0);
	ck_assert_int_eq(cut[3], 1); /* 2001's send */
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* 2001, spawned by 1002, first takes 1001's message, then the master's:
 * the cut of taking the master's first holds 1002's spawn of 2001 (the
 * causal past of a task's first event is its spawn's). */
START_TEST(cut_of_a_first_event)
{
	static const int grandchild[] = { 2001 };
	static const struct pg_event m[] = { SPAWN, SEND(2001, 1, 1), END };
	static const struct pg_event w1[] = { SEND(2001, 1, 1), END };
	static const struct pg_event w2[] = {
		{ .kind = PG_REC_SPAWN, .msgid = 1, .len = 1 }, END
	};
	static const struct pg_event g[] = {
		RECV(PG_REC_RECV, 1001, 1, 1), RECV(PG_REC_RECV, 1, 1, 1), END
	};
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	struct pg_hb_swap sw = { 2001, 1, 1, 1 };
	long cut[4];
	char err[256] = "";

	put_task(1, m, N(m), workers, 2);
	put_task(1001, w1, N(w1), NULL, 0);
	put_task(1002, w2, N(w2), grandchild, 1);
	put_task(2001, g, N(g), NULL, 0);
	load(&hb, &r);
	ck_assert_ptr_nonnull(pg_races_at(&r, 2001, 1));
	ck_assert_int_eq(pg_hb_cut(&hb, &sw, 1, cut, err, sizeof(err)), 0);
	ck_assert_int_eq(cut[0], 2);
	ck_assert_int_eq(cut[1], 0);
	ck_assert_int_eq(cut[2], 1);
	ck_assert_int_eq(cut[3], 0);
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* The master takes the pvmd's PvmTaskExit notices (tag 3) about 1001,
 * then 1002: each comes after its task's end, and the two race (the
 * tasks' ends are concurrent). */
START_TEST(notices_race)
{
	static const struct pg_event m[] = {
		SPAWN, RECV(PG_REC_RECV, PG_PEER_SYSTEM, 3, 1002),
		RECV(PG_REC_RECV, PG_PEER_SYSTEM, 3, 1003), END
	};
	static const struct pg_event w[] = { SEND(1, 1, 1), END };
	struct pg_hb hb = { 0 };
	struct pg_races r = { 0 };
	const struct pg_race *x;

	put_task(1, m, N(m), workers, 2);
	put_task(1001, w, N(w), NULL, 0);
	put_task(1002, w, N(w), NULL, 0);
	load(&hb, &r);
	ck_assert(pg_hb_before(&hb, 1, 2, 0, 2));
	ck_assert(!pg_hb_before(&hb, 2, 2, 0, 2));
	ck_assert(pg_hb_before(&hb, 2, 2, 0, 3));
	ck_assert_ptr_nonnull(x = pg_races_at(&r, 1, 2));
	ck_assert_int_eq(x->nalt, 1);
	ck_assert_int_eq(x->alts[0].sender, PG_PEER_SYSTEM);
	ck_assert_uint_eq(x->alts[0].msgid, 1003);
	ck_assert_int_eq(x->alts[0].send_event, 2);
	ck_assert_uint_eq(r.n, 1);
	pg_races_free(&r);
	pg_hb_free(&hb);
}
END_TEST

/* Two tasks each receive the other's message before sending theirs:
 * logs no run can make; and an exec log that cannot be read. */
START_TEST(contradiction_refused)
{
	static const struct pg_event m[] = { SPAWN, END };
	static const struct pg_event w1[] = {
		RECV(PG_REC_RECV, 1002, 1, 1), SEND(1002, 1, 1), END
	};
	static const struct pg_event w2[] = {
		RECV(PG_REC_RECV, 1001, 1, 1), SEND(1001, 1, 1), END
	};
	struct pg_hb hb = { 0 };
	char err[512] = "", path[PATH_MAX];

	put_task(1, m, N(m), workers, 2);
	put_task(1001, w1, N(w1), NULL, 0);
	put_task(1002, w2, N(w2), NULL, 0);
	ck_assert_int_eq(pg_hb_load(&hb, cku_dir, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "contradict"));
	pg_hb_free(&hb);
	ck_assert_int_eq(pg_hb_load(&hb, "/nonexistent-dir", err,
				    sizeof(err)), -1);
	pg_hb_free(&hb);
	/* a damaged exec log is no log without spawns: refused, named */
	put_workers();
	cku_spit(cku_in_dir(path, sizeof(path), "task-1.exec"), "junk\n", 5);
	ck_assert_int_eq(pg_hb_load(&hb, cku_dir, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "task-1.exec"));
	pg_hb_free(&hb);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("races");
	TCase *tc = tcase_create("races");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, two_concurrent_senders_race);
	tcase_add_test(tc, cut_of_a_swap);
	tcase_add_test(tc, causally_after_is_no_race);
	tcase_add_test(tc, polls_race);
	tcase_add_test(tc, concurrent_joins_race);
	tcase_add_test(tc, barrier_orders);
	tcase_add_test(tc, mcast_and_foreign);
	tcase_add_test(tc, cut_holds_the_spawns);
	tcase_add_test(tc, notices_race);
	tcase_add_test(tc, cut_of_a_first_event);
	tcase_add_test(tc, contradiction_refused);
	tcase_add_test(tc, fixed_source_no_race);
	tcase_add_test(tc, any_tag_cross_tag_race);
	tcase_add_test(tc, pollfail_filter);
	tcase_add_test(tc, old_version_every_receive_wildcard);
	suite_add_tcase(s, tc);
	return cku_run(s);
}
