/*
 * tl-agg: the ops sheets (spec 5.2 to 5.5): ops by category, by name and
 * by argument shapes, and the unified perf summary.
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

struct grow {
	uint32_t key[1];
	size_t n;
	struct kahan d, s;
	uint32_t cats[64];
	size_t ncat;
};

static int
cmpgrow(const void *a, const void *b)
{
	const struct grow *x = a, *y = b;

	return cmpid(x->key[0], y->key[0]);
}

/* ops_summary_by_category (5.2) and ops_summary (5.3). */
void
opsums(struct table *t, int bycat)
{
	static const char *const tlcat[] = { "op category", "Count",
	    "total_direct_kernel_time_ms", "Percentage (%)",
	    "Cumulative Percentage (%)", NULL };
	static const char *const natcat[] = { "category", "count",
	    "kernel_time_ms", "percent", "cumulative_percent", NULL };
	static const char *const tlops[] = { "name",
	    "total_direct_kernel_time_sum", "total_subtree_kernel_time_sum",
	    "total_direct_kernel_time_ms", "total_subtree_kernel_time_ms",
	    "Count", "Categories", "Percentage (%)",
	    "Cumulative Percentage (%)", NULL };
	static const char *const natops[] = { "name", "count",
	    "direct_kernel_time_us_sum", "subtree_kernel_time_us_sum",
	    "categories", "percent", "cumulative_percent", NULL };
	struct grouper g = { 1, NULL, 0, 0, NULL, 0 };
	struct grow *G = NULL;
	size_t i, j, r, ng, *perm, capg = 0;
	double *key, *ms, *pct, *cum;
	uint32_t k;

	if (bycat)
		tab_init(t, agg_tabname[T_CATEGORIES],
		    agg_sheetname[T_CATEGORIES], agg_csv ? tlcat : natcat);
	else
		tab_init(t, agg_tabname[T_OPS], agg_sheetname[T_OPS],
		    agg_csv ? tlops : natops);
	if (gpuonly(t))
		return;
	launchers();
	for (i = 0; i < nl; i++) {
		k = bycat ? L[i].cat : agg_e[L[i].ev].name;
		r = g.ngroup;
		j = gfind(&g, &k);
		if (g.ngroup > r) {
			xgrow(&G, &capg, g.ngroup, sizeof *G);
			memset(&G[j], 0, sizeof G[j]);
			G[j].key[0] = k;
		}
		G[j].n++;
		kahan_add(&G[j].d, L[i].direct);
		kahan_add(&G[j].s, L[i].subtree);
		for (r = 0; r < G[j].ncat; r++)
			if (G[j].cats[r] == L[i].cat)
				break;
		if (r == G[j].ncat && r < 64)
			G[j].cats[G[j].ncat++] = L[i].cat;
	}
	ng = g.ngroup;
	gfree(&g);
	if (ng == 0) {
		agg_empty(t, "no kernel launchers");
		free(G);
		return;
	}
	/* groupby: key order. */
	qsort(G, ng, sizeof *G, cmpgrow);
	key = xcalloc(ng, sizeof *key);
	ms = xcalloc(ng, sizeof *ms);
	pct = xcalloc(ng, sizeof *pct);
	cum = xcalloc(ng, sizeof *cum);
	perm = xcalloc(ng, sizeof *perm);
	for (i = 0; i < ng; i++)
		key[i] = G[i].d.s;
	tl_nargsort_desc(key, ng, perm);
	for (i = 0; i < ng; i++)
		ms[i] = agg_ms(G[perm[i]].d.s);
	percents(ms, ng, pct, cum);
	for (i = 0; i < ng; i++) {
		struct grow *p = &G[perm[i]];

		tab_id(t, p->key[0]);
		if (bycat) {
			tab_int(t, (int64_t)p->n);
			tab_dbl(t, ms[i]);
		} else if (agg_csv) {
			tab_dbl(t, agg_us(p->d.s));
			tab_dbl(t, agg_us(p->s.s));
			tab_dbl(t, ms[i]);
			tab_dbl(t, agg_ms(p->s.s));
			tab_int(t, (int64_t)p->n);
		} else {
			tab_int(t, (int64_t)p->n);
			tab_dbl(t, agg_us(p->d.s));
			tab_dbl(t, agg_us(p->s.s));
		}
		if (!bycat) {
			/* the distinct categories, sorted */
			for (r = 1; r < p->ncat; r++)
				for (j = r; j > 0 && cmpid(p->cats[j - 1],
				    p->cats[j]) > 0; j--) {
					k = p->cats[j];
					p->cats[j] = p->cats[j - 1];
					p->cats[j - 1] = k;
				}
			sb.n = 0;
			if (agg_csv)
				sb_char(&sb, '[');
			for (r = 0; r < p->ncat; r++) {
				const char *s;
				size_t n;

				s = agg_str(p->cats[r], &n);
				if (r > 0)
					sb_puts(&sb, agg_csv ? ", " : ",");
				if (agg_csv)
					sb_pystr(&sb, s, n);
				else
					sb_add(&sb, s, n);
			}
			if (agg_csv)
				sb_char(&sb, ']');
			tab_sb(t, &sb);
		}
		tab_dbl(t, pct[i]);
		tab_dbl(t, cum[i]);
	}
	free(G);
	free(key);
	free(ms);
	free(pct);
	free(cum);
	free(perm);
}


/* Sort rows: key desc, then ex_UID asc (a stable two-key sort). */
static const double *sk;
static const int64_t *su;

static int
cmpdu(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double x = sk[i], y = sk[j];

	if (x != y) {
		if (isnan(x) || isnan(y))
			return isnan(x) ? 1 : -1;
		return x > y ? -1 : 1;
	}
	if (su[i] != su[j])
		return su[i] < su[j] ? -1 : 1;
	return (i > j) - (i < j);
}

/* ops_unique_args (5.4). */
void
unique_args(struct table *t)
{
	static const char *const tlc[] = { "name", "op category",
	    "process_name", "process_label", "thread_name", "Input Dims",
	    "Input type", "Input Strides", "Concrete Inputs",
	    "operation_count", "total_direct_kernel_time_mean",
	    "total_subtree_kernel_time_mean",
	    "total_direct_kernel_time_median",
	    "total_subtree_kernel_time_median",
	    "total_direct_kernel_time_std", "total_subtree_kernel_time_std",
	    "total_direct_kernel_time_min", "total_subtree_kernel_time_min",
	    "total_direct_kernel_time_max", "total_subtree_kernel_time_max",
	    "total_direct_kernel_time_sum", "total_subtree_kernel_time_sum",
	    "ex_UID", "kernel_details_summary", "trunc_kernel_details",
	    "Percentage (%)", "Cumulative Percentage (%)", NULL };
	static const char *const nat[] = { "name", "category",
	    "process_name", "process_label", "thread_name", "input_dims",
	    "input_types", "input_strides", "concrete_inputs", "count",
	    "direct_kernel_time_us_mean", "subtree_kernel_time_us_mean",
	    "direct_kernel_time_us_median", "subtree_kernel_time_us_median",
	    "direct_kernel_time_us_std", "subtree_kernel_time_us_std",
	    "direct_kernel_time_us_min", "subtree_kernel_time_us_min",
	    "direct_kernel_time_us_max", "subtree_kernel_time_us_max",
	    "direct_kernel_time_us_sum", "subtree_kernel_time_us_sum",
	    "ex_uid", "kernels", "percent", "cumulative_percent", NULL };
	struct grouper g = { 9, NULL, 0, 0, NULL, 0 };
	uint32_t key[9], *grp, *mem;
	size_t i, j, ng, *off, *perm, *koff;
	double *sum, *pct, *cum, *a, *b;
	int64_t *uid;
	struct stats sd, ss;
	struct sbuf trunc = { NULL, 0, 0 };
	uint32_t *kev;

	tab_init(t, agg_tabname[T_UNIQUE], agg_sheetname[T_UNIQUE],
	    agg_csv ? tlc : nat);
	if (gpuonly(t))
		return;
	launchers();
	if (nl == 0) {
		agg_empty(t, "no kernel launchers");
		return;
	}
	grp = xreallocarray(NULL, nl + 1, sizeof *grp);
	for (i = 0; i < nl; i++) {
		const struct ev *e = &agg_e[L[i].ev];

		key[0] = e->name;
		key[1] = L[i].cat;
		key[2] = evmeta(M_PNAME, e);
		key[3] = evmeta(M_PLABEL, e);
		key[4] = evmeta(M_TNAME, e);
		memcpy(key + 5, e->arg, sizeof e->arg);
		grp[i] = (uint32_t)gfind(&g, key);
	}
	ng = g.ngroup;
	members(grp, nl, ng, &off, &mem);
	sum = xcalloc(ng, sizeof *sum);
	pct = xcalloc(ng, sizeof *pct);
	cum = xcalloc(ng, sizeof *cum);
	uid = xcalloc(ng, sizeof *uid);
	perm = xcalloc(ng, sizeof *perm);
	a = xcalloc(nl + 1, sizeof *a);
	b = xcalloc(nl + 1, sizeof *b);
	for (i = 0; i < ng; i++) {
		struct kahan k = { 0, 0 };

		for (j = off[i]; j < off[i + 1]; j++)
			kahan_add(&k, L[mem[j]].direct);
		sum[i] = k.s;
		uid[i] = agg_e[L[mem[off[i]]].ev].uid;
		perm[i] = i;
	}
	sk = sum;
	su = uid;
	qsort(perm, ng, sizeof *perm, cmpdu);
	for (i = 0; i < ng; i++)
		a[i] = sum[perm[i]];
	percents(a, ng, pct, cum);
	kev = xreallocarray(NULL, nl + 1, sizeof *kev);
	koff = xcalloc(nl + 2, sizeof *koff);
	for (i = 0; i < ng; i++) {
		size_t gi = perm[i], m = off[gi + 1] - off[gi], n = 0;
		const uint32_t *kk = &g.key[gi * 9];
		const uint32_t *mm = mem + off[gi];
		size_t nk = 0;

		for (j = 0; j < m; j++) {
			a[j] = L[mm[j]].direct;
			b[j] = L[mm[j]].subtree;
			nk += L[mm[j]].nk;
		}
		stats(&sd, a, m);
		stats(&ss, b, m);
		kev = xreallocarray(kev, nk + 1, sizeof *kev);
		for (j = 0; j < m; j++) {
			koff[j] = n;
			memcpy(kev + n, lk + L[mm[j]].k0,
			    L[mm[j]].nk * sizeof *kev);
			n += L[mm[j]].nk;
		}
		koff[m] = n;
		kdsummary(&kdfull, &trunc, kev, koff, m);
		tab_id(t, kk[0]);
		tab_id(t, kk[1]);
		tab_id(t, kk[2]);
		tab_id(t, kk[3]);
		tab_id(t, kk[4]);
		for (j = 0; j < 4; j++)
			tab_arg(t, kk[5 + j]);
		tab_int(t, (int64_t)m);
		tab_dbl(t, agg_us(sd.mean));
		tab_dbl(t, agg_us(ss.mean));
		tab_dbl(t, agg_us(sd.median));
		tab_dbl(t, agg_us(ss.median));
		tab_dbl(t, agg_us(sd.std));
		tab_dbl(t, agg_us(ss.std));
		tab_dbl(t, agg_us(sd.min));
		tab_dbl(t, agg_us(ss.min));
		tab_dbl(t, agg_us(sd.max));
		tab_dbl(t, agg_us(ss.max));
		tab_dbl(t, agg_us(sd.sum));
		tab_dbl(t, agg_us(ss.sum));
		tab_int(t, uid[gi]);
		tab_sb(t, &kdfull);
		if (agg_csv)
			tab_sb(t, &trunc);
		tab_dbl(t, pct[i]);
		tab_dbl(t, cum[i]);
	}
	gfree(&g);
	free(grp);
	free(mem);
	free(off);
	free(sum);
	free(pct);
	free(cum);
	free(uid);
	free(perm);
	free(a);
	free(b);
	free(kev);
	free(koff);
	free(trunc.p);
}

/* The unified perf summary (5.5). */

struct urow {
	uint32_t ev;		/* the op (or the copy's original) */
	uint32_t name;		/* the row's name */
	int64_t uid;
	uint32_t cat;
	int model;
	uint32_t k0, nk;	/* its GPU events in uk[], gpu_events order */
	double ktime;		/* busy, ticks */
	double tbs, tflops;	/* NaN when unknown */
};
static struct urow *U;
static size_t nu, capu;
static uint32_t *uk;
static size_t nuk, capuk;
static uint8_t *visited, *pmbelow;

static int
launches(uint32_t i)
{
	return agg_e[i].ghi > agg_e[i].glo;
}

static int
pmop(uint32_t i)
{
	return agg_e[i].kind == K_CPU_OP && launches(i) && has_model(i);
}

/* A GPU event is a child of a cuda_runtime (or python) child of i. */
static int
leaf(uint32_t i, int depth)
{
	uint32_t j, k;

	if (depth > 10)
		return 0;
	for (j = agg_kidoff[i]; j < agg_kidoff[i + 1]; j++) {
		k = agg_kids[j];
		if (ISGPU(agg_e[k].kind))
			return 1;
		if ((agg_e[k].kind == K_RUNTIME ||
		    agg_e[k].kind == K_PYTHON) && leaf(k, depth + 1))
			return 1;
	}
	return 0;
}

static int
cmpgpuev(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	uint32_t p = agg_e[i].parent, q = agg_e[j].parent;

	if (p != q)
		return (p > q) - (p < q);
	return (i > j) - (i < j);
}

static void
collect(uint32_t i, uint32_t name, uint32_t *gev, size_t ng, int model)
{
	struct urow *u;
	size_t j;
	const struct ev *e = &agg_e[i];

	xgrow(&U, &capu, nu + 1, sizeof *U);
	u = &U[nu++];
	memset(u, 0, sizeof *u);
	u->ev = i;
	u->name = name;
	u->uid = e->uid;
	u->model = model;
	xgrow(&uk, &capuk, nuk + ng + 1, sizeof *uk);
	u->k0 = (uint32_t)nuk;
	u->nk = (uint32_t)ng;
	memcpy(uk + nuk, gev, ng * sizeof *uk);
	sortidx(uk + nuk, ng, cmpgpuev);
	nuk += ng;
	u->ktime = busy(uk + u->k0, ng);
	u->cat = idstr(categorize(name, ng > 0 ? uk[u->k0] : NONE));
	u->tbs = u->tflops = NAN;
	if (e->perf != NONE && u->ktime > 0) {
		const struct perf *p = &agg_perf[e->perf];
		double tus = agg_us(u->ktime);

		u->tflops = p->gflops / 1e3 / (tus / 1e6);
		u->tbs = p->bytes / 1e12 / (tus / 1e6);
	}
	for (j = 0; j < ng; j++)
		agg_e[gev[j]].flags |= F_COVERED;
}

static int
nccl_below(uint32_t i)
{
	size_t j;

	for (j = agg_e[i].glo; j < agg_e[i].ghi; j++)
		if (agg_e[agg_gord[j]].flags & F_COMM)
			return 1;
	return 0;
}

/* The suffix of a wrapper's name after its last ": ", or NULL. */
static const char *
suffix(uint32_t w, size_t *n)
{
	const char *s, *c = NULL;
	size_t k, j;

	s = agg_str(agg_e[w].name, &k);
	for (j = 0; j + 1 < k; j++)
		if (s[j] == ':' && s[j + 1] == ' ')
			c = s + j + 2;
	if (c != NULL)
		*n = k - (size_t)(c - s);
	return c;
}

static int
endswith(uint32_t i, const char *suf, size_t n)
{
	const char *s;
	size_t k;

	s = agg_str(agg_e[i].name, &k);
	return k >= n && memcmp(s + k - n, suf, n) == 0;
}

static int8_t *solecount;	/* per wrapper: matching ops, capped at 2 */
static uint32_t *solest;
static size_t capsolest;

/*
 * The sole backward op (5.5): an autograd wrapper (an ancestor within 5
 * levels with fwd_uid) whose forward has a model with a backward
 * category, under which i is the one cpu_op that launches GPU work with
 * the name the wrapper's ends in. Returns the forward, or NONE.
 */
static uint32_t
solebwd(uint32_t i)
{
	uint32_t p = agg_e[i].parent, f = NONE, k;
	const struct opcat *c;
	const char *suf;
	size_t sn, sp, j;
	int d;

	for (d = 0; d < 5 && p != NONE; d++, p = agg_e[p].parent)
		if (agg_e[p].fwd != NONE) {
			f = agg_e[p].fwd;
			break;
		}
	if (f == NONE || !has_model(f))
		return NONE;
	if ((c = opcat_id(agg_e[f].name)) == NULL || c->bwdcat == NULL)
		return NONE;
	if ((suf = suffix(p, &sn)) == NULL || !endswith(i, suf, sn))
		return NONE;
	if (solecount[p] < 0) {
		solecount[p] = 0;
		sp = 0;
		xgrow(&solest, &capsolest, 1, sizeof *solest);
		solest[sp++] = p;
		while (sp > 0) {
			k = solest[--sp];
			if (k != p && agg_e[k].kind == K_CPU_OP && launches(k) &&
			    endswith(k, suf, sn) && solecount[p] < 2)
				solecount[p]++;
			xgrow(&solest, &capsolest, sp + agg_kidoff[k + 1] -
			    agg_kidoff[k] + 1, sizeof *solest);
			for (j = agg_kidoff[k]; j < agg_kidoff[k + 1]; j++)
				if (!ISGPU(agg_e[agg_kids[j]].kind))
					solest[sp++] = agg_kids[j];
		}
	}
	return solecount[p] == 1 ? f : NONE;
}

/* The stack of traverse, kept from one root to the next. */
static uint32_t *stk;
static size_t capstk;

static void
traverse(uint32_t root)
{
	uint32_t i, j, k, f;
	size_t sp = 0;
	int any;

	xgrow(&stk, &capstk, 1, sizeof *stk);
	stk[sp++] = root;
	while (sp > 0) {
		i = stk[--sp];
		if (visited[i])
			continue;
		visited[i] = 1;
		if (agg_e[i].kind != K_CPU_OP && !(agg_python &&
		    (agg_e[i].kind == K_PYTHON || agg_e[i].kind == K_ANNOT)))
			continue;
		if (!launches(i))
			continue;
		if (agg_e[i].kind == K_CPU_OP) {
			if (has_model(i)) {
				collect(i, agg_e[i].name, agg_gord +
				    agg_e[i].glo, agg_e[i].ghi - agg_e[i].glo,
				    1);
				continue;
			}
			if (!pmbelow[i] && (f = solebwd(i)) != NONE) {
				collect(i, agg_e[i].name, agg_gord +
				    agg_e[i].glo, agg_e[i].ghi - agg_e[i].glo,
				    2);
				U[nu - 1].cat =
				    idstr(opcat_id(agg_e[f].name)->bwdcat);
				continue;
			}
			if (!pmbelow[i] && leaf(i, 0)) {
				any = 0;
				for (j = agg_kidoff[i]; j < agg_kidoff[i + 1];
				    j++)
					if (pmop(agg_kids[j]))
						any = 1;
				if (any) {
					for (j = agg_kidoff[i + 1];
					    j-- > agg_kidoff[i];) {
						k = agg_kids[j];
						if (pmop(k)) {
							xgrow(&stk, &capstk,
							    sp + 1,
							    sizeof *stk);
							stk[sp++] = k;
						}
					}
				} else if (!nccl_below(i))
					collect(i, agg_e[i].name, agg_gord +
					    agg_e[i].glo, agg_e[i].ghi -
					    agg_e[i].glo, 0);
				continue;
			}
		}
		/* Recurse into the children, in order. */
		xgrow(&stk, &capstk, sp + agg_kidoff[i + 1] - agg_kidoff[i] + 1,
		    sizeof *stk);
		for (j = agg_kidoff[i + 1]; j-- > agg_kidoff[i];)
			stk[sp++] = agg_kids[j];
	}
}

static void
unified_rows(void)
{
	size_t i, r;
	uint32_t p, c;
	int64_t maxuid = agg_maxuid;

	nu = nuk = 0;
	visited = xcalloc(agg_n + 1, 1);
	pmbelow = xcalloc(agg_n + 1, 1);
	solecount = xreallocarray(NULL, agg_n + 1, sizeof *solecount);
	memset(solecount, 0xff, agg_n + 1);
	/* pmbelow: a cpu_op with a model that launches, below. */
	for (i = 0; i < agg_n; i++) {
		if (!pmop((uint32_t)i))
			continue;
		for (p = agg_e[i].parent; p != NONE && !pmbelow[p];
		    p = agg_e[p].parent)
			pmbelow[p] = 1;
	}
	for (i = 0; i < agg_n; i++)
		agg_e[i].flags &= ~F_COVERED;
	for (r = 0; r < agg_nroots; r++)
		traverse(agg_roots[r]);
	/* Synthetic ops for the GPU events no row owns. */
	for (i = 0; i < agg_n; i++) {
		const struct ev *g = &agg_e[i];
		uint32_t gi = (uint32_t)i;

		if (!ISGPU(g->kind) || (g->flags & (F_COVERED | F_COMM)) ||
		    g->parent == NONE)
			continue;
		for (p = g->parent; p != NONE; p = agg_e[p].parent)
			if (agg_e[p].kind == K_CPU_OP)
				break;
		if (p == NONE)
			p = g->parent;
		sb.n = 0;
		{
			const char *s;
			size_t n;

			s = agg_str(agg_e[p].name, &n);
			sb_add(&sb, s, n);
			sb_puts(&sb, "->");
			s = agg_str(g->name, &n);
			sb_add(&sb, s, n);
			sb_puts(&sb, " (Synthetic Op)");
		}
		c = tl_intern(agg_in, sb.p, sb.n);
		collect(p, c, &gi, 1, 0);
		U[nu - 1].uid = ++maxuid;
	}
}

void
unified(struct table *t)
{
	static const char *const tlc[] = { "name", "op category",
	    "process_name", "process_label", "thread_name", "Input Dims",
	    "Input type", "Input Strides", "Concrete Inputs", "ex_UID",
	    "operation_count", "total_duration_us", "mean_duration_us",
	    "std_duration_us", "GFLOPS", "Data Moved (MB)", "FLOPS/Byte",
	    "Compute Spec", "TB/s_mean", "TB/s_std", "TFLOPS/s_mean",
	    "TFLOPS/s_std", "Kernel Time (\xc2\xb5s)_mean",
	    "Kernel Time (\xc2\xb5s)_std", "Kernel Time (\xc2\xb5s)_sum",
	    "duration_us_median", "duration_us_min", "duration_us_max",
	    "TB/s_median", "TB/s_min", "TB/s_max", "TFLOPS/s_median",
	    "TFLOPS/s_min", "TFLOPS/s_max", "Kernel Time (\xc2\xb5s)_median",
	    "Kernel Time (\xc2\xb5s)_min", "Kernel Time (\xc2\xb5s)_max",
	    "kernel_details_summary", "trunc_kernel_details", "perf_params",
	    "has_perf_model", "Percentage (%)", "Cumulative Percentage (%)",
	    NULL };
	static const char *const nat[] = { "name", "category",
	    "process_name", "process_label", "thread_name", "input_dims",
	    "input_types", "input_strides", "concrete_inputs", "ex_uid",
	    "count", "duration_us_sum", "duration_us_mean", "duration_us_std",
	    "gflop", "data_moved_mib", "flop_per_byte", "compute_spec",
	    "tb_per_s_mean", "tb_per_s_std", "tflop_per_s_mean",
	    "tflop_per_s_std", "kernel_time_us_mean", "kernel_time_us_std",
	    "kernel_time_us_sum", "duration_us_median", "duration_us_min",
	    "duration_us_max", "tb_per_s_median", "tb_per_s_min",
	    "tb_per_s_max", "tflop_per_s_median", "tflop_per_s_min",
	    "tflop_per_s_max", "kernel_time_us_median", "kernel_time_us_min",
	    "kernel_time_us_max", "kernels", "perf_params",
	    "has_perf_model", "percent", "cumulative_percent", NULL };
	struct grouper g = { 9, NULL, 0, 0, NULL, 0 };
	uint32_t key[9], *grp, *mem, *kev;
	size_t i, j, ng, *off, *perm, *koff, nk;
	double *ks, *pct, *cum, *a;
	int64_t *uid;
	struct stats sdur, stb, stf, skt;
	struct sbuf trunc = { NULL, 0, 0 };

	tab_init(t, agg_tabname[T_UNIFIED], agg_sheetname[T_UNIFIED],
	    agg_csv ? tlc : nat);
	if (gpuonly(t))
		return;
	launchers();
	unified_rows();
	if (nu == 0) {
		agg_empty(t, "no ops that launch GPU work");
		goto out;
	}
	grp = xreallocarray(NULL, nu + 1, sizeof *grp);
	for (i = 0; i < nu; i++) {
		const struct ev *e = &agg_e[U[i].ev];

		key[0] = U[i].name;
		key[1] = U[i].cat;
		key[2] = evmeta(M_PNAME, e);
		key[3] = evmeta(M_PLABEL, e);
		key[4] = evmeta(M_TNAME, e);
		memcpy(key + 5, e->arg, sizeof e->arg);
		grp[i] = (uint32_t)gfind(&g, key);
	}
	ng = g.ngroup;
	members(grp, nu, ng, &off, &mem);
	ks = xcalloc(ng, sizeof *ks);
	pct = xcalloc(ng, sizeof *pct);
	cum = xcalloc(ng, sizeof *cum);
	uid = xcalloc(ng, sizeof *uid);
	perm = xcalloc(ng, sizeof *perm);
	a = xcalloc(nu + 1, sizeof *a);
	for (i = 0; i < ng; i++) {
		struct kahan k = { 0, 0 };

		for (j = off[i]; j < off[i + 1]; j++)
			kahan_add(&k, U[mem[j]].ktime);
		ks[i] = k.s;
		uid[i] = U[mem[off[i]]].uid;
		perm[i] = i;
	}
	sk = ks;
	su = uid;
	qsort(perm, ng, sizeof *perm, cmpdu);
	for (i = 0; i < ng; i++)
		a[i] = agg_us(ks[perm[i]]);
	percents(a, ng, pct, cum);
	koff = xcalloc(nu + 2, sizeof *koff);
	kev = NULL;
	for (i = 0; i < ng; i++) {
		size_t gi = perm[i], m = off[gi + 1] - off[gi], n = 0;
		const uint32_t *kk = &g.key[gi * 9];
		const uint32_t *mm = mem + off[gi];
		const struct perf *pf = NULL;
		uint32_t spec = NONE, params = NONE;
		double gf = NAN, by = NAN;

		for (j = 0; j < m; j++)
			a[j] = agg_e[U[mm[j]].ev].dur;
		stats(&sdur, a, m);
		for (j = 0; j < m; j++)
			a[j] = U[mm[j]].tbs;
		stats_nan(&stb, a, m);
		for (j = 0; j < m; j++)
			a[j] = U[mm[j]].tflops;
		stats_nan(&stf, a, m);
		for (j = 0; j < m; j++)
			a[j] = U[mm[j]].ktime;
		stats(&skt, a, m);
		/* The first values that are there. */
		for (j = 0; j < m; j++) {
			uint32_t pi = agg_e[U[mm[j]].ev].perf;

			if (pi == NONE)
				continue;
			pf = &agg_perf[pi];
			if (isnan(gf))
				gf = pf->gflops;
			if (isnan(by))
				by = pf->bytes;
			if (spec == NONE)
				spec = pf->spec;
			if (params == NONE)
				params = pf->params;
		}
		for (nk = 0, j = 0; j < m; j++)
			nk += U[mm[j]].nk;
		kev = xreallocarray(kev, nk + 1, sizeof *kev);
		for (j = 0; j < m; j++) {
			koff[j] = n;
			memcpy(kev + n, uk + U[mm[j]].k0,
			    U[mm[j]].nk * sizeof *kev);
			n += U[mm[j]].nk;
		}
		koff[m] = n;
		kdsummary(&kdfull, &trunc, kev, koff, m);
		tab_id(t, kk[0]);
		tab_id(t, kk[1]);
		tab_id(t, kk[2]);
		tab_id(t, kk[3]);
		tab_id(t, kk[4]);
		for (j = 0; j < 4; j++)
			tab_arg(t, kk[5 + j]);
		tab_int(t, uid[gi]);
		tab_int(t, (int64_t)m);
		tab_dbl(t, agg_us(sdur.sum));
		tab_dbl(t, agg_us(sdur.mean));
		tab_dbl(t, agg_us(sdur.std));
		tab_dbl(t, gf);
		tab_dbl(t, by / (1024 * 1024));
		tab_dbl(t, gf * 1e9 / by);
		tab_id(t, spec);
		tab_dbl(t, stb.mean);
		tab_dbl(t, stb.std);
		tab_dbl(t, stf.mean);
		tab_dbl(t, stf.std);
		tab_dbl(t, agg_us(skt.mean));
		tab_dbl(t, agg_us(skt.std));
		tab_dbl(t, agg_us(skt.sum));
		tab_dbl(t, agg_us(sdur.median));
		tab_dbl(t, agg_us(sdur.min));
		tab_dbl(t, agg_us(sdur.max));
		tab_dbl(t, stb.median);
		tab_dbl(t, stb.min);
		tab_dbl(t, stb.max);
		tab_dbl(t, stf.median);
		tab_dbl(t, stf.min);
		tab_dbl(t, stf.max);
		tab_dbl(t, agg_us(skt.median));
		tab_dbl(t, agg_us(skt.min));
		tab_dbl(t, agg_us(skt.max));
		tab_sb(t, &kdfull);
		if (agg_csv)
			tab_sb(t, &trunc);
		tab_arg(t, params);
		tab_bool(t, U[mm[0]].model != 0);
		tab_dbl(t, pct[i]);
		tab_dbl(t, cum[i]);
	}
	gfree(&g);
	free(grp);
	free(mem);
	free(off);
	free(ks);
	free(pct);
	free(cum);
	free(uid);
	free(perm);
	free(a);
	free(kev);
	free(koff);
out:
	free(trunc.p);
	free(visited);
	free(pmbelow);
	free(solecount);
	free(solest);
	free(stk);
	stk = NULL;
	capstk = 0;
	visited = pmbelow = NULL;
	solecount = NULL;
	solest = NULL;
	capsolest = 0;
}


void
unified_free(void)
{
	free(U);
	free(uk);
	U = NULL;
	uk = NULL;
	nu = nuk = capu = capuk = 0;
}
