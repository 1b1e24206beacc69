#!/bin/bash
# docs/img/make.sh [BUILD]: makes the README's pictures again, each as a
# person would: records examples/waiter and tests/outprint, then draws
# every view with `pangaea-view --show VIEW --snapshot` (timeline,
# utilization, stats with its histograms, output) and the statistics with
# `pangaea-trace stats --plot`.  BUILD is the build folder (default
# build; `make all` and its test programs must be made: `make images`
# does both).  Uses $DISPLAY, or a private Xvfb when there is none; a
# private virtual machine (PVM_VMID); leaves nothing behind but the
# pictures in docs/img/.
set -eu
cd "$(dirname "$0")/../.."
B=$(cd "${1:-build}" && pwd)
IMG=$(pwd)/docs/img
W=$(mktemp -d "${TMPDIR:-/tmp}/pangaea-img.XXXXXX")
XPID=
cleanup() {
	[ -n "$XPID" ] && kill "$XPID" 2>/dev/null && wait "$XPID" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
export PVM_ALLOW_ROOT=1 PVM_VMID=pangaea-img-$$
if [ -z "${DISPLAY:-}" ]; then
	for n in $(seq 150 199); do
		[ -e /tmp/.X$n-lock ] || [ -e /tmp/.X11-unix/X$n ] || break
	done
	Xvfb ":$n" -screen 0 1600x900x24 -nolisten tcp >/dev/null 2>&1 &
	XPID=$!
	export DISPLAY=:$n
	for i in $(seq 50); do [ -e /tmp/.X11-unix/X$n ] && break; sleep 0.1; done
fi
cd "$W"
# a run whose tasks compute, wait in a receive and at a barrier
"$B/bin/pangaea" -log -logdir waiter "$B/examples/waiter" 300 >/dev/null
# a master and its worker that print
echo alpha >f
"$B/bin/pangaea" -log -logdir outprint "$B/tests/outprint" "$W/f" >/dev/null
"$B/bin/pangaea-trace" import waiter >/dev/null
"$B/bin/pangaea-trace" import outprint >/dev/null
for v in timeline utilization stats; do
	"$B/bin/pangaea-view" --show $v --snapshot "$IMG/waiter-$v.png" waiter >/dev/null
done
"$B/bin/pangaea-view" --show output --snapshot "$IMG/outprint-output.png" outprint >/dev/null
"$B/bin/pangaea-trace" stats --plot plots waiter >/dev/null
for f in states calls granularity sizes; do
	cp "plots/$f.svg" "$IMG/waiter-$f.svg"
done
echo "docs/img: waiter-{timeline,utilization,stats}.png outprint-output.png" \
	"waiter-{states,calls,granularity,sizes}.svg made again"
