/*
 * state.c: this task's state file, LOGDIR/task-LTID.state (pangaea-logs.h,
 * docs/FORMATS.md): the blocking call it is in, since when, and in replay
 * the recorded message it waits for.  The wrappers mark the start and
 * end of every call that may block; the launcher reads the file to tell
 * a deadlock (toplevel/deadlock.c).  No message is sent: the file is a
 * MAP_SHARED mapping, created at the first blocking call.  The file is
 * advisory: if it cannot be made, the task runs on without it (and the
 * launcher, finding none, never calls the task blocked).
 */
#include "engine.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct pg_state *st; /* this task's mapping, or NULL */
static int tried;           /* creating it was tried (once) */

/* CLOCK_MONOTONIC now, in ns. */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Creates and maps the state file (once, for a task of a run); whether
 * it is there. */
static int state_map(void)
{
	char path[PG_PATH_MAX];
	void *m;
	int fd;

	if (st || tried)
		return st != NULL;
	tried = 1;
	if (!pg_me->mode || pg_me->ltid <= 0 || !pg_me->logdir[0] ||
	    pg_log_path(path, sizeof(path), pg_me->logdir, pg_me->ltid,
			"state") < 0)
		return 0;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return 0;
	/* the blocks are reserved first: on a full disk a store into the
	   mapping would be a SIGBUS, here it is no state file */
	m = posix_fallocate(fd, 0, PG_STATE_SIZE) != 0 ? MAP_FAILED :
	    mmap(NULL, PG_STATE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		unlink(path);
		return 0;
	}
	st = m;
	st->version = PG_STATE_VERSION;
	st->ltid = pg_me->ltid;
	memcpy(st->magic, PG_STATE_MAGIC, 8); /* last: the file is whole */
	return 1;
}

/* Starts a change of the state (SEQ odd). */
static void change_begin(void)
{
	__atomic_store_n(&st->seq, st->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

/* Ends a change of the state (SEQ even again). */
static void change_end(void)
{
	__atomic_store_n(&st->seq, st->seq + 1, __ATOMIC_RELEASE);
}

void pg_state_block(int call, int src, int tag, const char *group,
		    const struct timeval *tmout)
{
	if (state_map())
		pg_state_block_at(mono_ns() - pg_clock_start_mono(), call, src,
				  tag, group, tmout);
}

void pg_state_block_at(uint64_t t, int call, int src, int tag,
		       const char *group, const struct timeval *tmout)
{
	uint64_t now = t + pg_clock_start_mono();

	if (!state_map())
		return;
	change_begin();
	st->call = call;
	st->src = src;
	st->tag = tag;
	st->since_mono_ns = now;
	st->since_t = t;
	st->deadline_mono_ns = tmout ? now + (uint64_t)tmout->tv_sec *
					     1000000000u +
				       (uint64_t)tmout->tv_usec * 1000u : 0;
	st->want = 0;
	if (group) /* (no snprintf: this runs at every receive) */
		strncpy(st->group, group, sizeof(st->group) - 1);
	else
		st->group[0] = '\0';
	change_end();
}

void pg_state_want(int src_ltid, uint32_t msgid)
{
	if (!st || !st->call)
		return;
	change_begin();
	st->want = 1;
	st->want_src = src_ltid;
	st->want_msgid = msgid;
	change_end();
}

void pg_state_unblock(void)
{
	if (!st || !st->call)
		return;
	change_begin();
	st->call = 0;
	st->want = 0;
	change_end();
}

/* Swaps the byte order of every number of S: the file of a task on a
 * host of the other byte order (an s390x host's, read on x86-64, in a
 * shared log folder: docs/FORMATS.md 4.1). */
static void state_swap(struct pg_state *s)
{
	s->version = __builtin_bswap32(s->version);
	s->ltid = (int32_t)__builtin_bswap32((uint32_t)s->ltid);
	s->seq = __builtin_bswap32(s->seq);
	s->call = (int32_t)__builtin_bswap32((uint32_t)s->call);
	s->src = (int32_t)__builtin_bswap32((uint32_t)s->src);
	s->tag = (int32_t)__builtin_bswap32((uint32_t)s->tag);
	s->since_mono_ns = __builtin_bswap64(s->since_mono_ns);
	s->since_t = __builtin_bswap64(s->since_t);
	s->deadline_mono_ns = __builtin_bswap64(s->deadline_mono_ns);
	s->want = (int32_t)__builtin_bswap32((uint32_t)s->want);
	s->want_src = (int32_t)__builtin_bswap32((uint32_t)s->want_src);
	s->want_msgid = __builtin_bswap32(s->want_msgid);
}

int pg_state_read(const char *dir, int ltid, struct pg_state *out)
{
	char path[PG_PATH_MAX];
	struct stat sb;
	uint32_t seq;
	int fd, ok = 0;

	if (pg_log_path(path, sizeof(path), dir, ltid, "state") < 0)
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    pread(fd, out, sizeof(*out), 0) == (ssize_t)sizeof(*out)) {
		/* written in the other byte order: swapped into ours */
		int other = out->version == __builtin_bswap32((uint32_t)PG_STATE_VERSION);
		if (other)
			state_swap(out);
		/* whole, of this version, and not changed while read */
		ok = memcmp(out->magic, PG_STATE_MAGIC, 8) == 0 &&
		     out->version == PG_STATE_VERSION && out->ltid == ltid &&
		     !(out->seq & 1) &&
		     pread(fd, &seq, sizeof(seq), offsetof(struct pg_state, seq))
			     == (ssize_t)sizeof(seq) &&
		     (other ? __builtin_bswap32(seq) : seq) == (uint32_t)out->seq;
	}
	close(fd);
	return ok;
}
