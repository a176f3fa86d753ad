/* execute.c - the reference's entry point: one direct transcription of docs/SPEC.md per operator. */
#include "reference.h"

#include "../error.h"

tmv_status tmv_reference_execute(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    switch (op->type) {
    case TMV_OP_JOIN: return tmv_reference_join(op, inputs, outputs);
    case TMV_OP_SPLIT: return tmv_reference_split(op, inputs, outputs);
    case TMV_OP_TILE: return tmv_reference_tile(op, inputs, outputs);
    case TMV_OP_SPACE_TO_DEPTH: return tmv_reference_space_to_depth(op, inputs, outputs);
    case TMV_OP_DEPTH_TO_SPACE: return tmv_reference_depth_to_space(op, inputs, outputs);
    case TMV_OP_GATHER_ND: return tmv_reference_gather_nd(op, inputs, outputs);
    }
    /* Unreachable for a validated op; the library never aborts, so say so. */
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "reference: operator type %d is unknown", (int)op->type);
}
