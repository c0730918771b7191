/* stats.h — sample statistics and the timing stop rule (nvbench's method). */
#ifndef CUA_STATS_H
#define CUA_STATS_H

#include "common.h"

struct cua_stats {
	int n;
	double min, max, mean, stdev;   /* stdev: sample (n-1) */
	double median, q1, q3, iqr;     /* quartiles by linear interpolation */
	double rel_sem;                 /* stdev / sqrt(n) / mean; 0 when n < 2 */
};

/* Computes statistics of n >= 1 samples (input left unmodified). */
void cua_stats_compute(const double *samples, int n, struct cua_stats *out);

struct cua_stop_rule {
	int min_samples;        /* never stop before (default 10) */
	int max_samples;        /* always stop at (default 1000) */
	double max_rel_sem;     /* stop when rel. SEM <= this (default 0.005) */
	double max_time_s;      /* stop when the samples' total time >= this (default 5) */
};

void cua_stop_rule_init(struct cua_stop_rule *r);

/* True when sampling should stop given the samples so far and the time spent. */
bool cua_stop_now(const struct cua_stop_rule *r, const double *samples, int n,
                  double spent_s);

#endif /* CUA_STATS_H */
