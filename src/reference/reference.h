/* reference.h - the oracle: each operator coordinate by coordinate, straight from docs/SPEC.md.
 * Never optimized and sharing no code with the fast paths, so that it checks them. */
#ifndef TMV_REFERENCE_H
#define TMV_REFERENCE_H

#include "../op.h"

/* Runs `op` (already validated; buffers bound and overlap-checked by the
 * caller). Returns TMV_OK, or for GATHER_ND TMV_ERR_INDEX_OUT_OF_RANGE before
 * writing anything. */
tmv_status tmv_reference_execute(const tmv_op *op, const void *const *inputs, void *const *outputs);

tmv_status tmv_reference_join(const tmv_op *op, const void *const *inputs, void *const *outputs);
tmv_status tmv_reference_split(const tmv_op *op, const void *const *inputs, void *const *outputs);
tmv_status tmv_reference_tile(const tmv_op *op, const void *const *inputs, void *const *outputs);
tmv_status tmv_reference_space_to_depth(const tmv_op *op, const void *const *inputs, void *const *outputs);
tmv_status tmv_reference_depth_to_space(const tmv_op *op, const void *const *inputs, void *const *outputs);
tmv_status tmv_reference_gather_nd(const tmv_op *op, const void *const *inputs, void *const *outputs);

#endif
