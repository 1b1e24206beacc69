# The working folder: the run's first task runs in the folder the
# launcher was started from (as a program started from a shell does), in
# record and in replay; its children run where PVM puts them (the pvmd's
# folder, $HOME).  A plain PVM program reads input.txt and writes
# result.txt by relative paths, from a temporary folder.  A task whose
# host lacks the folder says so and stays in PVM's folder.
SRC=$(cd "$(dirname "$0")/../.." && pwd) # before lib.sh moves to $T
. "$SRC/tests/lib.sh"

cat >cwdprog.c <<'EOC'
/* cwdprog: reads its numbers from input.txt (a relative path), has two
 * workers (itself, spawned by bare name) square them, writes the sum to
 * result.txt (relative too); each worker prints the folder it runs in. */
#include <stdio.h>
#include <unistd.h>
#include <pvm3.h>

int main(void)
{
	int me = pvm_mytid(), tids[2], i, n, v, sum = 0;
	char here[4096];
	FILE *in, *out;

	if (me < 0)
		return 1;
	if (pvm_parent() != PvmNoParent) {
		pvm_recv(pvm_parent(), 1);
		pvm_upkint(&v, 1, 1);
		v *= v;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&v, 1, 1);
		pvm_send(pvm_parent(), 2);
		printf("worker runs in %s\n", getcwd(here, sizeof(here)) ? here : "?");
		pvm_exit();
		return 0;
	}
	in = fopen("input.txt", "r");
	if (!in) {
		perror("cwdprog: input.txt");
		pvm_exit();
		return 1;
	}
	if (pvm_spawn("cwdprog", NULL, 0, "", 2, tids) != 2) {
		fprintf(stderr, "cwdprog: spawn failed\n");
		pvm_exit();
		return 1;
	}
	for (i = 0; i < 2 && fscanf(in, "%d", &n) == 1; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&n, 1, 1);
		pvm_send(tids[i], 1);
	}
	fclose(in);
	for (i = 0; i < 2; i++) {
		pvm_recv(-1, 2);
		pvm_upkint(&v, 1, 1);
		sum += v;
	}
	out = fopen("result.txt", "w");
	if (!out || fprintf(out, "sum of squares %d\n", sum) < 0 || fclose(out) != 0) {
		perror("cwdprog: result.txt");
		pvm_exit();
		return 1;
	}
	printf("master runs in %s\n", getcwd(here, sizeof(here)) ? here : "?");
	pvm_exit();
	return 0;
}
EOC
cc -o cwdprog cwdprog.c -lpvm3 || { fail "cannot build cwdprog"; finish; exit; }
mkdir work && cd work || exit 1
echo "3 4" >input.txt
home=$(cd ~ && pwd -P)
here=$(pwd -P)

start=$(date +%s)
pg -log -logdir rec ../cwdprog
expect_eq "record: exits 0" "$(cat rc)" 0
expect_eq "record: input.txt read and result.txt written here" \
	"$(cat result.txt 2>&1)" "sum of squares 25"
expect_grep "record: the first task runs here" out "^master runs in $here\$"
expect_eq "record: its two children run in PVM's folder ($home)" \
	"$(grep -c "^worker runs in $home\$" out)" 2
rm -f result.txt
pg -replay -logdir rec
expect_eq "replay: exits 0" "$(cat rc)" 0
expect_eq "replay: result.txt written here again" \
	"$(cat result.txt 2>&1)" "sum of squares 25"
expect_grep "replay: the first task runs here" out "^master runs in $here\$"

# a host without the folder (the variable the launcher exports, given by
# hand to a preloaded program outside a run): said, stays where it is
PANGAEA_CWD=/nonexistent/folder LD_PRELOAD=$B/lib/pangaea/libpangaea.so \
	/bin/pwd -P >pwd.out 2>pwd.err
expect_eq "no such folder: the program stays in its folder" "$(cat pwd.out)" "$here"
expect_grep "no such folder: said" pwd.err \
	"^pangaea: cannot run in /nonexistent/folder on this host \(No such file or directory\): runs in $here\$"
# the folder is for the launcher's own spawns only: the variable is gone
# before main, so a task's children do not get it
PANGAEA_CWD=/ LD_PRELOAD=$B/lib/pangaea/libpangaea.so \
	/bin/sh -c 'pwd; echo "${PANGAEA_CWD-unset}"' >sh.out 2>&1
expect_eq "a folder given: entered, and the variable removed" \
	"$(tr '\n' ' ' <sh.out)" "/ unset "

took=$(( $(date +%s) - start ))
[ "$took" -lt 60 ] && pass "all runs took ${took}s (< 60)" || fail "runs took ${took}s"
cd "$T" || exit 1
expect_no_leftovers
finish
