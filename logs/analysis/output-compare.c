/*
 * output-compare.c: compares what the tasks of two runs printed (their
 * output.log).  The lines of different tasks interleave differently from
 * run to run, so each task's output is compared on its own: the sequence
 * of its lines, whatever pieces they came in.  PVM task ids differ from
 * run to run (ltids do not): a "t40003" (PVM's way of writing a tid, as
 * libpvm's own messages and PVM's examples print them) that is the tid
 * of a task of the run, as its communication log's header says, is
 * compared as that task's "<task LTID>".  The lines libpvm prints itself
 * ("libpvm [t40003]: child task(s) still running.  waiting...") say what
 * PVM saw at a moment, not what the program printed: they are left out
 * (a program that does wrong calls differs in its events).
 * The lines a task relays from its children (pvm_catchout writes them
 * "[t40005] ...") come in an order that changes from run to run: each
 * child's are compared in their order, after the task's own.
 * PANGAEA_OUTPUT_MASK, a POSIX
 * extended regular expression, masks what a run prints differently on
 * purpose (a time measured): each match in a line compares as "*".
 */
#include "pangaea-analysis.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
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

/* The tids of a run's tasks and their ltids. */
struct ov_tids {
	int *tid, *ltid;
	int n;
};

/* Reads the tids of DIR's tasks L (N) from their communication logs'
 * headers into T (a log that cannot be read is left out: verify says
 * why); 0 or -1 (out of memory). */
static int ov_tids_read(const char *dir, const int *l, int n,
			struct ov_tids *t)
{
	char err[PG_PATH_MAX + 200];

	memset(t, 0, sizeof(*t));
	if (n <= 0)
		return 0;
	t->tid = calloc((size_t)n, sizeof(int));
	t->ltid = calloc((size_t)n, sizeof(int));
	if (!t->tid || !t->ltid)
		return -1;
	for (int i = 0; i < n; i++) {
		struct pg_comm_reader r;

		if (pg_run_comm(&r, dir, l[i], err, sizeof(err)) < 0)
			continue;
		if (r.hdr.tid > 0) {
			t->tid[t->n] = r.hdr.tid;
			t->ltid[t->n++] = l[i];
		}
		pg_comm_free(&r);
	}
	return 0;
}

/* Frees what ov_tids_read allocated. */
static void ov_tids_free(struct ov_tids *t)
{
	free(t->tid);
	free(t->ltid);
	memset(t, 0, sizeof(*t));
}

/* Appends the N bytes P to T, a NUL after them; 0 or -1 (out of
 * memory). */
static int ov_put(struct ov_text *t, const char *p, size_t n)
{
	char *v = pg_grow(t->p, &t->cap, t->len + n + 1, 1, 256);

	if (!v)
		return -1;
	t->p = v;
	memcpy(t->p + t->len, p, n);
	t->len += n;
	t->p[t->len] = '\0';
	return 0;
}

/* The ltid of the tid written in hex at P (K digits), or -1. */
static int ov_tid_ltid(const struct ov_tids *ids, const char *p, size_t k)
{
	char hex[16], *end;
	long v;

	if (k == 0 || k > 8)
		return -1;
	memcpy(hex, p, k);
	hex[k] = '\0';
	v = strtol(hex, &end, 16);
	for (int i = 0; *end == '\0' && i < ids->n; i++)
		if (ids->tid[i] == v)
			return ids->ltid[i];
	return -1;
}

/* Copies the N bytes P to T, each "tHEX" that is a tid of IDS (a word of
 * its own) written "<task LTID>"; 0 or -1 (out of memory). */
static int ov_put_tids(struct ov_text *t, const char *p, size_t n,
		       const struct ov_tids *ids)
{
	size_t i = 0, from = 0;

	while (i < n) {
		char name[32];
		size_t k = 0;
		int l, m;

		if (p[i] != 't' || (i > 0 && isalnum((unsigned char)p[i - 1]))) {
			i++;
			continue;
		}
		while (i + 1 + k < n && isxdigit((unsigned char)p[i + 1 + k]))
			k++;
		if ((i + 1 + k < n && isalnum((unsigned char)p[i + 1 + k])) ||
		    (l = ov_tid_ltid(ids, p + i + 1, k)) < 0) {
			i += 1 + k;
			continue;
		}
		m = snprintf(name, sizeof(name), "<task %d>", l);
		if (ov_put(t, p + from, i - from) < 0 ||
		    ov_put(t, name, (size_t)m) < 0)
			return -1;
		i += 1 + k;
		from = i;
	}
	return ov_put(t, p + from, n - from);
}

/* Task LTID's output in LOG into T, its tids of IDS as ltids; 0 or -1
 * (out of memory). */
static int ov_task_text(const struct pg_out_log *log, int ltid,
			const struct ov_tids *ids, struct ov_text *t)
{
	for (size_t i = 0; i < log->n; i++) {
		const struct pg_out_piece *p = &log->pieces[i];

		if (p->ltid != ltid)
			continue;
		if (ov_put(t, log->data + p->off, p->len) < 0 ||
		    (p->nl && ov_put(t, "\n", 1) < 0))
			return -1;
	}
	if (ids) { /* then its tids, over the pieces' bounds */
		struct ov_text raw = *t;

		memset(t, 0, sizeof(*t));
		if (ov_put_tids(t, raw.p ? raw.p : "", raw.len, ids) < 0) {
			free(raw.p);
			return -1;
		}
		free(raw.p);
	}
	return 0;
}

/* Bytes of a line quoted whole; of a longer one, this many around the
 * first byte where the two lines differ. */
#define OV_QUOTE_MAX 200
/* Room for one quoted line: each byte may take 4 (\xNN), and "...". */
#define OV_QUOTE_SIZE (4 * OV_QUOTE_MAX + 16)

/* Writes line L (N bytes) quoted into BUF (SIZE >= OV_QUOTE_SIZE), or
 * "nothing" if L is NULL: the whole line if it has at most OV_QUOTE_MAX
 * bytes, else OV_QUOTE_MAX of them from a little before byte AT (where it
 * differs from the other line), "..." where it is cut.  Escaped as in C,
 * so that padding shows: \t, \", \\, \xNN for other unprintable bytes. */
static void ov_quote(char *buf, size_t size, const char *l, size_t n,
		     size_t at)
{
	size_t k = 0, from = 0, to = n;

	if (!l) {
		snprintf(buf, size, "nothing");
		return;
	}
	if (n > OV_QUOTE_MAX) {
		from = at > OV_QUOTE_MAX / 4 ? at - OV_QUOTE_MAX / 4 : 0;
		from = from + OV_QUOTE_MAX > n ? n - OV_QUOTE_MAX : from;
		to = from + OV_QUOTE_MAX;
	}
	k += (size_t)snprintf(buf + k, size - k, "\"%s", from ? "..." : "");
	for (size_t i = from; i < to && k + 8 < size; i++) {
		unsigned char c = (unsigned char)l[i];

		if (c == '\t')
			k += (size_t)snprintf(buf + k, size - k, "\\t");
		else if (c == '"' || c == '\\')
			k += (size_t)snprintf(buf + k, size - k, "\\%c", c);
		else if (c < 32 || c >= 127)
			k += (size_t)snprintf(buf + k, size - k, "\\x%02x", c);
		else
			buf[k++] = (char)c;
	}
	snprintf(buf + k, size - k, "%s\"", to < n ? "..." : "");
}

/* The first byte where A (NA bytes) and B (NB) differ (0 if one is
 * NULL). */
static size_t ov_differ_at(const char *a, size_t na, const char *b, size_t nb)
{
	size_t i = 0;

	while (a && b && i < na && i < nb && a[i] == b[i])
		i++;
	return i;
}

/* The line at *POS of T (its length in *LEN, *POS moved past it), or NULL
 * at the end; libpvm's own lines are skipped. */
static const char *ov_next(const struct ov_text *t, size_t *pos, size_t *len)
{
	const char *s, *nl;

	do {
		if (*pos >= t->len)
			return NULL;
		s = t->p + *pos;
		nl = memchr(s, '\n', t->len - *pos);
		*len = nl ? (size_t)(nl - s) : t->len - *pos;
		*pos += *len + (nl != NULL);
	} while (*len >= 8 && memcmp(s, "libpvm [", 8) == 0); /* libpvm's own */
	return s;
}

/* Whether the line L (N bytes) of one run and M (K bytes) of the other
 * are the same, each match of MASK (NULL: none) in them compared as
 * "*"; 1, 0, or -1 out of memory. */
static int ov_same(const regex_t *mask, const char *l, size_t n,
		   const char *m, size_t k)
{
	struct ov_text t[2] = { { 0 }, { 0 } };
	const char *s[2] = { l, m };
	size_t len[2] = { n, k };
	int rc = 0;

	if (!mask)
		return n == k && memcmp(l, m, n) == 0;
	for (int i = 0; i < 2 && rc == 0; i++) {
		size_t at = 0;
		regmatch_t r[1];

		while (rc == 0 && at <= len[i]) {
			size_t so, eo;

			r[0].rm_so = (regoff_t)at;
			r[0].rm_eo = (regoff_t)len[i];
			if (regexec(mask, s[i], 1, r, at ? REG_STARTEND | REG_NOTBOL
						       : REG_STARTEND) != 0)
				break;
			so = (size_t)r[0].rm_so;
			eo = (size_t)r[0].rm_eo;
			rc = ov_put(&t[i], s[i] + at, so - at);
			if (rc == 0)
				rc = ov_put(&t[i], "*", 1);
			if (eo > so) {
				at = eo;
			} else { /* an empty match: on by one byte */
				if (rc == 0 && so < len[i])
					rc = ov_put(&t[i], s[i] + so, 1);
				at = so + 1;
			}
		}
		if (rc == 0 && at < len[i])
			rc = ov_put(&t[i], s[i] + at, len[i] - at);
	}
	if (rc == 0)
		rc = t[0].len == t[1].len &&
		     (t[0].len == 0 || memcmp(t[0].p, t[1].p, t[0].len) == 0);
	free(t[0].p);
	free(t[1].p);
	return rc;
}

/* A line of a task's output: where it is, and whose it is. */
struct ov_line {
	const char *s;
	size_t len;
	int from;      /* -1 the task's own; else the ltid of the child whose
			  output it relayed ("[<task L>] ...", pvm_catchout) */
	size_t i;      /* its place in the output */
};

/* Orders lines by whose they are, then by place. */
static int ov_line_cmp(const void *x, const void *y)
{
	const struct ov_line *a = x, *b = y;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* T's lines into *OUT (*N), each child's relayed lines after the task's
 * own ones, in their order: a relayed line comes when the child's output
 * reaches the task, which changes from run to run.  0 or -1. */
static int ov_lines(const struct ov_text *t, struct ov_line **out, size_t *n)
{
	size_t pos = 0, len, cap = 0;
	const char *s;

	*out = NULL;
	*n = 0;
	while ((s = ov_next(t, &pos, &len))) {
		struct ov_line *v = pg_grow(*out, &cap, *n + 1, sizeof(**out), 64);
		int from = -1, k = 0;

		if (!v)
			return -1;
		*out = v;
		if (!(len > 8 && memcmp(s, "[<task ", 7) == 0 &&
		      sscanf(s + 7, "%d>]%n", &from, &k) == 1 && k > 0 &&
		      (size_t)(7 + k) <= len && from >= 0))
			from = -1;
		v[*n] = (struct ov_line){ s, len, from, *n };
		(*n)++;
	}
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), ov_line_cmp);
	return 0;
}

/* Compares task LTID's output in A and B (MASK: ov_same); 0 the same, 1
 * (DIFF says the first differing line), -1 out of memory. */
static int ov_task(const struct pg_out_log *a, const struct pg_out_log *b,
		   const struct ov_tids *ia, const struct ov_tids *ib,
		   const regex_t *mask, int ltid, char *diff, size_t n)
{
	struct ov_text ta = { 0 }, tb = { 0 };
	struct ov_line *va = NULL, *vb = NULL;
	size_t na = 0, nb = 0, la = 0, lb = 0;
	int rc = 0, line = 0;

	if (ov_task_text(a, ltid, ia, &ta) < 0 ||
	    ov_task_text(b, ltid, ib, &tb) < 0 || ov_lines(&ta, &va, &na) < 0 ||
	    ov_lines(&tb, &vb, &nb) < 0) {
		snprintf(diff, n, "out of memory comparing the output");
		rc = -1;
	}
	while (rc == 0) {
		const char *sa = NULL, *sb = NULL;
		char qa[OV_QUOTE_SIZE], qb[OV_QUOTE_SIZE];
		size_t at;

		if ((size_t)line < na) {
			sa = va[line].s;
			la = va[line].len;
		}
		if ((size_t)line < nb) {
			sb = vb[line].s;
			lb = vb[line].len;
		}
		line++;
		if (!sa && !sb)
			break;
		if (sa && sb && (rc = ov_same(mask, sa, la, sb, lb)) != 0) {
			if (rc > 0) {
				rc = 0;
				continue;
			}
			snprintf(diff, n, "out of memory comparing the output");
			break;
		}
		at = ov_differ_at(sa, la, sb, lb);
		ov_quote(qa, sizeof(qa), sa, la, at);
		ov_quote(qb, sizeof(qb), sb, lb, at);
		snprintf(diff, n, "task %d printed %s as its output line %d in "
			 "the first run, %s in the second", ltid, qa, line, qb);
		if (sa && sb && at > 0 && (la > OV_QUOTE_MAX || lb > OV_QUOTE_MAX)) {
			size_t k = strlen(diff);

			snprintf(diff + k, n - k, " (they differ from byte %zu)",
				 at + 1);
		}
		rc = 1;
	}
	free(va);
	free(vb);
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

int pg_outverify(const char *a, const char *b, const int *ltids, int nltids,
		 char *diff, size_t n)
{
	struct pg_out_log la, lb;
	struct ov_tids ia = { 0 }, ib = { 0 };
	const char *m = getenv("PANGAEA_OUTPUT_MASK");
	regex_t re;
	int ra = ov_read(a, &la, diff, n), rb = 0, rc = 0, best, masked = 0;

	if (ra >= 0)
		rb = ov_read(b, &lb, diff, n);
	if (ra < 0 || rb < 0)
		rc = -1;
	if (rc == 0 && m && *m) {
		if (regcomp(&re, m, REG_EXTENDED) != 0) {
			snprintf(diff, n, "PANGAEA_OUTPUT_MASK: not a POSIX "
				 "extended regular expression: %s", m);
			rc = -1;
		} else {
			masked = 1;
		}
	}
	if (rc == 0 && ra > 0 && rb > 0 &&
	    (ov_tids_read(a, ltids, nltids, &ia) < 0 ||
	     ov_tids_read(b, ltids, nltids, &ib) < 0)) {
		snprintf(diff, n, "out of memory comparing the output");
		rc = -1;
	}
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
		rc = ov_task(&la, &lb, &ia, &ib, masked ? &re : NULL, best,
			     diff, n);
	}
	if (masked)
		regfree(&re);
	ov_tids_free(&ia);
	ov_tids_free(&ib);
	if (ra > 0)
		pg_outlog_free(&la);
	if (rb > 0)
		pg_outlog_free(&lb);
	return rc;
}
