/*
 * calib.c: what Pangaea's own work costs this task per logged call,
 * measured once when it opens its log (the monitor-overhead correction of
 * logs/overhead.c, after MAD): PG_CALIB_ROUNDS times what the wrappers
 * and log.c add to a call (two clock reads, the message's header read and
 * written back as a send's id is, the record's encoding), the mean in ns.
 * What it leaves out (the state file, the id lookups, PVM's own extra
 * work for a message with an id) makes it a lower bound.
 */
#include "pangaea-internal.h"

#define PG_CALIB_ROUNDS 256

uint64_t pg_calib_measure(void)
{
	static unsigned char buf[PG_CALIB_ROUNDS * 32];
	struct pg_event ev = { .kind = PG_REC_RECV, .peer = 1001, .tag = 7,
			       .msgid = 123456, .len = 4096 };
	int b = pg_me->mytid > 0 ? pvm_mkbuf(PvmDataDefault) : -1;
	uint64_t start = pg_now(), used = 0;
	struct pvmminfo mi;

	for (int i = 0; i < PG_CALIB_ROUNDS; i++) {
		ev.t = pg_now();
		if (b > 0 && pvm_getminfo(b, &mi) == 0)
			pvm_setminfo(b, &mi);
		ev.dur = pg_now() - ev.t;
		used += pg_comm_encode(buf + (size_t)i * 32, &ev);
	}
	used = pg_now() - start + (used & 1); /* (keeps the encoding) */
	if (b > 0)
		pvm_freebuf(b);
	return used / PG_CALIB_ROUNDS;
}
