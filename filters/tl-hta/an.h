/*
 * tl-hta: what the files of HTA's analyses share (an.c: temporal, kernel
 * and overlap breakdowns; idle.c: idle time, launch statistics, queue
 * length; memann.c: memory bandwidth, annotations and the run of them
 * all): the row filters and the top-k aggregation.
 */
#ifndef TL_HTA_AN_H
#define TL_HTA_AN_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/npsort.h"
#include "../../common/stats.h"
#include "hta.h"

/* The top-k aggregation of spec 2.4 over rows ix[0..n) of rk. */
struct agg {
	uint32_t name;
	int other;		/* "others" */
	double sum, max, min, mean, std;
};

struct krow {
	struct agg a;
	int kt;
	int64_t rank;
};

int isgpu(const struct row *r, int kt);
size_t *rows(const struct rank *rk, int (*f)(const struct row *, int), int arg, size_t *n);
void temporal(void);
extern struct agg *sag;
int cmpagg(size_t a, size_t b);
size_t topk(const struct rank *rk, const size_t *ix, size_t n, long numk, struct agg **out);
extern struct krow *skr;
size_t *kr_order(struct krow *kr, size_t nk, int (*cmp)(size_t, size_t));
void aggname(struct csv *c, const struct agg *a);
void kernels(void);
void overlap(void);
int isidle(const struct row *r, int arg);
void idle(void);
void launchstats(void);
void hdr2(struct csv *c, const char *k1, const char *k2, const char *col);
void queue(void);

#endif
