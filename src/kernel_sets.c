/* kernel_sets.c - the kernel-set table, and which sets include which. */
#include "kernel_sets.h"

#include <stddef.h>

#include "cpu.h"

#if defined(TMV_HAVE_SSE2_KERNELS)
#define BUILT_SSE2 true
#else
#define BUILT_SSE2 false
#endif
#if defined(TMV_HAVE_AVX2_KERNELS)
#define BUILT_AVX2 true
#else
#define BUILT_AVX2 false
#endif
#if defined(TMV_HAVE_AVX512_KERNELS)
#define BUILT_AVX512 true
#else
#define BUILT_AVX512 false
#endif
#if defined(TMV_HAVE_AVX512VBMI_KERNELS)
#define BUILT_AVX512VBMI true
#else
#define BUILT_AVX512VBMI false
#endif
#if defined(TMV_HAVE_NEON_KERNELS)
#define BUILT_NEON true
#else
#define BUILT_NEON false
#endif
#if defined(TMV_HAVE_NEON_SIMDE_KERNELS)
#define BUILT_NEON_SIMDE true
#else
#define BUILT_NEON_SIMDE false
#endif

/* The x86 sets are compiled with -mbmi2 beside their vector flags (see
 * src/CMakeLists.txt), so they require it too. */
#define AVX2_FEATURES (TMV_CPU_SSE2 | TMV_CPU_AVX2 | TMV_CPU_BMI2)
#define AVX512_FEATURES \
    (AVX2_FEATURES | TMV_CPU_AVX512F | TMV_CPU_AVX512BW | TMV_CPU_AVX512DQ | TMV_CPU_AVX512VL)

const tmv_kernel_set tmv_kernel_sets[] = {
    {TMV_ISA_SCALAR, "scalar", TMV_FAMILY_PORTABLE, 0, 0, false, true},
    {TMV_ISA_SSE2, "sse2", TMV_FAMILY_X86, 1, TMV_CPU_SSE2, false, BUILT_SSE2},
    {TMV_ISA_AVX2, "avx2", TMV_FAMILY_X86, 2, AVX2_FEATURES, false, BUILT_AVX2},
    {TMV_ISA_AVX512, "avx512", TMV_FAMILY_X86, 3, AVX512_FEATURES, false, BUILT_AVX512},
    {TMV_ISA_AVX512_VBMI, "avx512vbmi", TMV_FAMILY_X86, 4,
     AVX512_FEATURES | TMV_CPU_AVX512VBMI | TMV_CPU_AVX512VBMI2, false, BUILT_AVX512VBMI},
    {TMV_ISA_NEON, "neon", TMV_FAMILY_ARM, 1, TMV_CPU_NEON, false, BUILT_NEON},
    {TMV_ISA_NEON_SIMDE, "neon-simde", TMV_FAMILY_NEON_SIMDE, 1, 0, true, BUILT_NEON_SIMDE},
};
const unsigned tmv_kernel_set_count = sizeof tmv_kernel_sets / sizeof tmv_kernel_sets[0];
_Static_assert(TMV_ISA_NEON_SIMDE < 32, "set values index the bits of tmv_isa_included_mask");

const tmv_kernel_set *tmv_kernel_set_of(tmv_isa isa)
{
    for (unsigned i = 0; i < tmv_kernel_set_count; i++)
        if (tmv_kernel_sets[i].isa == isa)
            return &tmv_kernel_sets[i];
    return NULL;
}

bool tmv_kernel_set_runs_on(const tmv_kernel_set *set, uint32_t cpu_features)
{
    return set->built && (cpu_features & set->requires) == set->requires;
}

bool tmv_isa_includes(tmv_isa cap, tmv_isa kernel)
{
    const tmv_kernel_set *c = tmv_kernel_set_of(cap), *k = tmv_kernel_set_of(kernel);
    if (c == NULL || k == NULL)
        return false;
    return k->family == TMV_FAMILY_PORTABLE || (k->family == c->family && k->rank <= c->rank);
}

uint32_t tmv_isa_included_mask(tmv_isa cap)
{
    uint32_t mask = 0;
    for (unsigned i = 0; i < tmv_kernel_set_count; i++)
        if (tmv_isa_includes(cap, tmv_kernel_sets[i].isa))
            mask |= 1u << tmv_kernel_sets[i].isa;
    return mask;
}

const char *tmv_isa_name(tmv_isa isa)
{
    const tmv_kernel_set *set = tmv_kernel_set_of(isa);
    return set == NULL ? NULL : set->name;
}
