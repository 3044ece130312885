/*
 * tl-agg: collectives (spec 5.9): communication kernels grouped by their
 * process group and message arguments.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/npsort.h"
#include "../../common/pyfmt.h"
#include "../../common/sort.h"
#include "agg.h"

/* coll_analysis (5.9). */
static const char *const collkey[] = { "Process Group Name",
    "Process Group Ranks", "Collective name", "Group size", "dtype",
    "In msg nelems", "Out msg nelems", "In split size", "Out split size",
    NULL };

static double
bpe(const char *s, size_t n)
{
	static const struct {
		const char *name;
		double b;
	} t[] = { { "Float", 4 }, { "Int", 4 }, { "Long", 8 },
	    { "BFloat16", 2 }, { "Bool", 1 }, { "Byte", 1 }, { "Double", 8 },
	    { "Half", 2 }, { "Short", 2 } };
	size_t i;

	for (i = 0; i < sizeof t / sizeof *t; i++)
		if (strlen(t[i].name) == n && memcmp(t[i].name, s, n) == 0)
			return t[i].b;
	return NAN;
}

struct crow {
	uint32_t key[11];	/* 9 args (JSON text), stream; [10] unused */
	uint32_t ev;
};

static const uint32_t *cgkey;

static int
cmpcoll(const void *a, const void *b)
{
	const uint32_t *x = &cgkey[*(const uint32_t *)a * 10];
	const uint32_t *y = &cgkey[*(const uint32_t *)b * 10];
	int c, i;

	for (i = 0; i < 10; i++)
		if ((c = cmpnum(x[i], y[i])) != 0)
			return c;
	return 0;
}

/* Columns with a value missing somewhere: pandas made them floats. */
static int nanfloat[10];

/* The rank, and the arguments as pandas writes them (a JSON text). */
static void
collcell(struct table *t, const struct row *r, int j)
{
	const char *s;
	size_t sn;

	if (j == 10) {
		if (agg_csv)
			tab_int(t, 0);	/* TraceLens: rank = 0 */
		else
			tab_id(t, A->rank);
		return;
	}
	if (r->key[j] == NONE) {
		tab_none(t);
		return;
	}
	s = agg_str(r->key[j], &sn);
	sb.n = 0;
	if (!agg_csv) {
		if (json_string(&sb, s, sn))
			tab_sb(t, &sb);
		else
			tab_str(t, s, sn);
		return;
	}
	if (j == 9) {
		sb_stream(&sb, r->key[j], 0);
		if (nanfloat[j] && sb.n > 0 &&
		    strspn(sb_cstr(&sb), "-0123456789") == sb.n)
			sb_puts(&sb, ".0");
	} else if (tl_out_pyjson(&sb, s, sn, PYTUPLES) < 0)
		tl_out_raw(&sb, s, sn);
	else if (sb.buf[0] == '\'' || sb.buf[0] == '"') {
		/* strings are cells without quotes */
		sb.n = 0;
		json_string(&sb, s, sn);
	} else if (nanfloat[j] && sb.n > 0 &&
	    strspn(sb_cstr(&sb), "-0123456789") == sb.n)
		sb_puts(&sb, ".0");
	tab_sb(t, &sb);
}

void
collectives(struct table *t, int which)
{
#define DUR(nat, tl, s) \
	{ "duration_us_" nat, "dur_" tl, COL_STAT, 0, (s), COL_US }
	static const struct col cols[] = {
		{ "rank", "rank", COL_FN, 10, 0, 0 },
		{ "process_group", "Process Group Name", COL_FN, 0, 0, 0 },
		{ "process_group_ranks", "Process Group Ranks", COL_FN, 1, 0,
		    0 },
		{ "collective", "Collective name", COL_FN, 2, 0, 0 },
		{ "group_size", "Group size", COL_FN, 3, 0, 0 },
		{ "dtype", "dtype", COL_FN, 4, 0, 0 },
		{ "in_nelems", "In msg nelems", COL_FN, 5, 0, 0 },
		{ "out_nelems", "Out msg nelems", COL_FN, 6, 0, 0 },
		{ "in_split_size", "In split size", COL_FN, 7, 0, 0 },
		{ "out_split_size", "Out split size", COL_FN, 8, 0, 0 },
		{ "stream", "stream", COL_FN, 9, 0, 0 },
		{ "in_mib", "In msg size (MB)_first", COL_DBL, 0, 0, 0 },
		{ "out_mib", "Out msg size (MB)_first", COL_DBL, 1, 0, 0 },
		DUR("sum", "sum", S_SUM),
		DUR("mean", "mean", S_MEAN),
		DUR("std", "std", S_STD),
		DUR("min", "min", S_MIN),
		DUR("max", "max", S_MAX),
		{ "count", "operation_count", COL_INT, 0, 0, 0 },
		COLS_END
	};
#undef DUR
	struct row r;
	struct grouper g = { 10, NULL, 0, 0, NULL, 0 };
	uint32_t key[10], *grp, *mem, *sel, *order;
	size_t i, j, n = 0, ng, *off, *perm, ndrop = 0, ncoll = 0;
	const char *s, *v;
	size_t sn, vn;
	double *sum, *d;
	int json;

	tab_cols(t, which, cols);
	memset(nanfloat, 0, sizeof nanfloat);
	if (A->gpuonly) {
		t->skip = 1;
		return;
	}
	sel = xreallocarray(NULL, A->ngts + 1, sizeof *sel);
	grp = xreallocarray(NULL, A->ngts + 1, sizeof *grp);
	for (i = 0; i < A->n; i++) {
		const struct ev *e = &A->e[i];
		int miss = 0;

		if (e->kind != TL_K_KERNEL || !(e->flags & F_COMM) ||
		    !(e->flags & F_CORR))
			continue;
		ncoll++;
		s = ev_args(e) != NONE ? agg_str(ev_args(e), &sn) : NULL;
		json = s != NULL && json_parse(s, sn);
		for (j = 0; j < 9; j++) {
			key[j] = NONE;
			if (json && json_get(collkey[j], &v, &vn))
				key[j] = tl_intern(A->in, v, vn);
			else if (j == 0)
				key[j] = idstr("\"Unknown_Group\"");
			else if (j == 2) {
				v = agg_str(e->name, &vn);
				if (has(v, vn, "cross_device_reduce"))
					key[j] = idstr("\"allreduce\"");
			}
			if (key[j] == NONE) {
				miss = 1;
				nanfloat[j] = 1;
			}
		}
		key[9] = ev_stream(e);
		if (key[9] == NONE)
			miss = nanfloat[9] = 1;
		if (miss && !agg_keep) {
			ndrop++;
			continue;
		}
		sel[n] = (uint32_t)i;
		grp[n++] = (uint32_t)gfind(&g, key);
	}
	if (ncoll == 0) {
		agg_empty(t, "no collective kernels");
		t->skip = 1;
		goto out0;
	}
	if (ndrop > 0)
		agg_note("%zu of %zu collective kernel%s left out of \"%s\" "
		    "as TraceLens does: an argument is missing (-k keeps "
		    "them)", ndrop, ncoll, PL(ncoll), t->name);
	ng = g.ngroup;
	if (ng == 0) {
		t->skip = 1;
		goto out0;
	}
	members(grp, n, ng, &off, &mem);
	order = xreallocarray(NULL, ng + 1, sizeof *order);
	for (i = 0; i < ng; i++)
		order[i] = (uint32_t)i;
	cgkey = g.key;
	qsort(order, ng, sizeof *order, cmpcoll);
	sum = xcalloc(ng + 1, sizeof *sum);
	d = xcalloc(n + 1, sizeof *d);
	for (i = 0; i < ng; i++) {
		struct tl_kahan k = { 0, 0 };

		for (j = off[order[i]]; j < off[order[i] + 1]; j++)
			tl_kahan_add(&k, ev_dur(&A->e[sel[mem[j]]]));
		sum[i] = k.s;
	}
	perm = xcalloc(ng + 1, sizeof *perm);
	tl_nargsort_desc(sum, ng, perm);
	for (i = 0; i < ng; i++) {
		size_t gi = order[perm[i]], m = off[gi + 1] - off[gi];
		const uint32_t *kk = &g.key[gi * 10];
		double ne, b, mib[2];
		int w;

		for (j = 0; j < m; j++)
			d[j] = ev_dur(&A->e[sel[mem[off[gi] + j]]]);
		tl_stats(&r.st[0], d, m);
		/* message sizes of the first kernel of the group */
		sb.n = 0;
		b = NAN;
		if (kk[4] != NONE) {
			s = agg_str(kk[4], &sn);
			if (json_string(&sb, s, sn))
				b = bpe(sb.buf, sb.n);
		}
		for (w = 0; w < 2; w++) {
			mib[w] = NAN;
			if (kk[5 + w] == NONE)
				continue;
			ne = strtod(agg_str(kk[5 + w], NULL), NULL);
			mib[w] = ne * b / (1024 * 1024);
		}
		memcpy(r.key, kk, 10 * sizeof *kk);
		r.x[0] = mib[0];
		r.x[1] = mib[1];
		r.i[0] = (int64_t)m;
		tab_row(t, &r, collcell);
	}
	free(off);
	free(mem);
	free(order);
	free(sum);
	free(d);
	free(perm);
out0:
	gfree(&g);
	free(sel);
	free(grp);
}

