# Groups under record and replay: a ring over group instances (instance
# numbers follow the join order, which changes from run to run), a
# floating-point pvm_reduce whose sum depends on the order of the
# additions, pvm_gather and pvm_scatter by instance, a broadcast, a multicast to wildcard receivers, the same
# buffer sent twice.
. "$(dirname "$0")/../lib.sh"
G=$B/examples/groups

# The sum pvm_reduce must give under Pangaea for recording DIR: worker
# me's value (as in groups.c) added in instance order, from the log's joins.
instance_order_sum() {
	$TRACE dump "$1" | awk '
		/^task / { l = $2; me = l == 1 ? 0 : l - 1000 }
		/ group joingroup\("ring", 0\) = / { at[$(NF - 1)] = me }
		END {
			for (i = 0; i < 4; i++) {
				v = at[i] == 1 ? 1e16 : at[i] == 2 ? -1e16 : at[i] == 0 ? 0.5 : 3.0
				s = i ? s + v : v
			}
			printf "%.17g\n", s
		}'
}

for i in 1 2 3 4; do
	pg -log -logdir "rec$i" "$G" 4 3
	expect_eq "recording $i exits 0" "$(cat rc)" 0
	mv out "rec$i.out"
	grep token "rec$i.out" >>tokens
	grep sum "rec$i.out" >>sums
	expect_eq "recording $i: pvm_reduce added in instance order" \
		"$(grep sum "rec$i.out")" "groups: sum $(instance_order_sum "rec$i")"
	# the ring goes by instance too: its first lap is the gather's order
	expect_eq "recording $i: pvm_gather placed the data by instance" \
		"$(sed -n 's/^groups: gathered//p' "rec$i.out")" \
		"$(sed -n 's/^groups: token\(\( [0-9]*\)\{4\}\).*/\1/p' "rec$i.out")"
	expect_eq "recording $i: 3 of 3 replays identical" \
		"$(replays_identical "rec$i" 3 2000)" 3
done
echo "   token orders seen: $(sort -u tokens | wc -l), sums seen: $(sort -u sums | tr '\n' ' ')"

$TRACE dump rec1 >d
expect_grep "joins are logged with their instance" d 'group joingroup\("ring", 0\) = [0-3] '
expect_grep "gettid is logged as an ltid" d 'group gettid\("ring", [0-3]\) = (1|100[1-3]) '
expect_grep "the broadcast names its group and receivers" d 'bcast group="ring" to=\[[0-9 ]+\] tag=22 '
expect_grep "the multicast names its receivers" d 'mcast to=\[1001 1002 1003\] tag=24 '
n=$(grep -c 'send to=1001 tag=25 ' d)
expect_eq "one buffer sent twice: two sends" "$n" 2
ids=$(sed -n 's/.*send to=1001 tag=25 msg=\([0-9]*\) .*/\1/p' d | sort -u | wc -l)
expect_eq "... with two message ids" "$ids" 2
r=$($TRACE dump -task 1001 rec1 | grep -c 'recv from=1 msg=[0-9]* tag=25 ')
expect_eq "... both received as their own messages" "$r" 2
b=$(grep -c 'recv from=[0-9]* msg=[0-9]* tag=22 ' d)
expect_eq "three tasks receive the broadcast" "$b" 3
# a program that goes round the ring fewer times diverges at a group call
# or a send, with the usual report
pg -replay -logdir rec1 -out bad "$G" 4 2
expect_eq "a replay with fewer rounds exits 3" "$(cat rc)" 3
expect_grep "... and says where" err 'replay diverged: task [0-9]+ \(.*groups on .*\), event [0-9]+: the log expects '
expect_no_leftovers
finish
