/*
 * check_match.c: unit tests of the message matcher (logs/analysis/match.c), the
 * one the importer and the live view share: pairs in either order, one
 * message per destination of an mcast or bcast with the send's kind, the
 * ends' times, duplicates, each reason an end is left alone, foreign
 * senders, and many messages fed in a shuffled order.
 */
#include "match.h"
#include "checkutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* What the callback was told, in order. */
struct told {
	int n;
	int what[64];
	struct pg_match_end e[64], other[64];
	int stop_at;      /* return 7 on this call (1-based), 0: never */
};

/* pg_match_fn that records into the struct told ARG. */
static int record(void *arg, enum pg_match_what what,
		  const struct pg_match_end *e, const struct pg_match_end *other)
{
	struct told *t = arg;

	ck_assert_int_lt(t->n, 64);
	t->what[t->n] = what;
	t->e[t->n] = *e;
	if (other)
		t->other[t->n] = *other;
	else
		memset(&t->other[t->n], 0, sizeof(t->other[0]));
	t->n++;
	return t->n == t->stop_at ? 7 : 0;
}

/* An event of KIND with PEER, TAG and MSGID. */
static struct pg_event ev(int kind, int peer, int tag, unsigned msgid)
{
	return cku_event(kind, peer, tag, msgid, 0, 0);
}

/* Feeds event EV of task LTID (id ID, times T0/T1) to M, recording. */
static void feed(struct pg_match *m, struct told *t, int ltid, int64_t id,
		 struct pg_event e, int64_t t0, int64_t t1)
{
	ck_assert_int_eq(pg_match_event(m, ltid, id, &e, t0, t1, record, t), 0);
}

START_TEST(test_send_then_receive)
{
	struct pg_match m = { 0 };
	struct told t = { 0 };

	feed(&m, &t, 1, 10, ev(PG_REC_SEND, 2, 5, 1), 100, 110);
	feed(&m, &t, 2, 20, ev(PG_REC_NRECV, 1, 5, 1), 150, 170);
	ck_assert_int_eq(t.n, 2);
	ck_assert_int_eq(t.what[0], PG_MATCH_WAITS);
	ck_assert_int_eq(t.what[1], PG_MATCH_PAIRED);
	/* the receive completed the send that waited */
	ck_assert(!pg_match_is_send(&t.e[1]));
	ck_assert(pg_match_is_send(&t.other[1]));
	ck_assert_int_eq(t.other[1].ev, 10);
	ck_assert_int_eq(t.other[1].kind, PG_REC_SEND);
	ck_assert_int_eq(t.e[1].src, 1);
	ck_assert_int_eq(t.e[1].dst, 2);
	/* a send's time is its entry, a receive's its exit */
	ck_assert_int_eq(t.other[1].t, 100);
	ck_assert_int_eq(t.e[1].t, 170);
	/* ends are numbered in the order fed */
	ck_assert_int_eq(t.other[1].seq, 1);
	ck_assert_int_eq(t.e[1].seq, 2);
	ck_assert_int_eq(pg_match_left(&m, &(struct pg_match_end *){ NULL }), 0);
	pg_match_free(&m);
}
END_TEST

START_TEST(test_receive_then_send)
{
	struct pg_match m = { 0 };
	struct told t = { 0 };

	feed(&m, &t, 2, 20, ev(PG_REC_PRECV, 1, 5, 9), 150, 170);
	feed(&m, &t, 1, 10, ev(PG_REC_PSEND, 2, 5, 9), 100, 110);
	ck_assert_int_eq(t.what[0], PG_MATCH_WAITS);
	ck_assert_int_eq(t.what[1], PG_MATCH_PAIRED);
	ck_assert(pg_match_is_send(&t.e[1]));
	ck_assert_int_eq(t.e[1].kind, PG_REC_PSEND);
	ck_assert_int_eq(t.other[1].ev, 20);
	ck_assert_int_eq(t.other[1].t, 170);
	ck_assert_int_eq(t.e[1].t, 100);
	pg_match_free(&m);
}
END_TEST

START_TEST(test_mcast_one_message_per_destination)
{
	struct pg_match m = { 0 };
	struct told t = { 0 };
	struct pg_event mc = ev(PG_REC_MCAST, 0, 6, 3);
	struct pg_match_run run = { (int[]){ 1, 1001, 1002, 1003 }, 4, 0 };
	struct pg_match_end *left;
	int dests[] = { 1001, 1002, 1003 };

	mc.ndest = 3;
	mc.dests = dests;
	feed(&m, &t, 1, 5, mc, 100, 104);
	ck_assert_int_eq(t.n, 3);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(t.what[i], PG_MATCH_WAITS);
		ck_assert_int_eq(t.e[i].dst, dests[i]);
		ck_assert_int_eq(t.e[i].ev, 5);
	}
	feed(&m, &t, 1002, 7, ev(PG_REC_RECV, 1, 6, 3), 200, 210);
	feed(&m, &t, 1001, 8, ev(PG_REC_TRECV, 1, 6, 3), 220, 230);
	ck_assert_int_eq(t.what[3], PG_MATCH_PAIRED);
	ck_assert_int_eq(t.other[3].dst, 1002);
	ck_assert_int_eq(t.other[3].kind, PG_REC_MCAST);
	ck_assert_int_eq(t.what[4], PG_MATCH_PAIRED);
	ck_assert_int_eq(t.other[4].dst, 1001);
	/* 1003 never took its copy */
	ck_assert_int_eq(pg_match_left(&m, &left), 1);
	ck_assert_int_eq(left[0].dst, 1003);
	ck_assert_str_eq(pg_match_why(&m, &left[0], &run), "not received");
	free(left);
	pg_match_free(&m);
}
END_TEST

START_TEST(test_bcast_received_first_keeps_send_kind)
{
	struct pg_match m = { 0 };
	struct told t = { 0 };
	struct pg_event bc = ev(PG_REC_BCAST, 0, 22, 4);
	int dests[] = { 2, 3 };

	bc.ndest = 2;
	bc.dests = dests;
	/* both receivers' logs come before the sender's */
	feed(&m, &t, 3, 30, ev(PG_REC_RECV, 1, 22, 4), 50, 60);
	feed(&m, &t, 2, 20, ev(PG_REC_RECV, 1, 22, 4), 40, 45);
	feed(&m, &t, 1, 10, bc, 10, 12);
	ck_assert_int_eq(t.n, 4);
	for (int i = 2; i < 4; i++) {
		ck_assert_int_eq(t.what[i], PG_MATCH_PAIRED);
		ck_assert_int_eq(t.e[i].kind, PG_REC_BCAST);
		ck_assert_int_eq(t.e[i].t, 10);
		ck_assert_int_eq(t.other[i].dst, t.e[i].dst);
	}
	ck_assert_int_eq(t.other[2].ev, 20);
	ck_assert_int_eq(t.other[3].ev, 30);
	pg_match_free(&m);
}
END_TEST

START_TEST(test_duplicate_receive)
{
	struct pg_match m = { 0 }, m2 = { 0 };
	struct told t = { 0 }, t2 = { 0 };
	struct pg_match_run run = { (int[]){ 1, 2 }, 2, 0 };
	struct pg_match_end *left;

	/* send, receive, the same message received again */
	feed(&m, &t, 1, 1, ev(PG_REC_SEND, 2, 5, 1), 10, 11);
	feed(&m, &t, 2, 2, ev(PG_REC_RECV, 1, 5, 1), 20, 21);
	feed(&m, &t, 2, 3, ev(PG_REC_RECV, 1, 5, 1), 30, 31);
	ck_assert_int_eq(t.what[2], PG_MATCH_WAITS);
	ck_assert_int_eq(pg_match_left(&m, &left), 1);
	ck_assert_int_eq(left[0].ev, 3);
	ck_assert_str_eq(pg_match_why(&m, &left[0], &run), "duplicate receive");
	free(left);
	/* both receives first: the send pairs with the first of them */
	feed(&m2, &t2, 2, 2, ev(PG_REC_RECV, 1, 5, 1), 20, 21);
	feed(&m2, &t2, 2, 3, ev(PG_REC_RECV, 1, 5, 1), 30, 31);
	feed(&m2, &t2, 1, 1, ev(PG_REC_SEND, 2, 5, 1), 10, 11);
	ck_assert_int_eq(t2.what[2], PG_MATCH_PAIRED);
	ck_assert_int_eq(t2.other[2].ev, 2);
	ck_assert_int_eq(pg_match_left(&m2, &left), 1);
	ck_assert_int_eq(left[0].ev, 3);
	ck_assert_str_eq(pg_match_why(&m2, &left[0], &run), "duplicate receive");
	free(left);
	pg_match_free(&m);
	pg_match_free(&m2);
}
END_TEST

START_TEST(test_reasons_left_alone)
{
	struct pg_match m = { 0 };
	struct told t = { 0 };
	struct pg_match_run run = { (int[]){ 1, 2 }, 2, 0 };
	struct pg_match_run sel = { (int[]){ 1, 2 }, 2, 1 };
	struct pg_match_end *left;

	feed(&m, &t, 1, 1, ev(PG_REC_SEND, 2, 5, 1), 10, 11);  /* task 2 logged */
	feed(&m, &t, 1, 2, ev(PG_REC_SEND, 9, 5, 2), 12, 13);  /* task 9 not */
	feed(&m, &t, 2, 3, ev(PG_REC_RECV, 1, 5, 7), 20, 21);  /* 1 logged */
	feed(&m, &t, 2, 4, ev(PG_REC_RECV, 9, 5, 1), 22, 23);  /* 9 not */
	ck_assert_int_eq(pg_match_left(&m, &left), 4);
	/* in the order fed */
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(left[i].ev, i + 1);
	ck_assert_str_eq(pg_match_why(&m, &left[0], &run), "not received");
	ck_assert_str_eq(pg_match_why(&m, &left[1], &run), "selection");
	ck_assert_str_eq(pg_match_why(&m, &left[2], &run), "send not logged");
	ck_assert_str_eq(pg_match_why(&m, &left[3], &run), "selection");
	/* a run that logged a selection explains them all by it */
	for (int i = 0; i < 4; i++)
		ck_assert_str_eq(pg_match_why(&m, &left[i], &sel), "selection");
	free(left);
	pg_match_free(&m);
}
END_TEST

START_TEST(test_foreign_sender)
{
	struct pg_match m = { 0 };
	struct told t = { 0 };
	struct pg_match_run run = { (int[]){ 1 }, 1, 0 };

	feed(&m, &t, 1, 1, ev(PG_REC_RECV, PG_PEER_FOREIGN, 9, 0), 10, 11);
	feed(&m, &t, 1, 2, ev(PG_REC_RECV, PG_PEER_SYSTEM, 9, 0), 12, 13);
	ck_assert_int_eq(t.n, 2);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(t.what[i], PG_MATCH_FOREIGN);
		ck_assert_str_eq(pg_match_why(&m, &t.e[i], &run), "foreign");
	}
	ck_assert_int_eq(t.e[0].src, PG_PEER_FOREIGN);
	ck_assert_int_eq(t.e[1].src, PG_PEER_SYSTEM);
	/* they do not wait */
	ck_assert_int_eq(pg_match_left(&m, &(struct pg_match_end *){ NULL }), 0);
	pg_match_free(&m);
}
END_TEST

START_TEST(test_no_ends_and_stop)
{
	struct pg_match m = { 0 };
	struct told t = { 0 };
	struct pg_event mc = ev(PG_REC_MCAST, 0, 6, 3);
	int dests[] = { 2, 3, 4 };

	/* a probe sees a message without taking it; spawns, ends, polls,
	 * group calls carry none */
	feed(&m, &t, 2, 1, ev(PG_REC_PROBE, 1, 5, 1), 10, 11);
	feed(&m, &t, 2, 2, ev(PG_REC_SPAWN, 0, 0, 1), 10, 11);
	feed(&m, &t, 2, 3, ev(PG_REC_POLLFAIL, 0, 0, 0), 10, 11);
	feed(&m, &t, 2, 4, ev(PG_REC_GROUP, 0, 0, 0), 10, 11);
	feed(&m, &t, 2, 5, ev(PG_REC_END, 0, 0, 0), 10, 11);
	ck_assert_int_eq(t.n, 0);
	/* the callback's value stops the feeding */
	mc.ndest = 3;
	mc.dests = dests;
	t.stop_at = 2;
	ck_assert_int_eq(pg_match_event(&m, 1, 6, &mc, 20, 21, record, &t), 7);
	ck_assert_int_eq(t.n, 2);
	pg_match_free(&m);
}
END_TEST

/* Pairs fed by the shuffled test: whether send I was paired. */
static char paired[20000];

/* pg_match_fn of the shuffled test: checks each pair is one message. */
static int check_pair(void *arg, enum pg_match_what what,
		      const struct pg_match_end *e,
		      const struct pg_match_end *other)
{
	const struct pg_match_end *s = pg_match_is_send(e) ? e : other;

	(void)arg;
	if (what != PG_MATCH_PAIRED)
		return 0;
	ck_assert_int_eq(e->src, other->src);
	ck_assert_int_eq(e->msgid, other->msgid);
	ck_assert_int_eq(e->dst, other->dst);
	ck_assert_int_ne(pg_match_is_send(e), pg_match_is_send(other));
	ck_assert_int_eq(s->ev % 20000, s->msgid % 20000);
	paired[s->msgid % 20000]++;
	return 0;
}

START_TEST(test_many_shuffled)
{
	enum { N = 20000 };
	struct pg_match m = { 0 };
	static struct pg_event evs[2 * N];
	static int ltid[2 * N];
	struct pg_match_end *left;

	/* N messages between 8 tasks, sends and receives in random order */
	srand(12345);
	for (int i = 0; i < N; i++) {
		int src = 1 + i % 8, dst = 1 + (i / 8) % 8;

		evs[2 * i] = ev(PG_REC_SEND, dst, 1, (unsigned)(i + N));
		ltid[2 * i] = src;
		evs[2 * i + 1] = ev(PG_REC_RECV, src, 1, (unsigned)(i + N));
		ltid[2 * i + 1] = dst;
	}
	for (int i = 2 * N - 1; i > 0; i--) {
		int j = rand() % (i + 1), l = ltid[i];
		struct pg_event x = evs[i];

		evs[i] = evs[j];
		evs[j] = x;
		ltid[i] = ltid[j];
		ltid[j] = l;
	}
	memset(paired, 0, sizeof(paired));
	for (int i = 0; i < 2 * N; i++)
		ck_assert_int_eq(pg_match_event(&m, ltid[i],
						evs[i].msgid, &evs[i], 0, 0,
						check_pair, NULL), 0);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(paired[i], 1);
	ck_assert_int_eq(pg_match_left(&m, &left), 0);
	pg_match_free(&m);
}
END_TEST

static Suite *match_suite(void)
{
	Suite *s = suite_create("match");
	TCase *tc = tcase_create("match");

	tcase_add_test(tc, test_send_then_receive);
	tcase_add_test(tc, test_receive_then_send);
	tcase_add_test(tc, test_mcast_one_message_per_destination);
	tcase_add_test(tc, test_bcast_received_first_keeps_send_kind);
	tcase_add_test(tc, test_duplicate_receive);
	tcase_add_test(tc, test_reasons_left_alone);
	tcase_add_test(tc, test_foreign_sender);
	tcase_add_test(tc, test_no_ends_and_stop);
	tcase_add_test(tc, test_many_shuffled);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(match_suite());
}
