/* fuzz_buffers.c - exact-size buffers for an accepted case, filled deterministically. */
#include "fuzz_buffers.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_spec.h"

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (p == NULL)
        abort();
    return p;
}

/* The canary bytes of an output area, from offset 0: position-dependent, so
 * a shifted copy of canaries still shows. Built once; the comparisons below
 * are memcpy and memcmp, because byte loops in this file would be traced by
 * the fuzzer's comparison hooks and cost more than the operators. */
static const unsigned char *canaries(void)
{
    static unsigned char pattern[FZ_MAX_BYTES];
    static bool built;
    if (!built) {
        for (size_t p = 0; p < sizeof pattern; p++)
            pattern[p] = (unsigned char)(0xA5u ^ (p * 0x9Du) ^ (p >> 8));
        built = true;
    }
    return pattern;
}

/* The first byte where a and b differ (len bytes compared); false if none. */
static bool first_difference(const unsigned char *a, const unsigned char *b, uint64_t len, uint64_t *offset)
{
    if (len == 0 || memcmp(a, b, (size_t)len) == 0)
        return false;
    for (*offset = 0; a[*offset] == b[*offset]; ++*offset)
        ;
    return true;
}

/* An area of exactly `len` bytes; a tensor with no elements (len 0) gets NULL
 * or malloc(0), both of which SPEC 1.6 allows. */
static unsigned char *area(uint64_t len, bool empty_as_null)
{
    if (len == 0 && empty_as_null)
        return NULL;
    unsigned char *p = malloc((size_t)len);
    if (p == NULL && len > 0)
        abort();
    return p;
}

/* The tensors of an accepted description in binding order (SPEC 1.10). */
static void list_tensors(const fz_case *c, fz_buffers *b)
{
    const void *m = c->op->desc;
    const tmv_tensor_desc *pair[2];
    switch (c->op->type) {
    case TMV_OP_JOIN: {
        const tmv_join_desc *j = m;
        b->in_count = j->input_count;
        b->out_count = 1;
        b->in_t = xcalloc(b->in_count, sizeof *b->in_t);
        b->out_t = xcalloc(1, sizeof *b->out_t);
        for (uint32_t k = 0; k < j->input_count; k++)
            b->in_t[k] = &j->inputs[k];
        b->out_t[0] = j->output;
        return;
    }
    case TMV_OP_SPLIT: {
        const tmv_split_desc *s = m;
        b->in_count = 1;
        b->out_count = s->output_count;
        b->in_t = xcalloc(1, sizeof *b->in_t);
        b->out_t = xcalloc(b->out_count, sizeof *b->out_t);
        b->in_t[0] = s->input;
        for (uint32_t k = 0; k < s->output_count; k++)
            b->out_t[k] = &s->outputs[k];
        return;
    }
    case TMV_OP_GATHER_ND: {
        const tmv_gather_nd_desc *g = m;
        b->in_count = 2;
        b->out_count = 1;
        b->in_t = xcalloc(2, sizeof *b->in_t);
        b->out_t = xcalloc(1, sizeof *b->out_t);
        b->in_t[0] = g->input;
        b->in_t[1] = g->indices;
        b->out_t[0] = g->output;
        return;
    }
    case TMV_OP_TILE: {
        const tmv_tile_desc *t = m;
        pair[0] = t->input, pair[1] = t->output;
        break;
    }
    case TMV_OP_SPACE_TO_DEPTH: {
        const tmv_space_to_depth_desc *s = m;
        pair[0] = s->input, pair[1] = s->output;
        break;
    }
    case TMV_OP_DEPTH_TO_SPACE: {
        const tmv_depth_to_space_desc *s = m;
        pair[0] = s->input, pair[1] = s->output;
        break;
    }
    default:
        abort(); /* an accepted description names an operator */
    }
    b->in_count = b->out_count = 1;
    b->in_t = xcalloc(1, sizeof *b->in_t);
    b->out_t = xcalloc(1, sizeof *b->out_t);
    b->in_t[0] = pair[0];
    b->out_t[0] = pair[1];
}

/* One index for a dimension of `size`: valid (negative ones too, for signed
 * types) unless the case's bad-index chance says otherwise; bad ones are just
 * out of range, far out, or in range only once truncated to 32 bits. */
static uint64_t index_value(uint64_t *rng, uint32_t size, bool is_signed, unsigned bad_percent)
{
    const uint64_t x = fz_rng_next(rng), s = size;
    if (x % 100 < bad_percent || size == 0) {
        const uint64_t bad[6] = {s, s + x % 1000, (uint64_t)-(int64_t)(s + 1), (uint64_t)1 << 63, UINT64_MAX,
                                 ((uint64_t)1 << 32) | (x % (s ? s : 1))};
        return bad[(x >> 32) % 6];
    }
    if (is_signed)
        return (uint64_t)((int64_t)((x >> 8) % (2 * s)) - (int64_t)s);
    return (x >> 8) % s;
}

/* Writes an index for every coordinate of the indices tensor: component j
 * (the last coordinate) indexes input dimension n - r + b + j (SPEC 6.4). */
static void fill_indices(const fz_case *c, unsigned char *buf, uint64_t *rng)
{
    const tmv_gather_nd_desc *g = c->op->desc;
    const tmv_tensor_desc *t = g->indices;
    const uint32_t n = t->dim_count, first = n - g->input_dim_count + g->batch_dim_count;
    const uint32_t width = fz_spec_dtype_size(t->dtype);
    const bool is_signed = t->dtype == TMV_DTYPE_INT32 || t->dtype == TMV_DTYPE_INT64;
    uint32_t coord[TMV_MAX_DIMS] = {0};
    /* With an empty output no index is read (SPEC 6.5), and the indices may
     * then hold any number of elements over a tiny extent (stride 0). Else
     * they hold at most k (<= 8) per output element. */
    if (fz_spec_empty(t) || fz_spec_empty(g->output))
        return;
    for (;;) {
        uint64_t offset = 0;
        for (uint32_t d = 0; d < n; d++)
            offset += coord[d] * fz_spec_stride(t, d);
        const uint64_t v = index_value(rng, g->input->sizes[first + coord[n - 1]], is_signed, c->bad_index_percent);
        memcpy(buf + offset * width, &v, width); /* little-endian: the low bytes are the narrow value */
        uint32_t d = n;
        while (d-- > 0 && ++coord[d] == t->sizes[d])
            coord[d] = 0;
        if (d == UINT32_MAX)
            return;
    }
}

fz_buffers *fz_buffers_new(const fz_case *c)
{
    fz_buffers *b = xcalloc(1, sizeof *b);
    uint64_t total = 0, rng = c->data_seed;
    list_tensors(c, b);
    b->in_len = xcalloc(b->in_count, sizeof *b->in_len);
    b->out_len = xcalloc(b->out_count, sizeof *b->out_len);
    for (uint32_t i = 0; i < b->in_count; i++)
        total += b->in_len[i] = fz_spec_extent(b->in_t[i]);
    for (uint32_t o = 0; o < b->out_count; o++)
        total += b->out_len[o] = fz_spec_extent(b->out_t[o]);
    /* Each extent fits 64 bits, but a sum of several may wrap: compare one at a time. */
    for (uint32_t i = 0; i < b->in_count; i++)
        if (b->in_len[i] > FZ_MAX_BYTES)
            total = UINT64_MAX;
    for (uint32_t o = 0; o < b->out_count; o++)
        if (b->out_len[o] > FZ_MAX_BYTES)
            total = UINT64_MAX;
    b->in = xcalloc(b->in_count, sizeof *b->in);
    b->in_copy = xcalloc(b->in_count, sizeof *b->in_copy);
    b->out = xcalloc(b->out_count, sizeof *b->out);
    b->ref = xcalloc(b->out_count, sizeof *b->ref);
    if (total > FZ_MAX_BYTES) {
        fz_buffers_free(b);
        return NULL;
    }
    for (uint32_t i = 0; i < b->in_count; i++) {
        b->in[i] = area(b->in_len[i], c->empty_as_null);
        for (uint64_t p = 0; p < b->in_len[i]; p += 8) {
            const uint64_t x = fz_rng_next(&rng);
            memcpy(b->in[i] + p, &x, b->in_len[i] - p < 8 ? b->in_len[i] - p : 8);
        }
    }
    if (c->op->type == TMV_OP_GATHER_ND)
        fill_indices(c, b->in[1], &rng);
    for (uint32_t i = 0; i < b->in_count; i++) {
        b->in_copy[i] = area(b->in_len[i], true);
        if (b->in_len[i] > 0)
            memcpy(b->in_copy[i], b->in[i], b->in_len[i]);
    }
    for (uint32_t o = 0; o < b->out_count; o++) {
        b->out[o] = area(b->out_len[o], c->empty_as_null);
        b->ref[o] = area(b->out_len[o], true);
        if (b->out_len[o] > 0)
            memcpy(b->ref[o], canaries(), b->out_len[o]);
    }
    fz_buffers_canary(b);
    return b;
}

/* Frees an array of `count` areas and the areas in it. */
static void free_areas(unsigned char **areas, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        free(areas[i]);
    free(areas);
}

void fz_buffers_free(fz_buffers *b)
{
    if (b == NULL)
        return;
    free_areas(b->in, b->in_count);
    free_areas(b->in_copy, b->in_count);
    free_areas(b->out, b->out_count);
    free_areas(b->ref, b->out_count);
    free(b->in_len);
    free(b->out_len);
    free(b->in_t);
    free(b->out_t);
    free(b);
}

void fz_buffers_canary(fz_buffers *b)
{
    for (uint32_t o = 0; o < b->out_count; o++)
        if (b->out_len[o] > 0)
            memcpy(b->out[o], canaries(), b->out_len[o]);
}

bool fz_buffers_inputs_intact(const fz_buffers *b, uint32_t *which, uint64_t *offset)
{
    for (uint32_t i = 0; i < b->in_count; i++)
        if (first_difference(b->in[i], b->in_copy[i], b->in_len[i], offset)) {
            *which = i;
            return false;
        }
    return true;
}

bool fz_buffers_output_matches(const fz_buffers *b, uint32_t o, bool expect_ref, uint64_t *offset)
{
    return !first_difference(b->out[o], expect_ref ? b->ref[o] : canaries(), b->out_len[o], offset);
}
