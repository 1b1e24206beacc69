# Hosts of three architectures (issue 26): scripts/hosts.sh up 3 --arch
# h2=i386,h3=s390x gives a virtual machine whose h1 runs this machine's
# pvmd (LINUX64), h2 Debian's i386 pvmd natively (LINUX) and h3 Debian's
# s390x pvmd under qemu-user (LINUXS390), each from the sysroot of
# scripts/arch-sysroot.sh.  An unmodified program (tests/progs/archmix.c)
# built for each with scripts/cross-cc.sh and put in each host's ep=
# folder is recorded from h1 with tasks on the three hosts (libpangaea.so
# of each architecture: make arch), replays twice identically, and the
# logs written on the s390x host are read by the tools here; sor's
# strips spread over the three architectures give the result of an
# all-LINUX64 run, and replay.
. "$(dirname "$0")/../lib.sh"

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

# 2. an unmodified program, built for each architecture
for a in amd64 i386 s390x; do
	mkdir -p "$EP/$a"
	bash "$TOP/scripts/cross-cc.sh" $a -O2 -o "$EP/$a/archmix" \
		"$TOP/tests/progs/archmix.c" -lpvm3 2>cc.err ||
		fail "cross-cc.sh $a: $(head -1 cc.err)"
done
bash "$TOP/scripts/cross-cc.sh" sparc -o x.o x.c 2>bad.err &&
	fail "cross-cc.sh sparc: accepted" ||
	expect_grep "cross-cc.sh: unknown architecture refused" bad.err "unknown architecture 'sparc'"
for f in "$B"/lib/pangaea/lib/{i386,s390x,x86_64}-linux-gnu/libpangaea.so; do
	[ -r "$f" ] || fail "no $f (make arch)"
done

# 3. record from h1: workers on h1, h2 (by host and by PvmTaskArch LINUX)
# and h3 (by host and by PvmTaskArch LINUXS390)
pg -host h1 -log -logdir rec "$EP/amd64/archmix" h1 h2 h3 LINUXS390 LINUX </dev/null
expect_eq "record: exit 0" "$(cat rc)" 0
cp out rec.out
expect_eq "record: workers of the three architectures answered" \
	"$(grep -o 'on h[123]: [A-Z0-9]* long=[48]' out | sort | uniq | tr '\n' ' ')" \
	"on h1: LINUX64 long=8 on h2: LINUX long=4 on h3: LINUXS390 long=8 "
# (the values, XDR-packed, arrived right: what every worker computes)
expect_eq "record: XDR values arrived right" \
	"$(sed -n 's/^worker \([0-9]\) on h.: [A-Z0-9]* long=. \(.*\)/\1 \2/p' out | sort | tr '\n' '|')" \
	"0 d=1000003 l=3000009 s=to-h1!|1 d=2000007.33333 l=6000017 s=to-h2!|2 d=3000013.66667 l=9000025 s=to-h3!|3 d=4000022 l=12000033 s=to-LINUXS390!|4 d=5000032.33333 l=15000041 s=to-LINUX!|"
expect_eq "record: six tasks logged (Pangaea in every task)" \
	"$(ls rec/task-*.comm | wc -l)" 6
expect_eq "record: tasks on the three hosts" \
	"$(grep -ho '[0-9]*@h[0-9]' rec/task-1.exec | sed 's/.*@//' | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')" \
	"h1x1 h2x2 h3x2 "

# (with no -host: the launcher starts the program on a host of its own
# architecture, the only LINUX64 one; five times, as PVM deals the hosts
# out in turn)
for i in 1 2 3 4 5; do
	pg -log -logdir any$i "$EP/amd64/archmix" h2 </dev/null
	grep -o 'where="[A-Z0-9]*" .*tasks=\[1@h[0-9]\]' any$i/task-0.exec
done | sort | uniq -c | awk '{print $1, $2, $NF}' >any.out
expect_eq "record without -host: the program on its architecture's host" \
	"$(cat any.out)" '5 where="LINUX64" tasks=[1@h1]'

# 4. replay on the recorded hosts, twice, identical
expect_eq "replay: 2 of 2 identical" "$(replays_identical rec 2 0)" 2

# 5. the logs the s390x host wrote, read here
s390=$(grep -o '[0-9]*@h3' rec/task-1.exec | head -1)
s390=${s390%@h3}
"$TRACE" dump -task "$s390" rec >dump.out 2>dump.err
expect_eq "dump of an s390x task's log: exit 0" "$?" 0
expect_grep "dump of an s390x task's log: its header (host h3, LINUXS390)" dump.out \
	"^task $s390 .*/s390x/archmix h3 LINUXS390 \(tid "
expect_eq "run.info: each host's architecture" \
	"$(grep '^arch ' rec/run.info | sort | tr '\n' '|')" \
	"arch h1 LINUX64|arch h2 LINUX|arch h3 LINUXS390|"
"$TRACE" dump rec >dumpall.out 2>&1
expect_eq "dump: each task's host and architecture" \
	"$(awk '/^task/ {print $4, $5}' dumpall.out | sort | uniq -c | awk '{print $2 "/" $3 "x" $1}' | tr '\n' ' ')" \
	"h1/LINUX64x2 h2/LINUXx2 h3/LINUXS390x2 "
expect_grep "dump of an s390x task's log: its receive of the work" dump.out \
	"recv from=1 .*tag=1 "
expect_grep "dump of an s390x task's log: its answer" dump.out "send to=1 tag=2 "
"$TRACE" check rec >check.out 2>&1
expect_eq "check of the run: exit 0" "$?" 0
# import: every message matched, the hosts' clocks (the emulated one's
# too) synchronised without a clock condition violation left
"$TRACE" import rec >import.out 2>&1
expect_eq "import: exit 0" "$?" 0
expect_grep "import: the ten messages matched" import.out "10 messages \(10 matched, 0 unmatched\)"
expect_grep "import: no clock condition violation left" import.out "violations: [0-9]+ before, 0 after"
# stats: each task's host and architecture (text, --json)
"$TRACE" stats rec >stats.out 2>&1
expect_eq "stats: each task's host and architecture" \
	"$(awk '/^Tasks/ {f = 1; next} /^$/ {f = 0} f && $1 ~ /^[0-9]+$/ {print $2 "/" $3}' stats.out | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')" \
	"h1/LINUX64x2 h2/LINUXx2 h3/LINUXS390x2 "
"$TRACE" stats --json rec >stats.json 2>&1
expect_eq "stats --json: each task's host and architecture" \
	"$(grep -o '"host": "h[0-9]", "arch": "[A-Z0-9]*"' stats.json | sort | uniq -c | awk '{print $3 $5 "x" $1}' | tr -d '",' | tr '\n' ' ')" \
	"h1LINUX64x2 h2LINUXx2 h3LINUXS390x2 "
"$TRACE" races rec >races.out 2>&1
expect_grep "races: the master's four racing receives" races.out "^4 racing receives in 1 tasks"

# 6. sor (built with pangaea.h, make arch) with its strips on the three
# architectures, spawned by bare name (-ep): the result of an
# all-LINUX64 run (the same tasks, every one this machine's build)
cp "$B/examples/sor" "$EP/amd64/"
for a in i386 s390x; do cp "$B/arch/$a/examples/sor" "$EP/$a/"; done
pg -host h1 -log -logdir sor64 "$B/examples/sor" 6 40 </dev/null
grep '^sor:' out >sor64.out
pg -host h1 -log -logdir sor "$EP/amd64/sor" -ep 6 40 </dev/null
expect_eq "sor over three architectures: exit 0" "$(cat rc)" 0
cp out sor.out
expect_eq "sor over three architectures: strips on h1, h2, h3" \
	"$(grep -ho '[0-9]*@h[0-9]' sor/task-1.exec | sed 's/.*@//' | sort -u | tr '\n' ' ')" "h1 h2 h3 "
expect_eq "sor over three architectures: the all-LINUX64 result" \
	"$(grep '^sor:' sor.out)" "$(cat sor64.out)"
[ -s sor64.out ] || fail "sor all-LINUX64: no result"
expect_eq "sor over three architectures: replay identical" \
	"$(replays_identical sor 1 0)" 1

# 7. the exec log edited: a task moved to a host of another architecture
# replays there when the program does the same thing on both (a sor
# strip from h2, i386, to h3, s390x), and is said clearly not to when it
# does not (archmix's worker answers with its architecture's name)
t=$(grep -o '[0-9]*@h2' sor/task-1.exec | head -1)
t=${t%@h2}
cp -r sor sormv
sed -i "s/\b$t@h2\b/$t@h3/" sormv/task-1.exec
cp sor.out sormv.out
expect_eq "moved to another architecture: a sor strip replays on h3" \
	"$(replays_identical sormv 1 0)" 1
expect_eq "moved to another architecture: the strip ran on h3" \
	"$(grep -o "\b$t@h[0-9]" sormv.r1/task-1.exec)" "$t@h3"
w=$(grep -o '[0-9]*@h2' rec/task-1.exec | head -1)
w=${w%@h2}
cp -r rec recmv
sed -i "s/\b$w@h2\b/$w@h3/" recmv/task-1.exec
pg -replay -logdir recmv -out recmv.r1 </dev/null
expect_eq "moved to another architecture: archmix's replay says it diverged" \
	"$(cat rc)" 3
expect_grep "moved to another architecture: the answer's lengths and the hosts named" err \
	"task $w, event 3: .* has send to=1 tag=2 msg=1 of 52 bytes, .* of 56 bytes \(the task ran on host h2 in the one, on h3 in the other\)"

# 8. the viewer: pgdb tasks and the row labels give each task's host and
# its architecture (Xvfb; the label's second line; not the launcher's),
# of a folder imported before (rec) and of one not (sor)
if ! command -v Xvfb >/dev/null; then
	fail "no Xvfb: the viewer's labels are not checked (scripts/install-deps.sh)"
else
	lsan=${LSAN_OPTIONS-}
	view_test hosts_arch
	export SHOTS
	trap 'kill $XPID 2>/dev/null; halt_all' EXIT
	cat >labels.tcl <<'EOF'
wm geometry . 1000x700
vtest::wait 300
set f [open labels.out w]
foreach t [pgdb tasks] {
	if {[dict get $t ltid] != 0 && [dict exists $t arch] && [dict get $t arch] ne ""} { puts $f "pgdb [dict get $t host] [dict get $t arch]" }
}
foreach i [.g.c find withtag label] {
	puts $f "label [.g.c itemcget $i -text]"
}
close $f
vtest::shot $::env(SHOTS)/hosts_arch-1-labels.png
exit 0
EOF
	view -script labels.tcl rec
	expect_eq "viewer: exits 0" "$(cat vrc)" 0
	expect_eq "viewer: pgdb tasks gives each task's host's architecture" \
		"$(grep '^pgdb' labels.out | sort | uniq -c | awk '{print $3 "/" $4 "x" $1}' | tr '\n' ' ')" \
		"h1/LINUX64x2 h2/LINUXx2 h3/LINUXS390x2 "
	expect_eq "viewer: the row labels read host and architecture" \
		"$(grep '^label h[0-9] ' labels.out | sort | uniq -c | awk '{print $3 "/" $4 "x" $1}' | tr '\n' ' ')" \
		"h1/LINUX64x2 h2/LINUXx2 h3/LINUXS390x2 "
	[ -e sor/trace.db ] && fail "sor: imported before the viewer"
	view -script labels.tcl sor
	expect_eq "viewer of a folder not imported: the row labels read host and architecture" \
		"$(cat vrc) $(grep '^label h[0-9] ' labels.out | sort -u | cut -d' ' -f2,3 | tr '\n' '|')" \
		"0 h1 LINUX64|h2 LINUX|h3 LINUXS390|"
fi
# (x_display pointed LeakSanitizer at a file of this machine's /tmp,
# which the tasks on h1 do not see: as before, for the runs below)
export LSAN_OPTIONS=${lsan-${LSAN_OPTIONS-}}

# 9. a program of another architecture as the run's first task: the
# launcher reads its ELF header (64-bit big-endian s390x, 32-bit i386),
# starts it on a host of that architecture with libpangaea.so of its
# own (every task logged), and the run replays identically; a host or an
# architecture that cannot run it is refused in one line
pg -log -logdir first390 "$EP/s390x/archmix" h1 h2 </dev/null
cp out first390.out
expect_eq "s390x program first: exit 0, started on h3 (LINUXS390), logged" \
	"$(cat rc) $(grep -o 'where="[A-Z0-9]*" .*tasks=\[1@h[0-9]\]' first390/task-0.exec | awk '{print $1, $NF}') $(ls first390/task-*.comm | wc -l)" \
	'0 where="LINUXS390" tasks=[1@h3] 3'
expect_eq "s390x program first: replay identical" \
	"$(replays_identical first390 1 0)" 1
pg -log -logdir first386 -host h2 "$EP/i386/archmix" h3 </dev/null
expect_eq "i386 program first (-host h2): exit 0, logged" \
	"$(cat rc) $(grep -c 'on h3: LINUXS390' out) $(ls first386/task-*.comm | wc -l)" "0 1 2"
pg -log -logdir bad -host h1 "$EP/i386/archmix" h3 </dev/null
expect_eq "i386 program on h1: refused" "$(cat rc) $(grep -c error: err)" "1 1"
expect_grep "i386 program on h1: the architectures named" err \
	"archmix is built for LINUX, but host h1 is LINUX64"
pg -log -logdir bad -arch LINUX "$EP/s390x/archmix" h1 </dev/null
expect_eq "s390x program with -arch LINUX: refused" "$(cat rc) $(grep -c error: err)" "1 1"
expect_grep "s390x program with -arch LINUX: the architectures named" err \
	"archmix is built for LINUXS390, not for -arch LINUX$"
# 10. the spawn dialog (its viewer on h1): the hosts listed with their
# architectures, the program's architecture shown, a host picked in the
# list under Where Architecture gives its architecture (-arch), a Where
# that cannot run the program refused; the s390x program started there
if command -v Xvfb >/dev/null && hosts_x_display h1; then
	cat >dlg.tcl <<'EOF'
spawn::dialog
update
set out [open $::env(S)/dlg.tmp w]
foreach row [.spawn.f.hosts.l get 0 end] { puts $out "row [string trim $row]" }
set spawn::S(cmd) "$::env(EP)/s390x/archmix h1"
update
puts $out "parch $spawn::S(parch)"
set spawn::S(where) arch
spawn::offer .spawn.f.where.val where
puts $out "offered [.spawn.f.where.val cget -values]"
.spawn.f.hosts.l selection set [lsearch -index 0 $spawn::S(hosts) h3]
event generate .spawn.f.hosts.l <<ListboxSelect>>
update
puts $out "picked $spawn::S(where) $spawn::S(whereval)"
spawn::toggle
set spawn::S(mode) log
set spawn::S(logdir) $::env(S)/dlgarch
update
vtest::shot $::env(SHOTS)/hosts_arch-2-spawn-arch.png .spawn
foreach {v k} {LINUX mismatch SUN4 nosuch LINUXS390 start} {
	set spawn::S(whereval) $v
	spawn::start
	puts $out "$k $spawn::S(status)"
}
for {set i 0} {$i < 300 && $spawn::S(fd) ne ""} {incr i} { vtest::wait 100 }
for {set i 0} {$i < 100 && $view::V(live_via) ne "done"} {incr i} { vtest::wait 50 }
puts $out "status $spawn::S(status)"
close $out
file rename $::env(S)/dlg.tmp $::env(S)/dlg.result
exit 0
EOF
	export S SHOTS EP
	$HOSTS run h1 timeout 120 "$B/bin/pangaea-view" -script "$S/dlg.tcl" >vout 2>verr
	expect_eq "dialog: the viewer exits 0" "$?" 0
	expect_eq "dialog: each host listed with its architecture" \
		"$(grep '^row' dlg.result | awk '{print $2 "/" $3}' | tr '\n' ' ')" \
		"h1/LINUX64 h2/LINUX h3/LINUXS390 "
	expect_grep "dialog: the program's architecture and its host shown" dlg.result \
		"^parch built for LINUXS390 \(its hosts: h3\)$"
	expect_grep "dialog: Where Architecture offers the hosts' architectures" dlg.result \
		"^offered LINUX64 LINUX LINUXS390$"
	expect_grep "dialog: h3 picked under Where Architecture gives LINUXS390" dlg.result \
		"^picked arch LINUXS390$"
	expect_grep "dialog: an architecture that cannot run the program refused" dlg.result \
		"^mismatch error: the program is built for LINUXS390, but Where is LINUX$"
	expect_grep "dialog: an architecture of no host refused" dlg.result \
		"^nosuch error: no host of architecture SUN4 in the virtual machine \(its architectures: LINUX64, LINUX, LINUXS390\)$"
	expect_grep "dialog: the s390x run ended well" dlg.result "^status exited 0$"
	expect_grep "dialog: -arch LINUXS390 reached pvm_spawn" dlgarch/task-0.exec \
		"^spawn 1 file=\".*/s390x/archmix\" flags=2 where=\"LINUXS390\" .*tasks=\[1@h3\]"
fi
$HOSTS run h1 sh -c 'echo "delete h3" | timeout 20 pvm' >/dev/null 2>&1
pg -log -logdir bad "$EP/s390x/archmix" h1 </dev/null
expect_eq "s390x program, no s390x host: refused" "$(cat rc) $(grep -c error: err)" "1 1"
expect_grep "s390x program, no s390x host: said clearly" err \
	"archmix is built for LINUXS390, and no host of that architecture is in the virtual machine \(its hosts: h1 LINUX64, h2 LINUX\)"

hosts_end
finish
