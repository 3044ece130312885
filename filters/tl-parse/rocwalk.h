/*
 * tl-parse: the rocprofv3 JSON reader's walker (rocwalk.c), shared with
 * its records (rocprof.c): the state of the reading, the byte-by-byte
 * walk through the file's structure, and the small values it takes out
 * whole, with their tokens.
 */
#ifndef TLP_ROCWALK_H
#define TLP_ROCWALK_H

#include <stdint.h>

#include "../../common/json.h"
#include "../../common/tsv.h"
#include "amd.h"

#define KEYMAX	64		/* longer keys match nothing read here */
#define DEPTHMAX 4096

struct str {
	char *s;
	size_t n;
};

/* u64 -> index + 1, open addressing (kernel ids, marker ids). */
struct umap {
	uint64_t *k;
	size_t *v;
	size_t cap, n;
};

struct sym {
	struct str name;	/* the report's name (A.4) */
	struct str demangled;
	int64_t sgpr, vgpr, accum;
	int hasregs;
	int plain;		/* name has no byte a TSV field escapes */
};

struct agent {
	uint64_t handle;
	int64_t type, index, node;
};

struct kind {
	struct str name;
	struct str *op;
	size_t nop;
};

struct rec {
	char *text;
	size_t len;
	uint64_t off;
	int arr, high;
};

/* The walker's input and what it takes out. */
struct rw {
	const struct tlp_ctx *x;
	struct tl_src *src;
	char *p;
	size_t n, pos;
	int eof;
	uint64_t base;		/* offset of p[0] */
	int capturing;
	int json;		/* the value taken out is JSON */
	int ws, high;		/* the value taken has blanks, bytes >= 0x80
				 * or control bytes in strings */
	size_t mark;
	struct tl_out cap;	/* the value being taken out */
	char key[KEYMAX + 1];
	size_t keylen;

	struct tl_jdoc d;
	struct sym *sym;
	size_t nsym, capsym;
	struct umap symix;
	struct agent *agent;
	size_t nagent;
	struct kind *kind;
	size_t nkind;
	struct str *marker;
	size_t nmarker, capmarker;
	struct umap markix;
	int havesym, havestr, haveagent;
	int64_t pid;
	int haspid;
	struct rec *defer;	/* records read before the names */
	size_t ndefer, capdefer;
	char **arrname;		/* names of the buffer_records arrays */
	size_t narr;
	uint64_t nrec, nrow, nbad, nwarn;	/* nrow: uids */
	struct tl_warns warns;
	struct tl_out j;	/* args JSON */
	char *ubuf, *ubuf2;
	size_t ucap, ucap2;
};

extern struct rw RW;

/* Keys looked up by their length and first byte. */
struct keyset {
	const char *const *key;	/* NULL-terminated */
	size_t len[16];
	unsigned char at[64];	/* 1 + the key of each hash, or 0 */
	int linear;		/* two keys have one hash: each is tried */
};
#define KHASH(n, c)	(((n) * 3 + (unsigned char)(c)) & 63)

size_t rw_uget(const struct umap *, uint64_t);
void rw_uput(struct umap *, uint64_t, size_t);
void rw_ufree(struct umap *);
void rw_warnat(uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int rw_fail(const char *what);
int rw_cur(void);
int rw_skipws(void);
void rw_classes(void);
int rw_skipval(void);
int rw_takeval(uint64_t *off);
int rw_readkey(void);
int rw_iskey(const char *k);
int rw_members(int (*fn)(void *), void *arg);
int rw_elements(int (*fn)(uint64_t, void *), void *arg);
int rw_doc(uint64_t off, const char *what);
int rw_after(int i);
int rw_keyis(int i, const char *key, size_t n);
int rw_mem(int o, const char *key);
void rw_keysinit(struct keyset *, const char *const *key);
void rw_slots(int o, const struct keyset *, int *v);
int rw_tint(int t, int64_t *v);
int64_t rw_intor(int t, int64_t def);
int rw_tstr(int t, struct str *d);
int64_t rw_handle(int t, int64_t def);

#endif
