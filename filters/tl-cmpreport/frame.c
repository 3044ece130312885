/*
 * tl-cmpreport: a perf-report CSV file as pandas' read_csv reads it:
 * blank lines, a byte order mark, quotes and short records as its C
 * parser takes them, its NA strings, and each column typed int64,
 * float64 (with its own decimal parser), bool or object.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../../common/csv.h"
#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/mem.h"
#include "frame.h"

/* pandas's precise_xstrtod (the C parser's default float converter). */
static double
xstrtod(const char *str, const char **endptr, int *err)
{
	static double e[309];
	const char *p = str;
	double number;
	int exponent = 0, negative = 0, num_digits = 0, num_decimals = 0;
	int max_digits = 17, n, i;

	if (e[0] == 0) {
		for (i = 0; i < 309; i++) {
			char b[16];

			snprintf(b, sizeof b, "1e%d", i);
			e[i] = strtod(b, NULL);
		}
	}
	*err = 0;
	while (isspace((unsigned char)*p))
		p++;
	switch (*p) {
	case '-':
		negative = 1;
		/* FALLTHROUGH */
	case '+':
		p++;
	}
	number = 0.;
	while (isdigit((unsigned char)*p)) {
		if (num_digits < max_digits) {
			number = number * 10. + (*p - '0');
			num_digits++;
		} else
			++exponent;
		p++;
	}
	if (*p == '.') {
		p++;
		while (num_digits < max_digits &&
		    isdigit((unsigned char)*p)) {
			number = number * 10. + (*p - '0');
			p++;
			num_digits++;
			num_decimals++;
		}
		if (num_digits >= max_digits)
			while (isdigit((unsigned char)*p))
				++p;
		exponent -= num_decimals;
	}
	if (num_digits == 0) {
		*err = ERANGE;
		*endptr = str;
		return 0.0;
	}
	if (negative)
		number = -number;
	if (toupper((unsigned char)*p) == 'E') {
		negative = 0;
		switch (*++p) {
		case '-':
			negative = 1;
			/* FALLTHROUGH */
		case '+':
			p++;
		}
		num_digits = 0;
		n = 0;
		while (num_digits < max_digits &&
		    isdigit((unsigned char)*p)) {
			n = n * 10 + (*p - '0');
			num_digits++;
			p++;
		}
		if (negative)
			exponent -= n;
		else
			exponent += n;
		if (num_digits == 0)
			p--;
	}
	if (exponent > 308) {
		*err = ERANGE;
		number = HUGE_VAL;
	} else if (exponent > 0)
		number *= e[exponent];
	else if (exponent < -308) {
		if (exponent < -616)
			number = 0.;
		else {
			number /= e[-308 - exponent];
			number /= e[308];
		}
	} else
		number /= e[-exponent];
	if (number == HUGE_VAL || number == -HUGE_VAL)
		*err = ERANGE;
	while (isspace((unsigned char)*p))
		p++;
	*endptr = p;
	return number;
}

/* read_csv's default NA strings. */
static int
isna(const char *s)
{
	static const char *const na[] = {
		"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN",
		"-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL",
		"NaN", "None", "n/a", "nan", "null", NULL
	};
	int i;

	for (i = 0; na[i] != NULL; i++)
		if (strcmp(s, na[i]) == 0)
			return 1;
	return 0;
}

static int
toint(const char *s, int64_t *v)
{
	const char *p = s;
	uint64_t u = 0;
	int neg = 0, d = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (; isdigit((unsigned char)*p); p++, d++) {
		if (u > (UINT64_MAX - 9) / 10)
			return 0;
		u = u * 10 + (uint64_t)(*p - '0');
	}
	while (isspace((unsigned char)*p))
		p++;
	if (d == 0 || *p != '\0' || u > (uint64_t)INT64_MAX + neg)
		return 0;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 1;
}

static int
tofloat(const char *s, double *v)
{
	const char *end, *p = s;
	int err, neg = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0) {
		*v = neg ? -HUGE_VAL : HUGE_VAL;
		return 1;
	}
	*v = xstrtod(s, &end, &err);
	return *end == '\0' && err == 0;
}

static int
tobool(const char *s, int64_t *v)
{
	if (strcmp(s, "True") == 0 || strcmp(s, "TRUE") == 0 ||
	    strcmp(s, "true") == 0)
		*v = 1;
	else if (strcmp(s, "False") == 0 || strcmp(s, "FALSE") == 0 ||
	    strcmp(s, "false") == 0)
		*v = 0;
	else
		return 0;
	return 1;
}

/* s as a value of type t (V_INT, V_FLOAT, V_BOOL) into x: 1, or 0. */
static int
convert(int t, const char *s, struct cell *x)
{
	return t == V_INT ? toint(s, &x->i) : t == V_FLOAT ? tofloat(s,
	    &x->d) : tobool(s, &x->i);
}

/*
 * Type a column of strings as read_csv does: int64 when every value is
 * an integer and none is NA, else float64, else bool (object with an
 * NA), else object.
 */
static void
typecol(struct col *c, size_t nrow)
{
	static const int vt[] = { V_INT, V_FLOAT, V_BOOL };
	static const int dt[] = { D_INT, D_FLOAT, D_BOOL };
	struct cell tmp, *x;
	size_t r, k;
	int anyna = 0, ok;

	for (r = 0; r < nrow; r++)
		if (c->v[r].t == V_NA)
			anyna = 1;
	for (k = anyna ? 1 : 0; k < 3; k++) {
		for (r = 0, ok = 1; r < nrow && ok; r++)
			if (c->v[r].t != V_NA)
				ok = convert(vt[k], c->v[r].s, &tmp);
		if (!ok)
			continue;
		for (r = 0; r < nrow; r++) {
			x = &c->v[r];
			if (x->t == V_NA)
				continue;
			convert(vt[k], x->s, x);
			free(x->s);
			x->s = NULL;
			x->t = (uint8_t)vt[k];
		}
		c->dt = k == 2 && anyna ? D_OBJ : dt[k];
		return;
	}
	c->dt = D_OBJ;
}

void
freeframe(struct frame *f)
{
	size_t i, r;

	if (f == NULL)
		return;
	for (i = 0; i < f->ncol; i++) {
		for (r = 0; r < f->nrow; r++)
			free(f->c[i].v[r].s);
		free(f->c[i].v);
		free(f->c[i].name);
	}
	free(f->c);
	free(f->path);
	free(f);
}

/*
 * Read dir/sheet.csv; NULL when there is no such file. As read_csv reads
 * it: blank lines passed over, a byte order mark dropped, every CR LF a
 * line end, quotes taken as its C parser takes them, and short records
 * filled out with NA.
 */
struct frame *
loadcsv(const char *dir, const char *sheet)
{
	struct frame *f;
	struct tl_src *src;
	struct tl_csv *c;
	char *path, *s;
	size_t len, i, j, r;
	struct stat st;

	len = strlen(dir) + strlen(sheet) + 6;
	path = xmalloc(len);
	snprintf(path, len, "%s/%s.csv", dir, sheet);
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			tl_err(tl_failstatus, "%s", path);
		free(path);
		return NULL;
	}
	if ((src = tl_src_open(path)) == NULL || tl_src_next(src) < 0)
		tl_exit(tl_failstatus);	/* reported */
	c = tl_csv_open(src, TL_CSV_BLANK | TL_CSV_CRLF | TL_CSV_BOM |
	    TL_CSV_LAX | TL_CSV_SHORT);
	f = xcalloc(1, sizeof *f);
	f->path = path;
	f->ncol = c->ncol;
	if (f->ncol > 0)
		f->c = xcalloc(f->ncol, sizeof *f->c);
	for (i = 0; i < f->ncol; i++) {
		f->c[i].name = xmemdup(c->col[i], c->cl[i]);
		/* read_csv's mangling of duplicate names */
		for (j = 0; j < i; j++)
			if (strcmp(f->c[j].name, f->c[i].name) == 0) {
				size_t l = strlen(c->col[i]) + 24;
				char *m = xmalloc(l);
				unsigned dup = 1;

				for (;;) {
					size_t z;

					snprintf(m, l, "%s.%u", c->col[i], dup);
					for (z = 0; z < i; z++)
						if (strcmp(f->c[z].name, m) == 0)
							break;
					if (z == i)
						break;
					dup++;
				}
				free(f->c[i].name);
				f->c[i].name = m;
				break;
			}
	}
	while (tl_csv_next(c)) {
		r = f->nrow++;
		for (i = 0; i < f->ncol; i++) {
			f->c[i].v = xreallocarray(f->c[i].v, f->nrow,
			    sizeof *f->c[i].v);
			memset(&f->c[i].v[r], 0, sizeof f->c[i].v[r]);
			s = xmemdup(c->f[i], c->fl[i]);
			if (isna(s))
				free(s);
			else {
				f->c[i].v[r].t = V_STR;
				f->c[i].v[r].s = s;
			}
		}
	}
	tl_csv_close(c);
	tl_src_close(src);
	for (i = 0; i < f->ncol; i++)
		typecol(&f->c[i], f->nrow);
	return f;
}

int
colidx(const struct frame *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->ncol; i++)
		if (strcmp(f->c[i].name, name) == 0)
			return (int)i;
	return -1;
}

void
dropcol(struct frame *f, const char *name)
{
	int i = colidx(f, name);
	size_t r;

	if (i < 0)
		return;
	for (r = 0; r < f->nrow; r++)
		free(f->c[i].v[r].s);
	free(f->c[i].v);
	free(f->c[i].name);
	memmove(f->c + i, f->c + i + 1, (f->ncol - (size_t)i - 1) *
	    sizeof *f->c);
	f->ncol--;
}

/* Order of two cells as a sorted join key: numbers, strings, NA. */
int
cmpcell(const struct cell *a, const struct cell *b)
{
	int ra = a->t == V_NA ? 2 : a->t == V_STR ? 1 : 0;
	int rb = b->t == V_NA ? 2 : b->t == V_STR ? 1 : 0;
	double x, y;
	int c;

	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (ra == 2)
		return 0;
	if (ra == 1) {
		c = strcmp(a->s, b->s);
		return c < 0 ? -1 : c > 0;
	}
	if (a->t != V_FLOAT && b->t != V_FLOAT)
		return a->i < b->i ? -1 : a->i > b->i;
	x = a->t == V_FLOAT ? a->d : (double)a->i;
	y = b->t == V_FLOAT ? b->d : (double)b->i;
	if (isnan(x) || isnan(y))
		return isnan(x) ? (isnan(y) ? 0 : 1) : -1;
	return x < y ? -1 : x > y;
}

struct cell
copycell(const struct cell *c)
{
	struct cell r = *c;

	if (c->t == V_STR)
		r.s = xstrdup(c->s);
	return r;
}

