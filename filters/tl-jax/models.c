/*
 * tl-jax: the op_<category> sheets and their perf models (spec 7.7, 8).
 */
#include "jax.h"

/* ---- op_<category> sheets (spec 7.7, 8) ---- */

#define MAXP 13

struct perf {
	size_t k;
	double flops, bytes;		/* NaN: none */
	const char *const *pname;	/* the model's parameters */
	char params[MAXP][128];
	int nparam;
	uint32_t key;
};

static const char *const convparams[] = { "convNd", "input_shape",
	"filter_shape", "output_shape", "bias", "bytes_per_element",
	"transposed_conv" };

static void
tuplestr(char *b, size_t cap, const int64_t *d, int n)
{
	struct tl_out o;

	tl_out_init(&o, -1, "(tuple)");
	puttuple(&o, d, n);
	snprintf(b, cap, "%.*s", (int)o.n, o.buf);
	free(o.buf);
}

/* The conv model of a row: 0, or -1 when it has none. */
static int
convmodel(const struct krow *k, struct perf *p)
{
	struct tl_jaxconv c;

	if (!k->hasout || tl_jax_conv(k->op, k->nop, &k->outs,
	    k->model == M_CONVBWD, tflag, &c) < 0)
		return -1;
	p->flops = c.flops;
	p->bytes = c.bytes;
	p->pname = convparams;
	p->nparam = 7;
	snprintf(p->params[0], sizeof p->params[0], "conv%dd", c.nx - 2);
	tuplestr(p->params[1], sizeof p->params[1], k->op[0].d, k->op[0].nd);
	tuplestr(p->params[2], sizeof p->params[2], c.w, c.nw);
	tuplestr(p->params[3], sizeof p->params[3], k->outs.d, k->outs.nd);
	snprintf(p->params[4], sizeof p->params[4], "%s", c.bias ? "True" :
	    "False");
	if (c.bpe > 0)
		snprintf(p->params[5], sizeof p->params[5], "%d", c.bpe);
	else
		p->params[5][0] = '\0';
	snprintf(p->params[6], sizeof p->params[6], "False");
	return 0;
}

static const char *const teparams[] = { "B", "N_Q", "H_Q", "N_KV", "H_KV",
	"d_h_qk", "d_h_v", "bias", "dtype_A_B", "causal", "flash_impl",
	"fused", "bytes_per_element" };

static void
typestuple(char *b, size_t cap, const struct tl_xshape *op, int n)
{
	struct tl_out o;
	int i;

	tl_out_init(&o, -1, "(types)");
	tl_out_char(&o, '(');
	for (i = 0; i < n; i++) {
		if (i > 0)
			tl_out_raw(&o, ", ", 2);
		tl_out_pystr(&o, op[i].type, strlen(op[i].type));
	}
	if (n == 1)
		tl_out_char(&o, ',');
	tl_out_char(&o, ')');
	snprintf(b, cap, "%.*s", (int)o.n, o.buf);
	free(o.buf);
}

/* TE fused attention (spec 8.5): q, k, v in BSHD order. */
static int
temodel(const struct krow *k, struct perf *p)
{
	const int64_t *q, *kk, *v;
	struct tl_jaxte a;
	struct tl_out o;

	if (tl_jax_te(k->op, k->nop, k->model != M_TE, tflag, &a) < 0)
		return -1;
	q = k->op[0].d;
	kk = k->op[1].d;
	v = k->op[2].d;
	p->flops = a.flops;
	p->bytes = a.bytes;
	p->pname = teparams;
	p->nparam = 13;
	snprintf(p->params[0], sizeof p->params[0], "%" PRId64, q[0]);
	snprintf(p->params[1], sizeof p->params[1], "%" PRId64, q[1]);
	snprintf(p->params[2], sizeof p->params[2], "%" PRId64, q[2]);
	snprintf(p->params[3], sizeof p->params[3], "%" PRId64, kk[1]);
	snprintf(p->params[4], sizeof p->params[4], "%" PRId64, kk[2]);
	snprintf(p->params[5], sizeof p->params[5], "%" PRId64, q[3]);
	snprintf(p->params[6], sizeof p->params[6], "%" PRId64, v[3]);
	tl_out_init(&o, -1, "(bias)");
	tl_out_char(&o, '(');
	if (k->nop > 3) {
		puttuple(&o, k->op[3].d, k->op[3].nd);
		tl_out_char(&o, ',');
	}
	tl_out_char(&o, ')');
	snprintf(p->params[7], sizeof p->params[7], "%.*s", (int)o.n, o.buf);
	free(o.buf);
	typestuple(p->params[8], sizeof p->params[8], k->op, 2);
	snprintf(p->params[9], sizeof p->params[9], "False");
	snprintf(p->params[10], sizeof p->params[10], "True");
	snprintf(p->params[11], sizeof p->params[11], "True");
	snprintf(p->params[12], sizeof p->params[12], "%d", a.bpe);
	return 0;
}

static const char *const gemmparams[] = { "B", "M", "N", "K", "bias",
	"dtype_A_B", "simulation_dtype" };

/* GEMM of a matmul custom call (spec 8.2, 8.5). */
static int
gemmmodel(const struct krow *k, const struct ev *e, struct perf *p)
{
	struct tl_jaxgemm g;
	const char *cfg = e->bcfg != NONE ? S(e->bcfg, NULL) : "";
	const char *t;

	if (!k->hasout || tl_jax_gemm(k->op, k->nop, &k->outs, cfg, &g) < 0)
		return -1;
	p->flops = g.flops;
	p->bytes = g.bytes;
	p->pname = gemmparams;
	p->nparam = 7;
	snprintf(p->params[0], sizeof p->params[0], "%.0f", g.B);
	snprintf(p->params[1], sizeof p->params[1], "%.0f", g.M);
	snprintf(p->params[2], sizeof p->params[2], "%.0f", g.N);
	snprintf(p->params[3], sizeof p->params[3], "%.0f", g.K);
	snprintf(p->params[4], sizeof p->params[4], "%s", g.beta != 0 ?
	    "True" : "False");
	typestuple(p->params[5], sizeof p->params[5], k->op, 2);
	t = e->cct != NONE && strstr(S(e->cct, NULL), "f8") ? "fp8" :
	    k->op[0].type;
	snprintf(p->params[6], sizeof p->params[6], "%s", t);
	return 0;
}

struct og {
	uint32_t key;
	size_t *r;		/* indexes into P */
	size_t n, cap;
	double ktsum;
	int64_t uid0;
};

static struct perf *P;

static int
ogkeycmp(const void *a, const void *b)
{
	const struct og *x = a, *y = b;

	return tl_intern_cmp(in, x->key, y->key);
}

static int
ogcmp(const void *a, const void *b)
{
	const struct og *x = a, *y = b;

	if (x->ktsum != y->ktsum)
		return x->ktsum > y->ktsum ? -1 : 1;
	return x->uid0 < y->uid0 ? -1 : x->uid0 > y->uid0;
}

static void
statcells(const double *v, size_t n, int sum)
{
	struct tl_stats st;
	double *c = xreallocarray(NULL, n + 1, sizeof *c);

	memcpy(c, v, n * sizeof *c);
	tl_stats(&st, c, n);
	cellf(st.mean);
	cellf(st.median);
	cellf(st.std);
	cellf(st.min);
	cellf(st.max);
	if (sum)
		cellf(st.sum);
	free(c);
}

void
opsheets(void)
{
	int c;
	size_t i, j;

	P = xreallocarray(NULL, nK + 1, sizeof *P);
	for (c = 0; c < NCAT; c++) {
		size_t np = 0, ng = 0;
		struct og *g = NULL;
		const char *pn[2 * MAXP];
		int npn = 0, pnone[2 * MAXP], nobytes = 0;
		char sname[64];
		int m;
		const char *cn = catname[c];

		for (i = 0; i < nK; i++) {
			struct krow *k = &K[i];
			struct perf *p = &P[np];

			if (k->cat != c || k->model == M_REST)
				continue;
			memset(p, 0, sizeof *p);
			p->k = i;
			if (k->model == M_CONV || k->model == M_CONVBWD) {
				if (convmodel(k, p) < 0)
					continue;
			} else if (k->model == M_TE || k->model == M_TEBWD) {
				if (temodel(k, p) < 0)
					continue;
			} else if (gemmmodel(k, &E[k->e], p) < 0)
				continue;
			np++;
		}
		if (np == 0)
			continue;
		/* name + params as strings: key-sorted groups */
		for (i = 0; i < np; i++) {
			struct tl_out o;
			size_t n;
			const char *s = S(E[K[P[i].k].e].name, &n);
			int q;

			tl_out_init(&o, -1, "(key)");
			tl_out_raw(&o, s, n);
			for (q = 0; q < P[i].nparam; q++) {
				tl_out_char(&o, '\001');
				tl_out_raw(&o, P[i].params[q],
				    strlen(P[i].params[q]));
			}
			P[i].key = tl_intern(in, o.buf, o.n);
			free(o.buf);
			for (j = 0; j < ng && g[j].key != P[i].key; j++)
				;
			if (j == ng) {
				g = xreallocarray(g, ng + 1, sizeof *g);
				memset(&g[ng], 0, sizeof *g);
				g[ng].key = P[i].key;
				g[ng].uid0 = E[K[P[i].k].e].uid;
				ng++;
			}
			xgrow(&g[j].r, &g[j].cap, g[j].n + 1, sizeof *g[j].r);
			g[j].r[g[j].n++] = i;
		}
		qsort(g, ng, sizeof *g, ogkeycmp);
		for (j = 0; j < ng; j++) {
			struct tl_kahan ks = { 0, 0 };

			for (i = 0; i < g[j].n; i++)
				tl_kahan_add(&ks, E[K[P[g[j].r[i]].k].e].dur);
			g[j].ktsum = ks.s;
		}
		/* a stable sort: merge sort by hand is not needed for the
		 * few groups; insertion sort keeps ties in key order */
		for (j = 1; j < ng; j++) {
			struct og t = g[j];
			size_t q = j;

			while (q > 0 && ogcmp(&g[q - 1], &t) > 0) {
				g[q] = g[q - 1];
				q--;
			}
			g[q] = t;
		}
		{
			const char *cols[64];
			int nc = 0;
			char pcol[2 * MAXP][64];

			cols[nc++] = "name";
			npn = 0;
			for (i = 0; i < np; i++)
				for (m = 0; m < P[i].nparam; m++) {
					int q2;

					for (q2 = 0; q2 < npn && strcmp(pn[q2],
					    P[i].pname[m]) != 0; q2++)
						;
					if (q2 == npn && npn < 2 * MAXP)
						pn[npn++] = P[i].pname[m];
				}
			/* TraceLens drops the columns that are all None or
			 * NaN: a parameter no row has, bytes no row knows. */
			nobytes = 1;
			for (i = 0; i < np; i++)
				if (P[i].bytes == P[i].bytes)
					nobytes = 0;
			for (m = 0; m < npn; m++) {
				pnone[m] = 1;
				for (i = 0; i < np && pnone[m]; i++) {
					int q2;

					for (q2 = 0; q2 < P[i].nparam; q2++)
						if (strcmp(P[i].pname[q2],
						    pn[m]) == 0 &&
						    P[i].params[q2][0] != '\0')
							pnone[m] = 0;
				}
				if (pnone[m])
					continue;
				snprintf(pcol[m], sizeof pcol[m], "param: %s",
				    pn[m]);
				cols[nc++] = pcol[m];
			}
			cols[nc++] = "GFLOPS_first";
			if (!nobytes) {
				cols[nc++] = "Data Moved (MB)_first";
				cols[nc++] = "FLOPS/Byte_first";
				cols[nc++] = "TB/s_mean";
				cols[nc++] = "TB/s_median";
				cols[nc++] = "TB/s_std";
				cols[nc++] = "TB/s_min";
				cols[nc++] = "TB/s_max";
			}
			cols[nc++] = "TFLOPS/s_mean";
			cols[nc++] = "TFLOPS/s_median";
			cols[nc++] = "TFLOPS/s_std";
			cols[nc++] = "TFLOPS/s_min";
			cols[nc++] = "TFLOPS/s_max";
			cols[nc++] = "kernel_details__summarize_kernel_stats";
			cols[nc++] = "Input Dims_first";
			cols[nc++] = "Input type_first";
			cols[nc++] = "Kernel Time (µs)_mean";
			cols[nc++] = "Kernel Time (µs)_median";
			cols[nc++] = "Kernel Time (µs)_std";
			cols[nc++] = "Kernel Time (µs)_min";
			cols[nc++] = "Kernel Time (µs)_max";
			cols[nc++] = "Kernel Time (µs)_sum";
			cols[nc++] = "name_count";
			cols[nc++] = "UID_first";
			cols[nc] = NULL;
			begin(cols);
		}
		for (j = 0; j < ng; j++) {
			struct perf *p0 = &P[g[j].r[0]];
			struct krow *k0 = &K[p0->k];
			size_t n = g[j].n;
			double *tb = xreallocarray(NULL, n + 1, sizeof *tb);
			double *tf = xreallocarray(NULL, n + 1, sizeof *tf);
			double *kt = xreallocarray(NULL, n + 1, sizeof *kt);
			double gf = p0->flops / 1e9;
			size_t *kr = xreallocarray(NULL, n + 1, sizeof *kr);
			struct tl_out o;

			for (i = 0; i < n; i++) {
				struct perf *p = &P[g[j].r[i]];
				double d = E[K[p->k].e].dur;

				kt[i] = d;
				tf[i] = d > 0 ? (p->flops / 1e9 / 1e3) /
				    (d / 1e6) : NAN;
				tb[i] = (p->bytes / 1e12) / (d / 1e6);
				kr[i] = p->k;
			}
			cellid(E[k0->e].name);
			for (m = 0; m < npn; m++) {
				int q2;

				if (pnone[m])
					continue;

				for (q2 = 0; q2 < p0->nparam &&
				    strcmp(p0->pname[q2], pn[m]) != 0; q2++)
					;
				cells(q2 < p0->nparam ? p0->params[q2] : "");
			}
			cellf(gf);
			if (!nobytes) {
				cellf(p0->bytes / 1048576);
				cellf(p0->bytes > 0 ? gf * 1e9 / p0->bytes :
				    NAN);
				statcells(tb, n, 0);
			}
			statcells(tf, n, 0);
			tl_out_init(&o, -1, "(kstats)");
			tl_out_raw(&o, "[{'name': ", 10);
			pyrepr(&o, E[k0->e].name);
			kstats(&o, kr, n);
			tl_out_raw(&o, "}]", 2);
			cell(o.buf, o.n);
			free(o.buf);
			cellid(k0->dims);
			cellid(k0->types);
			statcells(kt, n, 1);
			celli((int64_t)n);
			celli(E[k0->e].uid);
			endrec();
			free(tb);
			free(tf);
			free(kt);
			free(kr);
		}
		snprintf(sname, sizeof sname, "op_");
		for (i = 0, j = 3; cn[i] != '\0' && j < sizeof sname - 1;
		    i++) {
			if (cn[i] == ' ') {
				if (sname[j - 1] != '_')
					sname[j++] = '_';
			} else
				sname[j++] = (char)((cn[i] >= 'A' &&
				    cn[i] <= 'Z') ? cn[i] + 32 : cn[i]);
		}
		sname[j] = '\0';
		finish(sname);
		for (j = 0; j < ng; j++)
			free(g[j].r);
		free(g);
	}
	free(P);
}

