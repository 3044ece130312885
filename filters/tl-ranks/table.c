/*
 * tl-ranks: tables of cells, written as a stream (tl-tsv(5)) or as the
 * CSV files pandas writes: integers as integers, but as floats ("8.0")
 * in a column that also holds a float or a missing value (pandas makes
 * such a column float64); floats as Python's repr; absent as empty.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/csv.h"
#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/pyfmt.h"
#include "ranks.h"

const char *const sumcol[S_NCOL + 1] = { "rank", "trace", "rec", "variant",
    "iter", "stream", "ts_ns", "dur_ns", "value", "name", "process_group",
    "process_group_ranks", "collective", "group_size", "dtype",
    "in_nelems", "out_nelems", "in_split_size", "out_split_size", NULL };
const char *const metakey[9] = { "Process Group Name",
    "Process Group Ranks", "Collective name", "Group size", "dtype",
    "In msg nelems", "Out msg nelems", "In split size", "Out split size" };

/* The strings the tables point to: chunks that never move. */
static struct chunk {
	struct chunk *next;
	size_t used, cap;
	char b[];
} *chunks;

const char *
keep(const char *s, size_t n)
{
	struct chunk *c = chunks;
	char *p;

	if (c == NULL || c->cap - c->used < n + 1) {
		size_t cap = n + 1 > 65536 ? n + 1 : 65536;

		c = xmalloc(sizeof *c + cap);
		c->cap = cap;
		c->used = 0;
		c->next = chunks;
		chunks = c;
	}
	p = c->b + c->used;
	memcpy(p, s, n);
	p[n] = '\0';
	c->used += n + 1;
	return p;
}

void
keep_free(void)
{
	struct chunk *c;

	while ((c = chunks) != NULL) {
		chunks = c->next;
		free(c);
	}
}

struct val
vnone(void)
{
	struct val v;

	memset(&v, 0, sizeof v);
	v.t = V_NONE;
	return v;
}

struct val
vint(int64_t i)
{
	struct val v = vnone();

	v.t = V_INT;
	v.i = i;
	return v;
}

struct val
vdbl(double d)
{
	struct val v = vnone();

	if (!isnan(d)) {
		v.t = V_DBL;
		v.d = d;
	}
	return v;
}

struct val
vstrn(const char *s, size_t n)
{
	struct val v = vnone();

	if (n > UINT32_MAX)
		tl_errx(1, "a value of 4 GiB or more");
	v.t = V_STR;
	v.s = s;
	v.n = (uint32_t)n;
	return v;
}

struct val
vstr(const char *s)
{
	return vstrn(s, strlen(s));
}

struct val
vus(int64_t ns)
{
	int64_t q = ns / 1000, r = ns % 1000;

	if (r == 0)
		return vint(q);
	return vdbl((double)q + (double)r / 1000);
}

double
vnum(const struct val *v)
{
	if (v->t == V_INT)
		return (double)v->i;
	if (v->t == V_DBL)
		return v->d;
	return NAN;
}

void
tab_addcol(struct table *t, const char *name)
{
	xgrow(&t->col, &t->capcol, t->ncol + 1, sizeof *t->col);
	t->col[t->ncol++] = (char *)name;
}

int
tab_findcol(const struct table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncol; i++)
		if (strcmp(t->col[i], name) == 0)
			return (int)i;
	return -1;
}

struct val *
tab_newrow(struct table *t)
{
	struct val *r;
	size_t j;

	xgrow(&t->cell, &t->caprow, (t->nrow + 1) * t->ncol + 1,
	    sizeof *t->cell);
	r = &t->cell[t->nrow++ * t->ncol];
	for (j = 0; j < t->ncol; j++)
		r[j] = vnone();
	return r;
}

/* Columns pandas made float64: integers and floats or missing values. */
static char *
floatcols(const struct table *t)
{
	char *fl = xcalloc(t->ncol + 1, 1);
	size_t i, j;

	for (j = 0; j < t->ncol; j++) {
		int ni = 0, nf = 0, ns = 0;

		for (i = 0; i < t->nrow; i++)
			switch (t->cell[i * t->ncol + j].t) {
			case V_INT:
				ni++;
				break;
			case V_STR:
				ns++;
				break;
			default:
				nf++;
			}
		fl[j] = ni > 0 && nf > 0 && ns == 0;
	}
	return fl;
}

void
tab_write(struct table *t, struct tl_out *o, int csv)
{
	char buf[TL_PY_FLOATMAX + 4];
	char *fl;
	size_t i, j, n;
	const char *s;

	if (csv && (t->ncol == 0 || t->nocols)) {
		tl_out_char(o, '\n');
		return;
	}
	for (j = 0; j < t->ncol; j++) {
		if (j > 0)
			tl_out_char(o, csv ? ',' : '\t');
		if (csv)
			tl_out_csvfield(o, t->col[j], strlen(t->col[j]));
		else
			tl_out_cstr(o, t->col[j]);
	}
	tl_out_char(o, '\n');
	fl = floatcols(t);
	for (i = 0; i < t->nrow; i++) {
		for (j = 0; j < t->ncol; j++) {
			const struct val *v = &t->cell[i * t->ncol + j];

			if (j > 0)
				tl_out_char(o, csv ? ',' : '\t');
			s = buf;
			switch (v->t) {
			case V_NONE:
				n = 0;
				break;
			case V_INT:
				n = tl_fmt_i64(buf, v->i);
				if (fl[j]) {
					memcpy(buf + n, ".0", 2);
					n += 2;
				}
				break;
			case V_DBL:
				n = (size_t)tl_py_float(buf, sizeof buf, v->d);
				break;
			default:
				s = v->s;
				n = v->n;
			}
			if (csv)
				tl_out_csvfield(o, s, n);
			else
				tl_out_field(o, s, n);
		}
		tl_out_char(o, '\n');
	}
	free(fl);
}

void
tab_free(struct table *t)
{
	free(t->col);
	free(t->cell);
	memset(t, 0, sizeof *t);
}
