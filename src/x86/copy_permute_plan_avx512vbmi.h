/* copy_permute_plan_avx512vbmi.h - copy_permute's plans: the block a shape's inner dims write, its source windows and the permute tables of its vectors, found at create (copy_permute_avx512vbmi.c runs them). */
#ifndef TMV_COPY_PERMUTE_PLAN_AVX512VBMI_H
#define TMV_COPY_PERMUTE_PLAN_AVX512VBMI_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "../kernels.h"
#include "../permute_block.h"

#define BLOCK_MAX 512                    /* bytes of a block: 8 vectors */
/* Blocks of fewer bytes cost a block's loads for too few stores; with a
 * tail, whose blocks are sized to the windows (below), most of a vector
 * (DEPTH_TO_SPACE NHWC CRD C3 u8, B = 4: five pixel quads, 60 bytes). */
#define BLOCK_MIN 96
#define BLOCK_MIN_TAIL 48
/* Elements it takes: wider ones move as fast in runs. Up to 16 bytes,
 * TILE's rows of three f64 (a 24-byte element once the row is folded in)
 * went to fill_pattern, 204 ns at 8 KiB and 26.9 us at 1 MiB repeated
 * three times, where this takes 129 ns and 17.6 us; up to 32, 23 sweep
 * plans changed, 15 faster (to 1.59x), 4 slower (TILE inner 3x8 f64 at
 * 1 MiB 0.70x: fill_pattern is rated 2.2x its time there), geometric
 * mean 1.145 (tmv-plan-regret, two rounds). Bytes and 2-byte
 * elements were left to the (de)interleave kernels' lane shuffles
 * (DEPTH_TO_SPACE nchw B2 C3 u8 in L1: 535 ns by copy_interleave/avx2, 755
 * here) until SPACE_TO_DEPTH of NHWC, CRD, C3 u8 showed the other side: a
 * per-pixel transpose of 2 x 2 x 3 bytes, 4.5 us by
 * copy_deinterleave_rows/avx512vbmi at 8 KiB, 0.27 us here; the cost
 * model chooses between them. */
#define ELEM_MAX 32
#define VECTORS_MAX (BLOCK_MAX / 64)
#define WINDOWS_MAX 8                    /* per block: four vpermt2b pairs, held in registers */
#define WINDOWS_FEW 4                    /* what a block is first looked for with */
#define PAIRS_MAX (WINDOWS_MAX / 2)
#define HALF_BYTES 32                    /* a window of a halves plan: two 32-byte loads */

typedef struct permute_vector {
    __m512i  idx;                        /* per byte: its byte in its window pair (bit 6: the pair's second) */
    uint64_t pair[PAIRS_MAX - 1];        /* bytes taken from pairs 1, 2 and 3 */
    uint64_t store;                      /* bytes of the vector inside the block */
    uint64_t dst;                        /* its offset from the block's destination base */
} permute_vector;

typedef struct permute_plan {
    permute_vector vec[VECTORS_MAX];
    uint64_t       win_offset[WINDOWS_MAX];   /* from the block's source base, bytes; unused: 0 */
    uint64_t       win_mask[WINDOWS_MAX];     /* the window's bytes the block reads; unused: none */
    /* halves: each window is two runs of HALF_BYTES, its low half at
     * win_offset and its high half at win_high (win_mask's upper 32 bits) */
    uint64_t       win_high[WINDOWS_MAX];
    bool           halves;
    /* made for the shape's dims in descending destination stride
     * (tmv_permute_dims_by_destination), undoing the normal order's
     * transpose block, which the kernel does again before it runs */
    bool           by_destination;
    unsigned       vectors, windows;
    /* what the tables were built for: the inner `dims` dims of the shape and,
     * when periods > 1, that many periods of the dim outside them */
    tmv_block_dims inner;
    /* rows > 1: the block is that many rows of those bytes, one per index
     * of dim row_dim (outside them), which the walk leaves out */
    uint64_t       rows, row_size, row_src, row_dst;
    uint32_t       row_dim;
} permute_plan;

/* The kernel's state: the block's plan and, when its periods do not divide
 * the split dim, the plan of the tail block of the remaining `periods`
 * (tail.vectors == 0: none). */
typedef struct permute_state {
    permute_plan block, tail;
} permute_state;

_Static_assert(sizeof(permute_state) <= TMV_KERNEL_STATE_BYTES, "permute plans exceed the kernel state");

/* The plan of s into st: a block of at most four windows if there is one,
 * else of at most eight, or of rows of one outer dim where that loads fewer
 * windows per byte; failing all, a block of at most eight windows of two
 * 32-byte halves each; failing that, the same for s's dims by destination
 * (by_destination); false if s has none. */
bool tmv_permute_plan_make(const tmv_copy_shape *s, permute_state *st);

#endif
