/* dispatch.h - which kernel set and tuning operators are planned with: detection once, TENSORMOVE_ISA, tmv_set_isa. */
#ifndef TMV_DISPATCH_H
#define TMV_DISPATCH_H

#include "tensormove.h"
#include "tuning.h"

/* TMV_OK, or the error (last error set) every create fails with while the
 * environment is invalid: TMV_ERR_UNSUPPORTED_ISA while TENSORMOVE_ISA
 * names no kernel set this CPU has and tmv_set_isa has not overridden it;
 * TMV_ERR_INVALID_ARGUMENT while a tuning variable is malformed. */
tmv_status tmv_dispatch_status(void);

/* The process's tuning record (tuning.h), resolved once. */
const tmv_tuning *tmv_dispatch_tuning(void);

#endif
