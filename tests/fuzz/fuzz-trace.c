/*
 * tl: fuzz target for the trace layer's tree-stream loader
 * (common/trace.c), which tl-agg, tl-roofline, tl-diff, tl-xdiff,
 * tl-replay and the other readers of the tree stream share: the bytes are
 * a stream (tree or event: the first byte picks which is wanted), read
 * trace by trace from a memory source, every row, and of each event row
 * its uid, kind, times, parent and depth, names and argument columns as
 * the tools read them; at the end of each trace, the parents that are
 * uids of its events checked for cycles (tl_tree_acyclic) and the events
 * counted against --limit events (tl_trace_hold), as the tools do. Checks
 * on the way: a row's kind is one the classifier gives for its cat.
 * Malformed streams end in the reader's fatal error (see fuzz.h).
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/input.h"
#include "../../common/mem.h"
#include "../../common/trace.h"
#include "fuzz.h"

struct rec {
	int64_t uid, puid;
	uint32_t parent;
};

static int
byuid(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return (x->uid > y->uid) - (x->uid < y->uid);
}

/* Parents by uid, as a tool resolves them (a uid seen twice, or a
 * parent that is no event, is a root here), then the one check. */
static void
tree(const char *name, struct rec *r, size_t n)
{
	size_t i, lo, hi, m;

	if (n == 0)
		return;
	qsort(r, n, sizeof *r, byuid);
	for (i = 0; i < n; i++) {
		r[i].parent = UINT32_MAX;
		if (r[i].puid == INT64_MIN)
			continue;
		for (lo = 0, hi = n; lo < hi;) {
			m = lo + (hi - lo) / 2;
			if (r[m].uid < r[i].puid)
				lo = m + 1;
			else
				hi = m;
		}
		if (lo < n && r[lo].uid == r[i].puid && lo != i)
			r[i].parent = (uint32_t)lo;
	}
	tl_tree_acyclic(name, n, &r[0].parent, &r[0].uid, sizeof *r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Static, so that they keep their values across longjmp. */
	static struct tl_trace *tr;
	static struct rec *rec;
	static size_t nrec, caprec;
	static const int ints[] = { TL_C_TS, TL_C_DUR, TL_C_PARENT,
	    TL_C_DEPTH, TL_C_CORR, TL_C_EXT, TL_C_SUBTREE, TL_C_GPUTIME };
	static const int strs[] = { TL_C_NAME, TL_C_MODULE, TL_C_DIMS,
	    TL_C_TYPES, TL_C_STRIDES, TL_C_CONCRETE, TL_C_ARGS, TL_C_TRACE };
	const char *s, *c;
	size_t i, n, cn;
	int64_t v;
	int r, want;

	if (size == 0)
		return 0;
	fuzz_init();
	want = data[0] & 1 ? TL_S_EVENT : TL_S_TREE;
	tr = NULL;
	free(rec);		/* an earlier input's, if it ended in an error */
	rec = NULL;
	nrec = caprec = 0;
	tl_err_hook = fuzz_fatal;
	if (setjmp(fuzz_jb) == 0) {
		tr = tl_trace_src(tl_src_mem("fuzz.tsv", data + 1, size - 1),
		    want, 0, ~(uint64_t)0);
		while (tl_trace_next(tr)) {
			nrec = 0;
			while ((r = tl_trace_row(tr)) != TL_ROW_END) {
				c = tl_trace_raw(tr, TL_C_CAT, &cn);
				if (tr->kind != tl_kind(c, cn))
					abort();
				if (r != TL_ROW_EVENT)
					continue;
				tl_trace_hold(tr->t, nrec);
				xgrow(&rec, &caprec, nrec + 1, sizeof *rec);
				rec[nrec].uid = tl_trace_uid(tr);
				rec[nrec].puid = tl_trace_i64(tr, TL_C_PARENT, &v) ?
				    v : INT64_MIN;
				nrec++;
				for (i = 0; i < sizeof ints / sizeof *ints; i++)
					(void)tl_trace_i64(tr, ints[i], &v);
				for (i = 0; i < sizeof strs / sizeof *strs; i++)
					if ((s = tl_trace_str(tr, strs[i], &n)) !=
					    NULL && n == 0)
						abort();
			}
			tree(tr->name, rec, nrec);
		}
	}
	tl_err_hook = NULL;
	tl_trace_close(tr);
	free(rec);
	rec = NULL;
	nrec = caprec = 0;
	return 0;
}
