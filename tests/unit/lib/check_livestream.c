/*
 * check_livestream.c: the live stream's ints and lines (livestream.c),
 * written by the tasks and the coordinator and read by the viewer: every
 * kind of event and the task and version lines come back as written,
 * and a wrong version, a damaged line or a damaged batch is refused.
 * And which tasks send batches at all (pangaea_lib/engine/live.c,
 * pg_live_followed): none on a host whose logs a follower reads;
 * PANGAEA_LIVE_FOLLOW holds "*" (every host) and "!HOST" words (but
 * HOST), as the launcher exports it (toplevel/hosts.c, la_hosts_watch).
 */
#include "engine.h"
#include "livestream.h"
#include "pangaea-logs.h"

#include "checkutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WALL 1700000000123456789ULL /* a call entry, wall-clock ns */

/* An event of KIND with every field set (mcast, bcast: 3 dests). */
static struct pg_event event_of(int kind)
{
	static int dests[] = { 1001, -1, 70000 };
	struct pg_event e;

	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.peer = kind == PG_REC_RECV ? -2 : 1000 + kind;
	e.tag = -kind;
	e.msgid = 0xfffffff0u + (uint32_t)kind % 8;
	e.len = 4096u * (uint32_t)kind;
	e.count = 17;
	e.op = PG_GROUP_BARRIER;
	e.dur = 5000000000ULL + (uint64_t)kind; /* more than 32 bits */
	if (kind == PG_REC_MCAST || kind == PG_REC_BCAST) {
		e.ndest = 3;
		e.dests = dests;
	}
	return e;
}

/* Checks that E (a stream event of task LTID) says what EV said. */
static void same_event(const struct pg_live_ev *e, int ltid,
		       const struct pg_event *ev)
{
	ck_assert_int_eq(e->ltid, ltid);
	ck_assert_int_eq(e->kind, ev->kind);
	ck_assert_uint_eq(e->t0, WALL);
	ck_assert_uint_eq(e->t1, WALL + ev->dur);
	ck_assert_int_eq(e->peer, ev->peer);
	ck_assert_int_eq(e->tag, ev->tag);
	ck_assert_uint_eq(e->msgid, ev->msgid);
	ck_assert_uint_eq(e->len, ev->len);
	ck_assert_uint_eq(e->count, ev->kind == PG_REC_GROUP
					    ? (uint32_t)ev->op : ev->count);
	ck_assert_int_eq(e->ndest, ev->ndest);
	for (int i = 0; i < ev->ndest; i++)
		ck_assert_int_eq(e->dests[i], ev->dests[i]);
}

/* Every kind: packed by a task, unpacked and written by the
 * coordinator, parsed by the viewer. */
START_TEST(test_every_kind_round_trip)
{
	int v[PG_LIVE_FIELDS + 8], *dests = NULL;
	size_t cap = 0;
	char line[512];

	for (int kind = 1; kind <= PG_REC_LAST; kind++) {
		struct pg_event ev = event_of(kind);
		struct pg_live_ev e, back;
		int n = pg_livestream_pack(&ev, WALL, v);
		char *end;

		ck_assert_int_eq(n, PG_LIVE_FIELDS + ev.ndest);
		ck_assert_int_eq(pg_livestream_unpack(1001, v, n, &e), n);
		same_event(&e, 1001, &ev);
		ck_assert_uint_lt(pg_livestream_event_max(&e), sizeof(line));
		end = pg_livestream_put_event(line, &e);
		ck_assert_uint_le((size_t)(end - line),
				  pg_livestream_event_max(&e));
		ck_assert_int_eq(end[-1], '\n');
		end[-1] = '\0';
		ck_assert_int_eq(pg_livestream_line(line), PG_LIVE_EVENT);
		ck_assert_msg(pg_livestream_event(line, &back, &dests, &cap) == 0,
			      "refused its own line: %s", line);
		same_event(&back, 1001, &ev);
		if (ev.ndest)
			ck_assert_str_eq(back.dests_text, "1001 -1 70000");
		else
			ck_assert_ptr_null(back.dests_text);
	}
	free(dests);
}
END_TEST

/* The task and version lines come back; another version is refused. */
START_TEST(test_task_and_version_lines)
{
	struct pg_live_task t;
	char line[512], err[256];
	int n;

	n = pg_livestream_put_task(line, sizeof(line), 1002, 1, "node-2",
				   "/usr/bin/sor -n 4");
	ck_assert_int_eq(n, (int)strlen(line));
	ck_assert_int_eq(pg_livestream_put_task(line, 10, 1002, 1, "node-2",
						"/usr/bin/sor"), -1);
	n = pg_livestream_put_task(line, sizeof(line), 1002, 1, "node-2",
				   "/usr/bin/sor -n 4");
	line[n - 1] = '\0';
	ck_assert_int_eq(pg_livestream_line(line), PG_LIVE_TASK);
	ck_assert_int_eq(pg_livestream_task(line, &t), 0);
	ck_assert_int_eq(t.ltid, 1002);
	ck_assert_int_eq(t.parent, 1);
	ck_assert_str_eq(t.host, "node-2");
	ck_assert_str_eq(t.program, "/usr/bin/sor -n 4");
	ck_assert_int_eq(pg_livestream_task("T 1002", &t), -1);
	ck_assert_int_eq(pg_livestream_task("E 1002 1 h p", &t), -1);

	n = pg_livestream_put_version(line, sizeof(line));
	ck_assert_int_gt(n, 0);
	line[n - 1] = '\0';
	ck_assert_int_eq(pg_livestream_line(line), PG_LIVE_VERSION_LINE);
	ck_assert_int_eq(pg_livestream_version(line, err, sizeof(err)), 0);
	snprintf(line, sizeof(line), "V pangaea-live %d", PG_LIVE_VERSION + 1);
	ck_assert_int_eq(pg_livestream_version(line, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "different builds"));
	ck_assert_int_eq(pg_livestream_version("T 1 0 h p", err, sizeof(err)),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "does not start with its version"));
	snprintf(line, sizeof(line), "V pangaea-live %dx", PG_LIVE_VERSION);
	ck_assert_int_eq(pg_livestream_version(line, err, sizeof(err)), -1);
	ck_assert_int_eq(pg_livestream_line("X 1"), PG_LIVE_OTHER);
	ck_assert_int_eq(pg_livestream_line("E"), PG_LIVE_OTHER);
}
END_TEST

/* A damaged event line is refused, and so is every shortened one. */
START_TEST(test_damaged_lines_refused)
{
	static const char *const bad[] = {
		"E", "E ", "E x send 1 2 3 4 5 6 7", "E 1 nosuchkind 1 2 3 4 5 6 7",
		"E 1 send 1 2 3 4 5 6 x", "E 1 send 1 2 3 4 5 6 7 8x",
		"E 1 send 1 2 3 4a 5 6 7", "E 1 averyveryverylongkind 1 2 3 4 5 6 7",
		"E 1  1 2 3 4 5 6 7", "T 1 send 1 2 3 4 5 6 7",
	};
	const char good[] = "E 1 mcast 10 20 3 4 5 6 7 1001 1002";
	struct pg_live_ev e;
	int *dests = NULL;
	size_t cap = 0;
	char line[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(pg_livestream_event(bad[i], &e, &dests, &cap) < 0,
			      "took \"%s\"", bad[i]);
	ck_assert_int_eq(pg_livestream_event(good, &e, &dests, &cap), 0);
	ck_assert_int_eq(e.ndest, 2);
	/* cut before the last field: fewer than the event's fields */
	for (size_t n = 0; n < strlen("E 1 mcast 10 20 3 4 5 6 "); n++) {
		snprintf(line, sizeof(line), "%.*s", (int)n, good);
		ck_assert_msg(pg_livestream_event(line, &e, &dests, &cap) < 0,
			      "took \"%s\"", line);
	}
	free(dests);
}
END_TEST

/* A line's numbers read as strtoll reads them: the longest times, the
 * extremes of 64 bits, beyond them (strtoll's limit), a plus, blanks. */
START_TEST(test_numbers_as_strtoll)
{
	static const char *const t[] = {
		"0", "7", "1795829544775000000", "9223372036854775807",
		"9223372036854775808", "99999999999999999999", "-1",
		"-9223372036854775808", "-9223372036854775809", "+42", "  42",
		"0042", "18446744073709551615",
	};
	struct pg_live_ev e;
	int *dests = NULL;
	size_t cap = 0;
	char line[128];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		long long want = strtoll(t[i], NULL, 10);

		/* the entry time, and a destination */
		snprintf(line, sizeof(line), "E 1 mcast %s 20 3 4 5 6 7 %s", t[i],
			 t[i]);
		ck_assert_msg(pg_livestream_event(line, &e, &dests, &cap) == 0,
			      "refused \"%s\"", line);
		ck_assert_msg(e.t0 == (uint64_t)want, "%s: t0 %llu", t[i],
			      (unsigned long long)e.t0);
		ck_assert_int_eq(e.ndest, 1);
		ck_assert_int_eq(e.dests[0], (int)want);
	}
	ck_assert_int_lt(pg_livestream_event("E 1 send - 2 3 4 5 6 7", &e,
					     &dests, &cap), 0);
	ck_assert_int_lt(pg_livestream_event("E 1 send 1-2 2 3 4 5 6 7", &e,
					     &dests, &cap), 0);
	free(dests);
}
END_TEST

/* A damaged batch is refused: too few ints, a bad count of
 * destinations, an unknown kind. */
START_TEST(test_damaged_batch_refused)
{
	struct pg_event ev = event_of(PG_REC_MCAST);
	struct pg_live_ev e;
	int v[PG_LIVE_FIELDS + 8];
	int n = pg_livestream_pack(&ev, WALL, v);

	ck_assert_int_eq(pg_livestream_unpack(1, v, n - 1, &e), 0);
	ck_assert_int_eq(pg_livestream_unpack(1, v, PG_LIVE_FIELDS - 1, &e), 0);
	v[PG_LIVE_F_NDEST] = -1;
	ck_assert_int_eq(pg_livestream_unpack(1, v, n, &e), 0);
	v[PG_LIVE_F_NDEST] = 3;
	v[PG_LIVE_F_KIND] = 0;
	ck_assert_int_eq(pg_livestream_unpack(1, v, n, &e), 0);
	v[PG_LIVE_F_KIND] = PG_REC_LAST + 1;
	ck_assert_int_eq(pg_livestream_unpack(1, v, n, &e), 0);
	v[PG_LIVE_F_KIND] = PG_REC_MCAST;
	ck_assert_int_eq(pg_livestream_unpack(1, v, n, &e), n);
}
END_TEST

/* Whether HOST is followed with PANGAEA_LIVE_FOLLOW=VALUE (NULL: unset). */
static int followed(const char *value, const char *host)
{
	if (value)
		setenv(PG_ENV_LIVE_FOLLOW, value, 1);
	else
		unsetenv(PG_ENV_LIVE_FOLLOW);
	return pg_live_followed(host);
}

START_TEST(test_every_host)
{
	ck_assert_int_eq(followed("*", "h1"), 1);
	ck_assert_int_eq(followed("*", "a.long.name"), 1);
	ck_assert_int_eq(followed(" * ", "h1"), 1);
}
END_TEST

START_TEST(test_but_some)
{
	ck_assert_int_eq(followed("* !h1", "h1"), 0);
	ck_assert_int_eq(followed("* !h1", "h2"), 1);
	ck_assert_int_eq(followed("* !h1 !h3", "h3"), 0);
	ck_assert_int_eq(followed("* !h1 !h3", "h2"), 1);
	/* a name is matched whole, not as a prefix or a suffix */
	ck_assert_int_eq(followed("* !h1", "h10"), 1);
	ck_assert_int_eq(followed("* !h10", "h1"), 1);
	ck_assert_int_eq(followed("* !xh1", "h1"), 1);
}
END_TEST

START_TEST(test_none)
{
	/* no live view, no "*", a host name alone (no follower says so) */
	ck_assert_int_eq(followed(NULL, "h1"), 0);
	ck_assert_int_eq(followed("", "h1"), 0);
	ck_assert_int_eq(followed("h1", "h1"), 0);
	ck_assert_int_eq(followed("!h2", "h1"), 0);
	ck_assert_int_eq(followed("*", ""), 0);
	ck_assert_int_eq(followed("*", NULL), 0);
}
END_TEST

/* The suite. */
static Suite *livestream_suite(void)
{
	Suite *s = suite_create("livestream");
	TCase *tc = tcase_create("livestream");
	TCase *f = tcase_create("followed");

	tcase_add_test(tc, test_every_kind_round_trip);
	tcase_add_test(tc, test_task_and_version_lines);
	tcase_add_test(tc, test_damaged_lines_refused);
	tcase_add_test(tc, test_numbers_as_strtoll);
	tcase_add_test(tc, test_damaged_batch_refused);
	suite_add_tcase(s, tc);
	tcase_add_test(f, test_every_host);
	tcase_add_test(f, test_but_some);
	tcase_add_test(f, test_none);
	suite_add_tcase(s, f);
	return s;
}

int main(void)
{
	return cku_run(livestream_suite());
}
