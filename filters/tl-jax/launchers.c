/*
 * tl-jax: kernel_launchers and its summaries (spec 7.1-7.6).
 */
#include "jax.h"

/* ---- kernel_launchers and its summaries (spec 7.1-7.6) ---- */

/*
 * The dict of a kernel's kernel_details, without its braces: with its
 * 'dur' (kernel_launchers) or without (the summaries). Made when it is
 * written: it holds the duration, and so is not worth keeping.
 */
static void
putkd(struct tl_out *o, const struct krow *k, int dur)
{
	const struct ev *e = &E[k->e];

	tl_out_raw(o, "'name': ", 8);
	pyrepr(o, e->name);
	if (dur) {
		tl_out_raw(o, ", 'dur': ", 9);
		tl_out_pyfloat(o, e->dur);
	}
	tl_out_raw(o, ", 'custom_call_target': ", 24);
	if (k->hasmeta && e->cct != NONE)
		pyrepr(o, e->cct);
	else
		tl_out_raw(o, "'NA'", 4);
	tl_out_raw(o, ", 'operands': ", 14);
	if (k->hasmeta && e->ops != NONE) {
		size_t n;
		const char *s = S(e->ops, &n);

		tl_out_raw(o, s, n);
	} else
		tl_out_raw(o, "'NA'", 4);
	tl_out_raw(o, ", 'outputs': 'NA', 'metadata': ", 31);
	if (k->hasmeta && e->meta != NONE)
		pyrepr(o, e->meta);
	else
		tl_out_raw(o, "'NA'", 4);
}

static const char *const klcols[] = {
	"name", "UID", "op category", "total_direct_kernel_time",
	"direct_kernel_count", "pid", "tid", "Input Dims", "Input type",
	"Input Strides", "Concrete Inputs", "kernel_details",
	"GPU_kernel_launch_latency", NULL, NULL
};

static void
klrow(const struct krow *k)
{
	const struct ev *e = &E[k->e];

	cellid(e->name);
	celli(e->uid);
	cells(catstr(k->cat));
	cellf(e->dur);
	celli(1);
	celli(e->pid);
	celli(e->tid);
	cellid(k->dims);
	cellid(k->types);
	cells("()");
	cellid(k->conc);
	kdo.n = 0;
	tl_out_raw(&kdo, "[{", 2);
	putkd(&kdo, k, 1);
	tl_out_raw(&kdo, "}]", 2);
	cell(kdo.buf, kdo.n);
	cellf(k->lat);
}

static int64_t
inputbytes(const struct ev *e)
{
	size_t n, i;
	const char *s;
	int64_t total = 0;

	if (e->ops == NONE)
		return 0;
	s = S(e->ops, &n);
	for (i = 0; i < n; i++) {
		size_t j, t0, t1, d0;
		int64_t p = 1, v;
		int bpe = 0, nd = 0;

		if (s[i] != '\'' && s[i] != '"')
			continue;
		/* One string: \w+ \[ dims \] at its start. */
		j = t0 = i + 1;
		while (j < n && (s[j] == '_' || (s[j] >= '0' && s[j] <= '9') ||
		    (s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' &&
		    s[j] <= 'Z')))
			j++;
		t1 = j;
		if (t1 > t0 && j < n && s[j] == '[') {
			d0 = ++j;
			while (j < n && ((s[j] >= '0' && s[j] <= '9') ||
			    s[j] == ','))
				j++;
			if (j < n && s[j] == ']' && j > d0) {
				size_t k = d0;

				while (k < j) {
					v = 0;
					while (k < j && s[k] != ',')
						v = v * 10 + (s[k++] - '0');
					p *= v;
					nd++;
					k++;
				}
			}
		}
		{
			size_t tl = t1 - t0;
			const char *t = s + t0;
#define T(x) (tl == sizeof x - 1 && memcmp(t, x, tl) == 0)
			if (T("f32") || T("s32") || T("u32"))
				bpe = 4;
			else if (T("bf16") || T("fp16") || T("f16"))
				bpe = 2;
			else if (T("u64"))
				bpe = 8;
			else if (T("pred") || (tl >= 2 && (memcmp(t, "f8", 2)
			    == 0 || memcmp(t, "s8", 2) == 0)))
				bpe = 1;
#undef T
		}
		if (nd > 0 && bpe > 0)
			total += p * bpe;
		/* to the closing quote */
		{
			char q = s[i];

			for (i++; i < n && s[i] != q; i++)
				;
		}
	}
	return total;
}

/* Group kernel rows by a key string; groups in key order (or first
 * appearance); g[i] is the group of row i. */
struct grp {
	uint32_t key;
	size_t first, n;
	struct tl_kahan sum;
	double ms;
	size_t *rows;
	size_t nrows, caprows;
};

static int
keycmp(const void *a, const void *b)
{
	const struct grp *x = a, *y = b;

	return tl_intern_cmp(in, x->key, y->key);
}

/*
 * The rows r[0..n) of K grouped by key(r): sorted groups (pandas
 * groupby), each with its rows in order.
 */
static struct grp *
group(const size_t *r, size_t n, uint32_t (*key)(size_t), size_t *ng,
    int sorted)
{
	struct grp *g = NULL;
	size_t cap = 0, i, j;
	uint32_t *gi = NULL;
	size_t capgi = 0;

	*ng = 0;
	for (i = 0; i < n; i++) {
		uint32_t k = key(r[i]);

		if ((size_t)k + 1 > capgi) {
			size_t old = capgi;

			xgrow(&gi, &capgi, (size_t)k + 1, sizeof *gi);
			memset(gi + old, 0, (capgi - old) * sizeof *gi);
		}
		if (gi[k] == 0) {
			xgrow(&g, &cap, *ng + 1, sizeof *g);
			memset(&g[*ng], 0, sizeof *g);
			g[*ng].key = k;
			g[*ng].first = r[i];
			gi[k] = (uint32_t)++*ng;
		}
		j = gi[k] - 1;
		xgrow(&g[j].rows, &g[j].caprows, g[j].nrows + 1,
		    sizeof *g[j].rows);
		g[j].rows[g[j].nrows++] = r[i];
	}
	free(gi);
	if (sorted)
		qsort(g, *ng, sizeof *g, keycmp);
	return g;
}

static void
freegroups(struct grp *g, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(g[i].rows);
	free(g);
}

static uint32_t
knamekey(size_t r)
{
	return E[K[r].e].name;
}

static uint32_t *stripped;	/* xla_summary's names, by row */

static uint32_t
stripkey(size_t r)
{
	return stripped[r];
}

static uint32_t
catkey(size_t r)
{
	const char *s = catstr(K[r].cat);

	return tl_intern(in, s, strlen(s));
}

static int
distinctpids(const size_t *r, size_t n)
{
	int pids[1024];
	size_t np = 0, i, j;

	for (i = 0; i < n; i++) {
		int p = E[K[r[i]].e].pid;

		for (j = 0; j < np && pids[j] != p; j++)
			;
		if (j == np && np < 1024)
			pids[np++] = p;
	}
	return (int)np;
}

/* kernel_launchers_summary / xla_summary (7.2) or by category (7.3). */
static void
summary(const char *name, const size_t *r, size_t n,
    uint32_t (*key)(size_t), int bycat)
{
	static const char *const cols[] = { "name",
	    "total_direct_kernel_time_sum", "Count",
	    "total_direct_kernel_time_ms", "Percentage (%)",
	    "Cumulative Percentage (%)", "time ms per gpu", NULL };
	static const char *const ccols[] = { "op category", "Count",
	    "total_direct_kernel_time_ms", "Percentage (%)",
	    "Cumulative Percentage (%)", "time ms per gpu", NULL };
	size_t ng, i, j, *perm;
	struct grp *g = group(r, n, key, &ng, 1);
	double *sums, *ms, total, cum = 0;
	int G = distinctpids(r, n);

	sums = xreallocarray(NULL, ng + 1, sizeof *sums);
	ms = xreallocarray(NULL, ng + 1, sizeof *ms);
	perm = xreallocarray(NULL, ng + 1, sizeof *perm);
	for (i = 0; i < ng; i++) {
		struct tl_kahan k = { 0, 0 };

		for (j = 0; j < g[i].nrows; j++)
			tl_kahan_add(&k, E[K[g[i].rows[j]].e].dur);
		sums[i] = k.s;
	}
	tl_nargsort_desc(sums, ng, perm);
	for (i = 0; i < ng; i++)
		ms[i] = sums[perm[i]] / 1000;
	total = tl_np_sum(ms, ng);
	begin(bycat ? ccols : cols);
	for (i = 0; i < ng; i++) {
		struct grp *x = &g[perm[i]];
		double pct = ms[i] / total * 100;

		cellid(x->key);
		if (!bycat)
			cellf(sums[perm[i]]);
		celli((int64_t)x->nrows);
		cellf(ms[i]);
		cellf(pct);
		cum += pct;
		cellf(cum);
		cellf(ms[i] / G);
		endrec();
	}
	finish(name);
	free(sums);
	free(ms);
	free(perm);
	freegroups(g, ng);
}

static uint32_t
uakey(size_t r)
{
	struct tl_out o;
	uint32_t id;
	size_t n;
	const char *s;

	tl_out_init(&o, -1, "(key)");
	s = S(E[K[r].e].name, &n);
	tl_out_raw(&o, s, n);
	tl_out_char(&o, '\001');
	if (!tflag) {
		s = catstr(K[r].cat);
		tl_out_raw(&o, s, strlen(s));
		tl_out_char(&o, '\001');
	}
	s = S(K[r].dims, &n);
	tl_out_raw(&o, s, n);
	tl_out_char(&o, '\001');
	s = S(K[r].types, &n);
	tl_out_raw(&o, s, n);
	tl_out_char(&o, '\001');
	s = S(K[r].conc, &n);
	tl_out_raw(&o, s, n);
	id = tl_intern(in, o.buf, o.n);
	free(o.buf);
	return id;
}

static void
npfloat(struct tl_out *o, double v)
{
	tl_out_raw(o, "np.float64(", 11);
	tl_out_pyfloat(o, v);
	tl_out_char(o, ')');
}

/* The kernel stats of a group of single-kernel rows (spec 5.10). */
void
kstats(struct tl_out *o, const size_t *rows, size_t n)
{
	double *d = xreallocarray(NULL, n + 1, sizeof *d), t, mn, mx;
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = E[K[rows[i]].e].dur;
	t = tl_np_sum(d, n);
	tl_out_raw(o, ", 'count': ", 11);
	tl_out_i64(o, (int64_t)n);
	tl_out_raw(o, ", 'total_duration_us': ", 23);
	npfloat(o, t);
	tl_out_raw(o, ", 'mean_duration_us': ", 22);
	npfloat(o, t / (double)n);
	mn = mx = d[0];
	for (i = 1; i < n; i++) {
		if (d[i] < mn)
			mn = d[i];
		if (d[i] > mx)
			mx = d[i];
	}
	tl_out_raw(o, ", 'median_duration_us': ", 24);
	npfloat(o, tl_median(d, n));
	for (i = 0; i < n; i++)
		d[i] = E[K[rows[i]].e].dur;
	tl_out_raw(o, ", 'std_dev_duration_us': ", 25);
	npfloat(o, tl_np_std(d, n));
	tl_out_raw(o, ", 'min_duration_us': ", 21);
	npfloat(o, mn);
	tl_out_raw(o, ", 'max_duration_us': ", 21);
	npfloat(o, mx);
	free(d);
}

struct ua {
	struct grp *g;
	struct tl_stats st;
	double sum;
};

static int
uacmp(const void *a, const void *b)
{
	const struct ua *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	return E[K[x->g->first].e].uid < E[K[y->g->first].e].uid ? -1 :
	    E[K[x->g->first].e].uid > E[K[y->g->first].e].uid;
}

static void
uniqueargs(const size_t *r, size_t n)
{
	static const char *const cols[] = { "name", "Input Dims",
	    "Input type", "Input Strides", "Concrete Inputs",
	    "operation_count", "total_direct_kernel_time_mean",
	    "total_direct_kernel_time_median", "total_direct_kernel_time_std",
	    "total_direct_kernel_time_min", "total_direct_kernel_time_max",
	    "total_direct_kernel_time_sum", "ex_UID", "kernel_details_summary",
	    "Percentage (%)", "Cumulative Percentage (%)", NULL };
	static const char *const ccols[] = { "name", "op category",
	    "Input Dims", "Input type", "Input Strides", "Concrete Inputs",
	    "operation_count", "total_direct_kernel_time_mean",
	    "total_direct_kernel_time_median", "total_direct_kernel_time_std",
	    "total_direct_kernel_time_min", "total_direct_kernel_time_max",
	    "total_direct_kernel_time_sum", "ex_UID", "kernel_details_summary",
	    "Percentage (%)", "Cumulative Percentage (%)", NULL };
	size_t ng, i, j;
	struct grp *g = group(r, n, uakey, &ng, 0);
	struct ua *u = xreallocarray(NULL, ng + 1, sizeof *u);
	double *v = xreallocarray(NULL, n + 1, sizeof *v), *sums, total, cum = 0;
	struct tl_out o;

	for (i = 0; i < ng; i++) {
		u[i].g = &g[i];
		for (j = 0; j < g[i].nrows; j++)
			v[j] = E[K[g[i].rows[j]].e].dur;
		tl_stats(&u[i].st, v, g[i].nrows);
		u[i].sum = u[i].st.sum;
	}
	/* Stable: first appearance, then sum descending, ex_UID. */
	qsort(u, ng, sizeof *u, uacmp);
	sums = xreallocarray(NULL, ng + 1, sizeof *sums);
	for (i = 0; i < ng; i++)
		sums[i] = u[i].sum;
	total = tl_np_sum(sums, ng);
	tl_out_init(&o, -1, "(summary)");
	begin(tflag ? cols : ccols);
	for (i = 0; i < ng; i++) {
		const struct krow *k = &K[u[i].g->first];
		double pct;

		cellid(E[k->e].name);
		if (!tflag)
			cells(catstr(k->cat));
		cellid(k->dims);
		cellid(k->types);
		cells("()");
		cellid(k->conc);
		celli((int64_t)u[i].g->nrows);
		cellf(u[i].st.mean);
		cellf(u[i].st.median);
		cellf(u[i].st.std);
		cellf(u[i].st.min);
		cellf(u[i].st.max);
		cellf(u[i].st.sum);
		celli(E[k->e].uid);
		o.n = 0;
		tl_out_raw(&o, "[{", 2);
		putkd(&o, k, 0);
		kstats(&o, u[i].g->rows, u[i].g->nrows);
		tl_out_raw(&o, "}]", 2);
		cell(o.buf, o.n);
		pct = u[i].sum / total * 100;
		cellf(pct);
		cum += pct;
		cellf(cum);
		endrec();
	}
	finish("kernel_launchers_unique_args");
	free(o.buf);
	free(u);
	free(v);
	free(sums);
	freegroups(g, ng);
}

/* xla_summary's name: every digit out (-T), else the trailing instance
 * number ("_1", ".3") before an optional ".kd". */
static uint32_t
stripname(uint32_t id)
{
	size_t n, i, k = 0, end;
	const char *s = S(id, &n);
	char *b = xmalloc(n + 1);
	uint32_t r;

	if (tflag) {
		for (i = 0; i < n; i++)
			if (s[i] < '0' || s[i] > '9')
				b[k++] = s[i];
	} else {
		end = n;
		if (n >= 3 && memcmp(s + n - 3, ".kd", 3) == 0)
			end = n - 3;
		i = end;
		while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
			i--;
		if (i < end && i > 1 && (s[i - 1] == '_' || s[i - 1] == '.'))
			i--;
		else
			i = end;
		memcpy(b, s, i);
		k = i;
		memcpy(b + k, s + end, n - end);
		k += n - end;
	}
	r = tl_intern(in, b, k);
	free(b);
	return r;
}

void
launchers(void)
{
	size_t *r = xreallocarray(NULL, nK + 1, sizeof *r), n = 0, nx = 0, i;
	size_t *x = xreallocarray(NULL, nK + 1, sizeof *x);
	static const char *xcols[16];

	for (i = 0; i < nK; i++)
		if (kept(&K[i]))
			r[n++] = i;
	begin(klcols);
	for (i = 0; i < n; i++) {
		klrow(&K[r[i]]);
		endrec();
	}
	finish("kernel_launchers");
	summary("kernel_launchers_summary", r, n, knamekey, 0);
	summary("kernel_launchers_summary_by_category", r, n, catkey, 1);
	uniqueargs(r, n);
	for (i = 0; i < n; i++)
		if (K[r[i]].cat == UNCAT)
			x[nx++] = r[i];
	memcpy(xcols, klcols, 13 * sizeof *xcols);
	xcols[13] = "total_input_bytes";
	xcols[14] = NULL;
	begin(xcols);
	for (i = 0; i < nx; i++) {
		klrow(&K[x[i]]);
		celli(inputbytes(&E[K[x[i]].e]));
		endrec();
	}
	finish("df_xla_perf");
	stripped = xreallocarray(NULL, nK + 1, sizeof *stripped);
	for (i = 0; i < nx; i++)
		stripped[x[i]] = stripname(E[K[x[i]].e].name);
	summary("xla_summary", x, nx, stripkey, 0);
	free(stripped);
	free(r);
	free(x);
}

