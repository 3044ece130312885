/*
 * tl-graph: the capture folder: execution_details.json and the capture
 * traces, loaded once each.
 */
#include "merge.h"

/* ---- the capture folder ---- */

void
readdetails(void)
{
	FILE *fp;
	struct tl_jdoc d = { 0 };
	size_t n;
	int i, k;
	char *text;

	fp = fopen(details, "r");
	if (fp == NULL)
		tl_errx(1, "%s: no execution details (a JSON list of "
		    "{\"file\", \"batch_size\", \"mode\"}): write it, or "
		    "name it with -e", details);
	text = NULL;
	n = 0;
	for (;;) {
		size_t got;

		text = xrealloc(text, n + 65536);
		got = fread(text + n, 1, 65536, fp);
		n += got;
		if (got < 65536)
			break;
		if (n > ((size_t)64 << 20))
			tl_errx(1, "%s: larger than 64 MiB", details);
	}
	if (ferror(fp))
		tl_err(1, "%s", details);
	fclose(fp);
	if (tl_json_parse(&d, text, n) != 0 || d.ntok < 1 ||
	    d.tok[0].type != JSMN_ARRAY)
		tl_errx(1, "%s:0: not a JSON list", details);
	for (i = 1, k = 0; k < d.tok[0].size && i < d.ntok; k++) {
		int j = i + 1, end = tl_jskip(&d, i), kk;
		char *file = NULL, *mode = NULL;
		long long bs = -1;
		int bsok = 0;

		if (d.tok[i].type != JSMN_OBJECT) {
			tl_warns(&warns, "%s:%d: entry %d: not an object: "
			    "skipped", details, d.tok[i].start, k);
			i = end;
			continue;
		}
		for (kk = 0; kk < d.tok[i].size && j + 1 < end; kk++) {
			jsmntok_t *v = &d.tok[j + 1];
			size_t vl = (size_t)(v->end - v->start);
			unsigned bad = 0;

			if (tl_jeq(&d, j, "file") && v->type == JSMN_STRING) {
				free(file);
				file = xmalloc(vl + 1);
				file[tl_junescape(file, text + v->start, vl,
				    &bad)] = '\0';
			} else if (tl_jeq(&d, j, "mode") &&
			    v->type == JSMN_STRING) {
				free(mode);
				mode = xmemdup(text + v->start, vl);
			} else if (tl_jeq(&d, j, "batch_size") &&
			    v->type == JSMN_PRIMITIVE) {
				int64_t x;

				bsok = tl_parse_i64(text + v->start, vl, &x) == 0;
				bs = x;
			}
			j = tl_jskip(&d, j + 1);
		}
		if (mode == NULL || (strcmp(mode, "FULL") != 0 &&
		    strcmp(mode, "PIECEWISE") != 0) || !bsok) {
			tl_warns(&warns, "%s:%d: entry %d: %s: skipped",
			    details, d.tok[i].start, k, !bsok ?
			    "batch_size is not an integer" :
			    "mode is neither FULL nor PIECEWISE");
		} else {
			ent = xreallocarray(ent, nent + 1, sizeof *ent);
			ent[nent].bs = bs;
			ent[nent].piecewise = mode[0] == 'P';
			ent[nent].path = NULL;
			if (file != NULL) {
				char *path = xmalloc(strlen(folder) +
				    strlen(file) + 2);

				sprintf(path, "%s/%s", folder, file);
				if (access(path, R_OK) == 0)
					ent[nent].path = path;
				else {
					tl_warns(&warns, "%s: entry %d: %s: "
					    "no such file: skipped", details,
					    k, path);
					free(path);
				}
			}
			nent++;
		}
		free(file);
		free(mode);
		i = end;
	}
	tl_json_free(&d);
	free(text);
}

static const struct capture *bywin;

/* Windows by start, then by index. */
static int
winstart(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int64_t tx = bywin->rts[x], ty = bywin->rts[y];

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * Capture roots: the windows between StreamBeginCapture and
 * StreamEndCapture, and the host events that start each. One pass over
 * the events, each looking up the windows it can be in (by a binary
 * search of the windows by start), not one pass per window.
 */
static void
caproots(struct capture *c)
{
	struct tree *t = &c->t;
	uint32_t *b = NULL, *e = NULL, *w;
	int64_t *wend;
	size_t nb = 0, ne = 0, i, k, lo, hi, m;

	for (i = 0; i < t->n; i++) {
		if (t->ev[i].kind != TL_K_RUNTIME)
			continue;
		if (has(t->ev[i].name, "StreamBeginCapture")) {
			b = xreallocarray(b, nb + 1, sizeof *b);
			b[nb++] = (uint32_t)i;
		} else if (has(t->ev[i].name, "StreamEndCapture")) {
			e = xreallocarray(e, ne + 1, sizeof *e);
			e[ne++] = (uint32_t)i;
		}
	}
	c->nroot = nb < ne ? nb : ne;
	c->rts = xcalloc(c->nroot + 1, sizeof *c->rts);
	c->rte = xcalloc(c->nroot + 1, sizeof *c->rte);
	c->rev = xcalloc(c->nroot + 1, sizeof *c->rev);
	c->nrev = xcalloc(c->nroot + 1, sizeof *c->nrev);
	w = xmalloc((c->nroot + 1) * sizeof *w);
	wend = xmalloc((c->nroot + 1) * sizeof *wend);
	for (k = 0; k < c->nroot; k++) {
		c->rts[k] = t->ev[b[k]].ts + t->ev[b[k]].dur;
		c->rte[k] = t->ev[e[k]].ts;
		w[k] = (uint32_t)k;
	}
	bywin = c;
	qsort(w, c->nroot, sizeof *w, winstart);
	/* wend[j]: the latest end of the windows w[0..j] */
	for (k = 0; k < c->nroot; k++)
		wend[k] = k > 0 && wend[k - 1] > c->rte[w[k]] ? wend[k - 1] :
		    c->rte[w[k]];
	for (i = 0; i < t->n; i++) {
		struct ev *x = &t->ev[i], *p;

		if (x->kind != TL_K_CPU_OP && x->kind != TL_K_PYTHON)
			continue;
		if (x->depth < 0 || x->parent == NONE)
			continue;
		/* the windows that start by x's start: w[0..lo) */
		for (lo = 0, hi = c->nroot; lo < hi;) {
			m = lo + (hi - lo) / 2;
			if (c->rts[w[m]] <= x->ts)
				lo = m + 1;
			else
				hi = m;
		}
		p = &t->ev[x->parent];
		while (lo-- > 0 && wend[lo] >= x->ts + x->dur) {
			int64_t ts = c->rts[w[lo]], te = c->rte[w[lo]];

			k = w[lo];
			if (x->ts + x->dur > te)
				continue;
			if (p->ts >= ts && p->ts + p->dur <= te)
				continue;
			c->rev[k] = xreallocarray(c->rev[k], c->nrev[k] + 1,
			    sizeof **c->rev);
			c->rev[k][c->nrev[k]++] = (uint32_t)i;
		}
	}
	free(w);
	free(wend);
	free(b);
	free(e);
}

/* The capture trace at path, read through tl-parse | tl-tree -P (-F
 * with -F) unless it is a tree stream already (a name ending in .tsv). */
struct capture *
loadcap(const char *path)
{
	struct capture *c;
	struct tl_trace *tr;
	FILE *fp = NULL;
	char *op, *cmd;
	size_t i, n;
	int tsv;

	for (i = 0; i < ncap; i++)
		if (strcmp(cap[i].path, path) == 0)
			return &cap[i];
	cap = xreallocarray(cap, ncap + 1, sizeof *cap);
	c = &cap[ncap++];
	memset(c, 0, sizeof *c);
	c->path = xstrdup(path);
	n = strlen(path);
	tsv = n > 4 && strcmp(path + n - 4, ".tsv") == 0;
	if (!tsv && graph_nopipe)
		tl_errx(1, "%s: not a tree stream (.tsv)", path);
	if (tsv)
		op = xstrdup(path);
	else {
		cmd = xmalloc(4 * n + 64);
		strcpy(cmd, "tl-parse -- '");
		for (i = 0; i < n; i++)
			if (path[i] == '\'')
				strcat(cmd, "'\\''");
			else
				strncat(cmd, path + i, 1);
		strcat(cmd, Fflag ? "' | tl-tree -F -P" : "' | tl-tree -P");
		fflush(stdout);
		fp = popen(cmd, "r");
		if (fp == NULL)
			tl_err(1, "%s", cmd);
		free(cmd);
		op = xmalloc(32);
		snprintf(op, 32, "/dev/fd/%d", fileno(fp));
	}
	tr = tl_trace_open(1, &op, TL_S_TREE, 0, TL_COL(TL_C_TS) |
	    TL_COL(TL_C_DUR) | TL_COL(TL_C_ARGS) | TL_COL(TL_C_STREAM) |
	    TL_COL(TL_C_MODULE) | TL_COL(TL_C_LAUNCHER) | TL_COL(TL_C_ROOT));
	c->t.name = xstrdup(path);
	tload(&c->t, tr, NULL, 1);
	if (tr->status != 0)
		tl_errx(1, "%s: cannot read the capture trace", path);
	tl_trace_close(tr);
	if (fp != NULL && pclose(fp) != 0)
		tl_errx(1, "%s: tl-parse | tl-tree%s -P failed", path,
		    Fflag ? " -F" : "");
	free(op);
	tkids(&c->t);
	caproots(c);
	return c;
}

