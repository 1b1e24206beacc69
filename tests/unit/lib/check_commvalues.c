/*
 * check_commvalues.c: unit tests of the clock reads and seeds of the
 * communication log (version 8: PG_REC_TIME, PG_REC_SEED, coded in
 * logs/format/commlog-*.c): their round trip, the delta coding and its
 * size, failed calls and random bytes, that readers not asking for them
 * see the events alone, and refusals; and which libraries the program
 * needs (pangaea_lib/clock's test before a read joins the run).
 */
#include "pangaea-clock.h"
#include "pangaea-logs.h"
#include "checkutil.h"

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* A version VERSION header for task LTID. */
static void fill_header(struct pg_comm_header *h, uint32_t version)
{
	memset(h, 0, sizeof(*h));
	h->version = version;
	h->ltid = 1001;
	h->tid = 0x40001;
	h->parent_ltid = 1;
	h->mode = 1;
	snprintf(h->host, sizeof(h->host), "vm");
	snprintf(h->program, sizeof(h->program), "/usr/bin/prog");
	h->time_unit = 256;
}

/* A value of KIND and SRC with its first value V0. */
static struct pg_value value(int kind, int src, int64_t v0)
{
	struct pg_value v = { .kind = kind, .src = src };

	v.v[0] = v0;
	return v;
}

/* The size of the file PATH. */
static off_t file_size(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_size;
}

/* Reads the next record of R (values asked for) into EV, asserting one. */
static void next(struct pg_comm_reader *r, struct pg_event *ev)
{
	char err[512] = "";

	ck_assert_msg(pg_comm_next(r, ev, err, sizeof(err)) == 1, "%s", err);
}

/* Every source round trip, values, failures and bytes, between two
 * events; a reader that does not ask sees the two events alone. */
START_TEST(test_round_trip)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	struct pg_event ev, send = { .kind = PG_REC_SEND, .peer = 1, .tag = 3,
				     .msgid = 1, .len = 4, .t = 1000 };
	struct pg_value v[8];
	const unsigned char bytes[5] = { 1, 2, 0xfe, 0, 9 };
	char path[PATH_MAX], err[512] = "";

	fill_header(&h, PG_COMM_VERSION);
	cku_in_dir(path, sizeof(path), "v.comm");
	v[0] = value(PG_REC_TIME, PG_TIME_GETTIMEOFDAY, 1732700000123456LL);
	v[1] = value(PG_REC_TIME, PG_TIME_MONOTONIC, 5000000000LL);
	v[2] = value(PG_REC_TIME, PG_TIME_CLOCKID, 77);
	v[2].arg = -6; /* a CPU clock of another process */
	v[3] = value(PG_REC_TIME, PG_TIME_CLOCKID, 0);
	v[3].arg = 99;
	v[3].status = EINVAL;
	v[4] = value(PG_REC_TIME, PG_TIME_RUSAGE, 1234);
	for (int i = 1; i < 16; i++)
		v[4].v[i] = i * 1000 - 7;
	v[5] = value(PG_REC_SEED, PG_SEED_SEED48, 1);
	v[5].v[1] = 65535;
	v[5].v[2] = 0;
	v[6] = value(PG_REC_SEED, PG_SEED_GETRANDOM, 0);
	v[6].nblob = sizeof(bytes);
	v[6].blob = bytes;
	v[7] = value(PG_REC_SEED, PG_SEED_SRAND, 4294967295LL);
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_int_eq(pg_comm_append(&w, &send), 0);
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(pg_comm_append_value(&w, &v[i]), 0);
	send.msgid = 2;
	ck_assert_int_eq(pg_comm_append(&w, &send), 0);
	ck_assert_int_eq(pg_comm_close(&w), 0);

	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), 0);
	r.values = 1;
	next(&r, &ev);
	ck_assert_int_eq(ev.kind, PG_REC_SEND);
	for (int i = 0; i < 8; i++) {
		next(&r, &ev);
		ck_assert_int_eq(ev.kind, v[i].kind);
		ck_assert_int_eq(ev.op, v[i].src);
		ck_assert_int_eq(ev.result, v[i].status);
		if (v[i].src == PG_TIME_CLOCKID && v[i].kind == PG_REC_TIME)
			ck_assert_int_eq(ev.arg, v[i].arg);
		if (v[i].status)
			continue;
		for (int k = 0; k < ev.nvals; k++)
			ck_assert_msg(ev.vals[k] == v[i].v[k],
				      "value %d of record %d: %lld, want %lld",
				      k, i, (long long)ev.vals[k],
				      (long long)v[i].v[k]);
		ck_assert_uint_eq(ev.nblob, v[i].nblob);
		if (v[i].nblob)
			ck_assert_mem_eq(ev.blob, bytes, sizeof(bytes));
	}
	ck_assert_int_eq(v[4].v[15], 14993);
	next(&r, &ev);
	ck_assert_int_eq(ev.kind, PG_REC_SEND);
	ck_assert_uint_eq(ev.msgid, 2);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);

	/* a reader that does not ask: the events only, coded the same */
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), 0);
	next(&r, &ev);
	ck_assert_int_eq(ev.kind, PG_REC_SEND);
	next(&r, &ev);
	ck_assert_int_eq(ev.kind, PG_REC_SEND);
	ck_assert_uint_eq(ev.msgid, 2);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);
}
END_TEST

/*
 * The delta coding: a million clock reads a second (1 us apart, ns
 * clocks) take 3 bytes each; gettimeofday at 10 us 2; reads 1 ms apart
 * 4; each source its own deltas (interleaved sources stay small), a
 * clock going back is a small negative delta.
 */
START_TEST(test_delta_size)
{
	static const struct {
		int src;
		int64_t start, step;
		double bytes; /* per read, at most */
	} cases[] = {
		{ PG_TIME_MONOTONIC, 5000000000LL, 1000, 3 },
		{ PG_TIME_MONOTONIC, 5000000000LL, 40, 2 },
		{ PG_TIME_GETTIMEOFDAY, 1732700000000000LL, 10, 2 },
		{ PG_TIME_GETTIMEOFDAY, 1732700000000000LL, 1000, 3 },
		{ PG_TIME_TIME, 1732700000LL, 0, 2 },
		{ PG_TIME_REALTIME, 1732700000000000000LL, -50, 2 },
	};
	enum { N = 10000 };

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct pg_comm_header h;
		struct pg_comm_writer w;
		struct pg_comm_reader r;
		struct pg_event ev;
		char path[PATH_MAX], name[32], err[512] = "";
		off_t empty;

		fill_header(&h, PG_COMM_VERSION);
		snprintf(name, sizeof(name), "d%zu.comm", c);
		cku_in_dir(path, sizeof(path), name);
		ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)),
				 0);
		empty = (off_t)w.used;
		for (int i = 0; i < N; i++) {
			struct pg_value v = value(PG_REC_TIME, cases[c].src,
						  cases[c].start +
						  i * cases[c].step);
			/* another source between: its own deltas */
			struct pg_value o = value(PG_REC_TIME, PG_TIME_CLOCK,
						  3 * i);

			ck_assert_int_eq(pg_comm_append_value(&w, &v), 0);
			if (i % 100 == 0)
				ck_assert_int_eq(pg_comm_append_value(&w, &o), 0);
		}
		ck_assert_int_eq(pg_comm_close(&w), 0);
		/* the first read's absolute value, N/100 three-byte others */
		ck_assert_msg((double)(file_size(path) - empty - 10 - 3 * N / 100)
			      <= cases[c].bytes * N,
			      "case %zu: %lld bytes for %d reads", c,
			      (long long)(file_size(path) - empty), N);
		ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), 0);
		r.values = 1;
		for (int i = 0; i < N; i++) {
			next(&r, &ev);
			ck_assert_msg(ev.vals[0] == cases[c].start +
						    i * cases[c].step,
				      "case %zu read %d: %lld", c, i,
				      (long long)ev.vals[0]);
			if (i % 100 == 0) {
				next(&r, &ev);
				ck_assert_int_eq(ev.op, PG_TIME_CLOCK);
				ck_assert_int_eq(ev.vals[0], 3 * i);
			}
		}
		pg_comm_free(&r);
	}
}
END_TEST

/* Reads after the end record (a task that runs on after pvm_exit): a
 * reader that asks gets them, the others end at the end record. */
START_TEST(test_after_end)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	struct pg_event ev, end = { .kind = PG_REC_END, .how = PG_END_EXIT,
				    .t = 5000 };
	struct pg_value v = value(PG_REC_TIME, PG_TIME_GETTIMEOFDAY, 77);
	char path[PATH_MAX], err[512] = "";

	fill_header(&h, PG_COMM_VERSION);
	cku_in_dir(path, sizeof(path), "after.comm");
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), 0);
	ck_assert_int_eq(pg_comm_append_value(&w, &v), 0);
	ck_assert_int_eq(pg_comm_append(&w, &end), 0);
	v.v[0] = 99;
	ck_assert_int_eq(pg_comm_append_value(&w, &v), 0);
	ck_assert_int_eq(pg_comm_close(&w), 0);
	for (int values = 0; values < 2; values++) {
		ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), 0);
		r.values = values;
		if (values) {
			next(&r, &ev);
			ck_assert_int_eq(ev.vals[0], 77);
		}
		next(&r, &ev);
		ck_assert_int_eq(ev.kind, PG_REC_END);
		if (values) {
			next(&r, &ev);
			ck_assert_int_eq(ev.kind, PG_REC_TIME);
			ck_assert_int_eq(ev.vals[0], 99);
		}
		ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
		ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
		pg_comm_free(&r);
	}
}
END_TEST

/* Extremes: INT64_MIN after INT64_MAX (a wrapping delta) come back. */
START_TEST(test_extremes)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	struct pg_event ev;
	const int64_t x[] = { INT64_MAX, INT64_MIN, 0, -1, INT64_MAX };
	char path[PATH_MAX], err[512] = "";

	fill_header(&h, PG_COMM_VERSION);
	cku_in_dir(path, sizeof(path), "x.comm");
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), 0);
	for (int i = 0; i < 5; i++) {
		struct pg_value v = value(PG_REC_TIME, PG_TIME_TIMES, x[i]);

		v.v[4] = -x[i] / 2;
		ck_assert_int_eq(pg_comm_append_value(&w, &v), 0);
	}
	ck_assert_int_eq(pg_comm_close(&w), 0);
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), 0);
	r.values = 1;
	for (int i = 0; i < 5; i++) {
		next(&r, &ev);
		ck_assert_int_eq(ev.nvals, 5);
		ck_assert(ev.vals[0] == x[i]);
		ck_assert(ev.vals[4] == -x[i] / 2);
	}
	pg_comm_free(&r);
}
END_TEST

/* A writer of an older version, a source out of range: EINVAL. */
START_TEST(test_refused_by_writer)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	struct pg_value v = value(PG_REC_TIME, PG_TIME_RUSAGE + 1, 1);
	char path[PATH_MAX], err[512] = "";

	fill_header(&h, 7);
	cku_in_dir(path, sizeof(path), "v7.comm");
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), 0);
	v.src = PG_TIME_TIME;
	errno = 0;
	ck_assert_int_eq(pg_comm_append_value(&w, &v), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(pg_comm_close(&w), 0);
	fill_header(&h, PG_COMM_VERSION);
	cku_in_dir(path, sizeof(path), "v8.comm");
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), 0);
	v = value(PG_REC_SEED, PG_SEED_GETENTROPY + 1, 1);
	ck_assert_int_eq(pg_comm_append_value(&w, &v), -1);
	ck_assert_int_eq(errno, EINVAL);
	v = value(PG_REC_SEND, 0, 1);
	ck_assert_int_eq(pg_comm_append_value(&w, &v), -1);
	ck_assert_int_eq(pg_comm_close(&w), 0);
}
END_TEST

/* The reader: a value record in a version 7 log is an unknown kind; an
 * unknown source, a record cut off are said with the offset. */
START_TEST(test_refused_by_reader)
{
	static const struct {
		uint32_t version;
		unsigned char rec[4];
		size_t n;
		const char *says;
	} bad[] = {
		{ 7, { PG_REC_TIME, 2 }, 2, "unknown record kind 18" },
		{ PG_COMM_VERSION, { PG_REC_SEED | 7 << 5, 2 }, 2,
		  "corrupt: an unknown source in the seed record" },
		{ PG_COMM_VERSION, { PG_REC_TIME | 7 << 5, 0, 0, 0x80 }, 4,
		  "truncated: record at offset" },
		{ PG_COMM_VERSION, { PG_REC_TIME | 4 << 5, 0, 0x80, 0x40 }, 4,
		  "corrupt: an errno past 4095 in the time record" },
	};

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct pg_comm_header h;
		struct pg_comm_writer w;
		struct pg_comm_reader r;
		struct pg_event ev;
		char path[PATH_MAX], name[32], err[512] = "";
		FILE *f;

		fill_header(&h, bad[k].version);
		snprintf(name, sizeof(name), "b%zu.comm", k);
		cku_in_dir(path, sizeof(path), name);
		ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)),
				 0);
		ck_assert_int_eq(pg_comm_close(&w), 0);
		f = fopen(path, "ab");
		ck_assert_ptr_nonnull(f);
		fwrite(bad[k].rec, 1, bad[k].n, f);
		fclose(f);
		ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), 0);
		r.values = k % 2;
		ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), -1);
		ck_assert_msg(strstr(err, bad[k].says), "case %zu: %s", k, err);
		pg_comm_free(&r);
	}
}
END_TEST

/* The words of the dump and of a divergence report. */
START_TEST(test_describe)
{
	struct pg_event ev = { .kind = PG_REC_TIME, .op = PG_TIME_RUSAGE,
			       .arg = 0 };
	int64_t vals[2] = { 15, -2 };
	const unsigned char b[3] = { 0xab, 0, 1 };
	char d[200];

	ev.nvals = 2;
	ev.vals = vals;
	pg_value_describe(&ev, d, sizeof(d));
	ck_assert_str_eq(d, "getrusage(0) = 15,-2");
	ev.result = EINVAL;
	pg_value_describe(&ev, d, sizeof(d));
	ck_assert_str_eq(d, "getrusage(0) failed: errno 22");
	ev = (struct pg_event){ .kind = PG_REC_SEED, .op = PG_SEED_GETRANDOM,
				.nblob = 3, .blob = b };
	pg_value_describe(&ev, d, sizeof(d));
	ck_assert_str_eq(d, "getrandom = 3 bytes ab0001");
	ck_assert_str_eq(pg_rec_kind_name(PG_REC_TIME), "time");
	ck_assert_str_eq(pg_value_src_name(PG_REC_TIME, PG_TIME_MONOTONIC),
			 "clock_gettime(CLOCK_MONOTONIC)");
	ck_assert_str_eq(pg_value_src_name(PG_REC_SEED, 9), "?");
}
END_TEST

/* This suite needs libc.so.6 itself (a DT_NEEDED entry), not libfoo; a
 * prefix is compared as such. */
START_TEST(test_main_needs)
{
	ck_assert_int_eq(pg_clk_main_needs("libc."), 1);
	ck_assert_int_eq(pg_clk_main_needs("libc.so.6"), 1);
	ck_assert_int_eq(pg_clk_main_needs("libc.so.7"), 0);
	ck_assert_int_eq(pg_clk_main_needs("libfoo."), 0);
}
END_TEST

static Suite *commvalues_suite(void)
{
	Suite *s = suite_create("commvalues");
	TCase *tc = tcase_create("values");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_delta_size);
	tcase_add_test(tc, test_extremes);
	tcase_add_test(tc, test_after_end);
	tcase_add_test(tc, test_refused_by_writer);
	tcase_add_test(tc, test_refused_by_reader);
	tcase_add_test(tc, test_describe);
	tcase_add_test(tc, test_main_needs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(commvalues_suite());
}
