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
 * its files, byte for byte. The exit status is diff(1)'s: 0 same,
 * 1 different, 2 trouble.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <unistd.h>

#include "../common/err.h"
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
	    "       tl-diff -T -o dir baseline variant\n");
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

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "tolerance", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "print", no_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "table", required_argument, NULL, 't' },
		{ "tracelens", no_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};
	struct tl_out out;
	int ch, status, tflag = 0, eflag = 0;
	size_t i;

	tl_setprogname(argv[0]);
	tl_failstatus = 2;	/* diff(1): trouble is 2, even in libtl */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":e:o:pqTt:", lopt, NULL)) !=
	    -1) {
		switch (ch) {
		case 'e':
			eflag = 1;
			eps = number("-e", optarg);
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
	if (argc != 2) {
		tl_warnx(argc < 2 ? "two streams needed: baseline and "
		    "variant" : "too many operands");
		usage();
	}
	if (pflag + qflag + tflag > 1)
		tl_errx(2, "-p, -q and -t exclude each other");
	if (td_tracelens && (pflag || qflag || tflag || eflag))
		tl_errx(2, "-T takes no -%c", pflag ? 'p' : qflag ? 'q' :
		    tflag ? 't' : 'e');
	if (td_tracelens && odir == NULL)
		tl_errx(2, "-T needs -o dir");
	if (tflag && !td_known_table(table))
		tl_errx(2, "-t: no such table: \"%s\" (lca, ops, args, rows, "
		    "names, uids, tree)", table);
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		tl_errx(2, "only one of the streams can be the standard "
		    "input");

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
