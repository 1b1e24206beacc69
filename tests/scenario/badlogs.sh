# Bad input in a log folder is refused at once, naming the file and the
# place: a FIFO in place of task-1.comm, task-0.exec or run.info (a plain
# fopen waited forever for a writer) makes dump, dump --merged, import,
# stats and pangaea -replay exit 1 within seconds; a folder in place of a
# log "is a directory"; dump exits 1 after refusing an exec log; logs
# swapped between tasks, exec-log integers past 32 bits, run.info lines
# for tasks without logs and impossible times in trace.db are refused.
. "$(dirname "$0")/../lib.sh"
C=$B/tests/ctxcheck
LIMIT=10 # seconds a refusal may take at most (they take milliseconds)

# bounded NAME WANT_RC PATTERN CMD...: runs CMD with a time limit, output
# to out/err; asserts its exit status, that it did not time out, and that
# stderr has a line matching PATTERN.
bounded() {
	local name=$1 want=$2 pat=$3 t0 ms rc
	shift 3
	t0=$(date +%s%N)
	timeout -k 2 $LIMIT "$@" >out 2>err
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$rc" = 124 ] || [ "$rc" = 137 ] && fail "$name: timed out after $LIMIT s"
	expect_eq "$name: exit $want ($ms ms)" "$rc" "$want"
	expect_grep "$name: said so" err "$pat"
}

pg -log -logdir rec "$C" 2
expect_eq "a good recording" "$(cat rc)" 0
for f in run.info task-0.exec task-1.comm task-1.exec task-1001.comm; do
	[ -f "rec/$f" ] || fail "the recording has no $f"
done

# --- a FIFO where a log should be ----------------------------------------
for f in task-1.comm task-0.exec run.info; do
	rm -rf fifo && cp -r rec fifo && rm "fifo/$f" && mkfifo "fifo/$f"
	msg="fifo/$f: not a regular file \(a FIFO\)"
	bounded "FIFO $f: dump" 1 "$msg" "$TRACE" dump fifo
	bounded "FIFO $f: dump --merged" 1 "$msg" "$TRACE" dump --merged fifo
	bounded "FIFO $f: import" 1 "$msg" "$TRACE" import fifo
	bounded "FIFO $f: stats" 1 "$msg" "$TRACE" stats fifo
	bounded "FIFO $f: replay" 1 "refusing to replay: $msg" \
		"$PANGAEA" -replay -logdir fifo
	[ -e fifo/trace.db ] && fail "FIFO $f: a trace.db was made" ||
		pass "FIFO $f: no trace.db made"
done
rm -rf fifo && cp -r rec fifo && rm fifo/task-1.exec && mkfifo fifo/task-1.exec
bounded "FIFO task-1.exec: dump -task 1" 1 \
	"fifo/task-1.exec: not a regular file \(a FIFO\)" "$TRACE" dump -task 1 fifo

# a FIFO as trace.db (made from the logs) is stale: stats reads the logs
# (never the FIFO), import makes a new database in its place
rm -rf fifo && cp -r rec fifo && mkfifo fifo/trace.db
t0=$(date +%s%N)
timeout -k 2 $LIMIT "$TRACE" stats fifo >out 2>err
rc=$?
expect_eq "FIFO trace.db: stats exit 0 ($((($(date +%s%N) - t0) / 1000000)) ms)" "$rc" 0
expect_grep "FIFO trace.db: stats printed" out "^PVM calls"
timeout -k 2 $LIMIT "$TRACE" import fifo >out 2>err
expect_eq "FIFO trace.db: import exit 0" "$?" 0
[ -f fifo/trace.db ] && [ ! -p fifo/trace.db ] && pass "FIFO trace.db: replaced by a database" ||
	fail "FIFO trace.db: still not a regular file"

# --- a folder where a log should be --------------------------------------
rm -rf dir && cp -r rec dir && rm dir/task-1001.exec && mkdir dir/task-1001.exec
bounded "folder task-1001.exec: dump" 1 "dir/task-1001.exec: is a directory" \
	"$TRACE" dump dir
grep -q 'empty execution log' err && fail "folder: called an empty log" ||
	pass "folder: not called an empty execution log"
bounded "folder task-1001.exec: replay" 1 \
	"refusing to replay: dir/task-1001.exec: is a directory" \
	"$PANGAEA" -replay -logdir dir

# --- dump exits 1 after refusing an exec log -----------------------------
rm -rf badexec && cp -r rec badexec
sed -i 's/ntask=2 /ntask=4294967298 /' badexec/task-1.exec
grep -q 'ntask=4294967298 ' badexec/task-1.exec || fail "could not edit task-1.exec"
bounded "ntask past 32 bits: dump" 1 "badexec/task-1.exec:3: cannot parse" \
	"$TRACE" dump badexec
grep -q '^task 1 ' out && pass "dump still prints task 1's comm log" ||
	fail "dump printed nothing of task 1"
rm -rf badexec && cp -r rec badexec
sed -i 's/\[1001@/[4294968297@/' badexec/task-1.exec
grep -q '4294968297@' badexec/task-1.exec || fail "could not edit task-1.exec"
bounded "ltid past 32 bits: import" 1 "badexec/task-1.exec:3: cannot parse" \
	"$TRACE" import badexec

# --- a log with its header and no record (dump read an uninitialised
# kind there: valgrind sees it) -------------------------------------------
rm -rf hdronly && cp -r rec hdronly
hl=$(od -An -tu4 -j12 -N4 rec/task-1001.comm | tr -d ' ')
truncate -s "$hl" hdronly/task-1001.comm
if ! command -v valgrind >/dev/null; then
	skip "dump of a header-only log under valgrind" "no valgrind"
	"$TRACE" dump -task 1001 hdronly >out 2>err
elif ldd "$TRACE" | grep -q libasan; then
	skip_ok "dump of a header-only log under valgrind" "a sanitizer build: valgrind cannot run it"
	"$TRACE" dump -task 1001 hdronly >out 2>err
else
	valgrind -q --error-exitcode=99 "$TRACE" dump -task 1001 hdronly >out 2>err
	expect_eq "header-only log: dump under valgrind exits 0" "$?" 0
fi
expect_grep "header-only log: called cut (run.info says it ended)" out \
	"log ends here: no end record, but run.info says the task ended \(pangaea_exit\): the log was cut"

# --- logs swapped between two tasks --------------------------------------
rm -rf swapped && cp -r rec swapped
mv swapped/task-1001.comm swapped/tmp && mv swapped/task-1002.comm swapped/task-1001.comm &&
	mv swapped/tmp swapped/task-1002.comm
bounded "swapped comm logs: replay" 1 \
	"refusing to replay: swapped/task-100[12].comm: header \(offset 16\) says task 100[12]" \
	"$PANGAEA" -replay -logdir swapped
bounded "swapped comm logs: import" 1 "swapped/task-100[12].comm: header \(offset 16\)" \
	"$TRACE" import swapped

# --- run.info: a task that ended but has no log --------------------------
rm -rf phantom && cp -r rec phantom
sed -n 's/^task 1002 tid=t[0-9a-f]*/task 1005 tid=t99999/p' rec/run.info >>phantom/run.info
line=$(grep -n '^task 1005 ' phantom/run.info | cut -d: -f1)
bounded "run.info phantom task: import" 1 "phantom/run.info:$line: task 1005 ended" \
	"$TRACE" import phantom
bounded "run.info phantom task: replay" 1 "phantom/run.info:$line: task 1005 ended" \
	"$PANGAEA" -replay -logdir phantom

# --- trace.db with times that cannot be real -----------------------------
if command -v sqlite3 >/dev/null; then
	rm -rf times && cp -r rec times
	"$TRACE" import times >/dev/null 2>&1
	id=$(sqlite3 times/trace.db "SELECT min(id) FROM events WHERE kind='send'")
	sqlite3 times/trace.db "UPDATE events SET t1 = 9223372036854775807 WHERE id = $id"
	bounded "trace.db t1 = 2^63-1: stats" 1 "times/trace.db: event id $id .*cannot be real" \
		"$TRACE" stats times
else
	skip "stats on impossible times" "no sqlite3 command"
fi

# nothing of the refused runs is left: no process, no private pvmd
expect_no_leftovers
left=$(ls -d "$PVM_TMP/pvmd.$(id -u).$VMID" "$PVM_TMP/pvml.$(id -u).$VMID" 2>/dev/null)
expect_eq "no PVM files of the test in /tmp" "$left" ""
finish
