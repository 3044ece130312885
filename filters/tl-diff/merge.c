/*
 * tl-diff: merge the two trees (spec section 1.3). Each merged node pairs
 * a node of the baseline with one of the variant, or holds one of them
 * alone; children are paired by the phases of TraceLens's
 * traverse_and_merge: list-level collapse, alignment, wrapper
 * reconciliation and per-node canonicalisation. The default mode changes
 * what td_align does and a few steps here, each marked "default mode".
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/sort.h"
#include "td.h"

struct mnode *td_m;
size_t td_nm;
static size_t capm;
uint32_t *td_mkids;
static size_t nmkids, capmkids;
uint32_t *td_mroots;
size_t td_nmroots;
struct umap *td_umap;
size_t td_numap;
static size_t capumap;

/* Open addressing from a 64-bit key to a uint32_t. */
struct h64 {
	uint64_t *k;
	uint32_t *v;		/* value + 1; 0 when empty */
	size_t mask, n;
};

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The value slot of key (0 inside when new). */
static uint32_t *
hget(struct h64 *h, uint64_t key)
{
	size_t i, j, n;
	uint64_t *ok;
	uint32_t *ov;

	if (h->k == NULL || (h->n + 1) * 2 > h->mask) {
		n = h->k == NULL ? 0 : h->mask + 1;
		ok = h->k;
		ov = h->v;
		h->mask = n ? 2 * n - 1 : 255;
		h->k = xcalloc(h->mask + 1, sizeof *h->k);
		h->v = xcalloc(h->mask + 1, sizeof *h->v);
		for (i = 0; i < n; i++) {
			if (ov[i] == 0)
				continue;
			for (j = mix(ok[i]) & h->mask; h->v[j] != 0;
			    j = (j + 1) & h->mask)
				;
			h->k[j] = ok[i];
			h->v[j] = ov[i];
		}
		free(ok);
		free(ov);
	}
	for (i = mix(key) & h->mask;; i = (i + 1) & h->mask) {
		if (h->v[i] == 0) {
			h->k[i] = key;
			return &h->v[i];
		}
		if (h->k[i] == key)
			return &h->v[i];
	}
}

static struct h64 memo;

int
td_ongpu(const struct side *s, uint32_t i)
{
	return i != NONE && (TL_K_ISGPU(s->n[i].kind) || s->n[i].ngpu > 0);
}

int
td_iskernel(const struct node *e)
{
	if (td_tracelens)	/* TraceLens: not gpu_memset */
		return e->kind == TL_K_KERNEL || e->kind == TL_K_MEMCPY;
	return TL_K_ISGPU(e->kind);
}

static int
isdispatch(const struct side *s, uint32_t i)
{
	return i != NONE && (s->n[i].flags & N_DISPATCH);
}

/* The children of i that are on the GPU path, in children order. */
static void
gpukids(const struct side *s, uint32_t i, struct vec *out)
{
	const uint32_t *k;
	uint32_t j;

	out->n = 0;
	if (i == NONE)
		return;
	k = s->kids + s->n[i].kid;
	for (j = 0; j < s->n[i].nkid; j++)
		if (td_ongpu(s, k[j]))
			td_push(out, k[j]);
}

/* Stable sort of a list of nodes by ts. */
static void
tssort(const struct side *s, struct vec *v)
{
	struct tl_sortkey *t;
	size_t i;

	for (i = 1; i < v->n; i++)
		if (s->n[v->v[i]].ts < s->n[v->v[i - 1]].ts)
			break;
	if (i >= v->n)
		return;
	t = xmalloc(v->n * sizeof *t);
	for (i = 0; i < v->n; i++) {
		t[i].k = (uint64_t)s->n[v->v[i]].ts ^ UINT64_C(1) << 63;
		t[i].i = v->v[i];
	}
	tl_key_sort(t, v->n);
	for (i = 0; i < v->n; i++)
		v->v[i] = t[i].i;
	free(t);
}

/* x is in the sorted array a[0..n). */
static int
insorted(const uint32_t *a, size_t n, uint32_t x)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (a[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && a[lo] == x;
}

/* The normalized names of a list, sorted. */
static uint32_t *
namesof(const struct side *s, const struct vec *v)
{
	uint32_t *a = xmalloc((v->n ? v->n : 1) * sizeof *a);
	size_t i;

	for (i = 0; i < v->n; i++)
		a[i] = s->n[v->v[i]].norm;
	qsort(a, v->n, sizeof *a, td_cmpu32);
	return a;
}

/*
 * For each name of G (not in the other side's GPU-path list O) that a
 * child of the other node carries, add the last such child to O.
 */
static void
addmissing(const struct vec *g, const uint32_t *gn, const uint32_t *on,
    size_t non, const struct side *os, uint32_t ou, struct vec *o)
{
	const uint32_t *k;
	struct tl_sortkey *byname = NULL;
	uint32_t name, j, n;
	size_t i, c, lo, hi, mid;

	if (ou == NONE)
		return;
	k = os->kids + os->n[ou].kid;
	n = os->n[ou].nkid;
	for (i = 0; i < g->n; i++) {
		name = gn[i];
		if (i > 0 && gn[i - 1] == name)
			continue;
		if (insorted(on, non, name))
			continue;
		if (n <= 32) {
			for (c = NONE, j = 0; j < n; j++)
				if (os->n[k[j]].norm == name)
					c = k[j];
		} else {
			/* (name, position), sorted: the last of a name */
			if (byname == NULL) {
				byname = xmalloc(n * sizeof *byname);
				for (j = 0; j < n; j++) {
					byname[j].k = os->n[k[j]].norm;
					byname[j].i = j;
				}
				tl_key_sort(byname, n);
			}
			for (lo = 0, hi = n; lo < hi;) {
				mid = lo + (hi - lo) / 2;
				if (byname[mid].k <= name)
					lo = mid + 1;
				else
					hi = mid;
			}
			c = lo > 0 && byname[lo - 1].k == name ?
			    k[byname[lo - 1].i] : NONE;
		}
		if (c != NONE)
			td_push(o, (uint32_t)c);
	}
	free(byname);
}

/* Spec 1.3.1. */
static void
withmissing(uint32_t u1, uint32_t u2, struct vec *c1, struct vec *c2)
{
	struct vec g1 = { 0 }, g2 = { 0 };
	uint32_t *n1, *n2;
	size_t i;

	gpukids(&td_s[0], u1, c1);
	gpukids(&td_s[1], u2, c2);
	if (u1 == NONE || u2 == NONE)
		goto sort;
	/* The same names in the same order: none is missing. */
	if (c1->n == c2->n) {
		for (i = 0; i < c1->n; i++)
			if (td_s[0].n[c1->v[i]].norm != td_s[1].n[c2->v[i]].norm)
				break;
		if (i == c1->n)
			goto sort;
	}
	for (i = 0; i < c1->n; i++)
		td_push(&g1, c1->v[i]);
	for (i = 0; i < c2->n; i++)
		td_push(&g2, c2->v[i]);
	n1 = namesof(&td_s[0], &g1);
	n2 = namesof(&td_s[1], &g2);
	addmissing(&g1, n1, n2, g2.n, &td_s[1], u2, c2);
	addmissing(&g2, n2, n1, g1.n, &td_s[0], u1, c1);
	free(n1);
	free(n2);
	td_vfree(&g1);
	td_vfree(&g2);
sort:
	tssort(&td_s[0], c1);
	tssort(&td_s[1], c2);
}

/* Spec 1.3.2: walk down through wrapper nodes. */
static uint32_t
collapse(const struct side *s, uint32_t u, struct vec *kids)
{
	struct vec g = { 0 };
	const uint32_t *k;
	uint32_t cur = u, j;

	kids->n = 0;
	for (;;) {
		if (cur == NONE || isdispatch(s, cur))
			break;
		if (s->n[cur].kind == TL_K_CPU_OP) {
			k = s->kids + s->n[cur].kid;
			for (j = 0; j < s->n[cur].nkid; j++)
				if (isdispatch(s, k[j]))
					break;
			if (j < s->n[cur].nkid)
				break;
		}
		gpukids(s, cur, &g);
		if (g.n != 1) {
			for (j = 0; j < g.n; j++)
				td_push(kids, g.v[j]);
			break;
		}
		cur = g.v[0];
	}
	td_vfree(&g);
	return cur;
}

static int
anydispatch(const struct side *s, const uint32_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (isdispatch(s, v[i]))
			return 1;
	return 0;
}

/* Align two lists: positional where TraceLens is, else td_align. */
static void
alignlists(const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
    struct ops *o)
{
	size_t i;

	o->n = 0;
	if (td_tracelens && na == nb && !anydispatch(&td_s[0], a, na) &&
	    !anydispatch(&td_s[1], b, nb)) {
		for (i = 0; i < na; i++)
			td_opush(o, OP_MATCH, (uint32_t)i, (uint32_t)i);
		return;
	}
	td_align(a, na, b, nb, 0, o);
}

static int
hasop(const struct ops *o, int t)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (o->v[i].t == t)
			return 1;
	return 0;
}

/* The ordered normalized names of a list are equal. */
static int
samenames(const struct vec *a, const struct vec *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (td_s[0].n[a->v[i]].norm != td_s[1].n[b->v[i]].norm)
			return 0;
	return 1;
}

/*
 * Default mode: a hash of the shape of the subtree below node u: the
 * GPU-path children in order, each by its normalized name and its own
 * shape. Kept per node (0: not yet).
 */
static uint64_t *shape[2];

static uint64_t
subshape(int side, uint32_t u)
{
	const struct side *s = &td_s[side];
	const uint32_t *k;
	uint64_t h = 0x2545f4914f6cdd1dull;
	uint32_t j;

	if (shape[side] == NULL)
		shape[side] = xcalloc(s->nn + 1, sizeof *shape[side]);
	if (shape[side][u] != 0)
		return shape[side][u];
	k = s->kids + s->n[u].kid;
	for (j = 0; j < s->n[u].nkid; j++)
		if (td_ongpu(s, k[j]))
			h = mix(h ^ mix(s->n[k[j]].norm ^ subshape(side,
			    k[j]) << 1));
	return shape[side][u] = h | 1;
}

/*
 * The subtrees below a (side 0) and b (side 1) have the same shape: the
 * same children by name, and below them the same hash.
 */
static int
sameshape(uint32_t a, uint32_t b)
{
	struct vec ga = { 0 }, gb = { 0 };
	int same;

	if (subshape(0, a) != subshape(1, b))
		return 0;
	gpukids(&td_s[0], a, &ga);
	gpukids(&td_s[1], b, &gb);
	same = samenames(&ga, &gb);
	td_vfree(&ga);
	td_vfree(&gb);
	return same;
}

/* A hash of the ordered normalized names of a list. */
static uint64_t
hashnames(const struct side *s, const struct vec *v)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	size_t i;

	for (i = 0; i < v->n; i++)
		h = mix(h ^ s->n[v->v[i]].norm);
	return h;
}

/* An index of a list by node, for firstpos. */
static struct tl_sortkey *
posindex(const struct vec *v)
{
	struct tl_sortkey *a = xmalloc((v->n + 1) * sizeof *a);
	size_t i;

	for (i = 0; i < v->n; i++) {
		a[i].k = v->v[i];
		a[i].i = (uint32_t)i;
	}
	tl_key_sort(a, v->n);
	return a;
}

/* The first position of node x in the list (list.index), or NONE. */
static uint32_t
firstpos(const struct tl_sortkey *a, size_t n, uint32_t x)
{
	size_t j = tl_key_find(a, n, x);

	return j < n ? a[j].i : NONE;
}

/*
 * Spec 1.3.4: wrapper nodes replaced by their children and re-aligned.
 * Rule 3 (the same children in the same order) replaces both nodes by
 * their children with --tracelens; by default, when the whole subtrees
 * below have the same shape, it pairs the two nodes (a renamed op) and
 * takes them out of rules 1 and 2.
 */
static void
reconcile(struct vec *c1, struct vec *c2, struct ops *o)
{
	struct vec *gd, *gi, n1 = { 0 }, n2 = { 0 }, r1 = { 0 }, r2 = { 0 },
	    a1 = { 0 }, a2 = { 0 };
	struct ops fr = { 0 }, no = { 0 }, r3 = { 0 };
	struct tl_sortkey *hd, *hi;
	struct tl_sortkey *p1 = NULL, *p2 = NULL;
	uint8_t *m1, *m2, *pin1 = NULL, *pin2 = NULL;
	uint32_t *dn, *in, x, y;
	size_t i, j, k, l, e, f, nd = 0, ni = 0, nhd = 0, nhi = 0, nmark = 0;
	size_t o1 = c1->n, o2 = c2->n;

	m1 = xcalloc(o1 + 1, 1);
	m2 = xcalloc(o2 + 1, 1);
	gd = xcalloc(o1 + 1, sizeof *gd);
	gi = xcalloc(o2 + 1, sizeof *gi);
	dn = xmalloc((o1 + 1) * sizeof *dn);
	in = xmalloc((o2 + 1) * sizeof *in);
	hd = xmalloc((o1 + 1) * sizeof *hd);
	hi = xmalloc((o2 + 1) * sizeof *hi);
	/* The deletes and inserts that take part: no kernels, no launches. */
	for (k = 0; k < o->n; k++) {
		if (o->v[k].t == OP_DEL) {
			i = o->v[k].i;
			x = c1->v[i];
			if (td_iskernel(&td_s[0].n[x]) || isdispatch(&td_s[0], x))
				continue;
			m1[i] = 1;	/* a candidate; 2: marked; 3: paired */
			nd++;
			gpukids(&td_s[0], x, &gd[i]);
			if (gd[i].n > 0) {
				hd[nhd].k = hashnames(&td_s[0], &gd[i]);
				hd[nhd++].i = (uint32_t)i;
			}
		} else if (o->v[k].t == OP_INS) {
			j = o->v[k].j;
			y = c2->v[j];
			if (td_iskernel(&td_s[1].n[y]) || isdispatch(&td_s[1], y))
				continue;
			m2[j] = 1;
			ni++;
			gpukids(&td_s[1], y, &gi[j]);
			if (gi[j].n > 0) {
				hi[nhi].k = hashnames(&td_s[1], &gi[j]);
				hi[nhi++].i = (uint32_t)j;
			}
		}
	}
	if (nd == 0 || ni == 0)
		goto done;
	/* Rule 3: the same children, in the same order. */
	tl_key_sort(hd, nhd);		/* by hash, then index */
	tl_key_sort(hi, nhi);
	for (k = 0, l = 0; k < nhd && l < nhi; k = e, l = f) {
		if (hd[k].k != hi[l].k) {
			e = k + (hd[k].k < hi[l].k);
			f = l + (hd[k].k > hi[l].k);
			continue;
		}
		for (e = k; e < nhd && hd[e].k == hd[k].k; e++)
			;
		for (f = l; f < nhi && hi[f].k == hi[l].k; f++)
			;
		for (i = k; i < e; i++)
			for (j = l; j < f; j++) {
				x = hd[i].i;
				y = hi[j].i;
				if (!samenames(&gd[x], &gi[y]))
					continue;
				if (td_tracelens)
					m1[x] = m2[y] = 2;
				else if (m1[x] == 1 && m2[y] == 1 &&
				    sameshape(c1->v[x], c2->v[y])) {
					m1[x] = m2[y] = 3;
					td_opush(&r3, OP_MATCH, x, y);
				}
			}
	}
	for (i = 0, nd = 0; i < o1; i++)
		if (m1[i] == 1 || m1[i] == 2)
			dn[nd++] = td_s[0].n[c1->v[i]].norm;
	for (j = 0, ni = 0; j < o2; j++)
		if (m2[j] == 1 || m2[j] == 2)
			in[ni++] = td_s[1].n[c2->v[j]].norm;
	qsort(dn, nd, sizeof *dn, td_cmpu32);
	qsort(in, ni, sizeof *in, td_cmpu32);
	/* Rule 1: a deleted node's name among an insert's children. */
	for (j = 0; j < o2; j++)
		for (k = 0; m2[j] == 1 && k < gi[j].n; k++)
			if (insorted(dn, nd, td_s[1].n[gi[j].v[k]].norm))
				m2[j] = 2;
	/* Rule 2: an inserted node's name among a delete's children. */
	for (i = 0; i < o1; i++)
		for (k = 0; m1[i] == 1 && k < gd[i].n; k++)
			if (insorted(in, ni, td_s[0].n[gd[i].v[k]].norm))
				m1[i] = 2;
	for (i = 0; i < o1; i++)
		nmark += m1[i] == 2;
	for (j = 0; j < o2; j++)
		nmark += m2[j] == 2;
	if (nmark == 0 && r3.n == 0)
		goto done;

	for (i = 0; i < o1; i++)
		if (m1[i] == 2)
			for (k = 0; k < gd[i].n; k++)
				td_push(&n1, gd[i].v[k]);
		else
			td_push(&n1, c1->v[i]);
	for (j = 0; j < o2; j++)
		if (m2[j] == 2)
			for (k = 0; k < gi[j].n; k++)
				td_push(&n2, gi[j].v[k]);
		else
			td_push(&n2, c2->v[j]);
	tssort(&td_s[0], &n1);
	tssort(&td_s[1], &n2);
	pin1 = xcalloc(n1.n + 1, 1);
	pin2 = xcalloc(n2.n + 1, 1);
	p1 = posindex(&n1);
	p2 = posindex(&n2);
	/* The matches stay: Phase 2's, then the renamed pairs. */
	for (k = 0; k < o->n + r3.n; k++) {
		const struct op *op = k < o->n ? &o->v[k] : &r3.v[k - o->n];

		if (op->t != OP_MATCH)
			continue;
		x = firstpos(p1, n1.n, c1->v[op->i]);
		y = firstpos(p2, n2.n, c2->v[op->j]);
		if (x == NONE || y == NONE)
			continue;
		pin1[x] = pin2[y] = 1;
		td_opush(&no, OP_MATCH, x, y);
	}
	for (i = 0; i < n1.n; i++)
		if (!pin1[i]) {
			td_push(&r1, (uint32_t)i);
			td_push(&a1, n1.v[i]);
		}
	for (j = 0; j < n2.n; j++)
		if (!pin2[j]) {
			td_push(&r2, (uint32_t)j);
			td_push(&a2, n2.v[j]);
		}
	if (r1.n == 0 || r2.n == 0) {
		for (i = 0; i < r1.n; i++)
			td_opush(&no, OP_DEL, r1.v[i], 0);
		for (j = 0; j < r2.n; j++)
			td_opush(&no, OP_INS, 0, r2.v[j]);
	} else {
		alignlists(a1.v, a1.n, a2.v, a2.n, &fr);
		for (k = 0; k < fr.n; k++)
			td_opush(&no, fr.v[k].t, fr.v[k].t == OP_INS ? 0 :
			    r1.v[fr.v[k].i], fr.v[k].t == OP_DEL ? 0 :
			    r2.v[fr.v[k].j]);
	}
	/* The substituted lists and the new ops replace the old. */
	c1->n = c2->n = 0;
	for (i = 0; i < n1.n; i++)
		td_push(c1, n1.v[i]);
	for (j = 0; j < n2.n; j++)
		td_push(c2, n2.v[j]);
	o->n = 0;
	for (k = 0; k < no.n; k++)
		td_opush(o, no.v[k].t, no.v[k].i, no.v[k].j);
done:
	for (i = 0; i < o1; i++)
		td_vfree(&gd[i]);
	for (j = 0; j < o2; j++)
		td_vfree(&gi[j]);
	free(gd);
	free(gi);
	free(hd);
	free(hi);
	free(m1);
	free(m2);
	free(pin1);
	free(pin2);
	free(p1);
	free(p2);
	free(dn);
	free(in);
	td_vfree(&n1);
	td_vfree(&n2);
	td_vfree(&r1);
	td_vfree(&r2);
	td_vfree(&a1);
	td_vfree(&a2);
	free(fr.v);
	free(no.v);
	free(r3.v);
}

/* Spec 1.3.5: the unmatched nodes compared at their collapsed nodes. */
static void
canonicalise(struct vec *c1, struct vec *c2, struct ops *o)
{
	struct vec d = { 0 }, in = { 0 }, cd = { 0 }, ci = { 0 }, kids = { 0 },
	    ld = { 0 }, li = { 0 }, xd = { 0 }, xi = { 0 };
	struct ops p1 = { 0 }, p2 = { 0 }, comb = { 0 }, no = { 0 };
	size_t k;
	uint32_t a, b;

	for (k = 0; k < o->n; k++)
		if (o->v[k].t == OP_DEL)
			td_push(&d, o->v[k].i);
		else if (o->v[k].t == OP_INS)
			td_push(&in, o->v[k].j);
	for (k = 0; k < d.n; k++)
		td_push(&cd, collapse(&td_s[0], c1->v[d.v[k]], &kids));
	for (k = 0; k < in.n; k++)
		td_push(&ci, collapse(&td_s[1], c2->v[in.v[k]], &kids));
	td_align(cd.v, cd.n, ci.v, ci.n, 0, &p1);
	if (hasop(&p1, OP_DEL) && hasop(&p1, OP_INS)) {
		for (k = 0; k < p1.n; k++)
			if (p1.v[k].t == OP_MATCH)
				td_opush(&comb, OP_MATCH, p1.v[k].i, p1.v[k].j);
			else if (p1.v[k].t == OP_DEL) {
				td_push(&ld, p1.v[k].i);
				td_push(&xd, cd.v[p1.v[k].i]);
			} else {
				td_push(&li, p1.v[k].j);
				td_push(&xi, ci.v[p1.v[k].j]);
			}
		td_align(xd.v, xd.n, xi.v, xi.n, 1, &p2);
		for (k = 0; k < p2.n; k++) {
			a = p2.v[k].t == OP_INS ? 0 : ld.v[p2.v[k].i];
			b = p2.v[k].t == OP_DEL ? 0 : li.v[p2.v[k].j];
			td_opush(&comb, p2.v[k].t, a, b);
		}
	} else
		for (k = 0; k < p1.n; k++)
			td_opush(&comb, p1.v[k].t, p1.v[k].i, p1.v[k].j);
	for (k = 0; k < o->n; k++)
		if (o->v[k].t == OP_MATCH)
			td_opush(&no, OP_MATCH, o->v[k].i, o->v[k].j);
	for (k = 0; k < comb.n; k++) {
		a = comb.v[k].i;
		b = comb.v[k].j;
		if (comb.v[k].t != OP_INS) {
			c1->v[d.v[a]] = cd.v[a];
			a = d.v[a];
		}
		if (comb.v[k].t != OP_DEL) {
			c2->v[in.v[b]] = ci.v[b];
			b = in.v[b];
		}
		td_opush(&no, comb.v[k].t, a, b);
	}
	o->n = 0;
	for (k = 0; k < no.n; k++)
		td_opush(o, no.v[k].t, no.v[k].i, no.v[k].j);
	td_vfree(&d);
	td_vfree(&in);
	td_vfree(&cd);
	td_vfree(&ci);
	td_vfree(&kids);
	td_vfree(&ld);
	td_vfree(&li);
	td_vfree(&xd);
	td_vfree(&xi);
	free(p1.v);
	free(p2.v);
	free(comb.v);
	free(no.v);
}

/*
 * Default mode: the ops in list order. The matches by their baseline
 * index, each after the deletes and the inserts that come before it on
 * its side; what is left at the end.
 */
static void
inorder(size_t n1, size_t n2, struct ops *o)
{
	struct ops m = { 0 }, r = { 0 };
	uint8_t *d, *in;
	size_t k, i = 0, j = 0;

	d = xcalloc(n1 + 1, 1);
	in = xcalloc(n2 + 1, 1);
	for (k = 0; k < o->n; k++)
		if (o->v[k].t == OP_MATCH)
			td_opush(&m, OP_MATCH, o->v[k].i, o->v[k].j);
		else if (o->v[k].t == OP_DEL)
			d[o->v[k].i] = 1;
		else
			in[o->v[k].j] = 1;
	if (m.n > 1)
		qsort(m.v, m.n, sizeof *m.v, td_cmpop);
	for (k = 0; k <= m.n; k++) {
		for (; i < n1 && (k == m.n || i < m.v[k].i); i++)
			if (d[i])
				td_opush(&r, OP_DEL, (uint32_t)i, 0);
		for (; j < n2 && (k == m.n || j < m.v[k].j); j++)
			if (in[j])
				td_opush(&r, OP_INS, 0, (uint32_t)j);
		if (k < m.n)
			td_opush(&r, OP_MATCH, m.v[k].i, m.v[k].j);
	}
	o->n = 0;
	for (k = 0; k < r.n; k++)
		td_opush(o, r.v[k].t, r.v[k].i, r.v[k].j);
	free(d);
	free(in);
	free(m.v);
	free(r.v);
}

/* Phases 2 to 4 on two lists of children (or of roots). */
static void
pairup(struct vec *c1, struct vec *c2, struct ops *o)
{
	size_t k;

	alignlists(c1->v, c1->n, c2->v, c2->n, o);
	for (k = 0; k < o->n; k++)
		if (o->v[k].t != OP_MATCH)
			break;
	if (k == o->n)
		return;
	reconcile(c1, c2, o);
	if (hasop(o, OP_DEL) && hasop(o, OP_INS))
		canonicalise(c1, c2, o);
	if (!td_tracelens)
		inorder(c1->n, c2->n, o);
}

/* Record a uid map entry (td_umapdone makes the keys unique). */
static void
mapuid(int side, uint32_t u, uint32_t other)
{
	xgrow(&td_umap, &capumap, td_numap + 1, sizeof *td_umap);
	td_umap[td_numap].side = (uint8_t)side;
	td_umap[td_numap].u = u;
	td_umap[td_numap++].other = other;
}

/*
 * As a Python dict: a key seen again keeps its first place and takes
 * the last value.
 */
static void
umapdone(void)
{
	struct tl_sortkey *ix;
	uint8_t *drop;
	size_t i, j, k, n = td_numap;

	if (n < 2)
		return;
	ix = xmalloc(n * sizeof *ix);
	drop = xcalloc(n, 1);
	for (i = 0; i < n; i++) {
		ix[i].k = (uint64_t)td_umap[i].side << 32 | td_umap[i].u;
		ix[i].i = (uint32_t)i;
	}
	tl_key_sort(ix, n);		/* by (side, node), then index */
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && ix[j].k == ix[i].k; j++)
			drop[ix[j].i] = 1;
		td_umap[ix[i].i].other = td_umap[ix[j - 1].i].other;
	}
	for (i = 0, k = 0; i < n; i++)
		if (!drop[i])
			td_umap[k++] = td_umap[i];
	td_numap = k;
	free(ix);
	free(drop);
}

static uint32_t traverse(uint32_t, uint32_t);

/* Merge the pairs of ops; return their merged ids in a vec. */
static void
merge(const struct vec *c1, const struct vec *c2, const struct ops *o,
    struct vec *out)
{
	size_t k;
	uint32_t a, b;

	for (k = 0; k < o->n; k++) {
		a = o->v[k].t == OP_INS ? NONE : c1->v[o->v[k].i];
		b = o->v[k].t == OP_DEL ? NONE : c2->v[o->v[k].j];
		td_push(out, traverse(a, b));
	}
}

/* Spec 1.3: the merged node of (u1, u2); its id is its pre-order index. */
static uint32_t
traverse(uint32_t u1, uint32_t u2)
{
	struct vec c1 = { 0 }, c2 = { 0 }, kids = { 0 }, out = { 0 };
	struct ops o = { 0 };
	uint32_t *slot, mid, c;
	size_t k;

	slot = hget(&memo, (uint64_t)u1 << 32 | u2);
	if (*slot != 0)
		return *slot - 1;
	if (td_nm >= UINT32_MAX - 1)
		tl_errx(2, "the merged tree is too large");
	mid = (uint32_t)td_nm++;
	memo.n++;		/* n counts the filled slots */
	*slot = mid + 1;
	xgrow(&td_m, &capm, td_nm, sizeof *td_m);
	if (u1 != NONE && u2 != NONE) {
		mapuid(0, u1, u2);
		mapuid(1, u2, u1);
	} else if (u1 != NONE)
		mapuid(0, u1, NONE);
	else
		mapuid(1, u2, NONE);

	withmissing(u1, u2, &c1, &c2);
	/* Phase 1. */
	if (c1.n != c2.n) {
		if (c1.n == 1) {
			c = collapse(&td_s[0], c1.v[0], &kids);
			if (kids.n > 0) {
				u1 = c;
				c1.n = 0;
				for (k = 0; k < kids.n; k++)
					td_push(&c1, kids.v[k]);
			}
		} else if (c2.n == 1) {
			c = collapse(&td_s[1], c2.v[0], &kids);
			if (kids.n > 0) {
				u2 = c;
				c2.n = 0;
				for (k = 0; k < kids.n; k++)
					td_push(&c2, kids.v[k]);
			}
		}
	}
	pairup(&c1, &c2, &o);
	merge(&c1, &c2, &o, &out);

	xgrow(&td_mkids, &capmkids, nmkids + out.n + 1, sizeof *td_mkids);
	if (out.n > 0)
		memcpy(td_mkids + nmkids, out.v, out.n * sizeof *out.v);
	td_m[mid].u[0] = u1;
	td_m[mid].u[1] = u2;
	td_m[mid].kid = (uint32_t)nmkids;
	td_m[mid].nkid = (uint32_t)out.n;
	td_m[mid].type = u1 != NONE && u2 != NONE ? M_BOTH : u1 != NONE ?
	    M_ONE : M_TWO;
	nmkids += out.n;
	td_vfree(&c1);
	td_vfree(&c2);
	td_vfree(&kids);
	td_vfree(&out);
	free(o.v);
	return mid;
}

void
td_merge(void)
{
	struct vec r1 = { 0 }, r2 = { 0 }, out = { 0 };
	struct ops o = { 0 };
	size_t i, n;

	for (i = 0; i < td_s[0].nroots; i++)
		td_push(&r1, td_s[0].roots[i]);
	for (i = 0; i < td_s[1].nroots; i++)
		td_push(&r2, td_s[1].roots[i]);
	if (td_tracelens) {
		/* Roots paired by position. */
		n = r1.n > r2.n ? r1.n : r2.n;
		for (i = 0; i < n; i++)
			td_push(&out, traverse(i < r1.n ? r1.v[i] : NONE,
			    i < r2.n ? r2.v[i] : NONE));
	} else {
		/* Default mode: roots aligned as the children of one node. */
		pairup(&r1, &r2, &o);
		merge(&r1, &r2, &o, &out);
	}
	td_mroots = out.v;
	td_nmroots = out.n;
	td_vfree(&r1);
	td_vfree(&r2);
	free(o.v);
	free(memo.k);
	free(memo.v);
	memset(&memo, 0, sizeof memo);
	umapdone();
	free(shape[0]);
	free(shape[1]);
	shape[0] = shape[1] = NULL;
}

void
td_merge_free(void)
{
	free(td_m);
	free(td_mkids);
	free(td_mroots);
	free(td_umap);
	td_m = NULL;
	td_mkids = td_mroots = NULL;
	td_umap = NULL;
	td_nm = td_nmroots = td_numap = 0;
	capm = capmkids = capumap = nmkids = 0;
}

static const struct side *sortside;

static int
cmplaunch(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t px = sortside->n[x].up, py = sortside->n[y].up;

	if (px != py)
		return px < py ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The GPU events under node i, in the order TraceLens lists them. */
void
td_gpuevents(const struct side *s, uint32_t i, struct vec *out)
{
	struct vec st = { 0 };
	const uint32_t *k;
	uint32_t x, j;
	size_t n0 = out->n;

	if (i == NONE)
		return;
	td_push(&st, i);
	while (st.n > 0) {
		x = st.v[--st.n];
		if (TL_K_ISGPU(s->n[x].kind) && x != i) {
			td_push(out, x);
			continue;
		}
		if (s->n[x].ngpu == 0)
			continue;
		k = s->kids + s->n[x].kid;
		for (j = 0; j < s->n[x].nkid; j++)
			td_push(&st, k[j]);
	}
	td_vfree(&st);
	/* By launch, then by uid. */
	sortside = s;
	if (out->n - n0 > 1)
		qsort(out->v + n0, out->n - n0, sizeof *out->v,
		    cmplaunch);
}
