/*
 * clocksync.c: per host, a correction of its clock to the run's reference
 * clock (the coordinator's CLOCK_REALTIME), fitted to the clock samples
 * its tasks logged (pangaea_lib/engine/clocksample.c, docs/FORMATS.md).
 *
 * A host's local time is the importer's time of an event (docs/TRACEDB.md
 * "Times": start_mono_ns + t + the host's wall-clock offset).  A sample
 * says: at local time L the reference was L + OFFSET, give or take half
 * its round trip.  Samples of
 * one host closer than PG_CLOCK_CLUSTER_NS (its tasks start together)
 * keep the one of the smallest round trip.  Between kept samples the
 * offset is linear; before the first and after the last it goes on with
 * the least-squares drift of them all, so a run sampled at its start and
 * end only gets one offset and one drift.
 */
#include "pangaea-analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The host HOST of CS, added when ADD and missing; NULL if not found or
 * out of memory. */
static struct pg_clock_host *host_find(struct pg_clocksync *cs,
				       const char *host, int add)
{
	struct pg_clock_host *h;

	for (int i = 0; i < cs->nhosts; i++)
		if (strcmp(cs->hosts[i].host, host) == 0)
			return &cs->hosts[i];
	if (!add)
		return NULL;
	if (!(h = pg_grow(cs->hosts, &cs->cap, (size_t)cs->nhosts + 1,
			  sizeof(*h), 4)))
		return NULL;
	cs->hosts = h;
	h = &cs->hosts[cs->nhosts++];
	memset(h, 0, sizeof(*h));
	snprintf(h->host, sizeof(h->host), "%s", host);
	return h;
}

int pg_clocksync_add(struct pg_clocksync *cs, const char *host,
		     uint64_t local, int64_t offset, uint64_t rtt)
{
	struct pg_clock_host *h = host_find(cs, host, 1);
	struct pg_clock_point *p;

	if (!h)
		return -1;
	if (!(p = pg_grow(h->pt, &h->cap, (size_t)h->n + 1, sizeof(*p), 8)))
		return -1;
	h->pt = p;
	h->pt[h->n++] = (struct pg_clock_point){ local, offset, rtt };
	return 0;
}

/* A sample read by pg_clocksync_load, before its host's offset is known. */
struct load_sample {
	char host[PG_HOST_MAX];
	uint64_t mono;   /* start_mono_ns + t */
	int64_t offset;
	uint64_t rtt;
};

/* Reads the clock samples of DIR's comm logs into *OUT (*NOUT of them,
 * malloc'd) and, per host, the wall-clock offset the trace importer
 * gives it (docs/TRACEDB.md "Times": the smallest start_wall_ns -
 * start_mono_ns of its tasks) as the one point of that host in HOSTOFF;
 * 0, or -1 with ERR. */
static int load_logs(const char *dir, struct load_sample **out, int *nout,
		     struct pg_clocksync *hostoff, char *err, size_t errlen)
{
	struct pg_comm_reader r;
	struct pg_event ev;
	struct pg_run run;
	int rc = 0, k;
	size_t cap = 0;

	if (pg_run_open(&run, dir, err, errlen) < 0)
		return -1;
	while (rc == 0 && (rc = pg_run_next(&run, &r, err, errlen)) > 0) {
		struct pg_clock_host *h;
		int64_t diff;

		while ((k = pg_comm_next(&r, &ev, err, errlen)) > 0)
			;
		rc = k < 0 ? -1 : 0;
		diff = (int64_t)(r.hdr.start_wall_ns - r.hdr.start_mono_ns);
		if (!(h = host_find(hostoff, r.hdr.host, 0)))
			rc = pg_clocksync_add(hostoff, r.hdr.host, 0, diff, 0) < 0
				? -1 : rc;
		else if (diff < h->pt[0].offset)
			h->pt[0].offset = diff;
		for (int j = 0; j < r.nclock && rc == 0; j++) {
			struct load_sample *s;

			if (!(s = pg_grow(*out, &cap, (size_t)*nout + 1,
					  sizeof(*s), 64))) {
				rc = -1;
				break;
			}
			*out = s;
			s = &(*out)[(*nout)++];
			snprintf(s->host, sizeof(s->host), "%s", r.hdr.host);
			s->mono = r.hdr.start_mono_ns + r.clock[j].t;
			/* the sample's offset is against start_wall + t */
			s->offset = r.clock[j].offset + diff;
			s->rtt = r.clock[j].rtt;
		}
		if (rc < 0 && !*err)
			snprintf(err, errlen, "out of memory");
		pg_comm_free(&r);
	}
	pg_run_close(&run);
	return rc;
}

int pg_clocksync_load(struct pg_clocksync *cs, const char *dir, char *err,
		      size_t errlen)
{
	struct pg_clocksync hostoff = { 0 };
	struct load_sample *s = NULL;
	int n = 0, rc;

	err[0] = '\0';
	rc = load_logs(dir, &s, &n, &hostoff, err, errlen);
	for (int i = 0; i < n && rc == 0; i++) {
		int64_t off = host_find(&hostoff, s[i].host, 0)->pt[0].offset;

		/* local = start_mono + t + off(host); the reference was
		   start_wall + t + sample offset = local + (offset - off) */
		if (pg_clocksync_add(cs, s[i].host, s[i].mono + (uint64_t)off,
				     s[i].offset - off, s[i].rtt) < 0) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		} else {
			host_find(cs, s[i].host, 0)->base = off;
		}
	}
	free(s);
	pg_clocksync_free(&hostoff);
	return rc;
}

/* Orders clock points by local time. */
static int point_cmp(const void *a, const void *b)
{
	const struct pg_clock_point *x = a, *y = b;

	return x->local < y->local ? -1 : x->local > y->local;
}

/* The least-squares slope of H's offsets over local time (0 for fewer
 * than two points). */
static double host_drift(const struct pg_clock_host *h)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0;

	if (h->n < 2)
		return 0;
	for (int i = 0; i < h->n; i++) {
		mx += (double)(h->pt[i].local - h->pt[0].local);
		my += (double)(h->pt[i].offset - h->pt[0].offset);
	}
	mx /= h->n;
	my /= h->n;
	for (int i = 0; i < h->n; i++) {
		double dx = (double)(h->pt[i].local - h->pt[0].local) - mx;
		double dy = (double)(h->pt[i].offset - h->pt[0].offset) - my;

		sxx += dx * dx;
		sxy += dx * dy;
	}
	return sxx > 0 ? sxy / sxx : 0;
}

/* Sorts H's points, keeps per cluster the one of the smallest round
 * trip, and sets its drift and smallest round trip. */
static void host_fit(struct pg_clock_host *h)
{
	uint64_t c0 = 0; /* local time of the cluster's first point */
	int kept = 0;

	if (h->n == 0)
		return;
	qsort(h->pt, (size_t)h->n, sizeof(*h->pt), point_cmp);
	h->min_rtt = h->pt[0].rtt;
	for (int i = 0; i < h->n; i++) {
		struct pg_clock_point *p = &h->pt[i];

		if (p->rtt < h->min_rtt)
			h->min_rtt = p->rtt;
		if (i > 0 && p->local - c0 < PG_CLOCK_CLUSTER_NS) {
			if (p->rtt < h->pt[kept - 1].rtt)
				h->pt[kept - 1] = *p;
			continue;
		}
		c0 = p->local;
		h->pt[kept++] = *p;
	}
	h->n = kept;
	h->drift = host_drift(h);
}

void pg_clocksync_fit(struct pg_clocksync *cs)
{
	for (int i = 0; i < cs->nhosts; i++)
		host_fit(&cs->hosts[i]);
}

const struct pg_clock_host *pg_clocksync_host(const struct pg_clocksync *cs,
					      const char *host)
{
	return host_find((struct pg_clocksync *)cs, host, 0);
}

int64_t pg_clocksync_offset(const struct pg_clock_host *h, uint64_t local)
{
	const struct pg_clock_point *a, *b;
	int lo = 0, hi;

	if (!h || h->n == 0)
		return 0;
	a = &h->pt[0];
	b = &h->pt[h->n - 1];
	if (local <= a->local)
		return a->offset - (int64_t)(h->drift * (double)(a->local - local));
	if (local >= b->local)
		return b->offset + (int64_t)(h->drift * (double)(local - b->local));
	hi = h->n - 1; /* pt[lo].local < local < pt[hi].local */
	while (hi - lo > 1) {
		int mid = (lo + hi) / 2;

		if (h->pt[mid].local <= local)
			lo = mid;
		else
			hi = mid;
	}
	a = &h->pt[lo];
	b = &h->pt[hi];
	return a->offset + (int64_t)((double)(b->offset - a->offset) *
				     (double)(local - a->local) /
				     (double)(b->local - a->local));
}

uint64_t pg_clocksync_map(const struct pg_clock_host *h, uint64_t local)
{
	return (uint64_t)((int64_t)local + pg_clocksync_offset(h, local));
}

void pg_clocksync_free(struct pg_clocksync *cs)
{
	for (int i = 0; i < cs->nhosts; i++)
		free(cs->hosts[i].pt);
	free(cs->hosts);
	memset(cs, 0, sizeof(*cs));
}
