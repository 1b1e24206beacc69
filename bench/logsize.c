/*
 * logsize.c: how many bytes a recording takes, per event kind.
 *
 * Usage: logsize LOGDIR
 *
 * Reads every task-*.comm of LOGDIR with the log reader (clock reads and
 * seeds too: kinds time and seed) and attributes the
 * bytes of each record to its kind; prints one line a kind,
 *
 *   LOGSIZE kind=KIND events=N bytes=B
 *
 * plus kind=header (the fixed header of each communication log, events =
 * files) and kind=exec (the execution logs, events = spawn lines).
 * Exit status 1 if a log cannot be read.
 */
#include "pangaea-logs.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define NKINDS (PG_REC_SEED + 1) /* the events, clock reads and seeds */

/* Totals over the files read so far. */
struct sizes {
	long events[NKINDS], bytes[NKINDS];
	long hdr_files, hdr_bytes;
	long exec_lines, exec_bytes;
};

/* Adds the communication log PATH to S; 0 or -1 with a message. */
static int add_comm(const char *path, struct sizes *s)
{
	struct pg_comm_reader r;
	struct pg_event ev;
	char err[512];
	size_t pos;
	int got;

	if (pg_comm_open(&r, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "logsize: %s\n", err);
		return -1;
	}
	r.values = 1;
	s->hdr_files++;
	s->hdr_bytes += (long)r.pos;
	pos = r.pos;
	while ((got = pg_comm_next(&r, &ev, err, sizeof(err))) > 0) {
		if (ev.kind > 0 && ev.kind < NKINDS &&
		    (ev.kind <= PG_REC_LAST || ev.kind >= PG_REC_TIME)) {
			s->events[ev.kind]++;
			s->bytes[ev.kind] += (long)(r.pos - pos);
		}
		pos = r.pos;
	}
	pg_comm_free(&r);
	if (got < 0)
		fprintf(stderr, "logsize: %s\n", err);
	return got < 0 ? -1 : 0;
}

/* Adds the execution log PATH (its bytes and spawn lines) to S. */
static void add_exec(const char *path, struct sizes *s)
{
	FILE *f = fopen(path, "r");
	int c, lines = 0;
	struct stat st;

	if (!f)
		return;
	while ((c = getc(f)) != EOF)
		lines += c == '\n';
	fclose(f);
	if (stat(path, &st) == 0)
		s->exec_bytes += (long)st.st_size;
	s->exec_lines += lines > 0 ? lines - 1 : 0; /* minus the header line */
}

/* Prints the byte counts of the logs in argv[1]; 0, or 1 on an error. */
int main(int argc, char **argv)
{
	struct sizes s;
	struct dirent *de;
	char path[PG_PATH_MAX];
	int rc = 0;
	DIR *d;

	if (argc != 2 || !(d = opendir(argv[1]))) {
		fprintf(stderr, "usage: logsize LOGDIR (a readable folder)\n");
		return 1;
	}
	memset(&s, 0, sizeof(s));
	while ((de = readdir(d)) != NULL) {
		if (snprintf(path, sizeof(path), "%s/%s", argv[1], de->d_name) >=
		    (int)sizeof(path))
			continue;
		if (fnmatch("task-*.comm", de->d_name, 0) == 0)
			rc |= add_comm(path, &s);
		else if (fnmatch("task-*.exec", de->d_name, 0) == 0)
			add_exec(path, &s);
	}
	closedir(d);
	for (int k = 1; k < NKINDS; k++)
		if (s.events[k])
			printf("LOGSIZE kind=%s events=%ld bytes=%ld\n",
			       pg_rec_kind_name(k), s.events[k], s.bytes[k]);
	printf("LOGSIZE kind=header events=%ld bytes=%ld\n", s.hdr_files,
	       s.hdr_bytes);
	printf("LOGSIZE kind=exec events=%ld bytes=%ld\n", s.exec_lines,
	       s.exec_bytes);
	return rc ? 1 : 0;
}
