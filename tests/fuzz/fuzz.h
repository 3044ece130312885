/*
 * tl: what the fuzz targets share. libtl ends a fatal error (bad input,
 * no memory) with tl_errx -> exit(3), which libFuzzer would count as a
 * crash. The targets use only library paths that report fatal errors
 * through tl_err or tl_errx (memory sources, never an output fd), and
 * before each input set tl_err_hook to fuzz_fatal, which the library
 * calls before it prints and exits: it longjmps back into the target, so
 * an expected fatal error just ends that input. What the interrupted call
 * had allocated is not freed, as the real programs exit there; so make
 * fuzz runs with detect_leaks=0, as make check-asan does, and valgrind's
 * make check-valgrind checks leaks on the paths that return.
 *
 * The library's messages go to stderr, the stdio stream, which fuzz_init
 * points at /dev/null (unless TL_FUZZ_VERBOSE is set): sanitizer and
 * libFuzzer reports do not go through it and still show.
 */
#ifndef TL_FUZZ_H
#define TL_FUZZ_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../common/err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static jmp_buf fuzz_jb;
static int fuzz_nfatal;		/* inputs that ended in a fatal error */

static void
fuzz_fatal(void)
{
	fuzz_nfatal++;
	longjmp(fuzz_jb, 1);
}

static void
fuzz_init(void)
{
	static int done;
	FILE *f;

	if (done)
		return;
	done = 1;
	tl_progname = "fuzz";
	if (getenv("TL_FUZZ_VERBOSE") == NULL &&
	    (f = fopen("/dev/null", "w")) != NULL)
		stderr = f;
}

#endif
