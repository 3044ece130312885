/*
 * tl-ranks: the all_to_allv tables and the heatmap.
 */
#include "join.h"

/* ---- all_to_allv ---- */

struct a2a {
	size_t inst;
	struct val total, wall, thr, imb, skew0, skew1, maxdur;
};
struct a2a *a2r;
size_t na2r;

static int
isa2av(uint32_t id)
{
	struct val v = jv(id);

	return v.t == V_STR && v.n == 11 && memcmp(v.s, "all_to_allv", 11) == 0;
}

void
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

void
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
			v[col++] = valstat(metricnum(j_metrics[j]), dv, m);
		FILL(s->wall)
		for (j = 0; j < j_nmetrics; j++)
			v[col++] = valstat(metricnum(j_metrics[j]), dv, m);
		tw = valstat(ST_SUM, dv, m);
		v[col++] = tw;
		FILL(s->thr)
		for (j = 0; j < j_nmetrics; j++)
			v[col++] = valstat(metricnum(j_metrics[j]), dv, m);
		FILL(s->imb)
		v[col++] = valstat(ST_MEAN, dv, m);
		v[col++] = valstat(ST_MAX, dv, m);
		FILL(s->maxdur)
		v[col++] = valstat(ST_MEAN, dv, m);
		v[col++] = valstat(ST_MAX, dv, m);
		FILL(s->skew0)
		v[col++] = valstat(ST_MEAN, dv, m);
		v[col++] = valstat(ST_MAX, dv, m);
		FILL(s->skew1)
		v[col++] = valstat(ST_MEAN, dv, m);
		v[col++] = valstat(ST_MAX, dv, m);
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

void
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

