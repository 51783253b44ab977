# Empty claims and spurious empties (empty claims made while a job waited): a cluster per
# figure, a bar per strategy and worker count (mean over repeats), its value written up
# its top (a 0 only with few bars); bar k of n in cluster r sits at r + (k - (n - 1) / 2) / (n + gap). Data: a
# header of titles, then rows of figure name and one value per strategy and worker count.
set title "Claims that returned no job: all of them, and spurious ones (a job was waiting)" . partnote . wrknote
set xlabel "figure"
set ylabel "claims (mean over repeats)"
set style data histograms
set style histogram clustered gap 1
set xtics scale 0
if (n == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no runs" at graph 0.5, 0.5 center
	plot NaN notitle
} else {
	# The figures' clusters at 0, 1 ..., centred: autoscale left an empty cluster's room on the
	# left. stats counts the rows (the header's too) with y autoscaled, as it leaves out values
	# outside the y range.
	set autoscale y
	stats data using 0 nooutput
	set xrange [-0.5:STATS_records - 1.5]
	if (ymax > 0) {
		set yrange [ylo:ymax]
	}
	plot for [i=2:n+1] data using i:xtic(1) lc rgb colour(i-1) lw 2 fs solid fill(i-1) border lc rgb colour(i-1) title columnheader(i), \
	     for [i=2:n+1] data skip 1 using ($0 + (i - 2 - (n - 1) / 2.0) / (n + 1.0)):(valid(i) ? column(i) : 0):(!valid(i) ? "n/a" : column(i) != 0 || n <= keybeside ? sprintf("%g", column(i)) : "") \
		with labels rotate by 90 left offset 0, 0.4 font ",8" notitle
}
