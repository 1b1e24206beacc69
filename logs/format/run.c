/*
 * run.c: the one reader of a run's log folder: which tasks it holds
 * logs of (task-LTID.comm, task-LTID.exec), and their communication
 * logs opened in ltid order, one after another (pg_run_next) or all at
 * once (pg_run_open_all).  Every tool that reads a whole run comes here
 * rather than listing the folder itself.
 */
#include "pangaea-logs.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Compares ltids for qsort and bsearch. */
static int run_cmp_ltid(const void *a, const void *b)
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
		qsort(v, n, sizeof(int), run_cmp_ltid);
	*out = v;
	return (int)n;
}

int pg_run_has(const int *ltids, int n, int ltid)
{
	return n > 0 && bsearch(&ltid, ltids, (size_t)n, sizeof(int),
				run_cmp_ltid) != NULL;
}

int pg_run_open(struct pg_run *run, const char *dir, char *err,
		size_t errlen)
{
	memset(run, 0, sizeof(*run));
	run->dir = dir;
	run->i = -1;
	if ((run->n = pg_run_ltids(dir, "comm", &run->ltids)) < 0) {
		snprintf(err, errlen, "cannot read the folder %s", dir);
		run->n = 0;
		return -1;
	}
	return 0;
}

int pg_run_comm(struct pg_comm_reader *r, const char *dir, int ltid,
		char *err, size_t errlen)
{
	char path[PG_PATH_MAX];

	if (pg_log_path(path, sizeof(path), dir, ltid, "comm") < 0) {
		memset(r, 0, sizeof(*r));
		snprintf(err, errlen, "log folder path too long: %s", dir);
		return -1;
	}
	return pg_comm_open(r, path, err, errlen);
}

int pg_run_next(struct pg_run *run, struct pg_comm_reader *r, char *err,
		size_t errlen)
{
	if (run->i + 1 >= run->n)
		return 0;
	run->i++;
	return pg_run_comm(r, run->dir, run->ltids[run->i], err, errlen) < 0
		       ? -1 : 1;
}

int pg_run_open_all(struct pg_run *run, char *err, size_t errlen)
{
	if (!run->rd &&
	    (!(run->ok = calloc((size_t)run->n + 1, 1)) ||
	     !(run->rd = calloc((size_t)run->n + 1, sizeof(*run->rd))))) {
		free(run->ok);
		run->ok = NULL;
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	while (run->i + 1 < run->n) {
		int k = pg_run_next(run, &run->rd[run->i + 1], err, errlen);

		if (k < 0)
			return -1;
		run->ok[run->i] = 1;
	}
	return 0;
}

uint64_t pg_run_base(const struct pg_run *run, int i)
{
	return pg_comm_base(run->rd, run->ok, run->n, i);
}

void pg_run_close(struct pg_run *run)
{
	for (int i = 0; run->rd && i < run->n; i++)
		pg_comm_free(&run->rd[i]);
	free(run->rd);
	free(run->ok);
	free(run->ltids);
	memset(run, 0, sizeof(*run));
}

int pg_run_count(const char *dir, long *nevents, int *ntasks, char *err,
		 size_t n)
{
	struct pg_comm_reader r;
	struct pg_event ev;
	struct pg_run run;
	int rc = 0;

	*nevents = 0;
	*ntasks = -1;
	if (pg_run_open(&run, dir, err, n) < 0)
		return -1;
	*ntasks = run.n;
	while (rc == 0 && (rc = pg_run_next(&run, &r, err, n)) > 0) {
		while ((rc = pg_comm_next(&r, &ev, err, n)) > 0)
			(*nevents)++;
		pg_comm_free(&r);
	}
	pg_run_close(&run);
	return rc;
}
