/*
 * tl-graph: the output tree: the replay tree with the moved kernels, then
 * each launch's copy of its captured subtree.
 */
#include "merge.h"

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

/* The output's columns (rep's), and the field arrays of a row. */
void
out_cols(void)
{
	size_t i;

	for (i = 0; i < TL_NCOL; i++)
		rc[i] = repcol(tl_colname[i]);
	fld = xmalloc((rep.ncol + 1) * sizeof *fld);
	fln = xmalloc((rep.ncol + 1) * sizeof *fln);
}

/* The index in the output's columns of column c (a TL_C_*), or -1. */
int
out_col(int c)
{
	return rc[c];
}

/* Set field c (a TL_C_*) of the row to a number. */
void
out_setnum(int c, int64_t v)
{
	if (rc[c] < 0)
		return;
	fln[rc[c]] = tl_fmt_i64(numbuf[c], v);
	fld[rc[c]] = numbuf[c];
}

void
out_setstr(int c, const char *s)
{
	if (rc[c] < 0)
		return;
	fld[rc[c]] = (char *)s;
	fln[rc[c]] = strlen(s);
}

/* Split a row (escaped fields joined by TABs) into fld/fln. */
size_t
out_split(char *line, size_t len)
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

/* Whether a row (escaped fields joined by TABs) is an event's: its uid
 * is not empty. */
int
out_isevent(const char *line, size_t len)
{
	const char *s = line, *end = line + len, *t;
	int k;

	for (k = 0; k < rc[TL_C_UID]; k++) {
		if ((t = memchr(s, '\t', (size_t)(end - s))) == NULL)
			return 0;
		s = t + 1;
	}
	return s < end && *s != '\t';
}

/* A row written as it is: out_split then out_putrow without a change. */
void
out_putline(const char *line, size_t len)
{
	tl_out_raw(&out, line, len);
	tl_out_char(&out, '\n');
}

void
out_putrow(void)
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
uint32_t
out_modpush(uint32_t stack, uint32_t name, char **mb, size_t *mcap)
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

/* Per pair: the spliced events' parents, depths, modules, times. pos:
 * per capture event, NONE (and so again on return: a capture's events
 * are many, a pair's few). */
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
				mod[at] = out_modpush(mod[par[at]],
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
	for (i = 0; i < p->nce; i++)
		if (p->ce[i] != NONE)
			pos[p->ce[i]] = NONE;
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

void
writeall(FILE *spool)
{
	char *line = NULL, **cf;
	size_t lcap = 0, k = 0, i, j, maxce = 0, maxn = 0, ccol;
	ssize_t len;
	int64_t *ktime = NULL;
	uint32_t *pos, *par, *mod, *lau;
	int32_t *dep;
	int64_t *gtime, *stime;
	size_t *cfl;
	int *cmap = xmalloc((rep.ncol + 1) * sizeof *cmap);

	out_cols();
	kpar = xmalloc((rep.n + 1) * sizeof *kpar);
	klaunch = xmalloc((rep.n + 1) * sizeof *klaunch);
	kdepth = xmalloc((rep.n + 1) * sizeof *kdepth);
	for (i = 0; i < npair; i++) {
		if (pairs[i].nce > maxce)
			maxce = pairs[i].nce;
		if (pairs[i].c->t.n > maxn)
			maxn = pairs[i].c->t.n;
	}
	pos = xmalloc((maxn + 1) * sizeof *pos);
	for (j = 0; j < maxn; j++)
		pos[j] = NONE;
	par = xmalloc((maxce + 1) * sizeof *par);
	mod = xmalloc((maxce + 1) * sizeof *mod);
	lau = xmalloc((maxce + 1) * sizeof *lau);
	dep = xmalloc((maxce + 1) * sizeof *dep);
	gtime = xmalloc((maxce + 1) * sizeof *gtime);
	stime = xmalloc((maxce + 1) * sizeof *stime);
	/* where the moved GPU events go */
	for (i = 0; i < npair; i++)
		pairinfo(&pairs[i], pos, par, dep, mod, lau, gtime, stime);
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
		if (!out_isevent(line, (size_t)len)) {
			out_putline(line, (size_t)len);
			continue;
		}
		e = &rep.ev[k];
		if (!(e->flags & (F_MOVED | F_TOUCHED)) && !renamed(e->name)) {
			out_putline(line, (size_t)len);
			k++;
			continue;
		}
		out_split(line, (size_t)len);
		if (e->flags & F_MOVED) {
			out_setnum(TL_C_PARENT, kpar[k]);
			out_setnum(TL_C_DEPTH, kdepth[k]);
			out_setnum(TL_C_LAUNCHER, klaunch[k]);
		}
		if (e->flags & F_TOUCHED)
			out_setnum(TL_C_GPUTIME, ktime[k]);
		rename_(e->name, rc[TL_C_NAME]);
		out_putrow();
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
				out_setstr(TL_C_PH, "X");
				out_setstr(TL_C_CAT, "cuda_runtime");
				out_setstr(TL_C_NAME, "CaptureRoot");
				out_setstr(TL_C_ARGS, "{}");
			} else {
				r = ct->rows + ct->rowat[p->ce[j]];
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
			out_setnum(TL_C_UID, p->start + (int64_t)j);
			out_setnum(TL_C_TS, g->ts);
			out_setnum(TL_C_DUR, g->dur);
			if (j == 0)
				out_setnum(TL_C_PARENT, g->uid);
			else
				out_setnum(TL_C_PARENT, p->start + par[j]);
			out_setnum(TL_C_DEPTH, dep[j]);
			out_setnum(TL_C_ROOT, root);
			out_setstr(TL_C_LAUNCHER, "");
			out_setstr(TL_C_LINKED, "");
			out_setnum(TL_C_GPUTIME, gtime[j]);
			out_setnum(TL_C_SUBTREE, stime[j]);
			out_setstr(TL_C_FWD, "");
			out_setstr(TL_C_BWD, "");
			out_setstr(TL_C_TRACE, "");
			out_setstr(TL_C_RANK, "");
			if (mod[j] != NONE && rc[TL_C_MODULE] >= 0) {
				size_t mn;

				fld[rc[TL_C_MODULE]] = (char *)tl_intern_str(in,
				    mod[j], &mn);
				fln[rc[TL_C_MODULE]] = mn;
			} else
				out_setstr(TL_C_MODULE, "root");
			if (p->ce[j] != NONE)
				rename_(ct->ev[p->ce[j]].name, rc[TL_C_NAME]);
			out_putrow();
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

