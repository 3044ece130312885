/*
 * tl-agg: the kernel sheets (spec 5.7, 5.8): kernels by parent op and
 * stream, short kernels and their histogram.
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

/* Per kernel (5.7, 5.8): its launch, its parent cpu_op and category. */
struct krow {
	uint32_t ev, launch, cpuop;
	uint32_t cat;
};

static struct krow *
kernel_rows(size_t *np)
{
	struct krow *K;
	size_t i, n = 0;
	uint32_t p;

	launchers();
	K = xcalloc(A->ngts + 1, sizeof *K);
	for (i = 0; i < A->n; i++) {
		const struct ev *e = &A->e[i];
		struct krow *k;

		if (e->kind != TL_K_KERNEL)
			continue;
		k = &K[n++];
		k->ev = (uint32_t)i;
		k->launch = e->parent;
		k->cpuop = k->cat = NONE;
		if (k->launch == NONE)
			continue;
		for (p = A->e[k->launch].parent; p != NONE;
		    p = A->e[p].parent)
			if (A->e[p].kind == TL_K_CPU_OP)
				break;
		k->cpuop = p;
		if (p != NONE) {
			if (A->lslot[p] != NONE)
				k->cat = A->l[A->lslot[p]].cat;
			else
				k->cat = idstr(categorize(A->e[p].name,
				    NONE));
		} else {
			const char *s;
			size_t sn;

			s = agg_str(A->e[k->launch].name, &sn);
			k->cat = idstr(hasci(s, sn, "cudagraph") ||
			    hasci(s, sn, "graphlaunch") ? "graph" : "runtime");
		}
	}
	*np = n;
	return K;
}

/* The name of a kernel's parent cpu_op: the op, else the launch. */
static uint32_t
kparent(const struct krow *k)
{
	if (k->cpuop != NONE)
		return A->e[k->cpuop].name;
	if (k->launch != NONE)
		return A->e[k->launch].name;
	return NONE;
}

static const uint32_t *kskey;
static int kscols;

static int
cmpksum(const void *a, const void *b)
{
	const uint32_t *x = &kskey[*(const uint32_t *)a * 4];
	const uint32_t *y = &kskey[*(const uint32_t *)b * 4];
	int c;

	if ((c = cmpid(x[0], y[0])) != 0)
		return c;
	if (kscols && (c = cmpid(x[1], y[1])) != 0)
		return c;
	if ((c = cmpid(x[2], y[2])) != 0)
		return c;
	return cmpnum(x[3], y[3]);
}

/* A kernel's stream: in TraceLens's CSV, a number when it is one. */
static void
streamcell(struct table *t, const struct row *r, int i)
{
	uint32_t id = r->key[i];

	if (id != NONE && agg_csv) {
		sb.n = 0;
		sb_stream(&sb, id, 0);
		if (sb.n > 0 && sb.buf[0] != '\'' && sb.buf[0] != '"') {
			tab_int(t, strtoll(sb_cstr(&sb), NULL, 10));
			return;
		}
	}
	tab_id(t, id);
}

/* kernel_summary (5.7). */
void
kernels(struct table *t, int which)
{
#define KD	"Kernel duration (\xc2\xb5s)_"
	static const struct col cols[] = {
		{ "category", "Parent op category", COL_ID, 0, 0, 0 },
		{ "parent_op", "Parent cpu_op", COL_ID, 1, 0, COL_CPU },
		{ "name", "Kernel name", COL_ID, 2, 0, 0 },
		{ "stream", "Kernel stream", COL_FN, 3, 0, 0 },
		{ "duration_us_sum", KD "sum", COL_DBL, 0, 0, COL_US },
		{ "count", KD "count", COL_INT, 0, 0, 0 },
		{ "duration_us_mean", KD "mean", COL_DBL, 1, 0, COL_US },
		{ "duration_us_min", KD "min", COL_DBL, 2, 0, COL_US },
		{ "duration_us_max", KD "max", COL_DBL, 3, 0, COL_US },
		{ "percent_of_kernels", "Percent of kernels time (%)", COL_DBL,
		    4, 0, 0 },
		{ "percent_of_total", "Percent of total time (%)", COL_DBL, 5,
		    0, 0 },
		COLS_END
	};
#undef KD
	struct krow *K;
	size_t nk, i, j, ng, *off, *perm;
	struct grouper g = { 4, NULL, 0, 0, NULL, 0 };
	uint32_t key[4], *grp, *mem, *order;
	double *d, tot, *sum;
	int cpu = !A->gpuonly;
	struct row r;

	tab_cols(t, which, cols);
	K = kernel_rows(&nk);
	if (nk == 0) {
		agg_empty(t, "no kernels");
		t->skip = 1;
		free(K);
		return;
	}
	grp = xreallocarray(NULL, nk + 1, sizeof *grp);
	d = xreallocarray(NULL, nk + 1, sizeof *d);
	for (i = 0; i < nk; i++) {
		const struct ev *e = &A->e[K[i].ev];

		key[0] = K[i].cat;
		key[1] = cpu ? kparent(&K[i]) : NONE;
		key[2] = e->name;
		key[3] = ev_stream(e);
		grp[i] = (uint32_t)gfind(&g, key);
		d[i] = ev_dur(e);
	}
	tot = tl_np_sum(d, nk);
	ng = g.ngroup;
	members(grp, nk, ng, &off, &mem);
	order = xreallocarray(NULL, ng + 1, sizeof *order);
	for (i = 0; i < ng; i++)
		order[i] = (uint32_t)i;
	kskey = g.key;
	kscols = cpu;
	qsort(order, ng, sizeof *order, cmpksum);
	sum = xcalloc(ng + 1, sizeof *sum);
	for (i = 0; i < ng; i++) {
		struct tl_kahan k = { 0, 0 };

		for (j = off[order[i]]; j < off[order[i] + 1]; j++)
			tl_kahan_add(&k, d[mem[j]]);
		sum[i] = k.s;
	}
	perm = xcalloc(ng + 1, sizeof *perm);
	tl_nargsort_desc(sum, ng, perm);
	for (i = 0; i < ng; i++) {
		size_t gi = order[perm[i]], m = off[gi + 1] - off[gi];
		const uint32_t *kk = &g.key[gi * 4];
		double mn = INFINITY, mx = -INFINITY, s = sum[perm[i]];

		for (j = off[gi]; j < off[gi + 1]; j++) {
			if (d[mem[j]] < mn)
				mn = d[mem[j]];
			if (d[mem[j]] > mx)
				mx = d[mem[j]];
		}
		memcpy(r.key, kk, 4 * sizeof *kk);
		r.i[0] = (int64_t)m;
		r.x[0] = s;
		r.x[1] = s / (double)m;
		r.x[2] = mn;
		r.x[3] = mx;
		r.x[4] = s / tot * 100;
		r.x[5] = pct_total(s);
		tab_row(t, &r, streamcell);
	}
	gfree(&g);
	free(K);
	free(grp);
	free(d);
	free(off);
	free(mem);
	free(order);
	free(sum);
	free(perm);
}

struct srow {
	size_t g;
	double sum, mean, pct;
	size_t count;
};

static int
cmpsrow(const void *a, const void *b)
{
	const struct srow *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	if (x->mean != y->mean)
		return x->mean < y->mean ? -1 : 1;
	if (x->pct != y->pct)
		return x->pct < y->pct ? -1 : 1;
	return (x->g > y->g) - (x->g < y->g);
}

/*
 * short_kernels_summary and short_kernel_histogram (5.8), both built at
 * once: the histogram alone, when the summary is not asked for, builds
 * the summary aside with no notes.
 */
void
short_kernels(struct table *t, int which)
{
#define SK	"Short Kernel duration (\xc2\xb5s) "
	static const struct col cols[] = {
		{ "parent_op", "Parent cpu_op", COL_ID, 0, 0, COL_CPU },
		{ "input_dims", "Input dims", COL_ARG, 1, 0, COL_CPU },
		{ "input_strides", "Input strides", COL_ARG, 2, 0, COL_CPU },
		{ "concrete_inputs", "Concrete Inputs", COL_ARG, 3, 0,
		    COL_CPU },
		{ "name", "Kernel name", COL_ID, 4, 0, 0 },
		{ "duration_us_sum", SK "sum", COL_DBL, 0, 0, COL_US },
		{ "count", "Short Kernel count", COL_INT, 0, 0, 0 },
		{ "duration_us_mean", SK "mean", COL_DBL, 1, 0, COL_US },
		{ "percent_of_total", SK "percent of total time", COL_DBL, 2,
		    0, 0 },
		COLS_END
	};
#undef SK
	static const struct col hcols[] = {
		{ "bin_start_us", "bin_start", COL_DBL, 0, 0, 0 },
		{ "bin_end_us", "bin_end", COL_DBL, 1, 0, 0 },
		{ "count", "count", COL_INT, 0, 0, 0 },
		COLS_END
	};
	struct row r;
	struct krow *K;
	struct grouper g = { 5, NULL, 0, 0, NULL, 0 };
	size_t nk, i, j, ns = 0, ng, *off, ndrop = 0;
	uint32_t key[5], *grp, *mem, *sel;
	double *v, th, *edges;
	int64_t *cnt;
	struct srow *S;
	struct table aside, *h = t + 1;
	int quiet = which == T_HIST;

	if (quiet) {
		if (agg_want[T_SHORT])
			return;
		h = t;
		t = &aside;
	}
	tab_cols(t, T_SHORT, cols);
	tab_cols(h, T_HIST, hcols);
	K = kernel_rows(&nk);
	th = agg_nat ? agg_shortus * 1e3 : agg_shortus;
	sel = xreallocarray(NULL, nk + 1, sizeof *sel);
	v = xreallocarray(NULL, nk + 1, sizeof *v);
	for (i = 0; i < nk; i++)
		if (ev_dur(&A->e[K[i].ev]) < th) {
			sel[ns] = (uint32_t)i;
			v[ns++] = (double)A->e[K[i].ev].durns / 1e3;
		}
	if (ns == 0) {
		if (agg_single) {
			char why[64];

			snprintf(why, sizeof why,
			    "no kernels shorter than %g us", agg_shortus);
			agg_empty(agg_single == T_HIST + 1 ? h : t, why);
		}
		t->blank = 1;
		goto out;
	}
	edges = xcalloc((size_t)agg_bins + 1, sizeof *edges);
	cnt = xcalloc((size_t)agg_bins + 1, sizeof *cnt);
	histogram(v, ns, agg_bins, edges, cnt);
	for (i = 0; i < (size_t)agg_bins; i++) {
		r.x[0] = edges[i];
		r.x[1] = edges[i + 1];
		r.i[0] = cnt[i];
		tab_row(h, &r, NULL);
	}
	free(edges);
	free(cnt);

	grp = xreallocarray(NULL, ns + 1, sizeof *grp);
	for (i = j = 0; i < ns; i++) {
		const struct krow *k = &K[sel[i]];
		const struct ev *e = &A->e[k->ev];

		memset(key, 0xff, sizeof key);
		key[4] = e->name;
		if (!A->gpuonly) {
			key[0] = kparent(k);
			if (k->cpuop != NONE) {
				key[1] = ev_arg(&A->e[k->cpuop], 0);
				key[2] = ev_arg(&A->e[k->cpuop], 2);
				key[3] = ev_arg(&A->e[k->cpuop], 3);
			}
			if (!agg_keep && (key[0] == NONE || key[1] == NONE ||
			    key[2] == NONE || key[3] == NONE)) {
				ndrop++;
				continue;
			}
		}
		sel[j] = sel[i];
		grp[j++] = (uint32_t)gfind(&g, key);
	}
	if (ndrop > 0 && !quiet)
		agg_note("%zu of %zu short kernel%s left out of \"%s\" as "
		    "TraceLens does: no parent cpu_op or no input dims, "
		    "strides or concrete inputs (-k keeps them)", ndrop, ns,
		    PL(ns), t->name);
	ns = j;
	ng = g.ngroup;
	members(grp, ns, ng, &off, &mem);
	S = xcalloc(ng + 1, sizeof *S);
	for (i = 0; i < ng; i++) {
		size_t m = off[i + 1] - off[i];
		struct tl_kahan k = { 0, 0 };

		for (j = 0; j < m; j++)
			tl_kahan_add(&k,
			    ev_dur(&A->e[K[sel[mem[off[i] + j]]].ev]));
		S[i].g = i;
		S[i].count = m;
		S[i].sum = k.s;
		S[i].mean = S[i].sum / (double)m;
		S[i].pct = pct_total(S[i].sum);
	}
	qsort(S, ng, sizeof *S, cmpsrow);
	if (agg_topk >= 0 && (size_t)agg_topk < ng)
		ng = (size_t)agg_topk;
	for (i = 0; i < ng; i++) {
		const uint32_t *kk = &g.key[S[i].g * 5];

		memcpy(r.key, kk, 5 * sizeof *kk);
		r.x[0] = S[i].sum;
		r.i[0] = (int64_t)S[i].count;
		r.x[1] = S[i].mean;
		r.x[2] = S[i].pct;
		tab_row(t, &r, NULL);
	}
	gfree(&g);
	free(S);
	free(off);
	free(mem);
	free(grp);
out:
	if (quiet)
		tab_free(t);
	free(K);
	free(sel);
	free(v);
}

