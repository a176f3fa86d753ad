/* portable_copy.c - plain-C strided N-D copies, specialized by element width. */
#include <string.h>

#include "portable.h"
#include "walk.h"

/* The innermost dim: n elements of w bytes. w is a constant in every caller,
 * so memcpy becomes a plain load and store. */
static inline void copy_run(const uint8_t *src, uint8_t *dst, uint64_t n, uint64_t src_stride,
                            uint64_t dst_stride, size_t w)
{
    for (uint64_t i = 0; i < n; i++)
        memcpy(dst + i * dst_stride, src + i * src_stride, w);
}

/* Copies each innermost run at every position of the outer dims. */
static inline void copy_nd(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, size_t w)
{
    if (s->rank == 0) {
        memcpy(dst, src, w);
        return;
    }
    const uint32_t inner = s->rank - 1;
    tmv_walk walk;
    tmv_walk_init(&walk, s, inner);
    do
        copy_run(src + walk.src, dst + walk.dst, s->sizes[inner], s->src_strides[inner],
                 s->dst_strides[inner], w);
    while (tmv_walk_next(&walk));
}

void tmv_copy_w1_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { copy_nd(s, src, dst, 1); }
void tmv_copy_w2_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { copy_nd(s, src, dst, 2); }
void tmv_copy_w4_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { copy_nd(s, src, dst, 4); }
void tmv_copy_w8_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { copy_nd(s, src, dst, 8); }
void tmv_copy_w16_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { copy_nd(s, src, dst, 16); }

/* Any element width: memcpy per run, which for wide runs is the fastest copy libc has. */
void tmv_copy_any_portable(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    copy_nd(s, src, dst, (size_t)s->elem_bytes);
}

bool tmv_copy_accepts_w1(const tmv_copy_shape *s) { return s->elem_bytes == 1; }
bool tmv_copy_accepts_w2(const tmv_copy_shape *s) { return s->elem_bytes == 2; }
bool tmv_copy_accepts_w4(const tmv_copy_shape *s) { return s->elem_bytes == 4; }
bool tmv_copy_accepts_w8(const tmv_copy_shape *s) { return s->elem_bytes == 8; }
bool tmv_copy_accepts_w16(const tmv_copy_shape *s) { return s->elem_bytes == 16; }
