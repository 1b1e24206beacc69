/*
 * ship.c: task logs sent between hosts in PVM messages, in Pangaea's
 * context (the beacons of coordinator/beacon.c and the launcher,
 * toplevel/hosts.c).  The sender cuts each file into LOGFILE pieces of at
 * most PG_LOGPIECE_MAX bytes and ends with a piece named ""; the receiver
 * puts them back with logs/format/logship.c.
 */
#include "pangaea-internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pg_ship_send(int tid, const char *dir, char *const *names, int n,
		 char *err, size_t errlen)
{
	struct pg_logpiece p = { .n = 0 };
	unsigned char *buf = malloc(PG_LOGPIECE_MAX);
	int rc = 0;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(p.dir, sizeof(p.dir), "%s", dir);
	for (int i = 0; i < n && rc == 0; i++) {
		snprintf(p.name, sizeof(p.name), "%s", names[i]);
		p.offset = 0;
		do {
			int k = pg_logship_read(dir, names[i], p.offset, buf,
						PG_LOGPIECE_MAX, &p.size, err,
						errlen);

			if (k < 0) {
				rc = -1;
				break;
			}
			p.n = k;
			p.data = buf;
			if (pg_proto_send_logpiece(tid, &p) < 0) {
				snprintf(err, errlen, "cannot send %s/%s", dir,
					 names[i]);
				rc = -1;
				break;
			}
			p.offset += k;
		} while (p.offset < p.size && p.n > 0);
	}
	free(buf);
	/* the end, also after a failure (the receiver is waiting for it) */
	p.name[0] = '\0';
	p.size = p.offset = p.n = 0;
	if (pg_proto_send_logpiece(tid, &p) < 0 && rc == 0) {
		snprintf(err, errlen, "cannot send to t%x", tid);
		rc = -1;
	}
	return rc;
}

int pg_ship_take(struct pg_logship_writer *w, const char *dir, int *end,
		 char *err, size_t errlen)
{
	static unsigned char *buf;
	struct pg_logpiece p;

	*end = 0;
	if (!buf && !(buf = malloc(PG_LOGPIECE_MAX))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (pg_proto_upk_logpiece(&p, buf) < 0) {
		snprintf(err, errlen, "a log piece message that cannot be read");
		errno = EINVAL;
		return -1;
	}
	if (!p.name[0]) {
		*end = 1;
		pg_logship_close(w);
		return 0;
	}
	return pg_logship_put(w, dir ? dir : p.dir, p.name, p.size, p.offset,
			      p.data, p.n, err, errlen);
}
