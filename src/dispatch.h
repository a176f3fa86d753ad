/* dispatch.h - which kernel set runs: detection once, the TENSORMOVE_ISA cap, tmv_set_isa. */
#ifndef TMV_DISPATCH_H
#define TMV_DISPATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "tensormove.h"

/* TMV_OK, or TMV_ERR_UNSUPPORTED_ISA (last error set) while TENSORMOVE_ISA
 * names no kernel set this CPU has and tmv_set_isa has not overridden it. */
tmv_status tmv_dispatch_status(void);

/* A kernel built for set `kernel` may run under cap `cap`: scalar always,
 * others when in the cap's family at or below it. */
bool tmv_isa_includes(tmv_isa cap, tmv_isa kernel);

/* Outputs of at least this many bytes are written with non-temporal
 * (streaming) stores by the kernels that have them: about half the largest
 * cache, so a result that cannot stay in cache does not evict everything on
 * its way out. TENSORMOVE_STREAM_THRESHOLD (bytes) overrides it, for tuning. */
uint64_t tmv_stream_threshold(void);

/* How many index tuples ahead the x86 row gathers that prefetch (SSE2, AVX2,
 * and the streaming path) prefetch a row: 16 (measured on Zen 4; see
 * gather_x86.h), 0 for none. TENSORMOVE_GATHER_PREFETCH (0 to
 * TMV_GATHER_PREFETCH_MAX tuples) overrides it, for tuning. */
#define TMV_GATHER_PREFETCH_MAX 64
unsigned tmv_gather_prefetch_distance(void);

#endif
