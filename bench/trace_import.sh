#!/bin/bash
# trace_import.sh: throughput of the trace database import and the time
# of `pangaea-trace stats` on a large run.
#
# Usage: bash bench/trace_import.sh [BUILDDIR] [WORKERS] [MESSAGES]
#
# Writes a synthetic master/worker run with the real log writer
# (pg_comm_append, as racy -w WORKERS -m MESSAGES would log it: the master
# spawns, sends each worker a setup message and receives WORKERS*MESSAGES
# messages; each worker receives one and sends MESSAGES), then imports it
# and runs stats on it.  Defaults: 4 x 250000, i.e. 2 000 014 events.
# Set REAL=1 to record racy on a private virtual machine instead (slow:
# minutes for a million messages).  TRACE_GEN_DIR=DIR: only write the
# synthetic run into the new folder DIR (bench/view.sh opens it).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${1:-$here/build}" && pwd)
W=${2:-4}
M=${3:-250000}
T=$(mktemp -d /tmp/pangaea-bench-trace.XXXXXX)
trap 'rm -rf "$T"' EXIT

make -C "$here" --no-print-directory BUILDDIR="$B" all >/dev/null

if [ "${REAL:-0}" = 1 ]; then
	export PVM_ROOT=/usr/lib/pvm3 PVM_VMID="bench-trace-$$"
	[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
	(cd "$T" && "$B/bin/pangaea" -log -logdir run "$B/examples/racy" \
		-w "$W" -m "$M" >/dev/null)
else
	cat >"$T/gen.c" <<'EOF'
/* Writes a synthetic racy-like run into DIR with the real log writer. */
#include "pangaea-logs.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct pg_comm_writer open_task(const char *dir, int ltid, int parent)
{
	struct pg_comm_header h;
	struct pg_comm_writer w;
	char path[PG_PATH_MAX], err[512];

	memset(&h, 0, sizeof(h));
	h.version = PG_COMM_VERSION;
	h.ltid = ltid;
	h.tid = 0x40000 + ltid;
	h.parent_ltid = parent;
	h.mode = 1;
	h.start_wall_ns = 1700000000000000000ULL + (uint64_t)ltid * 1000;
	h.start_mono_ns = 1000000000ULL + (uint64_t)ltid * 1000;
	snprintf(h.host, sizeof(h.host), "vm");
	snprintf(h.program, sizeof(h.program), "/bench/racy");
	pg_log_path(path, sizeof(path), dir, ltid, "comm");
	if (pg_comm_create(&w, path, &h, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	return w;
}

static void put(struct pg_comm_writer *w, int kind, int peer, int tag,
		unsigned msgid, uint64_t t, uint64_t dur)
{
	struct pg_event e;

	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.peer = peer;
	e.tag = tag;
	e.msgid = msgid;
	e.len = kind == PG_REC_SPAWN ? 0 : 8;
	e.t = t;
	e.dur = dur;
	e.how = 1;
	if (pg_comm_append(w, &e) < 0)
		exit(1);
}

int main(int argc, char **argv)
{
	int W = atoi(argv[2]), M = atoi(argv[3]);
	struct pg_comm_writer w = open_task(argv[1], 1, 0);
	uint64_t t = 1000;

	put(&w, PG_REC_SPAWN, 0, 0, 1, t, 5000);
	for (int i = 1; i <= W; i++)
		put(&w, PG_REC_SEND, 1000 + i, 99, (unsigned)i, t += 6000, 3000);
	/* the master takes the workers' messages round-robin */
	for (int m = 1; m <= M; m++)
		for (int i = 1; i <= W; i++)
			put(&w, PG_REC_RECV, 1000 + i, 1, (unsigned)m,
			    t += 2000 + (unsigned)(m * 7 + i) % 500, 800);
	put(&w, PG_REC_END, 0, 0, 0, t += 1000, 0);
	pg_comm_close(&w);
	for (int i = 1; i <= W; i++) {
		struct pg_comm_writer k = open_task(argv[1], 1000 + i, 1);
		uint64_t u = 20000;

		put(&k, PG_REC_RECV, 1, 99, (unsigned)i, u, 4000);
		for (int m = 1; m <= M; m++)
			put(&k, PG_REC_SEND, 1, 1, (unsigned)m,
			    u += 1500 + (unsigned)(m * 13) % 900, 600);
		put(&k, PG_REC_END, 0, 0, 0, u += 1000, 0);
		pg_comm_close(&k);
	}
	return 0;
}
EOF
	# (a build made with SANITIZE=... needs its sanitizers' runtimes)
	san=
	nm "$B/lib/libpangaea.a" 2>/dev/null | grep -q ' U __asan_' && san=address
	nm "$B/lib/libpangaea.a" 2>/dev/null | grep -q ' U __ubsan_' &&
		san=${san:+$san,}undefined
	cc -O2 -std=c11 -D_GNU_SOURCE ${san:+-fsanitize=$san} -I"$here/logs/format" \
		-o "$T/gen" "$T/gen.c" "$B/lib/libpangaea.a"
	if [ -n "${TRACE_GEN_DIR:-}" ]; then
		mkdir "$TRACE_GEN_DIR"
		"$T/gen" "$TRACE_GEN_DIR" "$W" "$M"
		exit 0
	fi
	mkdir "$T/run"
	"$T/gen" "$T/run" "$W" "$M"
fi

now() { date +%s.%N; }
t0=$(now)
"$B/bin/pangaea-trace" import "$T/run" >"$T/import.out"
t1=$(now)
"$B/bin/pangaea-trace" stats "$T/run" >"$T/stats.out"
t2=$(now)
events=$("$B/bin/pangaea-trace" sql "$T/run" "SELECT count(*) FROM events")
messages=$("$B/bin/pangaea-trace" sql "$T/run" "SELECT count(*) FROM messages")
size=$(stat -c %s "$T/run/trace.db")
awk -v e="$events" -v m="$messages" -v a="$t0" -v b="$t1" -v c="$t2" -v s="$size" 'BEGIN {
	printf "trace_import: %d events, %d messages\n", e, m
	printf "trace_import: import %.3f s = %.0f events/s (target >= 2000000: %s)\n", b - a, e / (b - a), (e / (b - a) >= 2e6 ? "met" : "MISSED")
	printf "trace_import: stats %.3f s (target < 2 s: %s)\n", c - b, (c - b < 2 ? "met" : "MISSED")
	printf "trace_import: database %.1f MB (%.0f bytes/event)\n", s / 1e6, s / e
}'
