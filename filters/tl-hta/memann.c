/*
 * tl-hta: HTA's memory bandwidth and user-annotation analyses, and the
 * run of every analysis (hta_run).
 */
#include "an.h"

/* A point of the memory-bandwidth series. */
struct mpt {
	double ts, bw;
	const struct row *r;
	int kind;		/* 0 Memcpy DtoH.. by name, else fixed */
	char name[16];
};

static void
memname(const struct row *r, char *buf)
{
	size_t n;
	const char *s = hta_s(r->name, &n);

	if (n >= 6 && memcmp(s, "Memset", 6) == 0)
		strcpy(buf, "Memset");
	else if (n < 6 || memcmp(s, "Memcpy", 6) != 0)
		strcpy(buf, "Memcpy Unknown");
	else {
		/* the first 11 characters (bytes: these names are ASCII) */
		size_t k = n < 11 ? n : 11;

		memcpy(buf, s, k);
		buf[k] = '\0';
	}
}

static int
cmpmname(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
membw(void)
{
	struct csv *c, *sum;
	size_t i, j, k, n, m, ns = 0, caps = 0, any = 0;
	char name[64];
	struct msum {
		int64_t rank;
		char name[16];
		double d[8];
	} *sv = NULL;

	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		size_t *ix = rows(rk, isgpu, KT_MEM, &n), *p, nn = 0;
		struct mpt *v;
		double *key, *cs;
		const char **names;
		int64_t row;

		if (n == 0) {
			free(ix);
			continue;
		}
		v = xreallocarray(NULL, 2 * n + 1, sizeof *v);
		for (j = 0; j < n; j++) {
			const struct row *r = &rk->r[ix[j]];
			double d = r->dur == 0 ? 1 : r->dur;

			v[j].ts = (double)r->ts;
			v[j].bw = r->bw;
			v[j].r = r;
			memname(r, v[j].name);
			v[n + j] = v[j];
			v[n + j].ts = (double)r->ts + d;
			v[n + j].bw = -r->bw;
		}
		key = xreallocarray(NULL, 2 * n + 1, sizeof *key);
		cs = xreallocarray(NULL, 2 * n + 1, sizeof *cs);
		p = xreallocarray(NULL, 2 * n + 1, sizeof *p);
		for (j = 0; j < 2 * n; j++)
			key[j] = v[j].ts;
		tl_argsort(key, 2 * n, p);
		names = xreallocarray(NULL, 2 * n + 1, sizeof *names);
		for (j = 0; j < 2 * n; j++)
			names[j] = v[j].name;
		qsort(names, 2 * n, sizeof *names, cmpmname);
		for (j = 0, k = 0; j < 2 * n; j++)
			if (k == 0 || strcmp(names[k - 1], names[j]) != 0)
				names[k++] = names[j];
		nn = k;
		snprintf(name, sizeof name, "memory_bw_time_series_rank%"
		    PRId64 ".csv", rk->rank);
		c = csv_open(name);
		csv_hdr(c, ",ts,pid,name,memory_bw_gbps");
		any = 1;
		for (k = 0; k < nn; k++) {
			double acc = 0, comp = 0, d[8];

			for (j = 0, m = 0; j < 2 * n; j++) {
				const struct mpt *q = &v[p[j]];
				double y, t;

				if (strcmp(q->name, names[k]) != 0)
					continue;
				y = q->bw - comp;	/* pandas's Kahan cumsum */
				t = acc + y;
				comp = t - acc - y;
				acc = t;
				row = (int64_t)p[j];
				csv_i(c, row);
				csv_f(c, q->ts);
				csv_id(c, q->r->pid);
				csv_s(c, q->name, strlen(q->name));
				csv_f(c, acc);
				csv_end(c);
				if (acc > 0)
					cs[m++] = acc;
			}
			if (m == 0)	/* filtered before the groupby */
				continue;
			hta_describe(cs, m, d);
			xgrow(&sv, &caps, ns + 1, sizeof *sv);
			sv[ns].rank = rk->rank;
			strcpy(sv[ns].name, names[k]);
			memcpy(sv[ns++].d, d, sizeof d);
		}
		csv_close(c);
		free(v);
		free(key);
		free(cs);
		free(p);
		free(names);
		free(ix);
	}
	if (!any)
		return;
	sum = csv_open("memory_bw_summary.csv");
	if (ns == 0)	/* pandas's empty frame: no index names */
		csv_hdr(sum, ",memory_bw_gbps,memory_bw_gbps,memory_bw_gbps,"
		    "memory_bw_gbps,memory_bw_gbps,memory_bw_gbps,"
		    "memory_bw_gbps,memory_bw_gbps\n,count,mean,std,min,25%,"
		    "50%,75%,max");
	else
		hdr2(sum, "rank", "name", "memory_bw_gbps");
	for (i = 0; i < ns; i++) {
		csv_i(sum, sv[i].rank);
		csv_s(sum, sv[i].name, strlen(sv[i].name));
		for (j = 0; j < 8; j++)
			csv_f(sum, sv[i].d[j]);
		csv_end(sum);
	}
	csv_close(sum);
	free(sv);
}

static int
iscat(const struct row *r, int cat)
{
	return r->cat == (uint32_t)cat;
}

static int
cmprankname(size_t a, size_t b)
{
	int c = (skr[a].rank > skr[b].rank) - (skr[a].rank < skr[b].rank);

	return c != 0 ? c : cmpagg(a, b);
}

static void
annotations(const char *catname, const char *file)
{
	uint32_t cat = tl_intern(hta_str, catname, strlen(catname));
	size_t i, j, n, ng, nk = 0, cap = 0, *p;
	struct krow *kr = NULL;
	struct agg *g;
	struct csv *c;
	int any = 0;

	for (i = 0; i < hta_nrk; i++)
		for (j = 0; j < hta_rk[i].n && !any; j++)
			any = hta_rk[i].r[j].cat == cat;
	if (!any)
		return;
	for (i = 0; i < hta_nrk; i++) {
		size_t *ix = rows(&hta_rk[i], iscat, (int)cat, &n);

		ng = n > 0 ? topk(&hta_rk[i], ix, n, 1000, &g) : 0;
		for (j = 0; j < ng; j++) {
			xgrow(&kr, &cap, nk + 1, sizeof *kr);
			kr[nk].a = g[j];
			kr[nk].kt = 0;
			kr[nk++].rank = hta_rk[i].rank;
		}
		if (n > 0)
			free(g);
		free(ix);
	}
	p = kr_order(kr, nk, cmprankname);
	c = csv_open(file);
	csv_hdr(c, ",name,sum (us),max (us),min (us),stddev,mean (us),rank");
	for (i = 0; i < nk; i++) {
		const struct krow *k = &kr[p[i]];

		csv_i(c, (int64_t)i);
		aggname(c, &k->a);
		csv_f(c, k->a.sum);
		csv_f(c, k->a.max);
		csv_f(c, k->a.min);
		csv_f(c, k->a.std);
		csv_f(c, k->a.mean);
		csv_i(c, k->rank);
		csv_end(c);
	}
	csv_close(c);
	free(p);
	free(kr);
}

/* The GPU-side rows of kernelannot by pid, tid, ts, row. */
static const struct rank *kar;

static int
cmpkann(const void *a, const void *b)
{
	const struct row *x = &kar->r[*(const size_t *)a];
	const struct row *y = &kar->r[*(const size_t *)b];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (*(const size_t *)a > *(const size_t *)b) -
	    (*(const size_t *)a < *(const size_t *)b);
}

/*
 * ann[k] = the annotation of GPU-side row k: for each (pid, tid) of the
 * annotations ix[p[..]] in first appearance, each annotation of it in
 * order names every kernel of its pid and tid it overlaps, a later one
 * overwriting. The kernels of a thread are taken by start, from the
 * first whose start plus the thread's longest duration passes the
 * annotation's start (none before can reach it) to the annotation's end.
 */
static void
annotate(const struct rank *rk, const size_t *ix, const size_t *p,
    size_t n, int64_t *ann)
{
	size_t *kv = xreallocarray(NULL, rk->n + 1, sizeof *kv), nk = 0;
	char *done = xcalloc(n + 1, 1);
	size_t a, j, k;

	for (k = 0; k < rk->n; k++) {
		const struct row *r = &rk->r[k];

		if ((r->stream >= 0 && r->corr >= 0) ||
		    (hta_ni(r->name) & NI_SYNC))
			kv[nk++] = k;
	}
	kar = rk;
	qsort(kv, nk, sizeof *kv, cmpkann);
	for (a = 0; a < n; a++) {
		const struct row *g0 = &rk->r[ix[p[a]]];
		size_t lo = 0, hi = nk, b, e;
		double dmax = -INFINITY;

		if (done[a])
			continue;
		/* the kernels of g0's pid and tid: kv[b..e) */
		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2;
			const struct row *r = &rk->r[kv[m]];

			if (r->pid < g0->pid || (r->pid == g0->pid &&
			    r->tid < g0->tid))
				lo = m + 1;
			else
				hi = m;
		}
		b = e = lo;
		while (e < nk && rk->r[kv[e]].pid == g0->pid &&
		    rk->r[kv[e]].tid == g0->tid) {
			if (rk->r[kv[e]].dur > dmax)
				dmax = rk->r[kv[e]].dur;
			e++;
		}
		for (j = a; j < n; j++) {
			const struct row *an = &rk->r[ix[p[j]]];
			double ae = (double)an->ts + an->dur;

			if (done[j] || an->pid != g0->pid ||
			    an->tid != g0->tid)
				continue;
			done[j] = 1;
			lo = b;
			hi = e;
			while (lo < hi) {
				size_t m = lo + (hi - lo) / 2;

				if ((double)rk->r[kv[m]].ts + dmax <=
				    (double)an->ts)
					lo = m + 1;
				else
					hi = m;
			}
			for (k = lo; k < e && (double)rk->r[kv[k]].ts < ae;
			    k++) {
				const struct row *r = &rk->r[kv[k]];

				if ((double)an->ts < (double)r->ts + r->dur)
					ann[kv[k]] = an->name;
			}
		}
	}
	free(done);
	free(kv);
}

/* get_gpu_kernels_with_user_annotations(rank, shorten_names=False). */
static void
kernelannot(void)
{
	uint32_t cat = tl_intern(hta_str, "gpu_user_annotation", 19);
	size_t i, j, k, n;
	char name[96];

	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		size_t *ix = rows(rk, iscat, (int)cat, &n), *p;
		int64_t *ann;
		double *key;
		struct csv *c;

		if (n == 0) {
			free(ix);
			continue;
		}
		key = xreallocarray(NULL, n + 1, sizeof *key);
		p = xreallocarray(NULL, n + 1, sizeof *p);
		for (j = 0; j < n; j++)
			key[j] = rk->r[ix[j]].dur;
		tl_nargsort_desc(key, n, p);
		ann = xreallocarray(NULL, rk->n + 1, sizeof *ann);
		for (j = 0; j < rk->n; j++)
			ann[j] = -1;
		annotate(rk, ix, p, n, ann);
		snprintf(name, sizeof name, "gpu_kernels_with_user_"
		    "annotations_rank%" PRId64 ".csv", rk->rank);
		c = csv_open(name);
		csv_hdr(c, "index,ts,dur,stream,pid,tid,s_name,"
		    "s_user_annotation");
		for (k = 0; k < rk->n; k++) {
			const struct row *r = &rk->r[k];

			if (!((r->stream >= 0 && r->corr >= 0) ||
			    (hta_ni(r->name) & NI_SYNC)))
				continue;
			csv_i(c, r->index);
			csv_i(c, r->ts);
			csv_f(c, r->dur);
			csv_i(c, r->stream);
			csv_id(c, r->pid);
			csv_id(c, r->tid);
			csv_id(c, r->name);
			if (ann[k] >= 0)
				csv_id(c, (uint32_t)ann[k]);
			else
				csv_s(c, "", 0);
			csv_end(c);
		}
		csv_close(c);
		free(ix);
		free(key);
		free(p);
		free(ann);
	}
}

void
hta_run(void)
{
	if (hta_want("temporal_breakdown"))
		temporal();
	if (hta_want("idle_time_breakdown"))
		idle();
	if (hta_want("kernel_breakdown"))
		kernels();
	if (hta_want("comm_comp_overlap"))
		overlap();
	if (hta_want("cuda_kernel_launch_stats"))
		launchstats();
	if (hta_want("queue_length"))
		queue();
	if (hta_want("memory_bw"))
		membw();
	if (hta_o.nseqops > 0 && hta_want("frequent_cuda_kernel_sequences"))
		hta_sequences(hta_o.seqops, hta_o.nseqops,
		    hta_o.min_pattern_len);
	if (hta_want("cupti_counter_data"))
		hta_cupti();
	if (hta_want("aten_op_kernels_and_delay"))
		hta_aten();
	if (hta_want("user_annotation_breakdown")) {
		annotations("gpu_user_annotation",
		    "gpu_user_annotation_breakdown.csv");
		annotations("user_annotation",
		    "cpu_user_annotation_breakdown.csv");
		kernelannot();
	}
}
