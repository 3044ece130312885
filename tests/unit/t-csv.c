/*
 * tl: unit tests of the CSV reader (common/csv.c): quoted commas, doubled
 * quotes, line ends in quotes and the lines records start on, CR LF, an
 * empty file, a last line without its LF, the flags, records across the
 * input layer's chunks, and the errors (in a child process each: a
 * message on stderr, which the case compares verbatim, and the exit
 * status tl_failstatus). Runs in a scratch directory and writes its
 * temporary files there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/csv.h"
#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/limit.h"
#include "../../common/tsv.h"
#include "unit.h"

#define ALL	(TL_CSV_BLANK | TL_CSV_CRLF | TL_CSV_BOM | TL_CSV_LAX | \
    TL_CSV_SHORT)

static struct tl_out out;

/*
 * Append the header and every record of c to out, "LINE:f1|f2...\n"
 * each, and a note if the end does not stay the end.
 */
static void
dump(struct tl_csv *c)
{
	char b[TL_I64_MAX];
	size_t i;

	tl_out_raw(&out, b, tl_fmt_i64(b, (int64_t)c->lineno));
	tl_out_char(&out, ':');
	for (i = 0; i < c->ncol; i++) {
		if (i > 0)
			tl_out_char(&out, '|');
		tl_out_raw(&out, c->col[i], c->cl[i]);
	}
	tl_out_char(&out, '\n');
	while (tl_csv_next(c)) {
		tl_out_raw(&out, b, tl_fmt_i64(b, (int64_t)c->lineno));
		tl_out_char(&out, ':');
		for (i = 0; i < c->ncol; i++) {
			if (i > 0)
				tl_out_char(&out, '|');
			tl_out_raw(&out, c->f[i], c->fl[i]);
		}
		tl_out_char(&out, '\n');
	}
	if (tl_csv_next(c))
		tl_out_cstr(&out, "(a record after the end)\n");
}

/* Read text[0..n) from memory, in one chunk, into out. */
static void
readmem(const char *name, const char *text, size_t n, int flags)
{
	struct tl_src *src;
	struct tl_csv *c;

	out.n = 0;
	src = tl_src_mem(name, text, n);
	if (tl_src_next(src) != 1)
		exit(2);
	c = tl_csv_open(src, flags);
	dump(c);
	tl_csv_close(c);
	tl_src_close(src);
}

/* Read a file, in the chunks of the input layer, into out. */
static void
readfile(const char *path, int flags)
{
	struct tl_src *src;
	struct tl_csv *c;

	out.n = 0;
	if ((src = tl_src_open(path)) == NULL || tl_src_next(src) != 1)
		exit(2);
	c = tl_csv_open(src, flags);
	dump(c);
	tl_csv_close(c);
	tl_src_close(src);
}

#define READ(text, flags)	readmem("t.csv", text, sizeof text - 1, flags)
#define GOT(want)		CHECK_MEM(out.buf, out.n, want, sizeof want - 1)

static void
test_rfc(void)
{
	struct tl_src *src;
	struct tl_csv *c;

	/* Quoted commas, doubled quotes, quoted and empty fields. */
	READ("name,\"a \"\"quoted\"\", name\"\n"
	    "\"aten::mm, fused\",\"say \"\"hi\"\"\"\n"
	    ",\"\"\n"
	    "\"\"\"\",x\n", 0);
	GOT("1:name|a \"quoted\", name\n"
	    "2:aten::mm, fused|say \"hi\"\n"
	    "3:|\n"
	    "4:\"|x\n");

	/* Line ends in quotes: a record's line is the one it starts on. */
	READ("k,v\n\"two\nlines\",1\n\"x\",\"3\n\n5\"\nnext,6\n", 0);
	GOT("1:k|v\n2:two\nlines|1\n4:x|3\n\n5\n7:next|6\n");

	/* CR LF lines, as the header has them; a lone CR is text. */
	READ("a,b\r\n1,2\r\n\"x\r\ny\",3\r\nc\rd,\"4\"\r\n5,\r\r\n", 0);
	GOT("1:a|b\n2:1|2\n3:x\r\ny|3\n5:c\rd|4\n6:5|\r\n");
	/* A header that ends at LF: a CR before a LF is text. */
	READ("a,b\n1,2\r\n3,4\n", 0);
	GOT("1:a|b\n2:1|2\r\n3:3|4\n");
	/* ... unless TL_CSV_CRLF: every CR LF ends a record. */
	READ("a,b\n1,2\r\n3,\"4\"\r\n", TL_CSV_CRLF);
	GOT("1:a|b\n2:1|2\n3:3|4\n");

	/* A last line without its line end; a last empty field. */
	READ("a,b\n1,\"2\"", 0);
	GOT("1:a|b\n2:1|2\n");
	READ("a,b\n1,", 0);
	GOT("1:a|b\n2:1|\n");
	READ("a,b\r\n1,2\r", 0);	/* a CR without its LF: text */
	GOT("1:a|b\n2:1|2\r\n");
	READ("a", 0);
	GOT("1:a\n");

	/* A header alone; a header of one empty field; a NUL is a byte. */
	READ("a,b,c\n", 0);
	GOT("1:a|b|c\n");
	READ("\n\n\"\"\n", 0);
	GOT("1:\n2:\n3:\n");
	READ("a\nx\0y\n", 0);
	GOT("1:a\n2:x\0y\n");

	/* An empty file: no columns, no records. */
	src = tl_src_mem("empty.csv", "", 0);
	CHECK(tl_src_next(src) == 1);
	c = tl_csv_open(src, 0);
	CHECK(c->ncol == 0);
	CHECK(tl_csv_next(c) == 0);
	tl_csv_close(c);
	tl_src_close(src);
}

static void
test_flags(void)
{
	/* Blank lines passed over, and counted; "" is not blank. */
	READ("\n\r\na,b\n\n1,2\n\r\n\"\",\n\n", TL_CSV_BLANK | TL_CSV_CRLF);
	GOT("3:a|b\n5:1|2\n7:|\n");
	READ("\n\n\r\n", ALL);
	GOT("4:\n");		/* no columns: the end */
	/* Without TL_CSV_CRLF a CR LF line in a LF file is not blank. */
	READ("a\n\r\nx\n", TL_CSV_BLANK);
	GOT("1:a\n2:\r\n3:x\n");

	/* A byte order mark, dropped only with TL_CSV_BOM. */
	READ("\xef\xbb\xbf\"a\",b\n1,2\n", TL_CSV_BOM);
	GOT("1:a|b\n2:1|2\n");
	READ("\xef\xbb\xbf" "a,b\n", 0);
	GOT("1:\xef\xbb\xbf" "a|b\n");
	READ("\xef\xbb" "a,b\n", TL_CSV_BOM);	/* not a whole one: text */
	GOT("1:\xef\xbb" "a|b\n");
	READ("\xef\xbb", TL_CSV_BOM);
	GOT("1:\xef\xbb\n");
	READ("\xef\xbb\xbf", TL_CSV_BOM);
	GOT("1:\n");		/* no columns */
	READ("\xef\xbb\xbf\n\na\n", TL_CSV_BOM | TL_CSV_BLANK);
	GOT("3:a\n");

	/* Quotes as read_csv takes them. */
	READ("a,b,c\n\"x\"y,c\"d\",\"e\"\"\"f\"\n", TL_CSV_LAX);
	GOT("1:a|b|c\n2:xy|c\"d\"|e\"f\"\n");
	READ("a,b\r\n\"x\"\ry,\"z\"\r", TL_CSV_LAX);
	GOT("1:a|b\n2:x\ry|z\r\n");

	/* A short record filled out with empty fields. */
	READ("a,b,c\n1\n\n1,2,3\n", TL_CSV_SHORT);
	GOT("1:a|b|c\n2:1||\n3:||\n4:1|2|3\n");

	/* All of them, as tl-diff reads TraceLens's CSV files. */
	READ("\xef\xbb\xbf" "type,time ms\r\n\r\n\"idle\",1.5\r\nbusy\r\n",
	    ALL);
	GOT("1:type|time ms\n3:idle|1.5\n4:busy|\n");
}

/* Texts with a quote, a CR or a LF at every turn. */
#define T0	"\"\"\"\",\"\r\n\"\r\n\"x\"\"y\",\"\"\r\nz,\"\"\"\"\r\n"
#define T1	",\"a,b\"\n\"\n\",c\rd\n\"\",\"\"\n"
#define T2	"\"x\"y,\"\"\"\"z\r\n\r\n\n,\"q\"\r"

/*
 * Records across chunks: each text, after a header whose long first name
 * puts each of the text's bytes in turn at the end of the input layer's
 * first chunk (4096 bytes), reads from a file as it does in one chunk.
 */
static void
test_chunks(void)
{
	static const struct {
		const char *text, *eol;
		int flags;
	} t[] = {
		{ T0, "\r\n", 0 }, { T1, "\n", 0 }, { T2, "\r\n", ALL }
	};
	char *text, *want;
	size_t i, k, n, nt, nh, nwant, bad = 0;

	/* What the texts hold. */
	READ("h,b\r\n" T0, 0);
	GOT("1:h|b\n2:\"|\r\n\n4:x\"y|\n5:z|\"\n");
	READ("h,b\n" T1, 0);
	GOT("1:h|b\n2:|a,b\n3:\n|c\rd\n5:|\n");
	READ("h,b\r\n" T2, ALL);
	GOT("1:h|b\n2:xy|\"z\n5:|q\r\n");

	text = malloc(8192);
	want = malloc(65536);
	if (text == NULL || want == NULL)
		exit(2);
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		nt = strlen(t[i].text);
		nh = 2 + strlen(t[i].eol);	/* ",b" and the line end */
		for (k = 4096 - nh - nt; k <= 4096 - nh; k++) {
			memset(text, 'L', k);
			n = k;
			memcpy(text + n, ",b", 2);
			n += 2;
			memcpy(text + n, t[i].eol, nh - 2);
			n += nh - 2;
			memcpy(text + n, t[i].text, nt);
			n += nt;
			readmem("c.csv", text, n, t[i].flags);
			nwant = out.n;
			memcpy(want, out.buf, out.n);
			writefile("c.csv", text, n);
			readfile("c.csv", t[i].flags);
			bad += out.n != nwant ||
			    memcmp(out.buf, want, nwant) != 0;
		}
	}
	CHECK(bad == 0);
	free(text);
	free(want);
}

/*
 * Read text to its end in a child, with tl_failstatus set to status:
 * check that it exits with that status (its message goes to stderr).
 */
static void
fails(const char *name, const char *text, size_t n, int flags, int status,
    int line)
{
	char what[128];
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) < 0)
		exit(2);
	if (pid == 0) {
		tl_failstatus = status;
		readmem(name, text, n, flags);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid)
		exit(2);
	snprintf(what, sizeof what, "%s: exit %d", name, status);
	unit_check(WIFEXITED(st) && WEXITSTATUS(st) == status, what,
	    __FILE__, line);
}

#define FAILS(name, text, flags, status) \
	fails(name, text, sizeof text - 1, flags, status, __LINE__)

/*
 * A quoted field that does not end (the line it starts on), text after a
 * closing quote (a CR too, unless a LF follows in a file of CR LF lines),
 * a quote in an unquoted field, ragged records (the line a record starts
 * on), a record past --limit line; the exit status tl_failstatus.
 */
static void
test_errors(void)
{
	FAILS("unterminated.csv", "a,b\n1,2\n3,\"open\n4,5\n", 0, 1);
	FAILS("unterminated-lax.csv", "a,b\n\n\"x\"\"\n", ALL, 1);
	FAILS("after.csv", "a,b\n1,\"x\"y\n", 0, 1);
	FAILS("aftercr.csv", "a,b\r\n1,\"x\"\ry\r\n", 0, 1);
	FAILS("crlf.csv", "a,b\n1,\"x\"\r\n", 0, 1);
	FAILS("cr-eof.csv", "a,b\r\n1,\"x\"\r", 0, 1);
	FAILS("stray.csv", "a,b\n1,x\"y\n", 0, 1);
	FAILS("short.csv", "a,b\n1,2\n3\n", 0, 1);
	FAILS("long.csv", "a,b\n1,2\n\"x\ny\",2,3\n", 0, 1);
	FAILS("long-short.csv", "a,b\n1\n1,2,3\n", TL_CSV_SHORT, 1);
	/* The status is tl_failstatus, such as tl-diff's 2. */
	FAILS("status.csv", "a\n\"x\n", ALL, 2);
	/* A record past --limit line, line ends and all. */
	tl_limit[TL_LIM_LINE] = 8;
	FAILS("limit.csv", "a\n\"12345\n678\"\n", 0, 1);
	tl_limit[TL_LIM_LINE] = 9;
	READ("a\n\"12345\n678\"\n", 0);
	GOT("1:a\n2:12345\n678\n");
	tl_limit[TL_LIM_LINE] = (uint64_t)1 << 30;
}

/* The field writer: as Python's csv module quotes. */
static void
test_write(void)
{
	static const char *const in[] = {
		"", "plain", "a,b", "say \"hi\"", "\"", "l1\nl2", "cr\r",
		" space ", "semi;colon", "it's"
	};
	static const char *const want[] = {
		"", "plain", "\"a,b\"", "\"say \"\"hi\"\"\"", "\"\"\"\"",
		"\"l1\nl2\"", "\"cr\r\"", " space ", "semi;colon", "it's"
	};
	size_t i;
	unsigned bad = 0;

	for (i = 0; i < sizeof in / sizeof in[0]; i++) {
		out.n = 0;
		tl_out_csvfield(&out, in[i], strlen(in[i]));
		if (out.n != strlen(want[i]) || memcmp(out.buf, want[i],
		    out.n) != 0) {
			bad++;
			unit_show("got", out.buf, out.n);
		}
	}
	CHECK_I64(bad, 0);
	out.n = 0;
	tl_out_csvfield(&out, "a\0\"", 3);
	CHECK_MEM(out.buf, out.n, "\"a\0\"\"\"", 6);
	out.n = 0;
}

int
main(int argc, char *argv[])
{
	(void)argc;
	tl_setprogname(argv[0]);
	tl_out_init(&out, -1, "(memory)");
	test_rfc();
	test_flags();
	test_chunks();
	test_errors();
	test_write();
	tl_out_close(&out);
	return unit_done();
}
