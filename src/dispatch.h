/* dispatch.h - which kernel set runs: detection once, the TENSORMOVE_ISA cap, tmv_set_isa. */
#ifndef TMV_DISPATCH_H
#define TMV_DISPATCH_H

#include <stdbool.h>

#include "tensormove.h"

/* TMV_OK, or TMV_ERR_UNSUPPORTED_ISA (last error set) while TENSORMOVE_ISA
 * names no kernel set this CPU has and tmv_set_isa has not overridden it. */
tmv_status tmv_dispatch_status(void);

/* A kernel built for set `kernel` may run under cap `cap`: scalar always,
 * others when in the cap's family at or below it. */
bool tmv_isa_includes(tmv_isa cap, tmv_isa kernel);

#endif
