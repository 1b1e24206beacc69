/*
 * fuzzutil.c: the private folder of a harness and the checks every
 * harness makes (fuzzutil.h).
 */
#include "fuzzutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[PATH_MAX];

/* Removes the folder and its files (atexit). */
static void remove_dir(void)
{
	fz_clear();
	rmdir(dir);
}

const char *fz_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/pangaea-fuzz.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("fuzz: mkdtemp");
		abort();
	}
	atexit(remove_dir);
	return dir;
}

const char *fz_write(const char *name, const uint8_t *data, size_t size)
{
	static char path[PATH_MAX + 64];
	size_t done = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", fz_dir(), name);
	/* (the same file again, not a new one: no inode made each run) */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		perror(path);
		abort();
	}
	while (done < size) {
		ssize_t k = write(fd, data + done, size - done);

		if (k <= 0) {
			perror(path);
			abort();
		}
		done += (size_t)k;
	}
	close(fd);
	return path;
}

void fz_clear(void)
{
	char path[PATH_MAX + 300];
	struct dirent *e;
	DIR *d;

	if (!dir[0] || !(d = opendir(dir)))
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
}

void fz_check_err(const char *what, const char *err, size_t len)
{
	if (!memchr(err, '\0', len) || err[0] == '\0') {
		fprintf(stderr, "fuzz: %s refused the input without saying why\n",
			what);
		abort();
	}
}
