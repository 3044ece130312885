/*
 * tl-tree: write a trace's rows with their tree columns, or draw its tree
 * (-p), the subtree of one node (-p -n, -p -e), or the chain of parents of
 * one node (-u).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/mem.h"
#include "tree.h"

/* The tree columns of a row that has none. */
#define NOTREE	"\t\t\t\t\t\t\t\t\t\t\n"
_Static_assert(sizeof NOTREE - 2 == NTREECOL, "one TAB per tree column");

static void
putuid(struct trace *tr, uint32_t i)
{
	tl_out_i64(&out, tr->R[i].uid);
}

/* A number; most depths and busy times are one digit, most of those 0. */
static void
putnum(int64_t v)
{
	if (v >= 0 && v <= 9)
		tl_out_char(&out, (char)('0' + v));
	else
		tl_out_i64(&out, v);
}

/* The uid of record i, its text made once for the rows that share it. */
static void
putsame(struct trace *tr, struct uidtext *c, uint32_t i)
{
	if (c->rec != i) {
		c->rec = i;
		c->n = tl_fmt_i64(c->d, tr->R[i].uid);
	}
	tl_out_raw(&out, c->d, c->n);
}

/*
 * The names of module frame m and of those around it, outermost first,
 * joined from the innermost back; consecutive rows share it.
 */
static void
putmodules(struct trace *tr, uint32_t m)
{
	const struct mnode *mnode = tr->mnode;
	size_t at;

	if (m != tr->mjoined) {
		tr->mjoined = m;
		at = mnode[m].len;
		xgrow(&tr->mjoin, &tr->capmjoin, at, 1);
		for (;;) {
			at -= mnode[m].n;
			memcpy(tr->mjoin + at, mnode[m].s, mnode[m].n);
			if ((m = mnode[m].up) == NONE)
				break;
			tr->mjoin[--at] = ';';
		}
	}
	tl_out_raw(&out, tr->mjoin, mnode[tr->mjoined].len);
}

/*
 * -c: a fact row for each name counted, before the trace's first event
 * row: cat tree_count, the name, the number of event rows of that name
 * in the trace as args (a stream without an args column has none).
 */
static void
putcounts(struct trace *tr)
{
	size_t i, j, nc = rd->t->ncol;
	int cat = col[TL_C_CAT], name = col[TL_C_NAME];

	if (argcol < 0 || cat < 0 || name < 0)
		return;
	for (j = 0; j < ncname; j++) {
		for (i = 0; i < nc; i++) {
			if (i > 0)
				tl_out_char(&out, '\t');
			if ((int)i == cat)
				tl_out_raw(&out, "tree_count", 10);
			else if ((int)i == name)
				tl_out_raw(&out, cname[j].s, cname[j].n);
			else if ((int)i == argcol)
				tl_out_i64(&out, (int64_t)tr->count[j]);
		}
		tl_out_raw(&out, NOTREE, sizeof NOTREE - 1);
	}
}

static void
outrow(struct trace *tr, const char *line, size_t len, int more)
{
	size_t n, r;
	struct rec *e;
	int tree;
	uint32_t i;

	/* Whether -s leaves the row out is known at its first part. */
	if (!tr->inrow) {
		r = tr->orow;
		if (r == tr->firstev && ncname > 0)
			putcounts(tr);
		if (!sflag || r == tr->maxrow)
			tr->droprow = 0;
		else if (!(tr->rowbit[r / 64] >> (r % 64) & 1))
			tr->droprow = tr->flowbit[r / 64] >> (r % 64) & 1;
		else {
			e = &tr->R[tr->orec];
			tr->droprow = e->kind == TL_K_PYTHON &&
			    !(e->flags & F_OPBELOW);
		}
	}
	if (!tr->droprow)	/* -s: spooled without args */
		tl_out_raw(&out, line, len);
	if ((tr->inrow = more))	/* the rest of the line comes next */
		return;
	r = tr->orow++;
	if (!(tr->rowbit[r / 64] >> (r % 64) & 1)) {
		if (!tr->droprow)	/* -s: a flow event's, else */
			tl_out_raw(&out, NOTREE, sizeof NOTREE - 1);
		return;
	}
	i = (uint32_t)tr->orec++;
	e = &tr->R[i];
	if (tr->droprow) {
		/* -s: a python frame with only python frames below */
		while (tr->ofwd < tr->nfb && tr->fwd[tr->ofwd].a == i)
			tr->ofwd++;
		while (tr->obwd < tr->nfb && tr->bwd[tr->obwd].a == i)
			tr->obwd++;
		return;
	}
	tree = (e->flags & (F_TREE | F_LINKED)) != 0;
	tl_out_char(&out, '\t');
	if (e->parent != NONE)
		putsame(tr, &tr->parent, e->parent);
	tl_out_char(&out, '\t');
	if (tree)
		putnum(e->depth);
	tl_out_char(&out, '\t');
	if (tree)
		putsame(tr, &tr->root, e->root);
	tl_out_char(&out, '\t');
	if (e->flags & F_LINKED)
		putuid(tr, e->u.launcher);
	tl_out_char(&out, '\t');
	if (TL_K_ISGPU(e->kind))
		tl_out_char(&out, e->flags & F_LINKED ? '1' : '0');
	tl_out_char(&out, '\t');
	if (e->flags & F_TREE)
		putnum(e->u.h.direct);
	tl_out_char(&out, '\t');
	if (e->flags & F_TREE)
		putnum(e->u.h.subtree);
	tl_out_char(&out, '\t');
	if (tr->ofwd < tr->nfb && tr->fwd[tr->ofwd].a == i)
		putuid(tr, tr->fwd[tr->ofwd++].b);
	tl_out_char(&out, '\t');
	for (n = 0; tr->obwd < tr->nfb && tr->bwd[tr->obwd].a == i; n++) {
		if (n > 0)
			tl_out_char(&out, ',');
		putuid(tr, tr->bwd[tr->obwd++].b);
	}
	tl_out_char(&out, '\t');
	if (sflag)
		;	/* -s: nn_module left empty, read by no report */
	else if (tr->rn[i].module == 1)
		tl_out_raw(&out, "root", 4);
	else if (tr->rn[i].module > 1)
		putmodules(tr, tr->rn[i].module - 2);
	tl_out_char(&out, '\n');
}

/*
 * Write the trace's rows, each with its tree columns; with -s, but the
 * flow events' and the python frames' that have no other event below
 * them (F_OPBELOW unset), which no later stage of a report reads.
 */
void
writerows(struct trace *tr)
{
	struct rec *R = tr->R;
	size_t i;
	uint32_t j;

	if (sflag)
		for (i = 0; i < tr->nrec; i++) {
			if (R[i].kind == TL_K_PYTHON)
				continue;
			R[i].flags |= F_OPBELOW;
			for (j = R[i].parent; j != NONE &&
			    !(R[j].flags & F_OPBELOW); j = R[j].parent)
				R[j].flags |= F_OPBELOW;
		}
	unspool(tr, outrow);
	if (ncname > 0 && tr->firstev == SIZE_MAX)	/* no event row */
		putcounts(tr);
}

/* Drawing. */

/* The cat of each kind a record has. */
static const char *const kindname[] = {
	[TL_K_OTHER] = "", [TL_K_CPU_OP] = "cpu_op",
	[TL_K_RUNTIME] = "cuda_runtime", [TL_K_DRIVER] = "cuda_driver",
	[TL_K_PYTHON] = "python_function", [TL_K_ANNOT] = "user_annotation",
	[TL_K_KERNEL] = "kernel", [TL_K_MEMCPY] = "gpu_memcpy",
	[TL_K_MEMSET] = "gpu_memset"
};

/* The children of each node: host events in push (ts) order, then GPU. */
static void
children(struct trace *tr)
{
	struct rec *R = tr->R;
	const uint32_t *order = tr->order;
	uint32_t *pos, *kidoff, *kid;
	size_t i, j, nrec = tr->nrec;

	tr->kidoff = kidoff = xcalloc(nrec + 1, sizeof *kidoff);
	for (i = 0; i < nrec; i++)
		if (R[i].parent != NONE)
			kidoff[R[i].parent + 1]++;
	for (i = 0; i < nrec; i++)
		kidoff[i + 1] += kidoff[i];
	tr->kid = kid = xmalloc((kidoff[nrec] ? kidoff[nrec] : 1) *
	    sizeof *kid);
	pos = xmalloc((nrec ? nrec : 1) * sizeof *pos);
	memcpy(pos, kidoff, nrec * sizeof *pos);
	for (j = 0; j < tr->norder; j++)
		if (R[order[j]].parent != NONE)
			kid[pos[R[order[j]].parent]++] = order[j];
	for (i = 0; i < nrec; i++)
		if (R[i].flags & F_LINKED)
			kid[pos[R[i].parent]++] = (uint32_t)i;
	free(pos);
	if (!gflag)
		return;
	for (i = 0; i < nrec; i++)
		if (R[i].flags & F_LINKED)
			for (j = i; j != NONE && !(R[j].flags & F_GPUBELOW);
			    j = R[j].parent)
				R[j].flags |= F_GPUBELOW;
}

static int
shown(const struct trace *tr, uint32_t i)
{
	return !gflag || (tr->R[i].flags & F_GPUBELOW);
}

/* Write a duration in ns as microseconds, exactly. */
static void
putus(int64_t ns)
{
	char b[32];
	int n;

	n = snprintf(b, sizeof b, "%s%" PRId64 ".%03" PRId64, ns < 0 ? "-" :
	    "", (ns < 0 ? -ns : ns) / 1000, (ns < 0 ? -ns : ns) % 1000);
	tl_out_raw(&out, b, (size_t)n);
}

static void
drawnode(const struct trace *tr, uint32_t i)
{
	const struct rec *e = &tr->R[i];
	const char *s;
	size_t n;

	tl_out_raw(&out, "UID: ", 5);
	tl_out_i64(&out, e->uid);
	tl_out_raw(&out, ", Category: ", 12);
	tl_out_raw(&out, kindname[e->kind], strlen(kindname[e->kind]));
	tl_out_raw(&out, ", Name: ", 8);
	s = tl_intern_str(tr->in, tr->rn[i].name, &n);
	tl_out_raw(&out, s, n);
	if (!(e->flags & F_NOTS)) {
		tl_out_raw(&out, ", Duration: ", 12);
		putus(e->end - e->ts);
		tl_out_raw(&out, " us", 3);
	}
	if ((e->flags & F_TREE) && e->u.h.subtree > 0) {
		tl_out_raw(&out, ", Kernel time: ", 15);
		putus(e->u.h.subtree);
		tl_out_raw(&out, " us", 3);
	}
	tl_out_char(&out, '\n');
}

/* Draw the subtree of node top, down to dlimit levels below it. */
static void
draw(const struct trace *tr, uint32_t top)
{
	struct frame {
		uint32_t node, k;	/* next child to look at */
		size_t plen;		/* prefix length of its children */
	} *st = NULL;
	const uint32_t *kidoff = tr->kidoff, *kid = tr->kid;
	size_t nst = 0, capst = 0, plen = 0, pcap = 0;
	char *pre = NULL;
	uint32_t c, k, nx, end;

	drawnode(tr, top);
	xgrow(&st, &capst, 1, sizeof *st);
	st[nst++] = (struct frame){ top, kidoff[top], 0 };
	while (nst > 0) {
		struct frame *f = &st[nst - 1];

		end = kidoff[f->node + 1];
		for (k = f->k; k < end && !shown(tr, kid[k]); k++)
			;
		if (k == end || (dlimit >= 0 && (int64_t)nst > dlimit)) {
			nst--;
			continue;
		}
		c = kid[k];
		for (nx = k + 1; nx < end && !shown(tr, kid[nx]); nx++)
			;
		f->k = nx;
		plen = f->plen;
		tl_out_raw(&out, pre, plen);
		if (nx == end)
			tl_out_raw(&out, "\u2514\u2500\u2500 ", 10);
		else
			tl_out_raw(&out, "\u251c\u2500\u2500 ", 10);
		drawnode(tr, c);
		xgrow(&pre, &pcap, plen + 6, 1);
		if (nx == end) {
			memcpy(pre + plen, "    ", 4);
			plen += 4;
		} else {
			memcpy(pre + plen, "\u2502   ", 6);
			plen += 6;
		}
		xgrow(&st, &capst, nst + 1, sizeof *st);
		st[nst++] = (struct frame){ c, kidoff[c], plen };
	}
	free(st);
	free(pre);
}

static void
heading(const struct trace *tr)
{
	found = 1;
	if (col[TL_C_TRACE] < 0)
		return;
	tl_out_raw(&out, "trace: ", 7);
	tl_out_cstr(&out, tr->name);
	tl_out_char(&out, '\n');
}

/* The record of uid u, or NONE. */
static uint32_t
finduid(const struct trace *tr, int64_t u)
{
	size_t i;

	for (i = 0; i < tr->nrec; i++)
		if (tr->R[i].uid == u)
			return (uint32_t)i;
	return NONE;
}

/* Nearer the root first, events in the tree before the others. */
static uint32_t
rank(const struct rec *e)
{
	return e->flags & (F_TREE | F_LINKED) ? e->depth : NONE;
}

void
print(struct trace *tr)
{
	const struct rec *R = tr->R;
	uint32_t i, best;
	size_t j;
	int64_t d;

	if (uflag) {
		if ((i = finduid(tr, upuid)) == NONE)
			return;
		heading(tr);
		for (d = 0; i != NONE && (dlimit < 0 || d <= dlimit); d++) {
			if (d == 0)
				tl_out_raw(&out, "Node: ", 6);
			else {
				tl_out_i64(&out, d);
				tl_out_raw(&out, "-up: ", 5);
			}
			drawnode(tr, i);
			i = R[i].parent;
		}
		return;
	}
	children(tr);
	if (nflag)
		best = finduid(tr, nodeuid);
	else
		for (best = NONE, j = 0; j < tr->npick; j++) {
			i = tr->pick[j];
			if (best == NONE || rank(&R[i]) < rank(&R[best]))
				best = i;
		}
	if (best != NONE) {
		heading(tr);
		draw(tr, best);
	} else if (!nflag && !eflag) {
		heading(tr);
		for (j = 0; j < tr->norder; j++)
			if (R[tr->order[j]].parent == NONE &&
			    shown(tr, tr->order[j]))
				draw(tr, tr->order[j]);
	}
}
