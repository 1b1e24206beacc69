/*
 * check_archlogs.c: logs written on hosts of other architectures (issue
 * 26) read here.  The fixtures in tests/unit/fixtures/arch are what
 * libpangaea.so wrote for a worker of tests/progs/archmix.c on an s390x
 * host (big-endian, 64-bit, under qemu-user) and on an i386 host
 * (32-bit), in tests/scenario/hosts_arch.sh's virtual machine: its
 * communication log (one byte order for all: docs/FORMATS.md section 2)
 * and its state file (the host's byte order: section 4.1).  Each must
 * read here as the writer meant it.
 */
#include "checkutil.h"
#include "engine.h"
#include "pangaea-logs.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#define FIXTURES PG_TOP "/tests/unit/fixtures/arch"

/* Reads FIXTURES/ARCH/task-LTID.comm and checks its header and events:
 * a receive of the work (tag 1, 28 bytes), a pvm_config whose results
 * name the three hosts, the answer (tag 2, ANSWER bytes), pvm_exit and
 * the end. */
static void check_worker_log(const char *arch, int ltid, const char *host,
			     unsigned answer)
{
	struct pg_comm_reader r;
	struct pg_event ev;
	char path[PATH_MAX], err[256], prog[64];

	snprintf(path, sizeof(path), FIXTURES "/%s/task-%d.comm", arch, ltid);
	ck_assert_msg(pg_comm_open(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(r.hdr.ltid, ltid);
	ck_assert_int_eq(r.hdr.parent_ltid, 1);
	ck_assert_uint_eq(r.hdr.mode, 1);
	ck_assert_str_eq(r.hdr.host, host);
	snprintf(prog, sizeof(prog), "/%s/archmix", arch);
	ck_assert_msg(strstr(r.hdr.program, prog), "program %s", r.hdr.program);
	ck_assert_uint_gt(r.hdr.start_wall_ns, 1700000000ull * 1000000000ull);

	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 1);
	ck_assert_int_eq(ev.kind, PG_REC_RECV);
	ck_assert_int_eq(ev.peer, 1);
	ck_assert_int_eq(ev.tag, 1);
	ck_assert_uint_eq(ev.len, 28);

	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 1);
	ck_assert_int_eq(ev.kind, PG_REC_CALL);
	ck_assert_int_eq(ev.op, PG_Q_CONFIG);
	ck_assert_int_eq(ev.result, 0);
	/* (the host names, as the writer coded them into the results) */
	ck_assert_ptr_nonnull(memmem(ev.blob, ev.nblob, "LINUXS390", 9));
	ck_assert_ptr_nonnull(memmem(ev.blob, ev.nblob, "LINUX64", 7));

	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 1);
	ck_assert_int_eq(ev.kind, PG_REC_SEND);
	ck_assert_int_eq(ev.peer, 1);
	ck_assert_int_eq(ev.tag, 2);
	ck_assert_uint_eq(ev.len, answer);
	ck_assert_uint_eq(ev.msgid, 1);

	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 1);
	ck_assert_int_eq(ev.kind, PG_REC_CALL);
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 1);
	ck_assert_int_eq(ev.kind, PG_REC_END);
	ck_assert_int_eq(ev.how, PG_END_EXIT);
	ck_assert_uint_lt(ev.t, 2000000000ull); /* well under 2 s */
	ck_assert_int_eq(pg_comm_next(&r, &ev, err, sizeof(err)), 0);
	pg_comm_free(&r);
}

START_TEST(test_s390x_comm)
{
	/* "LINUXS390" and "h3" in the answer: 4+4+16+8+4+8+4+12 bytes */
	check_worker_log("s390x", 1003, "h3", 56);
}
END_TEST

START_TEST(test_i386_comm)
{
	check_worker_log("i386", 1002, "h2", 52);
}
END_TEST

/* The state file of FIXTURES/ARCH/task-LTID.state, read here whatever
 * the writer's byte order: the worker's last state (not blocked), its
 * last receive's filter (from the master, tid t40006, tag 1) and when. */
static void check_state(const char *arch, int ltid)
{
	struct pg_state s;
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), FIXTURES "/%s", arch);
	ck_assert_int_eq(pg_state_read(dir, ltid, &s), 1);
	ck_assert_uint_eq(s.version, PG_STATE_VERSION);
	ck_assert_int_eq(s.ltid, ltid);
	ck_assert_uint_eq(s.seq, 4);
	ck_assert_int_eq(s.call, 0);
	ck_assert_int_eq(s.src, 0x40006);
	ck_assert_int_eq(s.tag, 1);
	ck_assert_uint_gt(s.since_t, 0);
	ck_assert_uint_lt(s.since_t, 1000000000ull);
	ck_assert_uint_eq(s.deadline_mono_ns, 0);
}

START_TEST(test_s390x_state)
{
	check_state("s390x", 1003);
}
END_TEST

START_TEST(test_i386_state)
{
	check_state("i386", 1002);
}
END_TEST

static Suite *archlogs_suite(void)
{
	Suite *s = suite_create("archlogs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_s390x_comm);
	tcase_add_test(tc, test_i386_comm);
	tcase_add_test(tc, test_s390x_state);
	tcase_add_test(tc, test_i386_state);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(archlogs_suite());
}
