/*
 * trace-dump.c: "pangaea-trace dump [-task LTID] LOGDIR" prints a run's
 * logs as text, task by task in ltid order, one event a line.
 */
#include "trace.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints the spawn with sequence SEQ from the execution log X. */
static void dump_spawn(const struct pg_exec_log *x, unsigned seq)
{
	for (int i = 0; i < x->nspawn; i++) {
		const struct pg_spawn_rec *s = &x->spawns[i];

		if ((unsigned)s->seq != seq)
			continue;
		printf(" %d x %s ->", s->ntask, s->file);
		for (int k = 0; k < s->ntask; k++)
			if (s->slots[k].ltid > 0)
				printf(" %d@%s", s->slots[k].ltid, s->slots[k].host);
			else
				printf(" error %d", s->slots[k].err);
	}
}

/* Prints one event. */
static void dump_event(long n, const struct pg_event *ev,
		       const struct pg_exec_log *x)
{
	double t = (double)ev->t / 1e9;

	printf("  #%ld ", n);
	switch (ev->kind) {
	case PG_REC_SEND:
	case PG_REC_PSEND:
		printf("%s to=%d tag=%d msg=%u len=%u t=%.6f\n",
		       pg_rec_kind_name(ev->kind), ev->peer, ev->tag, ev->msgid,
		       ev->len, t);
		break;
	case PG_REC_MCAST:
	case PG_REC_BCAST:
		printf("%s", pg_rec_kind_name(ev->kind));
		if (ev->kind == PG_REC_BCAST)
			printf(" group=\"%s\"", ev->group);
		printf(" to=[");
		for (int i = 0; i < ev->ndest; i++)
			printf("%s%d", i ? " " : "", ev->dests[i]);
		printf("] tag=%d msg=%u len=%u t=%.6f\n", ev->tag, ev->msgid,
		       ev->len, t);
		break;
	case PG_REC_GROUP:
		printf("group %s(\"%s\", %d) = %d t=%.6f\n",
		       pg_group_op_name(ev->op), ev->group, ev->arg, ev->result, t);
		break;
	case PG_REC_SPAWN:
		printf("spawn #%u started=%u", ev->msgid, ev->len);
		dump_spawn(x, ev->msgid);
		printf(" t=%.6f\n", t);
		break;
	case PG_REC_POLLFAIL:
		printf("pollfail count=%u t=%.6f\n", ev->count, t);
		break;
	case PG_REC_END:
		if (ev->how == 1)
			printf("end pangaea_exit t=%.6f\n", t);
		else if (ev->how == 2)
			printf("end exit status %d without pangaea_exit t=%.6f\n",
			       ev->value, t);
		else if (ev->how == 3)
			printf("end signal %d (%s) t=%.6f\n", ev->value,
			       strsignal(ev->value), t);
		else
			printf("end replay diverged at event %d t=%.6f\n",
			       ev->value, t);
		break;
	default:
		printf("recv from=%d msg=%u tag=%d len=%u via=pvm_%s t=%.6f\n",
		       ev->peer, ev->msgid, ev->tag, ev->len,
		       pg_rec_kind_name(ev->kind), t);
	}
}

/* Dumps task LTID of DIR; 0, or -1 if its log is unreadable. */
static int dump_task(const char *dir, int ltid)
{
	char path[PG_PATH_MAX], err[PG_PATH_MAX + 100];
	struct pg_comm_reader r;
	struct pg_exec_log x = { 0 };
	struct pg_event ev;
	long n = 0;
	int rc;

	if (pg_log_path(path, sizeof(path), dir, ltid, "exec") == 0 &&
	    pg_exec_read(path, &x, err, sizeof(err)) < 0)
		trace_error("%s", err);
	if (pg_log_path(path, sizeof(path), dir, ltid, "comm") < 0 ||
	    pg_comm_open(&r, path, err, sizeof(err)) < 0) {
		trace_error("%s", err);
		pg_exec_free(&x);
		return -1;
	}
	printf("task %d %s %s (tid t%x, parent %d, %s, %s polls%s%s)\n", ltid,
	       r.hdr.program, r.hdr.host, (unsigned)r.hdr.tid,
	       r.hdr.parent_ltid, r.hdr.mode == 2 ? "replay" : "record",
	       r.hdr.flags & PG_COMM_LOOSE_POLLS ? "loose" : "exact",
	       r.hdr.select[0] ? ", selection " : "", r.hdr.select);
	while ((rc = pg_comm_next(&r, &ev, err, sizeof(err))) > 0)
		dump_event(++n, &ev, &x);
	if (rc == 0 && ev.kind != PG_REC_END)
		printf("  (log ends here: no end record)\n");
	if (rc < 0)
		trace_error("%s", err);
	pg_comm_free(&r);
	pg_exec_free(&x);
	return rc < 0 ? -1 : 0;
}

/* Compares ints for qsort. */
static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* Dumps every task of DIR in ltid order; 0 or 1. */
static int dump_all(const char *dir)
{
	int ltids[4096], n = 0, ltid, end, rc = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d) {
		trace_error("cannot open log folder %s", dir);
		return 1;
	}
	while ((e = readdir(d)) && n < 4096)
		if (sscanf(e->d_name, "task-%d%n", &ltid, &end) == 1 &&
		    strcmp(e->d_name + end, ".comm") == 0)
			ltids[n++] = ltid;
	closedir(d);
	if (n == 0) {
		trace_error("%s holds no task logs", dir);
		return 1;
	}
	qsort(ltids, (size_t)n, sizeof(int), cmp_int);
	for (int i = 0; i < n; i++)
		rc |= dump_task(dir, ltids[i]) < 0;
	return rc;
}

/* Entry point of "dump". */
static int dump_run(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "-task") == 0)
		return dump_task(argv[3], atoi(argv[2])) < 0;
	if (argc == 2)
		return dump_all(argv[1]);
	trace_error("usage: pangaea-trace %s", trace_cmd_dump.usage);
	return 1;
}

const struct trace_cmd trace_cmd_dump = {
	"dump", "dump [-task LTID] LOGDIR", dump_run
};
