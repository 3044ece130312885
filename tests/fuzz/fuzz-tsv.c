/*
 * tl: fuzz target for the stream reader (common/tsv.c): the bytes are a
 * stream, read from a memory source: header (tl_tsv_open), records
 * (tl_tsv_next), and each field by the first letter of its column's
 * name: 'i' tl_tsv_i64, 'd' tl_tsv_double, anything else tl_tsv_str.
 * Checks on the way: a field's unescaped text escapes and unescapes back
 * to itself, and a double formats (tl_fmt_double) and reads back to
 * itself. Malformed streams end in the reader's fatal error (see fuzz.h).
 */
#include <math.h>
#include <string.h>

#include "../../common/input.h"
#include "../../common/mem.h"
#include "../../common/tsv.h"
#include "fuzz.h"

static char *buf, *buf2;
static size_t cap;

static void
roundtrip(const char *s, size_t n)
{
	size_t e;
	ptrdiff_t u;

	if (2 * n + 1 > cap) {
		cap = 2 * n + 1;
		buf = xrealloc(buf, cap);
		buf2 = xrealloc(buf2, cap);
	}
	e = tl_tsv_escape(buf, s, n);
	u = tl_tsv_unescape(buf2, buf, e);
	if (u < 0 || (size_t)u != n || memcmp(buf2, s, n) != 0)
		abort();
	if (memchr(buf, '\t', e) != NULL || memchr(buf, '\n', e) != NULL ||
	    memchr(buf, '\r', e) != NULL)
		abort();
}

static void
fmtback(double d)
{
	char tmp[64];
	double b;

	tl_fmt_double(tmp, sizeof tmp, d);
	b = strtod(tmp, NULL);
	if (isnan(d) ? !isnan(b) : b != d)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Static, so that they keep their values across longjmp. */
	static struct tl_src *src;
	static struct tl_tsv *t;
	const char *s;
	size_t i, n;
	int64_t v;
	double d;

	fuzz_init();
	src = tl_src_mem("fuzz.tsv", data, size);
	t = NULL;
	tl_err_hook = fuzz_fatal;
	if (setjmp(fuzz_jb) == 0 && tl_src_next(src) == 1) {
		t = tl_tsv_open(src);
		if (tl_tsv_col(t, t->col[t->ncol - 1]) != (int)t->ncol - 1)
			abort();
		while (tl_tsv_next(t))
			for (i = 0; i < t->ncol; i++)
				switch (t->col[i][0]) {
				case 'i':
					tl_tsv_i64(t, (int)i, &v);
					break;
				case 'd':
					if (tl_tsv_double(t, (int)i, &d))
						fmtback(d);
					break;
				default:
					s = tl_tsv_str(t, (int)i, &n);
					if (s != NULL)
						roundtrip(s, n);
				}
		tl_tsv_need(t, "uid");
	}
	tl_err_hook = NULL;
	tl_tsv_close(t);
	tl_src_close(src);
	return 0;
}
