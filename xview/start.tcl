# start.tcl: pangaea-view's command line and start-up (evaluated last).
#
#   pangaea-view [-script FILE] [-spawn] [-live DIR [-sock PATH]]
#                [--show timeline|utilization|stats|output] [--range T0:T1]
#                [--snapshot FILE.png] [-early] [LOGDIR | TRACE.db]
#
# -script FILE is the test hook: FILE is evaluated once the window is on
# the screen and the run's background import (if any) is over, or with
# -early once the first picture is drawn (and the races and the clock
# found after it: view::late_start), with the helpers of the `vtest`
# namespace below.

namespace eval vtest {}

# Number of canvas items with tag TAG.
proc vtest::count {tag} { return [llength [.g.c find withtag $tag]] }

# Clicks button 1 on the centre of the first canvas item tagged TAG.
proc vtest::click {tag} {
	set item [lindex [.g.c find withtag $tag] 0]
	if {$item eq ""} { error "no canvas item tagged $tag" }
	# on top, so that the click reaches it and not a neighbour over it
	.g.c raise $item
	lassign [.g.c bbox $item] a b c d
	set x [expr {($a + $c) / 2}]; set y [expr {($b + $d) / 2}]
	if {[.g.c type $item] eq "line"} {
		lassign [.g.c coords $item] x0 y0 x1 y1
		set x [expr {($x0 + $x1) / 2}]; set y [expr {($y0 + $y1) / 2}]
	}
	event generate .g.c <Motion> -x $x -y $y -warp 1
	update
	event generate .g.c <ButtonPress-1> -x $x -y $y
	event generate .g.c <ButtonRelease-1> -x $x -y $y
	update
}

# Presses mouse button B (2 spreads events out, 3 draws them together)
# at canvas x X.
proc vtest::button {b x} {
	event generate .g.c <ButtonPress-$b> -x $x -y 60
	event generate .g.c <ButtonRelease-$b> -x $x -y 60
	update
}

# The text of the details area.
proc vtest::details {} { return [.details get 1.0 end-1c] }

# Saves a picture of window WIN (default the main one; "root" the whole
# screen, dialogs included) into FILE (PNG, through ImageMagick's import).
proc vtest::shot {file {win .}} {
	update
	if {$win ne "root"} {
		raise $win; update; set win [winfo id $win]
	} else {
		foreach t [winfo children .] {
			if {[winfo toplevel $t] eq $t && [winfo ismapped $t]} { raise $t }
		}
		update
	}
	exec import -window $win $file
}

# Waits MS milliseconds while handling events.
proc vtest::wait {ms} {
	set ::vtest::done 0
	after $ms {set ::vtest::done 1}
	vwait ::vtest::done
}

# Says "pangaea-view: MSG" on stderr and exits 1.
proc view::fail {msg} {
	puts stderr "pangaea-view: $msg"
	exit 1
}

# Time TEXT (a number with an optional unit ns, us, ms or s; ms if none)
# in ns; raises an error if it is not one.
proc view::parse_time {text} {
	if {![regexp {^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(ns|us|ms|s)?\s*$} \
		$text -> v unit]} {
		error "not a time: \"$text\" (a number of ms, or with ns, us, ms, s)"
	}
	set mult [dict get {ns 1 us 1e3 ms 1e6 s 1e9 "" 1e6} $unit]
	return [expr {wide($v * $mult)}]
}

# --range T0:T1 as {t0 t1} in ns from the run's first event.
proc view::parse_range {text} {
	if {[llength [split $text :]] != 2} {
		error "--range wants T0:T1 (times from the run's start, e.g. 100:250 ms), not \"$text\""
	}
	lassign [split $text :] a b
	set a [view::parse_time $a]; set b [view::parse_time $b]
	if {$b <= $a} { error "--range $text: T1 must come after T0" }
	return [list $a $b]
}

# Shows VIEW (timeline: the event graph alone; utilization: with the
# utilization pane; stats: with the task states pane; output: with the
# output pane) over RANGE ({} the whole run, else {t0 t1} ns from the
# run's start) at once.
proc view::show {view range} {
	variable V
	set V(util) [expr {$view eq "utilization"}]
	set V(stats) [expr {$view eq "stats"}]
	set V(out) [expr {$view eq "output"}]
	view::util_pane
	update
	if {$range ne ""} {
		lassign $range a b
		view::zoom_to [expr {$V(tmin) + $a}] [expr {$V(tmin) + $b}]
	} else {
		view::fit
	}
	update
	view::redraw
	update
}

# Writes a PNG picture of VIEW (the canvas of the graph, of the
# utilization pane or of the task states pane) into FILE, through
# ImageMagick's `import` of the window; prints one line saying how its x
# maps to time (the states pane: where its bars start and how wide they
# are) and where each task's row is.  Raises an error if it cannot.
proc view::snapshot {view file} {
	variable V
	set c [dict get {timeline .g.c utilization .u.c stats .s.c output .o.t} $view]
	raise .
	update
	if {[catch {exec import -window [winfo id $c] $file 2>@1} out]} {
		# ImageMagick's first line says why
		error "cannot write $file: [lindex [split $out \n] 0]"
	}
	set rows {}
	if {$view eq "timeline"} {
		foreach {l y} $V(rowy) { lappend rows $l $y }
	} elseif {$view eq "stats"} {
		set rows $V(statsy)
	} elseif {$view eq "output"} {
		set rows [list lines $V(out_lines)]
	}
	puts [list snapshot $file view $view width [winfo width $c] \
		height [winfo height $c] x0 [expr {$V(labelw) + $V(margin)}] \
		plotw [view::plotw] t0 $V(t0) ns_per_px $V(scale) tmin $V(tmin) \
		rows $rows]
}

# Parses ::argv and starts the viewer.
proc view::main {} {
	set script ""; set path ""; set live ""; set sock ""; set spawn 0
	set show ""; set range ""; set snap ""; set early 0
	set n [llength $::argv]
	for {set i 0} {$i < $n} {incr i} {
		set a [lindex $::argv $i]
		# the options that take a value
		if {$a in {-script -live -sock -show --show -range --range -snapshot --snapshot}} {
			if {$i + 1 >= $n} { view::fail "$a wants a value (try -h)" }
			set val [lindex $::argv [incr i]]
		}
		switch -- $a {
			-script { set script $val }
			-live { set live $val }
			-sock { set sock $val }
			-spawn { set spawn 1 }
			-early { set early 1 }
			-show - --show {
				if {$val ni {timeline utilization stats output}} {
					view::fail "--show $val: the views are timeline, utilization, stats and output"
				}
				set show $val
			}
			-range - --range {
				if {[catch {view::parse_range $val} range]} {
					view::fail $range
				}
			}
			-snapshot - --snapshot { set snap $val }
			default {
				if {[string match -* $a]} {
					view::fail "unknown option $a (try -h)"
				}
				set path $a
			}
		}
	}
	if {$snap ne "" && $path eq ""} {
		view::fail "--snapshot needs a run: a LOGDIR or TRACE.db"
	}
	if {$snap ne "" && ($live ne "" || $sock ne "" || $spawn)} {
		view::fail "--snapshot draws a recorded run: not with -live, -sock or -spawn"
	}
	if {$path ne "" && ![file exists $path]} {
		view::fail "no such log folder or database: $path"
	}
	if {$snap ne "" && $show eq ""} { set show timeline }
	# a viewer started by `pangaea -view` gets its test script this way
	if {$script eq "" && [info exists ::env(PANGAEA_VIEW_SCRIPT)]} {
		set script $::env(PANGAEA_VIEW_SCRIPT)
	}
	view::build
	update
	# a picture without a person waits for the trace database (its
	# output, histograms)
	if {$path ne "" && [catch {view::open_run $path [expr {$snap ne ""}]} err]} {
		view::fail $err
	}
	if {$show ne "" || $range ne ""} {
		if {$show eq ""} { set show timeline }
		view::show $show $range
	}
	if {$snap ne ""} {
		if {[catch {view::snapshot $show $snap} err]} { view::fail $err }
		exit 0
	}
	if {$sock ne ""} {
		view::live_sock $sock $live
	} elseif {$live ne ""} {
		view::live $live 300
	}
	if {$spawn} { spawn::dialog }
	if {$script ne ""} {
		update
		# the script sees the run whole: its background import done
		# (-early: at once, the first picture drawn), and the races
		# and clock found after the first picture
		while {!$early && $view::V(importing)} { vwait view::V(importing) }
		while {$view::V(late)} { vwait view::V(late) }
		if {[catch {uplevel #0 [list source $script]} err]} {
			puts stderr "pangaea-view: $script: $::errorInfo"
			exit 2
		}
	}
}

view::main
