# make install PREFIX=DIR gives a usable installation: a .pc naming DIR, a
# pangaea.h that compiles alone, a program built with pkg-config records
# and replays under DIR/bin/pangaea, and the man pages render.
REPO=$(cd "$(dirname "$0")/../.." && pwd) # before lib.sh moves to $T
. "$(dirname "$0")/../lib.sh"
P=$T/prefix

# The build's sanitizers, which a program linked with its library needs too.
san=
nm "$B/lib/libpangaea.a" 2>/dev/null | grep -q '__asan_' && san=address
nm "$B/lib/libpangaea.a" 2>/dev/null | grep -q '__ubsan_' && san=${san:+$san,}undefined
SANFLAGS=${san:+-fsanitize=$san}

# (with the build's SANITIZE, should make have anything to rebuild)
make -s -C "$REPO" BUILDDIR="$B" ${san:+SANITIZE=$san} PREFIX="$P" install \
	>make.out 2>&1
expect_eq "make install exits 0" "$?" 0
[ -s make.out ] && tail -5 make.out | sed 's/^/    | /'
for f in bin/pangaea bin/pangaea-coord bin/pangaea-trace lib/libpangaea.a \
	 lib/pangaea/libpangaea.so \
	 include/pangaea.h lib/pkgconfig/pangaea.pc share/man/man1/pangaea.1 \
	 share/man/man1/pangaea-trace.1 share/man/man1/pangaea-coord.1; do
	[ -s "$P/$f" ] && pass "installed $f" || fail "missing $P/$f"
done
# the MPI binding, built where mpicc is (scripts/install-deps.sh has it)
if command -v mpicc >/dev/null; then
	[ -s "$P/lib/pangaea/libpangaea-mpi.so" ] &&
		pass "installed lib/pangaea/libpangaea-mpi.so" ||
		fail "missing $P/lib/pangaea/libpangaea-mpi.so"
fi
expect_grep ".pc names the install prefix" "$P/lib/pkgconfig/pangaea.pc" "^prefix=$P\$"

export PKG_CONFIG_PATH=$P/lib/pkgconfig
flags=$(pkg-config --cflags --libs pangaea 2>pc.err)
expect_eq "pkg-config knows pangaea" "$?" 0
case "$flags" in *"-I$P/include"*"-L$P/lib"*) pass "pkg-config flags point into the prefix" ;;
	*) fail "pkg-config flags: $flags" ;; esac

# The installed header alone (only the prefix on the include path; the
# repo's internal headers are out of reach from here).
printf '#include <pangaea.h>\nint main(void) { return pangaea_ltid() == -1 ? 0 : 1; }\n' >alone.c
cc -std=c11 -Wall -Wextra -Werror -I"$P/include" -c alone.c -o alone.o 2>alone.err
expect_eq "installed pangaea.h compiles alone" "$?" 0
[ -s alone.err ] && sed 's/^/    | /' alone.err

cp "$REPO/examples/racy/racy.c" .
cc $SANFLAGS racy.c -o racy $(pkg-config --cflags --libs pangaea) 2>cc.err
expect_eq "racy.c builds against the installation" "$?" 0
[ -s cc.err ] && sed 's/^/    | /' cc.err

timeout 120 "$P/bin/pangaea" -log -logdir rec "$T/racy" -w 3 -m 10 >out 2>err
expect_eq "record with the installed launcher exits 0" "$?" 0
expect_grep "it recorded every task" err "recorded [0-9]+ events of 4 tasks"
expect_eq "30 receives printed" "$(grep -c '^racy: recv ' out)" 30
cp out rec.out
expect_eq "the installed pangaea-trace reads the log" \
	"$("$P/bin/pangaea-trace" dump -task 1 rec | grep -c ' recv from=100[123] ')" 30

timeout 120 "$P/bin/pangaea" -replay -logdir rec -out rep -delay 500 >out 2>err
expect_eq "replay with the installed launcher exits 0" "$?" 0
grep -q '^racy: done' out && cmp -s out rec.out && pass "replay output = recording output" ||
	{ fail "replay output differs"; diff rec.out out | head; }
expect_grep "replay reproduced everything" err "replay reproduced all [0-9]+ events of 4 tasks"

for m in pangaea pangaea-trace pangaea-coord; do
	MANWIDTH=80 man --warnings -l "$P/share/man/man1/$m.1" >man.out 2>man.err
	expect_eq "man -l $m.1 exits 0" "$?" 0
	expect_grep "man $m renders its NAME section" man.out "^ +$m - "
	[ -s man.err ] && fail "man $m warns: $(head -3 man.err)" ||
		pass "man $m renders without warnings"
done

expect_no_leftovers
finish
