/* cases.h - case kinds (one per operator shape pattern), the case table and the size classes. */
#ifndef TMV_BENCH_CASES_H
#define TMV_BENCH_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "setup.h"

/* Size classes: the output bytes a case aims at (it may round down to fit its
 * shape rules). L2 is 512 KiB so that input + output (1 MiB) fit Zen 4's
 * 1 MiB L2, as L1's 16 KiB + 16 KiB fit its 32 KiB L1d. */
enum {
    SIZE_L1 = 1u << 0,      /* 16 KiB output */
    SIZE_L2 = 1u << 1,      /* 512 KiB output */
    SIZE_DRAM = 1u << 2,    /* 64 MiB output */
    SIZE_TINY = 1u << 3,    /* a few elements: per-call overhead */
    SIZE_8K = 1u << 4,      /* 8 KiB output: where per-call overhead still shows */
    SIZE_ALL = SIZE_L1 | SIZE_L2 | SIZE_DRAM,
    QUICK_DRAM = 1u << 8    /* the quick run (run.sh) includes the DRAM size */
};
#define SIZE_CLASS_COUNT 5
extern const char *const size_class_names[SIZE_CLASS_COUNT];   /* "L1", "L2", "DRAM", "tiny", "8KiB" */
extern const uint64_t size_class_bytes[SIZE_CLASS_COUNT];

struct bench_case;

/* A kind builds one shape pattern of one operator at a target output size.
 * build returns 0, or -1 when out of memory. label writes the parameters
 * part of the name ("8x4B"). */
typedef struct bench_kind {
    const char *family;    /* "join" */
    const char *variant;   /* "inner" */
    int (*build)(const struct bench_case *c, uint64_t target_bytes, bench_setup *s);
    void (*label)(const struct bench_case *c, char *buf, size_t size);
} bench_kind;

/* One line of the case table. p[] holds the kind's parameters (see the kind). */
typedef struct bench_case {
    const bench_kind *kind;
    tmv_dtype dtype;
    uint32_t p[3];
    unsigned sizes;        /* SIZE_* bits, optionally QUICK_DRAM */
} bench_case;

extern const bench_case bench_cases[];
extern const size_t bench_case_count;

const char *dtype_name(tmv_dtype dtype);

/* The kinds, one file per operator family. */
extern const bench_kind kind_join_outer, kind_join_outer_oneshot, kind_join_inner, kind_join_transposed;
extern const bench_kind kind_split_outer, kind_split_outer_shuffled, kind_split_inner, kind_join_nhwc, kind_split_nhwc;
extern const bench_kind kind_tile_inner, kind_tile_outer, kind_tile_all, kind_tile_3d, kind_tile_padded;
extern const bench_kind kind_s2d, kind_d2s, kind_s2d_padded, kind_s2d_nhwc, kind_d2s_nhwc;
extern const bench_kind kind_gather_rows, kind_gather_table, kind_gather_elements, kind_gather_batch,
    kind_gather_padded;
extern const bench_kind kind_tiny_join, kind_tiny_split, kind_tiny_tile, kind_tiny_s2d,
    kind_tiny_d2s, kind_tiny_gather, kind_tiny_oneshot;

/* Cases outside the table, too many tensors for a bench_setup: JOIN and SPLIT
 * of 100,000 pieces, create and execute timed, under the default kernel set
 * (fam_many_pieces.c). Registered by bench_register_all. */
void bench_register_many_pieces(void);

/* Registers case c (which must outlive the run) at target output bytes,
 * named size_name ("1MiB"), on one thread under the default kernel set
 * (runner.c): for the generated sweep (sweep.c) and the model zoo (zoo.c). */
void bench_register_case(const bench_case *c, uint64_t target, const char *size_name);
void bench_register_sweep(int full);
void bench_register_zoo(void);

#endif /* TMV_BENCH_CASES_H */
