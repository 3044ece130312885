/*
 * tl: unit tests of the trace layer (common/trace.c): the kinds of cat,
 * what a stream is, and the reader of the traces of several operands.
 * With arguments, "expect tree|event FILE": the message for FILE when it
 * is not that stream (trace.sh checks the words).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/trace.h"
#include "unit.h"

static void
test_kind(void)
{
	static const struct {
		const char *cat;
		int kind;
	} k[] = {
		{ "cpu_op", TL_K_CPU_OP }, { "cuda_runtime", TL_K_RUNTIME },
		{ "cuda_driver", TL_K_DRIVER },
		{ "python_function", TL_K_PYTHON },
		{ "user_annotation", TL_K_ANNOT },
		{ "gpu_user_annotation", TL_K_GPU_ANNOT },
		{ "ac2g", TL_K_AC2G }, { "trace_file", TL_K_TRACE_FILE },
		{ "trace_key", TL_K_TRACE_KEY }, { "kernel", TL_K_KERNEL },
		{ "gpu_memcpy", TL_K_MEMCPY }, { "gpu_memset", TL_K_MEMSET },
		{ "", TL_K_OTHER }, { "cpu_o", TL_K_OTHER },
		{ "cpu_opx", TL_K_OTHER }, { "Kernel", TL_K_OTHER },
		{ "fwdbwd", TL_K_OTHER }, { "gpu_user_annotatio", TL_K_OTHER }
	};
	size_t i, bad = 0;

	for (i = 0; i < sizeof k / sizeof k[0]; i++)
		if (tl_kind(k[i].cat, strlen(k[i].cat)) != k[i].kind) {
			printf("#   %s: %d\n", k[i].cat,
			    tl_kind(k[i].cat, strlen(k[i].cat)));
			bad++;
		}
	CHECK_I64(bad, 0);
	CHECK(TL_K_ISHOST(TL_K_CPU_OP) && TL_K_ISHOST(TL_K_ANNOT) &&
	    !TL_K_ISHOST(TL_K_GPU_ANNOT) && !TL_K_ISHOST(TL_K_OTHER) &&
	    !TL_K_ISHOST(TL_K_KERNEL));
	CHECK(TL_K_ISGPU(TL_K_KERNEL) && TL_K_ISGPU(TL_K_MEMSET) &&
	    !TL_K_ISGPU(TL_K_TRACE_KEY) && !TL_K_ISGPU(TL_K_CPU_OP));
	CHECK(TL_K_ISLAUNCH(TL_K_RUNTIME) && TL_K_ISLAUNCH(TL_K_DRIVER) &&
	    !TL_K_ISLAUNCH(TL_K_CPU_OP));
}

static int
streamkind(const char *text)
{
	struct tl_src *src = tl_src_mem("m", text, strlen(text));
	struct tl_tsv *t;
	int k;

	tl_src_next(src);
	t = tl_tsv_open(src);
	k = tl_stream_kind(t);
	tl_tsv_close(t);
	tl_src_close(src);
	return k;
}

static void
test_stream(void)
{
	CHECK_I64(streamkind("uid\tph\tcat\tname\n"), TL_S_EVENT);
	CHECK_I64(streamkind("uid\tph\tcat\tname\tparent\tdepth\n"),
	    TL_S_TREE);
	CHECK_I64(streamkind("{\n\"traceEvents\": []}\n"), TL_S_JSON);
	CHECK_I64(streamkind("[{\"ph\": \"X\"}]\n"), TL_S_JSON);
	CHECK_I64(streamkind("uid,cat,name\n1,a,b\n"), TL_S_CSV);
	CHECK_I64(streamkind("name\tcount\n"), TL_S_TABLE);
	CHECK_I64(streamkind("uid\tcat\n"), TL_S_TABLE);
	CHECK_I64(streamkind("name\n"), TL_S_TABLE);
}

#define HDR	"uid\tph\tcat\tname\tts_ns\tparent\tdepth\n"

static void
test_reader(void)
{
	static const char two[] = HDR
	    "\t\ttrace_file\ta.json\t\t\t\n"
	    "\t\ttrace_key\tdeviceProperties\t\t\t\n"
	    "0\tX\tcpu_op\taten::mm\t10\t\t0\n"
	    "1\tX\tkernel\tk\t12\t0\t1\n"
	    "\t\ttrace_file\tb\\tjson\t\t\t\n"
	    "0\tX\tcuda_runtime\tlaunch\t5\t\t0\n";
	static const char one[] = HDR "7\tX\tgpu_memset\tm\t1\t\t\n";
	static const char *want[] = {
		"two.tsv F F E0:1 E1:10 |more a.json",
		"b\tjson F E0:2 | b\tjson",
		"one.tsv E7:12 | one.tsv",
		"empty.tsv | empty.tsv"
	};
	char *ops[] = { "two.tsv", "no-such.tsv", "one.tsv", "empty.tsv" };
	char got[4][160];
	struct tl_trace *tr;
	int r, n = 0, i;
	size_t k;

	writefile("two.tsv", two, sizeof two - 1);
	writefile("one.tsv", one, sizeof one - 1);
	writefile("empty.tsv", HDR, sizeof HDR - 1);
	tr = tl_trace_open(4, ops, TL_S_TREE, TL_COL(TL_C_TS), 0);
	while (tl_trace_next(tr)) {
		if (n == 0)
			CHECK(tr->col[TL_C_PID] < 0 && tr->col[TL_C_TS] == 4);
		if (n == 4)
			break;
		k = (size_t)snprintf(got[n], sizeof got[n], "%s", tr->name);
		while ((r = tl_trace_row(tr)) != TL_ROW_END)
			k += (size_t)snprintf(got[n] + k, sizeof got[n] - k,
			    r == TL_ROW_FACT ? " F" : " E%d:%d",
			    (int)(r == TL_ROW_EVENT ? tl_trace_uid(tr) : -1),
			    (int)tr->kind);
		snprintf(got[n] + k, sizeof got[n] - k, " |%s %s",
		    tr->more ? "more" : "", tr->name);
		n++;
	}
	CHECK_I64(n, 4);
	for (i = 0; i < n && i < 4; i++)
		CHECK_STR(got[i], strlen(got[i]), want[i]);
	CHECK_I64(tr->ntrace, 4);
	CHECK_I64(tr->status, 1);
	CHECK_I64(tl_trace_next(tr), 0);
	tl_trace_close(tr);
}

/*
 * A trace_file row's name is decoded into a copy: the row stays as it
 * was read, for a tool that writes it through. Also a reader of a
 * memory source.
 */
static void
test_rawname(void)
{
	static const char s[] = HDR
	    "\t\ttrace_file\ta\\tb\t\t\t\n"
	    "0\tX\tcpu_op\tx\t1\t\t0\n"
	    "\t\ttrace_file\tc\\nd\t\t\t\n"
	    "1\tX\tcpu_op\ty\t2\t\t0\n";
	struct tl_trace *tr;
	const char *f;
	size_t n;

	tr = tl_trace_src(tl_src_mem("m", s, sizeof s - 1), TL_S_TREE, 0, 0);
	CHECK_I64(tl_trace_next(tr), 1);
	CHECK_STR(tr->name, strlen(tr->name), "m");
	CHECK_I64(tl_trace_row(tr), TL_ROW_FACT);
	CHECK_STR(tr->name, strlen(tr->name), "a\tb");
	f = tl_trace_raw(tr, TL_C_NAME, &n);
	CHECK_STR(f, n, "a\\tb");
	CHECK_I64(tl_trace_row(tr), TL_ROW_EVENT);
	CHECK_I64(tl_trace_row(tr), TL_ROW_END);
	CHECK_I64(tl_trace_next(tr), 1);
	CHECK_STR(tr->name, strlen(tr->name), "c\nd");
	CHECK_I64(tl_trace_row(tr), TL_ROW_FACT);
	f = tl_trace_raw(tr, TL_C_NAME, &n);
	CHECK_STR(f, n, "c\\nd");
	CHECK_I64(tl_trace_row(tr), TL_ROW_EVENT);
	CHECK_I64(tl_trace_uid(tr), 1);
	CHECK_I64(tl_trace_row(tr), TL_ROW_END);
	CHECK_I64(tl_trace_next(tr), 0);
	CHECK_I64(tr->status, 0);
	tl_trace_close(tr);
}

int
main(int argc, char *argv[])
{
	struct tl_trace *tr;
	int r;

	tl_setprogname(argv[0]);
	if (argc == 4 && strcmp(argv[1], "expect") == 0) {
		tr = tl_trace_open(1, argv + 3, strcmp(argv[2], "tree") == 0 ?
		    TL_S_TREE : TL_S_EVENT, 0, 0);
		while (tl_trace_next(tr))
			while (tl_trace_row(tr) != TL_ROW_END)
				;
		r = tr->status;
		tl_trace_close(tr);
		return r;
	}
	test_kind();
	test_stream();
	test_reader();
	test_rawname();
	return unit_done();
}
