/*
 * tl-ranks: the cross-rank stage. The summaries of all ranks (map.c)
 * in; TraceLens's collective report (nccl_long, nccl_summary_long,
 * nccl_implicit_sync and its summary, straggler_summary, the
 * all_to_allv tables) and HTA's cross-rank tables out. Memory: the
 * collective kernels of all ranks (struct crow) and one record per
 * collective instance; nothing of the traces.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/input.h"
#include "../../common/intern.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/pyfmt.h"
#include "../../common/stats.h"
#include "ranks.h"

#define NONE	UINT32_MAX

long j_world = -1, j_gpn = -1;
int j_heatmap;
char **j_metrics;
size_t j_nmetrics;

/* A collective kernel of a rank. */
struct crow {
	uint32_t meta[9];	/* interned JSON text; NONE: null */
	uint32_t stream;	/* interned, NONE */
	uint32_t name;		/* the kernel's */
	uint32_t rk;		/* its rank's index in rks */
	uint32_t pg;		/* interned Process Group Name text */
	uint32_t inst;		/* its instance */
	uint32_t next;		/* the next rank's row of the instance */
	int64_t ts, dur;	/* ns */
	int64_t idx;		/* index_in_group */
};

/* A rank. */
struct rk {
	int64_t rank, ndev, world;
	const char *trace, *src;
	uint64_t line;
	size_t c0, nc;		/* its rows: rows[c0..c0+nc) of order */
	int64_t hta[2][6];
	unsigned hhas[2];
	int wcol;		/* straggler: its wait column, or -1 */
};

/* A collective instance: the rows of one collective_id. */
struct inst {
	uint32_t first, last;	/* crow indexes */
	uint32_t pg;
	int64_t idx;
};

/* HTA's iteration extents and candidate kernels. */
struct itrec {
	int64_t rank, iter, ts, dur;
	int var;
};
struct cdrec {
	int64_t rank, iter, stream, ts, dur, order;
	uint32_t name;
	int var;
};

static struct tl_intern *in;
static struct crow *cr;
static size_t ncr, capcr;
static struct rk *rks;
static size_t nrk, caprk;
static struct inst *insts;
static size_t ninst, capinst;
static struct itrec *its;
static size_t nits, capits;
static struct cdrec *cds;
static size_t ncds, capcds;
static uint32_t *order;		/* crow indexes: rank ascending, file order */
static struct val *jcache;
static size_t capj;
static struct tl_out sb;
static int simplified;
/*
 * A float ts or dur anywhere makes pandas's column float64 for every
 * rank: times are written as floats then ("1200.0"), and what is
 * computed from them.
 */
static int tsfloat, durfloat;
#define VT(ns, f)	((f) ? vdbl((double)((ns) / 1000) + \
			    (double)((ns) % 1000) / 1000) : vus(ns))
#define VTS(ns)		VT(ns, tsfloat)
#define VDUR(ns)	VT(ns, durfloat)
#define VEND(ns)	VT(ns, tsfloat || durfloat)
static struct tl_warns warns;
static uint32_t *steps;		/* distinct step names */
static size_t nsteps, capsteps;

static const char *const hname[6] = { "comm_ns", "compute_ns",
    "overlap_ns", "busy_ns", "first_ns", "last_ns" };

/* The value of an interned JSON text, as TraceLens's pandas has it. */
static struct val
jv(uint32_t id)
{
	const char *s;
	size_t n;
	struct val v;

	if (id == NONE)
		return vnone();
	if (id < capj && jcache[id].t != V_NONE + 9)
		return jcache[id];
	if (id >= capj) {
		size_t old = capj, i;

		xgrow(&jcache, &capj, (size_t)id + 1, sizeof *jcache);
		for (i = old; i < capj; i++)
			jcache[i].t = V_NONE + 9;
	}
	s = tl_intern_str(in, id, &n);
	v = vnone();
	if (n > 0 && s[0] == '"' && n >= 2) {
		char *d = xmalloc(n);
		unsigned bad = 0;
		size_t k = tl_junescape(d, s + 1, n - 2, &bad);

		v = vstrn(keep(d, k), k);
		free(d);
	} else if (n > 0 && (s[0] == '-' || isdigit((unsigned char)s[0]))) {
		int64_t i;

		if (tl_parse_i64(s, n, &i) == 0)
			v = vint(i);
		else
			v = vdbl(strtod(s, NULL));
	} else if (n > 0) {
		sb.n = 0;
		if (tl_out_pyjson(&sb, s, n, TL_PY_TUPLES) < 0)
			tl_out_raw(&sb, s, n);
		v = vstrn(keep(sb.buf, sb.n), sb.n);
	}
	jcache[id] = v;
	return v;
}

static uint32_t
jid(const char *s)
{
	return tl_intern(in, s, strlen(s));
}

static double
bpe(uint32_t dtype)
{
	static const struct {
		const char *name;
		double b;
	} t[] = { { "Float", 4 }, { "Int", 4 }, { "Long", 8 },
	    { "BFloat16", 2 }, { "Bool", 1 }, { "Byte", 1 }, { "Double", 8 },
	    { "Half", 2 }, { "Short", 2 } };
	struct val v = jv(dtype);
	size_t i;

	if (v.t != V_STR)
		return NAN;
	for (i = 0; i < sizeof t / sizeof *t; i++)
		if (strlen(t[i].name) == v.n &&
		    memcmp(t[i].name, v.s, v.n) == 0)
			return t[i].b;
	return NAN;
}

static int
icontains(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p), i, j;

	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k; j++)
			if (tolower((unsigned char)s[i + j]) != p[j])
				break;
		if (j == k)
			return 1;
	}
	return 0;
}

/* Collective name, allreduce for a cross_device_reduce kernel. */
static uint32_t
collname(const struct crow *c)
{
	const char *s;
	size_t n;

	if (c->meta[M_COLL] != NONE)
		return c->meta[M_COLL];
	s = tl_intern_str(in, c->name, &n);
	if (icontains(s, n, "cross_device_reduce"))
		return jid("\"allreduce\"");
	return NONE;
}

/* The arguments as the tables show them: the collective name adjusted. */
static uint32_t
meta(const struct crow *c, int k)
{
	return k == M_COLL ? collname(c) : c->meta[k];
}

/* MiB of a kernel's in (w 0) or out (w 1) message. */
static double
mib(const struct crow *c, int w)
{
	struct val v = jv(c->meta[w ? M_OUTNEL : M_INNEL]);

	if (v.t != V_INT && v.t != V_DBL)
		return NAN;
	return vnum(&v) * bpe(c->meta[M_DTYPE]) / 1048576;
}

/* TraceLens's collective types. */
enum { T_NONE, T_ALLREDUCE, T_REDSCAT, T_ALLGATHER, T_ALLTOALL, T_A2AV };

static int
ctype(uint32_t id)
{
	static const struct {
		const char *name;
		int t;
	} t[] = { { "allreduce", T_ALLREDUCE },
	    { "allreduce_coalesced", T_ALLREDUCE },
	    { "reducescatter", T_REDSCAT },
	    { "_reduce_scatter_base", T_REDSCAT },
	    { "reduce_scatter_tensor_coalesced", T_REDSCAT },
	    { "allgather", T_ALLGATHER }, { "all_gather", T_ALLGATHER },
	    { "_allgather_base", T_ALLGATHER },
	    { "all_gather_into_tensor_coalesced", T_ALLGATHER },
	    { "allgather_into_tensor_coalesced", T_ALLGATHER },
	    { "all_to_all", T_ALLTOALL }, { "all_to_allv", T_A2AV } };
	struct val v = jv(id);
	size_t i;

	if (v.t != V_STR)
		return T_NONE;
	for (i = 0; i < sizeof t / sizeof *t; i++)
		if (strlen(t[i].name) == v.n &&
		    memcmp(t[i].name, v.s, v.n) == 0)
			return t[i].t;
	return T_NONE;
}

/* ---- reading the summaries ---- */

static int64_t
num(struct tl_tsv *t, int c, const char *what)
{
	int64_t v;

	if (!tl_tsv_i64(t, c, &v))
		tl_tsv_errx(t, "a %s row without %s", what, sumcol[c]);
	return v;
}

/* A time: within 2^62 ns of 0 (146 years), so that sums and differences
 * of two stay within int64. */
#define TMAX	(INT64_C(1) << 62)

static int64_t
tnum(struct tl_tsv *t, int c, const char *what)
{
	int64_t v = num(t, c, what);

	if (v > TMAX || v < -TMAX)
		tl_tsv_errx(t, "column \"%s\": out of range (2^62 ns): %"
		    PRId64, sumcol[c], v);
	return v;
}

static uint32_t
text(struct tl_tsv *t, int c)
{
	const char *s;
	size_t n;

	if ((s = tl_tsv_str(t, c, &n)) == NULL)
		return NONE;
	return tl_intern(in, s, n);
}

/* Field c, NUL-terminated (a copy kept until the end), or NULL. */
static const char *
fstr(struct tl_tsv *t, int c)
{
	const char *s;
	size_t n;

	if ((s = tl_tsv_str(t, c, &n)) == NULL)
		return NULL;
	return keep(s, n);
}

/* Field c, NUL-terminated in buf (cut to its size), or NULL. */
static const char *
fbuf(struct tl_tsv *t, int c, char *buf, size_t cap)
{
	const char *s;
	size_t n;

	if ((s = tl_tsv_str(t, c, &n)) == NULL)
		return NULL;
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

static void
loadrow(struct tl_tsv *t, const int *col, struct rk **cur)
{
	char rb[32], vb[32], nb[32];
	const char *rec;
	size_t n;
	int64_t rank = num(t, col[S_RANK], "summary");
	int var = -1;
	int k;

	rec = fbuf(t, col[S_REC], rb, sizeof rb);
	if (rec == NULL)
		tl_tsv_errx(t, "column \"rec\": empty");
	if (strcmp(rec, "trace") == 0) {
		const char *s = fstr(t, col[S_TRACE]);
		size_t i;

		for (i = 0; i < nrk; i++)
			if (rks[i].rank == rank)
				tl_tsv_errx(t, "rank %" PRId64 ": a second "
				    "trace, %s; the first is %s (%s:%" PRIu64
				    ")", rank, s != NULL ? s : "(unnamed)",
				    rks[i].trace, rks[i].src, rks[i].line);
		xgrow(&rks, &caprk, nrk + 1, sizeof *rks);
		*cur = &rks[nrk++];
		memset(*cur, 0, sizeof **cur);
		(*cur)->rank = rank;
		(*cur)->trace = keep(s != NULL ? s : t->name,
		    strlen(s != NULL ? s : t->name));
		(*cur)->src = keep(t->name, strlen(t->name));
		(*cur)->line = t->lineno;
		(*cur)->world = -1;
		if (!tl_tsv_i64(t, col[S_VALUE], &(*cur)->ndev))
			(*cur)->ndev = 0;
		return;
	}
	if (*cur == NULL || (*cur)->rank != rank)
		tl_tsv_errx(t, "a \"%s\" row of rank %" PRId64 " outside its "
		    "rank's rows (a summary starts each rank with its trace "
		    "row)", rec, rank);
	if (strcmp(rec, "world_size") == 0) {
		(*cur)->world = num(t, col[S_VALUE], rec);
		return;
	}
	if (strcmp(rec, "coll") == 0) {
		struct crow *c;

		xgrow(&cr, &capcr, ncr + 1, sizeof *cr);
		c = &cr[ncr++];
		c->ts = tnum(t, col[S_TS], rec);
		c->dur = tnum(t, col[S_DUR], rec);
		c->stream = text(t, col[S_STREAM]);
		c->name = text(t, col[S_NAME]);
		if (c->name == NONE)
			c->name = jid("");
		for (k = 0; k < 9; k++) {
			c->meta[k] = text(t, col[S_META + k]);
			if (c->meta[k] != NONE) {
				const char *s = tl_intern_str(in, c->meta[k],
				    &n);
				struct tl_jdoc d = { 0 };

				if (strcmp(s, "null") == 0)
					c->meta[k] = NONE;
				else if (tl_json_parse(&d, s, n) < 0 ||
				    tl_jskip(&d, 0) != d.ntok)
					tl_tsv_errx(t, "column \"%s\": not "
					    "one JSON value",
					    sumcol[S_META + k]);
				tl_json_free(&d);
			}
		}
		if (c->ts % 1000 != 0)
			tsfloat = 1;
		if (c->dur % 1000 != 0)
			durfloat = 1;
		c->rk = (uint32_t)(*cur - rks);
		(*cur)->nc++;
		return;
	}
	if (strcmp(rec, "step") == 0) {
		uint32_t s = text(t, col[S_NAME]);
		size_t i;

		for (i = 0; i < nsteps && steps[i] != s; i++)
			;
		if (i == nsteps) {
			xgrow(&steps, &capsteps, nsteps + 1, sizeof *steps);
			steps[nsteps++] = s;
		}
		return;
	}
	if (strcmp(rec, "hta") != 0 && strcmp(rec, "iter") != 0 &&
	    strcmp(rec, "cand") != 0)
		tl_tsv_errx(t, "column \"rec\": unknown record \"%.20s\"",
		    rec);
	{
		const char *v = fbuf(t, col[S_VARIANT], vb, sizeof vb);

		if (v != NULL && strcmp(v, "all") == 0)
			var = 0;
		else if (v != NULL && strcmp(v, "window") == 0)
			var = 1;
		else
			tl_tsv_errx(t, "column \"variant\": not all or "
			    "window");
	}
	if (strcmp(rec, "hta") == 0) {
		const char *s = fbuf(t, col[S_NAME], nb, sizeof nb);

		for (k = 0; k < 6; k++)
			if (s != NULL && strcmp(s, hname[k]) == 0)
				break;
		if (k == 6)
			tl_tsv_errx(t, "an hta row of an unknown name");
		(*cur)->hta[var][k] = num(t, col[S_VALUE], rec);
		(*cur)->hhas[var] |= 1u << k;
	} else if (strcmp(rec, "iter") == 0) {
		struct itrec *r;

		xgrow(&its, &capits, nits + 1, sizeof *its);
		r = &its[nits++];
		r->rank = rank;
		r->var = var;
		r->iter = num(t, col[S_ITER], rec);
		r->ts = tnum(t, col[S_TS], rec);
		r->dur = tnum(t, col[S_DUR], rec);
	} else if (strcmp(rec, "cand") == 0) {
		struct cdrec *r;

		xgrow(&cds, &capcds, ncds + 1, sizeof *cds);
		r = &cds[ncds++];
		r->rank = rank;
		r->var = var;
		r->iter = num(t, col[S_ITER], rec);
		r->stream = num(t, col[S_STREAM], rec);
		r->ts = tnum(t, col[S_TS], rec);
		r->dur = tnum(t, col[S_DUR], rec);
		r->name = text(t, col[S_NAME]);
		r->order = (int64_t)ncds;
	}
}

/* The stream being read: closed by join_reset after a fatal error. */
static struct tl_tsv *jt;

int
join_src(struct tl_src *src)
{
	int k, r, col[S_NCOL];
	struct tl_tsv *t;
	struct rk *cur;

	if (in == NULL) {
		in = tl_intern_new();
		tl_out_init(&sb, -1, "<memory>");
	}
	while ((r = tl_src_next(src)) > 0) {
		t = jt = tl_tsv_open(src);
		for (k = 0; k < S_NCOL; k++)
			col[k] = tl_tsv_need(t, sumcol[k]);
		cur = NULL;
		while (tl_tsv_next(t))
			loadrow(t, col, &cur);
		tl_tsv_close(t);
		jt = NULL;
	}
	return r < 0;
}

static int
load(int nops, char **ops)
{
	static char *const dash[] = { "-" };
	int i, status = 0;
	struct tl_src *src;

	if (nops == 0) {
		nops = 1;
		ops = (char **)dash;
	}
	for (i = 0; i < nops; i++) {
		if ((src = tl_src_open(ops[i])) == NULL) {
			status = 1;
			continue;
		}
		status |= join_src(src);
		tl_src_close(src);
	}
	return status;
}

/* ---- the checks of the run ---- */

static int
cmprk(const void *a, const void *b)
{
	const struct rk *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

static void
checkranks(void)
{
	size_t i;
	uint32_t *map;

	/* sort the ranks; the rows follow by their rank's new index */
	map = xreallocarray(NULL, nrk + 1, sizeof *map);
	for (i = 0; i < nrk; i++)
		rks[i].c0 = i;	/* old index, for a moment */
	qsort(rks, nrk, sizeof *rks, cmprk);
	for (i = 0; i < nrk; i++)
		map[rks[i].c0] = (uint32_t)i;
	for (i = 0; i < ncr; i++)
		cr[i].rk = map[cr[i].rk];
	free(map);
	if (j_world >= 0) {
		int64_t r = 0;

		for (i = 0; i < nrk; i++) {
			if (rks[i].rank >= j_world)
				tl_errx(tl_failstatus, "rank %" PRId64 " (%s): "
				    "not below the world size %ld",
				    rks[i].rank, rks[i].trace, j_world);
			if (rks[i].world >= 0 && rks[i].world != j_world)
				tl_warns(&warns, "rank %" PRId64 " (%s): world "
				    "size %" PRId64 " in the trace, %ld given: "
				    "the ranks are a part of the run, or not "
				    "of one run", rks[i].rank, rks[i].trace,
				    rks[i].world, j_world);
		}
		for (i = 0; i < nrk && r < j_world; i++, r++)
			if (rks[i].rank != r)
				break;
		if (r < j_world)
			tl_errx(tl_failstatus, "rank %" PRId64 " of the world "
			    "of %ld is missing: no trace has it", r, j_world);
	}
	for (i = 0; i < nrk; i++)
		if (rks[i].nc == 0)
			tl_warns(&warns, "rank %" PRId64 " (%s): no collective "
			    "kernels", rks[i].rank, rks[i].trace);
}

/* Rows in rank order, file order within a rank. */
static void
ordering(void)
{
	size_t i, *at = xcalloc(nrk + 1, sizeof *at);

	for (i = 0; i < ncr; i++)
		at[cr[i].rk + 1]++;
	for (i = 0; i < nrk; i++) {
		at[i + 1] += at[i];
		rks[i].c0 = at[i];
	}
	order = xreallocarray(NULL, ncr + 1, sizeof *order);
	for (i = 0; i < ncr; i++)
		order[at[cr[i].rk]++] = (uint32_t)i;
	free(at);
}

static int
isunknown(uint32_t id)
{
	struct val v = jv(id);

	return id == NONE || (v.t == V_STR && v.n == 13 &&
	    memcmp(v.s, "Unknown_Group", 13) == 0);
}

/* A cell's text as str() gives it, for collective_id. */
static const char *
celltext(struct val v, char *buf)
{
	if (v.t == V_STR)
		return v.s;
	if (v.t == V_INT) {
		buf[tl_fmt_i64(buf, v.i)] = '\0';
		return buf;
	}
	if (v.t == V_DBL) {
		tl_py_float(buf, TL_PY_FLOATMAX, v.d);
		return buf;
	}
	return "nan";
}

static const struct crow *sortbase;

static int
cmpgroup(const void *a, const void *b)
{
	const struct crow *x = &sortbase[*(const uint32_t *)a];
	const struct crow *y = &sortbase[*(const uint32_t *)b];

	if (x->pg != y->pg)
		return x->pg < y->pg ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* Simplified or not, index_in_group and the instances. */
static void
match(void)
{
	size_t i, j, r, hcap, *ht;
	uint32_t all = jid("\"all\""), unk = jid("\"Unknown_Group\"");
	uint32_t *tmp;
	char buf[TL_PY_FLOATMAX];

	simplified = 1;
	for (i = 0; i < ncr && simplified; i++)
		if (!isunknown(cr[i].meta[M_PGNAME]))
			simplified = 0;
	for (r = 0; r < nrk && simplified; r++) {
		uint32_t s = NONE;

		for (j = 0; j < rks[r].nc; j++) {
			const struct crow *c = &cr[order[rks[r].c0 + j]];

			if (c->stream == NONE)
				continue;
			if (s != NONE && c->stream != s)
				simplified = 0;
			s = c->stream;
		}
	}
	for (i = 0; i < ncr; i++)
		cr[i].pg = simplified ? all : cr[i].meta[M_PGNAME] == NONE ?
		    unk : cr[i].meta[M_PGNAME];
	tmp = xreallocarray(NULL, ncr + 1, sizeof *tmp);
	sortbase = cr;
	for (r = 0; r < nrk; r++) {
		size_t n = rks[r].nc;
		int64_t k = 0;

		memcpy(tmp, order + rks[r].c0, n * sizeof *tmp);
		qsort(tmp, n, sizeof *tmp, cmpgroup);
		for (j = 0; j < n; j++) {
			if (j > 0 && cr[tmp[j]].pg != cr[tmp[j - 1]].pg)
				k = 0;
			cr[tmp[j]].idx = k++;
		}
	}
	free(tmp);
	/* instances, in order of first appearance */
	hcap = 64;
	while (hcap < 2 * ncr + 2)
		hcap *= 2;
	ht = xreallocarray(NULL, hcap, sizeof *ht);
	for (i = 0; i < hcap; i++)
		ht[i] = SIZE_MAX;
	for (i = 0; i < ncr; i++) {
		struct crow *c = &cr[order[i]];
		uint64_t h = tl_hash64(((uint64_t)c->pg << 32) ^
		    (uint64_t)c->idx);
		size_t p = h & (hcap - 1);

		while (ht[p] != SIZE_MAX && (insts[ht[p]].pg != c->pg ||
		    insts[ht[p]].idx != c->idx))
			p = (p + 1) & (hcap - 1);
		c->next = NONE;
		if (ht[p] == SIZE_MAX) {
			xgrow(&insts, &capinst, ninst + 1, sizeof *insts);
			ht[p] = ninst;
			insts[ninst].first = insts[ninst].last = order[i];
			insts[ninst].pg = c->pg;
			insts[ninst].idx = c->idx;
			ninst++;
		} else {
			cr[insts[ht[p]].last].next = order[i];
			insts[ht[p]].last = order[i];
		}
		c->inst = (uint32_t)ht[p];
	}
	free(ht);
	/* a rank with fewer kernels of a group than another: the ids
	 * after the first missing one are shifted (as TraceLens has it) */
	{
		struct pgmax {
			uint32_t pg;
			int64_t n;
			size_t rk;
		} *pm = NULL;
		size_t npm = 0, cap = 0, k;

		for (i = 0; i < ncr; i++) {
			for (k = 0; k < npm && pm[k].pg != cr[i].pg; k++)
				;
			if (k == npm) {
				xgrow(&pm, &cap, npm + 1, sizeof *pm);
				pm[npm].pg = cr[i].pg;
				pm[npm].n = -1;
				npm++;
			}
			if (cr[i].idx > pm[k].n) {
				pm[k].n = cr[i].idx;
				pm[k].rk = cr[i].rk;
			}
		}
		for (r = 0; r < nrk; r++)
			for (k = 0; k < npm; k++) {
				int64_t n = 0;

				for (j = 0; j < rks[r].nc; j++) {
					const struct crow *c =
					    &cr[order[rks[r].c0 + j]];

					if (c->pg == pm[k].pg && c->idx + 1 > n)
						n = c->idx + 1;
				}
				if (n > 0 && n < pm[k].n + 1)
					tl_warns(&warns, "rank %" PRId64 " (%s): "
					    "%" PRId64 " collective kernels of "
					    "group %s, rank %" PRId64 " has %"
					    PRId64 ": the ids after the first "
					    "one missing are shifted",
					    rks[r].rank, rks[r].trace,
					    n, celltext(jv(pm[k].pg), buf),
					    rks[pm[k].rk].rank, pm[k].n + 1);
			}
		free(pm);
	}
}

/* ---- TraceLens's tables ---- */

static const char **instid;	/* collective_id of each instance */

static void
ids(void)
{
	char buf[TL_PY_FLOATMAX], nb[TL_I64_MAX + 1];
	size_t i;

	instid = xreallocarray(NULL, ninst + 1, sizeof *instid);
	for (i = 0; i < ninst; i++) {
		nb[tl_fmt_i64(nb, insts[i].idx)] = '\0';
		if (simplified)
			instid[i] = keep(nb, strlen(nb));
		else {
			sb.n = 0;
			tl_out_raw(&sb, celltext(jv(insts[i].pg), buf),
			    strlen(celltext(jv(insts[i].pg), buf)));
			tl_out_char(&sb, '_');
			tl_out_raw(&sb, nb, strlen(nb));
			instid[i] = keep(sb.buf, sb.n);
		}
	}
}

/*
 * In the simplified mode nothing of an instance is checked: a kernel
 * whose name is not the lowest rank's says that the ranks' collectives
 * are not in one order (TraceLens matches them all the same). A warning,
 * at the first such instance of each rank.
 */
static void
ordercheck(void)
{
	char b1[TL_QUOTE_MAX], b2[TL_QUOTE_MAX];
	unsigned char *warned;
	const char *s1, *s2;
	size_t ii, n1, n2;

	if (!simplified)
		return;
	warned = xcalloc(nrk + 1, 1);
	for (ii = 0; ii < ninst; ii++) {
		const struct crow *ref = &cr[insts[ii].first], *c = ref;

		while (c->next != NONE) {
			c = &cr[c->next];
			if (c->name == ref->name || warned[c->rk])
				continue;
			warned[c->rk] = 1;
			s1 = tl_intern_str(in, ref->name, &n1);
			s2 = tl_intern_str(in, c->name, &n2);
			tl_warns(&warns, "rank %" PRId64 " (%s): collective ID "
			    "%s is %s here, %s on rank %" PRId64 ": the ranks' "
			    "collectives are not in one order, and are "
			    "matched by position all the same",
			    rks[c->rk].rank, rks[c->rk].trace, instid[ii],
			    tl_quote(b2, sizeof b2, s2, n2),
			    tl_quote(b1, sizeof b1, s1, n1),
			    rks[ref->rk].rank);
		}
	}
	free(warned);
}

static void
addcols(struct table *t, const char *const *c)
{
	for (; *c != NULL; c++)
		tab_addcol(t, *c);
}

static const char *
fmtcol(const char *a, int64_t r, const char *b)
{
	char buf[256];

	snprintf(buf, sizeof buf, "%s%" PRId64 "%s", a, r, b);
	return keep(buf, strlen(buf));
}

static struct val
nodespan(uint32_t id)
{
	const char *s;
	size_t n, i;
	int64_t node = -1;
	int any = 0, inter = 0;

	if (id == NONE)
		return vstr("unknown");
	s = tl_intern_str(in, id, &n);
	for (i = 0; i < n; i++) {
		int64_t v = 0;

		if (!isdigit((unsigned char)s[i]))
			continue;
		while (i < n && isdigit((unsigned char)s[i])) {
			if (v < INT64_MAX / 10 - 10)
				v = v * 10 + (s[i] - '0');
			i++;
		}
		if (any && v / j_gpn != node)
			inter = 1;
		node = v / j_gpn;
		any = 1;
	}
	if (!any)
		return vstr("unknown");
	return vstr(inter ? "inter_node" : "intra_node");
}

static struct val
vmib(double x)
{
	return vdbl(x);
}

static void
t_long(struct table *t)
{
	static const char *const cols[] = { "collective_id",
	    "index_in_group", "rank", "Process Group Name",
	    "Process Group Ranks", "Collective name", "Group size", "dtype",
	    "In msg nelems", "In msg size (MB)", "Out msg nelems",
	    "Out msg size (MB)", "In split size", "Out split size", "stream",
	    "ts", "dur", NULL };
	size_t i;

	t->name = "nccl_long";
	addcols(t, cols);
	if (j_gpn > 0 && ncr > 0) {
		tab_addcol(t, "node_id");
		tab_addcol(t, "node_span");
	}
	for (i = 0; i < ncr; i++) {
		const struct crow *c = &cr[order[i]];
		struct val *v = tab_newrow(t);

		v[0] = vstr(instid[c->inst]);
		v[1] = vint(c->idx);
		v[2] = vint(rks[c->rk].rank);
		v[3] = jv(c->pg);
		v[4] = jv(c->meta[M_PGRANKS]);
		v[5] = jv(collname(c));
		v[6] = jv(c->meta[M_GSIZE]);
		v[7] = jv(c->meta[M_DTYPE]);
		v[8] = jv(c->meta[M_INNEL]);
		v[9] = vmib(mib(c, 0));
		v[10] = jv(c->meta[M_OUTNEL]);
		v[11] = vmib(mib(c, 1));
		v[12] = jv(c->meta[M_INSPLIT]);
		v[13] = jv(c->meta[M_OUTSPLIT]);
		v[14] = jv(c->stream);
		v[15] = VTS(c->ts);
		v[16] = VDUR(c->dur);
		if (j_gpn > 0) {
			v[17] = vint(rks[c->rk].rank / j_gpn);
			v[18] = nodespan(c->meta[M_PGRANKS]);
		}
	}
}

/* Order of cells as pandas sorts group keys: numbers, then text. */
static int
cmpval(const struct val *a, const struct val *b)
{
	int ka = a->t == V_STR ? 1 : a->t == V_NONE ? 2 : 0;
	int kb = b->t == V_STR ? 1 : b->t == V_NONE ? 2 : 0;
	int c;

	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (ka == 0)
		return (vnum(a) > vnum(b)) - (vnum(a) < vnum(b));
	if (ka == 1) {
		c = memcmp(a->s, b->s, a->n < b->n ? a->n : b->n);
		if (c != 0)
			return c;
		return (a->n > b->n) - (a->n < b->n);
	}
	return 0;
}

/* Groups: key cells per group, members in row order. */
struct groups {
	size_t nkey, n, cap;
	struct val *key;	/* n * nkey */
	size_t **mem;
	size_t *nmem, *capmem;
	double *sortv;
};

static size_t
gfind(struct groups *g, const struct val *k)
{
	size_t i, j;

	for (i = 0; i < g->n; i++) {
		for (j = 0; j < g->nkey; j++)
			if (cmpval(&g->key[i * g->nkey + j], &k[j]) != 0)
				break;
		if (j == g->nkey)
			return i;
	}
	xgrow(&g->key, &g->cap, (g->n + 1) * g->nkey + 1, sizeof *g->key);
	memcpy(&g->key[g->n * g->nkey], k, g->nkey * sizeof *k);
	g->mem = xreallocarray(g->mem, g->n + 1, sizeof *g->mem);
	g->nmem = xreallocarray(g->nmem, g->n + 1, sizeof *g->nmem);
	g->capmem = xreallocarray(g->capmem, g->n + 1, sizeof *g->capmem);
	g->mem[g->n] = NULL;
	g->nmem[g->n] = g->capmem[g->n] = 0;
	return g->n++;
}

static void
gadd(struct groups *g, const struct val *k, size_t row)
{
	size_t i = gfind(g, k);

	xgrow(&g->mem[i], &g->capmem[i], g->nmem[i] + 1, sizeof **g->mem);
	g->mem[i][g->nmem[i]++] = row;
}

static void
gfree(struct groups *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->mem[i]);
	free(g->mem);
	free(g->nmem);
	free(g->capmem);
	free(g->key);
	free(g->sortv);
	memset(g, 0, sizeof *g);
}

static const struct groups *gsort;

static int
cmpgkey(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b, j;
	int c;

	for (j = 0; j < gsort->nkey; j++)
		if ((c = cmpval(&gsort->key[x * gsort->nkey + j],
		    &gsort->key[y * gsort->nkey + j])) != 0)
			return c;
	return 0;
}

static int
cmpsortv(const void *a, const void *b)
{
	const size_t *x = a, *y = b;
	double u = gsort->sortv[x[0]], v = gsort->sortv[y[0]];

	if (u != v)
		return u > v ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* The groups in ascending key order, then by sortv descending (stable). */
static size_t *
gorder(struct groups *g)
{
	size_t *o = xreallocarray(NULL, g->n + 1, sizeof *o);
	size_t *p = xreallocarray(NULL, 2 * g->n + 1, sizeof *p), i;

	for (i = 0; i < g->n; i++)
		o[i] = i;
	gsort = g;
	qsort(o, g->n, sizeof *o, cmpgkey);
	for (i = 0; i < g->n; i++) {
		p[2 * i] = o[i];
		p[2 * i + 1] = i;
	}
	qsort(p, g->n, 2 * sizeof *p, cmpsortv);
	for (i = 0; i < g->n; i++)
		o[i] = p[2 * i];
	free(p);
	return o;
}

/* Statistics of times (ns): integers stay integers. */
enum { ST_MEAN, ST_MEDIAN, ST_MIN, ST_MAX, ST_STD, ST_SUM, ST_COUNT };

static struct val
stat(int which, const struct val *v, size_t n)
{
	double *d = xreallocarray(NULL, n + 1, sizeof *d);
	size_t i, k = 0;
	struct tl_stats st;
	struct val r = vnone();
	int allint = 1;

	for (i = 0; i < n; i++)
		if (v[i].t == V_INT || v[i].t == V_DBL) {
			d[k++] = vnum(&v[i]);
			if (v[i].t != V_INT)
				allint = 0;
		} else
			allint = 0;
	tl_stats(&st, d, k);
	switch (which) {
	case ST_MEAN:
		r = vdbl(st.mean);
		break;
	case ST_MEDIAN:
		r = vdbl(st.median);
		break;
	case ST_STD:
		r = vdbl(st.std);
		break;
	case ST_COUNT:
		r = vint((int64_t)k);
		break;
	case ST_MIN:
	case ST_MAX:
	case ST_SUM:
		if (which == ST_SUM && k == 0) {
			r = allint ? vint(0) : vdbl(0);
			break;
		}
		r = vdbl(which == ST_MIN ? st.min : which == ST_MAX ? st.max :
		    st.sum);
		if (allint && k > 0 && r.t == V_DBL) {
			int64_t s = 0;

			if (which == ST_SUM) {
				for (i = 0; i < n; i++)
					s += v[i].i;
			} else
				s = (int64_t)r.d;
			r = vint(s);
		}
	}
	free(d);
	return r;
}

/* The sum of v[0..n), as a number for sorting. */
static double
sumof(const struct val *v, size_t n)
{
	struct val r = stat(ST_SUM, v, n);

	return vnum(&r);
}

static int
metricnum(const char *m)
{
	static const char *const names[] = { "mean", "median", "min", "max",
	    "std", "sum", "count", NULL };
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(m, names[i]) == 0)
			return i;
	return -1;
}

static void
t_summary_long(struct table *t)
{
	static const char *const cols[] = { "rank", "Process Group Name",
	    "Process Group Ranks", "Collective name", "Group size", "dtype",
	    "In msg nelems", "Out msg nelems", "In split size",
	    "Out split size", "stream", "In msg size (MB)_first",
	    "Out msg size (MB)_first", "dur_sum", "dur_mean", "dur_std",
	    "dur_min", "dur_max", "operation_count", NULL };
	static const int mk[] = { M_PGNAME, M_PGRANKS, M_COLL, M_GSIZE,
	    M_DTYPE, M_INNEL, M_OUTNEL, M_INSPLIT, M_OUTSPLIT };
	struct groups g = { 11, 0, 0, NULL, NULL, NULL, NULL, NULL };
	struct val k[11], *dv;
	size_t i, j, *o;

	t->name = "nccl_summary_long";
	addcols(t, cols);
	for (i = 0; i < ncr; i++) {
		const struct crow *c = &cr[order[i]];
		int miss = c->stream == NONE;

		k[0] = vint(rks[c->rk].rank);
		for (j = 0; j < 9; j++) {
			uint32_t id = mk[j] == M_PGNAME ? c->pg : meta(c, mk[j]);

			k[1 + j] = jv(id);
			if (id == NONE)
				miss = 1;
		}
		k[10] = jv(c->stream);
		if (!miss)
			gadd(&g, k, order[i]);
	}
	if (j_gpn > 0 && g.n > 0) {
		tab_addcol(t, "node_id");
		tab_addcol(t, "node_span");
	}
	g.sortv = xreallocarray(NULL, g.n + 1, sizeof *g.sortv);
	dv = xreallocarray(NULL, ncr + 1, sizeof *dv);
	for (i = 0; i < g.n; i++) {
		for (j = 0; j < g.nmem[i]; j++)
			dv[j] = VDUR(cr[g.mem[i][j]].dur);
		g.sortv[i] = sumof(dv, g.nmem[i]);
	}
	o = gorder(&g);
	for (i = 0; i < g.n; i++) {
		size_t gi = o[i], m = g.nmem[gi];
		struct val *v = tab_newrow(t);
		double f[2] = { NAN, NAN };
		int w;

		memcpy(v, &g.key[gi * 11], 11 * sizeof *v);
		for (w = 0; w < 2; w++)
			for (j = 0; j < m && isnan(f[w]); j++)
				f[w] = mib(&cr[g.mem[gi][j]], w);
		v[11] = vdbl(f[0]);
		v[12] = vdbl(f[1]);
		for (j = 0; j < m; j++)
			dv[j] = VDUR(cr[g.mem[gi][j]].dur);
		v[13] = stat(ST_SUM, dv, m);
		v[14] = stat(ST_MEAN, dv, m);
		v[15] = stat(ST_STD, dv, m);
		v[16] = stat(ST_MIN, dv, m);
		v[17] = stat(ST_MAX, dv, m);
		v[18] = vint((int64_t)m);
		if (j_gpn > 0) {
			const struct crow *c = &cr[g.mem[gi][0]];

			v[19] = vint(rks[c->rk].rank / j_gpn);
			v[20] = nodespan(c->meta[M_PGRANKS]);
		}
	}
	free(o);
	free(dv);
	gfree(&g);
}

/* The metadata check of an instance: each field one value over its
 * ranks (nulls aside, as pandas's nunique), else TraceLens's error. */
static void
check(size_t ii, const int *fields, int nf, const char *const *names)
{
	const struct crow *ref = &cr[insts[ii].first], *c;
	char b1[TL_QUOTE_MAX], b2[TL_QUOTE_MAX];
	const char *s1, *s2;
	size_t n1, n2;
	int k;

	for (k = 0; k < nf; k++) {
		uint32_t a = NONE, b;

		for (c = ref; ; c = &cr[c->next]) {
			b = fields[k] == -1 ? c->stream : meta(c, fields[k]);
			if (b != NONE && a == NONE)
				a = b;
			if (b != NONE && b != a) {
				s1 = tl_intern_str(in, a, &n1);
				s2 = tl_intern_str(in, b, &n2);
				tl_errx(tl_failstatus, "rank %" PRId64 " (%s): "
				    "Metadata mismatch in '%s' for collective "
				    "ID %s: %s here, %s on rank %" PRId64,
				    rks[c->rk].rank, rks[c->rk].trace,
				    names[k], instid[ii],
				    tl_quote(b2, sizeof b2, s2, n2),
				    tl_quote(b1, sizeof b1, s1, n1),
				    rks[ref->rk].rank);
			}
			if (c->next == NONE)
				break;
		}
	}
}

/* What the implicit-sync rows give the summary and the stragglers. */
struct isync {
	size_t inst;
	struct val lat, skew0, skew1, algo, bus, full;
	int64_t early;		/* rank */
};
static struct isync *isr;
static size_t nisr;
static size_t *wcolrank;	/* ranks (indexes) in wait-column order */
static size_t nwcol;
static int64_t *waits;		/* nisr * nrk, INT64_MIN: absent */

static double
factor(int type, struct val gs)
{
	double n = vnum(&gs);

	if (isnan(n))
		return NAN;
	return type == T_ALLREDUCE ? 2 * (n - 1) / n : (n - 1) / n;
}

static void
t_isync(struct table *t)
{
	static const char *const cols[] = { "collective_id",
	    "Process Group Name", "Process Group Ranks", "Collective name",
	    "Group size", "dtype", "In msg nelems", "Out msg nelems",
	    "In msg size (MB)", "Out msg size (MB)", "Full msg size (MB)",
	    "comm_latency", "skew in start time", "earliest arrival rank",
	    "avg_wait_time", "skew in end time", "algo bw (GB/s)",
	    "bus bw (GB/s)", NULL };
	static const int mf[] = { M_PGNAME, M_PGRANKS, M_COLL, M_GSIZE,
	    M_DTYPE, M_INNEL, M_OUTNEL };
	static const char *const mn[] = { "Process Group Name",
	    "Process Group Ranks", "Collective name", "Group size", "dtype",
	    "In msg nelems", "Out msg nelems" };
	size_t i, r, j;
	int *colts, *colw, seen;
	const struct crow *c;

	t->name = "nccl_implicit_sync";
	colts = xreallocarray(NULL, nrk + 1, sizeof *colts);
	colw = xreallocarray(NULL, nrk + 1, sizeof *colw);
	for (r = 0; r < nrk; r++)
		colts[r] = colw[r] = -1;
	addcols(t, cols);
	isr = xreallocarray(NULL, ninst + 1, sizeof *isr);
	wcolrank = xreallocarray(NULL, nrk + 1, sizeof *wcolrank);
	/* the kept instances and the per-rank columns */
	for (i = 0; i < ninst; i++) {
		const struct crow *ref = &cr[insts[i].first];
		int ty = ctype(collname(ref));
		size_t nnew = 0, *nw = xreallocarray(NULL, nrk + 1,
		    sizeof *nw);

		if (simplified ? ty == T_A2AV : (ty == T_NONE || ty == T_A2AV)) {
			free(nw);
			continue;
		}
		if (!simplified)
			check(i, mf, 7, mn);
		isr[nisr++].inst = i;
		for (c = ref; ; c = &cr[c->next]) {
			if (colts[c->rk] < 0) {
				nw[nnew++] = c->rk;
				colts[c->rk] = (int)t->ncol;
				tab_addcol(t, fmtcol("rank_", rks[c->rk].rank,
				    "_ts"));
				tab_addcol(t, fmtcol("rank_", rks[c->rk].rank,
				    "_dur"));
			}
			if (c->next == NONE)
				break;
		}
		for (j = 0; j < nnew; j++) {
			colw[nw[j]] = (int)t->ncol;
			wcolrank[nwcol++] = nw[j];
			tab_addcol(t, fmtcol("rank_", rks[nw[j]].rank,
			    "_wait_time"));
		}
		free(nw);
	}
	seen = nisr > 0;
	if (seen && j_gpn > 0)
		tab_addcol(t, "node_span");
	t->nocols = !seen;
	waits = xreallocarray(NULL, nisr * nrk + 1, sizeof *waits);
	for (i = 0; i < nisr; i++) {
		struct isync *s = &isr[i];
		const struct crow *ref = &cr[insts[s->inst].first];
		struct val *v = tab_newrow(t);
		int64_t maxts = INT64_MIN, mints = INT64_MAX, lat = INT64_MAX;
		int64_t maxe = INT64_MIN, mine = INT64_MAX, wsum = 0;
		int64_t wmax = -1;
		size_t n = 0;
		int ty = ctype(collname(ref));
		double inmb = mib(ref, 0), outmb = mib(ref, 1), full = NAN, algo;

		for (r = 0; r < nrk; r++)
			waits[i * nrk + r] = INT64_MIN;
		for (c = ref; ; c = &cr[c->next]) {
			if (c->ts > maxts)
				maxts = c->ts;
			if (c->ts < mints)
				mints = c->ts;
			if (c->dur < lat)
				lat = c->dur;
			if (c->ts + c->dur > maxe)
				maxe = c->ts + c->dur;
			if (c->ts + c->dur < mine)
				mine = c->ts + c->dur;
			n++;
			if (c->next == NONE)
				break;
		}
		for (c = ref; ; c = &cr[c->next]) {
			int64_t w = maxts - c->ts;

			waits[i * nrk + c->rk] = w;
			wsum += w;
			if (w >= wmax) {	/* ties: the largest rank */
				wmax = w;
				s->early = rks[c->rk].rank;
			}
			v[colts[c->rk]] = VTS(c->ts);
			v[colts[c->rk] + 1] = VDUR(c->dur);
			v[colw[c->rk]] = VTS(w);
			if (c->next == NONE)
				break;
		}
		if (ty != T_NONE && !isnan(inmb) && !isnan(outmb))
			full = ty == T_ALLGATHER ? outmb : inmb;
		algo = lat > 0 ? full / 1024 / ((double)lat / 1e9) : NAN;
		s->full = vdbl(full);
		s->lat = VDUR(lat);
		s->skew0 = VTS(maxts - mints);
		s->skew1 = VEND(maxe - mine);
		s->algo = vdbl(algo);
		s->bus = vdbl(algo * factor(ty, jv(ref->meta[M_GSIZE])));
		v[0] = vstr(instid[s->inst]);
		v[1] = jv(ref->pg);
		v[2] = jv(ref->meta[M_PGRANKS]);
		v[3] = jv(collname(ref));
		v[4] = jv(ref->meta[M_GSIZE]);
		v[5] = jv(ref->meta[M_DTYPE]);
		v[6] = jv(ref->meta[M_INNEL]);
		v[7] = jv(ref->meta[M_OUTNEL]);
		v[8] = vdbl(inmb);
		v[9] = vdbl(outmb);
		v[10] = s->full;
		v[11] = s->lat;
		v[12] = s->skew0;
		v[13] = vint(s->early);
		v[14] = vdbl((double)wsum / (double)n / 1000);
		v[15] = s->skew1;
		v[16] = s->algo;
		v[17] = s->bus;
		if (j_gpn > 0)
			v[t->ncol - 1] = nodespan(ref->meta[M_PGRANKS]);
	}
	free(colts);
	free(colw);
}

static void
t_summary_isync(struct table *t)
{
	static const char *const keys[] = { "Collective name", "dtype",
	    "In msg nelems", "Process Group Name", "Group size",
	    "Full msg size (MB)", NULL };
	static const char *const statcol[] = { "comm_latency",
	    "skew in start time", "skew in end time", "algo bw (GB/s)",
	    "bus bw (GB/s)" };
	struct groups g = { 3, 0, 0, NULL, NULL, NULL, NULL, NULL };
	struct val k[3], *dv;
	size_t i, j, m, *o;
	int a, anybw[2] = { 0, 0 }, w;
	char nm[256];

	t->name = "nccl_summary_implicit_sync";
	t->nocols = nisr == 0;
	for (i = 0; i < nisr; i++) {
		const struct crow *ref = &cr[insts[isr[i].inst].first];

		k[0] = jv(collname(ref));
		k[1] = jv(ref->meta[M_DTYPE]);
		k[2] = jv(ref->meta[M_INNEL]);
		for (j = 0; j < 3; j++)
			if (k[j].t == V_NONE)
				k[j] = vstr("Unknown");
		gadd(&g, k, i);
		if (isr[i].algo.t != V_NONE)
			anybw[0] = 1;
		if (isr[i].bus.t != V_NONE)
			anybw[1] = 1;
	}
	addcols(t, keys);
	for (a = 0; a < 5; a++) {
		if (a >= 3 && !anybw[a - 3])
			continue;
		for (j = 0; j < j_nmetrics; j++) {
			snprintf(nm, sizeof nm, "%s_%s", statcol[a],
			    j_metrics[j]);
			tab_addcol(t, keep(nm, strlen(nm)));
		}
	}
	tab_addcol(t, "count");
	tab_addcol(t, "Total comm latency (ms)");
	g.sortv = xreallocarray(NULL, g.n + 1, sizeof *g.sortv);
	dv = xreallocarray(NULL, nisr + 1, sizeof *dv);
	for (i = 0; i < g.n; i++) {
		for (j = 0; j < g.nmem[i]; j++)
			dv[j] = isr[g.mem[i][j]].lat;
		g.sortv[i] = sumof(dv, g.nmem[i]) / 1000;
	}
	o = gorder(&g);
	for (i = 0; i < g.n; i++) {
		size_t gi = o[i], col = 6;
		struct val *v = tab_newrow(t);

		m = g.nmem[gi];
		memcpy(v, &g.key[gi * 3], 3 * sizeof *v);
		for (w = 0; w < 3; w++)
			for (j = 0; j < m && v[3 + w].t == V_NONE; j++) {
				const struct crow *ref =
				    &cr[insts[isr[g.mem[gi][j]].inst].first];

				v[3 + w] = w == 0 ? jv(ref->pg) : w == 1 ?
				    jv(ref->meta[M_GSIZE]) :
				    isr[g.mem[gi][j]].full;
			}
		for (a = 0; a < 5; a++) {
			if (a >= 3 && !anybw[a - 3])
				continue;
			for (j = 0; j < m; j++) {
				const struct isync *s = &isr[g.mem[gi][j]];

				dv[j] = a == 0 ? s->lat : a == 1 ? s->skew0 :
				    a == 2 ? s->skew1 : a == 3 ? s->algo :
				    s->bus;
			}
			for (j = 0; j < j_nmetrics; j++)
				v[col++] = stat(metricnum(j_metrics[j]), dv,
				    m);
		}
		v[col++] = vint((int64_t)m);
		v[col] = vdbl(g.sortv[gi]);
	}
	free(o);
	free(dv);
	gfree(&g);
}

static double
np_round(double x, int d)
{
	double p = d == 1 ? 10 : 100;

	return rint(x * p) / p;
}

static void
t_straggler(struct table *t)
{
	static const char *const cols[] = { "rank", "total_wait_time_us",
	    "mean_wait_time_us", "times_arrived_last",
	    "times_arrived_first", "pct_arrived_last", "num_collectives",
	    "total_nccl_dur_us", NULL };
	size_t i, j, r, *o, *last;
	struct groups g = { 1, 0, 0, NULL, NULL, NULL, NULL, NULL };
	struct val k;

	t->name = "straggler_summary";
	if (nisr == 0) {
		t->skip = 1;
		return;
	}
	addcols(t, cols);
	if (j_gpn > 0)
		tab_addcol(t, "node_id");
	last = xcalloc(nrk + 1, sizeof *last);
	for (i = 0; i < nisr; i++) {
		int64_t best = INT64_MAX;
		size_t who = SIZE_MAX;

		for (j = 0; j < nwcol; j++) {
			int64_t w = waits[i * nrk + wcolrank[j]];

			if (w != INT64_MIN && w < best) {
				best = w;
				who = wcolrank[j];
			}
		}
		if (who != SIZE_MAX)
			last[who]++;
	}
	/* rows by total wait, ties by rank: a group per rank */
	for (j = 0; j < nwcol; j++) {
		k = vint(rks[wcolrank[j]].rank);
		gadd(&g, &k, wcolrank[j]);
	}
	g.sortv = xreallocarray(NULL, g.n + 1, sizeof *g.sortv);
	for (i = 0; i < g.n; i++) {
		r = g.mem[i][0];
		int64_t s = 0;

		for (j = 0; j < nisr; j++)
			if (waits[j * nrk + r] != INT64_MIN)
				s += waits[j * nrk + r];
		g.sortv[i] = -(double)s;
	}
	o = gorder(&g);
	for (i = 0; i < g.n; i++) {
		struct val *v = tab_newrow(t), *wv;
		size_t first = 0, n = 0;
		int64_t s = 0, d = 0;
		int whole = !tsfloat, dwhole = !durfloat;

		r = g.mem[o[i]][0];
		wv = xreallocarray(NULL, nisr + 1, sizeof *wv);
		for (j = 0; j < nisr; j++) {
			int64_t w = waits[j * nrk + r];

			if (w == INT64_MIN) {
				whole = 0;
				continue;
			}
			s += w;
			n++;
			if (w % 1000 != 0)
				whole = 0;
			if (isr[j].early == rks[r].rank)
				first++;
		}
		free(wv);
		for (j = 0; j < rks[r].nc; j++) {
			d += cr[order[rks[r].c0 + j]].dur;
			if (cr[order[rks[r].c0 + j]].dur % 1000 != 0)
				dwhole = 0;
		}
		v[0] = vint(rks[r].rank);
		v[1] = whole ? vint(s / 1000) : vdbl(np_round((double)s / 1000,
		    1));
		v[2] = vdbl(n > 0 ? np_round((double)s / 1000 / (double)n, 1) :
		    NAN);
		v[3] = vint((int64_t)last[r]);
		v[4] = vint((int64_t)first);
		v[5] = vdbl(np_round(100.0 * (double)last[r] / (double)nisr, 1));
		v[6] = vint((int64_t)nisr);
		v[7] = dwhole ? vint(d / 1000) : vdbl(np_round((double)d / 1000,
		    1));
		if (j_gpn > 0)
			v[8] = vint(rks[r].rank / j_gpn);
	}
	free(o);
	free(last);
	gfree(&g);
}

/* ---- all_to_allv ---- */

struct a2a {
	size_t inst;
	struct val total, wall, thr, imb, skew0, skew1, maxdur;
};
static struct a2a *a2r;
static size_t na2r;

static int
isa2av(uint32_t id)
{
	struct val v = jv(id);

	return v.t == V_STR && v.n == 11 && memcmp(v.s, "all_to_allv", 11) == 0;
}

static void
t_a2av(struct table *t)
{
	static const char *const cols[] = { "collective_id",
	    "Process Group Name", "Process Group Ranks", "Collective name",
	    "Group size", "dtype", "stream", "total data communicated (MB)",
	    "total nelems communicated", "wall_time (us)",
	    "max_rank_dur (us)", "min_rank_dur (us)", "avg_rank_dur (us)",
	    "throughput (GB/s)", "max_rank_throughput (GB/s)",
	    "min_rank_throughput (GB/s)", "size_imbalance",
	    "skew in start time", "skew in end time", NULL };
	static const char *const per[] = { "_ts", "_dur", "_In msg nelems",
	    "_Out msg nelems", "_In msg size (MB)", "_Out msg size (MB)",
	    "_In split size", "_Out split size" };
	static const int mf[] = { M_PGNAME, M_PGRANKS, M_COLL, M_GSIZE,
	    M_DTYPE, -1 };
	static const char *const mn[] = { "Process Group Name",
	    "Process Group Ranks", "Collective name", "Group size", "dtype",
	    "stream" };
	size_t i, j, r, *o, nr;
	int *c8, *c2;
	const struct crow *c;
	struct val *rowsv;
	double *tot;

	t->name = "nccl_all2allv";
	c8 = xreallocarray(NULL, nrk + 1, sizeof *c8);
	c2 = xreallocarray(NULL, nrk + 1, sizeof *c2);
	for (r = 0; r < nrk; r++)
		c8[r] = c2[r] = -1;
	a2r = xreallocarray(NULL, ninst + 1, sizeof *a2r);
	for (i = 0; i < ninst; i++) {
		size_t nnew = 0, *nw;

		if (!isa2av(collname(&cr[insts[i].first])))
			continue;
		check(i, mf, 6, mn);
		if (na2r == 0)
			addcols(t, cols);
		a2r[na2r++].inst = i;
		nw = xreallocarray(NULL, nrk + 1, sizeof *nw);
		for (c = &cr[insts[i].first]; ; c = &cr[c->next]) {
			if (c8[c->rk] < 0) {
				nw[nnew++] = c->rk;
				c8[c->rk] = (int)t->ncol;
				for (j = 0; j < 8; j++)
					tab_addcol(t, fmtcol("rank_",
					    rks[c->rk].rank, per[j]));
			}
			if (c->next == NONE)
				break;
		}
		for (j = 0; j < nnew; j++) {
			c2[nw[j]] = (int)t->ncol;
			tab_addcol(t, fmtcol("rank_", rks[nw[j]].rank,
			    "_skew in start time"));
			tab_addcol(t, fmtcol("rank_", rks[nw[j]].rank,
			    "_skew in end time"));
		}
		free(nw);
	}
	if (na2r == 0) {
		t->skip = 1;
		free(c8);
		free(c2);
		return;
	}
	if (j_gpn > 0)
		tab_addcol(t, "node_span");
	nr = na2r;
	rowsv = xcalloc(nr * t->ncol + 1, sizeof *rowsv);
	tot = xreallocarray(NULL, nr + 1, sizeof *tot);
	for (i = 0; i < nr; i++) {
		struct a2a *s = &a2r[i];
		const struct crow *ref = &cr[insts[s->inst].first];
		struct val *v = &rowsv[i * t->ncol];
		int64_t mints = INT64_MAX, maxe = INT64_MIN, mine = INT64_MAX;
		int64_t maxd = INT64_MIN, mind = INT64_MAX, sumd = 0;
		double tmb = 0, tnel = 0, mx = -INFINITY, mxthr = NAN,
		    mnthr = NAN, sin = 0;
		size_t n = 0, nin = 0;
		int nelint = 1;

		for (j = 0; j < t->ncol; j++)
			v[j] = vnone();
		for (c = ref; ; c = &cr[c->next]) {
			double inm = mib(c, 0);
			struct val ne = jv(c->meta[M_INNEL]);

			if (c->ts < mints)
				mints = c->ts;
			if (c->ts + c->dur > maxe)
				maxe = c->ts + c->dur;
			if (c->ts + c->dur < mine)
				mine = c->ts + c->dur;
			if (c->dur > maxd)
				maxd = c->dur;
			if (c->dur < mind)
				mind = c->dur;
			sumd += c->dur;
			n++;
			if (!isnan(inm)) {
				tmb += inm;
				sin += inm;
				nin++;
				if (inm > mx)
					mx = inm;
				if (inm > 0 && c->dur > 0) {
					double th = inm / 1024 /
					    ((double)c->dur / 1e9);

					if (isnan(mxthr) || th > mxthr)
						mxthr = th;
					if (isnan(mnthr) || th < mnthr)
						mnthr = th;
				}
			}
			if (ne.t == V_INT || ne.t == V_DBL)
				tnel += vnum(&ne);
			if (ne.t != V_INT)
				nelint = 0;
			if (c->next == NONE)
				break;
		}
		s->total = vdbl(tmb);
		s->wall = VEND(maxe - mints);
		s->thr = vdbl(maxe - mints > 0 ? tmb / 1024 /
		    ((double)(maxe - mints) / 1e9) : NAN);
		s->imb = vdbl(nin > 0 && sin / (double)nin != 0 ? mx /
		    (sin / (double)nin) : NAN);
		s->skew0 = vus(0);
		s->maxdur = VDUR(maxd);
		v[0] = vstr(instid[s->inst]);
		v[1] = jv(ref->pg);
		v[2] = jv(ref->meta[M_PGRANKS]);
		v[3] = jv(collname(ref));
		v[4] = jv(ref->meta[M_GSIZE]);
		v[5] = jv(ref->meta[M_DTYPE]);
		v[6] = jv(ref->stream);
		v[7] = s->total;
		v[8] = nelint ? vint((int64_t)tnel) : vdbl(tnel);
		v[9] = s->wall;
		v[10] = VDUR(maxd);
		v[11] = VDUR(mind);
		v[12] = vdbl((double)sumd / (double)n / 1000);
		v[13] = s->thr;
		v[14] = vdbl(mxthr);
		v[15] = vdbl(mnthr);
		v[16] = s->imb;
		{
			int64_t maxts = INT64_MIN;

			for (c = ref; ; c = &cr[c->next]) {
				if (c->ts > maxts)
					maxts = c->ts;
				if (c->next == NONE)
					break;
			}
			s->skew0 = VTS(maxts - mints);
		}
		s->skew1 = VEND(maxe - mine);
		v[17] = s->skew0;
		v[18] = s->skew1;
		for (c = ref; ; c = &cr[c->next]) {
			struct val *p = &v[c8[c->rk]];

			p[0] = VTS(c->ts);
			p[1] = VDUR(c->dur);
			p[2] = jv(c->meta[M_INNEL]);
			p[3] = jv(c->meta[M_OUTNEL]);
			p[4] = vdbl(mib(c, 0));
			p[5] = vdbl(mib(c, 1));
			p[6] = jv(c->meta[M_INSPLIT]);
			p[7] = jv(c->meta[M_OUTSPLIT]);
			v[c2[c->rk]] = VTS(c->ts - mints);
			v[c2[c->rk] + 1] = VEND(maxe - (c->ts + c->dur));
			if (c->next == NONE)
				break;
		}
		if (j_gpn > 0)
			v[t->ncol - 1] = nodespan(ref->meta[M_PGRANKS]);
		tot[i] = tmb;
	}
	/* rows by total data, descending (stable) */
	{
		struct groups g = { 1, 0, 0, NULL, NULL, NULL, NULL, NULL };
		struct val k;

		for (i = 0; i < nr; i++) {
			k = vint((int64_t)i);
			gadd(&g, &k, i);
		}
		g.sortv = xreallocarray(NULL, nr + 1, sizeof *g.sortv);
		memcpy(g.sortv, tot, nr * sizeof *tot);
		o = gorder(&g);
		for (i = 0; i < nr; i++)
			memcpy(tab_newrow(t), &rowsv[o[i] * t->ncol],
			    t->ncol * sizeof *rowsv);
		{
			struct a2a *cp = xreallocarray(NULL, nr + 1,
			    sizeof *cp);

			for (i = 0; i < nr; i++)
				cp[i] = a2r[o[i]];
			memcpy(a2r, cp, nr * sizeof *cp);
			free(cp);
		}
		free(o);
		gfree(&g);
	}
	free(rowsv);
	free(tot);
	free(c8);
	free(c2);
}

static void
t_summary_a2av(struct table *t)
{
	static const char *const sc[] = { "total data communicated (MB)",
	    "wall_time (us)" };
	struct groups g = { 2, 0, 0, NULL, NULL, NULL, NULL, NULL };
	struct val k[2], *dv;
	size_t i, j, m, *o, col;
	char nm[256];
	int a;

	t->name = "nccl_summary_all2allv";
	if (na2r == 0) {
		t->skip = 1;
		return;
	}
	for (i = 0; i < na2r; i++) {
		const struct crow *ref = &cr[insts[a2r[i].inst].first];

		k[0] = jv(ref->pg);
		k[1] = jv(ref->meta[M_DTYPE]);
		if (k[0].t != V_NONE && k[1].t != V_NONE)
			gadd(&g, k, i);
	}
	tab_addcol(t, "Process Group Name");
	tab_addcol(t, "dtype");
	for (a = 0; a < 2; a++)
		for (j = 0; j < j_nmetrics; j++) {
			snprintf(nm, sizeof nm, "%s_%s", sc[a], j_metrics[j]);
			tab_addcol(t, keep(nm, strlen(nm)));
		}
	tab_addcol(t, "Total wall_time (us)");
	for (j = 0; j < j_nmetrics; j++) {
		snprintf(nm, sizeof nm, "throughput (GB/s)_%s", j_metrics[j]);
		tab_addcol(t, keep(nm, strlen(nm)));
	}
	{
		static const char *const rest[] = { "size_imbalance_mean",
		    "size_imbalance_max", "max_rank_dur (us)_mean",
		    "max_rank_dur (us)_max", "skew in start time_mean",
		    "skew in start time_max", "skew in end time_mean",
		    "skew in end time_max", "count", "Process Group Ranks",
		    "Collective name", "Group size", "Total wall_time (ms)",
		    NULL };

		addcols(t, rest);
	}
	if (j_gpn > 0)
		tab_addcol(t, "node_span");
	dv = xreallocarray(NULL, na2r + 1, sizeof *dv);
	g.sortv = xreallocarray(NULL, g.n + 1, sizeof *g.sortv);
	for (i = 0; i < g.n; i++) {
		for (j = 0; j < g.nmem[i]; j++)
			dv[j] = a2r[g.mem[i][j]].wall;
		g.sortv[i] = sumof(dv, g.nmem[i]);
	}
	o = gorder(&g);
	for (i = 0; i < g.n; i++) {
		size_t gi = o[i];
		struct val *v = tab_newrow(t);
		const struct crow *ref = &cr[insts[a2r[g.mem[gi][0]].inst].first];
		struct val tw;

		m = g.nmem[gi];
		memcpy(v, &g.key[gi * 2], 2 * sizeof *v);
		col = 2;
#define FILL(expr) for (j = 0; j < m; j++) { \
		const struct a2a *s = &a2r[g.mem[gi][j]]; dv[j] = (expr); }
		FILL(s->total)
		for (j = 0; j < j_nmetrics; j++)
			v[col++] = stat(metricnum(j_metrics[j]), dv, m);
		FILL(s->wall)
		for (j = 0; j < j_nmetrics; j++)
			v[col++] = stat(metricnum(j_metrics[j]), dv, m);
		tw = stat(ST_SUM, dv, m);
		v[col++] = tw;
		FILL(s->thr)
		for (j = 0; j < j_nmetrics; j++)
			v[col++] = stat(metricnum(j_metrics[j]), dv, m);
		FILL(s->imb)
		v[col++] = stat(ST_MEAN, dv, m);
		v[col++] = stat(ST_MAX, dv, m);
		FILL(s->maxdur)
		v[col++] = stat(ST_MEAN, dv, m);
		v[col++] = stat(ST_MAX, dv, m);
		FILL(s->skew0)
		v[col++] = stat(ST_MEAN, dv, m);
		v[col++] = stat(ST_MAX, dv, m);
		FILL(s->skew1)
		v[col++] = stat(ST_MEAN, dv, m);
		v[col++] = stat(ST_MAX, dv, m);
#undef FILL
		v[col++] = vint((int64_t)m);
		v[col++] = jv(ref->meta[M_PGRANKS]);
		v[col++] = jv(collname(ref));
		v[col++] = jv(ref->meta[M_GSIZE]);
		v[col++] = vdbl(vnum(&tw) / 1000);
		if (j_gpn > 0)
			v[col] = nodespan(ref->meta[M_PGRANKS]);
	}
	free(o);
	free(dv);
	gfree(&g);
}

/* The split sizes of a row: a JSON array of integers, or a string
 * holding one; n -1 when it is neither. */
static int64_t *
splits(uint32_t id, size_t *n)
{
	const char *s;
	size_t len, i, k = 0;
	int64_t *v;
	char *d = NULL;
	struct tl_jdoc doc = { 0 };

	*n = (size_t)-1;
	if (id == NONE)
		return NULL;
	s = tl_intern_str(in, id, &len);
	if (len > 0 && s[0] == '"') {
		unsigned bad = 0;

		d = xmalloc(len);
		len = tl_junescape(d, s + 1, len - 2, &bad);
		s = d;
		if (len == 0 || s[0] != '[') {
			free(d);
			return NULL;
		}
	}
	if (tl_json_parse(&doc, s, len) < 0 || doc.tok[0].type != JSMN_ARRAY ||
	    tl_jskip(&doc, 0) != doc.ntok) {
		tl_json_free(&doc);
		free(d);
		return NULL;
	}
	v = xreallocarray(NULL, (size_t)doc.tok[0].size + 1, sizeof *v);
	for (i = 1; i < (size_t)doc.ntok; i++) {
		const jsmntok_t *tk = &doc.tok[i];

		if (tk->type != JSMN_PRIMITIVE || tl_parse_i64(s + tk->start,
		    (size_t)(tk->end - tk->start), &v[k]) < 0) {
			free(v);
			tl_json_free(&doc);
			free(d);
			return NULL;
		}
		k++;
	}
	*n = k;
	tl_json_free(&doc);
	free(d);
	return v;
}

struct hcell {
	int64_t src, dst;
	double bytes;
	int64_t n;
};

/* By (src, dst). */
static int
cmpcell(const void *a, const void *b)
{
	const struct hcell *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	return 0;
}

static void
t_heatmap(struct table *t)
{
	static const char *const cols[] = { "src_rank", "dst_rank",
	    "total_sent_MB", "avg_sent_MB", "count", NULL };
	struct hcell *h = NULL;
	size_t nh = 0, caph = 0, i, j, n, k;
	int64_t world = j_world >= 0 ? j_world : (int64_t)nrk;

	t->name = "nccl_all2allv_heatmap";
	t->skip = 1;
	if (!j_heatmap || world > 1024)
		return;
	for (i = 0; i < ncr; i++) {
		const struct crow *c = &cr[order[i]];
		struct val gs = jv(c->meta[M_GSIZE]);
		double b = bpe(c->meta[M_DTYPE]);
		int64_t *sp;

		if (!isa2av(collname(c)) || isnan(b))
			continue;
		if ((sp = splits(c->meta[M_INSPLIT], &n)) == NULL)
			continue;
		if (gs.t != V_NONE && vnum(&gs) != (double)n) {
			free(sp);
			continue;
		}
		xgrow(&h, &caph, nh + n + 1, sizeof *h);
		for (j = 0; j < n; j++) {
			h[nh].src = rks[c->rk].rank;
			h[nh].dst = (int64_t)j;
			h[nh].bytes = (double)sp[j] * b;
			h[nh++].n = 1;
		}
		free(sp);
	}
	if (nh == 0) {
		free(h);
		return;
	}
	t->skip = 0;
	addcols(t, cols);
	qsort(h, nh, sizeof *h, cmpcell);
	for (i = 0, k = 0; i < nh; i++) {	/* the pairs, summed */
		if (k > 0 && h[k - 1].src == h[i].src &&
		    h[k - 1].dst == h[i].dst) {
			h[k - 1].bytes += h[i].bytes;
			h[k - 1].n++;
		} else
			h[k++] = h[i];
	}
	nh = k;
	for (i = 0; i < nh; i++) {
		struct val *v = tab_newrow(t);

		v[0] = vint(h[i].src);
		v[1] = vint(h[i].dst);
		v[2] = vdbl(h[i].bytes / 1048576);
		v[3] = vdbl(h[i].bytes / 1048576 / (double)h[i].n);
		v[4] = vint(h[i].n);
	}
	free(h);
}

/* ---- HTA's tables ---- */

static int hvar;		/* the variant HTA loads: 0 all, 1 window */

static double
us(int64_t ns)
{
	return (double)ns / 1000;
}

static void
t_overlap(struct table *t)
{
	size_t r;

	t->name = "hta_comm_comp_overlap";
	tab_addcol(t, "rank");
	tab_addcol(t, "comp_comm_overlap_pctg");
	for (r = 0; r < nrk; r++) {
		struct val *v = tab_newrow(t);
		const int64_t *h = rks[r].hta[hvar];

		v[0] = vint(rks[r].rank);
		v[1] = vdbl(h[0] > 0 ? np_round(100 * ((double)h[2] /
		    (double)h[0]), 2) : NAN);
	}
}

static void
t_temporal(struct table *t)
{
	static const char *const cols[] = { "rank", "idle_time(us)",
	    "compute_time(us)", "non_compute_time(us)", "kernel_time(us)",
	    "idle_time_pctg", "compute_time_pctg", "non_compute_time_pctg",
	    NULL };
	size_t r;

	t->name = "hta_temporal_breakdown";
	addcols(t, cols);
	for (r = 0; r < nrk; r++) {
		struct val *v = tab_newrow(t);
		const int64_t *h = rks[r].hta[hvar];
		double k, idle, comp, non;

		v[0] = vint(rks[r].rank);
		if ((rks[r].hhas[hvar] & 48) != 48)
			continue;
		k = us(h[5] - h[4]);
		idle = k - us(h[3]);
		comp = us(h[1]);
		non = k - comp - idle;
		v[1] = vdbl(idle);
		v[2] = vdbl(comp);
		v[3] = vdbl(non);
		v[4] = vdbl(k);
		v[5] = vdbl(np_round(100 * (idle / k), 2));
		v[6] = vdbl(np_round(100 * (comp / k), 2));
		v[7] = vdbl(np_round(100 * (non / k), 2));
	}
}

static int
cmpcand(const void *a, const void *b)
{
	const struct cdrec *x = a, *y = b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->name != y->name)
		return tl_intern_cmp(in, x->name, y->name);
	if (x->iter != y->iter)
		return x->iter < y->iter ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static int
cmpdesc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/* HTA's potential stragglers (k 2): the ranks, best first. */
static void
t_stragglers(struct table *t)
{
	enum { K = 2 };
	int64_t tmin = INT64_MAX, tmax = INT64_MIN, *seen = NULL;
	size_t nseen = 0, cap = 0, i, j, n = 0, b, e, best = SIZE_MAX;
	double mean, bestv = NAN, thr;
	struct cdrec *c;
	int64_t *cnt;
	struct groups g = { 1, 0, 0, NULL, NULL, NULL, NULL, NULL };
	size_t *o;
	struct val k;

	t->name = "hta_potential_stragglers";
	tab_addcol(t, "rank");
	for (i = 0; i < nits; i++) {
		if (its[i].var != hvar)
			continue;
		for (j = 0; j < nseen && seen[j] != its[i].iter; j++)
			;
		if (j == nseen) {
			xgrow(&seen, &cap, nseen + 1, sizeof *seen);
			seen[nseen++] = its[i].iter;
		}
		if (its[i].ts < tmin)
			tmin = its[i].ts;
		if (its[i].ts + its[i].dur > tmax)
			tmax = its[i].ts + its[i].dur;
	}
	free(seen);
	if (nseen == 0)
		return;
	mean = (double)(tmax - tmin) / (double)nseen;
	/* the candidates: the last long-enough row of a key */
	c = xreallocarray(NULL, ncds + 1, sizeof *c);
	for (i = 0; i < ncds; i++)
		if (cds[i].var == hvar && (double)cds[i].dur >= 0.01 * mean)
			c[n++] = cds[i];
	qsort(c, n, sizeof *c, cmpcand);
	for (i = j = 0; i < n; i++) {
		if (i + 1 < n && c[i + 1].stream == c[i].stream &&
		    c[i + 1].name == c[i].name && c[i + 1].iter == c[i].iter &&
		    c[i + 1].rank == c[i].rank)
			continue;
		c[j++] = c[i];
	}
	n = j;
	/* the kernel whose duration varies most across ranks */
	for (b = 0; b < n; b = e) {
		double sum = 0;
		size_t ns = 0, f;

		for (e = b; e < n && c[e].stream == c[b].stream &&
		    c[e].name == c[b].name; e++)
			;
		for (f = b; f < e; ) {
			size_t l = f, m = 0;
			struct tl_welford w = { 0, 0, 0 };

			for (; l < e && c[l].iter == c[f].iter; l++, m++)
				tl_welford_add(&w, (double)c[l].dur / mean);
			if (m > 1) {
				sum += tl_welford_std(&w);
				ns++;
			}
			f = l;
		}
		if (ns > 0 && (isnan(bestv) || sum / (double)ns > bestv)) {
			bestv = sum / (double)ns;
			best = b;
		}
		if (best == SIZE_MAX && isnan(bestv))
			best = b;
	}
	if (best == SIZE_MAX) {
		free(c);
		return;
	}
	cnt = xcalloc(nrk + 1, sizeof *cnt);
	for (b = best; b < n && c[b].stream == c[best].stream &&
	    c[b].name == c[best].name; b = e) {
		double *top;
		size_t m = 0, q;

		for (e = b; e < n && c[e].stream == c[best].stream &&
		    c[e].name == c[best].name && c[e].iter == c[b].iter; e++)
			;
		top = xreallocarray(NULL, e - b + 1, sizeof *top);
		for (q = b; q < e; q++)
			top[m++] = (double)(c[q].ts - tmin) / mean;
		qsort(top, m, sizeof *top, cmpdesc);
		thr = top[(m < K ? m : K) - 1];
		free(top);
		for (q = b; q < e; q++)
			if ((double)(c[q].ts - tmin) / mean >= thr) {
				for (j = 0; j < nrk; j++)
					if (rks[j].rank == c[q].rank)
						cnt[j]++;
			}
	}
	for (j = 0; j < nrk; j++)
		if (cnt[j] > 0) {
			k = vint(rks[j].rank);
			gadd(&g, &k, j);
		}
	g.sortv = xreallocarray(NULL, g.n + 1, sizeof *g.sortv);
	for (i = 0; i < g.n; i++)
		g.sortv[i] = (double)cnt[g.mem[i][0]];
	o = gorder(&g);
	for (i = 0; i < g.n && i < K; i++)
		tab_newrow(t)[0] = vint(rks[g.mem[o[i]][0]].rank);
	free(o);
	gfree(&g);
	free(cnt);
	free(c);
}

/* ---- the run ---- */

enum {
	TB_SISYNC, TB_SLONG, TB_SA2AV, TB_HEAT, TB_LONG, TB_ISYNC, TB_A2AV,
	TB_STRAG, TB_OVERLAP, TB_TEMPORAL, TB_HSTRAG, NTB
};
static struct table tabs[NTB];

static int
writeto(const char *dir, int csv)
{
	struct tl_file f;
	char name[128];
	int i, status = 0;

	if (tl_mkdirs(dir) < 0) {
		tl_warn("%s", dir);
		return 1;
	}
	for (i = 0; i < NTB; i++) {
		struct table *t = &tabs[i];

		if (t->skip)
			continue;
		if (csv && i == TB_HSTRAG) {
			size_t r;

			if (tl_file_open(&f, dir,
			    "hta_potential_stragglers.txt") < 0)
				return 1;
			for (r = 0; r < t->nrow; r++) {
				if (r > 0)
					tl_out_char(&f.out, ' ');
				tl_out_i64(&f.out, t->cell[r].i);
			}
			tl_out_char(&f.out, '\n');
			if (tl_file_close(&f) < 0)
				status = 1;
			continue;
		}
		snprintf(name, sizeof name, "%s.%s", t->name, csv ? "csv" :
		    "tsv");
		if (tl_file_open(&f, dir, name) < 0)
			return 1;
		tab_write(t, &f.out, csv);
		if (tl_file_close(&f) < 0)
			status = 1;
	}
	return status;
}

void
join_tables(void)
{
	if (nrk == 0)
		tl_errx(tl_failstatus, "no rank: the input holds no summary "
		    "(tl-ranks -m writes them)");
	checkranks();
	ordering();
	match();
	ids();
	ordercheck();
	if (j_gpn < 0)
		j_gpn = rks[0].rank == 0 && rks[0].ndev > 0 ? rks[0].ndev : 0;
	hvar = nsteps >= 2;
	t_long(&tabs[TB_LONG]);
	t_summary_long(&tabs[TB_SLONG]);
	t_isync(&tabs[TB_ISYNC]);
	t_summary_isync(&tabs[TB_SISYNC]);
	t_straggler(&tabs[TB_STRAG]);
	t_a2av(&tabs[TB_A2AV]);
	t_summary_a2av(&tabs[TB_SA2AV]);
	t_heatmap(&tabs[TB_HEAT]);
	t_overlap(&tabs[TB_OVERLAP]);
	t_temporal(&tabs[TB_TEMPORAL]);
	t_stragglers(&tabs[TB_HSTRAG]);
	tl_warns_end(&warns, "collectives");
}

void
join_reset(void)
{
	int i;

	for (i = 0; i < NTB; i++)
		tab_free(&tabs[i]);
	tl_tsv_close(jt);
	jt = NULL;
	if (in != NULL) {
		tl_intern_free(in);
		tl_out_close(&sb);
	}
	in = NULL;
	free(cr);
	free(rks);
	free(insts);
	free(its);
	free(cds);
	free(order);
	free(jcache);
	free(steps);
	free(instid);
	free(isr);
	free(wcolrank);
	free(waits);
	free(a2r);
	cr = NULL;
	rks = NULL;
	insts = NULL;
	its = NULL;
	cds = NULL;
	order = NULL;
	jcache = NULL;
	steps = NULL;
	instid = NULL;
	isr = NULL;
	wcolrank = NULL;
	waits = NULL;
	a2r = NULL;
	ncr = capcr = nrk = caprk = ninst = capinst = nits = capits = 0;
	ncds = capcds = capj = nsteps = capsteps = nisr = nwcol = na2r = 0;
	simplified = tsfloat = durfloat = hvar = 0;
	warns.n = 0;
	keep_free();
}

int
rank_join(int nops, char **ops, const char *csvdir, const char *tsvdir,
    const char *only)
{
	int status, i;
	struct tl_out o;

	status = load(nops, ops);
	join_tables();
	if (only != NULL) {
		for (i = 0; i < NTB; i++)
			if (strcmp(tabs[i].name, only) == 0)
				break;
		if (i == NTB)
			tl_errx(tl_failstatus, "-t %s: no such table", only);
		tl_out_init(&o, 1, "<stdout>");
		tab_write(&tabs[i], &o, 0);
		tl_out_close(&o);
	}
	if (csvdir != NULL)
		status |= writeto(csvdir, 1);
	if (tsvdir != NULL)
		status |= writeto(tsvdir, 0);
	join_reset();
	return status;
}
