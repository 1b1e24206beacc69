/*
 * check_select.c: unit tests of the run-time selection (pangaea_lib/
 * select.c): parsing "tag=5,7 ltid=1,1001 program=racy", the errors that
 * name the bad part, the canonical text form and its round trip, and the
 * rule of which tasks and tags are selected.
 */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 63 /* sizeof(progs[0]) - 1 */

/* Parses SPEC, which must parse; returns the selection. */
static struct pg_select parse_ok(const char *spec)
{
	struct pg_select sel;
	char err[512] = "";

	ck_assert_msg(pg_select_parse(spec, &sel, err, sizeof(err)) == 0,
		      "'%s' refused: %s", spec, err);
	return sel;
}

/* Asserts that the N ints GOT are WANT. */
static void assert_ints(const int *got, int ngot, const int *want, int n)
{
	ck_assert_int_eq(ngot, n);
	for (int i = 0; i < n; i++)
		ck_assert_msg(got[i] == want[i], "[%d] = %d, want %d", i, got[i],
			      want[i]);
}

/* Asserts that A and B are the same selection. */
static void assert_same(const struct pg_select *a, const struct pg_select *b)
{
	ck_assert_int_eq(a->active, b->active);
	assert_ints(a->tags, a->ntags, b->tags, b->ntags);
	assert_ints(a->ltids, a->nltids, b->ltids, b->nltids);
	ck_assert_int_eq(a->nprogs, b->nprogs);
	for (int i = 0; i < a->nprogs; i++)
		ck_assert_str_eq(a->progs[i], b->progs[i]);
	ck_assert_int_eq(a->clock_off, b->clock_off);
}

START_TEST(test_parse_full)
{
	struct pg_select sel = parse_ok("tag=5,7 ltid=1,1001 program=racy");

	ck_assert_int_eq(sel.active, 1);
	assert_ints(sel.tags, sel.ntags, (int[]){ 5, 7 }, 2);
	assert_ints(sel.ltids, sel.nltids, (int[]){ 1, 1001 }, 2);
	ck_assert_int_eq(sel.nprogs, 1);
	ck_assert_str_eq(sel.progs[0], "racy");
}
END_TEST

/* The same selection with every separator a parse accepts. */
START_TEST(test_parse_separators)
{
	struct pg_select want = parse_ok("tag=5,7 ltid=1,1001 program=racy,sor");
	static const char *const specs[] = {
		"tag=5,7;ltid=1,1001;program=racy,sor",
		"  tag=5,7\tltid=1,1001\n program=racy,sor ; ",
		";;tag=5,7 ;; ltid=1,1001;program=racy,sor;",
		/* a key given twice adds to its list */
		"tag=5 ltid=1 tag=7 program=racy ltid=1001 program=sor",
	};

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct pg_select sel = parse_ok(specs[i]);

		assert_same(&sel, &want);
	}
}
END_TEST

START_TEST(test_parse_nothing)
{
	static const char *const specs[] = { "", " ", ";", " ;\t; " };

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct pg_select sel;
		char err[512] = "";

		/* whatever SEL held before */
		memset(&sel, 0x5a, sizeof(sel));
		ck_assert_int_eq(pg_select_parse(specs[i], &sel, err, sizeof(err)),
				 0);
		ck_assert_int_eq(sel.active, 0);
		ck_assert_int_eq(sel.ntags, 0);
		ck_assert_int_eq(sel.nltids, 0);
		ck_assert_int_eq(sel.nprogs, 0);
	}
}
END_TEST

START_TEST(test_parse_each_key_alone)
{
	struct pg_select sel = parse_ok("tag=0");

	ck_assert_int_eq(sel.active, 1);
	assert_ints(sel.tags, sel.ntags, (int[]){ 0 }, 1);
	sel = parse_ok("ltid=1002");
	ck_assert_int_eq(sel.active, 1);
	ck_assert_int_eq(sel.ntags, 0);
	assert_ints(sel.ltids, sel.nltids, (int[]){ 1002 }, 1);
	sel = parse_ok("program=a.out");
	ck_assert_int_eq(sel.active, 1);
	ck_assert_int_eq(sel.nprogs, 1);
	ck_assert_str_eq(sel.progs[0], "a.out");
}
END_TEST

/* Writes "KEY=FROM,FROM+1,..,FROM+N-1" into BUF. */
static void int_list(char *buf, size_t size, const char *key, int from, int n)
{
	size_t k = (size_t)snprintf(buf, size, "%s=", key);

	for (int i = 0; i < n; i++)
		k += (size_t)snprintf(buf + k, size - k, "%s%d", i ? "," : "",
				      from + i);
	ck_assert_uint_lt(k, size);
}

/* Writes "program=" and N names of LEN letters ('a' + i each). */
static void name_list(char *buf, size_t size, int n, int len)
{
	size_t k = (size_t)snprintf(buf, size, "program=");

	for (int i = 0; i < n; i++) {
		if (i)
			buf[k++] = ',';
		ck_assert_uint_lt(k + (size_t)len + 1, size);
		memset(buf + k, 'a' + i, (size_t)len);
		k += (size_t)len;
	}
	buf[k] = '\0';
}

START_TEST(test_parse_limits)
{
	char spec[8192], two[8192];
	struct pg_select sel;

	int_list(spec, sizeof(spec), "tag", 100, PG_SELECT_INTS);
	sel = parse_ok(spec);
	ck_assert_int_eq(sel.ntags, PG_SELECT_INTS);
	ck_assert_int_eq(sel.tags[PG_SELECT_INTS - 1], 100 + PG_SELECT_INTS - 1);
	int_list(spec, sizeof(spec), "ltid", 1000, PG_SELECT_INTS);
	sel = parse_ok(spec);
	ck_assert_int_eq(sel.nltids, PG_SELECT_INTS);
	/* the limit counts a key's entries over all its lists */
	int_list(spec, sizeof(spec), "tag", 1, PG_SELECT_INTS / 2);
	int_list(two, sizeof(two), "tag", 1000, PG_SELECT_INTS / 2);
	strcat(spec, " ");
	strcat(spec, two);
	sel = parse_ok(spec);
	ck_assert_int_eq(sel.ntags, PG_SELECT_INTS);
	name_list(spec, sizeof(spec), PG_SELECT_NAMES, NAME_MAX_LEN);
	sel = parse_ok(spec);
	ck_assert_int_eq(sel.nprogs, PG_SELECT_NAMES);
	ck_assert_uint_eq(strlen(sel.progs[PG_SELECT_NAMES - 1]), NAME_MAX_LEN);
	ck_assert_int_eq(sel.progs[PG_SELECT_NAMES - 1][0],
			 'a' + PG_SELECT_NAMES - 1);
}
END_TEST

/* Bad selections and the part each error must quote. */
static const struct {
	const char *spec, *bad;
} bad_specs[] = {
	{ "colour=red", "colour=red" },
	{ "clock=maybe", "clock=maybe" },
	{ "clock=", "clock=" },
	{ "tag=5 clock=offf", "clock=offf" },
	{ "tag=5 colour=red ltid=1", "colour=red" },
	{ "tags=5", "tags=5" },
	{ "TAG=5", "TAG=5" },
	{ "=5", "=5" },
	{ "tag", "tag" },
	{ "tag=", "tag=" },
	{ "tag=5 ltid=", "ltid=" },
	{ "program=", "program=" },
	{ "tag=x", "tag=x" },
	{ "tag=5x", "tag=5x" },
	{ "ltid=1.5", "ltid=1.5" },
	{ "tag=5,,7", "tag=5,,7" },
	{ "ltid=,1", "ltid=,1" },
	{ "program=racy,,sor", "program=racy,,sor" },
	{ "program=,racy", "program=,racy" },
	{ "ltid=1;tag=five", "tag=five" },
	/* out of an int's range: never cut to another number */
	{ "tag=4294967301", "tag=4294967301" },
	{ "ltid=2147483648", "ltid=2147483648" },
	{ "tag=-2147483649", "tag=-2147483649" },
	{ "tag=5,", "tag=5," },
	/* a path could never match: programs are base names */
	{ "program=dir/racy", "program=dir/racy" },
	{ "program=racy,/bin/sor", "program=racy,/bin/sor" },
};
#define NBAD_SPECS (int)(sizeof(bad_specs) / sizeof(bad_specs[0]))

/* Asserts that SPEC is refused with an error quoting BAD. */
static void assert_refused(const char *spec, const char *bad)
{
	struct pg_select sel;
	char err[16384] = "", want[16384];

	ck_assert_msg(pg_select_parse(spec, &sel, err, sizeof(err)) == -1,
		      "'%.80s' accepted", spec);
	snprintf(want, sizeof(want),
		 "bad selection '%s' (want tag=N,.. ltid=N,.. program=NAME,.. "
		 "clock=on|off)",
		 bad);
	ck_assert_str_eq(err, want);
}

START_TEST(test_parse_refusals)
{
	assert_refused(bad_specs[_i].spec, bad_specs[_i].bad);
}
END_TEST

START_TEST(test_parse_too_many)
{
	char spec[8192], two[8192];

	int_list(spec, sizeof(spec), "tag", 1, PG_SELECT_INTS + 1);
	assert_refused(spec, spec);
	int_list(spec, sizeof(spec), "ltid", 1, PG_SELECT_INTS + 1);
	assert_refused(spec, spec);
	/* over two lists: the one that goes past the limit is named */
	int_list(spec, sizeof(spec), "ltid", 1, PG_SELECT_INTS);
	int_list(two, sizeof(two), "ltid", 5000, 1);
	strcat(spec, ";");
	strcat(spec, two);
	assert_refused(spec, "ltid=5000");
	name_list(spec, sizeof(spec), PG_SELECT_NAMES + 1, 3);
	assert_refused(spec, spec);
}
END_TEST

START_TEST(test_parse_name_too_long)
{
	char spec[256];

	name_list(spec, sizeof(spec), 1, NAME_MAX_LEN + 1);
	assert_refused(spec, spec);
	/* in a list of good names */
	snprintf(spec, sizeof(spec), "program=racy,%0*d", NAME_MAX_LEN + 1, 7);
	assert_refused(spec, spec);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The canonical form. */

/* pg_select_format of SPEC's selection (a big enough buffer). */
static const char *canonical(const char *spec)
{
	static char buf[8192];
	struct pg_select sel = parse_ok(spec);

	pg_select_format(&sel, buf, sizeof(buf));
	return buf;
}

START_TEST(test_format_canonical)
{
	ck_assert_str_eq(canonical("tag=5,7 ltid=1,1001 program=racy"),
			 "tag=5,7 ltid=1,1001 program=racy");
	/* keys in one order, lists joined, separators one blank */
	ck_assert_str_eq(canonical("program=b;ltid=3 ;tag=9 tag=2 program=a"),
			 "tag=9,2 ltid=3 program=b,a");
	ck_assert_str_eq(canonical("ltid=1"), "ltid=1");
	ck_assert_str_eq(canonical("program=x,y"), "program=x,y");
	ck_assert_str_eq(canonical("ltid=4 program=x"), "ltid=4 program=x");
	ck_assert_str_eq(canonical("tag=-3"), "tag=-3");
	ck_assert_str_eq(canonical(""), "");
	ck_assert_str_eq(canonical(" ; "), "");
	/* clock=off last; clock=on is the default, said by nothing */
	ck_assert_str_eq(canonical("clock=off tag=5"), "tag=5 clock=off");
	ck_assert_str_eq(canonical("clock=off"), "clock=off");
	ck_assert_str_eq(canonical("clock=on"), "");
	ck_assert_str_eq(canonical("clock=off clock=on ltid=2"), "ltid=2");
}
END_TEST

/* clock=off leaves the clock out and selects nothing else. */
START_TEST(test_parse_clock)
{
	struct pg_select sel = parse_ok("clock=off");

	ck_assert_int_eq(sel.clock_off, 1);
	ck_assert_int_eq(sel.active, 0);
	ck_assert_int_eq(pg_select_task(&sel, 7, "/bin/x"), 1);
	ck_assert_int_eq(pg_select_tag(&sel, 9), 1);
	sel = parse_ok("tag=5 clock=on");
	ck_assert_int_eq(sel.clock_off, 0);
	ck_assert_int_eq(sel.active, 1);
}
END_TEST

/* Asserts parse(format(parse(SPEC))) == parse(SPEC). */
static void assert_round_trip(const char *spec)
{
	struct pg_select a = parse_ok(spec), b;
	char text[8192];

	pg_select_format(&a, text, sizeof(text));
	b = parse_ok(text);
	assert_same(&b, &a);
	/* and the canonical form is its own canonical form */
	ck_assert_str_eq(canonical(text), text);
}

START_TEST(test_format_round_trip)
{
	char spec[8192], part[8192];

	assert_round_trip("tag=5,7 ltid=1,1001 program=racy");
	assert_round_trip("ltid=1;ltid=2 tag=0");
	assert_round_trip("program=a,b,c");
	assert_round_trip("tag=2147483647 ltid=-2147483648");
	assert_round_trip("");
	/* everything at its limit */
	int_list(spec, sizeof(spec), "tag", 1000000, PG_SELECT_INTS);
	int_list(part, sizeof(part), "ltid", 1000000, PG_SELECT_INTS);
	strcat(spec, " ");
	strcat(spec, part);
	name_list(part, sizeof(part), PG_SELECT_NAMES, NAME_MAX_LEN);
	strcat(spec, " ");
	strcat(spec, part);
	assert_round_trip(spec);
}
END_TEST

START_TEST(test_format_small_buffer)
{
	struct pg_select sel = parse_ok("tag=5,7 ltid=1,1001 program=racy");
	char buf[40];

	/* "tag=5,7 ltid=1,1001 program=racy" is 32 characters */
	ck_assert_int_eq(pg_select_format(&sel, buf, 32), -1);
	ck_assert_int_eq(pg_select_format(&sel, buf, 33), 0);
	ck_assert_str_eq(buf, "tag=5,7 ltid=1,1001 program=racy");
	for (size_t n = 1; n <= 20; n++) {
		memset(buf, '#', sizeof(buf));
		ck_assert_int_eq(pg_select_format(&sel, buf, n), -1);
		ck_assert_msg(memchr(buf, '\0', n) != NULL,
			      "size %zu: not terminated", n);
		for (size_t k = n; k < sizeof(buf); k++)
			ck_assert_msg(buf[k] == '#', "size %zu: wrote at %zu", n, k);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* What is selected. */

START_TEST(test_task_everyone)
{
	/* no ltid= and no program=: every task, whatever its tags */
	struct pg_select all = parse_ok(""), tags = parse_ok("tag=5");

	ck_assert_int_eq(pg_select_task(&all, 1, "racy"), 1);
	ck_assert_int_eq(pg_select_task(&all, 0, "/usr/bin/pangaea"), 1);
	ck_assert_int_eq(pg_select_task(&tags, 1001, "/x/sor"), 1);
	ck_assert_int_eq(pg_select_task(&tags, 2, ""), 1);
}
END_TEST

START_TEST(test_task_by_ltid)
{
	struct pg_select sel = parse_ok("ltid=1,1001");

	ck_assert_int_eq(pg_select_task(&sel, 1, "racy"), 1);
	ck_assert_int_eq(pg_select_task(&sel, 1001, "racy"), 1);
	ck_assert_int_eq(pg_select_task(&sel, 1002, "racy"), 0);
	ck_assert_int_eq(pg_select_task(&sel, 0, "racy"), 0);
	ck_assert_int_eq(pg_select_task(&sel, 1001001, "racy"), 0);
}
END_TEST

START_TEST(test_task_by_program)
{
	struct pg_select sel = parse_ok("program=racy,sor");

	/* the program's base name counts */
	ck_assert_int_eq(pg_select_task(&sel, 5, "racy"), 1);
	ck_assert_int_eq(pg_select_task(&sel, 5, "/work/build/examples/racy"), 1);
	ck_assert_int_eq(pg_select_task(&sel, 5, "./sor"), 1);
	ck_assert_int_eq(pg_select_task(&sel, 5, "/work/racy/pollers"), 0);
	ck_assert_int_eq(pg_select_task(&sel, 5, "/bin/racy2"), 0);
	ck_assert_int_eq(pg_select_task(&sel, 5, "/bin/rac"), 0);
	ck_assert_int_eq(pg_select_task(&sel, 5, "RACY"), 0);
}
END_TEST

START_TEST(test_task_ltid_or_program)
{
	/* a task is selected by its ltid or by its program */
	struct pg_select sel = parse_ok("ltid=1 program=sor tag=3");

	ck_assert_int_eq(pg_select_task(&sel, 1, "/bin/racy"), 1);
	ck_assert_int_eq(pg_select_task(&sel, 1002, "/bin/sor"), 1);
	ck_assert_int_eq(pg_select_task(&sel, 1002, "/bin/racy"), 0);
}
END_TEST

START_TEST(test_tag)
{
	struct pg_select all = parse_ok("ltid=1"), sel = parse_ok("tag=5,7");

	/* no tag=: every tag */
	ck_assert_int_eq(pg_select_tag(&all, 0), 1);
	ck_assert_int_eq(pg_select_tag(&all, 99), 1);
	ck_assert_int_eq(pg_select_tag(&all, -1), 1);
	ck_assert_int_eq(pg_select_tag(&sel, 5), 1);
	ck_assert_int_eq(pg_select_tag(&sel, 7), 1);
	ck_assert_int_eq(pg_select_tag(&sel, 6), 0);
	ck_assert_int_eq(pg_select_tag(&sel, 0), 0);
	/* a receive for any tag is always selected */
	ck_assert_int_eq(pg_select_tag(&sel, -1), 1);
}
END_TEST

static Suite *select_suite(void)
{
	Suite *s = suite_create("select");
	TCase *parse = tcase_create("parse");
	TCase *format = tcase_create("format");
	TCase *rule = tcase_create("rule");

	tcase_add_test(parse, test_parse_full);
	tcase_add_test(parse, test_parse_separators);
	tcase_add_test(parse, test_parse_nothing);
	tcase_add_test(parse, test_parse_each_key_alone);
	tcase_add_test(parse, test_parse_limits);
	tcase_add_test(parse, test_parse_clock);
	tcase_add_loop_test(parse, test_parse_refusals, 0, NBAD_SPECS);
	tcase_add_test(parse, test_parse_too_many);
	tcase_add_test(parse, test_parse_name_too_long);
	suite_add_tcase(s, parse);

	tcase_add_test(format, test_format_canonical);
	tcase_add_test(format, test_format_round_trip);
	tcase_add_test(format, test_format_small_buffer);
	suite_add_tcase(s, format);

	tcase_add_test(rule, test_task_everyone);
	tcase_add_test(rule, test_task_by_ltid);
	tcase_add_test(rule, test_task_by_program);
	tcase_add_test(rule, test_task_ltid_or_program);
	tcase_add_test(rule, test_tag);
	suite_add_tcase(s, rule);
	return s;
}

int main(void)
{
	return cku_run(select_suite());
}
