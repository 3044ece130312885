/*
 * tl-roofline: read the tree stream of tl-tree(1) and, for every op that
 * has a perf model (GEMM, attention, convolution, element-wise,
 * normalization, reduction, ...), compute from its input dims, types,
 * strides and concrete inputs the model's parameters, FLOPs and bytes
 * moved; with the busy time of the GPU events under the op (or under its
 * autograd-linked backward events) the achieved TFLOP/s and TB/s; and,
 * with a GPU arch, the roofline time, the bound and the percent of the
 * roofline reached. Writes one row per op and pass (the op's row of the
 * input with the perf columns appended), or the per-sheet summaries
 * TraceLens writes, as a table (-s) or as TraceLens's CSV files (-c);
 * with -p, every input row, the perf columns filled for the ops it
 * models (which a later tl-agg(1) reads for its unified perf summary).
 *
 * A trace is held as compact records of the events of the tree (a uid,
 * a parent, and for GPU events the times, name and stream) and the raw
 * rows of the modelled ops, in one struct rl_seg (tl-roofline/seg.h);
 * the rest of the stream passes by. Here: the options, the rows, the
 * per-op rows written; tl-roofline/read.c reads a row into the segment,
 * link.c links it, sheet.c writes the summaries, arch.c reads the arch
 * files, and the models are in the other files of tl-roofline/.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/file.h"
#include "../common/opt.h"
#include "../common/share.h"
#include "../common/intern.h"
#include "../common/mem.h"
#include "../common/trace.h"
#include "../common/tsv.h"
#include "tl-roofline/roof.h"
#include "tl-roofline/seg.h"

/* Options. */
static int cflag, Eflag, Kflag, lflag, Lflag, pflag, sflag, tflag;
static const char *archname, *archfile, *csvdir, *sheetname;
static int sheet = -1;
static struct rl_arch *userarch;	/* -a or -f */
static int noarch;			/* -a none */

/* The columns a tree stream must have for tl-roofline. */
#define NEED	(TL_COL(TL_C_PH) | TL_COL(TL_C_PID) | TL_COL(TL_C_TID) | \
	TL_COL(TL_C_TS) | TL_COL(TL_C_DUR) | TL_COL(TL_C_STREAM) | \
	TL_COL(TL_C_ARGS) | TL_COL(TL_C_DIMS) | TL_COL(TL_C_TYPES) | \
	TL_COL(TL_C_STRIDES) | TL_COL(TL_C_CONCRETE) | TL_COL(TL_C_BWD))

static const char *const outcol[] = {
	"sheet", "model", "pass", "kernel_source", "params", "flop",
	"bytes", "flop_per_byte", "kernel_time_ns", "kernel_count",
	"tflops_per_s", "tb_per_s", "compute_spec", "arch",
	"roofline_time_ns", "bound", "pct_roofline", NULL
};

const char *const rl_sheetname[NSHEET] = {
	"GEMM", "SDPA_fwd", "SDPA_bwd", "CONV_fwd", "CONV_bwd",
	"UnaryElementwise", "BinaryElementwise", "Normalization",
	"Reduce_fwd", "Reduce_bwd", "SSM_fwd", "SSM_bwd", "RoPE_fwd",
	"RoPE_bwd", "CrossEntropy_fwd", "CrossEntropy_bwd",
	"RMSNorm_fwd", "CustomCollective_fwd", "GroupQuant_fwd",
	"elementwise_fwd", "mHC_fwd", "MoE_aux_fwd", "MoE_fused_fwd",
	"MoE_unfused_fwd", "MoE_comm_fwd", "MoE_comm_bwd", "GroupedGEMM_fwd",
	"GroupedGEMM_bwd", "InferenceAttention_fwd", "FusedRoPE_fwd"
};

static struct tl_out out;
/*
 * The current row as read, before any field is unescaped in place: the
 * reader's line itself when it has no escape (unescaping cannot change
 * it then), or a copy in rawbuf.
 */
static struct tl_out rawbuf = RL_MEM;
static struct {
	const char *buf;
	size_t n;
} raw;
static struct rl_args args;
static struct rl_res tri = { .py = RL_MEM, .js = RL_MEM };

static void
putd(struct tl_out *o, double v)
{
	if (v > -9007199254740992.0 && v < 9007199254740992.0 &&
	    v == (double)(int64_t)v)
		tl_out_i64(o, (int64_t)v);
	else if (isfinite(v))
		tl_out_double(o, v);
}

/* FLOPs, bytes and FLOPs per byte, TAB-separated: bytes when known. */
static void
putfb(struct tl_out *o, double flop, double bytes, int hasbytes)
{
	putd(o, flop);
	tl_out_char(o, '\t');
	if (hasbytes)
		putd(o, bytes);
	tl_out_char(o, '\t');
	if (hasbytes && bytes > 0)
		putd(o, flop / bytes);
}

/*
 * putfb's text to out, by its values: the ops of a memo share them, and
 * a double is long to write.
 */
static struct fbtext {
	uint64_t flop, bytes;	/* the bits */
	int hasbytes;
	size_t n;		/* 0: unused */
	char s[120];
} fbcache[256];
static struct tl_out fbbuf = RL_MEM;

static void
putfbc(double flop, double bytes, int hasbytes)
{
	struct fbtext *e;
	uint64_t f, b;

	memcpy(&f, &flop, sizeof f);
	memcpy(&b, &bytes, sizeof b);
	e = &fbcache[tl_hash64(f ^ tl_hash64(b) ^ (uint64_t)hasbytes) %
	    (sizeof fbcache / sizeof *fbcache)];
	if (e->n == 0 || e->flop != f || e->bytes != b ||
	    e->hasbytes != hasbytes) {
		fbbuf.n = 0;
		putfb(&fbbuf, flop, bytes, hasbytes);
		if (fbbuf.n > sizeof e->s) {
			tl_out_raw(&out, fbbuf.buf, fbbuf.n);
			return;
		}
		e->flop = f;
		e->bytes = b;
		e->hasbytes = hasbytes;
		e->n = fbbuf.n;
		memcpy(e->s, fbbuf.buf, fbbuf.n);
	}
	tl_out_raw(&out, e->s, e->n);
}

static const char usage[] =
    "usage: tl-roofline [-t] [-a arch | -f file] [-s sheet] [file ...]\n"
    "       tl-roofline [-EKpt] [-a arch | -f file] [-c dir] [file ...]\n"
    "       tl-roofline -l [-a arch | -f file]\n"
    "       tl-roofline -L\n";

/*
 * -p: the Triton kernels' results by name and argument texts, as the
 * perf columns of the row or why it has none: a kernel runs again and
 * again with the same args, and its model reads them whole.
 */
static struct tl_intern *trikey;
static struct trimemo {
	size_t off, n;		/* in tritext */
	int ok;			/* perf columns, else why (NUL-ended) */
} *trimemo;
static size_t ntrimemo, captrimemo;
static struct tl_out tritext = RL_MEM, trikeytext = RL_MEM;

/* The columns rl_readargs parses (the args it only points at, and
 * rl_triton does not look at them). */
static const int tricols[] = {
	TL_C_DIMS, TL_C_STRIDES, TL_C_TYPES, TL_C_CONCRETE
};

/* The perf columns of a Triton kernel's row, or why it has none. */
static void
trires(struct tl_trace *tr, const char *name, size_t n,
    struct trimemo *e)
{
	struct tl_out *o = &tritext;
	const char *w;
	size_t i;

	e->off = o->n;
	w = rl_readargs(tr, "", &args);
	if (w == NULL && rl_triton(name, n, &args, &tri) < 0)
		w = tri.why;
	if (w != NULL) {
		tl_out_raw(o, w, strlen(w) + 1);
		e->ok = 0;
		e->n = o->n - e->off;
		return;
	}
	tl_out_raw(o, "\t\ttriton\tfwd\tself\t", 18);
	tl_out_json(o, tri.js.buf, tri.js.n);
	tl_out_char(o, '\t');
	putfb(o, tri.flop, tri.bytes, tri.hasbytes);
	tl_out_raw(o, "\t\t\t\t\t", 5);
	if (tri.prec != NULL) {
		tl_out_raw(o, "vector_", 7);
		tl_out_cstr(o, tri.prec);
	}
	for (i = 0; i < 4; i++)
		tl_out_char(o, '\t');
	tl_out_char(o, '\n');
	e->ok = 1;
	e->n = o->n - e->off;
}

/*
 * -p: an Inductor Triton kernel's row, written at once with the perf
 * columns it has (its kernels' are empty). 1 written, 0 not such a row,
 * -1 no perf row (counted, with why).
 */
static int
tritonrow(struct rl_seg *S, struct tl_trace *tr, const char *name,
    size_t n)
{
	struct tl_out *key = &trikeytext;
	const struct trimemo *e;
	uint32_t id;
	size_t i;
	int c;

	if (!rl_istriton(name, n))
		return 0;
	/* the texts the result depends on, as they came */
	key->n = 0;
	tl_out_raw(key, name, n);
	for (i = 0; i < sizeof tricols / sizeof *tricols; i++) {
		c = tr->col[tricols[i]];
		tl_out_char(key, '\t');
		tl_out_raw(key, tr->t->f[c], tr->t->fl[c]);
	}
	if (trikey == NULL)
		trikey = tl_intern_new();
	id = tl_intern(trikey, key->buf, key->n);
	if (id >= ntrimemo) {
		xgrow(&trimemo, &captrimemo, id + 1, sizeof *trimemo);
		trires(tr, name, n, &trimemo[id]);
		ntrimemo = id + 1;
	}
	e = &trimemo[id];
	if (!e->ok) {
		rl_why(S, name, n, tritext.buf + e->off);
		return -1;
	}
	tl_out_raw(&out, raw.buf, raw.n);
	tl_out_raw(&out, tritext.buf + e->off, e->n);
	return 1;
}

/* Does field c hold the text lit? */
static inline int
feq(const struct tl_trace *tr, int c, const char *lit)
{
	size_t n = strlen(lit);
	int i = tr->col[c];

	return tr->t->fl[i] == n && memcmp(tr->t->f[i], lit, n) == 0;
}

/*
 * One row of the input (what tl_trace_row said of it); 1 when it is the
 * row of a modelled op, which -p writes at the end of the trace, with
 * its perf columns, or a row -p wrote already.
 */
static int
row(struct rl_seg *S, struct tl_trace *tr, int r)
{
	const struct rl_model *m;
	const char *name, *u;
	size_t n;
	int64_t puid;
	uint32_t nd;
	int written = 0, k;

	if (r == TL_ROW_FACT) {
		if (tr->kind == TL_K_TRACE_KEY &&
		    feq(tr, TL_C_NAME, "deviceProperties"))
			rl_devprops(S, tr);
		return 0;
	}
	if (feq(tr, TL_C_PH, "M")) {
		rl_metarow(S, tr);
		return 0;
	}
	if (TL_K_ISGPU(tr->kind)) {
		if (tl_trace_i64(tr, TL_C_PARENT, &puid))
			rl_addgpu(S, tr, rl_newnode(S, tr, puid));
		return 0;
	}
	if (tr->kind == TL_K_ANNOT)
		rl_addann(S, tr);
	name = tr->t->f[tr->col[TL_C_NAME]];
	n = tr->t->fl[tr->col[TL_C_NAME]];
	m = rl_find(name, n, &u);
	if (pflag && m == NULL && u != NULL &&
	    (k = tritonrow(S, tr, name, n)) != 0) {
		written = k > 0;
		u = NULL;	/* written, or counted with its reason */
	}
	if (u != NULL)
		rl_why(S, name, n, u);
	if (m == NULL && tl_trace_raw(tr, TL_C_DEPTH, &n) == NULL &&
	    tl_trace_raw(tr, TL_C_BWD, &n) == NULL)
		return written;
	if (!tl_trace_i64(tr, TL_C_PARENT, &puid))
		puid = INT64_MIN;
	nd = rl_newnode(S, tr, puid);
	rl_addbwd(S, tr, nd);
	if (m != NULL)
		return rl_newop(S, tr, m, nd, raw.buf, raw.n);
	return written;
}

/* A name of tl-roofline's own: no byte of it needs an escape. */
static inline void
lit(const char *s)
{
	tl_out_raw(&out, s, strlen(s));
}

static void
writerows(const struct rl_seg *S)
{
	const struct rl_inst *in;
	const struct rl_op *o;
	struct rl_param p[RL_MAXP + 1];
	struct rl_roof r;
	double t;
	int np, k;
	size_t i;

	for (i = 0; i < S->ninsts; i++) {
		in = &S->insts[i];
		if (pflag && in->linked)
			continue;	/* a row of its own only without -p */
		o = &S->ops[in->op];
		rl_roof(S, in, &r);
		t = (double)in->busy_ns;
		tl_out_raw(&out, S->lines.buf + o->line, o->linelen);
		tl_out_char(&out, '\t');
		lit(rl_sheetname[in->sheet]);
		tl_out_char(&out, '\t');
		tl_out_cstr(&out, o->fam != o->m->family ?
		    "aten_binary_elementwise" : rl_classname(o->m));
		tl_out_raw(&out, in->bwd ? "\tbwd\t" : "\tfwd\t", 5);
		if (in->linked)
			tl_out_raw(&out, "backward\t{", 10);
		else
			tl_out_raw(&out, "self\t{", 6);
		np = rl_opparams(S, o, p, RL_MAXP + 1);
		for (k = 0; k < np; k++) {
			if (k > 0)
				tl_out_char(&out, ',');
			tl_out_char(&out, '"');
			lit(rl_paramname[p[k].key]);
			tl_out_raw(&out, "\":", 2);
			tl_out_field(&out, S->text.buf + p[k].js, p[k].jsn);
		}
		tl_out_raw(&out, "}\t", 2);
		putfbc(r.flop, r.bytes, r.hasbytes);
		tl_out_char(&out, '\t');
		tl_out_i64(&out, in->busy_ns);
		tl_out_char(&out, '\t');
		tl_out_i64(&out, in->nk);
		tl_out_char(&out, '\t');
		if (t > 0)
			putd(&out, r.flop / t / 1e3);
		tl_out_char(&out, '\t');
		if (t > 0 && r.hasbytes)
			putd(&out, r.bytes / t / 1e3);
		tl_out_char(&out, '\t');
		if (r.spec != NULL)
			tl_out_cstr(&out, r.spec);
		tl_out_char(&out, '\t');
		if (S->arch != NULL)
			tl_out_cstr(&out, S->arch->name);
		tl_out_char(&out, '\t');
		if (r.bound != NULL) {
			putd(&out, r.roof);
			tl_out_char(&out, '\t');
			lit(r.bound);
			tl_out_char(&out, '\t');
			if (t > 0)
				putd(&out, r.roof / t * 100);
		} else
			tl_out_raw(&out, "\t\t", 2);
		tl_out_char(&out, '\n');
	}
}

/* -p: a row without a perf row, as it came, and empty perf columns. */
/* The empty perf columns of a row, one TAB before each. */
static const char noperf[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\n";
_Static_assert(sizeof noperf - 2 == sizeof outcol / sizeof *outcol - 1,
    "a TAB for each perf column");

static void
passrow(void)
{
	tl_out_raw(&out, raw.buf, raw.n);
	tl_out_raw(&out, noperf, sizeof noperf - 1);
}

/* -p: the rows of the ops that turned out to have no perf row. */
static void
deadrows(const struct rl_seg *S)
{
	const struct rl_op *o;
	size_t i;

	for (i = 0; i < S->nops; i++) {
		o = &S->ops[i];
		if (!o->dead)
			continue;
		tl_out_raw(&out, S->lines.buf + o->line, o->linelen);
		tl_out_raw(&out, noperf, sizeof noperf - 1);
	}
}

static void
pickarch(struct rl_seg *S)
{
	S->arch = NULL;
	if (noarch)
		return;
	if (userarch != NULL) {
		S->arch = userarch;
		return;
	}
	if (tflag)
		return;		/* TraceLens needs --gpu_arch_* too */
	if (S->device == NULL) {
		tl_warnx("%s: no deviceProperties: no roofline (use -a)",
		    S->name);
		return;
	}
	S->autoarch = rl_arch_bydevice(S->device);
	if (S->autoarch == NULL) {
		tl_warnx("%s: no arch file matches device \"%s\": no roofline "
		    "(use -a or -f)", S->name, S->device);
		return;
	}
	tl_warnx("%s: arch %s, for device \"%s\" (%s)", S->name,
	    S->autoarch->name, S->device, S->autoarch->path);
	S->arch = S->autoarch;
}

/* The ops without a perf row, by name and reason. */
static void
report(struct rl_seg *S)
{
	uint32_t i, n = tl_intern_count(S->whyin);
	const char *s, *r, *tl;

	for (i = 0; i < n; i++) {
		s = tl_intern_str(S->whyin, i, NULL);
		r = s + strlen(s) + 1;
		tl = strncmp(r, "perf_model", 10) == 0 ||
		    strstr(r, "_perf_model_extensions.") != NULL ?
		    "TraceLens's model " : "";
		tl_warnx("%s: %" PRIu64 " \"%s\" op%s without a perf row: "
		    "%s%s%s", S->name, S->whyn[i], s, S->whyn[i] == 1 ? "" :
		    "s", tl, r, *tl ? " is not in tl-roofline" : "");
	}
}
/* The end of a trace: link, write, report. */
static void
finish(struct rl_seg *S, const char *name)
{
	S->name = name;
	pickarch(S);
	rl_link(S);
	if (cflag)
		rl_write_csv(S, csvdir);
	if (sflag)
		rl_write_sheet(&out, S, sheet);
	else if (!cflag || pflag)
		writerows(S);
	if (pflag)
		deadrows(S);
	report(S);
}

/* The first stream: no perf columns yet; the header of the rows. */
static void
header(const struct tl_tsv *t)
{
	size_t i;

	if (sflag || (cflag && !pflag))
		return;
	for (i = 0; outcol[i] != NULL; i++)
		if (tl_tsv_col(t, outcol[i]) >= 0)
			tl_errx(1, "%s:1: column \"%s\" is there already: the "
			    "input is a tl-roofline table", t->name, outcol[i]);
	for (i = 0; i < t->ncol; i++) {
		tl_out_raw(&out, t->col[i], strlen(t->col[i]));
		tl_out_char(&out, '\t');
	}
	for (i = 0; outcol[i] != NULL; i++) {
		tl_out_raw(&out, outcol[i], strlen(outcol[i]));
		tl_out_char(&out, outcol[i + 1] != NULL ? '\t' : '\n');
	}
	tl_out_flush(&out);
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "arch-file", required_argument, NULL, 'f' },
		{ "empty-params", no_argument, NULL, 'E' },
		{ "group-by-kernels", no_argument, NULL, 'K' },
		{ "list-arch", no_argument, NULL, 'l' },
		{ "list-models", no_argument, NULL, 'L' },
		{ "pass", no_argument, NULL, 'p' },
		{ "sheet", required_argument, NULL, 's' },
		{ "tracelens", no_argument, NULL, 't' },
		{ "tracelens-csv", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	struct tl_trace *tr;
	struct rl_seg *S;
	struct tl_tsv *t;
	int ch, status, i, r;

	tl_setprogname(argv[0]);
	while ((ch = tl_getopt(argc, argv, "a:c:Ef:KlLps:t", lopt, usage)) !=
	    -1) {
		switch (ch) {
		case 'a':
			archname = optarg;
			break;
		case 'c':
			cflag = 1;
			csvdir = optarg;
			break;
		case 'E':
			Eflag = 1;
			break;
		case 'f':
			archfile = optarg;
			break;
		case 'K':
			Kflag = 1;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'L':
			Lflag = 1;
			break;
		case 'p':
			pflag = 1;
			break;
		case 's':
			sflag = 1;
			sheetname = optarg;
			break;
		case 't':
			tflag = 1;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if ((Eflag || Kflag) && !cflag)
		tl_errx(1, "-%c goes with -c", Eflag ? 'E' : 'K');
	if (Lflag && (lflag || sflag || cflag || pflag || tflag ||
	    archname != NULL || archfile != NULL || argc > 0))
		tl_errx(1, "-L takes no option and no file");
	if (lflag && (sflag || cflag || pflag || tflag || argc > 0))
		tl_errx(1, "-l takes no option but -a or -f, and no file");
	if (archname != NULL && archfile != NULL)
		tl_errx(1, "-a and -f exclude each other");
	if (sflag && cflag)
		tl_errx(1, "-s and -c exclude each other");
	if (sflag && pflag)
		tl_errx(1, "-s and -p exclude each other");
	for (i = 0; sflag && sheet < 0 && i < NSHEET; i++)
		if (strcmp(sheetname, rl_sheetname[i]) == 0)
			sheet = i;
	if (sflag && sheet < 0) {
		fprintf(stderr, "%s: -s: no such sheet: \"%s\"; the sheets "
		    "are", tl_progname, sheetname);
		for (i = 0; i < NSHEET; i++)
			fprintf(stderr, " %s", rl_sheetname[i]);
		fprintf(stderr, "\n");
		exit(1);
	}
	rl_tracelens = tflag;
	rl_emptyparams = Eflag;
	rl_bykernels = Kflag;
	tl_out_init(&out, 1, "<stdout>");
	if (archname != NULL) {
		if (strcmp(archname, "none") == 0)
			noarch = 1;
		else if ((userarch = rl_arch_byname(archname)) == NULL)
			tl_errx(1, "-a: no arch \"%s\" in %s/arch (see -l)",
			    archname, tl_sharedir());
	}
	if (archfile != NULL && (userarch = rl_arch_load(archfile)) == NULL)
		exit(1);
	if (Lflag) {
		rl_list(&out);
		tl_out_close(&out);
		return 0;
	}
	if (lflag) {
		status = noarch ? 0 : rl_arch_list(&out, userarch);
		tl_out_close(&out);
		rl_arch_free(userarch);
		return status;
	}
	if (cflag && tl_mkdirs(csvdir) < 0)
		tl_err(1, "%s", csvdir);

	tr = tl_trace_open(argc, argv, TL_S_TREE, NEED, TL_COL(TL_C_SEQ));
	while (tl_trace_next(tr)) {
		t = tr->t;
		if (tr->ntrace == 1)
			header(t);
		else if (sflag || cflag)
			tl_tsv_errx(t, "-%c: a second trace: give one trace "
			    "at a time", sflag ? 's' : 'c');
		S = rl_seg_new(tr->col);
		while ((r = tl_trace_row(tr)) != TL_ROW_END) {
			raw.buf = t->f[0];
			raw.n = (size_t)(t->f[t->ncol - 1] +
			    t->fl[t->ncol - 1] - t->f[0]);
			if (t->esc) {	/* the row has a backslash */
				rawbuf.n = 0;
				tl_out_raw(&rawbuf, raw.buf, raw.n);
				raw.buf = rawbuf.buf;
			}
			if (!row(S, tr, r) && pflag)
				passrow();
		}
		if (tr->more && (sflag || cflag))
			tl_tsv_errx(t, "-%c: a second trace: give one trace "
			    "at a time", sflag ? 's' : 'c');
		finish(S, tr->name);
		rl_seg_free(S);
	}
	status = tr->status;
	tl_trace_close(tr);
	tl_out_close(&out);
	rl_arch_free(userarch);
	rl_read_end();
	rl_link_end();
	rl_util_end();
	free(rawbuf.buf);
	free(tri.py.buf);
	free(tri.js.buf);
	tl_intern_free(trikey);
	free(trimemo);
	free(tritext.buf);
	free(trikeytext.buf);
	free(fbbuf.buf);
	return status;
}
