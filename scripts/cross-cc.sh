#!/bin/bash
# scripts/cross-cc.sh: builds a C program of PVM for another architecture.
#
#   scripts/cross-cc.sh ARCH CC-ARGS...      (ARCH i386, s390x or amd64)
#
# CC-ARGS are those of cc (-I, -o, -l, -O2, sources...), for an
# unmodified program: it is compiled by Debian's cross compiler of ARCH
# (i686-linux-gnu-gcc, s390x-linux-gnu-gcc) against that architecture's
# pvm3.h, libpvm3 and libgpvm3, from the sysroot of
# scripts/arch-sysroot.sh (made if need be).  The program runs on a host
# of that architecture (scripts/hosts.sh up N --arch HOST=ARCH), where
# pvmd finds it in the host's ep= folder, and Pangaea records and
# replays it there as any other (its libpangaea.so comes from `make
# arch`).  amd64 is this machine's cc, for a script that builds for
# every architecture alike.  The exit status is the compiler's, or 1 with
# one line on stderr.
set -u
ME=$(basename "$0")
die() {
	echo "$ME: $*" >&2
	exit 1
}
ARCH=${1:-}
[ $# -ge 2 ] || die "usage: $ME i386|s390x|amd64 CC-ARGS..."
shift
case "$ARCH" in
amd64 | x86_64) exec "${CC:-cc}" "$@" ;;
i386) CROSS=i686-linux-gnu-gcc TRIPLET=i386-linux-gnu ;;
s390x) CROSS=s390x-linux-gnu-gcc TRIPLET=s390x-linux-gnu ;;
*) die "unknown architecture '$ARCH' (i386, s390x or amd64)" ;;
esac
command -v "$CROSS" >/dev/null ||
	die "no $CROSS: run scripts/install-deps.sh (Debian package gcc-${CROSS%-gcc})"
ROOT=$(bash "$(dirname "$0")/arch-sysroot.sh" "$ARCH") || exit 1
LIBDIR=$ROOT/usr/lib/$TRIPLET
# (-idirafter: pvm3.h from the sysroot, never in place of a header of the
# cross compiler's C library; -rpath-link: libpvm3's own libraries)
exec "$CROSS" -idirafter "$ROOT/usr/include" "$@" -L"$LIBDIR" \
	-Wl,-rpath-link,"$LIBDIR"
