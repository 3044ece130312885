/*
 * tl-diff: find the lowest common nodes of the merged tree and the GPU
 * events under each, on each side (spec 1.8), with each side's busy time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/interval.h"
#include "../../common/mem.h"
#include "td.h"

struct row *td_rows;
size_t td_nrows;
static size_t caprows;
struct grp *td_grp;
size_t td_ngrp;
static size_t capgrp;
uint64_t td_nskipped;

static uint8_t *visited;
static struct vec ev[2];
static char *sbuf;
static size_t sbufcap;

/* The display name into sbuf at at, with every "(digits)" taken out
 * when strip; the end. */
static size_t
stripnum(uint32_t name, size_t at, int strip)
{
	const char *s;
	size_t n, i, k;

	s = td_str(name, &n);
	xgrow(&sbuf, &sbufcap, at + n + 4, 1);
	for (i = 0; i < n;) {
		if (s[i] == '(' && strip && i + 1 < n && s[i + 1] >= '0' &&
		    s[i + 1] <= '9') {
			for (k = i + 1; k < n && s[k] >= '0' && s[k] <= '9'; k++)
				;
			if (k < n && s[k] == ')') {
				i = k + 1;
				continue;
			}
		}
		sbuf[at++] = s[i++];
	}
	return at;
}

/* The LCA name of a merged node (with --tracelens: "(digits)" out). */
static uint32_t
lcaname(const struct mnode *m, int only)
{
	size_t n1, n2;

	if (only >= 0) {
		if (!td_tracelens)
			return td_s[only].n[m->u[only]].name;
		n1 = stripnum(td_s[only].n[m->u[only]].name, 0, 1);
		return tl_intern(td_in, sbuf, n1);
	}
	if (!td_tracelens &&
	    td_s[0].n[m->u[0]].name == td_s[1].n[m->u[1]].name)
		return td_s[0].n[m->u[0]].name;
	n1 = stripnum(td_s[0].n[m->u[0]].name, 0, td_tracelens);
	n2 = stripnum(td_s[1].n[m->u[1]].name, n1, td_tracelens);
	if (n1 == n2 - n1 && memcmp(sbuf, sbuf + n1, n1) == 0)
		return tl_intern(td_in, sbuf, n1);
	xgrow(&sbuf, &sbufcap, n2 + 4, 1);
	memmove(sbuf + n1 + 3, sbuf + n1, n2 - n1);
	memcpy(sbuf + n1, " | ", 3);
	return tl_intern(td_in, sbuf, n2 + 3);
}

/* The nearest cpu_op at or above node i (parents as TraceLens left them). */
static uint32_t
cpuop(const struct side *s, uint32_t i, int self)
{
	if (i != NONE && !self)
		i = s->n[i].parent;
	for (; i != NONE; i = s->n[i].parent)
		if (s->n[i].kind == TL_K_CPU_OP)
			return i;
	return NONE;
}

struct dv {
	double a, b;
};

static int
cmpdv(const void *x, const void *y)
{
	const struct dv *a = x, *b = y;

	return a->a < b->a ? -1 : a->a > b->a;
}

/* Busy time of a list of GPU events: exact ns, and as TraceLens adds. */
static void
busy(const struct side *s, const struct vec *g, int64_t *ns, double *us)
{
	struct tl_iv *iv, *tmp;
	struct dv *d;
	double last, sum, lo;
	size_t i;

	*ns = 0;
	*us = 0;
	if (g->n == 0)
		return;
	iv = xmalloc(g->n * sizeof *iv);
	tmp = xmalloc(g->n * sizeof *tmp);
	d = xmalloc(g->n * sizeof *d);
	for (i = 0; i < g->n; i++) {
		const struct node *e = &s->n[g->v[i]];

		iv[i].start = e->ts;
		iv[i].end = e->ts + e->dur;
		d[i].a = (double)e->ts / 1000.0;
		d[i].b = d[i].a + (double)e->dur / 1000.0;
	}
	*ns = tl_iv_busy(iv, g->n, tmp);
	/* By start (ties do not change the union); merge, sum in order. */
	qsort(d, g->n, sizeof *d, cmpdv);
	sum = 0;
	lo = d[0].a;
	last = d[0].b;
	for (i = 1; i < g->n; i++) {
		if (d[i].a <= last) {
			if (d[i].b > last)
				last = d[i].b;
		} else {
			sum += last - lo;
			lo = d[i].a;
			last = d[i].b;
		}
	}
	sum += last - lo;
	*us = sum;
	free(iv);
	free(tmp);
	free(d);
}

static uint32_t
newgrp(uint32_t lca, uint32_t name, const uint32_t u[2])
{
	struct grp *g;

	xgrow(&td_grp, &capgrp, td_ngrp + 1, sizeof *td_grp);
	g = &td_grp[td_ngrp];
	memset(g, 0, sizeof *g);
	g->lca = lca;
	g->name = name;
	g->u[0] = u[0];
	g->u[1] = u[1];
	g->op = g->opnode = NONE;
	return (uint32_t)td_ngrp++;
}

/* Rows for the GPU events of ev[side], in group gi. */
static void
rows(uint32_t gi, int side)
{
	const struct side *s = &td_s[side];
	struct grp *g = &td_grp[gi];
	uint32_t c;
	size_t i;

	busy(s, &ev[side], &g->busy[side], &g->busyd[side]);
	g->nk[side] = (uint32_t)ev[side].n;
	for (i = 0; i < ev[side].n; i++) {
		c = cpuop(s, ev[side].v[i], 0);
		if (c == NONE && td_tracelens) {
			td_nskipped++;
			continue;
		}
		xgrow(&td_rows, &caprows, td_nrows + 1, sizeof *td_rows);
		td_rows[td_nrows].gpu = ev[side].v[i];
		td_rows[td_nrows].cpu = c;
		td_rows[td_nrows].grp = gi;
		td_rows[td_nrows++].side = (uint8_t)side;
	}
}

/* Add the GPU events of node u (and u itself when it counts) to ev. */
static void
addevents(int side, uint32_t u)
{
	td_gpuevents(&td_s[side], u, &ev[side]);
	if (td_iskernel(&td_s[side].n[u]))
		td_push(&ev[side], u);
}

/* Spec 1.8, as TraceLens walks the merged tree. */
static void
visit_tl(uint32_t mid, uint32_t par)
{
	const struct mnode *m = &td_m[mid];
	uint32_t e1, e2, c, gi, u[2];
	size_t k;
	int side, lca, any;

	if (visited[mid])
		return;
	if (m->type != M_BOTH) {
		side = m->type == M_ONE ? 0 : 1;
		if (td_ongpu(&td_s[side], m->u[side])) {
			ev[side].n = 0;
			td_gpuevents(&td_s[side], m->u[side], &ev[side]);
			u[0] = u[1] = NONE;
			u[side] = m->u[side];
			gi = newgrp(par, par == NONE ? NONE :
			    lcaname(&td_m[par], side), u);
			rows(gi, side);
		}
		visited[mid] = 1;
		return;
	}
	e1 = m->u[0];
	e2 = m->u[1];
	if (td_ongpu(&td_s[0], e1) && td_ongpu(&td_s[1], e2)) {
		any = 0;
		for (k = 0; k < m->nkid && !any; k++) {
			c = td_mkids[m->kid + k];
			if (td_m[c].type != M_BOTH && (td_ongpu(&td_s[0],
			    td_m[c].u[0]) || td_ongpu(&td_s[1], td_m[c].u[1])))
				any = 1;
		}
		lca = any || (td_iskernel(&td_s[0].n[e1]) &&
		    td_iskernel(&td_s[1].n[e2]));
		if (lca) {
			ev[0].n = ev[1].n = 0;
			for (k = 0; k < m->nkid; k++) {
				c = td_mkids[m->kid + k];
				if (td_m[c].type == M_BOTH)
					continue;
				for (side = 0; side < 2; side++)
					if (td_ongpu(&td_s[side],
					    td_m[c].u[side])) {
						addevents(side, td_m[c].u[side]);
						visited[c] = 1;
					}
			}
			if (td_iskernel(&td_s[0].n[e1]))
				td_push(&ev[0], e1);
			if (td_iskernel(&td_s[1].n[e2]))
				td_push(&ev[1], e2);
			gi = newgrp(mid, lcaname(m, -1), m->u);
			rows(gi, 0);
			rows(gi, 1);
			visited[mid] = 1;
		}
	}
	if (td_ongpu(&td_s[0], e1) || td_ongpu(&td_s[1], e2))
		for (k = 0; k < m->nkid; k++)
			visit_tl(td_mkids[m->kid + k], mid);
}

/*
 * Default mode: every GPU event in exactly one group. A matched node is
 * a lowest common node when it is a pair of GPU events, or when a child
 * with GPU events under it is on one side only; the group holds the node
 * itself and those children. A root on one side only is a group alone.
 */
static void
visit(uint32_t mid)
{
	const struct mnode *m = &td_m[mid];
	uint32_t c, gi, u[2];
	size_t k;
	int side, any = 0;

	if (visited[mid])
		return;
	visited[mid] = 1;
	if (m->type != M_BOTH) {
		side = m->type == M_ONE ? 0 : 1;
		ev[side].n = 0;
		addevents(side, m->u[side]);
		if (ev[side].n == 0)
			return;
		u[0] = u[1] = NONE;
		u[side] = m->u[side];
		gi = newgrp(NONE, td_s[side].n[m->u[side]].name, u);
		rows(gi, side);
		return;
	}
	for (k = 0; k < m->nkid && !any; k++) {
		c = td_mkids[m->kid + k];
		if (td_m[c].type != M_BOTH && td_ongpu(&td_s[td_m[c].type ==
		    M_ONE ? 0 : 1], td_m[c].u[td_m[c].type == M_ONE ? 0 : 1]))
			any = 1;
	}
	if (any || TL_K_ISGPU(td_s[0].n[m->u[0]].kind) ||
	    TL_K_ISGPU(td_s[1].n[m->u[1]].kind)) {
		ev[0].n = ev[1].n = 0;
		for (side = 0; side < 2; side++)
			if (TL_K_ISGPU(td_s[side].n[m->u[side]].kind))
				td_push(&ev[side], m->u[side]);
		for (k = 0; k < m->nkid; k++) {
			c = td_mkids[m->kid + k];
			if (td_m[c].type == M_BOTH || visited[c])
				continue;
			side = td_m[c].type == M_ONE ? 0 : 1;
			addevents(side, td_m[c].u[side]);
			visited[c] = 1;
		}
		gi = newgrp(mid, lcaname(m, -1), m->u);
		rows(gi, 0);
		rows(gi, 1);
	}
	for (k = 0; k < m->nkid; k++) {
		c = td_mkids[m->kid + k];
		if (td_m[c].type == M_BOTH)
			visit(c);
	}
}

void
td_lca(void)
{
	struct grp *g;
	size_t i;
	int side;

	visited = xcalloc(td_nm + 1, 1);
	for (i = 0; i < td_nmroots; i++)
		if (td_tracelens)
			visit_tl(td_mroots[i], NONE);
		else
			visit(td_mroots[i]);
	free(visited);
	visited = NULL;
	td_vfree(&ev[0]);
	td_vfree(&ev[1]);
	/* The op of each group: the nearest cpu_op at or above its node. */
	for (i = 0; i < td_ngrp; i++) {
		g = &td_grp[i];
		for (side = 0; side < 2; side++) {
			if (g->u[side] == NONE)
				continue;
			g->opnode = cpuop(&td_s[side], g->u[side], 1);
			if (g->opnode != NONE) {
				g->opside = (uint8_t)side;
				g->op = td_s[side].n[g->opnode].name;
				break;
			}
		}
		if (g->op == NONE)
			g->op = g->name;
	}
}

void
td_lca_free(void)
{
	free(td_rows);
	free(td_grp);
	free(sbuf);
	td_rows = NULL;
	td_grp = NULL;
	sbuf = NULL;
	td_nrows = td_ngrp = caprows = capgrp = sbufcap = 0;
}
