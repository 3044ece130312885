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
 * rows of the modelled ops; the rest of the stream passes by.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <strings.h>

#include "../common/err.h"
#include "../common/limit.h"
#include "../common/input.h"
#include "../common/intern.h"
#include "../common/interval.h"
#include "../common/json.h"
#include "../common/mem.h"
#include "../common/tsv.h"
#include "tl-roofline/roof.h"
#include "tl-roofline/seg.h"

#define NOUID	INT64_MIN

/* Options. */
static int cflag, lflag, pflag, sflag, tflag;
static const char *archname, *archfile, *csvdir, *sheetname;
static int sheet = -1;
static struct rl_arch *userarch;	/* -a or -f */
static int noarch;			/* -a none */

/* Columns of the input. */
static int c_uid, c_ph, c_cat, c_name, c_pid, c_tid, c_ts, c_dur,
    c_stream, c_args, c_parent, c_depth, c_bwd;
int rl_c_dims, rl_c_types, rl_c_strides, rl_c_ci;
size_t rl_ncol;
static struct tl_hdr hdr;	/* the first stream's */

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
	"RoPE_bwd", "CrossEntropy_fwd", "CrossEntropy_bwd"
};

/* The sheets of a family: fwd, and bwd (-1 for a single sheet). */
static const int famsheet[NFAMILY][2] = {
	[F_GEMM] = { S_GEMM, -1 },
	[F_SDPA] = { S_SDPA_FWD, S_SDPA_BWD },
	[F_CONV] = { S_CONV_FWD, S_CONV_BWD },
	[F_UNARY] = { S_UNARY, -1 },
	[F_BINARY] = { S_BINARY, -1 },
	[F_NORM] = { S_NORM, -1 },
	[F_REDUCE] = { S_REDUCE_FWD, S_REDUCE_BWD },
	[F_SSM] = { S_SSM_FWD, S_SSM_BWD },
	[F_ROPE] = { S_ROPE_FWD, S_ROPE_BWD },
	[F_CE] = { S_CE_FWD, S_CE_BWD },
};

static struct tl_out out;

/* A host or linked GPU event of the tree. */
struct node {
	int64_t uid, puid;
	uint32_t parent;
	uint32_t op;		/* op + 1, or 0 */
	uint32_t gpu;		/* GPU event + 1, or 0 */
	uint32_t fwd0, nfwd;	/* forward nodes it is the backward of */
};

/* A backward uid and the node of its forward event. */
struct bwdpair {
	int64_t uid;
	uint32_t fwd;
};

/* A kernel of an op's pass. */
struct kp {
	uint32_t op, gpu;
	uint8_t bwd;
};

/* The segment. */
struct rl_op *rl_ops;
size_t rl_nops;
static size_t capops;
struct rl_inst *rl_insts;
size_t rl_ninsts;
static size_t capinsts;
struct rl_gpu *rl_gpus;
static size_t ngpus, capgpus;
uint32_t *rl_kv;
struct rl_sparam *rl_params;
static size_t nparams, capparams;
struct rl_str rl_text, rl_lines;
struct tl_intern *rl_in;
const struct rl_arch *rl_segarch;
const char *rl_segname;
static struct rl_arch *autoarch;
static struct node *nodes;
static size_t nnodes, capnodes;
static struct bwdpair *bp;
static size_t nbp, capbp;
static uint32_t *fwdv;
static struct kp *kps;
static size_t nkps, capkps;
static char *segname;
static char *device;
static int segrows;

/* Metadata: process_name and process_labels by pid, thread_name. */
struct meta {
	uint32_t pid, tid, val;
	uint8_t kind;		/* process_name, process_labels, thread */
};
static struct meta *metas;
static size_t nmetas, capmetas;

/* Ops without a perf row, by (name, reason). */
static struct tl_intern *whyin;
static uint64_t *whyn;
static size_t capwhy;

/* uid -> node */
static uint32_t *htab;
static size_t hmask;

static struct rl_res res;
static struct rl_args args;
static struct tl_jdoc jd;

/* The current row as read, before any field is unescaped in place. */
static struct rl_str raw;
static struct rl_triton tri;

static void putd(double);

static noreturn void
usage(void)
{
	fprintf(stderr,
	    "usage: tl-roofline [-t] [-a arch | -f file] [-s sheet] "
	    "[file ...]\n"
	    "       tl-roofline [-pt] [-a arch | -f file] [-c dir] "
	    "[file ...]\n"
	    "       tl-roofline -l\n");
	exit(1);
}

/* Small helpers. */

static int
feq(struct tl_tsv *t, int c, const char *lit)
{
	size_t n = strlen(lit);

	return t->fl[c] == n && memcmp(t->f[c], lit, n) == 0;
}

static uint32_t
intern(const char *s, size_t n)
{
	return tl_intern(rl_in, s, n);
}

const char *
rl_opname(const struct rl_op *o)
{
	return o->m->name;
}

static const char *
metaval(uint32_t pid, uint32_t tid, int kind)
{
	size_t i;

	for (i = nmetas; i-- > 0;)
		if (metas[i].kind == kind && metas[i].pid == pid &&
		    (kind != 2 || metas[i].tid == tid))
			return tl_intern_str(rl_in, metas[i].val, NULL);
	return "Unknown";
}

const char *
rl_procname(const struct rl_op *o)
{
	return metaval(o->pid, 0, 0);
}

const char *
rl_proclabel(const struct rl_op *o)
{
	return metaval(o->pid, 0, 1);
}

const char *
rl_threadname(const struct rl_op *o)
{
	return metaval(o->pid, o->tid, 2);
}

const char *
rl_opfield(const struct rl_op *o, int c, struct rl_str *buf)
{
	const char *p = rl_lines.p + o->line, *end = p + o->linelen, *tab;
	ptrdiff_t n;
	int i;

	for (i = 0; i < c; i++) {
		tab = memchr(p, '\t', (size_t)(end - p));
		if (tab == NULL)
			return NULL;
		p = tab + 1;
	}
	tab = memchr(p, '\t', (size_t)(end - p));
	if (tab == NULL)
		tab = end;
	if (tab == p)
		return NULL;
	buf->n = 0;
	rl_sput(buf, p, (size_t)(tab - p));
	n = tl_tsv_unescape(buf->p, buf->p, buf->n);
	if (n < 0)
		return NULL;
	buf->n = (size_t)n;
	buf->p[n] = '\0';
	return buf->p;
}

int
rl_opparams(const struct rl_op *o, struct rl_sparam *p, int max)
{
	int n = o->npar;

	if (n > max)
		n = max;
	memcpy(p, rl_params + o->par0, (size_t)n * sizeof *p);
	if (o->transa >= 0 && n < max) {
		/* "(True, False)": stored in rl_text at par0's end */
		p[n] = rl_params[o->par0 + o->npar];
		n++;
	}
	return n;
}

const char *
rl_spec(const struct rl_op *o, char *buf, size_t cap)
{
	if (o->prec == NULL)
		return NULL;
	snprintf(buf, cap, "%s_%s", o->matrix ? "matrix" : "vector",
	    o->prec);
	return buf;
}

/* TraceLens's metrics of an instance (compute_perf_metrics). */
void
rl_tlmetrics(const struct rl_inst *in, struct rl_tlm *m)
{
	const struct rl_op *o = &rl_ops[in->op];
	double flop = in->bwd && !o->isbwd ? o->flop_bwd : o->flop;
	double bytes = in->bwd && !o->isbwd ? o->bytes_bwd : o->bytes;
	int hasbytes = in->bwd && !o->isbwd ? o->hasbytes_bwd : o->hasbytes;
	double peak, cu, mu, T = in->busy_us;
	char spec[32];

	m->t = T;
	m->gflops = flop / 1e9;
	m->tflops = T > 0 ? (m->gflops / 1e3) / (T / 1e6) : NAN;
	m->mb = m->fpb = m->tbps = NAN;
	if (hasbytes) {
		m->mb = bytes / 1048576;
		m->fpb = bytes != 0 ? m->gflops * 1e9 / bytes : NAN;
		m->tbps = T > 0 ? (bytes / 1e12) / (T / 1e6) : NAN;
	}
	m->roof_us = m->pct = NAN;
	m->bound = 0;
	if (rl_segarch == NULL || rl_spec(o, spec, sizeof spec) == NULL)
		return;
	peak = rl_arch_peak(rl_segarch, spec);
	if (peak <= 0 || rl_segarch->mem_bw_gbps <= 0 || !hasbytes ||
	    !(m->gflops > 0))
		return;
	cu = m->gflops * 1e9 / (peak * 1e12) * 1e6;
	mu = bytes / (rl_segarch->mem_bw_gbps * 1e9) * 1e6;
	m->roof_us = cu > mu ? cu : mu;
	m->bound = cu >= mu ? 1 : 2;
	m->pct = T > 0 ? m->roof_us / T * 100 : NAN;
}

/* Reading. */

static uint32_t
newnode(int64_t uid, int64_t puid)
{
	struct node *n;

	xgrow(&nodes, &capnodes, nnodes + 1, sizeof *nodes);
	n = &nodes[nnodes];
	n->uid = uid;
	n->puid = puid;
	n->parent = RL_NONE;
	n->op = n->gpu = 0;
	n->fwd0 = n->nfwd = 0;
	return (uint32_t)nnodes++;
}

static void
why(const char *name, size_t namelen, const char *reason)
{
	char buf[256];
	uint32_t id;
	size_t old;
	int n;

	n = snprintf(buf, sizeof buf, "%.*s%c%s", (int)(namelen < 120 ?
	    namelen : 120), name, 0, reason);
	if (n >= (int)sizeof buf)
		n = sizeof buf - 1;
	if (whyin == NULL)
		whyin = tl_intern_new();
	id = tl_intern(whyin, buf, (size_t)n);
	if (id >= capwhy) {
		old = capwhy;
		xgrow(&whyn, &capwhy, id + 1, sizeof *whyn);
		memset(whyn + old, 0, (capwhy - old) * sizeof *whyn);
	}
	whyn[id]++;
}

/* Parse a JSON list column into shapes (dims, strides). */
static int
jshapes(const char *s, size_t n, struct rl_shape **v, int *nv)
{
	static struct rl_shape *sv;
	static int capsv;
	static int64_t *iv;
	static size_t capiv;
	size_t ni = 0;
	int i, j, k, e, m;
	char num[32];

	if (tl_json_parse(&jd, s, n) < 0 || jd.tok[0].type != JSMN_ARRAY)
		return -1;
	m = jd.tok[0].size;
	if (m > capsv) {
		capsv = m + 16;
		sv = xreallocarray(sv, (size_t)capsv, sizeof *sv);
	}
	/* first pass: count integers */
	xgrow(&iv, &capiv, (size_t)jd.ntok + 1, sizeof *iv);
	for (i = 0, j = 1; i < m; i++, j = e) {
		jsmntok_t *t = &jd.tok[j];

		e = tl_jskip(&jd, j);
		sv[i].n = 0;
		sv[i].flat = 0;
		sv[i].v = iv + ni;
		if (t->type != JSMN_ARRAY)
			continue;
		sv[i].flat = 1;
		for (k = j + 1; k < e; k++) {
			jsmntok_t *u = &jd.tok[k];
			size_t l = (size_t)(u->end - u->start);
			char *end;

			if (u->type != JSMN_PRIMITIVE || l >= sizeof num) {
				sv[i].flat = 0;
				break;
			}
			memcpy(num, s + u->start, l);
			num[l] = '\0';
			errno = 0;
			iv[ni] = strtoll(num, &end, 10);
			if (*end != '\0' || errno != 0 || l == 0) {
				sv[i].flat = 0;
				break;
			}
			ni++;
			sv[i].n++;
		}
		if (!sv[i].flat)
			sv[i].n = 0;
	}
	*v = sv;
	*nv = m;
	return 0;
}

/* Parse a JSON list of strings (types, concrete inputs). */
static int
jstrings(const char *s, size_t n, const char ***v, int *nv, char **buf,
    size_t *capbuf, const char ***vv, int *capvv)
{
	size_t o = 0, l;
	unsigned bad = 0;
	int i, j, m;

	if (tl_json_parse(&jd, s, n) < 0 || jd.tok[0].type != JSMN_ARRAY)
		return -1;
	m = jd.tok[0].size;
	if (m > *capvv) {
		*capvv = m + 16;
		*vv = xreallocarray(*vv, (size_t)*capvv, sizeof **vv);
	}
	xgrow(buf, capbuf, n + (size_t)m + 1, 1);
	for (i = 0, j = 1; i < m; i++, j = tl_jskip(&jd, j)) {
		jsmntok_t *t = &jd.tok[j];

		l = (size_t)(t->end - t->start);
		if (t->type == JSMN_STRING)
			l = tl_junescape(*buf + o, s + t->start, l, &bad);
		else
			memcpy(*buf + o, s + t->start, l);
		(*buf)[o + l] = '\0';
		(*vv)[i] = (const char *)(uintptr_t)o;
		o += l + 1;
	}
	for (i = 0; i < m; i++)
		(*vv)[i] = *buf + (uintptr_t)(*vv)[i];
	*v = *vv;
	*nv = m;
	return 0;
}

/* The args of the current row; NULL when one does not parse (why). */
static const char *
readargs(struct tl_tsv *t, const char *name)
{
	static char *tb, *cb;
	static size_t captb, capcb;
	static const char **tv, **cv;
	static int captv, capcv;
	static struct rl_shape *dsave;
	static int capdsave;
	static int64_t *isave;
	static size_t capisave;
	struct rl_shape *sv;
	const char *s;
	size_t n, ni, k;
	int i;

	memset(&args, 0, sizeof args);
	args.name = name;
	if ((s = tl_tsv_str(t, rl_c_dims, &n)) != NULL) {
		if (jshapes(s, n, &sv, &args.ndims) < 0)
			return "input_dims is not a JSON list";
		/* keep them: strides reuse the parser's buffers */
		if (args.ndims > capdsave) {
			capdsave = args.ndims + 16;
			dsave = xreallocarray(dsave, (size_t)capdsave,
			    sizeof *dsave);
		}
		for (ni = 0, i = 0; i < args.ndims; i++)
			ni += (size_t)sv[i].n;
		xgrow(&isave, &capisave, ni + 1, sizeof *isave);
		for (k = 0, i = 0; i < args.ndims; i++) {
			dsave[i] = sv[i];
			memcpy(isave + k, sv[i].v, (size_t)sv[i].n *
			    sizeof *isave);
			dsave[i].v = isave + k;
			k += (size_t)sv[i].n;
		}
		args.dims = dsave;
		args.hasdims = 1;
	}
	if ((s = tl_tsv_str(t, rl_c_strides, &n)) != NULL) {
		if (jshapes(s, n, &args.strides, &args.nstrides) < 0)
			return "input_strides is not a JSON list";
		args.hasstrides = 1;
	}
	if ((s = tl_tsv_str(t, rl_c_types, &n)) != NULL) {
		if (jstrings(s, n, &args.types, &args.ntypes, &tb, &captb,
		    &tv, &captv) < 0)
			return "input_types is not a JSON list";
		args.hastypes = 1;
	}
	if ((s = tl_tsv_str(t, rl_c_ci, &n)) != NULL) {
		if (jstrings(s, n, &args.ci, &args.nci, &cb, &capcb, &cv,
		    &capcv) < 0)
			return "concrete_inputs is not a JSON list";
		args.hasci = 1;
	}
	return NULL;
}

static int64_t
needuid(struct tl_tsv *t, int c)
{
	int64_t v;

	if (!tl_tsv_i64(t, c, &v))
		return NOUID;
	return v;
}

/*
 * Ops recur with the same arguments (a layer run again and again): the
 * model's result for the first is kept, keyed by the model and the text
 * of the four argument columns, and the others take it without parsing
 * or computing anything. For a key, the op that has its result, or the
 * reason it has none (in memowhy).
 */
static struct tl_intern *memoin;
static struct memo {
	int64_t op;		/* in rl_ops, or -1: no result */
	size_t why;		/* in memowhy */
} *memo;
static size_t nmemo, capmemo;
static struct rl_str memokey, memowhy;

static uint32_t
memofind(struct tl_tsv *t, const struct rl_model *m)
{
	static const int *const cols[] = { &rl_c_dims, &rl_c_strides,
	    &rl_c_types, &rl_c_ci };
	size_t i;

	memokey.n = 0;
	rl_sput(&memokey, (const char *)&m, sizeof m);
	for (i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		rl_sputc(&memokey, '\t');
		rl_sput(&memokey, t->f[*cols[i]], t->fl[*cols[i]]);
	}
	if (memoin == NULL)
		memoin = tl_intern_new();
	return tl_intern(memoin, memokey.p, memokey.n);
}

/* Op o takes model m's result, res, and its parameters. */
static void
result(struct rl_op *o, const struct rl_model *m)
{
	int i;

	o->m = m;
	o->flop = res.flop;
	o->bytes = res.bytes;
	o->flop_bwd = res.flop_bwd;
	o->bytes_bwd = res.bytes_bwd;
	o->hasbytes = (uint8_t)res.hasbytes;
	o->hasbwd = (uint8_t)res.hasbwd;
	o->hasbytes_bwd = (uint8_t)res.hasbytes_bwd;
	o->isbwd = (uint8_t)res.isbwd;
	o->matrix = (uint8_t)res.matrix;
	o->prec = res.prec;
	o->fam = (uint8_t)(res.family >= 0 ? res.family : m->family);
	o->par0 = (uint32_t)nparams;
	o->npar = (uint8_t)res.np;
	/* one more slot for the GEMM transpose */
	xgrow(&rl_params, &capparams, nparams + (size_t)res.np + 1,
	    sizeof *rl_params);
	for (i = 0; i < res.np; i++) {
		struct rl_sparam *p = &rl_params[nparams++];

		p->key = res.p[i].key;
		p->tuple = res.p[i].tuple;
		p->none = res.p[i].none;
		p->py = (uint32_t)rl_text.n;
		p->pyn = res.p[i].pyn;
		rl_sput(&rl_text, res.py.p + res.p[i].py, res.p[i].pyn);
		p->js = (uint32_t)rl_text.n;
		p->jsn = res.p[i].jsn;
		rl_sput(&rl_text, res.js.p + res.p[i].js, res.p[i].jsn);
	}
	nparams++;
}

/* An op with a model: 1 when it has a perf row. */
static int
newop(struct tl_tsv *t, const struct rl_model *m, uint32_t node,
    const char *line, size_t linelen)
{
	struct rl_op *o;
	const struct rl_op *first;
	const char *w;
	uint32_t id;

	id = memofind(t, m);
	if (id < nmemo) {
		if (memo[id].op < 0) {
			why(m->name, strlen(m->name), memowhy.p +
			    memo[id].why);
			return 0;
		}
		xgrow(&rl_ops, &capops, rl_nops + 1, sizeof *rl_ops);
		first = &rl_ops[memo[id].op];
		xgrow(&rl_params, &capparams, nparams + first->npar + 1U,
		    sizeof *rl_params);
		memcpy(rl_params + nparams, rl_params + first->par0,
		    first->npar * sizeof *rl_params);
		o = &rl_ops[rl_nops];
		*o = *first;
		o->par0 = (uint32_t)nparams;
		nparams += first->npar + 1U;
	} else {
		xgrow(&memo, &capmemo, nmemo + 1, sizeof *memo);
		memo[nmemo].op = -1;
		nmemo++;
		w = readargs(t, m->name);
		if (w == NULL && rl_compute(m, &args, &res) < 0)
			w = res.why;
		if (w != NULL) {
			memo[id].why = memowhy.n;
			rl_sputs(&memowhy, w);
			rl_sputc(&memowhy, '\0');
			why(m->name, strlen(m->name), w);
			return 0;
		}
		memo[id].op = (int64_t)rl_nops;
		xgrow(&rl_ops, &capops, rl_nops + 1, sizeof *rl_ops);
		o = &rl_ops[rl_nops];
		memset(o, 0, sizeof *o);
		result(o, m);
	}
	o->uid = nodes[node].uid;
	o->node = node;
	o->pid = intern(t->f[c_pid], t->fl[c_pid]);
	o->tid = intern(t->f[c_tid], t->fl[c_tid]);
	o->line = rl_lines.n;
	o->linelen = linelen;
	o->transa = o->transb = -1;
	o->bwdlinked = t->fl[c_bwd] > 0;
	o->lastg = 0;
	rl_sput(&rl_lines, line, linelen);
	nodes[node].op = (uint32_t)rl_nops + 1;
	rl_nops++;
	return 1;
}


/* Start a trace, or rename the one that has no rows yet. */
static void
startseg(const char *name, size_t n)
{
	free(segname);
	segname = xmemdup(name, n);
	rl_segname = segname;
	if (rl_in == NULL) {
		rl_in = tl_intern_new();
		segrows = 0;
	}
}

/* deviceProperties: the name of the first device. */
static void
devprops(struct tl_tsv *t)
{
	const char *s;
	size_t n;
	unsigned bad = 0;
	int i, end;

	if ((s = tl_tsv_str(t, c_args, &n)) == NULL)
		return;
	if (tl_json_parse(&jd, s, n) < 0 || jd.tok[0].type != JSMN_ARRAY ||
	    jd.tok[0].size < 1 || jd.tok[1].type != JSMN_OBJECT)
		return;
	end = tl_jskip(&jd, 1);
	for (i = 2; i < end; i = tl_jskip(&jd, i + 1))
		if (tl_jeq(&jd, i, "name") &&
		    jd.tok[i + 1].type == JSMN_STRING) {
			jsmntok_t *v = &jd.tok[i + 1];
			size_t l = (size_t)(v->end - v->start);

			free(device);
			device = xmalloc(l + 1);
			l = tl_junescape(device, s + v->start, l, &bad);
			device[l] = '\0';
			return;
		}
}

/* A metadata event: process_name, process_labels, thread_name. */
static void
metarow(struct tl_tsv *t)
{
	const char *key, *s;
	size_t n;
	unsigned bad = 0;
	int kind, i, end;
	struct meta *m;
	char *v;

	if (feq(t, c_name, "process_name"))
		kind = 0, key = "name";
	else if (feq(t, c_name, "process_labels"))
		kind = 1, key = "labels";
	else if (feq(t, c_name, "thread_name"))
		kind = 2, key = "name";
	else
		return;
	xgrow(&metas, &capmetas, nmetas + 1, sizeof *metas);
	m = &metas[nmetas];
	m->kind = (uint8_t)kind;
	m->pid = intern(t->f[c_pid], t->fl[c_pid]);
	m->tid = intern(t->f[c_tid], t->fl[c_tid]);
	if ((s = tl_tsv_str(t, c_args, &n)) == NULL ||
	    tl_json_parse(&jd, s, n) < 0 || jd.tok[0].type != JSMN_OBJECT)
		return;
	end = tl_jskip(&jd, 0);
	for (i = 1; i < end; i = tl_jskip(&jd, i + 1)) {
		jsmntok_t *vt = &jd.tok[i + 1];
		size_t l = (size_t)(vt->end - vt->start);

		if (!tl_jeq(&jd, i, key))
			continue;
		v = xmalloc(l + 1);
		if (vt->type == JSMN_STRING)
			l = tl_junescape(v, s + vt->start, l, &bad);
		else
			memcpy(v, s + vt->start, l);
		m->val = intern(v, l);
		free(v);
		nmetas++;
		return;
	}
}

static void finish(void);

/*
 * -p: an Inductor Triton kernel's row, written at once with the perf
 * columns it has (its kernels' are empty). 1 written, 0 not such a row,
 * -1 no perf row (counted, with why).
 */
static int
tritonrow(struct tl_tsv *t)
{
	const char *w;
	size_t i;

	if (rl_triton(t->f[c_name], t->fl[c_name], &args, &tri) == 1)
		return 0;
	w = readargs(t, "");
	if (w == NULL && rl_triton(t->f[c_name], t->fl[c_name], &args, &tri)
	    < 0)
		w = tri.why;
	if (w != NULL) {
		why(t->f[c_name], t->fl[c_name], w);
		return -1;
	}
	tl_out_raw(&out, raw.p, raw.n);
	tl_out_raw(&out, "\t\ttriton\tfwd\tself\t", 18);
	tl_out_json(&out, tri.js.p, tri.js.n);
	tl_out_char(&out, '\t');
	putd(tri.flop);
	tl_out_char(&out, '\t');
	if (tri.hasbytes)
		putd(tri.bytes);
	tl_out_char(&out, '\t');
	if (tri.hasbytes && tri.bytes > 0)
		putd(tri.flop / tri.bytes);
	tl_out_raw(&out, "\t\t\t\t\t", 5);
	if (tri.spec != NULL) {
		tl_out_raw(&out, "vector_", 7);
		tl_out_cstr(&out, tri.spec);
	}
	for (i = 0; i < 4; i++)
		tl_out_char(&out, '\t');
	tl_out_char(&out, '\n');
	return 1;
}

/*
 * One row of the input; 1 when it is the row of a modelled op, which
 * -p writes at the end of the trace, with its perf columns.
 */
static int
row(struct tl_tsv *t)
{
	const struct rl_model *m;
	const char *line, *name, *p, *e, *u;
	size_t linelen;
	int64_t uid, puid, v;
	uint32_t nd;
	struct rl_gpu *g;
	size_t n;
	char *end;
	int written = 0, k;

	if (t->fl[c_uid] == 0) {
		if (feq(t, c_cat, "trace_file")) {
			if (segrows > 0 && (sflag || cflag))
				tl_tsv_errx(t, "-%c: a second trace: give one "
				    "trace at a time", sflag ? 's' : 'c');
			if (segrows > 0)
				finish();
			name = tl_tsv_str(t, c_name, &n);
			startseg(name != NULL ? name : "", n);
		} else if (feq(t, c_cat, "trace_key") &&
		    feq(t, c_name, "deviceProperties"))
			devprops(t);
		return 0;
	}
	segrows++;
	if (feq(t, c_ph, "M")) {
		metarow(t);
		return 0;
	}
	if (feq(t, c_cat, "kernel") || feq(t, c_cat, "gpu_memcpy") ||
	    feq(t, c_cat, "gpu_memset")) {
		if (t->fl[c_parent] == 0)
			return 0;
		uid = needuid(t, c_uid);
		puid = needuid(t, c_parent);
		nd = newnode(uid, puid);
		xgrow(&rl_gpus, &capgpus, ngpus + 1, sizeof *rl_gpus);
		g = &rl_gpus[ngpus];
		g->uid = uid;
		if (!tl_tsv_i64(t, c_ts, &g->ts))
			g->ts = 0;
		if (!tl_tsv_i64(t, c_dur, &g->dur) || g->dur < 0)
			g->dur = 0;
		name = tl_tsv_str(t, c_name, &n);
		g->name = intern(name != NULL ? name : "", n);
		name = tl_tsv_str(t, c_stream, &n);
		g->stream = name != NULL ? intern(name, n) : RL_NONE;
		nodes[nd].gpu = (uint32_t)++ngpus;
		return 0;
	}
	line = raw.p;
	linelen = raw.n;
	m = rl_find(t->f[c_name], t->fl[c_name], &u);
	if (pflag && m == NULL && u != NULL && (k = tritonrow(t)) != 0) {
		written = k > 0;
		u = NULL;	/* written, or counted with its reason */
	}
	if (u != NULL)
		why(t->f[c_name], t->fl[c_name], u);
	if (m == NULL && t->fl[c_depth] == 0 && t->fl[c_bwd] == 0)
		return written;
	uid = needuid(t, c_uid);
	puid = t->fl[c_parent] > 0 ? needuid(t, c_parent) : NOUID;
	nd = newnode(uid, puid);
	if (t->fl[c_bwd] > 0) {
		p = t->f[c_bwd];
		e = p + t->fl[c_bwd];
		while (p < e) {
			errno = 0;
			v = strtoll(p, &end, 10);
			if (end == p || errno != 0 || end > e ||
			    (end < e && *end != ','))
				tl_tsv_errx(t, "column \"bwd_uids\": not a "
				    "list of integers");
			xgrow(&bp, &capbp, nbp + 1, sizeof *bp);
			bp[nbp].uid = v;
			bp[nbp].fwd = nd;
			nbp++;
			p = end + 1;
		}
	}
	if (m != NULL)
		return newop(t, m, nd, line, linelen);
	return written;
}

/* Linking. */

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void
hbuild(void)
{
	size_t i, j;

	for (hmask = 63; hmask + 1 < 2 * nnodes + 2; hmask = 2 * hmask + 1)
		;
	free(htab);
	htab = xcalloc(hmask + 1, sizeof *htab);
	for (i = 0; i < nnodes; i++) {
		for (j = mix((uint64_t)nodes[i].uid) & hmask; htab[j] != 0;
		    j = (j + 1) & hmask)
			if (nodes[htab[j] - 1].uid == nodes[i].uid)
				break;
		if (htab[j] == 0)
			htab[j] = (uint32_t)i + 1;
	}
}

static uint32_t
hfind(int64_t uid)
{
	size_t j;

	for (j = mix((uint64_t)uid) & hmask; htab[j] != 0;
	    j = (j + 1) & hmask)
		if (nodes[htab[j] - 1].uid == uid)
			return htab[j] - 1;
	return RL_NONE;
}

static int
cmpbp(const void *a, const void *b)
{
	const struct bwdpair *x = a, *y = b;

	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return x->fwd < y->fwd ? -1 : x->fwd > y->fwd;
}

static int
cmpkp(const void *a, const void *b)
{
	const struct kp *x = a, *y = b;
	const struct rl_gpu *g = &rl_gpus[x->gpu], *h = &rl_gpus[y->gpu];

	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	if (x->bwd != y->bwd)
		return x->bwd < y->bwd ? -1 : 1;
	if (g->ts != h->ts)
		return g->ts < h->ts ? -1 : 1;
	return g->uid < h->uid ? -1 : g->uid > h->uid;
}

static void
addkp(uint32_t op, uint32_t gpu, int bwd)
{
	xgrow(&kps, &capkps, nkps + 1, sizeof *kps);
	kps[nkps].op = op;
	kps[nkps].gpu = gpu;
	kps[nkps].bwd = (uint8_t)bwd;
	nkps++;
}

/* Does op o take the kernels of its linked backward events? */
static int
wantsbwd(const struct rl_op *o)
{
	if (!o->hasbwd || !o->bwdlinked || o->isbwd)
		return 0;
	if (famsheet[o->fam][1] < 0 || o->fam == F_CONV)
		return 0;
	return 1;
}

static void
linktree(void)
{
	size_t i, j, k, d;
	uint32_t p, q, f, g, stamp;
	struct rl_op *o;

	hbuild();
	for (i = 0; i < nnodes; i++)
		if (nodes[i].puid != NOUID)
			nodes[i].parent = hfind(nodes[i].puid);
	/* backward events: the forward nodes of each */
	if (nbp > 0)
		qsort(bp, nbp, sizeof *bp, cmpbp);
	free(fwdv);
	fwdv = xcalloc(nbp + 1, sizeof *fwdv);
	for (i = 0; i < nbp; i = j) {
		for (j = i; j < nbp && bp[j].uid == bp[i].uid; j++)
			fwdv[j] = bp[j].fwd;
		p = hfind(bp[i].uid);
		if (p == RL_NONE)
			continue;
		nodes[p].fwd0 = (uint32_t)i;
		nodes[p].nfwd = (uint32_t)(j - i);
	}
	/* every linked GPU event: to the ops above it, and above the
	 * forward events of the backward events above it */
	nkps = 0;
	for (i = 0; i < nnodes; i++) {
		if (nodes[i].gpu == 0)
			continue;
		g = nodes[i].gpu - 1;
		stamp = g + 1;
		for (p = nodes[i].parent, d = 0; p != RL_NONE && d < nnodes;
		    p = nodes[p].parent, d++) {
			if (nodes[p].op != 0)
				addkp(nodes[p].op - 1, g, 0);
			for (j = 0; j < nodes[p].nfwd; j++) {
				f = fwdv[nodes[p].fwd0 + j];
				for (q = f, k = 0; q != RL_NONE && k < nnodes;
				    q = nodes[q].parent, k++) {
					if (nodes[q].op == 0)
						continue;
					o = &rl_ops[nodes[q].op - 1];
					if (!wantsbwd(o) || o->lastg == stamp)
						continue;
					o->lastg = stamp;
					addkp(nodes[q].op - 1, g, 1);
				}
			}
		}
	}
	if (nkps > 0)
		qsort(kps, nkps, sizeof *kps, cmpkp);
	free(rl_kv);
	rl_kv = xcalloc(nkps + 1, sizeof *rl_kv);
	for (i = 0; i < nkps; i++)
		rl_kv[i] = kps[i].gpu;
}

/* TraceLens's transpose flags from a GEMM kernel name: 0, or -1. */
static int
transpose(const char *s, int *ta, int *tb)
{
	const char *p, *last;
	size_t i;

	for (p = s; (p = strchr(p, 'C')) != NULL; p++) {
		/* C[a-z]{3}_A[a-z]{3}_B[a-z]{3} */
		for (i = 1; i < 4; i++)
			if (p[i] < 'a' || p[i] > 'z')
				break;
		if (i < 4 || p[4] != '_' || p[5] != 'A')
			continue;
		for (i = 6; i < 9; i++)
			if (p[i] < 'a' || p[i] > 'z')
				break;
		if (i < 9 || p[9] != '_' || p[10] != 'B')
			continue;
		for (i = 11; i < 14; i++)
			if (p[i] < 'a' || p[i] > 'z')
				break;
		if (i < 14)
			continue;
		if (strncmp(p + 5, "Alik", 4) == 0)
			*ta = 1;
		else if (strncmp(p + 5, "Ailk", 4) == 0)
			*ta = 0;
		else
			return -1;
		if (strncmp(p + 10, "Bjlk", 4) == 0)
			*tb = 1;
		else if (strncmp(p + 10, "Bljk", 4) == 0)
			*tb = 0;
		else
			return -1;
		return 0;
	}
	if (strncmp(s, "nvjet", 5) == 0) {
		last = strrchr(s, '_');
		last = last != NULL ? last + 1 : s;
		if (strlen(last) < 2)
			return -1;
		*ta = last[0] == 'T';
		*tb = last[1] == 'T';
		return 0;
	}
	return -1;
}

static void
addinst(uint32_t op, int sh, int bwd, int linked, int moved, size_t k0,
    size_t nk)
{
	struct rl_inst *in;

	xgrow(&rl_insts, &capinsts, rl_ninsts + 1, sizeof *rl_insts);
	in = &rl_insts[rl_ninsts++];
	memset(in, 0, sizeof *in);
	in->op = op;
	in->sheet = (uint8_t)sh;
	in->bwd = (uint8_t)bwd;
	in->linked = (uint8_t)linked;
	in->moved = (uint8_t)moved;
	in->k0 = (uint32_t)k0;
	in->nk = (uint32_t)nk;
}

/* The busy time of an instance's kernels (sorted by ts). */
static void
busy(struct rl_inst *in)
{
	int64_t s = 0, e = 0, total = 0;
	double ds = 0, de = 0, dt = 0, a, b;
	size_t i;

	for (i = 0; i < in->nk; i++) {
		const struct rl_gpu *g = &rl_gpus[rl_kv[in->k0 + i]];

		a = (double)g->ts / 1000.0;
		b = a + (double)g->dur / 1000.0;
		if (i > 0 && g->ts <= e) {
			if (g->ts + g->dur > e)
				e = g->ts + g->dur;
		} else {
			total += e - s;
			s = g->ts;
			e = g->ts + g->dur;
		}
		if (i > 0 && a <= de) {
			if (b > de)
				de = b;
		} else {
			if (i > 0)
				dt += de - ds;
			ds = a;
			de = b;
		}
	}
	if (in->nk > 0)
		dt += de - ds;
	in->busy_ns = total + (e - s);
	in->busy_us = dt;
}

/* The sheet a pass of an op goes to. */
static int
sheetof(const struct rl_op *o, int linked, int *moved)
{
	const int *fs = famsheet[o->fam];
	const char *n = o->m->name;

	*moved = 0;
	if (linked)
		return fs[1];
	if (fs[1] < 0 || !o->isbwd)
		return fs[0];
	if (rl_tracelens && strcmp(n, "flash_attn::_flash_attn_varlen_backward")
	    != 0 && strcmp(n, "aten::convolution_backward") != 0)
		return fs[0];	/* TraceLens leaves them in _fwd */
	*moved = 1;
	return fs[1];
}

static void
instances(void)
{
	size_t i, j, k0;
	int moved, sh, ta, tb;
	struct rl_op *o;

	rl_ninsts = 0;
	for (i = 0, j = 0; i < rl_nops; i++) {
		o = &rl_ops[i];
		k0 = j;
		while (j < nkps && kps[j].op == i && !kps[j].bwd)
			j++;
		if (o->fam == F_GEMM) {
			size_t k;

			for (k = k0; k < j; k++)
				if (transpose(tl_intern_str(rl_in,
				    rl_gpus[rl_kv[k]].name, NULL), &ta, &tb)
				    == 0) {
					struct rl_sparam *p;
					struct rl_res *r = &res;
					int v[2];

					o->transa = (int8_t)ta;
					o->transb = (int8_t)tb;
					rl_reset(r);
					v[0] = ta;
					v[1] = tb;
					rl_pbools(r, P_TRANSPOSE, 2, v);
					p = &rl_params[o->par0 + o->npar];
					p->key = P_TRANSPOSE;
					p->tuple = 1;
					p->none = 0;
					p->py = (uint32_t)rl_text.n;
					p->pyn = r->p[0].pyn;
					rl_sput(&rl_text, r->py.p, r->py.n);
					p->js = (uint32_t)rl_text.n;
					p->jsn = r->p[0].jsn;
					rl_sput(&rl_text, r->js.p, r->js.n);
					break;
				}
		}
		sh = sheetof(o, 0, &moved);
		addinst((uint32_t)i, sh, o->isbwd, 0, moved, k0, j - k0);
		k0 = j;
		while (j < nkps && kps[j].op == i)
			j++;
		if (wantsbwd(o))
			addinst((uint32_t)i, famsheet[o->fam][1], 1, 1,
			    0, k0, j - k0);
	}
	for (i = 0; i < rl_ninsts; i++)
		busy(&rl_insts[i]);
}

/* Writing the per-op rows. */

static void
putd(double v)
{
	if (v > -9007199254740992.0 && v < 9007199254740992.0 &&
	    v == (double)(int64_t)v)
		tl_out_i64(&out, (int64_t)v);
	else if (isfinite(v))
		tl_out_double(&out, v);
}

static void
writerows(void)
{
	const struct rl_inst *in;
	const struct rl_op *o;
	struct rl_sparam p[RL_MAXP + 1];
	double flop, bytes, t, peak, cu, mu, roof;
	char spec[32];
	int hasbytes, np, k;
	size_t i;

	for (i = 0; i < rl_ninsts; i++) {
		in = &rl_insts[i];
		if (pflag && in->linked)
			continue;	/* a row of its own only without -p */
		o = &rl_ops[in->op];
		flop = in->bwd && !o->isbwd ? o->flop_bwd : o->flop;
		bytes = in->bwd && !o->isbwd ? o->bytes_bwd : o->bytes;
		hasbytes = in->bwd && !o->isbwd ? o->hasbytes_bwd :
		    o->hasbytes;
		t = (double)in->busy_ns;
		tl_out_raw(&out, rl_lines.p + o->line, o->linelen);
		tl_out_char(&out, '\t');
		tl_out_cstr(&out, rl_sheetname[in->sheet]);
		tl_out_char(&out, '\t');
		tl_out_cstr(&out, o->fam != o->m->family ?
		    "aten_binary_elementwise" : rl_classname(o->m));
		tl_out_char(&out, '\t');
		tl_out_cstr(&out, in->bwd ? "bwd" : "fwd");
		tl_out_char(&out, '\t');
		tl_out_cstr(&out, in->linked ? "backward" : "self");
		tl_out_char(&out, '\t');
		np = rl_opparams(o, p, RL_MAXP + 1);
		tl_out_char(&out, '{');
		for (k = 0; k < np; k++) {
			if (k > 0)
				tl_out_char(&out, ',');
			tl_out_char(&out, '"');
			tl_out_cstr(&out, rl_paramname[p[k].key]);
			tl_out_raw(&out, "\":", 2);
			tl_out_field(&out, rl_text.p + p[k].js, p[k].jsn);
		}
		tl_out_char(&out, '}');
		tl_out_char(&out, '\t');
		putd(flop);
		tl_out_char(&out, '\t');
		if (hasbytes)
			putd(bytes);
		tl_out_char(&out, '\t');
		if (hasbytes && bytes > 0)
			putd(flop / bytes);
		tl_out_char(&out, '\t');
		tl_out_i64(&out, in->busy_ns);
		tl_out_char(&out, '\t');
		tl_out_i64(&out, in->nk);
		tl_out_char(&out, '\t');
		if (t > 0)
			putd(flop / t / 1e3);
		tl_out_char(&out, '\t');
		if (t > 0 && hasbytes)
			putd(bytes / t / 1e3);
		tl_out_char(&out, '\t');
		if (rl_spec(o, spec, sizeof spec) != NULL)
			tl_out_cstr(&out, spec);
		tl_out_char(&out, '\t');
		peak = rl_spec(o, spec, sizeof spec) != NULL ?
		    rl_arch_peak(rl_segarch, spec) : 0;
		if (rl_segarch != NULL)
			tl_out_cstr(&out, rl_segarch->name);
		tl_out_char(&out, '\t');
		if (peak > 0 && rl_segarch->mem_bw_gbps > 0 && hasbytes &&
		    flop > 0) {
			cu = flop / (peak * 1e3);
			mu = bytes / rl_segarch->mem_bw_gbps;
			roof = cu > mu ? cu : mu;
			putd(roof);
			tl_out_char(&out, '\t');
			tl_out_cstr(&out, cu >= mu ? "compute" : "memory");
			tl_out_char(&out, '\t');
			if (t > 0)
				putd(roof / t * 100);
		} else
			tl_out_raw(&out, "\t\t", 2);
		tl_out_char(&out, '\n');
	}
}

/* -p: a row without a perf row, as it came, and empty perf columns. */
static void
passrow(void)
{
	size_t i;

	tl_out_raw(&out, raw.p, raw.n);
	for (i = 0; outcol[i] != NULL; i++)
		tl_out_char(&out, '\t');
	tl_out_char(&out, '\n');
}

/* The end of a trace. */

static void
pickarch(void)
{
	rl_segarch = NULL;
	if (noarch)
		return;
	if (userarch != NULL) {
		rl_segarch = userarch;
		return;
	}
	if (tflag)
		return;		/* TraceLens needs --gpu_arch_* too */
	rl_arch_free(autoarch);
	autoarch = NULL;
	if (device == NULL) {
		tl_warnx("%s: no deviceProperties: no roofline (use -a)",
		    segname);
		return;
	}
	autoarch = rl_arch_bydevice(device);
	if (autoarch == NULL) {
		tl_warnx("%s: no arch file matches device \"%s\": no roofline "
		    "(use -a or -f)", segname, device);
		return;
	}
	tl_warnx("%s: arch %s, for device \"%s\" (%s)", segname,
	    autoarch->name, device, autoarch->path);
	rl_segarch = autoarch;
}

static void
report(void)
{
	uint32_t i, n;
	const char *s, *r;
	size_t l;

	if (whyin == NULL)
		return;
	n = tl_intern_count(whyin);
	for (i = 0; i < n; i++) {
		s = tl_intern_str(whyin, i, &l);
		r = s + strlen(s) + 1;
		if (strncmp(r, "perf_model", 10) == 0 ||
		    strstr(r, "_perf_model_extensions.") != NULL ||
		    strncmp(r, "Triton", 6) == 0)
			tl_warnx("%s: %" PRIu64 " \"%s\" op%s without a perf "
			    "row: TraceLens's model %s is not in tl-roofline",
			    segname, whyn[i], s, whyn[i] == 1 ? "" : "s", r);
		else
			tl_warnx("%s: %" PRIu64 " \"%s\" op%s without a perf "
			    "row: %s", segname, whyn[i], s,
			    whyn[i] == 1 ? "" : "s", r);
	}
	tl_intern_free(whyin);
	whyin = NULL;
	memset(whyn, 0, capwhy * sizeof *whyn);
}

static void
finish(void)
{
	if (rl_in == NULL)
		return;
	pickarch();
	linktree();
	instances();
	if (cflag)
		rl_write_csv(csvdir);
	if (sflag)
		rl_write_sheet(&out, sheet);
	else if (!cflag || pflag)
		writerows();
	report();
	rl_nops = ngpus = nnodes = nbp = nkps = nparams = nmetas = 0;
	nmemo = memowhy.n = 0;
	tl_intern_free(memoin);
	memoin = NULL;
	rl_ninsts = 0;
	rl_text.n = rl_lines.n = 0;
	free(device);
	device = NULL;
	tl_intern_free(rl_in);
	rl_in = NULL;
}

/* Check the header of a stream: the first one sets the columns. */
static void
header(struct tl_tsv *t)
{
	size_t i;

	if (!tl_hdr_same(&hdr, t))
		return;
	c_uid = tl_tsv_need(t, "uid");
	c_ph = tl_tsv_need(t, "ph");
	c_cat = tl_tsv_need(t, "cat");
	c_name = tl_tsv_need(t, "name");
	c_pid = tl_tsv_need(t, "pid");
	c_tid = tl_tsv_need(t, "tid");
	c_ts = tl_tsv_need(t, "ts_ns");
	c_dur = tl_tsv_need(t, "dur_ns");
	c_stream = tl_tsv_need(t, "stream");
	c_args = tl_tsv_need(t, "args");
	rl_c_dims = tl_tsv_need(t, "input_dims");
	rl_c_types = tl_tsv_need(t, "input_types");
	rl_c_strides = tl_tsv_need(t, "input_strides");
	rl_c_ci = tl_tsv_need(t, "concrete_inputs");
	if ((c_parent = tl_tsv_col(t, "parent")) < 0)
		tl_errx(1, "%s:1: missing required column \"parent\": not a "
		    "tree stream (run tl-tree first)", t->name);
	c_depth = tl_tsv_need(t, "depth");
	c_bwd = tl_tsv_need(t, "bwd_uids");
	if (!sflag && (!cflag || pflag))
		for (i = 0; outcol[i] != NULL; i++)
			if (tl_tsv_col(t, outcol[i]) >= 0)
				tl_errx(1, "%s:1: column \"%s\" is there "
				    "already: the input is a tl-roofline "
				    "table", t->name, outcol[i]);
	rl_ncol = t->ncol;
	if (sflag || (cflag && !pflag))
		return;
	for (i = 0; i < rl_ncol; i++) {
		if (i > 0)
			tl_out_char(&out, '\t');
		tl_out_raw(&out, hdr.col[i], strlen(hdr.col[i]));
	}
	for (i = 0; outcol[i] != NULL; i++) {
		tl_out_char(&out, '\t');
		tl_out_raw(&out, outcol[i], strlen(outcol[i]));
	}
	tl_out_char(&out, '\n');
	tl_out_flush(&out);
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "arch-file", required_argument, NULL, 'f' },
		{ "list-arch", no_argument, NULL, 'l' },
		{ "pass", no_argument, NULL, 'p' },
		{ "sheet", required_argument, NULL, 's' },
		{ "tracelens", no_argument, NULL, 't' },
		{ "tracelens-csv", required_argument, NULL, 'c' },
		TL_LIMIT_LONGOPT,
		{ NULL, 0, NULL, 0 }
	};
	struct tl_src *src;
	struct tl_tsv *t;
	int ch, status = 0, i, nops, r;

	tl_setprogname(argv[0]);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":a:c:f:lps:t", lopt, NULL)) !=
	    -1) {
		switch (ch) {
		case TL_LIMIT_OPT:
			tl_limit_set(optarg);
			break;
		case 'a':
			archname = optarg;
			break;
		case 'c':
			cflag = 1;
			csvdir = optarg;
			break;
		case 'f':
			archfile = optarg;
			break;
		case 'l':
			lflag = 1;
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
		default:	/* ':' or '?' */
			tl_badopt(ch, argv);
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (lflag && (archname != NULL || archfile != NULL || sflag ||
	    cflag || pflag || tflag || argc > 0))
		tl_errx(1, "-l takes no other option and no file");
	if (archname != NULL && archfile != NULL)
		tl_errx(1, "-a and -f exclude each other");
	if (sflag && cflag)
		tl_errx(1, "-s and -c exclude each other");
	if (sflag && pflag)
		tl_errx(1, "-s and -p exclude each other");
	if (sflag && (sheet = rl_sheet_byname(sheetname)) < 0) {
		fprintf(stderr, "%s: -s: no such sheet: \"%s\"; the sheets "
		    "are", tl_progname, sheetname);
		for (i = 0; i < NSHEET; i++)
			fprintf(stderr, " %s", rl_sheetname[i]);
		fprintf(stderr, "\n");
		exit(1);
	}
	rl_tracelens = tflag;
	tl_out_init(&out, 1, "<stdout>");
	if (lflag) {
		status = rl_arch_list(&out);
		tl_out_close(&out);
		return status;
	}
	if (archname != NULL) {
		if (strcmp(archname, "none") == 0)
			noarch = 1;
		else if ((userarch = rl_arch_byname(archname)) == NULL)
			tl_errx(1, "-a: no arch \"%s\" in %s/arch (see -l)",
			    archname, rl_sharedir());
	}
	if (archfile != NULL && (userarch = rl_arch_load(archfile)) == NULL)
		exit(1);
	if (cflag)
		rl_csvdir(csvdir);

	nops = argc > 0 ? argc : 1;
	for (i = 0; i < nops; i++) {
		src = tl_src_open(argc > 0 ? argv[i] : "-");
		if (src == NULL) {
			status = 1;
			continue;
		}
		while ((r = tl_src_next(src)) > 0) {
			t = tl_tsv_open(src);
			header(t);
			if (rl_in == NULL)
				startseg(t->name, strlen(t->name));
			while (tl_tsv_next(t)) {
				raw.n = 0;
				rl_sput(&raw, t->f[0], (size_t)(t->f[rl_ncol -
				    1] + t->fl[rl_ncol - 1] - t->f[0]));
				if (!row(t) && pflag)
					passrow();
			}
			tl_tsv_close(t);
		}
		if (r < 0)
			status = 1;
		tl_src_close(src);
	}
	finish();
	tl_out_close(&out);
	tl_hdr_free(&hdr);
	rl_arch_free(userarch);
	rl_arch_free(autoarch);
	free(rl_ops);
	free(rl_insts);
	free(rl_gpus);
	free(rl_kv);
	free(rl_params);
	free(rl_text.p);
	free(rl_lines.p);
	free(nodes);
	free(bp);
	free(fwdv);
	free(kps);
	free(segname);
	free(metas);
	free(whyn);
	free(htab);
	free(res.py.p);
	free(res.js.p);
	free(memo);
	free(memokey.p);
	free(memowhy.p);
	free(raw.p);
	free(tri.js.p);
	tl_json_free(&jd);
	return status;
}
