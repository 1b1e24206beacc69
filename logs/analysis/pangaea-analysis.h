/*
 * pangaea-analysis.h: the analyses of a run's logs (logs/analysis,
 * libpg-analysis.a): comparing runs, checking a recording's logs against
 * each other, the hosts' clocks, the happens-before relation and the
 * races.  They read the logs through pangaea-logs.h; the in-task library
 * never links them.  (The matcher, the controlled logical clock, the
 * tasks' states, the deadlock and the what-if rules have headers of their
 * own: match.h, logical-clock.h, taskstate.h, deadlock.h, whatif.h.)
 */
#ifndef PANGAEA_ANALYSIS_H
#define PANGAEA_ANALYSIS_H

#include "pangaea-logs.h"

#include <stddef.h>
#include <stdint.h>

/* run-compare.c: comparing two runs. */
/*
 * Compares the communication logs of runs A and B event by event (sends,
 * receives, spawns, poll outcomes; times ignored).  Returns 0 if they
 * match (*NEVENTS, *NTASKS set), 1 if they differ (DIFF describes the
 * first difference: the first differing event of the tasks both runs
 * have, else a task only one has; then the divergence report a replay's
 * run.info holds), -1 if a log cannot be read (DIFF says why).  The
 * outputs (output.log) are compared once every event matched; a
 * difference there says so: it comes from inside a task.
 */
int pg_verify_runs(const char *a, const char *b, long *nevents, int *ntasks,
		   char *diff, size_t n);

/* output-compare.c: comparing what the tasks of two runs printed. */
/* Compares the output of runs A and B (their output.log) task by task,
 * line by line, a tid of their tasks LTIDS (NLTIDS; their comm logs'
 * headers) as its ltid: 0 the same or a run has no output.log, 1
 * different (DIFF names the task and its first differing line), -1
 * unreadable (DIFF). */
int pg_outverify(const char *a, const char *b, const int *ltids, int nltids,
		 char *diff, size_t n);

/* crosscheck.c: do a recording's logs agree with each other? */
/*
 * Checks the logs of the recording in DIR against each other before a
 * replay: headers name the tasks of their file names, the exec logs'
 * spawns and the comm logs present agree, run.info lists the tasks with
 * logs, every recorded receive names a send of its sender's log (ltid,
 * message id, to this task, same tag) received once.  0 they agree; 1
 * they contradict each other (ERR: the first contradiction, naming file
 * and record); -1 a log cannot be read, or DIR is no recording at all
 * (neither task-0.exec nor a task's comm log: ERR says "not a
 * recording").
 */
int pg_crosscheck(const char *dir, char *err, size_t errlen);

/*
 * clocksync.c: the clocks of a run's hosts against the reference (the
 * coordinator's CLOCK_REALTIME), from the clock samples of the comm logs.
 * A host's local time is the trace importer's wall-clock time of an
 * event (docs/TRACEDB.md "Times": start_mono_ns + t + the host's
 * offset), in ns.  Per host, the
 * samples closer than PG_CLOCK_CLUSTER_NS keep the one of the smallest
 * round trip (Cristian); the offset is linear between kept samples
 * (piecewise linear) and, before the first and after the last, follows
 * the least-squares drift of all of them (one sample: a constant).
 */
#define PG_CLOCK_CLUSTER_NS 500000000ull /* 0.5 s */
struct pg_clock_point {
	uint64_t local;  /* host local time, ns */
	int64_t offset;  /* reference - local, ns */
	uint64_t rtt;    /* round trip of the sample, ns */
};
struct pg_clock_host {
	char host[PG_HOST_MAX];
	struct pg_clock_point *pt; /* by local time once fitted */
	int n;
	size_t cap;
	double drift;    /* least-squares d(offset)/d(local): about -1e-4
			    when the host's clock runs 100 ppm fast */
	uint64_t min_rtt; /* the smallest round trip of its samples */
	int64_t base;    /* pg_clocksync_load: the importer's wall-clock
			    offset of the host (local = start_mono_ns + t +
			    base) */
};
struct pg_clocksync {
	struct pg_clock_host *hosts;
	int nhosts;
	size_t cap;
};
/* Adds a sample of HOST (local time LOCAL, OFFSET, RTT) to CS (zeroed
 * first); 0, or -1 out of memory. */
int pg_clocksync_add(struct pg_clocksync *cs, const char *host,
		     uint64_t local, int64_t offset, uint64_t rtt);
/* Adds the clock samples of every task-*.comm of DIR to CS, their local
 * times as the importer's; 0, or -1 with ERR (an unreadable log). */
int pg_clocksync_load(struct pg_clocksync *cs, const char *dir, char *err,
		      size_t errlen);
/* Fits every host of CS (after the adds, before the maps). */
void pg_clocksync_fit(struct pg_clocksync *cs);
/* The fitted host HOST of CS, or NULL (no samples of it). */
const struct pg_clock_host *pg_clocksync_host(const struct pg_clocksync *cs,
					      const char *host);
/* Reference - local at LOCAL on host H (0 when H is NULL), ns. */
int64_t pg_clocksync_offset(const struct pg_clock_host *h, uint64_t local);
/* The reference time of LOCAL on host H (LOCAL itself when H is NULL). */
uint64_t pg_clocksync_map(const struct pg_clock_host *h, uint64_t local);
/* Frees CS. */
void pg_clocksync_free(struct pg_clocksync *cs);

/* happens-before.c: the happens-before relation of a recording, from
 * its log folder alone (comm and exec logs), as vector clocks.  An event
 * is named by its task's ltid and its EVENT NUMBER: its 1-based position
 * among the records of the task's comm log, the number `pangaea-trace
 * dump` prints and a replay divergence report names (the replay's
 * position + 1).
 * Edges: program order; a send (one per destination of an mcast or
 * bcast) before the receive or probe of its message; a spawn before the
 * child's first event; a task's last event before a pvmd's notice
 * about it (PvmTaskExit); the calls of one barrier (the K-th pvm_barrier
 * of each task on a group) are in each other's past (each gets the join
 * of their clocks).
 * Clock entry I of an event is how many leading events of task
 * hb->ltids[I] are in its causal past (itself included). */
/* One event as the analysis keeps it. */
struct pg_hb_ev {
	int32_t kind;      /* enum pg_rec_kind */
	int32_t peer;      /* as struct pg_event's (send: dest, receive: src) */
	int32_t tag;       /* message tag; group: the op's result */
	uint32_t msgid;    /* message id; pollfail: count; group: op */
	int32_t src_task;  /* receive/probe: index of the sender's task, -1
			      foreign or not logged; else -1 */
	uint32_t src_ev;   /* receive/probe: the send's event number */
	int32_t group;     /* group call: index into hb->groups, else -1 */
	int32_t filter;    /* receive, poll, pollfail: PG_FILTER_* */
};
/* A message of the run as the logs show it (one per destination). */
struct pg_hb_msg {
	int32_t src;       /* sender ltid (PG_PEER_FOREIGN, PG_PEER_SYSTEM) */
	int32_t src_task;  /* its task index, -1 foreign or not logged; a
			      pvmd's notice: the task it is about */
	uint32_t msgid;
	int32_t tag;
	uint32_t send_ev;  /* the send's event number, 0 none logged; a
			      notice: its task's last event */
	int32_t dst_task;  /* the receiver's task index */
	uint32_t recv_ev;  /* the receive's event number, 0 never received */
};
/* A recording's happens-before relation; fields read-only. */
struct pg_hb {
	int ntask;
	int *ltids;            /* ascending: the tasks with a comm log */
	uint32_t *nev;         /* events per task */
	struct pg_hb_ev **ev;  /* ev[i][n - 1]: event n of task i */
	uint32_t **clock;      /* clock[i] + n * ntask: event n's clock (n = 0:
				  the task before its first event, zeros) */
	struct pg_hb_msg *msgs; /* every message, by receiver then sender */
	size_t nmsg;
	char **groups;         /* names of the groups of group calls */
	int ngroup;
	long events;           /* events in all */
	int *parent;           /* per task: the index of the task whose spawn
				  started it, -1 none logged */
	uint32_t *spawn_ev;    /* per task: that spawn's event number */
	uint32_t old_version;  /* the first comm log version without
				  receive filters (3-5) read, 0 none */
};
/* The most memory the clocks may take: one 32-bit entry per task per
 * event (the events times the tasks, times 4 bytes). */
#define PG_HB_MAX_BYTES (2.0 * 1073741824.0)
/* Loads DIR's logs into HB (start from { 0 }); 0, or -1 with ERR (an
 * unreadable log, memory, clocks beyond PG_HB_MAX_BYTES, or a cycle:
 * logs that contradict each other).  Free HB with pg_hb_free either
 * way. */
int pg_hb_load(struct pg_hb *hb, const char *dir, char *err, size_t errlen);
/* Frees what HB holds and leaves it { 0 }. */
void pg_hb_free(struct pg_hb *hb);
/* The index of task LTID in HB, or -1. */
int pg_hb_task(const struct pg_hb *hb, int ltid);
/* The clock of event N (0..nev) of task index I: hb->ntask entries. */
const uint32_t *pg_hb_clock(const struct pg_hb *hb, int i, uint32_t n);
/* Whether event A of task index I happens before event B of task index
 * J (an event is not before itself); 1 or 0. */
int pg_hb_before(const struct pg_hb *hb, int i, uint32_t a, int j,
		 uint32_t b);
/* One exchange of a what-if: the receive EVENT of task LTID takes the
 * message MSGID of task SENDER instead of the one it got. */
struct pg_hb_swap {
	int ltid;
	long event;
	int sender;
	uint32_t msgid;
};
/* The consistent cut of the what-if SWAPS (N): into CUT (hb->ntask
 * entries, in hb->ltids order) how many leading events of each task must
 * be replayed as recorded: the causal past of each swapped receive
 * (without it) joined with the causal past of its alternative's send
 * (with it).  0; -1 with ERR when a swap names no receive, no message
 * sent to that task, a message causally after the receive or received
 * before it, or a swapped receive falls inside the cut of another. */
int pg_hb_cut(const struct pg_hb *hb, const struct pg_hb_swap *swaps, int n,
	      long *cut, char *err, size_t errlen);

/* races.c: the racing receives of a recording (over its struct pg_hb).
 * An alternative of a receive is a message to the same task its filter
 * would have taken from another sender (PVM keeps each sender's order,
 * so only its first such message not yet received counts), not causally
 * after the receive and not received before it: none for a receive from
 * a fixed source; of any tag for an any-tag receive, else of the tag it
 * got.  A log of version 3-5 has no filters: every receive is taken as
 * one from any source for the tag it got. */
enum pg_race_what {
	PG_RACE_RECV = 1,     /* a receive that could have got another message */
	PG_RACE_POLL = 2,     /* a successful pvm_nrecv/pvm_trecv/pvm_probe:
				 another message, or none (an alternative
				 with sender PG_RACE_NOTHING) */
	PG_RACE_POLLFAIL = 3, /* failed polls while a message that would
				 match was already sent: any tag if their
				 filter was, else the tag of the poll that
				 succeeded next (else any); from its
				 sender if their sources were fixed */
	PG_RACE_JOIN = 4      /* a pvm_joingroup concurrent with other
				 joins of its group: the instance numbers
				 could differ (alternatives: those joins,
				 tag = the instance each got, msgid 0) */
};
#define PG_RACE_NOTHING (-3) /* the sender of "no message" */
/* A message (or outcome) a racing event could have got instead. */
struct pg_race_alt {
	int sender;        /* ltid, PG_PEER_FOREIGN, PG_PEER_SYSTEM, or
			      PG_RACE_NOTHING */
	uint32_t msgid;    /* 0 for a message without an id */
	int tag;
	long send_event;   /* the send's event number in SENDER, 0 none */
};
/* A racing event. */
struct pg_race {
	int ltid;
	long event;        /* its event number */
	int what;          /* enum pg_race_what */
	int kind;          /* its record kind */
	int peer;          /* the message it got: sender (join: -1) */
	uint32_t msgid;    /*   its id (pollfail: the failed polls) */
	int tag;           /*   its tag (join: the instance it got) */
	int nalt;
	struct pg_race_alt *alts; /* nalt of them */
};
/* The racing events of a recording, by task then event. */
struct pg_races {
	struct pg_race *v;
	size_t n, cap;
	struct pg_race_alt *alts; /* the pool the races' alts point into */
	size_t nalt, capalt;
	int ntasks;               /* tasks with at least one race */
};
/* Finds every racing event of HB into R (start from { 0 }); 0, or -1
 * when memory runs out.  Free R with pg_races_free either way. */
int pg_races_find(const struct pg_hb *hb, struct pg_races *r);
/* The race of event EVENT of task LTID in R, or NULL. */
const struct pg_race *pg_races_at(const struct pg_races *r, int ltid,
				  long event);
/* Frees what R holds and leaves it { 0 }. */
void pg_races_free(struct pg_races *r);
/* The name of enum pg_race_what WHAT ("recv", "poll", "pollfail",
 * "join"; "?" if none). */
const char *pg_race_what_name(int what);

#endif /* PANGAEA_ANALYSIS_H */
