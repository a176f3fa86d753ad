/* copy_x86.h - the B-way row (de)interleave behind SPACE_TO_DEPTH / DEPTH_TO_SPACE, written once for SSE2, AVX2 and AVX-512: which shapes a set takes, and its exported kernels.
 *
 * The including file defines exactly one of TMV_VEC_SSE2, TMV_VEC_AVX2,
 * TMV_VEC_AVX512 or TMV_VEC_AVX512VBMI (the set it is compiled for) and
 * then wraps the entry points at the bottom in its exported kernel. The code
 * is in layers, each its own header:
 *   vec_x86.h               the set's vector and its width-generic operations
 *   interleave_net_x86.h    the permute networks: B vectors (de)interleaved
 *   interleave_shape_x86.h  which shapes are block shapes
 *   interleave_group_x86.h  one group of B vectors: loads, network, stores; AVX2's half groups
 *   interleave_rows_x86.h   row loops, packed and gathered rows (AVX-512), shape walks
 *   interleave_seq_x86.h    the stream cursors (AVX-512)
 *   interleave_stream_x86.h the stream kernels (AVX-512)
 *   interleave_planes_x86.h the (de)interleave of planes of short rows (AVX-512)
 *   interleave_chunk_x86.h  the chunk streams (AVX2)
 * What differs between sets is how a lane-local shuffle is made
 * whole-vector (nothing, lane-split loads or vpermq, or a two-source
 * permute) and how a row's tail is done (masked on AVX-512, else one
 * overlapping vector). AVX-512 also walks shapes whose output runs on
 * across rows as streams of whole vectors, non-temporal from the tuning
 * record's stream_threshold on.
 *
 * Static inline only, but for three static out-of-line functions
 * (seq_load_pieces, stream_run_interleave, stream_run_deinterleave; internal
 * linkage keeps each set's copy its own). */
#ifndef TMV_COPY_X86_H
#define TMV_COPY_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernels.h"

/* In layer order. gcc's inlining under its growth limits can follow the
 * order of definition (it did in gather_avx512.c): a reordering is checked
 * against the kernels' disassembly. */
#include "vec_x86.h"
#include "interleave_net_x86.h"
#include "interleave_shape_x86.h"
#include "interleave_group_x86.h"
#include "interleave_rows_x86.h"
#include "interleave_seq_x86.h"
#include "interleave_stream_x86.h"
#include "interleave_planes_x86.h"
#include "interleave_chunk_x86.h"

/* Whether this set takes block size b, width w and rows of x elements.
 * Without masked tails a row must hold one whole vector. Zen 4 runs 512-bit
 * loads and stores as two 256-bit halves, so AVX-512 gains only where its
 * one-instruction two-source permutes replace AVX2's shuffle pairs by
 * enough to pay for the masked row tail: rows of at least four vectors, any
 * row for B = 3 (AVX2's network takes only elements of 4 and 8 bytes, and
 * whole vectors a row), and with vpermt2b any byte row for B >= 3 of the
 * de-interleave (measured: bench space_to_depth/depth_to_space, L2 and DRAM). */
static inline bool block_supported(bool inter, unsigned b, uint64_t w, uint64_t x)
{
    const uint64_t n = TMV_VB / w;
#if defined(TMV_MASKED)
    /* Rows shorter than 16 bytes no unmasked set takes; at B = 2 the
     * masked row tail serves them better than transpose_small (nchw u8 and
     * u16 grids of rows of 3-15 bytes: 1.3-1.5x, the worst case 0.86;
     * at B = 8 its b masked stores a row lost to the spans, 0.36-0.8). */
    const bool tiny = x * w < 16 && b == 2;
#endif
#if defined(TMV_VEC_AVX512VBMI)
    if (!tiny && (inter ? b != 3 : b == 2 && x < 4 * n))
        return false;   /* the interleave gained nothing over AVX2's unpacks but for B = 3 */
#elif defined(TMV_VEC_AVX512)
    if (!tiny && b != 3 && x < 4 * n)
        return false;
#else
    if (x < n)
        return false;
#endif
    (void)inter;
#if defined(TMV_NET3)
    if (b == 3)
        return v_net3((size_t)w);
#endif
    return b == 2 || b == 4 || b == 8;
}

/* One row loop per block size for a constant width w: rows_shape is always
 * inlined. Left to GCC, one clone served every width and tested it on each
 * 16-byte step (DEPTH_TO_SPACE nchw B2 C64 f32 at L2, SSE2: 24.1-24.8 us;
 * one loop per width: 14.2 us). */
static inline void block_width(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                               bool inter, unsigned b, size_t w)
{
    switch (b) {
    case 2: rows_shape(s, src, dst, inter, 2, w); break;
#if defined(TMV_NET3)
    case 3:
        if (v_net3(w))
            rows_shape(s, src, dst, inter, 3, w);
        break;
#endif
    case 4: rows_shape(s, src, dst, inter, 4, w); break;
    default: rows_shape(s, src, dst, inter, 8, w); break;
    }
}

/* Whether block_run streams shape s, its destination taken as line-aligned
 * (the cost model's question, kernels.h): by the stream engine (AVX-512),
 * or an interleave's rows (rows_stream_ok); the packed and gathered blocks
 * and a de-interleave's rows store plain. */
static inline bool block_streams(const tmv_copy_shape *s, bool inter)
{
    const unsigned b = inter ? tmv_interleave_block(s) : tmv_deinterleave_block(s);
#if defined(TMV_MASKED)
    if (stream_ok(s, inter, b))
        return true;
    if (block_pack_dim(s, b, s->elem_bytes, inter) >= 0 || block_gather_dim(s, b, s->elem_bytes, inter) >= 0)
        return false;
#endif
#if defined(TMV_VEC_AVX2) || defined(TMV_MASKED)
    return inter && rows_stream_ok(s, NULL, b, (size_t)s->elem_bytes, interleave_x(s));
#else
    (void)b;
    return false;
#endif
}

/* Runs an accepted block shape; `widths` (a constant: bit w set for each
 * element width this set has kernels for) keeps the others from being built. */
static inline void block_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                             bool inter, unsigned widths)
{
    const unsigned b = inter ? tmv_interleave_block(s) : tmv_deinterleave_block(s);
#if defined(TMV_MASKED)
    if (stream_ok(s, inter, b)) {
        if (inter)
            stream_run_interleave(s, src, dst, widths, b);
        else
            stream_run_deinterleave(s, src, dst, widths, b);
        return;
    }
    const int pd = block_pack_dim(s, b, s->elem_bytes, inter);
    if (pd >= 0) {
        packed_run(s, src, dst, inter, widths, b, (uint32_t)pd);
        return;
    }
    const int gd = block_gather_dim(s, b, s->elem_bytes, inter);
    if (gd >= 0) {
        gathered_run(s, src, dst, inter, widths, b, (uint32_t)gd);
        return;
    }
#endif
#if defined(TMV_VEC_AVX2)
    if (!inter && chunk_ok(s, b)) {
        chunk_run(s, src, dst);
        return;
    }
#endif
    switch (s->elem_bytes) {
    case 1: if (widths & 2u) block_width(s, src, dst, inter, b, 1); break;
    case 2: if (widths & 4u) block_width(s, src, dst, inter, b, 2); break;
    case 4: if (widths & 16u) block_width(s, src, dst, inter, b, 4); break;
    default: if (widths & 256u) block_width(s, src, dst, inter, b, 8); break;
    }
}

/* Which of block_run's engines a kernel row stands for. The AVX-512 sets
 * have two whose costs differ in kind: whole vectors (the stream kernels,
 * packed rows) cost per byte, the row loop per row (a row of 12 bytes, NHWC
 * SPACE_TO_DEPTH's B3 C3 f32, takes about 1.3 ns). One cost profile over
 * both missed by 50-80% at the median, and priced the row loop at a fifth
 * of its time; as two registry rows each has a profile of its own. */
enum block_engines {
    BLOCK_ALL,       /* a set with the row loop only */
    BLOCK_VECTORS,   /* the shapes block_run gives the stream kernels or packed rows */
    BLOCK_ROWS,      /* the others: the row loop */
};

static inline bool block_accepts(const tmv_copy_shape *s, bool inter, unsigned widths, enum block_engines engines)
{
    const unsigned b = inter ? tmv_interleave_block(s) : tmv_deinterleave_block(s);
    if (b == 0 || !(widths >> s->elem_bytes & 1u))
        return false;
#if defined(TMV_VEC_AVX2)
    /* A broadcast (TILE's repeat of the last axis, plane stride 0) runs
     * the network on b copies of one vector, log2(b) rounds of shuffles
     * (b = 3: three permutes) an output, where copy_permute shuffles it
     * once: TILE inner 1x3 f64 at 8 KiB took 420 ns here, 282 there;
     * 1x8 of u16, f32 and f64 345-348 ns against 180-187 at 8 KiB and
     * 44 us against 26 at 1 MiB (tmv-plan-regret). At b = 2 the two tie. */
    if (inter && b > 2 && s->src_strides[s->rank - 1] == 0)
        return false;
#endif
#if defined(TMV_MASKED)
    const bool vectors = stream_ok(s, inter, b) || block_pack_dim(s, b, s->elem_bytes, inter) >= 0 ||
                         block_gather_dim(s, b, s->elem_bytes, inter) >= 0;
    if (engines != BLOCK_ALL && vectors != (engines == BLOCK_VECTORS))
        return false;
    if (vectors)
        return true;
#else
    (void)engines;
#endif
    return block_supported(inter, b, s->elem_bytes, inter ? interleave_x(s) : deinterleave_x(s));
}

#if defined(TMV_MASKED)
/* The row loop's own work, for the cost model (TMV_KERNEL_PRICED): its
 * rows (cost.h's blocks already: one call of the row function for each
 * position outside the block), the rows that end in a tail (lines), and
 * the vectors its whole groups of b move (pieces), both counted once per
 * round of the permute network. Priced per element and
 * byte on the checker's short rows, where tails are most of the work, the
 * rows of a long row were rated 3-4x over their time: TILE inner 1x2 u8
 * at 8 KiB (one row of 64 groups), 195 ns rated, 47 run. */
static inline void block_rows_features(const tmv_copy_shape *s, bool inter, tmv_cost_features *f)
{
    const unsigned b = inter ? tmv_interleave_block(s) : tmv_deinterleave_block(s);
    if (b == 0)
        return;   /* not a block shape, so not accepted; the test tells gcc that rank >= 2 below */
    const uint64_t x = inter ? interleave_x(s) : deinterleave_x(s), n = TMV_VB / s->elem_bytes;
    /* the network's rounds per group: one two-source step for B = 2, two
     * for 3 and 4, three for 8 (DEPTH_TO_SPACE nchw B3 C3 f32 at 8 KiB, rows
     * of tails alone, was rated as B = 2's: 318 ns, run 570) */
    const double rounds = b == 2 ? 1 : b == 8 ? 3 : 2;
#if defined(TMV_VEC_AVX512VBMI)
    const bool one_vector = b * (x % n) * s->elem_bytes <= TMV_VB;   /* a tail of one permute */
#else
    const bool one_vector = false;
#endif
    f->lines = x % n != 0 ? f->blocks * (one_vector ? 1 : rounds) : 0;
    f->pieces = f->blocks * (double)(x / n * b) * rounds;
}
#endif

/* One exported kernel `name`: its accepts takes the block shapes of
 * direction `inter` and the widths in `widths` that `engines` run; it
 * runs by the statement `run` (of s, src, dst). */
#define TMV_COPY_BLOCK_KERNEL(name, inter, widths, engines, run)                      \
    bool name##_accepts(const tmv_copy_shape *s)                                      \
    {                                                                                 \
        return block_accepts(s, inter, widths, engines);                              \
    }                                                                                 \
    void name(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)              \
    {                                                                                 \
        run;                                                                          \
    }

/* The exported kernels of a set for the widths in `widths` (bit w for w bytes):
 * tmv_copy_{de,}interleave_<set> and their accepts; on the AVX-512 sets
 * those take the whole-vector shapes, and tmv_copy_{de,}interleave_rows_<set>
 * (which run the set's kernel: block_run takes the row loop for them) the
 * row loop's, priced on its own work (block_rows_features); and
 * tmv_copy_{de,}interleave_planes_<set>, the (de)interleave of planes of
 * short rows through a stage (interleave_planes_x86.h), priced on its own
 * work (planes_features). */
#if defined(TMV_MASKED)
#define TMV_COPY_INTERLEAVE_KERNELS(set, widths)                                                  \
    TMV_COPY_BLOCK_KERNEL(tmv_copy_deinterleave_##set, false, widths, BLOCK_VECTORS,              \
                          block_run(s, src, dst, false, widths))                                  \
    TMV_COPY_BLOCK_KERNEL(tmv_copy_interleave_##set, true, widths, BLOCK_VECTORS,                 \
                          block_run(s, src, dst, true, widths))                                   \
    TMV_COPY_BLOCK_KERNEL(tmv_copy_deinterleave_rows_##set, false, widths, BLOCK_ROWS,            \
                          tmv_copy_deinterleave_##set(s, src, dst))                               \
    TMV_COPY_BLOCK_KERNEL(tmv_copy_interleave_rows_##set, true, widths, BLOCK_ROWS,               \
                          tmv_copy_interleave_##set(s, src, dst))                                 \
    bool tmv_copy_deinterleave_##set##_streams(const tmv_copy_shape *s)                           \
    {                                                                                             \
        return block_streams(s, false);                                                           \
    }                                                                                             \
    bool tmv_copy_interleave_##set##_streams(const tmv_copy_shape *s)                             \
    {                                                                                             \
        return block_streams(s, true);                                                            \
    }                                                                                             \
    bool tmv_copy_interleave_rows_##set##_streams(const tmv_copy_shape *s)                        \
    {                                                                                             \
        return block_streams(s, true);                                                            \
    }                                                                                             \
    void tmv_copy_deinterleave_rows_##set##_features(const tmv_copy_shape *s, tmv_cost_features *f) \
    {                                                                                             \
        block_rows_features(s, false, f);                                                         \
    }                                                                                             \
    void tmv_copy_interleave_rows_##set##_features(const tmv_copy_shape *s, tmv_cost_features *f) \
    {                                                                                             \
        block_rows_features(s, true, f);                                                          \
    }                                                                                             \
    bool tmv_copy_interleave_planes_##set##_accepts(const tmv_copy_shape *s)                      \
    {                                                                                             \
        return planes_accepts(s, true, widths);                                                   \
    }                                                                                             \
    void tmv_copy_interleave_planes_##set##_features(const tmv_copy_shape *s, tmv_cost_features *f) \
    {                                                                                             \
        planes_features(s, true, f);                                                              \
    }                                                                                             \
    void tmv_copy_interleave_planes_##set(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) \
    {                                                                                             \
        planes_run_interleave(s, src, dst, widths);                                               \
    }                                                                                             \
    bool tmv_copy_deinterleave_planes_##set##_accepts(const tmv_copy_shape *s)                    \
    {                                                                                             \
        return planes_accepts(s, false, widths);                                                  \
    }                                                                                             \
    void tmv_copy_deinterleave_planes_##set##_features(const tmv_copy_shape *s, tmv_cost_features *f) \
    {                                                                                             \
        planes_features(s, false, f);                                                             \
    }                                                                                             \
    void tmv_copy_deinterleave_planes_##set(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) \
    {                                                                                             \
        planes_run_deinterleave(s, src, dst, widths);                                             \
    }
#else
#define TMV_COPY_INTERLEAVE_KERNELS(set, widths)                                                  \
    TMV_COPY_BLOCK_KERNEL(tmv_copy_deinterleave_##set, false, widths, BLOCK_ALL,                  \
                          block_run(s, src, dst, false, widths))                                  \
    TMV_COPY_BLOCK_KERNEL(tmv_copy_interleave_##set, true, widths, BLOCK_ALL,                     \
                          block_run(s, src, dst, true, widths))
#endif

#endif
