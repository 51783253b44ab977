# Completions over time, the first repetition of each strategy and worker count. Data: per
# block, rows of bucket start (s), distinct jobs completed per second in it, duplicate
# executions per second (NaN when the store does not tell them apart: dups 0), distinct
# jobs completed before it, duplicates before it; a last row at the end of the last bucket.
# When faults struck, a last block holds a row per fault: its instant (s), the colour of
# its strategy as a number, its kind, the block (from 1) of the run it struck, how long the
# server was down (s, a restart's; else 0); each fault is a dashed vertical line in its own
# run's panel only (faulted: the blocks with one), a server outage a grey span from the
# fault to the server back (outages: the blocks with one), so that a strategy's gap is not
# read as its own fault. Duplicates are drawn, dotted, for the blocks that have one (layer).
# Up to four cases (panels 0): above, distinct completions per second in each 100 ms
# bucket (blocking shows as gaps, convoys as bursts); below, distinct jobs done so far.
# More cases: a panel per series, two panels a row, its worker counts dashed apart, per second
# as above, every panel on one x range and one y range, or each on its own y range when
# their highest rates are far apart (ownscales), its own x range when their runs' lengths
# are (owntimes), as the title says. Lines are drawn thick to thin so that
# coinciding ones stay visible.
set xlabel "time since the start barrier (s)"
set lmargin 10
set xrange [0:xhi]
set y2range [0:1]
unset y2tics
# The title's notes go on a second line, so that a section's name fits on the first.
dupnote = dups ? "duplicate executions dotted" : "this store counts a duplicate as a completion"
# The faults of the blocks lo to hi, and their outages (added only when the blocks have one).
faults(lo, hi) = sprintf(", data index n using ($4 >= %d && $4 <= %d ? $1 : NaN):(1):2 axes x1y2 " . \
	"with impulses lc rgb variable lw 1.2 dt 2 ", lo, hi)
outage(lo, hi) = sprintf("data index n using ($4 >= %d && $4 <= %d && $5 > 0 ? $1 + $5 / 2 : NaN):(0.5):($5 / 2):(0.5) " . \
	"axes x1y2 with boxxyerror fs transparent solid 0.25 noborder lc rgb '#888888' title 'server down (restart)', ", lo, hi)
# The dash of a panel's k-th case (from 0): its worker counts apart, never dotted (duplicates').
paneldash(k) = int(word("1 2 4 5", 1 + k % 4))
# Whether a block from lo to hi is in list.
inlist(list, lo, hi) = sum [k=1:words(list)] (block(list, k) >= lo && block(list, k) <= hi ? 1 : 0) > 0
if (n == 0) {
	set multiplot layout 2,1 title "Completions over time" . partnote
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no time series stored for these runs" at graph 0.5, 0.5 center
	set ylabel "jobs completed per second"
	plot NaN notitle
	set ylabel "jobs completed so far"
	plot NaN notitle
} else {
	if (panels == 0) {
		set multiplot layout 2,1 title "Distinct jobs completed over time, first repetition of each" . partnote . \
			"\n" . dupnote
		set rmargin 30
		set ylabel "jobs done per second (100 ms buckets)"
		cmd = "plot " . (words(outages) > 0 ? outage(1, n) : "") . \
		      "for [i=1:n] data index (i-1) using 1:2 with steps lc rgb colour(i) lw stacked(i, n) dt dash(i) " . \
		      "title columnheader(1)"
		if (words(layer) > 0) {
			cmd = cmd . ", for [k=1:words(layer)] data index (block(layer, k) - 1) using 1:3 with steps " . \
			      "lc rgb colour(block(layer, k)) lw 1.5 dt 3 title (k == 1 ? 'duplicates (dotted)' : '')"
		}
		if (marks > 0) {
			cmd = cmd . faults(1, n) . "title 'faults (dashed, in the colour of the run struck)'"
		}
		eval cmd
		set ylabel "distinct jobs done so far"
		set yrange [0:ymax2]
		set key off
		cmd = "plot for [i=1:n] data index (i-1) using 1:4 with lines lc rgb colour(i) lw stacked(i, n) dt dash(i) notitle"
		if (words(layer) > 0) {
			cmd = cmd . ", for [k=1:words(layer)] data index (block(layer, k) - 1) using 1:5 with lines " . \
			      "lc rgb colour(block(layer, k)) lw 1.5 dt 3 notitle"
		}
		eval cmd
	} else {
		set multiplot layout int((panels + 1) / 2),2 \
			title "Distinct jobs done per second (100 ms buckets), a panel per strategy" . partnote . "\n" . \
			dupnote . (ownscales || owntimes ? sprintf("; each panel its own %s scale%s", \
				ownscales && owntimes ? "time and y" : owntimes ? "time" : "y", \
				owntimes ? " (runs of very different lengths)" : "") : "")
		if (ownscales) {
			set yrange [0:*]
		}
		if (owntimes) {
			set xrange [0:*]
		}
		set key inside right top vertical Left reverse samplen 1.5 font ",8" opaque
		set ylabel "jobs done per second"
		do for [p=1:panels] {
			lo = block(firsts, p)
			hi = block(firsts, p + 1) - 1
			mine = ""
			do for [k=1:words(layer)] {
				if (block(layer, k) >= lo && block(layer, k) <= hi) {
					mine = sprintf("%s %d", mine, block(layer, k))
				}
			}
			cmd = "plot " . (inlist(outages, lo, hi) ? outage(lo, hi) : "") . \
			      "for [i=lo:hi] data index (i-1) using 1:2 with steps lc rgb colour(i) lw 1.5 dt paneldash(i - lo) title columnheader(1)"
			if (words(mine) > 0) {
				cmd = cmd . ", for [k=1:words(mine)] data index (block(mine, k) - 1) using 1:3 with steps " . \
				      "lc rgb colour(block(mine, k)) lw 1.5 dt 3 title (k == 1 ? 'duplicates (dotted)' : '')"
			}
			if (inlist(faulted, lo, hi)) {
				cmd = cmd . faults(lo, hi) . "title 'faults (dashed)'"
			}
			eval cmd
		}
	}
}
unset multiplot
