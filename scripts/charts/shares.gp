# Each worker's share of the completed jobs: per strategy and worker count a cluster of
# bars, one per worker (mean over repeats), and the fair share 100 / workers dashed.
# Data: per block, a centre row (x, NaN, 0, fair, tick label, 1) per cluster, then a row
# per worker (bar centre, share %, bar width, fair, "", 0).
set title "Each worker's share of completed jobs (fair share dashed)"
set xlabel "strategy, by worker count (a bar per worker)"
set ylabel "share of the run's completed jobs (%)"
set yrange [0:*]
set xtics scale 0
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no runs" at graph 0.5, 0.5 center
	plot NaN notitle
} else {
	plot for [i=1:n] data index (i-1) using 1:2:3 with boxes lc rgb colour(i) title columnheader(1), \
	     for [i=1:n] data index (i-1) using 1:(NaN):xtic(5) with points notitle, \
	     for [i=1:n] data index (i-1) using ($6 == 1 ? $1 - 0.45 : NaN):4:(0.9):(0) with vectors nohead \
		lc rgb "black" lw 2 dt 2 title (i == 1 ? "fair share: 100 / workers" : "")
}
