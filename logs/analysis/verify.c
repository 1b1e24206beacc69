/*
 * verify.c: comparing two runs of the same program event by event (a
 * recording and its replay), listing a run's tasks and counting its
 * events.  Times are ignored; everything that decides what the program
 * saw is compared.
 */
#include "pangaea-logs.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Compares ltids for qsort and bsearch. */
static int cmp_ltid(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The ltid of the log file NAME of kind SUFFIX, as pg_log_path names
 * it (task-LTID.SUFFIX, LTID an int written the one way "%d" does: not
 * task-01 nor task-4294967297); 0, or -1 if NAME is none. */
static int run_ltid_of(const char *name, const char *suffix, int *ltid)
{
	char canon[64];
	char *end;
	long v;

	if (strncmp(name, "task-", 5) != 0)
		return -1;
	errno = 0;
	v = strtol(name + 5, &end, 10);
	if (end == name + 5 || errno || v < INT_MIN || v > INT_MAX ||
	    snprintf(canon, sizeof(canon), "task-%ld.%s", v, suffix) >=
		    (int)sizeof(canon) || strcmp(canon, name) != 0)
		return -1;
	*ltid = (int)v;
	return 0;
}

int pg_run_ltids(const char *dir, const char *suffix, int **out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, cap = 0;
	int *v = NULL, *nv, ltid;

	*out = NULL;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (run_ltid_of(e->d_name, suffix, &ltid) < 0)
			continue;
		if (n >= INT_MAX ||
		    !(nv = pg_grow(v, &cap, n + 1, sizeof(int), 64))) {
			free(v);
			closedir(d);
			return -1;
		}
		v = nv;
		v[n++] = ltid;
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof(int), cmp_ltid);
	*out = v;
	return (int)n;
}

int pg_run_has(const int *ltids, int n, int ltid)
{
	return n > 0 &&
	       bsearch(&ltid, ltids, (size_t)n, sizeof(int), cmp_ltid) != NULL;
}

/* Whether two events are the same as far as the program could tell. */
static int same_event(const struct pg_event *a, const struct pg_event *b)
{
	return pg_event_same_dests(a, b) && a->kind == b->kind &&
	       a->peer == b->peer && a->tag == b->tag &&
	       a->msgid == b->msgid && a->len == b->len &&
	       a->count == b->count && a->how == b->how &&
	       a->value == b->value && a->op == b->op && a->arg == b->arg &&
	       a->result == b->result && strcmp(a->group, b->group) == 0 &&
	       a->arg2 == b->arg2 && a->nblob == b->nblob &&
	       (a->nblob == 0 || memcmp(a->blob, b->blob, a->nblob) == 0);
}

/* Opens DIR/task-LTID.comm into R; 0 or -1 with ERR filled. */
static int open_task(struct pg_comm_reader *r, const char *dir, int ltid,
		     char *err, size_t n)
{
	char path[PG_PATH_MAX];

	if (pg_log_path(path, sizeof(path), dir, ltid, "comm") < 0) {
		snprintf(err, n, "path too long: %s", dir);
		return -1;
	}
	return pg_comm_open(r, path, err, n);
}

/* Compares task LTID of runs A and B; 0 same, 1 differ, -1 error. */
static int verify_task(const char *a, const char *b, int ltid, long *nev,
		       char *diff, size_t n)
{
	struct pg_comm_reader ra, rb;
	struct pg_event ea, eb;
	char da[256], db[256];
	int ka, kb, rc = -1;

	if (open_task(&ra, a, ltid, diff, n) < 0)
		return -1;
	if (open_task(&rb, b, ltid, diff, n) < 0)
		goto out_a;
	for (long i = 1;; i++) {
		if ((ka = pg_comm_next(&ra, &ea, diff, n)) < 0 ||
		    (kb = pg_comm_next(&rb, &eb, diff, n)) < 0)
			goto out;
		if (ka == 0 && kb == 0)
			break;
		if (ka && kb && same_event(&ea, &eb)) {
			(*nev)++;
			continue;
		}
		snprintf(da, sizeof(da), "the end of the log");
		snprintf(db, sizeof(db), "the end of the log");
		if (ka)
			pg_event_describe(&ea, da, sizeof(da));
		if (kb)
			pg_event_describe(&eb, db, sizeof(db));
		snprintf(diff, n, "task %d, event %ld: %s has %s, %s has %s",
			 ltid, i, a, da, b, db);
		rc = 1;
		goto out;
	}
	rc = 0;
out:
	pg_comm_free(&rb);
out_a:
	pg_comm_free(&ra);
	return rc;
}

/* Whether every task run.info of DIR lists has a log among LTIDS (N): a
 * task with neither log nor end record ran without Pangaea (not
 * instrumented), and what it did cannot be compared.  0, or 1 with DIFF
 * naming it. */
static int verify_all_logged(const char *dir, const int *ltids, int nl,
			     char *diff, size_t n)
{
	struct pg_runinfo ri;
	char err[PG_PATH_MAX + 100];
	int rc = 0;

	if (pg_runinfo_read(dir, &ri, err, sizeof(err)) <= 0)
		return 0; /* none: the logs alone are compared */
	for (size_t i = 0; rc == 0 && i < ri.ntasks; i++)
		if (ri.tasks[i].how == 0 &&
		    !pg_run_has(ltids, nl, ri.tasks[i].ltid)) {
			snprintf(diff, n, "task %d of %s has no log (%s): the "
				 "run cannot be compared", ri.tasks[i].ltid,
				 dir, ri.tasks[i].end_text);
			rc = 1;
		}
	pg_runinfo_free(&ri);
	return rc;
}

int pg_verify_runs(const char *a, const char *b, long *nevents, int *ntasks,
		   char *diff, size_t n)
{
	int *ta = NULL, *tb = NULL, na = pg_run_ltids(a, "comm", &ta),
	    nb = pg_run_ltids(b, "comm", &tb), rc = 0;

	*nevents = 0;
	*ntasks = na;
	if (na < 0 || nb < 0) {
		snprintf(diff, n, "cannot read the folder %s", na < 0 ? a : b);
		rc = -1;
	}
	for (int i = 0; rc == 0 && i < na && i < nb; i++)
		if (ta[i] != tb[i]) {
			snprintf(diff, n, "task %d is in only one of the runs",
				 ta[i] < tb[i] ? ta[i] : tb[i]);
			rc = 1;
		}
	if (rc == 0 && na != nb) {
		snprintf(diff, n, "%s has %d tasks, %s has %d", a, na, b, nb);
		rc = 1;
	}
	if (rc == 0)
		rc = verify_all_logged(a, ta, na, diff, n);
	if (rc == 0)
		rc = verify_all_logged(b, tb, nb, diff, n);
	for (int i = 0; rc == 0 && i < na; i++)
		rc = verify_task(a, b, ta[i], nevents, diff, n);
	if (rc == 0 && (rc = pg_outverify(a, b, ta, na, diff, n)) == 1) {
		size_t k = strlen(diff); /* (outverify.c) */

		snprintf(diff + k, n - k, ", although all %ld events were the "
			 "same: it comes from inside the task (a file it read, "
			 "the clock, random numbers, uninitialised memory)",
			 *nevents);
	}
	free(ta);
	free(tb);
	return rc;
}

int pg_run_count(const char *dir, long *nevents, int *ntasks, char *err,
		 size_t n)
{
	int *t = NULL, nt = pg_run_ltids(dir, "comm", &t), rc = 0;
	struct pg_comm_reader r;
	struct pg_event ev;

	*nevents = 0;
	*ntasks = nt;
	if (nt < 0) {
		snprintf(err, n, "cannot read the folder %s", dir);
		return -1;
	}
	for (int i = 0; rc == 0 && i < nt; i++) {
		if ((rc = open_task(&r, dir, t[i], err, n)) < 0)
			break;
		while ((rc = pg_comm_next(&r, &ev, err, n)) > 0)
			(*nevents)++;
		pg_comm_free(&r);
	}
	free(t);
	return rc;
}
