/*
 * output.c: relays the output of the run's tasks to the launcher's
 * standard output.  libpvm's pvm_catchout() assembles each task's output
 * into lines in a buffer that grows without bound (a task printing
 * prompts with no newline made it grow until the launcher crashed); here
 * the launcher receives PVM's output messages itself (PvmOutputTid,
 * PvmOutputContext, PvmOutputCode: PG_TAG_OUTPUT in the run's context)
 * and keeps at most OUT_LINE bytes of a task's unfinished line: a longer
 * line is written out in pieces.  On a terminal, an unfinished line that
 * has waited OUT_QUIET_S (a prompt) is written out as it is.
 *
 * Every piece written out is also noted, with its task's ltid and the
 * time, in the run's output.log (logs/format/outlog.c), in record and replay: a
 * failed write of it (a full disk) is a PG_TAG_LOGFAIL, as for the other
 * logs, after the file is cut back to its last whole record.
 */
#include "launcher.h"

#include <sys/types.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT_LINE 4096          /* an unfinished line kept per task */
#define OUT_MSG_MAX (1 << 20)  /* larger output messages are refused */
#define OUT_QUIET_S 0.2        /* a terminal sees a prompt after this */

/* One task's output stream. */
struct out_task {
	int tid;
	int ltid;                  /* -1 while the launcher does not know it */
	int open;                  /* begun (-1/-2) or written, not ended */
	size_t len;
	double since;              /* when the unfinished line last grew */
	char line[OUT_LINE];
};

static struct {
	struct out_task *t;
	size_t n, cap;
	int tty;                   /* stdout is a terminal */
	int log_fd;                /* output.log, or -1 (none or failed) */
	const struct la_run *run;  /* for the tasks' ltids */
	char path[PG_PATH_MAX + 16]; /* output.log's */
} out = { .log_fd = -1 };

/* Stops logging after a failed write of output.log (errno E), the file
 * cut back to END bytes (its whole records; -1: leave it), says so
 * naming the file, and tells the run as for any log (PG_TAG_LOGFAIL:
 * the run ends). */
static void out_log_failed(int e, off_t end)
{
	int v[2] = { 0, e ? e : EIO };

	la_error("cannot write %s: %s: the run stops; the lines written "
		 "before are kept", out.path, strerror(v[1]));
	/* a record cut by the full disk would make the whole log unreadable */
	if (out.log_fd >= 0 && end >= 0 && ftruncate(out.log_fd, end) < 0)
		la_error("cannot cut %s back to its whole lines: %s", out.path,
			 strerror(errno));
	if (out.log_fd >= 0)
		close(out.log_fd);
	out.log_fd = -1;
	pg_proto_send(pvm_mytid(), PG_TAG_LOGFAIL, v);
}

void la_output_setup(const struct la_run *r)
{
	char err[PG_PATH_MAX + 100];

	pvm_setopt(PvmOutputTid, pvm_mytid());
	pvm_setopt(PvmOutputContext, r->ctx);
	pvm_setopt(PvmOutputCode, PG_TAG_OUTPUT);
	out.tty = isatty(1);
	out.run = r;
	snprintf(out.path, sizeof(out.path), "%s/output.log", r->logdir);
	if ((out.log_fd = pg_outlog_create(out.path, err, sizeof(err))) < 0)
		out_log_failed(errno, -1);
}

/* T's ltid, looked up until the launcher knows it; -1 unknown. */
static int out_ltid(struct out_task *t)
{
	int i;

	if (t->ltid < 0 && out.run &&
	    pg_imap_get(&out.run->by_tid, t->tid, &i) && i < out.run->ntasks)
		t->ltid = out.run->tasks[i].ltid;
	return t->ltid;
}

/* Whether the N bytes P are a whole line of PANGAEA_TIMELINE's stamps
 * (timeline.c): not the program's output. */
static int out_is_stamp(const char *p, size_t n)
{
	static const char stamp[] = "pangaea-timeline ";
	static int on = -1;

	if (on < 0)
		on = getenv(PG_ENV_TIMELINE) != NULL;
	return on && n > sizeof(stamp) && p[n - 1] == '\n' &&
	       memcmp(p, stamp, sizeof(stamp) - 1) == 0;
}

/* Writes the N bytes P of T's output to stdout and notes them in
 * output.log (a piece ending in a newline ends a line); a timeline
 * stamp goes to stderr only, so that a run with stamps replays like one
 * without. */
static void out_write(struct out_task *t, const char *p, size_t n)
{
	int nl = n > 0 && p[n - 1] == '\n';
	off_t end;

	if (out_is_stamp(p, n)) {
		fwrite(p, 1, n, stderr);
		return;
	}
	fwrite(p, 1, n, stdout);
	if (out.log_fd < 0)
		return;
	end = lseek(out.log_fd, 0, SEEK_END); /* where this record begins */
	if (pg_outlog_append(out.log_fd, out_ltid(t), pg_outlog_now(), nl, p,
			     n - (size_t)nl) < 0)
		out_log_failed(errno, end);
}

/* TID's stream, made if new; NULL if out of memory. */
static struct out_task *out_task(int tid)
{
	struct out_task *v;

	for (size_t i = 0; i < out.n; i++)
		if (out.t[i].tid == tid)
			return &out.t[i];
	if (!(v = pg_grow(out.t, &out.cap, out.n + 1, sizeof(*v), 16)))
		return NULL;
	out.t = v;
	memset(&v[out.n], 0, sizeof(*v));
	v[out.n].tid = tid;
	v[out.n].ltid = -1;
	return &v[out.n++];
}

/* Writes T's unfinished line, with a newline if NL. */
static void out_flush(struct out_task *t, int nl)
{
	if (t->len)
		out_write(t, t->line, t->len);
	if (t->len && nl)
		fputc('\n', stdout);
	t->len = 0;
}

/* Adds the N bytes P of T's output: whole lines are written at once, the
 * rest kept (written out when the line would pass OUT_LINE bytes). */
static void out_add(struct out_task *t, const char *p, size_t n)
{
	while (n > 0) {
		const char *nl = memchr(p, '\n', n);
		size_t k = nl ? (size_t)(nl - p) + 1 : n;

		if (t->len + k > OUT_LINE) { /* a very long line: in pieces */
			out_flush(t, 0);
			if (k > OUT_LINE) {
				out_write(t, p, k);
				p += k;
				n -= k;
				continue;
			}
		}
		memcpy(t->line + t->len, p, k);
		t->len += k;
		if (nl)
			out_flush(t, 0);
		p += k;
		n -= k;
	}
	t->since = la_death_now();
}

void la_output_tick(void)
{
	double now;

	if (!out.tty)
		return;
	now = la_death_now();
	for (size_t i = 0; i < out.n; i++)
		if (out.t[i].len && now - out.t[i].since >= OUT_QUIET_S) {
			out_flush(&out.t[i], 0);
			fflush(stdout);
		}
}

void la_output_take(void)
{
	static char p[OUT_MSG_MAX]; /* one message's bytes (pvmds send 4 KB) */
	struct out_task *t;
	int tid, n;

	if (pvm_upkint(&tid, 1, 1) < 0 || pvm_upkint(&n, 1, 1) < 0 ||
	    n > OUT_MSG_MAX || !(t = out_task(tid)))
		return;
	if (n > 0) {
		if (pvm_upkbyte(p, n, 1) == 0)
			out_add(t, p, (size_t)n);
		t->open = 1;
	} else if (n == 0) { /* its output ended */
		out_flush(t, 1);
		t->open = 0;
	} else if (n < 0) {
		t->open = 1;
	}
}

int la_output_open(const int *except, int n)
{
	int k = 0;

	for (size_t i = 0; i < out.n; i++) {
		int skip = 0;

		for (int j = 0; j < n && !skip; j++)
			skip = out.t[i].tid == except[j];
		k += out.t[i].open && !skip;
	}
	return k;
}

void la_output_finish(void)
{
	for (size_t i = 0; i < out.n; i++)
		out_flush(&out.t[i], 1);
	fflush(stdout);
	if (out.log_fd >= 0)
		close(out.log_fd);
	out.log_fd = -1;
	free(out.t);
	out.t = NULL;
	out.n = out.cap = 0;
}
