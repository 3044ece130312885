/*
 * tl-agg: numbers computed and printed the way pandas and numpy do, so
 * that TraceLens's CSVs come out the same: numpy's pairwise sum, its
 * population std, rounding and histogram, pandas's descending sort (an
 * emulation of numpy's introsort, whose order of ties is not stable), and
 * Python's repr of a float.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/mem.h"
#include "../../common/tsv.h"
#include "agg.h"


double
welford_std(const struct welford *w)
{
	if (w->n < 2)
		return NAN;
	return sqrt(w->m2 / (w->n - 1));
}

/* numpy's pairwise_sum for float64 (unrolled by 8, blocks of 128). */
double
np_sum(const double *a, size_t n)
{
	double r[8], res;
	size_t i, n2;
	int j;

	if (n < 8) {
		res = 0.;
		for (i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= 128) {
		for (j = 0; j < 8; j++)
			r[j] = a[j];
		for (i = 8; i < n - (n % 8); i += 8)
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
	return np_sum(a, n2) + np_sum(a + n2, n - n2);
}

double
np_std(const double *a, size_t n)
{
	double mean, *d, v;
	size_t i;

	if (n == 0)
		return NAN;
	mean = np_sum(a, n) / (double)n;
	d = xreallocarray(NULL, n, sizeof *d);
	for (i = 0; i < n; i++)
		d[i] = (a[i] - mean) * (a[i] - mean);
	v = np_sum(d, n) / (double)n;
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

/* numpy's less for floats: NaN sorts last. */
static int
lt(double a, double b)
{
	return a < b || (b != b && a == a);
}

static void
aheapsort(const double *v, size_t *tosort, size_t n)
{
	size_t *a = tosort - 1, i, j, l, tmp;

	for (l = n >> 1; l > 0; --l) {
		tmp = a[l];
		for (i = l, j = l << 1; j <= n;) {
			if (j < n && lt(v[a[j]], v[a[j + 1]]))
				j += 1;
			if (lt(v[tmp], v[a[j]])) {
				a[i] = a[j];
				i = j;
				j += j;
			} else
				break;
		}
		a[i] = tmp;
	}
	for (; n > 1;) {
		tmp = a[n];
		a[n] = a[1];
		n -= 1;
		for (i = 1, j = 2; j <= n;) {
			if (j < n && lt(v[a[j]], v[a[j + 1]]))
				j++;
			if (lt(v[tmp], v[a[j]])) {
				a[i] = a[j];
				i = j;
				j += j;
			} else
				break;
		}
		a[i] = tmp;
	}
}

#define SWAP(a, b)	do { size_t t_ = (a); (a) = (b); (b) = t_; } while (0)

/* numpy's aquicksort (introsort) for float64, as in npysort. */
static void
aquicksort(const double *v, size_t *tosort, size_t num)
{
	size_t *pl = tosort, *pr = tosort + num - 1;
	size_t *stack[128], **sptr = stack;
	size_t *pm, *pi, *pj, *pk, vi;
	int depth[128], *psdepth = depth, cdepth = 0;
	double vp;
	size_t m = num;

	if (num < 2)
		return;
	while (m >>= 1)
		cdepth++;
	cdepth *= 2;
	for (;;) {
		if (cdepth < 0) {
			aheapsort(v, pl, (size_t)(pr - pl) + 1);
			goto pop;
		}
		while (pr - pl > 16) {
			pm = pl + ((pr - pl) >> 1);
			if (lt(v[*pm], v[*pl]))
				SWAP(*pm, *pl);
			if (lt(v[*pr], v[*pm]))
				SWAP(*pr, *pm);
			if (lt(v[*pm], v[*pl]))
				SWAP(*pm, *pl);
			vp = v[*pm];
			pi = pl;
			pj = pr - 1;
			SWAP(*pm, *pj);
			for (;;) {
				do
					++pi;
				while (lt(v[*pi], vp));
				do
					--pj;
				while (lt(vp, v[*pj]));
				if (pi >= pj)
					break;
				SWAP(*pi, *pj);
			}
			pk = pr - 1;
			SWAP(*pi, *pk);
			if (pi - pl < pr - pi) {
				*sptr++ = pi + 1;
				*sptr++ = pr;
				pr = pi - 1;
			} else {
				*sptr++ = pl;
				*sptr++ = pi - 1;
				pl = pi + 1;
			}
			*psdepth++ = --cdepth;
		}
		for (pi = pl + 1; pi <= pr; ++pi) {
			vi = *pi;
			vp = v[vi];
			pj = pi;
			pk = pi - 1;
			while (pj > pl && lt(vp, v[*pk]))
				*pj-- = *pk--;
			*pj = vi;
		}
pop:
		if (sptr == stack)
			break;
		pr = *(--sptr);
		pl = *(--sptr);
		cdepth = *(--psdepth);
	}
}

/*
 * pandas nargsort(ascending=False, na_position="last"): the values that
 * are not NaN, reversed, argsorted with numpy's quicksort, the result
 * reversed; then the NaN rows in order.
 */
void
nargsort_desc(const double *key, size_t n, size_t *perm)
{
	double *v = xreallocarray(NULL, n + 1, sizeof *v);
	size_t *idx = xreallocarray(NULL, n + 1, sizeof *idx);
	size_t *as = xreallocarray(NULL, n + 1, sizeof *as);
	size_t i, k = 0, o = 0;

	for (i = n; i-- > 0;)
		if (!isnan(key[i])) {
			v[k] = key[i];
			idx[k++] = i;
		}
	for (i = 0; i < k; i++)
		as[i] = i;
	aquicksort(v, as, k);
	for (i = k; i-- > 0;)
		perm[o++] = idx[as[i]];
	for (i = 0; i < n; i++)
		if (isnan(key[i]))
			perm[o++] = i;
	free(v);
	free(idx);
	free(as);
}

/* The shortest digits of v (> 0, finite) and the exponent of the first. */
static int
digits(double v, char *d, int *exp)
{
	char buf[40], *e, *p;
	int prec, k = 0;

	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	e = strchr(buf, 'e');
	*exp = atoi(e + 1);
	for (p = buf; p < e; p++)
		if (*p >= '0' && *p <= '9')
			d[k++] = *p;
	while (k > 1 && d[k - 1] == '0')
		k--;
	d[k] = '\0';
	return k;
}

int
py_float(char *buf, size_t cap, double v)
{
	char d[24], *o = buf;
	int k, x, i;

	if (isnan(v))
		return snprintf(buf, cap, "nan");
	if (isinf(v))
		return snprintf(buf, cap, v < 0 ? "-inf" : "inf");
	if (cap < 40)
		return -1;
	if (signbit(v)) {
		*o++ = '-';
		v = -v;
	}
	if (v == 0) {
		memcpy(o, "0.0", 4);
		return (int)(o - buf) + 3;
	}
	k = digits(v, d, &x);
	if (x < -4 || x >= 16) {
		*o++ = d[0];
		if (k > 1) {
			*o++ = '.';
			memcpy(o, d + 1, (size_t)k - 1);
			o += k - 1;
		}
		o += snprintf(o, 8, "e%c%02d", x < 0 ? '-' : '+', abs(x));
		return (int)(o - buf);
	}
	if (x < 0) {
		*o++ = '0';
		*o++ = '.';
		for (i = 0; i < -x - 1; i++)
			*o++ = '0';
		memcpy(o, d, (size_t)k);
		o += k;
	} else {
		for (i = 0; i <= x; i++)
			*o++ = i < k ? d[i] : '0';
		*o++ = '.';
		if (k > x + 1) {
			memcpy(o, d + x + 1, (size_t)(k - x - 1));
			o += k - x - 1;
		} else
			*o++ = '0';
	}
	*o = '\0';
	return (int)(o - buf);
}

void
sb_pyfloat(struct sbuf *b, double v)
{
	char buf[48];
	int n = py_float(buf, sizeof buf, v);

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
