/*
 * tl: fuzz target for tl-ranks's per-rank stage (its sources included):
 * the bytes are an event stream (tl-tsv(5), what tl-parse writes), read
 * from a memory source by the map, which writes the ranks' summaries
 * into a memory writer; checked: every line has the summary's 19
 * fields. A bit of the input's size gives the rank (-R 3) instead of the
 * stream's. Fatal errors (bad input) end an input as in fuzz.h.
 */
#define _GNU_SOURCE		/* memmem */
#include <string.h>

#include "../../common/input.h"
#include "../../filters/tl-ranks/map.c"
#include "../../filters/tl-ranks/table.c"

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tl_trace *tr;
	size_t i, nf = 1;

	fuzz_init();
	tl_trace_close(tr);
	tr = NULL;
	map_reset();
	tl_out_close(&out);
	tl_out_init(&out, -1, "<memory>");
	tl_err_hook = fuzz_fatal;
	if (setjmp(fuzz_jb) == 0) {
		tr = tl_trace_src(tl_src_mem("fuzz.tsv", data, size),
		    TL_S_EVENT, MAP_NEED, MAP_USE);
		tl_out_header(&out, sumcol);
		traces(tr, size & 1 ? 3 : -1);
		tl_trace_close(tr);
		tr = NULL;
		for (i = 0; i < out.n; i++)
			if (out.buf[i] == '\t')
				nf++;
			else if (out.buf[i] == '\n') {
				if (nf != S_NCOL)
					abort();
				nf = 1;
			}
	}
	tl_err_hook = NULL;
	return 0;
}
