/*
 * tl-xlsx: what its private sources share: sheet names (name.c) and the
 * charts with their hidden data sheet (chart.c). These names have external
 * linkage only because the program is split over several files.
 */
#ifndef XL_XLSX_H
#define XL_XLSX_H

#include <stddef.h>
#include <stdint.h>

#include <xlsxwriter.h>

/* Excel's limits. */
#define XL_MAXNAME	31		/* characters of a sheet name */
#define XL_MAXROWS	1048575u	/* data rows below the header */
#define XL_MAXCOLS	16384
#define XL_MAXSTR	32767		/* characters of a cell */

/* U+FFFE or U+FFFF at p (k bytes): characters XML 1.0 does not allow. */
#define XL_NONCHAR(p, k)	((k) == 3 && (p)[0] == 0xef && \
	(p)[1] == 0xbf && ((p)[2] == 0xbe || (p)[2] == 0xbf))

/* Sheet names: at most XL_MAXNAME characters, no [ ] : * ? / \. */
#define XL_NAMECAP	(4 * XL_MAXNAME + 16)

/*
 * Check an explicit name: NULL when Excel takes it (cut to 31
 * characters into out), else why not.
 */
const char *xl_name_check(const char *in, char *out);
/* A name from a file name: the base name without .gz and .tsv (or
 * .csv), made valid and cut, into out. */
void xl_name_derive(const char *path, char *out);
/* Is it a CSV file's name: .csv, before any .gz (or .xz ...)? */
int xl_name_csv(const char *path);
/* Is the name in use (ASCII letters in any case)? */
int xl_name_taken(const char *name);
/* Mark a name as used. */
void xl_name_use(const char *name);
/*
 * A name not in use: base itself, else base cut to fit " (k)" for
 * k = start, start + 1, ...; into out, and marked as used.
 */
void xl_name_unique(const char *base, unsigned start, char *out);
void xl_name_free(void);

/* Charts. */
struct xl_chart;

/* The roofline arch: memory bandwidth and peaks by compute spec. */
void xl_arch_load(const char *path);

/*
 * -b: a stacked bar chart for every sheet with the columns a spec names,
 * "label=part[,part...]"; 0 when it is not one.
 */
int xl_chart_bars(const char *spec);

/* Start: reserve the name of the sheet that holds the charts' data. */
void xl_chart_init(lxw_workbook *);
/*
 * Look at a sheet's header: NULL when no chart applies, else the chart
 * being collected. ncol columns, named col[].
 */
struct xl_chart *xl_chart_begin(const char *sheet, char **col, size_t ncol);
/* One record: numbers by column (NAN when not a number), raw fields. */
void xl_chart_row(struct xl_chart *, const double *num,
    char **f, const size_t *fl);
/*
 * The stream is done: make the chart and place it on ws, its first
 * sheet (of at most firstrows data rows), right of its ncol columns.
 */
void xl_chart_end(struct xl_chart *, lxw_worksheet *ws, size_t ncol,
    unsigned long firstrows);
/* Write the charts' data sheet, if any chart needs it. */
void xl_chart_finish(void);

#endif
