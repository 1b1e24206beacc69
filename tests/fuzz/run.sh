#!/bin/bash
# tests/fuzz/run.sh FUZZDIR SECONDS NAME...: for each harness FUZZDIR/fuzz_NAME
# (built by `make fuzz`), replays the whole corpus tests/fuzz/corpus/NAME
# (seeds and regress-* inputs), then fuzzes it for SECONDS.  Fails on any
# finding: a crash, an ASan or UBSan report, a leak, a timeout (10 s for
# one input) or running out of memory.  New inputs go to FUZZDIR/work/NAME,
# findings to FUZZDIR/findings/, libFuzzer's output to FUZZDIR/NAME.log; the
# harnesses' files to a temporary folder (in /dev/shm when there is one)
# removed at the end.
# Ends with one line: "fuzz: N harnesses, E runs, F findings".
set -u
FZ=${1:?fuzz build folder}
SECONDS_EACH=${2:?seconds}
shift 2
corpus=$(cd "$(dirname "$0")" && pwd)/corpus
# (in memory when it can: a harness writes a file for every run)
shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=${TMPDIR:-/tmp}
tmp=$(mktemp -d "$shm/pangaea-fuzz-run.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp
# (the harnesses print what they read and libpvm what it misses: fd 1, 2)
common=(-close_fd_mask=3 -timeout=10 -rss_limit_mb=2048)
findings=0
total=0

# field NAME LOG: libFuzzer's final stat NAME in LOG.
field() { sed -n "s/^stat::$1: *//p" "$2" | tail -1; }

for n in "$@"; do
	bin=$FZ/fuzz_$n
	log=$FZ/$n.log
	mkdir -p "$FZ/findings" "$FZ/work"
	rm -rf "$FZ/work/$n" && mkdir -p "$FZ/work/$n"
	# 1. the corpus, every input once (regressions first)
	inputs=("$corpus/$n"/*)
	if ! "$bin" "${common[@]}" "${inputs[@]}" >"$log" 2>&1; then
		echo "fuzz: $n: FAIL: an input of tests/fuzz/corpus/$n fails again:"
		grep -E 'Running:|ERROR|runtime error|SUMMARY' "$log" | tail -8
		findings=$((findings + 1))
		continue
	fi
	# 2. fuzzing, from the corpus
	if "$bin" "${common[@]}" -max_total_time="$SECONDS_EACH" \
		-print_final_stats=1 -artifact_prefix="$FZ/findings/$n-" \
		"$FZ/work/$n" "$corpus/$n" >>"$log" 2>&1; then
		result=ok
	else
		result=FAIL
		findings=$((findings + 1))
	fi
	runs=$(field number_of_executed_units "$log")
	speed=$(field average_exec_per_sec "$log")
	total=$((total + ${runs:-0}))
	echo "fuzz: $n: $result: ${runs:-?} runs in ${SECONDS_EACH} s" \
	     "(${speed:-?}/s), corpus $(ls "$corpus/$n" | wc -l)" \
	     "+ $(ls "$FZ/work/$n" | wc -l) new inputs"
	if [ "$result" = FAIL ]; then
		grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$log" |
			tail -8 | sed 's/^/    /'
		echo "    (whole output: $log; minimise with" \
		     "$bin -minimize_crash=1 -runs=10000 FILE," \
		     "then keep it as tests/fuzz/corpus/$n/regress-NAME)"
	fi
done
echo "fuzz: $# harnesses, $total runs, $findings findings"
[ "$findings" = 0 ]
