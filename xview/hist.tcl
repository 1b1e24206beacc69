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
	set what [expr {$V(hist_task) eq "all" ? "all tasks" : "ltid $V(hist_task)"}]
	$c create text 8 [expr {$y + 10}] -anchor w -font {Helvetica 9 bold} \
		-text "histograms: $what"
	$c create text 8 [expr {$y + 24}] -anchor w -font {Helvetica 8} \
		-text "whole run, decades (log scale)"
	# the cells: time per call of each PVM function, then the message
	# sizes and the granularity; as many columns as fit (180 px or more)
	set cells {}
	foreach {f counts} [dict get $h calls] {
		lappend cells "$f: time per call" [dict get $h buckets] $counts call-$f
	}
	lappend cells "message sizes (sent)" [dict get $h sizebuckets] \
		[dict get $h sizes] sizes
	lappend cells "granularity (computing between calls)" \
		[dict get $h buckets] [dict get $h granularity] gran
	set gap 24
	set ncol [expr {max(1, min(4, ($pw + $gap) / (180 + $gap)))}]
	set w [expr {($pw - ($ncol - 1) * $gap) / $ncol}]
	set cellh 64 ;# title 12, bars 36, bucket names 12, a gap
	set i 0
	foreach {title names counts key} $cells {
		set cx [expr {$x0 + ($i % $ncol) * ($w + $gap)}]
		set cy [expr {$y + 14 + ($i / $ncol) * $cellh}]
		view::hist_one $c $cx $cy $w 36 $title $names $counts $key
		incr i
	}
	return [expr {14 + (($i + $ncol - 1) / $ncol) * $cellh}]
}
