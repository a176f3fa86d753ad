/* casegen_directed.c - directed operator cases: sweeps of the geometries kernels specialize on (see casegen_directed.h). */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, sysconf */
#include "casegen_directed.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ------------------------------------------------------------ helpers */

#define N_OF(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

/* The next digit, of radix n, of a geometry number (least significant first). */
static uint32_t digit(uint64_t *g, uint32_t n)
{
    uint32_t d = (uint32_t)(*g % n);
    *g /= n;
    return d;
}

/* A data type of `width` bytes (1, 2, 4 or 8), drawn from the ones there are. */
static tmv_dtype dtype_of_width(cg_rng *rng, uint64_t width)
{
    static const tmv_dtype w1[] = {TMV_DTYPE_UINT8, TMV_DTYPE_INT8};
    static const tmv_dtype w2[] = {TMV_DTYPE_FLOAT16, TMV_DTYPE_UINT16, TMV_DTYPE_INT16};
    static const tmv_dtype w4[] = {TMV_DTYPE_FLOAT32, TMV_DTYPE_UINT32, TMV_DTYPE_INT32};
    static const tmv_dtype w8[] = {TMV_DTYPE_FLOAT64, TMV_DTYPE_UINT64, TMV_DTYPE_INT64};
    switch (width) {
    case 1: return w1[cg_rng_below(rng, 2)];
    case 2: return w2[cg_rng_below(rng, 3)];
    case 4: return w4[cg_rng_below(rng, 3)];
    default: return w8[cg_rng_below(rng, 3)];
    }
}

/* A data type whose width divides `bytes`: kernels see bytes, so the
 * element type of a run is drawn. */
static tmv_dtype dtype_dividing(cg_rng *rng, uint64_t bytes)
{
    uint64_t widths[4], n = 0;
    for (uint64_t w = 8; w >= 1; w /= 2)
        if (bytes % w == 0)
            widths[n++] = w;
    return dtype_of_width(rng, widths[cg_rng_below(rng, n)]);
}

static cg_case *case_new(tmv_op_type type, uint64_t seed)
{
    cg_case *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->seed = seed;
    c->options = cg_default_options();
    c->options.max_elements = 0; /* directed: no cap */
    c->op.type = type;
    c->expect = TMV_OK;
    return c;
}

/* Declares tensor t; strides NULL for packed. */
static void tensor(cg_case *c, uint32_t t, tmv_dtype dtype, uint32_t n, const uint32_t *sizes,
                   const uint32_t *strides, const char *layout)
{
    memcpy(c->sizes[t], sizes, n * sizeof *sizes);
    c->tensors[t] = (tmv_tensor_desc){dtype, n, c->sizes[t], NULL};
    if (strides != NULL) {
        memcpy(c->strides[t], strides, n * sizeof *strides);
        c->tensors[t].strides = c->strides[t];
    }
    c->layouts[t] = layout;
}

/* ------------------------------------------------------------- inputs */

/* Inputs whose extent is larger are sparse: a few elements far apart (the
 * 2 GiB strides of gather_far). Their mapping only reserves the addresses
 * (PROT_NONE, so no memory is committed even where overcommit is strict);
 * the pages that hold elements are opened one by one, and a read anywhere
 * else faults. */
#define SPARSE_BYTES ((size_t)64 << 20)

static bool is_sparse(const tmv_tensor_desc *t)
{
    return t->strides != NULL && cg_extent_bytes(t) > SPARSE_BYTES;
}


/* Sets the page of each element of a sparse tensor to `prot`, then, with
 * rng, fills the element with random bytes. False if mprotect fails. */
static bool sparse_elements(cg_region *r, const tmv_tensor_desc *t, int prot, cg_rng *rng)
{
    const size_t w = cg_dtype_size(t->dtype), page = cg_page_size();
    uint32_t coord[TMV_MAX_DIMS] = {0};
    for (;;) {
        uint64_t off = 0;
        for (uint32_t d = 0; d < t->dim_count; d++)
            off += t->sizes[d] > 1 ? (uint64_t)coord[d] * t->strides[d] : 0;
        unsigned char *at = r->data + off * w;   /* w divides the page: one page per element */
        if (mprotect(at - (uintptr_t)at % page, page, prot) != 0)
            return false;
        if (rng != NULL) {
            uint64_t bits = cg_rng_next(rng);
            memcpy(at, &bits, w);
        }
        for (uint32_t d = t->dim_count;;) {   /* the next coordinate */
            if (d == 0)
                return true;
            d--;
            if (++coord[d] < t->sizes[d])
                break;
            coord[d] = 0;
        }
    }
}

static void fill_random(cg_rng *rng, cg_region *r)
{
    for (size_t i = 0; i < r->len; i += 8) {
        uint64_t bits = cg_rng_next(rng);
        memcpy(r->data + i, &bits, r->len - i < 8 ? r->len - i : 8);
    }
}

/* GATHER_ND index modes. */
enum { INDICES_GOOD, INDICES_BAD, INDICES_CLAMPED, INDEX_MODES };

/* An index for a dimension of `size`: in range (negative half the time for
 * signed types), or out of range in one of the ways kernels may get wrong. */
static int64_t index_value(cg_rng *rng, tmv_dtype type, uint32_t size, bool bad)
{
    const bool is_signed = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_INT64;
    const bool wide = type == TMV_DTYPE_INT64 || type == TMV_DTYPE_UINT64;
    const int64_t n = size;
    if (!bad) {
        int64_t v = (int64_t)cg_rng_below(rng, size);
        return is_signed && cg_rng_chance(rng, 50) ? v - n : v;
    }
    switch (cg_rng_below(rng, 4)) {
    case 0: return n + (int64_t)cg_rng_below(rng, 3);
    case 1: return is_signed ? -n - 1 - (int64_t)cg_rng_below(rng, 3) : n;
    case 2: return wide ? (int64_t)((1ull << 32) + cg_rng_below(rng, size)) : n + 100;
    default: return is_signed ? (wide ? INT64_MIN : INT32_MIN) : -1;
    }
}

static void store_index(unsigned char *p, tmv_dtype type, int64_t v)
{
    if (type == TMV_DTYPE_INT32 || type == TMV_DTYPE_UINT32) {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
    } else {
        memcpy(p, &v, 8);
    }
}

/* The packed {..., T, k} indices of a GATHER_ND case whose index component j
 * selects along input dim first + j. */
static void fill_indices(cg_rng *rng, cg_case *c, int mode)
{
    const tmv_tensor_desc *in = &c->tensors[0], *ind = &c->tensors[1];
    const uint32_t n = ind->dim_count, k = ind->sizes[n - 1];
    const uint32_t first = n - c->gather_nd.input_dim_count + c->gather_nd.batch_dim_count;
    const size_t width = cg_dtype_size(ind->dtype), values = c->inputs[1].len / width;
    const size_t forced = (size_t)cg_rng_below(rng, values); /* a bad case holds one bad index at least */
    for (size_t i = 0; i < values; i++) {
        bool bad = mode != INDICES_GOOD && (i == forced || cg_rng_chance(rng, 10));
        store_index(c->inputs[1].data + i * width, ind->dtype,
                    index_value(rng, ind->dtype, in->sizes[first + (uint32_t)(i % k)], bad));
    }
    if (mode == INDICES_BAD)
        c->expect = TMV_ERR_INDEX_OUT_OF_RANGE;
    if (mode == INDICES_CLAMPED)
        c->op.flags |= TMV_OP_FLAG_CLAMP_INDICES;
}

/* Maps, fills and seals (read-only) every input; GATHER_ND's indices per
 * `mode` (INDICES_*). Frees c and returns NULL when a mapping fails. */
static cg_case *finish(cg_case *c, cg_rng *rng, int mode)
{
    bool ok = true;
    for (uint32_t i = 0; i < c->input_count && ok; i++) {
        cg_region *r = &c->inputs[i];
        const tmv_tensor_desc *t = &c->tensors[i];
        const bool sparse = is_sparse(t);
        ok = cg_map_input(r, cg_extent_bytes(t), sparse, !sparse && cg_rng_chance(rng, 50));
        if (ok && sparse)
            ok = sparse_elements(r, t, PROT_READ | PROT_WRITE, rng);
        else if (ok)
            fill_random(rng, r);
    }
    if (ok && c->op.type == TMV_OP_GATHER_ND)
        fill_indices(rng, c, mode);
    for (uint32_t i = 0; i < c->input_count && ok; i++) {
        cg_region *r = &c->inputs[i];
        if (is_sparse(&c->tensors[i]))
            ok = sparse_elements(r, &c->tensors[i], PROT_READ, NULL);
        else
            ok = cg_seal_input(r);
        c->in_ptrs[i] = r->data;
    }
    if (!ok) {
        cg_case_free(c);
        return NULL;
    }
    return c;
}

/* ------------------------------------------------------------ families */

/* How a rows case lays out its tensors: packed; padded (the joined and
 * piece rows have gaps after them); or packed but for JOIN's first piece,
 * whose rows are one row broadcast (0 apart: a kernel's reach past a row
 * leaves the tensor). */
typedef enum rows_layout { ROWS_PACKED, ROWS_PADDED, ROWS_BROADCAST_FIRST, ROWS_LAYOUTS } rows_layout;

/* Row-wise JOIN / SPLIT: `pieces` pieces of `bytes` bytes per row, `rows`
 * rows, laid out as `how` says. */
static cg_case *rows_case(uint64_t seed, cg_rng *rng, bool join, uint32_t pieces, uint32_t bytes,
                          uint32_t rows, rows_layout how)
{
    const bool padded = how == ROWS_PADDED, broadcast = join && how == ROWS_BROADCAST_FIRST;
    cg_case *c = case_new(join ? TMV_OP_JOIN : TMV_OP_SPLIT, seed);
    if (c == NULL)
        return NULL;
    const tmv_dtype dtype = dtype_dividing(rng, bytes);
    const uint32_t w = bytes / (uint32_t)cg_dtype_size(dtype);
    const uint32_t whole = join ? pieces : 0, first = join ? 0 : 1;
    const char *layout = padded ? "padded rows" : "packed (strides NULL)";
    tensor(c, whole, dtype, 2, (uint32_t[]){rows, pieces * w}, padded ? (uint32_t[]){pieces * w + 3, 1} : NULL,
           layout);
    for (uint32_t p = 0; p < pieces; p++) {
        if (broadcast && p == 0)
            tensor(c, first, dtype, 2, (uint32_t[]){rows, w}, (uint32_t[]){0, 1}, "broadcast rows");
        else
            tensor(c, first + p, dtype, 2, (uint32_t[]){rows, w}, padded ? (uint32_t[]){w + 1 + p % 2, 1} : NULL,
                   layout);
    }
    c->all_packed = !padded && !broadcast;
    c->input_count = join ? pieces : 1;
    c->output_count = join ? 1 : pieces;
    c->join = (tmv_join_desc){pieces, &c->tensors[0], &c->tensors[pieces], 1};
    c->split = (tmv_split_desc){&c->tensors[0], pieces, &c->tensors[1], 1};
    c->op.desc = join ? (const void *)&c->join : (const void *)&c->split;
    return finish(c, rng, INDICES_GOOD);
}

/* Equal short pieces: 2..16 of them, 1..256 bytes (the widest the column
 * kernels take; 3, 5, 6 and 7 for the padded networks), over 1 to 1000
 * rows (one block of rows, a block and one or two more, many: with 65 and
 * 66 rows the padded networks' last 16-byte access ends on the call's last
 * byte for pieces of 6 or 7 bytes and of 3 or 5). */
static const uint32_t ROWS_COUNTS[] = {2, 3, 4, 5, 6, 7, 8, 12, 16};
static const uint32_t ROWS_BYTES[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 64, 65, 100, 192, 256};
static const uint32_t ROWS_ROWS[] = {1, 7, 64, 65, 66, 300, 1000};
#define ROWS_GEOMETRIES (2ull * N_OF(ROWS_COUNTS) * N_OF(ROWS_BYTES) * N_OF(ROWS_ROWS) * ROWS_LAYOUTS)

static cg_case *rows_family(uint64_t g, uint64_t seed, cg_rng *rng)
{
    bool join = digit(&g, 2) == 0;
    uint32_t pieces = ROWS_COUNTS[digit(&g, N_OF(ROWS_COUNTS))];
    uint32_t bytes = ROWS_BYTES[digit(&g, N_OF(ROWS_BYTES))];
    uint32_t rows = ROWS_ROWS[digit(&g, N_OF(ROWS_ROWS))];
    return rows_case(seed, rng, join, pieces, bytes, rows, (rows_layout)digit(&g, ROWS_LAYOUTS));
}

/* Long pieces: 4 KiB and more per row. */
static const uint32_t LONG_BYTES[] = {4096, 4100, 8256};
#define LONG_GEOMETRIES (2ull * 2 * N_OF(LONG_BYTES) * 2)

static cg_case *long_rows_family(uint64_t g, uint64_t seed, cg_rng *rng)
{
    bool join = digit(&g, 2) == 0;
    uint32_t pieces = 2 + digit(&g, 2);
    uint32_t bytes = LONG_BYTES[digit(&g, N_OF(LONG_BYTES))];
    return rows_case(seed, rng, join, pieces, bytes, digit(&g, 2) ? 3 : 1, ROWS_PACKED);
}

/* TILE of {H, p bytes} by {1, R}: each output row is R copies of a period
 * of p bytes, p = 1..64 and some longer ones. */
static const uint32_t TILE_LONG[] = {65, 96, 100, 128, 200, 1000};
static const uint32_t TILE_REPEATS[] = {2, 5, 37, 67, 300};
#define TILE_PERIODS (64 + N_OF(TILE_LONG))
#define TILE_GEOMETRIES ((uint64_t)TILE_PERIODS * N_OF(TILE_REPEATS) * 2)

static cg_case *tile_family(uint64_t g, uint64_t seed, cg_rng *rng)
{
    uint32_t pi = digit(&g, TILE_PERIODS), p = pi < 64 ? pi + 1 : TILE_LONG[pi - 64];
    uint32_t repeats = TILE_REPEATS[digit(&g, N_OF(TILE_REPEATS))];
    uint32_t h = digit(&g, 2) ? 4 : 1;
    cg_case *c = case_new(TMV_OP_TILE, seed);
    if (c == NULL)
        return NULL;
    const tmv_dtype dtype = dtype_dividing(rng, p);
    const uint32_t w = p / (uint32_t)cg_dtype_size(dtype);
    const bool padded = h > 1 && p % 2 == 1;
    c->repeats[0] = 1;
    c->repeats[1] = repeats;
    tensor(c, 0, dtype, 2, (uint32_t[]){h, w}, NULL, "packed (strides NULL)");
    tensor(c, 1, dtype, 2, (uint32_t[]){h, w * repeats}, padded ? (uint32_t[]){w * repeats + 5, 1} : NULL,
           padded ? "padded rows" : "packed (strides NULL)");
    c->input_count = c->output_count = 1;
    c->tile = (tmv_tile_desc){&c->tensors[0], &c->tensors[1], 2, c->repeats};
    c->op.desc = &c->tile;
    return finish(c, rng, INDICES_GOOD);
}

/* SPACE_TO_DEPTH / DEPTH_TO_SPACE: element widths 1..8 bytes, B = 2, 3, 4,
 * 8, both orders, plane rows x of a few elements up to long ones (a 16-,
 * 32- or 64-byte block row, a vector, several), short or tall planes; NCHW
 * packed, or NHWC (channels innermost, a strided description) with 3
 * channels, where each pixel's block is a short transpose of B x C
 * elements: the shapes that make a per-block cost visible. */
static const uint32_t DS_WIDTHS[] = {1, 2, 4, 8};
static const uint32_t DS_BLOCKS[] = {2, 3, 4, 8};
#define DS_XS 10
#define DS_GEOMETRIES (2ull * 2 * N_OF(DS_WIDTHS) * N_OF(DS_BLOCKS) * DS_XS * 2 * 2)

static uint32_t ds_x(uint32_t i, uint32_t w, uint32_t b)
{
    const uint32_t xs[DS_XS] = {1, 3, 7, 16 / (b * w), 64 / (b * w), 16 / w, 32 / w + 3, 64 / w, 256 / w + 5, 1024 / w};
    return xs[i] ? xs[i] : 1;
}

/* The strides of an NCHW-sized tensor stored NHWC. */
static void nhwc_strides(const uint32_t sizes[4], uint32_t strides[4])
{
    strides[1] = 1;
    strides[3] = sizes[1];
    strides[2] = sizes[1] * sizes[3];
    strides[0] = strides[2] * sizes[2];
}

static cg_case *depth_space_family(uint64_t g, uint64_t seed, cg_rng *rng)
{
    const bool to_depth = digit(&g, 2) == 0;
    const tmv_depth_space_order order = (tmv_depth_space_order)digit(&g, 2);
    const uint32_t w = DS_WIDTHS[digit(&g, N_OF(DS_WIDTHS))], b = DS_BLOCKS[digit(&g, N_OF(DS_BLOCKS))];
    const uint32_t x = ds_x(digit(&g, DS_XS), w, b);
    const bool tall = digit(&g, 2) == 1, nhwc = digit(&g, 2) == 1;
    /* tall planes: 40 rows (3 of the longest), one image and channel (NHWC:
     * three); else 2 of each */
    const uint32_t h = tall ? (x * w >= 1024 ? 3 : 40) : 2, ch = tall ? (nhwc ? 3 : 1) : 2, n = tall ? 1 : 2;
    cg_case *c = case_new(to_depth ? TMV_OP_SPACE_TO_DEPTH : TMV_OP_DEPTH_TO_SPACE, seed);
    if (c == NULL)
        return NULL;
    const tmv_dtype dtype = dtype_of_width(rng, w);
    const uint32_t space[4] = {n, ch, h * b, x * b}, depth[4] = {n, ch * b * b, h, x};
    uint32_t space_strides[4], depth_strides[4];
    nhwc_strides(space, space_strides);
    nhwc_strides(depth, depth_strides);
    const char *layout = nhwc ? "NHWC (channels innermost)" : "packed (strides NULL)";
    tensor(c, 0, dtype, 4, to_depth ? space : depth, !nhwc ? NULL : to_depth ? space_strides : depth_strides, layout);
    tensor(c, 1, dtype, 4, to_depth ? depth : space, !nhwc ? NULL : to_depth ? depth_strides : space_strides, layout);
    c->all_packed = !nhwc;
    c->input_count = c->output_count = 1;
    c->space_to_depth = (tmv_space_to_depth_desc){&c->tensors[0], &c->tensors[1], b, order};
    c->depth_to_space = (tmv_depth_to_space_desc){&c->tensors[0], &c->tensors[1], b, order};
    c->op.desc = to_depth ? (const void *)&c->space_to_depth : (const void *)&c->depth_to_space;
    return finish(c, rng, INDICES_GOOD);
}

/* A transposing copy: TILE by ones of {batch, M, N} where one side is
 * column-major per matrix (M fastest), padded or not; the last size pair
 * makes a matrix of 1 MiB. */
static const uint32_t TR_SIZES[][2] = {{8, 8}, {16, 16}, {9, 40}, {40, 9}, {33, 65}, {64, 64}, {100, 300}, {1024, 0}};
#define TR_GEOMETRIES (4ull * N_OF(TR_SIZES) * 2 * 2 * 2)

static cg_case *transpose_family(uint64_t g, uint64_t seed, cg_rng *rng)
{
    const uint32_t w = DS_WIDTHS[digit(&g, N_OF(DS_WIDTHS))];
    const uint32_t si = digit(&g, N_OF(TR_SIZES)), m = TR_SIZES[si][0];
    const uint32_t nn = TR_SIZES[si][1] ? TR_SIZES[si][1] : 1024 / w;
    const uint32_t batch = digit(&g, 2) && TR_SIZES[si][1] ? 3 : 1, pad = digit(&g, 2) ? 3 : 0;
    const bool out_permuted = digit(&g, 2) == 1;
    cg_case *c = case_new(TMV_OP_TILE, seed);
    if (c == NULL)
        return NULL;
    const tmv_dtype dtype = dtype_of_width(rng, w);
    const uint32_t sizes[3] = {batch, m, nn};
    const uint32_t column_major[3] = {(m + pad) * nn + pad, 1, m + pad};
    const uint32_t row_padded[3] = {m * (nn + pad), nn + pad, 1};
    tensor(c, 0, dtype, 3, sizes, out_permuted ? (pad ? row_padded : NULL) : column_major,
           out_permuted ? (pad ? "padded" : "packed (strides NULL)") : "permuted (column-major)");
    tensor(c, 1, dtype, 3, sizes, out_permuted ? column_major : (pad ? row_padded : NULL),
           out_permuted ? "permuted (column-major)" : (pad ? "padded" : "packed (strides NULL)"));
    c->repeats[0] = c->repeats[1] = c->repeats[2] = 1;
    c->input_count = c->output_count = 1;
    c->tile = (tmv_tile_desc){&c->tensors[0], &c->tensors[1], 3, c->repeats};
    c->op.desc = &c->tile;
    return finish(c, rng, INDICES_GOOD);
}

/* GATHER_ND: rows of 3 bytes to 4 KiB selected by one index (those under
 * 16 bytes that are not one element: the row kernels' scalar moves), or single
 * elements of 1..8 bytes selected by k = 1..8 indices; 1, 9 or 200 tuples;
 * each index type; indices in range, some bad, or some clamped. */
static const uint32_t GATHER_ROWS[] = {3, 6, 12, 15, 16, 24, 32, 48, 64, 100, 128, 256, 1000, 4096};
static const uint32_t GATHER_TUPLES[] = {1, 9, 200};
static const tmv_dtype GATHER_INDEX_TYPES[] = {TMV_DTYPE_INT32, TMV_DTYPE_INT64, TMV_DTYPE_UINT32,
                                               TMV_DTYPE_UINT64};
static const uint32_t GATHER_DIMS[TMV_MAX_DIMS] = {5, 7, 3, 6, 4, 2, 3, 2};
#define GATHER_KINDS (N_OF(GATHER_ROWS) + 4 * TMV_MAX_DIMS)
#define GATHER_GEOMETRIES ((uint64_t)GATHER_KINDS * N_OF(GATHER_TUPLES) * 4 * INDEX_MODES)

/* The GATHER_ND case: input in[n] (strides in_strides, or NULL for packed),
 * r = k + trailing dims, k indices per tuple, t tuples, output out[n]. */
static cg_case *gather_case(uint64_t seed, cg_rng *rng, tmv_dtype dtype, uint32_t n, const uint32_t *in,
                            const uint32_t *in_strides, uint32_t r, uint32_t k, uint32_t t, const uint32_t *out,
                            tmv_dtype index_type, int mode)
{
    cg_case *c = case_new(TMV_OP_GATHER_ND, seed);
    if (c == NULL)
        return NULL;
    uint32_t ind[TMV_MAX_DIMS];
    for (uint32_t d = 0; d < n; d++)
        ind[d] = 1;
    ind[n - 2] = t;
    ind[n - 1] = k;
    tensor(c, 0, dtype, n, in, in_strides, in_strides ? "strided (a dim 2 GiB apart)" : "packed (strides NULL)");
    tensor(c, 1, index_type, n, ind, NULL, "packed (strides NULL)");
    tensor(c, 2, dtype, n, out, NULL, "packed (strides NULL)");
    c->input_count = 2;
    c->output_count = 1;
    c->gather_nd = (tmv_gather_nd_desc){&c->tensors[0], &c->tensors[1], &c->tensors[2], r, 2, 0};
    c->op.desc = &c->gather_nd;
    c->options.bad_index_percent = mode == INDICES_BAD ? 100 : 0;
    c->options.clamp_percent = mode == INDICES_CLAMPED ? 100 : 0;
    return finish(c, rng, mode);
}

static cg_case *gather_family(uint64_t g, uint64_t seed, cg_rng *rng)
{
    const uint32_t kind = digit(&g, GATHER_KINDS), t = GATHER_TUPLES[digit(&g, N_OF(GATHER_TUPLES))];
    const tmv_dtype index_type = GATHER_INDEX_TYPES[digit(&g, 4)];
    const int mode = (int)digit(&g, INDEX_MODES);
    if (kind < N_OF(GATHER_ROWS)) {   /* input {50, S}, one index: rows of S elements */
        const tmv_dtype dtype = dtype_dividing(rng, GATHER_ROWS[kind]);
        const uint32_t s = GATHER_ROWS[kind] / (uint32_t)cg_dtype_size(dtype);
        return gather_case(seed, rng, dtype, 2, (uint32_t[]){50, s}, NULL, 2, 1, t, (uint32_t[]){t, s},
                           index_type, mode);
    }
    /* k indices select one element */
    const tmv_dtype dtype = dtype_of_width(rng, DS_WIDTHS[(kind - N_OF(GATHER_ROWS)) / TMV_MAX_DIMS]);
    const uint32_t k = 1 + (kind - N_OF(GATHER_ROWS)) % TMV_MAX_DIMS, n = k > 2 ? k : 2;
    uint32_t in[TMV_MAX_DIMS], out[TMV_MAX_DIMS];
    for (uint32_t d = 0; d < n; d++)
        in[d] = out[d] = 1;
    for (uint32_t j = 0; j < k; j++)
        in[n - k + j] = GATHER_DIMS[j];
    out[n - 1] = t;
    return gather_case(seed, rng, dtype, n, in, NULL, k, k, t, out, index_type, mode);
}

/* GATHER_ND of single 4- or 8-byte elements by k = 1..4 indices from an
 * input whose first indexed dim has 2 elements 2 GiB apart: offsets past 32
 * bits, in an input of just over 2 GiB of which only the elements' pages are
 * mapped in. */
static const uint32_t FAR_TUPLES[] = {9, 200};
#define FAR_GEOMETRIES (2ull * 4 * N_OF(FAR_TUPLES) * 4 * INDEX_MODES)

static cg_case *gather_far_family(uint64_t g, uint64_t seed, cg_rng *rng)
{
    const uint32_t w = digit(&g, 2) ? 8 : 4, k = 1 + digit(&g, 4), t = FAR_TUPLES[digit(&g, N_OF(FAR_TUPLES))];
    const tmv_dtype index_type = GATHER_INDEX_TYPES[digit(&g, 4)];
    const int mode = (int)digit(&g, INDEX_MODES);
    const uint32_t n = k > 2 ? k : 2;
    uint32_t in[TMV_MAX_DIMS], strides[TMV_MAX_DIMS], out[TMV_MAX_DIMS];
    for (uint32_t d = 0; d < n; d++)
        in[d] = out[d] = strides[d] = 1;
    uint32_t packed = 1;
    for (uint32_t j = k; j-- > 0;) {   /* dim 0: 2 elements 2 GiB apart */
        in[n - k + j] = j == 0 ? 2 : GATHER_DIMS[j];
        strides[n - k + j] = j == 0 ? (1u << 31) / w : packed;
        packed *= GATHER_DIMS[j];
    }
    out[n - 1] = t;
    return gather_case(seed, rng, dtype_of_width(rng, w), n, in, strides, k, k, t, out, index_type, mode);
}

/* ------------------------------------------------------------ the table */

typedef struct family_def {
    const char *name;
    uint64_t    geometries;
    cg_case *(*build)(uint64_t geometry, uint64_t seed, cg_rng *rng);
} family_def;

static const family_def FAMILIES[] = {
    {"rows", ROWS_GEOMETRIES, rows_family},
    {"long_rows", LONG_GEOMETRIES, long_rows_family},
    {"tile", TILE_GEOMETRIES, tile_family},
    {"depth_space", DS_GEOMETRIES, depth_space_family},
    {"transpose", TR_GEOMETRIES, transpose_family},
    {"gather", GATHER_GEOMETRIES, gather_family},
    {"gather_far", FAR_GEOMETRIES, gather_far_family},
};

uint32_t cg_directed_family_count(void)
{
    return N_OF(FAMILIES);
}

const char *cg_directed_family_name(uint32_t family)
{
    return family < N_OF(FAMILIES) ? FAMILIES[family].name : "unknown";
}

uint64_t cg_directed_geometry_count(uint32_t family)
{
    return family < N_OF(FAMILIES) ? FAMILIES[family].geometries : 0;
}

cg_case *cg_directed_case_new(uint32_t family, uint64_t geometry, uint64_t seed)
{
    if (family >= N_OF(FAMILIES) || geometry >= FAMILIES[family].geometries)
        return NULL;
    cg_rng rng = {seed ^ 0x6A09E667F3BCC909ull};
    cg_rng_next(&rng);
    return FAMILIES[family].build(geometry, seed, &rng);
}
