/*
 * binding.c: PVM's side of the engine's binding interface (binding.h):
 * the table of functions through which the engine reaches PVM, made of
 * PVM's own calls and of this folder's tids (ids.c), protocol (proto.c)
 * and receive helper (pvm.c).  A message handle is a PVM bufid, an
 * address a tid.  init.c and task0.c register it when a task joins.
 */
#include "pangaea-internal.h"

typedef int (*bind_matcher)(int, int, int);

/* What one scan of the queue finds (senders()). */
static struct {
	int tag, ctx, n, max;
	int *srcs;
} scan_st;

/* pvm_recvf with its answer as a matcher (pvm3.h declares the return
 * type loosely: the cast goes through a generic function pointer). */
static bind_matcher set_matcher(bind_matcher m)
{
	return (bind_matcher)(void (*)(void))pvm_recvf(m);
}

/* pvm_setrbuf: BUFID the active receive buffer; the one before. */
static int bind_make_current(int bufid)
{
	return pvm_setrbuf(bufid);
}

/* pvm_freebuf of BUFID. */
static void bind_release(int bufid)
{
	pvm_freebuf(bufid);
}

/* The matcher of a scan: notes the sender of each message the filter
 * accepts (once) and picks none. */
static int scan_match(int mid, int tid, int tag)
{
	struct pvmminfo mi;
	int i;

	(void)tid;
	(void)tag;
	if (pvm_getminfo(mid, &mi) < 0 || mi.ctx != scan_st.ctx ||
	    (scan_st.tag != -1 && mi.tag != scan_st.tag))
		return 0;
	for (i = 0; i < scan_st.n && scan_st.srcs[i] != mi.src; i++)
		;
	if (i == scan_st.n && i < scan_st.max)
		scan_st.srcs[scan_st.n++] = mi.src;
	return 0;
}

/* Scans PVM's queue (pvm_probe takes in what has arrived) with a matcher
 * that notes senders and picks nothing; none when the program has set a
 * matcher of its own. */
static int bind_senders(int tag, int *srcs, int max)
{
	/* (pvm_recvf(NULL) puts PVM's own matcher in place: the next
	   pvm_recvf hands it back) */
	bind_matcher old = set_matcher(NULL), own = set_matcher(scan_match);
	int rc;

	if (old != own) {
		set_matcher(old);
		return PG_SENDERS_OWN;
	}
	scan_st.tag = tag;
	scan_st.ctx = pvm_getcontext();
	scan_st.n = 0;
	scan_st.srcs = srcs;
	scan_st.max = max;
	rc = pvm_probe(-1, -1);
	set_matcher(old);
	return rc < 0 ? rc : scan_st.n;
}

/* pvm_exit, its answer not wanted. */
static void bind_leave(void)
{
	pvm_exit();
}

/* A new empty buffer to stamp, if this task is in PVM. */
static int bind_scratch(void)
{
	return pg_me->mytid > 0 ? pvm_mkbuf(PvmDataDefault) : -1;
}

/* What a send's id costs: the send buffer looked up, its header read
 * and its id written (wrap.c). */
static void bind_stamp(int bufid)
{
	struct pvmminfo mi;
	uint32_t len;

	(void)pg_mhead_sbuf(&len);
	if (pg_mhead_info(bufid, &mi) == 0)
		pg_mhead_set_id(bufid, (uint32_t)mi.wid);
}

static const struct pg_binding pvm_binding = {
	.name = "pvm",
	.names = &pg_names_pvm,
	.err_sys = PvmSysErr,
	.err_nomem = PvmNoMem,
	.recv = pg_pvm_recv,
	.info = pg_mhead_msginfo,
	.make_current = bind_make_current,
	.release = bind_release,
	.senders = bind_senders,
	.ltid_of = pg_ltid_of,
	.addr_of = pg_tid_of,
	.send_ints = pg_proto_send,
	.recv_ints = pg_proto_recv,
	.ask = pg_proto_ask,
	.send_diverged = pg_proto_send_diverged,
	.send_events = pg_proto_send_events,
	.leave = bind_leave,
	.scratch = bind_scratch,
	.stamp = bind_stamp,
};

void pg_pvm_bind(void)
{
	pg_binding_set(&pvm_binding);
}
