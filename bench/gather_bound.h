/* gather_bound.h - the memory system's bound on a GATHER_ND case: one load from every cache line its slices cover.
 *
 * Any gather reads each line its slices cover at least once, at addresses
 * only its indices give. The bound is a loop that loads one byte from each of
 * those lines, in the gather's order, from offsets worked out before it is
 * timed: timed plainly and with a prefetch ahead of each load (faster from
 * DRAM, slower from the caches), the faster of the two. Its time / the case's
 * is x_bound (the suite's "bound/random-loads" rows are the plain loop for
 * 4-byte elements of a table the output's size). Where the lines are cached
 * the copy of the output bytes is the higher bar; from a table beyond the
 * caches no copy rate is reachable and this is the one. It is a plain loop,
 * not a proof: a kernel that overlaps its loads better may beat it a little. */
#ifndef TMV_BENCH_GATHER_BOUND_H
#define TMV_BENCH_GATHER_BOUND_H

#include <stdint.h>

#include "obvious.h"

typedef struct gather_bound {
    const uint8_t *base;   /* the table's first byte */
    uint32_t *offsets;     /* of one byte in each line, from base, in order */
    uint8_t *sink;         /* the loaded bytes, one per offset */
    uint64_t count;
} gather_bound;

/* The bound's loads for gather plan p whose slices start at or after base.
 * Returns 0, or -1 for a plan that is not a gather, a line past 4 GiB from
 * base, or no memory (b is then empty). */
int gather_bound_build(const obvious_plan *p, const uint8_t *base, gather_bound *b);
/* The timed loops: the loads alone, and each with a prefetch of the line
 * 32 loads ahead (faster from DRAM, slower from the caches): the bound is
 * the faster of the two. */
void gather_bound_run(void *b);
void gather_bound_run_ahead(void *b);
void gather_bound_free(gather_bound *b);

#endif /* TMV_BENCH_GATHER_BOUND_H */
