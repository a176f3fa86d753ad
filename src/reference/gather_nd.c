/* gather_nd.c - reference GATHER_ND (docs/SPEC.md section 6): check every index first, then copy. */
#include "reference.h"

#include <inttypes.h>
#include <stdio.h>

#include "../error.h"
#include "coords.h"

/* One index as read from the indices tensor: signed types keep their sign. */
typedef struct index_value {
    bool     is_signed;
    int64_t  s;
    uint64_t u;
} index_value;

static index_value read_index(const tmv_tensor *indices, const void *base, const uint32_t coord[TMV_MAX_DIMS])
{
    const unsigned char *p = (const unsigned char *)base + ref_byte_offset(indices, coord);
    index_value v = {false, 0, 0};
    switch (indices->dtype) {
    case TMV_DTYPE_INT32: { int32_t x; memcpy(&x, p, sizeof x); v.is_signed = true; v.s = x; break; }
    case TMV_DTYPE_INT64: { int64_t x; memcpy(&x, p, sizeof x); v.is_signed = true; v.s = x; break; }
    case TMV_DTYPE_UINT32: { uint32_t x; memcpy(&x, p, sizeof x); v.u = x; break; }
    default: { uint64_t x; memcpy(&x, p, sizeof x); v.u = x; break; } /* UINT64; validation allows no other */
    }
    return v;
}

/* The position an index selects in a dimension of `size` elements, per
 * docs/SPEC.md section 6; false if it selects none (out of range, or clamping
 * into a dimension that has no elements). */
static bool resolve_index(index_value v, uint32_t size, bool clamp, uint32_t *pos)
{
    const int64_t n = size;
    if (size == 0)
        return false;
    if (v.is_signed) {
        int64_t s = v.s;
        if (clamp)
            s = s < -n ? -n : s > n - 1 ? n - 1 : s;
        if (s < -n || s >= n)
            return false;
        *pos = (uint32_t)(s < 0 ? s + n : s);
        return true;
    }
    uint64_t u = v.u;
    if (clamp && u >= size)
        u = size - 1u;
    if (u >= size)
        return false;
    *pos = (uint32_t)u;
    return true;
}

/* Formats "[i0,i1,...]" for messages. */
static void format_coord(char *buf, size_t len, const uint32_t coord[TMV_MAX_DIMS], uint32_t dim_count)
{
    size_t used = (size_t)snprintf(buf, len, "[");
    for (uint32_t d = 0; d < dim_count && used < len; d++)
        used += (size_t)snprintf(buf + used, len - used, d ? ",%u" : "%u", coord[d]);
    if (used < len)
        snprintf(buf + used, len - used, "]");
}

static tmv_status index_out_of_range(const tmv_tensor *indices, const uint32_t coord[TMV_MAX_DIMS],
                                     index_value v, uint32_t input_dim, uint32_t size)
{
    char where[TMV_MAX_DIMS * 11 + 3];
    format_coord(where, sizeof where, coord, indices->dim_count);
    if (v.is_signed)
        return tmv_fail(TMV_ERR_INDEX_OUT_OF_RANGE,
                        "gather_nd: indices%s is %" PRId64 ", outside [-%u, %u) of input.sizes[%u] (%u)",
                        where, v.s, size, size, input_dim, size);
    return tmv_fail(TMV_ERR_INDEX_OUT_OF_RANGE,
                    "gather_nd: indices%s is %" PRIu64 ", outside [0, %u) of input.sizes[%u] (%u)",
                    where, v.u, size, input_dim, size);
}

/* When the output holds elements every index tuple is used (each output
 * position (batch, p) owns one tuple and the trailing part is non-empty), so
 * checking every element of the indices tensor checks exactly the used ones.
 * Element j of a tuple indexes input dimension n - r + b + j. */
static tmv_status check_all_indices(const tmv_op *op, const void *indices_base)
{
    const tmv_tensor *in = &op->inputs[0], *indices = &op->inputs[1];
    const uint32_t n = in->dim_count, first_indexed = n - op->input_dim_count + op->batch_dim_count;
    const bool clamp = (op->flags & TMV_OP_FLAG_CLAMP_INDICES) != 0;
    uint32_t coord[TMV_MAX_DIMS], pos;
    for (bool more = ref_first_coord(indices, coord); more; more = ref_next_coord(indices, coord)) {
        const uint32_t dim = first_indexed + coord[n - 1];
        const index_value v = read_index(indices, indices_base, coord);
        if (!resolve_index(v, in->sizes[dim], clamp, &pos))
            return index_out_of_range(indices, coord, v, dim, in->sizes[dim]);
    }
    return TMV_OK;
}

/* output[batch, p, t] = input[batch, idx(batch, p, 0..k-1), t], with the
 * meaningful dimensions right-aligned: output has m = (q-1) + (r-b-k) of them. */
tmv_status tmv_reference_gather_nd(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    const tmv_tensor *in = &op->inputs[0], *indices = &op->inputs[1], *out = &op->outputs[0];
    const uint32_t n = in->dim_count, r = op->input_dim_count, q = op->indices_dim_count;
    const uint32_t b = op->batch_dim_count, k = indices->sizes[n - 1];
    const uint32_t m = (q - 1) + (r - b - k);
    const bool clamp = (op->flags & TMV_OP_FLAG_CLAMP_INDICES) != 0;
    uint32_t coord[TMV_MAX_DIMS];
    if (out->empty)
        return TMV_OK;
    tmv_status status = check_all_indices(op, inputs[1]);
    if (status != TMV_OK)
        return status;
    for (bool more = ref_first_coord(out, coord); more; more = ref_next_coord(out, coord)) {
        const uint32_t *om = coord + (n - m); /* the meaningful output coordinates */
        uint32_t icoord[TMV_MAX_DIMS] = {0}, src[TMV_MAX_DIMS] = {0};
        for (uint32_t j = 0; j + 1 < q; j++)          /* batch and position p */
            icoord[n - q + j] = om[j];
        for (uint32_t j = 0; j < b; j++)              /* batch */
            src[n - r + j] = om[j];
        for (uint32_t j = 0; j < k; j++) {            /* the indexed dimensions */
            icoord[n - 1] = j;
            uint32_t pos = 0;
            resolve_index(read_index(indices, inputs[1], icoord), in->sizes[n - r + b + j], clamp, &pos);
            src[n - r + b + j] = pos;
        }
        for (uint32_t j = 0; j < r - b - k; j++)      /* trailing t */
            src[n - r + b + k + j] = om[q - 1 + j];
        ref_copy_element(out, outputs[0], coord, in, inputs[0], src);
    }
    return TMV_OK;
}
