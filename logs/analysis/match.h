/*
 * match.h: the one matcher of a run's messages (logs/analysis/match.c): which
 * send each receive took.  Both the trace database importer
 * (logs/tracedb/tracedb-match.c) and the viewer's live database
 * (xview/viewlive.c) feed it their events one by one, in whatever order
 * they come, and write what it answers.
 *
 * A message is named by (sender ltid, message id, receiver ltid): an
 * mcast or bcast is one send event with one message id and several
 * receivers, hence one message, and one send end, per receiver.  The
 * message's kind is its send end's; its times are its ends' times: a
 * send's entry (t0), a receive's exit (t1, the message in the program's
 * hands).
 */
#ifndef PANGAEA_MATCH_H
#define PANGAEA_MATCH_H

#include "pangaea-logs.h"

#include <stddef.h>
#include <stdint.h>

/* One end of a message: a send to one destination, or a receive. */
struct pg_match_end {
	int32_t src;     /* sender ltid (PG_PEER_FOREIGN, PG_PEER_SYSTEM) */
	int32_t dst;     /* receiver ltid */
	uint32_t msgid;  /* the sender's message id */
	int32_t tag;
	uint32_t len;
	int32_t kind;    /* enum pg_rec_kind of its event */
	int64_t ev;      /* the event's id (events.id) */
	int64_t t;       /* the message's time here: send t0, receive t1 */
	int64_t seq;     /* the end's number in the order fed: 1, 2, ... */
};

/* What became of an end fed to the matcher. */
enum pg_match_what {
	PG_MATCH_WAITS,   /* kept until its other end comes */
	PG_MATCH_PAIRED,  /* it completed a message whose other end waited */
	PG_MATCH_FOREIGN  /* a receive from outside the run: never pairs */
};

/* The matcher: the ends waiting for their other end, by message, and the
 * messages already paired (to tell a duplicate receive).  Start from
 * { 0 }; end with pg_match_free.  Fields are match.c's. */
struct pg_match {
	struct pg_match_slot *slots; /* hash table by message, 2^k slots */
	size_t nslots, nkeys;
	struct pg_match_wait *wait;  /* waiting ends; unused ones chained */
	size_t nwait, capwait;
	uint32_t free;               /* first unused entry + 1, 0: none */
	int64_t seq;                 /* ends fed so far */
};

/* What the run says about its logs, to explain an end left alone. */
struct pg_match_run {
	const int *ltids; /* tasks with a communication log, ascending */
	int nltid;
	int selective;    /* the run logged a selection of tasks or tags */
};

/*
 * Told what became of end E (its seq set); OTHER is the end that waited
 * for it (PG_MATCH_PAIRED), else NULL.  Returns 0 to go on, else the
 * feeding stops with that value.
 */
typedef int (*pg_match_fn)(void *arg, enum pg_match_what what,
			   const struct pg_match_end *e,
			   const struct pg_match_end *other);

/* Whether E is a send end (else a receive end); 1 or 0. */
int pg_match_is_send(const struct pg_match_end *e);

/*
 * Feeds one end E (its seq is set here): PG_MATCH_PAIRED when an end of
 * the other side waited for it (the first fed: *OTHER, now forgotten),
 * PG_MATCH_FOREIGN for a receive from outside the run, else
 * PG_MATCH_WAITS (kept).  -1 when memory runs out (nothing kept).
 */
int pg_match_add(struct pg_match *m, struct pg_match_end *e,
		 struct pg_match_end *other);

/*
 * Makes the message ends of event EV of task LTID (events.id ID, entry
 * T0, exit T1; a send: one per destination, a receive: one, others none),
 * feeds each to M and tells FN (with ARG) what became of it.  0; -1 when
 * memory runs out; FN's value when it stopped.
 */
int pg_match_event(struct pg_match *m, int ltid, int64_t id,
		   const struct pg_event *ev, int64_t t0, int64_t t1,
		   pg_match_fn fn, void *arg);

/* The ends still waiting, in the order they were fed, into *OUT (malloc'd,
 * free it; NULL when none); their number, or -1 when memory runs out. */
long pg_match_left(const struct pg_match *m, struct pg_match_end **out);

/*
 * Why end E has no other end once the run is all fed: a send "not
 * received" (or "selection": the receiver was not logged); a receive
 * "foreign", "duplicate receive" (its message was received already:
 * damaged logs), "send not logged" (or "selection").
 */
const char *pg_match_why(const struct pg_match *m,
			 const struct pg_match_end *e,
			 const struct pg_match_run *run);

/* Frees what M holds and leaves it empty ({ 0 }). */
void pg_match_free(struct pg_match *m);

#endif /* PANGAEA_MATCH_H */
