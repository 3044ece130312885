/*
 * tl-jax: what its files share: the events of the stream and their names (load.c), the kernel rows with their categories and links (rows.c), the CSV writer and the GPU timeline (timeline.c), the launcher sheets (launchers.c) and the op_ sheets with their models (models.c).
 */
#ifndef TL_JAX_H
#define TL_JAX_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* memmem, strcasestr */
#endif
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/csv.h"
#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/intern.h"
#include "../../common/jaxpm.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/npsort.h"
#include "../../common/opt.h"
#include "../../common/pyfmt.h"
#include "../../common/stats.h"
#include "../../common/trace.h"
#include "../../common/tsv.h"

#define NONE	UINT32_MAX

struct ev {
	int64_t uid, tsns, durns, corr, devid, rawcorr;
	double ts, dur;			/* us */
	int pid;
	int64_t tid;
	uint32_t name, hloop, ops, meta, cct, out, bcfg;
	int hascorr, hasdev, kind;	/* kind: TL_K_* */
	int parent;			/* index, -1 */
};

#define NCAT TL_JAX_NCAT

#define UNCAT	NCAT	/* Uncategorized Events/XLA */

enum { M_REST, M_GEMM, M_TE, M_TEBWD, M_CONV, M_CONVBWD };

#define MAXD TL_XMAXD

struct krow {
	size_t e;
	int cat, model, hasmeta;
	struct tl_xshape *op, outs;	/* op: only for a kernel with a model */
	int nop, hasout;
	uint32_t dims, types, conc;
	double lat;
};

extern struct ev *E;
extern size_t nE, capE;
extern struct tl_intern *in;
extern int tflag;
extern char **kw;
extern size_t nkw;
extern struct pname *names;
extern struct tl_jdoc doc;
extern char *dec;
const char *S(uint32_t id, size_t *n);
extern int namesorted, gpucache, gpucached;
void load(int argc, char **argv);
uint32_t procname(int pid);
uint32_t threadname(int pid, int64_t tid);
int hasstr(uint32_t id, const char *sub);
int prefix(uint32_t id, const char *p);
extern int *isgpu;
int gpupid(int pid);
void linkevents(void);
extern const char *const catname[];
const char *catstr(int c);
extern struct krow *K;
extern size_t nK;
void puttuple(struct tl_out *o, const int64_t *d, int n);
int operands(uint32_t ops, struct tl_xshape *op);
void pyrepr(struct tl_out *o, uint32_t id);
void kernelrows(void);
int kept(const struct krow *k);
extern struct tl_out co, kdo;
extern const char *csvdir, *onesheet;
void begin(const char *const *cols);
void cell(const char *s, size_t n);
void cells(const char *s);
void celli(int64_t v);
void cellf(double v);
void cellid(uint32_t id);
void endrec(void);
void finish(const char *name);
void timeline(void);
void kstats(struct tl_out *o, const size_t *rows, size_t n);
void launchers(void);
void opsheets(void);

#endif
