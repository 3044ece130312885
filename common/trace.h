/*
 * tl: the trace layer. What every tool that reads tl-parse's or tl-tree's
 * stream shares: the kind of an event (from its cat), what a stream is
 * (and the one message when it is not what a tool reads), and a reader
 * of the traces of one or more operands.
 *
 * A trace is a stream (a file, a member of an archive), or the part of
 * one that a trace_file row starts: tl-parse writes several traces into
 * one stream, each opened by its trace_file row. A trace_file row before
 * the first event of a stream names the trace of that stream.
 *
 * The reader hands out rows as the stream reader has them (t->f, t->fl:
 * views, not copies), with the row's kind; a tool keeps what it needs
 * in its own records. The loop of every tool:
 *
 *	tr = tl_trace_open(argc, argv, TL_S_TREE, need, want);
 *	while (tl_trace_next(tr)) {		// a trace begins
 *		start(tr->name);
 *		while ((r = tl_trace_row(tr)) != 0)
 *			if (r == TL_ROW_EVENT)
 *				...tr->kind, tl_trace_uid(tr), ...
 *		finish();			// tr->name is still its name
 *	}
 *	status = tr->status;
 *	tl_trace_close(tr);
 *
 * A reader keeps all its state in its struct: two readers may run in two
 * threads (tl-diff reads its two sides so). Errors exit with status
 * tl_failstatus (err.h).
 */
#ifndef TL_TRACE_H
#define TL_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>
#include <string.h>

#include "tsv.h"

/*
 * The kind of an event, from its cat. The host kinds (TL_K_ISHOST) are
 * the ones tl-tree nests; the GPU kinds (TL_K_ISGPU) are the ones it
 * links to their launches.
 */
enum tl_kind {
	TL_K_OTHER,		/* any other cat */
	TL_K_CPU_OP,		/* cpu_op */
	TL_K_RUNTIME,		/* cuda_runtime; rocprofv3's hip_api */
	TL_K_DRIVER,		/* cuda_driver */
	TL_K_PYTHON,		/* python_function */
	TL_K_ANNOT,		/* user_annotation */
	TL_K_GPU_ANNOT,		/* gpu_user_annotation */
	TL_K_AC2G,		/* ac2g: a flow event */
	TL_K_TRACE_FILE,	/* trace_file: a row about the trace */
	TL_K_TRACE_KEY,		/* trace_key: a top-level key of the trace */
	TL_K_KERNEL,		/* kernel; rocprofv3's kernel_dispatch */
	TL_K_MEMCPY,		/* gpu_memcpy; rocprofv3's memory_copy */
	TL_K_MEMSET		/* gpu_memset */
};
#define TL_K_ISHOST(k)		((k) >= TL_K_CPU_OP && (k) <= TL_K_ANNOT)
#define TL_K_ISGPU(k)		((k) >= TL_K_KERNEL)
#define TL_K_ISLAUNCH(k)	((k) == TL_K_RUNTIME || (k) == TL_K_DRIVER)

/* The kind of an event whose cat is s[0..n) (escaped or not: no cat
 * that has a kind holds an escape). Inline: every row of every tool
 * asks it. */
static inline int
tl_kind(const char *s, size_t n)
{
#define IS(lit)	(memcmp(s, lit, sizeof lit - 1) == 0)	/* n is its length */
	switch (n) {
	case 4:
		return IS("ac2g") ? TL_K_AC2G : TL_K_OTHER;
	case 6:
		return IS("cpu_op") ? TL_K_CPU_OP : IS("kernel") ?
		    TL_K_KERNEL : TL_K_OTHER;
	case 7:			/* rocprofv3 (tl-parse(1)) */
		return IS("hip_api") ? TL_K_RUNTIME : TL_K_OTHER;
	case 9:
		return IS("trace_key") ? TL_K_TRACE_KEY : TL_K_OTHER;
	case 10:
		return IS("gpu_memcpy") ? TL_K_MEMCPY : IS("gpu_memset") ?
		    TL_K_MEMSET : IS("trace_file") ? TL_K_TRACE_FILE :
		    TL_K_OTHER;
	case 11:
		return IS("cuda_driver") ? TL_K_DRIVER : IS("memory_copy") ?
		    TL_K_MEMCPY : TL_K_OTHER;
	case 12:
		return IS("cuda_runtime") ? TL_K_RUNTIME : TL_K_OTHER;
	case 15:
		return IS("python_function") ? TL_K_PYTHON :
		    IS("user_annotation") ? TL_K_ANNOT :
		    IS("kernel_dispatch") ? TL_K_KERNEL : TL_K_OTHER;
	case 19:
		return IS("gpu_user_annotation") ? TL_K_GPU_ANNOT :
		    TL_K_OTHER;
	}
	return TL_K_OTHER;
#undef IS
}

/*
 * What a stream is, from its header: an event stream (uid, ph, cat, no
 * parent), a tree stream (uid, cat, parent), a trace file given as it is
 * (its first line starts with { or [), a CSV file (one column, a comma
 * in its name), or another table.
 */
enum tl_stream { TL_S_EVENT, TL_S_TREE, TL_S_JSON, TL_S_CSV, TL_S_TABLE };
int tl_stream_kind(const struct tl_tsv *);
/*
 * Exit (tl_failstatus) with the one message for a stream that is not of
 * kind want (TL_S_EVENT or TL_S_TREE), naming what was expected and what
 * to run first, e.g. for tl-agg given tl-parse's output:
 * "tl-agg: ev.tsv:1: an event stream, not a tree stream: run tl-tree
 * first (tl-parse TRACE | tl-tree | tl-agg ...)". Returns when it is.
 */
void tl_stream_expect(const struct tl_tsv *, int want);

/* The columns the reader finds by name (tl-tsv(5), tl-tree(1)). */
enum tl_col {
	TL_C_UID, TL_C_PH, TL_C_CAT, TL_C_NAME, TL_C_PID, TL_C_TID, TL_C_TS,
	TL_C_DUR, TL_C_STREAM, TL_C_CORR, TL_C_EXT, TL_C_SEQ, TL_C_ID,
	TL_C_DIMS, TL_C_TYPES, TL_C_STRIDES, TL_C_CONCRETE, TL_C_ARGS,
	TL_C_PARENT, TL_C_DEPTH, TL_C_ROOT, TL_C_LAUNCHER, TL_C_LINKED,
	TL_C_GPUTIME, TL_C_SUBTREE, TL_C_FWD, TL_C_BWD, TL_C_MODULE,
	TL_C_TRACE, TL_C_FLOP, TL_C_BYTES, TL_C_SPEC, TL_C_PARAMS, TL_C_RANK,
	TL_NCOL
};
#define TL_COL(c)	(UINT64_C(1) << (c))
/* Their names: "uid", "ph", ... "input_dims", ... "bwd_uids", ... */
extern const char *const tl_colname[TL_NCOL];

/* What tl_trace_row returns. */
enum { TL_ROW_END, TL_ROW_EVENT, TL_ROW_FACT };

struct tl_trace {
	/*
	 * Column indexes in the stream: -1 for a column that is not there
	 * or that the tool did not ask for (to pass over a costly column
	 * it has no use for). Set by the first stream; every later one
	 * must have the same header.
	 */
	int col[TL_NCOL];
	struct tl_tsv *t;	/* the current stream; its row is current */
	const char *name;	/* the trace's: its trace_file row's name,
				 * or the stream's name */
	uint64_t ntrace;	/* traces begun: 1 during the first */
	uint64_t nev;		/* event rows of the trace so far */
	/*
	 * After tl_trace_row returned TL_ROW_END: 1 when a trace_file row
	 * of the same stream starts another trace (it is t's current row,
	 * for a located message), 0 at the end of a stream.
	 */
	int more;
	int status;		/* 1 once an operand could not be read */
	int kind;		/* the current row's: TL_K_*, from cat */

	/* The reader's own. */
	int want;		/* TL_S_TREE or TL_S_EVENT */
	uint64_t need, use;
	char *const *ops;
	int nops, op;
	struct tl_src *src;
	struct tl_hdr hdr;
	char *namebuf;
	int held;		/* 1: the current row starts the next trace;
				 * 2: it began this one, not handed out yet */
};

/*
 * A reader of the traces of the operands ops[0..nops) ("-" for standard
 * input; none: standard input), streams of kind want (TL_S_TREE, or
 * TL_S_EVENT for tl-tree). need: the columns a tool cannot do without
 * (TL_COL(c) | ...; a stream without one is an error, "missing required
 * column"); use: those it reads when they are there. uid, cat and name
 * are always needed, and parent and depth of a tree stream. An operand
 * that cannot be opened is reported, sets status, and is passed over.
 */
struct tl_trace *tl_trace_open(int nops, char *const *ops, int want,
    uint64_t need, uint64_t use);
/* The same reader of one source (such as tl_src_mem's), which it closes. */
struct tl_trace *tl_trace_src(struct tl_src *, int want, uint64_t need,
    uint64_t use);
/* Begin the next trace: 1, or 0 when there is none. */
int tl_trace_next(struct tl_trace *);
void tl_trace_close(struct tl_trace *);

/* The reader's own, for tl_trace_row: the end, a row about the trace. */
int tl_trace_end_(struct tl_trace *);
int tl_trace_fact_(struct tl_trace *);

/*
 * The next row of the trace: TL_ROW_EVENT (a row with a uid),
 * TL_ROW_FACT (a row about the trace, such as trace_file and trace_key
 * rows), kind set; or TL_ROW_END at the end of the trace. The row's
 * fields are tr->t's until the next call. Inline, as the accessors
 * below: the per-row work of every tool, none for a column it does not
 * read.
 */
static inline int
tl_trace_row(struct tl_trace *tr)
{
	struct tl_tsv *t = tr->t;
	int c;

	if (tr->held || t == NULL || !tl_tsv_next(t))
		return tl_trace_end_(tr);
	c = tr->col[TL_C_CAT];
	tr->kind = tl_kind(t->f[c], t->fl[c]);
	if (t->fl[tr->col[TL_C_UID]] == 0)
		return tl_trace_fact_(tr);
	tr->nev++;
	return TL_ROW_EVENT;
}

/* The uid of an event row (parsed when asked: not every tool needs it
 * of every row); exits when it is not an integer. */
static inline int64_t
tl_trace_uid(struct tl_trace *tr)
{
	int64_t v = 0;

	tl_tsv_i64(tr->t, tr->col[TL_C_UID], &v);
	return v;
}

/* Field c of the current row, a view (escaped): NULL, *n 0 when empty
 * or when the column is not there. */
static inline const char *
tl_trace_raw(const struct tl_trace *tr, int c, size_t *n)
{
	int i = tr->col[c];

	if (i < 0 || tr->t->fl[i] == 0) {
		*n = 0;
		return NULL;
	}
	*n = tr->t->fl[i];
	return tr->t->f[i];
}

/* Field c unescaped (in place): NULL when empty or not there. */
static inline const char *
tl_trace_str(struct tl_trace *tr, int c, size_t *n)
{
	if (tr->col[c] < 0) {
		*n = 0;
		return NULL;
	}
	return tl_tsv_str(tr->t, tr->col[c], n);
}

/* Field c as an integer: 1 set, 0 empty or not there; exits when it is
 * not an integer. */
static inline int
tl_trace_i64(struct tl_trace *tr, int c, int64_t *v)
{
	return tr->col[c] >= 0 && tl_tsv_i64(tr->t, tr->col[c], v);
}

/*
 * Before a program keeps the event at index n of a trace (0, 1, ...):
 * past --limit events (tl(7)), a located error on the stream's current
 * line.
 */
void tl_trace_hold(struct tl_tsv *, uint64_t n);

/*
 * The one check of a tree stream's parent links, for every tool that
 * rebuilds the tree from them: they make a forest. parent[0], uid[0]:
 * the fields of the first of n records stride bytes apart; a parent is
 * a record index, or UINT32_MAX for a root. Exits (tl_failstatus) with
 * "name: event UID: its parents make a cycle", UID the first event (in
 * record order) whose parents lead to a cycle.
 */
void tl_tree_acyclic(const char *name, size_t n, const uint32_t *parent,
    const int64_t *uid, size_t stride);

#endif
