# Programs meant to be started one after another (PVM's task0 / task1 /
# task_end pattern, examples/staged): started at once with ':' the client
# finds no server and the run deadlocks; -staged starts each once the one
# before waits in a PVM call, -stagger MS after a delay.  The start mode is
# recorded in task-0.exec and the replay starts the programs the same way.
. "$(dirname "$0")/../lib.sh"
S=$B/examples/staged
sorted() { sort "$1" | tr '\n' '|'; }

# without the option: the client and the end program find no server
start=$(date +%s)
pg -log -logdir together "$S" server svc : "$S" client svc : "$S" end svc
expect_eq "all at once: the run deadlocks (exit 3)" "$(cat rc)" 3
expect_grep "all at once: the client finds no server" out "^client: no server svc"
expect_grep "all at once: the deadlock is named" err "deadlock: every task is blocked"
expect_eq "all at once: no start line in task-0.exec" \
	"$(grep -c '^start' together/task-0.exec)" 0

# -staged: each program once the one before waits (or ended)
pg -log -logdir staged -staged "$S" server svc : "$S" client svc : "$S" end svc
expect_eq "-staged: record exit 0" "$(cat rc)" 0
expect_grep "-staged: the client is answered" out "^client: welcome, request number 1$"
expect_grep "-staged: the server stops" out "^server: handled 1 request\(s\), stopping$"
expect_grep "-staged: the end program found the server" out "^end: told the server to stop$"
expect_grep "-staged: recorded in task-0.exec" staged/task-0.exec "^start staged$"
cp out staged.out
# replay: the same start mode; no option needed, one is refused
pg -replay -logdir staged
expect_eq "-staged replay: exit 0" "$(cat rc)" 0
expect_eq "-staged replay: same output" "$(sorted out)" "$(sorted staged.out)"
expect_grep "-staged replay: reproduced" err "replay reproduced all"
expect_grep "-staged replay: logs its start line" staged.replay-1/task-0.exec "^start staged$"
pg -replay -logdir staged -out staged.r2 -delay 20000
expect_eq "-staged replay with delays: exit 0" "$(cat rc)" 0
expect_eq "-staged replay with delays: same output" "$(sorted out)" "$(sorted staged.out)"
pg -replay -logdir staged -staged
expect_eq "-staged on replay: refused" "$(cat rc)" 1
expect_grep "-staged on replay: said so" err "^pangaea: error: -staged and -stagger are for -log"

# -stagger MS: a fixed delay between the starts, replayed as recorded
pg -log -logdir stagger -stagger 1500 "$S" server svc : "$S" client svc : "$S" end svc
expect_eq "-stagger: record exit 0" "$(cat rc)" 0
expect_grep "-stagger: recorded in task-0.exec" stagger/task-0.exec "^start stagger=1500$"
cp out stagger.out
t0=$(date +%s%N)
pg -replay -logdir stagger
t1=$(date +%s%N)
expect_eq "-stagger replay: exit 0" "$(cat rc)" 0
expect_eq "-stagger replay: same output" "$(sorted out)" "$(sorted stagger.out)"
[ $(( (t1 - t0) / 1000000 )) -ge 3000 ] && pass "-stagger replay: waited 2 x 1.5 s" ||
	fail "-stagger replay: took only $(( (t1 - t0) / 1000000 )) ms"
pg -log -logdir bad -stagger soon "$S" server svc
expect_eq "-stagger without a number: exit 1" "$(cat rc)" 1
expect_grep "-stagger without a number: said so" err "^pangaea: error: -stagger needs a number >= 0$"

end=$(date +%s)
[ $((end - start)) -lt 50 ] && pass "bounded time ($((end - start)) s)" ||
	fail "took $((end - start)) s"
expect_no_leftovers
finish
