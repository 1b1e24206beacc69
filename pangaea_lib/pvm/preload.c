/*
 * preload.c: the PVM entry points of libpangaea.so.  Preloaded
 * (LD_PRELOAD) into an unmodified program linked with libpvm3.so.3, these
 * definitions come before PVM's own: each routes its call to the wrapper
 * pangaea.h would have named (pvm_send -> pangaea_pvm_send), which calls
 * the real function through real.h.
 *
 * - The task joins the run at its first PVM call (pangaea_init, lazily)
 *   and leaves it at pvm_exit, or at a process exit with status 0
 *   (pangaea_exit); another exit is recorded by init.c's hook.
 * - Calls made while inside Pangaea (libgpvm3's own pvm_send, pvm_recv,
 *   pvm_mcast ... for its group server, libpvm3's internal calls) go
 *   straight to PVM: a per-thread depth counts the wrappers we are in.
 * - A program built with pangaea.h tells us so from its constructor
 *   (pg_preload_source_mode, in init.c of libpangaea.a): its own wrappers
 *   record, and every call here passes through.
 * - So do processes outside the run (no PANGAEA_CONTEXT), a process with
 *   no parent task, and PVM's group server (pvmgs), which libgpvm3 starts
 *   with the environment of the run's task that needs it.
 *
 * Only in libpangaea.so; compiled without real.h's renaming.
 */
#define PG_REAL_KEEP_NAMES
#include "real.h"
#include "pangaea-internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum preload_state {
	PRELOAD_UNDECIDED = 0, /* no PVM call yet */
	PRELOAD_ACTIVE,        /* joined: calls go through Pangaea */
	PRELOAD_OFF            /* plain PVM: every call passes through */
};

static enum preload_state state;
/* wrappers of this thread we are inside (initial-exec: the library is
 * loaded at start, so its TLS is static and read without a call) */
static __thread int depth __attribute__((tls_model("initial-exec")));

void pg_preload_source_mode(void);

/* Called by a program built with pangaea.h (its libpangaea.a) before
 * main: it records itself, so this library stays out of the way. */
void pg_preload_source_mode(void)
{
	state = PRELOAD_OFF;
}

/* Whether this process is PVM's group server (started by libgpvm3 with a
 * task's environment, LD_PRELOAD included): it is not a task of the run. */
static int preload_is_group_server(void)
{
	char exe[PG_PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *base;

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	base = strrchr(exe, '/');
	return strcmp(base ? base + 1 : exe, "pvmgs") == 0;
}

/* At a process exit with status 0 that did not call pvm_exit: the task
 * leaves the run normally, and PVM too (pvm_exit waits for the pvmd, so
 * the messages the task sent last are not lost with its exit). */
static void preload_on_exit(int status, void *arg)
{
	(void)arg;
	if (state == PRELOAD_ACTIVE && status == 0) {
		depth++;
		pangaea_exit();
		state = PRELOAD_OFF;
		pg_real_pvm_exit();
		depth--;
	}
}

/* Decides, at the first PVM call, whether this task is in a run: joins it
 * (pangaea_init) if so; a failed join leaves the task plain, said. */
static void preload_join(void)
{
	const char *ctx = getenv(PG_ENV_CONTEXT);

	state = PRELOAD_OFF;
	if (!ctx || !*ctx || preload_is_group_server())
		return;
	depth++;
	if (pangaea_init(NULL, NULL) == 0 && pangaea_mode()) {
		state = PRELOAD_ACTIVE;
		on_exit(preload_on_exit, NULL); /* runs before init.c's hook */
	}
	depth--;
}

/* Whether this call goes through Pangaea (then preload_leave after it):
 * not when inside a wrapper already, nor in a task that is not in a run. */
static int preload_enter(void)
{
	if (depth > 0)
		return 0;
	if (state == PRELOAD_UNDECIDED)
		preload_join();
	if (state != PRELOAD_ACTIVE)
		return 0;
	depth++;
	return 1;
}

/* Whether the code at RET (a return address) belongs to PVM's own
 * libraries: libpvm3 asks the mailbox while it enrols a task (the
 * tracer's entry) and in pvm_setopt, pvm_start_pvmd asks pvm_config,
 * libgpvm3 looks up its group server there.  Those calls are PVM's, not
 * the program's, even outside any wrapper of ours. */
static int preload_from_pvm(const void *ret)
{
	Dl_info info;
	const char *base;

	if (!dladdr(ret, &info) || !info.dli_fname)
		return 0;
	base = strrchr(info.dli_fname, '/');
	base = base ? base + 1 : info.dli_fname;
	return strncmp(base, "libpvm3.", 8) == 0 ||
	       strncmp(base, "libgpvm3.", 9) == 0;
}

/* Ends what preload_enter began. */
static void preload_leave(void)
{
	depth--;
}

/* The body of an entry point: WRAPPER ARGS through Pangaea, or REAL ARGS
 * straight to PVM (ROUTE_APP: also when PVM's own libraries called it,
 * for calls they make outside our wrappers, see preload_from_pvm). */
#define ROUTE(wrapper, real, args)                                       \
	int rc;                                                          \
	if (!preload_enter())                                            \
		return real args;                                        \
	rc = wrapper args;                                               \
	preload_leave();                                                 \
	return rc

#define ROUTE_APP(wrapper, real, args)                                   \
	if (depth == 0 && preload_from_pvm(__builtin_return_address(0))) \
		return real args;                                        \
	ROUTE(wrapper, real, args)

int pvm_mytid(void)
{
	if (preload_enter()) /* the first call joins the run */
		preload_leave();
	return pg_real_pvm_mytid();
}

int pvm_exit(void)
{
	int rc;

	if (!preload_enter())
		return pg_real_pvm_exit();
	rc = pangaea_pvm_exit(); /* logs it, leaves the run and PVM */
	state = PRELOAD_OFF;
	preload_leave();
	return rc;
}

int pvm_spawn(char *file, char **argv, int flags, char *where, int ntask,
	      int *tids)
{
	ROUTE(pangaea_pvm_spawn, pg_real_pvm_spawn,
	      (file, argv, flags, where, ntask, tids));
}

int pvm_send(int tid, int tag)
{
	ROUTE(pangaea_pvm_send, pg_real_pvm_send, (tid, tag));
}

int pvm_recv(int tid, int tag)
{
	ROUTE(pangaea_pvm_recv, pg_real_pvm_recv, (tid, tag));
}

int pvm_nrecv(int tid, int tag)
{
	ROUTE(pangaea_pvm_nrecv, pg_real_pvm_nrecv, (tid, tag));
}

int pvm_trecv(int tid, int tag, struct timeval *tmout)
{
	ROUTE(pangaea_pvm_trecv, pg_real_pvm_trecv, (tid, tag, tmout));
}

int pvm_probe(int tid, int tag)
{
	ROUTE(pangaea_pvm_probe, pg_real_pvm_probe, (tid, tag));
}

int pvm_parent(void)
{
	ROUTE(pangaea_pvm_parent, pg_real_pvm_parent, ());
}

int pvm_notify(int what, int msgtag, int cnt, int *tids)
{
	ROUTE(pangaea_pvm_notify, pg_real_pvm_notify,
	      (what, msgtag, cnt, tids));
}

int pvm_kill(int tid)
{
	ROUTE(pangaea_pvm_kill, pg_real_pvm_kill, (tid));
}

int pvm_mcast(int *tids, int ntask, int tag)
{
	ROUTE(pangaea_pvm_mcast, pg_real_pvm_mcast, (tids, ntask, tag));
}

int pvm_psend(int tid, int tag, void *buf, int len, int datatype)
{
	ROUTE(pangaea_pvm_psend, pg_real_pvm_psend,
	      (tid, tag, buf, len, datatype));
}

int pvm_precv(int tid, int tag, void *buf, int len, int datatype, int *rtid,
	      int *rtag, int *rlen)
{
	ROUTE(pangaea_pvm_precv, pg_real_pvm_precv,
	      (tid, tag, buf, len, datatype, rtid, rtag, rlen));
}

int pvm_joingroup(char *group)
{
	ROUTE(pangaea_pvm_joingroup, pg_real_pvm_joingroup, (group));
}

int pvm_lvgroup(char *group)
{
	ROUTE(pangaea_pvm_lvgroup, pg_real_pvm_lvgroup, (group));
}

int pvm_gettid(char *group, int inst)
{
	ROUTE(pangaea_pvm_gettid, pg_real_pvm_gettid, (group, inst));
}

int pvm_getinst(char *group, int tid)
{
	ROUTE(pangaea_pvm_getinst, pg_real_pvm_getinst, (group, tid));
}

int pvm_gsize(char *group)
{
	ROUTE(pangaea_pvm_gsize, pg_real_pvm_gsize, (group));
}

int pvm_barrier(char *group, int count)
{
	ROUTE(pangaea_pvm_barrier, pg_real_pvm_barrier, (group, count));
}

int pvm_bcast(char *group, int tag)
{
	ROUTE(pangaea_pvm_bcast, pg_real_pvm_bcast, (group, tag));
}

int pvm_reduce(void (*func)(int *, void *, void *, int *, int *), void *data,
	       int count, int datatype, int msgtag, char *group, int rootginst)
{
	ROUTE(pangaea_pvm_reduce, pg_real_pvm_reduce,
	      (func, data, count, datatype, msgtag, group, rootginst));
}

int pvm_gather(void *result, void *data, int count, int datatype, int msgtag,
	       char *group, int rootginst)
{
	ROUTE(pangaea_pvm_gather, pg_real_pvm_gather,
	      (result, data, count, datatype, msgtag, group, rootginst));
}

int pvm_scatter(void *result, void *data, int count, int datatype,
		int msgtag, char *group, int rootginst)
{
	ROUTE(pangaea_pvm_scatter, pg_real_pvm_scatter,
	      (result, data, count, datatype, msgtag, group, rootginst));
}

int pvm_pstat(int tid)
{
	ROUTE_APP(pangaea_pvm_pstat, pg_real_pvm_pstat, (tid));
}

int pvm_mstat(char *host)
{
	ROUTE_APP(pangaea_pvm_mstat, pg_real_pvm_mstat, (host));
}

int pvm_tasks(int where, int *ntask, struct pvmtaskinfo **taskp)
{
	ROUTE_APP(pangaea_pvm_tasks, pg_real_pvm_tasks,
		  (where, ntask, taskp));
}

int pvm_config(int *nhost, int *narch, struct pvmhostinfo **hostp)
{
	ROUTE_APP(pangaea_pvm_config, pg_real_pvm_config,
		  (nhost, narch, hostp));
}

int pvm_putinfo(char *name, int bufid, int flags)
{
	ROUTE_APP(pangaea_pvm_putinfo, pg_real_pvm_putinfo,
		  (name, bufid, flags));
}

int pvm_recvinfo(char *name, int index, int flags)
{
	ROUTE_APP(pangaea_pvm_recvinfo, pg_real_pvm_recvinfo,
		  (name, index, flags));
}

int pvm_getmboxinfo(char *pattern, int *nclasses,
		    struct pvmmboxinfo **classes)
{
	ROUTE_APP(pangaea_pvm_getmboxinfo, pg_real_pvm_getmboxinfo,
		  (pattern, nclasses, classes));
}

int pvm_delinfo(char *name, int index, int flags)
{
	ROUTE_APP(pangaea_pvm_delinfo, pg_real_pvm_delinfo,
		  (name, index, flags));
}
