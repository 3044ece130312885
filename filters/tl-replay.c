/*
 * tl-replay: the ops of a trace as replay descriptions. Each cpu_op of a
 * tree stream (or an event stream) is put in its unique-args group (same
 * name, input dims, types, strides and concrete inputs); the first event
 * of each group is matched against the TorchScript schemas of its name
 * and turned into TraceLens's replay IR, as its EventReplayer makes it;
 * the IR of the groups that can be replayed is written as the JSON list
 * TraceLens's batched_replay.py reads, with each group's count and
 * kernel time. With -o, a bundle: that file and a PyTorch script that
 * rebuilds and times each call. Groups that cannot be replayed are
 * counted by reason on the standard error.
 */
#include <inttypes.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/file.h"
#include "../common/input.h"
#include "../common/intern.h"
#include "../common/mem.h"
#include "../common/opt.h"
#include "../common/pyfmt.h"
#include "../common/share.h"
#include "../common/trace.h"
#include "../common/tsv.h"
#include "tl-replay/replay.h"

#define IRFILE		"event_replay_ir.json"
#define SCRIPT		"replay.py"
#define SCHEMAS		"replay/aten-schemas-torch-1.13.txt"

static const char usage[] =
    "usage: tl-replay [-v] [-n regex] [-o dir] [-s schemas] [-t n] "
    "[-u uid,...] [file]\n";

/* A unique-args group (or, with -u, one event). */
struct group {
	int64_t uid;		/* its first event's */
	uint64_t line;		/* and that event's line */
	char *name;
	int reason;
	char *detail;
	char *ir;		/* R_OK: the replay_ir value's text */
	size_t nir;
	uint64_t count;
	int64_t direct;		/* sum of gpu_kernel_time_ns */
	int64_t *t;		/* subtree_kernel_time_ns of each event */
	size_t nt, tcap;
};

static struct {
	regex_t re;
	int hasre;
	int64_t *uids;		/* -u, sorted */
	size_t nuids;
	unsigned char *found;
	long long top;		/* -t, 0: all */
	const char *dir;	/* -o */
	const char *schemas;	/* -s */
	int verbose;
} opt;

static struct schemas S;
static struct group *G;
static size_t ng, gcap;
static struct tl_intern *keys;
static int tree;		/* the stream has the kernel time columns */

static int
cmpi64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmpgroup(const void *a, const void *b)
{
	const struct group *x = *(struct group *const *)a;
	const struct group *y = *(struct group *const *)b;

	if (x->direct != y->direct)
		return x->direct > y->direct ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A new group from the current row, its first event. */
static void
newgroup(struct group *g, struct tl_tsv *t, const int *col, int64_t uid)
{
	static struct inputs in;
	static struct tl_out ir;
	const char *f[4], *why;
	size_t n[4], nl;
	char detail[256];
	const char *name = tl_tsv_str(t, col[0], &nl);
	uint32_t which;
	int k;

	memset(g, 0, sizeof *g);
	g->uid = uid;
	g->line = t->lineno;
	g->name = xmemdup(name != NULL ? name : "", nl);
	for (k = 0; k < 4; k++)
		f[k] = col[k + 1] >= 0 ? tl_tsv_str(t, col[k + 1], &n[k]) :
		    (n[k] = 0, NULL);
	g->reason = inputs_read(&in, f[0], n[0], f[1], n[1], f[2], n[2],
	    f[3], n[3], &why);
	if (g->reason != R_OK) {
		g->detail = xstrdup(why);
		return;
	}
	if (ir.buf == NULL)
		tl_out_init(&ir, -1, "IR");
	ir.n = 0;
	g->reason = replay_ir(&ir, 2, &S, g->name, nl, &in, &which, detail,
	    sizeof detail);
	if (g->reason != R_OK) {
		g->detail = xstrdup(detail);
		return;
	}
	g->ir = xmemdup(ir.buf, ir.n);
	g->nir = ir.n;
}

/* Read the stream: the groups and their events. */
static void
readtrace(const char *path, const char **tname)
{
	struct tl_src *src;
	struct tl_tsv *t;
	char *key = NULL;
	size_t keycap = 0;
	int col[5], cuid, ccat, cgpu, csub;
	int nev = 0;
	static const char *const cols[5] = { "name", "input_dims",
	    "input_types", "input_strides", "concrete_inputs" };

	if ((src = tl_src_open(path)) == NULL || tl_src_next(src) <= 0)
		tl_exit(1);
	t = tl_tsv_open(src);
	*tname = xstrdup(t->name);
	switch (tl_stream_kind(t)) {
	case TL_S_TREE:
	case TL_S_EVENT:
		break;
	default:
		tl_stream_expect(t, TL_S_TREE);
	}
	cuid = tl_tsv_need(t, "uid");
	ccat = tl_tsv_need(t, "cat");
	col[0] = tl_tsv_need(t, "name");
	for (int k = 1; k < 5; k++)
		col[k] = tl_tsv_col(t, cols[k]);
	cgpu = tl_tsv_col(t, "gpu_kernel_time_ns");
	csub = tl_tsv_col(t, "subtree_kernel_time_ns");
	tree = cgpu >= 0 && csub >= 0;
	if (opt.top > 0 && !tree)
		tl_errx(1, "%s: -t ranks by kernel time, which an event "
		    "stream has not: run tl-tree first", t->name);
	keys = tl_intern_new();
	while (tl_tsv_next(t)) {
		int kind = tl_kind(t->f[ccat], t->fl[ccat]);
		int64_t uid, v, *up = NULL;
		size_t need, k, at;
		uint32_t id;
		struct group *g;

		if (t->fl[cuid] == 0) {
			if (kind == TL_K_TRACE_FILE && nev > 0)
				tl_tsv_errx(t, "a second trace begins: "
				    "tl-replay reads one trace");
			continue;
		}
		nev = 1;
		if (kind != TL_K_CPU_OP)
			continue;
		tl_tsv_i64(t, cuid, &uid);
		if (opt.nuids > 0 && (up = bsearch(&uid, opt.uids, opt.nuids,
		    sizeof *opt.uids, cmpi64)) == NULL)
			continue;
		if (opt.hasre) {
			size_t nl;
			const char *nm = tl_tsv_str(t, col[0], &nl);
			char *z = xmemdup(nm == NULL ? "" : nm, nl);
			int m = regexec(&opt.re, z, 0, NULL, 0);

			free(z);
			if (m != 0)
				continue;
		}
		if (up != NULL)
			opt.found[up - opt.uids] = 1;
		/* the key: the five fields as they are, NUL-separated;
		 * with -u, the uid first (every event its own group) */
		need = 32;
		for (k = 0; k < 5; k++)
			need += col[k] >= 0 ? t->fl[col[k]] + 1 : 1;
		xgrow(&key, &keycap, need, 1);
		at = 0;
		if (opt.nuids > 0)
			at = (size_t)snprintf(key, 32, "%" PRId64, uid) + 1;
		for (k = 0; k < 5; k++) {
			if (col[k] >= 0) {
				memcpy(key + at, t->f[col[k]], t->fl[col[k]]);
				at += t->fl[col[k]];
			}
			key[at++] = '\0';
		}
		id = tl_intern(keys, key, at);
		if (id == ng) {
			xgrow(&G, &gcap, ng + 1, sizeof *G);
			newgroup(&G[ng++], t, col, uid);
		}
		g = &G[id];
		g->count++;
		if (!tree || g->reason != R_OK)
			continue;
		v = 0;
		tl_tsv_i64(t, cgpu, &v);
		g->direct += v;
		v = 0;
		tl_tsv_i64(t, csub, &v);
		xgrow(&g->t, &g->tcap, g->nt + 1, sizeof *g->t);
		g->t[g->nt++] = v;
	}
	free(key);
	tl_tsv_close(t);
	if (tl_src_next(src) > 0)
		tl_errx(1, "%s: more than one stream: tl-replay reads one "
		    "trace", tl_src_name(src));
	tl_src_close(src);
}

static void
us(struct tl_out *o, const char *key, double ns)
{
	j_key(o, 2, key, 0);
	j_float(o, ns / 1000.0);
}

/* One entry of the list. */
static void
entry(struct tl_out *o, struct group *g)
{
	tl_out_char(o, '{');
	j_key(o, 2, "uid", 1);
	tl_out_i64(o, g->uid);
	j_key(o, 2, "op_name", 0);
	j_str(o, g->name, strlen(g->name));
	j_key(o, 2, "replay_ir", 0);
	tl_out_raw(o, g->ir, g->nir);
	j_key(o, 2, "count", 0);
	tl_out_i64(o, (int64_t)g->count);
	if (tree && g->nt > 0) {
		double sum = 0, med;
		size_t i, n = g->nt;

		qsort(g->t, n, sizeof *g->t, cmpi64);
		for (i = 0; i < n; i++)
			sum += (double)g->t[i];
		med = n % 2 ? (double)g->t[n / 2] :
		    ((double)g->t[n / 2 - 1] + (double)g->t[n / 2]) / 2;
		us(o, "kernel_time_us_sum", sum);
		us(o, "kernel_time_us_mean", sum / (double)n);
		us(o, "kernel_time_us_median", med);
		us(o, "kernel_time_us_min", (double)g->t[0]);
		us(o, "kernel_time_us_max", (double)g->t[n - 1]);
		us(o, "direct_kernel_time_us_sum", (double)g->direct);
	}
	j_indent(o, 1);
	tl_out_char(o, '}');
}

/* The list: every replayable group, or the top -t ones. */
static void
writelist(struct tl_out *o)
{
	struct group **v = xreallocarray(NULL, ng + 1, sizeof *v);
	size_t n = 0, i;

	for (i = 0; i < ng; i++)
		if (G[i].reason == R_OK)
			v[n++] = &G[i];
	if (opt.top > 0) {
		qsort(v, n, sizeof *v, cmpgroup);
		if ((unsigned long long)opt.top < n)
			n = (size_t)opt.top;
	}
	if (n == 0)
		tl_out_cstr(o, "[]");
	else {
		tl_out_char(o, '[');
		for (i = 0; i < n; i++) {
			if (i > 0)
				tl_out_char(o, ',');
			j_indent(o, 1);
			entry(o, v[i]);
		}
		j_indent(o, 0);
		tl_out_char(o, ']');
	}
	free(v);
}

/* Copy the share directory's script into the bundle. */
static int
script(const char *dir)
{
	char *path = tl_sharepath("replay/" SCRIPT);
	struct tl_src *src = tl_src_open(path);
	struct tl_file f;
	char *p;
	size_t n;
	int r;

	free(path);
	if (src == NULL || tl_src_next(src) <= 0)
		tl_exit(1);
	if (tl_file_open(&f, dir, SCRIPT) < 0) {
		tl_src_close(src);
		return -1;
	}
	while ((r = tl_in_chunk(src, &p, &n)) > 0)
		tl_out_raw(&f.out, p, n);
	tl_src_close(src);
	if (r < 0)
		tl_exit(1);
	return tl_file_close(&f);
}

/* The counts by reason, and with -v (or for bad input) each group;
 * 1 when a uid of -u is not there. */
static int
report(const char *tname)
{
	uint64_t groups[R_N] = { 0 }, ops[R_N] = { 0 };
	struct tl_warns w = { 0 };
	size_t i;
	int r, bad = 0;

	for (i = 0; i < ng; i++) {
		struct group *g = &G[i];

		groups[g->reason]++;
		ops[g->reason] += g->count;
		if (g->reason == R_OK)
			continue;
		if (R_ISBAD(g->reason)) {
			tl_warns(&w, "%s:%" PRIu64 ": uid %" PRId64 ": %s: "
			    "%s: %s", tname, g->line, g->uid, g->name,
			    reason_text[g->reason], g->detail);
		} else if (opt.verbose)
			tl_warnx("%s: uid %" PRId64 ": %s (%" PRIu64 " op%s): "
			    "%s: %s", tname, g->uid, g->name, g->count,
			    g->count == 1 ? "" : "s", reason_text[g->reason],
			    g->detail);
	}
	tl_warns_end(&w, tname);
	for (r = R_OK + 1; r < R_N; r++)
		if (groups[r] > 0)
			tl_warnx("%s: not replayable: %s: %" PRIu64 " group%s, "
			    "%" PRIu64 " op%s", tname, reason_text[r],
			    groups[r], groups[r] == 1 ? "" : "s", ops[r],
			    ops[r] == 1 ? "" : "s");
	for (i = 0; i < opt.nuids; i++)
		if (!opt.found[i]) {
			bad = 1;
			tl_warnx("%s: uid %" PRId64 ": no such cpu_op%s",
			    tname, opt.uids[i], opt.hasre ?
			    " (or its name does not match -n)" : "");
		}
	return bad;
}

int
main(int argc, char *argv[])
{
	char **list = NULL, *schemas;
	const char *tname = NULL;
	size_t nlist = 0, i;
	int ch, status;
	struct tl_out o;

	tl_setprogname(argv[0]);
	while ((ch = tl_getopt(argc, argv, "n:o:s:t:u:v", NULL, usage)) !=
	    -1) {
		switch (ch) {
		case 'n':
			if (opt.hasre)
				regfree(&opt.re);
			if ((ch = regcomp(&opt.re, optarg, REG_EXTENDED |
			    REG_NOSUB)) != 0) {
				char e[256];

				regerror(ch, &opt.re, e, sizeof e);
				tl_errx(1, "-n: %s: \"%s\"", e, optarg);
			}
			opt.hasre = 1;
			break;
		case 'o':
			opt.dir = optarg;
			break;
		case 's':
			opt.schemas = optarg;
			break;
		case 't':
			opt.top = tl_optnum("-t", optarg, 1, LLONG_MAX);
			break;
		case 'u':
			tl_optlist(optarg, &list, &nlist);
			break;
		case 'v':
			opt.verbose = 1;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		tl_usage(usage);
	if (nlist > 0) {
		opt.uids = xreallocarray(NULL, nlist, sizeof *opt.uids);
		for (i = 0; i < nlist; i++)
			opt.uids[i] = tl_optnum("-u", list[i], 0, LLONG_MAX);
		qsort(opt.uids, nlist, sizeof *opt.uids, cmpi64);
		for (i = opt.nuids = 0; i < nlist; i++)
			if (i == 0 || opt.uids[i] != opt.uids[i - 1])
				opt.uids[opt.nuids++] = opt.uids[i];
		opt.found = xcalloc(nlist, 1);
		free(list);
	}
	schemas = opt.schemas != NULL ? xstrdup(opt.schemas) :
	    tl_sharepath(SCHEMAS);
	schemas_load(&S, schemas);
	if (opt.dir != NULL && tl_mkdirs(opt.dir) < 0)
		tl_err(1, "%s", opt.dir);
	readtrace(argc > 0 ? argv[0] : "-", &tname);
	status = report(tname);
	if (opt.dir != NULL) {
		struct tl_file f;

		if (tl_file_open(&f, opt.dir, IRFILE) < 0)
			tl_exit(1);
		writelist(&f.out);
		if (tl_file_close(&f) < 0 || script(opt.dir) < 0)
			status = 1;
	} else {
		tl_out_init(&o, 1, "<stdout>");
		writelist(&o);
		tl_out_char(&o, '\n');
		tl_out_close(&o);
	}
	for (i = 0; i < ng; i++) {
		free(G[i].name);
		free(G[i].detail);
		free(G[i].ir);
		free(G[i].t);
	}
	free(G);
	free(schemas);
	free((char *)tname);
	free(opt.uids);
	free(opt.found);
	if (opt.hasre)
		regfree(&opt.re);
	if (keys != NULL)
		tl_intern_free(keys);
	schemas_free(&S);
	return status;
}
