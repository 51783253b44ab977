# Holders of guarded resources over time: a panel per guard, workload and worker count (its
# first repetition). Data: per panel a block per resource, a row per 100 ms bucket: its
# start (s), the most holders at once, the most waiting at once, the workload's limit (NaN
# for none), then a row at the last bucket's end repeating them. firsts holds each panel's
# first block (from 1), then n + 1. Holders are solid steps, waiters dashed ones in the
# resource's colour; the limit, in the panels layer names, is a dotted black line.
set xlabel "time since the start barrier (s)"
set ylabel "at once"
set xrange [0:xhi]
set yrange [0:ymax]
set key outside top center horizontal Left reverse samplen 2 width 2
# The colour of resource r (from 0): the Okabe-Ito palette, then again.
rescolour(r) = word("#0072b2 #d55e00 #009e73 #cc79a7 #e69f00 #56b4e9 #999933 #000000", 1 + r % 8)
first(p) = block(firsts, p)
has_limit(p) = sum [k=1:words(layer)] (block(layer, k) == p ? 1 : 0) > 0
if (panels == 0) {
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no guarded run with a holders series" at graph 0.5, 0.5 center
	plot NaN notitle
} else {
	set multiplot layout panels, 1 title "Holders (solid) and waiters (dashed) per resource; the limit dotted" . partnote . cutnote
	do for [p=1:panels] {
		cmd = "plot for [b=first(p):first(p+1)-1] data index (b-1) using 1:2 with steps " . \
		      "lc rgb rescolour(b-first(p)) lw 2 title columnheader(1), " . \
		      "for [b=first(p):first(p+1)-1] data index (b-1) using 1:3 with steps " . \
		      "lc rgb rescolour(b-first(p)) lw 1.5 dt 2 title (b == first(p) ? 'waiting' : '')"
		if (has_limit(p)) {
			cmd = cmd . ", data index (first(p)-1) using 1:4 with lines lc rgb 'black' lw 1.5 dt 3 title 'limit'"
		}
		eval cmd
	}
	unset multiplot
}
