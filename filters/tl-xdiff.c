/*
 * tl-xdiff: two traces compared by operation and by layer, what
 * wafer-core's trace_compare does for an AMD against an NVIDIA trace. Every GPU event
 * of each side is put in an operation by its name (the rules of
 * share/tl/kernel-classes.tsv, first match wins), and in a layer (the
 * instances of the repeated nn.Module around it, or the stretch of
 * kernels from one attention kernel to the next); each operation and
 * each layer is compared: count, total and average time on each side,
 * the gap and the ratio, and a status by thresholds. The exit status is
 * diff(1)'s: 0 same, 1 different, 2 trouble.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/file.h"
#include "../common/err.h"
#include "../common/input.h"
#include "../common/intern.h"
#include "../common/mem.h"
#include "../common/opt.h"
#include "../common/share.h"
#include "../common/sort.h"
#include "../common/tsv.h"
#include "tl-xdiff/xdiff.h"

#define CLASSFILE	"kernel-classes.tsv"

static const char *const phname[] = { "", "prefill", "decode", "mixed" };
static uint32_t opattn;			/* "Attention" */
static uint32_t opattnbwd;		/* "Attention backward" */
static int notes;			/* say how layers were found */
struct tl_intern *xd_in;
static struct xside xs[2];

/* The options. */
struct xopt {
	const char *classes;		/* -c */
	const char *phase;		/* -f */
	const char *odir;		/* -o */
	const char *table;		/* -t */
	double gap_ns, lgap_ns, lratio;	/* -g, -G, -r (as a ratio > 1) */
	int quiet;			/* -q */
};

/* The nearest nn.Module frame at or above host i (NONE: none),
 * remembered. */
static uint32_t
modof(struct xside *s, uint32_t i)
{
	uint32_t j, k, r;

	for (j = i; j != NONE && s->h[j].mod == UNSET &&
	    s->h[j].kind != H_MODULE; j = s->h[j].parent)
		;
	if (j == NONE)
		r = NONE;
	else if (s->h[j].kind == H_MODULE)
		r = s->h[j].mod = j;
	else
		r = s->h[j].mod;
	for (k = i; k != j; k = s->h[k].parent)
		s->h[k].mod = r;
	return r;
}

/* An instance of a module, and a class of them. */
struct inst {
	uint32_t cls;			/* index in classes */
	int64_t first, cover;
	int attn;
	int32_t layer;
};
struct cls {
	uint32_t name;
	uint32_t ninst, nattn, depth;
	int64_t cover;
};

/*
 * Layers from nn.Module frames: the class of module with two instances
 * or more, most of them with attention kernels inside, that covers the
 * most kernel time (then: more instances, then the outermost). 0 when
 * there is none.
 */
static int
modlayers(struct xside *s)
{
	uint32_t *iof, ninst = 0, ncls = 0, i, f, c, best = NONE, d;
	struct inst *inst = NULL;
	struct cls *cl = NULL;
	size_t capi = 0, capc = 0, e, nid = tl_intern_count(xd_in), n, k;
	int64_t *minlts;
	const char *str;
	char *cname;
	struct ev *ev;
	int32_t np;

	for (i = 0; i < s->nh && s->h[i].kind != H_MODULE; i++)
		;
	if (i == s->nh)
		return 0;
	iof = xmalloc((nid + 1) * sizeof *iof);
	memset(iof, 0xff, (nid + 1) * sizeof *iof);
	for (i = 0; i < s->nh; i++) {
		if (s->h[i].kind != H_MODULE)
			continue;
		if (iof[s->h[i].name] == NONE) {
			xgrow(&inst, &capi, ninst + 1, sizeof *inst);
			memset(&inst[ninst], 0, sizeof *inst);
			inst[ninst].first = s->h[i].ts;
			str = tl_intern_str(xd_in, s->h[i].name, &n) + NMODPFX;
			n -= NMODPFX;
			for (k = n; k > 0 && str[k - 1] >= '0' &&
			    str[k - 1] <= '9'; k--)
				;
			if (k < n && k > 1 && str[k - 1] == '_')
				n = k - 1;
			cname = xmemdup(str, n);
			f = tl_intern(xd_in, cname, n);
			free(cname);
			for (c = 0; c < ncls && cl[c].name != f; c++)
				;
			if (c == ncls) {
				xgrow(&cl, &capc, ncls + 1, sizeof *cl);
				memset(&cl[ncls], 0, sizeof *cl);
				cl[ncls].name = f;
				cl[ncls++].depth = UINT32_MAX;
			}
			inst[ninst].cls = c;
			cl[c].ninst++;
			iof[s->h[i].name] = ninst++;
		}
		if (s->h[i].ts < inst[iof[s->h[i].name]].first)
			inst[iof[s->h[i].name]].first = s->h[i].ts;
		for (d = 0, f = modof(s, s->h[i].parent); f != NONE;
		    f = modof(s, s->h[f].parent))
			d++;
		c = inst[iof[s->h[i].name]].cls;
		if (d < cl[c].depth)
			cl[c].depth = d;
	}
	for (e = 0; e < s->nev; e++) {
		ev = &s->ev[e];
		ev->frame = modof(s, ev->frame);
		for (f = ev->frame; f != NONE; f = modof(s, s->h[f].parent)) {
			struct inst *x = &inst[iof[s->h[f].name]];

			x->cover += ev->dur;
			if (ev->op == opattn && !x->attn) {
				x->attn = 1;
				cl[x->cls].nattn++;
			}
		}
	}
	for (i = 0; i < ninst; i++)
		cl[inst[i].cls].cover += inst[i].cover;
	for (c = 0; c < ncls; c++) {
		if (cl[c].ninst < 2)
			continue;
		if (best == NONE) {
			best = c;
			continue;
		}
#define KEY(x)	((x).nattn >= 2)
		if (KEY(cl[c]) != KEY(cl[best])) {
			if (KEY(cl[c]))
				best = c;
			continue;
		}
#undef KEY
		if (cl[c].cover != cl[best].cover) {
			if (cl[c].cover > cl[best].cover)
				best = c;
			continue;
		}
		if (cl[c].ninst != cl[best].ninst) {
			if (cl[c].ninst > cl[best].ninst)
				best = c;
			continue;
		}
		if (cl[c].depth < cl[best].depth)
			best = c;
	}
	if (best == NONE || cl[best].cover == 0) {
		free(iof);
		free(inst);
		free(cl);
		return 0;
	}
	/* the layers: the instances of the class, by first start */
	{
		struct tl_sortkey *ord = xcalloc(ninst + 1, sizeof *ord);
		uint32_t no = 0;

		for (i = 0; i < ninst; i++) {
			inst[i].layer = PRE;
			if (inst[i].cls == best) {
				ord[no].k = (uint64_t)inst[i].first ^
				    UINT64_C(1) << 63;
				ord[no++].i = i;
			}
		}
		tl_key_sort(ord, no);	/* by first start, then index */
		s->layermod = xcalloc(no + 1, sizeof *s->layermod);
		for (i = 0; i < no; i++)
			inst[ord[i].i].layer = (int32_t)i;
		for (i = 0; i < s->nh; i++)
			if (s->h[i].kind == H_MODULE &&
			    inst[iof[s->h[i].name]].cls == best &&
			    s->layermod[inst[iof[s->h[i].name]].layer] ==
			    NULL) {
				str = tl_intern_str(xd_in, s->h[i].name, &n);
				s->layermod[inst[iof[s->h[i].name]].layer] =
				    xstrdup(str + NMODPFX);
			}
		s->nlayer = (int32_t)no;
		free(ord);
	}
	/* each event: its instance of the class, else before or after */
	np = (int32_t)s->npass + 1;
	minlts = xmalloc((size_t)np * sizeof *minlts);
	for (k = 0; k < (size_t)np; k++)
		minlts[k] = INT64_MAX;
	for (e = 0; e < s->nev; e++) {
		ev = &s->ev[e];
		ev->layer = PRE;
		for (f = ev->frame; f != NONE; f = modof(s, s->h[f].parent))
			if (inst[iof[s->h[f].name]].cls == best) {
				ev->layer = inst[iof[s->h[f].name]].layer;
				break;
			}
		if (f != NONE && ev->lts < minlts[ev->pass])
			minlts[ev->pass] = ev->lts;
		if (f == NONE)
			ev->layer = POST;	/* for now */
	}
	for (e = 0; e < s->nev; e++) {
		ev = &s->ev[e];
		if (ev->layer == POST && ev->lts < minlts[ev->pass])
			ev->layer = PRE;
	}
	str = tl_intern_str(xd_in, cl[best].name, &n);
	if (notes)
		tl_warnx("%s: %d layer%s, the nn.Module frames of %s",
		    s->path, (int)s->nlayer, s->nlayer == 1 ? "" : "s", str);
	free(minlts);
	free(iof);
	free(inst);
	free(cl);
	return 1;
}

static const struct ev *sortev;

/* The events of a side in time order (start, then input order). */
static uint32_t *
bytime(const struct xside *s)
{
	struct tl_sortkey *k = xmalloc((s->nev + 1) * sizeof *k);
	uint32_t *o = xcalloc(s->nev + 1, sizeof *o);
	size_t i;

	for (i = 0; i < s->nev; i++) {
		k[i].k = (uint64_t)s->ev[i].ts ^ UINT64_C(1) << 63;
		k[i].i = (uint32_t)i;
	}
	tl_key_sort(k, s->nev);
	for (i = 0; i < s->nev; i++)
		o[i] = k[i].i;
	free(k);
	return o;
}

/* Layers by attention: a layer starts at each run of attention kernels. */
static void
attnlayers(struct xside *s)
{
	uint32_t *o = bytime(s);
	int32_t *cnt, np = (int32_t)s->npass + 1;
	uint8_t *prev;
	size_t i;
	int a;

	cnt = xmalloc((size_t)np * sizeof *cnt);
	prev = xcalloc((size_t)np, 1);
	for (i = 0; i < (size_t)np; i++)
		cnt[i] = -1;
	s->nlayer = 0;
	for (i = 0; i < s->nev; i++) {
		struct ev *e = &s->ev[o[i]];

		a = e->op == opattn;
		if (a && !prev[e->pass])
			cnt[e->pass]++;
		prev[e->pass] = (uint8_t)a;
		e->layer = cnt[e->pass] >= 0 ? cnt[e->pass] : PRE;
		if (cnt[e->pass] + 1 > s->nlayer)
			s->nlayer = cnt[e->pass] + 1;
	}
	if (!notes)
		;
	else if (s->nlayer > 0)
		tl_warnx("%s: %d layer%s, split at attention kernels", s->path,
		    (int)s->nlayer, s->nlayer == 1 ? "" : "s");
	else
		tl_warnx("%s: no layers: no nn.Module frames of a repeated "
		    "module (tl-tree -P) and no attention kernel", s->path);
	free(cnt);
	free(prev);
	free(o);
}

/* The phases of the events; 0 when the trace tells none. */
static int
phases(struct xside *s)
{
	const struct ann *a;
	uint32_t *o;
	size_t i, j;
	uint8_t last = PH_NONE;

	if (s->nph[0] + s->nph[1] > 0) {
		for (i = 0; i < s->nev; i++) {
			struct ev *e = &s->ev[i];

			a = xd_around(s->ph[1], s->nph[1], e->ts);
			if (a == NULL)
				a = xd_around(s->ph[0], s->nph[0], e->lts);
			e->phase = a == NULL ? PH_NONE : a->phase;
		}
		return 1;
	}
	/* the attention kernels that tell, forward in time */
	o = bytime(s);
	for (i = 0; i < s->nev && s->ev[o[i]].phase == PH_NONE; i++)
		;
	if (i == s->nev) {
		free(o);
		return 0;
	}
	last = s->ev[o[i]].phase;
	for (j = 0; j < s->nev; j++) {
		struct ev *e = &s->ev[o[j]];

		if (e->op == opattn && e->phase != PH_NONE)
			last = e->phase;
		else
			e->phase = last;
	}
	free(o);
	return 1;
}

static void
freeside(struct xside *s)
{
	int32_t i;

	free(s->h);
	free(s->ev);
	free(s->ph[0]);
	free(s->ph[1]);
	free(s->pass);
	for (i = 0; s->layermod != NULL && i < s->nlayer; i++)
		free(s->layermod[i]);
	free(s->layermod);
}

/* Rows. */
struct orow {
	char *name;			/* group name */
	uint64_t cnt[2];
	int64_t time[2];
	uint32_t nkern[2];
	uint32_t topk[2], topc[2];	/* interned, NONE */
	int64_t topkt[2], topct[2];
	int fused;			/* 0, 1 (baseline), 2, 3 (both) */
	int status;
	int64_t gap;
};
enum { ST_SIMILAR, ST_SLOWER, ST_FASTER, ST_ONLYB, ST_ONLYV };
static const char *const stname[] = {
	"similar", "slower", "faster", "only_baseline", "only_variant"
};

static uint32_t *grpof;			/* op -> group row */
static struct orow *orow;
static size_t norow;
static uint32_t *oorder;		/* rows in output order */

static uint32_t
ufind(uint32_t *p, uint32_t x)
{
	while (p[x] != x)
		x = p[x] = p[p[x]];
	return x;
}

static int
status(int64_t t1, int64_t t2, int64_t c1, int64_t c2, double gapmin,
    double ratio)
{
	double g = (double)t2 - (double)t1, r;

	if (c1 == 0 && c2 > 0)
		return ST_ONLYV;
	if (c2 == 0 && c1 > 0)
		return ST_ONLYB;
	if (ratio <= 0) {
		if (g > gapmin)
			return ST_SLOWER;
		if (g < -gapmin)
			return ST_FASTER;
		return ST_SIMILAR;
	}
	r = t1 > 0 ? (double)t2 / (double)t1 : INFINITY;
	if (g > gapmin && r > ratio)
		return ST_SLOWER;
	if (g < -gapmin && r < 1 / ratio)
		return ST_FASTER;
	return ST_SIMILAR;
}

/* Groups: each op, but a fused op of one side with its parts. */
static void
groups(void)
{
	uint32_t *p = xcalloc(xd_nops + 1, sizeof *p), o, q, r;
	uint64_t *cnt[2];
	int *fused = xcalloc(xd_nops + 1, sizeof *fused), side;
	size_t i, e, l;
	char *part, *s, *t;

	cnt[0] = xcalloc(xd_nops + 1, sizeof *cnt[0]);
	cnt[1] = xcalloc(xd_nops + 1, sizeof *cnt[1]);
	for (side = 0; side < 2; side++)
		for (e = 0; e < xs[side].nev; e++)
			cnt[side][xs[side].ev[e].op]++;
	for (o = 0; o < xd_nops; o++)
		p[o] = o;
	for (o = 0; o < xd_nops; o++) {
		if (strchr(xd_ops[o], '+') == NULL || (cnt[0][o] > 0) ==
		    (cnt[1][o] > 0))
			continue;
		side = cnt[0][o] > 0 ? 0 : 1;
		s = xstrdup(xd_ops[o]);
		for (t = s; (part = strsep(&t, "+")) != NULL;) {
			for (q = 0; q < xd_nops && strcmp(xd_ops[q], part) != 0; q++)
				;
			if (q == xd_nops || cnt[!side][q] == 0)
				continue;
			r = ufind(p, q);
			p[r] = ufind(p, o);
			fused[o] |= 1 << side;
		}
		free(s);
	}
	grpof = xcalloc(xd_nops + 1, sizeof *grpof);
	for (o = 0; o < xd_nops; o++)
		grpof[o] = NONE;
	for (o = 0; o < xd_nops; o++) {
		r = ufind(p, o);
		if (grpof[r] == NONE) {
			orow = xreallocarray(orow, norow + 1, sizeof *orow);
			memset(&orow[norow], 0, sizeof *orow);
			orow[norow].topk[0] = orow[norow].topk[1] = NONE;
			orow[norow].topc[0] = orow[norow].topc[1] = NONE;
			grpof[r] = (uint32_t)norow++;
		}
		grpof[o] = grpof[r];
	}
	/* names: the fused ops of a group, or its one op */
	for (o = 0; o < xd_nops; o++)
		orow[grpof[o]].fused |= fused[o];
	for (o = 0; o < xd_nops; o++) {
		struct orow *w = &orow[grpof[o]];

		if (w->fused != 0 && fused[o] == 0)
			continue;
		if (w->name == NULL) {
			w->name = xstrdup(xd_ops[o]);
			continue;
		}
		l = strlen(w->name) + strlen(xd_ops[o]) + 2;
		w->name = xrealloc(w->name, l);
		strcat(w->name, ",");
		strcat(w->name, xd_ops[o]);
	}
	for (i = 0; i < norow; i++)
		if (orow[i].name == NULL)
			orow[i].name = xstrdup("?");
	free(p);
	free(fused);
	free(cnt[0]);
	free(cnt[1]);
}

/* Kernel rows: one per group, side, kernel name and cpu op. */
struct krow {
	uint32_t grp, name, cpu;
	uint8_t side;
	uint64_t cnt;
	int64_t time;
};
static struct krow *krow;
static size_t nkrow;

static int sortname;			/* cmpk: by kernel name too */

/* Events by group, kernel name (when sortname) and cpu op. */
static int
cmpk(const void *a, const void *b)
{
	const struct ev *x = &sortev[*(const uint32_t *)a],
	    *y = &sortev[*(const uint32_t *)b];

	if (grpof[x->op] != grpof[y->op])
		return grpof[x->op] < grpof[y->op] ? -1 : 1;
	if (sortname && x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return 0;
}

/* The bytes of an interned string, for ties in a stated order. */
static int
strcmpid(uint32_t a, uint32_t b)
{
	if (a == b)
		return 0;
	if (a == NONE || b == NONE)
		return a == NONE ? -1 : 1;
	return strcmp(tl_intern_str(xd_in, a, NULL), tl_intern_str(xd_in, b, NULL));
}

static void
aggregate(void)
{
	uint32_t *o, g;
	size_t i, j;
	int side;
	struct ev *e;
	int64_t t;
	uint64_t c;
	struct orow *w;

	for (side = 0; side < 2; side++) {
		struct xside *s = &xs[side];

		o = xcalloc(s->nev + 1, sizeof *o);
		for (i = 0; i < s->nev; i++) {
			o[i] = (uint32_t)i;
			e = &s->ev[i];
			w = &orow[grpof[e->op]];
			w->cnt[side]++;
			w->time[side] += e->dur;
			s->total += e->dur;
		}
		sortev = s->ev;
		sortname = 1;
		qsort(o, s->nev, sizeof *o, cmpk);
		for (i = 0; i < s->nev; i = j) {
			e = &s->ev[o[i]];
			g = grpof[e->op];
			for (j = i, t = 0, c = 0; j < s->nev &&
			    cmpk(&o[i], &o[j]) == 0; j++) {
				t += s->ev[o[j]].dur;
				c++;
			}
			krow = xreallocarray(krow, nkrow + 1, sizeof *krow);
			krow[nkrow].grp = g;
			krow[nkrow].name = e->name;
			krow[nkrow].cpu = e->cpu;
			krow[nkrow].side = (uint8_t)side;
			krow[nkrow].cnt = c;
			krow[nkrow++].time = t;
		}
		/* per group and kernel name: the top kernel */
		for (i = 0; i < s->nev; i = j) {
			e = &s->ev[o[i]];
			w = &orow[grpof[e->op]];
			for (j = i, t = 0; j < s->nev && grpof[s->ev[o[j]].op]
			    == grpof[e->op] && s->ev[o[j]].name == e->name;
			    j++)
				t += s->ev[o[j]].dur;
			w->nkern[side]++;
			if (w->topk[side] == NONE || t > w->topkt[side] ||
			    (t == w->topkt[side] && strcmpid(e->name,
			    w->topk[side]) < 0)) {
				w->topk[side] = e->name;
				w->topkt[side] = t;
			}
		}
		/* per group and cpu op: the top op */
		sortname = 0;
		qsort(o, s->nev, sizeof *o, cmpk);
		for (i = 0; i < s->nev; i = j) {
			e = &s->ev[o[i]];
			w = &orow[grpof[e->op]];
			for (j = i, t = 0; j < s->nev &&
			    cmpk(&o[i], &o[j]) == 0; j++)
				t += s->ev[o[j]].dur;
			if (e->cpu == NONE)
				continue;
			if (w->topc[side] == NONE || t > w->topct[side] ||
			    (t == w->topct[side] && strcmpid(e->cpu,
			    w->topc[side]) < 0)) {
				w->topc[side] = e->cpu;
				w->topct[side] = t;
			}
		}
		free(o);
	}
}

static const struct orow *sortrow;

static int
cmprow(const void *a, const void *b)
{
	const struct orow *x = &sortrow[*(const uint32_t *)a],
	    *y = &sortrow[*(const uint32_t *)b];
	int64_t gx = x->gap < 0 ? -x->gap : x->gap,
	    gy = y->gap < 0 ? -y->gap : y->gap;

	if (gx != gy)
		return gx > gy ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void
outid(struct tl_out *o, uint32_t id)
{
	const char *s;
	size_t n;

	if (id == NONE)
		return;
	s = tl_intern_str(xd_in, id, &n);
	tl_out_field(o, s, n);
}

/* t2 / t1, or NaN (an empty field) when t1 is not positive. */
static double
ratio(int64_t t1, int64_t t2)
{
	return t1 > 0 ? (double)t2 / (double)t1 : NAN;
}

/* Time t as a percent of side's total, or NaN. */
static double
pct(int side, int64_t t)
{
	return xs[side].total > 0 ? 100.0 * (double)t /
	    (double)xs[side].total : NAN;
}

/*
 * A row: its fields as fmt says, TAB-separated, then the newline. c a C
 * string, empty when NULL; i an int64_t; I the same, empty when
 * INT64_MIN; s a string id, empty when NONE; f a double, empty when NaN.
 */
static void
row(struct tl_out *o, const char *fmt, ...)
{
	va_list ap;
	const char *f, *c;
	int64_t v;
	double d;

	va_start(ap, fmt);
	for (f = fmt; *f != '\0'; f++) {
		if (f != fmt)
			tl_out_char(o, '\t');
		switch (*f) {
		case 'c':
			if ((c = va_arg(ap, const char *)) != NULL)
				tl_out_cstr(o, c);
			break;
		case 'i':
		case 'I':
			if ((v = va_arg(ap, int64_t)) != INT64_MIN || *f == 'i')
				tl_out_i64(o, v);
			break;
		case 's':
			outid(o, va_arg(ap, uint32_t));
			break;
		case 'f':
			if (!isnan(d = va_arg(ap, double)))
				tl_out_double(o, d);
			break;
		}
	}
	va_end(ap);
	tl_out_char(o, '\n');
}

static void
wops(struct tl_out *o)
{
	static const char *const hdr[] = {
		"operation", "status", "fused", "count_1", "count_2",
		"time_ns_1", "time_ns_2", "avg_ns_1", "avg_ns_2", "gap_ns",
		"ratio", "percent_1", "percent_2", "kernels_1", "kernels_2",
		"top_kernel_1", "top_kernel_2", "cpu_op_1", "cpu_op_2", NULL
	};
	static const char *const fz[] = { "", "baseline", "variant", "both" };
	size_t i;
	struct orow *w;

	tl_out_header(o, hdr);
	for (i = 0; i < norow; i++) {
		w = &orow[oorder[i]];
		if (w->cnt[0] == 0 && w->cnt[1] == 0)
			continue;
		row(o, "ccciiiiffifffiissss", w->name, stname[w->status],
		    fz[w->fused & 3], (int64_t)w->cnt[0], (int64_t)w->cnt[1],
		    w->time[0], w->time[1], ratio((int64_t)w->cnt[0],
		    w->time[0]), ratio((int64_t)w->cnt[1], w->time[1]), w->gap,
		    ratio(w->time[0], w->time[1]), pct(0, w->time[0]),
		    pct(1, w->time[1]),
		    (int64_t)w->nkern[0], (int64_t)w->nkern[1], w->topk[0],
		    w->topk[1], w->topc[0], w->topc[1]);
	}
}

static int
cmpkrow(const void *a, const void *b)
{
	const struct krow *x = a, *y = b;

	if (x->grp != y->grp)
		return x->grp < y->grp ? -1 : 1;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->name != y->name)
		return strcmpid(x->name, y->name);
	return strcmpid(x->cpu, y->cpu);
}

static void
wkernels(struct tl_out *o)
{
	static const char *const hdr[] = {
		"operation", "side", "kernel", "cpu_op", "count", "time_ns",
		"avg_ns", NULL
	};
	uint32_t *rank = xcalloc(norow + 1, sizeof *rank);
	size_t i;
	struct krow *k;

	/* the groups in the order of the ops table */
	for (i = 0; i < norow; i++)
		rank[oorder[i]] = (uint32_t)i;
	for (i = 0; i < nkrow; i++)
		krow[i].grp = rank[krow[i].grp];
	qsort(krow, nkrow, sizeof *krow, cmpkrow);
	tl_out_header(o, hdr);
	for (i = 0; i < nkrow; i++) {
		k = &krow[i];
		row(o, "ccssiif", orow[oorder[k->grp]].name, k->side ? "2" :
		    "1", k->name, k->cpu, (int64_t)k->cnt, k->time,
		    ratio((int64_t)k->cnt, k->time));
	}
	/* back to group indexes, for a second call */
	for (i = 0; i < nkrow; i++)
		krow[i].grp = oorder[krow[i].grp];
	free(rank);
}

/* Layers: labels pre, 0, 1, ..., post; per side and group. */
static int32_t nl;
static int64_t *lt[2], *lgt[2];		/* time; time per group */
static uint64_t *lc[2];
static int *lstatus;

static void
layeragg(const struct xopt *opt)
{
	size_t i;
	int side;

	nl = (xs[0].nlayer > xs[1].nlayer ? xs[0].nlayer : xs[1].nlayer) + 2;
	for (side = 0; side < 2; side++) {
		lt[side] = xcalloc((size_t)nl, sizeof *lt[side]);
		lc[side] = xcalloc((size_t)nl, sizeof *lc[side]);
		lgt[side] = xcalloc((size_t)nl * norow + 1, sizeof *lgt[side]);
		for (i = 0; i < xs[side].nev; i++) {
			struct ev *e = &xs[side].ev[i];
			size_t l = e->layer == PRE ? 0 : e->layer == POST ?
			    (size_t)nl - 1 : (size_t)e->layer + 1;

			lt[side][l] += e->dur;
			lc[side][l]++;
			lgt[side][l * norow + grpof[e->op]] += e->dur;
		}
	}
	lstatus = xcalloc((size_t)nl, sizeof *lstatus);
	for (i = 0; i < (size_t)nl; i++)
		lstatus[i] = status(lt[0][i], lt[1][i], (int64_t)lc[0][i],
		    (int64_t)lc[1][i], opt->lgap_ns, opt->lratio);
}

static void
wlayers(struct tl_out *o)
{
	static const char *const hdr[] = {
		"layer", "status", "module_1", "module_2", "count_1",
		"count_2", "time_ns_1", "time_ns_2", "gap_ns", "ratio",
		"top_operation", "top_operation_gap_ns", NULL
	};
	size_t i, g, best;
	int side;
	int64_t gap, bg;
	const char *mod[2];
	char num[24];

	tl_out_header(o, hdr);
	for (i = 0; i < (size_t)nl; i++) {
		if (lc[0][i] == 0 && lc[1][i] == 0)
			continue;
		snprintf(num, sizeof num, "%zu", i - 1);
		for (side = 0; side < 2; side++)
			mod[side] = i > 0 && i < (size_t)nl - 1 &&
			    xs[side].layermod != NULL &&
			    (int32_t)i - 1 < xs[side].nlayer ?
			    xs[side].layermod[i - 1] : NULL;
		/* the group whose gap is largest in this layer */
		best = NONE;
		bg = 0;
		for (g = 0; g < norow; g++) {
			gap = lgt[1][i * norow + g] - lgt[0][i * norow + g];
			if (gap == 0)
				continue;
			if (best == NONE || llabs(gap) > llabs(bg) ||
			    (llabs(gap) == llabs(bg) &&
			    strcmp(orow[g].name, orow[best].name) < 0)) {
				best = g;
				bg = gap;
			}
		}
		row(o, "cccciiiiifcI", i == 0 ? "pre" : i == (size_t)nl - 1 ?
		    "post" : num, stname[lstatus[i]], mod[0], mod[1],
		    (int64_t)lc[0][i], (int64_t)lc[1][i], lt[0][i], lt[1][i],
		    lt[1][i] - lt[0][i], ratio(lt[0][i], lt[1][i]),
		    best != NONE ? orow[best].name : NULL,
		    best != NONE ? bg : INT64_MIN);
	}
}

static const char *const tabname[] = { "ops", "layers", "kernels" };
static void (*const tabfn[])(struct tl_out *) = { wops, wlayers, wkernels };

/* Write the table name to o (NULL: none): 1, or 0 when there is none. */
static int
table(struct tl_out *o, const char *name)
{
	size_t i;

	for (i = 0; i < 3 && strcmp(name, tabname[i]) != 0; i++)
		;
	if (i < 3 && o != NULL)
		tabfn[i](o);
	return i < 3;
}

static const char usage[] =
    "usage: tl-xdiff [-q | -t table] [-c file] [-f phase] [-G ms] [-g ms] "
    "[-o dir]\n"
    "                [-r pct] baseline variant\n";

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "classes", required_argument, NULL, 'c' },
		{ "gap", required_argument, NULL, 'g' },
		{ "layer-gap", required_argument, NULL, 'G' },
		{ "layer-ratio", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "phase", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "table", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	struct xopt o, *opt = &o;
	struct tl_out out;
	struct tl_file f;
	char name[16];
	char *shipped;
	size_t i, k;
	int ch, side, told[2], same;
	uint8_t want = PH_NONE, ph;

	tl_setprogname(argv[0]);
	tl_failstatus = 2;	/* diff(1): trouble is 2, even in libtl */
	memset(&o, 0, sizeof o);
	o.gap_ns = 5e6;
	o.lgap_ns = 1e5;
	o.lratio = 1.2;
	while ((ch = tl_getopt(argc, argv, "c:f:G:g:o:qr:t:", lopt,
	    usage)) != -1) {
		switch (ch) {
		case 'c':
			o.classes = optarg;
			break;
		case 'f':
			o.phase = optarg;
			break;
		case 'G':
			o.lgap_ns = tl_optfloat("-G", optarg, 0, HUGE_VAL) * 1e6;
			break;
		case 'g':
			o.gap_ns = tl_optfloat("-g", optarg, 0, HUGE_VAL) * 1e6;
			break;
		case 'o':
			o.odir = optarg;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'r':
			o.lratio = 1 + tl_optfloat("-r", optarg, 0,
			    HUGE_VAL) / 100;
			break;
		case 't':
			o.table = optarg;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (o.quiet && o.table != NULL)
		tl_errx(2, "-q and -t exclude each other");
	if (argc != 2) {
		tl_warnx(argc < 2 ? "two streams needed: baseline and "
		    "variant" : "too many operands");
		tl_usage(usage);
	}
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		tl_errx(2, "only one of the streams can be the standard "
		    "input");
	if (opt->table != NULL && !table(NULL, opt->table))
		tl_errx(2, "-t: no such table: \"%s\" (ops, layers, kernels)",
		    opt->table);
	if (opt->phase != NULL) {
		if (strcmp(opt->phase, "prefill") == 0)
			want = PH_PREFILL;
		else if (strcmp(opt->phase, "decode") == 0)
			want = PH_DECODE;
		else
			tl_errx(2, "-f: not prefill or decode: \"%s\"",
			    opt->phase);
	}
	notes = opt->odir != NULL || (opt->table != NULL &&
	    strcmp(opt->table, "layers") == 0);
	xd_in = tl_intern_new();
	if (opt->classes != NULL)
		xd_loadrules(opt->classes);
	shipped = tl_sharepath(CLASSFILE);
	xd_loadrules(shipped);
	free(shipped);
	xd_opother = xd_opindex("Other");
	opattn = xd_opindex("Attention");
	opattnbwd = xd_opindex("Attention backward");
	xd_load(&xs[0], argv[0]);
	xd_load(&xs[1], argv[1]);
	for (side = 0; side < 2; side++) {
		struct xside *s = &xs[side];

		for (i = 0; i < s->nev; i++) {
			s->ev[i].op = xd_classify(s->ev[i].name, &ph);
			/* an XLA kernel: its instruction's operation, when
			 * one is known, unless the kernel is attention's */
			if (s->ev[i].hlo != NONE && s->ev[i].op != opattn &&
			    s->ev[i].op != opattnbwd) {
				uint8_t hph;
				uint32_t hop = xd_classify(s->ev[i].hlo, &hph);

				if (hop != xd_opother) {
					s->ev[i].op = hop;
					ph = hph;
				}
			}
			s->ev[i].phase = ph;
		}
		told[side] = phases(s);
		if (want != PH_NONE) {
			if (!told[side])
				tl_errx(2, "%s: no phase to filter by: no "
				    "execute_context, prefill or decode "
				    "annotation, and no attention kernel that "
				    "tells", s->path);
			for (i = 0, k = 0; i < s->nev; i++)
				if (s->ev[i].phase == want)
					s->ev[k++] = s->ev[i];
			if (k == 0)
				tl_errx(2, "%s: no GPU kernels in the %s "
				    "phase", s->path, phname[want]);
			s->nev = k;
		}
		for (i = 0; i < s->nev; i++) {
			const struct ann *a = xd_around(s->pass, s->npass,
			    s->ev[i].lts);

			s->ev[i].pass = a == NULL ? 0 : (int)(a - s->pass) + 1;
		}
	}
	for (side = 0; side < 2; side++)
		if (!(xs[side].nnmodule = modlayers(&xs[side])))
			attnlayers(&xs[side]);
	if (notes && xs[0].nnmodule != xs[1].nnmodule)
		tl_warnx("%s has layers from nn.Module frames and %s from "
		    "attention kernels: they may not line up (tl-tree -P on "
		    "both)", xs[xs[0].nnmodule ? 0 : 1].path,
		    xs[xs[0].nnmodule ? 1 : 0].path);

	groups();
	aggregate();
	same = 1;
	oorder = xcalloc(norow + 1, sizeof *oorder);
	for (i = 0; i < norow; i++) {
		struct orow *w = &orow[i];

		oorder[i] = (uint32_t)i;
		w->gap = w->time[1] - w->time[0];
		w->status = status(w->time[0], w->time[1],
		    (int64_t)w->cnt[0], (int64_t)w->cnt[1], opt->gap_ns, 0);
		if ((w->cnt[0] > 0 || w->cnt[1] > 0) &&
		    w->status != ST_SIMILAR)
			same = 0;
	}
	sortrow = orow;
	qsort(oorder, norow, sizeof *oorder, cmprow);
	layeragg(opt);
	for (i = 0; i < (size_t)nl; i++)
		if ((lc[0][i] > 0 || lc[1][i] > 0) &&
		    lstatus[i] != ST_SIMILAR)
			same = 0;

	if (opt->odir != NULL) {
		if (tl_mkdirs(opt->odir) < 0)
			tl_err(2, "%s", opt->odir);
		for (i = 0; i < 3; i++) {
			snprintf(name, sizeof name, "%s.tsv", tabname[i]);
			if (tl_file_open(&f, opt->odir, name) < 0)
				tl_exit(2);
			table(&f.out, tabname[i]);
			if (tl_file_close(&f) < 0)
				tl_exit(2);
		}
	}
	if (!opt->quiet && (opt->odir == NULL || opt->table != NULL)) {
		tl_out_init(&out, 1, "<stdout>");
		table(&out, opt->table != NULL ? opt->table : "ops");
		tl_out_close(&out);
	}

	for (side = 0; side < 2; side++) {
		freeside(&xs[side]);
		free(lt[side]);
		free(lc[side]);
		free(lgt[side]);
	}
	for (i = 0; i < norow; i++)
		free(orow[i].name);
	free(orow);
	free(oorder);
	free(grpof);
	free(krow);
	free(lstatus);
	xd_freerules();
	tl_intern_free(xd_in);
	return same ? 0 : 1;
}
