# hist.tcl: the histograms of the task states pane (View ▸ Task states
# pane), under its bars: per PVM call the time per call, the message
# sizes and the computation granularity, of one task or of the run (the
# selector `Histograms of:` above the pane), as `pangaea-trace stats`
# counts them (pgdb hists, xview/viewhist.c).  Buckets are decades
# (a log scale); a bar's height is its count over the largest count of
# its histogram, the count written above it.

namespace eval view {
	variable V
	array set V { hist_task all }
	variable HIST_COL #4a78c2
}

# Builds the selector above the task states pane's canvas (.s.c).
proc view::hist_build {} {
	frame .s.tb
	label .s.tb.l -text "Histograms of:"
	ttk::combobox .s.tb.task -width 8 -state readonly \
		-textvariable view::V(hist_task) -values {all} \
		-postcommand view::hist_tasks
	bind .s.tb.task <<ComboboxSelected>> view::redraw_later
	pack .s.tb.l .s.tb.task -side left
	pack .s.tb -side top -fill x -before .s.c
}

# Fills the selector with "all" and the ltids that have events.
proc view::hist_tasks {} {
	if {[catch {pgdb hists} h]} return
	.s.tb.task configure -values [concat all [dict get $h tasks]]
}

# Draws one histogram on canvas C in the box X,Y (bars' bottom at Y+H,
# W wide): COUNTS per bucket, NAMES under the first and last bar, TITLE
# above; each bar tagged "hbar KEY:B n:COUNT".
proc view::hist_one {c x y w h title names counts key} {
	variable HIST_COL
	set max [tcl::mathfunc::max 1 {*}$counts]
	set nb [llength $counts]
	set bw [expr {double($w) / $nb}]
	$c create text $x $y -anchor sw -font {Helvetica 8 bold} -text $title
	set bot [expr {$y + $h}]
	$c create line $x $bot [expr {$x + $w}] $bot -fill gray50
	set b 0
	foreach n $counts {
		set x0 [expr {$x + $b * $bw + 1}]
		set x1 [expr {$x + ($b + 1) * $bw - 1}]
		if {$n > 0} {
			set top [expr {$bot - max(1.0, ($h - 10) * double($n) / $max)}]
			$c create rectangle $x0 $top $x1 $bot -fill $HIST_COL \
				-outline "" -tags [list hbar $key:$b n:$n]
			$c create text [expr {($x0 + $x1) / 2}] $top -anchor s \
				-font {Helvetica 7} -text $n
		}
		incr b
	}
	$c create text $x [expr {$bot + 1}] -anchor nw -font {Helvetica 7} \
		-text [lindex $names 0]
	$c create text [expr {$x + $w}] [expr {$bot + 1}] -anchor ne \
		-font {Helvetica 7} -text [lindex $names end]
}

# Draws the histograms of the selected task on the states pane's canvas
# C from its y = Y down; returns the height used.
proc view::draw_hists {c y} {
	variable V
	if {[catch {pgdb hists $V(hist_task)} h]} {
		# a task that has no events (any more): back to the run
		set V(hist_task) all
		if {[catch {pgdb hists} h]} { return 0 }
	}
	set x0 [expr {$V(labelw) + $V(margin)}]
	set pw [view::plotw]
	set gap 24
	set w [expr {max(60, ($pw - 2 * $gap) / 3)}]
	set what [expr {$V(hist_task) eq "all" ? "all tasks" : "ltid $V(hist_task)"}]
	$c create text 8 [expr {$y + 10}] -anchor w -font {Helvetica 9 bold} \
		-text "histograms: $what"
	$c create text 8 [expr {$y + 24}] -anchor w -font {Helvetica 8} \
		-text "whole run, decades (log scale)"
	# time per call: one small histogram per PVM function
	set rowh 56
	set yy [expr {$y + 14}]
	foreach {f counts} [dict get $h calls] {
		view::hist_one $c $x0 $yy $w [expr {$rowh - 16}] \
			"$f: time per call" [dict get $h buckets] $counts call-$f
		incr yy $rowh
	}
	set hh 90
	set x1 [expr {$x0 + $w + $gap}]
	view::hist_one $c $x1 [expr {$y + 14}] $w $hh "message sizes (sent)" \
		[dict get $h sizebuckets] [dict get $h sizes] sizes
	set x2 [expr {$x1 + $w + $gap}]
	view::hist_one $c $x2 [expr {$y + 14}] $w $hh \
		"granularity (computing between calls)" [dict get $h buckets] \
		[dict get $h granularity] gran
	return [expr {max($yy - $y, $hh + 14) + 16}]
}
