/* casegen.h - deterministic random operator cases (description + guarded input data) and
 * canary-banded output areas, shared by the property tests and the verifier program. */
#ifndef TMV_CASEGEN_H
#define TMV_CASEGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tensormove.h"

/* JOIN's inputs or SPLIT's outputs: up to 16 pieces, plus the other side. */
#define CG_MAX_PIECES 16
#define CG_MAX_TENSORS (CG_MAX_PIECES + 1)

/* ---- the random generator (splitmix64; the whole state is one word) ---- */
typedef struct cg_rng { uint64_t state; } cg_rng;
uint64_t cg_rng_next(cg_rng *rng);
/* Uniform in [0, bound); 0 when bound is 0. */
uint64_t cg_rng_below(cg_rng *rng, uint64_t bound);
/* True with probability percent/100. */
bool cg_rng_chance(cg_rng *rng, unsigned percent);

/* ---- knobs; cg_default_options() gives the values the tests use ---- */
typedef struct cg_options {
    uint32_t max_elements;        /* cap on any tensor's element count (default 4096) */
    unsigned empty_percent;       /* chance that a shape gets a 0 size somewhere (default 3) */
    unsigned bad_index_percent;   /* GATHER_ND: chance that a case holds out-of-range
                                     indices (default 0: all in range) */
    unsigned clamp_percent;       /* GATHER_ND: chance of TMV_OP_FLAG_CLAMP_INDICES (default 0) */
} cg_options;
cg_options cg_default_options(void);

/* A buffer placed for checking: `data` is what the operator gets.
 * Input: data ends exactly where a PROT_NONE page begins (over-reads fault).
 * Output: `guard` canary bytes before and after the extent. */
typedef struct cg_region {
    unsigned char *map;           /* the mapping or allocation, NULL if none */
    size_t         map_len;
    unsigned char *data;          /* NULL for an empty tensor bound as NULL */
    size_t         len;           /* the tensor's byte extent */
    size_t         guard;         /* output: canary bytes on each side; input: PROT_NONE bytes before data */
} cg_region;

/* Maps an input region of len bytes that ends exactly where a PROT_NONE page
 * begins (over-reads fault), or with guard_before starts exactly where one
 * ends (reads before the start fault). Sparse: the whole mapping only
 * reserves the addresses (PROT_NONE, MAP_NORESERVE); the caller opens the
 * pages it fills; the guard page follows. False if mapping fails. */
bool cg_map_input(cg_region *r, size_t len, bool sparse, bool guard_before);
/* Makes a filled input read-only (an operator that writes to one faults). */
bool cg_seal_input(cg_region *r);
size_t cg_page_size(void);

/* One case: a valid description that owns every array it points to, plus its
 * input data. Heap-allocated (it points into itself); never copy it. */
typedef struct cg_case {
    uint64_t    seed;
    cg_options  options;
    tmv_op_desc op;               /* what to pass to tmv_op_create / tmv_execute */
    tmv_join_desc           join;
    tmv_split_desc          split;
    tmv_tile_desc           tile;
    tmv_space_to_depth_desc space_to_depth;
    tmv_depth_to_space_desc depth_to_space;
    tmv_gather_nd_desc      gather_nd;

    /* Tensors in buffer-binding order: inputs[0..input_count), then outputs. */
    uint32_t        input_count, output_count;
    tmv_tensor_desc tensors[CG_MAX_TENSORS];
    uint32_t        sizes[CG_MAX_TENSORS][TMV_MAX_DIMS];
    uint32_t        strides[CG_MAX_TENSORS][TMV_MAX_DIMS];
    const char     *layouts[CG_MAX_TENSORS];   /* "packed", "padded", "permuted", ... */
    bool            all_packed;                /* every tensor packed (strides NULL) */
    uint32_t        repeats[TMV_MAX_DIMS];

    /* Input data, filled at creation; in_ptrs is ready for tmv_op_execute. */
    cg_region   inputs[CG_MAX_TENSORS];
    const void *in_ptrs[CG_MAX_TENSORS];
    /* What execute must return: TMV_OK, or TMV_ERR_INDEX_OUT_OF_RANGE for a
     * GATHER_ND case holding an unusable index. */
    tmv_status  expect;
} cg_case;

/* Builds the case for (type, seed, options): the same triple always gives the
 * same case. NULL on allocation failure or an unknown type. */
cg_case *cg_case_new(tmv_op_type type, uint64_t seed, const cg_options *options);
void cg_case_free(cg_case *c);

const tmv_tensor_desc *cg_case_output(const cg_case *c, uint32_t o);
/* Byte extent of a description (lowest to past highest element; sizes of 1
 * ignore their stride; 0 if empty), computed here independently of the library. */
size_t cg_extent_bytes(const tmv_tensor_desc *t);
size_t cg_dtype_size(tmv_dtype dtype);
const char *cg_dtype_name(tmv_dtype dtype);
const char *cg_op_name(tmv_op_type type);          /* "join", ... */
bool cg_op_from_name(const char *name, tmv_op_type *type);

/* Prints the case so that it can be read and reproduced: the seed and
 * options line (enough for cg_case_new), then op, flags, members, and every
 * tensor's dtype, sizes, strides and layout. Each line starts with `prefix`. */
void cg_case_print(const cg_case *c, FILE *f, const char *prefix);

/* ---- output areas ---- */
typedef struct cg_outputs {
    uint32_t  count;
    cg_region regions[CG_MAX_TENSORS];
    void     *ptrs[CG_MAX_TENSORS];                 /* ready for tmv_op_execute */
} cg_outputs;

/* Allocates one area per output of c: guard bands around the extent, all of
 * it (bands, extent, gaps between strided rows) filled with the canary
 * pattern. The same case always gives the same placement, so two areas
 * compare byte for byte. NULL when out of memory. */
cg_outputs *cg_outputs_new(const cg_case *c);
void cg_outputs_free(cg_outputs *outs);
/* The canary byte at offset `pos` from the start of an output area's mapping
 * (position-dependent, so a shifted copy of canaries still shows). */
unsigned char cg_canary_byte(size_t pos);

/* Where two output areas (made for the same case) first differ. */
typedef struct cg_mismatch {
    uint32_t      output;         /* which output */
    int64_t       offset;         /* bytes from the output's base pointer (negative: front band) */
    unsigned char expected, actual;
    const char   *where;          /* "front guard band", "extent", "back guard band" */
} cg_mismatch;
/* False, with *m filled, if any byte of any area differs; true if all equal. */
bool cg_outputs_equal(const cg_outputs *expected, const cg_outputs *actual, cg_mismatch *m);
/* False, with *m filled (expected = canary), if a guard band byte changed. */
bool cg_outputs_guards_intact(const cg_outputs *outs, cg_mismatch *m);

/* ---- running a case ---- */
/* Runs c through tmv_op_create + tmv_op_execute (the current kernel set) and
 * through the reference, each into fresh output areas, and compares statuses
 * and every byte of the areas. Returns true when all agree with c->expect;
 * otherwise writes a readable report (case included) into msg. */
bool cg_check_against_reference(const cg_case *c, char *msg, size_t msg_len);

#endif
