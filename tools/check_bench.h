/* check_bench.h - tmv-check-kernels --bench: each kernel timed against the
 * portable kernel on a sample of the step shapes it accepts. A report, no
 * assertion: the times come from a checker busy with other things. */
#ifndef TMV_CHECK_BENCH_H
#define TMV_CHECK_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "casegen.h"
#include "check_step.h"

/* Shapes timed per kernel at most. */
#define CK_BENCH_SHAPES 48

/* Copies of c's inputs in plain heap memory, at the same offsets from a
 * 64-byte line, with room after them. The checked runs read guarded inputs
 * that end where a PROT_NONE page begins, and a masked vector load whose
 * masked-off bytes reach that page takes a fault-suppression assist (join
 * rows of 1 to 16 bytes timed 10-30x slower) that buffers in use never meet.
 * NULL when out of memory or an input spans more than CK_BENCH_INPUT_MAX
 * bytes (the directed cases' sparse ones, elements 2 GiB apart). */
#define CK_BENCH_INPUT_MAX ((size_t)64 << 20)
typedef struct ck_inputs {
    uint32_t    count;
    void       *maps[CG_MAX_TENSORS];
    const void *ptrs[CG_MAX_TENSORS];
} ck_inputs;
ck_inputs *ck_inputs_new(const cg_case *c);
void ck_inputs_free(ck_inputs *in);

/* Median nanoseconds per call of cs on inputs (into outs) over 9 samples
 * of enough calls each to take 20 us or more. */
double ck_step_time(const ck_step *cs, const void *const *inputs, cg_outputs *outs);

/* The v[0..n) value at quantile q (0 to 1, linear between neighbours; 0.5
 * is the median); sorts v. 0 when n is 0. */
double ck_quantile(double *v, unsigned n, double q);

/* Which of the items offered a uniform sample of up to `capacity` keeps
 * (reservoir sampling); the items are the sample's owner's. */
typedef struct ck_reservoir {
    uint64_t offered;
    unsigned filled;   /* slots holding an item */
} ck_reservoir;
/* Offers one more item: true, with the slot to put it in, when the sample
 * takes it (rng draws which). */
bool ck_reservoir_offer(ck_reservoir *r, unsigned capacity, cg_rng *rng, unsigned *slot);
/* The item the sample took is in its slot now. */
void ck_reservoir_put(ck_reservoir *r, unsigned slot);

struct ck_calibration;

/* One kernel's sample of the shapes offered. */
typedef struct ck_bench {
    ck_reservoir sample;
    double       ns[CK_BENCH_SHAPES], portable_ns[CK_BENCH_SHAPES];
    /* --calibrate: the kernel's calibration sample (check_calibrate.h),
     * which the same timing fills; NULL when not calibrating */
    struct ck_calibration *calibration;
} ck_bench;
/* ck_reservoir_offer and ck_reservoir_put for the kernel's sample, the
 * put with the shape's times. */
bool ck_bench_offer(ck_bench *b, cg_rng *rng, unsigned *slot);
void ck_bench_put(ck_bench *b, unsigned slot, double ns, double portable_ns);

/* The table: its head, then a row per kernel (median ns of the kernel and
 * of the portable kernel over the sample; speedup is the geometric mean of
 * portable / kernel time per shape). */
void ck_bench_print_head(FILE *f);
void ck_bench_print_row(FILE *f, const char *kernel, ck_bench *b);

#endif
