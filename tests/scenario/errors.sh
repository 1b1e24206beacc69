# Bad input: one clear line, a non-zero exit, nothing left running.
. "$(dirname "$0")/../lib.sh"
C=$B/tests/ctxcheck

pg -log ./no-such-program
expect_eq "unknown program: exit 1" "$(cat rc)" 1
expect_grep "unknown program: said so" err "^pangaea: error: program not found or not executable: ./no-such-program$"

touch afile
pg -log -logdir afile/logs "$C"
expect_eq "unwritable log folder: exit 1" "$(cat rc)" 1
expect_grep "unwritable log folder: said so" err "^pangaea: error: cannot create log folder afile/logs"

pg -log -frobnicate "$C"
expect_eq "bad option: exit 1" "$(cat rc)" 1
expect_grep "bad option: said so" err "^pangaea: error: unknown option: -frobnicate$"
expect_grep "bad option: usage follows" err "^usage: pangaea -log"

pg "$C"
expect_eq "no mode: exit 1" "$(cat rc)" 1
pg -replay -logdir nowhere
expect_eq "missing recording: exit 1" "$(cat rc)" 1
expect_grep "missing recording: said so" err "nowhere is not a Pangaea recording"

pg -log -logdir rec "$C" 2
expect_eq "a good recording" "$(cat rc)" 0
pg -replay -logdir rec "$B/tests/killme"
expect_eq "log of another program: exit 1" "$(cat rc)" 1
expect_grep "log of another program: said so" err "the recording in rec ran .*ctxcheck, not .*killme"

cp -r rec badver && printf '\143' | dd of=badver/task-1001.comm bs=1 seek=8 conv=notrunc 2>/dev/null
pg -replay -logdir badver
expect_eq "wrong version: exit 1" "$(cat rc)" 1
V=$(sed -n 's/^#define PG_COMM_VERSION \([0-9]*\).*/\1/p' \
	"$TOP/logs/format/pangaea-formats.h")
expect_grep "wrong version: said so" err "refusing to replay: .*task-1001.comm: log format version 99, this Pangaea reads version $V"

cp -r rec cut && truncate -s -1 cut/task-1.comm
pg -replay -logdir cut
expect_eq "cut record: exit 1" "$(cat rc)" 1
expect_grep "cut record: offset named" err "refusing to replay: .*task-1.comm: truncated: record at offset [0-9]+ is cut off"

cp -r rec cut2
size=$($TRACE dump -task 1 rec | wc -l)
# cut task 1 exactly after its next-to-last record: find the offset by trial
for n in $(seq 1 64); do
	cp rec/task-1.comm cut2/task-1.comm && truncate -s -$n cut2/task-1.comm
	$TRACE dump -task 1 cut2 >/dev/null 2>&1 && break
done
pg -replay -logdir cut2
expect_eq "log cut at a record boundary: exit 1 ($size lines)" "$(cat rc)" 1
expect_grep "log cut at a record boundary: said so" err "truncated: it ends at offset [0-9]+ without the end record"

pg -log -flags trace,bogus "$C"
expect_eq "unknown spawn flag: exit 1" "$(cat rc)" 1
expect_grep "unknown spawn flag: named" err "^pangaea: error: -flags: unknown spawn flag 'bogus'"
pg -log -host here -arch LINUX64 "$C"
expect_eq "-host with -arch: exit 1" "$(cat rc)" 1
expect_grep "-host with -arch: said so" err "^pangaea: error: give -host or -arch, not both$"
pg -log -flags hostcompl "$C"
expect_eq "hostcompl without -host: exit 1" "$(cat rc)" 1
expect_grep "hostcompl without -host: said so" err "^pangaea: error: -flags hostcompl needs -host"
pg -replay -logdir rec -arch LINUX64
expect_eq "-arch on replay: exit 1" "$(cat rc)" 1
expect_grep "-arch on replay: said so" err "^pangaea: error: -host, -arch and -flags are for -log"
pg -log -logdir noarch -arch NOSUCHARCH "$C" 2
expect_eq "no host of that architecture: exit 1" "$(cat rc)" 1
expect_grep "no host of that architecture: said so" err "^pangaea: error: cannot start .*ctxcheck on architecture NOSUCHARCH: PVM error -6, No such host$"

# the reader of the output goes away (`| head -1`): the launcher must not
# die of SIGPIPE and leave the run behind (it did); the delay keeps the
# racy run printing well after head is gone
timeout 60 "$PANGAEA" -log -logdir piped -delay 20000 "$B/examples/racy" -w 2 -m 20 \
	2>err | head -1 >/dev/null
echo "${PIPESTATUS[0]}" >rc
expect_eq "closed output: the launcher exits 2" "$(cat rc)" 2
expect_grep "closed output: said so" err "^pangaea: error: the output was closed: stopping the run$"

echo garbage > rec2 2>/dev/null; mkdir -p corrupt && cp rec/* corrupt/ && echo "spawn what" >> corrupt/task-1.exec
pg -replay -logdir corrupt
expect_eq "corrupt exec log: exit 1" "$(cat rc)" 1
expect_grep "corrupt exec log: line named" err "task-1.exec:[0-9]+: cannot parse this line"
expect_no_leftovers
finish
