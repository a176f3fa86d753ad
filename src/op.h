/* op.h - the compiled operator: validated copies of the description's tensors and members. */
#ifndef TMV_OP_H
#define TMV_OP_H

#include "tensor.h"

struct tmv_op {
    tmv_op_type type;
    uint32_t    flags;
    /* Tensors in buffer-binding order (API.md): inputs = JOIN's inputs, or the
     * single input, then GATHER_ND's indices; outputs = SPLIT's outputs, or the
     * single output. Both arrays live in the same allocation as the op. */
    uint32_t    input_count;
    uint32_t    output_count;
    tmv_tensor *inputs;
    tmv_tensor *outputs;

    /* Operator members (only those of `type` are meaningful). */
    uint32_t              axis;                     /* JOIN, SPLIT */
    uint32_t              repeats[TMV_MAX_DIMS];    /* TILE, input->dim_count entries */
    uint32_t              block_size;               /* SPACE_TO_DEPTH, DEPTH_TO_SPACE */
    tmv_depth_space_order order;                    /* SPACE_TO_DEPTH, DEPTH_TO_SPACE */
    uint32_t              input_dim_count;          /* GATHER_ND r */
    uint32_t              indices_dim_count;        /* GATHER_ND q */
    uint32_t              batch_dim_count;          /* GATHER_ND b */
};

/* "join", "split", ... for messages. */
const char *tmv_op_name(tmv_op_type type);

/* A zeroed op of `type` with room for the given tensor counts; NULL (and the
 * last error set) when out of memory. Free with tmv_op_destroy. */
tmv_op *tmv_op_alloc(tmv_op_type type, uint32_t input_count, uint32_t output_count);

/* Validates the description behind desc->desc (SPEC.md) and returns a new op
 * holding copies of everything it needs. On failure *out is NULL and the last
 * error names the member. One function per operator, in validate.c. */
tmv_status tmv_validate(const tmv_op_desc *desc, tmv_op **out);

#endif
