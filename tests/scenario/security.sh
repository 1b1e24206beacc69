# Security of the log folder, the trace database and the live view's
# socket, against another user (a throwaway one the test makes and
# removes) who plants links or folders where a root run writes: nothing
# planted is followed or used, a folder of theirs is refused, logs are
# private (0600, folder 0700) unless -logmode says otherwise, and a
# second launcher on a folder in use is refused at once, naming the pid.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip "planted links as another user" "needs root to make a user"
	finish
	exit
fi
U=pgsec$$
useradd -M -N -r -s /usr/sbin/nologin "$U" || { fail "useradd $U"; exit 1; }
uid=$(id -u "$U")
trap 'left=$(test_pids -u "$uid"); [ -n "$left" ] && kill -9 $left; userdel "$U" 2>/dev/null; cleanup' EXIT
as_u() { runuser -u "$U" -- "$@"; }
chmod 0711 "$T" # the other user may reach the folders we open to them
SOR=$B/examples/sor
# a root file that a followed link would overwrite or truncate
echo secret >precious && chmod 0600 precious
untouched() { [ "$(cat precious)" = secret ] && [ "$(stat -c %a precious)" = 600 ]; }

# ---- a log folder of another user's, with a link planted in it
mkdir other && chown "$U" other && chmod 0777 other
as_u ln -s "$T/precious" other/.pangaea-write-test
as_u ln -s "$T/precious" other/run.info
pg -log -logdir other "$SOR" 2 10 5
expect_eq "another user's folder: exit 1" "$(cat rc)" 1
expect_grep "another user's folder: refused, naming the owner" err \
	"refusing log folder other: it belongs to $U \(uid $uid\), not to you"
untouched && pass "another user's folder: the planted links' target is untouched" ||
	fail "another user's folder: precious is now '$(cat precious)'"
[ -z "$(ls -A other | grep -v -e '^run.info$' -e '^.pangaea-write-test$')" ] &&
	[ -L other/run.info ] &&
	pass "another user's folder: nothing written there" ||
	fail "another user's folder holds: $(ls -A other)"

# ---- a log folder that is another user's link to a folder of ours
mkdir mine && echo keep >mine/task-9.exec
as_u ln -s "$T/mine" other/mine
pg -log -logdir other/mine "$SOR" 2 10 5
expect_eq "another user's link as log folder: exit 1" "$(cat rc)" 1
expect_grep "another user's link as log folder: refused, naming the owner" err \
	"refusing log folder other/mine: it is a link of $U's \(uid $uid\)"
[ "$(cat mine/task-9.exec)" = keep ] && [ "$(ls -A mine)" = task-9.exec ] &&
	pass "another user's link as log folder: the folder behind it untouched" ||
	fail "mine holds: $(ls -lA mine)"

# ---- run.info planted during a run, in a folder of ours others may write
mkdir shared && chmod 0777 shared
timeout 60 "$PANGAEA" -log -delay 4000 -logdir shared "$SOR" 2 20 300 >out 2>err &
run=$!
for _ in $(seq 100); do [ -e shared/task-1.comm ] && break; sleep 0.1; done
as_u ln -s "$T/precious" shared/run.info
[ -L shared/run.info ] && pass "run.info link planted during the run" ||
	fail "could not plant shared/run.info"
wait $run
expect_eq "planted run.info: the run exits 0" "$?" 0
untouched && pass "planted run.info: its target is untouched" ||
	fail "planted run.info: precious is now '$(cat precious)'"
[ ! -L shared/run.info ] && [ "$(stat -c %u shared/run.info)" = 0 ] &&
	head -1 shared/run.info | grep -q '^pangaea-run ' &&
	pass "planted run.info: replaced by the run's own (not followed)" ||
	fail "planted run.info: $(ls -l shared/run.info)"
[ -z "$(ls -A shared | grep '^\.run\.info\.')" ] &&
	pass "no temporary run.info left" || fail "left: $(ls -A shared)"

# ---- modes: private by default, -logmode on demand; trace.db follows
pg -log -logdir priv "$SOR" 2 10 5
expect_eq "default modes: exit 0" "$(cat rc)" 0
expect_eq "default modes: folder 0700" "$(stat -c %a priv)" 700
expect_eq "default modes: every log and run.info 0600" \
	"$(stat -c %a priv/task-* priv/run.info | sort -u)" 600
$TRACE import priv >/dev/null
expect_eq "default modes: trace.db 0600" "$(stat -c %a priv/trace.db)" 600
# recording again into the folder: the old files go first (a link left
# there is removed, not followed), the new ones are created afresh
rm priv/task-1.comm && ln -s "$T/precious" priv/task-1.comm
touch priv/.run.info.Ab12Cd
pg -log -logdir priv "$SOR" 2 10 5
expect_eq "recording again into a folder: exit 0" "$(cat rc)" 0
untouched && [ ! -L priv/task-1.comm ] && [ ! -e priv/.run.info.Ab12Cd ] &&
	pass "recording again: the old files are removed, a link in them not followed" ||
	fail "recording again: $(ls -lA priv)"
# run.info that cannot be written (a folder there that unlink leaves):
# said, exit 1, no temporary file left
rm priv/run.info && mkdir -p priv/run.info/x
pg -log -logdir priv "$SOR" 2 10 5
expect_eq "run.info cannot be written: exit 1" "$(cat rc)" 1
expect_grep "run.info cannot be written: said" err \
	"error: cannot rename it to $T/priv/run.info: Is a directory"
[ -z "$(ls -A priv | grep '^\.run\.info\.')" ] &&
	pass "run.info cannot be written: no temporary file left" ||
	fail "left: $(ls -A priv)"
rm -r priv/run.info
umask 0077
pg -log -logmode 0640 -logdir grp "$SOR" 2 10 5
umask 0022
expect_eq "-logmode 0640: exit 0" "$(cat rc)" 0
expect_eq "-logmode 0640: folder 0750 (whatever the umask)" "$(stat -c %a grp)" 750
expect_eq "-logmode 0640: every log and run.info 0640" \
	"$(stat -c %a grp/task-* grp/run.info | sort -u)" 640
$TRACE import grp >/dev/null
expect_eq "-logmode 0640: trace.db 0640" "$(stat -c %a grp/trace.db)" 640
pg -replay -logmode 0644 -logdir grp -out grp.r
expect_eq "-logmode on a replay: exit 0" "$(cat rc)" 0
expect_eq "-logmode on a replay: its logs 0644" \
	"$(stat -c %a grp.r/task-* grp.r/run.info | sort -u)" 644
pg -log -logmode 0400 -logdir bad "$SOR" 2 10 5
expect_eq "-logmode 0400: exit 1" "$(cat rc)" 1
expect_grep "-logmode 0400: refused" err "-logmode needs an octal mode from 0600 to 0777"

# ---- pangaea-trace on a folder it may not write: a fresh private folder
# in $TMPDIR, never the name someone pre-created for its pid
pg -log -logdir ro "$SOR" 2 10 5 # (no trace.db: stats must import)
mkdir -p tmp && chmod 1777 tmp
export TMPDIR=$T/tmp
if unshare -m sh -c 'mount --bind -o ro "$1" "$1" 2>/dev/null || exit 9
	touch "$1/x" 2>/dev/null && exit 9
	runuser -u "$2" -- touch "$TMPDIR/pangaea-trace.$$.db" &&
	chmod 0666 "$TMPDIR/pangaea-trace.$$.db" &&
	exec "$3" stats "$1"' sh "$T/ro" "$U" "$TRACE" >out 2>err; then
	pass "stats on a read-only folder: exit 0"
	grep -q . out && pass "stats on a read-only folder: prints" || fail "no stats printed"
	planted=$(ls tmp)
	[ "$(echo "$planted" | wc -w)" = 1 ] &&
		[ "$(stat -c '%U %s' "tmp/$planted")" = "$U 0" ] &&
		pass "the pre-created pangaea-trace name is untouched, nothing else left" ||
		fail "TMPDIR now holds: $(ls -la tmp)"
	[ ! -e ro/trace.db ] && pass "the read-only folder got no trace.db" ||
		fail "ro/trace.db written"
else
	rc=$?
	[ $rc = 9 ] && skip "pangaea-trace on a read-only folder" "no read-only bind mount here" ||
		fail "stats on a read-only folder: exit $rc: $(cat err)"
fi
unset TMPDIR

# ---- -view: TMPDIR/pangaea-UID made by another user: a fresh folder
mkdir -p vt vbin && chmod 1777 vt
cp "$PANGAEA" "$B/bin/pangaea-coord" vbin/
# a stand-in viewer: reads the live stream of -sock to the end (again
# if the coordinator closed an early connection without a word)
cat >vbin/pangaea-view <<'EOF'
#!/usr/bin/env python3
import socket, sys, time
path = sys.argv[sys.argv.index("-sock") + 1]
data = b""
for _ in range(200):
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(path)
        while True:
            b = s.recv(65536)
            if not b: break
            data += b
    except OSError:
        pass
    s.close()
    if data: break
    time.sleep(0.05)
open(sys.argv[0] + ".got", "wb").write(data)
EOF
chmod +x vbin/pangaea-view
as_u mkdir -m 0700 "vt/pangaea-$(id -u)"
DISPLAY=:0 TMPDIR=$T/vt PANGAEA_VIEW_SCRIPT=1 XDG_RUNTIME_DIR= timeout 60 \
	vbin/pangaea -log -view -delay 3000 -logdir vrec "$SOR" 2 10 200 >out 2>err
expect_eq "-view with a planted socket folder: exit 0" "$?" 0
expect_grep "-view: says the planted folder is passed over" err \
	"not using $T/vt/pangaea-$(id -u) for the live view's socket \(a folder of uid $uid, mode 0700\)"
expect_grep "-view: says which folder it uses" err \
	"the live view's socket is in $T/vt/pangaea-$(id -u)\.[A-Za-z0-9]{6}$"
for _ in $(seq 150); do [ -e vbin/pangaea-view.got ] && break; sleep 0.1; done
grep -q '^V pangaea-live ' vbin/pangaea-view.got 2>/dev/null &&
	grep -q '^E ' vbin/pangaea-view.got &&
	pass "-view: the viewer got the live stream there" ||
	{ fail "-view: the viewer got no stream"; sed 's/^/    | /' err; }
[ -z "$(ls vt | grep -v "^pangaea-$(id -u)$")" ] &&
	pass "-view: its temporary folder is removed" || fail "vt holds: $(ls vt)"

# ---- two launchers on one folder: the second is refused at once
timeout 60 "$PANGAEA" -log -delay 4000 -logdir two "$SOR" 2 20 300 >out1 2>err1 &
first=$!
for _ in $(seq 100); do [ -e two/task-1.comm ] && break; sleep 0.1; done
holder=$(cat two/.pangaea-lock)
[ "$(readlink "/proc/$holder/exe")" = "$PANGAEA" ] &&
	pass "the lock file names the first launcher" || fail "lock file says '$holder'"
t0=$(date +%s%N)
pg -log -logdir two "$SOR" 2 10 5
ms=$((($(date +%s%N) - t0) / 1000000))
expect_eq "second launcher: exit 1" "$(cat rc)" 1
expect_grep "second launcher: names the folder and the pid" err \
	"log folder two is in use by another pangaea \(pid $holder\)"
[ "$ms" -lt 3000 ] && pass "second launcher refused at once (${ms} ms)" ||
	fail "second launcher took ${ms} ms"
pg -replay -logdir two
expect_eq "a replay of a recording being made: exit 1" "$(cat rc)" 1
expect_grep "a replay of a recording being made: refused" err \
	"log folder two is in use by another pangaea \(pid $holder\)"
wait $first
expect_eq "first launcher: exit 0" "$?" 0
expect_grep "first launcher: counts its own run" err1 "recorded [0-9]+ events of 2 tasks"
$TRACE dump two >dump 2>derr
expect_eq "first recording: dump exits 0" "$?" 0
expect_eq "first recording: dump shows as many events as it said" \
	"$(grep -cE '^  #[0-9]+ ' dump)" \
	"$(sed -nE 's/.*recorded ([0-9]+) events.*/\1/p' err1)"
expect_grep "first recording: run.info is the first run's" two/run.info \
	"^command .*-delay 4000 -logdir two .*sor 2 20 300$"
pg -replay -logdir two
expect_eq "the lock ends with its launcher: the recording replays" "$(cat rc)" 0

expect_no_leftovers
finish
