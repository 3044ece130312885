/*
 * tl: the files the comparison programs (tl-diff, tl-join, tl-cmpreport,
 * tl-xdiff) write into their -o directory: the directory made when it is
 * missing, a file in it opened into a tl_out and closed. Trouble is
 * fatal, with tl_failstatus.
 */
#ifndef TL_DIFFOUT_H
#define TL_DIFFOUT_H

#include "tsv.h"

void tl_diff_mkdir(const char *dir);
/* Create (or truncate) dir/name for writing into o. */
void tl_diff_open(struct tl_out *o, const char *dir, const char *name);
/* Flush o, close its file and free its name. */
void tl_diff_close(struct tl_out *o);

#endif
