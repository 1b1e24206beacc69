# A sample of the fault soak (make soak, scripts/soak.sh): 6 runs with a
# fixed first seed, one of each of six fault kinds at random times past
# the start-up, 300-1500 ms (a worker killed, a worker stopped 2-4 s, the
# launcher interrupted, the coordinator killed, the pvmd stopped, the log
# folder's disk full).
# Each run must end in time, with the exit status and last line of its
# cause, leave nothing behind, keep its logs readable by the tools, and
# replay identically when it ended well; every violation fails the test
# (the soak prints SOAK_SEED=... to repeat it).
. "$(dirname "$0")/../lib.sh"

SOAK_RUNS=6 SOAK_SEED=${SOAK_SEED:-2911} SOAK_EACH=1 SOAK_MIN_MS=300 \
	SOAK_KINDS="kill-worker stop-worker term-launcher kill-coord stop-pvmd diskfull" \
	timeout 300 bash "$TOP/scripts/soak.sh" "$B" >soak.out 2>&1
rc=$?
sed 's/^/   | /' soak.out
runs=$(grep -c '^run [0-9]* seed' soak.out)
expect_eq "the sample ran its 6 faulted runs" "$runs" 6
grep -q VIOLATION soak.out && fail "violations: $(grep -c VIOLATION soak.out)" ||
	pass "no violation"
expect_eq "soak exit 0" "$rc" 0
finish
