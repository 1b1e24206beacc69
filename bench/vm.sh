# bench/vm.sh: the private virtual machine of a benchmark script, sourced
# after it has set PVM_VMID and W (its scratch folder).  On exit the pvmd
# is halted, its files and W removed.
#
# vm_start [HOSTFILE]: starts the pvmd (with HOSTFILE, a name in W), or
# says why not and exits 1.

vm_halt() { { echo halt | timeout 10 pvm >/dev/null 2>&1; } >/dev/null 2>&1; }
cleanup() {
	[ -e "${PVM_TMP:-/tmp}/pvmd.$(id -u).$PVM_VMID" ] && vm_halt
	rm -f "${PVM_TMP:-/tmp}/pvmd.$(id -u).$PVM_VMID" "${PVM_TMP:-/tmp}/pvml.$(id -u).$PVM_VMID"
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

vm_start() {
	# shellcheck disable=SC2086
	( cd "$W" && echo quit | timeout 20 pvm ${1:-} >/dev/null 2>&1 )
	if [ ! -e "${PVM_TMP:-/tmp}/pvmd.$(id -u).$PVM_VMID" ]; then
		echo "$(basename "$0"): cannot start a PVM daemon (PVM_VMID=$PVM_VMID)" >&2
		exit 1
	fi
}
