/* check_seed.h - the case seeds of tmv-check-kernels: one 64-bit number
 * names a whole case, random or directed, so that `--case SEED` alone runs
 * it again.
 *   random    bits 56..63 the operator (tmv_op_type, 1..6), the rest drawn
 *             from the base seed; the case is casegen's cg_case_new
 *   directed  bit 63 set, bits 56..62 zero, bits 48..55 the family
 *             (casegen_directed.h), bits 32..47 a variant drawn from the
 *             base seed (the data, which indices are bad, the output
 *             alignment), bits 0..31 the geometry */
#ifndef TMV_CHECK_SEED_H
#define TMV_CHECK_SEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "casegen.h"

/* Case i of operator t's random cases for base seed `base`. */
uint64_t ck_random_seed(uint64_t base, tmv_op_type t, uint64_t i);
/* Geometry g of directed family f for base seed `base`. */
uint64_t ck_directed_seed(uint64_t base, uint32_t family, uint64_t geometry);

/* The case a seed names (GATHER_ND's random ones meet bad and clamped
 * indices, as tmv-verify's do); NULL when it names none or when out of
 * memory. Free with cg_case_free. */
cg_case *ck_case_new(uint64_t seed);

/* Whether the case's output areas start on 64-byte lines (half the cases)
 * or a few elements past one. */
bool ck_case_aligned(uint64_t seed);

/* "join (random)", "tile (directed transpose)". */
const char *ck_case_name(const cg_case *c, uint64_t seed, char *buf, size_t len);

#endif
