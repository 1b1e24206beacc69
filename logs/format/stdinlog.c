/*
 * stdinlog.c: stdin.log, the launcher's record of the standard input it
 * gave a task of the run, task 1 unless -stdin named another
 * (docs/FORMATS.md section 8):
 *
 *   pangaea-stdin 2 ltid=L\n                 (version 1: "pangaea-stdin 1", L 1)
 *   data LEN\n  then LEN bytes, then \n      (1 <= LEN <= 65536), any number
 *   eof\n                                    (the input ended), at most once
 *
 * A file without "eof" was cut while the input was still open: the replay
 * gives the same bytes and never ends the input.
 */
#include "pangaea-logs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pg_stdin_create(const char *path, int ltid, char *err, size_t errlen)
{
	char rest[32];

	snprintf(rest, sizeof(rest), "ltid=%d", ltid);
	return pg_create_text_log(path, "pangaea-stdin", PG_STDIN_VERSION, rest,
				  err, errlen);
}

int pg_stdin_append(int fd, const char *data, size_t n)
{
	char *b;
	int k, rc;

	if (n == 0 || n > PG_STDIN_CHUNK_MAX)
		return errno = EINVAL, -1;
	if (!(b = malloc(n + 32)))
		return -1;
	k = snprintf(b, 32, "data %zu\n", n);
	memcpy(b + k, data, n);
	b[(size_t)k + n] = '\n';
	rc = pg_write_log(fd, b, (size_t)k + n + 1); /* one write: whole chunks */
	free(b);
	return rc;
}

int pg_stdin_append_eof(int fd)
{
	return pg_write_log(fd, "eof\n", 4);
}

/* Appends the chunk DATA (N bytes) to LOG; 0 or -1. */
static int stdin_add(struct pg_stdin_log *log, const char *data, size_t n)
{
	char *d = realloc(log->data, log->len + n + 1);
	size_t *c = realloc(log->chunks, (log->nchunks + 1) * sizeof(*c));

	if (d)
		log->data = d;
	if (c)
		log->chunks = c;
	if (!d || !c)
		return -1;
	memcpy(log->data + log->len, data, n);
	log->len += n;
	log->chunks[log->nchunks++] = n;
	return 0;
}

int pg_stdin_read(const char *path, struct pg_stdin_log *log, char *err,
		  size_t errlen)
{
	char line[64], *chunk = malloc(PG_STDIN_CHUNK_MAX + 1), *end;
	FILE *f = pg_fopen_log(path, err, errlen);
	int version = 0, rc = -1, k = 0;
	long off = 0;

	memset(log, 0, sizeof(*log));
	if (!f || !chunk)
		goto out;
	if (pg_log_line(f, line, sizeof(line)) < 0 ||
	    sscanf(line, "pangaea-stdin %d", &version) != 1) {
		snprintf(err, errlen, "%s: not a Pangaea standard input log (no "
			 "'pangaea-stdin VERSION' first line)", path);
		goto out;
	}
	if (version != 1 && version != PG_STDIN_VERSION) {
		snprintf(err, errlen, "%s: log format version %d, this Pangaea "
			 "reads versions 1 to %d", path, version, PG_STDIN_VERSION);
		goto out;
	}
	log->ltid = 1;
	if (version > 1 &&
	    (sscanf(line, "pangaea-stdin %*d ltid=%d%n", &log->ltid, &k) != 1 ||
	     line[k] || log->ltid < 1)) {
		snprintf(err, errlen, "%s: a version %d first line must be "
			 "'pangaea-stdin %d ltid=L' (L >= 1)", path, version,
			 version);
		goto out;
	}
	for (;;) {
		unsigned long n;
		int c;

		off = ftell(f);
		if ((c = getc(f)) == EOF)
			break;
		ungetc(c, f);
		if (log->eof) {
			snprintf(err, errlen, "%s: offset %ld: data after 'eof'",
				 path, off);
			goto out;
		}
		if (pg_log_line(f, line, sizeof(line)) < 0)
			goto bad;
		if (strcmp(line, "eof") == 0) {
			log->eof = 1;
			continue;
		}
		if (strncmp(line, "data ", 5) != 0 || line[5] < '1' ||
		    line[5] > '9')
			goto bad;
		errno = 0;
		n = strtoul(line + 5, &end, 10);
		if (*end || errno || n > PG_STDIN_CHUNK_MAX)
			goto bad;
		if (fread(chunk, 1, n, f) != n || getc(f) != '\n') {
			snprintf(err, errlen, "%s: truncated: the chunk at offset "
				 "%ld is cut off", path, off);
			goto out;
		}
		if (stdin_add(log, chunk, n) < 0) {
			snprintf(err, errlen, "%s: out of memory", path);
			goto out;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
	goto out;
bad:
	snprintf(err, errlen, "%s: offset %ld: not a 'data LEN' (1..%d) or "
		 "'eof' line", path, off, PG_STDIN_CHUNK_MAX);
out:
	if (f)
		fclose(f);
	free(chunk);
	if (rc < 0)
		pg_stdin_free(log);
	return rc;
}

void pg_stdin_free(struct pg_stdin_log *log)
{
	free(log->data);
	free(log->chunks);
	memset(log, 0, sizeof(*log));
}
