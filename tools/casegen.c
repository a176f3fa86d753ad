/* casegen.c - deterministic random operator cases, guarded input buffers and canary-banded outputs. */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, sysconf, fmemopen */
#include "casegen.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "op.h"
#include "reference/reference.h"

/* ------------------------------------------------------------------ rng */

uint64_t cg_rng_next(cg_rng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

uint64_t cg_rng_below(cg_rng *rng, uint64_t bound)
{
    return bound == 0 ? 0 : cg_rng_next(rng) % bound; /* the bias is irrelevant for tests */
}

bool cg_rng_chance(cg_rng *rng, unsigned percent)
{
    return cg_rng_below(rng, 100) < percent;
}

/* A generator for one purpose of one case, so that drawing more numbers for
 * one purpose never shifts another (the output placement must not depend on
 * how many numbers the shape took). */
static cg_rng rng_for(uint64_t seed, uint64_t purpose)
{
    cg_rng rng = {seed ^ (purpose * 0xD1B54A32D192ED03u)};
    cg_rng_next(&rng);
    return rng;
}

enum { PURPOSE_SHAPE = 1, PURPOSE_DATA = 2, PURPOSE_OUTPUTS = 3, PURPOSE_PLACEMENT = 4 };

/* -------------------------------------------------------------- basics */

cg_options cg_default_options(void)
{
    cg_options o = {4096, 3, 0, 0};
    return o;
}

/* Its own table, not tmv_dtype_size: the cases that test the library do not
 * take their sizes from it. */
static const struct {
    const char *name;
    size_t      size;
} dtypes[] = {
    [TMV_DTYPE_FLOAT32] = {"FLOAT32", 4}, [TMV_DTYPE_FLOAT16] = {"FLOAT16", 2}, [TMV_DTYPE_UINT32] = {"UINT32", 4},
    [TMV_DTYPE_UINT16] = {"UINT16", 2},   [TMV_DTYPE_UINT8] = {"UINT8", 1},     [TMV_DTYPE_INT32] = {"INT32", 4},
    [TMV_DTYPE_INT16] = {"INT16", 2},     [TMV_DTYPE_INT8] = {"INT8", 1},       [TMV_DTYPE_FLOAT64] = {"FLOAT64", 8},
    [TMV_DTYPE_UINT64] = {"UINT64", 8},   [TMV_DTYPE_INT64] = {"INT64", 8},
};

static bool dtype_known(tmv_dtype dtype)
{
    return dtype >= TMV_DTYPE_FLOAT32 && dtype <= TMV_DTYPE_INT64;
}

size_t cg_dtype_size(tmv_dtype dtype)
{
    return dtype_known(dtype) ? dtypes[dtype].size : 0;
}

const char *cg_dtype_name(tmv_dtype dtype)
{
    return dtype_known(dtype) ? dtypes[dtype].name : "unknown";
}

static const char *const op_names[] = {"?", "join", "split", "tile", "space_to_depth",
                                       "depth_to_space", "gather_nd"};

const char *cg_op_name(tmv_op_type type)
{
    return type >= TMV_OP_JOIN && type <= TMV_OP_GATHER_ND ? op_names[type] : "unknown";
}

bool cg_op_from_name(const char *name, tmv_op_type *type)
{
    for (int t = TMV_OP_JOIN; t <= TMV_OP_GATHER_ND; t++)
        if (strcmp(name, op_names[t]) == 0) {
            *type = (tmv_op_type)t;
            return true;
        }
    return false;
}

size_t cg_extent_bytes(const tmv_tensor_desc *t)
{
    uint64_t last = 0, stride = 1;
    for (uint32_t d = t->dim_count; d-- > 0;) {
        if (t->sizes[d] == 0)
            return 0;
        uint64_t s = t->strides ? t->strides[d] : stride;
        if (t->sizes[d] > 1)
            last += (uint64_t)(t->sizes[d] - 1) * s;
        stride *= t->sizes[d];
    }
    return (size_t)((last + 1) * cg_dtype_size(t->dtype));
}

const tmv_tensor_desc *cg_case_output(const cg_case *c, uint32_t o)
{
    return &c->tensors[c->input_count + o];
}

/* --------------------------------------------------------------- shapes */

static tmv_dtype random_dtype(cg_rng *rng)
{
    return (tmv_dtype)(1 + cg_rng_below(rng, 11));
}

/* Sizes around the vector widths kernels care about: exactly 16, 32 or 64
 * bytes of elements, one less, one more, or 1..2 such tiles. */
static uint32_t edge_inner_size(cg_rng *rng, size_t elem_size)
{
    static const uint32_t widths[] = {16, 32, 64};
    uint32_t n = widths[cg_rng_below(rng, 3)] / (uint32_t)elem_size;
    switch (cg_rng_below(rng, 4)) {
    case 0: return n - 1 > 0 ? n - 1 : 1;
    case 1: return n;
    case 2: return n + 1;
    default: return n + 1 + (uint32_t)cg_rng_below(rng, n);
    }
}

static uint32_t small_size(cg_rng *rng)
{
    return cg_rng_chance(rng, 25) ? 1 : 1 + (uint32_t)cg_rng_below(rng, 6);
}

/* Halves the largest of the `count` sizes pointed to until their product
 * times `factor` is within budget (sizes never drop below 1 here). */
static void shrink_to_budget(uint32_t *const *dims, uint32_t count, uint64_t factor, uint64_t budget)
{
    for (;;) {
        uint64_t product = factor;
        uint32_t largest = 0;
        for (uint32_t i = 0; i < count; i++) {
            product *= *dims[i];
            if (*dims[largest] < *dims[i])
                largest = i;
        }
        if (product <= budget || count == 0 || *dims[largest] <= 1)
            return;
        *dims[largest] /= 2;
    }
}

/* A rank-n shape within budget: small outer sizes, an inner size that is
 * often an edge size. */
static void random_shape(cg_rng *rng, uint32_t n, size_t elem_size, uint64_t budget, uint32_t *sizes)
{
    uint32_t *dims[TMV_MAX_DIMS];
    for (uint32_t d = 0; d < n; d++) {
        sizes[d] = small_size(rng);
        dims[d] = &sizes[d];
    }
    if (cg_rng_chance(rng, 50))
        sizes[n - 1] = edge_inner_size(rng, elem_size);
    else if (cg_rng_chance(rng, 30))
        sizes[n - 1] = 1 + (uint32_t)cg_rng_below(rng, 40);
    shrink_to_budget(dims, n, 1, budget);
}

static void maybe_empty(cg_rng *rng, const cg_options *o, uint32_t n, uint32_t *sizes)
{
    if (cg_rng_chance(rng, o->empty_percent))
        sizes[cg_rng_below(rng, n)] = 0;
}

/* -------------------------------------------------------------- layouts */

typedef enum layout_use { FOR_OUTPUT, FOR_INPUT, FOR_INDICES } layout_use;

/* Strides that place the dims in `order` (innermost last), each row `gap`
 * elements past the end of the one inside it when padding is on. */
static void nested_strides(cg_rng *rng, uint32_t n, const uint32_t *sizes, const uint32_t *order,
                           bool padded, uint32_t *strides)
{
    uint64_t span = 1;
    for (uint32_t i = n; i-- > 0;) {
        uint32_t d = order[i];
        uint64_t gap = padded && cg_rng_chance(rng, 60) ? 1 + cg_rng_below(rng, 5) : 0;
        strides[d] = (uint32_t)(span + gap);
        span = (span + gap) * (sizes[d] ? sizes[d] : 1);
    }
}

/* The stride of a size-1 dimension is ignored (docs/SPEC.md 1): make it garbage
 * now and then, so an implementation that reads it shows. */
static void garble_unit_strides(cg_rng *rng, uint32_t n, const uint32_t *sizes, uint32_t *strides)
{
    for (uint32_t d = 0; d < n; d++)
        if (sizes[d] == 1 && cg_rng_chance(rng, 40))
            strides[d] = (uint32_t)cg_rng_next(rng);
}

static void random_permutation(cg_rng *rng, uint32_t n, uint32_t *order)
{
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    for (uint32_t i = n; i-- > 1;) {
        uint32_t j = (uint32_t)cg_rng_below(rng, i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

/* Picks strides for tensor t of the case. Outputs get injective layouts
 * (packed, padded, permuted); inputs may also broadcast (0 strides) or use
 * arbitrary small strides that alias; indices never alias within a tuple,
 * so every element read as tuple entry j is written as one. */
static void random_layout(cg_rng *rng, cg_case *c, uint32_t t, layout_use use)
{
    tmv_tensor_desc *desc = &c->tensors[t];
    uint32_t n = desc->dim_count, *strides = c->strides[t], order[TMV_MAX_DIMS];
    const uint32_t *sizes = c->sizes[t];
    unsigned kinds = use == FOR_OUTPUT ? 4 : use == FOR_INDICES ? 5 : 6;
    unsigned kind = (unsigned)cg_rng_below(rng, kinds);
    random_permutation(rng, n, order);
    if (kind == 0) {
        desc->strides = NULL;
        c->layouts[t] = "packed (strides NULL)";
        return;
    }
    desc->strides = strides;
    for (uint32_t d = 0; d < n; d++)
        order[d] = kind >= 3 ? order[d] : d;
    nested_strides(rng, n, sizes, order, kind == 2 || (kind >= 3 && cg_rng_chance(rng, 50)), strides);
    c->layouts[t] = kind == 1 ? "packed" : kind == 2 ? "padded" : "permuted";
    if (kind == 4) {
        for (uint32_t d = 0; d < n; d++)
            if (cg_rng_chance(rng, 40) && !(use == FOR_INDICES && d == n - 1))
                strides[d] = 0;
        c->layouts[t] = "broadcast";
    } else if (kind == 5) {
        for (uint32_t d = 0; d < n; d++)
            strides[d] = (uint32_t)cg_rng_below(rng, 8);
        c->layouts[t] = "arbitrary (aliasing)";
    }
    garble_unit_strides(rng, n, sizes, strides);
}

/* Declares tensor t: dtype, rank and sizes (copied into the case). */
static void set_tensor(cg_case *c, uint32_t t, tmv_dtype dtype, uint32_t n, const uint32_t *sizes)
{
    memcpy(c->sizes[t], sizes, n * sizeof *sizes);
    c->tensors[t].dtype = dtype;
    c->tensors[t].dim_count = n;
    c->tensors[t].sizes = c->sizes[t];
    c->tensors[t].strides = NULL;
}

static void random_layouts(cg_rng *rng, cg_case *c)
{
    for (uint32_t t = 0; t < c->input_count + c->output_count; t++) {
        if (c->all_packed) {
            c->layouts[t] = "packed (strides NULL)";
            continue;
        }
        bool is_indices = c->op.type == TMV_OP_GATHER_ND && t == 1;
        random_layout(rng, c, t, t >= c->input_count ? FOR_OUTPUT : is_indices ? FOR_INDICES : FOR_INPUT);
    }
}

/* ---------------------------------------------------- operator builders */

/* Piece sizes along the axis for a row-wise JOIN / SPLIT (the shape the
 * interleave kernels take): equal short pieces, or short mixed ones. */
static void row_piece_sizes(cg_rng *rng, uint32_t pieces, uint32_t *sizes)
{
    uint32_t equal = 1 + (uint32_t)cg_rng_below(rng, 4);
    bool mixed = cg_rng_chance(rng, 30);
    for (uint32_t k = 0; k < pieces; k++)
        sizes[k] = mixed ? 1 + (uint32_t)cg_rng_below(rng, 8) : equal;
}

/* JOIN and SPLIT: the whole side and up to 16 pieces along `axis` (some of
 * size 0); the pieces go first for JOIN, the whole first for SPLIT. A third
 * of the cases are row-wise: every tensor packed, the axis innermost and the
 * pieces short, as in concatenating channels of NHWC data. */
static void build_join_split(cg_rng *rng, cg_case *c, bool is_join)
{
    static const uint32_t row_piece_counts[] = {2, 3, 4, 5, 8, 16};
    const cg_options *o = &c->options;
    const bool rows = cg_rng_chance(rng, 35);
    uint32_t n = 1 + (uint32_t)cg_rng_below(rng, 8), axis = rows ? n - 1 : (uint32_t)cg_rng_below(rng, n);
    uint32_t pieces = rows ? row_piece_counts[cg_rng_below(rng, 6)] : 1 + (uint32_t)cg_rng_below(rng, 9);
    uint32_t whole[TMV_MAX_DIMS], piece_sizes[CG_MAX_PIECES], total = 0, row_total = 0;
    tmv_dtype dtype = random_dtype(rng);
    if (rows)
        row_piece_sizes(rng, pieces, piece_sizes);
    for (uint32_t k = 0; rows && k < pieces; k++)
        row_total += piece_sizes[k];
    random_shape(rng, n, cg_dtype_size(dtype), rows ? o->max_elements / row_total : o->max_elements, whole);
    maybe_empty(rng, o, n, whole);
    uint64_t across = 1;
    for (uint32_t d = 0; d < n; d++)
        across *= d == axis ? 1 : whole[d];
    uint64_t per_piece = o->max_elements / (across ? across : 1) / pieces;
    for (uint32_t k = 0; k < pieces; k++) {
        if (!rows)
            piece_sizes[k] = cg_rng_chance(rng, 15) ? 0 : 1 + (uint32_t)cg_rng_below(rng, per_piece ? per_piece : 1);
        total += piece_sizes[k];
    }
    c->all_packed = rows;
    uint32_t whole_index = is_join ? pieces : 0, first_piece = is_join ? 0 : 1;
    whole[axis] = total;
    set_tensor(c, whole_index, dtype, n, whole);
    for (uint32_t k = 0; k < pieces; k++) {
        whole[axis] = piece_sizes[k];
        set_tensor(c, first_piece + k, dtype, n, whole);
    }
    c->input_count = is_join ? pieces : 1;
    c->output_count = is_join ? 1 : pieces;
    c->join = (tmv_join_desc){pieces, &c->tensors[0], &c->tensors[pieces], axis};
    c->split = (tmv_split_desc){&c->tensors[0], pieces, &c->tensors[1], axis};
    c->op.desc = is_join ? (const void *)&c->join : (const void *)&c->split;
}

static void build_tile(cg_rng *rng, cg_case *c)
{
    const cg_options *o = &c->options;
    uint32_t n = 1 + (uint32_t)cg_rng_below(rng, 8), in[TMV_MAX_DIMS], out[TMV_MAX_DIMS];
    tmv_dtype dtype = random_dtype(rng);
    uint64_t growth = 1;
    for (uint32_t d = 0; d < n; d++) {
        c->repeats[d] = cg_rng_chance(rng, 2) ? 0 : 1 + (uint32_t)cg_rng_below(rng, 4);
        growth *= c->repeats[d] ? c->repeats[d] : 1;
    }
    uint64_t budget = o->max_elements / growth;
    random_shape(rng, n, cg_dtype_size(dtype), budget ? budget : 1, in);
    maybe_empty(rng, o, n, in);
    for (uint32_t d = 0; d < n; d++)
        out[d] = in[d] * c->repeats[d];
    set_tensor(c, 0, dtype, n, in);
    set_tensor(c, 1, dtype, n, out);
    c->input_count = c->output_count = 1;
    c->tile = (tmv_tile_desc){&c->tensors[0], &c->tensors[1], n, c->repeats};
    c->op.desc = &c->tile;
}

/* Space {N, C, h*B, w*B} and depth {N, C*B*B, h, w}; SPACE_TO_DEPTH reads the
 * first, DEPTH_TO_SPACE the second. */
static void build_depth_space(cg_rng *rng, cg_case *c, bool to_depth)
{
    static const uint32_t blocks[] = {1, 2, 3, 4, 8};
    const cg_options *o = &c->options;
    uint32_t block = blocks[cg_rng_below(rng, 5)];
    tmv_depth_space_order order = (tmv_depth_space_order)cg_rng_below(rng, 2);
    tmv_dtype dtype = random_dtype(rng);
    uint32_t nchw[4] = {1 + (uint32_t)cg_rng_below(rng, 2), 1 + (uint32_t)cg_rng_below(rng, 5),
                        1 + (uint32_t)cg_rng_below(rng, 5), 1 + (uint32_t)cg_rng_below(rng, 6)};
    if (cg_rng_chance(rng, 30))
        nchw[3] = edge_inner_size(rng, cg_dtype_size(dtype)); /* wide rows on the small side */
    uint32_t *dims[4] = {&nchw[0], &nchw[1], &nchw[2], &nchw[3]};
    shrink_to_budget(dims, 4, (uint64_t)block * block, o->max_elements);
    maybe_empty(rng, o, 4, nchw);
    uint32_t space[4] = {nchw[0], nchw[1], nchw[2] * block, nchw[3] * block};
    uint32_t depth[4] = {nchw[0], nchw[1] * block * block, nchw[2], nchw[3]};
    set_tensor(c, 0, dtype, 4, to_depth ? space : depth);
    set_tensor(c, 1, dtype, 4, to_depth ? depth : space);
    c->input_count = c->output_count = 1;
    c->space_to_depth = (tmv_space_to_depth_desc){&c->tensors[0], &c->tensors[1], block, order};
    c->depth_to_space = (tmv_depth_to_space_desc){&c->tensors[0], &c->tensors[1], block, order};
    c->op.desc = to_depth ? (const void *)&c->space_to_depth : (const void *)&c->depth_to_space;
}

/* GATHER_ND's dimension counts: n, r, q, b, k with (q-1) + (r-b-k) <= n. */
static void gather_ranks(cg_rng *rng, uint32_t *n, uint32_t *r, uint32_t *q, uint32_t *b, uint32_t *k)
{
    for (;;) {
        *n = 1 + (uint32_t)cg_rng_below(rng, 8);
        *r = 1 + (uint32_t)cg_rng_below(rng, *n);
        *q = 1 + (uint32_t)cg_rng_below(rng, *n);
        *b = (uint32_t)cg_rng_below(rng, *r < *q ? *r : *q);
        *k = 1 + (uint32_t)cg_rng_below(rng, *r - *b);
        if ((*q - 1) + (*r - *b - *k) <= *n)
            return;
    }
}

static void build_gather_nd(cg_rng *rng, cg_case *c)
{
    static const tmv_dtype index_types[] = {TMV_DTYPE_INT32, TMV_DTYPE_INT64, TMV_DTYPE_UINT32,
                                            TMV_DTYPE_UINT64};
    const cg_options *o = &c->options;
    uint32_t n, r, q, b, k;
    gather_ranks(rng, &n, &r, &q, &b, &k);
    const uint32_t t = r - b - k, p = q - 1 - b, m = q - 1 + t;
    tmv_dtype dtype = random_dtype(rng);
    /* batch[b], indexed[k], positions[p], trailing[t] */
    uint32_t batch[TMV_MAX_DIMS], indexed[TMV_MAX_DIMS], pos[TMV_MAX_DIMS], trail[TMV_MAX_DIMS];
    uint32_t *all[4 * TMV_MAX_DIMS], count = 0;
    for (uint32_t i = 0; i < b; i++) { batch[i] = small_size(rng); all[count++] = &batch[i]; }
    for (uint32_t i = 0; i < k; i++) { indexed[i] = 1 + (uint32_t)cg_rng_below(rng, 7); all[count++] = &indexed[i]; }
    for (uint32_t i = 0; i < p; i++) { pos[i] = small_size(rng); all[count++] = &pos[i]; }
    for (uint32_t i = 0; i < t; i++) { trail[i] = small_size(rng); all[count++] = &trail[i]; }
    if (t > 0 && cg_rng_chance(rng, 40))
        trail[t - 1] = edge_inner_size(rng, cg_dtype_size(dtype));
    /* Input and output both within budget: shrink over the union. */
    shrink_to_budget(all, count, 1, o->max_elements);
    if (count > 0 && cg_rng_chance(rng, o->empty_percent))
        *all[cg_rng_below(rng, count)] = 0;

    uint32_t in[TMV_MAX_DIMS], ind[TMV_MAX_DIMS], out[TMV_MAX_DIMS];
    for (uint32_t d = 0; d < n; d++)
        in[d] = ind[d] = out[d] = 1;
    for (uint32_t i = 0; i < b; i++)
        in[n - r + i] = ind[n - q + i] = out[n - m + i] = batch[i];
    for (uint32_t i = 0; i < k; i++)
        in[n - r + b + i] = indexed[i];
    for (uint32_t i = 0; i < t; i++)
        in[n - r + b + k + i] = out[n - m + q - 1 + i] = trail[i];
    for (uint32_t i = 0; i < p; i++)
        ind[n - q + b + i] = out[n - m + b + i] = pos[i];
    ind[n - 1] = k;
    set_tensor(c, 0, dtype, n, in);
    set_tensor(c, 1, index_types[cg_rng_below(rng, 4)], n, ind);
    set_tensor(c, 2, dtype, n, out);
    c->input_count = 2;
    c->output_count = 1;
    if (cg_rng_chance(rng, o->clamp_percent))
        c->op.flags |= TMV_OP_FLAG_CLAMP_INDICES;
    c->gather_nd = (tmv_gather_nd_desc){&c->tensors[0], &c->tensors[1], &c->tensors[2], r, q, b};
    c->op.desc = &c->gather_nd;
}

/* ----------------------------------------------------------------- data */

size_t cg_page_size(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

bool cg_map_input(cg_region *r, size_t len, bool sparse, bool guard_before)
{
    size_t page = cg_page_size(), body = (len + page - 1) / page * page;
    void *map = mmap(NULL, body + page, sparse ? PROT_NONE : PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | (sparse ? MAP_NORESERVE : 0), -1, 0);
    if (map == MAP_FAILED)
        return false;
    r->map = map;
    r->map_len = body + page;
    r->len = len;
    guard_before = guard_before && !sparse;
    r->guard = guard_before ? page : 0;
    r->data = guard_before ? r->map + page : r->map + body - len;
    return sparse || mprotect(guard_before ? r->map : r->map + body, page, PROT_NONE) == 0;
}

bool cg_seal_input(cg_region *r)
{
    const size_t page = cg_page_size();
    if (r->map == NULL || r->map_len <= page)
        return true;
    return mprotect(r->guard != 0 ? r->map + page : r->map, r->map_len - page, PROT_READ) == 0;
}

/* Bit patterns that must survive a copy unchanged: signaling and quiet NaNs
 * with payloads, negative NaN, -0.0, infinity. */
static void store_float_special(cg_rng *rng, unsigned char *p, tmv_dtype dtype)
{
    static const uint16_t f16[] = {0x7C01, 0x7E55, 0xFE01, 0x8000, 0x7C00, 0x7D00};
    static const uint32_t f32[] = {0x7F800001u, 0x7FC12345u, 0xFFC00001u, 0x80000000u, 0x7F800000u,
                                   0x7FA00000u};
    static const uint64_t f64[] = {0x7FF0000000000001u, 0x7FF8DEADBEEF0001u, 0xFFF8000000000001u,
                                   0x8000000000000000u, 0x7FF0000000000000u, 0x7FF4000000000000u};
    size_t i = (size_t)cg_rng_below(rng, 6);
    if (dtype == TMV_DTYPE_FLOAT16)
        memcpy(p, &f16[i], 2);
    else if (dtype == TMV_DTYPE_FLOAT32)
        memcpy(p, &f32[i], 4);
    else
        memcpy(p, &f64[i], 8);
}

static bool is_float(tmv_dtype dtype)
{
    return dtype == TMV_DTYPE_FLOAT16 || dtype == TMV_DTYPE_FLOAT32 || dtype == TMV_DTYPE_FLOAT64;
}

static void fill_random(cg_rng *rng, cg_region *r, tmv_dtype dtype)
{
    size_t elem = cg_dtype_size(dtype);
    for (size_t i = 0; i < r->len; i += 8) {
        uint64_t bits = cg_rng_next(rng);
        memcpy(r->data + i, &bits, r->len - i < 8 ? r->len - i : 8);
    }
    if (is_float(dtype))
        for (size_t i = 0; i + elem <= r->len; i += elem)
            if (cg_rng_chance(rng, 10))
                store_float_special(rng, r->data + i, dtype);
}

/* Next coordinate of sizes[0..n) in row-major order; false after the last. */
static bool next_coord(uint32_t n, const uint32_t *sizes, uint32_t *coord)
{
    for (uint32_t d = n; d-- > 0;) {
        if (++coord[d] < sizes[d])
            return true;
        coord[d] = 0;
    }
    return false;
}

static size_t byte_offset(const tmv_tensor_desc *t, const uint32_t *coord)
{
    uint64_t off = 0, stride = 1;
    for (uint32_t d = t->dim_count; d-- > 0;) {
        uint64_t s = t->strides ? t->strides[d] : stride;
        if (t->sizes[d] > 1)
            off += (uint64_t)coord[d] * s;
        stride *= t->sizes[d];
    }
    return (size_t)(off * cg_dtype_size(t->dtype));
}

static bool index_is_signed(tmv_dtype dtype)
{
    return dtype == TMV_DTYPE_INT32 || dtype == TMV_DTYPE_INT64;
}

/* An index for a dimension of `size`: in range (negative half the time for
 * signed types) or, when bad, just outside, far outside, or a 64-bit value
 * whose low 32 bits are in range (catches truncation). */
static int64_t index_value(cg_rng *rng, tmv_dtype dtype, uint32_t size, bool bad)
{
    bool is_signed = index_is_signed(dtype), wide = cg_dtype_size(dtype) == 8;
    int64_t n = size;
    if (!bad && size > 0) {
        int64_t v = (int64_t)cg_rng_below(rng, size);
        return is_signed && cg_rng_chance(rng, 50) ? v - n : v;
    }
    switch (cg_rng_below(rng, 4)) {
    case 0: return n + (int64_t)cg_rng_below(rng, 3);
    case 1: return is_signed ? -n - 1 - (int64_t)cg_rng_below(rng, 3) : n;
    case 2: return wide ? (int64_t)((1ull << 32) + cg_rng_below(rng, size ? size : 1)) : n + 100;
    default: return is_signed ? (wide ? INT64_MIN : INT32_MIN) : -1; /* -1 is the largest unsigned */
    }
}

static void store_index(unsigned char *p, tmv_dtype dtype, int64_t v)
{
    switch (dtype) {
    case TMV_DTYPE_INT32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    case TMV_DTYPE_UINT32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break; /* INT64 and UINT64 share the bits */
    }
}

/* Whether an index stored at p selects an element of a dimension of `size`
 * (docs/SPEC.md 6), written independently of the reference. */
static bool index_usable(const unsigned char *p, tmv_dtype dtype, uint32_t size, bool clamp)
{
    if (size == 0)
        return false;
    if (clamp)
        return true;
    switch (dtype) {
    case TMV_DTYPE_INT32: { int32_t x; memcpy(&x, p, 4); return x >= -(int64_t)size && x < (int64_t)size; }
    case TMV_DTYPE_INT64: { int64_t x; memcpy(&x, p, 8); return x >= -(int64_t)size && x < (int64_t)size; }
    case TMV_DTYPE_UINT32: { uint32_t x; memcpy(&x, p, 4); return x < size; }
    default: { uint64_t x; memcpy(&x, p, 8); return x < size; }
    }
}

/* Writes an index at every coordinate of the indices tensor (bad ones with
 * some chance when this case is chosen to hold them), then reads them all
 * back to learn what execute must return. */
static void fill_indices(cg_rng *rng, cg_case *c)
{
    const tmv_tensor_desc *in = &c->tensors[0], *ind = &c->tensors[1], *out = &c->tensors[2];
    const uint32_t n = ind->dim_count, first_indexed = n - c->gather_nd.input_dim_count +
                                                       c->gather_nd.batch_dim_count;
    const bool bad_case = cg_rng_chance(rng, c->options.bad_index_percent);
    const bool clamp = (c->op.flags & TMV_OP_FLAG_CLAMP_INDICES) != 0;
    cg_region *r = &c->inputs[1];
    uint32_t coord[TMV_MAX_DIMS] = {0};
    if (r->len == 0)
        return;
    do {
        uint32_t size = in->sizes[first_indexed + coord[n - 1]];
        store_index(r->data + byte_offset(ind, coord), ind->dtype,
                    index_value(rng, ind->dtype, size, bad_case && cg_rng_chance(rng, 20)));
    } while (next_coord(n, ind->sizes, coord));
    if (cg_extent_bytes(out) == 0)
        return; /* no output elements: no index is used */
    memset(coord, 0, sizeof coord);
    do {
        uint32_t size = in->sizes[first_indexed + coord[n - 1]];
        if (!index_usable(r->data + byte_offset(ind, coord), ind->dtype, size, clamp))
            c->expect = TMV_ERR_INDEX_OUT_OF_RANGE;
    } while (next_coord(n, ind->sizes, coord));
}

static bool make_inputs(cg_case *c)
{
    cg_rng rng = rng_for(c->seed, PURPOSE_DATA);
    /* Its own stream, so that the placement leaves the data of a seed as it was. */
    cg_rng place = rng_for(c->seed, PURPOSE_PLACEMENT);
    for (uint32_t i = 0; i < c->input_count; i++) {
        size_t len = cg_extent_bytes(&c->tensors[i]);
        if (!cg_map_input(&c->inputs[i], len, false, cg_rng_chance(&place, 50)))
            return false;
        if (len == 0 && cg_rng_chance(&rng, 50))
            c->inputs[i].data = NULL; /* allowed for a tensor without elements */
        fill_random(&rng, &c->inputs[i], c->tensors[i].dtype);
    }
    if (c->op.type == TMV_OP_GATHER_ND)
        fill_indices(&rng, c);
    for (uint32_t i = 0; i < c->input_count; i++) {
        if (!cg_seal_input(&c->inputs[i]))
            return false;
        c->in_ptrs[i] = c->inputs[i].data;
    }
    return true;
}

/* ------------------------------------------------------------ the case */

cg_case *cg_case_new(tmv_op_type type, uint64_t seed, const cg_options *options)
{
    if (type < TMV_OP_JOIN || type > TMV_OP_GATHER_ND)
        return NULL;
    cg_case *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->seed = seed;
    c->options = options ? *options : cg_default_options();
    if (c->options.max_elements == 0)
        c->options.max_elements = 1;
    c->op.type = type;
    c->expect = TMV_OK;
    cg_rng rng = rng_for(seed ^ ((uint64_t)type << 56), PURPOSE_SHAPE);
    switch (type) {
    case TMV_OP_JOIN: build_join_split(&rng, c, true); break;
    case TMV_OP_SPLIT: build_join_split(&rng, c, false); break;
    case TMV_OP_TILE: build_tile(&rng, c); break;
    case TMV_OP_SPACE_TO_DEPTH: build_depth_space(&rng, c, true); break;
    case TMV_OP_DEPTH_TO_SPACE: build_depth_space(&rng, c, false); break;
    case TMV_OP_GATHER_ND: build_gather_nd(&rng, c); break;
    }
    random_layouts(&rng, c);
    if (!make_inputs(c)) {
        cg_case_free(c);
        return NULL;
    }
    return c;
}

void cg_case_free(cg_case *c)
{
    if (c == NULL)
        return;
    for (uint32_t i = 0; i < CG_MAX_TENSORS; i++)
        if (c->inputs[i].map != NULL)
            munmap(c->inputs[i].map, c->inputs[i].map_len);
    free(c);
}

static void print_u32_list(FILE *f, uint32_t n, const uint32_t *v)
{
    fputc('{', f);
    for (uint32_t d = 0; d < n; d++)
        fprintf(f, d ? ",%" PRIu32 : "%" PRIu32, v[d]);
    fputc('}', f);
}

static void print_tensor(FILE *f, const char *prefix, const char *name, const cg_case *c, uint32_t t)
{
    const tmv_tensor_desc *d = &c->tensors[t];
    fprintf(f, "%s  %-12s %-7s sizes ", prefix, name, cg_dtype_name(d->dtype));
    print_u32_list(f, d->dim_count, d->sizes);
    fputs(" strides ", f);
    if (d->strides)
        print_u32_list(f, d->dim_count, d->strides);
    else
        fputs("NULL", f);
    fprintf(f, " (%s, %zu bytes)\n", c->layouts[t], cg_extent_bytes(d));
}

static void print_members(const cg_case *c, FILE *f, const char *prefix)
{
    fprintf(f, "%s  flags %" PRIu32 "; ", prefix, c->op.flags);
    switch (c->op.type) {
    case TMV_OP_JOIN: fprintf(f, "axis %" PRIu32 ", input_count %" PRIu32 "\n", c->join.axis, c->join.input_count); break;
    case TMV_OP_SPLIT: fprintf(f, "axis %" PRIu32 ", output_count %" PRIu32 "\n", c->split.axis, c->split.output_count); break;
    case TMV_OP_TILE:
        fputs("repeats ", f);
        print_u32_list(f, c->tile.repeats_count, c->repeats);
        fputc('\n', f);
        break;
    case TMV_OP_SPACE_TO_DEPTH:
    case TMV_OP_DEPTH_TO_SPACE:
        fprintf(f, "block_size %" PRIu32 ", order %s\n", c->space_to_depth.block_size,
                c->space_to_depth.order == TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW ? "DEPTH_COLUMN_ROW"
                                                                                 : "COLUMN_ROW_DEPTH");
        break;
    case TMV_OP_GATHER_ND:
        fprintf(f, "input_dim_count %" PRIu32 ", indices_dim_count %" PRIu32 ", batch_dim_count %" PRIu32 "\n",
                c->gather_nd.input_dim_count, c->gather_nd.indices_dim_count, c->gather_nd.batch_dim_count);
        break;
    }
}

void cg_case_print(const cg_case *c, FILE *f, const char *prefix)
{
    char name[32];
    fprintf(f, "%scase: op %s seed 0x%016" PRIx64 " (max_elements %" PRIu32 ", empty %u%%, bad_index %u%%, "
            "clamp %u%%)\n", prefix, cg_op_name(c->op.type), c->seed, c->options.max_elements,
            c->options.empty_percent, c->options.bad_index_percent, c->options.clamp_percent);
    print_members(c, f, prefix);
    for (uint32_t i = 0; i < c->input_count; i++) {
        if (c->op.type == TMV_OP_GATHER_ND && i == 1)
            snprintf(name, sizeof name, "indices");
        else if (c->input_count > 1 && c->op.type == TMV_OP_JOIN)
            snprintf(name, sizeof name, "inputs[%" PRIu32 "]", i);
        else
            snprintf(name, sizeof name, "input");
        print_tensor(f, prefix, name, c, i);
    }
    for (uint32_t o = 0; o < c->output_count; o++) {
        if (c->op.type == TMV_OP_SPLIT)
            snprintf(name, sizeof name, "outputs[%" PRIu32 "]", o);
        else
            snprintf(name, sizeof name, "output");
        print_tensor(f, prefix, name, c, c->input_count + o);
    }
    fprintf(f, "%s  execute must return %s\n", prefix, tmv_status_string(c->expect));
}

/* ------------------------------------------------------------ outputs */

unsigned char cg_canary_byte(size_t pos)
{
    return (unsigned char)(0xA5u ^ (unsigned)(pos * 37u) ^ (unsigned)(pos >> 8));
}

cg_outputs *cg_outputs_new(const cg_case *c)
{
    cg_outputs *outs = calloc(1, sizeof *outs);
    if (outs == NULL)
        return NULL;
    cg_rng rng = rng_for(c->seed, PURPOSE_OUTPUTS);
    outs->count = c->output_count;
    for (uint32_t o = 0; o < c->output_count; o++) {
        const tmv_tensor_desc *t = cg_case_output(c, o);
        cg_region *r = &outs->regions[o];
        /* Bands of 64 bytes plus a few elements: the data moves off any
         * vector alignment while staying element-aligned. */
        r->guard = 64 + cg_dtype_size(t->dtype) * (size_t)cg_rng_below(&rng, 8);
        r->len = cg_extent_bytes(t);
        r->map_len = 2 * r->guard + r->len;
        r->map = malloc(r->map_len);
        if (r->map == NULL) {
            cg_outputs_free(outs);
            return NULL;
        }
        for (size_t i = 0; i < r->map_len; i++)
            r->map[i] = cg_canary_byte(i);
        r->data = r->len == 0 && cg_rng_chance(&rng, 50) ? NULL : r->map + r->guard;
        outs->ptrs[o] = r->data;
    }
    return outs;
}

void cg_outputs_free(cg_outputs *outs)
{
    if (outs == NULL)
        return;
    for (uint32_t o = 0; o < outs->count; o++)
        free(outs->regions[o].map);
    free(outs);
}

static void describe_mismatch(const cg_region *r, uint32_t o, size_t i, unsigned char expected,
                              unsigned char actual, cg_mismatch *m)
{
    m->output = o;
    m->offset = (int64_t)i - (int64_t)r->guard;
    m->expected = expected;
    m->actual = actual;
    m->where = i < r->guard ? "front guard band" : i < r->guard + r->len ? "extent" : "back guard band";
}

bool cg_outputs_equal(const cg_outputs *expected, const cg_outputs *actual, cg_mismatch *m)
{
    for (uint32_t o = 0; o < expected->count && o < actual->count; o++) {
        const cg_region *e = &expected->regions[o], *a = &actual->regions[o];
        for (size_t i = 0; i < e->map_len && i < a->map_len; i++)
            if (e->map[i] != a->map[i]) {
                describe_mismatch(e, o, i, e->map[i], a->map[i], m);
                return false;
            }
    }
    return true;
}

bool cg_outputs_guards_intact(const cg_outputs *outs, cg_mismatch *m)
{
    for (uint32_t o = 0; o < outs->count; o++) {
        const cg_region *r = &outs->regions[o];
        for (size_t i = 0; i < r->map_len; i++) {
            if (i == r->guard)
                i += r->len;
            if (i < r->map_len && r->map[i] != cg_canary_byte(i)) {
                describe_mismatch(r, o, i, cg_canary_byte(i), r->map[i], m);
                return false;
            }
        }
    }
    return true;
}

/* ------------------------------------------------------------- checking */

static void print_mismatch(FILE *f, const char *what, const cg_mismatch *m)
{
    fprintf(f, "%s: outputs[%" PRIu32 "] differs at byte %" PRId64 " (%s): expected 0x%02x, got 0x%02x\n",
            what, m->output, m->offset, m->where, m->expected, m->actual);
}

/* The comparisons behind cg_check_against_reference; true when all agree. */
static bool compare_runs(const cg_case *c, FILE *f, tmv_status api, tmv_status ref, const cg_outputs *api_out,
                         const cg_outputs *ref_out, const cg_outputs *pristine)
{
    cg_mismatch m;
    bool ok = true;
    if (api != c->expect || ref != c->expect) {
        fprintf(f, "status: library %s, reference %s, expected %s (last error: %s)\n", tmv_status_string(api),
                tmv_status_string(ref), tmv_status_string(c->expect), tmv_last_error());
        ok = false;
    }
    if (!cg_outputs_equal(ref_out, api_out, &m)) {
        print_mismatch(f, "library vs reference", &m);
        ok = false;
    }
    if (!cg_outputs_guards_intact(api_out, &m)) {
        print_mismatch(f, "library guard bands", &m);
        ok = false;
    }
    if (c->expect != TMV_OK && !cg_outputs_equal(pristine, api_out, &m)) {
        print_mismatch(f, "library wrote despite failing", &m);
        ok = false;
    }
    return ok;
}

bool cg_check_against_reference(const cg_case *c, char *msg, size_t msg_len)
{
    FILE *f = fmemopen(msg, msg_len, "w");
    tmv_op *op = NULL;
    cg_outputs *api_out = cg_outputs_new(c), *ref_out = cg_outputs_new(c), *pristine = cg_outputs_new(c);
    bool ok = false;
    if (f == NULL) {
        snprintf(msg, msg_len, "out of memory setting up the case");
    } else if (api_out == NULL || ref_out == NULL || pristine == NULL) {
        fprintf(f, "out of memory setting up the case\n");
    } else if (tmv_op_create(&c->op, &op) != TMV_OK) {
        fprintf(f, "tmv_op_create failed on a valid case: %s\n", tmv_last_error());
    } else {
        tmv_status api = tmv_op_execute(op, c->in_ptrs, api_out->ptrs);
        tmv_status ref = tmv_reference_execute(op, c->in_ptrs, ref_out->ptrs);
        ok = compare_runs(c, f, api, ref, api_out, ref_out, pristine);
    }
    if (f != NULL) {
        if (!ok && op != NULL)
            fprintf(f, "kernel set: %s\n", tmv_isa_name(tmv_get_isa()));
        if (!ok)
            cg_case_print(c, f, "");
        fclose(f);
    }
    tmv_op_destroy(op);
    cg_outputs_free(api_out);
    cg_outputs_free(ref_out);
    cg_outputs_free(pristine);
    return ok;
}
