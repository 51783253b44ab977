# Shared set-up of claimbench's charts, run before each chart's own script.
# claimbench passes, with gnuplot -e, in the output directory it runs gnuplot in:
#   term     'png' or 'svg'
#   out      the image file to write
#   data     the chart's tab-separated data file (blocks separated by two blank lines,
#            each opening with a header line whose first column is its legend title)
#   n        how many blocks (or data columns) the data file holds
#   marks    how many blocks follow those n: the timeline's fault marks (0 or 1)
#   colours  one "#rrggbb" per block, space-separated: the strategy's colour, shaded
#   styles   one small number per block, space-separated: its dash and point type
if (term eq 'svg') {
	set terminal svg size 960,540 font "sans,12" background rgb "white"
} else {
	set terminal pngcairo size 960,540 font "sans,10" background rgb "white"
}
set output out
set termoption noenhanced
set datafile separator "\t"
set datafile missing "NaN"
set grid ytics lc rgb "#dddddd" lw 1 dt 1
set border 3
set tics nomirror
set key outside right top vertical Left reverse noautotitle samplen 2 spacing 1.2
set style fill solid 0.9 border -1

# The colour, dash type and point type of block i (from 1).
colour(i) = word(colours, i)
style(i) = int(word(styles, i))
dash(i) = 1 + style(i) % 5
point(i) = 7 + 2 * (style(i) % 4)
