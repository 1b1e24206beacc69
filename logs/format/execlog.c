/*
 * execlog.c: the text execution log, one spawn a line:
 *
 *   pangaea-exec 2 ltid=1
 *   spawn 1 file="sor" flags=0 where="" ntask=3 started=3 argv=["4" "100"] tasks=[1001@vm 1002@vm 1003@vm]
 *
 * The launcher's log (task-0.exec) may hold, before its spawns, one line
 * "start staged" or "start stagger=MS": how the programs of the command
 * line were started (-staged, -stagger); none: all at once.  Version 1
 * files (no such line) are still read.
 *
 * A failed slot is written !CODE (a negative PVM error).  Strings are
 * double-quoted with C escapes.  Lines starting with '#' are comments.
 */
#include "pangaea-logs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Appends S to B as a double-quoted string with C escapes. */
static int exec_quote(struct pg_strbuf *b, const char *s)
{
	int rc = pg_strbuf_add(b, "\"", 1);

	for (; *s && rc == 0; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			rc = pg_strbuf_printf(b, "\\%c", c);
		else if (c == '\n')
			rc = pg_strbuf_add(b, "\\n", 2);
		else if (c == '\t')
			rc = pg_strbuf_add(b, "\\t", 2);
		else if (c < 0x20 || c == 0x7f)
			rc = pg_strbuf_printf(b, "\\x%02x", c);
		else
			rc = pg_strbuf_add(b, (const char *)&c, 1);
	}
	return rc ? rc : pg_strbuf_add(b, "\"", 1);
}

int pg_exec_create(const char *path, int ltid, char *err, size_t errlen)
{
	char head[256];
	/* new, never a file or link found there; 0600 (see pg_comm_create) */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND |
		      O_CLOEXEC, 0600);
	int n;

	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path,
			 strerror(errno));
		return -1;
	}
	n = snprintf(head, sizeof(head),
		     "pangaea-exec %d ltid=%d\n"
		     "# One spawn a line. To run a task elsewhere on replay, "
		     "edit the host after its '@'.\n",
		     PG_EXEC_VERSION, ltid);
	if (write(fd, head, (size_t)n) != n) {
		snprintf(err, errlen, "cannot write %s: %s", path,
			 strerror(errno));
		close(fd);
		unlink(path); /* (an empty log would be taken for a cut one) */
		return -1;
	}
	return fd;
}

/* Formats REC as one line (with newline) into B. */
static int exec_format(struct pg_strbuf *b, const struct pg_spawn_rec *rec)
{
	int rc = pg_strbuf_printf(b, "spawn %d file=", rec->seq);

	rc |= exec_quote(b, rec->file);
	rc |= pg_strbuf_printf(b, " flags=%d where=", rec->flags);
	rc |= exec_quote(b, rec->where);
	rc |= pg_strbuf_printf(b, " ntask=%d started=%d argv=[",
			       rec->ntask, rec->started);
	for (int i = 0; i < rec->argc; i++) {
		rc |= i ? pg_strbuf_add(b, " ", 1) : 0;
		rc |= exec_quote(b, rec->argv[i]);
	}
	rc |= pg_strbuf_add(b, "] tasks=[", 9);
	for (int i = 0; i < rec->ntask; i++) {
		const struct pg_spawn_slot *s = &rec->slots[i];

		rc |= i ? pg_strbuf_add(b, " ", 1) : 0;
		if (s->ltid > 0)
			rc |= pg_strbuf_printf(b, "%d@%s", s->ltid, s->host);
		else
			rc |= pg_strbuf_printf(b, "!%d", s->err);
	}
	return rc | pg_strbuf_add(b, "]\n", 2);
}

int pg_exec_append_start(int fd, int how, int ms)
{
	struct pg_strbuf b = { 0 };
	int rc, e;

	if (how == PG_START_STAGED)
		rc = pg_strbuf_printf(&b, "start staged\n");
	else if (how == PG_START_STAGGER && ms >= 0)
		rc = pg_strbuf_printf(&b, "start stagger=%d\n", ms);
	else
		return errno = EINVAL, -1;
	rc = rc ? (errno = ENOMEM, -1) : pg_write_log(fd, b.p, b.len);
	e = errno;
	pg_strbuf_free(&b);
	errno = e;
	return rc;
}

int pg_exec_append(int fd, const struct pg_spawn_rec *rec)
{
	struct pg_strbuf b = { 0 };
	int rc = exec_format(&b, rec), e = ENOMEM;

	/* a short write (disk full) is followed by one that says why */
	if (rc == 0 && (rc = pg_write_log(fd, b.p, b.len)) < 0)
		e = errno;
	pg_strbuf_free(&b);
	if (rc < 0)
		errno = e;
	return rc < 0 ? -1 : 0;
}

/* A cursor over one line being parsed. */
struct lex {
	const char *p;
};

/* Skips blanks. */
static void lex_space(struct lex *l)
{
	while (*l->p == ' ' || *l->p == '\t')
		l->p++;
}

/* Expects the literal WORD next; 0 or -1. */
static int lex_lit(struct lex *l, const char *word)
{
	size_t n = strlen(word);

	lex_space(l);
	if (strncmp(l->p, word, n) != 0)
		return -1;
	l->p += n;
	return 0;
}

/* Reads a decimal integer that fits an int; 0 or -1 (none, or past 32
 * bits: never cut down to its low bits). */
static int lex_int(struct lex *l, int *out)
{
	char *end;
	long v;

	lex_space(l);
	errno = 0;
	v = strtol(l->p, &end, 10);
	if (end == l->p || errno || v < INT_MIN || v > INT_MAX)
		return -1;
	l->p = end;
	*out = (int)v;
	return 0;
}

/* Reads one escape after a backslash into C; 0 or -1. */
static int lex_escape(struct lex *l, char *c)
{
	char e = *l->p++;
	unsigned v;

	switch (e) {
	case 'n': *c = '\n'; return 0;
	case 't': *c = '\t'; return 0;
	case '"': case '\\': *c = e; return 0;
	case 'x':
		if (!isxdigit((unsigned char)l->p[0]) ||
		    !isxdigit((unsigned char)l->p[1]) ||
		    sscanf(l->p, "%2x", &v) != 1)
			return -1;
		l->p += 2;
		*c = (char)v;
		return 0;
	default:
		return -1;
	}
}

/* Reads a quoted string into OUT (N bytes); 0 or -1. */
static int lex_str(struct lex *l, char *out, size_t n)
{
	size_t k = 0;

	lex_space(l);
	if (*l->p++ != '"')
		return -1;
	while (*l->p && *l->p != '"') {
		char c = *l->p++;

		if (c == '\\' && lex_escape(l, &c) < 0)
			return -1;
		if (k + 1 >= n)
			return -1;
		out[k++] = c;
	}
	if (*l->p++ != '"')
		return -1;
	out[k] = '\0';
	return 0;
}

/* Reads a quoted string of any length into a new string in *OUT (an
 * unescaped string is never longer than the rest of the line); 0 or -1. */
static int lex_str_dup(struct lex *l, char **out)
{
	size_t n = strlen(l->p) + 1;

	*out = malloc(n);
	if (!*out)
		return -1;
	if (lex_str(l, *out, n) < 0) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* Parses argv=["a" "b"] into REC; 0 or -1. */
static int parse_argv(struct lex *l, struct pg_spawn_rec *rec)
{
	if (lex_lit(l, "argv=[") < 0)
		return -1;
	rec->argv = calloc(1, sizeof(char *));
	for (lex_space(l); *l->p && *l->p != ']'; lex_space(l)) {
		char **v = realloc(rec->argv, (size_t)(rec->argc + 2) * sizeof(char *));

		if (!v)
			return -1;
		rec->argv = v;
		rec->argv[rec->argc + 1] = NULL;
		if (lex_str_dup(l, &rec->argv[rec->argc]) < 0)
			return -1;
		rec->argc++;
	}
	return lex_lit(l, "]");
}

/* Parses one slot: LTID@HOST or !ERR; 0 or -1. */
static int parse_slot(struct lex *l, struct pg_spawn_slot *s)
{
	size_t k = 0;

	lex_space(l);
	if (*l->p == '!') {
		l->p++;
		return lex_int(l, &s->err);
	}
	if (lex_int(l, &s->ltid) < 0 || s->ltid <= 0 || *l->p++ != '@')
		return -1;
	while (*l->p && *l->p != ' ' && *l->p != ']' && k + 1 < PG_HOST_MAX)
		s->host[k++] = *l->p++;
	s->host[k] = '\0';
	return k ? 0 : -1;
}

/* Parses the text after "spawn" into REC; 0 or -1. */
static int parse_spawn(struct lex *l, struct pg_spawn_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	if (lex_int(l, &rec->seq) < 0 || lex_lit(l, "file=") < 0 ||
	    lex_str(l, rec->file, sizeof(rec->file)) < 0 ||
	    lex_lit(l, "flags=") < 0 || lex_int(l, &rec->flags) < 0 ||
	    lex_lit(l, "where=") < 0 ||
	    lex_str(l, rec->where, sizeof(rec->where)) < 0 ||
	    lex_lit(l, "ntask=") < 0 || lex_int(l, &rec->ntask) < 0 ||
	    lex_lit(l, "started=") < 0 || lex_int(l, &rec->started) < 0 ||
	    rec->ntask < 0 || rec->ntask > 100000 || parse_argv(l, rec) < 0 ||
	    lex_lit(l, "tasks=[") < 0)
		return -1;
	rec->slots = calloc((size_t)rec->ntask + 1, sizeof(*rec->slots));
	if (!rec->slots)
		return -1;
	for (int i = 0; i < rec->ntask; i++)
		if (parse_slot(l, &rec->slots[i]) < 0)
			return -1;
	if (lex_lit(l, "]") < 0)
		return -1;
	lex_space(l);
	return *l->p == '\0' || *l->p == '\n' ? 0 : -1;
}

/* Whether PATH is named after another task than LTID (task-7.exec
 * holding ltid=8); 1 or 0.  A file whose name is not task-*.exec is not
 * judged. */
static int exec_misnamed(const char *path, int ltid)
{
	const char *base = strrchr(path, '/');
	char want[32];
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (strncmp(base, "task-", 5) != 0 || n < 10 ||
	    strcmp(base + n - 5, ".exec") != 0)
		return 0;
	snprintf(want, sizeof(want), "task-%d.exec", ltid);
	return strcmp(base, want) != 0;
}

/* Parses the first line; 0 or -1 with ERR filled. */
static int parse_head(const char *line, const char *path,
		      struct pg_exec_log *log, char *err, size_t errlen)
{
	struct lex l = { line };
	int version;

	if (lex_lit(&l, "pangaea-exec") < 0 || lex_int(&l, &version) < 0 ||
	    lex_lit(&l, "ltid=") < 0 || lex_int(&l, &log->ltid) < 0 ||
	    (lex_space(&l), *l.p != '\n' && *l.p != '\0')) {
		snprintf(err, errlen, "%s:1: not a Pangaea execution log (no "
			 "'pangaea-exec VERSION ltid=LTID' first line)", path);
		return -1;
	}
	if (version != PG_EXEC_VERSION && version != 1) {
		snprintf(err, errlen,
			 "%s:1: log format version %d, this Pangaea reads versions "
			 "1 to %d", path, version, PG_EXEC_VERSION);
		return -1;
	}
	log->version = version;
	if (exec_misnamed(path, log->ltid)) {
		snprintf(err, errlen, "%s:1: says ltid=%d, not the task its "
			 "name says", path, log->ltid);
		return -1;
	}
	return 0;
}

/* Parses the text after "start" into LOG: only in a version 2 file, once,
 * before any spawn; 0 or -1. */
static int parse_start(struct lex *l, struct pg_exec_log *log)
{
	if (log->version < 2 || log->start || log->nspawn)
		return -1;
	if (lex_lit(l, "staged") == 0) {
		log->start = PG_START_STAGED;
	} else if (lex_lit(l, "stagger=") == 0 &&
		   lex_int(l, &log->start_ms) == 0 && log->start_ms >= 0) {
		log->start = PG_START_STAGGER;
	} else {
		return -1;
	}
	lex_space(l);
	return *l->p == '\0' || *l->p == '\n' ? 0 : -1;
}

/* Parses one body line into LOG; 0 or -1. */
static int parse_line(char *line, struct pg_exec_log *log)
{
	struct lex l = { line };
	struct pg_spawn_rec *v;

	lex_space(&l);
	if (*l.p == '#' || *l.p == '\n' || *l.p == '\0')
		return 0;
	if (lex_lit(&l, "start") == 0)
		return parse_start(&l, log);
	if (lex_lit(&l, "spawn") < 0)
		return -1;
	v = realloc(log->spawns, (size_t)(log->nspawn + 1) * sizeof(*v));
	if (!v)
		return -1;
	log->spawns = v;
	if (parse_spawn(&l, &v[log->nspawn]) < 0) {
		pg_spawn_rec_free(&v[log->nspawn]);
		return -1;
	}
	log->nspawn++;
	return 0;
}

int pg_exec_read(const char *path, struct pg_exec_log *log, char *err,
		 size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f = pg_fopen_log(path, err, errlen);
	int lineno = 0, rc = -1;

	memset(log, 0, sizeof(*log));
	if (!f)
		goto out;
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (strlen(line) != (size_t)len) {
			snprintf(err, errlen, "%s:%d: a NUL byte at column %zu",
				 path, lineno, strlen(line) + 1);
			goto out;
		}
		if (lineno == 1 ? parse_head(line, path, log, err, errlen) < 0
				: parse_line(line, log) < 0) {
			if (lineno > 1)
				snprintf(err, errlen, "%s:%d: cannot parse this line",
					 path, lineno);
			goto out;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s after line %d: %s", path,
			 lineno, strerror(errno));
		goto out;
	}
	if (lineno == 0) {
		snprintf(err, errlen, "%s: empty execution log (0 bytes)", path);
		goto out;
	}
	rc = 0;
out:
	if (f)
		fclose(f);
	free(line);
	if (rc < 0)
		pg_exec_free(log);
	return rc;
}

void pg_spawn_rec_free(struct pg_spawn_rec *rec)
{
	for (int i = 0; rec->argv && i < rec->argc; i++)
		free(rec->argv[i]);
	free(rec->argv);
	free(rec->slots);
	rec->argv = NULL;
	rec->slots = NULL;
	rec->argc = 0;
}

void pg_exec_free(struct pg_exec_log *log)
{
	for (int i = 0; i < log->nspawn; i++)
		pg_spawn_rec_free(&log->spawns[i]);
	free(log->spawns);
	log->spawns = NULL;
	log->nspawn = 0;
}
