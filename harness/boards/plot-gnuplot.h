/* plot-gnuplot.h — running a plots/NAME.gp script: the data and a variables file
 * are written by the caller into the output folder, gnuplot draws from them. */
#ifndef CUA_PLOT_GNUPLOT_H
#define CUA_PLOT_GNUPLOT_H

#include "common.h"

struct cua_plot {
	const char *root;         /* repo root: the scripts are root/plots/NAME.gp */
	const char *out;          /* output folder (exists) */
	const char *format;       /* "png" or "svg" */
};

/* The gnuplot to run: $CUARENA_GNUPLOT when set, else the first `gnuplot` on
 * PATH. False (path empty) when there is none. */
bool cua_plot_find_gnuplot(char *path, size_t len);

/* OUT/NAME.dat, the data file the caller fills. */
void cua_plot_data_path(const struct cua_plot *p, const char *name, char *buf, size_t len);

/* Writes OUT/NAME.vars.gp (datafile, outfile, fmt, plotdir, then `vars` as
 * given: more gnuplot assignments) and runs `gnuplot OUT/NAME.vars.gp
 * ROOT/plots/NAME.gp` with its output in OUT/NAME.log. The image is
 * OUT/NAME.<format>; on failure err carries the log's first line. */
enum cua_status cua_plot_run(const struct cua_plot *p, const char *name, const char *vars,
                             char *err, size_t errlen);

#endif /* CUA_PLOT_GNUPLOT_H */
