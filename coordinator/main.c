/*
 * main.c: pangaea-coord, the task coordinator.  Spawned by the launcher as
 * a PVM task; runs a libevent loop over PVM's socket (pvm_getfds) and
 * answers registrations and translations until the launcher says QUIT or
 * exits.  It writes no logs.
 *
 * A launcher that dies without saying QUIT (SIGKILL) cannot end its run:
 * the coordinator does, killing the run's tasks, and with -halt-vm (the
 * launcher started a private virtual machine) halting that machine and
 * removing the daemon's files, so that nothing of the run is left.
 *
 * pangaea-coord -relay is the live view's relay on the launcher's host
 * when the coordinator runs on another (viewers.c): the same loop, which
 * only gets event batches (and, given -follow DIR, follows the logs of
 * its host's tasks: follow.c), and ends on a QUIT from either.
 *
 * pangaea-coord -follow-logs DIR serves the live view of an MPI run,
 * which has no coordinator, from its logs (logsview.c); no PVM there.
 */
#include "coord.h"

#include <event2/event.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* The coordinator's state. */
struct coord {
	struct coord_registry reg;
	struct event_base *base;
	struct event *readable, *tick;
	int launcher;
	int launcher_died; /* its exit notify came, not its QUIT */
	int halt_vm;       /* -halt-vm: the launcher started the VM */
	int relay;         /* -relay: only serves the live view (viewers.c) */
	int live_to;       /* -live-to TID: the relay of the live view */
	const char *follow; /* -follow DIR: the logs to follow (follow.c) */
	pid_t pvmd;        /* -pvmd PID: this host's pvmd (0: our parent) */
	int gate;          /* -gate FD: a byte on FD before it enrolls (-1) */
	int status; /* exit status */
};

/* Sends the one-int message TAG (ACK, ANSWER) with VALUE to TID. */
static void reply(int tid, int tag, int value)
{
	pg_proto_send(tid, tag, &value);
}

/* Answers every request waiting for LTID with TID. */
static void answer_waiters(struct coord *c, int ltid, int tid)
{
	int who[32], n;

	do {
		n = coord_registry_take_waiters(&c->reg, ltid, who, 32);
		for (int i = 0; i < n; i++)
			reply(who[i], PG_TAG_ANSWER, tid);
	} while (n == 32);
}

/* Handles SPAWNED (BUFID) from SRC: records the children, forwards the
 * message to the launcher, acks. */
static void on_spawned(struct coord *c, int bufid, int src)
{
	struct pg_spawned_task t;
	int parent, n, status = 0;

	if (pg_proto_upk_spawned(&parent, &n) < 0)
		n = 0, status = PvmBadMsg;
	for (int i = 0; i < n; i++) {
		if (pg_proto_upk_spawned_task(&t) < 0) {
			status = PvmBadMsg;
			break;
		}
		if (coord_registry_add(&c->reg, t.ltid, t.tid) < 0)
			status = -1;
		answer_waiters(c, t.ltid, t.tid);
		coord_follow_task(t.ltid);
	}
	if (status != PvmBadMsg)
		pg_proto_forward(bufid, c->launcher, PG_TAG_SPAWNED);
	reply(src, PG_TAG_ACK, status);
}

/* Handles LTID2TID for LTID from SRC: the answer now, or once the task
 * is known; a request that cannot be kept is answered with an error. */
static void on_ltid2tid(struct coord *c, int ltid, int src)
{
	int tid = coord_registry_tid(&c->reg, ltid);

	if (tid)
		reply(src, PG_TAG_ANSWER, tid);
	else if (coord_registry_wait(&c->reg, src, ltid) < 0)
		reply(src, PG_TAG_ANSWER, PvmNoMem);
}

/* Answers the clock ping V (seq, 0, 0) from SRC with our CLOCK_REALTIME,
 * the run's reference clock (pangaea_lib/engine/clocksample.c). */
static void on_clock(int src, int *v)
{
	struct timespec ts;
	uint64_t ns;

	clock_gettime(CLOCK_REALTIME, &ts);
	ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	v[1] = (int)(uint32_t)(ns >> 32);
	v[2] = (int)(uint32_t)ns;
	pg_proto_send(src, PG_TAG_CLOCK, v);
}

/* Handles the message BUFID (TAG from SRC), its version checked. */
static void dispatch(struct coord *c, int bufid, int tag, int src)
{
	int v[3];

	switch (tag) {
	case PG_TAG_CLOCK:
		if (pg_proto_upk(tag, v) == 0)
			on_clock(src, v);
		break;
	case PG_TAG_REGISTER:
		if (pg_proto_upk(tag, v) < 0)
			break;
		reply(src, PG_TAG_ACK, coord_registry_add(&c->reg, v[0], v[1]));
		answer_waiters(c, v[0], v[1]);
		coord_follow_task(v[0]);
		break;
	case PG_TAG_SPAWNED:
		on_spawned(c, bufid, src);
		break;
	case PG_TAG_TID2LTID:
		if (pg_proto_upk(tag, v) == 0)
			reply(src, PG_TAG_ANSWER,
			      coord_registry_ltid(&c->reg, v[0]));
		break;
	case PG_TAG_EVENTS: /* from a task, or a beacon following its host */
		coord_viewers_batch(bufid, src,
				    coord_registry_ltid(&c->reg, src) < 0);
		break;
	case PG_TAG_LTID2TID:
		if (pg_proto_upk(tag, v) == 0)
			on_ltid2tid(c, v[0], src);
		break;
	default:
		fprintf(stderr, "pangaea-coord: ignoring message tag %#x from t%x\n",
			tag, src);
	}
}

/* Handles every message PVM has for us; stops the loop on QUIT or error. */
static void drain(evutil_socket_t fd, short what, void *arg)
{
	struct coord *c = arg;
	int b, tag, src, version;

	(void)fd;
	(void)what;
	while ((b = pvm_nrecv(-1, -1)) > 0) {
		if (pg_proto_check(b, &tag, &src, &version) < 0) {
			fprintf(stderr, "pangaea-coord: message from t%x has protocol "
				"version %d, expected %d\n", src, version,
				PG_PROTOCOL_VERSION);
			continue;
		}
		if (tag == PG_TAG_QUIT) { /* from the launcher or its exit notify
					     (a relay: or from the coordinator) */
			c->launcher_died = src != c->launcher && !c->relay;
			event_base_loopbreak(c->base);
			return;
		}
		dispatch(c, b, tag, src);
	}
	if (b < 0) {
		fprintf(stderr, "pangaea-coord: lost the PVM daemon (%d)\n", b);
		c->status = 1;
		event_base_loopbreak(c->base);
	}
}

/*
 * After the launcher's QUIT, with a live viewer: a task's last batch of
 * events, sent before it told the launcher it was done, may come after
 * that QUIT (two senders: PVM does not order their messages).  Takes
 * what comes until 200 ms pass without a message, 2 s at most, so the
 * viewer gets the whole run.
 */
static void drain_late(struct coord *c)
{
	struct timeval quiet = { 0, 200000 };
	struct timespec t0, now;
	int b, tag, src, version;

	pg_timeline("coordinator", "waits for late event batches");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((b = pvm_trecv(-1, -1, &quiet)) > 0) {
		if (pg_proto_check(b, &tag, &src, &version) == 0 &&
		    tag != PG_TAG_QUIT)
			dispatch(c, b, tag, src);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= 2)
			break;
	}
}

/* Sets up PVM and libevent; 0 or -1. */
static int coord_start(struct coord *c)
{
	const char *ctx = getenv(PG_ENV_CONTEXT);
	struct timeval tick = { 0, 100000 };
	int *fds;

	pg_timeline("coordinator", "runs (main)");
	pg_pvmtmp_clear_own(); /* before libpvm picks its file names */
	/* -gate FD: started early, it enrolls once the launcher's programs
	   have (their tids stay those of every run); the pipe's end without
	   a byte: the run ends before it was needed */
	if (c->gate >= 0) {
		char b;
		ssize_t n;

		while ((n = read(c->gate, &b, 1)) < 0 && errno == EINTR)
			;
		close(c->gate);
		if (n != 1)
			return -1;
		pg_timeline("coordinator", "let through its gate");
	}
	if (pvm_mytid() < 0)
		return -1;
	pg_timeline("coordinator", "enrolled in PVM");
	if (!c->launcher)
		c->launcher = pvm_parent();
	if (c->launcher < 0 || !ctx) {
		fprintf(stderr, "pangaea-coord: must be started by the pangaea "
			"launcher, not by hand\n");
		return -1;
	}
	pg_proto_open(atoi(ctx));
	pvm_setcontext(atoi(ctx));
	pvm_notify(PvmTaskExit, PG_TAG_QUIT, 1, &c->launcher);
	if (pvm_getfds(&fds) < 1 || !(c->base = event_base_new()))
		return -1;
	/* The timer is a safety net: libpvm may already hold messages it
	 * read from the socket, which then stays quiet. */
	c->readable = event_new(c->base, fds[0], EV_READ | EV_PERSIST, drain, c);
	c->tick = event_new(c->base, -1, EV_PERSIST, drain, c);
	if (!c->readable || !c->tick || event_add(c->readable, NULL) < 0 ||
	    event_add(c->tick, &tick) < 0)
		return -1;
	pg_timeline("coordinator", "up: sends HELLO");
	return pg_proto_send(c->launcher, PG_TAG_HELLO, NULL) < 0 ? -1 : 0;
}

/* Removes what the private pvmd PVMD of this host leaves once halted:
 * its address file, its log and its temporary files. */
static void remove_vm_files(pid_t pvmd)
{
	const char *vmid = getenv("PVM_VMID");
	char path[PG_PATH_MAX];

	if (!vmid)
		return;
	snprintf(path, sizeof(path), "%s/pvmd.%d.%s", pg_pvmtmp_dir(),
		 (int)getuid(), vmid);
	unlink(path);
	snprintf(path, sizeof(path), "%s/pvml.%d.%s", pg_pvmtmp_dir(),
		 (int)getuid(), vmid);
	unlink(path);
	pg_pvmtmp_clear(pvmd);
}

/* Whether the pvmd PVMD still runs (not gone, nor a zombie: the
 * launcher that started it may have died, and its new parent reap it
 * late). */
static int pvmd_lives(pid_t pvmd)
{
	char stat[512], *p;

	if ((kill(pvmd, 0) < 0 && errno == ESRCH) ||
	    coord_proc_read(pvmd, "stat", stat, sizeof(stat)) < 0)
		return 0;
	p = strrchr(stat, ')');
	return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

/* The launcher died: kills the run's tasks and, with -halt-vm, halts the
 * virtual machine (the pvmd ends every task) and waits up to 3 s for it
 * to go before removing its files. */
static void end_orphaned_run(struct coord *c)
{
	const struct pg_imap *m = &c->reg.ids.by_tid;
	pid_t pvmd = c->pvmd ? c->pvmd : getppid();
	int me = pvm_mytid();

	fprintf(stderr, "pangaea-coord: the launcher t%x died: ending its run%s\n",
		c->launcher, c->halt_vm ? " and halting its virtual machine" : "");
	for (int i = 0; i < m->cap; i++)
		if (m->used[i] && m->keys[i] != me)
			pvm_kill(m->keys[i]);
	if (!c->halt_vm)
		return;
	signal(SIGTERM, SIG_IGN); /* a halting pvmd SIGTERMs its tasks */
	pvm_halt();
	for (int i = 0; i < 300 && pvmd_lives(pvmd); i++)
		usleep(10000);
	if (!pvmd_lives(pvmd))
		remove_vm_files(pvmd);
}

/* Reads the arguments the launcher gives (-halt-vm, -relay, -live-to
 * TID, -follow DIR; started by it directly, not by PVM: -launcher TID,
 * -pvmd PID) into C. */
static void coord_args(struct coord *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-halt-vm") == 0)
			c->halt_vm = 1;
		else if (strcmp(argv[i], "-relay") == 0)
			c->relay = 1;
		else if (strcmp(argv[i], "-live-to") == 0 && i + 1 < argc)
			c->live_to = atoi(argv[++i]);
		else if (strcmp(argv[i], "-follow") == 0 && i + 1 < argc)
			c->follow = argv[++i];
		else if (strcmp(argv[i], "-launcher") == 0 && i + 1 < argc)
			c->launcher = atoi(argv[++i]);
		else if (strcmp(argv[i], "-pvmd") == 0 && i + 1 < argc)
			c->pvmd = (pid_t)atoi(argv[++i]);
		else if (strcmp(argv[i], "-gate") == 0 && i + 1 < argc)
			c->gate = atoi(argv[++i]);
}

int main(int argc, char **argv)
{
	struct coord c = { .status = 0, .gate = -1 };

	pg_pvm_stand_aside(); /* not a task, even under a user's LD_PRELOAD */
	if (argc > 1 && strcmp(argv[1], "-beacon") == 0)
		return coord_beacon_main(argc - 2, argv + 2);
	if (argc == 3 && strcmp(argv[1], "-follow-logs") == 0)
		return coord_logs_main(argv[2]);
	coord_args(&c, argc, argv);
	coord_registry_init(&c.reg);
	if (coord_start(&c) < 0) {
		if (c.readable)
			event_free(c.readable);
		if (c.tick)
			event_free(c.tick);
		if (c.base)
			event_base_free(c.base);
		pvm_exit();
		return 1;
	}
	/* a failure is said; the run goes on.  The logs of this host's
	   tasks are followed (the relay's: of every task whose log is in
	   the folder, since it hears of none) */
	if (coord_viewers_init(c.base, c.live_to) == 0 && coord_viewers_on()) {
		char host[PG_HOST_MAX];

		pg_pvm_host_of(pvm_mytid(), host, sizeof(host));
		coord_follow_init(c.base, c.follow, host, c.relay,
				  coord_viewers_events);
	}
	/* what libpvm read from the socket while it sent HELLO is in its
	   queue, and the socket stays quiet: the loop's first turn takes it
	   (it waited for the 100 ms timer; a run's first SPAWNED came that
	   late in one start-up of three) */
	event_active(c.readable, EV_READ, 0);
	event_base_dispatch(c.base);
	if (c.launcher_died) {
		end_orphaned_run(&c);
		if (c.halt_vm) /* the pvmd has gone: nothing to leave */
			_exit(c.status);
	}
	/* (no late batch can come when this host's tasks were all the run's:
	   their logs were followed, they sent none) */
	if (!c.launcher_died && c.status == 0 && coord_viewers_on() &&
	    !coord_follow_every())
		drain_late(&c);
	coord_follow_finish(); /* every log to its end, then the stream's */
	if (!c.relay && coord_viewers_on()) {
		struct rusage ru;
		char said[128];

		getrusage(RUSAGE_SELF, &ru);
		snprintf(said, sizeof(said), "live view: %ld event batches from "
			 "tasks, %ld from other hosts' beacons, %ld events read "
			 "from logs (CPU %ld ms)", coord_viewers_batches(0),
			 coord_viewers_batches(1), coord_follow_events(),
			 (long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
				 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000);
		pg_timeline("coordinator", said);
	}
	coord_viewers_finish();
	coord_registry_free(&c.reg);
	event_free(c.readable);
	event_free(c.tick);
	event_base_free(c.base);
	pvm_exit();
	return c.status;
}
