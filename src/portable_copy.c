/* portable_copy.c - plain-C strided N-D copies, specialized by element width. */
#include <string.h>

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

/* The doubling stops at this many bytes; the rest of the row is copies of
 * that chunk, which stays in L1 while they are written. Doubling on to half
 * the row read it back from L2 or beyond: a 1 KiB NHWC bias broadcast to
 * 3 MiB ran 0.73 x memcpy of each element (tmv-bench --tmv_zoo). */
#define FILL_CHUNK_BYTES 16384

/* TILE's repeats of an element that is no power-of-two width (a 3-byte RGB
 * pixel, a 12-byte float3, a row of channels): the first copy, then the row
 * doubles itself up to FILL_CHUNK_BYTES, so a row of n copies takes about
 * log2(n) memcpy calls, plus one per chunk, instead of n (tile inner/3x64/u8
 * at L2: 0.03 x memcpy with a call per copy). */
void tmv_copy_fill_doubling_scalar(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const uint32_t inner = s->rank - 1;
    const uint64_t len = s->sizes[inner] * s->elem_bytes;
    tmv_walk walk;
    tmv_walk_init(&walk, s, inner);
    do {
        uint8_t *row = dst + walk.dst;
        memcpy(row, src + walk.src, s->elem_bytes);
        uint64_t done = s->elem_bytes;
        /* one test a doubling; the chunk's bound is met at most once a row
         * (5% faster than testing both in the loop's condition: TILE inner
         * 16x8 f32, rows of 512 bytes, 8.9 -> 8.4 us a call) */
        for (; done < len; done *= 2) {
            if (done > FILL_CHUNK_BYTES / 2)
                break;
            memcpy(row + done, row, done < len - done ? done : len - done);
        }
        for (const uint64_t chunk = done; done < len; done += chunk)
            memcpy(row + done, row, chunk < len - done ? chunk : len - done);
    } while (tmv_walk_next(&walk));
}

/* Contiguous repeats of one element (source stride 0) whose width the
 * fixed-width kernels do not take, at least four to a row. */
bool tmv_copy_fill_doubling_scalar_accepts(const tmv_copy_shape *s)
{
    const uint64_t w = s->elem_bytes;
    if (s->rank == 0 || (w <= 16 && (w & (w - 1)) == 0))
        return false;
    const uint32_t inner = s->rank - 1;
    return s->src_strides[inner] == 0 && s->dst_strides[inner] == w && s->sizes[inner] >= 4;
}
