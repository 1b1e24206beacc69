/*
 * mkcomm.c: writes the seeds tests/fuzz/corpus/comm/seed-every-kind
 * (version 8: a clock read or seed of every source too, before and after
 * the end record), seed-every-kind-v7 (times in units of 256 ns) and
 * seed-every-kind-v6 (the layout before), each a
 * communication log of task 1 written by the library's own writer
 * (pg_comm_create, pg_comm_append) with one record of every kind (the
 * calibration and a clock sample first), at the
 * edges of what is legal: group names of PG_GROUP_MAX - 1 bytes, an mcast
 * to 64 tasks, negative peers and tags, a large poll count, a call record
 * with 4096 bytes of data.  The recorded
 * runs of the corpus hold none of these, and one byte more in such a
 * record is what a reader must refuse.
 *
 *     make build/fuzz/mkcomm && build/fuzz/mkcomm tests/fuzz/corpus/comm
 */
#include "pangaea-logs.h"

#include <stdio.h>
#include <string.h>

/* Appends a clock read of every source and a seed of every source to W,
 * values growing with SIGN (a failed clock_gettime and getrusage
 * among them, getrandom's 16 bytes). */
static void append_values(struct pg_comm_writer *w, int sign)
{
	static const unsigned char bytes[16] = { 0, 1, 0x7f, 0x80, 0xff };

	for (int src = 0; src <= PG_TIME_LAST; src++) {
		struct pg_value v = { .kind = PG_REC_TIME, .src = src,
				      .arg = src == PG_TIME_CLOCKID ? -6 : 0 };

		for (int i = 0; i < PG_VALUES_MAX; i++)
			v.v[i] = sign * (1795796672377277ll >> i);
		pg_comm_append_value(w, &v);
		v.status = 22; /* EINVAL: no values (clockid, rusage) */
		if (src == PG_TIME_CLOCKID || src == PG_TIME_RUSAGE)
			pg_comm_append_value(w, &v);
	}
	for (int src = 0; src <= PG_SEED_LAST; src++) {
		struct pg_value v = { .kind = PG_REC_SEED, .src = src,
				      .v = { 4294967295ll, 65535, 1 },
				      .nblob = sizeof(bytes), .blob = bytes };

		pg_comm_append_value(w, &v);
	}
}

/* Writes DIR/NAME, the seed in VERSION's layout; 0, or 1 with a message. */
static int write_seed(const char *dir, const char *name, uint32_t version)
{
	struct pg_comm_header h = { .version = version, .ltid = 1,
				    .tid = 0x40002, .parent_ltid = 0,
				    .mode = 1,
				    .start_wall_ns = 1700000000000000000ull,
				    .start_mono_ns = 123456789000ull,
				    .time_unit = PG_COMM_TIME_UNIT };
	struct pg_comm_writer w;
	struct pg_event ev;
	char path[PG_PATH_MAX], err[PG_PATH_MAX + 256];
	int dests[64];
	static unsigned char data[4096];
	uint64_t t = 1000;

	snprintf(h.host, sizeof(h.host), "vm");
	snprintf(h.program, sizeof(h.program), "/usr/bin/every-kind");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pg_comm_create(&w, path, &h, err, sizeof(err)) < 0) {
		fprintf(stderr, "mkcomm: %s\n", err);
		return 1;
	}
	/* the two records that are no events (version 5): a calibration
	 * and a clock sample with a negative offset */
	if (pg_comm_append_calib(&w, 250) < 0 ||
	    pg_comm_append_clock(&w, &(struct pg_clock_sample){
			.t = 500, .offset = -2000000123ll, .rtt = 90000 }) < 0) {
		fprintf(stderr, "mkcomm: cannot append to %s\n", path);
		return 1;
	}
	for (int i = 0; i < 64; i++)
		dests[i] = 1001 + i;
	for (int k = 1; k <= PG_REC_LAST; k++) {
		if (k == PG_REC_END)
			continue; /* last */
		memset(&ev, 0, sizeof(ev));
		ev.kind = k;
		ev.peer = k == PG_REC_RECV ? PG_PEER_FOREIGN : 1001;
		ev.tag = k == PG_REC_PROBE ? -1 : 7;
		ev.msgid = (uint32_t)k;
		ev.len = 4096;
		ev.t = t += 5000;
		ev.dur = 2500;
		ev.count = k == PG_REC_POLLFAIL ? 1000000 : 0;
		/* every receive filter bit (version 6) among the kinds */
		ev.filter = k % 4;
		ev.op = PG_GROUP_BARRIER;
		ev.arg = 3;
		ev.result = 0;
		if (k == PG_REC_MCAST || k == PG_REC_BCAST) {
			ev.ndest = 64;
			ev.dests = dests;
		}
		if (k == PG_REC_CALL) { /* (op 6: pvm_recvinfo) */
			for (size_t i = 0; i < sizeof(data); i++)
				data[i] = (unsigned char)(i * 7);
			ev.arg2 = -1;
			ev.nblob = sizeof(data);
			ev.blob = data;
		}
		memset(ev.group, 'g', PG_GROUP_MAX - 1);
		if (pg_comm_append(&w, &ev) < 0) {
			fprintf(stderr, "mkcomm: cannot append to %s\n", path);
			return 1;
		}
	}
	if (version >= 8)
		append_values(&w, 1);
	memset(&ev, 0, sizeof(ev));
	ev.kind = PG_REC_END;
	ev.how = PG_END_EXIT;
	ev.t = t + 1000;
	pg_comm_append(&w, &ev);
	if (version >= 8)
		append_values(&w, -1);
	pg_comm_close(&w);
	printf("mkcomm: wrote %s\n", path);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mkcomm CORPUS_FOLDER\n");
		return 2;
	}
	return write_seed(argv[1], "seed-every-kind", PG_COMM_VERSION) ||
	       write_seed(argv[1], "seed-every-kind-v7", 7) ||
	       write_seed(argv[1], "seed-every-kind-v6", 6);
}
