/* api.c - create / execute / destroy: argument and buffer checks around the planned kernels. */
#include <stdint.h>
#include <stdlib.h>

#include "dispatch.h"
#include "error.h"
#include "op.h"

const char *tmv_op_name(tmv_op_type type)
{
    switch (type) {
    case TMV_OP_JOIN: return "join";
    case TMV_OP_SPLIT: return "split";
    case TMV_OP_TILE: return "tile";
    case TMV_OP_SPACE_TO_DEPTH: return "space_to_depth";
    case TMV_OP_DEPTH_TO_SPACE: return "depth_to_space";
    case TMV_OP_GATHER_ND: return "gather_nd";
    }
    return "unknown operator";
}

tmv_op *tmv_op_alloc(tmv_op_type type, uint32_t input_count, uint32_t output_count)
{
    size_t tensors = (size_t)input_count + output_count;
    if (tensors > (SIZE_MAX - sizeof(tmv_op)) / sizeof(tmv_tensor)) {
        tmv_fail(TMV_ERR_OUT_OF_MEMORY, "%s: %zu tensors do not fit in memory", tmv_op_name(type), tensors);
        return NULL;
    }
    tmv_op *op = calloc(1, sizeof(tmv_op) + tensors * sizeof(tmv_tensor));
    if (op == NULL) {
        tmv_fail(TMV_ERR_OUT_OF_MEMORY, "%s: out of memory allocating the operator (%zu tensors)",
                 tmv_op_name(type), tensors);
        return NULL;
    }
    op->type = type;
    op->input_count = input_count;
    op->output_count = output_count;
    op->inputs = (tmv_tensor *)(op + 1);
    op->outputs = op->inputs + input_count;
    return op;
}

tmv_status tmv_op_create(const tmv_op_desc *desc, tmv_op **out)
{
    if (out == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_op_create: out is NULL");
    *out = NULL;
    tmv_status status = tmv_dispatch_status();
    if (status != TMV_OK)
        return status;
    tmv_op *op;
    status = tmv_validate(desc, &op);
    if (status != TMV_OK)
        return status;
    status = tmv_plan(op, tmv_get_isa());
    if (status != TMV_OK) {
        tmv_op_destroy(op);
        return status;
    }
    *out = op;
    return TMV_OK;
}

void tmv_op_destroy(tmv_op *op)
{
    if (op == NULL)
        return;
    for (uint32_t i = 0; i < op->step_count; i++)
        free(op->steps[i].state);
    free(op->steps);
    free(op->pieces);
    free(op->gather);
    free(op);
}

const char *tmv_op_describe(const tmv_op *op)
{
    return op == NULL ? "" : op->description;
}

tmv_status tmv_op_execute(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    if (op == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_op_execute: op is NULL");
    tmv_status status = tmv_check_bindings(op, inputs, outputs);
    if (status != TMV_OK)
        return status;
    return tmv_plan_execute(op, inputs, outputs);
}

tmv_status tmv_execute(const tmv_op_desc *desc, const void *const *inputs, void *const *outputs)
{
    tmv_op *op;
    tmv_status status = tmv_op_create(desc, &op);
    if (status != TMV_OK)
        return status;
    status = tmv_op_execute(op, inputs, outputs);
    tmv_op_destroy(op);
    return status;
}

#define STRINGIFY(x) #x
#define VERSION_STRING(major, minor, patch) STRINGIFY(major) "." STRINGIFY(minor) "." STRINGIFY(patch)

const char *tmv_version(void)
{
    return VERSION_STRING(TMV_VERSION_MAJOR, TMV_VERSION_MINOR, TMV_VERSION_PATCH);
}
