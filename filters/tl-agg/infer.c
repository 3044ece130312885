/*
 * tl-agg: the ops sheets of TraceLens's inference report (inference spec
 * 3.3 to 3.7), with -I: ops by category, by name and by argument shapes,
 * grouped also by the op's parent nn.Module (-I module) and, in
 * ops_unique_args, by its number of kernels (-I kernels), each group with
 * the call stack of its first op.
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/mem.h"
#include "../../common/opt.h"
#include "../../common/npsort.h"
#include "../../common/pyfmt.h"
#include "agg.h"

int agg_infer;			/* -I given: I_* */

/* Per launcher (index into A->l): its parent module, its call stack. */
static uint32_t *pmod, *cstack;

/* The call stack and parent module of every launcher (3.3). */
static void
stacks(void)
{
	struct tl_out cs = MEMOUT, pm = MEMOUT;
	size_t i, k, n, cut;
	uint32_t a;
	const char *s;

	free(pmod);
	free(cstack);
	pmod = xcalloc(A->nl + 1, sizeof *pmod);
	cstack = xcalloc(A->nl + 1, sizeof *cstack);
	for (i = 0; i < A->nl; i++) {
		uint32_t ev = A->l[i].ev, first = NONE;

		cs.n = 0;
		tl_out_char(&cs, '[');
		s = agg_str(A->e[ev].name, &n);
		tl_out_pystr(&cs, s, n);
		for (a = A->e[ev].parent; a != NONE; a = A->e[a].parent) {
			s = agg_str(A->e[a].name, &n);
			if (utf8_cut(s, n, 256, &cut)) {
				pm.n = 0;
				tl_out_raw(&pm, s, cut);
				sb_puts(&pm, "..");
				s = pm.buf;
				n = pm.n;
			}
			if (!has(s, n, "nn.Module"))
				continue;
			if (first == NONE)
				first = a;
			sb_puts(&cs, ", ");
			tl_out_pystr(&cs, s, n);
			if (pmod[i] == 0) {
				/* every _<digits> removed */
				struct tl_out o = MEMOUT;

				for (k = 0; k < n; k++) {
					size_t d = k + 1;

					while (s[k] == '_' && d < n &&
					    s[d] >= '0' && s[d] <= '9')
						d++;
					if (s[k] == '_' && d > k + 1) {
						k = d - 1;
						continue;
					}
					tl_out_char(&o, s[k]);
				}
				pmod[i] = tl_intern(A->in, o.n ? o.buf : "",
				    o.n) + 1;
				free(o.buf);
			}
		}
		tl_out_char(&cs, ']');
		cstack[i] = tl_intern(A->in, cs.buf, cs.n);
		pmod[i] = pmod[i] == 0 ? idstr("NA") : pmod[i] - 1;
	}
	free(cs.buf);
	free(pm.buf);
}

struct igrp {
	uint32_t key[2];
	size_t n, first;
	struct tl_kahan d, s;
	uint32_t cats[64];
	size_t ncat;
};

static int
cmpigrp(const void *a, const void *b)
{
	const struct igrp *x = a, *y = b;
	int c = cmpid(x->key[0], y->key[0]);

	return c != 0 ? c : cmpid(x->key[1], y->key[1]);
}

/* ops_summary_by_category (3.5) and ops_summary (3.6), -I. */
void
iopsums(struct table *t, int which)
{
	static const struct col ccols[] = {
		{ "category", "op category", COL_ID, 0, 0, 0 },
		{ "count", "Count", COL_INT, 0, 0, 0 },
		{ "kernel_time_ms", "total_direct_kernel_time_ms", COL_DBL, 0,
		    0, COL_MS },
		COLS_PCT(1),
		COLS_END
	}, mcols[] = {
		{ "category", "op category", COL_ID, 0, 0, 0 },
		{ "parent_module", "parent_module", COL_ID, 1, 0, 0 },
		{ "count", "Count", COL_INT, 0, 0, 0 },
		{ "call_stack_first", "call_stack_first", COL_ID, 2, 0, 0 },
		{ "kernel_time_ms", "total_direct_kernel_time_ms", COL_DBL, 0,
		    0, COL_MS },
		COLS_PCT(1),
		COLS_END
	}, ocols[] = {
		{ "name", "name", COL_ID, 0, 0, 0 },
		{ "direct_kernel_time_us_sum", "total_direct_kernel_time_sum",
		    COL_DBL, 0, 0, COL_US },
		{ "subtree_kernel_time_us_sum",
		    "total_subtree_kernel_time_sum", COL_DBL, 3, 0, COL_US },
		{ NULL, "total_subtree_kernel_time_count", COL_INT, 0, 0, 0 },
		{ NULL, "total_direct_kernel_time_ms", COL_DBL, 0, 0, COL_MS },
		{ "count", "Count", COL_INT, 0, 0, 0 },
		{ "categories", "Categories", COL_STR, 0, 0, 0 },
		COLS_PCT(1),
		COLS_END
	}, omcols[] = {
		{ "name", "name", COL_ID, 0, 0, 0 },
		{ "parent_module", "parent_module", COL_ID, 1, 0, 0 },
		{ "direct_kernel_time_us_sum", "total_direct_kernel_time_sum",
		    COL_DBL, 0, 0, COL_US },
		{ "subtree_kernel_time_us_sum",
		    "total_subtree_kernel_time_sum", COL_DBL, 3, 0, COL_US },
		{ NULL, "total_subtree_kernel_time_count", COL_INT, 0, 0, 0 },
		{ NULL, "total_direct_kernel_time_ms", COL_DBL, 0, 0, COL_MS },
		{ "count", "Count", COL_INT, 0, 0, 0 },
		{ "categories", "Categories", COL_STR, 0, 0, 0 },
		{ "call_stack_first", "call_stack_first", COL_ID, 2, 0, 0 },
		COLS_PCT(1),
		COLS_END
	};
	struct row row;
	struct grouper g = { 2, NULL, 0, 0, NULL, 0 };
	struct igrp *G = NULL;
	size_t i, j, r, ng, *perm, capg = 0;
	double *key, *ms, *pct, *cum;
	uint32_t k[2], c;
	int bycat = which == T_ICATS, mod = agg_infer & I_MODULE;

	if (t->name != NULL)
		return;		/* built by infer_sheets */
	tab_cols(t, which, bycat ? (mod ? mcols : ccols) : (mod ? omcols :
	    ocols));
	if (A->gpuonly) {
		t->skip = 1;
		return;
	}
	launchers();
	stacks();
	for (i = 0; i < A->nl; i++) {
		k[0] = bycat ? A->l[i].cat : A->e[A->l[i].ev].name;
		k[1] = mod ? pmod[i] : 0;
		r = g.ngroup;
		j = gfind(&g, k);
		if (g.ngroup > r) {
			xgrow(&G, &capg, g.ngroup, sizeof *G);
			memset(&G[j], 0, sizeof G[j]);
			G[j].key[0] = k[0];
			G[j].key[1] = mod ? k[1] : NONE;
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
	qsort(G, ng, sizeof *G, cmpigrp);
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
		struct igrp *p = &G[perm[i]];

		row.key[0] = p->key[0];
		row.key[1] = p->key[1];
		row.key[2] = cstack[p->first];
		row.i[0] = (int64_t)p->n;
		row.x[0] = p->d.s;
		row.x[1] = pct[i];
		row.x[2] = cum[i];
		row.x[3] = p->s.s;
		row.s[0] = &sb;
		if (!bycat) {
			for (r = 1; r < p->ncat; r++)
				for (j = r; j > 0 && cmpid(p->cats[j - 1],
				    p->cats[j]) > 0; j--) {
					c = p->cats[j];
					p->cats[j] = p->cats[j - 1];
					p->cats[j - 1] = c;
				}
			sb.n = 0;
			if (agg_csv)
				tl_out_char(&sb, '[');
			for (r = 0; r < p->ncat; r++) {
				const char *s;
				size_t n;

				s = agg_str(p->cats[r], &n);
				if (r > 0)
					sb_puts(&sb, agg_csv ? ", " : ",");
				if (agg_csv)
					tl_out_pystr(&sb, s, n);
				else
					tl_out_raw(&sb, s, n);
			}
			if (agg_csv)
				tl_out_char(&sb, ']');
		}
		tab_row(t, &row, NULL);
	}
	free(G);
	free(key);
	free(ms);
	free(pct);
	free(cum);
	free(perm);
}

/* Sort groups: sum desc, then ex_UID asc (stable). */
static const double *sk;
static const int64_t *su;

static int
cmpdu(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double x = sk[i], y = sk[j];

	if (x != y) {
		if (x != x || y != y)
			return x != x ? 1 : -1;
		return x > y ? -1 : 1;
	}
	if (su[i] != su[j])
		return su[i] < su[j] ? -1 : 1;
	return (i > j) - (i < j);
}

/* ops_unique_args (3.7), -I. */
void
iunique(struct table *t, int which)
{
#define TIMES(nat, tl, s) \
	{ "direct_kernel_time_us_" nat, "total_direct_kernel_time_" tl, \
	    COL_STAT, 0, (s), COL_US }, \
	{ "subtree_kernel_time_us_" nat, "total_subtree_kernel_time_" tl, \
	    COL_STAT, 1, (s), COL_US }
	static const struct col head[] = {
		{ "name", "name", COL_ID, 0, 0, 0 },
		{ "category", "op category", COL_ID, 1, 0, 0 },
		{ "parent_module", "parent_module", COL_ID, 10, 0, 0 },
		{ "process_name", "process_name", COL_ID, 2, 0, 0 },
		{ "process_label", "process_label", COL_ID, 3, 0, 0 },
		{ "thread_name", "thread_name", COL_ID, 4, 0, 0 },
		{ "input_dims", "Input Dims", COL_ARG, 5, 0, 0 },
		{ "input_types", "Input type", COL_ARG, 6, 0, 0 },
		{ "input_strides", "Input Strides", COL_ARG, 7, 0, 0 },
		{ "concrete_inputs", "Concrete Inputs", COL_ARG, 8, 0, 0 },
		{ "num_kernels", "num_kernels", COL_INT, 2, 0, 0 },
		{ "count", "operation_count", COL_INT, 0, 0, 0 },
		TIMES("mean", "mean", S_MEAN),
		TIMES("median", "median", S_MEDIAN),
		TIMES("std", "std", S_STD),
		TIMES("min", "min", S_MIN),
		TIMES("max", "max", S_MAX),
		TIMES("sum", "sum", S_SUM),
		{ "ex_uid", "ex_UID", COL_INT, 1, 0, 0 },
		{ "call_stack", "call_stack", COL_ID, 11, 0, 0 },
		{ "kernels", "kernel_details_summary", COL_STR, 0, 0, 0 },
		{ NULL, "trunc_kernel_details", COL_STR, 1, 0, 0 },
		COLS_PCT(0),
		COLS_END
	};
#undef TIMES
	static struct col cols[sizeof head / sizeof head[0]];
	int mod = agg_infer & I_MODULE, nk = agg_infer & I_KERNELS;
	struct grouper g = { 11, NULL, 0, 0, NULL, 0 };
	uint32_t key[11], *grp, *mem, *kev = NULL;
	size_t i, j, m, ng, *off, *perm, *koff, nkk;
	double *sum, *pct, *cum, *a;
	int64_t *uid;
	struct tl_out trunc = MEMOUT;
	struct row row;

	if (t->name != NULL)
		return;		/* built by infer_sheets */
	for (i = 0, m = 0; i < sizeof head / sizeof head[0]; i++) {
		const char *n = head[i].tl != NULL ? head[i].tl : "";

		if ((!mod && (strcmp(n, "parent_module") == 0 ||
		    strcmp(n, "call_stack") == 0)) ||
		    (!nk && strcmp(n, "num_kernels") == 0))
			continue;
		cols[m++] = head[i];
	}
	tab_cols(t, which, cols);
	if (A->gpuonly) {
		t->skip = 1;
		return;
	}
	launchers();
	if (A->nl == 0) {
		agg_empty(t, "no kernel launchers");
		return;
	}
	stacks();
	grp = xreallocarray(NULL, A->nl + 1, sizeof *grp);
	for (i = 0; i < A->nl; i++) {
		const struct ev *e = &A->e[A->l[i].ev];

		key[0] = e->name;
		key[1] = A->l[i].cat;
		key[2] = evmeta(M_PNAME, e);
		key[3] = evmeta(M_PLABEL, e);
		key[4] = evmeta(M_TNAME, e);
		memcpy(key + 5, e->arg, sizeof e->arg);
		key[9] = nk ? A->l[i].nk : 0;
		key[10] = mod ? pmod[i] : 0;
		grp[i] = (uint32_t)gfind(&g, key);
	}
	ng = g.ngroup;
	members(grp, A->nl, ng, &off, &mem);
	sum = xcalloc(ng, sizeof *sum);
	pct = xcalloc(ng, sizeof *pct);
	cum = xcalloc(ng, sizeof *cum);
	uid = xcalloc(ng, sizeof *uid);
	perm = xcalloc(ng, sizeof *perm);
	a = xcalloc(A->nl + 1, sizeof *a);
	for (i = 0; i < ng; i++) {
		struct tl_kahan k = { 0, 0 };

		for (j = off[i]; j < off[i + 1]; j++)
			tl_kahan_add(&k, A->l[mem[j]].direct);
		sum[i] = k.s;
		uid[i] = A->e[A->l[mem[off[i]]].ev].uid;
		perm[i] = i;
	}
	sk = sum;
	su = uid;
	qsort(perm, ng, sizeof *perm, cmpdu);
	for (i = 0; i < ng; i++)
		a[i] = sum[perm[i]];
	percents(a, ng, pct, cum);
	koff = xcalloc(A->nl + 2, sizeof *koff);
	for (i = 0; i < ng; i++) {
		size_t gi = perm[i];
		const uint32_t *mm = mem + off[gi];

		m = off[gi + 1] - off[gi];
		for (nkk = 0, j = 0; j < m; j++)
			nkk += A->l[mm[j]].nk;
		kev = xreallocarray(kev, nkk + 1, sizeof *kev);
		for (nkk = 0, j = 0; j < m; j++) {
			koff[j] = nkk;
			memcpy(kev + nkk, A->lk + A->l[mm[j]].k0,
			    A->l[mm[j]].nk * sizeof *kev);
			nkk += A->l[mm[j]].nk;
		}
		koff[m] = nkk;
		kdsummary(&kdfull, &trunc, kev, koff, m);
		memcpy(row.key, &g.key[gi * 11], 9 * sizeof *row.key);
		row.key[10] = pmod[mm[0]];
		row.key[11] = cstack[mm[0]];
		row.i[0] = (int64_t)m;
		row.i[1] = uid[gi];
		row.i[2] = A->l[mm[0]].nk;
		row.x[0] = pct[i];
		row.x[1] = cum[i];
		row.s[0] = &kdfull;
		row.s[1] = &trunc;
		for (j = 0; j < m; j++)
			a[j] = A->l[mm[j]].direct;
		tl_stats(&row.st[0], a, m);
		for (j = 0; j < m; j++)
			a[j] = A->l[mm[j]].subtree;
		tl_stats(&row.st[1], a, m);
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

/*
 * Build the tables of -I with the other ops sheets, before the times
 * turn exact for the HTA tables (which build what comes after them in
 * the registry, and so would these).
 */
void
infer_sheets(struct table *tabs)
{
	int i;

	for (i = T_ICATS; i <= T_IUNIQUE; i++)
		if (agg_want[i])
			agg_tab[i].build(&tabs[i], i);
}

/* Which tables -I and -C want: the inference ops sheets in place of the
 * standard ones, or none of them without -I. */
void
infer_want(int *want, int csv)
{
	if (!agg_infer) {
		want[T_ICATS] = want[T_IOPS] = want[T_IUNIQUE] = 0;
		return;
	}
	if (csv)
		want[T_CATEGORIES] = want[T_OPS] = want[T_UNIQUE] = 0;
}

/* The value of -I: a comma-separated list of "report", "module",
 * "kernels". */
int
infer_opt(char *s)
{
	char **v = NULL;
	size_t n = 0, i;
	int f = I_ON;

	tl_optlist(s, &v, &n);
	for (i = 0; i < n; i++) {
		if (strcmp(v[i], "module") == 0)
			f |= I_MODULE;
		else if (strcmp(v[i], "kernels") == 0)
			f |= I_KERNELS;
		else if (strcmp(v[i], "report") != 0)
			tl_errx(1, "-I: unknown word \"%s\" (report, module, "
			    "kernels)", v[i]);
	}
	free(v);
	return f;
}
