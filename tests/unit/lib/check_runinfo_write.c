/*
 * check_runinfo_write.c: writing run.info (logs/format/runinfo.c): by a new
 * temporary file renamed over it, so a link planted there is replaced,
 * never followed, and a failed write is an error that leaves the old
 * run.info whole and no temporary file behind.
 */
#include "pangaea-logs.h"
#include "checkutil.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Fills RI with a run of two tasks. */
static void fill(struct pg_runinfo *ri, int status)
{
	struct pg_runinfo_task t = { .ltid = 1, .tid = 0x40003, .how = 1 };

	memset(ri, 0, sizeof(*ri));
	snprintf(ri->mode, sizeof(ri->mode), "record");
	snprintf(ri->ended, sizeof(ri->ended), "2026-01-01T00:00:00Z");
	snprintf(ri->launcher_host, sizeof(ri->launcher_host), "vm");
	snprintf(ri->command, sizeof(ri->command), "pangaea -log sor 2");
	snprintf(t.host, sizeof(t.host), "vm");
	snprintf(t.program, sizeof(t.program), "/bin/sor");
	snprintf(t.end_text, sizeof(t.end_text), "ended normally");
	ck_assert_int_eq(pg_runinfo_add_task(ri, &t), 0);
	t.ltid = 1001;
	ck_assert_int_eq(pg_runinfo_add_task(ri, &t), 0);
	ri->status = status;
}

/* The whole content of PATH (at most 4 KiB) into BUF. */
static const char *slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t k;

	ck_assert_ptr_nonnull(f);
	k = fread(buf, 1, n - 1, f);
	buf[k] = '\0';
	fclose(f);
	return buf;
}

/* Reads cku_dir's run.info (of fill's two tasks) into BACK, after
 * making the log of each task that ended, which the reader wants. */
static void read_back(struct pg_runinfo *back)
{
	char path[PATH_MAX], err[512] = "";

	for (int i = 0; i < 2; i++) {
		cku_in_dir(path, sizeof(path), i ? "task-1001.comm" : "task-1.comm");
		fclose(fopen(path, "w"));
	}
	ck_assert_msg(pg_runinfo_read(cku_dir, back, err, sizeof(err)) == 1,
		      "%s", err);
}

/* How many entries of cku_dir start with ".run.info." (temporaries). */
static int temporaries(void)
{
	DIR *d = opendir(cku_dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += strncmp(e->d_name, ".run.info.", 10) == 0;
	closedir(d);
	return n;
}

START_TEST(test_round_trip_private)
{
	struct pg_runinfo ri, back;
	char path[PATH_MAX], err[512] = "";
	struct stat st;
	mode_t old = umask(0);

	fill(&ri, 3);
	ck_assert_msg(pg_runinfo_write(cku_dir, &ri, err, sizeof(err)) == 0,
		      "%s", err);
	umask(old);
	cku_in_dir(path, sizeof(path), "run.info");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	read_back(&back);
	ck_assert_int_eq(back.status, 3);
	ck_assert_uint_eq(back.ntasks, 2);
	ck_assert_int_eq(back.tasks[1].ltid, 1001);
	ck_assert_str_eq(back.command, "pangaea -log sor 2");
	ck_assert_int_eq(back.chaos, 0);
	ck_assert_int_eq(temporaries(), 0);
	pg_runinfo_free(&back);
	/* a chaos recording keeps its seed (version 2) */
	ri.chaos = 1;
	ri.chaos_seed = 4000000000u;
	cku_in_dir(path, sizeof(path), "run.info");
	unlink(path);
	ck_assert_msg(pg_runinfo_write(cku_dir, &ri, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_msg(pg_runinfo_read(cku_dir, &back, err, sizeof(err)) == 1,
		      "%s", err);
	ck_assert_int_eq(back.version, 2);
	ck_assert_int_eq(back.chaos, 1);
	ck_assert_uint_eq(back.chaos_seed, 4000000000u);
	pg_runinfo_free(&ri);
	pg_runinfo_free(&back);
}
END_TEST

/* The hosts' architectures (arch lines, issue 26) come back; a run.info
 * without them names none, and a bad one is refused with its line. */
START_TEST(test_archs_round_trip)
{
	struct pg_runinfo ri, back;
	char path[PATH_MAX], err[512] = "";
	FILE *f;

	fill(&ri, 0);
	ck_assert_ptr_null(pg_runinfo_arch(&ri, "h3"));
	ck_assert_int_eq(pg_runinfo_add_arch(&ri, "h1", "LINUX64"), 0);
	ck_assert_int_eq(pg_runinfo_add_arch(&ri, "h3", "LINUXS390"), 0);
	ck_assert_msg(pg_runinfo_write(cku_dir, &ri, err, sizeof(err)) == 0,
		      "%s", err);
	read_back(&back);
	ck_assert_uint_eq(back.narchs, 2);
	ck_assert_str_eq(pg_runinfo_arch(&back, "h3"), "LINUXS390");
	ck_assert_str_eq(pg_runinfo_arch(&back, "h1"), "LINUX64");
	ck_assert_ptr_null(pg_runinfo_arch(&back, "h2"));
	pg_runinfo_free(&back);
	pg_runinfo_free(&ri);
	cku_in_dir(path, sizeof(path), "run.info");
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fprintf(f, "pangaea-run 2\nmode record\narch h1\nstatus 0\n");
	fclose(f);
	ck_assert_int_eq(pg_runinfo_read(cku_dir, &back, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "run.info:3: cannot parse this arch line"),
		      "message: %s", err);
}
END_TEST

/* A version 1 run.info (no chaos-seed line) is still read. */
START_TEST(test_version_1_read)
{
	struct pg_runinfo ri;
	char path[PATH_MAX], err[512] = "";
	FILE *f;

	cku_in_dir(path, sizeof(path), "run.info");
	unlink(path);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fprintf(f, "pangaea-run 1\nmode record\ncommand pangaea -log x\n"
		"select all\nstatus 0\n");
	fclose(f);
	ck_assert_msg(pg_runinfo_read(cku_dir, &ri, err, sizeof(err)) == 1,
		      "%s", err);
	ck_assert_int_eq(ri.version, 1);
	ck_assert_int_eq(ri.chaos, 0);
	pg_runinfo_free(&ri);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fprintf(f, "pangaea-run 3\n");
	fclose(f);
	ck_assert_int_eq(pg_runinfo_read(cku_dir, &ri, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "format version 3, this Pangaea reads "
			     "version 2 (and 1)"), "message: %s", err);
}
END_TEST

/* A link planted as run.info is replaced; its target keeps its bytes. */
START_TEST(test_planted_link_replaced)
{
	struct pg_runinfo ri;
	char path[PATH_MAX], target[PATH_MAX], err[512] = "", buf[4096];
	struct stat st;
	FILE *f;

	cku_in_dir(target, sizeof(target), "precious");
	f = fopen(target, "w");
	ck_assert_ptr_nonnull(f);
	fputs("secret\n", f);
	fclose(f);
	cku_in_dir(path, sizeof(path), "run.info");
	ck_assert_int_eq(symlink(target, path), 0);
	fill(&ri, 0);
	ck_assert_msg(pg_runinfo_write(cku_dir, &ri, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_str_eq(slurp(target, buf, sizeof(buf)), "secret\n");
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert(strncmp(slurp(path, buf, sizeof(buf)), "pangaea-run ", 12) == 0);
	pg_runinfo_free(&ri);
}
END_TEST

/* A write that fails (here: past the file size limit, as on a full disk)
 * is an error naming run.info and why; the old run.info stays whole. */
START_TEST(test_write_error_said)
{
	struct pg_runinfo ri;
	char path[PATH_MAX], err[512] = "", before[4096], after[4096];
	struct rlimit lim = { 64, 64 };

	fill(&ri, 0);
	ck_assert_msg(pg_runinfo_write(cku_dir, &ri, err, sizeof(err)) == 0,
		      "%s", err);
	cku_in_dir(path, sizeof(path), "run.info");
	slurp(path, before, sizeof(before));
	ri.status = 2;
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	ck_assert_int_eq(pg_runinfo_write(cku_dir, &ri, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "cannot write") && strstr(err, path) &&
		      strstr(err, strerror(EFBIG)), "message: %s", err);
	ck_assert_str_eq(slurp(path, after, sizeof(after)), before);
	ck_assert_int_eq(temporaries(), 0);
	pg_runinfo_free(&ri);
}
END_TEST

/* A folder that is not there: said, naming run.info. */
START_TEST(test_no_folder)
{
	struct pg_runinfo ri;
	char dir[PATH_MAX], err[512] = "";

	fill(&ri, 0);
	cku_in_dir(dir, sizeof(dir), "no-such-dir");
	ck_assert_int_eq(pg_runinfo_write(dir, &ri, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "no-such-dir/run.info") &&
		      strstr(err, strerror(ENOENT)), "message: %s", err);
	pg_runinfo_free(&ri);
}
END_TEST

static Suite *runinfo_write_suite(void)
{
	Suite *s = suite_create("runinfo_write");
	TCase *tc = tcase_create("write");

	cku_add_tmp_fixtures(tc);
	tcase_add_test(tc, test_round_trip_private);
	tcase_add_test(tc, test_version_1_read);
	tcase_add_test(tc, test_archs_round_trip);
	tcase_add_test(tc, test_planted_link_replaced);
	tcase_add_test(tc, test_write_error_said);
	tcase_add_test(tc, test_no_folder);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(runinfo_write_suite());
}
