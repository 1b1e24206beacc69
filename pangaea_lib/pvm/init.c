/*
 * init.c: joining and leaving a run.  A task started by the launcher (or
 * by a task of its run) finds PANGAEA_CONTEXT in its environment, receives
 * its handover from its parent, registers with the coordinator and opens
 * its logs.  Without that variable the task runs as plain PVM.
 *
 * (Only the launcher's children register: a task's children are known
 * to the coordinator before their handover, from their parent.)
 *
 * A program built with pangaea.h joins in pangaea_init; in libpangaea.so
 * (preload.c) the same join runs at the task's first PVM call.
 */
#include "pangaea-internal.h"
#include "pangaea-clock.h"

#include <dlfcn.h>
#include <pvmtev.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether the run's virtual machine had one host when it began (the
 * launcher's PG_ENV_ONE_HOST).  On several hosts the tasks beside the
 * coordinator ping it too: samples taken the same way on every host err
 * alike (the coordinator's answer, the pvmds' paths), and a message
 * between hosts is compared across two of them. */
static int one_host(void)
{
	const char *e = getenv(PG_ENV_ONE_HOST);

	return e && strcmp(e, "1") == 0;
}

/* Receives the handover from the parent into ME and sets the task's
 * delays; 0 or -1 with ERR filled. */
static int receive_handover(struct pg_self *me, char *err, size_t errlen)
{
	struct pg_handover h;

	if (pg_proto_recv_handover(me->parent_tid, 60, &h) <= 0) {
		snprintf(err, errlen, "no handover from the parent task t%x",
			 me->parent_tid);
		return -1;
	}
	me->ltid = h.ltid;
	me->mode = h.mode;
	me->coord_tid = h.coord_tid;
	me->coord_beside = one_host() &&
			   pvm_tidtohost(me->mytid) == pvm_tidtohost(h.coord_tid);
	me->launcher_tid = h.launcher_tid;
	me->flags = h.flags;
	me->parent_ltid = h.ltid / PG_LTID_FANOUT;
	snprintf(me->logdir, sizeof(me->logdir), "%s", h.logdir);
	snprintf(me->replaydir, sizeof(me->replaydir), "%s", h.replaydir);
	snprintf(me->select, sizeof(me->select), "%s", h.select);
	/* the launcher's logging cost, taken when the log opens (calib.c),
	   and passed on to this task's children (spawn.c) */
	if (h.calib[0])
		setenv(PG_ENV_CALIB, h.calib, 1);
	else
		unsetenv(PG_ENV_CALIB);
	pg_delay_open(h.delay_us, h.seed, h.ltid);
	pg_chaos_open((h.flags & PG_FLAG_CHAOS) &&
			      h.mode == PANGAEA_MODE_RECORD, h.seed, h.ltid);
	return 0;
}

/* Registers with the coordinator and waits for its ack; 0 or < 0. */
static int register_task(void)
{
	int v[2] = { pg_me->ltid, pg_me->mytid }, status = -1;

	if (pg_proto_ask(pg_me->coord_tid, PG_TAG_REGISTER, v, PG_TAG_ACK,
			 &status) < 0)
		return -1;
	return status;
}

/* libpvm's output and trace settings of this task (pvmtrc) and of its
 * children (pvmctrc): pvmtev.h's struct, libpvm's exported variables. */
extern struct Pvmtracer pvmtrc, pvmctrc;

/*
 * libpvm's trace tests, skipped while nobody traces the task's own
 * calls (a join step, pg_tracer_quiet, and the pvm_setopt wrapper).
 *
 * A task of a run has the launcher as its tracer from its spawn: the
 * launcher asks for the pvmd's TEV_ENDTASK (each task's wait status,
 * toplevel/death.c), which the pvmd sends from its own copy of the
 * task's settings.  libpvm has no event of that mask to send, yet every
 * libpvm call tests the settings at its entry and its exit (TEV_EXCLUSIVE,
 * TEV_CHECK_TRACE in PVM 3.4's src/tevmac.h): 8-9 instructions a call
 * more than in a plain run, where no tracer is set, about 25 of a
 * recorded send's initsend, pkint and send.
 *
 * Those tests are made only at libpvm's top level: pvmtoplvl, libpvm's
 * exported flag, is 1 there, 0 inside a call (a nested call is not traced
 * twice), and a call that finds it 0 tests nothing.  The task sets it to
 * 0 at its join, when its tracer is the launcher; its trace settings stay
 * what libpvm was given, so pvm_getopt reports them and pvm_setopt checks
 * a program's values against them as before (libgpvm3 sets the tracer of
 * its group server's spawn to 0 and back to the one it read: a cleared
 * pvmtrc.trctid made that "Bad parameter", 41150ad, reverted).  A
 * program that gives itself another tracer (pvm_setopt PvmSelfTraceTid)
 * gets libpvm's tests back.  A message handler runs at the top level
 * (libpvm's TEV_PUSHTOP) and tests as before.
 */

/* libpvm's exported flag (lpvm.c): 1 at its top level */
extern int pvmtoplvl;

/* The tracer the join found (the launcher) while pvmtoplvl is 0 by us,
 * else 0. */
static int quiet_for;

void pg_tracer_quiet(int launcher_tid)
{
	/* (at the top level only: inside a libpvm call its end would set
	   the flag back) */
	if (launcher_tid <= 0 || pvmtrc.trctid != launcher_tid ||
	    pvmtoplvl != 1)
		return;
	quiet_for = launcher_tid;
	pvmtoplvl = 0;
}

/* Gives libpvm its trace tests back if the task's own tracer is no
 * longer the one pg_tracer_quiet found. */
static void tracer_recheck(void)
{
	if (quiet_for && pvmtrc.trctid != quiet_for) {
		quiet_for = 0;
		pvmtoplvl = 1;
	}
}

int pangaea_pvm_setopt(int what, int val)
{
	int rc = pvm_setopt(what, val);

	tracer_recheck();
	return rc;
}

/* libpvm's: the name a task started otherwise than by a pvmd gives
 * itself before it enrolls (pvm_tasks' ti_a_out); not in pvm3.h. */
int pvmsettaskname(char *name);

/*
 * Before main, in a task the launcher started itself (PG_ENV_DIRECT:
 * toplevel/direct.c): enrolls in PVM and tells the launcher its tid on
 * the socket the variable names, as a task a pvmd spawns has its tid
 * from its start (one that ends before its first PVM call is a task of
 * the run all the same).  It takes the output and trace settings for
 * its children that a spawn by the launcher would have given it: libpvm
 * sets them from its pvmd's answer when a spawned task enrolls, and
 * pvm_setopt names no other destination than the task itself or the
 * one it was given, so they are set here as libpvm sets them.  Its
 * name for PVM (pvm_tasks) is the file the launcher started, as a
 * pvmd names its tasks after the file it spawned.  PVMEPID
 * is its own pid, as in a spawned task (preload.c).  The variable then
 * says "enrolled PTID" (or "failed: WHY"), PTID its parent, the
 * launcher, for the join (identify): a program built with pangaea.h
 * and preloaded with libpangaea.so too has this constructor twice.
 */
__attribute__((constructor)) static void init_direct(void)
{
	const char *direct = getenv(PG_ENV_DIRECT);
	struct Pvmtracer t = { 0 };
	char v[160];
	int fd, ptid, tid;

	if (!direct || strncmp(direct, "enrolled ", 9) == 0 ||
	    strncmp(direct, "failed: ", 8) == 0)
		return;
	if (sscanf(direct, "%d %d %d %d %d %d %d %d %35s", &fd, &ptid,
		   &t.outctx, &t.outtag, &t.trcctx, &t.trctag, &t.trcbuf,
		   &t.trcopt, t.tmask) != 9) {
		snprintf(v, sizeof(v), "failed: a bad %s: %.100s",
			 PG_ENV_DIRECT, direct);
		setenv(PG_ENV_DIRECT, v, 1);
		return;
	}
	pvmsettaskname(program_invocation_name); /* (the file spawned) */
	tid = pvm_mytid();
	if (tid > 0 && write(fd, &tid, sizeof(tid)) != (ssize_t)sizeof(tid))
		tid = PvmSysErr;
	close(fd);
	if (tid < 0) {
		snprintf(v, sizeof(v), "failed: cannot reach the PVM daemon, or "
			 "tell the launcher t%x its tid (%d)", ptid, tid);
		setenv(PG_ENV_DIRECT, v, 1);
		return;
	}
	t.outtid = t.trctid = ptid;
	pvmtrc = t;
	pvmctrc = t;
	snprintf(v, sizeof(v), "%d", (int)getpid());
	setenv("PVMEPID", v, 1);
	snprintf(v, sizeof(v), "enrolled %d", ptid);
	setenv(PG_ENV_DIRECT, v, 1);
}

/* The tid and parent of a task the launcher started itself (init_direct
 * said DIRECT, PG_ENV_DIRECT's value) into ME; 0, or -1 with ERR. */
static int direct_identify(struct pg_self *me, const char *direct, char *err,
			   size_t errlen)
{
	int rc = sscanf(direct, "enrolled %d", &me->parent_tid) == 1 ? 0 : -1;

	if (rc < 0)
		snprintf(err, errlen, "%s", direct);
	else
		me->mytid = pvm_mytid(); /* (its own: enrolled) */
	unsetenv(PG_ENV_DIRECT);
	return rc;
}

/* Finds out who this task is: tids, program, host, and the handover;
 * 0, or -1 with ERR. */
static int identify(struct pg_self *me, char *err, size_t errlen)
{
	const char *direct = getenv(PG_ENV_DIRECT);
	ssize_t n;

	if (direct) {
		if (direct_identify(me, direct, err, errlen) < 0)
			return -1;
	} else if ((me->mytid = pvm_mytid()) < 0) {
		snprintf(err, errlen, "cannot reach the PVM daemon (%d)",
			 me->mytid);
		return -1;
	} else {
		me->parent_tid = pvm_parent();
	}
	if (me->parent_tid < 0) {
		snprintf(err, errlen, "started outside the run (no parent "
			 "task: %s)", pg_pvm_errtext(me->parent_tid));
		return -1;
	}
	n = readlink("/proc/self/exe", me->program, sizeof(me->program) - 1);
	me->program[n > 0 ? n : 0] = '\0';
	pg_pvm_host_of(me->mytid, me->host, sizeof(me->host));
	return receive_handover(me, err, errlen);
}

/* Joins the run this task belongs to, if any; 0, or -1 with ERR. */
static int task_open(char *err, size_t errlen)
{
	const char *ctx = getenv(PG_ENV_CONTEXT);
	struct pg_self *me = pg_self_edit();

	if (!ctx || !*ctx)
		return 0;
	pg_pvmtmp_clear_own(); /* before any PVM call, which has libpvm
				  pick its file names */
	pg_clock_start();
	pg_timeline(NULL, "joins (pangaea_init)");
	pg_proto_open(atoi(ctx));
	pg_pvm_bind(); /* the engine reaches PVM through it */
	if (identify(me, err, errlen) < 0 || pg_select_open(err, errlen) < 0)
		return -1;
	pg_timeline(NULL, "has its handover");
	pg_tracer_quiet(me->launcher_tid);
	pg_ids_learn(me->mytid, me->ltid);
	pg_ids_learn(me->parent_tid, me->parent_ltid);
	/* a task's child is known to the coordinator already: its parent
	   waited for the ack of its SPAWNED before the handover (spawn.c);
	   the launcher's children register (its SPAWNED is not awaited) */
	if (me->parent_ltid == 0 && register_task() < 0) {
		snprintf(err, errlen, "the coordinator t%x did not answer",
			 me->coord_tid);
		return -1;
	}
	pg_timeline(NULL, me->parent_ltid == 0 ? "registered with the coordinator"
						: "known to the coordinator (its parent's)");
	/* killed by pvm_kill before it joined, when recorded: it dies so
	   again, with no log either (unless no kill comes: it diverges) */
	if (me->mode == PANGAEA_MODE_REPLAY &&
	    pg_replay_unjoined(me->replaydir, me->ltid))
		pg_replay_await_kill();
	if (pg_log_open(0, err, errlen) < 0)
		return -1;
	pg_timeline(NULL, "log open (calibrated, clock sampled): runs");
	if (me->mode == PANGAEA_MODE_REPLAY &&
	    pg_replay_open(me->replaydir, me->ltid, err, errlen) < 0) {
		pg_replay_diverge("%s", err);
		pg_task_diverged();
	}
	pg_task_hooks();
	pg_stdin_attach();
	pg_clk_task_thread(); /* its clock reads are the task's */
	return 0;
}

/* Before main, in a task the launcher started (its programs, not their
 * children): moves to the user's working folder (PG_ENV_CWD), where a
 * program started from the user's shell runs (PVM starts every task in
 * its pvmd's folder, $HOME), and removes the variable, so that the task's
 * own spawns run where PVM puts them.  On a host without that folder the
 * task stays in PVM's, said on stderr. */
__attribute__((constructor)) static void init_enter_folder(void)
{
	const char *dir = getenv(PG_ENV_CWD);
	char here[PG_PATH_MAX];

	if (!dir)
		return;
	if (*dir && chdir(dir) < 0)
		fprintf(stderr, "pangaea: cannot run in %s on this host (%s): "
			"runs in %s\n", dir, strerror(errno),
			getcwd(here, sizeof(here)) ? here : "PVM's folder");
	unsetenv(PG_ENV_CWD);
}

#ifndef PG_PRELOAD
/* A clock read or seed of a program built with pangaea.h before its
 * pangaea_init (pg_clk_join_hook): joins the run then, if it is in one. */
static void init_join_early(void)
{
	const char *ctx = getenv(PG_ENV_CONTEXT);

	if (ctx && *ctx)
		pangaea_init(NULL, NULL);
}

/* In a program built with pangaea.h (this is libpangaea.a), before main:
 * if libpangaea.so is preloaded as well (LD_PRELOAD reaches every task of
 * a run), tells it that this program records itself, so that nothing is
 * recorded twice. */
__attribute__((constructor)) static void init_tell_preload(void)
{
	void (*source_mode)(void);

	pg_clk_join_hook = init_join_early;
	*(void **)&source_mode = dlsym(RTLD_DEFAULT, "pg_preload_source_mode");
	if (source_mode)
		source_mode();
}
#endif

int pangaea_init(int *argc, char ***argv)
{
	char err[1024];

	(void)argc;
	(void)argv;
	if (pg_me->mode)
		return 0;
	if (task_open(err, sizeof(err)) < 0) {
		pg_self_edit()->mode = PANGAEA_MODE_OFF;
		fprintf(stderr, "pangaea: task t%x: %s\n", pg_me->mytid, err);
		return PvmSysErr;
	}
	return 0;
}

int pangaea_exit(void)
{
	return pg_task_end();
}

int pangaea_ltid(void)
{
	return pg_me->mode ? pg_me->ltid : -1;
}

int pangaea_mode(void)
{
	return pg_me->mode;
}
