/* kernels.h - the copy primitives every operator lowers to, and the kernel lists that implement them.
 *
 * Each primitive has one list of kernels in preference order (most specific
 * and highest ISA first, the portable catch-all last). A plan takes, once at
 * create, the first kernel whose ISA the operator's kernel set includes and
 * whose `accepts` takes the shape. Adding a kernel is one file in src/x86 or
 * src/arm plus one line in src/kernel_list.c; the same lists drive the
 * verifier, the tests and tmv_op_describe. */
#ifndef TMV_KERNELS_H
#define TMV_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

#include "shape.h"
#include "tensormove.h"

/* ---- strided N-D copy (JOIN/SPLIT pieces, TILE, SPACE/DEPTH, strided inputs) ---- */
typedef void (*tmv_copy_fn)(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
typedef struct tmv_copy_kernel {
    const char *name;
    tmv_isa     isa;
    bool      (*accepts)(const tmv_copy_shape *s);   /* NULL: any shape */
    tmv_copy_fn run;
} tmv_copy_kernel;

/* ---- row-wise JOIN / SPLIT: every joined row is the pieces' rows side by side ---- */
typedef struct tmv_rows_piece {
    uint32_t buffer;   /* index into the JOIN inputs / SPLIT outputs */
    uint64_t bytes;    /* bytes of this piece in one joined row (> 0) */
    uint64_t offset;   /* where they start in the joined row */
    uint64_t pitch;    /* the piece's own row pitch, bytes */
} tmv_rows_piece;
typedef struct tmv_rows_shape {
    uint64_t              rows;
    uint64_t              joined_pitch;   /* row pitch of the joined tensor, bytes */
    uint64_t              joined_bytes;   /* bytes of one joined row (sum of pieces) */
    uint32_t              piece_count;
    const tmv_rows_piece *pieces;
    const void           *state;          /* the kernel's prepared tables (below), or NULL */
} tmv_rows_shape;
typedef void (*tmv_join_rows_fn)(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
typedef void (*tmv_split_rows_fn)(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);

/* Kernel state: tables a kernel derives from the shape alone (permute
 * indices, vector orders) are built once at create by its `prepare` into a
 * block of TMV_KERNEL_STATE_BYTES (64-byte aligned) that the plan owns, and
 * the shape's `state` points to it at every execute. Building them per call
 * cost 30-40 ns, a fifth of an 8 KiB JOIN. A kernel with a prepare may rely
 * on its state being there. */
#define TMV_KERNEL_STATE_BYTES 4096
typedef void (*tmv_rows_prepare_fn)(const tmv_rows_shape *s, void *state);
typedef struct tmv_join_rows_kernel {
    const char         *name;
    tmv_isa             isa;
    bool              (*accepts)(const tmv_rows_shape *s);
    tmv_join_rows_fn    run;
    tmv_rows_prepare_fn prepare;   /* NULL: no state */
} tmv_join_rows_kernel;
typedef struct tmv_split_rows_kernel {
    const char         *name;
    tmv_isa             isa;
    bool              (*accepts)(const tmv_rows_shape *s);
    tmv_split_rows_fn   run;
    tmv_rows_prepare_fn prepare;   /* NULL: no state */
} tmv_split_rows_kernel;

/* ---- GATHER_ND slice gather ---- */
typedef struct tmv_gather_shape {
    /* Index tuples: an odometer over pos_rank dims (the batch dims, then the
     * other indices dims but the last), with byte strides into each tensor;
     * batch dims step through the input, the others do not (stride 0).
     * Lowering drops size-1 dims and merges dims that step all three tensors
     * as one, so pos_rank >= 1 and the innermost dim is the longest run of
     * tuples at fixed strides (a single tuple: one dim of size 1). */
    uint32_t  pos_rank;
    uint64_t  pos_sizes[TMV_MAX_DIMS];
    uint64_t  pos_index_strides[TMV_MAX_DIMS];
    uint64_t  pos_input_strides[TMV_MAX_DIMS];
    uint64_t  pos_output_strides[TMV_MAX_DIMS];
    /* One tuple: k indices, index_stride bytes apart, each selecting along an
     * input dim of dim_sizes[j] elements, dim_strides[j] bytes apart. */
    uint32_t  k;
    tmv_dtype index_type;                 /* INT32, INT64, UINT32 or UINT64 */
    uint64_t  index_stride;
    uint64_t  dim_sizes[TMV_MAX_DIMS];
    uint64_t  dim_strides[TMV_MAX_DIMS];
    uint32_t  first_indexed_dim;          /* input dim of index 0, for messages */
    bool      clamp;                      /* TMV_OP_FLAG_CLAMP_INDICES */
    /* The slice each tuple selects (the trailing input dims), copied with
     * slice_copy from input + offset to output + position offset. */
    tmv_copy_shape slice;
    tmv_copy_fn    slice_copy;
    const void    *state;                 /* the kernel's prepared state (see below), or NULL */
} tmv_gather_shape;
/* Checks every index first (TMV_ERR_INDEX_OUT_OF_RANGE with the last error
 * set, nothing written) unless clamping, then copies. */
typedef tmv_status (*tmv_gather_fn)(const tmv_gather_shape *s, const uint8_t *input,
                                    const uint8_t *indices, uint8_t *output);
typedef void (*tmv_gather_prepare_fn)(const tmv_gather_shape *s, void *state);
typedef struct tmv_gather_kernel {
    const char           *name;
    tmv_isa               isa;
    bool                (*accepts)(const tmv_gather_shape *s);
    tmv_gather_fn         run;
    tmv_gather_prepare_fn prepare;   /* NULL: no state (see the kernel state of the rows kernels) */
} tmv_gather_kernel;

/* The lists (src/kernel_list.c), each ending with a portable catch-all whose
 * accepts is NULL, then a {NULL} terminator. */
extern const tmv_copy_kernel       tmv_copy_kernels[];
extern const tmv_join_rows_kernel  tmv_join_rows_kernels[];
extern const tmv_split_rows_kernel tmv_split_rows_kernels[];
extern const tmv_gather_kernel     tmv_gather_kernels[];

/* Every kernel of every list, flattened for the verifier and tests: fills
 * up to max entries and returns how many kernels there are in all. */
typedef struct tmv_kernel_info {
    const char *primitive;   /* "copy", "join_rows", "split_rows", "gather" */
    const char *name;
    tmv_isa     isa;
} tmv_kernel_info;
unsigned tmv_list_kernels(tmv_kernel_info *out, unsigned max);

/* The first kernel of a list usable under kernel set `isa` for the shape. */
const tmv_copy_kernel       *tmv_pick_copy(tmv_isa isa, const tmv_copy_shape *s);
const tmv_join_rows_kernel  *tmv_pick_join_rows(tmv_isa isa, const tmv_rows_shape *s);
const tmv_split_rows_kernel *tmv_pick_split_rows(tmv_isa isa, const tmv_rows_shape *s);
const tmv_gather_kernel     *tmv_pick_gather(tmv_isa isa, const tmv_gather_shape *s);

#endif
