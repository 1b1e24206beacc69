/*
 * runinfo.c: run.info, the launcher's account of a run (docs/FORMATS.md,
 * section 4): text lines "KEY VALUE", the first "pangaea-run VERSION".
 * The launcher writes it when the run is over; the replay check and the
 * trace database read it.
 */
#include "pangaea-logs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Formats RI as run.info's text into a new buffer *TEXT (*LEN bytes,
 * free()d by the caller); 0 or -1 (memory). */
static int runinfo_format(const struct pg_runinfo *ri, char **text,
			  size_t *len)
{
	FILE *f = open_memstream(text, len);
	int bad;

	if (!f)
		return -1;
	fprintf(f, "pangaea-run %d\nmode %s\nended %s\nlauncher-host %s\n"
		"command %s\n", PG_RUNINFO_VERSION, ri->mode, ri->ended,
		ri->launcher_host, ri->command);
	if (ri->replay_of[0])
		fprintf(f, "replay-of %s\n", ri->replay_of);
	fprintf(f, "select %s\n", ri->select[0] ? ri->select : "all");
	if (ri->chaos)
		fprintf(f, "chaos-seed %u\n", ri->chaos_seed);
	for (size_t i = 0; i < ri->narchs; i++)
		fprintf(f, "arch %s %s\n", ri->archs[i].host, ri->archs[i].arch);
	for (size_t i = 0; i < ri->ntasks; i++) {
		const struct pg_runinfo_task *t = &ri->tasks[i];

		fprintf(f, "task %d tid=t%x host=%s program=%s end=%d/%d (%s)\n",
			t->ltid, (unsigned)t->tid, t->host, t->program, t->how,
			t->value, t->end_text);
	}
	if (ri->diverged[0])
		fprintf(f, "diverged %s\n", ri->diverged);
	fprintf(f, "status %d\n", ri->status);
	bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		free(*text);
		*text = NULL;
		return -1;
	}
	return 0;
}

/*
 * The text goes into a new temporary file of DIR (mkstemp: O_EXCL, mode
 * 0600, never a link someone placed there), then renamed over run.info
 * (which replaces a link, never follows it): a reader sees the old
 * run.info or the complete new one, and a failed write or close (a full
 * disk: ext4 and tmpfs say so at the write, NFS at the close) is an
 * error, never an empty run.info.  Not synced to the disk, as the logs
 * beside it are not: a crash of the machine loses what the kernel had
 * not written of either (the two fsyncs cost 0.6-3 ms at the end of
 * every run on this machine's ext4, issue 28).
 */
int pg_runinfo_write(const char *dir, const struct pg_runinfo *ri, char *err,
		     size_t errlen)
{
	char path[PG_PATH_MAX + 16], tmp[PG_PATH_MAX + 32], *text = NULL;
	const char *what = "write";
	size_t len = 0;
	int fd = -1, rc = -1;

	snprintf(path, sizeof(path), "%s/run.info", dir);
	snprintf(tmp, sizeof(tmp), "%s/.run.info.XXXXXX", dir);
	if (runinfo_format(ri, &text, &len) < 0) {
		snprintf(err, errlen, "cannot write %s: out of memory", path);
		return -1;
	}
	if ((fd = mkstemp(tmp)) < 0)
		goto out;
	if (pg_write_log(fd, text, len) < 0)
		goto out;
	rc = close(fd);
	fd = -1;
	if (rc < 0)
		goto out;
	rc = -1;
	what = "rename it to";
	if (rename(tmp, path) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0) {
		int why = errno;

		if (fd >= 0)
			close(fd);
		unlink(tmp);
		snprintf(err, errlen, "cannot %s %s: %s", what, path,
			 strerror(why ? why : EIO));
	}
	free(text);
	return rc;
}

int pg_runinfo_add_task(struct pg_runinfo *ri,
			const struct pg_runinfo_task *t)
{
	struct pg_runinfo_task *v = pg_grow(ri->tasks, &ri->cap,
					    ri->ntasks + 1, sizeof(*v), 16);

	if (!v)
		return -1;
	ri->tasks = v;
	ri->tasks[ri->ntasks++] = *t;
	return 0;
}

/* Parses one "task ..." line of run.info, line LINENO, into RI; 0, -1
 * out of memory, -2 the line is malformed. */
static int read_task(struct pg_runinfo *ri, const char *line, int lineno)
{
	struct pg_runinfo_task t = { .line = lineno };
	const char *p;
	char *end;
	long ltid;

	errno = 0;
	ltid = strtol(line + 5, &end, 10);
	if (end == line + 5 || errno || ltid < 0 || ltid > INT_MAX ||
	    sscanf(end, " tid=t%x", (unsigned *)&t.tid) != 1)
		return -2;
	t.ltid = (int)ltid;
	if ((p = strstr(line, " host=")))
		sscanf(p, " host=%255s", t.host);
	if ((p = strstr(line, " program=")))
		sscanf(p, " program=%4095s", t.program);
	if ((p = strstr(line, " end=")) &&
	    (sscanf(p, " end=%d/%d", &t.how, &t.value) != 2 || t.how < 0 ||
	     t.how > PG_END_LAST))
		return -2;
	/* the words, in brackets up to the line's last: they may hold
	   brackets of their own ("killed by signal 15 (Terminated)") */
	p = strstr(line, " end=");
	if ((p = strstr(p ? p : line, " ("))) {
		const char *close = strrchr(p + 2, ')');

		snprintf(t.end_text, sizeof(t.end_text), "%.*s",
			 (int)(close ? (size_t)(close - p - 2) : strlen(p + 2)),
			 p + 2);
	}
	return pg_runinfo_add_task(ri, &t);
}

/* Copies the value of LINE into OUT (N bytes) if LINE is "KEY value". */
static int read_key(const char *line, const char *key, char *out, size_t n)
{
	size_t l = strlen(key);

	if (strncmp(line, key, l) != 0 || line[l] != ' ')
		return 0;
	snprintf(out, n, "%s", line + l + 1);
	return 1;
}

/* Reads the exit status S (0..255) into RI; 0, or -1 if it is none. */
static int read_status(struct pg_runinfo *ri, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < 0 || v > 255)
		return -1;
	ri->status = (int)v;
	return 0;
}

/* Reads the lines of F (the first already checked) into RI; 0, or -1
 * with ERR naming PATH and the line. */
static int read_lines(FILE *f, const char *path, struct pg_runinfo *ri,
		      char *err, size_t errlen)
{
	char line[2 * PG_PATH_MAX + 8192];
	int lineno = 1, rc;

	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n");

		lineno++;
		if (line[len] != '\n' && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line too long", path,
				 lineno);
			return -1;
		}
		line[len] = '\0';
		if (read_key(line, "mode", ri->mode, sizeof(ri->mode)) ||
		    read_key(line, "ended", ri->ended, sizeof(ri->ended)) ||
		    read_key(line, "launcher-host", ri->launcher_host,
			     sizeof(ri->launcher_host)) ||
		    read_key(line, "command", ri->command,
			     sizeof(ri->command)) ||
		    read_key(line, "replay-of", ri->replay_of,
			     sizeof(ri->replay_of)) ||
		    read_key(line, "select", ri->select, sizeof(ri->select)) ||
		    read_key(line, "diverged", ri->diverged,
			     sizeof(ri->diverged)))
			continue;
		if (strncmp(line, "chaos-seed ", 11) == 0) {
			if (sscanf(line + 11, "%u", &ri->chaos_seed) != 1) {
				snprintf(err, errlen, "%s:%d: cannot parse this "
					 "chaos-seed line", path, lineno);
				return -1;
			}
			ri->chaos = 1;
		} else if (strncmp(line, "arch ", 5) == 0) {
			char host[PG_HOST_MAX], arch[32];
			if (sscanf(line + 5, "%255s %31s", host, arch) != 2 ||
			    pg_runinfo_add_arch(ri, host, arch) < 0) {
				snprintf(err, errlen, "%s:%d: cannot parse this "
					 "arch line", path, lineno);
				return -1;
			}
		} else if (strncmp(line, "status ", 7) == 0) {
			if (read_status(ri, line + 7) < 0) {
				snprintf(err, errlen, "%s:%d: cannot parse this "
					 "status line", path, lineno);
				return -1;
			}
		} else if (strncmp(line, "task ", 5) == 0 &&
			 (rc = read_task(ri, line, lineno)) < 0) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno,
				 rc == -1 ? "out of memory"
					  : "cannot parse this task line");
			return -1;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s after line %d: %s", path,
			 lineno, strerror(errno));
		return -1;
	}
	if (strcmp(ri->select, "all") == 0)
		ri->select[0] = '\0';
	return 0;
}

/* Refuses a task line of RI that claims an end no log of DIR holds: a
 * task that ended (how > 0) wrote its end record into task-LTID.comm,
 * so without that file the line is not true.  0, or -1 with ERR naming
 * PATH and the line. */
static int check_tasks(const struct pg_runinfo *ri, const char *dir,
		       const char *path, char *err, size_t errlen)
{
	char log[PG_PATH_MAX];
	struct stat st;

	for (size_t i = 0; i < ri->ntasks; i++) {
		const struct pg_runinfo_task *t = &ri->tasks[i];

		if (t->how <= 0 || t->ltid == 0 ||
		    pg_log_path(log, sizeof(log), dir, t->ltid, "comm") < 0 ||
		    lstat(log, &st) == 0)
			continue;
		snprintf(err, errlen, "%s:%d: task %d ended (%s) but has no "
			 "log task-%d.comm", path, t->line, t->ltid,
			 pg_end_how_name(t->how), t->ltid);
		return -1;
	}
	return 0;
}

int pg_runinfo_read(const char *dir, struct pg_runinfo *ri, char *err,
		    size_t errlen)
{
	char path[PG_PATH_MAX + 16], head[64];
	int version = -1, rc;
	FILE *f;

	memset(ri, 0, sizeof(*ri));
	snprintf(path, sizeof(path), "%s/run.info", dir);
	if (!(f = pg_fopen_log(path, err, errlen)))
		return errno == ENOENT ? 0 : -1;
	if (!fgets(head, sizeof(head), f) ||
	    sscanf(head, "pangaea-run %d", &version) != 1) {
		snprintf(err, errlen, "%s:1: not a Pangaea run.info (no "
			 "'pangaea-run' first line)", path);
		fclose(f);
		return -1;
	}
	/* version 1 is version 2 without the chaos-seed line */
	if (version != PG_RUNINFO_VERSION && version != 1) {
		snprintf(err, errlen, "%s:1: format version %d, this Pangaea "
			 "reads version %d (and 1)", path, version,
			 PG_RUNINFO_VERSION);
		fclose(f);
		return -1;
	}
	ri->version = version;
	rc = read_lines(f, path, ri, err, errlen);
	fclose(f);
	if (rc == 0)
		rc = check_tasks(ri, dir, path, err, errlen);
	if (rc < 0) {
		pg_runinfo_free(ri);
		return -1;
	}
	return 1;
}

int pg_runinfo_add_arch(struct pg_runinfo *ri, const char *host,
			const char *arch)
{
	struct pg_runinfo_arch *more;

	more = realloc(ri->archs, (ri->narchs + 1) * sizeof(*more));
	if (!more)
		return -1;
	ri->archs = more;
	snprintf(more[ri->narchs].host, sizeof(more->host), "%s", host);
	snprintf(more[ri->narchs].arch, sizeof(more->arch), "%s", arch);
	ri->narchs++;
	return 0;
}

const char *pg_runinfo_arch(const struct pg_runinfo *ri, const char *host)
{
	for (size_t i = 0; i < ri->narchs; i++)
		if (strcmp(ri->archs[i].host, host) == 0)
			return ri->archs[i].arch;
	return NULL;
}

const struct pg_runinfo_task *pg_runinfo_task(const struct pg_runinfo *ri,
					      int ltid)
{
	for (size_t i = 0; i < ri->ntasks; i++)
		if (ri->tasks[i].ltid == ltid)
			return &ri->tasks[i];
	return NULL;
}

int pg_runinfo_check_end(const struct pg_runinfo *ri, int ltid,
			 const struct pg_comm_reader *r, int ended, char *err,
			 size_t errlen)
{
	const struct pg_runinfo_task *t = pg_runinfo_task(ri, ltid);

	if (ended || !t || t->how <= 0)
		return 0;
	snprintf(err, errlen, "%s: truncated: it ends at offset %zu without "
		 "the end record that run.info says it had", r->path, r->pos);
	return -1;
}

void pg_runinfo_free(struct pg_runinfo *ri)
{
	free(ri->archs);
	ri->archs = NULL;
	ri->narchs = 0;
	free(ri->tasks);
	ri->tasks = NULL;
	ri->ntasks = ri->cap = 0;
}
