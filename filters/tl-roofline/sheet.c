/*
 * tl-roofline: the per-sheet summaries (TraceLens's
 * summarize_df_perf_metrics): the rows of a sheet grouped by name and
 * parameters, with first values, statistics of the throughputs and the
 * kernel times, sorted by total kernel time. Written as a tl table, or
 * as TraceLens's CSV, number for number (pandas' Kahan sums, Welford
 * variances, numpy's pairwise sums, Python's reprs).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/csv.h"
#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/intern.h"
#include "../../common/mem.h"
#include "../../common/pyfmt.h"
#include "../../common/stats.h"
#include "../../common/tsv.h"
#include "roof.h"
#include "seg.h"

struct group {
	uint32_t i0, n;		/* instances: ord[i0 .. i0 + n) */
	int64_t uid;		/* UID_first */
	int64_t ksum_ns;
	double ksum_us;
};

/* Metrics of an instance, TraceLens's way (us, GFLOPS, MiB ...). */
struct rl_tlm {
	double gflops, mb, fpb, tbps, tflops, t;
	double roof_us, pct;
	int bound;		/* 0 none, 1 compute, 2 memory */
};
static void tlmetrics(const struct rl_inst *, struct rl_tlm *);

/* The argument columns, in the order of the sheets. */
static const int argcol[4] = {
	TL_C_DIMS, TL_C_TYPES, TL_C_STRIDES, TL_C_CONCRETE
};

/* The sheet being written, of the segment S. */
static const struct rl_seg *S;
static uint32_t *ord;		/* instance indexes, grouped */
static struct group *grp;
static size_t ngrp;
static int cols[NPARAMNAME];	/* param columns, in order */
static int ncols;
static int uniform;		/* every row has every param column */
static int bycsv;		/* sort by TraceLens's us sums */

int
rl_sheet_byname(const char *s)
{
	int i;

	for (i = 0; i < NSHEET; i++)
		if (strcmp(s, rl_sheetname[i]) == 0)
			return i;
	return -1;
}

/* Group the instances of a sheet. */

static int
cmpgrp(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (bycsv) {
		if (x->ksum_us != y->ksum_us)
			return x->ksum_us > y->ksum_us ? -1 : 1;
	} else if (x->ksum_ns != y->ksum_ns)
		return x->ksum_ns > y->ksum_ns ? -1 : 1;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

static void
build(int sheet, int csv)
{
	struct rl_sparam p[RL_MAXP + 1];
	struct tl_intern *keys = tl_intern_new();
	struct tl_out key = RL_MEM;
	uint32_t *gid = NULL, *cnt = NULL, id;
	size_t n = 0, i, k, cap = 0, capc = 0;
	int np, j, c, pass, seen[NPARAMNAME];

	free(ord);
	free(grp);
	ord = NULL;
	grp = NULL;
	ngrp = 0;
	ncols = 0;
	bycsv = csv;
	uniform = 1;
	memset(seen, 0, sizeof seen);
	/* the sheet's rows: TraceLens's own, then those it moved here */
	xgrow(&ord, &cap, S->ninsts + 1, sizeof *ord);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < S->ninsts; i++)
			if (S->insts[i].sheet == sheet &&
			    S->insts[i].moved == pass)
				ord[n++] = (uint32_t)i;
	/* param columns, in order of appearance */
	for (i = 0; i < n; i++) {
		np = rl_opparams(S, &S->ops[S->insts[ord[i]].op], p, RL_MAXP + 1);
		for (j = 0; j < np; j++)
			if (!seen[p[j].key]) {
				seen[p[j].key] = 1;
				cols[ncols++] = p[j].key;
			}
	}
	for (i = 0; i < n; i++)
		if (rl_opparams(S, &S->ops[S->insts[ord[i]].op], p,
		    RL_MAXP + 1) != ncols)
			uniform = 0;
	/* groups: name and the params' reprs */
	gid = xcalloc(n + 1, sizeof *gid);
	for (i = 0; i < n; i++) {
		const struct rl_op *o = &S->ops[S->insts[ord[i]].op];

		key.n = 0;
		rl_puts(&key, rl_opname(o));
		np = rl_opparams(S, o, p, RL_MAXP + 1);
		for (j = 0; j < np; j++) {
			tl_out_char(&key, '\x1f');
			tl_out_char(&key, (char)('A' + p[j].key));
			tl_out_raw(&key, S->text.buf + p[j].py, p[j].pyn);
		}
		id = tl_intern(keys, key.buf, key.n);
		xgrow(&cnt, &capc, id + 1, sizeof *cnt);
		if (id >= ngrp) {
			cnt[id] = 0;
			ngrp = id + 1;
		}
		cnt[id]++;
		gid[i] = id;
	}
	grp = xcalloc(ngrp + 1, sizeof *grp);
	for (k = 0, c = 0; k < ngrp; k++) {
		grp[k].i0 = (uint32_t)c;
		c += (int)cnt[k];
	}
	{
		uint32_t *o2 = xcalloc(n + 1, sizeof *o2);

		for (i = 0; i < n; i++) {
			struct group *g = &grp[gid[i]];
			const struct rl_inst *in = &S->insts[ord[i]];
			if (g->n == 0)
				g->uid = S->ops[in->op].uid;
			o2[g->i0 + g->n++] = ord[i];
			g->ksum_ns += in->busy_ns;
		}
		free(ord);
		ord = o2;
	}
	/* Kahan sums of the kernel times, in row order */
	for (k = 0; k < ngrp; k++) {
		struct tl_kahan ks = { 0, 0 };

		for (i = 0; i < grp[k].n; i++)
			tl_kahan_add(&ks, S->insts[ord[grp[k].i0 + i]].busy_us);
		grp[k].ksum_us = ks.s;
	}
	qsort(grp, ngrp, sizeof *grp, cmpgrp);
	tl_intern_free(keys);
	free(key.buf);
	free(gid);
	free(cnt);
}

/* The value of param column key for an op: NULL when it has none. */
static const struct rl_sparam *
param(const struct rl_op *o, int key, struct rl_sparam *p)
{
	int np = rl_opparams(S, o, p, RL_MAXP + 1), j;

	for (j = 0; j < np; j++)
		if (p[j].key == key)
			return &p[j];
	return NULL;
}

/* The first of a group's ops' fields c that is not empty, or NULL. */
static const char *
firstfield(const struct group *g, int c, struct tl_out *buf)
{
	const char *f = NULL;
	size_t i;

	for (i = 0; i < g->n && f == NULL; i++)
		f = rl_opfield(S, &S->ops[S->insts[ord[g->i0 + i]].op], c,
		    buf);
	return f;
}

/* The tl table. */

static void
tab(struct tl_out *o)
{
	tl_out_char(o, '\t');
}

static void
raw(struct tl_out *o, const char *s)
{
	tl_out_raw(o, s, strlen(s));
}

static void
putd(struct tl_out *o, double v)
{
	if (isfinite(v))
		tl_out_double(o, v);
}

/* The statistics of v[0..n): mean, median, std, min, max. */
static void
put5(struct tl_out *o, const double *v, size_t n)
{
	struct tl_stats s;

	tl_stats(&s, v, n);
	putd(o, s.mean);
	tab(o);
	putd(o, s.median);
	tab(o);
	putd(o, s.std);
	tab(o);
	putd(o, s.min);
	tab(o);
	putd(o, s.max);
}

static void
head5(struct tl_out *o, const char *name)
{
	static const char *const suf[] = {
		"mean", "median", "std", "min", "max"
	};
	int i;

	for (i = 0; i < 5; i++) {
		tab(o);
		tl_out_cstr(o, name);
		tl_out_char(o, '_');
		tl_out_cstr(o, suf[i]);
	}
}

void
rl_write_sheet(struct tl_out *o, const struct rl_seg *seg, int sheet)
{
	static double *v1, *v2, *v3, *v4;
	static size_t cap;
	struct rl_sparam p[RL_MAXP + 1];
	const struct rl_sparam *sp;
	struct tl_out buf = RL_MEM;
	const struct rl_op *op;
	const struct rl_inst *in;
	struct rl_roof r;
	double t;
	const char *f;
	size_t k, i, n;
	int j;
	int64_t ksum;

	S = seg;
	build(sheet, 0);
	tl_out_cstr(o, "name");
	for (j = 0; j < ncols; j++) {
		tab(o);
		tl_out_cstr(o, "param_");
		tl_out_cstr(o, rl_paramname[cols[j]]);
	}
	raw(o, "\tflop\tbytes\tflop_per_byte");
	head5(o, "tb_per_s");
	head5(o, "tflops_per_s");
	raw(o, "\tprocess_name\tprocess_label\tthread_name"
	    "\tcompute_spec\tarch\troofline_time_ns\tbound");
	head5(o, "pct_roofline");
	raw(o, "\tinput_dims\tinput_types\tinput_strides"
	    "\tconcrete_inputs");
	head5(o, "kernel_time_ns");
	raw(o, "\tkernel_time_ns_sum\tcount\tuid\n");
	for (k = 0; k < ngrp; k++) {
		n = grp[k].n;
		xgrow(&v1, &cap, n + 1, sizeof *v1);
		v2 = xreallocarray(v2, cap, sizeof *v2);
		v3 = xreallocarray(v3, cap, sizeof *v3);
		v4 = xreallocarray(v4, cap, sizeof *v4);
		op = &S->ops[S->insts[ord[grp[k].i0]].op];
		rl_roof(S, &S->insts[ord[grp[k].i0]], &r);
		ksum = 0;
		for (i = 0; i < n; i++) {
			in = &S->insts[ord[grp[k].i0 + i]];
			t = (double)in->busy_ns;
			ksum += in->busy_ns;
			v1[i] = t > 0 && r.hasbytes ? r.bytes / t / 1e3 : NAN;
			v2[i] = t > 0 ? r.flop / t / 1e3 : NAN;
			v3[i] = t > 0 ? r.roof / t * 100 : NAN;
			v4[i] = t;
		}
		tl_out_cstr(o, rl_opname(op));
		for (j = 0; j < ncols; j++) {
			tab(o);
			sp = param(op, cols[j], p);
			if (sp != NULL && !sp->none)
				tl_out_field(o, S->text.buf + sp->js, sp->jsn);
		}
		tab(o);
		putd(o, r.flop);
		tab(o);
		if (r.hasbytes)
			putd(o, r.bytes);
		tab(o);
		if (r.hasbytes && r.bytes > 0)
			putd(o, r.flop / r.bytes);
		tab(o);
		put5(o, v1, n);
		tab(o);
		put5(o, v2, n);
		tab(o);
		for (j = 0; j < 3; j++) {
			tl_out_cstr(o, rl_meta(S, op, j));
			tab(o);
		}
		if (r.spec != NULL)
			tl_out_cstr(o, r.spec);
		tab(o);
		if (S->arch != NULL)
			tl_out_cstr(o, S->arch->name);
		tab(o);
		putd(o, r.roof);
		tab(o);
		if (r.bound != NULL)
			tl_out_cstr(o, r.bound);
		tab(o);
		put5(o, v3, n);
		for (j = 0; j < 4; j++) {
			int c = argcol[j];

			tab(o);
			if ((f = firstfield(&grp[k], c, &buf)) != NULL)
				tl_out_field(o, f, strlen(f));
		}
		tab(o);
		put5(o, v4, n);
		tab(o);
		tl_out_i64(o, ksum);
		tab(o);
		tl_out_i64(o, (int64_t)n);
		tab(o);
		tl_out_i64(o, grp[k].uid);
		tl_out_char(o, '\n');
	}
	free(buf.buf);
}

/* TraceLens's CSV: fields as pandas's to_csv writes them. */

struct csv {
	struct tl_out *o;
	int col;
};

static void
cfield(struct csv *c, const char *s, size_t n)
{
	if (c->col++ > 0)
		tl_out_char(c->o, ',');
	tl_out_csvfield(c->o, s, n);
}

static void
cstr(struct csv *c, const char *s)
{
	cfield(c, s, strlen(s));
}

static void
cnum(struct csv *c, double v)
{
	char buf[TL_PY_FLOATMAX];

	cfield(c, buf, isnan(v) ? 0 : (size_t)tl_py_float(buf, sizeof buf,
	    v));
}

static void
cint(struct csv *c, int64_t v)
{
	char buf[TL_I64_MAX];

	cfield(c, buf, tl_fmt_i64(buf, v));
}

static void
cend(struct csv *c)
{
	tl_out_char(c->o, '\n');
	c->col = 0;
}

static void
c5(struct csv *c, const double *v, size_t n)
{
	struct tl_stats s;

	tl_stats(&s, v, n);
	cnum(c, s.mean);
	cnum(c, s.median);
	cnum(c, s.std);
	cnum(c, s.min);
	cnum(c, s.max);
}

static void
chead5(struct csv *c, const char *name)
{
	static const char *const suf[] = {
		"mean", "median", "std", "min", "max"
	};
	char buf[64];
	int i;

	for (i = 0; i < 5; i++) {
		snprintf(buf, sizeof buf, "%s_%s", name, suf[i]);
		cstr(c, buf);
	}
}

static double
firstnum(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			return v[i];
	return NAN;
}

/* numpy's round(x, 2): rint(x * 100) / 100. */
static double
round2(double x)
{
	return rint(x * 100) / 100;
}

static void
npfloat(struct tl_out *s, double v)
{
	rl_puts(s, "np.float64(");
	tl_out_pyfloat(s, v);
	tl_out_char(s, ')');
}

struct kstat {
	uint32_t name, stream;
	size_t count;
	double total, mean, median, std, min, max;
};

static int
cmpks(const void *a, const void *b)
{
	const struct kstat *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? -1 : 1;
	return strcmp(tl_intern_str(S->in, x->name, NULL),
	    tl_intern_str(S->in, y->name, NULL));
}

static void
putstream(struct tl_out *s, uint32_t st)
{
	const char *p;
	size_t n, i;

	if (st == RL_NONE) {
		rl_puts(s, "None");
		return;
	}
	p = tl_intern_str(S->in, st, &n);
	for (i = 0; i < n; i++)
		if ((p[i] < '0' || p[i] > '9') && !(i == 0 && p[i] == '-' &&
		    n > 1))
			break;
	if (i == n && n > 0)
		tl_out_raw(s, p, n);
	else
		tl_out_pystr(s, p, n);
}

/* kernel_details__summarize_kernel_stats and trunc_kernel_details. */
static void
kdetails(const struct group *g, struct tl_out *full, struct tl_out *trunc)
{
	static struct kstat *ks;
	static size_t capks;
	static struct tl_out tmp = RL_MEM;
	static double *d;
	static size_t capd;
	const struct rl_inst *t = NULL, *in;
	const struct rl_gpu *gp;
	size_t i, j, m, nk;
	const char *nm;

	full->n = trunc->n = 0;
	for (i = 0; i < g->n; i++) {
		in = &S->insts[ord[g->i0 + i]];
		if (in->nk > 0) {
			t = in;
			break;
		}
	}
	if (t == NULL) {
		rl_puts(full, "[]");
		return;
	}
	nk = t->nk;
	xgrow(&ks, &capks, nk + 1, sizeof *ks);
	xgrow(&d, &capd, g->n + 1, sizeof *d);
	for (j = 0; j < nk; j++) {
		gp = &S->gpus[S->kv[t->k0 + j]];
		m = 0;
		for (i = 0; i < g->n; i++) {
			in = &S->insts[ord[g->i0 + i]];
			if (in->nk != nk)
				continue;
			d[m++] = (double)S->gpus[S->kv[in->k0 + j]].dur /
			    1000.0;
		}
		ks[j].name = gp->name;
		ks[j].stream = gp->stream;
		ks[j].count = m;
		ks[j].total = tl_np_sum(d, m);
		ks[j].mean = ks[j].total / (double)m;
		ks[j].std = tl_np_std(d, m);
		ks[j].min = ks[j].max = d[0];
		for (i = 1; i < m; i++) {
			ks[j].min = d[i] < ks[j].min ? d[i] : ks[j].min;
			ks[j].max = d[i] > ks[j].max ? d[i] : ks[j].max;
		}
		ks[j].median = tl_median(d, m);
	}
	qsort(ks, nk, sizeof *ks, cmpks);
	tl_out_char(full, '[');
	tl_out_char(trunc, '[');
	for (j = 0; j < nk; j++) {
		size_t l, b, cp;

		if (j > 0) {
			tl_out_raw(full, ", ", 2);
			tl_out_raw(trunc, ", ", 2);
		}
		nm = tl_intern_str(S->in, ks[j].name, &l);
		rl_puts(full, "{'name': ");
		tl_out_pystr(full, nm, l);
		rl_puts(full, ", 'stream': ");
		putstream(full, ks[j].stream);
		rl_puts(full, ", 'count': ");
		tl_out_i64(full, (int64_t)ks[j].count);
		rl_puts(full, ", 'total_duration_us': ");
		npfloat(full, ks[j].total);
		rl_puts(full, ", 'mean_duration_us': ");
		npfloat(full, ks[j].mean);
		rl_puts(full, ", 'median_duration_us': ");
		npfloat(full, ks[j].median);
		rl_puts(full, ", 'std_dev_duration_us': ");
		npfloat(full, ks[j].std);
		rl_puts(full, ", 'min_duration_us': ");
		npfloat(full, ks[j].min);
		rl_puts(full, ", 'max_duration_us': ");
		npfloat(full, ks[j].max);
		tl_out_char(full, '}');

		/* its first 64 code points, as Python slices a str, and ... */
		for (b = 0, cp = 0; b < l && cp < 64; cp++)
			for (b++; b < l && ((unsigned char)nm[b] & 0xc0) == 0x80;
			    b++)
				;
		tmp.n = 0;
		tl_out_raw(&tmp, nm, b);
		if (b < l)
			rl_puts(&tmp, "...");
		rl_puts(trunc, "{'name': ");
		tl_out_pystr(trunc, tmp.buf, tmp.n);
		rl_puts(trunc, ", 'stream': ");
		putstream(trunc, ks[j].stream);
		rl_puts(trunc, ", 'mean_duration_us': ");
		npfloat(trunc, round2(ks[j].mean));
		tl_out_char(trunc, '}');
	}
	tl_out_char(full, ']');
	tl_out_char(trunc, ']');
}

/* Metric f of the group's instances, ms[0..n), as an array in v. */
#define COL(f)	tlcol(ms, n, offsetof(struct rl_tlm, f), v)

static double *
tlcol(const struct rl_tlm *ms, size_t n, size_t off, double *v)
{
	size_t i;

	for (i = 0; i < n; i++)
		memcpy(&v[i], (const char *)&ms[i] + off, sizeof *v);
	return v;
}

static void
csvsheet(const char *dir, int sheet)
{
	static struct rl_tlm *ms;
	static double *v;
	static size_t cap;
	struct rl_sparam p[RL_MAXP + 1];
	const struct rl_sparam *sp;
	struct tl_out buf = RL_MEM, py = RL_MEM;
	struct tl_out full = RL_MEM, trunc = RL_MEM;
	struct csv c;
	const struct rl_op *op;
	const struct group *g;
	char name[64], spec[32];
	struct tl_file file;
	size_t k, i, n;
	int j, arch = S->arch != NULL, b;
	const char *f;

	build(sheet, 1);
	if (ngrp == 0)
		return;
	snprintf(name, sizeof name, "%s.csv", rl_sheetname[sheet]);
	if (tl_file_open(&file, dir, name) < 0)
		exit(1);
	c.o = &file.out;
	c.col = 0;
	cstr(&c, "name");
	for (j = 0; j < ncols; j++) {
		buf.n = 0;
		rl_puts(&buf, "param: ");
		rl_puts(&buf, rl_paramname[cols[j]]);
		cfield(&c, buf.buf, buf.n);
	}
	cstr(&c, "GFLOPS_first");
	cstr(&c, "Data Moved (MB)_first");
	cstr(&c, "FLOPS/Byte_first");
	chead5(&c, "TB/s");
	chead5(&c, "TFLOPS/s");
	cstr(&c, "process_name_first");
	cstr(&c, "process_label_first");
	cstr(&c, "thread_name_first");
	cstr(&c, "Compute Spec");
	if (arch) {
		cstr(&c, "Roofline Time (\xc2\xb5s)_first");
		cstr(&c, "Roofline Bound_first");
		chead5(&c, "Pct Roofline");
	}
	cstr(&c, "kernel_details__summarize_kernel_stats");
	cstr(&c, "trunc_kernel_details");
	cstr(&c, "Input Dims_first");
	cstr(&c, "Input type_first");
	cstr(&c, "Input Strides_first");
	cstr(&c, "Concrete Inputs_first");
	chead5(&c, "Kernel Time (\xc2\xb5s)");
	cstr(&c, "Kernel Time (\xc2\xb5s)_sum");
	cstr(&c, "name_count");
	cstr(&c, "UID_first");
	cend(&c);
	for (k = 0; k < ngrp; k++) {
		g = &grp[k];
		n = g->n;
		xgrow(&ms, &cap, n + 1, sizeof *ms);
		v = xreallocarray(v, cap, sizeof *v);
		for (i = 0; i < n; i++)
			tlmetrics(&S->insts[ord[g->i0 + i]], &ms[i]);
		op = &S->ops[S->insts[ord[g->i0]].op];
		cstr(&c, rl_opname(op));
		for (j = 0; j < ncols; j++) {
			sp = param(op, cols[j], p);
			if (sp == NULL)
				cstr(&c, uniform ? "" : "nan");
			else if (sp->none && uniform)
				cstr(&c, "");
			else
				cfield(&c, S->text.buf + sp->py, sp->pyn);
		}
		cnum(&c, firstnum(COL(gflops), n));
		cnum(&c, firstnum(COL(mb), n));
		cnum(&c, firstnum(COL(fpb), n));
		c5(&c, COL(tbps), n);
		c5(&c, COL(tflops), n);
		for (j = 0; j < 3; j++)
			cstr(&c, rl_meta(S, op, j));
		cstr(&c, rl_spec(op, spec, sizeof spec) != NULL ? spec : "");
		if (arch) {
			cnum(&c, firstnum(COL(roof_us), n));
			for (b = 0, i = 0; i < n && b == 0; i++)
				b = ms[i].bound;
			cstr(&c, b == 1 ? "COMPUTE_BOUND" : b == 2 ?
			    "MEMORY_BOUND" : "");
			c5(&c, COL(pct), n);
		}
		kdetails(g, &full, &trunc);
		cfield(&c, full.buf, full.n);
		cfield(&c, trunc.buf, trunc.n);
		for (j = 0; j < 4; j++) {
			int col = argcol[j];

			f = firstfield(g, col, &buf);
			py.n = 0;
			if (f != NULL && tl_out_pyjson(&py, f, strlen(f), 0) == 0)
				cfield(&c, py.buf, py.n);
			else
				cstr(&c, "");
		}
		c5(&c, COL(t), n);
		cnum(&c, g->ksum_us);
		cint(&c, (int64_t)n);
		cint(&c, g->uid);
		cend(&c);
	}
	if (tl_file_close(&file) < 0)
		exit(1);
	free(buf.buf);
	free(py.buf);
	free(full.buf);
	free(trunc.buf);
}

void
rl_csvdir(const char *dir)
{
	if (tl_mkdirs(dir) < 0)
		tl_err(1, "%s", dir);
}

void
rl_write_csv(const struct rl_seg *seg, const char *dir)
{
	int s;

	S = seg;
	for (s = 0; s < NSHEET; s++)
		csvsheet(dir, s);
}

/* TraceLens's metrics of an instance (compute_perf_metrics). */
static void
tlmetrics(const struct rl_inst *in, struct rl_tlm *m)
{
	struct rl_roof r;
	double peak, cu, mu, T = in->busy_us;

	rl_roof(S, in, &r);
	m->t = T;
	m->gflops = r.flop / 1e9;
	m->tflops = T > 0 ? (m->gflops / 1e3) / (T / 1e6) : NAN;
	m->mb = m->fpb = m->tbps = NAN;
	if (r.hasbytes) {
		m->mb = r.bytes / 1048576;
		m->fpb = r.bytes != 0 ? m->gflops * 1e9 / r.bytes : NAN;
		m->tbps = T > 0 ? (r.bytes / 1e12) / (T / 1e6) : NAN;
	}
	m->roof_us = m->pct = NAN;
	m->bound = 0;
	peak = r.spec != NULL ? rl_arch_peak(S->arch, r.spec) : 0;
	if (peak <= 0 || S->arch->mem_bw_gbps <= 0 || !r.hasbytes ||
	    !(m->gflops > 0))
		return;
	cu = m->gflops * 1e9 / (peak * 1e12) * 1e6;
	mu = r.bytes / (S->arch->mem_bw_gbps * 1e9) * 1e6;
	m->roof_us = cu > mu ? cu : mu;
	m->bound = cu >= mu ? 1 : 2;
	m->pct = T > 0 ? m->roof_us / T * 100 : NAN;
}
