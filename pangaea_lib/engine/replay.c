/*
 * replay.c: the replay engine.  It holds the recording of this task (its
 * communication and execution logs) and decides, in one place,
 * pg_replay_expect, whether each call of the program is the one recorded
 * next: every wrapper asks it, and follows, fails a poll again, or stops
 * at a divergence.  Receives then get the message recorded for them
 * (sender ltid + message id); messages that arrive before their turn wait
 * in the out-of-order queue.  Poll outcomes are replayed exactly: a
 * recorded run of N failed polls fails N times again, and a recorded
 * success waits for its message.  A task whose recording ends where
 * another task's pvm_kill ended it waits there for the replayed kill
 * (await_kill), not running past its last event.
 *
 * What-if replay (PG_ENV_WHATIF, set by the launcher's -swap): the task
 * replays only its first CUT recorded events; the swapped receive, the
 * last of them, is handed the chosen other message; then the task goes
 * free: its mode becomes PANGAEA_MODE_RECORD, so every wrapper behaves
 * as in a recording (and logs on), while free receives first take the
 * messages left in the out-of-order queue (pg_replay_free_recv).
 */
#include "engine.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

/* What replay knows of the recording and where it is in it. */
static struct {
	int launcher;              /* task 0: an execution log only */
	struct pg_comm_reader log; /* the recorded communication log */
	struct pg_event next;      /* the next recorded event (have_next) */
	int have_next;
	uint64_t pos;              /* recorded events consumed */
	uint32_t fails_left;       /* failures left in the current pollfail */
	struct pg_exec_log exec;   /* the recorded spawns */
	int exec_pos;
	struct pg_queue queue;     /* messages ahead of their turn */
	struct pg_state end;       /* the recorded task's state file when
				      the recording ended (have_end) */
	int have_end;
	int whatif;                /* a what-if replay: CUT applies */
	uint64_t cut;              /* recorded events to replay, then free */
	uint64_t swap_at;          /* the swapped receive's number, 0 none */
	struct pg_event swap;      /* its message: peer, msgid, tag, len */
	char broken[512];          /* why the log cannot be read further */
	char report[1400];         /* the divergence, once there is one */
} rp;

/* The task stops following the recording: from now on it runs as a
 * recording does (its logs go on). */
static void go_free(void)
{
	rp.whatif = 0;
	pg_self_go_free();
}

/* Reads this task's part of PG_ENV_WHATIF (LTID's cut and swap); a task
 * it does not name replays nothing (it was started after the cut). */
static void whatif_read(int ltid)
{
	const char *p = getenv(PG_ENV_WHATIF);
	int l, s, t, n;
	unsigned long long e, m, len;

	if (!p || !*p || ltid <= 0)
		return;
	rp.whatif = 1;
	rp.cut = 0;
	while (*p) {
		n = 0;
		if (sscanf(p, "cut:%d:%llu%n", &l, &e, &n) == 2 && n &&
		    l == ltid)
			rp.cut = e;
		else if (sscanf(p, "swap:%d:%llu:%d:%llu:%d:%llu%n", &l, &e, &s,
				&m, &t, &len, &n) == 6 && n && l == ltid) {
			rp.swap_at = e;
			rp.swap.peer = s;
			rp.swap.msgid = (uint32_t)m;
			rp.swap.tag = t;
			rp.swap.len = (uint32_t)len;
		}
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
}

int pg_replay_open(const char *dir, int ltid, char *err, size_t errlen)
{
	char path[PG_PATH_MAX];

	pg_replay_close();
	rp.launcher = ltid == 0;
	if (!rp.launcher &&
	    (pg_log_path(path, sizeof(path), dir, ltid, "comm") < 0 ||
	     pg_comm_open(&rp.log, path, err, errlen) < 0))
		return -1;
	rp.have_end = !rp.launcher && pg_state_read(dir, ltid, &rp.end);
	if (pg_log_path(path, sizeof(path), dir, ltid, "exec") < 0 ||
	    pg_exec_read(path, &rp.exec, err, errlen) < 0) {
		pg_comm_free(&rp.log);
		return -1;
	}
	whatif_read(ltid);
	if (rp.whatif && rp.cut == 0)
		go_free();
	return 0;
}

int pg_replay_unjoined(const char *dir, int ltid)
{
	char path[PG_PATH_MAX];

	return ltid > 0 &&
	       pg_log_path(path, sizeof(path), dir, ltid, "comm") == 0 &&
	       access(path, F_OK) < 0 && errno == ENOENT;
}

void pg_replay_await_kill(void)
{
	int ltid = pg_me->ltid, killer = -1;

	if (pg_me->launcher_tid <= 0 || ltid <= 0)
		return;
	pg_bind->ask(pg_me->launcher_tid, PG_TAG_KILLWAIT, &ltid,
		     PG_TAG_ANSWER, &killer);
}

void pg_replay_close(void)
{
	pg_comm_free(&rp.log);
	pg_exec_free(&rp.exec);
	pg_queue_free(&rp.queue); /* the messages stay the binding's */
	memset(&rp, 0, sizeof(rp));
}

/* Reads the next recorded event into rp.next (unless it is there): 1,
 * 0 at the end of the log, or -1 when the log cannot be read further
 * (ERR says why, and says it again at every later call). */
static inline __attribute__((always_inline)) int
next_event(char *err, size_t n)
{
	int r;

	if (rp.have_next)
		return 1;
	if (rp.broken[0]) {
		snprintf(err, n, "%s", rp.broken);
		return -1;
	}
	if (rp.launcher)
		return 0;
	r = pg_comm_next(&rp.log, &rp.next, err, n);
	if (r < 0)
		snprintf(rp.broken, sizeof(rp.broken), "%s", err);
	if (r <= 0)
		return r;
	rp.have_next = 1;
	return 1;
}

int pg_replay_peek(struct pg_event *ev)
{
	char err[512];

	if (next_event(err, sizeof(err)) <= 0)
		return 0;
	*ev = rp.next;
	return 1;
}

int pg_replay_pollfail_next(void)
{
	char err[512];

	return next_event(err, sizeof(err)) > 0 &&
	       rp.next.kind == PG_REC_POLLFAIL;
}

/* Consumes the event next_event returned; at a what-if's cut, the task
 * goes free. */
static inline __attribute__((always_inline)) void take(void)
{
	rp.have_next = 0;
	rp.pos++;
	if (rp.whatif && rp.pos >= rp.cut && rp.next.kind != PG_REC_END)
		go_free();
}

enum pg_verdict pg_replay_diverge(const char *fmt, ...)
{
	char what[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(rp.report, sizeof(rp.report),
		 "replay diverged: task %d (%s on %s), event %llu: %s",
		 pg_me->ltid, pg_me->program, pg_me->host,
		 (unsigned long long)rp.pos + 1, what);
	return PG_REPLAY_DIVERGED;
}

uint32_t pg_replay_log_version(void)
{
	if (pg_me->mode != PANGAEA_MODE_REPLAY || rp.launcher || !rp.log.data)
		return PG_COMM_VERSION;
	return rp.log.hdr.version;
}

const char *pg_replay_report(void)
{
	return rp.report;
}

uint64_t pg_replay_position(void)
{
	return rp.pos + 1;
}

/* The name of call CALL (pg_call_of numbering) as the binding names it
 * ("pvm_spawn", "MPI_Comm_spawn") into BUF (N bytes); "?" if none. */
static const char *call_name(int call, char *buf, size_t n)
{
	if (!pg_call_name(pg_bind->names, call, buf, n))
		snprintf(buf, n, "?");
	return buf;
}

/* What the program did in CALL, for a report: "did send to=1 ..." or
 * "called pvm_recv(from=-1, tag=5)". */
static void call_phrase(const struct pg_call *call, char *buf, size_t n)
{
	const struct pg_event *e = &call->ev;
	char d[256];

	switch (pg_rec_kind_class(e->kind)) {
	case PG_CLASS_SEND:
		pg_event_describe(pg_bind->names, e, d, sizeof(d));
		snprintf(buf, n, "did %s", d);
		return;
	case PG_CLASS_RECV:
	case PG_CLASS_PROBE:
		snprintf(buf, n, "called %s(from=%d, tag=%d)",
			 pg_kind_call_name(pg_bind->names, e->kind, d,
					   sizeof(d)),
			 e->peer == PG_PEER_ANY ? -1 : e->peer, e->tag);
		return;
	default:
		break;
	}
	if (e->kind == PG_REC_GROUP)
		snprintf(buf, n, "called %s(\"%s\", %d)",
			 call_name(pg_call_of(e->kind, e->op), d, sizeof(d)),
			 e->group, e->arg);
	else if (e->kind == PG_REC_KILL)
		snprintf(buf, n, "called %s(task %d)",
			 call_name(PG_REC_KILL, d, sizeof(d)), e->peer);
	else if (e->kind == PG_REC_CALL) {
		pg_call_describe(e, 0, d, sizeof(d));
		snprintf(buf, n, "called %s", d);
	}
	else if (e->kind == PG_REC_SPAWN)
		snprintf(buf, n, "called %s(%s)",
			 call_name(PG_REC_SPAWN, d, sizeof(d)),
			 call->spawn->file);
	else
		snprintf(buf, n, "called pangaea_exit()");
}

/* Whether the group names of W and E are the same (no strcmp for two
 * empty ones: every send has them). */
static int same_group(const struct pg_event *w, const struct pg_event *e)
{
	return w->group[0] == e->group[0] &&
	       (!w->group[0] || strcmp(w->group, e->group) == 0);
}

/* Whether the recorded event W is what CALL does (a receive: W passes
 * the call's filter). */
static inline __attribute__((always_inline)) int
call_matches(const struct pg_call *call, const struct pg_event *w)
{
	const struct pg_event *e = &call->ev;

	if (w->kind != e->kind)
		return 0;
	switch (pg_rec_kind_class(e->kind)) {
	case PG_CLASS_SEND:
		/* (a send's list is empty: no call to compare it) */
		return w->peer == e->peer && w->tag == e->tag &&
		       w->msgid == e->msgid && w->ndest == e->ndest &&
		       (!w->ndest || pg_event_same_dests(w, e)) &&
		       same_group(w, e);
	case PG_CLASS_RECV:
	case PG_CLASS_PROBE:
		return (e->tag == -1 || e->tag == w->tag) &&
		       (e->peer == PG_PEER_ANY || e->peer == w->peer);
	default:
		break;
	}
	if (e->kind == PG_REC_GROUP)
		return w->op == e->op && w->arg == e->arg &&
		       strcmp(w->group, e->group) == 0;
	if (e->kind == PG_REC_KILL)
		return w->peer == e->peer;
	if (e->kind == PG_REC_CALL)
		return w->op == e->op && w->peer == e->peer &&
		       w->arg == e->arg && w->arg2 == e->arg2 &&
		       strcmp(w->group, e->group) == 0;
	return w->how == e->how; /* the end */
}

/* CALL came where the recording had ended. */
static enum pg_verdict diverge_at_end(const struct pg_call *call)
{
	char what[512];

	call_phrase(call, what, sizeof(what));
	if (call->ev.kind == PG_REC_END)
		return pg_replay_diverge("the recording ends here without an "
					 "end record (the recorded task was "
					 "killed); the program %s", what);
	return pg_replay_diverge("the recording ends here; the program %s",
				 what);
}

/* CALL came where the recording had W. */
static enum pg_verdict diverge_from(const struct pg_call *call,
				    const struct pg_event *w)
{
	char what[512], d[256];

	call_phrase(call, what, sizeof(what));
	pg_event_describe(pg_bind->names, w, d, sizeof(d));
	return pg_replay_diverge("the log expects %s; the program %s", d, what);
}

/* Whether KIND is a poll, whose failures are recorded. */
static int is_poll(int kind)
{
	return kind == PG_REC_NRECV || kind == PG_REC_TRECV ||
	       kind == PG_REC_PROBE;
}

/* A recorded failed poll W is due: counts it off. */
static enum pg_verdict fail_again(const struct pg_event *w)
{
	if (rp.fails_left == 0)
		rp.fails_left = w->count ? w->count : 1;
	if (--rp.fails_left == 0)
		take();
	return PG_REPLAY_POLLFAIL;
}

/* Whether the spawn CALL makes has the recorded REC's arguments. */
static int same_args(const struct pg_spawn_rec *call,
		     const struct pg_spawn_rec *rec)
{
	char **argv = call->argv;
	int i, same = 1;

	for (i = 0; argv && argv[i] && i < rec->argc; i++)
		same &= strcmp(argv[i], rec->argv[i]) == 0;
	return same && i == rec->argc && (!argv || !argv[i]);
}

/* The decision for a spawn: the next recorded spawn of the execution log
 * (and, but for the launcher, the next event) must be this one. */
static enum pg_verdict expect_spawn(const struct pg_call *call,
				    struct pg_spawn_rec **spawn)
{
	const struct pg_spawn_rec *c = call->spawn;
	const struct pg_event *w = &rp.next;
	struct pg_spawn_rec *rec;
	char err[512], d[256] = "the end of the recording", called[64];
	int r = 0, args;

	if (rp.exec_pos >= rp.exec.nspawn && !rp.launcher &&
	    next_event(err, sizeof(err)) > 0 && w->kind != PG_REC_SPAWN) {
		pg_event_describe(pg_bind->names, w, d, sizeof(d));
		return pg_replay_diverge("the log expects %s; the program called "
					 "%s(%s)", d,
					 call_name(PG_REC_SPAWN, called,
						   sizeof(called)), c->file);
	}
	if (rp.exec_pos >= rp.exec.nspawn)
		return pg_replay_diverge("the program spawns \"%s\" but the "
					 "recording has no more spawns for "
					 "this task", c->file);
	rec = &rp.exec.spawns[rp.exec_pos];
	if (!rp.launcher && (r = next_event(err, sizeof(err))) < 0)
		return pg_replay_diverge("the log cannot be read further: %s",
					 err);
	if (!rp.launcher && (r == 0 || w->kind != PG_REC_SPAWN ||
			     w->msgid != (uint32_t)rec->seq)) {
		if (r > 0)
			pg_event_describe(pg_bind->names, w, d, sizeof(d));
		return pg_replay_diverge("the log expects %s; the program called "
					 "%s(%s)", d,
					 call_name(PG_REC_SPAWN, called,
						   sizeof(called)), c->file);
	}
	/* the launcher's arguments may be the recording's own */
	args = same_args(c, rec) || rp.launcher;
	if (strcmp(c->file, rec->file) != 0 || c->ntask != rec->ntask || !args)
		return pg_replay_diverge("the log expects spawn #%d of %d x "
					 "\"%s\"; the program spawned %d x "
					 "\"%s\"%s", rec->seq, rec->ntask,
					 rec->file, c->ntask, c->file,
					 args ? "" : " with other arguments");
	if (!rp.launcher)
		take();
	rp.exec_pos++;
	*spawn = rec;
	return PG_REPLAY_FOLLOW;
}

/*
 * Whether the recording ends (R: 0 no more events, else W is next) with
 * the task killed while blocked in the receive CALL makes now: its log
 * has no more events but how it was killed, and its state file says it
 * was in the same call with the same filter (a deadlock the launcher
 * ended; the filter's sender is compared as "any" or not, its tid being
 * the recording's).
 */
static int ended_blocked(const struct pg_call *call, int r,
			 const struct pg_event *w)
{
	const struct pg_event *e = &call->ev;

	if (!rp.have_end || !rp.end.call ||
	    pg_rec_kind_class(e->kind) != PG_CLASS_RECV ||
	    (r > 0 && !(w->kind == PG_REC_END && w->how == PG_END_SIGNAL)))
		return 0;
	return rp.end.call == pg_call_of(e->kind, 0) && rp.end.tag == e->tag &&
	       (rp.end.src == -1) == (e->peer == PG_PEER_ANY);
}

/*
 * Whether the recording ends at W (the next event, R > 0) with the task
 * killed by SIGTERM, PVM's pvm_kill, and CALL is not that end: the
 * recorded task was killed somewhere after its last event.
 */
static int killed_here(const struct pg_call *call, int r,
		       const struct pg_event *w)
{
	return r > 0 && w->kind == PG_REC_END && w->how == PG_END_SIGNAL &&
	       w->value == SIGTERM &&
	       !(call->ev.kind == PG_REC_END && call->ev.how == w->how);
}

/* Marks CALL in the state file as the call this task is blocked in. */
static void block_in(const struct pg_call *call)
{
	const struct pg_event *e = &call->ev;
	int src = -1;

	if (pg_rec_kind_class(e->kind) == PG_CLASS_RECV && e->peer >= 0)
		src = pg_bind->addr_of(e->peer); /* learnt when the call
						    named it */
	pg_state_block(pg_call_of(e->kind, e->op), src,
		       e->kind == PG_REC_GROUP ? e->arg : e->tag,
		       e->kind == PG_REC_GROUP ? e->group : NULL, NULL);
}

/*
 * CALL came where the recording (W next) ends with the task killed by
 * SIGTERM, or where its log ends with no end record (killed by
 * SIGKILL).  If a task of the recording killed it there with pvm_kill,
 * the replayed task must die at this very point too: it asks the
 * launcher (KILLWAIT), which holds back the answer and lets the
 * killer's replayed pvm_kill go ahead, which ends this task in the
 * question.  (The MPI binding has no launcher to ask: it waits up to
 * 30 s for mpirun's kill, which a replayed crash of another rank
 * brings.)  Returns only when no such kill is coming (the launcher's
 * answer: the recording names no killer, or the killer ended without
 * it; no launcher to ask, as in unit tests): the caller goes on to
 * decide as for any other end.
 */
static void await_kill(const struct pg_call *call)
{
	if (pg_me->launcher_tid <= 0 || pg_me->ltid <= 0)
		return;
	block_in(call);
	pg_replay_await_kill();
	pg_state_unblock();
}

/* The recorded receive CALL matched is the swapped one: *WANT becomes
 * the chosen message, if the call's filter takes it. */
static enum pg_verdict swap_here(const struct pg_call *call,
				 struct pg_event *want)
{
	const struct pg_event *e = &call->ev, *a = &rp.swap;
	char name[64];

	if (pg_rec_kind_class(e->kind) != PG_CLASS_RECV || !want)
		return pg_replay_diverge("the what-if swap is for a receive; "
					 "the program %s",
					 pg_rec_kind_name(e->kind));
	if ((e->tag != -1 && e->tag != a->tag) ||
	    (e->peer != PG_PEER_ANY && e->peer != a->peer))
		return pg_replay_diverge("the what-if message %d:%u (tag %d) "
					 "does not pass the filter of "
					 "%s(from=%d, tag=%d)", a->peer,
					 a->msgid, a->tag,
					 pg_kind_call_name(pg_bind->names,
							   e->kind, name,
							   sizeof(name)),
					 e->peer == PG_PEER_ANY ? -1 : e->peer,
					 e->tag);
	want->peer = a->peer;
	want->msgid = a->msgid;
	want->tag = a->tag;
	want->len = a->len;
	rp.swap_at = 0;
	take();
	return PG_REPLAY_FOLLOW;
}

int pg_replay_poll_failed(void)
{
	/* (pg_replay_expect's path for a poll when a pollfail is next: no
	   spawn, no end record, nothing to match) */
	if (!pg_replay_pollfail_next())
		return 0;
	pg_debug_reach(rp.pos + 1);
	fail_again(&rp.next);
	return 1;
}

/* *DST = *SRC but for the bytes of group after its string (a receive's
 * is ""): the whole 360-byte copy was 50 instructions of a replayed
 * receive. */
static inline __attribute__((always_inline)) void
event_copy(struct pg_event *dst, const struct pg_event *src)
{
	size_t g = offsetof(struct pg_event, group),
	       rest = g + sizeof(src->group), l;

	memcpy(dst, src, g);
	memcpy((char *)dst + rest, (const char *)src + rest,
	       sizeof(*src) - rest);
	dst->group[0] = '\0';
	if (src->group[0]) {
		l = strnlen(src->group, sizeof(src->group) - 1);
		memcpy(dst->group, src->group, l);
		dst->group[l] = '\0';
	}
}

/* pg_replay_expect's decision for CALL, every case (pg_debug_reach
 * done); out of line, so that the common case needs no large frame. */
static __attribute__((noinline)) enum pg_verdict
expect_call(const struct pg_call *call, struct pg_event *want,
	    struct pg_spawn_rec **spawn)
{
	const struct pg_event *w = &rp.next;
	char err[512];
	int r;

	if (call->ev.kind == PG_REC_SPAWN)
		return expect_spawn(call, spawn);
	r = next_event(err, sizeof(err));
	if (r < 0)
		return pg_replay_diverge("the log cannot be read further: %s",
					 err);
	/* (a log with no end record at all: the recorded task was killed
	   by a signal no handler sees, SIGKILL, somewhere after its last
	   event; a task that gets there first waits for its kill too) */
	if (killed_here(call, r, w) || r == 0)
		await_kill(call); /* returns if no kill ends the task here */
	if (ended_blocked(call, r, w))
		return PG_REPLAY_BLOCK;
	if (r == 0)
		return diverge_at_end(call);
	if (w->kind == PG_REC_POLLFAIL && is_poll(call->ev.kind))
		return fail_again(w);
	if (!call_matches(call, w))
		return diverge_from(call, w);
	if (want)
		event_copy(want, w);
	if (rp.whatif && rp.swap_at == rp.pos + 1)
		return swap_here(call, want);
	take();
	return PG_REPLAY_FOLLOW;
}

/* Whether the recorded event W is CALL's in the common case, which
 * pg_replay_expect decides itself as expect_call would: a message's of
 * the call's kind (no spawn, no end, no pollfail) that matches, outside
 * a what-if. */
static inline __attribute__((always_inline)) int
common_match(const struct pg_call *call, const struct pg_event *w)
{
	return w->kind == call->ev.kind &&
	       pg_rec_kind_class(w->kind) != PG_CLASS_OTHER && !rp.whatif &&
	       call_matches(call, w);
}

/* The next event, read by pg_replay_expect into *EV (R pg_comm_next's
 * return, ERR its error), is not the call's: it is left as next_event
 * would have left it, for expect_call.  Out of line (the common case
 * needs no registers for it). */
static __attribute__((noinline)) void hold_next(const struct pg_event *ev,
						int r, const char *err)
{
	if (r < 0)
		snprintf(rp.broken, sizeof(rp.broken), "%s", err);
	if (r > 0)
		event_copy(&rp.next, ev);
	rp.have_next = r > 0;
}

enum pg_verdict pg_replay_expect(const struct pg_call *call,
				 struct pg_event *want,
				 struct pg_spawn_rec **spawn)
{
	char err[512];
	int r;

	pg_debug_reach(rp.pos + 1); /* -debug: a debugger stops it here */
	if (want && !rp.have_next && !rp.broken[0] && !rp.launcher) {
		/* the next event read straight into *WANT: no copy of it
		   when it is the call's */
		r = pg_comm_next(&rp.log, want, err, sizeof(err));
		if (r > 0 && common_match(call, want)) {
			take();
			return PG_REPLAY_FOLLOW;
		}
		hold_next(want, r, err);
	} else if (next_event(err, sizeof(err)) > 0 &&
		   common_match(call, &rp.next)) {
		if (want)
			event_copy(want, &rp.next);
		take();
		return PG_REPLAY_FOLLOW;
	}
	return expect_call(call, want, spawn);
}

#define FETCH_ACTIVE (-1000) /* fetch: WANT is the active buffer */

/* Receives messages into the queue until WANT is there; its index or < 0.
 * If ACTIVE (a receive, not a probe), WANT itself is not queued but left
 * the current message, *MSG its handle, and the one before freed: what
 * hand_out would then do, without going through the queue (three calls
 * of the binding less a receive); then FETCH_ACTIVE.  A receive leaves
 * the current message to the binding's receive, which frees it as a
 * plain receive does (two calls less); a probe keeps it. */
static int fetch(const struct pg_event *want, int active, int *msg)
{
	const struct pg_binding *bd = pg_bind;
	int src = want->peer >= 0 ? bd->addr_of(want->peer) : -1;
	int saved = active ? 0 : bd->make_current(0);
	struct pg_msginfo mi;
	struct pg_qmsg m;
	int b;

	if (src < 0 && want->peer >= 0)
		return src;
	for (;;) {
		b = bd->recv(PG_REC_RECV, src, want->tag, NULL);
		if (b < 0 || bd->info(b, &mi) < 0)
			break;
		m.msg = b;
		m.src = mi.src;
		m.src_ltid = mi.peer;
		m.msgid = mi.msgid;
		m.tag = mi.tag;
		if (active && pg_qmsg_is(&m, want->peer, want->msgid, want->tag)) {
			if (saved > 0 && saved != b)
				bd->release(saved);
			*msg = b;
			return FETCH_ACTIVE;
		}
		bd->make_current(0);
		if (pg_queue_push(&rp.queue, &m) < 0) {
			b = bd->err_nomem;
			break;
		}
		if (pg_qmsg_is(&m, want->peer, want->msgid, want->tag)) {
			bd->make_current(saved);
			return (int)rp.queue.n - 1;
		}
	}
	bd->make_current(saved);
	return b < 0 ? b : bd->err_sys;
}

/* Makes the queued message I the current message (a probe leaves it
 * queued for the receive that follows); its handle. */
static int hand_out(int kind, size_t i)
{
	int b = rp.queue.v[i].msg, old;

	if (kind == PG_REC_PROBE)
		return b;
	pg_queue_remove(&rp.queue, i);
	old = pg_bind->make_current(b);
	if (old > 0 && old != b)
		pg_bind->release(old);
	return b;
}

int pg_replay_take_message(int kind, const struct pg_event *want)
{
	int i = pg_queue_find(&rp.queue, want->peer, want->msgid, want->tag), b = 0;

	if (i < 0 && (i = fetch(want, kind != PG_REC_PROBE, &b)) == FETCH_ACTIVE)
		return b;
	return i < 0 ? i : hand_out(kind, (size_t)i);
}

int pg_replay_queued(void)
{
	return rp.queue.n > 0;
}

int pg_replay_free_recv(int kind, int tid, int tag, struct timeval *tmout)
{
	int i = pg_queue_find_filter(&rp.queue, tid, tag);

	if (i < 0)
		return pg_bind->recv(kind, tid, tag, tmout);
	return hand_out(kind, (size_t)i);
}
