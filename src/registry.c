/* registry.c - the kernel table built from registry.inc, and picking a kernel for a shape. */
#include "kernels.h"
#include "kernel_sets.h"

/* A row counts where CMake built its set's files (TMV_HAVE_<SET>_KERNELS);
 * TMV_ROW_<set>(row) keeps or drops it. The NEON sources build as the native
 * "neon" set on Arm or as the emulated "neon-simde" set on x86. */
#define TMV_ROW_scalar(row) row
#if defined(TMV_HAVE_SSE2_KERNELS)
#define TMV_ROW_sse2(row) row
#else
#define TMV_ROW_sse2(row)
#endif
#if defined(TMV_HAVE_AVX2_KERNELS)
#define TMV_ROW_avx2(row) row
#else
#define TMV_ROW_avx2(row)
#endif
#if defined(TMV_HAVE_AVX512_KERNELS)
#define TMV_ROW_avx512(row) row
#else
#define TMV_ROW_avx512(row)
#endif
#if defined(TMV_HAVE_AVX512VBMI_KERNELS)
#define TMV_ROW_avx512vbmi(row) row
#else
#define TMV_ROW_avx512vbmi(row)
#endif
#if defined(TMV_HAVE_NEON_KERNELS) || defined(TMV_HAVE_NEON_SIMDE_KERNELS)
#define TMV_ROW_neon(row) row
#else
#define TMV_ROW_neon(row)
#endif

#define TMV_SET_scalar TMV_ISA_SCALAR
#define TMV_SET_sse2 TMV_ISA_SSE2
#define TMV_SET_avx2 TMV_ISA_AVX2
#define TMV_SET_avx512 TMV_ISA_AVX512
#define TMV_SET_avx512vbmi TMV_ISA_AVX512_VBMI
#if defined(TMV_HAVE_NEON_SIMDE_KERNELS)
#define TMV_SET_neon TMV_ISA_NEON_SIMDE
#define TMV_SET_NAME_neon "neon-simde"
#else
#define TMV_SET_neon TMV_ISA_NEON
#define TMV_SET_NAME_neon "neon"
#endif
#define TMV_SET_NAME_scalar "scalar"
#define TMV_SET_NAME_sse2 "sse2"
#define TMV_SET_NAME_avx2 "avx2"
#define TMV_SET_NAME_avx512 "avx512"
#define TMV_SET_NAME_avx512vbmi "avx512vbmi"

#define TMV_PREPARE_stateless(fn) NULL
#define TMV_PREPARE_prepared(fn) fn##_prepare

#define TMV_ROW(primitive, variant, set, state)                                        \
    {#variant "/" TMV_SET_NAME_##set, TMV_PRIMITIVE_##primitive, TMV_SET_##set,        \
     .fn.primitive = {tmv_##variant##_##set##_accepts, tmv_##variant##_##set,          \
                      TMV_PREPARE_##state(tmv_##variant##_##set)}},
#define TMV_PRIMITIVE_copy TMV_PRIMITIVE_COPY
#define TMV_PRIMITIVE_join_rows TMV_PRIMITIVE_JOIN_ROWS
#define TMV_PRIMITIVE_split_rows TMV_PRIMITIVE_SPLIT_ROWS
#define TMV_PRIMITIVE_gather TMV_PRIMITIVE_GATHER
#define TMV_KERNEL(primitive, variant, set, state) TMV_ROW_##set(TMV_ROW(primitive, variant, set, state))

const tmv_kernel tmv_kernels[] = {
#include "registry.inc"
};
const unsigned tmv_kernel_count = sizeof tmv_kernels / sizeof tmv_kernels[0];

const char *tmv_primitive_name(tmv_primitive p)
{
    switch (p) {
    case TMV_PRIMITIVE_COPY: return "copy";
    case TMV_PRIMITIVE_JOIN_ROWS: return "join_rows";
    case TMV_PRIMITIVE_SPLIT_ROWS: return "split_rows";
    case TMV_PRIMITIVE_GATHER: return "gather";
    case TMV_PRIMITIVE_COUNT: break;
    }
    return "unknown primitive";
}

bool tmv_kernel_accepts(const tmv_kernel *k, const void *shape)
{
    switch (k->primitive) {
    case TMV_PRIMITIVE_COPY: return k->fn.copy.accepts(shape);
    case TMV_PRIMITIVE_JOIN_ROWS: return k->fn.join_rows.accepts(shape);
    case TMV_PRIMITIVE_SPLIT_ROWS: return k->fn.split_rows.accepts(shape);
    case TMV_PRIMITIVE_GATHER: return k->fn.gather.accepts(shape);
    case TMV_PRIMITIVE_COUNT: break;
    }
    return false;
}

bool tmv_kernel_has_prepare(const tmv_kernel *k)
{
    switch (k->primitive) {
    case TMV_PRIMITIVE_COPY: return k->fn.copy.prepare != NULL;
    case TMV_PRIMITIVE_JOIN_ROWS: return k->fn.join_rows.prepare != NULL;
    case TMV_PRIMITIVE_SPLIT_ROWS: return k->fn.split_rows.prepare != NULL;
    case TMV_PRIMITIVE_GATHER: return k->fn.gather.prepare != NULL;
    case TMV_PRIMITIVE_COUNT: break;
    }
    return false;
}

void tmv_kernel_prepare(const tmv_kernel *k, const void *shape, void *state)
{
    switch (k->primitive) {
    case TMV_PRIMITIVE_COPY: k->fn.copy.prepare(shape, state); break;
    case TMV_PRIMITIVE_JOIN_ROWS: k->fn.join_rows.prepare(shape, state); break;
    case TMV_PRIMITIVE_SPLIT_ROWS: k->fn.split_rows.prepare(shape, state); break;
    case TMV_PRIMITIVE_GATHER: k->fn.gather.prepare(shape, state); break;
    case TMV_PRIMITIVE_COUNT: break;
    }
}

const tmv_kernel *tmv_pick(tmv_primitive primitive, tmv_isa isa, const void *shape)
{
    const uint32_t included = tmv_isa_included_mask(isa);
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        const tmv_kernel *k = &tmv_kernels[i];
        if (k->primitive == primitive && (included >> k->set & 1u) && tmv_kernel_accepts(k, shape))
            return k;
    }
    return NULL; /* not reached: each primitive's last row is portable and takes any shape (test_registry) */
}
