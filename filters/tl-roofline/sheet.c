/*
 * tl-roofline: the per-sheet summaries (TraceLens's
 * summarize_df_perf_metrics): the rows of a sheet grouped by name and
 * parameters, with first values, statistics of the throughputs and the
 * kernel times, sorted by total kernel time. Written as a tl table, or
 * as TraceLens's CSV, number for number (pandas' Kahan sums, Welford
 * variances, numpy's pairwise sums, Python's reprs).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	struct rl_str key = { NULL, 0, 0 };
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
		rl_sputs(&key, rl_opname(o));
		np = rl_opparams(S, o, p, RL_MAXP + 1);
		for (j = 0; j < np; j++) {
			rl_sputc(&key, '\x1f');
			rl_sputc(&key, (char)('A' + p[j].key));
			rl_sput(&key, S->text.p + p[j].py, p[j].pyn);
		}
		id = tl_intern(keys, key.p, key.n);
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
	free(key.p);
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

static void
put5(struct tl_out *o, const struct tl_stats *s)
{
	putd(o, s->mean);
	tab(o);
	putd(o, s->median);
	tab(o);
	putd(o, s->std);
	tab(o);
	putd(o, s->min);
	tab(o);
	putd(o, s->max);
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
	struct rl_str buf = { NULL, 0, 0 };
	const struct rl_op *op;
	const struct rl_inst *in;
	struct tl_stats s;
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
				tl_out_field(o, S->text.p + sp->js, sp->jsn);
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
		tl_stats(&s, v1, n);
		put5(o, &s);
		tab(o);
		tl_stats(&s, v2, n);
		put5(o, &s);
		tab(o);
		tl_out_cstr(o, rl_procname(S, op));
		tab(o);
		tl_out_cstr(o, rl_proclabel(S, op));
		tab(o);
		tl_out_cstr(o, rl_threadname(S, op));
		tab(o);
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
		tl_stats(&s, v3, n);
		put5(o, &s);
		for (j = 0; j < 4; j++) {
			int c = argcol[j];

			tab(o);
			for (i = 0; i < n; i++) {
				f = rl_opfield(S, &S->ops[S->insts[ord[grp[k].i0 +
				    i]].op], c, &buf);
				if (f != NULL) {
					tl_out_field(o, f, strlen(f));
					break;
				}
			}
		}
		tab(o);
		tl_stats(&s, v4, n);
		put5(o, &s);
		tab(o);
		tl_out_i64(o, ksum);
		tab(o);
		tl_out_i64(o, (int64_t)n);
		tab(o);
		tl_out_i64(o, grp[k].uid);
		tl_out_char(o, '\n');
	}
	free(buf.p);
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
c5(struct csv *c, const struct tl_stats *s)
{
	cnum(c, s->mean);
	cnum(c, s->median);
	cnum(c, s->std);
	cnum(c, s->min);
	cnum(c, s->max);
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
npfloat(struct rl_str *s, double v)
{
	rl_sputs(s, "np.float64(");
	rl_sputpyfloat(s, v);
	rl_sputc(s, ')');
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
putstream(struct rl_str *s, uint32_t st)
{
	const char *p;
	size_t n, i;

	if (st == RL_NONE) {
		rl_sputs(s, "None");
		return;
	}
	p = tl_intern_str(S->in, st, &n);
	for (i = 0; i < n; i++)
		if ((p[i] < '0' || p[i] > '9') && !(i == 0 && p[i] == '-' &&
		    n > 1))
			break;
	if (i == n && n > 0)
		rl_sput(s, p, n);
	else
		rl_sputpystr(s, p, n);
}

/* kernel_details__summarize_kernel_stats and trunc_kernel_details. */
static void
kdetails(const struct group *g, struct rl_str *full, struct rl_str *trunc)
{
	static struct kstat *ks;
	static size_t capks;
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
		rl_sputs(full, "[]");
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
	rl_sputc(full, '[');
	rl_sputc(trunc, '[');
	for (j = 0; j < nk; j++) {
		size_t l;

		if (j > 0) {
			rl_sput(full, ", ", 2);
			rl_sput(trunc, ", ", 2);
		}
		nm = tl_intern_str(S->in, ks[j].name, &l);
		rl_sputs(full, "{'name': ");
		rl_sputpystr(full, nm, l);
		rl_sputs(full, ", 'stream': ");
		putstream(full, ks[j].stream);
		rl_sputs(full, ", 'count': ");
		rl_sputi64(full, (int64_t)ks[j].count);
		rl_sputs(full, ", 'total_duration_us': ");
		npfloat(full, ks[j].total);
		rl_sputs(full, ", 'mean_duration_us': ");
		npfloat(full, ks[j].mean);
		rl_sputs(full, ", 'median_duration_us': ");
		npfloat(full, ks[j].median);
		rl_sputs(full, ", 'std_dev_duration_us': ");
		npfloat(full, ks[j].std);
		rl_sputs(full, ", 'min_duration_us': ");
		npfloat(full, ks[j].min);
		rl_sputs(full, ", 'max_duration_us': ");
		npfloat(full, ks[j].max);
		rl_sputc(full, '}');

		rl_sputs(trunc, "{'name': ");
		if (l > 64) {
			struct rl_str tmp = { NULL, 0, 0 };
			size_t cut = 64;

			/* Python slices code points, not bytes */
			{
				size_t b = 0, cp = 0;

				while (b < l && cp < 64) {
					b++;
					while (b < l && ((unsigned char)nm[b] &
					    0xc0) == 0x80)
						b++;
					cp++;
				}
				cut = b;
			}
			if (cut < l) {
				rl_sput(&tmp, nm, cut);
				rl_sputs(&tmp, "...");
				rl_sputpystr(trunc, tmp.p, tmp.n);
			} else
				rl_sputpystr(trunc, nm, l);
			free(tmp.p);
		} else
			rl_sputpystr(trunc, nm, l);
		rl_sputs(trunc, ", 'stream': ");
		putstream(trunc, ks[j].stream);
		rl_sputs(trunc, ", 'mean_duration_us': ");
		npfloat(trunc, round2(ks[j].mean));
		rl_sputc(trunc, '}');
	}
	rl_sputc(full, ']');
	rl_sputc(trunc, ']');
}

static void
csvsheet(const char *dir, int sheet)
{
	static double *gf, *mb, *fpb, *tb, *tf, *kt, *ru, *pc;
	static int *bd;
	static size_t cap;
	struct rl_sparam p[RL_MAXP + 1];
	const struct rl_sparam *sp;
	struct rl_str buf = { NULL, 0, 0 }, py = { NULL, 0, 0 };
	struct rl_str full = { NULL, 0, 0 }, trunc = { NULL, 0, 0 };
	struct rl_tlm m;
	struct tl_stats s;
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
		rl_sputs(&buf, "param: ");
		rl_sputs(&buf, rl_paramname[cols[j]]);
		cstr(&c, buf.p);
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
		xgrow(&gf, &cap, n + 1, sizeof *gf);
		mb = xreallocarray(mb, cap, sizeof *mb);
		fpb = xreallocarray(fpb, cap, sizeof *fpb);
		tb = xreallocarray(tb, cap, sizeof *tb);
		tf = xreallocarray(tf, cap, sizeof *tf);
		kt = xreallocarray(kt, cap, sizeof *kt);
		ru = xreallocarray(ru, cap, sizeof *ru);
		pc = xreallocarray(pc, cap, sizeof *pc);
		bd = xreallocarray(bd, cap, sizeof *bd);
		for (i = 0; i < n; i++) {
			tlmetrics(&S->insts[ord[g->i0 + i]], &m);
			gf[i] = m.gflops;
			mb[i] = m.mb;
			fpb[i] = m.fpb;
			tb[i] = m.tbps;
			tf[i] = m.tflops;
			kt[i] = m.t;
			ru[i] = m.roof_us;
			pc[i] = m.pct;
			bd[i] = m.bound;
		}
		op = &S->ops[S->insts[ord[g->i0]].op];
		cstr(&c, rl_opname(op));
		for (j = 0; j < ncols; j++) {
			sp = param(op, cols[j], p);
			if (sp == NULL)
				cstr(&c, uniform ? "" : "nan");
			else if (sp->none && uniform)
				cstr(&c, "");
			else
				cfield(&c, S->text.p + sp->py, sp->pyn);
		}
		cnum(&c, firstnum(gf, n));
		cnum(&c, firstnum(mb, n));
		cnum(&c, firstnum(fpb, n));
		tl_stats(&s, tb, n);
		c5(&c, &s);
		tl_stats(&s, tf, n);
		c5(&c, &s);
		cstr(&c, rl_procname(S, op));
		cstr(&c, rl_proclabel(S, op));
		cstr(&c, rl_threadname(S, op));
		cstr(&c, rl_spec(op, spec, sizeof spec) != NULL ? spec : "");
		if (arch) {
			cnum(&c, firstnum(ru, n));
			for (b = 0, i = 0; i < n && b == 0; i++)
				b = bd[i];
			cstr(&c, b == 1 ? "COMPUTE_BOUND" : b == 2 ?
			    "MEMORY_BOUND" : "");
			tl_stats(&s, pc, n);
			c5(&c, &s);
		}
		kdetails(g, &full, &trunc);
		cfield(&c, full.p, full.n);
		cfield(&c, trunc.p != NULL ? trunc.p : "", trunc.n);
		for (j = 0; j < 4; j++) {
			int col = argcol[j];

			f = NULL;
			for (i = 0; i < n && f == NULL; i++)
				f = rl_opfield(S, &S->ops[S->insts[ord[g->i0 +
				    i]].op], col, &buf);
			py.n = 0;
			if (f != NULL && rl_json2py(&py, f, strlen(f)) == 0)
				cfield(&c, py.p, py.n);
			else
				cstr(&c, "");
		}
		tl_stats(&s, kt, n);
		c5(&c, &s);
		cnum(&c, g->ksum_us);
		cint(&c, (int64_t)n);
		cint(&c, g->uid);
		cend(&c);
	}
	if (tl_file_close(&file) < 0)
		exit(1);
	free(buf.p);
	free(py.p);
	free(full.p);
	free(trunc.p);
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
