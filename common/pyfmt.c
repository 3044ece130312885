/*
 * tl: Python's repr of a float and numpy's pairwise sum, for the tools
 * that write TraceLens's CSV and JSON files byte for byte.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtoa.h"
#include "pyfmt.h"
#include "tsv.h"

/*
 * The fast way for a value that is a whole number of thousandths (times
 * in us from ns): its decimals, as long as the doubles near it are closer
 * together than 0.0005, so that no shorter text reads back as it. 0 when
 * it does not apply.
 */
int
tl_fmt_milli(char *buf, double v)
{
	double a = v < 0 ? -v : v, r;
	long long k, ip, fp;
	int o = 0, d;
	char f[4];

	if (!(a >= 1e-4 && a < 1e12))
		return 0;
	r = a * 1000.0;
	k = (long long)(r + 0.5);
	if ((double)k / 1000.0 != a)
		return 0;
	if (v < 0)
		buf[o++] = '-';
	ip = k / 1000;
	fp = k % 1000;
	o += (int)tl_fmt_i64(buf + o, ip);
	buf[o++] = '.';
	f[0] = (char)('0' + fp / 100);
	f[1] = (char)('0' + fp / 10 % 10);
	f[2] = (char)('0' + fp % 10);
	for (d = 3; d > 1 && f[d - 1] == '0'; d--)
		;
	memcpy(buf + o, f, (size_t)d);
	o += d;
	buf[o] = '\0';
	return o;
}

int
tl_fmt_digits(char *buf, int neg, const char *dig, int nd, int e, int sci,
    int point0)
{
	int o = 0, i, a;

	if (neg)
		buf[o++] = '-';
	if (e < -4 || e >= sci) {
		buf[o++] = dig[0];
		if (nd > 1) {
			buf[o++] = '.';
			memcpy(buf + o, dig + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		buf[o++] = 'e';
		buf[o++] = e < 0 ? '-' : '+';
		a = e < 0 ? -e : e;
		if (a >= 100)
			buf[o++] = (char)('0' + a / 100);
		buf[o++] = (char)('0' + a / 10 % 10);
		buf[o++] = (char)('0' + a % 10);
	} else if (e < 0) {
		buf[o++] = '0';
		buf[o++] = '.';
		for (i = 0; i < -e - 1; i++)
			buf[o++] = '0';
		memcpy(buf + o, dig, (size_t)nd);
		o += nd;
	} else {
		for (i = 0; i <= e; i++)
			buf[o++] = i < nd ? dig[i] : '0';
		if (nd > e + 1) {
			buf[o++] = '.';
			memcpy(buf + o, dig + e + 1, (size_t)(nd - e - 1));
			o += nd - e - 1;
		} else if (point0) {
			buf[o++] = '.';
			buf[o++] = '0';
		}
	}
	buf[o] = '\0';
	return o;
}

int
tl_py_float(char *buf, size_t cap, double v)
{
	char dig[24];
	int nd, e, o;

	if (cap < TL_PY_FLOATMAX)
		return -1;
	if (isnan(v))
		return snprintf(buf, cap, "nan");
	if (isinf(v))
		return snprintf(buf, cap, v < 0 ? "-inf" : "inf");
	if (v == 0)
		return snprintf(buf, cap, signbit(v) ? "-0.0" : "0.0");
	if ((o = tl_fmt_milli(buf, v)) > 0)
		return o;
	nd = tl_dtoa(v, dig, &e);
	return tl_fmt_digits(buf, v < 0, dig, nd, e, 16, 1);
}

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
