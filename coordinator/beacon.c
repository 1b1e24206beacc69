/*
 * beacon.c: `pangaea-coord -beacon`, the launcher's watch on one other
 * host of the virtual machine.
 *
 * PVM declares a host dead only after its daemons' own time-outs
 * (measured: 183 s after a pvmd was killed), and until then every task
 * waiting for a message from that host waits in silence.  The launcher
 * starts one beacon on each other host; beacon and launcher send each
 * other BEACON every PERIOD_MS:
 *   - the launcher takes a host whose beacon falls silent as lost
 *     (toplevel/hosts.c);
 *   - a beacon that has had no fresh BEACON from the launcher for
 *     ORPHAN_S (counted from its sending: a late one does not count,
 *     lease_until) takes the run as over for its host (the launcher's
 *     host, or the path to it, is gone, or the pvmds no longer pass
 *     messages in time: seen after a host was lost) and ends the run's
 *     processes on this host itself; so does a beacon told QUIT by PVM
 *     (the launcher exited) or with PG_QUIT_SWEEP by a launcher that
 *     stopped its run (its pvm_kills may not have got here: seen after
 *     a host was lost), and one whose own pvmd is gone.  The waiting
 *     and the ending are done by a watchdog process that uses no PVM:
 *     the beacon itself may hang inside libpvm as long as its pvmd.
 * The beacon also carries the run's logs between its host and the
 * launcher's (pangaea_lib/pvm/ship.c): after the run it sends the task logs
 * its host holds (LOGS_ASK), before a replay it writes the recorded logs
 * of the tasks that will run on its host (LOGFILE).  It ends on QUIT,
 * from the launcher or from PVM when the launcher exits.
 *
 * With a live view (-follow DIR -events-to TID, unless the coordinator
 * runs on its host) the beacon is also its host's follower (follow.c):
 * every COORD_FOLLOW_MS it reads on in the logs of DIR whose task ran
 * on its host and sends what it found to the coordinator TID as
 * PG_TAG_EVENTS batches, so that no task sends any; at LOGS_ASK (the
 * run's tasks have all ended) it reads them to their end first.
 */
#include "coord.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define PERIOD_MS 250
#define ORPHAN_S 10.0

/* The coordinator, which gets the events of this host's logs. */
static int events_to;

/* follow.c's sink: sends the batch of task H to the coordinator. */
static void beacon_events(const struct pg_live_head *h, const int *ints,
			  int n)
{
	if (pg_proto_send_events(events_to, h, ints, n) < 0)
		fprintf(stderr, "pangaea-coord: cannot send the live view's "
			"events to the coordinator t%x\n", events_to);
}

/* Reads the arguments ARGC, ARGV after -beacon: with -follow DIR and
 * -events-to TID, follows the logs of this host's tasks in DIR. */
static void beacon_follow(int argc, char **argv)
{
	const char *dir = NULL;
	char host[PG_HOST_MAX];

	for (int i = 0; i + 1 < argc; i++)
		if (strcmp(argv[i], "-follow") == 0)
			dir = argv[++i];
		else if (strcmp(argv[i], "-events-to") == 0)
			events_to = atoi(argv[++i]);
	if (!dir || events_to <= 0)
		return;
	pg_pvm_host_of(pvm_mytid(), host, sizeof(host));
	coord_follow_init(NULL, dir, host, 1, beacon_events);
}

/* Monotonic milliseconds. */
static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

ssize_t coord_proc_read(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	if (!(f = fopen(path, "r")))
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (ssize_t)n;
}

/* Whether the environment of process PID holds the entry KV
 * ("NAME=VALUE"), read from /proc. */
static int env_has(pid_t pid, const char *kv)
{
	char buf[65536];
	size_t len = strlen(kv);
	ssize_t n = coord_proc_read(pid, "environ", buf, sizeof(buf));

	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
		if (strncmp(buf + i, kv, len) == 0 && buf[i + len] == '\0')
			return 1;
	return 0;
}

/* Whether process PID is on this host: in this network namespace (the
 * hosts of scripts/hosts.sh share one /proc). */
static int on_this_host(pid_t pid)
{
	char path[64];
	struct stat mine, its;

	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
	if (stat("/proc/self/ns/net", &mine) < 0 || stat(path, &its) < 0)
		return 1; /* no namespaces to tell: one host, one /proc */
	return mine.st_ino == its.st_ino && mine.st_dev == its.st_dev;
}

/* Sends SIG to every process of this host in the run of context CTX
 * (PANGAEA_CONTEXT=CTX and, if set, our PVM_VMID in its environment),
 * but this one; how many. */
static int signal_run(const char *ctx_kv, const char *vmid_kv, int sig)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t me = getpid();
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		pid_t pid = (pid_t)atoi(e->d_name);

		if (pid <= 0 || pid == me || !on_this_host(pid) ||
		    !env_has(pid, ctx_kv) || (vmid_kv && !env_has(pid, vmid_kv)))
			continue;
		if (kill(pid, sig) == 0)
			n++;
	}
	closedir(d);
	return n;
}

/* LOGS_ASK (the active buffer) from LAUNCHER: sends it the task logs of
 * the folder asked for, as this host has them. */
static void send_logs(int launcher)
{
	char dir[PG_PATH_MAX], err[PG_PATH_MAX + 100], **names;
	int n;

	if (pg_proto_upk_logs_ask(dir, sizeof(dir)) < 0)
		return;
	if (pg_logship_list(dir, &names, &n) < 0) {
		fprintf(stderr, "pangaea-coord: cannot list %s: %s\n", dir,
			strerror(errno));
		n = 0;
	}
	if (pg_ship_send(launcher, dir, names, n, err, sizeof(err)) < 0)
		fprintf(stderr, "pangaea-coord: %s\n", err);
	pg_logship_free(names, n);
}

/* LOGFILE (the active buffer) from LAUNCHER, before a replay: writes the
 * piece with W; the end piece is answered with one, once all is written. */
static void take_logs(int launcher, struct pg_logship_writer *w)
{
	char err[PG_PATH_MAX + 100];
	int end;

	if (pg_ship_take(w, NULL, &end, err, sizeof(err)) < 0)
		fprintf(stderr, "pangaea-coord: %s\n", err);
	if (end && pg_ship_send(launcher, "", NULL, 0, err, sizeof(err)) < 0)
		fprintf(stderr, "pangaea-coord: %s\n", err);
}

/* The run is over for this host (WHY) but may have left processes
 * here: ends them. */
static void sweep(const char *ctx, const char *why)
{
	char ctx_kv[64], vmid_kv[256];
	const char *vmid = getenv("PVM_VMID");
	int n;

	snprintf(ctx_kv, sizeof(ctx_kv), "%s=%s", PG_ENV_CONTEXT, ctx);
	if (vmid)
		snprintf(vmid_kv, sizeof(vmid_kv), "PVM_VMID=%s", vmid);
	n = signal_run(ctx_kv, vmid ? vmid_kv : NULL, SIGTERM);
	if (n)
		fprintf(stderr, "pangaea-coord: %s: ended the run's %d "
			"process(es) on this host\n", why, n);
	if (n) {
		sleep(1);
		signal_run(ctx_kv, vmid ? vmid_kv : NULL, SIGKILL);
	}
}

/* What the beacon tells its watchdog: KIND '.' with the time (now_ms)
 * until which the run stands for this host, 'q' (the beacon ends,
 * nothing to do) or 's' (the beacon ends: sweep).  Written whole
 * (smaller than PIPE_BUF). */
struct dog_word {
	char kind;
	long long until_ms;
};

/*
 * The watchdog: a process of its own, which uses no PVM (a beacon can
 * block inside libpvm for as long as its pvmd does), forked before the
 * beacon enrolls.  It sweeps the run's processes of this host once the
 * latest time it was told the run stands until has passed (at first,
 * ORPHAN_S from its start), when told 's', or when the pipe closes
 * without a word (the beacon died).
 */
static void watchdog(int pipe_rd, const char *ctx)
{
	long long until = now_ms() + (long long)(ORPHAN_S * 1000);

	for (;;) {
		long long left = until - now_ms();
		struct pollfd p = { .fd = pipe_rd, .events = POLLIN };
		struct dog_word w = { 0, 0 };
		int k = left > 0 ? poll(&p, 1, left > 60000 ? 60000 : (int)left) : 0;

		if (k == 0 && now_ms() >= until) {
			sweep(ctx, "no fresh word from the launcher for 10 s");
			_exit(0);
		}
		if (k == 0 || (k < 0 && errno == EINTR))
			continue;
		if (k < 0 || read(pipe_rd, &w, sizeof(w)) != sizeof(w) ||
		    w.kind == 's') {
			sweep(ctx, w.kind == 's' ? "the run was stopped or this "
			      "host left it" : "the beacon ended");
			_exit(0);
		}
		if (w.kind == 'q')
			_exit(0);
		if (w.until_ms > until)
			until = w.until_ms;
	}
}

/* Starts the watchdog; the pipe's writing end, or -1 (no watchdog). */
static int start_watchdog(const char *ctx)
{
	int fd[2];
	pid_t pid;

	if (pipe(fd) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		/* keep nothing of the beacon's but the pipe and stderr */
		for (int i = 3; i < 1024; i++)
			if (i != fd[0])
				close(i);
		watchdog(fd[0], ctx);
	}
	close(fd[0]);
	if (pid < 0) {
		close(fd[1]);
		return -1;
	}
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
	return fd[1];
}

/* Tells the watchdog KIND, and for '.', that the run stands until
 * UNTIL_MS; never blocks for long (a full pipe means it has heard
 * plenty). */
static void tell_watchdog(int fd, char kind, long long until_ms)
{
	struct dog_word w = { kind, until_ms };

	if (fd >= 0 && write(fd, &w, sizeof(w)) < 0)
		return;
}

/*
 * The launcher's BEACONs carry the time it sent them (ms since its run
 * began).  Each says the run stands for ORPHAN_S from its sending, not
 * from its arrival: PVM can deliver the launcher's messages seconds
 * late after a host was lost (delays that doubled up to 6 s were seen),
 * and a late BEACON must not keep a run alive that the launcher has
 * given up.  The sending time is put on this host's clock with the
 * smallest offset (arrival - sending) seen so far: the clocks' offset
 * plus the quickest delivery.  The time, on this host's clock, until
 * which BEACON SENT_MS arriving at NOW_MS keeps the run standing.
 */
static long long lease_until(int sent_ms, long long now, long long *offset,
			     int *have)
{
	long long o = now - sent_ms;

	if (!*have || o < *offset)
		*offset = o;
	*have = 1;
	return sent_ms + *offset + (long long)(ORPHAN_S * 1000);
}

int coord_beacon_main(int argc, char **argv)
{
	const char *ctx = getenv(PG_ENV_CONTEXT);
	struct pg_logship_writer w = { .fd = -1 };
	int launcher, b = 0, tag, src, version, dog, have = 0;
	long long sent = 0, t0 = now_ms(), offset = 0, read = 0;
	char last = 'q';

	if (!ctx) {
		fprintf(stderr, "pangaea-coord: -beacon must be started by the "
			"pangaea launcher, not by hand\n");
		return 1;
	}
	dog = start_watchdog(ctx);
	if (dog >= 0)
		fcntl(dog, F_SETFL, O_NONBLOCK);
	pg_pvmtmp_clear_own(); /* before libpvm picks its file names */
	if (pvm_mytid() < 0 || (launcher = pvm_parent()) < 0) {
		tell_watchdog(dog, 'q', 0);
		return 1;
	}
	pg_proto_open(atoi(ctx));
	pvm_setcontext(atoi(ctx));
	pvm_notify(PvmTaskExit, PG_TAG_QUIT, 1, &launcher);
	beacon_follow(argc, argv);
	for (;;) {
		struct timeval tmout = { 0, (coord_follow_on() ? COORD_FOLLOW_MS
						  : PERIOD_MS) * 1000 };
		long long t = now_ms();
		int ms = (int)(t - t0);

		if (coord_follow_on() && t - read >= COORD_FOLLOW_MS) {
			coord_follow_read();
			read = t;
		}

		if (t - sent >= PERIOD_MS) {
			if (pg_proto_send(launcher, PG_TAG_BEACON, &ms) < 0) {
				last = 's'; /* our pvmd is gone: the run here too */
				break;
			}
			sent = t;
		}
		if ((b = pvm_trecv(-1, -1, &tmout)) < 0) {
			last = 's';
			break;
		}
		if (b == 0 || pg_proto_check(b, &tag, &src, &version) < 0)
			continue;
		if (tag == PG_TAG_QUIT) {
			int v = 0;

			/* PVM's notice that the launcher exited without a
			   word, or the launcher's word that it stopped the
			   run: the run's processes here end too */
			if (src != launcher ||
			    (pg_proto_upk(tag, &v) == 0 && v == PG_QUIT_SWEEP))
				last = 's';
			break;
		}
		if (src != launcher)
			continue;
		if (tag == PG_TAG_BEACON && pg_proto_upk(tag, &ms) == 0) {
			tell_watchdog(dog, '.', lease_until(ms, now_ms(),
							    &offset, &have));
		} else if (tag == PG_TAG_LOGS_ASK) {
			/* (the run is over: its lease is not extended; the
			   live view gets the logs' last events first) */
			coord_follow_finish();
			send_logs(launcher);
		} else if (tag == PG_TAG_LOGFILE) {
			/* (before a replay's tasks start: a long transfer is
			   no silence) */
			take_logs(launcher, &w);
			tell_watchdog(dog, '.', now_ms() +
				      (long long)(ORPHAN_S * 1000));
		}
	}
	if (dog >= 0) {
		fcntl(dog, F_SETFL, 0); /* the last word must get through */
		tell_watchdog(dog, last, 0);
		close(dog);
	}
	pvm_exit();
	return 0;
}
