# pangaea-trace races on real recordings: racy's wildcard receives race
# (and the event numbers are the dump's), racy -poll's polls, the joins of
# groups, and sor's halo rows, taken from fixed neighbours with a tag per
# direction, never race (its residuals, taken with pvm_recv(-1, tag), do).
. "$(dirname "$0")/../lib.sh"
E=$B/examples

pg -log -logdir racy "$E/racy" -w 3 -m 5
expect_eq "racy recorded" "$(cat rc)" 0
$TRACE races racy >races.txt 2>err; rc=$?
expect_eq "races exits 0" "$rc" 0
expect_grep "summary line" races.txt '^[1-9][0-9]* racing receives in 1 tasks, [1-9][0-9]* alternatives$'
# the master takes 15 answers from 3 workers: every receive but the last
# few could have got another worker's answer
n=$(grep -c '^task 1 event [0-9]* pvm_recv got 100[123]:' races.txt)
[ "$n" -ge 10 ] && pass "racy: $n racing receives of the master" ||
	fail "racy: only $n racing receives of the master"
# every racing event is a receive the dump numbers the same way, and
# its alternatives are other workers' answers, none of its own sender
bad=0
while read -r _ l _ ev _ _ got rest; do
	from=${got%%:*} id=${got#*:}
	$TRACE dump -task "$l" racy | grep -q "^  #$ev recv from=$from msg=$id tag=1 " || bad=$((bad + 1))
	case $rest in *" $from:"*) bad=$((bad + 1)) ;; esac
done < <(grep '^task ' races.txt)
expect_eq "racy: event numbers agree with the dump, no own-sender alternative" "$bad" 0
# JSON and CSV say the same
$TRACE races --json racy >races.json
expect_eq "json: as many races as the text" \
	"$(python3 -c 'import json,sys; d=json.load(open("races.json")); print(len(d["races"]), d["racing"])')" \
	"$n $(grep -c '^task ' races.txt)"
$TRACE races --csv racy >races.csv
expect_eq "csv: one row per alternative" "$(($(wc -l <races.csv) - 1))" \
	"$(sed -n 's/.* \([0-9]*\) alternatives$/\1/p' races.txt)"
# a clean run with one worker has nothing to race with
pg -log -logdir one "$E/racy" -w 1 -m 3
$TRACE races one >one.txt; rc=$?
expect_eq "one worker: exits 0" "$rc" 0
expect_eq "one worker: no races" "$(cat one.txt)" "0 racing receives in 0 tasks, 0 alternatives"

# polls: racy -poll takes the answers with pvm_nrecv
pg -log -logdir poll "$E/racy" -w 2 -m 5 -poll
expect_eq "racy -poll recorded" "$(cat rc)" 0
$TRACE races poll >poll.txt
expect_grep "a pvm_nrecv that could have got another message or none" poll.txt \
	'^task 1 event [0-9]+ pvm_nrecv got 100[12]:[0-9]+ tag 1; alternatives: .*nothing'

# groups: 4 tasks join "ring" concurrently
pg -log -logdir groups "$E/groups" 4 2
expect_eq "groups recorded" "$(cat rc)" 0
$TRACE races groups >groups.txt
expect_grep "concurrent joins race" groups.txt \
	'^task [0-9]+ event [0-9]+ pvm_joingroup got instance [0-9]+; alternatives: [0-9]+ \(instance'

# sor: halo rows (tags 11, 12) never race; residuals (13, 14) do
pg -log -logdir sor "$E/sor" 3 12 4
expect_eq "sor recorded" "$(cat rc)" 0
$TRACE races --csv sor >sor.csv
expect_eq "sor: no race on halo rows" "$(awk -F, '$7 == 11 || $7 == 12' sor.csv | wc -l)" 0
[ "$(awk -F, '$7 == 13 || $7 == 14' sor.csv | wc -l)" -gt 0 ] &&
	pass "sor: the residuals' wildcard receives race" ||
	fail "sor: no race on the residuals"

# unreadable folder: exit 1 with a message
$TRACE races nowhere >/dev/null 2>err; rc=$?
expect_eq "no logs: exit 1" "$rc" 1
expect_grep "no logs: says why" err 'pangaea-trace: nowhere'
expect_no_leftovers
finish
