/*
 * tl-graph: merge CUDA/HIP graph capture traces into the tree stream of a
 * graph replay trace, as TraceLens's merge_capture_trace_into_graph does:
 * each replayed kernel, which the replay trace hangs under one
 * cudaGraphLaunch/hipGraphLaunch, is re-parented under the launch call
 * that captured it, so that the captured op (with its shapes and its
 * python and nn.Module frames) becomes its launcher. The output is a tree
 * stream like tl-tree's: every row of the replay tree, the moved kernels'
 * tree columns changed, then a copy of the captured host subtree for each
 * graph launch. Every GPU event that could not be placed is counted, by
 * reason, on the standard error.
 */
#include "tl-graph/merge.h"

static const char usage[] =
    "usage: tl-graph [-gnv] [-c folder [-e details.json] [-F]] [file]\n"
    "       tl-graph -p [-nu] [file]\n";

/* The spool's buffer: the whole replay stream can pass through it, in
 * blocks this large rather than stdio's 4 KiB. */
#define SPOOLBUF	(1 << 20)

struct tl_intern *in;
uint32_t nm_execute;

struct entry *ent;
size_t nent;

struct capture *cap;
size_t ncap;

struct pair *pairs;
size_t npair, cappair;

int graph_nopipe;		/* capture traces: tree streams only */
struct tree rep;		/* the replay tree */
struct tl_out out;
int64_t nextuid;
struct tl_warns warns;
const char *folder, *details;

const char *const reason[NREASON] = {
	"no iteration annotation encloses the graph launch",
	"the iteration annotation names no batch size",
	"no capture trace for the batch size",
	"capture roots and graph launches differ in number",
	"the graph launch has no GPU events",
	"the capture's launches do not align with the replayed kernels",
	"the graph launch is in two iteration annotations: merged once",
	"a multi-stream capture without kernel names: merge abandoned",
	"no capture folder (-c)",
};
uint64_t left[NREASON], ngraphk, nplaced;
int64_t lefttime, gputime;	/* sums of durations, ns */
int nflag;			/* -n: SGLang names */
int gflag;			/* -g: copies with GPU work only */
int Fflag;			/* -F: captures nested with tl-tree -F */
int vflag;			/* -v: each iteration's capture */
int uflag;			/* -u: -p on a tree not merged (no -c) */
uint8_t *ren;			/* per name id: renamed (-n) */
size_t capren;

/*
 * What the merge left, on the standard error (with -u, before what -p
 * says, as tl-graph | tl-graph -p would have it).
 */
static void
mergemsgs(void)
{
	int i;

	tl_warns_end(&warns, rep.name);
	if (lefttime > 0 && gputime > 0)
		tl_warnx("%s: %.1f%% of the GPU time (the sum of the GPU "
		    "events' durations) is under graph launches and not "
		    "attributed to any op", rep.name, 100.0 * (double)lefttime /
		    (double)gputime);
	if (ngraphk > 0 || npair > 0) {
		tl_warnx("%s: %" PRIu64 " of %" PRIu64 " GPU events under "
		    "graph launches attributed to captured launches (%zu "
		    "graph launch%s merged)", rep.name, nplaced, ngraphk,
		    npair, npair == 1 ? "" : "es");
		for (i = 0; i < NREASON; i++)
			if (left[i] > 0)
				tl_warnx("%s: %" PRIu64 " GPU event%s left "
				    "under %s graph launch: %s", rep.name,
				    left[i], left[i] == 1 ? "" : "s",
				    left[i] == 1 ? "its" : "their",
				    reason[i]);
	}
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "capture-folder", required_argument, NULL, 'c' },
		{ "details", required_argument, NULL, 'e' },
		{ "float-times", no_argument, NULL, 'F' },
		{ "gpu-only", no_argument, NULL, 'g' },
		{ "sglang-names", no_argument, NULL, 'n' },
		{ "pseudo-ops", no_argument, NULL, 'p' },
		{ "unmerged", no_argument, NULL, 'u' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct tl_trace *tr;
	FILE *spool;
	char *dpath = NULL, *sbuf = NULL;
	int ch, status, i;

	tl_setprogname(argv[0]);
	while ((ch = tl_getopt(argc, argv, "c:e:Fgnpuv", lopt, usage)) != -1) {
		switch (ch) {
		case 'c':
			folder = optarg;
			break;
		case 'e':
			details = optarg;
			break;
		case 'F':
			Fflag = 1;
			break;
		case 'g':
			gflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		case 'p':
			pflag = 1;
			break;
		case 'u':
			uflag = 1;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (details != NULL && folder == NULL)
		tl_errx(1, "-e needs -c");
	if (pflag && (folder != NULL || gflag))
		tl_errx(1, "-p reads a merged tree: tl-graph -c folder | "
		    "tl-graph -p");
	if (uflag && !pflag)
		tl_errx(1, "-u needs -p");
	if (argc > 1)
		tl_usage(usage);
	if (details == NULL && folder != NULL) {
		dpath = xmalloc(strlen(folder) + 32);
		sprintf(dpath, "%s/execution_details.json", folder);
		details = dpath;
	}
	in = tl_intern_new();
	nm_execute = tl_intern(in, "execute", 7);
	iter_init();
	if (folder != NULL)
		readdetails();
	tl_out_init(&out, 1, "<stdout>");
	spool = NULL;
	if (folder == NULL && !pflag) {
		rowhook = direct;
		tload_sparse = 1;
	} else {
		if ((spool = tl_tmpfile("tl-graph")) == NULL)
			exit(1);
		sbuf = xmalloc(SPOOLBUF);
		(void)setvbuf(spool, sbuf, _IOFBF, SPOOLBUF);
	}
	tr = tl_trace_open(argc, argv, TL_S_TREE, TL_COL(TL_C_TS) |
	    TL_COL(TL_C_DUR) | TL_COL(TL_C_LAUNCHER) | TL_COL(TL_C_ROOT),
	    TL_COL(TL_C_STREAM) | TL_COL(TL_C_MODULE) | TL_COL(TL_C_FWD) |
	    TL_COL(TL_C_PID) | TL_COL(TL_C_TID) | TL_COL(TL_C_ARGS));
	rep.name = xstrdup(argc > 0 ? argv[0] : "<stdin>");
	if (pflag) {
		/* -p writes the rows as they come while it can (pseudo.c) */
		pseudo_begin(spool);
		tload(&rep, tr, NULL, 0);
	} else
		tload(&rep, tr, spool, 0);
	if (spool == NULL)
		header();
	status = tr->status;
	tl_trace_close(tr);
	if (!pflag)
		tkids(&rep);
	nextuid = 0;
	for (i = 0; (size_t)i < rep.n; i++)
		if (rep.ev[i].uid >= nextuid)
			nextuid = rep.ev[i].uid + 1;
	if (rep.n > 0)
		nextuid = rep.ev[rep.n - 1].uid + 1 > nextuid ?
		    rep.ev[rep.n - 1].uid + 1 : nextuid;
	for (i = 0; (size_t)i < rep.n; i++)
		if (TL_K_ISGPU(rep.ev[i].kind))
			gputime += rep.ev[i].dur;
	if (!pflag || uflag)
		merge();
	if (uflag)
		mergemsgs();
	if (nflag && spool != NULL)
		sglnames();
	if (pflag)
		pseudo(spool);
	else if (spool != NULL)
		writeall(spool);
	if (spool != NULL)
		fclose(spool);
	free(sbuf);
	tl_out_close(&out);
	if (!uflag)
		mergemsgs();
	free(dpath);
	return status;
}
