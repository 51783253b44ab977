# Time to recover from faults (docs/faults.md defines it): per strategy and worker count
# with faults, a bar per fault group. A restart: the server's outage (the fault to the
# server accepting connections again) in grey, under the strategy's own recovery (the
# server back to its first completion) in its colour. Faults on a job (crash, stall,
# kill-backend): the fault to that job's next commit, the median of the run's faults as the
# bar, the slowest as a cross. A case that never recovered (jobs lost: own NaN) has no bar
# of its own but a red circle and "never (N lost)" standing on its slot (on its outage), so that it cannot pass for the
# fastest. Data: a header, then n rows of x, tick label, outage (s, NaN: none), own
# recovery (s, NaN: no completion after), slowest (s, NaN: a restart's bar), the case's
# colour as a number, "never (N lost)" or "". layer lists the parts some bar has: 1 an
# outage, 2 a slowest job's recovery, 3 no recovery.
# The key stands above the plot, where no bar or cross can reach it.
set title "Time to recover from faults: the server's outage apart from each strategy's own" . partnote . wrknote
set xlabel "strategy (fault)"
set ylabel "seconds from the fault"
set xtics scale 0
set style fill solid 0.9 border -1
set boxwidth 0.7
set offsets 0.5, 0.5, 0, 0
set key outside top center horizontal Left reverse samplen 2 width 2
if (n > 3) {
	set xtics rotate by 30 right
}
# The bar's parts: the whole (outage and own recovery) in the case's colour, then the outage
# over its bottom, and the slowest job's cross, each only when some bar has it.
whole(o, r) = (valid(3) ? o : 0) + (valid(4) ? r : 0)
has(part) = sum [k=1:words(layer)] (block(layer, k) == part ? 1 : 0) > 0
cmd = "plot data skip 1 using 1:(whole($3, $4)):6:xtic(2) with boxes lc rgb variable notitle"
if (has(1)) {
	cmd = cmd . ", data skip 1 using 1:($3 > 0 ? $3 : NaN) with boxes lc rgb '#999999' fs solid 0.9 border -1 " . \
	      "title 'server down (restart)'"
}
cmd = cmd . ", keyentry with boxes lc rgb '#777777' fs solid 0.2 border -1 title 'the strategy''s own recovery (its colour)'"
if (has(2)) {
	cmd = cmd . ", data skip 1 using 1:5 with points lc rgb 'black' pt 2 ps 1.5 title 'slowest job''s recovery'"
}
if (has(3)) {
	cmd = cmd . ", data skip 1 using 1:(valid(4) ? NaN : valid(3) ? $3 : 0):7 with labels rotate by 90 left " . \
	      "offset 0,0.8 tc rgb '#c00000' notitle, " . \
	      "data skip 1 using 1:(valid(4) ? NaN : valid(3) ? $3 : 0) with points lc rgb '#c00000' pt 6 ps 1.5 " . \
	      "title 'never recovered: jobs lost'"
}
eval cmd
