# Programs that load libpvm3 late: an interpreter whose PVM module is
# loaded at run time (slsh with slang-pvm's pvm-module.so, which links
# libpvm3), a C program that links no PVM but dlopens libpvm3.so.3 and
# calls it through dlsym (as plugins do), and Python through ctypes
# (which does the same).  The launcher preloads libpangaea.so into them
# too; each is recorded (every task has its log) and replayed
# identically.  A user's own
# LD_PRELOAD=libpangaea.so with PVM_EXPORT=LD_PRELOAD leaves the
# launcher and the coordinator alone (they used to hang 15 s: "cannot
# start the coordinator").
SRC=$(cd "$(dirname "$0")/../.." && pwd) # before lib.sh moves to $T
. "$SRC/tests/lib.sh"
# (the launcher gets the preloads below too: in an ASan build lib.sh's
# ASAN_OPTIONS let its runtime accept not being first)
start=$(date +%s)

# 1. S-Lang: a master/worker race in slsh through the pvm module
if [ -x /usr/bin/slsh ] &&
   [ -e /usr/lib/x86_64-linux-gnu/slang/v2/modules/pvm-module.so ]; then
cat >race.sl <<'EOS'
% race.sl: a master/worker race in S-Lang through slang-pvm's module
% (which dlopens libpvm3): the master spawns 3 workers (slsh race.sl),
% gives each its number; each sends 4 numbered messages after random
% pauses; the master prints them in the order its wildcard receive got them.
require ("pvm");
require ("rand");
variable me = pvm_mytid ();
variable parent = pvm_parent ();
variable i, w, s;
if (parent < 0)
{
   variable tids = pvm_spawn (["/usr/bin/slsh", __argv[0]], 0, "", 3);
   if (length (tids) != 3) { () = fprintf (stderr, "spawn failed\n"); exit (1); }
   for (i = 0; i < 3; i++) pvm_send_obj (tids[i], 1, i + 1);
   for (i = 0; i < 12; i++)
   {
      () = pvm_recv (-1, 2);
      w = pvm_recv_obj ();
      s = pvm_recv_obj ();
      vmessage ("recv worker=%d seq=%d", w, s);
   }
   vmessage ("done");
}
else
{
   () = pvm_recv (parent, 1);
   w = pvm_recv_obj ();
   srand (getpid ());
   for (s = 1; s <= 4; s++)
   {
      sleep (rand_uniform () * 0.005);
      pvm_send_obj (parent, 2, w, s);
   }
}
pvm_exit ();
EOS
pg -log -logdir slsh /usr/bin/slsh "$T/race.sl"
expect_eq "slsh: recording exits 0" "$(cat rc)" 0
expect_eq "slsh: 12 messages and done" \
	"$(grep -c '^recv worker=' out) $(tail -1 out)" "12 done"
expect_grep "slsh: the interpreter and its 3 workers recorded" err \
	"recorded [0-9]+ events of 4 tasks"
expect_eq "slsh: every task has its logs" "$(ls slsh/task-*.comm | wc -l)" 4
mv out slsh.out
expect_eq "slsh: 2 of 2 delayed replays identical" \
	"$(replays_identical slsh 2 3000)" 2
else
	skip "slsh with a PVM module" "no slsh or slang-pvm: scripts/install-deps.sh"
fi

# 2. a user's own LD_PRELOAD of our library, exported to the tasks: the
# launcher and the coordinator are no tasks and stay out of it
cat >plain.c <<'EOC'
#include <stdio.h>
#include <pvm3.h>
int main(void)
{
	int me = pvm_mytid(), v = 7, tid;

	if (me < 0)
		return 1;
	if (pvm_parent() == PvmNoParent) {
		if (pvm_spawn("plain", NULL, 0, "", 1, &tid) != 1)
			return 1;
		pvm_recv(tid, 1);
		pvm_upkint(&v, 1, 1);
		printf("got %d\n", v);
	} else {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&v, 1, 1);
		pvm_send(pvm_parent(), 1);
	}
	pvm_exit();
	return 0;
}
EOC
cc -o plain plain.c -lpvm3 || fail "cannot build plain"
t0=$(date +%s)
LD_PRELOAD=$B/lib/pangaea/libpangaea.so PVM_EXPORT=LD_PRELOAD \
	pg -log -logdir byhand ./plain
expect_eq "by-hand LD_PRELOAD: the run exits 0, prints its line" \
	"$(cat rc) $(cat out)" "0 got 7"
expect_grep "by-hand LD_PRELOAD: both tasks recorded" err \
	"recorded [0-9]+ events of 2 tasks"
[ $(( $(date +%s) - t0 )) -lt 10 ] && pass "by-hand LD_PRELOAD: no wait for the coordinator" ||
	fail "by-hand LD_PRELOAD: the run took $(( $(date +%s) - t0 )) s"

# 3. C, libpvm3 dlopened and called through dlsym; next.so, a user's
# preload after ours, finds getpid with dlsym(RTLD_NEXT) (our dlsym must
# keep its meaning, else it finds itself and recurses)
cat >dlpvm.c <<'EOC'
/* dlpvm: a PVM master/worker race that links no PVM: it dlopens
 * libpvm3.so.3 and calls it through dlsym, as plugins and ctypes do. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *pvm;

/* The function NAME of libpvm3. */
static void *fn(const char *name)
{
	void *f = dlsym(pvm, name);

	if (!f) {
		fprintf(stderr, "dlpvm: no %s: %s\n", name, dlerror());
		exit(1);
	}
	return f;
}

int main(int argc, char **argv)
{
	int (*mytid)(void), (*parent)(void), (*initsend)(int), (*exit_)(void);
	int (*pkint)(int *, int, int), (*upkint)(int *, int, int);
	int (*send)(int, int), (*recv)(int, int);
	int (*spawn)(char *, char **, int, char *, int, int *);
	int tids[3], i, w, v;

	pvm = dlopen("libpvm3.so.3", RTLD_NOW);
	if (!pvm) {
		fprintf(stderr, "dlpvm: %s\n", dlerror());
		return 1;
	}
	*(void **)&mytid = fn("pvm_mytid");
	*(void **)&parent = fn("pvm_parent");
	*(void **)&initsend = fn("pvm_initsend");
	*(void **)&exit_ = fn("pvm_exit");
	*(void **)&pkint = fn("pvm_pkint");
	*(void **)&upkint = fn("pvm_upkint");
	*(void **)&send = fn("pvm_send");
	*(void **)&recv = fn("pvm_recv");
	*(void **)&spawn = fn("pvm_spawn");
	if (mytid() < 0)
		return 1;
	if (parent() < 0) {
		if (spawn(argv[0], NULL, 0, (char *)"", 3, tids) != 3) {
			fprintf(stderr, "dlpvm: spawn failed\n");
			exit_();
			return 1;
		}
		for (i = 0; i < 3; i++) {
			w = i + 1;
			initsend(0);
			pkint(&w, 1, 1);
			send(tids[i], 2);
		}
		for (i = 0; i < 3; i++) {
			recv(-1, 1);
			upkint(&w, 1, 1);
			upkint(&v, 1, 1);
			printf("from worker %d: %d\n", w, v);
		}
	} else {
		recv(parent(), 2);
		upkint(&w, 1, 1);
		usleep((unsigned)(getpid() % 7) * 300);
		v = w * 2;
		initsend(0);
		pkint(&w, 1, 1);
		pkint(&v, 1, 1);
		send(parent(), 1);
	}
	exit_();
	(void)argc;
	return 0;
}
EOC
cat >next.c <<'EOC'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>
pid_t getpid(void)
{
	pid_t (*next)(void) = (pid_t (*)(void))dlsym(RTLD_NEXT, "getpid");

	return next();
}
EOC
cc -o dlpvm dlpvm.c && cc -shared -fPIC -o next.so next.c ||
	fail "cannot build dlpvm, next.so"
LD_PRELOAD=$T/next.so pg -log -logdir dl ./dlpvm
expect_eq "dlopen: recording exits 0, 3 answers" \
	"$(cat rc) $(grep -c '^from worker [123]: [246]$' out)" "0 3"
expect_grep "dlopen: the program and its 3 workers recorded" err \
	"recorded [0-9]+ events of 4 tasks"
mv out dl.out
expect_eq "dlopen: 2 of 2 delayed replays identical" \
	"$(replays_identical dl 2 3000)" 2

# 4. Python through ctypes (dlopen of libpvm3, dlsym on its handle), the
# script given by a relative path (the first task runs here)
if command -v python3 >/dev/null; then
cat >race.py <<'EOP'
# race.py: a master/worker race in Python through ctypes (libpvm3 is
# dlopened, its functions looked up with dlsym): the master spawns 3
# workers (python3 race.py), gives each its number; each sends 3
# numbered messages after random pauses; the master prints them in the
# order its wildcard receive got them.
import ctypes, os, random, sys, time
pvm = ctypes.CDLL("libpvm3.so.3")
if pvm.pvm_mytid() < 0:
    sys.exit(1)
parent = pvm.pvm_parent()
w, s = ctypes.c_int(0), ctypes.c_int(0)
if parent < 0:
    tids = (ctypes.c_int * 3)()
    argv = (ctypes.c_char_p * 3)(os.path.abspath(sys.argv[0]).encode(), b"w", None)
    if pvm.pvm_spawn(b"/usr/bin/python3", argv, 0, b"", 3, tids) != 3:
        sys.exit("spawn failed")
    for i in range(3):
        pvm.pvm_initsend(0)
        w.value = i + 1
        pvm.pvm_pkint(ctypes.byref(w), 1, 1)
        pvm.pvm_send(tids[i], 1)
    for i in range(9):
        pvm.pvm_recv(-1, 2)
        pvm.pvm_upkint(ctypes.byref(w), 1, 1)
        pvm.pvm_upkint(ctypes.byref(s), 1, 1)
        print("recv worker=%d seq=%d" % (w.value, s.value), flush=True)
    print("done", flush=True)
else:
    pvm.pvm_recv(parent, 1)
    pvm.pvm_upkint(ctypes.byref(w), 1, 1)
    for k in range(1, 4):
        time.sleep(random.random() * 0.005)
        s.value = k
        pvm.pvm_initsend(0)
        pvm.pvm_pkint(ctypes.byref(w), 1, 1)
        pvm.pvm_pkint(ctypes.byref(s), 1, 1)
        pvm.pvm_send(parent, 2)
pvm.pvm_exit()
EOP
pg -log -logdir py python3 race.py
expect_eq "python: recording exits 0, 9 messages and done" \
	"$(cat rc) $(grep -c '^recv worker=' out) $(tail -1 out)" "0 9 done"
expect_grep "python: the interpreter and its 3 workers recorded" err \
	"recorded [0-9]+ events of 4 tasks"
mv out py.out
expect_eq "python: 2 of 2 delayed replays identical" \
	"$(replays_identical py 2 3000)" 2
else
	skip "python through ctypes" "no python3: scripts/install-deps.sh"
fi

took=$(( $(date +%s) - start ))
[ "$took" -lt 60 ] && pass "all runs took ${took}s (< 60)" || fail "runs took ${took}s"
expect_no_leftovers
finish
