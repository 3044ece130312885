/*
 * tl: fuzz target for tl-hta's memory-timeline reader (filters/tl-hta/
 * memtl.c): the bytes are the export [[t, action, bytes, category], ...],
 * read from a memory source. Checked: no more rows than records, no two
 * neighbouring rows with one time unless a time below 0 became the
 * smallest above 0, and no time below 0 left when one above 0 exists.
 * Bad input ends the input as in fuzz.h.
 */
#include "../../filters/tl-hta/memtl.c"

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tl_src *src;
	static struct memtl m;
	static size_t i, recs;
	static int pos, neg;

	fuzz_init();
	recs = 0;
	pos = neg = 0;
	for (i = 0; i + 1 < size; i++)	/* an upper bound on the records */
		recs += data[i] == ']';
	src = tl_src_mem("fuzz.json", data, size);
	m.t = NULL;
	m.sz = NULL;
	tl_err_hook = fuzz_fatal;
	if (setjmp(fuzz_jb) == 0 && tl_src_next(src) == 1) {
		memtl_read(&m, src, "fuzz.json");
		if (m.n > recs + 1)
			abort();
		for (i = 0; i < m.n; i++) {
			pos |= m.t[i] > 0;
			neg |= m.t[i] < 0;
		}
		if (pos && neg)
			abort();
	}
	tl_err_hook = NULL;
	memtl_free(&m);
	tl_src_close(src);
	return 0;
}
