/*
 * tl-ranks: TraceLens's tables: nccl_long, nccl_summary_long,
 * nccl_implicit_sync and its summary, straggler_summary.
 */
#include "join.h"

/* ---- TraceLens's tables ---- */

const char **instid;	/* collective_id of each instance */

void
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
void
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

void
addcols(struct table *t, const char *const *c)
{
	for (; *c != NULL; c++)
		tab_addcol(t, *c);
}

const char *
fmtcol(const char *a, int64_t r, const char *b)
{
	char buf[256];

	snprintf(buf, sizeof buf, "%s%" PRId64 "%s", a, r, b);
	return keep(buf, strlen(buf));
}

struct val
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

void
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

void
gadd(struct groups *g, const struct val *k, size_t row)
{
	size_t i = gfind(g, k);

	xgrow(&g->mem[i], &g->capmem[i], g->nmem[i] + 1, sizeof **g->mem);
	g->mem[i][g->nmem[i]++] = row;
}

void
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
size_t *
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

struct val
valstat(int which, const struct val *v, size_t n)
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
double
sumof(const struct val *v, size_t n)
{
	struct val r = valstat(ST_SUM, v, n);

	return vnum(&r);
}

int
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

void
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
		v[13] = valstat(ST_SUM, dv, m);
		v[14] = valstat(ST_MEAN, dv, m);
		v[15] = valstat(ST_STD, dv, m);
		v[16] = valstat(ST_MIN, dv, m);
		v[17] = valstat(ST_MAX, dv, m);
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
void
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
struct isync *isr;
size_t nisr;
size_t *wcolrank;	/* ranks (indexes) in wait-column order */
size_t nwcol;
int64_t *waits;		/* nisr * nrk, INT64_MIN: absent */

static double
factor(int type, struct val gs)
{
	double n = vnum(&gs);

	if (isnan(n))
		return NAN;
	return type == T_ALLREDUCE ? 2 * (n - 1) / n : (n - 1) / n;
}

void
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

void
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
				v[col++] = valstat(metricnum(j_metrics[j]), dv,
				    m);
		}
		v[col++] = vint((int64_t)m);
		v[col] = vdbl(g.sortv[gi]);
	}
	free(o);
	free(dv);
	gfree(&g);
}

double
np_round(double x, int d)
{
	double p = d == 1 ? 10 : 100;

	return rint(x * p) / p;
}

void
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

