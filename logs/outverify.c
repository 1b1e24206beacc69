/*
 * outverify.c: compares what the tasks of two runs printed (their
 * output.log).  The lines of different tasks interleave differently from
 * run to run, so each task's output is compared on its own: the sequence
 * of its lines, whatever pieces they came in.
 */
#include "pangaea-logs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One task's output: its lines, each ended by '\n' but an unfinished
 * last one. */
struct ov_text {
	char *p;
	size_t len, cap;
};

/* Task LTID's output in LOG into T; 0 or -1 (out of memory). */
static int ov_task_text(const struct pg_out_log *log, int ltid,
			struct ov_text *t)
{
	for (size_t i = 0; i < log->n; i++) {
		const struct pg_out_piece *p = &log->pieces[i];
		char *v;

		if (p->ltid != ltid)
			continue;
		if (!(v = pg_grow(t->p, &t->cap, t->len + p->len + 1, 1, 256)))
			return -1;
		t->p = v;
		memcpy(t->p + t->len, log->data + p->off, p->len);
		t->len += p->len;
		if (p->nl)
			t->p[t->len++] = '\n';
	}
	return 0;
}

/* Writes line L (N bytes) quoted into BUF (at most 60 of its bytes, a
 * byte that is not printable as '?'), or "nothing" if L is NULL. */
static void ov_quote(char *buf, size_t size, const char *l, size_t n)
{
	size_t k = 0, max = n > 60 ? 60 : n;

	if (!l) {
		snprintf(buf, size, "nothing");
		return;
	}
	buf[k++] = '"';
	for (size_t i = 0; i < max && k + 5 < size; i++)
		buf[k++] = l[i] >= 32 && l[i] < 127 ? l[i] : '?';
	if (max < n && k + 5 < size)
		k += (size_t)snprintf(buf + k, size - k, "...");
	buf[k++] = '"';
	buf[k] = '\0';
}

/* The line at *POS of T (its length in *LEN, *POS moved past it), or NULL
 * at the end. */
static const char *ov_next(const struct ov_text *t, size_t *pos, size_t *len)
{
	const char *s, *nl;

	if (*pos >= t->len)
		return NULL;
	s = t->p + *pos;
	nl = memchr(s, '\n', t->len - *pos);
	*len = nl ? (size_t)(nl - s) : t->len - *pos;
	*pos += *len + (nl != NULL);
	return s;
}

/* Compares task LTID's output in A and B; 0 the same, 1 (DIFF says the
 * first differing line), -1 out of memory. */
static int ov_task(const struct pg_out_log *a, const struct pg_out_log *b,
		   int ltid, char *diff, size_t n)
{
	struct ov_text ta = { 0 }, tb = { 0 };
	size_t pa = 0, pb = 0, la = 0, lb = 0;
	int rc = 0, line = 0;

	if (ov_task_text(a, ltid, &ta) < 0 || ov_task_text(b, ltid, &tb) < 0) {
		snprintf(diff, n, "out of memory comparing the output");
		rc = -1;
	}
	while (rc == 0) {
		const char *sa = ov_next(&ta, &pa, &la), *sb = ov_next(&tb, &pb, &lb);
		char qa[80], qb[80];

		line++;
		if (!sa && !sb)
			break;
		if (sa && sb && la == lb && memcmp(sa, sb, la) == 0)
			continue;
		ov_quote(qa, sizeof(qa), sa, la);
		ov_quote(qb, sizeof(qb), sb, lb);
		snprintf(diff, n, "task %d printed %s as its output line %d in "
			 "the first run, %s in the second", ltid, qa, line, qb);
		rc = 1;
	}
	free(ta.p);
	free(tb.p);
	return rc;
}

/* Reads DIR/output.log into LOG: 1 read, 0 there is none, -1 (DIFF). */
static int ov_read(const char *dir, struct pg_out_log *log, char *diff,
		   size_t n)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/output.log", dir);
	memset(log, 0, sizeof(*log));
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	if (pg_outlog_read(path, log, diff, n) < 0) {
		pg_outlog_free(log);
		return -1;
	}
	return 1;
}

int pg_outverify(const char *a, const char *b, char *diff, size_t n)
{
	struct pg_out_log la, lb;
	int ra = ov_read(a, &la, diff, n), rb = 0, rc = 0, best;

	if (ra >= 0)
		rb = ov_read(b, &lb, diff, n);
	if (ra < 0 || rb < 0)
		rc = -1;
	/* the tasks in ltid order: the lowest not yet compared, each time */
	for (int last = -2; rc == 0 && ra > 0 && rb > 0; last = best) {
		best = -2;
		for (int k = 0; k < 2; k++) {
			const struct pg_out_log *l = k ? &lb : &la;

			for (size_t i = 0; i < l->n; i++)
				if (l->pieces[i].ltid > last &&
				    (best == -2 || l->pieces[i].ltid < best))
					best = l->pieces[i].ltid;
		}
		if (best == -2)
			break;
		rc = ov_task(&la, &lb, best, diff, n);
	}
	if (ra > 0)
		pg_outlog_free(&la);
	if (rb > 0)
		pg_outlog_free(&lb);
	return rc;
}
