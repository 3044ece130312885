/*
 * tl-ranks: HTA's cross-rank tables: comm/comp overlap, temporal
 * breakdown, potential stragglers.
 */
#include "join.h"

/* ---- HTA's tables ---- */

int hvar;		/* the variant HTA loads: 0 all, 1 window */

double
us(int64_t ns)
{
	return (double)ns / 1000;
}

void
t_overlap(struct table *t)
{
	size_t r;

	t->name = "hta_comm_comp_overlap";
	tab_addcol(t, "rank");
	tab_addcol(t, "comp_comm_overlap_pctg");
	for (r = 0; r < nrk; r++) {
		struct val *v = tab_newrow(t);
		const int64_t *h = rks[r].hta[hvar];

		v[0] = vint(rks[r].rank);
		v[1] = vdbl(h[0] > 0 ? np_round(100 * ((double)h[2] /
		    (double)h[0]), 2) : NAN);
	}
}

void
t_temporal(struct table *t)
{
	static const char *const cols[] = { "rank", "idle_time(us)",
	    "compute_time(us)", "non_compute_time(us)", "kernel_time(us)",
	    "idle_time_pctg", "compute_time_pctg", "non_compute_time_pctg",
	    NULL };
	size_t r;

	t->name = "hta_temporal_breakdown";
	addcols(t, cols);
	for (r = 0; r < nrk; r++) {
		struct val *v = tab_newrow(t);
		const int64_t *h = rks[r].hta[hvar];
		double k, idle, comp, non;

		v[0] = vint(rks[r].rank);
		if ((rks[r].hhas[hvar] & 48) != 48)
			continue;
		k = us(h[5] - h[4]);
		idle = k - us(h[3]);
		comp = us(h[1]);
		non = k - comp - idle;
		v[1] = vdbl(idle);
		v[2] = vdbl(comp);
		v[3] = vdbl(non);
		v[4] = vdbl(k);
		v[5] = vdbl(np_round(100 * (idle / k), 2));
		v[6] = vdbl(np_round(100 * (comp / k), 2));
		v[7] = vdbl(np_round(100 * (non / k), 2));
	}
}

static int
cmpcand(const void *a, const void *b)
{
	const struct cdrec *x = a, *y = b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->name != y->name)
		return tl_intern_cmp(in, x->name, y->name);
	if (x->iter != y->iter)
		return x->iter < y->iter ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static int
cmpdesc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/* HTA's potential stragglers (k 2): the ranks, best first. */
void
t_stragglers(struct table *t)
{
	enum { K = 2 };
	int64_t tmin = INT64_MAX, tmax = INT64_MIN, *seen = NULL;
	size_t nseen = 0, cap = 0, i, j, n = 0, b, e, best = SIZE_MAX;
	double mean, bestv = NAN, thr;
	struct cdrec *c;
	int64_t *cnt;
	struct groups g = { 1, 0, 0, NULL, NULL, NULL, NULL, NULL };
	size_t *o;
	struct val k;

	t->name = "hta_potential_stragglers";
	tab_addcol(t, "rank");
	for (i = 0; i < nits; i++) {
		if (its[i].var != hvar)
			continue;
		for (j = 0; j < nseen && seen[j] != its[i].iter; j++)
			;
		if (j == nseen) {
			xgrow(&seen, &cap, nseen + 1, sizeof *seen);
			seen[nseen++] = its[i].iter;
		}
		if (its[i].ts < tmin)
			tmin = its[i].ts;
		if (its[i].ts + its[i].dur > tmax)
			tmax = its[i].ts + its[i].dur;
	}
	free(seen);
	if (nseen == 0)
		return;
	mean = (double)(tmax - tmin) / (double)nseen;
	/* the candidates: the last long-enough row of a key */
	c = xreallocarray(NULL, ncds + 1, sizeof *c);
	for (i = 0; i < ncds; i++)
		if (cds[i].var == hvar && (double)cds[i].dur >= 0.01 * mean)
			c[n++] = cds[i];
	qsort(c, n, sizeof *c, cmpcand);
	for (i = j = 0; i < n; i++) {
		if (i + 1 < n && c[i + 1].stream == c[i].stream &&
		    c[i + 1].name == c[i].name && c[i + 1].iter == c[i].iter &&
		    c[i + 1].rank == c[i].rank)
			continue;
		c[j++] = c[i];
	}
	n = j;
	/* the kernel whose duration varies most across ranks */
	for (b = 0; b < n; b = e) {
		double sum = 0;
		size_t ns = 0, f;

		for (e = b; e < n && c[e].stream == c[b].stream &&
		    c[e].name == c[b].name; e++)
			;
		for (f = b; f < e; ) {
			size_t l = f, m = 0;
			struct tl_welford w = { 0, 0, 0 };

			for (; l < e && c[l].iter == c[f].iter; l++, m++)
				tl_welford_add(&w, (double)c[l].dur / mean);
			if (m > 1) {
				sum += tl_welford_std(&w);
				ns++;
			}
			f = l;
		}
		if (ns > 0 && (isnan(bestv) || sum / (double)ns > bestv)) {
			bestv = sum / (double)ns;
			best = b;
		}
		if (best == SIZE_MAX && isnan(bestv))
			best = b;
	}
	if (best == SIZE_MAX) {
		free(c);
		return;
	}
	cnt = xcalloc(nrk + 1, sizeof *cnt);
	for (b = best; b < n && c[b].stream == c[best].stream &&
	    c[b].name == c[best].name; b = e) {
		double *top;
		size_t m = 0, q;

		for (e = b; e < n && c[e].stream == c[best].stream &&
		    c[e].name == c[best].name && c[e].iter == c[b].iter; e++)
			;
		top = xreallocarray(NULL, e - b + 1, sizeof *top);
		for (q = b; q < e; q++)
			top[m++] = (double)(c[q].ts - tmin) / mean;
		qsort(top, m, sizeof *top, cmpdesc);
		thr = top[(m < K ? m : K) - 1];
		free(top);
		for (q = b; q < e; q++)
			if ((double)(c[q].ts - tmin) / mean >= thr) {
				for (j = 0; j < nrk; j++)
					if (rks[j].rank == c[q].rank)
						cnt[j]++;
			}
	}
	for (j = 0; j < nrk; j++)
		if (cnt[j] > 0) {
			k = vint(rks[j].rank);
			gadd(&g, &k, j);
		}
	g.sortv = xreallocarray(NULL, g.n + 1, sizeof *g.sortv);
	for (i = 0; i < g.n; i++)
		g.sortv[i] = (double)cnt[g.mem[i][0]];
	o = gorder(&g);
	for (i = 0; i < g.n && i < K; i++)
		tab_newrow(t)[0] = vint(rks[g.mem[o[i]][0]].rank);
	free(o);
	gfree(&g);
	free(cnt);
	free(c);
}

