/*
 * launcher.h: the pangaea launcher (task 0 of a run).
 */
#ifndef PANGAEA_LAUNCHER_H
#define PANGAEA_LAUNCHER_H

#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/types.h>
#include "pangaea-internal.h"

/* Exit statuses of the launcher. */
enum {
	LA_OK = 0,
	LA_SETUP = 1,    /* usage, program, log folder, pvmd, refused log */
	LA_DIED = 2,     /* a task did not end through pangaea_exit */
	LA_DIVERGED = 3, /* a replay diverged from its recording, or the run
			    deadlocked */
	LA_DIFFERED = 4  /* -explore: a run of another order did not behave
			    as the recording */
};

/* One program of the command line (MPMD runs have several). */
struct la_prog {
	char path[PG_PATH_MAX]; /* absolute */
	char **argv;            /* its arguments, NULL-terminated */
	int recorded;           /* argv belongs to the recording's exec log */
};

/* The command line, parsed. */
struct la_opts {
	int mode;               /* PANGAEA_MODE_RECORD or _REPLAY */
	char logdir[PG_PATH_MAX];
	char outdir[PG_PATH_MAX];
	const char *coord_host;
	const char *host;       /* -host: where the programs' tasks go */
	const char *arch;       /* -arch: or on a host of this architecture */
	int spawn_flags;        /* -flags: PvmTaskDebug, PvmTaskTrace, ... */
	int ntask;
	int delay_us;
	unsigned seed;          /* of the delays and chaos: PANGAEA_SEED, or picked */
	int chaos;              /* -chaos or PANGAEA_CHAOS=1: a chaos recording */
	int quiet;
	int no_deadlock_stop;   /* -no-deadlock-stop: report, go on waiting */
	int start;              /* -staged, -stagger: PG_START_* (replay: as
				   recorded) */
	int start_ms;           /* -stagger MS */
	int stdin_ltid;         /* -stdin LTID: the task given the launcher's
				   standard input; 0: task 1 */
	char select[PG_SELECT_MAX]; /* -select, canonical form */
	int nprog;
	struct la_prog *progs;
	char command[8192];     /* the command line, for run.info */
	int logmode;            /* -logmode: the logs' mode, 0: 0600 */
	struct pg_exec_log recorded; /* -replay: the recording's task-0.exec */
	char preload[PG_PATH_MAX]; /* libpangaea.so for the tasks, or "" */
	struct la_swap *swaps;  /* -swap: a what-if replay (whatif.c) */
	int nswap;
	int *cut_ltid;          /* -swap: the cut, per task of the recording */
	long *cut;              /* (ncut; a task not named replays nothing) */
	int ncut;
	int debug_ltid;         /* -debug LTID[:EVENT]: the task, 0 none */
	unsigned long long debug_event; /* ... its event, 0: its first */
	char debug_batch[PG_PATH_MAX]; /* -debug-batch FILE (absolute):
				   gdb's commands, or "" */
};

/* What the launcher knows of a task of the run. */
struct la_task {
	int ltid, tid, pid;
	char host[PG_HOST_MAX];
	char program[PG_PATH_MAX];
	int exited;             /* PVM said it is gone */
	int done_how, done_value; /* from PG_TAG_DONE or its log; 0 unknown */
	int wstatus;            /* its wait status, from PVM's trace event */
	int have_wstatus;
	double gone_at;         /* seconds into the run when PVM said it is
				   gone; 0 while it runs */
	double proc_gone_at;    /* (la_death_lingering) when its process was
				   seen gone, after it left the run */
	int checked;            /* la_death_check looked at its end */
	int said;               /* its death was said the moment it came */
	int handled;            /* ... and a task that watches it lives on,
				   or another task killed it (pvm_kill) */
	int killed_by;          /* the ltid of the task whose pvm_kill is
				   for it (KILLING), 0 none */
	int uninstrumented;     /* it ran and exited but never joined the
				   run: no log (la_task_settle) */
	int no_log;             /* la_task_settle found no comm log: it
				   never joined the run */
	double added_at;        /* monotonic seconds when it was added */
	int join_checked;       /* la_tasks_check_joined looked: 1 joined,
				   2 said it had not (3: no log, inside
				   one look) */
};

/* A replayed pvm_kill waiting for its victim (kill.c): the killer's
 * question is answered once the victim has come to the end of its
 * recording. */
struct la_kill_wait {
	int killer_tid, killer_ltid, victim_tid;
	double since;           /* la_death_now() when it asked */
};

/* What the launcher knows of the run's pvm_kill calls (kill.c). */
struct la_kills {
	struct pg_imap by_victim; /* victim tid -> killer ltid (KILLING) */
	struct pg_imap ready;     /* replay: tid of a victim waiting at the
				     end of its recording -> its killer */
	struct la_kill_wait *waits; /* replay: killers not answered yet */
	size_t nwaits, cap;
	struct pg_imap recorded;  /* replay: victim ltid -> killer ltid, as
				     the recording's kill records say */
	int loaded;               /* ... read (once, at the first KILLWAIT) */
};

/* A pvm_notify(PvmTaskExit) of the run: WATCHER is told of TID's exit. */
struct la_watch {
	int tid, watcher;       /* watched tid, watcher's ltid */
	int msgtag;             /* the tag of the watcher's notify */
};

/* The run in progress. */
/* A beacon on another host of the virtual machine (hosts.c). */
struct la_beacon {
	int tid;
	char host[PG_HOST_MAX];
	double heard;   /* la_death_now() of its last BEACON (or its start) */
	int ended;      /* it exited (its host was deleted): not watched */
	int lost;       /* its host fell silent (la_hosts_lost) */
};

#define LA_COORD_UNSTARTED 2 /* la_run.coord_failed's */

struct la_run {
	struct la_opts *o;
	char replaydir[PG_PATH_MAX]; /* -replay: the recording (absolute) */
	int started_vm;         /* we started the pvmd: halt it at the end */
	pid_t pvmd_pid;         /* this host's pvmd, 0 if not found */
	int ctx;                /* the run's (Pangaea's) message context */
	int coord_tid;
	char coord_host[PG_HOST_MAX]; /* where it runs (start_coordinator) */
	int coord_exited;
	double coord_spawned;   /* when (la_death_now): its HELLO is awaited */
	int coord_up;           /* its HELLO came */
	int coord_failed;       /* it ended or was silent before its HELLO
				   (LA_COORD_UNSTARTED: it could not be
				   started, said; the tasks not yet ended) */
	pid_t coord_pid;        /* if on this host (la_tasks_check_joined), or
				   0: not known yet, -1: not here */
	int coord_child;        /* coord_pid is our own child (run.c) */
	double stopped_seen;    /* when a process of the run here was last
				   seen stopped (la_tasks_check_joined) */
	int relay_tid;          /* the live view's relay (run.c), or 0 */
	int live_here;          /* a live view's follower reads the logs of
				   this host's tasks (the coordinator or
				   the relay: start_coordinator) */
	int relay_exited;
	struct la_task *tasks;
	int ntasks;
	size_t cap;
	struct pg_imap by_tid, by_ltid; /* tid, ltid -> index in tasks */
	int nstarted;           /* tasks the launcher itself started */
	char diverged[1400];    /* first divergence report */
	int lost_pvmd;
	int interrupted;
	char stopped_by[400];   /* what stopped the run: a signal, the
				   coordinator's death ("interrupted
				   (SIGTERM)", "the coordinator died"), a
				   task's death; said again last */
	int logfail;            /* errno of the first PG_TAG_LOGFAIL, or 0 */
	const char *logdir;     /* where this run logs */
	double t0;              /* when the run started (la_death_now) */
	int died;               /* a task's death ended the run */
	struct la_watch *watches;
	size_t nwatches, wcap;
	struct pg_imap early_ends; /* tid -> wait status, for a task whose
				      end came before its SPAWNED */
	struct la_kills kills;
	struct la_beacon *beacons; /* one per other host (hosts.c) */
	int nbeacons;
	int lost_host;          /* a host of the run fell silent */
	struct pg_runinfo *info; /* run.info's hosts' architectures, noted
				    while still in the virtual machine
				    (la_runinfo_hosts), or NULL */
};

/* One -swap LTID:EVENT=SENDER:MSGID: task LTID's EVENT-th recorded
 * event, a receive, gets message MSGID of SENDER instead. */
struct la_swap {
	int ltid, sender;
	uint64_t event;
	uint32_t msgid;
};

/* options.c */
/* Parses ARGV into O; 0, or -1 after printing the error and usage. */
int la_parse(int argc, char **argv, struct la_opts *o);
/* Frees what la_parse allocated. */
void la_opts_free(struct la_opts *o);
/* Prints the usage text to F. */
void la_usage(FILE *f);
/* Prints "pangaea: MESSAGE" on stderr unless quiet (status lines). */
void la_say(const struct la_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prints "pangaea: error: MESSAGE" on stderr. */
void la_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "pangaea: note: ..." on stderr, even when quiet: what the user
 * should know about a run that went well (the program's own status). */
void la_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* How many architectures the virtual machine's hosts have (pvm_config's
 * narch), or -1 if it cannot say. */
int la_hosts_narch(void);
/* How many hosts the virtual machine has (pvm_config's nhost), or -1 if
 * it cannot say. */
int la_hosts_count(void);
/* With hosts of more than one architecture, notes each host's in RI
 * (run.info's arch lines); 0, or -1 when memory runs out. */
int la_hosts_archs(struct pg_runinfo *ri);

/* hosts.c */
/* Whether every host that the exec logs of O's log folder put a task on
 * is in the virtual machine, or was added to it by the recorded program
 * in mid-run (its hosts.added: the replay adds it again); 0, or -1 after
 * naming a missing host, a task of it and the exec log to edit. */
int la_hosts_check(const struct la_opts *o);
/* Whether NAME is a host of the virtual machine; the names of its
 * hosts (space-separated) into NAMES (N bytes) either way. */
int la_hosts_has(const char *name, char *names, size_t n);
/* With NAME: host NAME's architecture into OUT (N bytes), 1, or 0 if
 * NAME is not in the virtual machine.  With ARCH (NAME NULL): 1 if a host
 * of architecture ARCH is in it, else 0 and its hosts with their
 * architectures ("h1 LINUX64, h2 LINUX") into OUT.  -1 if PVM cannot
 * list them. */
int la_hosts_arch(const char *name, const char *arch, char *out, size_t n);
/* Starts a beacon on every other host of the virtual machine (in the
 * run's context), so that a lost host is noticed in seconds. */
void la_hosts_watch(struct la_run *r);
/* A host joined the virtual machine in mid-run (PVM's PvmHostAdd notice,
 * the active buffer): starts a beacon there. */
void la_hosts_added(struct la_run *r);
/* Notes the BEACON of SRC. */
void la_hosts_heard(struct la_run *r, int src);
/* Whether TID (just exited) was a beacon; it is no longer watched. */
int la_hosts_exited(struct la_run *r, int tid);
/* Whether a host has just been found lost: then the run's tasks on it
 * are named and taken as gone, and the others killed. */
int la_hosts_lost(struct la_run *r);
/* Takes the tasks of run R on HOST as gone with it (exited, never waited
 * for), appending each to LIST as "LTID (PROGRAM)", ", "-separated: all
 * of them, however many (the lost-host line names every one); how many. */
int la_hosts_lose_tasks(struct la_run *r, const char *host,
			struct pg_strbuf *list);
/* The tasks of R on HOST whose logs LOGDIR here lacks: appends their
 * ltids to LTIDS ("1002 1004") and, for scp, their files to FILES
 * ("'HOST:LOGDIR/task-1002.*' " each), all of them; how many. */
int la_hosts_left(const struct la_run *r, const char *host,
		  const char *logdir, struct pg_strbuf *ltids,
		  struct pg_strbuf *files);
/* Tells the beacons to end and forgets them. */
void la_hosts_stop(struct la_run *r);
/* After the run: gathers into LOGDIR the task logs that the other hosts
 * hold (each task logs on its own host), through their beacons; a file
 * LOGDIR has already (shared storage) is left as it is. */
void la_hosts_collect(struct la_run *r, const char *logdir);
/* Before a replay: gives each other host the recorded logs (RECDIR) of
 * the tasks its exec-log slots put there, through its beacon, and waits
 * until they are written (a file it has is left as it is); 0, or -1
 * said. */
int la_hosts_ship(struct la_run *r, const char *recdir);

/* vm.c */
/* Joins the running virtual machine or starts a private one; 0 or -1. */
int la_vm_start(struct la_run *r);
/*
 * Whether this host's pvmd is still there.  libpvm can wait on a dead
 * daemon for a long time (its tasks keep the socket open), so the
 * launcher watches the daemon's process itself, at most every
 * LA_VM_ALIVE_S (alive in between).
 */
#define LA_VM_ALIVE_S 0.02
int la_vm_alive(const struct la_run *r);
/* Whether process PID of this host has ended (gone, or a zombie). */
int la_vm_process_gone(pid_t pid);
/* Whether process PID of this host is stopped (SIGSTOP, a debugger). */
int la_vm_process_stopped(pid_t pid);
/* Leaves the virtual machine, halting it if we started it. */
void la_vm_stop(struct la_run *r);
/* Sets NAME=VALUE and adds NAME to PVM_EXPORT, so that every task spawned
 * from now on gets it. */
void la_vm_export(const char *name, const char *value);
/*
 * After the pvmd is lost: SIGKILLs every process of ours on this host
 * whose environment has our PVM_VMID and our PANGAEA_CONTEXT, i.e. the
 * run's tasks and coordinator, also those the launcher had not yet heard
 * of.  Returns how many.
 */
int la_vm_kill_run(void);
/*
 * After a run that was stopped: SIGKILLs the tasks of the run that the
 * pvmd PVMD of this host started (its children with our PVM_VMID and
 * PANGAEA_CONTEXT), also those the launcher never heard of (their
 * parent was on a lost host, or told the coordinator on a lost host);
 * not the launcher's own children (a viewer, gdb).  As the beacons do on
 * their hosts.  Returns how many.
 */
int la_vm_kill_tasks(pid_t pvmd);

/* logdir.c */
/* Creates (mode 0700, or LOGMODE's if not 0), checks (ours), locks for
 * the launcher's lifetime (a second launcher is refused) and empties the
 * log folder of a run; 0 or -1 (said). */
int la_logdir_prepare(const char *dir, int logmode);
/* Checks every log of the recording DIR can be read; 0 or -1. */
int la_logdir_check(const char *dir);
/* Picks DIR.replay-N (first free N) into OUT. */
void la_logdir_replay_name(const char *dir, char *out, size_t n);
/* Notes the hosts' architectures for run R's run.info while the launcher
 * is still in the virtual machine (asked after it has left, PVM would
 * enrol it again: a new task, its handshake and its end, ~1-4 ms on a
 * short run); 0, or -1 when memory runs out (said). */
int la_runinfo_hosts(struct la_run *r);
/* Writes DIR/run.info describing run R with exit STATUS and the
 * architectures la_runinfo_hosts noted (temporary file renamed over it),
 * then gives the run's files R's -logmode if any; frees R's run.info
 * notes; 0, or -1 after saying why. */
int la_runinfo_write(struct la_run *r, const char *dir, int status);

/* tasks.c */
/* Adds a task (from a SPAWNED message); the new entry or NULL. */
struct la_task *la_task_add(struct la_run *r, int ltid, int tid,
			    const char *host, const char *program);
/* The task with TID, or NULL. */
struct la_task *la_task_by_tid(struct la_run *r, int tid);
/* The task with LTID, or NULL. */
struct la_task *la_task_by_ltid(struct la_run *r, int ltid);
/* Whether every known task has exited (and at least MIN are known). */
int la_tasks_all_exited(const struct la_run *r, int min);
/* Kills every task still running (PVM, then by pid if PVM is gone;
 * after a lost pvmd, every process of the run on this host). */
void la_tasks_kill(struct la_run *r);
/* Fills in how each task ended, from its log where it sent nothing; after
 * a lost pvmd, first adds the tasks that have a log in LOGDIR but whose
 * SPAWNED never arrived. */
void la_tasks_settle(struct la_run *r, const char *logdir);
/* Fills in how task T ended from the end record of its log in LOGDIR,
 * if it has one. */
void la_task_settle(struct la_task *t, const char *logdir);
/* Prints a line for each task that did not end normally and was not said
 * at once; the count of those that did not end normally, but for those
 * whose death the program handled (pvm_notify). */
int la_tasks_report(const struct la_run *r);
/* Names each task that left the run through pangaea_exit and whose
 * process then ended with a non-zero wait status (its pvmd's, PVM's
 * end-of-task event: death.c), in a note: the program's status, not the
 * run's (its logs are whole); how many. */
int la_tasks_failed(const struct la_run *r);
/* Describes how task T ended into BUF. */
void la_task_end_text(const struct la_task *t, char *buf, size_t n);
/* Whether T died of the pvm_kill of another task of the run (its end is
 * PVM's SIGTERM, or unknown, after a KILLING for it; or it never joined
 * the run: no comm log, whatever its wait status). */
int la_task_killed(const struct la_task *t);
/* A task whose log ends in a divergence whose report never came (the
 * task killed before it could send it): makes it the run's divergence
 * (exit 3), said as such.  Returns 1 if it found one. */
int la_tasks_lost_divergence(struct la_run *r);
/* Says once, for each running task that has no log LA_JOIN_WAIT_S
 * seconds after the launcher learnt of it, that it has not joined the run
 * (not instrumented, or no PVM call yet): a task of the run without
 * Pangaea that never exits is named too.  Only for tasks whose logs the
 * launcher sees during the run: those of its own host, and of a host
 * whose other tasks' logs it sees (a shared folder).  A stopped process
 * is no uninstrumented one: while the coordinator or a task of the run
 * on this host is stopped (SIGSTOP, a debugger), a task may wait on it
 * to join, and the LA_JOIN_WAIT_S start again once none is.  Cheap when
 * called often. */
#define LA_JOIN_WAIT_S 5
void la_tasks_check_joined(struct la_run *r);
/* Frees the table of tasks. */
void la_tasks_free(struct la_run *r);
/* Removes the PVM temporary files left by tasks of this host that ended
 * in their handshake with the pvmd (killed at the start of a run). */
void la_tasks_tidy(const struct la_run *r);

/* death.c */
/* Seconds on a monotonic clock. */
double la_death_now(void);
/* Has PVM send the launcher, in the run's context, the trace event that
 * tells each task's wait status when it ends (TEV_ENDTASK). */
void la_death_trace_setup(const struct la_run *r);
/* Notes the wait status STATUS of task TID (a TEV_ENDTASK's, or ours
 * for a task the launcher started itself). */
void la_death_ended(struct la_run *r, int tid, int status);

/* direct.c: the programs' tasks started by the launcher itself. */
/* Initializes A for a child of ours in a process group of its own (a ^C
 * at the terminal is the launcher's to handle), with SIGPIPE, SIGINT and
 * SIGTERM back to their defaults. */
void la_spawn_attr_own(posix_spawnattr_t *a);
/* Whether R's spawn of NTASK tasks of the program PATH at WHERE (a host
 * or architecture, or NULL) with FLAGS is started here rather than by
 * the pvmd: one task of an ELF program that joins the run (built with
 * pangaea.h, or linked with libpvm3.so), on a virtual machine of one
 * host, with no PVM debugger. */
int la_direct_fits(const struct la_run *r, const char *path,
		   const char *where, int flags, int ntask);
/* Has task 0's next spawns (until la_direct_disarm) start here, calling
 * MEANWHILE (if not NULL) while a task loads, before it enrolls. */
void la_direct_arm(void (*meanwhile)(void));
void la_direct_disarm(void);
/* Adds the descriptors to wait on for the tasks started here (their
 * output, their end) to P (at most MAX); how many. */
int la_direct_poll(struct pollfd *p, int max);
/* After a poll() of P (N, la_direct_poll's among them): relays what
 * those tasks printed, and reaps those that ended (their wait status to
 * death.c); P NULL: looks at every one. */
void la_direct_step(struct la_run *r, const struct pollfd *p, int n);
/* At the run's end: the rest of their output, and their descriptors
 * closed. */
void la_direct_finish(struct la_run *r);
/* Handles a PG_TAG_ENDTASK message (PVM's trace events) just received. */
void la_death_trace(struct la_run *r);
/* Handles a PG_TAG_WATCH message just checked. */
void la_death_watch(struct la_run *r);
/* Notes that PVM said task T is gone. */
void la_death_gone(struct la_run *r, struct la_task *t);
/*
 * Says at once each task that died without pangaea_exit, and how; stops
 * the run (la_tasks_kill) if no living task watches the dead one with
 * pvm_notify.  Returns 1 if it stopped the run, else 0.
 */
int la_death_check(struct la_run *r);
/* Whether a task that has gone may still send its last word: it ended
 * without a DONE and PVM's trace event (its wait status) has not come
 * yet, for less than the time la_death_check waits for it (1 s). */
int la_death_awaited(const struct la_run *r);
/* Whether a task that left the run through pangaea_exit may still give
 * its wait status (la_tasks_failed): its process on this host still runs
 * (as a shell waits for a program it started), or it ended, or the task
 * is on another host, less than 1 s ago. */
int la_death_lingering(struct la_run *r);
/* At the end of the run (every task gone, the last messages drained):
 * la_death_check for the tasks it had not looked at yet. */
void la_death_finish(struct la_run *r);
/* kill.c */
/* Handles a KILLING or KILLWAIT message (TAG) from the task SRC just
 * checked: notes who kills whom, answers the question now or when the
 * victim is ready (replay). */
void la_kill_message(struct la_run *r, int tag, int src);
/* Called at every turn of the wait: answers the killers whose victims
 * have ended or are ready, or have made them wait too long; lets a
 * victim's replay go on (diverge) when its killer ended without the
 * kill. */
void la_kill_check(struct la_run *r);
/* Frees what kill.c keeps in R. */
void la_kill_free(struct la_run *r);

/* deadlock.c */
/*
 * Called at every turn of the wait for the run's tasks: when every live
 * task has been blocked in a receive or barrier for the quiet period
 * (their state files unchanged), or in replay waits for a recorded
 * message of a task that has ended or is itself stuck (the rules:
 * pg_deadlock_judge, logs/analysis/deadlock.c), prints the deadlock
 * report and (unless -no-deadlock-stop) ends the run as a divergence
 * does (exit 3).  Cheap when called often: it looks at most every
 * quarter second.
 */
void la_deadlock_check(struct la_run *r);

/* debug.c */
/* -replay -debug: has the run's tasks told which one stops where. */
void la_debug_setup(const struct la_opts *o);
/* Handles a PG_TAG_DEBUG message of task SRC just checked: the task
 * waits; starts gdb on it here, or says the command for its host. */
void la_debug_message(struct la_run *r, int src);
/* Before a replay with -debug: whether the recording RECDIR has task
 * O->debug_ltid and its event O->debug_event; 0, or -1 (said). */
int la_debug_check(const struct la_opts *o, const char *recdir);
/* Called at every turn of the wait: notes that our gdb has ended. */
void la_debug_tick(struct la_run *r);
/* Whether a task of the run is in a debugger (no deadlock check). */
int la_debug_busy(struct la_run *r);
/* An MPI run (mpirun.c) with -debug: the debug session for the replay
 * logging into DIR (kept), and the rank's variable ("NAME=VALUE") into
 * ENV; 1, or 0 without -debug. */
int la_debug_mpi_setup(const struct la_opts *o, const char *dir, char *env,
		       size_t n);
/* An MPI run, between looks: starts gdb when the rank has stopped (its
 * debug-LTID.pid), sees our gdb's end. */
void la_debug_mpi_tick(void);
/* Whether our gdb has a rank of an MPI run (no deadlock check). */
int la_debug_mpi_busy(void);
/* After the run: waits for our gdb to end (-debug-batch: killed if it
 * is still there after a grace period). */
void la_debug_finish(void);

/* program.c */
/* What a program file is, for the launcher. */
enum la_prog_kind {
	LA_PROG_OTHER = 0, /* not an ELF PVM program we can tell (a script) */
	LA_PROG_SOURCE,    /* built with pangaea.h: records itself */
	LA_PROG_DYNAMIC,   /* unmodified, links libpvm3.so: gets LD_PRELOAD */
	LA_PROG_STATIC,    /* unmodified, PVM linked in: cannot be recorded */
	LA_PROG_FOREIGN    /* an ELF of another machine (i386, s390x) */
};
/* The kind of the program file PATH (its ELF symbols and needed
 * libraries). */
enum la_prog_kind la_program_kind(const char *path);
/* The PVM architecture an ELF program file PATH is built for (LINUX64,
 * LINUX, LINUXS390), or NULL if it is none of them or cannot be read. */
const char *la_program_arch(const char *path);
/* Before the run: refuses (said, -1) a statically linked unmodified PVM
 * program; for an unmodified dynamic one, finds libpangaea.so into
 * O->preload (-1 if it cannot), and for any other program of this
 * machine (an interpreter, a script) if it can.  0 or -1. */
int la_programs_check(struct la_opts *o);
/* Exports LD_PRELOAD=O->preload (before the user's own LD_PRELOAD, which
 * stays) to every task spawned from now on, if a program needs it (call
 * it after the coordinator's spawn). */
void la_programs_preload(const struct la_opts *o);
/* Exports the launcher's working folder (PANGAEA_CWD) to the tasks
 * spawned from now on: the run's programs start there, their children
 * where PVM puts them (pangaea_lib/pvm/init.c).  0, or -1 (said). */
int la_programs_folder(void);
/* stdin.c */
/* Offers the launcher's standard input (record) or the recording's
 * (replay, read from R's replaydir) to task 1, logged into stdin.log in
 * R's logdir once task 1 comes (a failed write: PG_TAG_LOGFAIL to
 * itself); 0, or -1 (said) if the recording's stdin.log is refused.  If
 * no socket can be offered it says so and returns 0: task 1 gets
 * /dev/null. */
int la_stdin_setup(const struct la_run *r);
/* Adds to P (room for MAX, at least 2) the descriptors the standard
 * input relay waits on; how many. */
int la_stdin_poll(struct pollfd *p, int max);
/* Does what the relay can do now without blocking: takes task 1's
 * connection, reads the input (record) or the recorded chunks (replay),
 * logs them, gives them to the task, ends its input after the last. */
void la_stdin_step(void);
/* Closes the relay and stdin.log. */
void la_stdin_close(void);

/* output.c */
/* Has the output of every task spawned from now on sent to the launcher
 * as PG_TAG_OUTPUT in the run's context (instead of pvm_catchout). */
void la_output_setup(const struct la_run *r);
/* Handles a PG_TAG_OUTPUT message just checked: writes the task's whole
 * lines to stdout, keeps a bounded unfinished one. */
void la_output_take(void);
/* Takes N bytes P of task TID's output, as PVM's output messages carry
 * them (N 0: its output ended; < 0: it began). */
void la_output_piece(int tid, const char *p, int n);
/* Writes out the output held for tasks whose ltid is known now (after a
 * SPAWNED: output.c says why it is held). */
void la_output_known(void);
/* Writes out the output held too long for a tid never known (as task
 * -1); if stdout is a terminal: writes each unfinished line that has not
 * grown for a moment (a prompt waiting for input), as it is. */
void la_output_tick(void);
/* How many tasks' output streams, but those of the N tids EXCEPT (the
 * coordinator and the beacons, which are still running), have begun and
 * not ended. */
int la_output_open(const int *except, int n);
/* Writes every unfinished line (with a newline) and forgets the streams. */
void la_output_finish(void);

/* run.c */
/* Runs the programs of O under Pangaea; the launcher's exit status. */
int la_run(struct la_opts *o);

/* whatif.c */
/* For a replay with -swap: checks each swap against its receive's racing
 * alternatives (refused with the list of valid ones), works out the cut,
 * says where tasks leave the recording, keeps the cut in O and exports
 * PG_ENV_WHATIF for the tasks; 0 or -1 (said).  Without -swap, clears
 * PG_ENV_WHATIF. */
int la_whatif_prepare(struct la_opts *o);
/* Whether task LTID of a what-if run (its logs in LOGDIR) runs free
 * now: it has logged as many events as its cut; 0 outside a what-if. */
int la_whatif_is_free(const struct la_opts *o, const char *logdir, int ltid);
/* A what-if's cut in its base recording: per task of the base, how many
 * leading events it replays; KEY names the prefix (what the what-if run
 * replays, the swapped message included): two what-ifs with one key
 * run alike up to their cuts. */
struct la_cut {
	int n;
	int *ltid;
	uint64_t *cut;
	uint64_t key;
};
struct pg_hb_swap; /* a swap as the analysis names it (whatif.h) */
/* Fills C for the swap SW of the recording BASE (checked as -swap is);
 * 0, or -1 (said).  Free it with la_whatif_cut_free. */
int la_whatif_cut(const char *base, const struct pg_hb_swap *sw,
		  struct la_cut *c);
/* Frees what C holds and leaves it { 0 }. */
void la_whatif_cut_free(struct la_cut *c);
/* The racing receives of the recording DIR and their alternatives, as
 * swaps into *OUT (malloc'd; pg_whatif_swaps): only at events after
 * FROM's cut if FROM (a task FROM does not name: all its events), only
 * at the receive ONLY->ltid:ONLY->event if ONLY.  Their number, or -1
 * (said). */
int la_whatif_races(const char *dir, const struct la_cut *from,
		    const struct pg_hb_swap *only, struct pg_hb_swap **out);
/* explore.c */
/* pangaea -explore ARGS: explores the other orders of a recording (or
 * of PROGRAM's run, recorded first); the exit status. */
int la_explore(int argc, char **argv);

/* view.c */
/* pangaea -display [-logdir DIR] [DIR]: execs pangaea-view; returns only
   on failure, with the exit status. */
int la_view_display(int argc, char **argv);
/* Removes -view from the options of ARGV; 1 if it was there. */
int la_view_strip(int *argc, char **argv);
/* Starts pangaea-view following the folder O's run logs into (fixing
   O's replay output folder if unset); 0 or -1. */
int la_view_start(struct la_opts *o);
/* pangaea -hosts: prints the hosts of the running virtual machine, one a
   line "NAME ARCH" (" this" after the host of the pvmd we reached),
   without starting one; the exit status (1: no virtual machine). */
int la_view_hosts(void);
/* The environment variable with which the spawn dialog names the host,
   as PVM calls it, of the viewer that listens on PANGAEA_LIVE's socket
   (run.c starts the live view's relay there when the coordinator is not
   on it); unset: the launcher's host. */
#define LA_ENV_LIVE_HOST "PANGAEA_LIVE_HOST"

/* program.c: the path of the library NAME that goes with this launcher
 * (BINDIR/../lib/pangaea/NAME, as in the build folder and after make
 * install) into OUT; 0 or -1. */
int la_lib_path(const char *name, char *out, size_t n);
/* bindir.c: the path of the pangaea-coord beside this launcher into OUT
 * (BINDIR/pangaea-coord); 0, or -1 if our own path is unknown (OUT is
 * then ./pangaea-coord). */
int la_coord_path(char *out, size_t n);

/* mpirun.c: MPI programs (`pangaea -log mpirun ...`). */
/* Whether the log folder DIR holds a recording made through mpirun. */
int la_mpi_recording(const char *dir);
/* Records or replays the MPI program of O (its first program mpirun, or
 * a replay of such a recording); the launcher's exit status. */
int la_mpi_run(struct la_opts *o);

/* mpilive.c: the live view of an MPI run, from its ranks' logs. */
/* The log follower of an MPI run's live view. */
struct la_mpi_live {
	pid_t pid; /* pangaea-coord -follow-logs, 0 none */
	int fd;    /* its standard input's other end */
};
/* Starts, when PANGAEA_LIVE names a viewer's socket, the follower of the
 * logs in DIR into *LV (else LV holds none); 0, or -1 said. */
int la_mpi_live_start(const char *dir, struct la_mpi_live *lv);
/* Tells LV's follower that the run is over and waits until it has sent
 * every logged event and closed the stream. */
void la_mpi_live_end(struct la_mpi_live *lv);

#endif /* PANGAEA_LAUNCHER_H */
