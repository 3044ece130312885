/*
 * tl-replay: what its files share. The schema table (schema.c), the
 * profiled inputs of an op and their match against a schema, the replay
 * IR as JSON text (ir.c), and the JSON writer in the layout of Python's
 * json.dump(indent=4) (json.c).
 */
#ifndef TL_REPLAY_H
#define TL_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/tsv.h"

/* One argument of a schema: "<type> <name>[=<default>]". */
struct sarg {
	char *type;		/* as written: "Tensor?", "int[2]", ... */
	char *name;
};

/* One schema, as TraceLens's parse_schema_string splits it. */
struct schema {
	char *text;		/* the line, for -v */
	struct sarg *arg;	/* positional first, then keyword-only */
	int narg, npos;
	uint32_t next;		/* the next schema of the same name, or
				 * UINT32_MAX */
};

struct schemas {
	const char *path;
	struct schema *s;
	size_t n, cap;
	struct tl_intern *names;	/* op names without overload */
	uint32_t *first, *last;		/* per name id: its schemas */
	size_t nname, namecap;
};

/*
 * Read the schema file path (one schema a line, as
 * torch._C._jit_get_all_schemas() prints them; blank lines skipped):
 * exits with "PROG: PATH:LINE: what" on a line that does not parse.
 */
void schemas_load(struct schemas *, const char *path);
/* An empty table; one more schema, the line s (changed in place, kept
 * as it was): 0, or -1 with *why set when it does not parse. */
void schemas_init(struct schemas *, const char *path);
int schemas_add(struct schemas *, char *s, const char **why);
void schemas_free(struct schemas *);
/*
 * Parse one schema line s (NUL-terminated, changed in place): 0, or -1
 * with *why set when it does not parse. The op name without its
 * overload is s[0..*namelen).
 */
int schema_parse(char *s, struct schema *, size_t *namelen,
    const char **why);
/* The first schema of op name[0..n), or UINT32_MAX. */
uint32_t schemas_find(const struct schemas *, const char *name, size_t n);

/* A JSON value's text in a column: p[0..n). */
struct span {
	const char *p;
	size_t n;
};

/* The profiled inputs of an op: its four lists, element by element. */
struct inputs {
	size_t n;		/* entries in each list */
	struct span *dims, *strides;	/* JSON text of each entry */
	char **type, **conc;	/* decoded strings */
	size_t dcap, scap, tcap, ccap;
	char *buf;		/* the decoded strings' bytes */
	size_t bufcap;
};

/*
 * Why an op cannot be replayed. The first ones are what TraceLens's
 * EventReplayer cannot do; from R_BADLIST on, the inputs are not what
 * the profiler writes (bad input: each group is a warning).
 */
enum reason {
	R_OK,
	R_NOARGS,	/* no Input type / Input Strides / Concrete Inputs */
	R_NOSCHEMA,	/* no schema of that name, arity and types */
	R_TLIST,	/* a Tensor[] argument */
	R_ARGTYPE,	/* an argument the IR cannot hold (int? set, ...) */
	R_INTINIT,	/* an integer or bool tensor with init "normal" */
	R_BADLIST,	/* a list that is not JSON of the expected form */
	R_DISAGREE,	/* lists of different lengths */
	R_CONCRETE,	/* a concrete input that its type has not */
	R_STRIDES,	/* a tensor's strides and dims of different lengths */
	R_NEGATIVE,	/* a negative size or stride */
	R_OVERFLOW,	/* a size or stride beyond int64, or its storage */
	R_N
};
#define R_ISBAD(r)	((r) >= R_BADLIST)
extern const char *const reason_text[R_N];

/*
 * Read the four columns' text (JSON arrays; NULL when absent) into in:
 * R_OK, or the reason they cannot be used, with *detail (static text)
 * saying what.
 */
int inputs_read(struct inputs *, const char *dims, size_t ndims,
    const char *types, size_t ntypes, const char *strides, size_t nstrides,
    const char *conc, size_t nconc, const char **detail);
void inputs_free(struct inputs *);

/*
 * Find the schema of op name[0..nlen) that matches in (the first in the
 * file's order, as TraceLens takes them) and write the replay IR's
 * "replay_ir" value into o at indent level lvl (the text after "key": ).
 * R_OK, or the reason, with the offending type or value in detail
 * (cap bytes). *which is the schema used (UINT32_MAX when none).
 */
int replay_ir(struct tl_out *o, int lvl, const struct schemas *,
    const char *name, size_t nlen, const struct inputs *in,
    uint32_t *which, char *detail, size_t cap);

/* Python float(s): 1 with *v, 0 when float() would raise. */
int py_float(const char *s, double *v);

/* JSON as json.dump(indent=4, ensure_ascii=True) writes it. */
void j_indent(struct tl_out *, int lvl);		/* "\n" and 4*lvl spaces */
void j_str(struct tl_out *, const char *s, size_t n);	/* "..." */
void j_key(struct tl_out *, int lvl, const char *key, int first);
void j_float(struct tl_out *, double);		/* repr; NaN, Infinity */

#endif
