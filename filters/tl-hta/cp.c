/*
 * tl-hta: HTA's critical path (critical_path_analysis, spec 13): a graph
 * whose nodes are the starts and ends of the host calls and kernels in
 * one annotation's window, whose edges are the operators, the call
 * nesting, the CUDA runtime lock, launch and kernel-to-kernel delays and
 * synchronisations, and its longest path as networkx 2.8 finds it;
 * written as HTA's breakdown, summary, nodes and edges.
 */
#define _GNU_SOURCE		/* memmem */
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/npsort.h"
#include "hta.h"

#define NONE	SIZE_MAX
#define NOATTR	INT64_MIN

enum { E_OP, E_DEP, E_LAUNCH, E_KK, E_SYNC };
static const char *const etype[] = { "critical_path_operator",
    "critical_path_dependency", "critical_path_kernel_launch_delay",
    "critical_path_kernel_kernel_delay", "critical_path_sync_dependency" };

struct node {
	size_t ev;		/* row */
	double ts;
	int start, crit;
	size_t ord;		/* place in the graph's node order, NONE */
};

struct edge {
	size_t u, v;
	double w;
	int type, crit;
	int64_t attr;		/* event index, or NOATTR */
	size_t nextout, nextin;	/* the next out-edge of u, in-edge of v */
};

static const struct rank *rk;
static struct node *nd;
static size_t nn;
static struct edge *ed;
static size_t ne, cape;
static size_t *fout, *lout, *fin, *lin;	/* edge lists of each node */
static size_t *gorder, ngorder;		/* nodes by entry into the graph */
static size_t *snode, *enode;		/* each row's nodes, NONE */
static size_t *parent, *kid, *sib, *lastkid;	/* the call stacks */
static size_t *byix;			/* rows by index */
static uint32_t *tidof;			/* tids, the backward one renamed */

static void
touch(size_t n)
{
	if (nd[n].ord == NONE) {
		nd[n].ord = ngorder;
		gorder[ngorder++] = n;
	}
}

/* networkx's add_edge: a new edge goes last; an edge already there
 * takes the new attributes and keeps its place. */
static void
addedge(size_t u, size_t v, int type, int64_t attr, int zero)
{
	size_t e;
	double w = (type == E_DEP || type == E_SYNC || zero) ? 0 :
	    nd[v].ts - nd[u].ts;

	touch(u);
	touch(v);
	for (e = fout[u]; e != NONE; e = ed[e].nextout)
		if (ed[e].v == v) {
			ed[e].w = w;
			ed[e].type = type;
			ed[e].attr = attr;
			return;
		}
	xgrow(&ed, &cape, ne + 1, sizeof *ed);
	ed[ne] = (struct edge){ u, v, w, type, 0, attr, NONE, NONE };
	if (lout[u] == NONE)
		fout[u] = ne;
	else
		ed[lout[u]].nextout = ne;
	lout[u] = ne;
	if (lin[v] == NONE)
		fin[v] = ne;
	else
		ed[lin[v]].nextin = ne;
	lin[v] = ne;
	ne++;
}

static int
is(const char *s, size_t n, const char *p)
{
	return n == strlen(p) && memcmp(s, p, n) == 0;
}

static int
nameis(size_t r, const char *p)
{
	size_t n;
	const char *s = hta_s(rk->r[r].name, &n);

	return is(s, n, p);
}

static int
catis(size_t r, const char *p)
{
	size_t n;
	const char *s = hta_s(rk->r[r].cat, &n);

	return is(s, n, p);
}

static int
lockev(size_t r)
{
	return nameis(r, "cudaHostAlloc") || nameis(r, "cudaLaunchKernel") ||
	    nameis(r, "cudaMemcpyAsync");
}

static int
blocking(size_t r)
{
	return nameis(r, "cudaDeviceSynchronize") ||
	    nameis(r, "cudaStreamSynchronize") ||
	    nameis(r, "cudaEventQuery") || nameis(r, "cudaEventSynchronize") ||
	    nameis(r, "cudaMemcpy") || nameis(r, "cudaMemcpyAsync");
}

/* Both nodes of runtime-lock events, and not an end then a start. */
static int
sharelock(size_t a, size_t b)
{
	return lockev(nd[a].ev) && lockev(nd[b].ev) &&
	    !(!nd[a].start && nd[b].start);
}

/* The event an operator edge u -> v is attributed to (spec 13.4). */
static int64_t
attribute(size_t u, size_t v)
{
	if (nd[u].start)
		return rk->r[nd[u].ev].index;
	if (!nd[v].start)
		return rk->r[nd[v].ev].index;
	return parent[nd[u].ev] == NONE ? -1 : rk->r[parent[nd[u].ev]].index;
}

static int
cmpnode(const void *a, const void *b)
{
	const struct node *x = a, *y = b;
	int64_t ix = rk->r[x->ev].index, iy = rk->r[y->ev].index;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (ix != iy)
		return ix < iy ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	return y->start - x->start;
}

static int
cmpi64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int
cmpidx(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (rk->r[x].index != rk->r[y].index)
		return rk->r[x].index < rk->r[y].index ? -1 : 1;
	return (x > y) - (x < y);
}

/* The first row of index ix, or NONE. */
static size_t
findix(int64_t ix)
{
	size_t lo = 0, hi = rk->n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (rk->r[byix[m]].index < ix)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < rk->n && rk->r[byix[lo]].index == ix ? byix[lo] : NONE;
}

/* A start or an end of a host row, in compare_events order. */
struct pt {
	size_t r;
	int start;
	double t, d;
};

static int
cmppt(const void *a, const void *b)
{
	const struct pt *x = a, *y = b;
	const struct row *rx = &rk->r[x->r], *ry = &rk->r[y->r];
	int64_t ix = rx->index, iy = ry->index;

	if (rx->pid != ry->pid)
		return rx->pid < ry->pid ? -1 : 1;
	if (tidof[x->r] != tidof[y->r])
		return tidof[x->r] < tidof[y->r] ? -1 : 1;
	if (x->r == y->r)
		return y->start - x->start;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->start && y->start) {
		if (x->d != y->d)
			return x->d > y->d ? -1 : 1;
		return ix < iy ? -1 : ix > iy;
	}
	if (!x->start && !y->start) {
		if (x->d != y->d)
			return x->d < y->d ? -1 : 1;
		return ix > iy ? -1 : ix < iy;
	}
	if (x->d > 0 && y->d > 0)
		return x->start ? 1 : -1;
	if (x->d == 0 && y->d == 0)
		return ix < iy ? -1 : ix > iy;
	return x->start ? -1 : 1;
}

static void
addkid(size_t p, size_t c)
{
	parent[c] = p;
	if (lastkid[p] == NONE)
		kid[p] = c;
	else
		sib[lastkid[p]] = c;
	lastkid[p] = c;
}

/* Distinct tids of the clipped rows that pass f: 1 when exactly one. */
static int
onetid(const char *in, int (*f)(size_t), uint32_t *tid)
{
	size_t i;
	int k = 0;

	for (i = 0; i < rk->n; i++)
		if (in[i] && f(i) && (k == 0 || rk->r[i].tid != *tid)) {
			if (k == 1)
				return 0;
			*tid = rk->r[i].tid;
			k = 1;
		}
	return k;
}

static int
isfwd(size_t r)
{
	size_t n;
	const char *s = hta_s(rk->r[r].name, &n);

	return (catis(r, "cpu_op") || catis(r, "user_annotation")) &&
	    memmem(s, n, "forward", 7) != NULL;
}

static int
isbwd(size_t r)
{
	size_t n;
	const char *s = hta_s(rk->r[r].name, &n);

	return memmem(s, n, "autograd", 8) != NULL;
}

/* Pass 2 over an event of a host thread and its children. */
static void
dfs(size_t r, size_t *last, int opdepth)
{
	size_t c, s = snode[r], e = enode[r];
	int has = s != NONE;

	if (has) {
		if (*last != NONE && !sharelock(*last, s))
			addedge(*last, s, opdepth == 0 ? E_DEP : E_OP,
			    opdepth == 0 ? NOATTR : attribute(*last, s), 0);
		*last = s;
	}
	for (c = kid[r]; c != NONE; c = sib[c])
		dfs(c, last, opdepth + has);
	if (has) {
		if (*last != NONE && !sharelock(*last, e))
			addedge(*last, e, E_OP, attribute(*last, e),
			    blocking(r));
		*last = e;
	}
}

/* Pass 2: the call stacks of the host threads (no row of stream > 0),
 * of their host rows: a GPU thread whose stream is 0 (ROCm) makes none. */
static void
stacks(const char *in)
{
	size_t n = rk->n, i, j, k, np = 0, ns, *st, last;
	struct pt *p = xreallocarray(NULL, 2 * n + 1, sizeof *p);
	uint32_t fwd = 0, bwd = 0;
	char *gpu;

	for (i = 0; i < n; i++)
		tidof[i] = rk->r[i].tid;
	if (onetid(in, isfwd, &fwd) && onetid(in, isbwd, &bwd) && fwd != bwd)
		for (i = 0; i < n; i++)
			if (tidof[i] == bwd)
				tidof[i] = fwd;
	for (i = 0; i < n; i++)
		if (in[i] && rk->r[i].stream == -1) {
			p[np].r = i;
			p[np].start = 1;
			p[np].t = (double)rk->r[i].ts;
			p[np].d = rk->r[i].dur < 0 ? 0 : rk->r[i].dur;
			p[np + 1] = p[np];
			p[np + 1].start = 0;
			p[np + 1].t = p[np].t + p[np].d;
			np += 2;
		}
	qsort(p, np, sizeof *p, cmppt);
	gpu = xcalloc(np + 1, 1);
	st = xreallocarray(NULL, n + 1, sizeof *st);
	for (i = 0; i < np; i = j) {
		int g = 0;

		for (j = i; j < np && rk->r[p[j].r].pid == rk->r[p[i].r].pid &&
		    tidof[p[j].r] == tidof[p[i].r]; j++)
			g |= rk->r[p[j].r].stream > 0;
		if (g)
			continue;
		ns = 0;
		last = NONE;
		for (k = i; k < j; k++) {
			size_t r = p[k].r;

			if (!p[k].start) {
				if (ns > 0)
					ns--;
				continue;
			}
			if (ns > 0)
				addkid(st[ns - 1], r);
			st[ns++] = r;
		}
		for (k = i; k < j; k++)
			if (p[k].start && parent[p[k].r] == NONE)
				dfs(p[k].r, &last, 0);
	}
	free(gpu);
	free(st);
	free(p);
}

/* The (pid, stream) of a row as one key. */
struct skey {
	uint32_t pid;
	int64_t stream;
	size_t last;		/* the end node of its last kernel */
};

static struct skey *sk;
static size_t nsk, capsk;

static struct skey *
streamof(uint32_t pid, int64_t stream)
{
	size_t i;

	for (i = 0; i < nsk; i++)
		if (sk[i].pid == pid && sk[i].stream == stream)
			return &sk[i];
	xgrow(&sk, &capsk, nsk + 1, sizeof *sk);
	sk[nsk].pid = pid;
	sk[nsk].stream = stream;
	sk[nsk].last = NONE;
	return &sk[nsk++];
}

/*
 * The kernels with a host launch, by (pid, stream, launch ts, row) for
 * the source of a wait, and by (launch pid, launch tid, stream, launch
 * ts, row) for the kernel that must wait; the cudaEventRecord calls by
 * correlation. Sorted once: a trace may have a wait every step.
 */
struct kl {
	size_t k, l;		/* kernel and launch rows */
};

static struct kl *ka, *kb;
static size_t nkl, *recs, nrec;

static int
cmpka(const void *a, const void *b)
{
	const struct row *x = &rk->r[((const struct kl *)a)->k];
	const struct row *y = &rk->r[((const struct kl *)b)->k];
	const struct row *lx = &rk->r[((const struct kl *)a)->l];
	const struct row *ly = &rk->r[((const struct kl *)b)->l];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (lx->ts != ly->ts)
		return lx->ts < ly->ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int
cmpkb(const void *a, const void *b)
{
	const struct row *x = &rk->r[((const struct kl *)a)->k];
	const struct row *y = &rk->r[((const struct kl *)b)->k];
	const struct row *lx = &rk->r[((const struct kl *)a)->l];
	const struct row *ly = &rk->r[((const struct kl *)b)->l];

	if (lx->pid != ly->pid)
		return lx->pid < ly->pid ? -1 : 1;
	if (lx->tid != ly->tid)
		return lx->tid < ly->tid ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (lx->ts != ly->ts)
		return lx->ts < ly->ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int
cmprec(const void *a, const void *b)
{
	const struct row *x = &rk->r[*(const size_t *)a];
	const struct row *y = &rk->r[*(const size_t *)b];

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static void
klmake(void)
{
	size_t i, l;

	ka = xreallocarray(NULL, rk->n + 1, sizeof *ka);
	recs = xreallocarray(NULL, rk->n + 1, sizeof *recs);
	nkl = nrec = 0;
	for (i = 0; i < rk->n; i++) {
		if (rk->r[i].stream == -1 && nameis(i, "cudaEventRecord"))
			recs[nrec++] = i;
		if (rk->r[i].stream == -1 || rk->r[i].ic <= 0 ||
		    (l = findix(rk->r[i].ic)) == NONE ||
		    rk->r[l].stream != -1)
			continue;
		ka[nkl].k = i;
		ka[nkl++].l = l;
	}
	kb = xreallocarray(NULL, nkl + 1, sizeof *kb);
	memcpy(kb, ka, nkl * sizeof *kb);
	qsort(ka, nkl, sizeof *ka, cmpka);
	qsort(kb, nkl, sizeof *kb, cmpkb);
	qsort(recs, nrec, sizeof *recs, cmprec);
}

static void
klfree(void)
{
	free(ka);
	free(kb);
	free(recs);
}

/* The kernel whose launch is the last before the cudaEventRecord of
 * correlation corr, on (pid, stream): the source of a wait, or NONE. */
static size_t
waitsrc(uint32_t pid, int64_t stream, int64_t corr)
{
	size_t lo = 0, hi = nrec, m;
	int64_t rts;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (rk->r[recs[m]].corr < corr)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == nrec || rk->r[recs[lo]].corr != corr)
		return NONE;
	rts = rk->r[recs[lo]].ts;
	/* the first of (pid, stream) with a launch at or after rts */
	lo = 0;
	hi = nkl;
	while (lo < hi) {
		const struct row *k, *l;

		m = lo + (hi - lo) / 2;
		k = &rk->r[ka[m].k];
		l = &rk->r[ka[m].l];
		if (k->pid < pid || (k->pid == pid && (k->stream < stream ||
		    (k->stream == stream && l->ts < rts))))
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == 0 || rk->r[ka[lo - 1].k].pid != pid ||
	    rk->r[ka[lo - 1].k].stream != stream)
		return NONE;
	return ka[lo - 1].k;
}

/* The kernel launched first after launch row l (its pid and tid) onto
 * stream, or NONE. */
static size_t
nextlaunch(size_t l, int64_t stream)
{
	const struct row *w = &rk->r[l];
	size_t lo = 0, hi = nkl, m;

	while (lo < hi) {
		const struct row *k, *x;

		m = lo + (hi - lo) / 2;
		k = &rk->r[kb[m].k];
		x = &rk->r[kb[m].l];
		if (x->pid < w->pid || (x->pid == w->pid && (x->tid < w->tid ||
		    (x->tid == w->tid && (k->stream < stream ||
		    (k->stream == stream && x->ts <= w->ts))))))
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == nkl || rk->r[kb[lo].l].pid != w->pid ||
	    rk->r[kb[lo].l].tid != w->tid || rk->r[kb[lo].k].stream != stream)
		return NONE;
	return kb[lo].k;
}

/* Pass 3: kernels, launches and synchronisations. */
static void
kernels(const char *in)
{
	size_t n = rk->n, i, k, nk = 0, *K, *p, *pend;
	int64_t *qk = xreallocarray(NULL, n + 1, sizeof *qk);
	int64_t *ql = xreallocarray(NULL, n + 1, sizeof *ql);
	double *key;
	struct qpt *v;
	int64_t *st;
	size_t nv, nst;

	for (i = 0; i < n; i++)
		qk[i] = ql[i] = INT64_MIN;
	nv = hta_qseries(rk, &v, &st, &nst);
	for (i = 0; i < nv; i++) {
		size_t r = (size_t)(v[i].ev - rk->r);

		if (v[i].q < 0)
			qk[r] = v[i].len;
		else
			ql[r] = v[i].len;
	}
	free(v);
	free(st);
	K = xreallocarray(NULL, n + 1, sizeof *K);
	pend = xreallocarray(NULL, n + 1, sizeof *pend);
	for (i = 0; i < n; i++) {
		pend[i] = NONE;
		if (in[i] && rk->r[i].ic >= 0 && (rk->r[i].stream != -1 ||
		    nameis(i, "Event Sync") || nameis(i, "Context Sync")))
			K[nk++] = i;
	}
	key = xreallocarray(NULL, nk + 1, sizeof *key);
	p = xreallocarray(NULL, nk + 1, sizeof *p);
	for (i = 0; i < nk; i++)
		key[i] = (double)rk->r[K[i]].ts + (catis(K[i], "cuda_sync") ?
		    rk->r[K[i]].dur : 0);
	tl_argsort(key, nk, p);
	nsk = 0;
	klmake();
	for (k = 0; k < nk; k++) {
		size_t r = K[p[k]], l = findix(rk->r[r].ic), src, s, e, last;
		const struct row *R = &rk->r[r];
		struct skey *q;
		double lts;

		if (catis(r, "cuda_sync")) {
			const struct wait *w = hta_wait(rk, R->index);
			size_t re = l != NONE ? enode[l] : NONE;

			if (nameis(r, "Stream Wait Event") ||
			    nameis(r, "Event Sync")) {
				if (w == NULL || w->corr == -1 ||
				    (src = waitsrc(R->pid, w->stream,
				    w->corr)) == NONE)
					continue;
				if (nameis(r, "Event Sync")) {
					if (enode[src] != NONE && re != NONE)
						addedge(enode[src], re, E_SYNC,
						    NOATTR, 0);
					continue;
				}
				/* the next launch on the same thread and
				 * stream after the cudaStreamWaitEvent */
				if (l != NONE) {
					size_t g = nextlaunch(l, R->stream);

					if (g != NONE)
						pend[g] = src;
				}
			} else if (nameis(r, "Stream Sync")) {
				q = streamof(R->pid, R->stream);
				if (q->last != NONE && re != NONE)
					addedge(q->last, re, E_SYNC, NOATTR, 0);
			} else if (nameis(r, "Context Sync")) {
				size_t m;

				for (m = 0; m < nsk; m++)
					if (sk[m].last != NONE && re != NONE)
						addedge(sk[m].last, re, E_SYNC,
						    NOATTR, 0);
			}
			continue;
		}
		s = snode[r];
		e = enode[r];
		if (s == NONE)
			continue;
		addedge(s, e, E_OP, R->index, 0);
		src = pend[r];
		if (src != NONE && enode[src] != NONE)
			addedge(enode[src], s, E_SYNC, NOATTR, 0);
		q = streamof(R->pid, R->stream);
		last = q->last;
		lts = l != NONE ? (double)rk->r[l].ts : NAN;
		if (l != NONE && qk[r] == 0 && ql[l] == 1 &&
		    (last == NONE || nd[last].ts < lts) &&
		    (src == NONE || (double)rk->r[src].ts + rk->r[src].dur <
		    lts) && snode[l] != NONE)
			addedge(snode[l], s, E_LAUNCH, NOATTR, 0);
		else if (last != NONE && nd[s].ts - nd[last].ts < 1500 &&
		    (src == NONE || (double)rk->r[src].ts + rk->r[src].dur <
		    nd[last].ts))
			addedge(last, s, E_KK, rk->r[nd[last].ev].index, 0);
		q = streamof(R->pid, R->stream);
		q->last = e;
	}
	klfree();
	free(qk);
	free(ql);
	free(K);
	free(pend);
	free(key);
	free(p);
}

/* networkx 2.8's dag_longest_path: topological generations over the
 * graph's node order, each node's best predecessor the first maximum. */
static void
longest(void)
{
	size_t *indeg = xcalloc(nn + 1, sizeof *indeg), i, e, k;
	size_t *topo = xreallocarray(NULL, nn + 1, sizeof *topo), nt = 0;
	size_t *cur = xreallocarray(NULL, nn + 1, sizeof *cur), nc = 0;
	size_t *nxt = xreallocarray(NULL, nn + 1, sizeof *nxt), nx;
	double *dist = xreallocarray(NULL, nn + 1, sizeof *dist), best;
	size_t *from = xreallocarray(NULL, nn + 1, sizeof *from), v;

	for (e = 0; e < ne; e++)
		indeg[ed[e].v]++;
	for (k = 0; k < ngorder; k++)
		if (indeg[gorder[k]] == 0)
			cur[nc++] = gorder[k];
	while (nc > 0) {
		nx = 0;
		for (i = 0; i < nc; i++) {
			topo[nt++] = cur[i];
			for (e = fout[cur[i]]; e != NONE; e = ed[e].nextout)
				if (--indeg[ed[e].v] == 0)
					nxt[nx++] = ed[e].v;
		}
		memcpy(cur, nxt, nx * sizeof *cur);
		nc = nx;
	}
	if (nt < ngorder)
		tl_warnx("critical path: the graph has a cycle (HTA fails)");
	for (k = 0; k < nt; k++) {
		size_t u = topo[k], bu = u;
		double bd = 0;
		int any = 0;

		for (e = fin[u]; e != NONE; e = ed[e].nextin) {
			double d = dist[ed[e].u] + ed[e].w;

			if (!any || d > bd) {
				bd = d;
				bu = ed[e].u;
				any = 1;
			}
		}
		if (!any || bd < 0) {
			bd = 0;
			bu = u;
		}
		dist[u] = bd;
		from[u] = bu;
	}
	best = -INFINITY;
	v = NONE;
	for (k = 0; k < nt; k++)
		if (dist[topo[k]] > best) {
			best = dist[topo[k]];
			v = topo[k];
		}
	while (v != NONE) {
		size_t u = from[v];

		nd[v].crit = 1;
		if (u == v)
			break;
		for (e = fout[u]; e != NONE; e = ed[e].nextout)
			if (ed[e].v == v)
				ed[e].crit = 1;
		v = u;
	}
	free(indeg);
	free(topo);
	free(cur);
	free(nxt);
	free(dist);
	free(from);
}

/* Whether a name matches a --data_load_events pattern (re.search). */
static int
dataload_name(regex_t *dl, size_t ndl, const char *s, size_t n)
{
	char *z;
	size_t k;
	int hit = 0;

	if (ndl == 0)
		return 0;
	z = xmemdup(s, n);
	for (k = 0; k < ndl && !hit; k++)
		hit = regexec(&dl[k], z, 0, NULL, 0) == 0;
	free(z);
	return hit;
}

static const char *
boundby(const struct edge *g, regex_t *dl, size_t ndl)
{
	size_t r, n, k;
	const char *s;
	char *z;
	int hit = 0;

	switch (g->type) {
	case E_KK:
		return "gpu_kernel_kernel_overhead";
	case E_LAUNCH:
		return "gpu_kernel_launch_overhead";
	case E_DEP:
	case E_SYNC:
		return "";
	}
	r = g->attr >= 0 ? findix(g->attr) : NONE;
	if (r == NONE || rk->r[r].stream == -1) {
		if (r == NONE)
			return "cpu_bound";
		s = hta_s(hta_short(rk->r[r].name), &n);
		z = xmemdup(s, n);
		for (k = 0; k < ndl && !hit; k++)
			hit = regexec(&dl[k], z, 0, NULL, 0) == 0;
		free(z);
		return hit ? "data_loading" : "cpu_bound";
	}
	return (hta_ni(rk->r[r].name) & NI_COMM) ? "gpu_communication_bound" :
	    "gpu_compute_bound";
}

static void
writeall(int j, regex_t *dl, size_t ndl)
{
	char name[64];
	struct csv *c;
	size_t i, e, k, nb = 0, row = 0;
	double tot = 0;
	struct bsum {
		const char *b;
		double d;
	} bs[8];

	snprintf(name, sizeof name, "critical_path%d_nodes.csv", j);
	c = csv_open(name);
	csv_hdr(c, "node_id,ev_idx,ts,is_start,on_critical_path");
	for (i = 0; i < nn; i++) {
		csv_i(c, (int64_t)i);
		csv_i(c, rk->r[nd[i].ev].index);
		csv_f(c, nd[i].ts);
		csv_s(c, nd[i].start ? "True" : "False", nd[i].start ? 4 : 5);
		csv_s(c, nd[i].crit ? "True" : "False", nd[i].crit ? 4 : 5);
		csv_end(c);
	}
	csv_close(c);
	snprintf(name, sizeof name, "critical_path%d_edges.csv", j);
	c = csv_open(name);
	csv_hdr(c, "begin,end,weight,type,attributed_event,on_critical_path");
	for (k = 0; k < ngorder; k++)
		for (e = fout[gorder[k]]; e != NONE; e = ed[e].nextout) {
			csv_i(c, (int64_t)ed[e].u);
			csv_i(c, (int64_t)ed[e].v);
			csv_f(c, ed[e].w);
			csv_s(c, etype[ed[e].type], strlen(etype[ed[e].type]));
			csv_f(c, ed[e].attr == NOATTR ? NAN :
			    (double)ed[e].attr);
			csv_s(c, "False", 5);	/* HTA's edge objects */
			csv_end(c);
		}
	csv_close(c);
	snprintf(name, sizeof name, "critical_path%d_breakdown.csv", j);
	c = csv_open(name);
	csv_hdr(c, ",event_idx,duration,type,s_name,cat,pid,tid,stream,index,"
	    "bound_by");
	for (e = 0; e < ne; e++) {
		const struct edge *g = &ed[e];
		const char *b;
		size_t r;

		if (!g->crit)
			continue;
		b = boundby(g, dl, ndl);
		r = g->attr != NOATTR && g->attr >= 0 ? findix(g->attr) : NONE;
		csv_i(c, (int64_t)row++);
		csv_f(c, g->attr == NOATTR ? NAN : (double)g->attr);
		csv_f(c, g->w);
		csv_s(c, etype[g->type], strlen(etype[g->type]));
		if (r != NONE) {
			csv_id(c, hta_short(rk->r[r].name));
			csv_s(c, "", 0);	/* HTA's symbol id: see BUGS */
			csv_id(c, rk->r[r].pid);
			csv_id(c, rk->r[r].tid);
			csv_f(c, (double)rk->r[r].stream);
			csv_f(c, (double)rk->r[r].index);
		} else
			for (k = 0; k < 6; k++)
				csv_s(c, "", 0);
		csv_s(c, b, strlen(b));
		csv_end(c);
		for (k = 0; k < nb && strcmp(bs[k].b, b) != 0; k++)
			;
		if (k == nb) {
			bs[nb].b = b;
			bs[nb++].d = 0;
		}
		bs[k].d += g->w;
		tot += g->w;
	}
	csv_close(c);
	for (i = 1; i < nb; i++)	/* by bound_by */
		for (k = i; k > 0 && strcmp(bs[k].b, bs[k - 1].b) < 0; k--) {
			struct bsum t = bs[k];

			bs[k] = bs[k - 1];
			bs[k - 1] = t;
		}
	snprintf(name, sizeof name, "critical_path%d_summary.csv", j);
	c = csv_open(name);
	csv_hdr(c, "bound_by,duration");
	for (k = 0; k < nb; k++) {
		csv_s(c, bs[k].b, strlen(bs[k].b));
		csv_f(c, bs[k].d / tot * 100);
		csv_end(c);
	}
	csv_close(c);
}

void
hta_critical(const char *spec, int j, char **dls, size_t ndl)
{
	const char *colon = strrchr(spec, ':');
	char *annot = xmemdup(spec, colon != NULL ? (size_t)(colon - spec) :
	    strlen(spec));
	int64_t i0 = 0, i1 = 0;
	size_t i, k, n, na = 0, *an = NULL, cap = 0;
	double lo = INFINITY, hi = -INFINITY;
	char *in;
	regex_t *dl = xcalloc(ndl + 1, sizeof *dl);

	for (i = 0; i < ndl; i++)
		if (regcomp(&dl[i], dls[i], REG_EXTENDED | REG_NOSUB) != 0)
			tl_errx(1, "--data_load_events: bad regular expression"
			    " \"%s\"", dls[i]);
	if (colon != NULL && colon[1] != '\0') {
		char *e;

		i0 = i1 = strtoll(colon + 1, &e, 10);
		if (*e == '-')
			i1 = strtoll(e + 1, &e, 10);
		if (*e != '\0' || i0 < 0 || i1 < i0)
			tl_errx(1, "--critical_path: \"%s\": the instance is "
			    "not N or N-M", spec);
	}
	rk = NULL;
	for (i = 0; i < hta_nrk && rk == NULL; i++)
		if (hta_rk[i].rank == 0)
			rk = &hta_rk[i];
	if (rk == NULL)
		rk = &hta_rk[0];
	n = rk->n;
	if (annot[0] == '\0')
		for (i = 0; i < n; i++) {
			if ((double)rk->r[i].ts < lo)
				lo = (double)rk->r[i].ts;
			if (ENDRAW(&rk->r[i]) > hi)
				hi = ENDRAW(&rk->r[i]);
		}
	else {
		for (i = 0; i < n; i++) {
			size_t l;
			const char *s = hta_s(rk->r[i].name, &l);

			if (memmem(s, l, annot, strlen(annot)) != NULL) {
				xgrow(&an, &cap, na + 1, sizeof *an);
				an[na++] = i;
			}
		}
		if (na == 0) {
			tl_warnx("critical path %d: no event named like \"%s\""
			    " (HTA returns None): not written", j, annot);
			goto out;
		}
		if ((size_t)i1 >= na) {
			tl_warnx("critical path %d: \"%s\" has %zu "
			    "instance%s, not %" PRId64 " (HTA fails): not "
			    "written", j, annot, na, na == 1 ? "" : "s",
			    i1 + 1);
			goto out;
		}
		for (k = (size_t)i0; k <= (size_t)i1; k++) {
			const struct row *r = &rk->r[an[k]];

			if ((double)r->ts < lo)
				lo = (double)r->ts;
			if ((double)r->ts + r->dur > hi)
				hi = (double)r->ts + r->dur;
		}
	}
	byix = xreallocarray(NULL, n + 1, sizeof *byix);
	for (i = 0; i < n; i++)
		byix[i] = i;
	qsort(byix, n, sizeof *byix, cmpidx);
	/* the clipped table */
	in = xcalloc(n + 1, 1);
	for (i = 0; i < n; i++) {
		const struct row *r = &rk->r[i], *h = r;
		size_t l;

		if (r->stream != -1) {
			l = r->ic > 0 ? findix(r->ic) : NONE;
			h = l != NONE && rk->r[l].stream == -1 ? &rk->r[l] :
			    NULL;
		}
		if (h != NULL && lo <= (double)h->ts && (double)h->ts <= hi &&
		    h->dur > 0)
			in[i] = 1;
		if (nameis(i, "Stream Wait Event"))
			in[i] = 1;
	}
	/* the nodes */
	nd = xreallocarray(NULL, 2 * n + 1, sizeof *nd);
	nn = 0;
	for (i = 0; i < n; i++) {
		const struct row *r = &rk->r[i];
		size_t l;
		const char *s = hta_s(r->name, &l);

		if (!in[i])
			continue;
		if (!((r->stream == -1 && (catis(i, "cpu_op") ||
		    catis(i, "cuda_runtime") || catis(i, "cuda_driver"))) ||
		    dataload_name(dl, ndl, s, l) ||
		    (r->stream != -1 && r->ic >= 0)))
			continue;
		nd[nn] = (struct node){ i, (double)r->ts, 1, 0, NONE };
		nd[nn + 1] = (struct node){ i, (double)r->ts + r->dur, 0, 0,
		    NONE };
		nn += 2;
	}
	qsort(nd, nn, sizeof *nd, cmpnode);
	snode = xreallocarray(NULL, n + 1, sizeof *snode);
	enode = xreallocarray(NULL, n + 1, sizeof *enode);
	parent = xreallocarray(NULL, n + 1, sizeof *parent);
	kid = xreallocarray(NULL, n + 1, sizeof *kid);
	sib = xreallocarray(NULL, n + 1, sizeof *sib);
	lastkid = xreallocarray(NULL, n + 1, sizeof *lastkid);
	tidof = xreallocarray(NULL, n + 1, sizeof *tidof);
	for (i = 0; i < n; i++)
		snode[i] = enode[i] = parent[i] = kid[i] = sib[i] =
		    lastkid[i] = NONE;
	for (i = 0; i < nn; i++) {
		if (nd[i].start)
			snode[nd[i].ev] = i;
		else
			enode[nd[i].ev] = i;
	}
	fout = xreallocarray(NULL, nn + 1, sizeof *fout);
	lout = xreallocarray(NULL, nn + 1, sizeof *lout);
	fin = xreallocarray(NULL, nn + 1, sizeof *fin);
	lin = xreallocarray(NULL, nn + 1, sizeof *lin);
	gorder = xreallocarray(NULL, nn + 1, sizeof *gorder);
	for (i = 0; i < nn; i++)
		fout[i] = lout[i] = fin[i] = lin[i] = NONE;
	ngorder = ne = 0;
	/* pass 1: the runtime lock */
	{
		size_t *st = xreallocarray(NULL, nn + 1, sizeof *st), ns = 0;
		size_t prev = NONE;

		for (i = 0; i < nn; i++) {
			if (!lockev(nd[i].ev))
				continue;
			if (nd[i].start)
				st[ns++] = i;
			else {
				for (k = 0; k < ns; k++)
					if (nd[st[k]].ev == nd[i].ev)
						addedge(st[k], i, E_OP,
						    attribute(st[k], i), 0);
					else
						addedge(st[k], i, E_DEP,
						    NOATTR, 0);
				ns = 0;
				if (prev != NONE && !nd[prev].start)
					addedge(prev, i, E_DEP, NOATTR, 0);
			}
			prev = i;
		}
		free(st);
	}
	stacks(in);
	kernels(in);
	for (i = 0; i < ne; i++) {	/* validation */
		const struct row *a = &rk->r[nd[ed[i].u].ev];
		const struct row *b = &rk->r[nd[ed[i].v].ev];

		if (ed[i].w <= -1)
			ed[i].w = 0;
		if (ed[i].type == E_SYNC && a->stream != -1 &&
		    a->stream == b->stream && a->pid == b->pid)
			tl_warnx("critical path %d: a sync edge between two "
			    "kernels of stream %" PRId64 " (HTA fails)", j,
			    a->stream);
	}
	longest();
	writeall(j, dl, ndl);
	{
		/* the overlaid trace: the events of the path's nodes, the
		 * flows of its dependency, launch and sync edges */
		int64_t *crit = xreallocarray(NULL, nn + 1, sizeof *crit);
		struct cpflow *fl = xreallocarray(NULL, ne + 1, sizeof *fl);
		size_t nc = 0, nf = 0;

		for (i = 0; i < nn; i++)
			if (nd[i].crit)
				crit[nc++] = rk->r[nd[i].ev].index;
		qsort(crit, nc, sizeof *crit, cmpi64);
		for (i = 0; i < ne; i++) {
			const struct edge *g = &ed[i];

			if (!g->crit || !(g->type == E_DEP ||
			    g->type == E_SYNC || (g->type == E_LAUNCH &&
			    g->w != 0)))
				continue;
			fl[nf].src = rk->r[nd[g->u].ev].index;
			fl[nf].dst = rk->r[nd[g->v].ev].index;
			fl[nf].sstart = nd[g->u].start;
			fl[nf].dstart = nd[g->v].start;
			fl[nf].w = g->w;
			fl[nf++].type = etype[g->type];
		}
		hta_overlay(rk, j, crit, nc, fl, nf);
		free(crit);
		free(fl);
	}
	free(in);
	free(nd);
	free(ed);
	ed = NULL;
	ne = cape = 0;
	free(snode);
	free(enode);
	free(parent);
	free(kid);
	free(sib);
	free(lastkid);
	free(tidof);
	free(fout);
	free(lout);
	free(fin);
	free(lin);
	free(gorder);
	free(byix);
out:
	for (i = 0; i < ndl; i++)
		regfree(&dl[i]);
	free(dl);
	free(an);
	free(annot);
}
