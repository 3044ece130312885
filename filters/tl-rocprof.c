/*
 * tl-rocprof: TraceLens's four reports on rocprofv3 data, from tl-parse's
 * event stream: "rocprof" on a rocprofv3 JSON (GPU timeline, kernel
 * summaries, kernel details, short kernels), and on a Perfetto trace
 * (read by tl-parse from the protobuf, or from traceconv's JSON) the
 * three pftrace reports: "activity" (time by kernel category per GPU, XLA
 * kernels, kernel and HIP API summaries), "api" (T = A + Q + K per launch
 * API and kernel) and "memcpy" (copies by size and direction). Each sheet
 * is a CSV file in the output directory, with TraceLens's sheet and
 * column names.
 */
#include "tl-rocprof/rocprof.h"

static const char usage[] =
    "usage: tl-rocprof rocprof [--tracelens] [--disable_kernel_summary] "
    "[--kernel_details]\n"
    "\t[--short_kernel_study] [--short_kernel_threshold_us N]\n"
    "\t[--short_kernel_histogram_bins N] [--topk_kernels N] -o dir "
    "[file]\n"
    "       tl-rocprof activity [--merge_kernels] [--min_tid N] "
    "[--max_tid N]\n"
    "\t[--min_event_ns N] [--no_kernel_summary] "
    "[--kernel_summary_include_rccl]\n"
    "\t[--kernel_summary_baseline total|compute]\n"
    "\t[--kernel_summary_group config|name] [--no_hip_summary]\n"
    "\t[--hip_summary_group name|name+stream|name+op|name+stream+op]\n"
    "\t[--top_xla N] [--kernel_summary_top N] [--hip_summary_top N]\n"
    "\t[--md path] -o dir [file]\n"
    "       tl-rocprof api [--exclude_kernel_regex re] "
    "[--allow_multi_kernel_per_api]\n"
    "\t[--include_nonlaunch_apis] -o dir [file]\n"
    "       tl-rocprof memcpy -o dir [file]\n";

/* ---- main ---- */

enum {
	O_TRACELENS = 256, O_NOKSUM, O_DETAILS, O_SHORT, O_THR, O_BINS, O_TOPK,
	O_MERGE, O_MINTID, O_MAXTID, O_MINNS, O_NOKS, O_KSRCCL, O_KSBASE,
	O_KSGROUP, O_NOHS, O_HSGROUP, O_TOPXLA, O_KSTOP, O_HSTOP, O_MD,
	O_EXCL, O_MULTI, O_NONLAUNCH
};

static const struct option ropts[] = {
	{ "tracelens", no_argument, NULL, O_TRACELENS },
	{ "disable_kernel_summary", no_argument, NULL, O_NOKSUM },
	{ "kernel_details", no_argument, NULL, O_DETAILS },
	{ "short_kernel_study", no_argument, NULL, O_SHORT },
	{ "short_kernel_threshold_us", required_argument, NULL, O_THR },
	{ "short_kernel_histogram_bins", required_argument, NULL, O_BINS },
	{ "topk_kernels", required_argument, NULL, O_TOPK },
	{ NULL, 0, NULL, 0 }
};

static const struct option aopts[] = {
	{ "merge_kernels", no_argument, NULL, O_MERGE },
	{ "min_tid", required_argument, NULL, O_MINTID },
	{ "max_tid", required_argument, NULL, O_MAXTID },
	{ "min_event_ns", required_argument, NULL, O_MINNS },
	{ "no_kernel_summary", no_argument, NULL, O_NOKS },
	{ "kernel_summary_include_rccl", no_argument, NULL, O_KSRCCL },
	{ "kernel_summary_baseline", required_argument, NULL, O_KSBASE },
	{ "kernel_summary_group", required_argument, NULL, O_KSGROUP },
	{ "no_hip_summary", no_argument, NULL, O_NOHS },
	{ "hip_summary_group", required_argument, NULL, O_HSGROUP },
	{ "top_xla", required_argument, NULL, O_TOPXLA },
	{ "kernel_summary_top", required_argument, NULL, O_KSTOP },
	{ "hip_summary_top", required_argument, NULL, O_HSTOP },
	{ "md", required_argument, NULL, O_MD },
	{ NULL, 0, NULL, 0 }
};

static const struct option popts[] = {
	{ "exclude_kernel_regex", required_argument, NULL, O_EXCL },
	{ "allow_multi_kernel_per_api", no_argument, NULL, O_MULTI },
	{ "include_nonlaunch_apis", no_argument, NULL, O_NONLAUNCH },
	{ NULL, 0, NULL, 0 }
};

static const struct option mopts[] = {
	{ NULL, 0, NULL, 0 }
};

static void
writemd(void)
{
	char *d = xstrdup(mdpath), *slash = strrchr(d, '/');
	struct tl_file f;

	while (md.n > 0 && md.buf[md.n - 1] == '\n')
		md.n--;
	tl_out_char(&md, '\n');
	if (slash)
		*slash = '\0';
	if (tl_file_open(&f, slash ? (*d ? d : "/") : ".", slash ? slash +
	    1 : mdpath) < 0)
		tl_exit(1);
	tl_out_raw(&f.out, md.buf, md.n);
	if (tl_file_close(&f) < 0)
		tl_exit(1);
	free(d);
}

int
main(int argc, char *argv[])
{
	const char *mode, *dir = NULL;
	const struct option *opts;
	int ch, m;
	size_t i;

	tl_setprogname(argv[0]);
	if (argc > 1 && argv[1][0] != '-') {
		mode = argv[1];
		if (strcmp(mode, "rocprof") == 0)
			m = 0, opts = ropts;
		else if (strcmp(mode, "activity") == 0)
			m = 1, opts = aopts;
		else if (strcmp(mode, "api") == 0)
			m = 2, opts = popts;
		else if (strcmp(mode, "memcpy") == 0)
			m = 3, opts = mopts;
		else {
			tl_warnx("%s: not a report (rocprof, activity, api, "
			    "memcpy)", mode);
			tl_usage(usage);
		}
		argc--;
		argv++;
	} else {
		/* --help, --version, or no report named. */
		while (tl_getopt(argc, argv, "o:", NULL, usage) != -1)
			;
		tl_usage(usage);
	}
	while ((ch = tl_getopt(argc, argv, "o:", opts, usage)) != -1) {
		switch (ch) {
		case 'o': dir = optarg; break;
		case O_TRACELENS: tracelens = 1; break;
		case O_NOKSUM: nosummary = 1; break;
		case O_DETAILS: details = 1; break;
		case O_SHORT: shortstudy = 1; break;
		case O_THR:
			shortthr = tl_optnum("--short_kernel_threshold_us",
			    optarg, 0, LLONG_MAX / 1000);
			break;
		case O_BINS:
			shortbins = tl_optnum("--short_kernel_histogram_bins",
			    optarg, 1, 1000000);
			break;
		case O_TOPK:
			topk = tl_optnum("--topk_kernels", optarg, 0,
			    LLONG_MAX);
			break;
		case O_MERGE: mergek = 1; break;
		case O_MINTID:
			mintid = tl_optnum("--min_tid", optarg, LLONG_MIN,
			    LLONG_MAX);
			break;
		case O_MAXTID:
			maxtid = tl_optnum("--max_tid", optarg, LLONG_MIN,
			    LLONG_MAX);
			break;
		case O_MINNS:
			minns = tl_optnum("--min_event_ns", optarg, LLONG_MIN,
			    LLONG_MAX);
			break;
		case O_NOKS: noksum = 1; break;
		case O_KSRCCL: ksumrccl = 1; break;
		case O_KSBASE:
			if (strcmp(optarg, "total") && strcmp(optarg,
			    "compute"))
				tl_errx(1, "--kernel_summary_baseline: total "
				    "or compute, not \"%s\"", optarg);
			ksumcompute = optarg[0] == 'c';
			break;
		case O_KSGROUP:
			if (strcmp(optarg, "config") && strcmp(optarg, "name"))
				tl_errx(1, "--kernel_summary_group: config or "
				    "name, not \"%s\"", optarg);
			ksumname = optarg[0] == 'n';
			break;
		case O_NOHS: nohsum = 1; break;
		case O_HSGROUP:
			if (strcmp(optarg, "name") == 0)
				hgroup = 0;
			else if (strcmp(optarg, "name+stream") == 0)
				hgroup = 1;
			else if (strcmp(optarg, "name+op") == 0)
				hgroup = 2;
			else if (strcmp(optarg, "name+stream+op") == 0)
				hgroup = 3;
			else
				tl_errx(1, "--hip_summary_group: name, "
				    "name+stream, name+op or name+stream+op, "
				    "not \"%s\"", optarg);
			break;
		case O_TOPXLA:
			topxla = tl_optnum("--top_xla", optarg, 0, LLONG_MAX);
			break;
		case O_KSTOP:
			ksumtop = tl_optnum("--kernel_summary_top", optarg, 0,
			    LLONG_MAX);
			break;
		case O_HSTOP:
			hsumtop = tl_optnum("--hip_summary_top", optarg, 0,
			    LLONG_MAX);
			break;
		case O_MD: mdpath = optarg; break;
		case O_EXCL: exclude = optarg; break;
		case O_MULTI: multik = 1; break;
		case O_NONLAUNCH: nonlaunch = 1; break;
		}
	}
	argc -= optind;
	argv += optind;
	if (dir == NULL || argc > 1)
		tl_usage(usage);
	if (tl_mkdirs(dir) < 0)
		tl_err(1, "%s", dir);
	rocmode = m == 0;
	pfmode = m;
	readstream(argc ? argv[0] : "-");
	if (pfrows && m != 1) {
		qsort(evs, nev, sizeof *evs, pforder);
		reagent();
	}
	tl_out_init(&md, -1, "(markdown)");
	switch (m) {
	case 0: rocprof(dir); break;
	case 1: activity(dir); break;
	case 2: apireport(dir); break;
	case 3: memcpyreport(dir); break;
	}
	if (mdpath)
		writemd();
	tl_out_close(&md);
	free(evs);
	for (i = 0; i < uq.cap; i++)
		free(uq.v[i]);
	free(uq.v);
	free(kerns);
	free(mems);
	for (i = 0; i < nagents; i++)
		free(agents[i]);
	free(agents);
	tl_json_free(&jd);
	return 0;
}
