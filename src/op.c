/* op.c - the operator object: its name for messages, and its allocation. */
#include <stdint.h>
#include <stdlib.h>

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
