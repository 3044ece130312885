/*
 * tl-agg: read a tree stream into compact records, one per host event in
 * the tree and per GPU event, and derive what the tables walk: parent
 * indexes, children in time order, each node's GPU events as a range of
 * the tree's preorder, and the cpu_op roots.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/sort.h"
#include "agg.h"

struct agg *A;

#define COL(c)	(A->tr->col[c])

static struct tl_out tmp = MEMOUT;

/* A message about the trace: counted (warn) or always shown (note). */
static void
say(int warn, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (warn)
		tl_warns(&A->warns, "%s: %s", A->tr->name, msg);
	else
		tl_warnx("%s: %s", A->tr->name, msg);
}

void
agg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(1, fmt, ap);
	va_end(ap);
}

void
agg_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(0, fmt, ap);
	va_end(ap);
}

/* The count of the warnings about the trace that were not shown. */
void
agg_warns_end(void)
{
	tl_warns_end(&A->warns, A->tr->name);
	A->warns.n = 0;
}

const char *
agg_str(uint32_t id, size_t *n)
{
	return tl_intern_str(A->in, id, n);
}

uint32_t
agg_find(const char *s)
{
	uint32_t id = tl_intern_find(A->in, s, strlen(s));

	return id == UINT32_MAX ? NONE : id;
}

/* The value of (what, pid, tid), NONE until one is set. */
static uint32_t *
metaval(int what, uint32_t pid, uint32_t tid)
{
	uint32_t k[3] = { (uint32_t)what, pid, tid };
	size_t g = gfind(&A->meta, k);

	if (g == A->nmetaval) {
		xgrow(&A->metaval, &A->capmetaval, g + 1, sizeof *A->metaval);
		A->metaval[A->nmetaval++] = NONE;
	}
	return &A->metaval[g];
}

/* The last lookup of each what is kept: the ops of a thread come in runs. */
uint32_t
agg_meta(int what, uint32_t pid, uint32_t tid)
{
	uint32_t *c = A->mlast[what];	/* pid, tid, value */

	if (tid == NONE)
		return NONE;
	if (c[0] != pid || c[1] != tid) {
		c[0] = pid;
		c[1] = tid;
		c[2] = *metaval(what, pid, tid);
	}
	return c[2];
}

static int
same(const char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

void
agg_start(struct tl_trace *tr)
{
	static const struct tl_intern_last last = TL_INTERN_LAST;

	A = xcalloc(1, sizeof *A);
	A->tr = tr;
	A->in = tl_intern_new();
	A->maxuid = INT64_MIN;
	A->rank = NONE;
	A->meta.k = 3;
	memset(A->mlast, 0xff, sizeof A->mlast);
	A->lastpid.l = A->lasttid.l = A->laststream.l = last;
	tl_out_init(&A->reprs, -1, "memory");
}
static uint32_t
intern(int c)
{
	const char *s;
	size_t n;

	s = tl_trace_str(A->tr, c, &n);
	return s == NULL ? NONE : tl_intern(A->in, s, n);
}

/*
 * A field whose value is mostly the last row's: compared as the stream
 * has it (escaped) first, before it is unescaped and looked up.
 */
static uint32_t
internlast(int c, struct lastfield *l)
{
	const char *s;
	size_t n;

	if ((s = tl_trace_raw(A->tr, c, &n)) == NULL)
		return NONE;
	if (n == l->n && memcmp(s, l->s, n) == 0)
		return l->id;
	l->n = n <= sizeof l->s ? n : 0;
	memcpy(l->s, s, l->n);
	s = tl_trace_str(A->tr, c, &n);
	return l->id = tl_intern_last(A->in, &l->l, s, n);
}

/*
 * A number column. flop and bytes are integers: one of at most 15
 * digits (below 2^53) is the double strtod would make of it, made here
 * without strtod (which took most of the reading of a perf row).
 */
static double
dbl(int c)
{
	const char *s;
	size_t n, j;
	uint64_t u = 0;
	double v;

	if (COL(c) < 0 || (n = A->tr->t->fl[COL(c)]) == 0)
		return NAN;
	s = A->tr->t->f[COL(c)];
	for (j = 0; n <= 15 && j < n && s[j] >= '0' && s[j] <= '9'; j++)
		u = u * 10 + (uint64_t)(s[j] - '0');
	if (n <= 15 && j == n)
		return (double)u;
	if (!tl_tsv_double(A->tr->t, COL(c), &v))
		return NAN;
	return v;
}

/* An "M" row: process and thread names. */
static void
metarow(void)
{
	/* In the order of M_*. */
	static const struct {
		const char *name, *key;
	} meta[] = { { "process_name", "name" }, { "process_labels",
	    "labels" }, { "thread_name", "name" } };
	const char *s, *v;
	size_t n, vn;
	int what;

	if ((s = tl_trace_str(A->tr, TL_C_NAME, &n)) == NULL)
		return;
	for (what = 0; what < 3; what++)
		if (same(s, n, meta[what].name))
			break;
	if (what == 3 || (s = tl_trace_str(A->tr, TL_C_ARGS, &n)) == NULL ||
	    !json_parse(s, n) || !json_get(meta[what].key, &v, &vn))
		return;
	tmp.n = 0;
	if (!json_string(&tmp, v, vn)) {
		/* A number or another value: as Python's str() shows it. */
		tmp.n = 0;
		if (tl_out_pyjson(&tmp, v, vn, 0) < 0)
			return;
	}
	*metaval(what, intern(TL_C_PID), intern(TL_C_TID)) =
	    tl_intern(A->in, tmp.buf, tmp.n);
}

static int
gpuclass(uint32_t name, int kind)
{
	const char *s;
	size_t n;

	xgrowz(&A->namecls, &A->capcls, (size_t)name + 1, 1);
	if (A->namecls[name] != 0 && kind != TL_K_MEMCPY)
		return A->namecls[name] - 1;
	s = agg_str(name, &n);
	if (kind == TL_K_MEMCPY)
		return gpu_class(s, n, kind);
	A->namecls[name] = (uint8_t)(gpu_class(s, n, kind) + 1);
	return A->namecls[name] - 1;
}

static void
xlink(uint32_t i, int64_t uid, int fwd)
{
	xgrow(&A->xl, &A->capxl, A->nxl + 1, sizeof *A->xl);
	A->xl[A->nxl].uid = uid;
	A->xl[A->nxl].ev = i;
	A->xl[A->nxl++].fwd = fwd;
}

void
agg_row(struct tl_trace *tr)
{
	struct tl_tsv *t = tr->t;
	char **f = t->f;
	size_t *fl = t->fl;
	struct ev *e;
	int kind, cls;
	int64_t v, uid;
	uint32_t i;

	if (A->rank == NONE && COL(TL_C_RANK) >= 0 &&
	    fl[COL(TL_C_RANK)] > 0)
		A->rank = intern(TL_C_RANK);
	if ((uid = tl_trace_uid(tr)) > A->maxuid)
		A->maxuid = uid;
	if (COL(TL_C_PH) >= 0 && same(f[COL(TL_C_PH)], fl[COL(TL_C_PH)],
	    "M")) {
		metarow();
		return;
	}
	kind = tr->kind;
	if (!TL_K_ISHOST(kind) && !TL_K_ISGPU(kind))
		return;
	if (kind == TL_K_PYTHON || kind == TL_K_ANNOT) {
		/* Frames count only when tl-tree put them in the tree. */
		if (COL(TL_C_DEPTH) < 0 || fl[COL(TL_C_DEPTH)] == 0)
			return;
		A->python = 1;
	}
	tl_trace_hold(t, A->n);
	if (A->n >= NONE - 1)
		tl_tsv_errx(t, "too many events in one trace");
	i = (uint32_t)A->n;
	xgrow(&A->e, &A->cap, A->n + 1, sizeof *A->e);
	e = &A->e[i];
	memset(e, 0, sizeof *e);
	e->kind = (uint8_t)kind;
	e->uid = uid;
	if (!tl_trace_i64(tr, TL_C_TS, &e->tsns)) {
		A->nnots++;
		agg_warn("event %" PRId64 ": no ts_ns: left out", e->uid);
		return;
	}
	if (kind == TL_K_CPU_OP && (COL(TL_C_DUR) < 0 ||
	    fl[COL(TL_C_DUR)] == 0) && COL(TL_C_ARGS) >= 0 &&
	    fl[COL(TL_C_ARGS)] >= 16 && memcmp(f[COL(TL_C_ARGS)],
	    "{\"Pseudo op\":true", 16) == 0) {
		/* TraceLens's pseudo ops have no duration */
		e->flags |= F_PSEUDO;
		e->durns = 0;
	} else if (!tl_trace_i64(tr, TL_C_DUR, &e->durns) || e->durns < 0) {
		A->nnodur++;
		agg_warn("event %" PRId64 ": %s dur_ns: taken as 0", e->uid,
		    COL(TL_C_DUR) < 0 || fl[COL(TL_C_DUR)] == 0 ? "no" :
		    "negative");
		e->durns = 0;
	}
	if (e->tsns > INT64_MAX - e->durns) {
		/* As tl-tree(1) does: the end clipped to the largest. */
		A->nclip++;
		agg_warn("event %" PRId64 ": ts_ns + dur_ns past the largest "
		    "time: ends at it", e->uid);
		e->durns = INT64_MAX - e->tsns;
	}
	if (!A->havebase) {
		A->base = e->tsns;
		A->havebase = 1;
	}
	A->n++;
	e->parent = e->launcher = e->fwd = NONE;
	e->name = intern(TL_C_NAME);
	if (e->name == NONE)
		e->name = tl_intern(A->in, "", 0);
	e->pid = internlast(TL_C_PID, &A->lastpid);
	e->tid = internlast(TL_C_TID, &A->lasttid);
	e->puid = tl_trace_i64(tr, TL_C_PARENT, &v) ? v : INT64_MIN;
	if (tl_trace_i64(tr, TL_C_LAUNCHER, &v))
		xlink(i, v, 0);
	if (tl_trace_i64(tr, TL_C_FWD, &v))
		xlink(i, v, 1);
	if ((COL(TL_C_CORR) >= 0 && fl[COL(TL_C_CORR)] > 0) ||
	    (COL(TL_C_EXT) >= 0 && fl[COL(TL_C_EXT)] > 0))
		e->flags |= F_CORR;
	if (TL_K_ISGPU(kind)) {
		e->u.g.stream = internlast(TL_C_STREAM, &A->laststream);
		e->u.g.args = NONE;
		if (COL(TL_C_LINKED) >= 0 && same(f[COL(TL_C_LINKED)],
		    fl[COL(TL_C_LINKED)], "1"))
			e->flags |= F_LINKED;
		cls = gpuclass(e->name, kind);
		if (cls == G_COMM) {
			e->flags |= F_COMM;
			e->u.g.args = intern(TL_C_ARGS);
		} else if (cls == G_MEMCPY)
			e->flags |= F_MEMCPYK;
	} else if (kind == TL_K_CPU_OP) {
		if (COL(TL_C_ARGS) >= 0 && fl[COL(TL_C_ARGS)] > 10 &&
		    memcmp(f[COL(TL_C_ARGS)], "{\"hlo_op\":", 10) == 0)
			agg_xlaop(e->name);
		e->u.h.arg[0] = intern(TL_C_DIMS);
		e->u.h.arg[1] = intern(TL_C_TYPES);
		e->u.h.arg[2] = intern(TL_C_STRIDES);
		e->u.h.arg[3] = intern(TL_C_CONCRETE);
	}
	if (!TL_K_ISGPU(kind))
		e->u.h.perf = NONE;
	if (!TL_K_ISGPU(kind) && (COL(TL_C_FLOP) >= 0 ||
	    COL(TL_C_BYTES) >= 0 || COL(TL_C_SPEC) >= 0 ||
	    COL(TL_C_PARAMS) >= 0)) {
		struct perf p;

		p.gflops = dbl(TL_C_FLOP) / 1e9;
		p.bytes = dbl(TL_C_BYTES);
		p.spec = intern(TL_C_SPEC);
		p.params = intern(TL_C_PARAMS);
		if (!isnan(p.gflops) || !isnan(p.bytes) || p.spec != NONE ||
		    p.params != NONE) {
			xgrow(&A->perf, &A->capperf, A->nperf + 1,
			    sizeof *A->perf);
			A->perf[A->nperf] = p;
			e->u.h.perf = (uint32_t)A->nperf++;
		}
	}
}

/*
 * uid -> index: a table over the range of the uids when they are dense
 * (they are the events' indexes in the trace, less the ones left out),
 * else a binary search.
 */

/* The table, when dense: 1 with the smallest uid seen twice in *dup. */
static int
mapuids(int64_t *dup)
{
	int64_t lo, hi;
	size_t j;
	uint32_t *m;
	int twice = 0;

	if (A->n == 0)
		return 0;
	lo = hi = A->e[0].uid;
	for (j = 1; j < A->n; j++) {
		if (A->e[j].uid < lo)
			lo = A->e[j].uid;
		if (A->e[j].uid > hi)
			hi = A->e[j].uid;
	}
	if ((uint64_t)hi - (uint64_t)lo >= 8 * (uint64_t)A->n + 1024)
		return 0;
	A->uidlo = lo;
	A->nuidmap = (uint64_t)hi - (uint64_t)lo + 1;
	A->uidmap = xreallocarray(NULL, A->nuidmap, sizeof *A->uidmap);
	memset(A->uidmap, 0xff, A->nuidmap * sizeof *A->uidmap);
	for (j = 0; j < A->n; j++) {
		m = &A->uidmap[A->e[j].uid - lo];
		if (*m != NONE && (!twice || A->e[j].uid < *dup)) {
			*dup = A->e[j].uid;
			twice = 1;
		}
		*m = (uint32_t)j;
	}
	return twice;
}

uint32_t
agg_lookup(int64_t uid)
{
	size_t lo = 0, hi = A->n, mid;
	int64_t u;

	if (A->uidmap != NULL)
		return uid >= A->uidlo && (uint64_t)uid - (uint64_t)A->uidlo <
		    A->nuidmap ? A->uidmap[uid - A->uidlo] : NONE;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		u = A->e[A->byuid[mid]].uid;
		if (u < uid)
			lo = mid + 1;
		else if (u > uid)
			hi = mid;
		else
			return A->byuid[mid];
	}
	return NONE;
}

/*
 * Sort the event indexes idx[0..n) stably by uid or by start: host
 * events by start, ties by uid, the input order of a stream that
 * tl-parse wrote, and the same order when a stage moved rows
 * (tl-roofline -p writes the rows of the ops it models at the end of a
 * trace). The keys as unsigned (the sign bit flipped), by tl_key_sort:
 * linear, where qsort's comparisons took a tenth of the program's time.
 */
static void
sortev(uint32_t *idx, size_t n, int byuid)
{
	struct tl_sortkey *k;
	size_t j;

	for (j = 1; j < n; j++)
		if (byuid ? A->e[idx[j]].uid < A->e[idx[j - 1]].uid :
		    A->e[idx[j]].tsns < A->e[idx[j - 1]].tsns)
			break;
	if (j >= n)
		return;	/* in order: no keys to make (and touch) */
	k = xreallocarray(NULL, n, sizeof *k);
	for (j = 0; j < n; j++) {
		k[j].i = idx[j];
		k[j].k = (uint64_t)(byuid ? A->e[idx[j]].uid :
		    A->e[idx[j]].tsns) ^ UINT64_C(1) << 63;
	}
	tl_key_sort(k, n);
	for (j = 0; j < n; j++)
		idx[j] = k[j].i;
	free(k);
}

void
agg_build(void)
{
	uint32_t *host, *top, *fill, *stack, *next, i, p, k;
	uint8_t *cpuabove;
	size_t nhost = 0, ntop, j, sp, nk;
	uint64_t u;
	int64_t dup = 0;
	int hascpu = 0;

	agg_warns_end();
	if (A->nnots > 0)
		agg_note("%" PRIu64 " event%s without ts_ns left out",
		    A->nnots, PL(A->nnots));
	if (A->nnodur > 0)
		agg_note("%" PRIu64 " event%s without a valid dur_ns taken "
		    "as 0 ns long", A->nnodur, PL(A->nnodur));
	if (A->nclip > 0)
		agg_note("%" PRIu64 " event%s ending past the largest time "
		    "(2^63-1 ns) ended at it", A->nclip, PL(A->nclip));
	A->nnots = A->nnodur = A->nclip = 0;

	if (mapuids(&dup))
		tl_errx(1, "%s: duplicate uid %" PRId64, A->tr->name, dup);
	if (A->uidmap == NULL) {
		A->byuid = xreallocarray(NULL, A->n + 1, sizeof *A->byuid);
		for (j = 0; j < A->n; j++)
			A->byuid[j] = (uint32_t)j;
		sortev(A->byuid, A->n, 1);
		for (j = 1; j < A->n; j++)
			if (A->e[A->byuid[j - 1]].uid == A->e[A->byuid[j]].uid)
				tl_errx(1, "%s: duplicate uid %" PRId64,
				    A->tr->name, A->e[A->byuid[j]].uid);
	}
	A->noparent = 0;
	for (j = 0; j < A->n; j++) {
		struct ev *e = &A->e[j];
		int64_t puid = e->puid;

		e->glo = e->ghi = 0;	/* for the events no root reaches */
		if (puid != INT64_MIN &&
		    (e->parent = agg_lookup(puid)) == NONE) {
			A->noparent++;
			agg_warn("event %" PRId64 ": parent %" PRId64
			    " is not a host event in the stream: taken as a "
			    "root",
			    e->uid, puid);
		}
		if (e->kind == TL_K_CPU_OP)
			hascpu = 1;
		if (TL_K_ISHOST(e->kind))
			nhost++;
	}
	for (j = 0; j < A->nxl; j++)
		if (A->xl[j].fwd)
			A->e[A->xl[j].ev].fwd = agg_lookup(A->xl[j].uid);
		else
			A->e[A->xl[j].ev].launcher = agg_lookup(A->xl[j].uid);
	free(A->xl);
	A->xl = NULL;
	A->nxl = A->capxl = 0;
	agg_warns_end();
	if (A->n > 0)
		tl_tree_acyclic(A->tr->name, A->n, &A->e[0].parent,
		    &A->e[0].uid, sizeof *A->e);
	A->gpuonly = !hascpu;

	/*
	 * Children: host ones by (ts, uid), then GPU ones. The host events
	 * by uid, sorted by ts where they are not in order: the children
	 * of each node, the roots; not all of them at once (a stream's
	 * events are by ts in runs, the children of a node mostly in one).
	 */
	host = xreallocarray(NULL, nhost + 1, sizeof *host);
	nhost = 0;
	for (u = 0; u < (A->uidmap != NULL ? A->nuidmap : A->n); u++)
		if ((i = A->uidmap != NULL ? A->uidmap[u] : A->byuid[u]) !=
		    NONE && TL_K_ISHOST(A->e[i].kind))
			host[nhost++] = i;
	A->kidoff = xcalloc(A->n + 1, sizeof *A->kidoff);
	for (j = 0; j < A->n; j++)
		if ((p = A->e[j].parent) != NONE)
			A->kidoff[p + 1]++;
	for (j = 0; j < A->n; j++)
		A->kidoff[j + 1] += A->kidoff[j];
	nk = A->kidoff[A->n];
	A->kids = xreallocarray(NULL, nk + 1, sizeof *A->kids);
	fill = xreallocarray(NULL, A->n + 1, sizeof *fill);
	memcpy(fill, A->kidoff, A->n * sizeof *fill);
	for (j = 0; j < nhost; j++)
		if ((p = A->e[host[j]].parent) != NONE)
			A->kids[fill[p]++] = host[j];
	for (j = 0; j < A->n; j++)
		if (fill[j] - A->kidoff[j] > 1)
			sortev(A->kids + A->kidoff[j], fill[j] - A->kidoff[j],
			    0);
	for (j = 0; j < A->n; j++)
		if (!TL_K_ISHOST(A->e[j].kind) && (p = A->e[j].parent) != NONE)
			A->kids[fill[p]++] = (uint32_t)j;

	/*
	 * Preorder from every root: the GPU events of a node are a range
	 * of A->gord; a cpu_op without a cpu_op above is a root for the
	 * unified table.
	 */
	A->gord = xreallocarray(NULL, A->n + 1, sizeof *A->gord);
	A->ngord = 0;
	cpuabove = xcalloc(A->n + 1, 1);
	stack = xreallocarray(NULL, A->n + 1, sizeof *stack);
	next = xreallocarray(NULL, A->n + 1, sizeof *next);
	top = fill;	/* the roots, in fill's room */
	for (ntop = 0, j = 0; j < nhost; j++)
		if (A->e[host[j]].parent == NONE)
			top[ntop++] = host[j];
	sortev(top, ntop, 0);
	for (j = 0; j < ntop; j++) {
		uint32_t r = top[j];

		sp = 0;
		stack[sp] = r;
		next[sp++] = A->kidoff[r];
		A->e[r].glo = (uint32_t)A->ngord;
		while (sp > 0) {
			i = stack[sp - 1];
			if (next[sp - 1] == A->kidoff[i + 1]) {
				A->e[i].ghi = (uint32_t)A->ngord;
				sp--;
				continue;
			}
			k = A->kids[next[sp - 1]++];
			A->e[k].glo = (uint32_t)A->ngord;
			if (TL_K_ISGPU(A->e[k].kind))
				A->gord[A->ngord++] = k;
			cpuabove[k] = cpuabove[i] ||
			    A->e[i].kind == TL_K_CPU_OP;
			stack[sp] = k;
			next[sp++] = A->kidoff[k];
		}
	}
	/* Every GPU event by start, for the timelines. */
	A->gts = xreallocarray(NULL, A->n + 1, sizeof *A->gts);
	for (A->ngts = 0, j = 0; j < A->n; j++)
		if (TL_K_ISGPU(A->e[j].kind))
			A->gts[A->ngts++] = (uint32_t)j;
	sortev(A->gts, A->ngts, 0);
	A->roots = xreallocarray(NULL, nhost + 1, sizeof *A->roots);
	A->nroots = 0;
	for (j = 0; j < nhost; j++)
		if (A->e[host[j]].kind == TL_K_CPU_OP && !cpuabove[host[j]])
			A->roots[A->nroots++] = host[j];
	sortev(A->roots, A->nroots, 0);
	free(fill);
	free(stack);
	free(next);
	free(cpuabove);
	free(host);
}

/*
 * Exact times from here on, whatever -T said: the HTA tables that -d
 * writes beside -C's CSV files.
 */
void
agg_exact(void)
{
	agg_nat = 1;
}

void
agg_end(void)
{
	free(A->e);
	free(A->gord);
	free(A->gts);
	free(A->kidoff);
	free(A->kids);
	free(A->roots);
	free(A->perf);
	free(A->xl);
	free(A->namecls);
	gfree(&A->meta);
	free(A->metaval);
	free(A->byuid);
	free(A->uidmap);
	free(A->ncache);
	free(A->l);
	free(A->lk);
	free(A->lslot);
	free(A->nrepr);
	free(A->argrepr);
	free(A->reprs.buf);
	tl_json_free(&A->jd);
	free(A->u);
	free(A->uk);
	tl_intern_free(A->in);
	free(A);
	A = NULL;
}
