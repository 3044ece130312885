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
	double p, q;
	char *e1, *e2;

	for (i = 0; i < 10; i++) {
		if (x[i] == y[i])
			continue;
		if (x[i] == NONE || y[i] == NONE)
			return x[i] == NONE ? 1 : -1;
		p = strtod(agg_str(x[i], NULL), &e1);
		q = strtod(agg_str(y[i], NULL), &e2);
		if (*e1 == '\0' && *e2 == '\0' && p != q)
			return p < q ? -1 : 1;
		if ((c = cmpid(x[i], y[i])) != 0)
			return c;
	}
	return 0;
}

void
collectives(struct table *t)
{
	static const char *const tlc[] = { "rank", "Process Group Name",
	    "Process Group Ranks", "Collective name", "Group size", "dtype",
	    "In msg nelems", "Out msg nelems", "In split size",
	    "Out split size", "stream", "In msg size (MB)_first",
	    "Out msg size (MB)_first", "dur_sum", "dur_mean", "dur_std",
	    "dur_min", "dur_max", "operation_count", NULL };
	static const char *const nat[] = { "rank", "process_group",
	    "process_group_ranks", "collective", "group_size", "dtype",
	    "in_nelems", "out_nelems", "in_split_size", "out_split_size",
	    "stream", "in_mib", "out_mib", "duration_us_sum",
	    "duration_us_mean", "duration_us_std", "duration_us_min",
	    "duration_us_max", "count", NULL };
	struct grouper g = { 10, NULL, 0, 0, NULL, 0 };
	uint32_t key[10], *grp, *mem, *sel, *order;
	size_t i, j, n = 0, ng, *off, *perm, ndrop = 0, ncoll = 0;
	const char *s, *v;
	size_t sn, vn;
	double *sum, *d;
	struct stats st;
	int nanfloat[10] = { 0 };

	tab_init(t, agg_tabname[T_COLL], agg_sheetname[T_COLL],
	    agg_csv ? tlc : nat);
	if (agg_gpuonly) {
		t->skip = 1;
		return;
	}
	sel = xreallocarray(NULL, agg_n + 1, sizeof *sel);
	grp = xreallocarray(NULL, agg_n + 1, sizeof *grp);
	for (i = 0; i < agg_n; i++) {
		const struct ev *e = &agg_e[i];
		int miss = 0;

		if (e->kind != K_KERNEL || !(e->flags & F_COMM) ||
		    !(e->flags & F_CORR))
			continue;
		ncoll++;
		s = e->args != NONE ? agg_str(e->args, &sn) : "";
		if (e->args == NONE)
			sn = 0;
		for (j = 0; j < 9; j++) {
			key[j] = NONE;
			if (json_get(s, sn, collkey[j], &v, &vn))
				key[j] = tl_intern(agg_in, v, vn);
			else if (j == 0)
				key[j] = idstr("\"Unknown_Group\"");
			else if (j == 2) {
				const char *nm;
				size_t nn;

				nm = agg_str(e->name, &nn);
				sb.n = 0;
				sb_add(&sb, nm, nn);
				if (strstr(sb.p, "cross_device_reduce") !=
				    NULL)
					key[j] = idstr("\"allreduce\"");
			}
			if (key[j] == NONE) {
				miss = 1;
				nanfloat[j] = 1;
			}
		}
		key[9] = e->stream;
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
		struct kahan k = { 0, 0 };

		for (j = off[order[i]]; j < off[order[i] + 1]; j++)
			kahan_add(&k, agg_e[sel[mem[j]]].dur);
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
			d[j] = agg_e[sel[mem[off[gi] + j]]].dur;
		stats(&st, d, m);
		if (agg_csv)
			tab_int(t, 0);	/* TraceLens: rank = 0 */
		else
			tab_id(t, agg_rank);
		for (j = 0; j < 10; j++) {
			if (kk[j] == NONE) {
				tab_none(t);
				continue;
			}
			s = agg_str(kk[j], &sn);
			if (!agg_csv) {
				sb.n = 0;
				if (json_string(&sb, s, sn))
					tab_sb(t, &sb);
				else
					tab_str(t, s, sn);
				continue;
			}
			sb.n = 0;
			if (j == 9) {
				sb_stream(&sb, kk[j], 0);
				if (nanfloat[j] && sb.n > 0 &&
				    strspn(sb.p, "-0123456789") == sb.n)
					sb_puts(&sb, ".0");
			} else if (sb_pyjson(&sb, s, sn, 1) < 0)
				sb_add(&sb, s, sn);
			else if (sb.p[0] == '\'' || sb.p[0] == '"') {
				/* strings are cells without quotes */
				sb.n = 0;
				json_string(&sb, s, sn);
			} else if (nanfloat[j] && sb.n > 0 &&
			    strspn(sb.p, "-0123456789") == sb.n)
				sb_puts(&sb, ".0");
			tab_sb(t, &sb);
		}
		/* message sizes of the first kernel of the group */
		sb.n = 0;
		b = NAN;
		if (kk[4] != NONE) {
			s = agg_str(kk[4], &sn);
			if (json_string(&sb, s, sn))
				b = bpe(sb.p, sb.n);
		}
		for (w = 0; w < 2; w++) {
			mib[w] = NAN;
			if (kk[5 + w] == NONE)
				continue;
			ne = strtod(agg_str(kk[5 + w], NULL), NULL);
			mib[w] = ne * b / (1024 * 1024);
		}
		tab_dbl(t, mib[0]);
		tab_dbl(t, mib[1]);
		tab_dbl(t, agg_us(st.sum));
		tab_dbl(t, agg_us(st.mean));
		tab_dbl(t, agg_us(st.std));
		tab_dbl(t, agg_us(st.min));
		tab_dbl(t, agg_us(st.max));
		tab_int(t, (int64_t)m);
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

