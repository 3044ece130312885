/*
 * tl: unit tests of the statistics (common/stats.c): the sums in numpy's
 * and pandas's order, known to the last bit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/stats.h"
#include "unit.h"

int
main(int argc, char *argv[])
{
	static const double eight[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	double a[300], b[8], tenth[10];
	struct tl_kahan k = { 0, 0 };
	struct tl_welford w = { 0, 0, 0 };
	struct tl_stats s;
	double naive = 0;
	size_t i;

	(void)argc;
	tl_setprogname(argv[0]);

	/* numpy: a straight sum below 8, pairs of blocks of 8 above. */
	for (i = 0; i < 10; i++)
		tenth[i] = 0.1;
	CHECK(tl_np_sum(tenth, 7) == 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 +
	    0.1);
	CHECK(tl_np_sum(tenth, 10) == 1.0);	/* sum(): 0.9999999999999999 */
	CHECK(tl_np_sum(NULL, 0) == 0);
	for (i = 0; i < 300; i++) {
		a[i] = 1.0 / (double)(i + 1);
		naive += a[i];
	}
	CHECK(tl_np_sum(a, 300) == 6.282663880299504);
	CHECK(naive == 6.282663880299502);	/* sum(), in order */
	CHECK(tl_np_std(eight, 8) == 2);
	CHECK(isnan(tl_np_std(eight, 0)));

	/* pandas: Kahan's sum, Welford's std (ddof=1). */
	for (i = 0; i < 10; i++)
		tl_kahan_add(&k, 0.1);
	CHECK(k.s == 1.0);		/* math.fsum([0.1] * 10) */
	tl_kahan_add(&k, NAN);
	CHECK(isnan(k.s) && k.c == 0);
	for (i = 0; i < 8; i++)
		tl_welford_add(&w, eight[i]);
	CHECK(w.mean == 5);
	CHECK(tl_welford_std(&w) == sqrt(32.0 / 7));
	w.n = 1;
	CHECK(isnan(tl_welford_std(&w)));

	/* The median: the middle one, or the mean of the middle two. */
	memcpy(b, eight, sizeof b);
	CHECK(tl_median(b, 8) == 4.5);
	memcpy(b, (double[]){ 3, 1, 2 }, 3 * sizeof *b);
	CHECK(tl_median(b, 3) == 2);
	CHECK(isnan(tl_median(b, 0)));
	for (i = 0; i < 300; i++)
		a[i] = (double)((i * 7919) % 300);
	CHECK(tl_median(a, 300) == 149.5);
	for (i = 0; i < 299; i++)
		a[i] = (double)((i * 7919) % 300);
	CHECK(tl_median(a, 299) == 149);	/* statistics.median */

	/* A group's statistics, NaN left out. */
	tl_stats(&s, (double[]){ NAN, 9, 2, 4, NAN, 4, 4, 5, 5, 7 }, 10);
	CHECK(s.n == 8 && s.sum == 40 && s.mean == 5 && s.median == 4.5);
	CHECK(s.std == sqrt(32.0 / 7) && s.min == 2 && s.max == 9);
	tl_stats(&s, (double[]){ NAN }, 1);
	CHECK(s.n == 0 && s.sum == 0 && isnan(s.mean) && isnan(s.median));
	CHECK(isnan(s.std) && isnan(s.min) && isnan(s.max));
	tl_stats(&s, (double[]){ -3 }, 1);
	CHECK(s.n == 1 && s.sum == -3 && s.median == -3 && isnan(s.std));
	return unit_done();
}
