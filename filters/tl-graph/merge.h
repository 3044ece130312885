/*
 * tl-graph: what the merge's files share: the capture folder and its
 * traces (folder.c), the alignment of captures to graph launches and
 * SGLang's names (align.c), and the output tree (output.c).
 */
#ifndef TL_GRAPH_MERGE_H
#define TL_GRAPH_MERGE_H

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/interval.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/opt.h"
#include "../../common/tsv.h"
#include "graph.h"

/* The capture folder's entries. */
struct entry {
	long long bs;
	int piecewise;
	char *path;		/* NULL: the file is missing */
};

/* A capture trace, loaded once, and its capture roots. */
struct capture {
	char *path;
	struct tree t;
	size_t nroot;
	int64_t *rts, *rte;	/* window of each capture root */
	uint32_t **rev;		/* its root events, window order */
	size_t *nrev;
};

/* A merged pair: a capture root spliced under a graph launch. */
struct pair {
	struct capture *c;
	size_t croot;
	uint32_t g;		/* the graph launch, replay index */
	int64_t start;		/* uid of its CaptureRoot */
	uint32_t *ce;		/* spliced events (capture index, NONE for
				 * the CaptureRoot), in uid order */
	size_t nce;
	uint32_t *gk, *ck;	/* aligned GPU events and launches */
	size_t nk;
};

/* Reasons a GPU event under a graph launch is left there. */
enum {
	R_NOROOT, R_NOBS, R_NOCAP, R_ROOTS, R_NOKERN, R_ALIGN, R_TWICE,
	R_FAILED, R_NOFOLDER, NREASON
};

extern struct entry *ent;
extern size_t nent;
extern struct capture *cap;
extern size_t ncap;
extern struct pair *pairs;
extern size_t npair, cappair;
extern int graph_nopipe;
extern struct tree rep;
extern struct tl_out out;
extern int64_t nextuid;
extern struct tl_warns warns;
extern const char *folder, *details;
extern const char *const reason[NREASON];
extern uint64_t left[NREASON], ngraphk, nplaced;
extern int64_t lefttime, gputime;
extern int nflag;
extern int gflag;
extern int Fflag;
extern int vflag;
extern int uflag;
extern uint8_t *ren;
extern size_t capren;
void readdetails(void);
struct capture *loadcap(const char *path);
long align(const struct tree *ct, uint32_t *cl, size_t nc, uint32_t *gl, size_t ng, uint32_t *gk, uint32_t *ck);
int merge(void);
extern char **fld;
extern size_t *fln;
void sglnames(void);
void rename_(uint32_t name, int col);
int renamed(uint32_t name);
void header(void);
void direct(char *row, size_t len, const struct ev *e);
void writeall(FILE *spool);

/* output.c: a row of the output, split into fld/fln (rep's columns) */
void out_cols(void);
int out_col(int c);
size_t out_split(char *line, size_t len);
int out_isevent(const char *line, size_t len);
void out_putline(const char *line, size_t len);
void out_setnum(int c, int64_t v);
void out_setstr(int c, const char *s);
void out_putrow(void);
uint32_t out_modpush(uint32_t stack, uint32_t name, char **mb, size_t *mcap);

/* pseudo.c: -p */
extern int pflag;
void pseudo_begin(FILE *spool);
void pseudo(FILE *spool);
void pseudo_free(void);

#endif
