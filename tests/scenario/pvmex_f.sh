# The PVM distribution's Fortran examples (pvm-examples), built unmodified
# with gfortran through libfpvm3 (scripts/pvm-examples.sh: each file's own
# include '../include/fpvm3.h' resolves as in the PVM tree), recorded,
# replayed three times and once with -delay 2000 identically (tests/lib.sh
# pvmex_case).  frsg reads its problem size from standard input.
. "$(dirname "$0")/../lib.sh"
start=$(date +%s)
pvmex_build || { finish; exit; }
if [ ! -x "$PX/fmaster1" ]; then
	skip "the Fortran examples" "no gfortran"
	finish
	exit
fi

pvmex_case fmaster1 '^ I got +300\.0+ from' '' -- "$PX/fmaster1"
pvmex_case fspmd 'token ring done' '' -- -n 4 "$PX/fspmd"
pvmex_case fgexample 'Should be 100 factorial' '' -- "$PX/fgexample"
pvmex_case hitc 'Program Finished' '' -- "$PX/hitc"
printf '4\n5\n' >frsg.in
PVMEX_IN=frsg.in pvmex_case frsg 'Test OK: Sum of Squares of first +20 ' '' -- "$PX/frsg"
expect_grep "frsg: read the input (4 tasks, 5 elements)" frsg.out \
	'INPUT values: nprocs = +4 , count = +5$'

took=$(( $(date +%s) - start ))
[ "$took" -lt 60 ] && pass "all runs took ${took}s (< 60)" || fail "runs took ${took}s"
expect_no_leftovers
finish
