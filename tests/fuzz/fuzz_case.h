/* fuzz_case.h - one fuzz case: an operator description decoded from the fuzzer's bytes
 * (fuzz_decode.c), possibly corrupted, with every array it points to an exact-size heap
 * allocation, plus what execute should be given (fuzz_target.c). */
#ifndef TMV_FUZZ_CASE_H
#define TMV_FUZZ_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tensormove.h"

/* The most JOIN inputs / SPLIT outputs a decoded case has (a corrupted count
 * may claim more, up to any uint32_t, but is then above TMV_MAX_PIECES). */
#define FZ_MAX_PIECES 4096

/* One tensor: the description the operator points at, and the arrays it owns.
 * sizes and strides hold exactly the entries the description's own dim_count
 * claims (8 when it claims more), so a read past them is an ASan report. */
typedef struct fz_tensor {
    tmv_tensor_desc *desc;     /* exact-size allocation (or an entry of pieces_desc) */
    uint32_t        *sizes;    /* owned; desc->sizes may be NULL instead (corrupted) */
    uint32_t        *strides;  /* owned; NULL when packed */
} fz_tensor;

/* How execute's buffers are bound: as described, or one corruption of the call. */
typedef enum fz_bind {
    FZ_BIND_OK,
    FZ_BIND_NULL_INPUTS,       /* the inputs array is NULL */
    FZ_BIND_NULL_OUTPUTS,      /* the outputs array is NULL */
    FZ_BIND_NULL_INPUT,        /* inputs[bind_a] is NULL */
    FZ_BIND_NULL_OUTPUT,       /* outputs[bind_a] is NULL */
    FZ_BIND_ALIAS_INPUT,       /* outputs[bind_a] is bound to inputs[bind_b]'s buffer */
    FZ_BIND_ALIAS_OUTPUT       /* outputs[bind_a] is bound to outputs[bind_b]'s buffer */
} fz_bind;

typedef struct fz_case {
    tmv_op_desc       *op;          /* exact-size allocation; what tmv_op_create gets */
    const tmv_op_desc *op_arg;      /* op, or NULL (a corrupted call) */
    tmv_op_type        kind;        /* the operator decoded (op->type may be corrupted) */
    void              *member_desc; /* its tmv_<op>_desc, which op->desc pointed at when decoded */

    /* Every tensor the case owns, the main ones (join output; split input;
     * input, output; gather input, indices, output) first, then the pieces. */
    uint32_t   tensor_count;
    fz_tensor *tensors;
    tmv_tensor_desc *pieces_desc;   /* JOIN inputs / SPLIT outputs: pieces_len entries */
    uint32_t   pieces_len;          /* entries allocated (the count member may claim more) */
    uint32_t  *repeats;             /* TILE: repeats_len entries */
    uint32_t   repeats_len;

    const char *corruption;         /* the description field corrupted, or NULL */

    fz_bind   bind;
    uint32_t  bind_a, bind_b;       /* raw; reduced modulo the tensor counts */
    bool      empty_as_null;        /* bind tensors with no elements as NULL, else malloc(0) */
    unsigned  bad_index_percent;    /* GATHER_ND: chance an index is invalid */
    uint64_t  data_seed;            /* input bytes and index values */
} fz_case;

/* Decodes any byte string into a case; the same bytes always give the same
 * case. Never NULL (aborts when out of memory). */
fz_case *fz_decode(const uint8_t *data, size_t size);
void fz_case_free(fz_case *c);

/* Prints the description as decoded (members, every tensor's dtype, sizes,
 * strides) and the binding, reading only what the case allocated. */
void fz_case_print(const fz_case *c, FILE *f);

/* splitmix64: the fuzzer's only random generator (the whole state is one word). */
uint64_t fz_rng_next(uint64_t *state);

#endif
