/*
 * event.c: what the events of a log are, in words.  One table per
 * vocabulary (record kinds, group calls, ends of a task), read both ways
 * (number -> name, name -> number); every reader (the trace database,
 * the live view, the dumps, the reports of a diverged replay) asks here.
 * The one rule of which kinds send and which take a message is
 * pg_rec_kind_class, inline in pangaea-logs.h (replay asks it at every
 * call).
 */
#include "pangaea-logs.h"

#include <stdio.h>
#include <string.h>

/* Record kinds: their names (as the trace database stores them; what
 * each does with a message is pg_rec_kind_class's, pangaea-logs.h). */
static const char *const kinds[PG_REC_LAST + 1] = {
	[PG_REC_SEND] = "send",
	[PG_REC_RECV] = "recv",
	[PG_REC_NRECV] = "nrecv",
	[PG_REC_TRECV] = "trecv",
	[PG_REC_SPAWN] = "spawn",
	[PG_REC_END] = "end",
	[PG_REC_PROBE] = "probe",
	[PG_REC_POLLFAIL] = "pollfail",
	[PG_REC_MCAST] = "mcast",
	[PG_REC_BCAST] = "bcast",
	[PG_REC_PSEND] = "psend",
	[PG_REC_PRECV] = "precv",
	[PG_REC_GROUP] = "group",
	[PG_REC_KILL] = "kill",
	[PG_REC_CALL] = "call",
};

/* Queries, mailbox calls and pvm_exit, by enum pg_call_op. */
static const char *const call_ops[PG_Q_LAST + 1] = {
	[PG_Q_PSTAT] = "pstat", [PG_Q_MSTAT] = "mstat",
	[PG_Q_TASKS] = "tasks", [PG_Q_CONFIG] = "config",
	[PG_Q_PUTINFO] = "putinfo", [PG_Q_RECVINFO] = "recvinfo",
	[PG_Q_GETMBOXINFO] = "getmboxinfo", [PG_Q_DELINFO] = "delinfo",
	[PG_Q_EXIT] = "exit",
	[PG_Q_MPI_DONE] = "MPI_Test/Wait", [PG_Q_MPI_COLL] = "collective",
};

/* Group calls, by enum pg_group_op. */
static const char *const group_ops[PG_GROUP_LAST + 1] = {
	[PG_GROUP_JOIN] = "joingroup", [PG_GROUP_LEAVE] = "lvgroup",
	[PG_GROUP_GETTID] = "gettid", [PG_GROUP_GETINST] = "getinst",
	[PG_GROUP_GSIZE] = "gsize", [PG_GROUP_BARRIER] = "barrier",
	[PG_GROUP_BCAST] = "bcast",
};

/* Ends of a task, by enum pg_end_how. */
static const char *const end_hows[PG_END_LAST + 1] = {
	[PG_END_EXIT] = "pangaea_exit", [PG_END_NO_EXIT] = "exit",
	[PG_END_SIGNAL] = "signal", [PG_END_DIVERGED] = "diverged",
};

/* The calls of clock reads (enum pg_time_src) and seeds (pg_seed_src). */
static const char *const time_srcs[PG_TIME_LAST + 1] = {
	[PG_TIME_GETTIMEOFDAY] = "gettimeofday", [PG_TIME_TIME] = "time",
	[PG_TIME_REALTIME] = "clock_gettime(CLOCK_REALTIME)",
	[PG_TIME_MONOTONIC] = "clock_gettime(CLOCK_MONOTONIC)",
	[PG_TIME_CLOCKID] = "clock_gettime", [PG_TIME_CLOCK] = "clock",
	[PG_TIME_TIMES] = "times", [PG_TIME_RUSAGE] = "getrusage",
};
static const char *const seed_srcs[PG_SEED_LAST + 1] = {
	[PG_SEED_SRAND] = "srand", [PG_SEED_SRANDOM] = "srandom",
	[PG_SEED_SRAND48] = "srand48", [PG_SEED_SEED48] = "seed48",
	[PG_SEED_INITSTATE] = "initstate", [PG_SEED_GETRANDOM] = "getrandom",
	[PG_SEED_GETENTROPY] = "getentropy",
};

const char *pg_rec_kind_name(int kind)
{
	if (kind == PG_REC_TIME)
		return "time";
	if (kind == PG_REC_SEED)
		return "seed";
	return kind >= 1 && kind <= PG_REC_LAST ? kinds[kind] : "?";
}

const char *pg_value_src_name(int kind, int src)
{
	if (kind == PG_REC_TIME && src >= 0 && src <= PG_TIME_LAST)
		return time_srcs[src];
	if (kind == PG_REC_SEED && src >= 0 && src <= PG_SEED_LAST)
		return seed_srcs[src];
	return "?";
}

void pg_value_describe(const struct pg_event *ev, char *buf, size_t n)
{
	size_t k;

	if (ev->kind == PG_REC_TIME && ev->op == PG_TIME_CLOCKID &&
	    ev->arg == PG_CLOCKID_MPI_WTIME)
		k = (size_t)snprintf(buf, n, "MPI_Wtime");
	else
		k = (size_t)snprintf(buf, n, "%s",
				     pg_value_src_name(ev->kind, ev->op));
	if (ev->kind == PG_REC_TIME && ev->arg != PG_CLOCKID_MPI_WTIME &&
	    (ev->op == PG_TIME_CLOCKID || ev->op == PG_TIME_RUSAGE) && k < n)
		k += (size_t)snprintf(buf + k, n - k, "(%d)", ev->arg);
	if (ev->result && k < n) {
		snprintf(buf + k, n - k, " failed: errno %d", ev->result);
		return;
	}
	for (int i = 0; i < ev->nvals && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "," : " = ",
				      (long long)ev->vals[i]);
	if (ev->blob && k < n)
		k += (size_t)snprintf(buf + k, n - k, " = %u bytes",
				      ev->nblob);
	for (uint32_t i = 0; ev->blob && i < ev->nblob && i < 8 && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%02x", i ? "" : " ",
				      ev->blob[i]);
}

int pg_rec_kind_of(const char *name)
{
	for (int k = 1; name && k <= PG_REC_LAST; k++)
		if (strcmp(name, kinds[k]) == 0)
			return k;
	return 0;
}

const char *pg_group_op_name(int op)
{
	return op >= 1 && op <= PG_GROUP_LAST ? group_ops[op] : "?";
}

/* The index (1..LAST) of NAME in NAMES, or 0. */
static int find_name(const char *const *names, int last, const char *name)
{
	for (int i = 1; name && i <= last; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return 0;
}

int pg_group_op_of(const char *name)
{
	return find_name(group_ops, PG_GROUP_LAST, name);
}

const char *pg_call_op_name(int op)
{
	return op >= 1 && op <= PG_Q_LAST ? call_ops[op] : "?";
}

int pg_call_op_of(const char *name)
{
	return find_name(call_ops, PG_Q_LAST, name);
}

int pg_op_of(int kind, const char *name)
{
	return kind == PG_REC_CALL ? pg_call_op_of(name) : pg_group_op_of(name);
}

const char *pg_end_how_name(int how)
{
	return how >= 1 && how <= PG_END_LAST ? end_hows[how] : NULL;
}

int pg_end_how_of(const char *name)
{
	return find_name(end_hows, PG_END_LAST, name);
}

_Static_assert(PG_REC_LAST < PG_CALL_GROUP, "calls of kinds and of group ops overlap");

int pg_call_of(int kind, int op)
{
	if (kind == PG_REC_GROUP)
		return op >= 1 && op <= PG_GROUP_LAST ? PG_CALL_GROUP + op : 0;
	if (kind == PG_REC_CALL)
		return op >= 1 && op <= PG_Q_LAST ? PG_CALL_QUERY + op : 0;
	if (kind < 1 || kind > PG_REC_LAST || kind == PG_REC_END ||
	    kind == PG_REC_POLLFAIL)
		return 0;
	return kind;
}

int pg_event_same_dests(const struct pg_event *a, const struct pg_event *b)
{
	if (a->ndest != b->ndest)
		return 0;
	for (int i = 0; i < a->ndest; i++)
		if (a->dests[i] != b->dests[i])
			return 0;
	return 1;
}

/* Writes the arguments of the call record EV, as the program passed
 * them, into BUF (N bytes). */
static void describe_call_args(const struct pg_event *ev, char *buf,
			       size_t n)
{
	switch (ev->op) {
	case PG_Q_PSTAT:
	case PG_Q_TASKS:
		if (ev->peer >= 0)
			snprintf(buf, n, "task %d", ev->peer);
		else if (ev->arg == 0)
			snprintf(buf, n, "0");
		else
			snprintf(buf, n, "t%x", (unsigned)ev->arg);
		break;
	case PG_Q_MSTAT:
	case PG_Q_GETMBOXINFO:
		snprintf(buf, n, "\"%s\"", ev->group);
		break;
	case PG_Q_PUTINFO:
		snprintf(buf, n, "\"%s\", flags=%d", ev->group, ev->arg);
		break;
	case PG_Q_RECVINFO:
	case PG_Q_DELINFO:
		snprintf(buf, n, "\"%s\", %d, flags=%d", ev->group, ev->arg,
			 ev->arg2);
		break;
	case PG_Q_MPI_DONE:
		snprintf(buf, n, "of %d requests", ev->arg2);
		break;
	case PG_Q_MPI_COLL:
		snprintf(buf, n, "root=%d, %d bytes", ev->arg, ev->arg2);
		break;
	default:
		snprintf(buf, n, "%s", "");
	}
}

/* The MPI completion calls of a PG_Q_MPI_DONE record, by its arg
 * (FORMATS.md §2.4, op 10). */
static const char *const mpi_done_calls[9] = {
	NULL, "MPI_Test", "MPI_Testany", "MPI_Testsome", "MPI_Testall",
	"MPI_Wait", "MPI_Waitany", "MPI_Waitsome", "MPI_Waitall",
};

void pg_call_describe(const struct pg_event *ev, int with_result, char *buf,
		      size_t n)
{
	/* (the MPI binding's calls are named as they are) */
	const char *pre = ev->op >= PG_Q_MPI_DONE ? "" : "pvm_";
	const char *name = pg_call_op_name(ev->op);
	char a[PG_GROUP_MAX + 64];

	if (ev->op == PG_Q_MPI_DONE && ev->arg >= 1 && ev->arg <= 8)
		name = mpi_done_calls[ev->arg];
	else if (ev->op == PG_Q_MPI_COLL && ev->group[0])
		name = ev->group; /* "MPI_Bcast" */
	describe_call_args(ev, a, sizeof(a));
	if (!with_result)
		snprintf(buf, n, "%s%s(%s)", pre, name, a);
	else if (ev->nblob)
		snprintf(buf, n, "%s%s(%s) = %d with %u bytes of results",
			 pre, name, a, ev->result, ev->nblob);
	else
		snprintf(buf, n, "%s%s(%s) = %d", pre, name, a, ev->result);
}
