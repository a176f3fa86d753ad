/* stage.h - a streaming COPY step meeting a destination off a 64-byte line: run through a staging buffer in cache, whose lines are then streamed out. */
#ifndef TMV_STAGE_H
#define TMV_STAGE_H

#include "op.h"

/* The staging buffer, on the executing thread's stack: a chunk of the step
 * is at most this many bytes. */
#define TMV_STAGE_BYTES 32768u

/* Sets step->stage_kernel for each COPY step of op's plan that runs staged
 * on a destination off a line: its kernel streams the step (tmv_cost_streams)
 * but only to a line-aligned destination (not `peels`, registry.inc), the
 * destination is dense with dim 0 outermost, a slab of dim 0 fits a quarter
 * of the staging buffer (chunks of several slabs), and a kernel with no
 * prepared state takes the chunks. Called at create, after the plan's
 * kernels are set. */
void tmv_plan_stage(tmv_op *op);

/* Runs a step that stages on a destination off a line: chunks of whole
 * slabs of dim 0, each written by step->stage_kernel with plain stores into
 * the staging buffer at the destination's offset within a line, then
 * streamed to the destination: its whole lines with streaming stores, the
 * partial lines at the chunk's ends with memcpy. */
void tmv_stage_copy(const tmv_step *step, const uint8_t *src, uint8_t *dst);

#endif
