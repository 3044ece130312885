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
static void unified_stacks(struct table *);

/* Per launcher (index into A->l): its parent module, its call stack. */
static uint32_t *pmod, *cstack;

/*
 * What a frame adds to the call stacks below it, per name id: its name
 * cut to 256 code points (and "..") as TraceLens's call stack has it,
 * when that is an nn.Module frame: ", " and the name's repr (piece), and
 * the name with every _<digits> removed (pmod); else nothing.
 */
struct frame {
	uint32_t piece, pmod;	/* interned; NONE: not a module frame */
	uint8_t known;
};

static const struct frame *
frameof(struct frame **fr, size_t *cap, uint32_t name)
{
	static struct tl_out pm = MEMOUT, o = MEMOUT, pc = MEMOUT;
	struct frame *f;
	const char *s;
	size_t n, cut, k;

	if (name >= *cap) {
		size_t old = *cap;

		xgrow(fr, cap, (size_t)name + 1, sizeof **fr);
		memset(*fr + old, 0, (*cap - old) * sizeof **fr);
	}
	f = &(*fr)[name];
	if (f->known)
		return f;
	f->known = 1;
	f->piece = f->pmod = NONE;
	s = agg_str(name, &n);
	if (utf8_cut(s, n, 256, &cut)) {
		pm.n = 0;
		tl_out_raw(&pm, s, cut);
		sb_puts(&pm, "..");
		s = pm.buf;
		n = pm.n;
	}
	if (!has(s, n, "nn.Module"))
		return f;
	pc.n = 0;
	sb_puts(&pc, ", ");
	tl_out_pystr(&pc, s, n);
	f->piece = tl_intern(A->in, pc.buf, pc.n);
	/* every _<digits> removed */
	o.n = 0;
	for (k = 0; k < n; k++) {
		size_t d = k + 1;

		while (s[k] == '_' && d < n && s[d] >= '0' && s[d] <= '9')
			d++;
		if (s[k] == '_' && d > k + 1) {
			k = d - 1;
			continue;
		}
		tl_out_char(&o, s[k]);
	}
	f->pmod = tl_intern(A->in, o.n ? o.buf : "", o.n);
	return f;
}

/*
 * The call stack and parent module of every launcher (3.3): the launcher
 * and the nn.Module frames above it, innermost first; the innermost
 * one's name. What the frames above an event add is the same for every
 * launcher below it: kept per event (suf, the text after the launcher's
 * own name; top, the innermost module), each made once.
 */
static void
stacks(void)
{
	struct tl_out cs = MEMOUT;
	struct frame *fr = NULL;
	size_t capfr = 0, i, n, sp, capstk = 0;
	uint32_t *suf, *top, *stk = NULL, a, empty;
	const char *s;

	if (A->stacks_done)
		return;
	A->stacks_done = 1;
	free(pmod);
	free(cstack);
	pmod = xcalloc(A->nl + 1, sizeof *pmod);
	cstack = xcalloc(A->nl + 1, sizeof *cstack);
	suf = xmalloc((A->n + 1) * sizeof *suf);
	top = xmalloc((A->n + 1) * sizeof *top);
	memset(suf, 0xff, (A->n + 1) * sizeof *suf);	/* NONE: not yet */
	empty = tl_intern(A->in, "", 0);
	for (i = 0; i < A->nl; i++) {
		uint32_t ev = A->l[i].ev, p = A->e[ev].parent, su, tp;

		/* the chain up to an event already made, then down it */
		for (sp = 0, a = p; a != NONE && suf[a] == NONE;
		    a = A->e[a].parent) {
			xgrow(&stk, &capstk, sp + 1, sizeof *stk);
			stk[sp++] = a;
		}
		su = a == NONE ? empty : suf[a];
		tp = a == NONE ? NONE : top[a];
		while (sp > 0) {
			const struct frame *f;

			a = stk[--sp];
			f = frameof(&fr, &capfr, A->e[a].name);
			if (f->piece != NONE) {
				size_t pn, un;
				const char *ps = agg_str(f->piece, &pn);
				const char *us = agg_str(su, &un);

				cs.n = 0;
				tl_out_raw(&cs, ps, pn);
				tl_out_raw(&cs, us, un);
				su = tl_intern(A->in, cs.buf, cs.n);
				tp = f->pmod;
			}
			suf[a] = su;
			top[a] = tp;
		}
		if (p == NONE) {
			su = empty;
			tp = NONE;
		}
		cs.n = 0;
		tl_out_char(&cs, '[');
		s = agg_str(A->e[ev].name, &n);
		tl_out_pystr(&cs, s, n);
		s = agg_str(su, &n);
		tl_out_raw(&cs, s, n);
		tl_out_char(&cs, ']');
		cstack[i] = tl_intern(A->in, cs.buf, cs.n);
		pmod[i] = tp == NONE ? idstr("NA") : tp;
	}
	free(cs.buf);
	free(fr);
	free(suf);
	free(top);
	free(stk);
}

/* ops_summary_by_category (3.5) and ops_summary (3.6), -I. */
void
iopsums(struct table *t, int which)
{
	static const struct col mcols[] = {
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
	int bycat = which == T_ICATS, mod = agg_infer & I_MODULE;

	if (t->name != NULL)
		return;		/* built by infer_sheets */
	if (!agg_opsheet(t, which, bycat ? (mod ? mcols : agg_catcols) :
	    (mod ? omcols : ocols)))
		return;
	stacks();
	agg_sumrows(t, bycat, mod ? pmod : NULL, cstack);
}


/* A group's parent module, call stack and number of kernels (its first
 * launcher's), and the launchers' statistics. */
static void
ifill(struct row *r, const uint32_t *mm, size_t m, double *a)
{
	r->key[10] = pmod[mm[0]];
	r->key[11] = cstack[mm[0]];
	r->i[2] = A->l[mm[0]].nk;
	agg_lfill(r, mm, m, a);
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
	struct oprow *R;
	size_t i, m;

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
	if (!agg_opsheet(t, which, cols))
		return;
	if (A->nl == 0) {
		agg_empty(t, "no kernel launchers");
		return;
	}
	stacks();
	R = agg_launcherrows();
	for (i = 0; i < A->nl; i++) {
		R[i].xk[0] = nk ? A->l[i].nk : 0;
		R[i].xk[1] = mod ? pmod[i] : 0;
	}
	agg_argrows(t, R, A->nl, 0, ifill);
	free(R);
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
	if ((agg_infer & I_STACK) && agg_want[T_UNIFIED] && agg_csv &&
	    tabs[T_UNIFIED].name != NULL)
		unified_stacks(&tabs[T_UNIFIED]);
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
		else if (strcmp(v[i], "stack") == 0)
			f |= I_STACK;
		else if (strcmp(v[i], "report") != 0)
			tl_errx(1, "-I: unknown word \"%s\" (report, module, "
			    "kernels, stack)", v[i]);
	}
	free(v);
	return f;
}

/* ---- unified_perf_summary's call stacks (-I stack, spec 3.8) ---- */

/* A call stack: names (not NUL-terminated) as pointers and lengths. */
struct chain {
	const char **s;
	size_t *n;
	size_t len, cap;
	char *own;		/* the stripped names, one buffer */
	size_t ownn, owncap;
};

static void
cpush(struct chain *c, const char *s, size_t n)
{
	if (c->len == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->s = xreallocarray(c->s, c->cap, sizeof *c->s);
		c->n = xreallocarray(c->n, c->cap, sizeof *c->n);
	}
	c->s[c->len] = s;
	c->n[c->len++] = n;
}

/* The stripped name of event i (every _<digits> removed), interned. */
static uint32_t
stripped(uint32_t name)
{
	static struct tl_out o = MEMOUT;
	size_t n, k, d;
	const char *s = agg_str(name, &n);

	o.n = 0;
	for (k = 0; k < n; k++) {
		for (d = k + 1; s[k] == '_' && d < n && s[d] >= '0' &&
		    s[d] <= '9'; d++)
			;
		if (s[k] == '_' && d > k + 1) {
			k = d - 1;
			continue;
		}
		tl_out_char(&o, s[k]);
	}
	return tl_intern(A->in, o.n ? o.buf : "", o.n);
}

/* The call stack of GPU event k, top-down: its ancestors whose name has
 * nn.Module, :: or /, or that are cpu_ops, stripped; then k's name. */
static void
kchain(uint32_t k, struct chain *c)
{
	uint32_t a, *up = NULL;
	size_t nup = 0, cap = 0, i, n, q = SIZE_MAX;
	const char *s;

	c->len = 0;
	for (a = A->e[k].parent; a != NONE; a = A->e[a].parent) {
		s = agg_str(A->e[a].name, &n);
		if (A->e[a].kind != TL_K_CPU_OP && !has(s, n, "nn.Module") &&
		    !has(s, n, "::") && !has(s, n, "/"))
			continue;
		if ((A->e[a].flags & F_PSEUDO) && q == SIZE_MAX)
			q = nup;
		xgrow(&up, &cap, nup + 1, sizeof *up);
		up[nup++] = stripped(A->e[a].name);
	}
	/*
	 * Below a pseudo op (up[q]) the stack is the op's, then the
	 * kernel's own path up, which TraceLens takes past the pseudo op
	 * (its launch's parent is still the op's): the frames above the
	 * pseudo op come twice.
	 */
	for (i = nup; i > 0; i--) {
		s = agg_str(up[i - 1], &n);
		cpush(c, s, n);
		if (i - 1 == q) {
			size_t j;

			for (j = nup; j > q + 1; j--) {
				s = agg_str(up[j - 1], &n);
				cpush(c, s, n);
			}
		}
	}
	s = agg_str(A->e[k].name, &n);
	cpush(c, s, n);
	free(up);
}

static int
same(const char *a, size_t an, const char *b, size_t bn)
{
	return an == bn && memcmp(a, b, an) == 0;
}

/* The function part of a frame: after the last "): ", or all of it. */
static void
funcpart(const char *s, size_t n, const char **f, size_t *fn)
{
	size_t i;

	*f = s;
	*fn = n;
	for (i = n; i >= 3; i--)
		if (memcmp(s + i - 3, "): ", 3) == 0) {
			*f = s + i;
			*fn = n - i;
			return;
		}
}

static int
wrapper(const char *s, size_t n)
{
	static const char *const sub[] = {
		"torch/_ops.py", "torch/nn/modules/module.py",
		"torch/utils/_contextlib.py", "torch/utils/_device.py",
		"torch/_tensor.py", "torch/functional.py", "torch/overrides.py",
		"torch/_inductor/", "torch/_functorch/",
		"torch/distributed/c10d_logger.py", "triton/backends/", NULL
	}, *const fns[] = {
		"__torch_function__", "_call_impl", "_wrapped_call_impl",
		"decorate_context", "dispatch_wrapper", "handle_torch_function",
		"wrapper", "custom_wrapper", "wrapper_custom", "outer_wrapper",
		NULL
	};
	const char *f;
	size_t fn;
	int i;

	if ((n >= 9 && memcmp(s, "<built-in", 9) == 0) || (n >= 17 &&
	    memcmp(s, "pybind11_builtins", 17) == 0) || (n >= 10 &&
	    memcmp(s, "nn.Module:", 10) == 0))
		return 1;
	for (i = 0; sub[i] != NULL; i++)
		if (has(s, n, sub[i]))
			return 1;
	funcpart(s, n, &f, &fn);
	for (i = 0; fns[i] != NULL; i++)
		if (same(f, fn, fns[i], strlen(fns[i])))
			return 1;
	return 0;
}

/* The entry point of op name among the flat frames of its stack. */
static void
entry(const struct chain *fl, const char *name, size_t nn,
    struct tl_out *o)
{
	size_t i, op = SIZE_MAX, ln, k;
	const char *loc = name;
	char low[512];

	for (i = fl->len; i > 0 && op == SIZE_MAX; i--)
		if (same(fl->s[i - 1], fl->n[i - 1], name, nn))
			op = i - 1;
	if (op == SIZE_MAX) {
		size_t m = nn;

		for (k = nn; k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9';
		    k--)
			;
		if (k < nn && k > 0 && name[k - 1] == '_')
			m = k - 1;
		for (i = fl->len; i > 0 && op == SIZE_MAX && m < nn; i--)
			if (same(fl->s[i - 1], fl->n[i - 1], name, m))
				op = i - 1;
	}
	o->n = 0;
	if (op == SIZE_MAX) {
		sb_puts(o, "Not found");
		return;
	}
	for (k = nn; k >= 2; k--)
		if (name[k - 2] == ':' && name[k - 1] == ':') {
			loc = name + k;
			break;
		}
	ln = (size_t)(name + nn - loc);
	if (ln >= sizeof low)
		ln = sizeof low - 1;
	for (k = 0; k < ln; k++)
		low[k] = (char)(loc[k] >= 'A' && loc[k] <= 'Z' ? loc[k] + 32 :
		    loc[k]);
	for (i = op + 1; i < fl->len; i++) {
		const char *f;
		size_t fn;

		if (!has(fl->s[i], fl->n[i], ".py"))
			continue;
		funcpart(fl->s[i], fl->n[i], &f, &fn);
		if (ln > 0) {
			char *lf = xmemdup(f, fn);

			for (k = 0; k < fn; k++)
				if (lf[k] >= 'A' && lf[k] <= 'Z')
					lf[k] += 32;
			low[ln] = '\0';
			if (has(lf, fn, low)) {
				free(lf);
				tl_out_raw(o, fl->s[i], fl->n[i]);
				return;
			}
			free(lf);
		}
	}
	for (i = op; i > 0; i--) {
		if (!has(fl->s[i - 1], fl->n[i - 1], ".py") ||
		    wrapper(fl->s[i - 1], fl->n[i - 1]))
			continue;
		tl_out_raw(o, fl->s[i - 1], fl->n[i - 1]);
		return;
	}
	sb_puts(o, "Not found");
}

static void
putlist(struct tl_out *o, const char *const *s, const size_t *n, size_t a,
    size_t b)
{
	size_t i;

	tl_out_char(o, '[');
	for (i = a; i < b; i++) {
		if (i > a)
			sb_puts(o, ", ");
		tl_out_pystr(o, s[i], n[i]);
	}
	tl_out_char(o, ']');
}

/*
 * The kernel names of a kernel_details_summary cell, decoded from their
 * Python reprs into own (offsets ko, lengths kl): '...' or "..." with
 * the escapes \\, \', \", \n, \r, \t and \xNN. Returns how many.
 */
static size_t
synthnames(const char *p, size_t n, struct tl_out *own, size_t **ko,
    size_t **kl, size_t *cap)
{
	size_t i, m = 0;

	for (i = 0; i + 10 <= n; i++) {
		char q;

		if (memcmp(p + i, "{'name': ", 9) != 0)
			continue;
		i += 9;
		q = p[i++];
		if (q != '\'' && q != '"')
			continue;
		xgrow(ko, cap, m + 1, sizeof **ko);
		*kl = xreallocarray(*kl, *cap, sizeof **kl);
		(*ko)[m] = own->n;
		for (; i < n && p[i] != q; i++) {
			char c = p[i];

			if (c == '\\' && i + 1 < n) {
				c = p[++i];
				if (c == 'n')
					c = '\n';
				else if (c == 't')
					c = '\t';
				else if (c == 'r')
					c = '\r';
				else if (c == 'x' && i + 2 < n) {
					char h[3] = { p[i + 1], p[i + 2], 0 };

					c = (char)strtol(h, NULL, 16);
					i += 2;
				}
			}
			tl_out_char(own, c);
		}
		(*kl)[m] = own->n - (*ko)[m];
		m++;
	}
	return m;
}

static int
tcol(const struct table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncol; i++)
		if (strcmp(t->col[i], name) == 0)
			return (int)i;
	return -1;
}

/*
 * Add entry_point and call_stack_full before the percentages of the
 * unified table t: from the kernels of each group's first op (ex_UID),
 * in the order of its kernel_details_summary.
 */
static void
unified_stacks(struct table *t)
{
	int cn = tcol(t, "name"), cu = tcol(t, "ex_UID");
	int ck = tcol(t, "kernel_details_summary");
	int cp = tcol(t, "Percentage (%)");
	size_t nrow = tab_nrow(t), ncol = t->ncol, r, i, j, m;
	struct cell *old;
	const char **col;
	uint32_t *kk = NULL;
	size_t capk = 0;
	struct chain *ch = NULL, fl = { 0 };
	size_t capch = 0;
	struct tl_out csf = MEMOUT, ep = MEMOUT, rep = MEMOUT;
	uint8_t *used = NULL;
	size_t capused = 0, *ko = NULL, *kl = NULL, capko = 0;
	struct tl_out own = MEMOUT;

	if (cn < 0 || cu < 0 || ck < 0 || cp < 0)
		return;
	old = t->c;
	t->c = NULL;
	t->capcell = t->ncell = 0;
	col = xcalloc(ncol + 3, sizeof *col);
	for (i = 0, j = 0; i < ncol; i++) {
		if ((int)i == cp) {
			col[j++] = "entry_point";
			col[j++] = "call_stack_full";
		}
		col[j++] = t->col[i];
	}
	for (r = 0; r < nrow; r++) {
		const struct cell *rc = old + r * ncol;
		const char *name = t->s.buf + rc[cn].v.s.off;
		size_t nn = rc[cn].v.s.len, nk = 0, cellat;
		const char *kds = t->s.buf + rc[ck].v.s.off;
		size_t kdn = rc[ck].v.s.len;
		int64_t uid = rc[cu].t == V_INT ? rc[cu].v.i : -1;
		uint32_t e = uid >= 0 ? agg_lookup(uid) : NONE;
		int synth = nn > 15 && memcmp(name + nn - 15,
		    " (Synthetic Op)", 15) == 0;

		/* the kernels, in kernel_details_summary's order */
		if (synth) {
			/* a synthetic op: each kernel's name alone */
			own.n = 0;
			nk = synthnames(kds, kdn, &own, &ko, &kl, &capko);
		} else if (e != NONE) {
			const struct ev *ev = &A->e[e];

			m = ev->ghi - ev->glo;
			xgrow(&used, &capused, m + 1, 1);
			memset(used, 0, m + 1);
			xgrow(&kk, &capk, m + 1, sizeof *kk);
			for (cellat = 0; cellat < kdn; ) {
				const char *p = NULL;

				for (i = cellat; i + 9 <= kdn; i++)
					if (memcmp(kds + i, "{'name': ", 9) ==
					    0) {
						p = kds + i + 9;
						break;
					}
				if (p == NULL)
					break;
				cellat = (size_t)(p - kds);
				for (j = 0; j < m; j++) {
					size_t kn;
					const char *ks;

					if (used[j])
						continue;
					ks = agg_str(A->e[A->gord[ev->glo +
					    j]].name, &kn);
					rep.n = 0;
					tl_out_pystr(&rep, ks, kn);
					if (cellat + rep.n <= kdn &&
					    memcmp(kds + cellat, rep.buf,
					    rep.n) == 0)
						break;
				}
				if (j == m)
					continue;
				used[j] = 1;
				kk[nk++] = A->gord[ev->glo + j];
				cellat += rep.n;
			}
		}
		xgrowz(&ch, &capch, nk + 1, sizeof *ch);
		for (i = 0; i < nk; i++) {
			if (synth) {
				ch[i].len = 0;
				cpush(&ch[i], own.buf + ko[i], kl[i]);
			} else
				kchain(kk[i], &ch[i]);
		}
		csf.n = 0;
		fl.len = 0;
		if (nk == 0)
			sb_puts(&csf, "Not found");
		else if (nk == 1) {
			putlist(&csf, ch[0].s, ch[0].n, 0, ch[0].len);
			for (i = 0; i < ch[0].len; i++)
				cpush(&fl, ch[0].s[i], ch[0].n[i]);
		} else {
			size_t lcp = 0, a, b;

			for (;; lcp++) {
				for (i = 0; i < nk; i++)
					if (lcp >= ch[i].len || !same(ch[i].s[lcp],
					    ch[i].n[lcp], ch[0].s[lcp],
					    ch[0].n[lcp]))
						break;
				if (i < nk)
					break;
			}
			tl_out_char(&csf, '[');
			for (i = 0; i < lcp; i++) {
				if (i > 0)
					sb_puts(&csf, ", ");
				tl_out_pystr(&csf, ch[0].s[i], ch[0].n[i]);
				cpush(&fl, ch[0].s[i], ch[0].n[i]);
			}
			for (a = 0; a < nk; a++) {
				/* tails, each once */
				for (b = 0; b < a; b++) {
					if (ch[a].len != ch[b].len)
						continue;
					for (i = lcp; i < ch[a].len; i++)
						if (!same(ch[a].s[i], ch[a].n[i],
						    ch[b].s[i], ch[b].n[i]))
							break;
					if (i == ch[a].len)
						break;
				}
				if (b < a)
					continue;
				if (csf.n > 1)
					sb_puts(&csf, ", ");
				putlist(&csf, ch[a].s, ch[a].n, lcp, ch[a].len);
				for (i = lcp; i < ch[a].len; i++)
					cpush(&fl, ch[a].s[i], ch[a].n[i]);
			}
			tl_out_char(&csf, ']');
		}
		entry(&fl, name, nn, &ep);
		for (i = 0; i < ncol; i++) {
			if ((int)i == cp) {
				tab_sb(t, &ep);
				tab_sb(t, &csf);
			}
			xgrow(&t->c, &t->capcell, t->ncell + 1, sizeof *t->c);
			t->c[t->ncell++] = rc[i];
		}
	}
	free(t->col);
	t->col = col;
	t->ncol = ncol + 2;
	free(old);
	free(kk);
	free(used);
	for (i = 0; i < capch; i++) {
		free(ch[i].s);
		free(ch[i].n);
	}
	free(ch);
	free(fl.s);
	free(fl.n);
	free(csf.buf);
	free(ep.buf);
	free(rep.buf);
	free(own.buf);
	free(ko);
	free(kl);
}
