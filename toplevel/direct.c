/*
 * direct.c: the launcher starts its programs' tasks itself, not through
 * its pvmd.  A task spawned by a pvmd starts 3-4 ms after the pvm_spawn
 * here: the daemon forks, and its child closes every descriptor up to
 * its limit (20 000 here) before the exec; a plain run's first task is
 * exec'd by the shell at once.  So on a virtual machine of one host
 * (where PVM would start them here anyway), the launcher's own spawns
 * (task 0's: pg_task0_set_starter) posix_spawn the tasks, in the user's
 * folder, in a process group of their own (a ^C is the launcher's),
 * with standard input from /dev/null and their output into a pipe, as a
 * pvmd's task has it; each gets PG_ENV_DIRECT: one end of a socket pair
 * on which it waits for a go, then enrolls and tells its tid
 * (pvm/init.c), and the output and trace settings for its children
 * that a spawn by the launcher would have carried.  The tasks enroll one
 * after another, in the spawn's order: their tids are those of every
 * run.
 *
 * What the pvmd would do for such a task the launcher does: it relays
 * its output (output.c, as PVM's output messages of that tid), reaps it
 * and notes its wait status (death.c, as a TEV_ENDTASK would).
 */
#include "launcher.h"

#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pvmtev.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DIRECT_MAX 64       /* tasks started so (more: through PVM) */
#define DIRECT_WAIT_S 60    /* a task's tid awaited at most this long */
#define DIRECT_FD 3         /* the socket's number in the task */
#define DIRECT_EARLY (1 << 20) /* output kept before the tid is known */

/* A task started here. */
struct direct_task {
	pid_t pid;
	int tid;
	int out;             /* the read end of its output, -1 once ended */
	int pidfd;           /* readable once it has ended, -1 once reaped
				(or none: then waitpid at every step) */
	int reaped;
};

static struct {
	struct direct_task t[DIRECT_MAX];
	int n;
	void (*meanwhile)(void); /* la_direct_arm's */
} dt;

extern char **environ;

int la_direct_fits(const struct la_run *r, const char *path,
		   const char *where, int flags, int ntask)
{
	enum la_prog_kind kind;

	if (ntask != 1 || dt.n >= DIRECT_MAX || r->o->host ||
	    (where && *where) || (flags & (PvmTaskDebug | PvmTaskTrace)))
		return 0;
	kind = la_program_kind(path);
	return (kind == LA_PROG_SOURCE || kind == LA_PROG_DYNAMIC) &&
	       la_hosts_count() == 1;
}

/* The environment of a task started here: ours with VALUE (PG_ENV_DIRECT)
 * added; malloc'd (the strings are environ's), or NULL. */
static char **task_env(char *value)
{
	size_t n = 0;
	char **e;

	while (environ[n])
		n++;
	e = malloc((n + 2) * sizeof(*e));
	if (!e)
		return NULL;
	memcpy(e, environ, n * sizeof(*e));
	e[n] = value;
	e[n + 1] = NULL;
	return e;
}

/* PG_ENV_DIRECT=..., its value from our settings for our children's
 * output and trace (a spawn would pass them on), into BUF (N bytes). */
static void direct_value(char *buf, size_t n)
{
	Pvmtmask mask;

	pvm_gettmask(PvmTaskChild, mask);
	snprintf(buf, n, "%s=%d %d %d %d %d %d %d %d %s", PG_ENV_DIRECT,
		 DIRECT_FD, pvm_mytid(), pvm_getopt(PvmOutputContext),
		 pvm_getopt(PvmOutputCode), pvm_getopt(PvmTraceContext),
		 pvm_getopt(PvmTraceCode), pvm_getopt(PvmTraceBuffer),
		 pvm_getopt(PvmTraceOptions), mask);
}

void la_spawn_attr_own(posix_spawnattr_t *a)
{
	sigset_t dfl;

	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE); /* (ignored here: not in it) */
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	posix_spawnattr_init(a);
	posix_spawnattr_setsigdefault(a, &dfl);
	posix_spawnattr_setpgroup(a, 0);
	posix_spawnattr_setflags(a, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
}

/* Starts FILE with ARGV (its arguments after the name) with environment
 * ENV, its socket's end SOCK, its output into OUT; its pid, or -errno. */
static pid_t task_spawn(const char *file, char **argv, char **env, int sock,
			int out)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t a;
	pid_t pid;
	int n = 0, rc;

	while (argv && argv[n])
		n++;
	char *av[n + 2];

	av[0] = (char *)file;
	for (int i = 0; i < n; i++)
		av[i + 1] = argv[i];
	av[n + 1] = NULL;
	la_spawn_attr_own(&a);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, out, 2);
	posix_spawn_file_actions_adddup2(&fa, sock, DIRECT_FD);
	/* (none of ours: the pvmd's socket would hide our death from it) */
	posix_spawn_file_actions_addclosefrom_np(&fa, DIRECT_FD + 1);
	rc = posix_spawn(&pid, file, &fa, &a, av, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&a);
	return rc ? -rc : pid;
}

/* Reads what task T printed into EARLY (up to DIRECT_EARLY bytes in
 * all, *N so far; NULL: to the output relay); 0 at its end (or on an
 * error: the pipe is then closed), 1 while it may print more. */
static int drain(struct direct_task *t, char *early, size_t *n)
{
	char buf[65536];
	ssize_t k;

	for (;;) {
		if (early)
			k = *n < DIRECT_EARLY ? read(t->out, early + *n,
						     DIRECT_EARLY - *n) : 0;
		else
			k = read(t->out, buf, sizeof(buf));
		if (k > 0 && early)
			*n += (size_t)k;
		else if (k > 0)
			la_output_piece(t->tid, buf, (int)k);
		if (k > 0)
			continue;
		if (k < 0 && (errno == EINTR))
			continue;
		if (k < 0 && errno == EAGAIN)
			return 1;
		if (early && *n >= DIRECT_EARLY)
			return 1; /* (more, once the tid is known) */
		close(t->out);
		t->out = -1;
		return 0;
	}
}

/* Says that FILE, started as T, ended (wait status STATUS) or stayed
 * silent before it enrolled, after writing out the N bytes EARLY it
 * printed. */
static void say_unenrolled(const char *file, const char *early, size_t n,
			   int status, int ended)
{
	if (n > 0) {
		fflush(stdout);
		if (fwrite(early, 1, n, stdout) != n || fflush(stdout) != 0)
			la_error("cannot write %s's output", file);
	}
	if (!ended)
		la_error("%s did not enroll in PVM in %d s: killed", file,
			 DIRECT_WAIT_S);
	else if (WIFSIGNALED(status))
		la_error("%s was killed by signal %d (%s) before it enrolled in "
			 "PVM", file, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		la_error("%s exited with status %d before it enrolled in PVM (a "
			 "program whose libpvm3 the launcher could not reach?)",
			 file, WEXITSTATUS(status));
}

/* Waits for the tid of task T (FILE) on its socket SOCK (what it prints
 * meanwhile kept); the tid, or PvmCantStart (said): it ended or stayed
 * silent DIRECT_WAIT_S (killed), and was reaped. */
static int task_tid(struct direct_task *t, const char *file, int sock)
{
	static char early[DIRECT_EARLY];
	size_t n = 0;
	int tid = 0, open = 1;
	double t0 = la_death_now();

	while (la_death_now() - t0 < DIRECT_WAIT_S) {
		struct pollfd p[2] = { { .fd = sock, .events = POLLIN },
				       { .fd = t->out, .events = POLLIN } };

		if (poll(p, open ? 2 : 1, 1000) < 0 && errno != EINTR)
			break;
		if (open && p[1].revents)
			open = drain(t, early, &n) && n < DIRECT_EARLY;
		if (!p[0].revents)
			continue;
		if (read(sock, &tid, sizeof(tid)) == (ssize_t)sizeof(tid) &&
		    tid > 0)
			break;
		tid = 0;
		break;
	}
	if (tid <= 0) {
		int status = 0, ended = waitpid(t->pid, &status, WNOHANG) ==
					t->pid;

		if (!ended) { /* (its socket closed: its end is near) */
			usleep(100000);
			ended = waitpid(t->pid, &status, WNOHANG) == t->pid;
		}
		if (!ended) {
			kill(t->pid, SIGKILL);
			waitpid(t->pid, NULL, 0);
		}
		if (t->out >= 0) {
			fcntl(t->out, F_SETFL, 0);
			while (drain(t, early, &n) && n < DIRECT_EARLY)
				;
			if (t->out >= 0)
				close(t->out);
		}
		say_unenrolled(file, early, n, status, ended);
		return PvmCantStart;
	}
	t->tid = tid;
	la_output_piece(tid, NULL, -1);
	if (n > 0)
		la_output_piece(tid, early, (int)n);
	if (t->out < 0) /* (its output closed already) */
		la_output_piece(tid, NULL, 0);
	return tid;
}

/* pg_task0_starter: starts one task of FILE here (see above). */
static int direct_start(const char *file, char **argv, int ntask, int *tids)
{
	struct direct_task *t = &dt.t[dt.n];
	char value[160], **env;
	int sock[2], out[2];

	if (ntask != 1 || dt.n >= DIRECT_MAX)
		return PvmBadParam;
	direct_value(value, sizeof(value));
	if (!(env = task_env(value)))
		return PvmNoMem;
	*tids = PvmOutOfRes;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) < 0) {
		free(env);
		return 0;
	}
	if (pipe2(out, O_CLOEXEC) < 0) {
		close(sock[0]);
		close(sock[1]);
		free(env);
		return 0;
	}
	t->pid = task_spawn(file, argv, env, sock[1], out[1]);
	free(env);
	close(sock[1]);
	close(out[1]);
	if (t->pid < 0) {
		*tids = t->pid == -ENOENT ? PvmNoFile : PvmCantStart;
		close(sock[0]);
		close(out[0]);
		return 0;
	}
	t->out = out[0];
	fcntl(t->out, F_SETFL, O_NONBLOCK);
	if (dt.meanwhile)
		dt.meanwhile();
	*tids = task_tid(t, file, sock[0]);
	close(sock[0]);
	if (*tids < 0)
		return 0;
	t->pidfd = (int)syscall(SYS_pidfd_open, t->pid, 0);
	dt.n++;
	return 1;
}

void la_direct_arm(void (*meanwhile)(void))
{
	dt.meanwhile = meanwhile;
	pg_task0_set_starter(direct_start);
}

void la_direct_disarm(void)
{
	pg_task0_set_starter(NULL);
}

int la_direct_poll(struct pollfd *p, int max)
{
	int k = 0;

	for (int i = 0; i < dt.n; i++) {
		if (dt.t[i].out >= 0 && k < max)
			p[k++] = (struct pollfd){ .fd = dt.t[i].out,
						  .events = POLLIN };
		if (dt.t[i].pidfd >= 0 && k < max)
			p[k++] = (struct pollfd){ .fd = dt.t[i].pidfd,
						  .events = POLLIN };
	}
	return k;
}

/* Reaps task T if it has ended: its wait status to death.c. */
static void reap(struct la_run *r, struct direct_task *t)
{
	int status;

	if (t->reaped || waitpid(t->pid, &status, WNOHANG) != t->pid)
		return;
	t->reaped = 1;
	if (t->pidfd >= 0)
		close(t->pidfd);
	t->pidfd = -1;
	la_death_ended(r, t->tid, status);
}

/* Whether FD is worth a look after poll() of P (N): found readable (or
 * closed) there, or not polled (P NULL, or no room left for it). */
static int ready(const struct pollfd *p, int n, int fd)
{
	for (int i = 0; p && i < n; i++)
		if (p[i].fd == fd)
			return p[i].revents != 0;
	return 1;
}

void la_direct_step(struct la_run *r, const struct pollfd *p, int n)
{
	for (int i = 0; i < dt.n; i++) {
		struct direct_task *t = &dt.t[i];

		if (t->out >= 0 && ready(p, n, t->out) &&
		    drain(t, NULL, NULL) == 0)
			la_output_piece(t->tid, NULL, 0);
		/* (without a pidfd: a look at every turn) */
		if (t->pidfd < 0 || ready(p, n, t->pidfd))
			reap(r, t);
	}
}

void la_direct_finish(struct la_run *r)
{
	la_direct_step(r, NULL, 0);
	for (int i = 0; i < dt.n; i++) {
		struct direct_task *t = &dt.t[i];

		if (t->out >= 0) { /* (a task still printing after its end) */
			close(t->out);
			t->out = -1;
			la_output_piece(t->tid, NULL, 0);
		}
		if (t->pidfd >= 0)
			close(t->pidfd);
		t->pidfd = -1;
	}
	dt.n = 0;
}
