/*
 * tl-graph -p: TraceLens's pseudo ops (inference spec 5) in a tree
 * stream. Each vllm::moe_forward op of vLLM's Triton MoE path (its
 * subtree has matmul_ogs kernels; spec 5.3) gets a pseudo op per GEMM
 * kernel, pseudo_op::moe_triton_unfused_up for the first in time and
 * _down for the others, and one for its matmul_scatter kernel: cpu_op
 * rows written after the last row, with the next uids, the shapes of the
 * MoE op and the args its perf model reads. The launch of each such
 * kernel moves under its pseudo op (parent and depth), so that walks down
 * the tree (the kernels of an op in tl-roofline, the unified perf
 * summary) find the kernel there; its launcher stays the MoE op, as
 * TraceLens's walks up pass over the pseudo op. The other pseudo-op
 * extensions of TraceLens are found and reported, not built.
 */
#include <regex.h>

#include "../../common/interval.h"
#include "../../common/sort.h"
#include "merge.h"

int pflag;

enum { PS_UP, PS_DOWN, PS_FIN };
static const char *const psname[] = {
	"pseudo_op::moe_triton_unfused_up",
	"pseudo_op::moe_triton_unfused_down",
	"pseudo_op::moe_triton_unfused_finalize_matmul_scatter",
};
static const char *const pstype[] = { "up", "down",
	"finalize_matmul_scatter" };

struct pso {
	uint32_t m, k, l, orig;	/* MoE op, kernel, its launch, its parent */
	int type, index, gated;
	int64_t topk, uid;
};
static struct pso *ps;
static size_t nps, capps;

/* The rows the pseudo ops copy from: event indexes, sorted, and rows. */
static uint32_t *need;
static char **keep;
static size_t nneed, capneed, nkeep;

/*
 * The rows go out as they are read while none of them can change: while
 * each event row's chain of parents is known (read already) and holds no
 * MoE op, as in a stream whose parents come before their children. From
 * the first row that is not so on, the rows wait in the spool: every row
 * the pseudo ops change (a MoE kernel's launch, what is below it) or copy
 * from (the MoE op, its TopK, its kernels) is there, as each is below a
 * MoE op. The records of the events before it: k0. A stream whose
 * tl-tree -c vllm::moe_forward row counts none goes out as it comes.
 */
static FILE *pspool;
static uint32_t moeid;		/* "vllm::moe_forward" */
static uint8_t *anc;		/* per event: 1 no MoE op at or above it, 2
				 * one, 0 not known (a parent not read) */
static size_t capanc, k0;
static int spooling;
/* tl-tree -c vllm::moe_forward counted none (1), some or no count (-1),
 * not yet known (0): with none, no row can change, and none waits. */
static int nomoe;

static void
pstream(char *row, size_t len, const struct ev *e)
{
	size_t i = rep.n;	/* e is rep.ev[rep.n], being read */

	if (nomoe == 0 && e != NULL)	/* decided at the first event */
		nomoe = tload_count("vllm::moe_forward") == 0 ? 1 : -1;
	if (nomoe == 1 && e != NULL) {
		if (e->name == moeid)
			tl_errx(1, "%s: a vllm::moe_forward event in a trace "
			    "whose tree_count row counts none: the stream "
			    "was changed after tl-tree -c", rep.name);
		direct(row, len, e);
		return;
	}
	if (!spooling && e != NULL) {
		uint8_t a = e->name == moeid ? 2 : 1;

		xgrow(&anc, &capanc, i + 1, 1);
		if (tload_hasparent) {
			uint32_t p = tfind(&rep, tload_puid);

			a = p == NONE || anc[p] == 0 ? 0 : anc[p] == 2 ? 2 : a;
		}
		anc[i] = a;
		if (a != 1) {
			spooling = 1;
			k0 = i;
		}
	}
	if (!spooling) {
		direct(row, len, e);	/* the header first; -n's names */
		return;
	}
	if (fwrite(row, 1, len, pspool) != len || putc('\n', pspool) == EOF)
		tl_err(1, "spool");
}

void
pseudo_begin(FILE *spool)
{
	pspool = spool;
	moeid = tl_intern(in, "vllm::moe_forward", 17);
	rowhook = pstream;
}

static void
want(uint32_t i)
{
	xgrow(&need, &capneed, nneed + 1, sizeof *need);
	need[nneed++] = i;
}

static int
u32cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The kept row of event i, or NULL. */
static const char *
kept(uint32_t i)
{
	size_t lo = 0, hi = nneed, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (need[m] < i)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < nneed && need[lo] == i ? keep[lo] : NULL;
}

/* Field c (a TL_C_*) of a kept row, as the stream has it: its length. */
static const char *
rowfield(const char *row, int c, size_t *n)
{
	int at = out_col(c), k;
	const char *e;

	*n = 0;
	if (row == NULL || at < 0)
		return "";
	for (k = 0; k < at && row != NULL; k++)
		if ((row = strchr(row, '\t')) != NULL)
			row++;
	if (row == NULL)
		return "";
	e = strchr(row, '\t');
	*n = e != NULL ? (size_t)(e - row) : strlen(row);
	return row;
}

/*
 * Element 1 of a concrete_inputs field (a JSON list of strings) as an
 * integer, as Python's int() of a non-empty string takes it: 1 and *v.
 */
static int
concrete1(const char *f, size_t n, int64_t *v)
{
	static struct tl_jdoc d;
	static char *buf, *s;
	static size_t bcap;
	unsigned bad = 0;
	ptrdiff_t u;
	size_t sn, a, b;
	int i;

	xgrow(&buf, &bcap, n + 1, 1);
	if ((u = tl_tsv_unescape(buf, f, n)) < 0 ||
	    tl_json_parse(&d, buf, (size_t)u) != 0 || d.ntok < 3 ||
	    d.tok[0].type != JSMN_ARRAY || d.tok[0].size < 2)
		return 0;
	i = tl_jskip(&d, 1);
	if (i >= d.ntok || d.tok[i].type != JSMN_STRING)
		return 0;
	sn = (size_t)(d.tok[i].end - d.tok[i].start);
	s = xrealloc(s, sn + 1);
	sn = tl_junescape(s, buf + d.tok[i].start, sn, &bad);
	for (a = 0; a < sn && (s[a] == ' ' || s[a] == '\t'); a++)
		;
	for (b = sn; b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'); b--)
		;
	return b > a && tl_parse_i64(s + a, b - a, v) == 0;
}

/* The GPU events below each MoE op: off[m] .. off[m + 1) in gl. */
static uint32_t *gl, *goff, *mix;

static int
bytime(const void *a, const void *b)
{
	const struct ev *x = &rep.ev[*(const uint32_t *)a];
	const struct ev *y = &rep.ev[*(const uint32_t *)b];

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

/*
 * TopK for MoE op m: depth first below each child of m in turn, at most
 * ten levels below the child, the first event named *TopK* whose
 * concrete input 1 is an integer (4 if there is none). The candidates'
 * rows must be kept: with keepit, only mark them.
 */
static int64_t
topk(uint32_t m, int keepit, int *found)
{
	static uint32_t *stk;
	static int32_t *lev;
	static size_t scap;
	size_t sp, j;
	uint32_t i;
	int64_t v;
	const char *f;
	size_t n;

	*found = 0;
	for (j = rep.kid0[m]; j < rep.kid0[m + 1]; j++) {
		sp = 0;
		xgrow(&stk, &scap, 1, sizeof *stk);
		lev = xreallocarray(lev, scap, sizeof *lev);
		stk[sp] = rep.kids[j];
		lev[sp++] = 0;
		while (sp > 0) {
			int32_t d = lev[--sp];
			size_t k;

			i = stk[sp];
			if (has(rep.ev[i].name, "TopK")) {
				if (keepit)
					want(i);
				else {
					f = rowfield(kept(i), TL_C_CONCRETE,
					    &n);
					if (concrete1(f, n, &v)) {
						*found = 1;
						return v;
					}
				}
			}
			if (d >= 10)
				continue;
			xgrow(&stk, &scap, sp + rep.kid0[i + 1] -
			    rep.kid0[i] + 1, sizeof *stk);
			lev = xreallocarray(lev, scap, sizeof *lev);
			for (k = rep.kid0[i + 1]; k-- > rep.kid0[i];) {
				stk[sp] = rep.kids[k];
				lev[sp++] = d + 1;
			}
		}
	}
	return 4;
}

/* The pseudo ops of the MoE ops (spec 5.3), in the MoE ops' order. */
static void
moe(uint32_t nmoe, int64_t *nextu, uint64_t *nfound, uint64_t *nnotopk,
    uint64_t *nmulti, uint64_t *nnolaunch)
{
	static uint32_t *mk;
	static size_t capmk;
	size_t i, j, c, n, nmk, nsc, m;
	uint32_t sc = NONE;

	for (i = 0, m = 0; i < rep.n; i++) {
		if (rep.ev[i].name != nmoe || mix[i] == NONE)
			continue;
		m = mix[i];
		nmk = nsc = 0;
		n = goff[m + 1] - goff[m];
		xgrow(&mk, &capmk, n + 1, sizeof *mk);
		for (j = goff[m]; j < goff[m + 1]; j++) {
			struct ev *g = &rep.ev[gl[j]];

			if (g->kind != TL_K_KERNEL)
				continue;
			if (hasi(g->name, "matmul_ogs"))
				mk[nmk++] = gl[j];
			if (hasi(g->name, "matmul_scatter")) {
				sc = gl[j];
				nsc++;
			}
		}
		if (nmk == 0)
			continue;
		(*nfound)++;
		qsort(mk, nmk, sizeof *mk, bytime);
		{
			int found;
			int64_t k = topk((uint32_t)i, 0, &found);

			if (!found)
				(*nnotopk)++;
			for (c = 0; c <= nmk; c++) {
				struct pso p;
				uint32_t kk = c < nmk ? mk[c] : sc;

				if (c == nmk && nsc != 1) {
					if (nsc > 1)
						(*nmulti)++;
					break;
				}
				memset(&p, 0, sizeof p);
				p.m = (uint32_t)i;
				p.k = kk;
				p.type = c == nmk ? PS_FIN : c == 0 ? PS_UP :
				    PS_DOWN;
				p.index = (int)c;
				p.gated = hasi(rep.ev[kk].name, "_swiglu") ||
				    hasi(rep.ev[kk].name, "_glu");
				p.topk = k;
				p.l = rep.ev[kk].parent;
				p.orig = p.l != NONE ? rep.ev[p.l].parent :
				    NONE;
				if (p.orig == NONE || (rep.ev[p.l].flags &
				    F_MOVED)) {
					(*nnolaunch)++;
					continue;
				}
				rep.ev[p.l].flags |= F_MOVED;
				p.uid = (*nextu)++;
				xgrow(&ps, &capps, nps + 1, sizeof *ps);
				ps[nps++] = p;
			}
		}
	}
}

/* One JSON string of s[0..n), for the args of a pseudo op. */
static void
jstr(struct tl_out *o, const char *s)
{
	tl_out_char(o, '"');
	tl_out_raw(o, s, strlen(s));
	tl_out_char(o, '"');
}

/* Write pseudo op p after the last row. */
static void
putpseudo(const struct pso *p, int64_t *lbusy)
{
	static struct tl_out args = { -1, "args", NULL, 0, 0 };
	static char *mb;
	static size_t mcap;
	const char *mrow = kept(p->m), *krow = kept(p->k), *f;
	const struct ev *o = &rep.ev[p->orig], *l = &rep.ev[p->l];
	size_t c, n;
	uint32_t mod;

	for (c = 0; c < rep.ncol; c++) {
		fld[c] = (char *)"";
		fln[c] = 0;
	}
	out_setnum(TL_C_UID, p->uid);
	out_setstr(TL_C_PH, "X");
	out_setstr(TL_C_CAT, "cpu_op");
	out_setstr(TL_C_NAME, psname[p->type]);
	{
		/* the MoE op's; pid and tid its parent's (a record's, as
		 * its row may have gone out) */
		static const int copy[] = {
			TL_C_DIMS, TL_C_TYPES, TL_C_STRIDES, TL_C_CONCRETE,
			TL_C_TRACE, TL_C_RANK,
		};
		size_t q;

		for (q = 0; q < sizeof copy / sizeof copy[0]; q++) {
			if (out_col(copy[q]) < 0)
				continue;
			f = rowfield(mrow, copy[q], &n);
			fld[out_col(copy[q])] = (char *)f;
			fln[out_col(copy[q])] = n;
		}
		if (out_col(TL_C_PID) >= 0)
			fld[out_col(TL_C_PID)] = (char *)tl_intern_str(in,
			    o->pid, &fln[out_col(TL_C_PID)]);
		if (out_col(TL_C_TID) >= 0)
			fld[out_col(TL_C_TID)] = (char *)tl_intern_str(in,
			    o->tid, &fln[out_col(TL_C_TID)]);
	}
	out_setnum(TL_C_TS, l->ts);
	f = rowfield(krow, TL_C_CORR, &n);
	if (out_col(TL_C_EXT) >= 0) {
		fld[out_col(TL_C_EXT)] = (char *)f;
		fln[out_col(TL_C_EXT)] = n;
	}
	f = rowfield(mrow, TL_C_SEQ, &n);
	if (n > 0 && out_col(TL_C_SEQ) >= 0) {
		fld[out_col(TL_C_SEQ)] = (char *)f;
		fln[out_col(TL_C_SEQ)] = n;
	} else
		out_setnum(TL_C_SEQ, rep.ev[p->m].uid);
	args.n = 0;
	tl_out_raw(&args, "{\"Pseudo op\":true,\"MoE GEMM type\":", 34);
	jstr(&args, pstype[p->type]);
	if (p->type != PS_FIN) {
		char b[64];

		snprintf(b, sizeof b, ",\"MoE GEMM index\":%d,\"MoE GEMM "
		    "gated\":%s,\"MoE topk\":%lld", p->index, p->gated ?
		    "true" : "false", (long long)p->topk);
		tl_out_raw(&args, b, strlen(b));
	}
	tl_out_char(&args, '}');
	if (out_col(TL_C_ARGS) >= 0) {
		fld[out_col(TL_C_ARGS)] = args.buf;
		fln[out_col(TL_C_ARGS)] = args.n;
	}
	out_setnum(TL_C_PARENT, o->uid);
	out_setnum(TL_C_DEPTH, o->depth + 1);
	out_setnum(TL_C_ROOT, o->root != NONE ? rep.ev[o->root].uid : o->uid);
	out_setnum(TL_C_GPUTIME, 0);
	out_setnum(TL_C_SUBTREE, lbusy[p->l]);
	mod = o->module;
	if (o->flags & F_MODULE)
		mod = out_modpush(mod, o->name, &mb, &mcap);
	if (out_col(TL_C_MODULE) >= 0) {
		if (mod != NONE) {
			fld[out_col(TL_C_MODULE)] = (char *)tl_intern_str(in,
			    mod, &n);
			fln[out_col(TL_C_MODULE)] = n;
		} else
			out_setstr(TL_C_MODULE, "root");
	}
	out_putrow();
}

/* Per name id: the count of events (ncnt) and of kernels (kcnt) of that
 * name, made once. */
static uint32_t *ncnt, *kcnt;
static size_t nnames;

static void
namecounts(void)
{
	size_t i;

	if (ncnt != NULL)
		return;
	nnames = tl_intern_count(in);
	ncnt = xcalloc(nnames + 1, sizeof *ncnt);
	kcnt = xcalloc(nnames + 1, sizeof *kcnt);
	for (i = 0; i < rep.n; i++) {
		ncnt[rep.ev[i].name]++;
		kcnt[rep.ev[i].name] += rep.ev[i].kind == TL_K_KERNEL;
	}
}

/* A name's events exist: the count of those named s. */
static size_t
named(const char *s)
{
	uint32_t id = tl_intern(in, s, strlen(s));

	namecounts();
	return id < nnames ? ncnt[id] : 0;
}

/* Events whose name matches the extended regex rx. */
static size_t
matching(const char *rx)
{
	regex_t r;
	size_t i, c = 0, n;
	const char *s;

	if (regcomp(&r, rx, REG_EXTENDED | REG_NOSUB) != 0)
		tl_errx(1, "regcomp: %s", rx);
	namecounts();
	for (i = 0; i < nnames; i++) {
		if (ncnt[i] == 0)
			continue;
		s = tl_intern_str(in, (uint32_t)i, &n);
		if (regexec(&r, s, 0, NULL, 0) == 0)
			c += ncnt[i];
	}
	regfree(&r);
	return c;
}

static size_t
kernelnamed(const char *sub)
{
	size_t i, c = 0;

	namecounts();
	for (i = 0; i < nnames; i++)
		if (kcnt[i] > 0 && hasi((uint32_t)i, sub))
			c += kcnt[i];
	return c;
}

/* The extensions TraceLens has that tl does not build: a warning each. */
static void
unbuilt(void)
{
	static const struct {
		const char *what, *a, *b, *re, *kern;
	} x[] = {
		{ "MoE fused (AITER)", "vllm::moe_forward",
		    "vllm::rocm_aiter_fused_moe", NULL, NULL },
		{ "MoE GPTQ/AWQ", "vllm::outplace_fused_experts", NULL, NULL,
		    "fused_moe_kernel_gptq_awq" },
		{ "MoE flydsl", "aiter::fused_moe_", NULL, NULL, NULL },
		{ "MLA decode", "aiter::mla_decode_stage1_asm_fwd", NULL,
		    "aiter/mla\\.py\\([0-9]+\\): mla_decode_fwd", NULL },
		{ "MLA prefill", "aiter::mla_prefill_ps_asm_fwd", NULL,
		    ":[[:space:]]*mla_fp8_prefill_attn([^[:alnum:]_]|$)",
		    NULL },
		{ "DeepSeek-V4 paged decode", NULL, NULL,
		    "paged_decode\\.py\\([0-9]+\\):[[:space:]]*"
		    "sparse_attn_v4_paged_decode", NULL },
		{ "paged attention KV dtype", "_rocm_C::paged_attention", NULL,
		    NULL, NULL },
		{ "paged attention KV dtype", "aiter::paged_attention_v1",
		    NULL, NULL, NULL },
	};
	size_t i, n;

	for (i = 0; i < sizeof x / sizeof x[0]; i++) {
		n = x[i].a != NULL ? named(x[i].a) : 0;
		if (x[i].a != NULL && n == 0)
			continue;
		if (x[i].b != NULL && named(x[i].b) == 0)
			continue;
		if (x[i].kern != NULL && kernelnamed(x[i].kern) == 0)
			continue;
		if (x[i].re != NULL && (n = matching(x[i].re)) == 0)
			continue;
		tl_warnx("%s: TraceLens's %s pseudo ops are not built: %zu "
		    "event%s left as they are", rep.name, x[i].what, n,
		    n == 1 ? "" : "s");
	}
}

/* Keep the rows of the events in need (sorted, made unique here). */
static void
keeprows(FILE *spool)
{
	static char *line;
	static size_t lcap;
	ssize_t len;
	size_t i, j, e = k0, at = 0, un;

	qsort(need, nneed, sizeof *need, u32cmp);
	for (i = j = 0; i < nneed; i++)
		if (j == 0 || need[i] != need[j - 1])
			need[j++] = need[i];
	for (i = 0; i < nkeep; i++)
		free(keep[i]);
	free(keep);
	nneed = nkeep = j;
	keep = xcalloc(nneed + 1, sizeof *keep);
	rewind(spool);
	while ((len = getline(&line, &lcap, spool)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		(void)rowfield(line, TL_C_UID, &un);
		if (un == 0)
			continue;
		while (at < nneed && need[at] < e)
			at++;
		if (at < nneed && need[at] == e)
			keep[at] = xmemdup(line, (size_t)len + 1);
		e++;
	}
	if (ferror(spool))
		tl_err(1, "spool");
}

/* The spool's rows, not a byte changed: no lines to find, blocks as
 * large as the spool's buffer (which stdio then passes over). */
#define COPYBUF	(1 << 20)

static void
copyspool(FILE *spool)
{
	char *b = xmalloc(COPYBUF);
	size_t n;

	while ((n = fread(b, 1, COPYBUF, spool)) > 0)
		tl_out_raw(&out, b, n);
	free(b);
}

void
pseudo(FILE *spool)
{
	uint32_t nmoe = tl_intern(in, "vllm::moe_forward", 17), a;
	uint64_t nfound = 0, nnotopk = 0, nmulti = 0, nnolaunch = 0;
	int64_t nextu = nextuid, *lbusy;
	size_t i, j, k, nm = 0, lcap = 0;
	char *line = NULL;
	ssize_t len;
	uint32_t *newpar;
	int32_t *shift;
	int found;

	if (!spooling)
		k0 = rep.n;	/* every row went out */
	out_cols();
	header();
	unbuilt();
	/* the MoE ops, if the path is vLLM's Triton one */
	mix = xmalloc((rep.n + 1) * sizeof *mix);
	for (i = 0; i < rep.n; i++)
		mix[i] = NONE;
	if (named("vllm::moe_forward") > 0 &&
	    named("vllm::rocm_aiter_fused_moe") == 0 &&
	    kernelnamed("matmul_ogs") > 0)
		for (i = 0; i < rep.n; i++)
			if (rep.ev[i].name == nmoe)
				mix[i] = (uint32_t)nm++;
	if (nm == 0) {
		/* nothing to add: the rows as they are (SGLang's renamed) */
		rewind(spool);
		k = k0;
		if (ren == NULL)
			copyspool(spool);
		while (ren != NULL && (len = getline(&line, &lcap, spool)) >
		    0) {
			uint32_t id;

			if (line[len - 1] == '\n')
				line[--len] = '\0';
			if (!out_isevent(line, (size_t)len)) {
				out_putline(line, (size_t)len);
				continue;
			}
			id = rep.ev[k++].name;
			if (!renamed(id)) {
				out_putline(line, (size_t)len);
				continue;
			}
			out_split(line, (size_t)len);
			rename_(id, out_col(TL_C_NAME));
			out_putrow();
		}
		if (ferror(spool))
			tl_err(1, "spool");
		free(line);
		pseudo_free();
		return;
	}
	tkids(&rep);
	/* their GPU events: a count pass, then a fill pass */
	goff = xcalloc(nm + 2, sizeof *goff);
	gl = NULL;
	for (k = 0; k < 2; k++) {
		size_t *fill = xcalloc(nm + 1, sizeof *fill);

		for (i = 0; i < rep.n; i++) {
			if (!TL_K_ISGPU(rep.ev[i].kind))
				continue;
			for (a = rep.ev[i].parent, j = 0; a != NONE &&
			    j < rep.n; a = rep.ev[a].parent, j++) {
				if (mix[a] == NONE)
					continue;
				if (k == 0)
					goff[mix[a] + 1]++;
				else
					gl[goff[mix[a]] + fill[mix[a]]++] =
					    (uint32_t)i;
			}
		}
		free(fill);
		if (k == 0) {
			for (i = 0; i < nm; i++)
				goff[i + 1] += goff[i];
			gl = xmalloc((goff[nm] + 1) * sizeof *gl);
		}
	}
	/* the rows they copy from: the MoE ops, TopK candidates */
	for (i = 0; i < rep.n; i++)
		if (mix[i] != NONE) {
			want((uint32_t)i);
			(void)topk((uint32_t)i, 1, &found);
		}
	keeprows(spool);
	moe(nmoe, &nextu, &nfound, &nnotopk, &nmulti, &nnolaunch);
	for (i = 0; i < nps; i++)
		want(ps[i].k);
	keeprows(spool);
	/* the launches moved, and the depth of what is below them */
	newpar = xmalloc((rep.n + 1) * sizeof *newpar);
	shift = xcalloc(rep.n + 1, sizeof *shift);
	lbusy = xcalloc(rep.n + 1, sizeof *lbusy);
	for (i = 0; i < rep.n; i++)
		newpar[i] = NONE;
	for (i = 0; i < nps; i++)
		newpar[ps[i].l] = (uint32_t)i;
	{
		struct tl_iv *iv = NULL, *tmp = NULL;
		size_t icap = 0;

		for (i = 0; i < nps; i++) {
			uint32_t l = ps[i].l;
			size_t m = 0;

			shift[l] = 1;
			for (j = rep.kid0[l]; j < rep.kid0[l + 1]; j++) {
				const struct ev *g = &rep.ev[rep.kids[j]];

				shift[rep.kids[j]] = 1;
				if (!TL_K_ISGPU(g->kind))
					continue;
				xgrow(&iv, &icap, m + 1, sizeof *iv);
				tmp = xreallocarray(tmp, icap, sizeof *tmp);
				iv[m].start = g->ts;
				iv[m++].end = g->ts + g->dur;
			}
			lbusy[l] = tl_iv_busy(iv, m, tmp);
		}
		free(iv);
		free(tmp);
	}
	/* out: every row left, the moved launches under their pseudo ops
	 * (all of them in the spool: below a MoE op) */
	for (i = 0; i < k0; i++)
		if (newpar[i] != NONE || shift[i])
			tl_errx(1, "%s: event %" PRId64 ": changed after it "
			    "was written (a bug)", rep.name, rep.ev[i].uid);
	rewind(spool);
	k = k0;
	while ((len = getline(&line, &lcap, spool)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (!out_isevent(line, (size_t)len)) {
			out_putline(line, (size_t)len);
			continue;
		}
		if (newpar[k] == NONE && !shift[k] &&
		    !renamed(rep.ev[k].name)) {
			out_putline(line, (size_t)len);
			k++;
			continue;
		}
		out_split(line, (size_t)len);
		if (newpar[k] != NONE)
			out_setnum(TL_C_PARENT, ps[newpar[k]].uid);
		if (shift[k])
			out_setnum(TL_C_DEPTH, rep.ev[k].depth + 1);
		rename_(rep.ev[k].name, out_col(TL_C_NAME));
		out_putrow();
		k++;
	}
	if (ferror(spool))
		tl_err(1, "spool");
	for (i = 0; i < nps; i++)
		putpseudo(&ps[i], lbusy);
	if (nfound > 0)
		tl_warnx("%s: %zu pseudo op%s for %" PRIu64 " MoE op%s of "
		    "vLLM's Triton path", rep.name, nps, nps == 1 ? "" : "s",
		    nfound, nfound == 1 ? "" : "s");
	if (nnotopk > 0)
		tl_warnx("%s: %" PRIu64 " MoE op%s without a TopK op below: "
		    "topk taken as 4", rep.name, nnotopk, nnotopk == 1 ? "" :
		    "s");
	if (nmulti > 0)
		tl_warnx("%s: %" PRIu64 " MoE op%s with more than one "
		    "matmul_scatter kernel: no finalize pseudo op", rep.name,
		    nmulti, nmulti == 1 ? "" : "s");
	if (nnolaunch > 0)
		tl_warnx("%s: %" PRIu64 " MoE kernel%s without a launch "
		    "inside an event, or sharing a launch with another: no "
		    "pseudo op", rep.name, nnolaunch, nnolaunch == 1 ? "" :
		    "s");
	free(line);
	free(newpar);
	free(shift);
	free(lbusy);
	pseudo_free();
}

/* What -p keeps between its steps, freed (and ready for another input). */
void
pseudo_free(void)
{
	size_t i;

	for (i = 0; i < nkeep; i++)
		free(keep[i]);
	free(keep);
	free(need);
	free(mix);
	free(goff);
	free(gl);
	free(ps);
	free(anc);
	free(ncnt);
	free(kcnt);
	ncnt = kcnt = NULL;
	nnames = 0;
	anc = NULL;
	capanc = k0 = 0;
	spooling = nomoe = 0;
	keep = NULL;
	need = NULL;
	mix = goff = gl = NULL;
	ps = NULL;
	nkeep = nneed = capneed = nps = capps = 0;
}
