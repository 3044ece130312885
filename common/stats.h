/*
 * tl: statistics of a column as numpy and pandas compute them, to the
 * last bit, for the tools that write TraceLens's numbers: numpy's
 * pairwise sum and population std (np.sum, np.std), and pandas's
 * group-by sum and mean (Kahan), sample std (Welford, ddof=1) and
 * median.
 */
#ifndef TL_STATS_H
#define TL_STATS_H

#include <stddef.h>

/* numpy's pairwise sum of a float64 array (np.sum, Series.sum). */
double tl_np_sum(const double *a, size_t n);
/* numpy's population std (np.std, ddof=0); NaN for n 0. */
double tl_np_std(const double *a, size_t n);

/*
 * A sum with Kahan's compensation, as pandas's group-by sum and mean
 * add: start it { 0, 0 }; the sum is s. A NaN term (or an inf that
 * makes the compensation NaN) resets the compensation, as pandas does.
 */
struct tl_kahan {
	double s, c;
};

static inline void
tl_kahan_add(struct tl_kahan *k, double x)
{
	double y = x - k->c, t = k->s + y;

	k->c = (t - k->s) - y;
	if (k->c != k->c)
		k->c = 0;
	k->s = t;
}

/*
 * Welford's running mean and squared deviations, as pandas's group-by
 * std: start it { 0, 0, 0 }.
 */
struct tl_welford {
	double n, mean, m2;
};

static inline void
tl_welford_add(struct tl_welford *w, double x)
{
	double old = w->mean;

	w->n += 1;
	w->mean += (x - old) / w->n;
	w->m2 += (x - w->mean) * (x - old);
}

/* The sample std (ddof=1) of what was added; NaN for fewer than 2. */
double tl_welford_std(const struct tl_welford *);

/*
 * The median of a[0..n) (pandas's: the mean of the middle two for an
 * even n); NaN for n 0. Reorders a. With a NaN in a, the median of a
 * as qsort(3) with < and > leaves it (callers leave NaN out).
 */
double tl_median(double *a, size_t n);

/*
 * All of a group's statistics of v[0..n), NaN values left out (pandas's
 * skipna): n the values that are not NaN; sum (Kahan) and mean = sum /
 * n; std (Welford, ddof=1); median; min and max. With no value: sum 0,
 * the others NaN.
 */
struct tl_stats {
	size_t n;
	double sum, mean, median, std, min, max;
};

void tl_stats(struct tl_stats *, const double *v, size_t n);

#endif
