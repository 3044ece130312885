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
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/limit.h"
#include "../common/input.h"
#include "../common/mem.h"
#include "../common/tsv.h"
#include "tl-agg/agg.h"

int agg_nat = 1, agg_csv, agg_unlinked, agg_keep;
double agg_microidle = -1, agg_shortus = 10;
int agg_bins = 100, agg_single;
long agg_topk = -1;
double agg_launchcut = 100, agg_runtimecut = 50, agg_kernelwait = 0.03;

static int Tflag;
static char *cdir, *ddir;
static int table = -1;
static int want[NTABLES];
static struct table tabs[NTABLES];
static struct tl_out out, fout[NTABLES];
static int hdrdone, ntraces;

static noreturn void
usage(void)
{
	fprintf(stderr,
	    "usage: tl-agg [-akT] [-b bins] [-L us] [-m us] [-n top] "
	    "[-R us] [-s us] [-w us]\n"
	    "              table [file ...]\n"
	    "       tl-agg [-akT] [-b bins] [-L us] [-m us] [-n top] "
	    "[-R us] [-s us] [-w us]\n"
	    "              -d dir [-t table[,table...]] [file ...]\n"
	    "       tl-agg [-akT] [-b bins] [-m us] [-n top] [-s us] "
	    "-C dir\n"
	    "              [-d dir [-L us] [-R us] [-t table[,table...]] "
	    "[-w us]]\n"
	    "              [file ...]\n");
	exit(1);
}

static double
number(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0 || isnan(v) ||
	    isinf(v) || v < 0)
		tl_errx(1, "%s: not a number of 0 or more: \"%s\"", opt, s);
	return v;
}

static long
count(const char *opt, const char *s, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < min ||
	    v > 1000000000)
		tl_errx(1, "%s: not a whole number of %ld or more: \"%s\"",
		    opt, min, s);
	return v;
}

static int
tablenum(const char *s)
{
	int i;

	for (i = 0; i < NTABLES; i++)
		if (strcmp(s, agg_tabname[i]) == 0 ||
		    (agg_sheetname[i] != NULL &&
		    strcmp(s, agg_sheetname[i]) == 0))
			return i;
	return -1;
}

static void
mkdirp(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0777) == 0)
		return;
	if (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return;
	tl_err(1, "%s", dir);
}

/* The headers of the streams, once the first trace's tables are built. */
static void
headers(void)
{
	int i, tr = agg_col[C_TRACE] >= 0;

	if (hdrdone)
		return;
	hdrdone = 1;
	if (table >= 0) {
		tab_header(&out, &tabs[table], tr);
		tl_out_flush(&out);
		return;
	}
	for (i = 0; i < NTABLES; i++) {
		if (fout[i].buf == NULL)
			continue;	/* -C: a CSV file */
		tab_header(&fout[i], &tabs[i], tr);
		tl_out_flush(&fout[i]);
	}
}

/* A trace is read: build its tables and write them. */
static void
finish(void)
{
	const char *tr = agg_col[C_TRACE] >= 0 ? agg_tracename : NULL;
	int i;

	ntraces++;
	if (cdir != NULL && ntraces > 1)
		tl_errx(1, "-C: the input holds more than one trace (the "
		    "second is %s); TraceLens's CSVs are for one",
		    agg_tracename);
	agg_build();
	sheets(tabs, want);
	if (cdir != NULL && ddir != NULL)
		agg_exact();
	hta(tabs, want);
	agg_warns_end();
	headers();
	for (i = 0; i < NTABLES; i++) {
		if (!want[i])
			continue;
		if (cdir != NULL && agg_sheetname[i] == NULL)
			tab_tsv(&fout[i], &tabs[i], tr);
		else if (cdir != NULL) {
			/* TraceLens leaves out empty sheets, but these */
			if (tab_nrow(&tabs[i]) == 0 && i != T_TIMELINE &&
			    i != T_SHORT && i != T_HIST)
				tabs[i].skip = 1;
			if (agg_sheetname[i] != NULL && !tabs[i].skip &&
			    tab_csv(&tabs[i], cdir) < 0)
				exit(1);
		} else if (table >= 0)
			tab_tsv(&out, &tabs[i], tr);
		else
			tab_tsv(&fout[i], &tabs[i], tr);
	}
	for (i = 0; i < NTABLES; i++)
		tab_free(&tabs[i]);
	sheets_free();
	agg_clear();
	agg_nat = !Tflag;
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "all-gpu", no_argument, NULL, 'a' },
		{ "bins", required_argument, NULL, 'b' },
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
		TL_LIMIT_LONGOPT,
		{ NULL, 0, NULL, 0 }
	};
	unsigned long long need = 0, use = 0;
	struct tl_src *src;
	struct tl_tsv *t;
	int ch, status = 0, i, nops, r, Lset = 0;
	size_t len;
	char *path, *only = NULL, *p;

	tl_setprogname(argv[0]);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":ab:C:d:kL:m:n:R:s:t:Tw:", lopt,
	    NULL)) != -1) {
		switch (ch) {
		case TL_LIMIT_OPT:
			tl_limit_set(optarg);
			break;
		case 'a':
			agg_unlinked = 1;
			break;
		case 'b':
			agg_bins = (int)count("-b", optarg, 1);
			break;
		case 'C':
			cdir = optarg;
			break;
		case 'd':
			ddir = optarg;
			break;
		case 'k':
			agg_keep = 1;
			break;
		case 'L':
			agg_launchcut = number("-L", optarg);
			Lset = 1;
			break;
		case 'm':
			agg_microidle = number("-m", optarg);
			break;
		case 'n':
			agg_topk = count("-n", optarg, 0);
			break;
		case 'R':
			agg_runtimecut = number("-R", optarg);
			Lset = 1;
			break;
		case 's':
			agg_shortus = number("-s", optarg);
			break;
		case 't':
			only = optarg;
			break;
		case 'T':
			Tflag = 1;
			break;
		case 'w':
			agg_kernelwait = number("-w", optarg);
			Lset = 1;
			break;
		default:	/* ':' or '?' */
			tl_badopt(ch, argv);
			usage();
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
			usage();
		}
		if ((table = tablenum(argv[0])) < 0)
			tl_errx(1, "unknown table \"%s\" (the tables: "
			    "timeline categories ops unique_args unified "
			    "kernels short_kernels short_histogram "
			    "collectives idle launch launch_stats overlap "
			    "streams)", argv[0]);
		argc--;
		argv++;
		want[table] = 1;
		agg_single = table + 1;
	} else
		for (i = 0; i < NTABLES; i++)
			want[i] = cdir == NULL || ddir != NULL ||
			    agg_sheetname[i] != NULL;
	if (only != NULL) {
		int keep[NTABLES] = { 0 };

		for (p = strtok(only, ","); p != NULL; p = strtok(NULL, ",")) {
			if ((i = tablenum(p)) < 0)
				tl_errx(1, "-t: unknown table \"%s\"", p);
			keep[i] = 1;
		}
		for (i = 0; i < NTABLES; i++)
			if (cdir == NULL || agg_sheetname[i] == NULL)
				want[i] &= keep[i];
	}
	if (cdir != NULL) {
		agg_csv = 1;
		Tflag = 1;
	}
	agg_nat = !Tflag;
	for (i = 0; i < NTABLES; i++)
		if (want[i]) {
			need |= agg_tabneed[i];
			use |= agg_tabneed[i] | agg_tabuse[i];
		}

	if (cdir != NULL)
		mkdirp(cdir);
	if (ddir != NULL) {
		mkdirp(ddir);
		for (i = 0; i < NTABLES; i++) {
			int fd;

			if (!want[i] || (cdir != NULL &&
			    agg_sheetname[i] != NULL))
				continue;	/* not asked for, or a CSV file */

			len = strlen(ddir) + strlen(agg_tabname[i]) + 6;
			path = xmalloc(len);
			snprintf(path, len, "%s/%s.tsv", ddir,
			    agg_tabname[i]);
			if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC,
			    0666)) < 0)
				tl_err(1, "%s", path);
			tl_out_init(&fout[i], fd, path);
		}
	} else
		tl_out_init(&out, 1, "<stdout>");

	nops = argc > 0 ? argc : 1;
	for (i = 0; i < nops; i++) {
		src = tl_src_open(argc > 0 ? argv[i] : "-");
		if (src == NULL) {
			status = 1;
			continue;
		}
		while ((r = tl_src_next(src)) > 0) {
			t = tl_tsv_open(src);
			agg_header(t, need, use);
			agg_start(t->name);
			while (tl_tsv_next(t))
				while (agg_row(t)) {
					finish();
					agg_start(t->name);
				}
			finish();
			tl_tsv_close(t);
		}
		if (r < 0)
			status = 1;
		tl_src_close(src);
	}
	if (ddir != NULL)
		for (i = 0; i < NTABLES; i++) {
			if (fout[i].buf == NULL)
				continue;
			tl_out_close(&fout[i]);
			if (close(fout[i].fd) != 0)
				tl_err(1, "%s", fout[i].name);
			free((char *)fout[i].name);
		}
	else
		tl_out_close(&out);
	sheets_final();
	agg_freeall();
	return status;
}
