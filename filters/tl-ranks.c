/*
 * tl-ranks: the collectives of a distributed run, one trace per rank, as
 * a map and a join. tl-ranks -m reads one rank's tree stream and writes
 * its summary, a small stream; tl-ranks reads the summaries of all ranks
 * and writes TraceLens's multi-rank collective report (nccl_long,
 * nccl_implicit_sync, straggler_summary, ...) and HTA's cross-rank
 * tables (comm/comp overlap, temporal breakdown, potential stragglers),
 * as streams (-d) or as the peers' CSV files (-C). The summaries may be
 * made anywhere (one rank per job, per host) and joined in one place.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/opt.h"
#include "tl-ranks/ranks.h"

static const char usage[] =
    "usage: tl-ranks -m [-e] [-R rank] [file ...]\n"
    "       tl-ranks [-H] [-a metric[,metric...]] [-C dir] [-d dir] "
    "[-g gpus]\n"
    "                [-t table] [-w world] [summary ...]\n";

int
main(int argc, char *argv[])
{
	static char *dflt[] = { "mean", "median", "min", "max" };
	const char *cdir = NULL, *ddir = NULL, *only = NULL;
	int c, mflag = 0, eflag = 0;
	long rank = -1;
	size_t i;

	tl_setprogname(argv[0]);
	while ((c = tl_getopt(argc, argv, "a:C:d:eg:HmR:t:w:", NULL,
	    usage)) != -1)
		switch (c) {
		case 'a':
			tl_optlist(optarg, &j_metrics, &j_nmetrics);
			break;
		case 'C':
			cdir = optarg;
			break;
		case 'd':
			ddir = optarg;
			break;
		case 'e':
			eflag = 1;
			break;
		case 'g':
			j_gpn = (long)tl_optnum("-g", optarg, 0, 1L << 30);
			break;
		case 'H':
			j_heatmap = 1;
			break;
		case 'm':
			mflag = 1;
			break;
		case 'R':
			rank = (long)tl_optnum("-R", optarg, 0, 1L << 30);
			break;
		case 't':
			only = optarg;
			break;
		case 'w':
			j_world = (long)tl_optnum("-w", optarg, 1, 1L << 30);
			break;
		default:
			tl_usage(usage);
		}
	argc -= optind;
	argv += optind;
	if (mflag) {
		if (cdir != NULL || ddir != NULL || only != NULL ||
		    j_metrics != NULL || j_heatmap || j_world >= 0 ||
		    j_gpn >= 0)
			tl_usage(usage);
		return rank_map(argc, argv, eflag, rank);
	}
	if (eflag || rank >= 0)
		tl_usage(usage);
	if (j_metrics == NULL) {
		j_metrics = dflt;
		j_nmetrics = 4;
	} else
		for (i = 0; i < j_nmetrics; i++)
			if (strcmp(j_metrics[i], "mean") != 0 &&
			    strcmp(j_metrics[i], "median") != 0 &&
			    strcmp(j_metrics[i], "min") != 0 &&
			    strcmp(j_metrics[i], "max") != 0 &&
			    strcmp(j_metrics[i], "std") != 0 &&
			    strcmp(j_metrics[i], "sum") != 0 &&
			    strcmp(j_metrics[i], "count") != 0)
				tl_errx(tl_failstatus, "-a: not a statistic "
				    "(mean, median, min, max, std, sum, "
				    "count): \"%s\"", j_metrics[i]);
	if (cdir == NULL && ddir == NULL && only == NULL)
		only = "nccl_implicit_sync";
	return rank_join(argc, argv, cdir, ddir, only);
}
