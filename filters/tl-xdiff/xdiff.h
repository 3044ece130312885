/*
 * tl-xdiff: declarations shared by the private sources of tl-xdiff(1).
 * Everything here is prefixed xd_ or is a type of the program.
 */
#ifndef XD_H
#define XD_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/intern.h"
#include "../../common/trace.h"

#define NONE		UINT32_MAX
#define UNSET		(UINT32_MAX - 1)
#define PRE		(-1)
#define POST		(-2)

enum { PH_NONE, PH_PREFILL, PH_DECODE, PH_MIXED };

/* A host event's kind: TL_K_*, or a python frame of an nn.Module. */
#define H_MODULE	0xff
#define MODPFX	"nn.Module: "
#define NMODPFX	(sizeof MODPFX - 1)

struct host {
	int64_t uid, ts, dur;
	uint32_t parent;		/* index, NONE */
	uint32_t name;
	uint32_t mod;			/* nearest nn.Module frame, memo */
	uint8_t kind;
};

struct ev {
	int64_t ts, dur, lts;		/* start, duration, launch time */
	uint32_t name, cpu;		/* interned; cpu NONE */
	uint32_t hlo;			/* its HLO instruction (XLA), NONE */
	uint32_t op;
	uint32_t frame;			/* innermost nn.Module frame, NONE */
	int32_t layer;
	int32_t pass;
	uint8_t phase;
};

struct ann {
	int64_t ts, end;
	uint8_t phase;			/* PH_*, or 0 for a pass */
};

struct xside {
	const char *path;
	struct host *h;
	size_t nh;
	struct ev *ev;
	size_t nev;
	struct ann *ph[2];		/* phase annotations: CPU, GPU */
	size_t nph[2];
	struct ann *pass;		/* ProfilerStep / execute_context */
	size_t npass;
	char **layermod;		/* per layer: the module instance */
	int32_t nlayer;
	int nnmodule;			/* layers from nn.Module frames */
	int64_t total;
};

extern struct tl_intern *xd_in;		/* every name, both sides */

/* classes.c: the operation of a kernel name, by the rules of a file. */
extern char **xd_ops;			/* operation names, first-seen order */
extern size_t xd_nops;
extern uint32_t xd_opother;		/* "Other": no rule matched */
uint32_t xd_opindex(const char *name);
void xd_loadrules(const char *path);
void xd_freerules(void);
uint32_t xd_classify(uint32_t name, uint8_t *phase);

/* load.c: one side's events from a tree stream. */
void xd_load(struct xside *, const char *path);
/* The annotation around t: the latest to start that has not ended. */
const struct ann *xd_around(const struct ann *, size_t n, int64_t t);

#endif
