/*
 * tl-cmpreport: perf-report CSV files as pandas' read_csv reads them
 * (frame.c), for the comparison (tl-cmpreport.c).
 */
#ifndef CR_FRAME_H
#define CR_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* A value, as pandas holds it. */
enum { V_NA, V_INT, V_FLOAT, V_BOOL, V_STR };
struct cell {
	int64_t i;			/* V_INT, V_BOOL */
	double d;			/* V_FLOAT */
	char *s;			/* V_STR */
	uint8_t t;
};

/* Column dtypes. */
enum { D_INT, D_FLOAT, D_BOOL, D_OBJ };

struct col {
	char *name;
	int dt;
	struct cell *v;			/* nrow */
};

struct frame {
	char *path;			/* for messages */
	size_t ncol, nrow;
	int missing;			/* no file: the columns of another's */
	struct col *c;
};

/* dir/sheet.csv as read_csv reads it; NULL when there is no such file. */
struct frame *loadcsv(const char *dir, const char *sheet);
void freeframe(struct frame *);
/* The index of the column name, or -1. */
int colidx(const struct frame *, const char *name);
void dropcol(struct frame *, const char *name);
/* Order of two cells as a sorted join key: numbers, strings, NA. */
int cmpcell(const struct cell *, const struct cell *);
struct cell copycell(const struct cell *);

#endif
