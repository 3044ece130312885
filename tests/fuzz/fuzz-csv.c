/*
 * tl: fuzz target for the CSV reader (common/csv.c): the first byte
 * picks the flags (TL_CSV_BLANK, CRLF, BOM, LAX, SHORT, as pandas's
 * read_csv rules of tl-cmpreport or the strict ones of tl-xlsx), the rest
 * is a CSV file read from a memory source: the header, then every
 * record. Checks on the way: a record has ncol fields, none longer than
 * the record, and a field written back (tl_out_csvfield) and read again
 * is the same text. Malformed files end in the reader's fatal error (see
 * fuzz.h).
 */
#include <string.h>

#include "../../common/csv.h"
#include "../../common/input.h"
#include "../../common/tsv.h"
#include "fuzz.h"

/* One field, written as a CSV file of one column and read back. */
static void
roundtrip(const char *s, size_t n)
{
	static struct tl_out o;
	static struct tl_src *src;
	static struct tl_csv *c;

	if (n == 0)
		return;
	tl_out_init(&o, -1, "roundtrip");
	tl_out_raw(&o, "h\n", 2);
	tl_out_csvfield(&o, s, n);
	tl_out_char(&o, '\n');
	src = tl_src_mem("roundtrip.csv", o.buf, o.n);
	if (tl_src_next(src) != 1)
		abort();
	c = tl_csv_open(src, 0);
	/* A field of CR alone reads back as CR LF's end: not comparable. */
	if (!tl_csv_next(c) || c->ncol != 1 ||
	    (memchr(s, '\r', n) == NULL && (c->fl[0] != n ||
	    memcmp(c->f[0], s, n) != 0)))
		abort();
	tl_csv_close(c);
	tl_src_close(src);
	free(o.buf);
	memset(&o, 0, sizeof o);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Static, so that they keep their values across longjmp. */
	static struct tl_src *src;
	static struct tl_csv *c;
	size_t i;
	int flags;

	if (size == 0)
		return 0;
	fuzz_init();
	flags = data[0] & 0x1f;
	src = tl_src_mem("fuzz.csv", data + 1, size - 1);
	c = NULL;
	tl_err_hook = fuzz_fatal;
	if (setjmp(fuzz_jb) == 0 && tl_src_next(src) == 1) {
		c = tl_csv_open(src, flags);
		while (tl_csv_next(c)) {
			if (c->nf > c->ncol)
				abort();
			for (i = 0; i < c->ncol; i++) {
				if (c->fl[i] > c->nrec)
					abort();
				roundtrip(c->f[i], c->fl[i]);
			}
		}
	}
	tl_err_hook = NULL;
	tl_csv_close(c);
	tl_src_close(src);
	return 0;
}
