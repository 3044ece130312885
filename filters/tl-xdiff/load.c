/*
 * tl-xdiff: one side's events from a tree stream of tl-tree(1): the host
 * events (cpu_op, launches, python frames, nn.Module frames,
 * annotations) with their parents, the GPU events with their launch and
 * their innermost nn.Module frame, and the phase and pass annotations.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/intern.h"
#include "../../common/mem.h"
#include "../../common/sort.h"
#include "../../common/tsv.h"
#include "xdiff.h"

/* The stream being read: reachable when an error exits (LeakSanitizer). */
static struct tl_trace *volatile curtr;

/* The index of the host event of uid in u[0..n) (sorted by key), or NONE. */
static uint32_t
finduid(const struct tl_sortkey *u, size_t n, int64_t uid)
{
	size_t j = tl_key_find(u, n, (uint64_t)uid ^ UINT64_C(1) << 63);

	return j < n ? u[j].i : NONE;
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

/* The hlo_op of a GPU event of an XPlane profile (in its args), or
 * NONE. */
static uint32_t
hloop(struct tl_trace *tr)
{
	const char *a, *p, *q;
	size_t n;

	if ((a = tl_trace_str(tr, TL_C_ARGS, &n)) == NULL ||
	    (p = memmem(a, n, "\"hlo_op\":\"", 10)) == NULL)
		return NONE;
	p += 10;
	if ((q = memchr(p, '"', (size_t)(a + n - p))) == NULL || q == p)
		return NONE;
	return tl_intern(xd_in, p, (size_t)(q - p));
}

void
xd_load(struct xside *s, const char *path)
{
	struct tl_trace *tr;
	struct tl_sortkey *u;
	int64_t *hpar, *epar, *elaunch, v;
	size_t caph = 0, cape = 0, i, n;
	int r, k;
	const char *str;
	uint32_t p;
	struct host *h;
	struct ev *e;
	uint8_t ph;

	s->path = strcmp(path, "-") == 0 ? "<stdin>" : path;
	curtr = tr = tl_trace_open(1, (char *const *)&path, TL_S_TREE,
	    TL_COL(TL_C_TS) | TL_COL(TL_C_DUR), TL_COL(TL_C_LAUNCHER) |
	    TL_COL(TL_C_ARGS));
	if (!tl_trace_next(tr)) {
		if (tr->status == 0)
			tl_errx(2, "%s: empty input: no header", s->path);
		exit(2);
	}
	hpar = epar = elaunch = NULL;
	while ((r = tl_trace_row(tr)) != TL_ROW_END) {
		if (r != TL_ROW_EVENT)
			continue;
		if (TL_K_ISGPU(tr->kind)) {
			xgrow(&s->ev, &cape, s->nev + 1, sizeof *s->ev);
			epar = xreallocarray(epar, cape, sizeof *epar);
			elaunch = xreallocarray(elaunch, cape,
			    sizeof *elaunch);
			e = &s->ev[s->nev];
			memset(e, 0, sizeof *e);
			if (!tl_trace_i64(tr, TL_C_TS, &e->ts))
				tl_tsv_errx(tr->t, "GPU event without ts_ns");
			if (!tl_trace_i64(tr, TL_C_DUR, &e->dur) || e->dur < 0)
				e->dur = 0;
			if ((str = tl_trace_str(tr, TL_C_NAME, &n)) == NULL)
				str = "";
			e->name = tl_intern(xd_in, str, n);
			e->hlo = hloop(tr);
			epar[s->nev] = tl_trace_i64(tr, TL_C_PARENT, &v) ? v :
			    INT64_MIN;
			elaunch[s->nev] = tl_trace_i64(tr, TL_C_LAUNCHER, &v) ?
			    v : INT64_MIN;
			s->nev++;
			continue;
		}
		k = tr->kind;
		if (!TL_K_ISHOST(k) && k != TL_K_GPU_ANNOT)
			continue;
		if (k != TL_K_ANNOT && k != TL_K_GPU_ANNOT &&
		    tr->t->fl[tr->col[TL_C_DEPTH]] == 0)
			continue;		/* not in the tree */
		xgrow(&s->h, &caph, s->nh + 1, sizeof *s->h);
		hpar = xreallocarray(hpar, caph, sizeof *hpar);
		h = &s->h[s->nh];
		memset(h, 0, sizeof *h);
		h->uid = tl_trace_uid(tr);
		if (!tl_trace_i64(tr, TL_C_TS, &h->ts))
			continue;
		if (!tl_trace_i64(tr, TL_C_DUR, &h->dur) || h->dur < 0)
			h->dur = 0;
		if ((str = tl_trace_str(tr, TL_C_NAME, &n)) == NULL)
			str = "";
		h->name = tl_intern(xd_in, str, n);
		if (k == TL_K_PYTHON && n > NMODPFX && memcmp(str, MODPFX,
		    NMODPFX) == 0)
			k = H_MODULE;
		h->kind = (uint8_t)k;
		h->mod = UNSET;
		hpar[s->nh] = tl_trace_i64(tr, TL_C_PARENT, &v) ? v :
		    INT64_MIN;
		if (k == TL_K_ANNOT || k == TL_K_GPU_ANNOT) {
			str = tl_intern_str(xd_in, h->name, &n);
			if ((ph = annphase(str)) != PH_NONE)
				addann(&s->ph[k == TL_K_GPU_ANNOT],
				    &s->nph[k == TL_K_GPU_ANNOT], h->ts,
				    h->dur, ph);
			if (k == TL_K_ANNOT && (strncmp(str, "ProfilerStep#",
			    13) == 0 || strncmp(str, "execute_context", 15) ==
			    0))
				addann(&s->pass, &s->npass, h->ts, h->dur, 0);
		}
		s->nh++;
	}
	if (tr->more)
		tl_tsv_errx(tr->t, "a second trace: tl-xdiff compares one "
		    "trace with one");
	if (tl_trace_next(tr))
		tl_errx(2, "%s: more than one stream: tl-xdiff compares one "
		    "trace with one", s->path);
	if (tr->status != 0)
		exit(2);
	tl_trace_close(tr);
	curtr = NULL;
	if (s->nev == 0)
		tl_errx(2, "%s: no GPU kernels (no kernel, gpu_memcpy or "
		    "gpu_memset event): nothing to compare", s->path);

	/* parents and launchers, by uid */
	u = xcalloc(s->nh + 1, sizeof *u);
	for (i = 0; i < s->nh; i++) {
		u[i].k = (uint64_t)s->h[i].uid ^ UINT64_C(1) << 63;
		u[i].i = (uint32_t)i;
	}
	tl_key_sort(u, s->nh);
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
		    elaunch[i])) != (int)NONE && s->h[r].kind == TL_K_CPU_OP)
			e->cpu = s->h[r].name;
		else
			for (; p != NONE; p = s->h[p].parent)
				if (s->h[p].kind == TL_K_CPU_OP) {
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

