/*
 * tl-hta: what its sources share. A rank's table is an array of rows,
 * HTA's loaded DataFrame: one row per kept event, in HTA's row order,
 * times in µs as HTA has them (section 1 of the spec, tl-hta(1) LOADING).
 */
#ifndef TL_HTA_H
#define TL_HTA_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/intern.h"
#include "../../common/tsv.h"

#define NOITER	INT32_MIN	/* iteration: NaN */

struct row {
	int64_t index;		/* the event's uid */
	int64_t ts;		/* µs, aligned once loaded */
	double dur;		/* µs */
	double bw;		/* args "memory bandwidth (GB/s)", 0 */
	int64_t stream, corr, ic, ext;
	int32_t iter;
	uint32_t cat, name, pid, tid;
};

struct rank {
	int64_t rank;
	char *file;
	struct row *r;
	size_t n, cap;
	int mtia;		/* distributedInfo.backend holds mtia:hccl */
	struct prof {		/* the cuda_profiler_range events */
		int64_t index;
		char *args;	/* their args, JSON */
	} *prof;
	size_t nprof;
	struct wait {		/* the events with args wait_on_... */
		int64_t index, stream, corr;
	} *w;			/* in index order */
	size_t nw;
	size_t *gpu;		/* the rows with a stream, once asked for */
	size_t ngpu;
	size_t dropped;		/* the rows left out as lean, */
	int64_t dmin;		/* their smallest ts (INT64_MAX) */
};

extern struct tl_intern *hta_str;
extern struct rank *hta_rk;
extern size_t hta_nrk;
extern int64_t hta_mints;	/* the alignment: ts + hta_mints is raw */

/* HTA's end: ts + dur before alignment (spec 1.8). */
#define ENDRAW(r)	((double)((r)->ts + hta_mints) + (r)->dur)

/* What is known of a name, once per name (nameinfo). */
enum {
	NI_KNOWN = 1 << 0,
	NI_COMP = 1 << 1, NI_COMM = 1 << 2, NI_MEM = 1 << 3,	/* ktype << 1 */
	NI_OTHER = 1 << 4,
	NI_STATS = 1 << 5,	/* a launch of cuda_kernel_launch_stats */
	NI_QUEUE = 1 << 6,	/* a launch of the queue length */
	NI_SYNC = 1 << 7,	/* Event Sync, Context Sync */
	NI_STEP = 1 << 8,	/* ^ProfilerStep#\d+ */
	NI_PSTEP = 1 << 9,	/* ^ProfilerStep */
	NI_MEMNAME = 1 << 10	/* ^(Memcpy|Memset|hipMemcpy|hipMemset|dma) */
};
unsigned hta_ni(uint32_t name);

/* The options (tl-hta(1)). */
struct hta_opt {
	int include_last;
	double ckd;		/* consecutive_kernel_delay, µs */
	double duration_ratio;
	long num_kernels;
	long max_queue_length;
	char **only;
	size_t nonly;
	const char *outdir;
	char **seqops;		/* --frequent_sequences */
	size_t nseqops;
	long min_pattern_len;
	int lean;		/* only analyses of the GPU rows and joins */
};
extern struct hta_opt hta_o;

/* load.c */
void hta_load(int nops, char *const *ops, int want,
    int64_t (*rankof)(const char *file), int full);
int64_t hta_stepnum(uint32_t name);
void hta_free(void);
const char *hta_s(uint32_t id, size_t *n);

void hta_stable(size_t *perm, size_t n, int (*cmp)(size_t, size_t));
double hta_round(double x, int d);
void hta_describe(const double *v, size_t n, double out[8]);
int hta_ktype(const char *s, size_t n);
enum { KT_COMP = 1, KT_COMM = 2, KT_MEM = 4, KT_OTHER = 8 };

/* A CSV file being written into the output directory. */
struct csv;
extern char **hta_written;	/* the paths csv_open made, in order */
extern size_t hta_nwritten;
struct csv *csv_open(const char *name);
void csv_close(struct csv *);
void csv_handed(struct csv *);	/* a fork writes and closes it */
void csv_s(struct csv *, const char *s, size_t n);
void csv_id(struct csv *, uint32_t id);
void csv_i(struct csv *, int64_t v);
void csv_f(struct csv *, double v);	/* NaN: empty */
void csv_num(struct csv *, double v);	/* an integer when whole */
void csv_end(struct csv *);
void csv_hdr(struct csv *, const char *line);	/* a whole line */

/* diff.c */
uint32_t hta_short(uint32_t name);
struct diffopt {
	int64_t crank, trank, citer, titer;	/* -1: the default */
};
struct side {
	struct rank *rk;
	size_t n;
};
void hta_diff(const struct side *control, const struct side *test,
    const struct diffopt *);
void hta_memtimeline(const char *path);

/* seq.c: HTA's call graph (spec 12.1) */
struct cg {
	size_t *parent, *child, *next;	/* first child, next sibling */
	int64_t *depth;			/* -1: not in the graph */
	int64_t *nk;			/* GPU descendants */
	double *kdur;			/* their durations */
};
void hta_callgraph(const struct rank *, struct cg *);
void hta_cgfree(struct cg *);

/* cupti.c */
void hta_cupti(void);
void hta_sequences(char **ops, size_t nops, long minlen);

/* an.c: the queue-length series of a rank (section 8) */
struct qpt {
	const struct row *ev;	/* the launch or the kernel */
	const struct row *gpu;	/* the kernel (its stream, pid, tid) */
	int q;			/* +1, -1 */
	int64_t len;
};
size_t hta_qseries(const struct rank *, struct qpt **, int64_t **streams,
    size_t *nstreams);
const struct wait *hta_wait(const struct rank *, int64_t index);

/* overlay.c: a flow of the overlaid trace, an edge of the path */
struct cpflow {
	int64_t src, dst;	/* event indexes */
	int sstart, dstart;	/* start nodes */
	double w;
	const char *type;
};
void hta_overlay(const struct rank *, int j, const int64_t *crit,
    size_t ncrit, const struct cpflow *, size_t nfl);

/* cp.c */
void hta_critical(const char *spec, int j, char **dl, size_t ndl);

/* aten.c */
void hta_aten(void);

/* an.c */
void hta_run(void);
int hta_want(const char *name);

#endif
