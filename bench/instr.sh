#!/bin/bash
# bench/instr.sh BUILDDIR CSV [CALLS]: instructions per wrapped call, a
# figure the load of the machine does not change.  Runs perfunc's p2p and
# mcast sets (CALLS calls a row, default 2000) plain, recorded and replayed
# with the measuring task under valgrind --tool=callgrind; perfunc zeroes
# callgrind's counts before each measured loop and dumps them after it
# (bench_count_start/stop), so each row's count is its loop's alone (user
# space instructions of the task, libpvm and libpangaea included; the
# kernel's work in the system calls is not counted).  Writes
# "mode,row,n,instructions" lines to CSV; bench/report.c prints them.
# Without valgrind, writes nothing and says so.
set -u
B=$(cd "${1:-build}" && pwd)
CSV=$2
N=${3:-2000}
: >"$CSV"
if ! command -v valgrind >/dev/null; then
	echo "instr.sh: valgrind is not installed: no instruction counts" >&2
	exit 0
fi
export PVM_ROOT=/usr/lib/pvm3
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=1
export PVM_VMID="pangaea-instr-$$"
export PANGAEA_OUTPUT_MASK='[a-z_]*ns=[0-9]+'
W=$(mktemp -d /tmp/pangaea-instr.XXXXXX)
. "$(dirname "$0")/vm.sh"

# the program pvmd starts: perfunc under callgrind, one dump file per
# measured loop named after CGOUT (exported to the task through PVM);
# perfunc is built with pangaea.h, so the libpangaea.so the launcher
# preloads into this script (as into any program it cannot tell) is
# left out: its entry points would add their pass-through to each call
cat >"$W/perfunc-cg" <<EOW
#!/bin/sh
unset LD_PRELOAD
exec valgrind --tool=callgrind -q --callgrind-out-file="\$CGOUT.%p" "$B/bench/perfunc" "\$@"
EOW
chmod +x "$W/perfunc-cg"
printf '* ep=%s:%s:/usr/lib/pvm3/lib:%s/bin/$PVM_ARCH\n%s\n' "$W" "$B/bench" \
	"$PVM_ROOT" "$(hostname)" >"$W/hosts"
vm_start hosts
echo "instr.sh: $N calls a row, private VM $PVM_VMID, scratch folder $W"
export PVM_EXPORT=CGOUT
for set in p2p mcast; do
	for mode in plain record replay; do
		export CGOUT=$W/cg-$mode-$set
		case $mode in
		plain) "$W/perfunc-cg" -set $set -n "$N" ;;
		record) "$B/bin/pangaea" -q -log -logdir "$W/rec-$set" \
			"$W/perfunc-cg" -set $set -n "$N" ;;
		replay) "$B/bin/pangaea" -q -replay -logdir "$W/rec-$set" \
			-out "$W/rep-$set" ;;
		esac >"$W/out" 2>&1 || { echo "instr.sh: $set $mode failed: $(grep -v '^RESULT' "$W/out" | head -1)" >&2; continue; }
		# each dump: "desc: Trigger: Client Request: ROW" ... "summary: I"
		for f in "$CGOUT".*; do
			[ -e "$f" ] || continue
			awk -v m=$mode -v n="$N" '/^desc: Trigger: Client Request:/ { row = $NF }
				/^summary:/ { if (row != "") print m "," row "," n "," $2 }' "$f"
		done >>"$CSV"
	done
done
