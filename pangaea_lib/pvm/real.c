/*
 * real.c: the real PVM functions for libpangaea.so (real.h): each looks
 * up the next definition of its name (libpvm3.so.3, libgpvm3.so.3, which
 * libpangaea.so needs) once, then calls it.  Only in the shared library.
 */
#include "pangaea-internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* The next definition of NAME after libpangaea.so; one that cannot be
 * found (a PVM without it) is said and the process aborted, as the
 * dynamic linker does for a missing symbol. */
static void *real_lookup(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "pangaea: libpangaea.so: no %s after it: %s\n",
			name, dlerror());
		abort();
	}
	return f;
}

/* Declares REAL, the real function of NAME, with the type of FN; looked
 * up at the first call (two threads racing both look it up: harmless). */
#define REAL(fn, name)                                                   \
	static __typeof__(fn) *real;                                     \
	if (!real)                                                       \
		real = (__typeof__(fn) *)real_lookup(name)

int pg_real_pvm_mytid(void)
{
	REAL(pg_real_pvm_mytid, "pvm_mytid");
	return real();
}

int pg_real_pvm_exit(void)
{
	REAL(pg_real_pvm_exit, "pvm_exit");
	return real();
}

int pg_real_pvm_spawn(char *file, char **argv, int flags, char *where,
		      int ntask, int *tids)
{
	REAL(pg_real_pvm_spawn, "pvm_spawn");
	return real(file, argv, flags, where, ntask, tids);
}

int pg_real_pvm_send(int tid, int tag)
{
	REAL(pg_real_pvm_send, "pvm_send");
	return real(tid, tag);
}

int pg_real_pvm_recv(int tid, int tag)
{
	REAL(pg_real_pvm_recv, "pvm_recv");
	return real(tid, tag);
}

int pg_real_pvm_nrecv(int tid, int tag)
{
	REAL(pg_real_pvm_nrecv, "pvm_nrecv");
	return real(tid, tag);
}

int pg_real_pvm_trecv(int tid, int tag, struct timeval *tmout)
{
	REAL(pg_real_pvm_trecv, "pvm_trecv");
	return real(tid, tag, tmout);
}

int pg_real_pvm_probe(int tid, int tag)
{
	REAL(pg_real_pvm_probe, "pvm_probe");
	return real(tid, tag);
}

int pg_real_pvm_parent(void)
{
	REAL(pg_real_pvm_parent, "pvm_parent");
	return real();
}

int pg_real_pvm_notify(int what, int msgtag, int cnt, int *tids)
{
	REAL(pg_real_pvm_notify, "pvm_notify");
	return real(what, msgtag, cnt, tids);
}

int pg_real_pvm_kill(int tid)
{
	REAL(pg_real_pvm_kill, "pvm_kill");
	return real(tid);
}

int pg_real_pvm_mcast(int *tids, int ntask, int tag)
{
	REAL(pg_real_pvm_mcast, "pvm_mcast");
	return real(tids, ntask, tag);
}

int pg_real_pvm_psend(int tid, int tag, void *buf, int len, int datatype)
{
	REAL(pg_real_pvm_psend, "pvm_psend");
	return real(tid, tag, buf, len, datatype);
}

int pg_real_pvm_precv(int tid, int tag, void *buf, int len, int datatype,
		      int *rtid, int *rtag, int *rlen)
{
	REAL(pg_real_pvm_precv, "pvm_precv");
	return real(tid, tag, buf, len, datatype, rtid, rtag, rlen);
}

int pg_real_pvm_joingroup(char *group)
{
	REAL(pg_real_pvm_joingroup, "pvm_joingroup");
	return real(group);
}

int pg_real_pvm_lvgroup(char *group)
{
	REAL(pg_real_pvm_lvgroup, "pvm_lvgroup");
	return real(group);
}

int pg_real_pvm_gettid(char *group, int inst)
{
	REAL(pg_real_pvm_gettid, "pvm_gettid");
	return real(group, inst);
}

int pg_real_pvm_getinst(char *group, int tid)
{
	REAL(pg_real_pvm_getinst, "pvm_getinst");
	return real(group, tid);
}

int pg_real_pvm_gsize(char *group)
{
	REAL(pg_real_pvm_gsize, "pvm_gsize");
	return real(group);
}

int pg_real_pvm_barrier(char *group, int count)
{
	REAL(pg_real_pvm_barrier, "pvm_barrier");
	return real(group, count);
}

int pg_real_pvm_bcast(char *group, int tag)
{
	REAL(pg_real_pvm_bcast, "pvm_bcast");
	return real(group, tag);
}

int pg_real_pvm_reduce(void (*func)(int *, void *, void *, int *, int *),
		       void *data, int count, int datatype, int msgtag,
		       char *group, int rootginst)
{
	REAL(pg_real_pvm_reduce, "pvm_reduce");
	return real(func, data, count, datatype, msgtag, group, rootginst);
}

int pg_real_pvm_gather(void *result, void *data, int count, int datatype,
		       int msgtag, char *group, int rootginst)
{
	REAL(pg_real_pvm_gather, "pvm_gather");
	return real(result, data, count, datatype, msgtag, group, rootginst);
}

int pg_real_pvm_scatter(void *result, void *data, int count, int datatype,
			int msgtag, char *group, int rootginst)
{
	REAL(pg_real_pvm_scatter, "pvm_scatter");
	return real(result, data, count, datatype, msgtag, group, rootginst);
}

int pg_real_pvm_pstat(int tid)
{
	REAL(pg_real_pvm_pstat, "pvm_pstat");
	return real(tid);
}

int pg_real_pvm_mstat(char *host)
{
	REAL(pg_real_pvm_mstat, "pvm_mstat");
	return real(host);
}

int pg_real_pvm_tasks(int where, int *ntask,
		      struct pvmtaskinfo **taskp)
{
	REAL(pg_real_pvm_tasks, "pvm_tasks");
	return real(where, ntask, taskp);
}

int pg_real_pvm_config(int *nhost, int *narch,
		       struct pvmhostinfo **hostp)
{
	REAL(pg_real_pvm_config, "pvm_config");
	return real(nhost, narch, hostp);
}

int pg_real_pvm_putinfo(char *name, int bufid, int flags)
{
	REAL(pg_real_pvm_putinfo, "pvm_putinfo");
	return real(name, bufid, flags);
}

int pg_real_pvm_recvinfo(char *name, int index, int flags)
{
	REAL(pg_real_pvm_recvinfo, "pvm_recvinfo");
	return real(name, index, flags);
}

int pg_real_pvm_getmboxinfo(char *pattern, int *nclasses,
			    struct pvmmboxinfo **classes)
{
	REAL(pg_real_pvm_getmboxinfo, "pvm_getmboxinfo");
	return real(pattern, nclasses, classes);
}

int pg_real_pvm_delinfo(char *name, int index, int flags)
{
	REAL(pg_real_pvm_delinfo, "pvm_delinfo");
	return real(name, index, flags);
}
