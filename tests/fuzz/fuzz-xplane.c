/*
 * tl: fuzz target for tl-parse's XPlane reader (filters/tl-parse/
 * xplane.c, hlo.c and xpevents.c, included whole): the bytes are an XSpace, recognised by
 * xp_sniff and read by xp_parse_mem into a memory writer. Every row it
 * writes must have the 20 fields of the event stream, and nothing may be
 * read past the input. Malformed input gives -1 and a message; fatal
 * errors (out of memory) end the input as in fuzz.h.
 */
#include "../../filters/tl-parse/xplane.c"
#include "../../filters/tl-parse/hlo.c"
#include "../../filters/tl-parse/xpevents.c"

#include "fuzz.h"

static struct tl_out fo;

static void
fendrow(void)
{
	tl_out_char(&fo, '\n');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i, tabs = 0;

	fuzz_init();
	if (fo.buf == NULL)
		tl_out_init(&fo, -1, "<rows>");
	fo.n = 0;
	tl_err_hook = fuzz_fatal;
	if (setjmp(fuzz_jb) == 0) {
		(void)xp_sniff(data, size);
		(void)xp_parse_mem("fuzz.xplane.pb", data, size, &fo, fendrow);
		for (i = 0; i < fo.n; i++) {
			if (fo.buf[i] == '\t')
				tabs++;
			else if (fo.buf[i] == '\n') {
				if (tabs != 19)
					abort();
				tabs = 0;
			}
		}
	}
	tl_err_hook = NULL;
	return 0;
}
