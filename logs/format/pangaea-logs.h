/*
 * pangaea-logs.h: the log formats of a Pangaea run (logs/format, part of
 * the in-task library; the files in docs/FORMATS.md): their writers and
 * readers, and the one reader of a run's folder (run.c).  The analyses
 * of the logs are declared in pangaea-analysis.h (logs/analysis), never
 * here: what a task links sees formats only.
 *
 *   task-LTID.comm  binary communication log: a fixed header, then one
 *                   varint-coded record per send, receive, spawn and end.
 *                   Written through a MAP_SHARED mapping, so what a task
 *                   logged is in the file even if the task is SIGKILLed.
 *   task-LTID.exec  text execution log: one spawn a line, hand-editable
 *                   (the host after each '@' says where replay runs a task).
 *
 * Both start with a format version (pangaea-formats.h); readers refuse
 * another version.  Bump PG_COMM_VERSION / PG_EXEC_VERSION on any change
 * of layout.
 */
#ifndef PANGAEA_LOGS_H
#define PANGAEA_LOGS_H

#include "pangaea-formats.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define PG_COMM_MAGIC "PGACOMM\n"
#define PG_HOST_MAX 256
#define PG_PATH_MAX 4096
#define PG_GROUP_MAX 256
#define PG_SELECT_MAX 1024

/* Record kinds of the communication log (one byte each; 0 ends the log). */
enum pg_rec_kind {
	PG_REC_SEND = 1,  /* pvm_send */
	PG_REC_RECV = 2,  /* successful pvm_recv */
	PG_REC_NRECV = 3, /* successful pvm_nrecv */
	PG_REC_TRECV = 4, /* successful pvm_trecv */
	PG_REC_SPAWN = 5, /* pvm_spawn (details in the exec log) */
	PG_REC_END = 6,   /* the task ended (how, value) */
	PG_REC_PROBE = 7, /* successful pvm_probe (the message it saw) */
	PG_REC_POLLFAIL = 8, /* COUNT failed pvm_nrecv/pvm_trecv/pvm_probe calls */
	PG_REC_MCAST = 9,  /* pvm_mcast: one message id, NDEST destinations */
	PG_REC_BCAST = 10, /* pvm_bcast to GROUP: its members when it was sent */
	PG_REC_PSEND = 11, /* pvm_psend (fields as a send) */
	PG_REC_PRECV = 12, /* successful pvm_precv (fields as a receive) */
	PG_REC_GROUP = 13, /* a group call: OP on GROUP with ARG gave RESULT */
	PG_REC_KILL = 14,  /* pvm_kill of the task PEER (fields as a send's,
			      tag, msgid and len 0), logged before the kill */
	PG_REC_CALL = 15   /* a query, mailbox call or pvm_exit: OP with
			      PEER, ARG, ARG2, NAME gave RESULT and the
			      data BLOB (version 4) */
};
#define PG_REC_LAST PG_REC_CALL
/* Not an event: a clock sample (version 5), kept apart by the reader
 * (pg_comm_reader.clock) and never returned by pg_comm_next. */
#define PG_REC_CLOCK 16
/* Not an event either: what logging one event costs this task, in ns,
 * measured when it opened its log (version 5, pg_comm_reader.calib_ns;
 * the overhead correction of logs/tracedb/overhead.c). */
#define PG_REC_CALIB 17
/* Not events either (version 8): what the program read from the clock
 * (PG_REC_TIME) and the seeds it gave its random numbers (PG_REC_SEED),
 * its source (enum pg_time_src, pg_seed_src) in bits 5-7 of the kind
 * byte.  pg_comm_next skips them unless the reader's values is set (then
 * they come as events of these kinds: op the source, arg the clock id or
 * getrusage's who, result the errno of a failed call (0: it worked),
 * nvals values at vals, a blob the bytes of getrandom/getentropy);
 * replay (pangaea_lib/clock) returns them to the program in their order. */
#define PG_REC_TIME 18
#define PG_REC_SEED 19
#define PG_KIND_SRC_SHIFT 5  /* the source's bits in the kind byte */
#define PG_VALUES_MAX 16     /* values of one such record, at most */

/* What a PG_REC_TIME record read (the values; all but time's and the
 * counters are stored as the difference from the previous read of the
 * same source). */
enum pg_time_src {
	PG_TIME_GETTIMEOFDAY = 0, /* gettimeofday: microseconds */
	PG_TIME_TIME = 1,         /* time: seconds */
	PG_TIME_REALTIME = 2,     /* clock_gettime(CLOCK_REALTIME): ns */
	PG_TIME_MONOTONIC = 3,    /* clock_gettime(CLOCK_MONOTONIC): ns */
	PG_TIME_CLOCKID = 4,      /* clock_gettime of another clock (arg): ns */
	PG_TIME_CLOCK = 5,        /* clock: its clock_t */
	PG_TIME_TIMES = 6,        /* times: its return, then tms_utime,
				     tms_stime, tms_cutime, tms_cstime */
	PG_TIME_RUSAGE = 7        /* getrusage(arg): ru_utime, ru_stime (us),
				     then the 14 longs in struct order */
};
#define PG_TIME_LAST PG_TIME_RUSAGE
/* PG_TIME_CLOCKID's clock id (arg) of MPI_Wtime's reads: no clock id of
 * the kernel's; the value is the bits of MPI_Wtime's double (a positive
 * double's bits grow with it: the deltas stay small). */
#define PG_CLOCKID_MPI_WTIME 0x4d505754
/* What a PG_REC_SEED record gave (absolute values). */
enum pg_seed_src {
	PG_SEED_SRAND = 0,        /* srand: the seed */
	PG_SEED_SRANDOM = 1,      /* srandom: the seed */
	PG_SEED_SRAND48 = 2,      /* srand48: the seed */
	PG_SEED_SEED48 = 3,       /* seed48: its three unsigned shorts */
	PG_SEED_INITSTATE = 4,    /* initstate: the seed */
	PG_SEED_GETRANDOM = 5,    /* getrandom: the bytes (blob) */
	PG_SEED_GETENTROPY = 6    /* getentropy: the bytes (blob) */
};
#define PG_SEED_LAST PG_SEED_GETENTROPY
/* The delta state of the time sources: slots of pg_comm_state.vlast. */
#define PG_COMM_VSLOTS 27

/* A receive's filter (version 6): struct pg_event.filter of a receive,
 * nrecv, trecv, probe, precv or pollfail record.  On file, bits of the
 * record's kind byte (PG_KIND_*); a reader of a version 3-5 log sets
 * PG_FILTER_UNKNOWN alone. */
#define PG_FILTER_ANYSRC 1   /* the source was -1 (any) */
#define PG_FILTER_ANYTAG 2   /* the tag was -1 (any) */
#define PG_FILTER_UNKNOWN 4  /* not logged (comm log version 3-5) */
#define PG_KIND_ANYSRC 0x20  /* kind byte bit of PG_FILTER_ANYSRC */
#define PG_KIND_ANYTAG 0x40  /* kind byte bit of PG_FILTER_ANYTAG */
#define PG_KIND_MASK 0x1f    /* the kind byte's kind */
/* Version 7: kind byte bit of a send-like or receive-like record whose
 * message id is the one expected (the previous send's + 1; the previous
 * receive's from that peer + 1) and is not stored. */
#define PG_KIND_NEXTID 0x80
/* Version 7: kind byte bits of an mcast or bcast record: the same
 * destinations as the previous mcast/bcast record (none stored), and of
 * a bcast: the same group as the previous bcast (no name stored). */
#define PG_KIND_SAMEDEST 0x40
#define PG_KIND_SAMEGROUP 0x20
/* Version 7: the longest destination list a writer keeps to compare. */
#define PG_COMM_LASTDESTS 64
/* Version 7: the ns per unit of the records' times that Pangaea's tasks
 * write (docs/FORMATS.md 2.3 says why this is fine enough). */
#define PG_COMM_TIME_UNIT 256
/* Version 7: peers a log gives an index (the rest are written out). */
#define PG_COMM_PEERS 1024
/* Version 9: the kind byte's kind of a repeat record is PG_REC_REPEAT +
 * the index of its message kind (send, recv, nrecv, trecv, probe, psend,
 * precv: PG_COMM_REPEATS of them, commlog-code.h): a record of that kind
 * with the peer, tag and length of the last record of that kind, which
 * are not stored; its filter and NEXTID bits as that kind's. */
#define PG_REC_REPEAT 20
#define PG_COMM_REPEATS 7

/* One clock sample: the best of K ping-pongs with the coordinator. */
struct pg_clock_sample {
	uint64_t t;      /* middle of the round trip, ns since the task's
			    start_mono (as an event's t) */
	int64_t offset;  /* reference (coordinator) CLOCK_REALTIME minus
			    this task's start_wall_ns + t, ns */
	uint64_t rtt;    /* the round trip, ns */
};

/* The calls of PG_REC_CALL (its op): their results differ from run to
 * run, so replay returns the recorded ones (docs/CALLS.md). */
enum pg_call_op {
	PG_Q_PSTAT = 1,       /* pvm_pstat: peer = the task (ltid, or
				 PG_PEER_FOREIGN with arg = its tid) */
	PG_Q_MSTAT = 2,       /* pvm_mstat: name = the host */
	PG_Q_TASKS = 3,       /* pvm_tasks: peer = the task asked of, or
				 PG_PEER_SYSTEM with arg = where (0, a host);
				 blob = the task list */
	PG_Q_CONFIG = 4,      /* pvm_config: blob = narch and the hosts */
	PG_Q_PUTINFO = 5,     /* pvm_putinfo: name, arg = flags; result =
				 the index */
	PG_Q_RECVINFO = 6,    /* pvm_recvinfo: name, arg = index, arg2 =
				 flags; blob = the message (pvm_pkmesg) */
	PG_Q_GETMBOXINFO = 7, /* pvm_getmboxinfo: name = the pattern; blob =
				 the classes */
	PG_Q_DELINFO = 8,     /* pvm_delinfo: name, arg = index, arg2 = flags */
	PG_Q_EXIT = 9,        /* pvm_exit: where the task left PVM; result =
				 its children still running then */
	/* The MPI binding (pangaea_lib/mpi): */
	PG_Q_MPI_DONE = 10,   /* an MPI_Test* or MPI_Wait* that completed
				 requests: arg = which call (1 Test, 2
				 Testany, 3 Testsome, 4 Testall, 5 Wait, 6
				 Waitany, 7 Waitsome, 8 Waitall), arg2 = the
				 requests it was given, result = how many
				 completed; blob = per completed request its
				 index and receive post number (0: a send),
				 int32 pairs, little-endian */
	PG_Q_MPI_COLL = 11    /* a collective: name = "MPI_Bcast" ..., arg
				 = the root's world rank (-1 none), arg2 =
				 this rank's bytes */
};
#define PG_Q_LAST PG_Q_MPI_COLL

/* Group calls (PG_REC_GROUP's op). */
enum pg_group_op {
	PG_GROUP_JOIN = 1,    /* pvm_joingroup: result = instance */
	PG_GROUP_LEAVE = 2,   /* pvm_lvgroup: result = PVM status */
	PG_GROUP_GETTID = 3,  /* pvm_gettid: arg = instance, result = ltid
				 (or a negative PVM error) */
	PG_GROUP_GETINST = 4, /* pvm_getinst: arg = ltid, result = instance */
	PG_GROUP_GSIZE = 5,   /* pvm_gsize: result = size */
	PG_GROUP_BARRIER = 6, /* pvm_barrier: arg = count, result = status */
	PG_GROUP_BCAST = 7    /* pvm_bcast that sent nothing: arg = tag,
				 result = PVM's error (PvmNoInst, ...) */
};
#define PG_GROUP_LAST PG_GROUP_BCAST

/* How a task ended: the end record's how (and PG_TAG_DONE's). */
enum pg_end_how {
	PG_END_EXIT = 1,     /* called pangaea_exit(); value unused */
	PG_END_NO_EXIT = 2,  /* exit() without pangaea_exit(); value = status */
	PG_END_SIGNAL = 3,   /* died of a signal; value = signal number */
	PG_END_DIVERGED = 4  /* replay stopped at a divergence; value = the
				event number it stopped at */
};
#define PG_END_LAST PG_END_DIVERGED

/* Senders of messages that carry no Pangaea message id (a receive's peer). */
#define PG_PEER_FOREIGN (-1) /* a task outside the run (uninstrumented) */
#define PG_PEER_SYSTEM (-2)  /* a pvmd: pvm_notify messages and the like */

/* Header flags. */
#define PG_COMM_LOOSE_POLLS 1u /* polls replayed as in the paper (outcomes
				  not logged); off = exact poll replay */

/* One event of a communication log. */
struct pg_event {
	int kind;         /* enum pg_rec_kind */
	int peer;         /* send: dest ltid; receive: source ltid (-1 foreign) */
	int tag;          /* PVM message tag */
	uint32_t msgid;   /* sender's message id (spawn: spawn sequence) */
	uint32_t len;     /* message bytes (spawn: tasks started) */
	uint64_t t;       /* call entry, ns since the task's start_mono */
	uint64_t dur;     /* ns spent in the call */
	int how;          /* end: enum pg_end_how */
	int value;        /* end: exit status or signal number */
	uint32_t count;   /* pollfail: failed polls in a row */
	int op;           /* group: enum pg_group_op; call: enum pg_call_op */
	int arg;          /* group: instance, ltid or count (see the op) */
	int result;       /* group, call: what the call returned (gettid: an
			     ltid) */
	int ndest;        /* mcast, bcast: number of destinations */
	int *dests;       /* mcast, bcast: their ltids (a reader's buffer,
			     valid until the next pg_comm_next) */
	int arg2;         /* call: a second argument (see the op) */
	uint32_t nblob;   /* call: bytes of BLOB */
	const unsigned char *blob; /* call: the data it returned (a reader's
				      buffer, valid while the reader is open) */
	char group[PG_GROUP_MAX]; /* bcast, group: the group's name; call:
				     its name argument */
	int filter;       /* receive, poll, pollfail: PG_FILTER_* bits (a
			     pollfail: a bit set if any of its polls had
			     it) */
	int nvals;        /* time, seed: number of values at VALS */
	const int64_t *vals; /* time, seed: the values (a reader's buffer,
				valid until the next pg_comm_next) */
};

/* A clock read or a seed, as a task writes it (pg_comm_append_value). */
struct pg_value {
	int kind;         /* PG_REC_TIME or PG_REC_SEED */
	int src;          /* enum pg_time_src or pg_seed_src */
	int arg;          /* PG_TIME_CLOCKID: the clock id; PG_TIME_RUSAGE:
			     who */
	int status;       /* 0, or the errno of a call that failed (clockid,
			     rusage, getrandom, getentropy: no values then) */
	int64_t v[PG_VALUES_MAX]; /* the values (as many as the source has) */
	uint32_t nblob;   /* getrandom, getentropy: the bytes */
	const unsigned char *blob;
};

/* The fixed header of a communication log. */
struct pg_comm_header {
	uint32_t version;        /* a writer writes this version's layout
				    (3 to PG_COMM_VERSION; 0: the current) */
	int32_t ltid;
	int32_t tid;
	int32_t parent_ltid;
	uint32_t mode;           /* 1 record, 2 replay */
	uint64_t start_wall_ns;  /* CLOCK_REALTIME at pangaea_init */
	uint64_t start_mono_ns;  /* CLOCK_MONOTONIC at pangaea_init */
	char host[PG_HOST_MAX];
	char program[PG_PATH_MAX];
	uint32_t flags;          /* PG_COMM_* */
	char select[PG_SELECT_MAX]; /* the -select of the run, "" = all */
	uint32_t time_unit;      /* ns per unit of the records' times
				    (version 7; 0 is written as 1; a reader
				    of an older log gives 1) */
};

/* A peer of a version 7 log's table, and what its next record is
 * expected to hold. */
/* Version 9: the last record of a message kind, which a repeat record
 * repeats. */
struct pg_comm_rep {
	int peer;
	int idx1;               /* the peer's index + 1; 0: nothing to repeat
				   (none yet, or a peer without an index) */
	int tag;
	uint32_t len;
};

struct pg_comm_peer {
	int ltid;
	uint32_t last;          /* id of the last message received from it */
	uint32_t step;          /* the last two such ids' difference (1 at
				   first): the next is expected last + step */
	uint32_t len;           /* length of the last message to or from it */
};

/* What records of a version 7 log are coded against: the writer's and
 * the reader's copy evolve alike, record by record. */
struct pg_comm_state {
	uint32_t version;       /* of the log: 3-6 write all out, unit 1 */
	uint64_t unit;          /* ns per time unit (1: exact) */
	uint64_t last_t;        /* t of the previous record (a multiple of
				   unit): records store deltas */
	uint32_t last_sent;     /* id of the last message sent */
	int npeers;             /* peers with an index (<= PG_COMM_PEERS) */
	struct pg_comm_peer *peer; /* the table, index -> peer */
	int nlast_dests;        /* destinations of the last mcast/bcast
				   (-1: none; a writer: none kept) */
	int have_group;         /* a bcast came before: last_group is set */
	char last_group[PG_GROUP_MAX]; /* the last bcast's group */
	int64_t vlast[PG_COMM_VSLOTS]; /* version 8: the last value read of
					  each time source's fields */
	struct pg_comm_rep rep[PG_COMM_REPEATS]; /* version 9: per message
					  kind, what a repeat repeats */
};

/* Appends events to a communication log through a shared mapping. */
struct pg_comm_writer {
	int fd;
	unsigned char *map;
	size_t cap;      /* mapped (and file) size */
	size_t used;     /* bytes written */
	struct pg_comm_state st; /* its peer points below */
	struct pg_comm_peer peers[PG_COMM_PEERS];
	int last_dests[PG_COMM_LASTDESTS]; /* the last mcast/bcast's */
	uint16_t slot[2 * PG_COMM_PEERS]; /* hash of peers: index + 1, 0 free */
};

/* Reads a communication log from memory. */
struct pg_comm_reader {
	unsigned char *data;
	size_t size;
	size_t pos;      /* offset of the next record */
	size_t at;       /* offset of the record pg_comm_next read last */
	struct pg_comm_state st; /* its tables malloc'd (pg_comm_free) */
	size_t peer_cap;
	int ended;       /* an end record or the zero tail was reached */
	int *dests;      /* destinations of the last mcast/bcast read */
	int dests_cap;
	struct pg_comm_header hdr;
	char path[PG_PATH_MAX];
	struct pg_clock_sample *clock; /* the clock samples read so far */
	int nclock;
	size_t clock_cap;
	uint64_t calib_ns; /* the calibration record's ns (0: none read) */
	/* following a log being written (pg_comm_follow): DATA holds the
	   file's bytes from BASE on; what was decoded is kept to undo a
	   record found cut off at the end of what was read */
	size_t base;       /* file offset of data[0] */
	size_t cap;        /* bytes allocated at DATA */
	int fd;            /* the file followed (-1: none) */
	int cut;           /* the last pg_comm_next found a record cut off */
	int done;          /* its end record was read */
	int values;        /* return clock reads and seeds as events (set
			      by the caller after opening) */
	int64_t vals[PG_VALUES_MAX]; /* the values of the last one */
	struct pg_comm_state saved; /* the state before the record */
	struct pg_comm_peer *saved_peer; /* and its peer table */
	size_t saved_cap;
	int saved_nclock;
	uint64_t saved_calib;
};

/* Creates PATH and writes the header; 0, or -1 with ERR filled. */
int pg_comm_create(struct pg_comm_writer *w, const char *path,
		   const struct pg_comm_header *h, char *err, size_t errlen);
/* Appends EV (kind must be set), reserving its disk space first; 0, or
 * -1 with errno (ENOSPC: disk full) if the file cannot grow. */
int pg_comm_append(struct pg_comm_writer *w, const struct pg_event *ev);
/* Appends EV (not mcast, bcast or group) into the space every append
 * keeps spare for two such records (a poll count and the end record),
 * never growing: async-signal-safe.  0, or -1 if there is no room. */
int pg_comm_append_reserved(struct pg_comm_writer *w,
			    const struct pg_event *ev);
/* Appends the clock sample S (its times absolute, not touching the
 * writer's last_t); 0, or -1 with errno as pg_comm_append. */
int pg_comm_append_clock(struct pg_comm_writer *w,
			 const struct pg_clock_sample *s);
/* Appends the clock read or seed V (coded against the previous ones of
 * its source); 0, or -1 with errno as pg_comm_append (EINVAL: a log
 * before version 8, or a source or size out of range). */
int pg_comm_append_value(struct pg_comm_writer *w, const struct pg_value *v);
/* Appends a calibration record: logging one event costs NS; 0, or -1
 * with errno as pg_comm_append. */
int pg_comm_append_calib(struct pg_comm_writer *w, uint64_t ns);
/* Encodes EV as pg_comm_append would (its t as a delta from 0) into P,
 * which has room for it; the bytes (for a calibration). */
size_t pg_comm_encode(unsigned char *p, const struct pg_event *ev);
/* Trims the file to what is written, leaving it mapped and open
 * (async-signal-safe); 0 or -1 with errno. */
int pg_comm_trim_reserved(struct pg_comm_writer *w);
/* Trims the file to its contents, unmaps and closes it; 0, or -1 with
 * errno if the trim or the close failed. */
int pg_comm_close(struct pg_comm_writer *w);

/* Loads PATH and checks magic and version; 0, or -1 with ERR filled. */
int pg_comm_open(struct pg_comm_reader *r, const char *path, char *err,
		 size_t errlen);
/* Next event: 1 got one, 0 end of log, -1 corrupt (ERR names the offset). */
int pg_comm_next(struct pg_comm_reader *r, struct pg_event *ev, char *err,
		 size_t errlen);
/* Frees what pg_comm_open loaded. */
void pg_comm_free(struct pg_comm_reader *r);
/* Starts following PATH, a log its task may still be writing through its
 * shared mapping (pg_comm_append stores a record's kind byte last): 1
 * its header was read, 0 not there or not written yet (try again), -1
 * with ERR (not a communication log).  pg_comm_free ends it. */
int pg_comm_follow(struct pg_comm_reader *r, const char *path, char *err,
		   size_t errlen);
/* The next event of a followed log: 1 got one, 0 none written yet (or
 * the log has ended: R->done once its end record came), -1 corrupt
 * (ERR).  Reads the file from the first record not decoded yet on; a
 * record cut off at the end of what was read is read again next time.
 * EV's dests and blob stay valid until the next call. */
int pg_comm_follow_next(struct pg_comm_reader *r, struct pg_event *ev,
			char *err, size_t errlen);
/* The wall-clock time of t = 0 in log I of the N logs R of a run (their
 * headers read; OK[j] set for those that opened): its start_mono_ns plus
 * the offset between CLOCK_REALTIME and CLOCK_MONOTONIC on its host.
 * Each header gives that offset as start_wall_ns - start_mono_ns, too
 * large by the time between the two clock reads; the smallest over the
 * logs of a host is the best estimate, and keeps a host's tasks on one
 * clock.  (The importer's times and the viewer's, read from the logs.) */
uint64_t pg_comm_base(const struct pg_comm_reader *r,
		      const unsigned char *ok, int n, int i);

/* Encodes V as a LEB128 varint into P (10 bytes room); returns bytes used. */
size_t pg_varint_put(unsigned char *p, uint64_t v);
/* Decodes a varint from P[0..n); bytes used, or 0 if cut off or too long. */
size_t pg_varint_get(const unsigned char *p, size_t n, uint64_t *v);

/* One slot of a spawn: the child's ltid and host, or a PVM error code. */
struct pg_spawn_slot {
	int ltid;                /* 0 when the slot failed */
	int err;                 /* negative PVM error when the slot failed */
	char host[PG_HOST_MAX];
};

/* One spawn of the execution log. */
struct pg_spawn_rec {
	int seq;                 /* 1, 2, ... in the task's spawn order */
	char file[PG_PATH_MAX];
	int flags;
	char where[PG_HOST_MAX];
	int ntask;
	int started;
	int argc;
	char **argv;             /* argc strings, NULL-terminated */
	struct pg_spawn_slot *slots; /* ntask entries */
};

/* How the launcher started the programs of its command line (the
 * "start" line of task-0.exec). */
enum {
	PG_START_TOGETHER = 0,  /* all at once (no "start" line) */
	PG_START_STAGED = 1,    /* each once the previous one waits or ended */
	PG_START_STAGGER = 2    /* each START_MS after the previous one */
};

/* A task's execution log, as read. */
struct pg_exec_log {
	int version;             /* of its head line: 1 or PG_EXEC_VERSION */
	int ltid;
	int nspawn;
	struct pg_spawn_rec *spawns;
	int start;               /* PG_START_*, from its "start" line */
	int start_ms;            /* PG_START_STAGGER: the delay */
};

/* Creates PATH with its header line; an fd for pg_exec_append, or -1. */
int pg_exec_create(const char *path, int ltid, char *err, size_t errlen);
/* Writes REC as one line with a single write() (a short one is followed
 * by another, for the rest or the reason); 0, or -1 with errno. */
int pg_exec_append(int fd, const struct pg_spawn_rec *rec);
/* Writes the launcher's "start" line for HOW (PG_START_*, MS for
 * PG_START_STAGGER) with one write(); 0, or -1 with errno. */
int pg_exec_append_start(int fd, int how, int ms);
/* Parses PATH; 0, or -1 with ERR naming the file and line. */
int pg_exec_read(const char *path, struct pg_exec_log *log, char *err,
		 size_t errlen);
/* Frees what pg_exec_read allocated. */
void pg_exec_free(struct pg_exec_log *log);
/* Frees the argv and slots of one record. */
void pg_spawn_rec_free(struct pg_spawn_rec *rec);

/* stdin.log (logs/format/stdinlog.c): the standard input given to a task (1
 * unless -stdin said another). */
#define PG_STDIN_CHUNK_MAX 65536 /* bytes of one "data" record */
struct pg_stdin_log {
	char *data;              /* every chunk's bytes, one after another */
	size_t len;
	size_t *chunks;          /* the length of each chunk */
	size_t nchunks;
	int eof;                 /* the input ended ("eof" record) */
	int ltid;                /* the task that read it (1 in version 1) */
};
/* Creates PATH (new, 0600) with its head line naming task LTID (>= 1);
 * an fd, or -1 with ERR. */
int pg_stdin_create(const char *path, int ltid, char *err, size_t errlen);
/* Writes the chunk DATA (1..PG_STDIN_CHUNK_MAX bytes) with one write();
 * 0, or -1 with errno. */
int pg_stdin_append(int fd, const char *data, size_t n);
/* Writes the end-of-input record; 0, or -1 with errno. */
int pg_stdin_append_eof(int fd);
/* Reads PATH into LOG; 0, or -1 with ERR naming the file and offset. */
int pg_stdin_read(const char *path, struct pg_stdin_log *log, char *err,
		  size_t errlen);
/* Frees what pg_stdin_read allocated. */
void pg_stdin_free(struct pg_stdin_log *log);

/* Times a log may hold (docs/FORMATS.md, section 5): a header's start
 * times are below PG_WALL_MAX ns (2^62, the year 2116), an event's time
 * since its task's start plus its duration below PG_TIME_MAX ns (2^61,
 * 73 years).  Readers refuse others: sums of them cannot overflow. */
#define PG_WALL_MAX ((uint64_t)1 << 62)
#define PG_TIME_MAX ((uint64_t)1 << 61)

/* openlog.c: the one way a reader opens a log file, and the one way a
 * writer writes a whole piece of one. */
/* Opens PATH for reading without blocking (a FIFO) or following a link,
 * and refuses what is not a regular file ("PATH: not a regular file (a
 * FIFO)", "PATH: is a directory, not a log").  A blocking fd, or -1 with
 * ERR naming PATH and errno kept (ENOENT: there is none). */
int pg_open_log(const char *path, char *err, size_t errlen);
/* pg_open_log as a stdio stream for reading; NULL with ERR and errno. */
FILE *pg_fopen_log(const char *path, char *err, size_t errlen);
/* Writes the N bytes at P to FD with as many write()s as it takes (EINTR
 * retried); 0, or -1 with errno (ENOSPC for a write of 0 bytes). */
int pg_write_log(int fd, const void *p, size_t n);
/* The text logs with a "MAGIC VERSION" first line (stdin.log,
 * output.log): */
/* mkdir -p DIR: the folders above it 0755, DIR itself with MODE (those
 * that exist are left as they are); 0 or -1 with errno. */
int pg_mkdir_p(const char *dir, mode_t mode);
/* Creates PATH new (0600, O_EXCL, never through a link, O_APPEND) and
 * writes its first line "MAGIC VERSION", or "MAGIC VERSION REST" if REST
 * is not NULL; an fd, or -1 with ERR. */
int pg_create_text_log(const char *path, const char *magic, int version,
		       const char *rest, char *err, size_t errlen);
/* Opens PATH (pg_fopen_log) and reads its first line, which must be
 * "MAGIC VERSION" ("PATH: not a Pangaea WHAT (no 'MAGIC VERSION' first
 * line)", "PATH: log format version N, this Pangaea reads version V");
 * the stream after it, or NULL with ERR. */
FILE *pg_fopen_text_log(const char *path, const char *magic, int version,
			const char *what, char *err, size_t errlen);
/* Reads one "\n"-ended line of at most N-1 bytes from F into BUF; 0 or
 * -1 (end of file, too long, or a NUL in it). */
int pg_log_line(FILE *f, char *buf, size_t n);

/* Path of a task's log: DIR/task-LTID.SUFFIX into BUF; 0 or -1 if too long. */
int pg_log_path(char *buf, size_t n, const char *dir, int ltid,
		const char *suffix);
/* event.c: the events in words. */
/* What an event of a kind does with a message (the one place that says
 * which kinds send and which receive). */
enum pg_kind_class {
	PG_CLASS_OTHER = 0, /* spawn, end, pollfail, group: no message */
	PG_CLASS_SEND,      /* send, psend, mcast, bcast: sends one */
	PG_CLASS_RECV,      /* recv, nrecv, trecv, precv: takes one */
	PG_CLASS_PROBE      /* probe: sees one without taking it */
};
/* The class of KIND (a record kind) in two bits of a word, for
 * pg_rec_kind_class. */
#define PG_CLASS_OF(kind, cls) ((uint32_t)(cls) << 2 * (kind))
/* The class of record kind KIND (PG_CLASS_OTHER if unknown).  Inline,
 * one shift of a constant: the replay engine asks it at every call. */
static inline enum pg_kind_class pg_rec_kind_class(int kind)
{
	_Static_assert(PG_REC_LAST < 16, "two bits a kind in 32");
	const uint32_t classes =
		PG_CLASS_OF(PG_REC_SEND, PG_CLASS_SEND) |
		PG_CLASS_OF(PG_REC_RECV, PG_CLASS_RECV) |
		PG_CLASS_OF(PG_REC_NRECV, PG_CLASS_RECV) |
		PG_CLASS_OF(PG_REC_TRECV, PG_CLASS_RECV) |
		PG_CLASS_OF(PG_REC_PROBE, PG_CLASS_PROBE) |
		PG_CLASS_OF(PG_REC_MCAST, PG_CLASS_SEND) |
		PG_CLASS_OF(PG_REC_BCAST, PG_CLASS_SEND) |
		PG_CLASS_OF(PG_REC_PSEND, PG_CLASS_SEND) |
		PG_CLASS_OF(PG_REC_PRECV, PG_CLASS_RECV);

	return (unsigned)kind <= PG_REC_LAST
		       ? (enum pg_kind_class)(classes >> 2 * kind & 3u)
		       : PG_CLASS_OTHER;
}
/* Name of a record kind ("send", "recv", ...; "?" if unknown). */
const char *pg_rec_kind_name(int kind);
/* The record kind named NAME, or 0. */
int pg_rec_kind_of(const char *name);
/* The call of a clock read's (KIND PG_REC_TIME) or seed's (PG_REC_SEED)
 * source SRC: "gettimeofday", "srand", ...; "?" if unknown. */
const char *pg_value_src_name(int kind, int src);
/* A clock read's or seed's event EV in words into BUF (N bytes):
 * "gettimeofday = 1732723012123456", "getrusage(0) = ...",
 * "getrandom = 16 bytes 0a1b...". */
void pg_value_describe(const struct pg_event *ev, char *buf, size_t n);
/* Name of the PVM call of a group op ("joingroup", "gettid", ...). */
const char *pg_group_op_name(int op);
/* The group op named NAME, or 0. */
int pg_group_op_of(const char *name);
/* Name of an end of a task ("pangaea_exit", "exit", "signal",
 * "diverged"), or NULL if HOW is none of enum pg_end_how. */
const char *pg_end_how_name(int how);
/* The end named NAME, or 0. */
int pg_end_how_of(const char *name);
/* Name of the PVM call of a PG_REC_CALL op ("pstat", "recvinfo", ...;
 * "?" if unknown). */
const char *pg_call_op_name(int op);
/* The PG_REC_CALL op named NAME, or 0. */
int pg_call_op_of(const char *name);
/* The op named NAME of an event of KIND (a call's or a group call's, as
 * the trace database stores it), or 0. */
int pg_op_of(int kind, const char *name);
/* The call record EV in words into BUF (N bytes): "pvm_pstat(task 2)",
 * with WITH_RESULT " = 0" and the size of its data. */
void pg_call_describe(const struct pg_event *ev, int with_result, char *buf,
		      size_t n);
/* The PVM calls, numbered for tables: a call that makes a record has its
 * kind's number, a group call PG_CALL_GROUP + its op, a query, mailbox
 * call or pvm_exit PG_CALL_QUERY + its op. */
#define PG_CALL_GROUP 20
#define PG_CALL_QUERY (PG_CALL_GROUP + PG_GROUP_LAST + 1)
#define PG_CALL_MAX (PG_CALL_QUERY + PG_Q_LAST + 1) /* numbers < this */
/* The call of an event of record kind KIND (and group op OP), or 0 when
 * it is no call of its own (an end, failed polls, an unknown kind). */
int pg_call_of(int kind, int op);
/* names.c: the names of a run's calls, its binding's. */
struct pg_names {
	const char *binding;      /* "pvm", "mpi" */
	const char *layer;        /* "PVM", "MPI" ("PVM calls") */
	const char *machine;      /* what runs the tasks ("MPI job") */
	const char *world;        /* the communicator of all tasks */
	const char *prefix;       /* put before PVM's base names ("pvm_"),
				     NULL: only the calls below */
	const char *failed_polls; /* the calls of a pollfail record */
	const char *end;          /* the calls that end a task */
	const char *other_calls;  /* the calls of call records (PG_REC_CALL) */
	const char *calls[PG_CALL_MAX]; /* a call's own name, else NULL */
};
/* PVM's names ("pvm_send") and the MPI binding's ("MPI_Send"). */
extern const struct pg_names pg_names_pvm, pg_names_mpi;
/* The names of the run whose logs are in DIR: MPI's when its launcher's
 * execution log (task-0.exec) holds one spawn of an MPI launcher (the
 * launcher's test of an MPI recording), else PVM's. */
const struct pg_names *pg_names_of_run(const char *dir);
/* Whether WORD (a path or name) is an MPI launcher: mpirun, mpiexec,
 * orterun, mpirun.X, mpiexec.X; 1 or 0. */
int pg_mpi_launcher(const char *word);
/* The name of call CALL (pg_call_of numbering) in NM ("pvm_send",
 * "pvm_joingroup", "MPI_Send") into BUF (N bytes); BUF, or NULL when
 * CALL is no call of NM's binding. */
const char *pg_call_name(const struct pg_names *nm, int call, char *buf,
			 size_t n);
/* The call(s) an event of record KIND comes from, in NM, into BUF (N
 * bytes): pg_call_name's, or for failed polls, ends, group and call
 * records (whose op says more) a phrase; BUF. */
const char *pg_kind_call_name(const struct pg_names *nm, int kind, char *buf,
			      size_t n);
/* Whether A and B have the same destination list (pvm_mcast/pvm_bcast:
 * the same tasks in the same order); 1 or 0. */
int pg_event_same_dests(const struct pg_event *a, const struct pg_event *b);
/* Describes EV in words into BUF (for reports); times left out. */
void pg_event_describe(const struct pg_names *nm, const struct pg_event *ev,
		       char *buf, size_t n);

/* run.c: the one reader of a run's log folder. */
/*
 * The ltids of DIR's task-LTID.SUFFIX files ("comm", "exec"), ascending,
 * into *OUT (malloc'd, free it; NULL when none); their count, or -1 if
 * DIR cannot be read or memory runs out.
 */
int pg_run_ltids(const char *dir, const char *suffix, int **out);
/* Whether LTID is among the N ascending LTIDS (as pg_run_ltids gives
 * them); 1 or 0. */
int pg_run_has(const int *ltids, int n, int ltid);
/* A run's folder: the tasks it has a communication log of, read in
 * ltid order.  Start with pg_run_open, end with pg_run_close. */
struct pg_run {
	const char *dir;           /* the folder (the caller's string) */
	int *ltids;                /* the tasks with a task-LTID.comm,
				      ascending */
	int n;
	int i;                     /* the index of the task pg_run_next or
				      pg_run_open_all came to last (-1:
				      none yet) */
	struct pg_comm_reader *rd; /* pg_run_open_all: task i's log */
	unsigned char *ok;         /*   and whether rd[i] is open */
};
/* Lists the tasks of folder DIR into RUN; 0, or -1 with ERR ("cannot
 * read the folder DIR"; RUN then empty). */
int pg_run_open(struct pg_run *run, const char *dir, char *err,
		size_t errlen);
/* Opens DIR/task-LTID.comm into R (pg_comm_open); 0, or -1 with ERR. */
int pg_run_comm(struct pg_comm_reader *r, const char *dir, int ltid,
		char *err, size_t errlen);
/* Opens the comm log of RUN's next task into R (its index then in
 * run->i; pg_comm_free it): 1; 0 when no task is left; -1 when that one
 * cannot be opened (ERR says why; the next call goes on after it). */
int pg_run_next(struct pg_run *run, struct pg_comm_reader *r, char *err,
		size_t errlen);
/* Opens the comm logs of RUN's tasks after run->i all at once, task i's
 * into run->rd[i] (run->ok[i] set): 0; -1 at one that cannot be opened
 * (run->i names it, ERR says why: call again to go on after it); -2
 * when memory runs out (ERR). */
int pg_run_open_all(struct pg_run *run, char *err, size_t errlen);
/* pg_comm_base of task I of RUN, among the logs pg_run_open_all opened. */
uint64_t pg_run_base(const struct pg_run *run, int i);
/* Closes what RUN opened, frees it and leaves it { 0 }. */
void pg_run_close(struct pg_run *run);
/* Counts the tasks and events of the run in DIR; 0 or -1 (ERR says why). */
int pg_run_count(const char *dir, long *nevents, int *ntasks, char *err,
		 size_t n);

/* grow.c: memory that grows. */
/*
 * Makes the array V (elements of SIZE bytes, *CAP of them allocated) hold
 * at least NEED elements, doubling its room (MIN at first).  Returns the
 * array, moved or not (*CAP updated), or NULL when memory runs out (V and
 * *CAP unchanged).  Start from NULL and 0; NEED must be at least 1.
 */
void *pg_grow(void *v, size_t *cap, size_t need, size_t size, size_t min);

/* A growable string; start from { 0 }, end with pg_strbuf_free. */
struct pg_strbuf {
	char *p;         /* the text, NUL-terminated; NULL until the first add */
	size_t len, cap; /* bytes used (without the NUL), bytes allocated */
};
/* Appends N bytes of S to B; 0, or -1 when out of memory (B unchanged). */
int pg_strbuf_add(struct pg_strbuf *b, const char *s, size_t n);
/* Appends printf-style text to B, however long; 0 or -1. */
int pg_strbuf_printf(struct pg_strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Empties B, keeping its memory. */
void pg_strbuf_reset(struct pg_strbuf *b);
/* Frees B's memory and leaves it empty ({ 0 }). */
void pg_strbuf_free(struct pg_strbuf *b);

/*
 * task-LTID.state: what a task of a run is doing now, for the launcher's
 * deadlock check (docs/FORMATS.md).  A fixed binary layout in the host's
 * byte order (the reader uses differences of its times only: hosts that
 * share the folder have other clocks), PG_STATE_SIZE bytes,
 * mapped MAP_SHARED by the task (pangaea_lib/engine/state.c) and written around
 * its blocking calls; the launcher reads it (toplevel/deadlock.c).  SEQ
 * is odd while the task writes: a reader that sees it odd, or changed
 * between two reads of the same copy, reads again later.
 */
#define PG_STATE_MAGIC "PGASTAT\n"
struct pg_state {
	char magic[8];            /* PG_STATE_MAGIC */
	uint32_t version;         /* PG_STATE_VERSION */
	int32_t ltid;
	uint32_t seq;             /* +1 before and after each change */
	int32_t call;             /* 0: not blocked; else the call it is
				     blocked in (pg_call_of numbering, or
				     PG_STATE_COLLECT + a collective op) */
	int32_t src;              /* its source filter: a PVM tid, -1 any */
	int32_t tag;              /* its tag filter (-1 any); barrier: count */
	uint64_t since_mono_ns;   /* CLOCK_MONOTONIC when it blocked */
	uint64_t since_t;         /* the same, ns since the task's start */
	uint64_t deadline_mono_ns; /* pvm_trecv with a timeout: its end; 0 */
	int32_t want;             /* replay: 1 it waits for the recorded
				     message WANT_SRC / WANT_MSGID */
	int32_t want_src;
	uint32_t want_msgid;
	uint32_t pad;
	char group[64];           /* barrier: the group */
};
#define PG_STATE_SIZE 256     /* the file's size (room to grow) */
/* pvm_reduce, pvm_gather, pvm_scatter (ops 1, 2, 3 of collect.c) waiting
 * for a member's part: calls 41, 42, 43 (above every pg_call_of call). */
#define PG_STATE_COLLECT 40
/* The task's replay diverged and it is leaving (an MPI rank in
 * PMPI_Abort): the launcher ends the run if it goes on
 * (toplevel/mpirun.c). */
#define PG_STATE_DIVERGED 50

/* runinfo.c: run.info, the launcher's account of a run. */
/* One task of the run as the launcher saw it. */
struct pg_runinfo_task {
	int ltid, tid;
	int how, value;           /* its end record's (0/0: none, killed) */
	char host[PG_HOST_MAX];
	char program[PG_PATH_MAX];
	char end_text[256];       /* how it ended, in words */
	int line;                 /* as read: its line in run.info */
};

/* A host of the virtual machine and its PVM architecture (run.info's
 * arch lines: only when the hosts had more than one). */
struct pg_runinfo_arch {
	char host[PG_HOST_MAX];
	char arch[32];
};

/* What run.info says (a run killed early has none). */
struct pg_runinfo {
	int version;              /* as read: PG_RUNINFO_VERSION */
	char mode[16];            /* "record" or "replay" */
	char ended[64];           /* UTC time of writing, ISO 8601 */
	char launcher_host[PG_HOST_MAX];
	char command[8192];       /* the launcher's command line */
	char replay_of[PG_PATH_MAX]; /* replays: the recording; else "" */
	char select[PG_SELECT_MAX];  /* the run's -select; "" = all */
	struct pg_runinfo_task *tasks; /* in the order the launcher learnt them */
	size_t ntasks, cap;
	char diverged[1400];      /* the first divergence report, or "" */
	int status;               /* the launcher's exit status */
	int chaos;                /* a chaos recording (-chaos; version 2) */
	unsigned chaos_seed;      /*   its seed (PANGAEA_SEED repeats it) */
	struct pg_runinfo_arch *archs; /* the hosts' architectures, if */
	size_t narchs;            /*   more than one (arch lines) */
};

/* Writes RI as DIR/run.info; 0, or -1 with ERR (a failed write is said,
 * never ignored). */
int pg_runinfo_write(const char *dir, const struct pg_runinfo *ri, char *err,
		     size_t errlen);
/* Appends T to RI's tasks; 0, or -1 when memory runs out. */
int pg_runinfo_add_task(struct pg_runinfo *ri,
			const struct pg_runinfo_task *t);
/* Reads DIR/run.info into RI: 1 read, 0 there is none (RI empty), -1 it
 * cannot be read or has another format version (ERR says which). */
int pg_runinfo_read(const char *dir, struct pg_runinfo *ri, char *err,
		    size_t errlen);
/* Notes in RI that HOST's architecture is ARCH; 0, or -1 when memory
 * runs out. */
int pg_runinfo_add_arch(struct pg_runinfo *ri, const char *host,
			const char *arch);
/* The architecture RI names for HOST, or NULL (none said: one for all). */
const char *pg_runinfo_arch(const struct pg_runinfo *ri, const char *host);
/* RI's line for task LTID, or NULL. */
const struct pg_runinfo_task *pg_runinfo_task(const struct pg_runinfo *ri,
					      int ltid);
/* The rule for a log R of task LTID read to its end (ENDED: its last
 * record was the end record): a log that stops without its end record is
 * what a killed task leaves, but if run.info says the task ended it was
 * cut.  0, or -1 with ERR naming the file and offset. */
int pg_runinfo_check_end(const struct pg_runinfo *ri, int ltid,
			 const struct pg_comm_reader *r, int ended, char *err,
			 size_t errlen);
/* Frees what pg_runinfo_read or pg_runinfo_add_task allocated. */
void pg_runinfo_free(struct pg_runinfo *ri);

/* logship.c: logs carried between hosts (pangaea_lib/pvm/ship.c sends them). */
/* Makes the log folder DIR (0700, pg_mkdir_p) if this host lacks it; it
 * must then be a folder of ours, not a link; 0 or -1 with ERR and errno. */
int pg_log_dir_make(const char *dir, char *err, size_t errlen);
/* Whether NAME is a task log's name (task-LTID.comm, task-LTID.exec). */
int pg_logship_name_ok(const char *name);
/* The task logs of DIR (regular files), in name order, into *NAMES (free
 * with pg_logship_free); 0 (none if DIR does not exist) or -1. */
int pg_logship_list(const char *dir, char ***names, int *n);
void pg_logship_free(char **names, int n);
/* Reads up to MAX bytes at OFFSET of DIR/NAME into BUF, its size into
 * *SIZE; the bytes read, or -1 with ERR. */
int pg_logship_read(const char *dir, const char *name, int offset, void *buf,
		    int max, int *size, char *err, size_t errlen);
/* Puts pieces back into files, one file after another. */
struct pg_logship_writer {
	int fd;           /* the file being written, -1 none: init to -1 */
	char path[PG_PATH_MAX + 80], part[PG_PATH_MAX + 90]; /* its place, and
				where it is written until complete */
	int written, same; /* files put in place; files the folder had
			      already, byte for byte */
};
/* Writes the piece of N bytes at OFFSET of the file NAME (SIZE bytes) of
 * folder DIR, made if missing; offset 0 starts the file, the last piece
 * puts it in place (unless the folder's copy is the same); 0, or -1 with
 * ERR for a bad name or piece, or a failed write. */
int pg_logship_put(struct pg_logship_writer *w, const char *dir,
		   const char *name, int size, int offset, const void *data,
		   int n, char *err, size_t errlen);
/* Drops the file being written, if any (unfinished). */
void pg_logship_close(struct pg_logship_writer *w);

/* output.log (logs/format/outlog.c): what the run's tasks printed, as the
 * launcher received it. */
#define PG_OUTPUT_PIECE_MAX (1 << 20) /* bytes of one record */
struct pg_out_piece {
	int ltid;                /* -1: a task the launcher did not know */
	int nl;                  /* it ended a line ("line"), or not ("part") */
	int64_t ns;              /* wall-clock ns when the launcher got it */
	size_t off, len;         /* its bytes in the log's data */
};
struct pg_out_log {
	struct pg_out_piece *pieces; /* in the file's order */
	size_t n, cap;
	char *data;              /* every piece's bytes, NUL after the last */
	size_t len, data_cap;
};
/* Creates PATH (new, 0600) with its head line; an fd, or -1 with ERR. */
int pg_outlog_create(const char *path, char *err, size_t errlen);
/* The wall-clock time in ns (the NS of a record). */
int64_t pg_outlog_now(void);
/* Writes one record (N <= PG_OUTPUT_PIECE_MAX bytes P of task LTID got at
 * NS, NL: it ended a line) with one write(); 0, or -1 with errno. */
int pg_outlog_append(int fd, int ltid, int64_t ns, int nl, const char *p,
		     size_t n);
/* Reads PATH into LOG; 0, or -1 with ERR naming the file and offset
 * (LOG then holds the records before the damage, for a salvage).  Free
 * LOG with pg_outlog_free either way. */
int pg_outlog_read(const char *path, struct pg_out_log *log, char *err,
		   size_t errlen);
/* Frees what pg_outlog_read allocated. */
void pg_outlog_free(struct pg_out_log *log);

#endif /* PANGAEA_LOGS_H */
