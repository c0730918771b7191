# roofline.gp — %SOL against arithmetic intensity (flops per byte the task must move,
# at its timed shape): how close each correct kernel is to the speed of light, and
# whether the memory-bound (left) or compute-bound (right) tasks are the ones left behind.
# Data (roofline.dat): one block per run, lines "intensity pct_sol task".
# Variables: datafile, outfile, fmt, nruns, labels (1 to name the points).
load plotdir."/common.gp"
set title "Fraction of the speed of light vs arithmetic intensity"
set xlabel "arithmetic intensity (flop per byte, log scale)"
set ylabel "% of speed of light"
set logscale x 10
set yrange [0:105]
set ytics 0,20,100
set key outside right top box opaque
if (labels) {
	plot for [i=0:nruns-1] datafile index i using 1:2 with points lt (i+1) title label(i), \
	     for [i=0:nruns-1] datafile index i using 1:2:3 with labels offset 0.6,0.6 left \
	         font ",9" tc lt (i+1) notitle noenhanced
} else {
	plot for [i=0:nruns-1] datafile index i using 1:2 with points lt (i+1) title label(i)
}
