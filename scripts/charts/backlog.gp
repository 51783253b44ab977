# The backlog of open-loop runs over time: jobs enqueued and not yet in a worker's hand at
# the end of each 100 ms bucket, the first repetition of each strategy and worker count;
# a line that keeps rising means the workers fall behind the arrivals. Lines are drawn thick
# to thin so that coinciding ones stay visible. Data: per block,
# rows of the bucket's end (s), jobs waiting.
set title "Backlog: jobs waiting for a worker (first repetition of each)" . partnote . wrknote
set xlabel "time since the start barrier (s)"
set ylabel "jobs waiting"
set xrange [0:xhi]
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no open-loop runs with a time series" at graph 0.5, 0.5 center
	plot NaN notitle
} else {
	plot for [i=1:n] data index (i-1) using 1:2 with lines lc rgb colour(i) lw stacked(i, n) dt dash(i) \
		title columnheader(1)
}
