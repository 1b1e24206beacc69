#!/bin/bash
# Runs every scenario test (tests/scenario/*.sh) against the build dir $1.
# Prints each test's lines and a closing "scenario: N passed, M failed,
# K checks skipped" (N and M count tests; K the "skip: ..." lines of
# checks a test could not run here).  ONLY="name ..." runs just those tests.
#
# CHECK_JOBS tests run side by side (default 2); each one's lines go to a file
# and are printed together when it ends, so the order is that of their
# ends.  Each test has its virtual machine of its own already (lib.sh's
# PVM_VMID); here it also gets its own PVM_TMP folder, where its pvmds
# and tasks put their temporary files, and its own virtual cluster
# number (PANGAEA_HOSTS_CLUSTER, taken with a lock: another run on this
# machine takes others), so that two hosts tests can be up at once.
# The tests of SOLO time what they run (benchmarks, the launcher's
# overhead): they run alone, after the others.  Those of FIRST, the
# longest (seconds here, idle: hosts_lost 85, hosts_scale, pvmex_c and
# deadlock 33, kill 26, hosts and hosts_coord 25), start first, so
# that no long one is left running alone at the end.
set -u
B=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
JOBS=${CHECK_JOBS:-2}
SOLO=" bench overhead "
FIRST="hosts_lost hosts_scale pvmex_c deadlock kill hosts hosts_coord stdin explore"
pass=0 failed=0 skipped=0
work=$(mktemp -d /tmp/pgsc.XXXXXX)
trap 'rm -rf "$work"' EXIT
# On an interrupt the tests that run are ended as their time limit would
# end them: timeout (in a process group of its own, which the terminal's
# ^C does not reach) passes SIGTERM on, and each test's trap cleans up.
stop() {
	local f
	for f in "$work"/*/pid; do
		[ -e "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null
	done
	wait
	exit 130
}
trap stop INT TERM

# cluster_take SLOT: a virtual cluster number (1 to 250) for the tests of
# job SLOT, in cluster[SLOT]: the first whose lock file this run gets
# (held by a descriptor until the run ends) and whose bridge is not up.
declare -a cluster
cluster_take() {
	local k fd
	mkdir -p /run/lock 2>/dev/null
	for k in $(seq 1 250); do
		exec {fd}>"/run/lock/pangaea-hosts-$k.lock" 2>/dev/null || continue
		if flock -n "$fd" && ! ip link show "pgbr$k" >/dev/null 2>&1; then
			cluster[$1]=$k
			return
		fi
		exec {fd}>&-
	done
	cluster[$1]=0
}

# stale_pvmtmp DIR: PVM temporary files (pvmtmpPID.N) left in the test's
# PVM_TMP folder DIR by a process now gone (or a zombie): a pvmd or task
# killed in a handshake.  Every file there is the test's own.
stale_pvmtmp() {
	local f p state
	for f in "$1"/pvmtmp*; do
		[ -e "$f" ] || continue
		p=${f##*/pvmtmp}; p=$((10#${p%%.*}))
		state=$(sed -n 's/.*) \(.\).*/\1/p' "/proc/$p/stat" 2>/dev/null)
		case $state in ''|Z|X) echo "${f##*/}" ;; esac
	done
}

# run_one NAME SLOT: runs test NAME as job SLOT; its lines, verdict
# included, into $work/NAME.out, and "RC SKIPS" into $work/NAME.rc.
run_one() {
	local name=$1 d=$work/$1 start rc skips left took
	mkdir -p "$d/tmp"
	start=$(date +%s)
	B=$B PVM_TMP=$d/tmp PANGAEA_HOSTS_CLUSTER=${cluster[$2]} \
		timeout 900 bash "$here/scenario/$name.sh" >"$d/log" 2>&1 </dev/null &
	echo $! >"$d/pid"
	wait $!
	rc=$?
	skips=$(grep -c '^skip: ' "$d/log")
	{
		echo "== scenario $name"
		sed 's/^/   /' "$d/log"
		left=$(stale_pvmtmp "$d/tmp")
		if [ -n "$left" ]; then
			echo "   FAIL: left PVM temporary files:" $left
			rc=1
		fi
		took="$(( $(date +%s) - start )) s"
		[ "$skips" != 0 ] && took="$took, $skips checks skipped"
		if [ "$rc" = 0 ]; then echo "== $name: passed ($took)"
		else echo "== $name: FAILED ($took)"; fi
	} >"$work/$name.out"
	echo "$rc $skips" >"$work/$name.rc"
	rm -rf "$d"
}

# done_one NAME: prints test NAME's lines and counts its verdict.
done_one() {
	local rc skips
	cat "$work/$1.out"
	read -r rc skips <"$work/$1.rc"
	skipped=$((skipped + skips))
	if [ "$rc" = 0 ]; then pass=$((pass + 1)); else failed=$((failed + 1)); fi
}

names=() solo=()
for name in $FIRST $(cd "$here/scenario" && ls -- *.sh | sed 's/\.sh$//'); do
	[ -e "$here/scenario/$name.sh" ] || continue
	[[ " ${names[*]} ${solo[*]} " == *" $name "* ]] && continue
	[ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]] && continue
	if [[ $SOLO == *" $name "* ]]; then solo+=("$name"); else names+=("$name"); fi
done
for s in $(seq 1 "$JOBS"); do cluster_take "$s"; done

# the side-by-side tests: a free job slot takes the next one
declare -A slot_of name_of
mapfile -t free < <(seq 1 "$JOBS")
for name in "${names[@]}"; do
	if [ "${#free[@]}" = 0 ]; then
		wait -n -p p
		done_one "${name_of[$p]}"
		free=("${slot_of[$p]}")
		unset "name_of[$p]"
	fi
	run_one "$name" "${free[0]}" &
	slot_of[$!]=${free[0]} name_of[$!]=$name
	free=("${free[@]:1}")
done
while [ "${#name_of[@]}" -gt 0 ]; do
	wait -n -p p
	done_one "${name_of[$p]}"
	unset "name_of[$p]"
done
for name in "${solo[@]}"; do
	run_one "$name" 1
	done_one "$name"
done
echo "scenario: $pass passed, $failed failed, $skipped checks skipped"
[ "$failed" = 0 ]
