/*
 * tl-agg: the GPU timeline (spec 3.3, 5.1): computation, exposed
 * communication and memcpy, busy and idle time.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/mem.h"
#include "../../common/npsort.h"
#include "../../common/pyfmt.h"
#include "../../common/sort.h"
#include "agg.h"

/* -C: graph_launch_unattributed.csv, the row of tl's own timeline. */
static void
graphfile(double g, double tot)
{
	struct tl_file f;

	if (tl_file_open(&f, agg_cdir, "graph_launch_unattributed.csv") < 0)
		exit(1);
	sb_puts(&f.out, "type,time ms,percent\ngraph_launch_unattributed_time,");
	tl_out_pyfloat(&f.out, agg_ms(g));
	tl_out_char(&f.out, ',');
	tl_out_pyfloat(&f.out, g / tot * 100);
	tl_out_char(&f.out, '\n');
	if (tl_file_close(&f) < 0)
		exit(1);
}

/* The timeline (spec 3.3, 5.1). */
void
timeline(struct table *t, int which)
{
	static const struct col cols[] = {
		{ "type", "type", COL_ID, 0, 0, 0 },
		{ "time_ms", "time ms", COL_DBL, 0, 0, COL_MS },
		{ "percent", "percent", COL_DBL, 1, 0, 0 },
		COLS_END
	};
	struct row r;
	struct iv *comp, *comm, *mem, *all, *x, *y, *gr;
	size_t nc = 0, nm = 0, ny = 0, na = 0, ng = 0, nx, i, n = 0;
	double v[10], tot;
	const char *names[10];
	int k = 0;
	uint32_t cg = idstr("cudaGraphLaunch"), hg = idstr("hipGraphLaunch");

	tab_cols(t, which, cols);
	A->totaltime = NAN;
	for (i = 0; i < A->ngts; i++)
		if (agg_unlinked || (A->e[A->gts[i]].flags & F_LINKED))
			n++;
	if (n == 0)
		return;
	comp = xcalloc(n, sizeof *comp);
	comm = xcalloc(n, sizeof *comm);
	mem = xcalloc(n, sizeof *mem);
	all = xcalloc(n, sizeof *all);
	gr = xcalloc(n, sizeof *gr);
	x = xcalloc(2 * n + 2, sizeof *x);
	y = xcalloc(2 * n + 2, sizeof *y);
	/* by start: the merges need not sort */
	for (i = 0; i < A->ngts; i++) {
		const struct ev *e = &A->e[A->gts[i]];
		struct iv iv;

		if (!(agg_unlinked || (e->flags & F_LINKED)))
			continue;
		iv.s = ev_ts(e);
		iv.e = ev_end(e);
		all[na++] = iv;
		if (e->parent != NONE && (A->e[e->parent].name == cg ||
		    A->e[e->parent].name == hg))
			gr[ng++] = iv;
		if (e->flags & F_MEMCPYK)
			mem[nm++] = iv;
		else if (e->flags & F_COMM)
			comm[ny++] = iv;
		else
			comp[nc++] = iv;
	}
	nc = agg_ivmerge(comp, nc);
	ny = agg_ivmerge(comm, ny);
	nm = agg_ivmerge(mem, nm);
	na = agg_ivmerge(all, na);
	tot = all[na - 1].e - all[0].s;
	A->totaltime = tot;
	names[k] = "computation_time";
	v[k++] = agg_ivlen(comp, nc);
	names[k] = "exposed_comm_time";
	v[k++] = agg_ivlen(x, ivsub(comp, nc, comm, ny, x));
	nx = ivsub(comp, nc, mem, nm, x);
	names[k] = "exposed_memcpy_time";
	v[k++] = agg_ivlen(y, ivsub(comm, ny, x, nx, y));
	names[k] = "busy_time";
	v[k++] = agg_ivlen(all, na);
	if (agg_microidle < 0) {
		names[k] = "idle_time";
		v[k] = tot - v[k - 1];
		k++;
	} else {
		struct iv span;
		double th = agg_nat ? agg_microidle * 1e3 : agg_microidle;
		double mic = 0, mac = 0;

		span.s = all[0].s;
		span.e = all[na - 1].e;
		nx = ivsub(all, na, &span, 1, x);
		for (i = 0; i < nx; i++) {
			if (x[i].e - x[i].s < th)
				mic += x[i].e - x[i].s;
			else
				mac += x[i].e - x[i].s;
		}
		names[k] = "micro_idle_time";
		v[k++] = mic;
		names[k] = "macro_idle_time";
		v[k++] = mac;
	}
	names[k] = "total_time";
	v[k++] = tot;
	names[k] = "total_comm_time";
	v[k++] = agg_ivlen(comm, ny);
	names[k] = "total_memcpy_time";
	v[k++] = agg_ivlen(mem, nm);
	/* tl's own: the GPU time under graph launches, charged to no op
	 * (no capture merged: tl-graph(1)); not in TraceLens's CSV file,
	 * but with -C in a file of its own */
	ng = agg_ivmerge(gr, ng);
	if (ng > 0 && !agg_csv) {
		names[k] = "graph_launch_unattributed_time";
		v[k++] = agg_ivlen(gr, ng);
	} else if (ng > 0 && agg_cdir != NULL)
		graphfile(agg_ivlen(gr, ng), tot);
	for (i = 0; i < (size_t)k; i++) {
		r.key[0] = idstr(names[i]);
		r.x[0] = v[i];
		r.x[1] = v[i] / tot * 100;
		tab_row(t, &r, NULL);
	}
	free(comp);
	free(comm);
	free(mem);
	free(all);
	free(gr);
	free(x);
	free(y);
}

