/*
 * tl-agg: the tables of TraceLens's perf report (spec sections 3 to 5):
 * the GPU timeline, the kernel launchers and the ops sheets built on
 * them, the unified perf summary, kernels, short kernels and collectives.
 * Each is built in memory as a table whose cells hold what TraceLens
 * computes, in its order of operations, so that its CSV can be written
 * as pandas writes it.
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

const char *const agg_tabname[NTABLES] = {
	"timeline", "categories", "ops", "unique_args", "unified", "kernels",
	"short_kernels", "short_histogram", "collectives", "idle", "launch",
	"launch_stats", "overlap", "streams"
};

const char *const agg_sheetname[NTABLES] = {
	"gpu_timeline", "ops_summary_by_category", "ops_summary",
	"ops_unique_args", "unified_perf_summary", "kernel_summary",
	"short_kernels_summary", "short_kernel_histogram", "coll_analysis",
	NULL, NULL, NULL, NULL, NULL
};

#define B(c)	(1ull << (c))
#define CORE	(B(C_UID) | B(C_CAT) | B(C_NAME) | B(C_TS) | B(C_DUR))
#define TREE	(B(C_PARENT) | B(C_LINKED) | B(C_LAUNCHER))
#define META	(B(C_PH) | B(C_PID) | B(C_TID) | B(C_ARGS))
#define OPARGS	(B(C_DIMS) | B(C_TYPES) | B(C_STRIDES) | B(C_CONCRETE))

const unsigned long long agg_tabneed[NTABLES] = {
	CORE | B(C_LINKED),
	CORE | TREE,
	CORE | TREE,
	CORE | TREE | META | OPARGS | B(C_STREAM),
	CORE | TREE | META | OPARGS | B(C_STREAM),
	CORE | TREE | B(C_STREAM),
	CORE | TREE | OPARGS,
	CORE | TREE,
	CORE | B(C_ARGS) | B(C_STREAM) | B(C_CORR) | B(C_EXT),
	CORE | TREE | B(C_STREAM) | B(C_PID),
	CORE | TREE | B(C_STREAM),
	CORE | TREE,
	CORE | TREE | B(C_STREAM) | B(C_PID),
	CORE | TREE | B(C_STREAM) | B(C_PID)
};

/* Optional columns each table reads when they are there. */
#define PERF	(B(C_GFLOPS) | B(C_BYTES) | B(C_SPEC) | B(C_PARAMS))
const unsigned long long agg_tabuse[NTABLES] = {
	0, 0, 0, 0, PERF | B(C_FWD), 0, 0, 0, 0, B(C_TID), 0, 0, B(C_TID),
	B(C_TID)
};

/* Scratch. */
static struct iv *ivs;
static size_t capiv;
static struct sbuf sb, sb2, kdfull;

/* Facts shared by the sheets of one trace. */
static double totaltime;	/* of the timeline, ticks; NaN if none */
static uint64_t nkdskip;	/* instances left out of kernel details */

/* Kernel launchers (spec 4). */
struct launcher {
	uint32_t ev;
	uint32_t k0, nk;	/* direct kernels in lk[], by ts */
	double direct, subtree;
	uint32_t cat;		/* interned category */
};
static struct launcher *L;
static size_t nl;
static uint32_t *lk;		/* kernels of the launchers */
static uint32_t *lslot;		/* event -> launcher, or NONE */
static int launchers_done;

/* A double's bits as an unsigned key in the double's order (not NaN). */
static uint64_t
dblkey(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof u);
	return u >> 63 ? ~u : u ^ UINT64_C(1) << 63;
}

/*
 * Sort a[0..n) by start: nothing to do when they come in order, as
 * they mostly do (a stream's events, a launch's kernels), else a radix
 * sort. The union merged below is the same whatever the order of equal
 * starts.
 */
static void
ivsort(struct iv *a, size_t n)
{
	struct tl_sortkey *k;
	struct iv *t;
	size_t i;

	for (i = 1; i < n; i++)
		if (a[i].s < a[i - 1].s)
			break;
	if (i >= n)
		return;
	k = xreallocarray(NULL, n, sizeof *k);
	t = xreallocarray(NULL, n, sizeof *t);
	for (i = 0; i < n; i++) {
		k[i].k = dblkey(a[i].s);
		k[i].i = (uint32_t)i;
	}
	tl_key_sort(k, n);
	for (i = 0; i < n; i++)
		t[i] = a[k[i].i];
	memcpy(a, t, n * sizeof *a);
	free(t);
	free(k);
}

size_t
agg_ivmerge(struct iv *a, size_t n)
{
	size_t i, k = 0;

	if (n == 0)
		return 0;
	ivsort(a, n);
	for (i = 1; i < n; i++) {
		if (a[i].s <= a[k].e) {
			if (a[i].e > a[k].e)
				a[k].e = a[i].e;
		} else
			a[++k] = a[i];
	}
	return k + 1;
}

double
agg_ivlen(const struct iv *a, size_t n)
{
	double t = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		t += a[i].e - a[i].s;
	return t;
}

/* TraceLens's subtract(A, B): the parts of B not in A, into out. */
static size_t
ivsub(const struct iv *A, size_t na, const struct iv *Bv, size_t nb,
    struct iv *out)
{
	size_t i, j = 0, k, o = 0;
	double cur, b0, b1;

	for (i = 0; i < nb; i++) {
		b0 = Bv[i].s;
		b1 = Bv[i].e;
		cur = b0;
		while (j < na && A[j].e <= b0)
			j++;
		for (k = j; k < na && A[k].s < b1; k++) {
			if (A[k].s > cur) {
				out[o].s = cur;
				out[o++].e = b1 < A[k].s ? b1 : A[k].s;
			}
			if (A[k].e > cur)
				cur = A[k].e;
			if (cur >= b1)
				break;
		}
		if (cur < b1) {
			out[o].s = cur;
			out[o++].e = b1;
		}
	}
	return o;
}

static struct iv *
ivgrow(struct iv **a, size_t *cap, size_t n)
{
	xgrow(a, cap, n + 1, sizeof **a);
	return *a;
}

/* The busy time of the events ev[0..n). */
static double
busy(const uint32_t *ev, size_t n)
{
	size_t i;

	ivgrow(&ivs, &capiv, n);
	for (i = 0; i < n; i++) {
		ivs[i].s = agg_e[ev[i]].ts;
		ivs[i].e = agg_e[ev[i]].end;
	}
	n = agg_ivmerge(ivs, n);
	return agg_ivlen(ivs, n);
}

/*
 * The ids of the strings the sheets add (categories, "Unknown", ...):
 * literals and op table strings, so remembered by address for the trace.
 */
#define NIDC	256
static struct {
	const char *s;
	uint32_t id;
} idc[NIDC];
static size_t nidc;

static uint32_t
idstr(const char *s)
{
	size_t i = (size_t)(((uintptr_t)s >> 3) * 0x9e3779b97f4a7c15ull >>
	    56) & (NIDC - 1);
	uint32_t id;

	for (; idc[i].s != NULL; i = (i + 1) & (NIDC - 1))
		if (idc[i].s == s)
			return idc[i].id;
	id = tl_intern(agg_in, s, strlen(s));
	if (nidc < NIDC / 2) {
		idc[i].s = s;
		idc[i].id = id;
		nidc++;
	}
	return id;
}

/* Bytes compare of two interned strings; NONE (NaN) sorts last. */
static int
cmpid(uint32_t a, uint32_t b)
{
	const char *x, *y;
	size_t nx, ny;
	int c;

	if (a == b)
		return 0;
	if (a == NONE || b == NONE)
		return a == NONE ? 1 : -1;
	x = agg_str(a, &nx);
	y = agg_str(b, &ny);
	c = memcmp(x, y, nx < ny ? nx : ny);
	return c != 0 ? c : (nx > ny) - (nx < ny);
}

/* Grouping by a tuple of ids, groups in first-seen order. */
struct grouper {
	size_t k;		/* ids per key */
	uint32_t *key;		/* ngroup * k */
	size_t ngroup, capkey;
	uint32_t *slot;		/* group + 1 */
	size_t mask;
};

static uint64_t
keyhash(const uint32_t *k, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= k[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return h;
}

static size_t
gfind(struct grouper *g, const uint32_t *k)
{
	size_t i, j, n;
	uint32_t *old;

	if (g->slot == NULL) {
		g->mask = 255;
		g->slot = xcalloc(g->mask + 1, sizeof *g->slot);
	}
	for (i = keyhash(k, g->k) & g->mask; g->slot[i] != 0;
	    i = (i + 1) & g->mask)
		if (memcmp(&g->key[(g->slot[i] - 1) * g->k], k,
		    g->k * sizeof *k) == 0)
			return g->slot[i] - 1;
	xgrow(&g->key, &g->capkey, (g->ngroup + 1) * g->k, sizeof *g->key);
	memcpy(&g->key[g->ngroup * g->k], k, g->k * sizeof *k);
	g->slot[i] = (uint32_t)++g->ngroup;
	if (g->ngroup * 2 > g->mask) {
		old = g->slot;
		n = g->mask + 1;
		g->mask = 2 * n - 1;
		g->slot = xcalloc(2 * n, sizeof *g->slot);
		for (j = 0; j < n; j++) {
			if (old[j] == 0)
				continue;
			for (i = keyhash(&g->key[(old[j] - 1) * g->k], g->k) &
			    g->mask; g->slot[i] != 0; i = (i + 1) & g->mask)
				;
			g->slot[i] = old[j];
		}
		free(old);
	}
	return g->ngroup - 1;
}

static void
gfree(struct grouper *g)
{
	free(g->key);
	free(g->slot);
	memset(g, 0, sizeof *g);
}

/* Members of groups: CSR from the group of each row. */
static void
members(const uint32_t *grp, size_t nrow, size_t ngroup, size_t **off,
    uint32_t **mem)
{
	size_t *o = xcalloc(ngroup + 2, sizeof *o), *fill, i;
	uint32_t *m = xreallocarray(NULL, nrow + 1, sizeof *m);

	for (i = 0; i < nrow; i++)
		o[grp[i] + 1]++;
	for (i = 0; i < ngroup; i++)
		o[i + 1] += o[i];
	fill = xreallocarray(NULL, ngroup + 1, sizeof *fill);
	memcpy(fill, o, ngroup * sizeof *fill);
	for (i = 0; i < nrow; i++)
		m[fill[grp[i]]++] = (uint32_t)i;
	free(fill);
	*off = o;
	*mem = m;
}

/* Statistics of one column of a group, as pandas computes them. */
struct stats {
	double sum, mean, median, std, min, max;
	size_t n;
};

static void
stats(struct stats *s, const double *v, size_t n)
{
	struct kahan k = { 0, 0 };
	struct welford w = { 0, 0, 0 };
	double *m;
	size_t i;

	memset(s, 0, sizeof *s);
	s->n = n;
	s->min = s->max = n > 0 ? v[0] : NAN;
	for (i = 0; i < n; i++) {
		kahan_add(&k, v[i]);
		welford_add(&w, v[i]);
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->sum = k.s;
	s->mean = n > 0 ? k.s / (double)n : NAN;
	s->std = welford_std(&w);
	m = xreallocarray(NULL, n + 1, sizeof *m);
	memcpy(m, v, n * sizeof *m);
	s->median = median(m, n);
	free(m);
}

/* Like stats, NaN values left out (pandas skipna). */
static void
stats_nan(struct stats *s, const double *v, size_t n)
{
	double *w = xreallocarray(NULL, n + 1, sizeof *w);
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			w[k++] = v[i];
	stats(s, w, k);
	s->n = n;
	free(w);
}

/* A stream value (the stream column's text) in Python's repr. */
static void
sb_stream(struct sbuf *b, uint32_t id, int json)
{
	const char *s;
	size_t n, i;

	if (id == NONE) {
		sb_puts(b, json ? "null" : "None");
		return;
	}
	s = agg_str(id, &n);
	for (i = s[0] == '-' ? 1 : 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			break;
	if (i == n && n > (s[0] == '-' ? 1u : 0u)) {
		sb_add(b, s, n);
		return;
	}
	if (json)
		sb_jsonstr(b, s, n);
	else
		sb_pystr(b, s, n);
}

/* A value in ticks as us, in the output's form. */
static void
sb_np(struct sbuf *b, double ticks)
{
	if (agg_csv) {
		sb_puts(b, "np.float64(");
		sb_pyfloat(b, ticks);
		sb_char(b, ')');
	} else
		sb_double(b, agg_us(ticks));
}

/*
 * Python reprs of kernel names, made once per trace: the kernel details
 * of every group repeat them. Per id, whole and cut to 64 characters:
 * off 0 when not made yet, else the repr is reprs.p[off - 1, + len).
 */
struct nrepr {
	size_t off[2], len[2];
};
static struct nrepr *nrepr;
static size_t capnrepr;
static struct sbuf reprs;

static void
pyname(struct sbuf *b, uint32_t id, int cut)
{
	struct nrepr *r;
	const char *s;
	size_t n, c, had = capnrepr;

	if (id >= capnrepr) {
		xgrow(&nrepr, &capnrepr, (size_t)id + 1, sizeof *nrepr);
		memset(nrepr + had, 0, (capnrepr - had) * sizeof *nrepr);
	}
	r = &nrepr[id];
	if (r->off[cut] == 0) {
		s = agg_str(id, &n);
		had = reprs.n;
		if (cut && utf8_cut(s, n, 64, &c)) {
			sb2.n = 0;
			sb_add(&sb2, s, c);
			sb_puts(&sb2, "...");
			sb_pystr(&reprs, sb2.p, sb2.n);
		} else
			sb_pystr(&reprs, s, n);
		r->off[cut] = had + 1;
		r->len[cut] = reprs.n - had;
	}
	sb_add(b, reprs.p + r->off[cut] - 1, r->len[cut]);
}

struct kdpos {
	uint32_t name, stream;
	size_t count, at;
	double total, mean, median, std, min, max;
};

static int
cmpkd(const void *a, const void *b)
{
	const struct kdpos *x = a, *y = b;
	int c;

	if (x->total != y->total)
		return x->total < y->total ? -1 : 1;
	if ((c = cmpid(x->name, y->name)) != 0)
		return c;
	return (x->at > y->at) - (x->at < y->at);
}

/*
 * kernel_details_summary (spec 5.10) of the kernel lists inst[0..n)
 * (each a list of GPU events, off[i]..off[i+1) in ev), and its
 * trunc_kernel_details; JSON for a stream.
 */
static void
kdsummary(struct sbuf *full, struct sbuf *trunc, const uint32_t *ev,
    const size_t *off, size_t n)
{
	struct kdpos *pos;
	size_t t = n, i, p, len, r, nr;
	double *v;
	const char *s;
	size_t sl;

	full->n = trunc->n = 0;
	for (i = 0; i < n; i++)
		if (off[i + 1] > off[i]) {
			t = i;
			break;
		}
	if (t == n) {
		sb_puts(full, "[]");
		sb_puts(trunc, "[]");
		return;
	}
	len = off[t + 1] - off[t];
	for (i = 0; i < n; i++)
		if (off[i + 1] - off[i] != len && off[i + 1] > off[i])
			nkdskip++;
	pos = xcalloc(len, sizeof *pos);
	v = xreallocarray(NULL, n + 1, sizeof *v);
	for (p = 0; p < len; p++) {
		const struct ev *te = &agg_e[ev[off[t] + p]];

		for (nr = 0, r = 0; r < n; r++)
			if (off[r + 1] - off[r] == len)
				v[nr++] = agg_e[ev[off[r] + p]].dur;
		pos[p].name = te->name;
		pos[p].stream = te->stream;
		pos[p].count = nr;
		pos[p].total = tl_np_sum(v, nr);
		pos[p].mean = pos[p].total / (double)nr;
		pos[p].std = np_std(v, nr);
		pos[p].min = pos[p].max = v[0];
		for (r = 1; r < nr; r++) {
			if (v[r] < pos[p].min)
				pos[p].min = v[r];
			if (v[r] > pos[p].max)
				pos[p].max = v[r];
		}
		pos[p].median = median(v, nr);
	}
	/* Python's sorted is stable: ties keep their position. */
	for (p = 0; p < len; p++)
		pos[p].at = p;
	qsort(pos, len, sizeof *pos, cmpkd);
	sb_char(full, '[');
	sb_char(trunc, '[');
	for (p = 0; p < len; p++) {
		const struct kdpos *k = &pos[p];

		if (p > 0) {
			sb_puts(full, ", ");
			sb_puts(trunc, ", ");
		}
		s = agg_str(k->name, &sl);
		if (!agg_csv) {
			if (p > 0)
				full->n--;	/* JSON: "," alone */
			sb_puts(full, "{\"name\":");
			sb_jsonstr(full, s, sl);
			sb_puts(full, ",\"stream\":");
			sb_stream(full, k->stream, 1);
			sb_printf(full, ",\"count\":%zu,\"total_us\":",
			    k->count);
			sb_np(full, k->total);
			sb_puts(full, ",\"mean_us\":");
			sb_np(full, k->mean);
			sb_puts(full, ",\"median_us\":");
			sb_np(full, k->median);
			sb_puts(full, ",\"std_us\":");
			sb_np(full, k->std);
			sb_puts(full, ",\"min_us\":");
			sb_np(full, k->min);
			sb_puts(full, ",\"max_us\":");
			sb_np(full, k->max);
			sb_char(full, '}');
			continue;
		}
		sb_puts(full, "{'name': ");
		pyname(full, k->name, 0);
		sb_puts(full, ", 'stream': ");
		sb_stream(full, k->stream, 0);
		sb_printf(full, ", 'count': %zu, 'total_duration_us': ",
		    k->count);
		sb_np(full, k->total);
		sb_puts(full, ", 'mean_duration_us': ");
		sb_np(full, k->mean);
		sb_puts(full, ", 'median_duration_us': ");
		sb_np(full, k->median);
		sb_puts(full, ", 'std_dev_duration_us': ");
		sb_np(full, k->std);
		sb_puts(full, ", 'min_duration_us': ");
		sb_np(full, k->min);
		sb_puts(full, ", 'max_duration_us': ");
		sb_np(full, k->max);
		sb_char(full, '}');

		sb_puts(trunc, "{'name': ");
		pyname(trunc, k->name, 1);
		sb_puts(trunc, ", 'stream': ");
		sb_stream(trunc, k->stream, 0);
		sb_puts(trunc, ", 'mean_duration_us': ");
		sb_np(trunc, np_round2(k->mean));
		sb_char(trunc, '}');
	}
	sb_char(full, ']');
	sb_char(trunc, ']');
	free(pos);
	free(v);
}

/*
 * The tuple reprs of argument ids, made once per trace: the same shapes
 * come back in every sheet. Per id: 0 not made yet, 1 not JSON, else
 * the repr is reprs.p[off - 2 .. off - 2 + len).
 */
struct argrepr {
	size_t off, len;
};
static struct argrepr *argrepr;
static size_t capargrepr;

/* An argument column (JSON text) as a cell: a tuple repr, or the JSON. */
static void
tab_arg(struct table *t, uint32_t id)
{
	struct argrepr *r;
	const char *s;
	size_t n, had = capargrepr;

	if (id == NONE) {
		tab_none(t);
		return;
	}
	s = agg_str(id, &n);
	if (!agg_csv) {
		tab_str(t, s, n);
		return;
	}
	if (id >= capargrepr) {
		xgrow(&argrepr, &capargrepr, (size_t)id + 1, sizeof *argrepr);
		memset(argrepr + had, 0, (capargrepr - had) *
		    sizeof *argrepr);
	}
	r = &argrepr[id];
	if (r->off == 0) {
		had = reprs.n;
		if (sb_pyjson(&reprs, s, n, 1) < 0)
			r->off = 1;
		else {
			r->off = had + 2;
			r->len = reprs.n - had;
		}
	}
	if (r->off == 1) {
		char q[TL_QUOTE_MAX];

		agg_warn("argument not JSON, written as it is: \"%s\"",
		    tl_quote(q, sizeof q, s, n));
		tab_str(t, s, n);
		return;
	}
	tab_str(t, reprs.p + r->off - 2, r->len);
}

/*
 * Process and thread names of an event, "Unknown" when missing. A
 * process's are on its thread "0": metadata rows were all read, so if
 * "0" was not in the stream then, no process has them.
 */
static uint32_t tidzero;

static uint32_t
meta(int what, const struct ev *e)
{
	uint32_t v, tid;

	tid = what == M_TNAME ? e->tid : tidzero;
	v = e->pid == NONE ? NONE : agg_meta(what, e->pid, tid);
	if (v != NONE)
		return v;
	return idstr("Unknown");
}

/* Percentage (%) and Cumulative Percentage (%) of x[0..n). */
static void
percents(const double *x, size_t n, double *pct, double *cum)
{
	double tot = tl_np_sum(x, n), c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		pct[i] = x[i] / tot * 100;
		c += pct[i];
		cum[i] = c;
	}
}

/* The timeline (spec 3.3, 5.1). */
static void
timeline(struct table *t)
{
	static const char *const tl[] = { "type", "time ms", "percent",
	    NULL };
	static const char *const nat[] = { "type", "time_ms", "percent",
	    NULL };
	struct iv *comp, *comm, *mem, *all, *x, *y;
	size_t nc = 0, nm = 0, ny = 0, na = 0, nx, i, n = 0;
	double v[9], tot;
	const char *names[9];
	int k = 0;

	tab_init(t, agg_tabname[T_TIMELINE], agg_sheetname[T_TIMELINE],
	    agg_csv ? tl : nat);
	totaltime = NAN;
	for (i = 0; i < agg_ngts; i++)
		if (agg_unlinked || (agg_e[agg_gts[i]].flags & F_LINKED))
			n++;
	if (n == 0)
		return;
	comp = xcalloc(n, sizeof *comp);
	comm = xcalloc(n, sizeof *comm);
	mem = xcalloc(n, sizeof *mem);
	all = xcalloc(n, sizeof *all);
	x = xcalloc(2 * n + 2, sizeof *x);
	y = xcalloc(2 * n + 2, sizeof *y);
	/* by start: the merges need not sort */
	for (i = 0; i < agg_ngts; i++) {
		const struct ev *e = &agg_e[agg_gts[i]];
		struct iv iv;

		if (!(agg_unlinked || (e->flags & F_LINKED)))
			continue;
		iv.s = e->ts;
		iv.e = e->end;
		all[na++] = iv;
		if (e->flags & F_MEMCPYK)
			mem[nm++] = iv;
		else if (e->flags & F_COMM)
			comm[ny++] = iv;
		else
			comp[nc++] = iv;
	}
	nc = agg_ivmerge(comp, nc);
	ny = agg_ivmerge(comm, ny);
	nm = agg_ivmerge(mem, nm);
	na = agg_ivmerge(all, na);
	tot = all[na - 1].e - all[0].s;
	totaltime = tot;
	names[k] = "computation_time";
	v[k++] = agg_ivlen(comp, nc);
	names[k] = "exposed_comm_time";
	v[k++] = agg_ivlen(x, ivsub(comp, nc, comm, ny, x));
	nx = ivsub(comp, nc, mem, nm, x);
	names[k] = "exposed_memcpy_time";
	v[k++] = agg_ivlen(y, ivsub(comm, ny, x, nx, y));
	names[k] = "busy_time";
	v[k++] = agg_ivlen(all, na);
	if (agg_microidle < 0) {
		names[k] = "idle_time";
		v[k] = tot - v[k - 1];
		k++;
	} else {
		struct iv span;
		double th = agg_nat ? agg_microidle * 1e3 : agg_microidle;
		double mic = 0, mac = 0;

		span.s = all[0].s;
		span.e = all[na - 1].e;
		nx = ivsub(all, na, &span, 1, x);
		for (i = 0; i < nx; i++) {
			if (x[i].e - x[i].s < th)
				mic += x[i].e - x[i].s;
			else
				mac += x[i].e - x[i].s;
		}
		names[k] = "micro_idle_time";
		v[k++] = mic;
		names[k] = "macro_idle_time";
		v[k++] = mac;
	}
	names[k] = "total_time";
	v[k++] = tot;
	names[k] = "total_comm_time";
	v[k++] = agg_ivlen(comm, ny);
	names[k] = "total_memcpy_time";
	v[k++] = agg_ivlen(mem, nm);
	for (i = 0; i < (size_t)k; i++) {
		tab_cstr(t, names[i]);
		tab_dbl(t, agg_ms(v[i]));
		tab_dbl(t, v[i] / tot * 100);
	}
	free(comp);
	free(comm);
	free(mem);
	free(all);
	free(x);
	free(y);
}

/* sum / total_time * 100, as TraceLens computes it from total_time_ms. */
static double
pct_total(double sum)
{
	if (isnan(totaltime))
		return NAN;
	if (agg_nat)
		return sum / totaltime * 100;
	return sum / (totaltime / 1e3 * 1e3) * 100;
}

static int
cmpts(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	int64_t p = agg_e[i].tsns, q = agg_e[j].tsns;

	if (p != q)
		return (p > q) - (p < q);
	return (i > j) - (i < j);
}

/*
 * Sort event indexes by cmp, an order with no ties: mostly they come in
 * order already.
 */
static void
sortidx(uint32_t *a, size_t n, int (*cmp)(const void *, const void *))
{
	size_t i;

	for (i = 1; i < n; i++)
		if (cmp(&a[i - 1], &a[i]) > 0) {
			qsort(a, n, sizeof *a, cmp);
			return;
		}
}

/* get_kernel_launchers (spec 4). */
static void
launchers(void)
{
	struct tl_sortkey *k;
	struct launcher *sorted;
	size_t i, *cnt;
	uint32_t l, g;

	if (launchers_done)
		return;
	launchers_done = 1;
	lslot = xreallocarray(NULL, agg_n + 1, sizeof *lslot);
	for (i = 0; i < agg_n; i++)
		lslot[i] = NONE;
	nl = 0;
	for (i = 0; i < agg_n; i++) {
		const struct ev *e = &agg_e[i];

		if (!ISGPU(e->kind) || (e->flags & F_COMM) ||
		    e->parent == NONE)
			continue;
		l = e->launcher != NONE ? e->launcher : e->parent;
		if (lslot[l] == NONE)
			lslot[l] = (uint32_t)nl++;
	}
	L = xcalloc(nl + 1, sizeof *L);
	cnt = xcalloc(nl + 2, sizeof *cnt);
	for (i = 0; i < agg_n; i++) {
		const struct ev *e = &agg_e[i];

		if (!ISGPU(e->kind) || (e->flags & F_COMM) ||
		    e->parent == NONE)
			continue;
		l = e->launcher != NONE ? e->launcher : e->parent;
		L[lslot[l]].ev = l;
		L[lslot[l]].nk++;
	}
	for (i = 0; i < nl; i++) {
		L[i].k0 = (uint32_t)cnt[0];
		cnt[0] += L[i].nk;
		L[i].nk = 0;
	}
	lk = xreallocarray(NULL, cnt[0] + 1, sizeof *lk);
	for (i = 0; i < agg_n; i++) {
		const struct ev *e = &agg_e[i];
		struct launcher *p;

		if (!ISGPU(e->kind) || (e->flags & F_COMM) ||
		    e->parent == NONE)
			continue;
		l = e->launcher != NONE ? e->launcher : e->parent;
		p = &L[lslot[l]];
		lk[p->k0 + p->nk++] = (uint32_t)i;
	}
	free(cnt);
	for (i = 0; i < nl; i++) {
		struct launcher *p = &L[i];
		const struct ev *e = &agg_e[p->ev];

		p->direct = busy(lk + p->k0, p->nk);
		p->subtree = e->ghi > e->glo ?
		    busy(agg_gord + e->glo, e->ghi - e->glo) : 0;
		/* kernel_details: by ts, stable. */
		sortidx(lk + p->k0, p->nk, cmpts);
		g = p->nk > 0 ? lk[p->k0] : NONE;
		p->cat = idstr(categorize(e->name, g));
	}
	/* By start, ties in first-seen order (which L is in): stable. */
	k = xreallocarray(NULL, nl + 1, sizeof *k);
	for (i = 0; i < nl; i++) {
		k[i].k = (uint64_t)agg_e[L[i].ev].tsns ^ UINT64_C(1) << 63;
		k[i].i = (uint32_t)i;
	}
	tl_key_sort(k, nl);
	sorted = xreallocarray(NULL, nl + 1, sizeof *sorted);
	for (i = 0; i < nl; i++)
		sorted[i] = L[k[i].i];
	free(L);
	free(k);
	L = sorted;
	for (i = 0; i < nl; i++)
		lslot[L[i].ev] = (uint32_t)i;
}

/* A table TraceLens leaves out of a GPU-only trace. */
static int
gpuonly(struct table *t)
{
	if (!agg_gpuonly)
		return 0;
	t->skip = 1;
	return 1;
}

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
static void
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
static void
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
		key[2] = meta(M_PNAME, e);
		key[3] = meta(M_PLABEL, e);
		key[4] = meta(M_TNAME, e);
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

static void
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
		key[2] = meta(M_PNAME, e);
		key[3] = meta(M_PLABEL, e);
		key[4] = meta(M_TNAME, e);
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
	K = xcalloc(agg_n + 1, sizeof *K);
	for (i = 0; i < agg_n; i++) {
		const struct ev *e = &agg_e[i];
		struct krow *k;

		if (e->kind != K_KERNEL)
			continue;
		k = &K[n++];
		k->ev = (uint32_t)i;
		k->launch = e->parent;
		k->cpuop = k->cat = NONE;
		if (k->launch == NONE)
			continue;
		for (p = agg_e[k->launch].parent; p != NONE;
		    p = agg_e[p].parent)
			if (agg_e[p].kind == K_CPU_OP)
				break;
		k->cpuop = p;
		if (p != NONE) {
			if (lslot[p] != NONE)
				k->cat = L[lslot[p]].cat;
			else
				k->cat = idstr(categorize(agg_e[p].name,
				    NONE));
		} else {
			const char *s;
			size_t sn, j;
			char low[64];

			s = agg_str(agg_e[k->launch].name, &sn);
			for (j = 0; j < sn && j < sizeof low - 1; j++)
				low[j] = (char)(s[j] >= 'A' && s[j] <= 'Z' ?
				    s[j] | 0x20 : s[j]);
			low[j] = '\0';
			k->cat = idstr(strstr(low, "cudagraph") != NULL ||
			    strstr(low, "graphlaunch") != NULL ? "graph" :
			    "runtime");
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
		return agg_e[k->cpuop].name;
	if (k->launch != NONE)
		return agg_e[k->launch].name;
	return NONE;
}

/* Numeric order of stream texts that are integers; NaN last. */
static int
cmpstream(uint32_t a, uint32_t b)
{
	const char *x, *y;
	char *e1, *e2;
	double p, q;

	if (a == b)
		return 0;
	if (a == NONE || b == NONE)
		return a == NONE ? 1 : -1;
	x = agg_str(a, NULL);
	y = agg_str(b, NULL);
	p = strtod(x, &e1);
	q = strtod(y, &e2);
	if (*e1 == '\0' && *e2 == '\0' && p != q)
		return p < q ? -1 : 1;
	return cmpid(a, b);
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
	return cmpstream(x[3], y[3]);
}

/* kernel_summary (5.7). */
static void
kernels(struct table *t)
{
	static const char *const tlc[] = { "Parent op category",
	    "Parent cpu_op", "Kernel name", "Kernel stream",
	    "Kernel duration (\xc2\xb5s)_sum",
	    "Kernel duration (\xc2\xb5s)_count",
	    "Kernel duration (\xc2\xb5s)_mean",
	    "Kernel duration (\xc2\xb5s)_min",
	    "Kernel duration (\xc2\xb5s)_max", "Percent of kernels time (%)",
	    "Percent of total time (%)", NULL };
	static const char *const nat[] = { "category", "parent_op", "name",
	    "stream", "duration_us_sum", "count", "duration_us_mean",
	    "duration_us_min", "duration_us_max", "percent_of_kernels",
	    "percent_of_total", NULL };
	struct krow *K;
	size_t nk, i, j, ng, *off, *perm;
	struct grouper g = { 4, NULL, 0, 0, NULL, 0 };
	uint32_t key[4], *grp, *mem, *order;
	double *d, tot, *sum;
	int cols = !agg_gpuonly;

	if (agg_csv && !cols) {
		static const char *tlg[12];

		for (i = j = 0; tlc[i] != NULL; i++)
			if (i != 1)
				tlg[j++] = tlc[i];
		tlg[j] = NULL;
		tab_init(t, agg_tabname[T_KERNELS], agg_sheetname[T_KERNELS],
		    tlg);
	} else
		tab_init(t, agg_tabname[T_KERNELS], agg_sheetname[T_KERNELS],
		    agg_csv ? tlc : nat);
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
		const struct ev *e = &agg_e[K[i].ev];

		key[0] = K[i].cat;
		key[1] = cols ? kparent(&K[i]) : NONE;
		key[2] = e->name;
		key[3] = e->stream;
		grp[i] = (uint32_t)gfind(&g, key);
		d[i] = e->dur;
	}
	tot = tl_np_sum(d, nk);
	ng = g.ngroup;
	members(grp, nk, ng, &off, &mem);
	order = xreallocarray(NULL, ng + 1, sizeof *order);
	for (i = 0; i < ng; i++)
		order[i] = (uint32_t)i;
	kskey = g.key;
	kscols = cols;
	qsort(order, ng, sizeof *order, cmpksum);
	sum = xcalloc(ng + 1, sizeof *sum);
	for (i = 0; i < ng; i++) {
		struct kahan k = { 0, 0 };

		for (j = off[order[i]]; j < off[order[i] + 1]; j++)
			kahan_add(&k, d[mem[j]]);
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
		tab_id(t, kk[0]);
		if (cols || !agg_csv)
			tab_id(t, kk[1]);
		tab_id(t, kk[2]);
		if (kk[3] == NONE)
			tab_none(t);
		else if (agg_csv) {
			sb.n = 0;
			sb_stream(&sb, kk[3], 0);
			if (sb.n > 0 && sb.p[0] != '\'' && sb.p[0] != '"')
				tab_int(t, strtoll(sb.p, NULL, 10));
			else
				tab_id(t, kk[3]);
		} else
			tab_id(t, kk[3]);
		tab_dbl(t, agg_us(s));
		tab_int(t, (int64_t)m);
		tab_dbl(t, agg_us(s / (double)m));
		tab_dbl(t, agg_us(mn));
		tab_dbl(t, agg_us(mx));
		tab_dbl(t, s / tot * 100);
		tab_dbl(t, pct_total(s));
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

/* Kahan mean, as pandas computes a group mean. */
static double
kmean(const double *v, size_t n)
{
	struct kahan k = { 0, 0 };
	size_t i;

	for (i = 0; i < n; i++)
		kahan_add(&k, v[i]);
	return k.s / (double)n;
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

/* short_kernels_summary and short_kernel_histogram (5.8). */
static void
short_kernels(struct table *t, struct table *h, int quiet)
{
	static const char *const tlc[] = { "Parent cpu_op", "Input dims",
	    "Input strides", "Concrete Inputs", "Kernel name",
	    "Short Kernel duration (\xc2\xb5s) sum", "Short Kernel count",
	    "Short Kernel duration (\xc2\xb5s) mean",
	    "Short Kernel duration (\xc2\xb5s) percent of total time", NULL };
	static const char *const tlg[] = { "Kernel name",
	    "Short Kernel duration (\xc2\xb5s) sum", "Short Kernel count",
	    "Short Kernel duration (\xc2\xb5s) mean",
	    "Short Kernel duration (\xc2\xb5s) percent of total time", NULL };
	static const char *const nat[] = { "parent_op", "input_dims",
	    "input_strides", "concrete_inputs", "name", "duration_us_sum",
	    "count", "duration_us_mean", "percent_of_total", NULL };
	static const char *const tlh[] = { "bin_start", "bin_end", "count",
	    NULL };
	static const char *const nath[] = { "bin_start_us", "bin_end_us",
	    "count", NULL };
	struct krow *K;
	struct grouper g = { 5, NULL, 0, 0, NULL, 0 };
	size_t nk, i, j, ns = 0, ng, *off, ndrop = 0;
	uint32_t key[5], *grp, *mem, *sel;
	double *v, th, *edges;
	int64_t *cnt;
	struct srow *S;

	tab_init(t, agg_tabname[T_SHORT], agg_sheetname[T_SHORT],
	    agg_csv ? (agg_gpuonly ? tlg : tlc) : nat);
	tab_init(h, agg_tabname[T_HIST], agg_sheetname[T_HIST],
	    agg_csv ? tlh : nath);
	K = kernel_rows(&nk);
	th = agg_nat ? agg_shortus * 1e3 : agg_shortus;
	sel = xreallocarray(NULL, nk + 1, sizeof *sel);
	v = xreallocarray(NULL, nk + 1, sizeof *v);
	for (i = 0; i < nk; i++)
		if (agg_e[K[i].ev].dur < th) {
			sel[ns] = (uint32_t)i;
			v[ns++] = (double)agg_e[K[i].ev].durns / 1e3;
		}
	if (ns == 0) {
		if (agg_single) {
			sb.n = 0;
			sb_printf(&sb, "no kernels shorter than %g us",
			    agg_shortus);
			agg_empty(agg_single == T_HIST + 1 ? h : t, sb.p);
		}
		t->blank = 1;
		free(K);
		free(sel);
		free(v);
		return;
	}
	edges = xcalloc((size_t)agg_bins + 1, sizeof *edges);
	cnt = xcalloc((size_t)agg_bins + 1, sizeof *cnt);
	histogram(v, ns, agg_bins, edges, cnt);
	for (i = 0; i < (size_t)agg_bins; i++) {
		tab_dbl(h, edges[i]);
		tab_dbl(h, edges[i + 1]);
		tab_int(h, cnt[i]);
	}
	free(edges);
	free(cnt);

	grp = xreallocarray(NULL, ns + 1, sizeof *grp);
	for (i = j = 0; i < ns; i++) {
		const struct krow *k = &K[sel[i]];
		const struct ev *e = &agg_e[k->ev];

		memset(key, 0xff, sizeof key);
		key[4] = e->name;
		if (!agg_gpuonly) {
			key[0] = kparent(k);
			if (k->cpuop != NONE) {
				key[1] = agg_e[k->cpuop].arg[0];
				key[2] = agg_e[k->cpuop].arg[2];
				key[3] = agg_e[k->cpuop].arg[3];
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

		for (j = 0; j < m; j++)
			v[j] = agg_e[K[sel[mem[off[i] + j]]].ev].dur;
		S[i].g = i;
		S[i].count = m;
		{
			struct kahan k = { 0, 0 };

			for (j = 0; j < m; j++)
				kahan_add(&k, v[j]);
			S[i].sum = k.s;
		}
		S[i].mean = kmean(v, m);
		S[i].pct = pct_total(S[i].sum);
	}
	qsort(S, ng, sizeof *S, cmpsrow);
	if (agg_topk >= 0 && (size_t)agg_topk < ng)
		ng = (size_t)agg_topk;
	for (i = 0; i < ng; i++) {
		const uint32_t *kk = &g.key[S[i].g * 5];

		if (!agg_csv || !agg_gpuonly) {
			tab_id(t, kk[0]);
			for (j = 1; j < 4; j++)
				tab_arg(t, kk[j]);
		}
		tab_id(t, kk[4]);
		tab_dbl(t, agg_us(S[i].sum));
		tab_int(t, (int64_t)S[i].count);
		tab_dbl(t, agg_us(S[i].mean));
		tab_dbl(t, S[i].pct);
	}
	gfree(&g);
	free(S);
	free(off);
	free(mem);
	free(grp);
	free(K);
	free(sel);
	free(v);
}

/* coll_analysis (5.9). */
static const char *const collkey[] = { "Process Group Name",
    "Process Group Ranks", "Collective name", "Group size", "dtype",
    "In msg nelems", "Out msg nelems", "In split size", "Out split size",
    NULL };

static double
bpe(const char *s, size_t n)
{
	static const struct {
		const char *name;
		double b;
	} t[] = { { "Float", 4 }, { "Int", 4 }, { "Long", 8 },
	    { "BFloat16", 2 }, { "Bool", 1 }, { "Byte", 1 }, { "Double", 8 },
	    { "Half", 2 }, { "Short", 2 } };
	size_t i;

	for (i = 0; i < sizeof t / sizeof *t; i++)
		if (strlen(t[i].name) == n && memcmp(t[i].name, s, n) == 0)
			return t[i].b;
	return NAN;
}

struct crow {
	uint32_t key[11];	/* 9 args (JSON text), stream; [10] unused */
	uint32_t ev;
};

static const uint32_t *cgkey;

static int
cmpcoll(const void *a, const void *b)
{
	const uint32_t *x = &cgkey[*(const uint32_t *)a * 10];
	const uint32_t *y = &cgkey[*(const uint32_t *)b * 10];
	int c, i;
	double p, q;
	char *e1, *e2;

	for (i = 0; i < 10; i++) {
		if (x[i] == y[i])
			continue;
		if (x[i] == NONE || y[i] == NONE)
			return x[i] == NONE ? 1 : -1;
		p = strtod(agg_str(x[i], NULL), &e1);
		q = strtod(agg_str(y[i], NULL), &e2);
		if (*e1 == '\0' && *e2 == '\0' && p != q)
			return p < q ? -1 : 1;
		if ((c = cmpid(x[i], y[i])) != 0)
			return c;
	}
	return 0;
}

static void
collectives(struct table *t)
{
	static const char *const tlc[] = { "rank", "Process Group Name",
	    "Process Group Ranks", "Collective name", "Group size", "dtype",
	    "In msg nelems", "Out msg nelems", "In split size",
	    "Out split size", "stream", "In msg size (MB)_first",
	    "Out msg size (MB)_first", "dur_sum", "dur_mean", "dur_std",
	    "dur_min", "dur_max", "operation_count", NULL };
	static const char *const nat[] = { "rank", "process_group",
	    "process_group_ranks", "collective", "group_size", "dtype",
	    "in_nelems", "out_nelems", "in_split_size", "out_split_size",
	    "stream", "in_mib", "out_mib", "duration_us_sum",
	    "duration_us_mean", "duration_us_std", "duration_us_min",
	    "duration_us_max", "count", NULL };
	struct grouper g = { 10, NULL, 0, 0, NULL, 0 };
	uint32_t key[10], *grp, *mem, *sel, *order;
	size_t i, j, n = 0, ng, *off, *perm, ndrop = 0, ncoll = 0;
	const char *s, *v;
	size_t sn, vn;
	double *sum, *d;
	struct stats st;
	int nanfloat[10] = { 0 };

	tab_init(t, agg_tabname[T_COLL], agg_sheetname[T_COLL],
	    agg_csv ? tlc : nat);
	if (agg_gpuonly) {
		t->skip = 1;
		return;
	}
	sel = xreallocarray(NULL, agg_n + 1, sizeof *sel);
	grp = xreallocarray(NULL, agg_n + 1, sizeof *grp);
	for (i = 0; i < agg_n; i++) {
		const struct ev *e = &agg_e[i];
		int miss = 0;

		if (e->kind != K_KERNEL || !(e->flags & F_COMM) ||
		    !(e->flags & F_CORR))
			continue;
		ncoll++;
		s = e->args != NONE ? agg_str(e->args, &sn) : "";
		if (e->args == NONE)
			sn = 0;
		for (j = 0; j < 9; j++) {
			key[j] = NONE;
			if (json_get(s, sn, collkey[j], &v, &vn))
				key[j] = tl_intern(agg_in, v, vn);
			else if (j == 0)
				key[j] = idstr("\"Unknown_Group\"");
			else if (j == 2) {
				const char *nm;
				size_t nn;

				nm = agg_str(e->name, &nn);
				sb.n = 0;
				sb_add(&sb, nm, nn);
				if (strstr(sb.p, "cross_device_reduce") !=
				    NULL)
					key[j] = idstr("\"allreduce\"");
			}
			if (key[j] == NONE) {
				miss = 1;
				nanfloat[j] = 1;
			}
		}
		key[9] = e->stream;
		if (key[9] == NONE)
			miss = nanfloat[9] = 1;
		if (miss && !agg_keep) {
			ndrop++;
			continue;
		}
		sel[n] = (uint32_t)i;
		grp[n++] = (uint32_t)gfind(&g, key);
	}
	if (ncoll == 0) {
		agg_empty(t, "no collective kernels");
		t->skip = 1;
		goto out0;
	}
	if (ndrop > 0)
		agg_note("%zu of %zu collective kernel%s left out of \"%s\" "
		    "as TraceLens does: an argument is missing (-k keeps "
		    "them)", ndrop, ncoll, PL(ncoll), t->name);
	ng = g.ngroup;
	if (ng == 0) {
		t->skip = 1;
		goto out0;
	}
	members(grp, n, ng, &off, &mem);
	order = xreallocarray(NULL, ng + 1, sizeof *order);
	for (i = 0; i < ng; i++)
		order[i] = (uint32_t)i;
	cgkey = g.key;
	qsort(order, ng, sizeof *order, cmpcoll);
	sum = xcalloc(ng + 1, sizeof *sum);
	d = xcalloc(n + 1, sizeof *d);
	for (i = 0; i < ng; i++) {
		struct kahan k = { 0, 0 };

		for (j = off[order[i]]; j < off[order[i] + 1]; j++)
			kahan_add(&k, agg_e[sel[mem[j]]].dur);
		sum[i] = k.s;
	}
	perm = xcalloc(ng + 1, sizeof *perm);
	tl_nargsort_desc(sum, ng, perm);
	for (i = 0; i < ng; i++) {
		size_t gi = order[perm[i]], m = off[gi + 1] - off[gi];
		const uint32_t *kk = &g.key[gi * 10];
		double ne, b, mib[2];
		int w;

		for (j = 0; j < m; j++)
			d[j] = agg_e[sel[mem[off[gi] + j]]].dur;
		stats(&st, d, m);
		if (agg_csv)
			tab_int(t, 0);	/* TraceLens: rank = 0 */
		else
			tab_id(t, agg_rank);
		for (j = 0; j < 10; j++) {
			if (kk[j] == NONE) {
				tab_none(t);
				continue;
			}
			s = agg_str(kk[j], &sn);
			if (!agg_csv) {
				sb.n = 0;
				if (json_string(&sb, s, sn))
					tab_sb(t, &sb);
				else
					tab_str(t, s, sn);
				continue;
			}
			sb.n = 0;
			if (j == 9) {
				sb_stream(&sb, kk[j], 0);
				if (nanfloat[j] && sb.n > 0 &&
				    strspn(sb.p, "-0123456789") == sb.n)
					sb_puts(&sb, ".0");
			} else if (sb_pyjson(&sb, s, sn, 1) < 0)
				sb_add(&sb, s, sn);
			else if (sb.p[0] == '\'' || sb.p[0] == '"') {
				/* strings are cells without quotes */
				sb.n = 0;
				json_string(&sb, s, sn);
			} else if (nanfloat[j] && sb.n > 0 &&
			    strspn(sb.p, "-0123456789") == sb.n)
				sb_puts(&sb, ".0");
			tab_sb(t, &sb);
		}
		/* message sizes of the first kernel of the group */
		sb.n = 0;
		b = NAN;
		if (kk[4] != NONE) {
			s = agg_str(kk[4], &sn);
			if (json_string(&sb, s, sn))
				b = bpe(sb.p, sb.n);
		}
		for (w = 0; w < 2; w++) {
			mib[w] = NAN;
			if (kk[5 + w] == NONE)
				continue;
			ne = strtod(agg_str(kk[5 + w], NULL), NULL);
			mib[w] = ne * b / (1024 * 1024);
		}
		tab_dbl(t, mib[0]);
		tab_dbl(t, mib[1]);
		tab_dbl(t, agg_us(st.sum));
		tab_dbl(t, agg_us(st.mean));
		tab_dbl(t, agg_us(st.std));
		tab_dbl(t, agg_us(st.min));
		tab_dbl(t, agg_us(st.max));
		tab_int(t, (int64_t)m);
	}
	free(off);
	free(mem);
	free(order);
	free(sum);
	free(d);
	free(perm);
out0:
	gfree(&g);
	free(sel);
	free(grp);
}

/* Say why a table is empty, when it is the one asked for. */
static int nogpu;

void
agg_empty(const struct table *t, const char *why)
{
	if (agg_single && !nogpu)
		agg_note("%s: table \"%s\" is empty", why, t->name);
}

void
sheets(struct table *tabs, const int *want)
{
	int i;

	size_t ngpu = 0, nlink = 0, j;
	int ops = want[T_CATEGORIES] || want[T_OPS] || want[T_UNIQUE] ||
	    want[T_UNIFIED];

	nkdskip = 0;
	launchers_done = 0;
	memset(idc, 0, sizeof idc);
	nidc = 0;
	tidzero = agg_find("0");
	for (j = 0; j < agg_n; j++)
		if (ISGPU(agg_e[j].kind)) {
			ngpu++;
			nlink += (agg_e[j].flags & F_LINKED) != 0;
		}
	nogpu = ngpu == 0;
	if (ngpu == 0)
		agg_note("no GPU events: the tables are empty");
	else if (agg_gpuonly && (ops || want[T_COLL]))
		agg_note("no cpu_op events: the ops and collectives tables "
		    "are empty");
	if (nlink == 0 && ngpu > 0 && ((want[T_TIMELINE] && !agg_unlinked) ||
	    ops))
		agg_note("%zu GPU event%s, none linked to a launch: the "
		    "timeline is empty (see -a)%s", ngpu, PL(ngpu), ops ?
		    ", and so are the ops tables" : "");
	else if (nlink < ngpu && ((want[T_TIMELINE] && !agg_unlinked) ||
	    ops))
		agg_note("%zu of %zu GPU events not linked to a launch: left "
		    "out of the %s%s%s, as TraceLens does", ngpu - nlink, ngpu,
		    want[T_TIMELINE] && !agg_unlinked ?
		    "timeline (see -a)" : "",
		    want[T_TIMELINE] && !agg_unlinked && ops ? " and " : "",
		    ops ? "ops tables" : "");
	/* The timeline first: others use its total time. */
	timeline(&tabs[T_TIMELINE]);
	for (i = 1; i < NTABLES; i++) {
		if (!want[i])
			continue;
		switch (i) {
		case T_CATEGORIES:
			opsums(&tabs[i], 1);
			break;
		case T_OPS:
			opsums(&tabs[i], 0);
			break;
		case T_UNIQUE:
			unique_args(&tabs[i]);
			break;
		case T_UNIFIED:
			unified(&tabs[i]);
			break;
		case T_KERNELS:
			kernels(&tabs[i]);
			break;
		case T_SHORT:
			short_kernels(&tabs[i], &tabs[T_HIST], 0);
			break;
		case T_HIST:
			if (!want[T_SHORT]) {
				struct table tmp;

				short_kernels(&tmp, &tabs[i], 1);
				tab_free(&tmp);
			}
			break;
		case T_COLL:
			collectives(&tabs[i]);
			break;
		}
	}
	if (nkdskip > 0)
		agg_note("%" PRIu64 " op instance%s left out of kernel details:"
		    " a different number of kernels than the group's first",
		    nkdskip, PL(nkdskip));
}

void
sheets_free(void)
{
	free(L);
	free(lk);
	free(lslot);
	L = NULL;
	lk = lslot = NULL;
	nl = 0;
	launchers_done = 0;
	free(U);
	free(uk);
	U = NULL;
	uk = NULL;
	nu = nuk = capu = capuk = 0;
	free(argrepr);
	argrepr = NULL;
	capargrepr = 0;
	free(nrepr);
	nrepr = NULL;
	capnrepr = 0;
	reprs.n = 0;
}

void
sheets_final(void)
{
	sheets_free();
	free(ivs);
	free(sb.p);
	free(sb2.p);
	free(kdfull.p);
	free(reprs.p);
}
