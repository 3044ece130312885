/*
 * tl-hta: HTA's analyses over the loaded ranks, each written as the CSV
 * file HTA's DataFrame makes (tl-hta(1) ANALYSES; sections 3 to 10 of
 * the spec).
 */
#include "an.h"

static const char *const ktname[] = { "COMPUTATION", "COMMUNICATION",
    "MEMORY" };

static int
ktype(const struct row *r)
{
	return (int)(hta_ni(r->name) >> 1) & 15;
}

int
isgpu(const struct row *r, int kt)
{
	return r->stream != -1 && (kt == 0 || ktype(r) == kt);
}

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
size_t *
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

void
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

static const struct rank *srk;
static const size_t *six;
struct agg *sag;

static int
cmpname(size_t a, size_t b)
{
	return strcmp(hta_s(srk->r[six[a]].name, &(size_t){ 0 }),
	    hta_s(srk->r[six[b]].name, &(size_t){ 0 }));
}

int
cmpagg(size_t a, size_t b)
{
	const char *x = sag[a].other ? "others" :
	    hta_s(sag[a].name, &(size_t){ 0 });
	const char *y = sag[b].other ? "others" :
	    hta_s(sag[b].name, &(size_t){ 0 });

	return strcmp(x, y);
}

size_t
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

struct krow *skr;

/*
 * The order of kr[0..nk) by cmp (over skr, and sag for cmpagg: the
 * krows' aggs), stable: a new array.
 */
size_t *
kr_order(struct krow *kr, size_t nk, int (*cmp)(size_t, size_t))
{
	size_t *p = xreallocarray(NULL, nk + 1, sizeof *p), i;
	struct agg *a = xreallocarray(NULL, nk + 1, sizeof *a);

	for (i = 0; i < nk; i++) {
		p[i] = i;
		a[i] = kr[i].a;
	}
	skr = kr;
	sag = a;
	hta_stable(p, nk, cmp);
	sag = NULL;
	free(a);
	return p;
}

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

void
aggname(struct csv *c, const struct agg *a)
{
	if (a->other)
		csv_s(c, "others", 6);
	else
		csv_id(c, a->name);
}

void
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
	p = kr_order(kr, nk, cmpkrow);
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

void
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

