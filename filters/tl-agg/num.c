/*
 * tl-agg: numbers computed and printed the way pandas and numpy do, so
 * that TraceLens's CSVs come out the same: numpy's population std,
 * rounding and histogram (numpy's pairwise sum and Python's repr of a
 * float are common/pyfmt.c, pandas's descending sort common/npsort.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/mem.h"
#include "../../common/pyfmt.h"
#include "../../common/tsv.h"
#include "agg.h"


double
welford_std(const struct welford *w)
{
	if (w->n < 2)
		return NAN;
	return sqrt(w->m2 / (w->n - 1));
}

double
np_std(const double *a, size_t n)
{
	double mean, *d, v;
	size_t i;

	if (n == 0)
		return NAN;
	mean = tl_np_sum(a, n) / (double)n;
	d = xreallocarray(NULL, n, sizeof *d);
	for (i = 0; i < n; i++)
		d[i] = (a[i] - mean) * (a[i] - mean);
	v = tl_np_sum(d, n) / (double)n;
	free(d);
	return sqrt(v);
}

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void
swapd(double *a, size_t i, size_t j)
{
	double t = a[i];

	a[i] = a[j];
	a[j] = t;
}

/*
 * Put the k-th smallest of a[0..n) at a[k], the smaller ones before it
 * and the larger after: quickselect, a median-of-three pivot and a
 * three-way partition (runs of equal durations are common), sorting
 * what is left after too many rounds. Linear where qsort was n log n.
 */
static void
selectk(double *a, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1, lt, gt, i;
	double p, x, y, z;
	int round = 0;

	while (lo < hi) {
		if (++round > 64) {
			qsort(a + lo, hi - lo + 1, sizeof *a, cmpd);
			return;
		}
		x = a[lo];
		y = a[lo + (hi - lo) / 2];
		z = a[hi];
		p = x < y ? (y < z ? y : x < z ? z : x) :
		    (x < z ? x : y < z ? z : y);
		/*
		 * [lo, lt) < p, [lt, i) == p, (gt, hi] > p; a value p
		 * stays in [lt, gt], so gt never goes below lo.
		 */
		lt = i = lo;
		gt = hi;
		while (i <= gt) {
			if (a[i] < p)
				swapd(a, lt++, i++);
			else if (a[i] > p)
				swapd(a, i, gt--);
			else
				i++;
		}
		if (k < lt)
			hi = lt - 1;
		else if (k > gt)
			lo = gt + 1;
		else
			return;
	}
}

double
median(double *a, size_t n)
{
	double m;
	size_t i;

	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++)
		if (isnan(a[i]))
			break;
	if (i < n) {	/* no order: as qsort leaves them */
		qsort(a, n, sizeof *a, cmpd);
		if (n % 2)
			return a[n / 2];
		return (a[n / 2 - 1] + a[n / 2]) / 2;
	}
	selectk(a, n, n / 2);
	if (n % 2)
		return a[n / 2];
	/* the largest of the lower half */
	for (m = a[0], i = 1; i < n / 2; i++)
		if (a[i] > m)
			m = a[i];
	return (m + a[n / 2]) / 2;
}


double
np_round2(double x)
{
	return rint(x * 100.0) / 100.0;
}

/*
 * numpy.histogram(v, bins): equal bins from min to max (widened by 0.5
 * on each side when they are equal); edges as linspace makes them; a
 * value on an inner edge goes to the bin above, the maximum to the last.
 */
void
histogram(const double *v, size_t n, int bins, double *edges,
    int64_t *count)
{
	double lo, hi, step, norm;
	size_t i;
	long b;

	memset(count, 0, (size_t)bins * sizeof *count);
	if (n == 0)
		return;
	lo = hi = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	if (lo == hi) {
		lo -= 0.5;
		hi += 0.5;
	}
	step = (hi - lo) / bins;
	for (b = 0; b <= bins; b++)
		edges[b] = (double)b * step + lo;
	edges[bins] = hi;
	norm = hi - lo;
	for (i = 0; i < n; i++) {
		b = (long)((v[i] - lo) / norm * bins);
		if (b == bins)
			b--;
		if (v[i] < edges[b])
			b--;
		if (v[i] >= edges[b + 1] && b != bins - 1)
			b++;
		count[b]++;
	}
}
