/* copy_permute_plan_avx2.h - copy_permute/avx2's plans: the block a shape's inner dims write and, per 32-byte vector of it, the 16-byte source windows of each lane and their byte shuffles, found at create (copy_permute_avx2.c runs them). */
#ifndef TMV_COPY_PERMUTE_PLAN_AVX2_H
#define TMV_COPY_PERMUTE_PLAN_AVX2_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "../kernels.h"
#include "../permute_block.h"

#define PERMUTE2_BLOCK_MAX 512   /* bytes of a block: 16 vectors */
#define PERMUTE2_BLOCK_MIN 32    /* one vector; a last vector in part is stored over the one before */
#define PERMUTE2_VECTORS_MAX (PERMUTE2_BLOCK_MAX / 32)
/* Window pairs a vector may take: each is two 16-byte loads, a byte
 * shuffle and an or for 32 bytes. Eight reach DEPTH_TO_SPACE of NHWC, CRD,
 * B4 C3 u8, whose output lanes read three to five windows of the input
 * pixels' 48 bytes (with four it had no plan: copy_w1, 8.5 us at 8 KiB);
 * twelve SPACE_TO_DEPTH of NHWC, CRD, B3 C16 and C64 u8, whose lanes take
 * a channel or two from each of the block's nine input pixels (copy_w1
 * with eight: 0.04-0.05 x memcpy at 1 MiB). */
#define PERMUTE2_ENTRIES_MAX 12
/* The tables hold this many pairs in all: 16 vectors of four, 5 of twelve. */
#define PERMUTE2_SLOTS 64
/* Elements of 16 bytes move whole by copy_w16's one load and store each,
 * faster than here: DEPTH_TO_SPACE NHWC DCR B4 C1 f32 (runs of four f32)
 * at 8 KiB, 278 ns there, 542 here. */
#define PERMUTE2_ELEM_MAX 8

typedef struct permute2_plan {
    /* per vector v and window pair e, at slot v * entries + e: per lane byte
     * its byte in the lane's window, or 0x80 where another pair supplies it
     * (the shuffle zeroes it) */
    __m256i  ctl[PERMUTE2_SLOTS];
    /* the pair's windows, from the block's source base: the low lane's in
     * the low 32 bits, the high lane's in the high (one load for both) */
    uint64_t win[PERMUTE2_SLOTS];
    uint32_t dst[PERMUTE2_VECTORS_MAX];   /* the vector's offset from the block's destination base */
    unsigned vectors, entries;            /* every vector takes `entries` pairs */
    /* made for the shape's dims in descending destination stride
     * (tmv_permute_dims_by_destination), which the kernel does again */
    bool     by_destination;
    /* what the tables were built for (when the periods do not divide the
     * cut dim, its last `periods` are one more block) */
    tmv_block_dims inner;
} permute2_plan;

_Static_assert(sizeof(permute2_plan) <= TMV_KERNEL_STATE_BYTES, "permute2 plans exceed the kernel state");

/* The plan of s into pl: the largest block (at most PERMUTE2_BLOCK_MAX
 * bytes, at least one vector; of periods that divide their dim if any do)
 * whose vectors each take at most PERMUTE2_ENTRIES_MAX window pairs,
 * PERMUTE2_SLOTS in all, in the shape's order, else by destination; false
 * if s has none. */
bool tmv_permute2_plan_make(const tmv_copy_shape *s, permute2_plan *pl);

#endif
