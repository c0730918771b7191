# fastp.gp — fast_p curves, one line per run: the share of tasks that are correct
# and more than p times faster than the baseline, as p grows (KernelBench's metric).
# Data (fastp.dat): p, then one column per run (header: the run labels), in %.
# Variables: datafile, outfile, fmt, nruns, pmax, baseline.
load plotdir."/common.gp"
set title sprintf("fast_p vs %s: tasks correct and more than p× faster", baseline)
set xlabel sprintf("p (speedup threshold vs %s)", baseline)
set ylabel "fast_p (% of tasks)"
set xrange [0:pmax]
set yrange [0:105]
set ytics 0,20,100
set arrow 1 from 1,0 to 1,100 nohead dt 2 lc rgb "#888888"
set key top right box opaque
plot for [i=2:nruns+1] datafile using 1:i with steps title columnheader(i)
