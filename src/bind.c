/* bind.c - checks of the buffers bound at execute: NULLs where data is needed, overlapping extents. */
#include <stdlib.h>

#include "error.h"
#include "op.h"

/* Past this many outputs, disjointness is checked by sorting extents (on the
 * stack, up to SORT_MAX) rather than pair by pair. */
#define PAIRWISE_MAX 16
#define SORT_MAX 512

typedef struct extent {
    uintptr_t start;
    uint64_t  len;
    uint32_t  index;
} extent;

/* [a, a + a_len) and [b, b + b_len) share a byte. */
static bool ranges_meet(const void *a, uint64_t a_len, const void *b, uint64_t b_len)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return a_len != 0 && b_len != 0 && pa < pb + b_len && pb < pa + a_len;
}

static tmv_status report_output_overlap(const tmv_op *op, void *const *outputs, uint32_t o, uint32_t p)
{
    return tmv_fail(TMV_ERR_OVERLAP,
                    "%s: execute: outputs[%u] (%llu bytes at %p) overlaps outputs[%u] (%llu bytes at %p)",
                    tmv_op_name(op->type), o, (unsigned long long)op->outputs[o].extent_bytes, outputs[o], p,
                    (unsigned long long)op->outputs[p].extent_bytes, outputs[p]);
}

static tmv_status outputs_disjoint_pairwise(const tmv_op *op, void *const *outputs)
{
    for (uint32_t o = 0; o < op->output_count; o++)
        for (uint32_t p = 0; p < o; p++)
            if (ranges_meet(outputs[o], op->outputs[o].extent_bytes, outputs[p], op->outputs[p].extent_bytes))
                return report_output_overlap(op, outputs, o, p);
    return TMV_OK;
}

static int by_start(const void *a, const void *b)
{
    const extent *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Sorted by start, extents are disjoint iff each ends before the next begins. */
static tmv_status outputs_disjoint_sorted(const tmv_op *op, void *const *outputs)
{
    extent e[SORT_MAX];
    uint32_t n = 0;
    for (uint32_t o = 0; o < op->output_count; o++)
        if (op->outputs[o].extent_bytes != 0)
            e[n++] = (extent){(uintptr_t)outputs[o], op->outputs[o].extent_bytes, o};
    qsort(e, n, sizeof e[0], by_start);
    for (uint32_t i = 1; i < n; i++)
        if (e[i - 1].start + e[i - 1].len > e[i].start)
            return report_output_overlap(op, outputs, e[i].index, e[i - 1].index);
    return TMV_OK;
}

tmv_status tmv_check_bindings(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    const char *name = tmv_op_name(op->type);
    if (inputs == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: execute: inputs is NULL", name);
    if (outputs == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: execute: outputs is NULL", name);
    for (uint32_t i = 0; i < op->input_count; i++)
        if (inputs[i] == NULL && !op->inputs[i].empty)
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "%s: execute: inputs[%u] is NULL but its tensor holds elements", name, i);
    for (uint32_t o = 0; o < op->output_count; o++)
        if (outputs[o] == NULL && !op->outputs[o].empty)
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "%s: execute: outputs[%u] is NULL but its tensor holds elements", name, o);
    /* inputs x outputs: one side is a single tensor for every operator */
    for (uint32_t o = 0; o < op->output_count; o++)
        for (uint32_t i = 0; i < op->input_count; i++)
            if (ranges_meet(outputs[o], op->outputs[o].extent_bytes, inputs[i], op->inputs[i].extent_bytes))
                return tmv_fail(TMV_ERR_OVERLAP,
                                "%s: execute: outputs[%u] (%llu bytes at %p) overlaps inputs[%u] "
                                "(%llu bytes at %p)", name, o,
                                (unsigned long long)op->outputs[o].extent_bytes, outputs[o], i,
                                (unsigned long long)op->inputs[i].extent_bytes, inputs[i]);
    if (op->output_count > PAIRWISE_MAX && op->output_count <= SORT_MAX)
        return outputs_disjoint_sorted(op, outputs);
    return outputs_disjoint_pairwise(op, outputs);
}
