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

#define B(c)	TL_COL(c)
#define CORE	(B(TL_C_UID) | B(TL_C_CAT) | B(TL_C_NAME) | B(TL_C_TS) | \
	B(TL_C_DUR))
#define TREE	(CORE | B(TL_C_PARENT) | B(TL_C_LINKED) | B(TL_C_LAUNCHER))
#define OPS	(TREE | B(TL_C_PH) | B(TL_C_PID) | B(TL_C_TID) | \
	B(TL_C_ARGS) | OPARGS | B(TL_C_STREAM))
#define OPARGS	(B(TL_C_DIMS) | B(TL_C_TYPES) | B(TL_C_STRIDES) | \
	B(TL_C_CONCRETE))
#define DEV	(TREE | B(TL_C_STREAM) | B(TL_C_PID))
#define PERF	(B(TL_C_FLOP) | B(TL_C_BYTES) | B(TL_C_SPEC) | B(TL_C_PARAMS))

/*
 * The tables, in the order of T_*: tl-agg's name, TraceLens's sheet (or
 * NULL), the columns a table needs, and those it reads when they are
 * there.
 */
const struct tabdef agg_tab[NTABLES] = {
	{ "timeline", "gpu_timeline", CORE | B(TL_C_LINKED), 0, timeline },
	{ "categories", "ops_summary_by_category", TREE, 0, opsums },
	{ "ops", "ops_summary", TREE, 0, opsums },
	{ "unique_args", "ops_unique_args", OPS, 0, unique_args },
	{ "unified", "unified_perf_summary", OPS, PERF | B(TL_C_FWD),
	    unified },
	{ "kernels", "kernel_summary", TREE | B(TL_C_STREAM), 0, kernels },
	{ "short_kernels", "short_kernels_summary", TREE | OPARGS, 0,
	    short_kernels },
	{ "short_histogram", "short_kernel_histogram", TREE, 0,
	    short_kernels },
	{ "collectives", "coll_analysis", CORE | B(TL_C_ARGS) |
	    B(TL_C_STREAM) | B(TL_C_CORR) | B(TL_C_EXT), 0, collectives },
	/* tl's readings of HTA's ideas, named apart from HTA's tables */
	{ "idle_gaps", NULL, DEV, B(TL_C_TID), idle },
	{ "launch_delays", NULL, TREE | B(TL_C_STREAM), 0, launch },
	{ "launch_delay_stats", NULL, TREE, 0, launch },
	{ "comm_exposure", NULL, DEV, B(TL_C_TID), overlap },
	{ "streams", NULL, DEV, B(TL_C_TID), streams },
	{ "infer_categories", "ops_summary_by_category", TREE, 0, iopsums },
	{ "infer_ops", "ops_summary", TREE, 0, iopsums },
	{ "infer_unique_args", "ops_unique_args", OPS, 0, iunique }
};

/* Scratch. */
struct iv *ivbuf;
size_t capiv;
struct tl_out sb = MEMOUT, sb2 = MEMOUT, kdfull = MEMOUT;

/*
 * The ids of the strings the sheets add (categories, "Unknown", ...):
 * literals and op table strings, so remembered by address for the trace.
 */
uint32_t
idstr(const char *s)
{
	size_t i = (size_t)(((uintptr_t)s >> 3) * 0x9e3779b97f4a7c15ull >>
	    56) & (NIDC - 1);
	uint32_t id;

	for (; A->idc[i].s != NULL; i = (i + 1) & (NIDC - 1))
		if (A->idc[i].s == s)
			return A->idc[i].id;
	id = tl_intern(A->in, s, strlen(s));
	if (A->nidc < NIDC / 2) {
		A->idc[i].s = s;
		A->idc[i].id = id;
		A->nidc++;
	}
	return id;
}

/* Numeric order of texts that are numbers, else cmpid; NONE last. */
int
cmpnum(uint32_t a, uint32_t b)
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
 * off 0 when not made yet, else the repr is A->reprs.buf[off - 1, + len).
 */
struct nrepr {
	size_t off[2], len[2];
};

static void
pyname(struct tl_out *b, uint32_t id, int cut)
{
	struct nrepr *r;
	const char *s;
	size_t n, c, had;

	xgrowz(&A->nrepr, &A->capnrepr, (size_t)id + 1, sizeof *A->nrepr);
	r = &A->nrepr[id];
	if (r->off[cut] == 0) {
		s = agg_str(id, &n);
		had = A->reprs.n;
		if (cut && utf8_cut(s, n, 64, &c)) {
			sb2.n = 0;
			tl_out_raw(&sb2, s, c);
			sb_puts(&sb2, "...");
			tl_out_pystr(&A->reprs, sb2.buf, sb2.n);
		} else
			tl_out_pystr(&A->reprs, s, n);
		r->off[cut] = had + 1;
		r->len[cut] = A->reprs.n - had;
	}
	tl_out_raw(b, A->reprs.buf + r->off[cut] - 1, r->len[cut]);
}

struct kdpos {
	uint32_t name, stream;
	size_t count, at;
	double x[6];		/* total, mean, median, std, min, max */
};

static int
cmpkd(const void *a, const void *b)
{
	const struct kdpos *x = a, *y = b;
	int c;

	if (x->x[0] != y->x[0])
		return x->x[0] < y->x[0] ? -1 : 1;
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
	/* JSON for a stream, Python's dict repr for the CSV */
	static const char *const key[2][9] = {
		{ "{\"name\":", ",\"stream\":", ",\"count\":",
		    ",\"total_us\":", ",\"mean_us\":", ",\"median_us\":",
		    ",\"std_us\":", ",\"min_us\":", ",\"max_us\":" },
		{ "{'name': ", ", 'stream': ", ", 'count': ",
		    ", 'total_duration_us': ", ", 'mean_duration_us': ",
		    ", 'median_duration_us': ", ", 'std_dev_duration_us': ",
		    ", 'min_duration_us': ", ", 'max_duration_us': " }
	};
	struct kdpos *pos;
	size_t t = n, i, p, len, r, nr, j;
	double *v, *x;
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
			A->nkdskip++;
	pos = xcalloc(len, sizeof *pos);
	v = xreallocarray(NULL, n + 1, sizeof *v);
	for (p = 0; p < len; p++) {
		const struct ev *te = &A->e[ev[off[t] + p]];

		for (nr = 0, r = 0; r < n; r++)
			if (off[r + 1] - off[r] == len)
				v[nr++] = ev_dur(&A->e[ev[off[r] + p]]);
		pos[p].name = te->name;
		pos[p].stream = ev_stream(te);
		pos[p].count = nr;
		x = pos[p].x;
		x[0] = tl_np_sum(v, nr);
		x[1] = x[0] / (double)nr;
		x[3] = tl_np_std(v, nr);
		x[4] = x[5] = v[0];
		for (r = 1; r < nr; r++) {
			if (v[r] < x[4])
				x[4] = v[r];
			if (v[r] > x[5])
				x[5] = v[r];
		}
		x[2] = tl_median(v, nr);
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
		if (p > 0 && !agg_csv)
			full->n--;	/* JSON: "," alone */
		sb_puts(full, key[agg_csv][0]);
		if (agg_csv)
			pyname(full, k->name, 0);
		else {
			s = agg_str(k->name, &sl);
			tl_out_jsonstr(full, s, sl);
		}
		sb_puts(full, key[agg_csv][1]);
		sb_stream(full, k->stream, !agg_csv);
		sb_puts(full, key[agg_csv][2]);
		tl_out_i64(full, (int64_t)k->count);
		for (j = 0; j < 6; j++) {
			sb_puts(full, key[agg_csv][j + 3]);
			sb_np(full, k->x[j]);
		}
		tl_out_char(full, '}');
		if (!agg_csv)
			continue;
		sb_puts(trunc, "{'name': ");
		pyname(trunc, k->name, 1);
		sb_puts(trunc, ", 'stream': ");
		sb_stream(trunc, k->stream, 0);
		sb_puts(trunc, ", 'mean_duration_us': ");
		sb_np(trunc, np_round2(k->x[1]));
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
 * the repr is A->reprs.buf[off - 2 .. off - 2 + len).
 */
struct argrepr {
	size_t off, len;
};

/* An argument column (JSON text) as a cell: a tuple repr, or the JSON. */
void
tab_arg(struct table *t, uint32_t id)
{
	struct argrepr *r;
	const char *s;
	size_t n, had;

	if (id == NONE) {
		tab_none(t);
		return;
	}
	s = agg_str(id, &n);
	if (!agg_csv) {
		tab_str(t, s, n);
		return;
	}
	xgrowz(&A->argrepr, &A->capargrepr, (size_t)id + 1,
	    sizeof *A->argrepr);
	r = &A->argrepr[id];
	if (r->off == 0) {
		had = A->reprs.n;
		if (tl_out_pyjson(&A->reprs, s, n, PYTUPLES) < 0)
			r->off = 1;
		else {
			r->off = had + 2;
			r->len = A->reprs.n - had;
		}
	}
	if (r->off == 1) {
		char q[TL_QUOTE_MAX];

		agg_warn("argument not JSON, written as it is: \"%s\"",
		    tl_quote(q, sizeof q, s, n));
		tab_str(t, s, n);
		return;
	}
	tab_str(t, A->reprs.buf + r->off - 2, r->len);
}

/*
 * Process and thread names of an event, "Unknown" when missing. A
 * process's are on its thread "0": metadata rows were all read, so if
 * "0" was not in the stream then, no process has them.
 */
uint32_t
evmeta(int what, const struct ev *e)
{
	uint32_t v, tid;

	tid = what == M_TNAME ? e->tid : A->tidzero;
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
	if (isnan(A->totaltime))
		return NAN;
	if (agg_nat)
		return sum / A->totaltime * 100;
	return sum / (A->totaltime / 1e3 * 1e3) * 100;
}

static int
cmpts(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	int64_t p = A->e[i].tsns, q = A->e[j].tsns;

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

/* The launcher of a GPU event that is not communication, or NONE. */
static uint32_t
launcherof(const struct ev *e)
{
	if (!TL_K_ISGPU(e->kind) || (e->flags & F_COMM) || e->parent == NONE)
		return NONE;
	return e->launcher != NONE ? e->launcher : e->parent;
}

/* get_kernel_launchers (spec 4). */
void
launchers(void)
{
	struct tl_sortkey *k;
	struct launcher *sorted;
	size_t i, nk;
	uint32_t l, g;

	if (A->launchers_done)
		return;
	A->launchers_done = 1;
	A->lslot = xreallocarray(NULL, A->n + 1, sizeof *A->lslot);
	for (i = 0; i < A->n; i++)
		A->lslot[i] = NONE;
	A->nl = 0;
	for (i = 0; i < A->n; i++)
		if ((l = launcherof(&A->e[i])) != NONE &&
		    A->lslot[l] == NONE)
			A->lslot[l] = (uint32_t)A->nl++;
	A->l = xcalloc(A->nl + 1, sizeof *A->l);
	for (i = 0; i < A->n; i++)
		if ((l = launcherof(&A->e[i])) != NONE) {
			A->l[A->lslot[l]].ev = l;
			A->l[A->lslot[l]].nk++;
		}
	for (nk = 0, i = 0; i < A->nl; i++) {
		A->l[i].k0 = (uint32_t)nk;
		nk += A->l[i].nk;
		A->l[i].nk = 0;
	}
	A->lk = xreallocarray(NULL, nk + 1, sizeof *A->lk);
	for (i = 0; i < A->n; i++) {
		struct launcher *p;

		if ((l = launcherof(&A->e[i])) == NONE)
			continue;
		p = &A->l[A->lslot[l]];
		A->lk[p->k0 + p->nk++] = (uint32_t)i;
	}
	for (i = 0; i < A->nl; i++) {
		struct launcher *p = &A->l[i];
		const struct ev *e = &A->e[p->ev];

		p->direct = busy(A->lk + p->k0, p->nk);
		p->subtree = e->ghi > e->glo ?
		    busy(A->gord + e->glo, e->ghi - e->glo) : 0;
		/* kernel_details: by ts, stable. */
		sortidx(A->lk + p->k0, p->nk, cmpts);
		g = p->nk > 0 ? A->lk[p->k0] : NONE;
		p->cat = idstr(categorize(e->name, g));
	}
	/* By start, ties in first-seen order (which A->l is in): stable. */
	k = xreallocarray(NULL, A->nl + 1, sizeof *k);
	for (i = 0; i < A->nl; i++) {
		k[i].k = (uint64_t)A->e[A->l[i].ev].tsns ^ UINT64_C(1) << 63;
		k[i].i = (uint32_t)i;
	}
	tl_key_sort(k, A->nl);
	sorted = xreallocarray(NULL, A->nl + 1, sizeof *sorted);
	for (i = 0; i < A->nl; i++)
		sorted[i] = A->l[k[i].i];
	free(A->l);
	free(k);
	A->l = sorted;
	for (i = 0; i < A->nl; i++)
		A->lslot[A->l[i].ev] = (uint32_t)i;
}

/* Say why a table is empty, when it is the one asked for. */
void
agg_empty(const struct table *t, const char *why)
{
	if (agg_single && !A->nogpu)
		agg_note("%s: table \"%s\" is empty", why, t->name);
}

void
sheets(struct table *tabs)
{
	const int *want = agg_want;
	size_t ngpu = 0, nlink = 0, j;
	int i, ops = want[T_CATEGORIES] || want[T_OPS] || want[T_UNIQUE] ||
	    want[T_UNIFIED];

	A->tidzero = agg_find("0");
	for (j = 0; j < A->n; j++)
		if (TL_K_ISGPU(A->e[j].kind)) {
			ngpu++;
			nlink += (A->e[j].flags & F_LINKED) != 0;
		}
	A->nogpu = ngpu == 0;
	if (ngpu == 0)
		agg_note("no GPU events: the tables are empty");
	else if (A->gpuonly && (ops || want[T_COLL]))
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
	/* The timeline first, asked for or not: others use its total. */
	for (i = T_TIMELINE; i <= T_COLL; i++)
		if (i == T_TIMELINE || want[i])
			agg_tab[i].build(&tabs[i], i);
	if (A->nkdskip > 0)
		agg_note("%" PRIu64 " op instance%s left out of kernel "
		    "details: a different number of kernels than the group's "
		    "first",
		    A->nkdskip, PL(A->nkdskip));
}

void
sheets_final(void)
{
	free(ivbuf);
	free(sb.buf);
	free(sb2.buf);
	free(kdfull.buf);
}
