/*
 * tl-xlsx: what its private sources share: sheet names (name.c), the
 * charts with their hidden data sheet (chart.c) and the CSV reader
 * (csv.c). These names have
 * external linkage only because the program is split over several files.
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

/*
 * CSV files (RFC 4180, as pandas writes them), read a record at a time:
 * the same view of a table as a tl-tsv(5) reader gives. A record ends at
 * LF outside quotes, or at CR LF when the header does; a quoted field
 * may hold commas, doubled quotes and line ends. A file with no columns
 * (empty, or a first record of one empty field) reads as the column
 * "note" and the row "no rows".
 * Errors (a quote that does not end, a stray quote, a record with
 * another number of fields, a bad header) exit 1 with "NAME:LINE: what".
 */
struct tl_src;
struct xl_csv {
	const char *name;	/* the stream's, for messages */
	uint64_t lineno;	/* the line the current record starts on */
	size_t ncol;
	char **col;		/* header names, escaped as a stream's are */
	char **f;		/* the current record: fields, decoded */
	size_t *fl;		/* their lengths */
	struct tl_src *src;
	char *chunk;		/* the input, as tl_in_chunk gives it */
	size_t nchunk, pos;
	int eof;
	uint64_t line;		/* the line being read */
	char *rec;		/* the record's fields, one after another */
	size_t nrec, caprec;
	size_t *off;		/* where field k starts in rec; then nrec */
	size_t nf, capoff;
	int note;		/* 1: the "no rows" row is still to come */
	int crlf;		/* records end at CR LF; -1: not known yet */
};

/* Read the header of the current stream of src; exit on an error. */
struct xl_csv *xl_csv_open(struct tl_src *);
/* The next record: 1, or 0 at the end; exit on an error. */
int xl_csv_next(struct xl_csv *);
void xl_csv_close(struct xl_csv *);

/* Charts. */
struct xl_chart;

/* The roofline arch: memory bandwidth and peaks by compute spec. */
void xl_arch_load(const char *path);

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
