/* kernel_list.c - every kernel of every primitive, in preference order, and picking one for a shape. */
#include "dispatch.h"
#include "kernels.h"
#include "portable.h"
#if defined(TMV_HAVE_SSE2_KERNELS) || defined(TMV_HAVE_AVX2_KERNELS) || \
    defined(TMV_HAVE_AVX512_KERNELS) || defined(TMV_HAVE_AVX512VBMI_KERNELS)
#include "x86/kernels_x86.h"
#endif
#if defined(TMV_HAVE_NEON_KERNELS)
#include "arm/kernels_neon.h"
#endif

/* Within each list: the most specific kernels of the highest set first. A
 * set's kernels sit under its TMV_HAVE_<SET>_KERNELS, which CMake defines
 * when it builds that set's files for this architecture. */
const tmv_copy_kernel tmv_copy_kernels[] = {
#if defined(TMV_HAVE_AVX512VBMI_KERNELS)
#endif
#if defined(TMV_HAVE_AVX512_KERNELS)
#endif
#if defined(TMV_HAVE_AVX2_KERNELS)
#endif
#if defined(TMV_HAVE_SSE2_KERNELS)
#endif
#if defined(TMV_HAVE_NEON_KERNELS)
#endif
    {"copy_w1/scalar", TMV_ISA_SCALAR, tmv_copy_accepts_w1, tmv_copy_w1_portable},
    {"copy_w2/scalar", TMV_ISA_SCALAR, tmv_copy_accepts_w2, tmv_copy_w2_portable},
    {"copy_w4/scalar", TMV_ISA_SCALAR, tmv_copy_accepts_w4, tmv_copy_w4_portable},
    {"copy_w8/scalar", TMV_ISA_SCALAR, tmv_copy_accepts_w8, tmv_copy_w8_portable},
    {"copy_w16/scalar", TMV_ISA_SCALAR, tmv_copy_accepts_w16, tmv_copy_w16_portable},
    {"copy_memcpy/scalar", TMV_ISA_SCALAR, NULL, tmv_copy_any_portable},
    {NULL, TMV_ISA_SCALAR, NULL, NULL},
};

const tmv_join_rows_kernel tmv_join_rows_kernels[] = {
#if defined(TMV_HAVE_AVX512VBMI_KERNELS)
#endif
#if defined(TMV_HAVE_AVX512_KERNELS)
#endif
#if defined(TMV_HAVE_AVX2_KERNELS)
#endif
#if defined(TMV_HAVE_SSE2_KERNELS)
#endif
#if defined(TMV_HAVE_NEON_KERNELS)
#endif
    {"join_rows/scalar", TMV_ISA_SCALAR, NULL, tmv_join_rows_portable},
    {NULL, TMV_ISA_SCALAR, NULL, NULL},
};

const tmv_split_rows_kernel tmv_split_rows_kernels[] = {
#if defined(TMV_HAVE_AVX512VBMI_KERNELS)
#endif
#if defined(TMV_HAVE_AVX512_KERNELS)
#endif
#if defined(TMV_HAVE_AVX2_KERNELS)
#endif
#if defined(TMV_HAVE_SSE2_KERNELS)
#endif
#if defined(TMV_HAVE_NEON_KERNELS)
#endif
    {"split_rows/scalar", TMV_ISA_SCALAR, NULL, tmv_split_rows_portable},
    {NULL, TMV_ISA_SCALAR, NULL, NULL},
};

const tmv_gather_kernel tmv_gather_kernels[] = {
#if defined(TMV_HAVE_AVX512VBMI_KERNELS)
#endif
#if defined(TMV_HAVE_AVX512_KERNELS)
#endif
#if defined(TMV_HAVE_AVX2_KERNELS)
#endif
#if defined(TMV_HAVE_SSE2_KERNELS)
#endif
#if defined(TMV_HAVE_NEON_KERNELS)
#endif
    {"gather/scalar", TMV_ISA_SCALAR, NULL, tmv_gather_portable},
    {NULL, TMV_ISA_SCALAR, NULL, NULL},
};

/* The lists differ only in the shape type accepts takes, so one macro-free
 * walk per list; each stops at the portable catch-all at the latest. */
const tmv_copy_kernel *tmv_pick_copy(tmv_isa isa, const tmv_copy_shape *s)
{
    const tmv_copy_kernel *k = tmv_copy_kernels;
    while (!(tmv_isa_includes(isa, k->isa) && (k->accepts == NULL || k->accepts(s))))
        k++;
    return k;
}

const tmv_join_rows_kernel *tmv_pick_join_rows(tmv_isa isa, const tmv_rows_shape *s)
{
    const tmv_join_rows_kernel *k = tmv_join_rows_kernels;
    while (!(tmv_isa_includes(isa, k->isa) && (k->accepts == NULL || k->accepts(s))))
        k++;
    return k;
}

const tmv_split_rows_kernel *tmv_pick_split_rows(tmv_isa isa, const tmv_rows_shape *s)
{
    const tmv_split_rows_kernel *k = tmv_split_rows_kernels;
    while (!(tmv_isa_includes(isa, k->isa) && (k->accepts == NULL || k->accepts(s))))
        k++;
    return k;
}

const tmv_gather_kernel *tmv_pick_gather(tmv_isa isa, const tmv_gather_shape *s)
{
    const tmv_gather_kernel *k = tmv_gather_kernels;
    while (!(tmv_isa_includes(isa, k->isa) && (k->accepts == NULL || k->accepts(s))))
        k++;
    return k;
}

static void list_one(tmv_kernel_info *out, unsigned max, unsigned *n, const char *primitive,
                     const char *name, tmv_isa isa)
{
    if (*n < max)
        out[*n] = (tmv_kernel_info){primitive, name, isa};
    (*n)++;
}

unsigned tmv_list_kernels(tmv_kernel_info *out, unsigned max)
{
    unsigned n = 0;
    for (const tmv_copy_kernel *k = tmv_copy_kernels; k->name; k++)
        list_one(out, max, &n, "copy", k->name, k->isa);
    for (const tmv_join_rows_kernel *k = tmv_join_rows_kernels; k->name; k++)
        list_one(out, max, &n, "join_rows", k->name, k->isa);
    for (const tmv_split_rows_kernel *k = tmv_split_rows_kernels; k->name; k++)
        list_one(out, max, &n, "split_rows", k->name, k->isa);
    for (const tmv_gather_kernel *k = tmv_gather_kernels; k->name; k++)
        list_one(out, max, &n, "gather", k->name, k->isa);
    return n;
}
