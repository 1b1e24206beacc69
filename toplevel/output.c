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
 *
 * The output comes from the task's pvmd, its tid (and so its ltid) from
 * the coordinator (SPAWNED): a task that prints at once, before it joins,
 * is often heard before it is known (issue 27: NetPIPE's receiver; such
 * lines were credited to "task -1").  So the pieces of a tid the launcher
 * does not know yet are held, with the time they came, and written out
 * when la_output_known() finds its ltid; those of the launcher's helpers
 * (coordinator, relay, beacons) are written at once.  A tid still unknown
 * after OUT_HOLD_S or OUT_HOLD bytes (a task started outside the run,
 * whose SPAWNED never comes), or at the end of the run, is written out as
 * task -1.
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
#define OUT_HOLD (64 * 1024)   /* held output of a tid not known yet ... */
#define OUT_HOLD_S 5.0         /* ... for at most this long */

/* The head of a held piece, followed by its N bytes. */
struct out_held {
	int64_t ns;                /* when it came (pg_outlog_now) */
	size_t n;
};

/* One task's output stream. */
struct out_task {
	int tid;
	int ltid;                  /* -1 while the launcher does not know it */
	int open;                  /* begun (-1/-2) or written, not ended */
	size_t len;
	double since;              /* when the unfinished line last grew */
	char *held;                /* pieces waiting for the ltid: out_held */
	size_t hlen, hcap;         /* heads and bytes */
	int held_nl;               /* a newline to stdout after them (out_flush) */
	double held_at;            /* when the first one came */
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

/* Writes the N bytes P of T's output, got at NS, to stdout and notes
 * them in output.log (a piece ending in a newline ends a line). */
static void out_emit(struct out_task *t, const char *p, size_t n, int64_t ns)
{
	int nl = n > 0 && p[n - 1] == '\n';
	off_t end;

	fwrite(p, 1, n, stdout);
	if (out.log_fd < 0)
		return;
	end = lseek(out.log_fd, 0, SEEK_END); /* where this record begins */
	if (pg_outlog_append(out.log_fd, out_ltid(t), ns, nl, p,
			     n - (size_t)nl) < 0)
		out_log_failed(errno, end);
}

/* Writes out T's held pieces in their order (as task -1 if its ltid is
 * still unknown). */
static void out_release(struct out_task *t)
{
	size_t at = 0;

	while (at + sizeof(struct out_held) <= t->hlen) {
		struct out_held h;

		memcpy(&h, t->held + at, sizeof(h));
		at += sizeof(h);
		out_emit(t, t->held + at, h.n, h.ns);
		at += h.n;
	}
	if (t->held_nl)
		fputc('\n', stdout);
	free(t->held);
	t->held = NULL;
	t->hlen = t->hcap = 0;
	t->held_nl = 0;
}

/* Whether TID is one of the launcher's helpers (coordinator, relay,
 * beacons), never a task of the run. */
static int out_is_helper(int tid)
{
	const struct la_run *r = out.run;

	if (!r)
		return 1;
	if (tid == r->coord_tid || tid == r->relay_tid)
		return 1;
	for (int i = 0; i < r->nbeacons; i++)
		if (tid == r->beacons[i].tid)
			return 1;
	return 0;
}

/* Keeps the N bytes P of T's output, got at NS, until its ltid is known;
 * 0, or -1 if they cannot be kept (too many, out of memory). */
static int out_hold(struct out_task *t, const char *p, size_t n, int64_t ns)
{
	struct out_held h = { ns, n };
	size_t need = t->hlen + sizeof(h) + n;
	char *v;

	if (need > OUT_HOLD || !(v = pg_grow(t->held, &t->hcap, need, 1, 4096)))
		return -1;
	t->held = v;
	if (t->hlen == 0)
		t->held_at = la_death_now();
	memcpy(t->held + t->hlen, &h, sizeof(h));
	memcpy(t->held + t->hlen + sizeof(h), p, n);
	t->hlen = need;
	return 0;
}

/* Writes the N bytes P of T's output (held while T's ltid is unknown,
 * see the head of this file); a timeline stamp goes to stderr only, so
 * that a run with stamps replays like one without. */
static void out_write(struct out_task *t, const char *p, size_t n)
{
	int64_t ns = pg_outlog_now();

	if (out_is_stamp(p, n)) {
		fwrite(p, 1, n, stderr);
		return;
	}
	if (out_ltid(t) < 0 && !out_is_helper(t->tid) &&
	    out_hold(t, p, n, ns) == 0)
		return;
	out_release(t); /* (what came before, first) */
	out_emit(t, p, n, ns);
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

/* Writes T's unfinished line, with a newline to stdout if NL (not in
 * output.log: the task's output ended there). */
static void out_flush(struct out_task *t, int nl)
{
	if (t->len)
		out_write(t, t->line, t->len);
	if (t->len && nl && t->hlen)
		t->held_nl = 1; /* (after the line, when it is written) */
	else if (t->len && nl)
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

void la_output_known(void)
{
	for (size_t i = 0; i < out.n; i++)
		if (out.t[i].hlen && out_ltid(&out.t[i]) >= 0)
			out_release(&out.t[i]);
}

void la_output_tick(void)
{
	double now = la_death_now();

	for (size_t i = 0; i < out.n; i++) /* (never known: a task -1) */
		if (out.t[i].hlen && now - out.t[i].held_at >= OUT_HOLD_S)
			out_release(&out.t[i]);
	if (!out.tty)
		return;
	for (size_t i = 0; i < out.n; i++)
		if (out.t[i].len && now - out.t[i].since >= OUT_QUIET_S) {
			out_flush(&out.t[i], 0);
			fflush(stdout);
		}
}

void la_output_piece(int tid, const char *p, int n)
{
	struct out_task *t = out_task(tid);

	if (!t)
		return;
	if (n > 0) {
		out_add(t, p, (size_t)n);
		t->open = 1;
	} else if (n == 0) { /* its output ended */
		out_flush(t, 1);
		t->open = 0;
	} else {
		t->open = 1;
	}
}

void la_output_take(void)
{
	static char p[OUT_MSG_MAX]; /* one message's bytes (pvmds send 4 KB) */
	int tid, n;

	if (pvm_upkint(&tid, 1, 1) < 0 || pvm_upkint(&n, 1, 1) < 0 ||
	    n > OUT_MSG_MAX || (n > 0 && pvm_upkbyte(p, n, 1) < 0))
		return;
	la_output_piece(tid, p, n);
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
	for (size_t i = 0; i < out.n; i++) {
		out_flush(&out.t[i], 1);
		out_release(&out.t[i]);
	}
	fflush(stdout);
	if (out.log_fd >= 0)
		close(out.log_fd);
	out.log_fd = -1;
	free(out.t);
	out.t = NULL;
	out.n = out.cap = 0;
}
