/*
 * check_execlog.c: unit tests of the text execution log (logs/format/execlog.c):
 * round trips of awkward strings and failed slots, hand edits, refusals.
 */
#include "pangaea-logs.h"
#include "checkutil.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whole text of PATH (malloc'd). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	return s;
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

/* Fills REC (pointing at ARGV and SLOTS, owned by the caller). */
static void set_rec(struct pg_spawn_rec *rec, int seq, const char *file,
		    int flags, const char *where, int started, int argc,
		    char **argv, int ntask, struct pg_spawn_slot *slots)
{
	memset(rec, 0, sizeof(*rec));
	rec->seq = seq;
	snprintf(rec->file, sizeof(rec->file), "%s", file);
	rec->flags = flags;
	snprintf(rec->where, sizeof(rec->where), "%s", where);
	rec->ntask = ntask;
	rec->started = started;
	rec->argc = argc;
	rec->argv = argv;
	rec->slots = slots;
}

static struct pg_spawn_slot ok_slot(int ltid, const char *host)
{
	struct pg_spawn_slot s = { .ltid = ltid };

	snprintf(s.host, sizeof(s.host), "%s", host);
	return s;
}

static struct pg_spawn_slot bad_slot(int err)
{
	struct pg_spawn_slot s = { .ltid = 0, .err = err };

	return s;
}

/* Asserts that GOT equals WANT, field by field (record index I). */
static void assert_rec(const struct pg_spawn_rec *got,
		       const struct pg_spawn_rec *want, int i)
{
	ck_assert_msg(got->seq == want->seq, "rec %d: seq %d", i, got->seq);
	ck_assert_msg(strcmp(got->file, want->file) == 0, "rec %d: file '%s'",
		      i, got->file);
	ck_assert_msg(got->flags == want->flags, "rec %d: flags %d", i,
		      got->flags);
	ck_assert_msg(strcmp(got->where, want->where) == 0,
		      "rec %d: where '%s'", i, got->where);
	ck_assert_msg(got->ntask == want->ntask, "rec %d: ntask %d", i,
		      got->ntask);
	ck_assert_msg(got->started == want->started, "rec %d: started %d", i,
		      got->started);
	ck_assert_msg(got->argc == want->argc, "rec %d: argc %d, want %d", i,
		      got->argc, want->argc);
	ck_assert_msg(got->argv != NULL, "rec %d: argv NULL", i);
	for (int k = 0; k < want->argc; k++)
		ck_assert_msg(strcmp(got->argv[k], want->argv[k]) == 0,
			      "rec %d: argv[%d] '%s', want '%s'", i, k,
			      got->argv[k], want->argv[k]);
	ck_assert_msg(got->argv[got->argc] == NULL,
		      "rec %d: argv not NULL-terminated", i);
	ck_assert_msg(want->ntask == 0 || got->slots != NULL, "rec %d: no slots",
		      i);
	for (int k = 0; k < want->ntask; k++) {
		const struct pg_spawn_slot *g = &got->slots[k], *w = &want->slots[k];

		ck_assert_msg(g->ltid == w->ltid, "rec %d slot %d: ltid %d, want %d",
			      i, k, g->ltid, w->ltid);
		ck_assert_msg(g->err == w->err, "rec %d slot %d: err %d, want %d",
			      i, k, g->err, w->err);
		ck_assert_msg(strcmp(g->host, w->host) == 0,
			      "rec %d slot %d: host '%s', want '%s'", i, k,
			      g->host, w->host);
	}
}

/* Writes RECS[0..n) to PATH for task LTID. */
static void write_log(const char *path, int ltid,
		      const struct pg_spawn_rec *recs, int n)
{
	char err[512] = "";
	int fd = pg_exec_create(path, ltid, err, sizeof(err));

	ck_assert_msg(fd >= 0, "%s", err);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(pg_exec_append(fd, &recs[i]), 0);
	ck_assert_int_eq(close(fd), 0);
}

/* Reads PATH, asserting it holds RECS[0..n) of task LTID. */
static void assert_log(const char *path, int ltid,
		       const struct pg_spawn_rec *recs, int n)
{
	struct pg_exec_log log;
	char err[512] = "";

	ck_assert_msg(pg_exec_read(path, &log, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_int_eq(log.ltid, ltid);
	ck_assert_int_eq(log.nspawn, n);
	for (int i = 0; i < n; i++)
		assert_rec(&log.spawns[i], &recs[i], i);
	pg_exec_free(&log);
	ck_assert_int_eq(log.nspawn, 0);
	ck_assert_ptr_null(log.spawns);
}

/* The plain spawn of the format's example: sor, 3 tasks on vm. */
static char *sor_argv[] = { "4", "100", NULL };
static struct pg_spawn_slot sor_slots[3];

static void sor_rec(struct pg_spawn_rec *rec)
{
	sor_slots[0] = ok_slot(1001, "vm");
	sor_slots[1] = ok_slot(1002, "vm");
	sor_slots[2] = ok_slot(1003, "vm");
	set_rec(rec, 1, "sor", 0, "", 3, 2, sor_argv, 3, sor_slots);
}

/* Awkward strings, empty argv, failed slots mixed with started ones. */
START_TEST(test_round_trip_tricky)
{
	static char *argv2[] = {
		"two words", "say \"hi\"", "back\\slash", "\\", "new\nline",
		"tab\there", "bell\a and \x01 and del\x7f", "", "  padded  ",
		"] tasks=[1@x", "#not a comment", "caf\xc3\xa9", "\\x41\\n",
		NULL
	};
	static char *argv_empty[] = { NULL };
	struct pg_spawn_slot s2[5], s3[1], s4[2];
	struct pg_spawn_rec recs[5];
	char path[PATH_MAX];

	sor_rec(&recs[0]);
	s2[0] = ok_slot(1004, "node-1");
	s2[1] = bad_slot(-7);
	s2[2] = ok_slot(1005, "node.2.example.org");
	s2[3] = bad_slot(-6);
	s2[4] = ok_slot(1006, "10.0.0.7");
	set_rec(&recs[1], 2, "/opt/my \"prog\"\\dir/a.out", 0x15,
		"where \"quoted\"\ttab\n", 3, 13, argv2, 5, s2);
	s3[0] = bad_slot(-7);
	set_rec(&recs[2], 3, "missing", 0, "", 0, 0, argv_empty, 1, s3);
	set_rec(&recs[3], 4, "none", 0, "", 0, 0, argv_empty, 0, NULL);
	s4[0] = bad_slot(-2);
	s4[1] = ok_slot(1999, "h");
	set_rec(&recs[4], 5, "", -1, "", 1, 1, (char *[]){ "x", NULL }, 2, s4);

	cku_in_dir(path, sizeof(path), "task-1.exec");
	write_log(path, 1, recs, 5);
	assert_log(path, 1, recs, 5);
}
END_TEST

/* The documented text form: one spawn a line, escapes, !CODE for failures. */
START_TEST(test_text_form)
{
	static char *argv2[] = { "a\"b", "c\\d", "e\nf", "g\th", "\x02", NULL };
	struct pg_spawn_slot s2[2] = { bad_slot(-7), ok_slot(2001, "vm") };
	struct pg_spawn_rec recs[2];
	char path[PATH_MAX], *text, *line2;
	int lines = 0;

	sor_rec(&recs[0]);
	set_rec(&recs[1], 2, "w", 4, "vm", 1, 5, argv2, 2, s2);
	cku_in_dir(path, sizeof(path), "task-2.exec");
	write_log(path, 2, recs, 2);
	text = slurp(path);
	for (char *p = text; *p; p++)
		lines += *p == '\n';
	/* header, comment, one line per spawn */
	ck_assert_int_eq(lines, 4);
	ck_assert_msg(strncmp(text, "pangaea-exec 2 ltid=2\n", 22) == 0,
		      "header: %s", text);
	ck_assert_msg(strstr(text, "\nspawn 1 file=\"sor\" flags=0 where=\"\" "
			     "ntask=3 started=3 argv=[\"4\" \"100\"] "
			     "tasks=[1001@vm 1002@vm 1003@vm]\n"),
		      "text: %s", text);
	line2 = strstr(text, "\nspawn 2 ");
	ck_assert_msg(line2 && strcmp(line2, "\nspawn 2 file=\"w\" flags=4 "
				      "where=\"vm\" ntask=2 started=1 "
				      "argv=[\"a\\\"b\" \"c\\\\d\" \"e\\nf\" "
				      "\"g\\th\" \"\\x02\"] "
				      "tasks=[!-7 2001@vm]\n") == 0,
		      "text: %s", text);
	free(text);
}
END_TEST

/* A user edits the host of task 1002 with an editor; replay reads it. */
START_TEST(test_hand_edit_host)
{
	struct pg_spawn_rec rec, want;
	struct pg_spawn_slot want_slots[3];
	char path[PATH_MAX], *text, *at, *edited;
	const char *from = "1002@vm", *to = "1002@otherhost";

	sor_rec(&rec);
	cku_in_dir(path, sizeof(path), "task-1.exec");
	write_log(path, 1, &rec, 1);
	text = slurp(path);
	at = strstr(text, from);
	ck_assert_ptr_nonnull(at);
	edited = malloc(strlen(text) + strlen(to) + 1);
	ck_assert_ptr_nonnull(edited);
	memcpy(edited, text, (size_t)(at - text));
	strcpy(edited + (at - text), to);
	strcat(edited, at + strlen(from));
	spit(path, edited);
	free(text);
	free(edited);

	want = rec;
	memcpy(want_slots, sor_slots, sizeof(want_slots));
	snprintf(want_slots[1].host, sizeof(want_slots[1].host), "otherhost");
	want.slots = want_slots;
	assert_log(path, 1, &want, 1);
}
END_TEST

/* A log written by hand: comments, blank lines, extra blanks, no comment line. */
START_TEST(test_comments_and_blank_lines)
{
	struct pg_spawn_rec want[2];
	struct pg_spawn_slot s2[1] = { ok_slot(1004, "b") };
	char path[PATH_MAX];

	sor_rec(&want[0]);
	set_rec(&want[1], 2, "x", 0, "", 1, 0, (char *[]){ NULL }, 1, s2);
	cku_in_dir(path, sizeof(path), "task-1.exec");
	spit(path,
	     "pangaea-exec 1 ltid=1\n"
	     "# a comment\n"
	     "\n"
	     "   \n"
	     "\t# an indented comment\n"
	     "spawn 1 file=\"sor\" flags=0 where=\"\" ntask=3 started=3 "
	     "argv=[\"4\" \"100\"] tasks=[1001@vm 1002@vm 1003@vm]\n"
	     "# spawn 9 file=\"commented out\"\n"
	     "\n"
	     "  spawn 2   file=\"x\"  flags=0 where=\"\" ntask=1 started=1 "
	     "argv=[ ] tasks=[ 1004@b ]  \n"
	     "\n");
	assert_log(path, 1, want, 2);
}
END_TEST

/* Header only: a task that spawned nothing. */
START_TEST(test_no_spawns)
{
	char path[PATH_MAX];

	cku_in_dir(path, sizeof(path), "task-77.exec");
	write_log(path, 77, NULL, 0);
	assert_log(path, 77, NULL, 0);
}
END_TEST

/* Many spawns with many and long arguments. */
START_TEST(test_many_records)
{
	enum { NREC = 200, NARG = 12 };
	struct pg_spawn_rec *recs = calloc(NREC, sizeof(*recs));
	char **argv = calloc(NARG + 1, sizeof(char *));
	struct pg_spawn_slot slots[4];
	char path[PATH_MAX];

	ck_assert_ptr_nonnull(recs);
	ck_assert_ptr_nonnull(argv);
	for (int k = 0; k < NARG; k++) {
		size_t len = (size_t)k * 100 + 1;

		argv[k] = malloc(len + 1);
		ck_assert_ptr_nonnull(argv[k]);
		for (size_t j = 0; j < len; j++)
			argv[k][j] = (char)(1 + (j * 7 + (size_t)k) % 126);
		argv[k][len] = '\0';
	}
	for (int k = 0; k < 4; k++)
		slots[k] = k == 2 ? bad_slot(-3) : ok_slot(1000 + k, "vm");
	for (int i = 0; i < NREC; i++)
		set_rec(&recs[i], i + 1, "prog", i, "", 3, i % (NARG + 1), argv,
			4, slots);
	cku_in_dir(path, sizeof(path), "task-1.exec");
	write_log(path, 1, recs, NREC);
	assert_log(path, 1, recs, NREC);
	for (int k = 0; k < NARG; k++)
		free(argv[k]);
	free(argv);
	free(recs);
}
END_TEST

/*
 * A spawn is one line of any length: a task may spawn up to 999 children
 * in one call, and with host names of 63 characters that line is about
 * 69 KB.  The replay must read it back whole.
 */
START_TEST(test_long_spawn_line)
{
	enum { NT = 999 };
	struct pg_spawn_slot *slots = calloc(NT, sizeof(*slots));
	struct pg_spawn_rec recs[2];
	char path[PATH_MAX], host[64];
	struct stat st;

	ck_assert_ptr_nonnull(slots);
	for (int i = 0; i < NT; i++) {
		snprintf(host, sizeof(host), "node-%03d.%s", i % 100,
			 "hpc-cluster.physics.example-university.ac.uk.");
		ck_assert_uint_eq(strlen(host), 54);
		memset(host + 54, 'x', 9);
		host[63] = '\0';
		slots[i] = ok_slot(1001 + i, host);
	}
	set_rec(&recs[0], 1, "worker", 0, "", NT, 0, (char *[]){ NULL }, NT,
		slots);
	set_rec(&recs[1], 2, "worker", 0, "", NT, 0, (char *[]){ NULL }, NT,
		slots);
	cku_in_dir(path, sizeof(path), "task-1.exec");
	write_log(path, 1, recs, 2);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_gt(st.st_size, 2 * 64 * 1024); /* two lines over 64 KiB */
	assert_log(path, 1, recs, 2);
	free(slots);
}
END_TEST

/* Arguments of any length (pvm_spawn's argv is the program's) read back. */
START_TEST(test_long_argument)
{
	char *arg = malloc(5001), path[PATH_MAX];
	struct pg_spawn_slot slot = ok_slot(1001, "vm");
	struct pg_spawn_rec rec;

	ck_assert_ptr_nonnull(arg);
	memset(arg, 'a', 5000);
	arg[5000] = '\0';
	set_rec(&rec, 1, "worker", 0, "", 1, 1, (char *[]){ arg, NULL }, 1,
		&slot);
	cku_in_dir(path, sizeof(path), "task-1.exec");
	write_log(path, 1, &rec, 1);
	assert_log(path, 1, &rec, 1);
	free(arg);
}
END_TEST

/* Reading PATH fails; the message contains each of the NULL-ended WANTS. */
static void assert_refused(const char *path, const char *const *wants)
{
	struct pg_exec_log log;
	char err[1024] = "";

	ck_assert_int_eq(pg_exec_read(path, &log, err, sizeof(err)), -1);
	for (; *wants; wants++)
		ck_assert_msg(strstr(err, *wants), "message lacks '%s': %s",
			      *wants, err);
	ck_assert_int_eq(log.nspawn, 0);
	ck_assert_ptr_null(log.spawns);
}

START_TEST(test_refuse_not_exec_log)
{
	char path[PATH_MAX];

	cku_in_dir(path, sizeof(path), "task-1.exec");
	spit(path, "hello world\nspawn 1 file=\"x\"\n");
	assert_refused(path, (const char *[]){ "not a Pangaea execution log",
					       path, NULL });
	spit(path, "PGACOMM\n\x01\x00\x00\x00");
	assert_refused(path, (const char *[]){ "not a Pangaea execution log",
					       NULL });
	/* a comment before the header line is not a header */
	spit(path, "# pangaea-exec 1 ltid=1\n");
	assert_refused(path, (const char *[]){ "not a Pangaea execution log",
					       NULL });
}
END_TEST

START_TEST(test_refuse_other_version)
{
	char path[PATH_MAX];

	cku_in_dir(path, sizeof(path), "task-1.exec");
	spit(path, "pangaea-exec 3 ltid=1\n");
	assert_refused(path, (const char *[]){ "version", "3", path, NULL });
}
END_TEST

/* The launcher's "start" line (-staged, -stagger) is written before its
 * spawns and read back; a version 1 file (none) is still read. */
START_TEST(test_start_line)
{
	struct pg_spawn_rec rec;
	struct pg_exec_log log;
	char path[PATH_MAX], err[512] = "", *text;
	int fd;

	cku_in_dir(path, sizeof(path), "task-0.exec");
	fd = pg_exec_create(path, 0, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	sor_rec(&rec);
	ck_assert_int_eq(pg_exec_append_start(fd, PG_START_STAGGER, 250), 0);
	ck_assert_int_eq(pg_exec_append(fd, &rec), 0);
	ck_assert_int_eq(pg_exec_append_start(fd, 99, 0), -1);
	ck_assert_int_eq(close(fd), 0);
	text = slurp(path);
	ck_assert_msg(strstr(text, "\nstart stagger=250\nspawn 1 "), "%s", text);
	free(text);
	ck_assert_msg(pg_exec_read(path, &log, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(log.start, PG_START_STAGGER);
	ck_assert_int_eq(log.start_ms, 250);
	ck_assert_int_eq(log.nspawn, 1);
	pg_exec_free(&log);

	spit(path, "pangaea-exec 2 ltid=0\nstart staged\n");
	ck_assert_msg(pg_exec_read(path, &log, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(log.start, PG_START_STAGED);
	pg_exec_free(&log);
	spit(path, "pangaea-exec 1 ltid=0\n");
	ck_assert_msg(pg_exec_read(path, &log, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(log.start, PG_START_TOGETHER);
	pg_exec_free(&log);
}
END_TEST

/* A "start" line in a version 1 file, twice, after a spawn, or with a
 * bad value is refused at its line. */
START_TEST(test_refuse_bad_start)
{
	static const char *const bad[] = {
		"pangaea-exec 1 ltid=0\nstart staged\n",
		"pangaea-exec 2 ltid=0\nstart staged\nstart staged\n",
		"pangaea-exec 2 ltid=0\nstart stagger=-5\n",
		"pangaea-exec 2 ltid=0\nstart stagger=4294967297\n",
		"pangaea-exec 2 ltid=0\nstart soon\n",
		"pangaea-exec 2 ltid=0\nstart staged now\n",
	};
	char path[PATH_MAX], where[PATH_MAX + 16];

	cku_in_dir(path, sizeof(path), "task-0.exec");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		spit(path, bad[i]);
		snprintf(where, sizeof(where), "%s:%d: cannot parse", path,
			 i == 1 ? 3 : 2);
		assert_refused(path, (const char *[]){ where, NULL });
	}
}
END_TEST

START_TEST(test_refuse_empty)
{
	char path[PATH_MAX];

	cku_in_dir(path, sizeof(path), "task-1.exec");
	spit(path, "");
	assert_refused(path, (const char *[]){ "empty", path, NULL });
}
END_TEST

START_TEST(test_refuse_missing)
{
	char path[PATH_MAX], err[512] = "";
	struct pg_exec_log log;

	cku_in_dir(path, sizeof(path), "task-404.exec");
	assert_refused(path, (const char *[]){ "cannot read", path, NULL });
	cku_in_dir(path, sizeof(path), "no-dir/task-1.exec");
	ck_assert_int_eq(pg_exec_create(path, 1, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "cannot create"), "message: %s", err);
	(void)log;
}
END_TEST

/* pg_exec_create makes a new file, mode 0600 whatever the umask; a link
 * already at the path is refused and its target left as it was. */
START_TEST(test_create_new_only)
{
	char path[PATH_MAX], target[PATH_MAX], err[512] = "", buf[16] = "";
	struct stat st;
	mode_t old = umask(0);
	FILE *f;
	int fd;

	cku_in_dir(target, sizeof(target), "precious");
	spit(target, "secret");
	cku_in_dir(path, sizeof(path), "task-1.exec");
	ck_assert_int_eq(symlink(target, path), 0);
	ck_assert_int_eq(pg_exec_create(path, 1, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "cannot create") && strstr(err, path),
		      "message: %s", err);
	ck_assert_int_eq(pg_exec_create(target, 1, err, sizeof(err)), -1);
	f = fopen(target, "r");
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "secret");
	cku_in_dir(path, sizeof(path), "task-2.exec");
	fd = pg_exec_create(path, 2, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	close(fd);
	umask(old);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
}
END_TEST

/*
 * Bad lines after good ones: refused with FILE:LINE, and the records
 * already parsed are freed (ASan's leak check would see them otherwise).
 */
static const char *const bad_lines[] = {
	"garbage\n",
	"spawn\n",
	"spawn x file=\"a\" flags=0 where=\"\" ntask=0 started=0 argv=[] tasks=[]\n",
	"spawn 2 file=\"unterminated flags=0 where=\"\" ntask=0 started=0 argv=[] tasks=[]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=1 argv=[\"bad\\q\"] tasks=[5@h]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=1 argv=[\"\\x4\"] tasks=[5@h]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=1 argv=[\"ok\" \"cut\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=1 argv=[\"ok\" noquote] tasks=[5@h]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=2 started=2 argv=[] tasks=[5@h]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=1 argv=[] tasks=[5@h 6@h]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=1 argv=[] tasks=[0@h]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=1 argv=[] tasks=[5@]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=1 argv=[] tasks=[5]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=0 argv=[] tasks=[!x]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=-1 started=0 argv=[] tasks=[]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=0 started=0 argv=[] tasks=[] extra\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=0 started=0 argv=[]\n",
	"spawn 2 file=a flags=0 where=\"\" ntask=0 started=0 argv=[] tasks=[]\n",
	/* integers past 32 bits: never cut to their low bits (1, 1001) */
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=4294967297 started=1 argv=[] tasks=[5@h]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=1 argv=[] tasks=[4294968297@vm]\n",
	"spawn 4294967298 file=\"a\" flags=0 where=\"\" ntask=0 started=0 argv=[] tasks=[]\n",
	"spawn 2 file=\"a\" flags=-4294967296 where=\"\" ntask=0 started=0 argv=[] tasks=[]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=0 argv=[] tasks=[!-4294967298]\n",
	"spawn 2 file=\"a\" flags=0 where=\"\" ntask=1 started=99999999999999999999 argv=[] tasks=[5@h]\n",
};
#define NBAD ((int)(sizeof(bad_lines) / sizeof(bad_lines[0])))

START_TEST(test_refuse_bad_line)
{
	char path[PATH_MAX], text[2048], where[PATH_MAX + 16];

	cku_in_dir(path, sizeof(path), "task-1.exec");
	snprintf(text, sizeof(text),
		 "pangaea-exec 1 ltid=1\n"
		 "# comment\n"
		 "spawn 1 file=\"sor\" flags=0 where=\"\" ntask=3 started=3 "
		 "argv=[\"4\" \"100\"] tasks=[1001@vm 1002@vm 1003@vm]\n"
		 "%s"
		 "spawn 3 file=\"sor\" flags=0 where=\"\" ntask=0 started=0 "
		 "argv=[] tasks=[]\n",
		 bad_lines[_i]);
	spit(path, text);
	snprintf(where, sizeof(where), "%s:4:", path);
	assert_refused(path, (const char *[]){ where, NULL });
}
END_TEST

/* The line number counts comments and blank lines. */
START_TEST(test_refuse_line_number)
{
	char path[PATH_MAX], where[PATH_MAX + 16];

	cku_in_dir(path, sizeof(path), "task-1.exec");
	spit(path, "pangaea-exec 1 ltid=1\n#\n\n#\n\n\n\nnonsense here\n");
	snprintf(where, sizeof(where), "%s:8:", path);
	assert_refused(path, (const char *[]){ where, NULL });
}
END_TEST

/* A NUL byte in a line is refused with its line (the rest of the line
 * would be ignored). */
START_TEST(test_refuse_nul_byte)
{
	static const char text[] =
		"pangaea-exec 1 ltid=1\n"
		"spawn 1 file=\"sor\" flags=0 where=\"\" ntask=0 started=0 "
		"argv=[] tasks=[]\0garbage after the NUL\n";
	char path[PATH_MAX], where[PATH_MAX + 16];
	FILE *f;

	cku_in_dir(path, sizeof(path), "task-1.exec");
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, sizeof(text) - 1, f),
			  sizeof(text) - 1);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(where, sizeof(where), "%s:2:", path);
	assert_refused(path, (const char *[]){ where, "NUL byte", NULL });
}
END_TEST

/* The header line: an ltid past 32 bits, one that is not the file
 * name's, or anything after it is refused at line 1. */
START_TEST(test_refuse_bad_head)
{
	char path[PATH_MAX], where[PATH_MAX + 16];

	cku_in_dir(path, sizeof(path), "task-1.exec");
	snprintf(where, sizeof(where), "%s:1:", path);
	spit(path, "pangaea-exec 1 ltid=4294967297\n");
	assert_refused(path, (const char *[]){ where, NULL });
	spit(path, "pangaea-exec 1 ltid=1 and more\n");
	assert_refused(path, (const char *[]){ where, NULL });
	cku_in_dir(path, sizeof(path), "task-7.exec");
	snprintf(where, sizeof(where), "%s:1:", path);
	spit(path, "pangaea-exec 1 ltid=8\n");
	assert_refused(path, (const char *[]){ where, "ltid=8", NULL });
}
END_TEST

/* A FIFO or a folder where an exec log should be is refused at once by
 * name: not waited on, and a folder is not "empty". */
START_TEST(test_refuse_not_regular)
{
	char path[PATH_MAX], err[512] = "";
	struct pg_exec_log log;

	cku_in_dir(path, sizeof(path), "task-1.exec");
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	alarm(5); /* a blocking open fails the test instead of hanging it */
	assert_refused(path, (const char *[]){ path,
				 "not a regular file (a FIFO)", NULL });
	alarm(0);
	cku_in_dir(path, sizeof(path), "task-2.exec");
	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_int_eq(pg_exec_read(path, &log, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, path) && strstr(err, "is a directory") &&
		      !strstr(err, "empty"), "%s", err);
}
END_TEST

static Suite *execlog_suite(void)
{
	Suite *s = suite_create("execlog");
	TCase *rw = tcase_create("write-read");
	TCase *bad = tcase_create("refusals");

	cku_add_tmp_fixtures(rw);
	tcase_add_test(rw, test_round_trip_tricky);
	tcase_add_test(rw, test_text_form);
	tcase_add_test(rw, test_hand_edit_host);
	tcase_add_test(rw, test_comments_and_blank_lines);
	tcase_add_test(rw, test_no_spawns);
	tcase_add_test(rw, test_many_records);
	tcase_add_test(rw, test_long_spawn_line);
	tcase_add_test(rw, test_long_argument);
	tcase_add_test(rw, test_start_line);
	suite_add_tcase(s, rw);

	cku_add_tmp_fixtures(bad);
	tcase_add_test(bad, test_refuse_not_exec_log);
	tcase_add_test(bad, test_refuse_other_version);
	tcase_add_test(bad, test_refuse_bad_start);
	tcase_add_test(bad, test_refuse_empty);
	tcase_add_test(bad, test_refuse_missing);
	tcase_add_test(bad, test_create_new_only);
	tcase_add_loop_test(bad, test_refuse_bad_line, 0, NBAD);
	tcase_add_test(bad, test_refuse_line_number);
	tcase_add_test(bad, test_refuse_nul_byte);
	tcase_add_test(bad, test_refuse_bad_head);
	tcase_add_test(bad, test_refuse_not_regular);
	suite_add_tcase(s, bad);
	return s;
}

int main(void)
{
	return cku_run(execlog_suite());
}
