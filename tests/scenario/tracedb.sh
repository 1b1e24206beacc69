# The trace database and the analysis commands on real recordings: racy
# and sor (and groups when the example exists).  Matched messages equal
# the sends logged, every receive has exactly one send, stats counts are
# the calls the program makes, verify tells a replay from another
# recording, the exports pass otf2-print and a JSON parser, and damaged
# logs are refused (or salvaged on request).
. "$(dirname "$0")/../lib.sh"
R=$B/examples/racy
W=3 M=10

# sql LOGDIR QUERY: the query's output.
sql() { $TRACE sql "$1" "$2"; }

# check_matching NAME LOGDIR: the message invariants of a complete run.
check_matching() {
	local sends matched bad
	sends=$(sql "$2" "SELECT (SELECT count(*) FROM events WHERE kind IN ('send','psend'))
		+ (SELECT coalesce(sum(length(dests) - length(replace(dests, ' ', '')) + 1), 0)
		   FROM events WHERE kind IN ('mcast','bcast'))")
	matched=$(sql "$2" "SELECT count(*) FROM messages WHERE unmatched IS NULL")
	expect_eq "$1: matched messages = sends logged ($sends)" "$matched" "$sends"
	bad=$(sql "$2" "SELECT count(*) FROM events e WHERE kind IN ('recv','nrecv','trecv','precv')
		AND (SELECT count(*) FROM messages m WHERE m.recv_event = e.id AND m.send_event IS NOT NULL) <> 1")
	expect_eq "$1: every receive has exactly one send" "$bad" 0
	bad=$(sql "$2" "SELECT count(*) FROM messages WHERE t_recv < t_send")
	expect_eq "$1: no message is received before it is sent" "$bad" 0
}

# logs_sql_rows LOGDIR OUT: the rows the tables over the logs and the
# import both have (the raw times: the import may put t0 through the
# clock), appended to OUT; statements that rescan a table too (a join's
# inner loop, correlated subqueries: by key, then on other columns, the
# tables copied into temporary ones), answered without an import.
logs_sql_rows() {
	local q
	for q in "SELECT id, ltid, seq, kind, peer, tag, msgid, len, count, grp, op, arg, result, dests, t0_raw, t1_raw FROM events" \
		"SELECT id, src, dst, tag, msgid, len, kind, send_event, recv_event, unmatched FROM messages" \
		"SELECT ltid, parent_ltid, tid, program, host, start_wall_ns, end_how, end_value, nevents FROM tasks" \
		"SELECT key, value FROM meta WHERE key IN ('mode', 'hosts', 'selection', 'polls', 'command', 'status', 'start_wall_ns', 'clock_tasks') ORDER BY key" \
		"SELECT * FROM output" "SELECT * FROM clocks" \
		"SELECT kind, count(*) FROM events GROUP BY kind" \
		"SELECT ltid, kind, count(*) FROM events GROUP BY ltid, kind" \
		"SELECT kind, ltid FROM events GROUP BY kind, ltid" \
		"SELECT kind, count(*) FROM events WHERE ltid = 1 GROUP BY kind" \
		"SELECT ltid, count(*), min(id), max(seq) FROM events WHERE ltid = (SELECT max(ltid) FROM tasks)" \
		"SELECT * FROM spawns ORDER BY ltid, seq" \
		"SELECT m.id, e.id, e.ltid, e.seq, e.kind, e.t0_raw, m.kind, m.unmatched FROM messages m JOIN events e ON e.id = m.send_event ORDER BY m.id" \
		"SELECT e.id, m.id, m.src, m.dst, m.msgid FROM events e JOIN messages m ON m.recv_event = e.id ORDER BY e.id" \
		"SELECT e.id, m.id, m.dst FROM events e JOIN messages m ON m.send_event = e.id WHERE e.kind IN ('mcast', 'bcast') ORDER BY e.id, m.id" \
		"SELECT e.id, (SELECT count(*) FROM messages m WHERE m.send_event = e.id), (SELECT m.id FROM messages m WHERE m.recv_event = e.id) FROM events e ORDER BY e.id" \
		"SELECT m.id, (SELECT kind FROM events e WHERE e.id = m.recv_event), (SELECT seq FROM events e WHERE e.id = m.send_event) FROM messages m ORDER BY m.id" \
		"SELECT id, ltid, seq, kind, peer, tag, msgid, len, count, grp, op, arg, result, dests, t0_raw, t1_raw FROM events WHERE id IN (1, 2, (SELECT max(id) FROM events), 0, -1)" \
		"SELECT * FROM messages WHERE id = (SELECT max(id) FROM messages) OR id = 1" \
		"SELECT a.id, b.id FROM events a JOIN events b ON a.msgid = b.msgid AND a.peer = b.ltid WHERE a.kind = 'send' AND b.kind = 'recv' ORDER BY a.id, b.id" \
		"SELECT e.id, (SELECT program FROM tasks t WHERE t.ltid = e.ltid), (SELECT count(*) FROM messages m WHERE m.dst = e.ltid AND m.tag = e.tag) FROM events e ORDER BY e.id"; do
		$TRACE sql "$1" "$q" >>"$2" 2>&1
	done
}

# logs_reads LOGDIR OUT: what stats, export, sync, dump --merged print for LOGDIR
# (they read the logs when they have no trace.db, the trace database
# else), appended to OUT; the export files go under OUT.d.
logs_reads() {
	local t
	rm -rf "$2.d"
	mkdir "$2.d"
	t=$($TRACE sql "$1" "SELECT max(ltid) FROM tasks")
	{
		$TRACE stats --json "$1"
		$TRACE stats -task "$t" "$1"
		$TRACE sync "$1"
	} >>"$2" 2>&1
	trace_reads "$1" "$2"
}

# logs_sql_check NAME LOGDIR: on a fresh log folder, pangaea-trace sql,
# stats, export and sync answer from the logs (no trace.db made) with
# what they print once the import is made.
logs_sql_check() {
	local f
	[ -e "$2/trace.db" ] && fail "$1: $2 already has a trace.db"
	logs_sql_rows "$2" "$1.logs.sql"
	logs_reads "$2" "$1.logs.reads"
	[ -e "$2/trace.db" ] && fail "$1: sql, stats, export, sync on the logs imported them" ||
		pass "$1: sql, stats, export and sync answer from the logs, no import"
	[ -s "$1.logs.sql" ] || fail "$1: sql on the logs printed nothing"
	$TRACE import "$2" >/dev/null
	logs_sql_rows "$2" "$1.db.sql"
	logs_reads "$2" "$1.db.reads"
	if cmp -s "$1.logs.sql" "$1.db.sql"; then
		pass "$1: the logs' rows are the imported ones ($(wc -l <"$1.db.sql") lines)"
	else
		fail "$1: the logs' rows differ from the imported ones:"
		diff "$1.logs.sql" "$1.db.sql" | head -10 | sed 's/^/    | /'
	fi
	if cmp -s "$1.logs.reads" "$1.db.reads" &&
	   diff -r "$1.logs.reads.d" "$1.db.reads.d" >/dev/null; then
		pass "$1: stats, export and sync print from the logs what they print imported ($(wc -l <"$1.db.reads") lines, $(du -sk "$1.db.reads.d" | cut -f1) KiB exported)"
	else
		fail "$1: stats, export or sync differ between the logs and the import:"
		{ diff "$1.logs.reads" "$1.db.reads"
		  diff -r "$1.logs.reads.d" "$1.db.reads.d"; } | head -10 | sed 's/^/    | /'
	fi
	f=$($TRACE sql "$2" "SELECT value FROM meta WHERE key = 'source'")
	expect_eq "$1: the imported database is used once made" "$f" ""
}

# stat_count CSV TASK FUNCTION: the count column of a stats --csv row.
stat_count() { awk -F, -v t="$2" -v f="$3" '$1 == "call" && $2 == t && $3 == f { print $4 }' "$1"; }

# --- racy: record, import on first use, counts --------------------------
pg -log -logdir rec1 "$R" -w $W -m $M
expect_eq "racy recording exits 0" "$(cat rc)" 0
cp out rec1.out
logs_sql_check racy rec1
rm -f rec1/trace.db
$TRACE stats --csv rec1 >stats.csv 2>stats.err
expect_eq "stats on the fresh logs succeeds" "$?" 0
[ -f rec1/trace.db ] && fail "stats imported rec1" || pass "stats made no rec1/trace.db"
expect_eq "master: $W sends" "$(stat_count stats.csv 1 pvm_send)" $W
expect_eq "master: W*M receives" "$(stat_count stats.csv 1 pvm_recv)" $((W * M))
expect_eq "master: one spawn" "$(stat_count stats.csv 1 pvm_spawn)" 1
for w in 1 2 3; do
	expect_eq "worker $w: 1 receive" "$(stat_count stats.csv 100$w pvm_recv)" 1
	expect_eq "worker $w: M sends" "$(stat_count stats.csv 100$w pvm_send)" $M
done
expect_eq "all tasks: sends" "$(stat_count stats.csv all pvm_send)" $((W + W * M))
diff=$(awk -F, '$1 == "check" && $2 == "all" && $3 == "difference" { print $10 }' stats.csv)
expect_eq "computation + communication = run time" "$diff" 0
bytes=$(awk -F, '$1 == "bytes" && $2 == 1 && $3 == "received" { print $11 }' stats.csv)
expect_eq "master received W*M 8-byte messages" "$bytes" $((W * M * 8))
$TRACE stats rec1 >stats.txt
expect_grep "text table has the master's receives" stats.txt "^pvm_recv +1 +$((W * M)) "
expect_grep "text table has the check" stats.txt "^ +all .* 0\.000 "
$TRACE stats --json rec1 | python3 -m json.tool >/dev/null &&
	pass "stats --json parses" || fail "stats --json is not JSON"
check_matching racy rec1
expect_eq "sql: tasks (launcher + master + workers)" "$(sql rec1 'SELECT count(*) FROM tasks')" $((W + 2))
expect_eq "meta mode" "$(sql rec1 "SELECT value FROM meta WHERE key='mode'")" record

# dump --merged: every event once, in time order; the per-task dump stays
n=$(sql rec1 "SELECT count(*) FROM events")
$TRACE dump --merged rec1 >merged
expect_eq "dump --merged prints every event" "$(wc -l <merged)" "$n"
sed -n 's/.* t=\([0-9.]*\)$/\1/p' merged >times
sort -g -c times 2>/dev/null && pass "dump --merged is in time order" || fail "dump --merged is not in time order"
expect_grep "merged lines name task and event" merged "^task 1 #2 send to=1001 tag=99 msg=1 len=16 t="
expect_grep "per-task dump keeps its format" <($TRACE dump -task 1 rec1) "^  #[0-9]+ recv from=100[1-3] msg=[0-9]+ tag=1 len=8 via=pvm_recv t="

# --- verify: a replay is identical, another recording is not --------------
pg -replay -logdir rec1 -out rep1
expect_eq "replay exits 0" "$(cat rc)" 0
$TRACE verify rec1 rep1 >v1; rc1=$?
expect_eq "verify replay: exit 0" "$rc1" 0
expect_grep "verify replay: identical" v1 "^identical \([0-9]+ events, $((W + 1)) tasks\)$"
check_matching replay rep1
for i in 2 3 4 5 6 7 8; do
	pg -log -logdir rec2 "$R" -w $W -m $M
	cmp -s <(grep digest out) <(grep digest rec1.out) || break
	rm -rf rec2
done
$TRACE verify rec1 rec2 >v2; rc2=$?
expect_eq "verify two recordings: exit 1" "$rc2" 1
expect_grep "verify names the first differing receive" v2 \
	"^different: task 1, event [0-9]+: rec1 has pvm_recv from=100[1-3] msg=[0-9]+ tag=1, rec2 has pvm_recv from=100[1-3]"

# --- exports ---------------------------------------------------------------
$TRACE export --otf2 otf rec1
expect_eq "export --otf2 exits 0" "$?" 0
otf2-print otf/traces.otf2 >otf.txt 2>otf.err
expect_eq "otf2-print reads the archive" "$?" 0
expect_eq "otf2-print: no warnings" "$(wc -l <otf.err)" 0
expect_eq "OTF2: one MPI_SEND per send" "$(grep -c '^MPI_SEND' otf.txt)" $((W + W * M))
expect_eq "OTF2: one MPI_RECV per receive" "$(grep -c '^MPI_RECV' otf.txt)" $((W + W * M))
$TRACE export --chrome trace.json rec1
python3 -m json.tool trace.json >/dev/null && pass "Chrome JSON parses" || fail "Chrome JSON does not parse"
expect_eq "Chrome: a slice per event" "$(grep -c '"ph":"X"' trace.json)" "$n"
expect_eq "Chrome: a message slice per message" "$(grep -c '"ph":"b"' trace.json)" $((W + W * M))

# --- damaged logs ------------------------------------------------------------
cp -r rec1 bad && rm -f bad/trace.db
# (one byte off: inside the end record, whatever its size; 4 bytes off
# was the whole end record when its time took one byte)
truncate -s -1 bad/task-1001.comm
$TRACE sql bad "SELECT count(*) FROM events" >sql.out 2>sql.err; rc=$?
expect_eq "sql on the logs refuses a truncated log" "$rc" 1
expect_grep "... naming file and offset" sql.err "task-1001\.comm: truncated: .*offset [0-9]+"
$TRACE import bad >imp.out 2>imp.err; rc=$?
expect_eq "import refuses a truncated log" "$rc" 1
expect_grep "refusal names file and offset" imp.err "task-1001\.comm: truncated: .*offset [0-9]+"
$TRACE stats bad >/dev/null 2>&1 && fail "stats used a truncated log" || pass "stats refuses too"
$TRACE import --salvage bad >imp.out 2>imp.err
expect_eq "import --salvage keeps what is readable" "$?" 0
expect_grep "salvage is reported" imp.out "salvaged: 1 damaged log"
expect_eq "salvaged: task 1001 lost only its last records" \
	"$(sql bad "SELECT nevents < $((M + 2)) AND nevents >= $M FROM tasks WHERE ltid=1001")" 1

# --- sor ----------------------------------------------------------------------
pg -log -logdir sor "$B/examples/sor" 4 100
expect_eq "sor recording exits 0" "$(cat rc)" 0
logs_sql_check sor sor
$TRACE import sor >imp.out
expect_grep "sor import summary" imp.out "^imported 5 tasks, [0-9]+ events, [0-9]+ messages \([0-9]+ matched, 0 unmatched\)"
check_matching sor sor
$TRACE stats --csv sor >sor.csv
logged=$(sql sor "SELECT count(*) FROM events WHERE kind='send'")
expect_eq "sor: stats sends = sends logged" "$(stat_count sor.csv all pvm_send)" "$logged"

# --- groups (when the example exists) ------------------------------------------
if [ -x "$B/examples/groups" ]; then
	pg -log -logdir grp "$B/examples/groups"
	expect_eq "groups recording exits 0" "$(cat rc)" 0
	logs_sql_check groups grp
	rm -f grp/trace.db
	# (on the logs, the correlated subquery too: a lookup by key)
	check_matching groups grp
	[ -e grp/trace.db ] && fail "groups: the message checks imported grp" ||
		pass "groups: the message checks (a correlated subquery) answer from the logs"
else
	skip "the groups recording's message checks" "no $B/examples/groups"
fi

expect_no_leftovers
finish
