# spawn.tcl: the spawn dialog (XPVM's, paper 001 Figure 2): a command with
# arguments, PVM spawn flags, where, how many, and the Pangaea options
# (mode, Pangaea host, coordinator host, log folder).  The hosts are
# listed with their architectures, and the architecture the program is
# built for (its ELF header) is shown: a host picked in the list becomes
# Where (Host: its name, Architecture: its architecture, passed to the
# launcher as -arch), and a Where whose architecture cannot run the
# program is refused before the start.  Start runs the
# launcher with them and follows the run in the event graph; the
# launcher's messages, errors included, appear in the dialog.  The
# virtual machine's hosts are listed (pangaea -hosts) and offered for
# Where Host, the Pangaea host and the coordinator host; a launcher on
# another host is started there with $PVM_RSH (as pvmd starts its
# remote daemons), and the live events come back through a relay on
# this host.

namespace eval spawn {
	variable S
	array set S {
		cmd "" error "" nrun 0 where default whereval "" ntask 1 mode log pghost ""
		coordhost "" logdir pangaea-logs more 0 fd "" status "" hosts {} parch ""
		PvmTaskDebug 0 PvmTaskTrace 0 PvmMppFront 0 PvmHostCompl 0
	}
}

# Opens (or raises) the dialog.
proc spawn::dialog {} {
	variable S
	set w .spawn
	if {[winfo exists $w]} { wm deiconify $w; raise $w; return }
	toplevel $w
	wm title $w "Spawn"
	# beside the event graph when the screen has room
	set x [expr {[winfo rootx .] + [winfo width .] + 8}]
	if {$x + 560 <= [winfo screenwidth .]} { wm geometry $w +$x+0 }
	frame $w.f -padx 8 -pady 6
	label $w.f.lc -text "Command:" -anchor w
	entry $w.f.cmd -width 48 -textvariable spawn::S(cmd)
	grid $w.f.lc $w.f.cmd -sticky we -pady 2
	label $w.f.parch -anchor w -textvariable spawn::S(parch)
	grid x $w.f.parch -sticky we
	trace add variable spawn::S(cmd) write spawn::show_arch
	labelframe $w.f.flags -text "Flags"
	foreach fl {PvmTaskDebug PvmTaskTrace PvmMppFront PvmHostCompl} {
		checkbutton $w.f.flags.[string tolower $fl] -text $fl -variable spawn::S($fl)
		pack $w.f.flags.[string tolower $fl] -side left
	}
	grid $w.f.flags - -sticky we -pady 2
	labelframe $w.f.where -text "Where"
	foreach {v t} {default Default host Host arch Architecture} {
		radiobutton $w.f.where.$v -text $t -value $v -variable spawn::S(where)
		pack $w.f.where.$v -side left
	}
	ttk::combobox $w.f.where.val -width 16 -textvariable spawn::S(whereval) \
		-postcommand [list spawn::offer $w.f.where.val where]
	pack $w.f.where.val -side left -padx 4
	grid $w.f.where - -sticky we -pady 2
	# the virtual machine's hosts
	labelframe $w.f.hosts -text "Hosts (host, architecture): pick one for Where"
	listbox $w.f.hosts.l -height 4 -width 40 -exportselection 0 -font TkFixedFont
	bind $w.f.hosts.l <<ListboxSelect>> spawn::pick
	button $w.f.hosts.r -text Refresh -command spawn::list_hosts
	pack $w.f.hosts.l -side left -fill x -expand 1 -padx 2 -pady 2
	pack $w.f.hosts.r -side left -padx 4
	grid $w.f.hosts - -sticky we -pady 2
	label $w.f.ln -text "NTasks:" -anchor w
	spinbox $w.f.n -from 1 -to 999 -width 5 -textvariable spawn::S(ntask)
	grid $w.f.ln $w.f.n -sticky w -pady 2
	pack $w.f -fill x

	# the Pangaea options, shown by the button
	labelframe $w.pg -text "Pangaea Options" -padx 8 -pady 4
	frame $w.pg.m
	foreach {v t} {replay Replay log Log display Display none None} {
		radiobutton $w.pg.m.$v -text $t -value $v -variable spawn::S(mode)
		pack $w.pg.m.$v -side left
	}
	grid $w.pg.m - -sticky w
	foreach {k t} {pghost "Pangaea host:" coordhost "Coordinator host:" logdir "Log folder:"} {
		label $w.pg.l$k -text $t -anchor w
		if {$k eq "logdir"} {
			entry $w.pg.$k -width 36 -textvariable spawn::S($k)
		} else {
			ttk::combobox $w.pg.$k -width 34 -textvariable spawn::S($k) \
				-postcommand [list spawn::offer $w.pg.$k host]
		}
		grid $w.pg.l$k $w.pg.$k -sticky we -pady 1
	}

	frame $w.b
	button $w.b.start -text Start -command spawn::start
	button $w.b.opts -text "Pangaea Options" -command spawn::toggle
	button $w.b.cancel -text Close -command [list wm withdraw $w]
	pack $w.b.start $w.b.opts -side left -padx 4 -pady 4
	pack $w.b.cancel -side right -padx 4 -pady 4
	pack $w.b -fill x
	label $w.err -anchor w -foreground red3 -textvariable spawn::S(error) \
		-wraplength 540 -justify left
	text $w.msg -height 8 -width 70 -wrap word -background #f8f8f4
	$w.msg tag configure error -foreground red3
	pack $w.err -fill x
	pack $w.msg -fill both -expand 1
	if {$S(more)} { pack $w.pg -before $w.b -fill x }
	spawn::list_hosts
}

# The virtual machine's hosts into S(hosts), a list of {NAME ARCH THIS}
# (THIS: 1 for the host whose pvmd answered, ours), and into the dialog's
# list; none without a running virtual machine (pangaea -hosts never
# starts one).
proc spawn::list_hosts {} {
	variable S
	set S(hosts) {}
	if {![catch {exec [spawn::tool pangaea] -hosts 2>/dev/null} out]} {
		foreach line [split $out \n] {
			if {[llength $line] >= 2} {
				lappend S(hosts) [list [lindex $line 0] [lindex $line 1] \
					[expr {[lindex $line 2] eq "this"}]]
			}
		}
	}
	set l .spawn.f.hosts.l
	if {![winfo exists $l]} return
	$l delete 0 end
	foreach h $S(hosts) {
		lassign $h name arch this
		$l insert end [format "%-12s %-10s %s" $name $arch \
			[expr {$this ? "(this host)" : ""}]]
	}
	if {$S(hosts) eq ""} { $l insert end "(no virtual machine running: this host only)" }
	spawn::show_arch
}

# The architectures of the virtual machine's hosts (S(hosts)), each once.
proc spawn::archs {} {
	variable S
	set v {}
	foreach h $S(hosts) {
		if {[lindex $h 1] ni $v} { lappend v [lindex $h 1] }
	}
	return $v
}

# The hosts of architecture ARCH among S(hosts).
proc spawn::hosts_of {arch} {
	variable S
	set v {}
	foreach h $S(hosts) {
		if {[lindex $h 1] eq $arch} { lappend v [lindex $h 0] }
	}
	return $v
}

# Fills combobox CB's choices, refreshed: WHAT host, the hosts; WHAT
# where, what Where asks for (Host: the hosts, Architecture: the hosts'
# architectures, Default: both).
proc spawn::offer {cb what} {
	variable S
	spawn::list_hosts
	set v {}
	if {$what eq "host" || $S(where) ne "arch"} {
		foreach h $S(hosts) { lappend v [lindex $h 0] }
	}
	if {$what eq "where" && $S(where) ne "host"} { lappend v {*}[spawn::archs] }
	$cb configure -values $v
}

# A host picked in the list: Where becomes it (Architecture: its
# architecture; else Host: its name).
proc spawn::pick {} {
	variable S
	set i [lindex [.spawn.f.hosts.l curselection] 0]
	if {$i eq "" || $i >= [llength $S(hosts)]} return
	lassign [lindex $S(hosts) $i] name arch
	if {$S(where) eq "arch"} {
		set S(whereval) $arch
	} else {
		set S(where) host
		set S(whereval) $name
	}
}

# The PVM architecture the ELF program file PATH is built for (LINUX64,
# LINUX, LINUXS390: its class, byte order and machine, as the launcher
# reads them), or "" if it is none of them or cannot be read.
proc spawn::program_arch {path} {
	if {[catch {open $path rb} f]} { return "" }
	set h [read $f 20]
	close $f
	if {[string length $h] < 20 || [string range $h 0 3] ne "\x7fELF"} { return "" }
	binary scan $h @4cc class data
	binary scan $h [expr {$data == 2 ? "@18S" : "@18s"}] m
	switch -- [expr {$m & 0xffff}]/$class {
		62/2 { return LINUX64 }
		3/1 { return LINUX }
		22/2 { return LINUXS390 }
	}
	return ""
}

# The file of the command's program (its first word, found on $PATH),
# or "".
proc spawn::program_file {} {
	variable S
	if {[catch {lindex $S(cmd) 0} prog] || $prog eq ""} { return "" }
	if {[file isfile $prog]} { return $prog }
	return [lindex [auto_execok $prog] 0]
}

# Shows the architecture of the command's program into S(parch), with
# the hosts that can run it.
proc spawn::show_arch {args} {
	variable S
	set S(parch) ""
	set file [spawn::program_file]
	if {$file eq ""} return
	set a [spawn::program_arch $file]
	if {$a eq ""} return
	set S(parch) "built for $a"
	if {$S(hosts) ne ""} {
		set on [spawn::hosts_of $a]
		append S(parch) [expr {$on eq "" ? " (no host of it in the virtual machine)" :
			" (its hosts: [join $on {, }])"}]
	}
}

# This host's name in the virtual machine ("" if none is known).
proc spawn::this_host {} {
	variable S
	foreach h $S(hosts) {
		if {[lindex $h 2]} { return [lindex $h 0] }
	}
	return ""
}

# Shows or hides the Pangaea options.
proc spawn::toggle {} {
	variable S
	set S(more) [expr {!$S(more)}]
	if {$S(more)} { pack .spawn.pg -before .spawn.b -fill x } else { pack forget .spawn.pg }
}

# Adds TEXT to the dialog's message area.
proc spawn::say {text} {
	variable S
	set err [regexp {^(pangaea[-a-z]*: )?error: } $text]
	if {$err} { set S(error) $text }
	if {![winfo exists .spawn.msg]} { puts stderr $text; return }
	.spawn.msg insert end "$text\n" [expr {$err ? "error" : ""}]
	.spawn.msg see end
}

# Path of a Pangaea program next to pangaea-view (else found on $PATH).
proc spawn::tool {name} {
	set p [file join [file dirname [info nameofexecutable]] $name]
	return [expr {[file executable $p] ? $p : $name}]
}

# Whether HOST names this machine.
proc spawn::local_host {host} {
	return [expr {$host in [list "" localhost 127.0.0.1 [info hostname] \
		[spawn::this_host]]}]
}

# WORD quoted for a POSIX shell.
proc spawn::shquote {word} {
	return '[string map [list ' {'\''}] $word]'
}

# CMD (the launcher's words, run with the variables ENV, NAME=VALUE
# words) as started on HOST: $PVM_RSH (else rsh, as pvmd does) HOST -n,
# in this folder (which HOST must see, as with NFS), with PVM's and
# Pangaea's variables passed on.
proc spawn::remote {host env cmd} {
	foreach v {PVM_ROOT PVM_VMID PVM_TMP PVM_ALLOW_ROOT PVM_RSH PVM_EXPORT
		   PANGAEA_TIMELINE} {
		if {[info exists ::env($v)]} { lappend env $v=$::env($v) }
	}
	set line "cd [spawn::shquote [pwd]] && exec env"
	foreach word [concat $env $cmd] { append line " " [spawn::shquote $word] }
	set rsh [expr {[info exists ::env(PVM_RSH)] && $::env(PVM_RSH) ne "" ?
		       $::env(PVM_RSH) : "rsh"}]
	return [list $rsh $host -n $line]
}

# The launcher command line for the dialog's settings (or an error).
proc spawn::command {} {
	variable S
	set words $S(cmd)
	if {[catch {llength $words}]} { error "the command is not a valid word list" }
	if {$S(mode) ne "display" && $S(mode) ne "replay" && [llength $words] == 0} {
		error "type a command to run"
	}
	if {![string is integer -strict $S(ntask)] || $S(ntask) < 1} {
		error "NTasks must be a number >= 1"
	}
	if {![spawn::local_host $S(pghost)] && $S(hosts) ne "" &&
	    $S(pghost) ni [lmap h $S(hosts) {lindex $h 0}]} {
		error "Pangaea host $S(pghost) is not in the virtual machine (its hosts: [lmap h $S(hosts) {lindex $h 0}])"
	}
	if {$S(where) eq "host" && $S(whereval) eq ""} { error "Where Host: type a host name" }
	if {$S(where) eq "arch" && $S(whereval) eq ""} {
		error "Where Architecture: type an architecture (e.g. LINUX64)"
	}
	# the architecture Where gives, against the program's
	set parch [spawn::program_arch [spawn::program_file]]
	set warch ""
	if {$S(where) eq "arch"} {
		set warch $S(whereval)
		if {$S(hosts) ne "" && $warch ni [spawn::archs]} {
			error "no host of architecture $warch in the virtual machine (its architectures: [join [spawn::archs] {, }])"
		}
	} elseif {$S(where) eq "host"} {
		foreach h $S(hosts) {
			if {[lindex $h 0] eq $S(whereval)} { set warch [lindex $h 1] }
		}
	}
	if {$parch ne "" && $warch ne "" && $warch ne $parch && $S(mode) ne "replay"} {
		error "the program is built for $parch, but Where is [expr {$S(where) eq "host" ? "host $S(whereval), " : ""}]$warch"
	}
	set flags {}
	foreach fl {PvmTaskDebug PvmTaskTrace PvmMppFront PvmHostCompl} {
		if {$S($fl)} { lappend flags $fl }
	}
	if {$S(PvmHostCompl) && $S(where) ne "host"} {
		error "PvmHostCompl means any host but the one given: choose Where Host"
	}
	# PvmTaskDebug in a replay: task 1 under gdb (spawn::debug), not a flag
	set rflags [lsearch -all -inline -not -exact $flags PvmTaskDebug]
	if {$S(mode) eq "replay" && ($S(where) ne "default" || $rflags ne "")} {
		error "a replay spawns as recorded: set Where to Default and clear the flags (but PvmTaskDebug: gdb)"
	}
	if {$S(mode) eq "none"} {
		set prog [lindex $words 0]
		if {[auto_execok $prog] eq "" && ![file executable $prog]} {
			error "program not found or not executable: $prog"
		}
		if {$S(where) ne "default" || $flags ne "" || $S(ntask) > 1} {
			spawn::say "note: None runs the program once, as from a shell: Where, NTasks and the flags are for Log runs"
		}
		return $words
	}
	set cmd [list [spawn::tool pangaea] -$S(mode) -view -logdir $S(logdir)]
	if {$S(coordhost) ne ""} { lappend cmd -coord $S(coordhost) }
	if {$S(where) eq "host"} { lappend cmd -host $S(whereval) }
	if {$S(where) eq "arch"} { lappend cmd -arch $S(whereval) }
	if {$flags ne ""} { lappend cmd -flags [join $flags ,] }
	if {$S(ntask) > 1} { lappend cmd -n $S(ntask) }
	return [concat $cmd $words]
}

# Start: runs the launcher (or the bare program, or the display).
proc spawn::start {} {
	variable S
	if {$S(fd) ne ""} { spawn::say "a run is already going"; return }
	if {[winfo exists .spawn.msg]} { .spawn.msg delete 1.0 end }
	set S(error) ""
	if {[catch {spawn::command} cmd]} {
		spawn::say "error: $cmd"
		set S(status) "error: $cmd"
		return
	}
	if {$S(mode) eq "replay" && $S(PvmTaskDebug)} {
		spawn::debug $S(logdir) 1 ""
		return
	}
	if {$S(mode) eq "display"} {
		if {[catch {view::open_run $S(logdir)} err]} {
			spawn::say "error: $err"
			set S(status) "error: $err"
		} else {
			set S(status) "displayed"
		}
		return
	}
	# logs older than this run (a previous recording) are not shown
	set view::V(live_since) [clock seconds]
	spawn::say "\$ [join $cmd]"
	set env {}
	if {$S(mode) in {log replay}} {
		# the run's coordinator relays its events to us on this socket
		if {[catch {view::sock_dir} sdir]} {
			spawn::say "error: $sdir"
			set S(status) "error: $sdir"
			return
		}
		set sock [file join $sdir view-[pid]-[incr S(nrun)].sock]
		set env [list PANGAEA_LIVE=$sock]
		# the launcher starts a relay here when the coordinator is
		# elsewhere: it must know our host's name in the machine
		if {[spawn::this_host] ne ""} {
			lappend env PANGAEA_LIVE_HOST=[spawn::this_host]
		}
	}
	if {![spawn::local_host $S(pghost)]} {
		set cmd [spawn::remote $S(pghost) $env $cmd]
		spawn::say "(on $S(pghost): [join [lrange $cmd 0 1]] ...)"
	} elseif {$env ne ""} {
		set cmd [concat env $env $cmd]
	}
	if {[catch {open |[concat $cmd [list 2>@1]] r} fd]} {
		spawn::say "error: $fd"
		set S(status) "error: $fd"
		return
	}
	set S(fd) $fd
	set S(status) running
	fconfigure $fd -blocking 0 -buffering line
	fileevent $fd readable [list spawn::output $fd]
	if {$S(mode) in {log replay}} {
		# a replay's own folder is known when the launcher says it
		view::live_sock $sock [expr {$S(mode) eq "log" ? $S(logdir) : ""}]
	}
}

# Copies the run's output into the dialog; at its end, says how it ended.
proc spawn::output {fd} {
	variable S
	while {[gets $fd line] >= 0} {
		spawn::say $line
		# a replay says where it logs: follow that folder
		if {[regexp {^pangaea: .*replay.* logs? (?:to|into|in) (\S+)} $line -> d]} {
			set view::V(live_dir) [string trimright $d ".,:)"]
		}
	}
	if {![eof $fd]} return
	fconfigure $fd -blocking 1
	if {[catch {close $fd} err opts]} {
		set code [lindex [dict get $opts -errorcode] end]
		if {[lindex [dict get $opts -errorcode] 0] ne "CHILDSTATUS"} { set code ? }
		set S(status) "exited $code"
		spawn::say "run ended with status $code"
	} else {
		set S(status) "exited 0"
		spawn::say "run ended with status 0"
	}
	set S(fd) ""
	# the coordinator closes the socket at the run's end, and the view
	# turns to the complete logs then; if it has not within 8 s, or the
	# view was following the logs, take one last look at them now
	if {$view::V(sock) ne ""} {
		after 8000 spawn::last_look
	} else {
		spawn::last_look
	}
}

# Shows the run's complete logs and stops following it.
proc spawn::last_look {} {
	set dir $view::V(live_dir)
	if {$view::V(sock_chan) ne ""} {
		pgdb live-close
		set view::V(sock_chan) ""
		set view::V(sock) ""
	}
	view::live_stop
	if {$dir ne "" && [glob -nocomplain -directory $dir task-*.comm] ne ""} {
		if {[catch {view::open_run $dir} err]} { spawn::say "error: $err" }
	}
	set view::V(live_via) done
}

# The launcher command that replays the recording DIR with task LTID
# under gdb, stopped before its event EVENT ("": at its start).
proc spawn::debug_command {dir ltid event} {
	set at [expr {$event eq "" ? $ltid : "$ltid:$event"}]
	return [list [spawn::tool pangaea] -replay -debug $at -logdir $dir]
}

# Runs CMD in a terminal of its own, in the background: the words of
# $PANGAEA_TERMINAL (the command is added after them) or xterm -e; the
# terminal's pid.
proc spawn::terminal {cmd} {
	global env
	if {[info exists env(PANGAEA_TERMINAL)] && $env(PANGAEA_TERMINAL) ne ""} {
		set term $env(PANGAEA_TERMINAL)
	} elseif {[auto_execok xterm] ne ""} {
		set term [list xterm -title "pangaea: [lrange $cmd 1 end]" -e]
	} else {
		error "no terminal to run gdb in: install xterm or set PANGAEA_TERMINAL"
	}
	return [exec {*}$term {*}$cmd </dev/null >/dev/null 2>@stderr &]
}

# Replays the recording DIR in a terminal with task LTID under gdb,
# stopped before its event EVENT ("": its start): the spawn dialog's
# PvmTaskDebug and the event menu's "Replay to here in gdb".
proc spawn::debug {dir ltid event} {
	variable S
	set cmd [spawn::debug_command $dir $ltid $event]
	spawn::say "\$ [join $cmd]"
	if {[catch {spawn::terminal $cmd} err]} {
		spawn::say "error: $err"
		set S(status) "error: $err"
		return
	}
	set S(status) "gdb started in a terminal"
}

# "Replay to here in gdb": the selected event of the open run (its task,
# its number in the task's log) is where gdb stops in a replay.
proc spawn::debug_selected {} {
	set sel $view::V(sel)
	if {[lindex $sel 0] ne "e"} {
		.status configure -text "select an event first (click it)"
		return
	}
	set e [pgdb event [lindex $sel 1]]
	set dir $view::V(logdir)
	if {$dir eq ""} { set dir [file dirname $view::V(db)] }
	spawn::debug $dir [dict get $e ltid] [dict get $e seq]
}
