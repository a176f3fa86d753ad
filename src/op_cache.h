/* op_cache.h - the operators tmv_execute keeps: the last few descriptions it was given, planned once. */
#ifndef TMV_OP_CACHE_H
#define TMV_OP_CACHE_H

#include "tensormove.h"

/* Operators kept, process-wide; the least recently used one makes room. */
#define TMV_OP_CACHE_SLOTS 16

typedef struct tmv_op_cache_hold tmv_op_cache_hold;

/* The operator for desc under the current kernel set: a kept one whose
 * description is equal member by member (the arrays' contents, not their
 * addresses), or a new one from tmv_op_create_for, kept if a slot is free or
 * idle. Returns tmv_op_create's status on failure (failures are not kept).
 * *hold is what tmv_op_cache_release needs: NULL when the operator is not
 * kept (then the caller owns and destroys it). Thread-safe; the operator
 * stays valid until released, whatever other threads do. */
tmv_status tmv_op_cache_acquire(const tmv_op_desc *desc, tmv_op **op, tmv_op_cache_hold **hold);

/* Ends the use of a kept operator. */
void tmv_op_cache_release(tmv_op_cache_hold *hold);

#endif
