/* validate.h - docs/SPEC.md's rules per operator, for create (a validated op) and for shape inference (the output's sizes). */
#ifndef TMV_VALIDATE_H
#define TMV_VALIDATE_H

#include "op.h"

/* The checks of a tmv_op_desc that come before its operator's own (desc not
 * NULL, a known type, known flags, desc->desc not NULL); `caller` names the
 * public function in messages about desc itself ("tmv_op_create: desc is
 * NULL"). The same for create and inference (validate.c). */
tmv_status tmv_check_op_desc(const tmv_op_desc *desc, const char *caller);

/* Create: a new op holding validated copies of everything it needs; on
 * failure *out stays NULL and the last error names the member. */
tmv_status tmv_validate_join(const tmv_join_desc *desc, tmv_op **out);
tmv_status tmv_validate_split(const tmv_split_desc *desc, tmv_op **out);
tmv_status tmv_validate_tile(const tmv_tile_desc *desc, tmv_op **out);
tmv_status tmv_validate_space_to_depth(const tmv_space_to_depth_desc *desc, tmv_op **out);
tmv_status tmv_validate_depth_to_space(const tmv_depth_to_space_desc *desc, tmv_op **out);
tmv_status tmv_validate_gather_nd(const tmv_gather_nd_desc *desc, tmv_op **out);

/* Inference: the same checks of the inputs and members, by the same code,
 * without reading the output description (SPLIT reads its outputs'
 * dim_count and sizes[axis] only), then the packed sizes of output `output`
 * (the caller has checked it is an output of the operator, but for SPLIT). */
tmv_status tmv_infer_join(const tmv_join_desc *desc, uint32_t *dim_count, uint32_t *sizes);
tmv_status tmv_infer_split(const tmv_split_desc *desc, uint32_t output, uint32_t *dim_count,
                           uint32_t *sizes);
tmv_status tmv_infer_tile(const tmv_tile_desc *desc, uint32_t *dim_count, uint32_t *sizes);
tmv_status tmv_infer_space_to_depth(const tmv_space_to_depth_desc *desc, uint32_t *dim_count,
                                    uint32_t *sizes);
tmv_status tmv_infer_depth_to_space(const tmv_depth_to_space_desc *desc, uint32_t *dim_count,
                                    uint32_t *sizes);
tmv_status tmv_infer_gather_nd(const tmv_gather_nd_desc *desc, uint32_t *dim_count, uint32_t *sizes);

/* Hands a finished op to the caller, or frees it so *out stays NULL. op is
 * NULL when tmv_op_alloc failed (it set the message); status is then
 * TMV_ERR_OUT_OF_MEMORY. */
tmv_status tmv_validate_finish(tmv_op *op, tmv_status status, tmv_op **out);

#endif
