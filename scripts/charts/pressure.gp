# Throughput beside what MVCC pressure leaves in the queue table: a panel per sampled
# strategy and worker count (its first repetition), two a row beyond four, at most 64 (the
# title says how many it left out: leftout). Data: per panel two blocks, its distinct jobs
# completed per second in each 100 ms bucket (dups 1; every completion, duplicates
# included, when a series does not tell them apart: dups 0; steps in the case's colour, left axis),
# then a row per server sample, the queue table's dead tuples, or the -wal file in MB for
# the panels in layer (black, right axis). The phases (a held snapshot shaded, a vacuum a
# dashed red line) come in phases; the data file's last block repeats them for readers.
set xlabel "time since the start barrier (s)"
set ylabel (dups ? "distinct jobs done per second" : "completions per second (duplicates included)")
set xrange [0:xhi]
headroom = 1.1
set y2tics nomirror
set border 11
set lmargin 10
set rmargin 12
set key outside top center horizontal Left reverse samplen 2 width 2
snapshot_fill = "#fdb863"
vacuum_colour = "#cc3311"
nphases = words(phases) / 4
# Whether panel p draws the -wal file, and whether it has a phase of kind.
is_wal(p) = sum [k=1:words(layer)] (block(layer, k) == p ? 1 : 0) > 0
has_phase(p, kind) = sum [q=1:nphases] (block(phases, 4*q-3) == p && block(phases, 4*q-2) == kind ? 1 : 0) > 0
if (panels > 4) {
	set key inside right top vertical Left reverse samplen 1.5 font ",8" opaque
}
set multiplot layout (panels > 4 ? int((panels + 1) / 2) : panels), (panels > 4 ? 2 : 1) \
	title "Throughput and dead tuples over time, every sampled case; held snapshot shaded, vacuum dashed" . \
	partnote . cutnote
do for [p=1:panels] {
	unset object
	unset arrow
	do for [q=1:nphases] {
		if (block(phases, 4*q-3) == p) {
			from = real(word(phases, 4*q-1))
			to = real(word(phases, 4*q))
			if (block(phases, 4*q-2) == 0) {
				set object q rectangle from first from, graph 0 to first to, graph 1 behind \
					fc rgb snapshot_fill fs solid 0.45 noborder
			} else {
				set arrow q from first from, graph 0 to first from, graph 1 nohead lc rgb vacuum_colour lw 2 dt 2 front
			}
		}
	}
	# Each axis from 0 to its panel's highest value with room; 0 to 1 when all are 0. stats
	# leaves out values outside the y range: the last panel's is dropped, and both are read
	# before either range is set.
	set autoscale y
	set autoscale y2
	stats data index (2*p-2) using 2 nooutput
	top = STATS_max
	stats data index (2*p-1) using 2 nooutput
	set yrange [0:(top > 0 ? top * headroom : 1)]
	set y2range [0:(STATS_max > 0 ? STATS_max * headroom : 1)]
	set y2label (is_wal(p) ? "-wal file (MB)" : "dead tuples")
	cmd = "plot data index (2*p-2) using 1:2 with steps lc rgb colour(p) lw 2 title columnheader(1), " . \
	      "data index (2*p-1) using 1:2 axes x1y2 with linespoints lc rgb 'black' lw 1.5 pt 7 ps 0.4 title columnheader(1)"
	if (has_phase(p, 0)) {
		cmd = cmd . ", keyentry with boxes fc rgb snapshot_fill fs solid 0.45 noborder title 'snapshot held'"
	}
	if (has_phase(p, 1)) {
		cmd = cmd . ", keyentry with lines lc rgb vacuum_colour lw 2 dt 2 title 'vacuum'"
	}
	eval cmd
}
unset multiplot
