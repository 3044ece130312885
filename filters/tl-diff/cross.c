/*
 * tl-diff: comparison by operation and by layer (-X), what wafer-core's
 * trace_compare does for an AMD against an NVIDIA trace. Every GPU event
 * of each side is put in an operation by its name (the rules of
 * share/tl/kernel-classes.tsv, first match wins), and in a layer (the
 * instances of the repeated nn.Module around it, or the stretch of
 * kernels from one attention kernel to the next); each operation and
 * each layer is compared: count, total and average time on each side,
 * the gap and the ratio, and a status by thresholds.
 */
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/intern.h"
#include "../../common/mem.h"
#include "../../common/share.h"
#include "../../common/tsv.h"
#include "td.h"

#define CLASSFILE	"kernel-classes.tsv"
#define UNSET		(UINT32_MAX - 1)
#define PRE		(-1)
#define POST		(-2)

enum { PH_NONE, PH_PREFILL, PH_DECODE, PH_MIXED };
static const char *const phname[] = { "", "prefill", "decode", "mixed" };

/* Host event kinds this mode looks at. */
enum { H_OTHER, H_CPU_OP, H_LAUNCH, H_PYTHON, H_MODULE, H_ANNOT,
	H_GPUANNOT };
#define MODPFX	"nn.Module: "
#define NMODPFX	(sizeof MODPFX - 1)

/* A classification rule. */
struct rule {
	uint32_t op;			/* index in ops */
	regex_t re, also;
	int hasalso;
	uint8_t phase;
};

static struct rule *rules;
static size_t nrules, caprules;
static char **ops;			/* operation names, first-seen order */
static size_t nops, capops;
static uint32_t opother, opattn;	/* "Other", "Attention" */
static int notes;			/* say how layers were found */

struct host {
	int64_t uid, ts, dur;
	uint32_t parent;		/* index, NONE */
	uint32_t name;
	uint32_t mod;			/* nearest nn.Module frame, memo */
	uint8_t kind;
};

struct ev {
	int64_t ts, dur, lts;		/* start, duration, launch time */
	uint32_t name, cpu;		/* interned; cpu NONE */
	uint32_t op;
	uint32_t frame;			/* innermost nn.Module frame, NONE */
	int32_t layer;
	int32_t pass;
	uint8_t phase;
};

struct ann {
	int64_t ts, end;
	uint8_t phase;			/* PH_*, or 0 for a pass */
};

struct xside {
	const char *path;
	struct host *h;
	size_t nh;
	struct ev *ev;
	size_t nev;
	struct ann *ph[2];		/* phase annotations: CPU, GPU */
	size_t nph[2];
	struct ann *pass;		/* ProfilerStep / execute_context */
	size_t npass;
	char **layermod;		/* per layer: the module instance */
	int32_t nlayer;
	int nnmodule;			/* layers from nn.Module frames */
	int64_t total;
};

static struct tl_intern *in;
static struct xside xs[2];
/* The stream being read: reachable when an error exits (LeakSanitizer). */
static struct tl_tsv *volatile curt;
static struct tl_src *volatile cursrc;
static uint8_t *phcache;		/* per name id: phase + 1 of its rule */
static uint32_t *opcache;		/* per name id: op + 1 */
static size_t capcache;

static uint32_t
opindex(const char *name)
{
	size_t i;

	for (i = 0; i < nops; i++)
		if (strcmp(ops[i], name) == 0)
			return (uint32_t)i;
	xgrow(&ops, &capops, nops + 1, sizeof *ops);
	ops[nops] = xstrdup(name);
	return (uint32_t)nops++;
}

static void
loadrules(const char *path, int need)
{
	struct tl_src *src;
	struct tl_tsv *t;
	struct rule *r;
	const char *s;
	char *pat, err[256];
	size_t n;
	int co, cm, ca, cp, e, k;

	if ((cursrc = src = tl_src_open(path)) == NULL) {
		if (need)
			exit(2);
		return;
	}
	if ((k = tl_src_next(src)) <= 0) {
		if (k == 0)
			tl_errx(2, "%s: empty input: no header", path);
		exit(2);
	}
	curt = t = tl_tsv_open(src);
	co = tl_tsv_need(t, "operation");
	cm = tl_tsv_need(t, "match");
	ca = tl_tsv_col(t, "also");
	cp = tl_tsv_col(t, "phase");
	while (tl_tsv_next(t)) {
		if ((s = tl_tsv_str(t, co, &n)) == NULL)
			tl_tsv_errx(t, "column \"operation\": empty");
		xgrow(&rules, &caprules, nrules + 1, sizeof *rules);
		r = &rules[nrules];
		memset(r, 0, sizeof *r);
		pat = xmemdup(s, n);
		r->op = opindex(pat);
		free(pat);
		if ((s = tl_tsv_str(t, cm, &n)) == NULL)
			tl_tsv_errx(t, "column \"match\": empty");
		pat = xmemdup(s, n);
		if ((e = regcomp(&r->re, pat, REG_EXTENDED | REG_ICASE |
		    REG_NOSUB)) != 0) {
			regerror(e, &r->re, err, sizeof err);
			tl_tsv_errx(t, "column \"match\": %s: \"%.40s\"", err,
			    pat);
		}
		free(pat);
		if (ca >= 0 && (s = tl_tsv_str(t, ca, &n)) != NULL) {
			pat = xmemdup(s, n);
			if ((e = regcomp(&r->also, pat, REG_EXTENDED |
			    REG_ICASE | REG_NOSUB)) != 0) {
				regerror(e, &r->also, err, sizeof err);
				regfree(&r->re);
				tl_tsv_errx(t, "column \"also\": %s: \"%.40s\"",
				    err, pat);
			}
			free(pat);
			r->hasalso = 1;
		}
		if (cp >= 0 && (s = tl_tsv_str(t, cp, &n)) != NULL) {
			if (n == 7 && memcmp(s, "prefill", 7) == 0)
				r->phase = PH_PREFILL;
			else if (n == 6 && memcmp(s, "decode", 6) == 0)
				r->phase = PH_DECODE;
			else
				tl_tsv_errx(t, "column \"phase\": not prefill "
				    "or decode: \"%.*s\"", (int)(n > 40 ? 40 :
				    n), s);
		}
		nrules++;
	}
	tl_tsv_close(t);
	curt = NULL;
	tl_src_close(src);
}

static void
freerules(void)
{
	size_t i;

	for (i = 0; i < nrules; i++) {
		regfree(&rules[i].re);
		if (rules[i].hasalso)
			regfree(&rules[i].also);
	}
	free(rules);
	for (i = 0; i < nops; i++)
		free(ops[i]);
	free(ops);
}

/* The operation of a kernel name, and the phase its rule tells. */
static uint32_t
classify(uint32_t name, uint8_t *phase)
{
	const char *s;
	size_t i, n;

	if (name >= capcache) {
		size_t old = capcache;

		xgrow(&opcache, &capcache, (size_t)name + 1, sizeof *opcache);
		phcache = xreallocarray(phcache, capcache, 1);
		memset(opcache + old, 0, (capcache - old) * sizeof *opcache);
		memset(phcache + old, 0, capcache - old);
	}
	if (opcache[name] == 0) {
		s = tl_intern_str(in, name, &n);
		for (i = 0; i < nrules; i++)
			if (regexec(&rules[i].re, s, 0, NULL, 0) == 0 &&
			    (!rules[i].hasalso || regexec(&rules[i].also, s, 0,
			    NULL, 0) == 0))
				break;
		opcache[name] = (i < nrules ? rules[i].op : opother) + 1;
		phcache[name] = i < nrules ? rules[i].phase : PH_NONE;
	}
	*phase = phcache[name];
	return opcache[name] - 1;
}

static int
hostkind(const char *s, size_t n)
{
#define IS(lit)	(n == sizeof lit - 1 && memcmp(s, lit, n) == 0)
	if (IS("cpu_op"))
		return H_CPU_OP;
	if (IS("cuda_runtime") || IS("cuda_driver"))
		return H_LAUNCH;
	if (IS("python_function"))
		return H_PYTHON;
	if (IS("user_annotation"))
		return H_ANNOT;
	if (IS("gpu_user_annotation"))
		return H_GPUANNOT;
	return H_OTHER;
#undef IS
}

static int
isgpu(const char *s, size_t n)
{
	return (n == 6 && memcmp(s, "kernel", 6) == 0) ||
	    (n == 10 && memcmp(s, "gpu_memcpy", 10) == 0) ||
	    (n == 10 && memcmp(s, "gpu_memset", 10) == 0);
}

struct uidx {
	int64_t uid;
	uint32_t i;
};

static int
cmpuidx(const void *a, const void *b)
{
	const struct uidx *x = a, *y = b;

	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

static uint32_t
finduid(const struct uidx *u, size_t n, int64_t uid)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (u[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && u[lo].uid == uid ? u[lo].i : NONE;
}

/* s holds w, in any case. */
static int
hascase(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (; *s != '\0'; s++)
		if (strncasecmp(s, w, n) == 0)
			return 1;
	return 0;
}

/* "execute_context_R(N)_generation_R(N)", or a name saying the phase. */
static uint8_t
annphase(const char *s)
{
	const char *c, *g;
	long cr = -1, gr = -1;
	int pre, dec;

	if (strncmp(s, "execute_context", 15) == 0) {
		c = strstr(s, "context_");
		g = strstr(s, "generation_");
		if (c != NULL)
			cr = strtol(c + 8, NULL, 10);
		if (g != NULL)
			gr = strtol(g + 11, NULL, 10);
		if (cr > 0 && gr <= 0)
			return PH_PREFILL;
		if (cr <= 0 && gr > 0)
			return PH_DECODE;
		if (cr > 0 && gr > 0)
			return PH_MIXED;
		return PH_NONE;
	}
	pre = hascase(s, "prefill");
	dec = hascase(s, "decode");
	return pre && dec ? PH_MIXED : pre ? PH_PREFILL : dec ? PH_DECODE :
	    PH_NONE;
}

static void
addann(struct ann **v, size_t *n, int64_t ts, int64_t dur, uint8_t ph)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[*n].ts = ts;
	(*v)[*n].end = ts + (dur > 0 ? dur : 0);
	(*v)[(*n)++].phase = ph;
}

static int
cmpann(const void *a, const void *b)
{
	const struct ann *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* The annotation around t: the latest to start that has not ended. */
static const struct ann *
around(const struct ann *v, size_t n, int64_t t)
{
	size_t lo = 0, hi = n, mid, k;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid].ts <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = 0; lo > 0 && k < 8; k++, lo--)
		if (t <= v[lo - 1].end)
			return &v[lo - 1];
	return NULL;
}

static void
load(struct xside *s, const char *path)
{
	struct tl_src *src;
	struct tl_tsv *t;
	struct uidx *u;
	int64_t *hpar, *epar, *elaunch, v;
	size_t caph = 0, cape = 0, i, n;
	int cu, cc, cn, cts, cdur, cpar, cdep, cl, r, k;
	const char *str;
	uint32_t p;
	struct host *h;
	struct ev *e;
	uint8_t ph;

	s->path = strcmp(path, "-") == 0 ? "<stdin>" : path;
	if ((cursrc = src = tl_src_open(path)) == NULL)
		exit(2);
	if ((r = tl_src_next(src)) <= 0) {
		if (r == 0)
			tl_errx(2, "%s: empty input: no header", s->path);
		exit(2);
	}
	curt = t = tl_tsv_open(src);
	cpar = tl_tsv_col(t, "parent");
	cdep = tl_tsv_col(t, "depth");
	if (cpar < 0 || cdep < 0)
		tl_errx(2, "%s:1: not a tree stream: no column \"%s\" (make "
		    "one with tl-tree)", t->name, cpar < 0 ? "parent" :
		    "depth");
	cu = tl_tsv_need(t, "uid");
	cc = tl_tsv_need(t, "cat");
	cn = tl_tsv_need(t, "name");
	cts = tl_tsv_need(t, "ts_ns");
	cdur = tl_tsv_need(t, "dur_ns");
	cl = tl_tsv_col(t, "launcher");
	hpar = epar = elaunch = NULL;
	while (tl_tsv_next(t)) {
		if (t->fl[cu] == 0) {
			if (t->fl[cc] == 10 && memcmp(t->f[cc], "trace_file",
			    10) == 0 && (s->nh > 0 || s->nev > 0))
				tl_tsv_errx(t, "a second trace: tl-diff "
				    "compares one trace with one");
			continue;
		}
		if (isgpu(t->f[cc], t->fl[cc])) {
			xgrow(&s->ev, &cape, s->nev + 1, sizeof *s->ev);
			epar = xreallocarray(epar, cape, sizeof *epar);
			elaunch = xreallocarray(elaunch, cape,
			    sizeof *elaunch);
			e = &s->ev[s->nev];
			memset(e, 0, sizeof *e);
			if (!tl_tsv_i64(t, cts, &e->ts))
				tl_tsv_errx(t, "GPU event without ts_ns");
			if (!tl_tsv_i64(t, cdur, &e->dur) || e->dur < 0)
				e->dur = 0;
			if ((str = tl_tsv_str(t, cn, &n)) == NULL) {
				str = "";
				n = 0;
			}
			e->name = tl_intern(in, str, n);
			epar[s->nev] = tl_tsv_i64(t, cpar, &v) ? v : INT64_MIN;
			elaunch[s->nev] = cl >= 0 && tl_tsv_i64(t, cl, &v) ?
			    v : INT64_MIN;
			s->nev++;
			continue;
		}
		k = hostkind(t->f[cc], t->fl[cc]);
		if (k == H_OTHER)
			continue;
		if ((k == H_CPU_OP || k == H_LAUNCH || k == H_PYTHON) &&
		    t->fl[cdep] == 0)
			continue;		/* not in the tree */
		xgrow(&s->h, &caph, s->nh + 1, sizeof *s->h);
		hpar = xreallocarray(hpar, caph, sizeof *hpar);
		h = &s->h[s->nh];
		memset(h, 0, sizeof *h);
		tl_tsv_i64(t, cu, &h->uid);
		if (!tl_tsv_i64(t, cts, &h->ts))
			continue;
		if (!tl_tsv_i64(t, cdur, &h->dur) || h->dur < 0)
			h->dur = 0;
		if ((str = tl_tsv_str(t, cn, &n)) == NULL) {
			str = "";
			n = 0;
		}
		h->name = tl_intern(in, str, n);
		if (k == H_PYTHON && n > NMODPFX && memcmp(str, MODPFX,
		    NMODPFX) == 0)
			k = H_MODULE;
		h->kind = (uint8_t)k;
		h->mod = UNSET;
		hpar[s->nh] = tl_tsv_i64(t, cpar, &v) ? v : INT64_MIN;
		if (k == H_ANNOT || k == H_GPUANNOT) {
			str = tl_intern_str(in, h->name, &n);
			if ((ph = annphase(str)) != PH_NONE)
				addann(&s->ph[k == H_GPUANNOT],
				    &s->nph[k == H_GPUANNOT], h->ts, h->dur,
				    ph);
			if (k == H_ANNOT && (strncmp(str, "ProfilerStep#",
			    13) == 0 || strncmp(str, "execute_context", 15) ==
			    0))
				addann(&s->pass, &s->npass, h->ts, h->dur, 0);
		}
		s->nh++;
	}
	tl_tsv_close(t);
	curt = NULL;
	if ((r = tl_src_next(src)) != 0) {
		if (r > 0)
			tl_errx(2, "%s: more than one stream: tl-diff compares "
			    "one trace with one", s->path);
		exit(2);
	}
	tl_src_close(src);
	if (s->nev == 0)
		tl_errx(2, "%s: no GPU kernels (no kernel, gpu_memcpy or "
		    "gpu_memset event): nothing to compare", s->path);

	/* parents and launchers, by uid */
	u = xcalloc(s->nh + 1, sizeof *u);
	for (i = 0; i < s->nh; i++) {
		u[i].uid = s->h[i].uid;
		u[i].i = (uint32_t)i;
	}
	qsort(u, s->nh, sizeof *u, cmpuidx);
	for (i = 0; i < s->nh; i++)
		s->h[i].parent = hpar[i] == INT64_MIN ? NONE :
		    finduid(u, s->nh, hpar[i]);
	for (i = 0; i < s->nev; i++) {
		e = &s->ev[i];
		e->cpu = NONE;
		e->frame = NONE;
		p = epar[i] == INT64_MIN ? NONE : finduid(u, s->nh, epar[i]);
		e->lts = p != NONE ? s->h[p].ts : e->ts;
		if (elaunch[i] != INT64_MIN && (r = (int)finduid(u, s->nh,
		    elaunch[i])) != (int)NONE && s->h[r].kind == H_CPU_OP)
			e->cpu = s->h[r].name;
		else
			for (; p != NONE; p = s->h[p].parent)
				if (s->h[p].kind == H_CPU_OP) {
					e->cpu = s->h[p].name;
					break;
				}
		/* the launch, for now: layers() finds the frame above */
		e->frame = epar[i] == INT64_MIN ? NONE : finduid(u, s->nh,
		    epar[i]);
	}
	free(u);
	free(hpar);
	free(epar);
	free(elaunch);
	if (s->nph[0] > 0)
		qsort(s->ph[0], s->nph[0], sizeof *s->ph[0], cmpann);
	if (s->nph[1] > 0)
		qsort(s->ph[1], s->nph[1], sizeof *s->ph[1], cmpann);
	if (s->npass > 0)
		qsort(s->pass, s->npass, sizeof *s->pass, cmpann);
}

/* The nearest nn.Module frame at or above host i, remembered. */
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

static int
passof(const struct xside *s, int64_t t)
{
	const struct ann *a = around(s->pass, s->npass, t);

	return a == NULL ? 0 : (int)(a - s->pass) + 1;
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
	size_t capi = 0, capc = 0, e, nid = tl_intern_count(in), n, k;
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
			str = tl_intern_str(in, s->h[i].name, &n) + NMODPFX;
			n -= NMODPFX;
			for (k = n; k > 0 && str[k - 1] >= '0' &&
			    str[k - 1] <= '9'; k--)
				;
			if (k < n && k > 1 && str[k - 1] == '_')
				n = k - 1;
			cname = xmemdup(str, n);
			f = tl_intern(in, cname, n);
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
		for (d = 0, f = s->h[i].parent == NONE ? NONE :
		    modof(s, s->h[i].parent); f != NONE; f = s->h[f].parent ==
		    NONE ? NONE : modof(s, s->h[f].parent))
			d++;
		c = inst[iof[s->h[i].name]].cls;
		if (d < cl[c].depth)
			cl[c].depth = d;
	}
	for (e = 0; e < s->nev; e++) {
		ev = &s->ev[e];
		ev->frame = ev->frame == NONE ? NONE : modof(s, ev->frame);
		for (f = ev->frame; f != NONE; f = s->h[f].parent == NONE ?
		    NONE : modof(s, s->h[f].parent)) {
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
		uint32_t *ord = xcalloc(ninst + 1, sizeof *ord), no = 0;
		int64_t *first = xcalloc(ninst + 1, sizeof *first);

		for (i = 0; i < ninst; i++) {
			first[i] = inst[i].first;
			inst[i].layer = PRE;
			if (inst[i].cls == best)
				ord[no++] = i;
		}
		/* sort by first start, then index */
		for (i = 1; i < no; i++)
			for (f = i; f > 0 && (first[ord[f - 1]] > first[ord[f]]
			    || (first[ord[f - 1]] == first[ord[f]] &&
			    ord[f - 1] > ord[f])); f--) {
				d = ord[f];
				ord[f] = ord[f - 1];
				ord[f - 1] = d;
			}
		s->layermod = xcalloc(no + 1, sizeof *s->layermod);
		for (i = 0; i < no; i++)
			inst[ord[i]].layer = (int32_t)i;
		for (i = 0; i < s->nh; i++)
			if (s->h[i].kind == H_MODULE &&
			    inst[iof[s->h[i].name]].cls == best &&
			    s->layermod[inst[iof[s->h[i].name]].layer] ==
			    NULL) {
				str = tl_intern_str(in, s->h[i].name, &n);
				s->layermod[inst[iof[s->h[i].name]].layer] =
				    xstrdup(str + NMODPFX);
			}
		s->nlayer = (int32_t)no;
		free(ord);
		free(first);
	}
	/* each event: its instance of the class, else before or after */
	np = (int32_t)s->npass + 1;
	minlts = xmalloc((size_t)np * sizeof *minlts);
	for (k = 0; k < (size_t)np; k++)
		minlts[k] = INT64_MAX;
	for (e = 0; e < s->nev; e++) {
		ev = &s->ev[e];
		ev->layer = PRE;
		for (f = ev->frame; f != NONE; f = s->h[f].parent == NONE ?
		    NONE : modof(s, s->h[f].parent))
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
	str = tl_intern_str(in, cl[best].name, &n);
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

static int
cmpts(const void *a, const void *b)
{
	const struct ev *x = &sortev[*(const uint32_t *)a],
	    *y = &sortev[*(const uint32_t *)b];

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) -
	    (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* The events of a side in time order (start, then input order). */
static uint32_t *
bytime(const struct xside *s)
{
	uint32_t *o = xcalloc(s->nev + 1, sizeof *o);
	size_t i;

	for (i = 0; i < s->nev; i++)
		o[i] = (uint32_t)i;
	sortev = s->ev;
	qsort(o, s->nev, sizeof *o, cmpts);
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

			a = around(s->ph[1], s->nph[1], e->ts);
			if (a == NULL)
				a = around(s->ph[0], s->nph[0], e->lts);
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
	uint32_t *p = xcalloc(nops + 1, sizeof *p), o, q, r;
	uint64_t *cnt[2];
	int *fused = xcalloc(nops + 1, sizeof *fused), side;
	size_t i, e, l;
	char *part, *s, *t;

	cnt[0] = xcalloc(nops + 1, sizeof *cnt[0]);
	cnt[1] = xcalloc(nops + 1, sizeof *cnt[1]);
	for (side = 0; side < 2; side++)
		for (e = 0; e < xs[side].nev; e++)
			cnt[side][xs[side].ev[e].op]++;
	for (o = 0; o < nops; o++)
		p[o] = o;
	for (o = 0; o < nops; o++) {
		if (strchr(ops[o], '+') == NULL || (cnt[0][o] > 0) ==
		    (cnt[1][o] > 0))
			continue;
		side = cnt[0][o] > 0 ? 0 : 1;
		s = xstrdup(ops[o]);
		for (t = s; (part = strsep(&t, "+")) != NULL;) {
			for (q = 0; q < nops && strcmp(ops[q], part) != 0; q++)
				;
			if (q == nops || cnt[!side][q] == 0)
				continue;
			r = ufind(p, q);
			p[r] = ufind(p, o);
			fused[o] |= 1 << side;
		}
		free(s);
	}
	grpof = xcalloc(nops + 1, sizeof *grpof);
	for (o = 0; o < nops; o++)
		grpof[o] = NONE;
	for (o = 0; o < nops; o++) {
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
	for (o = 0; o < nops; o++)
		orow[grpof[o]].fused |= fused[o];
	for (o = 0; o < nops; o++) {
		struct orow *w = &orow[grpof[o]];

		if (w->fused != 0 && fused[o] == 0)
			continue;
		if (w->name == NULL) {
			w->name = xstrdup(ops[o]);
			continue;
		}
		l = strlen(w->name) + strlen(ops[o]) + 2;
		w->name = xrealloc(w->name, l);
		strcat(w->name, ",");
		strcat(w->name, ops[o]);
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

static int
cmpk(const void *a, const void *b)
{
	const struct ev *x = &sortev[*(const uint32_t *)a],
	    *y = &sortev[*(const uint32_t *)b];

	if (grpof[x->op] != grpof[y->op])
		return grpof[x->op] < grpof[y->op] ? -1 : 1;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return 0;
}

static int
cmpc(const void *a, const void *b)
{
	const struct ev *x = &sortev[*(const uint32_t *)a],
	    *y = &sortev[*(const uint32_t *)b];

	if (grpof[x->op] != grpof[y->op])
		return grpof[x->op] < grpof[y->op] ? -1 : 1;
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
	return strcmp(tl_intern_str(in, a, NULL), tl_intern_str(in, b, NULL));
}

static void
aggregate(void)
{
	uint32_t *o, g;
	size_t i, j, k;
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
		qsort(o, s->nev, sizeof *o, cmpc);
		for (i = 0; i < s->nev; i = j) {
			e = &s->ev[o[i]];
			w = &orow[grpof[e->op]];
			for (j = i, t = 0; j < s->nev &&
			    cmpc(&o[i], &o[j]) == 0; j++)
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
	(void)k;
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
outsep(struct tl_out *o)
{
	tl_out_char(o, '\t');
}

static void
outid(struct tl_out *o, uint32_t id)
{
	const char *s;
	size_t n;

	if (id == NONE)
		return;
	s = tl_intern_str(in, id, &n);
	tl_out_field(o, s, n);
}

static void
outratio(struct tl_out *o, int64_t t1, int64_t t2)
{
	if (t1 > 0)
		tl_out_double(o, (double)t2 / (double)t1);
}

static void
outavg(struct tl_out *o, int64_t t, uint64_t c)
{
	if (c > 0)
		tl_out_double(o, (double)t / (double)c);
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
	int side;
	struct orow *w;

	tl_out_header(o, hdr);
	for (i = 0; i < norow; i++) {
		w = &orow[oorder[i]];
		if (w->cnt[0] == 0 && w->cnt[1] == 0)
			continue;
		tl_out_cstr(o, w->name);
		outsep(o);
		tl_out_cstr(o, stname[w->status]);
		outsep(o);
		tl_out_cstr(o, fz[w->fused & 3]);
		for (side = 0; side < 2; side++) {
			outsep(o);
			tl_out_i64(o, (int64_t)w->cnt[side]);
		}
		for (side = 0; side < 2; side++) {
			outsep(o);
			tl_out_i64(o, w->time[side]);
		}
		for (side = 0; side < 2; side++) {
			outsep(o);
			outavg(o, w->time[side], w->cnt[side]);
		}
		outsep(o);
		tl_out_i64(o, w->gap);
		outsep(o);
		outratio(o, w->time[0], w->time[1]);
		for (side = 0; side < 2; side++) {
			outsep(o);
			if (xs[side].total > 0)
				tl_out_double(o, 100.0 * (double)w->time[side] /
				    (double)xs[side].total);
		}
		for (side = 0; side < 2; side++) {
			outsep(o);
			tl_out_i64(o, w->nkern[side]);
		}
		for (side = 0; side < 2; side++) {
			outsep(o);
			outid(o, w->topk[side]);
		}
		for (side = 0; side < 2; side++) {
			outsep(o);
			outid(o, w->topc[side]);
		}
		tl_out_char(o, '\n');
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
		tl_out_cstr(o, orow[oorder[k->grp]].name);
		outsep(o);
		tl_out_char(o, k->side ? '2' : '1');
		outsep(o);
		outid(o, k->name);
		outsep(o);
		outid(o, k->cpu);
		outsep(o);
		tl_out_i64(o, (int64_t)k->cnt);
		outsep(o);
		tl_out_i64(o, k->time);
		outsep(o);
		outavg(o, k->time, k->cnt);
		tl_out_char(o, '\n');
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

static size_t
li(int32_t layer)
{
	return layer == PRE ? 0 : layer == POST ? (size_t)nl - 1 :
	    (size_t)layer + 1;
}

static void
layeragg(const struct td_xopt *opt)
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
			size_t l = li(e->layer);

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
	char num[24];

	tl_out_header(o, hdr);
	for (i = 0; i < (size_t)nl; i++) {
		if (lc[0][i] == 0 && lc[1][i] == 0)
			continue;
		if (i == 0)
			tl_out_cstr(o, "pre");
		else if (i == (size_t)nl - 1)
			tl_out_cstr(o, "post");
		else {
			snprintf(num, sizeof num, "%zu", i - 1);
			tl_out_cstr(o, num);
		}
		outsep(o);
		tl_out_cstr(o, stname[lstatus[i]]);
		for (side = 0; side < 2; side++) {
			outsep(o);
			if (i > 0 && i < (size_t)nl - 1 &&
			    xs[side].layermod != NULL &&
			    (int32_t)i - 1 < xs[side].nlayer)
				tl_out_cstr(o, xs[side].layermod[i - 1]);
		}
		for (side = 0; side < 2; side++) {
			outsep(o);
			tl_out_i64(o, (int64_t)lc[side][i]);
		}
		for (side = 0; side < 2; side++) {
			outsep(o);
			tl_out_i64(o, lt[side][i]);
		}
		outsep(o);
		tl_out_i64(o, lt[1][i] - lt[0][i]);
		outsep(o);
		outratio(o, lt[0][i], lt[1][i]);
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
		outsep(o);
		if (best != NONE)
			tl_out_cstr(o, orow[best].name);
		outsep(o);
		if (best != NONE)
			tl_out_i64(o, bg);
		tl_out_char(o, '\n');
	}
}

static int
table(struct tl_out *o, const char *name)
{
	if (strcmp(name, "ops") == 0)
		wops(o);
	else if (strcmp(name, "layers") == 0)
		wlayers(o);
	else if (strcmp(name, "kernels") == 0)
		wkernels(o);
	else
		return 0;
	return 1;
}

int
td_cross(const char *path0, const char *path1, const struct td_xopt *opt)
{
	struct tl_out out;
	char *shipped;
	size_t i, k;
	int side, told[2], same;
	uint8_t want = PH_NONE, ph;

	if (opt->table != NULL && strcmp(opt->table, "ops") != 0 &&
	    strcmp(opt->table, "layers") != 0 &&
	    strcmp(opt->table, "kernels") != 0)
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
	in = tl_intern_new();
	if (opt->classes != NULL)
		loadrules(opt->classes, 1);
	shipped = tl_sharepath(CLASSFILE);
	loadrules(shipped, 1);
	free(shipped);
	opother = opindex("Other");
	opattn = opindex("Attention");
	load(&xs[0], path0);
	load(&xs[1], path1);
	for (side = 0; side < 2; side++) {
		struct xside *s = &xs[side];

		for (i = 0; i < s->nev; i++) {
			s->ev[i].op = classify(s->ev[i].name, &ph);
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
		for (i = 0; i < s->nev; i++)
			s->ev[i].pass = passof(s, s->ev[i].lts);
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
		td_mkdir(opt->odir);
		td_openfile(&out, opt->odir, "ops.tsv");
		wops(&out);
		td_closefile(&out);
		td_openfile(&out, opt->odir, "layers.tsv");
		wlayers(&out);
		td_closefile(&out);
		td_openfile(&out, opt->odir, "kernels.tsv");
		wkernels(&out);
		td_closefile(&out);
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
	free(opcache);
	free(phcache);
	freerules();
	tl_intern_free(in);
	return same ? 0 : 1;
}
