/*
 * tl-ranks: what the files of the cross-rank stage share: the summaries
 * read, the collective instances and the checks of the run (join.c),
 * TraceLens's tables (tables.c), the all_to_allv tables (a2a.c) and
 * HTA's cross-rank tables (htab.c).
 */
#ifndef TL_RANKS_JOIN_H
#define TL_RANKS_JOIN_H

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/input.h"
#include "../../common/intern.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/pyfmt.h"
#include "../../common/stats.h"
#include "ranks.h"

#define NONE	UINT32_MAX

/* A collective kernel of a rank. */
struct crow {
	uint32_t meta[9];	/* interned JSON text; NONE: null */
	uint32_t stream;	/* interned, NONE */
	uint32_t name;		/* the kernel's */
	uint32_t rk;		/* its rank's index in rks */
	uint32_t pg;		/* interned Process Group Name text */
	uint32_t inst;		/* its instance */
	uint32_t next;		/* the next rank's row of the instance */
	int64_t ts, dur;	/* ns */
	int64_t idx;		/* index_in_group */
};

/* A rank. */
struct rk {
	int64_t rank, ndev, world;
	const char *trace, *src;
	uint64_t line;
	size_t c0, nc;		/* its rows: rows[c0..c0+nc) of order */
	int64_t hta[2][6];
	unsigned hhas[2];
	int wcol;		/* straggler: its wait column, or -1 */
};

/* A collective instance: the rows of one collective_id. */
struct inst {
	uint32_t first, last;	/* crow indexes */
	uint32_t pg;
	int64_t idx;
};

/* HTA's iteration extents and candidate kernels. */
struct itrec {
	int64_t rank, iter, ts, dur;
	int var;
};

struct cdrec {
	int64_t rank, iter, stream, ts, dur, order;
	uint32_t name;
	int var;
};

#define VT(ns, f)	((f) ? vdbl((double)((ns) / 1000) + \
			    (double)((ns) % 1000) / 1000) : vus(ns))
#define VTS(ns)		VT(ns, tsfloat)

#define VDUR(ns)	VT(ns, durfloat)

#define VEND(ns)	VT(ns, tsfloat || durfloat)

/* TraceLens's collective types. */
enum { T_NONE, T_ALLREDUCE, T_REDSCAT, T_ALLGATHER, T_ALLTOALL, T_A2AV };

/* Groups: key cells per group, members in row order. */
struct groups {
	size_t nkey, n, cap;
	struct val *key;	/* n * nkey */
	size_t **mem;
	size_t *nmem, *capmem;
	double *sortv;
};

/* Statistics of times (ns): integers stay integers. */
enum { ST_MEAN, ST_MEDIAN, ST_MIN, ST_MAX, ST_STD, ST_SUM, ST_COUNT };

extern int j_heatmap;
extern char **j_metrics;
extern size_t j_nmetrics;
extern struct tl_intern *in;
extern struct crow *cr;
extern size_t ncr, capcr;
extern struct rk *rks;
extern size_t nrk, caprk;
extern struct inst *insts;
extern size_t ninst, capinst;
extern struct itrec *its;
extern size_t nits, capits;
extern struct cdrec *cds;
extern size_t ncds, capcds;
extern uint32_t *order;
extern struct val *jcache;
extern size_t capj;
extern struct tl_out sb;
extern int simplified;
extern int tsfloat, durfloat;
extern struct tl_warns warns;
extern uint32_t *steps;
extern size_t nsteps, capsteps;
extern const char *const hname[6];
struct val jv(uint32_t id);
uint32_t jid(const char *s);
double bpe(uint32_t dtype);
uint32_t collname(const struct crow *c);
uint32_t meta(const struct crow *c, int k);
double mib(const struct crow *c, int w);
int ctype(uint32_t id);
extern struct tl_tsv *jt;
int load(int nops, char **ops);
void checkranks(void);
void ordering(void);
const char *celltext(struct val v, char *buf);
void match(void);
extern const char **instid;
void ids(void);
void ordercheck(void);
void addcols(struct table *t, const char *const *c);
const char *fmtcol(const char *a, int64_t r, const char *b);
struct val nodespan(uint32_t id);
void t_long(struct table *t);
void gadd(struct groups *g, const struct val *k, size_t row);
void gfree(struct groups *g);
size_t *gorder(struct groups *g);
struct val valstat(int which, const struct val *v, size_t n);
double sumof(const struct val *v, size_t n);
int metricnum(const char *m);
void t_summary_long(struct table *t);
void check(size_t ii, const int *fields, int nf, const char *const *names);
extern struct isync *isr;
extern size_t nisr;
extern size_t *wcolrank;
extern size_t nwcol;
extern int64_t *waits;
void t_isync(struct table *t);
void t_summary_isync(struct table *t);
double np_round(double x, int d);
void t_straggler(struct table *t);
extern struct a2a *a2r;
extern size_t na2r;
void t_a2av(struct table *t);
void t_summary_a2av(struct table *t);
void t_heatmap(struct table *t);
extern int hvar;
double us(int64_t ns);
void t_overlap(struct table *t);
void t_temporal(struct table *t);
void t_stragglers(struct table *t);

#endif
