/*
 * tl: fuzz target for the Python writers (common/pyfmt.c): the bytes,
 * less the first (the flags of tl_out_pyjson), are read as JSON text and
 * written as Python's repr; a failure must leave nothing written. Then
 * the check that ties the writers together: the bytes as a JSON string
 * (tl_out_jsonstr) read back by tl_out_pyjson are repr(str) of the bytes
 * (tl_out_pystr), whatever they are.
 */
#include <string.h>

#include "../../common/pyfmt.h"
#include "../../common/tsv.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tl_out a, b, c;
	const char *s = (const char *)data + 1;
	size_t n = size - 1;

	fuzz_init();
	if (size == 0)
		return 0;
	if (a.buf == NULL) {
		tl_out_init(&a, -1, "a");
		tl_out_init(&b, -1, "b");
		tl_out_init(&c, -1, "c");
	}
	a.n = b.n = c.n = 0;
	tl_err_hook = fuzz_fatal;	/* no memory, only */
	if (setjmp(fuzz_jb) == 0) {
		if (tl_out_pyjson(&a, s, n, data[0] & 3) < 0 && a.n != 0)
			abort();
		tl_out_jsonstr(&b, s, n);
		if (tl_out_pyjson(&a, b.buf, b.n, data[0] & 3) < 0)
			abort();
		tl_out_pystr(&c, s, n);
		if (a.n < c.n || memcmp(a.buf + a.n - c.n, c.buf, c.n) != 0)
			abort();
	}
	tl_err_hook = NULL;
	return 0;
}
