# Unmodified PVM programs (LD_PRELOAD=libpangaea.so), built here with plain
# `cc ... -lpvm3`: a master/worker race whose workers are spawned by bare
# name (found on the pvmd's ep= path) and a program using groups
# (-lgpvm3) are recorded and replayed identically, each PVM call recorded
# once (libgpvm3's own traffic with its group server is not); a pangaea.h
# worker under a preloaded master is recorded once; a statically linked
# program is refused before the run; a worker built without Pangaea under
# a pangaea.h master is named "not instrumented" (exit 2) and such a run
# is never called identical.  The PVM distribution's master1/slave1
# (pvm-examples), as packaged and built here unmodified (C, and Fortran
# through libfpvm3), record and replay; so does the race built as C++.
SRC=$(cd "$(dirname "$0")/../.." && pwd) # before lib.sh moves to $T
. "$SRC/tests/lib.sh"
# The build's sanitizers, which a program linked with libpangaea.a needs
# too (libpangaea.so is built without them).
san=
nm "$B/lib/libpangaea.a" 2>/dev/null | grep -q '__asan_' && san=address
nm "$B/lib/libpangaea.a" 2>/dev/null | grep -q '__ubsan_' && san=${san:+$san,}undefined
SANFLAGS=${san:+-fsanitize=$san}
# (in an ASan build, a task built with it may get LD_PRELOAD too: lib.sh's
# ASAN_OPTIONS let ASan accept not coming first)

cat >plainracy.c <<'EOF'
/* plainracy: a master/worker race in plain PVM (no pangaea.h).  The
 * master spawns 3 workers (argv[1], default plainracy, by bare name),
 * each sends it 8 numbered messages after random pauses; the master
 * prints them in the order its wildcard receive got them. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <pvm3.h>

int main(int argc, char **argv)
{
	int me = pvm_mytid(), parent = pvm_parent(), tids[3], w, s, i;
	unsigned seed;

	if (me < 0)
		return 1;
	if (parent == PvmNoParent) {
		char *prog = argc > 1 ? argv[1] : (char *)"plainracy";

		if (pvm_spawn(prog, NULL, 0, (char *)"", 3, tids) != 3) {
			fprintf(stderr, "spawn failed\n");
			pvm_exit();
			return 1;
		}
		for (i = 0; i < 3; i++) {
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&i, 1, 1);
			pvm_send(tids[i], 99);
		}
		for (i = 0; i < 24; i++) {
			pvm_recv(-1, 1);
			pvm_upkint(&w, 1, 1);
			pvm_upkint(&s, 1, 1);
			printf("recv worker=%d seq=%d\n", w, s);
		}
		printf("done\n");
		pvm_exit();
		return 0;
	}
	pvm_recv(parent, 99);
	pvm_upkint(&w, 1, 1);
	seed = (unsigned)time(NULL) ^ (unsigned)getpid();
	for (s = 1; s <= 8; s++) {
		usleep(rand_r(&seed) % 1000);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&w, 1, 1);
		pvm_pkint(&s, 1, 1);
		pvm_send(parent, 1);
	}
#ifndef WORKERS_EXIT
	if (w != 1)
		return 0; /* the others leave by returning from main */
#endif
	pvm_exit();
	return 0;
}
EOF
cat >plaingroup.c <<'EOF'
/* plaingroup: group calls in plain PVM (no pangaea.h; -lgpvm3). */
#include <stdio.h>
#include <pvm3.h>

int main(void)
{
	int me = pvm_mytid(), tids[2], inst, v, i, from, sum;

	if (me < 0)
		return 1;
	inst = pvm_joingroup("g");
	if (pvm_parent() == PvmNoParent &&
	    pvm_spawn("plaingroup", NULL, 0, "", 2, tids) != 2) {
		fprintf(stderr, "spawn failed\n");
		pvm_exit();
		return 1;
	}
	pvm_barrier("g", 3);
	if (inst == 0) {
		v = 42;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&v, 1, 1);
		pvm_bcast("g", 5);
		for (i = 0; i < 2; i++) {
			pvm_recv(-1, 6);
			pvm_upkint(&from, 1, 1);
			printf("answer from instance %d\n", from);
		}
	} else {
		pvm_recv(-1, 5);
		pvm_upkint(&v, 1, 1);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&inst, 1, 1);
		pvm_send(pvm_gettid("g", 0), 6);
	}
	sum = inst;
	pvm_reduce(PvmSum, &sum, 1, PVM_INT, 7, "g", 0);
	if (inst == 0)
		printf("sum of instances %d, size %d\n", sum, pvm_gsize("g"));
	pvm_barrier("g", 3);
	pvm_lvgroup("g");
	pvm_exit();
	return 0;
}
EOF
# srcracy: the same race built with pangaea.h (pangaea_init, pangaea_exit)
sed -e 's|#include <pvm3.h>|#include <pangaea.h>|' \
    -e 's|^int main(int argc, char \*\*argv)|static int body(int argc, char **argv)|' \
    -e 's|pvm_exit();|pangaea_exit(), pvm_exit();|' plainracy.c >srcracy.c
cat >>srcracy.c <<'EOF'

int main(int argc, char **argv)
{
	int rc;

	pangaea_init(&argc, &argv);
	rc = body(argc, argv);
	pangaea_exit(); /* and pvm_exit: without it PVM may lose the last sends */
	pvm_exit();
	return rc;
}
EOF
cc -o plainracy plainracy.c -lpvm3 &&
cc -DWORKERS_EXIT -o plainexit plainracy.c -lpvm3 &&
cc -o plaingroup plaingroup.c -lgpvm3 -lpvm3 &&
cc $SANFLAGS -I"$SRC/pangaea_lib" -o srcracy srcracy.c "$B/lib/libpangaea.a" -lgpvm3 -lpvm3 -lm &&
cc -o staticracy plainracy.c /usr/lib/x86_64-linux-gnu/libpvm3.a -ltirpc ||
	{ fail "cannot build the test programs"; finish; exit; }

# count_events DIR LTID WORD: how many events of task LTID in DIR's dump
# are WORD (send, recv, bcast, ...).
count_events() {
	$TRACE dump "$1" | awk -v t="task $2 " -v w="$3" '
		/^task / { on = index($0, t) == 1 } on && $2 == w { n++ }
		END { print n + 0 }'
}

# 1. the race, unmodified: each worker's log exists (bare-name spawns got
# LD_PRELOAD) and holds its 8 sends once; replays are identical
start=$(date +%s)
pg -log -logdir race ./plainracy
expect_eq "plain race: recording exits 0" "$(cat rc)" 0
expect_eq "plain race: 24 messages and done" "$(grep -c '^recv worker=' out) $(tail -1 out)" "24 done"
expect_grep "plain race: 4 tasks recorded" err "recorded [0-9]+ events of 4 tasks"
mv out race.out
expect_eq "plain race: every task ended normally (2 workers left main without pvm_exit)" \
	"$(grep -c '^task .* end=1/0 ' race/run.info)" 4
for w in 1001 1002 1003; do
	expect_eq "plain race: task $w recorded its 8 sends once" \
		"$(count_events race $w send)" 8
done
expect_eq "plain race: the master's 24 receives recorded once" \
	"$(count_events race 1 recv)" 24
pg -replay -logdir race -out race.r0
expect_eq "plain race: a replay without delays exits 0, same output" \
	"$(cat rc) $(cmp -s out race.out && echo same)" "0 same"
expect_eq "plain race: 3 of 3 delayed replays identical" \
	"$(replays_identical race 3 1500)" 3

# (workers spawned by path get LD_PRELOAD too)
pg -log -logdir bypath ./plainracy "$T/plainracy"
expect_eq "plain race, workers spawned by path: recording exits 0" "$(cat rc)" 0
expect_grep "plain race, workers spawned by path: 4 tasks recorded" err \
	"recorded [0-9]+ events of 4 tasks"

# (a user's own LD_PRELOAD reaches the tasks too, after ours: mark.so
# leaves a file PID.PROGRAM in MARK_DIR for each process it is loaded in)
cat >mark.c <<'EOF'
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void mark(void)
{
	char exe[1024] = "", p[4096];
	const char *d = getenv("MARK_DIR");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	if (d && snprintf(p, sizeof(p), "%s/%d.%s", d, (int)getpid(),
			  basename(exe)) < (int)sizeof(p))
		close(open(p, O_WRONLY | O_CREAT, 0600));
}
EOF
mkdir marks
cc -shared -fPIC -o mark.so mark.c &&
	MARK_DIR=$T/marks LD_PRELOAD=$T/mark.so PVM_EXPORT=MARK_DIR \
	pg -log -logdir marked ./plainracy
expect_eq "user's LD_PRELOAD: recording exits 0" "$(cat rc)" 0
expect_grep "user's LD_PRELOAD: 4 tasks recorded" err "recorded [0-9]+ events of 4 tasks"
expect_eq "user's LD_PRELOAD: loaded in the 4 tasks too" \
	"$(ls marks | grep -c '\.plainracy$')" 4

# (the same race compiled as C++ with g++, linked with libpvm3.so)
if command -v g++ >/dev/null; then
	g++ -w -x c++ -o cxxracy plainracy.c -lpvm3 ||
		fail "cannot build the race as C++"
	pg -log -logdir cxx ./cxxracy cxxracy
	expect_eq "C++ race: recording exits 0" "$(cat rc)" 0
	expect_grep "C++ race: 4 tasks recorded" err "recorded [0-9]+ events of 4 tasks"
	mv out cxx.out
	expect_eq "C++ race: 2 of 2 delayed replays identical" \
		"$(replays_identical cxx 2 1500)" 2
else
	skip "the race as C++" "no g++"
fi

# 2. groups, unmodified: libgpvm3's traffic with its group server passes
# through once, unrecorded; the program's own messages are recorded
pg -log -logdir grp ./plaingroup
expect_eq "plain groups: recording exits 0" "$(cat rc)" 0
expect_grep "plain groups: the reduce's sum" out "^sum of instances 3, size 3$"
mv out grp.out
expect_eq "plain groups: task 1 has 1 bcast, 2 receives, no send" \
	"$(count_events grp 1 bcast) $(count_events grp 1 recv) $(count_events grp 1 send)" "1 2 0"
for w in 1001 1002; do
	expect_eq "plain groups: task $w has 1 receive, 1 send" \
		"$(count_events grp $w recv) $(count_events grp $w send)" "1 1"
done
expect_eq "plain groups: 3 of 3 delayed replays identical" \
	"$(replays_identical grp 3 1500)" 3

# 3. a pangaea.h worker that gets LD_PRELOAD too records itself, once
pg -log -logdir mix ./plainracy srcracy
expect_eq "mixed: recording exits 0" "$(cat rc)" 0
expect_eq "mixed: no task failed to join (one join per task)" \
	"$(grep -c '^pangaea: task' err)" 0
mv out mix.out
expect_eq "mixed: task 1001 (pangaea.h, preloaded) has its 8 sends once" \
	"$(count_events mix 1001 send)" 8
expect_eq "mixed: 2 of 2 delayed replays identical" \
	"$(replays_identical mix 2 1500)" 2

# 4. a statically linked PVM program is refused before the run
pg -log -logdir static ./staticracy
expect_eq "static: exit 1" "$(cat rc)" 1
expect_grep "static: said why" err "^pangaea: error: .*/staticracy is linked statically with PVM: rebuild it with pangaea.h or link libpvm3 dynamically$"
grep -q "virtual machine" err && fail "static: a virtual machine was started" ||
	pass "static: refused before any virtual machine"
# ... also stripped (no symbol table: the launcher goes by libpvm's
# strings), while a stripped dynamic program is still recorded through
# the preload, and so are the stripped workers it spawns
cp staticracy staticracy-s && strip staticracy-s
pg -log -logdir static-s ./staticracy-s
expect_eq "static stripped: exit 1" "$(cat rc)" 1
expect_grep "static stripped: said why" err "^pangaea: error: .*/staticracy-s is linked statically with PVM: rebuild it with pangaea.h or link libpvm3 dynamically$"
cp plainracy plainracy-s && strip plainracy-s
pg -log -logdir stripped ./plainracy-s "$T/plainracy-s"
expect_eq "dynamic stripped: recorded, exit 0" "$(cat rc)" 0
expect_grep "dynamic stripped: 4 tasks recorded" err "recorded [0-9]+ events of 4 tasks"

# (a program whose section headers are nonsense: the launcher reads the
# ELF file safely; as any program of this machine it is preloaded, and
# recorded)
printf '#include <stdio.h>\n#include <pvm3.h>\nint main(void)\n{\n\tif (pvm_mytid() < 0)\n\t\treturn 1;\n\tputs("hello");\n\tpvm_exit();\n\treturn 0;\n}\n' >hello.c
cc -o hello hello.c -lpvm3 && cp hello badelf && printf '\377\377\377\377\377\377\377\177' |
	dd of=badelf bs=1 seek=40 conv=notrunc 2>/dev/null # e_shoff
pg -log -logdir badrec ./badelf
expect_eq "bad section headers: preloaded, recorded, exit 0" \
	"$(cat rc) $(cat out) $(ls badrec/task-*.comm | wc -l)" "0 hello 1"

# (a task that escapes the preload, here a script that runs the program
# without LD_PRELOAD, runs unrecorded, and is named)
printf '#!/bin/sh\nunset LD_PRELOAD\nexec %s/hello\n' "$T" >escape
chmod +x escape
pg -log -logdir escrec ./escape
expect_eq "escaped preload: exit 2 (it ran, not instrumented)" "$(cat rc)" 2
expect_grep "escaped preload: task 1 named" err "task 1 \([^ ]*escape on [^)]*\) is not instrumented"

# (one that never exits is named after LA_JOIN_WAIT_S: this uninstrumented
# master thinks it is a worker and waits for its parent forever)
printf '#!/bin/sh\nunset LD_PRELOAD\nexec %s/plainexit\n' "$T" >stuck
chmod +x stuck
timeout --preserve-status -s INT 9 "$PANGAEA" -log -logdir stuckrec ./stuck >out 2>err
expect_eq "never joins, never exits: interrupted, exit 2" "$?" 2
expect_grep "never joins, never exits: named before the interrupt" err \
	"^pangaea: error: task 1 \([^ ]*stuck on [^)]*\) has not joined the run after 5 s: if it talks PVM, it is not instrumented"
expect_eq "never joins, never exits: named once, before the interrupt" \
	"$(grep -n -e 'has not joined' -e 'interrupted: stopping' err | cut -d: -f1 | tr '\n' ' ')" \
	"$(grep -n 'has not joined' err | cut -d: -f1) $(grep -n 'interrupted: stopping' err | cut -d: -f1) "

# (a launcher without its libpangaea.so refuses an unmodified program)
mkdir -p nolib/bin && cp "$PANGAEA" "$B/bin/pangaea-coord" nolib/bin/
timeout 60 nolib/bin/pangaea -log -logdir nolibrec ./plainracy >out 2>err
expect_eq "no libpangaea.so: exit 1" "$?" 1
expect_grep "no libpangaea.so: said why" err \
	"^pangaea: error: .*/plainracy is not built with pangaea.h and cannot get libpangaea.so \(not found next to the launcher, in ../lib/pangaea\)$"

# 5. a worker built without Pangaea under a pangaea.h master (no
# LD_PRELOAD for that run): named at once, exit 2, never "identical"
# (these workers call pvm_exit: plain PVM may lose the last messages of a
# task that exits without it, and the master would wait for them)
pg -log -logdir hole ./srcracy plainexit
expect_eq "not instrumented: exit 2" "$(cat rc)" 2
expect_grep "not instrumented: task 1001 named" err "^pangaea: error: task 1001 \(plainexit on [^)]*\) is not instrumented: its messages cannot be replayed$"
$TRACE verify hole hole >vout 2>&1
expect_eq "not instrumented: verify does not say identical (exit 1)" "$? $(grep -c identical vout)" "1 0"
expect_grep "not instrumented: verify names the task" vout "task 1001 of hole has no log"

# 6. the PVM distribution's master1/slave1 (Debian pvm-examples): the
# binaries as packaged, and built here unmodified from their sources
# (scripts/pvm-examples.sh, shared with tests/scenario/pvmex_*.sh, which
# run the other examples)
if [ -x /usr/bin/master1 ] && pvmex_build; then
	pg -log -logdir deb /usr/bin/master1
	expect_eq "Debian's master1: recording exits 0" "$(cat rc)" 0
	expect_grep "Debian's master1: 4 tasks recorded" err "recorded [0-9]+ events of 4 tasks"
	mv out deb.out
	expect_eq "Debian's master1: 3 of 3 replays with -delay 2000 identical" \
		"$(replays_identical deb 3 2000)" 3
	pg -log -logdir m1 "$PX/master1"
	expect_eq "master1 built here: recording exits 0" "$(cat rc)" 0
	expect_eq "master1 built here: 3 results printed" "$(grep -c '^I got' out)" 3
	mv out m1.out
	expect_eq "master1 built here: 3 of 3 replays with -delay 2000 identical" \
		"$(replays_identical m1 3 2000)" 3
	# Fortran, through libfpvm3 (static, calling the C functions)
	if [ -x "$PX/fmaster1" ]; then
		pg -log -logdir fm "$PX/fmaster1"
		expect_eq "Fortran master1: recording exits 0" "$(cat rc)" 0
		expect_grep "Fortran master1: 4 tasks recorded" err "recorded [0-9]+ events of 4 tasks"
		mv out fm.out
		expect_eq "Fortran master1: 3 of 3 replays with -delay 2000 identical" \
			"$(replays_identical fm 3 2000)" 3
	else
		skip "Fortran master1/slave1" "no gfortran"
	fi
elif [ ! -x /usr/bin/master1 ]; then
	skip "the PVM examples master1/slave1" "pvm-examples is not installed"
fi

# 7. outside a run (no PANGAEA_CONTEXT) libpangaea.so passes everything
# through: the race runs as plain PVM in a VM of our own, logs nothing.
# (plainexit: its workers call pvm_exit; plain PVM may lose the last
# message of a task that returns from main without it)
printf '* ep=%s\n%s\n' "$T" "$(hostname)" >hosts
echo quit | timeout 20 pvm hosts >/dev/null 2>&1
LD_PRELOAD=$B/lib/pangaea/libpangaea.so timeout 60 ./plainexit plainexit \
	>plain.out 2>plain.err
expect_eq "outside a run, preloaded: exits 0, 24 messages and done, nothing said" \
	"$? $(grep -c '^recv worker=' plain.out) $(tail -1 plain.out) $(wc -c <plain.err)" "0 24 done 0"
vm_halt

took=$(( $(date +%s) - start ))
[ "$took" -lt 60 ] && pass "all runs took ${took}s (< 60)" || fail "runs took ${took}s"
expect_no_leftovers
finish
