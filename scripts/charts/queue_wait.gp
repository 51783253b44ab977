# Queue-wait percentiles of open-loop runs: a line per strategy and worker count across
# p50, p90, p99, p99.9 and max, on a log scale; a job never claimed waits to the run's end.
# With repeats, the mean of each repeat's percentile (pooling 2). Data: per block, rows of
# position, queue wait (ms), percentile name.
set title "Queue wait: a job's arrival to its first claim" . \
	(pooling == 2 ? " (mean of the repeats' percentiles)" : "") . partnote . wrknote
set xlabel "percentile"
set ylabel "queue wait (ms, log scale)"
set logscale y
set xrange [-0.3:4.3]
set xtics scale 0
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no open-loop runs" at graph 0.5, 0.5 center
	unset logscale y
	plot NaN notitle
} else {
	plot for [i=1:n] data index (i-1) using 1:2:xtic(3) with linespoints lc rgb colour(i) lw 2 dt dash(i) \
		pt point(i) ps 1.2 title columnheader(1)
}
