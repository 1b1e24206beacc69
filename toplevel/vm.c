/*
 * vm.c: the virtual machine of a run.  The launcher joins a running pvmd;
 * if there is none it starts a private one (its own PVM_VMID) whose
 * executable path finds the programs' folders and Debian's group server,
 * and halts it at the end.
 */
#include "launcher.h"

#include <errno.h>
#include <dirent.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PVM_ROOT_DEFAULT "/usr/lib/pvm3"
#define GROUP_SERVER_DIR "/usr/lib/pvm3/lib"

/* Sets what PVM needs in our environment (inherited by the pvmd). */
static void vm_env(void)
{
	setenv("PVM_ROOT", PVM_ROOT_DEFAULT, 0);
	if (geteuid() == 0)
		setenv("PVM_ALLOW_ROOT", "1", 1);
}

void la_vm_export(const char *name, const char *value)
{
	const char *old = getenv("PVM_EXPORT");
	char exp[4096];

	setenv(name, value, 1);
	if (old && strstr(old, name))
		return;
	snprintf(exp, sizeof(exp), "%s%s%s", old ? old : "",
		 old && *old ? ":" : "", name);
	setenv("PVM_EXPORT", exp, 1);
}

/* Writes the host file of a private VM into PATH; 0 or -1. */
static int vm_hostfile(const struct la_opts *o, const char *path)
{
	char host[PG_HOST_MAX], dir[PG_PATH_MAX];
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		      0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	gethostname(host, sizeof(host));
	fputs("* ep=", f);
	for (int i = 0; i < o->nprog; i++) {
		snprintf(dir, sizeof(dir), "%s", o->progs[i].path);
		fprintf(f, "%s:", dirname(dir));
	}
	fprintf(f, "%s:%s/bin/$PVM_ARCH\n%s\n", GROUP_SERVER_DIR,
		getenv("PVM_ROOT"), host);
	return fclose(f);
}

/* The value of NAME in the NUL-separated environment ENV (N bytes), or
 * NULL when it has none. */
static const char *env_value(const char *env, size_t n, const char *name)
{
	size_t l = strlen(name);

	for (size_t i = 0; i < n; i += strlen(env + i) + 1)
		if (strncmp(env + i, name, l) == 0 && env[i + l] == '=')
			return env + i + l + 1;
	return NULL;
}

/* Whether ENV (N bytes) names our PVM_VMID (or, like us, none). */
static int env_our_vm(const char *env, size_t n)
{
	const char *theirs = env_value(env, n, "PVM_VMID");
	const char *ours = getenv("PVM_VMID");

	return theirs && ours ? strcmp(theirs, ours) == 0 : theirs == ours;
}

/* Reads up to N bytes of /proc/PID/NAME into BUF; bytes read or -1. */
static ssize_t proc_read(const char *pid, const char *name, char *buf,
			 size_t n)
{
	char path[64];
	ssize_t k;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/%s", pid, name);
	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	k = read(fd, buf, n - 1);
	close(fd);
	if (k >= 0)
		buf[k] = '\0';
	return k;
}

/*
 * Visits the processes of our uid on this host whose environment names
 * our virtual machine: VISIT(their pid, environment, its size, ARG) until
 * it returns non-zero.  Returns the pid it stopped at, or 0.
 */
static pid_t vm_each_process(int (*visit)(const char *pid, const char *env,
					  size_t n, void *arg),
			     void *arg)
{
	static char env[65536];
	char path[64];
	struct dirent *e;
	struct stat st;
	DIR *d = opendir("/proc");
	pid_t found = 0;
	ssize_t n;

	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s", e->d_name);
		if (stat(path, &st) < 0 || st.st_uid != getuid() ||
		    (n = proc_read(e->d_name, "environ", env, sizeof(env))) < 0 ||
		    !env_our_vm(env, (size_t)n))
			continue;
		if (visit(e->d_name, env, (size_t)n, arg))
			found = (pid_t)atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

/* vm_each_process: whether PID is a pvmd. */
static int is_pvmd(const char *pid, const char *env, size_t n, void *arg)
{
	char cmd[PG_PATH_MAX];

	(void)env;
	(void)n;
	(void)arg;
	return proc_read(pid, "cmdline", cmd, sizeof(cmd)) > 0 &&
	       (strcmp(basename(cmd), "pvmd") == 0 ||
		strcmp(basename(cmd), "pvmd3") == 0);
}

/* The pid the pvmd of our PVM_VMID names in its address file (its
 * socket /tmp/pvmtmpPPPPPP.0 is named after its pid), whether that
 * process still runs or not; 0 if none (no file, a TCP address). */
static pid_t vm_address_pid(void)
{
	char path[PG_PATH_MAX], addr[PG_PATH_MAX];
	const char *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/pvmd.%d.%s", pg_pvmtmp_dir(),
		 (int)getuid(), getenv("PVM_VMID") ? getenv("PVM_VMID") : "");
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, addr, sizeof(addr) - 1);
	close(fd);
	addr[n > 0 ? n : 0] = '\0';
	p = strstr(addr, "/pvmtmp");
	return p && atoi(p + 7) > 0 ? (pid_t)atoi(p + 7) : 0;
}

/*
 * The pid the pvmd of our PVM_VMID names in its address file if that
 * process is a pvmd of our virtual machine; 0 otherwise (no file, a TCP
 * address, a stale file).
 */
static pid_t vm_pvmd_from_address(void)
{
	static char env[65536];
	char pid[16];
	ssize_t n;

	if (vm_address_pid() <= 0)
		return 0;
	snprintf(pid, sizeof(pid), "%d", (int)vm_address_pid());
	n = proc_read(pid, "environ", env, sizeof(env));
	return n > 0 && env_our_vm(env, (size_t)n) &&
	       is_pvmd(pid, env, (size_t)n, NULL) ? (pid_t)atoi(pid) : 0;
}

/* The pid of this host's pvmd of our PVM_VMID, or 0 if none is found:
 * from its address file, else by a walk over /proc. */
static pid_t vm_find_pvmd(void)
{
	pid_t pid = vm_pvmd_from_address();

	return pid > 0 ? pid : vm_each_process(is_pvmd, NULL);
}

/* What kill_if_ours kills (parent: only the children of that process;
 * 0: any), and how many it did. */
struct vm_kill {
	pid_t parent;
	int killed;
};

/* The parent of process PID (a decimal string), or 0 if unknown. */
static pid_t parent_of(const char *pid)
{
	char stat[512], *p;
	int ppid = 0;

	if (proc_read(pid, "stat", stat, sizeof(stat)) <= 0 ||
	    !(p = strrchr(stat, ')')) || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

/* vm_each_process: SIGKILLs PID if its PANGAEA_CONTEXT is ours (and its
 * parent the one of *KILL), counting into KILL; never stops the walk. */
static int kill_if_ours(const char *pid, const char *env, size_t n,
			void *kill_arg)
{
	struct vm_kill *k = kill_arg;
	const char *ctx = env_value(env, n, PG_ENV_CONTEXT);
	pid_t p = (pid_t)atoi(pid);

	if (p != getpid() && ctx && strcmp(ctx, getenv(PG_ENV_CONTEXT)) == 0 &&
	    (!k->parent || parent_of(pid) == k->parent) && kill(p, SIGKILL) == 0)
		k->killed++;
	return 0;
}

int la_vm_kill_run(void)
{
	struct vm_kill k = { 0, 0 };

	if (getenv(PG_ENV_CONTEXT))
		vm_each_process(kill_if_ours, &k);
	return k.killed;
}

int la_vm_kill_tasks(pid_t pvmd)
{
	struct vm_kill k = { pvmd, 0 };

	if (pvmd > 0 && getenv(PG_ENV_CONTEXT))
		vm_each_process(kill_if_ours, &k);
	return k.killed;
}

/* Removes the log file of the private pvmd we halted. */
static void vm_remove_log(void)
{
	char path[PG_PATH_MAX];

	snprintf(path, sizeof(path), "%s/pvml.%d.%s", pg_pvmtmp_dir(),
		 (int)getuid(), getenv("PVM_VMID"));
	unlink(path);
}

/* Removes every file a private pvmd (PID) that died left behind. */
static void vm_remove_files(pid_t pid)
{
	char path[PG_PATH_MAX];

	vm_remove_log();
	snprintf(path, sizeof(path), "%s/pvmd.%d.%s", pg_pvmtmp_dir(),
		 (int)getuid(), getenv("PVM_VMID"));
	unlink(path);
	pg_pvmtmp_clear(pid);
}

/* Whether the pvmd of the current PVM_VMID has written its address. */
static int vm_address_file_exists(void)
{
	char path[PG_PATH_MAX];

	snprintf(path, sizeof(path), "%s/pvmd.%d.%s", pg_pvmtmp_dir(),
		 (int)getuid(), getenv("PVM_VMID"));
	return access(path, R_OK) == 0;
}

/* Says why no private pvmd could be started (RC: pvm_start_pvmd's): one
 * that came up as DEAD (its pid, or 0) and ended before we could join
 * it, else no pvmd executable (the package missing), else PVM's error. */
static void vm_start_failed(int rc, pid_t dead)
{
	char pvmd[PG_PATH_MAX];

	snprintf(pvmd, sizeof(pvmd), "%s/lib/pvmd", getenv("PVM_ROOT"));
	if (dead > 0)
		la_error("cannot start a PVM daemon: it started (pid %d) and "
			 "ended before the launcher could join it (%s)",
			 (int)dead, pg_pvm_errtext(rc));
	else if (access(pvmd, X_OK) < 0)
		la_error("cannot start a PVM daemon (%s): no %s; is package "
			 "'pvm' installed?", pg_pvm_errtext(rc), pvmd);
	else
		la_error("cannot start a PVM daemon (%s)", pg_pvm_errtext(rc));
}

/* Starts a private pvmd; 0 or -1 with the reason printed. */
static int vm_start_private(struct la_run *r)
{
	char vmid[64], dir[] = "/tmp/pangaea-vm.XXXXXX", hostfile[64];
	char *argv[2] = { hostfile, NULL };
	int rc;

	if (!getenv("PVM_VMID")) {
		snprintf(vmid, sizeof(vmid), "pangaea-%d", (int)getpid());
		setenv("PVM_VMID", vmid, 1);
	}
	if (!mkdtemp(dir)) {
		la_error("cannot create a temporary folder: %s", strerror(errno));
		return -1;
	}
	snprintf(hostfile, sizeof(hostfile), "%s/hosts", dir);
	rc = vm_hostfile(r->o, hostfile);
	if (rc == 0)
		rc = pvm_start_pvmd(1, argv, 1);
	/* On a loaded machine libpvm may give up before a slow pvmd has
	 * written its address: wait for it (up to 10 s, looking every 10 ms)
	 * rather than leave it running unseen. */
	for (int i = 0; rc == PvmCantStart && i < 1000; i++) {
		pid_t pvmd;

		usleep(10000);
		pvmd = vm_find_pvmd();
		if (pvmd <= 0 && i >= 100)
			break; /* no pvmd came up at all */
		if (pvmd > 0 && vm_address_file_exists() && pvm_mytid() >= 0)
			rc = 0;
	}
	if (rc < 0 || pvm_mytid() < 0) {
		pid_t stray = vm_find_pvmd(), named = vm_address_pid();

		if (stray > 0) /* started but unreachable: do not leave it */
			kill(stray, SIGKILL);
		vm_remove_files(stray);
		/* one that wrote its address, then died (killed as it
		   started): its socket pvmtmpPID.0 is left, and ours */
		if (named > 0 && named != stray)
			pg_pvmtmp_clear(named);
		pg_pvmtmp_clear_own();
		unlink(hostfile);
		rmdir(dir);
		vm_start_failed(rc, stray > 0 ? 0 : named);
		return -1;
	}
	unlink(hostfile);
	rmdir(dir);
	r->started_vm = 1;
	r->pvmd_pid = vm_find_pvmd();
	la_say(r->o, "started a private virtual machine (PVM_VMID=%s)",
	       getenv("PVM_VMID"));
	return 0;
}

/*
 * Whether a pvmd of the current PVM_VMID answers.  Asked in a child
 * process: a failed attempt leaves libpvm bound to that address file,
 * and it prints its complaints on stderr.
 */
static int vm_running(void)
{
	int status, null;
	pid_t pid = fork();

	if (pid < 0)
		return 0;
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		pvm_setopt(PvmAutoErr, 0);
		_exit(pvm_mytid() >= 0 && pvm_exit() >= 0 ? 0 : 1);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

/* The state letter of process PID of this host (/proc/PID/stat: R, S,
 * T stopped, t traced, Z zombie...), or 0 if it is gone. */
static char process_state(pid_t pid)
{
	char stat[512], *p;

	snprintf(stat, sizeof(stat), "%d", (int)pid);
	if (proc_read(stat, "stat", stat, sizeof(stat)) <= 0)
		return 0;
	p = strrchr(stat, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

int la_vm_process_gone(pid_t pid)
{
	char state;

	if (kill(pid, 0) < 0 && errno == ESRCH)
		return 1;
	/* a child stays a zombie until its parent reaps it */
	state = process_state(pid);
	return state == 0 || state == 'Z' || state == 'X';
}

int la_vm_process_stopped(pid_t pid)
{
	char state = pid > 0 ? process_state(pid) : 0;

	return state == 'T' || state == 't';
}

int la_vm_alive(const struct la_run *r)
{
	static double seen; /* when it was last seen alive */
	struct timespec ts;
	double now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;

	if (r->pvmd_pid <= 0)
		return 1; /* not found at start: trust libpvm */
	/* (a look at /proc per message cost the launcher 44 reads of a
	   short run; a death is seen LA_VM_ALIVE_S later at most) */
	if (now - seen < LA_VM_ALIVE_S && now >= seen)
		return 1;
	if (la_vm_process_gone(r->pvmd_pid))
		return 0;
	seen = now;
	return 1;
}


int la_vm_start(struct la_run *r)
{
	vm_env();
	pg_pvmtmp_clear_own();
	/* a live pvmd named by the address file needs no trial enrolment */
	if (vm_pvmd_from_address() > 0 || vm_running()) {
		if (pvm_mytid() < 0) {
			la_error("cannot enroll in the running virtual machine");
			return -1;
		}
		r->pvmd_pid = vm_find_pvmd();
		la_say(r->o, "joined the running virtual machine%s%s",
		       getenv("PVM_VMID") ? " PVM_VMID=" : "",
		       getenv("PVM_VMID") ? getenv("PVM_VMID") : "");
		return 0;
	}
	return vm_start_private(r);
}

/*
 * Waits (up to 3 s) until the halted pvmd PID has gone.  It is not our
 * child (libpvm forks it twice), and a run started right after ours with
 * the same PVM_VMID fails if the old pvmd still holds its address file.
 */
static void vm_wait_gone(pid_t pid)
{
	/* on the event (a pidfd is readable once the process has ended),
	   not in 10 ms naps: the halt took 0.5 or 10.5 ms by luck */
	int fd = pid > 0 ? (int)syscall(SYS_pidfd_open, pid, 0) : -1;

	if (fd >= 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		poll(&p, 1, 3000);
		close(fd);
	}
	for (int i = 0; pid > 0 && i < 300 && !la_vm_process_gone(pid); i++)
		usleep(10000); /* (no pidfds: an older kernel) */
}

/* The pids of the tasks of this host's pvmd but ours (malloc'd into
 * *PIDS, NULL when none); their count, 0 when PVM cannot list them. */
static int vm_local_pids(pid_t **pids)
{
	struct pvmtaskinfo *ti;
	int me = pvm_mytid(), nt = 0, n = 0;

	*pids = NULL;
	if (me < 0 || pvm_tasks(pvm_tidtohost(me), &nt, &ti) < 0 || nt <= 0 ||
	    !(*pids = calloc((size_t)nt, sizeof(**pids))))
		return 0;
	for (int i = 0; i < nt; i++)
		if (ti[i].ti_tid != me && ti[i].ti_pid > 0)
			(*pids)[n++] = ti[i].ti_pid;
	return n;
}

/*
 * After the halt: removes the handshake files (pvmtmpPID.N) of the N
 * tasks PIDS that the halt killed in their handshake: PVM's group
 * server, started late by a task's last group call, was one (its
 * pvmtmpPID.0 left: the scenario runner fails such a test).  Each gets
 * up to 0.2 s in all to end (a pidfd); one still running keeps its files.
 */
static void vm_tidy_tasks(const pid_t *pids, int n)
{
	struct timespec t0, t;
	int left, fd;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = 200 - (int)((t.tv_sec - t0.tv_sec) * 1000 +
				   (t.tv_nsec - t0.tv_nsec) / 1000000);
		fd = (int)syscall(SYS_pidfd_open, pids[i], 0);
		if (fd >= 0) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			if (left > 0 && !la_vm_process_gone(pids[i]))
				poll(&p, 1, left);
			close(fd);
		}
		if (la_vm_process_gone(pids[i]))
			pg_pvmtmp_clear_first(pids[i]);
	}
}

void la_vm_stop(struct la_run *r)
{
	pid_t *pids;
	int npids;

	if (r->lost_pvmd) { /* nothing to halt or leave: just tidy up */
		while (r->started_vm && waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (r->started_vm)
			vm_remove_files(r->pvmd_pid);
		return;
	}
	if (!r->started_vm) {
		pvm_exit();
		return;
	}
	npids = vm_local_pids(&pids);
	/* A halting pvmd sends SIGTERM to every enrolled task, us too. */
	void (*old_term)(int) = signal(SIGTERM, SIG_IGN);

	pvm_halt();
	signal(SIGTERM, old_term); /* (the launcher's: a late kill is told) */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	vm_wait_gone(r->pvmd_pid);
	vm_remove_log();
	/* a handshake the halt cut short leaves its files: the pvmd's
	   and the task's */
	pg_pvmtmp_clear(r->pvmd_pid);
	vm_tidy_tasks(pids, npids);
	free(pids);
}
