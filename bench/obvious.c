/* obvious.c - the memcpy-per-piece and plain-loop yardsticks: each operator as strided copies read off its description, and the two ways of running them. */
#include "obvious.h"

#include <string.h>

/* Byte strides of a tensor (packed row-major when it has none). */
static void byte_strides(const tmv_tensor_desc *t, int64_t *out) {
    const int64_t esz = (int64_t)tmv_dtype_size(t->dtype);
    int64_t packed = esz;
    for (uint32_t d = t->dim_count; d-- > 0;) {
        out[d] = t->strides ? (int64_t)t->strides[d] * esz : packed;
        packed *= t->sizes[d];
    }
}

static void add_dim(obvious_copy *c, uint64_t size, int64_t src_stride, int64_t dst_stride) {
    c->size[c->dims] = size;
    c->src_stride[c->dims] = src_stride;
    c->dst_stride[c->dims] = dst_stride;
    c->dims++;
}

/* The copy of a tensor of `sizes` between two layouts, dims as the tensor's. */
static obvious_copy tensor_copy(const uint8_t *src, uint8_t *dst, const tmv_tensor_desc *shape,
                                const int64_t *src_strides, const int64_t *dst_strides) {
    obvious_copy c = {.src = src, .dst = dst};
    for (uint32_t d = 0; d < shape->dim_count; ++d) add_dim(&c, shape->sizes[d], src_strides[d], dst_strides[d]);
    return c;
}

/* JOIN (split = 0) or SPLIT: one copy per piece, at its offset along the axis in the whole tensor. */
static int pieces_copies(const bench_setup *s, obvious_plan *p, int split) {
    const tmv_tensor_desc *whole = split ? s->u.split.input : s->u.join.output;
    const tmv_tensor_desc *parts = split ? s->u.split.outputs : s->u.join.inputs;
    const uint32_t count = split ? s->u.split.output_count : s->u.join.input_count;
    const uint32_t axis = split ? s->u.split.axis : s->u.join.axis;
    if (count > SETUP_MAX_TENSORS) return -1;
    int64_t whole_strides[TMV_MAX_DIMS], part_strides[TMV_MAX_DIMS];
    byte_strides(whole, whole_strides);
    int64_t offset = 0;
    p->esz = (uint32_t)tmv_dtype_size(whole->dtype);
    for (uint32_t k = 0; k < count; ++k) {
        byte_strides(&parts[k], part_strides);
        p->copies[k] = split ? tensor_copy((const uint8_t *)s->in[0] + offset, s->out[k], &parts[k], whole_strides,
                                           part_strides)
                             : tensor_copy(s->in[k], (uint8_t *)s->out[0] + offset, &parts[k], part_strides,
                                           whole_strides);
        offset += (int64_t)parts[k].sizes[axis] * whole_strides[axis];
    }
    p->copy_count = count;
    return 0;
}

/* TILE: per dim, the repeat (source stride 0) outside the input's extent. */
static void tile_copy(const bench_setup *s, obvious_plan *p) {
    const tmv_tile_desc *t = &s->u.tile;
    int64_t in[TMV_MAX_DIMS], out[TMV_MAX_DIMS];
    byte_strides(t->input, in);
    byte_strides(t->output, out);
    obvious_copy c = {.src = s->in[0], .dst = s->out[0]};
    p->esz = (uint32_t)tmv_dtype_size(t->output->dtype);
    for (uint32_t d = 0; d < t->input->dim_count; ++d) {
        add_dim(&c, t->repeats[d], 0, out[d] * t->input->sizes[d]);
        add_dim(&c, t->input->sizes[d], in[d], out[d]);
    }
    p->copies[0] = c;
    p->copy_count = 1;
}

/* SPACE_TO_DEPTH (to_depth = 1) or DEPTH_TO_SPACE: dims (n, c, h, by, w, bx)
 * of the space tensor {N, C, H*B, W*B} against the deep one {N, C*B*B, H, W}. */
static void depth_space_copy(const bench_setup *s, obvious_plan *p, int to_depth) {
    const tmv_tensor_desc *space = to_depth ? s->u.s2d.input : s->u.d2s.output;
    const tmv_tensor_desc *deep = to_depth ? s->u.s2d.output : s->u.d2s.input;
    const uint32_t b = to_depth ? s->u.s2d.block_size : s->u.d2s.block_size;
    const int dcr = (to_depth ? s->u.s2d.order : s->u.d2s.order) == TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    const uint32_t c = space->sizes[1];
    int64_t sp[4], dp[4];
    byte_strides(space, sp);
    byte_strides(deep, dp);
    const uint64_t size[6] = {space->sizes[0], c, deep->sizes[2], b, deep->sizes[3], b};
    const int64_t space_strides[6] = {sp[0], sp[1], b * sp[2], sp[2], b * sp[3], sp[3]};
    const int64_t deep_strides[6] = {dp[0], dcr ? dp[1] : (int64_t)b * b * dp[1], dp[2],
                                     dcr ? (int64_t)b * c * dp[1] : (int64_t)b * dp[1], dp[3],
                                     dcr ? (int64_t)c * dp[1] : dp[1]};
    obvious_copy cp = {.src = s->in[0], .dst = s->out[0]};
    p->esz = (uint32_t)tmv_dtype_size(space->dtype);
    for (int d = 0; d < 6; ++d)
        add_dim(&cp, size[d], to_depth ? space_strides[d] : deep_strides[d],
                to_depth ? deep_strides[d] : space_strides[d]);
    p->copies[0] = cp;
    p->copy_count = 1;
}

/* Whether the dims [from, to) of t are packed relative to each other. */
static int packed_run(const tmv_tensor_desc *t, const int64_t *strides, uint32_t from, uint32_t to) {
    for (uint32_t d = from; d + 1 < to; ++d)
        if (strides[d] != strides[d + 1] * (int64_t)t->sizes[d + 1]) return 0;
    return 1;
}

/* GATHER_ND: the slice copy of tuple 0 and the tuples' walk. Covers packed
 * indices and outputs whose tuple dims are packed. */
static int gather_plan(const bench_setup *s, obvious_plan *p) {
    const tmv_gather_nd_desc *g = &s->u.gather_nd;
    const tmv_tensor_desc *in = g->input, *out = g->output, *idx = g->indices;
    const uint32_t n = in->dim_count, r = g->input_dim_count, q = g->indices_dim_count, b = g->batch_dim_count;
    const uint32_t k = idx->sizes[n - 1], slice_dims = r - b - k, first = n - r;
    const uint32_t out_slice = n - slice_dims;   /* the output's first slice dim */
    int64_t is[TMV_MAX_DIMS], os[TMV_MAX_DIMS];
    byte_strides(in, is);
    byte_strides(out, os);
    if (idx->strides || out_slice == 0 || !packed_run(out, os, n - (q - 1 + slice_dims), out_slice)) return -1;
    obvious_gather *w = &p->gather;
    *w = (obvious_gather){.indices = s->in[1], .index_dtype = idx->dtype, .k = k, .batch_dims = b,
                          .out_step = os[out_slice - 1]};
    w->tuples = tensor_elems(idx) / k;
    w->tuples_per_batch = w->tuples;
    for (uint32_t j = 0; j < b; ++j) {
        w->batch_size[j] = in->sizes[first + j];
        w->batch_stride[j] = is[first + j];
        w->tuples_per_batch /= in->sizes[first + j];
    }
    for (uint32_t j = 0; j < k; ++j) {
        w->dim_size[j] = in->sizes[first + b + j];
        w->dim_stride[j] = is[first + b + j];
    }
    obvious_copy c = {.src = s->in[0], .dst = s->out[0]};
    for (uint32_t j = 0; j < slice_dims; ++j) add_dim(&c, in->sizes[n - slice_dims + j], is[n - slice_dims + j], os[out_slice + j]);
    p->copies[0] = c;
    p->copy_count = 1;
    p->is_gather = 1;
    p->esz = (uint32_t)tmv_dtype_size(out->dtype);
    return 0;
}

/* Orders a copy's dims by destination stride, largest first (the output
 * written in order, as a loop over it would), and drops dims of size 1;
 * then finds the run contiguous on both sides that memcpy takes at once. */
static void normalize(obvious_copy *c, uint32_t esz) {
    obvious_copy o = *c;
    o.dims = 0;
    for (uint32_t d = 0; d < c->dims; ++d)
        if (c->size[d] != 1) add_dim(&o, c->size[d], c->src_stride[d], c->dst_stride[d]);
    for (uint32_t i = 1; i < o.dims; ++i)   /* insertion sort: stable, at most 12 dims */
        for (uint32_t j = i; j > 0 && o.dst_stride[j - 1] < o.dst_stride[j]; --j) {
            const uint64_t sz = o.size[j];
            const int64_t ss = o.src_stride[j], ds = o.dst_stride[j];
            o.size[j] = o.size[j - 1], o.src_stride[j] = o.src_stride[j - 1], o.dst_stride[j] = o.dst_stride[j - 1];
            o.size[j - 1] = sz, o.src_stride[j - 1] = ss, o.dst_stride[j - 1] = ds;
        }
    o.run = esz;
    o.outer_dims = o.dims;
    while (o.outer_dims > 0 && o.src_stride[o.outer_dims - 1] == (int64_t)o.run &&
           o.dst_stride[o.outer_dims - 1] == (int64_t)o.run)
        o.run *= o.size[--o.outer_dims];
    *c = o;
}

int obvious_plan_build(const bench_setup *s, obvious_plan *p) {
    memset(p, 0, sizeof *p);
    int status = 0;
    switch (s->op.type) {
    case TMV_OP_JOIN: status = pieces_copies(s, p, 0); break;
    case TMV_OP_SPLIT: status = pieces_copies(s, p, 1); break;
    case TMV_OP_TILE: tile_copy(s, p); break;
    case TMV_OP_SPACE_TO_DEPTH: depth_space_copy(s, p, 1); break;
    case TMV_OP_DEPTH_TO_SPACE: depth_space_copy(s, p, 0); break;
    case TMV_OP_GATHER_ND: status = gather_plan(s, p); break;
    default: return -1;
    }
    if (status) return status;
    for (uint32_t i = 0; i < p->copy_count; ++i) normalize(&p->copies[i], p->esz);
    return 0;
}

/* Advances the coordinate idx over the first dims of c and the two pointers
 * with it; 0 once every coordinate was visited. */
static inline int next_coordinate(uint64_t *idx, const obvious_copy *c, uint32_t dims, const uint8_t **src,
                                  uint8_t **dst) {
    for (uint32_t j = dims; j-- > 0;) {
        *src += c->src_stride[j];
        *dst += c->dst_stride[j];
        if (++idx[j] < c->size[j]) return 1;
        *src -= c->src_stride[j] * (int64_t)c->size[j];
        *dst -= c->dst_stride[j] * (int64_t)c->size[j];
        idx[j] = 0;
    }
    return 0;
}

static inline void copy_pieces(const obvious_copy *c, const uint8_t *src, uint8_t *dst) {
    uint64_t idx[OBVIOUS_MAX_DIMS] = {0};
    do memcpy(dst, src, c->run);
    while (next_coordinate(idx, c, c->outer_dims, &src, &dst));
}

/* One row of the loop: n elements of esz bytes (a constant once inlined). */
static inline __attribute__((always_inline)) void loop_row(const uint8_t *src, uint8_t *dst, uint64_t n,
                                                           int64_t ss, int64_t ds, size_t esz) {
    if (ss == (int64_t)esz && ds == (int64_t)esz) {
        for (uint64_t i = 0; i < n; ++i) memcpy(dst + i * esz, src + i * esz, esz);
    } else {
        for (uint64_t i = 0; i < n; ++i) memcpy(dst + (int64_t)i * ds, src + (int64_t)i * ss, esz);
    }
}

static inline __attribute__((always_inline)) void copy_loop_esz(const obvious_copy *c, const uint8_t *src,
                                                                uint8_t *dst, size_t esz) {
    if (c->dims == 0) {
        memcpy(dst, src, esz);
        return;
    }
    const uint32_t last = c->dims - 1;
    uint64_t idx[OBVIOUS_MAX_DIMS] = {0};
    do loop_row(src, dst, c->size[last], c->src_stride[last], c->dst_stride[last], esz);
    while (next_coordinate(idx, c, last, &src, &dst));
}

static void copy_loop(const obvious_copy *c, const uint8_t *src, uint8_t *dst, uint32_t esz) {
    switch (esz) {
    case 1: copy_loop_esz(c, src, dst, 1); break;
    case 2: copy_loop_esz(c, src, dst, 2); break;
    case 4: copy_loop_esz(c, src, dst, 4); break;
    default: copy_loop_esz(c, src, dst, 8); break;
    }
}

/* One copy from src to dst, by memcpy of each piece or by the loop. */
static inline void copy_by(const obvious_copy *c, const uint8_t *src, uint8_t *dst, uint32_t esz, int pieces) {
    if (pieces)
        copy_pieces(c, src, dst);
    else
        copy_loop(c, src, dst, esz);
}

/* Index j of tuple t, resolved against the dim's size (negative counts from the end; no range check). */
static inline int64_t tuple_index(const obvious_gather *w, uint64_t t, uint32_t j) {
    const uint64_t at = t * w->k + j;
    int64_t v;
    switch (w->index_dtype) {
    case TMV_DTYPE_INT32: v = ((const int32_t *)(const void *)w->indices)[at]; break;
    case TMV_DTYPE_UINT32: v = ((const uint32_t *)(const void *)w->indices)[at]; break;
    default: v = ((const int64_t *)(const void *)w->indices)[at]; break;
    }
    return v < 0 ? v + w->dim_size[j] : v;
}

static int empty(const obvious_copy *c) {
    for (uint32_t d = 0; d < c->dims; ++d)
        if (c->size[d] == 0) return 1;
    return 0;
}

/* The base of tuple t's batch: src moved by its coordinates over the batch dims. */
static const uint8_t *batch_base(const obvious_gather *w, const uint8_t *src, uint64_t t) {
    uint64_t rest = t / w->tuples_per_batch;
    for (uint32_t j = w->batch_dims; j-- > 0; rest /= w->batch_size[j])
        src += (int64_t)(rest % w->batch_size[j]) * w->batch_stride[j];
    return src;
}

/* The start of tuple t's slice in its batch. */
static const uint8_t *tuple_source(const obvious_gather *w, const uint8_t *batch, uint64_t t) {
    for (uint32_t j = 0; j < w->k; ++j) batch += tuple_index(w, t, j) * w->dim_stride[j];
    return batch;
}

static void run_gather(const obvious_plan *p, int pieces) {
    const obvious_gather *w = &p->gather;
    const obvious_copy *c = &p->copies[0];
    const uint8_t *batch = c->src;
    if (empty(c)) return;
    for (uint64_t t = 0; t < w->tuples; ++t) {
        if (w->batch_dims && t % w->tuples_per_batch == 0) batch = batch_base(w, c->src, t);
        copy_by(c, tuple_source(w, batch, t), c->dst + (int64_t)t * w->out_step, p->esz, pieces);
    }
}

void obvious_gather_runs(const obvious_plan *p, obvious_run_fn *visit, void *context) {
    const obvious_gather *w = &p->gather;
    const obvious_copy *c = &p->copies[0];
    if (!p->is_gather || empty(c)) return;
    for (uint64_t t = 0; t < w->tuples; ++t) {
        const uint8_t *src = tuple_source(w, batch_base(w, c->src, t), t);
        uint8_t *dst = c->dst;   /* walked beside src, unused */
        uint64_t idx[OBVIOUS_MAX_DIMS] = {0};
        do visit(context, src, c->run);
        while (next_coordinate(idx, c, c->outer_dims, &src, &dst));
    }
}

/* Runs every copy of the plan, by memcpy of each piece or by the loop. */
static void run_plan(const obvious_plan *p, int pieces) {
    if (p->is_gather) {
        run_gather(p, pieces);
        return;
    }
    for (uint32_t i = 0; i < p->copy_count; ++i) {
        const obvious_copy *c = &p->copies[i];
        if (!empty(c)) copy_by(c, c->src, c->dst, p->esz, pieces);
    }
}

void obvious_run_pieces(void *plan) { run_plan(plan, 1); }
void obvious_run_loop(void *plan) { run_plan(plan, 0); }

/* The description of output i of s. */
static const tmv_tensor_desc *output_desc(const bench_setup *s, uint32_t i) {
    switch (s->op.type) {
    case TMV_OP_JOIN: return s->u.join.output;
    case TMV_OP_SPLIT: return &s->u.split.outputs[i];
    case TMV_OP_TILE: return s->u.tile.output;
    case TMV_OP_SPACE_TO_DEPTH: return s->u.s2d.output;
    case TMV_OP_DEPTH_TO_SPACE: return s->u.d2s.output;
    default: return s->u.gather_nd.output;
    }
}

/* FNV-1a over every output's extent, after filling them with `fill` and running run(p) (or the case through tmv_execute when run is NULL). */
static uint64_t outputs_after(const bench_setup *s, void (*run)(void *), obvious_plan *p, int fill) {
    for (uint32_t i = 0; i < s->out_count; ++i) memset(s->out[i], fill, (size_t)tensor_extent(output_desc(s, i)));
    if (run)
        run(p);
    else if (tmv_execute(&s->op, s->in, s->out) != TMV_OK)
        return 0;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (uint32_t i = 0; i < s->out_count; ++i) {
        const uint8_t *b = s->out[i];
        for (uint64_t j = 0, n = tensor_extent(output_desc(s, i)); j < n; ++j) h = (h ^ b[j]) * 0x100000001b3ULL;
    }
    return h;
}

int obvious_plan_agrees(const bench_setup *s, obvious_plan *p) {
    const uint64_t want = outputs_after(s, NULL, p, 0x5A);
    const int agree = outputs_after(s, obvious_run_pieces, p, 0x5A) == want &&
                      outputs_after(s, obvious_run_loop, p, 0x5A) == want;
    for (uint32_t i = 0; i < s->out_count; ++i) memset(s->out[i], 0, (size_t)tensor_extent(output_desc(s, i)));
    return agree ? 0 : -1;
}
