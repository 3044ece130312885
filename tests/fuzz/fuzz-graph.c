/*
 * tl: fuzz target for tl-graph: the execution details reader, the replay
 * and capture tree streams, and the merge (the program's sources are
 * included, its main renamed). The bytes are three parts separated by
 * NUL bytes: execution_details.json, the replay's tree stream, a capture
 * trace's tree stream, the last written as c.tsv beside the details in a
 * scratch folder (capture traces other than .tsv are refused here, so
 * that no tl-parse runs). With an empty first part, no folder: the
 * stream goes through, or, when bit 1 of the size is set, gets its
 * pseudo ops (-p; with bit 2 too, the merge's count first, -u). The output goes to memory and is checked: each
 * line has the header's number of fields, and the replay's rows come
 * first, as many as it has.
 */
#define main tlgraph_main
#include "../../filters/tl-graph.c"
#undef main
#include "../../filters/tl-graph/align.c"
#include "../../filters/tl-graph/annot.c"
#include "../../filters/tl-graph/folder.c"
#include "../../filters/tl-graph/load.c"
#include "../../filters/tl-graph/output.c"
#include "../../filters/tl-graph/pseudo.c"

#include <sys/stat.h>

#include "fuzz.h"

static char dir[64], dpath[96], cpath[96];

static void
reset(void)
{
	size_t i;

	for (i = 0; i < nent; i++)
		free(ent[i].path);
	free(ent);
	ent = NULL;
	nent = 0;
	for (i = 0; i < ncap; i++) {
		size_t k;

		tfree(&cap[i].t);
		for (k = 0; k < cap[i].nroot; k++)
			free(cap[i].rev[k]);
		free(cap[i].rev);
		free(cap[i].nrev);
		free(cap[i].rts);
		free(cap[i].rte);
		free(cap[i].path);
	}
	free(cap);
	cap = NULL;
	ncap = 0;
	for (i = 0; i < npair; i++) {
		free(pairs[i].ce);
		free(pairs[i].gk);
		free(pairs[i].ck);
	}
	free(pairs);
	pairs = NULL;
	npair = cappair = 0;
	tfree(&rep);
	free(ren);
	ren = NULL;
	capren = 0;
	free(firstk);
	firstk = NULL;
	capfirst = 0;
	pseudo_free();
	tload_free();
	memset(left, 0, sizeof left);
	ngraphk = nplaced = 0;
	lefttime = gputime = 0;
	hdrdone = 0;
	namecol = -1;
	rowhook = NULL;
	nextuid = 0;
	warns.n = 0;
	out.n = 0;
	free(fld);
	free(fln);
	free(kpar);
	free(klaunch);
	free(kdepth);
	fld = NULL;
	fln = NULL;
	kpar = klaunch = NULL;
	kdepth = NULL;
	/* the names of one input are not the next one's */
	tl_intern_free(in);
	in = tl_intern_new();
	nm_execute = tl_intern(in, "execute", 7);
}

static void
put(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		abort();
	if (n > 0 && fwrite(p, 1, n, f) != n)
		abort();
	fclose(f);
}

/* Every line of the output has the header's field count. */
static void
check(void)
{
	size_t i, f = 1, hf = 0, line = 0;

	for (i = 0; i < out.n; i++) {
		if (out.buf[i] == '\t')
			f++;
		else if (out.buf[i] == '\n') {
			if (line++ == 0)
				hf = f;
			else if (f != hf)
				abort();
			f = 1;
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p[3] = { data, NULL, NULL };
	size_t n[3] = { size, 0, 0 }, i, k;
	struct tl_trace *volatile tr = NULL;
	FILE *volatile spool = NULL;

	fuzz_init();
	if (dir[0] == '\0') {
		snprintf(dir, sizeof dir, "/tmp/fuzz-graph.%ld", (long)getpid());
		mkdir(dir, 0700);
		snprintf(dpath, sizeof dpath, "%s/execution_details.json", dir);
		snprintf(cpath, sizeof cpath, "%s/c.tsv", dir);
		in = tl_intern_new();
		nm_execute = tl_intern(in, "execute", 7);
		iter_init();
		graph_nopipe = 1;
	}
	for (k = 0, i = 0; i < size && k < 2; i++)
		if (data[i] == 0) {
			n[k] = (size_t)(data + i - p[k]);
			p[k + 1] = data + i + 1;
			n[k + 1] = size - i - 1;
			k++;
		}
	put(dpath, p[0], n[0]);
	put(cpath, p[2], n[2]);
	folder = n[0] > 0 ? dir : NULL;
	details = dpath;
	nflag = size & 1;
	pflag = folder == NULL && (size & 2);
	uflag = pflag && (size & 4);
	out.fd = -1;
	tl_err_hook = fuzz_fatal;
	if (setjmp(fuzz_jb) == 0) {
		if (folder != NULL)
			readdetails();
		if (folder == NULL && !pflag)
			rowhook = direct;
		else if ((spool = tmpfile()) == NULL)
			abort();
		tr = tl_trace_src(tl_src_mem("fuzz.tsv", p[1], n[1]),
		    TL_S_TREE, TL_COL(TL_C_TS) | TL_COL(TL_C_DUR) |
		    TL_COL(TL_C_LAUNCHER) | TL_COL(TL_C_ROOT),
		    TL_COL(TL_C_STREAM) | TL_COL(TL_C_MODULE) |
		    TL_COL(TL_C_FWD) | TL_COL(TL_C_PID) | TL_COL(TL_C_TID) |
		    TL_COL(TL_C_ARGS));
		rep.name = xstrdup("fuzz.tsv");
		if (pflag) {
			pseudo_begin(spool);
			tload(&rep, tr, NULL, 0);
		} else
			tload(&rep, tr, spool, 0);
		if (spool == NULL)
			header();
		tkids(&rep);
		for (i = 0; i < rep.n; i++)
			if (rep.ev[i].uid >= nextuid)
				nextuid = rep.ev[i].uid + 1;
		if (!pflag || uflag)
			merge();
		if (nflag && spool != NULL)
			sglnames();
		if (pflag)
			pseudo(spool);
		else if (spool != NULL)
			writeall(spool);
		check();
	}
	tl_err_hook = NULL;
	if (tr != NULL)
		tl_trace_close(tr);
	if (spool != NULL)
		fclose(spool);
	reset();
	return 0;
}
