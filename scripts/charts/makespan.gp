# Makespan per strategy, drain runs only (a timed run's makespan is its duration): a bar
# per strategy and worker count (mean over repeats), min-max error bars for the series with
# a repeated case (layer), the ideal (total work / workers) as a dashed black mark.
# Data: per block, rows of x, mean, min, max, ideal (s), tick label (the workers, or the
# strategy when every case ran at one worker count: workers > 0, and the bars need no key),
# repeats.
set title "Makespan per strategy, drain runs" . repnote . partnote . wrknote
set xlabel (workers > 0 ? "strategy" : "workers, a group of bars per strategy (colours in the key)")
if (workers > 0 && (n > 4 || engines)) {
	set xtics rotate by 30 right
}
if (workers > 0 && engines) {
	# The slanted labels name their engines too: room on the left for the first one.
	set lmargin 24
}
set ylabel "makespan (s)"
set xtics scale 0
set offsets 0.3, 0.3, 0, 0
set boxwidth 0.8
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no drain runs" at graph 0.5, 0.5 center
	plot NaN notitle
} else {
	cmd = "plot for [i=1:n] data index (i-1) using 1:2:xtic(6) with boxes lc rgb colour(i) " . \
	      (workers > 0 ? "notitle" : "title columnheader(1)") . ", " . \
	      "for [i=1:n] data index (i-1) using ($1 - 0.45):5:(0.9):(0) with vectors nohead lc rgb 'black' lw 2 dt 2 " . \
	      "title (i == 1 ? 'ideal: total work / workers' : '')"
	if (words(layer) > 0) {
		cmd = cmd . ", for [k=1:words(layer)] data index (block(layer, k) - 1) " . \
		      "using 1:($7 > 1 ? $3 : NaN):(0):($4 - $3) with vectors heads size screen 0.006,90 lc rgb 'black' " . \
		      "title (k == 1 ? 'min-max over repeats' : '')"
	}
	eval cmd
}
