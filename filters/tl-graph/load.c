/*
 * tl-graph: read a tree stream (tl-tree(1)) into compact records: the
 * fields the merge looks at, the uid index, the children of each event;
 * the rows themselves go to a spool (the replay trace) or stay in memory
 * (a capture trace, small by nature: one capture per batch size).
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/tsv.h"
#include "graph.h"

static void
hput(struct tree *t, int64_t uid, uint32_t i)
{
	size_t h;

	/* a table up to 4 entries per event (and 64 Ki more) */
	if (uid >= 0 && (uint64_t)uid < 4 * (uint64_t)t->n + 65536) {
		size_t u = (size_t)uid;

		if (u >= t->ndense) {
			xgrow(&t->dense, &t->capdense, u + 1,
			    sizeof *t->dense);
			for (h = t->ndense; h <= u; h++)
				t->dense[h] = NONE;
			t->ndense = u + 1;
		}
		t->dense[u] = i;
		return;
	}
	if (2 * (t->n + 1) > t->hcap) {
		int64_t *ok = t->hk;
		uint32_t *ov = t->hv;
		size_t oc = t->hcap, j;

		t->hcap = oc ? 2 * oc : 1024;
		t->hk = xmalloc(t->hcap * sizeof *t->hk);
		t->hv = xmalloc(t->hcap * sizeof *t->hv);
		for (j = 0; j < t->hcap; j++)
			t->hv[j] = NONE;
		for (j = 0; j < oc; j++)
			if (ov[j] != NONE)
				hput(t, ok[j], ov[j]);
		free(ok);
		free(ov);
	}
	h = tl_hash64((uint64_t)uid) & (t->hcap - 1);
	while (t->hv[h] != NONE)
		h = (h + 1) & (t->hcap - 1);
	t->hk[h] = uid;
	t->hv[h] = i;
}

uint32_t
tfind(const struct tree *t, int64_t uid)
{
	size_t h;

	if (uid >= 0 && (uint64_t)uid < t->ndense && t->dense[uid] != NONE)
		return t->dense[uid];
	if (t->hcap == 0)
		return NONE;
	h = tl_hash64((uint64_t)uid) & (t->hcap - 1);
	for (; t->hv[h] != NONE; h = (h + 1) & (t->hcap - 1))
		if (t->hk[h] == uid)
			return t->hv[h];
	return NONE;
}

/* Whether name holds sub (case-sensitive; hasi: ASCII case ignored). */
int
has(uint32_t name, const char *sub)
{
	size_t n, k = strlen(sub), i;
	const char *s = tl_intern_str(in, name, &n);

	for (i = 0; i + k <= n; i++)
		if (memcmp(s + i, sub, k) == 0)
			return 1;
	return 0;
}

/* Whether s[0..n) holds sub (lower case), ASCII case ignored. */
static int
rawhasi(const char *s, size_t n, const char *sub)
{
	size_t k = strlen(sub), i, j;

	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k; j++) {
			char c = s[i + j];

			if (c >= 'A' && c <= 'Z')
				c += 'a' - 'A';
			if (c != sub[j])
				break;
		}
		if (j == k)
			return 1;
	}
	return 0;
}

int
hasi(uint32_t name, const char *sub)
{
	size_t n;
	const char *s = tl_intern_str(in, name, &n);

	return rawhasi(s, n, sub);
}

/* args.kernel of a launch, from the args column's JSON text. */
static uint32_t
argkernel(const char *js, size_t n)
{
	static struct tl_jdoc d;
	static char *buf;
	static size_t bcap;
	unsigned bad = 0;
	int i, k, nk;

	if (js == NULL || tl_json_parse(&d, js, n) != 0 || d.ntok < 1 ||
	    d.tok[0].type != JSMN_OBJECT)
		return NONE;
	nk = d.tok[0].size;
	for (i = 1, k = 0; k < nk && i + 1 < d.ntok; k++) {
		if (tl_jeq(&d, i, "kernel") && d.tok[i + 1].type ==
		    JSMN_STRING) {
			jsmntok_t *v = &d.tok[i + 1];
			size_t len = (size_t)(v->end - v->start);

			xgrow(&buf, &bcap, len + 1, 1);
			len = tl_junescape(buf, js + v->start, len, &bad);
			return tl_intern(in, buf, len);
		}
		i = tl_jskip(&d, i + 1);
	}
	return NONE;
}

/*
 * The row's fields as the stream has them, joined by TABs: the line
 * itself while no field of it is unescaped in place (a line without a
 * backslash never is), else a copy.
 */
static char *
rawrow(const struct tl_tsv *t, size_t *len)
{
	static char *buf;
	static size_t bcap;
	size_t i, n = 0;

	if (!t->esc) {
		*len = (size_t)(t->f[t->ncol - 1] + t->fl[t->ncol - 1] -
		    t->f[0]);
		return t->f[0];
	}
	for (i = 0; i < t->ncol; i++)
		n += t->fl[i] + 1;
	xgrow(&buf, &bcap, n + 1, 1);
	n = 0;
	for (i = 0; i < t->ncol; i++) {
		if (i > 0)
			buf[n++] = '\t';
		memcpy(buf + n, t->f[i], t->fl[i]);
		n += t->fl[i];
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

void (*rowhook)(char *, size_t, const struct ev *);
int tload_sparse;
int64_t tload_puid;
int tload_hasparent;

/*
 * tl-tree -c's facts: the number of events of a name in the trace, as
 * tl-tree counted them. A fact row is taken and not passed on: the
 * merge and the pseudo ops change the tree it counted.
 */
static struct tcount {
	uint32_t name;
	int64_t n;
} *tcount;
static size_t ntcount;

static int
countfact(struct tl_trace *tr)
{
	const char *v;
	size_t n;
	int64_t x;

	v = tl_trace_raw(tr, TL_C_CAT, &n);
	if (v == NULL || n != 10 || memcmp(v, "tree_count", 10) != 0)
		return 0;
	if (!tl_trace_i64(tr, TL_C_ARGS, &x) || x < 0)
		tl_errx_at(tr->t->name, tr->t->lineno, "tree_count: args is "
		    "not a count");
	v = tl_trace_str(tr, TL_C_NAME, &n);
	tcount = xreallocarray(tcount, ntcount + 1, sizeof *tcount);
	tcount[ntcount].name = tl_intern(in, v != NULL ? v : "", n);
	tcount[ntcount++].n = x;
	return 1;
}

int64_t
tload_count(const char *name)
{
	uint32_t id = tl_intern(in, name, strlen(name));
	size_t i;

	for (i = 0; i < ntcount; i++)
		if (tcount[i].name == id)
			return tcount[i].n;
	return -1;
}

void
tload_free(void)
{
	free(tcount);
	tcount = NULL;
	ntcount = 0;
}

static uint32_t
resolve(struct tree *t, int64_t uid, int set)
{
	return set ? tfind(t, uid) : NONE;
}

/*
 * Read the one trace of tr into t: every event row a record; with
 * keeprows the rows kept, else every row (facts too) written to spool.
 */
void
tload(struct tree *t, struct tl_trace *tr, FILE *spool, int keeprows)
{
	struct tl_tsv *s;
	int64_t *pu = NULL, *lu = NULL, *ru = NULL, *fu = NULL;
	uint8_t *set = NULL;
	size_t i, capu = 0;
	int r;
	struct tl_intern_last lastpid = TL_INTERN_LAST, lasttid = TL_INTERN_LAST;

	if (!tl_trace_next(tr))
		tl_errx(1, "%s: no trace", t->name);
	free(t->name);
	t->name = xstrdup(tr->name);
	s = tr->t;
	t->ncol = s->ncol;
	t->col = xcalloc(s->ncol + 1, sizeof *t->col);	/* NULL-ended */
	for (i = 0; i < s->ncol; i++)
		t->col[i] = xstrdup(s->col[i]);
	while ((r = tl_trace_row(tr)) != TL_ROW_END) {
		struct ev *e;
		const char *v;
		size_t n, rl;
		char *row;
		int64_t x;

		s = tr->t;
		if (r != TL_ROW_EVENT && countfact(tr))
			continue;	/* read, not passed on */
		row = rawrow(s, &rl);
		if (spool != NULL && fwrite(row, 1, rl, spool) != rl)
			tl_err(1, "spool");
		if (spool != NULL && putc('\n', spool) == EOF)
			tl_err(1, "spool");
		if (r != TL_ROW_EVENT) {
			if (rowhook != NULL)
				rowhook(row, rl, NULL);
			continue;
		}
		if (tload_sparse && !TL_K_ISGPU(tr->kind)) {
			/* only GPU events and graph launches kept; SGLang
			 * profiler names seen */
			v = tl_trace_raw(tr, TL_C_NAME, &n);
			if (v == NULL || !rawhasi(v, n, "graphlaunch")) {
				struct ev tmp;

				if (v != NULL && n >= 17 &&
				    memcmp(v, "sglang_profiler::", 17) == 0) {
					memset(&tmp, 0, sizeof tmp);
					tmp.kind = (uint8_t)tr->kind;
					tmp.name = tl_intern(in, v, n);
					rowhook(row, rl, &tmp);
				} else
					rowhook(row, rl, NULL);
				continue;
			}
		}
		xgrow(&t->ev, &t->cap, t->n + 1, sizeof *t->ev);
		if (capu != t->cap) {
			capu = t->cap;
			pu = xreallocarray(pu, capu, sizeof *pu);
			lu = xreallocarray(lu, capu, sizeof *lu);
			ru = xreallocarray(ru, capu, sizeof *ru);
			fu = xreallocarray(fu, capu, sizeof *fu);
			set = xreallocarray(set, capu, 1);
			if (keeprows)
				t->rowat = xreallocarray(t->rowat, capu,
				    sizeof *t->rowat);
		}
		if (keeprows) {
			xgrow(&t->rows, &t->caprows, t->nrows + rl + 1, 1);
			memcpy(t->rows + t->nrows, row, rl);
			t->rows[t->nrows + rl] = '\0';
			t->rowat[t->n] = t->nrows;
			t->nrows += rl + 1;
		}
		e = &t->ev[t->n];
		memset(e, 0, sizeof *e);
		e->uid = tl_trace_uid(tr);
		if (tfind(t, e->uid) != NONE)
			tl_errx_at(s->name, s->lineno, "duplicate uid %lld",
			    (long long)e->uid);
		hput(t, e->uid, (uint32_t)t->n);
		e->kind = (uint8_t)tr->kind;
		e->depth = -1;
		e->kernel = e->stream = e->module = NONE;
		if (tl_trace_i64(tr, TL_C_TS, &x))
			e->ts = x;
		if (tl_trace_i64(tr, TL_C_DUR, &x) && x > 0)
			e->dur = x;
		set[t->n] = 0;
		if (tl_trace_i64(tr, TL_C_PARENT, &pu[t->n]))
			set[t->n] |= 1;
		if (tl_trace_i64(tr, TL_C_LAUNCHER, &lu[t->n]))
			set[t->n] |= 2;
		if (tl_trace_i64(tr, TL_C_ROOT, &ru[t->n]))
			set[t->n] |= 4;
		if (tl_trace_i64(tr, TL_C_FWD, &fu[t->n]))
			set[t->n] |= 8;
		if (tl_trace_i64(tr, TL_C_DEPTH, &x))
			e->depth = (int32_t)x;
		v = tl_trace_raw(tr, TL_C_STREAM, &n);
		if (v != NULL)
			e->stream = tl_intern(in, v, n);
		v = tl_trace_raw(tr, TL_C_MODULE, &n);
		if (v != NULL)
			e->module = tl_intern(in, v, n);
		v = tl_trace_raw(tr, TL_C_PID, &n);
		e->pid = tl_intern_last(in, &lastpid, v != NULL ? v : "", n);
		v = tl_trace_raw(tr, TL_C_TID, &n);
		e->tid = tl_intern_last(in, &lasttid, v != NULL ? v : "", n);
		v = tl_trace_str(tr, TL_C_NAME, &n);
		e->name = tl_intern(in, v != NULL ? v : "", v != NULL ? n : 0);
		if (e->kind == TL_K_PYTHON && n >= 10 &&
		    memcmp(v, "nn.Module:", 10) == 0)
			e->flags |= F_MODULE;
		if (keeprows && TL_K_ISLAUNCH(e->kind)) {
			v = tl_trace_str(tr, TL_C_ARGS, &n);
			e->kernel = argkernel(v, n);
		}
		if (rowhook != NULL) {
			tload_hasparent = set[t->n] & 1;
			tload_puid = pu[t->n];
			rowhook(row, rl, e);
		}
		t->n++;
	}
	if (tr->more || tl_trace_next(tr))
		tl_errx(1, "%s: more than one trace: tl-graph merges one "
		    "replay trace at a time", t->name);
	for (i = 0; i < t->n; i++) {
		struct ev *e = &t->ev[i];

		e->parent = resolve(t, pu[i], set[i] & 1);
		e->launcher = resolve(t, lu[i], set[i] & 2);
		e->root = resolve(t, ru[i], set[i] & 4);
		e->fwd = resolve(t, fu[i], set[i] & 8);
	}
	if (t->n > 0)	/* the walks down the tree must end */
		tl_tree_acyclic(t->name, t->n, &t->ev[0].parent,
		    &t->ev[0].uid, sizeof *t->ev);
	free(pu);
	free(lu);
	free(ru);
	free(fu);
	free(set);
}

static const struct tree *cmptree;

static int
kidcmp(const void *a, const void *b)
{
	const struct ev *x = &cmptree->ev[*(const uint32_t *)a];
	const struct ev *y = &cmptree->ev[*(const uint32_t *)b];

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

/*
 * The children of each event, ordered by (ts, uid): placed by parent,
 * in event order, which is mostly that order already; the siblings that
 * are not, sorted.
 */
void
tkids(struct tree *t)
{
	size_t i, j, at, end;
	uint32_t *all, *fill;

	if (t->kid0 != NULL)
		return;		/* made already */
	t->kid0 = xcalloc(t->n + 1, sizeof *t->kid0);
	for (i = 0; i < t->n; i++)
		if (t->ev[i].parent != NONE)
			t->kid0[t->ev[i].parent + 1]++;
	for (i = 0; i < t->n; i++)
		t->kid0[i + 1] += t->kid0[i];
	all = xmalloc((t->n + 1) * sizeof *all);
	fill = xmalloc((t->n + 1) * sizeof *fill);
	memcpy(fill, t->kid0, t->n * sizeof *fill);
	for (i = 0; i < t->n; i++)
		if (t->ev[i].parent != NONE)
			all[fill[t->ev[i].parent]++] = (uint32_t)i;
	free(fill);
	cmptree = t;
	for (i = 0; i < t->n; i++) {
		at = t->kid0[i];
		end = t->kid0[i + 1];
		for (j = at + 1; j < end; j++)
			if (kidcmp(&all[j - 1], &all[j]) > 0)
				break;
		if (j < end)
			qsort(all + at, end - at, sizeof *all, kidcmp);
	}
	t->kids = all;
}

void
tfree(struct tree *t)
{
	size_t i;

	for (i = 0; i < t->ncol; i++)
		free(t->col[i]);
	free(t->rows);
	free(t->rowat);
	free(t->col);
	free(t->ev);
	free(t->dense);
	free(t->hk);
	free(t->hv);
	free(t->kid0);
	free(t->kids);
	free(t->name);
	memset(t, 0, sizeof *t);
}
