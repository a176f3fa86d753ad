/* test_util.h - Criterion-side helpers: seeds, the per-kernel-set loop, running cases and examples. */
#ifndef TMV_TEST_UTIL_H
#define TMV_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "casegen.h"
#include "tensormove.h"

/* The seed for a randomized test: TENSORMOVE_TEST_SEED (decimal or 0x hex)
 * if set, else from the clock. Printed to stderr with how to repeat it. */
uint64_t tu_seed(const char *test_name);

/* Runs body once per kernel set this CPU has (tmv_isa_name(i) != NULL and
 * tmv_set_isa(i) == TMV_OK for i in 0..63), logging each set it runs and
 * each named set it skips; restores the set that was active. Fails the test
 * if no set ran. Returns how many sets ran. */
typedef void (*tu_isa_body)(tmv_isa isa, void *ctx);
unsigned tu_for_each_isa(tu_isa_body body, void *ctx);

/* The registry's kernel named `name` (registry.inc, "<variant>/<set>") if
 * this CPU runs its set, else NULL. */
struct tmv_kernel;
const struct tmv_kernel *tu_runnable_kernel(const char *name);

/* A tensor description over caller-owned arrays. */
tmv_tensor_desc tu_tensor(tmv_dtype dtype, uint32_t dim_count, const uint32_t *sizes, const uint32_t *strides);

/* Asserts that a random case gives the same status and the same output
 * bytes (guard bands and gaps included) through the library as through the
 * reference; on failure the message holds the case. */
void tu_check_case(const cg_case *c);

/* len bytes ending exactly where a PROT_NONE page begins (an over-read
 * faults; a PROT_NONE page also sits before the buffer's first page), filled
 * from data when it is not NULL, else with a pattern of salt and position.
 * Fails the test if the mapping cannot be made. Free with tu_guarded_free. */
typedef struct tu_guarded {
    unsigned char *map, *data;
    size_t         map_len;
} tu_guarded;
tu_guarded tu_guarded_new(size_t len, const void *data, unsigned salt);
void tu_guarded_free(tu_guarded *g);

/* Output areas of hand-written tests get TU_GUARD canary bytes on each side;
 * the byte at offset i from the data pointer starts as tu_canary_at(i)
 * (i may be negative, down to -TU_GUARD). */
#define TU_GUARD 64
unsigned char tu_canary_at(int64_t offset);

/* Runs desc on inputs, once per kernel set and each time both through
 * tmv_op_create + tmv_op_execute and through tmv_execute, into canary-filled
 * areas of out_bytes[o] bytes, and asserts TMV_OK, that each area's bytes
 * equal expected[o] (all out_bytes[o] of them, gaps included), and that the
 * guard bands are untouched. `what` names the example in messages. */
void tu_expect_outputs(const char *what, const tmv_op_desc *desc, const void *const *inputs,
                       uint32_t output_count, const size_t *out_bytes, const void *const *expected);

/* Like tu_expect_outputs for a call that must fail with `status` at execute
 * (both paths) and leave every output byte as it was. */
void tu_expect_execute_failure(const char *what, const tmv_op_desc *desc, const void *const *inputs,
                               uint32_t output_count, const size_t *out_bytes, tmv_status status);

#endif
