# view.tcl: pangaea-view's window, the event graph of a Pangaea run (paper
# 001 §3-4, Figure 3).  Compiled into pangaea-view as a C string; the C
# side provides `pgdb` (xview/viewdb.c), which reads the run's trace
# database one time window at a time.
#
# The canvas is a viewport: every change of time window, zoom, filter or
# size clears it and draws only what is visible: one item per event (and
# per message line) when the window holds few enough events, a density
# summary per task otherwise.  So a run of a million events draws as fast
# as one of a hundred.

namespace eval view {
	variable V
	array set V {
		db "" logdir "" tmin 0 tmax 1 t0 0 scale 1.0 row0 0
		rowh 44 axish 28 labelw 170 margin 12 detail_max 4000
		pending 0 sel "" mode "" last_ms 0 nshown 0 tasks {}
		f_tasks "" f_tags "" f_send 1 f_recv 1 f_bcast 1 f_mcast 1
		f_other 1 find "" live_job "" live_dir "" live_sig "" t1 0
		force_detail 0 px_per_event 5 live_since 0
		sock "" sock_chan "" sock_lines 0 sock_tries 0 live_via ""
		sock_redraw 0 sock_refresh_ms 0 live_events 0 live_msgs 0
		live_error "" util 1 bandh 12 utilh 130 stats 0 raw 0
		importing 0 import_chan "" import_out "" import_dir ""
		when_drawn {} drawn_ms 0 late 0 late_ms 0 late_t0 0 late_ticks 0
		late_clock 0 status ""
	}
	# the task states (xview/viewstate.c): name and colour, in the order
	# the C side stacks them
	variable STATES {computing #2eb82e "in PVM" #f2d01c waiting #d83030}
	# kind -> what it does with a message: send, recv, probe or other
	# (C decides, logs/format/event.c)
	variable KIND
	array set KIND [pgdb kinds]
	# the filters of the toolbar, and kind -> its filter: a kind with a
	# filter of its own, else its class's (probes go with receives)
	variable FILTERS {send recv bcast mcast other}
	variable CLASS
	foreach {k c} [array get KIND] {
		set CLASS($k) [expr {$k in $FILTERS ? $k : $c eq "probe" ? "recv" : $c}]
	}
	# the call each kind of event (and each op of a call event: call:OP)
	# comes from, as the open run's binding names it (C decides,
	# logs/format/names.c; set again when a run is opened)
	variable CALL
	array set CALL [pgdb calls]
}

# ---------------------------------------------------------------- window

# Builds the main window: menus, toolbar, canvas, scrollbars, details.
proc view::build {} {
	variable V
	variable FILTERS
	wm title . "Pangaea event graph"
	wm geometry . 1000x560
	menu .mb
	. configure -menu .mb
	.mb add cascade -label File -menu .mb.f -underline 0
	menu .mb.f -tearoff 0
	.mb.f add command -label "Open log folder..." -command view::open_dialog
	.mb.f add command -label "Spawn..." -command spawn::dialog
	.mb.f add separator
	.mb.f add command -label "Export PostScript..." -command {view::export_dialog ps}
	.mb.f add command -label "Export PDF..." -command {view::export_dialog pdf}
	.mb.f add command -label "Export PNG..." -command {view::export_dialog png}
	.mb.f add separator
	.mb.f add command -label Quit -command {view::sock_tmp_remove; exit 0}
	.mb add cascade -label View -menu .mb.v -underline 0
	menu .mb.v -tearoff 0
	.mb.v add command -label "Fit all" -command view::fit
	.mb.v add command -label "Zoom in (button 2)" -command {view::zoom 0.5}
	.mb.v add command -label "Zoom out (button 3)" -command {view::zoom 2.0}
	.mb.v add checkbutton -label "Utilization pane" -variable view::V(util) \
		-command view::util_pane
	.mb.v add checkbutton -label "Task states pane" -variable view::V(stats) \
		-command view::util_pane
	.mb add cascade -label Event -menu .mb.e -underline 0
	menu .mb.e -tearoff 0
	.mb.e add command -label "Replay to here in gdb" -command spawn::debug_selected
	view::out_build ;# output.tcl

	frame .tb
	button .tb.fit -text "Fit all" -command view::fit
	button .tb.in -text "+" -width 2 -command {view::zoom 0.5}
	button .tb.out -text "-" -width 2 -command {view::zoom 2.0}
	label .tb.lt -text "  Tasks:"
	entry .tb.tasks -width 10 -textvariable view::V(f_tasks)
	label .tb.lg -text "Tags:"
	entry .tb.tags -width 8 -textvariable view::V(f_tags)
	foreach k $FILTERS {
		checkbutton .tb.k$k -text $k -variable view::V(f_$k) \
			-command view::redraw_later
	}
	label .tb.lf -text "  Message id:"
	entry .tb.find -width 8 -textvariable view::V(find)
	button .tb.go -text Find -command view::find
	checkbutton .tb.raw -text "Raw times" -variable view::V(raw) \
		-command view::raw_toggle
	pack .tb.fit .tb.in .tb.out .tb.lt .tb.tasks .tb.lg .tb.tags -side left
	foreach k $FILTERS { pack .tb.k$k -side left }
	pack .tb.lf .tb.find .tb.go .tb.raw -side left
	bind .tb.tasks <Return> view::redraw_later
	bind .tb.tags <Return> view::redraw_later
	bind .tb.find <Return> view::find

	frame .g
	canvas .g.c -background white -highlightthickness 0 -width 900 -height 330
	scrollbar .g.vs -orient vertical -command view::yscroll
	scrollbar .g.hs -orient horizontal -command view::xscroll
	grid .g.c -row 0 -column 0 -sticky nsew
	grid .g.vs -row 0 -column 1 -sticky ns
	grid .g.hs -row 1 -column 0 -sticky ew
	grid rowconfigure .g 0 -weight 1
	grid columnconfigure .g 0 -weight 1
	view::race_build ;# races.tcl (the Race menu, binds on the canvas)
	# the utilization pane: same time axis as the graph
	frame .u
	canvas .u.c -background white -highlightthickness 0 -width 900 \
		-height $V(utilh)
	pack .u.c -side left -fill x -expand 1
	# the task states pane: a bar per task, its share of each state
	frame .s
	canvas .s.c -background white -highlightthickness 0 -width 900 -height 60
	pack .s.c -side left -fill x -expand 1
	view::hist_build ;# hist.tcl (the histograms' task selector)
	label .status -anchor w -relief sunken -text "no run open"
	text .details -height 7 -wrap word -background #f4f4f0
	pack .tb -side top -fill x
	pack .details -side bottom -fill x
	pack .status -side bottom -fill x
	pack .u -side bottom -fill x
	pack .g -side top -fill both -expand 1

	bind .g.c <Configure> view::redraw_later
	bind .g.c <ButtonPress-1> {view::press %x %y}
	bind .g.c <B1-Motion> {view::drag %x %y}
	bind .g.c <ButtonRelease-1> {view::release %x %y}
	bind .g.c <ButtonPress-2> {view::zoom 0.5 %x}
	bind .g.c <ButtonPress-3> {view::zoom 2.0 %x}
	bind .g.c <Button-4> {view::zoom 0.8 %x}
	bind .g.c <Button-5> {view::zoom 1.25 %x}
	bind .g.c <Shift-Button-4> {view::xscroll scroll -1 units}
	bind .g.c <Shift-Button-5> {view::xscroll scroll 1 units}
	bind .g.c <MouseWheel> {view::zoom [expr {%D > 0 ? 0.8 : 1.25}] %x}
	# keys act on the graph (not while typing in a filter entry)
	bind .g.c <Key-f> view::fit
	bind .g.c <Key-plus> {view::zoom 0.5}
	bind .g.c <Key-minus> {view::zoom 2.0}
	bind .g.c <Key-Left> {view::xscroll scroll -1 units}
	bind .g.c <Key-Right> {view::xscroll scroll 1 units}
}

# ---------------------------------------------------------------- data

# Opens PATH: a trace database, or a log folder.  A log folder whose
# trace.db is up to date is opened through it; else (unless WAIT) its
# logs are read into memory and drawn at once (pgdb open-logs), while
# pangaea-trace imports them in the background (V(importing) 1: the
# status line says "importing"; the output pane and the races read the
# logs; the details, histograms and Find read the tables over the logs
# when the import keeps their times, else they wait for it); with WAIT
# the import is done first.
proc view::open_run {path {wait 0}} {
	variable V
	view::import_cancel
	set db $path
	if {[file isdirectory $path]} {
		set V(logdir) [file normalize $path]
		set db [file join $path trace.db]
		# (logs it cannot read: the import says why, or salvages)
		if {!$wait && [pgdb stale $path] &&
		    [glob -nocomplain -directory $path task-*.comm] ne "" &&
		    ![catch {pgdb open-logs $path}]} {
			set V(db) $path
			set V(importing) 1
			view::opened $path
			after idle [list view::import_start $path]
			return
		}
		view::import $path
	}
	pgdb open $db $V(raw)
	set V(db) $db
	view::opened $path
}

# What opening PATH (now in pgdb) sets: tasks, time range, races, output,
# title; then the whole run is shown.
proc view::opened {path} {
	variable V
	# races.tcl; a run read from its logs gets its races after the first
	# picture (a full pass over the logs: not before the window shows)
	if {$V(importing)} {
		set V(nraces) 0
		set V(race_err) ""
		view::when_drawn [list view::late_start $V(db)]
	} else {
		view::race_load
	}
	set V(tasks) [pgdb tasks]
	lassign [pgdb range] V(tmin) V(tmax)
	view::out_load ;# output.tcl
	if {$V(tmax) <= $V(tmin)} { set V(tmax) [expr {$V(tmin) + 1000}] }
	set V(row0) 0
	set V(sel) ""
	set V(race_sel) ""
	set meta [pgdb meta]
	set V(meta) [dict create {*}$meta]
	variable CALL
	array unset CALL
	array set CALL [pgdb calls [expr {[file isdirectory $path] ? $path : [file dirname $path]}]]
	set mode [expr {[dict exists $V(meta) mode] ? [dict get $V(meta) mode] : "?"}]
	wm title . "Pangaea event graph: [file tail [file normalize $path]] ($mode)"
	view::fit
}

# The pangaea-trace beside this pangaea-view (else the one on the PATH).
proc view::trace_cmd {} {
	if {[info exists ::env(PANGAEA_VIEW_TRACE)]} { return $::env(PANGAEA_VIEW_TRACE) }
	set trace [file join [file dirname [info nameofexecutable]] pangaea-trace]
	if {![file executable $trace]} { set trace pangaea-trace }
	return $trace
}

# Starts importing DIR in the background (a child pangaea-trace import);
# view::import_read takes over when it ends.
proc view::import_start {dir} {
	variable V
	if {!$V(importing) || $V(logdir) ne [file normalize $dir]} return
	set f [open |[list [view::trace_cmd] import $dir 2>@1] r]
	fconfigure $f -blocking 0
	set V(import_chan) $f
	set V(import_dir) $dir
	set V(import_out) ""
	fileevent $f readable [list view::import_read $f $dir]
}

# Stops a background import (another run is opened).
proc view::import_cancel {} {
	variable V
	set V(importing) 0
	if {$V(import_chan) eq ""} return
	set f $V(import_chan)
	set V(import_chan) ""
	set pids [pid $f]
	catch {exec kill {*}$pids}
	catch {close $f}
	# what the killed import was writing (logs/tracedb/tracedb.c: DB.tmp-PID)
	foreach p $pids {
		file delete [file join $V(import_dir) trace.db.tmp-$p]
	}
}

# Leaving the viewer stops its background import too: Tcl does not end
# a pipeline's child when it closes the channel at exit, and the import
# would run on to its end (main.c does the same when the window goes).
rename ::exit ::view::tcl_exit
proc ::exit {{code 0}} {
	view::import_cancel
	::view::tcl_exit $code
}

# The background import of DIR wrote to F or ended: once it is over,
# its trace.db serves the details, races, output and histograms (pgdb
# attach, keeping what was read from the logs; the database opened whole
# when its times are not those of the logs, e.g. put through the
# controlled logical clock).
proc view::import_read {f dir} {
	variable V
	append V(import_out) [read $f]
	if {![eof $f]} return
	fconfigure $f -blocking 1
	set V(import_chan) ""
	set failed [catch {close $f} err]
	set V(importing) 0
	if {$failed} {
		.status configure -text "cannot import $dir: $V(import_out)"
		.details delete 1.0 end
		.details insert end "cannot import $dir: $V(import_out)\n"
		return
	}
	set db [file join $dir trace.db]
	if {[catch {pgdb attach $db} attached]} {
		.status configure -text "cannot use $db: $attached"
		return
	}
	if {$attached} {
		# (the races came from the logs: the same)
		set V(db) $db
		view::out_load
		set V(meta) [dict create {*}[pgdb meta]]
		set V(tasks) [pgdb tasks]
		view::redraw_later
	} else {
		# keep the window the user is looking at
		set keep [list $V(t0) $V(scale) $V(row0)]
		if {[catch {pgdb open $db $V(raw)} err]} {
			.status configure -text "cannot open $db: $err"
			set V(db) ""
			return
		}
		set V(db) $db
		view::opened $dir
		lassign $keep V(t0) V(scale) V(row0)
		view::redraw_later
	}
}

# After the first picture of a log folder read while it is imported
# (DIR): when the import would put its times through the controlled
# logical clock, the clock is run on the logs in memory (pgdb
# clock-logs) and the window drawn again with its times, so that the
# details, Find and histograms answer from the logs at once, matching
# the picture, instead of waiting for the import.
proc view::clock_late {dir} {
	variable V
	if {!$V(importing) || $V(db) ne $dir} return
	if {[catch {pgdb clock-logs} changed]} {
		# (the details wait for the import, as before)
		return
	}
	if {$changed} {
		lassign [pgdb range] V(tmin) V(tmax)
		if {$V(tmax) <= $V(tmin)} { set V(tmax) [expr {$V(tmin) + 1000}] }
		set V(tasks) [pgdb tasks]
		view::redraw_later
	}
}

# After the first picture of a run read from its log folder DIR (its
# import running): its races and, when the import would put its times
# through the clock, the clock on its logs (view::race_load_late and
# view::clock_late's work) go to a thread (pgdb late-start) while the
# window answers; V(late) is 1 meanwhile, and the status line says how
# long it has been going.  view::late_done takes what it found.
# Without a thread: race_load_late and clock_late, the window waiting.
proc view::late_start {dir} {
	variable V
	if {[view::race_rec] ne [file normalize $dir]} return
	if {[catch {pgdb late-start [view::race_rec] [list view::late_done $dir]} \
		 V(late_clock)]} {
		view::race_load_late $dir
		view::clock_late $dir
		set V(late_ms) [clock milliseconds]
		return
	}
	set V(late) 1
	set V(late_t0) [clock milliseconds]
	set V(late_ticks) 0
	after 100 view::late_tick
}

# The status line: the last redraw's, and while the late work runs,
# how long it has been going.
proc view::status_text {} {
	variable V
	if {!$V(late)} { return $V(status) }
	return [format "%s   (finding the races%s: %.1f s)" $V(status) \
		[expr {$V(late_clock) ? ", running the clock on the logs" : ""}] \
		[expr {([clock milliseconds] - $V(late_t0)) / 1000.0}]]
}

# While the late work runs: the status line says so, every 100 ms (when
# nothing else has been said there since the last redraw).
proc view::late_tick {} {
	variable V
	if {!$V(late)} return
	incr V(late_ticks)
	if {[string first $V(status) [.status cget -text]] == 0} {
		.status configure -text [view::status_text]
	}
	after 100 view::late_tick
}

# The late work of DIR is done: the races, and the model's times when the
# clock changed them, are taken if DIR is still the open run (else
# dropped), and the window drawn again.
proc view::late_done {dir} {
	variable V
	set V(late) 0
	set V(late_ms) [clock milliseconds]
	if {[view::race_rec] ne [file normalize $dir]} {
		pgdb late-cancel
		return
	}
	set r [pgdb late-finish]
	set V(nraces) [dict get $r races]
	set V(race_err) [dict get $r race_err]
	# (a clock that failed: the details wait for the import, as before)
	if {[dict get $r clocked]} {
		lassign [pgdb range] V(tmin) V(tmax)
		if {$V(tmax) <= $V(tmin)} { set V(tmax) [expr {$V(tmin) + 1000}] }
		set V(tasks) [pgdb tasks]
	}
	view::redraw_later
}

# Shows the raw times of the hosts' clocks (V(raw) 1) or the synchronised
# ones (docs/TRACEDB.md "Times"): opens the database again with them,
# keeping the window.
proc view::raw_toggle {} {
	variable V
	if {$V(db) eq "" || $V(importing)} return
	pgdb open $V(db) $V(raw)
	set V(tasks) [pgdb tasks]
	lassign [pgdb range] V(tmin) V(tmax)
	if {$V(tmax) <= $V(tmin)} { set V(tmax) [expr {$V(tmin) + 1000}] }
	view::redraw_later
}

# Imports the logs of DIR into DIR/trace.db (pangaea-trace import) when
# that is stale: missing, of another schema version or older than a log
# (the rule of pgdb stale, logs/tracedb/tracedb-stale.c); errors are raised.
proc view::import {dir} {
	if {[pgdb stale $dir]} {
		if {[catch {exec [view::trace_cmd] import $dir 2>@1} out]} {
			error "cannot import $dir: $out"
		}
	}
}

# Tasks shown, in row order: every task, or those of the Tasks filter.
proc view::rows {} {
	variable V
	set want [string map {, " "} $V(f_tasks)]
	set rows {}
	foreach t $V(tasks) {
		set l [dict get $t ltid]
		# a task that logged nothing (the launcher) gets no row
		if {[dict get $t nevents] eq "0"} continue
		if {$want eq "" || $l in $want} { lappend rows $l }
	}
	return $rows
}

# Label of task LTID's row: host, program, ltid (as in the paper); the
# host with its architecture when the hosts have several.
proc view::task_label {ltid} {
	variable V
	foreach t $V(tasks) {
		if {[dict get $t ltid] == $ltid} {
			set host [dict get $t host]
			if {[dict exists $t arch] && [dict get $t arch] ne ""} {
				append host " [dict get $t arch]"
			}
			return [list $host [file tail [dict get $t program]] $ltid]
		}
	}
	return [list ? ? $ltid]
}

# ---------------------------------------------------------------- geometry

# Canvas x of wall time T.
proc view::x {t} {
	variable V
	return [expr {$V(labelw) + $V(margin) + ($t - $V(t0)) / $V(scale)}]
}

# Wall time at canvas x X.
proc view::t {x} {
	variable V
	return [expr {$V(t0) + wide(($x - $V(labelw) - $V(margin)) * $V(scale))}]
}

# Width in pixels of the time area.
proc view::plotw {} {
	variable V
	return [expr {max(50, [winfo width .g.c] - $V(labelw) - 2 * $V(margin))}]
}

# Shows the whole run.
proc view::fit {} {
	variable V
	set V(scale) [expr {double($V(tmax) - $V(tmin)) / [view::plotw]}]
	if {$V(scale) <= 0} { set V(scale) 1.0 }
	set V(t0) $V(tmin)
	view::redraw_later
}

# Multiplies the time scale by F (< 1 spreads events out), keeping the time
# under canvas x X (default: the middle) in place.
proc view::zoom {f {x ""}} {
	variable V
	if {$x eq "" || $x < $V(labelw)} {
		set x [expr {$V(labelw) + $V(margin) + [view::plotw] / 2}]
	}
	set tx [view::t $x]
	set s [expr {$V(scale) * $f}]
	set span [expr {double($V(tmax) - $V(tmin))}]
	if {$s < 0.05} { set s 0.05 }
	if {$s > 4 * $span / [view::plotw]} { set s [expr {4 * $span / [view::plotw]}] }
	set V(scale) $s
	set V(t0) [expr {$tx - wide(($x - $V(labelw) - $V(margin)) * $s)}]
	view::clamp
	view::redraw_later
}

# Shows the time range [A, B].
proc view::zoom_to {a b} {
	variable V
	if {$b <= $a} return
	set V(scale) [expr {max(0.05, double($b - $a) / [view::plotw])}]
	set V(t0) $a
	view::clamp
	view::redraw_later
}

# Keeps the window over the run.
proc view::clamp {} {
	variable V
	set w [expr {[view::plotw] * $V(scale)}]
	set lo [expr {$V(tmin) - wide($w / 2)}]
	set hi [expr {$V(tmax) - wide($w / 2)}]
	if {$V(t0) > $hi} { set V(t0) $hi }
	if {$V(t0) < $lo} { set V(t0) $lo }
}

# Horizontal scrollbar: moveto F, scroll N units|pages.
proc view::xscroll {cmd args} {
	variable V
	set span [expr {double($V(tmax) - $V(tmin))}]
	set w [expr {[view::plotw] * $V(scale)}]
	switch -- $cmd {
		moveto { set V(t0) [expr {$V(tmin) + wide([lindex $args 0] * $span)}] }
		scroll {
			lassign $args n unit
			set step [expr {$unit eq "pages" ? 0.9 * $w : 0.1 * $w}]
			set V(t0) [expr {$V(t0) + wide($n * $step)}]
		}
	}
	view::clamp
	view::redraw_later
}

# Vertical scrollbar: moves the first task row shown.
proc view::yscroll {cmd args} {
	variable V
	set n [llength [view::rows]]
	switch -- $cmd {
		moveto { set V(row0) [expr {int(round([lindex $args 0] * $n))}] }
		scroll { incr V(row0) [lindex $args 0] }
	}
	set vis [view::visible_rows]
	if {$V(row0) > $n - $vis} { set V(row0) [expr {$n - $vis}] }
	if {$V(row0) < 0} { set V(row0) 0 }
	view::redraw_later
}

# How many task rows fit in the canvas.
proc view::visible_rows {} {
	variable V
	return [expr {max(1, ([winfo height .g.c] - $V(axish)) / $V(rowh))}]
}

# ---------------------------------------------------------------- drawing

# Runs SCRIPT once the next picture is on the screen, not before: work
# that holds the window for a while (the races and the clock of a log
# folder read while it is imported) comes after the first picture.  A
# timer due at once would run before it: Tk puts a canvas on the screen
# in an idle handler of its own, after the redraw's.
proc view::when_drawn {script} {
	variable V
	lappend V(when_drawn) $script
	view::redraw_later
}

# Asks for a redraw once the event queue is idle (coalesces many asks).
proc view::redraw_later {} {
	variable V
	if {$V(pending)} return
	set V(pending) 1
	after idle view::redraw
}

# Draws the visible window.
proc view::redraw {} {
	variable V
	set V(pending) 0
	if {$V(db) eq ""} return
	set start [clock microseconds]
	set c .g.c
	$c delete all
	set rows [view::rows]
	set vis [view::visible_rows]
	set shown [lrange $rows $V(row0) [expr {$V(row0) + $vis - 1}]]
	set V(rowy) [dict create]
	set i 0
	foreach l $shown {
		dict set V(rowy) $l [expr {$V(axish) + $V(rowh) * $i + $V(rowh) / 2}]
		incr i
	}
	set t1 [view::t [expr {$V(labelw) + $V(margin) + [view::plotw]}]]
	set V(t1) $t1
	set n [pgdb count $V(t0) $t1 $shown]
	view::draw_axis $t1
	view::draw_rows $shown
	# one shape per event while they fit (about px_per_event pixels each)
	set room [expr {[llength $shown] * [view::plotw] / $V(px_per_event)}]
	if {$V(force_detail) || $n <= min($V(detail_max), $room)} {
		set V(mode) detail
		view::draw_messages $t1
		view::draw_events $t1
		view::draw_races $t1 ;# races.tcl
	} else {
		set V(mode) summary
		view::draw_summary $shown $t1
	}
	# the label column covers what lies left of the time area
	$c create rectangle 0 0 $V(labelw) [winfo height $c] -fill #eeeeea \
		-outline "" -tags labelbg
	$c raise label
	view::draw_legend $c 8 3
	view::draw_selection
	view::out_redraw ;# output.tcl
	view::draw_util $rows $t1
	view::draw_stats $rows $t1
	set span [expr {double($V(tmax) - $V(tmin))}]
	.g.hs set [expr {($V(t0) - $V(tmin)) / $span}] [expr {($t1 - $V(tmin)) / $span}]
	set nr [llength $rows]
	.g.vs set [expr {$nr ? double($V(row0)) / $nr : 0}] \
		[expr {$nr ? double(min($nr, $V(row0) + $vis)) / $nr : 1}]
	set V(nshown) $n
	set V(last_ms) [expr {([clock microseconds] - $start) / 1000.0}]
	set V(status) [format "%s%s   window %s .. %s   %d events (%s)   %s/px   drawn in %.0f ms" \
		[file tail $V(db)] [expr {$V(importing) ? " (importing\u2026)" : ""}] [view::fmt_t $V(t0)] [view::fmt_t $t1] $n \
		$V(mode) [view::fmt_step $V(scale) $V(scale)] $V(last_ms)]
	.status configure -text [view::status_text]
	if {[llength $V(when_drawn)]} {
		# (on the screen now, then view::when_drawn's scripts)
		set q $V(when_drawn)
		set V(when_drawn) {}
		update idletasks
		set V(drawn_ms) [clock milliseconds]
		foreach script $q { after 0 $script }
	}
}

# Time T as text relative to the run's first event.
proc view::fmt_t {t} {
	variable V
	set d [expr {($t - $V(tmin)) / 1e6}]
	return [format "%.3f ms" $d]
}

# The time axis at the top, with ticks at a round step.
proc view::draw_axis {t1} {
	variable V
	set c .g.c
	set span [expr {double($t1 - $V(t0))}]
	set raw [expr {$span / max(1, [view::plotw] / 110)}]
	set p [expr {pow(10, floor(log10(max($raw, 1))))}]
	foreach m {1 2 5 10} {
		set step [expr {$m * $p}]
		if {$step >= $raw} break
	}
	set first [expr {ceil(($V(t0) - $V(tmin)) / $step) * $step}]
	set y [expr {$V(axish) - 6}]
	$c create line $V(labelw) $y [winfo width $c] $y -fill gray50 -tags axis
	for {set r $first} {$V(tmin) + $r <= $t1} {set r [expr {$r + $step}]} {
		set x [view::x [expr {$V(tmin) + wide($r)}]]
		$c create line $x [expr {$y - 4}] $x $y -fill gray50 -tags axis
		$c create line $x $y $x [winfo height $c] -fill gray92 -tags grid
		$c create text $x [expr {$y - 6}] -anchor s -font {Helvetica 8} \
			-text [view::fmt_step $r $step] -tags axis
	}
	$c lower grid
	set V(tick) $step
}

# Relative time R (ns) as a label suited to the tick STEP.
proc view::fmt_step {r step} {
	if {$step >= 1e9} { return [format "%gs" [expr {$r / 1e9}]] }
	if {$step >= 1e6} { return [format "%gms" [expr {$r / 1e6}]] }
	if {$step >= 1e3} { return [format "%gus" [expr {$r / 1e3}]] }
	return [format "%.3gns" $r]
}

# Task lines and their labels (host, program, ltid).
proc view::draw_rows {shown} {
	variable V
	set c .g.c
	set w [winfo width $c]
	set x0 [expr {$V(labelw) + $V(margin)}]
	set pw [view::plotw]
	set t1 [view::t [expr {$x0 + $pw}]]
	foreach l $shown {
		set y [dict get $V(rowy) $l]
		lassign [view::task_label $l] host prog ltid
		$c create line $V(labelw) $y $w $y -fill gray60 -tags taskline
		# the task's states, a pixel column per time bin
		set img [view::photo pgstate$l $pw $V(bandh)]
		pgdb paint-states $img $V(t0) $t1 $l
		$c create image $x0 [expr {$y - $V(bandh) / 2}] -anchor nw \
			-image $img -tags [list states st:$l]
		$c create text 8 [expr {$y - 7}] -anchor w -font {Helvetica 9 bold} \
			-text "$prog  (ltid $ltid)" -tags [list label row:$l]
		$c create text 8 [expr {$y + 8}] -anchor w -font {Helvetica 8} \
			-fill gray30 -text $host -tags [list label row:$l]
	}
}

# The tag filter as a list (empty: every tag).
proc view::tags_wanted {} {
	variable V
	return [string map {, " "} $V(f_tags)]
}

# Lines from sends to their receives.
proc view::draw_messages {t1} {
	variable V
	variable CLASS
	set c .g.c
	set tags [view::tags_wanted]
	set xl [expr {double($V(labelw))}]
	set xr [expr {double([winfo width $c])}]
	foreach {id src dst se re ts tr kind tag} [pgdb messages $V(t0) $t1 20000] {
		if {![dict exists $V(rowy) $src] || ![dict exists $V(rowy) $dst]} continue
		if {$tags ne "" && $tag ni $tags} continue
		if {!$V(f_$CLASS($kind)) && !$V(f_recv)} continue
		set x0 [view::x $ts]; set y0 [dict get $V(rowy) $src]
		set x1 [view::x $tr]; set y1 [dict get $V(rowy) $dst]
		# clip to the visible band so X11 never sees huge coordinates
		lassign [view::clip $x0 $y0 $x1 $y1 $xl $xr] x0 y0 x1 y1
		$c create line $x0 $y0 $x1 $y1 -fill gray35 -width 1 -arrow last \
			-arrowshape {7 8 3} -activefill orange -activewidth 3 \
			-tags [list msg m:$id]
	}
}

# The segment X0,Y0 - X1,Y1 cut to XL <= x <= XR (as a 4-element list).
proc view::clip {x0 y0 x1 y1 xl xr} {
	if {$x1 == $x0} { return [list $x0 $y0 $x1 $y1] }
	set k [expr {($y1 - $y0) / ($x1 - $x0)}]
	foreach e {0 1} {
		set x [set x$e]
		if {$x < $xl} { set x$e $xl; set y$e [expr {$y0 + $k * ($xl - $x0)}] }
		if {$x > $xr} { set x$e $xr; set y$e [expr {$y0 + $k * ($xr - $x0)}] }
	}
	return [list $x0 $y0 $x1 $y1]
}

# One shape per event: sends red circles, receives blue triangles,
# broadcasts green and multicasts yellow squares; unmatched ones hollow,
# dashed, with a "?".
proc view::draw_events {t1} {
	variable V
	variable CLASS
	set c .g.c
	set tags [view::tags_wanted]
	set pad [expr {wide(10 * $V(scale))}]
	foreach {id ltid kind t0 tx peer tag msgid len matched} \
		[pgdb events [expr {$V(t0) - $pad}] [expr {$t1 + $pad}] 50000] {
		if {![dict exists $V(rowy) $ltid]} continue
		set cl $CLASS($kind)
		if {!$V(f_$cl)} continue
		if {$tags ne "" && $cl ne "other" && $tag ni $tags} continue
		view::shape $c $id $kind [view::x $t0] [dict get $V(rowy) $ltid] $matched
	}
}

# What kind KIND does with a message: send, recv, probe or other.
proc view::kind_class {kind} {
	variable KIND
	return [expr {[info exists KIND($kind)] ? $KIND($kind) : "other"}]
}

# Draws event ID of KIND at X,Y; MATCHED 0 draws it as unmatched.
proc view::shape {c id kind x y matched} {
	set r 6
	set tags [list ev k:$kind e:$id]
	switch -- $kind {
		bcast { set col green3; set make square }
		mcast { set col gold; set make square }
		spawn { set col gray40; set make diamond }
		end { set col black; set make bar }
		default {
			switch -- [view::kind_class $kind] {
				send { set col red3; set make oval }
				recv { set col blue3; set make tri }
				probe { set col blue3; set make tri; set matched 2 }
				default { set col gray55; set make tick }
			}
		}
	}
	set fill $col; set outline black; set dash {}
	if {$matched == 0} {
		set fill white; set outline $col; set dash {2 2}
		lappend tags unmatched
	} elseif {$matched == 2} {
		set fill white; set outline $col
	}
	set x0 [expr {$x - $r}]; set x1 [expr {$x + $r}]
	set y0 [expr {$y - $r}]; set y1 [expr {$y + $r}]
	switch -- $make {
		oval { $c create oval $x0 $y0 $x1 $y1 -fill $fill -outline $outline \
			-width 1.5 -dash $dash -activewidth 3 -tags $tags }
		tri { $c create polygon $x0 $y1 $x1 $y1 $x $y0 -fill $fill \
			-outline $outline -width 1.5 -dash $dash -activewidth 3 -tags $tags }
		square { $c create rectangle $x0 $y0 $x1 $y1 -fill $fill \
			-outline $outline -width 1.5 -dash $dash -activewidth 3 -tags $tags }
		diamond { $c create polygon $x $y0 $x1 $y $x $y1 $x0 $y -fill $fill \
			-outline $outline -activewidth 3 -tags $tags }
		bar { $c create rectangle [expr {$x - 2}] $y0 [expr {$x + 2}] $y1 \
			-fill $fill -outline $outline -tags $tags }
		tick { $c create rectangle [expr {$x - 2}] [expr {$y - 2}] \
			[expr {$x + 2}] [expr {$y + 2}] -fill $fill -outline "" -tags $tags }
	}
	if {$matched == 0} {
		$c create text [expr {$x + $r + 1}] [expr {$y - $r - 1}] -anchor sw \
			-text "?" -fill $col -font {Helvetica 9 bold} -tags [list unm e:$id]
	}
}

# Zoomed out: the task lines carry only their states (draw_rows: the
# fraction of each state per pixel column), no shape per event.
proc view::draw_summary {shown t1} {
	variable V
	set c .g.c
	$c create text [expr {$V(labelw) + 10}] [expr {[winfo height $c] - 4}] \
		-anchor sw -fill gray30 -font {Helvetica 8} -tags summary \
		-text "summary: too many events to draw one by one; zoom in (button 2, wheel, drag a range) to see each event"
}

# The photo image NAME, made or resized to W x H; its name.
proc view::photo {name w h} {
	if {$name ni [image names]} {
		image create photo $name -width $w -height $h
	} elseif {[image width $name] != $w || [image height $name] != $h} {
		$name configure -width $w -height $h
	}
	return $name
}

# The colour legend of the states on canvas C, its top left at X,Y.
proc view::draw_legend {c x y} {
	variable STATES
	set i 0
	foreach {name col} $STATES {
		set xx [expr {$x + ($i % 2) * 80}]
		set yy [expr {$y + ($i / 2) * 12}]
		$c create rectangle $xx [expr {$yy + 1}] [expr {$xx + 9}] \
			[expr {$yy + 10}] -fill $col -outline gray30 -tags legend
		$c create text [expr {$xx + 13}] [expr {$yy + 5}] -anchor w \
			-font {Helvetica 8} -text $name -tags legend
		incr i
	}
}

# Shows or hides the utilization pane (V(util)), the task states pane
# (V(stats)) and the output pane (V(out), output.tcl), under the graph in
# that order.
proc view::util_pane {} {
	variable V
	pack forget .u .s .o
	if {$V(out)} { pack .o -side bottom -fill x -after .status }
	if {$V(stats)} { pack .s -side bottom -fill x -after .status }
	if {$V(util)} { pack .u -side bottom -fill x -after .status }
	view::redraw_later
}

# The task states pane: per task of ROWS, a bar split into its time
# computing, in PVM and waiting over the graph's window [V(t0), T1],
# with the percentages, and under them the histograms of the task the
# selector names (hist.tcl); as high as they need.
proc view::draw_stats {rows t1} {
	variable V
	variable STATES
	set c .s.c
	$c delete all
	if {!$V(stats) || $rows eq ""} return
	set x0 [expr {$V(labelw) + $V(margin)}]
	set pw [view::plotw]
	set bg [$c create rectangle 0 0 $V(labelw) 1 -fill #eeeeea -outline ""]
	view::draw_legend $c 8 3
	$c create text $x0 14 -anchor w -font {Helvetica 9 bold} \
		-text "time in each state, [view::fmt_t $V(t0)] .. [view::fmt_t $t1]"
	set y 30
	set V(statsy) {}
	foreach {l v} [pgdb states $V(t0) $t1 $rows] {
		set sum [tcl::mathop::+ {*}$v]
		$c create text 8 [expr {$y + 8}] -anchor w -font {Helvetica 9 bold} \
			-text "[lindex [view::task_label $l] 1]  (ltid $l)"
		set x $x0
		foreach n $v {name col} $STATES {
			if {$sum <= 0} break
			set w [expr {$pw * double($n) / $sum}]
			$c create rectangle $x $y [expr {$x + $w}] [expr {$y + 16}] \
				-fill $col -outline "" -tags [list bar st:$l]
			if {$w >= 34} {
				$c create text [expr {$x + $w / 2}] [expr {$y + 8}] \
					-font {Helvetica 8} -text [format "%.0f%%" \
					[expr {100.0 * $n / $sum}]]
			}
			set x [expr {$x + $w}]
		}
		lappend V(statsy) $l [expr {$y + 8}]
		incr y 22
	}
	# the histograms under the bars (hist.tcl)
	set h [expr {$y + 12 + [view::draw_hists $c [expr {$y + 12}]]}]
	$c coords $bg 0 0 $V(labelw) $h
	if {[$c cget -height] != $h} { $c configure -height $h }
}

# The utilization pane: over the graph's time window [V(t0), T1], how
# many of the tasks ROWS compute, are in PVM or wait (stacked, from the
# bottom), a pixel column per time bin.
proc view::draw_util {rows t1} {
	variable V
	set c .u.c
	$c delete all
	if {!$V(util) || $rows eq ""} return
	set n [llength $rows]
	set h [winfo height $c]
	set top 30; set bot [expr {$h - 16}]
	set x0 [expr {$V(labelw) + $V(margin)}]
	set pw [view::plotw]
	set img [view::photo pgutil $pw [expr {max(1, $bot - $top)}]]
	pgdb paint-util $img $V(t0) $t1 $n $rows
	$c create image $x0 $top -anchor nw -image $img -tags util
	$c create line $x0 $top [expr {$x0 + $pw}] $top -fill gray80 -tags util
	$c create line $x0 $bot [expr {$x0 + $pw}] $bot -fill gray50 -tags util
	# the ticks of the graph's time axis
	if {[info exists V(tick)]} {
		set first [expr {ceil(($V(t0) - $V(tmin)) / $V(tick)) * $V(tick)}]
		for {set r $first} {$V(tmin) + $r <= $t1} {set r [expr {$r + $V(tick)}]} {
			set x [view::x [expr {$V(tmin) + wide($r)}]]
			$c create line $x $bot $x [expr {$bot + 4}] -fill gray50 -tags util
			$c create text $x [expr {$bot + 4}] -anchor n -font {Helvetica 8} \
				-text [view::fmt_step $r $V(tick)] -tags util
		}
	}
	$c create rectangle 0 0 $V(labelw) $h -fill #eeeeea -outline ""
	view::draw_legend $c 8 3
	$c create text 8 [expr {($top + $bot) / 2}] -anchor w \
		-font {Helvetica 9 bold} -text "utilization"
	$c create text [expr {$V(labelw) - 4}] $top -anchor e -font {Helvetica 8} \
		-text "$n tasks"
	$c create text [expr {$V(labelw) - 4}] $bot -anchor e -font {Helvetica 8} -text 0
}

# Rings the selected event or thickens the selected message.
proc view::draw_selection {} {
	variable V
	set c .g.c
	if {$V(sel) eq ""} return
	lassign $V(sel) what id
	if {$what eq "e"} {
		foreach item [$c find withtag "ev&&e:$id"] {
			lassign [$c bbox $item] a b cc d
			$c create oval [expr {$a - 4}] [expr {$b - 4}] [expr {$cc + 4}] \
				[expr {$d + 4}] -outline orange -width 2 -tags selring
		}
	} else {
		$c itemconfigure m:$id -fill orange -width 3
	}
}

# ---------------------------------------------------------------- mouse

# Button 1 down: select what is under the pointer, or start a range drag.
proc view::press {x y} {
	variable V
	focus .g.c
	set V(drag) ""
	set item [.g.c find withtag current]
	if {$item ne ""} {
		foreach t [.g.c gettags $item] {
			if {[regexp {^e:(\d+)$} $t -> id]} { view::select e $id; return }
			if {[regexp {^m:(\d+)$} $t -> id]} { view::select m $id; return }
		}
	}
	if {$x > $V(labelw)} { set V(drag) $x }
}

# Button 1 motion: shows the time range being dragged.
proc view::drag {x y} {
	variable V
	if {$V(drag) eq ""} return
	.g.c delete dragbox
	.g.c create rectangle $V(drag) 0 $x [winfo height .g.c] -outline gray20 \
		-dash {4 2} -fill "" -tags dragbox
}

# Button 1 up: zooms to the dragged range if it is wide enough.
proc view::release {x y} {
	variable V
	.g.c delete dragbox
	if {$V(drag) eq ""} return
	set a [expr {min($V(drag), $x)}]; set b [expr {max($V(drag), $x)}]
	set V(drag) ""
	if {$b - $a >= 5} { view::zoom_to [view::t $a] [view::t $b] }
}

# Selects event (WHAT e) or message (m) ID and shows its details.
proc view::select {what id} {
	variable V
	set V(sel) [list $what $id]
	.details delete 1.0 end
	# while importing, pgdb answers from the logs (viewdb.c vdb_sql) when
	# the import keeps their times or the clock ran on them in memory
	# (view::clock_late), else it fails: the details wait
	if {[catch {expr {$what eq "e" ? [view::event_text $id] : [view::message_text $id]}} text]} {
		if {!$V(importing)} { error $text $::errorInfo }
		.details insert end "importing\u2026: the details come when the trace database is made\n"
		.g.c delete selring
		view::draw_selection
		return
	}
	.details insert end $text
	.g.c delete selring
	.g.c itemconfigure msg -fill gray35 -width 1
	view::draw_selection
	if {$what eq "e"} {
		view::out_near $id
		view::race_details $id
	} else {
		set V(race_sel) ""
	}
}

# The details of event ID: sending and receiving ltid, tag, message id,
# length, timestamp and the call it came from.
proc view::event_text {id} {
	variable V
	variable CALL
	set e [pgdb event $id]
	dict with e {}
	set class [view::kind_class $kind]
	set send [expr {$class eq "send"}]
	set recv [expr {$class in {recv probe}}]
	set out "event $id: $kind, call $CALL($kind), task ltid $ltid, event #$seq\n"
	if {$send} {
		set dsts {}
		foreach m $messages { lappend dsts [dict get $m dst] }
		if {$dsts eq "" && $peer ne ""} { set dsts $peer }
		append out "sending ltid: $ltid   receiving ltid: [join $dsts {, }]\n"
	} elseif {$recv} {
		append out "sending ltid: [view::peer_text $peer]   receiving ltid: $ltid\n"
	}
	if {$send || $recv} {
		append out "tag: $tag   message id: $msgid   length: $len bytes\n"
	}
	append out [format "timestamp: %s (wall %s ns), %.1f us in the call\n" \
		[view::fmt_t $t0] $t0 [expr {($t1 - $t0) / 1e3}]]
	if {$kind eq "pollfail"} { append out "failed polls: $count\n" }
	if {$kind eq "group"} { append out "group $grp: $op($arg) = $result\n" }
	if {$kind eq "kill"} { append out "killed ltid: [view::peer_text $peer]\n" }
	if {$kind eq "call"} {
		set name [expr {[info exists CALL(call:$op)] ? $CALL(call:$op) : $op}]
		append out "$name $grp: $result\n"
	}
	set un {}
	foreach m $messages {
		if {[dict get $m unmatched] eq ""} continue
		set other [expr {$send ? "to ltid [dict get $m dst]" : "from ltid [dict get $m src]"}]
		lappend un "$other: [dict get $m unmatched]"
	}
	if {$un ne ""} { append out "unmatched: [join $un {; }]\n" }
	if {($send || $class eq "recv") && $messages eq ""} {
		append out "unmatched: no message in the database\n"
	}
	return $out
}

# Text for a receive's peer (negative peers are outside the run).
proc view::peer_text {p} {
	switch -- $p { -1 { return "outside the run" } -2 { return "a pvmd" } }
	return $p
}

# The details of message ID (a line between a send and a receive).
proc view::message_text {id} {
	set m [lindex [pgdb message $id] 0]
	dict with m {}
	set out "message $id ($kind)\n"
	append out "sending ltid: $src   receiving ltid: $dst\n"
	append out "tag: $tag   message id: $msgid   length: $len bytes\n"
	append out [format "sent: %s   received: %s   latency %.1f us\n" \
		[view::fmt_t $t_send] [view::fmt_t $t_recv] [expr {($t_recv - $t_send) / 1e3}]]
	return $out
}

# Finds the events of the message id typed in the toolbar, shows the first.
proc view::find {} {
	variable V
	set want [string trim $V(find)]
	if {![string is integer -strict $want]} {
		.status configure -text "message id: a number, please"
		return
	}
	if {[catch {pgdb find $want} hits]} {
		if {!$V(importing)} { error $hits $::errorInfo }
		.status configure -text "importing\u2026: Find comes when the trace database is made"
		return
	}
	if {$hits eq ""} {
		.status configure -text "no event carries message id $want"
		return
	}
	lassign $hits id ltid kind t0
	set w [expr {[view::plotw] * $V(scale)}]
	if {$t0 < $V(t0) || $t0 > $V(t0) + $w} {
		set V(t0) [expr {$t0 - wide($w / 2)}]
	}
	set rows [view::rows]
	set i [lsearch $rows $ltid]
	if {$i >= 0 && ($i < $V(row0) || $i >= $V(row0) + [view::visible_rows])} {
		set V(row0) $i
	}
	view::redraw
	view::select e $id
	set n [expr {[llength $hits] / 4}]
	set list {}
	foreach {i l k t} $hits { lappend list "$k@ltid $l" }
	.details insert end "message id $want: $n event(s): [join $list {, }]\n"
}

# ---------------------------------------------------------------- files

# Asks for a log folder and opens it.
proc view::open_dialog {} {
	set d [tk_chooseDirectory -title "Open a Pangaea log folder" -mustexist 1]
	if {$d eq ""} return
	if {[catch {view::open_run $d} err]} {
		tk_messageBox -icon error -title "pangaea-view" -message $err
	}
}

# Asks for a file name and exports the view as FMT (ps, pdf, png).
proc view::export_dialog {fmt} {
	set f [tk_getSaveFile -title "Export the view" -defaultextension .$fmt \
		-initialfile event-graph.$fmt]
	if {$f eq ""} return
	if {[catch {view::export $fmt $f} err]} {
		tk_messageBox -icon error -title "pangaea-view" -message $err
	}
}

# Writes the visible view to FILE as FMT: ps (Tk's own PostScript), pdf
# (ps2pdf) or png (ghostscript rendering of the PostScript).
proc view::export {fmt file} {
	update idletasks
	set ps [expr {$fmt eq "ps" ? $file : "$file.tmp.ps"}]
	.g.c postscript -file $ps -colormode color -x 0 -y 0 \
		-width [winfo width .g.c] -height [winfo height .g.c]
	switch -- $fmt {
		ps {}
		pdf {
			set rc [catch {exec ps2pdf -dEPSCrop $ps $file 2>@1} out]
			file delete $ps
			if {$rc} { error "ps2pdf failed: $out" }
		}
		png {
			set rc [catch {exec gs -q -dSAFER -dBATCH -dNOPAUSE -dEPSCrop \
				-sDEVICE=png16m -r110 -dTextAlphaBits=4 \
				-dGraphicsAlphaBits=4 -sOutputFile=$file $ps 2>@1} out]
			file delete $ps
			if {$rc} { error "ghostscript failed: $out" }
		}
		default { error "unknown export format $fmt (ps, pdf, png)" }
	}
}

# ---------------------------------------------------------------- live

# Follows a run that is logging into DIR: imports and redraws every
# INTERVAL ms while the logs grow, keeping the window at the run's end
# unless the user moved it.
proc view::live {dir {interval 500}} {
	variable V
	set V(live_dir) $dir
	after cancel $V(live_job)
	view::live_tick $interval
}

# One step of view::live.
proc view::live_tick {interval} {
	variable V
	set dir $V(live_dir)
	if {$dir eq ""} return
	set V(live_job) [after $interval [list view::live_tick $interval]]
	set sig {}
	foreach f [lsort [glob -nocomplain -directory $dir task-*.comm output.log]] {
		if {[file mtime $f] < $V(live_since)} continue
		lappend sig $f [file size $f] [file mtime $f]
	}
	if {$sig eq "" || $sig eq $V(live_sig)} return
	set V(live_sig) $sig
	if {[catch {view::import $dir} err]} {
		.status configure -text "live: $err"
		return
	}
	set follow [expr {$V(db) eq "" || $V(t1) >= $V(tmax)}]
	pgdb open [file join $dir trace.db] $V(raw)
	set V(db) [file join $dir trace.db]
	set V(logdir) $dir
	set V(tasks) [pgdb tasks]
	lassign [pgdb range] V(tmin) V(tmax)
	if {$V(tmax) <= $V(tmin)} { set V(tmax) [expr {$V(tmin) + 1000}] }
	wm title . "Pangaea event graph: [file tail $dir] (live)"
	view::out_load ;# output.tcl
	if {$follow} { view::fit } else { view::redraw_later }
}

# Stops following the run.
proc view::live_stop {} {
	variable V
	after cancel $V(live_job)
	set V(live_dir) ""
}

# Removes the temporary folder of live sockets, if sock_dir made one.
proc view::sock_tmp_remove {} {
	variable V
	if {[info exists V(sock_tmp)]} {
		file delete -force $V(sock_tmp)
		unset V(sock_tmp)
	}
}

# The private folder for live sockets: $XDG_RUNTIME_DIR/pangaea or
# $TMPDIR/pangaea-UID when it is a folder of ours with mode 0700 (made
# if missing), else a fresh temporary one (said on stderr, removed when
# the viewer ends).  Raises an error if none can be made.
proc view::sock_dir {} {
	variable V
	if {[info exists V(sock_tmp)]} {
		return $V(sock_tmp)
	}
	set tried {}
	if {[info exists ::env(XDG_RUNTIME_DIR)] && [file writable $::env(XDG_RUNTIME_DIR)]} {
		lappend tried [file join $::env(XDG_RUNTIME_DIR) pangaea]
	}
	set tmp [expr {[info exists ::env(TMPDIR)] && $::env(TMPDIR) ne "" ?
		       $::env(TMPDIR) : "/tmp"}]
	lappend tried [file join $tmp pangaea-[exec id -u]]
	foreach d $tried {
		if {![file exists $d] && [catch {exec mkdir -m 0700 $d}]} {
			continue
		}
		# a folder of ours, mode 0700, not a link: else another user
		# could read or block our sockets
		if {[file type $d] eq "directory" && [file owned $d] &&
		    !([file attributes $d -permissions] & 0077)} {
			return $d
		}
		puts stderr "pangaea-view: not using $d for live sockets\
			(not a private folder of yours)"
	}
	# a fresh private folder (mktemp -d makes it 0700), removed at exit
	set V(sock_tmp) [exec mktemp -d [file join $tmp pangaea-[exec id -u].XXXXXX]]
	puts stderr "pangaea-view: live sockets are in $V(sock_tmp)"
	bind . <Destroy> {+if {"%W" eq "."} view::sock_tmp_remove}
	return $V(sock_tmp)
}

# Follows a run through the coordinator's socket PATH (pangaea -view):
# events are drawn as the tasks send them.  DIR is the run's log folder:
# when the socket closes (the run is over) the viewer shows DIR's logs,
# and if the socket never answers it follows DIR's logs instead.
proc view::live_sock {path dir} {
	variable V
	set V(sock) $path
	set V(live_dir) $dir
	set V(sock_lines) 0
	set V(sock_tries) 0
	set V(live_via) socket
	set V(live_outsize) -1
	pgdb live-open
	set V(db) live
	set V(tasks) {}
	set V(tmin) 0; set V(tmax) 1000
	wm title . "Pangaea event graph: live"
	.status configure -text "live: waiting for the run on $path"
	view::sock_try
}

# Connects to the coordinator, retrying for 20 s while it starts.
proc view::sock_try {} {
	variable V
	if {$V(sock) eq ""} return
	if {[catch {pgdb live-connect $V(sock) view::sock_got} chan]} {
		if {[incr V(sock_tries)] < 100} {
			after 200 view::sock_try
		} else {
			.status configure -text "live: no coordinator on $V(sock); following the logs"
			set V(sock) ""
			set V(live_via) logs
			# nothing came: show the run whole once its logs are read
			set V(db) ""
			view::live $V(live_dir) 300
		}
		return
	}
	set V(sock_chan) $chan
	view::live_out_tick
}

# While the coordinator's stream is read: every 300 ms, when the run's
# output.log (written by the launcher, not relayed by the coordinator)
# has grown, reads it again into the live database's output table for
# the output pane.
proc view::live_out_tick {} {
	variable V
	if {$V(sock_chan) eq "" || $V(db) ne "live"} return
	after 300 view::live_out_tick
	set f [file join $V(live_dir) output.log]
	if {$V(live_dir) eq "" || [catch {file size $f} size] ||
	    $size == $V(live_outsize)} return
	if {[catch {pgdb live-output $V(live_dir)} err]} {
		.status configure -text "live: $err"
		return
	}
	set V(live_outsize) $size
	set tmax $V(tmax)
	view::out_load
	if {$V(tmax) != $tmax || $V(out)} { view::redraw_later }
}

# What pgdb's reader of the coordinator's stream says (viewlive.c):
# "events N", N events added (a redraw follows); "end", the run is over
# (then the logs are shown); "refused MSG".
proc view::sock_got {what {arg ""}} {
	variable V
	switch -- $what {
		events {
			incr V(sock_lines) $arg
			if {!$V(sock_redraw)} {
				set V(sock_redraw) 1
				# at most every 300 ms, and redrawing (with
				# the X server's part) at most a twentieth of
				# the time: the run needs the CPU more; but
				# every second at least (a redraw's time grows
				# with the load: it waits for a core)
				after [expr {min(1000, max(300, 19 * $V(sock_refresh_ms)))}] \
					view::sock_refresh
			}
		}
		refused { view::sock_refused $arg }
		end { view::sock_ended }
	}
}

# The coordinator closed its stream: shows the run's logs.
proc view::sock_ended {} {
	variable V
	set V(sock_chan) ""
	set V(sock) ""
	after cancel view::sock_refresh
	set V(sock_redraw) 0
	after cancel spawn::last_look
	# what the relay gave (the tests compare it with the logs)
	lassign [pgdb range] a b
	set V(live_events) [pgdb count $a $b]
	set V(live_msgs) [expr {[llength [pgdb messages $a $b 100000000]] / 9}]
	# the run is over: its logs are complete and authoritative
	if {$V(live_dir) ne "" && [glob -nocomplain -directory $V(live_dir) task-*.comm] ne ""} {
		if {[catch {view::open_run $V(live_dir)} err]} {
			.status configure -text "live: $err"
		}
	}
	set V(live_via) done
}

# The coordinator's stream was refused (MSG says why, e.g. another
# version of the live stream): stops reading it, says so, and follows the
# run's log folder instead.
proc view::sock_refused {msg} {
	variable V
	pgdb live-close
	set V(sock_chan) ""
	set V(sock) ""
	after cancel view::sock_refresh
	set V(sock_redraw) 0
	set V(live_error) $msg
	set V(live_via) logs
	puts stderr "pangaea-view: $msg"
	.details delete 1.0 end
	.details insert end "live view: $msg\nFollowing the run's log folder instead.\n"
	.status configure -text "live: $msg"
	# nothing was taken from the stream: show the run whole once its
	# logs are read
	pgdb close
	set V(db) ""
	if {$V(live_dir) ne ""} { view::live $V(live_dir) 300 }
}

# Redraws after events arrived, following the run's end unless the user
# moved away from it; keeps how long that took (sock_got waits 19 times
# as long before the next one).
proc view::sock_refresh {} {
	variable V
	set start [clock milliseconds]
	set V(sock_redraw) 0
	set follow [expr {$V(t1) >= $V(tmax) || $V(tasks) eq ""}]
	set V(tasks) [pgdb tasks]
	lassign [pgdb range] V(tmin) V(tmax)
	if {$V(tmax) <= $V(tmin)} { set V(tmax) [expr {$V(tmin) + 1000}] }
	view::out_load ;# output.tcl: what live_out_tick read, and the span
	if {$follow} { view::fit } else { view::redraw_later }
	update idletasks ;# the redraw now, to time it
	set V(sock_refresh_ms) [expr {[clock milliseconds] - $start}]
}
