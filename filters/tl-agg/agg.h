/*
 * tl-agg: declarations shared by the sources of tl-agg (filters/tl-agg.c
 * and filters/tl-agg/ *.c), and by nothing else.
 */
#ifndef TL_AGG_H
#define TL_AGG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/intern.h"
#include "../../common/json.h"
#include "../../common/pyfmt.h"
#include "../../common/stats.h"
#include "../../common/trace.h"
#include "../../common/tsv.h"

#define NONE		UINT32_MAX
#define PL(n)		((n) == 1 ? "" : "s")


/* What a GPU event counts as on the timeline (TraceLens 3.1). */
enum { G_COMP, G_COMM, G_MEMCPY };

enum {
	F_LINKED = 1 << 0,	/* GPU event reached by a launch */
	F_CORR = 1 << 1,	/* has a correlation or an external_id */
	F_COMM = 1 << 2,	/* GPU: communication (nccl, rccl, ...) */
	F_MEMCPYK = 1 << 3,	/* GPU: a copy (gpu_memcpy, rocclr copy) */
	F_COVERED = 1 << 4,	/* GPU: owned by a unified row */
	F_PSEUDO = 1 << 5	/* a pseudo op (tl-graph -p): no duration */
};

/* One event: a host event in the tree, or a GPU event. */
struct ev {
	int64_t uid;
	int64_t tsns, durns;	/* exact, from the stream: ev_ts etc. */
	uint32_t parent, launcher, fwd;	/* indexes, or NONE */
	uint32_t name, pid, tid;	/* interned, decoded */
	union {
		int64_t puid;	/* while reading: the parent's uid */
		struct {
			uint32_t glo, ghi;	/* its GPU events:
						 * agg_gord[glo..ghi) */
		};
	};
	union {			/* by kind: ev_arg and the others */
		struct {
			uint32_t arg[4];	/* cpu_op: input dims, types,
						 * strides, concrete */
			uint32_t perf;	/* index into agg_perf, or NONE */
		} h;
		struct {
			uint32_t stream;	/* interned text, or NONE */
			uint32_t args;	/* communication: the args JSON */
		} g;
	} u;
	uint16_t flags;
	uint8_t kind;
};

/* What an event has by its kind, NONE for another kind. */
static inline uint32_t
ev_arg(const struct ev *e, int i)
{
	return e->kind == TL_K_CPU_OP ? e->u.h.arg[i] : NONE;
}

static inline uint32_t
ev_perf(const struct ev *e)
{
	return TL_K_ISGPU(e->kind) ? NONE : e->u.h.perf;
}

static inline uint32_t
ev_stream(const struct ev *e)
{
	return TL_K_ISGPU(e->kind) ? e->u.g.stream : NONE;
}

static inline uint32_t
ev_args(const struct ev *e)
{
	return TL_K_ISGPU(e->kind) ? e->u.g.args : NONE;
}

/* A launcher or fwd link while reading: few events have one. */
struct xlink {
	int64_t uid;
	uint32_t ev;
	int fwd;
};

/* Perf-model columns of an event, when the stream has them. */
struct perf {
	double gflops, bytes;	/* NaN when absent */
	uint32_t spec, params;	/* interned, or NONE */
};

/* Grouping by a tuple of ids, groups in first-seen order. */
struct grouper {
	size_t k;		/* ids per key */
	uint32_t *key;		/* ngroup * k */
	size_t ngroup, capkey;
	uint32_t *slot;		/* group + 1 */
	size_t mask;
};

/*
 * The trace being aggregated: made by agg_start and freed by agg_end as
 * one, so that nothing of a trace is left for the next of a multi-trace
 * stream.
 */
#define NIDC	256
struct agg {
	struct tl_trace *tr;	/* the reader: the trace's name, columns */
	struct tl_intern *in;
	struct ev *e;
	size_t n, cap;
	uint32_t *gord;		/* GPU events, tree preorder */
	size_t ngord;
	uint32_t *gts;		/* all GPU events, by (ts_ns, index) */
	size_t ngts;
	uint32_t *kidoff, *kids;	/* children, CSR */
	uint32_t *roots;	/* cpu_op roots, by ts */
	size_t nroots;
	struct perf *perf;
	size_t nperf, capperf;
	int gpuonly;		/* no cpu_op in the trace */
	int python;		/* python frames are in the tree */
	uint64_t noparent;	/* parents not found */
	int64_t maxuid;		/* of every event row */
	uint32_t rank;		/* the trace's rank column, or NONE */
	struct tl_warns warns;	/* about its events */

	/* load.c: while reading. */
	struct xlink *xl;
	size_t nxl, capxl;
	int64_t base;		/* the first ts_ns */
	int havebase;
	uint64_t nnots, nnodur;	/* events without ts_ns, without dur_ns */
	uint64_t nclip;		/* events ending past INT64_MAX ns */
	uint8_t *namecls;	/* per name id: GPU class + 1, 0 unknown */
	size_t capcls;
	struct lastfield {	/* pid, tid, stream: they repeat */
		char s[32];	/* the last value, as in the stream */
		size_t n;	/* its length; 0: none */
		uint32_t id;
		struct tl_intern_last l;
	} lastpid, lasttid, laststream;
	struct grouper meta;	/* (what, pid, tid) */
	uint32_t *metaval;	/* per group of meta: the value, or NONE */
	size_t nmetaval, capmetaval;
	uint32_t mlast[3][3];	/* agg_meta's last pid, tid, value */
	uint32_t *byuid;	/* indexes by uid, without uidmap */
	uint32_t *uidmap;	/* uid - uidlo -> index, or NONE */
	int64_t uidlo;
	uint64_t nuidmap;
	struct namecache *ncache;	/* category.c: per name id */
	size_t capncache;

	/* sheet.c: what the sheets share. */
	struct launcher *l;	/* the kernel launchers (spec 4) */
	size_t nl;
	uint32_t *lk;		/* kernels of the launchers */
	uint32_t *lslot;	/* event -> launcher, or NONE */
	int launchers_done;
	int stacks_done;	/* infer.c: the launchers' call stacks */
	double totaltime;	/* of the timeline, ticks; NaN if none */
	uint64_t nkdskip;	/* instances left out of kernel details */
	struct {
		const char *s;
		uint32_t id;
	} idc[NIDC];		/* idstr's ids */
	size_t nidc;
	uint32_t tidzero;	/* the id of "0" */
	int nogpu;
	struct nrepr *nrepr;	/* Python reprs of names and arguments */
	size_t capnrepr;
	struct argrepr *argrepr;
	size_t capargrepr;
	struct tl_out reprs;
	struct tl_jdoc jd;	/* repr.c: json_parse's */
	struct urow *u;		/* ops.c: the unified rows */
	size_t nu, capurow;
	uint32_t *uk;
	size_t nuk, capuk;
};
extern struct agg *A;

/* Options. */
extern int agg_nat;		/* exact ns (1) or TraceLens's us (0) */
extern const char *agg_cdir;	/* -C: the CSV directory */
extern int agg_csv;		/* cells for TraceLens's CSV */
extern int agg_unlinked;	/* -a: unlinked GPU events on the timeline */
extern int agg_keep;		/* -k: keep the rows TraceLens drops */
extern double agg_microidle;	/* -m, us; < 0 when not given */
extern double agg_shortus;	/* -s, us */
extern int agg_bins;		/* -b */
extern long agg_topk;		/* -n; < 0 when not given */
extern double agg_launchcut, agg_runtimecut;	/* -L, -R, us */
extern double agg_kernelwait;	/* -w, us */
extern int agg_single;		/* the table asked for + 1, or 0 */

/* Ticks to us and ms. */
static inline double
agg_us(double t)
{
	return agg_nat ? t / 1e3 : t;
}

static inline double
agg_ms(double t)
{
	return agg_nat ? t / 1e6 : t / 1e3;
}

/*
 * An event's times in ticks, made from its ns when asked rather than
 * kept (24 bytes an event): ns since the first event, exact as long as
 * the difference fits in 64 bits (past that, a stream spanning 292
 * years, in floating point, not wrapped around); or us, as TraceLens.
 */
static inline double
ev_ts(const struct ev *e)
{
	int64_t d;

	if (!agg_nat)
		return (double)e->tsns / 1000.0;
	if (__builtin_sub_overflow(e->tsns, A->base, &d))
		return (double)e->tsns - (double)A->base;
	return (double)d;
}

static inline double
ev_dur(const struct ev *e)
{
	return agg_nat ? (double)e->durns : (double)e->durns / 1000.0;
}

static inline double
ev_end(const struct ev *e)
{
	return ev_ts(e) + ev_dur(e);
}

const char *agg_str(uint32_t id, size_t *n);
uint32_t agg_find(const char *s);	/* interned id of s, or NONE */
uint32_t agg_lookup(int64_t uid);	/* the event of uid, or NONE */

/* load.c: read a tree stream. The columns read only for the tables
 * that use them: */
#define AGG_COSTLY	(TL_COL(TL_C_PID) | TL_COL(TL_C_TID) | \
	TL_COL(TL_C_STREAM) | TL_COL(TL_C_DIMS) | TL_COL(TL_C_TYPES) | \
	TL_COL(TL_C_STRIDES) | TL_COL(TL_C_CONCRETE) | TL_COL(TL_C_ARGS) | \
	TL_COL(TL_C_FWD) | TL_COL(TL_C_FLOP) | TL_COL(TL_C_BYTES) | \
	TL_COL(TL_C_SPEC) | TL_COL(TL_C_PARAMS))
/* Intervals in double us, as TraceLens's GPU event analyser has them. */
struct iv {
	double s, e;
};
/* Sort and merge a[0..n) in place; the count of merged intervals. */
size_t agg_ivmerge(struct iv *a, size_t n);
/* Total length of a[0..n). */
double agg_ivlen(const struct iv *a, size_t n);

void agg_start(struct tl_trace *);	/* a trace begins: A */
void agg_row(struct tl_trace *);	/* an event row */
void agg_build(void);		/* the derived structures */
/* Times exact (as without -T) from now on: for the HTA tables of -C -d. */
void agg_exact(void);
void agg_end(void);		/* free A */
/* Metadata: process_name, process_labels, thread_name, or NONE. */
uint32_t agg_meta(int what, uint32_t pid, uint32_t tid);
enum { M_PNAME, M_PLABEL, M_TNAME };

/* Text built in memory: a tl_out with no file (tsv.h). */
#define MEMOUT	{ -1, "memory", NULL, 0, 0 }
static inline void
sb_puts(struct tl_out *o, const char *s)
{
	tl_out_raw(o, s, strlen(s));
}
/* The text as a C string (a NUL after it, not counted). */
static inline const char *
sb_cstr(struct tl_out *o)
{
	tl_out_char(o, '\0');
	o->n--;
	return o->buf;
}
/* JSON arrays as the tuples TraceLens's list_to_tuple makes. */
#define PYTUPLES	(TL_PY_TUPLES | TL_PY_TUPLES_ALL)

/* group.c (numpy): round(x, 2) and histogram(v, bins). */
double np_round2(double);
void histogram(const double *v, size_t n, int bins, double *edges,
    int64_t *count);

/* repr.c: JSON helpers. */
/* Python str() of s cut to at most n code points: 1 if it was cut. */
int utf8_cut(const char *s, size_t len, size_t n, size_t *cut);
/* Parse js[0..n) for json_get (into A->jd): 0 when it is not JSON. */
int json_parse(const char *js, size_t n);
/*
 * Look up key in the JSON object json_parse read; the value's text (a
 * string with its quotes) in *v, *vn. Returns 0 when missing or null.
 */
int json_get(const char *key, const char **v, size_t *vn);
/* A JSON value that is a string: its decoded bytes into sb, 1. */
int json_string(struct tl_out *, const char *v, size_t n);

/* category.c: TraceLens's op categories. */
struct opcat {
	const char *name, *cat, *bwdcat;
	int model;
};
const struct opcat *opcat_find(const char *name, size_t n);
const struct opcat *opcat_id(uint32_t name);	/* cached per interned id */
int has_model(uint32_t e);	/* TraceLens has_pm */
/* categorize_torch_op, with the first kernel for the fallback. */
const char *categorize(uint32_t name, uint32_t firstkernel);
/* name is that of an XLA op row (its args start with hlo_op). */
void agg_xlaop(uint32_t name);
int gpu_class(const char *name, size_t n, int kind);
/* s[0..n) contains w; contains w (lower case) in any case. */
int has(const char *s, size_t n, const char *w);
int hasci(const char *s, size_t n, const char *w);

/* A statistic of struct tl_stats (stats.h), for a column. */
#define S_SUM		offsetof(struct tl_stats, sum)
#define S_MEAN		offsetof(struct tl_stats, mean)
#define S_MEDIAN	offsetof(struct tl_stats, median)
#define S_STD		offsetof(struct tl_stats, std)
#define S_MIN		offsetof(struct tl_stats, min)
#define S_MAX		offsetof(struct tl_stats, max)

/* table.c: tables, written as a stream or as TraceLens's CSV. */
enum { V_NONE, V_INT, V_DBL, V_STR, V_BOOL };
struct cell {
	uint8_t t;
	union {
		int64_t i;
		double d;
		struct {
			uint32_t off, len;
		} s;
	} v;
};
struct table {
	const char *name;	/* the table's name for tl-agg */
	const char *sheet;	/* TraceLens's sheet, or NULL */
	size_t ncol;
	const char **col;
	const struct col *cols;	/* the declared columns, or NULL */
	struct cell *c;
	size_t ncell, capcell;
	struct tl_out s;
	int skip;		/* TraceLens writes no file */
	int blank;		/* TraceLens's CSV is a lone newline */
};
void tab_init(struct table *, const char *name, const char *sheet,
    const char *const *cols);
void tab_free(struct table *);
size_t tab_nrow(const struct table *);
void tab_int(struct table *, int64_t);
void tab_dbl(struct table *, double);	/* NaN is empty */
void tab_str(struct table *, const char *, size_t);
void tab_cstr(struct table *, const char *);	/* NULL is empty */
void tab_sb(struct table *, const struct tl_out *);
void tab_id(struct table *, uint32_t);	/* interned, NONE is empty */
void tab_none(struct table *);
void tab_bool(struct table *, int);
/*
 * A sheet is declared once, as its columns: each column's name in a
 * stream and in TraceLens's CSV (NULL when not in that output), where
 * its cell comes from in a row, and how the cell is made.
 */
enum {
	COL_ID,		/* interned id key[i] (NONE is empty) */
	COL_ARG,	/* argument JSON key[i], see tab_arg */
	COL_INT,	/* i[i] */
	COL_DBL,	/* x[i] */
	COL_STAT,	/* statistic s (S_*) of st[i] */
	COL_STR,	/* s[i] */
	COL_BOOL,	/* i[i] */
	COL_FN		/* made by the sheet's function, given i */
};
enum {
	COL_US = 1,	/* ticks, written as us */
	COL_MS = 2,	/* ticks, written as ms */
	COL_CPU = 4	/* not in TraceLens's sheet when no cpu_op */
};
struct col {
	const char *nat, *tl;
	uint8_t kind, i, s, flags;
};
#define COLS_END	{ NULL, NULL, 0, 0, 0, 0 }
/* Percentage (%) and Cumulative Percentage (%) from x[i], x[i + 1]. */
#define COLS_PCT(i) \
	{ "percent", "Percentage (%)", COL_DBL, (i), 0, 0 }, \
	{ "cumulative_percent", "Cumulative Percentage (%)", COL_DBL, \
	    (i) + 1, 0, 0 }
/* The cells of a row, as the columns of its sheet pick them. */
struct row {
	uint32_t key[12];
	int64_t i[3];
	double x[8];
	struct tl_stats st[4];
	const struct tl_out *s[2];
};
typedef void colfn(struct table *, const struct row *, int i);
void tab_cols(struct table *, int which, const struct col *cols);
void tab_row(struct table *, const struct row *, colfn *);
void tab_header(struct tl_out *, const struct table *, int trace);
void tab_tsv(struct tl_out *, const struct table *, const char *trace);
int tab_csv(const struct table *, const char *dir);

/* group.c: intervals, groups and their statistics. */
/* TraceLens's subtract(A, B): the parts of B not in A, into out. */
size_t ivsub(const struct iv *Av, size_t na, const struct iv *Bv, size_t nb,
    struct iv *out);
double busy(const uint32_t *ev, size_t n);	/* of the events ev[0..n) */
/* xgrow (mem.h) that zeroes the new elements: tables by interned id. */
void xgrowz(void *pp, size_t *cap, size_t n, size_t size);
size_t gfind(struct grouper *g, const uint32_t *k);
void gfree(struct grouper *g);
/* Members of groups: CSR from the group of each row. */
void members(const uint32_t *grp, size_t nrow, size_t ngroup, size_t **off,
    uint32_t **mem);

/* sheet.c: what the sheets share. */
/* Kernel launchers (spec 4). */
struct launcher {
	uint32_t ev;
	uint32_t k0, nk;	/* direct kernels in lk[], by ts */
	double direct, subtree;
	uint32_t cat;		/* interned category */
};
extern struct iv *ivbuf;
extern size_t capiv;
extern struct tl_out sb, sb2, kdfull;
uint32_t idstr(const char *s);
/* Order of interned strings (tl_intern_cmp): NONE last. */
static inline int
cmpid(uint32_t a, uint32_t b)
{
	return tl_intern_cmp(A->in, a, b);
}
/* Numeric order of texts that are numbers, else cmpid; NONE last. */
int cmpnum(uint32_t a, uint32_t b);
void sb_stream(struct tl_out *b, uint32_t id, int json);
void sb_np(struct tl_out *b, double ticks);
void kdsummary(struct tl_out *full, struct tl_out *trunc, const uint32_t *ev,
    const size_t *off, size_t n);
void tab_arg(struct table *t, uint32_t id);
uint32_t evmeta(int what, const struct ev *e);	/* "Unknown" if none */
void percents(const double *x, size_t n, double *pct, double *cum);
double pct_total(double sum);
void sortidx(uint32_t *a, size_t n, int (*cmp)(const void *, const void *));
void launchers(void);

/*
 * The tables, one file per family: each built by a function given its
 * table, tabs[which] of the array of all the tables (indexed by T_*).
 */
typedef void builder(struct table *t, int which);
builder timeline, opsums, unique_args, unified, kernels, short_kernels,
    collectives, idle, launch, overlap, streams;

/* sheet.c: the TraceLens sheets. */
enum {
	T_TIMELINE, T_CATEGORIES, T_OPS, T_UNIQUE, T_UNIFIED, T_KERNELS,
	T_SHORT, T_HIST, T_COLL, T_IDLE, T_LAUNCH, T_LAUNCHSTATS, T_OVERLAP,
	T_STREAMS,
	T_ICATS, T_IOPS, T_IUNIQUE,	/* infer.c: the inference ops sheets */
	NTABLES
};
struct tabdef {
	const char *name, *sheet;	/* tl-agg's, TraceLens's (or NULL) */
	uint64_t need, use;	/* columns: required, read when there */
	builder *build;
};
extern const struct tabdef agg_tab[NTABLES];
extern int agg_want[NTABLES];	/* the tables asked for */
void sheets(struct table *tabs);
void sheets_final(void);

/* infer.c: the inference report's ops sheets (-I). */
extern int agg_infer;		/* I_* of -I, 0 without */
#define I_ON		1	/* -I given */
#define I_MODULE	2	/* grouped by parent module, call stacks */
#define I_KERNELS	4	/* grouped by number of kernels */
#define I_STACK		8	/* unified: entry_point, call_stack_full */
builder iopsums, iunique;
void infer_want(int *want, int csv);
void infer_sheets(struct table *tabs);
int infer_opt(char *s);

/* hta.c: idle time, launch delay, overlap, streams. */
void hta(struct table *tabs);

/* Warnings about the trace being aggregated. */
void agg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void agg_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void agg_empty(const struct table *, const char *why);
void agg_warns_end(void);

/* ops.c: perm[0..n) by key desc, then uid asc (stable). */
void agg_sortdu(size_t *perm, size_t n, const double *key, const int64_t *uid);
/* ops.c: a group's distinct categories, sorted, into o (o->n reset). */
void agg_catlist(struct tl_out *o, uint32_t *cats, size_t ncat);
int agg_opsheet(struct table *t, int which, const struct col *cols);
extern const struct col agg_catcols[];
void agg_sumrows(struct table *t, int bycat, const uint32_t *mod,
    const uint32_t *stack);

/* An op instance of ops_unique_args or the unified perf summary. */
struct oprow {
	uint32_t ev, name, cat;
	uint32_t xk[2];		/* extra keys of the group (0: none) */
	int64_t uid;
	double time;		/* ticks: the order of the groups */
	const uint32_t *k;	/* its GPU events */
	size_t nk;
};

/* The cells of a group of the rows mem[0..m), with a scratch of m. */
typedef void opfill(struct row *, const uint32_t *mem, size_t m, double *a);
void agg_argrows(struct table *t, const struct oprow *R, size_t n, int us,
    opfill *fill);
void agg_lfill(struct row *r, const uint32_t *mm, size_t m, double *a);
struct oprow *agg_launcherrows(void);

#endif
