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
 * its files, byte for byte. With -K, N tables of one kind side by side,
 * joined on their key (keyed.c); with -K -T, TraceLens's comparison of
 * perf-report CSV directories (reports.c). With -X, two traces by
 * operation and by layer, as wafer-core's trace_compare (cross.c). The
 * exit status is diff(1)'s: 0 same, 1 different, 2 trouble.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/limit.h"
#include "../common/intern.h"
#include "../common/mem.h"
#include "../common/tsv.h"
#include "tl-diff/td.h"

int td_tracelens;
struct tl_intern *td_in;
struct side td_s[2];

static int pflag, qflag;
static int64_t eps;
static const char *odir, *table = "lca";

static noreturn void
usage(void)
{
	fprintf(stderr,
	    "usage: tl-diff [-p | -q | -t table] [-e ns] [-o dir] baseline "
	    "variant\n"
	    "       tl-diff -T -o dir baseline variant\n"
	    "       tl-diff -K [-q | -t table] [-e tol] [-k key,...] "
	    "[-m col,...]\n"
	    "               [-n tag,...] [-o dir] table table ...\n"
	    "       tl-diff -K -T [-n tag,...] [-S sheet,...] -o dir "
	    "report report ...\n"
	    "       tl-diff -X [-q | -t table] [-c file] [-f phase] "
	    "[-G ms] [-g ms]\n"
	    "               [-o dir] [-r pct] baseline variant\n");
	exit(2);
}

static int64_t
number(const char *opt, const char *s)
{
	char *end;
	long long v;

	v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 0)
		tl_errx(2, "%s: not a number of ns: \"%s\"", opt, s);
	return (int64_t)v;
}

/* A number >= 0 (an option's value). */
static double
real(const char *opt, const char *s)
{
	char *end;
	double v;

	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || !(v >= 0) || v > 1e300)
		tl_errx(2, "%s: not a number >= 0: \"%s\"", opt, s);
	return v;
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
		TL_LIMIT_LONGOPT,
		{ NULL, 0, NULL, 0 }
	};
	struct td_kopt ko;
	struct td_xopt xo;
	struct tl_out out;
	const char *earg = NULL, *xopt = NULL, *kopt = NULL;
	int ch, status, tflag = 0, Kflag = 0, Xflag = 0;
	size_t i;

	tl_setprogname(argv[0]);
	tl_failstatus = 2;	/* diff(1): trouble is 2, even in libtl */
	memset(&ko, 0, sizeof ko);
	memset(&xo, 0, sizeof xo);
	xo.gap_ns = 5e6;
	xo.lgap_ns = 1e5;
	xo.lratio = 1.2;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":c:e:f:G:g:Kk:m:n:o:pqr:S:Tt:X",
	    lopt, NULL)) != -1) {
		switch (ch) {
		case TL_LIMIT_OPT:
			tl_limit_set(optarg);
			break;
		case 'c':
			xo.classes = optarg;
			xopt = "-c";
			break;
		case 'e':
			earg = optarg;
			break;
		case 'f':
			xo.phase = optarg;
			xopt = "-f";
			break;
		case 'G':
			xo.lgap_ns = real("-G", optarg) * 1e6;
			xopt = "-G";
			break;
		case 'g':
			xo.gap_ns = real("-g", optarg) * 1e6;
			xopt = "-g";
			break;
		case 'K':
			Kflag = 1;
			break;
		case 'k':
			ko.keys = optarg;
			kopt = "-k";
			break;
		case 'm':
			ko.metrics = optarg;
			kopt = "-m";
			break;
		case 'n':
			ko.names = optarg;
			kopt = "-n";
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
		case 'r':
			xo.lratio = 1 + real("-r", optarg) / 100;
			xopt = "-r";
			break;
		case 'S':
			ko.sheets = optarg;
			kopt = "-S";
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
		case ':':
			tl_warnx("option -%c needs an argument", optopt);
			usage();
		default:
			if (optopt != 0)
				tl_warnx("unknown option -%c", optopt);
			else
				tl_warnx("unknown option %s",
				    argv[optind - 1]);
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (Kflag && Xflag)
		tl_errx(2, "-K and -X exclude each other");
	if (!Kflag && kopt != NULL)
		tl_errx(2, "%s needs -K", kopt);
	if (!Xflag && xopt != NULL)
		tl_errx(2, "%s needs -X", xopt);
	if ((Kflag || Xflag) && pflag)
		tl_errx(2, "-p draws the merged tree: not with -%c",
		    Kflag ? 'K' : 'X');
	if (pflag + qflag + tflag > 1)
		tl_errx(2, "-p, -q and -t exclude each other");

	if (Kflag) {
		if (argc < 2) {
			tl_warnx("two tables or more needed: the baseline, "
			    "then the variants");
			usage();
		}
		ko.odir = odir;
		ko.table = tflag ? table : NULL;
		ko.quiet = qflag;
		if (td_tracelens) {
			if (qflag || tflag || earg != NULL || ko.keys != NULL
			    || ko.metrics != NULL)
				tl_errx(2, "-K -T takes no -%c", qflag ? 'q' :
				    tflag ? 't' : earg != NULL ? 'e' :
				    ko.keys != NULL ? 'k' : 'm');
			if (odir == NULL)
				tl_errx(2, "-K -T needs -o dir");
			return td_reports((size_t)argc, argv, &ko);
		}
		if (ko.sheets != NULL)
			tl_errx(2, "-S needs -T");
		if (earg != NULL)
			ko.eps = real("-e", earg);
		return td_keyed((size_t)argc, argv, &ko);
	}
	if (ko.sheets != NULL)
		tl_errx(2, "-S needs -K -T");
	if (argc != 2) {
		tl_warnx(argc < 2 ? "two streams needed: baseline and "
		    "variant" : "too many operands");
		usage();
	}
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		tl_errx(2, "only one of the streams can be the standard "
		    "input");
	if (Xflag) {
		if (td_tracelens)
			tl_errx(2, "-X takes no -T");
		if (earg != NULL)
			tl_errx(2, "-X takes no -e (-g, -G and -r set the "
			    "thresholds)");
		xo.odir = odir;
		xo.table = tflag ? table : NULL;
		xo.quiet = qflag;
		return td_cross(argv[0], argv[1], &xo);
	}
	if (earg != NULL)
		eps = number("-e", earg);
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
		status = td_tracelens_write(odir) ? 0 : 1;
	} else {
		status = td_same(eps) ? 0 : 1;
		if (odir != NULL)
			td_tables_dir(odir);
		if (!qflag && (odir == NULL || pflag || tflag)) {
			tl_out_init(&out, 1, "<stdout>");
			if (pflag)
				td_draw(&out);
			else
				td_table(&out, table);
			tl_out_close(&out);
		}
	}

	td_lca_free();
	td_merge_free();
	td_free(&td_s[0]);
	td_free(&td_s[1]);
	tl_intern_free(td_in);
	return status;
}
