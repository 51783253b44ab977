# Throughput against workers: markers (no lines: worker counts between those measured
# were never run) per strategy (claim mode, section and sweep point), the mean over
# repeats with min-max bars, the series nudged sideways so that equal values stay apart;
# the ceiling the work time sets (workers / work time) dashed, and the arrival rate asked
# dotted; when the runs' work times differ, each series' own ceilings as crosses (layer).
# Data: per block, rows of x, mean, min, max, ceiling (jobs/s), workers, tick. At one
# worker count (workers > 0) x is the series' place and the tick its name: the axis names
# the strategies, and the ceiling is one level.
set title (workers > 0 ? "Throughput per strategy" : "Throughput against workers") . \
	repnote . partnote . wrknote
set xlabel (workers > 0 ? "strategy" : "workers (threads)")
set ylabel "throughput (jobs/s)"
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no runs" at graph 0.5, 0.5 center
	plot NaN notitle
} else {
	set xrange [xlo:xhi]
	if (logx) {
		set logscale x 2
	}
	set xtics ()
	if (workers > 0) {
		set xtics scale 0
		if (n > 4 || engines) {
			set xtics rotate by 30 right
		}
		if (engines) {
			# The slanted labels name their engines too: room on the left for the first one.
			set lmargin 24
		}
		cmd = "plot for [i=1:n] data index (i-1) using 1:2:3:4:xtic(7) with yerrorbars lc rgb colour(i) lw 1.5 " . \
		      "pt point(i) ps 1.4 notitle"
	} else {
		do for [k=1:words(ticks)] {
			set xtics add (word(ticks, k) int(word(ticks, k)))
		}
		cmd = "plot for [i=1:n] data index (i-1) using 1:2:3:4 with yerrorbars lc rgb colour(i) lw 1.5 " . \
		      "pt point(i) ps 1.4 title columnheader(1)"
	}
	if (ceiling > 0) {
		cmd = cmd . ", " . (workers > 0 ? "workers * ceiling" : "x * ceiling") . \
		      " with lines lc rgb '#555555' lw 1.5 dt 2 title 'ceiling: workers / work time'"
	}
	if (words(layer) > 0) {
		cmd = cmd . ", for [k=1:words(layer)] data index (block(layer, k) - 1) using 1:5 with points " . \
		      "lc rgb colour(block(layer, k)) pt 2 ps 1.2 " . \
		      "title (k == 1 ? 'ceiling of each: workers / work time (x)' : '')"
	}
	if (arrival > 0) {
		cmd = cmd . ", arrival with lines lc rgb '#555555' lw 1.5 dt 3 title 'arrival rate asked'"
	}
	eval cmd
}
