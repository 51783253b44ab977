# Shared set-up of claimbench's charts, run before each chart's own script.
# claimbench passes, with gnuplot -e, in the output directory it runs gnuplot in:
#   term     'png' or 'svg'
#   out      the image file to write
#   data     the chart's tab-separated data file (blocks separated by two blank lines,
#            each opening with a header line whose first column is its legend title)
#   section  the scenario section the chart's runs ran in, made file-safe, "" when the
#            report draws runs of no section or of several together
#   n        how many blocks (or data columns) the data file holds
#   keybeside the most entries a key holds beside the plot: a longer one goes below it, in
#            as many columns as fit (claimbench makes the image taller for it)
#   workers  the worker count every case ran at, 0 when they differ: the charts then name
#            the strategies on their axes and say the count once
#   marks    how many blocks follow those n: the timeline's fault marks (0 or 1)
#   colours  one "#rrggbb" per block, space-separated: the strategy's colour, shaded (the
#            wait shares: one per wait class)
#   styles   one small number per block, space-separated: its dash type
#   shapes   one number per block (0 to 9), space-separated: its marker shape
#   height   the image's height in pixels
#   xlo, xhi the worker axis' range, logx 1 when it is a log scale (throughput); for the
#            charts over time, xhi is the end of the time axis (s)
#   ticks    the worker counts measured, space-separated: the worker axis' tics
#   ylo      the bottom of a log y range (percentile charts), 0 for a range from 0
#   ymax     the top of the y range, 0 for automatic; ymax2, the timeline's second plot's
#   ceiling  jobs/s one worker can complete (1000 / work ms), common to every run;
#            -1 when the runs' work times differ (each row's ceiling column), 0 for none
#   arrival  the arrival rate every run asked for (jobs/s), 0 for none or unequal
#   pooling  percentile charts: 0 one run per case, 1 repeats' histograms merged,
#            2 the mean of the repeats' percentiles
#   dups     timeline: 1 when the store tells first completions from duplicates
#   layer    the blocks (from 1) a second layer draws, space-separated: the timeline's
#            with a duplicate, the throughput's with a ceiling of their own, the
#            makespan's with a repeated case; the pressure chart's panels (from 1) that
#            draw the -wal file; the buffers chart's panels written (1 blocks per
#            claim, 2 the head lookup); the holders chart's panels (from 1) whose
#            workload has a limit
#   panels   timeline: a panel per series, 0 for the shared layout; firsts, each panel's
#            first block (from 1) then n + 1; pressure: a panel per case; holders: a
#            panel per guarded case, firsts as the timeline's
#   leftout  pressure, holders: cases with something to draw beyond the panels drawn (64)
#   ownscales timeline panels: 1 when each has its own y range (their rates far apart)
#   owntimes timeline panels: 1 when each has its own x range (their runs' lengths far apart)
#   faulted  timeline: the blocks (from 1) with a fault mark; outages, those with a server
#            outage (a restart's)
#   phases   pressure: per phase "panel kind from to", kind 0 a held snapshot, 1 a vacuum,
#            from and to in s
if (term eq 'svg') {
	set terminal svg size 960,height font "sans,12" background rgb "white"
} else {
	set terminal pngcairo size 960,height font "sans,10" background rgb "white"
}
set output out
set termoption noenhanced
set datafile separator "\t"
set datafile missing "NaN"
set grid ytics lc rgb "#dddddd" lw 1 dt 1
set border 3
set tics nomirror
if (n > keybeside) {
	set key outside below center horizontal Left reverse noautotitle samplen 2 spacing 1.1 width -2
} else {
	set key outside right top vertical Left reverse noautotitle samplen 2 spacing 1.2
}
# What the titles add: the section of a report's chart set of one section (on a line of its
# own, so that a long name does not push the title past the image's edges), the worker
# count every case ran at.
partnote = section ne "" ? "\nsection " . section : ""
cutnote = leftout > 0 ? sprintf(" (the first %d cases; %d more left out)", panels, leftout) : ""
# What a case's marker or bar stands for: one run, or the mean over its repeats.
repnote = repeats == 0 ? " (one run each)" : repeats == 2 ? \
	" (mean over repeats, min-max bars; one run where a case has one)" : " (mean over repeats, min-max bars)"
wrknote = workers > 0 ? sprintf(", %d worker%s each", workers, workers == 1 ? "" : "s") : ""
set style fill solid 0.9 border -1
if (ymax > 0) {
	set yrange [ylo:ymax]
}

# The colour, dash type and point type of block i (from 1): the point type is one of ten
# shapes, picked per strategy and mode (shapes), so that series of one colour stay apart.
colour(i) = word(colours, i)
style(i) = int(word(styles, i))
dash(i) = 1 + style(i) % 5
point(i) = int(word("7 5 9 11 13 6 4 8 10 12", 1 + int(word(shapes, i)) % 10))
# A bar's fill density: solid for the first case of a strategy and mode, then for its others
# (worker counts, sections, sweep points: style(i) / 2), which share its colour, half and
# none in turn, the bar outlined in its colour (fs solid fill(i) border lc rgb colour(i)).
fill(i) = int(style(i) / 2) == 0 ? 0.9 : int(style(i) / 2) % 2 ? 0.45 : 0
# The k-th block of a list of blocks such as layer.
block(list, k) = int(word(list, k))

# An optional part of a plot is added to its command only when it has something to draw,
# and the command is run with eval: gnuplot reads the data of a loop over nothing once, and
# warns when that holds no valid point.

# The line width of block i of n: the first drawn thickest, each later one thinner, so that
# lines that coincide still show every colour as a border around the next.
stacked(i, n) = 1.2 + 2.8 * (n - i) / (n > 1 ? n - 1.0 : 1.0)
