# Makespan per strategy: a bar per strategy and worker count (mean over repeats), min-max
# error bars when repeated, the ideal (total work / workers) as a dashed black mark.
# Data: per block, rows of x, mean, min, max, ideal (s), tick label, repeats.
set title "Makespan per strategy (mean over repeats; min-max bars when repeated)"
set xlabel "strategy, by worker count"
set ylabel "makespan (s)"
set yrange [0:*]
set xtics scale 0
set boxwidth 0.8
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no runs" at graph 0.5, 0.5 center
	plot NaN notitle
} else {
	plot for [i=1:n] data index (i-1) using 1:2:xtic(6) with boxes lc rgb colour(i) title columnheader(1), \
	     for [i=1:n] data index (i-1) using 1:($7 > 1 ? $3 : NaN):(0):($4 - $3) with vectors heads size screen 0.006,90 lc rgb "black" \
		title (i == 1 ? "min-max over repeats" : ""), \
	     for [i=1:n] data index (i-1) using ($1 - 0.45):5:(0.9):(0) with vectors nohead lc rgb "black" lw 2 dt 2 \
		title (i == 1 ? "ideal: total work / workers" : "")
}
