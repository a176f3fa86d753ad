/* obvious.h - the two plans anyone would write first, as yardsticks beside every case: memcpy of each contiguous piece, and a plain element loop.
 *
 * Both are built from a prepared case's description and bound buffers alone
 * (never from the library's plan), so they are what a user would get without
 * tensormove: x_pieces and x_loop divide their time by the case's, and a case
 * below 1 on either loses to the obvious code. */
#ifndef TMV_BENCH_OBVIOUS_H
#define TMV_BENCH_OBVIOUS_H

#include <stdint.h>

#include "setup.h"

#define OBVIOUS_MAX_DIMS (2 * TMV_MAX_DIMS)

/* One strided copy: for every coordinate of size[], the element at
 * src + sum(i * src_stride) goes to dst + sum(i * dst_stride) (byte strides,
 * dims outermost first). */
typedef struct obvious_copy {
    const uint8_t *src;
    uint8_t *dst;
    uint32_t dims;
    uint64_t size[OBVIOUS_MAX_DIMS];
    int64_t src_stride[OBVIOUS_MAX_DIMS], dst_stride[OBVIOUS_MAX_DIMS];
    uint64_t run;          /* bytes contiguous on both sides at the innermost dims */
    uint32_t outer_dims;   /* the dims outside that run */
} obvious_copy;

/* A GATHER_ND as the obvious code runs it: for each index tuple, its slice
 * (copy, src at the tuple's row of the first batch) copied to the next
 * output slice. */
typedef struct obvious_gather {
    const uint8_t *indices;
    tmv_dtype index_dtype;
    uint32_t k;                      /* indices per tuple */
    uint64_t tuples, tuples_per_batch;
    uint32_t dim_size[TMV_MAX_DIMS];      /* the indexed dims' sizes */
    int64_t dim_stride[TMV_MAX_DIMS];     /* their byte strides */
    uint32_t batch_dims;
    uint32_t batch_size[TMV_MAX_DIMS];
    int64_t batch_stride[TMV_MAX_DIMS];   /* the batch dims' input byte strides */
    int64_t out_step;                     /* output bytes per tuple */
} obvious_gather;

typedef struct obvious_plan {
    uint32_t esz;
    uint32_t copy_count;
    obvious_copy copies[SETUP_MAX_TENSORS];
    int is_gather;                   /* copies[0] is the slice copy of obvious_gather */
    obvious_gather gather;
} obvious_plan;

/* Builds the plans of a prepared case. Returns 0, or -1 for a description
 * they do not cover (e.g. more than SETUP_MAX_TENSORS pieces). */
int obvious_plan_build(const bench_setup *s, obvious_plan *p);
/* memcpy of each run contiguous in both source and destination (an element
 * where the innermost dim is strided on either side). */
void obvious_run_pieces(void *plan);
/* A loop over the elements, innermost dim last, one typed load and store
 * each (which the compiler vectorizes where the strides allow). */
void obvious_run_loop(void *plan);
/* Runs both plans and the case (through tmv_execute, on the current kernel
 * set) into s's outputs and compares their bytes: 0 when all three agree, -1
 * otherwise (the yardsticks would time something else). Leaves the outputs
 * zeroed. */
int obvious_plan_agrees(const bench_setup *s, obvious_plan *p);

/* For a gather plan: visit(context, src, bytes) for every run of every
 * tuple's slice, in the order the gather reads them (nothing for others). */
typedef void obvious_run_fn(void *context, const uint8_t *src, uint64_t bytes);
void obvious_gather_runs(const obvious_plan *p, obvious_run_fn *visit, void *context);

#endif /* TMV_BENCH_OBVIOUS_H */
