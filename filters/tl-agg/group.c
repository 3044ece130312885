/*
 * tl-agg: the arithmetic under the sheets: unions and differences of
 * intervals as TraceLens's GPU event analyser computes them, grouping by
 * a tuple of interned ids in first-seen order, and a group's statistics
 * as pandas computes them.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/npsort.h"
#include "../../common/pyfmt.h"
#include "../../common/sort.h"
#include "agg.h"

/* A double's bits as an unsigned key in the double's order (not NaN). */
static uint64_t
dblkey(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof u);
	return u >> 63 ? ~u : u ^ UINT64_C(1) << 63;
}

/*
 * Sort a[0..n) by start: nothing to do when they come in order, as
 * they mostly do (a stream's events, a launch's kernels), else a radix
 * sort. The union merged below is the same whatever the order of equal
 * starts.
 */
static void
ivsort(struct iv *a, size_t n)
{
	struct tl_sortkey *k;
	struct iv *t;
	size_t i;

	for (i = 1; i < n; i++)
		if (a[i].s < a[i - 1].s)
			break;
	if (i >= n)
		return;
	k = xreallocarray(NULL, n, sizeof *k);
	t = xreallocarray(NULL, n, sizeof *t);
	for (i = 0; i < n; i++) {
		k[i].k = dblkey(a[i].s);
		k[i].i = (uint32_t)i;
	}
	tl_key_sort(k, n);
	for (i = 0; i < n; i++)
		t[i] = a[k[i].i];
	memcpy(a, t, n * sizeof *a);
	free(t);
	free(k);
}

size_t
agg_ivmerge(struct iv *a, size_t n)
{
	size_t i, k = 0;

	if (n == 0)
		return 0;
	ivsort(a, n);
	for (i = 1; i < n; i++) {
		if (a[i].s <= a[k].e) {
			if (a[i].e > a[k].e)
				a[k].e = a[i].e;
		} else
			a[++k] = a[i];
	}
	return k + 1;
}

double
agg_ivlen(const struct iv *a, size_t n)
{
	double t = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		t += a[i].e - a[i].s;
	return t;
}

/* TraceLens's subtract(A, B): the parts of B not in A, into out. */
size_t
ivsub(const struct iv *Av, size_t na, const struct iv *Bv, size_t nb,
    struct iv *out)
{
	size_t i, j = 0, k, o = 0;
	double cur, b0, b1;

	for (i = 0; i < nb; i++) {
		b0 = Bv[i].s;
		b1 = Bv[i].e;
		cur = b0;
		while (j < na && Av[j].e <= b0)
			j++;
		for (k = j; k < na && Av[k].s < b1; k++) {
			if (Av[k].s > cur) {
				out[o].s = cur;
				out[o++].e = b1 < Av[k].s ? b1 : Av[k].s;
			}
			if (Av[k].e > cur)
				cur = Av[k].e;
			if (cur >= b1)
				break;
		}
		if (cur < b1) {
			out[o].s = cur;
			out[o++].e = b1;
		}
	}
	return o;
}

/* The busy time of the events ev[0..n). */
double
busy(const uint32_t *ev, size_t n)
{
	size_t i;

	xgrow(&ivbuf, &capiv, n + 1, sizeof *ivbuf);
	for (i = 0; i < n; i++) {
		ivbuf[i].s = ev_ts(&A->e[ev[i]]);
		ivbuf[i].e = ev_end(&A->e[ev[i]]);
	}
	n = agg_ivmerge(ivbuf, n);
	return agg_ivlen(ivbuf, n);
}

void
xgrowz(void *pp, size_t *cap, size_t n, size_t size)
{
	size_t had = *cap;

	if (n <= had)
		return;
	xgrow(pp, cap, n, size);
	memset(*(char **)pp + had * size, 0, (*cap - had) * size);
}

static uint64_t
keyhash(const uint32_t *k, size_t n)
{
	return tl_hash((const char *)k, n * sizeof *k);
}

size_t
gfind(struct grouper *g, const uint32_t *k)
{
	size_t i, j, n;
	uint32_t *old;

	if (g->slot == NULL) {
		g->mask = 255;
		g->slot = xcalloc(g->mask + 1, sizeof *g->slot);
	}
	for (i = keyhash(k, g->k) & g->mask; g->slot[i] != 0;
	    i = (i + 1) & g->mask)
		if (memcmp(&g->key[(g->slot[i] - 1) * g->k], k,
		    g->k * sizeof *k) == 0)
			return g->slot[i] - 1;
	xgrow(&g->key, &g->capkey, (g->ngroup + 1) * g->k, sizeof *g->key);
	memcpy(&g->key[g->ngroup * g->k], k, g->k * sizeof *k);
	g->slot[i] = (uint32_t)++g->ngroup;
	if (g->ngroup * 2 > g->mask) {
		old = g->slot;
		n = g->mask + 1;
		g->mask = 2 * n - 1;
		g->slot = xcalloc(2 * n, sizeof *g->slot);
		for (j = 0; j < n; j++) {
			if (old[j] == 0)
				continue;
			for (i = keyhash(&g->key[(old[j] - 1) * g->k], g->k) &
			    g->mask; g->slot[i] != 0; i = (i + 1) & g->mask)
				;
			g->slot[i] = old[j];
		}
		free(old);
	}
	return g->ngroup - 1;
}

void
gfree(struct grouper *g)
{
	free(g->key);
	free(g->slot);
	memset(g, 0, sizeof *g);
}

/* Members of groups: CSR from the group of each row. */
void
members(const uint32_t *grp, size_t nrow, size_t ngroup, size_t **off,
    uint32_t **mem)
{
	size_t *o = xcalloc(ngroup + 2, sizeof *o), *fill, i;
	uint32_t *m = xreallocarray(NULL, nrow + 1, sizeof *m);

	for (i = 0; i < nrow; i++)
		o[grp[i] + 1]++;
	for (i = 0; i < ngroup; i++)
		o[i + 1] += o[i];
	fill = xreallocarray(NULL, ngroup + 1, sizeof *fill);
	memcpy(fill, o, ngroup * sizeof *fill);
	for (i = 0; i < nrow; i++)
		m[fill[grp[i]]++] = (uint32_t)i;
	free(fill);
	*off = o;
	*mem = m;
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
