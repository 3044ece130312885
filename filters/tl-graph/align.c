/*
 * tl-graph: alignment: each graph launch's kernels matched to a capture
 * root's launches, and the SGLang names (-n).
 */
#include "merge.h"

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
long
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
	if (uflag) {
		/*
		 * -u: every event has a record, not only the GPU events and
		 * graph launches; the walk goes through those alone, as the
		 * merge stage's does.
		 */
		size_t h, k;

		tkids(&rep);	/* made when a graph launch needs them */
		for (h = 0, n = 1; h < n; h++)
			for (k = rep.kid0[v[h]]; k < rep.kid0[v[h] + 1]; k++) {
				uint32_t c = rep.kids[k];

				if (TL_K_ISGPU(rep.ev[c].kind) ||
				    hasi(rep.ev[c].name, "graphlaunch"))
					v[n++] = c;
			}
	} else
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
int
merge(void)
{
	uint32_t *roots = NULL, *gls = NULL, *gr;
	size_t nr = 0, ngl = 0, i, j, ngr;
	int tier = 2, abandon = 0;
	/* per name id: 0 not looked at, 1 a graph launch's, 2 not */
	uint8_t *isgl = xcalloc(tl_intern_count(in) + 1, 1);

	for (i = 0; i < rep.n; i++) {
		struct ev *e = &rep.ev[i];
		size_t n;
		const char *s;

		if (isgl[e->name] == 0)
			isgl[e->name] = hasi(e->name, "graphlaunch") ? 1 : 2;
		if (isgl[e->name] == 1) {
			gls = xreallocarray(gls, ngl + 1, sizeof *gls);
			gls[ngl++] = (uint32_t)i;
		}
		if (e->kind != TL_K_ANNOT)
			continue;
		s = tl_intern_str(in, e->name, &n);
		if (iter_tier(s, n) == 1)
			tier = 1;
	}
	free(isgl);
	for (i = 0; i < rep.n; i++) {
		struct ev *e = &rep.ev[i];
		size_t n;
		const char *s;

		if (e->kind != TL_K_ANNOT)
			continue;
		s = tl_intern_str(in, e->name, &n);
		if (iter_tier(s, n) == tier) {
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

char **fld;		/* fields of the row being written */
size_t *fln;

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
void
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
	for (i = 0, j = 0; i < nn; i++)
		j += ren[i] = first[i] == TL_K_CPU_OP + 1 &&
		    sglname((uint32_t)i);
	free(first);
	if (j == 0) {
		/* none renamed: the rows copied as they are */
		free(ren);
		ren = NULL;
		capren = 0;
	}
}

/* Whether -n renames the events named name. */
int
renamed(uint32_t name)
{
	return ren != NULL && name < capren && ren[name];
}

/* The name field cut to its renamed length. */
void
rename_(uint32_t name, int col)
{
	size_t k;

	if (!renamed(name) || col < 0)
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

void
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

/* The length of the field that s[0..n) starts with. */
static size_t
fieldlen(const char *s, size_t n)
{
	const char *t = memchr(s, '\t', n);

	return t != NULL ? (size_t)(t - s) : n;
}

void
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
			/* row is a view of the line: no NUL ends it */
			for (c = 0; c < namecol; c++)
				at += fieldlen(row + at, len - at) + 1;
			fl = fieldlen(row + at, len - at);
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

