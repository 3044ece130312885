/*
 * tl-graph: merge CUDA/HIP graph capture traces into the tree stream of a
 * graph replay trace, as TraceLens's merge_capture_trace_into_graph does:
 * each replayed kernel, which the replay trace hangs under one
 * cudaGraphLaunch/hipGraphLaunch, is re-parented under the launch call
 * that captured it, so that the captured op (with its shapes and its
 * python and nn.Module frames) becomes its launcher. The output is a tree
 * stream like tl-tree's: every row of the replay tree, the moved kernels'
 * tree columns changed, then a copy of the captured host subtree for each
 * graph launch. Every GPU event that could not be placed is counted, by
 * reason, on the standard error.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/interval.h"
#include "../common/json.h"
#include "../common/mem.h"
#include "../common/opt.h"
#include "../common/tsv.h"
#include "tl-graph/graph.h"

struct tl_intern *in;
uint32_t nm_execute;

static const char usage[] =
    "usage: tl-graph [-gnv] [-c folder [-e details.json]] [file]\n";

/* The capture folder's entries. */
struct entry {
	long long bs;
	int piecewise;
	char *path;		/* NULL: the file is missing */
};
static struct entry *ent;
static size_t nent;

/* A capture trace, loaded once, and its capture roots. */
struct capture {
	char *path;
	struct tree t;
	size_t nroot;
	int64_t *rts, *rte;	/* window of each capture root */
	uint32_t **rev;		/* its root events, window order */
	size_t *nrev;
};
static struct capture *cap;
static size_t ncap;

/* A merged pair: a capture root spliced under a graph launch. */
struct pair {
	struct capture *c;
	size_t croot;
	uint32_t g;		/* the graph launch, replay index */
	int64_t start;		/* uid of its CaptureRoot */
	uint32_t *ce;		/* spliced events (capture index, NONE for
				 * the CaptureRoot), in uid order */
	size_t nce;
	uint32_t *gk, *ck;	/* aligned GPU events and launches */
	size_t nk;
};
static struct pair *pairs;
static size_t npair, cappair;

int graph_nopipe;		/* capture traces: tree streams only */
static struct tree rep;		/* the replay tree */
static struct tl_out out;
static int64_t nextuid;
static struct tl_warns warns;
static const char *folder, *details;

/* Reasons a GPU event under a graph launch is left there. */
enum {
	R_NOROOT, R_NOBS, R_NOCAP, R_ROOTS, R_NOKERN, R_ALIGN, R_TWICE,
	R_FAILED, R_NOFOLDER, NREASON
};
static const char *const reason[NREASON] = {
	"no iteration annotation encloses the graph launch",
	"the iteration annotation names no batch size",
	"no capture trace for the batch size",
	"capture roots and graph launches differ in number",
	"the graph launch has no GPU events",
	"the capture's launches do not align with the replayed kernels",
	"the graph launch is in two iteration annotations: merged once",
	"a multi-stream capture without kernel names: merge abandoned",
	"no capture folder (-c)",
};
static uint64_t left[NREASON], ngraphk, nplaced;
static int64_t lefttime, gputime;	/* sums of durations, ns */
static int nflag;			/* -n: SGLang names */
static int gflag;			/* -g: copies with GPU work only */
static int vflag;			/* -v: each iteration's capture */
static uint8_t *ren;			/* per name id: renamed (-n) */
static size_t capren;

/* ---- the capture folder ---- */

static void
readdetails(void)
{
	FILE *fp;
	struct tl_jdoc d = { 0 };
	size_t n;
	int i, k;
	char *text;

	fp = fopen(details, "r");
	if (fp == NULL)
		tl_errx(1, "%s: no execution details (a JSON list of "
		    "{\"file\", \"batch_size\", \"mode\"}): write it, or "
		    "name it with -e", details);
	text = NULL;
	n = 0;
	for (;;) {
		size_t got;

		text = xrealloc(text, n + 65536);
		got = fread(text + n, 1, 65536, fp);
		n += got;
		if (got < 65536)
			break;
		if (n > ((size_t)64 << 20))
			tl_errx(1, "%s: larger than 64 MiB", details);
	}
	if (ferror(fp))
		tl_err(1, "%s", details);
	fclose(fp);
	if (tl_json_parse(&d, text, n) != 0 || d.ntok < 1 ||
	    d.tok[0].type != JSMN_ARRAY)
		tl_errx(1, "%s:0: not a JSON list", details);
	for (i = 1, k = 0; k < d.tok[0].size && i < d.ntok; k++) {
		int j = i + 1, end = tl_jskip(&d, i), kk;
		char *file = NULL, *mode = NULL;
		long long bs = -1;
		int bsok = 0;

		if (d.tok[i].type != JSMN_OBJECT) {
			tl_warns(&warns, "%s:%d: entry %d: not an object: "
			    "skipped", details, d.tok[i].start, k);
			i = end;
			continue;
		}
		for (kk = 0; kk < d.tok[i].size && j < end; kk++) {
			jsmntok_t *v = &d.tok[j + 1];
			size_t vl = (size_t)(v->end - v->start);
			unsigned bad = 0;

			if (tl_jeq(&d, j, "file") && v->type == JSMN_STRING) {
				free(file);
				file = xmalloc(vl + 1);
				file[tl_junescape(file, text + v->start, vl,
				    &bad)] = '\0';
			} else if (tl_jeq(&d, j, "mode") &&
			    v->type == JSMN_STRING) {
				free(mode);
				mode = xmemdup(text + v->start, vl);
			} else if (tl_jeq(&d, j, "batch_size") &&
			    v->type == JSMN_PRIMITIVE) {
				int64_t x;

				bsok = tl_parse_i64(text + v->start, vl, &x) == 0;
				bs = x;
			}
			j = tl_jskip(&d, j + 1);
		}
		if (mode == NULL || (strcmp(mode, "FULL") != 0 &&
		    strcmp(mode, "PIECEWISE") != 0) || !bsok) {
			tl_warns(&warns, "%s:%d: entry %d: %s: skipped",
			    details, d.tok[i].start, k, !bsok ?
			    "batch_size is not an integer" :
			    "mode is neither FULL nor PIECEWISE");
		} else {
			ent = xreallocarray(ent, nent + 1, sizeof *ent);
			ent[nent].bs = bs;
			ent[nent].piecewise = mode[0] == 'P';
			ent[nent].path = NULL;
			if (file != NULL) {
				char *path = xmalloc(strlen(folder) +
				    strlen(file) + 2);

				sprintf(path, "%s/%s", folder, file);
				if (access(path, R_OK) == 0)
					ent[nent].path = path;
				else {
					tl_warns(&warns, "%s: entry %d: %s: "
					    "no such file: skipped", details,
					    k, path);
					free(path);
				}
			}
			nent++;
		}
		free(file);
		free(mode);
		i = end;
	}
	tl_json_free(&d);
	free(text);
}

/* Capture roots: the windows between StreamBeginCapture and
 * StreamEndCapture, and the host events that start each. */
static void
caproots(struct capture *c)
{
	struct tree *t = &c->t;
	uint32_t *b = NULL, *e = NULL;
	size_t nb = 0, ne = 0, i, k;

	for (i = 0; i < t->n; i++) {
		if (t->ev[i].kind != TL_K_RUNTIME)
			continue;
		if (has(t->ev[i].name, "StreamBeginCapture")) {
			b = xreallocarray(b, nb + 1, sizeof *b);
			b[nb++] = (uint32_t)i;
		} else if (has(t->ev[i].name, "StreamEndCapture")) {
			e = xreallocarray(e, ne + 1, sizeof *e);
			e[ne++] = (uint32_t)i;
		}
	}
	c->nroot = nb < ne ? nb : ne;
	c->rts = xcalloc(c->nroot + 1, sizeof *c->rts);
	c->rte = xcalloc(c->nroot + 1, sizeof *c->rte);
	c->rev = xcalloc(c->nroot + 1, sizeof *c->rev);
	c->nrev = xcalloc(c->nroot + 1, sizeof *c->nrev);
	for (k = 0; k < c->nroot; k++) {
		int64_t ts = t->ev[b[k]].ts + t->ev[b[k]].dur;
		int64_t te = t->ev[e[k]].ts;

		c->rts[k] = ts;
		c->rte[k] = te;
		for (i = 0; i < t->n; i++) {
			struct ev *x = &t->ev[i], *p;

			if (x->kind != TL_K_CPU_OP && x->kind != TL_K_PYTHON)
				continue;
			if (x->depth < 0 || x->ts < ts || x->ts + x->dur > te ||
			    x->parent == NONE)
				continue;
			p = &t->ev[x->parent];
			if (p->ts >= ts && p->ts + p->dur <= te)
				continue;
			c->rev[k] = xreallocarray(c->rev[k], c->nrev[k] + 1,
			    sizeof **c->rev);
			c->rev[k][c->nrev[k]++] = (uint32_t)i;
		}
	}
	free(b);
	free(e);
}

/* The capture trace at path, read through tl-parse | tl-tree -P unless
 * it is a tree stream already (a name ending in .tsv). */
static struct capture *
loadcap(const char *path)
{
	struct capture *c;
	struct tl_trace *tr;
	FILE *fp = NULL;
	char *op, *cmd;
	size_t i, n;
	int tsv;

	for (i = 0; i < ncap; i++)
		if (strcmp(cap[i].path, path) == 0)
			return &cap[i];
	cap = xreallocarray(cap, ncap + 1, sizeof *cap);
	c = &cap[ncap++];
	memset(c, 0, sizeof *c);
	c->path = xstrdup(path);
	n = strlen(path);
	tsv = n > 4 && strcmp(path + n - 4, ".tsv") == 0;
	if (!tsv && graph_nopipe)
		tl_errx(1, "%s: not a tree stream (.tsv)", path);
	if (tsv)
		op = xstrdup(path);
	else {
		cmd = xmalloc(4 * n + 64);
		strcpy(cmd, "tl-parse -- '");
		for (i = 0; i < n; i++)
			if (path[i] == '\'')
				strcat(cmd, "'\\''");
			else
				strncat(cmd, path + i, 1);
		strcat(cmd, "' | tl-tree -P");
		fflush(stdout);
		fp = popen(cmd, "r");
		if (fp == NULL)
			tl_err(1, "%s", cmd);
		free(cmd);
		op = xmalloc(32);
		snprintf(op, 32, "/dev/fd/%d", fileno(fp));
	}
	tr = tl_trace_open(1, &op, TL_S_TREE, 0, TL_COL(TL_C_TS) |
	    TL_COL(TL_C_DUR) | TL_COL(TL_C_ARGS) | TL_COL(TL_C_STREAM) |
	    TL_COL(TL_C_MODULE) | TL_COL(TL_C_LAUNCHER) | TL_COL(TL_C_ROOT));
	c->t.name = xstrdup(path);
	tload(&c->t, tr, NULL, 1);
	if (tr->status != 0)
		tl_errx(1, "%s: cannot read the capture trace", path);
	tl_trace_close(tr);
	if (fp != NULL && pclose(fp) != 0)
		tl_errx(1, "%s: tl-parse | tl-tree -P failed", path);
	free(op);
	tkids(&c->t);
	caproots(c);
	return c;
}

/* ---- alignment ---- */

static const struct tree *sortt;

/* By ts; stablets keeps the walk's order on ties. */
static int
tscmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int64_t tx = x == NONE ? INT64_MIN : sortt->ev[x].ts;
	int64_t ty = y == NONE ? INT64_MIN : sortt->ev[y].ts;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return 0;
}

/* Sort v[0..n) by ts, stable (a merge sort by hand). */
static void
stablets(const struct tree *t, uint32_t *v, size_t n)
{
	uint32_t *tmp;
	size_t w, i, l, m, r, a, b, k;

	if (n < 2)
		return;
	sortt = t;
	tmp = xmalloc(n * sizeof *tmp);
	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			l = i;
			m = i + w < n ? i + w : n;
			r = i + 2 * w < n ? i + 2 * w : n;
			a = l, b = m, k = l;
			while (a < m && b < r)
				tmp[k++] = tscmp(&v[b], &v[a]) < 0 ? v[b++] :
				    v[a++];
			while (a < m)
				tmp[k++] = v[a++];
			while (b < r)
				tmp[k++] = v[b++];
		}
		memcpy(v, tmp, n * sizeof *v);
	}
	free(tmp);
}

/* Breadth-first from the roots given (over children), in v. */
static size_t
bfs(const struct tree *t, uint32_t *v, size_t n)
{
	size_t h;
	uint32_t k;

	for (h = 0; h < n; h++) {
		if (v[h] == NONE)
			continue;
		for (k = t->kid0[v[h]]; k < t->kid0[v[h] + 1]; k++)
			v[n++] = t->kids[k];
	}
	return n;
}

static uint32_t
capkey(const struct ev *c)
{
	return c->kernel != NONE ? c->kernel : c->name;
}

static int
match(const struct ev *c, const struct ev *g)
{
	if (has(c->name, "Memcpy") && has(g->name, "Memcpy"))
		return 1;
	if (has(c->name, "Memset") && (has(g->name, "Memset") ||
	    has(g->name, "fillBuffer")))
		return 1;
	return capkey(c) == g->name;
}

static int
memop(const struct ev *c)
{
	return has(c->name, "Memcpy") || has(c->name, "Memset");
}

/* Group-by-name pairing (TraceLens's code 3): 1, or 0 when a name has
 * different counts on the two sides. */
static int
byname(const struct tree *ct, const uint32_t *cl, size_t n, uint32_t *gl)
{
	uint32_t *ord = xmalloc(n * sizeof *ord);
	uint8_t *used = xcalloc(n, 1);
	size_t i, j;
	int ok = 1;

	for (i = 0; i < n && ok; i++) {
		uint32_t key = capkey(&ct->ev[cl[i]]);

		for (j = 0; j < n; j++)
			if (!used[j] && rep.ev[gl[j]].name == key)
				break;
		if (j == n)
			ok = 0;
		else {
			used[j] = 1;
			ord[i] = gl[j];
		}
	}
	if (ok)
		memcpy(gl, ord, n * sizeof *gl);
	free(ord);
	free(used);
	return ok;
}

/*
 * Align the capture launches cl[0..nc) with the replayed GPU events
 * gl[0..ng) of one pair: the number of pairs (in gk, ck), or -1 when
 * they do not align, -2 when the whole merge must be abandoned.
 */
static long
align(const struct tree *ct, uint32_t *cl, size_t nc, uint32_t *gl,
    size_t ng, uint32_t *gk, uint32_t *ck)
{
	size_t i, j, ns = 0, k;
	uint32_t *st = NULL;

	for (i = 0; i < ng; i++) {
		for (j = 0; j < ns; j++)
			if (st[j] == rep.ev[gl[i]].stream)
				break;
		if (j == ns) {
			st = xreallocarray(st, ns + 1, sizeof *st);
			st[ns++] = rep.ev[gl[i]].stream;
		}
	}
	if (ns > 1) {
		/* Multi-stream: a FIFO of replayed events per stream. */
		size_t *head = xcalloc(ns, sizeof *head);
		uint32_t **q = xcalloc(ns, sizeof *q);
		size_t *nq = xcalloc(ns, sizeof *nq);
		long np = 0;

		for (i = 0; i < nc; i++)
			if (ct->ev[cl[i]].kernel == NONE &&
			    !memop(&ct->ev[cl[i]])) {
				np = -2;
				goto out;
			}
		for (i = 0; i < ng; i++) {
			for (j = 0; st[j] != rep.ev[gl[i]].stream; j++)
				;
			q[j] = xreallocarray(q[j], nq[j] + 1, sizeof **q);
			q[j][nq[j]++] = gl[i];
		}
		for (i = 0; i < nc; i++) {
			size_t best = ns, bestrun = 0;

			for (j = 0; j < ns; j++) {
				size_t run = 0;

				if (head[j] >= nq[j] || !match(&ct->ev[cl[i]],
				    &rep.ev[q[j][head[j]]]))
					continue;
				while (i + run < nc && head[j] + run < nq[j] &&
				    match(&ct->ev[cl[i + run]],
				    &rep.ev[q[j][head[j] + run]]))
					run++;
				if (best == ns || run > bestrun) {
					best = j;
					bestrun = run;
				}
			}
			if (best == ns)
				continue;
			gk[np] = q[best][head[best]++];
			ck[np++] = cl[i];
		}
		for (j = 0; j < ns; j++)
			if (head[j] < nq[j])
				np = -1;
out:
		for (j = 0; j < ns; j++)
			free(q[j]);
		free(q);
		free(nq);
		free(head);
		free(st);
		return np;
	}
	free(st);
	if (nc != ng) {
		/* Greedy: forward only, capture launches dropped. */
		for (i = 0, j = 0, k = 0; i < ng; i++) {
			while (j < nc && !match(&ct->ev[cl[j]], &rep.ev[gl[i]]))
				j++;
			if (j == nc)
				return -1;
			gk[k] = gl[i];
			ck[k++] = cl[j++];
		}
		return (long)k;
	}
	for (i = 0; i < nc; i++) {
		const struct ev *c = &ct->ev[cl[i]];

		if (c->kernel == NONE) {
			if (!memop(c))
				tl_warns(&warns, "%s: launch %" PRId64 " has "
				    "no kernel name: its alignment with "
				    "kernel %" PRId64 " is not verified",
				    ct->name, c->uid, rep.ev[gl[i]].uid);
			continue;
		}
		if (c->kernel != rep.ev[gl[i]].name)
			break;
	}
	if (i < nc && !byname(ct, cl, nc, gl))
		return -1;
	for (i = 0; i < nc; i++) {
		gk[i] = gl[i];
		ck[i] = cl[i];
	}
	return (long)nc;
}

/* The GPU events under graph launch g (breadth-first, then by ts). */
static size_t
graphkernels(uint32_t g, uint32_t **res)
{
	static uint32_t *v;
	static size_t cv;
	size_t n, i, m = 0;

	if (cv < rep.n + 1) {
		cv = rep.n + 1;
		v = xreallocarray(v, cv, sizeof *v);
	}

	v[0] = g;
	n = bfs(&rep, v, 1);
	for (i = 1; i < n; i++)
		if (TL_K_ISGPU(rep.ev[v[i]].kind))
			v[m++] = v[i];
	stablets(&rep, v, m);
	*res = v;
	return m;
}

/* Splice capture root k of c under graph launch g: NREASON, or why
 * it is left (R_*), or -1 when the whole merge must be abandoned. */
static int
splice(struct capture *c, size_t k, uint32_t g)
{
	struct tree *ct = &c->t;
	uint32_t *v, *cl, *gl, *gk, *ck;
	size_t n, i, nc = 0, ng;
	long np;
	struct pair *p;

	ng = graphkernels(g, &gl);
	if (ng == 0) {
		tl_warns(&warns, "%s: graph launch %" PRId64 ": no GPU "
		    "events: skipped", rep.name, rep.ev[g].uid);
		return R_NOKERN;
	}
	v = xmalloc((ct->n + 2) * sizeof *v);
	v[0] = NONE;
	if (c->nrev[k] > 0)
		memcpy(v + 1, c->rev[k], c->nrev[k] * sizeof *v);
	n = bfs(ct, v, c->nrev[k] + 1);
	/* the CaptureRoot sorts first: its ts is the window's start */
	stablets(ct, v, n);
	for (i = 0, nc = 0; i < n; i++)
		if (v[i] != NONE && TL_K_ISGPU(ct->ev[v[i]].kind))
			continue;
		else
			v[nc++] = v[i];
	n = nc;
	cl = xmalloc((n + 1) * sizeof *cl);
	for (i = 0, nc = 0; i < n; i++) {
		const struct ev *e;

		if (v[i] == NONE)
			continue;
		e = &ct->ev[v[i]];
		if (TL_K_ISLAUNCH(e->kind) && (hasi(e->name, "launch") ||
		    hasi(e->name, "memcpy") || hasi(e->name, "memset")))
			cl[nc++] = v[i];
	}
	gk = xmalloc((ng + 1) * sizeof *gk);
	ck = xmalloc((ng + 1) * sizeof *ck);
	np = align(ct, cl, nc, gl, ng, gk, ck);
	free(cl);
	if (np < 0) {
		if (np == -1)
			tl_warns(&warns, "%s: graph launch %" PRId64 ": its %zu "
			    "GPU events do not align with the %zu launches of "
			    "capture root %zu of %s: left under the graph "
			    "launch", rep.name, rep.ev[g].uid, ng, nc, k,
			    c->path);
		free(v);
		free(gk);
		free(ck);
		return np == -2 ? -1 : R_ALIGN;
	}
	xgrow(&pairs, &cappair, npair + 1, sizeof *pairs);
	p = &pairs[npair++];
	p->c = c;
	p->croot = k;
	p->g = g;
	p->start = nextuid;
	p->ce = v;
	p->nce = n;
	p->gk = gk;
	p->ck = ck;
	p->nk = (size_t)np;
	nextuid += (int64_t)n;
	rep.ev[g].flags |= F_MERGED;
	for (i = 0; i < (size_t)np; i++) {
		struct ev *x = &rep.ev[gk[i]];

		x->flags |= F_MOVED;
		if (x->launcher != NONE)
			rep.ev[x->launcher].flags |= F_TOUCHED;
	}
	nplaced += (size_t)np;
	/* kernels of the launch that found no capture launch (greedy and
	 * multi-stream map them all, or fail) */
	return NREASON;
}

/* TraceLens's fallback: the second _-separated word of the name, an
 * optional - and digits. */
static int
splitbs(const char *s, size_t n, long long *bs)
{
	const char *u = memchr(s, '_', n), *e;
	size_t k, m;

	if (u == NULL)
		return 0;
	u++;
	e = memchr(u, '_', (size_t)(s + n - u));
	m = (size_t)((e != NULL ? e : s + n) - u);
	k = m > 0 && u[0] == '-';
	if (m <= k || m - k > 17)
		return 0;
	for (; k < m; k++)
		if (u[k] < '0' || u[k] > '9')
			return 0;
	*bs = strtoll(u, NULL, 10);
	return 1;
}

static int
evcmp(const void *a, const void *b)
{
	const struct ev *x = &rep.ev[*(const uint32_t *)a];
	const struct ev *y = &rep.ev[*(const uint32_t *)b];

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

static void
leave(uint32_t g, int why)
{
	uint32_t *gl;
	size_t n = graphkernels(g, &gl), i;

	left[why] += n;
	for (i = 0; i < n; i++)
		lefttime += rep.ev[gl[i]].dur;
}

/* The merge: execution roots, their graph launches, their captures. */
static int
merge(void)
{
	uint32_t *roots = NULL, *gls = NULL, *gr;
	size_t nr = 0, ngl = 0, i, j, ngr;
	int tier = 2, abandon = 0;

	for (i = 0; i < rep.n; i++) {
		struct ev *e = &rep.ev[i];
		size_t n;
		const char *s = tl_intern_str(in, e->name, &n);

		if (hasi(e->name, "graphlaunch")) {
			gls = xreallocarray(gls, ngl + 1, sizeof *gls);
			gls[ngl++] = (uint32_t)i;
		}
		if (e->kind == TL_K_ANNOT && iter_tier(s, n) == 1)
			tier = 1;
	}
	for (i = 0; i < rep.n; i++) {
		struct ev *e = &rep.ev[i];
		size_t n;
		const char *s = tl_intern_str(in, e->name, &n);

		if (e->kind == TL_K_ANNOT && iter_tier(s, n) == tier) {
			roots = xreallocarray(roots, nr + 1, sizeof *roots);
			roots[nr++] = (uint32_t)i;
		}
	}
	if (ngl > 0)
		qsort(gls, ngl, sizeof *gls, evcmp);
	stablets(&rep, roots, nr);
	gr = xmalloc((ngl + 1) * sizeof *gr);
	if (folder == NULL) {
		for (j = 0; j < ngl; j++)
			leave(gls[j], R_NOFOLDER);
		nr = 0;
	}
	for (i = 0; i < nr && !abandon; i++) {
		struct ev *r = &rep.ev[roots[i]];
		const char *s;
		size_t n, ncl;
		long long bs, best = -1;
		int full = 0, piece = 0, pw, why = -1;
		struct capture *c = NULL;
		char *path = NULL;

		for (ngr = 0, j = 0; j < ngl; j++) {
			struct ev *l = &rep.ev[gls[j]];

			if (r->ts <= l->ts && l->ts + l->dur <= r->ts + r->dur)
				gr[ngr++] = gls[j];
		}
		if (ngr == 0)
			continue;
		s = tl_intern_str(in, r->name, &n);
		if (!iter_bs(s, n, &bs) && !splitbs(s, n, &bs))
			why = R_NOBS;
		if (why < 0) {
			int have = 0;

			for (j = 0; j < nent; j++)
				if (ent[j].bs >= bs && (!have ||
				    ent[j].bs < best)) {
					best = ent[j].bs;
					have = 1;
				}
			for (j = 0; j < nent && have; j++)
				if (ent[j].bs == best && ent[j].path != NULL) {
					if (ent[j].piecewise)
						piece = (int)j + 1;
					else
						full = (int)j + 1;
				}
			if (!full && !piece)
				why = R_NOCAP;
		}
		if (why < 0) {
			pw = piece && full ? ngr != 1 : piece != 0;
			path = ent[(pw ? piece : full) - 1].path;
		}
		if (vflag) {
			char q[TL_QUOTE_MAX];

			tl_quote(q, sizeof q, s, n);
			if (why == R_NOBS)
				tl_warnx("%s: iteration %" PRId64 " \"%s\": no "
				    "batch size", rep.name, r->uid, q);
			else
				tl_warnx("%s: iteration %" PRId64 " \"%s\": "
				    "batch size %lld, %zu graph launch%s: %s%s",
				    rep.name, r->uid, q, bs, ngr, ngr == 1 ? "" :
				    "es", path != NULL ? path : "no capture",
				    path == NULL ? "" : pw ? " (PIECEWISE)" :
				    " (FULL)");
		}
		if (why < 0) {
			c = loadcap(path);
			ncl = c->nroot;
			if (ncl != 1 && ncl != ngr) {
				tl_warns(&warns, "%s: %s: %zu capture roots, "
				    "%zu graph launches: iteration skipped",
				    rep.name, c->path, ncl, ngr);
				why = R_ROOTS;
			}
		}
		for (j = 0; j < ngr; j++) {
			int ok;

			if (why >= 0) {
				if (!(rep.ev[gr[j]].flags & F_MERGED))
					leave(gr[j], why);
				continue;
			}
			if (rep.ev[gr[j]].flags & F_MERGED) {
				tl_warns(&warns, "%s: graph launch %" PRId64
				    ": in two iteration annotations: merged "
				    "once", rep.name, rep.ev[gr[j]].uid);
				continue;
			}
			ok = splice(c, c->nroot == 1 ? 0 : j, gr[j]);
			if (ok == -1) {
				abandon = 1;
				break;
			}
			if (ok < NREASON)
				leave(gr[j], ok);
		}
	}
	for (j = 0; j < ngl; j++) {
		uint32_t *gl;
		size_t n = graphkernels(gls[j], &gl);

		ngraphk += n;
	}
	if (abandon) {
		tl_warnx("%s: a multi-stream graph whose capture launches "
		    "lack kernel names: merge abandoned, the replay tree "
		    "written as it is", rep.name);
		for (i = 0; i < rep.n; i++)
			rep.ev[i].flags &= (uint8_t)~(F_MOVED | F_TOUCHED |
			    F_MERGED);
		npair = 0;
		nplaced = 0;
		memset(left, 0, sizeof left);
		lefttime = 0;
		for (j = 0; j < ngl; j++)
			leave(gls[j], R_FAILED);
	} else {
		uint64_t acc = nplaced;

		for (i = 0; i < NREASON; i++)
			acc += left[i];
		if (acc < ngraphk)
			left[R_NOROOT] += ngraphk - acc;
	}
	free(roots);
	free(gls);
	free(gr);
	return abandon;
}

/* ---- SGLang names (-n) ---- */

static char **fld;		/* fields of the row being written */
static size_t *fln;

/* Whether a name is sglang_profiler::<x>_<digits>. */
static int
sglname(uint32_t id)
{
	static const char pre[] = "sglang_profiler::";
	size_t n, k, p = sizeof pre - 1;
	const char *s = tl_intern_str(in, id, &n);

	if (n < p + 3 || memcmp(s, pre, p) != 0)
		return 0;
	for (k = n; k > p && s[k - 1] >= '0' && s[k - 1] <= '9'; k--)
		;
	return k < n && k > p + 1 && s[k - 1] == '_';
}

/*
 * TraceLens's first pseudo-op step: every name sglang_profiler::<x>_<n>
 * whose first event (replay, then the copies) is a cpu_op loses its
 * _<n>, so that the ops of all layers group as one.
 */
static void
sglnames(void)
{
	uint8_t *first;
	size_t i, j, nn = tl_intern_count(in);

	first = xcalloc(nn + 1, 1);
	ren = xcalloc(nn + 1, 1);
	capren = nn;
	for (i = 0; i < rep.n; i++)
		if (first[rep.ev[i].name] == 0)
			first[rep.ev[i].name] = (uint8_t)(rep.ev[i].kind + 1);
	for (i = 0; i < npair; i++)
		for (j = 0; j < pairs[i].nce; j++) {
			const struct ev *e;

			if (pairs[i].ce[j] == NONE)
				continue;
			e = &pairs[i].c->t.ev[pairs[i].ce[j]];
			if (first[e->name] == 0)
				first[e->name] = (uint8_t)(e->kind + 1);
		}
	for (i = 0; i < nn; i++)
		ren[i] = first[i] == TL_K_CPU_OP + 1 && sglname((uint32_t)i);
	free(first);
}

/* The name field cut to its renamed length. */
static void
rename_(uint32_t name, int col)
{
	size_t k;

	if (ren == NULL || name >= capren || !ren[name] || col < 0)
		return;
	for (k = fln[col]; k > 0 && fld[col][k - 1] >= '0' &&
	    fld[col][k - 1] <= '9'; k--)
		;
	if (k > 0 && fld[col][k - 1] == '_')
		fln[col] = k - 1;
}

/*
 * Without -c, the rows go out as they are read (-n decides a name at
 * its first event, which is the first in the stream).
 */
static int namecol = -1, hdrdone;
static uint8_t *firstk;
static size_t capfirst;

static void
header(void)
{
	size_t i;

	if (hdrdone)
		return;
	hdrdone = 1;
	tl_out_header(&out, (const char *const *)rep.col);
	for (i = 0; i < rep.ncol; i++)
		if (strcmp(rep.col[i], "name") == 0)
			namecol = (int)i;
}

static void
direct(char *row, size_t len, const struct ev *e)
{
	header();
	if (e != NULL && nflag && namecol >= 0) {
		size_t at = 0, fl, k;
		int c;

		if (e->name >= capfirst) {
			size_t old = capfirst;

			capfirst = 2 * (size_t)e->name + 64;
			firstk = xrealloc(firstk, capfirst);
			memset(firstk + old, 0, capfirst - old);
		}
		if (firstk[e->name] == 0)
			firstk[e->name] = e->kind == TL_K_CPU_OP &&
			    sglname(e->name) ? 2 : 1;
		if (firstk[e->name] == 2) {
			for (c = 0; c < namecol; c++)
				at += strcspn(row + at, "\t") + 1;
			fl = strcspn(row + at, "\t");
			for (k = fl; k > 0 && row[at + k - 1] >= '0' &&
			    row[at + k - 1] <= '9'; k--)
				;
			if (k > 0 && row[at + k - 1] == '_') {
				tl_out_raw(&out, row, at + k - 1);
				tl_out_raw(&out, row + at + fl, len - at - fl);
				tl_out_char(&out, '\n');
				return;
			}
		}
	}
	tl_out_raw(&out, row, len);
	tl_out_char(&out, '\n');
}

/* ---- the output ---- */

static int rc[TL_NCOL];		/* replay column indexes, or -1 */
static char numbuf[TL_NCOL][24];

static int
repcol(const char *name)
{
	size_t i;

	for (i = 0; i < rep.ncol; i++)
		if (strcmp(rep.col[i], name) == 0)
			return (int)i;
	return -1;
}

/* Set field c (a TL_C_*) of the row to a number, or to empty. */
static void
setnum(int c, int64_t v)
{
	if (rc[c] < 0)
		return;
	fln[rc[c]] = tl_fmt_i64(numbuf[c], v);
	fld[rc[c]] = numbuf[c];
}

static void
setstr(int c, const char *s)
{
	if (rc[c] < 0)
		return;
	fld[rc[c]] = (char *)s;
	fln[rc[c]] = strlen(s);
}

/* Split a row (escaped fields joined by TABs) into fld/fln. */
static size_t
split(char *line, size_t len)
{
	size_t i, n = 0, start = 0;

	for (i = 0; i <= len; i++)
		if (i == len || line[i] == '\t') {
			if (n < rep.ncol) {
				fld[n] = line + start;
				fln[n] = i - start;
			}
			n++;
			start = i + 1;
		}
	return n;
}

static void
putrow(void)
{
	size_t i;

	for (i = 0; i < rep.ncol; i++) {
		if (i > 0)
			tl_out_char(&out, '\t');
		tl_out_raw(&out, fld[i], fln[i]);
	}
	tl_out_char(&out, '\n');
}

struct ivx {
	uint32_t at;
	int64_t s, e;
};

static int
ivxcmp(const void *a, const void *b)
{
	const struct ivx *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* busy[at] from the intervals of v[0..n), sorted by at here. */
static void
busyof(struct ivx *v, size_t n, int64_t *busy)
{
	struct tl_iv *a = xmalloc((n + 1) * sizeof *a);
	struct tl_iv *tmp = xmalloc((n + 1) * sizeof *tmp);
	size_t i, j, k;

	if (n > 0)
		qsort(v, n, sizeof *v, ivxcmp);
	for (i = 0; i < n; i = j) {
		for (j = i, k = 0; j < n && v[j].at == v[i].at; j++) {
			a[k].start = v[j].s;
			a[k++].end = v[j].e;
		}
		busy[v[i].at] = tl_iv_busy(a, k, tmp);
	}
	free(a);
	free(tmp);
}

/* Kernel placement, per replay index of a moved GPU event. */
static int64_t *kpar, *klaunch;
static int32_t *kdepth;

/* A module stack (interned, NONE for none) with frame name pushed,
 * its _<digits> removed. */
static uint32_t
modpush(uint32_t stack, uint32_t name, char **mb, size_t *mcap)
{
	size_t pn, un, k;
	const char *pnm = tl_intern_str(in, name, &pn);
	const char *up = stack != NONE ? tl_intern_str(in, stack, &un) : "";

	if (stack == NONE || (un == 4 && memcmp(up, "root", 4) == 0))
		un = 0;
	for (k = pn; k > 0 && pnm[k - 1] >= '0' && pnm[k - 1] <= '9'; k--)
		;
	if (k < pn && k > 0 && pnm[k - 1] == '_')
		pn = k - 1;
	xgrow(mb, mcap, un + pn + 2, 1);
	memcpy(*mb, up, un);
	if (un > 0)
		(*mb)[un++] = ';';
	memcpy(*mb + un, pnm, pn);
	return tl_intern(in, *mb, un + pn);
}

static uint32_t *chain;
static size_t capchain;

/* Per pair: the spliced events' parents, depths, modules, times. */
static void
pairinfo(struct pair *p, uint32_t *pos, uint32_t *par, int32_t *dep,
    uint32_t *mod, uint32_t *lau, int64_t *gtime, int64_t *stime)
{
	struct tree *ct = &p->c->t;
	struct ev *g = &rep.ev[p->g];
	struct ivx *sv = NULL, *lv = NULL;
	size_t i, ns = 0, nl = 0, caps = 0, capl = 0;
	char *mb = NULL;
	size_t mcap = 0;

	for (i = 0; i < p->nce; i++)
		if (p->ce[i] != NONE)
			pos[p->ce[i]] = (uint32_t)i;
	for (i = 0; i < p->nce; i++) {
		uint32_t x = p->ce[i];

		gtime[i] = stime[i] = 0;
		dep[i] = -1;
		if (x == NONE)
			par[i] = NONE;
		else
			par[i] = ct->ev[x].parent != NONE &&
			    pos[ct->ev[x].parent] != NONE ?
			    pos[ct->ev[x].parent] : 0;
	}
	/*
	 * Depths and module stacks, parents first: in time order they come
	 * first, but for a stream whose times do not nest (made by hand),
	 * the chain above is resolved before.
	 */
	for (i = 0; i < p->nce; i++) {
		size_t top = 0, at;

		for (at = i; dep[at] < 0; at = par[at]) {
			xgrow(&chain, &capchain, top + 1, sizeof *chain);
			chain[top++] = (uint32_t)at;
			if (par[at] == NONE)
				break;
		}
		while (top > 0) {
			at = chain[--top];
			if (par[at] == NONE) {
				dep[at] = g->depth + 1;
				mod[at] = g->module;
				continue;
			}
			dep[at] = dep[par[at]] + 1;
			mod[at] = mod[par[at]];
			if (par[at] != 0 && (ct->ev[ct->ev[p->ce[at]].parent].flags &
			    F_MODULE))
				mod[at] = modpush(mod[par[at]],
				    ct->ev[ct->ev[p->ce[at]].parent].name, &mb,
				    &mcap);
		}
	}
	for (i = 0; i < p->nk; i++) {
		struct ev *k = &rep.ev[p->gk[i]];
		uint32_t c = pos[p->ck[i]], a, l = c;

		/* the launcher: the nearest cpu_op above the launch,
		 * passing over "execute" and python frames */
		for (a = par[c]; a != NONE && a != 0; a = par[a]) {
			struct ev *e = &ct->ev[p->ce[a]];

			if (e->kind == TL_K_CPU_OP && e->name != nm_execute) {
				l = a;
				break;
			}
			if (e->kind != TL_K_PYTHON && e->kind != TL_K_ANNOT &&
			    e->kind != TL_K_CPU_OP)
				break;
		}
		lau[i] = l;
		xgrow(&lv, &capl, nl + 1, sizeof *lv);
		lv[nl].at = l;
		lv[nl].s = k->ts;
		lv[nl++].e = k->ts + k->dur;
		for (a = c; a != NONE; a = par[a]) {
			xgrow(&sv, &caps, ns + 1, sizeof *sv);
			sv[ns].at = a;
			sv[ns].s = k->ts;
			sv[ns++].e = k->ts + k->dur;
		}
		kpar[p->gk[i]] = p->start + c;
		kdepth[p->gk[i]] = dep[c] + 1;
		klaunch[p->gk[i]] = p->start + l;
	}
	busyof(lv, nl, gtime);
	busyof(sv, ns, stime);
	free(lv);
	free(sv);
	free(mb);
}

/*
 * With -g, the last copy of all is kept, and the chain above it, so that
 * the largest uid (from which TraceLens numbers its synthetic ops) is
 * the same: whether j is on that chain.
 */
static int
lastpath(const uint32_t *par, size_t n, size_t j)
{
	uint32_t a;

	for (a = (uint32_t)(n - 1); a != NONE; a = par[a])
		if (a == j)
			return 1;
	return 0;
}

static void
writeall(FILE *spool)
{
	char *line = NULL, **cf;
	size_t lcap = 0, k = 0, i, j, maxce = 0, ccol;
	ssize_t len;
	int64_t *ktime = NULL;
	uint32_t *pos = NULL, *par, *mod, *lau;
	int32_t *dep;
	int64_t *gtime, *stime;
	size_t *cfl;
	int *cmap = xmalloc((rep.ncol + 1) * sizeof *cmap);

	for (i = 0; i < TL_NCOL; i++)
		rc[i] = repcol(tl_colname[i]);
	fld = xmalloc((rep.ncol + 1) * sizeof *fld);
	fln = xmalloc((rep.ncol + 1) * sizeof *fln);
	kpar = xmalloc((rep.n + 1) * sizeof *kpar);
	klaunch = xmalloc((rep.n + 1) * sizeof *klaunch);
	kdepth = xmalloc((rep.n + 1) * sizeof *kdepth);
	for (i = 0; i < npair; i++)
		if (pairs[i].nce > maxce)
			maxce = pairs[i].nce;
	par = xmalloc((maxce + 1) * sizeof *par);
	mod = xmalloc((maxce + 1) * sizeof *mod);
	lau = xmalloc((maxce + 1) * sizeof *lau);
	dep = xmalloc((maxce + 1) * sizeof *dep);
	gtime = xmalloc((maxce + 1) * sizeof *gtime);
	stime = xmalloc((maxce + 1) * sizeof *stime);
	/* where the moved GPU events go */
	for (i = 0; i < npair; i++) {
		struct tree *ct = &pairs[i].c->t;

		pos = xreallocarray(pos, ct->n + 1, sizeof *pos);
		for (j = 0; j < ct->n; j++)
			pos[j] = NONE;
		pairinfo(&pairs[i], pos, par, dep, mod, lau, gtime, stime);
	}
	/* the new kernel time of the launchers that lost GPU events */
	{
		struct ivx *v = NULL;
		size_t nv = 0, cv = 0;

		ktime = xcalloc(rep.n + 1, sizeof *ktime);
		for (i = 0; i < rep.n; i++) {
			struct ev *e = &rep.ev[i];

			if (!TL_K_ISGPU(e->kind) || (e->flags & F_MOVED) ||
			    e->launcher == NONE ||
			    !(rep.ev[e->launcher].flags & F_TOUCHED))
				continue;
			xgrow(&v, &cv, nv + 1, sizeof *v);
			v[nv].at = e->launcher;
			v[nv].s = e->ts;
			v[nv++].e = e->ts + e->dur;
		}
		busyof(v, nv, ktime);
		free(v);
	}
	tl_out_header(&out, (const char *const *)rep.col);
	rewind(spool);
	while ((len = getline(&line, &lcap, spool)) > 0) {
		struct ev *e;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		split(line, (size_t)len);
		if (fln[rc[TL_C_UID]] == 0) {
			putrow();
			continue;
		}
		e = &rep.ev[k];
		if (e->flags & F_MOVED) {
			setnum(TL_C_PARENT, kpar[k]);
			setnum(TL_C_DEPTH, kdepth[k]);
			setnum(TL_C_LAUNCHER, klaunch[k]);
		}
		if (e->flags & F_TOUCHED)
			setnum(TL_C_GPUTIME, ktime[k]);
		rename_(e->name, rc[TL_C_NAME]);
		putrow();
		k++;
	}
	if (ferror(spool))
		tl_err(1, "spool");
	free(line);
	/* the spliced copies of the captured host subtrees */
	for (i = 0; i < npair; i++) {
		struct pair *p = &pairs[i];
		struct tree *ct = &p->c->t;
		struct ev *g = &rep.ev[p->g];
		int64_t root = g->root != NONE ? rep.ev[g->root].uid : g->uid;

		ccol = ct->ncol;
		for (j = 0; j < rep.ncol; j++) {
			size_t m;

			cmap[j] = -1;
			for (m = 0; m < ccol; m++)
				if (strcmp(ct->col[m], rep.col[j]) == 0)
					cmap[j] = (int)m;
		}
		pos = xreallocarray(pos, ct->n + 1, sizeof *pos);
		for (j = 0; j < ct->n; j++)
			pos[j] = NONE;
		pairinfo(p, pos, par, dep, mod, lau, gtime, stime);
		cf = xmalloc((ccol + 1) * sizeof *cf);
		cfl = xmalloc((ccol + 1) * sizeof *cfl);
		for (j = 0; j < p->nce; j++) {
			size_t m, n, st;
			char *r;

			if (gflag && stime[j] == 0 && !(i + 1 == npair &&
			    lastpath(par, p->nce, j)))
				continue;	/* -g: no GPU work below */
			if (p->ce[j] == NONE) {
				for (m = 0; m < rep.ncol; m++) {
					fld[m] = (char *)"";
					fln[m] = 0;
				}
				setstr(TL_C_PH, "X");
				setstr(TL_C_CAT, "cuda_runtime");
				setstr(TL_C_NAME, "CaptureRoot");
				setstr(TL_C_ARGS, "{}");
			} else {
				r = ct->row[p->ce[j]];
				n = strlen(r);
				for (m = 0, st = 0, ccol = 0; m <= n; m++)
					if (m == n || r[m] == '\t') {
						cf[ccol] = r + st;
						cfl[ccol++] = m - st;
						st = m + 1;
					}
				for (m = 0; m < rep.ncol; m++) {
					fld[m] = cmap[m] >= 0 ? cf[cmap[m]] :
					    (char *)"";
					fln[m] = cmap[m] >= 0 ? cfl[cmap[m]] :
					    0;
				}
			}
			setnum(TL_C_UID, p->start + (int64_t)j);
			setnum(TL_C_TS, g->ts);
			setnum(TL_C_DUR, g->dur);
			if (j == 0)
				setnum(TL_C_PARENT, g->uid);
			else
				setnum(TL_C_PARENT, p->start + par[j]);
			setnum(TL_C_DEPTH, dep[j]);
			setnum(TL_C_ROOT, root);
			setstr(TL_C_LAUNCHER, "");
			setstr(TL_C_LINKED, "");
			setnum(TL_C_GPUTIME, gtime[j]);
			setnum(TL_C_SUBTREE, stime[j]);
			setstr(TL_C_FWD, "");
			setstr(TL_C_BWD, "");
			setstr(TL_C_TRACE, "");
			setstr(TL_C_RANK, "");
			if (mod[j] != NONE && rc[TL_C_MODULE] >= 0) {
				size_t mn;

				fld[rc[TL_C_MODULE]] = (char *)tl_intern_str(in,
				    mod[j], &mn);
				fln[rc[TL_C_MODULE]] = mn;
			} else
				setstr(TL_C_MODULE, "root");
			if (p->ce[j] != NONE)
				rename_(ct->ev[p->ce[j]].name, rc[TL_C_NAME]);
			putrow();
		}
		free(cf);
		free(cfl);
	}
	free(cmap);
	free(pos);
	free(par);
	free(mod);
	free(lau);
	free(dep);
	free(gtime);
	free(stime);
	free(ktime);
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "capture-folder", required_argument, NULL, 'c' },
		{ "details", required_argument, NULL, 'e' },
		{ "gpu-only", no_argument, NULL, 'g' },
		{ "sglang-names", no_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct tl_trace *tr;
	FILE *spool;
	char *dpath = NULL;
	int ch, status, i;

	tl_setprogname(argv[0]);
	while ((ch = tl_getopt(argc, argv, "c:e:gnv", lopt, usage)) != -1) {
		switch (ch) {
		case 'c':
			folder = optarg;
			break;
		case 'e':
			details = optarg;
			break;
		case 'g':
			gflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (details != NULL && folder == NULL)
		tl_errx(1, "-e needs -c");
	if (argc > 1)
		tl_usage(usage);
	if (details == NULL && folder != NULL) {
		dpath = xmalloc(strlen(folder) + 32);
		sprintf(dpath, "%s/execution_details.json", folder);
		details = dpath;
	}
	in = tl_intern_new();
	nm_execute = tl_intern(in, "execute", 7);
	iter_init();
	if (folder != NULL)
		readdetails();
	tl_out_init(&out, 1, "<stdout>");
	spool = NULL;
	if (folder == NULL) {
		rowhook = direct;
		tload_sparse = 1;
	} else if ((spool = tmpfile()) == NULL)
		tl_err(1, "tmpfile");
	tr = tl_trace_open(argc, argv, TL_S_TREE, TL_COL(TL_C_TS) |
	    TL_COL(TL_C_DUR) | TL_COL(TL_C_LAUNCHER) | TL_COL(TL_C_ROOT),
	    TL_COL(TL_C_STREAM) | TL_COL(TL_C_MODULE) | TL_COL(TL_C_FWD));
	rep.name = xstrdup(argc > 0 ? argv[0] : "<stdin>");
	tload(&rep, tr, spool, 0);
	if (spool == NULL)
		header();
	status = tr->status;
	tl_trace_close(tr);
	tkids(&rep);
	nextuid = 0;
	for (i = 0; (size_t)i < rep.n; i++)
		if (rep.ev[i].uid >= nextuid)
			nextuid = rep.ev[i].uid + 1;
	if (rep.n > 0)
		nextuid = rep.ev[rep.n - 1].uid + 1 > nextuid ?
		    rep.ev[rep.n - 1].uid + 1 : nextuid;
	for (i = 0; (size_t)i < rep.n; i++)
		if (TL_K_ISGPU(rep.ev[i].kind))
			gputime += rep.ev[i].dur;
	merge();
	if (nflag && spool != NULL)
		sglnames();
	if (spool != NULL) {
		writeall(spool);
		fclose(spool);
	}
	tl_out_close(&out);
	tl_warns_end(&warns, rep.name);
	if (lefttime > 0 && gputime > 0)
		tl_warnx("%s: %.1f%% of the GPU time (the sum of the GPU "
		    "events' durations) is under graph launches and not "
		    "attributed to any op", rep.name, 100.0 * (double)lefttime /
		    (double)gputime);
	if (ngraphk > 0 || npair > 0) {
		tl_warnx("%s: %" PRIu64 " of %" PRIu64 " GPU events under "
		    "graph launches attributed to captured launches (%zu "
		    "graph launch%s merged)", rep.name, nplaced, ngraphk,
		    npair, npair == 1 ? "" : "es");
		for (i = 0; i < NREASON; i++)
			if (left[i] > 0)
				tl_warnx("%s: %" PRIu64 " GPU event%s left "
				    "under %s graph launch: %s", rep.name,
				    left[i], left[i] == 1 ? "" : "s",
				    left[i] == 1 ? "its" : "their",
				    reason[i]);
	}
	free(dpath);
	return status;
}
