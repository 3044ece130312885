/*
 * tl-rocprof: a sheet's CSV file read back as a Markdown table, for the
 * activity report's Markdown summary (--write_md).
 */
#include "rocprof.h"

void
mdstr(const char *s)
{
	tl_out_raw(&md, s, strlen(s));
}

/* Code points of UTF-8 text, as the width of a cell. */
static size_t
width(const char *s, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

static int
isnum(const char *s, size_t n)
{
	char b[64], *end;

	if (n == 0 || n >= sizeof b)
		return 0;
	memcpy(b, s, n);
	b[n] = '\0';
	strtod(b, &end);
	return *end == '\0' && !isspace((unsigned char)b[0]);
}

static void
pad(size_t n)
{
	while (n-- > 0)
		tl_out_char(&md, ' ');
}

/*
 * A sheet just written (DIR/SHEET.csv) as a pipe table, as pandas's
 * to_markdown (tabulate's "pipe" format) lays it out: text left, numbers
 * right and on their decimal point, in %g; the first top rows. With a
 * title, a table that has no rows is left out, title and all.
 */
void
mdtable(const char *dir, const char *sheetname, size_t top, const char *title)
{
	char *fn = xmalloc(strlen(sheetname) + 5), *path, b[64];
	struct tl_src *src;
	struct tl_csv *c;
	char ***cell = NULL;
	size_t nr = 0, capr = 0, i, k, nc, *w, *frac, n, f;
	int *num;
	const char *dot;

	sprintf(fn, "%s.csv", sheetname);
	path = tl_path(dir, fn);
	free(fn);
	if ((src = tl_src_open(path)) == NULL)
		tl_exit(1);
	free(path);
	if (tl_src_next(src) <= 0) {
		tl_src_close(src);
		return;
	}
	c = tl_csv_open(src, 0);
	nc = c->ncol;
	while (nr < top && tl_csv_next(c)) {
		xgrow(&cell, &capr, nr + 1, sizeof *cell);
		cell[nr] = xcalloc(nc, sizeof **cell);
		for (k = 0; k < nc; k++) {
			/* tabulate strips the blanks around text */
			const char *a = c->f[k], *z = a + c->fl[k];

			while (a < z && *a == ' ')
				a++;
			while (z > a && z[-1] == ' ')
				z--;
			cell[nr][k] = xmemdup(a, (size_t)(z - a));
		}
		nr++;
	}
	if (nr == 0 || nc < 2) {
		if (title == NULL)
			mdstr("_(no data)_\n");
		goto out;
	}
	if (title) {
		mdstr(title);
		tl_out_char(&md, '\n');
	}
	w = xcalloc(nc, sizeof *w);
	frac = xcalloc(nc, sizeof *frac);
	num = xcalloc(nc, sizeof *num);
	for (k = 0; k < nc; k++) {
		num[k] = 1;
		for (i = 0; i < nr; i++)
			if (!isnum(cell[i][k], strlen(cell[i][k])))
				num[k] = 0;
		if (!num[k])
			continue;
		for (i = 0; i < nr; i++) {
			snprintf(b, sizeof b, "%g", strtod(cell[i][k], NULL));
			free(cell[i][k]);
			cell[i][k] = xstrdup(b);
			dot = strchr(b, '.');
			f = dot ? strlen(dot) : 0;
			if (f > frac[k])
				frac[k] = f;
		}
		for (i = 0; i < nr; i++) {
			dot = strchr(cell[i][k], '.');
			f = dot ? strlen(dot) : 0;
			n = strlen(cell[i][k]);
			fn = xmalloc(n + frac[k] + 1);
			memcpy(fn, cell[i][k], n);
			memset(fn + n, ' ', frac[k] - f);
			fn[n + frac[k] - f] = '\0';
			free(cell[i][k]);
			cell[i][k] = fn;
		}
	}
	for (k = 0; k < nc; k++) {
		w[k] = width(c->col[k], c->cl[k]) + 2;
		for (i = 0; i < nr; i++)
			if ((n = width(cell[i][k], strlen(cell[i][k]))) > w[k])
				w[k] = n;
	}
	for (k = 0; k < nc; k++) {
		n = width(c->col[k], c->cl[k]);
		mdstr(k ? " | " : "| ");
		if (num[k])
			pad(w[k] - n);
		tl_out_raw(&md, c->col[k], c->cl[k]);
		if (!num[k])
			pad(w[k] - n);
	}
	mdstr(" |\n");
	for (k = 0; k < nc; k++) {
		mdstr(num[k] ? "|" : "|:");
		for (i = 0; i < w[k] + 1; i++)
			tl_out_char(&md, '-');
		if (num[k])
			tl_out_char(&md, ':');
	}
	mdstr("|\n");
	for (i = 0; i < nr; i++) {
		for (k = 0; k < nc; k++) {
			n = width(cell[i][k], strlen(cell[i][k]));
			mdstr(k ? " | " : "| ");
			if (num[k])
				pad(w[k] - n);
			mdstr(cell[i][k]);
			if (!num[k])
				pad(w[k] - n);
		}
		mdstr(" |\n");
	}
	tl_out_char(&md, '\n');
	free(w);
	free(frac);
	free(num);
out:
	for (i = 0; i < nr; i++) {
		for (k = 0; k < nc; k++)
			free(cell[i][k]);
		free(cell[i]);
	}
	free(cell);
	tl_csv_close(c);
	tl_src_close(src);
}
