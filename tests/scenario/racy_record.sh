# Recording racy: the logged receive order is the order the master printed,
# and the order really changes from run to run.
. "$(dirname "$0")/../lib.sh"
R=$B/examples/racy

for i in 1 2 3 4 5 6; do
	pg -log -logdir "rec$i" "$R" -w 3 -m 10
	expect_eq "run $i exits 0" "$(cat rc)" 0
	# worker numbers in the order the master printed them ...
	sed -n 's/^racy: recv worker=\([0-9]*\) seq=.*/\1/p' out >printed
	# ... and in the order the log recorded (worker W is ltid 1000+W)
	$TRACE dump -task 1 "rec$i" | sed -n 's/.* recv from=100\([0-9]\) .*tag=1 .*/\1/p' >logged
	expect_eq "run $i: 30 receives printed" "$(wc -l <printed)" 30
	if cmp -s printed logged; then pass "run $i: log order = printed order"
	else fail "run $i: log order differs from printed order"; fi
	for w in 1 2 3; do
		ids=$($TRACE dump -task 1 "rec$i" | sed -n "s/.* recv from=100$w msg=\([0-9]*\) tag=1 .*/\1/p" | tr '\n' ' ')
		expect_eq "run $i: worker $w's message ids in order" "$ids" "$(seq -s ' ' 1 10) "
	done
	grep digest out >>digests
done
n=$(sort -u digests | wc -l)
[ "$n" -ge 2 ] && pass "the race is real: $n different orders in 6 runs" ||
	fail "all 6 runs received in the same order"
expect_no_leftovers
finish
