/*
 * tl-rocprof: what the report files share: the events read from the
 * stream (read.c), the CSV cell writers, the options, and each report's
 * entry point (rocprof.c, activity.c, api.c).
 */
#ifndef TL_ROCPROF_H
#define TL_ROCPROF_H

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/csv.h"
#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/input.h"
#include "../../common/intern.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/opt.h"
#include "../../common/pyfmt.h"
#include "../../common/sort.h"
#include "../../common/stats.h"
#include "../../common/tsv.h"

enum { A_BEGIN, A_END, A_DELTA, A_GRID, A_WG, A_VGPR, A_ACCUM, A_SGPR,
	A_LDS, A_SCRATCH, A_STREAM, A_OP, A_TID, A_BYTES, A_SRC, A_DST, A_DEV,
	NA };

struct ev {
	const char *name, *cat, *kname;
	size_t nlen;
	int64_t pid, tid, ts, dur;
	int haspid, hastid, hasts, hasdur, isx;
	uint64_t order;
	int grp;
	int64_t a[NA];
	unsigned has;		/* bit per A_ */
	int agent;		/* index + 1 in agents, or 0 */
	int hascorr, corrapi;	/* a corr; args.corr_id not null */
	int64_t corr;
};

struct kern {
	const char *name;
	int64_t ts, dur, stream, dispatch, grid[3], block[3], agent, thread;
};

struct hix {
	size_t *v;
	size_t cap, n;
};

void opensheet(const char *dir, const char *name);
void opensheetf(struct tl_file *f, const char *dir, const char *name);
void usesheet(struct tl_file *f);
void closesheetf(struct tl_file *f);
void closesheet(void);
void ccstr(const char *s);
void craw(const char *s, size_t n);
void cint(int64_t v);
void cfloat(double v);
void endline(void);
void header(const char *const *h);
void emptyframe(const char *dir, const char *name);
extern struct ev *evs;
extern size_t nev, capev;
extern char **agents;
extern size_t nagents;
extern int pfrows;
extern struct kern *kerns;
extern size_t nkern, capkern;
extern int64_t (*mems)[2];
extern size_t nmem, capmem;
extern int64_t init_time, fini_time;
extern struct tl_jdoc jd;
struct uniqs {
	char **v;
	size_t cap, n;
};
extern struct uniqs uq;
const char *uniq(const char *s, size_t n);
extern int rocmode, pfmode;
extern int tracelens, nosummary, details, shortstudy;
void readstream(const char *path);
void reagent(void);
int pforder(const void *a, const void *b);
extern long long shortthr, shortbins, topk;
void rocprof(const char *dir);
int hasci(const char *s, const char *pat);
extern int mergek, noksum, ksumrccl, ksumcompute, ksumname, nohsum;
extern int hgroup;
extern long long mintid, maxtid;
extern long long minns, topxla, ksumtop, hsumtop;
extern const char *mdpath;
size_t hslot(const struct hix *h, uint64_t hv, int (*eq)(size_t, const void *), const void *arg);
void hgrow(struct hix *h, uint64_t (*rehash)(size_t));
void hfree(struct hix *h);
int i64cmp(const void *a, const void *b);
extern struct tl_out md;
void activity(const char *dir);
void actev(const struct ev *e);
extern int multik, nonlaunch;
extern const char *exclude;
char *lower(const char *s);
void apireport(const char *dir);
void memcpyreport(const char *dir);
/* Text on md; the sheet dir/sheetname.csv as a Markdown table on md
 * (mdtable.c). */
void mdstr(const char *s);
void mdtable(const char *dir, const char *sheetname, size_t top,
    const char *title);

#endif
