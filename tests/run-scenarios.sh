#!/bin/bash
# Runs every scenario test (tests/scenario/*.sh) against the build dir $1.
# Prints each test's lines and a closing "scenario: N passed, M failed".
set -u
B=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
pass=0 failed=0
for t in "$here"/scenario/*.sh; do
	name=$(basename "$t" .sh)
	echo "== scenario $name"
	start=$(date +%s)
	if B=$B timeout 900 bash "$t" 2>&1 | sed 's/^/   /'; [ "${PIPESTATUS[0]}" = 0 ]; then
		pass=$((pass + 1)); echo "== $name: passed ($(( $(date +%s) - start )) s)"
	else
		failed=$((failed + 1)); echo "== $name: FAILED ($(( $(date +%s) - start )) s)"
	fi
done
echo "scenario: $pass passed, $failed failed"
[ "$failed" = 0 ]
