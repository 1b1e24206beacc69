/*
 * checkutil.c: helpers shared by the Check unit suites: temporary
 * folders made and removed around the tests, and the suite runner.
 */
#include "checkutil.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char cku_dir[PATH_MAX];
static char base[PATH_MAX]; /* per test case, made and removed by the runner */

/* nftw callback: removes one entry (children come first, FTW_DEPTH). */
static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void cku_rm_rf(const char *path)
{
	if (path[0])
		nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void cku_base_setup(void)
{
	snprintf(base, sizeof(base), "/tmp/%s.XXXXXX",
		 program_invocation_short_name);
	if (!mkdtemp(base)) {
		perror("mkdtemp");
		exit(EXIT_FAILURE);
	}
}

void cku_base_teardown(void)
{
	cku_rm_rf(base);
}

void cku_setup(void)
{
	snprintf(cku_dir, sizeof(cku_dir), "%s/t.XXXXXX", base);
	ck_assert_ptr_nonnull(mkdtemp(cku_dir));
}

void cku_teardown(void)
{
	cku_rm_rf(cku_dir);
}

void cku_add_tmp_fixtures(TCase *tc)
{
	tcase_add_unchecked_fixture(tc, cku_base_setup, cku_base_teardown);
	tcase_add_checked_fixture(tc, cku_setup, cku_teardown);
}

const char *cku_in_dir(char *buf, size_t n, const char *name)
{
	int k = snprintf(buf, n, "%s/%s", cku_dir, name);

	ck_assert(k > 0 && (size_t)k < n);
	return buf;
}

int cku_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

void cku_spit(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

struct pg_event cku_event(int kind, int peer, int tag, unsigned msgid,
			  unsigned t_us, unsigned d_us)
{
	struct pg_event e;

	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.peer = peer;
	e.tag = tag;
	e.msgid = msgid;
	e.len = 8;
	e.t = (uint64_t)t_us * 1000;
	e.dur = (uint64_t)d_us * 1000;
	return e;
}

uint32_t cku_comm_version; /* 0: the current */

off_t cku_comm_in(const char *dir, int file, int ltid,
		  const struct pg_event *ev, int n, uint64_t tstep,
		  uint64_t dur)
{
	struct pg_comm_header h = { .version = cku_comm_version };
	struct pg_comm_writer w;
	char path[PATH_MAX], err[512] = "";
	struct stat st;

	h.ltid = ltid;
	h.tid = 0x40000 + ltid;
	h.parent_ltid = ltid / 1000;
	h.mode = 1;
	snprintf(h.host, sizeof(h.host), "vm");
	snprintf(h.program, sizeof(h.program), "/bin/prog");
	ck_assert_int_eq(pg_log_path(path, sizeof(path), dir, file, "comm"), 0);
	unlink(path); /* logs are created new only */
	if (pg_comm_create(&w, path, &h, err, sizeof(err)) < 0)
		ck_abort_msg("pg_comm_create: %s", err);
	for (int i = 0; i < n; i++) {
		struct pg_event e = ev[i];

		e.t = (uint64_t)(i + 1) * tstep;
		if (dur)
			e.dur = dur;
		ck_assert_int_eq(pg_comm_append(&w, &e), 0);
	}
	pg_comm_close(&w);
	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_size;
}

void cku_write_comm(int file, int ltid, const struct pg_event *ev, int n)
{
	cku_comm_in(cku_dir, file, ltid, ev, n, 1000, 0);
}

void cku_write_exec(int ltid, const int *kids, int n)
{
	struct pg_spawn_rec r;
	struct pg_spawn_slot slots[8];
	char path[PATH_MAX], err[512], *argv[] = { NULL };
	int fd;

	ck_assert_int_le(n, 8);
	memset(&r, 0, sizeof(r));
	memset(slots, 0, sizeof(slots));
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, ltid, "exec"), 0);
	unlink(path);
	fd = pg_exec_create(path, ltid, err, sizeof(err));
	ck_assert_int_ge(fd, 0);
	if (n > 0) {
		r.seq = 1;
		snprintf(r.file, sizeof(r.file), "/bin/prog");
		r.ntask = r.started = n;
		r.argv = argv;
		r.slots = slots;
		for (int i = 0; i < n; i++) {
			slots[i].ltid = kids[i];
			snprintf(slots[i].host, sizeof(slots[i].host), "vm");
		}
		ck_assert_int_eq(pg_exec_append(fd, &r), 0);
	}
	close(fd);
}
