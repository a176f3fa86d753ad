/* setup.c - tensor descriptions, touched buffers on (or --tmv_offset past) 64-byte lines and JOIN / SPLIT descriptions for a benchmark case. */
#include "setup.h"

#include "bench.h"

#include <stdlib.h>
#include <string.h>


uint64_t tensor_elems(const tmv_tensor_desc *t) {
    uint64_t n = 1;
    for (uint32_t d = 0; d < t->dim_count; ++d) n *= t->sizes[d];
    return n;
}

uint64_t tensor_extent(const tmv_tensor_desc *t) {
    if (tensor_elems(t) == 0) return 0;
    if (!t->strides) return tensor_elems(t) * tmv_dtype_size(t->dtype);
    uint64_t last = 0;
    for (uint32_t d = 0; d < t->dim_count; ++d)
        if (t->sizes[d] > 1) last += (uint64_t)(t->sizes[d] - 1) * t->strides[d];
    return (last + 1) * tmv_dtype_size(t->dtype);
}

tmv_tensor_desc *setup_tensor(bench_setup *s, tmv_dtype dtype, uint32_t dim_count,
                              const uint32_t *sizes, const uint32_t *strides) {
    uint32_t i = s->tensor_count++;
    memcpy(s->sizes[i], sizes, dim_count * sizeof *sizes);
    if (strides) memcpy(s->strides[i], strides, dim_count * sizeof *strides);
    s->t[i] = (tmv_tensor_desc){dtype, dim_count, s->sizes[i], strides ? s->strides[i] : NULL};
    return &s->t[i];
}

void nhwc_strides(const uint32_t *sizes, uint32_t *strides) {
    strides[1] = 1;
    strides[3] = sizes[1];
    strides[2] = sizes[1] * sizes[3];
    strides[0] = strides[2] * sizes[2];
}

unsigned bench_line_offset = 0;

/* Buffers start at distinct offsets within a page (multiples of 64 bytes,
 * 17 * 64 apart, plus bench_line_offset) so that no two of a case, nor
 * memcpy's source and destination, alias each other modulo 4 KiB. */
void *setup_buffer(bench_setup *s, size_t bytes, int pattern) {
    const size_t offset = (size_t)s->owned_count * 17 * 64 % 4096 + bench_line_offset;
    const size_t rounded = (bytes + 63) / 64 * 64;
    unsigned char *base = aligned_alloc(4096, (offset + rounded + 4095) / 4096 * 4096 + 4096);
    if (!base) return NULL;
    unsigned char *p = base + offset;
    if (pattern) {
        for (size_t i = 0; i < rounded; ++i) p[i] = (unsigned char)(i * 131u + 7u);
    } else {
        memset(p, 0, rounded);
    }
    s->owned[s->owned_count++] = base;
    return p;
}

int setup_input(bench_setup *s, const tmv_tensor_desc *t) {
    void *p = setup_buffer(s, (size_t)tensor_extent(t), 1);
    if (!p) return -1;
    s->in[s->in_count++] = p;
    return 0;
}

int setup_output(bench_setup *s, const tmv_tensor_desc *t) {
    void *p = setup_buffer(s, (size_t)tensor_extent(t), 0);
    if (!p) return -1;
    s->out[s->out_count++] = p;
    return 0;
}

void setup_bind_input(bench_setup *s, const void *p) { s->in[s->in_count++] = p; }

int setup_join_split(bench_setup *s, int split, const tmv_tensor_desc *whole, const tmv_tensor_desc *pieces,
                     uint32_t count, uint32_t axis) {
    if (split) {
        s->u.split = (tmv_split_desc){whole, count, pieces, axis};
        s->op = (tmv_op_desc){TMV_OP_SPLIT, &s->u.split, 0};
        if (setup_input(s, whole)) return -1;
        for (uint32_t k = 0; k < count; ++k)
            if (setup_output(s, &pieces[k])) return -1;
    } else {
        s->u.join = (tmv_join_desc){count, pieces, whole, axis};
        s->op = (tmv_op_desc){TMV_OP_JOIN, &s->u.join, 0};
        for (uint32_t k = 0; k < count; ++k)
            if (setup_input(s, &pieces[k])) return -1;
        if (setup_output(s, whole)) return -1;
    }
    s->bytes_written = tensor_elems(whole) * tmv_dtype_size(whole->dtype);
    s->bytes_read = s->bytes_written;
    return 0;
}

void setup_free(bench_setup *s) {
    for (uint32_t i = 0; i < s->owned_count; ++i) free(s->owned[i]);
    memset(s, 0, sizeof *s);
}

uint64_t bench_rand(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

void fill_indices(void *dst, tmv_dtype idx_dtype, size_t count, const uint32_t *bounds,
                  uint32_t bound_count, uint64_t seed) {
    uint64_t st = seed | 1;
    for (size_t i = 0; i < count; ++i) {
        uint64_t v = (bench_rand(&st) >> 11) % bounds[i % bound_count];
        switch (idx_dtype) {
        case TMV_DTYPE_INT64: case TMV_DTYPE_UINT64: ((uint64_t *)dst)[i] = v; break;
        default: ((uint32_t *)dst)[i] = (uint32_t)v; break;
        }
    }
}
