/*
 * pvmtmp.c: PVM's temporary files.  libpvm and pvmd name their files
 * pvmtmpPPPPPP.N after the creating process's pid, in $PVM_TMP or /tmp: a
 * pvmd's listening socket (N = 0) and the authentication files of each
 * task's handshake, which are removed once it is done.  A pvmd that is
 * killed leaves its socket, and a task or pvmd killed in a handshake
 * leaves that file; when the pid comes round again (pid_max is 32768
 * here) the new process's libpvm finds its name taken, prints two lines
 * of complaint on stderr and tries the next name.  The complaint lands in
 * the program's output, so a replay would no longer print what its
 * recording printed.
 */
#include "pangaea-internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *pg_pvmtmp_dir(void)
{
	const char *dir = getenv("PVM_TMP");

	return dir && *dir ? dir : "/tmp";
}

/* Removes DIR/NAME if it is a file or socket of our uid; 1 if it did. */
static int remove_ours(const char *dir, const char *name)
{
	char path[PG_PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0 &&
	       (S_ISREG(st.st_mode) || S_ISSOCK(st.st_mode)) &&
	       st.st_uid == getuid() && unlink(path) == 0;
}

int pg_pvmtmp_clear(pid_t pid)
{
	char prefix[32];
	const char *dir = pg_pvmtmp_dir();
	struct dirent *e;
	DIR *d;
	int removed = 0;
	size_t n;

	if (pid <= 0)
		return 0;
	n = (size_t)snprintf(prefix, sizeof(prefix), "pvmtmp%06d.", (int)pid);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		const char *count = e->d_name + n;

		if (strncmp(e->d_name, prefix, n) == 0 && *count &&
		    strspn(count, "0123456789") == strlen(count))
			removed += remove_ours(dir, e->d_name);
	}
	closedir(d);
	return removed;
}

int pg_pvmtmp_clear_first(pid_t pid)
{
	char name[48];
	int removed = 0;

	for (int k = 0; k < PG_PVMTMP_OWN && pid > 0; k++) {
		snprintf(name, sizeof(name), "pvmtmp%06d.%d", (int)pid, k);
		removed += remove_ours(pg_pvmtmp_dir(), name);
	}
	return removed;
}

int pg_pvmtmp_clear_own(void)
{
	return pg_pvmtmp_clear_first(getpid());
}
