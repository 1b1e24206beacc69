/*
 * check_queue.c: unit tests of replay's out-of-order queue
 * (pangaea_lib/engine/queue.c): messages kept in arrival order, found by
 * (sender ltid, message id) as replay looks for a recorded message, or by
 * a receive's filter, removed from anywhere.
 */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>
#include <stdlib.h>

static struct pg_queue q;

static void setup(void)
{
	q = (struct pg_queue){ 0 };
}

static void teardown(void)
{
	pg_queue_free(&q);
}

/* A queued message from SRC_LTID with MSGID; bufid and tid derived. */
static struct pg_qmsg msg(int src_ltid, uint32_t msgid)
{
	return (struct pg_qmsg){ .msg = 100 + src_ltid * 10 + (int)msgid,
				 .src = 0x40000 + src_ltid,
				 .src_ltid = src_ltid, .msgid = msgid,
				 .tag = (int)msgid % 7 };
}

/* Pushes the message from SRC_LTID with MSGID, asserting success. */
static void push(int src_ltid, uint32_t msgid)
{
	struct pg_qmsg m = msg(src_ltid, msgid);

	ck_assert_int_eq(pg_queue_push(&q, &m), 0);
}

/* Index of the message from SRC_LTID with MSGID (and msg()'s tag). */
static int find(int src_ltid, uint32_t msgid)
{
	return pg_queue_find(&q, src_ltid, msgid, msg(src_ltid, msgid).tag);
}

/* Asserts entry I is the message from SRC_LTID with MSGID, all fields. */
static void assert_entry(int i, int src_ltid, uint32_t msgid)
{
	struct pg_qmsg want = msg(src_ltid, msgid);

	ck_assert_int_lt(i, q.n);
	ck_assert_int_eq(q.v[i].src_ltid, want.src_ltid);
	ck_assert_uint_eq(q.v[i].msgid, want.msgid);
	ck_assert_int_eq(q.v[i].msg, want.msg);
	ck_assert_int_eq(q.v[i].src, want.src);
	ck_assert_int_eq(q.v[i].tag, want.tag);
}

START_TEST(test_empty)
{
	ck_assert_int_eq(q.n, 0);
	ck_assert_int_eq(find(1, 1), -1);
	ck_assert_int_eq(find(-1, 0), -1);
}
END_TEST

START_TEST(test_push_find)
{
	push(1001, 1);
	push(1002, 1);
	push(1001, 2);
	ck_assert_int_eq(q.n, 3);
	ck_assert_int_eq(find(1001, 1), 0);
	ck_assert_int_eq(find(1002, 1), 1);
	ck_assert_int_eq(find(1001, 2), 2);
	assert_entry(2, 1001, 2);
	/* both halves of the key count */
	ck_assert_int_eq(find(1002, 2), -1);
	ck_assert_int_eq(find(1003, 1), -1);
	ck_assert_int_eq(find(1001, 3), -1);
}
END_TEST

/* Message ids are unsigned 32-bit: the largest ones are told apart. */
START_TEST(test_large_ids)
{
	push(7, 0xffffffffu);
	push(7, 0x7fffffffu);
	push(-1, 0);
	ck_assert_int_eq(find(7, 0xffffffffu), 0);
	ck_assert_int_eq(find(7, 0x7fffffffu), 1);
	ck_assert_int_eq(find(-1, 0), 2);
	ck_assert_int_eq(find(7, 0xfffffffeu), -1);
}
END_TEST

/* Removing returns the entry and keeps the others in arrival order. */
START_TEST(test_remove_keeps_order)
{
	struct pg_qmsg m;

	for (uint32_t i = 1; i <= 5; i++)
		push(1, i);
	m = pg_queue_remove(&q, 2); /* the middle one */
	ck_assert_int_eq(m.src_ltid, 1);
	ck_assert_uint_eq(m.msgid, 3);
	ck_assert_int_eq(m.msg, msg(1, 3).msg);
	ck_assert_int_eq(q.n, 4);
	assert_entry(0, 1, 1);
	assert_entry(1, 1, 2);
	assert_entry(2, 1, 4);
	assert_entry(3, 1, 5);
	ck_assert_int_eq(find(1, 3), -1);
	m = pg_queue_remove(&q, 3); /* the last */
	ck_assert_uint_eq(m.msgid, 5);
	m = pg_queue_remove(&q, 0); /* the first */
	ck_assert_uint_eq(m.msgid, 1);
	ck_assert_int_eq(q.n, 2);
	assert_entry(0, 1, 2);
	assert_entry(1, 1, 4);
	pg_queue_remove(&q, 0);
	pg_queue_remove(&q, 0);
	ck_assert_int_eq(q.n, 0);
	ck_assert_int_eq(find(1, 2), -1);
}
END_TEST

/* Two copies of one key (cannot happen in a run): the first one is found. */
START_TEST(test_duplicate_key_first_wins)
{
	struct pg_qmsg a = msg(3, 9), b = msg(3, 9);

	b.msg = 999;
	ck_assert_int_eq(pg_queue_push(&q, &a), 0);
	ck_assert_int_eq(pg_queue_push(&q, &b), 0);
	ck_assert_int_eq(find(3, 9), 0);
	pg_queue_remove(&q, 0);
	ck_assert_int_eq(find(3, 9), 0);
	ck_assert_int_eq(q.v[0].msg, 999);
}
END_TEST

/*
 * Many entries (the array grows many times), interleaved from several
 * senders as a wildcard receive would see them; every one is found at
 * its arrival index, then taken out in a different order than it came.
 */
START_TEST(test_many)
{
	enum { SENDERS = 7, PER = 1500, N = SENDERS * PER };
	int taken = 0;

	for (int k = 0; k < PER; k++)
		for (int s = 0; s < SENDERS; s++)
			push(1001 + s, (uint32_t)k + 1);
	ck_assert_int_eq(q.n, N);
	ck_assert_int_ge(q.cap, N);
	for (int k = 0; k < PER; k += 97)
		for (int s = 0; s < SENDERS; s++)
			ck_assert_int_eq(find(1001 + s, (uint32_t)k + 1),
					 k * SENDERS + s);
	/* drain sender by sender, newest sender first, each in id order */
	for (int s = SENDERS - 1; s >= 0; s--)
		for (int k = 0; k < PER; k++) {
			int i = find(1001 + s, (uint32_t)k + 1);
			struct pg_qmsg m;

			/* rows before k hold s others each, row k s more */
			if (i != s * (k + 1))
				ck_abort_msg("sender %d msg %d at %d, want %d",
					     1001 + s, k + 1, i, s * (k + 1));
			m = pg_queue_remove(&q, i);
			if (m.src_ltid != 1001 + s || m.msgid != (uint32_t)k + 1)
				ck_abort_msg("removed %d/%u", m.src_ltid, m.msgid);
			taken++;
		}
	ck_assert_int_eq(taken, N);
	ck_assert_int_eq(q.n, 0);
}
END_TEST

/*
 * Messages without a Pangaea id (from a task outside the run, or a pvmd's
 * notice) are named by their class, id and tag: two notices about the
 * same task with other tags are told apart, ids of run tasks are not
 * (their tag does not matter).
 */
START_TEST(test_no_id_by_tag)
{
	struct pg_qmsg a = { .msg = 1, .src_ltid = PG_PEER_SYSTEM,
			     .msgid = 1002, .tag = 50 };
	struct pg_qmsg b = a, c = { .msg = 3, .src_ltid = 1001, .msgid = 4,
				    .tag = 8 };

	b.msg = 2;
	b.tag = 51;
	ck_assert_int_eq(pg_queue_push(&q, &a), 0);
	ck_assert_int_eq(pg_queue_push(&q, &b), 0);
	ck_assert_int_eq(pg_queue_push(&q, &c), 0);
	ck_assert_int_eq(pg_queue_find(&q, PG_PEER_SYSTEM, 1002, 51), 1);
	ck_assert_int_eq(pg_queue_find(&q, PG_PEER_SYSTEM, 1002, 50), 0);
	ck_assert_int_eq(pg_queue_find(&q, PG_PEER_SYSTEM, 1002, 52), -1);
	ck_assert_int_eq(pg_queue_find(&q, PG_PEER_FOREIGN, 1002, 50), -1);
	ck_assert_int_eq(pg_queue_find(&q, 1001, 4, 99), 2);
	ck_assert(pg_qmsg_is(&c, 1001, 4, 0));
	ck_assert(!pg_qmsg_is(&b, PG_PEER_SYSTEM, 1002, 50));
}
END_TEST

/* A receive's filter (tid, tag; -1 any) finds the first message it
 * takes, in arrival order. */
START_TEST(test_find_filter)
{
	push(1001, 1); /* tid 0x40000 + 1001, tag 1 */
	push(1002, 8); /* tag 1 */
	push(1002, 3); /* tag 3 */
	ck_assert_int_eq(pg_queue_find_filter(&q, -1, -1), 0);
	ck_assert_int_eq(pg_queue_find_filter(&q, -1, 1), 0);
	ck_assert_int_eq(pg_queue_find_filter(&q, 0x40000 + 1002, 1), 1);
	ck_assert_int_eq(pg_queue_find_filter(&q, 0x40000 + 1002, -1), 1);
	ck_assert_int_eq(pg_queue_find_filter(&q, -1, 3), 2);
	ck_assert_int_eq(pg_queue_find_filter(&q, 0x40000 + 1001, 3), -1);
	ck_assert_int_eq(pg_queue_find_filter(&q, 0x40000 + 1003, -1), -1);
}
END_TEST

/* A freed queue is empty and can be used again. */
START_TEST(test_free_reuse)
{
	push(1, 1);
	push(2, 1);
	pg_queue_free(&q);
	ck_assert_int_eq(q.n, 0);
	ck_assert_ptr_null(q.v);
	ck_assert_int_eq(find(1, 1), -1);
	push(2, 5);
	ck_assert_int_eq(find(2, 5), 0);
}
END_TEST

static Suite *queue_suite(void)
{
	Suite *s = suite_create("queue");
	TCase *tc = tcase_create("queue");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_push_find);
	tcase_add_test(tc, test_large_ids);
	tcase_add_test(tc, test_remove_keeps_order);
	tcase_add_test(tc, test_duplicate_key_first_wins);
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_no_id_by_tag);
	tcase_add_test(tc, test_find_filter);
	tcase_add_test(tc, test_free_reuse);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(queue_suite());
}
