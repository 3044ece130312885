/*
 * tl: a CSV reader, and the writer of a field. CSV files as RFC 4180 has them and pandas writes
 * them, read a record at a time from the chunks of the input layer into
 * the view of a table that the tl-tsv(5) reader gives: the header's
 * names, and the fields of the current record with their lengths.
 * Fields are decoded into one buffer that holds a record, so memory is
 * that of the longest record.
 *
 * Fields are separated by commas. A record ends at LF outside quotes,
 * or at CR LF when the header line ends so (always, with TL_CSV_CRLF);
 * any other CR is text, as pandas writes a CR without quotes. A field
 * that starts with a double quote ends at the next one that is not
 * doubled, and may hold commas, CR, LF and doubled quotes, each "" read
 * as one "; a quote in a field that does not start with one is an error.
 * The last record may lack its line end. The first record is the
 * header, and every record has as many fields; an empty stream has no
 * columns (ncol 0) and no records.
 * A record longer than --limit line (its decoded bytes) is an error.
 *
 * Errors exit with the status tl_failstatus (err.h) and the message
 * "PROG: NAME:LINE: what", LINE the line the record starts on, or the
 * line of the fault:
 *	a quoted field starts here and does not end
 *	a quote in a field that is not quoted
 *	text after the closing quote of a field
 *	expected N fields, found M
 *	record longer than the limit (--limit line=SIZE)
 *
 * The flags, for the rules of pandas's read_csv (tl-diff -K -T):
 *	TL_CSV_BLANK	blank lines (nothing before the line end, not even
 *			"") are passed over, before the header too; they
 *			count in LINE
 *	TL_CSV_CRLF	every CR LF outside quotes ends a record
 *	TL_CSV_BOM	a UTF-8 byte order mark that starts the stream is
 *			dropped
 *	TL_CSV_LAX	a quote in a field that does not start with one, and
 *			text after a closing quote, are text of the field:
 *			"a"b,c"d reads as ab and c"d
 *	TL_CSV_SHORT	a record may have fewer fields than the header; the
 *			missing ones read as empty (nf says how many it had)
 */
#ifndef TL_CSV_H
#define TL_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

#include "input.h"

enum {
	TL_CSV_BLANK = 1 << 0,
	TL_CSV_CRLF = 1 << 1,
	TL_CSV_BOM = 1 << 2,
	TL_CSV_LAX = 1 << 3,
	TL_CSV_SHORT = 1 << 4
};

struct tl_csv {
	struct tl_src *src;
	const char *name;	/* the stream's, for messages */
	uint64_t lineno;	/* the line the current record starts on */
	size_t ncol;
	char **col;		/* header names, decoded, NUL-terminated */
	size_t *cl;		/* their lengths (a name may hold a NUL) */
	char **f;		/* the current record: field views, decoded */
	size_t *fl;		/* their lengths */
	size_t nf;		/* the fields the record had */
	int flags;
	char *chunk;		/* the input, as tl_in_chunk gives it */
	size_t nchunk, pos;
	int eof;
	int bom;		/* 1: look for a byte order mark */
	int crlf;		/* records end at CR LF; -1: not known yet */
	uint64_t line;		/* the line being read */
	char *rec;		/* the record's fields, one after another */
	size_t nrec, caprec;
	size_t *off;		/* where field k starts in rec; then nrec */
	size_t capoff;
};

/* Read the header of the current stream of src; exit on an error. */
struct tl_csv *tl_csv_open(struct tl_src *src, int flags);
/*
 * The next record: 1, with f[0..ncol) and fl[0..ncol) valid until the
 * next call; 0 at the end. Exit on an error.
 */
int tl_csv_next(struct tl_csv *);
void tl_csv_close(struct tl_csv *);

/* Exit tl_failstatus with "PROG: NAME:LINE: message", LINE lineno. */
noreturn void tl_csv_errx(const struct tl_csv *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Write s[0..n) to o as a CSV field, as Python's csv module writes it
 * (QUOTE_MINIMAL, pandas's to_csv): as it is, or, when it holds a comma,
 * a double quote, LF or CR, in double quotes with each " doubled. An
 * empty field is nothing; the csv module writes a record that is one
 * empty field as "" (the caller writes that).
 *
 * With TL_SAFE_CSV set in the environment (not empty, not "0"), a field
 * that starts with = + - @ TAB or CR and is not a number gets a leading
 * apostrophe, so that a spreadsheet does not run it as a formula (OWASP's
 * rule for CSV injection); off by default, since the files are then no
 * longer TraceLens's byte for byte.
 */
struct tl_out;
void tl_out_csvfield(struct tl_out *, const char *s, size_t n);

#endif
