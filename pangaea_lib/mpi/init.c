/*
 * init.c: a rank joins its run in MPI_Init (the launcher's environment
 * says how: PGM_ENV_*), and leaves it in MPI_Finalize or at its exit.
 * No coordinator: a rank's ltid is its world rank + 1, which MPI_Init
 * gives, and record and replay need nothing from another process (the
 * launcher reads the logs when mpirun has ended).  The engine's table of
 * MPI functions is here too: the engine reaches the launcher through
 * it only to say a task's end (a no-op: the end record says it), to
 * report a divergence (on stderr) and, replaying a rank the recording
 * saw killed, to wait for the kill (mpirun's, as a crashing rank ends).
 */
#include "pgmpi.h"
#include "pangaea-clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int active; /* joined, not yet finalized */
static int wbase;  /* a world rank's address is wbase + rank: 0 for the
		      launcher's ranks, their spawner's ltid * 1000 + the
		      children it had before for ranks MPI_Comm_spawn made */

int pgm_active(void)
{
	return active;
}

int pgm_active_in(MPI_Comm comm)
{
	int inter = 0;

	if (!active || comm == MPI_COMM_WORLD)
		return active;
	if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
		return 0;
	return inter ? pgm_inter_known(comm) : 1;
}

/* Rank R of COMM as a world rank (TO_WORLD), or world rank R as a rank
 * of COMM; MISSING when the other group has no such process. */
static int translate(MPI_Comm comm, int to_world, int r, int missing)
{
	MPI_Group g, w;
	int out = MPI_UNDEFINED;

	if (PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
		return r;
	PMPI_Comm_group(MPI_COMM_WORLD, &w);
	PMPI_Group_translate_ranks(to_world ? g : w, 1, &r, to_world ? w : g,
				   &out);
	PMPI_Group_free(&g);
	PMPI_Group_free(&w);
	return out == MPI_UNDEFINED ? missing : out;
}

int pgm_world_rank(MPI_Comm comm, int r)
{
	int a;

	if (r < 0)
		return r;
	if (comm == MPI_COMM_WORLD)
		return wbase + r;
	if (pgm_inter_addr(comm, r, &a))
		return a;
	return wbase + translate(comm, 1, r, r);
}

int pgm_comm_rank(MPI_Comm comm, int w)
{
	int r;

	if (w < 0)
		return w;
	if (pgm_inter_rank(comm, w, &r))
		return r;
	if (w < wbase)
		return MPI_PROC_NULL;
	if (comm == MPI_COMM_WORLD)
		return w - wbase;
	return translate(comm, 0, w - wbase, MPI_PROC_NULL);
}

/* ---- the engine's table ---- */

/* Chaos's hold-back (pg_chaos_recv) of a wildcard receive in HOLD_COMM:
 * the engine lists the senders and picks one; its "receive" is a probe
 * of that sender, whose status the wrapper then receives. */
static MPI_Comm hold_comm;
static MPI_Status hold_st;

int pgm_chaos_pick(MPI_Comm comm, int tag, MPI_Status *st)
{
	int rc;

	hold_comm = comm;
	rc = pg_chaos_recv(PG_REC_RECV, -1, tag == MPI_ANY_TAG ? -1 : tag,
			   NULL);
	*st = hold_st;
	return rc > 0;
}

/* A probe (blocking, or a look when TMOUT is zero) of (SRC, a world
 * rank or -1; TAG or -1) in the held-back receive's communicator: 1 a
 * message there (its status kept), 0 none, -1 an error. */
static int b_recv(int kind, int src, int tag, struct timeval *tmout)
{
	int s = src < 0 ? MPI_ANY_SOURCE : pgm_comm_rank(hold_comm, src);
	int g = tag < 0 ? MPI_ANY_TAG : tag, flag = 1;

	(void)kind;
	if (tmout && tmout->tv_sec == 0 && tmout->tv_usec == 0)
		return PMPI_Iprobe(s, g, hold_comm, &flag, &hold_st) !=
			       MPI_SUCCESS ? -1 : flag;
	return PMPI_Probe(s, g, hold_comm, &hold_st) != MPI_SUCCESS ? -1 : 1;
}

static int b_info(int msg, struct pg_msginfo *mi)
{
	(void)msg, (void)mi;
	return -1; /* (the wrappers receive themselves) */
}

static int b_make_current(int msg)
{
	(void)msg;
	return 0;
}

static void b_release(int msg)
{
	(void)msg;
}

/* The ranks (as world ranks) of the held-back receive's communicator
 * with a message of TAG (-1 any) there: one probe a rank. */
static int b_senders(int tag, int *srcs, int max)
{
	int size = pgm_inter_size(hold_comm), n = 0, flag;

	if (!size)
		PMPI_Comm_size(hold_comm, &size);
	for (int r = 0; r < size && n < max; r++)
		if (PMPI_Iprobe(r, tag < 0 ? MPI_ANY_TAG : tag, hold_comm, &flag,
				MPI_STATUS_IGNORE) == MPI_SUCCESS && flag)
			srcs[n++] = pgm_world_rank(hold_comm, r);
	return n;
}

static int b_ltid_of(int src)
{
	return src >= 0 ? src + 1 : -1;
}

static int b_addr_of(int ltid)
{
	return ltid >= 1 ? ltid - 1 : -1;
}

/* The path of this rank's -debug file with SUFFIX ("pid", "go") into
 * BUF: debug-LTID.SUFFIX in the replay's log folder. */
static char *debug_file(char *buf, size_t n, const char *suffix)
{
	snprintf(buf, n, "%s/debug-%d.%s", pg_me->logdir, pg_me->ltid, suffix);
	return buf;
}

/* DEBUG (-debug: this rank stops; V: ltid, pid, event): its pid into
 * debug-LTID.pid (written whole, then renamed), which the launcher looks
 * for.  DONE, LOGFAIL, CLOCK ...: nobody listens; the logs say it all. */
static int b_send_ints(int to, int tag, const int *v)
{
	char tmp[PG_PATH_MAX + 64], path[PG_PATH_MAX + 64];
	FILE *f;

	(void)to;
	if (tag != PG_TAG_DEBUG)
		return 0;
	if (!(f = fopen(debug_file(tmp, sizeof(tmp), "pid.tmp"), "we")))
		return -1;
	fprintf(f, "%d %d\n", v[1], v[2]);
	if (fclose(f) != 0 ||
	    rename(tmp, debug_file(path, sizeof(path), "pid")) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* DEBUG: 1 when the launcher's gdb has ended without letting this rank
 * go (it made debug-LTID.go), else 0; nothing else comes. */
static int b_recv_ints(int from, int tag, int seconds, int *v)
{
	char path[PG_PATH_MAX + 64];

	(void)from, (void)seconds, (void)v;
	return tag == PG_TAG_DEBUG &&
	       unlink(debug_file(path, sizeof(path), "go")) == 0;
}

/* KILLWAIT: the recording has this rank killed here (mpirun ending the
 * run after a rank crashed): wait for that kill, 30 s at most. */
static int b_ask(int to, int tag, const int *v, int reply, int *answer)
{
	(void)to, (void)v, (void)reply;
	if (tag == PG_TAG_KILLWAIT)
		for (int i = 0; i < 300; i++)
			usleep(100000);
	*answer = -1;
	return 0;
}

/* (-1: the engine prints the report on stderr itself) */
static int b_send_diverged(int to, int ltid, const char *report)
{
	(void)to, (void)ltid, (void)report;
	return -1;
}

static int b_send_events(int to, const struct pg_live_head *h,
			 const int *ints, int n)
{
	(void)to, (void)h, (void)ints, (void)n;
	return -1;
}

/* Leaves the run of a diverged replay: MPI ends the job. */
static void b_leave(void)
{
	active = 0;
	/* (says so to the launcher, which ends the run should the abort
	   not end it) */
	pg_state_block(PG_STATE_DIVERGED, -1, -1, NULL, NULL);
	PMPI_Abort(MPI_COMM_WORLD, 3);
}

static int b_scratch(void)
{
	return 0;
}

static void b_stamp(int msg)
{
	(void)msg;
}

static const struct pg_binding mpi_binding = {
	.name = "mpi", .names = &pg_names_mpi,
	.err_sys = MPI_ERR_OTHER, .err_nomem = MPI_ERR_NO_MEM,
	.recv = b_recv, .info = b_info, .make_current = b_make_current,
	.release = b_release, .senders = b_senders, .ltid_of = b_ltid_of,
	.addr_of = b_addr_of, .send_ints = b_send_ints,
	.recv_ints = b_recv_ints, .ask = b_ask,
	.send_diverged = b_send_diverged, .send_events = b_send_events,
	.leave = b_leave, .scratch = b_scratch, .stamp = b_stamp,
};

/* ---- joining and leaving ---- */

/* The libraries of Open MPI whose clock reads are MPI's own, not the
 * program's (the starts of their file names; pg_clk_exclude_lib). */
static const char *const mpi_libs[] = {
	"libmpi", "libopen-", "mca_", "libpmix", "libevent", "libhwloc",
	"libuc", "libfabric", "libpsm", "libudev", "libmca_common",
	"pmix_mca_", "libmunge", "libnl-",
};

/* Whether DIR, the rank's log folder, is the one the launcher prepared
 * (it writes task-0.exec there before mpirun starts): a rank on another
 * host sees another folder of that name unless the two hosts share it,
 * and its log would never reach the launcher. */
static int launchers_folder(const char *dir)
{
	char path[PG_PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/task-0.exec", dir);
	return access(path, F_OK) == 0;
}

/* Joins the run the environment names, after MPI_Init; 0 (also when
 * there is no run), or -1 with ERR. */
static int join(char *err, size_t n)
{
	const char *mode = getenv(PGM_ENV_MODE), *dir = getenv(PGM_ENV_LOGDIR);
	const char *rdir = getenv(PGM_ENV_REPLAYDIR), *d = getenv(PG_ENV_DELAY);
	const char *seed = getenv(PG_ENV_SEED), *base = getenv(PGM_ENV_BASE);
	struct pg_self *me = pg_self_edit();
	MPI_Comm parent = MPI_COMM_NULL;
	ssize_t l;
	int rank = 0;

	if (!mode || !dir)
		return 0;
	/* the rank's clock reads: this thread's, not MPI's own (its
	   libraries, its components, what they link), from the start: MPI's
	   progress threads read clocks while the rank joins */
	for (size_t i = 0; i < sizeof(mpi_libs) / sizeof(*mpi_libs); i++)
		pg_clk_exclude_lib(mpi_libs[i]);
	pg_clk_task_thread();
	pg_clock_start();
	pg_binding_set(&mpi_binding);
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	me->mode = strcmp(mode, "replay") == 0 ? PANGAEA_MODE_REPLAY
					       : PANGAEA_MODE_RECORD;
	wbase = base ? atoi(base) : 0;
	me->ltid = wbase + rank + 1;
	me->mytid = wbase + rank;
	me->parent_ltid = me->ltid / PG_LTID_FANOUT;
	me->launcher_tid = 1; /* (b_ask: the kill of a recorded crash) */
	snprintf(me->logdir, sizeof(me->logdir), "%s", dir);
	snprintf(me->replaydir, sizeof(me->replaydir), "%s", rdir ? rdir : "");
	l = readlink("/proc/self/exe", me->program, sizeof(me->program) - 1);
	me->program[l > 0 ? l : 0] = '\0';
	gethostname(me->host, sizeof(me->host) - 1);
	pg_delay_open(d ? atoi(d) : 0, seed ? (unsigned)strtoul(seed, 0, 10) : 1,
		      me->ltid);
	pg_chaos_open(getenv(PG_ENV_CHAOS) && atoi(getenv(PG_ENV_CHAOS)) == 1 &&
			      me->mode == PANGAEA_MODE_RECORD,
		      seed ? (unsigned)strtoul(seed, 0, 10) : 1, me->ltid);
	if (!launchers_folder(dir)) {
		snprintf(err, n, "the log folder %s on host %s is not the "
			 "launcher's (no task-0.exec there): ranks on other "
			 "hosts need a -logdir on storage all hosts share",
			 dir, me->host);
		return -1;
	}
	if (pg_select_open(err, n) < 0 || pg_log_open(0, err, n) < 0)
		return -1;
	if (me->mode == PANGAEA_MODE_REPLAY &&
	    (pg_replay_open(me->replaydir, me->ltid, err, n) < 0 ||
	     pgm_matches_load(me->replaydir, me->ltid, err, n) < 0))
		return -1;
	pg_task_hooks();
	/* (a rank MPI_Comm_spawn made: its parents' ltids, exchanged with
	   them before the program's first use of the intercommunicator;
	   MPI's clock reads in it are real: pgm_inter_connect) */
	PMPI_Comm_get_parent(&parent);
	if (parent != MPI_COMM_NULL && pgm_inter_connect(parent, me->ltid) < 0) {
		snprintf(err, n, "cannot learn the ltids of its spawner's ranks");
		return -1;
	}
	active = 1;
	return 0;
}

/* After MPI's own init: joins, or stops the program with the reason. */
static int joined(int rc)
{
	char err[1024];

	if (rc == MPI_SUCCESS && join(err, sizeof(err)) < 0) {
		fprintf(stderr, "pangaea: MPI rank cannot join the run: %s\n",
			err);
		PMPI_Abort(MPI_COMM_WORLD, 1);
	}
	return rc;
}

int MPI_Init(int *argc, char ***argv)
{
	return joined(PMPI_Init(argc, argv));
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	return joined(PMPI_Init_thread(argc, argv, required, provided));
}

int MPI_Finalize(void)
{
	if (active) {
		pg_delay();
		pg_task_end(); /* (stops the rank if replay diverged here) */
		active = 0;
		/* (MPI_Finalize waits for the other ranks: a deadlock may
		   have ranks here) */
		pg_state_block(pg_call_of(PG_REC_CALL, PG_Q_EXIT), -1, -1, NULL,
			       NULL);
	}
	return PMPI_Finalize();
}
