/*
 * tl-replay: JSON text as Python's json.dump(obj, f, indent=4) writes it
 * (ensure_ascii on): every element of a non-empty list or dict on a line
 * of its own, indented by 4 spaces a level, "key": value, "," at the end
 * of each line but the last, [] and {} when empty; non-ASCII as \uXXXX
 * (surrogate pairs above U+FFFF); floats as repr() writes them, NaN,
 * Infinity and -Infinity as json writes those.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../common/json.h"
#include "../../common/pyfmt.h"
#include "replay.h"

void
j_indent(struct tl_out *o, int lvl)
{
	static const char sp[] = "                                ";
	int n = 4 * lvl;

	tl_out_char(o, '\n');
	for (; n > 0; n -= (int)sizeof sp - 1)
		tl_out_raw(o, sp, (size_t)(n < (int)sizeof sp - 1 ? n :
		    (int)sizeof sp - 1));
}

static void
u4(struct tl_out *o, unsigned long c)
{
	char b[8];

	snprintf(b, sizeof b, "\\u%04lx", c);
	tl_out_raw(o, b, 6);
}

void
j_str(struct tl_out *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	tl_out_char(o, '"');
	while (i < n) {
		unsigned char c = p[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			tl_out_char(o, (char)c);
			i++;
			continue;
		}
		if (c < 0x80) {
			switch (c) {
			case '"': tl_out_raw(o, "\\\"", 2); break;
			case '\\': tl_out_raw(o, "\\\\", 2); break;
			case '\n': tl_out_raw(o, "\\n", 2); break;
			case '\r': tl_out_raw(o, "\\r", 2); break;
			case '\t': tl_out_raw(o, "\\t", 2); break;
			case '\b': tl_out_raw(o, "\\b", 2); break;
			case '\f': tl_out_raw(o, "\\f", 2); break;
			default: u4(o, c); break;	/* below 0x20, DEL */
			}
			i++;
			continue;
		}
		/* a UTF-8 sequence (a surrogate's three bytes too) */
		k = tl_utf8len(p + i, n - i);
		if (k == 0 && c == 0xed && n - i >= 3 &&
		    (p[i + 1] & 0xe0) == 0xa0 && (p[i + 2] & 0xc0) == 0x80)
			k = 3;
		if (k == 0) {
			u4(o, 0xfffd);
			i++;
			continue;
		}
		{
			unsigned long cp = k == 2 ? c & 0x1f : k == 3 ?
			    c & 0x0f : c & 0x07;
			size_t j;

			for (j = 1; j < k; j++)
				cp = cp << 6 | (p[i + j] & 0x3f);
			if (cp >= 0x10000) {
				cp -= 0x10000;
				u4(o, 0xd800 | cp >> 10);
				u4(o, 0xdc00 | (cp & 0x3ff));
			} else
				u4(o, cp);
		}
		i += k;
	}
	tl_out_char(o, '"');
}

void
j_key(struct tl_out *o, int lvl, const char *key, int first)
{
	if (!first)
		tl_out_char(o, ',');
	j_indent(o, lvl);
	j_str(o, key, strlen(key));
	tl_out_raw(o, ": ", 2);
}

void
j_float(struct tl_out *o, double v)
{
	char b[TL_PY_FLOATMAX];

	if (isnan(v))
		tl_out_cstr(o, "NaN");
	else if (isinf(v))
		tl_out_cstr(o, v > 0 ? "Infinity" : "-Infinity");
	else {
		tl_py_float(b, sizeof b, v);
		tl_out_raw(o, b, strlen(b));
	}
}
