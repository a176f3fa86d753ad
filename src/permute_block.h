/* permute_block.h - the dense blocks a copy shape's inner dims write and the source offset of each of their bytes: the part of the byte-permute kernels' plans that no ISA shapes (copy_permute's AVX2 and AVX-512 VBMI plans build their windows and tables on it). */
#ifndef TMV_PERMUTE_BLOCK_H
#define TMV_PERMUTE_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "shape.h"

/* The block the inner j dims of s write: its bytes, the size n of its
 * first dim (the shape's dim rank - j) and whether that dim is the one of
 * the largest destination stride, so the block can be cut into periods of
 * it. */
typedef struct tmv_dense_block {
    uint64_t bytes, n;
    bool     cuts;
} tmv_dense_block;

/* The inner j dims of s write a dense block: sorted by destination stride,
 * each dim's stride is the bytes of those inside it. */
bool tmv_dense_block_of(const tmv_copy_shape *s, uint32_t j, tmv_dense_block *b);

/* Of the k <= n with least <= k * t <= limit (only divisors of n unless
 * `tail`), the one whose k * t bytes fill their vectors (of `vector`
 * bytes) best (the larger on ties); 0 if there is none. */
uint64_t tmv_block_periods(uint64_t n, uint64_t t, uint64_t least, uint64_t limit, bool tail, uint64_t vector);

/* The block of s: the most inner dims that write densely, the outermost of
 * them (if it is the first of them in the shape) cut into `periods` of its
 * elements, a divisor, when they do not fit `limit` bytes whole (the
 * periods that fill vectors of `vector` bytes best); with `overlap`, periods
 * that do not divide it too (the kernel moves the rest as one more block,
 * the last `periods` periods, over bytes already written); false when no
 * block of `least` bytes exists. */
bool tmv_block_of(const tmv_copy_shape *s, uint64_t limit, uint64_t least, uint64_t vector, bool overlap,
                  uint32_t *dims, uint64_t *periods, uint64_t *bytes);

/* The source offset of each of the block's n bytes, from its source base:
 * the block's dims in the order they write (each one's destination stride
 * is the bytes of those before it), then `periods` of the dim outside them,
 * each a copy of the bytes so far, moved by its source stride. False if the
 * dims do not write n bytes densely. */
bool tmv_block_offsets(const tmv_copy_shape *s, uint32_t dims, uint64_t periods, uint64_t *off, uint64_t n);

/* The dims a block's tables were built for: the inner `dims` dims of a
 * shape and, when periods > 1, that many periods of the dim outside them
 * (the cut dim, whose size may differ). */
typedef struct tmv_block_dims {
    uint32_t dims;
    uint64_t elem_bytes, periods;
    uint64_t sizes[TMV_SHAPE_MAX_DIMS], src_strides[TMV_SHAPE_MAX_DIMS], dst_strides[TMV_SHAPE_MAX_DIMS];
} tmv_block_dims;

/* Records s's inner `dims` dims (and its cut dim when periods > 1) into k. */
void tmv_block_dims_keep(tmv_block_dims *k, const tmv_copy_shape *s, uint32_t dims, uint64_t periods);

/* s's inner dims are k's and its cut dim has k's strides; the cut dim's
 * size into *cut (0: k cuts none). False if s's dims differ. */
bool tmv_block_dims_match(const tmv_block_dims *k, const tmv_copy_shape *s, uint64_t *cut);

/* Orders s's dims by descending destination stride, stable (shape.h's
 * normal order without its transpose block); false if none moved. */
bool tmv_permute_dims_by_destination(tmv_copy_shape *s);

#endif
