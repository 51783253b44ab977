# Completions over time, the first repetition of each strategy and worker count: above,
# completions per second in each 100 ms bucket (blocking shows as gaps, convoys as
# bursts); below, completions so far (a job run twice counts twice). Data: per block,
# rows of bucket start (s), completions per second in it, completions before it; a last
# row at the end of the last bucket. When faults struck, a last block holds a row per
# fault: its instant (s), the colour of its strategy as a number, its kind; each is a
# dashed vertical line across the upper plot.
set multiplot layout 2,1 title "Completions over time (first repetition of each strategy and worker count)"
set xlabel "time since the start barrier (s)"
set xrange [0:*]
set lmargin 10
set rmargin 30
set yrange [0:*]
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no time series stored for these runs" at graph 0.5, 0.5 center
	set ylabel "completions (jobs/s)"
	plot NaN notitle
	set ylabel "completions so far (cumulative)"
	plot NaN notitle
} else {
	set ylabel "completions (jobs/s, 100 ms buckets)"
	set y2range [0:1]
	unset y2tics
	plot for [i=1:n] data index (i-1) using 1:2 with steps lc rgb colour(i) lw 1.5 dt dash(i) title columnheader(1), \
	     for [m=1:marks] data index n using 1:(1):2 axes x1y2 with impulses lc rgb variable lw 1 dt 2 title "faults"
	set ylabel "completions so far (cumulative)"
	set key off
	plot for [i=1:n] data index (i-1) using 1:3 with lines lc rgb colour(i) lw 2 dt dash(i) notitle
}
unset multiplot
