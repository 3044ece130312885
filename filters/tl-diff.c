/*
 * tl-diff: compare two traces structurally. Read two tree streams of
 * tl-tree(1), baseline first, merge the two call trees, and find the
 * lowest common nodes: the deepest nodes the two traces share, under
 * which they launch different GPU work (aten::convolution lowering to
 * miopen on ROCm and to cudnn on CUDA is compared at aten::_convolution,
 * not reported as two unrelated ops). Write each lowest common node with
 * each side's kernel time, the difference and the ratio; per op, per
 * unique arguments, per GPU event; the op-name mapping, the uid map and
 * the merged tree. With -T, TraceLens's TraceDiff with its quirks, and
 * its files, byte for byte. The exit status is diff(1)'s: 0 same, 1
 * different, 2 trouble. -K, -K -T and -X, the modes that are programs of
 * their own now, run tl-join, tl-cmpreport and tl-xdiff.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/intern.h"
#include "../common/mem.h"
#include "../common/opt.h"
#include "../common/tsv.h"
#include "tl-diff/td.h"

int td_tracelens;
struct tl_intern *td_in;
struct side td_s[2];

static const char usage[] =
    "usage: tl-diff [-p | -q | -t table] [-e ns] [-o dir] baseline variant\n"
    "       tl-diff -T -o dir baseline variant\n";

/*
 * The old modes, one release more: run tl-join (-K), tl-cmpreport (-K
 * -T) or tl-xdiff (-X), from this program's directory or from PATH, with
 * the options opt[0..nopt) less the mode's letters, the --limit options
 * of argv[1..optind), then the operands; under this program's name, so
 * that its messages read as before.
 */
static noreturn void
alias(int Kflag, const int *opt, char **arg, int nopt, int argc,
    char *argv[])
{
	const char *prog = !Kflag ? "tl-xdiff" : td_tracelens ?
	    "tl-cmpreport" : "tl-join";
	const char *slash = strrchr(argv[0], '/');
	char **av = xcalloc((size_t)(2 * nopt + argc + 2), sizeof *av), *path;
	char flag[3] = "-?";
	int i, n = 1;

	av[0] = argv[0];
	for (i = 0; i < nopt; i++) {
		if (opt[i] == 'K' || opt[i] == 'X' || opt[i] == 'T')
			continue;
		flag[1] = (char)opt[i];
		av[n++] = xstrdup(flag);
		if (arg[i] != NULL)
			av[n++] = arg[i];
	}
	for (i = 1; i < optind; i++)
		if (strncmp(argv[i], "--limit", 7) == 0) {
			av[n++] = argv[i];
			if (argv[i][7] == '\0' && i + 1 < optind)
				av[n++] = argv[++i];
		}
	av[n++] = "--";
	for (i = optind; i < argc; i++)
		av[n++] = argv[i];
	if (slash != NULL) {
		path = xmalloc((size_t)(slash - argv[0]) + strlen(prog) + 2);
		sprintf(path, "%.*s/%s", (int)(slash - argv[0]), argv[0], prog);
		execv(path, av);
	}
	execvp(prog, av);
	tl_err(2, "%s", prog);
}

/*
 * The merge, the lowest common nodes and the output: work that recurses
 * once per level of the trees (up to load.c's 10,000), run on a thread
 * whose stack is made for the depth at hand, so that no stack limit of
 * the caller (ulimit -s) can make a deep tree overflow it.
 */
struct job {
	const char *odir, *table;
	int64_t eps;
	int pflag, qflag, tflag, status;
};

/* Bytes of stack per level: about 400 are used, in four recursions. */
#define LEVELSTACK	4096
#define BASESTACK	((size_t)8 << 20)

static void *
comparejob(void *arg)
{
	struct job *j = arg;
	struct tl_out out;
	size_t i;
	int status;

	td_merge();
	td_lca();
	if (td_tracelens && td_nlost > 0)
		tl_warnx("%" PRIu64 " node%s lost by TraceLens's same-name "
		    "step: not in the merged tree", td_nlost, td_nlost == 1 ?
		    "" : "s");
	for (i = 0; i < td_nm && td_m[i].type != M_BOTH; i++)
		;
	if (i == td_nm)
		tl_warnx("nothing in common: every root is on one side only");

	if (td_tracelens) {
		status = td_tracelens_write(j->odir) ? 0 : 1;
	} else {
		status = td_same(j->eps) ? 0 : 1;
		if (j->odir != NULL)
			td_tables_dir(j->odir);
		if (!j->qflag && (j->odir == NULL || j->pflag || j->tflag)) {
			tl_out_init(&out, 1, "<stdout>");
			if (j->pflag)
				td_tracelens_tree(&out);
			else
				td_table(&out, j->table);
			tl_out_close(&out);
		}
	}
	j->status = status;
	return NULL;
}

static int
compare(const char *odir, const char *table, int64_t eps, int pflag,
    int qflag, int tflag)
{
	struct job j = { odir, table, eps, pflag, qflag, tflag, 0 };
	uint32_t depth = td_s[0].maxdepth > td_s[1].maxdepth ?
	    td_s[0].maxdepth : td_s[1].maxdepth;
	size_t stack = BASESTACK + (size_t)depth * LEVELSTACK;
	pthread_attr_t at;
	pthread_t th;
	int e;

	if ((e = pthread_attr_init(&at)) != 0 ||
	    (e = pthread_attr_setstacksize(&at, stack)) != 0 ||
	    (e = pthread_create(&th, &at, comparejob, &j)) != 0) {
		errno = e;
		tl_err(2, "a stack of %zu MiB for trees %" PRIu32 " levels "
		    "deep", stack >> 20, depth);
	}
	pthread_attr_destroy(&at);
	pthread_join(th, NULL);
	return j.status;
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "classes", required_argument, NULL, 'c' },
		{ "cross", no_argument, NULL, 'X' },
		{ "gap", required_argument, NULL, 'g' },
		{ "key", required_argument, NULL, 'k' },
		{ "keyed", no_argument, NULL, 'K' },
		{ "layer-gap", required_argument, NULL, 'G' },
		{ "layer-ratio", required_argument, NULL, 'r' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "names", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "phase", required_argument, NULL, 'f' },
		{ "print", no_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "sheets", required_argument, NULL, 'S' },
		{ "table", required_argument, NULL, 't' },
		{ "tolerance", required_argument, NULL, 'e' },
		{ "tracelens", no_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};
	const char *odir = NULL, *table = "lca", *earg = NULL;
	char **arg = xcalloc((size_t)argc, sizeof *arg);
	int *opt = xcalloc((size_t)argc, sizeof *opt);
	int ch, status, nopt = 0, pflag = 0, qflag = 0, tflag = 0;
	int Kflag = 0, Xflag = 0;
	int64_t eps = 0;
	size_t i;

	tl_setprogname(argv[0]);
	tl_failstatus = 2;	/* diff(1): trouble is 2, even in libtl */
	while ((ch = tl_getopt(argc, argv, "c:e:f:G:g:Kk:m:n:o:pqr:S:Tt:X",
	    lopt, usage)) != -1) {
		opt[nopt] = ch;
		arg[nopt++] = optarg;
		switch (ch) {
		case 'e':
			earg = optarg;
			break;
		case 'K':
			Kflag = 1;
			break;
		case 'o':
			odir = optarg;
			break;
		case 'p':
			pflag = 1;
			break;
		case 'q':
			qflag = 1;
			break;
		case 'T':
			td_tracelens = 1;
			break;
		case 't':
			tflag = 1;
			table = optarg;
			break;
		case 'X':
			Xflag = 1;
			break;
		}
	}
	if (Kflag && Xflag)
		tl_errx(2, "-K and -X exclude each other");
	if (Kflag || Xflag)
		alias(Kflag, opt, arg, nopt, argc, argv);
	for (i = 0; i < (size_t)nopt; i++)
		if (strchr("cfGgkmnrS", opt[i]) != NULL)
			tl_errx(2, "-%c needs -%s", opt[i], strchr("kmnS",
			    opt[i]) != NULL ? "K" : "X");
	free(opt);
	free(arg);
	argc -= optind;
	argv += optind;
	if (pflag + qflag + tflag > 1)
		tl_errx(2, "-p, -q and -t exclude each other");
	if (argc != 2) {
		tl_warnx(argc < 2 ? "two streams needed: baseline and "
		    "variant" : "too many operands");
		tl_usage(usage);
	}
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		tl_errx(2, "only one of the streams can be the standard "
		    "input");
	if (earg != NULL)
		eps = tl_optnum("-e", earg, 0, LLONG_MAX);
	if (td_tracelens && (pflag || qflag || tflag || earg != NULL))
		tl_errx(2, "-T takes no -%c", pflag ? 'p' : qflag ? 'q' :
		    tflag ? 't' : 'e');
	if (td_tracelens && odir == NULL)
		tl_errx(2, "-T needs -o dir");
	if (tflag && !td_known_table(table))
		tl_errx(2, "-t: no such table: \"%s\" (lca, ops, args, rows, "
		    "names, uids, tree)", table);

	td_in = tl_intern_new();
	td_load(argv[0], argv[1]);
	if (td_s[0].nroots == 0 || td_s[1].nroots == 0)
		tl_errx(2, "%s: no cpu_op in the tree: nothing to align (a "
		    "GPU-only trace?)", td_s[0].nroots == 0 ? td_s[0].path :
		    td_s[1].path);
	for (i = 0; i < 2; i++)
		if (td_s[i].nunlinked > 0)
			tl_warnx("%s: %" PRIu64 " of %" PRIu64 " GPU events not "
			    "linked to a launch: not compared", td_s[i].path,
			    td_s[i].nunlinked, td_s[i].ngpuev);
	if ((td_s[0].npython > 0) != (td_s[1].npython > 0))
		tl_warnx("%s has python frames in its tree and %s has none: "
		    "the trees do not nest alike (tl-tree -P on both, or on "
		    "neither)", td_s[td_s[0].npython == 0].path,
		    td_s[td_s[0].npython > 0].path);
	status = compare(odir, table, eps, pflag, qflag, tflag);

	td_lca_free();
	td_merge_free();
	td_free(&td_s[0]);
	td_free(&td_s[1]);
	tl_intern_free(td_in);
	return status;
}
