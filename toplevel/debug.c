/*
 * debug.c: the launcher's side of -replay -debug LTID[:EVENT]
 * (-debug-batch FILE).  It exports PANGAEA_DEBUG to the run's tasks; the
 * task LTID stops before its EVENT-th recorded event and sends its pid
 * (PG_TAG_DEBUG, pangaea_lib/engine/debug.c).  On this host the launcher then
 * runs `gdb -p PID` in its own terminal (gdb's process group in the
 * foreground: ^C is gdb's; a replay never reads the launcher's standard
 * input, task 1 gets the recorded one), with a start script
 * that lets the task out of its wait and selects the program's frame
 * (the caller of the PVM call); with -debug-batch, `gdb -batch` with the
 * user's commands after it and no terminal.  On another host it prints
 * the command to run there and waits.  The other tasks run on in the
 * replayed order, so the debugger cannot change it; the deadlock check
 * is off while the debugger has the task (la_debug_busy).
 *
 * An MPI run (mpirun.c) has no PVM to carry the two messages: the rank
 * writes its pid into debug-LTID.pid of the replay's log folder, which
 * the launcher looks for between its deadlock looks (la_debug_mpi_tick),
 * and the launcher lets it go by making debug-LTID.go there (the
 * binding's send_ints and recv_ints of PG_TAG_DEBUG, mpi/init.c).
 */
#include "launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long a batch gdb may outlive the run before it is killed. */
#define DG_BATCH_GRACE_S 10

/* The start script's frame selection, in gdb's Python: from the newest
 * frame up, the first frame that is not Pangaea's, PVM's or the C
 * library's is the program's (a stripped program's too: "??").  One line per element; no single quote
 * (the remote command puts it between single quotes). */
static const char *const dg_python[] = {
	"def pg_own(f):",
	"    s = f.find_sal().symtab",
	"    so = gdb.solib_name(f.pc()) or \"\"",
	"    n = f.name() or \"\"",
	"    libs = (\"libpangaea\", \"libpvm3\", \"libgpvm3\", \"libc.so\", \"ld-linux\", \"libmpi\", \"libopen-\")",
	"    return (s is not None and \"pangaea_lib/\" in s.filename) or "
	"any(x in so for x in libs) or n.startswith(\"pg_\") or "
	"n.startswith(\"pangaea_\")",
	"f = gdb.newest_frame()",
	"while f is not None and pg_own(f):",
	"    f = f.older()",
	"if f is not None:",
	"    f.select()",
	NULL
};

/* The debugging session of the run (one task, once). */
static struct {
	int ltid;               /* -debug's task, 0: no -debug */
	unsigned long long event;
	const char *batch;      /* -debug-batch's command file, or NULL */
	int asked;              /* the task has stopped and said so */
	int src, pid;           /* its tid and pid */
	int remote;             /* it is on another host: the user's gdb */
	pid_t gdb;              /* our gdb while it runs, else 0 */
	int tty;                /* it has the terminal: its own process
				   group in the foreground */
	double ended_at;        /* la_death_now() when the run ended */
	const char *mpidir;     /* an MPI run's log folder, else NULL */
	const struct la_opts *o;
	struct sigaction old_int, old_quit;
	char script[PG_PATH_MAX];
} dg;

void la_debug_setup(const struct la_opts *o)
{
	char v[64];

	memset(&dg, 0, sizeof(dg));
	dg.ltid = o->debug_ltid;
	dg.event = o->debug_event ? o->debug_event : 1;
	dg.batch = o->debug_batch[0] ? o->debug_batch : NULL;
	dg.o = o;
	if (!dg.ltid)
		return;
	snprintf(v, sizeof(v), "%d:%llu", dg.ltid, dg.event);
	la_vm_export(PG_ENV_DEBUG, v);
}

int la_debug_mpi_setup(const struct la_opts *o, const char *dir, char *env,
		       size_t n)
{
	memset(&dg, 0, sizeof(dg));
	dg.ltid = o->debug_ltid;
	dg.event = o->debug_event ? o->debug_event : 1;
	dg.batch = o->debug_batch[0] ? o->debug_batch : NULL;
	dg.o = o;
	dg.mpidir = dir;
	if (!dg.ltid)
		return 0;
	snprintf(env, n, PG_ENV_DEBUG "=%d:%llu", dg.ltid, dg.event);
	return 1;
}

int la_debug_check(const struct la_opts *o, const char *recdir)
{
	char path[PG_PATH_MAX], err[512];
	struct pg_comm_reader log;
	struct pg_event ev;
	unsigned long long n = 0;
	int r;

	if (!o->debug_ltid)
		return 0;
	if (pg_log_path(path, sizeof(path), recdir, o->debug_ltid, "comm") < 0 ||
	    access(path, F_OK) != 0) {
		la_error("-debug %d: the recording has no task %d (no %s)",
			 o->debug_ltid, o->debug_ltid, path);
		return -1;
	}
	memset(&log, 0, sizeof(log));
	if (pg_comm_open(&log, path, err, sizeof(err)) < 0) {
		la_error("-debug: %s", err);
		return -1;
	}
	while ((r = pg_comm_next(&log, &ev, err, sizeof(err))) > 0)
		n++;
	pg_comm_free(&log);
	if (r < 0) {
		la_error("-debug: %s", err);
		return -1;
	}
	if (o->debug_event > n) {
		la_error("-debug %d:%llu: task %d's recording has %llu event(s)",
			 o->debug_ltid, o->debug_event, o->debug_ltid, n);
		return -1;
	}
	return 0;
}

/* Writes the gdb start script for the task running PROGRAM into
 * dg.script (in the run's log folder LOGDIR); 0 or -1 (said). */
static int write_script(const char *logdir, const char *program)
{
	FILE *f;
	int fd;

	snprintf(dg.script, sizeof(dg.script), "%s/debug-%d.gdb", logdir,
		 dg.ltid);
	unlink(dg.script);
	fd = open(dg.script, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		  O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		la_error("cannot write %s: %s", dg.script, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fprintf(f, "set var *(int *)&pg_debug_hold = 0\npython\n");
	for (int i = 0; dg_python[i]; i++)
		fprintf(f, "%s\n", dg_python[i]);
	fprintf(f, "end\necho pangaea: task %d (%s) stopped before its "
		"event %llu, in the program's frame (down, then finish: "
		"make the %s call; continue: go on)\\n\nframe\n"
		"set pagination on\n", dg.ltid, program, dg.event,
		dg.mpidir ? "MPI" : "PVM");
	if (fclose(f) != 0) {
		la_error("cannot write %s: %s", dg.script, strerror(errno));
		return -1;
	}
	return 0;
}

/* Makes process group PGRP the foreground group of the terminal on
 * standard input (SIGTTOU ignored: a background group may do it). */
static void term_give(pid_t pgrp)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;

	sigaction(SIGTTOU, &ign, &old);
	tcsetpgrp(0, pgrp);
	sigaction(SIGTTOU, &old, NULL);
}

/* Starts gdb on dg.pid with the start script (and -debug-batch's file);
 * its pid, or -1 (said). */
static pid_t start_gdb(void)
{
	char pid[32];
	char *argv[14];
	int n = 0;
	pid_t p;

	snprintf(pid, sizeof(pid), "%d", dg.pid);
	argv[n++] = (char *)"gdb";
	argv[n++] = (char *)"-q";
	argv[n++] = (char *)"-iex"; /* no pager prompt while attaching */
	argv[n++] = (char *)"set pagination off";
	if (dg.batch)
		argv[n++] = (char *)"-batch";
	argv[n++] = (char *)"-p";
	argv[n++] = pid;
	argv[n++] = (char *)"-x";
	argv[n++] = dg.script;
	if (dg.batch) {
		argv[n++] = (char *)"-x";
		argv[n++] = (char *)dg.batch;
	}
	argv[n] = NULL;
	fflush(stdout);
	fflush(stderr);
	dg.tty = !dg.batch && isatty(0) && tcgetpgrp(0) == getpgrp();
	p = fork();
	if (p == 0) {
		sigset_t none;

		if (dg.tty) { /* ^C to gdb alone: the run's tasks, pvmd and
				 the coordinator are in the launcher's group */
			setpgid(0, 0);
			term_give(getpid());
		}
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		/* gdb waits for its tracee's stops on SIGCHLD, which an MPI
		   run's launcher blocks (mpirun.c takes it with sigtimedwait):
		   inherited blocked, gdb hung now and then at the attach */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (dg.batch) { /* no terminal; its output apart from the
				   program's: on standard error */
			int nul = open("/dev/null", O_RDONLY);

			if (nul >= 0)
				dup2(nul, 0);
			dup2(2, 1);
		}
		/* gdb keeps none of the launcher's PVM sockets */
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
		execvp(argv[0], argv);
		fprintf(stderr, "pangaea: error: cannot run gdb: %s\n",
			strerror(errno));
		_exit(127);
	}
	if (p < 0)
		la_error("cannot start gdb: %s", strerror(errno));
	else if (dg.tty) { /* (either of the two may come first) */
		setpgid(p, p);
		term_give(p);
	}
	return p;
}

/* Tells the stopped task that our debugger has ended: if it never got
 * hold of the task, the task goes on. */
static void release_task(void)
{
	int v[3] = { dg.ltid, 0, -1 };
	char path[PG_PATH_MAX + 32];
	int fd;

	if (!dg.mpidir) {
		pg_proto_send(dg.src, PG_TAG_DEBUG, v);
		return;
	}
	snprintf(path, sizeof(path), "%s/debug-%d.go", dg.mpidir, dg.ltid);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) >= 0)
		close(fd);
}

/* Prints the command that debugs the stopped task on its HOST. */
static void say_remote(const char *host)
{
	fprintf(stderr, "pangaea: task %d waits before its event %llu on "
		"host %s (pid %d) for a debugger; run on %s:\n"
		"  gdb -q -iex 'set pagination off' -p %d "
		"-ex 'set var *(int *)&pg_debug_hold = 0' "
		"-ex 'python exec(\"", dg.ltid, dg.event, host, dg.pid, host,
		dg.pid);
	for (int i = 0; dg_python[i]; i++) { /* in a Python string */
		for (const char *c = dg_python[i]; *c; c++)
			if (*c == '"')
				fputs("\\\"", stderr);
			else
				fputc(*c, stderr);
		fputs("\\n", stderr);
	}
	fprintf(stderr, "\")' -ex frame -ex 'set pagination on'");
	if (dg.batch)
		fprintf(stderr, " -batch -x '%s'", dg.batch);
	fprintf(stderr, "\n  (e.g. ssh %s gdb ...); the run waits for it\n",
		host);
}

/* Starts our gdb on the stopped task dg.pid, which runs PROGRAM, its
 * script in LOGDIR; the task let go when that fails. */
static void debug_start(const char *logdir, const char *program)
{
	if (write_script(logdir, program) < 0 || (dg.gdb = start_gdb()) < 0) {
		dg.gdb = 0;
		release_task();
		return;
	}
	if (!dg.batch) { /* ^C is for gdb now */
		struct sigaction ign = { .sa_handler = SIG_IGN };

		sigaction(SIGINT, &ign, &dg.old_int);
		sigaction(SIGQUIT, &ign, &dg.old_quit);
	}
}

void la_debug_message(struct la_run *r, int src)
{
	char here[PG_HOST_MAX], there[PG_HOST_MAX];
	struct la_task *t;
	int v[3];

	if (pg_proto_upk(PG_TAG_DEBUG, v) < 0 || !dg.ltid || dg.asked ||
	    v[0] != dg.ltid)
		return;
	dg.asked = 1;
	dg.src = src;
	dg.pid = v[1];
	t = la_task_by_ltid(r, dg.ltid);
	pg_pvm_host_of(pvm_mytid(), here, sizeof(here));
	pg_pvm_host_of(src, there, sizeof(there));
	if (strcmp(here, there) != 0) {
		dg.remote = 1;
		say_remote(there);
		return;
	}
	la_say(r->o, "task %d stopped before its event %llu (pid %d): %s",
	       dg.ltid, dg.event, dg.pid, dg.batch ? "gdb -batch" : "gdb");
	debug_start(r->logdir, t ? t->program : "?");
}

/* Our gdb has ended with wait status ST: gives ^C back, lets the task
 * go on if gdb never had it. */
static void gdb_ended(int st)
{
	if (!dg.batch) {
		sigaction(SIGINT, &dg.old_int, NULL);
		sigaction(SIGQUIT, &dg.old_quit, NULL);
	}
	if (dg.tty) /* the terminal back to the launcher's group */
		term_give(getpgrp());
	dg.tty = 0;
	dg.gdb = 0;
	release_task();
	unlink(dg.script);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		la_say(dg.o, "gdb has ended");
	else
		la_say(dg.o, "gdb has ended (%s %d)", WIFEXITED(st) ?
		       "exit status" : "signal", WIFEXITED(st) ?
		       WEXITSTATUS(st) : WTERMSIG(st));
}

void la_debug_tick(struct la_run *r)
{
	int st;

	if (dg.gdb > 0 && waitpid(dg.gdb, &st, WNOHANG) == dg.gdb)
		gdb_ended(st);
}

int la_debug_busy(struct la_run *r)
{
	struct la_task *t;

	if (!dg.asked)
		return 0;
	if (dg.gdb > 0)
		return 1;
	t = la_task_by_ltid(r, dg.ltid);
	return dg.remote && !(t && t->exited);
}

void la_debug_finish(void)
{
	char path[PG_PATH_MAX + 32];
	int st = 0;

	if (dg.ltid && !dg.asked)
		la_say(dg.o, "-debug: task %d never came to its event %llu "
		       "(its replay ended before it, or no task %d ran)",
		       dg.ltid, dg.event, dg.ltid);
	if (dg.gdb > 0 && !dg.batch)
		la_say(dg.o, "the run has ended: quit gdb to finish");
	dg.ended_at = la_death_now();
	while (dg.gdb > 0 &&
	       waitpid(dg.gdb, &st, dg.batch ? WNOHANG : 0) == 0) {
		if (la_death_now() - dg.ended_at > DG_BATCH_GRACE_S) {
			la_error("gdb -batch is still running %d s after the "
				 "run: killing it", DG_BATCH_GRACE_S);
			kill(dg.gdb, SIGKILL);
			waitpid(dg.gdb, &st, 0);
			break;
		}
		usleep(50 * 1000);
	}
	if (dg.gdb > 0)
		gdb_ended(st);
	if (dg.mpidir && dg.asked) { /* (the rank's let-go, when gdb let it
					go first) */
		snprintf(path, sizeof(path), "%s/debug-%d.go", dg.mpidir,
			 dg.ltid);
		unlink(path);
	}
}

void la_debug_mpi_tick(void)
{
	char path[PG_PATH_MAX + 32], program[PG_PATH_MAX];
	int st, pid = 0;
	ssize_t l;
	FILE *f;

	if (dg.gdb > 0 && waitpid(dg.gdb, &st, WNOHANG) == dg.gdb)
		gdb_ended(st);
	if (!dg.ltid || dg.asked)
		return;
	snprintf(path, sizeof(path), "%s/debug-%d.pid", dg.mpidir, dg.ltid);
	if (!(f = fopen(path, "re")))
		return;
	if (fscanf(f, "%d", &pid) != 1 || pid <= 0) {
		fclose(f);
		return; /* (being written: look again) */
	}
	fclose(f);
	unlink(path);
	dg.asked = 1;
	dg.pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	l = readlink(path, program, sizeof(program) - 1);
	program[l > 0 ? l : 0] = '\0';
	la_say(dg.o, "task %d stopped before its event %llu (pid %d): %s",
	       dg.ltid, dg.event, dg.pid, dg.batch ? "gdb -batch" : "gdb");
	debug_start(dg.mpidir, l > 0 ? program : "?");
}

int la_debug_mpi_busy(void)
{
	return dg.gdb > 0;
}
