/*
 * tl-rocprof: the "rocprof" report on a rocprofv3 JSON: GPU timeline,
 * kernel summaries, kernel details, short kernels.
 */
#include <pthread.h>

#include "rocprof.h"

/* ---- rocprof ---- */

long long shortthr = 10, shortbins = 100, topk = -1;

/* A double's bits as a key that sorts as the double (no NaN; the starts
 * are integers over 1000, so no -0). */
static uint64_t
dblkey(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof u);
	return u >> 63 ? ~u : u | UINT64_C(1) << 63;
}

/* Interval i of the kernels (i < nkern) then of the copies, in us. */
static void
ival(size_t i, double *s, double *e)
{
	const int64_t *m;

	if (i < nkern) {
		*s = (double)kerns[i].ts / 1000.0;
		*e = (double)(kerns[i].ts + kerns[i].dur) / 1000.0;
		return;
	}
	m = mems[i - nkern];
	*s = (double)m[0] / 1000.0;
	*e = (double)(m[0] + m[1]) / 1000.0;
}

/* Merged length of intervals lo..hi (ival's numbers), sorted by start,
 * stably. */
static double
unionlen(size_t lo, size_t hi)
{
	struct tl_sortkey *a;
	double sum = 0, ls = 0, le = 0, s, e;
	size_t i, n = hi - lo;
	int open = 0;

	a = xcalloc(n + 1, sizeof *a);
	for (i = 0; i < n; i++) {
		ival(lo + i, &s, &e);
		a[i].k = dblkey(s);
		a[i].i = (uint32_t)i;
	}
	tl_key_sort(a, n);
	for (i = 0; i < n; i++) {
		ival(lo + a[i].i, &s, &e);
		if (open && s <= le) {
			if (e > le)
				le = e;
			continue;
		}
		if (open)
			sum += le - ls;
		ls = s;
		le = e;
		open = 1;
	}
	if (open)
		sum += le - ls;
	free(a);
	return sum;
}

static void
timeline(const char *dir)
{
	static const char *const h[] = { "type", "time ms", "percent", NULL };
	size_t i;
	double total, kus, mus, bus, ius, val[5];
	static const char *const rowname[5] = { "total_time", "kernel",
	    "memory", "busy_time", "idle" };

	opensheet(dir, "gpu_timeline");
	header(h);
	if (nkern == 0) {
		closesheet();
		return;
	}
	total = (double)fini_time / 1000.0 - (double)init_time / 1000.0;
	kus = unionlen(0, nkern);
	mus = unionlen(nkern, nkern + nmem);
	bus = unionlen(0, nkern + nmem);
	ius = total - bus;
	if (ius < 0)
		ius = 0;
	val[0] = total;
	val[1] = kus;
	val[2] = mus;
	val[3] = bus;
	val[4] = ius;
	for (i = 0; i < 5; i++) {
		ccstr(rowname[i]);
		cfloat(val[i] / 1000);
		if (i == 0)
			cfloat(100.0);
		else if (total <= 0)
			cint(0);
		else
			cfloat(val[i] / total * 100);
		endline();
	}
	closesheet();
}

static const char *
category(const char *name)
{
	static const char *const rule[][4] = {
		{ "gemm", "matmul", "cijk", NULL },
		{ "elementwise", NULL },
		{ "reduce", "sum", NULL },
		{ "conv", NULL },
		{ "norm", NULL },
		{ "flash", "attn", "fmha", NULL },
		{ "copy", "memcpy", NULL },
		{ "rccl", "nccl", "cross_device_reduce", NULL },
	};
	static const char *const cat[] = { "GEMM", "Elementwise",
	    "Reduction", "Convolution", "Normalization", "Attention",
	    "Memory", "COMM" };
	char *l = xstrdup(name), *p;
	size_t r, i;
	const char *c = "Other";

	for (p = l; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	for (r = 0; r < sizeof cat / sizeof cat[0] && c[0] == 'O'; r++)
		for (i = 0; rule[r][i]; i++)
			if (strstr(l, rule[r][i])) {
				c = cat[r];
				break;
			}
	free(l);
	return c;
}

static int
strpcmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Sort p[0..n), kernels in their order, by name or longest first, ties
 * in their order: a stable radix sort by the name's rank among the
 * distinct names (uniq() strings: one address a name) or by duration.
 */
static void
ksort(struct kern **p, size_t n, int byname)
{
	struct tl_sortkey *a = xcalloc(n + 1, sizeof *a);
	struct kern **q = xcalloc(n + 1, sizeof *q);
	const char **nm = NULL, **tab;
	size_t i, h, cap = 64, nn = 0, *rank;

	while (byname && cap < 2 * n)
		cap *= 2;
	tab = xcalloc(cap, sizeof *tab);
	rank = xcalloc(cap, sizeof *rank);
	for (i = 0; i < n; i++) {
		if (!byname) {
			a[i].k = ~((uint64_t)p[i]->dur ^ UINT64_C(1) << 63);
			a[i].i = (uint32_t)i;
			continue;
		}
		for (h = tl_hash64((uint64_t)(uintptr_t)p[i]->name) &
		    (cap - 1); tab[h] && tab[h] != p[i]->name;
		    h = (h + 1) & (cap - 1))
			;
		if (!tab[h]) {
			tab[h] = p[i]->name;
			nm = xreallocarray(nm, nn + 1, sizeof *nm);
			nm[nn++] = p[i]->name;
		}
		a[i].i = (uint32_t)i;
	}
	if (byname) {
		qsort(nm, nn, sizeof *nm, strpcmp);
		for (i = 0; i < nn; i++) {
			for (h = tl_hash64((uint64_t)(uintptr_t)nm[i]) &
			    (cap - 1); tab[h] != nm[i]; h = (h + 1) & (cap - 1))
				;
			rank[h] = i;
		}
		for (i = 0; i < n; i++) {
			for (h = tl_hash64((uint64_t)(uintptr_t)p[i]->name) &
			    (cap - 1); tab[h] != p[i]->name;
			    h = (h + 1) & (cap - 1))
				;
			a[i].k = rank[h];
		}
	}
	tl_radix_sort(a, n);
	for (i = 0; i < n; i++)
		q[i] = p[a[i].i];
	memcpy(p, q, n * sizeof *p);
	free(a);
	free(q);
	free(nm);
	free(tab);
	free(rank);
}

struct grp {
	const char *name;
	const char *cat;
	size_t n;
	int64_t sum, min, max;
	double mean, median, std, pct, cum, ms;
	size_t order;
};

static int
grpsum(const void *a, const void *b)
{
	const struct grp *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int
grpms(const void *a, const void *b)
{
	const struct grp *x = a, *y = b;

	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void
summaries(const char *dir)
{
	static const char *const h0[] = { "name", "Count",
	    "Mean Kernel Time (µs)", "Median Kernel Time (µs)",
	    "Std Kernel Time (µs)", "Min Kernel Time (µs)",
	    "Max Kernel Time (µs)", "Total Kernel Time (ms)", "Percentage (%)",
	    "Cumulative Percentage (%)", "Category", NULL };
	static const char *const h1[] = { "name", "Count",
	    "Mean Kernel Time (µs)", "Median Kernel Time (µs)",
	    "Std Kernel Time (µs)", "Min Kernel Time (µs)",
	    "Max Kernel Time (µs)", "Percentage (%)",
	    "Cumulative Percentage (%)", "Total Kernel Time (ms)", "Category",
	    NULL };
	static const char *const hc[] = { "op category", "Count",
	    "total_direct_kernel_time_ms", "Percentage (%)",
	    "Cumulative Percentage (%)", NULL };
	static const char *const cats[] = { "Attention", "COMM",
	    "Convolution", "Elementwise", "GEMM", "Memory", "Normalization",
	    "Other", "Reduction" };
	struct kern **p;
	struct grp *g, cg[9];
	size_t i, j, ng = 0, k;
	double *v, cum = 0, scale = tracelens ? 1 : 1000, mstot;
	struct tl_stats st;
	int64_t grand = 0;

	if (nkern == 0) {
		opensheet(dir, "kernel_summary");
		header(h0);
		closesheet();
		opensheet(dir, "kernel_summary_by_category");
		header(hc);
		closesheet();
		return;
	}
	p = xcalloc(nkern, sizeof *p);
	for (i = 0; i < nkern; i++)
		p[i] = &kerns[i];
	ksort(p, nkern, 1);
	g = xcalloc(nkern, sizeof *g);
	v = xcalloc(nkern, sizeof *v);
	for (i = 0; i < nkern; i = j) {
		for (j = i; j < nkern && strcmp(p[j]->name, p[i]->name) == 0;
		    j++)
			v[j - i] = (double)p[j]->dur / scale;
		tl_stats(&st, v, j - i);
		g[ng].name = p[i]->name;
		g[ng].cat = category(p[i]->name);
		g[ng].n = j - i;
		g[ng].sum = 0;
		g[ng].min = g[ng].max = p[i]->dur;
		for (k = i; k < j; k++) {
			g[ng].sum += p[k]->dur;
			if (p[k]->dur < g[ng].min)
				g[ng].min = p[k]->dur;
			if (p[k]->dur > g[ng].max)
				g[ng].max = p[k]->dur;
		}
		g[ng].mean = st.mean;
		g[ng].median = st.median;
		g[ng].std = st.std;
		g[ng].order = ng;
		grand += g[ng].sum;
		ng++;
	}
	for (i = 0; i < ng; i++) {
		g[i].pct = grand ? (double)g[i].sum / (double)grand * 100 : 0;
		g[i].ms = (double)g[i].sum / (tracelens ? 1000.0 : 1e6);
	}
	if (tracelens)		/* cumulative in name order */
		for (i = 0; i < ng; i++) {
			cum += g[i].pct;
			g[i].cum = cum;
		}
	qsort(g, ng, sizeof *g, grpsum);
	if (!tracelens)
		for (i = 0; i < ng; i++) {
			cum += g[i].pct;
			g[i].cum = cum;
		}
	opensheet(dir, "kernel_summary");
	header(h1);
	for (i = 0; i < ng; i++) {
		ccstr(g[i].name);
		cint((int64_t)g[i].n);
		cfloat(g[i].mean);
		cfloat(g[i].median);
		cfloat(g[i].n > 1 ? g[i].std : NAN);
		if (tracelens) {
			cint(g[i].min);
			cint(g[i].max);
		} else {
			cfloat((double)g[i].min / 1000);
			cfloat((double)g[i].max / 1000);
		}
		cfloat(g[i].pct);
		cfloat(g[i].cum);
		cfloat(g[i].ms);
		ccstr(g[i].cat);
		endline();
	}
	closesheet();
	/* By category, in category-name order. */
	memset(cg, 0, sizeof cg);
	for (k = 0; k < 9; k++) {
		cg[k].name = cats[k];
		cg[k].order = k;
	}
	for (i = 0; i < ng; i++)
		for (k = 0; k < 9; k++)
			if (strcmp(g[i].cat, cats[k]) == 0) {
				cg[k].n += g[i].n;
				cg[k].sum += g[i].sum;
			}
	mstot = 0;
	for (k = j = 0; k < 9; k++) {
		if (cg[k].n == 0)
			continue;
		cg[j] = cg[k];
		cg[j].ms = (double)cg[j].sum / (tracelens ? 1000.0 : 1e6);
		mstot += cg[j].ms;
		j++;
	}
	cum = 0;
	for (k = 0; k < j; k++) {
		cg[k].pct = mstot ? cg[k].ms / mstot * 100 : 0;
		if (tracelens) {
			cum += cg[k].pct;
			cg[k].cum = cum;
		}
	}
	qsort(cg, j, sizeof *cg, grpms);
	if (!tracelens)
		for (k = 0; k < j; k++) {
			cum += cg[k].pct;
			cg[k].cum = cum;
		}
	opensheet(dir, "kernel_summary_by_category");
	header(hc);
	for (k = 0; k < j; k++) {
		ccstr(cg[k].name);
		cint((int64_t)cg[k].n);
		cfloat(cg[k].ms);
		cfloat(cg[k].pct);
		cfloat(cg[k].cum);
		endline();
	}
	closesheet();
	free(p);
	free(g);
	free(v);
}

/* Each distinct name (a uniq() string) as a CSV cell, made once. */
struct cnames {
	const char **key;
	size_t *v, cap, n, slot;
	char *buf;
	size_t len, capb;
	struct tl_out o;	/* a name made a cell */
	int init;
};

static void
csvname(const char *name, struct cnames *c)
{
	struct tl_out *o = &c->o;
	size_t h, i, j, oc;
	const char **ok;
	size_t *ov;

	if (2 * (c->n + 1) > c->cap) {
		ok = c->key;
		ov = c->v;
		oc = c->cap;
		c->cap = c->cap ? 2 * c->cap : 256;
		c->key = xcalloc(c->cap, sizeof *c->key);
		c->v = xcalloc(c->cap, sizeof *c->v);
		for (j = 0; j < oc; j++)
			if (ok[j]) {
				for (i = tl_hash64((uint64_t)(uintptr_t)ok[j]) &
				    (c->cap - 1); c->key[i]; i = (i + 1) &
				    (c->cap - 1))
					;
				c->key[i] = ok[j];
				c->v[i] = ov[j];
			}
		free(ok);
		free(ov);
	}
	for (h = tl_hash64((uint64_t)(uintptr_t)name) & (c->cap - 1);
	    c->key[h] && c->key[h] != name; h = (h + 1) & (c->cap - 1))
		;
	c->slot = h;
	if (c->key[h])
		return;
	if (!c->init) {
		tl_out_init(o, -1, "(name)");
		c->init = 1;
	}
	o->n = 0;
	tl_out_csvfield(o, name, strlen(name));
	xgrow(&c->buf, &c->capb, c->len + o->n + 1, 1);
	memcpy(c->buf + c->len, o->buf, o->n);
	c->buf[c->len + o->n] = '\0';
	c->key[h] = name;
	c->v[h] = c->len;
	c->len += o->n + 1;
	c->n++;
}

static struct tl_file kdfile;

/*
 * kernel_details' rows, into kdfile (open, its header written), longest
 * first: run by a thread of its own while the other sheets are made, the
 * kernels only read.
 */
static void *
kdrows(void *arg)
{
	struct kern **p;
	struct cnames cn;
	size_t i, n, k, m;
	int64_t b[10];
	char row[10 * (TL_I64_MAX + 1)];

	(void)arg;
	usesheet(&kdfile);
	memset(&cn, 0, sizeof cn);
	p = xcalloc(nkern, sizeof *p);
	for (i = 0; i < nkern; i++)
		p[i] = &kerns[i];
	ksort(p, nkern, 0);
	n = topk >= 0 && (size_t)topk < nkern ? (size_t)topk : nkern;
	for (i = 0; i < n; i++) {
		csvname(p[i]->name, &cn);
		craw(cn.buf + cn.v[cn.slot], strlen(cn.buf + cn.v[cn.slot]));
		if (tracelens)
			cint(p[i]->dur);
		else
			cfloat((double)p[i]->dur / 1000);
		b[0] = p[i]->stream;
		b[1] = p[i]->dispatch;
		memcpy(b + 2, p[i]->grid, sizeof p[i]->grid);
		memcpy(b + 5, p[i]->block, sizeof p[i]->block);
		b[8] = p[i]->agent;
		b[9] = p[i]->thread;
		for (k = m = 0; k < 10; k++) {
			if (k > 0)
				row[m++] = ',';
			if (b[k] >= 0 && b[k] < 10)
				row[m++] = (char)('0' + b[k]);
			else
				m += tl_fmt_i64(row + m, b[k]);
		}
		craw(row, m);
		endline();
	}
	free(p);
	if (cn.init)
		tl_out_close(&cn.o);
	free(cn.buf);
	free(cn.v);
	free(cn.key);
	return NULL;
}

struct sk {
	const char *name;
	int64_t n, sum;
	double mean, pct;
};

static int
skcmp(const void *a, const void *b)
{
	const struct sk *x = a, *y = b;
	int c;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return 0;
}

static void
shortkernels(const char *dir)
{
	static const char *const hs[] = { "name", "Short Kernel count",
	    "Short Kernel duration (µs) sum",
	    "Short Kernel duration (µs) mean",
	    "Short Kernel duration (µs) percent of total time", NULL };
	static const char *const hh[] = { "bin_start", "bin_end", "count",
	    NULL };
	struct kern **p;
	struct sk *g;
	size_t i, j, n = 0, ng = 0, b, B = (size_t)shortbins;
	int64_t all = 0, thr = tracelens ? shortthr : shortthr * 1000;
	double lo, hi, step, x, *edge, scale = tracelens ? 1 : 1000;
	int64_t *cnt;
	long long jj;

	p = xcalloc(nkern + 1, sizeof *p);
	for (i = 0; i < nkern; i++) {
		all += kerns[i].dur;
		if (kerns[i].dur < thr)
			p[n++] = &kerns[i];
	}
	opensheet(dir, "short_kernels_summary");
	header(hs);
	if (n > 0) {
		ksort(p, n, 1);
		g = xcalloc(n, sizeof *g);
		for (i = 0; i < n; i = j) {
			g[ng].name = p[i]->name;
			for (j = i; j < n && strcmp(p[j]->name, p[i]->name) ==
			    0; j++) {
				g[ng].n++;
				g[ng].sum += p[j]->dur;
			}
			g[ng].mean = (double)g[ng].sum / (double)g[ng].n /
			    scale;
			g[ng].pct = (double)g[ng].sum / (double)all * 100;
			ng++;
		}
		qsort(g, ng, sizeof *g, skcmp);
		for (i = 0; i < ng; i++) {
			ccstr(g[i].name);
			cint(g[i].n);
			if (tracelens)
				cint(g[i].sum);
			else
				cfloat((double)g[i].sum / 1000);
			cfloat(g[i].mean);
			cfloat(g[i].pct);
			endline();
		}
		free(g);
	}
	closesheet();
	opensheet(dir, "short_kernel_histogram");
	header(hh);
	if (n > 0) {
		lo = hi = (double)p[0]->dur / scale;
		for (i = 0; i < n; i++) {
			x = (double)p[i]->dur / scale;
			if (x < lo)
				lo = x;
			if (x > hi)
				hi = x;
		}
		if (lo == hi) {
			lo -= 0.5;
			hi += 0.5;
		}
		edge = xcalloc(B + 1, sizeof *edge);
		cnt = xcalloc(B, sizeof *cnt);
		step = (hi - lo) / (double)B;
		for (b = 0; b < B; b++)
			edge[b] = (double)b * step + lo;
		edge[B] = hi;
		for (i = 0; i < n; i++) {
			x = (double)p[i]->dur / scale;
			jj = (long long)floor((x - lo) * ((double)B / (hi -
			    lo)));
			if (jj >= (long long)B)
				jj = (long long)B - 1;
			if (jj < 0)
				jj = 0;
			if (x < edge[jj] && jj > 0)
				jj--;
			else if (x >= edge[jj + 1] && jj != (long long)B - 1)
				jj++;
			cnt[jj]++;
		}
		for (b = 0; b < B; b++) {
			cfloat(edge[b]);
			cfloat(edge[b + 1]);
			cint(cnt[b]);
			endline();
		}
		free(edge);
		free(cnt);
	}
	closesheet();
	free(p);
}

void
rocprof(const char *dir)
{
	static const char *const h[] = { "name", "Kernel duration (µs)",
	    "stream", "dispatch_id", "grid_x", "grid_y", "grid_z", "block_x",
	    "block_y", "block_z", "agent_id", "thread_id", NULL };
	pthread_t th;
	int kd = details && nkern > 0, threaded = 0;

	if (details && nkern == 0)
		emptyframe(dir, "kernel_details");
	if (kd) {
		opensheetf(&kdfile, dir, "kernel_details");
		header(h);
		if (pthread_create(&th, NULL, kdrows, NULL) == 0)
			threaded = 1;
		else
			kdrows(NULL);
	}
	timeline(dir);
	if (!nosummary)
		summaries(dir);
	if (shortstudy)
		shortkernels(dir);
	if (threaded && pthread_join(th, NULL) != 0)
		tl_errx(1, "cannot join a thread");
	if (kd)
		closesheetf(&kdfile);
}
