/*
 * tl-diff: the default mode's outputs, as tl-tsv(5) streams: the lowest
 * common nodes (lca), their sums per op (ops) and per op and arguments
 * (args), the GPU events under them (rows), the op-name mapping (names),
 * the uid map (uids), the merged tree (tree), and the merged tree drawn as
 * text.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/file.h"
#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/tsv.h"
#include "td.h"

static const char *const tables[] = {
	"lca", "ops", "args", "rows", "names", "uids", "tree", NULL
};

int
td_known_table(const char *name)
{
	int i;

	for (i = 0; tables[i] != NULL; i++)
		if (strcmp(tables[i], name) == 0)
			return 1;
	return 0;
}

static int64_t
absdiff(int64_t a, int64_t b)
{
	return b > a ? b - a : a - b;
}

/*
 * The same: the two trees hold the same events (name, category, parent)
 * in the same order, and no lowest common node's kernel time differs by
 * more than eps ns.
 */
int
td_same(int64_t eps)
{
	const struct side *a = &td_s[0], *b = &td_s[1];
	size_t i;

	if (a->nn != b->nn)
		return 0;
	for (i = 0; i < a->nn; i++)
		if (a->n[i].name != b->n[i].name ||
		    a->n[i].kind != b->n[i].kind || a->n[i].up != b->n[i].up)
			return 0;
	for (i = 0; i < td_ngrp; i++)
		if (absdiff(td_grp[i].busy[0], td_grp[i].busy[1]) > eps)
			return 0;
	return 1;
}

static void
str(struct tl_out *o, uint32_t id)
{
	const char *s;
	size_t n;

	if (id == NONE)
		return;
	s = td_str(id, &n);
	tl_out_field(o, s, n);
}

static void
tab(struct tl_out *o)
{
	tl_out_char(o, '\t');
}

static void
kt(struct tl_out *o, int side, uint32_t u)
{
	const struct node *e;

	if (u == NONE)
		return;
	e = &td_s[side].n[u];
	if (TL_K_ISGPU(e->kind))
		tl_out_i64(o, e->dur);
	else if (e->sub >= 0)
		tl_out_i64(o, e->sub);
}

/*
 * A row: its fields as fmt says, TAB-separated, then the newline. i an
 * int64_t; n a uint32_t, empty when NONE; s a string id, empty when NONE;
 * c a C string; u and k a side and a node (or NONE), its uid and its
 * kernel time; t two times t1 t2, four fields: t1 t2 diff ratio.
 */
static void
row(struct tl_out *o, const char *fmt, ...)
{
	va_list ap;
	const char *f;
	uint32_t u;
	int64_t t1, t2;
	int side;

	va_start(ap, fmt);
	for (f = fmt; *f != '\0'; f++) {
		if (f != fmt)
			tab(o);
		switch (*f) {
		case 'i':
			tl_out_i64(o, va_arg(ap, int64_t));
			break;
		case 'n':
			if ((u = va_arg(ap, uint32_t)) != NONE)
				tl_out_i64(o, u);
			break;
		case 's':
			str(o, va_arg(ap, uint32_t));
			break;
		case 'c':
			tl_out_cstr(o, va_arg(ap, const char *));
			break;
		case 'u':
		case 'k':
			side = va_arg(ap, int);
			u = va_arg(ap, uint32_t);
			if (*f == 'k')
				kt(o, side, u);
			else if (u != NONE)
				tl_out_i64(o, td_s[side].n[u].uid);
			break;
		case 't':
			t1 = va_arg(ap, int64_t);
			t2 = va_arg(ap, int64_t);
			tl_out_i64(o, t1);
			tab(o);
			tl_out_i64(o, t2);
			tab(o);
			tl_out_i64(o, t2 - t1);
			tab(o);
			if (t1 != 0)
				tl_out_double(o, (double)t2 / (double)t1);
			break;
		}
	}
	va_end(ap);
	tl_out_char(o, '\n');
}

/* Groups of lowest common nodes (per op, per op and arguments). */
struct sum {
	uint32_t key[5];	/* op, then the four arguments */
	uint64_t n, k[2];
	int64_t t[2];
	uint32_t first;
};

static int nkey;
static struct sum *sums;


static int
cmpkey(const void *a, const void *b)
{
	const struct sum *x = a, *y = b;
	int k, c;

	for (k = 0; k < nkey; k++)
		if ((c = td_strcmp(x->key[k], y->key[k])) != 0)
			return c;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* By absolute difference, largest first; then by key. */
static int
cmpsum(const void *a, const void *b)
{
	const struct sum *x = a, *y = b;
	int64_t dx = absdiff(x->t[0], x->t[1]), dy = absdiff(y->t[0], y->t[1]);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return cmpkey(a, b);
}

static int
cmpgrp(const void *a, const void *b)
{
	const struct grp *x = &td_grp[*(const uint32_t *)a];
	const struct grp *y = &td_grp[*(const uint32_t *)b];
	int64_t dx = absdiff(x->busy[0], x->busy[1]);
	int64_t dy = absdiff(y->busy[0], y->busy[1]);
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	if (x->lca != y->lca)
		return x->lca < y->lca ? -1 : 1;
	return i < j ? -1 : i > j;
}

static void
lcatable(struct tl_out *o)
{
	static const char *const h[] = {
		"lca_id", "name", "op", "uid_1", "uid_2", "kernels_1",
		"kernels_2", "kernel_time_ns_1", "kernel_time_ns_2",
		"kernel_time_ns_diff", "kernel_time_ratio", NULL
	};
	uint32_t *ord;
	const struct grp *g;
	size_t i;

	tl_out_header(o, h);
	ord = xmalloc((td_ngrp + 1) * sizeof *ord);
	for (i = 0; i < td_ngrp; i++)
		ord[i] = (uint32_t)i;
	qsort(ord, td_ngrp, sizeof *ord, cmpgrp);
	for (i = 0; i < td_ngrp; i++) {
		g = &td_grp[ord[i]];
		row(o, "nssuuiit", g->lca, g->name, g->op, 0, g->u[0], 1,
		    g->u[1], (int64_t)g->nk[0], (int64_t)g->nk[1], g->busy[0],
		    g->busy[1]);
	}
	free(ord);
}

/* ops (withargs 0) and args (1) */
static void
sumtable(struct tl_out *o, int withargs)
{
	static const char *const h1[] = {
		"op", "lcas", "kernels_1", "kernels_2", "kernel_time_ns_1",
		"kernel_time_ns_2", "kernel_time_ns_diff", "kernel_time_ratio",
		NULL
	};
	static const char *const h2[] = {
		"op", "input_dims", "input_types", "input_strides",
		"concrete_inputs", "lcas", "kernels_1", "kernels_2",
		"kernel_time_ns_1", "kernel_time_ns_2", "kernel_time_ns_diff",
		"kernel_time_ratio", NULL
	};
	static const int order[4] = { 0, 2, 1, 3 };	/* dims types strides conc */
	const struct grp *g;
	const struct side *s;
	struct sum *a;
	size_t i, j, n;
	int k;

	tl_out_header(o, withargs ? h2 : h1);
	nkey = withargs ? 5 : 1;
	a = xcalloc(td_ngrp + 1, sizeof *a);
	for (i = 0; i < td_ngrp; i++) {
		g = &td_grp[i];
		a[i].key[0] = g->op;
		for (k = 0; k < 4; k++)
			a[i].key[k + 1] = NONE;
		if (withargs && g->opnode != NONE) {
			s = &td_s[g->opside];
			if (s->n[g->opnode].args != NONE)
				for (k = 0; k < 4; k++)
					a[i].key[k + 1] = s->args[s->n[
					    g->opnode].args].a[order[k]];
		}
		a[i].n = 1;
		a[i].k[0] = g->nk[0];
		a[i].k[1] = g->nk[1];
		a[i].t[0] = g->busy[0];
		a[i].t[1] = g->busy[1];
		a[i].first = (uint32_t)i;
	}
	qsort(a, td_ngrp, sizeof *a, cmpkey);
	for (i = 0, n = 0; i < td_ngrp; i = j, n++) {
		a[n] = a[i];
		for (j = i + 1; j < td_ngrp; j++) {
			for (k = 0; k < nkey; k++)
				if (a[j].key[k] != a[i].key[k])
					break;
			if (k < nkey)
				break;
			a[n].n++;
			a[n].k[0] += a[j].k[0];
			a[n].k[1] += a[j].k[1];
			a[n].t[0] += a[j].t[0];
			a[n].t[1] += a[j].t[1];
		}
	}
	qsort(a, n, sizeof *a, cmpsum);
	sums = a;
	for (i = 0; i < n; i++) {
		for (k = 0; k < nkey; k++) {
			str(o, a[i].key[k]);
			tab(o);
		}
		row(o, "iiit", (int64_t)a[i].n, (int64_t)a[i].k[0],
		    (int64_t)a[i].k[1], a[i].t[0], a[i].t[1]);
	}
	free(a);
	sums = NULL;
}

/* The cat of a GPU event's kind. */
static const char *const catname[] = {
	[TL_K_KERNEL] = "kernel", [TL_K_MEMCPY] = "gpu_memcpy",
	[TL_K_MEMSET] = "gpu_memset"
};

static void
rowstable(struct tl_out *o)
{
	static const char *const h[] = {
		"lca_id", "lca_name", "side", "gpu_uid", "gpu_name", "cat",
		"dur_ns", "cpu_op_uid", "cpu_op_name", "input_dims",
		"input_types", "input_strides", "concrete_inputs", "nn_module",
		"kernel_time_ns", NULL
	};
	static const struct node nocpu = {
		.name = NONE, .module = NONE, .args = NONE
	};
	static const uint32_t noargs[4] = { NONE, NONE, NONE, NONE };
	static const char *const side[] = { "1", "2" };
	const struct row *r;
	const struct grp *g;
	const struct side *s;
	const struct node *e, *c;
	const uint32_t *a;
	size_t i;

	tl_out_header(o, h);
	for (i = 0; i < td_nrows; i++) {
		r = &td_rows[i];
		g = &td_grp[r->grp];
		s = &td_s[r->side];
		e = &s->n[r->gpu];
		c = r->cpu == NONE ? &nocpu : &s->n[r->cpu];
		a = c->args == NONE ? noargs : s->args[c->args].a;
		row(o, "nscisciussssssi", g->lca, g->name, side[r->side], e->uid,
		    e->name, catname[e->kind], e->dur, r->side, r->cpu, c->name,
		    a[0], a[2], a[1], a[3], c->module, g->busy[r->side]);
	}
}

struct nm {
	uint32_t op, cpu, gpu;
	uint8_t side;
	uint32_t first;
	int64_t dur;
	uint64_t n;
};

static int
cmpnm(const void *a, const void *b)
{
	const struct nm *x = a, *y = b;
	int c;

	if ((c = td_strcmp(x->op, y->op)) != 0)
		return c;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	if ((c = td_strcmp(x->cpu, y->cpu)) != 0)
		return c;
	if ((c = td_strcmp(x->gpu, y->gpu)) != 0)
		return c;
	return x->first < y->first ? -1 : x->first > y->first;
}

static void
namestable(struct tl_out *o)
{
	static const char *const h[] = {
		"op", "side", "cpu_op_name", "gpu_name", "count", "dur_ns_sum",
		NULL
	};
	struct nm *a;
	const struct row *r;
	size_t i, j, n;

	tl_out_header(o, h);
	a = xcalloc(td_nrows + 1, sizeof *a);
	for (i = 0; i < td_nrows; i++) {
		r = &td_rows[i];
		a[i].op = td_grp[r->grp].op;
		a[i].side = r->side;
		a[i].cpu = r->cpu == NONE ? NONE : td_s[r->side].n[r->cpu].name;
		a[i].gpu = td_s[r->side].n[r->gpu].name;
		a[i].first = (uint32_t)i;
		a[i].dur = td_s[r->side].n[r->gpu].dur;
		a[i].n = 1;
	}
	qsort(a, td_nrows, sizeof *a, cmpnm);
	for (i = 0, n = 0; i < td_nrows; i = j, n++) {
		a[n] = a[i];
		for (j = i + 1; j < td_nrows && a[j].op == a[i].op &&
		    a[j].side == a[i].side && a[j].cpu == a[i].cpu &&
		    a[j].gpu == a[i].gpu; j++) {
			a[n].n++;
			a[n].dur += a[j].dur;
		}
	}
	for (i = 0; i < n; i++)
		row(o, "scssii", a[i].op, a[i].side == 0 ? "1" : "2", a[i].cpu,
		    a[i].gpu, (int64_t)a[i].n, a[i].dur);
	free(a);
}

static void
uidstable(struct tl_out *o)
{
	static const char *const h[] = { "side", "uid", "other_uid", NULL };
	const struct umap *u;
	size_t i;

	tl_out_header(o, h);
	for (i = 0; i < td_numap; i++) {
		u = &td_umap[i];
		row(o, "cuu", u->side == 0 ? "1" : "2", u->side, u->u,
		    !u->side, u->other);
	}
}

static void
treerow(struct tl_out *o, uint32_t mid, uint32_t parent, uint32_t depth)
{
	const struct mnode *m = &td_m[mid];
	uint32_t c, k, nm[2];
	int t;

	for (t = 0; t < 2; t++)
		nm[t] = m->u[t] != NONE ? td_s[t].n[m->u[t]].name : NONE;
	row(o, "nnncuusskk", mid, parent, depth, m->type != M_BOTH ?
	    (m->type == M_ONE ? "1" : "2") : nm[0] == nm[1] ? "same" :
	    "renamed", 0, m->u[0], 1, m->u[1], nm[0], nm[1], 0, m->u[0], 1,
	    m->u[1]);
	for (t = M_BOTH; t <= M_TWO; t++)
		for (k = 0; k < m->nkid; k++) {
			c = td_mkids[m->kid + k];
			if (td_m[c].type == t)
				treerow(o, c, mid, depth + 1);
			m = &td_m[mid];
		}
}

static void
treetable(struct tl_out *o)
{
	static const char *const h[] = {
		"id", "parent", "depth", "match", "uid_1", "uid_2", "name_1",
		"name_2", "kernel_time_ns_1", "kernel_time_ns_2", NULL
	};
	size_t i;

	tl_out_header(o, h);
	for (i = 0; i < td_nmroots; i++)
		treerow(o, td_mroots[i], NONE, 0);
}

int
td_table(struct tl_out *o, const char *name)
{
	if (strcmp(name, "lca") == 0)
		lcatable(o);
	else if (strcmp(name, "ops") == 0)
		sumtable(o, 0);
	else if (strcmp(name, "args") == 0)
		sumtable(o, 1);
	else if (strcmp(name, "rows") == 0)
		rowstable(o);
	else if (strcmp(name, "names") == 0)
		namestable(o);
	else if (strcmp(name, "uids") == 0)
		uidstable(o);
	else if (strcmp(name, "tree") == 0)
		treetable(o);
	else
		return -1;
	return 0;
}

static void
writefile(const char *dir, const char *name, const char *table)
{
	struct tl_file o;

	if (tl_file_open(&o, dir, name) < 0)
		tl_exit(2);
	if (table == NULL)
		td_tracelens_tree(&o.out);
	else
		td_table(&o.out, table);
	if (tl_file_close(&o) < 0)
		tl_exit(2);
}

int
td_tables_dir(const char *dir)
{
	char name[32];
	int i;

	if (tl_mkdirs(dir) < 0)
		tl_err(2, "%s", dir);
	for (i = 0; tables[i] != NULL; i++) {
		snprintf(name, sizeof name, "%s.tsv", tables[i]);
		writefile(dir, name, tables[i]);
	}
	writefile(dir, "tree.txt", NULL);
	return 0;
}
