/*
 * channel.c: Pangaea's own messages.  They travel in Pangaea's context and
 * in buffers of their own, so the app's context, active send buffer and
 * active receive buffer are exactly as the app left them afterwards.
 */
#include "pangaea-internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/time.h>

void pg_chan_enter(struct pg_chan_saved *s)
{
	s->ctx = pvm_setcontext(pg.ctx);
	s->sbuf = pvm_setsbuf(0);
	s->rbuf = pvm_setrbuf(0);
}

void pg_chan_leave(struct pg_chan_saved *s)
{
	int b = pvm_getrbuf();

	if (b > 0)
		pvm_freebuf(b);
	b = pvm_getsbuf();
	if (b > 0)
		pvm_freebuf(b);
	pvm_setrbuf(s->rbuf);
	pvm_setsbuf(s->sbuf);
	pvm_setcontext(s->ctx);
}

int pg_chan_initsend(void)
{
	int v = PG_PROTOCOL_VERSION;
	int b = pvm_initsend(PvmDataDefault);

	if (b < 0)
		return b;
	pvm_pkint(&v, 1, 1);
	return b;
}

int pg_chan_send(int tid, int tag)
{
	int rc = pvm_send(tid, tag);

	return rc < 0 ? rc : 0;
}

/* Checks the version of the message just received; BUFID or -1. */
static int chan_check(int bufid)
{
	int v = 0;

	if (bufid <= 0)
		return bufid;
	if (pvm_upkint(&v, 1, 1) < 0 || v != PG_PROTOCOL_VERSION)
		return PvmBadVersion;
	return bufid;
}

int pg_chan_recv(int tid, int tag)
{
	return chan_check(pvm_recv(tid, tag));
}

int pg_chan_trecv(int tid, int tag, int seconds)
{
	struct timeval tv = { seconds, 0 };

	return chan_check(pvm_trecv(tid, tag, &tv));
}

int pg_pkstr(const char *s)
{
	return pvm_pkstr((char *)s);
}

int pg_upkstr(char *buf, size_t n)
{
	int len, rc;

	/* pvm_upkstr cannot bound its copy: ask the length first. */
	rc = pvm_bufinfo(pvm_getrbuf(), &len, NULL, NULL);
	if (rc < 0)
		return rc;
	if ((size_t)len < n)
		return pvm_upkstr(buf);
	{
		char tmp[len + 1];

		rc = pvm_upkstr(tmp);
		if (rc >= 0)
			snprintf(buf, n, "%s", tmp);
	}
	return rc;
}
