#!/bin/bash
# install-deps.sh: installs the Debian packages Pangaea needs to build and
# test, but only when some of them are missing.  Safe to run with no
# standard input (CI): apt-get runs non-interactively, and sudo is never
# allowed to wait for a password that nobody can type.
#
# (clang and libclang-rt-14-dev, its libFuzzer and sanitizer runtimes,
# build the fuzzing harnesses of tests/fuzz/: `make fuzz`; iproute2 and
# util-linux make the hosts of scripts/hosts.sh: ip, unshare, nsenter.)
#
# Usage: bash scripts/install-deps.sh
set -eu

packages="pvm pvm-dev pvm-examples gfortran libevent-dev libsqlite3-dev sqlite3 tcl-dev tk-dev
check pkg-config xvfb x11-apps imagemagick ghostscript make gcc
libopen-trace-format2-dev otf2-tools xauth xfonts-base fonts-dejavu-core
clang libclang-rt-14-dev iproute2 util-linux faketime libfaketime"

missing=""
count=0
# (the foreign architectures whose packages arch-sysroot.sh downloads;
# a new one needs an apt-get update, below)
foreign=""
for a in i386 s390x; do
	dpkg --print-foreign-architectures | grep -qx "$a" || foreign="$foreign $a"
done
# xmllint (tests/scenario/views.sh checks the SVG pictures of stats --plot)
packages="$packages libxml2-utils"
# gdb: pangaea -replay -debug; xterm: the viewer starts it in a terminal
packages="$packages gdb xterm"
# time: /usr/bin/time, the launcher's peak memory in bench/hosts_scale.sh
packages="$packages time"
# valgrind: bench/instr.sh's instructions per wrapped call (callgrind),
# and its <valgrind/callgrind.h> for bench/benchlib.c
packages="$packages valgrind"
# What the scenario tests use besides: in CI (CI=true) a check skipped
# for want of a tool fails (tests/lib.sh's skip), so each is listed here.
# g++: preload.sh's race in C++; python3: tests/layers.py (the layer
# rules), viewer.sh and the live stream reader of lib.sh; mount:
# diskfull.sh's and stdin.sh's full tmpfs; bsdutils: script(1), gdb.sh's
# and stdin.sh's terminal; gdb.sh and gdb_hosts.sh need gdb (above),
# pvmex_f.sh gfortran and pvm-examples (first line).
packages="$packages g++ python3 mount bsdutils"
# Hosts of other architectures (issue 26, scripts/arch-sysroot.sh,
# scripts/hosts.sh --arch, scripts/cross-cc.sh, make arch): the cross
# compilers of i386 and s390x (not gcc-multilib: it conflicts with every
# cross compiler) and qemu-user for the s390x host.  (The libraries of
# each architecture come from its sysroot, not from multiarch packages
# whose versions must match this machine's exactly.)
packages="$packages qemu-user-static gcc-i686-linux-gnu gcc-s390x-linux-gnu
libc6-dev-i386-cross libc6-dev-s390x-cross"
# slsh and slang-pvm: interp.sh's interpreter whose PVM module
# (pvm-module.so) loads libpvm3 at run time
packages="$packages slsh slang-pvm"
# Open MPI: the MPI binding (pangaea_lib/mpi), examples/mpi, tests/scenario/mpi.sh
# (python3-mpi4py: examples/mpi/workers.py there)
packages="$packages openmpi-bin libopenmpi-dev python3-mpi4py"
# MPICH 4.0: the binding's MPICH build (libpangaea-mpich.so) and
# tests/scenario/mpich.sh.  Its alternatives rank below Open MPI's, so
# mpicc and mpirun stay Open MPI's (mpicc.mpich, mpiexec.mpich are MPICH's).
packages="$packages mpich libmpich-dev"
# netpipe-pvm: NetPIPE's NPpvm, a real PVM program whose repetitions
# follow its measured times (tests/scenario/netpipe.sh, clock replay)
packages="$packages netpipe-pvm"
# netpipe-openmpi: NetPIPE's NPmpi (/usr/bin/NPopenmpi), an MPI program
# not written here (tests/scenario/mpi_apps.sh)
packages="$packages netpipe-openmpi"
for pkg in $packages; do
	count=$((count + 1))
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
		grep -q "install ok installed"; then
		missing="${missing:+$missing }$pkg"
	fi
done

if [ -z "$missing" ] && [ -z "$foreign" ]; then
	echo "install-deps: all $count packages present"
	exit 0
fi

# Run as root directly, or through sudo.  Without a terminal on stdin,
# sudo -n fails at once instead of hanging on a password prompt.
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1; then
		echo "install-deps: not root and no sudo; please install: $missing" >&2
		exit 1
	fi
	if [ -t 0 ]; then
		sudo_cmd=(sudo)
	else
		sudo_cmd=(sudo -n)
	fi
fi

for a in $foreign; do
	"${sudo_cmd[@]}" dpkg --add-architecture "$a"
done

# $missing is a space-separated list of package names: split it on purpose.
read -r -a missing_list <<<"$missing"

"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update </dev/null ||
	echo "install-deps: apt-get update failed in part: going on" >&2
[ -z "$missing" ] || "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y --no-install-recommends "${missing_list[@]}" </dev/null

echo "install-deps: installed: $missing"
