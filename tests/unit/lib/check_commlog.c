/*
 * check_commlog.c: unit tests of the binary communication log
 * (logs/format/commlog-*.c): writer, reader, crash safety, refusals and size.
 */
#include "pangaea-internal.h" /* pangaea-logs.h, and log.c for the crash path */
#include "checkutil.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Bytes before the host string: magic, version, header length, 4 x i32, 2 x u64. */
#define FIXED_HEADER 48

static off_t file_size(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_size;
}

/* Overwrites the byte at OFF of PATH with VAL. */
static void patch_byte(const char *path, off_t off, unsigned char val)
{
	int fd = open(path, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, &val, 1, off), 1);
	close(fd);
}

static void fill_header(struct pg_comm_header *h, int ltid)
{
	memset(h, 0, sizeof(*h));
	h->version = PG_COMM_VERSION;
	h->ltid = ltid;
	h->tid = 0x40000 + ltid;
	h->parent_ltid = ltid / 1000;
	h->mode = 1;
	h->start_wall_ns = 1700000000123456789ULL;
	h->start_mono_ns = 987654321012345ULL;
	snprintf(h->host, sizeof(h->host), "vm");
	snprintf(h->program, sizeof(h->program), "/usr/bin/prog");
}

/* Length of the encoded header of H (the file format: u16-prefixed strings). */
static size_t header_len(const struct pg_comm_header *h)
{
	return FIXED_HEADER + 2 + strlen(h->host) + 2 + strlen(h->program) +
	       4 + 2 + strlen(h->select) +
	       (h->version == 0 || h->version >= 7 ? 4 : 0); /* time unit */
}

/* Writes PATH (new) with header H and the N events EV; fails the test
 * if it cannot. */
static void write_log(const char *path, struct pg_comm_header *h,
		      const struct pg_event *ev, size_t n)
{
	struct pg_comm_writer w;
	char err[512] = "";

	ck_assert_msg(pg_comm_create(&w, path, h, err, sizeof(err)) == 0, "%s",
		      err);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(pg_comm_append(&w, &ev[i]), 0);
	ck_assert_int_eq(pg_comm_close(&w), 0);
}

/*
 * Asserts that GOT is WANT (index I in messages); times included.  Plain
 * comparisons first: a passing ck_assert costs a message to the runner,
 * too slow for the 250000-event test.
 */
static void assert_event(const struct pg_event *got, const struct pg_event *want,
			 int i)
{
	if (got->kind == want->kind && got->peer == want->peer &&
	    got->tag == want->tag && got->msgid == want->msgid &&
	    got->len == want->len && got->t == want->t &&
	    got->dur == want->dur && got->how == want->how &&
	    got->value == want->value && got->count == want->count &&
	    got->filter == want->filter)
		return;
	ck_abort_msg("event %d: got kind=%d peer=%d tag=%d msgid=%u len=%u "
		     "t=%llu dur=%llu how=%d value=%d count=%u filter=%d, want "
		     "kind=%d peer=%d tag=%d msgid=%u len=%u t=%llu dur=%llu "
		     "how=%d value=%d count=%u filter=%d", i, got->kind,
		     got->peer, got->tag, got->msgid, got->len,
		     (unsigned long long)got->t, (unsigned long long)got->dur,
		     got->how, got->value, got->count, got->filter, want->kind,
		     want->peer, want->tag, want->msgid, want->len,
		     (unsigned long long)want->t,
		     (unsigned long long)want->dur, want->how, want->value,
		     want->count, want->filter);
}

/* Event I of a deterministic stream of point-to-point events. */
static struct pg_event stream_event(int i)
{
	static const int kinds[] = { PG_REC_SEND, PG_REC_RECV, PG_REC_NRECV,
				     PG_REC_TRECV, PG_REC_PROBE, PG_REC_SPAWN };
	struct pg_event e = { 0 };

	e.kind = kinds[i % 6];
	e.peer = (i % 7) - 1;
	e.tag = (i % 11) * 37 - 100;
	e.msgid = (uint32_t)i * 2654435761u;
	e.len = (uint32_t)(i * 13) % 100000;
	e.t = (uint64_t)i * 1234567 + (uint64_t)(i % 3);
	e.dur = (uint64_t)(i % 5) * 999999;
	if (e.kind != PG_REC_SEND && e.kind != PG_REC_SPAWN)
		e.filter = (i / 6) % 4; /* every PG_FILTER_ANYSRC/ANYTAG mix */
	return e;
}

/* Reads PATH and asserts it holds exactly events WANT[0..n). */
static void assert_log_holds(const char *path, const struct pg_event *want,
			     int n)
{
	struct pg_comm_reader r;
	struct pg_event ev;
	char err[512] = "";
	int rc;

	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	for (int i = 0; i < n; i++) {
		rc = pg_comm_next(&r, &ev, err, sizeof(err));
		if (rc != 1)
			ck_abort_msg("event %d of %d: rc %d (%s)", i, n, rc, err);
		assert_event(&ev, &want[i], i);
	}
	rc = pg_comm_next(&r, &ev, err, sizeof(err));
	ck_assert_msg(rc == 0, "after %d events: rc %d (%s)", n, rc, err);
	pg_comm_free(&r);
}

/* Header fields, including 62-bit times and a negative parent, round-trip. */
START_TEST(test_header_round_trip)
{
	struct pg_comm_header h, *g;
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	struct pg_event ev;
	char path[PATH_MAX], err[512] = "";

	fill_header(&h, 1002);
	h.tid = 0x7fff1234;
	h.parent_ltid = -1;
	h.mode = 2;
	h.start_wall_ns = 0x3edcba9876543210ULL;
	h.start_mono_ns = 0x0123456789abcdefULL;
	snprintf(h.host, sizeof(h.host), "node-17.cluster.example.org");
	snprintf(h.program, sizeof(h.program), "/home/u/pvm3/bin/LINUX64/sor");
	cku_in_dir(path, sizeof(path), "task-1002.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	pg_comm_close(&w);
	ck_assert_int_eq(file_size(path), (off_t)header_len(&h));

	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	g = &r.hdr;
	ck_assert_uint_eq(g->version, PG_COMM_VERSION);
	ck_assert_int_eq(g->ltid, 1002);
	ck_assert_int_eq(g->tid, 0x7fff1234);
	ck_assert_int_eq(g->parent_ltid, -1);
	ck_assert_uint_eq(g->mode, 2);
	ck_assert_uint_eq(g->start_wall_ns, 0x3edcba9876543210ULL);
	ck_assert_uint_eq(g->start_mono_ns, 0x0123456789abcdefULL);
	ck_assert_str_eq(g->host, "node-17.cluster.example.org");
	ck_assert_str_eq(g->program, "/home/u/pvm3/bin/LINUX64/sor");
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);
}
END_TEST

/* Empty and longest host and program names round-trip. */
START_TEST(test_header_string_limits)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	char path[PATH_MAX], err[512] = "";

	fill_header(&h, 3);
	h.host[0] = '\0';
	h.program[0] = '\0';
	cku_in_dir(path, sizeof(path), "empty.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	pg_comm_close(&w);
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.hdr.host, "");
	ck_assert_str_eq(r.hdr.program, "");
	ck_assert_int_eq(r.hdr.ltid, 3);
	pg_comm_free(&r);

	memset(h.host, 'h', PG_HOST_MAX - 1);
	h.host[PG_HOST_MAX - 1] = '\0';
	memset(h.program, 'p', PG_PATH_MAX - 1);
	h.program[PG_PATH_MAX - 1] = '\0';
	cku_in_dir(path, sizeof(path), "long.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	pg_comm_close(&w);
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.hdr.host, h.host);
	ck_assert_str_eq(r.hdr.program, h.program);
	pg_comm_free(&r);
}
END_TEST

/* One event of every kind, with edge values, reads back field for field. */
START_TEST(test_all_kinds_round_trip)
{
	const struct pg_event want[] = {
		{ .kind = PG_REC_SEND, .peer = -1, .tag = -5, .msgid = 1,
		  .len = 100, .t = 1000, .dur = 50 },
		{ .kind = PG_REC_RECV, .peer = 2, .tag = 7, .msgid = 3,
		  .len = 4096, .t = 5000, .dur = 123456789 },
		{ .kind = PG_REC_NRECV, .peer = 0, .tag = 0,
		  .msgid = UINT32_MAX, .len = 0, .t = 5000, .dur = 0 },
		{ .kind = PG_REC_TRECV, .peer = 2000001, .tag = INT_MAX,
		  .msgid = 17, .len = UINT32_MAX, .t = (uint64_t)1 << 40,
		  .dur = PG_TIME_MAX - ((uint64_t)1 << 40) },
		{ .kind = PG_REC_PROBE, .peer = INT_MIN, .tag = INT_MIN,
		  .msgid = 0, .len = 1, .t = ((uint64_t)1 << 40) + 1, .dur = 1 },
		{ .kind = PG_REC_SPAWN, .peer = 0, .tag = 0, .msgid = 1,
		  .len = 3, .t = ((uint64_t)1 << 40) + 999, .dur = 4000000 },
		{ .kind = PG_REC_POLLFAIL, .count = 7,
		  .t = ((uint64_t)1 << 40) + 5000 },
		{ .kind = PG_REC_END, .how = 3, .value = 11,
		  .t = ((uint64_t)1 << 41) },
	};
	const int n = (int)(sizeof(want) / sizeof(want[0]));
	struct pg_comm_header h;
	struct pg_comm_reader r;
	struct pg_event ev;
	char path[PATH_MAX], err[512] = "";

	fill_header(&h, 1);
	cku_in_dir(path, sizeof(path), "task-1.comm");
	write_log(path, &h, want, (size_t)n);

	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	for (int i = 0; i < n; i++) {
		ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1,
			      "event %d: %s", i, err);
		assert_event(&ev, &want[i], i);
	}
	/* the end record ends the log, and it stays ended */
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);
}
END_TEST

/* End records keep negative values and other hows. */
START_TEST(test_end_values)
{
	static const int how[] = { 1, 2, 3, 4 };
	static const int value[] = { 0, -1, 9, INT_MIN };

	for (int k = 0; k < 4; k++) {
		struct pg_event e = { .kind = PG_REC_END, .how = how[k],
				      .value = value[k], .t = 77 };
		struct pg_comm_header h;
		struct pg_comm_writer w;
		char path[PATH_MAX], name[64], err[512] = "";

		fill_header(&h, 5);
		snprintf(name, sizeof(name), "end-%d.comm", k);
		cku_in_dir(path, sizeof(path), name);
		ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0,
			      "%s", err);
		ck_assert_int_eq(pg_comm_append(&w, &e), 0);
		pg_comm_close(&w);
		assert_log_holds(path, &e, 1);
	}
}
END_TEST

/* Group, mcast and bcast records (version 2) round-trip with their strings
 * and destination lists, and kill records (version 3) with their victim;
 * header flags and selection come back. */
START_TEST(test_collective_round_trip)
{
	int d1[] = { 1001, 1002, 1003 }, d2[300];
	struct pg_event in[] = {
		{ .kind = PG_REC_GROUP, .op = PG_GROUP_JOIN, .arg = 0,
		  .result = 2, .group = "ring", .t = 10, .dur = 5 },
		{ .kind = PG_REC_MCAST, .tag = 7, .msgid = 3, .len = 40,
		  .ndest = 3, .dests = d1, .t = 20, .dur = 6 },
		{ .kind = PG_REC_BCAST, .tag = -1, .msgid = 4, .len = 0,
		  .ndest = 300, .dests = d2, .group = "all the workers",
		  .t = 30, .dur = 7 },
		{ .kind = PG_REC_GROUP, .op = PG_GROUP_GETTID, .arg = 5,
		  .result = -19, .group = "", .t = 40, .dur = 8 },
		{ .kind = PG_REC_GROUP, .op = PG_GROUP_BCAST, .arg = 43,
		  .result = -21, .group = "solo", .t = 45, .dur = 1 },
		{ .kind = PG_REC_PRECV, .peer = PG_PEER_SYSTEM, .tag = 9,
		  .len = 12, .t = 50, .dur = 9 },
		{ .kind = PG_REC_KILL, .peer = 1002, .t = 60, .dur = 10 },
		{ .kind = PG_REC_KILL, .peer = PG_PEER_FOREIGN, .t = 70 },
	};
	struct pg_comm_header h;
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	struct pg_event ev;
	char path[PATH_MAX], err[512] = "";

	for (int i = 0; i < 300; i++)
		d2[i] = i * 1000 + 1;
	fill_header(&h, 1);
	h.flags = PG_COMM_LOOSE_POLLS;
	snprintf(h.select, sizeof(h.select), "tag=5,7");
	cku_in_dir(path, sizeof(path), "coll.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		ck_assert_int_eq(pg_comm_append(&w, &in[i]), 0);
	pg_comm_close(&w);
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(r.hdr.flags, PG_COMM_LOOSE_POLLS);
	ck_assert_str_eq(r.hdr.select, "tag=5,7");
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 1);
		ck_assert_int_eq(ev.kind, in[i].kind);
		ck_assert_int_eq(ev.op, in[i].op);
		ck_assert_int_eq(ev.arg, in[i].arg);
		ck_assert_int_eq(ev.result, in[i].result);
		ck_assert_int_eq(ev.peer, in[i].peer);
		ck_assert_int_eq(ev.tag, in[i].tag);
		ck_assert_uint_eq(ev.msgid, in[i].msgid);
		ck_assert_uint_eq(ev.len, in[i].len);
		ck_assert_uint_eq(ev.t, in[i].t);
		ck_assert_uint_eq(ev.dur, in[i].dur);
		ck_assert_str_eq(ev.group, in[i].group);
		ck_assert_int_eq(ev.ndest, in[i].ndest);
		for (int k = 0; k < ev.ndest; k++)
			ck_assert_int_eq(ev.dests[k], in[i].dests[k]);
	}
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);
}
END_TEST

/* The exact bytes of the format (docs/FORMATS.md): a change needs a version bump. */
START_TEST(test_byte_layout)
{
	struct pg_event e = { .kind = PG_REC_SEND, .peer = -1, .tag = -2,
			      .msgid = 5, .len = 6, .t = 7, .dur = 8 };
	struct pg_event p = { .kind = PG_REC_POLLFAIL, .count = 3, .t = 9 };
	struct pg_event end = { .kind = PG_REC_END, .how = 2, .value = -3,
				.t = 12 };
	static const unsigned char recs[] = {
		1, 0, 1, 3, 8, 12, 7, 8, /* send: new peer (0, zigzag -1),
					    zigzag tag, msgid 5 as 4 past
					    the 1 expected (zigzag), len 6
					    as 6 past 0 (zigzag), dt, dur */
		8, 3, 2,             /* pollfail: count, dt */
		6, 2, 5, 3           /* end: how, zigzag value, dt */
	};
	struct pg_comm_header h;
	struct pg_comm_writer w;
	unsigned char buf[256];
	char path[PATH_MAX], err[512] = "";
	size_t hl;
	FILE *f;

	fill_header(&h, 7);
	snprintf(h.host, sizeof(h.host), "ab");
	snprintf(h.program, sizeof(h.program), "xyz");
	hl = header_len(&h);
	cku_in_dir(path, sizeof(path), "layout.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_int_eq(pg_comm_append(&w, &e), 0);
	ck_assert_int_eq(pg_comm_append(&w, &p), 0);
	ck_assert_int_eq(pg_comm_append(&w, &end), 0);
	pg_comm_close(&w);
	ck_assert_int_eq(file_size(path), (off_t)(hl + sizeof(recs)));

	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(buf, 1, hl + sizeof(recs), f), hl + sizeof(recs));
	fclose(f);
	ck_assert_mem_eq(buf, PG_COMM_MAGIC, 8);
	ck_assert_uint_eq(buf[8], PG_COMM_VERSION); /* u32 LE version */
	ck_assert_uint_eq(buf[9] | buf[10] | buf[11], 0);
	ck_assert_uint_eq(buf[12], hl);             /* u32 LE header length */
	ck_assert_uint_eq(buf[13] | buf[14] | buf[15], 0);
	ck_assert_uint_eq(buf[16], 7);              /* i32 LE ltid */
	ck_assert_uint_eq(buf[FIXED_HEADER], 2);    /* u16 host length */
	ck_assert_uint_eq(buf[FIXED_HEADER + 1], 0);
	ck_assert_mem_eq(buf + FIXED_HEADER + 2, "ab", 2);
	ck_assert_uint_eq(buf[FIXED_HEADER + 4], 3);
	ck_assert_mem_eq(buf + FIXED_HEADER + 6, "xyz", 3);
	ck_assert_uint_eq(buf[hl - 4], 1);          /* u32 LE time unit */
	ck_assert_uint_eq(buf[hl - 3] | buf[hl - 2] | buf[hl - 1], 0);
	ck_assert_mem_eq(buf + hl, recs, sizeof(recs));
}
END_TEST

/* Version 7's coding: times in units of the header's unit (rounded
 * down, the end too), a peer's index once it has one, a length as the
 * distance from the peer's last, and the id a message was expected to
 * have left out (kind bit 7), else its distance from it: a send's the
 * last send's + 1, a receive's the last one's from that peer + the step
 * between its last two. */
START_TEST(test_v7_coding)
{
	static int dests[] = { 1002, 1001 };
	static const struct pg_event in[] = {
		{ .kind = PG_REC_SEND, .peer = 1001, .tag = 5, .msgid = 1,
		  .len = 44, .t = 1000, .dur = 300 },
		{ .kind = PG_REC_RECV, .peer = 1001, .tag = 5, .msgid = 1,
		  .len = 44, .t = 2000, .dur = 100 },
		{ .kind = PG_REC_PROBE, .peer = 1001, .tag = 5, .msgid = 2,
		  .len = 44, .t = 2100, .dur = 0 },
		{ .kind = PG_REC_NRECV, .peer = 1001, .tag = 5, .msgid = 2,
		  .len = 44, .t = 2400, .dur = 0 },
		{ .kind = PG_REC_SEND, .peer = 1001, .tag = 5, .msgid = 2,
		  .len = 44, .t = 2400, .dur = 10 },
		{ .kind = PG_REC_MCAST, .tag = 6, .msgid = 3, .len = 44,
		  .ndest = 2, .dests = dests, .t = 2600 },
		{ .kind = PG_REC_RECV, .peer = 1002, .tag = 5, .msgid = 7,
		  .len = 44, .t = 3000 },
		{ .kind = PG_REC_SEND, .peer = 1002, .tag = 5, .msgid = 9,
		  .len = 44, .t = 3000 },
		{ .kind = PG_REC_RECV, .peer = 1002, .tag = 5, .msgid = 14,
		  .len = 44, .t = 3000 },
		{ .kind = PG_REC_MCAST, .tag = 6, .msgid = 10, .len = 44,
		  .ndest = 2, .dests = dests, .t = 3000 },
		{ .kind = PG_REC_BCAST, .group = "g", .tag = 6, .msgid = 11,
		  .len = 44, .ndest = 2, .dests = dests, .t = 3000 },
		{ .kind = PG_REC_BCAST, .group = "g", .tag = 6, .msgid = 12,
		  .len = 44, .ndest = 1, .dests = dests + 1, .t = 3000 },
	};
	static const unsigned char recs[] = {
		0x81, 0, 0xd2, 0x0f, 10, 88, 3, 2, /* new peer 1001, len 44
						      from 0, t 3 */
		0x82, 1, 10, 0, 4, 1,    /* peer 1, id 1 expected, len same */
		0x87, 1, 10, 0, 1, 0,    /* probe: 2 expected, kept */
		0x83, 1, 10, 0, 1, 0,    /* 2 expected again */
		0x81, 1, 10, 0, 0, 0,    /* send 2 */
		0x89, 12, 44, 1, 0, 2, 0, 0xd4, 0x0f, 1, /* mcast 3: new
					    peer 1002, then index 1 */
		0x02, 2, 10, 12, 88, 1, 0, /* 7: 1 expected, 6 more */
		0x01, 2, 10, 10, 0, 0, 0,  /* 9: 4 expected, 5 more */
		0x82, 2, 10, 0, 0, 0,    /* 14: 7 + the step 7, expected */
		0xc9, 12, 44, 0, 0,      /* mcast 10 to the same (bit 6) */
		0xca, 1, 'g', 12, 44, 0, 0, /* bcast 11 of g, the same */
		0xaa, 12, 44, 0, 0, 1, 1, /* bcast 12 of g again (bit 5) */
	};
	struct pg_comm_header h;
	struct pg_comm_reader r;
	struct pg_event ev;
	unsigned char buf[256];
	char path[PATH_MAX], err[512] = "";
	size_t hl, n = sizeof(in) / sizeof(in[0]);
	FILE *f;

	fill_header(&h, 7);
	h.version = 8; /* (version 9 makes repeats of some: test_v9_repeat) */
	h.time_unit = 256;
	hl = header_len(&h);
	cku_in_dir(path, sizeof(path), "v7.comm");
	write_log(path, &h, in, n);
	ck_assert_int_eq(file_size(path), (off_t)(hl + sizeof(recs)));
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(buf, 1, hl + sizeof(recs), f), hl + sizeof(recs));
	fclose(f);
	ck_assert_uint_eq(buf[hl - 4] | buf[hl - 3] << 8, 256);
	ck_assert_mem_eq(buf + hl, recs, sizeof(recs));

	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(r.hdr.time_unit, 256);
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1,
			      "%s", err);
		ck_assert_int_eq(ev.kind, in[i].kind);
		ck_assert_int_eq(ev.tag, in[i].tag);
		ck_assert_uint_eq(ev.msgid, in[i].msgid);
		ck_assert_uint_eq(ev.len, in[i].len);
		ck_assert_uint_eq(ev.t, in[i].t / 256 * 256);
		ck_assert_uint_eq(ev.t + ev.dur,
				  (in[i].t + in[i].dur) / 256 * 256);
		ck_assert_str_eq(ev.group, in[i].group);
		ck_assert_int_eq(ev.ndest, in[i].ndest);
		for (int k = 0; k < ev.ndest; k++)
			ck_assert_int_eq(ev.dests[k], in[i].dests[k]);
		if (!in[i].ndest)
			ck_assert_int_eq(ev.peer, in[i].peer);
	}
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);
	/* an index past the table, bit 7 on a spawn, the same destinations
	   or group as none before are corrupt */
	for (int k = 0; k < 4; k++) {
		static const unsigned char kb[] = { 0x81, 0x85, 0xc9, 0xaa };

		buf[hl + 1] = k ? 0 : 2;
		buf[hl] = kb[k];
		f = fopen(path, "wb");
		ck_assert_ptr_nonnull(f);
		ck_assert_uint_eq(fwrite(buf, 1, hl + sizeof(recs), f),
				  hl + sizeof(recs));
		fclose(f);
		ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0,
			      "%s", err);
		ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), -1);
		ck_assert_msg(strstr(err, k == 0 ? "a peer index past the peer "
						   "table"
					  : k == 1 ? "unknown record kind 133"
					  : k == 2 ? "the same destinations as no"
						   : "the same group as no"),
			      "%s", err);
		pg_comm_free(&r);
	}
}
END_TEST

/* Times are deltas: equal times, big jumps and the whole range a log may
 * hold (t + dur up to PG_TIME_MAX). */
START_TEST(test_time_deltas)
{
	struct pg_event want[6];
	static const uint64_t ts[] = { 0, 0, 1, (uint64_t)1 << 35,
				       ((uint64_t)1 << 60) + 5, PG_TIME_MAX };
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char path[PATH_MAX], err[512] = "";

	for (int i = 0; i < 6; i++) {
		want[i] = stream_event(i);
		want[i].t = ts[i];
		want[i].dur = ts[5 - i];
	}
	fill_header(&h, 2);
	cku_in_dir(path, sizeof(path), "times.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(pg_comm_append(&w, &want[i]), 0);
	pg_comm_close(&w);
	assert_log_holds(path, want, 6);
}
END_TEST

/* A log never closed (its zero tail still in the file) reads back whole. */
START_TEST(test_not_closed)
{
	struct pg_event want[50];
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char path[PATH_MAX], err[512] = "";

	fill_header(&h, 4);
	cku_in_dir(path, sizeof(path), "open.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	for (int i = 0; i < 50; i++) {
		want[i] = stream_event(i);
		ck_assert_int_eq(pg_comm_append(&w, &want[i]), 0);
	}
	/* the file is longer than what was written: the tail is zeros */
	ck_assert_int_gt(file_size(path), (off_t)w.used);
	assert_log_holds(path, want, 50);
	pg_comm_close(&w);
	ck_assert_int_eq(file_size(path), (off_t)w.used);
	assert_log_holds(path, want, 50);
}
END_TEST

/* A task SIGKILLed after logging 100 events leaves all 100 in its log. */
START_TEST(test_sigkilled_writer)
{
	struct pg_comm_header h;
	struct pg_event want[100];
	char path[PATH_MAX];
	int status;
	pid_t pid;

	fill_header(&h, 1001);
	cku_in_dir(path, sizeof(path), "task-1001.comm");
	for (int i = 0; i < 100; i++)
		want[i] = stream_event(i);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct pg_comm_writer w;
		char err[512];

		if (pg_comm_create(&w, path, &h, err, sizeof(err)) < 0)
			_exit(2);
		for (int i = 0; i < 100; i++)
			if (pg_comm_append(&w, &want[i]) < 0)
				_exit(3);
		raise(SIGKILL);
		_exit(4);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		      "writer did not die of SIGKILL (status %#x)", status);
	assert_log_holds(path, want, 100);
}
END_TEST

/* A log that outgrows the first mapping (1 MiB) stays whole, closed or not. */
START_TEST(test_growth)
{
	enum { N = 250000 }; /* about 3 MiB of records */
	struct pg_event *want = malloc(N * sizeof(*want));
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char path[PATH_MAX], err[512] = "";

	ck_assert_ptr_nonnull(want);
	fill_header(&h, 6);
	cku_in_dir(path, sizeof(path), "big.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	for (int i = 0; i < N; i++) {
		want[i] = stream_event(i);
		if (pg_comm_append(&w, &want[i]) != 0)
			ck_abort_msg("append %d failed", i);
	}
	ck_assert_uint_gt(w.used, 2u << 20);
	assert_log_holds(path, want, N);
	pg_comm_close(&w);
	assert_log_holds(path, want, N);
	free(want);
}
END_TEST

/* Closing twice is harmless; appending after close fails. */
START_TEST(test_append_after_close)
{
	struct pg_event e = stream_event(1);
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char path[PATH_MAX], err[512] = "";

	fill_header(&h, 8);
	cku_in_dir(path, sizeof(path), "closed.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_int_eq(pg_comm_append(&w, &e), 0);
	pg_comm_close(&w);
	pg_comm_close(&w);
	ck_assert_int_eq(pg_comm_append(&w, &e), -1);
	assert_log_holds(path, &e, 1);
}
END_TEST

/* Writes a small closed log at PATH (3 events, the last a send). */
static void write_small_log(const char *path, struct pg_comm_header *h)
{
	struct pg_comm_writer w;
	char err[512] = "";

	fill_header(h, 9);
	unlink(path); /* pg_comm_create makes only new files */
	ck_assert_msg(pg_comm_create(&w, path, h, err, sizeof(err)) == 0, "%s",
		      err);
	for (int i = 0; i < 3; i++) {
		struct pg_event e = stream_event(i);

		ck_assert_int_eq(pg_comm_append(&w, &e), 0);
	}
	pg_comm_close(&w);
}

START_TEST(test_refuse_bad_magic)
{
	struct pg_comm_header h;
	struct pg_comm_reader r;
	char path[PATH_MAX], err[512] = "";
	FILE *f;

	cku_in_dir(path, sizeof(path), "magic.comm");
	write_small_log(path, &h);
	patch_byte(path, 0, 'X');
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "not a Pangaea"), "message: %s", err);
	ck_assert_msg(strstr(err, path), "message does not name the file: %s",
		      err);

	/* a text file, and an empty one */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("pangaea-exec 1 ltid=1\nthis is not a communication log at all\n",
	      f);
	fclose(f);
	err[0] = '\0';
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "not a Pangaea"), "message: %s", err);
	ck_assert_int_eq(truncate(path, 0), 0);
	err[0] = '\0';
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "not a Pangaea"), "message: %s", err);
}
END_TEST

START_TEST(test_refuse_other_version)
{
	struct pg_comm_header h;
	struct pg_comm_reader r;
	char path[PATH_MAX], err[512] = "";

	cku_in_dir(path, sizeof(path), "version.comm");
	write_small_log(path, &h);
	patch_byte(path, 8, PG_COMM_VERSION + 1);
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "version") && strstr(err, "(offset 8)"),
		      "message: %s", err);
	ck_assert_ptr_null(r.data); /* nothing left allocated */
}
END_TEST

START_TEST(test_refuse_corrupt_header)
{
	struct pg_comm_header h;
	struct pg_comm_reader r;
	char path[PATH_MAX], err[512] = "";

	cku_in_dir(path, sizeof(path), "header.comm");
	write_small_log(path, &h);
	patch_byte(path, FIXED_HEADER + 1, 0x7f); /* host length 32000+ */
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "corrupt header"), "message: %s", err);
}
END_TEST

START_TEST(test_refuse_missing_file)
{
	struct pg_comm_reader r;
	struct pg_comm_writer w;
	struct pg_comm_header h;
	char path[PATH_MAX], err[512] = "";

	cku_in_dir(path, sizeof(path), "no-such.comm");
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "cannot read") && strstr(err, path),
		      "message: %s", err);
	fill_header(&h, 1);
	cku_in_dir(path, sizeof(path), "no-such-dir/task-1.comm");
	err[0] = '\0';
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "cannot create"), "message: %s", err);
	ck_assert_int_eq(pg_comm_append(&w, &(struct pg_event){ .kind = 1 }),
			 -1);
}
END_TEST

/* pg_comm_create makes a new file, mode 0600 whatever the umask; a link
 * or a file already at the path is refused and left as it was. */
START_TEST(test_create_new_only)
{
	struct pg_comm_writer w;
	struct pg_comm_header h;
	char path[PATH_MAX], target[PATH_MAX], err[512] = "", buf[16] = "";
	struct stat st;
	mode_t old = umask(0);
	int fd;

	fill_header(&h, 1);
	cku_in_dir(target, sizeof(target), "precious");
	fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_eq(write(fd, "secret", 6), 6);
	close(fd);
	cku_in_dir(path, sizeof(path), "task-1.comm");
	ck_assert_int_eq(symlink(target, path), 0);
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "cannot create") && strstr(err, path),
		      "message: %s", err);
	ck_assert_int_eq(pg_comm_create(&w, target, &h, err, sizeof(err)), -1);
	fd = open(target, O_RDONLY);
	ck_assert_int_eq(read(fd, buf, sizeof(buf) - 1), 6);
	close(fd);
	ck_assert_str_eq(buf, "secret");
	cku_in_dir(path, sizeof(path), "task-2.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	pg_comm_close(&w);
	umask(old);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
}
END_TEST

/* A record cut anywhere inside is refused, naming the record's offset. */
START_TEST(test_refuse_truncated)
{
	/* last record: a send of a new peer, an id not the next, a len
	   of 2 bytes, times of 3 bytes: 1+3+1+2+2+3+3 bytes */
	struct pg_event last = { .kind = PG_REC_SEND, .peer = 3003, .tag = 9,
				 .msgid = 300, .len = 1000,
				 .t = 3 * 1234567 + 70000, .dur = 100000 };
	const size_t last_len = 15;
	struct pg_comm_header h;
	struct pg_comm_writer w;
	struct pg_event ev, first[3];
	char path[PATH_MAX], want[64], err[512] = "";
	off_t size;

	for (int i = 0; i < 3; i++)
		first[i] = stream_event(i);
	fill_header(&h, 9);
	cku_in_dir(path, sizeof(path), "cut.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(pg_comm_append(&w, &first[i]), 0);
	ck_assert_int_eq(pg_comm_append(&w, &last), 0);
	pg_comm_close(&w);
	size = file_size(path);
	snprintf(want, sizeof(want), "offset %lld",
		 (long long)(size - (off_t)last_len));

	for (size_t cut = 1; cut < last_len; cut++) {
		struct pg_comm_reader r;
		int rc;

		ck_assert_int_eq(truncate(path, size - (off_t)cut), 0);
		ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0,
			      "%s", err);
		for (int i = 0; i < 3; i++) {
			ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 1);
			assert_event(&ev, &first[i], i);
		}
		err[0] = '\0';
		rc = pg_comm_next(&r, &ev, err, sizeof(err));
		ck_assert_msg(rc == -1, "cut %zu bytes: rc %d", cut, rc);
		ck_assert_msg(strstr(err, "truncated"), "message: %s", err);
		ck_assert_msg(strstr(err, want), "message lacks '%s': %s", want,
			      err);
		pg_comm_free(&r);
	}
}
END_TEST

/* An unknown kind byte is refused, naming the kind and the offset. */
START_TEST(test_refuse_unknown_kind)
{
	/* 0x41: a send with a filter bit, 0x88 and 0x86: bit 7 (an id not
	   stored, version 7) on a pollfail and an end */
	static const unsigned char bad[] = { PG_REC_REPEAT + PG_COMM_REPEATS, 0x41, 0x66,
					     0x88, 0x86, 0xff };
	struct pg_comm_header h;
	char path[PATH_MAX], err[512] = "", want[64];
	size_t hl;

	cku_in_dir(path, sizeof(path), "kind.comm");
	for (size_t k = 0; k < sizeof(bad); k++) {
		struct pg_comm_reader r;
		struct pg_event ev;

		write_small_log(path, &h);
		hl = header_len(&h);
		patch_byte(path, (off_t)hl, bad[k]);
		ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0,
			      "%s", err);
		err[0] = '\0';
		ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), -1);
		ck_assert_msg(strstr(err, "unknown record kind"), "message: %s",
			      err);
		snprintf(want, sizeof(want), "kind %d at offset %zu", bad[k], hl);
		ck_assert_msg(strstr(err, want), "message lacks '%s': %s", want,
			      err);
		pg_comm_free(&r);
	}
}
END_TEST

/* 1000 small sends take at most 12 bytes each (design target: 16). */
START_TEST(test_size_per_event)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char path[PATH_MAX], empty[PATH_MAX], err[512] = "";
	off_t base_size, size;
	double per_event;

	fill_header(&h, 1);
	cku_in_dir(empty, sizeof(empty), "empty.comm");
	ck_assert_msg(pg_comm_create(&w, empty, &h, err, sizeof(err)) == 0, "%s",
		      err);
	pg_comm_close(&w);
	base_size = file_size(empty);

	cku_in_dir(path, sizeof(path), "sends.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	for (int i = 0; i < 1000; i++) {
		struct pg_event e = {
			.kind = PG_REC_SEND, .peer = 1 + i % 4, .tag = 1 + i % 3,
			.msgid = (uint32_t)i + 1, .len = 8 + (uint32_t)(i % 57),
			.t = (uint64_t)i * 5000, .dur = 1000 + (uint64_t)(i % 2000)
		};

		ck_assert_int_eq(pg_comm_append(&w, &e), 0);
	}
	pg_comm_close(&w);
	size = file_size(path);
	per_event = (double)(size - base_size) / 1000.0;
	ck_assert_msg(per_event <= 12.0, "%.2f bytes per send event", per_event);
	ck_assert_msg(per_event >= 7.0, "%.2f bytes per send event: too few to hold it",
		      per_event);
}
END_TEST

START_TEST(test_names_and_paths)
{
	char buf[64];
	struct pg_event e = { .kind = PG_REC_SEND, .peer = -1, .tag = 4,
			      .msgid = 9 };

	ck_assert_int_eq(pg_log_path(buf, sizeof(buf), "/r", 1002, "comm"), 0);
	ck_assert_str_eq(buf, "/r/task-1002.comm");
	ck_assert_int_eq(pg_log_path(buf, 12, "/run/dir", 1002, "exec"), -1);
	ck_assert_str_eq(pg_rec_kind_name(PG_REC_SEND), "send");
	ck_assert_str_eq(pg_rec_kind_name(PG_REC_TRECV), "trecv");
	ck_assert_str_eq(pg_rec_kind_name(PG_REC_POLLFAIL), "pollfail");
	ck_assert_str_eq(pg_rec_kind_name(0), "?");
	ck_assert_str_eq(pg_rec_kind_name(PG_REC_LAST + 1), "?");
	pg_event_describe(&pg_names_pvm, &e, buf, sizeof(buf));
	ck_assert_str_eq(buf, "send to=-1 tag=4 msg=9");
	e = (struct pg_event){ .kind = PG_REC_RECV, .peer = 2, .tag = 7,
			       .msgid = 3 };
	pg_event_describe(&pg_names_pvm, &e, buf, sizeof(buf));
	ck_assert_str_eq(buf, "pvm_recv from=2 msg=3 tag=7");
	e = (struct pg_event){ .kind = PG_REC_END, .how = 3, .value = 11 };
	pg_event_describe(&pg_names_pvm, &e, buf, sizeof(buf));
	ck_assert_str_eq(buf, "end of task (signal 11)");
}
END_TEST

/* The tools name a run's calls as its binding does: PVM's by default
 * and for a PVM launcher's spawns, MPI's for a recording of mpirun
 * (names.c); a call of the other binding has no name. */
START_TEST(test_binding_names)
{
	static const char pvm[] = "pangaea-exec 2 ltid=0\n"
		"spawn 1 file=\"/r/master\" flags=0 where=\"\" ntask=1 "
		"started=1 argv=[] tasks=[1@vm]\n";
	static const char mpi[] = "pangaea-exec 2 ltid=0\n"
		"spawn 1 file=\"/usr/bin/orterun\" flags=0 where=\"\" ntask=2 "
		"started=2 argv=[\"-np\" \"2\" \"/r/w\"] tasks=[1@vm 2@vm]\n";
	const struct pg_names *nm;
	char buf[64], path[PATH_MAX];

	ck_assert_ptr_eq(pg_names_of_run(cku_dir), &pg_names_pvm);
	cku_spit(cku_in_dir(path, sizeof(path), "task-0.exec"), pvm,
		 sizeof(pvm) - 1);
	ck_assert_ptr_eq(pg_names_of_run(cku_dir), &pg_names_pvm);
	cku_spit(path, mpi, sizeof(mpi) - 1);
	nm = pg_names_of_run(cku_dir);
	ck_assert_ptr_eq(nm, &pg_names_mpi);
	ck_assert_str_eq(pg_call_name(nm, pg_call_of(PG_REC_RECV, 0), buf,
				      sizeof(buf)), "MPI_Recv");
	ck_assert_str_eq(pg_kind_call_name(nm, PG_REC_PROBE, buf, sizeof(buf)),
			 "MPI_Probe");
	ck_assert_str_eq(pg_call_name(nm, pg_call_of(PG_REC_CALL,
						     PG_Q_MPI_DONE), buf,
				      sizeof(buf)), "MPI_Test/Wait");
	ck_assert_ptr_null(pg_call_name(nm, pg_call_of(PG_REC_TRECV, 0), buf,
					sizeof(buf)));
	ck_assert_str_eq(nm->world, "MPI_COMM_WORLD");
	nm = &pg_names_pvm;
	ck_assert_str_eq(pg_call_name(nm, pg_call_of(PG_REC_RECV, 0), buf,
				      sizeof(buf)), "pvm_recv");
	ck_assert_str_eq(pg_call_name(nm, pg_call_of(PG_REC_GROUP,
						     PG_GROUP_JOIN), buf,
				      sizeof(buf)), "pvm_joingroup");
	ck_assert_str_eq(pg_kind_call_name(nm, PG_REC_POLLFAIL, buf,
					   sizeof(buf)),
			 "pvm_nrecv/pvm_trecv/pvm_probe (failed)");
	ck_assert_ptr_null(pg_call_name(nm, pg_call_of(PG_REC_CALL,
						       PG_Q_MPI_COLL), buf,
					sizeof(buf)));
	ck_assert(pg_mpi_launcher("/usr/bin/mpiexec.openmpi"));
	ck_assert(!pg_mpi_launcher("/r/mpirunner"));
}
END_TEST

/*
 * Mounts a 256 KiB tmpfs at DIR in a mount namespace of this test's own
 * process (gone with it, whatever happens); 0, or -1 if this process may
 * not mount (not root): the caller then skips.
 */
static int mount_small_tmpfs(const char *dir)
{
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", dir, "tmpfs", 0, "size=256k") < 0) {
		fprintf(stderr, "skip: disk full tests (cannot mount a tmpfs: "
			"%s)\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* A writer on a full disk: the append that finds no room returns -1 with
 * ENOSPC (never SIGBUS in the mapping); the end record still fits in
 * the reserved space; every event before it is readable. */
START_TEST(test_disk_full)
{
	enum { MAX = 200000 };
	struct pg_event *want = malloc(MAX * sizeof(*want)), end = {
		.kind = PG_REC_END, .how = PG_END_SIGNAL, .value = SIGSEGV };
	struct pg_comm_header h;
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	struct pg_event ev;
	char dir[PATH_MAX], path[PATH_MAX + 16], err[512] = "";
	int n = 0, e = 0;

	ck_assert_ptr_nonnull(want);
	cku_in_dir(dir, sizeof(dir), "full");
	if (mount_small_tmpfs(dir) < 0)
		return;
	snprintf(path, sizeof(path), "%s/task-1.comm", dir);
	fill_header(&h, 1);
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	for (n = 0; n < MAX; n++) {
		want[n] = stream_event(n);
		if (pg_comm_append(&w, &want[n]) < 0) {
			e = errno;
			break;
		}
	}
	ck_assert_int_lt(n, MAX);
	ck_assert_msg(e == ENOSPC, "errno %d (%s), want ENOSPC", e, strerror(e));
	ck_assert_int_gt(n, 10000); /* it filled the disk first */
	/* failing leaves the writer as it was: the next append fails too */
	ck_assert_int_eq(pg_comm_append(&w, &want[n]), -1);
	end.t = want[n - 1].t + 5;
	ck_assert_int_eq(pg_comm_append_reserved(&w, &end), 0);
	ck_assert_int_eq(pg_comm_close(&w), 0);
	ck_assert_int_eq(file_size(path), (off_t)w.used);
	want[n] = end;
	assert_log_holds(path, want, n + 1);
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), 0);
	for (int i = 0; i <= n; i++)
		ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 1);
	ck_assert_int_eq(ev.kind, PG_REC_END);
	ck_assert_int_eq(ev.value, SIGSEGV);
	pg_comm_free(&r);
	free(want);
	umount2(dir, MNT_DETACH);
}
END_TEST

/* No room for even the header: pg_comm_create fails with ENOSPC named. */
START_TEST(test_disk_full_at_create)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char dir[PATH_MAX], path[PATH_MAX + 16], err[512] = "";
	int fd;

	cku_in_dir(dir, sizeof(dir), "full");
	if (mount_small_tmpfs(dir) < 0)
		return;
	snprintf(path, sizeof(path), "%s/filler", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	while (write(fd, err, sizeof(err)) > 0)
		;
	close(fd);
	snprintf(path, sizeof(path), "%s/task-1.comm", dir);
	fill_header(&h, 1);
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), -1);
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_msg(strstr(err, "No space left on device"), "%s", err);
	ck_assert_int_eq(w.fd, -1);
	umount2(dir, MNT_DETACH);
}
END_TEST

/* The exec log's append on a full disk: -1 with ENOSPC, not a silent
 * short line. */
START_TEST(test_exec_disk_full)
{
	struct pg_spawn_slot slot = { .ltid = 1, .host = "vm" };
	char *argv[] = { "a-long-argument-to-fill-the-disk-faster", NULL };
	struct pg_spawn_rec rec = { .seq = 1, .file = "/bin/prog", .ntask = 1,
				    .started = 1, .argc = 1, .argv = argv,
				    .slots = &slot };
	char dir[PATH_MAX], path[PATH_MAX + 16], err[512] = "";
	int fd, rc = 0, i;

	cku_in_dir(dir, sizeof(dir), "full");
	if (mount_small_tmpfs(dir) < 0)
		return;
	snprintf(path, sizeof(path), "%s/task-1.exec", dir);
	fd = pg_exec_create(path, 1, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	for (i = 0; i < 100000 && (rc = pg_exec_append(fd, &rec)) == 0; i++)
		;
	ck_assert_int_eq(rc, -1);
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_int_gt(i, 1000);
	close(fd);
	umount2(dir, MNT_DETACH);
}
END_TEST

/* pg_comm_append_reserved never grows the file: it writes into the spare
 * room every append keeps, and refuses what needs more. */
START_TEST(test_append_reserved)
{
	struct pg_event e = stream_event(1), end = { .kind = PG_REC_END,
						      .how = PG_END_SIGNAL,
						      .value = SIGBUS, .t = 99 };
	struct pg_event mc = { .kind = PG_REC_MCAST, .ndest = 1,
			       .dests = (int[]){ 2 } };
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char path[PATH_MAX], err[512] = "";
	size_t cap;

	fill_header(&h, 3);
	cku_in_dir(path, sizeof(path), "reserved.comm");
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	/* fill the mapping up to its spare room */
	while (w.cap - w.used >= 200)
		ck_assert_int_eq(pg_comm_append(&w, &e), 0);
	cap = w.cap;
	ck_assert_int_eq(pg_comm_append_reserved(&w, &mc), -1);
	ck_assert_int_eq(pg_comm_append_reserved(&w, &end), 0);
	ck_assert_uint_eq(w.cap, cap);
	ck_assert_int_eq(pg_comm_trim_reserved(&w), 0);
	ck_assert_int_eq(file_size(path), (off_t)w.used);
	ck_assert_int_eq(pg_comm_close(&w), 0);
}
END_TEST

/* A fatal signal's handler, as init.c's: the end record, from log.c. */
static void end_from_handler(int sig)
{
	pg_log_end_signal(sig);
}

/*
 * The crash path is async-signal-safe: with a live viewer on and its
 * batch one event short of full, the end record written from a real
 * signal handler lands in the log, and nothing is allocated or sent on
 * the way (the end used to go through pg_log and the live batch: a
 * realloc and a pvm_send inside the handler).
 */
START_TEST(test_signal_end_is_signal_safe)
{
	struct pg_self *me = pg_self_edit();
	struct sigaction sa;
	struct mallinfo2 before, after;
	struct pg_comm_reader r;
	struct pg_event ev;
	char path[PATH_MAX], err[512] = "";
	int n = 0, rc;

	me->mode = PANGAEA_MODE_RECORD;
	me->ltid = 7;
	me->coord_tid = 0x40002; /* live events on: a coordinator ... */
	setenv(PG_ENV_LIVE, "/nonexistent/live.sock", 1); /* ... and a viewer */
	snprintf(me->logdir, sizeof(me->logdir), "%s", cku_dir);
	ck_assert_msg(pg_log_open(0, err, sizeof(err)) == 0, "%s", err);
	for (int i = 0; i < 1023; i++) { /* a batch is 1024 events */
		ev = stream_event(i);
		pg_log(&ev);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = end_from_handler;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	before = mallinfo2();
	raise(SIGUSR1);
	after = mallinfo2();
	ck_assert(pg_log_ended());
	ck_assert_msg(after.uordblks == before.uordblks &&
		      after.hblkhd == before.hblkhd,
		      "the signal path allocated (%zu -> %zu bytes in use)",
		      before.uordblks, after.uordblks);
	cku_in_dir(path, sizeof(path), "task-7.comm");
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	while ((rc = pg_comm_next(&r, &ev, err, sizeof(err))) == 1 &&
	       ev.kind != PG_REC_END)
		n++;
	ck_assert_msg(rc == 1, "no end record (%s)", err);
	ck_assert_int_eq(n, 1023);
	ck_assert_int_eq(ev.how, PG_END_SIGNAL);
	ck_assert_int_eq(ev.value, SIGUSR1);
	ck_assert_int_eq(file_size(path), (off_t)r.pos); /* trimmed */
	pg_comm_free(&r);
}
END_TEST

/* Writes PATH as a log of task LTID with a header only, then the N raw
 * record bytes RAW; returns the offset of the first record. */
static size_t write_raw_log(const char *path, int ltid,
			    const unsigned char *raw, size_t n)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char err[512] = "";
	int fd;

	fill_header(&h, ltid);
	h.version = 6; /* RAW is in version 6's layout */
	unlink(path); /* logs are created new only */
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	pg_comm_close(&w);
	fd = open(path, O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, raw, n), (ssize_t)n);
	close(fd);
	return header_len(&h);
}

/* Asserts that the first record of PATH is refused with a message that
 * holds WHAT and "offset AT" and names PATH. */
static void assert_record_refused(const char *path, const char *what,
				  size_t at)
{
	struct pg_comm_reader r;
	struct pg_event ev;
	char err[512] = "", want[64];

	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "offset %zu", at);
	ck_assert_msg(strstr(err, what) && strstr(err, want) &&
		      strstr(err, path), "want '%s' and '%s' and the file: %s",
		      what, want, err);
	pg_comm_free(&r);
}

/* A FIFO, a folder and a symbolic link where a log should be are refused
 * at once, by name (a plain fopen of a FIFO waits forever). */
START_TEST(test_refuse_not_regular)
{
	struct pg_comm_header h;
	struct pg_comm_reader r;
	char path[PATH_MAX], real[PATH_MAX], err[512] = "";

	cku_in_dir(path, sizeof(path), "task-1.comm");
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	alarm(5); /* a blocking open fails the test instead of hanging it */
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	alarm(0);
	ck_assert_msg(strstr(err, path) &&
		      strstr(err, "not a regular file (a FIFO)"), "%s", err);

	cku_in_dir(path, sizeof(path), "task-2.comm");
	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, path) && strstr(err, "is a directory"), "%s",
		      err);

	cku_in_dir(real, sizeof(real), "real.comm");
	write_small_log(real, &h);
	cku_in_dir(path, sizeof(path), "task-3.comm");
	ck_assert_int_eq(symlink(real, path), 0);
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, path) && strstr(err, "symbolic link"), "%s",
		      err);
	ck_assert_int_eq(pg_open_log("/dev/null", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "a character device"), "%s", err);
}
END_TEST

/* A header naming another task than the file's name, an unknown mode or
 * flags, or a start time past 2^62 ns is refused with the offset. */
START_TEST(test_refuse_header_values)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	char path[PATH_MAX], err[512] = "", want[64];
	size_t flags_at;

	fill_header(&h, 8);
	cku_in_dir(path, sizeof(path), "task-7.comm");
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), 0);
	pg_comm_close(&w);
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, path) && strstr(err, "offset 16") &&
		      strstr(err, "task 8"), "%s", err);

	cku_in_dir(path, sizeof(path), "task-9.comm");
	write_small_log(path, &h); /* task 9: named right */
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	pg_comm_free(&r);
	patch_byte(path, 28, 3);
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "unknown mode 3 at offset 28"), "%s", err);

	write_small_log(path, &h);
	flags_at = FIXED_HEADER + 2 + strlen(h.host) + 2 + strlen(h.program);
	patch_byte(path, (off_t)flags_at, 0x82);
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "unknown flags 0x82 at offset %zu",
		 flags_at);
	ck_assert_msg(strstr(err, want), "want '%s': %s", want, err);

	write_small_log(path, &h);
	patch_byte(path, 32 + 7, 0x40); /* start_wall_ns >= 2^62 */
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "offset 32") && strstr(err, "2^62"), "%s",
		      err);

	write_small_log(path, &h);
	patch_byte(path, FIXED_HEADER + 1, 0x7f); /* host length 32000+ */
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "(offset %d)", FIXED_HEADER);
	ck_assert_msg(strstr(err, "corrupt header") && strstr(err, want),
		      "want '%s': %s", want, err);
}
END_TEST

/* An end record with how 0 or past the last, a group call of op 0 or
 * past the last, is refused with its offset. */
START_TEST(test_refuse_unknown_how_and_op)
{
	/* end: how, zz(value), dt; group: op, "g", zz(arg), zz(result), dt, dur */
	static const unsigned char how0[] = { PG_REC_END, 0, 0, 0 };
	static const unsigned char how9[] = { PG_REC_END, PG_END_LAST + 1, 0, 0 };
	static const unsigned char op0[] = { PG_REC_GROUP, 0, 1, 'g', 0, 0, 0, 0 };
	static const unsigned char op9[] = { PG_REC_GROUP, PG_GROUP_LAST + 1,
					     1, 'g', 0, 0, 0, 0 };
	static const unsigned char ok[] = { PG_REC_END, PG_END_SIGNAL, 18, 5 };
	struct pg_comm_reader r;
	struct pg_event ev;
	char path[PATH_MAX], err[512] = "";
	size_t at;

	cku_in_dir(path, sizeof(path), "task-1.comm");
	at = write_raw_log(path, 1, how0, sizeof(how0));
	assert_record_refused(path, "unknown end", at);
	at = write_raw_log(path, 1, how9, sizeof(how9));
	assert_record_refused(path, "unknown end", at);
	at = write_raw_log(path, 1, op0, sizeof(op0));
	assert_record_refused(path, "unknown group call", at);
	at = write_raw_log(path, 1, op9, sizeof(op9));
	assert_record_refused(path, "unknown group call", at);
	/* and the same bytes with known values are read */
	write_raw_log(path, 1, ok, sizeof(ok));
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1, "%s", err);
	ck_assert_int_eq(ev.how, PG_END_SIGNAL);
	ck_assert_int_eq(ev.value, 9);
	pg_comm_free(&r);
}
END_TEST

/* Values past 32 bits are refused, not cut to their low bits. */
START_TEST(test_refuse_past_32_bits)
{
	/* send: zz(peer), zz(tag), msgid, len, dt, dur; 2^32 = 80 80 80 80 10 */
	static const unsigned char msgid[] = { PG_REC_SEND, 2, 0,
		0x80, 0x80, 0x80, 0x80, 0x10, 0, 0, 0 };
	static const unsigned char peer[] = { PG_REC_RECV,
		0x80, 0x80, 0x80, 0x80, 0x20, 0, 1, 0, 0, 0 };
	static const unsigned char count[] = { PG_REC_POLLFAIL,
		0x81, 0x80, 0x80, 0x80, 0x10, 0 };
	static const unsigned char value[] = { PG_REC_END, PG_END_NO_EXIT,
		0x80, 0x80, 0x80, 0x80, 0x20, 0 };
	char path[PATH_MAX];
	size_t at;

	cku_in_dir(path, sizeof(path), "task-1.comm");
	at = write_raw_log(path, 1, msgid, sizeof(msgid));
	assert_record_refused(path, "past 32 bits", at);
	at = write_raw_log(path, 1, peer, sizeof(peer));
	assert_record_refused(path, "past 32 bits", at);
	at = write_raw_log(path, 1, count, sizeof(count));
	assert_record_refused(path, "past 32 bits", at);
	at = write_raw_log(path, 1, value, sizeof(value));
	assert_record_refused(path, "past 32 bits", at);
}
END_TEST

/* Times that cannot be real (t + dur past 2^61 ns) are refused. */
START_TEST(test_refuse_impossible_times)
{
	struct pg_event e[] = {
		{ .kind = PG_REC_SEND, .t = PG_TIME_MAX, .dur = 1 },
		{ .kind = PG_REC_SEND, .t = 5, .dur = PG_TIME_MAX },
		{ .kind = PG_REC_RECV, .t = PG_TIME_MAX + 1, .dur = 0 },
		{ .kind = PG_REC_END, .how = 1, .t = UINT64_MAX },
	};
	struct pg_event ok = { .kind = PG_REC_SEND, .t = 1000, .dur = 10 };
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char path[PATH_MAX], err[512] = "";

	fill_header(&h, 1);
	cku_in_dir(path, sizeof(path), "task-1.comm");
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		unlink(path); /* logs are created new only */
		ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)),
				 0);
		ck_assert_int_eq(pg_comm_append(&w, &e[i]), 0);
		pg_comm_close(&w);
		assert_record_refused(path, "beyond 2^61", header_len(&h));
	}
	/* the second record's time counts from the first's */
	unlink(path);
	ck_assert_int_eq(pg_comm_create(&w, path, &h, err, sizeof(err)), 0);
	ck_assert_int_eq(pg_comm_append(&w, &ok), 0);
	e[0].t = PG_TIME_MAX - 5;
	e[0].dur = 5;
	ck_assert_int_eq(pg_comm_append(&w, &e[0]), 0);
	pg_comm_close(&w);
	assert_log_holds(path, (struct pg_event[]){ ok, e[0] }, 2);
}
END_TEST

/* A group name longer than any group's is corrupt, not "cut off". */
START_TEST(test_refuse_long_group_name)
{
	unsigned char raw[2 + 2 + PG_GROUP_MAX + 8];
	char path[PATH_MAX];
	size_t at, n = 0;

	raw[n++] = PG_REC_GROUP;
	raw[n++] = PG_GROUP_JOIN;
	n += pg_varint_put(raw + n, PG_GROUP_MAX);
	memset(raw + n, 'g', PG_GROUP_MAX);
	n += PG_GROUP_MAX;
	memset(raw + n, 0, 4); /* arg, result, dt, dur */
	n += 4;
	cku_in_dir(path, sizeof(path), "task-1.comm");
	at = write_raw_log(path, 1, raw, n);
	assert_record_refused(path, "a group name too long", at);
	/* a bcast: the name first, then tag, msgid, len, dt, dur, ndest */
	n = 0;
	raw[n++] = PG_REC_BCAST;
	n += pg_varint_put(raw + n, PG_GROUP_MAX);
	memset(raw + n, 'g', PG_GROUP_MAX);
	n += PG_GROUP_MAX;
	memset(raw + n, 0, 6);
	n += 6;
	at = write_raw_log(path, 1, raw, n);
	assert_record_refused(path, "a group name too long", at);
}
END_TEST

/* Call records (version 4) round-trip with their name, both arguments,
 * result and data, an empty and a large one among them; the words for
 * them name the call and its arguments. */
START_TEST(test_call_round_trip)
{
	static unsigned char big[70000];
	static const unsigned char small[] = { 0, 1, 2, 0xff, 0 };
	struct pg_event in[] = {
		{ .kind = PG_REC_CALL, .op = PG_Q_PSTAT, .peer = 1002,
		  .result = -31, .t = 10, .dur = 2 },
		{ .kind = PG_REC_CALL, .op = PG_Q_TASKS, .peer = PG_PEER_SYSTEM,
		  .arg = 0x40000, .nblob = sizeof(small), .blob = small,
		  .t = 20, .dur = 3 },
		{ .kind = PG_REC_CALL, .op = PG_Q_RECVINFO, .arg = 3,
		  .arg2 = PvmMboxFirstAvail, .result = 7, .group = "q.box",
		  .nblob = sizeof(big), .blob = big, .t = 30, .dur = 4 },
		{ .kind = PG_REC_SEND, .peer = 1, .tag = 5, .msgid = 1,
		  .len = 4, .t = 35, .dur = 1 },
		{ .kind = PG_REC_CALL, .op = PG_Q_EXIT, .peer = 0, .t = 40 },
	};
	struct pg_comm_header h;
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	struct pg_event ev;
	char path[PATH_MAX], err[512] = "", d[300];

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (unsigned char)(i * 31 + 7);
	fill_header(&h, 1);
	cku_in_dir(path, sizeof(path), "call.comm");
	unlink(path);
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		ck_assert_int_eq(pg_comm_append(&w, &in[i]), 0);
	/* (a call record is never written from a signal handler) */
	ck_assert_int_eq(pg_comm_append_reserved(&w, &in[0]), -1);
	pg_comm_close(&w);
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(r.hdr.version, PG_COMM_VERSION);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1,
			      "%s", err);
		ck_assert_int_eq(ev.kind, in[i].kind);
		ck_assert_int_eq(ev.op, in[i].op);
		ck_assert_int_eq(ev.peer, in[i].peer);
		ck_assert_int_eq(ev.arg, in[i].arg);
		ck_assert_int_eq(ev.arg2, in[i].arg2);
		ck_assert_int_eq(ev.result, in[i].result);
		ck_assert_str_eq(ev.group, in[i].group);
		ck_assert_uint_eq(ev.t, in[i].t);
		ck_assert_uint_eq(ev.dur, in[i].dur);
		ck_assert_uint_eq(ev.nblob, in[i].nblob);
		if (in[i].nblob)
			ck_assert(memcmp(ev.blob, in[i].blob, in[i].nblob) == 0);
	}
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);
	pg_event_describe(&pg_names_pvm, &in[0], d, sizeof(d));
	ck_assert_str_eq(d, "pvm_pstat(task 1002) = -31");
	pg_event_describe(&pg_names_pvm, &in[1], d, sizeof(d));
	ck_assert_str_eq(d, "pvm_tasks(t40000) = 0 with 5 bytes of results");
	pg_call_describe(&in[2], 0, d, sizeof(d));
	ck_assert_str_eq(d, "pvm_recvinfo(\"q.box\", 3, flags=8)");
	pg_event_describe(&pg_names_pvm, &in[4], d, sizeof(d));
	ck_assert_str_eq(d, "pvm_exit() = 0");
	ck_assert_str_eq(pg_rec_kind_name(PG_REC_CALL), "call");
	ck_assert_int_eq(pg_call_op_of("getmboxinfo"), PG_Q_GETMBOXINFO);
	ck_assert_ptr_nonnull(pg_call_name(&pg_names_pvm,
					   pg_call_of(PG_REC_CALL, PG_Q_DELINFO),
					   d, sizeof(d)));
	ck_assert_str_eq(d, "pvm_delinfo");
}
END_TEST

/* A version 3 log (before call records) is still read; a call record in
 * one is refused, as are an unknown call and data cut off by the end of
 * the file. */
START_TEST(test_call_versions_and_refusals)
{
	/* call: op, zz(peer), zz(arg), zz(arg2), zz(result), "n", nblob,
	   blob, dt, dur */
	static const unsigned char call[] = { PG_REC_CALL, PG_Q_MSTAT, 1, 0, 0,
					      0, 1, 'h', 2, 9, 9, 0, 0 };
	static const unsigned char op0[] = { PG_REC_CALL, 0, 1, 0, 0, 0, 1,
					     'h', 0, 0, 0 };
	static const unsigned char op10[] = { PG_REC_CALL, PG_Q_LAST + 1, 1,
					      0, 0, 0, 1, 'h', 0, 0, 0 };
	static const unsigned char cut[] = { PG_REC_CALL, PG_Q_MSTAT, 1, 0, 0,
					     0, 1, 'h', 100, 1, 2 };
	static const unsigned char send[] = { PG_REC_SEND, 2, 10, 1, 4, 0, 0 };
	struct pg_comm_reader r;
	struct pg_event ev;
	char path[PATH_MAX], err[512] = "";
	size_t at;

	cku_in_dir(path, sizeof(path), "task-1.comm");
	write_raw_log(path, 1, call, sizeof(call));
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1, "%s", err);
	ck_assert_int_eq(ev.op, PG_Q_MSTAT);
	ck_assert_str_eq(ev.group, "h");
	ck_assert_uint_eq(ev.nblob, 2);
	ck_assert_int_eq(ev.blob[0], 9);
	pg_comm_free(&r);
	at = write_raw_log(path, 1, op0, sizeof(op0));
	assert_record_refused(path, "unknown call", at);
	at = write_raw_log(path, 1, op10, sizeof(op10));
	assert_record_refused(path, "unknown call", at);
	write_raw_log(path, 1, cut, sizeof(cut));
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "truncated"), "message: %s", err);
	pg_comm_free(&r);
	/* version 3: a send is read, a call record is not */
	write_raw_log(path, 1, send, sizeof(send));
	patch_byte(path, 8, 3);
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(r.hdr.version, 3);
	ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1, "%s", err);
	ck_assert_int_eq(ev.kind, PG_REC_SEND);
	pg_comm_free(&r);
	at = write_raw_log(path, 1, call, sizeof(call));
	patch_byte(path, 8, 3);
	assert_record_refused(path, "a call record in a version 3 log", at);
	patch_byte(path, 8, 2);
	ck_assert_int_eq(pg_comm_open(&r, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "version 2"), "message: %s", err);
}
END_TEST

/* Version 6: a receive's filter in its kind byte (bits 5 and 6), no
 * byte more; a version 5 log's receives read as filter unknown. */
START_TEST(test_filter_bits)
{
	/* recv(any, any), nrecv(any src), probe(any tag), pollfail(fixed),
	   then a send: peer 1, tag 10, msgid 1, len 4, dt, dur */
	static const unsigned char recs[] = {
		PG_REC_RECV | 0x60, 2, 10, 1, 4, 0, 0,
		PG_REC_NRECV | 0x20, 2, 10, 2, 4, 0, 0,
		PG_REC_PROBE | 0x40, 2, 10, 3, 4, 0, 0,
		PG_REC_POLLFAIL, 3, 0,
		PG_REC_SEND, 2, 10, 1, 4, 0, 0
	};
	static const int want[] = { PG_FILTER_ANYSRC | PG_FILTER_ANYTAG,
				    PG_FILTER_ANYSRC, PG_FILTER_ANYTAG, 0, 0 };
	struct pg_event e = { .kind = PG_REC_PRECV, .peer = 1, .tag = 5,
			      .msgid = 9, .len = 1,
			      .filter = PG_FILTER_ANYSRC | PG_FILTER_ANYTAG };
	struct pg_comm_header h;
	struct pg_comm_reader r;
	struct pg_comm_writer w;
	struct pg_event ev;
	unsigned char buf[32];
	char path[PATH_MAX], err[512] = "";

	/* the writer sets the bits and adds no byte (8: the new peer takes
	   two, 0 and itself) */
	ck_assert_uint_eq(pg_comm_encode(buf, &e), 8);
	ck_assert_uint_eq(buf[0], PG_REC_PRECV | 0x60);
	e.filter = 0;
	ck_assert_uint_eq(pg_comm_encode(buf, &e), 8);
	ck_assert_uint_eq(buf[0], PG_REC_PRECV);
	/* a send never carries them */
	e.kind = PG_REC_SEND;
	e.filter = PG_FILTER_ANYTAG;
	pg_comm_encode(buf, &e);
	ck_assert_uint_eq(buf[0], PG_REC_SEND);
	cku_in_dir(path, sizeof(path), "task-1.comm");
	write_raw_log(path, 1, recs, sizeof(recs));
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	for (int k = 0; k < 5; k++) {
		ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1,
			      "%s", err);
		ck_assert_int_eq(ev.kind, recs[k < 3 ? 7 * k : k == 3 ? 21 : 24] &
						  PG_KIND_MASK);
		ck_assert_int_eq(ev.filter, want[k]);
	}
	pg_comm_free(&r);
	/* version 5: the same records without bits read as unknown */
	fill_header(&h, 1);
	h.version = 5;
	unlink(path);
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0, "%s",
		      err);
	e = (struct pg_event){ .kind = PG_REC_RECV, .peer = 1, .tag = 5 };
	ck_assert_int_eq(pg_comm_append(&w, &e), 0);
	e.kind = PG_REC_SEND;
	ck_assert_int_eq(pg_comm_append(&w, &e), 0);
	pg_comm_close(&w);
	patch_byte(path, 8, 5);
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1, "%s", err);
	ck_assert_int_eq(ev.kind, PG_REC_RECV);
	ck_assert_int_eq(ev.filter, PG_FILTER_UNKNOWN);
	ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1, "%s", err);
	ck_assert_int_eq(ev.filter, 0);
	pg_comm_free(&r);
	/* a version 5 log with a filter bit: an unknown kind */
	write_raw_log(path, 1, recs, sizeof(recs));
	patch_byte(path, 8, 5);
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "unknown record kind 98"), "message: %s",
		      err);
	pg_comm_free(&r);
}
END_TEST

/* Version 7: a task with more peers than the table holds (1024) writes
 * the rest out each time, and they read back all the same. */
/*
 * Version 9's repeat record: a message record with the peer, tag and
 * length of the last record of its kind is its kind byte (PG_REC_REPEAT
 * + the kind's index, the filter and NEXTID bits as the kind's), an id
 * when not the expected one, and the two times; a ping-pong's send and
 * receive take 3 bytes each.  Read back as the records written; a repeat
 * with no record of its kind before is corrupt, and version 8 has none.
 */
START_TEST(test_v9_repeat)
{
	static const struct pg_event in[] = {
		{ .kind = PG_REC_SEND, .peer = 2, .tag = 0, .msgid = 1,
		  .len = 8, .t = 256 },
		{ .kind = PG_REC_RECV, .peer = 2, .tag = 0, .msgid = 1,
		  .len = 8, .t = 512, .dur = 256, .filter = PG_FILTER_ANYSRC },
		{ .kind = PG_REC_SEND, .peer = 2, .tag = 0, .msgid = 2,
		  .len = 8, .t = 1024 },
		{ .kind = PG_REC_RECV, .peer = 2, .tag = 0, .msgid = 2,
		  .len = 8, .t = 1280, .dur = 256, .filter = PG_FILTER_ANYSRC },
		{ .kind = PG_REC_RECV, .peer = 2, .tag = 0, .msgid = 5,
		  .len = 8, .t = 1536 },            /* an id not expected */
		{ .kind = PG_REC_RECV, .peer = 2, .tag = 1, .msgid = 6,
		  .len = 8, .t = 1536 },            /* another tag */
		{ .kind = PG_REC_NRECV, .peer = 2, .tag = 1, .msgid = 7,
		  .len = 8, .t = 1536 },            /* first of its kind */
		{ .kind = PG_REC_RECV, .peer = 2, .tag = 1, .msgid = 7,
		  .len = 9, .t = 1536 },            /* another length */
	};
	static const unsigned char recs[] = {
		0x81, 0, 4, 0, 16, 1, 0,     /* send 1: new peer 2, len 8 */
		0xa2, 1, 0, 0, 1, 1,         /* recv 1: anysrc, id expected */
		0x94, 2, 0,                  /* send 2: a repeat of a send */
		0xb5, 1, 1,                  /* recv 2: of a recv, anysrc */
		0x15, 4, 1, 0,               /* recv 5: 3 expected, + 2 */
		0x02, 1, 2, 3, 0, 0, 0,      /* recv 6, tag 1: written out
						(8 expected, - 2) */
		0x83, 1, 2, 0, 0, 0,         /* nrecv 7: first nrecv */
		0x02, 1, 2, 1, 2, 0, 0,      /* recv 7 (8 expected), len 9 */
	};
	struct pg_comm_header h;
	struct pg_comm_reader r;
	struct pg_event ev;
	unsigned char buf[256];
	char path[PATH_MAX], err[512] = "";
	size_t hl, n = sizeof(in) / sizeof(in[0]);
	FILE *f;

	fill_header(&h, 1);
	h.time_unit = 256;
	hl = header_len(&h);
	cku_in_dir(path, sizeof(path), "v9.comm");
	write_log(path, &h, in, n);
	ck_assert_int_eq(file_size(path), (off_t)(hl + sizeof(recs)));
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(buf, 1, hl + sizeof(recs), f),
			  hl + sizeof(recs));
	fclose(f);
	ck_assert_mem_eq(buf + hl, recs, sizeof(recs));
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(r.hdr.version, 9);
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1,
			      "%s", err);
		ck_assert_int_eq(ev.kind, in[i].kind);
		ck_assert_int_eq(ev.peer, in[i].peer);
		ck_assert_int_eq(ev.tag, in[i].tag);
		ck_assert_uint_eq(ev.msgid, in[i].msgid);
		ck_assert_uint_eq(ev.len, in[i].len);
		ck_assert_int_eq(ev.filter, in[i].filter);
		ck_assert_uint_eq(ev.t, in[i].t);
		ck_assert_uint_eq(ev.dur, in[i].dur);
	}
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);
	/* a repeat first: nothing to repeat */
	buf[hl] = 0x94;
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, hl + sizeof(recs), f),
			  hl + sizeof(recs));
	fclose(f);
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "a repeat of no record before"), "%s", err);
	pg_comm_free(&r);
	/* version 8: the same events, no repeat, still read */
	unlink(path);
	h.version = 8;
	write_log(path, &h, in, n);
	ck_assert_int_gt(file_size(path), (off_t)(hl + sizeof(recs)));
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1,
			      "%s", err);
		ck_assert_uint_eq(ev.msgid, in[i].msgid);
		ck_assert_int_eq(ev.tag, in[i].tag);
	}
	pg_comm_free(&r);
}
END_TEST

START_TEST(test_v7_many_peers)
{
	enum { NP = PG_COMM_PEERS + 100, N = 2 * NP };
	static struct pg_event in[N];
	struct pg_comm_header h;
	struct pg_comm_reader r;
	struct pg_event ev;
	char path[PATH_MAX], err[512] = "";

	for (int i = 0; i < N; i++)
		in[i] = (struct pg_event){
			.kind = i % 3 ? PG_REC_RECV : PG_REC_SEND,
			.peer = 1000 + (i % NP) * 7, .tag = 1,
			.msgid = (uint32_t)(i / NP + 1), .len = (uint32_t)i,
			.t = (uint64_t)i * 1000 };
	fill_header(&h, 1);
	cku_in_dir(path, sizeof(path), "peers.comm");
	write_log(path, &h, in, N);
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	for (int i = 0; i < N; i++) {
		ck_assert_msg(pg_comm_next(&r, &ev, err, sizeof(err)) == 1,
			      "event %d: %s", i, err);
		assert_event(&ev, &in[i], i);
	}
	ck_assert_int_eq(r.st.npeers, PG_COMM_PEERS);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);
}
END_TEST

/* Event I of the follow test's run: point-to-point events of many peers,
 * multicasts and broadcasts (the same destinations and group as the last
 * one, or not), group calls, calls with data, an end last (N - 1). */
static struct pg_event follow_event(int i, int n, const unsigned char *blob)
{
	static int d1[] = { 1001, 1002, 1003 }, d2[] = { 7, 1005 };
	struct pg_event e = stream_event(i);

	e.t = (uint64_t)i * 1000 + 17;
	e.peer = 1000 + (i * 7) % 300;
	switch (i % 97) {
	case 10: case 11: case 12:
		e = (struct pg_event){ .kind = PG_REC_MCAST, .tag = 3,
				       .msgid = (uint32_t)i, .len = 8,
				       .ndest = i % 97 == 12 ? 2 : 3,
				       .dests = i % 97 == 12 ? d2 : d1 };
		break;
	case 20: case 21:
		e = (struct pg_event){ .kind = PG_REC_BCAST, .tag = 4,
				       .msgid = (uint32_t)i, .len = 9,
				       .ndest = 3, .dests = d1,
				       .group = "workers" };
		break;
	case 30:
		e = (struct pg_event){ .kind = PG_REC_GROUP, .op = PG_GROUP_JOIN,
				       .result = 1, .group = "workers" };
		break;
	case 40:
		e = (struct pg_event){ .kind = PG_REC_CALL, .op = PG_Q_TASKS,
				       .peer = PG_PEER_SYSTEM, .nblob = 3000,
				       .blob = blob };
		break;
	case 50:
		e = (struct pg_event){ .kind = PG_REC_POLLFAIL, .count = 42 };
		break;
	}
	if (i == n - 1)
		e = (struct pg_event){ .kind = PG_REC_END, .how = PG_END_EXIT };
	e.t = (uint64_t)i * 1000 + 17;
	return e;
}

/* Asserts the followed event GOT is WANT (I its index), casts' groups
 * and destinations included. */
static void assert_followed(const struct pg_event *got,
			    const struct pg_event *want, int i)
{
	assert_event(got, want, i);
	ck_assert_msg(strcmp(got->group, want->group) == 0 &&
		      got->ndest == want->ndest && got->op == want->op &&
		      got->nblob == want->nblob, "event %d: group, dests, op "
		      "or data differ", i);
	for (int k = 0; k < got->ndest; k++)
		ck_assert_int_eq(got->dests[k], want->dests[k]);
	if (got->nblob)
		ck_assert(memcmp(got->blob, want->blob, got->nblob) == 0);
}

/*
 * A log followed while it is written (pg_comm_follow, the coordinator's
 * live view): every event comes once, in order, equal to what the
 * writer logged, whether the reader catches up after each event or after
 * thousands (its reads then end inside records, which it reads again,
 * its decoding state undone); a record whose body is in the file but
 * not yet its kind byte (the writer stores that last) is not read; a
 * header not written yet is "try again", and the end record ends it.
 */
START_TEST(test_follow)
{
	enum { N = 40000 };
	static struct pg_event in[N];
	static size_t end[N]; /* the file's size after event i */
	static const int steps[] = { 1, 1, 7, 5000, 1, 13000, 2, 20000 };
	unsigned char blob[3000], *full;
	struct pg_comm_header h;
	struct pg_comm_writer w;
	struct pg_comm_reader r;
	struct pg_event ev;
	char path[PATH_MAX], fpath[PATH_MAX], err[512] = "";
	int fd, got = 0, i = 0, rc, st = 0;
	size_t fsize;

	for (int k = 0; k < (int)sizeof(blob); k++)
		blob[k] = (unsigned char)(k % 5 ? k * 7 : 0);
	for (int k = 0; k < N; k++)
		in[k] = follow_event(k, N, blob);
	fill_header(&h, 3);
	/* the complete log, to know where each record ends */
	cku_in_dir(fpath, sizeof(fpath), "full.comm");
	unlink(fpath);
	ck_assert_msg(pg_comm_create(&w, fpath, &h, err, sizeof(err)) == 0,
		      "%s", err);
	for (int k = 0; k < N; k++) {
		ck_assert_int_eq(pg_comm_append(&w, &in[k]), 0);
		end[k] = w.used;
	}
	ck_assert_int_eq(pg_comm_close(&w), 0);
	fsize = (size_t)file_size(fpath);
	ck_assert_ptr_nonnull(full = malloc(fsize));
	fd = open(fpath, O_RDONLY);
	ck_assert_int_eq(read(fd, full, fsize), (ssize_t)fsize);
	close(fd);

	cku_in_dir(path, sizeof(path), "follow.comm");
	unlink(path);
	ck_assert_int_eq(pg_comm_follow(&r, path, err, sizeof(err)), 0);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600); /* zeros: no header */
	ck_assert_int_eq(ftruncate(fd, 4096), 0);
	ck_assert_int_eq(pg_comm_follow(&r, path, err, sizeof(err)), 0);
	close(fd);
	unlink(path);
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_msg(pg_comm_follow(&r, path, err, sizeof(err)) == 1, "%s",
		      err);
	ck_assert_int_eq(r.hdr.ltid, 3);
	ck_assert_str_eq(r.hdr.host, "vm");
	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	while (i < N) {
		int upto = i + steps[st++ % 8];

		for (; i < upto && i < N; i++)
			ck_assert_int_eq(pg_comm_append(&w, &in[i]), 0);
		/* the next record's body, its kind byte not yet */
		if (i < N) {
			size_t from = end[i - 1] + 1, len = end[i] - from;

			ck_assert_int_eq(pwrite(fd, full + from, len, (off_t)from),
					 (ssize_t)len);
		}
		while ((rc = pg_comm_follow_next(&r, &ev, err,
						 sizeof(err))) == 1) {
			ck_assert_int_lt(got, i);
			assert_followed(&ev, &in[got], got);
			got++;
		}
		ck_assert_msg(rc == 0, "after %d events: %s", got, err);
		ck_assert_int_eq(got, i);
	}
	close(fd);
	ck_assert_int_eq(r.done, 1);
	ck_assert_int_eq(pg_comm_close(&w), 0);
	ck_assert_int_eq(pg_comm_follow_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);
	free(full);
}
END_TEST

static Suite *commlog_suite(void)
{
	Suite *s = suite_create("commlog");
	TCase *rw = tcase_create("write-read");
	TCase *crash = tcase_create("crash-safety");
	TCase *bad = tcase_create("refusals");
	TCase *size = tcase_create("size");

	cku_add_tmp_fixtures(rw);
	tcase_add_test(rw, test_header_round_trip);
	tcase_add_test(rw, test_header_string_limits);
	tcase_add_test(rw, test_all_kinds_round_trip);
	tcase_add_test(rw, test_end_values);
	tcase_add_test(rw, test_byte_layout);
	tcase_add_test(rw, test_v7_coding);
	tcase_add_test(rw, test_v9_repeat);
	tcase_add_test(rw, test_v7_many_peers);
	tcase_add_test(rw, test_follow);
	tcase_add_test(rw, test_collective_round_trip);
	tcase_add_test(rw, test_call_round_trip);
	tcase_add_test(rw, test_call_versions_and_refusals);
	tcase_add_test(rw, test_filter_bits);
	tcase_add_test(rw, test_time_deltas);
	tcase_add_test(rw, test_append_after_close);
	tcase_add_test(rw, test_names_and_paths);
	tcase_add_test(rw, test_binding_names);
	suite_add_tcase(s, rw);

	cku_add_tmp_fixtures(crash);
	tcase_set_timeout(crash, 60);
	tcase_add_test(crash, test_not_closed);
	tcase_add_test(crash, test_sigkilled_writer);
	tcase_add_test(crash, test_growth);
	tcase_add_test(crash, test_append_reserved);
	tcase_add_test(crash, test_disk_full);
	tcase_add_test(crash, test_disk_full_at_create);
	tcase_add_test(crash, test_exec_disk_full);
	tcase_add_test(crash, test_signal_end_is_signal_safe);
	suite_add_tcase(s, crash);

	cku_add_tmp_fixtures(bad);
	tcase_add_test(bad, test_refuse_bad_magic);
	tcase_add_test(bad, test_refuse_other_version);
	tcase_add_test(bad, test_refuse_corrupt_header);
	tcase_add_test(bad, test_refuse_missing_file);
	tcase_add_test(bad, test_create_new_only);
	tcase_add_test(bad, test_refuse_truncated);
	tcase_add_test(bad, test_refuse_unknown_kind);
	tcase_add_test(bad, test_refuse_not_regular);
	tcase_add_test(bad, test_refuse_header_values);
	tcase_add_test(bad, test_refuse_unknown_how_and_op);
	tcase_add_test(bad, test_refuse_past_32_bits);
	tcase_add_test(bad, test_refuse_impossible_times);
	tcase_add_test(bad, test_refuse_long_group_name);
	suite_add_tcase(s, bad);

	cku_add_tmp_fixtures(size);
	tcase_add_test(size, test_size_per_event);
	suite_add_tcase(s, size);
	return s;
}

int main(void)
{
	return cku_run(commlog_suite());
}
