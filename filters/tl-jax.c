/*
 * tl-jax: TraceLens's JAX perf report (generate_perf_report_jax) from the
 * event stream tl-parse writes of an XPlane profile: the GPU timeline, the
 * kernel launchers and their summaries, the XLA fusion tables, and the
 * op_<category> perf-model sheets, as CSV files the way TraceLens writes
 * them. By default it corrects the errors TraceLens makes; -T
 * reproduces them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* memmem, strcasestr */
#endif
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/csv.h"
#include "../common/err.h"
#include "../common/file.h"
#include "../common/intern.h"
#include "../common/json.h"
#include "../common/mem.h"
#include "../common/npsort.h"
#include "../common/opt.h"
#include "../common/pyfmt.h"
#include "../common/stats.h"
#include "../common/trace.h"
#include "../common/tsv.h"

static const char usage[] = "usage: tl-jax [-T] [-k keyword[,keyword...]] "
    "(-C dir | -s sheet) [stream]\n";

#define NONE	UINT32_MAX

struct ev {
	int64_t uid, tsns, durns, corr, devid, rawcorr;
	double ts, dur;			/* us */
	int pid;
	int64_t tid;
	uint32_t name, hloop, ops, meta, cct, out, bcfg;
	int hascorr, hasdev, kind;	/* kind: TL_K_* */
	int parent;			/* index, -1 */
};

static struct ev *E;
static size_t nE, capE;
static struct tl_intern *in;
static int tflag;
static char **kw;
static size_t nkw;

/* Process and thread names. */
struct pname {
	int pid;
	int64_t tid;
	int thread;
	uint32_t name;
	size_t pad;		/* its place, for a stable sort */
};
static struct pname *names;
static size_t nnames, capnames, nproc;

static struct tl_jdoc doc;
static char *dec;
static size_t capdec;

static const char *
S(uint32_t id, size_t *n)
{
	static size_t dummy;

	if (n == NULL)
		n = &dummy;
	if (id == NONE) {
		*n = 0;
		return "";
	}
	return tl_intern_str(in, id, n);
}

/* A JSON string token of doc, decoded and interned. */
static uint32_t
jstr(int i)
{
	const jsmntok_t *t = &doc.tok[i];
	size_t n = (size_t)(t->end - t->start);

	if (t->type != JSMN_STRING)
		return tl_intern(in, doc.js + t->start, n);
	xgrow(&dec, &capdec, n + 1, 1);
	n = tl_junescape(dec, doc.js + t->start, n, NULL);
	return tl_intern(in, dec, n);
}

static void
args(struct ev *e, const char *s, size_t n, int meta)
{
	int i, k, v;

	if (s == NULL || tl_json_parse(&doc, s, n) < 0 ||
	    doc.tok[0].type != JSMN_OBJECT)
		return;
	for (i = 1, k = 0; k < doc.tok[0].size; k++) {
		v = i + 1;
		if (meta) {
			if (tl_jeq(&doc, i, "name"))
				e->name = jstr(v);
		} else if (tl_jeq(&doc, i, "hlo_op"))
			e->hloop = jstr(v);
		else if (tl_jeq(&doc, i, "correlation_id") &&
		    doc.tok[v].type == JSMN_PRIMITIVE)
			e->rawcorr = strtoll(doc.js + doc.tok[v].start, NULL,
			    10);
		else if (tl_jeq(&doc, i, "device_id") &&
		    doc.tok[v].type == JSMN_PRIMITIVE) {
			e->devid = strtoll(doc.js + doc.tok[v].start, NULL, 10);
			e->hasdev = 1;
		} else if (tl_jeq(&doc, i, "hlo_metadata"))
			e->meta = jstr(v);
		else if (tl_jeq(&doc, i, "hlo_custom_call_target"))
			e->cct = jstr(v);
		else if (tl_jeq(&doc, i, "hlo_backend_config"))
			e->bcfg = jstr(v);
		else if (tl_jeq(&doc, i, "hlo_output"))
			e->out = jstr(v);
		else if (tl_jeq(&doc, i, "hlo_operands") &&
		    doc.tok[v].type == JSMN_ARRAY) {
			/* The list, as its repr: ['a', 'b'] */
			struct tl_out o;
			int j, w;

			tl_out_init(&o, -1, "(operands)");
			tl_out_pyjson(&o, doc.js + doc.tok[v].start,
			    (size_t)(doc.tok[v].end - doc.tok[v].start), 0);
			e->ops = tl_intern(in, o.buf, o.n);
			free(o.buf);
			(void)j;
			(void)w;
		}
		i = tl_jskip(&doc, v);
	}
}

static int gpupid(int);
static int namecmp(const void *, const void *);
static int nameposcmp(const void *, const void *);
static int namesorted, gpucache = -1, gpucached;

static void
load(int argc, char **argv)
{
	struct tl_trace *tr;
	int r;
	size_t n;
	const char *s;

	tr = tl_trace_open(argc, argv, TL_S_EVENT, TL_COL(TL_C_PID) |
	    TL_COL(TL_C_TID) | TL_COL(TL_C_TS) | TL_COL(TL_C_DUR) |
	    TL_COL(TL_C_PH), TL_COL(TL_C_CORR) | TL_COL(TL_C_ARGS));
	while (tl_trace_next(tr)) {
		if (tr->ntrace > 1)
			tl_errx(1, "%s: one trace at a time", tr->name);
		while ((r = tl_trace_row(tr)) != TL_ROW_END) {
			struct ev e;
			int64_t v;

			if (r != TL_ROW_EVENT)
				continue;
			memset(&e, 0, sizeof e);
			e.uid = tl_trace_uid(tr);
			e.parent = -1;
			e.name = e.hloop = e.ops = e.meta = e.cct = e.out =
			    e.bcfg = NONE;
			s = tl_trace_str(tr, TL_C_PH, &n);
			if (tl_trace_i64(tr, TL_C_PID, &v))
				e.pid = (int)v;
			if (tl_trace_i64(tr, TL_C_TID, &v))
				e.tid = v;
			if (s != NULL && n == 1 && s[0] == 'M') {
				struct pname *p;
				const char *nm = tl_trace_str(tr, TL_C_NAME, &n);
				int th = nm != NULL && n == 11 &&
				    memcmp(nm, "thread_name", 11) == 0;

				if (nm == NULL || (!th && (n != 12 ||
				    memcmp(nm, "process_name", 12) != 0)))
					continue;
				s = tl_trace_str(tr, TL_C_ARGS, &n);
				args(&e, s, n, 1);
				if (e.name == NONE)
					continue;
				xgrow(&names, &capnames, nnames + 1,
				    sizeof *names);
				p = &names[nnames++];
				p->pid = e.pid;
				p->tid = th ? e.tid : 0;
				p->thread = th;
				p->name = e.name;
				if (!th) {
					nproc++;
					gpucache = -1;
				}
				continue;
			}
			if (e.uid < 0)
				continue;
			/* Only GPU events, and host events that may launch. */
			if (tr->col[TL_C_CORR] >= 0 &&
			    tr->t->fl[tr->col[TL_C_CORR]] == 0 &&
			    !gpupid(e.pid))
				continue;
			s = tl_trace_str(tr, TL_C_NAME, &n);
			e.name = tl_intern(in, s ? s : "", n);
			e.kind = tr->kind;
			tl_trace_i64(tr, TL_C_TS, &e.tsns);
			tl_trace_i64(tr, TL_C_DUR, &e.durns);
			e.ts = (double)e.tsns / 1e3;
			e.dur = (double)e.durns / 1e3;
			if (tl_trace_i64(tr, TL_C_CORR, &e.corr))
				e.hascorr = 1;
			e.rawcorr = e.corr;
			s = tl_trace_str(tr, TL_C_ARGS, &n);
			args(&e, s, n, 0);
			/* TraceLens links by the profile's own id, which may
			 * repeat across GPUs; tl-parse's column is unique. */
			if (tflag)
				e.corr = e.rawcorr;
			xgrow(&E, &capE, nE + 1, sizeof *E);
			E[nE++] = e;
		}
	}
	if (tr->status)
		exit(1);
	tl_trace_close(tr);
	if (nE > 0 && nE < capE) {	/* give the slack back */
		E = xreallocarray(E, nE, sizeof *E);
		capE = nE;
	}
	/* The last name of a process or thread wins: stable sort, keep the
	 * last of equal keys. */
	{
		size_t i, k;

		for (i = 0; i < nnames; i++)
			names[i].pad = i;
		qsort(names, nnames, sizeof *names, nameposcmp);
		for (i = k = 0; i < nnames; i++) {
			if (k > 0 && namecmp(&names[k - 1], &names[i]) == 0)
				names[k - 1] = names[i];
			else
				names[k++] = names[i];
		}
		nnames = k;
		namesorted = 1;
	}
}

/* Names sorted: processes (thread 0) first, by pid and tid. */

static int
namecmp(const void *a, const void *b)
{
	const struct pname *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int
nameposcmp(const void *a, const void *b)
{
	const struct pname *x = a, *y = b;
	int c = namecmp(a, b);

	return c != 0 ? c : x->pad < y->pad ? -1 : x->pad > y->pad;
}

static uint32_t
findname(int thread, int pid, int64_t tid)
{
	struct pname key, *hit;
	size_t i;

	if (!namesorted) {	/* while loading: the processes, few */
		for (i = nnames; i-- > 0;)
			if (names[i].thread == thread && names[i].pid == pid &&
			    (!thread || names[i].tid == tid))
				return names[i].name;
		return NONE;
	}
	key.thread = thread;
	key.pid = pid;
	key.tid = thread ? tid : 0;
	hit = bsearch(&key, names, nnames, sizeof *names, namecmp);
	return hit != NULL ? hit->name : NONE;
}

static uint32_t
procname(int pid)
{
	return findname(0, pid, 0);
}

static uint32_t
threadname(int pid, int64_t tid)
{
	return findname(1, pid, tid);
}


static int
hasstr(uint32_t id, const char *sub)
{
	size_t n;
	const char *s = S(id, &n);

	return id != NONE && memmem(s, n, sub, strlen(sub)) != NULL;
}

static int
prefix(uint32_t id, const char *p)
{
	size_t n;
	const char *s = S(id, &n);

	return id != NONE && n >= strlen(p) && memcmp(s, p, strlen(p)) == 0;
}

/* ---- linking (spec 5.3) ---- */

struct cu {
	int64_t corr;
	size_t i;
};

static int
cucmp(const void *a, const void *b)
{
	const struct cu *x = a, *y = b;

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int *isgpu;	/* per pid index: pid's process is a GPU */

static int
gpupid(int pid)
{
	if (pid != gpucache) {
		gpucache = pid;
		gpucached = hasstr(procname(pid), "/device:GPU");
	}
	return gpucached;
}

/* Whether host event h may link event u (h's device, by default). */
static int
canlink(const struct ev *h, const struct ev *u)
{
	return tflag || !h->hasdev || u->pid == 701 || u->pid == h->devid + 1;
}

/*
 * Every host event of pid 701 links the other events with its id, in UID
 * order, so the last one wins: each event's parent is the last such host
 * event but itself. Found per id, in time linear in the events (ids that
 * repeat many times cost no more).
 */
static void
link(void)
{
	struct cu *c = xreallocarray(NULL, nE ? nE : 1, sizeof *c);
	size_t i, n = 0, lo, hi, k;

	for (i = 0; i < nE; i++)
		if (E[i].hascorr) {
			c[n].corr = E[i].corr;
			c[n++].i = i;
		}
	qsort(c, n, sizeof *c, cucmp);
	for (lo = 0; lo < n; lo = hi) {
		size_t last = SIZE_MAX, prev = SIZE_MAX;

		for (hi = lo; hi < n && c[hi].corr == c[lo].corr; hi++)
			if (E[c[hi].i].pid == 701) {
				prev = last;
				last = c[hi].i;
			}
		if (last == SIZE_MAX)
			continue;
		for (k = lo; k < hi; k++) {
			size_t u = c[k].i, h = u == last ? prev : last, j;

			if (h != SIZE_MAX && !canlink(&E[h], &E[u])) {
				/* the last host event of u's device */
				h = SIZE_MAX;
				for (j = hi; j-- > lo;)
					if (c[j].i != u && E[c[j].i].pid == 701 &&
					    canlink(&E[c[j].i], &E[u])) {
						h = c[j].i;
						break;
					}
			}
			if (h != SIZE_MAX)
				E[u].parent = (int)h;
		}
	}
	free(c);
}

/* ---- categories (spec 5.4) ---- */

static const char *const catname[] = {
	"GEMM", "FA BWD", "FA FWD", "FA V3", "Conv", "TE",
	"Communication rccl/nccl"
};
#define NCAT 7
static const char *const catkw[NCAT][5] = {
	{ "Cijk", "gemm", "nvjet", "cublasLt", NULL },
	{ "FmhaBwd", "flash_bprop", "ck_fused_attn::dk_dv_reduce_thd",
	    "fmha_bwd", NULL },
	{ "FmhaFwd", "flash_fprop", "fmha_fwd", NULL },
	{ "kernel_func", NULL },
	{ "conv_", "conv.", "conv-", NULL },
	{ "transformer_engine", "te_fused_attn", NULL },
	{ "rccl", "nccl", NULL },
};
#define UNCAT	NCAT	/* Uncategorized Events/XLA */

static int
catof(uint32_t id)
{
	size_t n;
	const char *s = S(id, &n);
	int c, k;

	for (c = 0; c < NCAT; c++)
		for (k = 0; catkw[c][k] != NULL; k++)
			if (memmem(s, n, catkw[c][k], strlen(catkw[c][k])))
				return c;
	return -1;
}

static const char *
catstr(int c)
{
	return c == UNCAT ? "Uncategorized Events/XLA" : catname[c];
}

static int
kcat(const struct ev *e)
{
	int c = catof(e->name), h;

	/* hlo_op overrides, but not an FA kernel, nor (by default) a GEMM
	 * kernel, which is a GEMM whatever custom call launched it. */
	if (e->hloop != NONE && S(e->hloop, NULL)[0] != '\0' &&
	    c != 1 && c != 2 && c != 3 && (tflag || c != 0) &&
	    (h = catof(e->hloop)) >= 0)
		c = h;
	return c < 0 ? UNCAT : c;
}

/* ---- the kernel rows ---- */

enum { M_REST, M_GEMM, M_TE, M_TEBWD, M_CONV, M_CONVBWD };

#define MAXOP 16
#define MAXD 8

struct shape {
	char type[24];
	int64_t d[MAXD], lay[MAXD];
	int nd, nl;
};

struct krow {
	size_t e;
	int cat, model, hasmeta;
	struct shape *op, outs;	/* op: only for a kernel with a model */
	int nop, hasout;
	uint32_t dims, types, conc;
	double lat;
};

static struct krow *K;
static size_t nK;

/* The first match of ([A-Za-z]+[0-9]+)\[([0-9,]+)\]\{([0-9,]+)\} in s. */
static int
shapeof(const char *s, size_t n, struct shape *sh)
{
	size_t i, j, k, d0, d1, l;

	for (i = 0; i < n; i++) {
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z')) || (i > 0 && ((s[i - 1] >= 'a' &&
		    s[i - 1] <= 'z') || (s[i - 1] >= 'A' && s[i - 1] <= 'Z'))))
			continue;
		for (j = i; j < n && ((s[j] >= 'a' && s[j] <= 'z') ||
		    (s[j] >= 'A' && s[j] <= 'Z')); j++)
			;
		/* [A-Za-z]+[0-9]+ may end the letters early: letters then
		 * digits, as many as there are, then '['. */
		k = j;
		while (k < n && s[k] >= '0' && s[k] <= '9')
			k++;
		if (k == j || k >= n || s[k] != '[')
			continue;
		d0 = d1 = k + 1;
		while (d1 < n && ((s[d1] >= '0' && s[d1] <= '9') ||
		    s[d1] == ','))
			d1++;
		if (d1 == d0 || d1 + 1 >= n || s[d1] != ']' || s[d1 + 1] != '{')
			continue;
		l = d1 + 2;
		while (l < n && ((s[l] >= '0' && s[l] <= '9') || s[l] == ','))
			l++;
		if (l == d1 + 2 || l >= n || s[l] != '}')
			continue;
		sh->nl = 0;
		for (j = d1 + 2; j < l && sh->nl < MAXD;) {
			int64_t v = 0;

			while (j < l && s[j] != ',')
				v = v * 10 + (s[j++] - '0');
			sh->lay[sh->nl++] = v;
			if (j < l)
				j++;
		}
		if (k - i >= sizeof sh->type)
			return 0;
		memcpy(sh->type, s + i, k - i);
		sh->type[k - i] = '\0';
		sh->nd = 0;
		for (j = d0; j < d1;) {
			int64_t v = 0;
			size_t st = j;

			while (j < d1 && s[j] != ',')
				v = v * 10 + (s[j++] - '0');
			if (j == st || sh->nd == MAXD)
				return 0;	/* int('') raises */
			sh->d[sh->nd++] = v;
			if (j < d1)
				j++;
		}
		return 1;
	}
	return 0;
}

static void
puttuple(struct tl_out *o, const int64_t *d, int n)
{
	int i;

	tl_out_char(o, '(');
	for (i = 0; i < n; i++) {
		if (i > 0)
			tl_out_raw(o, ", ", 2);
		tl_out_i64(o, d[i]);
	}
	if (n == 1)
		tl_out_char(o, ',');
	tl_out_char(o, ')');
}

static uint32_t
dimsrepr(const struct shape *op, int from, int to)
{
	struct tl_out o;
	uint32_t id;
	int i;

	tl_out_init(&o, -1, "(dims)");
	tl_out_char(&o, '(');
	for (i = from; i < to; i++) {
		if (i > from)
			tl_out_raw(&o, ", ", 2);
		puttuple(&o, op[i].d, op[i].nd);
	}
	if (to - from == 1)
		tl_out_char(&o, ',');
	tl_out_char(&o, ')');
	id = tl_intern(in, o.buf, o.n);
	free(o.buf);
	return id;
}

static uint32_t
typesrepr(const struct shape *op, int from, int to)
{
	struct tl_out o;
	uint32_t id;
	int i;

	tl_out_init(&o, -1, "(types)");
	tl_out_char(&o, '(');
	for (i = from; i < to; i++) {
		if (i > from)
			tl_out_raw(&o, ", ", 2);
		tl_out_pystr(&o, op[i].type, strlen(op[i].type));
	}
	if (to - from == 1)
		tl_out_char(&o, ',');
	tl_out_char(&o, ')');
	id = tl_intern(in, o.buf, o.n);
	free(o.buf);
	return id;
}

/* Split the repr of a list of str back into the operand strings. */
static int
operands(uint32_t ops, struct shape *op)
{
	size_t n, i;
	const char *s = S(ops, &n);
	int nop = 0;

	/* ['a', 'b']: no quotes inside shapes */
	for (i = 0; i < n && nop < MAXOP; i++) {
		if (s[i] != '\'' && s[i] != '"')
			continue;
		{
			char q = s[i];
			size_t j = i + 1;

			while (j < n && s[j] != q)
				j++;
			if (shapeof(s + i + 1, j - i - 1, &op[nop]))
				nop++;
			i = j;
		}
	}
	return nop;
}

static int
modelof(const struct krow *k, const struct ev *e)
{
	const char *c = S(e->cct, NULL);
	int cat = k->cat;

	if (!k->hasmeta || e->ops == NONE || e->cct == NONE)
		return M_REST;
	if (strcmp(S(e->ops, NULL), "[]") == 0)
		return M_REST;
	if ((strstr(c, "matmul") || strstr(c, "cublas")) && cat == 0)
		return M_GEMM;
	if (strstr(c, "te_fused_attn_forward_ffi"))
		return M_TE;
	if (strstr(c, "te_fused_attn_backward_ffi"))
		return M_TEBWD;
	/* A conv custom call's kernels (its GEMM included) by default. */
	if ((strstr(c, "cudnn$convForward") ||
	    strstr(c, "cudnn$convBiasActivationForward")) &&
	    (cat == 4 || (!tflag && cat == 0)))
		return M_CONV;
	if (strstr(c, "cudnn$convBackward") && (cat == 4 ||
	    (!tflag && cat == 0)))
		return M_CONVBWD;
	return M_REST;
}

static void
pyrepr(struct tl_out *o, uint32_t id)
{
	size_t n;
	const char *s = S(id, &n);

	tl_out_pystr(o, s, n);
}

static void
kernelrows(void)
{
	static struct shape tmpop[MAXOP];
	size_t i;

	size_t nk = 0;

	for (i = 0; i < nE; i++)
		if (E[i].kind == TL_K_KERNEL && gpupid(E[i].pid))
			nk++;
	K = xreallocarray(NULL, nk ? nk : 1, sizeof *K);
	for (i = 0; i < nE; i++) {
		struct ev *e = &E[i];
		struct krow *k;

		if (e->kind != TL_K_KERNEL || !gpupid(e->pid))
			continue;
		k = &K[nK++];
		memset(k, 0, sizeof *k);
		k->e = i;
		k->cat = kcat(e);
		k->hasmeta = e->out != NONE && (e->parent >= 0 || !tflag);
		k->lat = e->parent >= 0 ? e->ts - E[e->parent].ts : NAN;
		k->op = tmpop;
		if (k->hasmeta && e->ops != NONE)
			k->nop = operands(e->ops, k->op);
		if (k->hasmeta && e->out != NONE) {
			size_t n;
			const char *s = S(e->out, &n);

			k->hasout = shapeof(s, n, &k->outs);
		}
		k->model = modelof(k, e);
		if (k->model == M_TE || k->model == M_TEBWD) {
			int m = k->nop < 3 ? k->nop : 3;

			k->dims = dimsrepr(k->op, 0, m);
			k->types = typesrepr(k->op, 0, m);
			k->conc = dimsrepr(k->op, 3, k->nop > 3 ? 4 : 3);
		} else {
			k->dims = dimsrepr(k->op, 0, k->nop);
			k->types = typesrepr(k->op, 0, k->nop);
			k->conc = tl_intern(in, "()", 2);
		}
		if (k->model != M_REST && k->nop > 0) {
			k->op = xreallocarray(NULL, (size_t)k->nop,
			    sizeof *k->op);
			memcpy(k->op, tmpop, (size_t)k->nop * sizeof *k->op);
		} else
			k->op = NULL;
	}
}

/* Rows of kernel_launchers: with -k, those whose metadata has a keyword. */
static int
kept(const struct krow *k)
{
	size_t j;

	if (nkw == 0)
		return 1;
	if (!k->hasmeta || E[k->e].meta == NONE)
		return 0;
	for (j = 0; j < nkw; j++)
		if (hasstr(E[k->e].meta, kw[j]))
			return 1;
	return 0;
}

/* ---- CSV writing ---- */

static struct tl_out co, kdo;	/* a sheet; a kernel_details cell */
static const char *csvdir, *onesheet;
static int ncol;

static void
begin(const char *const *cols)
{
	int i;

	co.n = 0;
	for (i = 0; cols[i] != NULL; i++) {
		if (i > 0)
			tl_out_char(&co, ',');
		tl_out_csvfield(&co, cols[i], strlen(cols[i]));
	}
	tl_out_char(&co, '\n');
	ncol = 0;
}

static void
cell(const char *s, size_t n)
{
	if (ncol++ > 0)
		tl_out_char(&co, ',');
	tl_out_csvfield(&co, s, n);
}

static void
cells(const char *s)
{
	cell(s, strlen(s));
}

static void
celli(int64_t v)
{
	char b[TL_I64_MAX];

	cell(b, tl_fmt_i64(b, v));
}

static void
cellf(double v)
{
	char b[TL_PY_FLOATMAX];

	if (v != v) {
		cell("", 0);
		return;
	}
	cell(b, (size_t)tl_py_float(b, sizeof b, v));
}

static void
cellid(uint32_t id)
{
	size_t n;
	const char *s = S(id, &n);

	cell(s, n);
}

static void
endrec(void)
{
	tl_out_char(&co, '\n');
	ncol = 0;
}

static void
finish(const char *name)
{
	char fn[256];
	struct tl_file f;

	if (onesheet != NULL) {
		struct tl_out so;

		if (strcmp(onesheet, name) != 0)
			return;
		tl_out_init(&so, 1, "<stdout>");
		tl_out_raw(&so, co.buf, co.n);
		tl_out_close(&so);
		return;
	}
	snprintf(fn, sizeof fn, "%s.csv", name);
	if (tl_file_open(&f, csvdir, fn) < 0)
		exit(1);
	tl_out_raw(&f.out, co.buf, co.n);
	if (tl_file_close(&f) < 0)
		exit(1);
}

/* ---- gpu_timeline (spec 6) ---- */

struct iv {
	double a, b;
};

static int
ivcmp(const void *x, const void *y)
{
	const struct iv *p = x, *q = y;

	return p->a < q->a ? -1 : p->a > q->a;
}

static size_t
merge(struct iv *v, size_t n)
{
	size_t i, k = 0;

	/* qsort is not stable, but equal starts merge whatever the order. */
	qsort(v, n, sizeof *v, ivcmp);
	for (i = 0; i < n; i++) {
		if (k > 0 && v[i].a <= v[k - 1].b) {
			if (v[i].b > v[k - 1].b)
				v[k - 1].b = v[i].b;
		} else
			v[k++] = v[i];
	}
	return k;
}

static double
ivlen(const struct iv *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i].b - v[i].a;
	return s;
}

/* a - b, both merged; into out (room for na + nb). */
static size_t
subtract(const struct iv *a, size_t na, const struct iv *b, size_t nb,
    struct iv *out)
{
	size_t i, j = 0, n = 0;

	for (i = 0; i < nb; i++) {
		double cur = b[i].a, b1 = b[i].b;
		size_t k;

		while (j < na && a[j].b <= b[i].a)
			j++;
		for (k = j; k < na && a[k].a < b1; k++) {
			if (a[k].a > cur)
				out[n++] = (struct iv){ cur, a[k].a < b1 ?
				    a[k].a : b1 };
			if (a[k].b > cur)
				cur = a[k].b;
			if (cur >= b1)
				break;
		}
		if (cur < b1)
			out[n++] = (struct iv){ cur, b1 };
	}
	return n;
}

static const char *const tlrow[8] = {
	"computation_time", "exposed_comm_time", "exposed_memcpy_time",
	"busy_time", "idle_time", "total_time", "total_comm_time",
	"total_memcpy_time"
};

static void
metrics(int pid, double m[8])
{
	struct iv *c[4], *t1, *t2;
	size_t nc[4] = { 0, 0, 0, 0 }, i, n1, n2;

	size_t ne = 0;

	for (i = 0; i < nE; i++)
		if (E[i].pid == pid)
			ne++;
	for (i = 0; i < 4; i++)
		c[i] = xreallocarray(NULL, ne + 1, sizeof **c);
	t1 = xreallocarray(NULL, 2 * ne + 2, sizeof *t1);
	t2 = xreallocarray(NULL, 2 * ne + 2, sizeof *t2);
	for (i = 0; i < nE; i++) {
		struct ev *e = &E[i];
		size_t n;
		const char *s;
		uint32_t th;
		int cl;
		char low[16];
		size_t k;

		if (e->pid != pid)
			continue;
		th = threadname(e->pid, e->tid);
		if (th == NONE ? !(e->tid < 100) : !prefix(th, "Stream #"))
			continue;
		s = S(e->name, &n);
		for (k = 0; k < n && k < sizeof low - 1; k++)
			low[k] = (char)((s[k] >= 'A' && s[k] <= 'Z') ?
			    s[k] + 32 : s[k]);
		low[k] = '\0';
		if (strncmp(low, "copy", 4) == 0 ||
		    strncmp(low, "memcpy", 6) == 0 ||
		    strncmp(low, "memset", 6) == 0)
			cl = 2;
		else if (strcasestr(s, "rccl") || strcasestr(s, "nccl") ||
		    strcasestr(s, "cross_device_reduce"))
			cl = 1;
		else
			cl = 0;
		c[cl][nc[cl]++] = (struct iv){ e->ts, e->ts + e->dur };
		c[3][nc[3]++] = (struct iv){ e->ts, e->ts + e->dur };
	}
	for (i = 0; i < 4; i++)
		nc[i] = merge(c[i], nc[i]);
	memset(m, 0, 8 * sizeof *m);
	if (nc[3] > 0) {
		m[5] = c[3][nc[3] - 1].b - c[3][0].a;
		m[0] = ivlen(c[0], nc[0]);
		n1 = subtract(c[0], nc[0], c[1], nc[1], t1);
		m[1] = ivlen(t1, n1);
		n1 = subtract(c[0], nc[0], c[2], nc[2], t1);
		n2 = subtract(c[1], nc[1], t1, n1, t2);
		m[2] = ivlen(t2, n2);
		m[3] = ivlen(c[3], nc[3]);
		m[4] = m[5] - m[3];
		m[6] = ivlen(c[1], nc[1]);
		m[7] = ivlen(c[2], nc[2]);
	}
	for (i = 0; i < 4; i++)
		free(c[i]);
	free(t1);
	free(t2);
}

/* CPython 3.11's set of small ints: its iteration order (spec 6.2). */
static size_t
pyset(const int *v, size_t n, int *out)
{
	size_t T = 8, fill = 0, i, k;
	long *slot = xcalloc(T, sizeof *slot), *old;

	for (i = 0; i < T; i++)
		slot[i] = -1;
	for (i = 0; i < n; i++) {
		size_t j, mask = T - 1, p;
		uint64_t perturb = (uint64_t)v[i];
		int dup = 0;

		for (j = 0; j < T; j++)
			if (slot[j] == v[i])
				dup = 1;
		if (dup)
			continue;
		p = (size_t)v[i] & mask;
		for (;;) {
			size_t q, lim = p + 9 <= mask ? 9 : 0, found = T;

			for (q = 0; q <= lim; q++)
				if (slot[p + q] == -1) {
					found = p + q;
					break;
				}
			if (found < T) {
				slot[found] = v[i];
				break;
			}
			perturb >>= 5;
			p = (5 * p + 1 + (size_t)perturb) & mask;
		}
		fill++;
		if (fill * 5 >= mask * 3) {
			size_t nt = 8, ot = T;

			while (nt <= 4 * fill)
				nt <<= 1;
			old = slot;
			slot = xcalloc(nt, sizeof *slot);
			T = nt;
			for (k = 0; k < T; k++)
				slot[k] = -1;
			for (k = 0; k < ot; k++) {
				size_t m2 = T - 1, pp;
				uint64_t pt = (uint64_t)old[k];

				if (old[k] == -1)
					continue;
				pp = (size_t)old[k] & m2;
				for (;;) {
					size_t q, lim = pp + 9 <= m2 ? 9 : 0,
					    f = T;

					for (q = 0; q <= lim; q++)
						if (slot[pp + q] == -1) {
							f = pp + q;
							break;
						}
					if (f < T) {
						slot[f] = old[k];
						break;
					}
					pt >>= 5;
					pp = (5 * pp + 1 + (size_t)pt) & m2;
				}
			}
			free(old);
		}
	}
	for (i = k = 0; i < T; i++)
		if (slot[i] != -1)
			out[k++] = (int)slot[i];
	free(slot);
	return k;
}

static void
timeline(void)
{
	int *pids = xreallocarray(NULL, nE + 1, sizeof *pids);
	int *ord = xreallocarray(NULL, nE + 1, sizeof *ord);
	double (*m)[8];
	double avg[8];
	size_t np = 0, i, j, n;
	static const char *const cols[] = { "type", "time ms", "percent",
	    "gpu_pid", NULL };
	static const char *const acols[] = { "type", "time ms", "percent",
	    NULL };

	/* GPU pids with a Stream event, in UID order. */
	for (i = 0; i < nE; i++) {
		struct ev *e = &E[i];
		uint32_t th;

		if (!gpupid(e->pid))
			continue;
		th = threadname(e->pid, e->tid);
		if (th == NONE ? !(e->tid < 100) : !prefix(th, "Stream #"))
			continue;
		if (np == 0 || pids[np - 1] != e->pid)
			pids[np++] = e->pid;
	}
	n = pyset(pids, np, ord);
	m = xreallocarray(NULL, n + 1, sizeof *m);
	begin(cols);
	for (i = 0; i < n; i++) {
		metrics(ord[i], m[i]);
		for (j = 0; j < 8; j++) {
			cells(tlrow[j]);
			cellf(m[i][j] / 1e3);
			cellf(m[i][j] / m[i][5] * 100);
			celli(ord[i]);
			endrec();
		}
	}
	finish("gpu_timeline");
	begin(acols);
	for (j = 0; j < 8; j++) {
		avg[j] = n > 0 ? m[0][j] : 0;
		for (i = 1; i < n; i++)
			avg[j] += m[i][j];
		avg[j] /= (double)n;
	}
	for (j = 0; j < 8 && n > 0; j++) {
		cells(tlrow[j]);
		cellf(avg[j] / 1e3);
		cellf(avg[j] / avg[5] * 100);
		endrec();
	}
	finish("gpu_events_averages");
	free(pids);
	free(ord);
	free(m);
}

/* ---- kernel_launchers and its summaries (spec 7.1-7.6) ---- */

/*
 * The dict of a kernel's kernel_details, without its braces: with its
 * 'dur' (kernel_launchers) or without (the summaries). Made when it is
 * written: it holds the duration, and so is not worth keeping.
 */
static void
putkd(struct tl_out *o, const struct krow *k, int dur)
{
	const struct ev *e = &E[k->e];

	tl_out_raw(o, "'name': ", 8);
	pyrepr(o, e->name);
	if (dur) {
		tl_out_raw(o, ", 'dur': ", 9);
		tl_out_pyfloat(o, e->dur);
	}
	tl_out_raw(o, ", 'custom_call_target': ", 24);
	if (k->hasmeta && e->cct != NONE)
		pyrepr(o, e->cct);
	else
		tl_out_raw(o, "'NA'", 4);
	tl_out_raw(o, ", 'operands': ", 14);
	if (k->hasmeta && e->ops != NONE) {
		size_t n;
		const char *s = S(e->ops, &n);

		tl_out_raw(o, s, n);
	} else
		tl_out_raw(o, "'NA'", 4);
	tl_out_raw(o, ", 'outputs': 'NA', 'metadata': ", 31);
	if (k->hasmeta && e->meta != NONE)
		pyrepr(o, e->meta);
	else
		tl_out_raw(o, "'NA'", 4);
}

static const char *const klcols[] = {
	"name", "UID", "op category", "total_direct_kernel_time",
	"direct_kernel_count", "pid", "tid", "Input Dims", "Input type",
	"Input Strides", "Concrete Inputs", "kernel_details",
	"GPU_kernel_launch_latency", NULL, NULL
};

static void
klrow(const struct krow *k)
{
	const struct ev *e = &E[k->e];

	cellid(e->name);
	celli(e->uid);
	cells(catstr(k->cat));
	cellf(e->dur);
	celli(1);
	celli(e->pid);
	celli(e->tid);
	cellid(k->dims);
	cellid(k->types);
	cells("()");
	cellid(k->conc);
	kdo.n = 0;
	tl_out_raw(&kdo, "[{", 2);
	putkd(&kdo, k, 1);
	tl_out_raw(&kdo, "}]", 2);
	cell(kdo.buf, kdo.n);
	cellf(k->lat);
}

static int64_t
inputbytes(const struct ev *e)
{
	size_t n, i;
	const char *s;
	int64_t total = 0;

	if (e->ops == NONE)
		return 0;
	s = S(e->ops, &n);
	for (i = 0; i < n; i++) {
		size_t j, t0, t1, d0;
		int64_t p = 1, v;
		int bpe = 0, nd = 0;

		if (s[i] != '\'' && s[i] != '"')
			continue;
		/* One string: \w+ \[ dims \] at its start. */
		j = t0 = i + 1;
		while (j < n && (s[j] == '_' || (s[j] >= '0' && s[j] <= '9') ||
		    (s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' &&
		    s[j] <= 'Z')))
			j++;
		t1 = j;
		if (t1 > t0 && j < n && s[j] == '[') {
			d0 = ++j;
			while (j < n && ((s[j] >= '0' && s[j] <= '9') ||
			    s[j] == ','))
				j++;
			if (j < n && s[j] == ']' && j > d0) {
				size_t k = d0;

				while (k < j) {
					v = 0;
					while (k < j && s[k] != ',')
						v = v * 10 + (s[k++] - '0');
					p *= v;
					nd++;
					k++;
				}
			}
		}
		{
			size_t tl = t1 - t0;
			const char *t = s + t0;
#define T(x) (tl == sizeof x - 1 && memcmp(t, x, tl) == 0)
			if (T("f32") || T("s32") || T("u32"))
				bpe = 4;
			else if (T("bf16") || T("fp16") || T("f16"))
				bpe = 2;
			else if (T("u64"))
				bpe = 8;
			else if (T("pred") || (tl >= 2 && (memcmp(t, "f8", 2)
			    == 0 || memcmp(t, "s8", 2) == 0)))
				bpe = 1;
#undef T
		}
		if (nd > 0 && bpe > 0)
			total += p * bpe;
		/* to the closing quote */
		{
			char q = s[i];

			for (i++; i < n && s[i] != q; i++)
				;
		}
	}
	return total;
}

/* Group kernel rows by a key string; groups in key order (or first
 * appearance); g[i] is the group of row i. */
struct grp {
	uint32_t key;
	size_t first, n;
	struct tl_kahan sum;
	double ms;
	size_t *rows;
	size_t nrows, caprows;
};

static int
keycmp(const void *a, const void *b)
{
	const struct grp *x = a, *y = b;

	return tl_intern_cmp(in, x->key, y->key);
}

/*
 * The rows r[0..n) of K grouped by key(r): sorted groups (pandas
 * groupby), each with its rows in order.
 */
static struct grp *
group(const size_t *r, size_t n, uint32_t (*key)(size_t), size_t *ng,
    int sorted)
{
	struct grp *g = NULL;
	size_t cap = 0, i, j;
	uint32_t *gi = NULL;
	size_t capgi = 0;

	*ng = 0;
	for (i = 0; i < n; i++) {
		uint32_t k = key(r[i]);

		if ((size_t)k + 1 > capgi) {
			size_t old = capgi;

			xgrow(&gi, &capgi, (size_t)k + 1, sizeof *gi);
			memset(gi + old, 0, (capgi - old) * sizeof *gi);
		}
		if (gi[k] == 0) {
			xgrow(&g, &cap, *ng + 1, sizeof *g);
			memset(&g[*ng], 0, sizeof *g);
			g[*ng].key = k;
			g[*ng].first = r[i];
			gi[k] = (uint32_t)++*ng;
		}
		j = gi[k] - 1;
		xgrow(&g[j].rows, &g[j].caprows, g[j].nrows + 1,
		    sizeof *g[j].rows);
		g[j].rows[g[j].nrows++] = r[i];
	}
	free(gi);
	if (sorted)
		qsort(g, *ng, sizeof *g, keycmp);
	return g;
}

static void
freegroups(struct grp *g, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(g[i].rows);
	free(g);
}

static uint32_t
knamekey(size_t r)
{
	return E[K[r].e].name;
}

static uint32_t *stripped;	/* xla_summary's names, by row */

static uint32_t
stripkey(size_t r)
{
	return stripped[r];
}

static uint32_t
catkey(size_t r)
{
	const char *s = catstr(K[r].cat);

	return tl_intern(in, s, strlen(s));
}

static int
distinctpids(const size_t *r, size_t n)
{
	int pids[1024];
	size_t np = 0, i, j;

	for (i = 0; i < n; i++) {
		int p = E[K[r[i]].e].pid;

		for (j = 0; j < np && pids[j] != p; j++)
			;
		if (j == np && np < 1024)
			pids[np++] = p;
	}
	return (int)np;
}

/* kernel_launchers_summary / xla_summary (7.2) or by category (7.3). */
static void
summary(const char *name, const size_t *r, size_t n,
    uint32_t (*key)(size_t), int bycat)
{
	static const char *const cols[] = { "name",
	    "total_direct_kernel_time_sum", "Count",
	    "total_direct_kernel_time_ms", "Percentage (%)",
	    "Cumulative Percentage (%)", "time ms per gpu", NULL };
	static const char *const ccols[] = { "op category", "Count",
	    "total_direct_kernel_time_ms", "Percentage (%)",
	    "Cumulative Percentage (%)", "time ms per gpu", NULL };
	size_t ng, i, j, *perm;
	struct grp *g = group(r, n, key, &ng, 1);
	double *sums, *ms, total, cum = 0;
	int G = distinctpids(r, n);

	sums = xreallocarray(NULL, ng + 1, sizeof *sums);
	ms = xreallocarray(NULL, ng + 1, sizeof *ms);
	perm = xreallocarray(NULL, ng + 1, sizeof *perm);
	for (i = 0; i < ng; i++) {
		struct tl_kahan k = { 0, 0 };

		for (j = 0; j < g[i].nrows; j++)
			tl_kahan_add(&k, E[K[g[i].rows[j]].e].dur);
		sums[i] = k.s;
	}
	tl_nargsort_desc(sums, ng, perm);
	for (i = 0; i < ng; i++)
		ms[i] = sums[perm[i]] / 1000;
	total = tl_np_sum(ms, ng);
	begin(bycat ? ccols : cols);
	for (i = 0; i < ng; i++) {
		struct grp *x = &g[perm[i]];
		double pct = ms[i] / total * 100;

		cellid(x->key);
		if (!bycat)
			cellf(sums[perm[i]]);
		celli((int64_t)x->nrows);
		cellf(ms[i]);
		cellf(pct);
		cum += pct;
		cellf(cum);
		cellf(ms[i] / G);
		endrec();
	}
	finish(name);
	free(sums);
	free(ms);
	free(perm);
	freegroups(g, ng);
}

static uint32_t
uakey(size_t r)
{
	struct tl_out o;
	uint32_t id;
	size_t n;
	const char *s;

	tl_out_init(&o, -1, "(key)");
	s = S(E[K[r].e].name, &n);
	tl_out_raw(&o, s, n);
	tl_out_char(&o, '\001');
	if (!tflag) {
		s = catstr(K[r].cat);
		tl_out_raw(&o, s, strlen(s));
		tl_out_char(&o, '\001');
	}
	s = S(K[r].dims, &n);
	tl_out_raw(&o, s, n);
	tl_out_char(&o, '\001');
	s = S(K[r].types, &n);
	tl_out_raw(&o, s, n);
	tl_out_char(&o, '\001');
	s = S(K[r].conc, &n);
	tl_out_raw(&o, s, n);
	id = tl_intern(in, o.buf, o.n);
	free(o.buf);
	return id;
}

static void
npfloat(struct tl_out *o, double v)
{
	tl_out_raw(o, "np.float64(", 11);
	tl_out_pyfloat(o, v);
	tl_out_char(o, ')');
}

/* The kernel stats of a group of single-kernel rows (spec 5.10). */
static void
kstats(struct tl_out *o, const size_t *rows, size_t n)
{
	double *d = xreallocarray(NULL, n + 1, sizeof *d), t, mn, mx;
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = E[K[rows[i]].e].dur;
	t = tl_np_sum(d, n);
	tl_out_raw(o, ", 'count': ", 11);
	tl_out_i64(o, (int64_t)n);
	tl_out_raw(o, ", 'total_duration_us': ", 23);
	npfloat(o, t);
	tl_out_raw(o, ", 'mean_duration_us': ", 22);
	npfloat(o, t / (double)n);
	mn = mx = d[0];
	for (i = 1; i < n; i++) {
		if (d[i] < mn)
			mn = d[i];
		if (d[i] > mx)
			mx = d[i];
	}
	tl_out_raw(o, ", 'median_duration_us': ", 24);
	npfloat(o, tl_median(d, n));
	for (i = 0; i < n; i++)
		d[i] = E[K[rows[i]].e].dur;
	tl_out_raw(o, ", 'std_dev_duration_us': ", 25);
	npfloat(o, tl_np_std(d, n));
	tl_out_raw(o, ", 'min_duration_us': ", 21);
	npfloat(o, mn);
	tl_out_raw(o, ", 'max_duration_us': ", 21);
	npfloat(o, mx);
	free(d);
}

struct ua {
	struct grp *g;
	struct tl_stats st;
	double sum;
};

static int
uacmp(const void *a, const void *b)
{
	const struct ua *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	return E[K[x->g->first].e].uid < E[K[y->g->first].e].uid ? -1 :
	    E[K[x->g->first].e].uid > E[K[y->g->first].e].uid;
}

static void
uniqueargs(const size_t *r, size_t n)
{
	static const char *const cols[] = { "name", "Input Dims",
	    "Input type", "Input Strides", "Concrete Inputs",
	    "operation_count", "total_direct_kernel_time_mean",
	    "total_direct_kernel_time_median", "total_direct_kernel_time_std",
	    "total_direct_kernel_time_min", "total_direct_kernel_time_max",
	    "total_direct_kernel_time_sum", "ex_UID", "kernel_details_summary",
	    "Percentage (%)", "Cumulative Percentage (%)", NULL };
	static const char *const ccols[] = { "name", "op category",
	    "Input Dims", "Input type", "Input Strides", "Concrete Inputs",
	    "operation_count", "total_direct_kernel_time_mean",
	    "total_direct_kernel_time_median", "total_direct_kernel_time_std",
	    "total_direct_kernel_time_min", "total_direct_kernel_time_max",
	    "total_direct_kernel_time_sum", "ex_UID", "kernel_details_summary",
	    "Percentage (%)", "Cumulative Percentage (%)", NULL };
	size_t ng, i, j;
	struct grp *g = group(r, n, uakey, &ng, 0);
	struct ua *u = xreallocarray(NULL, ng + 1, sizeof *u);
	double *v = xreallocarray(NULL, n + 1, sizeof *v), *sums, total, cum = 0;
	struct tl_out o;

	for (i = 0; i < ng; i++) {
		u[i].g = &g[i];
		for (j = 0; j < g[i].nrows; j++)
			v[j] = E[K[g[i].rows[j]].e].dur;
		tl_stats(&u[i].st, v, g[i].nrows);
		u[i].sum = u[i].st.sum;
	}
	/* Stable: first appearance, then sum descending, ex_UID. */
	qsort(u, ng, sizeof *u, uacmp);
	sums = xreallocarray(NULL, ng + 1, sizeof *sums);
	for (i = 0; i < ng; i++)
		sums[i] = u[i].sum;
	total = tl_np_sum(sums, ng);
	tl_out_init(&o, -1, "(summary)");
	begin(tflag ? cols : ccols);
	for (i = 0; i < ng; i++) {
		const struct krow *k = &K[u[i].g->first];
		double pct;

		cellid(E[k->e].name);
		if (!tflag)
			cells(catstr(k->cat));
		cellid(k->dims);
		cellid(k->types);
		cells("()");
		cellid(k->conc);
		celli((int64_t)u[i].g->nrows);
		cellf(u[i].st.mean);
		cellf(u[i].st.median);
		cellf(u[i].st.std);
		cellf(u[i].st.min);
		cellf(u[i].st.max);
		cellf(u[i].st.sum);
		celli(E[k->e].uid);
		o.n = 0;
		tl_out_raw(&o, "[{", 2);
		putkd(&o, k, 0);
		kstats(&o, u[i].g->rows, u[i].g->nrows);
		tl_out_raw(&o, "}]", 2);
		cell(o.buf, o.n);
		pct = u[i].sum / total * 100;
		cellf(pct);
		cum += pct;
		cellf(cum);
		endrec();
	}
	finish("kernel_launchers_unique_args");
	free(o.buf);
	free(u);
	free(v);
	free(sums);
	freegroups(g, ng);
}

/* xla_summary's name: every digit out (-T), else the trailing instance
 * number ("_1", ".3") before an optional ".kd". */
static uint32_t
stripname(uint32_t id)
{
	size_t n, i, k = 0, end;
	const char *s = S(id, &n);
	char *b = xmalloc(n + 1);
	uint32_t r;

	if (tflag) {
		for (i = 0; i < n; i++)
			if (s[i] < '0' || s[i] > '9')
				b[k++] = s[i];
	} else {
		end = n;
		if (n >= 3 && memcmp(s + n - 3, ".kd", 3) == 0)
			end = n - 3;
		i = end;
		while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
			i--;
		if (i < end && i > 1 && (s[i - 1] == '_' || s[i - 1] == '.'))
			i--;
		else
			i = end;
		memcpy(b, s, i);
		k = i;
		memcpy(b + k, s + end, n - end);
		k += n - end;
	}
	r = tl_intern(in, b, k);
	free(b);
	return r;
}

static void
launchers(void)
{
	size_t *r = xreallocarray(NULL, nK + 1, sizeof *r), n = 0, nx = 0, i;
	size_t *x = xreallocarray(NULL, nK + 1, sizeof *x);
	static const char *xcols[16];

	for (i = 0; i < nK; i++)
		if (kept(&K[i]))
			r[n++] = i;
	begin(klcols);
	for (i = 0; i < n; i++) {
		klrow(&K[r[i]]);
		endrec();
	}
	finish("kernel_launchers");
	summary("kernel_launchers_summary", r, n, knamekey, 0);
	summary("kernel_launchers_summary_by_category", r, n, catkey, 1);
	uniqueargs(r, n);
	for (i = 0; i < n; i++)
		if (K[r[i]].cat == UNCAT)
			x[nx++] = r[i];
	memcpy(xcols, klcols, 13 * sizeof *xcols);
	xcols[13] = "total_input_bytes";
	xcols[14] = NULL;
	begin(xcols);
	for (i = 0; i < nx; i++) {
		klrow(&K[x[i]]);
		celli(inputbytes(&E[K[x[i]].e]));
		endrec();
	}
	finish("df_xla_perf");
	stripped = xreallocarray(NULL, nK + 1, sizeof *stripped);
	for (i = 0; i < nx; i++)
		stripped[x[i]] = stripname(E[K[x[i]].e].name);
	summary("xla_summary", x, nx, stripkey, 0);
	free(stripped);
	free(r);
	free(x);
}

/* ---- op_<category> sheets (spec 7.7, 8) ---- */

#define MAXP 13

struct perf {
	size_t k;
	double flops, bytes;		/* NaN: none */
	const char *const *pname;	/* the model's parameters */
	char params[MAXP][128];
	int nparam;
	uint32_t key;
};

static const char *const convparams[] = { "convNd", "input_shape",
	"filter_shape", "output_shape", "bias", "bytes_per_element",
	"transposed_conv" };

static void
tuplestr(char *b, size_t cap, const int64_t *d, int n)
{
	struct tl_out o;

	tl_out_init(&o, -1, "(tuple)");
	puttuple(&o, d, n);
	snprintf(b, cap, "%.*s", (int)o.n, o.buf);
	free(o.buf);
}

static double
prod(const int64_t *d, int n)
{
	double p = 1;
	int i;

	for (i = 0; i < n; i++)
		p *= (double)d[i];
	return p;
}

static int
bpeof(const char *t)
{
	if (strcmp(t, "f32") == 0)
		return 4;
	if (strcmp(t, "f16") == 0 || strcmp(t, "bf16") == 0)
		return 2;
	if (strncmp(t, "f8", 2) == 0 || strncmp(t, "fp8", 3) == 0)
		return 1;
	return 0;
}

/* The conv model of a row: 0, or -1 when it has none. */
static int
convmodel(const struct krow *k, struct perf *p)
{
	const int64_t *x, *w, *out;
	int nx, nw, nout, bias, bpe, bwd = k->model == M_CONVBWD;
	int64_t wsp[MAXD];
	double fl, by, po, px, pw;

	if (k->nop < 2 || !k->hasout)
		return -1;
	x = k->op[0].d;
	nx = k->op[0].nd;
	if (nx < 3 || nx > 5)
		return -1;
	out = k->outs.d;
	nout = k->outs.nd;
	if (bwd) {
		w = k->outs.d + 2;
		nw = k->outs.nd - 2;
	} else {
		w = k->op[1].d + 2;
		nw = k->op[1].nd - 2;
	}
	if (!tflag) {		/* the whole filter, channels included */
		w = bwd ? k->outs.d : k->op[1].d;
		nw = bwd ? k->outs.nd : k->op[1].nd;
	}
	if (nw < 0)
		nw = 0;
	memcpy(wsp, w, (size_t)nw * sizeof *wsp);
	bias = k->nop == 3;
	bpe = bpeof(k->op[0].type);
	po = prod(out, nout);
	px = prod(x, nx);
	pw = prod(wsp, nw);
	fl = 2 * (nw > 1 ? prod(wsp + 1, nw - 1) : 1) * po + (bias ? po : 0);
	by = (px + pw + po + (bias && nout > 1 ? (double)out[1] : 0)) * bpe;
	if (bwd) {
		/* input grad (x and out swapped) + weight grad + bias */
		double wg = nw > 0 ? (double)wsp[0] * (nw > 2 ?
		    prod(wsp + 2, nw - 2) : 1) : 1;

		fl = 2 * (nw > 1 ? prod(wsp + 1, nw - 1) : 1) * px +
		    2 * wg * po + (bias ? po : 0);
		by = 2 * (px + pw + po) * bpe + (bias && nout > 1 ? po +
		    (double)out[1] : 0);
	}
	p->flops = fl;
	p->bytes = bpe > 0 ? by : NAN;
	p->pname = convparams;
	p->nparam = 7;
	snprintf(p->params[0], sizeof p->params[0], "conv%dd", nx - 2);
	tuplestr(p->params[1], sizeof p->params[1], x, nx);
	tuplestr(p->params[2], sizeof p->params[2], wsp, nw);
	tuplestr(p->params[3], sizeof p->params[3], out, nout);
	snprintf(p->params[4], sizeof p->params[4], "%s", bias ? "True" :
	    "False");
	if (bpe > 0)
		snprintf(p->params[5], sizeof p->params[5], "%d", bpe);
	else
		p->params[5][0] = '\0';
	snprintf(p->params[6], sizeof p->params[6], "False");
	return 0;
}

static const char *const teparams[] = { "B", "N_Q", "H_Q", "N_KV", "H_KV",
	"d_h_qk", "d_h_v", "bias", "dtype_A_B", "causal", "flash_impl",
	"fused", "bytes_per_element" };

static void
typestuple(char *b, size_t cap, const struct shape *op, int n)
{
	struct tl_out o;
	int i;

	tl_out_init(&o, -1, "(types)");
	tl_out_char(&o, '(');
	for (i = 0; i < n; i++) {
		if (i > 0)
			tl_out_raw(&o, ", ", 2);
		tl_out_pystr(&o, op[i].type, strlen(op[i].type));
	}
	if (n == 1)
		tl_out_char(&o, ',');
	tl_out_char(&o, ')');
	snprintf(b, cap, "%.*s", (int)o.n, o.buf);
	free(o.buf);
}

/* TE fused attention (spec 8.5): q, k, v in BSHD order. */
static int
temodel(const struct krow *k, struct perf *p)
{
	const int64_t *q, *kk, *v;
	double B, NQ, HQ, NK, HK, dqk, dv, fl, el, r;
	int bpe;
	struct tl_out o;

	if (k->nop < 3 || k->op[0].nd != 4 || k->op[1].nd != 4 ||
	    k->op[2].nd != 4)
		return -1;
	q = k->op[0].d;
	kk = k->op[1].d;
	v = k->op[2].d;
	B = (double)q[0];
	NQ = (double)q[1];
	HQ = (double)q[2];
	dqk = (double)q[3];
	NK = (double)kk[1];
	HK = (double)kk[2];
	dv = (double)v[3];
	if (kk[0] != q[0] || v[0] != q[0] || kk[2] != v[2] || kk[1] != v[1] ||
	    kk[3] != q[3])
		return -1;
	bpe = bpeof(k->op[0].type);
	if (tflag || bpe == 0)
		bpe = 2;	/* TraceLens: bytes() at its default of 2 */
	if (k->model == M_TE) {
		fl = B * HQ * (2 * NQ * NK * dqk + 2 * NQ * NK * dv);
		el = B * NQ * HQ * dqk + B * NK * HK * dqk + B * NK * HK * dv +
		    B * NQ * HQ * dv;
	} else {
		r = HK > 0 ? floor(HQ / HK) - 1 : 0;
		fl = 2 * B * HQ * NQ * NK * dqk +
		    2 * B * HQ * NK * NQ * dv + B * NK * dv * r +
		    2 * B * HQ * NQ * NK * dv +
		    2 * B * HQ * NQ * NK * dqk +
		    2 * B * HQ * NK * NQ * dqk + B * NK * dqk * r;
		el = 2 * (B * NQ * HQ * dqk + B * NK * HK * dqk +
		    B * NK * HK * dv) + B * NQ * HQ * dv;
	}
	p->flops = fl;
	p->bytes = el * bpe;
	p->pname = teparams;
	p->nparam = 13;
	snprintf(p->params[0], sizeof p->params[0], "%" PRId64, q[0]);
	snprintf(p->params[1], sizeof p->params[1], "%" PRId64, q[1]);
	snprintf(p->params[2], sizeof p->params[2], "%" PRId64, q[2]);
	snprintf(p->params[3], sizeof p->params[3], "%" PRId64, kk[1]);
	snprintf(p->params[4], sizeof p->params[4], "%" PRId64, kk[2]);
	snprintf(p->params[5], sizeof p->params[5], "%" PRId64, q[3]);
	snprintf(p->params[6], sizeof p->params[6], "%" PRId64, v[3]);
	tl_out_init(&o, -1, "(bias)");
	tl_out_char(&o, '(');
	if (k->nop > 3) {
		puttuple(&o, k->op[3].d, k->op[3].nd);
		tl_out_char(&o, ',');
	}
	tl_out_char(&o, ')');
	snprintf(p->params[7], sizeof p->params[7], "%.*s", (int)o.n, o.buf);
	free(o.buf);
	typestuple(p->params[8], sizeof p->params[8], k->op, 2);
	snprintf(p->params[9], sizeof p->params[9], "False");
	snprintf(p->params[10], sizeof p->params[10], "True");
	snprintf(p->params[11], sizeof p->params[11], "True");
	snprintf(p->params[12], sizeof p->params[12], "%d", bpe);
	return 0;
}

static const char *const gemmparams[] = { "B", "M", "N", "K", "bias",
	"dtype_A_B", "simulation_dtype" };

/* A number after "key": in the backend config's text, or -1. */
static double
cfgnum(const char *s, const char *key, int *found)
{
	const char *p = strstr(s, key);

	*found = 0;
	if (p == NULL)
		return 0;
	p += strlen(key);
	while (*p == '"' || *p == ':' || *p == '[' || *p == ' ')
		p++;
	if ((*p < '0' || *p > '9') && *p != '-' && *p != '.')
		return 0;
	*found = 1;
	return strtod(p, NULL);
}

/* GEMM of a matmul custom call (spec 8.2, 8.5). */
static int
gemmmodel(const struct krow *k, const struct ev *e, struct perf *p)
{
	const struct shape *a, *out = &k->outs;
	double B = 1, M, N, Kd, beta = 0;
	int64_t ob[MAXD];
	int no, lc, f, bpe, swap = 0;
	const char *cfg = e->bcfg != NONE ? S(e->bcfg, NULL) : "";
	const char *t;

	if (k->nop < 2 || !k->hasout)
		return -1;
	a = &k->op[0];
	beta = cfgnum(cfg, "\"beta\"", &f);
	lc = (int)cfgnum(cfg, "\"lhs_contracting_dimensions\"", &f);
	if (!f)
		lc = a->nd - 1;
	if (lc < 0 || lc >= a->nd)
		return -1;
	Kd = (double)a->d[lc];
	no = out->nd;
	memcpy(ob, out->d, (size_t)no * sizeof *ob);
	if (no == 3) {
		B = (double)ob[0];
		memmove(ob, ob + 1, 2 * sizeof *ob);
		no = 2;
	}
	if (no != 2)
		return -1;
	/* The output's M dimension minor to its N: the roles swap. */
	{
		int r = out->nd, i, pm = -1, pn = -1;

		for (i = 0; i < out->nl; i++) {
			if (out->lay[i] == r - 2)
				pm = i;
			else if (out->lay[i] == r - 1)
				pn = i;
		}
		swap = pm >= 0 && pn >= 0 && pm < pn;
	}
	M = (double)ob[swap ? 1 : 0];
	N = (double)ob[swap ? 0 : 1];
	bpe = bpeof(a->type);
	p->flops = B * (2 * M * N * Kd + (beta != 0 ? M * N : 0));
	p->bytes = bpe > 0 ? B * ((M * Kd + Kd * N + M * N) * bpe +
	    (beta != 0 ? N * bpe : 0)) : NAN;
	p->pname = gemmparams;
	p->nparam = 7;
	snprintf(p->params[0], sizeof p->params[0], "%.0f", B);
	snprintf(p->params[1], sizeof p->params[1], "%.0f", M);
	snprintf(p->params[2], sizeof p->params[2], "%.0f", N);
	snprintf(p->params[3], sizeof p->params[3], "%.0f", Kd);
	snprintf(p->params[4], sizeof p->params[4], "%s", beta != 0 ? "True" :
	    "False");
	typestuple(p->params[5], sizeof p->params[5], k->op, 2);
	t = e->cct != NONE && strstr(S(e->cct, NULL), "f8") ? "fp8" :
	    a->type;
	snprintf(p->params[6], sizeof p->params[6], "%s", t);
	return 0;
}

struct og {
	uint32_t key;
	size_t *r;		/* indexes into P */
	size_t n, cap;
	double ktsum;
	int64_t uid0;
};

static struct perf *P;

static int
ogkeycmp(const void *a, const void *b)
{
	const struct og *x = a, *y = b;

	return tl_intern_cmp(in, x->key, y->key);
}

static int
ogcmp(const void *a, const void *b)
{
	const struct og *x = a, *y = b;

	if (x->ktsum != y->ktsum)
		return x->ktsum > y->ktsum ? -1 : 1;
	return x->uid0 < y->uid0 ? -1 : x->uid0 > y->uid0;
}

static void
statcells(const double *v, size_t n, int sum)
{
	struct tl_stats st;
	double *c = xreallocarray(NULL, n + 1, sizeof *c);

	memcpy(c, v, n * sizeof *c);
	tl_stats(&st, c, n);
	cellf(st.mean);
	cellf(st.median);
	cellf(st.std);
	cellf(st.min);
	cellf(st.max);
	if (sum)
		cellf(st.sum);
	free(c);
}

static void
opsheets(void)
{
	int c;
	size_t i, j;

	P = xreallocarray(NULL, nK + 1, sizeof *P);
	for (c = 0; c < NCAT; c++) {
		size_t np = 0, ng = 0;
		struct og *g = NULL;
		const char *pn[2 * MAXP];
		int npn = 0, pnone[2 * MAXP], nobytes = 0;
		char sname[64];
		int m;
		const char *cn = catname[c];

		for (i = 0; i < nK; i++) {
			struct krow *k = &K[i];
			struct perf *p = &P[np];

			if (k->cat != c || k->model == M_REST)
				continue;
			memset(p, 0, sizeof *p);
			p->k = i;
			if (k->model == M_CONV || k->model == M_CONVBWD) {
				if (convmodel(k, p) < 0)
					continue;
			} else if (k->model == M_TE || k->model == M_TEBWD) {
				if (temodel(k, p) < 0)
					continue;
			} else if (gemmmodel(k, &E[k->e], p) < 0)
				continue;
			np++;
		}
		if (np == 0)
			continue;
		/* name + params as strings: key-sorted groups */
		for (i = 0; i < np; i++) {
			struct tl_out o;
			size_t n;
			const char *s = S(E[K[P[i].k].e].name, &n);
			int q;

			tl_out_init(&o, -1, "(key)");
			tl_out_raw(&o, s, n);
			for (q = 0; q < P[i].nparam; q++) {
				tl_out_char(&o, '\001');
				tl_out_raw(&o, P[i].params[q],
				    strlen(P[i].params[q]));
			}
			P[i].key = tl_intern(in, o.buf, o.n);
			free(o.buf);
			for (j = 0; j < ng && g[j].key != P[i].key; j++)
				;
			if (j == ng) {
				g = xreallocarray(g, ng + 1, sizeof *g);
				memset(&g[ng], 0, sizeof *g);
				g[ng].key = P[i].key;
				g[ng].uid0 = E[K[P[i].k].e].uid;
				ng++;
			}
			xgrow(&g[j].r, &g[j].cap, g[j].n + 1, sizeof *g[j].r);
			g[j].r[g[j].n++] = i;
		}
		qsort(g, ng, sizeof *g, ogkeycmp);
		for (j = 0; j < ng; j++) {
			struct tl_kahan ks = { 0, 0 };

			for (i = 0; i < g[j].n; i++)
				tl_kahan_add(&ks, E[K[P[g[j].r[i]].k].e].dur);
			g[j].ktsum = ks.s;
		}
		/* a stable sort: merge sort by hand is not needed for the
		 * few groups; insertion sort keeps ties in key order */
		for (j = 1; j < ng; j++) {
			struct og t = g[j];
			size_t q = j;

			while (q > 0 && ogcmp(&g[q - 1], &t) > 0) {
				g[q] = g[q - 1];
				q--;
			}
			g[q] = t;
		}
		{
			const char *cols[64];
			int nc = 0;
			char pcol[2 * MAXP][64];

			cols[nc++] = "name";
			npn = 0;
			for (i = 0; i < np; i++)
				for (m = 0; m < P[i].nparam; m++) {
					int q2;

					for (q2 = 0; q2 < npn && strcmp(pn[q2],
					    P[i].pname[m]) != 0; q2++)
						;
					if (q2 == npn && npn < 2 * MAXP)
						pn[npn++] = P[i].pname[m];
				}
			/* TraceLens drops the columns that are all None or
			 * NaN: a parameter no row has, bytes no row knows. */
			nobytes = 1;
			for (i = 0; i < np; i++)
				if (P[i].bytes == P[i].bytes)
					nobytes = 0;
			for (m = 0; m < npn; m++) {
				pnone[m] = 1;
				for (i = 0; i < np && pnone[m]; i++) {
					int q2;

					for (q2 = 0; q2 < P[i].nparam; q2++)
						if (strcmp(P[i].pname[q2],
						    pn[m]) == 0 &&
						    P[i].params[q2][0] != '\0')
							pnone[m] = 0;
				}
				if (pnone[m])
					continue;
				snprintf(pcol[m], sizeof pcol[m], "param: %s",
				    pn[m]);
				cols[nc++] = pcol[m];
			}
			cols[nc++] = "GFLOPS_first";
			if (!nobytes) {
				cols[nc++] = "Data Moved (MB)_first";
				cols[nc++] = "FLOPS/Byte_first";
				cols[nc++] = "TB/s_mean";
				cols[nc++] = "TB/s_median";
				cols[nc++] = "TB/s_std";
				cols[nc++] = "TB/s_min";
				cols[nc++] = "TB/s_max";
			}
			cols[nc++] = "TFLOPS/s_mean";
			cols[nc++] = "TFLOPS/s_median";
			cols[nc++] = "TFLOPS/s_std";
			cols[nc++] = "TFLOPS/s_min";
			cols[nc++] = "TFLOPS/s_max";
			cols[nc++] = "kernel_details__summarize_kernel_stats";
			cols[nc++] = "Input Dims_first";
			cols[nc++] = "Input type_first";
			cols[nc++] = "Kernel Time (µs)_mean";
			cols[nc++] = "Kernel Time (µs)_median";
			cols[nc++] = "Kernel Time (µs)_std";
			cols[nc++] = "Kernel Time (µs)_min";
			cols[nc++] = "Kernel Time (µs)_max";
			cols[nc++] = "Kernel Time (µs)_sum";
			cols[nc++] = "name_count";
			cols[nc++] = "UID_first";
			cols[nc] = NULL;
			begin(cols);
		}
		for (j = 0; j < ng; j++) {
			struct perf *p0 = &P[g[j].r[0]];
			struct krow *k0 = &K[p0->k];
			size_t n = g[j].n;
			double *tb = xreallocarray(NULL, n + 1, sizeof *tb);
			double *tf = xreallocarray(NULL, n + 1, sizeof *tf);
			double *kt = xreallocarray(NULL, n + 1, sizeof *kt);
			double gf = p0->flops / 1e9;
			size_t *kr = xreallocarray(NULL, n + 1, sizeof *kr);
			struct tl_out o;

			for (i = 0; i < n; i++) {
				struct perf *p = &P[g[j].r[i]];
				double d = E[K[p->k].e].dur;

				kt[i] = d;
				tf[i] = d > 0 ? (p->flops / 1e9 / 1e3) /
				    (d / 1e6) : NAN;
				tb[i] = (p->bytes / 1e12) / (d / 1e6);
				kr[i] = p->k;
			}
			cellid(E[k0->e].name);
			for (m = 0; m < npn; m++) {
				int q2;

				if (pnone[m])
					continue;

				for (q2 = 0; q2 < p0->nparam &&
				    strcmp(p0->pname[q2], pn[m]) != 0; q2++)
					;
				cells(q2 < p0->nparam ? p0->params[q2] : "");
			}
			cellf(gf);
			if (!nobytes) {
				cellf(p0->bytes / 1048576);
				cellf(p0->bytes > 0 ? gf * 1e9 / p0->bytes :
				    NAN);
				statcells(tb, n, 0);
			}
			statcells(tf, n, 0);
			tl_out_init(&o, -1, "(kstats)");
			tl_out_raw(&o, "[{'name': ", 10);
			pyrepr(&o, E[k0->e].name);
			kstats(&o, kr, n);
			tl_out_raw(&o, "}]", 2);
			cell(o.buf, o.n);
			free(o.buf);
			cellid(k0->dims);
			cellid(k0->types);
			statcells(kt, n, 1);
			celli((int64_t)n);
			celli(E[k0->e].uid);
			endrec();
			free(tb);
			free(tf);
			free(kt);
			free(kr);
		}
		snprintf(sname, sizeof sname, "op_");
		for (i = 0, j = 3; cn[i] != '\0' && j < sizeof sname - 1;
		    i++) {
			if (cn[i] == ' ') {
				if (sname[j - 1] != '_')
					sname[j++] = '_';
			} else
				sname[j++] = (char)((cn[i] >= 'A' &&
				    cn[i] <= 'Z') ? cn[i] + 32 : cn[i]);
		}
		sname[j] = '\0';
		finish(sname);
		for (j = 0; j < ng; j++)
			free(g[j].r);
		free(g);
	}
	free(P);
}

int
main(int argc, char *argv[])
{
	int ch;
	static const struct option lo[] = {
		{ "tracelens", no_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};

	tl_setprogname(argv[0]);
	while ((ch = tl_getopt(argc, argv, "C:k:s:T", lo, usage)) != -1) {
		switch (ch) {
		case 'C':
			csvdir = optarg;
			break;
		case 'k':
			tl_optlist(optarg, &kw, &nkw);
			break;
		case 's':
			onesheet = optarg;
			break;
		case 'T':
			tflag = 1;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if ((csvdir == NULL) == (onesheet == NULL) || argc > 1)
		tl_usage(usage);
	if (csvdir != NULL && tl_mkdirs(csvdir) < 0)
		exit(1);
	in = tl_intern_new();
	tl_out_init(&co, -1, "(sheet)");
	tl_out_init(&kdo, -1, "(kernel_details)");
	load(argc, argv);
	link();
	kernelrows();
	timeline();
	launchers();
	opsheets();
	free(co.buf);
	free(kdo.buf);
	tl_json_free(&doc);
	free(dec);
	free(E);
	for (size_t i = 0; i < nK; i++)
		free(K[i].op);
	free(K);
	free(names);
	free(kw);
	tl_intern_free(in);
	(void)isgpu;
	return 0;
}
