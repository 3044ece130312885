/*
 * tl-diff: align two lists of nodes by their normalized names. With
 * --tracelens, TraceLens's Wagner-Fischer (spec 1.4) with its greedy
 * backtrack; by default, a shortest edit script (Myers' O(ND) algorithm,
 * in linear space). Both are followed by TraceLens's same-name
 * disambiguation (spec 1.5).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "td.h"

#define MAXLEVEL	4		/* disambiguation: BFS levels */
#define MAXPAIRS	(1 << 20)	/* disambiguation: pairs per name */
#define MAXPAIRS_DEF	4096		/* ... in the default mode */
#define EXPENSIVE	1024		/* Myers: edit cost before a heuristic */
#define MAXCELLS	((size_t)1 << 34)	/* Wagner-Fischer: table bits */

/* Wagner-Fischer with TraceLens's backtrack. */
static void
wf(const uint32_t *k1, size_t m, const uint32_t *k2, size_t n,
    struct ops *out)
{
	uint32_t *prev, *cur, *t;
	uint64_t *del;
	size_t i, j, w = n + 1, start = out->n, a, b;
	uint32_t x, y, z;
	struct op tmp;

	if (m != 0 && n != 0 && (m > MAXCELLS / w))
		tl_errx(2, "a list of %zu children against one of %zu: too "
		    "large for --tracelens", m, n);
	prev = xmalloc(w * sizeof *prev);
	cur = xmalloc(w * sizeof *cur);
	/* del bit (i, j): dp[i][j] == dp[i-1][j] + 1, for i >= 1 */
	del = xcalloc((m * w + 63) / 64 + 1, sizeof *del);
	for (j = 0; j <= n; j++)
		prev[j] = (uint32_t)j;
	for (i = 1; i <= m; i++) {
		cur[0] = (uint32_t)i;
		for (j = 1; j <= n; j++) {
			x = prev[j] + 1;
			y = cur[j - 1] + 1;
			z = prev[j - 1] + (k1[i - 1] == k2[j - 1] ? 0 : 1);
			cur[j] = x < y ? x : y;
			if (z < cur[j])
				cur[j] = z;
		}
		for (j = 0; j <= n; j++)
			if (cur[j] == prev[j] + 1) {
				size_t bit = (i - 1) * w + j;

				del[bit / 64] |= (uint64_t)1 << (bit % 64);
			}
		t = prev;
		prev = cur;
		cur = t;
	}
	i = m;
	j = n;
	while (i > 0 || j > 0) {
		size_t bit = i > 0 ? (i - 1) * w + j : 0;

		if (i > 0 && j > 0 && k1[i - 1] == k2[j - 1]) {
			td_opush(out, OP_MATCH, (uint32_t)(i - 1),
			    (uint32_t)(j - 1));
			i--;
			j--;
		} else if (i > 0 && (j == 0 ||
		    (del[bit / 64] >> (bit % 64) & 1))) {
			td_opush(out, OP_DEL, (uint32_t)(i - 1), 0);
			i--;
		} else {
			td_opush(out, OP_INS, 0, (uint32_t)(j - 1));
			j--;
		}
	}
	for (a = start, b = out->n; a + 1 < b; a++, b--) {
		tmp = out->v[a];
		out->v[a] = out->v[b - 1];
		out->v[b - 1] = tmp;
	}
	free(prev);
	free(cur);
	free(del);
}

/* Myers' algorithm, after GNU diff's analyze.c: diag and compareseq. */
struct myers {
	const uint32_t *xv, *yv;
	long *fd, *bd;		/* indexed by diagonal */
	uint8_t *xch, *ych;	/* deleted / inserted */
};

/*
 * Find the midpoint of a shortest edit script of x[xoff..xlim) and
 * y[yoff..ylim), or past EXPENSIVE steps the point furthest along.
 */
static void
diag(struct myers *s, long xoff, long xlim, long yoff, long ylim,
    long *px, long *py)
{
	const uint32_t *xv = s->xv, *yv = s->yv;
	long *fd = s->fd, *bd = s->bd;
	long dmin = xoff - ylim, dmax = xlim - yoff;
	long fmid = xoff - yoff, bmid = xlim - ylim;
	long fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
	long c, d, x, y, tlo, thi, best, bestd;
	int odd = (fmid - bmid) & 1;

	fd[fmid] = xoff;
	bd[bmid] = xlim;
	for (c = 1;; c++) {
		if (fmin > dmin)
			fd[--fmin - 1] = -1;
		else
			fmin++;
		if (fmax < dmax)
			fd[++fmax + 1] = -1;
		else
			fmax--;
		for (d = fmax; d >= fmin; d -= 2) {
			tlo = fd[d - 1];
			thi = fd[d + 1];
			x = tlo >= thi ? tlo + 1 : thi;
			y = x - d;
			while (x < xlim && y < ylim && xv[x] == yv[y]) {
				x++;
				y++;
			}
			fd[d] = x;
			if (odd && bmin <= d && d <= bmax && bd[d] <= x) {
				*px = x;
				*py = y;
				return;
			}
		}
		if (bmin > dmin)
			bd[--bmin - 1] = LONG_MAX;
		else
			bmin++;
		if (bmax < dmax)
			bd[++bmax + 1] = LONG_MAX;
		else
			bmax--;
		for (d = bmax; d >= bmin; d -= 2) {
			tlo = bd[d - 1];
			thi = bd[d + 1];
			x = tlo < thi ? tlo : thi - 1;
			y = x - d;
			while (x > xoff && y > yoff && xv[x - 1] == yv[y - 1]) {
				x--;
				y--;
			}
			bd[d] = x;
			if (!odd && fmin <= d && d <= fmax && x <= fd[d]) {
				*px = x;
				*py = y;
				return;
			}
		}
		if (c < EXPENSIVE)
			continue;
		/* Too expensive: the forward point that got furthest. */
		best = -1;
		bestd = fmid;
		for (d = fmax; d >= fmin; d -= 2) {
			x = fd[d] < xlim ? fd[d] : xlim;
			y = x - d;
			if (y > ylim) {
				x = ylim + d;
				y = ylim;
			}
			if (x + y > best) {
				best = x + y;
				bestd = d;
			}
		}
		x = fd[bestd] < xlim ? fd[bestd] : xlim;
		if (x - bestd > ylim)
			x = ylim + bestd;
		if ((x <= xoff && x - bestd <= yoff) ||
		    (x >= xlim && x - bestd >= ylim)) {
			/* No progress: split in the middle of x. */
			x = xoff + (xlim - xoff + 1) / 2;
			bestd = x - yoff;
		}
		*px = x;
		*py = x - bestd;
		return;
	}
}

static void
compareseq(struct myers *s, long xoff, long xlim, long yoff, long ylim)
{
	long x, y;

	for (;;) {
		while (xoff < xlim && yoff < ylim &&
		    s->xv[xoff] == s->yv[yoff]) {
			xoff++;
			yoff++;
		}
		while (xlim > xoff && ylim > yoff &&
		    s->xv[xlim - 1] == s->yv[ylim - 1]) {
			xlim--;
			ylim--;
		}
		if (xoff == xlim) {
			while (yoff < ylim)
				s->ych[yoff++] = 1;
			return;
		}
		if (yoff == ylim) {
			while (xoff < xlim)
				s->xch[xoff++] = 1;
			return;
		}
		diag(s, xoff, xlim, yoff, ylim, &x, &y);
		/* Recurse on the smaller half, loop on the larger. */
		if (x - xoff + y - yoff < xlim - x + ylim - y) {
			compareseq(s, xoff, x, yoff, y);
			xoff = x;
			yoff = y;
		} else {
			compareseq(s, x, xlim, y, ylim);
			xlim = x;
			ylim = y;
		}
	}
}

/*
 * A shortest edit script as ops in list order: before each match, the
 * deletes and then the inserts since the last one.
 */
static void
myers(const uint32_t *k1, size_t m, const uint32_t *k2, size_t n,
    struct ops *out)
{
	struct myers s;
	long *buf;
	size_t i = 0, j = 0;

	buf = xmalloc((m + n + 3) * 2 * sizeof *buf);
	s.xv = k1;
	s.yv = k2;
	s.fd = buf + n + 1;
	s.bd = buf + (m + n + 3) + n + 1;
	s.xch = xcalloc(m + 1, 1);
	s.ych = xcalloc(n + 1, 1);
	compareseq(&s, 0, (long)m, 0, (long)n);
	for (;;) {
		while (i < m && s.xch[i])
			td_opush(out, OP_DEL, (uint32_t)i++, 0);
		while (j < n && s.ych[j])
			td_opush(out, OP_INS, 0, (uint32_t)j++);
		if (i >= m || j >= n)
			break;
		td_opush(out, OP_MATCH, (uint32_t)i++, (uint32_t)j++);
	}
	while (i < m)
		td_opush(out, OP_DEL, (uint32_t)i++, 0);
	while (j < n)
		td_opush(out, OP_INS, 0, (uint32_t)j++);
	free(buf);
	free(s.xch);
	free(s.ych);
}

/* Same-name disambiguation (spec 1.5). */

struct level {
	uint32_t *v;		/* sorted names of each level, concatenated */
	size_t off[MAXLEVEL + 1];
	int n;			/* levels */
};

static void
levels(struct side *s, uint32_t u, struct level *l)
{
	struct vec fr = { 0 }, nx = { 0 }, all = { 0 };
	const uint32_t *k;
	size_t i, j, a;
	uint32_t x, t;

	td_push(&fr, u);
	l->n = 0;
	l->off[0] = 0;
	while (l->n < MAXLEVEL) {
		a = all.n;
		for (i = 0; i < fr.n; i++)
			td_push(&all, s->n[fr.v[i]].norm);
		/* insertion sort of the level */
		for (i = a + 1; i < all.n; i++) {
			t = all.v[i];
			for (j = i; j > a && all.v[j - 1] > t; j--)
				all.v[j] = all.v[j - 1];
			all.v[j] = t;
		}
		l->off[++l->n] = all.n;
		if (fr.n == 0)
			break;
		nx.n = 0;
		for (i = 0; i < fr.n; i++) {
			x = fr.v[i];
			k = s->kids + s->n[x].kid;
			for (j = 0; j < s->n[x].nkid; j++)
				if (td_ongpu(s, k[j]))
					td_push(&nx, k[j]);
		}
		fr.n = 0;
		for (i = 0; i < nx.n; i++)
			td_push(&fr, nx.v[i]);
	}
	l->v = all.v;
	td_vfree(&fr);
	td_vfree(&nx);
}

/* (levels equal before the first difference, overlap at it) */
static void
score(const struct level *a, const struct level *b, int *full, size_t *ov)
{
	int d, n = a->n > b->n ? a->n : b->n;
	size_t na, nb, i, j, c;
	const uint32_t *x, *y;

	for (d = 0; d < n; d++) {
		na = d < a->n ? a->off[d + 1] - a->off[d] : 0;
		nb = d < b->n ? b->off[d + 1] - b->off[d] : 0;
		x = d < a->n ? a->v + a->off[d] : NULL;
		y = d < b->n ? b->v + b->off[d] : NULL;
		if (na == nb && (na == 0 || memcmp(x, y, na * sizeof *x) == 0))
			continue;
		for (i = j = c = 0; i < na && j < nb;)
			if (x[i] == y[j]) {
				c++;
				i++;
				j++;
			} else if (x[i] < y[j])
				i++;
			else
				j++;
		*full = d;
		*ov = c;
		return;
	}
	*full = n;
	*ov = 0;
}

struct cand {
	int full;
	size_t ov;
	int wf;
	uint32_t i, j;
};

static int
cmpcand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->full != y->full)
		return x->full > y->full ? -1 : 1;
	if (x->ov != y->ov)
		return x->ov > y->ov ? -1 : 1;
	if (x->wf != y->wf)
		return x->wf > y->wf ? -1 : 1;
	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

struct ent {
	uint32_t name, idx;
	uint8_t side;
};

static int
cmpent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void
disambiguate(const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
    struct ops *o)
{
	struct ent *e;
	struct cand *c = NULL;
	struct level *l1, *l2;
	struct ops nm = { 0 }, res = { 0 };
	uint8_t *h1, *h2, *u1, *u2, *wm1;
	uint32_t *wmj, *mn, name;
	size_t nmn = 0, ne = 0, k, g, h, p2, n1, n2, nc, capc = 0, q, r, kk;
	size_t done;
	int any = 0, changed = 0;

	e = xmalloc((2 * o->n + 1) * sizeof *e);
	wm1 = xcalloc(na + 1, 1);
	wmj = xmalloc((na + 1) * sizeof *wmj);
	for (k = 0; k < o->n; k++) {
		if (o->v[k].t != OP_INS) {
			e[ne].name = td_s[0].n[a[o->v[k].i]].norm;
			e[ne].idx = o->v[k].i;
			e[ne++].side = 0;
		}
		if (o->v[k].t != OP_DEL) {
			e[ne].name = td_s[1].n[b[o->v[k].j]].norm;
			e[ne].idx = o->v[k].j;
			e[ne++].side = 1;
		}
		if (o->v[k].t == OP_MATCH) {
			wm1[o->v[k].i] = 1;
			wmj[o->v[k].i] = o->v[k].j;
		}
	}
	qsort(e, ne, sizeof *e, cmpent);
	/* matched_names */
	mn = xmalloc((2 * o->n + 1) * sizeof *mn);
	for (k = 0; k < o->n; k++)
		if (o->v[k].t == OP_MATCH) {
			mn[nmn++] = td_s[0].n[a[o->v[k].i]].norm;
			mn[nmn++] = td_s[1].n[b[o->v[k].j]].norm;
		}
	qsort(mn, nmn, sizeof *mn, td_cmpu32);
	h1 = xcalloc(na + 1, 1);
	h2 = xcalloc(nb + 1, 1);
	u1 = xcalloc(na + 1, 1);
	u2 = xcalloc(nb + 1, 1);
	for (g = 0; g < ne; g = h) {
		name = e[g].name;
		for (h = g; h < ne && e[h].name == name; h++)
			;
		for (p2 = g; p2 < h && e[p2].side == 0; p2++)
			;
		n1 = p2 - g;
		n2 = h - p2;
		if (n1 == 0 || n2 == 0 || (n1 < 2 && n2 < 2))
			continue;
		if (!bsearch(&name, mn, nmn, sizeof *mn, td_cmpu32) ||
		    n1 * n2 > (td_tracelens ? MAXPAIRS : MAXPAIRS_DEF))
			continue;
		any = 1;
		l1 = xcalloc(n1, sizeof *l1);
		l2 = xcalloc(n2, sizeof *l2);
		for (k = 0; k < n1; k++)
			levels(&td_s[0], a[e[g + k].idx], &l1[k]);
		for (k = 0; k < n2; k++)
			levels(&td_s[1], b[e[p2 + k].idx], &l2[k]);
		nc = 0;
		xgrow(&c, &capc, n1 * n2, sizeof *c);
		for (q = 0; q < n1; q++)
			for (r = 0; r < n2; r++) {
				score(&l1[q], &l2[r], &c[nc].full, &c[nc].ov);
				c[nc].i = e[g + q].idx;
				c[nc].j = e[p2 + r].idx;
				c[nc].wf = wm1[c[nc].i] && wmj[c[nc].i] ==
				    c[nc].j;
				nc++;
			}
		qsort(c, nc, sizeof *c, cmpcand);
		kk = n1 < n2 ? n1 : n2;
		for (q = 0, done = 0; q < nc && done < kk; q++) {
			if (u1[c[q].i] || u2[c[q].j])
				continue;
			u1[c[q].i] = u2[c[q].j] = 1;
			td_opush(&nm, OP_MATCH, c[q].i, c[q].j);
			if (!c[q].wf)
				changed = 1;
			done++;
		}
		for (q = 0; q < n1; q++)
			h1[e[g + q].idx] = 1;
		for (r = 0; r < n2; r++)
			h2[e[p2 + r].idx] = 1;
		for (k = 0; k < n1; k++)
			free(l1[k].v);
		for (k = 0; k < n2; k++)
			free(l2[k].v);
		free(l1);
		free(l2);
	}
	if (!any || !changed)
		goto out;
	for (k = 0; k < o->n; k++) {
		if (o->v[k].t != OP_INS && h1[o->v[k].i])
			continue;
		if (o->v[k].t != OP_DEL && h2[o->v[k].j])
			continue;
		td_opush(&res, o->v[k].t, o->v[k].i, o->v[k].j);
	}
	if (nm.n > 1)
		qsort(nm.v, nm.n, sizeof *nm.v, td_cmpop);
	for (k = 0; k < nm.n; k++)
		td_opush(&res, OP_MATCH, nm.v[k].i, nm.v[k].j);
	for (k = 0; k < na; k++)
		if (h1[k] && !u1[k])
			td_opush(&res, OP_DEL, (uint32_t)k, 0);
	for (k = 0; k < nb; k++)
		if (h2[k] && !u2[k])
			td_opush(&res, OP_INS, 0, (uint32_t)k);
	o->n = 0;
	for (k = 0; k < res.n; k++)
		td_opush(o, res.v[k].t, res.v[k].i, res.v[k].j);
out:
	free(e);
	free(mn);
	free(c);
	free(h1);
	free(h2);
	free(u1);
	free(u2);
	free(wm1);
	free(wmj);
	free(nm.v);
	free(res.v);
}

uint64_t td_nlost;

/*
 * Every node in an op. TraceLens's same-name step can lose one (a match
 * of two names made equal by strip_details, whose other node it takes
 * back): with --tracelens it stays lost, and is counted; by default it is
 * on its side only.
 */
static void
cover(size_t na, size_t nb, struct ops *o)
{
	uint8_t *s1, *s2;
	size_t k;

	s1 = xcalloc(na + 1, 1);
	s2 = xcalloc(nb + 1, 1);
	for (k = 0; k < o->n; k++) {
		if (o->v[k].t != OP_INS)
			s1[o->v[k].i] = 1;
		if (o->v[k].t != OP_DEL)
			s2[o->v[k].j] = 1;
	}
	for (k = 0; k < na; k++)
		if (!s1[k]) {
			td_nlost++;
			if (!td_tracelens)
				td_opush(o, OP_DEL, (uint32_t)k, 0);
		}
	for (k = 0; k < nb; k++)
		if (!s2[k]) {
			td_nlost++;
			if (!td_tracelens)
				td_opush(o, OP_INS, 0, (uint32_t)k);
		}
	free(s1);
	free(s2);
}

void
td_align(const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
    int strip, struct ops *out)
{
	uint32_t *k1, *k2;
	size_t i;

	out->n = 0;
	k1 = xmalloc((na + 1) * sizeof *k1);
	k2 = xmalloc((nb + 1) * sizeof *k2);
	for (i = 0; i < na; i++)
		k1[i] = td_norm(&td_s[0], a[i], strip);
	for (i = 0; i < nb; i++)
		k2[i] = td_norm(&td_s[1], b[i], strip);
	if (!td_tracelens && na == nb && (na == 0 ||
	    memcmp(k1, k2, na * sizeof *k1) == 0)) {
		/* Default mode: the same names in the same order pair up. */
		for (i = 0; i < na; i++)
			td_opush(out, OP_MATCH, (uint32_t)i, (uint32_t)i);
		free(k1);
		free(k2);
		return;
	}
	if (td_tracelens)
		wf(k1, na, k2, nb, out);
	else
		myers(k1, na, k2, nb, out);
	free(k1);
	free(k2);
	disambiguate(a, na, b, nb, out);
	cover(na, nb, out);
}
