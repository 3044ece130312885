/*
 * tl-hta: HTA's idle time breakdown and interval statistics, kernel
 * launch statistics and queue length (tl-hta(1) ANALYSES).
 */
#include "an.h"

/*
 * The row of rank rk whose index is idx, or NULL. A loaded table is a
 * few runs sorted by index (the GPU rows and the CPU rows of the step
 * window, or one run): a binary search in each run; a table of many
 * runs is sorted by index first.
 */
struct byix {
	size_t *run;		/* the starts of the runs, then n */
	size_t nrun;
	int64_t *ix;		/* sorted: the indexes, and their rows */
	size_t *row;
	size_t n;
};

static const struct rank *bxr;

static int
cmpbx(const void *a, const void *b)
{
	const struct row *x = &bxr->r[*(const size_t *)a];
	const struct row *y = &bxr->r[*(const size_t *)b];

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 :
	    *(const size_t *)a > *(const size_t *)b;
}

static void
bx_make(struct byix *bx, const struct rank *rk)
{
	size_t i, cap = 0;

	memset(bx, 0, sizeof *bx);
	bx->n = rk->n;
	for (i = 0; i < rk->n; i++)
		if (i == 0 || rk->r[i].index < rk->r[i - 1].index) {
			if (bx->nrun == 8)
				break;
			xgrow(&bx->run, &cap, bx->nrun + 2, sizeof *bx->run);
			bx->run[bx->nrun++] = i;
		}
	if (i == rk->n) {
		xgrow(&bx->run, &cap, bx->nrun + 2, sizeof *bx->run);
		bx->run[bx->nrun] = rk->n;
		return;
	}
	free(bx->run);
	bx->run = NULL;
	bx->nrun = 0;
	bx->row = xreallocarray(NULL, rk->n + 1, sizeof *bx->row);
	bx->ix = xreallocarray(NULL, rk->n + 1, sizeof *bx->ix);
	for (i = 0; i < rk->n; i++)
		bx->row[i] = i;
	bxr = rk;
	qsort(bx->row, rk->n, sizeof *bx->row, cmpbx);
	for (i = 0; i < rk->n; i++)
		bx->ix[i] = rk->r[bx->row[i]].index;
}

static const struct row *
bx_find(const struct byix *bx, const struct rank *rk, int64_t idx)
{
	size_t lo, hi, k;

	for (k = 0; k < bx->nrun; k++) {	/* the first run that has it */
		lo = bx->run[k];
		hi = bx->run[k + 1];
		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2;

			if (rk->r[m].index < idx)
				lo = m + 1;
			else
				hi = m;
		}
		if (lo < bx->run[k + 1] && rk->r[lo].index == idx)
			return &rk->r[lo];
	}
	if (bx->row == NULL)
		return NULL;
	lo = 0;
	hi = bx->n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (bx->ix[m] < idx)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < bx->n && bx->ix[lo] == idx ? &rk->r[bx->row[lo]] : NULL;
}

static void
bx_free(struct byix *bx)
{
	free(bx->run);
	free(bx->ix);
	free(bx->row);
}

int
isidle(const struct row *r, int arg)
{
	static uint32_t c[7] = { UINT32_MAX };
	static const char *const cn[7] = { "kernel", "Kernel", "gpu_memset",
	    "Memset", "gpu_memcpy", "Memcpy", "mtia_ccp_events" };
	int i;

	(void)arg;
	if (c[0] == UINT32_MAX)
		for (i = 0; i < 7; i++)
			c[i] = tl_intern(hta_str, cn[i], strlen(cn[i]));
	if (r->stream == -1)
		return 0;
	for (i = 0; i < 7; i++)
		if (r->cat == c[i])
			return 1;
	return 0;
}

void
idle(void)
{
	struct csv *c, *s;
	size_t i, j, k, n, m;
	static const char *const cn[3] = { "host_wait", "kernel_wait",
	    "other" };

	for (i = 0; i < hta_nrk; i++) {
		free(rows(&hta_rk[i], isidle, 0, &n));
		if (n == 0) {
			tl_warnx("idle_time_breakdown: rank %" PRId64 " has "
			    "no kernels (HTA: No objects to concatenate): "
			    "not written", hta_rk[i].rank);
			return;
		}
	}
	c = csv_open("idle_time_breakdown.csv");
	s = csv_open("idle_interval_stats.csv");
	csv_hdr(c, ",rank,stream,idle_category,idle_time,idle_time_ratio");
	csv_hdr(s, "idle_category,rank,stream,count,mean,std,min,25%,50%,"
	    "75%,max");
	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		size_t *ix = rows(rk, isidle, 0, &n), ns = 0, out = 0;
		int64_t *st = xreallocarray(NULL, n + 1, sizeof *st);
		double *ts = xreallocarray(NULL, n + 1, sizeof *ts);
		double *iv = xreallocarray(NULL, n + 1, sizeof *iv);
		double *rt = xreallocarray(NULL, rk->n + 1, sizeof *rt);
		int *cat = xreallocarray(NULL, n + 1, sizeof *cat);
		size_t *sel = xreallocarray(NULL, n + 1, sizeof *sel);
		size_t *p = xreallocarray(NULL, n + 1, sizeof *p);
		struct byix bx;

		bx_make(&bx, rk);
		for (j = 0; j < n; j++) {
			const struct row *r = &rk->r[ix[j]], *l;

			rt[ix[j]] = NAN;
			if (r->ic >= 0 && (l = bx_find(&bx, rk, r->ic)) !=
			    NULL)
				rt[ix[j]] = (double)l->ts;
			for (k = 0; k < ns && st[k] != r->stream; k++)
				;
			if (k == ns)
				st[ns++] = r->stream;
		}
		for (k = 0; k < ns; k++) {
			double sum[3] = { 0 }, tot, d[8];
			int has[3] = { 0 };
			size_t q;

			for (j = 0, m = 0; j < n; j++)
				if (rk->r[ix[j]].stream == st[k]) {
					sel[m] = ix[j];
					ts[m++] = (double)rk->r[ix[j]].ts;
				}
			tl_argsort(ts, m, p);
			for (j = 0; j < m; j++) {
				const struct row *r = &rk->r[sel[p[j]]];
				double prev = NAN, rtj = rt[sel[p[j]]];

				if (j > 0) {
					const struct row *pr =
					    &rk->r[sel[p[j - 1]]];

					prev = (double)pr->ts + pr->dur;
				}
				iv[j] = (double)r->ts - prev;
				if (rtj > prev)
					cat[j] = 0;
				else if (iv[j] < hta_o.ckd)
					cat[j] = 1;
				else
					cat[j] = 2;
				has[cat[j]] = 1;
				if (!isnan(iv[j]))
					sum[cat[j]] += iv[j];
			}
			tot = sum[0] + sum[1] + sum[2];
			for (q = 0; q < 3; q++) {
				double *v;
				size_t nv = 0, x;

				if (!has[q])
					continue;
				csv_i(c, (int64_t)out++);
				csv_i(c, rk->rank);
				csv_i(c, st[k]);
				csv_s(c, cn[q], strlen(cn[q]));
				csv_f(c, hta_round(sum[q], 2));
				csv_f(c, hta_round(sum[q] / tot, 2));
				csv_end(c);
				v = xreallocarray(NULL, m + 1, sizeof *v);
				for (j = 0; j < m; j++)
					if (cat[j] == (int)q)
						v[nv++] = iv[j];
				hta_describe(v, nv, d);
				csv_s(s, cn[q], strlen(cn[q]));
				csv_i(s, rk->rank);
				csv_i(s, st[k]);
				for (x = 0; x < 8; x++)
					csv_f(s, hta_round(d[x], 2));
				csv_end(s);
				free(v);
			}
		}
		bx_free(&bx);
		free(ix);
		free(st);
		free(ts);
		free(iv);
		free(rt);
		free(cat);
		free(sel);
		free(p);
	}
	csv_close(c);
	csv_close(s);
}

static int
cmpi64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Rows by correlation, then table order. */
static int
cmpcorr(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int64_t cx = bxr->r[x].corr, cy = bxr->r[y].corr;

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return (x > y) - (x < y);
}

/* The first of v[0..n) (sorted by cmpcorr) with correlation corr. */
static size_t
lowcorr(const struct rank *rk, const size_t *v, size_t n, int64_t corr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (rk->r[v[m]].corr < corr)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

void
launchstats(void)
{
	size_t i, j, k;
	char name[64];

	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		struct csv *c;
		int64_t out = 0;
		/* the correlations of the launches, and their CPU rows */
		size_t *cpu = xreallocarray(NULL, rk->n + 1, sizeof *cpu);
		size_t *gpu = xreallocarray(NULL, rk->n + 1, sizeof *gpu);
		size_t ncpu = 0, ngpu = 0;
		int64_t *L = xreallocarray(NULL, rk->n + 1, sizeof *L);
		size_t nL = 0;

		for (j = 0; j < rk->n; j++) {
			const struct row *r = &rk->r[j];

			if (hta_ni(r->name) & NI_STATS)
				L[nL++] = r->corr;
		}
		qsort(L, nL, sizeof *L, cmpi64);
		for (j = 0; j < rk->n; j++) {
			const struct row *r = &rk->r[j];

			if (bsearch(&r->corr, L, nL, sizeof *L, cmpi64) ==
			    NULL)
				continue;
			if (r->stream == -1)
				cpu[ncpu++] = j;
			else
				gpu[ngpu++] = j;
		}
		snprintf(name, sizeof name, "cuda_kernel_launch_stats_rank%"
		    PRId64 ".csv", rk->rank);
		c = csv_open(name);
		csv_hdr(c, ",correlation,cpu_duration,gpu_duration,"
		    "launch_delay");
		bxr = rk;
		qsort(gpu, ngpu, sizeof *gpu, cmpcorr);
		for (j = 0; j < ncpu; j++)
			for (k = lowcorr(rk, gpu, ngpu, rk->r[cpu[j]].corr);
			    k < ngpu && rk->r[gpu[k]].corr ==
			    rk->r[cpu[j]].corr; k++) {
				const struct row *a = &rk->r[cpu[j]];
				const struct row *g = &rk->r[gpu[k]];
				double d;

				d = (double)g->ts - (double)a->ts - a->dur;
				csv_i(c, out++);
				csv_i(c, a->corr);
				csv_f(c, a->dur);
				csv_f(c, g->dur);
				csv_f(c, d > 0 ? d : 0);
				csv_end(c);
			}
		csv_close(c);
		free(cpu);
		free(gpu);
		free(L);
	}
}

static int
isqlaunch(const struct row *r)
{
	return r->ic > 0 && (hta_ni(r->name) & NI_QUEUE);
}

/* The series of one rank, streams ascending: into *out, its length. */
size_t
hta_qseries(const struct rank *rk, struct qpt **out, int64_t **streams,
    size_t *nstreams)
{
	size_t *gpu = xreallocarray(NULL, rk->n + 1, sizeof *gpu);
	size_t ngpu = 0, i, k, np = 0, cap = 0, nr = 0, ns = 0;
	struct qpt *v = NULL, *o;
	int64_t *C = xreallocarray(NULL, rk->n + 1, sizeof *C), *st;
	size_t nC = 0, *p;
	double *key;

	for (i = 0; i < rk->n; i++)
		if (rk->r[i].stream != -1)
			gpu[ngpu++] = i;
	bxr = rk;
	qsort(gpu, ngpu, sizeof *gpu, cmpcorr);
	for (i = 0; i < rk->n; i++) {
		const struct row *r = &rk->r[i];
		int m = 0;

		if (!isqlaunch(r))
			continue;
		C[nC++] = r->corr;
		for (k = lowcorr(rk, gpu, ngpu, r->corr); k < ngpu &&
		    rk->r[gpu[k]].corr == r->corr; k++) {
			xgrow(&v, &cap, np + 1, sizeof *v);
			v[np].ev = r;
			v[np].gpu = &rk->r[gpu[k]];
			v[np++].q = 1;
			m = 1;
		}
		if (!m) {
			xgrow(&v, &cap, np + 1, sizeof *v);
			v[np].ev = r;
			v[np].gpu = NULL;
			v[np++].q = 1;
		}
	}
	nr = np;
	qsort(C, nC, sizeof *C, cmpi64);
	for (i = 0; i < rk->n; i++) {
		const struct row *r = &rk->r[i];

		if (r->stream == -1 || bsearch(&r->corr, C, nC, sizeof *C,
		    cmpi64) == NULL)
			continue;
		xgrow(&v, &cap, np + 1, sizeof *v);
		v[np].ev = r;
		v[np].gpu = r;
		v[np++].q = -1;
	}
	if (nr != np - nr)
		tl_warnx("queue_length: rank %" PRId64 ": %zu launches and "
		    "%zu kernels (HTA asserts they are equal)", rk->rank, nr,
		    np - nr);
	key = xreallocarray(NULL, np + 1, sizeof *key);
	p = xreallocarray(NULL, np + 1, sizeof *p);
	for (i = 0; i < np; i++)
		key[i] = (double)v[i].ev->ts;
	tl_argsort(key, np, p);
	st = xreallocarray(NULL, np + 1, sizeof *st);
	for (i = 0; i < np; i++)
		if (v[i].gpu != NULL)
			st[ns++] = v[i].gpu->stream;
	qsort(st, ns, sizeof *st, cmpi64);
	for (i = 0, k = 0; i < ns; i++)
		if (k == 0 || st[k - 1] != st[i])
			st[k++] = st[i];
	ns = k;
	o = xreallocarray(NULL, np + 1, sizeof *o);
	for (k = 0, nr = 0; k < ns; k++) {
		int64_t len = 0;

		for (i = 0; i < np; i++) {
			struct qpt *q = &v[p[i]];

			if (q->gpu == NULL || q->gpu->stream != st[k])
				continue;
			len += q->q;
			q->len = len;
			o[nr++] = *q;
		}
	}
	free(v);
	free(key);
	free(p);
	free(gpu);
	free(C);
	*out = o;
	*streams = st;
	*nstreams = ns;
	return nr;
}

void
hdr2(struct csv *c, const char *k1, const char *k2, const char *col)
{
	static const char *const st[] = { "count", "mean", "std", "min",
	    "25%", "50%", "75%", "max" };
	size_t i;

	csv_s(c, "", 0);
	csv_s(c, "", 0);
	for (i = 0; i < 8; i++)
		csv_s(c, col, strlen(col));
	csv_end(c);
	csv_s(c, "", 0);
	csv_s(c, "", 0);
	for (i = 0; i < 8; i++)
		csv_s(c, st[i], strlen(st[i]));
	csv_end(c);
	csv_s(c, k1, strlen(k1));
	csv_s(c, k2, strlen(k2));
	for (i = 0; i < 8; i++)
		csv_s(c, "", 0);
	csv_end(c);
}

void
queue(void)
{
	struct csv *c, *sum = NULL, *blk;
	size_t i, j, k, n, ns;
	char name[64];
	int64_t brow = 0;

	blk = NULL;
	for (i = 0; i < hta_nrk; i++) {
		const struct rank *rk = &hta_rk[i];
		struct qpt *v;
		int64_t *st, lastst = 0;
		double lastd = NAN, t0 = INFINITY, t1 = -INFINITY;

		n = hta_qseries(rk, &v, &st, &ns);
		if (n == 0) {
			free(v);
			free(st);
			continue;
		}
		snprintf(name, sizeof name, "queue_length_time_series_rank%"
		    PRId64 ".csv", rk->rank);
		c = csv_open(name);
		csv_hdr(c, "index,ts,pid,tid,stream,queue_length");
		for (j = 0; j < n; j++) {
			csv_i(c, v[j].ev->index);
			csv_i(c, v[j].ev->ts);
			csv_id(c, v[j].gpu->pid);
			csv_id(c, v[j].gpu->tid);
			csv_i(c, v[j].gpu->stream);
			csv_i(c, v[j].len);
			csv_end(c);
		}
		csv_close(c);
		if (sum == NULL) {
			sum = csv_open("queue_length_summary.csv");
			hdr2(sum, "rank", "stream", "queue_length");
			blk = csv_open("time_blocked_on_full_queue.csv");
			csv_hdr(blk, ",rank,stream,duration_at_max_queue_"
			    "length,relative_duration_at_max_queue_length");
		}
		for (j = 0; j < rk->n; j++) {
			if ((double)rk->r[j].ts < t0)
				t0 = (double)rk->r[j].ts;
			if ((double)rk->r[j].ts > t1)
				t1 = (double)rk->r[j].ts;
		}
		for (k = 0, j = 0; k < ns; k++) {
			size_t a = j, m;
			double d[8], *q, dsum = 0;
			int any = 0;

			while (j < n && v[j].gpu->stream == st[k])
				j++;
			q = xreallocarray(NULL, j - a + 1, sizeof *q);
			for (m = a; m < j; m++) {
				q[m - a] = (double)v[m].len;
				if (v[m].len >= hta_o.max_queue_length) {
					any = 1;
					if (m + 1 < j)
						dsum += (double)(v[m + 1].ev->ts -
						    v[m].ev->ts);
				}
			}
			hta_describe(q, j - a, d);
			free(q);
			csv_i(sum, rk->rank);
			csv_i(sum, st[k]);
			for (m = 0; m < 8; m++)
				csv_f(sum, d[m]);
			csv_end(sum);
			if (any) {
				lastst = st[k];
				lastd = dsum;
			}
		}
		if (!isnan(lastd)) {
			csv_i(blk, brow++);
			csv_i(blk, rk->rank);
			csv_i(blk, lastst);
			csv_f(blk, lastd);
			csv_f(blk, lastd / (t1 - t0));
			csv_end(blk);
		}
		free(v);
		free(st);
	}
	if (sum != NULL) {
		csv_close(sum);
		csv_close(blk);
	}
}

