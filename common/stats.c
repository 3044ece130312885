/*
 * tl: statistics as numpy and pandas compute them (stats.h): the order
 * of the additions is theirs, so the sums agree to the last bit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "stats.h"

/* numpy's pairwise_sum for float64 (unrolled by 8, blocks of 128). */
double
tl_np_sum(const double *a, size_t n)
{
	double r[8], res;
	size_t i, j, n2;

	if (n < 8) {
		res = 0.;
		for (i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= 128) {
		for (j = 0; j < 8; j++)
			r[j] = a[j];
		for (i = 8; i < n - n % 8; i += 8)
			for (j = 0; j < 8; j++)
				r[j] += a[i + j];
		res = ((r[0] + r[1]) + (r[2] + r[3])) +
		    ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	}
	n2 = n / 2;
	n2 -= n2 % 8;
	return tl_np_sum(a, n2) + tl_np_sum(a + n2, n - n2);
}

double
tl_np_std(const double *a, size_t n)
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

double
tl_welford_std(const struct tl_welford *w)
{
	if (w->n < 2)
		return NAN;
	return sqrt(w->m2 / (w->n - 1));
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
tl_median(double *a, size_t n)
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

void
tl_stats(struct tl_stats *s, const double *v, size_t n)
{
	struct tl_kahan k = { 0, 0 };
	struct tl_welford w = { 0, 0, 0 };
	double *m = xreallocarray(NULL, n + 1, sizeof *m);
	size_t i, c = 0;

	s->min = s->max = NAN;
	for (i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		tl_kahan_add(&k, v[i]);
		tl_welford_add(&w, v[i]);
		if (c == 0 || v[i] < s->min)
			s->min = v[i];
		if (c == 0 || v[i] > s->max)
			s->max = v[i];
		m[c++] = v[i];
	}
	s->n = c;
	s->sum = k.s;
	s->mean = c > 0 ? k.s / (double)c : NAN;
	s->std = tl_welford_std(&w);
	s->median = tl_median(m, c);
	free(m);
}
