/*
 * tl-rocprof: TraceLens's four reports on rocprofv3 data, from tl-parse's
 * event stream: "rocprof" on a rocprofv3 JSON (GPU timeline, kernel
 * summaries, kernel details, short kernels), and on a Perfetto trace
 * (read by tl-parse from the protobuf, or from traceconv's JSON) the
 * three pftrace reports: "activity" (time by kernel category per GPU, XLA
 * kernels, kernel and HIP API summaries), "api" (T = A + Q + K per launch
 * API and kernel) and "memcpy" (copies by size and direction). Each sheet
 * is a CSV file in the output directory, with TraceLens's sheet and
 * column names.
 */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/csv.h"
#include "../common/err.h"
#include "../common/file.h"
#include "../common/input.h"
#include "../common/intern.h"
#include "../common/json.h"
#include "../common/mem.h"
#include "../common/opt.h"
#include "../common/pyfmt.h"
#include "../common/stats.h"
#include "../common/tsv.h"

static const char usage[] =
    "usage: tl-rocprof rocprof [--tracelens] [--disable_kernel_summary] "
    "[--kernel_details]\n"
    "\t[--short_kernel_study] [--short_kernel_threshold_us N]\n"
    "\t[--short_kernel_histogram_bins N] [--topk_kernels N] -o dir "
    "[file]\n"
    "       tl-rocprof activity [--merge_kernels] [--min_tid N] "
    "[--max_tid N]\n"
    "\t[--min_event_ns N] [--no_kernel_summary] "
    "[--kernel_summary_include_rccl]\n"
    "\t[--kernel_summary_baseline total|compute]\n"
    "\t[--kernel_summary_group config|name] [--no_hip_summary]\n"
    "\t[--hip_summary_group name|name+stream|name+op|name+stream+op]\n"
    "\t[--top_xla N] [--kernel_summary_top N] [--hip_summary_top N]\n"
    "\t[--md path] -o dir [file]\n"
    "       tl-rocprof api [--exclude_kernel_regex re] "
    "[--allow_multi_kernel_per_api]\n"
    "\t[--include_nonlaunch_apis] -o dir [file]\n"
    "       tl-rocprof memcpy -o dir [file]\n";

/* ---- Values as pandas writes them ---- */

static struct tl_file sheet;
static int nfield;

static void
opensheet(const char *dir, const char *name)
{
	char *fn = xmalloc(strlen(name) + 5);

	sprintf(fn, "%s.csv", name);
	if (tl_file_open(&sheet, dir, fn) < 0)
		tl_exit(1);
	free(fn);
	nfield = 0;
}

static void
closesheet(void)
{
	if (tl_file_close(&sheet) < 0)
		tl_exit(1);
}

static void
sep(void)
{
	if (nfield++ > 0)
		tl_out_char(&sheet.out, ',');
}

static void
cstr(const char *s, size_t n)
{
	sep();
	tl_out_csvfield(&sheet.out, s, n);
}

static void
ccstr(const char *s)
{
	cstr(s, strlen(s));
}

static void
cint(int64_t v)
{
	char b[TL_I64_MAX];

	sep();
	tl_out_raw(&sheet.out, b, tl_fmt_i64(b, v));
}

static void
cfloat(double v)
{
	sep();
	if (v != v)
		return;		/* NaN: an empty cell */
	tl_out_pyfloat(&sheet.out, v);
}

static void
endline(void)
{
	tl_out_char(&sheet.out, '\n');
	nfield = 0;
}

static void
header(const char *const *h)
{
	for (; *h; h++)
		ccstr(*h);
	endline();
}

/* An empty frame: pandas writes a single empty line. */
static void
emptyframe(const char *dir, const char *name)
{
	opensheet(dir, name);
	endline();
	closesheet();
}

/* ---- Reading the stream ---- */

/*
 * Python's int() of a JSON value: an integer, a float (truncated), a
 * bool, or a string of an integer (blanks around, a sign, _ between
 * digits). 1 and *v, or 0.
 */
static int
pyint(const struct tl_jdoc *d, int t, int64_t *v)
{
	const jsmntok_t *k;
	const char *s, *e;
	char buf[64];
	size_t n, i, m;
	double x;
	int neg = 0, dig = 0;
	uint64_t u = 0;

	if (t < 0)
		return 0;
	k = &d->tok[t];
	s = d->js + k->start;
	n = (size_t)(k->end - k->start);
	if (k->type == JSMN_PRIMITIVE) {
		if (n == 4 && memcmp(s, "true", 4) == 0) {
			*v = 1;
			return 1;
		}
		if (n == 5 && memcmp(s, "false", 5) == 0) {
			*v = 0;
			return 1;
		}
		if (tl_parse_i64(s, n, v) == 0)
			return 1;
		if (n == 0 || n >= sizeof buf || !tl_jnumber(s, n))
			return 0;
		memcpy(buf, s, n);
		buf[n] = '\0';
		x = strtod(buf, NULL);
		if (!(x > -9.2e18 && x < 9.2e18))
			return 0;
		*v = (int64_t)x;
		return 1;
	}
	if (k->type != JSMN_STRING || memchr(s, '\\', n) != NULL)
		return 0;
	e = s + n;
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (s < e && (*s == '+' || *s == '-'))
		neg = *s++ == '-';
	m = (size_t)(e - s);
	for (i = 0; i < m; i++) {
		if (s[i] == '_' && dig && i + 1 < m && isdigit((unsigned char)
		    s[i + 1]))
			continue;
		if (!isdigit((unsigned char)s[i]))
			return 0;
		if (u > (UINT64_C(1) << 63) / 10)
			return 0;
		u = u * 10 + (uint64_t)(s[i] - '0');
		dig = 1;
	}
	if (!dig || u > (uint64_t)INT64_MAX + neg)
		return 0;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 1;
}

/* Member key of object token o, or -1. */
static int
jmem(const struct tl_jdoc *d, int o, const char *key)
{
	int i, k;

	if (o < 0 || o >= d->ntok || d->tok[o].type != JSMN_OBJECT)
		return -1;
	for (i = o + 1, k = 0; k < d->tok[o].size; k++) {
		if (tl_jeq(d, i, key))
			return i + 1;
		i = tl_jskip(d, i + 1);
	}
	return -1;
}

static int
jnull(const struct tl_jdoc *d, int t)
{
	return t >= 0 && d->tok[t].type == JSMN_PRIMITIVE &&
	    d->js[d->tok[t].start] == 'n';
}

/* A string token decoded, newly allocated. */
static char *
jstrdup(const struct tl_jdoc *d, int t, size_t *len)
{
	const jsmntok_t *k = &d->tok[t];
	size_t n = (size_t)(k->end - k->start);
	char *s = xmalloc(n + 1);

	n = tl_junescape(s, d->js + k->start, n, NULL);
	s[n] = '\0';
	if (len)
		*len = n;
	return s;
}

/* Python truthiness of a JSON value. */
static int
jtruthy(const struct tl_jdoc *d, int t)
{
	const jsmntok_t *k;
	const char *s;
	size_t n, i;

	if (t < 0)
		return 0;
	k = &d->tok[t];
	s = d->js + k->start;
	n = (size_t)(k->end - k->start);
	switch (k->type) {
	case JSMN_STRING:
		return n > 0;
	case JSMN_OBJECT:
	case JSMN_ARRAY:
		return k->size > 0;
	default:
		if (s[0] == 'n' || s[0] == 'f')
			return 0;
		if (s[0] == 't')
			return 1;
		for (i = 0; i < n; i++)
			if (s[i] >= '1' && s[i] <= '9')
				break;
			else if (s[i] == 'e' || s[i] == 'E')
				return 0;
		return i < n;
	}
}

/* An event of the stream, with what the reports read from its args. */
enum { A_BEGIN, A_END, A_DELTA, A_GRID, A_WG, A_VGPR, A_ACCUM, A_SGPR,
	A_LDS, A_SCRATCH, A_STREAM, A_OP, A_TID, A_BYTES, A_SRC, A_DST, A_DEV,
	NA };
static const char *const aname[NA] = {
	"begin_ns", "end_ns", "delta_ns", "grid_size", "workgroup_size",
	"VGPR_Count", "Accum_VGPR_Count", "SGPR_Count", "LDS_Block_Size",
	"Scratch_Size", "stream_ID", "operation", "tid", "copy_bytes",
	"src_agent", "dst_agent", NULL
};

struct ev {
	const char *name, *cat, *kname;
	size_t nlen;
	int64_t pid, tid, ts, dur;
	int haspid, hastid, hasts, hasdur, isx;
	uint64_t order;
	int grp;
	int64_t a[NA];
	unsigned has;		/* bit per A_ */
	int agent;		/* index + 1 in agents, or 0 */
	int hascorr, corrapi;	/* a corr; args.corr_id not null */
	int64_t corr;
};

static struct ev *evs;
static size_t nev, capev;
static char **agents;		/* "s..." or "n..." keys, first-seen order */
static size_t nagents;
static int pfrows;		/* rows from tl-parse's Perfetto reader */

/* rocprof: the trace's times and the kernel rows. */
struct kern {
	const char *name;
	int64_t ts, dur, stream, dispatch, grid[3], block[3], agent, thread;
	uint64_t order;
};
static struct kern *kerns;
static size_t nkern, capkern;
static int64_t (*mems)[2];
static size_t nmem, capmem;
static int64_t init_time, fini_time;

static int
agentix(const struct tl_jdoc *d, int t)
{
	char *key;
	size_t i, n;
	const jsmntok_t *k;

	if (!jtruthy(d, t))
		return 0;
	k = &d->tok[t];
	if (k->type != JSMN_STRING && k->type != JSMN_PRIMITIVE)
		return 0;
	n = (size_t)(k->end - k->start);
	key = xmalloc(n + 2);
	key[0] = k->type == JSMN_STRING ? 's' : 'n';
	memcpy(key + 1, d->js + k->start, n);
	key[n + 1] = '\0';
	if (k->type == JSMN_STRING)
		key[1 + tl_junescape(key + 1, d->js + k->start, n, NULL)] =
		    '\0';
	for (i = 0; i < nagents; i++)
		if (strcmp(agents[i], key) == 0) {
			free(key);
			return (int)i + 1;
		}
	agents = xreallocarray(agents, nagents + 1, sizeof *agents);
	agents[nagents++] = key;
	return (int)nagents;
}

static struct tl_jdoc jd;

/*
 * One copy of each distinct string (names and categories repeat on
 * every row), kept to the end: s[0..n) as a NUL-terminated string.
 */
static struct {
	char **v;
	size_t cap, n;
} uq;

static const char *
uniq(const char *s, size_t n)
{
	char **old = uq.v, *p;
	size_t oc = uq.cap, i, j;

	if (2 * (uq.n + 1) > uq.cap) {
		uq.cap = uq.cap ? 2 * uq.cap : 1024;
		uq.v = xcalloc(uq.cap, sizeof *uq.v);
		for (j = 0; j < oc; j++)
			if (old[j]) {
				for (i = tl_hash(old[j], strlen(old[j])) &
				    (uq.cap - 1); uq.v[i]; i = (i + 1) &
				    (uq.cap - 1))
					;
				uq.v[i] = old[j];
			}
		free(old);
	}
	for (i = tl_hash(s, n) & (uq.cap - 1); (p = uq.v[i]) != NULL;
	    i = (i + 1) & (uq.cap - 1))
		if (strncmp(p, s, n) == 0 && p[n] == '\0')
			return p;
	uq.v[i] = xmemdup(s, n);
	uq.n++;
	return uq.v[i];
}

/* The args of a row as the pftrace reports need them. */
static void
pfargs(struct ev *e, const char *js, size_t n)
{
	static const char *const corrk[] = { "corr_id", "correlation_id",
	    "correlationId", "CorrId", NULL };
	static const char *const knk[] = { "kernel_name", "KernelName",
	    "symbol", "symbol_name", "funcName", NULL };
	static const char *const devk[] = { "device_id", "deviceId",
	    "dev_id", "DevId", "gpu_id", "gpuId", NULL };
	int i, t;
	int64_t v;
	size_t kn;

	if (n == 0 || tl_json_parse(&jd, js, n) < 0 ||
	    jd.tok[0].type != JSMN_OBJECT)
		return;
	for (i = 0; aname[i] != NULL; i++)
		if (pyint(&jd, jmem(&jd, 0, aname[i]), &v)) {
			e->a[i] = v;
			e->has |= 1u << i;
		}
	for (i = 0; devk[i]; i++)
		if (pyint(&jd, jmem(&jd, 0, devk[i]), &v)) {
			e->a[A_DEV] = v;
			e->has |= 1u << A_DEV;
			break;
		}
	for (i = 0; corrk[i]; i++)
		if (pyint(&jd, jmem(&jd, 0, corrk[i]), &v)) {
			e->hascorr = 1;
			e->corr = v;
			break;
		}
	t = jmem(&jd, 0, "corr_id");
	e->corrapi = t >= 0 && !jnull(&jd, t);
	for (i = 0; knk[i]; i++)
		if (jtruthy(&jd, t = jmem(&jd, 0, knk[i])) &&
		    jd.tok[t].type == JSMN_STRING) {
			char *k = jstrdup(&jd, t, &kn);

			e->kname = uniq(k, kn);
			free(k);
			break;
		}
	e->agent = agentix(&jd, jmem(&jd, 0, "agent"));
}

static int64_t
jint(int t, int64_t def)
{
	int64_t v;

	return pyint(&jd, t, &v) ? v : def;
}

static void
rocargs(struct kern *k, const char *js, size_t n)
{
	int t, i;
	if (n == 0 || tl_json_parse(&jd, js, n) < 0 ||
	    jd.tok[0].type != JSMN_OBJECT)
		return;
	k->dispatch = jint(jmem(&jd, 0, "dispatch_id"), 0);
	k->agent = jint(jmem(&jd, 0, "agent"), 0);
	k->thread = jint(jmem(&jd, 0, "thread_id"), 0);
	if ((t = jmem(&jd, 0, "grid")) >= 0 && jd.tok[t].type == JSMN_ARRAY &&
	    jd.tok[t].size == 3)
		for (i = 0; i < 3; i++)
			k->grid[i] = jint(t + 1 + i, 1);
	if ((t = jmem(&jd, 0, "block")) >= 0 && jd.tok[t].type == JSMN_ARRAY &&
	    jd.tok[t].size == 3)
		for (i = 0; i < 3; i++)
			k->block[i] = jint(t + 1 + i, 1);
}

static void
metadata(const char *js, size_t n)
{
	if (tl_json_parse(&jd, js, n) < 0 || jd.tok[0].type != JSMN_OBJECT)
		return;
	init_time = jint(jmem(&jd, 0, "init_time"), 0);
	fini_time = jint(jmem(&jd, 0, "fini_time"), 0);
}

static int rocmode, pfmode;	/* 1 activity, 2 api, 3 memcpy */
static int tracelens, nosummary, details, shortstudy;

static void
readstream(const char *path)
{
	struct tl_src *src;
	struct tl_tsv *t;
	int cuid, cph, ccat, cname, cpid, ctid, cts, cdur, cargs, cextra, cstr;
	const char *s, *ph, *cat, *x;
	size_t n, nph, ncat, nx;
	struct ev *e;
	struct kern *k;
	int64_t v;

	if ((src = tl_src_open(path)) == NULL)
		tl_exit(1);
	if (tl_src_next(src) <= 0)
		tl_errx(1, "%s: empty input: no header", tl_src_name(src));
	t = tl_tsv_open(src);
	cuid = tl_tsv_need(t, "uid");
	cph = tl_tsv_need(t, "ph");
	ccat = tl_tsv_need(t, "cat");
	cname = tl_tsv_need(t, "name");
	cpid = tl_tsv_need(t, "pid");
	ctid = tl_tsv_need(t, "tid");
	cts = tl_tsv_need(t, "ts_ns");
	cdur = tl_tsv_need(t, "dur_ns");
	cargs = tl_tsv_need(t, "args");
	cstr = tl_tsv_col(t, "stream");
	cextra = tl_tsv_col(t, "extra");
	while (tl_tsv_next(t)) {
		cat = tl_tsv_str(t, ccat, &ncat);
		if (t->fl[cuid] == 0) {
			if (rocmode && cat && ncat == 9 &&
			    memcmp(cat, "trace_key", 9) == 0 &&
			    (s = tl_tsv_str(t, cname, &n)) && n == 8 &&
			    memcmp(s, "metadata", 8) == 0 &&
			    (s = tl_tsv_str(t, cargs, &n)) != NULL)
				metadata(s, n);
			continue;
		}
		ph = tl_tsv_str(t, cph, &nph);
		if (rocmode) {
			if (cat == NULL || !tl_tsv_i64(t, cts, &v))
				continue;
			if (ncat == 11 && memcmp(cat, "memory_copy", 11) == 0) {
				xgrow(&mems, &capmem, nmem + 1, sizeof *mems);
				mems[nmem][0] = v;
				if (!tl_tsv_i64(t, cdur, &mems[nmem][1]))
					mems[nmem][1] = 0;
				nmem++;
				continue;
			}
			if (ncat != 15 || memcmp(cat, "kernel_dispatch", 15))
				continue;
			xgrow(&kerns, &capkern, nkern + 1, sizeof *kerns);
			k = &kerns[nkern];
			memset(k, 0, sizeof *k);
			k->order = nkern++;
			k->ts = v;
			tl_tsv_i64(t, cdur, &k->dur);
			if (cstr >= 0)
				tl_tsv_i64(t, cstr, &k->stream);
			s = tl_tsv_str(t, cname, &n);
			k->name = uniq(s ? s : "", s ? n : 0);
			k->grid[0] = k->grid[1] = k->grid[2] = 1;
			k->block[0] = k->block[1] = k->block[2] = 1;
			/* Only kernel_details shows what args hold. */
			if (details && (s = tl_tsv_str(t, cargs, &n)) != NULL)
				rocargs(k, s, n);
			continue;
		}
		/* traceconv's e halves carry no args; metadata no event. */
		if (ph == NULL || (nph == 1 && (ph[0] == 'e' || ph[0] == 'M' ||
		    ph[0] == 'E' || ph[0] == 's' || ph[0] == 'f')))
			continue;
		xgrow(&evs, &capev, nev + 1, sizeof *evs);
		e = &evs[nev];
		memset(e, 0, sizeof *e);
		e->order = nev++;
		e->isx = nph == 1 && ph[0] == 'X';
		s = tl_tsv_str(t, cname, &n);
		e->name = uniq(s ? s : "", s ? n : 0);
		e->nlen = s ? n : 0;
		e->cat = uniq(cat ? cat : "", cat ? ncat : 0);
		e->haspid = tl_tsv_i64(t, cpid, &e->pid);
		e->hastid = tl_tsv_i64(t, ctid, &e->tid);
		e->hasts = tl_tsv_i64(t, cts, &e->ts);
		e->hasdur = tl_tsv_i64(t, cdur, &e->dur);
		/* Perfetto slices: as traceconv would export them. */
		x = cextra >= 0 ? tl_tsv_str(t, cextra, &nx) : NULL;
		if (x != NULL && nx > 9 && memcmp(x, "{\"track\":", 9) == 0) {
			pfrows = 1;
			if (!e->hastid) {
				e->grp = 1;	/* async b/e: tid = pid */
				e->hastid = e->haspid;
				e->tid = e->pid;
				e->hasdur = 0;
			}
		}
		if ((s = tl_tsv_str(t, cargs, &n)) != NULL)
			pfargs(e, s, n);
		/* Keep only what the report reads. */
		if ((pfmode == 1 && e->agent == 0 &&
		    strcmp(e->cat, "hip_api") != 0) ||
		    (pfmode == 2 && !e->hascorr && e->agent == 0) ||
		    (pfmode == 3 && !(e->has & (1u << A_BYTES))))
			nev--;
	}
	tl_tsv_close(t);
	tl_src_close(src);
}

/*
 * The agents numbered in the order of the events as sorted (first seen
 * in traceconv's order, not in the stream's).
 */
static void
reagent(void)
{
	size_t *map = xcalloc(nagents + 1, sizeof *map), i, n = 0;
	char **v = xcalloc(nagents + 1, sizeof *v);

	for (i = 0; i < nev; i++)
		if (evs[i].agent) {
			if (map[evs[i].agent] == 0) {
				v[n] = agents[evs[i].agent - 1];
				map[evs[i].agent] = ++n;
			}
			evs[i].agent = (int)map[evs[i].agent];
		}
	free(agents);
	agents = v;
	nagents = n;
	free(map);
}

static int
pforder(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->grp != y->grp)
		return x->grp < y->grp ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* ---- rocprof ---- */

static long long shortthr = 10, shortbins = 100, topk = -1;

struct iv {
	double s, e;
};

/* Merged length of intervals (sorted by start, stably by the caller). */
static double
merged(struct iv *v, size_t n)
{
	double sum = 0, ls = 0, le = 0;
	size_t i;
	int open = 0;

	for (i = 0; i < n; i++) {
		if (open && v[i].s <= le) {
			if (v[i].e > le)
				le = v[i].e;
			continue;
		}
		if (open)
			sum += le - ls;
		ls = v[i].s;
		le = v[i].e;
		open = 1;
	}
	if (open)
		sum += le - ls;
	return sum;
}

/* A stable sort by start: index as a tie break. */
struct ivx {
	double s, e;
	size_t i;
};

static int
ivxcmp(const void *a, const void *b)
{
	const struct ivx *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static double
unionlen(struct ivx *v, size_t n)
{
	struct iv *w;
	size_t i;
	double r;

	qsort(v, n, sizeof *v, ivxcmp);
	w = xcalloc(n + 1, sizeof *w);
	for (i = 0; i < n; i++) {
		w[i].s = v[i].s;
		w[i].e = v[i].e;
	}
	r = merged(w, n);
	free(w);
	return r;
}

static void
timeline(const char *dir)
{
	static const char *const h[] = { "type", "time ms", "percent", NULL };
	struct ivx *v;
	size_t i, n = 0;
	double total, kus, mus, bus, ius, val[5];
	static const char *const rowname[5] = { "total_time", "kernel",
	    "memory", "busy_time", "idle" };

	opensheet(dir, "gpu_timeline");
	header(h);
	if (nkern == 0) {
		closesheet();
		return;
	}
	total = (double)fini_time / 1000.0 - (double)init_time / 1000.0;
	v = xcalloc(nkern + nmem + 1, sizeof *v);
	for (i = 0; i < nkern; i++, n++) {
		v[n].s = (double)kerns[i].ts / 1000.0;
		v[n].e = (double)(kerns[i].ts + kerns[i].dur) / 1000.0;
		v[n].i = n;
	}
	kus = unionlen(v, n);
	for (i = n = 0; i < nmem; i++, n++) {
		v[n].s = (double)mems[i][0] / 1000.0;
		v[n].e = (double)(mems[i][0] + mems[i][1]) / 1000.0;
		v[n].i = n;
	}
	mus = unionlen(v, n);
	for (i = n = 0; i < nkern; i++, n++) {
		v[n].s = (double)kerns[i].ts / 1000.0;
		v[n].e = (double)(kerns[i].ts + kerns[i].dur) / 1000.0;
		v[n].i = n;
	}
	for (i = 0; i < nmem; i++, n++) {
		v[n].s = (double)mems[i][0] / 1000.0;
		v[n].e = (double)(mems[i][0] + mems[i][1]) / 1000.0;
		v[n].i = n;
	}
	bus = unionlen(v, n);
	free(v);
	ius = total - bus;
	if (ius < 0)
		ius = 0;
	val[0] = total;
	val[1] = kus;
	val[2] = mus;
	val[3] = bus;
	val[4] = ius;
	for (i = 0; i < 5; i++) {
		ccstr(rowname[i]);
		cfloat(val[i] / 1000);
		if (i == 0)
			cfloat(100.0);
		else if (total <= 0)
			cint(0);
		else
			cfloat(val[i] / total * 100);
		endline();
	}
	closesheet();
}

static const char *
category(const char *name)
{
	static const char *const rule[][4] = {
		{ "gemm", "matmul", "cijk", NULL },
		{ "elementwise", NULL },
		{ "reduce", "sum", NULL },
		{ "conv", NULL },
		{ "norm", NULL },
		{ "flash", "attn", "fmha", NULL },
		{ "copy", "memcpy", NULL },
		{ "rccl", "nccl", "cross_device_reduce", NULL },
	};
	static const char *const cat[] = { "GEMM", "Elementwise",
	    "Reduction", "Convolution", "Normalization", "Attention",
	    "Memory", "COMM" };
	char *l = xstrdup(name), *p;
	size_t r, i;
	const char *c = "Other";

	for (p = l; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	for (r = 0; r < sizeof cat / sizeof cat[0] && c[0] == 'O'; r++)
		for (i = 0; rule[r][i]; i++)
			if (strstr(l, rule[r][i])) {
				c = cat[r];
				break;
			}
	free(l);
	return c;
}

static int
namecmp(const void *a, const void *b)
{
	const struct kern *x = *(struct kern *const *)a,
	    *y = *(struct kern *const *)b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

struct grp {
	const char *name;
	const char *cat;
	size_t n;
	int64_t sum, min, max;
	double mean, median, std, pct, cum, ms;
	size_t order;
};

static int
grpsum(const void *a, const void *b)
{
	const struct grp *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int
grpms(const void *a, const void *b)
{
	const struct grp *x = a, *y = b;

	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void
summaries(const char *dir)
{
	static const char *const h0[] = { "name", "Count",
	    "Mean Kernel Time (µs)", "Median Kernel Time (µs)",
	    "Std Kernel Time (µs)", "Min Kernel Time (µs)",
	    "Max Kernel Time (µs)", "Total Kernel Time (ms)", "Percentage (%)",
	    "Cumulative Percentage (%)", "Category", NULL };
	static const char *const h1[] = { "name", "Count",
	    "Mean Kernel Time (µs)", "Median Kernel Time (µs)",
	    "Std Kernel Time (µs)", "Min Kernel Time (µs)",
	    "Max Kernel Time (µs)", "Percentage (%)",
	    "Cumulative Percentage (%)", "Total Kernel Time (ms)", "Category",
	    NULL };
	static const char *const hc[] = { "op category", "Count",
	    "total_direct_kernel_time_ms", "Percentage (%)",
	    "Cumulative Percentage (%)", NULL };
	static const char *const cats[] = { "Attention", "COMM",
	    "Convolution", "Elementwise", "GEMM", "Memory", "Normalization",
	    "Other", "Reduction" };
	struct kern **p;
	struct grp *g, cg[9];
	size_t i, j, ng = 0, k;
	double *v, cum = 0, scale = tracelens ? 1 : 1000, mstot;
	struct tl_stats st;
	int64_t grand = 0;

	if (nkern == 0) {
		opensheet(dir, "kernel_summary");
		header(h0);
		closesheet();
		opensheet(dir, "kernel_summary_by_category");
		header(hc);
		closesheet();
		return;
	}
	p = xcalloc(nkern, sizeof *p);
	for (i = 0; i < nkern; i++)
		p[i] = &kerns[i];
	qsort(p, nkern, sizeof *p, namecmp);
	g = xcalloc(nkern, sizeof *g);
	v = xcalloc(nkern, sizeof *v);
	for (i = 0; i < nkern; i = j) {
		for (j = i; j < nkern && strcmp(p[j]->name, p[i]->name) == 0;
		    j++)
			v[j - i] = (double)p[j]->dur / scale;
		tl_stats(&st, v, j - i);
		g[ng].name = p[i]->name;
		g[ng].cat = category(p[i]->name);
		g[ng].n = j - i;
		g[ng].sum = 0;
		g[ng].min = g[ng].max = p[i]->dur;
		for (k = i; k < j; k++) {
			g[ng].sum += p[k]->dur;
			if (p[k]->dur < g[ng].min)
				g[ng].min = p[k]->dur;
			if (p[k]->dur > g[ng].max)
				g[ng].max = p[k]->dur;
		}
		g[ng].mean = st.mean;
		g[ng].median = st.median;
		g[ng].std = st.std;
		g[ng].order = ng;
		grand += g[ng].sum;
		ng++;
	}
	for (i = 0; i < ng; i++) {
		g[i].pct = grand ? (double)g[i].sum / (double)grand * 100 : 0;
		g[i].ms = (double)g[i].sum / (tracelens ? 1000.0 : 1e6);
	}
	if (tracelens)		/* cumulative in name order */
		for (i = 0; i < ng; i++) {
			cum += g[i].pct;
			g[i].cum = cum;
		}
	qsort(g, ng, sizeof *g, grpsum);
	if (!tracelens)
		for (i = 0; i < ng; i++) {
			cum += g[i].pct;
			g[i].cum = cum;
		}
	opensheet(dir, "kernel_summary");
	header(h1);
	for (i = 0; i < ng; i++) {
		ccstr(g[i].name);
		cint((int64_t)g[i].n);
		cfloat(g[i].mean);
		cfloat(g[i].median);
		cfloat(g[i].n > 1 ? g[i].std : NAN);
		if (tracelens) {
			cint(g[i].min);
			cint(g[i].max);
		} else {
			cfloat((double)g[i].min / 1000);
			cfloat((double)g[i].max / 1000);
		}
		cfloat(g[i].pct);
		cfloat(g[i].cum);
		cfloat(g[i].ms);
		ccstr(g[i].cat);
		endline();
	}
	closesheet();
	/* By category, in category-name order. */
	memset(cg, 0, sizeof cg);
	for (k = 0; k < 9; k++) {
		cg[k].name = cats[k];
		cg[k].order = k;
	}
	for (i = 0; i < ng; i++)
		for (k = 0; k < 9; k++)
			if (strcmp(g[i].cat, cats[k]) == 0) {
				cg[k].n += g[i].n;
				cg[k].sum += g[i].sum;
			}
	mstot = 0;
	for (k = j = 0; k < 9; k++) {
		if (cg[k].n == 0)
			continue;
		cg[j] = cg[k];
		cg[j].ms = (double)cg[j].sum / (tracelens ? 1000.0 : 1e6);
		mstot += cg[j].ms;
		j++;
	}
	cum = 0;
	for (k = 0; k < j; k++) {
		cg[k].pct = mstot ? cg[k].ms / mstot * 100 : 0;
		if (tracelens) {
			cum += cg[k].pct;
			cg[k].cum = cum;
		}
	}
	qsort(cg, j, sizeof *cg, grpms);
	if (!tracelens)
		for (k = 0; k < j; k++) {
			cum += cg[k].pct;
			cg[k].cum = cum;
		}
	opensheet(dir, "kernel_summary_by_category");
	header(hc);
	for (k = 0; k < j; k++) {
		ccstr(cg[k].name);
		cint((int64_t)cg[k].n);
		cfloat(cg[k].ms);
		cfloat(cg[k].pct);
		cfloat(cg[k].cum);
		endline();
	}
	closesheet();
	free(p);
	free(g);
	free(v);
}

static int
durdesc(const void *a, const void *b)
{
	const struct kern *x = *(struct kern *const *)a,
	    *y = *(struct kern *const *)b;

	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void
kdetails(const char *dir)
{
	static const char *const h[] = { "name", "Kernel duration (µs)",
	    "stream", "dispatch_id", "grid_x", "grid_y", "grid_z", "block_x",
	    "block_y", "block_z", "agent_id", "thread_id", NULL };
	struct kern **p;
	size_t i, n;

	if (nkern == 0) {
		emptyframe(dir, "kernel_details");
		return;
	}
	p = xcalloc(nkern, sizeof *p);
	for (i = 0; i < nkern; i++)
		p[i] = &kerns[i];
	qsort(p, nkern, sizeof *p, durdesc);
	n = topk >= 0 && (size_t)topk < nkern ? (size_t)topk : nkern;
	opensheet(dir, "kernel_details");
	header(h);
	for (i = 0; i < n; i++) {
		ccstr(p[i]->name);
		if (tracelens)
			cint(p[i]->dur);
		else
			cfloat((double)p[i]->dur / 1000);
		cint(p[i]->stream);
		cint(p[i]->dispatch);
		cint(p[i]->grid[0]);
		cint(p[i]->grid[1]);
		cint(p[i]->grid[2]);
		cint(p[i]->block[0]);
		cint(p[i]->block[1]);
		cint(p[i]->block[2]);
		cint(p[i]->agent);
		cint(p[i]->thread);
		endline();
	}
	closesheet();
	free(p);
}

struct sk {
	const char *name;
	int64_t n, sum;
	double mean, pct;
};

static int
skcmp(const void *a, const void *b)
{
	const struct sk *x = a, *y = b;
	int c;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return 0;
}

static void
shortkernels(const char *dir)
{
	static const char *const hs[] = { "name", "Short Kernel count",
	    "Short Kernel duration (µs) sum",
	    "Short Kernel duration (µs) mean",
	    "Short Kernel duration (µs) percent of total time", NULL };
	static const char *const hh[] = { "bin_start", "bin_end", "count",
	    NULL };
	struct kern **p;
	struct sk *g;
	size_t i, j, n = 0, ng = 0, b, B = (size_t)shortbins;
	int64_t all = 0, thr = tracelens ? shortthr : shortthr * 1000;
	double lo, hi, step, x, *edge, scale = tracelens ? 1 : 1000;
	int64_t *cnt;
	long long jj;

	p = xcalloc(nkern + 1, sizeof *p);
	for (i = 0; i < nkern; i++) {
		all += kerns[i].dur;
		if (kerns[i].dur < thr)
			p[n++] = &kerns[i];
	}
	opensheet(dir, "short_kernels_summary");
	header(hs);
	if (n > 0) {
		qsort(p, n, sizeof *p, namecmp);
		g = xcalloc(n, sizeof *g);
		for (i = 0; i < n; i = j) {
			g[ng].name = p[i]->name;
			for (j = i; j < n && strcmp(p[j]->name, p[i]->name) ==
			    0; j++) {
				g[ng].n++;
				g[ng].sum += p[j]->dur;
			}
			g[ng].mean = (double)g[ng].sum / (double)g[ng].n /
			    scale;
			g[ng].pct = (double)g[ng].sum / (double)all * 100;
			ng++;
		}
		qsort(g, ng, sizeof *g, skcmp);
		for (i = 0; i < ng; i++) {
			ccstr(g[i].name);
			cint(g[i].n);
			if (tracelens)
				cint(g[i].sum);
			else
				cfloat((double)g[i].sum / 1000);
			cfloat(g[i].mean);
			cfloat(g[i].pct);
			endline();
		}
		free(g);
	}
	closesheet();
	opensheet(dir, "short_kernel_histogram");
	header(hh);
	if (n > 0) {
		lo = hi = (double)p[0]->dur / scale;
		for (i = 0; i < n; i++) {
			x = (double)p[i]->dur / scale;
			if (x < lo)
				lo = x;
			if (x > hi)
				hi = x;
		}
		if (lo == hi) {
			lo -= 0.5;
			hi += 0.5;
		}
		edge = xcalloc(B + 1, sizeof *edge);
		cnt = xcalloc(B, sizeof *cnt);
		step = (hi - lo) / (double)B;
		for (b = 0; b < B; b++)
			edge[b] = (double)b * step + lo;
		edge[B] = hi;
		for (i = 0; i < n; i++) {
			x = (double)p[i]->dur / scale;
			jj = (long long)floor((x - lo) * ((double)B / (hi -
			    lo)));
			if (jj >= (long long)B)
				jj = (long long)B - 1;
			if (jj < 0)
				jj = 0;
			if (x < edge[jj] && jj > 0)
				jj--;
			else if (x >= edge[jj + 1] && jj != (long long)B - 1)
				jj++;
			cnt[jj]++;
		}
		for (b = 0; b < B; b++) {
			cfloat(edge[b]);
			cfloat(edge[b + 1]);
			cint(cnt[b]);
			endline();
		}
		free(edge);
		free(cnt);
	}
	closesheet();
	free(p);
}

static void
rocprof(const char *dir)
{
	timeline(dir);
	if (!nosummary)
		summaries(dir);
	if (details)
		kdetails(dir);
	if (shortstudy)
		shortkernels(dir);
}

/* ---- pftrace: hip_activity ---- */

enum { C_XLA, C_AITERFWD, C_AITERBWD, C_GEMM, C_CKBWD, C_CKFWD, C_TE,
	C_MEMCPY, C_FILL, C_RCCL, NCAT };

static int
hasci(const char *s, const char *pat)
{
	size_t n = strlen(pat);

	for (; *s; s++)
		if (strncasecmp(s, pat, n) == 0)
			return 1;
	return 0;
}

static int
classify(const char *n)
{
	if (hasci(n, "rccl") || hasci(n, "nccl") ||
	    hasci(n, "cross_device_reduce"))
		return C_RCCL;
	if (hasci(n, "cublasLt") || hasci(n, "Cijk") || hasci(n, "gemm") ||
	    hasci(n, "nvjet"))
		return C_GEMM;
	if (hasci(n, "FmhaBwd") || hasci(n, "kernel_func") ||
	    hasci(n, "flash_bprop"))
		return C_CKBWD;
	if (hasci(n, "FmhaFwd") || hasci(n, "flash_fprop"))
		return C_CKFWD;
	if (hasci(n, "copy") || hasci(n, "memcpy") || hasci(n, "memset"))
		return C_MEMCPY;
	if (hasci(n, "transformer_engine"))
		return C_TE;
	if (hasci(n, "aiter::fmha_fwd"))
		return C_AITERFWD;
	if (hasci(n, "aiter::fmha_bwd"))
		return C_AITERBWD;
	if (hasci(n, "fillbuffer"))
		return C_FILL;
	return C_XLA;
}

static int mergek, noksum, ksumrccl, ksumcompute, ksumname, nohsum;
static int hgroup;		/* bit 1 stream, bit 2 op */
static long long mintid = -1000000000LL, maxtid = 1000000000LL;
static long long minns = 5000, topxla = 30, ksumtop = 200, hsumtop = 200;
static const char *mdpath;

/* The digits of s taken out (--merge_kernels), as a uniq() string. */
static const char *
nodigits(const char *s)
{
	char *r = xstrdup(s), *q = r;
	const char *u;

	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			*q++ = *s;
	*q = '\0';
	u = uniq(r, (size_t)(q - r));
	free(r);
	return u;
}

/*
 * An index of records by hash: slots hold index + 1; the caller says
 * whether record i is the one sought (eq), and rehash gives a record's
 * hash when the table grows.
 */
struct hix {
	size_t *v;
	size_t cap, n;
};

static size_t
hslot(const struct hix *h, uint64_t hv, int (*eq)(size_t, const void *),
    const void *arg)
{
	size_t i;

	for (i = hv & (h->cap - 1); h->v[i]; i = (i + 1) & (h->cap - 1))
		if (eq(h->v[i] - 1, arg))
			break;
	return i;
}

static void
hgrow(struct hix *h, uint64_t (*rehash)(size_t))
{
	size_t *old = h->v, oc = h->cap, j, i;

	if (2 * (h->n + 1) <= h->cap)
		return;
	h->cap = h->cap ? 2 * h->cap : 256;
	h->v = xcalloc(h->cap, sizeof *h->v);
	for (j = 0; j < oc; j++)
		if (old[j]) {
			for (i = rehash(old[j] - 1) & (h->cap - 1); h->v[i];
			    i = (i + 1) & (h->cap - 1))
				;
			h->v[i] = old[j];
		}
	free(old);
}

static void
hfree(struct hix *h)
{
	free(h->v);
	memset(h, 0, sizeof *h);
}

/* extract_time_ns: 1 with ts and dur, 0 when there is no time. */
static void
evtime(const struct ev *e, int64_t *ts, int64_t *dur)
{
	int64_t t, d;

	if ((e->has & (1u << A_BEGIN)) && (e->has & (1u << A_DELTA))) {
		*ts = e->a[A_BEGIN];
		*dur = e->a[A_DELTA];
		return;
	}
	/* traceconv's JSON: integer microseconds, truncated. */
	t = e->hasts ? (pfrows ? (e->ts >= 0 ? e->ts / 1000 : -((-e->ts +
	    999) / 1000)) : e->ts / 1000) : 0;
	d = e->hasdur ? e->dur / 1000 : 0;
	if (t < 10000000000LL) {
		t *= 1000;
		d *= 1000;
	}
	*ts = t;
	*dur = d;
}

struct item {
	const char *name;
	int64_t ts, dur, at[7];
	int cat;
};

static int
itemcmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur < y->dur ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct list {
	struct item *v;
	size_t n, cap;
};

static void
additem(struct list *l, const struct item *it)
{
	xgrow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = *it;
}

/* A summary group: key values, durations. */
struct sgrp {
	const char *name;
	int64_t key[7];
	int64_t *d;
	size_t n, cap;
	int64_t total;
	size_t order;
};

static struct sgrp *sg;
static size_t nsg, capsg;
static struct hix sgix;

struct sgkey {
	const char *name;
	const int64_t *key;
};

static uint64_t
sghash(const char *name, const int64_t *key)
{
	uint64_t h = tl_hash64((uint64_t)(uintptr_t)name);
	int k;

	for (k = 0; k < 7; k++)
		h = tl_hash64(h ^ (uint64_t)key[k]);
	return h;
}

static uint64_t
sgrehash(size_t i)
{
	return sghash(sg[i].name, sg[i].key);
}

static int
sgeq(size_t i, const void *arg)
{
	const struct sgkey *k = arg;

	return sg[i].name == k->name &&
	    memcmp(sg[i].key, k->key, sizeof sg[i].key) == 0;
}

/* The group of a name (a uniq() string) and key (absent values 0). */
static struct sgrp *
findgrp(const char *name, const int64_t *key, int nkey)
{
	struct sgkey k;
	int64_t full[7] = { 0 };
	size_t i;

	memcpy(full, key, (size_t)nkey * sizeof *key);
	k.name = name;
	k.key = full;
	hgrow(&sgix, sgrehash);
	i = hslot(&sgix, sghash(name, full), sgeq, &k);
	if (sgix.v[i])
		return &sg[sgix.v[i] - 1];
	xgrow(&sg, &capsg, nsg + 1, sizeof *sg);
	memset(&sg[nsg], 0, sizeof *sg);
	sg[nsg].name = name;
	memcpy(sg[nsg].key, full, sizeof full);
	sg[nsg].order = nsg;
	sgix.v[i] = nsg + 1;
	sgix.n++;
	return &sg[nsg++];
}

static int
sgcmp(const void *a, const void *b)
{
	const struct sgrp *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void
human(char *b, size_t cap, double ns)
{
	if (ns >= 1e6)
		snprintf(b, cap, "%.3f ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(b, cap, "%.3f \xce\xbcs", ns / 1e3);
	else
		snprintf(b, cap, "%lld ns", (long long)ns);
}

static int
i64cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

struct gstat {
	double avg, med, std;
	int64_t min, max;
};

static void
gstats(struct sgrp *g, struct gstat *s)
{
	double *v = xcalloc(g->n, sizeof *v);
	size_t i;

	qsort(g->d, g->n, sizeof *g->d, i64cmp);
	for (i = 0; i < g->n; i++)
		v[i] = (double)g->d[i];
	s->avg = (double)g->total / (double)g->n;
	s->med = g->n % 2 ? v[g->n / 2] : (v[g->n / 2 - 1] + v[g->n / 2]) /
	    2;
	s->min = g->d[0];
	s->max = g->d[g->n - 1];
	s->std = tl_np_std(v, g->n);
	free(v);
}

static struct tl_out md;

static void
mdstr(const char *s)
{
	tl_out_raw(&md, s, strlen(s));
}

static void
summarysheet(const char *dir, const char *sheetname, int nkey,
    const char *const *keyname, int config, double baseline)
{
	static const char *const tail[] = { "Time %", "Total Time (ns)",
	    "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)", "StdDev (ns)",
	    NULL };
	static const char *const head[] = { "Time", "Total Time",
	    "Instances", "Avg", "Med", "Min", "Max", "StdDev", NULL };
	size_t i;
	int k;
	struct gstat s;
	char b[64];
	double pct;

	if (nsg == 0) {
		emptyframe(dir, sheetname);
		return;
	}
	qsort(sg, nsg, sizeof *sg, sgcmp);
	opensheet(dir, sheetname);
	for (k = 0; head[k]; k++)
		ccstr(head[k]);
	for (k = 0; k < nkey; k++)
		ccstr(keyname[k]);
	if (config)
		for (k = 0; k < 7; k++)
			ccstr((const char *[]){ "GridXYZ", "BlockXYZ", "VGPR",
			    "AccumVGPR", "SGPR", "LDS", "Scratch" }[k]);
	ccstr("Name");
	for (k = 0; tail[k]; k++)
		ccstr(tail[k]);
	if (config)
		for (k = 0; k < 6; k++)
			ccstr((const char *[]){ "GridX", "GridY", "GridZ",
			    "BlockX", "BlockY", "BlockZ" }[k]);
	endline();
	for (i = 0; i < nsg; i++) {
		gstats(&sg[i], &s);
		pct = baseline ? (double)sg[i].total / baseline * 100 : 0.0;
		snprintf(b, sizeof b, "%.1f%%", pct);
		ccstr(b);
		human(b, sizeof b, (double)sg[i].total);
		ccstr(b);
		cint((int64_t)sg[i].n);
		human(b, sizeof b, s.avg);
		ccstr(b);
		human(b, sizeof b, s.med);
		ccstr(b);
		human(b, sizeof b, (double)s.min);
		ccstr(b);
		human(b, sizeof b, (double)s.max);
		ccstr(b);
		human(b, sizeof b, s.std);
		ccstr(b);
		if (config) {
			snprintf(b, sizeof b, "%7" PRId64 " %4d %4d",
			    sg[i].key[0], 1, 1);
			ccstr(b);
			snprintf(b, sizeof b, "%7" PRId64 " %4d %4d",
			    sg[i].key[1], 1, 1);
			ccstr(b);
			for (k = 2; k < 7; k++)
				cint(sg[i].key[k]);
		} else
			for (k = 0; k < nkey; k++)
				cint(sg[i].key[k]);
		ccstr(sg[i].name);
		cfloat(pct);
		cint(sg[i].total);
		cfloat(s.avg);
		cfloat(s.med);
		cint(s.min);
		cint(s.max);
		cfloat(s.std);
		if (config) {
			cint(sg[i].key[0]);
			cint(1);
			cint(1);
			cint(sg[i].key[1]);
			cint(1);
			cint(1);
		}
		endline();
	}
	closesheet();
}

static void
freegroups(void)
{
	size_t i;

	for (i = 0; i < nsg; i++)
		free(sg[i].d);
	free(sg);
	sg = NULL;
	nsg = capsg = 0;
	hfree(&sgix);
}

static void
addtogroup(const char *name, const int64_t *key, int nkey, int64_t d)
{
	struct sgrp *g = findgrp(name, key, nkey);

	xgrow(&g->d, &g->cap, g->n + 1, sizeof *g->d);
	g->d[g->n++] = d;
	g->total += d;
}

struct xla {
	const char *name;
	int64_t total, n;
	size_t order;
};

static const struct xla *xlv;	/* the XLA keys, for their index */

static uint64_t
xlrehash(size_t i)
{
	return tl_hash64((uint64_t)(uintptr_t)xlv[i].name);
}

static int
xleq(size_t i, const void *arg)
{
	return xlv[i].name == (const char *)arg;
}

static int
xlacmp(const void *a, const void *b)
{
	const struct xla *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void mdtable(const char *dir, const char *sheetname, size_t top,
    const char *title);

static void
activity(const char *dir)
{
	static const char *const hcat[] = { "GPU ID", "Category",
	    "Total runtime (ms)", "Total count", "Fraction of compute runtime",
	    "Fraction of total runtime", NULL };
	static const char *const hx[] = { "Kernel", "Total time (ms)", "Count",
	    "Fraction of XLA", NULL };
	size_t G = nagents, g, i, k, nx = 0, capx = 0, c, hs;
	struct hix xix = { NULL, 0, 0 };
	struct list *comp = xcalloc(G + 1, sizeof *comp);
	struct list *comm = xcalloc(G + 1, sizeof *comm);
	struct xla *xl = NULL;
	struct item it;
	int64_t ts, dur, tid, xsum = 0;
	int fav3 = 0, j;
	double (*row)[14][4] = xcalloc(G + 1, sizeof *row);
	double basetotal = 0, basecomp = 0;
	const char *key;
	const struct ev *e;
	/* Avg rows: the categories in Python order. */
	static const char *const rowcat[14] = { "xla", "aiterfwd",
	    "aiterbwd", "gemm", "ckbwd", "ckfwd", "te", "memcpy/memset",
	    "fillBuffer", "rccl", "overlapped_comm", "non_overlapped_comm",
	    "compute_total", "total_incl_comm" };
	static const int pyorder[14] = { 2, 1, 4, 5, 12, 8, 3, 7, 11, 10, 9,
	    6, 13, 0 };

	for (i = 0; i < nev; i++) {
		e = &evs[i];
		if (e->agent == 0)
			continue;
		evtime(e, &ts, &dur);
		if (dur <= 0)
			continue;
		tid = e->hastid ? e->tid : -1;
		if (tid < mintid || tid > maxtid)
			continue;
		memset(&it, 0, sizeof it);
		it.name = e->name;
		it.ts = ts;
		it.dur = dur;
		it.cat = classify(e->name);
		for (k = 0; k < 7; k++)
			it.at[k] = (e->has & (1u << (A_GRID + k))) ?
			    e->a[A_GRID + k] : 0;
		g = (size_t)e->agent - 1;
		if (it.cat == C_RCCL)
			additem(&comm[g], &it);
		else {
			additem(&comp[g], &it);
			if (it.cat == C_CKBWD && strstr(e->name, "kernel_func"))
				fav3 = 1;
		}
		if (it.cat == C_XLA) {
			key = mergek ? nodigits(e->name) : e->name;
			hgrow(&xix, xlrehash);
			xlv = xl;
			hs = hslot(&xix, tl_hash64((uint64_t)(uintptr_t)key),
			    xleq, key);
			if (xix.v[hs] == 0) {
				xgrow(&xl, &capx, nx + 1, sizeof *xl);
				xlv = xl;
				xl[nx].name = key;
				xl[nx].total = xl[nx].n = 0;
				xl[nx].order = nx;
				xix.v[hs] = ++nx;
				xix.n++;
			}
			k = xix.v[hs] - 1;
			xl[k].total += dur;
			xl[k].n++;
		}
	}
	for (g = 0; g < G; g++) {
		int64_t ns[NCAT] = { 0 }, cnt[NCAT] = { 0 }, compute = 0,
		    total, ov = 0, ctot = 0, cs, ce, s1, e1, lo, hi;
		size_t p = 0, q, nc = 0, nm = 0;
		struct item *cv, *mv;

		qsort(comp[g].v, comp[g].n, sizeof *comp[g].v, itemcmp);
		qsort(comm[g].v, comm[g].n, sizeof *comm[g].v, itemcmp);
		/* Filter in place, keeping the order. */
		cv = comp[g].v;
		mv = comm[g].v;
		for (i = 0; i < comp[g].n; i++)
			if (cv[i].dur >= minns)
				cv[nc++] = cv[i];
		for (i = 0; i < comm[g].n; i++)
			if (mv[i].dur >= minns)
				mv[nm++] = mv[i];
		comp[g].n = nc;
		comm[g].n = nm;
		for (i = 0; i < nc; i++) {
			ns[cv[i].cat] += cv[i].dur;
			cnt[cv[i].cat]++;
		}
		for (i = 0; i < nm; i++) {
			ns[mv[i].cat] += mv[i].dur;
			cnt[mv[i].cat]++;
		}
		for (c = 0; c < NCAT; c++)
			if (c != C_RCCL)
				compute += ns[c];
		total = compute + ns[C_RCCL];
		for (i = 0; i < nm; i++) {
			cs = mv[i].ts;
			ce = cs + mv[i].dur;
			ctot += mv[i].dur;
			while (p < nc && cv[p].ts + cv[p].dur <= cs)
				p++;
			for (q = p; q < nc && cv[q].ts < ce;) {
				s1 = cv[q].ts;
				e1 = s1 + cv[q].dur;
				lo = s1 > cs ? s1 : cs;
				hi = e1 < ce ? e1 : ce;
				if (hi - lo > 0)
					ov += hi - lo;
				if (e1 <= ce)
					q++;
				else
					break;
			}
		}
		for (c = 0; c < NCAT; c++) {
			row[g][c][0] = (double)ns[c];
			row[g][c][1] = (double)cnt[c];
		}
		row[g][10][0] = (double)ov;
		row[g][11][0] = (double)(ctot - ov);
		row[g][12][0] = (double)compute;
		row[g][13][0] = (double)total;
		for (c = 0; c < 14; c++) {
			row[g][c][2] = compute ? row[g][c][0] /
			    (double)compute : 0.0;
			row[g][c][3] = total ? row[g][c][0] / (double)total :
			    0.0;
			row[g][c][0] /= 1e6;
		}
		basetotal += (double)total;
		basecomp += (double)compute;
	}
	/* category_summary */
	if (G == 0)
		emptyframe(dir, "category_summary");
	else {
		opensheet(dir, "category_summary");
		header(hcat);
		for (g = 0; g < G; g++)
			for (c = 0; c < 14; c++) {
				cint((int64_t)g);
				ccstr(rowcat[c]);
				cfloat(row[g][c][0]);
				cfloat(row[g][c][1]);
				cfloat(row[g][c][2]);
				cfloat(row[g][c][3]);
				endline();
			}
		for (k = 0; k < 14; k++) {
			c = (size_t)pyorder[k];
			ccstr("Avg");
			ccstr(rowcat[c]);
			for (j = 0; j < 4; j++) {
				struct tl_kahan s = { 0, 0 };

				for (g = 0; g < G; g++)
					tl_kahan_add(&s, row[g][c][j]);
				cfloat(s.s / (double)G);
			}
			endline();
		}
		closesheet();
	}
	/* xla_top */
	for (k = 0; k < nx; k++)
		xsum += xl[k].total;
	qsort(xl, nx, sizeof *xl, xlacmp);
	if (nx == 0)
		emptyframe(dir, "xla_top");
	else {
		opensheet(dir, "xla_top");
		header(hx);
		for (k = 0; k < nx && (long long)k < topxla; k++) {
			ccstr(xl[k].name);
			cfloat((double)xl[k].total / 1e6);
			cint(xl[k].n);
			cfloat((double)xl[k].total / (double)(xsum ? xsum : 1));
			endline();
		}
		closesheet();
	}
	/* kernel_summary */
	if (!noksum) {
		for (g = 0; g < G; g++) {
			for (i = 0; i < comp[g].n; i++) {
				struct item *p = &comp[g].v[i];
				const char *nm = mergek ? nodigits(p->name) :
				    p->name;

				addtogroup(nm, ksumname ? (int64_t[7]){ 0 } :
				    p->at, 7, p->dur);
			}
			if (ksumrccl)
				for (i = 0; i < comm[g].n; i++) {
					struct item *p = &comm[g].v[i];
					const char *nm = mergek ?
					    nodigits(p->name) : p->name;

					addtogroup(nm, ksumname ?
					    (int64_t[7]){ 0 } : p->at, 7,
					    p->dur);
				}
		}
		summarysheet(dir, "kernel_summary", 0, NULL, !ksumname,
		    ksumcompute ? basecomp : basetotal);
		freegroups();
	}
	/* hip_summary */
	if (!nohsum) {
		struct list h = { NULL, 0, 0 };
		static const char *kn[3];
		int nk = 0;
		double base = 0;

		for (i = 0; i < nev; i++) {
			e = &evs[i];
			if (strcmp(e->cat, "hip_api") != 0)
				continue;
			evtime(e, &ts, &dur);
			if (dur <= 0)
				continue;
			tid = e->hastid ? e->tid : (e->has & (1u << A_TID)) ?
			    e->a[A_TID] : -1;
			if (tid < mintid || tid > maxtid || dur < minns)
				continue;
			memset(&it, 0, sizeof it);
			it.name = e->name;
			it.ts = ts;
			it.dur = dur;
			it.at[0] = (e->has & (1u << A_STREAM)) ?
			    e->a[A_STREAM] : 0;
			it.at[1] = (e->has & (1u << A_OP)) ? e->a[A_OP] : 0;
			additem(&h, &it);
		}
		qsort(h.v, h.n, sizeof *h.v, itemcmp);
		if (hgroup & 1)
			kn[nk++] = "Stream";
		if (hgroup & 2)
			kn[nk++] = "Op";
		for (i = 0; i < h.n; i++) {
			int64_t hk[2];
			int m = 0;

			if (hgroup & 1)
				hk[m++] = h.v[i].at[0];
			if (hgroup & 2)
				hk[m++] = h.v[i].at[1];
			addtogroup(h.v[i].name, hk, m, h.v[i].dur);
			base += (double)h.v[i].dur;
		}
		summarysheet(dir, "hip_summary", nk, kn, 0, base);
		freegroups();
		free(h.v);
	}
	if (mdpath) {
		tl_out_raw(&md, "# ROCm Perfetto Trace Report\n\n", 30);
		mdstr("- Agents (GPUs): ");
		for (g = 0; g < G; g++) {
			if (g)
				tl_out_raw(&md, ", ", 2);
			mdstr(agents[g] + 1);
		}
		mdstr("\n- Used FA v3 kernels detected: **");
		mdstr(fav3 ? "1" : "0");
		mdstr("**\n\n## Category Summary (per GPU)\n");
		if (G)
			mdtable(dir, "category_summary", SIZE_MAX, NULL);
		else
			mdstr("_(no data)_\n");
		mdstr("## Top XLA Kernels (by time)\n");
		if (nx == 0)
			mdstr("_(no data)_\n");
		else {
			char b[64];

			mdstr("| Kernel | Total Time (ms) | Count | "
			    "Fraction of XLA |\n|---|---:|---:|---:|\n");
			for (k = 0; k < nx && (long long)k < topxla; k++) {
				mdstr("| `");
				mdstr(xl[k].name);
				snprintf(b, sizeof b, "` | %.2f | %" PRId64
				    " | %.2f%% |\n", (double)xl[k].total / 1e6,
				    xl[k].n, (double)xl[k].total /
				    (double)(xsum ? xsum : 1) * 100);
				mdstr(b);
			}
		}
		tl_out_char(&md, '\n');
		if (!noksum)
			mdtable(dir, "kernel_summary", (size_t)ksumtop,
			    "### Kernel Summary Table");
		if (!nohsum)
			mdtable(dir, "hip_summary", (size_t)hsumtop,
			    "### HIP API Summary Table");
	}
	for (g = 0; g < G; g++) {
		free(comp[g].v);
		free(comm[g].v);
	}
	free(comp);
	free(comm);
	free(xl);
	hfree(&xix);
	free(row);
}

/* Code points of UTF-8 text, as the width of a cell. */
static size_t
width(const char *s, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

static int
isnum(const char *s, size_t n)
{
	char b[64], *end;

	if (n == 0 || n >= sizeof b)
		return 0;
	memcpy(b, s, n);
	b[n] = '\0';
	strtod(b, &end);
	return *end == '\0' && !isspace((unsigned char)b[0]);
}

static void
pad(size_t n)
{
	while (n-- > 0)
		tl_out_char(&md, ' ');
}

/*
 * A sheet just written (DIR/SHEET.csv) as a pipe table, as pandas's
 * to_markdown (tabulate's "pipe" format) lays it out: text left, numbers
 * right and on their decimal point, in %g; the first top rows. With a
 * title, a table that has no rows is left out, title and all.
 */
static void
mdtable(const char *dir, const char *sheetname, size_t top, const char *title)
{
	char *fn = xmalloc(strlen(sheetname) + 5), *path, b[64];
	struct tl_src *src;
	struct tl_csv *c;
	char ***cell = NULL;
	size_t nr = 0, capr = 0, i, k, nc, *w, *frac, n, f;
	int *num;
	const char *dot;

	sprintf(fn, "%s.csv", sheetname);
	path = tl_path(dir, fn);
	free(fn);
	if ((src = tl_src_open(path)) == NULL)
		tl_exit(1);
	free(path);
	if (tl_src_next(src) <= 0) {
		tl_src_close(src);
		return;
	}
	c = tl_csv_open(src, 0);
	nc = c->ncol;
	while (nr < top && tl_csv_next(c)) {
		xgrow(&cell, &capr, nr + 1, sizeof *cell);
		cell[nr] = xcalloc(nc, sizeof **cell);
		for (k = 0; k < nc; k++) {
			/* tabulate strips the blanks around text */
			const char *a = c->f[k], *z = a + c->fl[k];

			while (a < z && *a == ' ')
				a++;
			while (z > a && z[-1] == ' ')
				z--;
			cell[nr][k] = xmemdup(a, (size_t)(z - a));
		}
		nr++;
	}
	if (nr == 0 || nc < 2) {
		if (title == NULL)
			mdstr("_(no data)_\n");
		goto out;
	}
	if (title) {
		mdstr(title);
		tl_out_char(&md, '\n');
	}
	w = xcalloc(nc, sizeof *w);
	frac = xcalloc(nc, sizeof *frac);
	num = xcalloc(nc, sizeof *num);
	for (k = 0; k < nc; k++) {
		num[k] = 1;
		for (i = 0; i < nr; i++)
			if (!isnum(cell[i][k], strlen(cell[i][k])))
				num[k] = 0;
		if (!num[k])
			continue;
		for (i = 0; i < nr; i++) {
			snprintf(b, sizeof b, "%g", strtod(cell[i][k], NULL));
			free(cell[i][k]);
			cell[i][k] = xstrdup(b);
			dot = strchr(b, '.');
			f = dot ? strlen(dot) : 0;
			if (f > frac[k])
				frac[k] = f;
		}
		for (i = 0; i < nr; i++) {
			dot = strchr(cell[i][k], '.');
			f = dot ? strlen(dot) : 0;
			n = strlen(cell[i][k]);
			fn = xmalloc(n + frac[k] + 1);
			memcpy(fn, cell[i][k], n);
			memset(fn + n, ' ', frac[k] - f);
			fn[n + frac[k] - f] = '\0';
			free(cell[i][k]);
			cell[i][k] = fn;
		}
	}
	for (k = 0; k < nc; k++) {
		w[k] = width(c->col[k], c->cl[k]) + 2;
		for (i = 0; i < nr; i++)
			if ((n = width(cell[i][k], strlen(cell[i][k]))) > w[k])
				w[k] = n;
	}
	for (k = 0; k < nc; k++) {
		n = width(c->col[k], c->cl[k]);
		mdstr(k ? " | " : "| ");
		if (num[k])
			pad(w[k] - n);
		tl_out_raw(&md, c->col[k], c->cl[k]);
		if (!num[k])
			pad(w[k] - n);
	}
	mdstr(" |\n");
	for (k = 0; k < nc; k++) {
		mdstr(num[k] ? "|" : "|:");
		for (i = 0; i < w[k] + 1; i++)
			tl_out_char(&md, '-');
		if (num[k])
			tl_out_char(&md, ':');
	}
	mdstr("|\n");
	for (i = 0; i < nr; i++) {
		for (k = 0; k < nc; k++) {
			n = width(cell[i][k], strlen(cell[i][k]));
			mdstr(k ? " | " : "| ");
			if (num[k])
				pad(w[k] - n);
			mdstr(cell[i][k]);
			if (!num[k])
				pad(w[k] - n);
		}
		mdstr(" |\n");
	}
	tl_out_char(&md, '\n');
	free(w);
	free(frac);
	free(num);
out:
	for (i = 0; i < nr; i++) {
		for (k = 0; k < nc; k++)
			free(cell[i][k]);
		free(cell[i]);
	}
	free(cell);
	tl_csv_close(c);
	tl_src_close(src);
}

/* ---- pftrace: hip_api ---- */

static int multik, nonlaunch;
static const char *exclude = "(?:^|\\W)redzone_checker_kernel(?:\\W|$)";
static regex_t exre;
static int hasexre;

/* A Python regex as a POSIX one: (?: and the class escapes. */
static void
compilere(const char *re)
{
	static const char *const esc[][2] = {
		{ "\\W", "[^[:alnum:]_]" }, { "\\w", "[[:alnum:]_]" },
		{ "\\d", "[0-9]" }, { "\\D", "[^0-9]" },
		{ "\\s", "[[:space:]]" }, { "\\S", "[^[:space:]]" },
		{ "(?:", "(" },
	};
	struct tl_out o;
	size_t i, k;
	int r;
	char msg[256];

	if (*re == '\0')
		return;
	tl_out_init(&o, -1, "(regex)");
	for (i = 0; re[i];) {
		for (k = 0; k < sizeof esc / sizeof esc[0]; k++)
			if (strncmp(re + i, esc[k][0], strlen(esc[k][0])) ==
			    0)
				break;
		if (k < sizeof esc / sizeof esc[0]) {
			tl_out_cstr(&o, esc[k][1]);
			i += strlen(esc[k][0]);
		} else if (re[i] == '\\' && re[i + 1]) {
			tl_out_raw(&o, re + i, 2);
			i += 2;
		} else
			tl_out_char(&o, re[i++]);
	}
	tl_out_char(&o, '\0');
	if ((r = regcomp(&exre, o.buf, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(r, &exre, msg, sizeof msg);
		tl_errx(1, "--exclude_kernel_regex: %s: \"%s\"", msg, re);
	}
	hasexre = 1;
	tl_out_close(&o);
}

/* times(e): 1 with begin, duration and end; 0 when there are none. */
static int
apitimes(const struct ev *e, int64_t *b, int64_t *d, int64_t *en)
{
	int hb = (e->has >> A_BEGIN) & 1, he = (e->has >> A_END) & 1,
	    hd = (e->has >> A_DELTA) & 1;

	*b = e->a[A_BEGIN];
	*en = e->a[A_END];
	*d = e->a[A_DELTA];
	if (hb && he && !hd) {
		*d = *en - *b;
		hd = 1;
	}
	if (hb && he && hd)
		return 1;
	if (!e->hasts || !e->hasdur)
		return 0;
	*b = (pfrows ? (e->ts >= 0 ? e->ts / 1000 : -((-e->ts + 999) /
	    1000)) : e->ts / 1000) * 1000;
	*d = e->dur / 1000 * 1000;
	*en = *b + *d;
	return 1;
}

static int
islaunch(const struct ev *e)
{
	static const char *const set[] = { "hipModuleLaunchKernel",
	    "hipLaunchKernelGGL", "hipLaunchKernel", "hipExtLaunchKernelGGL",
	    "hipModuleLaunchCooperativeKernel", "hipExtModuleLaunchKernel",
	    "hipMemset", "hipMemcpyHtoDAsync", "hipMemcpyDtoHAsync",
	    "hipMemsetD32Async", NULL };
	const char *p;
	size_t i;

	if (strcmp(e->cat, "hip_api") != 0 || !e->corrapi)
		return 0;
	for (i = 0; set[i]; i++)
		if (strcmp(e->name, set[i]) == 0)
			return 1;
	for (p = e->name; *p; p++)
		if (strncasecmp(p, "launch", 6) == 0)
			return hasci(p + 6, "kernel");
	return 0;
}

static char *
lower(const char *s)
{
	char *l = xstrdup(s), *p;

	for (p = l; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return l;
}

struct arow {
	int64_t pid, tid, dev;
	const char *api, *kern;
	int64_t count, qcount;
	int64_t *v[4];		/* T, A, Q, K */
	size_t n[4], cap[4];
};

static int
arowcmp(const void *a, const void *b)
{
	const struct arow *x = a, *y = b;
	int c;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if ((c = strcmp(x->api, y->api)) != 0)
		return c;
	return strcmp(x->kern, y->kern);
}

static void
apush(struct arow *r, int i, int64_t v)
{
	xgrow(&r->v[i], &r->cap[i], r->n[i] + 1, sizeof *r->v[i]);
	r->v[i][r->n[i]++] = v;
}

__extension__ typedef __int128 i128;

/* Avg, Med, Min, Max, StdDev (statistics.pstdev) of a list. */
static void
astats(int64_t *v, size_t n)
{
	i128 s1 = 0, s2 = 0, num;
	size_t i;

	if (n == 0) {
		cfloat(0.0);
		cfloat(0.0);
		cint(0);
		cint(0);
		cfloat(0.0);
		return;
	}
	qsort(v, n, sizeof *v, i64cmp);
	for (i = 0; i < n; i++) {
		s1 += v[i];
		s2 += (i128)v[i] * v[i];
	}
	cfloat((double)s1 / (double)n);
	cfloat(n % 2 ? (double)v[n / 2] : (double)((i128)v[n / 2 - 1] +
	    v[n / 2]) / 2);
	cint(v[0]);
	cint(v[n - 1]);
	num = (i128)n * s2 - s1 * s1;
	cfloat(n > 1 ? (double)sqrtl((long double)num / ((long double)n *
	    (long double)n)) : 0.0);
}

/* The correlation ids of the api report, for their index. */
struct cg {
	int64_t corr;
	const struct ev *api;
	const struct ev **k;
	size_t nk, capk;
	size_t apiorder;
};
static const struct cg *corrs;

static uint64_t
corrrehash(size_t i)
{
	return tl_hash64((uint64_t)corrs[i].corr);
}

static int
correq(size_t i, const void *arg)
{
	return corrs[i].corr == ((const struct ev *)arg)->corr;
}

static void
apireport(const char *dir)
{
	static const char *const h[] = { "PID", "TID", "DevId", "Count",
	    "QCount", "TAvg_ns", "TMed_ns", "TMin_ns", "TMax_ns", "TStdDev_ns",
	    "AAvg_ns", "AMed_ns", "AMin_ns", "AMax_ns", "AStdDev_ns",
	    "QAvg_ns", "QMed_ns", "QMin_ns", "QMax_ns", "QStdDev_ns",
	    "KAvg_ns", "KMed_ns", "KMin_ns", "KMax_ns", "KStdDev_ns",
	    "API Name", "Kernel Name", NULL };
	/* corr -> api event and kernel events, in first-seen order */
	struct cg *c = NULL;
	struct hix cix = { NULL, 0, 0 };
	size_t nc = 0, capc = 0, i, j, napi = 0, m;
	struct arow *rows = NULL, *r;
	size_t nrow = 0, caprow = 0;
	const struct ev *e, *best;
	int64_t b, d, en, kb, kd, ke, A, Q, pid, tid, dev, bb = 0;
	char *l;
	int kern;
	const char *kn;
	size_t *ord;

	compilere(exclude);
	for (i = 0; i < nev; i++) {
		e = &evs[i];
		if (!e->hascorr)
			continue;
		l = lower(e->name);
		m = strlen(l);
		kern = (m >= 3 && strcmp(l + m - 3, ".kd") == 0) ||
		    strstr(l, ".kd ") != NULL;
		if (!kern) {
			char *lc = lower(e->cat);

			kern = (strstr(lc, "kernel_dispatch") ||
			    strstr(lc, "gpu_activity") || strstr(lc, "kernel") ||
			    strstr(lc, "memory_copy")) && apitimes(e, &b, &d,
			    &en) && d > 0 && !strstr(l, "register");
			free(lc);
		}
		free(l);
		if (!kern && !((strcmp(e->cat, "hip_api") == 0 && e->corrapi) ||
		    strcasecmp(e->cat, "cuda_api") == 0 ||
		    strcasecmp(e->cat, "cupti") == 0))
			continue;
		hgrow(&cix, corrrehash);
		m = hslot(&cix, tl_hash64((uint64_t)e->corr), correq, e);
		if (cix.v[m] == 0) {
			xgrow(&c, &capc, nc + 1, sizeof *c);
			corrs = c;
			memset(&c[nc], 0, sizeof *c);
			c[nc].corr = e->corr;
			cix.v[m] = ++nc;
			cix.n++;
		}
		j = cix.v[m] - 1;
		if (kern) {
			kn = e->kname ? e->kname : e->name;
			if (hasexre && regexec(&exre, kn, 0, NULL, 0) == 0)
				continue;
			xgrow(&c[j].k, &c[j].capk, c[j].nk + 1,
			    sizeof *c[j].k);
			c[j].k[c[j].nk++] = e;
		} else {
			if (c[j].api == NULL)
				c[j].apiorder = napi++;
			c[j].api = e;
		}
	}
	/* The APIs in their first insertion order. */
	ord = xcalloc(napi + 1, sizeof *ord);
	for (j = 0; j < nc; j++)
		if (c[j].api)
			ord[c[j].apiorder] = j;
	for (i = 0; i < napi; i++) {
		struct cg *g = &c[ord[i]];

		e = g->api;
		if (!nonlaunch && !islaunch(e))
			continue;
		if (!apitimes(e, &b, &d, &en))
			continue;
		A = d;
		pid = e->haspid ? e->pid : 0;
		tid = e->hastid ? e->tid : 0;
		best = NULL;
		for (j = 0; j < g->nk; j++) {
			if (!multik) {
				if (apitimes(g->k[j], &kb, &kd, &ke) &&
				    (best == NULL || kb < bb)) {
					best = g->k[j];
					bb = kb;
				}
				continue;
			}
		}
		if (g->nk == 0) {
			if (!nonlaunch)
				continue;
		}
		for (j = 0; j < (g->nk ? g->nk : 1); j++) {
			const struct ev *k = g->nk ? g->k[j] : NULL;

			if (k != NULL && !multik && k != best)
				continue;
			if (k != NULL && !apitimes(k, &kb, &kd, &ke))
				continue;
			dev = 0;
			if (k != NULL) {
				if (k->has & (1u << A_DEV))
					dev = k->a[A_DEV];
				else if (k->agent)
					dev = k->agent - 1;
			}
			kn = k == NULL ? "" : k->kname ? k->kname : k->name;
			for (m = 0; m < nrow; m++)
				if (rows[m].pid == pid && rows[m].tid == tid &&
				    rows[m].dev == dev &&
				    strcmp(rows[m].api, e->name) == 0 &&
				    strcmp(rows[m].kern, kn) == 0)
					break;
			if (m == nrow) {
				xgrow(&rows, &caprow, nrow + 1, sizeof *rows);
				memset(&rows[nrow], 0, sizeof *rows);
				rows[nrow].pid = pid;
				rows[nrow].tid = tid;
				rows[nrow].dev = dev;
				rows[nrow].api = e->name;
				rows[nrow].kern = kn;
				nrow++;
			}
			r = &rows[m];
			r->count++;
			if (k == NULL) {
				apush(r, 1, A);
				apush(r, 2, 0);
				apush(r, 3, 0);
				continue;
			}
			r->qcount++;
			Q = kb - en > 0 ? kb - en : 0;
			apush(r, 0, A + Q + kd);
			apush(r, 1, A);
			apush(r, 2, Q);
			apush(r, 3, kd);
		}
	}
	qsort(rows, nrow, sizeof *rows, arowcmp);
	opensheet(dir, "api_kernel_summary");
	header(h);
	for (m = 0; m < nrow; m++) {
		r = &rows[m];
		cint(r->pid);
		cint(r->tid);
		cint(r->dev);
		cint(r->count);
		cint(r->qcount);
		for (j = 0; j < 4; j++) {
			astats(r->v[j], r->n[j]);
			free(r->v[j]);
		}
		ccstr(r->api);
		ccstr(r->kern);
		endline();
	}
	closesheet();
	free(rows);
	free(ord);
	for (j = 0; j < nc; j++)
		free(c[j].k);
	free(c);
	hfree(&cix);
	if (hasexre)
		regfree(&exre);
}

/* ---- pftrace: memory_copy ---- */

struct mc {
	int64_t bytes;
	char *dir;
	int64_t n;
};

static int
mccmp(const void *a, const void *b)
{
	const struct mc *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

static void
memcpyreport(const char *dir)
{
	static const char *const h[] = { "copy_bytes", "direction", "count",
	    NULL };
	struct mc *v = NULL;
	size_t n = 0, cap = 0, i, k;
	const struct ev *e;
	char b[128], s[24], d[24], *u, *cat, *p, *q;

	for (i = 0; i < nev; i++) {
		e = &evs[i];
		cat = lower(e->cat);
		for (p = cat; isspace((unsigned char)*p); p++)
			;
		for (q = p + strlen(p); q > p && isspace((unsigned char)q[-1]);
		    q--)
			;
		*q = '\0';
		k = strcmp(p, "memory_copy") == 0;
		free(cat);
		if (!k || !(e->has & (1u << A_BYTES)))
			continue;
		u = xstrdup(e->name);
		for (p = u; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		if (e->has & (1u << A_SRC))
			snprintf(s, sizeof s, "%" PRId64, e->a[A_SRC]);
		else
			strcpy(s, "?");
		if (e->has & (1u << A_DST))
			snprintf(d, sizeof d, "%" PRId64, e->a[A_DST]);
		else
			strcpy(d, "?");
		if (strstr(u, "MEMORY_COPY_HOST_TO_DEVICE"))
			snprintf(b, sizeof b, "h2d (GPU %s)", d);
		else if (strstr(u, "MEMORY_COPY_DEVICE_TO_HOST"))
			snprintf(b, sizeof b, "d2h (GPU %s)", s);
		else if (strstr(u, "MEMORY_COPY_DEVICE_TO_DEVICE"))
			snprintf(b, sizeof b, "d2d (GPU %s -> GPU %s)", s, d);
		else
			snprintf(b, sizeof b, "other");
		free(u);
		for (k = 0; k < n; k++)
			if (v[k].bytes == e->a[A_BYTES] &&
			    strcmp(v[k].dir, b) == 0)
				break;
		if (k == n) {
			xgrow(&v, &cap, n + 1, sizeof *v);
			v[n].bytes = e->a[A_BYTES];
			v[n].dir = xstrdup(b);
			v[n].n = 0;
			n++;
		}
		v[k].n++;
	}
	qsort(v, n, sizeof *v, mccmp);
	opensheet(dir, "memory_copy_by_copy_bytes");
	header(h);
	for (k = 0; k < n; k++) {
		cint(v[k].bytes);
		ccstr(v[k].dir);
		cint(v[k].n);
		endline();
		free(v[k].dir);
	}
	closesheet();
	free(v);
}

/* ---- main ---- */

enum {
	O_TRACELENS = 256, O_NOKSUM, O_DETAILS, O_SHORT, O_THR, O_BINS, O_TOPK,
	O_MERGE, O_MINTID, O_MAXTID, O_MINNS, O_NOKS, O_KSRCCL, O_KSBASE,
	O_KSGROUP, O_NOHS, O_HSGROUP, O_TOPXLA, O_KSTOP, O_HSTOP, O_MD,
	O_EXCL, O_MULTI, O_NONLAUNCH
};

static const struct option ropts[] = {
	{ "tracelens", no_argument, NULL, O_TRACELENS },
	{ "disable_kernel_summary", no_argument, NULL, O_NOKSUM },
	{ "kernel_details", no_argument, NULL, O_DETAILS },
	{ "short_kernel_study", no_argument, NULL, O_SHORT },
	{ "short_kernel_threshold_us", required_argument, NULL, O_THR },
	{ "short_kernel_histogram_bins", required_argument, NULL, O_BINS },
	{ "topk_kernels", required_argument, NULL, O_TOPK },
	{ NULL, 0, NULL, 0 }
};

static const struct option aopts[] = {
	{ "merge_kernels", no_argument, NULL, O_MERGE },
	{ "min_tid", required_argument, NULL, O_MINTID },
	{ "max_tid", required_argument, NULL, O_MAXTID },
	{ "min_event_ns", required_argument, NULL, O_MINNS },
	{ "no_kernel_summary", no_argument, NULL, O_NOKS },
	{ "kernel_summary_include_rccl", no_argument, NULL, O_KSRCCL },
	{ "kernel_summary_baseline", required_argument, NULL, O_KSBASE },
	{ "kernel_summary_group", required_argument, NULL, O_KSGROUP },
	{ "no_hip_summary", no_argument, NULL, O_NOHS },
	{ "hip_summary_group", required_argument, NULL, O_HSGROUP },
	{ "top_xla", required_argument, NULL, O_TOPXLA },
	{ "kernel_summary_top", required_argument, NULL, O_KSTOP },
	{ "hip_summary_top", required_argument, NULL, O_HSTOP },
	{ "md", required_argument, NULL, O_MD },
	{ NULL, 0, NULL, 0 }
};

static const struct option popts[] = {
	{ "exclude_kernel_regex", required_argument, NULL, O_EXCL },
	{ "allow_multi_kernel_per_api", no_argument, NULL, O_MULTI },
	{ "include_nonlaunch_apis", no_argument, NULL, O_NONLAUNCH },
	{ NULL, 0, NULL, 0 }
};

static const struct option mopts[] = {
	{ NULL, 0, NULL, 0 }
};

static void
writemd(void)
{
	char *d = xstrdup(mdpath), *slash = strrchr(d, '/');
	struct tl_file f;

	while (md.n > 0 && md.buf[md.n - 1] == '\n')
		md.n--;
	tl_out_char(&md, '\n');
	if (slash)
		*slash = '\0';
	if (tl_file_open(&f, slash ? (*d ? d : "/") : ".", slash ? slash +
	    1 : mdpath) < 0)
		tl_exit(1);
	tl_out_raw(&f.out, md.buf, md.n);
	if (tl_file_close(&f) < 0)
		tl_exit(1);
	free(d);
}

int
main(int argc, char *argv[])
{
	const char *mode, *dir = NULL;
	const struct option *opts;
	int ch, m;
	size_t i;

	tl_setprogname(argv[0]);
	if (argc > 1 && argv[1][0] != '-') {
		mode = argv[1];
		if (strcmp(mode, "rocprof") == 0)
			m = 0, opts = ropts;
		else if (strcmp(mode, "activity") == 0)
			m = 1, opts = aopts;
		else if (strcmp(mode, "api") == 0)
			m = 2, opts = popts;
		else if (strcmp(mode, "memcpy") == 0)
			m = 3, opts = mopts;
		else {
			tl_warnx("%s: not a report (rocprof, activity, api, "
			    "memcpy)", mode);
			tl_usage(usage);
		}
		argc--;
		argv++;
	} else {
		/* --help, --version, or no report named. */
		while (tl_getopt(argc, argv, "o:", NULL, usage) != -1)
			;
		tl_usage(usage);
	}
	while ((ch = tl_getopt(argc, argv, "o:", opts, usage)) != -1) {
		switch (ch) {
		case 'o': dir = optarg; break;
		case O_TRACELENS: tracelens = 1; break;
		case O_NOKSUM: nosummary = 1; break;
		case O_DETAILS: details = 1; break;
		case O_SHORT: shortstudy = 1; break;
		case O_THR:
			shortthr = tl_optnum("--short_kernel_threshold_us",
			    optarg, 0, LLONG_MAX / 1000);
			break;
		case O_BINS:
			shortbins = tl_optnum("--short_kernel_histogram_bins",
			    optarg, 1, 1000000);
			break;
		case O_TOPK:
			topk = tl_optnum("--topk_kernels", optarg, 0,
			    LLONG_MAX);
			break;
		case O_MERGE: mergek = 1; break;
		case O_MINTID:
			mintid = tl_optnum("--min_tid", optarg, LLONG_MIN,
			    LLONG_MAX);
			break;
		case O_MAXTID:
			maxtid = tl_optnum("--max_tid", optarg, LLONG_MIN,
			    LLONG_MAX);
			break;
		case O_MINNS:
			minns = tl_optnum("--min_event_ns", optarg, LLONG_MIN,
			    LLONG_MAX);
			break;
		case O_NOKS: noksum = 1; break;
		case O_KSRCCL: ksumrccl = 1; break;
		case O_KSBASE:
			if (strcmp(optarg, "total") && strcmp(optarg,
			    "compute"))
				tl_errx(1, "--kernel_summary_baseline: total "
				    "or compute, not \"%s\"", optarg);
			ksumcompute = optarg[0] == 'c';
			break;
		case O_KSGROUP:
			if (strcmp(optarg, "config") && strcmp(optarg, "name"))
				tl_errx(1, "--kernel_summary_group: config or "
				    "name, not \"%s\"", optarg);
			ksumname = optarg[0] == 'n';
			break;
		case O_NOHS: nohsum = 1; break;
		case O_HSGROUP:
			if (strcmp(optarg, "name") == 0)
				hgroup = 0;
			else if (strcmp(optarg, "name+stream") == 0)
				hgroup = 1;
			else if (strcmp(optarg, "name+op") == 0)
				hgroup = 2;
			else if (strcmp(optarg, "name+stream+op") == 0)
				hgroup = 3;
			else
				tl_errx(1, "--hip_summary_group: name, "
				    "name+stream, name+op or name+stream+op, "
				    "not \"%s\"", optarg);
			break;
		case O_TOPXLA:
			topxla = tl_optnum("--top_xla", optarg, 0, LLONG_MAX);
			break;
		case O_KSTOP:
			ksumtop = tl_optnum("--kernel_summary_top", optarg, 0,
			    LLONG_MAX);
			break;
		case O_HSTOP:
			hsumtop = tl_optnum("--hip_summary_top", optarg, 0,
			    LLONG_MAX);
			break;
		case O_MD: mdpath = optarg; break;
		case O_EXCL: exclude = optarg; break;
		case O_MULTI: multik = 1; break;
		case O_NONLAUNCH: nonlaunch = 1; break;
		}
	}
	argc -= optind;
	argv += optind;
	if (dir == NULL || argc > 1)
		tl_usage(usage);
	if (tl_mkdirs(dir) < 0)
		tl_err(1, "%s", dir);
	rocmode = m == 0;
	pfmode = m;
	readstream(argc ? argv[0] : "-");
	if (pfrows) {
		qsort(evs, nev, sizeof *evs, pforder);
		reagent();
	}
	tl_out_init(&md, -1, "(markdown)");
	switch (m) {
	case 0: rocprof(dir); break;
	case 1: activity(dir); break;
	case 2: apireport(dir); break;
	case 3: memcpyreport(dir); break;
	}
	if (mdpath)
		writemd();
	tl_out_close(&md);
	free(evs);
	for (i = 0; i < uq.cap; i++)
		free(uq.v[i]);
	free(uq.v);
	free(kerns);
	free(mems);
	for (i = 0; i < nagents; i++)
		free(agents[i]);
	free(agents);
	tl_json_free(&jd);
	return 0;
}
