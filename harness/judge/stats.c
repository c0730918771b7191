/* stats.c — sample statistics and the timing stop rule (stats.h). */
#include "judge/stats.h"

#include <math.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Quantile q of sorted[0..n) by linear interpolation between order statistics
 * (numpy's default, "linear"): position (n-1)*q. */
static double quantile(const double *sorted, int n, double q)
{
	double h = (n - 1) * q;
	int lo = (int)floor(h);
	if (lo >= n - 1)
		return sorted[n - 1];
	return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
}

static void mean_stdev(const double *x, int n, double *mean, double *stdev)
{
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += x[i];
	*mean = sum / n;
	double ss = 0;
	for (int i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*stdev = n > 1 ? sqrt(ss / (n - 1)) : 0;
}

/* stdev / sqrt(n) / |mean|; 0 for n < 2, infinite for a zero mean with spread. */
static double rel_sem(int n, double mean, double stdev)
{
	if (n < 2 || stdev == 0)
		return 0;
	if (mean == 0)
		return INFINITY;
	return stdev / sqrt((double)n) / fabs(mean);
}

void cua_stats_compute(const double *samples, int n, struct cua_stats *out)
{
	CUA_ASSERT(n >= 1);
	double *sorted = malloc((size_t)n * sizeof(*sorted));
	CUA_ASSERT(sorted);
	memcpy(sorted, samples, (size_t)n * sizeof(*sorted));
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_double);

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	mean_stdev(samples, n, &out->mean, &out->stdev);
	out->q1 = quantile(sorted, n, 0.25);
	out->median = quantile(sorted, n, 0.5);
	out->q3 = quantile(sorted, n, 0.75);
	out->iqr = out->q3 - out->q1;
	out->rel_sem = rel_sem(n, out->mean, out->stdev);
	free(sorted);
}

void cua_stop_rule_init(struct cua_stop_rule *r)
{
	*r = (struct cua_stop_rule){
		.min_samples = 10,
		.max_samples = 1000,
		.max_rel_sem = 0.005,
		.max_time_s = 5.0,
	};
}

bool cua_stop_now(const struct cua_stop_rule *r, const double *samples, int n,
                  double spent_s)
{
	if (n >= r->max_samples)
		return true;
	if (n < r->min_samples || n < 1)
		return false;
	if (spent_s >= r->max_time_s)
		return true;
	double mean, stdev;
	mean_stdev(samples, n, &mean, &stdev);
	return rel_sem(n, mean, stdev) <= r->max_rel_sem;
}
