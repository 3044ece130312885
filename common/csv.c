/* tl: the CSV reader (csv.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "err.h"
#include "input.h"
#include "limit.h"
#include "mem.h"
#include "tsv.h"

/* Where a record's parse is. */
enum {
	START,		/* a field starts */
	PLAIN,		/* in an unquoted field */
	PLAINCR,	/* in an unquoted field, after a CR */
	QUOTED,		/* in a quoted field */
	QUOTE,		/* after a quote in a quoted field: the end, or "" */
	QUOTECR,	/* after a quoted field and a CR */
	BOM		/* the stream starts: a byte order mark? */
};

/* The bytes that end a run of unquoted text. */
static const unsigned char stop[256] = {
	['\n'] = 1, ['\r'] = 1, [','] = 1, ['"'] = 1
};

static const char bom[] = "\xef\xbb\xbf";

void
tl_csv_errx(const struct tl_csv *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tl_verrx_at(c->name, c->lineno, fmt, ap);
}

static void
add(struct tl_csv *c, const char *p, size_t n)
{
	uint64_t l = tl_limit[TL_LIM_LINE];
	char b[TL_LIMIT_STRMAX];

	if (n == 0)
		return;
	if (l != 0 && c->nrec + n > l)
		tl_csv_errx(c, "record longer than the limit (--limit %s)",
		    tl_limit_str(b, TL_LIM_LINE));
	if (c->caprec - c->nrec < n)
		xgrow(&c->rec, &c->caprec, c->nrec + n, 1);
	memcpy(c->rec + c->nrec, p, n);
	c->nrec += n;
}

/* The current field ends; the next starts. */
static void
endfield(struct tl_csv *c)
{
	if (c->capoff - c->nf < 2)
		xgrow(&c->off, &c->capoff, c->nf + 2, sizeof *c->off);
	c->off[++c->nf] = c->nrec;
}

/* A line end (CR LF when cr) ends the record. */
static void
endline(struct tl_csv *c, int cr)
{
	c->line++;
	endfield(c);
	if (c->crlf < 0)
		c->crlf = cr;
}

/*
 * At a line end outside quotes: 1 when the record so far is a blank line
 * to pass over (TL_CSV_BLANK), which is then passed; else 0.
 */
static int
blank(struct tl_csv *c)
{
	if (!(c->flags & TL_CSV_BLANK) || c->nf != 0 || c->nrec != 0)
		return 0;
	c->lineno = ++c->line;
	return 1;
}

/*
 * The next record into rec and off[0..nf]: 1, or 0 at the end. The
 * last record may lack its line end. A record ends at LF, or, when
 * crlf is set, at CR LF; any other CR is text.
 */
static int
record(struct tl_csv *c)
{
	const char *p, *e, *q, *nl;
	uint64_t qline = 0;
	size_t nb = 0;		/* bytes of a byte order mark seen */
	int st = START;

	c->nrec = c->nf = 0;
	c->lineno = c->line;
	c->off[0] = 0;
	if (c->bom) {
		c->bom = 0;
		st = BOM;
	}
	while (tl_in_more(c->src, &c->chunk, &c->nchunk, &c->pos,
	    &c->eof)) {
		p = c->chunk + c->pos;
		e = c->chunk + c->nchunk;
		switch (st) {
		case BOM:
			if (*p == bom[nb]) {
				c->pos++;
				if (++nb == 3)
					st = START;
				continue;
			}
			add(c, bom, nb);	/* not one: text */
			st = nb > 0 ? PLAIN : START;
			continue;
		case START:
			if (*p == '"') {
				st = QUOTED;
				qline = c->line;
				c->pos++;
				continue;
			}
			st = PLAIN;
			/* FALLTHROUGH */
		case PLAIN:
			for (q = p; q < e && !stop[(unsigned char)*q]; q++)
				;
			add(c, p, (size_t)(q - p));
			c->pos += (size_t)(q - p);
			if (q == e)
				continue;
			c->pos++;
			switch (*q) {
			case ',':
				endfield(c);
				st = START;
				break;
			case '\n':
				if (blank(c)) {
					st = START;
					break;
				}
				endline(c, 0);
				return 1;
			case '\r':
				if (c->crlf)
					st = PLAINCR;
				else
					add(c, "\r", 1);
				break;
			default:
				if (!(c->flags & TL_CSV_LAX))
					tl_errx_at(c->name, c->line,
					    "a quote in a field that is not "
					    "quoted");
				add(c, "\"", 1);
			}
			continue;
		case PLAINCR:	/* a CR is text unless a LF follows */
			if (*p == '\n') {
				c->pos++;
				if (blank(c)) {
					st = START;
					continue;
				}
				endline(c, 1);
				return 1;
			}
			add(c, "\r", 1);
			st = PLAIN;
			continue;
		case QUOTED:
			if ((q = memchr(p, '"', (size_t)(e - p))) == NULL)
				q = e;
			for (nl = p; (nl = memchr(nl, '\n', (size_t)(q - nl)))
			    != NULL; nl++)
				c->line++;
			add(c, p, (size_t)(q - p));
			c->pos += (size_t)(q - p);
			if (q < e) {
				c->pos++;
				st = QUOTE;
			}
			continue;
		case QUOTE:
			switch (*p) {
			case '"':
				c->pos++;
				add(c, "\"", 1);
				st = QUOTED;
				continue;
			case ',':
				c->pos++;
				endfield(c);
				st = START;
				continue;
			case '\n':
				c->pos++;
				endline(c, 0);
				return 1;
			case '\r':
				if (!c->crlf)
					break;
				c->pos++;
				st = QUOTECR;
				continue;
			}
			if (c->flags & TL_CSV_LAX) {	/* more of the field */
				st = PLAIN;
				continue;
			}
			break;
		case QUOTECR:
			if (*p == '\n') {
				c->pos++;
				endline(c, 1);
				return 1;
			}
			if (c->flags & TL_CSV_LAX) {
				add(c, "\r", 1);
				st = PLAIN;
				continue;
			}
			break;
		}
		tl_errx_at(c->name, c->line,
		    "text after the closing quote of a field");
	}
	switch (st) {
	case BOM:
		add(c, bom, nb);
		st = nb > 0 ? PLAIN : START;
		break;
	case QUOTED:
		tl_errx_at(c->name, qline,
		    "a quoted field starts here and does not end");
	case QUOTECR:
		if (!(c->flags & TL_CSV_LAX))
			tl_errx_at(c->name, c->line,
			    "text after the closing quote of a field");
		/* FALLTHROUGH */
	case PLAINCR:
		add(c, "\r", 1);
		break;
	}
	if (st == START && c->nf == 0)
		return 0;	/* nothing after the last line end */
	endfield(c);
	return 1;
}

struct tl_csv *
tl_csv_open(struct tl_src *src, int flags)
{
	struct tl_csv *c;
	size_t i, n;

	c = xcalloc(1, sizeof *c);
	c->src = src;
	c->name = tl_in_name(src);
	c->flags = flags;
	c->bom = (flags & TL_CSV_BOM) != 0;
	c->crlf = flags & TL_CSV_CRLF ? 1 : -1;	/* -1: the header tells */
	c->line = 1;
	/* So that a field view always points into a buffer. */
	xgrow(&c->rec, &c->caprec, 64, 1);
	xgrow(&c->off, &c->capoff, 2, sizeof *c->off);
	if (record(c)) {
		c->ncol = c->nf;
		c->col = xcalloc(c->ncol, sizeof *c->col);
		c->cl = xcalloc(c->ncol, sizeof *c->cl);
		for (i = 0; i < c->ncol; i++) {
			n = c->off[i + 1] - c->off[i];
			c->col[i] = xmemdup(c->rec + c->off[i], n);
			c->cl[i] = n;
		}
	}
	c->f = xcalloc(c->ncol > 0 ? c->ncol : 1, sizeof *c->f);
	c->fl = xcalloc(c->ncol > 0 ? c->ncol : 1, sizeof *c->fl);
	return c;
}

int
tl_csv_next(struct tl_csv *c)
{
	size_t i;

	if (c->ncol == 0 || !record(c))
		return 0;
	if (c->nf > c->ncol ||
	    (c->nf < c->ncol && !(c->flags & TL_CSV_SHORT)))
		tl_csv_errx(c, "expected %zu fields, found %zu", c->ncol,
		    c->nf);
	for (i = 0; i < c->ncol; i++)
		if (i < c->nf) {
			c->f[i] = c->rec + c->off[i];
			c->fl[i] = c->off[i + 1] - c->off[i];
		} else {
			c->f[i] = c->rec + c->nrec;
			c->fl[i] = 0;
		}
	return 1;
}

void
tl_csv_close(struct tl_csv *c)
{
	if (c == NULL)
		return;
	xfreev(c->col, c->ncol);
	free(c->cl);
	free(c->f);
	free(c->fl);
	free(c->rec);
	free(c->off);
	free(c);
}

/* TL_SAFE_CSV: a field a spreadsheet would take for a formula. */
static int
formula(const char *s, size_t n)
{
	static int safe = -1;
	char num[64], *end;

	if (safe < 0) {
		const char *e = getenv("TL_SAFE_CSV");

		safe = e != NULL && *e != '\0' && strcmp(e, "0") != 0;
	}
	if (!safe || n == 0 || strchr("=+-@\t\r", s[0]) == NULL ||
	    s[0] == '\0')
		return 0;
	if (n < sizeof num) {	/* a number, such as -1.5, is no formula */
		memcpy(num, s, n);
		num[n] = '\0';
		(void)strtod(num, &end);
		if (end == num + n && n > 1)
			return 0;
	}
	return 1;
}

void
tl_out_csvfield(struct tl_out *o, const char *s, size_t n)
{
	const char *q;
	size_t i;

	if (formula(s, n))
		tl_out_char(o, '\'');

	for (i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
			break;
	if (i == n) {
		tl_out_raw(o, s, n);
		return;
	}
	/* Quoted, each '"' doubled: the runs between them at once. */
	tl_out_char(o, '"');
	while ((q = memchr(s, '"', n)) != NULL) {
		tl_out_raw(o, s, (size_t)(q - s) + 1);
		tl_out_char(o, '"');
		n -= (size_t)(q - s) + 1;
		s = q + 1;
	}
	tl_out_raw(o, s, n);
	tl_out_char(o, '"');
}
