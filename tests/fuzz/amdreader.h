/*
 * tl: the body of the fuzz targets for tl-parse's AMD readers
 * (fuzz-rocprof.c, fuzz-pftrace.c). The target defines READER, the
 * reader (tlp_rocprof, tlp_pftrace), and FILENAME, the name the bytes are
 * read under, and includes the reader's source and this file. The bytes
 * are the file, read from a memory source into a memory writer, once with
 * and once without the trace and rank columns. Checks on the way: every
 * row has the stream's twenty fields (nineteen TABs) and no NUL byte, and
 * the format test (tlp_format) never fails on any prefix. Fatal errors
 * (out of memory) end the input as in fuzz.h.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static void
check(const struct tl_out *o, int ntab)
{
	const char *p = o->buf, *end = o->buf + o->n, *nl;
	int k;

	if (o->n > 0 && memchr(o->buf, '\0', o->n) != NULL)
		abort();
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			abort();
		for (k = 0; p < nl; p++)
			k += *p == '\t';
		if (k != ntab)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tl_src *src;
	static struct tl_out out;
	static struct tlp_ctx x;
	static int pass;

	fuzz_init();
	(void)tlp_format((const char *)data, size, FILENAME);
	for (pass = 0; pass < 2; pass++) {
		src = tl_src_mem(FILENAME, data, size);
		tl_out_init(&out, -1, "<stdout>");
		tl_err_hook = fuzz_fatal;	/* a fatal error clears it */
		x = (struct tlp_ctx){ &out, FILENAME, "3", pass, pass, 0, NULL,
		    NULL };
		if (setjmp(fuzz_jb) == 0 && tl_src_next(src) == 1) {
			READER(src, &x);
			check(&out, pass ? 21 : 19);
		}
		tl_out_close(&out);
		tl_src_close(src);
	}
	tl_err_hook = NULL;
	return 0;
}
