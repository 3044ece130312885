/*
 * tl: fuzz target for tl-tree's whole input path. The bytes are an event
 * stream (tl-tsv(5), what tl-parse writes), read from a memory source by
 * tl-tree's own reader and tree() (the program's sources are included,
 * its main renamed) into a memory writer, twice:
 *
 *  1. writing the tree stream, then checked: every line has the header's
 *     field count (the input's columns and the tree columns); when the
 *     input was read to its end, each output line is its input line
 *     followed by the tree columns; and in each trace, depth is the
 *     parent's plus one and root the parent's root, a root is its own
 *     root at depth 0, a launcher is an ancestor and is there exactly
 *     when linked is 1, gpu_kernel_time_ns is at most
 *     subtree_kernel_time_ns, and fwd_uid and bwd_uids hold as many links;
 *  2. drawing it (-p; or -p -g, -p -d 1, -p -n UID, -u UID -d 3), checked
 *     line by line; the plain drawing has one line per node of pass 1;
 *  3. writing the slim stream (-s), checked: every line has the header's
 *     field count, and no more lines than pass 1 wrote.
 *
 * Bits of the input's size pick -A and -P (both passes) and the drawing.
 * Fatal errors (bad input) end a pass as in fuzz.h; the tree columns of
 * the traces finished before are still checked.
 */
#define _GNU_SOURCE		/* memmem */
#define main tltree_main
#include "../../filters/tl-tree.c"
#undef main
#include "../../filters/tl-tree/build.c"
#include "../../filters/tl-tree/read.c"
#include "../../filters/tl-tree/write.c"

#include "fuzz.h"

/*
 * Back to the state tl-tree starts in, whatever a fatal error left
 * behind: each input runs as in a new process.
 */
static void
reset(void)
{
	tl_trace_close(rd);
	rd = NULL;
	trace_free(rtrace);
	rtrace = NULL;
	out.n = 0;
	found = 0;
	Aflag = gflag = pflag = Pflag = nflag = sflag = uflag = eflag = 0;
	dlimit = -1;
}

/* One pass of tree() on the bytes; 1 when it read them to the end. */
static int
run(const uint8_t *data, size_t size)
{
	volatile int done = 0;

	rd = tl_trace_src(tl_src_mem("fuzz.tsv", data, size), TL_S_EVENT,
	    TREE_NEED, TREE_USE);
	tl_err_hook = fuzz_fatal;
	if (setjmp(fuzz_jb) == 0) {
		tree();
		done = 1;
	}
	tl_err_hook = NULL;
	return done;
}

/* A row's fields, split at TABs: at most max, then max + 1. */
static size_t
fields(const char *s, size_t n, const char **f, size_t *fl, size_t max)
{
	const char *e = s + n, *tab;
	size_t k = 0;

	for (;;) {
		tab = memchr(s, '\t', (size_t)(e - s));
		if (k < max) {
			f[k] = s;
			fl[k] = (size_t)((tab != NULL ? tab : e) - s);
		}
		k++;
		if (tab == NULL)
			return k;
		s = tab + 1;
	}
}

/* An integer field (an optional '-', digits only); 0 when empty. */
static int
num(const char *s, size_t n, int64_t *v)
{
	if (n == 0)
		return 0;
	if (tl_parse_i64(s, n, v) != 0)
		abort();
	return 1;
}

/* The tree columns of one row of a trace. */
struct node {
	int64_t uid, parent, depth, root, launcher;
	int hasparent, intree, haslauncher;
};

static struct node *nd;
static size_t nnd, capnd;
static struct htab byuid;
static uint64_t ntreerows;	/* rows with a depth, in all traces */

static int
uideq(uint32_t v, const void *key)
{
	return nd[v].uid == *(const int64_t *)key;
}

/* The node of uid u in the current trace; abort if there is none. */
static struct node *
node(int64_t u)
{
	struct hslot *s = hfind(&byuid, tl_hash64((uint64_t)u), uideq, &u);

	if (s->v == 0)
		abort();
	return &nd[s->v - 1];
}

/* Check the rows of one trace, gathered in nd. */
static void
checktrace(void)
{
	struct node *x, *p, *a;
	size_t i;
	int64_t d;

	for (i = 0; i < nnd; i++) {
		x = &nd[i];
		if (!x->intree)
			continue;
		if (x->hasparent) {
			p = node(x->parent);
			if (!p->intree || x->depth != p->depth + 1 ||
			    x->root != p->root)
				abort();
		} else if (x->depth != 0 || x->root != x->uid)
			abort();
		if (!x->haslauncher)
			continue;
		/* The launcher is an ancestor (the parent chain is finite:
		 * depth goes down by one a step). */
		for (a = x, d = x->depth; a->hasparent && a->uid !=
		    x->launcher; d--) {
			a = node(a->parent);
			if (a->depth != d - 1)
				abort();
		}
		if (a->uid != x->launcher || a == x)
			abort();
	}
	hfree(&byuid);
	nnd = 0;
}

/*
 * Pass 1's output: the header's field count on every line, the rows as
 * the input's (when read to the end, complete) and the tree columns.
 */
static void
checkstream(const uint8_t *data, size_t size, int complete)
{
	static const char **f;
	static size_t *fl, capf;
	const char *p, *e, *nl, *in_p, *in_nl, *t;
	size_t ncol, n, k, tc, nfwd, nbwd;
	struct node *x;
	struct hslot *s;
	int64_t v;
	int first = 1;

	if (out.n == 0) {
		if (complete)
			abort();	/* a header at least */
		return;
	}
	if (out.buf[out.n - 1] != '\n' || rd->hdr.col == NULL)
		abort();
	ncol = rd->hdr.n + sizeof treecol / sizeof *treecol - 1;
	if (ncol > capf) {
		f = xreallocarray(f, ncol, sizeof *f);
		fl = xreallocarray(fl, ncol, sizeof *fl);
		capf = ncol;
	}
	tc = rd->hdr.n;		/* the first tree column */
	in_p = (const char *)data;
	nfwd = nbwd = 0;
	for (p = out.buf, e = out.buf + out.n; p < e; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(e - p));
		n = (size_t)(nl - p);
		if (fields(p, n, f, fl, ncol) != ncol)
			abort();
		if (complete) {
			/* The input line, then a TAB. */
			in_nl = memchr(in_p, '\n',
			    (size_t)((const char *)data + size - in_p));
			if (in_nl == NULL)
				abort();
			k = (size_t)(in_nl - in_p);
			if (k >= n || memcmp(p, in_p, k) != 0 || p[k] != '\t')
				abort();
			in_p = in_nl + 1;
		}
		if (first) {
			first = 0;
			for (k = 0; treecol[k] != NULL; k++)
				if (!same(f[tc + k], fl[tc + k], treecol[k]))
					abort();
			continue;
		}
		/* A trace_file row starts a trace. */
		if (fl[col[TL_C_UID]] == 0) {
			if (same(f[col[TL_C_CAT]], fl[col[TL_C_CAT]],
			    "trace_file")) {
				if (nfwd != nbwd)
					abort();
				nfwd = nbwd = 0;
				checktrace();
			}
			for (k = tc; k < ncol; k++)
				if (fl[k] != 0)
					abort();
			continue;
		}
		xgrow(&nd, &capnd, nnd + 1, sizeof *nd);
		x = &nd[nnd];
		memset(x, 0, sizeof *x);
		x->hasparent = num(f[tc], fl[tc], &x->parent);
		x->intree = num(f[tc + 1], fl[tc + 1], &x->depth);
		if (num(f[tc + 2], fl[tc + 2], &x->root) != x->intree ||
		    (x->hasparent && !x->intree) || x->depth < 0)
			abort();
		x->haslauncher = num(f[tc + 3], fl[tc + 3], &x->launcher);
		if (x->haslauncher != same(f[tc + 4], fl[tc + 4], "1") ||
		    (x->haslauncher && !x->hasparent))
			abort();
		if (fl[tc + 4] != 0 && !same(f[tc + 4], fl[tc + 4], "0") &&
		    !same(f[tc + 4], fl[tc + 4], "1"))
			abort();
		/* Kernel times: both or neither, direct <= subtree. */
		{
			int64_t g, st;
			int hg = num(f[tc + 5], fl[tc + 5], &g);

			if (hg != num(f[tc + 6], fl[tc + 6], &st))
				abort();
			if (hg && (g < 0 || g > st))
				abort();
		}
		nfwd += fl[tc + 7] != 0;
		for (t = f[tc + 8], k = 0; k < fl[tc + 8]; k++)
			nbwd += t[k] == ',';
		nbwd += fl[tc + 8] != 0;
		/* Only the rows in the tree surely have an integer uid of
		 * their own. */
		if (!x->intree)
			continue;
		ntreerows++;
		if (!num(f[col[TL_C_UID]], fl[col[TL_C_UID]], &x->uid))
			abort();
		v = x->uid;
		s = hfind(&byuid, tl_hash64((uint64_t)v), uideq, &v);
		if (s->v != 0)
			abort();	/* a duplicate uid in a trace */
		hset(&byuid, s, tl_hash64((uint64_t)v), (uint32_t)nnd);
		nnd++;
	}
	if (complete && in_p != (const char *)data + size)
		abort();	/* input lines left over */
	if (nfwd != nbwd)
		abort();
	checktrace();
}

/* Pass 2's output: a drawing; the number of nodes drawn, or -1. */
static int64_t
checkdraw(void)
{
	const char *p, *e, *nl;
	int64_t nodes = 0;
	size_t n;

	if (out.n > 0 && out.buf[out.n - 1] != '\n')
		abort();
	for (p = out.buf, e = out.buf + out.n; p < e; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(e - p));
		n = (size_t)(nl - p);
		if (n >= 7 && memcmp(p, "trace: ", 7) == 0)
			continue;
		if (memmem(p, n, "UID: ", 5) == NULL)
			abort();
		nodes++;
	}
	return nodes;
}

/* -s: each line has the header's field count; at most max lines. */
static void
checkslim(size_t max)
{
	size_t i, f = 1, hf = 0, line = 0;

	for (i = 0; i < out.n; i++) {
		if (out.buf[i] == '\t')
			f++;
		else if (out.buf[i] == '\n') {
			if (line++ == 0)
				hf = f;
			else if (f != hf)
				abort();
			f = 1;
		}
	}
	if (line > max)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	int complete, mode, a, pp;
	int64_t k, nodes;
	size_t lines, i;

	fuzz_init();
	if (!init) {
		init = 1;
		tl_out_init(&out, -1, "<stdout>");
	}
	a = (size & 1) != 0;
	pp = (size & 2) != 0;
	mode = (int)((size >> 2) % 5);
	k = (int64_t)((size >> 5) % 16);

	/* Pass 1: the tree stream. */
	reset();
	Aflag = a;
	Pflag = pp;
	ntreerows = 0;
	complete = run(data, size);
	for (lines = 0, i = 0; i < out.n; i++)
		lines += out.buf[i] == '\n';
	nnd = 0;
	hfree(&byuid);
	checkstream(data, size, complete);
	reset();

	/* Pass 2: a drawing. */
	Aflag = a;
	Pflag = pp;
	switch (mode) {
	case 0:
		pflag = 1;
		break;
	case 1:
		pflag = gflag = 1;
		break;
	case 2:
		pflag = 1;
		dlimit = 1;
		break;
	case 3:
		pflag = nflag = 1;
		nodeuid = k;
		break;
	default:
		uflag = 1;
		upuid = k;
		dlimit = 3;
	}
	(void)run(data, size);
	nodes = checkdraw();
	if (mode == 0 && nodes != (int64_t)ntreerows)
		abort();
	reset();

	/* Pass 3: the slim stream. */
	Aflag = a;
	Pflag = pp;
	sflag = 1;
	(void)run(data, size);
	checkslim(lines);
	reset();
	return 0;
}
