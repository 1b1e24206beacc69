/*
 * check_pvmtmp.c: unit tests of the removal of PVM's stale temporary
 * files (pangaea_lib/pvm/pvmtmp.c), in a folder named by PVM_TMP: only the
 * pvmtmpPPPPPP.N files and sockets of the given pid go, and of our own
 * pid the names libpvm tries first.
 */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* Creates cku_dir/NAME holding TEXT. */
static void make_file(const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f = fopen(cku_in_dir(path, sizeof(path), name), "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* Binds a Unix socket at cku_dir/NAME, as a pvmd does, and closes it. */
static void make_socket(const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	ck_assert_int_ge(fd, 0);
	cku_in_dir(sa.sun_path, sizeof(sa.sun_path), name);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
}

/* Whether cku_dir/NAME exists. */
static int exists(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	return lstat(cku_in_dir(path, sizeof(path), name), &st) == 0;
}

static void setup(void)
{
	cku_setup();
	setenv("PVM_TMP", cku_dir, 1);
}

static void teardown(void)
{
	unsetenv("PVM_TMP");
	cku_teardown();
}

START_TEST(test_dir_follows_pvm_tmp)
{
	ck_assert_str_eq(pg_pvmtmp_dir(), cku_dir);
	setenv("PVM_TMP", "", 1);
	ck_assert_str_eq(pg_pvmtmp_dir(), "/tmp");
	unsetenv("PVM_TMP");
	ck_assert_str_eq(pg_pvmtmp_dir(), "/tmp");
}
END_TEST

/* A dead pvmd's socket and auth files go; nothing else does. */
START_TEST(test_removes_only_that_pid)
{
	make_socket("pvmtmp004242.0");
	make_file("pvmtmp004242.1", "/");
	make_file("pvmtmp004242.17", "/");
	make_file("pvmtmp042420.0", "/");      /* another pid */
	make_file("pvmtmp0042420.0", "/");     /* longer pid, same prefix digits */
	make_file("pvmtmp004242.0x", "/");     /* not PVM's name */
	make_file("pvmtmp004242.", "/");       /* no counter */
	make_file("pvmd.0.vm", "x");
	ck_assert_int_eq(mkdir(cku_in_dir((char[PATH_MAX]){ 0 }, PATH_MAX,
					  "pvmtmp004242.3"), 0700), 0);

	ck_assert_int_eq(pg_pvmtmp_clear(4242), 3);
	ck_assert(!exists("pvmtmp004242.0"));
	ck_assert(!exists("pvmtmp004242.1"));
	ck_assert(!exists("pvmtmp004242.17"));
	ck_assert(exists("pvmtmp004242."));
	ck_assert(exists("pvmtmp042420.0"));
	ck_assert(exists("pvmtmp0042420.0"));
	ck_assert(exists("pvmtmp004242.0x"));
	ck_assert(exists("pvmtmp004242.3"));  /* a folder is never PVM's */
	ck_assert(exists("pvmd.0.vm"));
	ck_assert_int_eq(pg_pvmtmp_clear(4242), 0);
}
END_TEST

/* Six-digit padding is a minimum: pids above 999999 have more digits. */
START_TEST(test_wide_pid)
{
	make_file("pvmtmp4194303.2", "/");
	ck_assert_int_eq(pg_pvmtmp_clear(4194303), 1);
	ck_assert(!exists("pvmtmp4194303.2"));
}
END_TEST

/* Our own pid: the first PG_PVMTMP_OWN counters go, by name. */
START_TEST(test_own)
{
	char name[64];
	int me = (int)getpid();

	for (int k = 0; k <= PG_PVMTMP_OWN; k++) {
		snprintf(name, sizeof(name), "pvmtmp%06d.%d", me, k);
		make_file(name, "/");
	}
	make_socket("pvmtmp000001.0");
	ck_assert_int_eq(pg_pvmtmp_clear_own(), PG_PVMTMP_OWN);
	snprintf(name, sizeof(name), "pvmtmp%06d.0", me);
	ck_assert(!exists(name));
	snprintf(name, sizeof(name), "pvmtmp%06d.%d", me, PG_PVMTMP_OWN - 1);
	ck_assert(!exists(name));
	snprintf(name, sizeof(name), "pvmtmp%06d.%d", me, PG_PVMTMP_OWN);
	ck_assert(exists(name)); /* beyond what libpvm tries first */
	ck_assert(exists("pvmtmp000001.0"));
	ck_assert_int_eq(pg_pvmtmp_clear_own(), 0);
}
END_TEST

START_TEST(test_bad_pid_or_folder)
{
	make_file("pvmtmp000000.0", "/");
	ck_assert_int_eq(pg_pvmtmp_clear(0), 0);
	ck_assert_int_eq(pg_pvmtmp_clear(-1), 0);
	ck_assert(exists("pvmtmp000000.0"));
	setenv("PVM_TMP", "/nonexistent/pangaea", 1);
	ck_assert_int_eq(pg_pvmtmp_clear(4242), 0);
}
END_TEST

static Suite *pvmtmp_suite(void)
{
	Suite *s = suite_create("pvmtmp");
	TCase *tc = tcase_create("pvmtmp");

	tcase_add_unchecked_fixture(tc, cku_base_setup, cku_base_teardown);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_dir_follows_pvm_tmp);
	tcase_add_test(tc, test_removes_only_that_pid);
	tcase_add_test(tc, test_wide_pid);
	tcase_add_test(tc, test_own);
	tcase_add_test(tc, test_bad_pid_or_folder);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(pvmtmp_suite());
}
