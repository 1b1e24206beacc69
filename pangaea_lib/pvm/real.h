/*
 * real.h: the real PVM functions, for libpangaea.so only.
 *
 * The shared library (LD_PRELOAD) defines the PVM entry points Pangaea
 * wraps (preload.c), so a plain call of pvm_send inside the library would
 * come back to Pangaea.  Every source of libpangaea.so is compiled with
 * `-include pangaea_lib/pvm/real.h`: the names below then stand for
 * pg_real_pvm_*, which call the next definition (libpvm3, libgpvm3) found
 * with dlsym(RTLD_NEXT) (real.c).  The wrappers' source stays as it is and
 * the static library libpangaea.a is built without this file.
 *
 * preload.c defines PG_REAL_KEEP_NAMES: it defines the entry points under
 * their own names and calls the real ones as pg_real_pvm_*.
 *
 * Keep this list and preload.c's entry points the same: every call that
 * pangaea.h routes (#define pvm_x pangaea_pvm_x), plus pvm_mytid (a task
 * joins at its first PVM call).
 */
#ifndef PG_REAL_H
#define PG_REAL_H

#define PG_PRELOAD 1 /* this object belongs to libpangaea.so */

#include <sys/time.h>

int pg_real_pvm_mytid(void);
int pg_real_pvm_exit(void);
int pg_real_pvm_spawn(char *file, char **argv, int flags, char *where,
		      int ntask, int *tids);
int pg_real_pvm_send(int tid, int tag);
int pg_real_pvm_recv(int tid, int tag);
int pg_real_pvm_nrecv(int tid, int tag);
int pg_real_pvm_trecv(int tid, int tag, struct timeval *tmout);
int pg_real_pvm_probe(int tid, int tag);
int pg_real_pvm_parent(void);
int pg_real_pvm_notify(int what, int msgtag, int cnt, int *tids);
int pg_real_pvm_kill(int tid);
int pg_real_pvm_mcast(int *tids, int ntask, int tag);
int pg_real_pvm_psend(int tid, int tag, void *buf, int len, int datatype);
int pg_real_pvm_precv(int tid, int tag, void *buf, int len, int datatype,
		      int *rtid, int *rtag, int *rlen);
int pg_real_pvm_joingroup(char *group);
int pg_real_pvm_lvgroup(char *group);
int pg_real_pvm_gettid(char *group, int inst);
int pg_real_pvm_getinst(char *group, int tid);
int pg_real_pvm_gsize(char *group);
int pg_real_pvm_barrier(char *group, int count);
int pg_real_pvm_bcast(char *group, int tag);
int pg_real_pvm_reduce(void (*func)(int *, void *, void *, int *, int *),
		       void *data, int count, int datatype, int msgtag,
		       char *group, int rootginst);
int pg_real_pvm_gather(void *result, void *data, int count, int datatype,
		       int msgtag, char *group, int rootginst);
int pg_real_pvm_scatter(void *result, void *data, int count, int datatype,
			int msgtag, char *group, int rootginst);
/* (struct pvmtaskinfo and the like: pvm3.h is included after this file) */
struct pvmtaskinfo;
struct pvmhostinfo;
struct pvmmboxinfo;
int pg_real_pvm_pstat(int tid);
int pg_real_pvm_mstat(char *host);
int pg_real_pvm_tasks(int where, int *ntask,
		      struct pvmtaskinfo **taskp);
int pg_real_pvm_config(int *nhost, int *narch,
		       struct pvmhostinfo **hostp);
int pg_real_pvm_putinfo(char *name, int bufid, int flags);
int pg_real_pvm_recvinfo(char *name, int index, int flags);
int pg_real_pvm_getmboxinfo(char *pattern, int *nclasses,
			    struct pvmmboxinfo **classes);
int pg_real_pvm_delinfo(char *name, int index, int flags);

#ifndef PG_REAL_KEEP_NAMES
#define pvm_mytid pg_real_pvm_mytid
#define pvm_exit pg_real_pvm_exit
#define pvm_spawn pg_real_pvm_spawn
#define pvm_send pg_real_pvm_send
#define pvm_recv pg_real_pvm_recv
#define pvm_nrecv pg_real_pvm_nrecv
#define pvm_trecv pg_real_pvm_trecv
#define pvm_probe pg_real_pvm_probe
#define pvm_parent pg_real_pvm_parent
#define pvm_notify pg_real_pvm_notify
#define pvm_kill pg_real_pvm_kill
#define pvm_mcast pg_real_pvm_mcast
#define pvm_psend pg_real_pvm_psend
#define pvm_precv pg_real_pvm_precv
#define pvm_joingroup pg_real_pvm_joingroup
#define pvm_lvgroup pg_real_pvm_lvgroup
#define pvm_gettid pg_real_pvm_gettid
#define pvm_getinst pg_real_pvm_getinst
#define pvm_gsize pg_real_pvm_gsize
#define pvm_barrier pg_real_pvm_barrier
#define pvm_bcast pg_real_pvm_bcast
#define pvm_reduce pg_real_pvm_reduce
#define pvm_gather pg_real_pvm_gather
#define pvm_scatter pg_real_pvm_scatter
#define pvm_pstat pg_real_pvm_pstat
#define pvm_mstat pg_real_pvm_mstat
#define pvm_tasks pg_real_pvm_tasks
#define pvm_config pg_real_pvm_config
#define pvm_putinfo pg_real_pvm_putinfo
#define pvm_recvinfo pg_real_pvm_recvinfo
#define pvm_getmboxinfo pg_real_pvm_getmboxinfo
#define pvm_delinfo pg_real_pvm_delinfo
#endif

#endif /* PG_REAL_H */
