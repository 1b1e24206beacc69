/*
 * outlog.c: output.log, the launcher's record of what the run's tasks
 * printed (docs/FORMATS.md section 7):
 *
 *   pangaea-output 1\n
 *   line LTID NS LEN\n  then LEN bytes, then \n   a piece that ended a line
 *   part LTID NS LEN\n  then LEN bytes, then \n   a piece that did not
 *
 * LEN is 0..PG_OUTPUT_PIECE_MAX, the bytes are the task's own without the
 * newline that ended them; NS is when the launcher received them, in
 * wall-clock ns (CLOCK_REALTIME, as the trace database's times); LTID is
 * -1 for a task the launcher did not know.  A line printed in several
 * pieces (a very long line, a prompt shown on a terminal) is its "part"
 * records followed by its "line" record.
 */
#include "pangaea-logs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int pg_outlog_create(const char *path, char *err, size_t errlen)
{
	return pg_create_text_log(path, "pangaea-output", PG_OUTPUT_VERSION, NULL,
				  err, errlen);
}

int64_t pg_outlog_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int pg_outlog_append(int fd, int ltid, int64_t ns, int nl, const char *p,
		     size_t n)
{
	char *b;
	int k, rc;

	if (n > PG_OUTPUT_PIECE_MAX)
		return errno = EINVAL, -1;
	if (!(b = malloc(n + 80)))
		return -1;
	k = snprintf(b, 80, "%s %d %" PRId64 " %zu\n", nl ? "line" : "part",
		     ltid, ns, n);
	memcpy(b + k, p, n);
	b[(size_t)k + n] = '\n';
	rc = pg_write_log(fd, b, (size_t)k + n + 1); /* one write: whole ones */
	free(b);
	return rc;
}

/* Parses the record head LINE into P (its bytes' offset not set); 0 or
 * -1. */
static int outlog_head(const char *line, struct pg_out_piece *p)
{
	char kind[8], *end;
	long long ltid, ns;
	unsigned long long len;
	const char *s;

	if (sscanf(line, "%7s", kind) != 1)
		return -1;
	if (strcmp(kind, "line") == 0)
		p->nl = 1;
	else if (strcmp(kind, "part") == 0)
		p->nl = 0;
	else
		return -1;
	s = line + 4;
	errno = 0;
	if (*s++ != ' ' || (ltid = strtoll(s, &end, 10), end == s) ||
	    *end != ' ' || ltid < -1 || ltid > INT32_MAX)
		return -1;
	s = end + 1;
	if ((ns = strtoll(s, &end, 10), end == s) || *end != ' ' || ns < 0)
		return -1;
	s = end + 1;
	if (*s < '0' || *s > '9' || (len = strtoull(s, &end, 10), *end) ||
	    errno || len > PG_OUTPUT_PIECE_MAX)
		return -1;
	p->ltid = (int)ltid;
	p->ns = ns;
	p->len = (size_t)len;
	return 0;
}

/* Appends piece P to LOG, its bytes and their "\n" read from F; 0, -1
 * out of memory, -2 they are cut off. */
static int outlog_add(struct pg_out_log *log, struct pg_out_piece *p,
		      FILE *f)
{
	struct pg_out_piece *v;
	char *d = pg_grow(log->data, &log->data_cap, log->len + p->len + 1, 1,
			  4096);

	if (d)
		log->data = d;
	if (!d || !(v = pg_grow(log->pieces, &log->cap, log->n + 1,
				sizeof(*v), 64)))
		return -1;
	log->pieces = v;
	if (fread(log->data + log->len, 1, p->len, f) != p->len ||
	    getc(f) != '\n') {
		log->data[log->len] = '\0';
		return -2;
	}
	p->off = log->len;
	log->len += p->len;
	log->data[log->len] = '\0';
	v[log->n++] = *p;
	return 0;
}

int pg_outlog_read(const char *path, struct pg_out_log *log, char *err,
		   size_t errlen)
{
	char line[96];
	FILE *f = pg_fopen_text_log(path, "pangaea-output", PG_OUTPUT_VERSION,
				    "output log", err, errlen);
	int rc = -1;
	long off = 0;

	memset(log, 0, sizeof(*log));
	if (!f)
		goto out;
	for (;;) {
		struct pg_out_piece p;
		int c;

		off = ftell(f);
		if ((c = getc(f)) == EOF)
			break;
		ungetc(c, f);
		if (pg_log_line(f, line, sizeof(line)) < 0 ||
		    outlog_head(line, &p) < 0) {
			snprintf(err, errlen, "%s: offset %ld: not a 'line|part "
				 "LTID NS LEN' (LEN 0..%d) record", path, off,
				 PG_OUTPUT_PIECE_MAX);
			goto out;
		}
		switch (outlog_add(log, &p, f)) {
		case -1:
			snprintf(err, errlen, "%s: out of memory", path);
			goto out;
		case -2:
			snprintf(err, errlen, "%s: truncated: the record at "
				 "offset %ld is cut off", path, off);
			goto out;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (f)
		fclose(f);
	return rc; /* a damaged log: LOG keeps the records before the damage */
}

void pg_outlog_free(struct pg_out_log *log)
{
	free(log->data);
	free(log->pieces);
	memset(log, 0, sizeof(*log));
}
