# Where the run's worker backends were at each server sample: a stacked bar per sampled
# strategy and worker count, each wait class's share of the sampled states (mean over
# repeats, 100 % in all), a class in the same colour in every report. Data: a header of the
# classes' names, then rows of the case's label and one share (%) per class; n rows.
set title "The workers' server backends by wait class, share of the sampled states" . partnote . wrknote
set ylabel "share of sampled states (%)"
set style data histograms
set style histogram rowstacked
set boxwidth 0.6
set xtics scale 0
set ytics 0, 20, 100
set key outside right top vertical Left reverse noautotitle samplen 2 spacing 1.2 title "wait class"
if (n > 3) {
	set xtics rotate by 30 right
}
plot for [i=2:7] data using i:xtic(1) lc rgb colour(i-1) title columnheader(i)
