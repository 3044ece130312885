/*
 * tl-roofline: the rows of a trace read into its segment (seg.h): the
 * events of the tree, the ops with a model and the model's result for
 * each (kept for the ops with the same arguments), the metadata, and
 * the accessors of what was read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/intern.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/trace.h"
#include "roof.h"
#include "seg.h"

/* Scratch, for one row at a time. */
static struct rl_res res = { .py = RL_MEM, .js = RL_MEM };
static struct rl_args args;
static struct tl_jdoc jd;

const char *
rl_opname(const struct rl_op *o)
{
	return o->m->name;
}
const char *
rl_meta(const struct rl_seg *S, const struct rl_op *o, int kind)
{
	size_t i;

	for (i = S->nmetas; i-- > 0;)
		if (S->metas[i].kind == kind && S->metas[i].pid == o->pid &&
		    (kind != 2 || S->metas[i].tid == o->tid))
			return tl_intern_str(S->in, S->metas[i].val, NULL);
	return "Unknown";
}

const char *
rl_opfield(const struct rl_seg *S, const struct rl_op *o, int c,
    struct tl_out *buf)
{
	const char *p = S->lines.buf + o->line, *end = p + o->linelen, *tab;
	ptrdiff_t n;
	int i;

	for (i = 0, c = S->col[c]; i < c; i++) {
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
	tl_out_raw(buf, p, (size_t)(tab - p));
	tl_out_char(buf, '\0');
	n = tl_tsv_unescape(buf->buf, buf->buf, (size_t)(tab - p));
	if (n < 0)
		return NULL;
	buf->buf[n] = '\0';
	return buf->buf;
}

int
rl_opparams(const struct rl_seg *S, const struct rl_op *o,
    struct rl_param *p, int max)
{
	int n = o->npar;

	if (n > max)
		n = max;
	memcpy(p, S->params + o->par0, (size_t)n * sizeof *p);
	if (o->transa >= 0 && n < max) {
		p[n] = S->tpar[o->transa * 2 + o->transb];
		n++;
	}
	return n;
}

const char *
rl_spec(const struct rl_op *o, char *buf, size_t cap)
{
	size_t n, k = 7;

	if (o->prec == NULL)
		return NULL;
	/* "matrix_" or "vector_" and prec, cut to cap - 1 bytes (as
	 * snprintf would; every row of an op asks it, so not snprintf) */
	if (k > cap - 1)
		k = cap - 1;
	memcpy(buf, o->matrix ? "matrix_" : "vector_", k);
	n = strlen(o->prec);
	if (n > cap - 1 - k)
		n = cap - 1 - k;
	memcpy(buf + k, o->prec, n);
	buf[k + n] = '\0';
	return buf;
}

/* --limit events (tl(7)): the nodes and annotations of one trace held. */
static void
hold(struct rl_seg *S, struct tl_trace *tr)
{
	tl_trace_hold(tr->t, (uint64_t)S->nnodes + S->nanns);
}

uint32_t
rl_newnode(struct rl_seg *S, struct tl_trace *tr, int64_t puid)
{
	int64_t uid = tl_trace_uid(tr);

	hold(S, tr);
	xgrow(&S->nodes, &S->capnodes, S->nnodes + 1, sizeof *S->nodes);
	S->nodes[S->nnodes] = (struct rl_node){ .uid = uid, .puid = puid };
	return (uint32_t)S->nnodes++;
}

void
rl_why(struct rl_seg *S, const char *name, size_t namelen,
    const char *reason)
{
	char buf[256];
	uint32_t id;
	size_t old, k, r;

	/* the name cut to 120 bytes, NUL, the reason, cut to fit: as
	 * snprintf's "%.*s%c%s" would, by hand: every op without a
	 * perf row comes here */
	k = strnlen(name, namelen < 120 ? namelen : 120);
	memcpy(buf, name, k);
	buf[k] = '\0';
	if ((r = strlen(reason)) > sizeof buf - 2 - k)
		r = sizeof buf - 2 - k;
	memcpy(buf + k + 1, reason, r);
	id = tl_intern(S->whyin, buf, k + 1 + r);
	if (id >= S->capwhy) {
		old = S->capwhy;
		xgrow(&S->whyn, &S->capwhy, id + 1, sizeof *S->whyn);
		memset(S->whyn + old, 0, (S->capwhy - old) *
		    sizeof *S->whyn);
	}
	S->whyn[id]++;
}

/* Token j as a positive integer into *v: 1, else 0. */
static int
posint(const char *s, int j, int64_t *v)
{
	const jsmntok_t *t = &jd.tok[j];

	return t->type == JSMN_PRIMITIVE && tl_parse_i64(s + t->start,
	    (size_t)(t->end - t->start), v) == 0 && *v > 0;
}

/*
 * The pairs of positive ints in the list at token j, TraceLens's way: a
 * list of exactly two is one, else its lists are looked into. They go
 * to iv[*ni ...]; their count.
 */
static int
pairs(const char *s, int j, int64_t *iv, size_t *ni)
{
	int x, e, k = 0;

	if (jd.tok[j].type != JSMN_ARRAY)
		return 0;
	if (jd.tok[j].size == 2 && posint(s, j + 1, &iv[*ni]) &&
	    posint(s, j + 2, &iv[*ni + 1])) {
		*ni += 2;
		return 1;
	}
	e = tl_jskip(&jd, j);
	for (x = j + 1; x < e; x = tl_jskip(&jd, x))
		k += pairs(s, x, iv, ni);
	return k;
}

/*
 * Parse a JSON list column into shapes: dims (k 0) or strides (k 1),
 * setting *has when the row has the column.
 */
static int
jshapes(const char *s, size_t n, int k, struct rl_shape **v, int *nv,
    int *has)
{
	static struct rl_shape *shapes[2];
	static size_t capshapes[2];
	static int64_t *ints[2];
	static size_t capints[2];
	size_t ni = 0;
	int i, j, e, m, x;
	struct rl_shape *sv;
	int64_t *iv;

	if (s == NULL)
		return 0;
	if (tl_json_parse(&jd, s, n) < 0 || jd.tok[0].type != JSMN_ARRAY)
		return -1;
	m = jd.tok[0].size;
	xgrow(&shapes[k], &capshapes[k], (size_t)m + 1, sizeof *shapes[k]);
	xgrow(&ints[k], &capints[k], (size_t)jd.ntok + 1, sizeof *ints[k]);
	sv = shapes[k];
	iv = ints[k];
	for (i = 0, j = 1; i < m; i++, j = e) {
		jsmntok_t *t = &jd.tok[j];

		e = tl_jskip(&jd, j);
		sv[i].n = 0;
		sv[i].npair = 0;
		sv[i].flat = 0;
		sv[i].v = iv + ni;
		sv[i].null = t->type == JSMN_PRIMITIVE && s[t->start] == 'n';
		if (t->type != JSMN_ARRAY)
			continue;
		sv[i].flat = 1;
		for (x = j + 1; x < e; x++) {
			jsmntok_t *u = &jd.tok[x];
			size_t l = (size_t)(u->end - u->start);

			if (u->type != JSMN_PRIMITIVE ||
			    tl_parse_i64(s + u->start, l, &iv[ni]) != 0) {
				sv[i].flat = 0;
				break;
			}
			ni++;
			sv[i].n++;
		}
		if (!sv[i].flat) {
			/* a nested list: the pairs of ints in it */
			ni = (size_t)(sv[i].v - iv);
			sv[i].n = 0;
			sv[i].npair = pairs(s, j, iv, &ni);
		}
	}
	*v = sv;
	*nv = m;
	*has = 1;
	return 0;
}

/*
 * Parse a JSON list of strings: types (k 0) or concrete inputs (k 1).
 * An entry that is not a JSON string is its JSON text; *isstr (when not
 * NULL) tells which are strings.
 */
static int
jstrings(const char *s, size_t n, int k, const char ***v, int *nv,
    int *has, const unsigned char **isstr)
{
	static char *bufs[2];
	static size_t capbufs[2];
	static const char **strs[2];
	static size_t capstrs[2];
	static unsigned char *kinds[2];
	static size_t capkinds[2];
	size_t o = 0;
	int i, j, m;
	char *buf;

	if (s == NULL || (n == 4 && memcmp(s, "null", 4) == 0))
		return 0;	/* none, or null: none */
	if (tl_json_parse(&jd, s, n) < 0 || jd.tok[0].type != JSMN_ARRAY)
		return -1;
	m = jd.tok[0].size;
	xgrow(&strs[k], &capstrs[k], (size_t)m + 1, sizeof *strs[k]);
	xgrow(&bufs[k], &capbufs[k], n + (size_t)m + 1, 1);
	xgrow(&kinds[k], &capkinds[k], (size_t)m + 1, 1);
	buf = bufs[k];
	for (i = 0, j = 1; i < m; i++, j = tl_jskip(&jd, j)) {
		strs[k][i] = buf + o;
		kinds[k][i] = jd.tok[j].type == JSMN_STRING;
		o += rl_jtext(&jd, j, buf + o) + 1;
	}
	if (isstr != NULL)
		*isstr = kinds[k];
	*v = strs[k];
	*nv = m;
	*has = 1;
	return 0;
}

/* The args of an op from the texts of its columns (NULL: empty). */
static const char *
readargs(const char *const *f, const size_t *n, const char *name,
    struct rl_args *a)
{
	memset(a, 0, sizeof *a);
	a->name = name;
	if (jshapes(f[0], n[0], 0, &a->dims, &a->ndims, &a->hasdims) < 0)
		return "input_dims is not a JSON list";
	if (jshapes(f[1], n[1], 1, &a->strides, &a->nstrides,
	    &a->hasstrides) < 0)
		return "input_strides is not a JSON list";
	if (jstrings(f[2], n[2], 0, &a->types, &a->ntypes, &a->hastypes,
	    NULL) < 0)
		return "input_types is not a JSON list";
	if (jstrings(f[3], n[3], 1, &a->ci, &a->nci, &a->hasci,
	    &a->cistr) < 0)
		return "concrete_inputs is not a JSON list";
	a->args = f[4];
	a->argslen = n[4];
	return NULL;
}

static const int argcols[5] = {
	TL_C_DIMS, TL_C_STRIDES, TL_C_TYPES, TL_C_CONCRETE, TL_C_ARGS
};

const char *
rl_readargs(struct tl_trace *tr, const char *name, struct rl_args *a)
{
	const char *f[5], *w;
	size_t n[5];
	int i;

	for (i = 0; i < 5; i++)
		f[i] = tl_trace_str(tr, argcols[i], &n[i]);
	if ((w = readargs(f, n, name, a)) == NULL)
		a->hasseq = tl_trace_i64(tr, TL_C_SEQ, &a->seq);
	return w;
}

void
rl_roof(const struct rl_seg *S, const struct rl_inst *in, struct rl_roof *r)
{
	const struct rl_op *o = &S->ops[in->op];
	int b = in->linked;
	double peak, cu, mu;

	r->flop = b ? o->flop_bwd : o->flop;
	r->bytes = b ? o->bytes_bwd : o->bytes;
	r->hasbytes = b ? o->hasbytes_bwd : o->hasbytes;
	r->spec = rl_spec(o, r->specbuf, sizeof r->specbuf);
	peak = r->spec != NULL ? rl_arch_peak(S->arch, r->spec) : 0;
	r->roof = NAN;
	r->bound = NULL;
	if (peak > 0 && S->arch->mem_bw_gbps > 0 && r->hasbytes &&
	    r->flop > 0) {
		cu = r->flop / (peak * 1e3);
		mu = r->bytes / S->arch->mem_bw_gbps;
		r->roof = cu > mu ? cu : mu;
		r->bound = cu >= mu ? "compute" : "memory";
	}
}

/* A field of a column the stream has, as it is, interned. */
static uint32_t
internraw(struct rl_seg *S, struct tl_trace *tr, int c)
{
	return tl_intern(S->in, tr->t->f[tr->col[c]], tr->t->fl[tr->col[c]]);
}

/*
 * Ops recur with the same arguments (a layer run again and again): the
 * model's result for the first is kept, keyed by the model and the text
 * of the four argument columns, and the others take it without parsing
 * or computing anything. For a key, the op that has its result, or the
 * reason it has none (in memowhy).
 */
static uint32_t
memofind(struct rl_seg *S, struct tl_trace *tr, const struct rl_model *m)
{
	static const int cols[] = { TL_C_DIMS, TL_C_STRIDES, TL_C_TYPES,
	    TL_C_CONCRETE };
	static struct tl_out key = RL_MEM;
	size_t i;

	int need = rl_needs(m->cls);

	key.n = 0;
	tl_out_raw(&key, (const char *)&m, sizeof m);
	for (i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		tl_out_char(&key, '\t');
		tl_out_raw(&key, tr->t->f[tr->col[cols[i]]],
		    tr->t->fl[tr->col[cols[i]]]);
	}
	for (i = 0; i < 2; i++)
		if (need & (i == 0 ? RL_NEED_ARGS : RL_NEED_SEQ)) {
			int c = i == 0 ? TL_C_ARGS : TL_C_SEQ;

			tl_out_char(&key, '\t');
			if (tr->col[c] >= 0)
				tl_out_raw(&key, tr->t->f[tr->col[c]],
				    tr->t->fl[tr->col[c]]);
		}
	return tl_intern(S->memoin, key.buf, key.n);
}

void
rl_saveparam(struct rl_seg *S, struct rl_param *p, const struct rl_res *r,
    int i)
{
	const struct rl_param *q = &r->p[i];
	int last = i + 1 == r->np;

	*p = *q;
	p->pyn = (uint32_t)((last ? r->py.n : q[1].py) - q->py);
	p->jsn = (uint32_t)((last ? r->js.n : q[1].js) - q->js);
	p->py = (uint32_t)S->text.n;
	tl_out_raw(&S->text, r->py.buf + q->py, p->pyn);
	p->js = (uint32_t)S->text.n;
	tl_out_raw(&S->text, r->js.buf + q->js, p->jsn);
}

/* Op o is made of model m's result, res, and its parameters. */
static void
result(struct rl_seg *S, struct rl_op *o, const struct rl_model *m,
    const struct rl_res *r)
{
	int i;

	*o = (struct rl_op){ .m = m, .flop = r->flop, .bytes = r->bytes,
	    .flop_bwd = r->flop_bwd, .bytes_bwd = r->bytes_bwd,
	    .prec = r->prec, .par0 = (uint32_t)S->nparams,
	    .npar = (uint8_t)r->np, .hasbytes = (uint8_t)r->hasbytes,
	    .hasbwd = (uint8_t)r->hasbwd,
	    .hasbytes_bwd = (uint8_t)r->hasbytes_bwd,
	    .isbwd = (uint8_t)r->isbwd, .matrix = (uint8_t)r->matrix,
	    .fam = (uint8_t)(r->family >= 0 ? r->family : m->family) };
	xgrow(&S->params, &S->capparams, S->nparams + (size_t)r->np,
	    sizeof *S->params);
	for (i = 0; i < r->np; i++)
		rl_saveparam(S, &S->params[S->nparams++], r, i);
}

/* The key of a kept forward: its pair of classes and its seq. */
static uint32_t
fwdkey(struct rl_seg *S, const struct rl_model *m, int64_t seq, int add)
{
	char k[32];
	int n = snprintf(k, sizeof k, "%d %lld", rl_fwdpair(m->cls),
	    (long long)seq);

	return add ? tl_intern(S->fwdin, k, (size_t)n) :
	    tl_intern_find(S->fwdin, k, (size_t)n);
}

/*
 * A forward op whose backward op reads its arguments (ConvBias_): keep
 * the texts of its argument lists under its seq; a later forward with
 * the same seq takes its place, as in TraceLens's cache.
 */
static void
keepfwd(struct rl_seg *S, struct tl_trace *tr, const struct rl_model *m,
    int64_t seq)
{
	uint32_t id = fwdkey(S, m, seq, 1);
	const char *f;
	size_t n;
	int k;

	xgrow(&S->fwdtext, &S->capfwd, id + 1, sizeof *S->fwdtext);
	S->fwdtext[id] = S->fwdtexts.n;
	for (k = 0; k < 4; k++) {
		f = tl_trace_raw(tr, argcols[k], &n);
		tl_out_raw(&S->fwdtexts, f != NULL ? f : "", n);
		tl_out_char(&S->fwdtexts, '\t');
	}
}

/* The texts of a kept forward's argument lists, unescaped. */
static struct tl_out fwdt[4] = { RL_MEM, RL_MEM, RL_MEM, RL_MEM };

/* The args of the forward op kept under seq into args, or why not. */
static const char *
fwdargs(struct rl_seg *S, const struct rl_model *m, int64_t seq)
{
	struct tl_out *t = fwdt;
	const char *f[5] = { NULL }, *p, *e;
	size_t n[5] = { 0 };
	uint32_t id;
	ssize_t l;
	int k;

	if (seq == INT64_MIN || (id = fwdkey(S, m, seq, 0)) == UINT32_MAX)
		return "no forward op with its sequence number";
	p = S->fwdtexts.buf + S->fwdtext[id];
	for (k = 0; k < 4; k++, p = e + 1) {
		e = strchr(p, '\t');
		t[k].n = 0;
		tl_out_raw(&t[k], p, (size_t)(e - p));
		tl_out_char(&t[k], '\0');
		l = tl_tsv_unescape(t[k].buf, t[k].buf, (size_t)(e - p));
		if (l > 0) {
			t[k].buf[l] = '\0';
			f[k] = t[k].buf;
			n[k] = (size_t)l;
		}
	}
	return readargs(f, n, m->name, &args);
}

int
rl_newop(struct rl_seg *S, struct tl_trace *tr, const struct rl_model *m,
    uint32_t node, const char *line, size_t linelen)
{
	struct rl_op *o;
	const struct rl_op *first;
	const char *w;
	uint32_t id;
	size_t n;
	int64_t seq = INT64_MIN;
	int need;

	need = rl_needs(m->cls);
	if ((need & (RL_KEEP_FWD | RL_NEED_FWD)) && !tl_trace_i64(tr,
	    TL_C_SEQ, &seq))
		seq = INT64_MIN;	/* nothing to find it by */
	if ((need & RL_KEEP_FWD) && seq != INT64_MIN)
		keepfwd(S, tr, m, seq);
	if (need & RL_NEED_FWD) {
		if ((w = fwdargs(S, m, seq)) == NULL &&
		    rl_compute(m, &args, &res) < 0)
			w = res.why;
		if (w != NULL) {
			rl_why(S, m->name, strlen(m->name), w);
			return 0;
		}
		xgrow(&S->ops, &S->capops, S->nops + 1, sizeof *S->ops);
		o = &S->ops[S->nops];
		result(S, o, m, &res);
		goto common;
	}
	if (need & (RL_NEED_ANNOT | RL_NEED_KERNEL)) {
		/* computed at the end of the trace, with its annotation or
		 * its kernels */
		xgrow(&S->ops, &S->capops, S->nops + 1, sizeof *S->ops);
		o = &S->ops[S->nops];
		*o = (struct rl_op){ .m = m, .fam = (uint8_t)m->family,
		    .pending = 1 };
		goto common;
	}
	id = memofind(S, tr, m);
	if (id < S->nmemo) {
		if (S->memo[id].op < 0) {
			rl_why(S, m->name, strlen(m->name), S->memowhy.buf +
			    S->memo[id].why);
			return 0;
		}
		/* the first's params too: no op changes its own */
		xgrow(&S->ops, &S->capops, S->nops + 1, sizeof *S->ops);
		first = &S->ops[S->memo[id].op];
		o = &S->ops[S->nops];
		*o = *first;
	} else {
		xgrow(&S->memo, &S->capmemo, S->nmemo + 1, sizeof *S->memo);
		S->memo[S->nmemo].op = -1;
		S->nmemo++;
		w = rl_readargs(tr, m->name, &args);
		if (w == NULL && rl_compute(m, &args, &res) < 0)
			w = res.why;
		if (w != NULL) {
			S->memo[id].why = S->memowhy.n;
			tl_out_raw(&S->memowhy, w, strlen(w) + 1);
			rl_why(S, m->name, strlen(m->name), w);
			return 0;
		}
		S->memo[id].op = (int64_t)S->nops;
		xgrow(&S->ops, &S->capops, S->nops + 1, sizeof *S->ops);
		o = &S->ops[S->nops];
		result(S, o, m, &res);
	}
common:
	o->uid = S->nodes[node].uid;
	o->node = node;
	o->pid = internraw(S, tr, TL_C_PID);
	o->tid = internraw(S, tr, TL_C_TID);
	o->line = S->lines.n;
	o->linelen = linelen;
	o->transa = o->transb = -1;
	o->bwdlinked = tl_trace_raw(tr, TL_C_BWD, &n) != NULL;
	o->lastg = 0;
	tl_out_raw(&S->lines, line, linelen);
	S->nodes[node].op = (uint32_t)S->nops + 1;
	S->nops++;
	return 1;
}

void
rl_addann(struct rl_seg *S, struct tl_trace *tr)
{
	struct rl_ann *an;
	const char *s;
	int64_t ts, dur;
	size_t n;

	if (!tl_trace_i64(tr, TL_C_TS, &ts) || !tl_trace_i64(tr, TL_C_DUR,
	    &dur) || (s = tl_trace_str(tr, TL_C_NAME, &n)) == NULL)
		return;
	hold(S, tr);
	xgrow(&S->anns, &S->capanns, S->nanns + 1, sizeof *S->anns);
	an = &S->anns[S->nanns++];
	an->ts = ts;
	an->end = ts + dur;
	an->name = tl_intern(S->in, s, n);
}

static int
cmpann(const void *a, const void *b)
{
	const struct rl_ann *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Field c of op o as an integer, or 0. */
static int64_t
opint(const struct rl_seg *S, const struct rl_op *o, int c,
    struct tl_out *buf)
{
	const char *f = rl_opfield(S, o, c, buf);
	int64_t v;

	return f != NULL && tl_parse_i64(f, strlen(f), &v) == 0 ? v : 0;
}

void
rl_pending(struct rl_seg *S)
{
	static struct tl_out buf[5] = { RL_MEM, RL_MEM, RL_MEM, RL_MEM,
	    RL_MEM };
	const char *f[5], *w;
	size_t n[5], i, j, kp;
	struct rl_op *o, keep;
	int64_t ts, end;
	int k;

	if (S->nanns > 1)
		qsort(S->anns, S->nanns, sizeof *S->anns, cmpann);
	for (i = 0, kp = 0; i < S->nops; i++) {
		o = &S->ops[i];
		if (!o->pending)
			continue;
		for (k = 0; k < 5; k++) {
			f[k] = rl_opfield(S, o, argcols[k], &buf[k]);
			n[k] = f[k] != NULL ? strlen(f[k]) : 0;
		}
		w = readargs(f, n, o->m->name, &args);
		/* its first kernel (they are in op, pass, ts order) */
		while (kp < S->nkps && S->kps[kp].op < i)
			kp++;
		if (kp < S->nkps && S->kps[kp].op == i && !S->kps[kp].bwd)
			args.kernel = tl_intern_str(S->in,
			    S->gpus[S->kps[kp].gpu].name, NULL);
		ts = opint(S, o, TL_C_TS, &buf[0]);
		end = ts + opint(S, o, TL_C_DUR, &buf[0]);
		/* the first annotation (by ts) around it, TraceLens's way */
		for (j = 0; j < S->nanns && S->anns[j].ts <= ts; j++)
			if (end < S->anns[j].end) {
				args.annot = tl_intern_str(S->in,
				    S->anns[j].name, NULL);
				break;
			}
		if (w == NULL && rl_compute(o->m, &args, &res) < 0)
			w = res.why;
		if (w != NULL) {
			rl_why(S, o->m->name, strlen(o->m->name), w);
			o->dead = 1;
			S->nodes[o->node].op = 0;
			continue;
		}
		keep = *o;
		result(S, o, o->m, &res);
		o->uid = keep.uid;
		o->node = keep.node;
		o->pid = keep.pid;
		o->tid = keep.tid;
		o->line = keep.line;
		o->linelen = keep.linelen;
		o->transa = o->transb = -1;
		o->bwdlinked = keep.bwdlinked;
	}
	for (k = 0; k < 5; k++) {
		free(buf[k].buf);
		buf[k] = (struct tl_out)RL_MEM;
	}
}

/*
 * The value of key in the JSON object of field c (in the first object
 * of an array of them with inarray, and a string only), unescaped, as a
 * new string of length *l; NULL when it has none.
 */
static char *
jsonkey(struct tl_trace *tr, int c, int inarray, const char *key, size_t *l)
{
	const char *s;
	size_t n;
	int i, end;
	jsmntok_t *v;
	char *r;

	if ((s = tl_trace_str(tr, c, &n)) == NULL ||
	    tl_json_parse(&jd, s, n) < 0 || jd.tok[0].type != (inarray ?
	    JSMN_ARRAY : JSMN_OBJECT) || (inarray && (jd.tok[0].size < 1 ||
	    jd.tok[1].type != JSMN_OBJECT)))
		return NULL;
	end = tl_jskip(&jd, inarray);
	for (i = inarray + 1; i < end; i = tl_jskip(&jd, i + 1)) {
		v = &jd.tok[i + 1];
		if (!tl_jeq(&jd, i, key) || (inarray && v->type !=
		    JSMN_STRING))
			continue;
		r = xmalloc((size_t)(v->end - v->start) + 1);
		*l = rl_jtext(&jd, i + 1, r);
		return r;
	}
	return NULL;
}

void
rl_devprops(struct rl_seg *S, struct tl_trace *tr)
{
	size_t l;
	char *d = jsonkey(tr, TL_C_ARGS, 1, "name", &l);

	if (d != NULL) {
		free(S->device);
		S->device = d;
	}
}

void
rl_metarow(struct rl_seg *S, struct tl_trace *tr)
{
	static const char *const what[][2] = {
		{ "process_name", "name" }, { "process_labels", "labels" },
		{ "thread_name", "name" }
	};
	const char *f;
	struct rl_meta *m;
	size_t n, l;
	int k;
	char *v;

	f = tl_trace_raw(tr, TL_C_NAME, &n);
	for (k = 0; k < 3; k++)
		if (n == strlen(what[k][0]) && memcmp(f, what[k][0], n) == 0)
			break;
	if (k == 3)
		return;
	xgrow(&S->metas, &S->capmetas, S->nmetas + 1, sizeof *S->metas);
	m = &S->metas[S->nmetas];
	m->kind = (uint8_t)k;
	m->pid = internraw(S, tr, TL_C_PID);
	m->tid = internraw(S, tr, TL_C_TID);
	if ((v = jsonkey(tr, TL_C_ARGS, 0, what[k][1], &l)) == NULL)
		return;
	m->val = tl_intern(S->in, v, l);
	free(v);
	S->nmetas++;
}

void
rl_addgpu(struct rl_seg *S, struct tl_trace *tr, uint32_t nd)
{
	struct rl_gpu *g;
	const char *s;
	size_t n;

	xgrow(&S->gpus, &S->capgpus, S->ngpus + 1, sizeof *S->gpus);
	g = &S->gpus[S->ngpus];
	g->uid = S->nodes[nd].uid;
	if (!tl_trace_i64(tr, TL_C_TS, &g->ts))
		g->ts = 0;
	if (!tl_trace_i64(tr, TL_C_DUR, &g->dur) || g->dur < 0)
		g->dur = 0;
	s = tl_trace_str(tr, TL_C_NAME, &n);
	g->name = tl_intern(S->in, s != NULL ? s : "", n);
	s = tl_trace_str(tr, TL_C_STREAM, &n);
	g->stream = s != NULL ? tl_intern(S->in, s, n) : RL_NONE;
	S->nodes[nd].gpu = (uint32_t)++S->ngpus;
}

void
rl_addbwd(struct rl_seg *S, struct tl_trace *tr, uint32_t nd)
{
	const char *p, *e, *c;
	size_t n;

	if ((p = tl_trace_raw(tr, TL_C_BWD, &n)) == NULL)
		return;
	for (e = p + n; p <= e; p = c + 1) {
		if ((c = memchr(p, ',', (size_t)(e - p))) == NULL)
			c = e;
		xgrow(&S->bp, &S->capbp, S->nbp + 1, sizeof *S->bp);
		if (tl_parse_i64(p, (size_t)(c - p), &S->bp[S->nbp].uid) != 0)
			tl_tsv_errx(tr->t, "column \"bwd_uids\": not a list of "
			    "integers");
		S->bp[S->nbp++].fwd = nd;
	}
}

struct rl_seg *
rl_seg_new(const int *col)
{
	struct rl_seg *S = xcalloc(1, sizeof *S);

	S->col = col;
	S->text = S->lines = S->memowhy = (struct tl_out)RL_MEM;
	S->in = tl_intern_new();
	S->whyin = tl_intern_new();
	S->memoin = tl_intern_new();
	S->fwdin = tl_intern_new();
	S->fwdtexts = (struct tl_out)RL_MEM;
	return S;
}

void
rl_seg_free(struct rl_seg *S)
{
	if (S == NULL)
		return;
	free(S->device);
	rl_arch_free(S->autoarch);
	tl_intern_free(S->in);
	free(S->ops);
	free(S->insts);
	free(S->gpus);
	free(S->kv);
	free(S->params);
	free(S->text.buf);
	free(S->lines.buf);
	free(S->nodes);
	free(S->bp);
	free(S->fwdv);
	free(S->fwdof);
	free(S->kps);
	free(S->htab);
	free(S->metas);
	free(S->anns);
	tl_intern_free(S->fwdin);
	free(S->fwdtext);
	free(S->fwdtexts.buf);
	tl_intern_free(S->whyin);
	free(S->whyn);
	tl_intern_free(S->memoin);
	free(S->memo);
	free(S->memowhy.buf);
	free(S);
}

void
rl_read_end(void)
{
	int k;

	for (k = 0; k < 4; k++)
		free(fwdt[k].buf);
	free(res.py.buf);
	free(res.js.buf);
	tl_json_free(&jd);
}
