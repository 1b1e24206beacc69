# races.tcl: racing events in pangaea-view (those pangaea-trace races
# lists, found from the run's logs when it is opened: pgdb races-load).
# A racing event is drawn with a magenta outline; selecting one lists its
# alternatives in the details; the Race menu (also popped up by a double
# click) offers, for the selected racing event, "what if" it had got an
# alternative (pangaea -replay -swap ..., the result opened when done),
# "explore from here" (pangaea -explore -from ...), and the runs an
# exploration kept (REC.explore/NNN), opened one after another or side by
# side.

namespace eval view {
	variable V
	# races: id -> {what alternatives} of the racing events drawn;
	# race_sel: {id ltid seq what alternatives} of the selected racing
	# event, or ""; race_cmd: the last command the menu started; race_job:
	# its pipe while it runs; race_rc, race_out: how it ended; runs, run_i:
	# the exploration's kept runs and the one opened last
	set V(races) {}
	set V(race_sel) ""
	set V(race_cmd) ""
	set V(race_job) ""
	set V(race_rc) ""
	set V(race_out) ""
	set V(runs) {}
	set V(run_i) -1
}

# Adds the Race menu and the double-click popup.
proc view::race_build {} {
	.mb add cascade -label Race -menu .mb.r -underline 0
	menu .mb.r -tearoff 0 -postcommand {view::race_menu .mb.r}
	menu .racepop -tearoff 0
	bind .g.c <Double-Button-1> {view::race_popup %X %Y}
}

# Outlines the racing events among the events drawn (detail mode) of the
# window up to T1.
proc view::draw_races {t1} {
	variable V
	set c .g.c
	set V(races) [dict create]
	set pad [expr {wide(10 * $V(scale))}]
	foreach {id what alts} [pgdb races [expr {$V(t0) - $pad}] \
		[expr {$t1 + $pad}] 50000] {
		set item [lindex [$c find withtag "ev&&e:$id"] 0]
		if {$item eq ""} continue
		dict set V(races) $id [list $what $alts]
		lassign [$c bbox $item] a b cc d
		$c create rectangle [expr {$a - 3}] [expr {$b - 3}] \
			[expr {$cc + 3}] [expr {$d + 3}] -outline magenta3 \
			-width 2 -tags [list race r:$id e:$id]
	}
}

# The log folder of the open run (that of its trace.db, or the folder
# itself while it is read from its logs; "" for a live run or a
# database elsewhere).
proc view::race_rec {} {
	variable V
	if {$V(db) ne "" && [file tail $V(db)] eq "trace.db"} {
		return [file normalize [file dirname $V(db)]]
	}
	if {$V(db) ne "" && $V(importing) && [file isdirectory $V(db)]} {
		return [file normalize $V(db)]
	}
	return ""
}

# Finds the racing events of the run just opened, from its logs (none
# when they cannot be read: the reason is in V(race_err)).
proc view::race_load {} {
	variable V
	set V(race_err) ""
	if {[catch {pgdb races-load [view::race_rec]} n]} {
		set V(race_err) $n
		set n 0
	}
	set V(nraces) $n
}

# race_load after the first picture of a run read from its log folder
# DIR, when that run is still the open one; its races are drawn then.
proc view::race_load_late {dir} {
	if {[view::race_rec] ne [file normalize $dir]} return
	view::race_load
	view::redraw_later
}

# After event ID was selected: its alternatives, if it races, go to the
# details and it becomes the Race menu's event.
proc view::race_details {id} {
	variable V
	set V(race_sel) ""
	set r [pgdb race $id]
	if {$r eq ""} return
	lassign $r what alts
	set e [pgdb event $id]
	set V(race_sel) [list $id [dict get $e ltid] [dict get $e seq] $what $alts]
	.details insert end "racing ($what): it could have got\
		[join $alts {, }] instead (Race menu or double click: what if,\
		explore from here)\n"
}

# Fills menu M for the selected racing event.
proc view::race_menu {m} {
	variable V
	$m delete 0 end
	if {$V(race_sel) eq ""} {
		$m add command -label "Select a racing event (outlined) first" \
			-state disabled
	} else {
		lassign $V(race_sel) id l e what alts
		foreach a $alts {
			# a swap names a message: not "nothing", nor a join's
			if {$what eq "join" || ![regexp {^(\d+):(\d+)$} $a -> s mid]} continue
			$m add command -label "What if $l:$e got $s:$mid" \
				-command [list view::whatif $l $e $s $mid]
		}
		$m add command -label "Explore from here ($l:$e)" \
			-command [list view::explore $l $e]
	}
	$m add separator
	$m add command -label "Exploration runs..." -command view::explore_runs
}

# Pops the Race menu up at screen X,Y when a racing event is selected.
proc view::race_popup {x y} {
	variable V
	if {$V(race_sel) eq ""} return
	view::race_menu .racepop
	tk_popup .racepop $x $y
}

# The launcher to run: PANGAEA_VIEW_LAUNCHER, else the pangaea beside
# this program, else the one on PATH.
proc view::launcher {} {
	if {[info exists ::env(PANGAEA_VIEW_LAUNCHER)]} {
		return $::env(PANGAEA_VIEW_LAUNCHER)
	}
	set p [file join [file dirname [info nameofexecutable]] pangaea]
	return [expr {[file executable $p] ? $p : "pangaea"}]
}

# What if event E of task L had got message M of task S: replays the
# recording with that swap into a new folder REC.whatif-L-E-S-M[.N] and
# opens it when the run is over.
proc view::whatif {l e s m} {
	set rec [view::race_rec]
	set out $rec.whatif-$l-$e-$s-$m
	for {set n 2} {[file exists $out]} {incr n} {
		set out $rec.whatif-$l-$e-$s-$m.$n
	}
	view::race_start [list [view::launcher] -replay -swap $l:$e=$s:$m \
		-logdir $rec -out $out] [list view::whatif_done $out]
}

# The what-if run into OUT ended: opens OUT if the run left a recording.
proc view::whatif_done {out} {
	if {[file isdirectory $out]} { view::open_window $out }
}

# Explores the other orders from event E of task L (pangaea -explore);
# lists the runs it kept when it is over.
proc view::explore {l e} {
	view::race_start [list [view::launcher] -explore -from $l:$e \
		-logdir [view::race_rec]] view::explore_runs
}

# Starts CMD (a list) without a terminal, its output collected; DONE is
# evaluated when it ends.  One at a time.
proc view::race_start {cmd done} {
	variable V
	if {$V(race_job) ne ""} {
		.status configure -text "a run is going: [join $V(race_cmd)]"
		return
	}
	set V(race_cmd) $cmd
	set V(race_out) ""
	set V(race_rc) ""
	set f [open |[concat $cmd [list < /dev/null 2>@1]] r]
	fconfigure $f -blocking 0
	set V(race_job) $f
	fileevent $f readable [list view::race_read $f $done]
	.status configure -text "running: [join $cmd]"
}

# Reads what the command of pipe F printed; at its end shows how it
# ended in the details and evaluates DONE.
proc view::race_read {f done} {
	variable V
	append V(race_out) [read $f]
	if {![eof $f]} return
	fconfigure $f -blocking 1
	set rc 0
	if {[catch {close $f} err opts]} {
		set code [dict get $opts -errorcode]
		set rc [expr {[lindex $code 0] eq "CHILDSTATUS" ? [lindex $code 2] : 1}]
	}
	set V(race_job) ""
	set V(race_rc) $rc
	.details delete 1.0 end
	.details insert end "[join $V(race_cmd)]\nexit status $rc\n$V(race_out)"
	.status configure -text "ended (exit $rc): [join $V(race_cmd)]"
	uplevel #0 $done
}

# Opens log folder DIR in a new viewer window (its own process).
proc view::open_window {dir} {
	exec [info nameofexecutable] $dir >/dev/null 2>@1 &
}

# The runs an exploration kept (REC.explore/NNN), in a window: open one
# here, the next one after another, or the selected ones side by side.
proc view::explore_runs {} {
	variable V
	set V(runs) [lsort [glob -nocomplain -types d \
		[file join "[view::race_rec].explore" *]]]
	set V(run_i) -1
	set w .runs
	if {![winfo exists $w]} {
		toplevel $w
		wm title $w "Exploration runs"
		listbox $w.l -selectmode extended -width 60 -height 10
		frame $w.b
		button $w.b.open -text "Open here" -command {view::run_open sel}
		button $w.b.next -text "Next" -command {view::run_open next}
		button $w.b.side -text "Side by side" -command view::run_side
		pack $w.b.open $w.b.next $w.b.side -side left
		pack $w.l -side top -fill both -expand 1
		pack $w.b -side bottom -fill x
	}
	$w.l delete 0 end
	foreach r $V(runs) { $w.l insert end [file tail $r] }
	if {$V(runs) eq ""} { $w.l insert end "(no runs kept in [view::race_rec].explore)" }
}

# Opens in this window the selected kept run (HOW sel) or the one after
# the last opened (HOW next).
proc view::run_open {how} {
	variable V
	if {$V(runs) eq ""} return
	set i [lindex [.runs.l curselection] 0]
	if {$how eq "next" || $i eq ""} {
		set i [expr {($V(run_i) + 1) % [llength $V(runs)]}]
	}
	set V(run_i) $i
	.runs.l selection clear 0 end
	.runs.l selection set $i
	view::open_run [lindex $V(runs) $i]
}

# Opens each selected kept run (all when none is) in a window of its own.
proc view::run_side {} {
	variable V
	set sel [.runs.l curselection]
	if {$sel eq ""} { set sel [lsearch -all $V(runs) *] }
	foreach i $sel { view::open_window [lindex $V(runs) $i] }
}
