/*
 * mpirun.c: `pangaea -log mpirun [OPTIONS] PROGRAM ARGS` (or mpiexec):
 * an MPI program recorded and replayed through the MPI binding
 * (pangaea_lib/mpi, libpangaea-mpi.so).  No virtual machine and no
 * coordinator: mpirun starts the ranks, each given the binding through
 * LD_PRELOAD (passed with mpirun's -x) and told where to log; a rank's
 * ltid is its world rank + 1.  The command line is kept in task-0.exec
 * (one spawn of mpirun, its arguments, its -np), which `pangaea -replay
 * -logdir DIR` runs again.  mpirun runs in a process group of its own,
 * which is killed when it ends, so that nothing of the run is left.
 */
#include "launcher.h"
#include "pangaea-analysis.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The binding, one build per MPI library (their handles and constants
 * differ): Open MPI's, MPICH's. */
#define MPI_LIB "libpangaea-mpi.so"
#define MPICH_LIB "libpangaea-mpich.so"

static pid_t mpirun_pgid;

/* SIGINT, SIGTERM: mpirun is told, and ends its ranks. */
static void on_signal(int sig)
{
	if (mpirun_pgid > 0)
		kill(mpirun_pgid, SIGTERM);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Whether mpirun's option OPT takes a value, the few of two values
 * (-mca NAME VALUE, Hydra's -genv NAME VALUE) into *TWO: Open MPI 4's
 * orterun, or MPICH's mpiexec (Hydra) when HYDRA. */
static int takes_value(const char *opt, int hydra, int *two)
{
	static const char *const hydra_one[] = {
		"-n", "-np", "-f", "-hosts", "-host", "-machinefile", "-wdir",
		"-configfile", "-genvlist", "-envlist", "-launcher",
		"-launcher-exec", "-rmk", "-topolib", "-bind-to", "-map-by",
		"-membind", "-demux", "-iface", "-ppn", "-prepend-pattern",
		"-outfile-pattern", "-errfile-pattern", "-nameserver",
		"-localhost", "-usize", "-gpus-per-proc", NULL
	};
	static const char *const one[] = {
		"-np", "-n", "--np", "-c", "-x", "-H", "-host", "--host",
		"-hostfile", "--hostfile", "-machinefile", "--machinefile",
		"--map-by", "-map-by", "--rank-by", "--bind-to", "-bind-to",
		"-wdir", "--wdir", "-wd", "--prefix", "-npernode",
		"--npernode", "-N", "--output-filename", "-output-filename",
		"--app", "-s", "--preload-files", "--report-bindings-file",
		"-am", "--am", "--stdin", "-stdin", "--timeout", NULL
	};

	const char *const *list = hydra ? hydra_one : one;

	*two = hydra ? strcmp(opt, "-genv") == 0 || strcmp(opt, "-env") == 0
		     : strcmp(opt, "-mca") == 0 || strcmp(opt, "--mca") == 0 ||
		       strcmp(opt, "-gmca") == 0 || strcmp(opt, "--gmca") == 0;
	if (*two)
		return 1;
	for (int i = 0; list[i]; i++)
		if (strcmp(opt, list[i]) == 0)
			return 1;
	return 0;
}

/* The index in ARGV (the arguments of mpirun, or of Hydra's mpiexec
 * when HYDRA) of the program, -1 none; the number of ranks asked (-np N,
 * 0 not said) into *NP. */
static int find_program(char **argv, int hydra, int *np)
{
	int two;

	*np = 0;
	for (int i = 0; argv[i]; i++) {
		if (argv[i][0] != '-')
			return i;
		if (!takes_value(argv[i], hydra, &two))
			continue;
		if ((strcmp(argv[i], "-np") == 0 || strcmp(argv[i], "-n") == 0 ||
		     strcmp(argv[i], "--np") == 0 || strcmp(argv[i], "-c") == 0) &&
		    argv[i + 1])
			*np = atoi(argv[i + 1]);
		if (!argv[++i] || (two && !argv[++i]))
			return -1;
	}
	return -1;
}

/* Whether the file NAME (a path, or found in $PATH) holds the bytes
 * WHAT (a program linked with libmpi names it in its dynamic section);
 * 1, 0 not, -1 not found.  When found and GOT is not NULL, the string
 * that starts there (to its NUL, at most N - 1 bytes) into GOT. */
static int file_has(const char *name, const char *what, char *got, size_t gn)
{
	char path[PG_PATH_MAX + 512], buf[65536];
	const char *p = getenv("PATH");
	size_t n, k = 0;
	FILE *f = NULL;
	int found = 0;

	if (strchr(name, '/')) {
		f = fopen(name, "rb");
	} else {
		for (const char *s = p ? p : "/usr/bin:/bin"; !f && *s;) {
			size_t l = strcspn(s, ":");

			snprintf(path, sizeof(path), "%.*s/%s", (int)l, s, name);
			if (access(path, X_OK) == 0)
				f = fopen(path, "rb");
			s += l + (s[l] == ':');
		}
	}
	if (!f)
		return -1;
	while (!found && (n = fread(buf + k, 1, sizeof(buf) - k, f)) > 0) {
		const char *at;

		n += k;
		if ((at = memmem(buf, n, what, strlen(what))) && got && gn) {
			size_t l = strnlen(at, (size_t)(buf + n - at));

			snprintf(got, gn, "%.*s", (int)l, at);
		}
		found = at != NULL;
		k = n > 8 ? 8 : n; /* keep a tail: a name across two reads */
		memmove(buf, buf + n - k, k);
	}
	fclose(f);
	return found;
}

/* Whether the program ARGS[AT] uses MPI: linked with libmpi, or a
 * Python whose script (or -m module) names mpi4py; 1, 0, -1 not found. */
static int uses_mpi(char **args, int at)
{
	const char *b = strrchr(args[at], '/') ? strrchr(args[at], '/') + 1
					       : args[at];
	int r = file_has(args[at], "libmpi", NULL, 0);

	if (r != 0 || strncmp(b, "python", 6) != 0)
		return r;
	for (int i = at + 1; args[i]; i++) {
		if (strcmp(args[i], "-m") == 0 && args[i + 1])
			return strncmp(args[i + 1], "mpi4py", 6) == 0;
		if (args[i][0] != '-') {
			/* (Python opens its script from here, not by PATH) */
			char script[PG_PATH_MAX];

			snprintf(script, sizeof(script), "%s%s",
				 strchr(args[i], '/') ? "" : "./", args[i]);
			return file_has(script, "mpi4py", NULL, 0) > 0;
		}
	}
	return 0;
}

/* Whether the MPI launcher FILE (a path, or found in $PATH) is MPICH's
 * mpiexec, Hydra (it starts its proxies, hydra_pmi_proxy), rather than
 * Open MPI's orterun. */
static int is_hydra(const char *file)
{
	return file_has(file, "hydra_pmi_proxy", NULL, 0) > 0;
}

/* The MPI libraries the binding is built for. */
enum mpi_lib { MPI_UNSUPPORTED, MPI_OPENMPI, MPI_MPICH };

/* Which MPI library the program PROG (that uses MPI) is linked with;
 * when none the binding supports, the library it names into LIB (N
 * bytes).  MPICH 4's programs name libmpich.so.12, Open MPI 4's
 * libmpi.so.40 (its Fortran ones libmpi_mpifh.so.40... as well); a
 * Python (mpi4py: Debian's is built with Open MPI) names neither. */
static enum mpi_lib mpi_library(const char *prog, char *lib, size_t n)
{
	const char *b = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;

	snprintf(lib, n, "?");
	if (file_has(prog, "libmpich.so.12", NULL, 0) > 0)
		return MPI_MPICH;
	if (file_has(prog, "libmpi", lib, n) <= 0)
		return strncmp(b, "python", 6) == 0 ? MPI_OPENMPI
						    : MPI_UNSUPPORTED;
	return strlen(lib) > 6 && strcmp(lib + strlen(lib) - 6, ".so.40") == 0
		       ? MPI_OPENMPI : MPI_UNSUPPORTED;
}

/* Writes the command (mpirun FILE with ARGV, NP ranks) as task-0.exec of
 * DIR; 0 or -1. */
static int exec_write(const char *dir, const char *file, char **argv, int np)
{
	struct pg_spawn_rec s = { .seq = 1, .ntask = np, .started = np };
	char path[PG_PATH_MAX + 16], err[PG_PATH_MAX + 100];
	struct pg_spawn_slot *slots = calloc((size_t)np + 1, sizeof(*slots));
	int fd, rc;

	if (!slots)
		return -1;
	for (int i = 0; i < np; i++) {
		slots[i].ltid = i + 1;
		gethostname(slots[i].host, sizeof(slots[i].host) - 1);
	}
	snprintf(s.file, sizeof(s.file), "%s", file);
	while (argv[s.argc])
		s.argc++;
	s.argv = argv;
	s.slots = slots;
	snprintf(path, sizeof(path), "%s/task-0.exec", dir);
	if ((fd = pg_exec_create(path, 0, err, sizeof(err))) < 0) {
		la_error("%s", err);
		free(slots);
		return -1;
	}
	rc = pg_exec_append(fd, &s);
	if (close(fd) < 0)
		rc = -1;
	free(slots);
	if (rc < 0)
		la_error("cannot write %s: %s", path, strerror(errno));
	return rc;
}

/* The deadlock check: the ranks' state files (task-LTID.state, written
 * by the binding around its blocking calls): the world's NP ranks and
 * those MPI_Comm_spawn made (seen by their comm logs). */
struct dl {
	const char *dir;
	int np;
	int n, *ltids;      /* the ranks with a log at the last look */
	uint32_t *seq;      /* each one's state seq then */
	int still;          /* looks in a row with every rank blocked, no
			       state changed */
	int found;          /* a deadlock was said */
	int diverged;       /* a rank's replay diverged (it is aborting) */
};

/* The name of the blocking call CALL of a state (the binding's). */
static const char *call_name(const struct pg_state *st, char *buf, size_t n)
{
	if (st->call == pg_call_of(PG_REC_RECV, 0))
		snprintf(buf, n, "MPI_Recv(from=%d, tag=%d)", st->src, st->tag);
	else if (st->call == pg_call_of(PG_REC_PROBE, 0))
		snprintf(buf, n, "MPI_Probe(from=%d, tag=%d)", st->src, st->tag);
	else if (st->call == pg_call_of(PG_REC_SEND, 0))
		snprintf(buf, n, "MPI_Send(to=%d, tag=%d)", st->src, st->tag);
	else if (st->call == pg_call_of(PG_REC_CALL, PG_Q_MPI_DONE))
		snprintf(buf, n, "MPI_Wait*");
	else if (st->call == pg_call_of(PG_REC_CALL, PG_Q_MPI_COLL))
		snprintf(buf, n, "%.60s", st->group);
	else
		snprintf(buf, n, "MPI_Finalize");
	return buf;
}

/* Whether a child of process PARENT (a rank under mpirun) is stopped:
 * SIGSTOP, state T or t in /proc/PID/stat.  Such a rank is not blocked,
 * as a stopped PVM task is not (deadlock.c). */
static int child_stopped(pid_t parent)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d))) {
		char path[300], buf[512], *p, state;
		int ppid;
		size_t k;
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		k = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[k] = '\0';
		/* (the state and the parent follow the command's bracket) */
		found = (p = strrchr(buf, ')')) &&
			sscanf(p + 1, " %c %d", &state, &ppid) == 2 &&
			ppid == parent && (state == 'T' || state == 't');
	}
	if (d)
		closedir(d);
	return found;
}

/* "rank R (task LTID)" for a rank of the world of NP ranks, "spawned
 * task LTID" for one MPI_Comm_spawn made, into BUF. */
static const char *rank_name(int ltid, int np, char *buf, size_t n)
{
	if (ltid <= np)
		snprintf(buf, n, "rank %d (task %d)", ltid - 1, ltid);
	else
		snprintf(buf, n, "spawned task %d", ltid);
	return buf;
}

/* Takes the ranks of D's folder now (a new list: their seqs zero, and
 * *MOVED set); 0, or -1 when the folder cannot be read. */
static int dl_ranks(struct dl *d, int *moved)
{
	int *now = NULL, n = pg_run_ltids(d->dir, "comm", &now);
	uint32_t *seq;

	if (n < 0)
		return -1;
	if (n == d->n && (n == 0 || memcmp(now, d->ltids, (size_t)n *
					   sizeof(int)) == 0)) {
		free(now);
		return 0;
	}
	if (!(seq = calloc((size_t)n + 1, sizeof(*seq)))) {
		free(now);
		return -1;
	}
	free(d->ltids);
	free(d->seq);
	d->ltids = now;
	d->seq = seq;
	d->n = n;
	*moved = 1;
	return 0;
}

/* One look at the ranks' states: when every rank has been blocked, none
 * moving, for four looks in a row (a look every 250 ms), says the
 * deadlock, one line a rank; 1 then, else 0.  Ranks that are all in
 * MPI_Finalize are not deadlocked: that is MPI's own end, which takes
 * its time on a loaded machine; one rank blocked elsewhere while the
 * others wait in MPI_Finalize is. */
static int deadlock_look(struct dl *d)
{
	struct pg_state st;
	int all = 1, moved = 0, world = 0, ending = 1;
	char what[128], who[64];

	if (dl_ranks(d, &moved) < 0)
		return 0;
	for (int i = 0; i < d->n; i++) {
		world += d->ltids[i] <= d->np;
		if (!pg_state_read(d->dir, d->ltids[i], &st) || !st.call ||
		    st.call == PG_STATE_DIVERGED) {
			d->diverged |= pg_state_read(d->dir, d->ltids[i], &st) &&
				       st.call == PG_STATE_DIVERGED;
			all = 0;
			moved = 1;
			continue;
		}
		ending &= st.call == pg_call_of(PG_REC_CALL, PG_Q_EXIT);
		moved |= st.seq != d->seq[i];
		d->seq[i] = st.seq;
	}
	if (world < d->np || ending)
		all = 0; /* (a rank not joined yet; MPI's own end) */
	if (all && !moved && child_stopped(mpirun_pgid))
		all = 0; /* (a rank stopped for a while: not a deadlock) */
	d->still = all && !moved ? d->still + 1 : 0;
	if (d->still < 4)
		return 0;
	la_error("deadlock: every rank is blocked:");
	for (int i = 0; i < d->n; i++)
		if (pg_state_read(d->dir, d->ltids[i], &st))
			la_error("  %s in %s",
				 rank_name(d->ltids[i], d->np, who, sizeof(who)),
				 call_name(&st, what, sizeof(what)));
	return 1;
}

/* Waits up to 250 ms for a child's end (SIGCHLD, blocked by the caller,
 * taken here): mpirun's end is seen at once, not at the next look. */
static void nap(const sigset_t *chld)
{
	struct timespec ts = { 0, 250000000 };

	(void)sigtimedwait(chld, NULL, &ts);
}

/* Runs ARGV in a process group of its own until it ends, looking for a
 * deadlock of its NP ranks logging into DIR (then mpirun is stopped and
 * *DEADLOCK set) and for a diverged rank whose abort has not ended
 * mpirun 5 s later (then it is stopped too: a divergence never hangs);
 * its wait status, -1 if it could not start. */
static int run_group(char **argv, const char *dir, int np, int *deadlock)
{
	int status = -1, stop_at = 0, diverged_at = 0;
	struct dl d = { .dir = dir, .np = np };
	sigset_t chld, old;
	pid_t pid, w;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	if ((pid = fork()) < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		setpgid(0, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "pangaea: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	mpirun_pgid = pid;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (int tick = 1;; tick++) {
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (w == 0)
			nap(&chld);
		la_debug_mpi_tick();
		if (!d.found && !la_debug_mpi_busy() && deadlock_look(&d)) {
			d.found = 1;
			kill(pid, SIGTERM); /* mpirun ends its ranks */
			stop_at = tick + 20;
		}
		if (d.diverged && !diverged_at)
			diverged_at = tick;
		if (diverged_at && !stop_at && tick >= diverged_at + 20) {
			la_error("a rank diverged and mpirun has not ended 5 s "
				 "later: stopping it");
			kill(pid, SIGTERM);
			stop_at = tick + 20;
		}
		if (stop_at && tick >= stop_at) /* 5 s later */
			kill(-pid, SIGKILL);
	}
	kill(-pid, SIGKILL); /* whatever of the run is left */
	mpirun_pgid = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(d.ltids);
	free(d.seq);
	*deadlock = d.found;
	return status;
}

/* How rank LTID - 1 of the run in DIR ended (its end record) into *HOW,
 * *VALUE; 1, 0 no log. */
static int rank_end(const char *dir, int ltid, int *how, int *value)
{
	char path[PG_PATH_MAX + 32], err[256];
	struct pg_comm_reader r;
	struct pg_event ev;

	*how = *value = 0;
	if (pg_log_path(path, sizeof(path), dir, ltid, "comm") < 0 ||
	    pg_comm_open(&r, path, err, sizeof(err)) < 0)
		return 0;
	while (pg_comm_next(&r, &ev, err, sizeof(err)) > 0)
		if (ev.kind == PG_REC_END) {
			*how = ev.how;
			*value = ev.value;
		}
	pg_comm_free(&r);
	return 1;
}

/* Says (if SAY) how the ranks of DIR ended that did not end well; how
 * many crashed (a signal other than mpirun's SIGTERM), the first one's
 * signal into *SIG, how many have no end (killed) into *NOEND and how
 * many diverged into *NDIV. */
static int report_ranks(const char *dir, int np, int say, int *sig,
			int *noend, int *ndiv)
{
	int how, value, crashed = 0, *ltids = NULL;
	int n = pg_run_ltids(dir, "comm", &ltids);
	char who[64];

	*sig = *noend = *ndiv = 0;
	for (int i = 0; i < n; i++) {
		int ltid = ltids[i];

		if (!rank_end(dir, ltid, &how, &value))
			continue;
		rank_name(ltid, np, who, sizeof(who));
		if (!say) {
			if (how == PG_END_SIGNAL && value != SIGTERM &&
			    !crashed++)
				*sig = value;
		} else if (how == PG_END_SIGNAL && value != SIGTERM) {
			la_error("%s was killed by signal %d (%s)", who,
				 value, strsignal(value));
			if (!crashed++)
				*sig = value;
		} else if (how == PG_END_DIVERGED && ++*ndiv) {
			la_error("%s diverged from its recording at event "
				 "%d", who, value);
		} else if (how == 0 && ++*noend) {
			la_error("%s has no end in its log: it was killed",
				 who);
		}
	}
	free(ltids);
	return crashed;
}

/* The number of logs in DIR of the world's NP ranks (not counting the
 * ranks MPI_Comm_spawn made). */
static int ranks_in(const char *dir, int np)
{
	int *ltids = NULL, n = pg_run_ltids(dir, "comm", &ltids), k = 0;

	for (int i = 0; i < n; i++)
		k += ltids[i] >= 1 && ltids[i] <= np;
	free(ltids);
	return k;
}

/* Writes run.info: the mode, command and status; 0 or -1. */
static int info_write(const struct la_opts *o, const char *dir, int status)
{
	struct pg_runinfo ri = { .status = status };
	char err[PG_PATH_MAX + 100];
	int rc;

	snprintf(ri.mode, sizeof(ri.mode), "%s",
		 o->mode == PANGAEA_MODE_RECORD ? "record" : "replay");
	gethostname(ri.launcher_host, sizeof(ri.launcher_host));
	snprintf(ri.command, sizeof(ri.command), "%s", o->command);
	if (o->mode == PANGAEA_MODE_REPLAY)
		snprintf(ri.replay_of, sizeof(ri.replay_of), "%s", o->logdir);
	rc = pg_runinfo_write(dir, &ri, err, sizeof(err));
	if (rc < 0)
		la_error("%s", err);
	pg_runinfo_free(&ri);
	return rc;
}

/* The replay's command: the recording's (checked against the one given,
 * if any) into *FILE, *ARGS, *NP; 0 or -1. */
static int replay_command(struct la_opts *o, const char **file, char ***args,
			  int *np)
{
	char path[PG_PATH_MAX + 16], err[PG_PATH_MAX + 100];
	int given = 0;

	snprintf(path, sizeof(path), "%s/task-0.exec", o->logdir);
	if (pg_exec_read(path, &o->recorded, err, sizeof(err)) < 0) {
		la_error("refusing to replay: %s", err);
		return -1;
	}
	if (o->recorded.nspawn != 1 ||
	    !pg_mpi_launcher(o->recorded.spawns[0].file)) {
		la_error("refusing to replay: %s is not a recording of mpirun",
			 o->logdir);
		return -1;
	}
	*file = o->recorded.spawns[0].file;
	*args = o->recorded.spawns[0].argv;
	*np = o->recorded.spawns[0].ntask;
	if (o->nprog &&
	    find_program(o->progs[0].argv, is_hydra(*file), &given) >= 0 &&
	    given && given != *np) {
		la_error("the recording in %s ran %d ranks; this replay asks "
			 "for %d", o->logdir, *np, given);
		return -1;
	}
	if (ranks_in(o->logdir, *np) != *np) {
		la_error("refusing to replay: %s holds %d rank logs, not the "
			 "%d ranks recorded", o->logdir,
			 ranks_in(o->logdir, *np), *np);
		return -1;
	}
	return 0;
}

/* mpirun's command: FILE, then the binding's environment ENV (NENV
 * "NAME=VALUE" or "NAME", the launcher's own value), then ARGS; NULL
 * when memory runs out.  Open MPI's orterun takes each as -x ENV[i];
 * Hydra (HYDRA) as -genv NAME VALUE, whose words are made in ENV[i]
 * (its '=' cut) or point into the launcher's environment. */
static char **command(const char *file, char **args, char **env, int nenv,
		      int hydra)
{
	int n = 0, k = 0;
	char **v;

	while (args[n])
		n++;
	if (!(v = calloc((size_t)(n + 3 * nenv + 2), sizeof(*v))))
		return NULL;
	v[k++] = (char *)file;
	for (int i = 0; i < nenv; i++) {
		char *eq = strchr(env[i], '=');

		if (!hydra) {
			v[k++] = "-x";
			v[k++] = env[i];
			continue;
		}
		v[k++] = "-genv";
		v[k++] = env[i];
		if (eq)
			*eq = '\0';
		v[k++] = eq ? eq + 1 : getenv(env[i]) ? getenv(env[i]) : "";
	}
	for (int i = 0; i < n; i++)
		v[k++] = args[i];
	return v;
}

/* The option of O that an MPI run does not take yet, or NULL. */
static const char *unsupported(const struct la_opts *o)
{
	if (o->select[0])
		return "-select";
	if (o->start)
		return "-staged and -stagger";
	if (o->stdin_ltid)
		return "-stdin";
	if (o->host || o->arch || o->spawn_flags)
		return "-host, -arch and -flags (mpirun's own options place ranks)";
	if (o->ntask > 1)
		return "-n (mpirun's -np says how many ranks)";
	return NULL;
}

int la_mpi_run(struct la_opts *o)
{
	char lib[PG_PATH_MAX], dir[PG_PATH_MAX], rdir[PG_PATH_MAX];
	char e[10][PG_PATH_MAX + 64], *env[10];
	const char *file = o->nprog ? o->progs[0].path : NULL;
	char **args = o->nprog ? o->progs[0].argv : NULL, **cmd;
	int np = 0, at, nenv = 0, status, crashed, sig, rc = LA_OK, recsig = 0;
	int setup, noend, ndiv, nlog, hydra, mpich;
	enum mpi_lib kind;
	int deadlock = 0;
	struct la_mpi_live live;
	long nev;
	int nt;

	if (unsupported(o)) {
		la_error("%s: not supported for MPI programs yet",
			 unsupported(o));
		return LA_SETUP;
	}
	if (o->mode == PANGAEA_MODE_REPLAY) {
		if (la_logdir_check(o->logdir) < 0 ||
		    replay_command(o, &file, &args, &np) < 0 ||
		    !realpath(o->logdir, rdir) ||
		    la_debug_check(o, rdir) < 0 || /* (-debug's event is there) */
		    la_whatif_prepare(o) < 0) /* -swap: PG_ENV_WHATIF set */
			return LA_SETUP;
		if (!o->outdir[0])
			la_logdir_replay_name(o->logdir, o->outdir,
					      sizeof(o->outdir));
		/* who crashed then */
		report_ranks(rdir, np, 0, &recsig, &noend, &ndiv);
	}
	hydra = is_hydra(file);
	if ((at = find_program(args, hydra, &nt)) < 0) {
		la_error("%s: no MPI program on its command line", file);
		return LA_SETUP;
	}
	if (!np)
		np = nt;
	if (uses_mpi(args, at) <= 0) {
		la_error(uses_mpi(args, at) < 0 ? "%s: program not found" :
			 "%s does not use MPI (not linked with libmpi)",
			 args[at]);
		return LA_SETUP;
	}
	if (!np) {
		la_error("%s: say how many ranks (-np N): a replay needs the "
			 "same number", file);
		return LA_SETUP;
	}
	if ((kind = mpi_library(args[at], e[0], sizeof(e[0]))) ==
	    MPI_UNSUPPORTED) {
		la_error("%s is linked with %s, an MPI library Pangaea does not "
			 "support: Open MPI 4 (libmpi.so.40) and MPICH 4 "
			 "(libmpich.so.12) are", args[at], e[0]);
		return LA_SETUP;
	}
	mpich = kind == MPI_MPICH;
	if (mpich != hydra) {
		la_error("%s is linked with %s, but %s is %s's launcher: run it "
			 "with %s", args[at], mpich ? "MPICH" : "Open MPI", file,
			 hydra ? "MPICH" : "Open MPI",
			 mpich ? "mpiexec.mpich" : "mpirun.openmpi");
		return LA_SETUP;
	}
	if (la_lib_path(mpich ? MPICH_LIB : MPI_LIB, lib, sizeof(lib)) < 0) {
		la_error("cannot find %s next to the launcher (in "
			 "../lib/pangaea)", mpich ? MPICH_LIB : MPI_LIB);
		return LA_SETUP;
	}
	if (la_logdir_prepare(o->mode == PANGAEA_MODE_RECORD ? o->logdir :
			      o->outdir, o->logmode) < 0 ||
	    !realpath(o->mode == PANGAEA_MODE_RECORD ? o->logdir : o->outdir,
		      dir))
		return LA_SETUP;
	/* (a replay's folder too: what it ran, a folder the tools read
	   even when mpirun dies before any rank logs) */
	if (exec_write(dir, file, args, np) < 0)
		return LA_SETUP;
	snprintf(e[nenv++], sizeof(e[0]), "LD_PRELOAD=%s", lib);
	snprintf(e[nenv++], sizeof(e[0]), "PANGAEA_MPI=%s",
		 o->mode == PANGAEA_MODE_RECORD ? "record" : "replay");
	snprintf(e[nenv++], sizeof(e[0]), "PANGAEA_MPI_LOGDIR=%s", dir);
	if (o->mode == PANGAEA_MODE_REPLAY)
		snprintf(e[nenv++], sizeof(e[0]), "PANGAEA_MPI_REPLAYDIR=%s",
			 rdir);
	if (o->delay_us > 0) {
		snprintf(e[nenv++], sizeof(e[0]), PG_ENV_DELAY "=%d", o->delay_us);
		snprintf(e[nenv++], sizeof(e[0]), PG_ENV_SEED "=%u", o->seed);
		la_say(o, "random delays of up to %d us, seed %u", o->delay_us,
		       o->seed);
	}
	if (o->chaos && o->mode == PANGAEA_MODE_RECORD) {
		snprintf(e[nenv++], sizeof(e[0]), PG_ENV_CHAOS "=1");
		snprintf(e[nenv++], sizeof(e[0]), PG_ENV_SEED "=%u", o->seed);
		la_say(o, "chaos recording, seed %u (%s=%u repeats its "
		       "decisions)", o->seed, PG_ENV_SEED, o->seed);
	}
	nenv += la_debug_mpi_setup(o, dir, e[nenv], sizeof(e[0]));
	if (o->nswap) /* (its value, set by la_whatif_prepare, may be long:
			 -x NAME passes on the launcher's, as command() does
			 for Hydra) */
		snprintf(e[nenv++], sizeof(e[0]), "%s", PG_ENV_WHATIF);
	for (int i = 0; i < nenv; i++)
		env[i] = e[i];
	if (geteuid() == 0) { /* what Open MPI asks of root */
		setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
		setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
	}
	setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
	if (!(cmd = command(file, args, env, nenv, hydra)))
		return LA_SETUP;
	if (o->mode == PANGAEA_MODE_REPLAY)
		la_say(o, "replaying %s; this replay logs into %s", rdir, dir);
	if (la_mpi_live_start(dir, &live) < 0) {
		free(cmd);
		return LA_SETUP;
	}
	status = run_group(cmd, dir, np, &deadlock);
	la_mpi_live_end(&live);
	la_debug_finish();
	free(cmd);
	setup = status < 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 127);
	/* (what was recorded first, the causes of an end last: the last
	   line names the cause, as for PVM runs) */
	if (o->mode == PANGAEA_MODE_RECORD && !setup && !deadlock &&
	    pg_run_count(dir, &nev, &nt, e[0], sizeof(e[0])) == 0)
		la_say(o, "recorded %ld events of %d ranks in %s", nev, nt, dir);
	crashed = report_ranks(dir, np, 1, &sig, &noend, &ndiv);
	nlog = setup || deadlock ? np : ranks_in(dir, np);
	if (nlog < np && status >= 0 && WIFEXITED(status)) {
		/* (ranks killed before they joined: no log to tell it) */
		la_error("%d of %d ranks ended before joining the run (mpirun "
			 "exited with status %d)", np - nlog, np,
			 WEXITSTATUS(status));
		noend += np - nlog;
	}
	if (status >= 0 && WIFSIGNALED(status) && !deadlock)
		la_error("%s was killed by signal %d (%s)", file,
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (setup) {
		rc = LA_SETUP;
	} else if (deadlock) {
		rc = LA_DIVERGED; /* (as a PVM run's deadlock) */
	} else if (o->mode == PANGAEA_MODE_RECORD || o->nswap) {
		/* (a what-if's free part is a new run, not a divergence) */
		if (crashed || !WIFEXITED(status) || WEXITSTATUS(status))
			rc = LA_DIED;
		else if (o->nswap &&
			 pg_run_count(dir, &nev, &nt, e[0], sizeof(e[0])) == 0)
			la_say(o, "what-if run recorded %ld events of %d ranks "
			       "in %s (pangaea -replay -logdir %s replays it)",
			       nev, nt, dir, dir);
	} else if (recsig) {
		/* a recorded crash: it must come again, the same */
		if (sig == recsig) {
			la_say(o, "the replay crashed as recorded (signal %d, "
			       "%s)", sig, strsignal(sig));
			rc = LA_DIED;
		} else {
			la_error("the recording crashed with signal %d; the "
				 "replay did not", recsig);
			rc = LA_DIVERGED;
		}
	} else if (ndiv) {
		/* (the first rank to diverge aborts the others: those killed
		   then, without an end, are its doing, not a verdict's lack) */
		rc = LA_DIVERGED;
	} else if (noend || WIFSIGNALED(status)) {
		rc = LA_DIED; /* a replay killed (said above): no verdict */
	} else if (pg_verify_runs(rdir, dir, &nev, &nt, e[0], sizeof(e[0])) == 0) {
		la_say(o, "replay reproduced all %ld events of %d ranks (logs "
		       "in %s)", nev, nt, dir);
	} else {
		la_error("the replay differs from its recording: %s", e[0]);
		rc = LA_DIVERGED;
	}
	if (info_write(o, dir, rc) < 0 && rc == LA_OK)
		rc = LA_SETUP;
	return rc;
}

int la_mpi_recording(const char *dir)
{
	return pg_names_of_run(dir) == &pg_names_mpi;
}

/*
 * The live view of an MPI run (`pangaea -log -view mpirun
 * ...`).  An MPI run has no coordinator to follow its ranks' logs, so
 * the launcher starts one that does only that: pangaea-coord
 * -follow-logs DIR (coordinator/logsview.c), a child process with a
 * pipe from us as its standard input, before mpirun starts.  It serves
 * the socket PANGAEA_LIVE names (the viewer la_view_start started
 * listens there) with the events of every rank's log as it grows; when
 * the run is over we close the pipe, and it reads the logs to their
 * ends, closes the stream and exits.  Were we killed, the pipe would
 * close all the same.
 */

int la_mpi_live_start(const char *dir, struct la_mpi_live *lv)
{
	char path[PG_PATH_MAX + 32];
	const char *sock = getenv(PG_ENV_LIVE);
	int fds[2];

	lv->pid = 0;
	lv->fd = -1;
	if (!sock || !*sock)
		return 0;
	la_coord_path(path, sizeof(path));
	if (pipe2(fds, O_CLOEXEC) < 0 || (lv->pid = fork()) < 0) {
		la_error("cannot start the live view: %s", strerror(errno));
		return -1;
	}
	if (lv->pid == 0) {
		dup2(fds[0], STDIN_FILENO); /* (dup2 clears close-on-exec) */
		execl(path, path, "-follow-logs", dir, (char *)NULL);
		la_error("cannot run %s: %s", path, strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	lv->fd = fds[1]; /* (close-on-exec: mpirun and the ranks lack it) */
	pg_timeline("launcher", "started the live view's log follower");
	return 0;
}

void la_mpi_live_end(struct la_mpi_live *lv)
{
	int status = 0;
	pid_t w;

	if (lv->pid <= 0)
		return;
	close(lv->fd);
	while ((w = waitpid(lv->pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (w == lv->pid && WIFEXITED(status) && WEXITSTATUS(status) != 0)
		la_error("the live view's log follower failed (status %d)",
			 WEXITSTATUS(status));
	lv->pid = 0;
	lv->fd = -1;
}
