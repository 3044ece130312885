/*
 * tl-roofline: the per-sheet summaries (TraceLens's
 * summarize_df_perf_metrics): the rows of a sheet grouped by name and
 * parameters, with first values, statistics of the throughputs and the
 * kernel times, sorted by total kernel time. Written as a tl table, or
 * as TraceLens's CSV, number for number (pandas' Kahan sums, Welford
 * variances, numpy's pairwise sums, Python's reprs).
 */
#include <math.h>
#include <stdarg.h>
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
	struct rl_param p[RL_MAXP + 1];
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
		if (csv && rl_bykernels) {	/* and the kernel count */
			tl_out_char(&key, '\x1f');
			tl_out_i64(&key, S->insts[ord[i]].nk);
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
static const struct rl_param *
param(const struct rl_op *o, int key, struct rl_param *p)
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

/*
 * A row being written: of a tl table (TAB-separated, fields escaped,
 * numbers as tl_out_double writes them and empty when not finite), or
 * of TraceLens's CSV (as pandas's to_csv: commas, fields as the csv
 * module quotes them, numbers as Python's repr and empty when NaN).
 */
struct row {
	struct tl_out *o;
	int csv;
	int col;
};

static void
field(struct row *w, const char *s, size_t n)
{
	if (w->col++ > 0)
		tl_out_char(w->o, w->csv ? ',' : '\t');
	if (w->csv)
		tl_out_csvfield(w->o, s, n);
	else
		tl_out_field(w->o, s, n);
}

/* A string; NULL is an empty field. */
static void
str(struct row *w, const char *s)
{
	field(w, s, s != NULL ? strlen(s) : 0);
}

static void
num(struct row *w, double v)
{
	char buf[TL_PY_FLOATMAX];
	int n = 0;

	if (w->csv && !isnan(v))
		n = tl_py_float(buf, sizeof buf, v);
	else if (!w->csv && isfinite(v))
		n = tl_fmt_double(buf, sizeof buf, v);
	field(w, buf, (size_t)n);
}

static void
i64(struct row *w, int64_t v)
{
	char buf[TL_I64_MAX];

	field(w, buf, tl_fmt_i64(buf, v));
}

static void
end(struct row *w)
{
	tl_out_char(w->o, '\n');
	w->col = 0;
}

/* Column names: the strings that follow, up to a NULL. */
static void
heads(struct row *w, ...)
{
	const char *s;
	va_list ap;

	va_start(ap, w);
	while ((s = va_arg(ap, const char *)) != NULL)
		str(w, s);
	va_end(ap);
}

/* The columns of the statistics of name, as put5 writes them. */
static void
head5(struct row *w, const char *name)
{
	static const char *const suf[] = {
		"mean", "median", "std", "min", "max"
	};
	char buf[64];
	int i;

	for (i = 0; i < 5; i++) {
		snprintf(buf, sizeof buf, "%s_%s", name, suf[i]);
		str(w, buf);
	}
}

/* The statistics of v[0..n): mean, median, std, min, max. */
static void
put5(struct row *w, const double *v, size_t n)
{
	struct tl_stats s;

	tl_stats(&s, v, n);
	num(w, s.mean);
	num(w, s.median);
	num(w, s.std);
	num(w, s.min);
	num(w, s.max);
}

/* The header's param columns, "param_M" or "param: M". */
static void
headparams(struct row *w, const char *fmt)
{
	char buf[64];
	int j;

	for (j = 0; j < ncols; j++) {
		snprintf(buf, sizeof buf, fmt, rl_paramname[cols[j]]);
		str(w, buf);
	}
}

void
rl_write_sheet(struct tl_out *o, const struct rl_seg *seg, int sheet)
{
	static double *v1, *v2, *v3, *v4;
	static size_t cap;
	struct rl_param p[RL_MAXP + 1];
	const struct rl_param *sp;
	struct tl_out buf = RL_MEM;
	struct row w = { o, 0, 0 };
	const struct rl_op *op;
	const struct rl_inst *in;
	struct rl_roof r;
	double t;
	size_t k, i, n;
	int j;
	int64_t ksum;

	S = seg;
	build(sheet, 0);
	str(&w, "name");
	headparams(&w, "param_%s");
	heads(&w, "flop", "bytes", "flop_per_byte", (char *)NULL);
	head5(&w, "tb_per_s");
	head5(&w, "tflops_per_s");
	heads(&w, "process_name", "process_label", "thread_name",
	    "compute_spec", "arch", "roofline_time_ns", "bound", (char *)NULL);
	head5(&w, "pct_roofline");
	heads(&w, "input_dims", "input_types", "input_strides",
	    "concrete_inputs", (char *)NULL);
	head5(&w, "kernel_time_ns");
	heads(&w, "kernel_time_ns_sum", "count", "uid", (char *)NULL);
	end(&w);
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
		str(&w, rl_opname(op));
		for (j = 0; j < ncols; j++) {
			sp = param(op, cols[j], p);
			if (sp != NULL && !sp->none)
				field(&w, S->text.buf + sp->js, sp->jsn);
			else
				str(&w, NULL);
		}
		num(&w, r.flop);
		num(&w, r.hasbytes ? r.bytes : NAN);
		num(&w, r.hasbytes && r.bytes > 0 ? r.flop / r.bytes : NAN);
		put5(&w, v1, n);
		put5(&w, v2, n);
		for (j = 0; j < 3; j++)
			str(&w, rl_meta(S, op, j));
		str(&w, r.spec);
		str(&w, S->arch != NULL ? S->arch->name : NULL);
		num(&w, r.roof);
		str(&w, r.bound);
		put5(&w, v3, n);
		for (j = 0; j < 4; j++)
			str(&w, firstfield(&grp[k], argcol[j], &buf));
		put5(&w, v4, n);
		i64(&w, ksum);
		i64(&w, (int64_t)n);
		i64(&w, grp[k].uid);
		end(&w);
	}
	free(buf.buf);
}

/* TraceLens's CSV. */

static double
firstnum(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			return v[i];
	return NAN;
}

static void
npfloat(struct tl_out *s, double v)
{
	rl_puts(s, "np.float64(");
	tl_out_pyfloat(s, v);
	tl_out_char(s, ')');
}

/* A kernel's statistics, as TraceLens names them. */
enum { K_TOTAL, K_MEAN, K_MEDIAN, K_STD, K_MIN, K_MAX, NKSTAT };
static const char *const kstatname[NKSTAT] = {
	"total", "mean", "median", "std_dev", "min", "max"
};

struct kstat {
	uint32_t name, stream;
	size_t count;
	double v[NKSTAT];
};

static int
cmpks(const void *a, const void *b)
{
	const struct kstat *x = a, *y = b;

	if (x->v[K_TOTAL] != y->v[K_TOTAL])
		return x->v[K_TOTAL] < y->v[K_TOTAL] ? -1 : 1;
	return strcmp(tl_intern_str(S->in, x->name, NULL),
	    tl_intern_str(S->in, y->name, NULL));
}

/* "{'name': NAME, 'stream': STREAM": a stream of digits as an int. */
static void
putkernel(struct tl_out *s, const char *name, size_t l, uint32_t st)
{
	const char *p;
	size_t n, i;

	rl_puts(s, "{'name': ");
	tl_out_pystr(s, name, l);
	rl_puts(s, ", 'stream': ");
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
	struct tl_stats st;
	size_t i, j, m, nk, l, b, cp;
	const char *nm;
	int x;

	full->n = trunc->n = 0;
	for (i = 0; i < g->n && t == NULL; i++)
		if ((in = &S->insts[ord[g->i0 + i]])->nk > 0)
			t = in;
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
		ks[j].v[K_TOTAL] = tl_np_sum(d, m);
		ks[j].v[K_MEAN] = ks[j].v[K_TOTAL] / (double)m;
		ks[j].v[K_STD] = tl_np_std(d, m);
		tl_stats(&st, d, m);
		ks[j].v[K_MEDIAN] = st.median;
		ks[j].v[K_MIN] = st.min;
		ks[j].v[K_MAX] = st.max;
	}
	qsort(ks, nk, sizeof *ks, cmpks);
	tl_out_char(full, '[');
	tl_out_char(trunc, '[');
	for (j = 0; j < nk; j++) {
		if (j > 0) {
			rl_puts(full, ", ");
			rl_puts(trunc, ", ");
		}
		nm = tl_intern_str(S->in, ks[j].name, &l);
		putkernel(full, nm, l, ks[j].stream);
		rl_puts(full, ", 'count': ");
		tl_out_i64(full, (int64_t)ks[j].count);
		for (x = 0; x < NKSTAT; x++) {
			rl_puts(full, ", '");
			rl_puts(full, kstatname[x]);
			rl_puts(full, "_duration_us': ");
			npfloat(full, ks[j].v[x]);
		}
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
		putkernel(trunc, tmp.buf, tmp.n, ks[j].stream);
		rl_puts(trunc, ", 'mean_duration_us': ");
		/* numpy's round(x, 2): rint(x * 100) / 100 */
		npfloat(trunc, rint(ks[j].v[K_MEAN] * 100) / 100);
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
	struct rl_param p[RL_MAXP + 1];
	const struct rl_param *sp;
	struct tl_out buf = RL_MEM, py = RL_MEM;
	struct tl_out full = RL_MEM, trunc = RL_MEM;
	struct tl_file file;
	struct row w = { &file.out, 1, 0 };
	const struct rl_op *op;
	const struct group *g;
	char name[64], spec[32];
	size_t k, i, n;
	int j, arch = S->arch != NULL, b;
	const char *f;

	build(sheet, 1);
	if (ngrp == 0)
		return;
	snprintf(name, sizeof name, "%s.csv", rl_sheetname[sheet]);
	if (tl_file_open(&file, dir, name) < 0)
		exit(1);
	str(&w, "name");
	headparams(&w, "param: %s");
	if (rl_bykernels)
		str(&w, "num_kernels");
	heads(&w, "GFLOPS_first", "Data Moved (MB)_first", "FLOPS/Byte_first",
	    (char *)NULL);
	head5(&w, "TB/s");
	head5(&w, "TFLOPS/s");
	heads(&w, "process_name_first", "process_label_first",
	    "thread_name_first", "Compute Spec", (char *)NULL);
	if (arch) {
		heads(&w, "Roofline Time (\xc2\xb5s)_first",
		    "Roofline Bound_first", (char *)NULL);
		head5(&w, "Pct Roofline");
	}
	heads(&w, "kernel_details__summarize_kernel_stats",
	    "trunc_kernel_details", "Input Dims_first", "Input type_first",
	    "Input Strides_first", "Concrete Inputs_first", (char *)NULL);
	head5(&w, "Kernel Time (\xc2\xb5s)");
	heads(&w, "Kernel Time (\xc2\xb5s)_sum", "name_count", "UID_first",
	    (char *)NULL);
	end(&w);
	for (k = 0; k < ngrp; k++) {
		g = &grp[k];
		n = g->n;
		xgrow(&ms, &cap, n + 1, sizeof *ms);
		v = xreallocarray(v, cap, sizeof *v);
		for (i = 0; i < n; i++)
			tlmetrics(&S->insts[ord[g->i0 + i]], &ms[i]);
		op = &S->ops[S->insts[ord[g->i0]].op];
		str(&w, rl_opname(op));
		for (j = 0; j < ncols; j++) {
			sp = param(op, cols[j], p);
			if (sp == NULL)
				str(&w, uniform || rl_emptyparams ? NULL :
				    "nan");
			else if (sp->none && (uniform || rl_emptyparams))
				str(&w, NULL);
			else
				field(&w, S->text.buf + sp->py, sp->pyn);
		}
		if (rl_bykernels) {
			char nk[16];

			field(&w, nk, (size_t)snprintf(nk, sizeof nk, "%u",
			    (unsigned)S->insts[ord[g->i0]].nk));
		}
		num(&w, firstnum(COL(gflops), n));
		num(&w, firstnum(COL(mb), n));
		num(&w, firstnum(COL(fpb), n));
		put5(&w, COL(tbps), n);
		put5(&w, COL(tflops), n);
		for (j = 0; j < 3; j++)
			str(&w, rl_meta(S, op, j));
		str(&w, rl_spec(op, spec, sizeof spec));
		if (arch) {
			num(&w, firstnum(COL(roof_us), n));
			for (b = 0, i = 0; i < n && b == 0; i++)
				b = ms[i].bound;
			str(&w, b == 1 ? "COMPUTE_BOUND" : b == 2 ?
			    "MEMORY_BOUND" : NULL);
			put5(&w, COL(pct), n);
		}
		kdetails(g, &full, &trunc);
		field(&w, full.buf, full.n);
		field(&w, trunc.buf, trunc.n);
		for (j = 0; j < 4; j++) {
			f = firstfield(g, argcol[j], &buf);
			py.n = 0;
			if (f != NULL &&
			    tl_out_pyjson(&py, f, strlen(f), 0) == 0)
				field(&w, py.buf, py.n);
			else
				str(&w, NULL);
		}
		put5(&w, COL(t), n);
		num(&w, g->ksum_us);
		i64(&w, (int64_t)n);
		i64(&w, g->uid);
		end(&w);
	}
	if (tl_file_close(&file) < 0)
		exit(1);
	free(buf.buf);
	free(py.buf);
	free(full.buf);
	free(trunc.buf);
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
