/*
 * tl-parse: what the parts of the XPlane reader share: the protobuf
 * helpers, the planes with their maps (pass 1, xplane.c), the HLO modules
 * (hlo.c) and the events (pass 2, xpevents.c).
 */
#ifndef TL_PARSE_XPINT_H
#define TL_PARSE_XPINT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <sys/mman.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/input.h"
#include "../../common/mem.h"
#include "../../common/pb.h"
#include "../../common/pyfmt.h"
#include "../../common/tsv.h"
#include "xplane.h"

struct xs {			/* a string: a view into the input or arena */
	const char *p;
	size_t n;
};

struct span {			/* a message's bytes, and their offset */
	const unsigned char *p;
	size_t n;
	uint64_t off;
};

struct emeta {			/* XEventMetadata */
	int64_t id;
	struct xs name, dname;
	struct span msg;
	int internal;		/* an event type the conversion drops */
	int nstats;		/* its stats */
};

struct smeta {			/* XStatMetadata */
	int64_t id;
	struct xs name;
};

enum { P_GPU, P_CUSTOM, P_HOST, P_OTHER };

struct plane {
	int64_t id;
	struct xs name;
	int kind, pid;
	size_t idx;			/* in the file */
	struct emeta *em;
	size_t nem;
	struct smeta *sm;
	size_t nsm;
	struct span *ln;
	size_t nln;
	uint64_t off;
};

/* An HLO instruction's facts, the strings TraceLens derives (spec 4.2). */
struct hinst {
	struct xs name;			/* without the % */
	struct xs output, meta, cct, bcfg;	/* empty p: absent */
	struct xs opcode, target;	/* as written: the XLA op rows' */
	struct xs *ops;
	size_t nops;
	int hasmeta, hascct, hasbcfg;
};

struct module {
	struct xs name;			/* <module>(<program id>) */
	struct xs base;			/* <module> */
	int64_t progid;
	struct span proto;
	int parsed, bad;
	struct hinst *in;
	size_t nin;
};

/* A GPU or host event of the line being written. */
struct xev {
	int64_t ts, dur;		/* ps */
	struct emeta *m;
	struct xs name;
	struct span msg;
};

extern const char *xname;
extern struct tl_out *xo;
extern void (*xend)(void);
extern int (*xleft)(const char *, size_t, void *);
extern struct tl_warns xwarn;
extern struct plane *pl;
extern size_t npl, cappl;
extern struct xs hostname;
extern struct module *mods;
extern size_t nmods, capmods;
extern struct module *metaplane_mods;
extern struct xev *evs;
extern size_t capevs;
extern char *arena;
extern struct tl_out tmp, js;
extern int64_t nextuid, nextmuid;
extern uint64_t nbadref, nbadstat, nbadmeta;
extern const char *const internal_events[];
extern const char *const internal_stats[];
int xscmp(struct xs a, struct xs b);
int xseq(struct xs s, const char *lit);
int xsprefix(struct xs s, const char *lit);
int inlist(const char *const *v, struct xs s);
void pbinit(struct tl_pb *m, const void *p, size_t n, uint64_t off);
int bad(uint64_t off, const char *what);
int badpb(void);
int sub(struct tl_pb *m, const struct tl_pbf *f, const char *what);
int wantvar(const struct tl_pbf *f, const char *what);
int wantlen(const struct tl_pbf *f, const char *what);
struct xs fstr(const struct tl_pbf *f);
struct emeta *findem(const struct plane *P, int64_t id);
struct smeta *findsm(const struct plane *P, int64_t id);
extern uintptr_t mapbase, mapend;
int readspace(const unsigned char *p, size_t n);
char *arenadup(const char *s, size_t n);
size_t run(const char *s, size_t n, const char *set);
void findmodules(void);
struct module *findmodule(struct xs base, int64_t progid);
struct hinst *findinst(struct module *M, struct xs op);
extern int mapped;
void release(struct span L);
int xp_readall(const unsigned char *p, size_t n);

#endif
