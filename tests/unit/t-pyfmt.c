/*
 * tl: unit tests of the Python writers (common/pyfmt.c): repr of str,
 * float and JSON values, and json.dumps of a str, against the text
 * python3 itself wrote (the tables below: python3 printed them).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/pyfmt.h"
#include "../../common/tsv.h"
#include "unit.h"

/* generated with python3: repr(s), json.dumps(s, ensure_ascii=False) */
static const struct {
	const char *s;
	size_t n;
	const char *repr, *json;
} strcase[] = {
	{ "", 0,
	    "''",
	    "\"\"" },
	{ "aten::mm", 8,
	    "'aten::mm'",
	    "\"aten::mm\"" },
	{ "it's", 4,
	    "\"it's\"",
	    "\"it's\"" },
	{ "say \"hi\"", 8,
	    "'say \"hi\"'",
	    "\"say \\\"hi\\\"\"" },
	{ "both ' and \"", 12,
	    "'both \\' and \"'",
	    "\"both ' and \\\"\"" },
	{ "back\\slash", 10,
	    "'back\\\\slash'",
	    "\"back\\\\slash\"" },
	{ "tab\011nl\012cr\015", 10,
	    "'tab\\tnl\\ncr\\r'",
	    "\"tab\\tnl\\ncr\\r\"" },
	{ "\000\001\037\177", 4,
	    "'\\x00\\x01\\x1f\\x7f'",
	    "\"\\u0000\\u0001\\u001f\177\"" },
	{ "caf\303\251 \344\270\255\346\226\207 \360\237\230\200", 17,
	    "'caf\303\251 \344\270\255\346\226\207 \360\237\230\200'",
	    "\"caf\303\251 \344\270\255\346\226\207 \360\237\230\200\"" },
	{ "soft\302\255hyphen", 12,
	    "'soft\\xadhyphen'",
	    "\"soft\302\255hyphen\"" },
	{ "line\342\200\250sep\342\200\251", 13,
	    "'line\\u2028sep\\u2029'",
	    "\"line\342\200\250sep\342\200\251\"" },
	{ "nbsp\302\240", 6,
	    "'nbsp\\xa0'",
	    "\"nbsp\302\240\"" },
	{ "\302\200\302\237 c1", 7,
	    "'\\x80\\x9f c1'",
	    "\"\302\200\302\237 c1\"" },
	{ "\357\273\277bom", 6,
	    "'\\ufeffbom'",
	    "\"\357\273\277bom\"" },
	{ "\342\200\213zw", 5,
	    "'\\u200bzw'",
	    "\"\342\200\213zw\"" },
	{ "\356\200\200pua", 6,
	    "'\\ue000pua'",
	    "\"\356\200\200pua\"" },
	{ "\355\240\200lone\355\277\277", 10,
	    "'\\ud800lone\\udfff'",
	    "\"\355\240\200lone\355\277\277\"" },
	{ "\357\277\275", 3,
	    "'\357\277\275'",
	    "\"\357\277\275\"" },
	{ "\330\200arabic", 8,
	    "'\\u0600arabic'",
	    "\"\330\200arabic\"" },
	{ "\363\240\200\201tag", 7,
	    "'\\U000e0001tag'",
	    "\"\363\240\200\201tag\"" },
	{ "\357\277\276\357\277\277", 6,
	    "'\\ufffe\\uffff'",
	    "\"\357\277\276\357\277\277\"" },
	{ "\364\217\277\275\364\217\277\277", 8,
	    "'\\U0010fffd\\U0010ffff'",
	    "\"\364\217\277\275\364\217\277\277\"" },
	{ "\343\200\200ideo", 7,
	    "'\\u3000ideo'",
	    "\"\343\200\200ideo\"" },
	{ "\341\232\200ogham", 8,
	    "'\\u1680ogham'",
	    "\"\341\232\200ogham\"" },
};
static const struct { double v; const char *repr; } floatcase[] = {
	{ NAN, "nan" },
	{ INFINITY, "inf" },
	{ -INFINITY, "-inf" },
	{ -0.0, "-0.0" },
	{ 0.0, "0.0" },
	{ 1e+16, "1e+16" },
	{ 1e-05, "1e-05" },
	{ 5e-324, "5e-324" },
	{ 1.7976931348623157e+308, "1.7976931348623157e+308" },
	{ 1000000000000000.0, "1000000000000000.0" },
	{ 0.1, "0.1" },
	{ 123.456, "123.456" },
	{ 0.0001, "0.0001" },
	{ 12.0, "12.0" },
	{ -2.5e-07, "-2.5e-07" },
	{ 9999999999999998.0, "9999999999999998.0" },
	{ 9007199254740992.0, "9007199254740992.0" },
};
/* repr(json.loads(j)), with list_to_tuple, and with it into dicts */
static const struct { const char *js, *list, *tuple, *all; } jscase[] = {
	{ "[]",
	    "[]",
	    "()",
	    "()" },
	{ "[1]",
	    "[1]",
	    "(1,)",
	    "(1,)" },
	{ "[[1, 2], [3]]",
	    "[[1, 2], [3]]",
	    "((1, 2), (3,))",
	    "((1, 2), (3,))" },
	{ "{\"a\": [1, 2], \"b\": null}",
	    "{'a': [1, 2], 'b': None}",
	    "{'a': [1, 2], 'b': None}",
	    "{'a': (1, 2), 'b': None}" },
	{ "\"x\\u00ady\"",
	    "'x\\xady'",
	    "'x\\xady'",
	    "'x\\xady'" },
	{ "\"\\ud800\"",
	    "'\\ud800'",
	    "'\\ud800'",
	    "'\\ud800'" },
	{ "\"\\ud83d\\ude00\"",
	    "'\360\237\230\200'",
	    "'\360\237\230\200'",
	    "'\360\237\230\200'" },
	{ "[true, false, null]",
	    "[True, False, None]",
	    "(True, False, None)",
	    "(True, False, None)" },
	{ "[1.0, -0, -0.0, 1e16, 1E-5, 5e-324, 123]",
	    "[1.0, 0, -0.0, 1e+16, 1e-05, 5e-324, 123]",
	    "(1.0, 0, -0.0, 1e+16, 1e-05, 5e-324, 123)",
	    "(1.0, 0, -0.0, 1e+16, 1e-05, 5e-324, 123)" },
	{ "[NaN, Infinity, -Infinity]",
	    "[nan, inf, -inf]",
	    "(nan, inf, -inf)",
	    "(nan, inf, -inf)" },
	{ " [ \"it's\" , \"\\\"q\\\"\" ] ",
	    "[\"it's\", '\"q\"']",
	    "(\"it's\", '\"q\"')",
	    "(\"it's\", '\"q\"')" },
	{ "{}",
	    "{}",
	    "{}",
	    "{}" },
	{ "[[]]",
	    "[[]]",
	    "((),)",
	    "((),)" },
	{ "{\"k\": [[1]]}",
	    "{'k': [[1]]}",
	    "{'k': [[1]]}",
	    "{'k': ((1,),)}" },
	{ "\"\\/\\b\\f\\n\\r\\t\\u0000\"",
	    "'/\\x08\\x0c\\n\\r\\t\\x00'",
	    "'/\\x08\\x0c\\n\\r\\t\\x00'",
	    "'/\\x08\\x0c\\n\\r\\t\\x00'" },
	{ "12345678901234567890",
	    "12345678901234567890",
	    "12345678901234567890",
	    "12345678901234567890" },
};

#define N(a)	(sizeof (a) / sizeof (a)[0])

int
main(int argc, char *argv[])
{
	struct tl_out o;
	size_t i;
	unsigned bad;

	(void)argc;
	tl_setprogname(argv[0]);
	tl_out_init(&o, -1, "memory");

	for (i = 0, bad = 0; i < N(strcase); i++) {
		o.n = 0;
		tl_out_pystr(&o, strcase[i].s, strcase[i].n);
		if (o.n != strlen(strcase[i].repr) ||
		    memcmp(o.buf, strcase[i].repr, o.n) != 0) {
			bad++;
			unit_show("repr got", o.buf, o.n);
			unit_show("repr want", strcase[i].repr,
			    strlen(strcase[i].repr));
		}
		o.n = 0;
		tl_out_jsonstr(&o, strcase[i].s, strcase[i].n);
		if (o.n != strlen(strcase[i].json) ||
		    memcmp(o.buf, strcase[i].json, o.n) != 0) {
			bad++;
			unit_show("json got", o.buf, o.n);
			unit_show("json want", strcase[i].json,
			    strlen(strcase[i].json));
		}
	}
	CHECK_I64(bad, 0);	/* repr(str) and json.dumps as Python's */

	for (i = 0, bad = 0; i < N(floatcase); i++) {
		o.n = 0;
		tl_out_pyfloat(&o, floatcase[i].v);
		if (o.n != strlen(floatcase[i].repr) ||
		    memcmp(o.buf, floatcase[i].repr, o.n) != 0) {
			bad++;
			unit_show("float got", o.buf, o.n);
			unit_show("float want", floatcase[i].repr,
			    strlen(floatcase[i].repr));
		}
	}
	CHECK_I64(bad, 0);	/* repr(float) as Python's */

	for (i = 0, bad = 0; i < N(jscase); i++) {
		const char *want[3] = { jscase[i].list, jscase[i].tuple,
		    jscase[i].all };
		static const int flags[3] = { 0, TL_PY_TUPLES,
		    TL_PY_TUPLES | TL_PY_TUPLES_ALL };
		int k;

		for (k = 0; k < 3; k++) {
			o.n = 0;
			if (tl_out_pyjson(&o, jscase[i].js, strlen(jscase[i].js),
			    flags[k]) < 0 || o.n != strlen(want[k]) ||
			    memcmp(o.buf, want[k], o.n) != 0) {
				bad++;
				unit_show("pyjson in", jscase[i].js,
				    strlen(jscase[i].js));
				unit_show("pyjson got", o.buf, o.n);
				unit_show("pyjson want", want[k],
				    strlen(want[k]));
			}
		}
	}
	CHECK_I64(bad, 0);	/* repr(json.loads) as Python's */

	/* Not JSON: -1, and nothing written. */
	o.n = 0;
	tl_out_raw(&o, "x", 1);
	CHECK(tl_out_pyjson(&o, "[1, 2", 5, 0) == -1 && o.n == 1);
	CHECK(tl_out_pyjson(&o, "[1] 2", 5, 0) == -1 && o.n == 1);
	CHECK(tl_out_pyjson(&o, "\"ab", 3, 0) == -1 && o.n == 1);
	CHECK(tl_out_pyjson(&o, "", 0, 0) == -1 && o.n == 1);
	CHECK(tl_out_pyjson(&o, "1x", 2, 0) == -1 && o.n == 1);
	CHECK(tl_out_pyjson(&o, "{1: 2}", 6, 0) == -1 && o.n == 1);
	CHECK(tl_out_pyjson(&o, "\"\\q\"", 4, 0) == -1 && o.n == 1);
	CHECK(tl_out_pyjson(&o, "[1,]", 4, 0) == -1 && o.n == 1);
	CHECK(tl_out_pyjson(&o, "truex", 5, 0) == -1 && o.n == 1);

	/* A file-backed tl_out: the same text, nothing on a failure. */
	{
		struct tl_out f;
		FILE *fp;
		char got[64];
		size_t n;

		fp = tmpfile();
		tl_out_init(&f, fileno(fp), "tmpfile");
		CHECK(tl_out_pyjson(&f, "[1, \"a\"]", 8, TL_PY_TUPLES) == 0);
		CHECK(tl_out_pyjson(&f, "[1, ", 4, TL_PY_TUPLES) == -1);
		tl_out_close(&f);
		rewind(fp);
		n = fread(got, 1, sizeof got, fp);
		CHECK_STR(got, n, "(1, 'a')");
		fclose(fp);
	}

	/* str.isprintable at the edges of its runs. */
	CHECK(tl_pyprint(' ') && tl_pyprint('~') && !tl_pyprint(0x7f));
	CHECK(!tl_pyprint(0xa0) && tl_pyprint(0xa1) && !tl_pyprint(0xad));
	CHECK(!tl_pyprint(0x2028) && tl_pyprint(0x2030));
	CHECK(!tl_pyprint(0xfdd0) && !tl_pyprint(0x1fffe));
	CHECK(tl_pyprint(0x1f600) && !tl_pyprint(0x110000));
	tl_out_close(&o);
	return unit_done();
}
