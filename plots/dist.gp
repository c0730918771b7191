# dist.gp — speedup distribution per level (log scale): a box (quartiles, whiskers
# to 1.5 IQR) and the correct tasks as points, one box per run within each level.
# gnuplot draws a box for 4 or more points; a smaller group shows its points only.
# Data (dist.dat): one block per (level, run) that has a point, level-major, each
# line "box_x speedup point_x". Variables: datafile, outfile, fmt, nruns, nlevels,
# nblocks, blockruns (the run, 1-based, of each block), baseline, ymin, ymax, and
# `set xtics` with the level names.
load plotdir."/common.gp"
set title sprintf("Speedup vs %s of correct tasks, per level", baseline)
set ylabel sprintf("speedup vs %s (log scale)", baseline)
set xlabel "level"
set logscale y 2
set yrange [ymin:ymax]
set ytics ("1/16×" 0.0625, "1/8×" 0.125, "1/4×" 0.25, "1/2×" 0.5, "0.75×" 0.75, "1×" 1, \
           "1.5×" 1.5, "2×" 2, "3×" 3, "4×" 4, "6×" 6, "8×" 8, "16×" 16, "32×" 32, "64×" 64, \
           "128×" 128)
set style fill transparent solid 0.25 border
set style boxplot nooutliers
set boxwidth 0.8 / (nruns + 0.5) absolute
set xrange [0.4:nlevels + 0.6]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "#888888"
set key top right box opaque
run(k) = int(word(blockruns, k + 1))
plot for [k=0:nblocks-1] datafile index k using 1:2 with boxplot lt run(k) notitle, \
     for [k=0:nblocks-1] datafile index k using 3:2 with points lt run(k) notitle, \
     for [i=0:nruns-1] NaN with points lt (i + 1) title label(i)
