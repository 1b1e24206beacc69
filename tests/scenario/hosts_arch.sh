# Hosts of three architectures (issue 26): scripts/hosts.sh up 3 --arch
# h2=i386,h3=s390x gives a virtual machine whose h1 runs this machine's
# pvmd (LINUX64), h2 Debian's i386 pvmd natively (LINUX) and h3 Debian's
# s390x pvmd under qemu-user (LINUXS390), each from the sysroot of
# scripts/arch-sysroot.sh.
. "$(dirname "$0")/../lib.sh"
TOP=$(cd "$(dirname "$0")/../.." && pwd)

for t in qemu-s390x-static i686-linux-gnu-gcc s390x-linux-gnu-gcc; do
	command -v $t >/dev/null || { skip "no $t (scripts/install-deps.sh)"; finish; exit; }
done

# 1. the hosts: each its architecture's pvmd
if ! hosts_up 3 --arch h2=i386,h3=s390x; then
	finish
	exit
fi
expect_eq "hosts: architectures" \
	"$(for h in h1 h2 h3; do $HOSTS arch $h; done | tr '\n' ' ')" "amd64 i386 s390x "
# (e_machine, bytes 18-19 of the ELF header: 3e 00 x86-64, 03 00 i386,
# 00 16 s390 big-endian)
expect_eq "hosts: each host's pvmd is of its architecture" \
	"$(for h in h1 h2 h3; do $HOSTS run $h od -An -tx1 -j18 -N2 /usr/bin/pvmd; done | tr -s ' \n' ' ')" \
	" 3e 00 03 00 00 16 "
$HOSTS up 2 --arch h3=s390x 2>bad.err && fail "up 2 --arch h3=...: accepted" ||
	expect_grep "bad --arch: one clear line" bad.err "no host h3 \(up 2\)"
$HOSTS up 2 --arch h2=arm 2>bad.err && fail "up 2 --arch h2=arm: accepted" ||
	expect_grep "bad --arch: unknown architecture" bad.err "ARCH i386 or s390x"
EP=$HD/shared/ep
hosts_vm "* ep=$EP/amd64" "h2 ep=$EP/i386" "h3 ep=$EP/s390x"
expect_eq "vm: pvm conf lists LINUX64, LINUX and LINUXS390" \
	"$(awk '$1 ~ /^h[123]$/ {print $1 "=" $3}' conf | sort | tr '\n' ' ')" \
	"h1=LINUX64 h2=LINUX h3=LINUXS390 "

hosts_end
finish
