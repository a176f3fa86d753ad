/* kernels.h - the copy primitives every operator lowers to, their shapes, and the kernel registry.
 *
 * Every kernel is one row of src/registry.inc: its primitive, variant, kernel
 * set and whether it prepares state at create. From that list come the
 * kernels' prototypes (the end of this header), the table the planner picks
 * from (registry.c), the verifier's --list and the per-kernel checker. The
 * planner takes, once at create, among the rows of the step's primitive whose
 * set the operator's kernel set includes and whose `accepts` takes the shape,
 * the first, unless the cost model (cost.h) rates another clearly cheaper;
 * rows are in preference order, the portable catch-all of each primitive
 * last. Adding a kernel is one file in src/x86 or src/arm plus one row (and
 * a calibration run, which test_cost asks for). */
#ifndef TMV_KERNELS_H
#define TMV_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

#include "shape.h"
#include "tensormove.h"
#include "tuning.h"

/* The primitives. The first five are the copy family: one shape type
 * (tmv_copy_shape) and one kernel signature; the planner tells which of them
 * a copy shape is (copy_kinds.h), and a kernel registered for FILL,
 * DEINTERLEAVE, INTERLEAVE or TRANSPOSE only ever sees shapes of that
 * geometry, so its accepts says what its ISA can do (widths, sizes), not
 * which shapes to leave to other kernels. */
typedef enum tmv_primitive {
    TMV_PRIMITIVE_COPY,         /* strided N-D copy, any shape: the family's catch-all */
    TMV_PRIMITIVE_FILL,         /* the inner dim repeats one source element (stride 0) */
    TMV_PRIMITIVE_DEINTERLEAVE, /* B-way de-interleave of rows, B <= 8 (SPACE_TO_DEPTH's block) */
    TMV_PRIMITIVE_INTERLEAVE,   /* B-way interleave of rows, B <= 8 (DEPTH_TO_SPACE's block) */
    TMV_PRIMITIVE_TRANSPOSE,    /* 2-D transpose of the two inner dims */
    TMV_PRIMITIVE_JOIN_ROWS,    /* row-wise JOIN (tmv_rows_shape) */
    TMV_PRIMITIVE_SPLIT_ROWS,   /* row-wise SPLIT (tmv_rows_shape) */
    TMV_PRIMITIVE_GATHER,       /* GATHER_ND slice gather (tmv_gather_shape) */
    TMV_PRIMITIVE_COUNT
} tmv_primitive;

/* p is one of the copy family (COPY to TRANSPOSE). */
static inline bool tmv_primitive_copies(tmv_primitive p)
{
    return p <= TMV_PRIMITIVE_TRANSPOSE;
}

/* "copy", "fill", "deinterleave", "interleave", "transpose", "join_rows", "split_rows", "gather". */
const char *tmv_primitive_name(tmv_primitive p);

/* Kernel state: tables a kernel derives from the shape alone (permute
 * indices, vector orders, index-check bounds) are built once at create by its
 * `prepare` into a block of TMV_KERNEL_STATE_BYTES (64-byte aligned) that the
 * plan owns, and the shape's `state` points to it at every execute. Building
 * them per call cost 30-40 ns, a fifth of an 8 KiB JOIN. A kernel with a
 * prepare may rely on its state being there. */
#define TMV_KERNEL_STATE_BYTES 4096

/* ---- strided N-D copy (JOIN/SPLIT pieces, TILE, SPACE/DEPTH, strided inputs) ---- */
typedef void tmv_copy_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
typedef bool tmv_copy_accepts(const tmv_copy_shape *s);
typedef void tmv_copy_prepare(const tmv_copy_shape *s, void *state);

/* What the cost model (cost.h) prices a step at: one call, and its blocks,
 * lines, pieces and bytes. cost.h counts them from the shape alone; a
 * kernel registered with TMV_KERNEL_PRICED counts its own units instead
 * (tmv_copy_features): the permute blocks, window loads and vectors a
 * permute kernel runs, say, where a shape's dims do not tell them. */
typedef struct tmv_cost_features {
    double blocks;
    double lines;
    double pieces;
    double bytes;
} tmv_cost_features;

/* A priced kernel's counts for shape s (which it accepts), given cost.h's
 * counts in *f: it rewrites blocks, lines and pieces, never bytes. */
typedef void tmv_copy_features(const tmv_copy_shape *s, tmv_cost_features *f);
typedef tmv_copy_run *tmv_copy_fn;
/* The family's other primitives: the same signatures (registry.inc names them). */
typedef tmv_copy_run tmv_fill_run, tmv_deinterleave_run, tmv_interleave_run, tmv_transpose_run;
typedef tmv_copy_accepts tmv_fill_accepts, tmv_deinterleave_accepts, tmv_interleave_accepts, tmv_transpose_accepts;
typedef tmv_copy_prepare tmv_fill_prepare, tmv_deinterleave_prepare, tmv_interleave_prepare, tmv_transpose_prepare;
/* Whether a kernel registered `streams_if` writes shape s (which it accepts)
 * with streaming stores: the kernel's own test, on the shape alone. */
typedef bool tmv_copy_streams_test(const tmv_copy_shape *s);
typedef tmv_copy_streams_test tmv_fill_streams_test, tmv_deinterleave_streams_test, tmv_interleave_streams_test,
    tmv_transpose_streams_test;

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
    const tmv_tuning     *tuning;         /* the plan's tuning record */
    const void           *state;          /* the kernel's prepared tables, or NULL */
} tmv_rows_shape;
typedef void tmv_join_rows_run(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
typedef void tmv_split_rows_run(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);
typedef bool tmv_rows_accepts(const tmv_rows_shape *s);
typedef void tmv_rows_prepare(const tmv_rows_shape *s, void *state);
typedef tmv_rows_accepts tmv_join_rows_accepts, tmv_split_rows_accepts;
typedef tmv_rows_prepare tmv_join_rows_prepare, tmv_split_rows_prepare;
typedef bool tmv_rows_streams_test(const tmv_rows_shape *s);
typedef tmv_rows_streams_test tmv_join_rows_streams_test, tmv_split_rows_streams_test;
typedef tmv_join_rows_run *tmv_join_rows_fn;
typedef tmv_split_rows_run *tmv_split_rows_fn;

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
    bool      checked;                    /* every index already checked in range by the caller (a
                                             parallel execute's check pass): copy without checking */
    /* The slice each tuple selects (the trailing input dims), copied with
     * slice_copy from input + offset to output + position offset. */
    tmv_copy_shape slice;
    tmv_copy_fn    slice_copy;
    const tmv_tuning *tuning;             /* the plan's tuning record */
    const void    *state;                 /* the kernel's prepared state, or NULL */
} tmv_gather_shape;
/* Checks every index first (TMV_ERR_INDEX_OUT_OF_RANGE with the last error
 * set, nothing written) unless clamping, then copies. */
typedef tmv_status tmv_gather_run(const tmv_gather_shape *s, const uint8_t *input,
                                  const uint8_t *indices, uint8_t *output);
typedef bool tmv_gather_accepts(const tmv_gather_shape *s);
typedef void tmv_gather_prepare(const tmv_gather_shape *s, void *state);
/* The run's check alone, quietly: true if every index tuple is in range (or
 * needs no check), no error set. A parallel execute runs it over each task's
 * tuples before any task writes, then runs the kernel with `checked` set, so
 * the indices are checked once, at the kernel's own speed. */
typedef bool tmv_gather_check_run(const tmv_gather_shape *s, const uint8_t *indices);
typedef tmv_gather_run *tmv_gather_fn;

/* ---- the registry ---- */

/* How a kernel writes a step whose output is past the stream threshold
 * (registry.inc's `stores` column): the cost model prices DRAM's floor by
 * it (cost.h, tmv_cost_floor_ns). */
typedef enum tmv_stores {
    TMV_STORES_PLAIN,     /* plain stores only */
    TMV_STORES_STREAMED,  /* streaming stores for every such step it takes (unaligned heads and tails aside) */
    TMV_STORES_BY_SHAPE   /* streaming stores where its streams hook says so */
} tmv_stores;

/* One row of registry.inc. The function pointers of the row's primitive are
 * set (prepare may be NULL); the union holds them typed. */
typedef struct tmv_kernel {
    const char   *name;        /* "<variant>/<set>", e.g. "copy_transpose/avx2" */
    tmv_primitive primitive;
    tmv_isa       set;
    tmv_stores    stores;
    bool          peels;       /* streams a destination off a 64-byte line itself, from its first line (stage.c) */
    union {
        struct { /* the family; features: NULL but for TMV_KERNEL_PRICED rows; streams: for TMV_STORES_BY_SHAPE */
            tmv_copy_accepts      *accepts;
            tmv_copy_run          *run;
            tmv_copy_prepare      *prepare;
            tmv_copy_features     *features;
            tmv_copy_streams_test *streams;
        } copy;
        struct {
            tmv_rows_accepts      *accepts;
            tmv_join_rows_run     *run;
            tmv_rows_prepare      *prepare;
            tmv_rows_streams_test *streams;
        } join_rows;
        struct {
            tmv_rows_accepts      *accepts;
            tmv_split_rows_run    *run;
            tmv_rows_prepare      *prepare;
            tmv_rows_streams_test *streams;
        } split_rows;
        struct {
            tmv_gather_accepts   *accepts;
            tmv_gather_run       *run;
            tmv_gather_prepare   *prepare;
            tmv_gather_check_run *check;
        } gather;
    } fn;
} tmv_kernel;

/* Every kernel this build has, in registry order. */
extern const tmv_kernel tmv_kernels[];
extern const unsigned tmv_kernel_count;

/* The kernel takes this shape (of its primitive's shape type). */
bool tmv_kernel_accepts(const tmv_kernel *k, const void *shape);

/* The kernel has a prepare. */
bool tmv_kernel_has_prepare(const tmv_kernel *k);

/* Runs k's prepare on the shape into state (TMV_KERNEL_STATE_BYTES). */
void tmv_kernel_prepare(const tmv_kernel *k, const void *shape, void *state);

/* Of the kernels of `primitive` that kernel set `isa` includes and that
 * accept the shape, the first in registry order unless the cost model
 * (tmv_cost_choose) rates another clearly cheaper; never NULL for COPY and
 * the non-copy primitives (the portable catch-all takes any shape), NULL
 * when none of FILL, DEINTERLEAVE, INTERLEAVE or TRANSPOSE does. */
const tmv_kernel *tmv_pick(tmv_primitive primitive, tmv_isa isa, const void *shape);
/* The kernel for a copy shape: the copy family's rows whose primitive the
 * shape is (tmv_copy_primitives), set `isa` includes and that accept it,
 * ordered by the most specific primitive -- FILL, DEINTERLEAVE or
 * INTERLEAVE, then TRANSPOSE, then COPY -- and registry order within; the
 * first unless the cost model rates another clearly cheaper; never NULL. */
const tmv_kernel *tmv_pick_copy(tmv_isa isa, const tmv_copy_shape *shape);
/* The same among the kernels with no prepare: for a copy that has no state
 * of its own (GATHER_ND's slice copies). */
const tmv_kernel *tmv_pick_copy_stateless(tmv_isa isa, const tmv_copy_shape *shape);
/* The first of those in the same order, with no cost model (of a copy shape:
 * the first with no prepare): for the parts of a step a parallel execute
 * cuts that its kernel does not take, where rating every candidate per part
 * would cost more than it saves. */
const tmv_kernel *tmv_pick_first(tmv_primitive primitive, tmv_isa isa, const void *shape);
const tmv_kernel *tmv_pick_copy_first(tmv_isa isa, const tmv_copy_shape *shape);
/* Every kernel tmv_pick (tmv_candidates) or tmv_pick_copy (tmv_copy_candidates)
 * chooses among for the shape, in its order of preference, into out (at
 * most `most`); how many. For tools that time them all (tmv-plan-regret). */
unsigned tmv_candidates(tmv_primitive primitive, tmv_isa isa, const void *shape, const tmv_kernel **out,
                        unsigned most);
unsigned tmv_copy_candidates(tmv_isa isa, const tmv_copy_shape *shape, const tmv_kernel **out, unsigned most);

/* Prototypes of every row's functions: tmv_<variant>_<set> runs it,
 * tmv_<variant>_<set>_accepts says whether its ISA can take a shape,
 * tmv_<variant>_<set>_prepare (rows marked `prepared`) builds its state,
 * tmv_<variant>_<set>_features (TMV_KERNEL_PRICED rows, of the copy family)
 * counts its cost units, tmv_<variant>_<set>_streams (rows whose stores are
 * `streams_if`) says which shapes it streams, and tmv_gather_check_<set>,
 * which a set's gather rows share, checks the indices alone. */
#define TMV_DECLARE_PREPARE_stateless(primitive, fn)
#define TMV_DECLARE_PREPARE_prepared(primitive, fn) tmv_##primitive##_prepare fn##_prepare;
#define TMV_DECLARE_STREAMS_plain(primitive, fn)
#define TMV_DECLARE_STREAMS_streams(primitive, fn)
#define TMV_DECLARE_STREAMS_streams_if(primitive, fn) tmv_##primitive##_streams_test fn##_streams;
#define TMV_DECLARE_STREAMS_streams_peeled(primitive, fn)
#define TMV_DECLARE_STREAMS_streams_if_peeled(primitive, fn) tmv_##primitive##_streams_test fn##_streams;
#define TMV_KERNEL(primitive, variant, set, state, stores)                \
    tmv_##primitive##_run tmv_##variant##_##set;                          \
    tmv_##primitive##_accepts tmv_##variant##_##set##_accepts;            \
    TMV_DECLARE_PREPARE_##state(primitive, tmv_##variant##_##set)         \
    TMV_DECLARE_STREAMS_##stores(primitive, tmv_##variant##_##set)        \
    TMV_DECLARE_CHECK_##primitive(set)
#define TMV_DECLARE_CHECK_copy(set)
#define TMV_DECLARE_CHECK_fill(set)
#define TMV_DECLARE_CHECK_deinterleave(set)
#define TMV_DECLARE_CHECK_interleave(set)
#define TMV_DECLARE_CHECK_transpose(set)
#define TMV_DECLARE_CHECK_join_rows(set)
#define TMV_DECLARE_CHECK_split_rows(set)
#define TMV_DECLARE_CHECK_gather(set) tmv_gather_check_run tmv_gather_check_##set;
#define TMV_KERNEL_PRICED(primitive, variant, set, state, stores) \
    TMV_KERNEL(primitive, variant, set, state, stores)           \
    tmv_copy_features tmv_##variant##_##set##_features;
#include "registry.inc"
#undef TMV_KERNEL
#undef TMV_KERNEL_PRICED

#endif
