/* interleave_neon.c - NEON strided copies whose two inner dims are a B-way interleave (DEPTH_TO_SPACE) or de-interleave (SPACE_TO_DEPTH), B = 2, 3, 4, widths 1, 2, 4, 8, by table lookups. */
#include "interleave_neon.h"
#include "kernels.h"
#include "walk.h"

/* The block: an inner dim and the dim outside it (o), one of them B planes,
 * the other n elements. SPACE_TO_DEPTH de-interleaves: n elements inner,
 * src stride B*w, dst stride w; B planes outside, src stride w, any dst
 * stride. DEPTH_TO_SPACE (inter) interleaves: B planes inner, any src
 * stride, dst stride w; n elements outside, src stride w, dst stride B*w. */
static bool block_accepts(const tmv_copy_shape *s, bool inter)
{
    if (s->rank < 2)
        return false;
    const uint32_t i = s->rank - 1, o = s->rank - 2;
    const uint64_t w = s->elem_bytes, b = s->sizes[inter ? i : o];
    const uint64_t packed_stride = inter ? s->dst_strides[o] : s->src_strides[i];
    return tmv_neon_interleavable(w, b, s->sizes[inter ? o : i]) && s->dst_strides[i] == w &&
           packed_stride == b * w && s->src_strides[o] == w;
}

/* Each row: the B planes' pointers, then one interleave or de-interleave
 * (inter is a constant at both calls). */
__attribute__((always_inline)) static inline void block_run(const tmv_copy_shape *s, const uint8_t *src,
                                                            uint8_t *dst, bool inter)
{
    const uint32_t i = s->rank - 1, o = s->rank - 2;
    const uint64_t b = s->sizes[inter ? i : o], n = s->sizes[inter ? o : i];
    const uint64_t plane = inter ? s->src_strides[i] : s->dst_strides[o];
    const tmv_neon_shuffle shuffle = tmv_neon_shuffle_make(s->elem_bytes, b, !inter);
    tmv_walk walk;
    tmv_walk_init(&walk, s, o);
    do {
        /* the planes are read (inter) or written */
        uint8_t *const first = inter ? (uint8_t *)(uintptr_t)(src + walk.src) : dst + walk.dst;
        uint8_t *planes[4];
        for (uint64_t j = 0; j < b; j++)
            planes[j] = first + j * plane;
        if (inter)
            tmv_neon_interleave_row(&shuffle, (const uint8_t *const *)planes, dst + walk.dst, n);
        else
            tmv_neon_deinterleave_row(&shuffle, src + walk.src, planes, n);
    } while (tmv_walk_next(&walk));
}

bool tmv_copy_deinterleave_neon_accepts(const tmv_copy_shape *s)
{
    return block_accepts(s, false);
}

void tmv_copy_deinterleave_neon(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    block_run(s, src, dst, false);
}

bool tmv_copy_interleave_neon_accepts(const tmv_copy_shape *s)
{
    return block_accepts(s, true);
}

void tmv_copy_interleave_neon(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    block_run(s, src, dst, true);
}
