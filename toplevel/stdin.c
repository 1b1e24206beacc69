/*
 * stdin.c: the launcher gives its standard input to task 1, the first task
 * of the run, as a shell would (the pvmd gives tasks /dev/null), or to the
 * task -stdin names (a program that reads its terminal but must start
 * after another); a replay, to the task the recording's stdin.log names.
 *
 * The launcher listens on a TCP port (any address: the task may run on
 * another host) and exports PANGAEA_STDIN="HOST PORT TOKEN LTID"; task
 * LTID connects at join (pangaea_lib/pvm/stdin.c) and sends the token, a random
 * secret only the run's processes see.  Recording, the launcher then reads
 * its standard input as the socket takes it (a bounded buffer: a task that
 * does not read stops the reading), writes each chunk it read to
 * LOGDIR/stdin.log (created when task 1 comes; a failed write ends the run
 * as a task's full disk does) and, at its end, ends the task's input.  Replaying, it
 * does not read its standard input: it gives the recorded chunks, and the
 * end of input if it was recorded.  Everything is non-blocking and driven
 * from the launcher's wait loop (la_stdin_poll, la_stdin_step).
 */
#include "launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#define IN_BUF 65536    /* bytes read and not yet taken by the socket */
#define TOKEN_WAIT_MS 500

static struct {
	int on;             /* set up for this run */
	int replay;
	int listen_fd, conn_fd, log_fd;
	char token[33];
	char log_path[PG_PATH_MAX + 16]; /* stdin.log, made when task 1 comes */
	char buf[IN_BUF];   /* to send: buf[off..len) */
	size_t off, len;
	int ended;          /* record: the input ended (logged); replay: all
			       recorded chunks are in buf */
	int closed;         /* the task's end is shut: nothing more to do */
	int ltid;           /* the task given the input */
	struct pg_stdin_log rec; /* replay: the recording's input */
	size_t next_chunk, rec_off;
} in = { .listen_fd = -1, .conn_fd = -1, .log_fd = -1 };

/* Opens a listening socket on any address (IPv6 and IPv4, or IPv4 only
 * on a host without IPv6) into in.listen_fd; its port, or -1. */
static int stdin_socket(void)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6,
				   .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in a4 = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_ANY) };
	socklen_t alen;
	int off = 0, six;

	in.listen_fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK |
			      SOCK_CLOEXEC, 0);
	six = in.listen_fd >= 0;
	if (!six)
		in.listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK |
				      SOCK_CLOEXEC, 0);
	if (in.listen_fd < 0 ||
	    (six && setsockopt(in.listen_fd, IPPROTO_IPV6, IPV6_V6ONLY, &off,
			       sizeof(off)) < 0) ||
	    (six ? bind(in.listen_fd, (struct sockaddr *)&a6, sizeof(a6))
		 : bind(in.listen_fd, (struct sockaddr *)&a4, sizeof(a4))) < 0 ||
	    listen(in.listen_fd, 4) < 0)
		return -1;
	alen = six ? sizeof(a6) : sizeof(a4);
	if (getsockname(in.listen_fd, six ? (struct sockaddr *)&a6 :
			(struct sockaddr *)&a4, &alen) < 0)
		return -1;
	return ntohs(six ? a6.sin6_port : a4.sin_port);
}

/* Opens the listening socket and exports its address; 0 or -1. */
static int stdin_listen(void)
{
	unsigned char rnd[16];
	char host[256], value[400];
	int port = stdin_socket();

	if (port < 0 || getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd) ||
	    gethostname(host, sizeof(host)) < 0)
		return -1;
	host[sizeof(host) - 1] = '\0';
	for (int i = 0; i < 16; i++)
		snprintf(in.token + 2 * i, 3, "%02x", rnd[i]);
	snprintf(value, sizeof(value), "%s %d %s %d", host, port, in.token,
		 in.ltid);
	la_vm_export(PG_ENV_STDIN, value);
	return 0;
}

int la_stdin_setup(const struct la_run *r)
{
	char path[PG_PATH_MAX + 16], err[PG_PATH_MAX + 100];

	in.replay = r->o->mode == PANGAEA_MODE_REPLAY;
	if (in.replay) {
		snprintf(path, sizeof(path), "%s/stdin.log", r->replaydir);
		/* a recording made before stdin.log existed: its task 1 had
		   /dev/null, an input that ends at once */
		if (access(path, F_OK) < 0 && errno == ENOENT)
			in.rec.eof = 1;
		else if (pg_stdin_read(path, &in.rec, err, sizeof(err)) < 0) {
			la_error("refusing to replay: %s", err);
			return -1;
		}
	}
	in.ltid = in.replay ? (in.rec.ltid ? in.rec.ltid : 1)
			    : (r->o->stdin_ltid ? r->o->stdin_ltid : 1);
	snprintf(in.log_path, sizeof(in.log_path), "%s/stdin.log", r->logdir);
	if (stdin_listen() < 0) { /* the run goes on, as before stdin.c */
		la_error("cannot offer the standard input to task %d (%s): it "
			 "gets /dev/null", in.ltid, strerror(errno));
		if (in.listen_fd >= 0)
			close(in.listen_fd);
		in.listen_fd = -1;
		return 0;
	}
	in.on = 1;
	return 0;
}

/* A write of stdin.log failed with errno E: no more is logged, and the
 * launcher, as task 0, tells itself as a task whose log fails does
 * (PG_TAG_LOGFAIL: the run is ended, the disk full named). */
static void stdin_log_failed(int e)
{
	int v[2] = { 0, e ? e : EIO };

	if (in.log_fd >= 0)
		close(in.log_fd);
	in.log_fd = -2; /* failed: never again */
	pg_proto_send(pvm_mytid(), PG_TAG_LOGFAIL, v);
}

/* Creates stdin.log (the task has come: from now on its input is logged);
 * the input it had before, none, is then told apart from a recording
 * without the file. */
static void stdin_log_open(void)
{
	char err[PG_PATH_MAX + 100];

	if (in.log_fd == -1 &&
	    (in.log_fd = pg_stdin_create(in.log_path, in.ltid, err,
					 sizeof(err))) < 0)
		stdin_log_failed(errno);
}

/* Notes in stdin.log the chunk P (N bytes) about to be given. */
static void stdin_log(const char *p, size_t n)
{
	if (in.log_fd >= 0 && pg_stdin_append(in.log_fd, p, n) < 0)
		stdin_log_failed(errno);
}

/* Notes the end of input in stdin.log. */
static void stdin_log_end(void)
{
	if (in.log_fd >= 0 && pg_stdin_append_eof(in.log_fd) < 0)
		stdin_log_failed(errno);
}

/* Takes a connection if one waits: the task with the token becomes the
 * receiver; anything else is closed. */
static void stdin_accept(void)
{
	char got[sizeof(in.token)]; /* 32 hex digits and a newline */
	size_t n = 0;
	int fd = accept4(in.listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	while (n < sizeof(got)) { /* the token and its newline, briefly */
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t k;

		if (poll(&p, 1, TOKEN_WAIT_MS) <= 0 ||
		    (k = read(fd, got + n, sizeof(got) - n)) <= 0)
			break;
		n += (size_t)k;
	}
	if (n != sizeof(got) || memcmp(got, in.token, sizeof(got) - 1) != 0 ||
	    got[sizeof(got) - 1] != '\n' ||
	    fcntl(fd, F_SETFL, O_NONBLOCK) < 0) {
		close(fd);
		return;
	}
	in.conn_fd = fd;
	close(in.listen_fd);
	in.listen_fd = -1;
	stdin_log_open();
}

/* Record: reads what the standard input has, if the buffer has room. */
static void stdin_read(void)
{
	struct pollfd p = { .fd = 0, .events = POLLIN };
	ssize_t k;

	if (in.off > 0) { /* move the rest to the front */
		memmove(in.buf, in.buf + in.off, in.len - in.off);
		in.len -= in.off;
		in.off = 0;
	}
	if (in.ended || in.len == IN_BUF || poll(&p, 1, 0) == 0)
		return;
	k = p.revents & POLLNVAL ? 0 : read(0, in.buf + in.len, IN_BUF - in.len);
	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (k <= 0) { /* the end, or an error: the task sees the end */
		in.ended = 1;
		stdin_log_end();
		return;
	}
	stdin_log(in.buf + in.len, (size_t)k);
	in.len += (size_t)k;
}

/* Replay: moves the next recorded chunks into the buffer. */
static void stdin_replay(void)
{
	if (in.off == in.len)
		in.off = in.len = 0;
	while (in.next_chunk < in.rec.nchunks &&
	       in.rec.chunks[in.next_chunk] <= IN_BUF - in.len) {
		size_t n = in.rec.chunks[in.next_chunk++];

		memcpy(in.buf + in.len, in.rec.data + in.rec_off, n);
		stdin_log(in.rec.data + in.rec_off, n);
		in.rec_off += n;
		in.len += n;
	}
	if (in.next_chunk == in.rec.nchunks && in.rec.eof && !in.ended) {
		in.ended = 1;
		stdin_log_end();
	}
}

void la_stdin_step(void)
{
	ssize_t k;

	if (!in.on || in.closed)
		return;
	if (in.conn_fd < 0) {
		stdin_accept();
		if (in.conn_fd < 0)
			return;
	}
	if (in.replay)
		stdin_replay();
	else
		stdin_read();
	while (in.off < in.len) {
		k = send(in.conn_fd, in.buf + in.off, in.len - in.off,
			 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN)
			return;
		if (k <= 0) { /* the task is gone or shut its input */
			in.closed = 1;
			return;
		}
		in.off += (size_t)k;
	}
	if (in.ended) {
		shutdown(in.conn_fd, SHUT_WR);
		in.closed = 1;
	}
}

int la_stdin_poll(struct pollfd *p, int max)
{
	int n = 0;

	if (!in.on || in.closed || max < 2)
		return 0;
	if (in.conn_fd < 0) {
		p[n++] = (struct pollfd){ .fd = in.listen_fd, .events = POLLIN };
		return n;
	}
	if (!in.replay && !in.ended && in.len - in.off < IN_BUF)
		p[n++] = (struct pollfd){ .fd = 0, .events = POLLIN };
	if (in.off < in.len)
		p[n++] = (struct pollfd){ .fd = in.conn_fd, .events = POLLOUT };
	return n;
}

void la_stdin_close(void)
{
	if (in.listen_fd >= 0)
		close(in.listen_fd);
	if (in.conn_fd >= 0)
		close(in.conn_fd);
	if (in.log_fd >= 0 && close(in.log_fd) < 0)
		la_error("cannot write %s: %s", in.log_path, strerror(errno));
	pg_stdin_free(&in.rec);
	in.listen_fd = in.conn_fd = in.log_fd = -1;
	in.on = 0;
}
