/*
 * tl-xlsx: write tl-tsv(5) streams (or CSV files) into one .xlsx
 * workbook, one sheet each, with libxlsxwriter in constant-memory mode:
 * a row goes to disk as soon as it is read, so a large sheet does not
 * grow the process.
 * Sheet names come from the file names or from name=file operands, cut
 * to Excel's 31 characters without collisions; the header row is frozen
 * and filtered, columns fit their text, numbers are stored as numbers,
 * columns that -H names are hidden, and a stream longer than a sheet
 * goes on over continuation sheets. Sheets that hold a GPU timeline, the
 * ops by name or roofline numbers get a chart. The workbook is written
 * to a temporary file beside the output and renamed when it is complete;
 * an output that is not a regular file (/dev/full, /dev/stdout, a FIFO,
 * a symbolic link) is written into, from a temporary file in TMPDIR.
 * The parts of the workbook are deflated at the level of -z, set through
 * zlib's deflateInit2_, which this program defines over zlib's own; and
 * libxlsxwriter's temporary files are made by this program's
 * lxw_tmpfile, defined over the library's, so that a write to them that
 * fails is known.
 */
#define _GNU_SOURCE	/* RTLD_NEXT */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xlsxwriter.h>
#include <zlib.h>

#include "../common/csv.h"
#include "../common/err.h"
#include "../common/file.h"
#include "../common/input.h"
#include "../common/json.h"
#include "../common/limit.h"
#include "../common/mem.h"
#include "../common/opt.h"
#include "../common/share.h"
#include "../common/tsv.h"
#include "tl-xlsx/xlsx.h"

#define MAXWIDTH	60	/* characters; wider text is cut on screen */
#define GENWIDTH	11	/* what General shows of a fraction */

/* Options. */
static char **hide;		/* -H patterns */
static size_t nhide;
static unsigned long maxrows = XL_MAXROWS;
static const char *outpath, *archpath, *tsvdir;
static char *xltmp;		/* libxlsxwriter's temporary files */
static int csv;			/* -c: every input is a CSV file */
static int zlevel = 1;		/* -z */

/* The workbook. */
static lxw_workbook *wb;
static lxw_format *fhead, *fint, *fdec3, *fpct;
static lxw_format **cfmt;	/* each column's format for fractions */
static size_t capcfmt;
static char *tmppath;
static int copyout;		/* copy tmppath into the output at the end */
static volatile sig_atomic_t done;
static int tmperr;		/* the first failed read or write of a
				   temporary file of libxlsxwriter's */

/* One operand. */
struct operand {
	const char *arg;	/* as given */
	const char *path;
	char *name;		/* explicit name, or NULL */
};

/*
 * A table being read, a stream or a CSV file: what stream() sees of
 * either reader.
 */
struct table {
	struct tl_tsv *tsv;	/* a stream, or */
	struct tl_csv *csv;	/* a CSV file */
	const char *name;
	uint64_t lineno;	/* of the current record */
	size_t ncol;
	char **col;
	char **f;		/* the current record's fields */
	size_t *fl;
	char **ccol;		/* a CSV file's names, escaped, or the note */
	int note;		/* 1: the "no rows" row is still to come */
	char *notef[1];		/* that row */
	size_t notefl[1];
	/* The first rows, read ahead (see lookahead), replayed first. */
	struct look *la;
	size_t nla, capla, ila;
	int replayed;		/* the current record is one of them */
	int held;		/* then the reader's record, not copied */
	uint64_t heldline;
};

/* A record read ahead: its fields in one block. */
struct look {
	char *buf, **f;
	size_t *fl;
	uint64_t lineno;
};

static void lookfree(struct table *);

#define LOOKROWS	1000		/* rows read ahead, at most */
#define LOOKBYTES	(4u << 20)	/* and their bytes */

/* The sheet being written. */
struct sheet {
	lxw_worksheet *ws;
	char name[XL_NAMECAP];
	uint32_t row;		/* next row */
	size_t ncol;
	unsigned *width;
	unsigned char *hidden;
};

static char *buf;		/* a cell's text, NUL-terminated */
static size_t capbuf;
static double *num;
static size_t capnum;

static const char usage[] =
    "usage: tl-xlsx [-c] [-b label=column[,column...]] "
    "[-H column[,column...]]\n"
    "               [-n rows] [-r arch] [-z level] -o file.xlsx "
    "[[name=]file ...]\n"
    "       tl-xlsx [-c] -t dir [[name=]file ...]\n";

typedef int deflateinit(z_streamp, int, int, int, int, int, const char *,
    int);

/* zlib's deflateInit2_, or an error that says why there is none. */
static deflateinit *
zlib_deflate(void)
{
	static deflateinit *real;
	void *p;
	const char *why;

	if (real == NULL) {
		if ((p = dlsym(RTLD_NEXT, "deflateInit2_")) == NULL) {
			why = dlerror();
			tl_errx(1, "zlib's deflateInit2_ not found: %s",
			    why != NULL ? why : "no such symbol");
		}
		memcpy(&real, &p, sizeof real);
	}
	return real;
}

/*
 * minizip, which libxlsxwriter zips the workbook with, asks zlib for its
 * default level, with no way to ask for another: this definition, which
 * the executable exports (see LIBS_tl-xlsx in the Makefile), comes
 * before zlib's in the symbol lookup and passes on the level of -z.
 * Other levels are passed on as they are.
 */
int
deflateInit2_(z_streamp strm, int level, int method, int windowBits,
    int memLevel, int strategy, const char *version, int stream_size)
{
	if (level == Z_DEFAULT_COMPRESSION)
		level = zlevel;
	return zlib_deflate()(strm, level, method, windowBits, memLevel,
	    strategy, version, stream_size);
}

/*
 * That the dynamic linker gives the executable's own definition of name
 * (mine: a pointer to the function's pointer), or the error that says
 * what cannot be done without it.
 */
static void
exported(const char *name, const void *mine, const char *what)
{
	void *p = dlsym(RTLD_DEFAULT, name);

	if (memcmp(&p, mine, sizeof p) != 0)
		tl_errx(1, "cannot %s: this tl-xlsx does not export %s (link "
		    "it with -Wl,--export-dynamic-symbol=%s)", what, name,
		    name);
}

/*
 * Check, before any work, that zlib is there and that minizip's and
 * libxlsxwriter's calls come here: deflateInit2_ and lxw_tmpfile.
 */
static void
zlib_check(void)
{
	deflateinit *dz = deflateInit2_;
	FILE *(*tf)(char *) = lxw_tmpfile;

	zlib_deflate();
	exported("deflateInit2_", &dz, "set zlib's level");
	exported("lxw_tmpfile", &tf, "check libxlsxwriter's temporary files");
}

/*
 * libxlsxwriter's temporary files (the rows of each sheet, then each part
 * of the workbook before it is zipped), in its tmpdir: libxlsxwriter does
 * not look at what fwrite and fprintf return, so a TMPDIR that fills up
 * gave a workbook of parts cut short, and no error. This definition,
 * which the executable exports as it does deflateInit2_, comes before
 * the library's own (its calls go through the PLT); its streams keep the
 * first error of a read or write in tmperr, and bookclose fails with it.
 * Their buffer is larger than stdio's, for fewer write(2)s.
 */
static ssize_t
tmpread(void *c, char *b, size_t n)
{
	ssize_t k;

	while ((k = read(*(int *)c, b, n)) < 0 && errno == EINTR)
		;
	if (k < 0 && tmperr == 0)
		tmperr = errno;
	return k;
}

static ssize_t
tmpwrite(void *c, const char *b, size_t n)
{
	size_t off = 0;
	ssize_t k;

	while (off < n) {
		if ((k = write(*(int *)c, b + off, n - off)) < 0) {
			if (errno == EINTR)
				continue;
			if (tmperr == 0)
				tmperr = errno;
			return 0;	/* an error, to stdio */
		}
		off += (size_t)k;
	}
	return (ssize_t)n;
}

static int
tmpseek(void *c, off64_t *off, int whence)
{
	off_t r = lseek(*(int *)c, (off_t)*off, whence);

	if (r < 0)
		return -1;
	*off = r;
	return 0;
}

static int
tmpclose(void *c)
{
	int r = close(*(int *)c);

	free(c);
	return r;
}

FILE *
lxw_tmpfile(char *dir)
{
	static const cookie_io_functions_t io = { tmpread, tmpwrite, tmpseek,
	    tmpclose };
	char *path;
	int *c, fd;
	FILE *f;

	path = dir != NULL ? tl_tmpin(dir, "lxw") : tl_tmppath("lxw");
	if ((fd = mkstemp(path)) < 0) {
		if (tmperr == 0)
			tmperr = errno;
		free(path);
		return NULL;
	}
	unlink(path);
	free(path);
	c = xmalloc(sizeof *c);
	*c = fd;
	if ((f = fopencookie(c, "w+", io)) == NULL) {
		if (tmperr == 0)
			tmperr = errno;
		close(fd);
		free(c);
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 64 << 10);
	return f;
}

/* Remove the temporary workbook unless it was renamed. */
static void
cleanup(void)
{
	DIR *d;
	struct dirent *e;
	char path[PATH_MAX];

	if (tmppath != NULL && !done)
		unlink(tmppath);
	/* libxlsxwriter's own temporary files, in a directory of ours. */
	if (xltmp != NULL && (d = opendir(xltmp)) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") != 0 &&
			    strcmp(e->d_name, "..") != 0 &&
			    snprintf(path, sizeof path, "%s/%s", xltmp,
			    e->d_name) < (int)sizeof path)
				unlink(path);
		closedir(d);
		rmdir(xltmp);
	}
}

static void
onsignal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int
hidden(const char *col)
{
	size_t i;

	for (i = 0; i < nhide; i++)
		if (fnmatch(hide[i], col, 0) == 0)
			return 1;
	return 0;
}

static void
xlcheck(lxw_error e, const struct sheet *s)
{
	if (e != LXW_NO_ERROR)
		tl_errx(1, "sheet \"%s\": %s", s->name, lxw_strerror(e));
}

/*
 * A number, as the stream writes them: -?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][-+]?[0-9]+)?, finite; an integer of 2^53 or more stays text, as
 * Excel could not keep its digits. *isint when there is no fraction
 * or exponent.
 */
static int
number(const char *s, size_t n, double *v, int *isint)
{
	char tmp[400];

	if (n >= sizeof tmp || !tl_jnumber(s, n))
		return 0;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	*isint = tmp[strcspn(tmp, ".eE")] == '\0';
	*v = strtod(tmp, NULL);
	if (!isfinite(*v))
		return 0;
	if (*isint && fabs(*v) >= 9007199254740992.0)
		return 0;
	return 1;
}

/*
 * The bytes text() may write with o written and n bytes of input to go:
 * 3 for each, or 7 for each character a cell holds (_xFFFE_), whichever
 * is less, so that a long field costs no more than what is kept of it.
 */
static size_t
textcap(size_t o, size_t n)
{
	size_t most = 7 * (size_t)XL_MAXSTR + 8;

	return n < most / 3 && o + 3 * n + 8 < most ? o + 3 * n + 8 : most;
}

/*
 * The text of a cell into buf: invalid UTF-8 (and NUL) as U+FFFD, U+FFFE
 * and U+FFFF (which XML does not allow) as _xFFFE_ and _xFFFF_, a
 * literal _xHHHH_ escaped as _x005F_xHHHH_ so that Excel shows it as it
 * is, at most XL_MAXSTR characters. Sets *chars (UTF-16 units), *bad,
 * *cut.
 */
static void
text(const char *s, size_t n, size_t *chars, int *bad, int *cut)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, o = 0, k, units = 0, u;

	*bad = *cut = 0;
	xgrow(&buf, &capbuf, textcap(0, n), 1);
	while (i < n) {
		k = tl_utf8len(p + i, n - i);
		u = k == 4 ? 2 : 1;
		/* strspn stops at the '_' at i + 6, within s */
		if (k == 1 && p[i] == '_' && n - i >= 7 && p[i + 1] == 'x' &&
		    p[i + 6] == '_' && strspn(s + i + 2,
		    "0123456789abcdefABCDEF") == 4) {
			if (units + 6 + 1 > XL_MAXSTR) {
				*cut = 1;
				break;
			}
			xgrow(&buf, &capbuf, textcap(o + 6, n - i), 1);
			memcpy(buf + o, "_x005F", 6);
			o += 6;
			units += 6;
		}
		if (units + u > XL_MAXSTR) {
			*cut = 1;
			break;
		}
		if (k == 0) {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
			*bad = 1;
		} else if (XL_NONCHAR(p + i, k)) {
			/* Not allowed in XML: Excel's escape, which it undoes. */
			memcpy(buf + o, p[i + 2] == 0xbe ? "_xFFFE_" : "_xFFFF_",
			    7);
			o += 7;
			i += k;
		} else {
			memcpy(buf + o, s + i, k);
			o += k;
			i += k;
		}
		units += u;
	}
	buf[o] = '\0';
	*chars = units;
}

/* Widths are in characters; the header has room for the filter button. */
static void
fit(struct sheet *s, size_t i, size_t chars)
{
	if (chars > MAXWIDTH)
		chars = MAXWIDTH;
	if (chars > s->width[i])
		s->width[i] = (unsigned)chars;
}

/*
 * The number format of a column, by its name: percentages with two
 * decimals; times (ms, us), rates and sizes with three; counts, and
 * anything else, as Excel shows them.
 * The cells keep every digit; this is how they are shown.
 */
static lxw_format *
colfmt(const char *name)
{
	static const char *const pct[] = { "percent", "%", "pct", NULL };
	static const char *const dec3[] = { "time", "duration", "_ms", "_us",
	    "(ms)", "(us)", "(\302\265s)", "latency", "delay", "flops",
	    "tb/s", "gb/s", "(mb)", "/byte", "per_byte", NULL };
	int i;

	if (strcasestr(name, "count") != NULL)
		return NULL;
	for (i = 0; pct[i] != NULL; i++)
		if (strcasestr(name, pct[i]) != NULL)
			return fpct;
	for (i = 0; dec3[i] != NULL; i++)
		if (strcasestr(name, dec3[i]) != NULL)
			return fdec3;
	return NULL;
}

static void
newsheet(struct sheet *s, char **col)
{
	size_t i, chars;
	int bad, cut;

	errno = 0;
	s->ws = workbook_add_worksheet(wb, s->name);
	if (s->ws == NULL && errno != 0)	/* its temporary file: EMFILE */
		tl_err(1, "sheet \"%s\": cannot add it", s->name);
	if (s->ws == NULL)
		tl_errx(1, "sheet \"%s\": cannot add it", s->name);
	/* Printed: landscape, as wide as the page, the header on each. */
	worksheet_set_landscape(s->ws);
	worksheet_fit_to_pages(s->ws, 1, 0);
	xlcheck(worksheet_repeat_rows(s->ws, 0, 0), s);
	xgrow(&cfmt, &capcfmt, s->ncol, sizeof *cfmt);
	for (i = 0; i < s->ncol; i++) {
		cfmt[i] = colfmt(col[i]);
		s->width[i] = 0;
		text(col[i], strlen(col[i]), &chars, &bad, &cut);
		xlcheck(worksheet_write_string(s->ws, 0, (lxw_col_t)i, buf,
		    fhead), s);
		fit(s, i, chars + 3);
	}
	worksheet_freeze_panes(s->ws, 1, 0);
	s->row = 1;
}

static void
endsheet(struct sheet *s)
{
	lxw_row_col_options o;
	size_t i;

	if (s->ws == NULL)
		return;
	xlcheck(worksheet_autofilter(s->ws, 0, 0, s->row - 1,
	    (lxw_col_t)(s->ncol - 1)), s);
	for (i = 0; i < s->ncol; i++) {
		memset(&o, 0, sizeof o);
		o.hidden = s->hidden[i];
		xlcheck(worksheet_set_column_opt(s->ws, (lxw_col_t)i,
		    (lxw_col_t)i, s->width[i] + 1, NULL, &o), s);
	}
}

/*
 * A CSV file as a table: as a stream, each column has a name, no two the
 * same, shown with a stream's escapes. A file with no columns (empty, or
 * a first record of one empty field, as pandas writes an empty table)
 * is the column "note" and the row "no rows".
 */
static void
csvopen(struct table *t, struct tl_src *src)
{
	struct tl_csv *c;
	size_t i, n;

	c = t->csv = tl_csv_open(src, 0);
	t->name = c->name;
	t->f = c->f;
	t->fl = c->fl;
	if (c->ncol == 0 || (c->ncol == 1 && c->cl[0] == 0)) {
		t->ncol = 1;
		t->ccol = xcalloc(1, sizeof *t->ccol);
		t->ccol[0] = xstrdup("note");
		t->col = t->ccol;
		t->note = 1;
		return;
	}
	t->ncol = c->ncol;
	t->ccol = xcalloc(t->ncol, sizeof *t->ccol);
	t->col = t->ccol;
	for (i = 0; i < t->ncol; i++) {
		n = c->cl[i];
		t->ccol[i] = xmalloc(2 * n + 1);
		t->ccol[i][tl_tsv_escape(t->ccol[i], c->col[i], n)] = '\0';
		tl_tsv_checkcol(c->name, c->lineno, t->ccol, i, c->col[i], n);
	}
}

/* The current stream of src as a table: a CSV file, or a stream. */
static void
topen(struct table *t, struct tl_src *src, int iscsv)
{
	memset(t, 0, sizeof *t);
	if (iscsv)
		csvopen(t, src);
	else {
		t->tsv = tl_tsv_open(src);
		t->name = t->tsv->name;
		t->ncol = t->tsv->ncol;
		t->col = t->tsv->col;
		t->f = t->tsv->f;
		t->fl = t->tsv->fl;
	}
}

static void
tclose(struct table *t)
{
	lookfree(t);
	xfreev(t->ccol, t->ncol);
	tl_csv_close(t->csv);
	tl_tsv_close(t->tsv);
}

/*
 * Field i as text: a stream's escapes decoded; NULL when empty. A record
 * read ahead holds its fields decoded.
 */
static const char *
tstr(struct table *t, size_t i, size_t *len)
{
	if (t->tsv != NULL && !t->replayed)
		return tl_tsv_str(t->tsv, (int)i, len);
	*len = t->fl[i];
	return t->fl[i] > 0 ? t->f[i] : NULL;
}

/* The next record read from a table: 1, or 0 at the end. */
static int
tread(struct table *t)
{
	int r;

	if (t->note) {
		t->note = 0;
		t->lineno = 1;
		t->notef[0] = "no rows";
		t->notefl[0] = strlen(t->notef[0]);
		t->f = t->notef;
		t->fl = t->notefl;
		return 1;
	}
	if (t->csv != NULL) {
		t->f = t->csv->f;
		t->fl = t->csv->fl;
		r = tl_csv_next(t->csv);
		t->lineno = t->csv->lineno;
	} else {
		t->f = t->tsv->f;
		t->fl = t->tsv->fl;
		r = tl_tsv_next(t->tsv);
		t->lineno = t->tsv->lineno;
	}
	return r;
}

static void
lookfree(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nla; i++) {
		free(t->la[i].buf);
		free(t->la[i].f);
		free(t->la[i].fl);
	}
	free(t->la);
	t->la = NULL;
	t->nla = t->capla = t->ila = 0;
}

/* The next record of a table, those read ahead first: 1, or 0 at the end. */
static int
tnext(struct table *t)
{
	struct look *l;

	t->replayed = 0;
	if (t->ila < t->nla) {
		l = &t->la[t->ila++];
		t->f = l->f;
		t->fl = l->fl;
		t->lineno = l->lineno;
		t->replayed = 1;
		return 1;
	}
	if (t->la != NULL)
		lookfree(t);
	if (t->held) {
		t->held = 0;
		t->f = t->csv != NULL ? t->csv->f : t->tsv->f;
		t->fl = t->csv != NULL ? t->csv->fl : t->tsv->fl;
		t->lineno = t->heldline;
		return 1;
	}
	return tread(t);
}

/* inf, -inf, nan, Infinity...: what a number column may hold as text. */
static int
nonfinite(const char *s, size_t n)
{
	if (n > 0 && (*s == '-' || *s == '+')) {
		s++;
		n--;
	}
	return (n == 3 && (strncasecmp(s, "inf", 3) == 0 ||
	    strncasecmp(s, "nan", 3) == 0)) ||
	    (n == 8 && strncasecmp(s, "infinity", 8) == 0);
}

/*
 * Read ahead the first rows of a table (LOOKROWS, LOOKBYTES at most) and
 * mark in text[] each column that holds a field that is not a number
 * (nor inf or nan, which a column of numbers may hold):
 * its cells are text all the way down, so that an op named 1e5 or -0 is
 * not the number 100000 or 0 (a column's kind decides, not the look of
 * one value). The record that would pass LOOKBYTES is looked at where
 * the reader holds it, not copied, and comes after those read ahead, so
 * that no record is held twice.
 */
static void
lookahead(struct table *t, unsigned char *text)
{
	struct look *l;
	size_t i, sz, bytes = 0, n;
	const char *s;
	double v;
	int isint;
	char *p;

	while (t->nla < LOOKROWS && bytes < LOOKBYTES && tread(t)) {
		for (i = 0, sz = 0; i < t->ncol; i++)
			sz += t->fl[i];	/* a field only shrinks, unescaped */
		l = NULL;
		p = NULL;
		if (sz <= LOOKBYTES - bytes) {
			xgrow(&t->la, &t->capla, t->nla + 1, sizeof *t->la);
			l = &t->la[t->nla++];
			l->f = xmalloc((t->ncol ? t->ncol : 1) * sizeof *l->f);
			l->fl = xmalloc((t->ncol ? t->ncol : 1) *
			    sizeof *l->fl);
			p = l->buf = xmalloc(sz + 1);
			l->lineno = t->lineno;
		}
		for (i = 0; i < t->ncol; i++) {
			/* kept as text, a stream's escapes decoded */
			if ((s = tstr(t, i, &n)) == NULL)
				n = 0;
			if (l != NULL) {
				if (n > 0)
					memcpy(p, s, n);
				l->f[i] = p;
				l->fl[i] = n;
				p += n;
			}
			if (n > 0 && !number(s, n, &v, &isint) &&
			    !nonfinite(s, n))
				text[i] = 1;
		}
		if (l == NULL) {
			t->held = 1;
			t->heldline = t->lineno;
			break;
		}
		bytes += sz;
	}
}

/* One table: one sheet, and its continuation sheets. */
static void
stream(struct table *t, const char *name)
{
	struct sheet s;
	struct xl_chart *ch;
	struct tl_warns w = { 0 };
	char base[XL_NAMECAP], prev[XL_NAMECAP], q[TL_QUOTE_MAX];
	lxw_worksheet *first;
	size_t i, chars;
	unsigned part = 1;
	double v;
	int isint, bad, cut;
	const char *str;
	unsigned char *istext;	/* columns of text: no number cells */
	uint64_t nrows = 0, lim = tl_limit[TL_LIM_EVENTS];
	char lb[TL_LIMIT_STRMAX];

	memset(&s, 0, sizeof s);
	s.ncol = t->ncol;
	if (s.ncol > XL_MAXCOLS)
		tl_errx(1, "%s:1: %zu columns: more than a sheet holds (%d)",
		    t->name, s.ncol, XL_MAXCOLS);
	strcpy(s.name, name);
	strcpy(base, name);
	s.width = xcalloc(s.ncol, sizeof *s.width);
	s.hidden = xcalloc(s.ncol, 1);
	for (i = 0; i < s.ncol; i++)
		s.hidden[i] = (unsigned char)hidden(t->col[i]);
	xgrow(&num, &capnum, s.ncol, sizeof *num);
	istext = xcalloc(s.ncol ? s.ncol : 1, 1);
	lookahead(t, istext);
	newsheet(&s, t->col);
	first = s.ws;
	ch = xl_chart_begin(s.name, t->col, s.ncol);
	while (tnext(t)) {
		if (lim != 0 && ++nrows > lim)
			tl_errx(1, "%s:%" PRIu64 ": more than %" PRIu64 " rows "
			    "of one table to write (--limit %s)", t->name,
			    t->lineno, lim, tl_limit_str(lb, TL_LIM_EVENTS));
		if (s.row > maxrows) {
			endsheet(&s);
			strcpy(prev, s.name);
			xl_name_unique(base, ++part, s.name);
			tl_warnx("%s:%" PRIu64 ": sheet \"%s\" is full (%lu "
			    "rows): continued on sheet \"%s\"", t->name,
			    t->lineno, prev, maxrows, s.name);
			newsheet(&s, t->col);
		}
		for (i = 0; i < s.ncol; i++) {
			num[i] = NAN;
			if (t->fl[i] == 0)
				continue;
			if (!istext[i] &&
			    number(t->f[i], t->fl[i], &v, &isint)) {
				num[i] = v;
				xlcheck(worksheet_write_number(s.ws, s.row,
				    (lxw_col_t)i, v, cfmt[i] != NULL ? cfmt[i] :
				    isint ? fint : NULL), &s);
				fit(&s, i, isint || t->fl[i] < GENWIDTH ?
				    t->fl[i] : GENWIDTH);
				continue;
			}
			str = tstr(t, i, &chars);
			text(str, chars, &chars, &bad, &cut);
			if (bad)
				tl_warns(&w, "%s:%" PRIu64 ": column \"%s\": "
				    "not UTF-8, bad bytes written as U+FFFD: "
				    "\"%s\"", t->name, t->lineno, t->col[i],
				    tl_quote(q, sizeof q, t->f[i], t->fl[i]));
			if (cut)
				tl_warns(&w, "%s:%" PRIu64 ": column \"%s\": "
				    "text cut to the %d characters a cell "
				    "holds", t->name, t->lineno, t->col[i],
				    XL_MAXSTR);
			xlcheck(worksheet_write_string(s.ws, s.row,
			    (lxw_col_t)i, buf, NULL), &s);
			fit(&s, i, chars);
		}
		if (ch != NULL)
			xl_chart_row(ch, num, t->f, t->fl);
		s.row++;
	}
	tl_warns_end(&w, t->name);
	endsheet(&s);
	xl_chart_end(ch, first, s.ncol, maxrows);
	free(s.width);
	free(istext);
	free(s.hidden);
}

/*
 * -t: a table as the stream DIR/NAME.tsv: its header (a CSV file's names
 * are escaped already), then its records, a stream's as read.
 */
static void
tsvout(struct table *t, const char *name)
{
	struct tl_file f;
	char file[XL_NAMECAP + 4];
	size_t i, row;

	snprintf(file, sizeof file, "%s.tsv", name);
	if (tl_file_open(&f, tsvdir, file) < 0)
		exit(1);
	for (row = 0; row == 0 || tnext(t); row++) {
		for (i = 0; i < t->ncol; i++) {
			if (i > 0)
				tl_out_char(&f.out, '\t');
			if (row == 0)
				tl_out_cstr(&f.out, t->col[i]);
			else if (t->tsv != NULL)
				tl_out_raw(&f.out, t->f[i], t->fl[i]);
			else
				tl_out_field(&f.out, t->f[i], t->fl[i]);
		}
		tl_out_char(&f.out, '\n');
	}
	if (tl_file_close(&f) < 0)
		exit(1);
}

/*
 * name=file, unless the operand is a file that exists or the part
 * before = has a / (./a=b.tsv is a path).
 */
static void
split(char *arg, struct operand *op)
{
	char *eq = strchr(arg, '=');
	struct stat st;

	op->arg = xstrdup(arg);
	op->path = arg;
	op->name = NULL;
	if (eq == NULL || memchr(arg, '/', (size_t)(eq - arg)) != NULL ||
	    stat(arg, &st) == 0)
		return;
	*eq = '\0';
	op->name = arg;
	op->path = eq + 1;
}

/*
 * The file name of the current stream of an operand, as a copy: the
 * operand, or the member of an archive.
 */
static char *
member(struct tl_src *src, const char *path)
{
	const char *in = tl_in_name(src), *lp;
	size_t n;

	if (tl_src_container(src) && (lp = strchr(in, '(')) != NULL &&
	    (n = strlen(lp)) > 2 && lp[n - 1] == ')')
		return xmemdup(lp + 1, n - 2);
	return xstrdup(path);
}

/*
 * The temporary workbook: beside the output, to be renamed over it; or,
 * when the output is a device such as /dev/full or /dev/null, or a FIFO
 * (itself, or what a symbolic link names), in TMPDIR, to be copied into
 * it, since a rename would replace the device. A symbolic link to a
 * regular file, or to nothing, is replaced, never written through: one
 * planted in a shared directory cannot make the workbook overwrite the
 * file it names.
 */
static void
tmpfile_beside(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash != NULL ? (size_t)(slash - path + 1) : 0;
	struct stat st, lst;
	mode_t mask;
	int fd, there;

	if ((there = stat(path, &st) == 0) && S_ISDIR(st.st_mode))
		tl_errx(1, "%s: Is a directory", path);
	if (lstat(path, &lst) == 0 && !S_ISREG(lst.st_mode) &&
	    (!S_ISLNK(lst.st_mode) || (there && !S_ISREG(st.st_mode)))) {
		copyout = 1;
		tmppath = tl_tmppath("tl-xlsx");
	} else {
		tmppath = xmalloc(strlen(path) + 16);
		memcpy(tmppath, path, dl);
		snprintf(tmppath + dl, strlen(path) + 16 - dl, ".%s.XXXXXX",
		    path + dl);
	}
	if ((fd = mkstemp(tmppath)) < 0) {
		if (copyout)	/* the name of the directory */
			tl_err(1, "%.*s", (int)(strrchr(tmppath, '/') - tmppath),
			    tmppath);
		free(tmppath);
		tmppath = NULL;
		tl_err(1, "%s", path);
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0 || close(fd) != 0)
		tl_err(1, "%s", tmppath);
	atexit(cleanup);
	signal(SIGINT, onsignal);
	signal(SIGTERM, onsignal);
	signal(SIGHUP, onsignal);
	if (copyout && signal(SIGPIPE, onsignal) == SIG_IGN)
		signal(SIGPIPE, SIG_IGN);
}

/*
 * Copy the finished workbook into the output (see tmpfile_beside), with
 * the stream writer: its errors as every tool's, a closed pipe quiet.
 */
static void
copyinto(const char *path)
{
	struct tl_out o;
	char b[64 * 1024];
	ssize_t n;
	int in, fd;

	if ((in = open(tmppath, O_RDONLY)) < 0)
		tl_err(1, "%s", tmppath);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
		tl_err(1, "%s", path);
	tl_out_init(&o, fd, path);
	while ((n = read(in, b, sizeof b)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			tl_err(1, "%s", tmppath);
		}
		tl_out_raw(&o, b, (size_t)n);
	}
	tl_out_close(&o);
	if (close(fd) != 0)
		tl_err(1, "%s", path);
	close(in);
	unlink(tmppath);
}

/*
 * -r: an arch file, or the name of one of the share directory's, as
 * tl-roofline -a takes it: a name with no slash that is no file here.
 */
static void
archload(const char *arch)
{
	struct stat st;
	char *name, *path;

	if (strchr(arch, '/') != NULL || stat(arch, &st) == 0) {
		xl_arch_load(arch);
		return;
	}
	name = xmalloc(strlen(arch) + 10);
	sprintf(name, "arch/%s.tsv", arch);
	path = tl_sharepath(name);
	free(name);
	if (stat(path, &st) < 0)
		tl_errx(1, "-r: no arch file \"%s\", nor an arch of that name "
		    "in %s/arch (see tl-roofline -l)", arch, tl_sharedir());
	xl_arch_load(path);
	free(path);
}

/* The workbook, to hold insize bytes of tables. */
static void
bookopen(unsigned long long insize)
{
	lxw_workbook_options wo;

	if (archpath != NULL)
		archload(archpath);
	zlib_check();
	tmpfile_beside(outpath);
	memset(&wo, 0, sizeof wo);
	wo.constant_memory = LXW_TRUE;
	/*
	 * libxlsxwriter's temporary files (a sheet each) go into a directory
	 * of ours, removed at the end and on a signal, since it leaves them
	 * behind when the program is stopped.
	 */
	xltmp = tl_tmppath("tl-xlsx");
	if (mkdtemp(xltmp) == NULL) {
		free(xltmp);
		xltmp = NULL;
	}
	wo.tmpdir = xltmp;
	wo.use_zip64 = insize > (1ull << 30);
	if ((wb = workbook_new_opt(tmppath, &wo)) == NULL)
		tl_errx(1, "%s: cannot start a workbook", outpath);
	fhead = workbook_add_format(wb);
	format_set_bold(fhead);
	fint = workbook_add_format(wb);
	format_set_num_format(fint, "0");
	fdec3 = workbook_add_format(wb);
	format_set_num_format(fdec3, "0.000");
	fpct = workbook_add_format(wb);
	format_set_num_format(fpct, "0.00");
	xl_chart_init(wb);
}

/* The workbook finished and put in place of the output. */
static void
bookclose(void)
{
	lxw_error e;

	xl_chart_finish();
	e = workbook_close(wb);
	wb = NULL;
	if (tmperr != 0)
		tl_errx(1, "%s: libxlsxwriter's temporary files (in %s): %s",
		    outpath, xltmp != NULL ? xltmp : "TMPDIR",
		    strerror(tmperr));
	if (e != LXW_NO_ERROR)
		tl_errx(1, "%s: %s", outpath, lxw_strerror(e));
	if (copyout)
		copyinto(outpath);
	else if (rename(tmppath, outpath) != 0)
		tl_err(1, "%s", outpath);
	done = 1;
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "bars", required_argument, NULL, 'b' },
		{ "hide", required_argument, NULL, 'H' },
		{ "rows", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "arch", required_argument, NULL, 'r' },
		{ "tsv", required_argument, NULL, 't' },
		{ "csv", no_argument, NULL, 'c' },
		{ "level", required_argument, NULL, 'z' },
		{ NULL, 0, NULL, 0 }
	};
	struct operand *ops;
	struct tl_src *src;
	struct table tb;
	struct stat st;
	char name[XL_NAMECAP], *file, *deflt[] = { "-" };
	const char *why;
	unsigned long long insize = 0;
	int ch, i, j, nops, r, nstdin = 0, k;

	tl_setprogname(argv[0]);
	while ((ch = tl_getopt(argc, argv, "b:cH:n:o:r:t:z:", lopt, usage)) != -1) {
		switch (ch) {
		case 'b':
			if (!xl_chart_bars(optarg))
				tl_errx(1, "-b: not label=column[,column...] "
				    "(at most 16 columns): \"%s\"", optarg);
			break;
		case 'H':
			tl_optlist(optarg, &hide, &nhide);
			break;
		case 'n':
			maxrows = (unsigned long)tl_optnum("-n", optarg, 1,
			    XL_MAXROWS);
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'r':
			archpath = optarg;
			break;
		case 't':
			tsvdir = optarg;
			break;
		case 'c':
			csv = 1;
			break;
		case 'z':
			zlevel = (int)tl_optnum("-z", optarg, 0, 9);
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if ((outpath == NULL) == (tsvdir == NULL)) {
		tl_warnx(outpath == NULL ? "no output (-o file.xlsx or -t dir)"
		    : "-o and -t exclude each other");
		tl_usage(usage);
	}
	if (argc == 0) {
		argc = 1;
		argv = deflt;
	}
	nops = argc;
	ops = xcalloc((size_t)nops, sizeof *ops);
	for (i = 0; i < nops; i++) {
		split(argv[i], &ops[i]);
		if (strcmp(ops[i].path, "-") == 0 && ++nstdin > 1)
			tl_errx(1, "-: the standard input can be read once");
		if (stat(ops[i].path, &st) == 0)
			insize += (unsigned long long)st.st_size;
	}
	/* Explicit names first: they are kept as given, or refused. */
	for (i = 0; i < nops; i++) {
		if (ops[i].name == NULL)
			continue;
		if ((why = xl_name_check(ops[i].name, name)) != NULL)
			tl_errx(1, "sheet name \"%s\": %s", ops[i].name, why);
		if (xl_name_taken(name)) {
			for (j = 0, k = -1; j < i; j++)
				if (ops[j].name != NULL &&
				    strcasecmp(ops[j].name, name) == 0)
					k = j;
			tl_errx(1, "sheet name \"%s\" given twice: \"%s\" and "
			    "\"%s\" (Excel ignores case)", name,
			    k >= 0 ? ops[k].arg : "", ops[i].arg);
		}
		xl_name_use(name);
		ops[i].name = xstrdup(name);
	}
	if (tsvdir == NULL)
		bookopen(insize);
	else if (tl_mkdirs(tsvdir) < 0)
		tl_err(1, "%s", tsvdir);
	for (i = 0; i < nops; i++) {
		if ((src = tl_src_open(ops[i].path)) == NULL)
			exit(1);
		for (k = 0; (r = tl_src_next(src)) > 0; k++) {
			file = member(src, ops[i].path);
			topen(&tb, src, csv || xl_name_csv(file));
			if (ops[i].name != NULL && k == 0)
				strcpy(name, ops[i].name);
			else if (ops[i].name != NULL)
				xl_name_unique(ops[i].name, (unsigned)k + 1,
				    name);
			else {
				char d[XL_NAMECAP];

				if (strcmp(ops[i].path, "-") == 0)
					strcpy(d, "stdin");
				else
					xl_name_derive(file, d);
				xl_name_unique(d, 0, name);
			}
			free(file);
			if (tsvdir != NULL)
				tsvout(&tb, name);
			else
				stream(&tb, name);
			tclose(&tb);
		}
		if (r < 0)
			exit(1);
		tl_src_close(src);
	}
	if (tsvdir == NULL)
		bookclose();
	for (i = 0; i < nops; i++) {
		free(ops[i].name);
		free((char *)ops[i].arg);
	}
	free(ops);
	free(tmppath);
	free(hide);
	free(buf);
	free(num);
	free(cfmt);
	xl_name_free();
	return 0;
}
