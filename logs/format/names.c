/*
 * names.c: what the tools call a run's calls.  The records of a log are
 * the same whichever binding wrote them (a send is PG_REC_SEND from
 * pvm_send and from MPI_Isend); the names the user reads are the
 * binding's: one table per binding, chosen by the run's folder
 * (pg_names_of_run), read by every tool that names a call (dump, stats,
 * races, the exports, the viewer, verify) and by a diverged replay's
 * report (the binding's table, pg_bind->names); and the events in those
 * words (pg_event_describe).
 */
#include "pangaea-logs.h"

#include <stdio.h>
#include <string.h>

/* PVM: every call is "pvm_" and its record's, group op's or call op's
 * name (event.c); the MPI binding's call ops are no PVM calls. */
const struct pg_names pg_names_pvm = {
	.binding = "pvm",
	.layer = "PVM",
	.machine = "PVM virtual machine",
	.world = "PVM (all tasks)",
	.prefix = "pvm_",
	.failed_polls = "pvm_nrecv/pvm_trecv/pvm_probe (failed)",
	.end = "pangaea_exit/exit",
	.other_calls = "a query, mailbox call or pvm_exit",
};

/* MPI (pangaea_lib/mpi): the calls the binding records, each under the
 * MPI call that makes its record.  A send of any mode (MPI_Isend,
 * Ssend, Start of a persistent one ...) is a send record; a receive
 * completed by MPI_Recv or a Wait is a receive, one completed by a Test
 * an nrecv; a probe record is an MPI_Probe or an MPI_Iprobe that found
 * a message (failed ones are counted, in failed polls). */
const struct pg_names pg_names_mpi = {
	.binding = "mpi",
	.layer = "MPI",
	.machine = "MPI job",
	.world = "MPI_COMM_WORLD",
	.prefix = NULL,
	.failed_polls = "MPI_Iprobe/MPI_Test* (failed)",
	.end = "MPI_Finalize/exit",
	.other_calls = "MPI_Test*/MPI_Wait* or a collective",
	.calls = {
		[PG_REC_SEND] = "MPI_Send",
		[PG_REC_RECV] = "MPI_Recv",
		[PG_REC_NRECV] = "MPI_Test",
		[PG_REC_PROBE] = "MPI_Probe",
		[PG_REC_SPAWN] = "MPI_Comm_spawn",
		[PG_CALL_QUERY + PG_Q_EXIT] = "MPI_Finalize",
		[PG_CALL_QUERY + PG_Q_MPI_DONE] = "MPI_Test/Wait",
		[PG_CALL_QUERY + PG_Q_MPI_COLL] = "MPI collective",
	},
};

const struct pg_names *pg_names_of_run(const char *dir)
{
	char path[PG_PATH_MAX + 16], err[PG_PATH_MAX + 100];
	struct pg_exec_log log;
	int mpi;

	if (!dir || snprintf(path, sizeof(path), "%s/task-0.exec", dir) >=
			    (int)sizeof(path) ||
	    pg_exec_read(path, &log, err, sizeof(err)) < 0)
		return &pg_names_pvm;
	mpi = log.nspawn == 1 && pg_mpi_launcher(log.spawns[0].file);
	pg_exec_free(&log);
	return mpi ? &pg_names_mpi : &pg_names_pvm;
}

int pg_mpi_launcher(const char *word)
{
	const char *b = strrchr(word, '/') ? strrchr(word, '/') + 1 : word;

	return strcmp(b, "mpirun") == 0 || strcmp(b, "mpiexec") == 0 ||
	       strcmp(b, "orterun") == 0 || strncmp(b, "mpirun.", 7) == 0 ||
	       strncmp(b, "mpiexec.", 8) == 0;
}

/* The base name of call CALL of PVM's numbering ("send", "joingroup",
 * "pstat"), or NULL when CALL is none or one of the MPI binding's ops. */
static const char *pvm_base(int call)
{
	if (call > PG_CALL_GROUP && call <= PG_CALL_GROUP + PG_GROUP_LAST)
		return pg_group_op_name(call - PG_CALL_GROUP);
	if (call > PG_CALL_QUERY && call < PG_CALL_QUERY + PG_Q_MPI_DONE)
		return pg_call_op_name(call - PG_CALL_QUERY);
	if (call > 0 && pg_call_of(call, 0) == call)
		return pg_rec_kind_name(call);
	return NULL;
}

const char *pg_call_name(const struct pg_names *nm, int call, char *buf,
			 size_t n)
{
	const char *base;

	if (call <= 0 || call >= PG_CALL_MAX)
		return NULL;
	if (nm->calls[call]) {
		snprintf(buf, n, "%s", nm->calls[call]);
		return buf;
	}
	if (!nm->prefix || !(base = pvm_base(call)))
		return NULL;
	snprintf(buf, n, "%s%s", nm->prefix, base);
	return buf;
}

const char *pg_kind_call_name(const struct pg_names *nm, int kind, char *buf,
			      size_t n)
{
	if (kind == PG_REC_POLLFAIL)
		snprintf(buf, n, "%s", nm->failed_polls);
	else if (kind == PG_REC_END)
		snprintf(buf, n, "%s", nm->end);
	else if (!pg_call_name(nm, pg_call_of(kind, 0), buf, n))
		snprintf(buf, n, "%s", kind == PG_REC_GROUP ? "group call"
				       : kind == PG_REC_CALL ? nm->other_calls
							     : "?");
	return buf;
}

/* Writes " to=[A B ...]" for the destinations of EV into BUF (N bytes). */
static void describe_dests(const struct pg_event *ev, char *buf, size_t n)
{
	size_t k;

	if (!ev->dests && ev->ndest > 0) { /* a copy without its list */
		snprintf(buf, n, " to=[%d tasks]", ev->ndest);
		return;
	}
	k = (size_t)snprintf(buf, n, " to=[");

	for (int i = 0; i < ev->ndest && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%d", i ? " " : "",
				      ev->dests[i]);
	if (k < n)
		snprintf(buf + k, n - k, "]");
}

void pg_event_describe(const struct pg_names *nm, const struct pg_event *ev,
		       char *buf, size_t n)
{
	const char *how = pg_end_how_name(ev->how);
	char d[160], from[32], name[64];

	switch (ev->kind) {
	case PG_REC_SEND:
	case PG_REC_PSEND:
		snprintf(buf, n, "%s to=%d tag=%d msg=%u",
			 ev->kind == PG_REC_SEND ? "send"
			 : pg_kind_call_name(nm, ev->kind, name, sizeof(name)),
			 ev->peer, ev->tag, ev->msgid);
		break;
	case PG_REC_MCAST:
	case PG_REC_BCAST:
		describe_dests(ev, d, sizeof(d));
		snprintf(buf, n, "%s%s%s%s tag=%d msg=%u",
			 pg_kind_call_name(nm, ev->kind, name, sizeof(name)),
			 ev->kind == PG_REC_BCAST ? " group=" : "",
			 ev->kind == PG_REC_BCAST ? ev->group : "", d, ev->tag,
			 ev->msgid);
		break;
	case PG_REC_GROUP:
		if (!pg_call_name(nm, pg_call_of(ev->kind, ev->op), name,
				  sizeof(name)))
			snprintf(name, sizeof(name), "?");
		snprintf(buf, n, "%s(\"%s\", %d) = %d", name, ev->group,
			 ev->arg, ev->result);
		break;
	case PG_REC_SPAWN:
		snprintf(buf, n, "spawn #%u", ev->msgid);
		break;
	case PG_REC_END:
		snprintf(buf, n, "end of task (%s %d)", how ? how : "?",
			 ev->value);
		break;
	case PG_REC_POLLFAIL:
		snprintf(buf, n, "%u failed polls", ev->count);
		break;
	case PG_REC_CALL:
		pg_call_describe(ev, 1, buf, n);
		break;
	case PG_REC_KILL:
		pg_kind_call_name(nm, ev->kind, name, sizeof(name));
		if (ev->peer == PG_PEER_FOREIGN)
			snprintf(buf, n, "%s of a task outside the run", name);
		else
			snprintf(buf, n, "%s of task %d", name, ev->peer);
		break;
	default:
		if (ev->peer == PG_PEER_FOREIGN)
			snprintf(from, sizeof(from), "a task outside the run");
		else if (ev->peer == PG_PEER_SYSTEM)
			snprintf(from, sizeof(from), "pvmd");
		else
			snprintf(from, sizeof(from), "%d", ev->peer);
		snprintf(buf, n, "%s from=%s msg=%u tag=%d",
			 pg_kind_call_name(nm, ev->kind, name, sizeof(name)),
			 from, ev->msgid, ev->tag);
	}
}
