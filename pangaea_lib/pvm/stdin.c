/*
 * stdin.c: the standard input of task 1, the first task of a run (or of
 * the task -stdin named).  The pvmd gives every task /dev/null; the
 * launcher instead offers its own standard input (record) or the recorded
 * one (replay) on a TCP socket named in PANGAEA_STDIN ("HOST PORT TOKEN
 * LTID"; without LTID, task 1).  That task connects at join,
 * proves it is the run's with the token, and puts the socket on fd 0: no
 * thread, no helper process, no PVM message in the task.
 */
#include "pangaea-internal.h"

#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Connects to HOST:PORT; a socket, or -1. */
static int stdin_connect(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *a;
	int fd = -1;

	if (getaddrinfo(host, port, &hints, &res) != 0)
		return -1;
	for (a = res; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC,
			    a->ai_protocol);
		if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	return fd;
}

void pg_stdin_attach(void)
{
	const char *v = getenv(PG_ENV_STDIN);
	char host[256], port[16], token[80];
	size_t n;
	int fd, ltid = 1, k;

	if (!v || !*v || !pg_me->mode)
		return;
	k = sscanf(v, "%255s %15s %64s %d", host, port, token, &ltid);
	if (pg_me->ltid != ltid)
		return;
	if (k < 3) {
		fprintf(stderr, "pangaea: task %d: bad %s; standard input stays "
			"/dev/null\n", ltid, PG_ENV_STDIN);
		return;
	}
	n = strlen(token);
	token[n++] = '\n';
	fd = stdin_connect(host, port);
	if (fd < 0) /* a host name this host cannot resolve: maybe it is this */
		fd = stdin_connect("localhost", port);
	if (fd < 0 || write(fd, token, n) != (ssize_t)n ||
	    shutdown(fd, SHUT_WR) < 0 || dup2(fd, 0) < 0) {
		fprintf(stderr, "pangaea: task %d: cannot reach the launcher's "
			"standard input at %s port %s; it stays /dev/null\n",
			ltid, host, port);
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
}
