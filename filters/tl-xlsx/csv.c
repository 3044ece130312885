/*
 * tl-xlsx: CSV files (RFC 4180, as pandas writes them) read a record at
 * a time, from the chunks of the input layer, into the view of a table
 * that the tl-tsv(5) reader gives: header names, and the fields of the
 * current record with their lengths. Fields are decoded into one buffer
 * that holds a record, so memory is that of the longest record.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/limit.h"
#include "../../common/mem.h"
#include "../../common/tsv.h"
#include "xlsx.h"

/* Where a record's parse is. */
enum {
	START,		/* a field starts */
	PLAIN,		/* in an unquoted field */
	PLAINCR,	/* in an unquoted field, after a CR */
	QUOTED,		/* in a quoted field */
	QUOTE,		/* after a quote in a quoted field: the end, or "" */
	QUOTECR		/* after a quoted field and a CR */
};

/* The bytes that end a run of unquoted text. */
static const unsigned char stop[256] = {
	['\n'] = 1, ['\r'] = 1, [','] = 1, ['"'] = 1
};

static noreturn void
bad(const struct xl_csv *c, uint64_t line, const char *what)
{
	tl_errx(1, "%s:%" PRIu64 ": %s", c->name, line, what);
}

static void
add(struct xl_csv *c, const char *p, size_t n)
{
	uint64_t l = tl_limit[TL_LIM_LINE];
	char b[TL_LIMIT_STRMAX], msg[96];

	if (n == 0)
		return;
	if (l != 0 && c->nrec + n > l) {
		snprintf(msg, sizeof msg, "record longer than the limit "
		    "(--limit %s)", tl_limit_str(b, TL_LIM_LINE));
		bad(c, c->lineno, msg);
	}
	if (c->caprec - c->nrec < n)
		xgrow(&c->rec, &c->caprec, c->nrec + n, 1);
	memcpy(c->rec + c->nrec, p, n);
	c->nrec += n;
}

/* The current field ends; the next starts. */
static void
endfield(struct xl_csv *c)
{
	if (c->capoff - c->nf < 2)
		xgrow(&c->off, &c->capoff, c->nf + 2, sizeof *c->off);
	c->off[++c->nf] = c->nrec;
}

/* 1 when there is a byte at pos, 0 at the end of the stream. */
static int
fill(struct xl_csv *c)
{
	int r;

	while (c->pos == c->nchunk) {
		if (c->eof)
			return 0;
		r = tl_in_chunk(c->src, &c->chunk, &c->nchunk);
		if (r < 0)
			tl_exit(1);	/* reported */
		c->pos = 0;
		if (r == 0) {
			c->eof = 1;
			c->nchunk = 0;
			return 0;
		}
	}
	return 1;
}

/*
 * The next record into rec and off[0..nf]: 1, or 0 at the end. The
 * last record may lack its line end. A record ends at LF, or, when the
 * header ended at CR LF, at CR LF; any other CR is text, as pandas
 * writes a CR unquoted.
 */
static int
record(struct xl_csv *c)
{
	const char *p, *e, *q, *nl;
	uint64_t qline = 0;
	int st = START;

	c->nrec = c->nf = 0;
	c->lineno = c->line;
	if (!fill(c))
		return 0;
	if (c->capoff < 2)
		xgrow(&c->off, &c->capoff, 2, sizeof *c->off);
	c->off[0] = 0;
	while (fill(c)) {
		p = c->chunk + c->pos;
		e = c->chunk + c->nchunk;
		switch (st) {
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
				c->line++;
				endfield(c);
				if (c->crlf < 0)
					c->crlf = 0;
				return 1;
			case '\r':
				if (c->crlf)
					st = PLAINCR;
				else
					add(c, "\r", 1);
				break;
			default:
				bad(c, c->line, "a quote in a field that is "
				    "not quoted");
			}
			continue;
		case PLAINCR:	/* a CR is text unless a LF follows */
			if (*p == '\n') {
				c->pos++;
				c->line++;
				endfield(c);
				c->crlf = 1;
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
			c->pos++;
			switch (*p) {
			case '"':
				add(c, "\"", 1);
				st = QUOTED;
				continue;
			case ',':
				endfield(c);
				st = START;
				continue;
			case '\n':
				c->line++;
				endfield(c);
				if (c->crlf < 0)
					c->crlf = 0;
				return 1;
			case '\r':
				if (!c->crlf)
					break;
				st = QUOTECR;
				continue;
			}
			break;
		case QUOTECR:
			if (*p == '\n') {
				c->pos++;
				c->line++;
				endfield(c);
				c->crlf = 1;
				return 1;
			}
			break;
		}
		bad(c, c->line, "text after the closing quote of a field");
	}
	if (st == QUOTED)
		bad(c, qline, "a quoted field starts here and does not end");
	if (st == QUOTECR)
		bad(c, c->line, "text after the closing quote of a field");
	if (st == PLAINCR)
		add(c, "\r", 1);
	endfield(c);
	return 1;
}

struct xl_csv *
xl_csv_open(struct tl_src *src)
{
	struct xl_csv *c;
	const char *s;
	size_t i, j, n;
	char msg[160];

	c = xcalloc(1, sizeof *c);
	c->src = src;
	c->name = tl_in_name(src);
	c->line = 1;
	c->crlf = -1;		/* the header's line end tells */
	if (!record(c) || (c->nf == 1 && c->off[1] == 0)) {
		/* No columns: an empty table, as tl-report has shown it. */
		c->ncol = 1;
		c->col = xcalloc(1, sizeof *c->col);
		c->col[0] = xstrdup("note");
		c->note = 1;
	} else {
		c->ncol = c->nf;
		c->col = xcalloc(c->ncol, sizeof *c->col);
		for (i = 0; i < c->ncol; i++) {
			s = c->rec + c->off[i];
			n = c->off[i + 1] - c->off[i];
			if (n == 0) {
				snprintf(msg, sizeof msg, "column %zu has an "
				    "empty name", i + 1);
				bad(c, 1, msg);
			}
			if (memchr(s, '\0', n) != NULL) {
				snprintf(msg, sizeof msg, "column %zu has a "
				    "NUL byte in its name", i + 1);
				bad(c, 1, msg);
			}
			/* As a stream's header has it, so that -H and
			 * the charts see the names a stream would give. */
			c->col[i] = xmalloc(2 * n + 1);
			c->col[i][tl_tsv_escape(c->col[i], s, n)] = '\0';
			for (j = 0; j < i; j++)
				if (strcmp(c->col[j], c->col[i]) == 0)
					tl_errx(1, "%s:1: duplicate column "
					    "\"%s\"", c->name, c->col[i]);
		}
	}
	c->f = xcalloc(c->ncol, sizeof *c->f);
	c->fl = xcalloc(c->ncol, sizeof *c->fl);
	return c;
}

int
xl_csv_next(struct xl_csv *c)
{
	size_t i;
	char msg[96];

	if (c->note) {
		c->note = 0;
		c->lineno = 1;
		c->f[0] = "no rows";
		c->fl[0] = strlen(c->f[0]);
		return 1;
	}
	if (!record(c))
		return 0;
	if (c->nf != c->ncol) {
		snprintf(msg, sizeof msg, "expected %zu fields, found %zu",
		    c->ncol, c->nf);
		bad(c, c->lineno, msg);
	}
	for (i = 0; i < c->ncol; i++) {
		c->f[i] = c->rec + c->off[i];
		c->fl[i] = c->off[i + 1] - c->off[i];
	}
	return 1;
}

void
xl_csv_close(struct xl_csv *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->ncol; i++)
		free(c->col[i]);
	free(c->col);
	free(c->f);
	free(c->fl);
	free(c->rec);
	free(c->off);
	free(c);
}
