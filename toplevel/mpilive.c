/*
 * mpilive.c: the live view of an MPI run (`pangaea -log -view mpirun
 * ...`).  An MPI run has no coordinator to follow its ranks' logs, so
 * the launcher starts one that does only that: pangaea-coord
 * -follow-logs DIR (coordinator/logsview.c), a child process with a
 * pipe from us as its standard input, before mpirun starts.  It serves
 * the socket PANGAEA_LIVE names (the viewer la_view_start started
 * listens there) with the events of every rank's log as it grows; when
 * the run is over we close the pipe, and it reads the logs to their
 * ends, closes the stream and exits.  Were we killed, the pipe would
 * close all the same.
 */
#include "launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int la_mpi_live_start(const char *dir, struct la_mpi_live *lv)
{
	char path[PG_PATH_MAX + 32];
	const char *sock = getenv(PG_ENV_LIVE);
	int fds[2];

	lv->pid = 0;
	lv->fd = -1;
	if (!sock || !*sock)
		return 0;
	la_coord_path(path, sizeof(path));
	if (pipe2(fds, O_CLOEXEC) < 0 || (lv->pid = fork()) < 0) {
		la_error("cannot start the live view: %s", strerror(errno));
		return -1;
	}
	if (lv->pid == 0) {
		dup2(fds[0], STDIN_FILENO); /* (dup2 clears close-on-exec) */
		execl(path, path, "-follow-logs", dir, (char *)NULL);
		la_error("cannot run %s: %s", path, strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	lv->fd = fds[1]; /* (close-on-exec: mpirun and the ranks lack it) */
	pg_timeline("launcher", "started the live view's log follower");
	return 0;
}

void la_mpi_live_end(struct la_mpi_live *lv)
{
	int status = 0;
	pid_t w;

	if (lv->pid <= 0)
		return;
	close(lv->fd);
	while ((w = waitpid(lv->pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (w == lv->pid && WIFEXITED(status) && WEXITSTATUS(status) != 0)
		la_error("the live view's log follower failed (status %d)",
			 WEXITSTATUS(status));
	lv->pid = 0;
	lv->fd = -1;
}
