/* interleave_neon.c - NEON strided copies whose two inner dims are a B-way interleave (DEPTH_TO_SPACE) or de-interleave (SPACE_TO_DEPTH), B = 2, 3, 4, widths 1, 2, 4, 8, by table lookups. */
#include "interleave_neon.h"
#include "kernels.h"
#include "walk.h"

/* SPACE_TO_DEPTH's block: inner dim n elements, src stride B*w, dst stride w;
 * the dim outside it B planes, src stride w, any dst stride. */
bool tmv_copy_deinterleave_neon_accepts(const tmv_copy_shape *s)
{
    if (s->rank < 2)
        return false;
    const uint32_t i = s->rank - 1, o = s->rank - 2;
    const uint64_t w = s->elem_bytes, b = s->sizes[o];
    return tmv_neon_interleavable(w, b, s->sizes[i]) && s->dst_strides[i] == w &&
           s->src_strides[i] == b * w && s->src_strides[o] == w;
}

void tmv_copy_deinterleave_neon(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const uint32_t i = s->rank - 1, o = s->rank - 2;
    const uint64_t b = s->sizes[o], plane = s->dst_strides[o];
    const tmv_neon_shuffle shuffle = tmv_neon_shuffle_make(s->elem_bytes, b, true);
    tmv_walk walk;
    tmv_walk_init(&walk, s, o);
    do {
        uint8_t *planes[4];
        for (uint64_t j = 0; j < b; j++)
            planes[j] = dst + walk.dst + j * plane;
        tmv_neon_deinterleave_row(&shuffle, src + walk.src, planes, s->sizes[i]);
    } while (tmv_walk_next(&walk));
}

/* DEPTH_TO_SPACE's block: inner dim B planes, any src stride, dst stride w;
 * the dim outside it n elements, src stride w, dst stride B*w. */
bool tmv_copy_interleave_neon_accepts(const tmv_copy_shape *s)
{
    if (s->rank < 2)
        return false;
    const uint32_t i = s->rank - 1, o = s->rank - 2;
    const uint64_t w = s->elem_bytes, b = s->sizes[i];
    return tmv_neon_interleavable(w, b, s->sizes[o]) && s->dst_strides[i] == w &&
           s->dst_strides[o] == b * w && s->src_strides[o] == w;
}

void tmv_copy_interleave_neon(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const uint32_t i = s->rank - 1, o = s->rank - 2;
    const uint64_t b = s->sizes[i], plane = s->src_strides[i];
    const tmv_neon_shuffle shuffle = tmv_neon_shuffle_make(s->elem_bytes, b, false);
    tmv_walk walk;
    tmv_walk_init(&walk, s, o);
    do {
        const uint8_t *planes[4];
        for (uint64_t j = 0; j < b; j++)
            planes[j] = src + walk.src + j * plane;
        tmv_neon_interleave_row(&shuffle, planes, dst + walk.dst, s->sizes[o]);
    } while (tmv_walk_next(&walk));
}
