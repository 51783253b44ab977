# Wait for a grant in guarded runs: a cluster per guard and worker count, grouped by
# workload (an empty cluster between workloads), a bar per wait: p50, p99 and max over all
# acquisitions, the writers' p99; the mean over repeats, log scale, a wait of 0 drawing no
# bar. Data: a header, then rows of the case's label, its workload and the four waits (ms).
set title "Guarded resources: an acquisition's start to its grant, per guard, grouped by workload" . partnote . wrknote
set ylabel "wait for a grant (ms, log scale)"
set style data histograms
set style histogram clustered gap 1
set xtics scale 0 rotate by 30 right
set bmargin 13
set lmargin 24
set format y "%g"
waitcolour(i) = word("#009e73 #e69f00 #d55e00 #332288", i)
if (n == 0 || ymax == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 (n == 0 ? "no guarded runs" : "no acquisition waited") at graph 0.5, 0.5 center
	plot NaN notitle
} else {
	set logscale y
	plot for [i=3:6] data using i:xtic(1) lc rgb waitcolour(i-2) \
		title columnheader(i)
}
