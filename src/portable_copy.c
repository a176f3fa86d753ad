/* portable_copy.c - plain-C strided N-D copies, specialized by element width. */
#include <string.h>

#include "fill_doubling.h"
#include "kernels.h"
#include "move_run.h"
#include "walk.h"

/* How an element moves: memcpy of a constant width (one load and store) or
 * of any width (a call), or tmv_move_run (a width known at run time, moved
 * without a call). */
enum move { MOVE_MEMCPY, MOVE_RUN };

/* The innermost dim: n elements of w bytes. w and how are constants in
 * every caller. Both pointers step and the count runs down to zero: a loop
 * of five instructions (JOIN of two column-major f32 pieces at 16 KiB on the
 * scalar set, a test program: 1300-1580 ns a call with an index scaled by
 * each stride, 1660-1700 with the index and a separate pointer, 1160-1180
 * this way). */
static inline void copy_run(const uint8_t *src, uint8_t *dst, uint64_t n, uint64_t src_stride,
                            uint64_t dst_stride, size_t w, enum move how)
{
    for (uint64_t i = n; i != 0; i--, dst += dst_stride, src += src_stride) {
        if (how == MOVE_RUN)
            tmv_move_run(dst, src, w);
        else
            memcpy(dst, src, w);
    }
}

/* Runs of the two inner dims at one position of the outer ones. Out of
 * line, so its eight values and the loops' four fit the registers: inlined
 * into the odometer's loop, gcc kept one on the stack and reloaded it after
 * every run's byte stores, a load whose wait on those stores depended on
 * where the stack lay (SPACE_TO_DEPTH nchw B4 dcr C3 u8 at 512 KiB on the
 * scalar set: 170 or 202-210 us a call, by process; 156-157 us out of line
 * with copy_run's loop above). w and how are constants in every caller,
 * and the compiler's copy per caller keeps them constant. */
static __attribute__((noinline)) void copy_runs(const uint8_t *from, uint8_t *to, uint64_t runs, uint64_t run_src,
                                                uint64_t run_dst, const tmv_copy_shape *s, size_t w, enum move how)
{
    const uint32_t inner = s->rank - 1;
    const uint64_t n = s->sizes[inner], src_stride = s->src_strides[inner], dst_stride = s->dst_strides[inner];
    for (uint64_t j = runs; j-- > 0; from += run_src, to += run_dst)
        copy_run(from, to, n, src_stride, dst_stride, w, how);
}

/* Copies each innermost run at every position of the outer dims. The dim
 * outside the innermost is a plain loop and the odometer walks the rest:
 * stepping the odometer per run cost about 2 ns, most of a short run's time
 * (SPACE_TO_DEPTH's runs of B bytes; tmv-check-kernels --calibrate's line
 * price of copy_w1). */
static inline void copy_nd(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, size_t w, enum move how)
{
    if (s->rank == 0) {
        memcpy(dst, src, w);
        return;
    }
    const uint32_t inner = s->rank - 1;
    if (inner == 0) {
        copy_run(src, dst, s->sizes[0], s->src_strides[0], s->dst_strides[0], w, how);
        return;
    }
    const uint32_t mid = inner - 1;
    tmv_walk walk;
    tmv_walk_init(&walk, s, mid);
    do
        copy_runs(src + walk.src, dst + walk.dst, s->sizes[mid], s->src_strides[mid], s->dst_strides[mid], s, w, how);
    while (tmv_walk_next(&walk));
}

void tmv_copy_w1_scalar(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { copy_nd(s, src, dst, 1, MOVE_MEMCPY); }
void tmv_copy_w2_scalar(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { copy_nd(s, src, dst, 2, MOVE_MEMCPY); }
void tmv_copy_w4_scalar(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { copy_nd(s, src, dst, 4, MOVE_MEMCPY); }
void tmv_copy_w8_scalar(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { copy_nd(s, src, dst, 8, MOVE_MEMCPY); }
void tmv_copy_w16_scalar(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { copy_nd(s, src, dst, 16, MOVE_MEMCPY); }

/* Elements of any other width up to TMV_MOVE_RUN_MAX bytes (3, 6, 12, 48...:
 * the channel runs of NHWC tensors), moved without a call each. */
void tmv_copy_runs_scalar(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    copy_nd(s, src, dst, (size_t)s->elem_bytes, MOVE_RUN);
}

bool tmv_copy_runs_scalar_accepts(const tmv_copy_shape *s)
{
    return s->elem_bytes >= 2 && s->elem_bytes <= TMV_MOVE_RUN_MAX;
}

/* Any element width: memcpy per run, which for wide runs is the fastest copy libc has. */
void tmv_copy_memcpy_scalar(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    copy_nd(s, src, dst, (size_t)s->elem_bytes, MOVE_MEMCPY);
}

bool tmv_copy_memcpy_scalar_accepts(const tmv_copy_shape *s)
{
    (void)s;
    return true;
}

bool tmv_copy_w1_scalar_accepts(const tmv_copy_shape *s) { return s->elem_bytes == 1; }
bool tmv_copy_w2_scalar_accepts(const tmv_copy_shape *s) { return s->elem_bytes == 2; }
bool tmv_copy_w4_scalar_accepts(const tmv_copy_shape *s) { return s->elem_bytes == 4; }
bool tmv_copy_w8_scalar_accepts(const tmv_copy_shape *s) { return s->elem_bytes == 8; }
bool tmv_copy_w16_scalar_accepts(const tmv_copy_shape *s) { return s->elem_bytes == 16; }

static void copy_memcpy(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    memcpy(dst, src, (size_t)bytes);
}

/* TILE's repeats of an element of any width, a memcpy call per doubling
 * (fill_doubling.h). */
void tmv_copy_fill_doubling_scalar(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    tmv_fill_doubling(s, src, dst, copy_memcpy, copy_memcpy);
}

bool tmv_copy_fill_doubling_scalar_accepts(const tmv_copy_shape *s) { return tmv_fill_doubling_shape(s); }
