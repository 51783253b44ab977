# Arrivals of open-loop runs over time: jobs the producers inserted per second in each
# 100 ms bucket, the first repetition of each strategy and worker count, drawn thick to
# thin so that coinciding lines stay visible, against the rate asked (dashed: one black line
# when every run asked the same); a shortfall means the producers could not keep up. Data: per block, rows
# of bucket start (s), arrivals per second, the rate asked (jobs/s); a last row at the end
# of the last bucket.
set title "Arrivals: jobs inserted per second (100 ms buckets) against the rate asked (dashed)" . partnote . wrknote
set xlabel "time since the start barrier (s)"
set ylabel "arrivals per second"
set xrange [0:xhi]
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no open-loop runs with a time series" at graph 0.5, 0.5 center
	plot NaN notitle
} else {
	plot for [i=1:n] data index (i-1) using 1:2 with steps lc rgb colour(i) lw stacked(i, n) dt dash(i) title columnheader(1), \
	     for [i=1:(arrival > 0 ? 0 : n)] data index (i-1) using 1:3 with lines lc rgb colour(i) lw 1.5 dt 2 \
		title (i == 1 ? "rate asked (dashed)" : ""), \
	     for [j=1:(arrival > 0 ? 1 : 0)] arrival with lines lc rgb "black" lw 1.5 dt 2 title "rate asked (dashed)"
}
