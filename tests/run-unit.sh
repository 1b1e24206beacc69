#!/bin/bash
# Runs every Check unit suite (build/tests/check_*) of the build dir $1.
# Prints each suite's summary and a closing "unit: N passed, M failed",
# where N and M count single checks, not suites.
set -u
B=$(cd "${1:-build}" && pwd)
pass=0 failed=0 status=0
for t in "$B"/tests/check_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	echo "== unit $name"
	out=$(cd /tmp && CK_DEFAULT_TIMEOUT=60 timeout 600 "$t" 2>&1)
	rc=$?
	echo "$out" | sed 's/^/   /'
	line=$(echo "$out" | sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' | tail -1)
	if [ -z "$line" ]; then
		echo "   FAIL: $name printed no summary (exit $rc)"
		failed=$((failed + 1)); status=1; continue
	fi
	set -- $line
	pass=$((pass + $1 - $2 - $3)); failed=$((failed + $2 + $3))
	[ "$rc" = 0 ] && [ $(($2 + $3)) = 0 ] || status=1
done
echo "unit: $pass passed, $failed failed"
exit $status
