/*
 * tl-xdiff: one side's events from a tree stream of tl-tree(1): the host
 * events (cpu_op, launches, python frames, nn.Module frames,
 * annotations) with their parents, the GPU events with their launch and
 * their innermost nn.Module frame, and the phase and pass annotations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/intern.h"
#include "../../common/mem.h"
#include "../../common/tsv.h"
#include "xdiff.h"

/* The stream being read: reachable when an error exits (LeakSanitizer). */
static struct tl_tsv *volatile curt;
static struct tl_src *volatile cursrc;

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

/* The annotation xd_around t: the latest to start that has not ended. */
const struct ann *
xd_around(const struct ann *v, size_t n, int64_t t)
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

void
xd_load(struct xside *s, const char *path)
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
				tl_tsv_errx(t, "a second trace: tl-xdiff "
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
			e->name = tl_intern(xd_in, str, n);
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
		h->name = tl_intern(xd_in, str, n);
		if (k == H_PYTHON && n > NMODPFX && memcmp(str, MODPFX,
		    NMODPFX) == 0)
			k = H_MODULE;
		h->kind = (uint8_t)k;
		h->mod = UNSET;
		hpar[s->nh] = tl_tsv_i64(t, cpar, &v) ? v : INT64_MIN;
		if (k == H_ANNOT || k == H_GPUANNOT) {
			str = tl_intern_str(xd_in, h->name, &n);
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
			tl_errx(2, "%s: more than one stream: tl-xdiff compares "
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

