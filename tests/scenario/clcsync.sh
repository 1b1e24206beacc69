# Synchronised times on real logs (logs/analysis/logical-clock.c,
# logs/tracedb/tracedb-sync.c): sor and groups (barriers, a broadcast) recorded
# on this host, then a copy of each whose spawned tasks (ltid >= 1000) claim
# another host with a clock 3 ms behind (their log headers patched: host name,
# start wall).  The one-host runs import as `offset` with no violation; the
# skewed copies import as `clc` by default, with violations before and none
# after; the raw times are kept; `pangaea-trace sync` reports the violations
# left by the clock samples' linear correction (the samples were taken with the
# true clock: they do not see the patched skew, as with a clock that jumped
# between two samples) and none after the clc, and each host's offset from its
# samples; --sync offset leaves the violations in place.  The viewer (under
# Xvfb) draws the synchronised times and, with "Raw times" ticked, the raw ones.
. "$(dirname "$0")/../lib.sh"
view_test clcsync

# skew DIR: each task-1NNN.comm of DIR gets a host name with its last
# byte changed and a start wall 3 ms earlier (header: FORMATS.md 2.1).
skew() {
	python3 - "$1" <<'PY'
import glob, struct, sys
for p in glob.glob(sys.argv[1] + "/task-1[0-9][0-9][0-9].comm"):
    b = bytearray(open(p, "rb").read())
    wall, = struct.unpack_from("<Q", b, 32)
    struct.pack_into("<Q", b, 32, wall - 3000000)
    h, = struct.unpack_from("<H", b, 48)
    b[50 + h - 1] = ord("X") if b[50 + h - 1] != ord("X") else ord("Y")
    open(p, "wb").write(b)
PY
}

# reads DIR OUT: every table with its times (sql; a join and a
# correlated subquery by key too), and what stats,
# dump --merged and export print for DIR, into OUT (the export files
# under OUT.d).
reads() {
	local q
	rm -rf "$2" "$2.d"
	mkdir "$2.d"
	for q in "SELECT * FROM events" "SELECT * FROM messages" \
		"SELECT * FROM tasks" "SELECT * FROM spawns ORDER BY ltid, seq" \
		"SELECT * FROM output" "SELECT * FROM clocks" \
		"SELECT m.*, e.* FROM messages m JOIN events e ON e.id = m.recv_event ORDER BY m.id" \
		"SELECT e.id, e.t0, e.t1, (SELECT t_send || ' ' || t_recv FROM messages m WHERE m.recv_event = e.id) FROM events e ORDER BY e.id" \
		"SELECT key, value FROM meta WHERE key LIKE 'sync%' OR key IN
		 ('clock_tasks', 'hosts', 'mode') ORDER BY key"; do
		$TRACE sql "$1" "$q" >>"$2" 2>&1
	done
	trace_reads "$1" "$2"
}

# check NAME DIR: the skewed copy DIR imports as clc, fixes everything;
# sync, sql, stats, dump --merged and export on it before the import
# (from the logs, the clock run on their times) print what they print
# after.
check() {
	$TRACE sync "$2" >sync.logs 2>&1
	reads "$2" reads.logs
	[ -e "$2/trace.db" ] && fail "$1 skewed: sync, sql, stats, dump, export on the logs imported them" ||
		pass "$1 skewed: sync, sql, stats, dump, export answer from the logs, no import"
	$TRACE import "$2" >imp 2>imperr
	reads "$2" reads.db
	if cmp -s reads.logs reads.db && diff -r reads.logs.d reads.db.d >/dev/null; then
		pass "$1 skewed: the logs' tables and reports are the imported ones ($(wc -l <reads.db) lines)"
	else
		fail "$1 skewed: the logs' tables or reports differ from the imported ones:"
		{ diff reads.logs reads.db; diff -r reads.logs.d reads.db.d; } |
			head -10 | sed 's/^/    | /'
	fi
	expect_grep "$1 skewed: the logs' times are the clock's" reads.logs '^sync\|clc$'
	expect_eq "$1 skewed: import exits 0" $? 0
	expect_grep "$1 skewed: times by the clc, violations before, none after" \
		imp '^times: clc \(clock condition violations: [1-9][0-9]* before, 0 after'
	expect_eq "$1 skewed: no receive before its send" \
		"$($TRACE sql "$2" 'SELECT count(*) FROM messages WHERE t_recv < t_send')" 0
	expect_eq "$1 skewed: meta sync" \
		"$($TRACE sql "$2" "SELECT value FROM meta WHERE key='sync'")" clc
	[ "$($TRACE sql "$2" 'SELECT count(*) FROM events WHERE t0 != t0_raw')" -gt 0 ] &&
		pass "$1 skewed: raw times kept beside the new ones" ||
		fail "$1 skewed: no event moved"
	$TRACE sync "$2" >sync 2>syncerr
	expect_eq "$1 skewed: sync exits 0" $? 0
	cmp -s sync.logs sync &&
		pass "$1 skewed: sync from the logs = sync after the import" ||
		fail "$1 skewed: sync from the logs differs: $(diff sync.logs sync | head -3)"
	expect_grep "$1 skewed: sync: violations" sync \
		'^clock condition violations: [1-9][0-9]* raw, [1-9][0-9]* linear, 0 after clc$'
	expect_eq "$1 skewed: sync: both hosts' offsets from their samples" \
		"$(grep -c ' samples$' sync)" 2
	$TRACE import --sync offset "$2" >imp 2>imperr
	expect_grep "$1 skewed: --sync offset keeps the raw times" imp '^times: offset '
	[ "$($TRACE sql "$2" 'SELECT count(*) FROM messages WHERE t_recv < t_send')" -gt 0 ] &&
		pass "$1 skewed: --sync offset: receives before their sends" ||
		fail "$1 skewed: --sync offset shows no violation"
}

pg -log -logdir sor "$B/examples/sor" 4 30
expect_eq "sor: record exits 0" "$(cat rc)" 0
pg -log -logdir groups "$B/examples/groups"
expect_eq "groups: record exits 0" "$(cat rc)" 0
for r in sor groups; do
	$TRACE import "$r" >imp 2>imperr
	expect_grep "$r: one host, no violation: offset" imp \
		'^times: offset \(clock condition violations: 0 before, 0 after'
	cp -r "$r" "$r-skew"
	rm -f "$r-skew/trace.db"
	skew "$r-skew"
	check "$r" "$r-skew"
done
[ "$($TRACE sql groups-skew "SELECT count(*) FROM events WHERE op='barrier'")" -gt 0 ] &&
	pass "groups: barriers in the trace" || fail "groups: no barrier logged"
# the k-th barrier call of each member is one barrier: every exit after
# the last entry
late="WITH b AS (SELECT grp, t0, t1, row_number() OVER (PARTITION BY grp,
 ltid ORDER BY id) AS k FROM events WHERE op = 'barrier')
 SELECT count(*) FROM (SELECT min(t1) AS out, max(t0) AS last FROM b
 GROUP BY grp, k) WHERE out < last"
$TRACE import groups-skew >imp 2>imperr
expect_eq "groups skewed: every barrier exit after the last entry" \
	"$($TRACE sql groups-skew "$late")" 0

# ---- the viewer: a task's first entry, synchronised then raw
$TRACE import sor-skew >imp 2>imperr
cat >raw.tcl <<'TCL'
set out [open $::env(T)/vresult w]
proc skewed {} {
	foreach {id ltid kind t0 t1 peer tag msgid len m} \
		[pgdb events 0 9223372036854775807 1000000] {
		if {$ltid == 1001} { return $t0 }
	}
}
puts $out "sync [skewed]"
.tb.raw invoke
update
puts $out "raw [skewed] $::view::V(raw)"
.tb.raw invoke
update
puts $out "back [skewed] $::view::V(raw)"
close $out
exit 0
TCL
export T
view -script raw.tcl sor-skew
expect_eq "viewer: exits 0" "$(cat vrc)" 0
want_sync=$($TRACE sql sor-skew "SELECT t0 FROM events WHERE ltid = 1001 ORDER BY seq LIMIT 1")
want_raw=$($TRACE sql sor-skew "SELECT t0_raw FROM events WHERE ltid = 1001 ORDER BY seq LIMIT 1")
[ "$want_sync" != "$want_raw" ] && pass "viewer: task 1001's first event was moved" ||
	fail "viewer: task 1001's first event did not move"
expect_eq "viewer: synchronised times drawn" "$(grep '^sync' vresult)" "sync $want_sync"
expect_eq "viewer: Raw times shows the raw ones" "$(grep '^raw' vresult)" "raw $want_raw 1"
expect_eq "viewer: and back" "$(grep '^back' vresult)" "back $want_sync 0"

vm_halt
expect_no_leftovers
finish
