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
	uint32_t key[2];
	size_t n, first;
	struct tl_kahan d, s;
	uint32_t cats[64];
	size_t ncat;
};

static int
cmpgrow(const void *a, const void *b)
{
	const struct grow *x = a, *y = b;
	int c = cmpid(x->key[0], y->key[0]);

	return c != 0 ? c : cmpid(x->key[1], y->key[1]);
}

/*
 * The columns of an ops sheet, and the launchers it reads; 0 for a GPU-only
 * trace, of which TraceLens writes no ops sheet.
 */
int
agg_opsheet(struct table *t, int which, const struct col *cols)
{
	tab_cols(t, which, cols);
	if (A->gpuonly) {
		t->skip = 1;
		return 0;
	}
	launchers();
	return 1;
}

/*
 * The rows of an ops summary: the launchers grouped by category (bycat) or
 * name, and by parent module where mod is given (mod[i] of launcher i), in
 * the groupby's key order, then by direct kernel time, descending. A row's
 * key[2] is stack[first launcher of the group] where stack is given; its
 * s[0] the list of categories of a by-name group.
 */
void
agg_sumrows(struct table *t, int bycat, const uint32_t *mod,
    const uint32_t *stack)
{
	struct row row;
	struct grouper g = { 2, NULL, 0, 0, NULL, 0 };
	struct grow *G = NULL;
	size_t i, j, r, ng, *perm, capg = 0;
	double *key, *ms, *pct, *cum;
	uint32_t k[2];

	for (i = 0; i < A->nl; i++) {
		k[0] = bycat ? A->l[i].cat : A->e[A->l[i].ev].name;
		k[1] = mod != NULL ? mod[i] : 0;
		r = g.ngroup;
		j = gfind(&g, k);
		if (g.ngroup > r) {
			xgrow(&G, &capg, g.ngroup, sizeof *G);
			memset(&G[j], 0, sizeof G[j]);
			G[j].key[0] = k[0];
			G[j].key[1] = mod != NULL ? k[1] : NONE;
			G[j].first = i;
		}
		G[j].n++;
		tl_kahan_add(&G[j].d, A->l[i].direct);
		tl_kahan_add(&G[j].s, A->l[i].subtree);
		for (r = 0; r < G[j].ncat; r++)
			if (G[j].cats[r] == A->l[i].cat)
				break;
		if (r == G[j].ncat && r < 64)
			G[j].cats[G[j].ncat++] = A->l[i].cat;
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

		row.key[0] = p->key[0];
		row.key[1] = p->key[1];
		row.key[2] = stack != NULL ? stack[p->first] : 0;
		row.i[0] = (int64_t)p->n;
		row.x[0] = p->d.s;
		row.x[1] = pct[i];
		row.x[2] = cum[i];
		row.x[3] = p->s.s;
		row.s[0] = &sb;
		if (!bycat)
			agg_catlist(&sb, p->cats, p->ncat);
		tab_row(t, &row, NULL);
	}
	free(G);
	free(key);
	free(ms);
	free(pct);
	free(cum);
	free(perm);
}

/* The columns of ops_summary_by_category, both reports'. */
const struct col agg_catcols[] = {
	{ "category", "op category", COL_ID, 0, 0, 0 },
	{ "count", "Count", COL_INT, 0, 0, 0 },
	{ "kernel_time_ms", "total_direct_kernel_time_ms", COL_DBL, 0, 0,
	    COL_MS },
	COLS_PCT(1),
	COLS_END
};

/* ops_summary_by_category (5.2) and ops_summary (5.3). */
void
opsums(struct table *t, int which)
{
	static const struct col ocols[] = {
		{ "name", "name", COL_ID, 0, 0, 0 },
		{ "count", NULL, COL_INT, 0, 0, 0 },
		{ "direct_kernel_time_us_sum", "total_direct_kernel_time_sum",
		    COL_DBL, 0, 0, COL_US },
		{ "subtree_kernel_time_us_sum",
		    "total_subtree_kernel_time_sum", COL_DBL, 3, 0, COL_US },
		{ NULL, "total_direct_kernel_time_ms", COL_DBL, 0, 0, COL_MS },
		{ NULL, "total_subtree_kernel_time_ms", COL_DBL, 3, 0,
		    COL_MS },
		{ NULL, "Count", COL_INT, 0, 0, 0 },
		{ "categories", "Categories", COL_STR, 0, 0, 0 },
		COLS_PCT(1),
		COLS_END
	};
	int bycat = which == T_CATEGORIES;

	if (agg_opsheet(t, which, bycat ? agg_catcols : ocols))
		agg_sumrows(t, bycat, NULL, NULL);
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

void
agg_sortdu(size_t *perm, size_t n, const double *key, const int64_t *uid)
{
	sk = key;
	su = uid;
	qsort(perm, n, sizeof *perm, cmpdu);
}

/*
 * A group's distinct categories, sorted, into o: "a,b" in the stream,
 * Python's repr of the list in a CSV file.
 */
void
agg_catlist(struct tl_out *o, uint32_t *cats, size_t ncat)
{
	size_t r, j;
	uint32_t c;

	for (r = 1; r < ncat; r++)
		for (j = r; j > 0 && cmpid(cats[j - 1], cats[j]) > 0; j--) {
			c = cats[j];
			cats[j] = cats[j - 1];
			cats[j - 1] = c;
		}
	o->n = 0;
	if (agg_csv)
		tl_out_char(o, '[');
	for (r = 0; r < ncat; r++) {
		const char *s;
		size_t n;

		s = agg_str(cats[r], &n);
		if (r > 0)
			sb_puts(o, agg_csv ? ", " : ",");
		if (agg_csv)
			tl_out_pystr(o, s, n);
		else
			tl_out_raw(o, s, n);
	}
	if (agg_csv)
		tl_out_char(o, ']');
}

/* The key columns of ops_unique_args and the unified perf summary. */
#define COLS_OPKEY \
	{ "name", "name", COL_ID, 0, 0, 0 }, \
	{ "category", "op category", COL_ID, 1, 0, 0 }, \
	{ "process_name", "process_name", COL_ID, 2, 0, 0 }, \
	{ "process_label", "process_label", COL_ID, 3, 0, 0 }, \
	{ "thread_name", "thread_name", COL_ID, 4, 0, 0 }, \
	{ "input_dims", "Input Dims", COL_ARG, 5, 0, 0 }, \
	{ "input_types", "Input type", COL_ARG, 6, 0, 0 }, \
	{ "input_strides", "Input Strides", COL_ARG, 7, 0, 0 }, \
	{ "concrete_inputs", "Concrete Inputs", COL_ARG, 8, 0, 0 }

/*
 * Group R[0..n) by name, category, process and thread names, the four
 * argument columns and the two extra keys; the groups by their sum of
 * time, descending, then by first ex_UID; percentages of the time (us
 * when us is set). A row has the key, count in i[0], ex_UID in i[1],
 * percentages in x[0..1], the kernel details in s[0..1], and what fill
 * adds.
 */
void
agg_argrows(struct table *t, const struct oprow *R, size_t n, int us,
    opfill *fill)
{
	struct grouper g = { 11, NULL, 0, 0, NULL, 0 };
	uint32_t key[11], *grp, *mem, *kev = NULL;
	size_t i, j, ng, *off, *perm, *koff, nk;
	double *sum, *pct, *cum, *a;
	int64_t *uid;
	struct tl_out trunc = MEMOUT;
	struct row row;

	grp = xreallocarray(NULL, n + 1, sizeof *grp);
	for (i = 0; i < n; i++) {
		const struct ev *e = &A->e[R[i].ev];

		key[0] = R[i].name;
		key[1] = R[i].cat;
		key[2] = evmeta(M_PNAME, e);
		key[3] = evmeta(M_PLABEL, e);
		key[4] = evmeta(M_TNAME, e);
		for (j = 0; j < 4; j++)
			key[5 + j] = ev_arg(e, (int)j);
		key[9] = R[i].xk[0];
		key[10] = R[i].xk[1];
		grp[i] = (uint32_t)gfind(&g, key);
	}
	ng = g.ngroup;
	members(grp, n, ng, &off, &mem);
	sum = xcalloc(ng, sizeof *sum);
	pct = xcalloc(ng, sizeof *pct);
	cum = xcalloc(ng, sizeof *cum);
	uid = xcalloc(ng, sizeof *uid);
	perm = xcalloc(ng, sizeof *perm);
	a = xcalloc(n + 1, sizeof *a);
	for (i = 0; i < ng; i++) {
		struct tl_kahan k = { 0, 0 };

		for (j = off[i]; j < off[i + 1]; j++)
			tl_kahan_add(&k, R[mem[j]].time);
		sum[i] = k.s;
		uid[i] = R[mem[off[i]]].uid;
		perm[i] = i;
	}
	agg_sortdu(perm, ng, sum, uid);
	for (i = 0; i < ng; i++)
		a[i] = us ? agg_us(sum[perm[i]]) : sum[perm[i]];
	percents(a, ng, pct, cum);
	koff = xcalloc(n + 2, sizeof *koff);
	for (i = 0; i < ng; i++) {
		size_t gi = perm[i], m = off[gi + 1] - off[gi];
		const uint32_t *mm = mem + off[gi];

		for (nk = 0, j = 0; j < m; j++)
			nk += R[mm[j]].nk;
		kev = xreallocarray(kev, nk + 1, sizeof *kev);
		for (nk = 0, j = 0; j < m; j++) {
			koff[j] = nk;
			memcpy(kev + nk, R[mm[j]].k,
			    R[mm[j]].nk * sizeof *kev);
			nk += R[mm[j]].nk;
		}
		koff[m] = nk;
		kdsummary(&kdfull, &trunc, kev, koff, m);
		memcpy(row.key, &g.key[gi * 11], 9 * sizeof *row.key);
		row.i[0] = (int64_t)m;
		row.i[1] = uid[gi];
		row.x[0] = pct[i];
		row.x[1] = cum[i];
		row.s[0] = &kdfull;
		row.s[1] = &trunc;
		fill(&row, mm, m, a);
		tab_row(t, &row, NULL);
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
	free(kev);
	free(koff);
	free(trunc.buf);
}

/* Statistics of the direct and the subtree kernel time of launchers. */
void
agg_lfill(struct row *r, const uint32_t *mm, size_t m, double *a)
{
	size_t j;

	for (j = 0; j < m; j++)
		a[j] = A->l[mm[j]].direct;
	tl_stats(&r->st[0], a, m);
	for (j = 0; j < m; j++)
		a[j] = A->l[mm[j]].subtree;
	tl_stats(&r->st[1], a, m);
}

/* ops_unique_args (5.4). */
void
unique_args(struct table *t, int which)
{
#define TIMES(nat, tl, s) \
	{ "direct_kernel_time_us_" nat, "total_direct_kernel_time_" tl, \
	    COL_STAT, 0, (s), COL_US }, \
	{ "subtree_kernel_time_us_" nat, "total_subtree_kernel_time_" tl, \
	    COL_STAT, 1, (s), COL_US }
	static const struct col cols[] = {
		COLS_OPKEY,
		{ "count", "operation_count", COL_INT, 0, 0, 0 },
		TIMES("mean", "mean", S_MEAN),
		TIMES("median", "median", S_MEDIAN),
		TIMES("std", "std", S_STD),
		TIMES("min", "min", S_MIN),
		TIMES("max", "max", S_MAX),
		TIMES("sum", "sum", S_SUM),
		{ "ex_uid", "ex_UID", COL_INT, 1, 0, 0 },
		{ "kernels", "kernel_details_summary", COL_STR, 0, 0, 0 },
		{ NULL, "trunc_kernel_details", COL_STR, 1, 0, 0 },
		COLS_PCT(0),
		COLS_END
	};
#undef TIMES
	struct oprow *R;

	if (!agg_opsheet(t, which, cols))
		return;
	if (A->nl == 0) {
		agg_empty(t, "no kernel launchers");
		return;
	}
	R = agg_launcherrows();
	agg_argrows(t, R, A->nl, 0, agg_lfill);
	free(R);
}

/* The launchers as rows of agg_argrows, by direct kernel time. */
struct oprow *
agg_launcherrows(void)
{
	struct oprow *R = xcalloc(A->nl + 1, sizeof *R);
	size_t i;

	for (i = 0; i < A->nl; i++) {
		R[i].ev = A->l[i].ev;
		R[i].name = A->e[A->l[i].ev].name;
		R[i].cat = A->l[i].cat;
		R[i].uid = A->e[A->l[i].ev].uid;
		R[i].time = A->l[i].direct;
		R[i].k = A->lk + A->l[i].k0;
		R[i].nk = A->l[i].nk;
	}
	return R;
}

/* The unified perf summary (5.5). */

struct urow {
	uint32_t ev;		/* the op (or the copy's original) */
	uint32_t name;		/* the row's name */
	int64_t uid;
	uint32_t cat;
	int model;
	uint32_t k0, nk;	/* its GPU events in A->uk, gpu_events order */
	double ktime;		/* busy, ticks */
	double tbs, tflops;	/* NaN when unknown */
};
/*
 * The state of the walk of the unified perf summary, kept from one root to
 * the next and freed at the end of unified.
 */
static struct walk {
	uint8_t *visited, *pmbelow;
	int8_t *solecount;	/* per wrapper: matching ops, capped at 2 */
	uint32_t *solest, *stk;	/* the stacks of solebwd and traverse */
	size_t capsolest, capstk;
} W;

static int
launches(uint32_t i)
{
	return A->e[i].ghi > A->e[i].glo;
}

static int
pmop(uint32_t i)
{
	return A->e[i].kind == TL_K_CPU_OP && launches(i) && has_model(i);
}

/* A GPU event is a child of a cuda_runtime (or python) child of i. */
static int
leaf(uint32_t i, int depth)
{
	uint32_t j, k;

	if (depth > 10)
		return 0;
	for (j = A->kidoff[i]; j < A->kidoff[i + 1]; j++) {
		k = A->kids[j];
		if (TL_K_ISGPU(A->e[k].kind))
			return 1;
		if ((A->e[k].kind == TL_K_RUNTIME ||
		    A->e[k].kind == TL_K_PYTHON) && leaf(k, depth + 1))
			return 1;
	}
	return 0;
}

static int
cmpgpuev(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	uint32_t p = A->e[i].parent, q = A->e[j].parent;

	if (p != q)
		return (p > q) - (p < q);
	return (i > j) - (i < j);
}

static void
collect(uint32_t i, uint32_t name, uint32_t *gev, size_t ng, int model)
{
	struct urow *u;
	size_t j;
	const struct ev *e = &A->e[i];

	xgrow(&A->u, &A->capurow, A->nu + 1, sizeof *A->u);
	u = &A->u[A->nu++];
	memset(u, 0, sizeof *u);
	u->ev = i;
	u->name = name;
	u->uid = e->uid;
	u->model = model;
	xgrow(&A->uk, &A->capuk, A->nuk + ng + 1, sizeof *A->uk);
	u->k0 = (uint32_t)A->nuk;
	u->nk = (uint32_t)ng;
	memcpy(A->uk + A->nuk, gev, ng * sizeof *A->uk);
	sortidx(A->uk + A->nuk, ng, cmpgpuev);
	A->nuk += ng;
	u->ktime = busy(A->uk + u->k0, ng);
	u->cat = idstr(categorize(name, ng > 0 ? A->uk[u->k0] : NONE));
	u->tbs = u->tflops = NAN;
	if (ev_perf(e) != NONE && u->ktime > 0) {
		const struct perf *p = &A->perf[ev_perf(e)];
		double tus = agg_us(u->ktime);

		u->tflops = p->gflops / 1e3 / (tus / 1e6);
		u->tbs = p->bytes / 1e12 / (tus / 1e6);
	}
	for (j = 0; j < ng; j++)
		A->e[gev[j]].flags |= F_COVERED;
}

/* A row for op i and every GPU event below it. */
static void
own(uint32_t i, int model)
{
	collect(i, A->e[i].name, A->gord + A->e[i].glo, A->e[i].ghi -
	    A->e[i].glo, model);
}

static int
nccl_below(uint32_t i)
{
	size_t j;

	for (j = A->e[i].glo; j < A->e[i].ghi; j++)
		if (A->e[A->gord[j]].flags & F_COMM)
			return 1;
	return 0;
}

/* The suffix of a wrapper's name after its last ": ", or NULL. */
static const char *
suffix(uint32_t w, size_t *n)
{
	const char *s, *c = NULL;
	size_t k, j;

	s = agg_str(A->e[w].name, &k);
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

	s = agg_str(A->e[i].name, &k);
	return k >= n && memcmp(s + k - n, suf, n) == 0;
}

/*
 * The sole backward op (5.5): an autograd wrapper (an ancestor within 5
 * levels with fwd_uid) whose forward has a model with a backward
 * category, under which i is the one cpu_op that launches GPU work with
 * the name the wrapper's ends in. Returns the forward, or NONE.
 */
static uint32_t
solebwd(uint32_t i)
{
	uint32_t p = A->e[i].parent, f = NONE, k;
	const struct opcat *c;
	const char *suf;
	size_t sn, sp, j;
	int d;

	for (d = 0; d < 5 && p != NONE; d++, p = A->e[p].parent)
		if (A->e[p].fwd != NONE) {
			f = A->e[p].fwd;
			break;
		}
	if (f == NONE || !has_model(f))
		return NONE;
	if ((c = opcat_id(A->e[f].name)) == NULL || c->bwdcat == NULL)
		return NONE;
	if ((suf = suffix(p, &sn)) == NULL || !endswith(i, suf, sn))
		return NONE;
	if (W.solecount[p] < 0) {
		W.solecount[p] = 0;
		sp = 0;
		xgrow(&W.solest, &W.capsolest, 1, sizeof *W.solest);
		W.solest[sp++] = p;
		while (sp > 0) {
			k = W.solest[--sp];
			if (k != p && A->e[k].kind == TL_K_CPU_OP &&
			    launches(k) && endswith(k, suf, sn) &&
			    W.solecount[p] < 2)
				W.solecount[p]++;
			xgrow(&W.solest, &W.capsolest, sp + A->kidoff[k + 1] -
			    A->kidoff[k] + 1, sizeof *W.solest);
			for (j = A->kidoff[k]; j < A->kidoff[k + 1]; j++)
				if (!TL_K_ISGPU(A->e[A->kids[j]].kind))
					W.solest[sp++] = A->kids[j];
		}
	}
	return W.solecount[p] == 1 ? f : NONE;
}

static void
traverse(uint32_t root)
{
	uint32_t i, j, k, f;
	size_t sp = 0;
	int any;

	xgrow(&W.stk, &W.capstk, 1, sizeof *W.stk);
	W.stk[sp++] = root;
	while (sp > 0) {
		i = W.stk[--sp];
		if (W.visited[i])
			continue;
		W.visited[i] = 1;
		if (A->e[i].kind != TL_K_CPU_OP && !(A->python &&
		    (A->e[i].kind == TL_K_PYTHON ||
		    A->e[i].kind == TL_K_ANNOT)))
			continue;
		if (!launches(i))
			continue;
		if (A->e[i].kind == TL_K_CPU_OP) {
			if (has_model(i)) {
				own(i, 1);
				continue;
			}
			if (!W.pmbelow[i] && (f = solebwd(i)) != NONE) {
				own(i, 2);
				A->u[A->nu - 1].cat =
				    idstr(opcat_id(A->e[f].name)->bwdcat);
				continue;
			}
			if (!W.pmbelow[i] && leaf(i, 0)) {
				any = 0;
				for (j = A->kidoff[i]; j < A->kidoff[i + 1];
				    j++)
					if (pmop(A->kids[j]))
						any = 1;
				if (any) {
					for (j = A->kidoff[i + 1];
					    j-- > A->kidoff[i];) {
						k = A->kids[j];
						if (pmop(k)) {
							xgrow(&W.stk, &W.capstk,
							    sp + 1,
							    sizeof *W.stk);
							W.stk[sp++] = k;
						}
					}
				} else if (!nccl_below(i))
					own(i, 0);
				continue;
			}
		}
		/* Recurse into the children, in order. */
		xgrow(&W.stk, &W.capstk, sp + A->kidoff[i + 1] -
		    A->kidoff[i] + 1, sizeof *W.stk);
		for (j = A->kidoff[i + 1]; j-- > A->kidoff[i];)
			W.stk[sp++] = A->kids[j];
	}
}

static void
unified_rows(void)
{
	size_t i, r;
	uint32_t p, c;
	int64_t maxuid = A->maxuid;

	A->nu = A->nuk = 0;
	W.visited = xcalloc(A->n + 1, 1);
	W.pmbelow = xcalloc(A->n + 1, 1);
	W.solecount = xreallocarray(NULL, A->n + 1, sizeof *W.solecount);
	memset(W.solecount, 0xff, A->n + 1);
	/* pmbelow: a cpu_op with a model that launches, below. */
	for (i = 0; i < A->n; i++) {
		if (!pmop((uint32_t)i))
			continue;
		for (p = A->e[i].parent; p != NONE && !W.pmbelow[p];
		    p = A->e[p].parent)
			W.pmbelow[p] = 1;
	}
	for (i = 0; i < A->n; i++)
		A->e[i].flags &= ~F_COVERED;
	for (r = 0; r < A->nroots; r++)
		traverse(A->roots[r]);
	/* Synthetic ops for the GPU events no row owns. */
	for (i = 0; i < A->n; i++) {
		const struct ev *g = &A->e[i];
		uint32_t gi = (uint32_t)i;

		if (!TL_K_ISGPU(g->kind) ||
		    (g->flags & (F_COVERED | F_COMM)) || g->parent == NONE)
			continue;
		for (p = g->parent; p != NONE; p = A->e[p].parent)
			if (A->e[p].kind == TL_K_CPU_OP)
				break;
		if (p == NONE)
			p = g->parent;
		sb.n = 0;
		{
			const char *s;
			size_t n;

			s = agg_str(A->e[p].name, &n);
			tl_out_raw(&sb, s, n);
			sb_puts(&sb, "->");
			s = agg_str(g->name, &n);
			tl_out_raw(&sb, s, n);
			sb_puts(&sb, " (Synthetic Op)");
		}
		c = tl_intern(A->in, sb.buf, sb.n);
		collect(p, c, &gi, 1, 0);
		A->u[A->nu - 1].uid = ++maxuid;
	}
}

/* Statistics of the unified rows: duration, TB/s, TFLOPS/s, kernel time. */
static void
ufill(struct row *r, const uint32_t *mm, size_t m, double *a)
{
	uint32_t spec = NONE, params = NONE, pi;
	double gf = NAN, by = NAN;
	size_t j, c;

	for (c = 0; c < 4; c++) {
		for (j = 0; j < m; j++) {
			const struct urow *u = &A->u[mm[j]];

			a[j] = c == 0 ? ((A->e[u->ev].flags & F_PSEUDO) ?
			    NAN : ev_dur(&A->e[u->ev])) : c == 1 ? u->tbs :
			    c == 2 ? u->tflops : u->ktime;
		}
		tl_stats(&r->st[c], a, m);
	}
	/* The first values that are there. */
	for (j = 0; j < m; j++) {
		if ((pi = ev_perf(&A->e[A->u[mm[j]].ev])) == NONE)
			continue;
		if (isnan(gf))
			gf = A->perf[pi].gflops;
		if (isnan(by))
			by = A->perf[pi].bytes;
		if (spec == NONE)
			spec = A->perf[pi].spec;
		if (params == NONE)
			params = A->perf[pi].params;
	}
	r->x[2] = gf;
	r->x[3] = by / (1024 * 1024);
	r->x[4] = by != 0 ? gf * 1e9 / by : NAN;	/* as tl-roofline's */
	r->key[9] = spec;
	r->key[10] = params;
	r->i[2] = A->u[mm[0]].model != 0;
}

void
unified(struct table *t, int which)
{
#define KT	"Kernel Time (\xc2\xb5s)_"
#define STAT3(nat, tl, i, f) \
	{ nat "median", tl "median", COL_STAT, (i), S_MEDIAN, (f) }, \
	{ nat "min", tl "min", COL_STAT, (i), S_MIN, (f) }, \
	{ nat "max", tl "max", COL_STAT, (i), S_MAX, (f) }
	static const struct col cols[] = {
		COLS_OPKEY,
		{ "ex_uid", "ex_UID", COL_INT, 1, 0, 0 },
		{ "count", "operation_count", COL_INT, 0, 0, 0 },
		{ "duration_us_sum", "total_duration_us", COL_STAT, 0, S_SUM,
		    COL_US },
		{ "duration_us_mean", "mean_duration_us", COL_STAT, 0, S_MEAN,
		    COL_US },
		{ "duration_us_std", "std_duration_us", COL_STAT, 0, S_STD,
		    COL_US },
		{ "gflop", "GFLOPS", COL_DBL, 2, 0, 0 },
		{ "data_moved_mib", "Data Moved (MB)", COL_DBL, 3, 0, 0 },
		{ "flop_per_byte", "FLOPS/Byte", COL_DBL, 4, 0, 0 },
		{ "compute_spec", "Compute Spec", COL_ID, 9, 0, 0 },
		{ "tb_per_s_mean", "TB/s_mean", COL_STAT, 1, S_MEAN, 0 },
		{ "tb_per_s_std", "TB/s_std", COL_STAT, 1, S_STD, 0 },
		{ "tflop_per_s_mean", "TFLOPS/s_mean", COL_STAT, 2, S_MEAN,
		    0 },
		{ "tflop_per_s_std", "TFLOPS/s_std", COL_STAT, 2, S_STD, 0 },
		{ "kernel_time_us_mean", KT "mean", COL_STAT, 3, S_MEAN,
		    COL_US },
		{ "kernel_time_us_std", KT "std", COL_STAT, 3, S_STD, COL_US },
		{ "kernel_time_us_sum", KT "sum", COL_STAT, 3, S_SUM, COL_US },
		STAT3("duration_us_", "duration_us_", 0, COL_US),
		STAT3("tb_per_s_", "TB/s_", 1, 0),
		STAT3("tflop_per_s_", "TFLOPS/s_", 2, 0),
		STAT3("kernel_time_us_", KT, 3, COL_US),
		{ "kernels", "kernel_details_summary", COL_STR, 0, 0, 0 },
		{ NULL, "trunc_kernel_details", COL_STR, 1, 0, 0 },
		{ "perf_params", "perf_params", COL_ARG, 10, 0, 0 },
		{ "has_perf_model", "has_perf_model", COL_BOOL, 2, 0, 0 },
		COLS_PCT(0),
		COLS_END
	};
#undef KT
#undef STAT3
	struct oprow *R;
	size_t i;

	if (!agg_opsheet(t, which, cols))
		return;
	unified_rows();
	if (A->nu == 0)
		agg_empty(t, "no ops that launch GPU work");
	else {
		R = xcalloc(A->nu, sizeof *R);
		for (i = 0; i < A->nu; i++) {
			R[i].ev = A->u[i].ev;
			R[i].name = A->u[i].name;
			R[i].cat = A->u[i].cat;
			R[i].uid = A->u[i].uid;
			R[i].time = A->u[i].ktime;
			R[i].k = A->uk + A->u[i].k0;
			R[i].nk = A->u[i].nk;
		}
		agg_argrows(t, R, A->nu, 1, ufill);
		free(R);
	}
	free(W.visited);
	free(W.pmbelow);
	free(W.solecount);
	free(W.solest);
	free(W.stk);
	memset(&W, 0, sizeof W);
}

