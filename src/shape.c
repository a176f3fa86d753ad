/* shape.c - normalization of copy shapes: drop size-1 dims, order, merge, fold inner runs. */
#include "shape.h"

static void remove_dim(tmv_copy_shape *s, uint32_t d)
{
    for (uint32_t i = d; i + 1 < s->rank; i++) {
        s->sizes[i] = s->sizes[i + 1];
        s->src_strides[i] = s->src_strides[i + 1];
        s->dst_strides[i] = s->dst_strides[i + 1];
    }
    s->rank--;
}

/* Stable insertion sort by descending destination stride. The destination is
 * injective, so distinct dims never tie there unless one is size 1 (gone). For
 * equal destination strides (impossible after that) order would not matter. */
static void order_by_destination(tmv_copy_shape *s)
{
    for (uint32_t i = 1; i < s->rank; i++) {
        uint64_t size = s->sizes[i], src = s->src_strides[i], dst = s->dst_strides[i];
        uint32_t j = i;
        while (j > 0 && s->dst_strides[j - 1] < dst) {
            s->sizes[j] = s->sizes[j - 1];
            s->src_strides[j] = s->src_strides[j - 1];
            s->dst_strides[j] = s->dst_strides[j - 1];
            j--;
        }
        s->sizes[j] = size;
        s->src_strides[j] = src;
        s->dst_strides[j] = dst;
    }
}

/* Dim d (outer) and d+1 (inner) walk memory as one dim in both buffers. */
static bool mergeable(const tmv_copy_shape *s, uint32_t d)
{
    uint64_t n = s->sizes[d + 1];
    return s->src_strides[d] == s->src_strides[d + 1] * n &&
           s->dst_strides[d] == s->dst_strides[d + 1] * n;
}

/* Moves dim d to position `to` (< d), shifting the dims between outward. */
static void move_dim_inward(tmv_copy_shape *s, uint32_t d, uint32_t to)
{
    uint64_t size = s->sizes[d], src = s->src_strides[d], dst = s->dst_strides[d];
    for (uint32_t i = d; i < to; i++) {
        s->sizes[i] = s->sizes[i + 1];
        s->src_strides[i] = s->src_strides[i + 1];
        s->dst_strides[i] = s->dst_strides[i + 1];
    }
    s->sizes[to] = size;
    s->src_strides[to] = src;
    s->dst_strides[to] = dst;
}

/* Pairs the innermost dim with the source's most contiguous dim (see shape.h). */
static void form_transpose_block(tmv_copy_shape *s)
{
    if (s->rank < 3)
        return;
    uint32_t inner = s->rank - 1, best = inner;
    for (uint32_t d = 0; d < inner; d++)
        if (s->src_strides[d] != 0 && s->src_strides[d] < s->src_strides[inner] &&
            (best == inner || s->src_strides[d] < s->src_strides[best]))
            best = d;
    if (best != inner && best != inner - 1)
        move_dim_inward(s, best, inner - 1);
}

bool tmv_shape_normalize(tmv_copy_shape *s)
{
    for (uint32_t d = 0; d < s->rank; d++)
        if (s->sizes[d] == 0)
            return false;
    for (uint32_t d = s->rank; d-- > 0;)
        if (s->sizes[d] == 1)
            remove_dim(s, d);
    order_by_destination(s);
    for (uint32_t d = s->rank - 1; s->rank > 1 && d-- > 0;) {
        if (mergeable(s, d)) {
            s->sizes[d] *= s->sizes[d + 1];
            s->src_strides[d] = s->src_strides[d + 1];
            s->dst_strides[d] = s->dst_strides[d + 1];
            remove_dim(s, d + 1);
        }
    }
    /* An innermost dim contiguous in both becomes part of the element. After
     * merging, only one such fold can apply. */
    uint32_t in = s->rank - 1;
    if (s->rank > 0 && s->src_strides[in] == s->elem_bytes && s->dst_strides[in] == s->elem_bytes) {
        s->elem_bytes *= s->sizes[in];
        s->rank--;
    }
    form_transpose_block(s);
    return true;
}

uint64_t tmv_shape_bytes(const tmv_copy_shape *s)
{
    uint64_t bytes = s->elem_bytes;
    for (uint32_t d = 0; d < s->rank; d++)
        bytes *= s->sizes[d];
    return bytes;
}

uint64_t tmv_shape_source_extent(const tmv_copy_shape *s)
{
    uint64_t extent = s->elem_bytes;
    for (uint32_t d = 0; d < s->rank; d++)
        extent += (uint64_t)(s->sizes[d] - 1) * s->src_strides[d];
    return extent;
}

bool tmv_shape_same_geometry(const tmv_copy_shape *a, const tmv_copy_shape *b)
{
    if (a->rank != b->rank || a->elem_bytes != b->elem_bytes)
        return false;
    for (uint32_t d = 0; d < a->rank; d++)
        if (a->sizes[d] != b->sizes[d] || a->src_strides[d] != b->src_strides[d] ||
            a->dst_strides[d] != b->dst_strides[d])
            return false;
    return true;
}

void tmv_shape_swap_dims(tmv_copy_shape *s, uint32_t d)
{
    const uint64_t size = s->sizes[d], src = s->src_strides[d], dst = s->dst_strides[d];
    s->sizes[d] = s->sizes[d - 1];
    s->src_strides[d] = s->src_strides[d - 1];
    s->dst_strides[d] = s->dst_strides[d - 1];
    s->sizes[d - 1] = size;
    s->src_strides[d - 1] = src;
    s->dst_strides[d - 1] = dst;
}

void tmv_shape_order_by_source(tmv_copy_shape *s, uint32_t end)
{
    for (uint32_t i = 1; i < end; i++)
        for (uint32_t j = i; j > 0 && s->src_strides[j - 1] < s->src_strides[j]; j--)
            tmv_shape_swap_dims(s, j);
}
