/* transpose_neon.c - NEON kernel for the 2-D transpose block of strided copies (permuted / column-major inputs): square 128-bit tiles by TRN1/TRN2, widths 1, 2, 4, 8. */
#include "kernels.h"
#include "neon_util.h"
#include "walk.h"

/* The shape (shape.h, as transpose_x86.h): inner dim n elements, destination
 * stride w, source stride S; dim rank-2 m elements, source stride w,
 * destination stride D. The source holds n rows of m contiguous elements
 * (pitch S), the destination m rows of n (pitch D), dst[i][j] = src[j][i].
 * A tile is L x L elements, L = 16/w: one vector per source row in, one per
 * destination row out (16x16 bytes, 8x8 halves, 4x4 words, 2x2 doublewords). */

/* Rows a and b after one TRN stage at e-byte elements: a keeps the even
 * elements of both, b the odd ones. */
static inline void trn_pair(uint8x16_t *a, uint8x16_t *b, unsigned e)
{
    const uint8x16_t x = *a, y = *b;
    switch (e) {
    case 1:
        *a = vtrn1q_u8(x, y);
        *b = vtrn2q_u8(x, y);
        break;
    case 2:
        *a = vreinterpretq_u8_u16(vtrn1q_u16(vreinterpretq_u16_u8(x), vreinterpretq_u16_u8(y)));
        *b = vreinterpretq_u8_u16(vtrn2q_u16(vreinterpretq_u16_u8(x), vreinterpretq_u16_u8(y)));
        break;
    case 4:
        *a = vreinterpretq_u8_u32(vtrn1q_u32(vreinterpretq_u32_u8(x), vreinterpretq_u32_u8(y)));
        *b = vreinterpretq_u8_u32(vtrn2q_u32(vreinterpretq_u32_u8(x), vreinterpretq_u32_u8(y)));
        break;
    default:
        *a = vreinterpretq_u8_u64(vtrn1q_u64(vreinterpretq_u64_u8(x), vreinterpretq_u64_u8(y)));
        *b = vreinterpretq_u8_u64(vtrn2q_u64(vreinterpretq_u64_u8(x), vreinterpretq_u64_u8(y)));
        break;
    }
}

/* One stage of the tile network: rows r and r + b (r without bit b, both
 * below l) paired at e = b*w bytes. The loop bound is the array's, so every
 * index is in range even where the compiler cannot fold l. */
static inline void tr_stage(uint8x16_t x[16], unsigned l, unsigned b, unsigned e)
{
    _Pragma("GCC unroll 16") for (unsigned r = 0; r + b < 16; r++) {
        if (r + b < l && !(r & b))
            trn_pair(&x[r], &x[r + b], e);
    }
}

/* One L x L tile: L source rows from src (pitch S) to L destination rows at
 * dst (pitch D). Stage k pairs rows r and r + 2^k at 2^k-element units, so
 * after log2(L) stages row r holds column r in order (no bit reversal, no
 * final permute): L instructions a stage, 4x4 words in 8. Byte loads and
 * stores only, as the tensors may be unaligned for the width. */
static inline void tr_tile(const uint8_t *src, uint64_t S, uint8_t *dst, uint64_t D, unsigned w)
{
    const unsigned l = 16 / w;
    uint8x16_t x[16];
    _Pragma("GCC unroll 16") for (unsigned r = 0; r < l; r++) x[r] = vld1q_u8(src + r * S);
    tr_stage(x, l, 1, w);
    if (l > 2)
        tr_stage(x, l, 2, 2 * w);
    if (l > 4)
        tr_stage(x, l, 4, 4 * w);
    if (l > 8)
        tr_stage(x, l, 8, 8 * w);
    _Pragma("GCC unroll 16") for (unsigned r = 0; r < l; r++) vst1q_u8(dst + r * D, x[r]);
}

/* One m x n transpose block (m, n >= L), in square panels of 64 elements a
 * side for bytes and halves, 128 bytes for words and doublewords (the x86
 * kernel's sizes, whole tiles each), so the rows read and the rows written
 * stay in L1 while a panel is done. A range that does not end on a whole
 * tile ends with a tile moved back to its end, overlapping the one before:
 * those elements are written twice with the same values, nothing outside
 * the shape's source rows or destination elements is touched, and there is
 * no scalar edge loop. Not inlined into the walk: there GCC 12 ran short of
 * general registers and spilled and reloaded the tiles' row addresses inside
 * the tile loop (aarch64); on its own that loop touches no stack. */
__attribute__((noinline)) static void tr_block(const uint8_t *src, uint64_t S, uint8_t *dst, uint64_t D,
                                               unsigned w, uint64_t m, uint64_t n)
{
    const uint64_t l = 16 / w, p = w <= 2 ? 64 : 128 / w;
    for (uint64_t i0 = 0; i0 < m; i0 += p) {
        const uint64_t i1 = i0 + p < m ? i0 + p : m;
        for (uint64_t j0 = 0; j0 < n; j0 += p) {
            const uint64_t j1 = j0 + p < n ? j0 + p : n;
            for (uint64_t j = j0; j < j1; j += l) {
                const uint64_t jt = j + l <= j1 ? j : j1 - l;   /* j1 >= L: m, n >= L */
                const uint8_t *s = src + jt * S;
                uint8_t *d = dst + jt * w;
                for (uint64_t i = i0; i < i1; i += l) {
                    const uint64_t it = i + l <= i1 ? i : i1 - l;
                    tr_tile(s + it * w, S, d + it * D, D, w);
                }
            }
        }
    }
}

static inline void tr_width(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, unsigned w)
{
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    const uint64_t S = s->src_strides[in], D = s->dst_strides[blk], n = s->sizes[in], m = s->sizes[blk];
    tmv_walk walk;
    tmv_walk_init(&walk, s, blk);
    do
        tr_block(src + walk.src, S, dst + walk.dst, D, w, m, n);
    while (tmv_walk_next(&walk));
}

/* Both block sides at least one tile (L = 16/w) and at least 4: smaller
 * blocks are a few scalar moves. (The transpose geometry, widths 1 to 8, is
 * the planner's test, copy_kinds.h.) */
bool tmv_copy_transpose_neon_accepts(const tmv_copy_shape *s)
{
    const uint64_t w = s->elem_bytes, n = s->sizes[s->rank - 1], m = s->sizes[s->rank - 2];
    const uint64_t min = 16 / w > 4 ? 16 / w : 4;
    return n >= min && m >= min;
}

/* Dispatches on the width so each instance has w, and so the tile's whole
 * network, constant. */
void tmv_copy_transpose_neon(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    switch (s->elem_bytes) {
    case 1: tr_width(s, src, dst, 1); break;
    case 2: tr_width(s, src, dst, 2); break;
    case 4: tr_width(s, src, dst, 4); break;
    default: tr_width(s, src, dst, 8); break;
    }
}
