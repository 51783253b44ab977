# Throughput against workers: a line per strategy (claim mode, section and sweep point),
# the mean over repeats with min-max error bars. Data: per block, rows of
# workers, mean, min, max (jobs/s).
set title "Throughput against workers (mean over repeats, min-max bars)"
set xlabel "workers (threads)"
set ylabel "throughput (jobs/s)"
set yrange [0:*]
set offsets graph 0.05, graph 0.05, graph 0.05, 0
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no runs" at graph 0.5, 0.5 center
	plot NaN notitle
} else {
	plot for [i=1:n] data index (i-1) using 1:2:3:4:xtic(1) with yerrorlines lc rgb colour(i) lw 2 dt dash(i) \
		pt point(i) ps 1.2 title columnheader(1)
}
