/*
 * tl-diff: the files TraceLens's TraceDiff writes (--tracelens -o DIR):
 * merged_tree_output.txt, diff_stats.csv, diff_stats_unique_args_summary.csv,
 * cpu_op_map_trace1.json, cpu_op_map_trace2.json and cpu_op_map.json, byte
 * for byte as TraceLens writes them (spec 1.7 to 1.12).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/csv.h"
#include "../../common/file.h"
#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/pyfmt.h"
#include "../../common/stats.h"
#include "../../common/tsv.h"
#include "td.h"

/* The merged tree as text. */

static const char *
dname(int side, uint32_t u, size_t *n)
{
	return td_str(td_s[side].n[u].name, n);
}

static void
label(struct tl_out *o, const struct mnode *m)
{
	const char *a, *b;
	size_t na, nb;

	if (m->type == M_BOTH) {
		a = dname(0, m->u[0], &na);
		b = dname(1, m->u[1], &nb);
		if (na == nb && memcmp(a, b, na) == 0)
			tl_out_raw(o, a, na);
		else {
			tl_out_raw(o, "combined: ", 10);
			tl_out_raw(o, a, na);
			tl_out_raw(o, " | ", 3);
			tl_out_raw(o, b, nb);
		}
	} else if (m->type == M_ONE) {
		a = dname(0, m->u[0], &na);
		tl_out_raw(o, ">> trace1: ", 11);
		tl_out_raw(o, a, na);
	} else {
		b = dname(1, m->u[1], &nb);
		tl_out_raw(o, "<< trace2: ", 11);
		tl_out_raw(o, b, nb);
	}
}

static char *pre;
static size_t npre, cappre;

/* Children in print order: matched first, then trace1, then trace2. */
static void
drawnode(struct tl_out *o, uint32_t mid, int last)
{
	const struct mnode *m = &td_m[mid];
	uint32_t c, t, k, cnt = 0, seen = 0;
	size_t save;

	if (npre > 0)
		tl_out_raw(o, pre, npre);
	tl_out_raw(o, last ? "\342\224\224\342\224\200\342\224\200 " :
	    "\342\224\234\342\224\200\342\224\200 ", 10);
	label(o, m);
	tl_out_char(o, '\n');
	save = npre;
	xgrow(&pre, &cappre, npre + 8, 1);
	if (last) {
		memcpy(pre + npre, "    ", 4);
		npre += 4;
	} else {
		memcpy(pre + npre, "\342\224\202   ", 6);
		npre += 6;
	}
	cnt = m->nkid;
	for (t = M_BOTH; t <= M_TWO; t++)
		for (k = 0; k < m->nkid; k++) {
			c = td_mkids[m->kid + k];
			if (td_m[c].type != t)
				continue;
			seen++;
			drawnode(o, c, seen == cnt);
			m = &td_m[mid];
		}
	npre = save;
}

void
td_tracelens_tree(struct tl_out *o)
{
	size_t i;

	npre = 0;
	for (i = 0; i < td_nmroots; i++)
		drawnode(o, td_mroots[i], i + 1 == td_nmroots);
	free(pre);
	pre = NULL;
	cappre = 0;
}

/* The diff_stats rows as text cells. */

enum {
	C_NAME, C_CPUNAME, C_CPUUID, C_SOURCE, C_DIMS, C_STRIDES, C_TYPES,
	C_CONCRETE, C_KTIME, C_BUSY, C_LCANAME, C_LCAID, C_GPUUID, C_STACK,
	C_PARENT, NCOL
};

static const char *const colname[NCOL] = {
	"name", "cpu_op_name", "cpu_op_uid", "source", "Input Dims",
	"Input Strides", "Input type", "Concrete Inputs", "kernel_time",
	"busy_time", "lowest_common_ancestor_name", "lowest_common_ancestor_id",
	"gpu_op_uid", "nn_module_stack", "nn_module_parent"
};

/* Each cell an interned string (the text the CSV shows, unquoted). */
static uint32_t (*cell)[NCOL];
static double *ktime;
static struct idarr pyrepr;	/* interned JSON text -> its Python text + 1 */

static uint32_t
internf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static uint32_t
internf(const char *fmt, ...)
{
	char buf[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return tl_intern(td_in, buf, (size_t)n);
}

static uint32_t
internfloat(double v)
{
	char buf[48];

	return tl_intern(td_in, buf, (size_t)tl_py_float(buf, sizeof buf, v));
}

static uint32_t
argtext(uint32_t id)
{
	struct tl_out t;
	const char *s;
	size_t n;
	uint32_t r;

	if (id == NONE)
		return tl_intern(td_in, "", 0);
	if ((r = td_idget(&pyrepr, id)) != 0)
		return r - 1;
	s = td_str(id, &n);
	tl_out_init(&t, -1, "");
	if (tl_out_pyjson(&t, s, n, TL_PY_TUPLES) < 0)
		tl_out_pystr(&t, s, n);
	else if (t.n == 4 && memcmp(t.buf, "None", 4) == 0)
		t.n = 0;	/* a JSON null shows as empty */
	r = tl_intern(td_in, t.buf, t.n);
	tl_out_close(&t);
	td_idset(&pyrepr, id, r + 1);
	return r;
}

/* numpy's round(x, 3): rint(x * 1000) / 1000, half to even. */
static double
round3(double x)
{
	double y = x * 1000.0, r;

	/* Adding 2^52 rounds to an integer, half to even (no libm). */
	if (!(y < 0x1p52 && y > -0x1p52))
		return x;
	r = y >= 0 ? (y + 0x1p52) - 0x1p52 : -((-y + 0x1p52) - 0x1p52);
	return r / 1000.0;
}

static int anynolca;

static void
cells(void)
{
	const struct row *r;
	const struct grp *g;
	const struct side *s;
	const struct node *c;
	const char *st;
	size_t i, n, k;
	int j;

	cell = xcalloc(td_nrows + 1, sizeof *cell);
	ktime = xcalloc(td_nrows + 1, sizeof *ktime);
	for (i = 0; i < td_nrows; i++)
		if (td_grp[td_rows[i].grp].lca == NONE)
			anynolca = 1;
	for (i = 0; i < td_nrows; i++) {
		r = &td_rows[i];
		g = &td_grp[r->grp];
		s = &td_s[r->side];
		c = &s->n[r->cpu];
		cell[i][C_NAME] = s->n[r->gpu].name;
		cell[i][C_CPUNAME] = c->name;
		cell[i][C_CPUUID] = internf("%" PRId64, c->uid);
		cell[i][C_SOURCE] = r->side == 0 ? internf("trace1") :
		    internf("trace2");
		for (j = 0; j < 4; j++)
			cell[i][C_DIMS + j] = argtext(c->args == NONE ? NONE :
			    s->args[c->args].a[j]);
		ktime[i] = (double)s->n[r->gpu].dur / 1000.0;
		cell[i][C_KTIME] = internfloat(ktime[i]);
		cell[i][C_BUSY] = internfloat(round3(g->busyd[r->side]));
		cell[i][C_LCANAME] = g->name == NONE ? internf("%s", "") :
		    g->name;
		if (g->lca == NONE)
			cell[i][C_LCAID] = internf("%s", "");
		else if (anynolca)
			cell[i][C_LCAID] = internf("%" PRIu32 ".0", g->lca);
		else
			cell[i][C_LCAID] = internf("%" PRIu32, g->lca);
		cell[i][C_GPUUID] = internf("%" PRId64, s->n[r->gpu].uid);
		if (c->module == NONE) {
			cell[i][C_STACK] = internf("root");
			cell[i][C_PARENT] = cell[i][C_STACK];
		} else {
			cell[i][C_STACK] = c->module;
			st = td_str(c->module, &n);
			for (k = n; k > 0 && st[k - 1] != ';'; k--)
				;
			cell[i][C_PARENT] = tl_intern(td_in, st + k, n - k);
		}
	}
}

/* Identical in TraceLens's sense: trace1 rows equal trace2 rows. */
static int
identical(void)
{
	size_t *a, *b, na = 0, nb = 0, i;
	int c, same = 1;

	if (td_nrows == 0)
		return 1;
	a = xmalloc(td_nrows * sizeof *a);
	b = xmalloc(td_nrows * sizeof *b);
	for (i = 0; i < td_nrows; i++)
		if (td_rows[i].side == 0)
			a[na++] = i;
		else
			b[nb++] = i;
	if (na != nb)
		same = 0;
	for (i = 0; same && i < na; i++)
		for (c = 0; c < NCOL; c++)
			if (c != C_SOURCE && cell[a[i]][c] != cell[b[i]][c])
				same = 0;
	free(a);
	free(b);
	return same;
}

/* diff_stats_unique_args_summary: the groups. */
struct sgrp {
	uint32_t key[NCOL];	/* the row's cells (KTIME, LCAID, GPUUID unused) */
	uint32_t count, mean, sum;	/* interned text */
	uint32_t first;		/* a row */
	double dsum;
};

static const int keycol[] = {
	C_NAME, C_CPUNAME, C_CPUUID, C_SOURCE, C_DIMS, C_STRIDES, C_TYPES,
	C_CONCRETE, C_BUSY, C_LCANAME, C_STACK, C_PARENT
};
#define NKEY	((int)(sizeof keycol / sizeof *keycol))

/* The rows a and b by their key cells; 0 when the same. */
static int
keycmp(size_t a, size_t b)
{
	int k;

	for (k = 0; k < NKEY; k++)
		if (cell[a][keycol[k]] != cell[b][keycol[k]])
			return cell[a][keycol[k]] < cell[b][keycol[k]] ? -1 : 1;
	return 0;
}

static int
cmpkey(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int c = keycmp(a, b);

	return c != 0 ? c : a < b ? -1 : a > b;
}

/* Summary columns in order, and the sort: kernel_time_sum descending,
 * then the text of every other column, name first. */
enum {
	S_NAME, S_COUNT, S_CPUNAME, S_CPUUID, S_SOURCE, S_DIMS, S_STRIDES,
	S_TYPES, S_CONCRETE, S_BUSY, S_LCANAME, S_STACK, S_PARENT, S_MEAN,
	S_SUM, NSCOL
};

static const char *const scolname[NSCOL] = {
	"name", "operation_count", "cpu_op_name", "cpu_op_uid", "source",
	"Input Dims", "Input Strides", "Input type", "Concrete Inputs",
	"busy_time", "lowest_common_ancestor_name", "nn_module_stack",
	"nn_module_parent", "kernel_time_mean", "kernel_time_sum"
};

/* The column of diff_stats a summary column takes from its first row. */
static const int fromcol[NSCOL] = {
	C_NAME, -1, C_CPUNAME, C_CPUUID, C_SOURCE, C_DIMS, C_STRIDES,
	C_TYPES, C_CONCRETE, C_BUSY, C_LCANAME, C_STACK, C_PARENT, -1, -1
};

static uint32_t (*sc)[NSCOL];
static double *ssum;
static uint32_t empty;		/* the interned "" */

static int
cmpsum(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int k, c;

	if (ssum[a] != ssum[b])
		return ssum[a] > ssum[b] ? -1 : 1;
	for (k = 0; k < S_SUM; k++) {
		/* no lowest common ancestor (NaN, "" here) sorts last */
		if (k == S_LCANAME && (sc[a][k] == empty) != (sc[b][k] ==
		    empty))
			return sc[a][k] == empty ? 1 : -1;
		if ((c = td_strcmp(sc[a][k], sc[b][k])) != 0)
			return c;
	}
	return a < b ? -1 : a > b;
}

/* The cpu_op renames (get_rename_map, spec 1.10). */

static struct idarr ren;	/* name -> new name + 1 */
static struct idarr mmidx;	/* name -> index in mods + 1 */
static struct vec *mods;	/* module_map: each op's nn_module_parents */
static size_t nmods, capmods;
static struct vec nomods;

static struct vec *
modules(uint32_t op, int add)
{
	uint32_t k = td_idget(&mmidx, op);

	if (k != 0)
		return &mods[k - 1];
	if (!add)
		return &nomods;
	xgrow(&mods, &capmods, nmods + 1, sizeof *mods);
	memset(&mods[nmods], 0, sizeof *mods);
	td_idset(&mmidx, op, (uint32_t)++nmods);
	return &mods[nmods - 1];
}

static uint32_t
renamed(uint32_t name)
{
	uint32_t k = td_idget(&ren, name);

	return k != 0 ? k - 1 : name;
}

static void
addu(struct vec *v, uint32_t x)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return;
	td_push(v, x);
}

static int
inv(const struct vec *v, uint32_t x)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return 1;
	return 0;
}

/* The part after the last "::". */
static const char *
tail(uint32_t id, size_t *n)
{
	const char *s = td_str(id, n), *p;
	size_t i;

	for (p = s, i = 0; i + 1 < *n; i++)
		if (s[i] == ':' && s[i + 1] == ':')
			p = s + i + 2;
	*n -= (size_t)(p - s);
	return p;
}

static int
contains(const char *h, size_t nh, const char *w, size_t nw)
{
	size_t i;

	if (nw == 0)
		return 1;
	for (i = 0; i + nw <= nh; i++)
		if (memcmp(h + i, w, nw) == 0)
			return 1;
	return 0;
}

static uint32_t
nospaces(uint32_t id)
{
	const char *s;
	char *buf;
	size_t n, i, o;
	uint32_t r;

	s = td_str(id, &n);
	if (memchr(s, ' ', n) == NULL)
		return id;
	buf = xmalloc(n + 1);
	for (i = 0, o = 0; i < n; i++)
		if (s[i] != ' ')
			buf[o++] = s[i];
	r = tl_intern(td_in, buf, o);
	free(buf);
	return r;
}

/* common(n1, n2) of get_rename_map, or NONE. */
static uint32_t
common(uint32_t n1, uint32_t n2)
{
	const char *a, *b;
	size_t na, nb;
	struct vec *m1, *m2;
	char *buf;
	uint32_t r;

	a = tail(n1, &na);
	b = tail(n2, &nb);
	if (na == nb && memcmp(a, b, na) == 0)
		return tl_intern(td_in, a, na);
	if (contains(b, nb, a, na))
		return tl_intern(td_in, a, na);
	if (contains(a, na, b, nb))
		return tl_intern(td_in, b, nb);
	/* a[:20] == b[:20] (shorter equal names returned above) */
	if (na >= 20 && nb >= 20 && memcmp(a, b, 20) == 0) {
		buf = xmalloc(na + nb + 2);
		memcpy(buf, a, na);
		buf[na] = '/';
		memcpy(buf + na + 1, b, nb);
		r = tl_intern(td_in, buf, na + nb + 1);
		free(buf);
		return r;
	}
	m1 = modules(n1, 0);
	m2 = modules(n2, 0);
	if (m1->n == 1 && m2->n == 1 && m1->v[0] == m2->v[0])
		return nospaces(m1->v[0]);
	return NONE;
}

static void
setrename(uint32_t from, uint32_t to)
{
	td_idset(&ren, from, to + 1);
}

static void
renames(void)
{
	struct vec names[2] = { { 0 }, { 0 } }, r1 = { 0 }, r2 = { 0 };
	struct idarr seen = { NULL, 0 };
	uint32_t *rank, *cnt, *ord, lca, c, nl = 0;
	size_t i, k, a, b, lo, hi;
	int side, all;

	/* Rows grouped by LCA id, the ids in first-appearance order. */
	rank = xcalloc(td_nm + 1, sizeof *rank);
	for (i = 0; i < td_nrows; i++) {
		lca = td_grp[td_rows[i].grp].lca;
		if (lca != NONE && rank[lca] == 0)
			rank[lca] = ++nl;
	}
	cnt = xcalloc(nl + 2, sizeof *cnt);
	for (i = 0; i < td_nrows; i++) {
		lca = td_grp[td_rows[i].grp].lca;
		if (lca != NONE)
			cnt[rank[lca]]++;
	}
	for (k = 1, a = 0; k <= nl + 1; k++) {
		b = cnt[k];
		cnt[k] = (uint32_t)a;
		a += b;
	}
	ord = xmalloc((a + 1) * sizeof *ord);
	for (i = 0; i < td_nrows; i++) {
		lca = td_grp[td_rows[i].grp].lca;
		if (lca != NONE)
			ord[cnt[rank[lca]]++] = (uint32_t)i;
	}
	/* cnt[k] is now the end of range k */
	for (k = 1, lo = 0; k <= nl; k++, lo = hi) {
		hi = cnt[k];
		names[0].n = names[1].n = 0;
		for (side = 0; side < 2; side++) {
			for (i = lo; i < hi; i++)
				if (td_rows[ord[i]].side == side)
					addu(&names[side], cell[ord[i]][C_CPUNAME]);
			/* module_map: the parents of each op's rows */
			for (a = 0; a < names[side].n; a++) {
				struct vec *m = modules(names[side].v[a], 1);

				m->n = 0;
				for (i = lo; i < hi; i++)
					if (td_rows[ord[i]].side == side &&
					    cell[ord[i]][C_CPUNAME] ==
					    names[side].v[a])
						addu(m, cell[ord[i]][C_PARENT]);
			}
		}
		if (names[0].n == 0 || names[1].n == 0)
			continue;
		all = 1;
		for (side = 0; side < 2; side++)
			for (a = 0; a < names[side].n; a++)
				if (!td_idget(&seen, names[side].v[a]))
					all = 0;
		if (all)
			continue;
		for (side = 0; side < 2; side++)
			for (a = 0; a < names[side].n; a++)
				td_idset(&seen, names[side].v[a], 1);
		if (names[0].n == names[1].n) {
			for (a = 0; a < names[0].n; a++) {
				if (names[0].v[a] == names[1].v[a])
					continue;
				c = common(names[0].v[a], names[1].v[a]);
				if (c != NONE) {
					setrename(names[0].v[a], c);
					setrename(names[1].v[a], c);
				}
			}
			continue;
		}
		r1.n = r2.n = 0;
		for (a = 0; a < names[0].n; a++)
			if (!inv(&names[1], names[0].v[a]))
				td_push(&r1, names[0].v[a]);
		for (b = 0; b < names[1].n; b++)
			if (!inv(&names[0], names[1].v[b]))
				td_push(&r2, names[1].v[b]);
		for (a = 0; a < r1.n; a++)
			for (b = 0; b < r2.n; b++) {
				c = common(r1.v[a], r2.v[b]);
				if (c == NONE)
					continue;
				setrename(r1.v[a], c);
				setrename(r2.v[b], c);
				memmove(r2.v + b, r2.v + b + 1, (r2.n - b - 1) *
				    sizeof *r2.v);
				r2.n--;
				break;
			}
	}
	free(rank);
	free(cnt);
	free(ord);
	free(seen.v);
	td_vfree(&names[0]);
	td_vfree(&names[1]);
	td_vfree(&r1);
	td_vfree(&r2);
}

static int
cmpname(const void *x, const void *y)
{
	return td_strcmp(*(const uint32_t *)x, *(const uint32_t *)y);
}

/* Sorted unique names. */
static void
sortu(struct vec *v)
{
	size_t i, o;

	if (v->n > 1)
		qsort(v->v, v->n, sizeof *v->v, cmpname);
	for (i = 0, o = 0; i < v->n; i++)
		if (o == 0 || v->v[o - 1] != v->v[i])
			v->v[o++] = v->v[i];
	v->n = o;
}

static void
jlist(struct tl_out *o, const struct vec *v, const char *ind)
{
	const char *s;
	size_t i, n;

	if (v->n == 0) {
		tl_out_raw(o, "[]", 2);
		return;
	}
	tl_out_char(o, '[');
	for (i = 0; i < v->n; i++) {
		tl_out_raw(o, i > 0 ? ",\n" : "\n", i > 0 ? 2 : 1);
		tl_out_raw(o, ind, strlen(ind));
		tl_out_raw(o, "  ", 2);
		s = td_str(v->v[i], &n);
		tl_out_jsonstr(o, s, n);
	}
	tl_out_char(o, '\n');
	tl_out_raw(o, ind, strlen(ind));
	tl_out_char(o, ']');
}

static void
jkey(struct tl_out *o, const char *k, size_t n, const char *ind, int first)
{
	tl_out_raw(o, first ? "\n" : ",\n", first ? 1 : 2);
	tl_out_raw(o, ind, strlen(ind));
	tl_out_jsonstr(o, k, n);
	tl_out_raw(o, ": ", 2);
}

static void
jkeyid(struct tl_out *o, uint32_t k, const char *ind, int first)
{
	const char *s;
	size_t n;

	s = td_str(k, &n);
	jkey(o, s, n, ind, first);
}

/* An entry of a cpu_op map: an op (or its rank), a side, two names. */
struct ment {
	uint32_t op, side, a, b;
};

static int
cmpment(const void *x, const void *y)
{
	const struct ment *p = x, *q = y;
	int c;

	if (p->op != q->op) {
		if (p->side == UINT32_MAX)	/* by name */
			return td_strcmp(p->op, q->op);
		return p->op < q->op ? -1 : 1;
	}
	if (p->side != q->side)
		return p->side < q->side ? -1 : 1;
	if ((c = td_strcmp(p->a, q->a)) != 0)
		return c;
	return td_strcmp(p->b, q->b);
}

/* cpu_op_map_traceK.json: {op: sorted kernels}, ops sorted. */
static void
opmapside(const char *dir, const char *file, size_t ns, uint32_t src)
{
	struct tl_file f;
	struct ment *m;
	struct vec ks = { 0 };
	size_t i, j, n = 0;

	m = xmalloc((ns + 1) * sizeof *m);
	for (i = 0; i < ns; i++)
		if (src == NONE || sc[i][S_SOURCE] == src) {
			m[n].op = sc[i][S_CPUNAME];
			m[n].side = UINT32_MAX;
			m[n].a = sc[i][S_NAME];
			m[n].b = m[n].a;
			n++;
		}
	qsort(m, n, sizeof *m, cmpment);
	if (tl_file_open(&f, dir, file) < 0)
		tl_exit(2);
	if (n == 0)
		tl_out_raw(&f.out, "{}", 2);
	else {
		tl_out_char(&f.out, '{');
		for (i = 0; i < n; i = j) {
			ks.n = 0;
			for (j = i; j < n && m[j].op == m[i].op; j++)
				if (ks.n == 0 || ks.v[ks.n - 1] != m[j].a)
					td_push(&ks, m[j].a);
			jkeyid(&f.out, m[i].op, "  ", i == 0);
			jlist(&f.out, &ks, "  ");
		}
		tl_out_raw(&f.out, "\n}", 2);
	}
	if (tl_file_close(&f) < 0)
		tl_exit(2);
	free(m);
	td_vfree(&ks);
}

/*
 * cpu_op_map.json: {op: {source: {kernels, nn_module_parents}}}, the ops
 * in the order of the summary (gord), renamed; with identical traces
 * {op: {kernels, nn_module_parents}}.
 */
static void
opmap(const char *dir, const size_t *gord, size_t ng, int same, uint32_t t1)
{
	struct tl_file f;
	struct ment *m;
	struct idarr rank = { NULL, 0 };
	struct vec ops = { 0 }, ks = { 0 }, ps = { 0 };
	size_t i, j, k, n = 0;
	uint32_t op, r;
	int side, nsrc;
	const char *ind = same ? "    " : "      ";

	m = xmalloc((ng + 1) * sizeof *m);
	for (i = 0; i < ng; i++) {
		if (same && sc[gord[i]][S_SOURCE] != t1)
			continue;
		op = sc[gord[i]][S_CPUNAME];
		if ((r = td_idget(&rank, op)) == 0) {
			td_push(&ops, op);
			td_idset(&rank, op, r = (uint32_t)ops.n);
		}
		m[n].op = r;
		m[n].side = sc[gord[i]][S_SOURCE] == t1 ? 0 : 1;
		m[n].a = sc[gord[i]][S_NAME];
		m[n++].b = sc[gord[i]][S_PARENT];
	}
	qsort(m, n, sizeof *m, cmpment);
	if (tl_file_open(&f, dir, "cpu_op_map.json") < 0)
		tl_exit(2);
	if (n == 0)
		tl_out_raw(&f.out, "{}", 2);
	else {
		tl_out_char(&f.out, '{');
		for (i = 0; i < n; i = j) {
			jkeyid(&f.out, ops.v[m[i].op - 1], "  ", i == 0);
			tl_out_char(&f.out, '{');
			nsrc = 0;
			for (j = i; j < n && m[j].op == m[i].op; j = k) {
				side = (int)m[j].side;
				ks.n = ps.n = 0;
				for (k = j; k < n && m[k].op == m[i].op &&
				    m[k].side == m[j].side; k++) {
					td_push(&ks, m[k].a);
					td_push(&ps, m[k].b);
				}
				sortu(&ks);
				sortu(&ps);
				if (!same) {
					jkey(&f.out, side == 0 ? "trace1" :
					    "trace2", 6, "    ", nsrc == 0);
					tl_out_char(&f.out, '{');
				}
				jkey(&f.out, "kernels", 7, ind, 1);
				jlist(&f.out, &ks, ind);
				jkey(&f.out, "nn_module_parents", 17, ind, 0);
				jlist(&f.out, &ps, ind);
				if (!same)
					tl_out_raw(&f.out, "\n    }", 6);
				nsrc++;
			}
			tl_out_raw(&f.out, "\n  }", 4);
		}
		tl_out_raw(&f.out, "\n}", 2);
	}
	if (tl_file_close(&f) < 0)
		tl_exit(2);
	free(m);
	free(rank.v);
	td_vfree(&ops);
	td_vfree(&ks);
	td_vfree(&ps);
}

/*
 * A CSV file of ncol columns but skip (or -1): the names, then the rows
 * rows[i] (i < n) of cells, where row r's cells are cells[r * ncol ...];
 * a row whose skip cell is not keep is left out.
 */
static void
csvtable(const char *dir, const char *file, const char *const *name,
    int ncol, int skip, uint32_t keep, const uint32_t *cells,
    const size_t *rows, size_t n)
{
	struct tl_file f;
	const uint32_t *r;
	const char *s;
	size_t i, len;
	int c, first;

	if (tl_file_open(&f, dir, file) < 0)
		tl_exit(2);
	for (i = 0; i <= n; i++) {
		r = i == 0 ? NULL : cells + (rows ? rows[i - 1] : i - 1) *
		    (size_t)ncol;
		if (r != NULL && skip >= 0 && r[skip] != keep)
			continue;
		for (c = 0, first = 1; c < ncol; c++) {
			if (c == skip)
				continue;
			if (!first)
				tl_out_char(&f.out, ',');
			first = 0;
			if (r == NULL)
				tl_out_raw(&f.out, name[c], strlen(name[c]));
			else {
				s = td_str(r[c], &len);
				tl_out_csvfield(&f.out, s, len);
			}
		}
		tl_out_char(&f.out, '\n');
	}
	if (tl_file_close(&f) < 0)
		tl_exit(2);
}

int
td_tracelens_write(const char *dir)
{
	struct tl_file f;
	size_t *ord, *gord, i, j, k, ng, n;
	uint32_t t1, t2;
	struct tl_kahan sum;
	int c, same;

	if (tl_mkdirs(dir) < 0)
		tl_err(2, "%s", dir);
	if (tl_file_open(&f, dir, "merged_tree_output.txt") < 0)
		tl_exit(2);
	td_tracelens_tree(&f.out);
	if (tl_file_close(&f) < 0)
		tl_exit(2);
	if (td_nskipped > 0)
		tl_warnx("%" PRIu64 " GPU event%s without a cpu_op above: "
		    "left out of diff_stats.csv, as TraceLens does",
		    td_nskipped, td_nskipped == 1 ? "" : "s");
	if (td_nrows == 0) {
		tl_warnx("no GPU events under the merged tree: diff_stats.csv "
		    "not written, as TraceLens does");
		return 1;
	}
	cells();
	empty = tl_intern(td_in, "", 0);
	same = identical();
	t1 = internf("trace1");
	t2 = internf("trace2");

	/* diff_stats.csv: with identical traces, trace1's rows only */
	csvtable(dir, "diff_stats.csv", colname, NCOL, same ? C_SOURCE : -1,
	    t1, cell[0], NULL, td_nrows);

	/* The groups of the summary. */
	ord = xmalloc(td_nrows * sizeof *ord);
	for (i = 0; i < td_nrows; i++)
		ord[i] = i;
	qsort(ord, td_nrows, sizeof *ord, cmpkey);
	sc = xcalloc(td_nrows, sizeof *sc);
	ssum = xcalloc(td_nrows, sizeof *ssum);
	for (i = 0, ng = 0; i < td_nrows; i = j, ng++) {
		for (j = i + 1; j < td_nrows && keycmp(ord[i], ord[j]) == 0; j++)
			;
		/* the run [i, j), in row order: pandas' Kahan sum */
		sum.s = sum.c = 0;
		for (k = i; k < j; k++)
			tl_kahan_add(&sum, ktime[ord[k]]);
		n = j - i;
		for (c = 0; c < NSCOL; c++)
			if (fromcol[c] >= 0)
				sc[ng][c] = cell[ord[i]][fromcol[c]];
		sc[ng][S_COUNT] = internf("%zu", n);
		sc[ng][S_MEAN] = internfloat(sum.s / (double)n);
		sc[ng][S_SUM] = internfloat(sum.s);
		ssum[ng] = sum.s;
	}
	gord = xmalloc(ng * sizeof *gord);
	for (i = 0; i < ng; i++)
		gord[i] = i;
	qsort(gord, ng, sizeof *gord, cmpsum);

	/* cpu_op_map_trace1.json, cpu_op_map_trace2.json: before renames */
	opmapside(dir, "cpu_op_map_trace1.json", ng, same ? NONE : t1);
	opmapside(dir, "cpu_op_map_trace2.json", ng, same ? NONE : t2);
	renames();
	for (i = 0; i < ng; i++) {
		sc[i][S_CPUNAME] = renamed(sc[i][S_CPUNAME]);
		sc[i][S_PARENT] = nospaces(sc[i][S_PARENT]);
	}

	csvtable(dir, "diff_stats_unique_args_summary.csv", scolname, NSCOL,
	    same ? S_SOURCE : -1, t1, sc[0], gord, ng);

	opmap(dir, gord, ng, same, t1);

	free(ord);
	free(gord);
	free(sc);
	free(ssum);
	free(cell);
	free(ktime);
	free(pyrepr.v);
	free(ren.v);
	free(mmidx.v);
	for (i = 0; i < nmods; i++)
		td_vfree(&mods[i]);
	free(mods);
	return same;
}
