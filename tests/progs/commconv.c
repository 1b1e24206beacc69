/*
 * commconv.c: rewrites communication logs in place in another version of
 * the format (3 to PG_COMM_VERSION), through the library's own reader and
 * writer, for tests of how older logs are read and of byte-level edits
 * in a known layout.  The clock samples and the calibration come first
 * (they are no events; a version 3 or 4 log drops them), then the events.
 *
 * Usage: commconv VERSION LOG...   Exit 0, or 1 with a message.
 */
#include "pangaea-logs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads LOG whole into R and *EV (N events; each mcast's destinations
 * copied); 0, or -1 with a message. */
static int conv_read(const char *log, struct pg_comm_reader *r,
		     struct pg_event **ev, size_t *n)
{
	char err[512];
	size_t cap = 0;
	struct pg_event e;
	int rc;

	*ev = NULL;
	*n = 0;
	if (pg_comm_open(r, log, err, sizeof(err)) < 0) {
		fprintf(stderr, "commconv: %s\n", err);
		return -1;
	}
	while ((rc = pg_comm_next(r, &e, err, sizeof(err))) > 0) {
		struct pg_event *g = pg_grow(*ev, &cap, *n + 1, sizeof(e), 64);

		if (g)
			*ev = g;
		if (!g || (e.ndest > 0 && !(e.dests = malloc(
				 (size_t)e.ndest * sizeof(int))))) {
			fprintf(stderr, "commconv: out of memory\n");
			return -1;
		}
		if (e.ndest > 0)
			memcpy(e.dests, r->dests, (size_t)e.ndest * sizeof(int));
		g[(*n)++] = e;
	}
	if (rc < 0) {
		fprintf(stderr, "commconv: %s\n", err);
		return -1;
	}
	return 0;
}

/* Rewrites LOG as version V; 0 or -1. */
static int conv(const char *log, uint32_t v)
{
	struct pg_comm_reader r;
	struct pg_comm_writer w;
	struct pg_comm_header h;
	struct pg_event *ev;
	size_t n;
	char err[512];
	int rc = -1;

	if (conv_read(log, &r, &ev, &n) < 0)
		goto out;
	h = r.hdr;
	h.version = v;
	if (unlink(log) < 0 || pg_comm_create(&w, log, &h, err,
					      sizeof(err)) < 0) {
		fprintf(stderr, "commconv: %s: cannot rewrite\n", log);
		goto out;
	}
	rc = 0;
	if (v >= 5 && r.calib_ns)
		rc |= pg_comm_append_calib(&w, r.calib_ns);
	for (int i = 0; v >= 5 && i < r.nclock; i++)
		rc |= pg_comm_append_clock(&w, &r.clock[i]);
	for (size_t i = 0; i < n; i++)
		rc |= pg_comm_append(&w, &ev[i]);
	rc |= pg_comm_close(&w);
	if (rc)
		fprintf(stderr, "commconv: %s: a write failed\n", log);
out:
	for (size_t i = 0; ev && i < n; i++)
		if (ev[i].ndest > 0)
			free(ev[i].dests);
	free(ev);
	pg_comm_free(&r);
	return rc ? -1 : 0;
}

int main(int argc, char **argv)
{
	int v = argc > 1 ? atoi(argv[1]) : 0, bad = 0;

	if (argc < 3 || v < 3 || v > PG_COMM_VERSION) {
		fprintf(stderr, "usage: commconv VERSION(3-%d) LOG...\n",
			PG_COMM_VERSION);
		return 1;
	}
	for (int i = 2; i < argc; i++)
		bad |= conv(argv[i], (uint32_t)v) < 0;
	return bad;
}
