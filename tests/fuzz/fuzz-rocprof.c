/*
 * tl: fuzz target for tl-parse's reader of a rocprofv3 JSON
 * (filters/tl-parse/rocprof.c, rocwalk.c); the body is amdreader.h's.
 */
#define READER tlp_rocprof
#define FILENAME "fuzz.json"
#include "../../filters/tl-parse/amd.c"
#include "../../filters/tl-parse/rocprof.c"
#include "../../filters/tl-parse/rocwalk.c"
#include "amdreader.h"
