/*
 * tl-jax: TraceLens's JAX perf report (generate_perf_report_jax) from the
 * event stream tl-parse writes of an XPlane profile: the GPU timeline, the
 * kernel launchers and their summaries, the XLA fusion tables, and the
 * op_<category> perf-model sheets, as CSV files the way TraceLens writes
 * them. By default it corrects the errors TraceLens makes; -T
 * reproduces them.
 */
#include "tl-jax/jax.h"

static const char usage[] = "usage: tl-jax [-T] [-k keyword[,keyword...]] "
    "(-C dir | -s sheet) [stream]\n";

int
main(int argc, char *argv[])
{
	int ch;
	static const struct option lo[] = {
		{ "tracelens", no_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};

	tl_setprogname(argv[0]);
	while ((ch = tl_getopt(argc, argv, "C:k:s:T", lo, usage)) != -1) {
		switch (ch) {
		case 'C':
			csvdir = optarg;
			break;
		case 'k':
			tl_optlist(optarg, &kw, &nkw);
			break;
		case 's':
			onesheet = optarg;
			break;
		case 'T':
			tflag = 1;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if ((csvdir == NULL) == (onesheet == NULL) || argc > 1)
		tl_usage(usage);
	if (csvdir != NULL && tl_mkdirs(csvdir) < 0)
		exit(1);
	in = tl_intern_new();
	tl_out_init(&co, -1, "(sheet)");
	tl_out_init(&kdo, -1, "(kernel_details)");
	load(argc, argv);
	linkevents();
	kernelrows();
	timeline();
	launchers();
	opsheets();
	free(co.buf);
	free(kdo.buf);
	tl_json_free(&doc);
	free(dec);
	free(E);
	for (size_t i = 0; i < nK; i++)
		free(K[i].op);
	free(K);
	free(names);
	free(kw);
	tl_intern_free(in);
	(void)isgpu;
	return 0;
}
