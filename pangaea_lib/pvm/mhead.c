/*
 * mhead.c: a message's header in libpvm (its length, tag, sender and the
 * wait-id field that carries Pangaea's message id), read and written in
 * place instead of through pvm_getsbuf, pvm_getminfo and pvm_setminfo.
 *
 * Those three calls were a third of what a recorded pvm_send added
 * (about 240 instructions: each call's tracing checks, midtobuf, the whole
 * header copied out and back; docs/BENCHMARKS.md, issue 28).  libpvm
 * exports what they use: the active send and receive buffers (pvmsbuf,
 * pvmrbuf), the lookup of a buffer by id (midtobuf) and the length's update of a buffer being
 * packed (pmsg_setlen); the header is the head of its struct pmsg (PVM
 * 3.4 src/pmsg.h), mirrored below.  Trusted only once it has agreed with
 * the public calls: the first read is made both ways and compared field
 * by field, the first write read back with pvm_getminfo; on any
 * difference (another libpvm, a program linking its own copy of libpvm
 * beside the preloaded one) this task keeps the public calls for good.
 */
#include "pangaea-internal.h"

/* The head of libpvm 3.4's struct pmsg (src/pmsg.h), through m_crc. */
struct pg_pmsg {
	void *m_link, *m_rlink, *m_codef, *m_frag, *m_cfrag;
	int m_ref, m_mid, m_len, m_ctx, m_tag, m_wid, m_src, m_dst, m_enc,
	    m_flag, m_cpos, m_crc;
};

#define PG_MM_PACK 1 /* m_flag: being packed, m_len not yet summed */

/* libpvm's own, not in pvm3.h: the active buffers, the queue of
 * messages received and not yet taken (a circular list through m_link
 * with an empty head), the task's context */
extern struct pg_pmsg *pvmsbuf, *pvmrbuf, *pvmrxlist;
extern int pvmmyctx;
struct pg_pmsg *midtobuf(int mid);
int pmsg_setlen(struct pg_pmsg *mp);

/* Whether the header is read in place: 0 not yet tried, 1 it agreed
 * with pvm_getminfo, -1 it did not (the public calls then). */
static int read_ok, write_ok;

/* MP's header into MI, as pvm_getminfo gives it. */
static void mhead_copy(struct pg_pmsg *mp, struct pvmminfo *mi)
{
	if (mp->m_flag & PG_MM_PACK)
		pmsg_setlen(mp);
	mi->len = mp->m_len;
	mi->ctx = mp->m_ctx;
	mi->tag = mp->m_tag;
	mi->wid = mp->m_wid;
	mi->enc = mp->m_enc;
	mi->crc = mp->m_crc;
	mi->src = mp->m_src;
	mi->dst = mp->m_dst;
}

/* Whether the in-place reading of BUFID gives what pvm_getminfo gave
 * (MI); 1 or 0. */
static int mhead_agrees(int bufid, const struct pvmminfo *mi)
{
	struct pg_pmsg *mp = midtobuf(bufid);
	struct pvmminfo m;

	if (!mp || mp->m_mid != bufid)
		return 0;
	mhead_copy(mp, &m);
	return m.len == mi->len && m.ctx == mi->ctx && m.tag == mi->tag &&
	       m.wid == mi->wid && m.enc == mi->enc && m.crc == mi->crc &&
	       m.src == mi->src && m.dst == mi->dst;
}

/* pg_mhead_sbuf through the public calls (the header not yet trusted);
 * out of line, so that the common case needs no frame for its struct
 * pvmminfo. */
static __attribute__((noinline)) int sbuf_public(uint32_t *len)
{
	struct pvmminfo mi;
	int b;

	if ((b = pvm_getsbuf()) > 0 && pg_mhead_info(b, &mi) == 0)
		*len = (uint32_t)mi.len;
	return b;
}

int pg_mhead_sbuf(uint32_t *len)
{
	struct pg_pmsg *mp = pvmsbuf;

	if (read_ok <= 0)
		return sbuf_public(len);
	if (!mp)
		return 0;
	if (mp->m_flag & PG_MM_PACK)
		pmsg_setlen(mp);
	*len = (uint32_t)mp->m_len;
	return mp->m_mid;
}

int pg_mhead_info(int bufid, struct pvmminfo *mi)
{
	struct pg_pmsg *mp;
	int rc;

	/* (a message just received is the active receive buffer) */
	mp = pvmrbuf && pvmrbuf->m_mid == bufid ? pvmrbuf : NULL;
	if (read_ok > 0 && bufid > 0 && (mp || (mp = midtobuf(bufid)))) {
		mhead_copy(mp, mi);
		return 0;
	}
	rc = pvm_getminfo(bufid, mi);
	if (rc == 0 && read_ok == 0) {
		read_ok = mhead_agrees(bufid, mi) &&
				  (pvmsbuf ? pvmsbuf->m_mid : 0) == pvm_getsbuf()
			  ? 1 : -1;
	}
	return rc;
}

/* pg_mhead_set_id past its common case (the active send buffer, the
 * write trusted: done there): another buffer, or the write not yet
 * trusted; out of line, as sbuf_public. */
static __attribute__((noinline)) void set_id_any(int bufid, uint32_t id)
{
	struct pvmminfo mi;
	struct pg_pmsg *mp;

	if (write_ok > 0 && (mp = midtobuf(bufid))) {
		mp->m_wid = (int)id;
		return;
	}
	if (pvm_getminfo(bufid, &mi) < 0)
		return;
	mi.wid = (int)id;
	pvm_setminfo(bufid, &mi);
	if (write_ok == 0 && read_ok > 0) {
		/* written in place (a value of its own), then read back */
		mp = midtobuf(bufid);
		if (mp)
			mp->m_wid = (int)(id ^ 0x5a5a5a5au);
		write_ok = mp && pvm_getminfo(bufid, &mi) == 0 &&
				   mi.wid == (int)(id ^ 0x5a5a5a5au)
			   ? 1 : -1;
		mi.wid = (int)id;
		pvm_setminfo(bufid, &mi);
	}
}

void pg_mhead_set_id(int bufid, uint32_t id)
{
	struct pg_pmsg *mp = pvmsbuf;

	/* (the common case: the active send buffer, the write trusted) */
	if (write_ok > 0 && mp && mp->m_mid == bufid) {
		mp->m_wid = (int)id;
		return;
	}
	set_id_any(bufid, id);
}

int pg_mhead_arrived(int tid, int tag, uint32_t id)
{
	struct pg_pmsg *head = pvmrxlist, *up;

	if (read_ok <= 0 || !head)
		return 0;
	/* (libpvm's own matcher, def_match in lpvmgen.c) */
	for (up = head->m_link; up != head; up = up->m_link)
		if ((tid == -1 || tid == up->m_src) &&
		    (tag == -1 || tag == up->m_tag) &&
		    (pvmmyctx == -1 || pvmmyctx == up->m_ctx) &&
		    (!id || (uint32_t)up->m_wid == id))
			return 1;
	return 0;
}

/* pg_mhead_msginfo's sender, tag, length and wait-id of BUFID through
 * pg_mhead_info (not the active receive buffer, or not yet trusted);
 * 0, or PVM's error. */
static int mhead_recvd_slow(int bufid, struct pg_msginfo *m, int *wid)
{
	struct pvmminfo mi;

	if (pg_mhead_info(bufid, &mi) < 0)
		return -1;
	m->src = mi.src;
	m->tag = mi.tag;
	m->len = (uint32_t)mi.len;
	*wid = mi.wid;
	return 0;
}

int pg_mhead_msginfo(int bufid, struct pg_msginfo *m)
{
	struct pg_pmsg *mp = pvmrbuf;
	int wid;

	if (read_ok > 0 && mp && mp->m_mid == bufid &&
	    !(mp->m_flag & PG_MM_PACK)) {
		m->src = mp->m_src;
		m->tag = mp->m_tag;
		m->len = (uint32_t)mp->m_len;
		wid = mp->m_wid;
	} else if (mhead_recvd_slow(bufid, m, &wid) < 0) {
		return -1;
	}
	m->peer = pg_peer_of(m->src, wid);
	m->msgid = m->peer == PG_PEER_SYSTEM ? pg_system_ident(bufid)
					     : (uint32_t)wid;
	return 0;
}
