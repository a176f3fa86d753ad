/* fuzz_decode.c - the fuzzer's bytes -> an operator description (fuzz_case.h).
 *
 * The bytes are read as a stream of choices; when they run out, the choices
 * continue from a generator seeded with a hash of all the bytes, so every byte
 * string (the empty one too) decodes, and always to the same case. A case is
 * first generated valid by construction (shapes that add up, layouts that are
 * packed, padded, permuted, broadcast, overlapping or raw), with sizes held
 * under an element budget so that most cases execute quickly; then, with some
 * probability, one or two fields are corrupted. Whether the result is valid
 * is not decided here: fuzz_spec.c judges the description as it ends up. */
#include "fuzz_case.h"

#include <stdlib.h>
#include <string.h>

/* Product budget for one case's shapes: the elements of its largest tensor. */
#define FZ_ELEMENTS 8192

uint64_t fz_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

typedef struct reader {
    const uint8_t *data;
    size_t         size, pos;
    uint64_t       rng;      /* continues the choices past the end of data */
} reader;

static uint8_t rd_byte(reader *r)
{
    if (r->pos < r->size)
        return r->data[r->pos++];
    return (uint8_t)(fz_rng_next(&r->rng) >> 56);
}

static uint32_t rd_u32(reader *r)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)rd_byte(r) << (8 * i);
    return v;
}

/* Uniform-ish in [0, bound); 0 when bound is 0. */
static uint32_t rd_below(reader *r, uint32_t bound)
{
    if (bound <= 1)
        return 0;
    return (bound <= 256 ? rd_byte(r) : rd_u32(r)) % bound;
}

static bool rd_chance(reader *r, unsigned percent)
{
    return rd_byte(r) < percent * 256u / 100u;
}

/* Picks one of the n values (the helper of every corruption). */
static uint32_t rd_pick(reader *r, const uint32_t *values, uint32_t n)
{
    return values[rd_below(r, n)];
}
#define RD_PICK(r, ...) rd_pick((r), (const uint32_t[]){__VA_ARGS__}, \
                                (uint32_t)(sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t)))

/* ---- staging: the description being built, before it is laid out in the heap ---- */

typedef struct stage_tensor {
    uint32_t dtype;                    /* any value: corruption may make it no tmv_dtype */
    uint32_t dim_count;                /* what the description claims */
    uint32_t sizes[TMV_MAX_DIMS + 1];  /* +1: a corrupted dim_count may claim one more */
    uint32_t strides[TMV_MAX_DIMS + 1];
    bool     packed, sizes_null, is_null;
} stage_tensor;

typedef struct stage {
    reader        r;
    tmv_op_type   type;
    uint32_t      op_type, flags;      /* as described (op_type may be corrupted) */
    bool          op_null, desc_null;
    uint32_t      main_count;
    stage_tensor  main[3];
    uint32_t      piece_count;         /* pieces allocated */
    stage_tensor *pieces;              /* FZ_MAX_PIECES + 1 */
    bool          pieces_null;
    uint32_t      count_member;        /* JOIN input_count / SPLIT output_count */
    uint32_t      axis, block_size, order, r_dims, q_dims, b_dims;
    uint32_t      repeats[TMV_MAX_DIMS + 1], repeats_count, repeats_len;
    bool          repeats_null;
    const char   *corruption;
} stage;

static uint32_t rd_dtype(reader *r)
{
    return 1 + rd_below(r, 11);
}

/* A size: mostly 1 to 4, sometimes 0, larger, or any uint32_t (past the
 * budget: such a case is checked at create only). Ordinary sizes are cut to
 * what is left of *budget, the product allowance of the tensor. */
static uint32_t rd_size(reader *r, uint64_t *budget)
{
    uint8_t b = rd_byte(r);
    uint32_t s;
    if (b < 6)
        return 0;
    if (b >= 253)
        return rd_u32(r);
    s = b < 180 ? 1 + b % 4u : b < 240 ? 1 + b % 16u : 1 + rd_byte(r) % 64u;
    if (s > *budget)
        s = (uint32_t)*budget;
    if (s > 0)
        *budget /= s;
    return s;
}

/* Strides of t for a layout mode (0..15, mostly packed); outputs rarely get
 * the modes that make them self-overlapping, so that most cases execute. */
static void layout(reader *r, stage_tensor *t, uint8_t mode, bool output)
{
    uint32_t n = t->dim_count, order[TMV_MAX_DIMS];
    mode %= 16;
    if (output && (mode == 12 || mode == 13 || mode == 15) && rd_chance(r, 70))
        mode = 7;
    t->packed = mode < 6;
    if (t->packed)
        return;
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    if (mode == 10 || mode == 11) {
        for (uint32_t i = n; i > 1; i--) {
            uint32_t j = rd_below(r, i), tmp = order[i - 1];
            order[i - 1] = order[j];
            order[j] = tmp;
        }
    }
    /* Innermost (last in order) first: each dimension steps past the block of
     * the ones inside it, plus padding for the padded and permuted modes.
     * Huge sizes wrap the uint32_t strides; that is just another layout. */
    uint64_t step = 1;
    for (uint32_t i = n; i-- > 0;) {
        uint32_t d = order[i];
        t->strides[d] = (uint32_t)step;
        step = step * (t->sizes[d] ? t->sizes[d] : 1) + (mode >= 7 && mode <= 11 ? rd_below(r, 4) : 0);
    }
    for (uint32_t d = 0; d < n; d++) {
        switch (mode) {
        case 12: if (rd_chance(r, 40)) t->strides[d] = 0; break;       /* broadcast */
        case 13: t->strides[d] = rd_below(r, 7); break;                   /* overlapping */
        case 14: if (t->sizes[d] == 1) t->strides[d] = rd_u32(r); break; /* ignored strides */
        case 15: t->strides[d] = rd_u32(r); break;                        /* raw */
        default: break;
        }
    }
}

static void tensor_init(stage_tensor *t, uint32_t dtype, uint32_t n)
{
    memset(t, 0, sizeof *t);
    t->dtype = dtype;
    t->dim_count = n;
    for (uint32_t d = 0; d <= TMV_MAX_DIMS; d++)
        t->sizes[d] = 1;
}

/* ---- valid descriptions, one generator per operator ---- */

/* JOIN's inputs or SPLIT's outputs: how many. Usually a few, sometimes many. */
static uint32_t rd_piece_count(reader *r)
{
    uint8_t b = rd_byte(r);
    if (b < 160)
        return 1 + b % 4u;
    if (b < 230)
        return 5 + rd_below(r, 60);
    if (b < 250)
        return 65 + rd_below(r, 960);
    return 1025 + rd_below(r, FZ_MAX_PIECES - 1024);
}

/* JOIN (whole = output, pieces = inputs) or SPLIT (whole = input, pieces =
 * outputs). The pieces' sizes along the axis add up, in 64 bits, to the
 * whole's, which keeps the low 32 bits: a huge piece makes a sum that wraps,
 * a description SPEC 1.8 rejects. */
static void gen_join_split(stage *s, bool split)
{
    reader *r = &s->r;
    uint32_t n = 1 + rd_below(r, TMV_MAX_DIMS), dtype = rd_dtype(r);
    uint64_t budget = FZ_ELEMENTS, sum = 0;
    stage_tensor *whole = &s->main[0];
    s->main_count = 1;
    s->axis = rd_below(r, n);
    s->piece_count = s->count_member = rd_piece_count(r);
    const bool many = s->piece_count > 16;
    /* The reference finds each JOIN element's input by a linear search: keep
     * elements x pieces near FZ_ELEMENTS * 64 for the largest counts. */
    if (s->piece_count > 64)
        budget = FZ_ELEMENTS * 64 / s->piece_count;
    tensor_init(whole, dtype, n);
    for (uint32_t d = 0; d < n; d++)
        if (d != s->axis)
            whole->sizes[d] = rd_size(r, &budget);
    const uint8_t shared_mode = rd_byte(r); /* many pieces share one layout mode */
    for (uint32_t k = 0; k < s->piece_count; k++) {
        stage_tensor *p = &s->pieces[k];
        uint8_t b = rd_byte(r);
        uint32_t along = b < 40 ? 0 : b >= 254 ? rd_u32(r) : 1 + b % (many ? 2u : 8u);
        if (b < 254 && sum + along > budget)
            along = 0;
        sum += along;
        tensor_init(p, dtype, n);
        memcpy(p->sizes, whole->sizes, sizeof p->sizes);
        p->sizes[s->axis] = along;
        layout(r, p, many ? shared_mode : rd_byte(r), split);
    }
    whole->sizes[s->axis] = (uint32_t)sum;
    layout(r, whole, rd_byte(r), !split);
}

static void gen_tile(stage *s)
{
    reader *r = &s->r;
    uint32_t n = 1 + rd_below(r, TMV_MAX_DIMS), dtype = rd_dtype(r);
    uint64_t budget = FZ_ELEMENTS;
    stage_tensor *in = &s->main[0], *out = &s->main[1];
    s->main_count = 2;
    tensor_init(in, dtype, n);
    tensor_init(out, dtype, n);
    for (uint32_t d = 0; d < n; d++) {
        uint8_t b;
        in->sizes[d] = rd_size(r, &budget);
        b = rd_byte(r);
        s->repeats[d] = b < 12 ? 0 : b >= 250 ? rd_u32(r) : 1 + b % 3u;
        if (s->repeats[d] > budget && b < 250)
            s->repeats[d] = 1;
        if (s->repeats[d] > 0 && b < 250)
            budget /= s->repeats[d];
        out->sizes[d] = (uint32_t)((uint64_t)in->sizes[d] * s->repeats[d]); /* may wrap: SPEC 1.8 */
    }
    s->repeats_count = s->repeats_len = n;
    layout(r, in, rd_byte(r), false);
    layout(r, out, rd_byte(r), true);
}

/* SPACE_TO_DEPTH or DEPTH_TO_SPACE: {N, C, H*B, W*B} <-> {N, C*B*B, H, W}. */
static void gen_depth_space(stage *s, bool to_depth)
{
    reader *r = &s->r;
    uint32_t dtype = rd_dtype(r);
    uint8_t b = rd_byte(r);
    uint64_t budget = FZ_ELEMENTS;
    uint32_t block = b >= 254 ? rd_u32(r) : b >= 240 ? 5 + b % 12u : 1 + b % 4u;
    uint64_t bb = (uint64_t)block * block;
    if (bb != 0 && bb <= budget) /* a drawn block of 0 is just another invalid description */
        budget /= bb;
    uint32_t nn = rd_size(r, &budget), c = rd_size(r, &budget);
    uint32_t h = rd_size(r, &budget), w = rd_size(r, &budget);
    stage_tensor *space = &s->main[to_depth ? 0 : 1], *depth = &s->main[to_depth ? 1 : 0];
    s->main_count = 2;
    s->block_size = block;
    s->order = rd_byte(r) & 1u;
    tensor_init(space, dtype, 4);
    tensor_init(depth, dtype, 4);
    /* Products keep their low 32 bits: a huge block makes shapes SPEC 1.8 rejects. */
    const uint32_t space_sizes[4] = {nn, c, (uint32_t)((uint64_t)h * block), (uint32_t)((uint64_t)w * block)};
    const uint32_t depth_sizes[4] = {nn, (uint32_t)(c * bb), h, w};
    memcpy(space->sizes, space_sizes, sizeof space_sizes);
    memcpy(depth->sizes, depth_sizes, sizeof depth_sizes);
    layout(r, &s->main[0], rd_byte(r), false);
    layout(r, &s->main[1], rd_byte(r), true);
}

/* GATHER_ND (SPEC 6.3): n, then r, b, k and q in the order that keeps every
 * rule satisfiable (q <= n + 1 - (r - b - k) makes m <= n); the meaningful
 * shapes right-aligned behind placeholder 1s. */
static void gen_gather(stage *s)
{
    reader *r = &s->r;
    const uint32_t index_types[4] = {TMV_DTYPE_INT32, TMV_DTYPE_INT64, TMV_DTYPE_UINT32, TMV_DTYPE_UINT64};
    uint32_t n = 1 + rd_below(r, TMV_MAX_DIMS), dtype = rd_dtype(r);
    uint32_t rr = 1 + rd_below(r, n), b = rd_below(r, rr), k = 1 + rd_below(r, rr - b);
    uint32_t trail = rr - b - k, q_max = n + 1 - trail < n ? n + 1 - trail : n;
    uint32_t q = b + 1 + rd_below(r, q_max - b), m = (q - 1) + trail, pos = q - 1 - b;
    uint64_t budget = FZ_ELEMENTS / k;
    uint32_t batch[TMV_MAX_DIMS], indexed[TMV_MAX_DIMS], tail[TMV_MAX_DIMS], where[TMV_MAX_DIMS];
    stage_tensor *in = &s->main[0], *idx = &s->main[1], *out = &s->main[2];
    for (uint32_t j = 0; j < b; j++) batch[j] = rd_size(r, &budget);
    for (uint32_t j = 0; j < k; j++) indexed[j] = rd_size(r, &budget);
    for (uint32_t j = 0; j < trail; j++) tail[j] = rd_size(r, &budget);
    for (uint32_t j = 0; j < pos; j++) where[j] = rd_size(r, &budget);
    s->main_count = 3;
    s->r_dims = rr;
    s->q_dims = q;
    s->b_dims = b;
    tensor_init(in, dtype, n);
    tensor_init(idx, index_types[rd_below(r, 4)], n);
    tensor_init(out, dtype, n);
    for (uint32_t j = 0; j < b; j++)
        in->sizes[n - rr + j] = idx->sizes[n - q + j] = out->sizes[n - m + j] = batch[j];
    for (uint32_t j = 0; j < k; j++)
        in->sizes[n - rr + b + j] = indexed[j];
    for (uint32_t j = 0; j < trail; j++)
        in->sizes[n - trail + j] = out->sizes[n - trail + j] = tail[j];
    for (uint32_t j = 0; j < pos; j++)
        idx->sizes[n - q + b + j] = out->sizes[n - m + b + j] = where[j];
    idx->sizes[n - 1] = k;
    for (uint32_t t = 0; t < 3; t++)
        layout(r, &s->main[t], rd_byte(r), t == 2);
}

/* ---- corruptions: one field made wrong (or, sometimes, differently right) ---- */

static stage_tensor *pick_tensor(stage *s)
{
    uint32_t i = rd_below(&s->r, s->main_count + s->piece_count);
    return i < s->main_count ? &s->main[i] : &s->pieces[i - s->main_count];
}

static void make_strides_explicit(stage_tensor *t)
{
    if (!t->packed)
        return;
    uint64_t step = 1;
    for (uint32_t d = t->dim_count <= TMV_MAX_DIMS ? t->dim_count : TMV_MAX_DIMS; d-- > 0;) {
        t->strides[d] = (uint32_t)step;
        step *= t->sizes[d];
    }
    t->packed = false;
}

static void corrupt_tensor(stage *s, unsigned what)
{
    reader *r = &s->r;
    stage_tensor *t = pick_tensor(s);
    uint32_t n = t->dim_count <= TMV_MAX_DIMS ? t->dim_count : TMV_MAX_DIMS;
    uint32_t d = rd_below(r, n);
    switch (what) {
    case 0:
        t->is_null = true;
        s->corruption = "a tensor description pointer NULL";
        break;
    case 1:
        t->dtype = RD_PICK(r, 0, 12, 0xFFFFFFFFu, 0x80000000u, rd_u32(r));
        s->corruption = "a dtype out of range";
        break;
    case 2:
        t->dtype = rd_dtype(r);
        s->corruption = "a dtype changed to another valid one";
        break;
    case 3: {
        uint32_t to = RD_PICK(r, 0, 9, rd_u32(r), t->dim_count - 1, t->dim_count + 1);
        if (to == t->dim_count + 1 && to <= TMV_MAX_DIMS) {
            t->sizes[t->dim_count] = rd_below(r, 4);
            t->strides[t->dim_count] = rd_below(r, 64);
        }
        t->dim_count = to;
        s->corruption = "a dim_count changed";
        break;
    }
    case 4:
        t->sizes_null = true;
        s->corruption = "a sizes pointer NULL";
        break;
    case 5:
        if (n > 0)
            t->sizes[d] = RD_PICK(r, t->sizes[d] + 1, t->sizes[d] - 1, 0, 1, 0xFFFFFFFFu, rd_u32(r));
        s->corruption = "a size changed";
        break;
    default:
        make_strides_explicit(t);
        if (n > 0)
            t->strides[d] = RD_PICK(r, 0, t->strides[d] + 1, t->strides[d] - 1, 0xFFFFFFFFu, rd_u32(r));
        s->corruption = "a stride changed";
        break;
    }
}

static void corrupt_pieces(stage *s)
{
    reader *r = &s->r;
    switch (rd_below(r, 5)) {
    case 0:
        s->axis = RD_PICK(r, s->main[0].dim_count, s->main[0].dim_count + 1, 0xFFFFFFFFu, rd_u32(r));
        s->corruption = "axis out of range";
        break;
    case 1: { /* the array stays as allocated: the library must reject before reading it */
        const uint32_t above = TMV_MAX_PIECES + 1 + rd_below(r, 1000);
        s->count_member = RD_PICK(r, 0, TMV_MAX_PIECES + 1, above, 0x80000000u | rd_u32(r));
        s->corruption = "piece count 0 or above TMV_MAX_PIECES";
        break;
    }
    case 2: /* one piece fewer: wrong unless the last one is empty along the axis */
        if (s->piece_count == 0)
            break;
        s->count_member = --s->piece_count;
        s->corruption = "piece count one less";
        break;
    case 3: /* one piece more, like the first but for its size along the axis */
        if (s->piece_count == 0 || s->piece_count > FZ_MAX_PIECES)
            break;
        s->pieces[s->piece_count] = s->pieces[0];
        if (s->axis < TMV_MAX_DIMS) /* unless an earlier corruption moved it */
            s->pieces[s->piece_count].sizes[s->axis] = rd_below(r, 3);
        s->count_member = ++s->piece_count;
        s->corruption = "piece count one more";
        break;
    default:
        s->pieces_null = true;
        s->corruption = "pieces array NULL";
        break;
    }
}

static void corrupt_member(stage *s)
{
    reader *r = &s->r;
    switch (s->type) {
    case TMV_OP_JOIN:
    case TMV_OP_SPLIT:
        corrupt_pieces(s);
        break;
    case TMV_OP_TILE: {
        const uint32_t n = s->main[0].dim_count <= TMV_MAX_DIMS ? s->main[0].dim_count : TMV_MAX_DIMS;
        switch (rd_below(r, 3)) {
        case 0:
            s->repeats_count = RD_PICK(r, 0, n - 1, n + 1, 9, rd_u32(r));
            s->repeats_len = s->repeats_count <= TMV_MAX_DIMS + 1 ? s->repeats_count : TMV_MAX_DIMS + 1;
            if (s->repeats_len > n)
                s->repeats[n] = rd_below(r, 4);
            s->corruption = "repeats_count changed";
            break;
        case 1:
            s->repeats_null = true;
            s->corruption = "repeats NULL";
            break;
        default: {
            uint32_t d = rd_below(r, s->repeats_len);
            s->repeats[d] = RD_PICK(r, s->repeats[d] + 1, 0, 0xFFFFFFFFu, rd_u32(r));
            s->corruption = "a repeat changed";
            break;
        }
        }
        break;
    }
    case TMV_OP_SPACE_TO_DEPTH:
    case TMV_OP_DEPTH_TO_SPACE:
        if (rd_chance(r, 50)) {
            s->block_size = RD_PICK(r, 0, s->block_size + 1, s->block_size * 2, 0xFFFFFFFFu, rd_u32(r));
            s->corruption = "block_size changed";
        } else {
            s->order = RD_PICK(r, 2, 0xFFFFFFFFu, rd_u32(r), 1 - s->order);
            s->corruption = "order changed";
        }
        break;
    case TMV_OP_GATHER_ND: {
        const uint32_t n = s->main[0].dim_count;
        uint32_t *member = RD_PICK(r, 0, 1, 2) == 0 ? &s->r_dims : rd_chance(r, 50) ? &s->q_dims : &s->b_dims;
        *member = RD_PICK(r, 0, *member + 1, *member - 1, n + 1, rd_u32(r));
        s->corruption = "input_dim_count, indices_dim_count or batch_dim_count changed";
        break;
    }
    }
}

static void corrupt(stage *s)
{
    reader *r = &s->r;
    uint32_t what = rd_below(r, 12);
    if (what < 7) {
        corrupt_tensor(s, what);
    } else if (what < 10) {
        corrupt_member(s);
    } else if (what == 10) {
        s->op_type = RD_PICK(r, 0, 7, 255, 0x80000000u, rd_u32(r) | 8u);
        s->corruption = "operator type out of range";
    } else if (rd_chance(r, 50)) {
        s->flags |= 2u << rd_below(r, 31);
        s->corruption = "an unknown flag bit";
    } else if (rd_chance(r, 80)) {
        s->desc_null = true;
        s->corruption = "desc->desc NULL";
    } else {
        s->op_null = true;
        s->corruption = "the tmv_op_desc pointer NULL";
    }
}

/* ---- laying the staged description out in exact-size heap allocations ---- */

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL && bytes > 0)
        abort();
    return p;
}

/* Copies the claimed entries (8 when dim_count claims more) into an exact allocation. */
static uint32_t *exact_array(const uint32_t *values, uint32_t claimed)
{
    size_t n = claimed <= TMV_MAX_DIMS ? claimed : TMV_MAX_DIMS;
    uint32_t *a = xmalloc(n * sizeof *a);
    if (n > 0)
        memcpy(a, values, n * sizeof *a);
    return a;
}

static void place_tensor(fz_tensor *t, tmv_tensor_desc *desc, const stage_tensor *st)
{
    t->desc = desc;
    t->sizes = st->sizes_null ? NULL : exact_array(st->sizes, st->dim_count);
    t->strides = st->packed ? NULL : exact_array(st->strides, st->dim_count);
    *desc = (tmv_tensor_desc){(tmv_dtype)st->dtype, st->dim_count, t->sizes, t->strides};
}

/* An exact-size heap copy of a member description (ASan sees a read past it). */
static void *heap_copy(const void *value, size_t bytes)
{
    void *p = xmalloc(bytes);
    memcpy(p, value, bytes);
    return p;
}

static void *place_member(const stage *s, const fz_case *c)
{
    const tmv_tensor_desc *m[3];
    for (uint32_t i = 0; i < s->main_count; i++)
        m[i] = s->main[i].is_null ? NULL : c->tensors[i].desc;
    const tmv_tensor_desc *pieces = s->pieces_null ? NULL : c->pieces_desc;
    const tmv_depth_space_order order = (tmv_depth_space_order)s->order;
    switch (s->type) {
    case TMV_OP_JOIN:
        return heap_copy(&(tmv_join_desc){s->count_member, pieces, m[0], s->axis}, sizeof(tmv_join_desc));
    case TMV_OP_SPLIT:
        return heap_copy(&(tmv_split_desc){m[0], s->count_member, pieces, s->axis}, sizeof(tmv_split_desc));
    case TMV_OP_TILE:
        return heap_copy(&(tmv_tile_desc){m[0], m[1], s->repeats_count, s->repeats_null ? NULL : c->repeats},
                         sizeof(tmv_tile_desc));
    case TMV_OP_SPACE_TO_DEPTH:
        return heap_copy(&(tmv_space_to_depth_desc){m[0], m[1], s->block_size, order},
                         sizeof(tmv_space_to_depth_desc));
    case TMV_OP_DEPTH_TO_SPACE:
        return heap_copy(&(tmv_depth_to_space_desc){m[0], m[1], s->block_size, order},
                         sizeof(tmv_depth_to_space_desc));
    case TMV_OP_GATHER_ND:
        return heap_copy(&(tmv_gather_nd_desc){m[0], m[1], m[2], s->r_dims, s->q_dims, s->b_dims},
                         sizeof(tmv_gather_nd_desc));
    }
    abort();
}

static fz_case *place(const stage *s)
{
    fz_case *c = xmalloc(sizeof *c);
    memset(c, 0, sizeof *c);
    c->kind = s->type;
    c->corruption = s->corruption;
    c->tensor_count = s->main_count + s->piece_count;
    c->tensors = xmalloc(c->tensor_count * sizeof *c->tensors);
    c->pieces_len = s->piece_count;
    c->pieces_desc = xmalloc(s->piece_count * sizeof *c->pieces_desc);
    for (uint32_t i = 0; i < s->main_count; i++)
        place_tensor(&c->tensors[i], xmalloc(sizeof(tmv_tensor_desc)), &s->main[i]);
    for (uint32_t k = 0; k < s->piece_count; k++)
        place_tensor(&c->tensors[s->main_count + k], &c->pieces_desc[k], &s->pieces[k]);
    if (s->type == TMV_OP_TILE) {
        c->repeats_len = s->repeats_len;
        c->repeats = xmalloc(s->repeats_len * sizeof *c->repeats);
        memcpy(c->repeats, s->repeats, s->repeats_len * sizeof *c->repeats);
    }
    c->member_desc = place_member(s, c);
    c->op = xmalloc(sizeof *c->op);
    *c->op = (tmv_op_desc){(tmv_op_type)s->op_type, s->desc_null ? NULL : c->member_desc, s->flags};
    c->op_arg = s->op_null ? NULL : c->op;
    return c;
}

/* ---- the entry point ---- */

static uint64_t fnv1a(const uint8_t *data, size_t size)
{
    uint64_t h = 0xCBF29CE484222325u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 0x100000001B3u;
    return h;
}

fz_case *fz_decode(const uint8_t *data, size_t size)
{
    static stage_tensor pieces[FZ_MAX_PIECES + 1]; /* staging only; not reentrant, as libFuzzer needs not */
    stage s;
    memset(&s, 0, sizeof s);
    s.r = (reader){data, size, 0, fnv1a(data, size)};
    s.pieces = pieces;
    s.type = (tmv_op_type)(1 + rd_below(&s.r, 6));
    s.op_type = (uint32_t)s.type;
    switch (s.type) {
    case TMV_OP_JOIN: gen_join_split(&s, false); break;
    case TMV_OP_SPLIT: gen_join_split(&s, true); break;
    case TMV_OP_TILE: gen_tile(&s); break;
    case TMV_OP_SPACE_TO_DEPTH: gen_depth_space(&s, true); break;
    case TMV_OP_DEPTH_TO_SPACE: gen_depth_space(&s, false); break;
    case TMV_OP_GATHER_ND: gen_gather(&s); break;
    }
    /* Meaningful for GATHER_ND only; the others accept and ignore it (SPEC 1.10). */
    if (rd_chance(&s.r, 25))
        s.flags |= TMV_OP_FLAG_CLAMP_INDICES;
    if (rd_chance(&s.r, 20)) {
        corrupt(&s);
        if (rd_chance(&s.r, 25))
            corrupt(&s);
    }
    uint8_t b = rd_byte(&s.r);
    fz_bind bind = b < 235 ? FZ_BIND_OK : (fz_bind)(1 + b % 6u);
    uint32_t bind_a = bind == FZ_BIND_OK ? 0 : rd_u32(&s.r), bind_b = bind == FZ_BIND_OK ? 0 : rd_u32(&s.r);
    bool empty_as_null = rd_byte(&s.r) & 1u;
    uint8_t bad = rd_byte(&s.r);

    fz_case *c = place(&s);
    c->bind = bind;
    c->bind_a = bind_a;
    c->bind_b = bind_b;
    c->empty_as_null = empty_as_null;
    c->bad_index_percent = bad < 200 ? 0 : 1 + bad % 50u;
    c->data_seed = fnv1a(data, size) ^ 0x5EED;
    return c;
}

void fz_case_free(fz_case *c)
{
    if (c == NULL)
        return;
    for (uint32_t i = 0; i < c->tensor_count; i++) {
        free(c->tensors[i].sizes);
        free(c->tensors[i].strides);
        if (i < c->tensor_count - c->pieces_len) /* a main tensor: its own allocation */
            free(c->tensors[i].desc);
    }
    free(c->tensors);
    free(c->pieces_desc);
    free(c->repeats);
    free(c->member_desc);
    free(c->op);
    free(c);
}
