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
# Before the import, times `pangaea-trace sql` and `stats` on the fresh
# logs (no import: tdb_open_logs; stats runs the clock on their times);
# SQL_ONLY=1 stops there.  After it, the plain
# SQLite ceiling: the same number of rows inserted by a small program
# (no reader, matcher or clock), then indexed.
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

# SQL on the fresh logs, before any import (tdb_open_logs: no trace.db
# is made); each query timed alone
sqlq() {
	local a b
	a=$(now)
	"$B/bin/pangaea-trace" sql "$T/run" "$1" >"$T/sql.out"
	b=$(now)
	awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b - a }'
}
if [ "${REAL:-0}" != 1 ]; then
	ev=$(sqlq "SELECT count(*) FROM events"); nev=$(cat "$T/sql.out")
	one=$(sqlq "SELECT count(*), max(t1) FROM events WHERE ltid = 1001")
	msg=$(sqlq "SELECT count(*), max(t_recv - t_send) FROM messages")
	tsk=$(sqlq "SELECT ltid, nevents, t_last FROM tasks")
	grp=$(sqlq "SELECT kind, count(*) FROM events GROUP BY kind")
	# rescanning statements: a join's inner loop and a correlated
	# subquery, looked up by key in the rows kept in memory
	join=$(sqlq "SELECT count(*) FROM messages m JOIN events e ON e.id = m.send_event")
	corr=$(sqlq "SELECT count(*) FROM events e WHERE e.kind = 'recv' AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.recv_event = e.id)")
	# stats on the fresh logs: this run's receives end before their
	# sends, so the clock is run on the logs' times (no import)
	a=$(now)
	"$B/bin/pangaea-trace" stats "$T/run" >"$T/stats.logs"
	b=$(now)
	st=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b - a }')
	made=
	if [ -e "$T/run/trace.db" ]; then
		made=" (a trace.db was made: NOT without import)"
	fi
	echo "$ev $one $msg $tsk $grp $join $corr $st" | awk -v n="$nev" -v made="$made" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '{
		worst = $1; for (i = 2; i <= 7; i++) if ($i > worst) worst = $i
		printf "trace_import: sql on the fresh logs of %d events, no import%s: count(*) FROM events %.2f s, one task'"'"'s events %.2f s, count(*) FROM messages %.2f s, tasks %.2f s, GROUP BY kind over events %.2f s, messages JOIN events on the send event %.2f s, correlated NOT EXISTS on recv_event %.2f s (target < 3 s: %s; load %s); stats through the clock %.2f s\n", n, made, $1, $2, $3, $4, $5, $6, $7, worst < 3 && made == "" ? "met" : "MISSED", load, $8 }'
	[ "${SQL_ONLY:-0}" = 1 ] && exit 0
fi

# the ceiling: plain SQLite inserting as many rows as the import writes
# (events and messages of the same shapes, the importer's settings, one
# transaction, prepared statements), without our reader, matcher or
# clock; then the same four indexes
if [ "${REAL:-0}" != 1 ]; then
	cat >"$T/ceil.c" <<'EOF'
/* Inserts NEV events rows and NMSG messages rows of the import's shapes
 * into a new database PATH made by SCHEMA (the trace database's CREATE
 * TABLE statements), as fast as SQLite goes; prints the seconds of the
 * inserts and of the indexes.  Usage: ceil PATH NEV NMSG SCHEMA */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long nev = atol(argv[2]), nmsg = atol(argv[3]);
	sqlite3 *db;
	sqlite3_stmt *e, *m;
	double t0, t1, t2;

	remove(argv[1]);
	if (argc != 5 || sqlite3_open(argv[1], &db) != SQLITE_OK)
		return 1;
	sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
		     "PRAGMA locking_mode=EXCLUSIVE; PRAGMA page_size=4096;"
		     "PRAGMA cache_size=-16384; PRAGMA temp_store=MEMORY;"
		     "PRAGMA threads=2;", NULL, NULL, NULL);
	if (sqlite3_exec(db, argv[4], NULL, NULL, NULL) != SQLITE_OK)
		return 1;
	if (sqlite3_prepare_v2(db, "INSERT INTO events VALUES(?,?,?,?,?,?,?,?,?,?,"
			       "?,?,?,?,?,?,?,?)", -1, &e, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO messages VALUES(?,?,?,?,?,?,?,?,?,"
			       "?,?,?)", -1, &m, NULL) != SQLITE_OK)
		return 1;
	t0 = now();
	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	for (long i = 1; i <= nev; i++) {
		long long t = 1700000000000000000LL + i * 2000;

		sqlite3_bind_int64(e, 1, i);
		sqlite3_bind_int(e, 2, 1000 + (int)(i % 5));
		sqlite3_bind_int64(e, 3, i);
		sqlite3_bind_text(e, 4, i & 1 ? "recv" : "send", -1, SQLITE_STATIC);
		sqlite3_bind_int(e, 5, 1001 + (int)(i % 4));
		sqlite3_bind_int(e, 6, 1);
		sqlite3_bind_int64(e, 7, i / 4);
		sqlite3_bind_int64(e, 8, 8);
		sqlite3_bind_int64(e, 9, t);
		sqlite3_bind_int64(e, 10, t + 800);
		for (int c = 11; c <= 16; c++)
			sqlite3_bind_null(e, c);
		sqlite3_bind_int64(e, 17, t);
		sqlite3_bind_int64(e, 18, t + 800);
		if (sqlite3_step(e) != SQLITE_DONE)
			return 1;
		sqlite3_reset(e);
	}
	for (long i = 1; i <= nmsg; i++) {
		long long t = 1700000000000000000LL + i * 4000;

		sqlite3_bind_int64(m, 1, i);
		sqlite3_bind_int(m, 2, 1001 + (int)(i % 4));
		sqlite3_bind_int(m, 3, 1);
		sqlite3_bind_int(m, 4, 1);
		sqlite3_bind_int64(m, 5, i / 4);
		sqlite3_bind_int64(m, 6, 8);
		sqlite3_bind_text(m, 7, "send", -1, SQLITE_STATIC);
		sqlite3_bind_int64(m, 8, 2 * i);
		sqlite3_bind_int64(m, 9, 2 * i + 1);
		sqlite3_bind_int64(m, 10, t);
		sqlite3_bind_int64(m, 11, t + 3000);
		sqlite3_bind_null(m, 12);
		if (sqlite3_step(m) != SQLITE_DONE)
			return 1;
		sqlite3_reset(m);
	}
	t1 = now();
	sqlite3_exec(db, "CREATE INDEX events_t0 ON events(t0);"
		     "CREATE INDEX messages_t_send ON messages(t_send);"
		     "CREATE INDEX messages_send_event ON messages(send_event);"
		     "CREATE INDEX messages_recv_event ON messages(recv_event);"
		     "COMMIT", NULL, NULL, NULL);
	t2 = now();
	printf("%.3f %.3f\n", t1 - t0, t2 - t1);
	sqlite3_finalize(e);
	sqlite3_finalize(m);
	sqlite3_close(db);
	return 0;
}
EOF
	cc -O2 -o "$T/ceil" "$T/ceil.c" -lsqlite3
fi

t0=$(now)

"$B/bin/pangaea-trace" import "$T/run" >"$T/import.out"
t1=$(now)
"$B/bin/pangaea-trace" stats "$T/run" >"$T/stats.out"
t2=$(now)
events=$("$B/bin/pangaea-trace" sql "$T/run" "SELECT count(*) FROM events")
messages=$("$B/bin/pangaea-trace" sql "$T/run" "SELECT count(*) FROM messages")
size=$(stat -c %s "$T/run/trace.db")
if [ "${REAL:-0}" != 1 ]; then
	schema=$(sqlite3 "$T/run/trace.db" "SELECT group_concat(sql, ';') FROM sqlite_master WHERE name IN ('events', 'messages')")
	"$T/ceil" "$T/ceil.db" "$events" "$messages" "$schema" | awk -v e="$events" -v m="$messages" '{
		printf "trace_import: plain SQLite ceiling, the same %d events + %d messages rows inserted without our reader: %.3f s = %.0f events/s (with the 4 indexes: %.3f s = %.0f events/s)\n", e, m, $1, e / $1, $1 + $2, e / ($1 + $2) }'
fi
awk -v e="$events" -v m="$messages" -v a="$t0" -v b="$t1" -v c="$t2" -v s="$size" 'BEGIN {
	printf "trace_import: %d events, %d messages\n", e, m
	printf "trace_import: import %.3f s = %.0f events/s (target >= 2000000: %s)\n", b - a, e / (b - a), (e / (b - a) >= 2e6 ? "met" : "MISSED")
	printf "trace_import: stats %.3f s (target < 2 s: %s)\n", c - b, (c - b < 2 ? "met" : "MISSED")
	printf "trace_import: database %.1f MB (%.0f bytes/event)\n", s / 1e6, s / e
}'
