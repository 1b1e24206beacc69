#!/bin/bash
# make demo: record a racy master/worker run, replay it, catch a crash and
# replay that; then find the crash from a clean recording (-explore).  Every run starts (and halts) its own private virtual machine.
set -u
B=$(cd "${1:-build}" && pwd)
P=$B/bin/pangaea
RACY=$B/examples/racy
export PVM_ROOT=/usr/lib/pvm3
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
unset PVM_VMID
D=$(mktemp -d /tmp/pangaea-demo.XXXXXX)
trap 'rm -rf "$D"' EXIT
cd "$D" || exit 1

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "1. Record a run of racy: 3 workers race to send the master 4 messages each"
"$P" -log -logdir rec "$RACY" -w 3 -m 4 || exit 1

step "2. Replay it three times with random delays of up to 2 ms in every PVM call"
for i in 1 2 3; do
	"$P" -q -replay -logdir rec -out "rep$i" -delay 2000 >"rep$i.out" || exit 1
	"$B/bin/pangaea-trace" verify rec "rep$i" | sed "s/^/replay $i: /"
done
echo "replay 1 printed:"; grep digest rep1.out

step "3. The recording as text (the master's receives, in the recorded order)"
"$B/bin/pangaea-trace" dump -task 1 rec | head -8

step "4. Record racy -crash until the bad order strikes (the master segfaults)"
for try in $(seq 1 30); do
	rm -rf crash
	if ! "$P" -q -log -logdir crash "$RACY" -w 2 -m 4 -crash >crash.out 2>crash.err; then
		echo "caught it on run $try:"; cat crash.out | tail -2; cat crash.err; break
	fi
done
[ -d crash ] && grep -q "killed by signal" crash.err || { echo "no crash in 30 runs"; exit 1; }

step "5. Replay the crash: it strikes again, every time"
for i in 1 2 3; do
	"$P" -q -replay -logdir crash -out "crashrep$i" -delay 1000 >/dev/null 2>"crashrep$i.err"
	echo "replay $i (exit $?): $(grep -o 'task 1 .*' "crashrep$i.err")"
done

step "6. Find it from one clean run: the racing receives, then -explore tries the other orders"
for try in $(seq 1 30); do
	rm -rf clean
	"$P" -q -log -logdir clean "$RACY" -w 3 -m 4 -crash >/dev/null 2>&1 && break
done
[ -d clean ] || { echo "no clean run in 30"; exit 1; }
echo "a clean recording (the master survived on run $try); its races:"
"$B/bin/pangaea-trace" races clean | tail -1
PANGAEA_OUTPUT_MASK='worker=[0-9] seq=[0-9]|digest=[0-9a-f]+' \
	"$P" -explore -budget 10 -logdir clean 2>/dev/null
echo "(-explore exit $?: 4 = some order behaves differently)"
kept=$(ls -d clean.explore/[0-9]* 2>/dev/null | head -1)
[ -n "$kept" ] || { echo "-explore kept no run"; exit 1; }
"$P" -q -replay -logdir "$kept" -out keptrep >/dev/null 2>keptrep.err
echo "replaying $kept (exit $?): $(grep -o 'task 1 .*' keptrep.err)"

step "Done: the logs were in $D and are removed now."
