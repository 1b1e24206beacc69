/*
 * logdir.c: the log folder of a run: creating it, refusing recordings
 * that cannot be replayed, and run.info.
 */
#include "launcher.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* mkdir -p DIR; 0 or -1 with errno set. */
static int mkdir_p(const char *dir)
{
	char tmp[PG_PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(tmp, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

/* Whether NAME is one of the files a run writes. */
static int is_run_file(const char *name)
{
	return strncmp(name, "task-", 5) == 0 || strcmp(name, "run.info") == 0 ||
	       strncmp(name, "trace.db", 8) == 0; /* and its -journal, -wal */
}

int la_logdir_prepare(const char *dir)
{
	char path[PG_PATH_MAX + 300];
	struct dirent *e;
	DIR *d;
	int fd;

	if (mkdir_p(dir) < 0) {
		la_error("cannot create log folder %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/.pangaea-write-test", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || close(fd) < 0 || unlink(path) < 0) {
		la_error("cannot write to log folder %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!(d = opendir(dir)))
		return -1;
	while ((e = readdir(d)))
		if (is_run_file(e->d_name)) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
	return 0;
}

/* How task LTID ended according to DIR/run.info (0 if not said). */
static int runinfo_end(const char *dir, int ltid)
{
	char path[PG_PATH_MAX + 16], line[PG_PATH_MAX + 512];
	int l, how = 0, h, v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.info", dir);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *end = strstr(line, " end=");

		if (sscanf(line, "task %d ", &l) == 1 && l == ltid && end &&
		    sscanf(end, " end=%d/%d", &h, &v) == 2)
			how = h;
	}
	fclose(f);
	return how;
}

/*
 * Reads every record of task LTID's comm log PATH in DIR; 0, or -1 with
 * ERR filled.  A log that stops without its end record is what a killed
 * task leaves; if run.info says the task ended otherwise, it was cut.
 */
static int check_comm(const char *dir, int ltid, const char *path,
		      char *err, size_t n)
{
	struct pg_comm_reader r;
	struct pg_event ev = { 0 };
	int rc, ended = 0;

	if (pg_comm_open(&r, path, err, n) < 0)
		return -1;
	while ((rc = pg_comm_next(&r, &ev, err, n)) > 0)
		ended = ev.kind == PG_REC_END;
	if (rc == 0 && !ended && runinfo_end(dir, ltid) > 0) {
		snprintf(err, n, "%s: truncated: it ends at offset %zu without "
			 "the end record that run.info says it had", path, r.pos);
		rc = -1;
	}
	pg_comm_free(&r);
	return rc;
}

int la_logdir_check(const char *dir)
{
	char path[PG_PATH_MAX + 300], err[PG_PATH_MAX + 200];
	struct pg_exec_log x;
	struct dirent *e;
	DIR *d = opendir(dir);
	int rc = 0;

	snprintf(path, sizeof(path), "%s/task-0.exec", dir);
	if (!d || access(path, R_OK) < 0) {
		la_error("%s is not a Pangaea recording (no %s)", dir,
			 d ? "task-0.exec" : "such folder");
		if (d)
			closedir(d);
		return -1;
	}
	while (rc == 0 && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (strncmp(e->d_name, "task-", 5) != 0 || len < 6)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (strcmp(e->d_name + len - 5, ".comm") == 0)
			rc = check_comm(dir, atoi(e->d_name + 5), path, err,
					sizeof(err));
		else if (strcmp(e->d_name + len - 5, ".exec") == 0 &&
			 (rc = pg_exec_read(path, &x, err, sizeof(err))) == 0)
			pg_exec_free(&x);
	}
	closedir(d);
	if (rc < 0)
		la_error("refusing to replay: %s", err);
	return rc;
}

void la_logdir_replay_name(const char *dir, char *out, size_t n)
{
	char base[PG_PATH_MAX];
	size_t len;
	struct stat st;

	snprintf(base, sizeof(base), "%s", dir);
	len = strlen(base);
	while (len > 1 && base[len - 1] == '/')
		base[--len] = '\0';
	for (int i = 1;; i++) {
		snprintf(out, n, "%s.replay-%d", base, i);
		if (stat(out, &st) < 0)
			return;
	}
}

void la_runinfo_write(const struct la_run *r, const char *dir, int status)
{
	char path[PG_PATH_MAX + 16], end[256], stamp[64], host[PG_HOST_MAX];
	time_t now = time(NULL);
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.info", dir);
	if (!(f = fopen(path, "w")))
		return;
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	gethostname(host, sizeof(host));
	fprintf(f, "pangaea-run 1\nmode %s\nended %s\nlauncher-host %s\n"
		"command %s\n", r->o->mode == PANGAEA_MODE_RECORD ? "record" :
		"replay", stamp, host, r->o->command);
	if (r->o->mode == PANGAEA_MODE_REPLAY)
		fprintf(f, "replay-of %s\n", r->o->logdir);
	fprintf(f, "select %s\n", r->o->select[0] ? r->o->select : "all");
	for (int i = 0; i < r->ntasks; i++) {
		const struct la_task *t = &r->tasks[i];

		la_task_end_text(t, end, sizeof(end));
		fprintf(f, "task %d tid=t%x host=%s program=%s end=%d/%d (%s)\n",
			t->ltid, t->tid, t->host, t->program, t->done_how,
			t->done_value, end);
	}
	if (r->diverged[0])
		fprintf(f, "diverged %s\n", r->diverged);
	fprintf(f, "status %d\n", status);
	fclose(f);
}
