/*
 * tl-agg: a table in memory (typed cells, strings in one buffer), written
 * as a stream (tl-tsv(5)) or as the CSV file pandas writes for TraceLens.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/csv.h"
#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/mem.h"
#include "../../common/pyfmt.h"
#include "agg.h"

void
tab_init(struct table *t, const char *name, const char *sheet,
    const char *const *cols)
{
	size_t n;

	memset(t, 0, sizeof *t);
	t->s.fd = -1;
	t->name = name;
	t->sheet = sheet;
	for (n = 0; cols[n] != NULL; n++)
		;
	t->ncol = n;
	t->col = xcalloc(n + 1, sizeof *t->col);
	memcpy(t->col, cols, n * sizeof *t->col);
}

/* The column is in this output. */
static int
shown(const struct col *c)
{
	if (agg_csv && (c->tl == NULL || ((c->flags & COL_CPU) &&
	    A->gpuonly)))
		return 0;
	return agg_csv || c->nat != NULL;
}

void
tab_cols(struct table *t, int which, const struct col *cols)
{
	size_t n;

	memset(t, 0, sizeof *t);
	t->s.fd = -1;
	t->name = agg_tab[which].name;
	t->sheet = agg_tab[which].sheet;
	t->cols = cols;
	for (n = 0; cols[n].nat != NULL || cols[n].tl != NULL; n++)
		;
	t->col = xcalloc(n + 1, sizeof *t->col);
	for (n = 0; cols[n].nat != NULL || cols[n].tl != NULL; n++)
		if (shown(&cols[n]))
			t->col[t->ncol++] = agg_csv ? cols[n].tl : cols[n].nat;
}

void
tab_row(struct table *t, const struct row *r, colfn *fn)
{
	const struct col *c;
	double v;

	for (c = t->cols; c->nat != NULL || c->tl != NULL; c++) {
		if (!shown(c))
			continue;
		switch (c->kind) {
		case COL_ID:
			tab_id(t, r->key[c->i]);
			continue;
		case COL_ARG:
			tab_arg(t, r->key[c->i]);
			continue;
		case COL_INT:
			tab_int(t, r->i[c->i]);
			continue;
		case COL_STR:
			tab_sb(t, r->s[c->i]);
			continue;
		case COL_BOOL:
			tab_bool(t, r->i[c->i] != 0);
			continue;
		case COL_FN:
			fn(t, r, c->i);
			continue;
		case COL_DBL:
			v = r->x[c->i];
			break;
		default:
			memcpy(&v, (const char *)&r->st[c->i] + c->s,
			    sizeof v);
			break;
		}
		if (c->flags & COL_US)
			v = agg_us(v);
		else if (c->flags & COL_MS)
			v = agg_ms(v);
		tab_dbl(t, v);
	}
}

void
tab_free(struct table *t)
{
	free(t->col);
	free(t->c);
	free(t->s.buf);
	memset(t, 0, sizeof *t);
	t->s.fd = -1;
}

size_t
tab_nrow(const struct table *t)
{
	return t->ncol == 0 ? 0 : t->ncell / t->ncol;
}

static struct cell *
add(struct table *t, int type)
{
	struct cell *c;

	xgrow(&t->c, &t->capcell, t->ncell + 1, sizeof *t->c);
	c = &t->c[t->ncell++];
	c->t = (uint8_t)type;
	return c;
}

void
tab_int(struct table *t, int64_t v)
{
	add(t, V_INT)->v.i = v;
}

void
tab_dbl(struct table *t, double v)
{
	if (isnan(v))
		add(t, V_NONE);
	else
		add(t, V_DBL)->v.d = v;
}

void
tab_str(struct table *t, const char *s, size_t n)
{
	struct cell *c;

	if (t->s.n + n > UINT32_MAX)
		tl_errx(1, "table %s: too large", t->name);
	c = add(t, V_STR);
	c->v.s.off = (uint32_t)t->s.n;
	c->v.s.len = (uint32_t)n;
	tl_out_raw(&t->s, s, n);
}

void
tab_cstr(struct table *t, const char *s)
{
	if (s == NULL)
		add(t, V_NONE);
	else
		tab_str(t, s, strlen(s));
}

void
tab_sb(struct table *t, const struct tl_out *b)
{
	tab_str(t, b->buf, b->n);
}

void
tab_id(struct table *t, uint32_t id)
{
	const char *s;
	size_t n;

	if (id == NONE) {
		add(t, V_NONE);
		return;
	}
	s = agg_str(id, &n);
	tab_str(t, s, n);
}

void
tab_none(struct table *t)
{
	add(t, V_NONE);
}

void
tab_bool(struct table *t, int b)
{
	add(t, V_BOOL)->v.i = b != 0;
}

void
tab_header(struct tl_out *o, const struct table *t, int trace)
{
	size_t i;

	if (trace)
		tl_out_raw(o, "trace\t", 6);
	for (i = 0; i < t->ncol; i++) {
		if (i > 0)
			tl_out_char(o, '\t');
		tl_out_cstr(o, t->col[i]);
	}
	tl_out_char(o, '\n');
}

/*
 * The rows of t: as a stream (fl NULL: the trace's name first, when not
 * NULL), or as pandas writes its CSV (fl[i]: integer column i is a float
 * one).
 */
static void
rows(struct tl_out *o, const struct table *t, const char *trace,
    const uint8_t *fl)
{
	const struct cell *c = t->c;
	size_t r, i, nrow = tab_nrow(t);

	for (r = 0; r < nrow; r++) {
		if (trace != NULL) {
			tl_out_cstr(o, trace);
			tl_out_char(o, '\t');
		}
		for (i = 0; i < t->ncol; i++, c++) {
			if (i > 0)
				tl_out_char(o, fl != NULL ? ',' : '\t');
			switch (c->t) {
			case V_INT:
				tl_out_i64(o, c->v.i);
				if (fl != NULL && fl[i])
					tl_out_raw(o, ".0", 2);
				break;
			case V_DBL:
				if (fl != NULL)
					tl_out_pyfloat(o, c->v.d);
				else
					tl_out_double(o, c->v.d);
				break;
			case V_STR:
				if (fl != NULL)
					tl_out_csvfield(o, t->s.buf +
					    c->v.s.off, c->v.s.len);
				else
					tl_out_field(o, t->s.buf + c->v.s.off,
					    c->v.s.len);
				break;
			case V_BOOL:
				if (fl != NULL)
					sb_puts(o, c->v.i ? "True" : "False");
				else
					tl_out_char(o, c->v.i ? '1' : '0');
				break;
			}
		}
		tl_out_char(o, '\n');
	}
}

void
tab_tsv(struct tl_out *o, const struct table *t, const char *trace)
{
	rows(o, t, trace, NULL);
}

int
tab_csv(const struct table *t, const char *dir)
{
	const struct cell *c;
	size_t r, i, nrow = tab_nrow(t);
	struct tl_file f;
	struct tl_out *o = &f.out;
	char name[64];
	uint8_t *fl;

	snprintf(name, sizeof name, "%s.csv", t->sheet);
	if (tl_file_open(&f, dir, name) < 0)
		return -1;
	if (t->blank) {
		tl_out_char(o, '\n');
		return tl_file_close(&f);
	}
	/* pandas: an integer column with a missing value is a float one. */
	fl = xcalloc(t->ncol + 1, 1);
	for (i = 0; i < t->ncol; i++) {
		int none = 0, ints = 0, other = 0;

		for (r = 0; r < nrow; r++) {
			c = &t->c[r * t->ncol + i];
			none |= c->t == V_NONE;
			ints |= c->t == V_INT;
			other |= c->t != V_NONE && c->t != V_INT;
		}
		fl[i] = none && ints && !other;
	}
	for (i = 0; i < t->ncol; i++) {
		if (i > 0)
			tl_out_char(o, ',');
		tl_out_csvfield(o, t->col[i], strlen(t->col[i]));
	}
	tl_out_char(o, '\n');
	rows(o, t, NULL, fl);
	free(fl);
	return tl_file_close(&f);
}
