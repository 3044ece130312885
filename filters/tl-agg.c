/*
 * tl-agg: read a tree stream (tl-tree(1)) and write the tables of a
 * performance report: the GPU timeline, ops by category, by name and by
 * argument shapes, the unified perf summary, kernels, short kernels and
 * collectives, with the numbers TraceLens computes; and from HTA, idle
 * time by cause, launch delay, overlap and per-stream timelines. One
 * table goes to the standard output as a stream; -d writes every table
 * into a directory, and -C writes TraceLens's CSV files, as its perf
 * report writes them, for its users' scripts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/file.h"
#include "../common/input.h"
#include "../common/opt.h"
#include "../common/tsv.h"
#include "tl-agg/agg.h"

int agg_nat = 1, agg_csv, agg_unlinked, agg_keep;
const char *agg_cdir;
double agg_microidle = -1, agg_shortus = 10;
int agg_bins = 100, agg_single;
long agg_topk = -1;
double agg_launchcut = 100, agg_runtimecut = 50, agg_kernelwait = 0.03;

static int Tflag;
static char *cdir, *ddir;
static int table = -1;
int agg_want[NTABLES];
static struct table tabs[NTABLES];
static struct tl_out out, *fout[NTABLES];
static struct tl_file ffile[NTABLES];
static int hdrdone, ntraces;

static const char usage[] =
    "usage: tl-agg [-akT] [-b bins] [-L us] [-m us] [-n top] [-R us] "
    "[-s us] [-w us]\n"
    "              table [file ...]\n"
    "       tl-agg [-akT] [-b bins] [-L us] [-m us] [-n top] [-R us] "
    "[-s us] [-w us]\n"
    "              -d dir [-t table[,table...]] [file ...]\n"
    "       tl-agg [-akT] [-b bins] [-m us] [-n top] [-s us] -C dir\n"
    "              [-d dir [-L us] [-R us] [-t table[,table...]] "
    "[-w us]]\n"
    "              [file ...]\n";

static int
tablenum(const char *s)
{
	int i;

	for (i = 0; i < NTABLES; i++)
		if (strcmp(s, agg_tab[i].name) == 0 ||
		    (agg_tab[i].sheet != NULL &&
		    strcmp(s, agg_tab[i].sheet) == 0))
			return i;
	return -1;
}

/*
 * The names these tables had: HTA's tables are tl-hta's, so tl's
 * readings were renamed apart from them. A hint for a script that still
 * asks for the old name.
 */
static const char *
renamed(const char *s)
{
	static const char *const old[][2] = {
		{ "idle", "idle_gaps" }, { "launch", "launch_delays" },
		{ "launch_stats", "launch_delay_stats" },
		{ "overlap", "comm_exposure" }
	};
	size_t i;

	for (i = 0; i < sizeof old / sizeof old[0]; i++)
		if (strcmp(s, old[i][0]) == 0)
			return old[i][1];
	return NULL;
}

/* The headers of the streams, once the first trace's tables are built. */
static void
headers(void)
{
	int i, tr = A->tr->col[TL_C_TRACE] >= 0;

	if (hdrdone)
		return;
	hdrdone = 1;
	for (i = 0; i < NTABLES; i++)
		if (fout[i] != NULL) {	/* else not asked for, or a CSV */
			tab_header(fout[i], &tabs[i], tr);
			tl_out_flush(fout[i]);
		}
}

/* A trace is read: build its tables and write them. */
static void
finish(void)
{
	const char *tr = A->tr->col[TL_C_TRACE] >= 0 ? A->tr->name : NULL;
	int i;

	ntraces++;
	if (cdir != NULL && ntraces > 1)
		tl_errx(1, "-C: the input holds more than one trace (the "
		    "second is %s); TraceLens's CSVs are for one",
		    A->tr->name);
	agg_build();
	sheets(tabs);
	infer_sheets(tabs);
	if (cdir != NULL && ddir != NULL)
		agg_exact();
	hta(tabs);
	agg_warns_end();
	headers();
	for (i = 0; i < NTABLES; i++) {
		if (fout[i] != NULL)
			tab_tsv(fout[i], &tabs[i], tr);
		else if (agg_want[i]) {
			/* TraceLens leaves out empty sheets, but these */
			if (tab_nrow(&tabs[i]) == 0 && i != T_TIMELINE &&
			    i != T_SHORT && i != T_HIST)
				tabs[i].skip = 1;
			if (!tabs[i].skip && tab_csv(&tabs[i], cdir) < 0)
				exit(1);
		}
	}
	for (i = 0; i < NTABLES; i++)
		tab_free(&tabs[i]);
	agg_end();
	agg_nat = !Tflag;
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "all-gpu", no_argument, NULL, 'a' },
		{ "bins", required_argument, NULL, 'b' },
		{ "inference", required_argument, NULL, 'I' },
		{ "tracelens-csv", required_argument, NULL, 'C' },
		{ "dir", required_argument, NULL, 'd' },
		{ "keep", no_argument, NULL, 'k' },
		{ "launch-cutoff", required_argument, NULL, 'L' },
		{ "micro-idle", required_argument, NULL, 'm' },
		{ "top", required_argument, NULL, 'n' },
		{ "runtime-cutoff", required_argument, NULL, 'R' },
		{ "short", required_argument, NULL, 's' },
		{ "tables", required_argument, NULL, 't' },
		{ "tracelens", no_argument, NULL, 'T' },
		{ "kernel-wait", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t need = 0, use = 0;
	struct tl_trace *tr;
	int ch, status, i, r, Lset = 0;
	char *only = NULL, *p;

	tl_setprogname(argv[0]);
	while ((ch = tl_getopt(argc, argv, "ab:C:d:I:kL:m:n:R:s:t:Tw:", lopt,
	    usage)) != -1) {
		switch (ch) {
		case 'a':
			agg_unlinked = 1;
			break;
		case 'b':
			agg_bins = (int)tl_optnum("-b", optarg, 1, 1000000000);
			break;
		case 'C':
			cdir = optarg;
			break;
		case 'd':
			ddir = optarg;
			break;
		case 'I':
			agg_infer |= infer_opt(optarg);
			break;
		case 'k':
			agg_keep = 1;
			break;
		case 'L':
			agg_launchcut = tl_optfloat("-L", optarg, 0, HUGE_VAL);
			Lset = 1;
			break;
		case 'm':
			agg_microidle = tl_optfloat("-m", optarg, 0, HUGE_VAL);
			break;
		case 'n':
			agg_topk = (long)tl_optnum("-n", optarg, 0,
			    1000000000);
			break;
		case 'R':
			agg_runtimecut = tl_optfloat("-R", optarg, 0,
			    HUGE_VAL);
			Lset = 1;
			break;
		case 's':
			agg_shortus = tl_optfloat("-s", optarg, 0, HUGE_VAL);
			break;
		case 't':
			only = optarg;
			break;
		case 'T':
			Tflag = 1;
			break;
		case 'w':
			agg_kernelwait = tl_optfloat("-w", optarg, 0,
			    HUGE_VAL);
			Lset = 1;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (cdir != NULL && ddir == NULL && Lset)
		tl_errx(1, "-C writes no launch or idle tables: -L, -R and -w "
		    "do not apply (but -C with -d does)");
	if (only != NULL && ddir == NULL)
		tl_errx(1, "-t chooses the tables of -d: give -d too");
	if (cdir == NULL && ddir == NULL) {
		if (argc == 0) {
			tl_warnx("no table named");
			tl_usage(usage);
		}
		if ((table = tablenum(argv[0])) < 0 && renamed(argv[0]))
			tl_errx(1, "table \"%s\" is now \"%s\" (HTA's own "
			    "tables are tl-hta's)", argv[0], renamed(argv[0]));
		if (table < 0)
			tl_errx(1, "unknown table \"%s\" (the tables: "
			    "timeline categories ops unique_args unified "
			    "kernels short_kernels short_histogram "
			    "collectives idle_gaps launch_delays "
			    "launch_delay_stats comm_exposure streams)",
			    argv[0]);
		argc--;
		argv++;
		agg_want[table] = 1;
		agg_single = table + 1;
	} else
		for (i = 0; i < NTABLES; i++)
			agg_want[i] = cdir == NULL || ddir != NULL ||
			    agg_tab[i].sheet != NULL;
	if (table < 0)
		infer_want(agg_want, cdir != NULL);
	if (only != NULL) {
		int keep[NTABLES] = { 0 };

		for (p = strtok(only, ","); p != NULL; p = strtok(NULL, ",")) {
			if ((i = tablenum(p)) < 0 && renamed(p) != NULL)
				tl_errx(1, "-t: table \"%s\" is now \"%s\" "
				    "(HTA's own tables are tl-hta's)", p,
				    renamed(p));
			if (i < 0)
				tl_errx(1, "-t: unknown table \"%s\"", p);
			keep[i] = 1;
		}
		for (i = 0; i < NTABLES; i++)
			if (cdir == NULL || agg_tab[i].sheet == NULL)
				agg_want[i] &= keep[i];
	}
	if (cdir != NULL) {
		agg_csv = 1;
		agg_cdir = cdir;
		Tflag = 1;
	}
	agg_nat = !Tflag;
	for (i = 0; i < NTABLES; i++)
		if (agg_want[i]) {
			need |= agg_tab[i].need;
			use |= agg_tab[i].need | agg_tab[i].use;
		}

	if (cdir != NULL && tl_mkdirs(cdir) < 0)
		tl_err(1, "%s", cdir);
	if (ddir != NULL) {
		if (tl_mkdirs(ddir) < 0)
			tl_err(1, "%s", ddir);
		for (i = 0; i < NTABLES; i++) {
			char name[32];

			if (!agg_want[i] || (cdir != NULL &&
			    agg_tab[i].sheet != NULL))
				continue;	/* not asked for, or a CSV */
			snprintf(name, sizeof name, "%s.tsv", agg_tab[i].name);
			if (tl_file_open(&ffile[i], ddir, name) < 0)
				exit(1);
			fout[i] = &ffile[i].out;
		}
	} else
		tl_out_init(&out, 1, "<stdout>");
	if (table >= 0)
		fout[table] = &out;

	tr = tl_trace_open(argc, argv, TL_S_TREE, need, use | ~AGG_COSTLY);
	while (tl_trace_next(tr)) {
		agg_start(tr);
		while ((r = tl_trace_row(tr)) != TL_ROW_END)
			if (r == TL_ROW_EVENT)
				agg_row(tr);
		finish();
	}
	status = tr->status;
	tl_trace_close(tr);
	if (ddir != NULL) {
		for (i = 0; i < NTABLES; i++)
			if (fout[i] != NULL && tl_file_close(&ffile[i]) < 0)
				exit(1);
	} else
		tl_out_close(&out);
	sheets_final();
	return status;
}
