/*
 * tl-hta: HTA's CUPTI counter analysis
 * (get_cupti_counter_data_with_operators, spec 14): the k-th
 * cuda_profiler_range event by start paired with the k-th
 * cudaLaunchKernel, and the cpu_op stack of that launch; one row per
 * event with its counters.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/pyfmt.h"
#include "../../common/npsort.h"
#include "hta.h"

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
prefix(uint32_t id, const char *p)
{
	size_t n, k = strlen(p);
	const char *s = hta_s(id, &n);

	return n >= k && memcmp(s, p, k) == 0;
}

/* Value text of key in args JSON (its jsmn doc), or NULL. */
static const char *
argval(const struct tl_jdoc *d, const char *key, size_t *n)
{
	int i = 1, k;

	for (k = 0; d->ntok > 0 && k < d->tok[0].size && i < d->ntok; k++) {
		if (tl_jeq(d, i, key)) {
			*n = (size_t)(d->tok[i + 1].end - d->tok[i + 1].start);
			return d->js + d->tok[i + 1].start;
		}
		i = tl_jskip(d, i + 1);
	}
	return NULL;
}

void
hta_cupti(void)
{
	char **keys = NULL, name[64];
	size_t nkeys = 0, cap = 0, i, j, k, r;

	for (r = 0; r < hta_nrk; r++)	/* the counters: every key */
		for (i = 0; i < hta_rk[r].nprof; i++) {
			struct tl_jdoc d = { 0 };
			const char *a = hta_rk[r].prof[i].args;

			if (tl_json_parse(&d, a, strlen(a)) != 0 || d.ntok == 0)
				continue;
			for (j = 1, k = 0; k < (size_t)d.tok[0].size &&
			    (int)j < d.ntok; k++) {
				char *s = xmemdup(a + d.tok[j].start,
				    (size_t)(d.tok[j].end - d.tok[j].start));
				size_t m;

				for (m = 0; m < nkeys && strcmp(keys[m], s); m++)
					;
				if (m == nkeys) {
					xgrow(&keys, &cap, nkeys + 1,
					    sizeof *keys);
					keys[nkeys++] = s;
				} else
					free(s);
				j = (size_t)tl_jskip(&d, (int)j + 1);
			}
			tl_json_free(&d);
		}
	if (nkeys > 0)
		qsort(keys, nkeys, sizeof *keys, cmpstr);
	for (r = 0; r < hta_nrk; r++) {
		const struct rank *rk = &hta_rk[r];
		size_t *kr = xreallocarray(NULL, rk->n + 1, sizeof *kr);
		size_t *lr = xreallocarray(NULL, rk->n + 1, sizeof *lr);
		size_t nk = 0, nl = 0, *pk, *pl;
		double *key;
		struct cg g;
		struct csv *c;
		struct tl_out sb;

		if (rk->nprof == 0) {
			free(kr);
			free(lr);
			continue;
		}
		for (i = 0; i < rk->n; i++) {
			size_t n;
			const char *s = hta_s(rk->r[i].cat, &n);

			if (n == 19 && memcmp(s, "cuda_profiler_range", 19) == 0)
				kr[nk++] = i;
			else if (prefix(rk->r[i].cat, "cuda_runtime") &&
			    prefix(rk->r[i].name, "cudaLaunchKernel"))
				lr[nl++] = i;
		}
		if (nk != nl) {
			tl_warnx("cupti_counter_data: rank %" PRId64 ": %zu "
			    "counter ranges and %zu kernel launches (HTA "
			    "leaves the rank out): not written", rk->rank, nk,
			    nl);
			free(kr);
			free(lr);
			continue;
		}
		key = xreallocarray(NULL, nk + 1, sizeof *key);
		pk = xreallocarray(NULL, nk + 1, sizeof *pk);
		pl = xreallocarray(NULL, nk + 1, sizeof *pl);
		for (i = 0; i < nk; i++)
			key[i] = (double)rk->r[kr[i]].ts;
		tl_argsort(key, nk, pk);
		for (i = 0; i < nk; i++)
			key[i] = (double)rk->r[lr[i]].ts;
		tl_argsort(key, nk, pl);
		hta_callgraph(rk, &g);
		snprintf(name, sizeof name, "cupti_counter_data_rank%" PRId64
		    ".csv", rk->rank);
		c = csv_open(name);
		tl_out_init(&sb, -1, "header");
		tl_out_raw(&sb, ",index,cat,name,pid,tid,ts,dur,stream,"
		    "correlation,bytes,memory_bw_gbps,wait_on_stream,"
		    "wait_on_cuda_event_record_corr_id,input_dims,input_type,"
		    "input_strides,external_id,python_id,python_parent_id,"
		    "collective_name,in_msg_nelems,out_msg_nelems,msg_dtype,"
		    "group_size,process_rank,in_split_size,out_split_size",
		    strlen(",index,cat,name,pid,tid,ts,dur,stream,"
		    "correlation,bytes,memory_bw_gbps,wait_on_stream,"
		    "wait_on_cuda_event_record_corr_id,input_dims,input_type,"
		    "input_strides,external_id,python_id,python_parent_id,"
		    "collective_name,in_msg_nelems,out_msg_nelems,msg_dtype,"
		    "group_size,process_rank,in_split_size,out_split_size"));
		for (k = 0; k < nkeys; k++) {
			tl_out_char(&sb, ',');
			tl_out_raw(&sb, keys[k], strlen(keys[k]));
		}
		tl_out_raw(&sb, ",index_correlation,iteration,end,"
		    "user_annotation,depth,height,parent,num_kernels,"
		    "kernel_dur_sum,kernel_span,first_kernel_start,"
		    "last_kernel_end,s_user_annotation,index_runtime,op_stack,"
		    "top_level_op,bottom_level_op", strlen(",index_correlation,"
		    "iteration,end,user_annotation,depth,height,parent,"
		    "num_kernels,kernel_dur_sum,kernel_span,first_kernel_start,"
		    "last_kernel_end,s_user_annotation,index_runtime,op_stack,"
		    "top_level_op,bottom_level_op"));
		tl_out_char(&sb, '\0');
		csv_hdr(c, sb.buf);
		for (i = 0; i < nk; i++) {
			const struct row *e = &rk->r[kr[pk[i]]];
			size_t l = lr[pl[i]], p, ns = 0, *st;
			struct tl_jdoc d = { 0 };
			const char *args = "{}";
			size_t n;

			for (j = 0; j < rk->nprof; j++)
				if (rk->prof[j].index == e->index)
					args = rk->prof[j].args;
			tl_json_parse(&d, args, strlen(args));
			csv_i(c, (int64_t)i);
			csv_i(c, e->index);
			csv_id(c, e->cat);
			csv_id(c, e->name);
			csv_id(c, e->pid);
			csv_id(c, e->tid);
			csv_i(c, e->ts);
			csv_f(c, e->dur);
			csv_i(c, e->stream);
			csv_i(c, e->corr);
			/* the args HTA makes columns of: their defaults
			 * (a counter range has only counters in its args) */
			csv_i(c, -1);
			csv_f(c, e->bw);
			csv_i(c, -1);
			csv_i(c, -1);
			csv_s(c, "-1", 2);
			csv_s(c, "-1", 2);
			csv_s(c, "-1", 2);
			csv_i(c, e->ext);
			csv_i(c, -1);
			csv_i(c, -1);
			csv_s(c, "", 0);
			csv_i(c, 0);
			csv_i(c, 0);
			csv_s(c, "", 0);
			csv_i(c, 0);
			csv_i(c, -1);
			csv_s(c, "[]", 2);
			csv_s(c, "[]", 2);
			for (k = 0; k < nkeys; k++) {
				const char *v = argval(&d, keys[k], &n);

				if (v != NULL)
					csv_s(c, v, n);
				else
					csv_i(c, -1);
			}
			tl_json_free(&d);
			csv_i(c, e->ic);
			if (e->iter == NOITER)
				csv_s(c, "", 0);
			else
				csv_i(c, e->iter);
			csv_f(c, (double)e->ts + e->dur);	/* aligned here */
			/* the call-graph columns of the range itself, which
			 * Kineto writes on a GPU thread: outside the graph */
			csv_i(c, -1);
			csv_i(c, -1);
			csv_i(c, -1);
			csv_i(c, -1);
			csv_i(c, 0);
			csv_f(c, 0);
			csv_f(c, 0);
			csv_f(c, -1);
			csv_f(c, -1);
			csv_s(c, "", 0);
			csv_i(c, rk->r[l].index);
			/* the cpu_op events above the launch, outermost
			 * first */
			st = xreallocarray(NULL, rk->n + 1, sizeof *st);
			for (p = g.parent[l]; p != SIZE_MAX; p = g.parent[p])
				if (strcmp(hta_s(rk->r[p].cat, &n), "cpu_op") == 0)
					st[ns++] = p;
			sb.n = 0;
			tl_out_char(&sb, '[');
			for (k = ns; k-- > 0;) {
				const char *s = hta_s(rk->r[st[k]].name, &n);

				tl_out_pystr(&sb, s, n);
				if (k > 0)
					tl_out_raw(&sb, ", ", 2);
			}
			tl_out_char(&sb, ']');
			csv_s(c, sb.buf, sb.n);
			if (ns > 0) {
				const char *s = hta_s(rk->r[st[ns - 1]].name,
				    &n);

				csv_s(c, s, n);
				s = hta_s(rk->r[st[0]].name, &n);
				csv_s(c, s, n);
			} else {
				csv_s(c, "", 0);
				csv_s(c, "", 0);
			}
			csv_end(c);
			free(st);
		}
		csv_close(c);
		free(sb.buf);
		hta_cgfree(&g);
		free(kr);
		free(lr);
		free(key);
		free(pk);
		free(pl);
	}
	for (k = 0; k < nkeys; k++)
		free(keys[k]);
	free(keys);
}
