/*
 * tl: fuzz target for tl-replay's readers (its sources are included):
 * the bytes are schema lines, then a line "--", then the four input
 * columns of one op (Input Dims, Input type, Input Strides, Concrete
 * Inputs as JSON text), TAB-separated. Each schema line is parsed
 * (a failure is only a failure); the op, named as the first schema,
 * is matched and its replay IR written. Checked: when the IR is
 * written it is one JSON value that jsmn reads whole, and a second
 * run on the same input writes the same bytes.
 */
#include <string.h>

#include "../../filters/tl-replay/ir.c"
#include "../../filters/tl-replay/json.c"
#include "../../filters/tl-replay/schema.c"

#include "../../common/mem.h"
#include "fuzz.h"

static void
once(char *buf, size_t size, struct tl_out *o, int *r)
{
	struct schemas S;
	struct inputs in;
	char *p = buf, *end = buf + size, *nl, *f[4], *name = NULL;
	size_t n[4], namelen = 0;
	const char *why;
	char detail[256];
	uint32_t which;
	int k;

	memset(&in, 0, sizeof in);
	schemas_init(&S, "fuzz");
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		*nl = '\0';
		if (strcmp(p, "--") == 0) {
			p = nl + 1;
			break;
		}
		if (memchr(p, '\0', (size_t)(nl - p)) != NULL)
			continue;
		if (schemas_add(&S, p, &why) == 0 && name == NULL) {
			name = p;
			namelen = strcspn(p, "(");
			if (memchr(p, '.', namelen) != NULL)
				namelen = (size_t)((char *)memchr(p, '.',
				    namelen) - p);
		}
	}
	for (k = 0; k < 4; k++) {
		char *t = p < end ? memchr(p, '\t', (size_t)(end - p)) : NULL;

		f[k] = p < end ? p : NULL;
		n[k] = p < end ? (size_t)((t != NULL ? t : end) - p) : 0;
		p = t != NULL ? t + 1 : end;
	}
	*r = inputs_read(&in, f[0], n[0], f[1], n[1], f[2], n[2], f[3], n[3],
	    &why);
	if (*r == R_OK && name != NULL)
		*r = replay_ir(o, 2, &S, name, namelen, &in, &which, detail,
		    sizeof detail);
	else if (*r == R_OK)
		*r = R_NOSCHEMA;
	inputs_free(&in);
	schemas_free(&S);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tl_out a, b;
	struct tl_jdoc doc = { 0 };
	char *buf;
	int ra, rb;

	fuzz_init();
	if (a.buf == NULL) {
		tl_out_init(&a, -1, "a");
		tl_out_init(&b, -1, "b");
	}
	a.n = b.n = 0;
	tl_err_hook = fuzz_fatal;	/* no memory, only */
	if (setjmp(fuzz_jb) == 0) {
		buf = xmemdup(data, size);
		once(buf, size, &a, &ra);
		memcpy(buf, data, size);
		once(buf, size, &b, &rb);
		free(buf);
		if (ra != rb || a.n != b.n || memcmp(a.buf, b.buf, a.n) != 0)
			abort();
		if (ra == R_OK) {
			if (tl_json_parse(&doc, a.buf, a.n) < 0 || doc.ntok < 1 ||
			    doc.tok[0].end != (int)a.n)
				abort();
			tl_json_free(&doc);
		}
	}
	tl_err_hook = NULL;
	return 0;
}
