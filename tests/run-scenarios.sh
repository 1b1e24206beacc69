#!/bin/bash
# Runs every scenario test (tests/scenario/*.sh) against the build dir $1.
# Prints each test's lines and a closing "scenario: N passed, M failed,
# K checks skipped" (N and M count tests; K the "skip: ..." lines of
# checks a test could not run here).  ONLY="name ..." runs just those tests.
set -u
B=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
pass=0 failed=0 skipped=0
work=$(mktemp -d /tmp/pgsc.XXXXXX)
log=$work/log
trap 'rm -rf "$work"' EXIT

# stale_pvmtmp DIR: PVM temporary files (pvmtmpPID.N) left in the test's
# PVM_TMP folder DIR by a process now gone (or a zombie): a pvmd or task
# killed in a handshake.  Every file there is the test's own: each test
# has a PVM_TMP folder of its own, where its pvmds and tasks (which get
# it from the pvmd's environment) put their files.
stale_pvmtmp() {
	local f p state
	for f in "$1"/pvmtmp*; do
		[ -e "$f" ] || continue
		p=${f##*/pvmtmp}; p=$((10#${p%%.*}))
		state=$(sed -n 's/.*) \(.\).*/\1/p' "/proc/$p/stat" 2>/dev/null)
		case $state in ''|Z|X) echo "${f##*/}" ;; esac
	done
}

for t in "$here"/scenario/*.sh; do
	name=$(basename "$t" .sh)
	[ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]] && continue
	echo "== scenario $name"
	start=$(date +%s)
	mkdir "$work/tmp"
	B=$B PVM_TMP=$work/tmp timeout 900 bash "$t" 2>&1 | tee "$log" | sed 's/^/   /'
	rc=${PIPESTATUS[0]}
	skips=$(grep -c '^skip: ' "$log")
	skipped=$((skipped + skips))
	left=$(stale_pvmtmp "$work/tmp")
	if [ -n "$left" ]; then
		echo "   FAIL: left PVM temporary files:" $left
		rc=1
	fi
	rm -rf "$work/tmp"
	took="$(( $(date +%s) - start )) s"
	[ "$skips" != 0 ] && took="$took, $skips checks skipped"
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1)); echo "== $name: passed ($took)"
	else
		failed=$((failed + 1)); echo "== $name: FAILED ($took)"
	fi
done
echo "scenario: $pass passed, $failed failed, $skipped checks skipped"
[ "$failed" = 0 ]
