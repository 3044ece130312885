/*
 * tl: fuzz target for tl-ranks's cross-rank stage (its sources included):
 * the bytes are rank summaries (tl-ranks(1), SUMMARY), read from a memory
 * source by the join's reader; then every table is made and written, as
 * CSV and as a stream, into memory writers, and checked: every line of a
 * stream has the header's field count. A bit of the input's size turns
 * the heatmap on, another sets the gpus per node to 2. Fatal errors (a
 * bad summary, a mismatch across ranks) end an input as in fuzz.h.
 */
#include <string.h>

#include "../../common/input.h"
#include "../../filters/tl-ranks/join.c"
#include "../../filters/tl-ranks/tables.c"
#include "../../filters/tl-ranks/a2a.c"
#include "../../filters/tl-ranks/htab.c"
#include "../../filters/tl-ranks/table.c"

#include "fuzz.h"

static void
lines(const struct tl_out *o)
{
	size_t i, nf = 1, hdr = 0;
	int first = 1;

	for (i = 0; i < o->n; i++) {
		if (o->buf[i] == '\t')
			nf++;
		else if (o->buf[i] == '\n') {
			if (first)
				hdr = nf;
			else if (nf != hdr)
				abort();
			first = 0;
			nf = 1;
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *metrics[] = { "mean", "median", "min", "max", "std",
	    "sum", "count" };
	static struct tl_src *src;
	struct tl_out o;
	int i;

	fuzz_init();
	join_reset();
	if (src != NULL)
		tl_src_close(src);
	src = NULL;
	j_metrics = metrics;
	j_nmetrics = 7;
	j_heatmap = size & 1;
	j_gpn = size & 2 ? 2 : -1;
	j_world = -1;
	tl_err_hook = fuzz_fatal;
	if (setjmp(fuzz_jb) == 0) {
		src = tl_src_mem("fuzz.tsv", data, size);
		join_src(src);
		tl_src_close(src);
		src = NULL;
		join_tables();
		for (i = 0; i < NTB; i++) {
			tl_out_init(&o, -1, "<memory>");
			tab_write(&tabs[i], &o, 1);
			tl_out_close(&o);
			tl_out_init(&o, -1, "<memory>");
			tab_write(&tabs[i], &o, 0);
			lines(&o);
			tl_out_close(&o);
		}
	}
	tl_err_hook = NULL;
	return 0;
}
