# output.tcl: the output pane of pangaea-view: what the tasks printed (the
# output table of the trace database, from the run's output.log), one
# line per piece the launcher received, with its time and task.  It
# follows the Tasks filter of the toolbar; clicking a line moves the
# graph's window to that moment (marked by a vertical line); selecting an
# event scrolls the pane to the lines printed around its time.

namespace eval view {
	# OUT: the output rows {id ltid t nl text ...} of the open run;
	# out_key: the filter the pane was filled for; out_mark: the time
	# marked on the graph, or ""
	variable OUT {}
	variable V
	set V(out) 0
	set V(out_key) ""
	set V(out_mark) ""
	set V(out_near) ""
}

# Makes the pane (shown by view::util_pane when V(out) is set).
proc view::out_build {} {
	frame .o
	text .o.t -height 8 -wrap none -background #fbfbf6 -cursor arrow \
		-font TkFixedFont -yscrollcommand {.o.vs set}
	scrollbar .o.vs -orient vertical -command {.o.t yview}
	pack .o.vs -side right -fill y
	pack .o.t -side left -fill both -expand 1
	.o.t tag configure time -foreground gray40
	.o.t tag configure task -foreground #1f4e9c
	.o.t tag configure cur -background #ffd27f
	.o.t tag configure near -background #dfe9ff
	.o.t tag bind ol <ButtonRelease-1> {view::out_click %x %y}
	.mb.v add checkbutton -label "Output pane" -variable view::V(out) \
		-command view::util_pane
}

# Reads the output rows of the open database (none when it has no
# output table: a run recorded before output.log); the run's time span
# (V(tmin), V(tmax)) grows to hold them (the launcher gets a task's last
# lines after its last event).
proc view::out_load {} {
	variable V
	variable OUT
	if {[catch {pgdb output} OUT]} { set OUT {} }
	foreach {id ltid t nl text} $OUT {
		if {$t < $V(tmin)} { set V(tmin) $t }
		if {$t > $V(tmax)} { set V(tmax) $t }
	}
	set V(out_key) ""
	set V(out_mark) ""
	set V(out_near) ""
}

# Whether task LTID passes the Tasks filter.
proc view::out_wanted {ltid} {
	variable V
	set want [string map {, " "} $V(f_tasks)]
	return [expr {$want eq "" || $ltid in $want}]
}

# Fills the pane with the lines of the tasks the filter lets through,
# when the filter or the run changed since it was last filled.
proc view::out_fill {} {
	variable V
	variable OUT
	set key [list $V(db) $V(f_tasks)]
	if {$key eq $V(out_key)} return
	set V(out_key) $key
	.o.t configure -state normal
	.o.t delete 1.0 end
	set n 0
	foreach {id ltid t nl text} $OUT {
		if {![view::out_wanted $ltid]} continue
		if {$n} { .o.t insert end "\n" }
		.o.t insert end [format "%12s " [view::fmt_t $t]] [list time ol o:$id] \
			[format "task %-5s " $ltid] [list task ol o:$id] \
			[expr {$nl ? $text : "$text\\"}] [list ol o:$id]
		incr n
	}
	.o.t configure -state disabled
	set V(out_lines) $n
	view::out_tag cur $V(out_mark) 0
	view::out_tag near $V(out_near) 1
}

# The row {id ltid t nl text} of output ID, or {}.
proc view::out_row {id} {
	variable OUT
	foreach {i l t nl text} $OUT {
		if {$i == $id} { return [list $i $l $t $nl $text] }
	}
	return {}
}

# Marks with TAG the pane's lines of the ids in IDS (SEE: scroll to the
# first).
proc view::out_tag {tag ids see} {
	.o.t tag remove $tag 1.0 end
	set first ""
	foreach id $ids {
		lassign [.o.t tag ranges o:$id] a
		if {$a eq ""} continue
		.o.t tag add $tag "$a linestart" "$a lineend + 1c"
		if {$first eq ""} { set first $a }
	}
	if {$see && $first ne ""} { .o.t see $first }
}

# A click at X,Y of the pane: the graph's window moves to the moment of
# that line (its width kept), marked by a vertical line.
proc view::out_click {x y} {
	foreach t [.o.t tag names @$x,$y] {
		if {[regexp {^o:(\d+)$} $t -> id]} { view::out_jump $id; return }
	}
}

# Centres the graph's window on the time of output ID and marks it.
proc view::out_jump {id} {
	variable V
	set row [view::out_row $id]
	if {$row eq ""} return
	set t [lindex $row 2]
	set w [expr {max(1000, $V(t1) - $V(t0))}]
	set V(out_mark) $id
	view::out_tag cur $id 0
	view::zoom_to [expr {$t - $w / 2}] [expr {$t + $w / 2}]
}

# Draws the mark of the clicked line on the graph (called by redraw) and
# refills the pane if the filter changed.
proc view::out_redraw {} {
	variable V
	view::out_fill
	if {$V(out_mark) eq ""} return
	set t [lindex [view::out_row $V(out_mark)] 2]
	if {$t eq "" || $t < $V(t0) || $t > $V(t1)} return
	set x [view::x $t]
	.g.c create line $x $V(axish) $x [winfo height .g.c] -fill #e08a00 \
		-width 2 -dash {6 3} -tags outmark
}

# Event ID was selected: the pane shows the lines its task printed
# around the event's time (the last one before it and the first two
# after), or of any shown task when its own printed none there.
proc view::out_near {id} {
	variable V
	variable OUT
	set e [pgdb event $id]
	set t0 [dict get $e t0]
	set ltid [dict get $e ltid]
	set near {}
	foreach own {1 0} {
		set before ""; set after {}
		foreach {i l t nl text} $OUT {
			if {![view::out_wanted $l] || ($own && $l != $ltid)} continue
			if {$t < $t0} { set before $i } elseif {[llength $after] < 2} {
				lappend after $i
			}
		}
		set near [concat $before $after]
		if {$near ne ""} break
	}
	set V(out_near) $near
	view::out_tag near $near 1
}
