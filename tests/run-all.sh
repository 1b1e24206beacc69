#!/bin/bash
# make check: the unit suites, then the scenario tests; one closing line.
set -u
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/run-unit.sh" "$B" | tee /tmp/pangaea-unit.$$
u=${PIPESTATUS[0]}
bash "$here/run-scenarios.sh" "$B" | tee /tmp/pangaea-scen.$$
s=${PIPESTATUS[0]}
up=$(sed -n 's/^unit: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' /tmp/pangaea-unit.$$)
sp=$(sed -n 's/^scenario: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) checks skipped$/\1 \2 \3/p' /tmp/pangaea-scen.$$)
# the failures again, together, just above the closing line: a long
# log's reader finds them there without searching
if [ "$u" != 0 ] || [ "$s" != 0 ]; then
	echo "== what failed:"
	grep -hE '^== [a-z_0-9]+: FAILED|^ +FAIL|^ +[^ ]+\.c:[0-9]+:[EF]:' \
		/tmp/pangaea-unit.$$ /tmp/pangaea-scen.$$ | head -60
fi
rm -f /tmp/pangaea-unit.$$ /tmp/pangaea-scen.$$
set -- ${up:-0 1} ${sp:-0 1 0}
echo "$(( $1 + $3 )) passed, $(( $2 + $4 )) failed, $5 scenario checks skipped"
[ "$u" = 0 ] && [ "$s" = 0 ]
