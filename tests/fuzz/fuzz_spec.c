/* fuzz_spec.c - docs/SPEC.md's acceptance rules, transcribed section by section.
 *
 * Written from the document, not from src/validate.c: sizes relations and
 * extents are computed in 128 bits (so "without wrapping", SPEC 1.8, and
 * "overflows 64 bits", SPEC 1.7, are plain comparisons), and the checks run
 * in whatever order keeps every read inside what the description's counts
 * say exists. Only the verdict is compared with the library, never the order. */
#include "fuzz_spec.h"

#include <stdarg.h>
#include <stdio.h>

typedef unsigned __int128 u128;

/* Formats the broken rule into why and returns false. */
__attribute__((format(printf, 3, 4))) static bool broken(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return false;
}

const char *fz_spec_op_name(uint32_t type)
{
    static const char *const names[] = {NULL, "join", "split", "tile", "space_to_depth", "depth_to_space",
                                        "gather_nd"};
    return type < sizeof names / sizeof names[0] ? names[type] : NULL;
}

/* SPEC 1.2. */
uint32_t fz_spec_dtype_size(uint32_t dtype)
{
    static const uint8_t bytes[12] = {0, 4, 2, 4, 2, 1, 4, 2, 1, 8, 8, 8};
    return dtype < 12 ? bytes[dtype] : 0;
}

bool fz_spec_empty(const tmv_tensor_desc *t)
{
    for (uint32_t d = 0; d < t->dim_count; d++)
        if (t->sizes[d] == 0)
            return true;
    return false;
}

/* SPEC 1.3 for a non-empty tensor whose extent fits (so no product overflows). */
uint64_t fz_spec_stride(const tmv_tensor_desc *t, uint32_t d)
{
    if (t->sizes[d] == 1)
        return 0;
    if (t->strides != NULL)
        return t->strides[d];
    uint64_t s = 1;
    for (uint32_t e = d + 1; e < t->dim_count; e++)
        s *= t->sizes[e];
    return s;
}

/* SPEC 1.7, saturated just above 2^64 (which is "too big" whatever follows). */
static u128 extent128(const tmv_tensor_desc *t)
{
    const u128 too_big = (u128)UINT64_MAX + 1;
    u128 last = 0;
    if (fz_spec_empty(t))
        return 0;
    if (t->strides == NULL) {
        /* Packed: the highest element is the product of the sizes minus 1. */
        u128 count = 1;
        for (uint32_t d = 0; d < t->dim_count; d++) {
            count *= t->sizes[d];
            if (count > UINT64_MAX)
                return too_big;
        }
        last = count - 1;
    } else {
        for (uint32_t d = 0; d < t->dim_count; d++)
            if (t->sizes[d] > 1)
                last += (u128)(t->sizes[d] - 1) * t->strides[d];
    }
    const u128 bytes = (last + 1) * fz_spec_dtype_size(t->dtype);
    return bytes > UINT64_MAX ? too_big : bytes;
}

uint64_t fz_spec_extent(const tmv_tensor_desc *t)
{
    return (uint64_t)extent128(t);
}

/* SPEC 1.5: ordered by stride, each dimension of size > 1 steps at least over
 * the span of those before it. Equal strides fail whatever their order, so
 * the sort needs no tie rule. */
static bool injective(const tmv_tensor_desc *t, uint32_t *bad_dim)
{
    uint32_t dims[TMV_MAX_DIMS], n = 0;
    for (uint32_t d = 0; d < t->dim_count; d++)
        if (t->sizes[d] > 1)
            dims[n++] = d;
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && fz_spec_stride(t, dims[j]) < fz_spec_stride(t, dims[j - 1]); j--) {
            uint32_t tmp = dims[j];
            dims[j] = dims[j - 1];
            dims[j - 1] = tmp;
        }
    u128 span = 1;
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t stride = fz_spec_stride(t, dims[i]);
        if (stride < span) {
            *bad_dim = dims[i];
            return false;
        }
        span += (u128)(t->sizes[dims[i]] - 1) * stride;
    }
    return true;
}

#define MAIN UINT32_MAX /* tensor_ok's k for a tensor that is not an array entry */

/* SPEC 1.1, 1.2, 1.7 and, for an output, 1.5. */
static bool tensor_ok(const tmv_tensor_desc *t, const char *op, const char *name, uint32_t k, bool output,
                      char *why, size_t len)
{
    char who[48];
    if (k == MAIN)
        snprintf(who, sizeof who, "%s", name);
    else
        snprintf(who, sizeof who, "%s[%u]", name, k);
    if (t == NULL)
        return broken(why, len, "%s: %s is NULL (SPEC 1.1)", op, who);
    if (fz_spec_dtype_size(t->dtype) == 0)
        return broken(why, len, "%s: %s.dtype %u is no data type (SPEC 1.2)", op, who, (unsigned)t->dtype);
    if (t->dim_count < 1 || t->dim_count > TMV_MAX_DIMS)
        return broken(why, len, "%s: %s.dim_count is %u (SPEC 1.1)", op, who, t->dim_count);
    if (t->sizes == NULL)
        return broken(why, len, "%s: %s.sizes is NULL (SPEC 1.1)", op, who);
    if (fz_spec_empty(t))
        return true; /* SPEC 1.6: no extent, overflow or injectivity check */
    if (extent128(t) > SIZE_MAX)
        return broken(why, len, "%s: %s's byte extent overflows (SPEC 1.7)", op, who);
    uint32_t d;
    if (output && !injective(t, &d))
        return broken(why, len, "%s: %s.strides[%u] maps two coordinates to one element (SPEC 1.5)", op, who, d);
    return true;
}

/* SPEC 2 and 3: the whole (JOIN's output, SPLIT's input) against the pieces. */
static bool check_pieces(const char *op, const char *whole_name, const tmv_tensor_desc *whole,
                         const char *count_name, uint32_t count, const char *pieces_name,
                         const tmv_tensor_desc *pieces, uint32_t axis, bool split, char *why, size_t len)
{
    if (count == 0 || count > TMV_MAX_PIECES)
        return broken(why, len, "%s: %s is %u, not 1 to 2^20 (SPEC 2, 3)", op, count_name, count);
    if (pieces == NULL)
        return broken(why, len, "%s: %s is NULL (SPEC 2, 3)", op, pieces_name);
    if (!tensor_ok(whole, op, whole_name, MAIN, !split, why, len))
        return false;
    for (uint32_t k = 0; k < count; k++)
        if (!tensor_ok(&pieces[k], op, pieces_name, k, split, why, len))
            return false;
    if (axis >= whole->dim_count)
        return broken(why, len, "%s: axis %u >= %s.dim_count %u", op, axis, whole_name, whole->dim_count);
    u128 sum = 0;
    for (uint32_t k = 0; k < count; k++) {
        const tmv_tensor_desc *p = &pieces[k];
        if (p->dtype != whole->dtype)
            return broken(why, len, "%s: %s[%u].dtype differs from %s's", op, pieces_name, k, whole_name);
        if (p->dim_count != whole->dim_count)
            return broken(why, len, "%s: %s[%u].dim_count differs from %s's", op, pieces_name, k, whole_name);
        for (uint32_t d = 0; d < whole->dim_count; d++)
            if (d != axis && p->sizes[d] != whole->sizes[d])
                return broken(why, len, "%s: %s[%u].sizes[%u] is %u but %s.sizes[%u] is %u", op, pieces_name, k,
                              d, p->sizes[d], whole_name, d, whole->sizes[d]);
        sum += p->sizes[axis];
    }
    if (sum != whole->sizes[axis])
        return broken(why, len, "%s: %s' sizes along axis %u add up to %llu, not %s.sizes[%u] = %u (SPEC 1.8)",
                      op, pieces_name, axis, (unsigned long long)sum, whole_name, axis, whole->sizes[axis]);
    return true;
}

/* The rules every two-tensor operator shares: both well formed, one data type. */
static bool in_out_ok(const char *op, const tmv_tensor_desc *in, const tmv_tensor_desc *out, char *why, size_t len)
{
    if (!tensor_ok(in, op, "input", MAIN, false, why, len) || !tensor_ok(out, op, "output", MAIN, true, why, len))
        return false;
    if (out->dtype != in->dtype)
        return broken(why, len, "%s: output.dtype differs from input.dtype", op);
    return true;
}

/* SPEC 4. */
static bool check_tile(const tmv_tile_desc *t, char *why, size_t len)
{
    if (!in_out_ok("tile", t->input, t->output, why, len))
        return false;
    const uint32_t n = t->input->dim_count;
    if (t->output->dim_count != n)
        return broken(why, len, "tile: output.dim_count differs from input.dim_count");
    if (t->repeats_count != n)
        return broken(why, len, "tile: repeats_count %u != input.dim_count %u", t->repeats_count, n);
    if (t->repeats == NULL)
        return broken(why, len, "tile: repeats is NULL");
    for (uint32_t d = 0; d < n; d++)
        if ((uint64_t)t->input->sizes[d] * t->repeats[d] != t->output->sizes[d])
            return broken(why, len, "tile: output.sizes[%u] is %u, not input.sizes[%u] * repeats[%u] = %u * %u", d,
                          t->output->sizes[d], d, d, t->input->sizes[d], t->repeats[d]);
    return true;
}

/* SPEC 5: `space` is the {N,C,H,W} tensor with the larger H and W. */
static bool check_depth_space(const char *op, const tmv_tensor_desc *in, const tmv_tensor_desc *out,
                              uint32_t block, uint32_t order, bool to_depth, char *why, size_t len)
{
    if (!in_out_ok(op, in, out, why, len))
        return false;
    if (in->dim_count != 4 || out->dim_count != 4)
        return broken(why, len, "%s: input and output must be 4-D (SPEC 5.1)", op);
    if (block == 0)
        return broken(why, len, "%s: block_size is 0", op);
    if (order > 1)
        return broken(why, len, "%s: order %u is neither 0 nor 1", op, order);
    const uint64_t bb = (uint64_t)block * block;
    u128 want[4];
    if (to_depth) {
        if (in->sizes[2] % block != 0 || in->sizes[3] % block != 0)
            return broken(why, len, "%s: input H or W not divisible by block_size %u", op, block);
        want[0] = in->sizes[0];
        want[1] = (u128)in->sizes[1] * bb;
        want[2] = in->sizes[2] / block;
        want[3] = in->sizes[3] / block;
    } else {
        if (in->sizes[1] % bb != 0)
            return broken(why, len, "%s: input channels %u not divisible by block_size^2", op, in->sizes[1]);
        want[0] = in->sizes[0];
        want[1] = in->sizes[1] / bb;
        want[2] = (u128)in->sizes[2] * block;
        want[3] = (u128)in->sizes[3] * block;
    }
    for (uint32_t d = 0; d < 4; d++)
        if (out->sizes[d] != want[d])
            return broken(why, len, "%s: output.sizes[%u] is %u, not %llu (SPEC 5.2, 5.3, 1.8)", op, d,
                          out->sizes[d], (unsigned long long)want[d]);
    return true;
}

/* SPEC 6.1 to 6.3 and 6.6. */
static bool check_gather(const tmv_gather_nd_desc *g, char *why, size_t len)
{
    const char *op = "gather_nd";
    if (!tensor_ok(g->input, op, "input", MAIN, false, why, len) ||
        !tensor_ok(g->indices, op, "indices", MAIN, false, why, len) ||
        !tensor_ok(g->output, op, "output", MAIN, true, why, len))
        return false;
    const tmv_tensor_desc *in = g->input, *idx = g->indices, *out = g->output;
    const uint32_t it = idx->dtype;
    if (it != TMV_DTYPE_INT32 && it != TMV_DTYPE_INT64 && it != TMV_DTYPE_UINT32 && it != TMV_DTYPE_UINT64)
        return broken(why, len, "%s: indices.dtype %u is not an index type (SPEC 6.2)", op, it);
    if (out->dtype != in->dtype)
        return broken(why, len, "%s: output.dtype differs from input.dtype", op);
    const uint32_t n = in->dim_count, r = g->input_dim_count, q = g->indices_dim_count, b = g->batch_dim_count;
    if (idx->dim_count != n || out->dim_count != n)
        return broken(why, len, "%s: indices or output dim_count differs from input's %u", op, n);
    if (r < 1 || r > n || q < 1 || q > n)
        return broken(why, len, "%s: input_dim_count %u or indices_dim_count %u outside 1..%u", op, r, q, n);
    for (uint32_t d = 0; d < n - r; d++)
        if (in->sizes[d] != 1)
            return broken(why, len, "%s: placeholder input.sizes[%u] is %u, not 1", op, d, in->sizes[d]);
    for (uint32_t d = 0; d < n - q; d++)
        if (idx->sizes[d] != 1)
            return broken(why, len, "%s: placeholder indices.sizes[%u] is %u, not 1", op, d, idx->sizes[d]);
    const uint32_t k = idx->sizes[n - 1];
    if (k == 0)
        return broken(why, len, "%s: tuple length indices.sizes[%u] is 0", op, n - 1);
    if (b >= (r < q ? r : q))
        return broken(why, len, "%s: batch_dim_count %u >= min(r %u, q %u)", op, b, r, q);
    if ((uint64_t)b + k > r)
        return broken(why, len, "%s: batch_dim_count %u + tuple length %u > input_dim_count %u", op, b, k, r);
    for (uint32_t j = 0; j < b; j++)
        if (in->sizes[n - r + j] != idx->sizes[n - q + j])
            return broken(why, len, "%s: batch dimension %u: input has %u, indices %u", op, j, in->sizes[n - r + j],
                          idx->sizes[n - q + j]);
    const uint32_t trail = r - b - k, m = (q - 1) + trail;
    if (m > n)
        return broken(why, len, "%s: the output needs %u dimensions, dim_count is %u", op, m, n);
    for (uint32_t d = 0; d < n; d++) {
        /* O = Q[0 .. q-2] then I[b+k .. r-1], right-aligned behind 1s. */
        uint32_t want = 1;
        if (d >= n - m) {
            const uint32_t o = d - (n - m);
            want = o < q - 1 ? idx->sizes[n - q + o] : in->sizes[n - r + b + k + (o - (q - 1))];
        }
        if (out->sizes[d] != want)
            return broken(why, len, "%s: output.sizes[%u] is %u, not %u (SPEC 6.3)", op, d, out->sizes[d], want);
    }
    return true;
}

bool fz_spec_accepts(const tmv_op_desc *desc, char *why, size_t len)
{
    /* SPEC 1.10, step 3. */
    if (desc == NULL)
        return broken(why, len, "tmv_op_create: desc is NULL (SPEC 1.10)");
    if (fz_spec_op_name((uint32_t)desc->type) == NULL)
        return broken(why, len, "tmv_op_create: type %u is no operator (SPEC 1.10)", (unsigned)desc->type);
    if (desc->flags & ~(uint32_t)TMV_OP_FLAG_CLAMP_INDICES)
        return broken(why, len, "%s: flags 0x%x has unknown bits (SPEC 1.10)", fz_spec_op_name(desc->type),
                      desc->flags);
    if (desc->desc == NULL)
        return broken(why, len, "%s: desc->desc is NULL (SPEC 1.10)", fz_spec_op_name(desc->type));
    switch (desc->type) {
    case TMV_OP_JOIN: {
        const tmv_join_desc *j = desc->desc;
        return check_pieces("join", "output", j->output, "input_count", j->input_count, "inputs", j->inputs,
                            j->axis, false, why, len);
    }
    case TMV_OP_SPLIT: {
        const tmv_split_desc *s = desc->desc;
        return check_pieces("split", "input", s->input, "output_count", s->output_count, "outputs", s->outputs,
                            s->axis, true, why, len);
    }
    case TMV_OP_TILE:
        return check_tile(desc->desc, why, len);
    case TMV_OP_SPACE_TO_DEPTH: {
        const tmv_space_to_depth_desc *s = desc->desc;
        return check_depth_space("space_to_depth", s->input, s->output, s->block_size, (uint32_t)s->order, true,
                                 why, len);
    }
    case TMV_OP_DEPTH_TO_SPACE: {
        const tmv_depth_to_space_desc *s = desc->desc;
        return check_depth_space("depth_to_space", s->input, s->output, s->block_size, (uint32_t)s->order, false,
                                 why, len);
    }
    case TMV_OP_GATHER_ND:
        return check_gather(desc->desc, why, len);
    }
    return false; /* unreachable: the type was checked above */
}
