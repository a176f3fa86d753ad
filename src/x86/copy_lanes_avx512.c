/* copy_lanes_avx512.c - B-way de-interleaves and interleaves (B = 2, 4, 8) of 16- and 32-byte elements, as transposes of 128-bit lanes: B vectors in, B vectors out, a lane shuffle or two each.
 *
 * NHWC DEPTH_TO_SPACE in DCR order writes each input pixel's B runs of
 * B x C elements to B output rows; where a run is 16 or 32 bytes (B4 C1
 * f32, B2 C1 f64, B2 C4 f32, B4 C2 f32, B8 C1 f32) it is a B-way
 * de-interleave of 16- or 32-byte elements, and SPACE_TO_DEPTH the
 * interleave. The (de)interleave kernels take elements of up to 8 bytes;
 * these went to the runs kernels (a row-wise JOIN or SPLIT per outer
 * position, whose set-up is not paid below 2 KiB a position) or one run at
 * a time (copy_w16/scalar): DEPTH_TO_SPACE nhwc B4 C1 f32 at 8 KiB, 11
 * positions of 11 pixels, 135 ns, 0.32 x memcpy. Here a step moves, for
 * each of the B planes, one vector of E = 64 / w elements: the B vectors
 * of the E groups on one side are the B vectors of the planes on the other
 * after a transpose of their lanes (shuffle_i64x2), with no tables; the
 * last elements of a row (fewer than E) go through the same transpose
 * from and to masked vectors.
 *
 * Past the stream threshold, a row whose output vectors start on a line
 * is written with streaming stores, and the kernel comes first of the
 * copies (registry.inc) for the shapes whose rows all do: DEPTH_TO_SPACE
 * nhwc B8 C1 f32 (32-byte runs) at 64 MiB ran 0.52 x best copy by
 * copy_runs_blend_stream, 1.13 here; B4 C1 f32, by copy_w16, 0.51, 1.14
 * (tmv-bench --tmv_sweep=full). */
#define TMV_VEC_AVX512
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "../copy_kinds.h"
#include "../kernels.h"
#include "../walk.h"
#include "mask_page_x86.h"

#define LANES_LO 0x44   /* shuffle_i64x2: a's 256-bit low half, then b's */
#define LANES_HI 0xEE   /* a's high half, then b's */
#define LANES_EVEN 0x88 /* a's lanes 0 and 2, then b's */
#define LANES_ODD 0xDD  /* a's lanes 1 and 3, then b's */

/* The 4 x 4 transpose of the 128-bit lanes of v[0..3] (at stride `step`
 * in v): lane k of v[j] goes to lane j of v[k]. Its own inverse. */
__attribute__((always_inline)) static inline void transpose4(__m512i *v, unsigned step)
{
    const __m512i t0 = _mm512_shuffle_i64x2(v[0], v[step], LANES_LO);
    const __m512i t1 = _mm512_shuffle_i64x2(v[0], v[step], LANES_HI);
    const __m512i t2 = _mm512_shuffle_i64x2(v[2 * step], v[3 * step], LANES_LO);
    const __m512i t3 = _mm512_shuffle_i64x2(v[2 * step], v[3 * step], LANES_HI);
    v[0] = _mm512_shuffle_i64x2(t0, t2, LANES_EVEN);
    v[step] = _mm512_shuffle_i64x2(t0, t2, LANES_ODD);
    v[2 * step] = _mm512_shuffle_i64x2(t1, t3, LANES_EVEN);
    v[3 * step] = _mm512_shuffle_i64x2(t1, t3, LANES_ODD);
}

/* The B vectors of E groups (g: B elements of w bytes each, one after the
 * other) into the B planes' vectors (p[k]: element k of each group), or
 * the other way round (`inter`). w and b are constants. */
__attribute__((always_inline)) static inline void lanes_transpose(const __m512i *in, __m512i *out, unsigned w,
                                                                  unsigned b, bool inter)
{
    if (w == 32) {
        /* a pair's halves: groups m and m + b/2 (de-interleave) hold the
         * halves of planes 2m and 2m + 1, and the other way round */
        for (unsigned m = 0; m < b / 2; m++) {
            const __m512i x = in[inter ? 2 * m : m], y = in[inter ? 2 * m + 1 : m + b / 2];
            out[inter ? m : 2 * m] = _mm512_shuffle_i64x2(x, y, LANES_LO);
            out[inter ? m + b / 2 : 2 * m + 1] = _mm512_shuffle_i64x2(x, y, LANES_HI);
        }
    } else if (b == 2) {
        /* groups [a0 b0 a1 b1] [a2 b2 a3 b3] <-> planes [a0 a1 a2 a3] [b0 b1 b2 b3] */
        if (inter) {
            const __m512i t0 = _mm512_shuffle_i64x2(in[0], in[1], LANES_LO);
            const __m512i t1 = _mm512_shuffle_i64x2(in[0], in[1], LANES_HI);
            out[0] = _mm512_shuffle_i64x2(t0, t0, _MM_SHUFFLE(3, 1, 2, 0));
            out[1] = _mm512_shuffle_i64x2(t1, t1, _MM_SHUFFLE(3, 1, 2, 0));
        } else {
            out[0] = _mm512_shuffle_i64x2(in[0], in[1], LANES_EVEN);
            out[1] = _mm512_shuffle_i64x2(in[0], in[1], LANES_ODD);
        }
    } else {
        /* b = 4: one transpose; b = 8: a group is two vectors, its
         * elements 0-3 and 4-7, each half transposed with the other
         * groups' same half */
        for (unsigned k = 0; k < b; k++)
            out[k] = in[k];
        if (b == 4) {
            transpose4(out, 1);
        } else if (inter) {
            __m512i lo[4] = {out[0], out[1], out[2], out[3]}, hi[4] = {out[4], out[5], out[6], out[7]};
            transpose4(lo, 1);
            transpose4(hi, 1);
            for (unsigned j = 0; j < 4; j++) {
                out[2 * j] = lo[j];
                out[2 * j + 1] = hi[j];
            }
        } else {
            transpose4(out, 2);
            transpose4(out + 1, 2);
            const __m512i g[8] = {out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]};
            for (unsigned j = 0; j < 4; j++) {
                out[j] = g[2 * j];
                out[4 + j] = g[2 * j + 1];
            }
        }
    }
}

/* The geometry of one row: the group side (b * x elements of w bytes,
 * contiguous) and the b planes (x elements each, `plane` bytes apart). */
typedef struct lanes_row {
    const uint8_t *from;
    uint8_t       *to;
    uint64_t       x, plane;
} lanes_row;

/* One row: steps of E = 64 / w elements a plane, then the rest through
 * masked vectors. De-interleave: groups (from) -> planes (to); interleave:
 * planes (from) -> groups (to). `nt`: streaming stores (every output
 * vector of a step starts on a line). */
__attribute__((always_inline)) static inline void lanes_row_run(const lanes_row *r, unsigned w, unsigned b, bool inter,
                                                                bool nt)
{
    const uint64_t e = 64 / w, steps = r->x / e, rest = r->x % e;
    __m512i in[8], out[8];
    for (uint64_t i = 0; i < steps; i++) {
        for (unsigned k = 0; k < b; k++)
            in[k] = _mm512_loadu_si512(inter ? r->from + k * r->plane + 64 * i : r->from + 64 * (b * i + k));
        lanes_transpose(in, out, w, b, inter);
        for (unsigned k = 0; k < b; k++) {
            uint8_t *at = inter ? r->to + 64 * (b * i + k) : r->to + k * r->plane + 64 * i;
            if (nt)
                _mm512_stream_si512((void *)at, out[k]);
            else
                _mm512_storeu_si512(at, out[k]);
        }
    }
    if (rest == 0)
        return;
    /* the group side's last vectors (past `groups` of them) hold none of
     * the row's bytes and are neither loaded nor stored */
    const uint64_t plane_bytes = rest * w, group_bytes = b * rest * w, groups = (group_bytes + 63) / 64;
    for (unsigned k = 0; k < b; k++)
        if (inter)
            in[k] = tmv_load_first(r->from + k * r->plane + 64 * steps, (int64_t)plane_bytes);
        else
            in[k] = k < groups ? tmv_load_first(r->from + 64 * (b * steps + k), (int64_t)(group_bytes - 64 * k))
                               : _mm512_setzero_si512();
    lanes_transpose(in, out, w, b, inter);
    for (unsigned k = 0; k < b; k++)
        if (!inter)
            tmv_store_first(r->to + k * r->plane + 64 * steps, (int64_t)plane_bytes, out[k]);
        else if (k < groups)
            tmv_store_first(r->to + 64 * (b * steps + k), (int64_t)(group_bytes - 64 * k), out[k]);
}

/* Every row of the shape, w and b constants. */
__attribute__((always_inline)) static inline void lanes_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                                            unsigned w, unsigned b, bool inter)
{
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    const uint64_t x = s->sizes[inter ? blk : in];
    const uint64_t plane = inter ? s->src_strides[in] : s->dst_strides[blk];
    const bool stream = tmv_shape_bytes(s) >= s->tuning->stream_threshold && (inter || plane % 64 == 0);
    bool streamed = false;
    tmv_walk walk;
    tmv_walk_init(&walk, s, blk);
    do {
        const lanes_row r = {src + walk.src, dst + walk.dst, x, plane};
        if (stream && (uintptr_t)r.to % 64 == 0) {
            lanes_row_run(&r, w, b, inter, true);
            streamed = true;
        } else {
            lanes_row_run(&r, w, b, inter, false);
        }
    } while (tmv_walk_next(&walk));
    if (streamed)
        _mm_sfence();
}

/* B of a shape this kernel takes: a B-way (de)interleave of 16- or 32-byte
 * elements, B = 2, 4 or 8; 0 otherwise. */
static unsigned lanes_block(const tmv_copy_shape *s, bool inter)
{
    if (s->elem_bytes != 16 && s->elem_bytes != 32)
        return 0;
    const unsigned b = inter ? tmv_interleave_block_any(s) : tmv_deinterleave_block_any(s);
    return b == 2 || b == 4 || b == 8 ? b : 0;
}

/* The shape's (w, b) as constants. */
static void lanes_dispatch(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, bool inter)
{
    const unsigned b = lanes_block(s, inter);
    const bool wide = s->elem_bytes == 32;
    if (b == 2)
        wide ? lanes_run(s, src, dst, 32, 2, inter) : lanes_run(s, src, dst, 16, 2, inter);
    else if (b == 4)
        wide ? lanes_run(s, src, dst, 32, 4, inter) : lanes_run(s, src, dst, 16, 4, inter);
    else
        wide ? lanes_run(s, src, dst, 32, 8, inter) : lanes_run(s, src, dst, 16, 8, inter);
}

/* Past the stream threshold, only shapes whose output rows (and a
 * de-interleave's planes) start on a line wherever the output does: the
 * kernel is first of the copies there, and a row it cannot stream is the
 * streaming copies' (copy_runs_stream, copy_runs_blend_stream). */
static bool lanes_streams(const tmv_copy_shape *s, bool inter)
{
    if (s->tuning == NULL || tmv_shape_bytes(s) < s->tuning->stream_threshold)
        return true;
    const uint32_t blk = s->rank - 2;
    if (!inter && s->dst_strides[blk] % 64 != 0)
        return false;
    for (uint32_t d = 0; d < blk; d++)
        if (s->sizes[d] > 1 && s->dst_strides[d] % 64 != 0)
            return false;
    return true;
}

bool tmv_copy_lanes_avx512_accepts(const tmv_copy_shape *s)
{
    return (lanes_block(s, false) != 0 && lanes_streams(s, false)) ||
           (lanes_block(s, true) != 0 && lanes_streams(s, true));
}

/* A shape that is both a de-interleave and an interleave (a 2 x 2
 * transpose of elements) moves correctly either way; each row decides
 * for itself whether it streams. */
void tmv_copy_lanes_avx512(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    lanes_dispatch(s, src, dst, lanes_block(s, false) == 0);
}
