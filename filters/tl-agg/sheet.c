/*
 * tl-agg: what the sheets of TraceLens's perf report share (spec
 * sections 3 to 5): the names of the tables and the columns they read,
 * the kernel launchers, the cells made of kernel details and argument
 * shapes, and the order the sheets of a trace are built in. Each sheet
 * is built in memory as a table whose cells hold what TraceLens
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
struct iv *ivbuf;
size_t capiv;
struct tl_out sb = MEMOUT, sb2 = MEMOUT, kdfull = MEMOUT;

/* Facts shared by the sheets of one trace. */
double totaltime;	/* of the timeline, ticks; NaN if none */
uint64_t nkdskip;	/* instances left out of kernel details */

/* Kernel launchers (spec 4). */
struct launcher *L;
size_t nl;
uint32_t *lk;		/* kernels of the launchers */
uint32_t *lslot;		/* event -> launcher, or NONE */
int launchers_done;


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

uint32_t
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


/* A stream value (the stream column's text) in Python's repr. */
void
sb_stream(struct tl_out *b, uint32_t id, int json)
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
		tl_out_raw(b, s, n);
		return;
	}
	if (json)
		tl_out_jsonstr(b, s, n);
	else
		tl_out_pystr(b, s, n);
}

/* A value in ticks as us, in the output's form. */
void
sb_np(struct tl_out *b, double ticks)
{
	if (agg_csv) {
		sb_puts(b, "np.float64(");
		tl_out_pyfloat(b, ticks);
		tl_out_char(b, ')');
	} else
		tl_out_double(b, agg_us(ticks));
}

/*
 * Python reprs of kernel names, made once per trace: the kernel details
 * of every group repeat them. Per id, whole and cut to 64 characters:
 * off 0 when not made yet, else the repr is reprs.buf[off - 1, + len).
 */
struct nrepr {
	size_t off[2], len[2];
};
static struct nrepr *nrepr;
static size_t capnrepr;
static struct tl_out reprs = MEMOUT;

static void
pyname(struct tl_out *b, uint32_t id, int cut)
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
			tl_out_raw(&sb2, s, c);
			sb_puts(&sb2, "...");
			tl_out_pystr(&reprs, sb2.buf, sb2.n);
		} else
			tl_out_pystr(&reprs, s, n);
		r->off[cut] = had + 1;
		r->len[cut] = reprs.n - had;
	}
	tl_out_raw(b, reprs.buf + r->off[cut] - 1, r->len[cut]);
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
void
kdsummary(struct tl_out *full, struct tl_out *trunc, const uint32_t *ev,
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
		pos[p].std = tl_np_std(v, nr);
		pos[p].min = pos[p].max = v[0];
		for (r = 1; r < nr; r++) {
			if (v[r] < pos[p].min)
				pos[p].min = v[r];
			if (v[r] > pos[p].max)
				pos[p].max = v[r];
		}
		pos[p].median = tl_median(v, nr);
	}
	/* Python's sorted is stable: ties keep their position. */
	for (p = 0; p < len; p++)
		pos[p].at = p;
	qsort(pos, len, sizeof *pos, cmpkd);
	tl_out_char(full, '[');
	tl_out_char(trunc, '[');
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
			tl_out_jsonstr(full, s, sl);
			sb_puts(full, ",\"stream\":");
			sb_stream(full, k->stream, 1);
			sb_puts(full, ",\"count\":");
			tl_out_i64(full, (int64_t)k->count);
			sb_puts(full, ",\"total_us\":");
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
			tl_out_char(full, '}');
			continue;
		}
		sb_puts(full, "{'name': ");
		pyname(full, k->name, 0);
		sb_puts(full, ", 'stream': ");
		sb_stream(full, k->stream, 0);
		sb_puts(full, ", 'count': ");
		tl_out_i64(full, (int64_t)k->count);
		sb_puts(full, ", 'total_duration_us': ");
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
		tl_out_char(full, '}');

		sb_puts(trunc, "{'name': ");
		pyname(trunc, k->name, 1);
		sb_puts(trunc, ", 'stream': ");
		sb_stream(trunc, k->stream, 0);
		sb_puts(trunc, ", 'mean_duration_us': ");
		sb_np(trunc, np_round2(k->mean));
		tl_out_char(trunc, '}');
	}
	tl_out_char(full, ']');
	tl_out_char(trunc, ']');
	free(pos);
	free(v);
}

/*
 * The tuple reprs of argument ids, made once per trace: the same shapes
 * come back in every sheet. Per id: 0 not made yet, 1 not JSON, else
 * the repr is reprs.buf[off - 2 .. off - 2 + len).
 */
struct argrepr {
	size_t off, len;
};
static struct argrepr *argrepr;
static size_t capargrepr;

/* An argument column (JSON text) as a cell: a tuple repr, or the JSON. */
void
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
		if (tl_out_pyjson(&reprs, s, n, PYTUPLES) < 0)
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
	tab_str(t, reprs.buf + r->off - 2, r->len);
}

/*
 * Process and thread names of an event, "Unknown" when missing. A
 * process's are on its thread "0": metadata rows were all read, so if
 * "0" was not in the stream then, no process has them.
 */
static uint32_t tidzero;

uint32_t
evmeta(int what, const struct ev *e)
{
	uint32_t v, tid;

	tid = what == M_TNAME ? e->tid : tidzero;
	v = e->pid == NONE ? NONE : agg_meta(what, e->pid, tid);
	if (v != NONE)
		return v;
	return idstr("Unknown");
}

/* Percentage (%) and Cumulative Percentage (%) of x[0..n). */
void
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


/* sum / total_time * 100, as TraceLens computes it from total_time_ms. */
double
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
void
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
void
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
int
gpuonly(struct table *t)
{
	if (!agg_gpuonly)
		return 0;
	t->skip = 1;
	return 1;
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
	unified_free();
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
	free(ivbuf);
	free(sb.buf);
	free(sb2.buf);
	free(kdfull.buf);
	free(reprs.buf);
}
