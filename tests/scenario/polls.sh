# Non-blocking receives replay their outcomes: the same number of failed
# polls before each message (pvm_nrecv with back-off, pvm_probe then
# pvm_recv, pvm_trecv timeouts); pvm_psend/pvm_precv; pvm_notify exit
# notices taken by a wildcard receive.
. "$(dirname "$0")/../lib.sh"
X=$B/examples/pollers

for mode in nrecv probe trecv psend notify; do
	for i in 1 2; do
		pg -log -logdir "$mode$i" "$X" -mode "$mode" -w 3 -m 4
		expect_eq "$mode recording $i exits 0" "$(cat rc)" 0
		mv out "$mode$i.out"
		expect_eq "$mode recording $i: replays print the same, poll counts included" \
			"$(replays_identical "$mode$i" 2 1500)" 2
	done
done
# the poll counts are real: some message came after failed polls
f=$(cat nrecv1.out nrecv2.out probe1.out probe2.out trecv1.out trecv2.out |
	sed -n 's/.*after \([0-9]*\) failed polls/\1/p' | sort -nu | tail -1)
[ "${f:-0}" -gt 0 ] && pass "failed polls were counted (max $f)" || fail "no failed poll at all"
$TRACE dump -task 1 nrecv1 >d
expect_grep "failed polls are logged as counts" d 'pollfail count=[0-9]+ '
$TRACE dump -task 1 psend1 >d
expect_grep "pvm_precv is logged" d 'recv from=100[1-3] msg=[0-9]+ tag=41 len=8 via=pvm_precv'
$TRACE dump -task 1001 psend1 >d
expect_grep "pvm_psend is logged" d 'psend to=1 tag=41 '
$TRACE dump -task 1 notify1 >d
n=$(grep -c 'recv from=pvmd about=100[1-3] tag=42 ' d)
expect_eq "three exit notices, each naming its task" "$n" 3
expect_no_leftovers
finish
