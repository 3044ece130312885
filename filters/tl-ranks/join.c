/*
 * tl-ranks: the cross-rank stage. The summaries of all ranks (map.c)
 * in; TraceLens's collective report (nccl_long, nccl_summary_long,
 * nccl_implicit_sync and its summary, straggler_summary, the
 * all_to_allv tables) and HTA's cross-rank tables out. Memory: the
 * collective kernels of all ranks (struct crow) and one record per
 * collective instance; nothing of the traces.
 */
#include "join.h"

long j_world = -1, j_gpn = -1;

int j_heatmap;
char **j_metrics;
size_t j_nmetrics;

struct tl_intern *in;
struct crow *cr;
size_t ncr, capcr;
struct rk *rks;
size_t nrk, caprk;
struct inst *insts;
size_t ninst, capinst;
struct itrec *its;
size_t nits, capits;
struct cdrec *cds;
size_t ncds, capcds;
uint32_t *order;		/* crow indexes: rank ascending, file order */
struct val *jcache;
size_t capj;
struct tl_out sb;
int simplified;
/*
 * A float ts or dur anywhere makes pandas's column float64 for every
 * rank: times are written as floats then ("1200.0"), and what is
 * computed from them.
 */
int tsfloat, durfloat;
struct tl_warns warns;
uint32_t *steps;		/* distinct step names */
size_t nsteps, capsteps;

const char *const hname[6] = { "comm_ns", "compute_ns",
    "overlap_ns", "busy_ns", "first_ns", "last_ns" };

/* The value of an interned JSON text, as TraceLens's pandas has it. */
struct val
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

uint32_t
jid(const char *s)
{
	return tl_intern(in, s, strlen(s));
}

double
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
uint32_t
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
uint32_t
meta(const struct crow *c, int k)
{
	return k == M_COLL ? collname(c) : c->meta[k];
}

/* MiB of a kernel's in (w 0) or out (w 1) message. */
double
mib(const struct crow *c, int w)
{
	struct val v = jv(c->meta[w ? M_OUTNEL : M_INNEL]);

	if (v.t != V_INT && v.t != V_DBL)
		return NAN;
	return vnum(&v) * bpe(c->meta[M_DTYPE]) / 1048576;
}

int
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
struct tl_tsv *jt;

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

int
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

void
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
void
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
const char *
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
void
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
