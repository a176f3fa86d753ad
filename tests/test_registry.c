/* test_registry.c - the registry's invariants: unique names, known sets, a portable catch-all closing each primitive. */
#include <criterion/criterion.h>
#include <string.h>

#include "copy_kinds.h"
#include "kernel_sets.h"
#include "kernels.h"

Test(registry, names_are_unique_and_name_their_set)
{
    for (unsigned i = 0; i < tmv_kernel_count; i++) {
        const tmv_kernel *k = &tmv_kernels[i];
        const tmv_kernel_set *set = tmv_kernel_set_of(k->set);
        cr_assert_not_null(set, "%s: set %d is not in the table", k->name, (int)k->set);
        cr_expect(set->built, "%s: its set %s is not built", k->name, set->name);
        const char *slash = strchr(k->name, '/');
        cr_assert_not_null(slash, "%s: no /<set> in the name", k->name);
        cr_expect_str_eq(slash + 1, set->name, "%s: name and set differ", k->name);
        for (unsigned j = i + 1; j < tmv_kernel_count; j++)
            cr_expect_str_neq(k->name, tmv_kernels[j].name, "two rows named %s", k->name);
    }
}

/* tmv_pick relies on it: whatever the shape, some portable row takes it --
 * for COPY (the copy family's catch-all) and each primitive outside the family. */
Test(registry, each_primitive_ends_with_a_portable_catch_all)
{
    const tmv_copy_shape copy = {0};
    const tmv_rows_shape rows = {0};
    const tmv_gather_shape gather = {0};
    for (int p = 0; p < TMV_PRIMITIVE_COUNT; p++) {
        if (p != TMV_PRIMITIVE_COPY && tmv_primitive_copies((tmv_primitive)p))
            continue;
        const void *shape = p == TMV_PRIMITIVE_COPY ? (const void *)&copy
                            : p == TMV_PRIMITIVE_GATHER ? (const void *)&gather : (const void *)&rows;
        const tmv_kernel *last = NULL;
        for (unsigned i = 0; i < tmv_kernel_count; i++)
            if (tmv_kernels[i].primitive == (tmv_primitive)p)
                last = &tmv_kernels[i];
        cr_assert_not_null(last, "no kernel for %s", tmv_primitive_name((tmv_primitive)p));
        cr_expect_eq(last->set, TMV_ISA_SCALAR, "%s ends with %s", tmv_primitive_name((tmv_primitive)p), last->name);
        cr_expect(tmv_kernel_accepts(last, shape), "%s does not take every shape", last->name);
        cr_expect_eq(tmv_pick((tmv_primitive)p, TMV_ISA_SCALAR, shape), last,
                     "the scalar set picks another kernel than %s", last->name);
    }
    cr_expect_not_null(tmv_pick_copy(TMV_ISA_SCALAR, &copy), "no copy kernel for the empty shape");
}

/* A 2-D block of rows x cols elements of w bytes with the given byte strides
 * (outer dim first). */
static tmv_copy_shape block(uint64_t w, uint64_t rows, uint64_t cols, uint64_t src_outer, uint64_t src_inner,
                            uint64_t dst_outer, uint64_t dst_inner)
{
    tmv_copy_shape s = {.rank = 2, .elem_bytes = w};
    s.sizes[0] = rows, s.sizes[1] = cols;
    s.src_strides[0] = src_outer, s.src_strides[1] = src_inner;
    s.dst_strides[0] = dst_outer, s.dst_strides[1] = dst_inner;
    return s;
}

#define KIND(p) (1u << TMV_PRIMITIVE_##p)

/* The geometry of each copy primitive, from docs/SPEC.md's operators: what
 * the planner tells kernels a shape is. */
Test(registry, copy_shapes_are_classified_by_geometry)
{
    /* SPACE_TO_DEPTH, B = 2, 4-byte elements, rows of 100: dim 0 the 2 planes
     * (source stride w, destination stride one plane), inner dim x (source 2w, dst w) */
    tmv_copy_shape s = block(4, 2, 100, 4, 8, 400, 4);
    cr_expect_eq(tmv_copy_primitives(&s), KIND(COPY) | KIND(DEINTERLEAVE) | KIND(TRANSPOSE));
    cr_expect_eq(tmv_deinterleave_block(&s), 2);
    /* DEPTH_TO_SPACE, B = 4, 2-byte elements: inner dim the 4 planes (source one plane apart) */
    s = block(2, 50, 4, 2, 100, 8, 2);
    cr_expect_eq(tmv_copy_primitives(&s), KIND(COPY) | KIND(INTERLEAVE) | KIND(TRANSPOSE));
    cr_expect_eq(tmv_interleave_block(&s), 4);
    /* a 16 x 32 transpose of bytes: too wide a side for a B-way interleave */
    s = block(1, 16, 32, 1, 16, 32, 1);
    cr_expect_eq(tmv_copy_primitives(&s), KIND(COPY) | KIND(TRANSPOSE));
    /* TILE repeating each 4-byte element 3 times (source stride 0 inside a row) */
    s = block(4, 10, 3, 4, 0, 12, 4);
    cr_expect_eq(tmv_copy_primitives(&s), KIND(COPY) | KIND(FILL) | KIND(INTERLEAVE));
    /* JOIN's piece: rows of 24 contiguous bytes into a wider joined row */
    s = block(24, 10, 1, 24, 24, 64, 24);
    s.rank = 1, s.sizes[0] = 10, s.src_strides[0] = 24, s.dst_strides[0] = 64;
    cr_expect_eq(tmv_copy_primitives(&s), KIND(COPY));
}
