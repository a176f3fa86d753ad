/* cases.c - THE case table: one line per case (kind, data type, kind parameters, sizes). */
#include "cases.h"

#define F32 TMV_DTYPE_FLOAT32
#define U8 TMV_DTYPE_UINT8
#define I32 TMV_DTYPE_INT32
#define I64 TMV_DTYPE_INT64
#define DCR TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW
#define CRD TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH

const char *const size_class_names[SIZE_CLASS_COUNT] = {"L1", "L2", "DRAM", "tiny", "8KiB"};
const uint64_t size_class_bytes[SIZE_CLASS_COUNT] = {16u << 10, 512u << 10, 64u << 20, 0, 8u << 10};

const bench_case bench_cases[] = {
    /* JOIN / SPLIT outer axis: p0 pieces. Inner axis: p0 pieces, p1 bytes per piece per row. */
    {&kind_join_outer, F32, {2}, SIZE_ALL | QUICK_DRAM | SIZE_8K},
    {&kind_join_outer_oneshot, F32, {2}, SIZE_8K},
    {&kind_join_outer, F32, {8}, SIZE_ALL},
    {&kind_join_outer, U8, {2}, SIZE_ALL},
    {&kind_join_outer, U8, {8}, SIZE_ALL},
    {&kind_join_inner, F32, {2, 4}, SIZE_ALL},
    {&kind_join_inner, F32, {2, 16}, SIZE_ALL | SIZE_8K},
    {&kind_join_inner, F32, {2, 64}, SIZE_ALL},
    {&kind_join_inner, F32, {8, 4}, SIZE_ALL | QUICK_DRAM},
    {&kind_join_inner, F32, {8, 16}, SIZE_ALL},
    {&kind_join_inner, F32, {8, 64}, SIZE_ALL},
    {&kind_join_inner, U8, {2, 4}, SIZE_ALL},
    {&kind_join_inner, U8, {2, 16}, SIZE_ALL},
    {&kind_join_inner, U8, {2, 64}, SIZE_ALL},
    {&kind_join_inner, U8, {8, 4}, SIZE_ALL},
    {&kind_join_inner, U8, {8, 16}, SIZE_ALL},
    {&kind_join_inner, U8, {8, 64}, SIZE_ALL},
    {&kind_split_outer, F32, {2}, SIZE_ALL},
    {&kind_split_outer, F32, {8}, SIZE_ALL | SIZE_8K},
    {&kind_split_outer, U8, {2}, SIZE_ALL},
    {&kind_split_outer, U8, {8}, SIZE_ALL},
    {&kind_split_outer_shuffled, F32, {8}, SIZE_8K},
    {&kind_split_inner, F32, {2, 4}, SIZE_ALL},
    {&kind_split_inner, F32, {2, 16}, SIZE_ALL | SIZE_8K},
    {&kind_split_inner, F32, {2, 64}, SIZE_ALL},
    {&kind_split_inner, F32, {8, 4}, SIZE_ALL | QUICK_DRAM},
    {&kind_split_inner, F32, {8, 16}, SIZE_ALL},
    {&kind_split_inner, F32, {8, 64}, SIZE_ALL},
    {&kind_split_inner, U8, {2, 4}, SIZE_ALL},
    {&kind_split_inner, U8, {2, 16}, SIZE_ALL},
    {&kind_split_inner, U8, {2, 64}, SIZE_ALL},
    {&kind_split_inner, U8, {8, 4}, SIZE_ALL},
    {&kind_split_inner, U8, {8, 16}, SIZE_ALL},
    {&kind_split_inner, U8, {8, 64}, SIZE_ALL},

    /* TILE: inner {rows, p0} x {1, p1}; outer {p0, p1} x {R, 1}; all {2, 4, 16} x {R, 2, 4}. */
    {&kind_tile_inner, F32, {16, 8}, SIZE_ALL | QUICK_DRAM | SIZE_8K},
    {&kind_tile_inner, U8, {16, 8}, SIZE_ALL},
    {&kind_tile_inner, U8, {3, 64}, SIZE_ALL},   /* a 3-byte period (an RGB pixel): no power of two */
    {&kind_tile_outer, F32, {4, 64}, SIZE_ALL},
    {&kind_tile_all, F32, {0}, SIZE_ALL},

    /* SPACE_TO_DEPTH / DEPTH_TO_SPACE, NCHW: p0 block size, p1 order, p2 channels (spatial side). */
    {&kind_s2d, F32, {2, DCR, 64}, SIZE_ALL | QUICK_DRAM | SIZE_8K},
    {&kind_s2d, F32, {2, CRD, 64}, SIZE_ALL},
    {&kind_s2d, F32, {4, DCR, 64}, SIZE_ALL},
    {&kind_s2d, F32, {4, CRD, 64}, SIZE_ALL},
    {&kind_s2d, U8, {2, DCR, 3}, SIZE_ALL},
    {&kind_s2d, U8, {2, CRD, 3}, SIZE_ALL},
    {&kind_s2d, U8, {4, DCR, 3}, SIZE_ALL},
    {&kind_s2d, U8, {4, CRD, 3}, SIZE_ALL},
    {&kind_d2s, F32, {2, DCR, 64}, SIZE_ALL | SIZE_8K},
    {&kind_d2s, F32, {2, CRD, 64}, SIZE_ALL},
    {&kind_d2s, F32, {4, DCR, 64}, SIZE_ALL},
    {&kind_d2s, F32, {4, CRD, 64}, SIZE_ALL},
    {&kind_d2s, U8, {2, DCR, 3}, SIZE_ALL},
    {&kind_d2s, U8, {2, CRD, 3}, SIZE_ALL},
    {&kind_d2s, U8, {4, DCR, 3}, SIZE_ALL},
    {&kind_d2s, U8, {4, CRD, 3}, SIZE_ALL},

    /* GATHER_ND. rows: 50,000-row table, p0 row bytes, p1 index type. elements: rank-3
     * table, tuple length 3, p0 index type. batch: p0 row bytes, p1 index type, p2 batches. */
    {&kind_gather_rows, F32, {64, I32}, SIZE_ALL | SIZE_8K},
    {&kind_gather_rows, F32, {64, I64}, SIZE_ALL},
    {&kind_gather_rows, F32, {256, I32}, SIZE_ALL},
    {&kind_gather_rows, F32, {256, I64}, SIZE_ALL | QUICK_DRAM},
    {&kind_gather_rows, F32, {4096, I32}, SIZE_ALL},
    {&kind_gather_rows, F32, {4096, I64}, SIZE_ALL},
    {&kind_gather_elements, F32, {I32}, SIZE_ALL},
    {&kind_gather_elements, F32, {I64}, SIZE_ALL},
    {&kind_gather_batch, F32, {256, I64, 8}, SIZE_ALL},

    /* Strided inputs, one per family: transposed JOIN inputs (p0 pieces, p1 columns),
     * a padded TILE input (p0 row, p1 repeat, p2 pad), a padded S2D input (as s2d),
     * a padded GATHER_ND table (p0 row bytes, p1 index type, p2 pad bytes). */
    {&kind_join_transposed, F32, {2, 64}, SIZE_ALL},
    {&kind_tile_padded, F32, {16, 8, 16}, SIZE_ALL},
    {&kind_s2d_padded, F32, {2, DCR, 64}, SIZE_ALL},
    {&kind_gather_padded, F32, {256, I32, 64}, SIZE_ALL},

    /* Per-call overhead on tiny tensors through a created op, and the one-shot tmv_execute. */
    {&kind_tiny_join, F32, {0}, SIZE_TINY},
    {&kind_tiny_split, F32, {0}, SIZE_TINY},
    {&kind_tiny_tile, F32, {0}, SIZE_TINY},
    {&kind_tiny_s2d, F32, {0}, SIZE_TINY},
    {&kind_tiny_d2s, F32, {0}, SIZE_TINY},
    {&kind_tiny_gather, F32, {0}, SIZE_TINY},
    {&kind_tiny_oneshot, F32, {0}, SIZE_TINY},
};
const size_t bench_case_count = sizeof bench_cases / sizeof bench_cases[0];

const char *dtype_name(tmv_dtype dtype) {
    switch (dtype) {
    case TMV_DTYPE_FLOAT32: return "f32";
    case TMV_DTYPE_FLOAT16: return "f16";
    case TMV_DTYPE_UINT32: return "u32";
    case TMV_DTYPE_UINT16: return "u16";
    case TMV_DTYPE_UINT8: return "u8";
    case TMV_DTYPE_INT32: return "i32";
    case TMV_DTYPE_INT16: return "i16";
    case TMV_DTYPE_INT8: return "i8";
    case TMV_DTYPE_FLOAT64: return "f64";
    case TMV_DTYPE_UINT64: return "u64";
    case TMV_DTYPE_INT64: return "i64";
    }
    return "?";
}
