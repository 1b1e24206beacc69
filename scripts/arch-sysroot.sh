#!/bin/bash
# scripts/arch-sysroot.sh: the folder that holds Debian's PVM of another
# architecture (i386 or s390x), made from Debian's own packages.
#
#   scripts/arch-sysroot.sh ARCH     makes it if need be; prints its path
#   scripts/arch-sysroot.sh -n ARCH  prints its path only (made or not)
#
# The folder, $PANGAEA_ARCH_CACHE/ARCH (default /var/cache/pangaea-arch),
# is a sysroot: `apt-get download` of pvm, libpvm3, pvm-dev, libc6 and
# the libraries pvmd and libpvm3 load (libtirpc3 and Kerberos, as the
# package dependencies of ARCH say), each unpacked there with `dpkg -x`.
# What uses it: scripts/hosts.sh (a host's pvmd: natively for i386,
# under qemu-s390x-static -L SYSROOT for s390x), scripts/cross-cc.sh
# (links against its libpvm3/libgpvm3) and `make arch` (libpangaea.so
# of ARCH).  The .deb files stay in ARCH.debs beside it, so a second
# call costs nothing and a new one needs no network once they are there.
#
# The architecture must be known to dpkg (`dpkg --add-architecture ARCH`,
# then `apt-get update`): scripts/install-deps.sh does both.  Exit 0 with
# the path on stdout, or 1 with one line on stderr.
set -u
ME=$(basename "$0")
die() {
	echo "$ME: $*" >&2
	exit 1
}

only_path=0
[ "${1:-}" = -n ] && { only_path=1; shift; }
ARCH=${1:-}
case "$ARCH" in
i386 | s390x) ;;
'') die "usage: $ME [-n] i386|s390x" ;;
*) die "unknown architecture '$ARCH' (i386 or s390x)" ;;
esac
CACHE=${PANGAEA_ARCH_CACHE:-/var/cache/pangaea-arch}
ROOT=$CACHE/$ARCH
if [ $only_path = 1 ] || [ -e "$ROOT/.complete" ]; then
	echo "$ROOT"
	exit 0
fi

# (what pvmd, pvm and libpvm3 load, as Debian 12's dependencies say;
# libc6 brings the dynamic loader)
PKGS="pvm libpvm3 pvm-dev libc6 libtirpc3 libgssapi-krb5-2 libkrb5-3
libk5crypto3 libcom-err2 libkrb5support0 libkeyutils1 libssl3
libreadline8 libtinfo6 libgcc-s1"

# (one maker at a time: make -j runs cross-cc.sh, and so this, side by
# side; the others wait, then find it made)
mkdir -p "$CACHE" || die "cannot make $CACHE"
exec 9>"$CACHE/$ARCH.lock" || die "cannot open $CACHE/$ARCH.lock"
flock 9 || die "cannot lock $CACHE/$ARCH.lock"
if [ -e "$ROOT/.complete" ]; then
	echo "$ROOT"
	exit 0
fi
dpkg --print-foreign-architectures | grep -qx "$ARCH" ||
	die "dpkg does not know $ARCH: run scripts/install-deps.sh (dpkg --add-architecture $ARCH; apt-get update)"
DEBS=$CACHE/$ARCH.debs
mkdir -p "$DEBS" || die "cannot make $DEBS"
want=
for p in $PKGS; do
	ls "$DEBS/${p}_"*"_$ARCH.deb" >/dev/null 2>&1 ||
		ls "$DEBS/${p}_"*"_all.deb" >/dev/null 2>&1 ||
		want="$want $p:$ARCH"
done
if [ -n "$want" ]; then
	# (apt-get download writes into the current folder; as root it
	# drops to the _apt user, who must be able to write there)
	chmod 777 "$DEBS" 2>/dev/null
	# shellcheck disable=SC2086
	(cd "$DEBS" && apt-get download -q $want >"$CACHE/$ARCH.log" 2>&1) ||
		die "apt-get download of$want failed: $(grep -m1 '^E:' "$CACHE/$ARCH.log")"
fi
rm -rf "$ROOT.new"
mkdir -p "$ROOT.new" || die "cannot make $ROOT.new"
for d in "$DEBS"/*.deb; do
	dpkg -x "$d" "$ROOT.new" || die "dpkg -x $d failed"
done
# merged /usr, as Debian 12's own: /lib and /lib64 are /usr/lib(64), so
# that the loader (/lib/ld-linux.so.2, /lib/ld64.so.1) is found with -L
for l in lib lib64; do
	[ -d "$ROOT.new/usr/$l" ] || continue
	if [ -d "$ROOT.new/$l" ] && [ ! -L "$ROOT.new/$l" ]; then
		cp -a "$ROOT.new/$l/." "$ROOT.new/usr/$l/" && rm -rf "$ROOT.new/${l:?}"
	fi
	[ -e "$ROOT.new/$l" ] || ln -s "usr/$l" "$ROOT.new/$l"
done
touch "$ROOT.new/.complete"
rm -rf "$ROOT"
mv "$ROOT.new" "$ROOT" || die "cannot move $ROOT.new to $ROOT"
echo "$ROOT"
