/*
 * tl-agg: the tables HTA (Holistic Trace Analysis) adds to TraceLens's:
 * GPU idle time by cause, kernel launch delay, communication and memcpy
 * overlapped with computation, and the busy time of each device and
 * stream. They look at every GPU event, linked or not: a stream's time
 * line is what the GPU did.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/sort.h"
#include "agg.h"

/* GPU events by device, stream, start; and by device, start (or NULL). */
static uint32_t *G, *Gd;
static size_t ng;

static uint32_t
skey(const struct ev *e)
{
	return ev_stream(e) != NONE ? ev_stream(e) : e->tid;
}

/* cmpnum with NONE first (the keys are never empty). */
static int
cmpkey(uint32_t a, uint32_t b)
{
	if ((a == NONE) != (b == NONE))
		return a == NONE ? -1 : 1;
	return cmpnum(a, b);
}

static int
cmpgpu(const void *a, const void *b)
{
	const struct ev *x = &A->e[*(const uint32_t *)a];
	const struct ev *y = &A->e[*(const uint32_t *)b];
	int c;

	if ((c = cmpkey(x->pid, y->pid)) != 0)
		return c;
	if ((c = cmpkey(skey(x), skey(y))) != 0)
		return c;
	if (x->tsns != y->tsns)
		return x->tsns < y->tsns ? -1 : 1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) -
	    (*(const uint32_t *)a < *(const uint32_t *)b);
}

static int (*cmpids)(uint32_t, uint32_t);

static int
cmpidp(const void *a, const void *b)
{
	return cmpids(*(const uint32_t *)a, *(const uint32_t *)b);
}

/*
 * The ids of the events ev[0..n) that key() gives, ranked in cmp's order
 * (NONE too): rank[id] (rank[NONE] in *nonerank), 0 for the first. The
 * caller frees *rank. Sorting the few distinct ids and then the events
 * by rank does without a comparison (and string compares) per pair of
 * events.
 */
static uint32_t *
rankids(const uint32_t *ev, size_t n, uint32_t (*key)(const struct ev *),
    int (*cmp)(uint32_t, uint32_t), uint32_t *nonerank, size_t *ndist)
{
	uint32_t *rank, *d, id;
	size_t nid = tl_intern_count(A->in), nd = 0, i;

	rank = xreallocarray(NULL, nid + 1, sizeof *rank);
	memset(rank, 0xff, (nid + 1) * sizeof *rank);
	d = xreallocarray(NULL, nid + 1, sizeof *d);
	for (i = 0; i < n; i++) {
		id = key(&A->e[ev[i]]);
		if (id == NONE)
			id = (uint32_t)nid;
		if (rank[id] == NONE) {
			rank[id] = 0;
			d[nd++] = id == nid ? NONE : id;
		}
	}
	cmpids = cmp;
	qsort(d, nd, sizeof *d, cmpidp);
	for (i = 0; i < nd; i++)
		rank[d[i] == NONE ? nid : d[i]] = (uint32_t)i;
	*nonerank = rank[nid];
	*ndist = nd;
	free(d);
	return rank;
}

static uint32_t
pidof(const struct ev *e)
{
	return e->pid;
}

/*
 * Whether cmpkey is a total order on the ids ev[0..n) key() gives: when
 * every one is a number (NaN is not: it compares unequal to itself);
 * numbers and text mixed can make a cycle ("2" < "10" < "1a" < "2").
 */
static int
numeric(const uint32_t *ev, size_t n, uint32_t (*key)(const struct ev *))
{
	uint32_t id, last = NONE;
	const char *s;
	char *e;
	size_t i, sn;
	double v;

	for (i = 0; i < n; i++) {
		id = key(&A->e[ev[i]]);
		if (id == NONE || id == last)
			continue;
		last = id;
		s = agg_str(id, &sn);
		v = strtod(s, &e);
		if (sn == 0 || *e != '\0' || isnan(v))
			return 0;
	}
	return 1;
}

/*
 * The GPU events by device, stream, start and index (cmpgpu): radix
 * sorts of the start and of the ranks of device and stream, when these
 * are numbers, as they are in traces.
 */
static void
gather(void)
{
	struct tl_sortkey *k;
	uint32_t *rp, *rs, np, ns;
	size_t i, nd;

	G = xreallocarray(NULL, A->ngts + 1, sizeof *G);
	ng = A->ngts;
	memcpy(G, A->gts, ng * sizeof *G);	/* by start */
	if (ng < 2)
		return;
	if (!numeric(G, ng, pidof) || !numeric(G, ng, skey)) {
		/* from event order, as the comparisons may not be an order */
		for (ng = 0, i = 0; i < A->n; i++)
			if (TL_K_ISGPU(A->e[i].kind))
				G[ng++] = (uint32_t)i;
		qsort(G, ng, sizeof *G, cmpgpu);
		return;
	}
	rp = rankids(G, ng, pidof, cmpkey, &np, &nd);
	k = xreallocarray(NULL, ng, sizeof *k);
	/* A device's events by start: its merges need not sort. */
	Gd = xreallocarray(NULL, ng, sizeof *Gd);
	memcpy(Gd, G, ng * sizeof *Gd);
	if (nd > 1) {
		for (i = 0; i < ng; i++) {
			const struct ev *e = &A->e[G[i]];

			k[i].i = G[i];
			k[i].k = e->pid == NONE ? np : rp[e->pid];
		}
		tl_key_sort(k, ng);
		for (i = 0; i < ng; i++)
			Gd[i] = k[i].i;
	}
	rs = rankids(G, ng, skey, cmpkey, &ns, &nd);
	for (i = 0; i < ng; i++) {
		const struct ev *e = &A->e[G[i]];

		k[i].i = G[i];
		k[i].k = (uint64_t)(e->pid == NONE ? np : rp[e->pid]) << 32 |
		    (skey(e) == NONE ? ns : rs[skey(e)]);
	}
	tl_key_sort(k, ng);
	for (i = 0; i < ng; i++)
		G[i] = k[i].i;
	free(k);
	free(rp);
	free(rs);
}

/* Length of the intersection of two merged lists. */
static double
inter(const struct iv *a, size_t na, const struct iv *b, size_t nb)
{
	size_t i = 0, j = 0;
	double t = 0, s, e;

	while (i < na && j < nb) {
		s = a[i].s > b[j].s ? a[i].s : b[j].s;
		e = a[i].e < b[j].e ? a[i].e : b[j].e;
		if (e > s)
			t += e - s;
		if (a[i].e < b[j].e)
			i++;
		else
			j++;
	}
	return t;
}

/*
 * Merged intervals of o[lo..hi) of a class (-1: all), o being G, or Gd
 * for a device's.
 */
static size_t
ivs(const uint32_t *o, size_t lo, size_t hi, int cls, struct iv *out)
{
	size_t i, n = 0;

	for (i = lo; i < hi; i++) {
		const struct ev *e = &A->e[o[i]];
		int c = (e->flags & F_MEMCPYK) ? G_MEMCPY :
		    (e->flags & F_COMM) ? G_COMM : G_COMP;

		if (cls >= 0 && c != cls)
			continue;
		out[n].s = ev_ts(e);
		out[n++].e = ev_end(e);
	}
	return agg_ivmerge(out, n);
}

/* End of the run of G from i with the same device (and stream). */
static size_t
runend(size_t i, int stream)
{
	const struct ev *a = &A->e[G[i]];
	size_t j;

	for (j = i + 1; j < ng; j++) {
		const struct ev *b = &A->e[G[j]];

		if (b->pid != a->pid || (stream && skey(b) != skey(a)))
			break;
	}
	return j;
}

/* Per device and stream: busy time by class, span, idle. */
void
streams(struct table *t, int which)
{
	static const char *const cols[] = { "device", "stream", "count",
	    "busy_us", "computation_us", "communication_us", "memcpy_us",
	    "span_us", "idle_us", "busy_percent", NULL };
	struct iv *a;
	const uint32_t *o;
	size_t i, j, k, n, m, lo;
	double busy, span;
	int pass, c;

	tab_init(t, agg_tab[which].name, NULL, cols);
	a = xcalloc(ng + 1, sizeof *a);
	for (i = 0; i < ng; i = j) {
		j = runend(i, 0);
		/* the device, then each of its streams */
		for (pass = 0, k = i; k < j; pass = 1) {
			lo = pass ? k : i;
			m = pass ? runend(k, 1) : j;
			o = pass || Gd == NULL ? G : Gd;
			n = ivs(o, lo, m, -1, a);
			busy = agg_ivlen(a, n);
			span = a[n - 1].e - a[0].s;
			tab_id(t, A->e[G[i]].pid);
			if (pass)
				tab_id(t, skey(&A->e[G[k]]));
			else
				tab_none(t);
			tab_int(t, (int64_t)(m - lo));
			tab_dbl(t, agg_us(busy));
			/* computation, communication, memcpy */
			for (c = G_COMP; c <= G_MEMCPY; c++)
				tab_dbl(t, agg_us(agg_ivlen(a, ivs(o, lo, m, c,
				    a))));
			tab_dbl(t, agg_us(span));
			tab_dbl(t, agg_us(span - busy));
			tab_dbl(t, span > 0 ? busy / span * 100 : NAN);
			if (pass)
				k = m;
		}
	}
	free(a);
}

/* Communication and memcpy overlapped with computation, per device. */
void
overlap(struct table *t, int which)
{
	static const char *const cols[] = { "device", "kind", "time_us",
	    "overlapped_us", "exposed_us", "overlapped_percent", NULL };
	static const char *const kinds[] = { "communication", "memcpy" };
	struct iv *c, *x;
	size_t i, j, nc, nx;
	double tot, ov;
	int k;

	tab_init(t, agg_tab[which].name, NULL, cols);
	c = xcalloc(ng + 1, sizeof *c);
	x = xcalloc(ng + 1, sizeof *x);
	for (i = 0; i < ng; i = j) {
		j = runend(i, 0);
		nc = ivs(Gd != NULL ? Gd : G, i, j, G_COMP, c);
		for (k = 0; k < 2; k++) {
			nx = ivs(Gd != NULL ? Gd : G, i, j, k == 0 ? G_COMM :
			    G_MEMCPY, x);
			tot = agg_ivlen(x, nx);
			ov = inter(c, nc, x, nx);
			tab_id(t, A->e[G[i]].pid);
			tab_cstr(t, kinds[k]);
			tab_dbl(t, agg_us(tot));
			tab_dbl(t, agg_us(ov));
			tab_dbl(t, agg_us(tot - ov));
			tab_dbl(t, tot > 0 ? ov / tot * 100 : NAN);
		}
	}
	free(c);
	free(x);
}

/* Idle time between the GPU events of each stream, by cause. */
void
idle(struct table *t, int which)
{
	static const char *const cols[] = { "device", "stream", "cause",
	    "count", "time_us", "percent", NULL };
	static const char *const cause[] = { "host_wait", "kernel_wait",
	    "other" };
	size_t i, j, k, cnt[3];
	double sum[3], end, gap, th, tot;
	int c;
	uint64_t nolaunch = 0;

	tab_init(t, agg_tab[which].name, NULL, cols);
	th = agg_nat ? agg_kernelwait * 1e3 : agg_kernelwait;
	for (i = 0; i < ng; i = j) {
		j = runend(i, 1);
		memset(cnt, 0, sizeof cnt);
		sum[0] = sum[1] = sum[2] = 0;
		end = ev_end(&A->e[G[i]]);
		for (k = i + 1; k < j; k++) {
			const struct ev *e = &A->e[G[k]];

			gap = ev_ts(e) - end;
			if (gap > 0) {
				uint32_t r = e->parent;

				if (r == NONE) {
					c = 2;
					nolaunch++;
				} else if (ev_ts(&A->e[r]) > end)
					c = 0;	/* launched after: host */
				else if (gap < th)
					c = 1;
				else
					c = 2;
				cnt[c]++;
				sum[c] += gap;
			}
			if (ev_end(e) > end)
				end = ev_end(e);
		}
		tot = sum[0] + sum[1] + sum[2];
		for (c = 0; c < 3; c++) {
			tab_id(t, A->e[G[i]].pid);
			tab_id(t, skey(&A->e[G[i]]));
			tab_cstr(t, cause[c]);
			tab_int(t, (int64_t)cnt[c]);
			tab_dbl(t, agg_us(sum[c]));
			tab_dbl(t, tot > 0 ? sum[c] / tot * 100 : NAN);
		}
	}
	if (nolaunch > 0)
		agg_note("%" PRIu64 " idle gap%s before GPU events with no "
		    "launch counted as \"other\"", nolaunch, PL(nolaunch));
}

/* The delay of each launch, and per kernel name. */
struct lrow {
	uint32_t g, r;
	double cpu, gpu, delay;
	int out;
};

/* A kernel name's launches: mem[lo..hi) of the rows. */
struct lstat {
	size_t lo, hi;
	uint32_t name;
	double delay;
};

/* By total delay, descending, then name. */
static int
cmplstat(const void *a, const void *b)
{
	const struct lstat *x = a, *y = b;

	if (x->delay != y->delay)
		return x->delay > y->delay ? -1 : 1;
	return cmpid(x->name, y->name);
}

/* launch and launch_stats, both built at once. */
void
launch(struct table *t, int which)
{
	const int *want = agg_want;
	static const char *const cols[] = { "uid", "name", "stream",
	    "launch_uid", "launch_name", "cpu_duration_us",
	    "gpu_duration_us", "launch_delay_us", "outlier", NULL };
	static const char *const scols[] = { "name", "count",
	    "cpu_duration_us_mean", "cpu_duration_us_max",
	    "gpu_duration_us_mean", "launch_delay_us_sum",
	    "launch_delay_us_mean", "launch_delay_us_median",
	    "launch_delay_us_std", "launch_delay_us_min",
	    "launch_delay_us_max", "cpu_outliers", "delay_outliers", NULL };
	struct lrow *R;
	struct lstat *S;
	struct grouper g = { 1, NULL, 0, 0, NULL, 0 };
	uint32_t *grp, *mem;
	size_t i, j, n = 0, ns, *off;
	double rc, lc, *v;
	struct tl_kahan k;
	struct table *s = t + 1;

	if (which == T_LAUNCHSTATS) {
		if (want[T_LAUNCH])
			return;
		s = t--;
	}
	tab_init(t, agg_tab[T_LAUNCH].name, NULL, cols);
	tab_init(s, agg_tab[T_LAUNCHSTATS].name, NULL, scols);
	rc = agg_nat ? agg_runtimecut * 1e3 : agg_runtimecut;
	lc = agg_nat ? agg_launchcut * 1e3 : agg_launchcut;
	R = xcalloc(A->ngts + 1, sizeof *R);
	for (i = 0; i < A->n; i++) {
		const struct ev *e = &A->e[i];
		struct lrow *l;

		if (!TL_K_ISGPU(e->kind) || e->parent == NONE ||
		    !TL_K_ISLAUNCH(A->e[e->parent].kind))
			continue;
		l = &R[n++];
		l->g = (uint32_t)i;
		l->r = e->parent;
		l->cpu = ev_dur(&A->e[l->r]);
		l->gpu = ev_dur(e);
		l->delay = ev_ts(e) - ev_end(&A->e[l->r]);
		l->out = (l->cpu > rc) | (l->delay > lc) << 1;
	}
	if (n == 0) {
		agg_empty(want[T_LAUNCH] ? t : s,
		    "no GPU events linked to a launch");
		free(R);
		return;
	}
	if (want[T_LAUNCH])
		for (i = 0; i < n; i++) {
			static const char *const outl[] = { NULL, "cpu",
			    "delay", "cpu,delay" };
			const struct ev *e = &A->e[R[i].g];

			tab_int(t, e->uid);
			tab_id(t, e->name);
			tab_id(t, ev_stream(e));
			tab_int(t, A->e[R[i].r].uid);
			tab_id(t, A->e[R[i].r].name);
			tab_dbl(t, agg_us(R[i].cpu));
			tab_dbl(t, agg_us(R[i].gpu));
			tab_dbl(t, agg_us(R[i].delay));
			tab_cstr(t, outl[R[i].out]);
		}
	if (!want[T_LAUNCHSTATS]) {
		free(R);
		return;
	}
	/* By name; R, and so each name's rows, in event order. */
	grp = xreallocarray(NULL, n + 1, sizeof *grp);
	for (i = 0; i < n; i++)
		grp[i] = (uint32_t)gfind(&g, &A->e[R[i].g].name);
	members(grp, n, g.ngroup, &off, &mem);
	S = xcalloc(g.ngroup + 1, sizeof *S);
	for (ns = 0; ns < g.ngroup; ns++) {
		S[ns].lo = off[ns];
		S[ns].hi = off[ns + 1];
		S[ns].name = g.key[ns];
		k.s = k.c = 0;
		for (j = off[ns]; j < off[ns + 1]; j++)
			tl_kahan_add(&k, R[mem[j]].delay);
		S[ns].delay = k.s;
	}
	qsort(S, ns, sizeof *S, cmplstat);
	v = xcalloc(n + 1, sizeof *v);
	for (i = 0; i < ns; i++) {
		size_t m = S[i].hi - S[i].lo, co = 0, dout = 0;
		double cmax = -INFINITY, csum = 0, gsum = 0;
		struct tl_stats st;

		for (j = 0; j < m; j++) {
			const struct lrow *l = &R[mem[S[i].lo + j]];

			v[j] = l->delay;
			csum += l->cpu;
			gsum += l->gpu;
			if (l->cpu > cmax)
				cmax = l->cpu;
			co += l->out & 1;
			dout += (l->out & 2) != 0;
		}
		tl_stats(&st, v, m);
		tab_id(s, S[i].name);
		tab_int(s, (int64_t)m);
		tab_dbl(s, agg_us(csum / (double)m));
		tab_dbl(s, agg_us(cmax));
		tab_dbl(s, agg_us(gsum / (double)m));
		tab_dbl(s, agg_us(st.sum));
		tab_dbl(s, agg_us(st.mean));
		tab_dbl(s, agg_us(st.median));
		tab_dbl(s, agg_us(st.std));
		tab_dbl(s, agg_us(st.min));
		tab_dbl(s, agg_us(st.max));
		tab_int(s, (int64_t)co);
		tab_int(s, (int64_t)dout);
	}
	free(v);
	free(S);
	free(grp);
	free(off);
	free(mem);
	gfree(&g);
	free(R);
}

void
hta(struct table *tabs)
{
	int i;

	gather();
	for (i = T_IDLE; i < NTABLES; i++)
		if (agg_want[i])
			agg_tab[i].build(&tabs[i], i);
	free(G);
	free(Gd);
	G = Gd = NULL;
	ng = 0;
}
