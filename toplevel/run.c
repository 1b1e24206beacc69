/*
 * run.c: one run under the launcher: set up task 0, start the coordinator
 * and the programs, wait until every task of the run has ended, report.
 */
#include "launcher.h"
#include "pangaea-analysis.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define KILL_GRACE_S 10 /* after killing, wait this long for exits */
#define LOST_GRACE_S 2  /* ... or this long after a lost host: the other
			   hosts' pvmds may wait on the lost one before they
			   tell of their tasks' exits (pvm_kill itself works) */

static volatile sig_atomic_t interrupted;

/* Notes a ^C or kill so the wait loop ends the run cleanly. */
static void on_interrupt(int sig)
{
	interrupted = sig;
}

/* Spawns pangaea-coord with ARGV on HOST (in the current context) into
 * *TID; what pvm_spawn returned. */
static int coord_spawn(char **argv, const char *host, int *tid)
{
	char path[PG_PATH_MAX + 32];

	la_coord_path(path, sizeof(path));
	/* (our own host's name unknown: wherever PVM likes) */
	return pvm_spawn(path, argv, strcmp(host, "?") ? PvmTaskHost : 0,
			 (char *)host, 1, tid);
}

#define COORD_HELLO_WAIT_S 15 /* a coordinator's start, at most */

/* Waits for TID's HELLO a second at a time (a blocking receive: no
 * delay when it comes) until it comes (1), TID has gone (0: PVM no
 * longer knows it, e.g. it died as it started: said within a second,
 * not after the whole wait) or COORD_HELLO_WAIT_S have passed (-1). */
static int coord_wait_hello(int tid)
{
	for (int s = 0; s < COORD_HELLO_WAIT_S; s++) {
		if (pg_proto_recv(tid, PG_TAG_HELLO, 1, NULL) > 0)
			return 1;
		if (pvm_pstat(tid) != PvmOk)
			/* (a HELLO sent just before it ended is still taken) */
			return pg_proto_recv(tid, PG_TAG_HELLO, 0, NULL) > 0;
	}
	return -1;
}

/* Waits for the HELLO of TID, which coord_spawn's N says whether it
 * started, on HOST; 0, or -1 after saying why (WHAT: which one). */
static int coord_hello(int n, int tid, const char *host, const char *what)
{
	int got = n == 1 ? coord_wait_hello(tid) : -1;

	if (got > 0)
		return 0;
	la_error("cannot start the %s on %s (%s)", what, host,
		 n != 1 ? pg_pvm_errtext(n < 0 ? n : tid) :
		 got == 0 ? "it ended before it answered" :
			    "it did not answer");
	if (got < 0 && n == 1)
		pvm_kill(tid);
	return -1;
}

/* The run whose coordinator the launcher's first spawn starts
 * (coord_here_start, coord_here_wait), and that coordinator's options. */
static struct la_run *deferred;
static char deferred_opts[7][PG_PATH_MAX + 16], *deferred_argv[8];

/* Whether our own child, the coordinator, has ended (reaped): 1 or 0. */
static int coord_reaped(struct la_run *r, int block)
{
	pid_t w;

	if (!r->coord_child)
		return 0;
	w = waitpid(r->coord_pid, NULL, block ? 0 : WNOHANG);
	if (w == 0 || (w < 0 && errno != ECHILD))
		return 0;
	r->coord_child = 0;
	/* (killed as it enrolled: its handshake file stays) */
	pg_pvmtmp_clear_first(r->coord_pid);
	return 1;
}

/* Ends the coordinator: through PVM once it has a tid, else its process
 * (our child, still enrolling). */
static void coord_kill(struct la_run *r)
{
	if (r->coord_tid)
		pvm_kill(r->coord_tid);
	else if (r->coord_child)
		kill(r->coord_pid, SIGTERM);
}

/* Reaps the coordinator if it is our child: it has ended, or ends
 * within 2 s (told or killed before), else it is killed.  Its end is
 * awaited on a pidfd (its exit notify comes as it leaves PVM, a little
 * before it exits), else 1 ms at a time. */
static void coord_end_child(struct la_run *r)
{
	int fd = r->coord_child && !coord_reaped(r, 0) ?
		 (int)syscall(SYS_pidfd_open, r->coord_pid, 0) : -1;

	if (fd >= 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		poll(&p, 1, 2000);
		close(fd);
	}
	for (int i = 0; i < 2000 && r->coord_child; i++)
		if (!coord_reaped(r, 0))
			usleep(1000);
	if (r->coord_child) {
		kill(r->coord_pid, SIGKILL);
		coord_reaped(r, 1);
	}
}

/* The write end of the pipe a coordinator started early waits on before
 * it enrolls (coord_here_early), -1 if none. */
static int coord_gate = -1;

/*
 * Starts the coordinator as the launcher's own child, with
 * deferred_argv (and -gate 3, GATE the pipe's read end, unless -1): no
 * round trip to the pvmd while it forks, and no fork of the pvmd, whose
 * child closes every descriptor up to its limit before the exec (20 000
 * here: 2.4-6 ms of CPU in every run).  In a process group of its own
 * (a ^C at the terminal is the launcher's to handle).  0, or -1 (said:
 * the run then ends, coord_check_up).
 */
static int coord_here_launch(int gate)
{
	struct la_run *r = deferred;
	char path[PG_PATH_MAX + 32], me[16], pvmd[16];
	char opt_l[] = "-launcher", opt_p[] = "-pvmd", opt_g[] = "-gate";
	char three[] = "3";
	char *argv[18] = { path, opt_l, me, opt_p, pvmd };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t a;
	pid_t pid;
	int rc, n = 5;

	la_coord_path(path, sizeof(path));
	if (gate >= 0) {
		argv[n++] = opt_g;
		argv[n++] = three;
	}
	for (char **o = deferred_argv; *o && n < 17; o++)
		argv[n++] = *o;
	snprintf(me, sizeof(me), "%d", pvm_mytid());
	snprintf(pvmd, sizeof(pvmd), "%d", (int)r->pvmd_pid);
	la_spawn_attr_own(&a);
	/* nothing of ours but stdin, stdout and stderr: our socket to the
	   pvmd (kept open, it would hide our death from the pvmd), the log
	   folder's lock, the logs */
	posix_spawn_file_actions_init(&fa);
	if (gate >= 0)
		posix_spawn_file_actions_adddup2(&fa, gate, 3);
	posix_spawn_file_actions_addclosefrom_np(&fa, gate >= 0 ? 4 : 3);
	rc = posix_spawn(&pid, path, &fa, &a, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&a);
	r->coord_spawned = la_death_now();
	if (rc != 0) { /* (coord_check_up then ends the run's tasks) */
		la_error("cannot start the coordinator (%s: %s)", path,
			 strerror(rc));
		r->coord_exited = 1;
		r->coord_failed = LA_COORD_UNSTARTED;
		deferred = NULL;
		return -1;
	}
	r->coord_pid = pid;
	r->coord_child = 1;
	return 0;
}

/*
 * While the launcher's first spawn waits for a task it started itself to
 * enroll (direct.c): starts the coordinator already, to wait on a pipe
 * before it enrolls (-gate), so that once the task has its tid the
 * coordinator only enrolls (its tid after the programs': theirs are
 * those of every run) and says HELLO.
 */
static void coord_here_early(void)
{
	int p[2];

	if (!deferred || deferred->coord_child || coord_gate >= 0)
		return;
	pg_timeline("launcher", "starts the coordinator (to wait on a pipe)");
	if (pipe2(p, O_CLOEXEC) < 0)
		return; /* (started as usual then) */
	if (coord_here_launch(p[0]) == 0)
		coord_gate = p[1];
	else
		close(p[1]);
	close(p[0]);
}

/* Closes the gate of a coordinator started early: it enrolls now, or,
 * when GO is 0, ends. */
static void coord_gate_open(int go)
{
	char b = 1;

	if (coord_gate < 0)
		return;
	if (go && write(coord_gate, &b, 1) != 1) {
		/* (it has died: its HELLO wait reaps it and says so) */
	}
	close(coord_gate);
	coord_gate = -1;
}

/*
 * pg_task0_await_coordinator's START, in the launcher's first spawn once
 * the programs have their tids (the coordinator, which enrolls after
 * them, does not change them from run to run): lets the coordinator
 * started early enroll, or starts it (coord_here_launch).  0, or -1
 * (said: the run then ends, coord_check_up).
 */
static int coord_here_start(void)
{
	pg_timeline("launcher", "starts the coordinator");
	if (coord_gate >= 0) {
		coord_gate_open(1);
		return 0;
	}
	/* (none when its early start failed: said) */
	return deferred ? coord_here_launch(-1) : -1;
}

/*
 * pg_task0_await_coordinator's WAIT, after START (and task 0's
 * calibration): takes the HELLO of the coordinator it started (up to
 * COORD_HELLO_WAIT_S, while it lives), whose sender is its tid.  Its
 * tid, or -1: the coordinator is then ended, and coord_check_up says so
 * and ends the run.
 */
static int coord_here_wait(void)
{
	struct la_run *r = deferred;
	int ctx = pvm_setcontext(r->ctx), tid = -1, b, tag, src, version;

	deferred = NULL;
	while (r->coord_child && la_death_now() - r->coord_spawned <
				     COORD_HELLO_WAIT_S) {
		struct timeval slice = { 0, 100000 }; /* (a death seen soon) */

		b = pvm_trecv(-1, PG_TAG_HELLO, &slice);
		if (b > 0 && pg_proto_check(b, &tag, &src, &version) == 0) {
			tid = src;
			break;
		}
		if (b < 0 || coord_reaped(r, 0))
			r->coord_exited = 1;
		if (r->coord_exited)
			break;
	}
	if (tid > 0) { /* (its exit notify in the run's context) */
		r->coord_tid = tid;
		r->coord_up = 1;
		pvm_notify(PvmTaskExit, PG_TAG_EXITED, 1, &r->coord_tid);
		pg_timeline("launcher", "coordinator's HELLO");
	} else if (r->coord_child && !r->coord_exited) {
		kill(r->coord_pid, SIGTERM); /* (coord_check_up says why) */
	}
	pvm_setcontext(ctx);
	return tid;
}

/* Has the launcher's first spawn start the coordinator, with ARGS (its
 * options, NULL-ended; copied), on this host (coord_here_start). */
static void coord_here(struct la_run *r, char **args)
{
	int n = 0;

	while (args[n] && n < 7) {
		snprintf(deferred_opts[n], sizeof(deferred_opts[n]), "%s", args[n]);
		deferred_argv[n] = deferred_opts[n];
		n++;
	}
	deferred_argv[n] = NULL;
	deferred = r;
	pg_task0_await_coordinator(coord_here_start, coord_here_wait);
}

/*
 * Starts the coordinator (in Pangaea's context) on the -coord host, else
 * on ours (PVM's default placement would pick any host of the machine),
 * and does not wait for its HELLO: the programs are spawned while it
 * starts (PVM holds the messages for it meanwhile), and the run's
 * message loop takes the HELLO, or stops the run if it ends first or
 * does not come (coord_check_up).  On our host, without a live view, it
 * is our own child, which the first spawn starts once the programs have
 * their tids and whose HELLO it takes (coord_here).  If we started the
 * virtual machine, it
 * halts it should we die (-halt-vm).  With a live viewer (PANGAEA_LIVE)
 * and the coordinator on another host than the viewer's (ours, or the
 * spawn dialog's PANGAEA_LIVE_HOST), the viewer's socket cannot be
 * reached from there: a relay, pangaea-coord -relay, is started on the
 * viewer's host first; it serves the socket, and the coordinator passes it the
 * tasks' event batches over PVM (-live-to TID; docs/INTERNALS.md §18.1).
 * With a live viewer the coordinator also follows the logs of the tasks
 * of its own host (-follow LOGDIR), and so does the relay on ours when
 * the coordinator runs elsewhere (the beacons on the other hosts:
 * la_hosts_watch, which says which hosts' tasks send no batches).
 */
static int start_coordinator(struct la_run *r)
{
	char home[PG_HOST_MAX], names[1024];
	char halt[] = "-halt-vm", relay[] = "-relay", live_to[] = "-live-to";
	char follow[] = "-follow", logdir[PG_PATH_MAX];
	char rtid[16], *argv[6] = { NULL }, **a = argv;
	const char *host = r->o->coord_host, *live = getenv(PG_ENV_LIVE);
	const char *viewer = getenv(LA_ENV_LIVE_HOST);
	int n;

	pg_pvm_host_of(pvm_mytid(), home, sizeof(home));
	if (!viewer || !*viewer)
		viewer = home;
	if (host && !la_hosts_has(host, names, sizeof(names))) {
		la_error("-coord %s: no such host in the virtual machine (its "
			 "hosts: %s)", host, names);
		return -1;
	}
	if (!host)
		host = home;
	if (r->started_vm)
		*a++ = halt;
	if (live && *live)
		snprintf(logdir, sizeof(logdir), "%s", r->logdir);
	if (live && *live && strcmp(host, viewer) != 0) {
		/* (on our host, nobody else follows its tasks' logs) */
		int here = strcmp(viewer, home) == 0;
		char *rargv[4] = { relay, here ? follow : NULL, logdir, NULL };

		pg_timeline("launcher", "spawns the live view's relay");
		n = coord_spawn(rargv, viewer, &r->relay_tid);
		if (coord_hello(n, r->relay_tid, viewer, "live view's relay") < 0) {
			r->relay_tid = 0;
			return -1;
		}
		pvm_notify(PvmTaskExit, PG_TAG_EXITED, 1, &r->relay_tid);
		r->live_here = here;
		snprintf(rtid, sizeof(rtid), "%d", r->relay_tid);
		*a++ = live_to;
		*a++ = rtid;
	}
	if (live && *live) {
		*a++ = follow;
		*a++ = logdir;
		r->live_here |= strcmp(host, home) == 0;
	}
	pg_timeline("launcher", "spawns the coordinator");
	snprintf(r->coord_host, sizeof(r->coord_host), "%s", host);
	if (strcmp(host, home) == 0 && !(live && *live)) {
		coord_here(r, argv);
		return 0;
	}
	n = coord_spawn(argv, host, &r->coord_tid);
	if (n != 1) {
		la_error("cannot start the coordinator on %s (%s)", host,
			 pg_pvm_errtext(n < 0 ? n : r->coord_tid));
		r->coord_tid = 0;
		if (r->relay_tid)
			pvm_kill(r->relay_tid);
		return -1;
	}
	r->coord_spawned = la_death_now();
	pg_task0_set_coordinator(r->coord_tid);
	pvm_notify(PvmTaskExit, PG_TAG_EXITED, 1, &r->coord_tid);
	if (strcmp(host, home) != 0)
		la_say(r->o, "the coordinator runs on %s", host);
	if (r->relay_tid && strcmp(viewer, home) != 0)
		la_say(r->o, "the live view's relay runs on %s", viewer);
	return 0;
}

/* Until the coordinator's HELLO has come: 0 while it may still come;
 * -1 once it cannot (the coordinator ended first, or did not answer in
 * COORD_HELLO_WAIT_S, not counting a time it was seen stopped on this
 * host: killed), said once, the run's tasks then killed
 * (they wait for it, in their registration). */
static int coord_check_up(struct la_run *r)
{
	if (r->coord_up || (!r->coord_tid && !r->coord_child &&
			    !r->coord_exited))
		return 0;
	if (r->coord_failed == LA_COORD_UNSTARTED) { /* (said) */
		r->coord_failed = 1;
		la_tasks_kill(r);
		return -1;
	}
	if (r->coord_failed)
		return -1;
	if (!r->coord_exited &&
	    la_death_now() - r->coord_spawned < COORD_HELLO_WAIT_S)
		return 0;
	if (!r->coord_exited && la_vm_process_stopped(r->coord_pid)) {
		r->coord_spawned = la_death_now(); /* its wait starts again */
		return 0;
	}
	la_error("cannot start the coordinator on %s (%s)", r->coord_host,
		 r->coord_exited ? "it ended before it answered" :
				   "it did not answer");
	if (!r->coord_exited)
		coord_kill(r);
	r->coord_failed = 1;
	la_tasks_kill(r);
	return -1;
}

/* Makes the launcher task 0 of the run (logs in LOGDIR); 0 or -1. */
static int setup_task0(struct la_run *r, const char *logdir)
{
	struct pg_task0_config c = {
		.mode = r->o->mode, .logdir = logdir,
		.replaydir = r->o->mode == PANGAEA_MODE_REPLAY ? r->replaydir
							       : NULL,
		.delay_us = r->o->delay_us, .seed = r->o->seed,
		.chaos = r->o->chaos, .select = r->o->select
	};
	char err[PG_PATH_MAX + 100], num[32];

	pvm_setopt(PvmAutoErr, 0); /* the launcher says what went wrong */
	unsetenv(PG_ENV_CALIB); /* task 0 measures: not an inherited value */
	r->ctx = pg_task0_open(&c, err, sizeof(err));
	if (r->ctx < 0) {
		la_error("%s", err);
		return -1;
	}
	snprintf(num, sizeof(num), "%d", r->ctx);
	la_vm_export(PG_ENV_CONTEXT, num); /* every task of the run gets it */
	if (getenv(PG_ENV_CLOCK_PERIOD)) /* and the launcher's clock period */
		la_vm_export(PG_ENV_CLOCK_PERIOD, getenv(PG_ENV_CLOCK_PERIOD));
	if (getenv(PG_ENV_TIMELINE)) /* and the timeline's switch */
		la_vm_export(PG_ENV_TIMELINE, getenv(PG_ENV_TIMELINE));
	/* (and whether its clock samples can be reads of the one clock) */
	la_vm_export(PG_ENV_ONE_HOST, la_hosts_count() == 1 ? "1" : "0");
	pg_timeline("launcher", "task 0 open (its exec log)");
	return 0;
}

static int next_message(const struct la_run *r, int ms);
static void handle(struct la_run *r, int bufid);

/* Writes how the programs are started (-staged, -stagger) into this run's
 * task-0.exec, before its spawns; 0 or -1 (said). */
static int note_start(const struct la_run *r)
{
	char path[PG_PATH_MAX + 16];
	int fd, rc;

	if (!r->o->start)
		return 0;
	snprintf(path, sizeof(path), "%s/task-0.exec", r->logdir);
	fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	rc = fd < 0 ? -1 : pg_exec_append_start(fd, r->o->start, r->o->start_ms);
	if (rc < 0)
		la_error("cannot write %s: %s", path, strerror(errno));
	if (fd >= 0 && close(fd) < 0 && rc == 0) {
		la_error("cannot write %s: %s", path, strerror(errno));
		rc = -1;
	}
	return rc;
}

/* Whether every task of TIDS (N, one program's) waits in a blocking PVM
 * call (its state file says so) or has ended: when someone starting the
 * programs from separate shells would start the next one. */
static int program_settled(struct la_run *r, const int *tids, int n)
{
	for (int i = 0; i < n; i++) {
		struct la_task *t = la_task_by_tid(r, tids[i]);
		struct pg_state st;

		if (!t)
			return 0; /* its SPAWNED has not come yet */
		if (t->exited)
			continue;
		if (!pg_state_read(r->logdir, t->ltid, &st) || !st.call)
			return 0;
	}
	return 1;
}

/*
 * -staged, -stagger: handles the run's messages until the program whose
 * tasks are TIDS (N) has settled, or START_MS have passed.  0, or 1 if
 * the run is being stopped meanwhile (^C, a death, a divergence...): no
 * further program is started.
 */
static int wait_before_next(struct la_run *r, const struct la_prog *p,
			    const struct la_prog *next, const int *tids, int n)
{
	double t0 = la_death_now();
	int said = 0, rc = 0, b;

	pvm_setcontext(r->ctx);
	for (;;) {
		double waited = la_death_now() - t0;

		if (r->o->start == PG_START_STAGGER ?
		    waited * 1000 >= r->o->start_ms : program_settled(r, tids, n))
			break;
		if (interrupted || coord_check_up(r) < 0 || r->coord_exited ||
		    r->diverged[0] ||
		    r->logfail || r->died || la_death_check(r) ||
		    la_hosts_lost(r)) { /* (which also pings the beacons) */
			rc = 1;
			break;
		}
		if (!said && waited > 5 && r->o->start == PG_START_STAGED) {
			la_say(r->o, "-staged: %s has not blocked in a PVM call nor "
			       "ended yet; %s waits", p->path, next->path);
			said = 1;
		}
		if ((b = next_message(r, 50)) < 0) {
			la_error("lost the PVM daemon (error %d): stopping the run", b);
			r->lost_pvmd = 1;
			rc = 1;
			break;
		}
		if (b > 0)
			handle(r, b);
	}
	pvm_setcontext(0);
	return rc;
}

/* Makes the N tasks TIDS of program P known at once, as the coordinator
 * would tell it (on_spawned): a coordinator that never comes up cannot,
 * and these tasks are then killed and waited for. */
static void known_at_once(struct la_run *r, const struct la_prog *p,
			  const int *tids, int n)
{
	char host[PG_HOST_MAX];

	for (int i = 0; i < n; i++) {
		pg_pvm_host_of(tids[i], host, sizeof(host));
		if (!la_task_by_tid(r, tids[i]) &&
		    la_task_add(r, pg_ltid_of(tids[i]), tids[i], host, p->path))
			pvm_notify(PvmTaskExit, PG_TAG_EXITED, 1,
				   (int *)&tids[i]);
	}
}

/* Whether program P, built for PVM architecture ARCH (its ELF header),
 * can start where the options say (-host, -arch of a host of the
 * virtual machine, else a host of ARCH): 0, or -1 said in one line. */
static int check_arch(const struct la_run *r, const struct la_prog *p,
		      const char *arch)
{
	char what[1024];

	if (r->o->host) {
		if (la_hosts_arch(r->o->host, NULL, what, sizeof(what)) == 1 &&
		    strcmp(what, arch) != 0) {
			la_error("%s is built for %s, but host %s is %s: build it "
				 "for %s (scripts/cross-cc.sh) or choose a host of "
				 "its architecture", p->path, arch, r->o->host,
				 what, what);
			return -1;
		}
		return 0;
	}
	if (r->o->arch) {
		/* (an -arch of no host: PVM's own "No such host" says so) */
		if (strcmp(r->o->arch, arch) != 0 &&
		    la_hosts_arch(NULL, r->o->arch, what, sizeof(what)) == 1) {
			la_error("%s is built for %s, not for -arch %s", p->path,
				 arch, r->o->arch);
			return -1;
		}
		return 0;
	}
	if (la_hosts_arch(NULL, arch, what, sizeof(what)) == 0) {
		la_error("%s is built for %s, and no host of that architecture "
			 "is in the virtual machine (its hosts: %s)", p->path,
			 arch, what);
		return -1;
	}
	return 0;
}

/* Spawns the programs of the command line as tasks 1..N (with -staged or
 * -stagger, one after another); 0, -1 error, -2 the replay of these
 * spawns diverged (r->diverged says how). */
static int start_programs(struct la_run *r)
{
	if (note_start(r) < 0)
		return -1;
	for (int i = 0; i < r->o->nprog; i++) {
		struct la_prog *p = &r->o->progs[i];
		int tids[r->o->ntask > 0 ? r->o->ntask : 1], n;
		const char *where = r->o->host ? r->o->host : r->o->arch;
		int flags = r->o->spawn_flags | (r->o->host ? PvmTaskHost :
						 r->o->arch ? PvmTaskArch : 0);
		const char *arch = r->o->mode == PANGAEA_MODE_REPLAY ? NULL :
				   la_program_arch(p->path);

		if (arch && check_arch(r, p, arch) < 0)
			return -1;
		/* hosts of several architectures: the program on one of its
		   own (as a pvmd of another could not run it) */
		if (!where && arch && la_hosts_narch() > 1) {
			where = arch;
			flags |= PvmTaskArch;
		}
		if (r->o->mode == PANGAEA_MODE_REPLAY && i < r->o->recorded.nspawn)
			flags = r->o->recorded.spawns[i].flags; /* where: as recorded */
		pg_timeline("launcher", "spawns a program");
		if (la_direct_fits(r, p->path, where, flags, r->o->ntask))
			la_direct_arm(coord_here_early);
		n = pangaea_pvm_spawn(p->path, p->argv, flags, (char *)where,
				      r->o->ntask, tids);
		la_direct_disarm();
		pg_timeline("launcher", "spawned (handovers sent)");
		if (n < 0 && pg_task0_diverged()) {
			snprintf(r->diverged, sizeof(r->diverged), "%s",
				 pg_task0_diverged());
			la_error("%s", r->diverged);
			return -2;
		}
		if (n != r->o->ntask) {
			la_error("cannot start %s%s%s%s: %s", p->path,
				 where ? " on " : "",
				 flags & PvmTaskArch ? "architecture " : "",
				 where ? where : "",
				 pg_pvm_errtext(n < 0 ? n : tids[n > 0 ? n : 0]));
			return -1;
		}
		r->nstarted += n;
		known_at_once(r, p, tids, n);
		if (r->o->start && i + 1 < r->o->nprog &&
		    wait_before_next(r, p, &r->o->progs[i + 1], tids, n) != 0)
			return 0; /* the run is being stopped: wait_tasks ends it */
	}
	return 0;
}

/* Handles a SPAWNED message forwarded by the coordinator. */
static void on_spawned(struct la_run *r)
{
	struct pg_spawned_task t;
	int parent, n;

	if (pg_proto_upk_spawned(&parent, &n) < 0)
		return;
	for (int i = 0; i < n; i++) {
		if (pg_proto_upk_spawned_task(&t) < 0)
			return;
		if (la_task_by_tid(r, t.tid)) /* the launcher's (known_at_once) */
			continue;
		la_task_add(r, t.ltid, t.tid, t.host, t.program);
		pvm_notify(PvmTaskExit, PG_TAG_EXITED, 1, &t.tid);
	}
	la_output_known(); /* the lines they printed before */
}

/* Handles a divergence report: print it, stop the run. */
static void on_diverged(struct la_run *r)
{
	char report[sizeof(r->diverged)];
	int ltid;

	if (pg_proto_upk_diverged(&ltid, report, sizeof(report)) < 0)
		return;
	if (!r->diverged[0]) {
		snprintf(r->diverged, sizeof(r->diverged), "%s", report);
		la_error("%s", report);
		la_tasks_kill(r);
	}
}

/* Handles a LOGFAIL: names the task that cannot write its log and why;
 * the first one ends the run (exit LA_DIED). */
static void on_logfail(struct la_run *r)
{
	char who[PG_PATH_MAX + PG_HOST_MAX + 32];
	struct la_task *t;
	int v[2];

	if (pg_proto_upk(PG_TAG_LOGFAIL, v) < 0)
		return;
	if ((t = la_task_by_ltid(r, v[0])))
		snprintf(who, sizeof(who), "task %d (%s on %s)", t->ltid,
			 t->program, t->host);
	else
		snprintf(who, sizeof(who), v[0] == 0 ? "task 0 (the launcher)"
			 : "task %d", v[0]);
	la_error("%s: cannot write its log: %s", who, strerror(v[1]));
	if (!r->logfail) {
		r->logfail = v[1];
		if (!r->stopped_by[0])
			snprintf(r->stopped_by, sizeof(r->stopped_by),
				 "%s: cannot write its log: %s", who,
				 strerror(v[1]));
		la_error("a recorded event would be lost: stopping the run");
		la_tasks_kill(r);
	}
}

/* Handles the message BUFID of Pangaea's context. */
static void handle(struct la_run *r, int bufid)
{
	int v[3], tag, src, version;
	struct la_task *t;

	if (pg_proto_check(bufid, &tag, &src, &version) < 0) {
		la_error("ignoring a message from t%x with protocol version %d",
			 src, version);
		return;
	}
	if (tag == PG_TAG_OUTPUT) {
		la_output_take();
	} else if (tag == PG_TAG_HELLO && src == r->coord_tid) {
		r->coord_up = 1;
		pg_timeline("launcher", "coordinator's HELLO");
	} else if (tag == PG_TAG_ACK && pg_proto_upk(tag, v) == 0 &&
		   src == r->coord_tid && v[0] < 0) {
		/* (the launcher's SPAWNED: pangaea_pvm_spawn does not wait) */
		la_error("the coordinator could not take the tasks the launcher "
			 "started (%s)", pg_pvm_errtext(v[0]));
	} else if (tag == PG_TAG_EXITED && pg_proto_upk(tag, v) == 0) {
		if (v[0] == r->coord_tid)
			r->coord_exited = 1;
		else if (v[0] == r->relay_tid)
			r->relay_exited = 1;
		else if ((t = la_task_by_tid(r, v[0])))
			la_death_gone(r, t);
		else
			la_hosts_exited(r, v[0]);
	} else if (tag == PG_TAG_BEACON) {
		la_hosts_heard(r, src);
	} else if (tag == PG_TAG_HOSTADD) {
		la_hosts_added(r);
	} else if (tag == PG_TAG_ENDTASK) {
		la_death_trace(r);
	} else if (tag == PG_TAG_WATCH) {
		la_death_watch(r);
	} else if (tag == PG_TAG_SPAWNED) {
		on_spawned(r);
	} else if (tag == PG_TAG_DIVERGED) {
		on_diverged(r);
	} else if (tag == PG_TAG_LOGFAIL) {
		on_logfail(r);
	} else if (tag == PG_TAG_KILLING || tag == PG_TAG_KILLWAIT) {
		la_kill_message(r, tag, src);
	} else if (tag == PG_TAG_DEBUG) {
		la_debug_message(r, src);
	} else if (tag == PG_TAG_DONE && pg_proto_upk(tag, v) == 0 &&
		   (t = la_task_by_ltid(r, v[0]))) {
		t->done_how = v[1];
		t->done_value = v[2];
	}
}

/*
 * The next message of the current context, waiting up to MS milliseconds:
 * a buffer id, 0 on timeout, < 0 once the pvmd is gone.  pvm_trecv can
 * block well past its timeout when the daemon dies, so the waiting is
 * done here, with poll() on PVM's sockets.
 */
static int next_message(const struct la_run *r, int ms)
{
	struct pollfd p[36];
	int *fds, n, k, b;

	if (!la_vm_alive(r))
		return PvmSysErr;
	la_stdin_step(); /* task 1's standard input, as it can take it */
	if ((b = pvm_nrecv(-1, -1)) != 0)
		return b;
	n = pvm_getfds(&fds);
	if (n < 1)
		return PvmSysErr;
	n = n < 16 ? n : 16;
	for (int i = 0; i < n; i++)
		p[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	n += la_stdin_poll(p + n, 4);
	k = n;
	n += la_direct_poll(p + n, (int)(sizeof(p) / sizeof(p[0])) - n);
	poll(p, (nfds_t)n, ms < 100 ? ms : 100); /* a prompt (output.c) */
	la_stdin_step();
	la_direct_step((struct la_run *)r, p + k, n - k);
	la_output_tick();
	return la_vm_alive(r) ? pvm_nrecv(-1, -1) : PvmSysErr;
}

/* Notes in R what stops the run now: the signal that interrupted the
 * launcher, a closed output, or else the coordinator's death. */
static void note_stop(struct la_run *r)
{
	if (interrupted == SIGPIPE)
		snprintf(r->stopped_by, sizeof(r->stopped_by),
			 "the output was closed");
	else if (interrupted)
		snprintf(r->stopped_by, sizeof(r->stopped_by),
			 "interrupted (SIG%s)", sigabbrev_np(interrupted));
	else
		snprintf(r->stopped_by, sizeof(r->stopped_by),
			 "the coordinator died");
}

/* Receives and handles messages until every task has exited. */
static void wait_tasks(struct la_run *r)
{
	time_t killed_at = 0;
	int b;

	while (!la_tasks_all_exited(r, r->nstarted)) {
		/* the reader of our output went away (`pangaea ... | head`) */
		if (!interrupted && ferror(stdout))
			interrupted = SIGPIPE;
		if (!killed_at && coord_check_up(r) < 0)
			killed_at = time(NULL);
		if ((interrupted || (r->coord_exited && !killed_at)) && !killed_at) {
			if (!r->stopped_by[0]) /* (else a death, a full disk) */
				note_stop(r);
			la_error(interrupted == SIGPIPE ? "the output was closed: "
				 "stopping the run" : interrupted ? "interrupted: "
				 "stopping the run" : "the coordinator died: "
				 "stopping the run");
			la_tasks_kill(r);
			killed_at = time(NULL);
		}
		if ((r->diverged[0] || r->logfail) && !killed_at)
			killed_at = time(NULL);
		if (!killed_at && la_death_check(r)) /* says each death at once */
			killed_at = time(NULL);
		if (!killed_at && la_hosts_lost(r))
			killed_at = time(NULL);
		if (killed_at && time(NULL) - killed_at >
				 (r->lost_host ? LOST_GRACE_S : KILL_GRACE_S))
			break;
		b = next_message(r, 200);
		if (b < 0) {
			la_error("lost the PVM daemon (error %d): stopping the run", b);
			r->lost_pvmd = 1;
			la_tasks_kill(r);
			return;
		}
		if (b > 0)
			handle(r, b);
		la_kill_check(r);
		la_debug_tick(r);
		/* (a task in gdb is not deadlocked, nor one whose peer the
		   launcher is killing: an interrupted run is no deadlock) */
		if (!la_debug_busy(r) && !killed_at)
			la_deadlock_check(r);
		la_tasks_check_joined(r);
	}
}

/* Whether a task of the run still has its output open (not the
 * coordinator's, its relay's, nor the beacons', which end later). */
static int output_open(const struct la_run *r)
{
	int *except = malloc((size_t)(r->nbeacons + 2) * sizeof(int)), k;

	if (!except)
		return la_output_open(&r->coord_tid, 1) > 0;
	except[0] = r->coord_tid;
	except[1] = r->relay_tid;
	for (int i = 0; i < r->nbeacons; i++)
		except[i + 2] = r->beacons[i].tid;
	k = la_output_open(except, r->nbeacons + 2);
	free(except);
	return k > 0;
}

/* Picks up the messages already queued, the tasks' last output (up to
 * 2 s for each stream to end), the wait status of a task that left the
 * run through pangaea_exit (la_death_lingering) and the last word of a task that ended
 * without a DONE (PVM's trace event with its wait status, up to 1 s:
 * la_death_awaited), then writes what is left of the output.  Waits
 * only while one of these is missing: no fixed wait once everything has
 * come (a DONE that the exit notify overtook is not awaited: the task's
 * log has its end record, la_tasks_settle). */
static void drain(struct la_run *r)
{
	double t0 = la_death_now();
	int b, wait, linger;

	/* (the output of a lost host's tasks never ends) */
	double most = r->lost_host ? 0.2 : 2;

	/* (and, with no bound but ^C, a process that left the run and goes
	   on, as a shell waits for it: its exit status is reported) */
	while (!r->lost_pvmd) {
		linger = !interrupted && la_death_lingering(r);
		wait = output_open(r) || la_death_awaited(r);
		b = next_message(r, wait || linger ? 50 : 0);
		if (b > 0)
			handle(r, b);
		else if (b < 0 || !(linger || (wait && la_death_now() - t0 < most)))
			break;
	}
	la_direct_finish(r);
	la_output_finish();
}

/* Handles the run's messages until *EXITED is set or S seconds pass. */
static void await_exit(struct la_run *r, const int *exited, int s)
{
	time_t t0 = time(NULL);

	while (!*exited && time(NULL) - t0 < s) {
		int b = next_message(r, 200);

		if (b < 0)
			break;
		if (b > 0)
			handle(r, b);
	}
}

/* Tells the coordinator to quit and waits briefly for it; then for the
 * live view's relay, which the coordinator tells to end after its last
 * events (told here if the coordinator could not), and which may wait
 * up to 5 s for the viewer to connect. */
static void stop_coordinator(struct la_run *r)
{
	int me = pvm_mytid(), said = 0;

	if (deferred == r) { /* no spawn started it (or let it enroll) */
		deferred = NULL;
		pg_task0_await_coordinator(NULL, NULL);
		coord_gate_open(0);
	}
	if (r->coord_tid && !r->coord_exited && !r->lost_pvmd) {
		pg_proto_send(r->coord_tid, PG_TAG_QUIT, &me);
		/* (after a lost host, its exit notify may wait on the lost host) */
		await_exit(r, &r->coord_exited, r->lost_host ? 1 : 5);
		said = r->coord_exited;
		if (!r->coord_exited)
			pvm_kill(r->coord_tid);
	}
	coord_end_child(r);
	if (!r->relay_tid || r->relay_exited || r->lost_pvmd)
		return;
	if (!said)
		pg_proto_send(r->relay_tid, PG_TAG_QUIT, &me);
	await_exit(r, &r->relay_exited, 10);
	if (!r->relay_exited)
		pvm_kill(r->relay_tid);
}

/* The launcher's exit status once the run is over. */
static int run_status(struct la_run *r, const char *logdir)
{
	if (r->coord_failed)
		return LA_SETUP; /* coord_check_up said why */
	la_tasks_settle(r, logdir);
	la_tasks_lost_divergence(r);
	if (r->diverged[0] || r->died) {
		int stopped = 0;

		for (int i = 0; i < r->ntasks; i++)
			stopped += r->tasks[i].done_how != PG_END_EXIT &&
				   r->tasks[i].done_how != PG_END_DIVERGED &&
				   !r->tasks[i].said &&
				   !la_task_killed(&r->tasks[i]);
		if (stopped)
			la_say(r->o, "stopped the %d other running task(s) of the run",
			       stopped);
		return r->diverged[0] ? LA_DIVERGED : LA_DIED;
	}
	if (r->logfail)
		return LA_DIED; /* on_logfail said why */
	if (r->lost_pvmd || r->interrupted)
		return la_tasks_report(r), LA_DIED;
	if (la_tasks_report(r))
		return LA_DIED;
	/* (a status after pangaea_exit is the program's, not the run's:
	 * named, as a shell would show it, but the logs are whole) */
	la_tasks_failed(r);
	return LA_OK;
}

/* After a stopped run: ends the run's tasks left on this host, which
 * the launcher may never have heard of (the beacons do it on theirs). */
static void sweep_here(struct la_run *r)
{
	int n = la_vm_kill_tasks(r->pvmd_pid);

	if (n > 0)
		la_say(r->o, "ended %d more task(s) of the run left on this "
		       "host", n);
}

/* Runs the programs in the virtual machine; the exit status. */
static int run_in_vm(struct la_run *r, const char *logdir)
{
	int status = LA_SETUP;

	if (setup_task0(r, logdir) < 0)
		return LA_SETUP;
	r->logdir = logdir;
	if (la_stdin_setup(r) < 0) {
		la_stdin_close();
		pg_task0_close();
		return LA_SETUP;
	}
	la_death_trace_setup(r);
	la_output_setup(r); /* not pvm_catchout: see output.c */
	pvm_setcontext(r->ctx);
	if (start_coordinator(r) == 0) {
		la_hosts_watch(r);
		if (r->o->mode == PANGAEA_MODE_REPLAY &&
		    la_hosts_ship(r, r->replaydir) < 0) {
			stop_coordinator(r);
			la_hosts_stop(r);
			goto out;
		}
		pvm_setcontext(0);
		la_programs_preload(r->o);
		la_debug_setup(r->o);
		if (la_programs_folder() == 0 && start_programs(r) == 0)
			status = LA_OK;
		pvm_setcontext(r->ctx);
		if (status != LA_OK)
			la_tasks_kill(r);
		wait_tasks(r);
		pg_timeline("launcher", "every task has exited");
		drain(r);
		pg_timeline("launcher", "drained (late messages, output)");
		la_debug_finish();
		if (!r->lost_pvmd)
			la_hosts_collect(r, logdir);
		r->interrupted = interrupted != 0;
		if (!r->interrupted && !r->coord_failed)
			la_death_finish(r);
		if (status == LA_OK)
			status = run_status(r, logdir);
		else if (r->diverged[0])
			status = LA_DIVERGED;
		stop_coordinator(r);
		pg_timeline("launcher", "coordinator stopped");
		la_hosts_stop(r);
		if (!r->lost_pvmd && (r->died || r->diverged[0] || r->logfail ||
				      r->interrupted || r->lost_host ||
				      r->coord_failed))
			sweep_here(r);
		if (!r->lost_pvmd)
			la_tasks_tidy(r);
	}
out:
	la_direct_finish(r);
	la_output_finish();
	la_stdin_close();
	pg_task0_close();
	return status;
}

/*
 * Takes over the recording's selection (from task 1's log header); a
 * replay asked for another selection is refused.  0 or -1.
 */
static int replay_selection(struct la_opts *o)
{
	char path[PG_PATH_MAX + 16], err[PG_PATH_MAX + 100];
	struct pg_comm_reader r;

	snprintf(path, sizeof(path), "%s/task-1.comm", o->logdir);
	if (pg_comm_open(&r, path, err, sizeof(err)) < 0) {
		la_error("refusing to replay: %s", err);
		return -1;
	}
	if (o->select[0] && strcmp(o->select, r.hdr.select) != 0) {
		la_error("refusing to replay: the recording in %s was made with "
			 "-select \"%s\", not \"%s\"", o->logdir,
			 r.hdr.select[0] ? r.hdr.select : "(everything)",
			 o->select);
		pg_comm_free(&r);
		return -1;
	}
	snprintf(o->select, sizeof(o->select), "%s", r.hdr.select);
	pg_comm_free(&r);
	return 0;
}

/* Checks the recording and fills in the programs to replay; 0 or -1. */
static int replay_prepare(struct la_opts *o)
{
	char path[PG_PATH_MAX + 16], err[PG_PATH_MAX + 100];
	int nprog = o->nprog;

	if (la_logdir_check(o->logdir) < 0 || replay_selection(o) < 0)
		return -1;
	if (pg_crosscheck(o->logdir, err, sizeof(err)) != 0) {
		la_error("refusing to replay: the logs disagree: %s", err);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/task-0.exec", o->logdir);
	if (pg_exec_read(path, &o->recorded, err, sizeof(err)) < 0) {
		la_error("refusing to replay: %s", err);
		return -1;
	}
	if (nprog && nprog != o->recorded.nspawn) {
		la_error("the recording in %s ran %d program(s); you gave %d",
			 o->logdir, o->recorded.nspawn, nprog);
		return -1;
	}
	if (!nprog) {
		free(o->progs);
		o->progs = calloc((size_t)o->recorded.nspawn + 1,
				  sizeof(*o->progs));
		if (!o->progs)
			return -1;
	}
	for (int i = 0; i < o->recorded.nspawn; i++) {
		struct pg_spawn_rec *s = &o->recorded.spawns[i];

		if (nprog && strcmp(o->progs[i].path, s->file) != 0) {
			la_error("the recording in %s ran %s, not %s", o->logdir,
				 s->file, o->progs[i].path);
			return -1;
		}
		if (!nprog) {
			snprintf(o->progs[i].path, sizeof(o->progs[i].path), "%s", s->file);
			o->progs[i].argv = s->argv;
			o->progs[i].recorded = 1;
		}
		o->ntask = s->ntask;
	}
	o->nprog = o->recorded.nspawn;
	o->start = o->recorded.start; /* -staged, -stagger: as recorded */
	o->start_ms = o->recorded.start_ms;
	if (!o->outdir[0])
		la_logdir_replay_name(o->logdir, o->outdir, sizeof(o->outdir));
	return 0;
}

/* Says last, when the run was stopped (a signal, the coordinator's or
 * the pvmd's death, a closed output, a task's death), what stopped it:
 * the tasks' deaths it caused were said since. */
static void say_stopped_by(struct la_run *r)
{
	if (!r->stopped_by[0] && interrupted) /* (in the start-up) */
		note_stop(r);
	else if (!r->stopped_by[0] && r->lost_pvmd)
		snprintf(r->stopped_by, sizeof(r->stopped_by),
			 "the PVM daemon was lost");
	if (r->stopped_by[0])
		la_error("the run was stopped: %s", r->stopped_by);
}

/* Prints how the run compares with its recording, or what it recorded
 * (also when a task exited non-zero after leaving the run: its logs are
 * whole); the final status. */
static int summarize(struct la_opts *o, const char *logdir, int status)
{
	char diff[2048];
	long nev;
	int nt, rc;

	if (status != LA_OK)
		return status;
	if (o->mode == PANGAEA_MODE_RECORD) {
		if (pg_run_count(logdir, &nev, &nt, diff, sizeof(diff)) == 0)
			la_say(o, "recorded %ld events of %d tasks in %s", nev, nt,
			       logdir);
		return status;
	}
	if (o->nswap) { /* the free part is a new run, not a divergence */
		if (pg_run_count(logdir, &nev, &nt, diff, sizeof(diff)) == 0)
			la_say(o, "what-if run recorded %ld events of %d tasks in "
			       "%s (pangaea -replay -logdir %s replays it)", nev,
			       nt, logdir, logdir);
		return status;
	}
	rc = pg_verify_runs(o->logdir, logdir, &nev, &nt, diff, sizeof(diff));
	if (rc == 0) {
		la_say(o, "replay reproduced all %ld events of %d tasks (logs in %s)",
		       nev, nt, logdir);
		return status;
	}
	la_error("the replay differs from its recording: %s", diff);
	return LA_DIVERGED;
}

int la_run(struct la_opts *o)
{
	struct la_run r = { .o = o, .t0 = la_death_now() };
	char logdir[PG_PATH_MAX];
	int status;

	pg_timeline("launcher", "starts");
	/* (at once: a ^C or kill while the logs and programs are checked
	   is told as one in the run, not a silent death by the signal) */
	signal(SIGINT, on_interrupt);
	signal(SIGTERM, on_interrupt);
	/* a closed output must not kill us before we have stopped the run
	   (its tasks would be left running): writes fail instead, and the
	   wait loop notices */
	signal(SIGPIPE, SIG_IGN);
	if (o->mode == PANGAEA_MODE_REPLAY && replay_prepare(o) < 0)
		return LA_SETUP;
	if (la_whatif_prepare(o) < 0)
		return LA_SETUP;
	if (la_programs_check(o) < 0)
		return LA_SETUP;
	if (o->mode == PANGAEA_MODE_REPLAY && !realpath(o->logdir, r.replaydir))
		return LA_SETUP;
	if (la_debug_check(o, r.replaydir) < 0) /* -debug's event is there */
		return LA_SETUP;
	if (la_logdir_prepare(o->mode == PANGAEA_MODE_RECORD ? o->logdir :
			      o->outdir, o->logmode) < 0 ||
	    !realpath(o->mode == PANGAEA_MODE_RECORD ? o->logdir : o->outdir,
		      logdir))
		return LA_SETUP;
	if (o->mode == PANGAEA_MODE_REPLAY)
		la_say(o, "replaying %s; this replay logs into %s", r.replaydir,
		       logdir);
	if (o->delay_us > 0)
		la_say(o, "random delays of up to %d us, seed %u (%s=%u "
		       "repeats them)", o->delay_us, o->seed, PG_ENV_SEED,
		       o->seed);
	if (o->chaos)
		la_say(o, "chaos recording, seed %u (%s=%u repeats its "
		       "decisions)", o->seed, PG_ENV_SEED, o->seed);
	if (interrupted == SIGINT || interrupted == SIGTERM) {
		/* (nothing started yet: nothing to stop) */
		la_error("the run was stopped: interrupted (SIG%s) before it "
			 "started", sigabbrev_np(interrupted));
		return LA_DIED;
	}
	pg_timeline("launcher", "checked the programs, the log folder");
	if (la_vm_start(&r) < 0)
		return LA_SETUP;
	pg_timeline("launcher", "in the virtual machine");
	if (o->mode == PANGAEA_MODE_REPLAY && la_hosts_check(o) < 0) {
		la_vm_stop(&r);
		return LA_SETUP;
	}
	status = run_in_vm(&r, logdir);
	pg_timeline("launcher", "task 0 closed");
	if (la_runinfo_hosts(&r) < 0 && status == LA_OK)
		status = LA_SETUP;
	la_vm_stop(&r);
	pg_timeline("launcher", r.started_vm ? "halted the virtual machine" :
				"left the virtual machine");
	status = summarize(o, logdir, status);
	/* the final status; a recording whose run.info is lost says so */
	if (la_runinfo_write(&r, logdir, status) < 0 &&
	    status == LA_OK)
		status = LA_SETUP;
	if (status != LA_OK)
		say_stopped_by(&r);
	la_tasks_free(&r);
	la_kill_free(&r);
	pg_timeline("launcher", "summarized: ends");
	return status;
}
