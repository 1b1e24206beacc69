/*
 * spawn.c: MPI_Comm_spawn and MPI_Comm_spawn_multiple.  The ranks they
 * start are children of the root (the rank that spawns) as PVM spawns
 * are: the k-th child of ltid P is P * 1000 + k, counted over all its
 * spawns; rank R of the children's world is ltid BASE + R + 1, BASE
 * reaching them through the spawn's info ("env", which Open MPI puts
 * in their environment; LD_PRELOAD and the run's other variables reach
 * them as mpirun's -x ones).  The root logs the spawn as a PVM task
 * does (a spawn record in its execution log, a spawn event, which replay
 * checks); then both sides learn each other's ltids over the new
 * intercommunicator (inter.c), whose point-to-point calls are then
 * recorded and replayed as any others.  MPI_Intercomm_create's
 * intercommunicators (between two groups of the run's ranks), and those
 * of MPI_Comm_accept and MPI_Comm_connect between ranks of the run, get
 * the same exchange, and MPI_Comm_free and MPI_Comm_disconnect forget
 * them.
 */
#include "pgmpi.h"
#include "pangaea-clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nchildren; /* ranks this rank has started as a root */
static int spawn_seq; /* its spawns as a root */

/* Whether NTASK more children still get ltids that fit in an int. */
static int ltids_left(int ntask)
{
	return ntask >= 0 && nchildren + ntask < PG_LTID_FANOUT &&
	       pg_me->ltid <= (0x7fffffff - (PG_LTID_FANOUT - 1)) /
				      PG_LTID_FANOUT;
}

/* INFO (may be MPI_INFO_NULL) with PGM_ENV_BASE=BASE added to its "env"
 * into *OUT (to free); 0 or -1. */
static int child_info(MPI_Info info, int base, MPI_Info *out)
{
	char old[2048] = "", env[2200];
	int flag = 0, len = 0;

	if ((info == MPI_INFO_NULL ? PMPI_Info_create(out)
				   : PMPI_Info_dup(info, out)) != MPI_SUCCESS)
		return -1;
	if (PMPI_Info_get_valuelen(*out, "env", &len, &flag) == MPI_SUCCESS &&
	    flag && len < (int)sizeof(old))
		PMPI_Info_get(*out, "env", (int)sizeof(old) - 1, old, &flag);
	snprintf(env, sizeof(env), "%s%s" PGM_ENV_BASE "=%d", old,
		 old[0] ? "\n" : "", base);
	return PMPI_Info_set(*out, "env", env) == MPI_SUCCESS ? 0 : -1;
}

/* The root's log of a spawn of N ranks (FILE with ARGV, for the first
 * command) started at T: its execution log's spawn record and the spawn
 * event; in replay first checked against the recording (stops the rank
 * at a divergence). */
static void spawn_event(const char *file, char **argv, int n, uint64_t t)
{
	struct pg_spawn_slot *slots = calloc((size_t)n + 1, sizeof(*slots));
	struct pg_spawn_rec rec = { .ntask = n, .started = n, .argv = argv };
	struct pg_call call = { .ev = { .kind = PG_REC_SPAWN }, .spawn = &rec };
	struct pg_spawn_rec *want;
	struct pg_event ev = { .kind = PG_REC_SPAWN, .t = t };

	snprintf(rec.file, sizeof(rec.file), "%s", file ? file : "");
	while (argv && argv != MPI_ARGV_NULL && argv[rec.argc])
		rec.argc++;
	if (argv == MPI_ARGV_NULL)
		rec.argv = NULL;
	if (pg_me->mode == PANGAEA_MODE_REPLAY &&
	    pg_replay_expect(&call, NULL, &want) == PG_REPLAY_DIVERGED) {
		free(slots);
		pg_task_diverged();
		return;
	}
	rec.seq = ++spawn_seq;
	for (int i = 0; slots && i < n; i++) {
		slots[i].ltid = pg_me->ltid * PG_LTID_FANOUT + nchildren + i + 1;
		snprintf(slots[i].host, sizeof(slots[i].host), "%s",
			 pg_me->host);
	}
	rec.slots = slots;
	if (slots)
		pg_log_spawn(&rec);
	free(slots);
	ev.msgid = (uint32_t)rec.seq;
	ev.len = (uint32_t)n;
	ev.dur = pg_now() - t;
	pg_log(&ev);
}

/* Spawns through SPAWN (PMPI_Comm_spawn or _multiple, with the info
 * INFOS[0 .. NINFO - 1] changed at the root) NTASK ranks running FILE
 * with ARGV (the first command's); MPI's return.  Off a run, or on an
 * intercommunicator, MPI's call as it is. */
#define SPAWN_BODY(CALL)                                                     \
	do {                                                                 \
		MPI_Info mine[ninfo > 0 ? ninfo : 1];                        \
		int rank = 0, rc, n = 0, root_here;                          \
		uint64_t t;                                                  \
		if (!pgm_active_in(comm) || !pgm_active())                   \
			return CALL(infos);                                  \
		PMPI_Comm_rank(comm, &rank);                                 \
		root_here = rank == root;                                    \
		if (root_here && !ltids_left(ntask)) {                       \
			fprintf(stderr, "pangaea: task %d cannot spawn %d "  \
				"more ranks: a task has at most 999 "        \
				"children, and its ltid times 1000 must "    \
				"stay below 2^31\n", pg_me->ltid, ntask);    \
			PMPI_Abort(MPI_COMM_WORLD, 1);                       \
		}                                                            \
		for (int i = 0; i < ninfo; i++) {                            \
			mine[i] = infos[i];                                  \
			if (root_here &&                                     \
			    child_info(infos[i], pg_me->ltid *               \
						 PG_LTID_FANOUT + nchildren, \
				       &mine[i]) < 0)                        \
				return MPI_ERR_INFO;                         \
		}                                                            \
		pg_delay();                                                  \
		t = pg_now();                                                \
		pg_clk_depth++; /* (MPI's clock reads in it: real) */       \
		rc = CALL(mine);                                             \
		pg_clk_depth--;                                              \
		for (int i = 0; root_here && i < ninfo; i++)                 \
			if (mine[i] != infos[i])                             \
				PMPI_Info_free(&mine[i]);                    \
		if (rc != MPI_SUCCESS)                                       \
			return rc;                                           \
		PMPI_Comm_remote_size(*inter, &n);                           \
		if (root_here) {                                             \
			spawn_event(file, argv, n, t);                       \
			nchildren += n;                                      \
		}                                                            \
		if (pgm_inter_connect(*inter, pg_me->ltid) < 0) {            \
			fprintf(stderr, "pangaea: task %d cannot learn the " \
				"ltids of the ranks it spawned\n",           \
				pg_me->ltid);                                \
			PMPI_Abort(MPI_COMM_WORLD, 1);                       \
		}                                                            \
		return rc;                                                   \
	} while (0)

int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs,
		   MPI_Info info, int root, MPI_Comm comm, MPI_Comm *inter,
		   int errcodes[])
{
	MPI_Info infos[1] = { info };
	const char *file = command;
	int ninfo = 1, ntask = maxprocs;

#define CALL_ONE(I)                                                           \
	PMPI_Comm_spawn(command, argv, maxprocs, (I)[0], root, comm, inter,   \
			errcodes)
	SPAWN_BODY(CALL_ONE);
#undef CALL_ONE
}

int MPI_Comm_spawn_multiple(int count, char *commands[], char **argvs[],
			    const int maxprocs[], const MPI_Info infos_in[],
			    int root, MPI_Comm comm, MPI_Comm *inter,
			    int errcodes[])
{
	MPI_Info infos[count > 0 ? count : 1];
	const char *file = count > 0 && commands ? commands[0] : "";
	char **argv = count > 0 && argvs != MPI_ARGVS_NULL ? argvs[0]
							  : MPI_ARGV_NULL;
	int ninfo = count, ntask = 0;

	for (int i = 0; i < count; i++) {
		infos[i] = infos_in[i];
		ntask += maxprocs ? maxprocs[i] : 0;
	}
#define CALL_MANY(I)                                                          \
	PMPI_Comm_spawn_multiple(count, commands, argvs, maxprocs, (I), root, \
				 comm, inter, errcodes)
	SPAWN_BODY(CALL_MANY);
#undef CALL_MANY
}

int MPI_Comm_disconnect(MPI_Comm *comm)
{
	MPI_Comm c = *comm;
	int rc = PMPI_Comm_disconnect(comm);

	if (rc == MPI_SUCCESS)
		pgm_inter_forget(c);
	return rc;
}

int MPI_Comm_free(MPI_Comm *comm)
{
	MPI_Comm c = *comm;
	int rc = PMPI_Comm_free(comm);

	if (rc == MPI_SUCCESS)
		pgm_inter_forget(c);
	return rc;
}

/* Whether the remote group of INTER (its ltids known) is of this run's
 * ltids: a remote process of this rank's world has the ltid of its world
 * rank, and one outside it (spawned) none of the world's; 1 or 0 (the
 * ranks of another job, whose ltids would collide with ours). */
static int inter_of_run(MPI_Comm inter)
{
	MPI_Group rg, wg;
	int n = 0, me = 0, size = 0, base, ok = 1, *in, *w, a;

	PMPI_Comm_rank(MPI_COMM_WORLD, &me);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	base = pg_me->ltid - me; /* world rank 0's */
	if (PMPI_Comm_remote_size(inter, &n) != MPI_SUCCESS || n <= 0 ||
	    !(in = malloc(2 * (size_t)n * sizeof(int))))
		return 0;
	w = in + n;
	for (int r = 0; r < n; r++)
		in[r] = r;
	PMPI_Comm_remote_group(inter, &rg);
	PMPI_Comm_group(MPI_COMM_WORLD, &wg);
	if (PMPI_Group_translate_ranks(rg, n, in, wg, w) != MPI_SUCCESS)
		ok = 0;
	for (int r = 0; ok && r < n; r++) {
		pgm_inter_addr(inter, r, &a);
		a++; /* (its ltid) */
		ok = w[r] == MPI_UNDEFINED ? a < base || a >= base + size
					   : a == base + w[r];
	}
	PMPI_Group_free(&rg);
	PMPI_Group_free(&wg);
	free(in);
	return ok;
}

/* The ltids of INTER's remote group, just made by CALL ("accept") among
 * the run's ranks, exchanged as for a spawn's, so that its
 * point-to-point calls are recorded and replayed; were the exchange to
 * fail, or the remote ranks be another job's, its calls go to MPI
 * unrecorded (and the user is told). */
static void inter_made(const char *call, MPI_Comm inter)
{
	if (pgm_inter_connect(inter, pg_me->ltid) < 0) {
		fprintf(stderr, "pangaea: task %d: the ltids of an "
			"intercommunicator of %s are not known: its messages "
			"are not recorded\n", pg_me->ltid, call);
	} else if (!inter_of_run(inter)) {
		pgm_inter_forget(inter);
		fprintf(stderr, "pangaea: task %d: an intercommunicator of %s "
			"reaches another job's ranks: its messages are not "
			"recorded\n", pg_me->ltid, call);
	}
}

int MPI_Intercomm_create(MPI_Comm local, int lleader, MPI_Comm peer,
			 int rleader, int tag, MPI_Comm *inter)
{
	int rc = PMPI_Intercomm_create(local, lleader, peer, rleader, tag,
				       inter);

	if (rc == MPI_SUCCESS && pgm_active())
		inter_made("MPI_Intercomm_create", *inter);
	return rc;
}

int MPI_Comm_accept(const char *port, MPI_Info info, int root, MPI_Comm comm,
		    MPI_Comm *inter)
{
	int rc;

	pg_clk_depth++; /* (MPI's clock reads in it: real) */
	rc = PMPI_Comm_accept(port, info, root, comm, inter);
	pg_clk_depth--;
	if (rc == MPI_SUCCESS && pgm_active())
		inter_made("MPI_Comm_accept", *inter);
	return rc;
}

int MPI_Comm_connect(const char *port, MPI_Info info, int root,
		     MPI_Comm comm, MPI_Comm *inter)
{
	int rc;

	pg_clk_depth++;
	rc = PMPI_Comm_connect(port, info, root, comm, inter);
	pg_clk_depth--;
	if (rc == MPI_SUCCESS && pgm_active())
		inter_made("MPI_Comm_connect", *inter);
	return rc;
}
