/*
 * tl-cmpreport: TraceLens's report comparison, as its
 * compare_perf_reports_pytorch writes it with --output_csvs_dir: perf-report
 * directories of CSV files (TraceLens's, or tl-agg -C and tl-roofline -t
 * -c), the first the baseline, joined sheet by sheet on TraceLens's keys,
 * with its file names, column names, row order and values. The CSV cells
 * go through what pandas does to them: read_csv's types (int64, float64
 * with its own decimal parser, bool, object) and NA strings, the outer
 * merge's sorted keys and upcasts, and to_csv's repr of floats. The
 * exit status is diff(1)'s: 0 same, 1 different, 2 trouble.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../common/csv.h"
#include "../common/file.h"
#include "../common/err.h"
#include "../common/input.h"
#include "../common/mem.h"
#include "../common/opt.h"
#include "../common/npsort.h"
#include "../common/pyfmt.h"
#include "../common/tsv.h"
#include "tl-cmpreport/frame.h"

#define US	"\xc2\xb5s"		/* the micro sign, as TraceLens writes it */
#define NONE	UINT32_MAX		/* no row */

static char **tags;
static size_t nrep;
static char **rep;		/* the report directories */
static const char *odir;
static int differ;		/* a value or a row differs */

/* Entries of the merge: a row of a frame, by key. */
static struct frame **mf;
static int **mkey;		/* key column indexes per frame */
static size_t mnkey;

struct ent {
	uint32_t f, r;
};

static int
cmpent(const void *pa, const void *pb)
{
	const struct ent *a = pa, *b = pb;
	size_t k;
	int c;

	for (k = 0; k < mnkey; k++) {
		c = cmpcell(&mf[a->f]->c[mkey[a->f][k]].v[a->r],
		    &mf[b->f]->c[mkey[b->f][k]].v[b->r]);
		if (c != 0)
			return c;
	}
	if (a->f != b->f)
		return a->f < b->f ? -1 : 1;
	return a->r < b->r ? -1 : a->r > b->r;
}

static char *
prefixed(const char *tag, const char *name)
{
	size_t l = strlen(tag) + strlen(name) + 3;
	char *s = xmalloc(l);

	snprintf(s, l, "%s::%s", tag, name);
	return s;
}

static void
addcol(struct frame *m, char *name, int dt)
{
	m->c = xreallocarray(m->c, m->ncol + 1, sizeof *m->c);
	m->c[m->ncol].name = name;
	m->c[m->ncol].dt = dt;
	m->c[m->ncol].v = xcalloc(m->nrow + 1, sizeof (struct cell));
	m->ncol++;
}

/* Cell r of m's last column: a copy of c, as a float in a float column. */
static void
putcell(struct frame *m, size_t r, const struct cell *c)
{
	struct col *l = &m->c[m->ncol - 1];
	struct cell cl = copycell(c);

	if (l->dt == D_FLOAT && cl.t == V_INT) {
		cl.t = V_FLOAT;
		cl.d = (double)cl.i;
	}
	l->v[r] = cl;
}

/*
 * The chained outer merge of n frames on keys, every other column
 * prefixed with its frame's tag: rows in the sorted order of the keys,
 * a key repeated in frames giving their product.
 */
static struct frame *
merge(struct frame **fr, size_t n, char **keys, size_t nkey)
{
	struct frame *m = xcalloc(1, sizeof *m);
	struct ent *e;
	size_t ne = 0, i, j, k, g, h, cap = 0, *cnt, *pos, out;
	uint32_t *idx, r, rr;
	int c, dt, *missing, any;

	mf = fr;
	mnkey = nkey;
	mkey = xcalloc(n, sizeof *mkey);
	for (i = 0, k = 0; i < n; i++) {
		mkey[i] = xcalloc(nkey + 1, sizeof **mkey);
		for (j = 0; j < nkey; j++) {
			if ((c = colidx(fr[i], keys[j])) < 0)
				tl_errx(2, "%s: no column \"%s\" (a key)",
				    fr[i]->path, keys[j]);
			mkey[i][j] = c;
		}
		k += fr[i]->nrow;
	}
	e = xcalloc(k + 1, sizeof *e);
	for (i = 0; i < n; i++)
		for (r = 0; r < fr[i]->nrow; r++) {
			e[ne].f = (uint32_t)i;
			e[ne++].r = r;
		}
	qsort(e, ne, sizeof *e, cmpent);

	/* the output rows: for each key, the product of its rows */
	cnt = xcalloc(n, sizeof *cnt);
	pos = xcalloc(n, sizeof *pos);
	idx = NULL;
	out = 0;
	for (g = 0; g < ne; g = h) {
		for (h = g + 1; h < ne; h++) {
			for (k = 0; k < nkey; k++)
				if (cmpcell(&fr[e[g].f]->c[mkey[e[g].f][k]].v[
				    e[g].r], &fr[e[h].f]->c[mkey[e[h].f][k]].v[
				    e[h].r]) != 0)
					break;
			if (k < nkey)
				break;
		}
		memset(cnt, 0, n * sizeof *cnt);
		for (k = g; k < h; k++)
			cnt[e[k].f]++;
		/* odometer over the frames, the first outermost */
		memset(pos, 0, n * sizeof *pos);
		for (;;) {
			xgrow(&idx, &cap, (out + 1) * (n + 1), sizeof *idx);
			idx[out * (n + 1)] = (uint32_t)g;
			for (i = 0; i < n; i++) {
				size_t seen = 0;

				idx[out * (n + 1) + 1 + i] = NONE;
				if (cnt[i] == 0)
					continue;
				for (k = g; k < h; k++)
					if (e[k].f == i && seen++ == pos[i]) {
						idx[out * (n + 1) + 1 + i] =
						    e[k].r;
						break;
					}
			}
			out++;
			for (i = n; i-- > 0;) {
				if (cnt[i] > 0 && ++pos[i] < cnt[i])
					break;
				pos[i] = 0;
			}
			if (i == (size_t)-1)
				break;
		}
	}
	m->nrow = out;

	/* keys */
	missing = xcalloc(n, sizeof *missing);
	for (i = 0; i < n; i++)
		for (r = 0; r < out; r++)
			if (idx[r * (n + 1) + 1 + i] == NONE)
				missing[i] = 1;
	for (k = 0; k < nkey; k++) {
		dt = fr[0]->c[mkey[0][k]].dt;
		for (i = 1; i < n; i++) {
			int d2 = fr[i]->c[mkey[i][k]].dt;

			if (d2 == dt)
				continue;
			if ((dt == D_INT || dt == D_FLOAT) && (d2 == D_INT ||
			    d2 == D_FLOAT))
				dt = D_FLOAT;
			else
				dt = D_OBJ;
		}
		addcol(m, xstrdup(keys[k]), dt);
		for (r = 0; r < out; r++) {
			struct ent *x = &e[idx[r * (n + 1)]];

			putcell(m, r, &fr[x->f]->c[mkey[x->f][k]].v[x->r]);
		}
	}
	/* every frame's other columns, prefixed */
	for (i = 0; i < n; i++)
		for (j = 0; j < fr[i]->ncol; j++) {
			for (k = 0, any = 0; k < nkey; k++)
				any |= mkey[i][k] == (int)j;
			if (any)
				continue;
			dt = fr[i]->c[j].dt;
			if (missing[i] && dt == D_INT)
				dt = D_FLOAT;
			else if (missing[i] && dt == D_BOOL)
				dt = D_OBJ;
			addcol(m, prefixed(tags[i], fr[i]->c[j].name), dt);
			for (r = 0; r < out; r++)
				if ((rr = idx[r * (n + 1) + 1 + i]) != NONE)
					putcell(m, r, &fr[i]->c[j].v[rr]);
		}
	for (i = 0; i < n; i++)
		free(mkey[i]);
	free(mkey);
	free(missing);
	free(e);
	free(cnt);
	free(pos);
	free(idx);
	return m;
}

static double
num(const struct cell *c)
{
	switch (c->t) {
	case V_INT:
	case V_BOOL:
		return (double)c->i;
	case V_FLOAT:
		return c->d;
	default:
		return NAN;
	}
}

/*
 * The diff and pct columns, for each diff column then each variant;
 * then the columns in TraceLens's order: keys, the new columns, the
 * others.
 */
static void
diffs(struct frame *m, size_t nkey, const char *const *dcol)
{
	size_t d, t, r, first = m->ncol, i, j, o;
	int b, v, cb, cv;
	char *bn, *vn, *name;
	struct col *nc;
	double x, y;

	for (d = 0; dcol[d] != NULL; d++)
		for (t = 1; t < nrep; t++) {
			bn = prefixed(tags[0], dcol[d]);
			vn = prefixed(tags[t], dcol[d]);
			b = colidx(m, bn);
			v = colidx(m, vn);
			if (b < 0 || v < 0)
				tl_errx(2, "%s: no column \"%s\" to compare",
				    b < 0 ? rep[0] : rep[t], dcol[d]);
			free(bn);
			free(vn);
			cb = m->c[b].dt;
			cv = m->c[v].dt;
			if (cb == D_OBJ || cv == D_OBJ)
				tl_errx(2, "%s: column \"%s\": not numbers",
				    cb == D_OBJ ? rep[0] : rep[t], dcol[d]);
			name = xmalloc(strlen(dcol[d]) + strlen(tags[t]) + 8);
			sprintf(name, "%s__%s_diff", dcol[d], tags[t]);
			addcol(m, name, cb == D_FLOAT || cv == D_FLOAT ?
			    D_FLOAT : D_INT);
			name = xmalloc(strlen(dcol[d]) + strlen(tags[t]) + 8);
			sprintf(name, "%s__%s_pct", dcol[d], tags[t]);
			addcol(m, name, D_FLOAT);
			for (r = 0; r < m->nrow; r++) {
				struct cell *a = &m->c[b].v[r],
				    *c = &m->c[v].v[r],
				    *df = &m->c[m->ncol - 2].v[r],
				    *pc = &m->c[m->ncol - 1].v[r];

				x = num(a);
				y = num(c);
				if (isnan(x) || isnan(y)) {
					if (isnan(x) != isnan(y))
						differ = 1;
					continue;
				}
				if (x != y)
					differ = 1;
				if (m->c[m->ncol - 2].dt == D_INT) {
					df->t = V_INT;
					df->i = c->i - a->i;
					y = (double)(100 * df->i);
				} else {
					df->t = V_FLOAT;
					df->d = y - x;
					y = 100.0 * df->d;
				}
				if (x != 0) {
					pc->t = V_FLOAT;
					pc->d = y / x;
				}
			}
		}
	/* keys, new columns, the others */
	nc = xcalloc(m->ncol + 1, sizeof *nc);
	o = 0;
	for (i = 0; i < nkey; i++)
		nc[o++] = m->c[i];
	for (i = first; i < m->ncol; i++)
		nc[o++] = m->c[i];
	for (j = nkey; j < first; j++)
		nc[o++] = m->c[j];
	free(m->c);
	m->c = nc;
}

/* Reorder the rows: perm[i] is the old index of new row i. */
static void
permute(struct frame *m, const size_t *perm, size_t n)
{
	struct cell *v;
	size_t i, r;

	for (i = 0; i < m->ncol; i++) {
		v = xcalloc(n + 1, sizeof *v);
		for (r = 0; r < n; r++) {
			v[r] = m->c[i].v[perm[r]];
			m->c[i].v[perm[r]].s = NULL;
		}
		for (r = 0; r < m->nrow; r++)
			free(m->c[i].v[r].s);
		free(m->c[i].v);
		m->c[i].v = v;
	}
	m->nrow = n;
}

/* sort_values(col, ascending=False), NaN last. */
static void
sortdesc(struct frame *m, const char *col)
{
	int c = colidx(m, col);
	double *key;
	size_t *perm, r;

	if (c < 0)
		tl_errx(2, "%s: no column \"%s\" to sort by", rep[0], col);
	key = xcalloc(m->nrow + 1, sizeof *key);
	perm = xcalloc(m->nrow + 1, sizeof *perm);
	for (r = 0; r < m->nrow; r++)
		key[r] = num(&m->c[c].v[r]);
	tl_nargsort_desc(key, m->nrow, perm);
	permute(m, perm, m->nrow);
	free(key);
	free(perm);
}

/* The tag of a column: "tag::x", or "x__tag_diff"/"_pct"; NULL: a key. */
static char *
coltag(const char *name)
{
	const char *p = strstr(name, "::"), *u;
	size_t l = strlen(name), s;

	if (p != NULL)
		return xmemdup(name, (size_t)(p - name));
	if ((u = strstr(name, "__")) == NULL)
		return NULL;
	if (l >= 5 && strcmp(name + l - 5, "_diff") == 0)
		s = 5;
	else if (l >= 4 && strcmp(name + l - 4, "_pct") == 0)
		s = 4;
	else
		return NULL;
	if (name + l - s <= u + 2)
		return NULL;
	return xmemdup(u + 2, (size_t)(name + l - s - (u + 2)));
}

/* A split: the rows that want says, the columns of the kept tags. */
enum { S_INTER, S_ONLYB, S_ONLYV };

static struct frame *
split(const struct frame *m, size_t t, int what, const char *check,
    const char *sortcol)
{
	struct frame *s = xcalloc(1, sizeof *s);
	char *bc = prefixed(tags[0], check), *vc = prefixed(tags[t], check);
	char *tag;
	int b = colidx(m, bc), v = colidx(m, vc), keep, allna;
	size_t i, r, n = 0, *perm;
	double *key;

	if (b < 0 || v < 0)
		tl_errx(2, "%s: no column \"%s\"", b < 0 ? rep[0] : rep[t],
		    check);
	free(bc);
	free(vc);
	perm = xcalloc(m->nrow + 1, sizeof *perm);
	for (r = 0; r < m->nrow; r++) {
		int hb = !isnan(num(&m->c[b].v[r])),
		    hv = !isnan(num(&m->c[v].v[r]));

		if ((what == S_INTER && hb && hv) ||
		    (what == S_ONLYB && hb && !hv) ||
		    (what == S_ONLYV && !hb && hv))
			perm[n++] = r;
	}
	for (i = 0; i < m->ncol; i++) {
		tag = coltag(m->c[i].name);
		keep = tag == NULL || strcmp(tag, tags[t]) == 0 ?
		    (tag == NULL || what != S_ONLYB) :
		    strcmp(tag, tags[0]) == 0 && what != S_ONLYV;
		free(tag);
		if (!keep)
			continue;
		for (r = 0, allna = 1; r < n && allna; r++)
			allna = m->c[i].v[perm[r]].t == V_NA;
		if (allna)
			continue;
		s->c = xreallocarray(s->c, s->ncol + 1, sizeof *s->c);
		s->c[s->ncol].name = xstrdup(m->c[i].name);
		s->c[s->ncol].dt = m->c[i].dt;
		s->c[s->ncol].v = xcalloc(n + 1, sizeof (struct cell));
		for (r = 0; r < n; r++)
			s->c[s->ncol].v[r] = copycell(&m->c[i].v[perm[r]]);
		s->ncol++;
	}
	s->nrow = n;
	free(perm);
	/* sort: by the baseline's sort column, or the variant's */
	bc = prefixed(tags[what == S_ONLYV ? t : 0], sortcol);
	if ((b = colidx(s, bc)) >= 0) {
		key = xcalloc(n + 1, sizeof *key);
		perm = xcalloc(n + 1, sizeof *perm);
		for (r = 0; r < n; r++)
			key[r] = num(&s->c[b].v[r]);
		tl_nargsort_desc(key, n, perm);
		permute(s, perm, n);
		free(key);
		free(perm);
	}
	free(bc);
	return s;
}

/* A CSV field; an empty one alone on its record as "" (the csv module's). */
static void
csvfield(struct tl_out *o, const char *s, int alone)
{
	if (*s == '\0' && alone)
		tl_out_raw(o, "\"\"", 2);
	else
		tl_out_csvfield(o, s, strlen(s));
}

static void
csvcell(struct tl_out *o, const struct cell *c, int dt, int alone)
{
	switch (c->t) {
	case V_NA:
		csvfield(o, "", alone);
		return;
	case V_INT:
		if (dt == D_FLOAT)
			tl_out_pyfloat(o, (double)c->i);
		else
			tl_out_i64(o, c->i);
		return;
	case V_FLOAT:
		tl_out_pyfloat(o, c->d);
		return;
	case V_BOOL:
		tl_out_raw(o, c->i ? "True" : "False", c->i ? 4 : 5);
		return;
	default:
		csvfield(o, c->s, alone);
	}
}

static void
writecsv(const struct frame *f, const char *name)
{
	struct tl_file o;
	char file[256];
	size_t i, r;

	snprintf(file, sizeof file, "%s.csv", name);
	if (tl_file_open(&o, odir, file) < 0)
		tl_exit(2);
	for (i = 0; i < f->ncol; i++) {
		if (i > 0)
			tl_out_char(&o.out, ',');
		csvfield(&o.out, f->c[i].name, f->ncol == 1);
	}
	tl_out_char(&o.out, '\n');
	for (r = 0; r < f->nrow; r++) {
		for (i = 0; i < f->ncol; i++) {
			if (i > 0)
				tl_out_char(&o.out, ',');
			csvcell(&o.out, &f->c[i].v[r], f->c[i].dt, f->ncol == 1);
		}
		tl_out_char(&o.out, '\n');
	}
	if (tl_file_close(&o) < 0)
		tl_exit(2);
}

/*
 * Each report's sheet; NULL when no report has it (an error when need).
 * A report without it gets an empty sheet with the columns of the first
 * that has it, so its rows are only in the others, as an outer merge has
 * them.
 */
static struct frame **
sheets(const char *sheet, int need)
{
	struct frame **fr = xcalloc(nrep, sizeof *fr), *f = NULL;
	size_t i, j;

	for (i = 0; i < nrep; i++)
		if ((fr[i] = loadcsv(rep[i], sheet)) != NULL && f == NULL)
			f = fr[i];
	if (f == NULL) {
		if (need)
			tl_errx(2, "%s: no %s.csv, nor in the others", rep[0],
			    sheet);
		free(fr);
		return NULL;
	}
	for (i = 0; i < nrep; i++) {
		if (fr[i] != NULL)
			continue;
		tl_warnx("no %s.csv in %s's report: its rows are only in the "
		    "others'", sheet, tags[i]);
		fr[i] = xcalloc(1, sizeof *fr[i]);
		fr[i]->path = xstrdup(rep[i]);
		fr[i]->missing = 1;
		fr[i]->ncol = f->ncol;
		fr[i]->c = xcalloc(f->ncol ? f->ncol : 1, sizeof *fr[i]->c);
		for (j = 0; j < f->ncol; j++) {
			fr[i]->c[j].name = xstrdup(f->c[j].name);
			fr[i]->c[j].dt = f->c[j].dt;
		}
	}
	return fr;
}

static void
freesheets(struct frame **fr)
{
	size_t i;

	for (i = 0; i < nrep; i++)
		freeframe(fr[i]);
	free(fr);
}

/* Compare one sheet: merge, diffs; write it, or its splits. */
static void
compare(struct frame **fr, char **keys, size_t nkey,
    const char *const *dcol, const char *sortcol, const char *outname,
    const char *splitcheck)
{
	struct frame *m, *s;
	static const char *const sname[] = {
		"intersect", "only_baseline", "only_variant"
	};
	char name[512];
	size_t t;
	int w;

	m = merge(fr, nrep, keys, nkey);
	diffs(m, nkey, dcol);
	if (splitcheck == NULL) {
		if (sortcol != NULL) {
			snprintf(name, sizeof name, "%s::%s", tags[0],
			    sortcol);
			sortdesc(m, name);
		}
		writecsv(m, outname);
	} else
		for (t = 1; t < nrep; t++)
			for (w = S_INTER; w <= S_ONLYV; w++) {
				s = split(m, t, w, splitcheck, sortcol);
				snprintf(name, sizeof name, "%s_%s_%s",
				    outname, sname[w], tags[t]);
				writecsv(s, name);
				freeframe(s);
			}
	freeframe(m);
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
want(const char *const *sh, const char *g)
{
	size_t i;

	for (i = 0; sh[i] != NULL; i++)
		if (strcmp(sh[i], g) == 0 || strcmp(sh[i], "all") == 0)
			return 1;
	return 0;
}

static const char usage[] =
    "usage: tl-cmpreport [-n tag,...] [-S sheet,...] -o dir report report "
    "...\n";

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "names", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "sheets", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const groups[] = {
		"gpu_timeline", "ops_summary", "kernel_summary", "ops_all",
		"roofline", "all", NULL
	};
	static const char *const roof[][2] = {
		{ "GEMM", "GEMM" }, { "SDPA_fwd", "SDPA_fwd" },
		{ "SDPA_bwd", "SDPA_bwd" }, { "CONV_fwd", "CONV_fwd" },
		{ "CONV_bwd", "CONV_bwd" }, { "UnaryElementwise", "un_eltwise" },
		{ "BinaryElementwise", "bin_eltwise" }, { NULL, NULL }
	};
	static const char *const roofdrop[] = {
		"GFLOPS_first", "Data Moved (MB)_first", "FLOPS/Byte_first",
		"Input type_first", "Input Dims_first", "Input Strides_first",
		"Concrete Inputs_first", NULL
	};
	static const char *const argkeys[] = {
		"name", "Input type", "Input Dims", "Input Strides",
		"Concrete Inputs", NULL
	};
	const char *sh[8] = { "all", NULL };
	char *keys[64];
	struct frame **fr;
	size_t i, j, t, n, nsh = 0, nk;
	const char *names = NULL, *sheetopt = NULL;
	char **paths;
	struct stat st;
	int ch, empty;


	tl_setprogname(argv[0]);
	tl_failstatus = 2;	/* diff(1): trouble is 2, even in libtl */
	while ((ch = tl_getopt(argc, argv, "n:o:S:", lopt, usage)) != -1) {
		switch (ch) {
		case 'n':
			names = optarg;
			break;
		case 'o':
			odir = optarg;
			break;
		case 'S':
			sheetopt = optarg;
			break;
		}
	}
	n = (size_t)(argc - optind);
	paths = argv + optind;
	if (n < 2) {
		tl_warnx("two reports or more needed: the baseline, then the "
		    "variants");
		tl_usage(usage);
	}
	if (odir == NULL)
		tl_errx(2, "-o dir needed: the CSV files go there");
	nrep = n;
	rep = paths;
	for (i = 0; i < n; i++) {
		size_t l = strlen(paths[i]);

		if (l > 5 && strcmp(paths[i] + l - 5, ".xlsx") == 0)
			tl_errx(2, "%s: a workbook: give the directory of its "
			    "CSV files (TraceLens --output_csvs_dir, tl-agg "
			    "-C)", paths[i]);
		if (stat(paths[i], &st) < 0)
			tl_err(2, "%s", paths[i]);
		if (!S_ISDIR(st.st_mode))
			tl_errx(2, "%s: not a directory of perf-report CSV "
			    "files", paths[i]);
	}
	if (sheetopt != NULL) {
		char *p = xstrdup(sheetopt), *q, *s;

		for (s = p; (q = strsep(&s, ",")) != NULL;) {
			for (j = 0; groups[j] != NULL; j++)
				if (strcmp(q, groups[j]) == 0)
					break;
			if (groups[j] == NULL)
				tl_errx(2, "-S: no such sheet group: \"%s\" "
				    "(gpu_timeline, ops_summary, "
				    "kernel_summary, ops_all, roofline, all)",
				    q);
			if (nsh < 6)
				sh[nsh++] = groups[j];
		}
		sh[nsh] = NULL;
		free(p);
	}
	/* tags: -n, or each path's base name without its extension */
	if (names != NULL) {
		char *p = xstrdup(names), *q, *s;

		for (s = p, t = 1; *s != '\0'; s++)
			t += *s == ',';
		if (t != n)
			tl_errx(2, "-n: %zu tag%s for %zu reports", t,
			    t == 1 ? "" : "s", n);
		tags = xcalloc(n + 1, sizeof *tags);
		for (s = p, t = 0; (q = strsep(&s, ",")) != NULL; t++)
			tags[t] = xstrdup(q);
		free(p);
	} else {
		tags = xcalloc(n + 1, sizeof *tags);
		for (i = 0; i < n; i++) {
			char *d = xstrdup(paths[i]), *b, *e;
			size_t l = strlen(d);

			while (l > 1 && d[l - 1] == '/')
				d[--l] = '\0';
			b = strrchr(d, '/');
			b = b == NULL ? d : b + 1;
			if ((e = strrchr(b, '.')) != NULL && e != b)
				*e = '\0';
			tags[i] = xstrdup(b);
			free(d);
		}
	}
	for (i = 0; i < n; i++) {
		if (*tags[i] == '\0' || strstr(tags[i], "::") != NULL)
			tl_errx(2, "%s: tag \"%s\": %s", paths[i], tags[i],
			    *tags[i] == '\0' ? "empty" : "\"::\" in it");
		for (j = 0; j < i; j++)
			if (strcmp(tags[i], tags[j]) == 0)
				tl_errx(2, "tags collide: \"%s\" names %s and "
				    "%s (name them with -n)", tags[i],
				    paths[j], paths[i]);
	}
	if (tl_mkdirs(odir) < 0)
		tl_err(2, "%s", odir);

	if (want(sh, "gpu_timeline")) {
		if ((fr = sheets("gpu_timeline", 0)) == NULL)
			tl_warnx("%s: no gpu_timeline.csv: gpu_timeline not "
			    "compared", paths[0]);
		else {
			static const char *const dc[] = { "time ms", NULL };

			keys[0] = "type";
			compare(fr, keys, 1, dc, NULL, "gpu_timeline", NULL);
			freesheets(fr);
		}
	}
	if (want(sh, "ops_summary")) {
		static const char *const dc[] = {
			"total_direct_kernel_time_ms", "Count", NULL
		};

		fr = sheets("ops_summary", 1);
		for (i = 0; i < n; i++) {
			dropcol(fr[i], "total_direct_kernel_time_sum");
			if (i > 0)
				dropcol(fr[i], "Cumulative Percentage (%)");
		}
		keys[0] = "name";
		compare(fr, keys, 1, dc, "total_direct_kernel_time_ms",
		    "ops_summary", NULL);
		freesheets(fr);
	}
	if (want(sh, "kernel_summary")) {
		static const char *const dnew[] = {
			"Kernel duration (" US ")_sum",
			"Kernel duration (" US ")_mean",
			"Kernel duration (" US ")_count", NULL
		};
		static const char *const dold[] = {
			"Total Kernel Time (ms)", "Mean Kernel Time (" US ")",
			"Count", NULL
		};
		static const char *const dropnew[] = {
			"Kernel duration (" US ")_min",
			"Kernel duration (" US ")_max", "Parent op category",
			NULL
		};
		static const char *const dropold[] = {
			"Total Kernel Time (" US ")",
			"Median Kernel Time (" US ")",
			"Std Kernel Time (" US ")", "Min Kernel Time (" US ")",
			"Max Kernel Time (" US ")", "Category", NULL
		};
		int isnew;

		fr = sheets("kernel_summary", 1);
		isnew = colidx(fr[0], "Kernel name") >= 0;
		for (i = 0; i < n; i++) {
			for (j = 0; (isnew ? dropnew : dropold)[j] != NULL;
			    j++)
				dropcol(fr[i], (isnew ? dropnew : dropold)[j]);
			if (i > 0)
				dropcol(fr[i], "Cumulative Percentage (%)");
		}
		keys[0] = isnew ? "Kernel name" : "name";
		compare(fr, keys, 1, isnew ? dnew : dold, isnew ? dnew[0] :
		    dold[0], "kernel_summary", NULL);
		freesheets(fr);
	}
	if (want(sh, "ops_all")) {
		static const char *const sheet[] = {
			"ops_all", "ops_unique_args", "unified_perf_summary",
			NULL
		};
		static const char *const dops[] = {
			"total_direct_kernel_time_sum",
			"total_direct_kernel_time_mean", "operation_count", NULL
		};
		static const char *const duni[] = {
			"Kernel Time (" US ")_sum", "Kernel Time (" US ")_mean",
			"operation_count", NULL
		};

		for (j = 0; sheet[j] != NULL; j++) {
			const char *const *dc = j == 2 ? duni : dops;

			if ((fr = sheets(sheet[j], 0)) == NULL)
				continue;
			for (i = 0; argkeys[i] != NULL; i++)
				keys[i] = (char *)argkeys[i];
			compare(fr, keys, i, dc, dc[0], sheet[j], dc[0]);
			freesheets(fr);
		}
	}
	if (want(sh, "roofline")) {
		static const char *const dc[] = {
			"Kernel Time (" US ")_sum", "Kernel Time (" US ")_mean",
			"name_count", "TFLOPS/s_mean", "TB/s_mean", NULL
		};

		for (j = 0; roof[j][0] != NULL; j++) {
			if ((fr = sheets(roof[j][0], 0)) == NULL)
				continue;
			for (i = 0, empty = 0; i < n; i++)
				if ((fr[i]->nrow == 0 && !fr[i]->missing) ||
				    fr[i]->ncol == 0)
					empty = 1;
			if (empty) {
				tl_warnx("%s: a report has no rows: not "
				    "compared, as TraceLens does", roof[j][0]);
				freesheets(fr);
				continue;
			}
			for (i = 1; i < n; i++)
				for (t = 0; roofdrop[t] != NULL; t++)
					dropcol(fr[i], roofdrop[t]);
			/* name, and the params every report has, sorted */
			keys[0] = "name";
			nk = 1;
			for (i = 0; i < fr[0]->ncol && nk < 63; i++) {
				const char *c = fr[0]->c[i].name;

				if (strncmp(c, "param: ", 7) != 0)
					continue;
				for (t = 1; t < n && colidx(fr[t], c) >= 0;
				    t++)
					;
				if (t == n)
					keys[nk++] = (char *)c;
			}
			qsort(keys + 1, nk - 1, sizeof *keys, cmpstr);
			compare(fr, keys, nk, dc, dc[0], roof[j][1], dc[0]);
			freesheets(fr);
		}
	}
	for (i = 0; i < n; i++)
		free(tags[i]);
	free(tags);
	return differ;
}
