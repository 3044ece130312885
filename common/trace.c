/*
 * tl: the trace layer (trace.h): event kinds, what a stream is, and the
 * reader of the traces of one or more operands.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "input.h"
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

static inline int
kind(const char *s, size_t n)
{
#define IS(lit)	(n == sizeof lit - 1 && memcmp(s, lit, n) == 0)
	switch (n > 0 ? s[0] : 0) {
	case 'a':
		return IS("ac2g") ? TL_K_AC2G : TL_K_OTHER;
	case 'c':
		return IS("cpu_op") ? TL_K_CPU_OP : IS("cuda_runtime") ?
		    TL_K_RUNTIME : IS("cuda_driver") ? TL_K_DRIVER :
		    TL_K_OTHER;
	case 'g':
		return IS("gpu_memcpy") ? TL_K_MEMCPY : IS("gpu_memset") ?
		    TL_K_MEMSET : IS("gpu_user_annotation") ?
		    TL_K_GPU_ANNOT : TL_K_OTHER;
	case 'k':
		return IS("kernel") ? TL_K_KERNEL : TL_K_OTHER;
	case 'p':
		return IS("python_function") ? TL_K_PYTHON : TL_K_OTHER;
	case 't':
		return IS("trace_file") ? TL_K_TRACE_FILE : IS("trace_key") ?
		    TL_K_TRACE_KEY : TL_K_OTHER;
	case 'u':
		return IS("user_annotation") ? TL_K_ANNOT : TL_K_OTHER;
	}
	return TL_K_OTHER;
#undef IS
}

int
tl_kind(const char *s, size_t n)
{
	return kind(s, n);
}

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

static void
setname(struct tl_trace *tr, const char *s, size_t n)
{
	free(tr->namebuf);
	tr->name = tr->namebuf = xmemdup(s, n);
}

/* A trace begins: its name, the stream's until a trace_file row's. */
static int
begin(struct tl_trace *tr)
{
	const char *s;
	size_t n;

	tr->more = 0;
	tr->ntrace++;
	tr->nev = 0;
	if (tr->held && (s = tl_trace_str(tr, TL_C_NAME, &n)) != NULL)
		setname(tr, s, n);
	else
		setname(tr, tr->t->name, strlen(tr->t->name));
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
tl_trace_row(struct tl_trace *tr)
{
	struct tl_tsv *t = tr->t;
	const char *s;
	size_t n;
	int c;

	if (tr->held == 2)	/* the trace_file row that began the trace */
		tr->held = 0;
	else if (tr->held || t == NULL || !tl_tsv_next(t))
		return TL_ROW_END;
	c = tr->col[TL_C_CAT];
	tr->kind = kind(t->f[c], t->fl[c]);
	if (t->fl[tr->col[TL_C_UID]] != 0) {
		tr->nev++;
		return TL_ROW_EVENT;
	}
	if (tr->kind == TL_K_TRACE_FILE) {
		if (tr->nev > 0) {
			tr->held = tr->more = 1;
			return TL_ROW_END;
		}
		if ((s = tl_trace_str(tr, TL_C_NAME, &n)) != NULL)
			setname(tr, s, n);
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

const char *
tl_trace_str(struct tl_trace *tr, int c, size_t *n)
{
	if (tr->col[c] < 0) {
		*n = 0;
		return NULL;
	}
	return tl_tsv_str(tr->t, tr->col[c], n);
}

int
tl_trace_i64(struct tl_trace *tr, int c, int64_t *v)
{
	return tr->col[c] >= 0 && tl_tsv_i64(tr->t, tr->col[c], v);
}
