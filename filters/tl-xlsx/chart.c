/*
 * tl-xlsx: charts. A sheet gets a chart when its columns say what it is:
 * the GPU timeline (a pie of where the time goes; with a "trace" column
 * and several traces, a stacked bar per trace), the ops by name (a bar
 * chart of the first ones, of the first trace), a comparison by
 * operation (a bar chart of the largest gaps), or a roofline sheet (a scatter of FLOP
 * per byte against TFLOP/s on log axes, with the arch's roofline when an
 * arch file is given). The points a chart draws are copied into a hidden
 * sheet, written last, because constant-memory mode cannot go back to a
 * sheet that is done and the chart needs them in one range.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/mem.h"
#include "../../common/tsv.h"
#include "xlsx.h"

#define MAXPOINTS	32000	/* points of one roofline chart */
#define MAXSPECS	8
#define MAXOPS		20	/* bars of the ops chart */
#define NPARTS		6	/* the parts of a timeline's total */
#define MAXTRACES	64	/* bars of the timeline chart */
#define MAXBARS		64	/* bars of a -b chart */
#define MAXPARTS	16	/* the parts of a -b bar */

enum { CH_TIMELINE, CH_OPS, CH_GAP, CH_ROOF, CH_BARS };

/* -b: the label column and the parts of each bar, by name. */
struct barspec {
	char *label;
	char *part[MAXPARTS];
	int npart;
};
static struct barspec *bspecs;
static size_t nbspecs, capbspecs;

/* Rows of the data sheet: a label or a number in A, numbers in B. */
struct hrow {
	char *label;
	double a, b;
};

struct xl_chart {
	int kind;
	char *sheet;
	int cx, cy, cspec;	/* columns: x or label, y or value, spec */
	char *xname, *yname;
	uint32_t nrows;		/* data rows seen */
	/* timeline and ops: the traces (a "trace" column), in order */
	int ctrace;
	char *trace[MAXTRACES];
	int ntrace;
	uint32_t nfirst;	/* rows of the first trace */
	/* timeline: each trace's parts of the total (NAN: none) */
	double part[MAXTRACES][NPARTS];
	/* roofline */
	double *x, *y;
	size_t n, cap;
	double xmin, xmax, ymin, ymax;
	char *spec[MAXSPECS];
	int nspec;
	size_t dropped;
	/* -b: the columns of the parts */
	const struct barspec *bars;
	int cpart[MAXPARTS];
};

static lxw_workbook *wb;
static char dataname[XL_NAMECAP];
static struct hrow *hrows;
static size_t nhrows, caphrows;

/* The arch. */
struct peak {
	char *spec;
	double tflops;
};
static struct peak *peaks;
static size_t npeaks, cappeaks;
static double bw_tbps;		/* TB/s */
static char *archname;

static const char *const timeparts[] = {
	"computation_time", "exposed_comm_time", "exposed_memcpy_time",
	"idle_time", "micro_idle_time", "macro_idle_time", NULL
};

void
xl_arch_load(const char *path)
{
	struct tl_src *src;
	struct tl_tsv *t;
	const char *k, *v;
	size_t kn, vn;
	int ck, cv, r;
	double d;
	char *key;

	if ((src = tl_src_open(path)) == NULL)
		exit(1);
	if ((r = tl_src_next(src)) <= 0) {
		if (r == 0)
			tl_errx(1, "%s: empty arch file", path);
		exit(1);
	}
	t = tl_tsv_open(src);
	ck = tl_tsv_need(t, "key");
	cv = tl_tsv_need(t, "value");
	while (tl_tsv_next(t)) {
		if ((k = tl_tsv_str(t, ck, &kn)) == NULL)
			continue;
		key = xmemdup(k, kn);
		v = tl_tsv_str(t, cv, &vn);
		if (strcmp(key, "name") == 0 && v != NULL) {
			free(archname);
			archname = xmemdup(v, vn);
		} else if (strcmp(key, "mem_bw_gbps") == 0 ||
		    strncmp(key, "matrix_", 7) == 0 ||
		    strncmp(key, "vector_", 7) == 0) {
			if (v == NULL || !tl_tsv_double(t, cv, &d) ||
			    !(d > 0) || !isfinite(d))
				tl_tsv_errx(t, "\"%s\": not a positive number",
				    key);
			if (strcmp(key, "mem_bw_gbps") == 0)
				bw_tbps = d / 1000;
			else {
				xgrow(&peaks, &cappeaks, npeaks + 1,
				    sizeof *peaks);
				peaks[npeaks].spec = key;
				peaks[npeaks++].tflops = d;
				continue;
			}
		}
		free(key);
	}
	tl_tsv_close(t);
	if (tl_src_next(src) < 0)
		exit(1);
	tl_src_close(src);
	if (bw_tbps <= 0)
		tl_errx(1, "%s: no \"mem_bw_gbps\": no roofline can be drawn",
		    path);
}

static double
peakof(const char *spec)
{
	size_t i;

	for (i = 0; i < npeaks; i++)
		if (strcmp(peaks[i].spec, spec) == 0)
			return peaks[i].tflops;
	return 0;
}

void
xl_chart_init(lxw_workbook *w)
{
	wb = w;
	xl_name_unique("chart data", 0, dataname);
}

int
xl_chart_bars(const char *spec)
{
	struct barspec b;
	const char *eq = strchr(spec, '='), *p, *e;

	if (eq == NULL || eq == spec || eq[1] == '\0')
		return 0;
	memset(&b, 0, sizeof b);
	for (p = eq + 1; ; p = e + 1) {
		if ((e = strchr(p, ',')) == NULL)
			e = p + strlen(p);
		if (e == p || b.npart == MAXPARTS) {
			while (b.npart > 0)
				free(b.part[--b.npart]);
			return 0;
		}
		b.part[b.npart++] = xmemdup(p, (size_t)(e - p));
		if (*e == '\0')
			break;
	}
	b.label = xmemdup(spec, (size_t)(eq - spec));
	xgrow(&bspecs, &capbspecs, nbspecs + 1, sizeof *bspecs);
	bspecs[nbspecs++] = b;
	return 1;
}

/* The column named name, or -1. */
static int
colnamed(char **col, size_t ncol, const char *name)
{
	size_t i;

	for (i = 0; i < ncol; i++)
		if (strcmp(col[i], name) == 0)
			return (int)i;
	return -1;
}

/* The first -b spec whose columns the sheet has: its chart, or NULL. */
static struct xl_chart *
barsof(const char *sheet, char **col, size_t ncol)
{
	struct xl_chart *c;
	size_t i;
	int k, a, cp[MAXPARTS];

	for (i = 0; i < nbspecs; i++) {
		if ((a = colnamed(col, ncol, bspecs[i].label)) < 0)
			continue;
		for (k = 0; k < bspecs[i].npart; k++)
			if ((cp[k] = colnamed(col, ncol, bspecs[i].part[k])) <
			    0)
				break;
		if (k < bspecs[i].npart)
			continue;
		c = xcalloc(1, sizeof *c);
		c->kind = CH_BARS;
		c->bars = &bspecs[i];
		memcpy(c->cpart, cp, sizeof cp);
		c->cx = a;
		c->cy = cp[0];
		c->cspec = c->ctrace = -1;
		c->sheet = xstrdup(sheet);
		c->xname = xstrdup(col[a]);
		c->yname = xstrdup(col[cp[0]]);
		return c;
	}
	return NULL;
}

static int
colof(char **col, size_t ncol, const char *const *names)
{
	size_t i;
	int k;

	for (k = 0; names[k] != NULL; k++)
		for (i = 0; i < ncol; i++)
			if (strcmp(col[i], names[k]) == 0)
				return (int)i;
	return -1;
}

struct xl_chart *
xl_chart_begin(const char *sheet, char **col, size_t ncol)
{
	static const char *const c_type[] = { "type", NULL };
	static const char *const c_trace[] = { "trace", NULL };
	static const char *const c_time[] = { "time_ms", "time ms", NULL };
	static const char *const c_name[] = { "name", NULL };
	static const char *const c_opstime[] = {
		"total_direct_kernel_time_ms", "direct_kernel_time_us_sum",
		NULL };
	static const char *const c_args[] = { "input_dims", "Input Dims",
		NULL };
	static const char *const c_op[] = { "operation", NULL };
	static const char *const c_gap[] = { "gap_ms", "gap_ns", NULL };
	static const char *const c_x[] = { "flop_per_byte",
		"FLOPS/Byte_first", "FLOPS/Byte", NULL };
	static const char *const c_y[] = { "tflops_per_s_mean",
		"tflop_per_s_mean", "TFLOPS/s_mean", "tflops_per_s", NULL };
	static const char *const c_spec[] = { "compute_spec", "Compute Spec",
		NULL };
	struct xl_chart *c;
	int a, b;

	if ((c = barsof(sheet, col, ncol)) != NULL)
		return c;
	c = xcalloc(1, sizeof *c);
	c->cspec = -1;
	c->ctrace = colof(col, ncol, c_trace);
	if ((a = colof(col, ncol, c_type)) >= 0 &&
	    (b = colof(col, ncol, c_time)) >= 0)
		c->kind = CH_TIMELINE;
	else if ((a = colof(col, ncol, c_op)) >= 0 &&
	    (b = colof(col, ncol, c_gap)) >= 0)
		c->kind = CH_GAP;
	else if ((a = colof(col, ncol, c_name)) >= 0 &&
	    (b = colof(col, ncol, c_opstime)) >= 0 &&
	    colof(col, ncol, c_args) < 0)
		c->kind = CH_OPS;
	else if ((a = colof(col, ncol, c_x)) >= 0 &&
	    (b = colof(col, ncol, c_y)) >= 0) {
		c->kind = CH_ROOF;
		c->cspec = colof(col, ncol, c_spec);
		c->xmin = c->ymin = INFINITY;
		c->xmax = c->ymax = -INFINITY;
	} else {
		free(c);
		return NULL;
	}
	c->cx = a;
	c->cy = b;
	c->sheet = xstrdup(sheet);
	c->xname = xstrdup(col[a]);
	c->yname = xstrdup(col[b]);
	return c;
}

/*
 * The trace of a row: its index, a new trace taken in order; -1 past
 * MAXTRACES. Without a "trace" column every row is of trace 0.
 */
static int
tracerow(struct xl_chart *c, char **f, const size_t *fl)
{
	const char *v = c->ctrace >= 0 ? f[c->ctrace] : "";
	size_t n = c->ctrace >= 0 ? fl[c->ctrace] : 0;
	int t, k;

	for (t = c->ntrace; t-- > 0;)	/* the last one first: rows run */
		if (strlen(c->trace[t]) == n && memcmp(c->trace[t], v, n) == 0)
			break;
	if (t < 0) {
		if (c->ntrace == MAXTRACES)
			return -1;
		t = c->ntrace++;
		c->trace[t] = xmemdup(v, n);
		for (k = 0; k < NPARTS; k++)
			c->part[t][k] = NAN;
	}
	if (t == 0 && c->ntrace == 1)
		c->nfirst++;
	return t;
}

void
xl_chart_row(struct xl_chart *c, const double *num,
    char **f, const size_t *fl)
{
	double x, y;
	int i, t = 0;
	size_t n;

	c->nrows++;
	if (c->kind == CH_GAP || c->kind == CH_BARS ||
	    (c->kind != CH_ROOF && (t = tracerow(c, f, fl)) < 0))
		return;
	switch (c->kind) {
	case CH_TIMELINE:
		if (isnan(num[c->cy]))
			return;
		for (i = 0; timeparts[i] != NULL; i++) {
			n = strlen(timeparts[i]);
			if (fl[c->cx] == n && memcmp(f[c->cx], timeparts[i], n)
			    == 0)
				break;
		}
		if (timeparts[i] != NULL && isnan(c->part[t][i]))
			c->part[t][i] = num[c->cy];
		return;
	case CH_OPS:
		return;
	}
	x = num[c->cx];
	y = num[c->cy];
	if (!(x > 0) || !(y > 0) || !isfinite(x) || !isfinite(y))
		return;
	if (c->n == MAXPOINTS) {
		c->dropped++;
		return;
	}
	xgrow(&c->x, &c->cap, c->n + 1, sizeof *c->x);
	c->y = xreallocarray(c->y, c->cap, sizeof *c->y);
	c->x[c->n] = x;
	c->y[c->n++] = y;
	if (x < c->xmin)
		c->xmin = x;
	if (x > c->xmax)
		c->xmax = x;
	if (y < c->ymin)
		c->ymin = y;
	if (y > c->ymax)
		c->ymax = y;
	if (c->cspec >= 0 && fl[c->cspec] > 0 && c->nspec < MAXSPECS) {
		for (i = 0; i < c->nspec; i++)
			if (strlen(c->spec[i]) == fl[c->cspec] &&
			    memcmp(c->spec[i], f[c->cspec], fl[c->cspec]) == 0)
				break;
		if (i == c->nspec)
			c->spec[c->nspec++] = xmemdup(f[c->cspec],
			    fl[c->cspec]);
	}
}

/* Append a row to the data sheet; return its index (0-based). */
static uint32_t
hrow(const char *label, double a, double b)
{
	xgrow(&hrows, &caphrows, nhrows + 1, sizeof *hrows);
	hrows[nhrows].label = label != NULL ? xstrdup(label) : NULL;
	hrows[nhrows].a = a;
	hrows[nhrows].b = b;
	return (uint32_t)nhrows++;
}

/*
 * Where a chart goes: beside a narrow table, where the sheet opens; the
 * chart of a wide one (a perf-model sheet has some 40 columns) on a
 * chart sheet of its own, "SHEET chart", right after it.
 */
#define BESIDE	10	/* columns */

static void
place(const char *sheet, lxw_worksheet *ws, lxw_chart *ch, size_t ncol,
    double xs, double ys)
{
	lxw_chart_options o;
	lxw_chartsheet *cs;
	char base[XL_NAMECAP + 8], name[XL_NAMECAP];

	if (ncol > BESIDE) {
		snprintf(base, sizeof base, "%.*s chart", XL_MAXNAME - 6,
		    sheet);
		xl_name_unique(base, 0, name);
		if ((cs = workbook_add_chartsheet(wb, name)) == NULL ||
		    chartsheet_set_chart(cs, ch) != LXW_NO_ERROR)
			tl_errx(1, "chart sheet \"%s\": cannot add it", name);
		return;
	}
	memset(&o, 0, sizeof o);
	o.x_offset = 8;
	o.x_scale = xs;
	o.y_scale = ys;
	o.object_position = LXW_OBJECT_DONT_MOVE_DONT_SIZE;
	worksheet_insert_chart_opt(ws, 1, (lxw_col_t)ncol, ch, &o);
}

/*
 * One trace: a pie of its parts. Several: a bar per trace, the parts
 * stacked, in the data sheet as a block of the traces' values per part.
 */
static void
timeline(struct xl_chart *c, lxw_worksheet *ws, size_t ncol)
{
	lxw_chart *ch;
	lxw_chart_series *s;
	char title[128];
	uint32_t r0, cat = 0, nt = (uint32_t)c->ntrace;
	int i, t, any, pie = c->ntrace == 1;

	if (c->ntrace == 0)
		return;
	snprintf(title, sizeof title, "%s: where GPU time goes", c->sheet);
	hrow(title, NAN, NAN);
	ch = workbook_add_chart(wb, pie ? LXW_CHART_PIE :
	    LXW_CHART_BAR_STACKED);
	if (pie) {
		r0 = (uint32_t)nhrows;
		for (i = 0, nt = 0; timeparts[i] != NULL; i++)
			if (!isnan(c->part[0][i])) {
				hrow(timeparts[i], NAN, c->part[0][i]);
				nt++;
			}
		if (nt == 0)
			return;
		s = chart_add_series(ch, NULL, NULL);
		chart_series_set_categories(s, dataname, r0, 0, r0 + nt - 1,
		    0);
		chart_series_set_values(s, dataname, r0, 1, r0 + nt - 1, 1);
		chart_series_set_name(s, c->yname);
		chart_series_set_labels(s);
		chart_series_set_labels_options(s, LXW_FALSE, LXW_FALSE,
		    LXW_FALSE);
		chart_series_set_labels_percentage(s);
		chart_title_set_name(ch, "GPU time");
		chart_legend_set_position(ch, LXW_CHART_LEGEND_RIGHT);
		place(c->sheet, ws, ch, ncol, 1.2, 1.2);
		return;
	}
	for (i = 0; timeparts[i] != NULL; i++) {
		for (t = 0, any = 0; t < c->ntrace; t++)
			any |= !isnan(c->part[t][i]);
		if (!any)
			continue;
		hrow(timeparts[i], NAN, NAN);
		r0 = (uint32_t)nhrows;
		if (cat == 0)
			cat = r0;
		for (t = 0; t < c->ntrace; t++)
			hrow(c->trace[t], NAN, isnan(c->part[t][i]) ? 0 :
			    c->part[t][i]);
		s = chart_add_series(ch, NULL, NULL);
		chart_series_set_categories(s, dataname, cat, 0, cat + nt - 1,
		    0);
		chart_series_set_values(s, dataname, r0, 1, r0 + nt - 1, 1);
		chart_series_set_name_range(s, dataname, r0 - 1, 0);
	}
	chart_title_set_name(ch, "GPU time by trace (ms)");
	chart_axis_set_reverse(ch->y_axis);	/* the first trace on top */
	chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
	place(c->sheet, ws, ch, ncol, 1.6, 0.6 + 0.15 * nt);
}

static void
ops(struct xl_chart *c, lxw_worksheet *ws, size_t ncol,
    unsigned long firstrows)
{
	lxw_chart *ch;
	lxw_chart_series *s;
	uint32_t n = c->nrows < MAXOPS ? c->nrows : MAXOPS;
	char title[160];

	if (n > firstrows)
		n = (uint32_t)firstrows;
	if (c->ntrace > 1 && n > c->nfirst)	/* the first trace's only */
		n = c->nfirst;
	if (n == 0)
		return;
	ch = workbook_add_chart(wb, LXW_CHART_BAR);
	s = chart_add_series(ch, NULL, NULL);
	chart_series_set_categories(s, c->sheet, 1, (lxw_col_t)c->cx, n,
	    (lxw_col_t)c->cx);
	chart_series_set_values(s, c->sheet, 1, (lxw_col_t)c->cy, n,
	    (lxw_col_t)c->cy);
	chart_series_set_name(s, c->yname);
	if (c->kind == CH_GAP)
		snprintf(title, sizeof title, "The %u largest gaps, variant "
		    "against baseline (%s)", n, c->yname);
	else if (c->ntrace > 1)
		snprintf(title, sizeof title, "Top %u operations by GPU kernel "
		    "time: %.60s (the first of %d traces)", n, c->trace[0],
		    c->ntrace);
	else
		snprintf(title, sizeof title, "Top %u operations by GPU kernel "
		    "time", n);
	chart_title_set_name(ch, title);
	chart_axis_set_reverse(ch->y_axis);	/* the first row on top */
	chart_axis_set_name(ch->x_axis, c->yname);
	chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
	chart_show_hidden_data(ch);
	place(c->sheet, ws, ch, ncol, 1.6, 0.4 + 0.12 * n);
}

/*
 * -b: a bar per row of the first sheet, up to MAXBARS, the first on top,
 * its parts stacked in the order of the spec, a series each; from the
 * sheet's own cells.
 */
static void
bars(struct xl_chart *c, lxw_worksheet *ws, size_t ncol,
    unsigned long firstrows)
{
	const struct barspec *b = c->bars;
	lxw_chart *ch;
	lxw_chart_series *s;
	uint32_t n = c->nrows < MAXBARS ? c->nrows : MAXBARS;
	char title[256];
	size_t len;
	int k;

	if (n > firstrows)
		n = (uint32_t)firstrows;
	if (n == 0)
		return;
	ch = workbook_add_chart(wb, LXW_CHART_BAR_STACKED);
	for (k = 0; k < b->npart; k++) {
		s = chart_add_series(ch, NULL, NULL);
		chart_series_set_categories(s, c->sheet, 1, (lxw_col_t)c->cx,
		    n, (lxw_col_t)c->cx);
		chart_series_set_values(s, c->sheet, 1,
		    (lxw_col_t)c->cpart[k], n, (lxw_col_t)c->cpart[k]);
		chart_series_set_name_range(s, c->sheet, 0,
		    (lxw_col_t)c->cpart[k]);
	}
	len = (size_t)snprintf(title, sizeof title, "%.40s: ", c->sheet);
	for (k = 0; k < b->npart && len < sizeof title; k++)
		len += (size_t)snprintf(title + len, sizeof title - len,
		    "%s%.40s", k > 0 ? " + " : "", b->part[k]);
	if (len < sizeof title)
		len += (size_t)snprintf(title + len, sizeof title - len,
		    " by %.40s", b->label);
	if (len < sizeof title && n < c->nrows)
		snprintf(title + len, sizeof title - len, " (the first %u "
		    "of %u rows)", n, c->nrows);
	chart_title_set_name(ch, title);
	chart_axis_set_reverse(ch->y_axis);	/* the first row on top */
	chart_axis_set_name(ch->y_axis, b->label);
	chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
	chart_show_hidden_data(ch);
	place(c->sheet, ws, ch, ncol, 1.6, 0.6 + 0.12 * n);
}

static double
decade(double v, int up)
{
	return pow(10, up ? ceil(log10(v)) : floor(log10(v)));
}

static void
roofline(struct xl_chart *c, lxw_worksheet *ws, size_t ncol)
{
	static const lxw_color_t colors[] = { 0xC00000, 0x00B050, 0x7030A0,
		0xED7D31, 0x0070C0, 0x808080, 0xFFC000, 0x000000 };
	lxw_chart *ch;
	lxw_chart_series *s;
	lxw_chart_line line;
	lxw_chart_font font;
	char title[256], nm[128];
	uint32_t r0, r;
	double xlo, xhi, ylo, yhi, p, ridge;
	size_t i;
	int k, nroof = 0;

	if (c->n == 0)
		return;
	if (c->dropped > 0)
		tl_warnx("%s: roofline chart: the first %d points, %zu more "
		    "left out", c->sheet, MAXPOINTS, c->dropped);
	xlo = c->xmin;
	xhi = c->xmax;
	ylo = c->ymin;
	yhi = c->ymax;
	for (k = 0; k < c->nspec && bw_tbps > 0; k++) {
		if ((p = peakof(c->spec[k])) <= 0)
			continue;
		ridge = p / bw_tbps;
		if (ridge < xlo)
			xlo = ridge;
		if (ridge > xhi)
			xhi = ridge;
		if (p > yhi)
			yhi = p;
	}
	xlo = decade(xlo, 0);
	xhi = decade(xhi, 1);
	if (xhi <= xlo)
		xhi = xlo * 10;
	snprintf(title, sizeof title, "%s: roofline", c->sheet);
	hrow(title, NAN, NAN);
	r0 = (uint32_t)nhrows;
	for (i = 0; i < c->n; i++)
		hrow(NULL, c->x[i], c->y[i]);
	ch = workbook_add_chart(wb, LXW_CHART_SCATTER);
	s = chart_add_series(ch, NULL, NULL);
	chart_series_set_categories(s, dataname, r0, 0, r0 + (uint32_t)c->n -
	    1, 0);
	chart_series_set_values(s, dataname, r0, 1, r0 + (uint32_t)c->n - 1,
	    1);
	chart_series_set_name(s, "ops");
	chart_series_set_marker_type(s, LXW_CHART_MARKER_CIRCLE);
	chart_series_set_marker_size(s, 5);
	for (k = 0; k < c->nspec && bw_tbps > 0; k++) {
		if ((p = peakof(c->spec[k])) <= 0)
			continue;
		ridge = p / bw_tbps;
		snprintf(nm, sizeof nm, "%s%s%s (%g TFLOP/s, %g TB/s)",
		    archname != NULL ? archname : "", archname != NULL ? " " :
		    "", c->spec[k], p, bw_tbps);
		hrow(nm, NAN, NAN);
		r = hrow(NULL, xlo, bw_tbps * xlo);
		hrow(NULL, ridge, p);
		hrow(NULL, xhi, p);
		s = chart_add_series(ch, NULL, NULL);
		chart_series_set_categories(s, dataname, r, 0, r + 2, 0);
		chart_series_set_values(s, dataname, r, 1, r + 2, 1);
		chart_series_set_name(s, nm);
		chart_series_set_marker_type(s, LXW_CHART_MARKER_NONE);
		memset(&line, 0, sizeof line);
		line.color = colors[nroof % 8];
		line.width = 1.5;
		chart_series_set_line(s, &line);
		if (bw_tbps * xlo < ylo)
			ylo = bw_tbps * xlo;
		nroof++;
	}
	ylo = decade(ylo, 0);
	yhi = decade(yhi, 1);
	if (yhi <= ylo)
		yhi = ylo * 10;
	chart_axis_set_log_base(ch->x_axis, 10);
	chart_axis_set_log_base(ch->y_axis, 10);
	chart_axis_set_min(ch->x_axis, xlo);
	chart_axis_set_max(ch->x_axis, xhi);
	chart_axis_set_min(ch->y_axis, ylo);
	chart_axis_set_max(ch->y_axis, yhi);
	chart_axis_set_name(ch->x_axis, "FLOP per byte");
	chart_axis_set_name(ch->y_axis, "TFLOP/s");
	memset(&font, 0, sizeof font);
	font.size = 12;
	font.bold = LXW_EXPLICIT_FALSE;
	/* No roof drawn (no arch, or none of its specs): no "Roofline". */
	if (nroof > 0)
		snprintf(title, sizeof title, "Roofline: %s%s%s", c->sheet,
		    archname != NULL ? " on " : "",
		    archname != NULL ? archname : "");
	else
		snprintf(title, sizeof title, "%s: TFLOP/s and FLOP per byte "
		    "(no arch given: no roofline)", c->sheet);
	chart_title_set_name(ch, title);
	chart_title_set_name_font(ch, &font);
	chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
	place(c->sheet, ws, ch, ncol, 1.6, 1.6);
}

void
xl_chart_end(struct xl_chart *c, lxw_worksheet *ws, size_t ncol,
    unsigned long firstrows)
{
	int i;

	if (c == NULL)
		return;
	switch (c->kind) {
	case CH_TIMELINE:
		timeline(c, ws, ncol);
		break;
	case CH_OPS:
	case CH_GAP:
		ops(c, ws, ncol, firstrows);
		break;
	case CH_BARS:
		bars(c, ws, ncol, firstrows);
		break;
	default:
		roofline(c, ws, ncol);
	}
	for (i = 0; i < c->ntrace; i++)
		free(c->trace[i]);
	for (i = 0; i < c->nspec; i++)
		free(c->spec[i]);
	free(c->x);
	free(c->y);
	free(c->sheet);
	free(c->xname);
	free(c->yname);
	free(c);
}

void
xl_chart_finish(void)
{
	lxw_worksheet *ws;
	size_t i;
	lxw_error e;

	if (nhrows > 0) {
		ws = workbook_add_worksheet(wb, dataname);
		if (ws == NULL)
			tl_errx(1, "cannot add the sheet \"%s\"", dataname);
		for (i = 0; i < nhrows; i++) {
			e = LXW_NO_ERROR;
			if (hrows[i].label != NULL)
				e = worksheet_write_string(ws, (lxw_row_t)i,
				    0, hrows[i].label, NULL);
			else if (!isnan(hrows[i].a))
				e = worksheet_write_number(ws, (lxw_row_t)i,
				    0, hrows[i].a, NULL);
			if (e == LXW_NO_ERROR && !isnan(hrows[i].b))
				e = worksheet_write_number(ws, (lxw_row_t)i,
				    1, hrows[i].b, NULL);
			if (e != LXW_NO_ERROR)
				tl_errx(1, "sheet \"%s\": %s", dataname,
				    lxw_strerror(e));
		}
		worksheet_set_column(ws, 0, 0, 40, NULL);
		worksheet_hide(ws);
	}
	for (i = 0; i < nhrows; i++)
		free(hrows[i].label);
	free(hrows);
	hrows = NULL;
	nhrows = caphrows = 0;
	for (i = 0; i < npeaks; i++)
		free(peaks[i].spec);
	free(peaks);
	free(archname);
	for (i = 0; i < nbspecs; i++) {
		free(bspecs[i].label);
		while (bspecs[i].npart > 0)
			free(bspecs[i].part[--bspecs[i].npart]);
	}
	free(bspecs);
	bspecs = NULL;
	nbspecs = capbspecs = 0;
}
