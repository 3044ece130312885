/*
 * tl-parse: the XPlane reader's HLO modules (spec 4): the compiled
 * modules of the metadata plane, their instructions and what TraceLens
 * takes from them.
 */
#include "xpint.h"

/* ---- the HLO modules (spec 4) ---- */

static const char *const ptype[] = {
	"invalid", "pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32",
	"u64", "f16", "f32", "f64", "tuple", "opaque", "c64", "bf16", "token",
	"c128", "f8e5m2", "f8e4m3fn", "s4", "u4", "f8e4m3b11fnuz",
	"f8e5m2fnuz", "f8e4m3fnuz", "s2", "u2", "f8e4m3", "f8e3m4",
	"f8e8m0fnu", "f4e2m1fn", "s1", "u1"
};

/* Print a ShapeProto as XLA does, without spaces, to o. */
static int
putshape(struct tl_out *o, const unsigned char *p, size_t n, int depth)
{
	struct tl_pb m, lm;
	struct tl_pbf f, g;
	uint64_t t = 0, v;
	size_t pos, nd = 0, nl = 0, ntup = 0;
	struct tl_pbf dims[64], lay[8];
	int r, i, haslayout = 0;
	char buf[32];

	if (depth > 32)
		return -1;
	pbinit(&m, p, n, 0);
	while ((r = tl_pb_next(&m, &f)) == 1) {
		if (f.num == 2 && f.wire == TL_PB_VARINT)
			t = f.v;
		else if (f.num == 3 && nd < 64)
			dims[nd++] = f;
		else if (f.num == 4 && f.wire == TL_PB_LEN)
			ntup++;
		else if (f.num == 5 && f.wire == TL_PB_LEN) {
			haslayout = 1;
			if (tl_pb_sub(&lm, &f) < 0)
				return -1;
			while ((r = tl_pb_next(&lm, &g)) == 1)
				if (g.num == 1 && nl < 8)
					lay[nl++] = g;
			if (r < 0)
				return -1;
		}
	}
	if (r < 0)
		return -1;
	if (t == 13) {
		tl_out_char(o, '(');
		pbinit(&m, p, n, 0);
		i = 0;
		while (tl_pb_next(&m, &f) == 1)
			if (f.num == 4 && f.wire == TL_PB_LEN) {
				if (i++ > 0)
					tl_out_char(o, ',');
				if (putshape(o, f.data, f.len, depth + 1) < 0)
					return -1;
			}
		tl_out_char(o, ')');
		return 0;
	}
	if (t < sizeof ptype / sizeof ptype[0])
		tl_out_raw(o, ptype[t], strlen(ptype[t]));
	else {
		snprintf(buf, sizeof buf, "type%" PRIu64, t);
		tl_out_raw(o, buf, strlen(buf));
	}
	tl_out_char(o, '[');
	i = 0;
	for (size_t k = 0; k < nd; k++)
		for (pos = 0; (r = tl_pb_packed(&dims[k], &pos, &v)) == 1;) {
			if (i++ > 0)
				tl_out_char(o, ',');
			tl_out_i64(o, (int64_t)v);
		}
	tl_out_char(o, ']');
	if (haslayout && i > 0) {
		int j = 0;

		tl_out_char(o, '{');
		for (size_t k = 0; k < nl; k++)
			for (pos = 0; tl_pb_packed(&lay[k], &pos, &v) == 1;) {
				if (j++ > 0)
					tl_out_char(o, ',');
				tl_out_i64(o, (int64_t)v);
			}
		tl_out_char(o, '}');
	}
	return 0;
}

/* An instruction as first read: what the facts are made from. */
struct rawinst {
	struct xs name, opcode, cct, bcfg;
	struct span shape, meta;
	int64_t id;
	struct tl_pbf opids[16];
	size_t nopf;
	int root, hascct, hasbcfg, hasmeta;
};

char *
arenadup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1 + sizeof(char *));

	/* A list of blocks, freed at the end. */
	memcpy(p, &arena, sizeof(char *));
	arena = p;
	memcpy(p + sizeof(char *), s, n);
	p[sizeof(char *) + n] = '\0';
	return p + sizeof(char *);
}

static struct xs
keep(struct tl_out *o)
{
	struct xs s;

	s.p = arenadup(o->buf, o->n);
	s.n = o->n;
	o->n = 0;
	return s;
}

/* TraceLens's line munging on a piece of text. */
static void
munge(struct tl_out *o, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i + 1 < n && ((s[i] == ')' && s[i + 1] == ',') ||
		    (s[i] == ',' && s[i + 1] == ' ') ||
		    (s[i] == ' ' && s[i + 1] == '%'))) {
			tl_out_char(o, s[i] == ' ' ? '%' : s[i]);
			i++;
			continue;
		}
		tl_out_char(o, s[i]);
	}
}

static void
cescape(struct tl_out *o, const char *s, size_t n)
{
	size_t i;
	char b[8];

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\' || c == '\'') {
			tl_out_char(o, '\\');
			tl_out_char(o, (char)c);
		} else if (c == '\n')
			tl_out_raw(o, "\\n", 2);
		else if (c == '\t')
			tl_out_raw(o, "\\t", 2);
		else if (c == '\r')
			tl_out_raw(o, "\\r", 2);
		else if (c < 0x20 || c == 0x7f) {
			snprintf(b, sizeof b, "\\%03o", c);
			tl_out_raw(o, b, 4);
		} else
			tl_out_char(o, (char)c);
	}
}

/* The maximal run of s[0..n) whose bytes are in set. */
size_t
run(const char *s, size_t n, const char *set)
{
	size_t i;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || (c != 0 && strchr(set, c))))
			break;
	}
	return i;
}

static int
hicmp(const void *a, const void *b)
{
	const struct hinst *x = a, *y = b;
	size_t n = x->name.n < y->name.n ? x->name.n : y->name.n;
	int c = memcmp(x->name.p, y->name.p, n);

	return c != 0 ? c : x->name.n < y->name.n ? -1 : x->name.n > y->name.n;
}

struct idmap {
	int64_t id;
	size_t i;
};

static int
idcmp(const void *a, const void *b)
{
	const struct idmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int
readinst(const struct tl_pbf *f, struct rawinst *ri)
{
	struct tl_pb m;
	struct tl_pbf g;
	int r;

	memset(ri, 0, sizeof *ri);
	ri->name.p = ri->opcode.p = ri->cct.p = ri->bcfg.p = "";
	ri->id = -1;
	if (tl_pb_sub(&m, f) < 0)
		return -1;
	while ((r = tl_pb_next(&m, &g)) == 1) {
		if (g.wire == TL_PB_LEN) {
			switch (g.num) {
			case 1: ri->name = fstr(&g); break;
			case 2: ri->opcode = fstr(&g); break;
			case 3:
				ri->shape.p = g.data;
				ri->shape.n = g.len;
				break;
			case 7:
				ri->meta.p = g.data;
				ri->meta.n = g.len;
				ri->hasmeta = 1;
				break;
			case 28: ri->cct = fstr(&g); ri->hascct = 1; break;
			case 43: ri->bcfg = fstr(&g); ri->hasbcfg = 1; break;
			case 36:
				if (ri->nopf < 16)
					ri->opids[ri->nopf++] = g;
				break;
			}
		} else if (g.wire == TL_PB_VARINT) {
			if (g.num == 35)
				ri->id = (int64_t)g.v;
			else if (g.num == 36 && ri->nopf < 16)
				ri->opids[ri->nopf++] = g;
		}
	}
	return r < 0 ? -1 : 0;
}

/* OpMetadata as XLA prints it: op_type="" op_name="" source_file="" ... */
static int
putmeta(struct tl_out *o, struct span s)
{
	struct tl_pb m;
	struct tl_pbf g;
	struct xs f[3] = { { NULL, 0 }, { NULL, 0 }, { NULL, 0 } };
	int64_t line = 0;
	int r, k = 0;
	static const char *const key[] = { "op_type", "op_name",
	    "source_file" };

	pbinit(&m, s.p, s.n, 0);
	while ((r = tl_pb_next(&m, &g)) == 1) {
		if (g.wire == TL_PB_LEN && g.num >= 1 && g.num <= 3)
			f[g.num - 1] = fstr(&g);
		else if (g.wire == TL_PB_VARINT && g.num == 4)
			line = (int32_t)g.v;
	}
	if (r < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (f[i].n > 0) {
			if (k++ > 0)
				tl_out_char(o, ' ');
			tl_out_raw(o, key[i], strlen(key[i]));
			tl_out_raw(o, "=\"", 2);
			cescape(o, f[i].p, f[i].n);
			tl_out_char(o, '"');
		}
	if (line != 0) {
		if (k++ > 0)
			tl_out_char(o, ' ');
		tl_out_raw(o, "source_line=", sizeof "source_line=" - 1);
		tl_out_i64(o, line);
	}
	return 0;
}

static int
hastype(const char *s, size_t n)
{
	static const char *const ty[] = { "get-tuple-element", "bf16", "f8",
	    "f16", "f32", "f64", "s32", "s64", "u32", "u64", "pred", NULL };
	const char *const *t;

	for (t = ty; *t != NULL; t++)
		if (memmem(s, n, *t, strlen(*t)) != NULL)
			return 1;
	return 0;
}

/*
 * The operand strings of TraceLens's reference behaviour from the
 * operand text T: every match of [bfs][0-9[]{,a-z]+} left to right, or,
 * when none, T split on ','.
 */
static void
operands(struct hinst *h, const char *t, size_t n)
{
	static const char set[] = "[]{,";
	size_t i, j, cut, nm = 0;
	struct xs v[256];
	const char *q;

	if ((q = memchr(t, ')', n)) != NULL)
		n = (size_t)(q - t);
	for (i = 0; i < n && nm < 256; i++) {
		if (t[i] != 'b' && t[i] != 'f' && t[i] != 's')
			continue;
		for (j = i + 1; j < n; j++) {
			unsigned char c = (unsigned char)t[j];

			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			    strchr(set, c) != NULL))
				break;
		}
		if (j > i + 1 && j < n && t[j] == '}') {
			v[nm].p = t + i;
			v[nm++].n = j + 1 - i;
			i = j;
		}
	}
	if (nm == 0)
		for (i = cut = 0; i <= n && nm < 256; i++)
			if (i == n || t[i] == ',') {
				v[nm].p = t + cut;
				v[nm++].n = i - cut;
				cut = i + 1;
			}
	h->ops = xreallocarray(NULL, nm ? nm : 1, sizeof *h->ops);
	for (i = 0; i < nm; i++) {
		h->ops[i].p = arenadup(v[i].p, v[i].n);
		h->ops[i].n = v[i].n;
	}
	h->nops = nm;
}

static int
parsemodule(struct module *M)
{
	struct tl_pb m, mm, cm;
	struct tl_pbf f, g, c;
	struct rawinst *ri = NULL;
	struct idmap *ids = NULL;
	size_t nri = 0, capri = 0, i, k, cstart;
	struct tl_out t;
	int r;

	M->parsed = 1;
	tl_out_init(&t, -1, "(hlo)");
	pbinit(&m, M->proto.p, M->proto.n, M->proto.off);
	while ((r = tl_pb_next(&m, &f)) == 1) {
		if (f.num != 1)
			continue;
		if (tl_pb_sub(&mm, &f) < 0)
			goto bad;
		while ((r = tl_pb_next(&mm, &g)) == 1) {
			int64_t root = -1;

			if (g.num != 3)
				continue;
			if (tl_pb_sub(&cm, &g) < 0)
				goto bad;
			cstart = nri;
			while ((r = tl_pb_next(&cm, &c)) == 1) {
				if (c.num == 6 && c.wire == TL_PB_VARINT)
					root = (int64_t)c.v;
				if (c.num != 2)
					continue;
				xgrow(&ri, &capri, nri + 1, sizeof *ri);
				if (readinst(&c, &ri[nri]) < 0)
					goto bad;
				nri++;
			}
			if (r < 0)
				goto bad;
			for (k = cstart; k < nri; k++)
				ri[k].root = ri[k].id == root && root >= 0;
			/* No root_id: the last instruction is the root. */
			if (root < 0 && nri > cstart)
				ri[nri - 1].root = 1;
		}
		if (r < 0)
			goto bad;
	}
	if (r < 0)
		goto bad;
	ids = xreallocarray(NULL, nri ? nri : 1, sizeof *ids);
	for (i = 0; i < nri; i++) {
		ids[i].id = ri[i].id;
		ids[i].i = i;
	}
	qsort(ids, nri, sizeof *ids, idcmp);
	M->in = xreallocarray(NULL, nri ? nri : 1, sizeof *M->in);
	for (i = 0; i < nri; i++) {
		struct rawinst *x = &ri[i];
		struct hinst *h = &M->in[M->nin];
		size_t opstart, ln;
		int nop = 0;

		if (x->root)
			continue;
		memset(h, 0, sizeof *h);
		h->name = x->name;
		t.n = 0;
		if (putshape(&t, x->shape.p, x->shape.n, 0) < 0)
			goto bad;
		h->output = keep(&t);
		/* The operand text: SHAPE%name,... with index comments. */
		for (k = 0; k < x->nopf; k++) {
			size_t pos = 0;
			uint64_t v;

			while ((r = tl_pb_packed(&x->opids[k], &pos, &v)) == 1) {
				struct idmap key = { (int64_t)v, 0 }, *hit;

				if (nop > 0)
					tl_out_char(&t, ',');
				if (nop > 0 && nop % 5 == 0) {
					tl_out_raw(&t, "/*index=", 8);
					tl_out_i64(&t, nop);
					tl_out_raw(&t, "*/", 2);
				}
				nop++;
				hit = bsearch(&key, ids, nri, sizeof *ids,
				    idcmp);
				if (hit != NULL) {
					struct rawinst *y = &ri[hit->i];

					if (putshape(&t, y->shape.p, y->shape.n,
					    0) < 0)
						goto bad;
					tl_out_char(&t, '%');
					tl_out_raw(&t, y->name.p, y->name.n);
				}
			}
			if (r < 0)
				goto bad;
		}
		opstart = 0;
		(void)opstart;
		operands(h, t.buf, t.n);
		/* The keep test, on the pieces of the printed line. */
		ln = t.n;
		if (!x->hasmeta && !hastype(t.buf, ln) &&
		    !hastype(h->output.p, h->output.n) &&
		    !hastype(x->name.p, x->name.n) &&
		    !hastype(x->opcode.p, x->opcode.n)) {
			free(h->ops);
			t.n = 0;
			continue;
		}
		t.n = 0;
		if (x->hasmeta) {
			struct tl_out u;
			size_t nr;

			tl_out_init(&u, -1, "(meta)");
			if (putmeta(&u, x->meta) < 0) {
				free(u.buf);
				goto bad;
			}
			tl_out_raw(&t, "metadata={", 10);
			{
				struct tl_out w;

				tl_out_init(&w, -1, "(munged)");
				munge(&w, u.buf, u.n);
				nr = run(w.buf, w.n, "_=\"()/ @.-");
				tl_out_raw(&t, w.buf, nr);
				free(w.buf);
			}
			free(u.buf);
			h->meta = keep(&t);
			h->hasmeta = 1;
		}
		tl_out_raw(&t, x->opcode.p, x->opcode.n);
		h->opcode = keep(&t);
		if (x->hascct) {
			tl_out_raw(&t, x->cct.p, x->cct.n);
			h->target = keep(&t);
		}
		if (x->hascct) {
			struct tl_out u;

			tl_out_init(&u, -1, "(cct)");
			cescape(&u, x->cct.p, x->cct.n);
			tl_out_char(&u, '"');
			tl_out_raw(&t, "custom_call_target=\"", 20);
			tl_out_raw(&t, u.buf, run(u.buf, u.n, "_=\"()/ @.$-"));
			free(u.buf);
			h->cct = keep(&t);
			h->hascct = 1;
		}
		if (x->hasbcfg && x->bcfg.n > 0) {
			struct tl_out u;
			const char *b = x->bcfg.p;
			size_t bn = x->bcfg.n;

			if (bn > 0 && b[0] == '{') {
				b++;
				bn--;
			}
			tl_out_init(&u, -1, "(bcfg)");
			munge(&u, b, bn);
			tl_out_raw(&t, "backend_config={", 16);
			tl_out_raw(&t, u.buf, run(u.buf, u.n,
			    "_=\"()/ @.,:[]{}-"));
			free(u.buf);
			h->bcfg = keep(&t);
			h->hasbcfg = 1;
		}
		M->nin++;
	}
	qsort(M->in, M->nin, sizeof *M->in, hicmp);
	free(ri);
	free(ids);
	free(t.buf);
	return 0;
bad:
	tl_warns(&xwarn, "%s: HLO module \"%.*s\" does not parse (its kernels "
	    "get no HLO facts)", xname, (int)M->name.n, M->name.p);
	for (i = 0; i < M->nin; i++)
		free(M->in[i].ops);
	free(M->in);
	M->in = NULL;
	M->nin = 0;
	M->bad = 1;
	free(ri);
	free(ids);
	free(t.buf);
	return -1;
}

/* The modules of the /host:metadata plane: "<name>(<id>)", "Hlo Proto". */
void
findmodules(void)
{
	size_t i, j;

	for (i = 0; i < npl; i++) {
		struct plane *P = &pl[i];

		if (!xseq(P->name, "/host:metadata"))
			continue;
		for (j = 0; j < P->nem; j++) {
			struct emeta *e = &P->em[j];
			struct tl_pb m, sm;
			struct tl_pbf g, h;
			struct module *M;
			const char *lp;
			int r;

			pbinit(&m, e->msg.p, e->msg.n, e->msg.off);
			while ((r = tl_pb_next(&m, &g)) == 1) {
				struct smeta *s = NULL;
				struct tl_pbf val = { 0, TL_PB_LEN, 0, NULL, 0, 0 };
				int hasval = 0;

				if (g.num != 5 || tl_pb_sub(&sm, &g) < 0)
					continue;
				while (tl_pb_next(&sm, &h) == 1) {
					if (h.num == 1 && h.wire == TL_PB_VARINT)
						s = findsm(P, (int64_t)h.v);
					else if (h.num == 6 &&
					    h.wire == TL_PB_LEN) {
						val = h;
						hasval = 1;
					}
				}
				if (s == NULL || !hasval ||
				    !xseq(s->name, "Hlo Proto"))
					continue;
				xgrow(&mods, &capmods, nmods + 1,
				    sizeof *mods);
				M = &mods[nmods++];
				memset(M, 0, sizeof *M);
				M->name = e->name;
				M->base = e->name;
				M->progid = -1;
				lp = memrchr(e->name.p, '(', e->name.n);
				if (lp != NULL && e->name.n > 0 &&
				    e->name.p[e->name.n - 1] == ')') {
					M->base.n = (size_t)(lp - e->name.p);
					M->progid = strtoll(lp + 1, NULL, 10);
				}
				M->proto.p = val.data;
				M->proto.n = val.len;
				M->proto.off = val.off;
			}
		}
	}
}

/*
 * The module of an event: the one named "<hlo_module>(<program_id>)"
 * when the event has program_id; else, of the modules whose name starts
 * with hlo_module, the one with the lowest program id.
 */
struct module *
findmodule(struct xs base, int64_t progid)
{
	struct module *best = NULL;
	size_t i;

	for (i = 0; i < nmods; i++) {
		struct module *M = &mods[i];

		if (progid >= 0 && M->progid == progid && M->base.n == base.n &&
		    memcmp(M->base.p, base.p, base.n) == 0)
			return M;
	}
	for (i = 0; i < nmods; i++) {
		struct module *M = &mods[i];

		if (M->name.n >= base.n && memcmp(M->name.p, base.p,
		    base.n) == 0 && (best == NULL || M->progid < best->progid))
			best = M;
	}
	return best;
}

struct hinst *
findinst(struct module *M, struct xs op)
{
	struct hinst key;

	if (!M->parsed)
		(void)parsemodule(M);
	if (M->nin == 0)
		return NULL;
	if (op.n > 0 && op.p[0] == '%') {
		op.p++;
		op.n--;
	}
	key.name = op;
	return bsearch(&key, M->in, M->nin, sizeof *M->in, hicmp);
}

