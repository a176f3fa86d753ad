/* bind.c - checks of the buffers bound at execute: NULLs where data is needed, overlapping extents. */
#include <stdlib.h>

#include "error.h"
#include "op.h"

/* Outputs bound out of address order are sorted by start, by insertion up
 * to INSERTION_MAX of them (a call with the same binding order takes the
 * same branches each time) and by heapsort past it, and then each must end
 * before the next begins. Up to SORT_MAX of them sort in an array on the
 * stack, more in one malloc'd for the call (the op is shared by concurrent
 * executes, so it cannot hold scratch). Compared pair by pair instead
 * (28 pairs), a SPLIT of eight 1 KiB f32 outputs bound out of order took
 * 1.32-1.33x the time of the same bound in order, by insertion 1.20-1.26x
 * (tmv-bench split/outer-shuffled/8x/f32/8KiB against split/outer, each
 * build three times alternating); the heapsort took a fifth of 214 ns
 * (eight outputs of 2 KiB). */
#define INSERTION_MAX 16
#define SORT_MAX      512

/* [a, a + a_len) and [b, b + b_len) share a byte: one starts within the
 * other. Differences, not sums (no wrap at the top of the address space),
 * and no branch: a difference taken the wrong way round wraps past any
 * length. */
static bool ranges_meet(const void *a, uint64_t a_len, const void *b, uint64_t b_len)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return (a_len != 0) & (b_len != 0) & ((pa - pb < b_len) | (pb - pa < a_len));
}

static tmv_status report_output_overlap(const tmv_op *op, void *const *outputs, uint32_t o, uint32_t p)
{
    return tmv_fail(TMV_ERR_OVERLAP,
                    "%s: execute: outputs[%u] (%llu bytes at %p) overlaps outputs[%u] (%llu bytes at %p)",
                    tmv_op_name(op->type), o, (unsigned long long)op->outputs[o].extent_bytes, outputs[o], p,
                    (unsigned long long)op->outputs[p].extent_bytes, outputs[p]);
}

/* One pass over the outputs holding elements, in binding order. If each
 * starts at or past the end of the one before (ascending), or ends at or
 * before the start of the one before (descending), they are disjoint:
 * *decided and TMV_OK. If a step in the direction seen so far meets its
 * neighbour, that pair overlaps: *decided and TMV_ERR_OVERLAP. Otherwise the
 * order is mixed and *decided is false. */
static tmv_status outputs_disjoint_monotone(const tmv_op *op, void *const *outputs, bool *decided)
{
    bool up = true, down = true;
    uint32_t prev = UINT32_MAX;
    *decided = true;
    for (uint32_t o = 0; o < op->output_count; o++) {
        if (op->outputs[o].extent_bytes == 0)
            continue;
        if (prev != UINT32_MAX) {
            const uintptr_t a = (uintptr_t)outputs[prev], b = (uintptr_t)outputs[o];
            /* differences, not sums: no wrap at the top of the address space */
            if (b >= a && up) {
                if (b - a < op->outputs[prev].extent_bytes)
                    return report_output_overlap(op, outputs, o, prev);
                down = false;
            } else if (b < a && down) {
                if (a - b < op->outputs[o].extent_bytes)
                    return report_output_overlap(op, outputs, o, prev);
                up = false;
            } else {
                *decided = false;
                return TMV_OK;
            }
        }
        prev = o;
    }
    return TMV_OK;
}

/* Output order[i - 1] starts before (or with) order[i]: insertion for a
 * few, each move one 4-byte index (moved as 24-byte records of start,
 * length and index, each load straddled the two stores that had just moved
 * the record before it and waited for them to reach the cache: perf put it
 * at 30 ns of a 90 ns call, eight outputs); heapsort past INSERTION_MAX,
 * O(n log n) at worst and, unlike qsort, no allocation. */
static void sift_down(const uintptr_t *start, uint32_t *order, size_t i, size_t n)
{
    const uint32_t moving = order[i];
    for (size_t child; (child = 2 * i + 1) < n; i = child) {
        if (child + 1 < n && start[order[child]] < start[order[child + 1]])
            child++;
        if (!(start[moving] < start[order[child]]))
            break;
        order[i] = order[child];
    }
    order[i] = moving;
}

static void sort_by_start(const uintptr_t *start, uint32_t *order, size_t n)
{
    if (n <= INSERTION_MAX) {
        for (size_t i = 1; i < n; i++) {
            const uint32_t moving = order[i];
            size_t j = i;
            for (; j > 0 && start[moving] < start[order[j - 1]]; j--)
                order[j] = order[j - 1];
            order[j] = moving;
        }
        return;
    }
    for (size_t i = n / 2; i-- > 0;)
        sift_down(start, order, i, n);
    for (size_t end = n; end-- > 1;) {
        const uint32_t top = order[0];
        order[0] = order[end];
        order[end] = top;
        sift_down(start, order, 0, end);
    }
}

/* Sorted by start, extents are disjoint iff each ends before the next
 * begins. start and order have room for every output. */
static tmv_status outputs_disjoint_sorted(const tmv_op *op, void *const *outputs, uintptr_t *start, uint32_t *order)
{
    uint32_t n = 0;
    for (uint32_t o = 0; o < op->output_count; o++) {
        start[o] = (uintptr_t)outputs[o];
        if (op->outputs[o].extent_bytes != 0)
            order[n++] = o;
    }
    sort_by_start(start, order, n);
    for (uint32_t i = 1; i < n; i++)
        if (start[order[i]] - start[order[i - 1]] < op->outputs[order[i - 1]].extent_bytes)
            return report_output_overlap(op, outputs, order[i], order[i - 1]);
    return TMV_OK;
}

/* No two outputs' extents meet: O(n) when the outputs are bound in ascending
 * or descending address order, else sorted by start (by insertion up to
 * INSERTION_MAX outputs), allocating (malloc) only past SORT_MAX outputs. */
static tmv_status outputs_disjoint(const tmv_op *op, void *const *outputs)
{
    if (op->output_count < 2)
        return TMV_OK;
    bool decided;
    tmv_status status = outputs_disjoint_monotone(op, outputs, &decided);
    if (decided)
        return status;
    if (op->output_count <= SORT_MAX) {
        uintptr_t start[SORT_MAX];
        uint32_t order[SORT_MAX];
        return outputs_disjoint_sorted(op, outputs, start, order);
    }
    const size_t bytes = (size_t)op->output_count * (sizeof(uintptr_t) + sizeof(uint32_t));
    uintptr_t *start = malloc(bytes);
    if (start == NULL)
        return tmv_fail(TMV_ERR_OUT_OF_MEMORY,
                        "%s: execute: out of memory for the overlap check of %u outputs bound out of "
                        "address order (%zu bytes)", tmv_op_name(op->type), op->output_count, bytes);
    status = outputs_disjoint_sorted(op, outputs, start, (uint32_t *)(start + op->output_count));
    free(start);
    return status;
}

/* Whether a NULL stands where a tensor holds elements, or the single
 * tensor on one side meets a tensor of the other (every operator has a single
 * tensor on one side): what the checks below look for, without a branch a
 * tensor. A tensor holds elements iff its extent is not 0. */
static bool bindings_suspect(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    const bool one_output = op->output_count == 1;
    const uintptr_t at = (uintptr_t)(one_output ? outputs[0] : inputs[0]);
    const uint64_t len = one_output ? op->outputs[0].extent_bytes : op->inputs[0].extent_bytes;
    const tmv_tensor *others = one_output ? op->inputs : op->outputs;
    const void *const *other_at = one_output ? inputs : (const void *const *)outputs;
    const uint32_t count = one_output ? op->input_count : op->output_count;
    bool suspect = (at == 0) & (len != 0);
    for (uint32_t i = 0; i < count; i++)
        suspect |= ((other_at[i] == NULL) & (others[i].extent_bytes != 0)) |
                    ranges_meet((const void *)at, len, other_at[i], others[i].extent_bytes);
    return suspect;
}

/* The checks one by one, in the order their messages are given. Out of
 * line: the passing calls save no registers for it. */
static __attribute__((noinline, cold)) tmv_status check_bindings_each(const tmv_op *op, const void *const *inputs,
                                                                     void *const *outputs)
{
    if (inputs == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: execute: inputs is NULL", tmv_op_name(op->type));
    if (outputs == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: execute: outputs is NULL", tmv_op_name(op->type));
    for (uint32_t i = 0; i < op->input_count; i++)
        if (inputs[i] == NULL && !op->inputs[i].empty)
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "%s: execute: inputs[%u] is NULL but its tensor holds elements",
                            tmv_op_name(op->type), i);
    for (uint32_t o = 0; o < op->output_count; o++)
        if (outputs[o] == NULL && !op->outputs[o].empty)
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "%s: execute: outputs[%u] is NULL but its tensor holds elements",
                            tmv_op_name(op->type), o);
    /* inputs x outputs: one side is a single tensor for every operator */
    for (uint32_t o = 0; o < op->output_count; o++)
        for (uint32_t i = 0; i < op->input_count; i++)
            if (ranges_meet(outputs[o], op->outputs[o].extent_bytes, inputs[i], op->inputs[i].extent_bytes))
                return tmv_fail(TMV_ERR_OVERLAP,
                                "%s: execute: outputs[%u] (%llu bytes at %p) overlaps inputs[%u] "
                                "(%llu bytes at %p)", tmv_op_name(op->type), o,
                                (unsigned long long)op->outputs[o].extent_bytes, outputs[o], i,
                                (unsigned long long)op->inputs[i].extent_bytes, inputs[i]);
    return outputs_disjoint(op, outputs);
}

/* Every execute runs these. The calls that pass (nearly all) take one
 * branch-free pass over the tensors, and only a suspect call the checks
 * one by one, to name what is wrong: those alone took 15-16 ns a call of
 * one input and 39-41 ns of eight, a quarter of an 8 KiB JOIN of eight
 * pieces; the pass takes 12-13 and 34-36 ns (an Intel Xeon at 1.9 GHz,
 * 2026-11-28). One output needs no overlap check among outputs. */
tmv_status tmv_check_bindings(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    if (inputs == NULL || outputs == NULL || (op->input_count != 1 && op->output_count != 1) ||
        bindings_suspect(op, inputs, outputs))
        return check_bindings_each(op, inputs, outputs);
    return outputs_disjoint(op, outputs);
}
