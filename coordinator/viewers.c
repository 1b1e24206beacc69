/*
 * viewers.c: relays the run's events to live viewers.
 *
 * Only when the launcher ran with -view: PANGAEA_LIVE then names a Unix
 * socket in a directory of this user's that no one else may enter (mode
 * 0700, checked), and the coordinator listens there.  A connecting peer
 * must run as this user (SO_PEERCRED), else it is dropped at once; what a
 * viewer writes is read and thrown away, so nothing can be injected.
 *
 * Tasks send PG_TAG_EVENTS batches; each becomes text lines, kept (up to
 * COORD_VIEW_HISTORY bytes) for viewers that connect later, and written
 * to every viewer, after the stream's version line: the live stream
 * (docs/VIEWER.md), whose ints and lines livestream.c unpacks and writes
 * (the viewer parses them there too).
 *
 * A coordinator on another host than the launcher's cannot reach the
 * socket's folder: the launcher then starts a relay on its own host
 * (pangaea-coord -relay, which serves the socket as above) and gives us
 * its tid (-live-to); the batches are passed on to it unchanged, over
 * PVM in the run's context, and a QUIT after the last one ends it.
 */
#include "coord.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define COORD_VIEW_MAX 16                    /* viewers at once */
#define COORD_VIEW_HISTORY (256u << 20)      /* bytes kept for late viewers */
#define COORD_VIEW_TASK (PG_HOST_MAX + PG_PATH_MAX + 32) /* a T line */
#define COORD_VIEW_WRITE (4u << 20)          /* bytes at most in one write */

static struct {
	struct event_base *base;
	struct evconnlistener *listener;
	struct bufferevent *viewers[COORD_VIEW_MAX];
	int nviewers, ever;     /* connected now, ever connected */
	struct evbuffer *history;
	int finishing;
	int relay;              /* tid of the relay we pass batches to, or 0 */
	long batches[2];        /* PG_TAG_EVENTS batches from tasks, from
				   beacons (their hosts' logs) */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
} cv;

/* Whether DIR is a directory of ours that nobody else can enter. */
static int dir_private(const char *dir)
{
	struct stat st;

	return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_uid == getuid() && (st.st_mode & 077) == 0;
}

/* Forgets viewer BEV (closed or broken). */
static void viewer_drop(struct bufferevent *bev)
{
	for (int i = 0; i < cv.nviewers; i++)
		if (cv.viewers[i] == bev) {
			cv.viewers[i] = cv.viewers[--cv.nviewers];
			break;
		}
	bufferevent_free(bev);
}

/* A viewer wrote something: discard it (viewers only listen). */
static void viewer_read(struct bufferevent *bev, void *arg)
{
	(void)arg;
	evbuffer_drain(bufferevent_get_input(bev),
		       evbuffer_get_length(bufferevent_get_input(bev)));
}

/* A viewer closed or failed. */
static void viewer_event(struct bufferevent *bev, short what, void *arg)
{
	(void)arg;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		viewer_drop(bev);
}

/* A connection: keep it if it comes from this user, send the history. */
static void viewer_accept(struct evconnlistener *l, evutil_socket_t fd,
			  struct sockaddr *sa, int len, void *arg)
{
	struct ucred cred;
	socklen_t n = sizeof(cred);
	struct bufferevent *bev;

	(void)l; (void)sa; (void)len; (void)arg;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &n) < 0 ||
	    cred.uid != getuid() || cv.nviewers == COORD_VIEW_MAX) {
		close(fd);
		return;
	}
	bev = bufferevent_socket_new(cv.base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (!bev) {
		close(fd);
		return;
	}
	bufferevent_setcb(bev, viewer_read, NULL, viewer_event, NULL);
	/* what a reading of the logs gave in one write, not libevent's
	   16 KiB at a time: each write wakes the viewer */
	bufferevent_set_max_single_write(bev, COORD_VIEW_WRITE);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	evbuffer_add_buffer_reference(bufferevent_get_output(bev), cv.history);
	cv.viewers[cv.nviewers++] = bev;
	cv.ever = 1;
}

/* Starts the history with the stream's version line; 0 or -1. */
static int viewers_version(void)
{
	char line[64];
	int n = pg_livestream_put_version(line, sizeof(line));

	if (n < 0 || evbuffer_add(cv.history, line, (size_t)n) < 0) {
		fprintf(stderr, "pangaea-coord: cannot start the live stream\n");
		return -1;
	}
	return 0;
}

int coord_viewers_init(struct event_base *base, int relay)
{
	const char *path = getenv(PG_ENV_LIVE);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[sizeof(cv.path)], *slash;
	int fd;

	cv.base = base;
	cv.relay = relay > 0 ? relay : 0;
	if (!path || !*path || cv.relay)
		return 0;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "pangaea-coord: live socket path too long: %s\n", path);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (!slash || !dir_private(dir)) {
		fprintf(stderr, "pangaea-coord: refusing live socket %s: its folder "
			"must be ours and mode 0700\n", path);
		return -1;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    chmod(path, 0600) < 0 || listen(fd, 8) < 0 ||
	    evutil_make_socket_nonblocking(fd) < 0) {
		fprintf(stderr, "pangaea-coord: cannot listen on %s: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	snprintf(cv.path, sizeof(cv.path), "%s", path);
	cv.history = evbuffer_new();
	cv.listener = evconnlistener_new(base, viewer_accept, NULL,
					 LEV_OPT_CLOSE_ON_FREE, -1, fd);
	if (!cv.history || !cv.listener) {
		fprintf(stderr, "pangaea-coord: cannot listen on %s\n", path);
		close(fd);
		return -1;
	}
	return viewers_version();
}

/* Adds the lines of BATCH for every viewer, now and later. */
static void viewers_add(struct evbuffer *batch)
{
	size_t len = evbuffer_get_length(batch);

	for (int i = 0; i < cv.nviewers; i++)
		evbuffer_add_buffer_reference(bufferevent_get_output(cv.viewers[i]),
					      batch);
	if (evbuffer_get_length(cv.history) + len <= COORD_VIEW_HISTORY)
		evbuffer_add_buffer(cv.history, batch);
}

/* Appends the line of one event of INTS (at least PG_LIVE_FIELDS + its
   dests) for LTID to OUT; the ints it used, or 0 if malformed. */
static int format_event(int ltid, const int *v, int avail, struct evbuffer *out)
{
	struct pg_live_ev e;
	struct evbuffer_iovec vec;
	int used = pg_livestream_unpack(ltid, v, avail, &e);

	if (!used || evbuffer_reserve_space(out, (ev_ssize_t)
				pg_livestream_event_max(&e), &vec, 1) < 1)
		return 0;
	vec.iov_len = (size_t)(pg_livestream_put_event(vec.iov_base, &e) -
			       (char *)vec.iov_base);
	evbuffer_commit_space(out, &vec, 1);
	return used;
}

/* Writes the lines of the batch H, INTS (N of them) for every viewer. */
static void viewers_lines(const struct pg_live_head *h, const int *ints,
			  int n)
{
	struct evbuffer *batch = evbuffer_new();
	char task[COORD_VIEW_TASK];
	int used;

	/* the batch's lines in one buffer, added to the history and to each
	   viewer's output at once */
	if (!batch)
		return;
	if ((used = pg_livestream_put_task(task, sizeof(task), h->ltid,
					   h->parent_ltid, h->host,
					   h->program)) > 0)
		evbuffer_add(batch, task, (size_t)used);
	for (int i = 0; i < n; i += used)
		if (!(used = format_event(h->ltid, ints + i, n - i, batch)))
			break;
	viewers_add(batch);
	evbuffer_free(batch);
}

void coord_viewers_batch(int bufid, int src, int beacon)
{
	struct pg_live_head h;
	int nints, *ints;

	cv.batches[beacon != 0]++;
	if (cv.relay) {
		if (pg_proto_forward(bufid, cv.relay, PG_TAG_EVENTS) < 0)
			fprintf(stderr, "pangaea-coord: cannot pass events on to "
				"the live view's relay t%x\n", cv.relay);
		return;
	}
	if (!cv.listener)
		return;
	if (pg_proto_upk_events(&h, &ints, &nints) < 0) {
		fprintf(stderr, "pangaea-coord: bad event batch from t%x\n", src);
		return;
	}
	viewers_lines(&h, ints, nints);
	free(ints);
}

void coord_viewers_events(const struct pg_live_head *h, const int *ints,
			  int n)
{
	if (cv.relay) {
		if (pg_proto_send_events(cv.relay, h, ints, n) < 0)
			fprintf(stderr, "pangaea-coord: cannot pass events on to "
				"the live view's relay t%x\n", cv.relay);
	} else if (cv.listener)
		viewers_lines(h, ints, n);
}

/* Writes what BEV still has to send, blocking (at the end of the run). */
static void viewer_flush(struct bufferevent *bev)
{
	evutil_socket_t fd = bufferevent_getfd(bev);
	struct evbuffer *out = bufferevent_get_output(bev);

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	/* a bufferevent's output is frozen at its start for anyone but
	   the bufferevent: what was added after the loop ended would stay */
	evbuffer_unfreeze(out, 1);
	while (evbuffer_get_length(out) > 0)
		if (evbuffer_write(out, fd) <= 0)
			break;
}

long coord_viewers_batches(int beacons)
{
	return cv.batches[beacons != 0];
}

int coord_viewers_on(void)
{
	return cv.listener != NULL || cv.relay;
}

void coord_viewers_finish(void)
{
	time_t until = time(NULL) + 5;

	if (cv.relay) { /* after the last batch: PVM keeps our order */
		int me = pvm_mytid();

		pg_proto_send(cv.relay, PG_TAG_QUIT, &me);
	}
	if (!cv.listener)
		return;
	/* the viewer the launcher started may still be starting up: give it
	   a few seconds (the loop's timer wakes it every 100 ms) */
	cv.finishing = 1;
	while (!cv.ever && time(NULL) < until)
		event_base_loop(cv.base, EVLOOP_ONCE);
	while (cv.nviewers > 0) {
		viewer_flush(cv.viewers[0]);
		viewer_drop(cv.viewers[0]);
	}
	evconnlistener_free(cv.listener);
	cv.listener = NULL;
	evbuffer_free(cv.history);
	unlink(cv.path);
}
