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
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The locks this launcher holds until it exits: on the folder it writes
 * (exclusive) and on the recording a replay reads (shared); -1 if none. */
static int lock_out = -1, lock_rec = -1;

/* The mode of a log folder whose files get MODE: an x bit for each r. */
static mode_t dir_mode(int mode)
{
	return (mode_t)(mode | 0700 | (mode & 0444) >> 2);
}

/* Whether NAME is one of the files a run writes. */
static int is_run_file(const char *name)
{
	return strncmp(name, "task-", 5) == 0 || strcmp(name, "run.info") == 0 ||
	       strcmp(name, "stdin.log") == 0 ||
	       strcmp(name, "output.log") == 0 ||
	       strcmp(name, "hosts.added") == 0 ||
	       strncmp(name, ".run.info.", 10) == 0 || /* a temporary one */
	       strncmp(name, "trace.db", 8) == 0; /* and its -journal, -wal */
}

/* The name of user UID, or "another user". */
static const char *user_name(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);

	return pw ? pw->pw_name : "another user";
}

/* Refuses DIR unless it is a folder of ours, reached by no link of
 * another user's (but root's); 0 or -1 (said). */
static int dir_ours(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode) &&
	    st.st_uid != geteuid() && st.st_uid != 0) {
		la_error("refusing log folder %s: it is a link of %s's (uid "
			 "%u); another user's link is not followed", dir,
			 user_name(st.st_uid), (unsigned)st.st_uid);
		return -1;
	}
	if (stat(dir, &st) < 0) {
		la_error("log folder %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		la_error("log folder %s is not a folder", dir);
		return -1;
	}
	if (st.st_uid == geteuid())
		return 0;
	la_error("refusing log folder %s: it belongs to %s (uid %u), not to "
		 "you; another user's folder may hold planted links", dir,
		 user_name(st.st_uid), (unsigned)st.st_uid);
	return -1;
}

/* Opens the lock file of DIR (creating it if EXCL: *CREATED, if not
 * NULL, says whether it made it) and flocks it, exclusive or shared; the
 * fd, -2 if a shared lock finds no lock file it can open (an older
 * recording, or another user's), or -1 (said).  The exclusive holder
 * writes its pid there. */
static int dir_lock(const char *dir, int excl, int *created)
{
	char path[PG_PATH_MAX + 32], pid[32] = "";
	struct stat st;
	ssize_t k;
	int fd;

	snprintf(path, sizeof(path), "%s/.pangaea-lock", dir);
	fd = excl ? open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			 O_NONBLOCK | O_CLOEXEC, 0600) : -1;
	if (created)
		*created = fd >= 0;
	if (fd < 0)
		fd = open(path, (excl ? O_RDWR | O_CREAT : O_RDONLY) |
			  O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	if (!excl && (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		if (fd >= 0)
			close(fd);
		return -2; /* nothing to share a lock on: only read */
	}
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid()) {
		la_error("cannot lock log folder %s: %s", dir, fd < 0 ?
			 strerror(errno) : "its .pangaea-lock is not a file of ours");
		goto fail;
	}
	if (flock(fd, (excl ? LOCK_EX : LOCK_SH) | LOCK_NB) < 0) {
		int why = errno;

		if ((k = pread(fd, pid, sizeof(pid) - 1, 0)) > 0)
			pid[strcspn(pid, "\n")] = '\0';
		if (why == EWOULDBLOCK)
			la_error("log folder %s is in use by another pangaea "
				 "(pid %s)", dir, pid[0] ? pid : "unknown");
		else
			la_error("cannot lock log folder %s: %s", dir,
				 strerror(why));
		goto fail;
	}
	k = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (excl && (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)k, 0) != k)) {
		la_error("cannot write %s: %s", path, strerror(errno));
		goto fail;
	}
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

/* Checks that we can create files in DIR (without following any link);
 * 0 or -1 (said). */
static int dir_writable(const char *dir)
{
	char path[PG_PATH_MAX + 32];
	int fd;

	snprintf(path, sizeof(path), "%s/.pangaea-write-test", dir);
	if (unlink(path) < 0 && errno != ENOENT)
		goto fail;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0 || close(fd) < 0 || unlink(path) < 0)
		goto fail;
	return 0;
fail:
	la_error("cannot write to log folder %s: %s", dir, strerror(errno));
	return -1;
}

int la_logdir_prepare(const char *dir, int logmode)
{
	char path[PG_PATH_MAX + 300];
	struct dirent *e;
	DIR *d;
	int made;

	if (pg_mkdir_p(dir, dir_mode(logmode & 0777)) < 0) {
		la_error("cannot create log folder %s: %s", dir, strerror(errno));
		return -1;
	}
	/* (a lock file made here shows the folder takes new files) */
	if (dir_ours(dir) < 0 || (lock_out = dir_lock(dir, 1, &made)) < 0 ||
	    (!made && dir_writable(dir) < 0))
		return -1;
	if (logmode && chmod(dir, dir_mode(logmode)) < 0) {
		la_error("cannot set the mode of %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!(d = opendir(dir)))
		return -1;
	/* a recording that was here before: unlink never follows a link */
	while ((e = readdir(d)))
		if (is_run_file(e->d_name)) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
	return 0;
}

/* Gives every file of the run in DIR the mode MODE, following no link
 * and touching no file that is not ours; 0 or -1 (said). */
static int logdir_chmod(const char *dir, int mode)
{
	char path[PG_PATH_MAX + 300];
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(dir);
	int fd, rc = 0;

	while (d && (e = readdir(d)))
		if (is_run_file(e->d_name) && e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
				  O_CLOEXEC);
			if (fd < 0 && errno == ENOENT)
				continue;
			if (fd < 0 || fstat(fd, &st) < 0 ||
			    !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
			    fchmod(fd, (mode_t)(mode | 0600)) < 0) {
				la_error("cannot set the mode of %s: %s", path,
					 fd < 0 || errno ? strerror(errno) :
					 "not a file of ours");
				rc = -1;
			}
			if (fd >= 0)
				close(fd);
		}
	if (d)
		closedir(d);
	return d ? rc : -1;
}

/*
 * Reads every record of the comm logs of DIR's tasks; 0, or -1 with ERR
 * filled (pg_runinfo_check_end: a log cut short of the end record that
 * RI says it had is refused).
 */
static int check_comm(const struct pg_runinfo *ri, const char *dir,
		      char *err, size_t n)
{
	struct pg_comm_reader r;
	struct pg_event ev = { 0 };
	struct pg_run run;
	int rc = 0, ended;

	if (pg_run_open(&run, dir, err, n) < 0)
		return -1;
	while (rc == 0 && (rc = pg_run_next(&run, &r, err, n)) > 0) {
		ended = 0;
		while ((rc = pg_comm_next(&r, &ev, err, n)) > 0)
			ended = ev.kind == PG_REC_END;
		if (rc == 0)
			rc = pg_runinfo_check_end(ri, run.ltids[run.i], &r,
						  ended, err, n);
		pg_comm_free(&r);
	}
	pg_run_close(&run);
	return rc;
}

/* Reads task LTID's exec log in DIR; 0, or -1 with ERR filled. */
static int check_exec(const char *dir, int ltid, char *err, size_t n)
{
	char path[PG_PATH_MAX];
	struct pg_exec_log x;

	if (pg_log_path(path, sizeof(path), dir, ltid, "exec") < 0) {
		snprintf(err, n, "log folder path too long: %s", dir);
		return -1;
	}
	if (pg_exec_read(path, &x, err, n) < 0)
		return -1;
	pg_exec_free(&x);
	return 0;
}

int la_logdir_check(const char *dir)
{
	char err[PG_PATH_MAX + 200];
	struct pg_runinfo ri = { 0 };
	int *exec = NULL, rc = 0, nx = pg_run_ltids(dir, "exec", &exec);

	if (nx < 0 || !pg_run_has(exec, nx, 0)) {
		la_error("%s is not a Pangaea recording (no %s)", dir,
			 nx < 0 ? "such folder" : "task-0.exec");
		free(exec);
		return -1;
	}
	/* a recording still being written is not replayed */
	if (lock_rec == -1 && (lock_rec = dir_lock(dir, 0, NULL)) == -1) {
		free(exec);
		return -1;
	}
	/* run.info first: its task lines judge a log without end record */
	if (pg_runinfo_read(dir, &ri, err, sizeof(err)) < 0)
		rc = -1;
	if (rc == 0)
		rc = check_comm(&ri, dir, err, sizeof(err));
	for (int i = 0; rc == 0 && i < nx; i++)
		rc = check_exec(dir, exec[i], err, sizeof(err));
	pg_runinfo_free(&ri);
	free(exec);
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

int la_runinfo_hosts(struct la_run *r)
{
	if (!r->info)
		r->info = calloc(1, sizeof(*r->info));
	if (!r->info || la_hosts_archs(r->info) < 0) {
		la_error("cannot note the hosts' architectures for run.info: "
			 "out of memory");
		return -1;
	}
	return 0;
}

int la_runinfo_write(struct la_run *r, const char *dir, int status)
{
	struct pg_runinfo ri = { .status = status };
	char err[PG_PATH_MAX + 100];
	time_t now = time(NULL);
	int rc = 0;

	if (r->info) { /* (la_runinfo_hosts's) */
		ri.archs = r->info->archs;
		ri.narchs = r->info->narchs;
		free(r->info);
		r->info = NULL;
	}

	snprintf(ri.mode, sizeof(ri.mode), "%s",
		 r->o->mode == PANGAEA_MODE_RECORD ? "record" : "replay");
	strftime(ri.ended, sizeof(ri.ended), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	gethostname(ri.launcher_host, sizeof(ri.launcher_host));
	snprintf(ri.command, sizeof(ri.command), "%s", r->o->command);
	if (r->o->mode == PANGAEA_MODE_REPLAY)
		snprintf(ri.replay_of, sizeof(ri.replay_of), "%s", r->o->logdir);
	snprintf(ri.select, sizeof(ri.select), "%s", r->o->select);
	ri.chaos = r->o->chaos && r->o->mode == PANGAEA_MODE_RECORD;
	ri.chaos_seed = r->o->seed;
	snprintf(ri.diverged, sizeof(ri.diverged), "%s", r->diverged);
	for (int i = 0; i < r->ntasks && rc == 0; i++) {
		const struct la_task *t = &r->tasks[i];
		struct pg_runinfo_task rt = { .ltid = t->ltid, .tid = t->tid,
					      .how = t->done_how,
					      .value = t->done_value };

		snprintf(rt.host, sizeof(rt.host), "%s", t->host);
		snprintf(rt.program, sizeof(rt.program), "%s", t->program);
		la_task_end_text(t, rt.end_text, sizeof(rt.end_text));
		rc = pg_runinfo_add_task(&ri, &rt);
	}
	if (rc == 0)
		rc = pg_runinfo_write(dir, &ri, err, sizeof(err));
	else
		snprintf(err, sizeof(err), "cannot write %s/run.info: out of "
			 "memory", dir);
	if (rc < 0)
		la_error("%s", err);
	pg_runinfo_free(&ri);
	if (r->o->logmode && logdir_chmod(dir, r->o->logmode) < 0)
		rc = -1;
	return rc;
}
