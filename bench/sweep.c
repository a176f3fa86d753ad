/* sweep.c - the generated sweep (--tmv_sweep, --tmv_sweep=full): every operator over piece and row lengths, element sizes, block sizes, repeats, layouts, table and output sizes, from the families' kinds.
 *
 * Grids, not lists: each operator's parameters are crossed, so a shape the
 * kernels were never tuned on is as likely to come up as one they were. The
 * sampled run keeps a fixed pseudo-random sixth of the cases (a hash of
 * their place in the grid, the same every run) at three output sizes; the
 * full run every case at five. One thread, the default kernel set. */
#include <stdio.h>

#include "cases.h"

#define SAMPLE_ONE_IN 6
#define MAX_CASES 2048   /* the whole grid is about 860 */

typedef struct sweep_size {
    uint64_t bytes;
    const char *name;
    int sampled;   /* in the sampled run */
} sweep_size;

static const sweep_size sizes[] = {
    {8u << 10, "8KiB", 1},
    {1u << 20, "1MiB", 1},
    /* past the L2 and a server core's share of the L3, short of the DRAM
     * sizes: where the stream threshold (tuning.h) decides the stores */
    {16u << 20, "16MiB", 0},
    {64u << 20, "64MiB", 1},
    {256u << 20, "256MiB", 0},
};

/* Element sizes 1, 2, 4 and 8 bytes. */
static const tmv_dtype by_size[] = {TMV_DTYPE_UINT8, TMV_DTYPE_UINT16, TMV_DTYPE_FLOAT32, TMV_DTYPE_FLOAT64};
#define ELEMENT_SIZES (sizeof by_size / sizeof by_size[0])

static struct {
    bench_case cases[MAX_CASES];   /* registered by address: they live as long as the run */
    size_t count;
    unsigned grid_index;
    int full;
} sweep;

/* The sampled run's pick: a multiplicative hash of the case's place in the grid. */
static int sampled(unsigned index) { return (index * 2654435761u >> 16) % SAMPLE_ONE_IN == 0; }

/* Adds a case of kind k whose smallest output is min_bytes, at each size
 * of the run that holds it. */
static void add(const bench_kind *k, tmv_dtype dtype, uint32_t p0, uint32_t p1, uint32_t p2, uint64_t min_bytes) {
    const unsigned index = sweep.grid_index++;
    if (!sweep.full && !sampled(index)) return;
    if (sweep.count == MAX_CASES) {
        fprintf(stderr, "tmv-bench: the sweep has more than %d cases; raise MAX_CASES (bench/sweep.c)\n", MAX_CASES);
        return;
    }
    bench_case *c = &sweep.cases[sweep.count++];
    *c = (bench_case){k, dtype, {p0, p1, p2}, 0};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z)
        if ((sweep.full || sizes[z].sampled) && sizes[z].bytes >= min_bytes)
            bench_register_case(c, sizes[z].bytes, sizes[z].name);
}

/* JOIN and SPLIT: pieces along the last axis of 1 B to 64 KiB (powers of two
 * and odd lengths) at every element size that divides them, and whole pieces
 * along the first axis. */
static void join_split(void) {
    static const uint32_t piece_bytes[] = {1, 2, 3, 4, 7, 8, 16, 31, 64, 100, 256, 1000, 4096, 65536};
    static const uint32_t counts[] = {2, 3, 8};
    const bench_kind *inner[2] = {&kind_join_inner, &kind_split_inner};
    const bench_kind *outer[2] = {&kind_join_outer, &kind_split_outer};
    for (int op = 0; op < 2; ++op)
        for (size_t n = 0; n < sizeof counts / sizeof counts[0]; ++n) {
            for (size_t b = 0; b < sizeof piece_bytes / sizeof piece_bytes[0]; ++b)
                for (size_t e = 0; e < ELEMENT_SIZES; ++e)
                    if (piece_bytes[b] % tmv_dtype_size(by_size[e]) == 0)
                        add(inner[op], by_size[e], counts[n], piece_bytes[b], 0, (uint64_t)counts[n] * piece_bytes[b]);
            add(outer[op], TMV_DTYPE_UINT8, counts[n], 0, 0, 0);
            add(outer[op], TMV_DTYPE_FLOAT32, counts[n], 0, 0, 0);
        }
}

/* TILE: the last axis repeated (a column broadcast when the row is one
 * element), a block of rows repeated, and repeats 1-8 on each of three axes
 * alone and together. */
static void tile(void) {
    static const uint32_t rows[] = {1, 3, 16, 100, 1024}, repeats[] = {2, 3, 8, 64};
    static const uint32_t blocks[][2] = {{1, 16}, {1, 1000}, {1, 4096}, {4, 16}, {4, 1000}};
    static const uint32_t reps3[][3] = {{2, 1, 1}, {8, 1, 1}, {1, 2, 1}, {1, 8, 1}, {1, 1, 2}, {1, 1, 8},
                                       {2, 2, 1}, {1, 3, 3}, {2, 2, 2}, {3, 3, 3}, {8, 8, 8}, {8, 1, 8}};
    static const uint32_t inner3[] = {1, 16, 100};
    for (size_t e = 0; e < ELEMENT_SIZES; ++e) {
        const uint32_t esz = (uint32_t)tmv_dtype_size(by_size[e]);
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; ++r)
            for (size_t k = 0; k < sizeof repeats / sizeof repeats[0]; ++k)
                add(&kind_tile_inner, by_size[e], rows[r], repeats[k], 0, (uint64_t)rows[r] * repeats[k] * esz);
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; ++b)
            add(&kind_tile_outer, by_size[e], blocks[b][0], blocks[b][1], 0, (uint64_t)blocks[b][0] * blocks[b][1] * esz);
        for (size_t r = 0; r < sizeof reps3 / sizeof reps3[0]; ++r)
            for (size_t i = 0; i < sizeof inner3 / sizeof inner3[0]; ++i) {
                const uint32_t *q = reps3[r];
                add(&kind_tile_3d, by_size[e], inner3[i], q[0] | q[1] << 8 | q[2] << 16, 0,
                    (uint64_t)4 * inner3[i] * q[0] * q[1] * q[2] * esz);
            }
    }
}

/* SPACE_TO_DEPTH and DEPTH_TO_SPACE: block sizes 2-8, both orders (one where
 * they coincide, C = 1), 1 to 64 channels, NCHW and NHWC. */
static void depth_space(void) {
    static const uint32_t blocks[] = {2, 3, 4, 8}, channels[] = {1, 3, 16, 64};
    const bench_kind *kinds[] = {&kind_s2d, &kind_s2d_nhwc, &kind_d2s, &kind_d2s_nhwc};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k)
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; ++b)
            for (size_t c = 0; c < sizeof channels / sizeof channels[0]; ++c)
                for (uint32_t order = 0; order < (channels[c] == 1 ? 1u : 2u); ++order)
                    for (size_t e = 0; e < ELEMENT_SIZES; e += 2) {   /* 1 and 4 bytes */
                        const uint64_t min = (uint64_t)blocks[b] * blocks[b] * channels[c] * 64 * tmv_dtype_size(by_size[e]);
                        add(kinds[k], by_size[e], blocks[b], order, channels[c], min);
                    }
}

/* GATHER_ND: rows of 4 B to 8 KiB from tables of 64 KiB to 1 GiB, both index
 * widths; single elements (the bound is random loads). */
static void gather(void) {
    static const uint32_t row_bytes[] = {4, 12, 16, 64, 100, 256, 1024, 4096, 8192};
    static const uint32_t table_kib[] = {64, 16u << 10, 1u << 20};
    const tmv_dtype index_types[] = {TMV_DTYPE_INT32, TMV_DTYPE_INT64};
    for (size_t r = 0; r < sizeof row_bytes / sizeof row_bytes[0]; ++r)
        for (size_t t = 0; t < sizeof table_kib / sizeof table_kib[0]; ++t)
            for (size_t i = 0; i < 2; ++i)
                add(&kind_gather_table, TMV_DTYPE_UINT8, row_bytes[r], index_types[i], table_kib[t], row_bytes[r]);
    for (size_t i = 0; i < 2; ++i) add(&kind_gather_elements, TMV_DTYPE_FLOAT32, index_types[i], 0, 0, 0);
}

/* JOIN and SPLIT of channels-last tensors along C: channel runs of 4 B to
 * 4 KiB a pixel. Registered last, so that the sampled run keeps the cases
 * it picked before these were added. */
static void join_split_nhwc(void) {
    static const uint32_t piece_bytes[] = {4, 16, 64, 100, 256, 1000, 4096};
    static const uint32_t counts[] = {2, 3, 8};
    const tmv_dtype types[] = {TMV_DTYPE_UINT8, TMV_DTYPE_FLOAT32};
    const bench_kind *kinds[2] = {&kind_join_nhwc, &kind_split_nhwc};
    for (int op = 0; op < 2; ++op)
        for (size_t n = 0; n < sizeof counts / sizeof counts[0]; ++n)
            for (size_t b = 0; b < sizeof piece_bytes / sizeof piece_bytes[0]; ++b)
                for (size_t e = 0; e < 2; ++e)
                    if (piece_bytes[b] % tmv_dtype_size(types[e]) == 0)
                        add(kinds[op], types[e], counts[n], piece_bytes[b], 0, (uint64_t)counts[n] * piece_bytes[b]);
}

void bench_register_sweep(int full) {
    sweep.full = full;
    sweep.grid_index = 0;
    sweep.count = 0;
    join_split();
    tile();
    depth_space();
    gather();
    join_split_nhwc();
}
