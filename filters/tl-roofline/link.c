/*
 * tl-roofline: the links of a trace's tree. Each linked GPU event goes
 * to the ops above it, and to the ops above the forward events of the
 * backward events above it (bwd_uids); each op and pass is an instance
 * with its kernels, in a sheet, and its busy time.
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/intern.h"
#include "../../common/mem.h"
#include "roof.h"
#include "seg.h"

#define NOUID	INT64_MIN

/* The sheets of a family: fwd, and bwd (-1 for a single sheet). */
const int rl_famsheet[NFAMILY][2] = {
	[F_GEMM] = { S_GEMM, -1 },
	[F_SDPA] = { S_SDPA_FWD, S_SDPA_BWD },
	[F_CONV] = { S_CONV_FWD, S_CONV_BWD },
	[F_UNARY] = { S_UNARY, -1 },
	[F_BINARY] = { S_BINARY, -1 },
	[F_NORM] = { S_NORM, -1 },
	[F_REDUCE] = { S_REDUCE_FWD, S_REDUCE_BWD },
	[F_SSM] = { S_SSM_FWD, S_SSM_BWD },
	[F_ROPE] = { S_ROPE_FWD, S_ROPE_BWD },
	[F_CE] = { S_CE_FWD, S_CE_BWD },
	[F_RMSNORM] = { S_RMSNORM, -1 },
	[F_COLL] = { S_COLL, -1 },
	[F_GQUANT] = { S_GQUANT, -1 },
	[F_ELEM] = { S_ELEM, -1 },
	[F_MHC] = { S_MHC, -1 },
	[F_MOE_AUX] = { S_MOE_AUX, -1 },
	[F_MOE_FUSED] = { S_MOE_FUSED, -1 },
	[F_MOE_UNFUSED] = { S_MOE_UNFUSED, -1 },
	[F_MOE_COMM] = { S_MOE_COMM_FWD, S_MOE_COMM_BWD },
	[F_GGEMM] = { S_GGEMM_FWD, S_GGEMM_BWD },
	[F_IATTN] = { S_IATTN, -1 },
	[F_FROPE] = { S_FROPE, -1 },
};

static const struct rl_gpu *cmpgpus;	/* for cmpkp */
/* The GEMM transpose param. */
static struct rl_res tres = { .py = RL_MEM, .js = RL_MEM };

static void
hbuild(struct rl_seg *S)
{
	size_t i, j;

	for (S->hmask = 63; S->hmask + 1 < 2 * S->nnodes + 2;
	    S->hmask = 2 * S->hmask + 1)
		;
	free(S->htab);
	S->htab = xcalloc(S->hmask + 1, sizeof *S->htab);
	for (i = 0; i < S->nnodes; i++) {
		for (j = tl_hash64((uint64_t)S->nodes[i].uid) & S->hmask;
		    S->htab[j] != 0; j = (j + 1) & S->hmask)
			if (S->nodes[S->htab[j] - 1].uid == S->nodes[i].uid)
				break;
		if (S->htab[j] == 0)
			S->htab[j] = (uint32_t)i + 1;
	}
}

static uint32_t
hfind(const struct rl_seg *S, int64_t uid)
{
	size_t j;

	for (j = tl_hash64((uint64_t)uid) & S->hmask; S->htab[j] != 0;
	    j = (j + 1) & S->hmask)
		if (S->nodes[S->htab[j] - 1].uid == uid)
			return S->htab[j] - 1;
	return RL_NONE;
}

static int
cmpbp(const void *a, const void *b)
{
	const struct rl_bwd *x = a, *y = b;

	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return x->fwd < y->fwd ? -1 : x->fwd > y->fwd;
}

static int
cmpkp(const void *a, const void *b)
{
	const struct rl_kp *x = a, *y = b;
	const struct rl_gpu *g = &cmpgpus[x->gpu], *h = &cmpgpus[y->gpu];

	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	if (x->bwd != y->bwd)
		return x->bwd < y->bwd ? -1 : 1;
	if (g->ts != h->ts)
		return g->ts < h->ts ? -1 : 1;
	return g->uid < h->uid ? -1 : g->uid > h->uid;
}

static void
addkp(struct rl_seg *S, uint32_t op, uint32_t gpu, int bwd)
{
	xgrow(&S->kps, &S->capkps, S->nkps + 1, sizeof *S->kps);
	S->kps[S->nkps++] = (struct rl_kp){ op, gpu, (uint8_t)bwd };
}

/*
 * Does op o take the kernels of its linked backward events? Those of a
 * forward convolution do not: TraceLens drops their _bwd rows, as the
 * convolution's backward op has rows of its own. A backward op with
 * linked backward events (a double backward) has a row for them too.
 */
static int
wantsbwd(const struct rl_op *o)
{
	if (!o->hasbwd || !o->bwdlinked)
		return 0;
	if (rl_famsheet[o->fam][1] < 0 || (o->fam == F_CONV && !o->isbwd))
		return 0;
	return 1;
}

static void
linktree(struct rl_seg *S)
{
	size_t i, j, k, d;
	uint32_t p, q, f, g, stamp;
	struct rl_op *o;
	int64_t puid;

	hbuild(S);
	for (i = 0; i < S->nnodes; i++) {
		puid = S->nodes[i].puid;
		S->nodes[i].parent = puid != NOUID ? hfind(S, puid) : RL_NONE;
	}
	/* backward events: the forward nodes of each */
	if (S->nbp > 0)
		qsort(S->bp, S->nbp, sizeof *S->bp, cmpbp);
	free(S->fwdv);
	S->fwdv = xcalloc(S->nbp + 1, sizeof *S->fwdv);
	free(S->fwdof);
	S->fwdof = S->nbp > 0 ? xcalloc(S->nnodes, sizeof *S->fwdof) : NULL;
	for (i = 0; i < S->nbp; i = j) {
		for (j = i; j < S->nbp && S->bp[j].uid == S->bp[i].uid; j++)
			S->fwdv[j] = S->bp[j].fwd;
		p = hfind(S, S->bp[i].uid);
		if (p == RL_NONE)
			continue;
		S->fwdof[p].fwd0 = (uint32_t)i;
		S->fwdof[p].n = (uint32_t)(j - i);
	}
	/* every linked GPU event: to the ops above it, and above the
	 * forward events of the backward events above it */
	S->nkps = 0;
	for (i = 0; i < S->nnodes; i++) {
		if (S->nodes[i].gpu == 0)
			continue;
		g = S->nodes[i].gpu - 1;
		stamp = g + 1;
		for (p = S->nodes[i].parent, d = 0; p != RL_NONE &&
		    d < S->nnodes; p = S->nodes[p].parent, d++) {
			if (S->nodes[p].op != 0)
				addkp(S, S->nodes[p].op - 1, g, 0);
			for (j = 0; S->fwdof != NULL && j < S->fwdof[p].n;
			    j++) {
				f = S->fwdv[S->fwdof[p].fwd0 + j];
				for (q = f, k = 0; q != RL_NONE &&
				    k < S->nnodes; q = S->nodes[q].parent,
				    k++) {
					if (S->nodes[q].op == 0)
						continue;
					o = &S->ops[S->nodes[q].op - 1];
					if (!wantsbwd(o) || o->lastg == stamp)
						continue;
					o->lastg = stamp;
					addkp(S, S->nodes[q].op - 1, g, 1);
				}
			}
		}
	}
	cmpgpus = S->gpus;
	if (S->nkps > 0)
		qsort(S->kps, S->nkps, sizeof *S->kps, cmpkp);
	free(S->kv);
	S->kv = xcalloc(S->nkps + 1, sizeof *S->kv);
	for (i = 0; i < S->nkps; i++)
		S->kv[i] = S->kps[i].gpu;
}

/* TraceLens's transpose flags from a GEMM kernel name: 0, or -1. */
static int
transpose(const char *s, int *ta, int *tb)
{
	static const char pat[] = "C..._A..._B...";	/* '.': [a-z] */
	const char *p, *last;
	size_t i;

	for (p = s; (p = strchr(p, 'C')) != NULL; p++) {
		for (i = 1; pat[i] != '\0'; i++)
			if (pat[i] == '.' ? p[i] < 'a' || p[i] > 'z' :
			    p[i] != pat[i])
				break;
		if (pat[i] != '\0')
			continue;
		if (strncmp(p + 5, "Alik", 4) == 0)
			*ta = 1;
		else if (strncmp(p + 5, "Ailk", 4) == 0)
			*ta = 0;
		else
			return -1;
		if (strncmp(p + 10, "Bjlk", 4) == 0)
			*tb = 1;
		else if (strncmp(p + 10, "Bljk", 4) == 0)
			*tb = 0;
		else
			return -1;
		return 0;
	}
	if (strncmp(s, "nvjet", 5) == 0) {
		last = strrchr(s, '_');
		last = last != NULL ? last + 1 : s;
		if (strlen(last) < 2)
			return -1;
		*ta = last[0] == 'T';
		*tb = last[1] == 'T';
		return 0;
	}
	return -1;
}

static void
addinst(struct rl_seg *S, uint32_t op, int sh, int bwd, int linked,
    int moved, size_t k0, size_t nk)
{
	xgrow(&S->insts, &S->capinsts, S->ninsts + 1, sizeof *S->insts);
	S->insts[S->ninsts++] = (struct rl_inst){ .op = op,
	    .sheet = (uint8_t)sh, .bwd = (uint8_t)bwd,
	    .linked = (uint8_t)linked, .moved = (uint8_t)moved,
	    .k0 = (uint32_t)k0, .nk = (uint32_t)nk };
}

/* The busy time of an instance's kernels (sorted by ts). */
static void
busy(const struct rl_seg *S, struct rl_inst *in)
{
	int64_t s = 0, e = 0, total = 0;
	double ds = 0, de = 0, dt = 0, a, b;
	size_t i;

	for (i = 0; i < in->nk; i++) {
		const struct rl_gpu *g = &S->gpus[S->kv[in->k0 + i]];

		a = (double)g->ts / 1000.0;
		b = a + (double)g->dur / 1000.0;
		if (i > 0 && g->ts <= e) {
			if (g->ts + g->dur > e)
				e = g->ts + g->dur;
		} else {
			total += e - s;
			s = g->ts;
			e = g->ts + g->dur;
		}
		if (i > 0 && a <= de) {
			if (b > de)
				de = b;
		} else {
			if (i > 0)
				dt += de - ds;
			ds = a;
			de = b;
		}
	}
	if (in->nk > 0)
		dt += de - ds;
	in->busy_ns = total + (e - s);
	in->busy_us = dt;
}

/* The sheet a pass of an op goes to. */
static int
sheetof(const struct rl_op *o, int linked, int *moved)
{
	const int *fs = rl_famsheet[o->fam];
	const char *n = o->m->name;

	*moved = 0;
	if (linked)
		return fs[1];
	if (fs[1] < 0 || !o->isbwd)
		return fs[0];
	if (rl_tracelens && strcmp(n, "flash_attn::_flash_attn_varlen_backward")
	    != 0 && strcmp(n, "aten::convolution_backward") != 0 &&
	    strcmp(n, "ConvBias_Backward") != 0 &&
	    strcmp(n, "ConvBiasReLU_Backward") != 0)
		return fs[0];	/* TraceLens leaves them in _fwd */
	*moved = 1;
	return fs[1];
}

/* A GEMM's transpose param, from the first of its kernels k0..k1 whose
 * name tells it. */
static void
gemmtranspose(struct rl_seg *S, struct rl_op *o, size_t k0, size_t k1)
{
	int v[2], k;

	for (; k0 < k1; k0++)
		if (transpose(tl_intern_str(S->in, S->gpus[S->kv[k0]].name,
		    NULL), &v[0], &v[1]) == 0) {
			o->transa = (int8_t)v[0];
			o->transb = (int8_t)v[1];
			k = v[0] * 2 + v[1];
			if (!S->hastpar[k]) {
				rl_reset(&tres);
				rl_pbools(&tres, P_TRANSPOSE, 2, v);
				rl_saveparam(S, &S->tpar[k], &tres, 0);
				S->hastpar[k] = 1;
			}
			return;
		}
}

static void
instances(struct rl_seg *S)
{
	size_t i, j, k0;
	int moved, sh;
	struct rl_op *o;

	S->ninsts = 0;
	for (i = 0, j = 0; i < S->nops; i++) {
		o = &S->ops[i];
		if (o->dead) {
			while (j < S->nkps && S->kps[j].op == i)
				j++;	/* not an op: its kernels go */
			continue;
		}
		k0 = j;
		while (j < S->nkps && S->kps[j].op == i && !S->kps[j].bwd)
			j++;
		if (o->fam == F_GEMM)
			gemmtranspose(S, o, k0, j);
		sh = sheetof(o, 0, &moved);
		addinst(S, (uint32_t)i, sh, o->isbwd, 0, moved, k0, j - k0);
		k0 = j;
		while (j < S->nkps && S->kps[j].op == i)
			j++;
		if (wantsbwd(o))
			addinst(S, (uint32_t)i, rl_famsheet[o->fam][1], 1, 1,
			    0, k0, j - k0);
	}
	for (i = 0; i < S->ninsts; i++)
		busy(S, &S->insts[i]);
}


void
rl_link(struct rl_seg *S)
{
	linktree(S);
	rl_pending(S);
	instances(S);
}

void
rl_link_end(void)
{
	free(tres.py.buf);
	free(tres.js.buf);
}
