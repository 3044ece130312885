/*
 * tl-ranks -m: the per-rank stage. One rank's tree stream (or event
 * stream, -e) in; its summary out, a small stream (tl-ranks(1)):
 *
 *	trace		the trace; value: its deviceProperties entries
 *	world_size	distributedInfo's world_size, when the trace has it
 *	coll		a collective kernel (TraceLens's rule), file order:
 *			stream, ts_ns, dur_ns, name, the 9 arguments as JSON
 *	step		a ProfilerStep#N row: iter N, ts_ns, dur_ns, name
 *	hta		variant, name (comm_ns, compute_ns, overlap_ns,
 *			busy_ns, first_ns, last_ns), value: HTA's sums
 *	iter		variant, iter: ts_ns the first start of the
 *			iteration's rows, dur_ns to their last end
 *	cand		variant, iter, stream, name, ts_ns, dur_ns: an
 *			ncclKernel row of an iteration > 0, on a stream > 0
 *
 * Variant "all" is the rank as HTA loads it when there are fewer than
 * two profiler steps in the run, "window" as it loads it with two or
 * more (the last step and what follows dropped); the cross-rank stage,
 * which sees every rank's steps, picks one.
 */
#define _GNU_SOURCE		/* memmem */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/intern.h"
#include "../../common/interval.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/trace.h"
#include "ranks.h"

/* The columns the map needs, and those it reads when they are there. */
#define MAP_NEED	(TL_COL(TL_C_TS) | TL_COL(TL_C_DUR) | TL_COL(TL_C_ARGS))
#define MAP_USE		(TL_COL(TL_C_STREAM) | TL_COL(TL_C_CORR) | \
			    TL_COL(TL_C_EXT) | TL_COL(TL_C_RANK))

/* HTA's kernel types. */
enum { K_COMM, K_MEM, K_COMP, K_OTHER };

/* A row HTA loads: every event with a duration and a cat but Trace. */
struct hrow {
	int64_t ts, dur, corr, uid;
	int64_t stream;
	uint32_t nccl;		/* interned ncclKernel* name, or NONE */
	uint32_t sname;		/* a step's interned name */
	uint8_t type, gpu, step;
	int64_t stepno;
};
#define NONE	UINT32_MAX

/* A collective kernel, its fields as written. */
struct coll {
	int64_t uid;
	const char *f[S_NCOL];
};

static struct tl_out out;
static struct tl_warns warns;
/* Times within 2^62 ns of 0: sums and differences of two fit int64. */
#define TMAX	(INT64_C(1) << 62)
static struct tl_intern *names;
static struct hrow *rows;
static size_t nrows, caprows;
static struct coll *colls;
static size_t ncolls, capcolls;
static struct tl_jdoc doc;
static int frac;

static int
prefix(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && memcmp(s, p, k) == 0;
}

static int
contains(const char *s, size_t n, const char *p)
{
	return memmem(s, n, p, strlen(p)) != NULL;
}

static int
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* At s[0..n): p (lower case) in any case. */
static int
iat(const char *s, size_t n, const char *p)
{
	size_t j;

	for (j = 0; p[j] != '\0'; j++)
		if (j == n || lower((unsigned char)s[j]) != p[j])
			return 0;
	return 1;
}

/* TraceLens's communication kernel: nccl, rccl or cross_device_reduce
 * in the name, in any case; one pass. */
static int
iscomm(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		switch (lower((unsigned char)s[i])) {
		case 'n':
			if (iat(s + i, n - i, "nccl"))
				return 1;
			break;
		case 'r':
			if (iat(s + i, n - i, "rccl"))
				return 1;
			break;
		case 'c':
			if (iat(s + i, n - i, "cross_device_reduce"))
				return 1;
			break;
		}
	return 0;
}

/* HTA's kernel type of a name (re.match, first rule that holds). */
static int
ktype(const char *s, size_t n)
{
	static const char *const noncomp[] = { "nccl", "Stream Wait Event",
	    "runFunction", "hip", "job_exe", "packet", "pe_exe",
	    "cpum_exe_subgraph", "hccl", "collective_subgraph_execution",
	    NULL };
	const char *const *p;

	if (prefix(s, n, "nccl") || prefix(s, n, "hip") ||
	    prefix(s, n, "hccl") || contains(s, n, "ncclKernel"))
		return K_COMM;
	if (prefix(s, n, "Memcpy") || prefix(s, n, "hipMemcpy") ||
	    prefix(s, n, "Memset") || prefix(s, n, "hipMemset") ||
	    prefix(s, n, "dma"))
		return K_MEM;
	for (p = noncomp; *p != NULL; p++)
		if (prefix(s, n, *p))
			return K_OTHER;
	if (contains(s, n, "Memcpy") || contains(s, n, "Memset") ||
	    contains(s, n, "dma") || contains(s, n, "Sync"))
		return K_OTHER;
	if (prefix(s, n, "cuda") && contains(s + 4, n - 4, "LaunchKernel"))
		return K_OTHER;
	return K_COMP;
}

/* What a name is, once per distinct name: HTA's type (low bits) and
 * TraceLens's communication kernel (KCOMM); a kernel's name is tested
 * twice, and the trace's few hundred names repeat over its rows. */
#define KCOMM	0x10
#define KUNSET	0xff
static struct tl_intern *knames;
static unsigned char *ktypes;
static size_t capk;

static int
kindof(const char *s, size_t n)
{
	uint32_t id = tl_intern(knames, s, n);

	if (id >= capk) {
		size_t old = capk;

		xgrow(&ktypes, &capk, (size_t)id + 1, 1);
		memset(ktypes + old, KUNSET, capk - old);
	}
	if (ktypes[id] == KUNSET)
		ktypes[id] = (unsigned char)(ktype(s, n) |
		    (iscomm(s, n) ? KCOMM : 0));
	return ktypes[id];
}

/* An integer field, or dflt when empty or not an integer. */
static int64_t
intor(struct tl_trace *tr, int c, int64_t dflt)
{
	const char *s;
	size_t n;
	int64_t v;

	if ((s = tl_trace_raw(tr, c, &n)) == NULL ||
	    tl_parse_i64(s, n, &v) < 0)
		return dflt;
	return v;
}

/* ProfilerStep#N: N, or -1. */
static int64_t
stepno(const char *s, size_t n)
{
	int64_t v = 0;
	size_t i;

	if (!prefix(s, n, "ProfilerStep#") || n == 13 ||
	    !isdigit((unsigned char)s[13]))
		return -1;
	for (i = 13; i < n && isdigit((unsigned char)s[i]); i++)
		if (v < INT64_MAX / 10 - 10)
			v = v * 10 + (s[i] - '0');
	return v;
}

static void
putrow(const char *f[S_NCOL])
{
	int j;

	for (j = 0; j < S_NCOL; j++) {
		if (j > 0)
			tl_out_char(&out, '\t');
		if (f[j] != NULL)
			tl_out_raw(&out, f[j], strlen(f[j]));
	}
	tl_out_char(&out, '\n');
}

/* The JSON text of a value of args, escaped for the stream. */
static const char *
jtext(int i)
{
	const jsmntok_t *t = &doc.tok[i];
	int a = t->start, b = t->end;
	char *e;
	size_t n;

	if (t->type == JSMN_PRIMITIVE && doc.js[a] == 'n')
		return NULL;	/* null */
	if (t->type == JSMN_STRING) {
		a--;
		b++;
	}
	e = xmalloc(2 * (size_t)(b - a) + 1);
	n = tl_tsv_escape(e, doc.js + a, (size_t)(b - a));
	e[n] = '\0';
	return e;
}

static char *
escdup(const char *s, size_t n)
{
	char *e = xmalloc(2 * n + 1);

	e[tl_tsv_escape(e, s, n)] = '\0';
	return e;
}

static void
collrow(struct tl_trace *tr, int64_t uid)
{
	struct coll *c;
	const char *s;
	size_t n;
	int i, k;

	xgrow(&colls, &capcolls, ncolls + 1, sizeof *colls);
	c = &colls[ncolls++];
	memset(c, 0, sizeof *c);
	c->uid = uid;
	if ((s = tl_trace_raw(tr, TL_C_STREAM, &n)) != NULL)
		c->f[S_STREAM] = xmemdup(s, n);
	if ((s = tl_trace_raw(tr, TL_C_TS, &n)) != NULL)
		c->f[S_TS] = xmemdup(s, n);
	if ((s = tl_trace_raw(tr, TL_C_DUR, &n)) != NULL)
		c->f[S_DUR] = xmemdup(s, n);
	if ((s = tl_trace_raw(tr, TL_C_NAME, &n)) != NULL)
		c->f[S_NAME] = xmemdup(s, n);
	if ((s = tl_trace_str(tr, TL_C_ARGS, &n)) == NULL ||
	    tl_json_parse(&doc, s, n) < 0 || doc.tok[0].type != JSMN_OBJECT)
		return;
	for (i = 1; i + 1 < doc.ntok; i = tl_jskip(&doc, i + 1))
		for (k = 0; k < 9; k++)
			if (tl_jeq(&doc, i, metakey[k])) {
				c->f[S_META + k] = jtext(i + 1);
				break;
			}
}

static void
fact(struct tl_trace *tr, int64_t *ndev, int64_t *world, int64_t *drank)
{
	const char *s;
	size_t n;
	int i;

	if (tr->kind != TL_K_TRACE_KEY ||
	    (s = tl_trace_str(tr, TL_C_NAME, &n)) == NULL)
		return;
	if (n == 16 && memcmp(s, "deviceProperties", n) == 0) {
		if ((s = tl_trace_str(tr, TL_C_ARGS, &n)) != NULL &&
		    tl_json_parse(&doc, s, n) == 0 &&
		    doc.tok[0].type == JSMN_ARRAY && doc.tok[0].size > 0)
			*ndev = doc.tok[0].size;
	} else if (n == 15 && memcmp(s, "distributedInfo", n) == 0) {
		if ((s = tl_trace_str(tr, TL_C_ARGS, &n)) == NULL ||
		    tl_json_parse(&doc, s, n) < 0 ||
		    doc.tok[0].type != JSMN_OBJECT)
			return;
		for (i = 1; i + 1 < doc.ntok; i = tl_jskip(&doc, i + 1)) {
			int64_t *v = tl_jeq(&doc, i, "world_size") ? world :
			    tl_jeq(&doc, i, "rank") ? drank : NULL;

			if (v != NULL && (doc.tok[i + 1].type != JSMN_PRIMITIVE ||
			    tl_parse_i64(doc.js + doc.tok[i + 1].start,
			    (size_t)(doc.tok[i + 1].end - doc.tok[i + 1].start),
			    v) < 0 || *v < 0))
				*v = -1;
		}
	}
}

static void
event(struct tl_trace *tr)
{
	const char *s, *cat;
	size_t n, cn;
	int64_t uid = tl_trace_uid(tr), ts, dur;
	struct hrow *r;
	int hasts, kind;

	s = tl_trace_str(tr, TL_C_NAME, &n);
	if (s == NULL)
		s = "", n = 0;
	kind = tr->kind == TL_K_KERNEL ? kindof(s, n) : -1;
	if (kind >= 0 && (kind & KCOMM) &&
	    (tl_trace_raw(tr, TL_C_CORR, &cn) != NULL ||
	    tl_trace_raw(tr, TL_C_EXT, &cn) != NULL))
		collrow(tr, uid);
	cat = tl_trace_raw(tr, TL_C_CAT, &cn);
	if (!tl_trace_i64(tr, TL_C_DUR, &dur) || cat == NULL ||
	    (cn == 5 && memcmp(cat, "Trace", 5) == 0))
		return;
	hasts = tl_trace_i64(tr, TL_C_TS, &ts);
	if (!hasts || ts % 1000 != 0)	/* HTA: a ts column not integral */
		frac = 1;
	if (!hasts)
		return;
	if (ts > TMAX || ts < -TMAX || dur > TMAX || dur < -TMAX) {
		tl_warns(&warns, "%s: event %" PRId64 ": ts_ns or dur_ns "
		    "beyond 2^62 ns, left out", tr->name, uid);
		return;
	}
	xgrow(&rows, &caprows, nrows + 1, sizeof *rows);
	r = &rows[nrows++];
	r->ts = ts;
	r->dur = dur;
	r->uid = uid;
	r->stream = intor(tr, TL_C_STREAM, -1);
	r->corr = intor(tr, TL_C_CORR, -1);
	r->gpu = (r->stream >= 0 && r->corr >= 0) ||
	    (n == 10 && memcmp(s, "Event Sync", 10) == 0) ||
	    (n == 12 && memcmp(s, "Context Sync", 12) == 0);
	/* the type of the rows the tables use only */
	if (r->stream != -1 && kind < 0)
		kind = kindof(s, n);
	r->type = (uint8_t)(r->stream != -1 ? kind & ~KCOMM : K_OTHER);
	r->nccl = prefix(s, n, "ncclKernel") ? tl_intern(names, s, n) : NONE;
	r->stepno = r->gpu ? -1 : stepno(s, n);
	r->step = r->stepno >= 0;
	r->sname = r->step ? tl_intern(names, s, n) : NONE;
}

static int
cmpcoll(const void *a, const void *b)
{
	const struct coll *x = a, *y = b;

	return (x->uid > y->uid) - (x->uid < y->uid);
}

static int
cmprow(const void *a, const void *b)
{
	const struct hrow *x = a, *y = b;

	return (x->uid > y->uid) - (x->uid < y->uid);
}

/* qsort, after a pass that finds the array sorted already: the rows
 * come in file order, and a trace's correlations mostly increase in it. */
static void
sortif(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *))
{
	const char *p = base;
	size_t i;

	for (i = 1; i < n && cmp(p + (i - 1) * size, p + i * size) <= 0; i++)
		;
	if (i < n)
		qsort(base, n, size, cmp);
}

/* A correlation of a CPU row, for the GPU rows that point to it. */
struct cref {
	int64_t corr, uid, iter;
};

static int
cmpcref(const void *a, const void *b)
{
	const struct cref *x = a, *y = b;

	if (x->corr != y->corr)
		return (x->corr > y->corr) - (x->corr < y->corr);
	return (x->uid > y->uid) - (x->uid < y->uid);
}

static const struct cref *
findcref(const struct cref *c, size_t n, int64_t corr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (c[m].corr < corr)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < n && c[lo].corr == corr ? &c[lo] : NULL;
}

/* The candidates: the last row of a (stream, iteration, name). */
struct cand {
	int64_t stream, iter, uid;
	uint32_t name;
	size_t row;
};

static int
cmpcand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->stream != y->stream)
		return (x->stream > y->stream) - (x->stream < y->stream);
	if (x->iter != y->iter)
		return (x->iter > y->iter) - (x->iter < y->iter);
	if (x->name != y->name)
		return (x->name > y->name) - (x->name < y->name);
	return (x->uid > y->uid) - (x->uid < y->uid);
}

static void
numrow(const char *rank, const char *var, const char *rec, const char *name,
    int64_t iter, int64_t stream, int64_t ts, int64_t dur, int64_t value,
    unsigned has)
{
	char b[5][TL_I64_MAX + 1];
	const char *f[S_NCOL] = { 0 };

	f[S_RANK] = rank;
	f[S_REC] = rec;
	f[S_VARIANT] = var;
	f[S_NAME] = name;
#define NUM(bit, k, col, v) \
	if (has & (bit)) { b[k][tl_fmt_i64(b[k], v)] = '\0'; f[col] = b[k]; }
	NUM(1, 0, S_ITER, iter)
	NUM(2, 1, S_STREAM, stream)
	NUM(4, 2, S_TS, ts)
	NUM(8, 3, S_DUR, dur)
	NUM(16, 4, S_VALUE, value)
#undef NUM
	putrow(f);
}

static int
cmpi64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int
cmpstep(const void *a, const void *b)
{
	const struct hrow *x = *(struct hrow *const *)a;
	const struct hrow *y = *(struct hrow *const *)b;

	if (x->ts != y->ts)
		return (x->ts > y->ts) - (x->ts < y->ts);
	return (x->uid > y->uid) - (x->uid < y->uid);
}

/* The iteration of a CPU row at ts: the step of the latest start whose
 * [ts, ts + dur) holds it; st sorted by start, mx[k] the largest end of
 * st[0..k]. */
static int64_t
iterof(struct hrow **st, const int64_t *mx, size_t nst, int64_t ts)
{
	size_t lo = 0, hi = nst;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (st[m]->ts <= ts)
			lo = m + 1;
		else
			hi = m;
	}
	while (lo-- > 0) {
		if (mx[lo] <= ts)
			break;
		if (ts < st[lo]->ts + st[lo]->dur)
			return st[lo]->stepno;
	}
	return -1;
}

/* The index of iteration it in the sorted itn[0..n), or SIZE_MAX. */
static size_t
itfind(const int64_t *itn, size_t n, int64_t it)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (itn[m] < it)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < n && itn[lo] == it ? lo : SIZE_MAX;
}

/* HTA's numbers of one variant of the rank: keep[i] says which rows. */
static void
variant(const char *rank, const char *var, const unsigned char *keep)
{
	struct tl_iv *iv[4], *tmp;
	size_t nv[4] = { 0, 0, 0, 0 }, i, j, k, nc = 0, ns = 0, nst = 0;
	size_t nit = 0, nord = 0, *ord;
	int64_t first = INT64_MAX, last = INT64_MIN, comm, comp, both, busy;
	int64_t *iter, *mx, *itv, *itn;
	struct cref *cr;
	struct cand *cd;
	struct hrow **st;

	for (j = 0; j < 4; j++)
		iv[j] = xreallocarray(NULL, nrows + 1, sizeof *iv[j]);
	tmp = xreallocarray(NULL, nrows + 1, sizeof *tmp);
	/* the unions: comm, compute, comm and compute, all */
	for (i = 0; i < nrows; i++) {
		const struct hrow *r = &rows[i];
		struct tl_iv v;

		if (!keep[i] || r->stream == -1)
			continue;
		v.start = r->ts;
		v.end = r->ts + (r->dur > 0 ? r->dur : 0);
		if (r->type == K_COMM)
			iv[0][nv[0]++] = v;
		if (r->type == K_COMP)
			iv[1][nv[1]++] = v;
		if (r->type == K_COMM || r->type == K_COMP)
			iv[2][nv[2]++] = v;
		iv[3][nv[3]++] = v;
		if (r->ts < first)
			first = r->ts;
		if (v.end > last)
			last = v.end;
	}
	comm = tl_iv_busy(iv[0], nv[0], tmp);
	comp = tl_iv_busy(iv[1], nv[1], tmp);
	both = tl_iv_busy(iv[2], nv[2], tmp);
	busy = tl_iv_busy(iv[3], nv[3], tmp);
	numrow(rank, var, "hta", "comm_ns", 0, 0, 0, 0, comm, 16);
	numrow(rank, var, "hta", "compute_ns", 0, 0, 0, 0, comp, 16);
	numrow(rank, var, "hta", "overlap_ns", 0, 0, 0, 0, comm + comp - both,
	    16);
	numrow(rank, var, "hta", "busy_ns", 0, 0, 0, 0, busy, 16);
	if (nv[3] > 0) {
		numrow(rank, var, "hta", "first_ns", 0, 0, 0, 0, first, 16);
		numrow(rank, var, "hta", "last_ns", 0, 0, 0, 0, last, 16);
	}
	for (j = 0; j < 4; j++)
		free(iv[j]);
	free(tmp);

	/* iterations: of the kept steps */
	st = xreallocarray(NULL, nrows + 1, sizeof *st);
	for (i = 0; i < nrows; i++)
		if (keep[i] && rows[i].step)
			st[nst++] = &rows[i];
	qsort(st, nst, sizeof *st, cmpstep);
	mx = xreallocarray(NULL, nst + 1, sizeof *mx);
	for (k = 0; k < nst; k++)
		mx[k] = k > 0 && mx[k - 1] > st[k]->ts + st[k]->dur ?
		    mx[k - 1] : st[k]->ts + st[k]->dur;
	iter = xreallocarray(NULL, nrows + 1, sizeof *iter);
	cr = xreallocarray(NULL, nrows + 1, sizeof *cr);
	for (i = 0; i < nrows; i++) {
		iter[i] = -1;
		if (!keep[i] || rows[i].gpu)
			continue;
		iter[i] = iterof(st, mx, nst, rows[i].ts);
		if (rows[i].corr >= 0) {
			cr[nc].corr = rows[i].corr;
			cr[nc].uid = rows[i].uid;
			cr[nc++].iter = iter[i];
		}
	}
	sortif(cr, nc, sizeof *cr, cmpcref);
	cd = xreallocarray(NULL, nrows + 1, sizeof *cd);
	/* the iterations: the kept steps' numbers, each once, sorted; their
	 * rows' span, itv[3k..3k+2] (number, first start, last end), in the
	 * order of their first rows (ord) */
	itn = xreallocarray(NULL, nst + 1, sizeof *itn);
	for (k = 0; k < nst; k++)
		itn[k] = st[k]->stepno;
	qsort(itn, nst, sizeof *itn, cmpi64);
	for (k = 0; k < nst; k++)
		if (nit == 0 || itn[nit - 1] != itn[k])
			itn[nit++] = itn[k];
	itv = xreallocarray(NULL, 3 * (nit + 1), sizeof *itv);
	for (k = 0; k < nit; k++)
		itv[3 * k] = -1;
	ord = xreallocarray(NULL, nit + 1, sizeof *ord);
	for (i = 0; i < nrows; i++) {
		const struct hrow *r = &rows[i];
		int64_t it = iter[i];

		if (!keep[i])
			continue;
		if (r->gpu) {
			const struct cref *c = findcref(cr, nc, r->corr);

			it = c != NULL ? c->iter : -1;
		}
		if (it < 0)
			continue;
		if ((k = itfind(itn, nit, it)) == SIZE_MAX)
			continue;
		if (itv[3 * k] < 0) {
			ord[nord++] = k;
			itv[3 * k] = it;
			itv[3 * k + 1] = r->ts;
			itv[3 * k + 2] = r->ts + r->dur;
		}
		if (r->ts < itv[3 * k + 1])
			itv[3 * k + 1] = r->ts;
		if (r->ts + r->dur > itv[3 * k + 2])
			itv[3 * k + 2] = r->ts + r->dur;
		if (r->nccl != NONE && r->stream > 0 && it > 0) {
			cd[ns].stream = r->stream;
			cd[ns].iter = it;
			cd[ns].uid = r->uid;
			cd[ns].name = r->nccl;
			cd[ns++].row = i;
		}
	}
	for (j = 0; j < nord; j++) {
		k = ord[j];
		numrow(rank, var, "iter", NULL, itv[3 * k], 0, itv[3 * k + 1],
		    itv[3 * k + 2] - itv[3 * k + 1], 0, 1 | 4 | 8);
	}
	qsort(cd, ns, sizeof *cd, cmpcand);
	for (i = 0; i < ns; i++) {
		const char *nm;
		char *e;
		size_t n;

		nm = tl_intern_str(names, cd[i].name, &n);
		e = escdup(nm, n);
		numrow(rank, var, "cand", e, cd[i].iter, cd[i].stream,
		    rows[cd[i].row].ts, rows[cd[i].row].dur, 0, 1 | 2 | 4 | 8);
		free(e);
	}
	free(ord);
	free(itn);
	free(itv);
	free(cd);
	free(cr);
	free(iter);
	free(mx);
	free(st);
}

/* The window: the CPU rows before the last step's start, and the GPU rows
 * their correlations point to; a rank without CPU rows whole. */
static void
window(unsigned char *keep)
{
	int64_t last = INT64_MIN, *corr;
	size_t i, ncpu = 0, nc = 0;
	int minus = 0;

	for (i = 0; i < nrows; i++)
		if (!rows[i].gpu) {
			ncpu++;
			if (rows[i].step && rows[i].ts > last)
				last = rows[i].ts;
		}
	if (ncpu == 0) {
		memset(keep, 1, nrows);
		return;
	}
	corr = xreallocarray(NULL, nrows + 1, sizeof *corr);
	for (i = 0; i < nrows; i++) {
		if (rows[i].gpu)
			continue;
		keep[i] = rows[i].ts < last;
		if (!keep[i])
			continue;
		if (rows[i].corr == -1)
			minus = 1;
		else
			corr[nc++] = rows[i].corr;
	}
	sortif(corr, nc, sizeof *corr, cmpi64);
	for (i = 0; i < nrows; i++)
		if (rows[i].gpu)
			keep[i] = rows[i].corr == -1 ? minus :
			    bsearch(&rows[i].corr, corr, nc, sizeof *corr,
			    cmpi64) != NULL;
	free(corr);
}

/* floor and ceiling of v / 1000, times 1000 */
static int64_t
floork(int64_t v)
{
	int64_t q = v / 1000;

	if (v % 1000 != 0 && v < 0)
		q--;
	return q * 1000;
}

static int64_t
ceilk(int64_t v)
{
	int64_t f = floork(v);

	return f == v ? v : f + 1000;
}

/* The summary of the trace just read. */
static void
finish(const char *trace, int64_t rank, int64_t ndev, int64_t world)
{
	char rb[TL_I64_MAX + 1], db[TL_I64_MAX + 1];
	const char *f[S_NCOL] = { 0 };
	unsigned char *keep;
	size_t i;
	int j;

	rb[tl_fmt_i64(rb, rank)] = '\0';
	f[S_RANK] = rb;
	f[S_REC] = "trace";
	f[S_TRACE] = escdup(trace, strlen(trace));
	if (ndev > 0) {
		db[tl_fmt_i64(db, ndev)] = '\0';
		f[S_VALUE] = db;
	}
	putrow(f);
	free((char *)f[S_TRACE]);
	if (world >= 0)
		numrow(rb, NULL, "world_size", NULL, 0, 0, 0, 0, world, 16);
	if (ncolls > 0)
		qsort(colls, ncolls, sizeof *colls, cmpcoll);
	for (i = 0; i < ncolls; i++) {
		colls[i].f[S_RANK] = rb;
		colls[i].f[S_REC] = "coll";
		putrow(colls[i].f);
		for (j = 0; j < S_NCOL; j++)
			if (j != S_RANK && j != S_REC)
				free((char *)colls[i].f[j]);
	}
	for (i = 1; i < nrows && rows[i - 1].uid <= rows[i].uid; i++)
		;
	if (i < nrows)		/* a tree stream's order: back to file order */
		qsort(rows, nrows, sizeof *rows, cmprow);
	if (frac)	/* HTA: ts up, ends down, to whole microseconds */
		for (i = 0; i < nrows; i++) {
			int64_t e = floork(rows[i].ts + rows[i].dur);

			rows[i].ts = ceilk(rows[i].ts);
			rows[i].dur = e - rows[i].ts;
		}
	for (i = 0; i < nrows; i++)
		if (rows[i].step) {
			size_t n;
			const char *s = tl_intern_str(names, rows[i].sname, &n);
			char *e = escdup(s, n);

			numrow(rb, NULL, "step", e, rows[i].stepno, 0,
			    rows[i].ts, rows[i].dur, 0, 1 | 4 | 8);
			free(e);
		}
	keep = xmalloc(nrows + 1);
	memset(keep, 1, nrows + 1);
	variant(rb, "all", keep);
	window(keep);
	variant(rb, "window", keep);
	free(keep);
	ncolls = nrows = 0;
	frac = 0;
}

/* The summaries of the traces tr reads, on out (its header written). */
static void
traces(struct tl_trace *tr, long rankopt)
{
	int r;

	if (names == NULL) {
		names = tl_intern_new();
		knames = tl_intern_new();
	}
	while (tl_trace_next(tr)) {
		int64_t rank = -1, ndev = 0, world = -1, drank = -1, v;
		const char *s;
		char q[TL_QUOTE_MAX];
		size_t n;

		if (rankopt >= 0 && tr->ntrace > 1)
			tl_errx(tl_failstatus, "%s: -R names the rank of one "
			    "trace, and the input holds more", tr->name);
		while ((r = tl_trace_row(tr)) != TL_ROW_END) {
			if (rank < 0 && rankopt < 0 &&
			    (s = tl_trace_raw(tr, TL_C_RANK, &n)) != NULL) {
				if (tl_parse_i64(s, n, &v) < 0 || v < 0)
					tl_errx_at(tr->t->name, tr->t->lineno,
					    "column \"rank\": not a rank: "
					    "\"%s\"", tl_quote(q, sizeof q, s,
					    n));
				rank = v;
			}
			if (r == TL_ROW_FACT)
				fact(tr, &ndev, &world, &drank);
			else
				event(tr);
		}
		if (rankopt >= 0)
			rank = rankopt;
		if (rank < 0)
			rank = drank;
		if (rank < 0)
			tl_errx(tl_failstatus, "%s: the rank of the trace is "
			    "not known (no rank column, no distributedInfo "
			    "rank): give it with -R, or run tl-parse -t -r "
			    "REGEX", tr->name);
		finish(tr->name, rank, ndev, world);
	}
}

/* Back to the state before any trace (what a fatal error left too). */
static void
map_reset(void)
{
	size_t i;
	int j;

	for (i = 0; i < ncolls; i++)
		for (j = 0; j < S_NCOL; j++)
			if (j != S_RANK && j != S_REC)
				free((char *)colls[i].f[j]);
	free(rows);
	free(colls);
	rows = NULL;
	colls = NULL;
	nrows = caprows = ncolls = capcolls = 0;
	tl_json_free(&doc);
	memset(&doc, 0, sizeof doc);
	tl_intern_free(names);
	tl_intern_free(knames);
	names = knames = NULL;
	free(ktypes);
	ktypes = NULL;
	capk = 0;
	frac = 0;
	warns.n = 0;
}

int
rank_map(int nops, char **ops, int eflag, long rankopt)
{
	struct tl_trace *tr;
	int status;

	tr = tl_trace_open(nops, ops, eflag ? TL_S_EVENT : TL_S_TREE,
	    MAP_NEED, MAP_USE);
	tl_out_init(&out, 1, "<stdout>");
	tl_out_header(&out, sumcol);
	traces(tr, rankopt);
	status = tr->status;
	tl_trace_close(tr);
	tl_warns_end(&warns, "tl-ranks -m");
	tl_out_close(&out);
	map_reset();
	return status;
}
