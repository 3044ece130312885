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

struct item {
	const char *name;
	int64_t ts, dur, at[7];
	int cat;
};

static int
itemcmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur < y->dur ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct list {
	struct item *v;
	size_t n, cap;
};

static void
additem(struct list *l, const struct item *it)
{
	xgrow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = *it;
}

/* A summary group: key values, durations. */
struct sgrp {
	const char *name;
	int64_t key[7];
	int64_t *d;
	size_t n, cap;
	int64_t total;
	size_t order;
};

static struct sgrp *sg;
static size_t nsg, capsg;
static struct hix sgix;

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
	return sghash(sg[i].name, sg[i].key);
}

static int
sgeq(size_t i, const void *arg)
{
	const struct sgkey *k = arg;

	return sg[i].name == k->name &&
	    memcmp(sg[i].key, k->key, sizeof sg[i].key) == 0;
}

/* The group of a name (a uniq() string) and key (absent values 0). */
static struct sgrp *
findgrp(const char *name, const int64_t *key, int nkey)
{
	struct sgkey k;
	int64_t full[7] = { 0 };
	size_t i;

	memcpy(full, key, (size_t)nkey * sizeof *key);
	k.name = name;
	k.key = full;
	hgrow(&sgix, sgrehash);
	i = hslot(&sgix, sghash(name, full), sgeq, &k);
	if (sgix.v[i])
		return &sg[sgix.v[i] - 1];
	xgrow(&sg, &capsg, nsg + 1, sizeof *sg);
	memset(&sg[nsg], 0, sizeof *sg);
	sg[nsg].name = name;
	memcpy(sg[nsg].key, full, sizeof full);
	sg[nsg].order = nsg;
	sgix.v[i] = nsg + 1;
	sgix.n++;
	return &sg[nsg++];
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

struct gstat {
	double avg, med, std;
	int64_t min, max;
};

static void
gstats(struct sgrp *g, struct gstat *s)
{
	double *v = xcalloc(g->n, sizeof *v);
	size_t i;

	qsort(g->d, g->n, sizeof *g->d, i64cmp);
	for (i = 0; i < g->n; i++)
		v[i] = (double)g->d[i];
	s->avg = (double)g->total / (double)g->n;
	s->med = g->n % 2 ? v[g->n / 2] : (v[g->n / 2 - 1] + v[g->n / 2]) /
	    2;
	s->min = g->d[0];
	s->max = g->d[g->n - 1];
	s->std = tl_np_std(v, g->n);
	free(v);
}

struct tl_out md;

static void
mdstr(const char *s)
{
	tl_out_raw(&md, s, strlen(s));
}

static void
summarysheet(const char *dir, const char *sheetname, int nkey,
    const char *const *keyname, int config, double baseline)
{
	static const char *const tail[] = { "Time %", "Total Time (ns)",
	    "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)", "StdDev (ns)",
	    NULL };
	static const char *const head[] = { "Time", "Total Time",
	    "Instances", "Avg", "Med", "Min", "Max", "StdDev", NULL };
	size_t i;
	int k;
	struct gstat s;
	char b[64];
	double pct;

	if (nsg == 0) {
		emptyframe(dir, sheetname);
		return;
	}
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
		gstats(&sg[i], &s);
		pct = baseline ? (double)sg[i].total / baseline * 100 : 0.0;
		snprintf(b, sizeof b, "%.1f%%", pct);
		ccstr(b);
		human(b, sizeof b, (double)sg[i].total);
		ccstr(b);
		cint((int64_t)sg[i].n);
		human(b, sizeof b, s.avg);
		ccstr(b);
		human(b, sizeof b, s.med);
		ccstr(b);
		human(b, sizeof b, (double)s.min);
		ccstr(b);
		human(b, sizeof b, (double)s.max);
		ccstr(b);
		human(b, sizeof b, s.std);
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
		cfloat(s.avg);
		cfloat(s.med);
		cint(s.min);
		cint(s.max);
		cfloat(s.std);
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
freegroups(void)
{
	size_t i;

	for (i = 0; i < nsg; i++)
		free(sg[i].d);
	free(sg);
	sg = NULL;
	nsg = capsg = 0;
	hfree(&sgix);
}

static void
addtogroup(const char *name, const int64_t *key, int nkey, int64_t d)
{
	struct sgrp *g = findgrp(name, key, nkey);

	xgrow(&g->d, &g->cap, g->n + 1, sizeof *g->d);
	g->d[g->n++] = d;
	g->total += d;
}

struct xla {
	const char *name;
	int64_t total, n;
	size_t order;
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

static void mdtable(const char *dir, const char *sheetname, size_t top,
    const char *title);

void
activity(const char *dir)
{
	static const char *const hcat[] = { "GPU ID", "Category",
	    "Total runtime (ms)", "Total count", "Fraction of compute runtime",
	    "Fraction of total runtime", NULL };
	static const char *const hx[] = { "Kernel", "Total time (ms)", "Count",
	    "Fraction of XLA", NULL };
	size_t G = nagents, g, i, k, nx = 0, capx = 0, c, hs;
	struct hix xix = { NULL, 0, 0 };
	struct list *comp = xcalloc(G + 1, sizeof *comp);
	struct list *comm = xcalloc(G + 1, sizeof *comm);
	struct xla *xl = NULL;
	struct item it;
	int64_t ts, dur, tid, xsum = 0;
	int fav3 = 0, j;
	double (*row)[14][4] = xcalloc(G + 1, sizeof *row);
	double basetotal = 0, basecomp = 0;
	const char *key;
	const struct ev *e;
	/* Avg rows: the categories in Python order. */
	static const char *const rowcat[14] = { "xla", "aiterfwd",
	    "aiterbwd", "gemm", "ckbwd", "ckfwd", "te", "memcpy/memset",
	    "fillBuffer", "rccl", "overlapped_comm", "non_overlapped_comm",
	    "compute_total", "total_incl_comm" };
	static const int pyorder[14] = { 2, 1, 4, 5, 12, 8, 3, 7, 11, 10, 9,
	    6, 13, 0 };

	for (i = 0; i < nev; i++) {
		e = &evs[i];
		if (e->agent == 0)
			continue;
		evtime(e, &ts, &dur);
		if (dur <= 0)
			continue;
		tid = e->hastid ? e->tid : -1;
		if (tid < mintid || tid > maxtid)
			continue;
		memset(&it, 0, sizeof it);
		it.name = e->name;
		it.ts = ts;
		it.dur = dur;
		it.cat = classify(e->name);
		for (k = 0; k < 7; k++)
			it.at[k] = (e->has & (1u << (A_GRID + k))) ?
			    e->a[A_GRID + k] : 0;
		g = (size_t)e->agent - 1;
		if (it.cat == C_RCCL)
			additem(&comm[g], &it);
		else {
			additem(&comp[g], &it);
			if (it.cat == C_CKBWD && strstr(e->name, "kernel_func"))
				fav3 = 1;
		}
		if (it.cat == C_XLA) {
			key = mergek ? nodigits(e->name) : e->name;
			hgrow(&xix, xlrehash);
			xlv = xl;
			hs = hslot(&xix, tl_hash64((uint64_t)(uintptr_t)key),
			    xleq, key);
			if (xix.v[hs] == 0) {
				xgrow(&xl, &capx, nx + 1, sizeof *xl);
				xlv = xl;
				xl[nx].name = key;
				xl[nx].total = xl[nx].n = 0;
				xl[nx].order = nx;
				xix.v[hs] = ++nx;
				xix.n++;
			}
			k = xix.v[hs] - 1;
			xl[k].total += dur;
			xl[k].n++;
		}
	}
	for (g = 0; g < G; g++) {
		int64_t ns[NCAT] = { 0 }, cnt[NCAT] = { 0 }, compute = 0,
		    total, ov = 0, ctot = 0, cs, ce, s1, e1, lo, hi;
		size_t p = 0, q, nc = 0, nm = 0;
		struct item *cv, *mv;

		qsort(comp[g].v, comp[g].n, sizeof *comp[g].v, itemcmp);
		qsort(comm[g].v, comm[g].n, sizeof *comm[g].v, itemcmp);
		/* Filter in place, keeping the order. */
		cv = comp[g].v;
		mv = comm[g].v;
		for (i = 0; i < comp[g].n; i++)
			if (cv[i].dur >= minns)
				cv[nc++] = cv[i];
		for (i = 0; i < comm[g].n; i++)
			if (mv[i].dur >= minns)
				mv[nm++] = mv[i];
		comp[g].n = nc;
		comm[g].n = nm;
		for (i = 0; i < nc; i++) {
			ns[cv[i].cat] += cv[i].dur;
			cnt[cv[i].cat]++;
		}
		for (i = 0; i < nm; i++) {
			ns[mv[i].cat] += mv[i].dur;
			cnt[mv[i].cat]++;
		}
		for (c = 0; c < NCAT; c++)
			if (c != C_RCCL)
				compute += ns[c];
		total = compute + ns[C_RCCL];
		for (i = 0; i < nm; i++) {
			cs = mv[i].ts;
			ce = cs + mv[i].dur;
			ctot += mv[i].dur;
			while (p < nc && cv[p].ts + cv[p].dur <= cs)
				p++;
			for (q = p; q < nc && cv[q].ts < ce;) {
				s1 = cv[q].ts;
				e1 = s1 + cv[q].dur;
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
		for (c = 0; c < NCAT; c++) {
			row[g][c][0] = (double)ns[c];
			row[g][c][1] = (double)cnt[c];
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
	/* xla_top */
	for (k = 0; k < nx; k++)
		xsum += xl[k].total;
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
		for (g = 0; g < G; g++) {
			for (i = 0; i < comp[g].n; i++) {
				struct item *p = &comp[g].v[i];
				const char *nm = mergek ? nodigits(p->name) :
				    p->name;

				addtogroup(nm, ksumname ? (int64_t[7]){ 0 } :
				    p->at, 7, p->dur);
			}
			if (ksumrccl)
				for (i = 0; i < comm[g].n; i++) {
					struct item *p = &comm[g].v[i];
					const char *nm = mergek ?
					    nodigits(p->name) : p->name;

					addtogroup(nm, ksumname ?
					    (int64_t[7]){ 0 } : p->at, 7,
					    p->dur);
				}
		}
		summarysheet(dir, "kernel_summary", 0, NULL, !ksumname,
		    ksumcompute ? basecomp : basetotal);
		freegroups();
	}
	/* hip_summary */
	if (!nohsum) {
		struct list h = { NULL, 0, 0 };
		static const char *kn[3];
		int nk = 0;
		double base = 0;

		for (i = 0; i < nev; i++) {
			e = &evs[i];
			if (strcmp(e->cat, "hip_api") != 0)
				continue;
			evtime(e, &ts, &dur);
			if (dur <= 0)
				continue;
			tid = e->hastid ? e->tid : (e->has & (1u << A_TID)) ?
			    e->a[A_TID] : -1;
			if (tid < mintid || tid > maxtid || dur < minns)
				continue;
			memset(&it, 0, sizeof it);
			it.name = e->name;
			it.ts = ts;
			it.dur = dur;
			it.at[0] = (e->has & (1u << A_STREAM)) ?
			    e->a[A_STREAM] : 0;
			it.at[1] = (e->has & (1u << A_OP)) ? e->a[A_OP] : 0;
			additem(&h, &it);
		}
		qsort(h.v, h.n, sizeof *h.v, itemcmp);
		if (hgroup & 1)
			kn[nk++] = "Stream";
		if (hgroup & 2)
			kn[nk++] = "Op";
		for (i = 0; i < h.n; i++) {
			int64_t hk[2];
			int m = 0;

			if (hgroup & 1)
				hk[m++] = h.v[i].at[0];
			if (hgroup & 2)
				hk[m++] = h.v[i].at[1];
			addtogroup(h.v[i].name, hk, m, h.v[i].dur);
			base += (double)h.v[i].dur;
		}
		summarysheet(dir, "hip_summary", nk, kn, 0, base);
		freegroups();
		free(h.v);
	}
	if (mdpath) {
		tl_out_raw(&md, "# ROCm Perfetto Trace Report\n\n", 30);
		mdstr("- Agents (GPUs): ");
		for (g = 0; g < G; g++) {
			if (g)
				tl_out_raw(&md, ", ", 2);
			mdstr(agents[g] + 1);
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
	for (g = 0; g < G; g++) {
		free(comp[g].v);
		free(comm[g].v);
	}
	free(comp);
	free(comm);
	free(xl);
	hfree(&xix);
	free(row);
}

/* Code points of UTF-8 text, as the width of a cell. */
static size_t
width(const char *s, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

static int
isnum(const char *s, size_t n)
{
	char b[64], *end;

	if (n == 0 || n >= sizeof b)
		return 0;
	memcpy(b, s, n);
	b[n] = '\0';
	strtod(b, &end);
	return *end == '\0' && !isspace((unsigned char)b[0]);
}

static void
pad(size_t n)
{
	while (n-- > 0)
		tl_out_char(&md, ' ');
}

/*
 * A sheet just written (DIR/SHEET.csv) as a pipe table, as pandas's
 * to_markdown (tabulate's "pipe" format) lays it out: text left, numbers
 * right and on their decimal point, in %g; the first top rows. With a
 * title, a table that has no rows is left out, title and all.
 */
static void
mdtable(const char *dir, const char *sheetname, size_t top, const char *title)
{
	char *fn = xmalloc(strlen(sheetname) + 5), *path, b[64];
	struct tl_src *src;
	struct tl_csv *c;
	char ***cell = NULL;
	size_t nr = 0, capr = 0, i, k, nc, *w, *frac, n, f;
	int *num;
	const char *dot;

	sprintf(fn, "%s.csv", sheetname);
	path = tl_path(dir, fn);
	free(fn);
	if ((src = tl_src_open(path)) == NULL)
		tl_exit(1);
	free(path);
	if (tl_src_next(src) <= 0) {
		tl_src_close(src);
		return;
	}
	c = tl_csv_open(src, 0);
	nc = c->ncol;
	while (nr < top && tl_csv_next(c)) {
		xgrow(&cell, &capr, nr + 1, sizeof *cell);
		cell[nr] = xcalloc(nc, sizeof **cell);
		for (k = 0; k < nc; k++) {
			/* tabulate strips the blanks around text */
			const char *a = c->f[k], *z = a + c->fl[k];

			while (a < z && *a == ' ')
				a++;
			while (z > a && z[-1] == ' ')
				z--;
			cell[nr][k] = xmemdup(a, (size_t)(z - a));
		}
		nr++;
	}
	if (nr == 0 || nc < 2) {
		if (title == NULL)
			mdstr("_(no data)_\n");
		goto out;
	}
	if (title) {
		mdstr(title);
		tl_out_char(&md, '\n');
	}
	w = xcalloc(nc, sizeof *w);
	frac = xcalloc(nc, sizeof *frac);
	num = xcalloc(nc, sizeof *num);
	for (k = 0; k < nc; k++) {
		num[k] = 1;
		for (i = 0; i < nr; i++)
			if (!isnum(cell[i][k], strlen(cell[i][k])))
				num[k] = 0;
		if (!num[k])
			continue;
		for (i = 0; i < nr; i++) {
			snprintf(b, sizeof b, "%g", strtod(cell[i][k], NULL));
			free(cell[i][k]);
			cell[i][k] = xstrdup(b);
			dot = strchr(b, '.');
			f = dot ? strlen(dot) : 0;
			if (f > frac[k])
				frac[k] = f;
		}
		for (i = 0; i < nr; i++) {
			dot = strchr(cell[i][k], '.');
			f = dot ? strlen(dot) : 0;
			n = strlen(cell[i][k]);
			fn = xmalloc(n + frac[k] + 1);
			memcpy(fn, cell[i][k], n);
			memset(fn + n, ' ', frac[k] - f);
			fn[n + frac[k] - f] = '\0';
			free(cell[i][k]);
			cell[i][k] = fn;
		}
	}
	for (k = 0; k < nc; k++) {
		w[k] = width(c->col[k], c->cl[k]) + 2;
		for (i = 0; i < nr; i++)
			if ((n = width(cell[i][k], strlen(cell[i][k]))) > w[k])
				w[k] = n;
	}
	for (k = 0; k < nc; k++) {
		n = width(c->col[k], c->cl[k]);
		mdstr(k ? " | " : "| ");
		if (num[k])
			pad(w[k] - n);
		tl_out_raw(&md, c->col[k], c->cl[k]);
		if (!num[k])
			pad(w[k] - n);
	}
	mdstr(" |\n");
	for (k = 0; k < nc; k++) {
		mdstr(num[k] ? "|" : "|:");
		for (i = 0; i < w[k] + 1; i++)
			tl_out_char(&md, '-');
		if (num[k])
			tl_out_char(&md, ':');
	}
	mdstr("|\n");
	for (i = 0; i < nr; i++) {
		for (k = 0; k < nc; k++) {
			n = width(cell[i][k], strlen(cell[i][k]));
			mdstr(k ? " | " : "| ");
			if (num[k])
				pad(w[k] - n);
			mdstr(cell[i][k]);
			if (!num[k])
				pad(w[k] - n);
		}
		mdstr(" |\n");
	}
	tl_out_char(&md, '\n');
	free(w);
	free(frac);
	free(num);
out:
	for (i = 0; i < nr; i++) {
		for (k = 0; k < nc; k++)
			free(cell[i][k]);
		free(cell[i]);
	}
	free(cell);
	tl_csv_close(c);
	tl_src_close(src);
}
