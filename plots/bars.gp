# bars.gp — per-task speedup bars, one cluster per task and one bar per run, on a
# log2 axis centred on 1× (up: faster than the baseline; down: slower; no bar:
# failed or not run). Data (bars.dat): task, then one column per run (header: labels).
# Variables: datafile, outfile, fmt, nruns, baseline, width, ymin, ymax (log2), barcols and
# nobarcols (the data columns of runs with and without any bar, e.g. "2 4" and "3": gnuplot
# refuses a histogram column of no valid point, so such a run is only named in the key).
load plotdir."/common.gp"
set title sprintf("Speedup vs %s per task (no bar: failed or not run)", baseline)
set ylabel sprintf("speedup vs %s (log scale)", baseline)
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -40 left noenhanced font ",10"
set yrange [ymin:ymax]
set ytics ("1/16×" -4, "1/8×" -3, "1/4×" -2, "1/2×" -1, "0.75×" log(0.75)/log(2), "1×" 0, \
           "1.5×" log(1.5)/log(2), "2×" 1, "3×" log(3)/log(2), "4×" 2, "6×" log(6)/log(2), \
           "8×" 3, "16×" 4, "32×" 5, "64×" 6, "128×" 7)
set grid noxtics
set xzeroaxis lt -1 lw 1.5
set bmargin 8
set key top right box opaque
# the columns of runs with bars, and a legend entry for each run without
# (gnuplot evaluates an element's title even for an empty loop: hence the 2)
col(k) = k <= words(barcols) ? int(word(barcols, k)) : 2
nocol(k) = k <= words(nobarcols) ? int(word(nobarcols, k)) : 2
plot for [k=1:words(barcols)] datafile using (log(column(col(k)))/log(2)):xtic(1) \
	lt (col(k)-1) title columnheader(col(k)), \
     for [k=1:words(nobarcols)] keyentry with boxes fs empty lt (nocol(k)-1) \
	title label(nocol(k)-2)." (no correct task)"
