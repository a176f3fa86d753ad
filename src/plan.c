/* plan.c - building, describing and running a plan of primitive steps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "lower.h"
#include "partition.h"
#include "stage.h"

tmv_status tmv_plan_reserve(tmv_op *op, uint64_t count)
{
    if (count == 0)
        return TMV_OK;
    if (count > SIZE_MAX / sizeof(tmv_step) || (op->steps = calloc((size_t)count, sizeof(tmv_step))) == NULL)
        return tmv_fail(TMV_ERR_OUT_OF_MEMORY, "%s: out of memory planning %llu steps",
                        tmv_op_name(op->type), (unsigned long long)count);
    return TMV_OK;
}

tmv_status tmv_plan_step_state(tmv_op *op, tmv_step *step)
{
    step->state = aligned_alloc(64, TMV_KERNEL_STATE_BYTES);
    if (step->state == NULL)
        return tmv_fail(TMV_ERR_OUT_OF_MEMORY, "%s: out of memory for the state of kernel %s",
                        tmv_op_name(op->type), step->kernel->name);
    return TMV_OK;
}

tmv_status tmv_plan_prepare(tmv_op *op, tmv_step *step, void *shape, const void **state)
{
    if (!tmv_kernel_has_prepare(step->kernel))
        return TMV_OK;
    tmv_status status = tmv_plan_step_state(op, step);
    if (status != TMV_OK)
        return status;
    tmv_kernel_prepare(step->kernel, shape, step->state);
    *state = step->state;
    return TMV_OK;
}

void tmv_step_use(tmv_step *step, const tmv_kernel *k)
{
    step->kernel = k;
    step->stage_kernel = NULL; /* until tmv_plan_stage weighs the new kernel */
    switch (step->kind) {
    case TMV_STEP_COPY: step->u.copy.run = k->fn.copy.run; break;
    case TMV_STEP_JOIN_ROWS: step->u.join_rows.run = k->fn.join_rows.run; break;
    case TMV_STEP_SPLIT_ROWS: step->u.split_rows.run = k->fn.split_rows.run; break;
    case TMV_STEP_GATHER: step->u.gather.run = k->fn.gather.run; break;
    }
}

tmv_status tmv_plan_add_copy(tmv_op *op, tmv_copy_shape shape, uint32_t src_buffer, uint64_t src_offset,
                             uint32_t dst_buffer, uint64_t dst_offset)
{
    if (!tmv_shape_normalize(&shape))
        return TMV_OK;
    shape.tuning = &op->tuning;
    const tmv_kernel *k = tmv_pick_copy(op->isa, &shape);
    tmv_step *step = &op->steps[op->step_count++];
    step->kind = TMV_STEP_COPY;
    tmv_step_use(step, k);
    step->src_buffer = src_buffer;
    step->src_offset = src_offset;
    step->dst_buffer = dst_buffer;
    step->dst_offset = dst_offset;
    step->u.copy.shape = shape;
    return tmv_plan_prepare(op, step, &step->u.copy.shape, &step->u.copy.shape.state);
}

tmv_status tmv_plan_add_output_copy(tmv_op *op, tmv_copy_shape shape, uint32_t buffer, uint64_t src_offset,
                                    uint64_t dst_offset)
{
    const uint32_t before = op->step_count;
    const tmv_status status = tmv_plan_add_copy(op, shape, buffer, src_offset, buffer, dst_offset);
    if (op->step_count > before)
        op->steps[before].src_is_output = true;
    return status;
}

tmv_copy_shape tmv_shape_of(const tmv_tensor *sizes_t, const tmv_tensor *src_t, const tmv_tensor *dst_t)
{
    tmv_copy_shape s;
    memset(&s, 0, sizeof s);
    s.rank = sizes_t->dim_count;
    s.elem_bytes = sizes_t->elem_size;
    for (uint32_t d = 0; d < s.rank; d++) {
        s.sizes[d] = sizes_t->sizes[d];
        s.src_strides[d] = src_t->strides[d] * src_t->elem_size;
        s.dst_strides[d] = dst_t->strides[d] * dst_t->elem_size;
    }
    return s;
}

/* "join: join_rows/scalar" or "split: copy_w4/scalar x3, copy_memcpy/scalar". */
static void describe(tmv_op *op)
{
    size_t cap = sizeof op->description, len;
    len = (size_t)snprintf(op->description, cap, "%s:", tmv_op_name(op->type));
    if (op->step_count == 0)
        snprintf(op->description + len, cap - len, " nothing to do (no output elements)");
    for (uint32_t i = 0; i < op->step_count && len < cap;) {
        uint32_t run = 1;
        const tmv_step *step = &op->steps[i];
        while (i + run < op->step_count && op->steps[i + run].kernel == step->kernel &&
               op->steps[i + run].stage_kernel == step->stage_kernel)
            run++;
        len += (size_t)snprintf(op->description + len, cap - len, "%s %s", i ? "," : "", step->kernel->name);
        if (step->stage_kernel != NULL && len < cap)
            len += (size_t)snprintf(op->description + len, cap - len, " (off a line: staged by %s)",
                                    step->stage_kernel->name);
        if (run > 1 && len < cap)
            len += (size_t)snprintf(op->description + len, cap - len, " x%u", run);
        i += run;
    }
}

static bool outputs_empty(const tmv_op *op)
{
    for (uint32_t o = 0; o < op->output_count; o++)
        if (!op->outputs[o].empty)
            return false;
    return true;
}

tmv_status tmv_plan(tmv_op *op, tmv_isa isa, const tmv_tuning *tuning)
{
    op->isa = isa;
    op->tuning = *tuning;
    tmv_status status = TMV_OK;
    if (!outputs_empty(op)) {
        switch (op->type) {
        case TMV_OP_JOIN: status = tmv_lower_join(op); break;
        case TMV_OP_SPLIT: status = tmv_lower_split(op); break;
        case TMV_OP_TILE: status = tmv_lower_tile(op); break;
        case TMV_OP_SPACE_TO_DEPTH:
        case TMV_OP_DEPTH_TO_SPACE: status = tmv_lower_depth_space(op); break;
        case TMV_OP_GATHER_ND: status = tmv_lower_gather_nd(op); break;
        }
    }
    if (status == TMV_OK) {
        tmv_plan_partition(op);
        tmv_plan_stage(op);
        describe(op);
    }
    return status;
}

tmv_status tmv_step_execute(const tmv_step *step, const void *const *inputs, void *const *outputs)
{
    switch (step->kind) {
    case TMV_STEP_COPY: {
        uint8_t *dst = (uint8_t *)outputs[step->dst_buffer] + step->dst_offset;
        const uint8_t *src = tmv_step_copy_src(step, inputs, outputs);
        if (!tmv_stage_copy(step, &step->u.copy.shape, src, dst))
            step->u.copy.run(&step->u.copy.shape, src, dst);
        return TMV_OK;
    }
    case TMV_STEP_JOIN_ROWS:
        if (!tmv_stage_join(step, &step->u.join_rows.shape, inputs, outputs[0]))
            step->u.join_rows.run(&step->u.join_rows.shape, inputs, outputs[0]);
        return TMV_OK;
    case TMV_STEP_SPLIT_ROWS:
        if (!tmv_stage_split(step, &step->u.split_rows.shape, inputs[0], outputs))
            step->u.split_rows.run(&step->u.split_rows.shape, inputs[0], outputs);
        return TMV_OK;
    case TMV_STEP_GATHER:
        return step->u.gather.run(step->u.gather.shape, inputs[0], inputs[1], outputs[0]);
    }
    return TMV_OK;
}

tmv_status tmv_plan_execute(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    for (uint32_t i = 0; i < op->step_count; i++) {
        tmv_status status = tmv_step_execute(&op->steps[i], inputs, outputs);
        if (status != TMV_OK)
            return status;
    }
    return TMV_OK;
}
