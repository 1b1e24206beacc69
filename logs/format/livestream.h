/*
 * livestream.h: the live event stream, one encoder and parser for both
 * of its ends (livestream.c; docs/VIEWER.md "The live stream").
 *
 * A task (pangaea_lib/engine/live.c), or the coordinator following a
 * task's log (coordinator/follow.c), packs each event as PG_LIVE_FIELDS
 * ints and its destinations into a PG_TAG_EVENTS batch
 * (pangaea-protocol.h).  The coordinator (coordinator/viewers.c) unpacks
 * them and writes text lines to the viewers, after the version line;
 * the viewer (xview/viewlive.c) checks that line and parses the others:
 *
 *   V pangaea-live N                       first: PG_LIVE_VERSION
 *   T LTID PARENT HOST PROGRAM             a task (again with each batch)
 *   E LTID KIND T0 T1 PEER TAG MSGID LEN COUNT [DEST...]   an event
 *
 * Bump PG_LIVE_VERSION (pangaea-formats.h) on any change of a line's or
 * the ints' layout or meaning.
 */
#ifndef PANGAEA_LIVESTREAM_H
#define PANGAEA_LIVESTREAM_H

#include "pangaea-logs.h"

#include <stddef.h>
#include <stdint.h>

/* The ints of one event in a PG_TAG_EVENTS batch, in this order, then
 * its NDEST destination ltids. */
enum pg_live_field {
	PG_LIVE_F_KIND,      /* enum pg_rec_kind */
	PG_LIVE_F_PEER,
	PG_LIVE_F_TAG,
	PG_LIVE_F_MSGID,
	PG_LIVE_F_LEN,
	PG_LIVE_F_COUNT,     /* pollfail: failed polls; group: enum pg_group_op */
	PG_LIVE_F_NDEST,     /* mcast, bcast: destinations after the fields */
	PG_LIVE_F_T0_HI,     /* call entry, wall-clock ns, high 32 bits */
	PG_LIVE_F_T0_LO,
	PG_LIVE_F_DUR_HI,    /* call duration ns, high 32 bits */
	PG_LIVE_F_DUR_LO,
	PG_LIVE_FIELDS       /* how many */
};

/* One event of the stream (an E line). */
struct pg_live_ev {
	int ltid;
	int kind;            /* enum pg_rec_kind, 1..PG_REC_LAST */
	uint64_t t0, t1;     /* call entry and exit, wall-clock ns */
	int peer, tag;
	uint32_t msgid, len;
	uint32_t count;      /* pollfail: failed polls; group: its op */
	int ndest;
	const int *dests;    /* the NDEST destination ltids */
	const char *dests_text; /* parsed: the line's destinations as
				   written, NULL if none */
};

/* A task of the stream (a T line). */
struct pg_live_task {
	int ltid, parent;
	char host[PG_HOST_MAX];
	const char *program; /* the rest of the line */
};

/* What a line of the stream is. */
enum pg_live_line {
	PG_LIVE_OTHER = 0,   /* none of these: skipped by a reader */
	PG_LIVE_VERSION_LINE = 'V',
	PG_LIVE_TASK = 'T',
	PG_LIVE_EVENT = 'E'
};

/* Packs EV, its call entry at WALL (wall-clock ns), at V (room for
 * PG_LIVE_FIELDS + EV's destinations); the ints written. */
int pg_livestream_pack(const struct pg_event *ev, uint64_t wall, int *v);
/* Unpacks the event of task LTID at V (AVAIL ints left in the batch)
 * into E (E->dests points into V); the ints it used, 0 if malformed. */
int pg_livestream_unpack(int ltid, const int *v, int avail,
			 struct pg_live_ev *e);
/* The most bytes pg_livestream_put_event writes for E. */
size_t pg_livestream_event_max(const struct pg_live_ev *e);
/* Writes E's line, its newline included, at P (room for
 * pg_livestream_event_max); the position after it. */
char *pg_livestream_put_event(char *p, const struct pg_live_ev *e);
/* Writes the line of task LTID (PARENT, HOST, PROGRAM), newline
 * included, into BUF of N bytes; its length, -1 if it does not fit. */
int pg_livestream_put_task(char *buf, size_t n, int ltid, int parent,
			   const char *host, const char *program);
/* Writes the version line, newline included, into BUF of N bytes; its
 * length, -1 if it does not fit. */
int pg_livestream_put_version(char *buf, size_t n);
/* What LINE (without its newline) is, by its first letter. */
enum pg_live_line pg_livestream_line(const char *line);
/* Checks that LINE (without its newline) is the version line of
 * PG_LIVE_VERSION; 0, else -1 with the reason in ERR. */
int pg_livestream_version(const char *line, char *err, size_t errlen);
/* Parses task line LINE into T (T->program points into LINE); 0, or -1
 * if it is malformed. */
int pg_livestream_task(const char *line, struct pg_live_task *t);
/* Parses event line LINE into E, its destinations into *DESTS (grown,
 * *CAP ints; the caller frees it) and E->dests_text into LINE; 0, or -1
 * if it is malformed (or memory ran out). */
int pg_livestream_event(const char *line, struct pg_live_ev *e, int **dests,
			size_t *cap);

#endif /* PANGAEA_LIVESTREAM_H */
