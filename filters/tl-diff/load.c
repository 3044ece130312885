/*
 * tl-diff: read one tree stream (tl-tree(1)) into the compact tree that
 * the merge walks: the host events in the tree and the linked GPU events,
 * with their children in TraceLens's order, the normalized names, and the
 * roots.
 */
#define _GNU_SOURCE		/* memmem */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/intern.h"
#include "../../common/mem.h"
#include "../../common/sort.h"
#include "../../common/tsv.h"
#include "td.h"

const char *
td_str(uint32_t id, size_t *n)
{
	return tl_intern_str(td_in, id, n);
}

int
td_strcmp(uint32_t a, uint32_t b)
{
	const char *x, *y;
	size_t nx, ny;
	int c;

	if (a == b)
		return 0;
	if (a == NONE || b == NONE)
		return a == NONE ? -1 : 1;
	x = td_str(a, &nx);
	y = td_str(b, &ny);
	c = memcmp(x, y, nx < ny ? nx : ny);
	return c != 0 ? c : nx < ny ? -1 : nx > ny;
}

int
td_cmpu32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int
td_cmpop(const void *a, const void *b)
{
	const struct op *x = a, *y = b;

	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

void
td_push(struct vec *v, uint32_t x)
{
	if (v->n == v->cap)
		xgrow(&v->v, &v->cap, v->n + 1, sizeof *v->v);
	v->v[v->n++] = x;
}

void
td_vfree(struct vec *v)
{
	free(v->v);
	memset(v, 0, sizeof *v);
}

void
td_idset(struct idarr *a, uint32_t id, uint32_t v)
{
	size_t old = a->cap;

	if (id >= a->cap) {
		xgrow(&a->v, &a->cap, (size_t)id + 1, sizeof *a->v);
		memset(a->v + old, 0, (a->cap - old) * sizeof *a->v);
	}
	a->v[id] = v;
}

void
td_opush(struct ops *o, int t, uint32_t i, uint32_t j)
{
	if (o->n == o->cap)
		xgrow(&o->v, &o->cap, o->n + 1, sizeof *o->v);
	o->v[o->n].t = (uint8_t)t;
	o->v[o->n].i = i;
	o->v[o->n++].j = j;
}

/* Name normalization (spec 1.1, and the vendor classes of tl-diff(1)). */

static char *nbuf;
static size_t nbufcap;
/* Cache: raw name id -> normalized id + 1, per (strip, vendor). */
static struct idarr ncache[4];

static int
ishex(int c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' &&
	    (c | 0x20) <= 'f');
}

static int
isspc(int c)
{
	/* Python's \s on str, for ASCII. */
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c &&
	    c <= 0x1f);
}

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

/*
 * The vendor-neutral class of a runtime or driver call: "hip", "cuda" or
 * "cu" and a version suffix taken off; all kernel launches, all copies,
 * all memsets and all graph launches one class each.
 */
static size_t
vendor(char *s, size_t n)
{
	size_t k = 0, e;
	char *r;

	if (n > 3 && memcmp(s, "hip", 3) == 0)
		k = 3;
	else if (n > 4 && memcmp(s, "cuda", 4) == 0)
		k = 4;
	else if (n > 2 && memcmp(s, "cu", 2) == 0 && s[2] >= 'A' &&
	    s[2] <= 'Z')
		k = 2;
	if (k == 0)
		return n;
	r = s + k;
	e = n - k;
	/* _v2, R0600, _ptsz, _ptds, _spt */
	if (e > 5 && r[e - 5] == 'R' && isdig(r[e - 4]) && isdig(r[e - 3]) &&
	    isdig(r[e - 2]) && isdig(r[e - 1]))
		e -= 5;
	else if (e > 5 && (memcmp(r + e - 5, "_ptsz", 5) == 0 ||
	    memcmp(r + e - 5, "_ptds", 5) == 0))
		e -= 5;
	else if (e > 4 && memcmp(r + e - 4, "_spt", 4) == 0)
		e -= 4;
	else {
		size_t d = e;

		while (d > 0 && isdig(r[d - 1]))
			d--;
		if (d < e && d >= 2 && r[d - 1] == 'v' && r[d - 2] == '_')
			e = d - 2;
	}
#define HAS(lit) (memmem(r, e, lit, sizeof lit - 1) != NULL)
#define STARTS(lit) (e >= sizeof lit - 1 && memcmp(r, lit, sizeof lit - 1) == 0)
	if (HAS("LaunchKernel") || HAS("LaunchCooperativeKernel"))
		return (size_t)sprintf(s, "<launch kernel>");
	if (STARTS("Memcpy"))
		return (size_t)sprintf(s, "<memcpy>");
	if (STARTS("Memset"))
		return (size_t)sprintf(s, "<memset>");
	if (STARTS("GraphLaunch"))
		return (size_t)sprintf(s, "<graph launch>");
#undef HAS
#undef STARTS
	memmove(s + 1, r, e);
	s[0] = '<';
	s[e + 1] = '>';
	return e + 2;
}

static uint32_t
normalize(uint32_t id, int strip, int rt)
{
	const char *s;
	size_t n, i, o, k, w, c = (size_t)(strip | rt << 1);
	uint32_t r;

	if ((r = td_idget(&ncache[c], id)) != 0)
		return r - 1;
	s = td_str(id, &n);
	xgrow(&nbuf, &nbufcap, 2 * n + 32, 1);
	/* 1. 0x[0-9a-fA-F]+ -> 0xXXXX; 2. .py(<digits>): -> .py: */
	for (i = 0, o = 0; i < n;) {
		if (s[i] == '0' && i + 2 < n && s[i + 1] == 'x' &&
		    ishex((unsigned char)s[i + 2])) {
			for (i += 2; i < n && ishex((unsigned char)s[i]); i++)
				;
			memcpy(nbuf + o, "0xXXXX", 6);
			o += 6;
			continue;
		}
		if (s[i] == '.' && i + 4 < n && memcmp(s + i, ".py(", 4) == 0 &&
		    isdig((unsigned char)s[i + 4])) {
			for (k = i + 4; k < n && isdig((unsigned char)s[k]); k++)
				;
			if (k + 1 < n && s[k] == ')' && s[k + 1] == ':') {
				memcpy(nbuf + o, ".py:", 4);
				o += 4;
				i = k + 2;
				continue;
			}
		}
		nbuf[o++] = s[i++];
	}
	n = o;
	if (strip) {
		/* (a) ":\s+\S+$" removed */
		for (k = n; k > 0 && !isspc((unsigned char)nbuf[k - 1]); k--)
			;
		for (w = k; w > 0 && isspc((unsigned char)nbuf[w - 1]); w--)
			;
		if (k < n && w < k && w > 0 && nbuf[w - 1] == ':')
			n = w - 1;
		/* (b) ".../file.py" -> "file.py" */
		if (n > 3 && memcmp(nbuf + n - 3, ".py", 3) == 0) {
			for (k = n; k > 0 && nbuf[k - 1] != '/'; k--)
				;
			if (k > 0 && n - k > 3) {
				memmove(nbuf, nbuf + k, n - k);
				n -= k;
			}
		}
	}
	nbuf[n] = '\0';
	if (strcmp(nbuf, "hipModuleLaunchKernel") == 0 ||
	    strcmp(nbuf, "cuLaunchKernel") == 0)
		n = (size_t)sprintf(nbuf, "__kernel_launch__");
	if (rt)
		n = vendor(nbuf, n);
	r = tl_intern(td_in, nbuf, n);
	td_idset(&ncache[c], id, r + 1);
	return r;
}

uint32_t
td_norm(struct side *s, uint32_t i, int strip)
{
	struct node *e = &s->n[i];
	int rt = !td_tracelens && TL_K_ISLAUNCH(e->kind);

	if (!strip)
		return e->norm;
	if (e->norms == NONE)
		e->norms = normalize(e->name, 1, rt);
	return e->norms;
}

/* Reading. */

/*
 * What a thread is reading and building, held where LeakSanitizer finds
 * it when an error exits the program on the way.
 */
static _Thread_local void *volatile held[8];

/* Streams (bytes, both) worth reading in two threads. */
#define THREADMIN	((off_t)16 << 20)

/* The deepest tree the merge takes (it recurses: see tl-diff.c's
 * stack for it). */
#define MAXDEPTH	10000

static uint32_t
finduid(const struct side *s, int64_t uid)
{
	size_t lo = 0, hi = s->nn, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->n[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nn && s->n[lo].uid == uid ? (uint32_t)lo : NONE;
}


/*
 * Children in TraceLens's order: the host children by (ts, uid), then
 * the GPU events by uid; the roots; the GPU counts.
 */
static void
build(struct side *s, const int64_t *puid)
{
	struct tl_sortkey *k;
	struct node *e;
	uint32_t *order, *pos, *st, *dep, *top, *byuid = NULL, i, p, x;
	size_t j, nh = 0, ns;
	int64_t mints = INT64_MAX, lo = 0, span = 0;

	/* uid -> index by table when the uids are dense enough */
	if (s->nn > 0) {
		lo = s->n[0].uid;
		span = s->n[s->nn - 1].uid - lo + 1;
		if (span > 0 && (uint64_t)span <= 4 * (uint64_t)s->nn + 1024) {
			held[3] = byuid = xmalloc((size_t)span *
			    sizeof *byuid);
			memset(byuid, 0xff, (size_t)span * sizeof *byuid);
			for (i = 0; i < s->nn; i++)
				byuid[s->n[i].uid - lo] = i;
		}
	}
	for (i = 0; i < s->nn; i++) {
		if (puid[i] == INT64_MIN)
			s->n[i].parent = NONE;
		else if ((p = byuid == NULL ? finduid(s, puid[i]) :
		    puid[i] >= lo && puid[i] - lo < span ?
		    byuid[puid[i] - lo] : NONE) == NONE)
			tl_errx(2, "%s: event %" PRId64 ": parent %" PRId64
			    " is not in the tree", s->path, s->n[i].uid,
			    puid[i]);
		else
			s->n[i].parent = p;
		s->n[i].up = s->n[i].parent;
		if (!TL_K_ISGPU(s->n[i].kind)) {
			nh++;
			if (s->n[i].ts < mints)
				mints = s->n[i].ts;
		}
	}
	free(byuid);
	k = xmalloc((nh ? nh : 1) * sizeof *k);
	for (i = 0, j = 0; i < s->nn; i++)
		if (!TL_K_ISGPU(s->n[i].kind)) {
			k[j].k = (uint64_t)s->n[i].ts - (uint64_t)mints;
			k[j++].i = i;
		}
	tl_key_sort(k, nh);
	held[4] = order = xmalloc((nh ? nh : 1) * sizeof *order);
	for (j = 0; j < nh; j++)
		order[j] = k[j].i;
	free(k);

	/* Children. */
	pos = xcalloc(s->nn ? s->nn : 1, sizeof *pos);
	for (i = 0; i < s->nn; i++)
		if ((p = s->n[i].parent) != NONE)
			s->n[p].nkid++;
	for (i = 0, j = 0; i < s->nn; i++) {
		s->n[i].kid = (uint32_t)j;
		pos[i] = (uint32_t)j;
		j += s->n[i].nkid;
	}
	s->kids = xmalloc((j ? j : 1) * sizeof *s->kids);
	for (j = 0; j < nh; j++)
		if ((p = s->n[order[j]].parent) != NONE)
			s->kids[pos[p]++] = order[j];
	for (i = 0; i < s->nn; i++)
		if (TL_K_ISGPU(s->n[i].kind) && (p = s->n[i].parent) != NONE)
			s->kids[pos[p]++] = i;
	free(pos);

	if (s->nn > 0)
		tl_tree_acyclic(s->path, s->nn, &s->n[0].parent, &s->n[0].uid,
		    sizeof *s->n);
	/*
	 * Depth first from the tops: the GPU counts (after the children),
	 * a cpu_op above (before).
	 */
	held[5] = st = xmalloc((s->nn + 1) * sizeof *st);
	held[6] = dep = xcalloc(s->nn + 1, sizeof *dep);
	top = s->top = xmalloc((s->nn + 1) * sizeof *top);
	for (i = 0; i < s->nn; i++) {
		if (s->n[i].parent != NONE)
			continue;
		st[0] = i;
		for (ns = 1; ns > 0;) {
			x = st[ns - 1];
			e = &s->n[x];
			if (!(e->flags & N_SEEN)) {
				e->flags |= N_SEEN;
				p = e->parent;
				if (p != NONE && (s->n[p].kind == TL_K_CPU_OP ||
				    (s->n[p].flags & N_CPUANC)))
					e->flags |= N_CPUANC;
				top[x] = p == NONE ? x : top[p];
				if (p != NONE && (dep[x] = dep[p] + 1) > MAXDEPTH)
					tl_errx(2, "%s: event %" PRId64 ": more "
					    "than %d levels deep", s->path,
					    e->uid, MAXDEPTH);
				if (dep[x] > s->maxdepth)
					s->maxdepth = dep[x];
				for (j = e->nkid; j-- > 0;)
					st[ns++] = s->kids[e->kid + j];
				continue;
			}
			ns--;
			if (TL_K_ISGPU(e->kind))
				e->ngpu = 1;
			if (e->parent != NONE)
				s->n[e->parent].ngpu += e->ngpu;
		}
	}
	free(st);
	free(dep);
	/* The cpu roots in (ts, uid) order. */
	s->roots = xmalloc((nh ? nh : 1) * sizeof *s->roots);
	s->nroots = 0;
	for (j = 0; j < nh; j++) {
		e = &s->n[order[j]];
		if (e->kind == TL_K_CPU_OP && !(e->flags & N_CPUANC))
			s->roots[s->nroots++] = order[j];
	}
	free(order);
}

/*
 * TraceLens's top_level_root: from the top of each cpu root's tree, down
 * through single children that are neither cpu_ops nor dispatch nodes.
 * With --tracelens the top takes over the children of the node reached,
 * as TraceLens does to its tree. Roots seen before are dropped.
 */
static void
toproots(struct side *s)
{
	uint32_t r, c, d, *seen, *k;
	size_t i, j, n = 0;

	seen = xcalloc((s->nn + 31) / 32 + 1, sizeof *seen);
	for (i = 0; i < s->nroots; i++) {
		r = s->top[s->roots[i]];
		for (d = r; s->n[d].nkid == 1; d = c) {
			c = s->kids[s->n[d].kid];
			if (s->n[c].kind == TL_K_CPU_OP ||
			    (s->n[c].flags & N_DISPATCH))
				break;
		}
		if (d != r && td_tracelens) {
			s->n[r].kid = s->n[d].kid;
			s->n[r].nkid = s->n[d].nkid;
			k = s->kids + s->n[d].kid;
			for (j = 0; j < s->n[d].nkid; j++)
				s->n[k[j]].parent = r;
		}
		if (seen[d / 32] & (1u << (d % 32)))
			continue;
		seen[d / 32] |= 1u << (d % 32);
		s->roots[n++] = d;
	}
	s->nroots = n;
	free(seen);
	free(s->top);
	s->top = NULL;
}

/*
 * Read one tree stream into s, its strings into the table in (not td_in
 * when the other side is read at the same time).
 */
static void
load(struct side *s, const char *path, struct tl_intern *in)
{
	static const int argcol[4] = {
		TL_C_DIMS, TL_C_STRIDES, TL_C_TYPES, TL_C_CONCRETE
	};
	struct tl_trace *tr;
	struct node *e;
	struct tl_sortkey *uk;
	int64_t *puid = NULL, *pu, v;
	size_t cappuid = 0, capn = 0, n, i;
	const char *str;
	char num[24];
	int kind, sorted = 1, j;
	uint32_t a[4];

	s->path = strcmp(path, "-") == 0 ? "<stdin>" : path;
	held[0] = tr = tl_trace_open(1, (char *const *)&path, TL_S_TREE,
	    TL_COL(TL_C_TS) | TL_COL(TL_C_DUR), TL_COL(TL_C_MODULE) |
	    TL_COL(TL_C_SUBTREE) | TL_COL(TL_C_DIMS) | TL_COL(TL_C_STRIDES) |
	    TL_COL(TL_C_TYPES) | TL_COL(TL_C_CONCRETE));
	if (!tl_trace_next(tr)) {
		if (tr->status == 0)
			tl_errx(2, "%s: empty input: no header", path);
		exit(2);
	}
	while ((j = tl_trace_row(tr)) != TL_ROW_END) {
		if (j != TL_ROW_EVENT)
			continue;
		s->nevents++;
		kind = tr->kind;
		if (TL_K_ISGPU(kind)) {
			s->ngpuev++;
			if (tr->t->fl[tr->col[TL_C_DEPTH]] == 0) {
				s->nunlinked++;
				continue;
			}
		}
		if (tr->t->fl[tr->col[TL_C_DEPTH]] == 0)
			continue;
		tl_trace_hold(tr->t, s->nn);
		if (s->nn == UINT32_MAX - 1)
			tl_tsv_errx(tr->t, "too many events");
		xgrow(&s->n, &capn, s->nn + 1, sizeof *s->n);
		xgrow(&puid, &cappuid, s->nn + 1, sizeof *puid);
		held[2] = puid;
		e = &s->n[s->nn];
		memset(e, 0, sizeof *e);
		e->uid = tl_trace_uid(tr);
		if (!tl_trace_i64(tr, TL_C_TS, &e->ts))
			tl_tsv_errx(tr->t, "event in the tree without ts_ns");
		if (!tl_trace_i64(tr, TL_C_DUR, &e->dur) || e->dur < 0)
			e->dur = 0;
		if (!tl_trace_i64(tr, TL_C_SUBTREE, &e->sub))
			e->sub = -1;
		puid[s->nn] = tl_trace_i64(tr, TL_C_PARENT, &v) ? v : INT64_MIN;
		if (s->nn > 0 && e->uid <= s->n[s->nn - 1].uid)
			sorted = 0;
		e->kind = (uint8_t)kind;
		if (kind == TL_K_PYTHON)
			s->npython++;
		if ((str = tl_trace_str(tr, TL_C_NAME, &n)) == NULL) {
			n = (size_t)snprintf(num, sizeof num, "%" PRId64,
			    e->uid);
			str = num;
		}
		e->name = tl_intern(in, str, n);
		if (TL_K_ISLAUNCH(kind) &&
		    !((n == 15 && memcmp(str, "cudaGraphLaunch", 15) == 0) ||
		    (n == 14 && memcmp(str, "hipGraphLaunch", 14) == 0)))
			e->flags |= N_DISPATCH;
		e->module = NONE;
		if ((str = tl_trace_str(tr, TL_C_MODULE, &n)) != NULL)
			e->module = tl_intern(in, str, n);
		e->args = NONE;
		if (kind == TL_K_CPU_OP) {
			int any = 0;

			for (j = 0; j < 4; j++) {
				a[j] = NONE;
				if ((str = tl_trace_str(tr, argcol[j], &n)) !=
				    NULL) {
					a[j] = tl_intern(in, str, n);
					any = 1;
				}
			}
			if (any) {
				xgrow(&s->args, &s->capargs, s->nargs + 1,
				    sizeof *s->args);
				memcpy(s->args[s->nargs].a, a, sizeof a);
				e->args = (uint32_t)s->nargs++;
			}
		}
		s->nn++;
	}
	if (tr->more)
		tl_tsv_errx(tr->t, "a second trace: tl-diff compares one "
		    "trace with one");
	s->label = xstrdup(tr->name);
	if (tl_trace_next(tr))
		tl_errx(2, "%s: more than one stream: tl-diff compares one "
		    "trace with one", path);
	if (tr->status != 0)
		exit(2);
	tl_trace_close(tr);
	held[0] = NULL;

	if (!sorted) {
		uk = xmalloc((s->nn ? s->nn : 1) * sizeof *uk);
		for (i = 0; i < s->nn; i++) {
			uk[i].k = (uint64_t)s->n[i].uid ^ UINT64_C(1) << 63;
			uk[i].i = (uint32_t)i;
		}
		tl_key_sort(uk, s->nn);
		e = xmalloc((s->nn ? s->nn : 1) * sizeof *e);
		held[1] = pu = xmalloc((s->nn ? s->nn : 1) * sizeof *pu);
		for (i = 0; i < s->nn; i++) {
			e[i] = s->n[uk[i].i];
			pu[i] = puid[uk[i].i];
			if (i > 0 && e[i].uid == e[i - 1].uid)
				tl_errx(2, "%s: duplicate uid %" PRId64,
				    path, e[i].uid);
		}
		free(s->n);
		s->n = e;
		free(puid);
		held[2] = puid = pu;
		free(uk);
	}
	build(s, puid);
	free(puid);
	toproots(s);
}

struct job {
	struct side *s;
	const char *path;
	struct tl_intern *in;
};

static void *
loadjob(void *arg)
{
	struct job *j = arg;

	load(j->s, j->path, j->in);
	return NULL;
}

/* The ids of s, from the table in, made ids of td_in. */
static void
remap(struct side *s, struct tl_intern *in)
{
	uint32_t *map, i, n = tl_intern_count(in);
	const char *str;
	size_t len, k;
	int j;

	map = xmalloc(((size_t)n + 1) * sizeof *map);
	for (i = 0; i < n; i++) {
		str = tl_intern_str(in, i, &len);
		map[i] = tl_intern(td_in, str, len);
	}
	for (k = 0; k < s->nn; k++) {
		s->n[k].name = map[s->n[k].name];
		if (s->n[k].module != NONE)
			s->n[k].module = map[s->n[k].module];
	}
	for (k = 0; k < s->nargs; k++)
		for (j = 0; j < 4; j++)
			if (s->args[k].a[j] != NONE)
				s->args[k].a[j] = map[s->args[k].a[j]];
	free(map);
}

/* The size of a regular file, or -1. */
static off_t
filesize(const char *path)
{
	struct stat st;

	if (strcmp(path, "-") == 0 || stat(path, &st) < 0 ||
	    !S_ISREG(st.st_mode))
		return -1;
	return st.st_size;
}

/*
 * Read the two streams and normalize the names. When both are files of
 * some size, the variant is read in a second thread, into a string table
 * of its own, while the baseline is read.
 */
void
td_load(const char *path0, const char *path1)
{
	struct job j = { &td_s[1], path1, NULL };
	struct tl_intern *in1;
	pthread_t th;
	off_t n0 = filesize(path0), n1 = filesize(path1);
	size_t i;
	int side, rt, threaded = 0;

	in1 = tl_intern_new();
	j.in = in1;
	if (n0 >= 0 && n1 >= 0 && n0 + n1 >= THREADMIN)
		threaded = pthread_create(&th, NULL, loadjob, &j) == 0;
	load(&td_s[0], path0, td_in);
	if (threaded)
		pthread_join(th, NULL);
	else
		load(&td_s[1], path1, in1);
	remap(&td_s[1], in1);
	tl_intern_free(in1);
	for (side = 0; side < 2; side++)
		for (i = 0; i < td_s[side].nn; i++) {
			struct node *e = &td_s[side].n[i];

			rt = !td_tracelens && TL_K_ISLAUNCH(e->kind);
			e->norm = normalize(e->name, 0, rt);
			e->norms = NONE;
		}
}

void
td_free(struct side *s)
{
	int i;

	free(s->label);
	free(s->n);
	free(s->kids);
	free(s->args);
	free(s->roots);
	memset(s, 0, sizeof *s);
	if (s == &td_s[1]) {
		free(nbuf);
		nbuf = NULL;
		for (i = 0; i < 4; i++) {
			free(ncache[i].v);
			ncache[i].v = NULL;
			ncache[i].cap = 0;
		}
	}
}
