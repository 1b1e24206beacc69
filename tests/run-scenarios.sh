#!/bin/bash
# Runs every scenario test (tests/scenario/*.sh) against the build dir $1.
# Prints each test's lines and a closing "scenario: N passed, M failed,
# K checks skipped" (N and M count tests; K the "skip: ..." lines of
# checks a test could not run here).  ONLY="name ..." runs just those tests.
set -u
B=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
pass=0 failed=0 skipped=0
mark=$(mktemp /tmp/pangaea-scenarios.XXXXXX)
log=$(mktemp /tmp/pangaea-scenario-log.XXXXXX)
trap 'rm -f "$mark" "$log"' EXIT

# PVM temporary files (pvmtmpPID.N) made since the mark whose process is
# gone (or a zombie): a pvmd or task killed in a handshake.  They are removed, since a
# later process with that pid would have libpvm complain in its output.
stale_pvmtmp() {
	local f p state
	find "${PVM_TMP:-/tmp}" -maxdepth 1 -name 'pvmtmp*' -user "$(id -u)" \
		-newer "$mark" 2>/dev/null | while read -r f; do
		p=${f##*/pvmtmp}; p=$((10#${p%%.*}))
		state=$(sed -n 's/.*) \(.\).*/\1/p' "/proc/$p/stat" 2>/dev/null)
		case $state in ''|Z|X) echo "$f"; rm -f "$f" ;; esac
	done
}

for t in "$here"/scenario/*.sh; do
	name=$(basename "$t" .sh)
	[ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]] && continue
	echo "== scenario $name"
	start=$(date +%s)
	touch "$mark"
	B=$B timeout 900 bash "$t" 2>&1 | tee "$log" | sed 's/^/   /'
	rc=${PIPESTATUS[0]}
	skips=$(grep -c '^skip: ' "$log")
	skipped=$((skipped + skips))
	left=$(stale_pvmtmp)
	if [ -n "$left" ]; then
		echo "   FAIL: left PVM temporary files:" $left
		rc=1
	fi
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
