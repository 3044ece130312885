/*
 * tl-tree: declarations shared by the sources of tl-tree (filters/tl-tree.c
 * and filters/tl-tree/ *.c), and by nothing else. A trace is one struct
 * trace: everything read, built and written of it, freed as a unit.
 */
#ifndef TL_TREE_H
#define TL_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/intern.h"
#include "../../common/mem.h"
#include "../../common/sort.h"
#include "../../common/trace.h"
#include "../../common/tsv.h"

#define NONE		UINT32_MAX
#define NOID		INT64_MIN	/* absent correlation, id, ... */
/* An id as a tl_sortkey key: the same order, unsigned. */
#define GLKEY(k)	((uint64_t)(k) ^ UINT64_C(1) << 63)

enum {
	F_NOTS = 1 << 0,	/* no ts_ns: left out of the tree */
	F_TREE = 1 << 1,	/* host event placed by the host pass */
	F_DROPPED = 1 << 2,	/* ... but left out by the bleed rule */
	F_LINKED = 1 << 3,	/* GPU event reached by a launch */
	F_EXECUTE = 1 << 4,	/* cpu_op "execute": not a launcher */
	F_GRAPH = 1 << 5,	/* cudaGraphLaunch / hipGraphLaunch */
	F_MODULE = 1 << 6,	/* python_function "nn.Module: ...", but -s */
	F_EVALFN = 1 << 7,	/* autograd::engine::evaluate_function: */
	F_GPUBELOW = 1 << 8,	/* (-g) a GPU event in the subtree */
	F_2021 = 1 << 9,	/* of the 2021 generation (its cat in extra) */
	F_OPBELOW = 1 << 10	/* (-s) an event other than a python frame in
				 * the subtree, or itself */
};

/* One event the tree needs: tens of bytes. */
struct rec {
	int64_t uid, ts, end;
	union {
		struct {
			int64_t direct, subtree;	/* host: busy ns */
		} h;
		uint32_t launcher;			/* linked GPU */
	} u;
	uint32_t pid, tid;		/* interned, as written (escaped) */
	uint32_t parent, root, depth;
	uint16_t flags;
	uint8_t kind;			/* TL_K_*: host, GPU or other */
};

/* Of a record, what only nn_module and the drawings read (not -s). */
struct recname {
	uint32_t name;			/* interned, as written (escaped) */
	uint32_t module;		/* nn_module: 0 none, 1 root, else
					 * the innermost frame's mnode + 2 */
};

/*
 * The ac2g flow events of one id: the last "s" and the last "f". As the
 * trace is read, one per flow event; then (flows) one per id, by id.
 */
struct flow {
	int64_t id;
	uint32_t fpid, ftid;
	uint32_t g;		/* the event it leads to, or NONE (linkgpu) */
	uint8_t s, f;
	uint8_t old;		/* an "async" flow of the 2021 generation */
};

/* A record and a key: a sequence number, or a linking key. */
struct keyrec {
	int64_t key;
	uint32_t rec;
};

struct pair {
	uint32_t a, b;
};

/* Open addressing; v is a value + 1, 0 when the slot is empty. */
struct hslot {
	uint64_t h;
	uint32_t v;
};

struct htab {
	struct hslot *s;
	size_t mask, n;
};

typedef int heq(uint32_t v, const void *key);

/*
 * The slot holding the entry of hash h (for which eq holds, when eq is
 * not NULL), or the empty slot where it would go.
 */
static inline struct hslot *
hfind(struct htab *t, uint64_t h, heq *eq, const void *key)
{
	struct hslot *s;
	size_t i;

	if (t->s == NULL) {
		t->mask = 63;
		t->s = xcalloc(t->mask + 1, sizeof *t->s);
	}
	for (i = h & t->mask;; i = (i + 1) & t->mask) {
		s = &t->s[i];
		if (s->v == 0 || (s->h == h && (eq == NULL ||
		    eq(s->v - 1, key))))
			return s;
	}
}

/* Host call stack of one (pid, tid). */
struct thr {
	uint32_t pid, tid;
	uint32_t *st;
	size_t n, cap;
	uint32_t *mod;		/* the mnodes of its open module frames */
	size_t nmod, capmod;
};

/*
 * The nn.Module stacks: a node per module frame pushed, linked to the
 * node of the frame around it. An event holds its stack as one node; the
 * names are joined only as its row is written, so memory stays linear in
 * the events however deep and long the stacks are.
 */
struct mnode {
	const char *s;		/* the name, no trailing _<digits>: a */
	size_t n;		/* prefix of the interned event name */
	size_t len;		/* of the names down to here joined by ";" */
	uint32_t up;		/* the enclosing frame's node, or NONE */
};

/* The text of the uid of record rec, as written last in a column. */
struct uidtext {
	uint32_t rec;
	size_t n;
	char d[TL_I64_MAX];
};

/*
 * The trace being read: a stream, or the part of one that a trace_file
 * row starts.
 */
struct trace {
	const char *name;	/* rd->name: the stream's, or the trace_file
				 * row's */
	struct tl_intern *in;
	struct rec *R;
	size_t nrec, caprec;
	struct recname *rn;	/* of each record; NULL with -s */
	size_t caprn;
	struct keyrec *corr, *extid;	/* the records with one, in order;
					 * once lk is chosen, its key's only */
	size_t ncorr, capcorr, nextid, capextid;
	uint64_t *rowbit;	/* rows that have a record */
	size_t nrow, caprowbit;
	struct tl_out sp;	/* the spool of the rows: memory, then */
	char *sppath;		/* a temporary file for the rest */
	char *spmem;		/* once there is one, the memory's rows */
	size_t nspmem;
	struct flow *flow;
	size_t nflow, capflow;
	int bykey;		/* no flow events: linked by key alone */
	struct tl_sortkey *fkey;	/* of each flow by id: GLKEY(id) */
	uint32_t *gpu;		/* the GPU events' records */
	size_t ngpurec, capgpu;
	struct keyrec *sq;	/* the records with a sequence number */
	size_t nsq, capsq;
	uint32_t *pick;		/* -e matches */
	size_t npick, cappick;
	int lk;			/* 0 undecided, 1 correlation, 2 External id */
	int uidsorted;		/* so far: uidtab is only filled when not */
	int64_t lastuid;
	struct htab uidtab;
	struct tl_intern_last lastpid, lasttid;	/* repeat from row to row */
	struct tl_warns warns;
	uint64_t nnots, nnodur, nclip, nbadid, ngraph;
	uint64_t nhost, ndrop, ngpu, nlinked, nrefused, ndup;
	uint64_t n2021, nnocorr;	/* of the 2021 generation: events,
					 * GPU events without a correlation */

	/* Built (build.c). */
	uint32_t *order;	/* host events by ts, stable */
	size_t norder;
	struct thr *thr;
	size_t nthr, capthr;
	struct htab thrtab;
	struct mnode *mnode;
	size_t nmnode, capmnode;
	struct pair *fwd, *bwd;	/* (bwd, fwd) by bwd, (fwd, bwd) by fwd */
	size_t nfb, capfwd;

	/* -s: the flow rows (ac2g), and the row of the largest uid */
	uint64_t *flowbit;
	size_t capflowbit;
	int64_t maxuid;
	size_t maxrow;

	/* Written or drawn (write.c). */
	size_t orow, orec, ofwd, obwd;
	int inrow, droprow;	/* a line comes in parts; -s leaves it out */
	char *mjoin;		/* the module stack written last, joined */
	size_t capmjoin;
	uint32_t mjoined;
	struct uidtext parent, root;	/* repeat from row to row */
	uint32_t *kidoff, *kid;

	/* -c: the events of each name counted, and the row before which
	 * the counts are written (the first event row's; SIZE_MAX: none,
	 * then after the last row) */
	uint64_t *count;
	size_t firstev;
};

/* Options (tl-tree.c). */
extern int Aflag, Fflag, gflag, pflag, Pflag, nflag, sflag, uflag, eflag;
extern int64_t dlimit, nodeuid, upuid, eext;
extern char *epid, *etid;
extern int found;	/* -e, -n or -u found their event */
/* -c: the names counted, escaped as the stream has them */
struct cname {
	char *s;
	size_t n;
};
extern struct cname *cname;
extern size_t ncname;
extern struct tl_out out;
#define NTREECOL	10
extern const char *const treecol[NTREECOL + 1];	/* NULL-terminated */

/* tl-tree.c */
void finish(struct trace *);

/* read.c: the input, a trace's making and freeing, hash tables. */
/* The columns the reader is asked for: those tl-tree needs, and -p's
 * trace. */
#define TREE_NEED	(TL_COL(TL_C_PH) | TL_COL(TL_C_PID) | \
	TL_COL(TL_C_TID) | TL_COL(TL_C_TS) | TL_COL(TL_C_DUR) | \
	TL_COL(TL_C_ID) | TL_COL(TL_C_CORR) | TL_COL(TL_C_EXT) | \
	TL_COL(TL_C_SEQ))
#define TREE_USE	TL_COL(TL_C_TRACE)
extern int col[TL_NCOL];	/* the input's columns, or -1 */
extern int xcol;		/* the input's column "extra", or -1 */
extern int argcol;		/* the input's column "args", or -1 */
extern struct tl_trace *rd;	/* the reader of the input */
extern struct trace *rtrace;	/* the trace being read */
void tree(void);
struct trace *trace_new(const char *name);
void trace_free(struct trace *);
void warnev(struct trace *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int same(const char *s, size_t n, const char *lit);
void unspool(struct trace *,
    void (*)(struct trace *, const char *, size_t, int));
void hset(struct htab *, struct hslot *, uint64_t h, uint32_t v);
void hfree(struct htab *);

/* build.c */
void hosttree(struct trace *);
void linkgpu(struct trace *);
void kerneltime(struct trace *);
void fwdbwd(struct trace *);

/* write.c */
void writerows(struct trace *);
void print(struct trace *);

#endif
