/*
 * tl-rocprof: the pftrace "activity" report: time by kernel category per
 * GPU, XLA kernels, kernel and HIP API summaries, and its Markdown.
 */
#include "rocprof.h"

/* ---- pftrace: hip_activity ---- */

enum { C_XLA, C_AITERFWD, C_AITERBWD, C_GEMM, C_CKBWD, C_CKFWD, C_TE,
	C_MEMCPY, C_FILL, C_RCCL, NCAT };

int
hasci(const char *s, const char *pat)
{
	size_t n = strlen(pat);

	for (; *s; s++)
		if (strncasecmp(s, pat, n) == 0)
			return 1;
	return 0;
}

static int
classify1(const char *n)
{
	if (hasci(n, "rccl") || hasci(n, "nccl") ||
	    hasci(n, "cross_device_reduce"))
		return C_RCCL;
	if (hasci(n, "cublasLt") || hasci(n, "Cijk") || hasci(n, "gemm") ||
	    hasci(n, "nvjet"))
		return C_GEMM;
	if (hasci(n, "FmhaBwd") || hasci(n, "kernel_func") ||
	    hasci(n, "flash_bprop"))
		return C_CKBWD;
	if (hasci(n, "FmhaFwd") || hasci(n, "flash_fprop"))
		return C_CKFWD;
	if (hasci(n, "copy") || hasci(n, "memcpy") || hasci(n, "memset"))
		return C_MEMCPY;
	if (hasci(n, "transformer_engine"))
		return C_TE;
	if (hasci(n, "aiter::fmha_fwd"))
		return C_AITERFWD;
	if (hasci(n, "aiter::fmha_bwd"))
		return C_AITERBWD;
	if (hasci(n, "fillbuffer"))
		return C_FILL;
	return C_XLA;
}

/* The category of n, a uniq() string: remembered by its address. */
static int
classify(const char *n)
{
	static struct {
		const char *s;
		int cat;
	} seen[4096];
	size_t h = ((uintptr_t)n >> 4) % 4093;

	if (seen[h].s != n) {
		seen[h].s = n;
		seen[h].cat = classify1(n);
	}
	return seen[h].cat;
}

int mergek, noksum, ksumrccl, ksumcompute, ksumname, nohsum;
int hgroup;		/* bit 1 stream, bit 2 op */
long long mintid = -1000000000LL, maxtid = 1000000000LL;
long long minns = 5000, topxla = 30, ksumtop = 200, hsumtop = 200;
const char *mdpath;

/* The digits of s taken out (--merge_kernels), as a uniq() string. */
static const char *
nodigits(const char *s)
{
	char *r = xstrdup(s), *q = r;
	const char *u;

	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			*q++ = *s;
	*q = '\0';
	u = uniq(r, (size_t)(q - r));
	free(r);
	return u;
}

/*
 * An index of records by hash: slots hold index + 1; the caller says
 * whether record i is the one sought (eq), and rehash gives a record's
 * hash when the table grows.
 */

size_t
hslot(const struct hix *h, uint64_t hv, int (*eq)(size_t, const void *),
    const void *arg)
{
	size_t i;

	for (i = hv & (h->cap - 1); h->v[i]; i = (i + 1) & (h->cap - 1))
		if (eq(h->v[i] - 1, arg))
			break;
	return i;
}

void
hgrow(struct hix *h, uint64_t (*rehash)(size_t))
{
	size_t *old = h->v, oc = h->cap, j, i;

	if (2 * (h->n + 1) <= h->cap)
		return;
	h->cap = h->cap ? 2 * h->cap : 256;
	h->v = xcalloc(h->cap, sizeof *h->v);
	for (j = 0; j < oc; j++)
		if (old[j]) {
			for (i = rehash(old[j] - 1) & (h->cap - 1); h->v[i];
			    i = (i + 1) & (h->cap - 1))
				;
			h->v[i] = old[j];
		}
	free(old);
}

void
hfree(struct hix *h)
{
	free(h->v);
	memset(h, 0, sizeof *h);
}

/* extract_time_ns: 1 with ts and dur, 0 when there is no time. */
static void
evtime(const struct ev *e, int64_t *ts, int64_t *dur)
{
	int64_t t, d;

	if ((e->has & (1u << A_BEGIN)) && (e->has & (1u << A_DELTA))) {
		*ts = e->a[A_BEGIN];
		*dur = e->a[A_DELTA];
		return;
	}
	/* traceconv's JSON: integer microseconds, truncated. */
	t = e->hasts ? (pfrows ? (e->ts >= 0 ? e->ts / 1000 : -((-e->ts +
	    999) / 1000)) : e->ts / 1000) : 0;
	d = e->hasdur ? e->dur / 1000 : 0;
	if (t < 10000000000LL) {
		t *= 1000;
		d *= 1000;
	}
	*ts = t;
	*dur = d;
}

/*
 * The report is made as the events are read (actev), in memory bounded by
 * the distinct names, keys and durations, not by the events: per GPU the
 * time and count of each category; per XLA kernel its total and count;
 * per summary group its total, count and each distinct duration with its
 * count (for the median and the deviation, expanded one group at a time at
 * the end). The compute kernels' and the RCCL kernels' intervals, for their
 * overlap, go to a temporary file, read back one GPU at a time for the GPUs
 * that have RCCL kernels. What depends on the order of the events (the
 * GPUs' numbers, the order of ties) is taken from a key of each event: its
 * place in the order of the events as Perfetto's rows are sorted (group,
 * time, then the stream's order), or in the stream's order.
 */
struct okey {
	int64_t grp, ts;
	uint64_t order;
};

/* x before y in the order the report reads the events in (pfrows as at
 * the end: full sort keys, else the stream's order). */
static int
okcmp(const struct okey *x, const struct okey *y, int full)
{
	if (full) {
		if (x->grp != y->grp)
			return x->grp < y->grp ? -1 : 1;
		if (x->ts != y->ts)
			return x->ts < y->ts ? -1 : 1;
	}
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The first of a set of events in either order: first seen (the stream's
 * order) and least by the full key. */
struct ofirst {
	struct okey first, least;
	int set;
};

static void
ofirst(struct ofirst *f, const struct okey *k)
{
	if (!f->set) {
		f->first = f->least = *k;
		f->set = 1;
	} else if (okcmp(k, &f->least, 1) < 0)
		f->least = *k;
}

static const struct okey *
ofkey(const struct ofirst *f)
{
	return pfrows ? &f->least : &f->first;
}

/*
 * Where an item falls in a summary's order of items: its list (0 compute,
 * 1 RCCL), time, duration, name (as the lists are sorted), then the
 * event's key (glibc's qsort, a merge sort, keeps ties in the order of the
 * events), in either order of the events.
 */
struct tup {
	int list;
	int64_t ts, dur;
	const char *name;
	struct okey first, least;	/* the least in each order */
	int set;
};

static int
tupcmp(const struct tup *x, const struct tup *y, const struct okey *xk,
    const struct okey *yk, int full)
{
	int c;

	if (x->list != y->list)
		return x->list < y->list ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur < y->dur ? -1 : 1;
	if (x->name != y->name && (c = strcmp(x->name, y->name)) != 0)
		return c;
	return okcmp(xk, yk, full);
}

static int
tupord(const struct tup *x, const struct tup *y)
{
	return tupcmp(x, y, pfrows ? &x->least : &x->first, pfrows ?
	    &y->least : &y->first, pfrows);
}

/* m the least of the items so far, t (event key k) one more: the least
 * (list, time, duration, name), and among the items that share it the
 * least key in either order. */
static void
tupmin(struct tup *m, const struct tup *t, const struct okey *k)
{
	int c;

	if (m->set) {
		c = m->list != t->list ? (t->list < m->list ? -1 : 1) :
		    m->ts != t->ts ? (t->ts < m->ts ? -1 : 1) :
		    m->dur != t->dur ? (t->dur < m->dur ? -1 : 1) :
		    t->name == m->name ? 0 : strcmp(t->name, m->name);
		if (c > 0)
			return;
		if (c == 0) {
			if (okcmp(k, &m->first, 0) < 0)
				m->first = *k;
			if (okcmp(k, &m->least, 1) < 0)
				m->least = *k;
			return;
		}
	}
	*m = *t;
	m->first = m->least = *k;
	m->set = 1;
}

/* A summary group: key values, total, count, its first item per GPU. */
struct sgrp {
	const char *name;
	int64_t key[7];
	size_t n;
	int64_t total;
	size_t order;
	struct tup *m;		/* by raw GPU number (0 for hip_summary) */
	size_t nm;
	double avg, med, std;
	int64_t min, max;
};

/* A distinct duration of a group, and how many times it comes. */
struct hv {
	size_t g;
	int64_t v, c;
};

struct gtab {
	struct sgrp *v;
	size_t n, cap;
	struct hix ix;
	struct hv *h;
	size_t nh, caph;
	struct hix hix;
};

static struct gtab ktab, htab;
static const struct gtab *cur;	/* for the rehash callbacks */

struct sgkey {
	const char *name;
	const int64_t *key;
};

static uint64_t
sghash(const char *name, const int64_t *key)
{
	uint64_t h = tl_hash64((uint64_t)(uintptr_t)name);
	int k;

	for (k = 0; k < 7; k++)
		h = tl_hash64(h ^ (uint64_t)key[k]);
	return h;
}

static uint64_t
sgrehash(size_t i)
{
	return sghash(cur->v[i].name, cur->v[i].key);
}

static int
sgeq(size_t i, const void *arg)
{
	const struct sgkey *k = arg;

	return cur->v[i].name == k->name &&
	    memcmp(cur->v[i].key, k->key, sizeof cur->v[i].key) == 0;
}

static uint64_t
hvhash(size_t g, int64_t v)
{
	return tl_hash64(tl_hash64((uint64_t)g) ^ (uint64_t)v);
}

static uint64_t
hvrehash(size_t i)
{
	return hvhash(cur->h[i].g, cur->h[i].v);
}

static int
hveq(size_t i, const void *arg)
{
	const struct hv *x = arg;

	return cur->h[i].g == x->g && cur->h[i].v == x->v;
}

/* Add duration d of an item (t, event key k, on raw GPU a) to the group
 * of a name (a uniq() string) and key (absent values 0). */
static void
addtogroup(struct gtab *tb, const char *name, const int64_t *key, int nkey,
    int64_t d, size_t a, const struct tup *t, const struct okey *k)
{
	struct sgkey sk;
	struct hv x;
	int64_t full[7] = { 0 };
	struct sgrp *g;
	size_t i, gi, j;

	memcpy(full, key, (size_t)nkey * sizeof *key);
	sk.name = name;
	sk.key = full;
	cur = tb;
	hgrow(&tb->ix, sgrehash);
	i = hslot(&tb->ix, sghash(name, full), sgeq, &sk);
	if (tb->ix.v[i] == 0) {
		xgrow(&tb->v, &tb->cap, tb->n + 1, sizeof *tb->v);
		memset(&tb->v[tb->n], 0, sizeof *tb->v);
		tb->v[tb->n].name = name;
		memcpy(tb->v[tb->n].key, full, sizeof full);
		tb->ix.v[i] = ++tb->n;
		tb->ix.n++;
	}
	gi = tb->ix.v[i] - 1;
	g = &tb->v[gi];
	g->n++;
	g->total += d;
	if (a >= g->nm) {
		g->m = xreallocarray(g->m, a + 1, sizeof *g->m);
		for (j = g->nm; j <= a; j++)
			g->m[j].set = 0;
		g->nm = a + 1;
	}
	tupmin(&g->m[a], t, k);
	x.g = gi;
	x.v = d;
	hgrow(&tb->hix, hvrehash);
	i = hslot(&tb->hix, hvhash(gi, d), hveq, &x);
	if (tb->hix.v[i] == 0) {
		xgrow(&tb->h, &tb->caph, tb->nh + 1, sizeof *tb->h);
		tb->h[tb->nh].g = gi;
		tb->h[tb->nh].v = d;
		tb->h[tb->nh].c = 0;
		tb->hix.v[i] = ++tb->nh;
		tb->hix.n++;
	}
	tb->h[tb->hix.v[i] - 1].c++;
}

static int
hvcmp(const void *a, const void *b)
{
	const struct hv *x = a, *y = b;

	if (x->g != y->g)
		return x->g < y->g ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

/* The statistics of every group, each one's durations expanded in turn,
 * sorted, as numpy has them. */
static void
groupstats(struct gtab *tb)
{
	size_t i, j, n;
	double *v = NULL;
	size_t capv = 0;
	struct sgrp *g;
	int64_t c;

	hfree(&tb->hix);
	qsort(tb->h, tb->nh, sizeof *tb->h, hvcmp);
	for (i = 0; i < tb->nh; i = j) {
		g = &tb->v[tb->h[i].g];
		n = 0;
		for (j = i; j < tb->nh && tb->h[j].g == tb->h[i].g; j++) {
			xgrow(&v, &capv, n + (size_t)tb->h[j].c, sizeof *v);
			for (c = 0; c < tb->h[j].c; c++)
				v[n++] = (double)tb->h[j].v;
		}
		g->avg = (double)g->total / (double)g->n;
		g->med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		g->min = tb->h[i].v;
		g->max = tb->h[j - 1].v;
		g->std = tl_np_std(v, n);
	}
	free(v);
	free(tb->h);
	tb->h = NULL;
	tb->nh = tb->caph = 0;
}

static size_t *gnum;	/* raw GPU number -> its number in the report */

/* A group's first item: the least, by GPU number in the report, then as
 * tupord; hip_summary's groups have theirs on raw number 0. */
static const struct tup *
gfirst(const struct sgrp *g, size_t *gpu)
{
	const struct tup *b = NULL;
	size_t a, ga, bg = 0;

	for (a = 0; a < g->nm; a++) {
		if (!g->m[a].set)
			continue;
		ga = a ? gnum[a] : 0;
		if (b == NULL || ga < bg || (ga == bg && tupord(&g->m[a], b) <
		    0)) {
			b = &g->m[a];
			bg = ga;
		}
	}
	*gpu = bg;
	return b;
}

static struct gtab *ordtab;
static int
ordcmp(const void *a, const void *b)
{
	const struct sgrp *x = &ordtab->v[*(const size_t *)a],
	    *y = &ordtab->v[*(const size_t *)b];
	const struct tup *tx, *ty;
	size_t gx, gy;

	tx = gfirst(x, &gx);
	ty = gfirst(y, &gy);
	if (gx != gy)
		return gx < gy ? -1 : 1;
	return tupord(tx, ty);
}

/* The groups numbered in the order of their first items. */
static void
grouporder(struct gtab *tb)
{
	size_t *ix = xcalloc(tb->n + 1, sizeof *ix), i;

	for (i = 0; i < tb->n; i++)
		ix[i] = i;
	ordtab = tb;
	qsort(ix, tb->n, sizeof *ix, ordcmp);
	for (i = 0; i < tb->n; i++)
		tb->v[ix[i]].order = i;
	free(ix);
}

static int
sgcmp(const void *a, const void *b)
{
	const struct sgrp *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void
human(char *b, size_t cap, double ns)
{
	if (ns >= 1e6)
		snprintf(b, cap, "%.3f ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(b, cap, "%.3f \xce\xbcs", ns / 1e3);
	else
		snprintf(b, cap, "%lld ns", (long long)ns);
}

int
i64cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

struct tl_out md;

static void
summarysheet(const char *dir, const char *sheetname, struct gtab *tb,
    int nkey, const char *const *keyname, int config, double baseline)
{
	static const char *const tail[] = { "Time %", "Total Time (ns)",
	    "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)", "StdDev (ns)",
	    NULL };
	static const char *const head[] = { "Time", "Total Time",
	    "Instances", "Avg", "Med", "Min", "Max", "StdDev", NULL };
	struct sgrp *sg;
	size_t i, nsg = tb->n;
	int k;
	char b[64];
	double pct;

	if (nsg == 0) {
		emptyframe(dir, sheetname);
		return;
	}
	groupstats(tb);
	grouporder(tb);
	sg = tb->v;
	qsort(sg, nsg, sizeof *sg, sgcmp);
	opensheet(dir, sheetname);
	for (k = 0; head[k]; k++)
		ccstr(head[k]);
	for (k = 0; k < nkey; k++)
		ccstr(keyname[k]);
	if (config)
		for (k = 0; k < 7; k++)
			ccstr((const char *[]){ "GridXYZ", "BlockXYZ", "VGPR",
			    "AccumVGPR", "SGPR", "LDS", "Scratch" }[k]);
	ccstr("Name");
	for (k = 0; tail[k]; k++)
		ccstr(tail[k]);
	if (config)
		for (k = 0; k < 6; k++)
			ccstr((const char *[]){ "GridX", "GridY", "GridZ",
			    "BlockX", "BlockY", "BlockZ" }[k]);
	endline();
	for (i = 0; i < nsg; i++) {
		pct = baseline ? (double)sg[i].total / baseline * 100 : 0.0;
		snprintf(b, sizeof b, "%.1f%%", pct);
		ccstr(b);
		human(b, sizeof b, (double)sg[i].total);
		ccstr(b);
		cint((int64_t)sg[i].n);
		human(b, sizeof b, sg[i].avg);
		ccstr(b);
		human(b, sizeof b, sg[i].med);
		ccstr(b);
		human(b, sizeof b, (double)sg[i].min);
		ccstr(b);
		human(b, sizeof b, (double)sg[i].max);
		ccstr(b);
		human(b, sizeof b, sg[i].std);
		ccstr(b);
		if (config) {
			snprintf(b, sizeof b, "%7" PRId64 " %4d %4d",
			    sg[i].key[0], 1, 1);
			ccstr(b);
			snprintf(b, sizeof b, "%7" PRId64 " %4d %4d",
			    sg[i].key[1], 1, 1);
			ccstr(b);
			for (k = 2; k < 7; k++)
				cint(sg[i].key[k]);
		} else
			for (k = 0; k < nkey; k++)
				cint(sg[i].key[k]);
		ccstr(sg[i].name);
		cfloat(pct);
		cint(sg[i].total);
		cfloat(sg[i].avg);
		cfloat(sg[i].med);
		cint(sg[i].min);
		cint(sg[i].max);
		cfloat(sg[i].std);
		if (config) {
			cint(sg[i].key[0]);
			cint(1);
			cint(1);
			cint(sg[i].key[1]);
			cint(1);
			cint(1);
		}
		endline();
	}
	closesheet();
}

static void
freegroups(struct gtab *tb)
{
	size_t i;

	for (i = 0; i < tb->n; i++)
		free(tb->v[i].m);
	free(tb->v);
	free(tb->h);
	hfree(&tb->ix);
	hfree(&tb->hix);
	memset(tb, 0, sizeof *tb);
}

struct xla {
	const char *name;
	int64_t total, n;
	size_t order;
	struct ofirst f;
};

static const struct xla *xlv;	/* the XLA keys, for their index */

static uint64_t
xlrehash(size_t i)
{
	return tl_hash64((uint64_t)(uintptr_t)xlv[i].name);
}

static int
xleq(size_t i, const void *arg)
{
	return xlv[i].name == (const char *)arg;
}

static int
xlacmp(const void *a, const void *b)
{
	const struct xla *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int
xlfirst(const void *a, const void *b)
{
	const struct xla *x = *(const struct xla *const *)a,
	    *y = *(const struct xla *const *)b;

	return okcmp(ofkey(&x->f), ofkey(&y->f), pfrows);
}

/* Per raw GPU number: the categories' time and count, its first event. */
struct gpu {
	int64_t ns[NCAT], cnt[NCAT], ncomm;
	struct ofirst f;
};

static struct gpu *gpus;
static size_t ngpu;
static struct xla *xl;
static size_t nx, capx;
static struct hix xix;
static int fav3;
static int64_t hipbase;
static FILE *spool;	/* int64 triples: raw GPU * 2 + RCCL, ts, dur */

#define NSPOOL	65536
static int64_t spbuf[NSPOOL][3];	/* the last ones, not yet in spool */
static size_t nspbuf;

static void
putspool(size_t a, int comm, int64_t ts, int64_t dur)
{
	if (nspbuf == NSPOOL) {
		if (spool == NULL && (spool = tl_tmpfile("tl-rocprof")) ==
		    NULL)
			tl_exit(1);
		if (fwrite(spbuf, sizeof spbuf[0], nspbuf, spool) != nspbuf)
			tl_err(1, "(temporary file)");
		nspbuf = 0;
	}
	spbuf[nspbuf][0] = (int64_t)(a * 2 + (size_t)comm);
	spbuf[nspbuf][1] = ts;
	spbuf[nspbuf][2] = dur;
	nspbuf++;
}

/* One event of the stream, taken into the report as it comes. */
void
actev(const struct ev *e)
{
	int64_t ts, dur, tid, at[7];
	struct okey ok;
	struct tup t;
	size_t a, k, hs;
	const char *key, *nm;
	int cat;

	ok.grp = e->grp;
	ok.ts = e->ts;
	ok.order = e->order;
	if (e->agent != 0) {
		a = (size_t)e->agent;
		if (a >= ngpu) {
			gpus = xreallocarray(gpus, a + 1, sizeof *gpus);
			memset(gpus + ngpu, 0, (a + 1 - ngpu) * sizeof *gpus);
			ngpu = a + 1;
		}
		ofirst(&gpus[a].f, &ok);
		evtime(e, &ts, &dur);
		tid = e->hastid ? e->tid : -1;
		if (dur > 0 && tid >= mintid && tid <= maxtid) {
			cat = classify(e->name);
			if (cat == C_CKBWD && strstr(e->name, "kernel_func"))
				fav3 = 1;
			if (cat == C_XLA) {
				key = mergek ? nodigits(e->name) : e->name;
				hgrow(&xix, xlrehash);
				xlv = xl;
				hs = hslot(&xix, tl_hash64((uint64_t)(uintptr_t)
				    key), xleq, key);
				if (xix.v[hs] == 0) {
					xgrow(&xl, &capx, nx + 1, sizeof *xl);
					xlv = xl;
					memset(&xl[nx], 0, sizeof *xl);
					xl[nx].name = key;
					xix.v[hs] = ++nx;
					xix.n++;
				}
				k = xix.v[hs] - 1;
				xl[k].total += dur;
				xl[k].n++;
				ofirst(&xl[k].f, &ok);
			}
			if (dur >= minns) {
				gpus[a].ns[cat] += dur;
				gpus[a].cnt[cat]++;
				if (cat == C_RCCL)
					gpus[a].ncomm++;
				putspool(a, cat == C_RCCL, ts, dur);
				if (!noksum && (cat != C_RCCL || ksumrccl)) {
					for (k = 0; k < 7; k++)
						at[k] = ksumname ? 0 : (e->has &
						    (1u << (A_GRID + k))) ?
						    e->a[A_GRID + k] : 0;
					nm = mergek ? nodigits(e->name) :
					    e->name;
					t.list = cat == C_RCCL;
					t.ts = ts;
					t.dur = dur;
					t.name = e->name;
					addtogroup(&ktab, nm, at, 7, dur, a, &t,
					    &ok);
				}
			}
		}
	}
	if (!nohsum && strcmp(e->cat, "hip_api") == 0) {
		int64_t hk[2];
		int m = 0;

		evtime(e, &ts, &dur);
		tid = e->hastid ? e->tid : (e->has & (1u << A_TID)) ?
		    e->a[A_TID] : -1;
		if (dur <= 0 || tid < mintid || tid > maxtid || dur < minns)
			return;
		if (hgroup & 1)
			hk[m++] = (e->has & (1u << A_STREAM)) ?
			    e->a[A_STREAM] : 0;
		if (hgroup & 2)
			hk[m++] = (e->has & (1u << A_OP)) ? e->a[A_OP] : 0;
		t.list = 0;
		t.ts = ts;
		t.dur = dur;
		t.name = e->name;
		addtogroup(&htab, e->name, hk, m, dur, 0, &t, &ok);
		hipbase += dur;
	}
}

static int
ivcmp(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* The compute and RCCL intervals (ts, dur) of raw GPU a, each sorted. */
static void
intervals(size_t a, int64_t (**cv)[2], size_t *nc, int64_t (**mv)[2],
    size_t *nm)
{
	int64_t r[3], (*v)[2];
	size_t capc = 0, capm = 0, *n, *cap;
	int64_t (**w)[2];

	size_t b = 0;

	*cv = *mv = NULL;
	*nc = *nm = 0;
	if (spool != NULL && (fflush(spool) == EOF || fseek(spool, 0,
	    SEEK_SET) < 0))
		tl_err(1, "(temporary file)");
	for (;;) {
		/* The file's, then the buffer's. */
		if (spool == NULL || fread(r, sizeof r, 1, spool) != 1) {
			if (b == nspbuf)
				break;
			memcpy(r, spbuf[b++], sizeof r);
		}
		if ((size_t)r[0] / 2 != a)
			continue;
		w = r[0] % 2 ? mv : cv;
		n = r[0] % 2 ? nm : nc;
		cap = r[0] % 2 ? &capm : &capc;
		xgrow(w, cap, *n + 1, sizeof **w);
		v = *w;
		v[*n][0] = r[1];
		v[*n][1] = r[2];
		(*n)++;
	}
	if (spool != NULL && ferror(spool))
		tl_err(1, "(temporary file)");
	qsort(*cv, *nc, sizeof **cv, ivcmp);
	qsort(*mv, *nm, sizeof **mv, ivcmp);
}

static const struct gpu *gpuv;
static int
gpucmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return okcmp(ofkey(&gpuv[x].f), ofkey(&gpuv[y].f), pfrows);
}


void
activity(const char *dir)
{
	static const char *const hcat[] = { "GPU ID", "Category",
	    "Total runtime (ms)", "Total count", "Fraction of compute runtime",
	    "Fraction of total runtime", NULL };
	static const char *const hx[] = { "Kernel", "Total time (ms)", "Count",
	    "Fraction of XLA", NULL };
	size_t G = 0, g, i, k, c, a, *raw;
	struct xla **xo;
	int64_t xsum = 0;
	int j;
	double (*row)[14][4];
	double basetotal = 0, basecomp = 0;
	/* Avg rows: the categories in Python order. */
	static const char *const rowcat[14] = { "xla", "aiterfwd",
	    "aiterbwd", "gemm", "ckbwd", "ckfwd", "te", "memcpy/memset",
	    "fillBuffer", "rccl", "overlapped_comm", "non_overlapped_comm",
	    "compute_total", "total_incl_comm" };
	static const int pyorder[14] = { 2, 1, 4, 5, 12, 8, 3, 7, 11, 10, 9,
	    6, 13, 0 };

	/* The GPUs numbered in the order of their first events. */
	raw = xcalloc(ngpu + 1, sizeof *raw);
	gnum = xcalloc(ngpu + 1, sizeof *gnum);
	for (a = 1; a < ngpu; a++)
		if (gpus[a].f.set)
			raw[G++] = a;
	gpuv = gpus;
	qsort(raw, G, sizeof *raw, gpucmp);
	for (g = 0; g < G; g++)
		gnum[raw[g]] = g;
	row = xcalloc(G + 1, sizeof *row);
	for (g = 0; g < G; g++) {
		const struct gpu *u = &gpus[raw[g]];
		int64_t compute = 0, total, ov = 0, ctot = 0, cs, ce, s1, e1,
		    lo, hi, (*cv)[2] = NULL, (*mv)[2] = NULL;
		size_t p = 0, q, nc = 0, nm = 0;

		for (c = 0; c < NCAT; c++)
			if (c != C_RCCL)
				compute += u->ns[c];
		total = compute + u->ns[C_RCCL];
		if (u->ncomm > 0)
			intervals(raw[g], &cv, &nc, &mv, &nm);
		for (i = 0; i < nm; i++) {
			cs = mv[i][0];
			ce = cs + mv[i][1];
			ctot += mv[i][1];
			while (p < nc && cv[p][0] + cv[p][1] <= cs)
				p++;
			for (q = p; q < nc && cv[q][0] < ce;) {
				s1 = cv[q][0];
				e1 = s1 + cv[q][1];
				lo = s1 > cs ? s1 : cs;
				hi = e1 < ce ? e1 : ce;
				if (hi - lo > 0)
					ov += hi - lo;
				if (e1 <= ce)
					q++;
				else
					break;
			}
		}
		free(cv);
		free(mv);
		for (c = 0; c < NCAT; c++) {
			row[g][c][0] = (double)u->ns[c];
			row[g][c][1] = (double)u->cnt[c];
		}
		row[g][10][0] = (double)ov;
		row[g][11][0] = (double)(ctot - ov);
		row[g][12][0] = (double)compute;
		row[g][13][0] = (double)total;
		for (c = 0; c < 14; c++) {
			row[g][c][2] = compute ? row[g][c][0] /
			    (double)compute : 0.0;
			row[g][c][3] = total ? row[g][c][0] / (double)total :
			    0.0;
			row[g][c][0] /= 1e6;
		}
		basetotal += (double)total;
		basecomp += (double)compute;
	}
	if (spool != NULL)
		fclose(spool);
	spool = NULL;
	nspbuf = 0;
	/* category_summary */
	if (G == 0)
		emptyframe(dir, "category_summary");
	else {
		opensheet(dir, "category_summary");
		header(hcat);
		for (g = 0; g < G; g++)
			for (c = 0; c < 14; c++) {
				cint((int64_t)g);
				ccstr(rowcat[c]);
				cfloat(row[g][c][0]);
				cfloat(row[g][c][1]);
				cfloat(row[g][c][2]);
				cfloat(row[g][c][3]);
				endline();
			}
		for (k = 0; k < 14; k++) {
			c = (size_t)pyorder[k];
			ccstr("Avg");
			ccstr(rowcat[c]);
			for (j = 0; j < 4; j++) {
				struct tl_kahan s = { 0, 0 };

				for (g = 0; g < G; g++)
					tl_kahan_add(&s, row[g][c][j]);
				cfloat(s.s / (double)G);
			}
			endline();
		}
		closesheet();
	}
	/* xla_top: the kernels numbered in the order of their first events */
	xo = xcalloc(nx + 1, sizeof *xo);
	for (k = 0; k < nx; k++) {
		xsum += xl[k].total;
		xo[k] = &xl[k];
	}
	qsort(xo, nx, sizeof *xo, xlfirst);
	for (k = 0; k < nx; k++)
		xo[k]->order = k;
	free(xo);
	qsort(xl, nx, sizeof *xl, xlacmp);
	if (nx == 0)
		emptyframe(dir, "xla_top");
	else {
		opensheet(dir, "xla_top");
		header(hx);
		for (k = 0; k < nx && (long long)k < topxla; k++) {
			ccstr(xl[k].name);
			cfloat((double)xl[k].total / 1e6);
			cint(xl[k].n);
			cfloat((double)xl[k].total / (double)(xsum ? xsum : 1));
			endline();
		}
		closesheet();
	}
	/* kernel_summary */
	if (!noksum) {
		summarysheet(dir, "kernel_summary", &ktab, 0, NULL, !ksumname,
		    ksumcompute ? basecomp : basetotal);
		freegroups(&ktab);
	}
	/* hip_summary */
	if (!nohsum) {
		static const char *kn[3];
		int nk = 0;

		if (hgroup & 1)
			kn[nk++] = "Stream";
		if (hgroup & 2)
			kn[nk++] = "Op";
		summarysheet(dir, "hip_summary", &htab, nk, kn, 0,
		    (double)hipbase);
		freegroups(&htab);
	}
	if (mdpath) {
		tl_out_raw(&md, "# ROCm Perfetto Trace Report\n\n", 30);
		mdstr("- Agents (GPUs): ");
		for (g = 0; g < G; g++) {
			if (g)
				tl_out_raw(&md, ", ", 2);
			mdstr(agents[raw[g] - 1] + 1);
		}
		mdstr("\n- Used FA v3 kernels detected: **");
		mdstr(fav3 ? "1" : "0");
		mdstr("**\n\n## Category Summary (per GPU)\n");
		if (G)
			mdtable(dir, "category_summary", SIZE_MAX, NULL);
		else
			mdstr("_(no data)_\n");
		mdstr("## Top XLA Kernels (by time)\n");
		if (nx == 0)
			mdstr("_(no data)_\n");
		else {
			char b[64];

			mdstr("| Kernel | Total Time (ms) | Count | "
			    "Fraction of XLA |\n|---|---:|---:|---:|\n");
			for (k = 0; k < nx && (long long)k < topxla; k++) {
				mdstr("| `");
				mdstr(xl[k].name);
				snprintf(b, sizeof b, "` | %.2f | %" PRId64
				    " | %.2f%% |\n", (double)xl[k].total / 1e6,
				    xl[k].n, (double)xl[k].total /
				    (double)(xsum ? xsum : 1) * 100);
				mdstr(b);
			}
		}
		tl_out_char(&md, '\n');
		if (!noksum)
			mdtable(dir, "kernel_summary", (size_t)ksumtop,
			    "### Kernel Summary Table");
		if (!nohsum)
			mdtable(dir, "hip_summary", (size_t)hsumtop,
			    "### HIP API Summary Table");
	}
	free(xl);
	hfree(&xix);
	free(row);
	free(raw);
	free(gnum);
	free(gpus);
}
