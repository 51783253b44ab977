# Claim-latency percentiles: a line per strategy and worker count across p50, p90, p99,
# p99.9 and max, on a log scale; with repeats, the percentiles of their histograms merged
# (pooling 1) or the mean of each repeat's percentile (pooling 2), as the title says. Data:
# per block, rows of position, latency (ms), percentile name.
set title "Claim latency: start of a claim attempt to the job in hand" . \
	(pooling == 1 ? " (repeats pooled)" : pooling == 2 ? " (mean of the repeats' percentiles)" : "") . partnote . wrknote
set xlabel "percentile"
set ylabel "claim latency (ms, log scale)"
set logscale y
set xrange [-0.3:4.3]
set xtics scale 0
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no runs" at graph 0.5, 0.5 center
	unset logscale y
	plot NaN notitle
} else {
	plot for [i=1:n] data index (i-1) using 1:2:xtic(3) with linespoints lc rgb colour(i) lw 2 dt dash(i) \
		pt point(i) ps 1.2 title columnheader(1)
}
