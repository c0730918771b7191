# trend.gp — nightly trend: geomean speedup (left axis) and pass rate and fast_1
# (right axis, %) per run, in order of creation (`cuarena history`).
# Data (trend.dat): index, "date", geomean, pass %, fast_1 %, "run".
# Variables: datafile, outfile, fmt, baseline, nrows.
load plotdir."/common.gp"
set title sprintf("Nightly trend (speedup vs %s)", baseline)
set ylabel sprintf("geomean speedup vs %s", baseline)
set y2label "% of tasks"
set y2range [0:105]
set y2tics 0,20,100
set ytics nomirror
set yrange [0:*]
set xrange [-0.5:nrows - 0.5]
set xtics rotate by -30 left noenhanced font ",10"
set bmargin 6
set key top left box opaque
plot datafile using 1:3:xtic(2) with linespoints lt 1 title "geomean (correct tasks)", \
     datafile using 1:4 axes x1y2 with linespoints lt 2 dt 2 title "pass rate %", \
     datafile using 1:5 axes x1y2 with linespoints lt 3 dt 3 title "fast_1 %"
