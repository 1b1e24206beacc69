/*
 * view.c: the launcher's ways into the viewer.
 *
 *   pangaea -display [-logdir DIR] [DIR]   shows a recorded run (runs
 *                                          pangaea-view DIR, nothing else)
 *   pangaea -log|-replay -view ...         also starts pangaea-view on the
 *                                          log folder this run writes
 *   pangaea -hosts                         lists the virtual machine's
 *                                          hosts (for the spawn dialog)
 *
 * With -view, the tasks also send their events to the coordinator, which
 * relays them to the viewer over a Unix socket: PANGAEA_LIVE names it, in
 * a folder only this user can enter (ours, mode 0700, checked): the first
 * such of $XDG_RUNTIME_DIR/pangaea and TMP/pangaea-UID, else a fresh
 * TMP/pangaea-UID.XXXXXX (mkdtemp, removed when the launcher exits), TMP
 * being $TMPDIR or /tmp; a
 * folder someone else made there is passed over, and the launcher says
 * which folder it uses.  When PANGAEA_LIVE is already set (the
 * viewer's spawn dialog started us), the viewer is already there: the
 * launcher only passes the variable on.
 *
 * pangaea-view is looked for next to the launcher, then on $PATH.
 */
#include "launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Path of pangaea-view into OUT: next to this program, else the bare name. */
static void view_path(char *out, size_t n)
{
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	snprintf(out, n, "pangaea-view");
	if (len <= 0)
		return;
	self[len] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(out, n, "%s/pangaea-view", self);
	if (access(out, X_OK) < 0)
		snprintf(out, n, "pangaea-view");
}

/* Points stdin, stdout and stderr at /dev/null. */
static void quiet_stdio(void)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		dup2(fd, i);
	if (fd > 2)
		close(fd);
}

/* The live socket this launcher named and the mkdtemp folder of live
 * sockets, removed at exit ("" if none). */
static char live_sock[PATH_MAX], live_tmp[PATH_MAX - 128];

/* Removes the live socket (a coordinator ended before it did so) and the
 * mkdtemp folder (atexit); a viewer keeps its connection. */
static void live_remove(void)
{
	if (live_sock[0])
		unlink(live_sock);
	if (live_tmp[0])
		rmdir(live_tmp);
}

/* Makes DIR (mode 0700) or finds it there; 0 if it is then a folder of
 * ours that nobody else can enter, else -1 with why into WHY (N). */
static int live_dir_try(const char *dir, char *why, size_t n)
{
	struct stat st;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		snprintf(why, n, "%s", strerror(errno));
		return -1;
	}
	/* an existing folder must be ours and closed to others: a stranger
	   could have made it to catch our socket */
	if (lstat(dir, &st) < 0) {
		snprintf(why, n, "%s", strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
	    (st.st_mode & 077) == 0)
		return 0;
	snprintf(why, n, "%s of uid %u, mode %04o", S_ISDIR(st.st_mode) ?
		 "a folder" : S_ISLNK(st.st_mode) ? "a link" : "a file",
		 (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	return -1;
}

/* Picks the private folder of live sockets into DIR (N bytes) and says
 * which, and why the ones before it were passed over; 0 or -1 (said). */
static int live_dir(const struct la_opts *o, char *dir, size_t n)
{
	const char *run = getenv("XDG_RUNTIME_DIR"), *tmp = getenv("TMPDIR");
	char why[128];

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (run && *run && access(run, W_OK) == 0) {
		snprintf(dir, n, "%s/pangaea", run);
		if (live_dir_try(dir, why, sizeof(why)) == 0)
			goto found;
		la_say(o, "not using %s for the live view's socket (%s)", dir, why);
	}
	snprintf(dir, n, "%s/pangaea-%u", tmp, (unsigned)getuid());
	if (live_dir_try(dir, why, sizeof(why)) == 0)
		goto found;
	la_say(o, "not using %s for the live view's socket (%s)", dir, why);
	snprintf(live_tmp, sizeof(live_tmp), "%s/pangaea-%u.XXXXXX", tmp,
		 (unsigned)getuid());
	if (!mkdtemp(live_tmp)) {
		la_error("cannot make a private folder for the viewer's socket "
			 "(%s): %s", live_tmp, strerror(errno));
		live_tmp[0] = '\0';
		return -1;
	}
	snprintf(dir, n, "%s", live_tmp);
found:
	la_say(o, "the live view's socket is in %s", dir);
	return 0;
}

int la_view_display(int argc, char **argv)
{
	const char *dir = "pangaea-logs";
	char view[PATH_MAX];

	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-logdir") == 0 && i + 1 < argc) {
			dir = argv[++i];
		} else if (argv[i][0] != '-' && i == argc - 1) {
			dir = argv[i];
		} else {
			la_error("-display takes only [-logdir DIR] or DIR, not %s", argv[i]);
			return LA_SETUP;
		}
	}
	if (access(dir, R_OK | X_OK) < 0) {
		la_error("cannot read log folder %s", dir);
		return LA_SETUP;
	}
	view_path(view, sizeof(view));
	execlp(view, view, dir, (char *)NULL);
	la_error("cannot run %s (is pangaea-view built and on $PATH?)", view);
	return LA_SETUP;
}

int la_view_hosts(void)
{
	struct pvmhostinfo *hosts;
	int nhost, narch, me;

	pvm_setopt(PvmAutoErr, 0);
	if ((me = pvm_mytid()) < 0) { /* (it never starts a pvmd) */
		la_error("no virtual machine is running (PVM_VMID=%s): %s",
			 getenv("PVM_VMID") ? getenv("PVM_VMID") : "",
			 pg_pvm_errtext(me));
		return LA_SETUP;
	}
	if (pvm_config(&nhost, &narch, &hosts) < 0) {
		la_error("cannot list the virtual machine's hosts");
		pvm_exit();
		return LA_SETUP;
	}
	for (int i = 0; i < nhost; i++)
		printf("%s %s%s\n", hosts[i].hi_name, hosts[i].hi_arch,
		       hosts[i].hi_tid == pvm_tidtohost(me) ? " this" : "");
	pvm_exit();
	return fflush(stdout) == 0 ? LA_OK : LA_SETUP;
}

int la_view_strip(int *argc, char **argv)
{
	int found = 0;

	for (int i = 1; i < *argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-view") != 0)
			continue;
		memmove(&argv[i], &argv[i + 1], (size_t)(*argc - i) * sizeof(*argv));
		(*argc)--;
		found = 1;
		i--;
	}
	return found;
}

int la_view_start(struct la_opts *o)
{
	char view[PATH_MAX], sock[PATH_MAX], sdir[PATH_MAX - 64];
	const char *dir, *given = getenv(PG_ENV_LIVE);
	pid_t pid, view_pid;
	int fds[2];

	if (o->mode == PANGAEA_MODE_REPLAY && !o->outdir[0])
		la_logdir_replay_name(o->logdir, o->outdir, sizeof(o->outdir));
	dir = o->mode == PANGAEA_MODE_RECORD ? o->logdir : o->outdir;
	if (given && *given) {
		la_vm_export(PG_ENV_LIVE, given);
		return 0;
	}
	if (!getenv("DISPLAY")) {
		la_error("-view needs a display, and DISPLAY is not set");
		return -1;
	}
	if (live_dir(o, sdir, sizeof(sdir)) < 0)
		return -1;
	snprintf(sock, sizeof(sock), "%s/live-%d.sock", sdir, (int)getpid());
	unlink(sock); /* a stale one of an earlier launcher with our pid */
	snprintf(live_sock, sizeof(live_sock), "%s", sock);
	atexit(live_remove);
	la_vm_export(PG_ENV_LIVE, sock);
	view_path(view, sizeof(view));
	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		la_error("cannot start the viewer: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* a grandchild, not our child: the launcher waits for all its
		   children at the end, and the view outlives the run; its own
		   session, so ^C in the shell stops the run, not the view */
		close(fds[0]);
		setsid();
		pid = fork();
		if (pid == 0) {
			close(fds[1]);
			/* not the run's output: a pipe from `pangaea | less`
			   must not stay open as long as the window */
			if (!getenv("PANGAEA_VIEW_SCRIPT"))
				quiet_stdio();
			execlp(view, view, "-live", dir, "-sock", sock, (char *)NULL);
			la_error("cannot run %s (is pangaea-view built and on $PATH?)",
				 view);
			_exit(127);
		}
		if (write(fds[1], &pid, sizeof(pid)) != (ssize_t)sizeof(pid))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &view_pid, sizeof(view_pid)) != (ssize_t)sizeof(view_pid))
		view_pid = -1;
	close(fds[0]);
	waitpid(pid, NULL, 0);
	if (view_pid <= 0) {
		la_error("cannot start the viewer");
		return -1;
	}
	la_say(o, "viewer started (pid %d), following %s", (int)view_pid, dir);
	return 0;
}
