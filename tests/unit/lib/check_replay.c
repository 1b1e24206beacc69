/*
 * check_replay.c: unit tests of the replay engine's decision point
 * (pangaea_lib/engine/replay.c, pg_replay_expect): a recording is written with
 * the real log writers into a temporary folder, opened as this task's,
 * and calls of a program are fed to the engine; the tests assert the
 * verdict, the recorded event handed back and the divergence report.
 * No PVM daemon is involved: the decision does not talk to PVM.  Check
 * forks every test, so the engine's state is fresh in each.
 */
#include "pangaea-internal.h"
#include "checkutil.h"

#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "racy"
#define HOST "node7"
/* The report's head for task 1 of these tests at event N. */
#define HEAD(n) "replay diverged: task 1 (" PROG " on " HOST "), event " #n ": "

/* ------------------------------------------------------------------ */
/* Events and calls. */

/* A send-class event of KIND (send, psend) to PEER. */
static struct pg_event ev_send(int kind, int peer, int tag, uint32_t msgid)
{
	struct pg_event e = { .kind = kind, .peer = peer, .tag = tag,
			      .msgid = msgid, .len = 8 };

	return e;
}

/* An mcast (GROUP NULL) or bcast to the N ltids DESTS. */
static struct pg_event ev_multi(const char *group, int *dests, int n,
				int tag, uint32_t msgid)
{
	struct pg_event e = { .kind = group ? PG_REC_BCAST : PG_REC_MCAST,
			      .tag = tag, .msgid = msgid, .len = 8,
			      .ndest = n, .dests = dests };

	snprintf(e.group, sizeof(e.group), "%s", group ? group : "");
	return e;
}

/* A receive-class event of KIND: recorded, the message from PEER with
 * MSGID and TAG; as a call, the filter (PEER, TAG). */
static struct pg_event ev_recv(int kind, int peer, int tag, uint32_t msgid)
{
	struct pg_event e = { .kind = kind, .peer = peer, .tag = tag,
			      .msgid = msgid, .len = 8 };

	return e;
}

/* A record of COUNT failed polls. */
static struct pg_event ev_pollfail(uint32_t count)
{
	struct pg_event e = { .kind = PG_REC_POLLFAIL, .count = count };

	return e;
}

/* The group call OP(GROUP, ARG) that gave RESULT. */
static struct pg_event ev_group(int op, const char *group, int arg,
				int result)
{
	struct pg_event e = { .kind = PG_REC_GROUP, .op = op, .arg = arg,
			      .result = result };

	snprintf(e.group, sizeof(e.group), "%s", group);
	return e;
}

/* The comm log's record of spawn number SEQ that started N tasks. */
static struct pg_event ev_spawn(uint32_t seq, uint32_t n)
{
	struct pg_event e = { .kind = PG_REC_SPAWN, .msgid = seq, .len = n };

	return e;
}

/* A pvm_kill of the task PEER (-1: outside the run). */
static struct pg_event ev_kill(int peer)
{
	struct pg_event e = { .kind = PG_REC_KILL, .peer = peer };

	return e;
}

/* An end of the task (HOW, VALUE). */
static struct pg_event ev_end(int how, int value)
{
	struct pg_event e = { .kind = PG_REC_END, .how = how, .value = value };

	return e;
}

/* The call that does E. */
static struct pg_call call_of(struct pg_event e)
{
	struct pg_call c = { .ev = e };

	return c;
}

/* The wrapper's receive call of KIND with the filter (TID_LTID, TAG):
 * TID_LTID -1 is "any sender". */
static struct pg_call call_recv(int kind, int ltid, int tag)
{
	return call_of(ev_recv(kind, ltid == -1 ? PG_PEER_ANY : ltid, tag, 0));
}

/* pangaea_exit(). */
static struct pg_call call_exit(void)
{
	return call_of(ev_end(PG_END_EXIT, 0));
}

/* ------------------------------------------------------------------ */
/* Recordings. */

/* This task's identity, as the report names it; its binding names calls
 * as PVM's binding does ("pvm_recv"), and has no message layer. */
static void set_self(int ltid)
{
	static struct pg_binding named;
	struct pg_self *s = pg_self_edit();

	pg_binding_set(NULL); /* the engine's own, "none" */
	named = *pg_bind;
	named.names = &pg_names_pvm;
	pg_binding_set(&named);
	s->ltid = ltid;
	s->mode = PANGAEA_MODE_REPLAY;
	snprintf(s->program, sizeof(s->program), "%s", PROG);
	snprintf(s->host, sizeof(s->host), "%s", HOST);
}

/* Writes cku_dir/task-LTID.comm with the N events EVS; the byte offset
 * of each record into AT (N + 1 entries, may be NULL): AT[N] is the
 * file's size. */
static uint32_t comm_version = PG_COMM_VERSION; /* write_comm writes it */

static void write_comm(int ltid, const struct pg_event *evs, int n,
		       size_t *at)
{
	struct pg_comm_header h = { .version = comm_version, .ltid = ltid,
				    .tid = 0x40001, .parent_ltid = ltid / 1000,
				    .mode = 1 };
	struct pg_comm_writer w;
	char path[PATH_MAX], err[512] = "";

	snprintf(h.host, sizeof(h.host), "%s", HOST);
	snprintf(h.program, sizeof(h.program), "%s", PROG);
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, ltid, "comm"),
			 0);
	ck_assert_msg(pg_comm_create(&w, path, &h, err, sizeof(err)) == 0,
		      "%s", err);
	for (int i = 0; i < n; i++) {
		if (at)
			at[i] = w.used;
		ck_assert_int_eq(pg_comm_append(&w, &evs[i]), 0);
	}
	if (at)
		at[n] = w.used;
	pg_comm_close(&w);
}

/* Writes cku_dir/task-LTID.exec with the N spawns RECS. */
static void write_exec(int ltid, const struct pg_spawn_rec *recs, int n)
{
	char path[PATH_MAX], err[512] = "";
	int fd;

	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, ltid, "exec"),
			 0);
	fd = pg_exec_create(path, ltid, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%s", err);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(pg_exec_append(fd, &recs[i]), 0);
	ck_assert_int_eq(close(fd), 0);
}

/* Makes task 1 (the tests' task) replay the events EVS and no spawn. */
static void replay_of(const struct pg_event *evs, int n)
{
	char err[512] = "";

	set_self(1);
	write_comm(1, evs, n, NULL);
	write_exec(1, NULL, 0);
	ck_assert_msg(pg_replay_open(cku_dir, 1, err, sizeof(err)) == 0, "%s",
		      err);
}

/* Feeds CALL and asserts it is followed; returns the recorded event. */
static struct pg_event follow(struct pg_call call)
{
	struct pg_event want;
	enum pg_verdict v;

	memset(&want, 0xa5, sizeof(want));
	v = pg_replay_expect(&call, &want, NULL);
	ck_assert_msg(v == PG_REPLAY_FOLLOW, "verdict %d, want FOLLOW (%s)",
		      (int)v, pg_replay_report());
	return want;
}

/* Feeds CALL and asserts it diverges with exactly the report REPORT. */
static void diverges(struct pg_call call, const char *report)
{
	struct pg_event want;
	struct pg_spawn_rec *rec = NULL;
	enum pg_verdict v = pg_replay_expect(&call, &want, &rec);

	ck_assert_msg(v == PG_REPLAY_DIVERGED, "verdict %d, want DIVERGED",
		      (int)v);
	ck_assert_str_eq(pg_replay_report(), report);
}

/* Asserts that the next recorded event is of KIND (0: the end of the
 * log), without consuming it. */
static void next_is(int kind)
{
	struct pg_event e;
	int r = pg_replay_peek(&e);

	ck_assert_int_eq(r, kind != 0);
	if (kind)
		ck_assert_int_eq(e.kind, kind);
}

/* ------------------------------------------------------------------ */
/* What-if replay (PG_ENV_WHATIF): the cut, the swap, going free. */

START_TEST(test_whatif_swap_then_free)
{
	struct pg_event log[] = { ev_recv(PG_REC_RECV, 1002, 7, 3),
				  ev_recv(PG_REC_RECV, 1001, 7, 9),
				  ev_recv(PG_REC_RECV, 1003, 7, 5),
				  ev_end(PG_END_EXIT, 0) };
	struct pg_event w;

	setenv(PG_ENV_WHATIF, "cut:1001:4 cut:1:2 swap:1001:2:1:1:7:8 "
	       "swap:1:2:1003:5:7:12", 1);
	replay_of(log, 4);
	w = follow(call_recv(PG_REC_RECV, -1, -1));
	ck_assert_int_eq(w.peer, 1002); /* before the swap: as recorded */
	ck_assert_int_eq(pg_me->mode, PANGAEA_MODE_REPLAY);
	w = follow(call_recv(PG_REC_RECV, -1, 7));
	ck_assert_int_eq(w.peer, 1003); /* the swap: the chosen message */
	ck_assert_uint_eq(w.msgid, 5);
	ck_assert_int_eq(w.tag, 7);
	ck_assert_uint_eq(w.len, 12);
	ck_assert_int_eq(pg_me->mode, PANGAEA_MODE_RECORD); /* free */
	pg_replay_close();
	unsetenv(PG_ENV_WHATIF);
}
END_TEST

START_TEST(test_whatif_filter_refuses)
{
	struct pg_event log[] = { ev_recv(PG_REC_RECV, 1002, 7, 3),
				  ev_recv(PG_REC_RECV, 1003, 9, 5) };

	setenv(PG_ENV_WHATIF, "cut:1:1 swap:1:1:1003:5:9:8", 1);
	replay_of(log, 2);
	diverges(call_recv(PG_REC_RECV, -1, 7),
		 HEAD(1) "the what-if message 1003:5 (tag 9) does not pass "
		 "the filter of pvm_recv(from=-1, tag=7)");
	pg_replay_close();
	unsetenv(PG_ENV_WHATIF);
}
END_TEST

/* replay_of LOG (N) again: task 1's logs made anew (they are O_EXCL). */
static void replay_anew(const struct pg_event *log, int n)
{
	char path[PATH_MAX];

	pg_replay_close();
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 1, "comm"), 0);
	unlink(path);
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 1, "exec"), 0);
	unlink(path);
	replay_of(log, n);
}

START_TEST(test_whatif_free_at_start)
{
	struct pg_event log[] = { ev_recv(PG_REC_RECV, 1002, 7, 3) };

	/* a cut of 0, or a task the cut does not name: free at once */
	setenv(PG_ENV_WHATIF, "cut:1:0 cut:2:5", 1);
	replay_of(log, 1);
	ck_assert_int_eq(pg_me->mode, PANGAEA_MODE_RECORD);
	setenv(PG_ENV_WHATIF, "cut:2:5", 1);
	replay_anew(log, 1);
	ck_assert_int_eq(pg_me->mode, PANGAEA_MODE_RECORD);
	/* a task whose cut is all its events replays to its end */
	setenv(PG_ENV_WHATIF, "cut:1:1", 1);
	replay_anew(log, 1);
	ck_assert_int_eq(pg_me->mode, PANGAEA_MODE_REPLAY);
	follow(call_recv(PG_REC_RECV, -1, -1));
	ck_assert_int_eq(pg_me->mode, PANGAEA_MODE_RECORD);
	unsetenv(PG_ENV_WHATIF);
	replay_anew(log, 1); /* no what-if: replays */
	ck_assert_int_eq(pg_me->mode, PANGAEA_MODE_REPLAY);
	pg_replay_close();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Sends. */

START_TEST(test_send_follows)
{
	struct pg_event log[] = { ev_send(PG_REC_SEND, 2, 5, 1),
				  ev_send(PG_REC_SEND, 2, 5, 2),
				  ev_send(PG_REC_PSEND, 3, 6, 3),
				  ev_end(PG_END_EXIT, 0) };
	struct pg_call psend = call_of(ev_send(PG_REC_PSEND, 3, 6, 3));
	struct pg_event w;

	replay_of(log, 4);
	ck_assert_uint_eq(pg_replay_position(), 1);
	w = follow(call_of(ev_send(PG_REC_SEND, 2, 5, 1)));
	ck_assert_int_eq(w.kind, PG_REC_SEND);
	ck_assert_int_eq(w.peer, 2);
	ck_assert_int_eq(w.tag, 5);
	ck_assert_uint_eq(w.msgid, 1);
	ck_assert_uint_eq(pg_replay_position(), 2);
	/* consumed: the same call again is not what comes next */
	diverges(call_of(ev_send(PG_REC_SEND, 2, 5, 1)),
		 HEAD(2) "the log expects send to=2 tag=5 msg=2; the program "
			 "did send to=2 tag=5 msg=1");
	w = follow(call_of(ev_send(PG_REC_SEND, 2, 5, 2)));
	ck_assert_uint_eq(w.msgid, 2);
	/* no place to hand the event back is fine */
	ck_assert_int_eq(pg_replay_expect(&psend, NULL, NULL), PG_REPLAY_FOLLOW);
	ck_assert_uint_eq(pg_replay_position(), 4);
	next_is(PG_REC_END);
	follow(call_exit());
	next_is(0);
	pg_replay_close();
}
END_TEST

/* The sends that differ from the recorded "send to=2 tag=5 msg=2" in
 * one thing each, and the program's part of the report. */
static const struct {
	int kind, peer, tag;
	uint32_t msgid;
	const char *did;
} other_sends[] = {
	{ PG_REC_SEND, 3, 5, 2, "did send to=3 tag=5 msg=2" },
	{ PG_REC_SEND, 2, 6, 2, "did send to=2 tag=6 msg=2" },
	{ PG_REC_SEND, 2, 5, 3, "did send to=2 tag=5 msg=3" },
	{ PG_REC_PSEND, 2, 5, 2, "did pvm_psend to=2 tag=5 msg=2" },
};
#define NOTHER_SENDS (int)(sizeof(other_sends) / sizeof(other_sends[0]))

START_TEST(test_send_differs)
{
	struct pg_event log[] = { ev_send(PG_REC_SEND, 4, 9, 1),
				  ev_send(PG_REC_SEND, 2, 5, 2),
				  ev_end(PG_END_EXIT, 0) };
	char report[512];

	replay_of(log, 3);
	follow(call_of(ev_send(PG_REC_SEND, 4, 9, 1)));
	snprintf(report, sizeof(report),
		 HEAD(2) "the log expects send to=2 tag=5 msg=2; the program %s",
		 other_sends[_i].did);
	diverges(call_of(ev_send(other_sends[_i].kind, other_sends[_i].peer,
				 other_sends[_i].tag, other_sends[_i].msgid)),
		 report);
	ck_assert_uint_eq(pg_replay_position(), 2);
	/* a divergence consumes nothing */
	follow(call_of(ev_send(PG_REC_SEND, 2, 5, 2)));
	pg_replay_close();
}
END_TEST

START_TEST(test_send_where_receive_recorded)
{
	struct pg_event log[] = { ev_recv(PG_REC_RECV, 1001, 7, 3) };

	replay_of(log, 1);
	diverges(call_of(ev_send(PG_REC_SEND, 1001, 7, 1)),
		 HEAD(1) "the log expects pvm_recv from=1001 msg=3 tag=7; the "
			 "program did send to=1001 tag=7 msg=1");
	pg_replay_close();
}
END_TEST

START_TEST(test_mcast_dests)
{
	int rec[] = { 1001, 1002, 1003 };
	int same[] = { 1001, 1002, 1003 };
	int order[] = { 1001, 1003, 1002 };
	int fewer[] = { 1001, 1002 };
	struct pg_event log[] = { ev_multi(NULL, rec, 3, 4, 1),
				  ev_multi(NULL, rec, 3, 4, 2) };
	struct pg_event w;

	replay_of(log, 2);
	w = follow(call_of(ev_multi(NULL, same, 3, 4, 1)));
	ck_assert_int_eq(w.kind, PG_REC_MCAST);
	ck_assert_int_eq(w.ndest, 3);
	ck_assert_int_eq(w.dests[2], 1003);
	diverges(call_of(ev_multi(NULL, order, 3, 4, 2)),
		 HEAD(2) "the log expects pvm_mcast to=[1001 1002 1003] tag=4 "
			 "msg=2; the program did pvm_mcast to=[1001 1003 1002] "
			 "tag=4 msg=2");
	diverges(call_of(ev_multi(NULL, fewer, 2, 4, 2)),
		 HEAD(2) "the log expects pvm_mcast to=[1001 1002 1003] tag=4 "
			 "msg=2; the program did pvm_mcast to=[1001 1002] tag=4 "
			 "msg=2");
	/* one message to three tasks is not a send to one of them */
	diverges(call_of(ev_send(PG_REC_SEND, 1001, 4, 2)),
		 HEAD(2) "the log expects pvm_mcast to=[1001 1002 1003] tag=4 "
			 "msg=2; the program did send to=1001 tag=4 msg=2");
	follow(call_of(ev_multi(NULL, same, 3, 4, 2)));
	pg_replay_close();
}
END_TEST

START_TEST(test_bcast_group)
{
	int members[] = { 1, 1002 };
	struct pg_event log[] = { ev_multi("ring", members, 2, 22, 1),
				  ev_multi("ring", members, 2, 22, 2) };
	struct pg_event w;

	replay_of(log, 2);
	w = follow(call_of(ev_multi("ring", members, 2, 22, 1)));
	ck_assert_str_eq(w.group, "ring");
	diverges(call_of(ev_multi("star", members, 2, 22, 2)),
		 HEAD(2) "the log expects pvm_bcast group=ring to=[1 1002] "
			 "tag=22 msg=2; the program did pvm_bcast group=star "
			 "to=[1 1002] tag=22 msg=2");
	/* the same receivers reached by a multicast: another call */
	diverges(call_of(ev_multi(NULL, members, 2, 22, 2)),
		 HEAD(2) "the log expects pvm_bcast group=ring to=[1 1002] "
			 "tag=22 msg=2; the program did pvm_mcast to=[1 1002] "
			 "tag=22 msg=2");
	pg_replay_close();
}
END_TEST

/* A pvm_bcast that sent nothing (no member but the caller) is a group
 * record with PVM's code: replayed as such, and a broadcast that sends
 * where it failed, or fails where it sent, diverges. */
START_TEST(test_bcast_failed)
{
	int members[] = { 1002 };
	struct pg_event log[] = { ev_group(PG_GROUP_BCAST, "solo", 43, -21),
				  ev_group(PG_GROUP_BCAST, "solo", 43, -21),
				  ev_multi("solo", members, 1, 43, 1) };
	struct pg_event w;

	replay_of(log, 3);
	w = follow(call_of(ev_group(PG_GROUP_BCAST, "solo", 43, 0)));
	ck_assert_int_eq(w.result, -21);
	diverges(call_of(ev_multi("solo", members, 1, 43, 1)),
		 HEAD(2) "the log expects pvm_bcast(\"solo\", 43) = -21; the "
			 "program did pvm_bcast group=solo to=[1002] tag=43 "
			 "msg=1");
	follow(call_of(ev_group(PG_GROUP_BCAST, "solo", 43, 0)));
	diverges(call_of(ev_group(PG_GROUP_BCAST, "solo", 43, 0)),
		 HEAD(3) "the log expects pvm_bcast group=solo to=[1002] "
			 "tag=43 msg=1; the program called pvm_bcast(\"solo\", "
			 "43)");
	pg_replay_close();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Receives. */

START_TEST(test_recv_wildcard_follows)
{
	struct pg_event log[] = { ev_recv(PG_REC_RECV, 1002, 7, 3),
				  ev_recv(PG_REC_RECV, 1001, 8, 9),
				  ev_recv(PG_REC_TRECV, 1003, 1, 4),
				  ev_recv(PG_REC_PRECV, PG_PEER_FOREIGN, 1, 0) };
	struct pg_event w;

	replay_of(log, 4);
	w = follow(call_recv(PG_REC_RECV, -1, -1));
	ck_assert_int_eq(w.kind, PG_REC_RECV);
	ck_assert_int_eq(w.peer, 1002);
	ck_assert_uint_eq(w.msgid, 3);
	ck_assert_int_eq(w.tag, 7);
	/* a filter that names what was recorded follows too */
	w = follow(call_recv(PG_REC_RECV, 1001, 8));
	ck_assert_int_eq(w.peer, 1001);
	ck_assert_uint_eq(w.msgid, 9);
	w = follow(call_recv(PG_REC_TRECV, 1003, -1));
	ck_assert_uint_eq(w.msgid, 4);
	w = follow(call_recv(PG_REC_PRECV, -1, 1));
	ck_assert_int_eq(w.peer, PG_PEER_FOREIGN);
	next_is(0);
	pg_replay_close();
}
END_TEST

START_TEST(test_recv_filter_differs)
{
	struct pg_event log[] = { ev_recv(PG_REC_RECV, 1002, 7, 3),
				  ev_recv(PG_REC_RECV, 1001, 8, 9) };

	replay_of(log, 2);
	follow(call_recv(PG_REC_RECV, -1, -1));
	diverges(call_recv(PG_REC_RECV, 1002, -1),
		 HEAD(2) "the log expects pvm_recv from=1001 msg=9 tag=8; the "
			 "program called pvm_recv(from=1002, tag=-1)");
	diverges(call_recv(PG_REC_RECV, -1, 7),
		 HEAD(2) "the log expects pvm_recv from=1001 msg=9 tag=8; the "
			 "program called pvm_recv(from=-1, tag=7)");
	diverges(call_recv(PG_REC_RECV, 1001, 7),
		 HEAD(2) "the log expects pvm_recv from=1001 msg=9 tag=8; the "
			 "program called pvm_recv(from=1001, tag=7)");
	ck_assert_uint_eq(pg_replay_position(), 2);
	follow(call_recv(PG_REC_RECV, 1001, 8));
	pg_replay_close();
}
END_TEST

START_TEST(test_recv_kind_differs)
{
	struct pg_event log[] = { ev_recv(PG_REC_RECV, 1002, 7, 3),
				  ev_recv(PG_REC_NRECV, 1002, 7, 4) };

	replay_of(log, 2);
	diverges(call_recv(PG_REC_NRECV, -1, -1),
		 HEAD(1) "the log expects pvm_recv from=1002 msg=3 tag=7; the "
			 "program called pvm_nrecv(from=-1, tag=-1)");
	diverges(call_recv(PG_REC_PROBE, -1, -1),
		 HEAD(1) "the log expects pvm_recv from=1002 msg=3 tag=7; the "
			 "program called pvm_probe(from=-1, tag=-1)");
	follow(call_recv(PG_REC_RECV, -1, -1));
	diverges(call_recv(PG_REC_RECV, -1, -1),
		 HEAD(2) "the log expects pvm_nrecv from=1002 msg=4 tag=7; the "
			 "program called pvm_recv(from=-1, tag=-1)");
	pg_replay_close();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Polls. */

START_TEST(test_pollfail_count)
{
	struct pg_event log[] = { ev_pollfail(3),
				  ev_recv(PG_REC_NRECV, 1001, 2, 5),
				  ev_pollfail(1),
				  ev_recv(PG_REC_PROBE, 1002, 2, 6) };
	struct pg_call nrecv = call_recv(PG_REC_NRECV, -1, -1);
	struct pg_call trecv = call_recv(PG_REC_TRECV, -1, 2);
	struct pg_call probe = call_recv(PG_REC_PROBE, 1001, -1);
	struct pg_event w;

	replay_of(log, 4);
	/* three failed polls, whichever poll calls and filters they are */
	ck_assert_int_eq(pg_replay_expect(&nrecv, &w, NULL), PG_REPLAY_POLLFAIL);
	ck_assert_int_eq(pg_replay_expect(&trecv, &w, NULL), PG_REPLAY_POLLFAIL);
	ck_assert_uint_eq(pg_replay_position(), 1);
	ck_assert_int_eq(pg_replay_expect(&probe, &w, NULL), PG_REPLAY_POLLFAIL);
	ck_assert_uint_eq(pg_replay_position(), 2);
	/* the fourth sees the message */
	w = follow(nrecv);
	ck_assert_int_eq(w.kind, PG_REC_NRECV);
	ck_assert_int_eq(w.peer, 1001);
	ck_assert_uint_eq(w.msgid, 5);
	ck_assert_int_eq(pg_replay_expect(&probe, &w, NULL), PG_REPLAY_POLLFAIL);
	w = follow(call_recv(PG_REC_PROBE, -1, -1));
	ck_assert_int_eq(w.peer, 1002);
	next_is(0);
	pg_replay_close();
}
END_TEST

START_TEST(test_pollfail_blocking_recv)
{
	struct pg_event log[] = { ev_recv(PG_REC_RECV, 1001, 2, 1),
				  ev_pollfail(3),
				  ev_recv(PG_REC_NRECV, 1001, 2, 5) };
	struct pg_call nrecv = call_recv(PG_REC_NRECV, -1, -1);
	struct pg_call recv = call_recv(PG_REC_RECV, -1, -1);

	replay_of(log, 3);
	follow(call_recv(PG_REC_RECV, -1, -1));
	diverges(call_recv(PG_REC_RECV, -1, -1),
		 HEAD(2) "the log expects 3 failed polls; the program called "
			 "pvm_recv(from=-1, tag=-1)");
	diverges(call_recv(PG_REC_PRECV, -1, -1),
		 HEAD(2) "the log expects 3 failed polls; the program called "
			 "pvm_precv(from=-1, tag=-1)");
	/* nor in the middle of the run of failures */
	ck_assert_int_eq(pg_replay_expect(&nrecv, NULL, NULL),
			 PG_REPLAY_POLLFAIL);
	ck_assert_int_eq(pg_replay_expect(&recv, NULL, NULL),
			 PG_REPLAY_DIVERGED);
	ck_assert_uint_eq(pg_replay_position(), 2);
	/* a send where polls failed */
	diverges(call_of(ev_send(PG_REC_SEND, 1001, 2, 1)),
		 HEAD(2) "the log expects 3 failed polls; the program did send "
			 "to=1001 tag=2 msg=1");
	pg_replay_close();
}
END_TEST

START_TEST(test_poll_success_not_failed)
{
	/* a poll recorded as a success must not fail on replay */
	struct pg_event log[] = { ev_recv(PG_REC_NRECV, 1001, 2, 5) };
	struct pg_call nrecv = call_recv(PG_REC_NRECV, -1, -1);
	struct pg_event w;

	replay_of(log, 1);
	ck_assert_int_eq(pg_replay_expect(&nrecv, &w, NULL), PG_REPLAY_FOLLOW);
	ck_assert_uint_eq(w.msgid, 5);
	pg_replay_close();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Group calls. */

START_TEST(test_group_follows)
{
	struct pg_event log[] = { ev_group(PG_GROUP_JOIN, "ring", 0, 2),
				  ev_group(PG_GROUP_GETTID, "ring", 1, 1003),
				  ev_group(PG_GROUP_GSIZE, "ring", 0, 4),
				  ev_group(PG_GROUP_BARRIER, "ring", 4, 0) };
	struct pg_event w;

	replay_of(log, 4);
	w = follow(call_of(ev_group(PG_GROUP_JOIN, "ring", 0, 0)));
	ck_assert_int_eq(w.result, 2);
	w = follow(call_of(ev_group(PG_GROUP_GETTID, "ring", 1, 0)));
	ck_assert_int_eq(w.result, 1003);
	w = follow(call_of(ev_group(PG_GROUP_GSIZE, "ring", 0, 0)));
	ck_assert_int_eq(w.result, 4);
	w = follow(call_of(ev_group(PG_GROUP_BARRIER, "ring", 4, 0)));
	ck_assert_int_eq(w.result, 0);
	pg_replay_close();
}
END_TEST

/* Group calls that differ from the recorded pvm_gettid("ring", 1) in one
 * thing each, and the program's part of the report. */
static const struct {
	int op;
	const char *group;
	int arg;
	const char *did;
} other_groups[] = {
	{ PG_GROUP_GETINST, "ring", 1, "called pvm_getinst(\"ring\", 1)" },
	{ PG_GROUP_GETTID, "ring", 2, "called pvm_gettid(\"ring\", 2)" },
	{ PG_GROUP_GETTID, "star", 1, "called pvm_gettid(\"star\", 1)" },
};
#define NOTHER_GROUPS (int)(sizeof(other_groups) / sizeof(other_groups[0]))

START_TEST(test_group_differs)
{
	struct pg_event log[] = { ev_group(PG_GROUP_JOIN, "ring", 0, 2),
				  ev_group(PG_GROUP_GETTID, "ring", 1, 1003) };
	char report[512];

	replay_of(log, 2);
	follow(call_of(ev_group(PG_GROUP_JOIN, "ring", 0, 0)));
	snprintf(report, sizeof(report),
		 HEAD(2) "the log expects pvm_gettid(\"ring\", 1) = 1003; the "
			 "program %s", other_groups[_i].did);
	diverges(call_of(ev_group(other_groups[_i].op, other_groups[_i].group,
				  other_groups[_i].arg, 0)), report);
	pg_replay_close();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Spawns. */

static char *rec_argv[] = { "4", "100", NULL };

/* Spawn number SEQ of NTASK x FILE with rec_argv, children FIRST,
 * FIRST + 1, ... on HOST (SLOTS has room for NTASK). */
static struct pg_spawn_rec spawn_rec(int seq, const char *file, int ntask,
				     int first, struct pg_spawn_slot *slots)
{
	struct pg_spawn_rec r = { .seq = seq, .ntask = ntask, .started = ntask,
				  .argc = 2, .argv = rec_argv, .slots = slots };

	snprintf(r.file, sizeof(r.file), "%s", file);
	for (int i = 0; i < ntask; i++) {
		slots[i].ltid = first + i;
		slots[i].err = 0;
		snprintf(slots[i].host, sizeof(slots[i].host), "%s", HOST);
	}
	return r;
}

/* The call pvm_spawn(FILE, ARGV, .., NTASK): CALL_REC is its room. */
static struct pg_call call_spawn(struct pg_spawn_rec *call_rec,
				 const char *file, char **argv, int ntask)
{
	struct pg_call c = { .ev = { .kind = PG_REC_SPAWN }, .spawn = call_rec };

	memset(call_rec, 0, sizeof(*call_rec));
	snprintf(call_rec->file, sizeof(call_rec->file), "%s", file);
	call_rec->argv = argv;
	call_rec->ntask = ntask;
	return c;
}

/* Task 1 replays the events EVS and the N spawns RECS. */
static void replay_with_spawns(const struct pg_event *evs, int nev,
			       const struct pg_spawn_rec *recs, int n)
{
	char err[512] = "";

	set_self(1);
	write_comm(1, evs, nev, NULL);
	write_exec(1, recs, n);
	ck_assert_msg(pg_replay_open(cku_dir, 1, err, sizeof(err)) == 0, "%s",
		      err);
}

/* A call record: OP with PEER, ARG, ARG2 and NAME gave RESULT. */
static struct pg_event ev_qcall(int op, int peer, int arg, int arg2,
				const char *name, int result)
{
	struct pg_event e = { .kind = PG_REC_CALL, .op = op, .peer = peer,
			      .arg = arg, .arg2 = arg2, .result = result };

	snprintf(e.group, sizeof(e.group), "%s", name);
	return e;
}

/* Recorded calls are followed with their answers and their data. */
START_TEST(test_qcall_follows)
{
	static const unsigned char data[] = { 4, 2 };
	struct pg_event log[] = {
		ev_qcall(PG_Q_PSTAT, 1002, 0, 0, "", -31),
		ev_qcall(PG_Q_RECVINFO, 0, 3, 8, "box", 7),
		ev_qcall(PG_Q_EXIT, 0, 0, 0, "", 0),
		ev_end(PG_END_EXIT, 0),
	};
	struct pg_event w;

	log[1].nblob = sizeof(data);
	log[1].blob = data;
	replay_of(log, 4);
	ck_assert_uint_eq(pg_replay_log_version(), PG_COMM_VERSION);
	w = follow(call_of(ev_qcall(PG_Q_PSTAT, 1002, 0, 0, "", 0)));
	ck_assert_int_eq(w.result, -31);
	w = follow(call_of(ev_qcall(PG_Q_RECVINFO, 0, 3, 8, "box", 0)));
	ck_assert_int_eq(w.result, 7);
	ck_assert_uint_eq(w.nblob, 2);
	ck_assert_int_eq(w.blob[0], 4);
	follow(call_of(ev_qcall(PG_Q_EXIT, 0, 0, 0, "", 0)));
	follow(call_exit());
	pg_replay_close();
}
END_TEST

/* Calls that differ from the recorded pvm_recvinfo("box", 3, flags=8) in
 * one thing each, and the program's part of the report. */
static const struct {
	int op, arg, arg2;
	const char *name, *did;
} other_qcalls[] = {
	{ PG_Q_DELINFO, 3, 8, "box", "called pvm_delinfo(\"box\", 3, flags=8)" },
	{ PG_Q_RECVINFO, 4, 8, "box", "called pvm_recvinfo(\"box\", 4, flags=8)" },
	{ PG_Q_RECVINFO, 3, 0, "box", "called pvm_recvinfo(\"box\", 3, flags=0)" },
	{ PG_Q_RECVINFO, 3, 8, "bag", "called pvm_recvinfo(\"bag\", 3, flags=8)" },
	{ PG_Q_EXIT, 0, 0, "", "called pvm_exit()" },
};
#define NOTHER_QCALLS ((int)(sizeof(other_qcalls) / sizeof(other_qcalls[0])))

START_TEST(test_qcall_differs)
{
	struct pg_event log[] = { ev_qcall(PG_Q_RECVINFO, 0, 3, 8, "box", -32) };
	char report[512];

	replay_of(log, 1);
	snprintf(report, sizeof(report),
		 HEAD(1) "the log expects pvm_recvinfo(\"box\", 3, flags=8) = "
			 "-32; the program %s", other_qcalls[_i].did);
	diverges(call_of(ev_qcall(other_qcalls[_i].op, 0, other_qcalls[_i].arg,
				  other_qcalls[_i].arg2, other_qcalls[_i].name,
				  0)), report);
}
END_TEST

/* pvm_pstat of another task than recorded diverges; a version 3 log
 * says its version (no pvm_exit records to expect). */
START_TEST(test_qcall_other_task)
{
	struct pg_event log[] = { ev_qcall(PG_Q_PSTAT, 1002, 0, 0, "", 0) };
	char path[PATH_MAX], err[512] = "";

	replay_of(log, 1);
	diverges(call_of(ev_qcall(PG_Q_PSTAT, 1003, 0, 0, "", 0)),
		 HEAD(1) "the log expects pvm_pstat(task 1002) = 0; the "
			 "program called pvm_pstat(task 1003)");
	pg_replay_close();
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 1, "comm"), 0);
	unlink(path); /* (logs are created new only) */
	comm_version = 3;
	write_comm(1, NULL, 0, NULL);
	comm_version = PG_COMM_VERSION;
	ck_assert_msg(pg_replay_open(cku_dir, 1, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_uint_eq(pg_replay_log_version(), 3);
	pg_replay_close();
}
END_TEST

START_TEST(test_spawn_follows)
{
	struct pg_spawn_slot s1[2], s2[1];
	struct pg_spawn_rec recs[] = { spawn_rec(1, "worker", 2, 1001, s1),
				       spawn_rec(2, "helper", 1, 1003, s2) };
	struct pg_event log[] = { ev_send(PG_REC_SEND, 2, 1, 1), ev_spawn(1, 2),
				  ev_spawn(2, 1), ev_end(PG_END_EXIT, 0) };
	struct pg_spawn_rec c, *got = NULL;
	struct pg_call call;
	char *argv[] = { "4", "100", NULL };

	replay_with_spawns(log, 4, recs, 2);
	follow(call_of(ev_send(PG_REC_SEND, 2, 1, 1)));
	call = call_spawn(&c, "worker", argv, 2);
	ck_assert_int_eq(pg_replay_expect(&call, NULL, &got), PG_REPLAY_FOLLOW);
	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(got->seq, 1);
	ck_assert_str_eq(got->file, "worker");
	ck_assert_int_eq(got->ntask, 2);
	ck_assert_int_eq(got->slots[0].ltid, 1001);
	ck_assert_int_eq(got->slots[1].ltid, 1002);
	ck_assert_str_eq(got->slots[1].host, HOST);
	ck_assert_uint_eq(pg_replay_position(), 3);
	call = call_spawn(&c, "helper", argv, 1);
	ck_assert_int_eq(pg_replay_expect(&call, NULL, &got), PG_REPLAY_FOLLOW);
	ck_assert_int_eq(got->seq, 2);
	ck_assert_int_eq(got->slots[0].ltid, 1003);
	follow(call_exit());
	/* and no third */
	call = call_spawn(&c, "helper", argv, 1);
	diverges(call, HEAD(5) "the program spawns \"helper\" but the recording "
			       "has no more spawns for this task");
	pg_replay_close();
}
END_TEST

/* Spawn calls that differ from the recorded 2 x "worker" 4 100 in one
 * thing each, and the end of the report. */
static char *argv_other[] = { "4", "101", NULL };
static char *argv_fewer[] = { "4", NULL };
static char *argv_more[] = { "4", "100", "x", NULL };
static const struct {
	const char *file;
	char **argv;
	int ntask;
	const char *did;
} other_spawns[] = {
	{ "helper", rec_argv, 2, "the program spawned 2 x \"helper\"" },
	{ "worker", rec_argv, 3, "the program spawned 3 x \"worker\"" },
	{ "worker", argv_other, 2,
	  "the program spawned 2 x \"worker\" with other arguments" },
	{ "worker", argv_fewer, 2,
	  "the program spawned 2 x \"worker\" with other arguments" },
	{ "worker", argv_more, 2,
	  "the program spawned 2 x \"worker\" with other arguments" },
	{ "worker", NULL, 2,
	  "the program spawned 2 x \"worker\" with other arguments" },
};
#define NOTHER_SPAWNS (int)(sizeof(other_spawns) / sizeof(other_spawns[0]))

START_TEST(test_spawn_differs)
{
	struct pg_spawn_slot s1[2];
	struct pg_spawn_rec recs[] = { spawn_rec(1, "worker", 2, 1001, s1) };
	struct pg_event log[] = { ev_send(PG_REC_SEND, 2, 1, 1), ev_spawn(1, 2) };
	struct pg_spawn_rec c, *got = NULL;
	struct pg_call call;
	char report[512];

	replay_with_spawns(log, 2, recs, 1);
	follow(call_of(ev_send(PG_REC_SEND, 2, 1, 1)));
	snprintf(report, sizeof(report),
		 HEAD(2) "the log expects spawn #1 of 2 x \"worker\"; %s",
		 other_spawns[_i].did);
	diverges(call_spawn(&c, other_spawns[_i].file, other_spawns[_i].argv,
			    other_spawns[_i].ntask), report);
	/* the spawn is still the next thing */
	call = call_spawn(&c, "worker", rec_argv, 2);
	ck_assert_int_eq(pg_replay_expect(&call, NULL, &got), PG_REPLAY_FOLLOW);
	ck_assert_int_eq(got->seq, 1);
	pg_replay_close();
}
END_TEST

START_TEST(test_spawn_no_args)
{
	/* a spawn without arguments matches a call with argv NULL */
	struct pg_spawn_slot s1[1];
	struct pg_spawn_rec recs[] = { spawn_rec(1, "worker", 1, 1001, s1) };
	struct pg_event log[] = { ev_spawn(1, 1) };
	struct pg_spawn_rec c, *got = NULL;
	struct pg_call call;
	char *empty[] = { NULL };

	recs[0].argc = 0;
	recs[0].argv = empty;
	replay_with_spawns(log, 1, recs, 1);
	call = call_spawn(&c, "worker", NULL, 1);
	ck_assert_int_eq(pg_replay_expect(&call, NULL, &got), PG_REPLAY_FOLLOW);
	ck_assert_int_eq(got->argc, 0);
	pg_replay_close();
}
END_TEST

START_TEST(test_spawn_not_in_comm_log)
{
	struct pg_spawn_slot s1[2];
	struct pg_spawn_rec recs[] = { spawn_rec(1, "worker", 2, 1001, s1) };
	struct pg_event log[] = { ev_send(PG_REC_SEND, 2, 1, 1), ev_spawn(1, 2) };
	struct pg_spawn_rec c;

	replay_with_spawns(log, 2, recs, 1);
	/* the program spawns where the comm log has a send */
	diverges(call_spawn(&c, "worker", rec_argv, 2),
		 HEAD(1) "the log expects send to=2 tag=1 msg=1; the program "
			 "called pvm_spawn(worker)");
	pg_replay_close();
}
END_TEST

START_TEST(test_spawn_seq_mismatch)
{
	/* the comm log's spawn record names the exec log's spawn by its
	 * sequence number: #2 there is not spawn #1 here */
	struct pg_spawn_slot s1[2];
	struct pg_spawn_rec recs[] = { spawn_rec(1, "worker", 2, 1001, s1) };
	struct pg_event log[] = { ev_spawn(2, 2) };
	struct pg_spawn_rec c;

	replay_with_spawns(log, 1, recs, 1);
	diverges(call_spawn(&c, "worker", rec_argv, 2),
		 HEAD(1) "the log expects spawn #2; the program called "
			 "pvm_spawn(worker)");
	pg_replay_close();
}
END_TEST

START_TEST(test_spawn_past_comm_log)
{
	struct pg_spawn_slot s1[2];
	struct pg_spawn_rec recs[] = { spawn_rec(1, "worker", 2, 1001, s1) };
	struct pg_event log[] = { ev_send(PG_REC_SEND, 2, 1, 1) };
	struct pg_spawn_rec c;

	replay_with_spawns(log, 1, recs, 1);
	follow(call_of(ev_send(PG_REC_SEND, 2, 1, 1)));
	diverges(call_spawn(&c, "worker", rec_argv, 2),
		 HEAD(2) "the log expects the end of the recording; the "
			 "program called pvm_spawn(worker)");
	pg_replay_close();
}
END_TEST

START_TEST(test_launcher_spawns)
{
	/* task 0 has an execution log only; its spawn's arguments are the
	 * launcher's command line, not compared */
	struct pg_spawn_slot s1[1];
	struct pg_spawn_rec recs[] = { spawn_rec(1, "/bin/racy", 1, 1, s1) };
	struct pg_spawn_rec c, *got = NULL;
	struct pg_call call;
	char *argv[] = { "-w", "7", NULL };
	char path[PATH_MAX], err[512] = "";

	set_self(0);
	write_exec(0, recs, 1);
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 0, "comm"), 0);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_msg(pg_replay_open(cku_dir, 0, err, sizeof(err)) == 0, "%s",
		      err);
	/* another program is another spawn */
	call = call_spawn(&c, "/bin/sor", argv, 1);
	diverges(call, "replay diverged: task 0 (" PROG " on " HOST "), event 1: "
		       "the log expects spawn #1 of 1 x \"/bin/racy\"; the "
		       "program spawned 1 x \"/bin/sor\"");
	call = call_spawn(&c, "/bin/racy", argv, 1);
	ck_assert_int_eq(pg_replay_expect(&call, NULL, &got), PG_REPLAY_FOLLOW);
	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(got->slots[0].ltid, 1);
	ck_assert_int_eq(got->argc, 2);
	ck_assert_str_eq(got->argv[1], "100");
	call = call_spawn(&c, "/bin/racy", argv, 1);
	diverges(call, "replay diverged: task 0 (" PROG " on " HOST "), event 1: "
		       "the program spawns \"/bin/racy\" but the recording has "
		       "no more spawns for this task");
	pg_replay_close();
}
END_TEST

/* ------------------------------------------------------------------ */
/* The end of the recording. */

START_TEST(test_end_follows)
{
	struct pg_event log[] = { ev_send(PG_REC_SEND, 2, 1, 1),
				  ev_end(PG_END_EXIT, 0) };

	replay_of(log, 2);
	follow(call_of(ev_send(PG_REC_SEND, 2, 1, 1)));
	follow(call_exit());
	ck_assert_uint_eq(pg_replay_position(), 3);
	/* anything after the end record */
	diverges(call_of(ev_send(PG_REC_SEND, 2, 1, 2)),
		 HEAD(3) "the recording ends here; the program did send to=2 "
			 "tag=1 msg=2");
	diverges(call_recv(PG_REC_NRECV, -1, 3),
		 HEAD(3) "the recording ends here; the program called "
			 "pvm_nrecv(from=-1, tag=3)");
	diverges(call_of(ev_group(PG_GROUP_LEAVE, "ring", 0, 0)),
		 HEAD(3) "the recording ends here; the program called "
			 "pvm_lvgroup(\"ring\", 0)");
	pg_replay_close();
}
END_TEST

START_TEST(test_end_other_how)
{
	/* the recorded task left by exit(3) without pangaea_exit */
	struct pg_event log[] = { ev_send(PG_REC_SEND, 2, 1, 1),
				  ev_end(PG_END_NO_EXIT, 3) };

	replay_of(log, 2);
	diverges(call_exit(),
		 HEAD(1) "the log expects send to=2 tag=1 msg=1; the program "
			 "called pangaea_exit()");
	follow(call_of(ev_send(PG_REC_SEND, 2, 1, 1)));
	diverges(call_exit(),
		 HEAD(2) "the log expects end of task (exit 3); the program "
			 "called pangaea_exit()");
	diverges(call_of(ev_send(PG_REC_SEND, 2, 1, 2)),
		 HEAD(2) "the log expects end of task (exit 3); the program did "
			 "send to=2 tag=1 msg=2");
	pg_replay_close();
}
END_TEST

START_TEST(test_end_killed)
{
	/* a log without its end record: the recorded task was killed */
	struct pg_event log[] = { ev_send(PG_REC_SEND, 2, 1, 1) };

	replay_of(log, 1);
	follow(call_of(ev_send(PG_REC_SEND, 2, 1, 1)));
	diverges(call_exit(),
		 HEAD(2) "the recording ends here without an end record (the "
			 "recorded task was killed); the program called "
			 "pangaea_exit()");
	diverges(call_of(ev_send(PG_REC_SEND, 2, 1, 2)),
		 HEAD(2) "the recording ends here; the program did send to=2 "
			 "tag=1 msg=2");
	ck_assert_uint_eq(pg_replay_position(), 2);
	pg_replay_close();
}
END_TEST

START_TEST(test_kill_follows)
{
	struct pg_event log[] = { ev_kill(1002), ev_kill(-1),
				  ev_end(PG_END_EXIT, 0) };

	replay_of(log, 3);
	follow(call_of(ev_kill(1002)));
	follow(call_of(ev_kill(-1)));
	follow(call_exit());
	pg_replay_close();
}
END_TEST

/* A kill of another task, a send or a receive where the recording has
 * a kill (one of them by _i). */
#define NOTHER_KILLS 3
START_TEST(test_kill_differs)
{
	struct pg_event log[] = { ev_kill(1002), ev_end(PG_END_EXIT, 0) };
	struct pg_call calls[NOTHER_KILLS] = {
		call_of(ev_kill(1003)),
		call_of(ev_send(PG_REC_SEND, 1002, 1, 1)),
		call_recv(PG_REC_RECV, -1, -1),
	};
	static const char *const what[NOTHER_KILLS] = {
		"called pvm_kill(task 1003)",
		"did send to=1002 tag=1 msg=1",
		"called pvm_recv(from=-1, tag=-1)",
	};
	char report[512];

	snprintf(report, sizeof(report), HEAD(1) "the log expects pvm_kill of "
		 "task 1002; the program %s", what[_i]);
	replay_of(log, 2);
	diverges(calls[_i], report);
	pg_replay_close();
}
END_TEST

/* A recording that ends with SIGTERM (pvm_kill): without a launcher to
 * wait for the kill with, a call past the last event diverges. */
START_TEST(test_end_sigterm_alone)
{
	struct pg_event log[] = { ev_recv(PG_REC_RECV, 1, 1, 1),
				  ev_end(PG_END_SIGNAL, 15) };

	replay_of(log, 2);
	follow(call_recv(PG_REC_RECV, -1, -1));
	diverges(call_recv(PG_REC_RECV, -1, -1),
		 HEAD(2) "the log expects end of task (signal 15); the program "
			 "called pvm_recv(from=-1, tag=-1)");
	pg_replay_close();
}
END_TEST

START_TEST(test_empty_log)
{
	replay_of(NULL, 0);
	next_is(0);
	diverges(call_recv(PG_REC_RECV, -1, -1),
		 HEAD(1) "the recording ends here; the program called "
			 "pvm_recv(from=-1, tag=-1)");
	pg_replay_close();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Damaged recordings. */

/* Overwrites the byte at OFF of PATH with VAL. */
static void patch_byte(const char *path, size_t off, unsigned char val)
{
	int fd = open(path, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, &val, 1, (off_t)off), 1);
	ck_assert_int_eq(close(fd), 0);
}

/* The recording of the damage tests: two sends and the end; AT gets
 * the records' offsets; the log's path into PATH. */
static void damaged_setup(size_t at[4], char *path, size_t n)
{
	struct pg_event log[] = { ev_send(PG_REC_SEND, 2, 1, 1),
				  ev_send(PG_REC_SEND, 2, 1, 2),
				  ev_end(PG_END_EXIT, 0) };

	set_self(1);
	write_comm(1, log, 3, at);
	write_exec(1, NULL, 0);
	ck_assert_int_eq(pg_log_path(path, n, cku_dir, 1, "comm"), 0);
}

/* Opens task 1's recording, which must open. */
static void open_task1(void)
{
	char err[512] = "";

	ck_assert_msg(pg_replay_open(cku_dir, 1, err, sizeof(err)) == 0, "%s",
		      err);
}

START_TEST(test_truncated_log)
{
	char path[PATH_MAX], want[PATH_MAX + 256];
	size_t at[4];

	damaged_setup(at, path, sizeof(path));
	/* the second send loses its last byte, the end record goes */
	ck_assert_int_eq(truncate(path, (off_t)at[2] - 1), 0);
	open_task1();
	follow(call_of(ev_send(PG_REC_SEND, 2, 1, 1)));
	snprintf(want, sizeof(want),
		 HEAD(2) "the log cannot be read further: %s: truncated: "
			 "record at offset %zu is cut off", path, at[1]);
	diverges(call_of(ev_send(PG_REC_SEND, 2, 1, 2)), want);
	pg_replay_close();
}
END_TEST

START_TEST(test_corrupt_kind)
{
	char path[PATH_MAX], want[PATH_MAX + 256];
	size_t at[4];

	damaged_setup(at, path, sizeof(path));
	patch_byte(path, at[1], 0x7f);
	open_task1();
	follow(call_of(ev_send(PG_REC_SEND, 2, 1, 1)));
	snprintf(want, sizeof(want),
		 HEAD(2) "the log cannot be read further: %s: corrupt: unknown "
			 "record kind 127 at offset %zu", path, at[1]);
	diverges(call_of(ev_send(PG_REC_SEND, 2, 1, 2)), want);
	pg_replay_close();
}
END_TEST

/* A damaged record stays damaged: a peek (pvm_bcast's) that meets it
 * and every call after it hear "cannot be read further", never "the
 * recording ends here". */
START_TEST(test_damage_stays)
{
	char path[PATH_MAX], want[PATH_MAX + 256];
	struct pg_event ev;
	size_t at[4];

	damaged_setup(at, path, sizeof(path));
	patch_byte(path, at[1], 0x7f);
	open_task1();
	follow(call_of(ev_send(PG_REC_SEND, 2, 1, 1)));
	ck_assert_int_eq(pg_replay_peek(&ev), 0);
	ck_assert_int_eq(pg_replay_peek(&ev), 0);
	snprintf(want, sizeof(want),
		 HEAD(2) "the log cannot be read further: %s: corrupt: unknown "
			 "record kind 127 at offset %zu", path, at[1]);
	diverges(call_of(ev_send(PG_REC_SEND, 2, 1, 2)), want);
	diverges(call_exit(), want);
	pg_replay_close();
}
END_TEST

START_TEST(test_corrupt_before_spawn)
{
	/* a damaged record where a spawn is due is reported, not skipped */
	struct pg_spawn_slot s1[1];
	struct pg_spawn_rec recs[] = { spawn_rec(1, "worker", 1, 1001, s1) };
	struct pg_event log[] = { ev_spawn(1, 1) };
	struct pg_spawn_rec c;
	char path[PATH_MAX], want[PATH_MAX + 256];
	size_t at[2];

	set_self(1);
	write_comm(1, log, 1, at);
	write_exec(1, recs, 1);
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 1, "comm"), 0);
	ck_assert_int_eq(truncate(path, (off_t)at[1] - 1), 0);
	open_task1();
	snprintf(want, sizeof(want),
		 HEAD(1) "the log cannot be read further: %s: truncated: "
			 "record at offset %zu is cut off", path, at[0]);
	diverges(call_spawn(&c, "worker", rec_argv, 1), want);
	pg_replay_close();
}
END_TEST

START_TEST(test_open_refusals)
{
	char path[PATH_MAX], err[512] = "";
	size_t at[4];

	set_self(1);
	/* no logs at all */
	ck_assert_int_eq(pg_replay_open(cku_dir, 1, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "task-1.comm"));
	/* a comm log without its exec log */
	damaged_setup(at, path, sizeof(path));
	ck_assert_int_eq(pg_log_path(path, sizeof(path), cku_dir, 1, "exec"), 0);
	ck_assert_int_eq(unlink(path), 0);
	err[0] = '\0';
	ck_assert_int_eq(pg_replay_open(cku_dir, 1, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "task-1.exec") != NULL, "err '%s'", err);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Divergences found by a wrapper, and looking ahead. */

START_TEST(test_diverge_by_hand)
{
	struct pg_event log[] = { ev_send(PG_REC_SEND, 2, 1, 1),
				  ev_send(PG_REC_SEND, 2, 1, 2) };

	replay_of(log, 2);
	ck_assert_str_eq(pg_replay_report(), "");
	follow(call_of(ev_send(PG_REC_SEND, 2, 1, 1)));
	ck_assert_int_eq(pg_replay_diverge("cannot start task %d (%s) on host "
					   "%s again: %s", 1002, "racy", "h2",
					   "PVM error -6, No such host"),
			 PG_REPLAY_DIVERGED);
	ck_assert_str_eq(pg_replay_report(),
			 HEAD(2) "cannot start task 1002 (racy) on host h2 "
				 "again: PVM error -6, No such host");
	ck_assert_uint_eq(pg_replay_position(), 2);
	pg_replay_close();
}
END_TEST

START_TEST(test_peek_consumes_nothing)
{
	struct pg_event log[] = { ev_recv(PG_REC_RECV, 1001, 4, 7),
				  ev_send(PG_REC_SEND, 1001, 5, 1) };
	struct pg_event e;

	replay_of(log, 2);
	ck_assert_int_eq(pg_replay_peek(&e), 1);
	ck_assert_int_eq(e.kind, PG_REC_RECV);
	ck_assert_uint_eq(e.msgid, 7);
	ck_assert_int_eq(pg_replay_peek(&e), 1);
	ck_assert_int_eq(e.kind, PG_REC_RECV);
	ck_assert_uint_eq(pg_replay_position(), 1);
	follow(call_recv(PG_REC_RECV, 1001, 4));
	next_is(PG_REC_SEND);
	follow(call_of(ev_send(PG_REC_SEND, 1001, 5, 1)));
	next_is(0);
	pg_replay_close();
}
END_TEST

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *send = tcase_create("sends");
	TCase *recv = tcase_create("receives");
	TCase *other = tcase_create("groups-spawns");
	TCase *end = tcase_create("ends-damage");

	cku_add_tmp_fixtures(send);
	tcase_add_test(send, test_send_follows);
	tcase_add_loop_test(send, test_send_differs, 0, NOTHER_SENDS);
	tcase_add_test(send, test_send_where_receive_recorded);
	tcase_add_test(send, test_mcast_dests);
	tcase_add_test(send, test_bcast_group);
	tcase_add_test(send, test_bcast_failed);
	suite_add_tcase(s, send);

	cku_add_tmp_fixtures(recv);
	tcase_add_test(recv, test_recv_wildcard_follows);
	tcase_add_test(recv, test_recv_filter_differs);
	tcase_add_test(recv, test_recv_kind_differs);
	tcase_add_test(recv, test_pollfail_count);
	tcase_add_test(recv, test_pollfail_blocking_recv);
	tcase_add_test(recv, test_poll_success_not_failed);
	tcase_add_test(recv, test_whatif_swap_then_free);
	tcase_add_test(recv, test_whatif_filter_refuses);
	tcase_add_test(recv, test_whatif_free_at_start);
	suite_add_tcase(s, recv);

	cku_add_tmp_fixtures(other);
	tcase_add_test(other, test_group_follows);
	tcase_add_loop_test(other, test_group_differs, 0, NOTHER_GROUPS);
	tcase_add_test(other, test_qcall_follows);
	tcase_add_loop_test(other, test_qcall_differs, 0, NOTHER_QCALLS);
	tcase_add_test(other, test_qcall_other_task);
	tcase_add_test(other, test_spawn_follows);
	tcase_add_loop_test(other, test_spawn_differs, 0, NOTHER_SPAWNS);
	tcase_add_test(other, test_spawn_no_args);
	tcase_add_test(other, test_spawn_not_in_comm_log);
	tcase_add_test(other, test_spawn_seq_mismatch);
	tcase_add_test(other, test_spawn_past_comm_log);
	tcase_add_test(other, test_launcher_spawns);
	suite_add_tcase(s, other);

	cku_add_tmp_fixtures(end);
	tcase_add_test(end, test_end_follows);
	tcase_add_test(end, test_end_other_how);
	tcase_add_test(end, test_end_killed);
	tcase_add_test(end, test_kill_follows);
	tcase_add_loop_test(end, test_kill_differs, 0, NOTHER_KILLS);
	tcase_add_test(end, test_end_sigterm_alone);
	tcase_add_test(end, test_empty_log);
	tcase_add_test(end, test_truncated_log);
	tcase_add_test(end, test_corrupt_kind);
	tcase_add_test(end, test_damage_stays);
	tcase_add_test(end, test_corrupt_before_spawn);
	tcase_add_test(end, test_open_refusals);
	tcase_add_test(end, test_diverge_by_hand);
	tcase_add_test(end, test_peek_consumes_nothing);
	suite_add_tcase(s, end);
	return s;
}

int main(void)
{
	return cku_run(replay_suite());
}
