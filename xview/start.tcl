# start.tcl: pangaea-view's command line and start-up (evaluated last).
#
#   pangaea-view [-script FILE] [-spawn] [-live DIR [-sock PATH]]
#                [LOGDIR | TRACE.db]
#
# -script FILE is the test hook: FILE is evaluated once the window is on
# the screen, with the helpers of the `vtest` namespace below.

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

# Parses ::argv and starts the viewer.
proc view::main {} {
	set script ""; set path ""; set live ""; set sock ""; set spawn 0
	for {set i 0} {$i < [llength $::argv]} {incr i} {
		set a [lindex $::argv $i]
		switch -- $a {
			-script { set script [lindex $::argv [incr i]] }
			-live { set live [lindex $::argv [incr i]] }
			-sock { set sock [lindex $::argv [incr i]] }
			-spawn { set spawn 1 }
			default {
				if {[string match -* $a]} {
					puts stderr "pangaea-view: unknown option $a (try -h)"
					exit 1
				}
				set path $a
			}
		}
	}
	# a viewer started by `pangaea -view` gets its test script this way
	if {$script eq "" && [info exists ::env(PANGAEA_VIEW_SCRIPT)]} {
		set script $::env(PANGAEA_VIEW_SCRIPT)
	}
	view::build
	update
	if {$path ne "" && [catch {view::open_run $path} err]} {
		puts stderr "pangaea-view: $err"
		exit 1
	}
	if {$sock ne ""} {
		view::live_sock $sock $live
	} elseif {$live ne ""} {
		view::live $live 300
	}
	if {$spawn} { spawn::dialog }
	if {$script ne ""} {
		update
		if {[catch {uplevel #0 [list source $script]} err]} {
			puts stderr "pangaea-view: $script: $::errorInfo"
			exit 2
		}
	}
}

view::main
