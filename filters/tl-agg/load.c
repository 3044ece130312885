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

struct ev *agg_e;
size_t agg_n;
struct tl_intern *agg_in;
uint32_t *agg_gord;
size_t agg_ngord;
uint32_t *agg_gts;
size_t agg_ngts;
uint32_t *agg_kidoff, *agg_kids;
uint32_t *agg_roots;
size_t agg_nroots;
struct perf *agg_perf;
int agg_gpuonly, agg_python;
char *agg_tracename;
uint64_t agg_noparent;
int64_t agg_maxuid;
uint32_t agg_rank = NONE;

const char *const agg_colname[NCOLS] = {
	"uid", "ph", "cat", "name", "pid", "tid", "ts_ns", "dur_ns", "stream",
	"correlation", "external_id", "input_dims", "input_types",
	"input_strides", "concrete_inputs", "args", "parent", "depth",
	"linked", "launcher", "fwd_uid", "trace", "flop", "bytes",
	"compute_spec", "params", "rank"
};
int agg_col[NCOLS];

static size_t cap;
static size_t capperf, nperf;
static int64_t *puid, *luid, *fuid;	/* parent, launcher, fwd: uids */
static size_t capu;
static int64_t base;
static int havebase;
static uint64_t nev, nnots, nnodur;
static struct tl_warns warns;
static struct tl_hdr hdr;	/* the first stream's */
static uint8_t *namecls;	/* per name id: GPU class + 1, 0 unknown */
static size_t capcls;
static struct tl_out tmp = MEMOUT;

/* Fields that take few values, in runs (host and GPU rows alternate). */
static struct tl_intern_last lastpid = TL_INTERN_LAST,
    lasttid = TL_INTERN_LAST, laststream = TL_INTERN_LAST;

/* Metadata: (what, pid, tid) -> value, open addressing. */
struct mslot {
	uint64_t key;
	uint32_t val;		/* id + 1, 0 empty */
};
static struct mslot *meta;
static size_t mmask, mcount;

void
agg_warn(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	tl_warns(&warns, "%s: %s", agg_tracename, msg);
}

void
agg_note(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	tl_warnx("%s: %s", agg_tracename, msg);
}

/* The count of the warnings about the trace that were not shown. */
void
agg_warns_end(void)
{
	tl_warns_end(&warns, agg_tracename);
	warns.n = 0;
}

const char *
agg_str(uint32_t id, size_t *n)
{
	return tl_intern_str(agg_in, id, n);
}

uint32_t
agg_find(const char *s)
{
	uint32_t id = tl_intern_find(agg_in, s, strlen(s));

	return id == UINT32_MAX ? NONE : id;
}

static struct mslot *
mfind(uint64_t key)
{
	size_t i;

	if (meta == NULL) {
		mmask = 63;
		meta = xcalloc(mmask + 1, sizeof *meta);
	}
	for (i = tl_hash64(key) & mmask;; i = (i + 1) & mmask)
		if (meta[i].val == 0 || meta[i].key == key)
			return &meta[i];
}

static void
mset(uint64_t key, uint32_t val)
{
	struct mslot *s = mfind(key), *old;
	size_t i, n;

	if (s->val == 0)
		mcount++;
	s->key = key;
	s->val = val + 1;
	if (mcount * 2 <= mmask)
		return;
	old = meta;
	n = mmask + 1;
	mmask = 2 * n - 1;
	meta = xcalloc(2 * n, sizeof *meta);
	for (i = 0; i < n; i++)
		if (old[i].val != 0)
			*mfind(old[i].key) = old[i];
	free(old);
}

static uint64_t
mkey(int what, uint32_t pid, uint32_t tid)
{
	return (uint64_t)what << 62 ^ (uint64_t)pid << 31 ^ tid;
}

uint32_t
agg_meta(int what, uint32_t pid, uint32_t tid)
{
	struct mslot *s;

	if (meta == NULL || tid == NONE)
		return NONE;
	s = mfind(mkey(what, pid, tid));
	return s->val == 0 ? NONE : s->val - 1;
}

static int
same(const char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

static int
catkind(const char *s, size_t n)
{
	switch (n > 0 ? s[0] : 0) {
	case 'c':
		return same(s, n, "cpu_op") ? K_CPU_OP :
		    same(s, n, "cuda_runtime") ? K_RUNTIME :
		    same(s, n, "cuda_driver") ? K_DRIVER : K_OTHER;
	case 'g':
		return same(s, n, "gpu_memcpy") ? K_MEMCPY :
		    same(s, n, "gpu_memset") ? K_MEMSET : K_OTHER;
	case 'k':
		return same(s, n, "kernel") ? K_KERNEL : K_OTHER;
	case 'p':
		return same(s, n, "python_function") ? K_PYTHON : K_OTHER;
	case 'u':
		return same(s, n, "user_annotation") ? K_ANNOT : K_OTHER;
	}
	return K_OTHER;
}

void
agg_header(struct tl_tsv *t, unsigned long long need,
    unsigned long long use)
{
	size_t i;

	if (!tl_hdr_same(&hdr, t))
		return;
	for (i = 0; i < NCOLS; i++) {
		agg_col[i] = tl_tsv_col(t, agg_colname[i]);
		if (agg_col[i] < 0 && (need >> i & 1))
			tl_errx(1, "%s:1: missing required column \"%s\"",
			    t->name, agg_colname[i]);
	}
	/* Columns that cost time to read: only for the tables that use them. */
	for (i = 0; i < NCOLS; i++)
		if ((AGG_COSTLY >> i & 1) && !(use >> i & 1))
			agg_col[i] = -1;
}

void
agg_start(const char *name)
{
	free(agg_tracename);
	agg_tracename = xstrdup(name);
	agg_in = tl_intern_new();
	nev = 0;
	havebase = 0;
	agg_maxuid = INT64_MIN;
	agg_rank = NONE;
}

/* Field i of the row, decoded; NULL when empty or not in the stream. */
static const char *
fld(struct tl_tsv *t, int c, size_t *n)
{
	if (agg_col[c] < 0) {
		*n = 0;
		return NULL;
	}
	return tl_tsv_str(t, agg_col[c], n);
}

static uint32_t
intern(struct tl_tsv *t, int c)
{
	const char *s;
	size_t n;

	s = fld(t, c, &n);
	return s == NULL ? NONE : tl_intern(agg_in, s, n);
}

static uint32_t
internlast(struct tl_tsv *t, int c, struct tl_intern_last *l)
{
	const char *s;
	size_t n;

	if ((s = fld(t, c, &n)) == NULL)
		return NONE;
	return tl_intern_last(agg_in, l, s, n);
}

/* An integer field: 1 set, 0 absent (or no column); exits when bad. */
static int
num(struct tl_tsv *t, int c, int64_t *v)
{
	if (agg_col[c] < 0)
		return 0;
	return tl_tsv_i64(t, agg_col[c], v);
}

static double
dbl(struct tl_tsv *t, int c)
{
	double v;

	if (agg_col[c] < 0 || !tl_tsv_double(t, agg_col[c], &v))
		return NAN;
	return v;
}

/* An "M" row: process and thread names. */
static void
metarow(struct tl_tsv *t)
{
	const char *s, *v;
	size_t n, vn;
	int what;
	const char *key;

	if ((s = fld(t, C_NAME, &n)) == NULL)
		return;
	if (same(s, n, "process_name")) {
		what = M_PNAME;
		key = "name";
	} else if (same(s, n, "process_labels")) {
		what = M_PLABEL;
		key = "labels";
	} else if (same(s, n, "thread_name")) {
		what = M_TNAME;
		key = "name";
	} else
		return;
	if ((s = fld(t, C_ARGS, &n)) == NULL ||
	    !json_get(s, n, key, &v, &vn))
		return;
	tmp.n = 0;
	if (!json_string(&tmp, v, vn)) {
		/* A number or another value: as Python's str() shows it. */
		tmp.n = 0;
		if (tl_out_pyjson(&tmp, v, vn, 0) < 0)
			return;
	}
	mset(mkey(what, intern(t, C_PID), intern(t, C_TID)),
	    tl_intern(agg_in, tmp.buf, tmp.n));
}

static int
gpuclass(uint32_t name, int kind)
{
	const char *s;
	size_t n, had = capcls;

	if (name >= capcls) {
		xgrow(&namecls, &capcls, (size_t)name + 1, 1);
		memset(namecls + had, 0, capcls - had);
	}
	if (namecls[name] != 0 && kind != K_MEMCPY)
		return namecls[name] - 1;
	s = agg_str(name, &n);
	if (kind == K_MEMCPY)
		return gpu_class(s, n, kind);
	namecls[name] = (uint8_t)(gpu_class(s, n, kind) + 1);
	return namecls[name] - 1;
}

int
agg_row(struct tl_tsv *t)
{
	char **f = t->f;
	size_t *fl = t->fl, n;
	const char *s;
	struct ev *e;
	int kind, cls;
	int64_t v, uid;
	uint32_t i;

	if (fl[agg_col[C_UID]] == 0) {		/* a row about the trace */
		if (!same(f[agg_col[C_CAT]], fl[agg_col[C_CAT]], "trace_file"))
			return 0;
		if (nev > 0)
			return 1;
		if ((s = fld(t, C_NAME, &n)) != NULL) {
			free(agg_tracename);
			agg_tracename = xmemdup(s, n);
		}
		return 0;
	}
	nev++;
	if (agg_rank == NONE && agg_col[C_RANK] >= 0 &&
	    fl[agg_col[C_RANK]] > 0)
		agg_rank = intern(t, C_RANK);
	uid = 0;
	if (tl_tsv_i64(t, agg_col[C_UID], &uid) && uid > agg_maxuid)
		agg_maxuid = uid;
	if (agg_col[C_PH] >= 0 && same(f[agg_col[C_PH]], fl[agg_col[C_PH]],
	    "M")) {
		metarow(t);
		return 0;
	}
	kind = catkind(f[agg_col[C_CAT]], fl[agg_col[C_CAT]]);
	if (kind == K_OTHER)
		return 0;
	if (kind == K_PYTHON || kind == K_ANNOT) {
		/* Frames count only when tl-tree put them in the tree. */
		if (agg_col[C_DEPTH] < 0 || fl[agg_col[C_DEPTH]] == 0)
			return 0;
		agg_python = 1;
	}
	if (agg_n >= NONE - 1)
		tl_tsv_errx(t, "too many events in one trace");
	i = (uint32_t)agg_n;
	xgrow(&agg_e, &cap, agg_n + 1, sizeof *agg_e);
	if (capu < cap) {
		puid = xreallocarray(puid, cap, sizeof *puid);
		luid = xreallocarray(luid, cap, sizeof *luid);
		fuid = xreallocarray(fuid, cap, sizeof *fuid);
		capu = cap;
	}
	e = &agg_e[i];
	memset(e, 0, sizeof *e);
	e->kind = (uint8_t)kind;
	e->uid = uid;
	if (!num(t, C_TS, &e->tsns)) {
		nnots++;
		agg_warn("event %" PRId64 ": no ts_ns: left out", e->uid);
		return 0;
	}
	if (!num(t, C_DUR, &e->durns) || e->durns < 0) {
		nnodur++;
		agg_warn("event %" PRId64 ": %s dur_ns: taken as 0", e->uid,
		    agg_col[C_DUR] < 0 || fl[agg_col[C_DUR]] == 0 ? "no" :
		    "negative");
		e->durns = 0;
	}
	if (e->tsns > INT64_MAX - e->durns)
		tl_tsv_errx(t, "ts_ns + dur_ns out of range");
	if (!havebase) {
		base = e->tsns;
		havebase = 1;
	}
	if (agg_nat) {
		e->ts = (double)(e->tsns - base);
		e->dur = (double)e->durns;
	} else {
		e->ts = (double)e->tsns / 1000.0;
		e->dur = (double)e->durns / 1000.0;
	}
	e->end = e->ts + e->dur;
	agg_n++;
	e->parent = e->launcher = e->fwd = e->stream = e->args = NONE;
	e->arg[0] = e->arg[1] = e->arg[2] = e->arg[3] = NONE;
	e->perf = NONE;
	e->name = intern(t, C_NAME);
	if (e->name == NONE)
		e->name = tl_intern(agg_in, "", 0);
	e->pid = internlast(t, C_PID, &lastpid);
	e->tid = internlast(t, C_TID, &lasttid);
	puid[i] = num(t, C_PARENT, &v) ? v : INT64_MIN;
	luid[i] = num(t, C_LAUNCHER, &v) ? v : INT64_MIN;
	fuid[i] = num(t, C_FWD, &v) ? v : INT64_MIN;
	if ((agg_col[C_CORR] >= 0 && fl[agg_col[C_CORR]] > 0) ||
	    (agg_col[C_EXT] >= 0 && fl[agg_col[C_EXT]] > 0))
		e->flags |= F_CORR;
	if (ISGPU(kind)) {
		e->stream = internlast(t, C_STREAM, &laststream);
		if (agg_col[C_LINKED] >= 0 && same(f[agg_col[C_LINKED]],
		    fl[agg_col[C_LINKED]], "1"))
			e->flags |= F_LINKED;
		cls = gpuclass(e->name, kind);
		if (cls == G_COMM) {
			e->flags |= F_COMM;
			e->args = intern(t, C_ARGS);
		} else if (cls == G_MEMCPY)
			e->flags |= F_MEMCPYK;
	} else if (kind == K_CPU_OP) {
		e->arg[0] = intern(t, C_DIMS);
		e->arg[1] = intern(t, C_TYPES);
		e->arg[2] = intern(t, C_STRIDES);
		e->arg[3] = intern(t, C_CONCRETE);
		s = agg_str(e->name, &n);
		if (same(s, n, "execute"))
			e->flags |= F_EXECUTE;
	}
	if (!ISGPU(kind) && (agg_col[C_GFLOPS] >= 0 ||
	    agg_col[C_BYTES] >= 0 || agg_col[C_SPEC] >= 0 ||
	    agg_col[C_PARAMS] >= 0)) {
		struct perf p;

		p.gflops = dbl(t, C_GFLOPS) / 1e9;
		p.bytes = dbl(t, C_BYTES);
		p.spec = intern(t, C_SPEC);
		p.params = intern(t, C_PARAMS);
		if (!isnan(p.gflops) || !isnan(p.bytes) || p.spec != NONE ||
		    p.params != NONE) {
			xgrow(&agg_perf, &capperf, nperf + 1,
			    sizeof *agg_perf);
			agg_perf[nperf] = p;
			e->perf = (uint32_t)nperf++;
			e->flags |= F_PERF;
		}
	}
	return 0;
}

/*
 * uid -> index: a table over the range of the uids when they are dense
 * (they are the events' indexes in the trace, less the ones left out),
 * else a binary search.
 */
static uint32_t *byuid;		/* indexes sorted by uid; NULL: in order */
static uint32_t *uidmap;	/* uid - uidlo -> index, or NONE */
static int64_t uidlo;
static uint64_t nuidmap;

/* The table, when dense: 1 with the smallest uid seen twice in *dup. */
static int
mapuids(int64_t *dup)
{
	int64_t lo, hi;
	size_t j;
	uint32_t *m;
	int twice = 0;

	if (agg_n == 0)
		return 0;
	lo = hi = agg_e[0].uid;
	for (j = 1; j < agg_n; j++) {
		if (agg_e[j].uid < lo)
			lo = agg_e[j].uid;
		if (agg_e[j].uid > hi)
			hi = agg_e[j].uid;
	}
	if ((uint64_t)hi - (uint64_t)lo >= 8 * (uint64_t)agg_n + 1024)
		return 0;
	uidlo = lo;
	nuidmap = (uint64_t)hi - (uint64_t)lo + 1;
	uidmap = xreallocarray(NULL, nuidmap, sizeof *uidmap);
	memset(uidmap, 0xff, nuidmap * sizeof *uidmap);
	for (j = 0; j < agg_n; j++) {
		m = &uidmap[agg_e[j].uid - lo];
		if (*m != NONE && (!twice || agg_e[j].uid < *dup)) {
			*dup = agg_e[j].uid;
			twice = 1;
		}
		*m = (uint32_t)j;
	}
	return twice;
}

static uint32_t
lookup(int64_t uid)
{
	size_t lo = 0, hi = agg_n, mid;
	int64_t u;

	if (uidmap != NULL)
		return uid >= uidlo && (uint64_t)uid - (uint64_t)uidlo <
		    nuidmap ? uidmap[uid - uidlo] : NONE;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		u = agg_e[byuid != NULL ? byuid[mid] : mid].uid;
		if (u < uid)
			lo = mid + 1;
		else if (u > uid)
			hi = mid;
		else
			return byuid != NULL ? byuid[mid] : (uint32_t)mid;
	}
	return NONE;
}

/*
 * Sort the event indexes idx[0..n) by uid (with uid; idx in uid order
 * without), then, with byts, stably by start: host events by start, ties
 * by uid, the input order of a stream that tl-parse wrote, and the same
 * order when a stage moved rows (tl-roofline -p writes the rows of the
 * ops it models at the end of a trace). The keys as unsigned (the sign
 * bit flipped), by tl_key_sort: linear, where qsort's comparisons took
 * a tenth of the program's time.
 */
static void
sortev(uint32_t *idx, size_t n, int uid, int byts)
{
	struct tl_sortkey *k;
	size_t j;

	if (n < 2)
		return;
	k = xreallocarray(NULL, n, sizeof *k);
	for (j = 0; j < n; j++)
		k[j].i = idx[j];
	if (uid) {
		for (j = 0; j < n; j++)
			k[j].k = (uint64_t)agg_e[k[j].i].uid ^
			    UINT64_C(1) << 63;
		tl_key_sort(k, n);
	}
	if (byts) {
		for (j = 0; j < n; j++)
			k[j].k = (uint64_t)agg_e[k[j].i].tsns ^
			    UINT64_C(1) << 63;
		tl_key_sort(k, n);
	}
	for (j = 0; j < n; j++)
		idx[j] = k[j].i;
	free(k);
}

void
agg_build(void)
{
	uint32_t *host, *fill, *stack, *next, i, p, k;
	uint8_t *cpuabove;
	size_t nhost = 0, j, sp, nk;
	uint64_t u;
	int64_t dup = 0;
	int sorted = 1, hascpu = 0;

	tl_warns_end(&warns, agg_tracename);
	warns.n = 0;
	if (nnots > 0)
		agg_note("%" PRIu64 " event%s without ts_ns left out", nnots,
		    PL(nnots));
	if (nnodur > 0)
		agg_note("%" PRIu64 " event%s without a valid dur_ns taken "
		    "as 0 ns long", nnodur, PL(nnodur));
	nnots = nnodur = 0;

	for (j = 1; j < agg_n; j++)
		if (agg_e[j - 1].uid >= agg_e[j].uid) {
			sorted = 0;
			break;
		}
	if (mapuids(&dup))
		tl_errx(1, "%s: duplicate uid %" PRId64, agg_tracename, dup);
	if (!sorted && uidmap == NULL) {
		byuid = xreallocarray(NULL, agg_n, sizeof *byuid);
		for (j = 0; j < agg_n; j++)
			byuid[j] = (uint32_t)j;
		sortev(byuid, agg_n, 1, 0);
		for (j = 1; j < agg_n; j++)
			if (agg_e[byuid[j - 1]].uid == agg_e[byuid[j]].uid)
				tl_errx(1, "%s: duplicate uid %" PRId64,
				    agg_tracename, agg_e[byuid[j]].uid);
	}
	agg_noparent = 0;
	for (j = 0; j < agg_n; j++) {
		struct ev *e = &agg_e[j];

		if (puid[j] != INT64_MIN &&
		    (e->parent = lookup(puid[j])) == NONE) {
			agg_noparent++;
			agg_warn("event %" PRId64 ": parent %" PRId64 " is not "
			    "a host event in the stream: taken as a root",
			    e->uid, puid[j]);
		}
		if (luid[j] != INT64_MIN)
			e->launcher = lookup(luid[j]);
		if (fuid[j] != INT64_MIN)
			e->fwd = lookup(fuid[j]);
		if (e->kind == K_CPU_OP)
			hascpu = 1;
		if (ISHOST(e->kind))
			nhost++;
	}
	tl_warns_end(&warns, agg_tracename);
	warns.n = 0;
	agg_gpuonly = !hascpu;

	/* Children: host ones by (ts, input order), then GPU ones. */
	host = xreallocarray(NULL, nhost + 1, sizeof *host);
	nhost = 0;
	if (uidmap != NULL) {
		/* in uid order from the table */
		for (u = 0; u < nuidmap; u++)
			if ((i = uidmap[u]) != NONE && ISHOST(agg_e[i].kind))
				host[nhost++] = i;
	} else
		for (j = 0; j < agg_n; j++)
			if (ISHOST(agg_e[j].kind))
				host[nhost++] = (uint32_t)j;
	sortev(host, nhost, uidmap == NULL, 1);
	agg_kidoff = xcalloc(agg_n + 1, sizeof *agg_kidoff);
	for (j = 0; j < agg_n; j++)
		if ((p = agg_e[j].parent) != NONE)
			agg_kidoff[p + 1]++;
	for (j = 0; j < agg_n; j++)
		agg_kidoff[j + 1] += agg_kidoff[j];
	nk = agg_kidoff[agg_n];
	agg_kids = xreallocarray(NULL, nk + 1, sizeof *agg_kids);
	fill = xreallocarray(NULL, agg_n + 1, sizeof *fill);
	memcpy(fill, agg_kidoff, agg_n * sizeof *fill);
	for (j = 0; j < nhost; j++)
		if ((p = agg_e[host[j]].parent) != NONE)
			agg_kids[fill[p]++] = host[j];
	for (j = 0; j < agg_n; j++)
		if (!ISHOST(agg_e[j].kind) && (p = agg_e[j].parent) != NONE)
			agg_kids[fill[p]++] = (uint32_t)j;
	free(fill);

	/*
	 * Preorder from every root: the GPU events of a node are a range
	 * of agg_gord; a cpu_op without a cpu_op above is a root for the
	 * unified table.
	 */
	agg_gord = xreallocarray(NULL, agg_n + 1, sizeof *agg_gord);
	agg_ngord = 0;
	cpuabove = xcalloc(agg_n + 1, 1);
	stack = xreallocarray(NULL, agg_n + 1, sizeof *stack);
	next = xreallocarray(NULL, agg_n + 1, sizeof *next);
	for (j = 0; j <= nhost; j++) {
		uint32_t r;

		if (j < nhost)
			r = host[j];
		else
			r = NONE;
		if (r == NONE || agg_e[r].parent != NONE)
			continue;
		sp = 0;
		stack[sp] = r;
		next[sp++] = agg_kidoff[r];
		agg_e[r].glo = (uint32_t)agg_ngord;
		while (sp > 0) {
			i = stack[sp - 1];
			if (next[sp - 1] == agg_kidoff[i + 1]) {
				agg_e[i].ghi = (uint32_t)agg_ngord;
				sp--;
				continue;
			}
			k = agg_kids[next[sp - 1]++];
			agg_e[k].glo = (uint32_t)agg_ngord;
			if (ISGPU(agg_e[k].kind))
				agg_gord[agg_ngord++] = k;
			cpuabove[k] = cpuabove[i] || agg_e[i].kind == K_CPU_OP;
			stack[sp] = k;
			next[sp++] = agg_kidoff[k];
		}
	}
	/* Nodes not reached (a parent loop, which tl-tree never makes). */
	for (j = 0; j < agg_n; j++)
		if (agg_e[j].ghi < agg_e[j].glo)
			agg_e[j].ghi = agg_e[j].glo;
	/* Every GPU event by start, for the timelines. */
	agg_gts = xreallocarray(NULL, agg_n + 1, sizeof *agg_gts);
	for (agg_ngts = 0, j = 0; j < agg_n; j++)
		if (ISGPU(agg_e[j].kind))
			agg_gts[agg_ngts++] = (uint32_t)j;
	sortev(agg_gts, agg_ngts, 0, 1);
	agg_roots = xreallocarray(NULL, nhost + 1, sizeof *agg_roots);
	agg_nroots = 0;
	for (j = 0; j < nhost; j++)
		if (agg_e[host[j]].kind == K_CPU_OP && !cpuabove[host[j]])
			agg_roots[agg_nroots++] = host[j];
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
	size_t j;

	for (j = 0; j < agg_n; j++) {
		struct ev *e = &agg_e[j];

		e->ts = (double)(e->tsns - base);
		e->dur = (double)e->durns;
		e->end = e->ts + e->dur;
	}
	agg_nat = 1;
}

void
agg_clear(void)
{
	agg_n = 0;
	nperf = 0;
	agg_gpuonly = agg_python = 0;
	free(byuid);
	byuid = NULL;
	free(uidmap);
	uidmap = NULL;
	nuidmap = 0;
	free(agg_gord);
	free(agg_gts);
	agg_gts = NULL;
	agg_ngts = 0;
	free(agg_kidoff);
	free(agg_kids);
	free(agg_roots);
	agg_gord = agg_kidoff = agg_kids = agg_roots = NULL;
	agg_ngord = agg_nroots = 0;
	free(meta);
	meta = NULL;
	mcount = 0;
	free(namecls);
	namecls = NULL;
	capcls = 0;
	opcat_clear();
	tl_intern_free(agg_in);
	agg_in = NULL;
}

void
agg_freeall(void)
{
	agg_clear();
	free(agg_e);
	free(agg_perf);
	free(puid);
	free(luid);
	free(fuid);
	tl_hdr_free(&hdr);
	free(agg_tracename);
	free(tmp.buf);
}
