/*
 * tl-tree: read the event stream of tl-parse(1) and write the tree stream:
 * every row and column of the input, unchanged and in input order, plus
 * the columns of the call tree that TraceLens's Trace2Tree builds: host
 * events nested per (pid, tid) by time, runtime launches linked to the GPU
 * events they started, the op that launched each GPU event, the busy time
 * of the GPU events under each op, forward/backward links by sequence
 * number and the nn.Module stack. With -p or -u it draws the tree, or the
 * chain of parents of one node, instead.
 *
 * A trace is held as compact records (interned strings, integer times,
 * array indexes) for the events the tree needs (tl-tree/read.c); the
 * input rows themselves wait in a spool (memory, then a temporary file)
 * until the trace's tree is built (build.c) and they can be written with
 * their new columns, or the tree drawn (write.c).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../common/opt.h"
#include "tl-tree/tree.h"

#define PL(n)		((n) == 1 ? "" : "s")

int Aflag, Fflag, gflag, pflag, Pflag, nflag, sflag, uflag, eflag;
int64_t dlimit = -1, nodeuid, upuid, eext;
char *epid, *etid;
int found;
struct cname *cname;
size_t ncname;

const char *const treecol[NTREECOL + 1] = {
	"parent", "depth", "root", "launcher", "linked",
	"gpu_kernel_time_ns", "subtree_kernel_time_ns", "fwd_uid",
	"bwd_uids", "nn_module", NULL
};

struct tl_out out;

static const char usage[] =
    "usage: tl-tree [-AFPs] [-c name] [file ...]\n"
    "       tl-tree -p [-AFgP] [-d depth] [-e ext_id,pid,tid | -n uid] "
    "[file ...]\n"
    "       tl-tree -u uid [-AFP] [-d depth] [file ...]\n";

/*
 * What was amiss in the events of the 2021 generation (tl-tsv(5)): events
 * of today's beside them, GPU events without a correlation, async flows
 * without an end or a start.
 */
static void
gen2021(const struct trace *tr)
{
	const char *name = tr->name;
	uint64_t nos = 0, nof = 0, ntoday = 0;
	size_t i;

	for (i = 0; i < tr->nflow; i++)
		if (tr->flow[i].old) {
			nos += !tr->flow[i].s;
			nof += !tr->flow[i].f;
		}
	for (i = 0; i < tr->nrec; i++)
		ntoday += tr->R[i].kind != TL_K_OTHER &&
		    !(tr->R[i].flags & F_2021);
	if (ntoday > 0)
		tl_warnx("%s: mixed generations: %" PRIu64 " events of the "
		    "2021 generation (PyTorch 1.8-1.9) and %" PRIu64 " of "
		    "today's: each read by its own category", name, tr->n2021,
		    ntoday);
	if (tr->nnocorr > 0)
		tl_warnx("%s: %" PRIu64 " GPU event%s of the 2021 generation "
		    "without a correlation: not linked", name, tr->nnocorr,
		    PL(tr->nnocorr));
	if (nof > 0)
		tl_warnx("%s: %" PRIu64 " async launch flow%s without an end "
		    "(\"f\"): %s nothing", name, nof, PL(nof),
		    nof == 1 ? "its launch links" : "their launches link");
	if (nos > 0)
		tl_warnx("%s: %" PRIu64 " async launch flow%s without a start "
		    "(\"s\"): %s nothing", name, nos, PL(nos),
		    nos == 1 ? "it links" : "they link");
}

/* Build the tree of a trace, write or draw it, and say what was amiss. */
void
finish(struct trace *tr)
{
	const char *name = tr->name;

	hosttree(tr);
	linkgpu(tr);
	kerneltime(tr);
	fwdbwd(tr);
	if (pflag || uflag)
		print(tr);
	else
		writerows(tr);
	tl_warns_end(&tr->warns, name);
	if (tr->ndrop > 0)
		tl_warnx("%s: %" PRIu64 " of %" PRIu64 " host events left "
		    "out of the tree: each ends after the event in which it "
		    "starts", name, tr->ndrop, tr->nhost);
	if (tr->bykey)
		tl_warnx("%s: no flow events: GPU events linked to the launch "
		    "of their %s, as HTA does", name, tr->lk == 1 ?
		    "correlation" : "external id");
	if (tr->nlinked < tr->ngpu)
		tl_warnx("%s: %" PRIu64 " of %" PRIu64 " GPU events not "
		    "linked to a launch", name, tr->ngpu - tr->nlinked,
		    tr->ngpu);
	if (tr->nrefused > 0)
		tl_warnx("%s: %" PRIu64 " flow%s refused: %s to events that "
		    "are not GPU events", name, tr->nrefused, PL(tr->nrefused),
		    tr->nrefused == 1 ? "it leads" : "they lead");
	if (tr->ndup > 0)
		tl_warnx("%s: %" PRIu64 " GPU event%s linked by more than one "
		    "launch: the last kept", name, tr->ndup, PL(tr->ndup));
	if (tr->nnots > 0)
		tl_warnx("%s: %" PRIu64 " event%s without ts_ns left out of "
		    "the tree", name, tr->nnots, PL(tr->nnots));
	if (tr->nnodur > 0)
		tl_warnx("%s: %" PRIu64 " event%s without a valid dur_ns "
		    "taken as 0 ns long", name, tr->nnodur, PL(tr->nnodur));
	if (tr->nclip > 0)
		tl_warnx("%s: %" PRIu64 " event%s ending past the largest "
		    "time (2^63-1 ns) ended at it", name, tr->nclip,
		    PL(tr->nclip));
	if (tr->nbadid > 0)
		tl_warnx("%s: %" PRIu64 " non-integer id%s ignored", name,
		    tr->nbadid, PL(tr->nbadid));
	if (tr->n2021 > 0)
		gen2021(tr);
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "annotations", no_argument, NULL, 'A' },
		{ "count", required_argument, NULL, 'c' },
		{ "float-times", no_argument, NULL, 'F' },
		{ "depth", required_argument, NULL, 'd' },
		{ "external-id", required_argument, NULL, 'e' },
		{ "gpu", no_argument, NULL, 'g' },
		{ "node", required_argument, NULL, 'n' },
		{ "print", no_argument, NULL, 'p' },
		{ "python", no_argument, NULL, 'P' },
		{ "slim", no_argument, NULL, 's' },
		{ "up", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	int ch, status;
	size_t n;

	tl_setprogname(argv[0]);
	while ((ch = tl_getopt(argc, argv, "AFc:d:e:gn:pPsu:", lopt, usage)) !=
	    -1) {
		switch (ch) {
		case 'A':
			Aflag = 1;
			break;
		case 'F':
			Fflag = 1;
			break;
		case 'c':
			cname = xreallocarray(cname, ncname + 1, sizeof *cname);
			n = strlen(optarg);
			cname[ncname].s = xmalloc(2 * n + 1);
			cname[ncname].n = tl_tsv_escape(cname[ncname].s,
			    optarg, n);
			ncname++;
			break;
		case 'd':
			dlimit = tl_optnum("-d", optarg, 0, LLONG_MAX);
			break;
		case 'e':
			eflag = 1;
			epid = strchr(optarg, ',');
			if (epid == NULL || (etid = strchr(epid + 1, ',')) ==
			    NULL)
				tl_errx(1, "-e: expected ext_id,pid,tid: "
				    "\"%s\"", optarg);
			*epid++ = *etid++ = '\0';
			eext = tl_optnum("-e", optarg, LLONG_MIN, LLONG_MAX);
			break;
		case 'g':
			gflag = 1;
			break;
		case 'n':
			nflag = 1;
			nodeuid = tl_optnum("-n", optarg, LLONG_MIN,
			    LLONG_MAX);
			break;
		case 'p':
			pflag = 1;
			break;
		case 'P':
			Pflag = 1;
			break;
		case 's':
			sflag = 1;
			break;
		case 'u':
			uflag = 1;
			upuid = tl_optnum("-u", optarg, LLONG_MIN, LLONG_MAX);
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (pflag && uflag)
		tl_errx(1, "-p and -u exclude each other");
	if (nflag && eflag)
		tl_errx(1, "-n and -e exclude each other");
	if ((nflag || eflag || gflag) && !pflag)
		tl_errx(1, "-%c needs -p", nflag ? 'n' : eflag ? 'e' : 'g');
	if (dlimit >= 0 && !pflag && !uflag)
		tl_errx(1, "-d needs -p or -u");
	if (ncname > 0 && (pflag || uflag))
		tl_errx(1, "-c and -%c exclude each other", pflag ? 'p' : 'u');
	if (sflag && (pflag || uflag))
		tl_errx(1, "-s and -%c exclude each other", pflag ? 'p' : 'u');

	tl_out_init(&out, 1, "<stdout>");
	rd = tl_trace_open(argc, argv, TL_S_EVENT, TREE_NEED, TREE_USE);
	tree();
	status = rd->status;
	tl_trace_close(rd);
	if ((nflag || eflag || uflag) && !found && status == 0) {
		tl_out_flush(&out);
		if (eflag)
			tl_errx(1, "-e %" PRId64 ",%s,%s: no such event",
			    eext, epid, etid);
		tl_errx(1, "%s %" PRId64 ": no such event", uflag ? "-u" :
		    "-n", uflag ? upuid : nodeuid);
	}
	tl_out_close(&out);
	for (n = 0; n < ncname; n++)
		free(cname[n].s);
	free(cname);
	return status;
}
