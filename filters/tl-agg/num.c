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

double
median(double *a, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(a, n, sizeof *a, cmpd);
	if (n % 2)
		return a[n / 2];
	return (a[n / 2 - 1] + a[n / 2]) / 2;
}


double
np_round2(double x)
{
	return rint(x * 100.0) / 100.0;
}

void
sb_pyfloat(struct sbuf *b, double v)
{
	char buf[48];
	int n = tl_py_float(buf, sizeof buf, v);

	sb_add(b, buf, (size_t)n);
}

void
sb_double(struct sbuf *b, double v)
{
	char buf[48];
	int n = tl_fmt_double(buf, sizeof buf, v);

	sb_add(b, buf, (size_t)n);
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
