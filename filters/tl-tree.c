/*
 * tl-tree: read the event stream of tl-parse(1) and write the tree stream:
 * every row and column of the input, unchanged and in input order, plus
 * the columns of the call tree that TraceLens's Trace2Tree builds: host
 * events nested per (pid, tid) by time, runtime launches linked to the GPU
 * events they started, the op that launched each GPU event, the busy time
 * of the GPU events under each op, forward/backward links by sequence
 * number and the nn.Module stack. With -p or -u it draws the tree, or the
 * chain of parents of one node, instead.
 *
 * A trace is held as compact records (interned strings, integer times,
 * array indexes) for the events the tree needs; the input rows themselves
 * wait in a spool (memory, then a temporary file) until the trace's tree
 * is built and they can be written with their new columns.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/input.h"
#include "../common/intern.h"
#include "../common/interval.h"
#include "../common/limit.h"
#include "../common/mem.h"
#include "../common/sort.h"
#include "../common/tsv.h"

#define NONE		UINT32_MAX
#define NOID		INT64_MIN	/* absent correlation, id, ... */
#define BLEED_NS	1000		/* TraceLens: overlap < 1.0 us */
#define PL(n)		((n) == 1 ? "" : "s")
#define SPOOLMEM	(16 << 20)	/* spool bytes kept in memory */
#define SPOOLBUF	(1 << 20)

enum {
	K_OTHER, K_AC2G,
	K_CPU_OP, K_RUNTIME, K_DRIVER, K_PYTHON, K_ANNOT,	/* host */
	K_KERNEL, K_MEMCPY, K_MEMSET				/* GPU */
};

#define ISHOST(k)	((k) >= K_CPU_OP && (k) <= K_ANNOT)
#define ISGPU(k)	((k) >= K_KERNEL)
#define ISLAUNCH(k)	((k) == K_RUNTIME || (k) == K_DRIVER)

static const char *const kindname[] = {
	"", "ac2g", "cpu_op", "cuda_runtime", "cuda_driver",
	"python_function", "user_annotation", "kernel", "gpu_memcpy",
	"gpu_memset"
};

enum {
	F_NOTS = 1 << 0,	/* no ts_ns: left out of the tree */
	F_TREE = 1 << 1,	/* host event placed by the host pass */
	F_DROPPED = 1 << 2,	/* ... but left out by the bleed rule */
	F_LINKED = 1 << 3,	/* GPU event reached by a launch */
	F_EXECUTE = 1 << 4,	/* cpu_op "execute": not a launcher */
	F_GRAPH = 1 << 5,	/* cudaGraphLaunch / hipGraphLaunch */
	F_MODULE = 1 << 6,	/* python_function "nn.Module: ..." */
	F_EVALFN = 1 << 7,	/* autograd::engine::evaluate_function: */
	F_GPUBELOW = 1 << 8	/* (-g) a GPU event in the subtree */
};

/* One event the tree needs: tens of bytes. */
struct rec {
	int64_t uid, ts, end;
	union {
		struct {
			int64_t direct, subtree;	/* host: busy ns */
		} h;
		uint32_t launcher;			/* linked GPU */
	} u;
	uint32_t name, pid, tid;	/* interned, as written (escaped) */
	uint32_t parent, root, depth;
	uint32_t module;		/* nn_module: 0 none, 1 root, else
					 * the innermost frame's mnode + 2 */
	uint16_t flags;
	uint8_t kind;
};

/* The ac2g flow events of one id: the last "s" and the last "f". */
struct flow {
	uint32_t fpid, ftid;
	uint8_t s, f;
};

/* A record and a key: a sequence number, or a linking key. */
struct keyrec {
	int64_t key;
	uint32_t rec;
};

struct pair {
	uint32_t a, b;
};

/* Open addressing; v is a value + 1, 0 when the slot is empty. */
struct hslot {
	uint64_t h;
	uint32_t v;
};

struct htab {
	struct hslot *s;
	size_t mask, n;
};

/* Host call stack of one (pid, tid). */
struct thr {
	uint32_t pid, tid;
	uint32_t *st;
	size_t n, cap;
	uint32_t *mod;		/* the mnodes of its open module frames */
	size_t nmod, capmod;
};

/*
 * The nn.Module stacks: a node per module frame pushed, linked to the
 * node of the frame around it. An event holds its stack as one node; the
 * names are joined only as its row is written, so memory stays linear in
 * the events however deep and long the stacks are.
 */
struct mnode {
	const char *s;		/* the name, no trailing _<digits>: a */
	size_t n;		/* prefix of the interned event name */
	size_t len;		/* of the names down to here joined by ";" */
	uint32_t up;		/* the enclosing frame's node, or NONE */
};

/* Options. */
static int Aflag, gflag, pflag, Pflag;
static int64_t dlimit = -1;
static int64_t nodeuid, upuid;
static int nflag, uflag, eflag;
static int64_t eext;
static char *epid, *etid;
static int found;

/* Columns of the input. */
static int c_uid, c_ph, c_cat, c_name, c_pid, c_tid, c_ts, c_dur, c_id,
    c_corr, c_ext, c_seq, c_trace;
static struct tl_hdr hdr;	/* the first stream's */

static const char *const treecol[] = {
	"parent", "depth", "root", "launcher", "linked",
	"gpu_kernel_time_ns", "subtree_kernel_time_ns", "fwd_uid",
	"bwd_uids", "nn_module", NULL
};

/* The tree columns of a row that has none. */
#define NOTREE	"\t\t\t\t\t\t\t\t\t\t\n"
_Static_assert(sizeof NOTREE - 2 == sizeof treecol / sizeof *treecol - 1,
    "one TAB per tree column");

static struct tl_out out;

/*
 * The trace being read: a stream, or the part of one that a trace_file
 * row starts.
 */
static struct rec *R;
static size_t nrec, caprec;
static int64_t *corr, *extid;
static size_t capids;
static uint64_t *rowbit;	/* rows that have a record */
static size_t nrow, caprowbit;
static uint64_t nevrow;
static struct tl_intern *in;
static struct flow *flow;
static size_t nflow, capflow;
static struct htab flowtab;
static struct keyrec *sq;
static size_t nsq, capsq;
static uint32_t *pick;		/* -e matches */
static size_t npick, cappick;
static int lk;			/* 0 undecided, 1 correlation, 2 External id */
static char *segname;
static int64_t lastuid;
static int uidsorted;
static struct htab uidtab;
static uint64_t nnots, nnodur, nbadid, ngraph;
static struct tl_warns warns;
static uint64_t nhost, ndrop, ngpu, nlinked, nrefused, ndup;

/* The spool of the trace's rows. */
static struct {
	char *buf;
	size_t n, cap;
	int fd;
	char *path;
} sp = { NULL, 0, 0, -1, NULL };

static noreturn void
usage(void)
{
	fprintf(stderr,
	    "usage: tl-tree [-AP] [file ...]\n"
	    "       tl-tree -p [-AgP] [-d depth] [-e ext_id,pid,tid | -n uid] "
	    "[file ...]\n"
	    "       tl-tree -u uid [-AP] [-d depth] [file ...]\n");
	exit(1);
}

static void
warnev(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A warning about the trace. */
static void
warnev(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (warns.n >= TL_MAXSHOWN) {	/* only counted: not formatted */
		warns.n++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	tl_warns(&warns, "%s: %s", segname, msg);
}

/* Hash tables. */

static uint64_t hseed;		/* set per run: see main */

static uint64_t
mix(uint64_t x)
{
	/* splitmix64's finaliser: a bijection, so equal hashes mean equal
	 * 64-bit keys. The seed keeps a stream from choosing keys that all
	 * fall in one run of slots. */
	x ^= hseed;
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

typedef int heq(uint32_t v, const void *key);

/*
 * The slot holding the entry of hash h (for which eq holds, when eq is
 * not NULL), or the empty slot where it would go.
 */
static struct hslot *
hfind(struct htab *t, uint64_t h, heq *eq, const void *key)
{
	struct hslot *s;
	size_t i;

	if (t->s == NULL) {
		t->mask = 63;
		t->s = xcalloc(t->mask + 1, sizeof *t->s);
	}
	for (i = h & t->mask;; i = (i + 1) & t->mask) {
		s = &t->s[i];
		if (s->v == 0 || (s->h == h && (eq == NULL ||
		    eq(s->v - 1, key))))
			return s;
	}
}

/* Set the slot that hfind returned to v; the slot pointer is stale after. */
static void
hset(struct htab *t, struct hslot *s, uint64_t h, uint32_t v)
{
	struct hslot *old;
	size_t i, j, n;

	if (s->v != 0) {
		s->v = v + 1;
		return;
	}
	s->h = h;
	s->v = v + 1;
	if (++t->n * 2 <= t->mask)
		return;
	old = t->s;
	n = t->mask + 1;
	t->mask = 2 * n - 1;
	t->s = xcalloc(2 * n, sizeof *t->s);
	for (i = 0; i < n; i++) {
		if (old[i].v == 0)
			continue;
		for (j = old[i].h & t->mask; t->s[j].v != 0;
		    j = (j + 1) & t->mask)
			;
		t->s[j] = old[i];
	}
	free(old);
}

static void
hfree(struct htab *t)
{
	free(t->s);
	memset(t, 0, sizeof *t);
}

/* The spool. */

static void
spoolwrite(const char *p, size_t n)
{
	ssize_t k;

	while (n > 0) {
		k = write(sp.fd, p, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			tl_err(1, "%s", sp.path);
		}
		p += k;
		n -= (size_t)k;
	}
}

/* Move the spool to a temporary file, unlinked at once. */
static void
spill(void)
{
	const char *dir = getenv("TMPDIR");
	size_t n;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	n = strlen(dir) + sizeof "/tl-tree.XXXXXX";
	sp.path = xmalloc(n);
	snprintf(sp.path, n, "%s/tl-tree.XXXXXX", dir);
	if ((sp.fd = mkstemp(sp.path)) < 0)
		tl_err(1, "%s", sp.path);
	unlink(sp.path);
	spoolwrite(sp.buf, sp.n);
	sp.n = 0;
	if (sp.cap > SPOOLBUF) {
		free(sp.buf);
		sp.cap = SPOOLBUF;
		sp.buf = xmalloc(sp.cap);
	}
}

/* Keep one line (and its LF). */
static void
spool(const char *p, size_t n)
{
	if (sp.fd < 0 && sp.n + n + 1 > SPOOLMEM)
		spill();
	if (sp.fd >= 0 && sp.cap - sp.n < n + 1) {
		spoolwrite(sp.buf, sp.n);
		sp.n = 0;
		if (n + 1 > sp.cap) {
			spoolwrite(p, n);
			spoolwrite("\n", 1);
			return;
		}
	}
	xgrow(&sp.buf, &sp.cap, sp.n + n + 1, 1);
	memcpy(sp.buf + sp.n, p, n);
	sp.buf[sp.n + n] = '\n';
	sp.n += n + 1;
}

/*
 * Hand the spooled lines to fn, in order, each without its LF; then
 * empty the spool.
 */
static void
unspool(void (*fn)(const char *, size_t))
{
	char *p, *nl, *rd = NULL;
	size_t pos, have, cap;
	ssize_t k;

	if (sp.fd < 0) {
		/* By offsets: an empty spool may have no buffer. */
		for (pos = 0; pos < sp.n; pos = (size_t)(nl - sp.buf) + 1) {
			p = sp.buf + pos;
			nl = memchr(p, '\n', sp.n - pos);
			fn(p, (size_t)(nl - p));
		}
		sp.n = 0;
		if (sp.cap > SPOOLMEM / 4) {
			free(sp.buf);
			sp.buf = NULL;
			sp.cap = 0;
		}
		return;
	}
	spoolwrite(sp.buf, sp.n);
	sp.n = 0;
	if (lseek(sp.fd, 0, SEEK_SET) < 0)
		tl_err(1, "%s", sp.path);
	cap = SPOOLBUF;
	rd = xmalloc(cap);
	have = 0;
	for (;;) {
		if (have == cap)
			xgrow(&rd, &cap, cap + 1, 1);
		k = read(sp.fd, rd + have, cap - have);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			tl_err(1, "%s", sp.path);
		}
		if (k == 0)
			break;
		have += (size_t)k;
		for (pos = 0; (nl = memchr(rd + pos, '\n', have - pos)) !=
		    NULL; pos = (size_t)(nl - rd) + 1)
			fn(rd + pos, (size_t)(nl - (rd + pos)));
		memmove(rd, rd + pos, have - pos);
		have -= pos;
	}
	free(rd);
	close(sp.fd);
	sp.fd = -1;
	free(sp.path);
	sp.path = NULL;
}

/* Reading. */

static int
catkind(const char *s, size_t n)
{
#define IS(lit)	(n == sizeof lit - 1 && memcmp(s, lit, n) == 0)
	switch (n > 0 ? s[0] : 0) {
	case 'a':
		return IS("ac2g") ? K_AC2G : K_OTHER;
	case 'c':
		return IS("cpu_op") ? K_CPU_OP : IS("cuda_runtime") ?
		    K_RUNTIME : IS("cuda_driver") ? K_DRIVER : K_OTHER;
	case 'g':
		return IS("gpu_memcpy") ? K_MEMCPY : IS("gpu_memset") ?
		    K_MEMSET : K_OTHER;
	case 'k':
		return IS("kernel") ? K_KERNEL : K_OTHER;
	case 'p':
		return IS("python_function") ? K_PYTHON : K_OTHER;
	case 'u':
		return IS("user_annotation") ? K_ANNOT : K_OTHER;
	}
	return K_OTHER;
#undef IS
}

static int
same(const char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

static int
prefix(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && memcmp(s, p, k) == 0;
}

/* s[0..n) contains "launch", in any case. */
static int
haslaunch(const char *s, size_t n)
{
	static const char w[] = "launch";
	size_t i, j;

	for (i = 0; i + sizeof w - 1 <= n; i++) {
		for (j = 0; j < sizeof w - 1; j++)
			if ((s[i + j] | 0x20) != w[j])
				break;
		if (j == sizeof w - 1)
			return 1;
	}
	return 0;
}

/*
 * Field c as an integer id (correlation, External id, flow id, sequence
 * number): 1 when set; 0 when absent, or not an integer (counted and
 * reported, the value ignored).
 */
static int
getid(struct tl_tsv *t, int c, int64_t *v)
{
	const char *s = t->f[c];
	size_t n = t->fl[c];
	char q[TL_QUOTE_MAX];

	if (n == 0)
		return 0;
	if (tl_parse_i64(s, n, v) == 0 && *v != NOID)
		return 1;
	nbadid++;
	tl_warns(&warns, "%s:%" PRIu64 ": column \"%s\": not an integer: "
	    "\"%s\": ignored", t->name, t->lineno, t->col[c],
	    tl_quote(q, sizeof q, s, n));
	return 0;
}

static void
newflow(struct tl_tsv *t, int f)
{
	struct hslot *s;
	struct flow *w;
	int64_t id;
	uint64_t h;

	if (!getid(t, c_id, &id))
		return;
	h = mix((uint64_t)id);
	s = hfind(&flowtab, h, NULL, NULL);
	if (s->v == 0) {
		xgrow(&flow, &capflow, nflow + 1, sizeof *flow);
		memset(&flow[nflow], 0, sizeof *flow);
		w = &flow[nflow];
		hset(&flowtab, s, h, (uint32_t)nflow++);
	} else
		w = &flow[s->v - 1];
	if (f) {
		w->f = 1;
		w->fpid = tl_intern(in, t->f[c_pid], t->fl[c_pid]);
		w->ftid = tl_intern(in, t->f[c_tid], t->fl[c_tid]);
	} else
		w->s = 1;
}

/* Check that the uid of record i is new to the trace. */
static void
checkuid(struct tl_tsv *t, uint32_t i)
{
	struct hslot *s;
	uint32_t j;

	if (uidsorted) {
		if (i == 0 || R[i].uid > lastuid) {
			lastuid = R[i].uid;
			return;
		}
		/* Not increasing: from now on, look every uid up. */
		uidsorted = 0;
		for (j = 0; j < i; j++)
			hset(&uidtab, hfind(&uidtab, mix((uint64_t)R[j].uid),
			    NULL, NULL), mix((uint64_t)R[j].uid), j);
	}
	s = hfind(&uidtab, mix((uint64_t)R[i].uid), NULL, NULL);
	if (s->v != 0)
		tl_tsv_errx(t, "duplicate uid %" PRId64, R[i].uid);
	hset(&uidtab, s, mix((uint64_t)R[i].uid), i);
}

/* pid and tid repeat from row to row. */
static struct tl_intern_last lastpid = TL_INTERN_LAST,
    lasttid = TL_INTERN_LAST;

static void
newrec(struct tl_tsv *t, int kind)
{
	char **f = t->f;
	size_t *fl = t->fl;
	struct rec *e;
	int64_t dur, v;
	uint32_t i;

	if (nrec >= NONE - 1)
		tl_tsv_errx(t, "too many events in one trace");
	i = (uint32_t)nrec;
	xgrow(&R, &caprec, nrec + 1, sizeof *R);
	if (capids < caprec) {
		corr = xreallocarray(corr, caprec, sizeof *corr);
		extid = xreallocarray(extid, caprec, sizeof *extid);
		capids = caprec;
	}
	nrec++;
	e = &R[i];
	memset(e, 0, sizeof *e);
	e->kind = (uint8_t)kind;
	e->parent = e->root = NONE;
	(void)tl_tsv_i64(t, c_uid, &e->uid);	/* not empty: see row() */
	checkuid(t, i);
	e->name = tl_intern(in, f[c_name], fl[c_name]);
	e->pid = tl_intern_last(in, &lastpid, f[c_pid], fl[c_pid]);
	e->tid = tl_intern_last(in, &lasttid, f[c_tid], fl[c_tid]);
	if (!tl_tsv_i64(t, c_ts, &e->ts)) {
		e->flags |= F_NOTS;
		if (kind != K_OTHER) {
			nnots++;
			warnev("event %" PRId64 ": no ts_ns: left out of "
			    "the tree", e->uid);
		}
	} else {
		if (!tl_tsv_i64(t, c_dur, &dur) || dur < 0) {
			if (kind != K_OTHER) {
				nnodur++;
				warnev("event %" PRId64 ": %s dur_ns: taken "
				    "as 0", e->uid, fl[c_dur] == 0 ? "no" :
				    "negative");
			}
			dur = 0;
		}
		if (__builtin_add_overflow(e->ts, dur, &e->end))
			tl_tsv_errx(t, "ts_ns + dur_ns out of range");
	}
	corr[i] = getid(t, c_corr, &v) ? v : NOID;
	extid[i] = getid(t, c_ext, &v) ? v : NOID;
	if (getid(t, c_seq, &v)) {
		xgrow(&sq, &capsq, nsq + 1, sizeof *sq);
		sq[nsq].key = v;
		sq[nsq++].rec = i;
	}
	switch (kind) {
	case K_CPU_OP:
		if (same(f[c_name], fl[c_name], "execute"))
			e->flags |= F_EXECUTE;
		break;
	case K_RUNTIME:
	case K_DRIVER:
		if (same(f[c_name], fl[c_name], "cudaGraphLaunch") ||
		    same(f[c_name], fl[c_name], "hipGraphLaunch")) {
			e->flags |= F_GRAPH;
			ngraph++;
		}
		break;
	case K_PYTHON:
		if (prefix(f[c_name], fl[c_name], "nn.Module:"))
			e->flags |= F_MODULE;
		break;
	}
	if (prefix(f[c_name], fl[c_name],
	    "autograd::engine::evaluate_function:"))
		e->flags |= F_EVALFN;
	if (eflag && extid[i] == eext && same(f[c_pid], fl[c_pid], epid) &&
	    same(f[c_tid], fl[c_tid], etid)) {
		xgrow(&pick, &cappick, npick + 1, sizeof *pick);
		pick[npick++] = i;
	}
}

static void finish(void);

static void
startseg(const char *name)
{
	free(segname);
	segname = xstrdup(name);
	in = tl_intern_new();
	lk = 0;
	uidsorted = 1;
	nevrow = 0;
}

/* Count a row; say whether it has a record. */
static void
newrow(int hasrec)
{
	xgrow(&rowbit, &caprowbit, nrow / 64 + 1, sizeof *rowbit);
	if (nrow % 64 == 0)
		rowbit[nrow / 64] = 0;
	if (hasrec)
		rowbit[nrow / 64] |= (uint64_t)1 << (nrow % 64);
	nrow++;
}

static void
row(struct tl_tsv *t)
{
	char **f = t->f;
	size_t *fl = t->fl, n;
	const char *s;
	int fact, file, kind, keep;

	fact = fl[c_uid] == 0;		/* a row about the trace */
	file = fact && same(f[c_cat], fl[c_cat], "trace_file");
	if (file && nevrow > 0) {
		finish();
		startseg(t->name);
	}
	if (!pflag && !uflag)
		spool(f[0], (size_t)(f[t->ncol - 1] + fl[t->ncol - 1] - f[0]));
	if (fact) {
		newrow(0);
		if (file && (s = tl_tsv_str(t, c_name, &n)) != NULL) {
			free(segname);
			segname = xmemdup(s, n);
		}
		return;
	}
	nevrow++;
	kind = catkind(f[c_cat], fl[c_cat]);
	if ((kind == K_PYTHON && !Pflag) || (kind == K_ANNOT && !Aflag))
		kind = K_OTHER;
	if (lk == 0 && ISLAUNCH(kind) && haslaunch(f[c_name], fl[c_name]))
		lk = fl[c_corr] > 0 ? 1 : 2;
	if (kind == K_AC2G && fl[c_ph] == 1 &&
	    (f[c_ph][0] == 's' || f[c_ph][0] == 'f'))
		newflow(t, f[c_ph][0] == 'f');
	/* Events with a sequence number count for forward/backward. */
	keep = ISHOST(kind) || ISGPU(kind) || (kind == K_OTHER &&
	    fl[c_seq] > 0);
	newrow(keep);
	if (keep)
		newrec(t, kind);
}

/* Building the tree. */

static struct thr *thr;
static size_t nthr, capthr;
static struct htab thrtab;
static struct mnode *mnode;
static size_t nmnode, capmnode;

static struct thr *
thread(uint32_t pid, uint32_t tid)
{
	uint64_t h = mix((uint64_t)pid << 32 | tid);
	struct hslot *s = hfind(&thrtab, h, NULL, NULL);

	if (s->v != 0)
		return &thr[s->v - 1];
	xgrow(&thr, &capthr, nthr + 1, sizeof *thr);
	memset(&thr[nthr], 0, sizeof *thr);
	thr[nthr].pid = pid;
	thr[nthr].tid = tid;
	hset(&thrtab, s, h, (uint32_t)nthr);
	return &thr[nthr++];
}

static void
pop(struct thr *th)
{
	if (R[th->st[--th->n]].flags & F_MODULE)
		th->nmod--;
}

static void
push(struct thr *th, uint32_t i)
{
	struct mnode *m;
	const char *s;
	size_t n, k;

	xgrow(&th->st, &th->cap, th->n + 1, sizeof *th->st);
	th->st[th->n++] = i;
	if (!(R[i].flags & F_MODULE))
		return;
	/* The module's name without a trailing _<digits>. */
	s = tl_intern_str(in, R[i].name, &n);
	for (k = n; k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9'; k--)
		;
	if (k < n && k > 0 && s[k - 1] == '_')
		n = k - 1;
	xgrow(&mnode, &capmnode, nmnode + 1, sizeof *mnode);
	m = &mnode[nmnode];
	m->s = s;
	m->n = n;
	m->up = th->nmod > 0 ? th->mod[th->nmod - 1] : NONE;
	m->len = m->up != NONE ? mnode[m->up].len + 1 + n : n;
	xgrow(&th->mod, &th->capmod, th->nmod + 1, sizeof *th->mod);
	th->mod[th->nmod++] = (uint32_t)nmnode++;
}

static uint32_t *order;		/* host events by ts, stable */
static size_t norder;

/* Spec 2.4: nest the host events of each (pid, tid) by time. */
static void
hosttree(void)
{
	struct tl_sortkey *k;
	struct thr *th;
	struct rec *e, *top;
	int64_t mints = INT64_MAX;
	size_t i, j;

	for (i = 0, norder = 0; i < nrec; i++)
		if (ISHOST(R[i].kind) && !(R[i].flags & F_NOTS)) {
			norder++;
			if (R[i].ts < mints)
				mints = R[i].ts;
		}
	k = xmalloc((norder ? norder : 1) * sizeof *k);
	for (i = 0, j = 0; i < nrec; i++)
		if (ISHOST(R[i].kind) && !(R[i].flags & F_NOTS)) {
			k[j].k = (uint64_t)R[i].ts - (uint64_t)mints;
			k[j++].i = (uint32_t)i;
		}
	tl_key_sort(k, norder);
	order = xmalloc((norder ? norder : 1) * sizeof *order);
	for (j = 0; j < norder; j++)
		order[j] = k[j].i;
	free(k);

	for (j = 0; j < norder; j++) {
		i = order[j];
		e = &R[i];
		th = thread(e->pid, e->tid);
		while (th->n > 0 && e->ts >= R[th->st[th->n - 1]].end)
			pop(th);
		e->flags |= F_TREE;
		if (th->n > 0 && e->end > (top = &R[th->st[th->n - 1]])->end) {
			if (top->end - e->ts < BLEED_NS && th->n >= 2)
				pop(th);
			else {
				e->flags |= F_DROPPED;
				e->root = (uint32_t)i;
				ndrop++;
				warnev("event %" PRId64 ": ends %" PRId64 " ns "
				    "after event %" PRId64 ", in which it "
				    "starts: left out of the tree", e->uid,
				    e->end - top->end, top->uid);
				continue;
			}
		}
		if (th->n >= tl_limit[TL_LIM_LEVELS]) {
			char lb[TL_LIMIT_STRMAX];

			tl_errx(1, "%s: event %" PRId64 ": nested deeper than "
			    "the limit (--limit %s)", segname, e->uid,
			    tl_limit_str(lb, TL_LIM_LEVELS));
		}
		if (Pflag)
			e->module = th->nmod > 0 ? th->mod[th->nmod - 1] + 2 :
			    1;
		if (th->n > 0) {
			top = &R[th->st[th->n - 1]];
			e->parent = th->st[th->n - 1];
			e->depth = top->depth + 1;
			e->root = top->root;
		} else
			e->root = (uint32_t)i;
		push(th, (uint32_t)i);
	}
	nhost = norder;
	for (j = 0; j < nthr; j++) {
		free(thr[j].st);
		free(thr[j].mod);
	}
	free(thr);
	thr = NULL;
	nthr = capthr = 0;
	hfree(&thrtab);
}

static int64_t *lkey;		/* the linking key of each record */

struct ptkey {
	uint32_t pid, tid;
	int64_t id;
};

static int
pteq(uint32_t v, const void *key)
{
	const struct ptkey *k = key;

	return R[v].pid == k->pid && R[v].tid == k->tid && lkey[v] == k->id;
}

static uint64_t
pthash(const struct ptkey *k)
{
	return mix(mix((uint64_t)k->pid << 32 | k->tid) ^ (uint64_t)k->id);
}

static int
cmpkey(const void *a, const void *b)
{
	const struct keyrec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->rec < y->rec ? -1 : x->rec > y->rec;
}

static void
attach(uint32_t r, uint32_t g)
{
	if (R[g].flags & F_LINKED) {
		ndup++;
		warnev("event %" PRId64 ": linked by event %" PRId64 " and by "
		    "event %" PRId64 ": the last kept", R[g].uid,
		    R[R[g].parent].uid, R[r].uid);
	}
	R[g].flags |= F_LINKED;
	R[g].parent = r;
}

/*
 * Bring the parent of GPU event g up to date: own is the last graph launch
 * of its key (or NONE), whose links linkgpu may not have made one by one;
 * the later of the two launches reached g last.
 */
static void
settle(uint32_t g, uint32_t own)
{
	if (own != NONE && own > R[g].parent)
		R[g].parent = own;
}

/* Where key k starts in a[0..n), sorted by key: n when it is not there. */
static size_t
firstkey(const struct keyrec *a, size_t n, int64_t k)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (a[mid].key < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && a[lo].key == k ? lo : n;
}

/* The op that launched GPU event g: spec 4, step 2. */
static uint32_t
launcher(uint32_t g)
{
	uint32_t r = R[g].parent, c;

	for (c = R[r].parent; c != NONE; c = R[c].parent) {
		if (R[c].kind == K_CPU_OP) {
			if (!(R[c].flags & F_EXECUTE))
				return c;
		} else if (R[c].kind != K_PYTHON && R[c].kind != K_ANNOT)
			break;
	}
	return r;
}

/* Spec 2.2, 2.5: link runtime launches to GPU events. */
static void
linkgpu(void)
{
	struct htab pt = { NULL, 0, 0 };
	struct keyrec *gl = NULL;
	struct hslot *s;
	struct ptkey key;
	struct flow *w;
	size_t i, j, ngl = 0, capgl = 0, lo, hi;
	uint64_t h;
	uint32_t g, *gend = NULL, *gown = NULL;

	lkey = lk == 1 ? corr : extid;
	for (i = 0; i < nrec; i++) {
		if ((R[i].flags & F_NOTS) || lkey[i] == NOID ||
		    R[i].kind == K_OTHER)
			continue;
		key.pid = R[i].pid;
		key.tid = R[i].tid;
		key.id = lkey[i];
		h = pthash(&key);
		hset(&pt, hfind(&pt, h, pteq, &key), h, (uint32_t)i);
		if (ngraph > 0 && ISGPU(R[i].kind)) {
			xgrow(&gl, &capgl, ngl + 1, sizeof *gl);
			gl[ngl].key = lkey[i];
			gl[ngl++].rec = (uint32_t)i;
		}
	}
	/*
	 * The GPU events by key, in runs; at the start of each run, its end
	 * and the last graph launch of the key (NONE before the first).
	 */
	if (ngl > 0) {
		qsort(gl, ngl, sizeof *gl, cmpkey);
		gend = xmalloc(ngl * sizeof *gend);
		gown = xmalloc(ngl * sizeof *gown);
		for (lo = 0; lo < ngl; lo = hi) {
			for (hi = lo + 1; hi < ngl && gl[hi].key == gl[lo].key;
			    hi++)
				;
			gend[lo] = (uint32_t)hi;
			gown[lo] = NONE;
		}
	}
	for (i = 0; i < nrec; i++) {
		if (!ISLAUNCH(R[i].kind) || (R[i].flags & F_NOTS) ||
		    lkey[i] == NOID)
			continue;
		if (R[i].flags & F_GRAPH) {
			if ((lo = firstkey(gl, ngl, lkey[i])) == ngl)
				continue;
			hi = gend[lo];
			if (gown[lo] == NONE)
				for (j = lo; j < hi; j++)
					attach((uint32_t)i, gl[j].rec);
			else {
				/*
				 * A graph launch of a key that had one: every
				 * event of the run is linked already. Attach
				 * the ones whose warnings are shown; count the
				 * rest, settled at the end (linear, not the
				 * launches times the events).
				 */
				for (j = lo; j < hi && warns.n < TL_MAXSHOWN;
				    j++) {
					settle(gl[j].rec, gown[lo]);
					attach((uint32_t)i, gl[j].rec);
				}
				ndup += hi - j;
				warns.n += hi - j;
			}
			gown[lo] = (uint32_t)i;
			continue;
		}
		s = hfind(&flowtab, mix((uint64_t)lkey[i]), NULL, NULL);
		if (s->v == 0)
			continue;
		w = &flow[s->v - 1];
		if (!w->s || !w->f)
			continue;
		key.pid = w->fpid;
		key.tid = w->ftid;
		key.id = lkey[i];
		s = hfind(&pt, pthash(&key), pteq, &key);
		if (s->v == 0)
			continue;
		g = s->v - 1;
		if (!ISGPU(R[g].kind)) {
			nrefused++;
			warnev("event %" PRId64 ": flow %" PRId64 " leads to "
			    "event %" PRId64 ", which is not a GPU event: "
			    "refused", R[i].uid, lkey[i], R[g].uid);
			continue;
		}
		if (ngl > 0 && (R[g].flags & F_LINKED) &&
		    (lo = firstkey(gl, ngl, lkey[g])) < ngl)
			settle(g, gown[lo]);
		attach((uint32_t)i, g);
	}
	for (lo = 0; lo < ngl; lo = gend[lo])
		for (j = lo; j < gend[lo]; j++)
			settle(gl[j].rec, gown[lo]);
	hfree(&pt);
	free(gl);
	free(gend);
	free(gown);
	for (i = 0; i < nrec; i++) {
		if (!ISGPU(R[i].kind))
			continue;
		ngpu++;
		if (!(R[i].flags & F_LINKED))
			continue;
		nlinked++;
		g = R[i].parent;
		R[i].depth = R[g].depth + 1;
		R[i].root = R[g].root;
		R[i].u.launcher = launcher((uint32_t)i);
	}
}

/* Spec 2.8, 4: direct and subtree busy time of every host node. */
static void
kerneltime(void)
{
	uint32_t *cnt, *start, *cur, p;
	struct tl_iv *iv, *tmp;
	size_t i, j, n = 0, next = 0;

	cnt = xcalloc(nrec, sizeof *cnt);
	start = xcalloc(nrec, sizeof *start);
	cur = xcalloc(nrec, sizeof *cur);
	for (i = 0; i < nrec; i++)
		if (R[i].flags & F_LINKED) {
			cnt[R[i].parent]++;
			n++;
		}
	iv = xmalloc((n ? n : 1) * sizeof *iv);
	tmp = xmalloc((n ? n : 1) * sizeof *tmp);
	/*
	 * Give each node a range of iv, nested as the tree is: the GPU
	 * events of a subtree are then one range. Parents come before
	 * their children in order.
	 */
	for (j = norder; j-- > 0;)
		if ((p = R[order[j]].parent) != NONE)
			cnt[p] += cnt[order[j]];
	for (j = 0; j < norder; j++) {
		i = order[j];
		if ((p = R[i].parent) == NONE) {
			start[i] = (uint32_t)next;
			next += cnt[i];
		} else {
			start[i] = cur[p];
			cur[p] += cnt[i];
		}
		cur[i] = start[i];
	}
	for (i = 0; i < nrec; i++)
		if (R[i].flags & F_LINKED) {
			iv[cur[R[i].parent]].start = R[i].ts;
			iv[cur[R[i].parent]++].end = R[i].end;
		}
	/* Children first, so each range is mostly sorted runs. */
	for (j = norder; j-- > 0;) {
		i = order[j];
		R[i].u.h.subtree = tl_iv_busy(iv + start[i], cnt[i], tmp);
	}
	/* Direct: the GPU events each node is the launcher of. */
	memset(cnt, 0, nrec * sizeof *cnt);
	for (i = 0; i < nrec; i++)
		if (R[i].flags & F_LINKED)
			cnt[R[i].u.launcher]++;
	for (i = 0, next = 0; i < nrec; i++) {
		cur[i] = start[i] = (uint32_t)next;
		next += cnt[i];
	}
	for (i = 0; i < nrec; i++)
		if (R[i].flags & F_LINKED) {
			iv[cur[R[i].u.launcher]].start = R[i].ts;
			iv[cur[R[i].u.launcher]++].end = R[i].end;
		}
	for (j = 0; j < norder; j++) {
		i = order[j];
		R[i].u.h.direct = tl_iv_busy(iv + start[i], cnt[i], tmp);
	}
	free(cnt);
	free(start);
	free(cur);
	free(iv);
	free(tmp);
}

static struct pair *fwd, *bwd;	/* (bwd, fwd) by bwd, (fwd, bwd) by fwd */
static size_t nfb, capfwd;

static int
cmppair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return x->b < y->b ? -1 : x->b > y->b;
}

/* Spec 2.6: forward/backward links by sequence number. */
static void
fwdbwd(void)
{
	size_t a, b, j;
	uint32_t B, F, x;

	if (nsq > 1)
		qsort(sq, nsq, sizeof *sq, cmpkey);
	for (a = 0; a < nsq; a = b) {
		for (b = a; b < nsq && sq[b].key == sq[a].key; b++)
			;
		for (B = NONE, j = a; j < b && B == NONE; j++)
			if (R[sq[j].rec].flags & F_EVALFN)
				B = sq[j].rec;
		if (B == NONE)
			continue;
		for (F = NONE, j = a; j < b; j++) {
			x = sq[j].rec;
			if ((R[x].pid == R[B].pid && R[x].tid == R[B].tid) ||
			    (R[x].flags & F_NOTS))
				continue;
			if (F == NONE || R[x].ts > R[F].ts)
				F = x;
		}
		if (F == NONE)
			continue;
		xgrow(&fwd, &capfwd, nfb + 1, sizeof *fwd);
		fwd[nfb].a = B;
		fwd[nfb++].b = F;
	}
	bwd = xmalloc((nfb ? nfb : 1) * sizeof *bwd);
	for (j = 0; j < nfb; j++) {
		bwd[j].a = fwd[j].b;
		bwd[j].b = fwd[j].a;
	}
	if (nfb > 1) {
		qsort(fwd, nfb, sizeof *fwd, cmppair);
		qsort(bwd, nfb, sizeof *bwd, cmppair);
	}
}

/* Writing the stream. */

static size_t orow, orec, ofwd, obwd;

static void
putuid(uint32_t i)
{
	tl_out_i64(&out, R[i].uid);
}

/* The module stack written last, joined: consecutive rows share it. */
static char *mjoin;
static size_t capmjoin;
static uint32_t mjoined = NONE;

/*
 * The names of module frame m and of those around it, outermost first,
 * joined from the innermost back.
 */
static void
putmodules(uint32_t m)
{
	size_t at;

	if (m != mjoined) {
		mjoined = m;
		at = mnode[m].len;
		xgrow(&mjoin, &capmjoin, at, 1);
		for (;;) {
			at -= mnode[m].n;
			memcpy(mjoin + at, mnode[m].s, mnode[m].n);
			if ((m = mnode[m].up) == NONE)
				break;
			mjoin[--at] = ';';
		}
	}
	tl_out_raw(&out, mjoin, mnode[mjoined].len);
}

static void
outrow(const char *line, size_t len)
{
	struct rec *e;
	size_t n;
	int tree;
	uint32_t i;

	tl_out_raw(&out, line, len);
	if (!(rowbit[orow / 64] >> (orow % 64) & 1)) {
		orow++;
		tl_out_raw(&out, NOTREE, sizeof NOTREE - 1);
		return;
	}
	orow++;
	i = (uint32_t)orec++;
	e = &R[i];
	tree = (e->flags & (F_TREE | F_LINKED)) != 0;
	tl_out_char(&out, '\t');
	if (e->parent != NONE)
		putuid(e->parent);
	tl_out_char(&out, '\t');
	if (tree)
		tl_out_i64(&out, e->depth);
	tl_out_char(&out, '\t');
	if (tree)
		putuid(e->root);
	tl_out_char(&out, '\t');
	if (e->flags & F_LINKED)
		putuid(e->u.launcher);
	tl_out_char(&out, '\t');
	if (ISGPU(e->kind))
		tl_out_char(&out, e->flags & F_LINKED ? '1' : '0');
	tl_out_char(&out, '\t');
	if (e->flags & F_TREE)
		tl_out_i64(&out, e->u.h.direct);
	tl_out_char(&out, '\t');
	if (e->flags & F_TREE)
		tl_out_i64(&out, e->u.h.subtree);
	tl_out_char(&out, '\t');
	if (ofwd < nfb && fwd[ofwd].a == i)
		putuid(fwd[ofwd++].b);
	tl_out_char(&out, '\t');
	for (n = 0; obwd < nfb && bwd[obwd].a == i; n++) {
		if (n > 0)
			tl_out_char(&out, ',');
		putuid(bwd[obwd++].b);
	}
	tl_out_char(&out, '\t');
	if (e->module == 1)
		tl_out_raw(&out, "root", 4);
	else if (e->module > 1)
		putmodules(e->module - 2);
	tl_out_char(&out, '\n');
}

/* Drawing. */

static uint32_t *kidoff, *kid;

static void
children(void)
{
	uint32_t *pos;
	size_t i, j;

	kidoff = xcalloc(nrec + 1, sizeof *kidoff);
	for (i = 0; i < nrec; i++)
		if (R[i].parent != NONE)
			kidoff[R[i].parent + 1]++;
	for (i = 0; i < nrec; i++)
		kidoff[i + 1] += kidoff[i];
	kid = xmalloc((kidoff[nrec] ? kidoff[nrec] : 1) * sizeof *kid);
	pos = xmalloc((nrec ? nrec : 1) * sizeof *pos);
	memcpy(pos, kidoff, nrec * sizeof *pos);
	/* Host children in push (ts) order, then GPU events. */
	for (j = 0; j < norder; j++)
		if (R[order[j]].parent != NONE)
			kid[pos[R[order[j]].parent]++] = order[j];
	for (i = 0; i < nrec; i++)
		if (R[i].flags & F_LINKED)
			kid[pos[R[i].parent]++] = (uint32_t)i;
	free(pos);
	if (!gflag)
		return;
	for (i = 0; i < nrec; i++)
		if (R[i].flags & F_LINKED)
			for (j = i; j != NONE && !(R[j].flags & F_GPUBELOW);
			    j = R[j].parent)
				R[j].flags |= F_GPUBELOW;
}

static int
shown(uint32_t i)
{
	return !gflag || (R[i].flags & F_GPUBELOW);
}

/* Write a duration in ns as microseconds, exactly. */
static void
putus(int64_t ns)
{
	char b[32];
	int n;

	n = snprintf(b, sizeof b, "%s%" PRId64 ".%03" PRId64, ns < 0 ? "-" :
	    "", (ns < 0 ? -ns : ns) / 1000, (ns < 0 ? -ns : ns) % 1000);
	tl_out_raw(&out, b, (size_t)n);
}

static void
drawnode(uint32_t i)
{
	const char *s;
	size_t n;

	tl_out_raw(&out, "UID: ", 5);
	putuid(i);
	tl_out_raw(&out, ", Category: ", 12);
	tl_out_raw(&out, kindname[R[i].kind], strlen(kindname[R[i].kind]));
	tl_out_raw(&out, ", Name: ", 8);
	s = tl_intern_str(in, R[i].name, &n);
	tl_out_raw(&out, s, n);
	if (!(R[i].flags & F_NOTS)) {
		tl_out_raw(&out, ", Duration: ", 12);
		putus(R[i].end - R[i].ts);
		tl_out_raw(&out, " us", 3);
	}
	if ((R[i].flags & F_TREE) && R[i].u.h.subtree > 0) {
		tl_out_raw(&out, ", Kernel time: ", 15);
		putus(R[i].u.h.subtree);
		tl_out_raw(&out, " us", 3);
	}
	tl_out_char(&out, '\n');
}

/* Draw the subtree of node top, down to dlimit levels below it. */
static void
draw(uint32_t top)
{
	struct frame {
		uint32_t node, k;	/* next child to look at */
		size_t plen;		/* prefix length of its children */
	} *st = NULL;
	size_t nst = 0, capst = 0, plen = 0, pcap = 0;
	char *pre = NULL;
	uint32_t c, k, nx;

	drawnode(top);
	xgrow(&st, &capst, 1, sizeof *st);
	st[nst++] = (struct frame){ top, kidoff[top], 0 };
	while (nst > 0) {
		struct frame *f = &st[nst - 1];

		for (k = f->k; k < kidoff[f->node + 1] && !shown(kid[k]); k++)
			;
		if (k == kidoff[f->node + 1] ||
		    (dlimit >= 0 && (int64_t)nst > dlimit)) {
			nst--;
			continue;
		}
		c = kid[k];
		for (nx = k + 1; nx < kidoff[f->node + 1] && !shown(kid[nx]);
		    nx++)
			;
		f->k = nx;
		plen = f->plen;
		tl_out_raw(&out, pre, plen);
		if (nx == kidoff[f->node + 1])
			tl_out_raw(&out, "\u2514\u2500\u2500 ", 10);
		else
			tl_out_raw(&out, "\u251c\u2500\u2500 ", 10);
		drawnode(c);
		xgrow(&pre, &pcap, plen + 6, 1);
		if (nx == kidoff[f->node + 1]) {
			memcpy(pre + plen, "    ", 4);
			plen += 4;
		} else {
			memcpy(pre + plen, "\u2502   ", 6);
			plen += 6;
		}
		xgrow(&st, &capst, nst + 1, sizeof *st);
		st[nst++] = (struct frame){ c, kidoff[c], plen };
	}
	free(st);
	free(pre);
}

static void
heading(void)
{
	if (c_trace < 0)
		return;
	tl_out_raw(&out, "trace: ", 7);
	tl_out_cstr(&out, segname);
	tl_out_char(&out, '\n');
}

/* The record of uid u, or NONE. */
static uint32_t
finduid(int64_t u)
{
	size_t i;

	for (i = 0; i < nrec; i++)
		if (R[i].uid == u)
			return (uint32_t)i;
	return NONE;
}

/* Nearer the root first, events in the tree before the others. */
static uint32_t
rank(uint32_t i)
{
	if (R[i].flags & (F_TREE | F_LINKED))
		return R[i].depth;
	return NONE;
}

static void
print(void)
{
	uint32_t i, best;
	size_t j;
	int64_t d;

	if (uflag) {
		if ((i = finduid(upuid)) == NONE)
			return;
		found = 1;
		heading();
		for (d = 0; i != NONE && (dlimit < 0 || d <= dlimit); d++) {
			if (d == 0)
				tl_out_raw(&out, "Node: ", 6);
			else {
				tl_out_i64(&out, d);
				tl_out_raw(&out, "-up: ", 5);
			}
			drawnode(i);
			i = R[i].parent;
		}
		return;
	}
	children();
	if (nflag || eflag) {
		if (nflag)
			best = finduid(nodeuid);
		else
			for (best = NONE, j = 0; j < npick; j++) {
				i = pick[j];
				if (best == NONE || rank(i) < rank(best))
					best = i;
			}
		if (best != NONE) {
			found = 1;
			heading();
			draw(best);
		}
	} else {
		heading();
		for (j = 0; j < norder; j++)
			if (R[order[j]].parent == NONE && shown(order[j]))
				draw(order[j]);
	}
	free(kidoff);
	free(kid);
	kidoff = kid = NULL;
}

/* Build the tree of the trace read so far, write it, and forget it. */
static void
finish(void)
{
	if (lk == 0)
		lk = 2;		/* no launch event: External id */
	hosttree();
	linkgpu();
	kerneltime();
	fwdbwd();
	if (pflag || uflag)
		print();
	else {
		orow = orec = ofwd = obwd = 0;
		unspool(outrow);
	}
	tl_warns_end(&warns, segname);
	if (ndrop > 0)
		tl_warnx("%s: %" PRIu64 " of %" PRIu64 " host events left "
		    "out of the tree: each ends after the event in which it "
		    "starts", segname, ndrop, nhost);
	if (nlinked < ngpu)
		tl_warnx("%s: %" PRIu64 " of %" PRIu64 " GPU events not "
		    "linked to a launch", segname, ngpu - nlinked, ngpu);
	if (nrefused > 0)
		tl_warnx("%s: %" PRIu64 " flow%s refused: %s to events that "
		    "are not GPU events", segname, nrefused, PL(nrefused),
		    nrefused == 1 ? "it leads" : "they lead");
	if (ndup > 0)
		tl_warnx("%s: %" PRIu64 " GPU event%s linked by more than one "
		    "launch: the last kept", segname, ndup, PL(ndup));
	if (nnots > 0)
		tl_warnx("%s: %" PRIu64 " event%s without ts_ns left out of "
		    "the tree", segname, nnots, PL(nnots));
	if (nnodur > 0)
		tl_warnx("%s: %" PRIu64 " event%s without a valid dur_ns "
		    "taken as 0 ns long", segname, nnodur, PL(nnodur));
	if (nbadid > 0)
		tl_warnx("%s: %" PRIu64 " non-integer id%s ignored", segname,
		    nbadid, PL(nbadid));
	free(order);
	order = NULL;
	free(fwd);
	free(bwd);
	fwd = bwd = NULL;
	nfb = capfwd = 0;
	nrec = nrow = nflow = nsq = npick = nmnode = 0;
	mjoined = NONE;
	nnots = nnodur = nbadid = ngraph = 0;
	warns.n = 0;
	nhost = ndrop = ngpu = nlinked = nrefused = ndup = 0;
	hfree(&flowtab);
	hfree(&uidtab);
	tl_intern_free(in);
	in = NULL;
}

/* Check the header of a stream: the first one sets the columns. */
static void
header(struct tl_tsv *t)
{
	size_t i;

	if (!tl_hdr_same(&hdr, t))
		return;
	c_uid = tl_tsv_need(t, "uid");
	c_ph = tl_tsv_need(t, "ph");
	c_cat = tl_tsv_need(t, "cat");
	c_name = tl_tsv_need(t, "name");
	c_pid = tl_tsv_need(t, "pid");
	c_tid = tl_tsv_need(t, "tid");
	c_ts = tl_tsv_need(t, "ts_ns");
	c_dur = tl_tsv_need(t, "dur_ns");
	c_id = tl_tsv_need(t, "id");
	c_corr = tl_tsv_need(t, "correlation");
	c_ext = tl_tsv_need(t, "external_id");
	c_seq = tl_tsv_need(t, "seq");
	c_trace = tl_tsv_col(t, "trace");
	for (i = 0; treecol[i] != NULL; i++)
		if (tl_tsv_col(t, treecol[i]) >= 0)
			tl_errx(1, "%s:1: column \"%s\" is there already: "
			    "the input is a tree stream", t->name, treecol[i]);
	if (pflag || uflag)
		return;
	for (i = 0; i < hdr.n; i++) {
		if (i > 0)
			tl_out_char(&out, '\t');
		tl_out_raw(&out, hdr.col[i], strlen(hdr.col[i]));
	}
	for (i = 0; treecol[i] != NULL; i++) {
		tl_out_char(&out, '\t');
		tl_out_raw(&out, treecol[i], strlen(treecol[i]));
	}
	tl_out_char(&out, '\n');
	tl_out_flush(&out);
}

/*
 * Read the current stream of src and write its trees: the whole input
 * path, callable on any source (tests/fuzz/fuzz-tree.c gives it a memory
 * source, and closes reader when a fatal error ends the stream early).
 */
static struct tl_tsv *reader;

static void
tree(struct tl_src *src)
{
	struct tl_tsv *t;

	reader = t = tl_tsv_open(src);
	header(t);
	startseg(t->name);
	while (tl_tsv_next(t))
		row(t);
	finish();
	tl_tsv_close(t);
	reader = NULL;
}

static int64_t
number(const char *opt, const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0)
		tl_errx(1, "%s: not an integer: \"%s\"", opt, s);
	return v;
}

/* Free the events and what is built of them: the state at the start. */
static void
freeall(void)
{
	free(R);
	free(corr);
	free(extid);
	free(rowbit);
	free(flow);
	free(sq);
	free(pick);
	free(segname);
	free(mnode);
	free(mjoin);
	free(sp.buf);
	R = NULL;
	corr = extid = NULL;
	rowbit = NULL;
	flow = NULL;
	sq = NULL;
	pick = NULL;
	mnode = NULL;
	segname = mjoin = sp.buf = NULL;
	caprec = capids = caprowbit = capflow = capsq = cappick = 0;
	nmnode = capmnode = capmjoin = 0;
	mjoined = NONE;
	sp.n = sp.cap = 0;
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "annotations", no_argument, NULL, 'A' },
		{ "depth", required_argument, NULL, 'd' },
		{ "external-id", required_argument, NULL, 'e' },
		{ "gpu", no_argument, NULL, 'g' },
		{ "node", required_argument, NULL, 'n' },
		{ "print", no_argument, NULL, 'p' },
		{ "python", no_argument, NULL, 'P' },
		{ "up", required_argument, NULL, 'u' },
		TL_LIMIT_LONGOPT,
		{ NULL, 0, NULL, 0 }
	};
	struct tl_src *src;
	char *p;
	int ch, status = 0, i, nops, r;

	tl_setprogname(argv[0]);
	hseed = mix((uint64_t)time(NULL) ^ (uint64_t)getpid() << 32 ^
	    (uint64_t)(uintptr_t)&argc);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":Ad:e:gn:pPu:", lopt,
	    NULL)) != -1) {
		switch (ch) {
		case TL_LIMIT_OPT:
			tl_limit_set(optarg);
			break;
		case 'A':
			Aflag = 1;
			break;
		case 'd':
			dlimit = number("-d", optarg);
			if (dlimit < 0)
				tl_errx(1, "-d: negative depth: \"%s\"",
				    optarg);
			break;
		case 'e':
			eflag = 1;
			if ((p = strchr(optarg, ',')) == NULL ||
			    strchr(p + 1, ',') == NULL)
				tl_errx(1, "-e: expected ext_id,pid,tid: "
				    "\"%s\"", optarg);
			*p++ = '\0';
			epid = p;
			p = strchr(p, ',');
			*p++ = '\0';
			etid = p;
			eext = number("-e", optarg);
			break;
		case 'g':
			gflag = 1;
			break;
		case 'n':
			nflag = 1;
			nodeuid = number("-n", optarg);
			break;
		case 'p':
			pflag = 1;
			break;
		case 'P':
			Pflag = 1;
			break;
		case 'u':
			uflag = 1;
			upuid = number("-u", optarg);
			break;
		default:	/* ':' or '?' */
			tl_badopt(ch, argv);
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (pflag && uflag)
		tl_errx(1, "-p and -u exclude each other");
	if (nflag && eflag)
		tl_errx(1, "-n and -e exclude each other");
	if ((nflag || eflag || gflag) && !pflag)
		tl_errx(1, "-%c needs -p", nflag ? 'n' : eflag ? 'e' : 'g');
	if (dlimit >= 0 && !pflag && !uflag)
		tl_errx(1, "-d needs -p or -u");

	nops = argc > 0 ? argc : 1;
	tl_out_init(&out, 1, "<stdout>");
	for (i = 0; i < nops; i++) {
		src = tl_src_open(argc > 0 ? argv[i] : "-");
		if (src == NULL) {
			status = 1;
			continue;
		}
		while ((r = tl_src_next(src)) > 0)
			tree(src);
		if (r < 0)
			status = 1;
		tl_src_close(src);
	}
	if ((nflag || eflag || uflag) && !found && status == 0) {
		tl_out_flush(&out);
		if (eflag)
			tl_errx(1, "-e %" PRId64 ",%s,%s: no such event",
			    eext, epid, etid);
		tl_errx(1, "%s %" PRId64 ": no such event", uflag ? "-u" :
		    "-n", uflag ? upuid : nodeuid);
	}
	tl_out_close(&out);
	tl_hdr_free(&hdr);
	freeall();
	return status;
}
