/*
 * tl-ranks: the collectives of a distributed run, one trace per rank.
 * The per-rank stage (map.c) reads one rank's tree stream and writes
 * the rank's summary: its collective kernels and the sums and rows HTA's
 * cross-rank tables need. The cross-rank stage (join.c, hta.c) reads
 * the summaries of all ranks and writes TraceLens's and HTA's tables
 * (table.c) as streams or CSV files.
 */
#ifndef TL_RANKS_H
#define TL_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/tsv.h"

/* A cell: absent, an integer, a float, a text (shown as it is) of n
 * bytes; 16 bytes, as the tables hold a few per collective kernel. */
enum { V_NONE, V_INT, V_DBL, V_STR };
struct val {
	int t;
	uint32_t n;		/* V_STR */
	union {
		int64_t i;	/* V_INT */
		double d;	/* V_DBL */
		const char *s;	/* V_STR */
	};
};

/* A table: columns, then rows of ncol cells. */
struct table {
	const char *name;
	size_t ncol, capcol;
	char **col;
	size_t nrow, caprow;
	struct val *cell;	/* nrow * ncol */
	int skip;		/* not written */
	int nocols;		/* a CSV file of one empty line (pandas's
				 * frame without columns) */
};

void tab_addcol(struct table *, const char *name);
int tab_findcol(const struct table *, const char *name);
/* A new row, every cell absent; returns its cells. */
struct val *tab_newrow(struct table *);
void tab_write(struct table *, struct tl_out *, int csv);
void tab_free(struct table *);

struct val vnone(void);
struct val vint(int64_t);
struct val vdbl(double);		/* NaN: absent */
struct val vstr(const char *);
struct val vstrn(const char *, size_t);	/* n bytes, NULs and all */
struct val vus(int64_t ns);		/* microseconds: exact, an
					 * integer when whole */
double vnum(const struct val *);	/* NaN when not a number */

/* A string kept until the end (or keep_free). */
const char *keep(const char *s, size_t n);
void keep_free(void);

/* The per-rank summary's columns (tl-ranks(1)). */
enum {
	S_RANK, S_TRACE, S_REC, S_VARIANT, S_ITER, S_STREAM, S_TS, S_DUR,
	S_VALUE, S_NAME, S_META, S_NCOL = S_META + 9
};
extern const char *const sumcol[S_NCOL + 1];	/* NULL-terminated */
/* The 9 arguments of a collective kernel, in summary order. */
extern const char *const metakey[9];
enum {
	M_PGNAME, M_PGRANKS, M_COLL, M_GSIZE, M_DTYPE, M_INNEL, M_OUTNEL,
	M_INSPLIT, M_OUTSPLIT
};

/* The per-rank stage: tl-ranks -m. */
int rank_map(int nops, char **ops, int eflag, long rank);

/* The cross-rank stage's options. */
extern long j_world;		/* -w: -1 none */
extern long j_gpn;		/* -g: -1 auto, 0 none */
extern int j_heatmap;		/* -H */
extern char **j_metrics;	/* -a */
extern size_t j_nmetrics;
int rank_join(int nops, char **ops, const char *csvdir, const char *tsvdir,
    const char *only);
/* Its parts: the summaries of a source in; the tables made; back to the
 * state before any input. */
struct tl_src;
int join_src(struct tl_src *);	/* 1: a read failed */
void join_tables(void);
void join_reset(void);

#endif
