/*
 * tl: pandas's sort_values(ascending=False) of a float64 column: the
 * values that are not NaN, reversed, argsorted with numpy's introsort
 * (npysort's aquicksort, whose order of ties is not stable), the result
 * reversed; then the NaN rows, in order.
 */
#include <math.h>
#include <stdlib.h>

#include "mem.h"
#include "npsort.h"

/* numpy's less for floats: NaN sorts last. */
static int
lt(double a, double b)
{
	return a < b || (b != b && a == a);
}

/* Sift a[l] down the heap a[1..n] (1-based), as numpy does. */
static void
siftdown(const double *v, size_t *a, size_t l, size_t n)
{
	size_t i, j, tmp = a[l];

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

static void
aheapsort(const double *v, size_t *tosort, size_t n)
{
	size_t *a = tosort - 1, l, tmp;

	for (l = n >> 1; l > 0; --l)
		siftdown(v, a, l, n);
	for (; n > 1;) {
		tmp = a[n];
		a[n] = a[1];
		a[1] = tmp;
		n -= 1;
		siftdown(v, a, 1, n);
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

void
tl_argsort(const double *v, size_t n, size_t *perm)
{
	size_t i;

	for (i = 0; i < n; i++)
		perm[i] = i;
	aquicksort(v, perm, n);
}

/*
 * pandas nargsort(ascending=False, na_position="last"): the values that
 * are not NaN, reversed, argsorted with numpy's quicksort, the result
 * reversed; then the NaN rows in order.
 */
void
tl_nargsort_desc(const double *key, size_t n, size_t *perm)
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
