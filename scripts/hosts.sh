#!/bin/bash
# scripts/hosts.sh: a virtual cluster on this one machine, for multi-host
# PVM runs (root only).
#
#   scripts/hosts.sh up N [--arch HOST=ARCH[,HOST=ARCH...]]
#                                  make hosts h1 ... hN; those named in
#                                  --arch (ARCH i386 or s390x) are hosts
#                                  of that architecture (below)
#   scripts/hosts.sh arch HOST     HOST's architecture (amd64, i386, s390x)
#   scripts/hosts.sh down          remove every host and what joins them
#   scripts/hosts.sh run HOST CMD  run CMD on HOST (its network, hostname,
#                                  /tmp and /etc/hosts), with this
#                                  environment
#   scripts/hosts.sh list          the hosts that are up, one a line
#   scripts/hosts.sh dir           the folder that holds the cluster
#   scripts/hosts.sh netns HOST    the name of HOST's network namespace
#   scripts/hosts.sh rsh HOST [-l USER] [-n] CMD
#                                  what pvmd's PVM_RSH runs to start a pvmd
#                                  on another host (like rsh: CMD is one
#                                  shell command line)
#
# Each host is a network namespace (pg-hI) with a veth pair to the bridge
# pgbr0 (10.77.0.I/24, the root namespace is 10.77.0.254), loopback up,
# and a keeper process (sleep) that holds a UTS namespace (hostname hI)
# and a mount namespace with a private tmpfs on /tmp and a hosts file on
# /etc/hosts that names every host.  `run` enters them with nsenter.
# The rest of the file system is shared, as with NFS homes: so is
# $PANGAEA_HOSTS_DIR/shared, a folder for files all hosts must see (a
# host file, a shared log folder), and this source tree if it lies
# under /tmp (a fresh clone).
#
# pvmd starts a pvmd on another host with `$PVM_RSH HOST -n 'COMMAND'`:
# with PVM_RSH=scripts/pvm-rsh (which calls `hosts.sh rsh`), the command
# runs on that host with the caller's environment (PVM_ROOT,
# PVM_ALLOW_ROOT, PVM_VMID...), as a real rsh would with a shared home.
# Why not sshd per host: no keys, no daemon to start and stop, and the
# pvmds still talk UDP over the veths as between real machines.
#
# Everything is kept under $PANGAEA_HOSTS_DIR (default /run/pangaea-hosts);
# `down` removes it all, and a failed `up` removes what it made.  Exit 0
# on success, 1 on any failure with one line on stderr.
#
# A host of another architecture (--arch h3=s390x) sees Debian's PVM of
# that architecture in place of this machine's: its /usr is an overlay
# of the sysroot that scripts/arch-sysroot.sh makes from Debian's
# packages over this machine's /usr (read-only), so /usr/bin/pvmd (what
# $PVM_ROOT/lib/pvmd names), pvm, libpvm3 and the dynamic loader of
# that architecture are found where a program of that architecture
# looks for them.  An i386 pvmd and its tasks run natively (pvmd says
# LINUX); s390x programs run under qemu-s390x-static, which the kernel
# starts for every s390x executable through binfmt_misc (registered
# from Debian's /usr/lib/binfmt.d/qemu-s390x.conf if it is not; pvmd
# says LINUXS390, and it execs its tasks as any pvmd does).  The rest of
# the machine (shells, this tree, the x86-64 tools) is the same.
#
# Several clusters can be up at once: PANGAEA_HOSTS_CLUSTER=K (1 to 250)
# names cluster K, with its own bridge pgbrK, namespaces pgK-hI, veths
# pgKvI, network 10.77.K.0/24 and folder /run/pangaea-hosts-K.  Its hosts
# are still called h1...hN (each cluster has its own hosts file).  The
# default, K=0, is the names above.
set -u

K=${PANGAEA_HOSTS_CLUSTER:-0}
case "$K" in
'' | *[!0-9]*) echo "$(basename "$0"): PANGAEA_HOSTS_CLUSTER must be a number from 0 to 250" >&2; exit 1 ;;
esac
[ "$K" -le 250 ] || { echo "$(basename "$0"): PANGAEA_HOSTS_CLUSTER must be a number from 0 to 250" >&2; exit 1; }
if [ "$K" = 0 ]; then
	BR=pgbr0 NSP=pg-h VP=pgv DIR=${PANGAEA_HOSTS_DIR:-/run/pangaea-hosts}
else
	BR=pgbr$K NSP=pg$K-h VP=pg${K}v DIR=${PANGAEA_HOSTS_DIR:-/run/pangaea-hosts-$K}
fi
NET=10.77.$K
# Folders under /tmp that every host sees (as with NFS): this source tree
# (where the programs are built), and those of PANGAEA_HOSTS_SHARE (a
# colon-separated list).  Anything else of /tmp is each host's own.
TOP=$(cd "$(dirname "$0")/.." && pwd)
SHARE=
SH=${PANGAEA_HOSTS_SHARE:-}
for p in $TOP ${SH//:/ }; do
	case "$p" in /tmp/?*) SHARE="$SHARE $p" ;; esac
done
ME=$(basename "$0")

die() {
	echo "$ME: $*" >&2
	exit 1
}

# keeper HOST: the pid of the process that holds HOST's namespaces.
keeper() {
	local pid
	pid=$(cat "$DIR/$1/pid" 2>/dev/null) || return 1
	kill -0 "$pid" 2>/dev/null || return 1
	echo "$pid"
}

hosts_down() {
	local d pid n
	for d in "$DIR"/h*; do
		[ -d "$d" ] || continue
		n=$(basename "$d")
		pid=$(cat "$d/pid" 2>/dev/null) && {
			# everything still running on the host goes with it
			for p in $(ip netns pids "$NSP${n#h}" 2>/dev/null); do
				kill -9 "$p" 2>/dev/null
			done
			kill -9 "$pid" 2>/dev/null
		}
		rm -rf "$d"
	done
	for n in $(ip netns list 2>/dev/null | awk -v p="^$NSP[0-9]+\$" '$1 ~ p {print $1}'); do
		for p in $(ip netns pids "$n" 2>/dev/null); do
			kill -9 "$p" 2>/dev/null
		done
		ip netns del "$n" 2>/dev/null
	done
	for v in $(ip -o link show 2>/dev/null | awk -F': ' -v p="^$VP[0-9]+@" '$2 ~ p {sub(/@.*/, "", $2); print $2}'); do
		ip link del "$v" 2>/dev/null
	done
	ip link del "$BR" 2>/dev/null
	rm -rf "$DIR"
	return 0
}

# host_up I [ARCH]: makes host hI (the bridge exists), of architecture
# ARCH (default this machine's).
host_up() {
	local i=$1 n=h$1 ns=$NSP$1 d=$DIR/h$1 pid arch=${2:-} usr=
	mkdir -p "$d" || return 1
	if [ -n "$arch" ]; then
		local root
		root=$(bash "$TOP/scripts/arch-sysroot.sh" "$arch") || return 1
		usr="mount -t overlay -o 'lowerdir=$root/usr:/usr' overlay /usr &&"
	fi
	echo "${arch:-$(dpkg --print-architecture 2>/dev/null || uname -m)}" >"$d/arch"
	ip netns add "$ns" || return 1
	ip link add "$VP$i" type veth peer name eth0 netns "$ns" || return 1
	ip link set "$VP$i" master "$BR" up || return 1
	ip -n "$ns" addr add "$NET.$i/24" dev eth0 || return 1
	ip -n "$ns" link set eth0 up || return 1
	ip -n "$ns" link set lo up || return 1
	# the keeper: network of the netns, its own hostname and mounts
	# (the folders shared under /tmp are bound again over the new tmpfs,
	# from the old /tmp kept at $d/roottmp)
	local binds=
	for p in $SHARE; do
		binds="$binds mkdir -p '$p' && mount --bind '$d/roottmp/${p#/tmp/}' '$p' &&"
	done
	mkdir -p "$d/roottmp" || return 1
	ip netns exec "$ns" unshare --uts --mount --propagation private \
		sh -c "hostname $n && $usr mount --bind /tmp '$d/roottmp' &&
		       mount -t tmpfs -o mode=1777 tmpfs /tmp && $binds
		       mount --bind '$DIR/hosts' /etc/hosts &&
		       echo ready > '$d/ready' && exec sleep infinity" \
		</dev/null >/dev/null 2>"$d/keeper.err" &
	echo $! >"$d/pid"
	for _ in $(seq 50); do
		[ -e "$d/ready" ] && return 0
		kill -0 "$(cat "$d/pid")" 2>/dev/null || break
		sleep 0.1
	done
	echo "$ME: host $n: $(head -1 "$d/keeper.err")" >&2
	return 1
}

# binfmt_s390x: makes sure the kernel runs s390x executables under
# qemu-s390x-static (binfmt_misc, with Debian's rule: F, the interpreter
# opened once, so it works in every host's mount namespace).
binfmt_s390x() {
	local b=/proc/sys/fs/binfmt_misc conf=/usr/lib/binfmt.d/qemu-s390x.conf
	[ -e $b/register ] || mount -t binfmt_misc binfmt_misc $b 2>/dev/null ||
		die "cannot mount binfmt_misc on $b (s390x hosts need it)"
	[ -e $b/qemu-s390x ] && return 0
	[ -r $conf ] || die "no $conf: install qemu-user-static (scripts/install-deps.sh)"
	# (another hosts.sh may register it at the same time: then it is there)
	grep -v '^#' $conf >$b/register 2>/dev/null || [ -e $b/qemu-s390x ] ||
		die "cannot register qemu-s390x with binfmt_misc"
}

# arch_of I: the architecture --arch gives host hI (empty: this machine's).
arch_of() {
	local a
	for a in ${ARCHS//,/ }; do
		[ "${a%%=*}" = "h$1" ] && { echo "${a#*=}"; return; }
	done
}

hosts_up() {
	local n=$1 i a
	case "$n" in
	'' | *[!0-9]*) die "up N: N must be a number from 1 to 200" ;;
	esac
	[ "$n" -ge 1 ] && [ "$n" -le 200 ] || die "up N: N must be a number from 1 to 200"
	[ "$(id -u)" = 0 ] || die "needs root (network and mount namespaces)"
	for t in ip unshare nsenter; do
		command -v "$t" >/dev/null || die "needs $t (Debian: iproute2, util-linux)"
	done
	for a in ${ARCHS//,/ }; do
		case "$a" in
		h[0-9]*=i386 | h[0-9]*=s390x) ;;
		*) die "--arch $a: want HOST=ARCH, ARCH i386 or s390x" ;;
		esac
		i=${a%%=*}
		i=${i#h}
		case "$i" in *[!0-9]*) die "--arch $a: no host ${a%%=*}" ;; esac
		[ "$i" -ge 1 ] && [ "$i" -le "$n" ] || die "--arch $a: no host h$i (up $n)"
		[ "${a#*=}" = s390x ] && binfmt_s390x
		bash "$TOP/scripts/arch-sysroot.sh" "${a#*=}" >/dev/null || exit 1
	done
	[ -d "$DIR" ] && die "hosts are up already ($DIR): '$ME down' first"
	mkdir -p "$DIR" || die "cannot make $DIR"
	{
		echo "127.0.0.1 localhost"
		echo "$NET.254 hostsroot"
		for i in $(seq "$n"); do echo "$NET.$i h$i"; done
	} >"$DIR/hosts"
	mkdir -p "$DIR/shared" || die "cannot make $DIR/shared"
	if ! ip link add "$BR" type bridge 2>"$DIR/err" ||
		! ip addr add "$NET.254/24" dev "$BR" 2>>"$DIR/err" ||
		! ip link set "$BR" up 2>>"$DIR/err"; then
		local why
		why=$(head -1 "$DIR/err")
		hosts_down
		die "cannot make the bridge $BR: $why"
	fi
	for i in $(seq "$n"); do
		if ! host_up "$i" "$(arch_of "$i")" 2>>"$DIR/err"; then
			local why
			why=$(grep -v '^$' "$DIR/err" | tail -1)
			hosts_down
			die "cannot make host h$i: $why"
		fi
	done
	return 0
}

# hosts_run HOST CMD...: runs CMD on HOST; its exit status.
hosts_run() {
	local pid
	pid=$(keeper "$1") || die "no host $1 (up: $(hosts_list | tr '\n' ' '))"
	shift
	[ $# -gt 0 ] || die "run HOST CMD: no command"
	nsenter -t "$pid" --net --uts --mount --wd="$PWD" -- "$@"
}

hosts_list() {
	local d
	for d in "$DIR"/h*; do
		[ -d "$d" ] && keeper "$(basename "$d")" >/dev/null && basename "$d"
	done | sort -V
	return 0
}

# hosts_rsh HOST [-l USER] [-n] CMD...: rsh's calling convention.
hosts_rsh() {
	local host=$1
	shift
	while [ $# -gt 0 ]; do
		case "$1" in
		-n) shift ;;
		-l) shift 2 ;;
		*) break ;;
		esac
	done
	hosts_run "$host" /bin/sh -c "$*" </dev/null
}

case "${1:-}" in
up)
	ARCHS=
	case "${3:-}" in
	--arch) [ -n "${4:-}" ] || die "up N --arch HOST=ARCH[,HOST=ARCH...]"; ARCHS=$4 ;;
	'') ;;
	*) die "up N [--arch HOST=ARCH[,HOST=ARCH...]]: unknown '$3'" ;;
	esac
	hosts_up "${2:-}" ;;
arch)
	[ $# -ge 2 ] || die "arch HOST"
	keeper "$2" >/dev/null || die "no host $2"
	cat "$DIR/$2/arch" ;;
down) hosts_down ;;
run) shift; [ $# -ge 1 ] || die "run HOST CMD..."; hosts_run "$@" ;;
rsh) shift; [ $# -ge 2 ] || die "rsh HOST CMD"; hosts_rsh "$@" ;;
list) hosts_list ;;
dir) echo "$DIR" ;;
netns) [ $# -ge 2 ] || die "netns HOST"; echo "$NSP${2#h}" ;;
*) die "usage: $ME up N [--arch HOST=ARCH,...] | arch HOST | down | run HOST CMD... | list | dir | netns HOST | rsh HOST CMD" ;;
esac
