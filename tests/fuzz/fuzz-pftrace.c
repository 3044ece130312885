/*
 * tl: fuzz target for tl-parse's reader of a Perfetto protobuf trace
 * (filters/tl-parse/pftrace.c); the body is amdreader.h's.
 */
#define READER tlp_pftrace
#define FILENAME "fuzz.pftrace"
#include "../../filters/tl-parse/amd.c"
#include "../../filters/tl-parse/pftrace.c"
#include "amdreader.h"
