/*
 * tl-hta: HTA's analyses over the loaded ranks, each written as the CSV
 * file HTA's DataFrame makes (tl-hta(1) ANALYSES; sections 3 to 10 of
 * the spec).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/npsort.h"
#include "../../common/stats.h"
#include "hta.h"

static const char *const ktname[] = { "COMPUTATION", "COMMUNICATION",
    "MEMORY" };

static int
ktype(const struct row *r)
{
	return (int)(hta_ni(r->name) >> 1) & 15;
}

static int
isgpu(const struct row *r, int kt)
{
	return r->stream != -1 && (kt == 0 || ktype(r) == kt);
}

static int isidle(const struct row *, int);

/*
 * The rows with stream != -1, which most analyses take: listed once per
 * rank, so that each of them passes over these alone.
 */
static const size_t *
gpurows(const struct rank *crk)
{
	struct rank *rk = &hta_rk[crk - hta_rk];
	size_t i;

	if (rk->gpu != NULL)
		return rk->gpu;
	rk->gpu = xreallocarray(NULL, rk->n + 1, sizeof *rk->gpu);
	for (i = 0; i < rk->n; i++)
		if (rk->r[i].stream != -1)
			rk->gpu[rk->ngpu++] = i;
	return rk->gpu;
}

/* Rows of rank rk that pass f, in table order. */
static size_t *
rows(const struct rank *rk, int (*f)(const struct row *, int), int arg,
    size_t *n)
{
	size_t *v = xreallocarray(NULL, rk->n + 1, sizeof *v), i;

	*n = 0;
	if (f == isgpu || f == isidle) {	/* rows with a stream only */
		const size_t *g = gpurows(rk);

		for (i = 0; i < rk->ngpu; i++)
			if (f(&rk->r[g[i]], arg))
				v[(*n)++] = g[i];
		return v;
	}
	for (i = 0; i < rk->n; i++)
		if (f(&rk->r[i], arg))
			v[(*n)++] = i;
	return v;
}

/* merge(I) of spec's conventions: merged [ts, end] into *ms, *me. */
static size_t
merge(const struct rank *rk, const size_t *ix, size_t n, double **ms,
    double **me)
{
	double *ts = xreallocarray(NULL, n + 1, sizeof *ts);
	size_t *p = xreallocarray(NULL, n + 1, sizeof *p), i, k = 0;
	double hi = -INFINITY;

	*ms = xreallocarray(NULL, n + 1, sizeof **ms);
	*me = xreallocarray(NULL, n + 1, sizeof **me);
	for (i = 0; i < n; i++)
		ts[i] = (double)rk->r[ix[i]].ts;
	tl_argsort(ts, n, p);
	for (i = 0; i < n; i++) {
		const struct row *r = &rk->r[ix[p[i]]];
		double s = (double)r->ts, e = s + r->dur;

		if (i == 0 || s > hi) {
			(*ms)[k] = s;
			(*me)[k++] = e;
		} else if (e > (*me)[k - 1])
			(*me)[k - 1] = e;
		if (i == 0 || e > hi)
			hi = e;
	}
	free(ts);
	free(p);
	return k;
}

static double
busy(const double *ms, const double *me, size_t k)
{
	double a = tl_np_sum(me, k), b = tl_np_sum(ms, k);

	return a - b;
}

static double
busyof(const struct rank *rk, int kt)
{
	size_t n, k;
	size_t *ix = rows(rk, isgpu, kt, &n);
	double *ms, *me, b;

	k = merge(rk, ix, n, &ms, &me);
	b = busy(ms, me, k);
	free(ix);
	free(ms);
	free(me);
	return b;
}

static void
temporal(void)
{
	struct csv *c;
	size_t i, n, k;

	for (i = 0; i < hta_nrk; i++) {
		free(rows(&hta_rk[i], isgpu, 0, &n));
		if (n == 0) {
			tl_warnx("temporal_breakdown: rank %" PRId64 " has no "
			    "GPU events (HTA: IndexError): not written",
			    hta_rk[i].rank);
			return;
		}
	}
	c = csv_open("temporal_breakdown.csv");
	csv_hdr(c, ",rank,idle_time(us),compute_time(us),"
	    "non_compute_time(us),kernel_time(us),idle_time_pctg,"
	    "compute_time_pctg,non_compute_time_pctg");
	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		size_t *ix = rows(rk, isgpu, 0, &n);
		double *ms, *me, kt, idle, comp, non;

		k = merge(rk, ix, n, &ms, &me);
		kt = me[k - 1] - ms[0];
		idle = kt - busy(ms, me, k);
		comp = busyof(rk, KT_COMP);
		non = kt - comp - idle;
		csv_i(c, (int64_t)i);
		csv_i(c, rk->rank);
		csv_f(c, idle);
		csv_f(c, comp);
		csv_f(c, non);
		csv_f(c, kt);
		csv_f(c, hta_round(100 * idle / kt, 2));
		csv_f(c, hta_round(100 * comp / kt, 2));
		csv_f(c, hta_round(100 * non / kt, 2));
		csv_end(c);
		free(ix);
		free(ms);
		free(me);
	}
	csv_close(c);
}

/* Kernel-type time: label sums of one rank, added into sum[1..7]. */
static void
typetime(const struct rank *rk, double sum[8], int seen[8])
{
	double *t = NULL, *nt;
	int *b = NULL, *nb;
	size_t nev = 0, q, i, n, k;
	size_t *p;
	int run;

	for (q = 0; q < 3; q++) {
		int bit = 1 << q;
		size_t *ix = rows(rk, isgpu, bit, &n);
		double *ms, *me;

		k = merge(rk, ix, n, &ms, &me);
		nt = xreallocarray(NULL, nev + 2 * k + 1, sizeof *nt);
		nb = xreallocarray(NULL, nev + 2 * k + 1, sizeof *nb);
		if (nev > 0) {
			memcpy(nt, t, nev * sizeof *nt);
			memcpy(nb, b, nev * sizeof *nb);
		}
		for (i = 0; i < k; i++) {
			nt[nev + i] = ms[i];
			nb[nev + i] = bit;
			nt[nev + k + i] = me[i];
			nb[nev + k + i] = -bit;
		}
		nev += 2 * k;
		p = xreallocarray(NULL, nev + 1, sizeof *p);
		tl_argsort(nt, nev, p);
		free(t);
		free(b);
		t = xreallocarray(NULL, nev + 1, sizeof *t);
		b = xreallocarray(NULL, nev + 1, sizeof *b);
		for (i = 0; i < nev; i++) {
			t[i] = nt[p[i]];
			b[i] = nb[p[i]];
		}
		free(nt);
		free(nb);
		free(p);
		free(ix);
		free(ms);
		free(me);
	}
	for (i = 0, run = 0; i < nev; i++) {
		run += b[i];
		if (run > 0 && run < 8 && i + 1 < nev) {
			sum[run] += t[i + 1] - t[i];
			seen[run] = 1;
		}
	}
	free(t);
	free(b);
}

static void
label(int bits, char *buf, size_t cap)
{
	int q;

	buf[0] = '\0';
	for (q = 0; q < 3; q++)
		if (bits & (1 << q)) {
			if (buf[0] != '\0')
				strncat(buf, " overlapping ",
				    cap - strlen(buf) - 1);
			strncat(buf, ktname[q], cap - strlen(buf) - 1);
		}
}

/* The top-k aggregation of spec 2.4 over rows ix[0..n) of rk. */
struct agg {
	uint32_t name;
	int other;		/* "others" */
	double sum, max, min, mean, std;
};

static const struct rank *srk;
static const size_t *six;
static struct agg *sag;

static int
cmpname(size_t a, size_t b)
{
	return strcmp(hta_s(srk->r[six[a]].name, &(size_t){ 0 }),
	    hta_s(srk->r[six[b]].name, &(size_t){ 0 }));
}

static int
cmpagg(size_t a, size_t b)
{
	const char *x = sag[a].other ? "others" :
	    hta_s(sag[a].name, &(size_t){ 0 });
	const char *y = sag[b].other ? "others" :
	    hta_s(sag[b].name, &(size_t){ 0 });

	return strcmp(x, y);
}

static size_t
topk(const struct rank *rk, const size_t *ix, size_t n, long numk,
    struct agg **out)
{
	size_t *p = xreallocarray(NULL, n + 1, sizeof *p), i, j, ng = 0;
	struct agg *g = xreallocarray(NULL, n + 1, sizeof *g), *o;
	double *v = xreallocarray(NULL, n + 1, sizeof *v), *key, *cum, q;
	size_t *ord, no;
	struct tl_stats st;

	for (i = 0; i < n; i++)
		p[i] = i;
	srk = rk;
	six = ix;
	hta_stable(p, n, cmpname);
	for (i = 0; i < n; i = j) {
		size_t m = 0;

		for (j = i; j < n && rk->r[ix[p[j]]].name ==
		    rk->r[ix[p[i]]].name; j++)
			v[m++] = rk->r[ix[p[j]]].dur;
		tl_stats(&st, v, m);
		g[ng].name = rk->r[ix[p[i]]].name;
		g[ng].other = 0;
		g[ng].sum = st.sum;
		g[ng].max = st.max;
		g[ng].min = st.min;
		g[ng].mean = st.mean;
		g[ng].std = isnan(st.std) ? 0 : st.std;
		ng++;
	}
	free(p);
	key = xreallocarray(NULL, ng + 1, sizeof *key);
	ord = xreallocarray(NULL, ng + 1, sizeof *ord);
	for (i = 0; i < ng; i++)
		key[i] = g[i].sum;
	tl_nargsort_desc(key, ng, ord);
	o = xreallocarray(NULL, ng + 1, sizeof *o);
	for (i = 0; i < ng; i++)
		o[i] = g[ord[i]];
	free(g);
	if ((long)ng <= numk) {
		free(key);
		free(ord);
		free(v);
		*out = o;
		return ng;
	}
	cum = xreallocarray(NULL, ng + 1, sizeof *cum);
	for (i = 0; i < ng; i++)
		cum[i] = (i > 0 ? cum[i - 1] : 0) + o[i].sum;
	q = 0;
	{
		double *s = xreallocarray(NULL, ng + 1, sizeof *s), pos, lo,
		    dd;
		size_t l, h, a, b;

		memcpy(s, cum, ng * sizeof *s);
		for (a = 1; a < ng; a++)	/* insertion: cum is sorted */
			for (b = a; b > 0 && s[b] < s[b - 1]; b--) {
				dd = s[b];
				s[b] = s[b - 1];
				s[b - 1] = dd;
			}
		pos = (double)(ng - 1) * hta_o.duration_ratio;
		lo = floor(pos);
		l = (size_t)lo;
		h = l + 1 < ng ? l + 1 : l;
		dd = s[h] - s[l];
		q = pos - lo >= 0.5 ? s[h] - dd * (1 - (pos - lo)) :
		    s[l] + dd * (pos - lo);
		free(s);
	}
	for (i = 0; i < ng; i++)
		if (cum[i] > q || (long)i >= numk)
			o[i].other = 1;
	/* group again by name over the sums */
	p = xreallocarray(NULL, ng + 1, sizeof *p);
	for (i = 0; i < ng; i++)
		p[i] = i;
	sag = o;
	hta_stable(p, ng, cmpagg);
	g = xreallocarray(NULL, ng + 1, sizeof *g);
	for (i = 0, no = 0; i < ng; i = j) {
		size_t m = 0;

		for (j = i; j < ng && cmpagg(p[i], p[j]) == 0; j++)
			v[m++] = o[p[j]].sum;
		tl_stats(&st, v, m);
		g[no] = o[p[i]];
		g[no].sum = st.sum;
		g[no].max = st.max;
		g[no].min = st.min;
		g[no].mean = st.mean;
		g[no].std = isnan(st.std) ? 0 : st.std;
		no++;
	}
	free(p);
	free(o);
	free(key);
	free(ord);
	free(v);
	free(cum);
	*out = g;
	return no;
}

struct krow {
	struct agg a;
	int kt;
	int64_t rank;
};

static struct krow *skr;

static int
cmpkrow(size_t a, size_t b)
{
	int c = strcmp(ktname[skr[a].kt], ktname[skr[b].kt]);

	if (c == 0)
		c = cmpagg(a, b);
	if (c == 0)
		c = (skr[a].rank > skr[b].rank) - (skr[a].rank < skr[b].rank);
	return c;
}

static void
aggname(struct csv *c, const struct agg *a)
{
	if (a->other)
		csv_s(c, "others", 6);
	else
		csv_id(c, a->name);
}

static void
kernels(void)
{
	struct csv *c;
	double sum[8] = { 0 }, tot = 0, key[8];
	int seen[8] = { 0 };
	size_t i, q, n, nk = 0, cap = 0, ng, *p, nl = 0;
	struct krow *kr = NULL;
	struct agg *g;
	char lab[8][96];
	int bits[8];

	for (i = 0; i < hta_nrk; i++)
		typetime(&hta_rk[i], sum, seen);
	/* group by label (sorted), then by sum descending (quicksort) */
	for (q = 1; q < 8; q++)
		if (seen[q]) {
			label((int)q, lab[nl], sizeof lab[nl]);
			bits[nl++] = (int)q;
		}
	for (i = 1; i < nl; i++)	/* labels in byte order */
		for (q = i; q > 0 && strcmp(lab[q], lab[q - 1]) < 0; q--) {
			char t[96];
			int b = bits[q];

			memcpy(t, lab[q], sizeof t);
			memcpy(lab[q], lab[q - 1], sizeof t);
			memcpy(lab[q - 1], t, sizeof t);
			bits[q] = bits[q - 1];
			bits[q - 1] = b;
		}
	for (i = 0; i < nl; i++) {
		key[i] = sum[bits[i]];
		tot += key[i];
	}
	p = xreallocarray(NULL, nl + 1, sizeof *p);
	tl_nargsort_desc(key, nl, p);
	c = csv_open("kernel_type_breakdown.csv");
	csv_hdr(c, ",kernel_type,sum,percentage");
	for (i = 0; i < nl; i++) {
		csv_i(c, (int64_t)i);
		csv_s(c, lab[p[i]], strlen(lab[p[i]]));
		csv_num(c, key[p[i]]);
		csv_f(c, hta_round(100 * key[p[i]] / tot, 1));
		csv_end(c);
	}
	csv_close(c);
	free(p);

	for (i = 0; i < hta_nrk; i++)
		for (q = 0; q < 3; q++) {
			size_t *ix = rows(&hta_rk[i], isgpu, 1 << q, &n), j;

			if (n == 0) {
				free(ix);
				continue;
			}
			ng = topk(&hta_rk[i], ix, n, hta_o.num_kernels, &g);
			for (j = 0; j < ng; j++) {
				xgrow(&kr, &cap, nk + 1, sizeof *kr);
				kr[nk].a = g[j];
				kr[nk].kt = (int)q;
				kr[nk++].rank = hta_rk[i].rank;
			}
			free(g);
			free(ix);
		}
	p = xreallocarray(NULL, nk + 1, sizeof *p);
	for (i = 0; i < nk; i++)
		p[i] = i;
	skr = kr;
	sag = NULL;
	{
		/* cmpagg reads sag: point it at the krows' aggs */
		struct agg *a = xreallocarray(NULL, nk + 1, sizeof *a);

		for (i = 0; i < nk; i++)
			a[i] = kr[i].a;
		sag = a;
		hta_stable(p, nk, cmpkrow);
		free(a);
	}
	c = csv_open("kernel_breakdown.csv");
	csv_hdr(c, ",name,sum (us),max (us),min (us),stddev,mean (us),"
	    "kernel_type,rank");
	for (i = 0; i < nk; i++) {
		const struct krow *k = &kr[p[i]];

		csv_i(c, (int64_t)i);
		aggname(c, &k->a);
		csv_f(c, k->a.sum);
		csv_f(c, k->a.max);
		csv_f(c, k->a.min);
		csv_f(c, k->a.std);
		csv_f(c, k->a.mean);
		csv_s(c, ktname[k->kt], strlen(ktname[k->kt]));
		csv_i(c, k->rank);
		csv_end(c);
	}
	csv_close(c);
	free(p);
	free(kr);
}

static void
overlap(void)
{
	struct csv *c = csv_open("comm_comp_overlap.csv");
	size_t i, j, n, kc, kp, m;

	csv_hdr(c, ",rank,comp_comm_overlap_pctg");
	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		size_t *ic = rows(rk, isgpu, KT_COMM, &n), *p;
		double *cs, *ce, *ps, *pe, *t, ov = 0;
		int *b, run = 0;

		kc = merge(rk, ic, n, &cs, &ce);
		free(ic);
		ic = rows(rk, isgpu, KT_COMP, &n);
		kp = merge(rk, ic, n, &ps, &pe);
		free(ic);
		m = 2 * (kc + kp);
		t = xreallocarray(NULL, m + 1, sizeof *t);
		b = xreallocarray(NULL, m + 1, sizeof *b);
		p = xreallocarray(NULL, m + 1, sizeof *p);
		for (j = 0; j < kc; j++) {
			t[j] = cs[j];
			b[j] = 1;
			t[kc + j] = ce[j];
			b[kc + j] = -1;
		}
		for (j = 0; j < kp; j++) {
			t[2 * kc + j] = ps[j];
			b[2 * kc + j] = 2;
			t[2 * kc + kp + j] = pe[j];
			b[2 * kc + kp + j] = -2;
		}
		tl_argsort(t, m, p);
		for (j = 0; j < m; j++) {
			run += b[p[j]];
			if (run == 3 && j + 1 < m)
				ov += t[p[j + 1]] - t[p[j]];
		}
		csv_i(c, (int64_t)i);
		csv_i(c, rk->rank);
		csv_f(c, hta_round(100 * (ov / busy(cs, ce, kc)), 2));
		csv_end(c);
		free(cs);
		free(ce);
		free(ps);
		free(pe);
		free(t);
		free(b);
		free(p);
	}
	csv_close(c);
}

/*
 * The row of rank rk whose index is idx, or NULL. A loaded table is a
 * few runs sorted by index (the GPU rows and the CPU rows of the step
 * window, or one run): a binary search in each run; a table of many
 * runs is sorted by index first.
 */
struct byix {
	size_t *run;		/* the starts of the runs, then n */
	size_t nrun;
	int64_t *ix;		/* sorted: the indexes, and their rows */
	size_t *row;
	size_t n;
};

static const struct rank *bxr;

static int
cmpbx(const void *a, const void *b)
{
	const struct row *x = &bxr->r[*(const size_t *)a];
	const struct row *y = &bxr->r[*(const size_t *)b];

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 :
	    *(const size_t *)a > *(const size_t *)b;
}

static void
bx_make(struct byix *bx, const struct rank *rk)
{
	size_t i, cap = 0;

	memset(bx, 0, sizeof *bx);
	bx->n = rk->n;
	for (i = 0; i < rk->n; i++)
		if (i == 0 || rk->r[i].index < rk->r[i - 1].index) {
			if (bx->nrun == 8)
				break;
			xgrow(&bx->run, &cap, bx->nrun + 2, sizeof *bx->run);
			bx->run[bx->nrun++] = i;
		}
	if (i == rk->n) {
		xgrow(&bx->run, &cap, bx->nrun + 2, sizeof *bx->run);
		bx->run[bx->nrun] = rk->n;
		return;
	}
	free(bx->run);
	bx->run = NULL;
	bx->nrun = 0;
	bx->row = xreallocarray(NULL, rk->n + 1, sizeof *bx->row);
	bx->ix = xreallocarray(NULL, rk->n + 1, sizeof *bx->ix);
	for (i = 0; i < rk->n; i++)
		bx->row[i] = i;
	bxr = rk;
	qsort(bx->row, rk->n, sizeof *bx->row, cmpbx);
	for (i = 0; i < rk->n; i++)
		bx->ix[i] = rk->r[bx->row[i]].index;
}

static const struct row *
bx_find(const struct byix *bx, const struct rank *rk, int64_t idx)
{
	size_t lo, hi, k;

	for (k = 0; k < bx->nrun; k++) {	/* the first run that has it */
		lo = bx->run[k];
		hi = bx->run[k + 1];
		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2;

			if (rk->r[m].index < idx)
				lo = m + 1;
			else
				hi = m;
		}
		if (lo < bx->run[k + 1] && rk->r[lo].index == idx)
			return &rk->r[lo];
	}
	if (bx->row == NULL)
		return NULL;
	lo = 0;
	hi = bx->n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (bx->ix[m] < idx)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < bx->n && bx->ix[lo] == idx ? &rk->r[bx->row[lo]] : NULL;
}

static void
bx_free(struct byix *bx)
{
	free(bx->run);
	free(bx->ix);
	free(bx->row);
}

static int
isidle(const struct row *r, int arg)
{
	static uint32_t c[7] = { UINT32_MAX };
	static const char *const cn[7] = { "kernel", "Kernel", "gpu_memset",
	    "Memset", "gpu_memcpy", "Memcpy", "mtia_ccp_events" };
	int i;

	(void)arg;
	if (c[0] == UINT32_MAX)
		for (i = 0; i < 7; i++)
			c[i] = tl_intern(hta_str, cn[i], strlen(cn[i]));
	if (r->stream == -1)
		return 0;
	for (i = 0; i < 7; i++)
		if (r->cat == c[i])
			return 1;
	return 0;
}

static void
idle(void)
{
	struct csv *c, *s;
	size_t i, j, k, n, m;
	static const char *const cn[3] = { "host_wait", "kernel_wait",
	    "other" };

	for (i = 0; i < hta_nrk; i++) {
		free(rows(&hta_rk[i], isidle, 0, &n));
		if (n == 0) {
			tl_warnx("idle_time_breakdown: rank %" PRId64 " has "
			    "no kernels (HTA: No objects to concatenate): "
			    "not written", hta_rk[i].rank);
			return;
		}
	}
	c = csv_open("idle_time_breakdown.csv");
	s = csv_open("idle_interval_stats.csv");
	csv_hdr(c, ",rank,stream,idle_category,idle_time,idle_time_ratio");
	csv_hdr(s, "idle_category,rank,stream,count,mean,std,min,25%,50%,"
	    "75%,max");
	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		size_t *ix = rows(rk, isidle, 0, &n), ns = 0, out = 0;
		int64_t *st = xreallocarray(NULL, n + 1, sizeof *st);
		double *ts = xreallocarray(NULL, n + 1, sizeof *ts);
		double *iv = xreallocarray(NULL, n + 1, sizeof *iv);
		double *rt = xreallocarray(NULL, rk->n + 1, sizeof *rt);
		int *cat = xreallocarray(NULL, n + 1, sizeof *cat);
		size_t *sel = xreallocarray(NULL, n + 1, sizeof *sel);
		size_t *p = xreallocarray(NULL, n + 1, sizeof *p);
		struct byix bx;

		bx_make(&bx, rk);
		for (j = 0; j < n; j++) {
			const struct row *r = &rk->r[ix[j]], *l;

			rt[ix[j]] = NAN;
			if (r->ic >= 0 && (l = bx_find(&bx, rk, r->ic)) !=
			    NULL)
				rt[ix[j]] = (double)l->ts;
			for (k = 0; k < ns && st[k] != r->stream; k++)
				;
			if (k == ns)
				st[ns++] = r->stream;
		}
		for (k = 0; k < ns; k++) {
			double sum[3] = { 0 }, tot, d[8];
			int has[3] = { 0 };
			size_t q;

			for (j = 0, m = 0; j < n; j++)
				if (rk->r[ix[j]].stream == st[k]) {
					sel[m] = ix[j];
					ts[m++] = (double)rk->r[ix[j]].ts;
				}
			tl_argsort(ts, m, p);
			for (j = 0; j < m; j++) {
				const struct row *r = &rk->r[sel[p[j]]];
				double prev = NAN, rtj = rt[sel[p[j]]];

				if (j > 0) {
					const struct row *pr =
					    &rk->r[sel[p[j - 1]]];

					prev = (double)pr->ts + pr->dur;
				}
				iv[j] = (double)r->ts - prev;
				if (rtj > prev)
					cat[j] = 0;
				else if (iv[j] < hta_o.ckd)
					cat[j] = 1;
				else
					cat[j] = 2;
				has[cat[j]] = 1;
				if (!isnan(iv[j]))
					sum[cat[j]] += iv[j];
			}
			tot = sum[0] + sum[1] + sum[2];
			for (q = 0; q < 3; q++) {
				double *v;
				size_t nv = 0, x;

				if (!has[q])
					continue;
				csv_i(c, (int64_t)out++);
				csv_i(c, rk->rank);
				csv_i(c, st[k]);
				csv_s(c, cn[q], strlen(cn[q]));
				csv_f(c, hta_round(sum[q], 2));
				csv_f(c, hta_round(sum[q] / tot, 2));
				csv_end(c);
				v = xreallocarray(NULL, m + 1, sizeof *v);
				for (j = 0; j < m; j++)
					if (cat[j] == (int)q)
						v[nv++] = iv[j];
				hta_describe(v, nv, d);
				csv_s(s, cn[q], strlen(cn[q]));
				csv_i(s, rk->rank);
				csv_i(s, st[k]);
				for (x = 0; x < 8; x++)
					csv_f(s, hta_round(d[x], 2));
				csv_end(s);
				free(v);
			}
		}
		bx_free(&bx);
		free(ix);
		free(st);
		free(ts);
		free(iv);
		free(rt);
		free(cat);
		free(sel);
		free(p);
	}
	csv_close(c);
	csv_close(s);
}

static int
cmpi64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Rows by correlation, then table order. */
static int
cmpcorr(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int64_t cx = bxr->r[x].corr, cy = bxr->r[y].corr;

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return (x > y) - (x < y);
}

/* The first of v[0..n) (sorted by cmpcorr) with correlation corr. */
static size_t
lowcorr(const struct rank *rk, const size_t *v, size_t n, int64_t corr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (rk->r[v[m]].corr < corr)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

static void
launchstats(void)
{
	size_t i, j, k;
	char name[64];

	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		struct csv *c;
		int64_t out = 0;
		/* the correlations of the launches, and their CPU rows */
		size_t *cpu = xreallocarray(NULL, rk->n + 1, sizeof *cpu);
		size_t *gpu = xreallocarray(NULL, rk->n + 1, sizeof *gpu);
		size_t ncpu = 0, ngpu = 0;
		int64_t *L = xreallocarray(NULL, rk->n + 1, sizeof *L);
		size_t nL = 0;

		for (j = 0; j < rk->n; j++) {
			const struct row *r = &rk->r[j];

			if (hta_ni(r->name) & NI_STATS)
				L[nL++] = r->corr;
		}
		qsort(L, nL, sizeof *L, cmpi64);
		for (j = 0; j < rk->n; j++) {
			const struct row *r = &rk->r[j];

			if (bsearch(&r->corr, L, nL, sizeof *L, cmpi64) ==
			    NULL)
				continue;
			if (r->stream == -1)
				cpu[ncpu++] = j;
			else
				gpu[ngpu++] = j;
		}
		snprintf(name, sizeof name, "cuda_kernel_launch_stats_rank%"
		    PRId64 ".csv", rk->rank);
		c = csv_open(name);
		csv_hdr(c, ",correlation,cpu_duration,gpu_duration,"
		    "launch_delay");
		bxr = rk;
		qsort(gpu, ngpu, sizeof *gpu, cmpcorr);
		for (j = 0; j < ncpu; j++)
			for (k = lowcorr(rk, gpu, ngpu, rk->r[cpu[j]].corr);
			    k < ngpu && rk->r[gpu[k]].corr ==
			    rk->r[cpu[j]].corr; k++) {
				const struct row *a = &rk->r[cpu[j]];
				const struct row *g = &rk->r[gpu[k]];
				double d;

				d = (double)g->ts - (double)a->ts - a->dur;
				csv_i(c, out++);
				csv_i(c, a->corr);
				csv_f(c, a->dur);
				csv_f(c, g->dur);
				csv_f(c, d > 0 ? d : 0);
				csv_end(c);
			}
		csv_close(c);
		free(cpu);
		free(gpu);
		free(L);
	}
}

static int
isqlaunch(const struct row *r)
{
	return r->ic > 0 && (hta_ni(r->name) & NI_QUEUE);
}


/* The series of one rank, streams ascending: into *out, its length. */
size_t
hta_qseries(const struct rank *rk, struct qpt **out, int64_t **streams,
    size_t *nstreams)
{
	size_t *gpu = xreallocarray(NULL, rk->n + 1, sizeof *gpu);
	size_t ngpu = 0, i, k, np = 0, cap = 0, nr = 0, ns = 0;
	struct qpt *v = NULL, *o;
	int64_t *C = xreallocarray(NULL, rk->n + 1, sizeof *C), *st;
	size_t nC = 0, *p;
	double *key;

	for (i = 0; i < rk->n; i++)
		if (rk->r[i].stream != -1)
			gpu[ngpu++] = i;
	bxr = rk;
	qsort(gpu, ngpu, sizeof *gpu, cmpcorr);
	for (i = 0; i < rk->n; i++) {
		const struct row *r = &rk->r[i];
		int m = 0;

		if (!isqlaunch(r))
			continue;
		C[nC++] = r->corr;
		for (k = lowcorr(rk, gpu, ngpu, r->corr); k < ngpu &&
		    rk->r[gpu[k]].corr == r->corr; k++) {
			xgrow(&v, &cap, np + 1, sizeof *v);
			v[np].ev = r;
			v[np].gpu = &rk->r[gpu[k]];
			v[np++].q = 1;
			m = 1;
		}
		if (!m) {
			xgrow(&v, &cap, np + 1, sizeof *v);
			v[np].ev = r;
			v[np].gpu = NULL;
			v[np++].q = 1;
		}
	}
	nr = np;
	qsort(C, nC, sizeof *C, cmpi64);
	for (i = 0; i < rk->n; i++) {
		const struct row *r = &rk->r[i];

		if (r->stream == -1 || bsearch(&r->corr, C, nC, sizeof *C,
		    cmpi64) == NULL)
			continue;
		xgrow(&v, &cap, np + 1, sizeof *v);
		v[np].ev = r;
		v[np].gpu = r;
		v[np++].q = -1;
	}
	if (nr != np - nr)
		tl_warnx("queue_length: rank %" PRId64 ": %zu launches and "
		    "%zu kernels (HTA asserts they are equal)", rk->rank, nr,
		    np - nr);
	key = xreallocarray(NULL, np + 1, sizeof *key);
	p = xreallocarray(NULL, np + 1, sizeof *p);
	for (i = 0; i < np; i++)
		key[i] = (double)v[i].ev->ts;
	tl_argsort(key, np, p);
	st = xreallocarray(NULL, np + 1, sizeof *st);
	for (i = 0; i < np; i++)
		if (v[i].gpu != NULL)
			st[ns++] = v[i].gpu->stream;
	qsort(st, ns, sizeof *st, cmpi64);
	for (i = 0, k = 0; i < ns; i++)
		if (k == 0 || st[k - 1] != st[i])
			st[k++] = st[i];
	ns = k;
	o = xreallocarray(NULL, np + 1, sizeof *o);
	for (k = 0, nr = 0; k < ns; k++) {
		int64_t len = 0;

		for (i = 0; i < np; i++) {
			struct qpt *q = &v[p[i]];

			if (q->gpu == NULL || q->gpu->stream != st[k])
				continue;
			len += q->q;
			q->len = len;
			o[nr++] = *q;
		}
	}
	free(v);
	free(key);
	free(p);
	free(gpu);
	free(C);
	*out = o;
	*streams = st;
	*nstreams = ns;
	return nr;
}

static void
hdr2(struct csv *c, const char *k1, const char *k2, const char *col)
{
	static const char *const st[] = { "count", "mean", "std", "min",
	    "25%", "50%", "75%", "max" };
	size_t i;

	csv_s(c, "", 0);
	csv_s(c, "", 0);
	for (i = 0; i < 8; i++)
		csv_s(c, col, strlen(col));
	csv_end(c);
	csv_s(c, "", 0);
	csv_s(c, "", 0);
	for (i = 0; i < 8; i++)
		csv_s(c, st[i], strlen(st[i]));
	csv_end(c);
	csv_s(c, k1, strlen(k1));
	csv_s(c, k2, strlen(k2));
	for (i = 0; i < 8; i++)
		csv_s(c, "", 0);
	csv_end(c);
}

static void
queue(void)
{
	struct csv *c, *sum = NULL, *blk;
	size_t i, j, k, n, ns;
	char name[64];
	int64_t brow = 0;

	blk = NULL;
	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		struct qpt *v;
		int64_t *st, lastst = 0;
		double lastd = NAN, t0 = INFINITY, t1 = -INFINITY;

		n = hta_qseries(rk, &v, &st, &ns);
		if (n == 0) {
			free(v);
			free(st);
			continue;
		}
		snprintf(name, sizeof name, "queue_length_time_series_rank%"
		    PRId64 ".csv", rk->rank);
		c = csv_open(name);
		csv_hdr(c, "index,ts,pid,tid,stream,queue_length");
		for (j = 0; j < n; j++) {
			csv_i(c, v[j].ev->index);
			csv_i(c, v[j].ev->ts);
			csv_id(c, v[j].gpu->pid);
			csv_id(c, v[j].gpu->tid);
			csv_i(c, v[j].gpu->stream);
			csv_i(c, v[j].len);
			csv_end(c);
		}
		csv_close(c);
		if (sum == NULL) {
			sum = csv_open("queue_length_summary.csv");
			hdr2(sum, "rank", "stream", "queue_length");
			blk = csv_open("time_blocked_on_full_queue.csv");
			csv_hdr(blk, ",rank,stream,duration_at_max_queue_"
			    "length,relative_duration_at_max_queue_length");
		}
		for (j = 0; j < rk->n; j++) {
			if ((double)rk->r[j].ts < t0)
				t0 = (double)rk->r[j].ts;
			if ((double)rk->r[j].ts > t1)
				t1 = (double)rk->r[j].ts;
		}
		for (k = 0, j = 0; k < ns; k++) {
			size_t a = j, m;
			double d[8], *q, dsum = 0;
			int any = 0;

			while (j < n && v[j].gpu->stream == st[k])
				j++;
			q = xreallocarray(NULL, j - a + 1, sizeof *q);
			for (m = a; m < j; m++) {
				q[m - a] = (double)v[m].len;
				if (v[m].len >= hta_o.max_queue_length) {
					any = 1;
					if (m + 1 < j)
						dsum += (double)(v[m + 1].ev->ts -
						    v[m].ev->ts);
				}
			}
			hta_describe(q, j - a, d);
			free(q);
			csv_i(sum, rk->rank);
			csv_i(sum, st[k]);
			for (m = 0; m < 8; m++)
				csv_f(sum, d[m]);
			csv_end(sum);
			if (any) {
				lastst = st[k];
				lastd = dsum;
			}
		}
		if (!isnan(lastd)) {
			csv_i(blk, brow++);
			csv_i(blk, rk->rank);
			csv_i(blk, lastst);
			csv_f(blk, lastd);
			csv_f(blk, lastd / (t1 - t0));
			csv_end(blk);
		}
		free(v);
		free(st);
	}
	if (sum != NULL) {
		csv_close(sum);
		csv_close(blk);
	}
}

/* A point of the memory-bandwidth series. */
struct mpt {
	double ts, bw;
	const struct row *r;
	int kind;		/* 0 Memcpy DtoH.. by name, else fixed */
	char name[16];
};

static void
memname(const struct row *r, char *buf)
{
	size_t n;
	const char *s = hta_s(r->name, &n);

	if (n >= 6 && memcmp(s, "Memset", 6) == 0)
		strcpy(buf, "Memset");
	else if (n < 6 || memcmp(s, "Memcpy", 6) != 0)
		strcpy(buf, "Memcpy Unknown");
	else {
		/* the first 11 characters (bytes: these names are ASCII) */
		size_t k = n < 11 ? n : 11;

		memcpy(buf, s, k);
		buf[k] = '\0';
	}
}

static int
cmpmname(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
membw(void)
{
	struct csv *c, *sum;
	size_t i, j, k, n, m, ns = 0, caps = 0, any = 0;
	char name[64];
	struct msum {
		int64_t rank;
		char name[16];
		double d[8];
	} *sv = NULL;

	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		size_t *ix = rows(rk, isgpu, KT_MEM, &n), *p, nn = 0;
		struct mpt *v;
		double *key, *cs;
		const char **names;
		int64_t row;

		if (n == 0) {
			free(ix);
			continue;
		}
		v = xreallocarray(NULL, 2 * n + 1, sizeof *v);
		for (j = 0; j < n; j++) {
			const struct row *r = &rk->r[ix[j]];
			double d = r->dur == 0 ? 1 : r->dur;

			v[j].ts = (double)r->ts;
			v[j].bw = r->bw;
			v[j].r = r;
			memname(r, v[j].name);
			v[n + j] = v[j];
			v[n + j].ts = (double)r->ts + d;
			v[n + j].bw = -r->bw;
		}
		key = xreallocarray(NULL, 2 * n + 1, sizeof *key);
		cs = xreallocarray(NULL, 2 * n + 1, sizeof *cs);
		p = xreallocarray(NULL, 2 * n + 1, sizeof *p);
		for (j = 0; j < 2 * n; j++)
			key[j] = v[j].ts;
		tl_argsort(key, 2 * n, p);
		names = xreallocarray(NULL, 2 * n + 1, sizeof *names);
		for (j = 0; j < 2 * n; j++)
			names[j] = v[j].name;
		qsort(names, 2 * n, sizeof *names, cmpmname);
		for (j = 0, k = 0; j < 2 * n; j++)
			if (k == 0 || strcmp(names[k - 1], names[j]) != 0)
				names[k++] = names[j];
		nn = k;
		snprintf(name, sizeof name, "memory_bw_time_series_rank%"
		    PRId64 ".csv", rk->rank);
		c = csv_open(name);
		csv_hdr(c, ",ts,pid,name,memory_bw_gbps");
		any = 1;
		for (k = 0; k < nn; k++) {
			double acc = 0, comp = 0, d[8];

			for (j = 0, m = 0; j < 2 * n; j++) {
				const struct mpt *q = &v[p[j]];
				double y, t;

				if (strcmp(q->name, names[k]) != 0)
					continue;
				y = q->bw - comp;	/* pandas's Kahan cumsum */
				t = acc + y;
				comp = t - acc - y;
				acc = t;
				row = (int64_t)p[j];
				csv_i(c, row);
				csv_f(c, q->ts);
				csv_id(c, q->r->pid);
				csv_s(c, q->name, strlen(q->name));
				csv_f(c, acc);
				csv_end(c);
				if (acc > 0)
					cs[m++] = acc;
			}
			if (m == 0)	/* filtered before the groupby */
				continue;
			hta_describe(cs, m, d);
			xgrow(&sv, &caps, ns + 1, sizeof *sv);
			sv[ns].rank = rk->rank;
			strcpy(sv[ns].name, names[k]);
			memcpy(sv[ns++].d, d, sizeof d);
		}
		csv_close(c);
		free(v);
		free(key);
		free(cs);
		free(p);
		free(names);
		free(ix);
	}
	if (!any)
		return;
	sum = csv_open("memory_bw_summary.csv");
	if (ns == 0)	/* pandas's empty frame: no index names */
		csv_hdr(sum, ",memory_bw_gbps,memory_bw_gbps,memory_bw_gbps,"
		    "memory_bw_gbps,memory_bw_gbps,memory_bw_gbps,"
		    "memory_bw_gbps,memory_bw_gbps\n,count,mean,std,min,25%,"
		    "50%,75%,max");
	else
		hdr2(sum, "rank", "name", "memory_bw_gbps");
	for (i = 0; i < ns; i++) {
		csv_i(sum, sv[i].rank);
		csv_s(sum, sv[i].name, strlen(sv[i].name));
		for (j = 0; j < 8; j++)
			csv_f(sum, sv[i].d[j]);
		csv_end(sum);
	}
	csv_close(sum);
	free(sv);
}

static int
iscat(const struct row *r, int cat)
{
	return r->cat == (uint32_t)cat;
}

static int
cmprankname(size_t a, size_t b)
{
	int c = (skr[a].rank > skr[b].rank) - (skr[a].rank < skr[b].rank);

	return c != 0 ? c : cmpagg(a, b);
}

static void
annotations(const char *catname, const char *file)
{
	uint32_t cat = tl_intern(hta_str, catname, strlen(catname));
	size_t i, j, n, ng, nk = 0, cap = 0, *p;
	struct krow *kr = NULL;
	struct agg *g;
	struct csv *c;
	int any = 0;

	for (i = 0; i < hta_nrk; i++)
		for (j = 0; j < hta_rk[i].n && !any; j++)
			any = hta_rk[i].r[j].cat == cat;
	if (!any)
		return;
	for (i = 0; i < hta_nrk; i++) {
		size_t *ix = rows(&hta_rk[i], iscat, (int)cat, &n);

		ng = n > 0 ? topk(&hta_rk[i], ix, n, 1000, &g) : 0;
		for (j = 0; j < ng; j++) {
			xgrow(&kr, &cap, nk + 1, sizeof *kr);
			kr[nk].a = g[j];
			kr[nk].kt = 0;
			kr[nk++].rank = hta_rk[i].rank;
		}
		if (n > 0)
			free(g);
		free(ix);
	}
	p = xreallocarray(NULL, nk + 1, sizeof *p);
	for (i = 0; i < nk; i++)
		p[i] = i;
	skr = kr;
	{
		struct agg *a = xreallocarray(NULL, nk + 1, sizeof *a);

		for (i = 0; i < nk; i++)
			a[i] = kr[i].a;
		sag = a;
		hta_stable(p, nk, cmprankname);
		free(a);
	}
	c = csv_open(file);
	csv_hdr(c, ",name,sum (us),max (us),min (us),stddev,mean (us),rank");
	for (i = 0; i < nk; i++) {
		const struct krow *k = &kr[p[i]];

		csv_i(c, (int64_t)i);
		aggname(c, &k->a);
		csv_f(c, k->a.sum);
		csv_f(c, k->a.max);
		csv_f(c, k->a.min);
		csv_f(c, k->a.std);
		csv_f(c, k->a.mean);
		csv_i(c, k->rank);
		csv_end(c);
	}
	csv_close(c);
	free(p);
	free(kr);
}

/* The GPU-side rows of kernelannot by pid, tid, ts, row. */
static const struct rank *kar;

static int
cmpkann(const void *a, const void *b)
{
	const struct row *x = &kar->r[*(const size_t *)a];
	const struct row *y = &kar->r[*(const size_t *)b];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (*(const size_t *)a > *(const size_t *)b) -
	    (*(const size_t *)a < *(const size_t *)b);
}

/*
 * ann[k] = the annotation of GPU-side row k: for each (pid, tid) of the
 * annotations ix[p[..]] in first appearance, each annotation of it in
 * order names every kernel of its pid and tid it overlaps, a later one
 * overwriting. The kernels of a thread are taken by start, from the
 * first whose start plus the thread's longest duration passes the
 * annotation's start (none before can reach it) to the annotation's end.
 */
static void
annotate(const struct rank *rk, const size_t *ix, const size_t *p,
    size_t n, int64_t *ann)
{
	size_t *kv = xreallocarray(NULL, rk->n + 1, sizeof *kv), nk = 0;
	char *done = xcalloc(n + 1, 1);
	size_t a, j, k;

	for (k = 0; k < rk->n; k++) {
		const struct row *r = &rk->r[k];

		if ((r->stream >= 0 && r->corr >= 0) ||
		    (hta_ni(r->name) & NI_SYNC))
			kv[nk++] = k;
	}
	kar = rk;
	qsort(kv, nk, sizeof *kv, cmpkann);
	for (a = 0; a < n; a++) {
		const struct row *g0 = &rk->r[ix[p[a]]];
		size_t lo = 0, hi = nk, b, e;
		double dmax = -INFINITY;

		if (done[a])
			continue;
		/* the kernels of g0's pid and tid: kv[b..e) */
		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2;
			const struct row *r = &rk->r[kv[m]];

			if (r->pid < g0->pid || (r->pid == g0->pid &&
			    r->tid < g0->tid))
				lo = m + 1;
			else
				hi = m;
		}
		b = e = lo;
		while (e < nk && rk->r[kv[e]].pid == g0->pid &&
		    rk->r[kv[e]].tid == g0->tid) {
			if (rk->r[kv[e]].dur > dmax)
				dmax = rk->r[kv[e]].dur;
			e++;
		}
		for (j = a; j < n; j++) {
			const struct row *an = &rk->r[ix[p[j]]];
			double ae = (double)an->ts + an->dur;

			if (done[j] || an->pid != g0->pid ||
			    an->tid != g0->tid)
				continue;
			done[j] = 1;
			lo = b;
			hi = e;
			while (lo < hi) {
				size_t m = lo + (hi - lo) / 2;

				if ((double)rk->r[kv[m]].ts + dmax <=
				    (double)an->ts)
					lo = m + 1;
				else
					hi = m;
			}
			for (k = lo; k < e && (double)rk->r[kv[k]].ts < ae;
			    k++) {
				const struct row *r = &rk->r[kv[k]];

				if ((double)an->ts < (double)r->ts + r->dur)
					ann[kv[k]] = an->name;
			}
		}
	}
	free(done);
	free(kv);
}

/* get_gpu_kernels_with_user_annotations(rank, shorten_names=False). */
static void
kernelannot(void)
{
	uint32_t cat = tl_intern(hta_str, "gpu_user_annotation", 19);
	size_t i, j, k, n;
	char name[96];

	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		size_t *ix = rows(rk, iscat, (int)cat, &n), *p;
		int64_t *ann;
		double *key;
		struct csv *c;

		if (n == 0) {
			free(ix);
			continue;
		}
		key = xreallocarray(NULL, n + 1, sizeof *key);
		p = xreallocarray(NULL, n + 1, sizeof *p);
		for (j = 0; j < n; j++)
			key[j] = rk->r[ix[j]].dur;
		tl_nargsort_desc(key, n, p);
		ann = xreallocarray(NULL, rk->n + 1, sizeof *ann);
		for (j = 0; j < rk->n; j++)
			ann[j] = -1;
		annotate(rk, ix, p, n, ann);
		snprintf(name, sizeof name, "gpu_kernels_with_user_"
		    "annotations_rank%" PRId64 ".csv", rk->rank);
		c = csv_open(name);
		csv_hdr(c, "index,ts,dur,stream,pid,tid,s_name,"
		    "s_user_annotation");
		for (k = 0; k < rk->n; k++) {
			const struct row *r = &rk->r[k];

			if (!((r->stream >= 0 && r->corr >= 0) ||
			    (hta_ni(r->name) & NI_SYNC)))
				continue;
			csv_i(c, r->index);
			csv_i(c, r->ts);
			csv_f(c, r->dur);
			csv_i(c, r->stream);
			csv_id(c, r->pid);
			csv_id(c, r->tid);
			csv_id(c, r->name);
			if (ann[k] >= 0)
				csv_id(c, (uint32_t)ann[k]);
			else
				csv_s(c, "", 0);
			csv_end(c);
		}
		csv_close(c);
		free(ix);
		free(key);
		free(p);
		free(ann);
	}
}

void
hta_run(void)
{
	if (hta_want("temporal_breakdown"))
		temporal();
	if (hta_want("idle_time_breakdown"))
		idle();
	if (hta_want("kernel_breakdown"))
		kernels();
	if (hta_want("comm_comp_overlap"))
		overlap();
	if (hta_want("cuda_kernel_launch_stats"))
		launchstats();
	if (hta_want("queue_length"))
		queue();
	if (hta_want("memory_bw"))
		membw();
	if (hta_o.nseqops > 0 && hta_want("frequent_cuda_kernel_sequences"))
		hta_sequences(hta_o.seqops, hta_o.nseqops,
		    hta_o.min_pattern_len);
	if (hta_want("cupti_counter_data"))
		hta_cupti();
	if (hta_want("aten_op_kernels_and_delay"))
		hta_aten();
	if (hta_want("user_annotation_breakdown")) {
		annotations("gpu_user_annotation",
		    "gpu_user_annotation_breakdown.csv");
		annotations("user_annotation",
		    "cpu_user_annotation_breakdown.csv");
		kernelannot();
	}
}
