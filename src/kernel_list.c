/* kernel_list.c - every kernel of every primitive, in preference order, and picking one for a shape. */
#include "dispatch.h"
#include "kernels.h"
#include "portable.h"
#if defined(TMV_HAVE_SSE2_KERNELS) || defined(TMV_HAVE_AVX2_KERNELS) || \
    defined(TMV_HAVE_AVX512_KERNELS) || defined(TMV_HAVE_AVX512VBMI_KERNELS)
#include "x86/kernels_x86.h"
#endif
#if defined(TMV_HAVE_NEON_KERNELS) || defined(TMV_HAVE_NEON_SIMDE_KERNELS)
#include "arm/kernels_neon.h"
#endif

/* Within each list: the most specific kernels of the highest set first. A
 * set's kernels sit under its TMV_HAVE_<SET>_KERNELS, which CMake defines
 * when it builds that set's files for this architecture. */
const tmv_copy_kernel tmv_copy_kernels[] = {
#if defined(TMV_HAVE_AVX512VBMI_KERNELS)
    {"fill_pattern/avx512vbmi", TMV_ISA_AVX512_VBMI, tmv_fill_accepts_pattern_vbmi, tmv_fill_pattern_avx512vbmi},
    {"copy_deinterleave/avx512vbmi", TMV_ISA_AVX512_VBMI, tmv_copy_accepts_deinterleave_avx512vbmi, tmv_copy_deinterleave_avx512vbmi},
    {"copy_interleave/avx512vbmi", TMV_ISA_AVX512_VBMI, tmv_copy_accepts_interleave_avx512vbmi, tmv_copy_interleave_avx512vbmi},
#endif
#if defined(TMV_HAVE_AVX512_KERNELS)
    {"copy_deinterleave/avx512", TMV_ISA_AVX512, tmv_copy_accepts_deinterleave_avx512, tmv_copy_deinterleave_avx512},
    {"copy_interleave/avx512", TMV_ISA_AVX512, tmv_copy_accepts_interleave_avx512, tmv_copy_interleave_avx512},
    {"copy_transpose/avx512", TMV_ISA_AVX512, tmv_copy_accepts_transpose_avx512, tmv_copy_transpose_avx512},
#endif
#if defined(TMV_HAVE_AVX2_KERNELS)
    {"fill_pow2/avx2", TMV_ISA_AVX2, tmv_fill_accepts_pow2, tmv_fill_pow2_avx2},
    {"fill_period/avx2", TMV_ISA_AVX2, tmv_fill_accepts_period_avx2, tmv_fill_period_avx2},
    {"copy_deinterleave/avx2", TMV_ISA_AVX2, tmv_copy_accepts_deinterleave_avx2, tmv_copy_deinterleave_avx2},
    {"copy_interleave/avx2", TMV_ISA_AVX2, tmv_copy_accepts_interleave_avx2, tmv_copy_interleave_avx2},
    {"copy_transpose/avx2", TMV_ISA_AVX2, tmv_copy_accepts_transpose_avx2, tmv_copy_transpose_avx2},
#endif
#if defined(TMV_HAVE_SSE2_KERNELS)
    {"fill_pow2/sse2", TMV_ISA_SSE2, tmv_fill_accepts_pow2_sse2, tmv_fill_pow2_sse2},
    {"fill_block_stream/sse2", TMV_ISA_SSE2, tmv_fill_accepts_block_stream, tmv_fill_block_stream_sse2},
    {"copy_deinterleave/sse2", TMV_ISA_SSE2, tmv_copy_accepts_deinterleave_sse2, tmv_copy_deinterleave_sse2},
    {"copy_interleave/sse2", TMV_ISA_SSE2, tmv_copy_accepts_interleave_sse2, tmv_copy_interleave_sse2},
    {"copy_transpose/sse2", TMV_ISA_SSE2, tmv_copy_accepts_transpose_sse2, tmv_copy_transpose_sse2},
#endif
#if defined(TMV_HAVE_NEON_KERNELS) || defined(TMV_HAVE_NEON_SIMDE_KERNELS)
    {TMV_NEON_NAME("copy_deinterleave"), TMV_NEON_SET, tmv_copy_accepts_deinterleave_neon, tmv_copy_deinterleave_neon},
    {TMV_NEON_NAME("copy_interleave"), TMV_NEON_SET, tmv_copy_accepts_interleave_neon, tmv_copy_interleave_neon},
    {TMV_NEON_NAME("copy_fill"), TMV_NEON_SET, tmv_copy_accepts_fill_neon, tmv_copy_fill_neon},
#endif
    {"copy_fill_doubling/scalar", TMV_ISA_SCALAR, tmv_copy_accepts_fill_doubling, tmv_copy_fill_doubling_portable},
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
    {"join_rows_zip/avx512vbmi", TMV_ISA_AVX512_VBMI, tmv_join_rows_zip_accepts_avx512vbmi, tmv_join_rows_zip_avx512vbmi,
     tmv_join_rows_zip_prepare_avx512vbmi},
    {"join_rows_interleave/avx512vbmi", TMV_ISA_AVX512_VBMI, tmv_join_rows_interleave_accepts_avx512vbmi, tmv_join_rows_interleave_avx512vbmi,
     tmv_join_rows_interleave_prepare_avx512vbmi},
#endif
#if defined(TMV_HAVE_AVX512_KERNELS)
    {"join_rows_zip/avx512", TMV_ISA_AVX512, tmv_join_rows_zip_accepts_avx512, tmv_join_rows_zip_avx512,
     tmv_join_rows_zip_prepare_avx512},
    {"join_rows_interleave/avx512", TMV_ISA_AVX512, tmv_join_rows_interleave_accepts_avx512, tmv_join_rows_interleave_avx512,
     tmv_join_rows_interleave_prepare_avx512},
#endif
#if defined(TMV_HAVE_AVX2_KERNELS)
    {"join_rows_zip/avx2", TMV_ISA_AVX2, tmv_join_rows_zip_accepts_avx2, tmv_join_rows_zip_avx2, NULL},
#endif
#if defined(TMV_HAVE_SSE2_KERNELS)
    {"join_rows_zip/sse2", TMV_ISA_SSE2, tmv_join_rows_zip_accepts_sse2, tmv_join_rows_zip_sse2, NULL},
    {"join_rows_stream/sse2", TMV_ISA_SSE2, tmv_join_rows_stream_accepts_sse2, tmv_join_rows_stream_sse2, NULL},
    {"join_rows_columns/sse2", TMV_ISA_SSE2, tmv_join_rows_columns_accepts_sse2, tmv_join_rows_columns_sse2, NULL},
#endif
#if defined(TMV_HAVE_NEON_KERNELS) || defined(TMV_HAVE_NEON_SIMDE_KERNELS)
    {TMV_NEON_NAME("join_rows_interleave"), TMV_NEON_SET, tmv_join_rows_accepts_interleave_neon, tmv_join_rows_interleave_neon, NULL},
    {TMV_NEON_NAME("join_rows_short"), TMV_NEON_SET, tmv_join_rows_accepts_short_neon, tmv_join_rows_short_neon, NULL},
#endif
    {"join_rows/scalar", TMV_ISA_SCALAR, NULL, tmv_join_rows_portable, NULL},
    {NULL, TMV_ISA_SCALAR, NULL, NULL, NULL},
};

const tmv_split_rows_kernel tmv_split_rows_kernels[] = {
#if defined(TMV_HAVE_AVX512VBMI_KERNELS)
    {"split_rows_zip/avx512vbmi", TMV_ISA_AVX512_VBMI, tmv_split_rows_zip_accepts_avx512vbmi, tmv_split_rows_zip_avx512vbmi,
     tmv_split_rows_zip_prepare_avx512vbmi},
    {"split_rows_interleave/avx512vbmi", TMV_ISA_AVX512_VBMI, tmv_split_rows_interleave_accepts_avx512vbmi, tmv_split_rows_interleave_avx512vbmi,
     tmv_split_rows_interleave_prepare_avx512vbmi},
#endif
#if defined(TMV_HAVE_AVX512_KERNELS)
    {"split_rows_zip/avx512", TMV_ISA_AVX512, tmv_split_rows_zip_accepts_avx512, tmv_split_rows_zip_avx512,
     tmv_split_rows_zip_prepare_avx512},
    {"split_rows_interleave/avx512", TMV_ISA_AVX512, tmv_split_rows_interleave_accepts_avx512, tmv_split_rows_interleave_avx512,
     tmv_split_rows_interleave_prepare_avx512},
#endif
#if defined(TMV_HAVE_AVX2_KERNELS)
    {"split_rows_zip/avx2", TMV_ISA_AVX2, tmv_split_rows_zip_accepts_avx2, tmv_split_rows_zip_avx2, NULL},
#endif
#if defined(TMV_HAVE_SSE2_KERNELS)
    {"split_rows_zip/sse2", TMV_ISA_SSE2, tmv_split_rows_zip_accepts_sse2, tmv_split_rows_zip_sse2, NULL},
    {"split_rows_stream/sse2", TMV_ISA_SSE2, tmv_split_rows_stream_accepts_sse2, tmv_split_rows_stream_sse2, NULL},
    {"split_rows_columns/sse2", TMV_ISA_SSE2, tmv_split_rows_columns_accepts_sse2, tmv_split_rows_columns_sse2, NULL},
#endif
#if defined(TMV_HAVE_NEON_KERNELS) || defined(TMV_HAVE_NEON_SIMDE_KERNELS)
    {TMV_NEON_NAME("split_rows_deinterleave"), TMV_NEON_SET, tmv_split_rows_accepts_deinterleave_neon, tmv_split_rows_deinterleave_neon, NULL},
    {TMV_NEON_NAME("split_rows_short"), TMV_NEON_SET, tmv_split_rows_accepts_short_neon, tmv_split_rows_short_neon, NULL},
#endif
    {"split_rows/scalar", TMV_ISA_SCALAR, NULL, tmv_split_rows_portable, NULL},
    {NULL, TMV_ISA_SCALAR, NULL, NULL, NULL},
};

const tmv_gather_kernel tmv_gather_kernels[] = {
#if defined(TMV_HAVE_AVX512VBMI_KERNELS)
#endif
#if defined(TMV_HAVE_AVX512_KERNELS)
    {"gather_rows/avx512", TMV_ISA_AVX512, tmv_gather_rows_accepts_avx512, tmv_gather_rows_avx512, tmv_gather_prepare_avx512},
    {"gather_elements/avx512", TMV_ISA_AVX512, tmv_gather_elements_accepts_avx512, tmv_gather_elements_avx512, tmv_gather_prepare_avx512},
#endif
#if defined(TMV_HAVE_AVX2_KERNELS)
    {"gather_rows/avx2", TMV_ISA_AVX2, tmv_gather_rows_accepts_avx2, tmv_gather_rows_avx2, tmv_gather_prepare_avx2},
#endif
#if defined(TMV_HAVE_SSE2_KERNELS)
    {"gather_rows/sse2", TMV_ISA_SSE2, tmv_gather_rows_accepts_sse2, tmv_gather_rows_sse2, tmv_gather_prepare_sse2},
    {"gather_elements/sse2", TMV_ISA_SSE2, tmv_gather_elements_accepts_sse2, tmv_gather_elements_sse2, tmv_gather_prepare_sse2},
#endif
#if defined(TMV_HAVE_NEON_KERNELS) || defined(TMV_HAVE_NEON_SIMDE_KERNELS)
    {TMV_NEON_NAME("gather"), TMV_NEON_SET, tmv_gather_accepts_neon, tmv_gather_neon, NULL},
#endif
    {"gather/scalar", TMV_ISA_SCALAR, NULL, tmv_gather_portable, NULL},
    {NULL, TMV_ISA_SCALAR, NULL, NULL, NULL},
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
