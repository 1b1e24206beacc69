/*
 * check_clocksync.c: the clock samples of the communication log (the
 * record of version 5, logs/format/commlog-read.c) and the per-host fit of
 * logs/analysis/clocksync.c, on hand-made samples of known offset and drift.
 */
#include "pangaea-analysis.h"
#include "checkutil.h"

#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S 1000000000LL /* ns in a second */
#define WALL0 1700000000000000000ULL

static uint32_t log_version = PG_COMM_VERSION; /* create_log writes it */

/* Creates cku_dir/task-LTID.comm of HOST (started at WALL, MONO) into W. */
static void create_log(struct pg_comm_writer *w, int ltid, const char *host,
		       uint64_t wall, uint64_t mono)
{
	struct pg_comm_header h = { .version = log_version, .ltid = ltid,
				    .tid = 0x40000 + ltid, .mode = 1,
				    .start_wall_ns = wall,
				    .start_mono_ns = mono };
	char path[PATH_MAX], err[256];

	snprintf(h.host, sizeof(h.host), "%s", host);
	snprintf(h.program, sizeof(h.program), "/bin/prog");
	snprintf(path, sizeof(path), "%s/task-%d.comm", cku_dir, ltid);
	unlink(path); /* logs are created O_EXCL */
	ck_assert_msg(pg_comm_create(w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
}

/* Opens cku_dir/task-LTID.comm into R; 0 or -1 with ERR. */
static int open_log(struct pg_comm_reader *r, int ltid, char *err, size_t n)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/task-%d.comm", cku_dir, ltid);
	return pg_comm_open(r, path, err, n);
}

/* Clock records between events: the events read back exactly as
 * written (times included), the samples land in the reader's list. */
START_TEST(test_record_round_trip)
{
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	struct pg_event ev = { .kind = PG_REC_SEND, .peer = 2, .tag = 7,
			       .msgid = 1, .len = 4, .t = 1000, .dur = 50 };
	struct pg_clock_sample a = { 500, -2 * S - 123, 80000 },
			       b = { 900000, 2 * S + 456, 70000 };
	char err[256];

	create_log(&w, 1, "h", WALL0, 12345);
	ck_assert_int_eq(pg_comm_append_calib(&w, 321), 0);
	ck_assert_int_eq(pg_comm_append_clock(&w, &a), 0);
	ck_assert_int_eq(pg_comm_append(&w, &ev), 0);
	ck_assert_int_eq(pg_comm_append_clock(&w, &b), 0); /* t < last */
	ev.kind = PG_REC_RECV;
	ev.t = 2000;
	ck_assert_int_eq(pg_comm_append(&w, &ev), 0);
	ck_assert_int_eq(pg_comm_append_clock(&w, &a), 0); /* trailing */
	ck_assert_int_eq(pg_comm_close(&w), 0);

	ck_assert_msg(open_log(&r, 1, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 1);
	ck_assert_int_eq(ev.kind, PG_REC_SEND);
	ck_assert_uint_eq(ev.t, 1000);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 1);
	ck_assert_int_eq(ev.kind, PG_REC_RECV);
	ck_assert_uint_eq(ev.t, 2000); /* the sample did not move it */
	ck_assert_uint_eq(ev.dur, 50);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	ck_assert_int_eq(r.nclock, 3);
	ck_assert_uint_eq(r.calib_ns, 321);
	ck_assert_uint_eq(r.clock[0].t, 500);
	ck_assert_int_eq(r.clock[0].offset, -2 * S - 123);
	ck_assert_uint_eq(r.clock[0].rtt, 80000);
	ck_assert_uint_eq(r.clock[1].t, 900000);
	ck_assert_int_eq(r.clock[1].offset, 2 * S + 456);
	ck_assert_uint_eq(r.clock[2].rtt, 80000);
	pg_comm_free(&r);
}
END_TEST

/* A version 4 log is still read; a clock record in one is corrupt. */
START_TEST(test_old_versions)
{
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	struct pg_event ev = { .kind = PG_REC_SEND, .peer = 2, .t = 10 };
	struct pg_clock_sample a = { 5, 1, 1 };
	char err[256];

	log_version = 4;
	create_log(&w, 1, "h", WALL0, 12345);
	ck_assert_int_eq(pg_comm_append(&w, &ev), 0);
	ck_assert_int_eq(pg_comm_close(&w), 0);
	ck_assert_msg(open_log(&r, 1, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 1);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);

	create_log(&w, 2, "h", WALL0, 12345);
	ck_assert_int_eq(pg_comm_append_clock(&w, &a), 0);
	ck_assert_int_eq(pg_comm_close(&w), 0);
	log_version = PG_COMM_VERSION;
	ck_assert_msg(open_log(&r, 2, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "a clock record in a version 3 or 4 log"),
		      "%s", err);
	pg_comm_free(&r);
}
END_TEST

/* A cut-off clock record is said to be cut off. */
START_TEST(test_cut_off)
{
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	struct pg_event ev;
	struct pg_clock_sample a = { 5, 1 * S, 100000 };
	char err[256], path[PATH_MAX];

	create_log(&w, 1, "h", WALL0, 12345);
	ck_assert_int_eq(pg_comm_append_clock(&w, &a), 0);
	ck_assert_int_eq(pg_comm_close(&w), 0);
	snprintf(path, sizeof(path), "%s/task-1.comm", cku_dir);
	ck_assert_int_eq(truncate(path, 76), 0); /* inside the record */
	ck_assert_msg(open_log(&r, 1, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "truncated"), "%s", err);
	pg_comm_free(&r);
}
END_TEST

/* The true offset of the test host at local time L: 2 s at WALL0,
 * drifting -100 ppm (its clock runs 100 ppm fast). */
static int64_t truth(uint64_t l)
{
	return 2 * S - (int64_t)(1e-4 * (double)(int64_t)(l - WALL0));
}

/* Offset and drift of a host sampled every 5 s (each sample off by up to
 * half its round trip, plus worse samples of the same moment that must
 * lose): the map is within half the smallest round trip of the truth,
 * between samples and 10 s past the ends; the drift is found. */
START_TEST(test_fit_linear)
{
	struct pg_clocksync cs = { 0 };
	const struct pg_clock_host *h;
	const uint64_t rtt = 100000; /* 100 us */
	const int64_t err[] = { 50000, -50000, 20000, -40000, 0, 30000, -10000 };
	double bound = (double)rtt / 2 + 1;

	for (int i = 0; i < 7; i++) {
		uint64_t l = WALL0 + (uint64_t)i * 5 * S;

		ck_assert_int_eq(pg_clocksync_add(&cs, "skewed", l,
						  truth(l) + err[i], rtt), 0);
		/* a slow answer 0.1 s later: its offset is wrong by 3 ms */
		ck_assert_int_eq(pg_clocksync_add(&cs, "skewed", l + S / 10,
						  truth(l) + 3000000,
						  6000000), 0);
	}
	ck_assert_int_eq(pg_clocksync_add(&cs, "ref", WALL0, 0, 50000), 0);
	pg_clocksync_fit(&cs);
	h = pg_clocksync_host(&cs, "skewed");
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(h->n, 7);
	ck_assert_uint_eq(h->min_rtt, rtt);
	ck_assert_msg(h->drift > -1.05e-4 && h->drift < -0.95e-4, "drift %g",
		      h->drift);
	for (int64_t l = -10 * S; l <= 40 * S; l += S / 3) {
		uint64_t local = WALL0 + (uint64_t)l;
		double e = (double)(int64_t)(pg_clocksync_map(h, local) -
				    (local + (uint64_t)truth(local)));

		/* past the ends the drift's error grows with the distance */
		if (l < 0 || l > 30 * S)
			bound = (double)rtt / 2 + 1 + 2e-6 * (double)llabs(l);
		ck_assert_msg(e <= bound && e >= -bound,
			      "at %+.3f s: error %.0f ns", (double)l / S, e);
	}
	h = pg_clocksync_host(&cs, "ref");
	ck_assert_int_eq(pg_clocksync_offset(h, WALL0 + 100 * S), 0);
	ck_assert_ptr_null(pg_clocksync_host(&cs, "nowhere"));
	ck_assert_uint_eq(pg_clocksync_map(NULL, 42), 42);
	pg_clocksync_free(&cs);
}
END_TEST

/* Piecewise: a host whose offset changes its slope half-way (a clock
 * stepped in rate) is followed sample to sample, not by one line. */
START_TEST(test_fit_piecewise)
{
	struct pg_clocksync cs = { 0 };
	const struct pg_clock_host *h;
	/* 0 s: 0; 10 s: +1 ms; 20 s: +1 ms (flat after 10 s) */
	pg_clocksync_add(&cs, "p", WALL0 + 20 * S, 1000000, 10000);
	pg_clocksync_add(&cs, "p", WALL0, 0, 10000);
	pg_clocksync_add(&cs, "p", WALL0 + 10 * S, 1000000, 10000);
	pg_clocksync_fit(&cs);
	h = pg_clocksync_host(&cs, "p");
	ck_assert_int_eq(pg_clocksync_offset(h, WALL0 + 5 * S), 500000);
	ck_assert_int_eq(pg_clocksync_offset(h, WALL0 + 15 * S), 1000000);
	ck_assert_int_eq(pg_clocksync_offset(h, WALL0 + 10 * S), 1000000);
	/* past the end: the least-squares drift (0.05 ms/s) */
	ck_assert_int_eq(pg_clocksync_offset(h, WALL0 + 30 * S), 1500000);
	pg_clocksync_free(&cs);
}
END_TEST

/* The samples of a run's logs, two hosts: task 1 on "a" at the reference,
 * tasks 1001 and 1002 on "b", 2 s behind, 1002 started 1 s later; each
 * local time is the importer's (start_mono + t + the host's smallest
 * start_wall - start_mono, here 1002's, whose clocks were read 500 ns
 * closer together). */
START_TEST(test_load)
{
	struct pg_comm_writer w;
	struct pg_clocksync cs = { 0 };
	const struct pg_clock_host *h;
	struct pg_clock_sample a0 = { 1000, 20000, 40000 },
			       b0 = { 2000, 2 * S, 90000 },
			       b1 = { 3 * S, 2 * S, 80000 },
			       c0 = { 1000, 2 * S + 900, 200000 };
	char err[256];

	create_log(&w, 1, "a", WALL0, 12345);
	ck_assert_int_eq(pg_comm_append_clock(&w, &a0), 0);
	ck_assert_int_eq(pg_comm_close(&w), 0);
	create_log(&w, 1001, "b", WALL0 - 2 * S + 500, 5000);
	ck_assert_int_eq(pg_comm_append_clock(&w, &b0), 0);
	ck_assert_int_eq(pg_comm_append_clock(&w, &b1), 0);
	ck_assert_int_eq(pg_comm_close(&w), 0);
	create_log(&w, 1002, "b", WALL0 - 1 * S, 5000 + S);
	ck_assert_int_eq(pg_comm_append_clock(&w, &c0), 0);
	ck_assert_int_eq(pg_comm_close(&w), 0);

	ck_assert_msg(pg_clocksync_load(&cs, cku_dir, err, sizeof(err)) == 0,
		      "%s", err);
	pg_clocksync_fit(&cs);
	ck_assert_int_eq(cs.nhosts, 2);
	h = pg_clocksync_host(&cs, "a");
	ck_assert_int_eq(h->n, 1);
	ck_assert_int_eq(pg_clocksync_offset(h, 0), 20000);
	ck_assert_int_eq(h->base, (int64_t)(WALL0 - 12345));
	h = pg_clocksync_host(&cs, "b");
	ck_assert_int_eq(h->n, 3);
	ck_assert_int_eq(h->base, (int64_t)(WALL0 - 2 * S - 5000));
	ck_assert_uint_eq(h->pt[0].local, WALL0 - 2 * S + 2000);
	ck_assert_int_eq(h->pt[0].offset, 2 * S + 500);
	ck_assert_uint_eq(h->pt[1].local, WALL0 - S + 1000); /* task 1002's */
	ck_assert_int_eq(h->pt[1].offset, 2 * S + 900);
	ck_assert_uint_eq(h->min_rtt, 80000);
	ck_assert_int_eq(pg_clocksync_offset(h, WALL0 + S + 500), 2 * S + 500);
	pg_clocksync_free(&cs);
}
END_TEST

/* An unreadable log in the folder is an error naming it. */
START_TEST(test_load_bad)
{
	struct pg_clocksync cs = { 0 };
	char err[256], path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/task-3.comm", cku_dir);
	cku_spit(path, "garbage", 7);
	ck_assert_int_eq(pg_clocksync_load(&cs, cku_dir, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "task-3.comm"), "%s", err);
	pg_clocksync_free(&cs);
}
END_TEST

static Suite *clocksync_suite(void)
{
	Suite *s = suite_create("clocksync");
	TCase *tc = tcase_create("core");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_record_round_trip);
	tcase_add_test(tc, test_old_versions);
	tcase_add_test(tc, test_cut_off);
	tcase_add_test(tc, test_fit_linear);
	tcase_add_test(tc, test_fit_piecewise);
	tcase_add_test(tc, test_load);
	tcase_add_test(tc, test_load_bad);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(clocksync_suite());
}
