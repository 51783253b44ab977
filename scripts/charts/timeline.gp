# Completions over time, the first repetition of each strategy and worker count. Data: per
# block, rows of bucket start (s), distinct jobs completed per second in it, duplicate
# executions per second (NaN when the store does not tell them apart: dups 0), distinct
# jobs completed before it, duplicates before it; a last row at the end of the last bucket.
# When faults struck, a last block holds a row per fault: its instant (s), the colour of
# its strategy as a number, its kind; each is a dashed vertical line. Duplicates are drawn,
# dotted, for the blocks that have one (layer).
# Up to four cases (panels 0): above, distinct completions per second in each 100 ms
# bucket (blocking shows as gaps, convoys as bursts); below, distinct jobs done so far.
# More cases: a panel per series, two panels a row, its worker counts in shades, per second
# as above, every panel on one x and one y range. Lines are drawn thick to thin so that
# coinciding ones stay visible.
set xlabel "time since the start barrier (s)"
set lmargin 10
set xrange [0:xhi]
set y2range [0:1]
unset y2tics
dupnote = dups ? ", duplicate executions dotted" : " (this store counts a duplicate as a completion)"
faults = ", for [m=1:marks] data index n using 1:(1):2 axes x1y2 with impulses lc rgb variable lw 1 dt 2 "
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
		set multiplot layout 2,1 title "Distinct jobs completed over time, first repetition of each" . dupnote . partnote
		set rmargin 30
		set ylabel "jobs done per second (100 ms buckets)"
		cmd = "plot for [i=1:n] data index (i-1) using 1:2 with steps lc rgb colour(i) lw stacked(i, n) dt dash(i) " . \
		      "title columnheader(1)"
		if (words(layer) > 0) {
			cmd = cmd . ", for [k=1:words(layer)] data index (block(layer, k) - 1) using 1:3 with steps " . \
			      "lc rgb colour(block(layer, k)) lw 1.5 dt 3 title (k == 1 ? 'duplicates (dotted)' : '')"
		}
		if (marks > 0) {
			cmd = cmd . faults . "title 'faults'"
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
			title "Distinct jobs completed per second (100 ms buckets), a panel per strategy" . dupnote
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
			cmd = "plot for [i=lo:hi] data index (i-1) using 1:2 with steps lc rgb colour(i) lw 1.5 title columnheader(1)"
			if (words(mine) > 0) {
				cmd = cmd . ", for [k=1:words(mine)] data index (block(mine, k) - 1) using 1:3 with steps " . \
				      "lc rgb colour(block(mine, k)) lw 1.5 dt 3 title (k == 1 ? 'duplicates (dotted)' : '')"
			}
			if (marks > 0) {
				cmd = cmd . faults . (p == 1 ? "title 'faults'" : "notitle")
			}
			eval cmd
		}
	}
}
unset multiplot
