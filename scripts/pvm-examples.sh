#!/bin/bash
# scripts/pvm-examples.sh OUTDIR: builds the PVM distribution's examples
# (Debian pvm-examples: /usr/share/doc/pvm-examples/examples.tar.gz and
# gexamples.tar.gz), unmodified, with their own compile lines (those of
# their Makefile.aimk, warnings off: `cc -g -w ... -lgpvm3 -lpvm3`,
# `gfortran -g -w -fallow-argument-mismatch ... -lfpvm3 -lgpvm3 -lpvm3`),
# into OUTDIR/bin.
# The sources are unpacked into OUTDIR/src, next to an OUTDIR/src/include
# that points at /usr/include, so that the Fortran files' own
# include '../include/fpvm3.h' finds PVM's header as in the PVM tree.
#
# (starter.c, which its Makefile does not build, calls exit() without an
# argument: gcc takes it as its builtin and refuses the call, so it gets
# -fno-builtin-exit, its code unchanged; frsg.f reads a variable it never
# set, and gets -finit-local-zero.)
#
# Once per OUTDIR: a finished build leaves OUTDIR/bin/.done, holding this
# script's checksum (a later call of the same script does nothing);
# concurrent calls wait for each other (flock).
# Exit 0 when built, 1 when a program did not build (the compiler's
# messages on stderr), 2 when pvm-examples is not installed.  A Fortran
# program is skipped (no file, a line on stderr) when gfortran is missing.
set -u
OUT=${1:?usage: pvm-examples.sh OUTDIR}
DOC=/usr/share/doc/pvm-examples
[ -f "$DOC/examples.tar.gz" ] && [ -f "$DOC/gexamples.tar.gz" ] || {
	echo "pvm-examples.sh: $DOC/examples.tar.gz not found (apt-get install pvm-examples)" >&2
	exit 2
}
mkdir -p "$OUT" || exit 1
OUT=$(cd "$OUT" && pwd)
exec 9>"$OUT/.lock"
flock 9
sum=$(sha1sum <"$0")
[ "$(cat "$OUT/bin/.done" 2>/dev/null)" = "$sum" ] && exit 0
rm -rf "$OUT/src" "$OUT/bin"
mkdir -p "$OUT/src" "$OUT/bin" && cd "$OUT/src" &&
	tar xzf "$DOC/examples.tar.gz" && tar xzf "$DOC/gexamples.tar.gz" &&
	ln -s /usr/include include || exit 1

CFLAGS="-g -w"
FFLAGS="-g -w -fallow-argument-mismatch"
rc=0
# cc_ NAME SOURCE [FLAGS/OBJECTS...]: NAME from SOURCE, linked with
# libpvm3 as the Makefile does; ccg_ with libgpvm3 too (its GLIBS)
cc_() {
	local name=$1 src=$2
	shift 2
	cc $CFLAGS "$@" -o "$OUT/bin/$name" "$src" ${LIBS:--lpvm3} || rc=1
}
ccg_() { LIBS="-lgpvm3 -lpvm3" cc_ "$@"; }
f77_() {
	if ! command -v gfortran >/dev/null; then
		echo "pvm-examples.sh: no gfortran: $1 not built" >&2
		return
	fi
	gfortran $FFLAGS -o "$OUT/bin/$1" "$2" -lfpvm3 -lgpvm3 -lpvm3 || rc=1
}
E=examples G=gexamples
ccg_ gexample "$E/gexample.c"
ccg_ ptest "$E/ptest.c"
for p in hello hello_other master1 slave1 spmd timing timing_slave \
	 mbox inherita inheritb inherit1 inherit2 inherit3 mhf_server \
	 mhf_tickle; do
	cc_ "$p" "$E/$p.c"
done
cc_ starter "$E/starter.c" -fno-builtin-exit
ccg_ dbwtest "$E/bwtest.c" -DENCODE=PvmDataDefault -DPACK
ccg_ ibwtest "$E/bwtest.c" -DPACK -DENCODE=PvmDataInPlace
ccg_ pbwtest "$E/bwtest.c"
ccg_ rbwtest "$E/bwtest.c" -DPACK -DENCODE=PvmDataRaw
cc $CFLAGS -c -o "$OUT/src/taskf.o" "$E/taskf.c" || rc=1
for p in task0 task1 task_end rme lmbi gmbi; do
	cc_ "$p" "$E/$p.c" "$OUT/src/taskf.o"
done
for p in joinleave gexamp tst thb tnb ge tjl tjf trsg gs; do
	ccg_ "$p" "$G/$p.c"
done
f77_ fmaster1 "$E/master1.f"
f77_ fslave1 "$E/slave1.f"
f77_ fspmd "$E/spmd.f"
f77_ fgexample "$E/gexample.f"
f77_ hitc "$E/hitc.f"
f77_ hitc_slave "$E/hitc_slave.f"
# (frsg adds its PSum up without setting it first, frsg.f line 121: its
# Sum1 is whatever the stack held, which changes with the length of a
# path or of the environment, so a replay printed another sum than its
# recording; -finit-local-zero gives it the 0 it expects, its code
# unchanged)
FFLAGS="$FFLAGS -finit-local-zero" f77_ frsg "$G/frsg.f"
[ "$rc" = 0 ] && echo "$sum" >"$OUT/bin/.done"
exit "$rc"
