/* check_seed.c - case seeds of tmv-check-kernels (check_seed.h). */
#include "check_seed.h"

#include <stdio.h>

#include "casegen_directed.h"

#define LOW56 ((UINT64_C(1) << 56) - 1)
#define DIRECTED (UINT64_C(0x80) << 56)

uint64_t ck_random_seed(uint64_t base, tmv_op_type t, uint64_t i)
{
    cg_rng rng = {base ^ ((uint64_t)t << 56) ^ (i * UINT64_C(0x9E3779B97F4A7C15))};
    return (cg_rng_next(&rng) & LOW56) | (uint64_t)t << 56;
}

uint64_t ck_directed_seed(uint64_t base, uint32_t family, uint64_t geometry)
{
    cg_rng rng = {base ^ UINT64_C(0xD1B54A32D192ED03)};
    const uint64_t variant = (cg_rng_next(&rng) ^ geometry * UINT64_C(0x9E3779B97F4A7C15)) >> 48;
    return DIRECTED | (uint64_t)(family & 0xFF) << 48 | variant << 32 | (geometry & 0xFFFFFFFFu);
}

cg_case *ck_case_new(uint64_t seed)
{
    const uint64_t top = seed >> 56;
    if (top >= TMV_OP_JOIN && top <= TMV_OP_GATHER_ND) {
        cg_options opt = cg_default_options();
        opt.bad_index_percent = seed % 4 == 0 ? 50 : 0;
        opt.clamp_percent = seed % 3 == 0 ? 50 : 0;
        return cg_case_new((tmv_op_type)top, seed, &opt);
    }
    if (top == 0x80)
        return cg_directed_case_new((uint32_t)(seed >> 48) & 0xFF, seed & 0xFFFFFFFFu, seed);
    return NULL;
}

bool ck_case_aligned(uint64_t seed)
{
    return (seed * UINT64_C(0x9E3779B97F4A7C15)) >> 63 == 0;
}

const char *ck_case_name(const cg_case *c, uint64_t seed, char *buf, size_t len)
{
    if (seed & DIRECTED)
        snprintf(buf, len, "%s (directed %s)", cg_op_name(c->op.type),
                 cg_directed_family_name((uint32_t)(seed >> 48) & 0xFF));
    else
        snprintf(buf, len, "%s (random)", cg_op_name(c->op.type));
    return buf;
}
