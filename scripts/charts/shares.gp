# Each worker's share of the completed jobs against a fair share: per strategy and worker
# count a cluster of bars, one per worker, largest first (each run's workers ranked, then
# averaged by rank over repeats), as multiples of the fair share 1/workers, so that every
# worker count reads on one scale; 1 (fair) dashed. Bars have no outline, so that 64 thin
# bars still read as a profile. Data: per block, a tick row (x, 0, 0, workers) per
# cluster (its label the workers, or the strategy when every case ran at one worker count:
# workers > 0, and the bars need no key), then a row per worker (bar centre, share in fair shares, bar width, "").
set title "Each worker's share of completed jobs, in fair shares (workers ranked, largest first)" . partnote . wrknote
set xlabel (workers > 0 ? "strategy: a cluster of its workers' shares" : \
	"workers, a cluster per strategy and worker count (colours in the key)")
if (workers > 0 && n > 4) {
	set xtics rotate by 30 right
}
set ylabel "share / fair share (1 = all equal)"
set xtics scale 0
set offsets 0.3, 0.3, 0, 0
set style fill solid 1.0 noborder
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no runs" at graph 0.5, 0.5 center
	plot NaN notitle
} else {
	eval "plot for [i=1:n] data index (i-1) using 1:2:3:xtic(4) with boxes lc rgb colour(i) " . \
	     (workers > 0 ? "notitle" : "title columnheader(1)") . \
	     ", 1 with lines lc rgb 'black' lw 2 dt 2 title 'fair share'"
}
