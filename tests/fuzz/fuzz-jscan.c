/*
 * tl: fuzz target for the JSON event scanner (common/json.c) and
 * tl-parse's whole event path. The bytes are a trace file:
 *
 *  1. written to a memfd and opened by its /proc/self/fd path, so that
 *     tl_src_open recognises compression by content (gzip, libarchive's
 *     formats) as for a file, then read by tl-parse's own parse() (the
 *     program is included with its main renamed) into a memory writer,
 *     three times: by one thread scanning byte by byte, by one scanning
 *     16 bytes at a time (SSE2), then by several scanning 32 (AVX2, or
 *     SSE2 without it), the trace cut into pieces at every guessed event
 *     boundary, read by workers, at any size: all must write the same;
 *     then with categories left out (-x), once reading every event whole
 *     and once letting the scanner pass over the plain ones, in pieces:
 *     again the same;
 *  2. read again from a memory source by the scanner alone, checking that
 *     the tokens it gives for each event are the ones jsmn makes of the
 *     event's text (json.h promises exactly that), and that the text is
 *     one JSON value that jsmn accepts.
 *
 * The scanner reports bad input by returning -1; fatal errors (out of
 * memory) end the input as in fuzz.h.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#define main tlparse_main
#include "../../filters/tl-parse.c"
#undef main

#include "fuzz.h"

static int memfd = -1;
static char mfpath[64];

static void
setup(void)
{
	fuzz_init();
	if (memfd >= 0)
		return;
	if ((memfd = memfd_create("fuzz-trace.json", 0)) < 0)
		abort();
	snprintf(mfpath, sizeof mfpath, "/proc/self/fd/%d", memfd);
	if (regcomp(&rankre, "rank[-_]?([0-9]+)", REG_EXTENDED | REG_ICASE))
		abort();
	tl_out_init(&out, -1, "<stdout>");
	tl_out_init(&pend, -1, "(pending rows)");
	for (int i = 0; i < NPIECE; i++)
		tl_out_init(&sp.pc[i].out, -1, "(a piece's rows)");
	header();	/* once: not part of what the passes compare */
	out.n = 0;
}

/*
 * Pass 1: tl-parse on the bytes as a file, read by one thread (split
 * never), then in pieces wherever it can (split at any size, a piece at
 * each boundary): what comes out must be the same, rows and counts.
 */
struct result {
	char *buf;
	size_t n, cap;
	int fatal;
};

static void
keep(struct result *r, const char *p, size_t n)
{
	if (n == 0)
		return;
	xgrow(&r->buf, &r->cap, r->n + n, 1);
	memcpy(r->buf + r->n, p, n);
	r->n += n;
}

static void
asfile1(struct result *res, size_t min)
{
	static struct tl_src *src;
	char c[160];

	res->n = 0;
	res->fatal = 0;
	splitmin = min;
	piecesz = 1;
	src = tl_src_open(mfpath);
	if (src == NULL)
		return;
	tl_src_readwhole(src);
	if (setjmp(fuzz_jb) == 0)
		while (tl_src_next(src) > 0) {
			if (tl_src_container(src))
				tflag = 1;
			parse(src);
			keep(res, pend.buf, pend.n);
			keep(res, out.buf, out.n);
			keep(res, c, (size_t)snprintf(c, sizeof c, "%llu %"
			    PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			    warns.n, nskipped, ncleared, nrepaired, nleft));
			out.n = pend.n = 0;
			o = &out;
		}
	else {
		endsplit();
		res->fatal = 1;
	}
	out.n = pend.n = 0;
	o = &out;
	tflag = 0;
	tl_src_close(src);
}

static void
asfile(const uint8_t *data, size_t size)
{
	static struct result one, two;
	size_t off = 0;
	ssize_t k;

	if (ftruncate(memfd, 0) != 0)
		abort();
	while (off < size) {
		k = pwrite(memfd, data + off, size - off, (off_t)off);
		if (k <= 0)
			abort();
		off += (size_t)k;
	}
	static char *drop[] = { "cpu_op", "python_function", "a", "b" };

	tl_jscan_path("portable");
	asfile1(&one, SIZE_MAX);
	tl_jscan_path("sse2");
	asfile1(&two, SIZE_MAX);
	if (!one.fatal && !two.fatal && (one.n != two.n ||
	    (one.n > 0 && memcmp(one.buf, two.buf, one.n) != 0)))
		abort();	/* SSE2 read it otherwise than byte by byte */
	if (!tl_jscan_path("avx2"))
		tl_jscan_path("sse2");
	asfile1(&two, 0);
	if (!one.fatal && !two.fatal && (one.n != two.n ||
	    (one.n > 0 && memcmp(one.buf, two.buf, one.n) != 0)))
		abort();	/* pieces read it otherwise than one thread */
	dropcat = drop;
	ndrop = sizeof drop / sizeof drop[0];
	readall = 1;
	asfile1(&one, SIZE_MAX);
	readall = 0;
	asfile1(&two, 0);
	dropcat = NULL;
	ndrop = 0;
	if (!one.fatal && !two.fatal && (one.n != two.n ||
	    (one.n > 0 && memcmp(one.buf, two.buf, one.n) != 0)))
		abort();	/* left out otherwise than when read whole */
}

/* Pass 2: the scanner alone, checked against jsmn. */
static void
scanner(const uint8_t *data, size_t size)
{
	static struct tl_src *src;
	static struct tl_jscan *js;
	static struct tl_jdoc d;
	struct tl_jitem it;
	int i;

	src = tl_src_mem("fuzz.json", data, size);
	js = NULL;
	if (setjmp(fuzz_jb) == 0 && tl_src_next(src) == 1) {
		js = tl_jscan_new(src);
		while (tl_jscan_next(js, &it) > 0) {
			if (tl_json_parse(&d, it.text, it.len) < 0)
				abort();
			if (tl_jskip(&d, 0) != d.ntok)
				abort();	/* more than one value */
			if (it.kind != TL_JEVENT)
				continue;
			if (it.ntok != d.ntok)
				abort();
			for (i = 0; i < d.ntok; i++)
				if (it.tok[i].type != d.tok[i].type ||
				    it.tok[i].start != d.tok[i].start ||
				    it.tok[i].end != d.tok[i].end ||
				    it.tok[i].size != d.tok[i].size ||
				    it.tok[i].parent != d.tok[i].parent)
					abort();
		}
	}
	tl_jscan_free(js);
	tl_src_close(src);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	tl_err_hook = fuzz_fatal;
	asfile(data, size);
	tl_err_hook = fuzz_fatal;
	scanner(data, size);
	tl_err_hook = NULL;
	return 0;
}
