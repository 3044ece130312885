/*
 * tl-hta: HTA's overlaid critical-path trace
 * (overlay_critical_path_analysis, spec 13.5), written as a stream: the
 * rank's raw trace read again an event at a time, each event of a node
 * on the path given args.critical = 1, and a flow pair appended for each
 * dependency, launch-delay and sync edge of the path, for Perfetto. Two
 * files: every event, and (HTA's default) only the critical ones, the
 * events that are not complete events, and user annotations and Python
 * functions.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/input.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "hta.h"

/* What the flows need of an event, read from the raw trace. */
struct rawev {
	int64_t index;
	double ts, dur;
	int64_t device;		/* args.device, -1 */
	char pid[32], tid[32];	/* as JSON text */
	int seen;
};

static struct rawev *rv;
static size_t nrv;

static int
cmpi64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int
cmprv(const void *a, const void *b)
{
	const struct rawev *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static struct rawev *
findrv(int64_t index)
{
	struct rawev k;

	k.index = index;
	return bsearch(&k, rv, nrv, sizeof *rv, cmprv);
}

struct gz {
	gzFile f;
	char *path, *tmp;
	int nev;		/* events written */
};

static void
gzput(struct gz *g, const char *s, size_t n)
{
	if (n > 0 && gzwrite(g->f, s, (unsigned)n) != (int)n)
		tl_errx(1, "%s: write error", g->tmp);
}

static void
gzs(struct gz *g, const char *s)
{
	gzput(g, s, strlen(s));
}

static int
gzopen2(struct gz *g, const char *name)
{
	g->path = tl_path(hta_o.outdir, name);
	g->tmp = xmalloc(strlen(g->path) + 8);
	sprintf(g->tmp, "%s.tmp", g->path);
	g->f = gzopen(g->tmp, "wb1");	/* fast: a trace for a viewer */
	g->nev = 0;
	if (g->f == NULL) {
		tl_warnx("%s: cannot write", g->tmp);
		return -1;
	}
	return 0;
}

static void
gzclose2(struct gz *g, int keep)
{
	if (gzclose(g->f) != Z_OK)
		tl_errx(1, "%s: write error", g->tmp);
	if (keep && rename(g->tmp, g->path) != 0)
		tl_err(1, "%s", g->path);
	if (!keep)
		remove(g->tmp);
	free(g->path);
	free(g->tmp);
}

/* The token after key k of object token o (its value), or -1. */
static int
member(const struct tl_jdoc *d, int o, const char *key)
{
	int i = o + 1, n;

	for (n = 0; n < d->tok[o].size && i < d->ntok; n++) {
		if (tl_jeq(d, i, key))
			return i + 1;
		i = tl_jskip(d, i + 1);
	}
	return -1;
}

static double
tokd(const struct tl_jdoc *d, int t)
{
	char buf[64];
	size_t n;

	if (t < 0 || d->tok[t].type != JSMN_PRIMITIVE)
		return NAN;
	n = (size_t)(d->tok[t].end - d->tok[t].start);
	if (n >= sizeof buf)
		return NAN;
	memcpy(buf, d->js + d->tok[t].start, n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

static int
tokis(const struct tl_jdoc *d, int t, const char *s)
{
	return t >= 0 && tl_jeq(d, t, s);
}

static void
toktext(const struct tl_jdoc *d, int t, char *buf, size_t cap)
{
	size_t n;
	int s, e;

	buf[0] = '\0';
	if (t < 0)
		return;
	s = d->tok[t].start - (d->tok[t].type == JSMN_STRING);
	e = d->tok[t].end + (d->tok[t].type == JSMN_STRING);
	n = (size_t)(e - s);
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, d->js + s, n);
	buf[n] = '\0';
}

/* The flow pairs, in the order of the path's edges. */
static void
flows(struct gz *g, const struct cpflow *fl, size_t nfl)
{
	size_t i;
	int k;
	char buf[512];

	for (i = 0; i < nfl; i++)
		for (k = 0; k < 2; k++) {
			const struct rawev *e = findrv(k ? fl[i].dst : fl[i].src);
			int start = k ? fl[i].dstart : fl[i].sstart;
			double ts;

			if (e == NULL || !e->seen)
				continue;
			ts = start ? e->ts : e->ts + e->dur -
			    (e->device >= 0 ? (e->dur < 1 ? e->dur : 1) : 0);
			snprintf(buf, sizeof buf, "%s\n{\"ph\": \"%s\", \"id\": "
			    "%zu, \"pid\": %s, \"tid\": %s, \"ts\": %" PRId64
			    ", \"cat\": \"critical_path\", \"name\": "
			    "\"critical_path\", \"args\": {\"weight\": %" PRId64
			    ", \"critical\": true, \"type\": \"%s\"}%s}",
			    g->nev++ > 0 ? "," : "", k ? "f" : "s", i, e->pid,
			    e->tid, (int64_t)ts, (int64_t)fl[i].w, fl[i].type,
			    k ? ", \"bp\": \"e\"" : "");
			gzs(g, buf);
		}
}

void
hta_overlay(const struct rank *rank, int j, const int64_t *crit,
    size_t ncrit, const struct cpflow *fl, size_t nfl)
{
	struct tl_src *src = tl_src_open(rank->file);
	struct tl_jscan *sc;
	struct tl_jitem it;
	struct gz g[2];
	char name[96];
	size_t i, k;
	int r, inev = 0, nkeys = 0, ok = 1;
	int64_t *need = xreallocarray(NULL, 2 * nfl + 1, sizeof *need);

	if (src == NULL || tl_src_next(src) != 1) {
		tl_warnx("%s: the overlaid trace is not written", rank->file);
		free(need);
		return;
	}
	for (i = 0; i < nfl; i++) {
		need[2 * i] = fl[i].src;
		need[2 * i + 1] = fl[i].dst;
	}
	qsort(need, 2 * nfl, sizeof *need, cmpi64);
	rv = xcalloc(2 * nfl + 1, sizeof *rv);
	for (i = 0, nrv = 0; i < 2 * nfl; i++)
		if (nrv == 0 || rv[nrv - 1].index != need[i])
			rv[nrv++].index = need[i];
	free(need);
	for (k = 0; k < 2; k++) {
		snprintf(name, sizeof name, "critical_path%d_overlaid_only_"
		    "critical_%s.json.gz", j, k ? "False" : "True");
		if (gzopen2(&g[k], name) != 0)
			tl_exit(1);
	}
	for (k = 0; k < 2; k++)
		gzs(&g[k], "{");
	sc = tl_jscan_new(src);
	while ((r = tl_jscan_next(sc, &it)) == 1) {
		if (it.kind == TL_JKEY) {
			for (k = 0; k < 2; k++) {
				if (inev > 0) {
					flows(&g[k], fl, nfl);
					gzs(&g[k], "\n]");
				}
				gzs(&g[k], nkeys > 0 ? ",\n\"" : "\n\"");
				gzput(&g[k], it.key, it.keylen);
				gzs(&g[k], "\": ");
				gzput(&g[k], it.text, it.len);
			}
			inev = inev ? -1 : 0;
			nkeys++;
			continue;
		}
		if (it.kind != TL_JEVENT || inev < 0)
			continue;
		if (!inev) {
			for (k = 0; k < 2; k++)
				gzs(&g[k], nkeys > 0 ? ",\n\"traceEvents\": [" :
				    "\n\"traceEvents\": [");
			inev = 1;
			nkeys++;
		}
		{
			struct tl_jdoc d = { it.text, it.len, it.tok, it.ntok,
			    0 };
			int64_t ix = (int64_t)it.index;
			int c = bsearch(&ix, crit, ncrit, sizeof *crit,
			    cmpi64) != NULL;
			int args = it.ntok > 0 ? member(&d, 0, "args") : -1;
			int ph = member(&d, 0, "ph");
			int cat = member(&d, 0, "cat");
			struct rawev *e = findrv(ix);

			if (e != NULL) {
				e->seen = 1;
				e->ts = tokd(&d, member(&d, 0, "ts"));
				e->dur = tokd(&d, member(&d, 0, "dur"));
				e->device = -1;
				if (args >= 0 && !isnan(tokd(&d, member(&d,
				    args, "device"))))
					e->device = (int64_t)tokd(&d,
					    member(&d, args, "device"));
				toktext(&d, member(&d, 0, "pid"), e->pid,
				    sizeof e->pid);
				toktext(&d, member(&d, 0, "tid"), e->tid,
				    sizeof e->tid);
			}
			if (c && (args < 0 || it.tok[args].type !=
			    JSMN_OBJECT)) {
				tl_warnx("%s: event %" PRId64 " on the critical "
				    "path has no args (HTA fails): the "
				    "overlaid trace is not written",
				    rank->file, ix);
				ok = 0;
				break;
			}
			for (k = 0; k < 2; k++) {
				if (k == 0 && !c && tokis(&d, ph, "X") &&
				    !tokis(&d, cat, "user_annotation") &&
				    !tokis(&d, cat, "python_function"))
					continue;
				gzs(&g[k], g[k].nev++ > 0 ? ",\n" : "\n");
				if (!c) {
					gzput(&g[k], it.text, it.len);
					continue;
				}
				/* args.critical = 1: last in args */
				gzput(&g[k], it.text,
				    (size_t)it.tok[args].end - 1);
				gzs(&g[k], it.tok[args].size > 0 ?
				    ",\"critical\":1" : "\"critical\":1");
				gzput(&g[k], it.text + it.tok[args].end - 1,
				    it.len - (size_t)it.tok[args].end + 1);
			}
		}
	}
	if (r < 0)
		ok = 0;
	for (k = 0; k < 2; k++) {
		if (inev > 0) {
			flows(&g[k], fl, nfl);
			gzs(&g[k], "\n]");
		}
		gzs(&g[k], "\n}\n");
		gzclose2(&g[k], ok);
	}
	tl_jscan_free(sc);
	tl_src_close(src);
	free(rv);
	rv = NULL;
	nrv = 0;
}
