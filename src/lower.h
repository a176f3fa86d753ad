/* lower.h - what the per-operator lowering files share: building a plan's steps. */
#ifndef TMV_LOWER_H
#define TMV_LOWER_H

#include "op.h"

/* Room for `count` steps in op->steps (zeroed); TMV_ERR_OUT_OF_MEMORY with
 * the last error set when allocation fails. */
tmv_status tmv_plan_reserve(tmv_op *op, uint64_t count);

/* Points a step of its kind (step->kind set) at kernel k: step->kernel and
 * the run of k's primitive in the step's union member; not staged
 * (step->stage_kernel NULL) until tmv_plan_stage weighs it. */
void tmv_step_use(tmv_step *step, const tmv_kernel *k);

/* Allocates step->state (TMV_KERNEL_STATE_BYTES, 64-byte aligned; freed with
 * the op) once step->kernel is set: TMV_OK or TMV_ERR_OUT_OF_MEMORY. */
tmv_status tmv_plan_step_state(tmv_op *op, tmv_step *step);

/* Once step->kernel is set and `shape` (of its primitive) is final: if the
 * kernel has a prepare, allocates the step's state, prepares it and points
 * *state (the shape's state member) to it. TMV_OK or TMV_ERR_OUT_OF_MEMORY. */
tmv_status tmv_plan_prepare(tmv_op *op, tmv_step *step, void *shape, const void **state);

/* Normalizes shape and appends a COPY step with the kernel picked for it
 * (and its prepared state), unless the shape moves nothing. Room must have
 * been reserved. Fails only for want of memory for the state. */
tmv_status tmv_plan_add_copy(tmv_op *op, tmv_copy_shape shape, uint32_t src_buffer, uint64_t src_offset,
                       uint32_t dst_buffer, uint64_t dst_offset);

/* The same for a copy within outputs[buffer], from src_offset to
 * dst_offset, of what the steps before it wrote (TILE's replicas). */
tmv_status tmv_plan_add_output_copy(tmv_op *op, tmv_copy_shape shape, uint32_t buffer, uint64_t src_offset,
                              uint64_t dst_offset);

/* The copy of a box of sizes_t's sizes between two tensors of its element
 * type: source strides src_t's, destination strides dst_t's, in bytes. */
tmv_copy_shape tmv_shape_of(const tmv_tensor *sizes_t, const tmv_tensor *src_t, const tmv_tensor *dst_t);

/* Lowerings, one per operator family. */
tmv_status tmv_lower_join(tmv_op *op);
tmv_status tmv_lower_split(tmv_op *op);
tmv_status tmv_lower_tile(tmv_op *op);
tmv_status tmv_lower_depth_space(tmv_op *op);
tmv_status tmv_lower_gather_nd(tmv_op *op);

#endif
