# An ordinary user (not root, so no PVM_ALLOW_ROOT): record and replay a
# racy run and a groups run (the group server starts as that user too),
# with the launcher's own private virtual machine, and leave nothing of
# that user's behind in /tmp.  Run as root, the test uses 'nobody'; run as
# another user, it is that user already.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" = 0 ]; then
	who=nobody
	# the build folder may sit below a folder nobody cannot enter
	# (/root): run copies, the launcher next to its coordinator
	mkdir -p u/bin u/examples
	cp "$B/bin/pangaea" "$B/bin/pangaea-coord" u/bin/
	cp "$B/examples/racy" "$B/examples/groups" u/examples/
	cp "$TOP/tests/lsan.supp" u/ # for an ASan build
	chmod 0711 "$T" && chmod -R a+rX u && chmod 0777 u
	# (PANGAEA_TEST_ID: lib.sh's test_pids finds what the user's runs left)
	as_user() { runuser -u "$who" -- env -i PATH=/usr/bin:/bin HOME="$T/u" \
		PANGAEA_TEST_ID="$PANGAEA_TEST_ID" \
		LSAN_OPTIONS="suppressions=$T/u/lsan.supp" "$@"; }
else
	who=$(id -un)
	mkdir -p u && ln -s "$B/bin" u/bin && mkdir u/examples &&
		ln -s "$B/examples/racy" "$B/examples/groups" u/examples/
	as_user() { env -u PVM_ALLOW_ROOT -u PVM_TMP "$@"; }
fi
uid=$(id -u "$who")
# on failure, end what the user's runs left (lib.sh's cleanup ends our own)
trap 'left=$(test_pids -u "$uid"); [ -n "$left" ] && kill -9 $left; cleanup' EXIT
P=$T/u/bin/pangaea
before=$(ls /tmp | grep -E "^pvm(d|l|tmp)" | sort)

cd u
for prog in "racy -w 3 -m 8" "groups 4 2"; do
	name=${prog%% *}
	as_user sh -c "cd '$T/u' && exec '$P' -log -logdir $name examples/$prog" \
		>"$name.out" 2>"$name.err"
	expect_eq "$name recorded as $who: exit 0" "$?" 0
	expect_grep "$name: its own VM, without PVM_ALLOW_ROOT" "$name.err" \
		"started a private virtual machine"
	[ "$(stat -c %u "$name/task-1.comm")" = "$uid" ] &&
		pass "$name: the logs belong to $who" || fail "$name: logs owned by $(stat -c %U "$name/task-1.comm")"
	as_user sh -c "cd '$T/u' && exec '$P' -replay -logdir $name" \
		>"$name.r.out" 2>"$name.r.err"
	expect_eq "$name replayed as $who: exit 0" "$?" 0
	cmp -s "$name.out" "$name.r.out" && pass "$name: the replay printed what the recording printed" ||
		{ fail "$name: replay output differs"; diff "$name.out" "$name.r.out" | head -5; }
	expect_grep "$name: the launcher says it is the same run" "$name.r.err" "replay reproduced all"
done
cd "$T"

# The user's PVM files that appeared in /tmp meanwhile and are this test's
# (another run of this test may be going on): those of the VMs its
# launchers named, and temporary files (pvmtmpPID.N) of processes now gone.
vms=" $(sed -n 's/.*PVM_VMID=\(pangaea-[0-9]*\).*/\1/p' u/*.err | tr '\n' ' ') "
ours() {
	local f=$1 p
	[ "$(stat -c %u "/tmp/$f" 2>/dev/null)" = "$uid" ] || return 1
	case $f in
	pvmd.*|pvml.*) [[ $vms == *" ${f#pvm?.$uid.} "* ]] ;;
	pvmtmp*) p=${f#pvmtmp}; p=$((10#${p%%.*})); [ ! -e "/proc/$p" ] ;;
	esac
}
after=$(ls /tmp | grep -E "^pvm(d|l|tmp)" | sort)
new=$(comm -13 <(echo "$before") <(echo "$after") |
	while read -r f; do ours "$f" && echo "$f"; done)
expect_eq "no PVM file of $who left in /tmp" "$new" ""
left=$(test_pids -u "$uid")
expect_eq "nothing of $who left running" "$(describe_pids $left)" ""
expect_no_leftovers
finish
