/* fuzz_buffers.h - the buffers of an accepted fuzz case: exact-size heap allocations
 * (a kernel's over-read or over-write is an ASan report), input bytes and GATHER_ND
 * indices from the case's seed, canary-filled outputs, and their comparisons. */
#ifndef TMV_FUZZ_BUFFERS_H
#define TMV_FUZZ_BUFFERS_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz_case.h"

/* The most bytes one case's inputs and outputs may span together; larger
 * cases are checked at create only. */
#define FZ_MAX_BYTES (384u * 1024u)

typedef struct fz_buffers {
    uint32_t                in_count, out_count;   /* in binding order (SPEC 1.10) */
    const tmv_tensor_desc **in_t, **out_t;
    uint64_t               *in_len, *out_len;      /* byte extents (SPEC 1.7) */
    unsigned char         **in, **out;             /* what execute is given (before fz_bind) */
    unsigned char         **in_copy;               /* the inputs as filled, to see they stay */
    unsigned char         **ref;                   /* the reference's outputs */
} fz_buffers;

/* Buffers for c, whose description tmv_op_create accepted; NULL if they
 * would span more than FZ_MAX_BYTES. Outputs and ref start as canaries. */
fz_buffers *fz_buffers_new(const fz_case *c);
void fz_buffers_free(fz_buffers *b);

/* Refills every output area with the canary pattern. */
void fz_buffers_canary(fz_buffers *b);

/* False, with the input and byte offset, if an input changed. */
bool fz_buffers_inputs_intact(const fz_buffers *b, uint32_t *which, uint64_t *offset);
/* False, with the output and byte offset, if output `o` differs from the
 * reference's (expect_ref) or from the canary pattern (!expect_ref). */
bool fz_buffers_output_matches(const fz_buffers *b, uint32_t o, bool expect_ref, uint64_t *offset);

#endif
