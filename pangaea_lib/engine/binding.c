/*
 * binding.c: the binding the engine calls (binding.h).  Until a binding
 * registers, at its task's join, the engine has "none": every receive
 * fails, no control message goes anywhere, nothing is stamped.  Unit
 * tests run the engine so, without a message layer.
 */
#include "engine.h"

/* none: a receive or question that cannot be made. */
static int none_recv(int kind, int src, int tag, struct timeval *tmout)
{
	(void)kind, (void)src, (void)tag, (void)tmout;
	return -1;
}

/* none: no message to tell of. */
static int none_info(int msg, struct pg_msginfo *mi)
{
	(void)msg, (void)mi;
	return -1;
}

/* none: no current message. */
static int none_make_current(int msg)
{
	(void)msg;
	return 0;
}

/* none: nothing to free, stamp or leave. */
static void none_msg(int msg)
{
	(void)msg;
}

/* none: no senders. */
static int none_senders(int tag, int *srcs, int max)
{
	(void)tag, (void)srcs, (void)max;
	return -1;
}

/* none: no task is known. */
static int none_id(int id)
{
	(void)id;
	return -1;
}

/* none: a control message cannot be sent. */
static int none_send_ints(int to, int tag, const int *v)
{
	(void)to, (void)tag, (void)v;
	return -1;
}

/* none: no control message comes. */
static int none_recv_ints(int from, int tag, int seconds, int *v)
{
	(void)from, (void)tag, (void)seconds, (void)v;
	return -1;
}

/* none: no one to ask. */
static int none_ask(int to, int tag, const int *v, int reply, int *answer)
{
	(void)to, (void)tag, (void)v, (void)reply, (void)answer;
	return -1;
}

/* none: no launcher to tell. */
static int none_send_diverged(int to, int ltid, const char *report)
{
	(void)to, (void)ltid, (void)report;
	return -1;
}

/* none: no coordinator to tell. */
static int none_send_events(int to, const struct pg_live_head *h,
			    const int *ints, int n)
{
	(void)to, (void)h, (void)ints, (void)n;
	return -1;
}

/* none: no layer to leave. */
static void none_leave(void)
{
}

/* none: no scratch message. */
static int none_scratch(void)
{
	return 0;
}

static const struct pg_binding none = {
	.name = "none",
	.names = &pg_names_pvm,
	.err_sys = -1,
	.err_nomem = -1,
	.recv = none_recv,
	.info = none_info,
	.make_current = none_make_current,
	.release = none_msg,
	.senders = none_senders,
	.ltid_of = none_id,
	.addr_of = none_id,
	.send_ints = none_send_ints,
	.recv_ints = none_recv_ints,
	.ask = none_ask,
	.send_diverged = none_send_diverged,
	.send_events = none_send_events,
	.leave = none_leave,
	.scratch = none_scratch,
	.stamp = none_msg,
};

const struct pg_binding *pg_bind = &none;

void pg_binding_set(const struct pg_binding *b)
{
	pg_bind = b ? b : &none;
}
