/*
 * openlog.c: the one way a reader opens a log file.  A log folder may hold
 * anything a clumsy or hostile user put there: a FIFO (a plain open would
 * wait for a writer forever), a device, a folder, a symbolic link.  Every
 * reader of task-*.comm, task-*.exec and run.info opens its file here:
 * without blocking, without following a link, and refuses what is not a
 * regular file, naming it.  And what the text logs with a "MAGIC
 * VERSION" first line share (stdin.log, output.log), and the one name of
 * a task's log (pg_log_path: DIR/task-LTID.SUFFIX).
 */
#include "pangaea-logs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the file type of MODE is, in words ("a FIFO", ...). */
static const char *openlog_type(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symbolic link";
	default: return "of an unknown type";
	}
}

int pg_open_log(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd, flags, e;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == ELOOP)
			snprintf(err, errlen, "%s: is a symbolic link (a log is "
				 "never read through one)", path);
		else
			snprintf(err, errlen, "cannot read %s: %s", path,
				 strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		e = EISDIR;
		snprintf(err, errlen, "%s: is a directory, not a log", path);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		e = EINVAL;
		snprintf(err, errlen, "%s: not a regular file (%s)", path,
			 openlog_type(st.st_mode));
		goto fail;
	}
	if ((flags = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		e = errno;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	errno = e;
	return -1;
}

FILE *pg_fopen_log(const char *path, char *err, size_t errlen)
{
	int fd = pg_open_log(path, err, errlen), e;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "r"))) {
		e = errno;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
		close(fd);
		errno = e;
	}
	return f;
}

int pg_write_log(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t k = write(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = ENOSPC;
			return -1;
		}
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

int pg_create_text_log(const char *path, const char *magic, int version,
		       const char *rest, char *err, size_t errlen)
{
	char head[128];
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND |
		      O_CLOEXEC, 0600);
	int n = snprintf(head, sizeof(head), "%s %d%s%s\n", magic, version,
			 rest ? " " : "", rest ? rest : "");

	if (fd < 0 || pg_write_log(fd, head, (size_t)n) < 0) {
		snprintf(err, errlen, "cannot %s %s: %s", fd < 0 ? "create" :
			 "write", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int pg_log_line(FILE *f, char *buf, size_t n)
{
	size_t k = 0;
	int c;

	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0' || k + 1 >= n)
			return -1;
		buf[k++] = (char)c;
	}
	buf[k] = '\0';
	return c == '\n' ? 0 : -1;
}

FILE *pg_fopen_text_log(const char *path, const char *magic, int version,
			const char *what, char *err, size_t errlen)
{
	FILE *f = pg_fopen_log(path, err, errlen);
	char line[64], *end;
	size_t k = strlen(magic);
	long v = 0;

	if (!f)
		return NULL;
	if (pg_log_line(f, line, sizeof(line)) < 0 ||
	    strncmp(line, magic, k) != 0 || line[k] != ' ' ||
	    (v = strtol(line + k + 1, &end, 10), end == line + k + 1)) {
		snprintf(err, errlen, "%s: not a Pangaea %s (no '%s VERSION' "
			 "first line)", path, what, magic);
		fclose(f);
		return NULL;
	}
	if (v != version) {
		snprintf(err, errlen, "%s: log format version %ld, this Pangaea "
			 "reads version %d", path, v, version);
		fclose(f);
		return NULL;
	}
	return f;
}

int pg_mkdir_p(const char *dir, mode_t mode)
{
	char tmp[PG_PATH_MAX];

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s", dir) >= sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(tmp, mode) < 0 && errno != EEXIST ? -1 : 0;
}

int pg_log_path(char *buf, size_t n, const char *dir, int ltid,
		const char *suffix)
{
	int k = snprintf(buf, n, "%s/task-%d.%s", dir, ltid, suffix);

	return k < 0 || (size_t)k >= n ? -1 : 0;
}
