/* check_case.h - one case of tmv-check-kernels: its operator is created
 * under the set the library runs (and, when TENSORMOVE_ISA caps it, under
 * the default set too, since plans depend on the set), and every step of
 * each plan is run, under each tuning record, with every selected kernel of the
 * step's primitive that accepts its shape, each held to the portable kernel
 * the scalar set picks for that shape. A GATHER step also runs the portable
 * gather with every selected copy kernel that accepts its slice shape as the
 * slice copy. */
#ifndef TMV_CHECK_CASE_H
#define TMV_CHECK_CASE_H

#include <stdbool.h>
#include <stdint.h>

#include "casegen.h"
#include "check_bench.h"
#include "kernels.h"
#include "tuning.h"

/* The tuning records every kernel runs under: the first streams every
 * output (threshold 1) and prefetches gathers the farthest, the second
 * streams nothing and prefetches nothing, and the third is the second on a
 * CPU of tiny caches, so that the paths a kernel takes only for steps past
 * L1, L2 or L3 run on the checker's small shapes too (the other two report
 * no caches). accepts may differ between them. */
#define CK_RECORDS 3
typedef struct ck_record {
    const char *name;
    tmv_tuning  tuning;
} ck_record;
extern const ck_record ck_records[CK_RECORDS];

/* What the checks found for one kernel (one per registry row). */
typedef struct ck_kernel_stats {
    bool     selected;              /* the CPU runs its set and the options keep it */
    uint64_t cases;                 /* cases with a step it accepted */
    uint64_t last_case;             /* the case that counted last */
    uint64_t accepted[CK_RECORDS];  /* step shapes it accepted, per record */
    uint64_t checks, failed;
    ck_bench bench;
} ck_kernel_stats;

typedef struct ck_context {
    ck_kernel_stats *stats;         /* tmv_kernel_count of them, in registry order */
    bool             verbose;       /* print each case and each check */
    bool             bench;         /* time what is checked (check_bench.h) */
    unsigned         full_reports;  /* failures to report in full (then one line each) */
    uint64_t         cases;         /* cases checked so far */
    uint64_t         reports;       /* failures reported so far */
    uint64_t         broken;        /* cases that could not be set up */
    cg_rng           bench_rng;
} ck_context;

/* Checks the case `seed` names (check_seed.h). Prints a FAIL report with a
 * reproduce line for each failed check; false (reported, and counted in
 * ctx->broken) if the case could not be built or created. */
bool ck_check_case(ck_context *ctx, uint64_t seed);

#endif
