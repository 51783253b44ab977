# The cost of a claim at both ends of the run: per strategy and worker count (mean
# over repeats), the queue table's blocks per claim over the first and the last 2 s
# sampled, and the buffers the head lookup touched before and after the run (EXPLAIN
# ANALYZE), each value written up its bar. Data: a block per panel (layer: 1 blocks per
# claim, 2 the head lookup), a header of the cases' labels, then rows of figure name and one
# value per case; n cases. The header line is row 0 of its block (no number: no label),
# so a figure's cluster r sits at its row - 1. An unknown value (NaN) gets a bar of 0 and
# the label n/a, so that a case knowing none of a panel's figures leaves gnuplot no series
# without a point.
panel_title(p) = p == 1 ? "blocks per claim (heap and index)" : "head lookup's buffers (EXPLAIN ANALYZE)"
set style data histograms
set style histogram clustered gap 1
set xtics scale 0
set ylabel "blocks"
# The panels side by side above a band for the key of the cases, which covers no panel:
# a key of n entries beside the first panel beyond keybeside, below both in columns.
np = words(layer)
keyband = n > keybeside ? (ceil(n / 3.0) * 18.0 + 24) / height : 0
set multiplot title "What one claim cost at the start and at the end" . partnote . wrknote
do for [k=1:np] {
	set origin (k - 1.0) / np, keyband
	set size 1.0 / np, 0.93 - keyband
	set title panel_title(block(layer, k))
	# From 0 to the panel's highest value, with room for the labels; 0 to 1 when all are 0.
	# stats leaves out values outside the y range: the last panel's is dropped first.
	set autoscale y
	top = 0
	do for [i=2:n+1] {
		stats data index (k-1) using (valid(i) ? column(i) : 0) nooutput
		top = STATS_max > top ? STATS_max : top
	}
	set yrange [0:(top > 0 ? top * 1.3 : 1)]
	# The two figures' clusters at 0 and 1, centred: autoscale left an empty cluster's room on the left.
	set xrange [-0.5:1.5]
	if (k == 1 && n <= keybeside) {
		set key inside left top vertical Left reverse samplen 1.5 font ",9"
	} else {
		set key off
	}
	plot for [i=2:n+1] data index (k-1) using (valid(i) ? column(i) : 0):xtic(1) lc rgb colour(i-1) lw 2 fs solid fill(i-1) border lc rgb colour(i-1) title columnheader(i), \
	     for [i=2:n+1] data index (k-1) using ($0 - 1 + (i - 2 - (n - 1) / 2.0) / (n + 1.0)):(valid(i) ? column(i) : 0):(valid(i) ? sprintf("%.4g", column(i)) : "n/a") \
		with labels rotate by 90 left offset 0, 0.4 font ",8" notitle
}
if (keyband > 0) {
	# The key alone in the band: each case's bar drawn outside the ranges, so that only its entry shows.
	set origin 0, 0
	set size 1, keyband
	unset title
	unset border
	unset tics
	unset xlabel
	unset ylabel
	unset grid
	set xrange [0:1]
	set yrange [0:1]
	set key inside center center horizontal Left reverse samplen 1.5 maxrows ceil(n / 3.0) font ",9"
	plot for [i=2:n+1] data index 0 using (-1):(-1) with boxes lc rgb colour(i-1) lw 2 fs solid fill(i-1) border lc rgb colour(i-1) title columnheader(i)
}
unset multiplot
