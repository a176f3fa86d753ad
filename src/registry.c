/* registry.c - the kernel table built from registry.inc, and picking a kernel for a shape. */
#include "kernels.h"
#include "copy_kinds.h"
#include "cost.h"
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

/* The union member of a row's functions: the copy family's all use fn.copy. */
#define TMV_FN_copy copy
#define TMV_FN_fill copy
#define TMV_FN_deinterleave copy
#define TMV_FN_interleave copy
#define TMV_FN_transpose copy
#define TMV_FN_join_rows join_rows
#define TMV_FN_split_rows split_rows
#define TMV_FN_gather gather
#define TMV_FN(primitive) TMV_FN_##primitive

/* A row's `stores` column (kernels.h, tmv_stores) and its streams hook:
 * the kernel's tmv_<variant>_<set>_streams for `streams_if`, else NULL. */
#define TMV_STORES_plain TMV_STORES_PLAIN
#define TMV_STORES_streams TMV_STORES_STREAMED
#define TMV_STORES_streams_if TMV_STORES_BY_SHAPE
#define TMV_STORES_streams_peeled TMV_STORES_STREAMED
#define TMV_STORES_streams_if_peeled TMV_STORES_BY_SHAPE
#define TMV_STREAMS_plain(fn) NULL
#define TMV_STREAMS_streams(fn) NULL
#define TMV_STREAMS_streams_if(fn) fn##_streams
#define TMV_STREAMS_streams_peeled(fn) NULL
#define TMV_STREAMS_streams_if_peeled(fn) fn##_streams
/* ... and whether it streams a destination off a line itself (_peeled) */
#define TMV_PEELS_plain false
#define TMV_PEELS_streams false
#define TMV_PEELS_streams_if false
#define TMV_PEELS_streams_peeled true
#define TMV_PEELS_streams_if_peeled true

/* A row's last members: a copy-family row's features hook (NULL unless the
 * row is TMV_KERNEL_PRICED) and streams hook, a rows step's streams hook, a
 * gather row's set index check (kernels.h; gathers are not rated, so their
 * stores column only says what they do). */
#define TMV_LAST_copy(set, features, streams) , features, streams
#define TMV_LAST_fill(set, features, streams) , features, streams
#define TMV_LAST_deinterleave(set, features, streams) , features, streams
#define TMV_LAST_interleave(set, features, streams) , features, streams
#define TMV_LAST_transpose(set, features, streams) , features, streams
#define TMV_LAST_join_rows(set, features, streams) , streams
#define TMV_LAST_split_rows(set, features, streams) , streams
#define TMV_LAST_gather(set, features, streams) , tmv_gather_check_##set

#define TMV_ROW(primitive, variant, set, state, stores, features)                                         \
    {#variant "/" TMV_SET_NAME_##set, TMV_PRIMITIVE_##primitive, TMV_SET_##set, TMV_STORES_##stores,       \
     TMV_PEELS_##stores,                                                                                  \
     .fn.TMV_FN(primitive) = {tmv_##variant##_##set##_accepts, tmv_##variant##_##set,                      \
                              TMV_PREPARE_##state(tmv_##variant##_##set)                                   \
                              TMV_LAST_##primitive(set, features, TMV_STREAMS_##stores(tmv_##variant##_##set))}},
#define TMV_PRIMITIVE_copy TMV_PRIMITIVE_COPY
#define TMV_PRIMITIVE_fill TMV_PRIMITIVE_FILL
#define TMV_PRIMITIVE_deinterleave TMV_PRIMITIVE_DEINTERLEAVE
#define TMV_PRIMITIVE_interleave TMV_PRIMITIVE_INTERLEAVE
#define TMV_PRIMITIVE_transpose TMV_PRIMITIVE_TRANSPOSE
#define TMV_PRIMITIVE_join_rows TMV_PRIMITIVE_JOIN_ROWS
#define TMV_PRIMITIVE_split_rows TMV_PRIMITIVE_SPLIT_ROWS
#define TMV_PRIMITIVE_gather TMV_PRIMITIVE_GATHER
#define TMV_KERNEL(primitive, variant, set, state, stores) \
    TMV_ROW_##set(TMV_ROW(primitive, variant, set, state, stores, NULL))
#define TMV_KERNEL_PRICED(primitive, variant, set, state, stores) \
    TMV_ROW_##set(TMV_ROW(primitive, variant, set, state, stores, tmv_##variant##_##set##_features))

const tmv_kernel tmv_kernels[] = {
#include "registry.inc"
};
const unsigned tmv_kernel_count = sizeof tmv_kernels / sizeof tmv_kernels[0];

const char *tmv_primitive_name(tmv_primitive p)
{
    switch (p) {
    case TMV_PRIMITIVE_COPY: return "copy";
    case TMV_PRIMITIVE_FILL: return "fill";
    case TMV_PRIMITIVE_DEINTERLEAVE: return "deinterleave";
    case TMV_PRIMITIVE_INTERLEAVE: return "interleave";
    case TMV_PRIMITIVE_TRANSPOSE: return "transpose";
    case TMV_PRIMITIVE_JOIN_ROWS: return "join_rows";
    case TMV_PRIMITIVE_SPLIT_ROWS: return "split_rows";
    case TMV_PRIMITIVE_GATHER: return "gather";
    case TMV_PRIMITIVE_COUNT: break;
    }
    return "unknown primitive";
}

bool tmv_kernel_accepts(const tmv_kernel *k, const void *shape)
{
    if (tmv_primitive_copies(k->primitive))
        return k->fn.copy.accepts(shape);
    switch (k->primitive) {
    case TMV_PRIMITIVE_JOIN_ROWS: return k->fn.join_rows.accepts(shape);
    case TMV_PRIMITIVE_SPLIT_ROWS: return k->fn.split_rows.accepts(shape);
    case TMV_PRIMITIVE_GATHER: return k->fn.gather.accepts(shape);
    default: break;
    }
    return false;
}

bool tmv_kernel_has_prepare(const tmv_kernel *k)
{
    if (tmv_primitive_copies(k->primitive))
        return k->fn.copy.prepare != NULL;
    switch (k->primitive) {
    case TMV_PRIMITIVE_JOIN_ROWS: return k->fn.join_rows.prepare != NULL;
    case TMV_PRIMITIVE_SPLIT_ROWS: return k->fn.split_rows.prepare != NULL;
    case TMV_PRIMITIVE_GATHER: return k->fn.gather.prepare != NULL;
    default: break;
    }
    return false;
}

void tmv_kernel_prepare(const tmv_kernel *k, const void *shape, void *state)
{
    if (tmv_primitive_copies(k->primitive)) {
        k->fn.copy.prepare(shape, state);
        return;
    }
    switch (k->primitive) {
    case TMV_PRIMITIVE_JOIN_ROWS: k->fn.join_rows.prepare(shape, state); break;
    case TMV_PRIMITIVE_SPLIT_ROWS: k->fn.split_rows.prepare(shape, state); break;
    case TMV_PRIMITIVE_GATHER: k->fn.gather.prepare(shape, state); break;
    default: break;
    }
}

/* Room for every kernel of one primitive (or of the copy family) that
 * accepts a shape; test_cost checks the registry has no more. */
#define ACCEPTING_MAX TMV_COST_CANDIDATES_MAX

/* The kernels of `primitive` that set `isa` includes and that accept the
 * shape, in registry order, into accepting[]; at most `most`. */
static unsigned accepting_kernels(tmv_primitive primitive, tmv_isa isa, const void *shape,
                                  const tmv_kernel **accepting, unsigned most)
{
    const uint32_t included = tmv_isa_included_mask(isa);
    unsigned n = 0;
    for (unsigned i = 0; i < tmv_kernel_count && n < most; i++) {
        const tmv_kernel *k = &tmv_kernels[i];
        if (k->primitive == primitive && (included >> k->set & 1u) && tmv_kernel_accepts(k, shape))
            accepting[n++] = k;
    }
    return n;
}

/* The same for a copy shape: the copy family's rows whose primitive the
 * shape is, the most specific primitive first -- a B-way (de)interleave is
 * also a 2-D transpose (one side B), and anything is a copy; only those
 * with no prepare when `stateless`. */
static unsigned accepting_copy_kernels(tmv_isa isa, const tmv_copy_shape *shape, bool stateless,
                                       const tmv_kernel **accepting, unsigned most)
{
    static const uint32_t tiers[] = {
        1u << TMV_PRIMITIVE_FILL | 1u << TMV_PRIMITIVE_DEINTERLEAVE | 1u << TMV_PRIMITIVE_INTERLEAVE,
        1u << TMV_PRIMITIVE_TRANSPOSE,
        1u << TMV_PRIMITIVE_COPY,
    };
    const uint32_t included = tmv_isa_included_mask(isa), kinds = tmv_copy_primitives(shape);
    unsigned n = 0;
    for (unsigned t = 0; t < sizeof tiers / sizeof tiers[0]; t++)
        for (unsigned i = 0; i < tmv_kernel_count && n < most; i++) {
            const tmv_kernel *k = &tmv_kernels[i];
            if (((kinds & tiers[t]) >> k->primitive & 1u) && (included >> k->set & 1u) &&
                !(stateless && k->fn.copy.prepare != NULL) && k->fn.copy.accepts(shape))
                accepting[n++] = k;
        }
    return n;
}

/* NULL only for none: COPY and the non-copy primitives end with a portable
 * row that takes any shape (test_registry). */
const tmv_kernel *tmv_pick(tmv_primitive primitive, tmv_isa isa, const void *shape)
{
    const tmv_kernel *accepting[ACCEPTING_MAX];
    return tmv_cost_choose(accepting, accepting_kernels(primitive, isa, shape, accepting, ACCEPTING_MAX), shape);
}

const tmv_kernel *tmv_pick_first(tmv_primitive primitive, tmv_isa isa, const void *shape)
{
    const tmv_kernel *first = NULL;
    accepting_kernels(primitive, isa, shape, &first, 1);
    return first;
}

const tmv_kernel *tmv_pick_copy(tmv_isa isa, const tmv_copy_shape *shape)
{
    const tmv_kernel *accepting[ACCEPTING_MAX];
    return tmv_cost_choose(accepting, accepting_copy_kernels(isa, shape, false, accepting, ACCEPTING_MAX), shape);
}

const tmv_kernel *tmv_pick_copy_stateless(tmv_isa isa, const tmv_copy_shape *shape)
{
    const tmv_kernel *accepting[ACCEPTING_MAX];
    return tmv_cost_choose(accepting, accepting_copy_kernels(isa, shape, true, accepting, ACCEPTING_MAX), shape);
}

const tmv_kernel *tmv_pick_copy_first(tmv_isa isa, const tmv_copy_shape *shape)
{
    const tmv_kernel *first = NULL;
    accepting_copy_kernels(isa, shape, true, &first, 1);
    return first;
}

unsigned tmv_candidates(tmv_primitive primitive, tmv_isa isa, const void *shape, const tmv_kernel **out,
                        unsigned most)
{
    return accepting_kernels(primitive, isa, shape, out, most);
}

unsigned tmv_copy_candidates(tmv_isa isa, const tmv_copy_shape *shape, const tmv_kernel **out, unsigned most)
{
    return accepting_copy_kernels(isa, shape, false, out, most);
}
