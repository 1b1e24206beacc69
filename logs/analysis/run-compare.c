/*
 * run-compare.c: comparing two runs of the same program event by event (a
 * recording and its replay).  Times are ignored; everything that
 * decides what the program saw is compared.
 */
#include "pangaea-analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Compares task LTID of runs A and B; 0 same, 1 differ, -1 error. */
static int verify_task(const char *a, const char *b, int ltid, long *nev,
		       char *diff, size_t n)
{
	struct pg_comm_reader ra, rb;
	struct pg_event ea, eb;
	char da[256], db[256];
	int ka, kb, rc = -1;

	if (pg_run_comm(&ra, a, ltid, diff, n) < 0)
		return -1;
	if (pg_run_comm(&rb, b, ltid, diff, n) < 0)
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
			pg_event_describe(pg_names_of_run(a), &ea, da,
					  sizeof(da));
		if (kb)
			pg_event_describe(pg_names_of_run(b), &eb, db,
					  sizeof(db));
		if (ka && kb && ea.len != eb.len && strcmp(da, db) == 0) {
			/* told apart by their lengths alone */
			size_t la = strlen(da), lb = strlen(db);
			snprintf(da + la, sizeof(da) - la, " of %u bytes", ea.len);
			snprintf(db + lb, sizeof(db) - lb, " of %u bytes", eb.len);
		}
		snprintf(diff, n, "task %d, event %ld: %s has %s, %s has %s",
			 ltid, i, a, da, b, db);
		/* a task moved to another host (of another architecture,
		   perhaps, whose build of the program does other things) */
		if (strcmp(ra.hdr.host, rb.hdr.host) != 0) {
			size_t l = strlen(diff);
			snprintf(diff + l, n - l, " (the task ran on host %s in "
				 "the one, on %s in the other)", ra.hdr.host,
				 rb.hdr.host);
		}
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

/* Whether a kill record of a comm log of DIR names task LTID (a task of
 * the run killed it with pvm_kill); 1 or 0. */
static int killed_in_run(const char *dir, int ltid)
{
	char err[PG_PATH_MAX + 100];
	struct pg_comm_reader rd;
	struct pg_event ev;
	struct pg_run run;
	int got, found = 0;

	if (pg_run_open(&run, dir, err, sizeof(err)) < 0)
		return 0;
	while (!found && (got = pg_run_next(&run, &rd, err, sizeof(err))) != 0) {
		if (got < 0)
			continue;
		while (!found && pg_comm_next(&rd, &ev, err, sizeof(err)) > 0)
			found = ev.kind == PG_REC_KILL && ev.peer == ltid;
		pg_comm_free(&rd);
	}
	pg_run_close(&run);
	return found;
}

/* Whether every task run.info of DIR lists has a log among LTIDS (N): a
 * task with neither log nor end record ran without Pangaea (not
 * instrumented), and what it did cannot be compared; but one that a task
 * of the run killed before it joined did nothing (the killer's logs, which
 * are compared, say where it died).  0, or 1 with DIFF naming it. */
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
		    !pg_run_has(ltids, nl, ri.tasks[i].ltid) &&
		    !killed_in_run(dir, ri.tasks[i].ltid)) {
			snprintf(diff, n, "task %d of %s has no log (%s): the "
				 "run cannot be compared", ri.tasks[i].ltid,
				 dir, ri.tasks[i].end_text);
			rc = 1;
		}
	pg_runinfo_free(&ri);
	return rc;
}

/* Appends to DIFF (N bytes) the divergence report run.info of DIR holds,
 * if any: what the replay itself saw go wrong. */
static void verify_add_report(const char *dir, char *diff, size_t n)
{
	struct pg_runinfo ri;
	char err[PG_PATH_MAX + 100];
	size_t k = strlen(diff);

	if (pg_runinfo_read(dir, &ri, err, sizeof(err)) <= 0)
		return;
	if (ri.diverged[0])
		snprintf(diff + k, n - k, " (%s says: %s)", dir, ri.diverged);
	pg_runinfo_free(&ri);
}

/* The tasks both A (NA, ascending TA) and B (NB, TB) have, compared
 * event by event: the first event that differs is the difference.
 * 0 same, 1 differ (said in DIFF), -1 error. */
static int verify_common(const char *a, const char *b, const int *ta, int na,
			 const int *tb, int nb, long *nev, char *diff, size_t n)
{
	int rc = 0;

	for (int i = 0; rc == 0 && i < na; i++)
		if (pg_run_has(tb, nb, ta[i]))
			rc = verify_task(a, b, ta[i], nev, diff, n);
	return rc;
}

/* A task only one of A and B has (every task both have being the same):
 * 0 none, 1 one (said in DIFF). */
static int verify_same_tasks(const char *a, const char *b, const int *ta,
			     int na, const int *tb, int nb, char *diff,
			     size_t n)
{
	for (int i = 0; i < na + nb; i++) {
		int ltid = i < na ? ta[i] : tb[i - na];

		if (!pg_run_has(i < na ? tb : ta, i < na ? nb : na, ltid)) {
			snprintf(diff, n, "%s has %d tasks, %s has %d: task %d "
				 "is in %s only, every task both have is the "
				 "same", a, na, b, nb, ltid, i < na ? a : b);
			return 1;
		}
	}
	return 0;
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
	if (rc == 0)
		rc = verify_common(a, b, ta, na, tb, nb, nevents, diff, n);
	if (rc == 0)
		rc = verify_all_logged(a, ta, na, diff, n);
	if (rc == 0)
		rc = verify_all_logged(b, tb, nb, diff, n);
	if (rc == 0)
		rc = verify_same_tasks(a, b, ta, na, tb, nb, diff, n);
	if (rc == 1) {
		verify_add_report(b, diff, n);
		verify_add_report(a, diff, n);
	}
	if (rc == 0 && (rc = pg_outverify(a, b, ta, na, diff, n)) == 1) {
		size_t k = strlen(diff); /* (output-compare.c) */

		snprintf(diff + k, n - k, ", although all %ld events were the "
			 "same: it comes from inside the task (a file it read, "
			 "the clock, random numbers, uninitialised memory)",
			 *nevents);
	}
	free(ta);
	free(tb);
	return rc;
}
