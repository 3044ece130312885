/*
 * tl-hta: the analyses of Meta's Holistic Trace Analysis (HTA) as a
 * command line, with HTA's numbers: read the tree streams of a run's
 * ranks (or run tl-parse | tl-tree on a trace folder), load them by
 * HTA's rules (µs rounding, links by args.correlation, alignment, the
 * profiler-step window) and write each analysis as the CSV file HTA's
 * DataFrame makes, so that scripts written against HTA read them.
 */
#define _GNU_SOURCE		/* memmem */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/csv.h"
#include "../common/err.h"
#include "../common/file.h"
#include "../common/input.h"
#include "../common/mem.h"
#include "../common/opt.h"
#include "../common/trace.h"
#include "tl-hta/hta.h"

struct hta_opt hta_o = {
	.ckd = 30,
	.duration_ratio = 0.8,
	.num_kernels = 10,
	.max_queue_length = 1024,
	.min_pattern_len = 3,
};

static const char usage[] =
    "usage: tl-hta [--include_last_profiler_step] [--only a,b,...]\n"
    "              [--consecutive_kernel_delay us] [--duration_ratio r]\n"
    "              [--num_kernels n] [--max_queue_length n]\n"
    "              [--diff_test_dir dir [--diff_control_rank r]\n"
    "              [--diff_test_rank r] [--diff_control_iteration i]\n"
    "              [--diff_test_iteration i]] [--memory_timeline file]\n"
    "              [--frequent_sequences op [--min_pattern_len n]]\n"
    "              [--critical_path annotation:instance\n"
    "              [--data_load_events regex]]\n"
    "              (--output_csvs_dir dir | --output_xlsx_path file |\n"
    "              both) (--trace_dir dir | [file ...])\n";

/* The analyses --only names (tl-hta(1)). */
static const char *const anames[] = {
	"loaded_events", "temporal_breakdown", "idle_time_breakdown",
	"kernel_breakdown", "comm_comp_overlap", "cuda_kernel_launch_stats",
	"queue_length", "memory_bw", "user_annotation_breakdown",
	"aten_op_kernels_and_delay", "frequent_cuda_kernel_sequences",
	"critical_path", "cupti_counter_data",
	"trace_diff", "memory_timeline", NULL
};

int
hta_want(const char *name)
{
	size_t i;

	if (hta_o.nonly == 0)
		return 1;
	for (i = 0; i < hta_o.nonly; i++)
		if (strcmp(hta_o.only[i], name) == 0)
			return 1;
	return 0;
}

/*
 * HTA's rank of a trace file: the first line of its text that matches
 * "rank":\s+(\d+), else 0 (spec 1.1). Python reads the file line by
 * line, so \s stops at a line's end: the whitespace is that of a line.
 */
static int
isws(int c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' ||
	    (c >= 0x1c && c <= 0x1f);
}

/*
 * The match at p ("rank": there, e the end of the bytes at hand): 1 and
 * *v when it is one, 0 when it is not, -1 when e cuts it short.
 */
static int
rankmatch(const char *p, const char *e, int64_t *v)
{
	const char *d = p + 7;

	if (d >= e)
		return -1;
	if (!isws((unsigned char)*d))
		return 0;
	while (d < e && isws((unsigned char)*d))
		d++;
	if (d == e)
		return -1;
	if (*d < '0' || *d > '9')
		return 0;
	for (*v = 0; d < e && *d >= '0' && *d <= '9'; d++)
		if (*v < INT64_MAX / 10)
			*v = *v * 10 + (*d - '0');
	return d < e ? 1 : -1;
}

/* The first match starting in [s, lim) of [s, e): 1 and *v, else 0. */
static int
rankscan(const char *s, const char *lim, const char *e, int64_t *v)
{
	const char *q = s;

	while (q < lim && (q = memmem(q, (size_t)(e - q), "\"rank\":", 7)) !=
	    NULL && q < lim) {
		if (rankmatch(q, e, v) == 1)
			return 1;
		q++;
	}
	return 0;
}

/*
 * Read until the match only. A match across two chunks is looked for in
 * the last bytes of one and the first of the next (TAIL of each).
 */
#define TAIL	64
static int64_t
filerank(const char *path)
{
	struct tl_src *src = tl_src_open(path);
	char *p, b[2 * TAIL];
	size_t n, nt = 0, k;
	int64_t rank = 0;

	if (src == NULL)
		return 0;
	if (tl_src_next(src) != 1) {
		tl_src_close(src);
		return 0;
	}
	while (tl_in_chunk(src, &p, &n) == 1) {
		k = n < TAIL ? n : TAIL;
		memcpy(b + nt, p, k);
		if (rankscan(b, b + nt, b + nt + k, &rank) ||
		    rankscan(p, p + n, p + n, &rank))
			break;
		if (nt + k > TAIL) {	/* the last TAIL bytes seen */
			if (n >= TAIL)
				memcpy(b, p + n - TAIL, TAIL);
			else
				memmove(b, b + nt + k - TAIL, TAIL);
			nt = TAIL;
		} else
			nt += k;
	}
	tl_src_close(src);
	return rank;
}

/*
 * The ranks of the files, found by a process of their own while tl-parse
 * reads them (the scan inflates each file a second time): it writes
 * each rank to a pipe as it has it, in file order. It says nothing: a
 * file it cannot read, tl-parse cannot read either, and says why.
 */
static char **rkfile;
static size_t nrkfile, nrkread;
static int64_t *rkval;
static int rkfd = -1;
static pid_t rkpid;

static void
rankstart(char **files, size_t n)
{
	int a[2];
	size_t i;

	if (pipe(a) != 0)
		tl_err(1, "pipe");
	if ((rkpid = fork()) == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, 2);
		close(a[0]);
		for (i = 0; i < n; i++) {
			int64_t r = filerank(files[i]);

			if (write(a[1], &r, sizeof r) != (ssize_t)sizeof r)
				_exit(1);
		}
		_exit(0);
	}
	if (rkpid < 0)
		tl_err(1, "fork");
	close(a[1]);
	fcntl(a[0], F_SETFD, FD_CLOEXEC);
	rkfd = a[0];
	rkfile = files;
	nrkfile = n;
	nrkread = 0;
	rkval = xreallocarray(NULL, n + 1, sizeof *rkval);
}

/* The rank of a file of rankstart's, -1 for another. */
static int64_t
rankof(const char *file)
{
	size_t i;

	for (i = 0; i < nrkfile && strcmp(rkfile[i], file) != 0; i++)
		;
	if (i == nrkfile)
		return -1;
	while (nrkread <= i) {
		char *d = (char *)&rkval[nrkread];
		size_t got = 0;
		ssize_t r;

		while (got < sizeof *rkval && ((r = read(rkfd, d + got,
		    sizeof *rkval - got)) > 0 || (r < 0 && errno == EINTR)))
			if (r > 0)
				got += (size_t)r;
		if (got < sizeof *rkval)
			tl_errx(1, "%s: its rank could not be read", file);
		nrkread++;
	}
	return rkval[i];
}

static void
rankend(void)
{
	int st;

	close(rkfd);
	rkfd = -1;
	if (waitpid(rkpid, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		tl_errx(1, "the scan of the ranks failed");
	free(rkval);
	rkval = NULL;
	nrkfile = 0;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The directory of this program, where tl-parse and tl-tree are. */
static char *
bindir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	char *s;

	if (n <= 0)
		return xstrdup(".");
	buf[n] = '\0';
	s = strrchr(buf, '/');
	if (s != NULL)
		*s = '\0';
	return xstrdup(buf);
}

static pid_t kid;

/*
 * Run tl-parse FILES; return the fd of its output, an event stream.
 * tl-tree is not needed: HTA links by correlation, not by the tree.
 */
static int
pipeline(char **files, size_t n)
{
	int a[2];
	char *dir = bindir();
	char **av = xreallocarray(NULL, n + 2, sizeof *av);
	size_t i;

	av[0] = tl_path(dir, "tl-parse");
	for (i = 0; i < n; i++)
		av[i + 1] = files[i];
	av[n + 1] = NULL;
	if (pipe(a) != 0)
		tl_err(1, "pipe");
	if ((kid = fork()) == 0) {
		dup2(a[1], 1);
		close(a[0]);
		close(a[1]);
		execv(av[0], av);
		tl_err(127, "%s", av[0]);
	}
	if (kid < 0)
		tl_err(1, "fork");
	close(a[1]);
	free(av[0]);
	free(av);
	free(dir);
	return a[0];
}

/* Load the traces of folder tdir; full: aligned and windowed. */
static void
loaddir(const char *tdir, int full)
{
	DIR *d = opendir(tdir);
	struct dirent *e;
	char **files = NULL, path[32], *op[1];
	size_t nf = 0, cap = 0, i;
	int fd, st;

	if (d == NULL)
		tl_err(1, "%s", tdir);
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);

		if ((l > 3 && strcmp(e->d_name + l - 3, ".gz") == 0) ||
		    (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0)) {
			xgrow(&files, &cap, nf + 1, sizeof *files);
			files[nf++] = tl_path(tdir, e->d_name);
		}
	}
	closedir(d);
	if (nf == 0)
		tl_errx(1, "%s: no .gz or .json file", tdir);
	qsort(files, nf, sizeof *files, cmpstr);
	rankstart(files, nf);
	fd = pipeline(files, nf);
	snprintf(path, sizeof path, "/dev/fd/%d", fd);
	op[0] = path;
	hta_load(1, op, TL_S_EVENT, rankof, full);
	close(fd);
	if (waitpid(kid, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		tl_errx(1, "%s: tl-parse failed", tdir);
	rankend();
	for (i = 0; i < nf; i++)
		free(files[i]);
	free(files);
}

/*
 * The CSV files written, as the sheets of one workbook (tl-xlsx, beside
 * this program, names each sheet after its file); then the temporary
 * directory, if the files were only for it, removed.
 */
/*
 * A copy of CSV file path into dir whose header tl-xlsx takes: pandas's
 * unnamed index column named "index", and the two-line column header of
 * a describe() table flattened ("queue_length_count", ...).
 */
static char *
sheetcopy(const char *path, const char *dir)
{
	const char *base = strrchr(path, '/');
	char *out = tl_path(dir, base != NULL ? base + 1 : path);
	struct tl_src *src = tl_src_open(path);
	struct tl_csv *c;
	struct tl_out o;
	FILE *f;
	size_t k, j, lead = 0;
	int dup = 0;
	char **name;

	if (src == NULL || tl_src_next(src) != 1)
		tl_exit(1);
	c = tl_csv_open(src, 0);
	tl_out_init(&o, -1, out);
	name = xcalloc(c->ncol + 1, sizeof *name);
	while (lead < c->ncol && c->cl[lead] == 0)
		lead++;
	for (k = 0; k < c->ncol; k++) {
		name[k] = xmemdup(c->col[k], c->cl[k]);
		for (j = 0; j < k && !dup; j++)
			dup = c->cl[k] > 0 && strcmp(name[j], name[k]) == 0;
	}
	if (dup && lead > 0 && tl_csv_next(c)) {
		/* describe(): the statistics, then the index names */
		for (k = lead; k < c->ncol; k++) {
			char *t = xmalloc(strlen(name[k]) + c->fl[k] + 2);

			sprintf(t, "%s_%.*s", name[k], (int)c->fl[k], c->f[k]);
			free(name[k]);
			name[k] = t;
		}
		if (lead == 2 && tl_csv_next(c))
			for (k = 0; k < lead; k++) {
				free(name[k]);
				name[k] = xmemdup(c->f[k], c->fl[k]);
			}
	}
	for (k = 0; k < c->ncol; k++) {
		if (k > 0)
			tl_out_char(&o, ',');
		if (name[k][0] == '\0')
			tl_out_raw(&o, "index", 5);
		else
			tl_out_csvfield(&o, name[k], strlen(name[k]));
		free(name[k]);
	}
	free(name);
	tl_out_char(&o, '\n');
	while (tl_csv_next(c)) {
		for (k = 0; k < c->ncol; k++) {
			if (k > 0)
				tl_out_char(&o, ',');
			tl_out_csvfield(&o, c->f[k], c->fl[k]);
		}
		tl_out_char(&o, '\n');
	}
	tl_csv_close(c);
	tl_src_close(src);
	if ((f = fopen(out, "w")) == NULL || fwrite(o.buf, 1, o.n, f) != o.n ||
	    fclose(f) != 0)
		tl_err(1, "%s", out);
	free(o.buf);
	return out;
}

static void
workbook(const char *xlsx, char *tmpdir)
{
	char *dir = bindir();
	char **av = xreallocarray(NULL, hta_nwritten + 4, sizeof *av);
	char *sd = tl_tmppath("tl-hta");
	size_t i;
	pid_t p;
	int st;

	if (mkdtemp(sd) == NULL)
		tl_err(1, "%s", sd);
	av[0] = tl_path(dir, "tl-xlsx");
	av[1] = "-o";
	av[2] = (char *)xlsx;
	for (i = 0; i < hta_nwritten; i++)
		av[i + 3] = sheetcopy(hta_written[i], sd);
	av[hta_nwritten + 3] = NULL;
	if ((p = fork()) == 0) {
		execv(av[0], av);
		tl_err(127, "%s", av[0]);
	}
	if (p < 0 || waitpid(p, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		tl_errx(1, "%s: tl-xlsx failed", xlsx);
	for (i = 0; i < hta_nwritten; i++) {
		remove(av[i + 3]);
		free(av[i + 3]);
	}
	rmdir(sd);
	free(sd);
	if (tmpdir != NULL) {
		for (i = 0; i < hta_nwritten; i++)
			remove(hta_written[i]);
		rmdir(tmpdir);
	}
	free(av[0]);
	free(av);
	free(dir);
}

/* Whether an analysis of the loaded table is asked for. */
static int
others(void)
{
	size_t i;

	for (i = 0; anames[i] != NULL; i++)
		if (strcmp(anames[i], "trace_diff") != 0 &&
		    strcmp(anames[i], "memory_timeline") != 0 &&
		    hta_want(anames[i]))
			return 1;
	return 0;
}

/*
 * Whether the analyses asked for read only the GPU rows and the rows
 * that a correlation joins (hta_o.lean), as these four do.
 */
static int
lean(void)
{
	static const char *const gpu[] = { "temporal_breakdown",
	    "idle_time_breakdown", "comm_comp_overlap",
	    "cuda_kernel_launch_stats", "trace_diff", "memory_timeline",
	    NULL };
	size_t i, j;

	if (hta_o.nonly == 0)
		return 0;
	for (i = 0; i < hta_o.nonly; i++) {
		for (j = 0; gpu[j] != NULL; j++)
			if (strcmp(gpu[j], hta_o.only[i]) == 0)
				break;
		if (gpu[j] == NULL)
			return 0;
	}
	return 1;
}

/*
 * loaded_events_rank<r>.csv, HTA's loaded table, written by a process of
 * its own while this one goes on with the analyses (it is the largest
 * file, and the table is only read from here on). The files are opened
 * here, so that a directory that cannot take them is said once; the
 * writer closes them. With no process to be had, written here.
 */
static void
loaded1(const struct rank *rk, struct csv *c)
{
	size_t j;
	int nan = 0;

	for (j = 0; j < rk->n && !nan; j++)
		nan = rk->r[j].iter == NOITER;
	csv_hdr(c, "index,cat,name,pid,tid,ts,dur,stream,correlation,"
	    "index_correlation,iteration,external_id");
	for (j = 0; j < rk->n; j++) {
		const struct row *r = &rk->r[j];

		csv_i(c, r->index);
		csv_id(c, r->cat);
		csv_id(c, r->name);
		csv_id(c, r->pid);
		csv_id(c, r->tid);
		csv_i(c, r->ts);
		csv_f(c, r->dur);
		csv_i(c, r->stream);
		csv_i(c, r->corr);
		csv_i(c, r->ic);
		if (r->iter == NOITER)
			csv_s(c, "", 0);
		else if (nan)	/* a float column, as pandas's */
			csv_f(c, (double)r->iter);
		else
			csv_i(c, r->iter);
		csv_i(c, r->ext);
		csv_end(c);
	}
	csv_close(c);
}

static pid_t
loaded(void)
{
	struct csv **c = xreallocarray(NULL, hta_nrk + 1, sizeof *c);
	char name[64];
	size_t i;
	pid_t p;

	for (i = 0; i < hta_nrk; i++) {
		snprintf(name, sizeof name, "loaded_events_rank%" PRId64
		    ".csv", hta_rk[i].rank);
		c[i] = csv_open(name);
	}
	if ((p = fork()) == 0) {
		for (i = 0; i < hta_nrk; i++)
			loaded1(&hta_rk[i], c[i]);
		_exit(0);
	}
	for (i = 0; i < hta_nrk; i++)
		if (p < 0)
			loaded1(&hta_rk[i], c[i]);
		else
			csv_handed(c[i]);
	free(c);
	return p;
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "trace_dir", required_argument, NULL, 'D' },
		{ "output_csvs_dir", required_argument, NULL, 'o' },
		{ "include_last_profiler_step", no_argument, NULL, 'I' },
		{ "only", required_argument, NULL, 'O' },
		{ "consecutive_kernel_delay", required_argument, NULL, 'c' },
		{ "duration_ratio", required_argument, NULL, 'r' },
		{ "num_kernels", required_argument, NULL, 'k' },
		{ "max_queue_length", required_argument, NULL, 'q' },
		{ "diff_test_dir", required_argument, NULL, 'T' },
		{ "diff_control_rank", required_argument, NULL, '1' },
		{ "diff_test_rank", required_argument, NULL, '2' },
		{ "diff_control_iteration", required_argument, NULL, '3' },
		{ "diff_test_iteration", required_argument, NULL, '4' },
		{ "memory_timeline", required_argument, NULL, 'M' },
		{ "frequent_sequences", required_argument, NULL, 'F' },
		{ "critical_path", required_argument, NULL, 'C' },
		{ "output_xlsx_path", required_argument, NULL, 'X' },
		{ "data_load_events", required_argument, NULL, 'L' },
		{ "min_pattern_len", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 }
	};
	char *tdir = NULL, *ddir = NULL, *mtl = NULL;
	int64_t dv[4] = { -1, -1, -1, -1 };
	static const char *const dvopt[4] = { "--diff_control_rank",
	    "--diff_test_rank", "--diff_control_iteration",
	    "--diff_test_iteration" };
	size_t i, j, seqcap = 0, ncp = 0, cpcap = 0, ndl = 0, dlcap = 0;
	char **cps = NULL, **dls = NULL, *xlsx = NULL, *tmpdir = NULL;
	pid_t lpid = -1;
	int ch;

	tl_setprogname(argv[0]);
	while ((ch = tl_getopt(argc, argv, "", lopt, usage)) != -1)
		switch (ch) {
		case 'D':
			tdir = optarg;
			break;
		case 'o':
			hta_o.outdir = optarg;
			break;
		case 'I':
			hta_o.include_last = 1;
			break;
		case 'O':
			tl_optlist(optarg, &hta_o.only, &hta_o.nonly);
			break;
		case 'c':
			hta_o.ckd = tl_optfloat("--consecutive_kernel_delay",
			    optarg, -HUGE_VAL, HUGE_VAL);
			break;
		case 'r':
			hta_o.duration_ratio = tl_optfloat("--duration_ratio",
			    optarg, 0, 1);
			break;
		case 'k':
			hta_o.num_kernels = (long)tl_optnum("--num_kernels",
			    optarg, 0, LONG_MAX);
			break;
		case 'q':
			hta_o.max_queue_length = (long)tl_optnum(
			    "--max_queue_length", optarg, LONG_MIN, LONG_MAX);
			break;
		case 'T':
			ddir = optarg;
			break;
		case '1':
		case '2':
		case '3':
		case '4':
			dv[ch - '1'] = tl_optnum(dvopt[ch - '1'],
			    optarg, 0, INT64_MAX);
			break;
		case 'M':
			mtl = optarg;
			break;
		case 'F':
			xgrow(&hta_o.seqops, &seqcap, hta_o.nseqops + 1,
			    sizeof *hta_o.seqops);
			hta_o.seqops[hta_o.nseqops++] = optarg;
			break;
		case 'X':
			xlsx = optarg;
			break;
		case 'C':
			xgrow(&cps, &cpcap, ncp + 1, sizeof *cps);
			cps[ncp++] = optarg;
			break;
		case 'L':
			xgrow(&dls, &dlcap, ndl + 1, sizeof *dls);
			dls[ndl++] = optarg;
			break;
		case 'P':
			hta_o.min_pattern_len = (long)tl_optnum(
			    "--min_pattern_len", optarg, 0, LONG_MAX);
			break;
		default:
			tl_usage(usage);
		}
	argc -= optind;
	argv += optind;
	if ((hta_o.outdir == NULL && xlsx == NULL) || (tdir != NULL &&
	    argc > 0))
		tl_usage(usage);
	if (hta_o.outdir == NULL) {	/* the CSV files of the workbook */
		tmpdir = tl_tmppath("tl-hta");
		if (mkdtemp(tmpdir) == NULL)
			tl_err(1, "%s", tmpdir);
		hta_o.outdir = tmpdir;
	}
	for (i = 0; i < hta_o.nonly; i++) {
		for (j = 0; anames[j] != NULL; j++)
			if (strcmp(anames[j], hta_o.only[i]) == 0)
				break;
		if (anames[j] == NULL)
			tl_errx(1, "--only: no analysis \"%s\"",
			    hta_o.only[i]);
	}
	if (ddir != NULL && tdir == NULL)
		tl_usage(usage);
	if (tl_mkdirs(hta_o.outdir) != 0)
		tl_err(1, "%s", hta_o.outdir);
	if (mtl != NULL && hta_want("memory_timeline"))
		hta_memtimeline(mtl);
	if (mtl != NULL && tdir == NULL && argc == 0) {
		if (xlsx != NULL)
			workbook(xlsx, tmpdir);
		return 0;
	}
	if (ddir != NULL && hta_want("trace_diff")) {
		struct side ctl, tst;
		struct diffopt o = { dv[0], dv[1], dv[2], dv[3] };

		loaddir(ddir, 0);
		tst.rk = hta_rk;
		tst.n = hta_nrk;
		loaddir(tdir, 0);
		ctl.rk = hta_rk;
		ctl.n = hta_nrk;
		hta_diff(&ctl, &tst, &o);
		hta_free();
		hta_rk = tst.rk;
		hta_nrk = tst.n;
		hta_free();
	}
	if (!others()) {
		if (xlsx != NULL)
			workbook(xlsx, tmpdir);
		return 0;
	}
	hta_o.lean = lean();
	if (tdir != NULL)
		loaddir(tdir, 1);
	else
		hta_load(argc, argv, TL_S_TREE, NULL, 1);
	if (hta_want("loaded_events"))
		lpid = loaded();
	hta_run();
	if (hta_want("critical_path"))
		for (i = 0; i < ncp; i++)
			hta_critical(cps[i], (int)i, dls, ndl);
	if (lpid > 0) {		/* the writer of the loaded tables */
		int st;

		if (waitpid(lpid, &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0)
			tl_exit(1);	/* it said why */
	}
	if (xlsx != NULL)
		workbook(xlsx, tmpdir);
	return 0;
}
