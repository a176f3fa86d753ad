/* stage.h - a streaming COPY, JOIN_ROWS or SPLIT_ROWS step meeting a destination off a 64-byte line: run through a staging buffer in cache, whose lines are then streamed out. */
#ifndef TMV_STAGE_H
#define TMV_STAGE_H

#include "op.h"

/* The staging buffer, on the executing thread's stack: a chunk of the step
 * is at most this many bytes. */
#define TMV_STAGE_BYTES 32768u
/* A JOIN_ROWS or SPLIT_ROWS step stages with at most this many pieces
 * (their pointers live on the stack too). */
#define TMV_STAGE_MAX_PIECES 64u

/* Sets step->stage_kernel for each step of op's plan that runs staged on a
 * destination off a line: its kernel streams the step (tmv_cost_streams)
 * but only to a line-aligned destination (not `peels`, registry.inc), the
 * destination is dense (a COPY's with dim 0 outermost), a slab of dim 0 or
 * a joined row fits a quarter of the staging buffer (chunks of several),
 * and the stage kernel takes the chunks: for a COPY the model's choice
 * among kernels with no prepared state, for JOIN_ROWS / SPLIT_ROWS the
 * step's own kernel (its state, built for the pieces, holds for any run of
 * whole rows). Called at create, after the plan's kernels are set. */
void tmv_plan_stage(tmv_op *op);

/* Runs copy shape s of a step (its own, or a parallel task's part of its
 * dim 0) staged, if the step stages and dst is off a line: chunks of whole
 * slabs of dim 0, each written by step->stage_kernel with plain stores into
 * the staging buffer at the destination's offset within a line, then
 * streamed to the destination: its whole lines with streaming stores, the
 * partial lines at the chunk's ends with memcpy. False, having written
 * nothing, when it does not stage (nor for a part whose chunks the stage
 * kernel does not take): the caller runs the kernel. */
bool tmv_stage_copy(const tmv_step *step, const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);

/* The same for a JOIN_ROWS step's rows shape s (its own or a task's whole
 * rows; inputs: each piece's buffer, by the pieces' buffer indices): chunks
 * of whole joined rows. */
bool tmv_stage_join(const tmv_step *step, const tmv_rows_shape *s, const void *const *inputs, uint8_t *joined);

/* The same for a SPLIT_ROWS step, if any output is off a line: each chunk's
 * pieces in regions of the buffer of their own (each at its output's
 * offset within a line), streamed out one piece after another. */
bool tmv_stage_split(const tmv_step *step, const tmv_rows_shape *s, const uint8_t *joined, void *const *outputs);

#endif
