/*
 * logship.c: a run's logs carried between hosts.  Each task writes its
 * logs on its own host; after the run the launcher gathers them into its
 * log folder, and before a replay it gives a host the recorded logs of
 * the tasks that will run there (pangaea_lib/pvm/ship.c sends the pieces in
 * PVM messages).  Here: the log folder made on a host that lacks it, the
 * list of a folder's task logs, the reading of a piece, and the writer
 * that puts the pieces back into files.
 *
 * Only task logs travel (task-LTID.comm, task-LTID.exec): a name is
 * checked before anything is written, so no piece can reach outside its
 * folder.  A file the folder has already is left as it is, never
 * overwritten: it is the same file on storage both hosts share, or a
 * copy made before.
 */
#include "pangaea-logs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Checks that PATH is a folder of ours, not a link; 0 or -1 with ERR. */
static int dir_ours(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		snprintf(err, errlen, "cannot use the log folder %s: %s", path,
			 strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid()) {
		snprintf(err, errlen, "%s: %s", path, !S_ISDIR(st.st_mode) ?
			 "not a folder (a log folder is never reached through "
			 "a link)" : "belongs to another user");
		errno = S_ISDIR(st.st_mode) ? EPERM : ENOTDIR;
		return -1;
	}
	return 0;
}

int pg_log_dir_make(const char *dir, char *err, size_t errlen)
{
	if (!dir[0] || (access(dir, F_OK) < 0 && pg_mkdir_p(dir, 0700) < 0)) {
		snprintf(err, errlen, "cannot make the log folder %s: %s", dir,
			 dir[0] ? strerror(errno) : "empty path");
		return -1;
	}
	return dir_ours(dir, err, errlen);
}

int pg_logship_name_ok(const char *name)
{
	const char *p = name;
	size_t digits;

	if (strncmp(p, "task-", 5) != 0)
		return 0;
	p += 5;
	digits = strspn(p, "0123456789");
	if (digits == 0 || digits > 10)
		return 0;
	p += digits;
	return strcmp(p, ".comm") == 0 || strcmp(p, ".exec") == 0;
}

/* For qsort: names in order. */
static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pg_logship_list(const char *dir, char ***names, int *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int cap = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d))) {
		char path[PG_PATH_MAX + 300], **more;
		struct stat st;

		if (!pg_logship_name_ok(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			if (!(more = realloc(*names, (size_t)cap * sizeof(char *))))
				goto nomem;
			*names = more;
		}
		if (!((*names)[*n] = strdup(e->d_name)))
			goto nomem;
		(*n)++;
	}
	closedir(d);
	if (*n > 1)
		qsort(*names, (size_t)*n, sizeof(char *), by_name);
	return 0;
nomem:
	closedir(d);
	pg_logship_free(*names, *n);
	*names = NULL;
	*n = 0;
	errno = ENOMEM;
	return -1;
}

void pg_logship_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int pg_logship_read(const char *dir, const char *name, int offset, void *buf,
		    int max, int *size, char *err, size_t errlen)
{
	char path[PG_PATH_MAX + 300];
	struct stat st;
	ssize_t k = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fd = pg_open_log(path, err, errlen)) < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_size > INT_MAX) {
		snprintf(err, errlen, "%s: %s", path, st.st_size > INT_MAX ?
			 "larger than 2 GiB: not carried" : strerror(errno));
		close(fd);
		return -1;
	}
	*size = (int)st.st_size;
	if (offset < *size)
		k = pread(fd, buf, (size_t)(max < *size - offset ? max
						: *size - offset), offset);
	if (k < 0)
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
	close(fd);
	return k < 0 ? -1 : (int)k;
}

/* Whether the files at paths A and B hold the same bytes. */
static int same_file(const char *a, const char *b)
{
	char ba[65536], bb[65536];
	int fa = open(a, O_RDONLY | O_NOFOLLOW | O_CLOEXEC),
	    fb = open(b, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), same = fa >= 0 && fb >= 0;

	while (same) {
		ssize_t ka = read(fa, ba, sizeof(ba)), kb = read(fb, bb, sizeof(bb));

		same = ka == kb && ka >= 0 && memcmp(ba, bb, (size_t)ka) == 0;
		if (ka <= 0)
			break;
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/* Ends the file being written: it replaces the folder's file of its name
 * unless that holds the same bytes already; 0, or -1 with ERR. */
static int finish_file(struct pg_logship_writer *w, char *err, size_t errlen)
{
	int fd = w->fd;

	w->fd = -1;
	if (fd >= 0 && close(fd) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", w->part,
			 strerror(errno));
		unlink(w->part);
		return -1;
	}
	if (same_file(w->part, w->path)) {
		unlink(w->part);
		w->same++;
		return 0;
	}
	if (rename(w->part, w->path) < 0) {
		snprintf(err, errlen, "cannot put %s in place: %s", w->path,
			 strerror(errno));
		unlink(w->part);
		return -1;
	}
	w->written++;
	return 0;
}

void pg_logship_close(struct pg_logship_writer *w)
{
	if (w->fd < 0)
		return;
	close(w->fd); /* an unfinished file: dropped */
	w->fd = -1;
	unlink(w->part);
}

int pg_logship_put(struct pg_logship_writer *w, const char *dir,
		   const char *name, int size, int offset, const void *data,
		   int n, char *err, size_t errlen)
{
	if (!pg_logship_name_ok(name) || size < 0 || offset < 0 || n < 0 ||
	    n > size - offset) {
		snprintf(err, errlen, "a piece of a log that cannot be: '%.64s' "
			 "(%d bytes at %d of %d)", name, n, offset, size);
		errno = EINVAL;
		return -1;
	}
	if (offset == 0) { /* a new file, written beside its place */
		pg_logship_close(w);
		if (pg_log_dir_make(dir, err, errlen) < 0)
			return -1;
		snprintf(w->path, sizeof(w->path), "%s/%s", dir, name);
		snprintf(w->part, sizeof(w->part), "%s/.%s.part", dir, name);
		unlink(w->part); /* left by a transfer that broke off */
		w->fd = open(w->part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			     O_CLOEXEC, 0600);
		if (w->fd < 0) {
			snprintf(err, errlen, "cannot write %s: %s", w->part,
				 strerror(errno));
			return -1;
		}
	} else if (w->fd < 0 || strcmp(strrchr(w->path, '/') + 1, name) != 0) {
		snprintf(err, errlen, "a piece of %s/%s came without its start",
			 dir, name);
		errno = EINVAL;
		return -1;
	}
	if (n > 0 && pwrite(w->fd, data, (size_t)n, offset) != n) {
		snprintf(err, errlen, "cannot write %s: %s", w->part,
			 strerror(errno));
		pg_logship_close(w);
		return -1;
	}
	return offset + n == size ? finish_file(w, err, errlen) : 0;
}
