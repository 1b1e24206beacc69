/*
 * check_answers.c: unit tests of the data of call records
 * (pangaea_lib/pvm/answers.c, the part that needs no PVM daemon): what the put
 * functions write, the get functions read back (ints, bytes, strings,
 * tids as ltids where the task is known, arrays), damaged data is
 * noticed rather than read past, and the memory given to the program
 * lives until the next call of the same function.
 */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Turns the data written into Q into the data read back (recording). */
static void read_back(struct pg_qcall *q)
{
	pg_qcall_record(q, 0);
	ck_assert_int_eq(q->ev.result, 0);
}

START_TEST(test_round_trip)
{
	static const unsigned char bytes[] = { 0, 0xff, 7 };
	struct pg_qcall q = { .ev = { .op = PG_Q_TASKS } };
	const unsigned char *p;
	char *s;
	size_t n;

	pg_ids_learn(0x40002, 1);    /* tasks this task knows */
	pg_ids_learn(0x40005, 1002);
	pg_qcall_put_int(&q, 0);
	pg_qcall_put_int(&q, -1);
	pg_qcall_put_int(&q, 2147483647);
	pg_qcall_put_int(&q, -2147483647 - 1);
	pg_qcall_put_str(&q, "hello");
	pg_qcall_put_str(&q, NULL);
	pg_qcall_put_bytes(&q, bytes, sizeof(bytes));
	pg_qcall_put_tid(&q, 0x40005);     /* in the run: as its ltid */
	pg_qcall_put_tid(&q, 0);           /* no task */
	pg_qcall_put_tid(&q, (int)0x80040000u); /* a pvmd: as it is */
	ck_assert_int_eq(q.nomem, 0);
	read_back(&q);
	ck_assert_int_eq(pg_qcall_get_int(&q), 0);
	ck_assert_int_eq(pg_qcall_get_int(&q), -1);
	ck_assert_int_eq(pg_qcall_get_int(&q), 2147483647);
	ck_assert_int_eq(pg_qcall_get_int(&q), -2147483647 - 1);
	s = pg_qcall_get_str(&q);
	ck_assert_str_eq(s, "hello");
	ck_assert_str_eq(pg_qcall_get_str(&q), "");
	p = pg_qcall_get_bytes(&q, &n);
	ck_assert_uint_eq(n, sizeof(bytes));
	ck_assert(memcmp(p, bytes, n) == 0);
	ck_assert_int_eq(pg_qcall_get_tid(&q), 0x40005);
	ck_assert_int_eq(pg_qcall_get_tid(&q), 0);
	ck_assert_int_eq(pg_qcall_get_tid(&q), (int)0x80040000u);
	ck_assert_int_eq(q.bad, 0);
	/* past the end: noticed, not read */
	ck_assert_int_eq(pg_qcall_get_int(&q), 0);
	ck_assert_int_eq(q.bad, 1);
	free(q.data);
	pg_qcall_forget(PG_Q_TASKS);
}
END_TEST

/* The ltid, not the tid, is in the data: the same data read in another
 * run (another tid for that ltid) gives that run's tid. */
START_TEST(test_tid_as_ltid)
{
	struct pg_qcall q = { .ev = { .op = PG_Q_PSTAT } };
	unsigned char copy[64];
	size_t n;

	pg_ids_learn(0x40007, 1003);
	pg_qcall_put_tid(&q, 0x40007);
	ck_assert_uint_le(q.len, sizeof(copy));
	n = q.len;
	memcpy(copy, q.data, n);
	free(q.data);
	/* "replay": ltid 1003 is tid 0x40009 now */
	pg_ids_learn(0x40009, 1003);
	q = (struct pg_qcall){ .ev = { .op = PG_Q_PSTAT }, .rd = copy,
			       .rdlen = n };
	ck_assert_int_eq(pg_qcall_get_tid(&q), 0x40009);
	ck_assert_int_eq(q.bad, 0);
}
END_TEST

/* Counts and lengths beyond the data are damage, not allocations. */
START_TEST(test_damaged)
{
	static const unsigned char huge_count[] = { 0xfe, 0xff, 0xff, 0xff, 0x0f };
	static const unsigned char long_str[] = { 20, 'a', 'b' };
	static const unsigned char cut_varint[] = { 0x80, 0x80 };
	struct pg_qcall q = { .ev = { .op = PG_Q_CONFIG } };
	size_t n;
	int k = -1;

	q.rd = huge_count;
	q.rdlen = sizeof(huge_count);
	ck_assert_ptr_null(pg_qcall_get_array(&q, sizeof(int), &k));
	ck_assert_int_eq(q.bad, 1);
	ck_assert_int_eq(k, -1);
	q = (struct pg_qcall){ .ev = { .op = PG_Q_CONFIG }, .rd = long_str,
			       .rdlen = sizeof(long_str) };
	ck_assert_ptr_null(pg_qcall_get_bytes(&q, &n));
	ck_assert_int_eq(q.bad, 1);
	q = (struct pg_qcall){ .ev = { .op = PG_Q_CONFIG }, .rd = cut_varint,
			       .rdlen = sizeof(cut_varint) };
	pg_qcall_get_int(&q);
	ck_assert_int_eq(q.bad, 1);
	pg_qcall_forget(PG_Q_CONFIG);
}
END_TEST

/* An array of the count written, zeroed; kept until the op's next call. */
START_TEST(test_array_kept)
{
	struct pg_qcall q = { .ev = { .op = PG_Q_GETMBOXINFO } };
	int *a, n = 0;

	pg_qcall_put_int(&q, 3);
	for (int i = 0; i < 3; i++) /* (each element has its data) */
		pg_qcall_put_int(&q, i);
	read_back(&q);
	a = pg_qcall_get_array(&q, sizeof(int), &n);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(a[0] | a[1] | a[2], 0);
	a[2] = 5; /* (ours until pg_qcall_forget: valgrind/ASan would say) */
	free(q.data);
	pg_qcall_forget(PG_Q_GETMBOXINFO);
	pg_qcall_forget(PG_Q_GETMBOXINFO); /* twice: nothing left to free */
}
END_TEST

/* Data that could not be kept turns the recorded answer into PvmNoMem
 * (what the program gets, and its replays too); errors stay as they are. */
START_TEST(test_nomem_answer)
{
	struct pg_qcall q = { .ev = { .op = PG_Q_TASKS }, .nomem = 1 };

	pg_qcall_record(&q, 0);
	ck_assert_int_eq(q.ev.result, PvmNoMem);
	ck_assert_uint_eq(q.rdlen, 0);
	q = (struct pg_qcall){ .ev = { .op = PG_Q_TASKS }, .nomem = 1 };
	pg_qcall_record(&q, PvmNoTask);
	ck_assert_int_eq(q.ev.result, PvmNoTask);
}
END_TEST

static Suite *answers_suite(void)
{
	Suite *s = suite_create("answers");
	TCase *tc = tcase_create("data");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_tid_as_ltid);
	tcase_add_test(tc, test_damaged);
	tcase_add_test(tc, test_array_kept);
	tcase_add_test(tc, test_nomem_answer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(answers_suite());
}
