/* setup.h - a prepared benchmark case: tensor descriptions, the operator description and touched buffers. */
#ifndef TMV_BENCH_SETUP_H
#define TMV_BENCH_SETUP_H

#include <stddef.h>
#include <stdint.h>

#include "tensormove.h"

#define SETUP_MAX_TENSORS 12
#define SETUP_MAX_BUFFERS 12

typedef struct bench_setup {
    tmv_op_desc op;
    union {
        tmv_join_desc join;
        tmv_split_desc split;
        tmv_tile_desc tile;
        tmv_space_to_depth_desc s2d;
        tmv_depth_to_space_desc d2s;
        tmv_gather_nd_desc gather_nd;
    } u;
    tmv_tensor_desc t[SETUP_MAX_TENSORS];
    uint32_t sizes[SETUP_MAX_TENSORS][TMV_MAX_DIMS];
    uint32_t strides[SETUP_MAX_TENSORS][TMV_MAX_DIMS];
    uint32_t repeats[TMV_MAX_DIMS];
    uint32_t tensor_count;

    const void *in[SETUP_MAX_BUFFERS];   /* bound in the description's order */
    void *out[SETUP_MAX_BUFFERS];
    uint32_t in_count, out_count;
    void *owned[2 * SETUP_MAX_BUFFERS];
    uint32_t owned_count;

    uint64_t bytes_read;     /* per execute, as the family defines it */
    uint64_t bytes_written;  /* per execute: the output elements' bytes */
    int one_shot;            /* time tmv_execute (create + execute + destroy) */
} bench_setup;

uint64_t tensor_elems(const tmv_tensor_desc *t);
/* Byte extent: lowest to just past highest addressed element. */
uint64_t tensor_extent(const tmv_tensor_desc *t);

/* Adds a tensor description (sizes copied; strides NULL = packed). */
tmv_tensor_desc *setup_tensor(bench_setup *s, tmv_dtype dtype, uint32_t dim_count,
                              const uint32_t *sizes, const uint32_t *strides);
/* Allocates a buffer of bytes (bench_line_offset past a 64-byte line, at a
 * page offset distinct from the case's other buffers), written before use:
 * inputs get a byte pattern, outputs zeros. NULL when out of memory. */
void *setup_buffer(bench_setup *s, size_t bytes, int pattern);
/* Element strides of 4-D {N, C, H, W} sizes stored channels-last (NHWC). */
void nhwc_strides(const uint32_t *sizes, uint32_t *strides);
/* Binds a new, touched buffer holding t's extent as the next input / output. */
int setup_input(bench_setup *s, const tmv_tensor_desc *t);
int setup_output(bench_setup *s, const tmv_tensor_desc *t);
/* Binds bytes already filled (e.g. indices) as the next input. */
void setup_bind_input(bench_setup *s, const void *p);
/* Describes JOIN (the count pieces, consecutive descriptions from `pieces`,
 * into whole along axis) or, when split, SPLIT (whole into the pieces) and
 * binds new buffers in the description's order. Bytes: read = written = the
 * whole's elements' bytes (every element is read once and written once). */
int setup_join_split(bench_setup *s, int split, const tmv_tensor_desc *whole, const tmv_tensor_desc *pieces,
                     uint32_t count, uint32_t axis);
void setup_free(bench_setup *s);

/* Deterministic pseudo-random numbers (xorshift64*) for indices. */
uint64_t bench_rand(uint64_t *state);
/* Writes count indices of index dtype idx_dtype, index i drawn in [0, bound(i)). */
void fill_indices(void *dst, tmv_dtype idx_dtype, size_t count, const uint32_t *bounds,
                  uint32_t bound_count, uint64_t seed);

#endif /* TMV_BENCH_SETUP_H */
