/*
 * tl: the trace layer (trace.h): event kinds, what a stream is, and the
 * reader of the traces of one or more operands.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "input.h"
#include "limit.h"
#include "mem.h"
#include "trace.h"

const char *const tl_colname[TL_NCOL] = {
	"uid", "ph", "cat", "name", "pid", "tid", "ts_ns", "dur_ns", "stream",
	"correlation", "external_id", "seq", "id", "input_dims",
	"input_types", "input_strides", "concrete_inputs", "args", "parent",
	"depth", "root", "launcher", "linked", "gpu_kernel_time_ns",
	"subtree_kernel_time_ns", "fwd_uid", "bwd_uids", "nn_module",
	"trace", "flop", "bytes", "compute_spec", "params", "rank"
};

int
tl_stream_kind(const struct tl_tsv *t)
{
	const char *c0 = t->ncol > 0 ? t->col[0] : "";

	if (c0[0] == '{' || c0[0] == '[')
		return TL_S_JSON;
	if (t->ncol == 1 && strchr(c0, ',') != NULL)
		return TL_S_CSV;
	if (tl_tsv_col(t, "uid") < 0 || tl_tsv_col(t, "cat") < 0)
		return TL_S_TABLE;
	if (tl_tsv_col(t, "parent") >= 0)
		return TL_S_TREE;
	return tl_tsv_col(t, "ph") >= 0 ? TL_S_EVENT : TL_S_TABLE;
}

void
tl_stream_expect(const struct tl_tsv *t, int want)
{
	static const char *const what[] = {
		[TL_S_EVENT] = "an event stream",
		[TL_S_TREE] = "a tree stream",
		[TL_S_JSON] = "a trace file",
		[TL_S_CSV] = "a CSV file",
		[TL_S_TABLE] = "a table"
	};
	const char *tree = want == TL_S_TREE ? "tl-tree | " : "";
	int is = tl_stream_kind(t);

	if (is == want)
		return;
	if (is == TL_S_EVENT)
		tl_errx(tl_failstatus, "%s:1: %s, not %s: run tl-tree first "
		    "(tl-parse TRACE | tl-tree | %s ...)", t->name, what[is],
		    what[want], tl_progname);
	if (is == TL_S_JSON)
		tl_errx(tl_failstatus, "%s:1: %s, not %s: run %s first "
		    "(tl-parse %s | %s%s ...)", t->name, what[is], what[want],
		    *tree ? "tl-parse and tl-tree" : "tl-parse", t->name,
		    tree, tl_progname);
	tl_errx(tl_failstatus, "%s:1: %s, not %s: %s reads the output of %s "
	    "(tl-parse TRACE | %s%s ...)", t->name, what[is], what[want],
	    tl_progname, *tree ? "tl-tree" : "tl-parse", tree, tl_progname);
}

struct tl_trace *
tl_trace_open(int nops, char *const *ops, int want, uint64_t need,
    uint64_t use)
{
	static char *const dash[] = { "-" };
	struct tl_trace *tr = xcalloc(1, sizeof *tr);

	tr->ops = nops > 0 ? ops : dash;
	tr->nops = nops > 0 ? nops : 1;
	tr->want = want;
	tr->need = need | TL_COL(TL_C_UID) | TL_COL(TL_C_CAT) |
	    TL_COL(TL_C_NAME);
	if (want == TL_S_TREE)
		tr->need |= TL_COL(TL_C_PARENT) | TL_COL(TL_C_DEPTH);
	tr->use = tr->need | use;
	return tr;
}

struct tl_trace *
tl_trace_src(struct tl_src *src, int want, uint64_t need, uint64_t use)
{
	struct tl_trace *tr = tl_trace_open(0, NULL, want, need, use);

	tr->src = src;
	tr->op = tr->nops;	/* no operand to open after it */
	return tr;
}

/* The header of a new stream: what it is, and its columns. */
static void
header(struct tl_trace *tr)
{
	struct tl_tsv *t = tr->t;
	int c;

	tl_stream_expect(t, tr->want);
	if (!tl_hdr_same(&tr->hdr, t))
		return;
	for (c = 0; c < TL_NCOL; c++) {
		tr->col[c] = -1;
		if (tr->need >> c & 1)
			tr->col[c] = tl_tsv_need(t, tl_colname[c]);
		else if (tr->use >> c & 1)
			tr->col[c] = tl_tsv_col(t, tl_colname[c]);
	}
}

/*
 * The trace's name: the current trace_file row's, decoded into a copy
 * (the row stays as it was read, for a tool that writes it); or, when
 * row is 0 or the row has none, the stream's.
 */
static void
setname(struct tl_trace *tr, int row)
{
	char q[TL_QUOTE_MAX];
	const char *s;
	size_t n;
	ptrdiff_t k;

	free(tr->namebuf);
	if (!row || (s = tl_trace_raw(tr, TL_C_NAME, &n)) == NULL) {
		tr->name = tr->namebuf = xstrdup(tr->t->name);
		return;
	}
	tr->name = tr->namebuf = xmalloc(n + 1);
	if ((k = tl_tsv_unescape(tr->namebuf, s, n)) < 0)
		tl_tsv_errx(tr->t, "column \"name\": bad escape: \"%s\"",
		    tl_quote(q, sizeof q, s, n));
	tr->namebuf[k] = '\0';
}

/* A trace begins: its name, the stream's until a trace_file row's. */
static int
begin(struct tl_trace *tr)
{
	tr->more = 0;
	tr->ntrace++;
	tr->nev = 0;
	setname(tr, tr->held);
	return 1;
}

int
tl_trace_next(struct tl_trace *tr)
{
	int r = 0;

	if (tr->held) {		/* a trace_file row in the stream */
		tr->held = 2;
		return begin(tr);
	}
	for (;;) {
		tl_tsv_close(tr->t);
		tr->t = NULL;
		if (tr->src != NULL && (r = tl_src_next(tr->src)) > 0)
			break;
		if (tr->src != NULL) {
			if (r < 0)
				tr->status = 1;
			tl_src_close(tr->src);
			tr->src = NULL;
		}
		if (tr->op == tr->nops)
			return 0;
		if ((tr->src = tl_src_open(tr->ops[tr->op++])) == NULL)
			tr->status = 1;
	}
	tr->t = tl_tsv_open(tr->src);
	header(tr);
	return begin(tr);
}

int
tl_trace_end_(struct tl_trace *tr)
{
	if (tr->held != 2)
		return TL_ROW_END;
	tr->held = 0;		/* the trace_file row that began the trace */
	tr->kind = TL_K_TRACE_FILE;
	return TL_ROW_FACT;
}

int
tl_trace_fact_(struct tl_trace *tr)
{
	size_t n;

	if (tr->kind == TL_K_TRACE_FILE) {
		if (tr->nev > 0) {
			tr->held = tr->more = 1;
			return TL_ROW_END;
		}
		if (tl_trace_raw(tr, TL_C_NAME, &n) != NULL)
			setname(tr, 1);
	}
	return TL_ROW_FACT;
}

void
tl_trace_close(struct tl_trace *tr)
{
	if (tr == NULL)
		return;
	tl_tsv_close(tr->t);
	if (tr->src != NULL)
		tl_src_close(tr->src);
	tl_hdr_free(&tr->hdr);
	free(tr->namebuf);
	free(tr);
}

void
tl_tree_acyclic(const char *name, size_t n, const uint32_t *parent,
    const int64_t *uid, size_t stride)
{
	uint32_t *mark, x;
	size_t i;

#define AT(base, type, j) \
	(*(const type *)(const void *)((const char *)(base) + (j) * stride))
	if (n == 0)
		return;
	if (n >= UINT32_MAX)
		tl_errx(tl_failstatus, "%s: too many events", name);
	mark = xcalloc(n, sizeof *mark);
	/* Up from each event until a root, or an event already walked: on
	 * this walk (a cycle), or on an earlier one (it ends at a root). */
	for (i = 0; i < n; i++) {
		for (x = (uint32_t)i; x != UINT32_MAX && mark[x] == 0;
		    x = AT(parent, uint32_t, x))
			mark[x] = (uint32_t)i + 1;
		if (x != UINT32_MAX && mark[x] == (uint32_t)i + 1) {
			int64_t u = AT(uid, int64_t, i);

			free(mark);
			tl_errx(tl_failstatus, "%s: event %" PRId64 ": its "
			    "parents make a cycle", name, u);
		}
	}
	free(mark);
#undef AT
}

void
tl_trace_hold(struct tl_tsv *t, uint64_t n)
{
	uint64_t lim = tl_limit[TL_LIM_EVENTS];
	char b[TL_LIMIT_STRMAX];

	if (lim != 0 && n >= lim)
		tl_tsv_errx(t, "more than %" PRIu64 " events of one trace to "
		    "hold (--limit %s)", lim, tl_limit_str(b, TL_LIM_EVENTS));
}
