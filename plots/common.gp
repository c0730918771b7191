# common.gp — terminal, output and look shared by every plot (loaded by the others).
# Variables from cuarena's NAME.vars.gp: outfile, fmt ("png" or "svg"), width, height.
if (!exists("width")) width = 960
if (!exists("height")) height = 600
if (fmt eq "svg") {
	set terminal svg size width,height dynamic font "DejaVu Sans,13" background rgb "white"
} else {
	set terminal pngcairo size width,height font "DejaVu Sans,12" background rgb "white"
}
set output outfile
set border lw 1.2 lc rgb "#444444"
set grid lc rgb "#dddddd" lw 1
set key noenhanced
set title noenhanced font ",15"
set linetype 1 lc rgb "#1f77b4" lw 2.5 pt 7 ps 1.2
set linetype 2 lc rgb "#d62728" lw 2.5 pt 5 ps 1.2
set linetype 3 lc rgb "#2ca02c" lw 2.5 pt 9 ps 1.4
set linetype 4 lc rgb "#9467bd" lw 2.5 pt 11 ps 1.4
set linetype 5 lc rgb "#ff7f0e" lw 2.5 pt 13 ps 1.4
set linetype 6 lc rgb "#8c564b" lw 2.5 pt 7 ps 1.2
set linetype 7 lc rgb "#e377c2" lw 2.5 pt 5 ps 1.2
set linetype 8 lc rgb "#17becf" lw 2.5 pt 9 ps 1.4
set linetype cycle 8
# label(i): the legend of run i (0-based), from label1, label2, ... in the vars file
label(i) = value(sprintf("label%d", i + 1))
