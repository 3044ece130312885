/*
 * tl-hta: HTA's call graph (trace_call_graph.CallGraph, spec 12.1) of a
 * rank, and the frequent CUDA kernel sequences under an operator
 * (get_frequent_cuda_kernel_sequences, spec 12): the host events of
 * each CPU thread nested by time, each kernel a child of its launch,
 * the backward thread stitched under the main thread's "## backward ##"
 * span; then, for the shallowest events whose name holds the operator,
 * the names of the kernels under each, counted as patterns.
 */
#define _GNU_SOURCE		/* memmem */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/npsort.h"
#include "hta.h"

#define NONE	SIZE_MAX


static const struct row *R;

/* Host rows by thread, start, longer first, lower index. */
static int
cmpnest(const void *a, const void *b)
{
	const struct row *x = &R[*(const size_t *)a];
	const struct row *y = &R[*(const size_t *)b];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

static int
cmpidx(const void *a, const void *b)
{
	const struct row *x = &R[*(const size_t *)a];
	const struct row *y = &R[*(const size_t *)b];

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return (*(const size_t *)a > *(const size_t *)b) -
	    (*(const size_t *)a < *(const size_t *)b);
}

static void
addchild(struct cg *g, size_t p, size_t c)
{
	size_t *l = &g->child[p];

	g->parent[c] = p;
	while (*l != NONE)	/* children in order: appended */
		l = &g->next[*l];
	*l = c;
	g->next[c] = NONE;
}

static int
has(uint32_t name, const char *p)
{
	size_t n;
	const char *s = hta_s(name, &n);

	return memmem(s, n, p, strlen(p)) != NULL;
}

static int
starts(uint32_t name, const char *p)
{
	size_t n, k = strlen(p);
	const char *s = hta_s(name, &n);

	return n >= k && memcmp(s, p, k) == 0;
}

static void
setdepth(struct cg *g, size_t i, int64_t d)
{
	size_t c;

	g->depth[i] = d;
	for (c = g->child[i]; c != NONE; c = g->next[c])
		setdepth(g, c, d + 1);
}

/* The call graph of rank rk. */
void
hta_callgraph(const struct rank *rk, struct cg *g)
{
	size_t n = rk->n, i, j, k, *h, nh = 0, *st, ns, *byix;
	size_t *tops = NULL, ntop = 0, cap = 0;
	char *gputhr;
	uint32_t zero = tl_intern(hta_str, "0", 1);

	R = rk->r;
	g->parent = xreallocarray(NULL, n + 1, sizeof *g->parent);
	g->child = xreallocarray(NULL, n + 1, sizeof *g->child);
	g->next = xreallocarray(NULL, n + 1, sizeof *g->next);
	g->depth = xreallocarray(NULL, n + 1, sizeof *g->depth);
	g->nk = xcalloc(n + 1, sizeof *g->nk);
	g->kdur = xcalloc(n + 1, sizeof *g->kdur);
	for (i = 0; i < n; i++) {
		g->parent[i] = g->child[i] = g->next[i] = NONE;
		g->depth[i] = -1;
	}
	/* the rows of each thread: a thread is on the GPU when all its
	 * streams are > 0, or its pid or tid is 0 */
	h = xreallocarray(NULL, n + 1, sizeof *h);
	for (i = 0; i < n; i++)
		h[i] = i;
	qsort(h, n, sizeof *h, cmpnest);
	gputhr = xcalloc(n + 1, 1);
	for (i = 0; i < n; i = j) {
		int gpu = R[h[i]].pid == zero || R[h[i]].tid == zero;
		int all = 1;

		for (j = i; j < n && R[h[j]].pid == R[h[i]].pid &&
		    R[h[j]].tid == R[h[i]].tid; j++)
			all &= R[h[j]].stream > 0;
		for (k = i; k < j; k++)
			gputhr[h[k]] = (char)(gpu || all);
	}
	for (i = 0, nh = 0; i < n; i++)
		if (!gputhr[h[i]] && R[h[i]].stream == -1)
			h[nh++] = h[i];
	/* nest: a start pops what ended before it (an event ending where
	 * another starts is its sibling, unless that one lasts no time) */
	st = xreallocarray(NULL, nh + 1, sizeof *st);
	for (i = 0, ns = 0; i < nh; i++) {
		const struct row *e = &R[h[i]];

		if (i > 0 && (e->pid != R[h[i - 1]].pid ||
		    e->tid != R[h[i - 1]].tid))
			ns = 0;
		while (ns > 0) {
			const struct row *t = &R[st[ns - 1]];
			double tend = (double)t->ts + t->dur;

			if (tend < (double)e->ts || (tend == (double)e->ts &&
			    e->dur > 0))
				ns--;
			else
				break;
		}
		if (ns > 0)
			addchild(g, st[ns - 1], h[i]);
		else {
			xgrow(&tops, &cap, ntop + 1, sizeof *tops);
			tops[ntop++] = h[i];
		}
		st[ns++] = h[i];
	}
	/* kernels under their launches */
	byix = xreallocarray(NULL, n + 1, sizeof *byix);
	for (i = 0; i < n; i++)
		byix[i] = i;
	qsort(byix, n, sizeof *byix, cmpidx);
	for (i = 0; i < n; i++) {
		size_t lo = 0, hi = n;

		if (!(R[i].stream > 0 && R[i].ic > 0))
			continue;
		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2;

			if (R[byix[m]].index < R[i].ic)
				lo = m + 1;
			else
				hi = m;
		}
		if (lo < n && R[byix[lo]].index == R[i].ic &&
		    R[byix[lo]].stream == -1 && !gputhr[byix[lo]])
			addchild(g, byix[lo], i);
	}
	/* backward stitching: one thread with ProfilerStep#, one (else)
	 * with autograd:: */
	{
		size_t mainr = NONE, bwdr = NONE, m = 0, b = 0, t;
		uint32_t mp = 0, mt = 0, bp = 0, bt = 0;

		for (i = 0; i < nh; i++) {
			const struct row *e = &R[h[i]];

			if (starts(e->name, "ProfilerStep#") && (m == 0 ||
			    e->pid != mp || e->tid != mt)) {
				if (m == 0 || e->pid != mp || e->tid != mt)
					m++;
				mp = e->pid;
				mt = e->tid;
				mainr = h[i];
			}
			if (has(e->name, "autograd::") && (b == 0 ||
			    e->pid != bp || e->tid != bt)) {
				b++;
				bp = e->pid;
				bt = e->tid;
				bwdr = h[i];
			}
		}
		if (m == 1 && b == 1 && (mp != bp || mt != bt)) {
			(void)mainr;
			(void)bwdr;
			for (t = 0; t < ntop; t++) {
				const struct row *e = &R[tops[t]];
				size_t best = NONE, pass;

				if (e->pid != bp || e->tid != bt)
					continue;
				for (pass = 0; pass < 2 && best == NONE; pass++)
					for (i = 0; i < nh && best == NONE; i++) {
						const struct row *s = &R[h[i]];

						if (s->pid != mp || s->tid != mt)
							continue;
						if (pass == 0 ? !has(s->name,
						    "## backward ##") :
						    !starts(s->name,
						    "ProfilerStep#"))
							continue;
						if (e->ts >= s->ts && (double)
						    e->ts + e->dur <= (double)
						    s->ts + s->dur)
							best = h[i];
					}
				if (best != NONE)
					addchild(g, best, tops[t]);
			}
		}
	}
	for (i = 0; i < ntop; i++)
		if (g->parent[tops[i]] == NONE)
			setdepth(g, tops[i], 0);
	/* GPU descendants: up from each kernel */
	for (i = 0; i < n; i++) {
		size_t p;

		if (!(R[i].stream > 0 && g->parent[i] != NONE))
			continue;
		for (p = g->parent[i]; p != NONE; p = g->parent[p]) {
			g->nk[p]++;
			g->kdur[p] += R[i].dur;
		}
	}
	free(h);
	free(st);
	free(byix);
	free(tops);
	free(gputhr);
}

void
hta_cgfree(struct cg *g)
{
	free(g->parent);
	free(g->child);
	free(g->next);
	free(g->depth);
	free(g->nk);
	free(g->kdur);
}

/* The GPU rows under i (i included), in visiting order. */
static void
collect(const struct cg *g, size_t i, size_t **v, size_t *nv, size_t *cap)
{
	size_t c;

	if (R[i].stream != -1) {
		xgrow(v, cap, *nv + 1, sizeof **v);
		(*v)[(*nv)++] = i;
	}
	for (c = g->child[i]; c != NONE; c = g->next[c])
		collect(g, c, v, nv, cap);
}

struct pat {
	uint32_t pattern;
	int64_t count;
	double kdur, cdur;
};

static struct pat *PAT;

static int
cmppat(size_t a, size_t b)
{
	size_t n;

	if (PAT[a].count != PAT[b].count)
		return PAT[a].count > PAT[b].count ? -1 : 1;
	return strcmp(hta_s(PAT[a].pattern, &n), hta_s(PAT[b].pattern, &n));
}

void
hta_sequences(char **ops, size_t nops, long minlen)
{
	const struct rank *rk = NULL;
	struct cg g;
	size_t o, i, k;
	char file[256];

	for (i = 0; i < hta_nrk && rk == NULL; i++)
		if (hta_rk[i].rank == 0)
			rk = &hta_rk[i];
	if (rk == NULL) {
		tl_warnx("frequent_cuda_kernel_sequences: no rank 0: not "
		    "written");
		return;
	}
	hta_callgraph(rk, &g);
	for (o = 0; o < nops; o++) {
		int64_t mind = INT64_MAX;
		size_t np = 0, cap = 0, *v = NULL, nv, capv = 0, *p;
		struct tl_out sb;
		struct csv *c;
		double *key;

		for (i = 0; i < rk->n; i++)
			if (g.depth[i] >= 0 && g.depth[i] < mind &&
			    has(rk->r[i].name, ops[o]))
				mind = g.depth[i];
		PAT = NULL;
		tl_out_init(&sb, -1, "pattern");
		for (i = 0; i < rk->n; i++) {
			size_t n;
			const char *s;
			uint32_t id;

			if (g.depth[i] != mind || g.nk[i] < minlen ||
			    !has(rk->r[i].name, ops[o]))
				continue;
			nv = 0;
			collect(&g, i, &v, &nv, &capv);
			key = xreallocarray(NULL, nv + 1, sizeof *key);
			p = xreallocarray(NULL, nv + 1, sizeof *p);
			for (k = 0; k < nv; k++)
				key[k] = (double)rk->r[v[k]].ts;
			tl_argsort(key, nv, p);
			sb.n = 0;
			s = hta_s(rk->r[i].name, &n);
			tl_out_raw(&sb, s, n);
			for (k = 0; k < nv; k++) {
				s = hta_s(rk->r[v[p[k]]].name, &n);
				tl_out_char(&sb, '|');
				tl_out_raw(&sb, s, n);
			}
			free(key);
			free(p);
			id = tl_intern(hta_str, sb.buf, sb.n);
			for (k = 0; k < np && PAT[k].pattern != id; k++)
				;
			if (k == np) {
				xgrow(&PAT, &cap, np + 1, sizeof *PAT);
				memset(&PAT[np++], 0, sizeof *PAT);
				PAT[k].pattern = id;
			}
			PAT[k].count++;
			PAT[k].kdur += g.kdur[i];
			PAT[k].cdur += rk->r[i].dur;
		}
		free(sb.buf);
		free(v);
		/* the file name: the operator with ':' as '_' */
		snprintf(file, sizeof file, "frequent_cuda_kernel_sequences_"
		    "%s.csv", ops[o]);
		for (k = 0; file[k] != '\0'; k++)
			if (file[k] == ':' || file[k] == '/')
				file[k] = '_';
		c = csv_open(file);
		if (np == 0)
			csv_hdr(c, "\"\"");
		else
			csv_hdr(c, ",pattern,count,GPU kernel duration (us),"
			    "CPU op duration (us)");
		p = xreallocarray(NULL, np + 1, sizeof *p);
		for (k = 0; k < np; k++)
			p[k] = k;
		hta_stable(p, np, cmppat);
		for (k = 0; k < np; k++) {
			csv_i(c, (int64_t)k);
			csv_id(c, PAT[p[k]].pattern);
			csv_i(c, PAT[p[k]].count);
			csv_f(c, PAT[p[k]].kdur);
			csv_f(c, PAT[p[k]].cdur);
			csv_end(c);
		}
		csv_close(c);
		free(p);
		free(PAT);
	}
	hta_cgfree(&g);
}
