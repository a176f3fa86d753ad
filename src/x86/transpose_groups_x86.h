/* transpose_groups_x86.h - transposes whose short side is a few groups of a dim outside the block (NHWC SPACE_TO_DEPTH / DEPTH_TO_SPACE in CRD order), in the transpose's tiles, written once for SSE2, AVX2 and AVX-512.
 *
 * SPACE_TO_DEPTH of NHWC in CRD order writes each output pixel's channels
 * c as B x B runs (by, bx): out[c][by][bx] = in[by][bx][c]. Its shape's
 * transpose block (transpose_x86.h) is B source rows (bx, C elements apart)
 * by C columns, and the B blocks of one pixel (by) are rows of the image
 * apart; DEPTH_TO_SPACE the same the other way round, its columns in groups.
 * B = 4 rows is under a tile's 16 / w (and the transpose kernels' 8), so
 * every element was a copy of its own: B4 C64 u8 at 1 MiB took 324 us,
 * 0.056 x the best copy. Here the B x B rows (columns) of one pixel are one
 * side of a tile: its row r starts at (r / B) * G + (r % B) * S, G the
 * group dim's stride, from a table of offsets made per call; tiles start
 * at whole groups where B divides the tile's side, 16 / w. Other groups
 * (B = 3) take a table of the whole side (at most TRG_TABLE_MAX) and tiles
 * starting anywhere in it. What no tile covers is copied element by
 * element.
 *
 * AVX-512 moves 4- and 8-byte elements in square tiles of 64/w rows by a
 * vector of columns where the block has that many (transpose_x86.h's
 * tr_square): each destination row a whole vector, streamed where the
 * output passes the stream threshold and its rows are whole lines. On
 * the lane tiles (four 16-byte stores per register, no streaming) NHWC
 * DEPTH_TO_SPACE CRD B8 C16 f32 at 64 MiB ran 9.1 ms, 5.0 in the squares
 * (best copy 2.7); SPACE_TO_DEPTH CRD B4 C64 f32 at 1 MiB 0.62 -> 0.95 x
 * best copy (tmv-bench --tmv_sweep=full, Zen 5, 2026-11-30).
 *
 * Static functions only. The including file defines exactly one of
 * TMV_VEC_SSE2, TMV_VEC_AVX2 or TMV_VEC_AVX512 and stamps out its kernel
 * with TMV_TRANSPOSE_GROUPS_KERNEL. */
#ifndef TMV_TRANSPOSE_GROUPS_X86_H
#define TMV_TRANSPOSE_GROUPS_X86_H

#include "transpose_x86.h"

/* The tiles with grouped rows (their offsets a table, the columns' a
 * pitch) and with grouped columns (the other way round). */
TR_TILE_FN(trg_rows_tile, tmv_v, MM, v_load, tr_lane, TMV_VB, const uint64_t *, TR_TABLE, uint64_t, TR_PITCH)
TR_TILE_FN(trg_cols_tile, tmv_v, MM, v_load, tr_lane, TMV_VB, uint64_t, TR_PITCH, const uint64_t *, TR_TABLE)
#if TMV_VB > 16
TR_TILE_FN(trg_rows_tile128, __m128i, TR_MM128, TR_LOAD128, tr_lane128, 16, const uint64_t *, TR_TABLE, uint64_t,
           TR_PITCH)
TR_TILE_FN(trg_cols_tile128, __m128i, TR_MM128, TR_LOAD128, tr_lane128, 16, uint64_t, TR_PITCH, const uint64_t *,
           TR_TABLE)
#endif

/* A lane tile: of a vector when wide, else of 16 bytes. */
__attribute__((always_inline)) static inline void trg_lane_width(const uint8_t *src, uint64_t S, const uint64_t *rows,
                                                                uint8_t *dst, uint64_t D, const uint64_t *cols,
                                                                unsigned w, bool wide)
{
#if TMV_VB > 16
    if (!wide) {
        if (rows != NULL)
            trg_rows_tile128(src, rows, dst, D, w, false);
        else
            trg_cols_tile128(src, S, dst, cols, w, false);
        return;
    }
#endif
    (void)wide;
    if (rows != NULL)
        trg_rows_tile(src, rows, dst, D, w, false);
    else
        trg_cols_tile(src, S, dst, cols, w, false);
}

/* The lane tiles of 1- and 2-byte elements (16 and 8 rows) out of line,
 * for the reason trg_square_apart gives: NHWC SPACE_TO_DEPTH CRD B8 C16
 * u8 at 256 KiB (AVX2) took 25.8 us with them inlined, 9.0 out of line;
 * B4 C16 u16 at 128 KiB 4.8 -> 3.2 us. The 4-row tiles of wider elements
 * stay inline, where the call costs as much as the tile: DEPTH_TO_SPACE
 * CRD B2 C64 f32 at 1 MiB went 38 -> 49 us out of line. */
__attribute__((noinline)) static void trg_lane_apart(const uint8_t *src, uint64_t S, const uint64_t *rows, uint8_t *dst,
                                                     uint64_t D, const uint64_t *cols, unsigned w, bool wide)
{
    if (w == 1)
        trg_lane_width(src, S, rows, dst, D, cols, 1, wide);
    else
        trg_lane_width(src, S, rows, dst, D, cols, 2, wide);
}

__attribute__((always_inline)) static inline void trg_lane(const uint8_t *src, uint64_t S, const uint64_t *rows,
                                                          uint8_t *dst, uint64_t D, const uint64_t *cols, unsigned w,
                                                          bool wide)
{
    if (w <= 2)
        trg_lane_apart(src, S, rows, dst, D, cols, w, wide);
    else
        trg_lane_width(src, S, rows, dst, D, cols, w, wide);
}

/* One side of the block: index i at (i / group) * group_pitch + (i % group)
 * * pitch; an ungrouped side is one group of all its count. */
typedef struct trg_side {
    uint64_t count, group, pitch, group_pitch;
} trg_side;

static inline uint64_t trg_at(const trg_side *d, uint64_t i)
{
    return i / d->group * d->group_pitch + i % d->group * d->pitch;
}

/* The offset of index i + k from index i, for i and k whole groups (or
 * any, on an ungrouped side): no division in the tiles' loops. */
static inline uint64_t trg_step(const trg_side *d, uint64_t k)
{
    return d->group < d->count ? k / d->group * d->group_pitch : k * d->pitch;
}

/* off[i] = trg_at(d, i) for i < k, without dividing. */
static inline void trg_offsets(const trg_side *d, uint64_t k, uint64_t *off)
{
    uint64_t base = 0, r = 0;
    for (uint64_t i = 0; i < k; i++) {
        off[i] = base + r * d->pitch;
        if (++r == d->group) {
            r = 0;
            base += d->group_pitch;
        }
    }
}

/* The block: source rows (the shape's inner dim, and the group dim if it
 * groups them) and columns (dim rank - 2, and the group dim if it groups
 * them); rows are source rows of contiguous columns, columns destination
 * rows of contiguous rows. */
typedef struct trg_block_shape {
    trg_side rows, cols;
    uint32_t group_dim;
    bool     table;   /* the group does not divide the tile's side: a table of the whole side */
} trg_block_shape;

#define TRG_TABLE_MAX 64   /* the grouped side's indices a whole-side table holds: B x B up to B = 8 */

/* The group dim of s for a block of n rows by m columns, tiles of l rows
 * and columns: one whose destination stride continues the rows (n * w) or
 * whose source stride continues the columns (m * w), the grouped side
 * filling at least one tile (its groups dividing l, or at most
 * TRG_TABLE_MAX in all), the other side at least a tile; false if there
 * is none. */
static inline bool trg_shape_of(const tmv_copy_shape *s, trg_block_shape *b)
{
    if (s->rank < 3 || (s->elem_bytes != 1 && s->elem_bytes != 2 && s->elem_bytes != 4 && s->elem_bytes != 8))
        return false;
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    const uint64_t w = s->elem_bytes, l = 16 / w, n = s->sizes[in], m = s->sizes[blk];
    if (s->dst_strides[in] != w || s->src_strides[blk] != w)
        return false;   /* not a transpose block (copy_kinds.c) */
    const trg_side rows = {n, n, s->src_strides[in], 0}, cols = {m, m, s->dst_strides[blk], 0};
    for (uint32_t g = 0; g < blk; g++) {
        const uint64_t size = s->sizes[g];
        if (s->dst_strides[g] == n * w && s->src_strides[g] != 0 && size * n >= l && m >= l &&
            (l % n == 0 || size * n <= TRG_TABLE_MAX)) {
            *b = (trg_block_shape){{n * size, n, rows.pitch, s->src_strides[g]}, cols, g, l % n != 0};
            return true;
        }
        if (s->src_strides[g] == m * w && s->dst_strides[g] != 0 && size * m >= l && n >= l &&
            (l % m == 0 || size * m <= TRG_TABLE_MAX)) {
            *b = (trg_block_shape){rows, {m * size, m, cols.pitch, s->dst_strides[g]}, g, l % m != 0};
            return true;
        }
    }
    return false;
}

/* dst[col i][row j] = src[row j][col i] for j in [j0, j1), i in [i0, i1),
 * element by element: what the tiles leave. */
static inline void trg_scalar(const uint8_t *src, uint8_t *dst, const trg_block_shape *b, unsigned w, uint64_t i0,
                              uint64_t i1, uint64_t j0, uint64_t j1)
{
    for (uint64_t j = j0; j < j1; j++) {
        const uint8_t *row = src + trg_at(&b->rows, j);
        for (uint64_t i = i0; i < i1; i++)
            memcpy(dst + trg_at(&b->cols, i) + j * w, row + i * w, w);
    }
}

/* What a call works out once: the block, the offsets from a tile's
 * corner of its rows (roff) and destination rows (coff), and the steps
 * from one tile to the next (a division each, 15 ns a block when they
 * were made per block). */
typedef struct trg_plan {
    trg_block_shape b;
    uint64_t        roff[16], coff[TMV_VB];
    uint64_t        row_step, square_step, wide_step, lane_step;   /* l and c rows; c and l columns */
    bool            nt;   /* streaming stores for the square tiles whose destination starts on a line */
} trg_plan;

/* Source rows per tile: AVX-512's square tiles of 4- and 8-byte elements
 * (transpose_x86.h) take c = 64/w, a vector of columns; the lane tiles l =
 * 16/w. */
__attribute__((always_inline)) static inline uint64_t trg_tile_rows(unsigned w)
{
    return TMV_VB == 64 && w >= 4 ? 64 / w : 16 / w;
}

#if TMV_VB == 64
/* One square tile (transpose_x86.h) of c = 64/w rows by c columns, its
 * source rows from src + rows[r] or pitch S, its destination rows at dst +
 * cols[r] or pitch D (a NULL table: the pitch). Each destination row is a
 * whole vector, so where it starts on a line and the output streams, the
 * tile writes whole lines with streaming stores, sparing their reads for
 * ownership. */
__attribute__((always_inline)) static inline void trg_square(const uint8_t *src, uint64_t S, const uint64_t *rows,
                                                            uint8_t *dst, uint64_t D, const uint64_t *cols,
                                                            unsigned w, bool nt)
{
    __m512i x[16];
    tr_square_load(x, src, S, rows, w);
    tr_square_shuffle(x, w);
    if (nt && ((uintptr_t)dst & 63) == 0)
        tr_square_store(x, dst, D, cols, w, true);
    else
        tr_square_store(x, dst, D, cols, w, false);
}

/* trg_square out of line, one instance per width and table side. Inlined
 * into the block loops, the tiles shared the registers with the loops' own
 * pointers and counters: gcc spilled a third of the 16 x 16 f32 tile's
 * vectors to the stack, 267 instructions a tile against 133 out of line
 * (perf annotate), and NHWC DEPTH_TO_SPACE CRD B8 C16 f32 took 419 ns at
 * 16 KiB (26 ns a tile), 206 ns out of line; 36.7 -> 26.5 us at 1 MiB. */
__attribute__((noinline)) static void trg_square_apart(const uint8_t *src, uint64_t S, const uint64_t *rows,
                                                       uint8_t *dst, uint64_t D, const uint64_t *cols, unsigned w,
                                                       bool nt)
{
    if (w == 4) {
        if (rows != NULL)
            trg_square(src, 0, rows, dst, D, NULL, 4, nt);
        else
            trg_square(src, S, NULL, dst, 0, cols, 4, nt);
    } else {
        if (rows != NULL)
            trg_square(src, 0, rows, dst, D, NULL, 8, nt);
        else
            trg_square(src, S, NULL, dst, 0, cols, 8, nt);
    }
}
#endif

/* Whether the square tiles stream: on AVX-512, where the step's output
 * reaches the stream threshold and the `count` destination offsets (a
 * pitch, or a tile's table) are whole lines, so a tile that starts on a
 * line writes whole lines only. */
static inline bool trg_streams(const tmv_copy_shape *s, const uint64_t *dst_offsets, uint64_t count)
{
    if (TMV_VB != 64 || s->elem_bytes < 4 || tmv_shape_bytes(s) < s->tuning->stream_threshold)
        return false;
    for (uint64_t k = 0; k < count; k++)
        if (dst_offsets[k] % 64 != 0)
            return false;
    return true;
}

/* The l rows of a block from row (index j) on, columns [i, cols): lane
 * tiles of a vector, then of 16 bytes, then element by element; `to` is
 * column i's destination for row j. */
static inline void trg_strip(const uint8_t *src, uint8_t *dst, const uint8_t *row, uint8_t *to, const trg_plan *p,
                             unsigned w, bool grouped_rows, uint64_t i, uint64_t j)
{
    const trg_block_shape *b = &p->b;
    const uint64_t l = 16 / w, c = TMV_VB / w, cols = b->cols.count;
    for (; i + c <= cols; i += c, to += p->wide_step)
        if (grouped_rows)
            trg_lane(row + i * w, 0, p->roff, to, b->cols.pitch, NULL, w, true);
        else
            trg_lane(row + i * w, b->rows.pitch, NULL, to, 0, p->coff, w, true);
#if TMV_VB > 16
    for (; i + l <= cols; i += l, to += p->lane_step)
        if (grouped_rows)
            trg_lane(row + i * w, 0, p->roff, to, b->cols.pitch, NULL, w, false);
        else
            trg_lane(row + i * w, b->rows.pitch, NULL, to, 0, p->coff, w, false);
#endif
    if (i < cols)
        trg_scalar(src, dst, b, w, i, cols, j, j + l);
}

/* One block: tiles of l rows by a vector (then 16 bytes) of columns, each
 * starting at whole groups, so the offsets from a tile's corner are the
 * same wherever it is; on AVX-512, square tiles first where c rows and
 * columns are left. `grouped_rows` (a constant) says which side's
 * offsets are a table; the other side's are a pitch, which keeps the
 * pointers in registers. */
static inline void trg_block(const uint8_t *src, uint8_t *dst, const trg_plan *p, unsigned w, bool grouped_rows)
{
    const trg_block_shape *b = &p->b;
    const uint64_t l = 16 / w, rows = b->rows.count;
    uint64_t j = 0;
    const uint8_t *row = src;
#if TMV_VB == 64
    const uint64_t c = TMV_VB / w, cols = b->cols.count;
    if (w >= 4 && cols >= c)
        for (; j + c <= rows; j += c, row += p->square_step) {
            uint64_t i = 0;
            uint8_t *to = dst + j * w;
            for (; i + c <= cols; i += c, to += p->wide_step)
                if (grouped_rows)
                    trg_square_apart(row + i * w, 0, p->roff, to, b->cols.pitch, NULL, w, p->nt);
                else
                    trg_square_apart(row + i * w, b->rows.pitch, NULL, to, 0, p->coff, w, p->nt);
            if (i < cols)
                for (uint64_t k = 0; k < c; k += l)
                    trg_strip(src, dst, row + k / l * p->row_step, to + k * w, p, w, grouped_rows, i, j + k);
        }
#endif
    for (; j + l <= rows; j += l, row += p->row_step)
        trg_strip(src, dst, row, dst + j * w, p, w, grouped_rows, 0, j);
    if (j < rows)
        trg_scalar(src, dst, b, w, 0, b->cols.count, j, rows);
}

/* The dims of s outside the block, the group dim left out. */
static inline tmv_copy_shape trg_outer(const tmv_copy_shape *s, const trg_block_shape *b)
{
    tmv_copy_shape outer = *s;
    outer.rank = 0;
    for (uint32_t d = 0; d + 2 < s->rank; d++)
        if (d != b->group_dim) {
            outer.sizes[outer.rank] = s->sizes[d];
            outer.src_strides[outer.rank] = s->src_strides[d];
            outer.dst_strides[outer.rank] = s->dst_strides[d];
            outer.rank++;
        }
    return outer;
}

/* What a table shape's tiles leave, element by element: rows [j0, j1) of
 * columns [i0, i1), the grouped side's offsets from off[] (no division,
 * unlike trg_scalar). */
static inline void trg_table_edge(const uint8_t *src, uint8_t *dst, const trg_block_shape *b, const uint64_t *off,
                                  unsigned w, bool grouped_rows, uint64_t i0, uint64_t i1, uint64_t j0, uint64_t j1)
{
    for (uint64_t j = j0; j < j1; j++) {
        const uint8_t *row = src + (grouped_rows ? off[j] : j * b->rows.pitch);
        for (uint64_t i = i0; i < i1; i++)
            memcpy(dst + (grouped_rows ? i * b->cols.pitch : off[i]) + j * w, row + i * w, w);
    }
}

/* Rows [j, j + l) of a table shape's block, columns [i, cols): lane tiles
 * of a vector, then of 16 bytes, then element by element (off[] holds the
 * grouped side's offsets; tiles read theirs from their first index on). */
static inline void trg_table_strip(const uint8_t *src, uint8_t *dst, const trg_block_shape *b, const uint64_t *off,
                                   unsigned w, bool grouped_rows, uint64_t i, uint64_t j)
{
    const uint64_t l = 16 / w, c = TMV_VB / w, cols = b->cols.count;
    const uint64_t S = b->rows.pitch, D = b->cols.pitch;
    for (; i + c <= cols; i += c)
        if (grouped_rows)
            trg_lane(src + i * w, 0, off + j, dst + i * D + j * w, D, NULL, w, true);
        else
            trg_lane(src + j * S + i * w, S, NULL, dst + j * w, 0, off + i, w, true);
#if TMV_VB > 16
    for (; i + l <= cols; i += l)
        if (grouped_rows)
            trg_lane(src + i * w, 0, off + j, dst + i * D + j * w, D, NULL, w, false);
        else
            trg_lane(src + j * S + i * w, S, NULL, dst + j * w, 0, off + i, w, false);
#endif
    trg_table_edge(src, dst, b, off, w, grouped_rows, i, cols, j, j + l);
}

/* One block of a table shape: on AVX-512, square tiles first where c rows
 * and columns are left (nt: the output streams, and the destination rows
 * are whole lines), then strips of l rows. */
static inline void trg_table_block(const uint8_t *src, uint8_t *dst, const trg_block_shape *b, const uint64_t *off,
                                   unsigned w, bool grouped_rows, bool nt)
{
    const uint64_t l = 16 / w, rows = b->rows.count;
    uint64_t j = 0;
#if TMV_VB == 64
    const uint64_t c = TMV_VB / w, cols = b->cols.count, S = b->rows.pitch, D = b->cols.pitch;
    if (w >= 4 && cols >= c)
        for (; j + c <= rows; j += c) {
            uint64_t i = 0;
            for (; i + c <= cols; i += c)
                if (grouped_rows)
                    trg_square_apart(src + i * w, 0, off + j, dst + i * D + j * w, D, NULL, w, nt);
                else
                    trg_square_apart(src + j * S + i * w, S, NULL, dst + j * w, 0, off + i, w, nt);
            if (i < cols)
                for (uint64_t k = 0; k < c; k += l)
                    trg_table_strip(src, dst, b, off, w, grouped_rows, i, j + k);
        }
#else
    (void)nt;
#endif
    for (; j + l <= rows; j += l)
        trg_table_strip(src, dst, b, off, w, grouped_rows, 0, j);
    trg_table_edge(src, dst, b, off, w, grouped_rows, 0, b->cols.count, j, rows);
}

/* A table shape (trg_block_shape.table), out of line so the other shapes'
 * code stays as it was: with one path for both, the tiles read their
 * offsets from where each starts and B = 4 ran 1.2-1.4x slower. */
static inline void trg_table_width(const tmv_copy_shape *s, const trg_block_shape *b, const uint8_t *src,
                                   uint8_t *dst, unsigned w)
{
    const bool grouped_rows = b->rows.group < b->rows.count;
    uint64_t off[TRG_TABLE_MAX];
    const uint64_t count = grouped_rows ? b->rows.count : b->cols.count;
    trg_offsets(grouped_rows ? &b->rows : &b->cols, count, off);
    const bool nt = trg_streams(s, grouped_rows ? &b->cols.pitch : off, grouped_rows ? 1 : count);
    const tmv_copy_shape outer = trg_outer(s, b);
    tmv_walk walk;
    tmv_walk_init(&walk, &outer, outer.rank);
    do
        trg_table_block(src + walk.src, dst + walk.dst, b, off, w, grouped_rows, nt);
    while (tmv_walk_next(&walk));
    if (nt)
        _mm_sfence();
}

#define TRG_TABLE_WIDTH(w)                                                                                   \
    __attribute__((noinline)) static void trg_table_width##w(const tmv_copy_shape *s, const trg_block_shape *b, \
                                                             const uint8_t *src, uint8_t *dst)               \
    {                                                                                                        \
        trg_table_width(s, b, src, dst, w);                                                                 \
    }
TRG_TABLE_WIDTH(1)
TRG_TABLE_WIDTH(2)
TRG_TABLE_WIDTH(4)
TRG_TABLE_WIDTH(8)
#undef TRG_TABLE_WIDTH

static inline void trg_width(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, unsigned w)
{
    trg_plan p;
    trg_block_shape *b = &p.b;
    if (!trg_shape_of(s, b))
        return;   /* not accepted */
    if (b->table) {
        switch (w) {
        case 1: trg_table_width1(s, b, src, dst); break;
        case 2: trg_table_width2(s, b, src, dst); break;
        case 4: trg_table_width4(s, b, src, dst); break;
        default: trg_table_width8(s, b, src, dst); break;
        }
        return;
    }
    const bool grouped_rows = b->rows.group < b->rows.count;
    trg_offsets(&b->rows, trg_tile_rows(w), p.roff);
    trg_offsets(&b->cols, TMV_VB / w, p.coff);
    p.row_step = trg_step(&b->rows, 16 / w);
    p.square_step = trg_step(&b->rows, trg_tile_rows(w));
    p.wide_step = trg_step(&b->cols, TMV_VB / w);
    p.lane_step = trg_step(&b->cols, 16 / w);
    p.nt = trg_streams(s, grouped_rows ? &b->cols.pitch : p.coff, grouped_rows ? 1 : TMV_VB / w);
    const tmv_copy_shape outer = trg_outer(s, b);
    tmv_walk walk;
    tmv_walk_init(&walk, &outer, outer.rank);
    if (grouped_rows)
        do
            trg_block(src + walk.src, dst + walk.dst, &p, w, true);
        while (tmv_walk_next(&walk));
    else
        do
            trg_block(src + walk.src, dst + walk.dst, &p, w, false);
        while (tmv_walk_next(&walk));
    if (p.nt)
        _mm_sfence();
}

/* The work, for the cost model (TMV_KERNEL_PRICED): the blocks (cost.h's
 * blocks are the walk's positions, the group dim among them), the tiles
 * (lines) and the edges' elements (pieces). Fitted so, the row misses by
 * 13% at the median (p90 30%); priced on the shape's features, 39% (p90
 * 81%). Counting the tiles' unpacks and stores fitted worse (19%, p90
 * 73%): the checker's shapes are mostly edges and small tiles, and a
 * 16 x 16 byte tile takes 16 ns (AVX-512, 2.6 GHz), a 16 x 64 one 35,
 * where a 4 x 4 f32 one takes a few. */
static inline void trg_features(const tmv_copy_shape *s, tmv_cost_features *f)
{
    trg_block_shape b;
    if (!trg_shape_of(s, &b))
        return;
    const uint64_t w = s->elem_bytes, l = 16 / w, c = TMV_VB / w, rows = b.rows.count, cols = b.cols.count;
    const uint64_t row_tiles = rows / l, wide = cols / c, lanes = (cols - wide * c) / l;
    const double edges = (double)(rows * cols - row_tiles * l * (wide * c + lanes * l));
    double blocks = 1;
    for (uint32_t d = 0; d + 2 < s->rank; d++)
        if (d != b.group_dim)
            blocks *= (double)s->sizes[d];
    f->blocks = blocks;
    f->lines = blocks * (double)(row_tiles * (wide + lanes));
    f->pieces = blocks * edges;
}

/* tmv_transpose_groups_<set>, its accepts and its features; one instance
 * per width. */
#define TMV_TRANSPOSE_GROUPS_KERNEL(set)                                                         \
    bool tmv_transpose_groups_##set##_accepts(const tmv_copy_shape *s)                          \
    {                                                                                            \
        trg_block_shape b;                                                                       \
        return trg_shape_of(s, &b);                                                              \
    }                                                                                            \
    void tmv_transpose_groups_##set##_features(const tmv_copy_shape *s, tmv_cost_features *f)   \
    {                                                                                            \
        trg_features(s, f);                                                                      \
    }                                                                                            \
    void tmv_transpose_groups_##set(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)   \
    {                                                                                            \
        switch (s->elem_bytes) {                                                                 \
        case 1: trg_width(s, src, dst, 1); break;                                                \
        case 2: trg_width(s, src, dst, 2); break;                                                \
        case 4: trg_width(s, src, dst, 4); break;                                                \
        default: trg_width(s, src, dst, 8); break;                                               \
        }                                                                                        \
    }

#endif
