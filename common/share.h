/*
 * tl: the share directory, where the data files of the tools live (the
 * arch files of tl-roofline, the kernel classes of tl-diff): $TL_SHARE
 * when it is set and not empty, else <dir of the executable>/../share/tl.
 */
#ifndef TL_SHARE_H
#define TL_SHARE_H

/* The directory, made once; never NULL. */
const char *tl_sharedir(void);
/* A new string: the directory, "/" and name. */
char *tl_sharepath(const char *name);

#endif
